#include "BundleView.h"

#include "common/OpRunner.h"
#include "common/TableSetup.h"
#include "common/WidgetUtil.h"
#include "ops/BundleDiff.h"
#include "ops/BundleImport.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>

#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace pb::widgets {

namespace bm = bundle::model;

namespace {
QPlainTextEdit* textPane(const char* name, QWidget* parent) {
    auto* t = new QPlainTextEdit(parent);
    t->setObjectName(QString::fromLatin1(name));
    t->setReadOnly(true);
    t->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    t->setFont(mono);
    return t;
}
} // namespace

BundleView::BundleView(models::Workspace& workspace, QWidget* parent)
    : QWidget(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("bundleView"));
    setWindowTitle(tr("Deployment bundle"));
    auto* layout = new QVBoxLayout(this);

    auto* top = new QHBoxLayout;
    m_summary = new QLabel(
        tr("Open a deployment bundle folder (any AICR deployer: helm, argocd, argocd-helm, flux, helmfile)."),
        this);
    m_summary->setObjectName(QStringLiteral("bundleSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_openButton = new QPushButton(tr("Open folder…"), this);
    m_openButton->setObjectName(QStringLiteral("openBundleButton"));
    m_importButton = new QPushButton(tr("Import into database"), this);
    m_importButton->setObjectName(QStringLiteral("importBundleButton"));
    m_importButton->setToolTip(
        tr("Store this bundle, its files and components with a receipt (proofbench bundle import)."));
    m_importButton->setEnabled(false);
    top->addWidget(m_summary, 1);
    top->addWidget(m_openButton);
    top->addWidget(m_importButton);
    layout->addLayout(top);

    auto* busy = new QHBoxLayout;
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("bundleProgress"));
    m_progress->setVisible(false);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setObjectName(QStringLiteral("cancelBundleButton"));
    m_cancelButton->setVisible(false);
    busy->addWidget(m_progress, 1);
    busy->addWidget(m_cancelButton);
    layout->addLayout(busy);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("bundleError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b01e1e;"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setVisible(false);
    layout->addWidget(m_error);

    auto* split = new QSplitter(Qt::Horizontal, this);
    m_tabs = new QTabWidget(split);
    m_tabs->setObjectName(QStringLiteral("bundleTabs"));
    m_components = new QTableView(m_tabs);
    m_components->setObjectName(QStringLiteral("bundleComponents"));
    setupTable(m_components);
    m_componentsModel = new models::BundleComponentsModel(this);
    m_components->setModel(m_componentsModel);
    m_tabs->addTab(m_components, tr("Components && order"));
    m_files = new QTreeView(m_tabs);
    m_files->setObjectName(QStringLiteral("bundleFiles"));
    m_filesModel = new QStandardItemModel(this);
    m_files->setModel(m_filesModel);
    m_files->setUniformRowHeights(true);
    m_tabs->addTab(m_files, tr("Files"));
    m_unknown = new QListWidget(m_tabs);
    m_unknown->setObjectName(QStringLiteral("bundleUnknown"));
    m_tabs->addTab(m_unknown, tr("Unknown files"));

    m_detail = new QTabWidget(split);
    m_detail->setObjectName(QStringLiteral("bundleDetail"));
    m_content = textPane("bundleFileContent", m_detail);
    m_detail->addTab(m_content, tr("File content"));
    auto* valuesPage = new QWidget(m_detail);
    auto* vl = new QVBoxLayout(valuesPage);
    vl->setContentsMargins(0, 0, 0, 0);
    m_values = new QTableView(valuesPage);
    m_values->setObjectName(QStringLiteral("bundleValues"));
    setupTable(m_values);
    m_valuesModel = new models::BundleValuesModel(this);
    m_values->setModel(m_valuesModel);
    m_values->horizontalHeader()->setStretchLastSection(true);
    m_valuesNote = textPane("bundleValuesNote", valuesPage);
    m_valuesNote->setMaximumHeight(120);
    vl->addWidget(m_values, 3);
    vl->addWidget(m_valuesNote, 1);
    m_detail->addTab(valuesPage, tr("Effective values"));
    m_object = textPane("bundleObject", m_detail);
    m_detail->addTab(m_object, tr("Object"));
    split->addWidget(m_tabs);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({780, 520});
    layout->addWidget(split, 1);

    connect(m_openButton, &QPushButton::clicked, this, &BundleView::chooseFolder);
    connect(m_importButton, &QPushButton::clicked, this, &BundleView::importIntoDatabase);
    connect(m_cancelButton, &QPushButton::clicked, this, &BundleView::cancel);
    connect(m_components->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showComponent(current.row()); });
    connect(m_files->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                showFile(m_filesModel->itemFromIndex(current.siblingAtColumn(0))
                             ? current.siblingAtColumn(0).data(Qt::UserRole).toString()
                             : QString());
            });
    connect(m_unknown, &QListWidget::currentTextChanged, this,
            [this](const QString& path) { showFile(path); });
}

BundleView::~BundleView() {
    m_task.cancel(); // its result is not delivered once the view is gone
}

void BundleView::setBusy(bool busy, const QString& what) {
    m_progress->setVisible(busy);
    m_cancelButton->setVisible(busy);
    m_openButton->setEnabled(!busy);
    m_importButton->setEnabled(!busy && m_hasBundle && m_fromFolder);
    if (busy) {
        m_progress->setRange(0, 0);
        m_progress->setFormat(what);
        m_error->setVisible(false);
    }
}

template <typename Fn> bool BundleView::startRead(const QString& source, Fn fn) {
    if (m_task.running())
        return false;
    setBusy(true, tr("Reading %1…").arg(source));
    m_task = m_workspace.read<bm::ReadBundle>(
        this, std::move(fn),
        [this, source](const Result<bm::ReadBundle>& r) {
            setBusy(false);
            if (!r) {
                m_lastError = r.error().toString();
                m_error->setText(m_lastError);
                m_error->setVisible(true);
                emit loaded(false);
                return;
            }
            m_lastError.clear();
            m_read = r.value();
            m_hasBundle = true;
            m_source = source;
            showBundle();
            setBusy(false);
            emit loaded(true);
        },
        [this](const ops::Progress& p) {
            if (p.total > 0) {
                m_progress->setRange(0, static_cast<int>(p.total));
                m_progress->setValue(static_cast<int>(p.done));
            }
            m_progress->setFormat(p.what);
        });
    return true;
}

bool BundleView::openFolder(const QString& dir) {
    if (m_task.running())
        return false;
    m_fromFolder = true;
    return startRead(dir, [dir](const ops::Context& ctx) { return ops::readBundleFolder(ctx, dir); });
}

bool BundleView::openImported(const QString& name) {
    if (m_task.running())
        return false;
    m_fromFolder = false;
    return startRead(name, [name](const ops::Context& ctx) { return ops::loadBundleSide(ctx, name); });
}

void BundleView::chooseFolder() {
    const QString dir = chooseDirectory(this, tr("Open deployment bundle"), "openBundleDialog");
    if (!dir.isEmpty())
        openFolder(dir);
}

void BundleView::cancel() {
    m_task.cancel();
}

bool BundleView::importIntoDatabase() {
    if (m_task.running() || !m_hasBundle || !m_fromFolder)
        return false;
    setBusy(true, tr("Importing %1…").arg(m_source));
    const QString dir = m_source;
    m_task = m_workspace.run<ops::BundleImportOutcome>(
        this,
        [dir](const ops::Context& ctx) {
            ops::BundleImportRequest req;
            req.dir = dir;
            return ops::importBundle(ctx, req);
        },
        [this](const Result<ops::BundleImportOutcome>& r) {
            setBusy(false);
            if (!r) {
                m_importMessage = r.error().toString();
                m_error->setText(m_importMessage);
                m_error->setVisible(true);
                emit importFinished(false, m_importMessage);
                return;
            }
            m_importMessage = tr("%1 as '%2' (%3 components, %4 files)")
                                  .arg(models::outcomeName(r->stored.outcome), r->name)
                                  .arg(r->bundle.components.size())
                                  .arg(r->bundle.files.size());
            if (r->recipe)
                m_importMessage += tr("; made from recipe %1 of catalog version %2")
                                       .arg(r->recipe->recipeName, r->recipe->catalogLabel);
            m_summary->setText(summaryText() + QStringLiteral("\n") + m_importMessage);
            emit importFinished(true, m_importMessage);
        },
        [this](const ops::Progress& p) { m_progress->setFormat(p.what); });
    return true;
}

QString BundleView::summaryText() const {
    if (!m_hasBundle)
        return {};
    const bm::DeployBundle& b = m_read.bundle;
    QString s = tr("%1 — %2 bundle, %3 components, %4 distinct sync-waves, %5 files (%6 unknown), tree "
                   "digest sha256:%7…")
                    .arg(m_source, bm::deployerName(b.deployer))
                    .arg(b.components.size())
                    .arg(b.distinctSyncWaves())
                    .arg(b.files.size())
                    .arg(b.unknownFiles.size())
                    .arg(b.treeDigest.left(16));
    if (!b.recipePath.isEmpty())
        s += tr("\nRecipe %1%2")
                 .arg(b.recipeName.isEmpty() ? b.recipePath : b.recipeName,
                      b.recipeEvidenceDigest.isEmpty()
                          ? QString()
                          : tr(", evidence digest sha256:%1").arg(b.recipeEvidenceDigest));
    if (b.deployer == bm::Deployer::ArgoCDHelm)
        s += tr("\nApplications are Helm templates: templated fields are shown as written (italics), never "
                "rendered.");
    for (const QString& w : b.warnings)
        s += QStringLiteral("\n⚠ ") + w;
    return s;
}

void BundleView::showBundle() {
    m_summary->setText(summaryText());
    m_componentsModel->setBundle(&m_read.bundle);
    // Whole names, chart coordinates and repositories, never elided: the table scrolls sideways
    // instead (only a very long repository URL is capped, its full text in the tooltip).
    m_components->resizeColumnsToContents();
    for (int c = 0; c < m_componentsModel->columnCount(); ++c)
        m_components->setColumnWidth(c, std::min(m_components->columnWidth(c), 360));
    models::fillBundleFileTree(*m_filesModel, m_read.bundle);
    m_files->expandAll();
    m_files->resizeColumnToContents(0);
    m_unknown->clear();
    m_unknown->addItems(m_read.bundle.unknownFiles);
    m_tabs->setTabText(2, tr("Unknown files (%1)").arg(m_read.bundle.unknownFiles.size()));
    m_content->clear();
    m_object->clear();
    m_valuesModel->setValues({});
    m_valuesNote->clear();
    if (!m_read.bundle.components.empty())
        m_components->selectRow(0);
}

void BundleView::showComponent(int row) {
    const bm::Component* c = m_componentsModel->component(row);
    if (!c)
        return;
    m_valuesModel->setValues(c->values);
    m_values->resizeColumnToContents(0);
    QStringList note;
    note << tr("%1 values from %2")
                .arg(bm::flatten(c->values).size())
                .arg(c->valueFiles.isEmpty() ? tr("no file") : c->valueFiles.join(QStringLiteral(" then ")));
    if (c->valuesTemplated)
        note << tr("Inline values are a Helm template (not rendered):") << c->valuesTemplate;
    note += c->notes;
    m_valuesNote->setPlainText(note.join(QLatin1Char('\n')));
    QString obj = tr("%1 in %2\n").arg(c->objectKind, c->objectFile);
    if (!c->templatedFields.isEmpty())
        obj += tr("Templated fields (shown as written): %1\n")
                   .arg(c->templatedFields.join(QStringLiteral(", ")));
    if (!c->dependsOn.isEmpty())
        obj += tr("Depends on: %1\n").arg(c->dependsOn.join(QStringLiteral(", ")));
    if (!c->manifests.isEmpty())
        obj += tr("Manifests: %1\n").arg(c->manifests.join(QStringLiteral(", ")));
    obj += QLatin1Char('\n') + QString::fromUtf8(QJsonDocument(c->object).toJson(QJsonDocument::Indented));
    m_object->setPlainText(obj);
    if (!c->objectFile.isEmpty() && !c->objectFile.contains(QLatin1Char(' ')))
        showFile(c->objectFile);
}

void BundleView::showFile(const QString& path) {
    if (path.isEmpty())
        return;
    auto it = m_read.contents.find(path);
    if (it == m_read.contents.end())
        return;
    const QByteArray& bytes = it->second;
    const bool binary = bytes.left(8192).contains('\0');
    m_content->setPlainText(binary ? tr("(%1: binary, %2 bytes)").arg(path).arg(bytes.size())
                            : bytes.size() > 2 * 1024 * 1024
                                ? QString::fromUtf8(bytes.left(2 * 1024 * 1024)) +
                                      tr("\n… (first 2 MiB shown)")
                                : QString::fromUtf8(bytes));
    m_content->setDocumentTitle(path);
    m_detail->setTabText(0, tr("File content — %1").arg(path));
}

bool BundleView::selectComponent(const QString& name) {
    for (int r = 0; r < m_componentsModel->rowCount(); ++r)
        if (m_componentsModel->component(r)->name == name) {
            m_components->selectRow(r);
            showComponent(r);
            return true;
        }
    return false;
}

bool BundleView::selectFile(const QString& path) {
    if (m_read.contents.find(path) == m_read.contents.end())
        return false;
    showFile(path);
    m_detail->setCurrentIndex(0);
    return true;
}

} // namespace pb::widgets
