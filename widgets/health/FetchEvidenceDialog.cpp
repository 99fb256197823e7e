#include "FetchEvidenceDialog.h"
#include "Plural.h"

#include "RegistryCredentialsDialog.h"
#include "RegistryModels.h"
#include "TableSetup.h"
#include "Workspace.h"
#include "oci/Layout.h"
#include "ops/FetchEvidence.h"

#include <QCloseEvent>
#include <QDir>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableView>
#include <QVBoxLayout>

namespace pb::widgets {

using models::FetchQueueModel;
using models::FetchState;

FetchEvidenceDialog::FetchEvidenceDialog(models::Workspace& workspace,
                                         std::vector<evidence::Pointer> pointers, RegistrySettings settings,
                                         QWidget* parent)
    : QDialog(parent), m_workspace(workspace), m_settings(std::move(settings)) {
    setObjectName(QStringLiteral("fetchEvidenceDialog"));
    setWindowTitle(tr("Fetch Evidence"));
    m_model = new FetchQueueModel(this);
    m_model->setObjectName(QStringLiteral("fetchQueueModel"));
    m_model->setPointers(std::move(pointers));

    m_intro = new QLabel(this);
    m_intro->setObjectName(QStringLiteral("fetchIntro"));
    m_intro->setWordWrap(true);
    m_intro->setText(
        tr("Pulls the bundle each pointer pins (by digest) and its Sigstore signature referrer into the "
           "local cache, checks it offline and imports it. %1.")
            .arg(models::counted(m_model->rowCount(), tr("bundle"), tr("bundles"))));

    m_plainHttp = new QLineEdit(m_settings.plainHttpRegistries.join(QStringLiteral(", ")), this);
    m_plainHttp->setObjectName(QStringLiteral("fetchPlainHttp"));
    m_plainHttp->setPlaceholderText(tr("none: HTTPS everywhere"));
    m_plainHttp->setToolTip(
        tr("Registries (host:port) spoken to over plain HTTP, as the CLI's --plain-http-registry. "
           "Every other registry is HTTPS with certificate verification."));
    m_cacheLabel = new QLabel(QDir::toNativeSeparators(m_settings.effectiveCacheDir()), this);
    m_cacheLabel->setObjectName(QStringLiteral("fetchCacheDir"));
    m_cacheLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* form = new QGridLayout;
    form->addWidget(new QLabel(tr("Plain HTTP registries:"), this), 0, 0);
    form->addWidget(m_plainHttp, 0, 1);
    form->addWidget(new QLabel(tr("Cache:"), this), 1, 0);
    form->addWidget(m_cacheLabel, 1, 1);
    form->setColumnStretch(1, 1);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("fetchTable"));
    m_table->setModel(m_model);
    setupTable(m_table);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setColumnWidth(FetchQueueModel::PointerColumn, 240);
    m_table->setColumnWidth(FetchQueueModel::ReferenceColumn, 260);
    m_table->setColumnWidth(FetchQueueModel::StateColumn, 130);
    m_table->setColumnWidth(FetchQueueModel::BytesColumn, 150);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("fetchProgress"));
    m_progress->setRange(0, std::max(1, m_model->rowCount()));
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m bundles"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("fetchSummary"));
    m_summary->setWordWrap(true);

    m_start = new QPushButton(tr("&Fetch"), this);
    m_start->setObjectName(QStringLiteral("fetchStart"));
    m_start->setToolTip(tr("Fetch, check and import every bundle listed"));
    m_start->setDefault(true);
    m_cancelButton = new QPushButton(tr("&Cancel"), this);
    m_cancelButton->setObjectName(QStringLiteral("fetchCancel"));
    m_cancelButton->setToolTip(tr("Stop the running pulls (nothing half-written stays in the cache)"));
    m_registries = new QPushButton(tr("&Registry Credentials…"), this);
    m_registries->setObjectName(QStringLiteral("fetchRegistries"));
    m_registries->setToolTip(tr("Where each registry's credentials come from, and an access test"));
    m_close = new QPushButton(tr("Close"), this);
    m_close->setObjectName(QStringLiteral("fetchClose"));
    connect(m_start, &QPushButton::clicked, this, [this] { start(); });
    connect(m_cancelButton, &QPushButton::clicked, this, &FetchEvidenceDialog::cancel);
    connect(m_registries, &QPushButton::clicked, this, &FetchEvidenceDialog::openRegistries);
    connect(m_close, &QPushButton::clicked, this, &QDialog::close);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_registries);
    buttons->addStretch(1);
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_close);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addLayout(form);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_summary);
    layout->addLayout(buttons);
    resize(980, 420);
    updateSummary();
    updateButtons();
}

FetchEvidenceDialog::~FetchEvidenceDialog() {
    // The running pulls stop at their next check; row updates and the result are not delivered
    // once the dialog is gone (they go through the workspace, which outlives every job).
    m_task.cancel();
}

void FetchEvidenceDialog::setConcurrency(int n) {
    m_concurrency = std::max(1, n);
}

void FetchEvidenceDialog::readSettingsFields() {
    m_settings.plainHttpRegistries = RegistrySettings::parseList(m_plainHttp->text());
}

bool FetchEvidenceDialog::start() {
    if (m_task.running() || m_model->rowCount() == 0)
        return false;
    readSettingsFields();
    m_cancelled = false;
    m_started = true;
    m_imported = 0;
    // Restarting after a run: only rows that did not end valid go again.
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const FetchState s = m_model->itemAt(r).state;
        if (s != FetchState::Valid && s != FetchState::ValidFailedPhases) {
            m_model->setProgress(r, 0, -1);
            m_model->setState(r, FetchState::Queued);
        }
    }
    // The fetch operation: pulls, checks, imports and leaves the evidence.fetch receipt, as the
    // CLI's `evidence fetch` does (signatures against the database's default trusted root).
    ops::FetchEvidenceRequest req;
    req.client = m_settings.clientOptions();
    req.cacheDir = m_settings.effectiveCacheDir();
    req.concurrency = m_concurrency;
    m_rows.clear();
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_model->itemAt(row).state != FetchState::Queued)
            continue;
        m_rows.push_back(row);
        req.pointers.push_back(m_model->itemAt(row).pointer);
    }
    if (m_rows.empty())
        return false;
    const std::vector<int> rows = m_rows;
    // Row updates come from the operation's threads: they are queued to the GUI thread through the
    // workspace (alive as long as any job) and dropped there once the dialog is gone.
    QPointer<FetchEvidenceDialog> self(this);
    models::Workspace* relay = &m_workspace;
    req.onEvent = [self, relay, rows](const ops::FetchEvent& e) {
        // On the operation's threads: copy what the row shows, then hand it to the GUI thread.
        const int row = rows[size_t(e.index)];
        RowUpdate u{row, e.state, e.bytesDone, e.bytesTotal, {}, {}, false, e.result != nullptr};
        if (e.result) {
            u.detail = e.result->detail;
            if (e.result->fetch) {
                u.cacheDir = e.result->fetch->dir;
                u.signaturePulled = e.result->fetch->signaturePulled;
            }
        }
        QMetaObject::invokeMethod(
            relay,
            [self, u] {
                if (self)
                    self->onRowUpdate(u);
            },
            Qt::QueuedConnection);
    };
    m_task = m_workspace.run<ops::FetchEvidenceOutcome>(
        this, [req = std::move(req)](ops::Context& ctx) { return ops::fetchEvidence(ctx, req); },
        [this](const Result<ops::FetchEvidenceOutcome>& r) { onFinished(r); });
    updateSummary();
    updateButtons();
    return true;
}

void FetchEvidenceDialog::cancel() {
    if (!m_task.running())
        return;
    m_task.cancel();
    m_cancelled = true;
    updateSummary();
    updateButtons();
}

void FetchEvidenceDialog::onRowUpdate(const RowUpdate& u) {
    const FetchState current = m_model->itemAt(u.row).state;
    if (models::isFinished(current))
        return;
    if (u.done) {
        if (!u.cacheDir.isEmpty())
            m_model->setFetched(u.row, u.cacheDir, u.signaturePulled);
        m_model->setState(u.row, u.state, u.detail);
        m_progress->setValue(m_model->finishedCount());
    } else if (u.state == FetchState::Fetching) {
        if (current == FetchState::Queued)
            m_model->setState(u.row, FetchState::Fetching);
        if (u.bytesDone > 0 || u.bytesTotal > 0)
            m_model->setProgress(u.row, u.bytesDone, u.bytesTotal);
    } else if (u.state == FetchState::Checking) {
        m_model->setState(u.row, FetchState::Checking);
    }
    updateSummary();
}

void FetchEvidenceDialog::onFinished(const Result<ops::FetchEvidenceOutcome>& r) {
    m_cancelled = m_cancelled || (r && r->cancelled);
    int imported = 0;
    if (r) {
        imported = r->imported();
        m_summary->setToolTip(QString());
    } else {
        // Nothing was imported and no receipt written: the rows say what the pulls did, the
        // summary why the run failed.
        m_summary->setToolTip(tr("Not imported: %1").arg(r.error().toString()));
        for (int row : m_rows)
            if (!models::isFinished(m_model->itemAt(row).state))
                m_model->setState(row, FetchState::Failed, r.error().toString());
    }
    m_imported = imported;
    m_progress->setValue(m_model->finishedCount());
    const int valid = m_model->countIn(FetchState::Valid) + m_model->countIn(FetchState::ValidFailedPhases);
    const int failed = m_model->countIn(FetchState::Failed) + m_model->countIn(FetchState::Invalid);
    m_error = r ? QString() : r.error().toString();
    updateSummary();
    updateButtons();
    emit fetchFinished(valid, failed, imported);
}

QString FetchEvidenceDialog::summaryText() const {
    const int n = m_model->rowCount();
    if (!m_started)
        return tr("%1 to fetch.").arg(models::counted(n, tr("bundle"), tr("bundles")));
    QStringList parts;
    for (FetchState s :
         {FetchState::Valid, FetchState::ValidFailedPhases, FetchState::Invalid, FetchState::Failed,
          FetchState::Cancelled, FetchState::Fetching, FetchState::Checking, FetchState::Queued})
        if (const int c = m_model->countIn(s); c > 0)
            parts << QStringLiteral("%1 %2").arg(c).arg(models::fetchStateName(s));
    QString text = parts.join(QStringLiteral(", "));
    if (const qint64 bytes = m_model->bytesDone(); bytes > 0)
        text += QStringLiteral(" · %1").arg(models::byteSize(bytes));
    if (m_cancelled)
        text += m_task.running() ? tr(" · cancelling…") : tr(" · cancelled");
    else if (!m_task.running())
        text += m_error.isEmpty() ? tr(" · done") : tr(" · not imported: %1").arg(m_error);
    return text;
}

void FetchEvidenceDialog::updateSummary() {
    m_summary->setText(summaryText());
}

void FetchEvidenceDialog::updateButtons() {
    const bool running = m_task.running();
    bool retry = false;
    for (const models::FetchItem& it : m_model->items())
        retry = retry || (it.state != FetchState::Valid && it.state != FetchState::ValidFailedPhases);
    m_start->setEnabled(!running && retry && m_model->rowCount() > 0);
    m_start->setText(m_started ? tr("&Retry") : tr("&Fetch"));
    m_cancelButton->setEnabled(running && !m_cancelled);
    m_plainHttp->setEnabled(!running);
    m_registries->setEnabled(!running);
}

void FetchEvidenceDialog::openRegistries() {
    readSettingsFields();
    QStringList inUse;
    for (const models::FetchItem& it : m_model->items())
        if (const evidence::Attestation* a = it.pointer.attestation())
            if (Result<oci::Reference> r = oci::parseReference(a->bundleOci); r)
                inUse << r->registry;
    RegistryCredentialsDialog dlg(m_workspace, m_settings, inUse, this);
    dlg.exec();
    m_settings = dlg.settings();
    m_plainHttp->setText(m_settings.plainHttpRegistries.join(QStringLiteral(", ")));
}

void FetchEvidenceDialog::closeEvent(QCloseEvent* event) {
    // Closing while pulls run cancels them; the dialog stays until they have stopped.
    if (m_task.running()) {
        cancel();
        event->ignore();
        return;
    }
    QDialog::closeEvent(event);
}

void FetchEvidenceDialog::reject() {
    if (m_task.running()) {
        cancel();
        return;
    }
    QDialog::reject();
}

} // namespace pb::widgets
