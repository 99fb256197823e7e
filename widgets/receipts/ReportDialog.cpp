#include "ReportDialog.h"
#include "Plural.h"

#include "HealthModels.h"
#include "OpRunner.h"
#include "WidgetUtil.h"

#include "report/render/ReportRender.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

namespace pb::widgets {

ReportDialog::ReportDialog(models::Workspace& workspace, QWidget* parent)
    : QDialog(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("reportDialog"));
    setWindowTitle(tr("Release review report"));
    resize(980, 760);

    m_version = new QComboBox(this);
    m_version->setObjectName(QStringLiteral("reportVersion"));
    m_version->setToolTip(
        tr("The catalog version the report reviews (default: the newest in version order)"));
    m_baseline = new QComboBox(this);
    m_baseline->setObjectName(QStringLiteral("reportBaseline"));
    m_baseline->setToolTip(
        tr("The catalog version \"Changes since\" compares with (default: the version just before "
           "the reviewed one in version order)"));
    m_baseline->addItem(tr("None (no comparison)"), report::kNoBaseline);
    m_baseline->setItemData(0, tr("Leave the changes section out"), Qt::ToolTipRole);
    m_origin = grayLabel("reportOrigin", this);
    m_origin->setWordWrap(true);
    m_origin->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("reportFilter"));
    m_filter->setPlaceholderText(tr("Only recipes whose name or criteria contain this text"));
    m_filter->setClearButtonEnabled(true);
    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("reportFormat"));
    m_format->addItem(tr("PDF (A4)"), int(ReportFormat::Pdf));
    m_format->addItem(tr("HTML (charts embedded)"), int(ReportFormat::Html));
    m_format->addItem(tr("Markdown (charts beside it)"), int(ReportFormat::Markdown));

    auto* form = new QFormLayout;
    form->addRow(tr("Catalog &version:"), m_version);
    form->addRow(tr("Changes since (&baseline):"), m_baseline);
    form->addRow(QString(), m_origin);
    form->addRow(tr("&Filter:"), m_filter);
    form->addRow(tr("F&ormat:"), m_format);

    m_preview = new QTextBrowser(this);
    m_preview->setObjectName(QStringLiteral("reportPreview"));
    m_preview->setOpenLinks(false);
    m_status = grayLabel("reportStatus", this);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_save = buttons->addButton(tr("&Save…"), QDialogButtonBox::AcceptRole);
    m_save->setObjectName(QStringLiteral("reportSaveButton"));
    m_save->setEnabled(false);
    disconnect(buttons, &QDialogButtonBox::accepted, nullptr, nullptr);
    connect(m_save, &QPushButton::clicked, this, &ReportDialog::saveInteractively);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_preview, 1);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    bottom->addWidget(buttons);
    layout->addLayout(bottom);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, &ReportDialog::refresh);
    connect(m_filter, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_version, &QComboBox::currentIndexChanged, this, [this] {
        selectDefaultBaseline(); // a new version: its own previous, unless the user picks another
        refresh();
    });
    connect(m_baseline, &QComboBox::currentIndexChanged, this, &ReportDialog::refresh);
    loadVersions();
}

void ReportDialog::loadVersions() {
    m_loadingVersions = true;
    m_status->setText(tr("Reading the database…"));
    m_workspace.read<std::vector<models::CatalogVersionInfo>>(
        this, [](const ops::Context& ctx) { return models::healthdata::catalogVersions(ctx.db()); },
        [this](const Result<std::vector<models::CatalogVersionInfo>>& versions) { onVersions(versions); });
}

void ReportDialog::onVersions(const Result<std::vector<models::CatalogVersionInfo>>& versions) {
    m_loadingVersions = false;
    if (versions)
        m_versions = *versions;
    {
        const QSignalBlocker blockVersion(m_version), blockBaseline(m_baseline);
        // Newest first (version order, never import order); each with where it came from.
        for (auto it = m_versions.rbegin(); it != m_versions.rend(); ++it) {
            const QString tip =
                tr("%1\nSource: %2\nOrdered by %3").arg(it->label, it->originText(), it->orderBasis());
            const QString text = it->isSample() ? tr("%1 (sample data)").arg(it->label) : it->label;
            m_version->addItem(text, it->label);
            m_version->setItemData(m_version->count() - 1, tip, Qt::ToolTipRole);
            m_baseline->addItem(text, it->label);
            m_baseline->setItemData(m_baseline->count() - 1, tip, Qt::ToolTipRole);
        }
    }
    selectDefaultBaseline();
    refresh();
}

void ReportDialog::selectDefaultBaseline() {
    const QString previous = report::defaultBaseline(m_versions, m_version->currentData().toString());
    const QSignalBlocker block(m_baseline);
    m_baseline->setCurrentIndex(std::max(0, previous.isEmpty() ? 0 : m_baseline->findData(previous)));
}

QString ReportDialog::baseline() const {
    return m_baseline->currentData().toString();
}

bool ReportDialog::setBaseline(const QString& label) {
    const int i = m_baseline->findData(label.isEmpty() ? report::kNoBaseline : label);
    if (i < 0)
        return false;
    m_baseline->setCurrentIndex(i);
    return true;
}

void ReportDialog::updateOrigin() {
    auto info = [this](const QString& label) -> const models::CatalogVersionInfo* {
        for (const models::CatalogVersionInfo& v : m_versions)
            if (v.label == label)
                return &v;
        return nullptr;
    };
    QStringList lines;
    if (const models::CatalogVersionInfo* v = info(m_version->currentData().toString()))
        lines << (v->isSample() ? tr("%1 is SAMPLE DATA: %2").arg(v->label, v->originText())
                                : tr("%1 from %2").arg(v->label, v->originText()));
    if (const models::CatalogVersionInfo* b = info(m_baseline->currentData().toString()))
        lines << tr("baseline %1 from %2").arg(b->label, b->originText());
    m_origin->setText(lines.join(QLatin1Char('\n')));
}

// A job still running when the dialog goes is not delivered; the workspace waits for it.
ReportDialog::~ReportDialog() = default;

ReportFormat ReportDialog::format() const {
    return ReportFormat(m_format->currentData().toInt());
}

void ReportDialog::setFormat(ReportFormat f) {
    m_format->setCurrentIndex(m_format->findData(int(f)));
}

ReportOptions ReportDialog::currentOptions() const {
    // The default baseline is left to the engine (the same rule: report::defaultBaseline), so a
    // first version says "nothing to compare with" rather than "no baseline chosen".
    const QString version = m_version->currentData().toString();
    const QString chosen = m_baseline->currentData().toString();
    const QString byDefault = report::defaultBaseline(m_versions, version);
    const bool isDefault = chosen == byDefault || (chosen == report::kNoBaseline && byDefault.isEmpty());
    return ReportOptions{version, m_filter->text().trimmed(), isDefault ? QString() : chosen};
}

void ReportDialog::refresh() {
    if (m_loadingVersions)
        return; // onVersions() refreshes
    if (m_collect.running()) {
        m_again = true;
        return;
    }
    m_again = false;
    m_save->setEnabled(false);
    m_status->setText(tr("Reading the database…"));
    updateOrigin();
    // The database is read on a worker of the workspace, through a connection of its own.
    m_collect = m_workspace.read<ReportData>(
        this,
        [options = currentOptions()](const ops::Context& ctx) {
            return report::collectReport(ctx.db(), options);
        },
        [this](Result<ReportData> data) { onCollected(data); });
}

void ReportDialog::onCollected(const Result<ReportData>& data) {
    if (m_again) {
        refresh();
        return;
    }
    m_error = data ? QString() : data.error().toString();
    if (!data) {
        m_data.reset();
        m_charts.clear();
        m_preview->setPlainText(m_error);
        m_status->setText(tr("The report could not be built."));
        emit previewReady();
        return;
    }
    m_data = *data;
    m_charts = report::renderReportCharts(*m_data);
    std::unique_ptr<QTextDocument> doc = report::reportDocument(*m_data, m_charts);
    const int pages = report::predictPdfPages(*doc);
    doc->setParent(m_preview); // the browser deletes the previous one, its child, itself
    m_preview->setDocument(doc.release());
    m_status->setText(
        tr("%1, %2, %3; about %4 as PDF")
            .arg(models::counted(qint64(m_data->rows.size()), tr("coordinate"), tr("coordinates")),
                 models::counted(qint64(m_charts.size()), tr("chart"), tr("charts")),
                 models::counted(qint64(m_data->problems.size()), tr("open problem"), tr("open problems")),
                 models::counted(pages, tr("A4 page"), tr("A4 pages"))));
    m_save->setEnabled(true);
    emit previewReady();
}

bool ReportDialog::saveTo(const QString& path) {
    if (!m_data || m_saving.running()) {
        const QString why = m_saving.running() ? tr("a report is being saved")
                                               : (m_error.isEmpty() ? tr("no report to save yet") : m_error);
        m_status->setText(why);
        emit saved(path, why);
        return false;
    }
    m_lastSaved.reset();
    m_save->setEnabled(false);
    m_status->setText(tr("Saving %1…").arg(QDir::toNativeSeparators(path)));
    // The file and its receipt are written on a worker, charts and PDF drawn there by the CLI's
    // renderer, so the bytes are the CLI's.
    m_saving = m_workspace.run<ReportOutput>(
        this,
        [data = *m_data, f = format(), path](const ops::Context& ctx) {
            ops::ReportExportRequest request;
            request.format = f;
            request.path = path;
            request.data = data;
            request.render = report::renderReport; // as the CLI's report: the same bytes
            return ops::exportReport(ctx, request);
        },
        [this, path](const Result<ReportOutput>& out) { onSaved(path, out); });
    return true;
}

void ReportDialog::onSaved(const QString& path, const Result<ReportOutput>& out) {
    m_save->setEnabled(m_data.has_value() && !m_collect.running());
    if (out) {
        m_lastSaved = *out;
        m_status->setText(tr("Saved %1 (sha256 %2…), receipt #%3")
                              .arg(QDir::toNativeSeparators(out->path), out->sha256.left(12))
                              .arg(out->receiptSeq));
    } else {
        m_status->setText(out.error().toString());
    }
    emit saved(path, out ? QString() : out.error().toString());
}

void ReportDialog::saveInteractively() {
    const ReportFormat f = format();
    const QString suffix = report::reportSuffix(f);
    const QString suggested =
        QDir::home().filePath(QStringLiteral("release-review-%1.%2")
                                  .arg(m_data ? m_data->version.label : QStringLiteral("report"), suffix));
    QFileDialog dialog(this, tr("Save the release review report"), suggested);
    dialog.setObjectName(QStringLiteral("reportSaveFileDialog"));
    dialog.setOption(QFileDialog::DontUseNativeDialog);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(suffix);
    dialog.setNameFilter(tr("%1 files (*.%2)").arg(report::reportFormatName(f).toUpper(), suffix));
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    saveTo(dialog.selectedFiles().constFirst()); // the status line and saved() report it
}

} // namespace pb::widgets
