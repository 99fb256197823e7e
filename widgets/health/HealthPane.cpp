#include "HealthPane.h"

#include "EvidenceInspector.h"
#include "HealthModels.h"
#include "Plural.h"
#include "RegistryCredentialsDialog.h"
#include "TableSetup.h"
#include "oci/Reference.h"
#include "report/HealthTable.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QSet>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

namespace pb::widgets {

using evidence::HealthRow;
using evidence::HealthStatus;
using models::HealthFilterProxyModel;
using models::HealthModel;
using models::HealthStyle;

struct HealthPane::Load {
    QString label;
    std::vector<HealthRow> rows;
    QString error;
};

namespace {

// Columns wider than this elide; the tooltip and the inspector carry the full text.
constexpr int kMaxColumnWidth = 280;
// Columns are fitted to this many rows (those on view first), not to Qt's default of 1,000: at 10,000
// coordinates measuring 1,000 rows × 12 columns of text took longer than everything else before the
// table's first paint.
constexpr int kFitRows = 100;

QComboBox* makeCombo(const char* name, const QString& tip, QWidget* parent) {
    auto* c = new QComboBox(parent);
    c->setObjectName(QLatin1String(name));
    c->setToolTip(tip);
    c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    c->view()->setObjectName(QLatin1String(name) + QStringLiteral("List"));
    return c;
}

} // namespace

HealthPane::HealthPane(models::Workspace& workspace, QWidget* parent)
    : QWidget(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("healthPane"));
    m_model = new HealthModel(this);
    m_model->setObjectName(QStringLiteral("healthModel"));
    m_proxy = new HealthFilterProxyModel(this);
    m_proxy->setObjectName(QStringLiteral("healthFilterModel"));
    m_proxy->setSourceModel(m_model);
    // Phase coverage and staleness arrive when the bundles are read: the whole columns fit them then.
    connect(m_model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& from, const QModelIndex& to) {
                if (m_table && from.column() <= HealthModel::PhasesColumn &&
                    to.column() >= HealthModel::PhasesColumn)
                    fitWholeColumns();
            });

    buildFilters();
    buildExportButton();
    buildFetchButtons();

    auto* bar = new QHBoxLayout;
    bar->setSpacing(6);
    auto* versionLabel = new QLabel(tr("Catalog &version:"), this);
    versionLabel->setBuddy(m_version);
    bar->addWidget(versionLabel);
    bar->addWidget(m_version);
    bar->addSpacing(8);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_status);
    bar->addWidget(m_service);
    bar->addWidget(m_accelerator);
    bar->addWidget(m_signer);
    bar->addSpacing(8);
    bar->addWidget(m_export);
    bar->addSpacing(8);
    bar->addWidget(m_fetch);
    bar->addWidget(m_fetchAll);
    bar->addWidget(m_registries);

    buildStatusLabels();
    buildTable();
    buildInspector();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 6, 4);
    layout->setSpacing(6);
    layout->addLayout(bar);
    layout->addWidget(m_source);
    layout->addWidget(m_summary);
    layout->addWidget(m_splitter, 1);

    connect(m_version, &QComboBox::currentIndexChanged, this, [this] { startLoad(); });
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterText(text);
        updateSummary();
    });
    for (QComboBox* c : {m_status, m_service, m_accelerator, m_signer})
        connect(c, &QComboBox::currentIndexChanged, this, [this] { applyCombos(); });

    refreshCombos();
    reload();
}

void HealthPane::buildFilters() {
    // Filter bar: version, text, status, service, accelerator, signer class, export.
    m_version = makeCombo("healthVersion", tr("Catalog version whose recipes are listed"), this);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("healthFilter"));
    m_filter->setPlaceholderText(tr("Filter by recipe, criteria or status"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Every word must occur in the recipe's name, its criteria or its status.\n"
                            "Down or Enter moves to the table; Escape clears."));
    m_filter->installEventFilter(this);
    m_status = makeCombo("healthStatusFilter", tr("Show one status only"), this);
    m_status->addItem(tr("All statuses"), -1);
    for (HealthStatus s : models::kHealthStatuses)
        m_status->addItem(HealthStyle::icon(s), evidence::healthStatusName(s), static_cast<int>(s));
    m_service = makeCombo("healthServiceFilter", tr("Show one service only"), this);
    m_accelerator = makeCombo("healthAcceleratorFilter", tr("Show one accelerator only"), this);
    m_signer = makeCombo("healthSignerFilter",
                         tr("Show coordinates with a valid signed pointer of one signer class"), this);
    using SF = HealthFilterProxyModel::SignerFilter;
    m_signer->addItem(tr("All signers"), static_cast<int>(SF::Any));
    m_signer->addItem(tr("first-party"), static_cast<int>(SF::FirstParty));
    m_signer->addItem(tr("community"), static_cast<int>(SF::Community));
    m_signer->addItem(tr("partner"), static_cast<int>(SF::Partner));
    m_signer->addItem(tr("reported-only"), static_cast<int>(SF::Reported));
    m_signer->addItem(tr("no valid signature"), static_cast<int>(SF::Unsigned));
}

void HealthPane::buildExportButton() {
    m_export = new QToolButton(this);
    m_export->setObjectName(QStringLiteral("healthExport"));
    m_export->setText(tr("Export"));
    m_export->setToolTip(tr("Write the rows on view (filters applied, in view order) as Markdown or CSV"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_export->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* exportMenu = new QMenu(m_export);
    exportMenu->setObjectName(QStringLiteral("healthExportMenu"));
    QAction* md =
        exportMenu->addAction(tr("Markdown…"), this, [this] { exportInteractive(ExportFormat::Markdown); });
    md->setObjectName(QStringLiteral("actionExportHealthMarkdown"));
    QAction* csv = exportMenu->addAction(tr("CSV…"), this, [this] { exportInteractive(ExportFormat::Csv); });
    csv->setObjectName(QStringLiteral("actionExportHealthCsv"));
    m_export->setMenu(exportMenu);
}

void HealthPane::buildFetchButtons() {
    // Registries: fetch the bundles pointers pin, and where credentials come from.
    m_fetch = new QPushButton(tr("Fetch Evidence"), this);
    m_fetch->setObjectName(QStringLiteral("healthFetchEvidence"));
    m_fetch->setToolTip(
        tr("Pull the bundles the selected rows' pointers pin (and their signatures) from their "
           "registries, check them offline and import them"));
    m_fetchAll = new QPushButton(tr("Fetch All"), this);
    m_fetchAll->setObjectName(QStringLiteral("healthFetchAll"));
    m_fetchAll->setToolTip(tr("The same for every row on view (filters applied)"));
    m_registries = new QPushButton(tr("Registries…"), this);
    m_registries->setObjectName(QStringLiteral("healthRegistries"));
    m_registries->setToolTip(
        tr("Where each registry's credentials come from (never the secret), and an access test"));
    connect(m_fetch, &QPushButton::clicked, this, [this] { fetchSelected(); });
    connect(m_fetchAll, &QPushButton::clicked, this, [this] { fetchAll(); });
    connect(m_registries, &QPushButton::clicked, this, &HealthPane::openRegistries);
}

void HealthPane::buildStatusLabels() {
    // Which version the table is of, where it came from, and a mark when it is the sample.
    m_source = new QLabel(this);
    m_source->setObjectName(QStringLiteral("healthSource"));
    m_source->setTextFormat(Qt::RichText);
    m_source->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("healthSummary"));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setToolTip(tr("Click a status to show only its rows"));
    connect(m_summary, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link == QLatin1String("clear")) {
            clearFilters();
            return;
        }
        if (link.startsWith(QLatin1String("status:")))
            m_status->setCurrentIndex(std::max(0, m_status->findData(link.mid(7).toInt())));
    });
}

void HealthPane::buildTable() {
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("healthTable"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection); // several coordinates to fetch
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight); // a long name elides at its end (its tooltip has it whole)
    installElidedToolTips(m_table);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(HealthModel::RecipeColumn, Qt::AscendingOrder);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setResizeContentsPrecision(kFitRows);
    m_table->setToolTip(tr("Double-click a row to open the recipe"));
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { showCurrent(); });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& idx) {
        const QModelIndex src = m_proxy->mapToSource(idx);
        if (src.isValid() && m_model->rowAt(src.row()).inCatalog())
            emit openRecipe(m_loadedLabel, m_model->rowAt(src.row()).recipe);
    });
}

// The words a release manager reads are never cut: the status, signer and pointer counts, the
// phase coverage ("deployment 4/4, performance 2/3"), the staleness and the newest date fit their widest
// value over every row of every load (a column only grows; the recipe name gives way instead, eliding at its
// end).
void HealthPane::fitWholeColumns() {
    const QFontMetrics fm = m_table->fontMetrics();
    const int pad = 2 * (style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1) + 8 +
                    style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, m_table); // the status icon
    for (int c :
         {int(HealthModel::StatusColumn), int(HealthModel::SignersColumn), int(HealthModel::PointersColumn),
          int(HealthModel::StaleColumn), int(HealthModel::AttestedColumn), int(HealthModel::PhasesColumn)}) {
        int width = m_table->columnWidth(c);
        QSet<QString> measured; // statuses, counts and flags repeat: each text is measured once
        for (int r = 0; r < m_model->rowCount(); ++r) {
            const QString text = m_model->index(r, c).data().toString();
            if (!measured.contains(text)) {
                measured.insert(text);
                width = std::max(width, fm.horizontalAdvance(text) + pad);
            }
        }
        m_table->setColumnWidth(c, width);
    }
}

void HealthPane::buildInspector() {
    m_inspector = new EvidenceInspector(this);
    m_inspector->setWorkspace(&m_workspace); // the inspector reads bundles on a worker
    m_inspector->setCacheDir(m_registry.effectiveCacheDir());
    connect(m_inspector, &EvidenceInspector::openRecipeRequested, this,
            [this](const QString& recipe) { emit openRecipe(m_loadedLabel, recipe); });

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("healthSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_inspector);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setSizes({440, 360});
}

HealthPane::~HealthPane() {
    delete m_fetchDialog.data(); // cancels and waits for its pulls
}

void HealthPane::setRegistrySettings(const RegistrySettings& settings) {
    m_registry = settings;
    m_inspector->setCacheDir(m_registry.effectiveCacheDir());
    showCurrent();
}

QStringList HealthPane::selectedRecipes() const {
    QList<QModelIndex> rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty() && m_table->currentIndex().isValid())
        rows << m_table->currentIndex();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList out;
    for (const QModelIndex& idx : std::as_const(rows))
        if (const QModelIndex src = m_proxy->mapToSource(idx); src.isValid())
            out << m_model->rowAt(src.row()).recipe;
    out.removeDuplicates();
    return out;
}

void HealthPane::fetchSelected() {
    openFetch(selectedRecipes());
}

void HealthPane::fetchAll() {
    QStringList recipes;
    for (const HealthRow& r : m_proxy->visibleRows())
        if (r.pointers > 0)
            recipes << r.recipe;
    openFetch(recipes);
}

void HealthPane::openFetch(const QStringList& recipes) {
    if (m_fetchDialog && m_fetchDialog->isRunning()) { // one fetch at a time: show the running one
        m_fetchDialog->raise();
        m_fetchDialog->activateWindow();
        return;
    }
    // Only pointers that name a bundle location; the rest have nothing to fetch.
    m_workspace.read<std::vector<evidence::Pointer>>(
        this,
        [recipes](const ops::Context& ctx) -> Result<std::vector<evidence::Pointer>> {
            std::vector<evidence::Pointer> pointers;
            for (const QString& recipe : recipes) {
                Result<std::vector<evidence::Pointer>> p = models::healthdata::pointersFor(ctx.db(), recipe);
                if (!p)
                    return p.error();
                for (evidence::Pointer& ptr : *p)
                    if (const evidence::Attestation* a = ptr.attestation(); a && !a->bundleOci.isEmpty())
                        pointers.push_back(std::move(ptr));
            }
            return pointers;
        },
        [this, recipes](Result<std::vector<evidence::Pointer>> p) {
            if (p)
                openFetchWith(std::move(*p), recipes, QString());
            else
                openFetchWith({}, recipes, p.error().toString());
        });
}

void HealthPane::openFetchWith(std::vector<evidence::Pointer> pointers, const QStringList& recipes,
                               const QString& error) {
    if (!error.isEmpty() || pointers.empty()) {
        QMessageBox box(QMessageBox::Information, tr("Fetch Evidence"),
                        error.isEmpty()
                            ? (recipes.isEmpty() ? tr("Select one or more rows first.")
                                                 : tr("No evidence pointer of the rows chosen names a bundle "
                                                      "in a registry."))
                            : tr("Cannot read the pointers: %1").arg(error),
                        QMessageBox::Ok, this);
        box.setObjectName(QStringLiteral("healthFetchNothingBox"));
        box.exec();
        return;
    }
    delete m_fetchDialog.data();
    auto* dlg = new FetchEvidenceDialog(m_workspace, std::move(pointers), m_registry, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    m_fetchDialog = dlg;
    connect(dlg, &FetchEvidenceDialog::fetchFinished, this, [this, dlg] {
        // Keep what the user typed (plain-HTTP registries) for the next fetch; show what arrived.
        m_registry = dlg->settings();
        reload();
    });
    dlg->show();
    emit fetchOpened(dlg);
}

void HealthPane::openRegistries() {
    QStringList recipes;
    for (const HealthRow& r : m_model->rows())
        if (r.pointers > 0)
            recipes << r.recipe;
    // The registries the pointers name, read on a worker; then the dialog.
    m_workspace.read<QStringList>(
        this,
        [recipes](const ops::Context& ctx) -> Result<QStringList> {
            QStringList inUse;
            for (const QString& recipe : recipes)
                if (Result<std::vector<evidence::Pointer>> p =
                        models::healthdata::pointersFor(ctx.db(), recipe);
                    p)
                    for (const evidence::Pointer& ptr : *p)
                        if (const evidence::Attestation* a = ptr.attestation())
                            if (Result<oci::Reference> ref = oci::parseReference(a->bundleOci); ref)
                                inUse << ref->registry;
            return inUse;
        },
        [this](const Result<QStringList>& inUse) {
            RegistryCredentialsDialog dlg(m_workspace, m_registry, inUse ? *inUse : QStringList(), this);
            dlg.exec();
            setRegistrySettings(dlg.settings());
        });
}

QString HealthPane::version() const {
    return m_version->currentData().toString();
}

bool HealthPane::setVersion(const QString& label) {
    const int i = m_version->findData(label);
    if (i < 0)
        return false;
    if (i == m_version->currentIndex() && m_loadedLabel != label)
        startLoad();
    m_version->setCurrentIndex(i);
    return true;
}

void HealthPane::reload() {
    reloadVersions();
}

// The version list is read on a worker; then the table of the version on view.
void HealthPane::reloadVersions() {
    m_readingVersions = true;
    m_workspace.read<std::vector<models::CatalogVersionInfo>>(
        this, [](const ops::Context& ctx) { return models::healthdata::catalogVersions(ctx.db()); },
        [this](const Result<std::vector<models::CatalogVersionInfo>>& versions) {
            m_readingVersions = false;
            applyVersions(versions);
            startLoad();
        });
}

void HealthPane::applyVersions(const Result<std::vector<models::CatalogVersionInfo>>& versions) {
    m_versions = versions ? *versions : std::vector<models::CatalogVersionInfo>();
    m_loadError = versions ? QString() : versions.error().toString();
    // Newest first, as in the catalog tree; a view of the newest follows a newer import.
    const QString current = m_version->currentData().toString();
    const bool followNewest = m_version->currentIndex() <= 0;
    const QSignalBlocker block(m_version);
    m_version->clear();
    for (auto it = m_versions.rbegin(); it != m_versions.rend(); ++it) {
        m_version->addItem(it->label, it->label); // the sample mark is on the line under the bar
        m_version->setItemData(
            m_version->count() - 1,
            tr("%1\nSource: %2\nOrdered by %3").arg(it->label, it->originText(), it->orderBasis()),
            Qt::ToolTipRole);
    }
    const int keep = followNewest ? 0 : m_version->findData(current);
    m_version->setCurrentIndex(std::max(0, keep));
}

const models::CatalogVersionInfo* HealthPane::loadedVersion() const {
    for (const models::CatalogVersionInfo& v : m_versions)
        if (v.label == m_loadedLabel)
            return &v;
    return nullptr;
}

QString HealthPane::sourceText() const {
    QTextDocument doc;
    doc.setHtml(m_source->text());
    return doc.toPlainText();
}

void HealthPane::updateSource() {
    const models::CatalogVersionInfo* v = loadedVersion();
    if (!v) {
        m_source->clear();
        m_source->hide();
        return;
    }
    QString html = tr("<b>Health of catalog version %1</b>").arg(v->label.toHtmlEscaped());
    if (v->isSample())
        html += QStringLiteral(" &nbsp;<span style='background:%1;color:white'>&nbsp;%2&nbsp;</span>")
                    .arg(HealthStyle::color(HealthStatus::Invalid).name(), tr("SAMPLE DATA").toHtmlEscaped());
    html += QStringLiteral(" &nbsp;<span style='color:gray'>%1</span>")
                .arg(tr("source: %1").arg(v->originText()).toHtmlEscaped());
    // The release binding (issue #19), with what it does not cover.
    if (!v->signedByReleases.isEmpty())
        html += QStringLiteral(
                    "<br><span style='color:#1b7a3a'>&#10003; %1</span> <span style='color:gray'>%2</span>")
                    .arg(v->releaseBindingText().toHtmlEscaped(),
                         tr("(verified offline; the overlays are not covered)").toHtmlEscaped());
    m_source->setText(html);
    QString tip = v->isSample() ? tr("Proofbench's own sample catalog, compiled into the app: not an AICR "
                                     "release. Import a real catalog (File › Import Catalog…) to review one.")
                                : tr("Ordered by %1").arg(v->orderBasis());
    if (!v->signedByReleases.isEmpty())
        tip += QLatin1Char('\n') + models::releaseScopeNote();
    m_source->setToolTip(tip);
    m_source->show();
}

void HealthPane::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_dirty)
        startLoad();
}

void HealthPane::startLoad() {
    if (!isVisible()) {
        m_dirty = true; // nobody is looking: read when shown
        return;
    }
    m_dirty = false;
    if (m_loading) {
        m_again = true; // the running read may predate what changed; read again when it ends
        return;
    }
    const QString label = m_version->currentData().toString();
    qint64 id = 0;
    for (const models::CatalogVersionInfo& v : m_versions)
        if (v.label == label)
            id = v.id;
    if (id == 0) {
        m_loadedLabel.clear();
        updateSource();
        m_model->clear();
        refreshCombos();
        m_inspector->showMessage(tr("No catalog version in the database: File › Import Catalog… first"));
        updateSummary();
        return;
    }
    m_loading = true;
    updateSummary();
    // Read on a worker through a connection of its own.
    m_workspace.read<Load>(
        this,
        [id, label](const ops::Context& ctx) -> Result<Load> {
            Load out;
            out.label = label;
            Result<std::vector<HealthRow>> rows = models::healthdata::rowsAt(ctx.db(), id);
            if (!rows)
                out.error = rows.error().toString();
            else
                out.rows = std::move(*rows);
            return out;
        },
        [this](Result<Load> loaded) {
            Load load = loaded ? std::move(loaded).value() : Load{QString(), {}, loaded.error().toString()};
            m_loading = false;
            if (m_again) {
                m_again = false;
                startLoad();
                return;
            }
            onLoaded(std::move(load));
        });
}

void HealthPane::onLoaded(Load load) {
    m_loadedLabel = load.label;
    m_inspector->setCatalogLabel(load.label);
    updateSource();
    m_loadError = load.error;
    if (!load.error.isEmpty())
        m_lastError = load.error;
    const QString keep = m_currentRecipe;
    const int scrolled = m_table->verticalScrollBar()->value(); // kept when no row is selected
    m_model->setRows(std::move(load.rows));
    refreshCombos();
    if (!m_fitted && m_model->rowCount() > 0) {
        m_table->resizeColumnsToContents();
        int total = 0;
        for (int c = 0; c < HealthModel::ColumnCount; ++c) {
            m_table->setColumnWidth(c, std::min(m_table->columnWidth(c) + 8, kMaxColumnWidth));
            total += m_table->columnWidth(c);
        }
        // Every column in view: the recipe name gives way first (it elides at its end).
        const int room = m_table->viewport()->width() - style()->pixelMetric(QStyle::PM_ScrollBarExtent) - 2;
        if (const int excess = total - room; excess > 0)
            m_table->setColumnWidth(HealthModel::RecipeColumn,
                                    std::max(180, m_table->columnWidth(HealthModel::RecipeColumn) - excess));
        m_fitted = true;
    }
    fitWholeColumns();
    const int source = keep.isEmpty() ? -1 : m_model->rowOf(keep);
    const QModelIndex idx = source < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(source, 0));
    if (idx.isValid()) {
        m_table->setCurrentIndex(idx);
        m_table->scrollTo(idx);
    } else {
        m_table->verticalScrollBar()->setValue(scrolled);
        m_inspector->showMessage(load.error.isEmpty()
                                     ? tr("Select a row to see its evidence pointers")
                                     : tr("Cannot read the health table: %1").arg(load.error));
    }
    updateSummary();
    emit loaded(load.label, m_model->rowCount());
}

void HealthPane::refreshCombos() {
    auto refill = [this](QComboBox* combo, const QString& all, HealthModel::Column column) {
        const QString current = combo->currentData().toString();
        const QSignalBlocker block(combo);
        combo->clear();
        combo->addItem(all, QString());
        for (const QString& v : m_model->distinctValues(column))
            combo->addItem(v, v);
        combo->setCurrentIndex(std::max(0, combo->findData(current)));
    };
    refill(m_service, tr("All services"), HealthModel::ServiceColumn);
    refill(m_accelerator, tr("All accelerators"), HealthModel::AcceleratorColumn);
    applyCombos();
}

void HealthPane::applyCombos() {
    const int status = m_status->currentData().toInt();
    m_proxy->setStatusFilter(status < 0 ? std::nullopt : std::optional(static_cast<HealthStatus>(status)));
    m_proxy->setServiceFilter(m_service->currentData().toString());
    m_proxy->setAcceleratorFilter(m_accelerator->currentData().toString());
    m_proxy->setSignerFilter(
        static_cast<HealthFilterProxyModel::SignerFilter>(m_signer->currentData().toInt()));
    updateSummary();
}

void HealthPane::clearFilters() {
    m_filter->clear();
    for (QComboBox* c : {m_status, m_service, m_accelerator, m_signer}) {
        const QSignalBlocker block(c);
        c->setCurrentIndex(0);
    }
    applyCombos();
}

void HealthPane::updateSummary() {
    if (m_loading) {
        m_summary->setText(tr("<span style='color:gray'>Reading the health table of %1…</span>")
                               .arg(m_version->currentData().toString().toHtmlEscaped()));
        return;
    }
    if (!m_loadError.isEmpty()) {
        m_summary->setText(
            QStringLiteral("<span style='color:%1'>%2</span>")
                .arg(HealthStyle::color(HealthStatus::Invalid).name(), m_loadError.toHtmlEscaped()));
        return;
    }
    const int total = m_model->rowCount();
    int pointers = 0;
    for (const HealthRow& r : m_model->rows())
        pointers += r.pointers;
    const QString text = palette().color(QPalette::WindowText).name();
    const QString grey = palette().color(QPalette::Disabled, QPalette::Text).name();
    QStringList parts;
    for (HealthStatus s : models::kHealthStatuses) {
        const int n = m_model->countOf(s);
        const QString dot =
            QStringLiteral("<span style='color:%1'>●</span>").arg(HealthStyle::color(s).name());
        const QString label =
            QStringLiteral("%1 %2").arg(n).arg(evidence::healthStatusName(s).toHtmlEscaped());
        parts << (n == 0 ? QStringLiteral("%1 <span style='color:%2'>%3</span>").arg(dot, grey, label)
                         : QStringLiteral("%1 <a href='status:%2' style='text-decoration:none'><span "
                                          "style='color:%3'><b>%4</b> %5</span></a>")
                               .arg(dot)
                               .arg(static_cast<int>(s))
                               .arg(text)
                               .arg(n)
                               .arg(evidence::healthStatusName(s).toHtmlEscaped()));
    }
    QString html =
        QStringLiteral("<b>%1</b> · %2 &nbsp;&nbsp;&nbsp; ")
            .arg(models::counted(total, tr("coordinate"), tr("coordinates")).toHtmlEscaped(),
                 models::counted(pointers, tr("evidence pointer"), tr("evidence pointers")).toHtmlEscaped());
    html += parts.join(QStringLiteral(" &nbsp;&nbsp; "));
    if (m_proxy->isFiltering())
        html += QStringLiteral(" &nbsp;&nbsp;&nbsp; <span style='color:%1'>%2</span> <a href='clear'>%3</a>")
                    .arg(grey, tr("showing %1 of %2").arg(m_proxy->rowCount()).arg(total), tr("show all"));
    m_summary->setText(html);
}

void HealthPane::showCurrent() {
    const QModelIndex idx = m_table->currentIndex();
    const QModelIndex src = idx.isValid() ? m_proxy->mapToSource(idx) : QModelIndex();
    if (!src.isValid()) {
        m_inspector->showMessage(m_proxy->rowCount() == 0 && m_model->rowCount() > 0
                                     ? tr("No row matches the filters")
                                     : tr("Select a row to see its evidence pointers"));
        return;
    }
    const HealthRow& row = m_model->rowAt(src.row());
    m_currentRecipe = row.recipe;
    // The pointers the row's counts were taken from (under the name the evidence records), read
    // on a worker; a newer selection wins.
    const quint64 request = ++m_rowRequest;
    ++m_rowLoads;
    m_workspace.read<std::vector<evidence::Pointer>>(
        this, [row](const ops::Context& ctx) { return models::healthdata::rowPointers(ctx.db(), row); },
        [this, row, request](Result<std::vector<evidence::Pointer>> pointers) {
            --m_rowLoads;
            if (request != m_rowRequest)
                return;
            if (!pointers)
                m_inspector->showRow(row, {}, pointers.error().toString());
            else
                m_inspector->showRow(row, std::move(*pointers));
        });
}

bool HealthPane::selectRecipe(const QString& recipe) {
    const int source = m_model->rowOf(recipe);
    if (source < 0)
        return false;
    QModelIndex idx = m_proxy->mapFromSource(m_model->index(source, 0));
    if (!idx.isValid()) { // hidden by a filter: show everything
        clearFilters();
        idx = m_proxy->mapFromSource(m_model->index(source, 0));
    }
    if (!idx.isValid())
        return false;
    m_table->setCurrentIndex(idx);
    m_table->scrollTo(idx);
    return true;
}

bool HealthPane::exportTo(const QString& path, ExportFormat format) {
    const std::vector<HealthRow> rows = m_proxy->visibleRows();
    evidence::HealthTableInfo info;
    if (const models::CatalogVersionInfo* v = loadedVersion())
        info = report::tableInfo(*v);
    const QString text = format == ExportFormat::Markdown ? evidence::healthMarkdown(rows, info)
                                                          : evidence::healthCsv(rows, info);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        m_lastError = tr("%1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

void HealthPane::exportInteractive(ExportFormat format) {
    const bool md = format == ExportFormat::Markdown;
    QFileDialog dialog(this, md ? tr("Export Health as Markdown") : tr("Export Health as CSV"));
    dialog.setObjectName(QStringLiteral("healthExportDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setNameFilter(md ? tr("Markdown (*.md)") : tr("CSV (*.csv)"));
    dialog.setDefaultSuffix(md ? QStringLiteral("md") : QStringLiteral("csv"));
    dialog.selectFile(
        QStringLiteral("health-%1.%2").arg(m_loadedLabel, md ? QStringLiteral("md") : QStringLiteral("csv")));
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    const QString path = dialog.selectedFiles().constFirst();
    if (exportTo(path, format))
        return;
    QMessageBox box(QMessageBox::Critical, tr("Export failed"),
                    tr("The health table was not written.\n\n%1").arg(m_lastError), QMessageBox::Ok, this);
    box.setObjectName(QStringLiteral("healthExportErrorBox"));
    box.exec();
}

bool HealthPane::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        switch (key->key()) {
        case Qt::Key_Down:
        case Qt::Key_Return:
        case Qt::Key_Enter:
            if (!m_table->currentIndex().isValid() && m_proxy->rowCount() > 0)
                m_table->setCurrentIndex(m_proxy->index(0, 0));
            m_table->setFocus(Qt::OtherFocusReason);
            return true;
        case Qt::Key_Escape:
            if (!m_filter->text().isEmpty()) {
                m_filter->clear();
                return true;
            }
            break;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace pb::widgets
