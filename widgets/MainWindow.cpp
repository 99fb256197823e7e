#include "MainWindow.h"

#include "BundleCompareView.h"
#include "BundleModels.h"
#include "BundleVerifyPane.h"
#include "BundleView.h"
#include "CatalogTreeModel.h"
#include "ComparePane.h"
#include "DeployBundleModels.h"
#include "EmptyState.h"
#include "GenerateBundleDialog.h"
#include "GitImportDialog.h"
#include "GraphPane.h"
#include "HealthModels.h"
#include "HealthPane.h"
#include "OpRunner.h"
#include "OpenTeamDatabaseDialog.h"
#include "Plural.h"
#include "ReceiptModels.h"
#include "ReceiptsPane.h"
#include "RecipeView.h"
#include "ReleaseVerifyDialog.h"
#include "ReportDialog.h"
#include "SignPane.h"
#include "ValidationPane.h"
#include "VerifyPane.h"
#include "WelcomePane.h"
#include "WidgetUtil.h"
#include "catalog/Loader.h"
#include "catalog/Resolver.h"
#include "evidence/Evidence.h"
#include "ops/DbAdmin.h"
#include "ops/ImportCatalog.h"
#include "ops/ImportEvidence.h"
#include "ops/Read.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <functional>
#include <type_traits>

namespace pb::widgets {

using models::CatalogTreeModel;
using models::RecipeFilterProxyModel;

struct MainWindow::CatalogLoad {
    std::shared_ptr<const catalog::Catalog> catalog;
    QString error;
};

struct MainWindow::EvidenceOutcome {
    bool ok = false;
    models::EvidenceImportReport report;
    int pointers = 0;
    QString root; // the evidence directory that was read
    QString error;
};

struct MainWindow::ImportOutcome {
    bool ok = false;
    bool cancelled = false;
    models::ImportReport report;
    QString error;
};

namespace {

// Share of the progress bar given to reading the files; resolving and writing take the rest.
constexpr int kLoadShare = 40;

// The local files of a drag that the Verify view can open.
QStringList verifiableFiles(const QMimeData* mime) {
    QStringList out;
    if (!mime || !mime->hasUrls())
        return out;
    bool bundle = false;
    for (const QUrl& url : mime->urls()) {
        if (!url.isLocalFile())
            continue;
        const QString path = url.toLocalFile();
        if (!QFileInfo(path).isFile())
            continue;
        bundle = bundle || VerifyPane::isBundleFileName(path);
        out << path;
    }
    return bundle ? out : QStringList(); // an artifact alone is not enough to verify
}

// Version rows of the catalog tree: the label (elided in the middle), then where the version came
// from in gray ("git tag v0.14.0 · 2026-03-02"), or an amber "sample data" badge for the sample
// catalog. Recipe rows are drawn as usual.
class CatalogTreeDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        const QString hint = index.data(CatalogTreeModel::SourceHintRole).toString();
        if (hint.isEmpty() || index.column() != CatalogTreeModel::NameColumn) {
            QStyledItemDelegate::paint(p, option, index);
            return;
        }
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const QString label = opt.text;
        opt.text.clear();
        const QWidget* w = opt.widget;
        QStyle* style = w ? w->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, p, w); // background, selection, focus
        const QRect text = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, w).adjusted(3, 0, -3, 0);

        const bool sample = index.data(CatalogTreeModel::SampleRole).toBool();
        const bool selected = opt.state & QStyle::State_Selected;
        QFont hintFont = option.font;
        hintFont.setBold(false);
        hintFont.setItalic(!sample);
        if (sample)
            hintFont.setPointSizeF(hintFont.pointSizeF() * 0.9);
        const QFontMetrics labelMetrics(opt.font), hintMetrics(hintFont);
        const int pad = sample ? 6 : 0, gap = 10;
        const int hintWidth = hintMetrics.horizontalAdvance(hint) + 2 * pad;
        // The label keeps at least half the row; the hint takes what is left.
        // (+2: advances are fractional; a label given exactly its rounded width may elide.)
        const int labelWidth = std::min(labelMetrics.horizontalAdvance(label) + 2,
                                        std::max(text.width() / 2, text.width() - gap - hintWidth));
        p->save();
        p->setFont(opt.font);
        p->setPen(opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
        const QRect labelRect(text.left(), text.top(), labelWidth, text.height());
        const bool fits = labelMetrics.horizontalAdvance(label) <= labelWidth;
        p->drawText(labelRect, Qt::AlignLeft | Qt::AlignVCenter,
                    fits ? label : labelMetrics.elidedText(label, Qt::ElideMiddle, labelWidth));
        const int room = text.right() - (labelRect.right() + gap);
        if (room > 3 * pad + hintMetrics.averageCharWidth() * 3) {
            p->setFont(hintFont);
            const QString shown = hintMetrics.elidedText(hint, Qt::ElideRight, room - 2 * pad);
            QRect hintRect(labelRect.right() + gap, text.top(),
                           hintMetrics.horizontalAdvance(shown) + 2 * pad, text.height());
            if (sample) {
                const QRect pill = hintRect.adjusted(0, 3, 0, -3);
                p->setRenderHint(QPainter::Antialiasing);
                p->setPen(QColor(0xC9, 0x8A, 0x00));
                p->setBrush(QColor(0xFF, 0xEC, 0xB3));
                p->drawRoundedRect(QRectF(pill).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
                p->setPen(QColor(0x5D, 0x40, 0x00));
            } else {
                p->setPen(
                    opt.palette.color(selected ? QPalette::HighlightedText : QPalette::PlaceholderText));
            }
            p->drawText(hintRect, Qt::AlignCenter, shown);
        }
        p->restore();
    }
};

QString htmlRow(const QString& name, const QString& value) {
    return QStringLiteral("<tr><td style='color:gray; padding-right:14px'>%1</td><td>%2</td></tr>")
        .arg(name.toHtmlEscaped(), value);
}

} // namespace

MainWindow::MainWindow(models::Workspace& workspace, QWidget* parent)
    : QMainWindow(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(titleWith(QString()));
    buildUi();
    buildMenus();
    buildEmptyStates();
    // Text fields take drops as text: a bundle dropped on one still opens in the Verify view.
    for (QWidget* w : findChildren<QWidget*>())
        if (w->acceptDrops())
            w->installEventFilter(this);
    resize(1400, 900);
    // Start on the newest version, its recipes in view and its catalog loading in the background.
    reloadCatalogsThen([this] {
        if (m_proxy->rowCount() > 0 && !m_tree->currentIndex().isValid())
            m_tree->setCurrentIndex(m_proxy->index(0, 0));
    });
    // The connection's user and team role, as the server told it at connect time, and its TLS.
    struct Connection {
        models::TeamAccess access;
        std::optional<ops::DatabaseStatus> status; // none when the role may not read it (the size)
    };
    m_workspace.read<Connection>(
        this,
        [](const ops::Context& ctx) -> Result<Connection> {
            Result<ops::DatabaseStatus> status = ops::databaseStatus(ctx);
            return Connection{ctx.db().access(),
                              status ? std::optional<ops::DatabaseStatus>(*status) : std::nullopt};
        },
        [this](Result<Connection> c) {
            if (!c)
                return;
            if (c->status && c->status->engine == QLatin1String("PostgreSQL")) {
                m_transport = models::describeTransport(*c->status);
                const QString warning = models::transportWarning(m_workspace.path());
                const QString tls = !c->status->tlsInUse     ? tr("no TLS")
                                    : c->status->tlsVerified ? tr("TLS verified")
                                                             : tr("TLS not verified");
                m_statusDbText = tr("%1 · %2").arg(m_workspace.displayName(), tls);
                m_statusDb->setText(m_statusDbText);
                m_statusDb->setToolTip(
                    tr("%1\nServer: PostgreSQL %2\n%3%4")
                        .arg(m_workspace.displayName(), c->status->serverVersion, m_transport,
                             warning.isEmpty() ? QString() : tr("\nWarning: %1.").arg(warning)));
                if (!warning.isEmpty())
                    m_statusDb->setStyleSheet(QStringLiteral("QLabel { background: #ffcdd2; color: #7f0000; "
                                                             "border-radius: 3px; padding: 0 6px; }"));
            }
            applyAccess(c->access);
        });
    // A server's connection lost and found again.
    connect(&m_workspace, &models::Workspace::connectionChanged, this, &MainWindow::showConnection);
    // What other clients commit (a CLI import, a colleague's window) shows here without a restart.
    connect(&m_workspace, &models::Workspace::changedElsewhere, this, &MainWindow::showChangesElsewhere);
    // A write that waits for another client's says whose wait it is.
    models::showWriteWaits(this, [this](const QString& what) { statusBar()->showMessage(what, 15000); });
    m_tree->setFocus();
}

void MainWindow::showChangesElsewhere(const QList<models::ExternalChange>& changes) {
    bool catalogs = false, health = false, runs = false;
    for (const models::ExternalChange& c : changes) {
        catalogs |= c.kind.startsWith(QLatin1String("catalog.")) || c.kind == QLatin1String("release.verify");
        health |= c.kind.startsWith(QLatin1String("evidence.")) ||
                  c.kind.startsWith(QLatin1String("verify")) ||
                  c.kind.startsWith(QLatin1String("validation."));
        runs |= c.kind.startsWith(QLatin1String("validation."));
    }
    if (catalogs) {
        reloadCatalogs(); // the Health view and the Validation view too; the selections stay
    } else {
        if (health)
            m_healthPane->reload();
        if (runs)
            m_validationPane->reload(); // its runs list, keeping the selected run
    }
    const models::ExternalChange& last = changes.constLast();
    const QString who = last.author.isEmpty() ? tr("another client") : last.author;
    statusBar()->showMessage(
        changes.size() == 1
            ? tr("Updated: %1 by %2 (receipt #%3): %4").arg(last.kind, who).arg(last.seq).arg(last.message)
            : tr("Updated: %1 actions by other clients, the newest %2 by %3 (receipt #%4)")
                  .arg(changes.size())
                  .arg(last.kind, who)
                  .arg(last.seq),
        15000);
    ++m_changesSeen;
}

QString MainWindow::titleWith(const QString& head) const {
    const QString db = models::titleName(m_workspace.path());
    return head.isEmpty() ? tr("%1 — Proofbench").arg(db) : tr("%1 — %2 — Proofbench").arg(head, db);
}

OpenTeamDatabaseDialog* MainWindow::teamDatabaseDialog() const {
    return m_teamDialog.data();
}

void MainWindow::openTeamDatabase() {
    if (m_teamDialog) {
        m_teamDialog->raise();
        m_teamDialog->activateWindow();
        return;
    }
    // Filled from the newest server opened before, if any.
    QString initial;
    for (const QString& spec : models::recentDatabases())
        if (models::isServerSpec(spec)) {
            initial = spec;
            break;
        }
    auto* dialog = new OpenTeamDatabaseDialog(initial, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    m_teamDialog = dialog;
    connect(dialog, &QDialog::accepted, this, [this, dialog] { emit openDatabaseRequested(dialog->spec()); });
    dialog->open();
}

void MainWindow::openDatabaseFile() {
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Open Database File"), QFileInfo(m_workspace.path()).absolutePath(),
        tr("Proofbench databases (*.sqlite *.db);;All files (*)"));
    if (!file.isEmpty())
        emit openDatabaseRequested(file);
}

void MainWindow::fillRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = models::recentDatabases();
    for (const QString& spec : recent) {
        QAction* a = m_recentMenu->addAction(models::describeDatabase(spec), this,
                                             [this, spec] { emit openDatabaseRequested(spec); });
        a->setObjectName(QStringLiteral("recentDatabase"));
        a->setData(spec);
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("No database opened yet"))->setEnabled(false);
}

QString MainWindow::connectionBannerText() const {
    return m_connectionBanner->isHidden() ? QString() : m_connectionText->text();
}

void MainWindow::showConnection(bool up, const QString& why, int attempt, int retryInMs) {
    if (up) {
        if (!m_connectionDown)
            return;
        m_connectionDown = false;
        m_connectionBanner->hide();
        statusBar()->showMessage(tr("Connection to %1 restored").arg(m_workspace.displayName()), 10000);
        // Whatever others committed meanwhile arrives as their receipts (changedElsewhere); the views
        // read again anyway, since a read that failed while the server was away left them stale.
        reloadCatalogs();
        m_receiptsPane->refresh();
        return;
    }
    m_connectionDown = true;
    m_connectionText->setText(
        tr("<b>Connection to %1 lost.</b> %2<br>Reconnecting automatically: try %3 in %4 s. What you start "
           "meanwhile fails with the connection's error; nothing is written half.")
            .arg(m_workspace.displayName().toHtmlEscaped(), why.toHtmlEscaped())
            .arg(attempt + 1)
            .arg((retryInMs + 999) / 1000));
    m_connectionBanner->show();
}

void MainWindow::applyAccess(const models::TeamAccess& access) {
    m_access = access;
    m_replicaBanner->setVisible(access.replica);
    if (access.role == models::TeamRole::Local) {
        m_statusRole->hide();
        return;
    }
    m_statusRole->setText(tr("%1 · %2").arg(access.user, access.describe()));
    // A read-only replica is said loudly: nothing done here is stored.
    m_statusRole->setStyleSheet(access.replica
                                    ? QStringLiteral("QLabel { background: #ffecb3; color: #5d4000; "
                                                     "border-radius: 3px; padding: 0 6px; }")
                                    : QString());
    m_statusRole->setToolTip(
        tr("Signed in to the server as %1, team role: %2. The server enforces what the role may do.")
            .arg(access.user, access.describe()));
    m_statusRole->show();
    const struct {
        const char* action;
        models::Capability needs;
    } gated[] = {
        {"actionImportCatalog", models::Capability::ImportCatalog},
        {"actionImportGit", models::Capability::ImportCatalog},
        {"actionImportEvidence", models::Capability::ImportEvidence},
        {"actionGenerateBundle", models::Capability::GenerateBundle},
        {"actionNewKey", models::Capability::ManageKeys},
        {"actionImportKey", models::Capability::ManageKeys},
        {"actionSignFile", models::Capability::Sign},
        {"actionSignEvidence", models::Capability::Sign},
        {"actionSignDeployment", models::Capability::Sign},
        {"welcomeImportFolder", models::Capability::ImportCatalog}, // the welcome's buttons
        {"welcomeImportGit", models::Capability::ImportCatalog},
    };
    for (const auto& g : gated) {
        const QString why = models::refusal(access, g.needs);
        if (why.isEmpty())
            continue;
        if (QAction* action = findChild<QAction*>(QLatin1String(g.action))) {
            action->setEnabled(false);
            action->setToolTip(why);
            action->setStatusTip(why);
        } else if (QPushButton* button = findChild<QPushButton*>(QLatin1String(g.action))) {
            button->setEnabled(false);
            button->setToolTip(why);
        }
    }
}

MainWindow::~MainWindow() {
    cancelAndWait();
}

void MainWindow::cancelAndWait() {
    // A validation run goes on its controller's own worker: cancel it first (its Jobs and RBAC are
    // deleted) and wait for it, so that closing during a run neither hangs nor leaves it running
    // while the views it reports to are destroyed.
    if (m_validationPane) {
        m_validationPane->controller()->cancel();
        m_validationPane->controller()->waitForWorker();
    }
    m_importTask.cancel();
    m_loads.clear();
    m_workspace.waitForDone(); // nothing of this window is delivered any more: its watchers die with it
}

BundleView* MainWindow::bundleView() const {
    return m_bundleView;
}

BundleCompareView* MainWindow::bundleCompareView() const {
    return m_bundleCompare;
}

void MainWindow::buildUi() {
    m_treeModel = new CatalogTreeModel(this);
    m_treeModel->setObjectName(QStringLiteral("catalogTreeModel"));
    m_proxy = new RecipeFilterProxyModel(this);
    m_proxy->setObjectName(QStringLiteral("recipeFilterModel"));
    m_proxy->setSourceModel(m_treeModel);

    QWidget* left = buildCatalogTree();
    buildCatalogPages();

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(left);
    m_splitter->addWidget(m_stack);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({440, 960});

    // The catalog view: the first-start welcome over the tree and the details.
    m_catalogPage = new QWidget(this);
    m_catalogPage->setObjectName(QStringLiteral("catalogView"));
    m_welcome = new WelcomePane(m_catalogPage);
    m_welcome->hide();
    connect(m_welcome, &WelcomePane::importFolderRequested, this, &MainWindow::importCatalog);
    connect(m_welcome, &WelcomePane::importGitRequested, this, &MainWindow::importFromGit);
    connect(m_welcome, &WelcomePane::verifyReleaseRequested, this, &MainWindow::verifyRelease);
    connect(m_welcome, &WelcomePane::dismissed, this, [this] {
        m_welcomeDismissed = true;
        updateWelcome();
    });
    auto* catalogLayout = new QVBoxLayout(m_catalogPage);
    catalogLayout->setContentsMargins(0, 0, 0, 0);
    catalogLayout->setSpacing(0);
    auto* welcomeRow = new QHBoxLayout;
    welcomeRow->setContentsMargins(6, 6, 6, 0);
    welcomeRow->addWidget(m_welcome);
    catalogLayout->addLayout(welcomeRow);
    catalogLayout->addWidget(m_splitter, 1);

    buildViews();
}

QWidget* MainWindow::buildCatalogTree() {
    // Left: filter + tree.
    auto* left = new QWidget(this);
    left->setObjectName(QStringLiteral("catalogPane"));
    m_filter = new QLineEdit(left);
    m_filter->setObjectName(QStringLiteral("recipeFilter"));
    m_filter->setPlaceholderText(tr("Filter recipes by name or criteria (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(
        tr("Every word must occur in the recipe's name or criteria (service, accelerator, os, "
           "intent, platform).\nDown or Enter moves to the matches; Escape clears."));
    m_filter->installEventFilter(this);
    connect(m_filter, &QLineEdit::textChanged, this, &MainWindow::applyFilter);

    m_tree = new QTreeView(left);
    m_tree->setObjectName(QStringLiteral("catalogTree"));
    m_tree->setModel(m_proxy);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setAllColumnsShowFocus(true);
    // Names that differ only at their end stay apart when elided; the full name is in the tooltip.
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setItemDelegate(new CatalogTreeDelegate(m_tree));
    // Eliding alone can still make two long names look alike ("h100-aks-ubuntu-trai…azure-managed"):
    // the column is as wide as the longest name (at least the pane), scrolling sideways when needed.
    m_tree->header()->setStretchLastSection(false);
    m_tree->viewport()->installEventFilter(this);
    connect(m_tree, &QTreeView::expanded, this, [this] { fitTreeColumn(); });
    connect(m_tree, &QTreeView::collapsed, this, [this] { fitTreeColumn(); });
    // One column: names need the width; counts are in the version table and the recipe pane.
    m_tree->setHeaderHidden(true);
    m_tree->setColumnHidden(CatalogTreeModel::ComponentsColumn, true);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentChanged(current); });

    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(6, 8, 0, 4);
    leftLayout->setSpacing(6);
    leftLayout->addWidget(m_filter);
    leftLayout->addWidget(m_tree, 1);
    return left;
}

void MainWindow::buildCatalogPages() {
    // Right: placeholder / version summary / recipe.
    m_stack = new QStackedWidget(this);
    m_stack->setObjectName(QStringLiteral("detailStack"));
    // A page that asks for more width than the window has never widens the window or squeezes the
    // tree: its minimum is the stack's own, not the widest page's.
    m_stack->setMinimumWidth(480);
    m_placeholder = new QLabel(m_stack);
    m_placeholder->setObjectName(QStringLiteral("placeholder"));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setStyleSheet(QStringLiteral("color: gray;"));
    m_versionPage = new QWidget(m_stack);
    m_versionPage->setObjectName(QStringLiteral("versionPage"));
    m_versionSummary = new QLabel(m_versionPage);
    m_versionSummary->setObjectName(QStringLiteral("versionSummary"));
    m_versionSummary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_versionSummary->setTextFormat(Qt::RichText);
    m_versionSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_versionSummary->setWordWrap(true);
    m_versionRecipesModel = new models::VersionRecipesModel(this);
    m_versionRecipes = new QTableView(m_versionPage);
    m_versionRecipes->setObjectName(QStringLiteral("versionRecipesTable"));
    m_versionRecipes->setModel(m_versionRecipesModel);
    m_versionRecipes->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_versionRecipes->setSelectionMode(QAbstractItemView::SingleSelection);
    m_versionRecipes->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_versionRecipes->setAlternatingRowColors(true);
    m_versionRecipes->setWordWrap(false);
    m_versionRecipes->setTextElideMode(Qt::ElideMiddle);
    m_versionRecipes->verticalHeader()->setVisible(false);
    m_versionRecipes->verticalHeader()->setDefaultSectionSize(m_versionRecipes->fontMetrics().height() + 8);
    m_versionRecipes->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_versionRecipes->horizontalHeader()->setHighlightSections(false);
    m_versionRecipes->horizontalHeader()->setStretchLastSection(true);
    m_versionRecipes->setToolTip(tr("Double-click or press Enter to open a recipe"));
    connect(m_versionRecipes, &QTableView::activated, this, [this](const QModelIndex& idx) {
        const models::RecipeInfo& r = m_versionRecipesModel->recipeAt(idx.row());
        if (!selectRecipe(r.catalogLabel, r.name)) {
            m_filter->clear(); // hidden by the filter: show everything, then select
            selectRecipe(r.catalogLabel, r.name);
        }
        m_tree->setFocus();
    });
    auto* versionLayout = new QVBoxLayout(m_versionPage);
    versionLayout->setContentsMargins(12, 8, 6, 4);
    versionLayout->addWidget(m_versionSummary);
    versionLayout->addWidget(m_versionRecipes, 1);

    // A recipe: its details, its component graph, and its comparison with other versions.
    m_recipeTabs = new QTabWidget(this);
    m_recipeTabs->setObjectName(QStringLiteral("recipeTabs"));
    m_recipeTabs->setDocumentMode(true);
    m_recipeView = new RecipeView(m_recipeTabs);
    m_graphPane = new GraphPane(m_workspace, m_recipeTabs);
    m_comparePane = new ComparePane(
        m_workspace, m_treeModel,
        [this](const QString& label) {
            std::shared_ptr<const catalog::Catalog> cat = cachedCatalog(label);
            if (!cat)
                requestCatalog(label);
            return cat;
        },
        m_recipeTabs);
    m_recipeTabs->addTab(m_recipeView, tr("Details"));
    m_recipeTabs->addTab(m_graphPane, tr("Graph"));
    m_recipeTabs->addTab(m_comparePane, tr("Compare"));
    m_recipeTabs->setTabToolTip(1,
                                tr("The recipe's components and their dependencies, laid out by Graphviz"));
    m_recipeTabs->setTabToolTip(2, tr("The recipe compared across catalog versions"));
    // A component chosen in the table or in the graph is selected in both (neither re-emits).
    connect(m_recipeView, &RecipeView::componentSelected, m_graphPane, &GraphPane::selectComponent);
    connect(m_graphPane, &GraphPane::componentClicked, m_recipeView, &RecipeView::selectComponent);

    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(m_versionPage);
    // Over the tabs: which version the recipe is from and where that version came from.
    m_recipePage = new QWidget(m_stack);
    m_recipePage->setObjectName(QStringLiteral("recipePage"));
    m_recipeSource = new QLabel(m_recipePage);
    m_recipeSource->setObjectName(QStringLiteral("recipeSource"));
    m_recipeSource->setTextFormat(Qt::RichText);
    m_recipeSource->setWordWrap(true);
    m_recipeSource->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* recipeLayout = new QVBoxLayout(m_recipePage);
    recipeLayout->setContentsMargins(0, 0, 0, 0);
    recipeLayout->setSpacing(0);
    recipeLayout->addWidget(m_recipeSource);
    recipeLayout->addWidget(m_recipeTabs, 1);
    m_stack->addWidget(m_recipePage);
}

// The views beside the catalog: Health, Verify, Sign, Validation, Receipts; the status bar.
void MainWindow::buildViews() {
    // The Health view: the evidence status of every coordinate of a catalog version.
    m_healthPane = new HealthPane(m_workspace, this);
    connect(m_healthPane, &HealthPane::openRecipe, this, [this](const QString& label, const QString& recipe) {
        showCatalog();
        if (!selectRecipe(label, recipe)) {
            m_filter->clear(); // hidden by the filter: show everything, then select
            selectRecipe(label, recipe);
        }
        m_tree->setFocus();
    });

    m_views = new QStackedWidget(this);
    m_views->setObjectName(QStringLiteral("viewStack"));
    m_views->addWidget(m_catalogPage);
    m_views->addWidget(m_healthPane);

    // The Verify view: offline Sigstore verification, step by step.
    m_verifyPane = new VerifyPane(m_workspace, this);
    connect(m_verifyPane, &VerifyPane::verificationFinished, this,
            [this](bool verified, qint64 id, const QString& error) {
                const QString bundle = QFileInfo(m_verifyPane->result().bundleFile).fileName();
                statusBar()->showMessage(id == 0 ? error
                                         : verified
                                             ? tr("Verified %1 (stored as #%2)").arg(bundle).arg(id)
                                             : tr("Not verified: %1 (stored as #%2)").arg(bundle).arg(id),
                                         10000);
            });
    m_views->addWidget(m_verifyPane);

    // The Sign view: keys, signatures and deployment-bundle verification.
    m_signPane = new SignPane(m_workspace, this);
    connect(m_signPane, &SignPane::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 10000); });
    // A trusted root imported in the Verify view is offered for keyless bundle verification too.
    connect(m_verifyPane, &VerifyPane::trustedRootImported, m_signPane->bundleVerifyPane(),
            &BundleVerifyPane::reloadTrustedRoots);
    m_views->addWidget(m_signPane);

    // The Validation view: runs on a cluster, their checks, logs and performance charts.
    m_validationPane = new ValidationPane(m_workspace, this);
    connect(m_validationPane, &ValidationPane::statusMessage, this,
            [this](const QString& text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); });
    m_views->addWidget(m_validationPane);

    // The Receipts view: the ledger of every action, its chain status, and external records.
    m_receiptsPane = new ReceiptsPane(m_workspace, this);
    connect(m_receiptsPane, &ReceiptsPane::statusMessage, this,
            [this](const QString& text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); });
    m_views->addWidget(m_receiptsPane);
    // Banners over every view: a lost server connection, a read-only replica.
    m_connectionBanner = new QFrame(this);
    m_connectionBanner->setObjectName(QStringLiteral("connectionBanner"));
    m_connectionBanner->setStyleSheet(
        QStringLiteral("#connectionBanner { background: #ffcdd2; border-bottom: 1px solid #e57373; } QLabel "
                       "{ color: #7f0000; }"));
    m_connectionText = new QLabel(m_connectionBanner);
    m_connectionText->setObjectName(QStringLiteral("connectionBannerText"));
    m_connectionText->setWordWrap(true);
    m_connectionText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* reconnect = new QPushButton(tr("Reconnect &Now"), m_connectionBanner);
    reconnect->setObjectName(QStringLiteral("reconnectNow"));
    connect(reconnect, &QPushButton::clicked, this, [this] {
        m_connectionText->setText(m_connectionText->text() + tr(" Reconnecting…"));
        m_workspace.reconnectNow();
    });
    auto* bannerRow = new QHBoxLayout(m_connectionBanner);
    bannerRow->setContentsMargins(10, 6, 10, 6);
    bannerRow->addWidget(m_connectionText, 1);
    bannerRow->addWidget(reconnect);
    m_connectionBanner->hide();
    m_replicaBanner = new QLabel(this);
    m_replicaBanner->setObjectName(QStringLiteral("replicaBanner"));
    m_replicaBanner->setWordWrap(true);
    m_replicaBanner->setText(tr(
        "<b>Read-only replica.</b> This is a hot standby of the team database: everything here can be read, "
        "and what the primary commits appears within seconds. Nothing can be written: imports, signing and "
        "validation runs are off. Checks that only read (verifying a bundle or a release folder) still "
        "run; their results are shown, not stored."));
    m_replicaBanner->setStyleSheet(QStringLiteral("QLabel { background: #ffecb3; color: #5d4000; padding: "
                                                  "6px 10px; border-bottom: 1px solid #ffd54f; }"));
    m_replicaBanner->hide();
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_connectionBanner);
    centralLayout->addWidget(m_replicaBanner);
    centralLayout->addWidget(m_views, 1);
    setCentralWidget(central);
    setAcceptDrops(true);

    m_statusDb = new QLabel(this);
    m_statusDb->setObjectName(QStringLiteral("statusDatabase"));
    m_statusDb->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_statusCounts = new QLabel(this);
    m_statusCounts->setObjectName(QStringLiteral("statusCounts"));
    statusBar()->setObjectName(QStringLiteral("statusBar"));
    m_statusSample = new QLabel(this);
    m_statusSample->setObjectName(QStringLiteral("statusSample"));
    m_statusSample->setText(tr("Sample data: not an AICR release"));
    m_statusSample->setToolTip(
        tr("The selected catalog version is Proofbench's own sample catalog, compiled into the "
           "app. Import a real catalog with File › Import Catalog… or File › Import from Git…"));
    m_statusSample->setStyleSheet(
        QStringLiteral("QLabel { background: #ffecb3; color: #5d4000; border-radius: 3px; "
                       "padding: 0 6px; }"));
    m_statusSample->hide();
    m_statusRole = new QLabel(this);
    m_statusRole->setObjectName(QStringLiteral("statusRole"));
    m_statusRole->hide(); // shown for a server connection (applyAccess)
    statusBar()->addPermanentWidget(m_statusSample);
    statusBar()->addPermanentWidget(m_statusRole);
    statusBar()->addPermanentWidget(m_statusCounts);
    statusBar()->addPermanentWidget(m_statusDb);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setToolTipsVisible(true); // a disabled action says why
    file->setObjectName(QStringLiteral("fileMenu"));
    QAction* openTeam = file->addAction(tr("Open &Team Database…"), this, &MainWindow::openTeamDatabase);
    openTeam->setObjectName(QStringLiteral("actionOpenTeamDatabase"));
    openTeam->setStatusTip(tr("Open a PostgreSQL team database in a new window (host, user, TLS)"));
    QAction* openFile = file->addAction(tr("Open Database &File…"), this, &MainWindow::openDatabaseFile);
    openFile->setObjectName(QStringLiteral("actionOpenDatabaseFile"));
    openFile->setStatusTip(tr("Open a Proofbench SQLite file in a new window"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("menuOpenRecent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    fillRecentMenu();
    file->addSeparator();
    m_importAction = file->addAction(tr("&Import Catalog…"), this, &MainWindow::importCatalog);
    m_importAction->setObjectName(QStringLiteral("actionImportCatalog"));
    m_importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_importAction->setStatusTip(tr("Import a catalog directory (AICR recipes/ layout) as a new version"));
    m_importGitAction = file->addAction(tr("Import from &Git…"), this, &MainWindow::importFromGit);
    m_importGitAction->setObjectName(QStringLiteral("actionImportGit"));
    m_importGitAction->setStatusTip(
        tr("Import catalog versions from the tags or branches of a Git repository, with their source"));
    m_importEvidenceAction = file->addAction(tr("Import &Evidence…"), this, &MainWindow::importEvidence);
    m_importEvidenceAction->setObjectName(QStringLiteral("actionImportEvidence"));
    m_importEvidenceAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    m_importEvidenceAction->setStatusTip(
        tr("Import the evidence pointers of an AICR recipes/evidence directory (invalid ones are kept with "
           "their reasons)"));
    QAction* verifyRelease =
        file->addAction(tr("Verify an AICR &Release…"), this, &MainWindow::verifyRelease);
    verifyRelease->setObjectName(QStringLiteral("actionVerifyRelease"));
    verifyRelease->setStatusTip(
        tr("Verify a folder of AICR release assets offline: Sigstore bundles, checksum list, assets, "
           "recipe catalog; binds the catalog versions it signed"));
    file->addSeparator();
    QAction* openBundle =
        file->addAction(tr("Open &Deployment Bundle…"), this, &MainWindow::openDeploymentBundleDialog);
    openBundle->setObjectName(QStringLiteral("actionOpenDeploymentBundle"));
    openBundle->setStatusTip(
        tr("Read a bundle of any AICR deployer (helm, argocd, argocd-helm, flux, helmfile): components, "
           "sync-waves, values, files"));
    QAction* compareBundles =
        file->addAction(tr("&Compare Deployment Bundles…"), this, &MainWindow::compareBundles);
    compareBundles->setObjectName(QStringLiteral("actionCompareBundles"));
    compareBundles->setStatusTip(tr("What changed between two deployment bundles (folders or imported)"));
    // Generate bundle…: the recipe on screen rendered into AICR's helm or argocd layout (the same
    // operation as `proofbench bundle generate`); enabled once a recipe is shown resolved.
    QAction* generateBundle = file->addAction(tr("&Generate Bundle…"));
    generateBundle->setObjectName(QStringLiteral("actionGenerateBundle"));
    generateBundle->setStatusTip(
        tr("Write the deployment bundle of the recipe on screen (helm or Argo CD layout)"));
    generateBundle->setEnabled(false);
    connect(this, &MainWindow::recipeShown, generateBundle, [this, generateBundle] {
        generateBundle->setEnabled(models::refusal(m_access, models::Capability::GenerateBundle).isEmpty());
    });
    connect(generateBundle, &QAction::triggered, this, &MainWindow::generateBundle);
    file->addSeparator();
    m_reportAction = file->addAction(tr("Release review &report…"), this, &MainWindow::openReportDialog);
    m_reportAction->setObjectName(QStringLiteral("actionReleaseReport"));
    m_reportAction->setStatusTip(
        tr("Summary, health table, evidence, performance charts, catalog diff, open problems and "
           "the receipts chain head as PDF, HTML or Markdown"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    buildViewMenu();

    // Sign: every signing dialog from any view (they open over the Sign view).
    QMenu* signMenu = menuBar()->addMenu(tr("&Sign"));
    signMenu->setObjectName(QStringLiteral("signMenu"));
    signMenu->setToolTipsVisible(true);
    const struct {
        QString text;
        const char* name;
        std::function<void()> run;
    } signActions[] = {
        {tr("&New Key…"), "actionNewKey", [this] { m_signPane->newKey(); }},
        {tr("&Import Key…"), "actionImportKey", [this] { m_signPane->importKey(); }},
        {QString(), nullptr, {}},
        {tr("Sign &File…"), "actionSignFile", [this] { m_signPane->signFile(); }},
        {tr("Sign &Evidence Bundle…"), "actionSignEvidence", [this] { m_signPane->signEvidence(); }},
        {tr("Sign &Deployment Bundle…"), "actionSignDeployment", [this] { m_signPane->signDeployment(); }},
        {QString(), nullptr, {}},
        {tr("&Verify Deployment Bundle…"), "actionVerifyDeployment",
         [this] {
             m_signPane->findChild<QLineEdit*>(QStringLiteral("bundleVerifyDirectory"))
                 ->setFocus(Qt::OtherFocusReason);
         }},
    };
    for (const auto& a : signActions) {
        if (!a.name) {
            signMenu->addSeparator();
            continue;
        }
        QAction* action = signMenu->addAction(a.text, this, [this, run = a.run] {
            showSign();
            run();
        });
        action->setObjectName(QLatin1String(a.name));
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    QAction* about = help->addAction(tr("&About Proofbench"), this, [this] {
        QMessageBox::about(
            this, tr("About Proofbench"),
            tr("<b>Proofbench</b> %1<br>A workbench for AICR recipes, evidence and signatures.")
                .arg(QCoreApplication::applicationVersion().toHtmlEscaped()));
    });
    about->setObjectName(QStringLiteral("actionAbout"));
}

void MainWindow::openDeploymentBundle(const QString& dir) {
    if (!m_bundleView) {
        m_bundleView = new BundleView(m_workspace, this);
        m_bundleView->setWindowFlag(Qt::Window);
        m_bundleView->resize(1200, 760);
    }
    m_bundleView->show();
    m_bundleView->raise();
    if (!dir.isEmpty())
        m_bundleView->openFolder(dir);
}

void MainWindow::openDeploymentBundleDialog() {
    const QString dir = chooseDirectory(this, tr("Open deployment bundle"), "openBundleDialog");
    if (!dir.isEmpty())
        openDeploymentBundle(dir);
}

void MainWindow::compareBundles() {
    if (!m_bundleCompare) {
        m_bundleCompare = new BundleCompareView(m_workspace, this);
        m_bundleCompare->setWindowFlag(Qt::Window);
        m_bundleCompare->resize(1200, 760);
    }
    m_bundleCompare->show();
    m_bundleCompare->raise();
    m_bundleCompare->refreshImported();
}

// View: one action per view (Ctrl+1..6, also on the tool bar), filter, expand, collapse, reload.
void MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    auto* views = new QActionGroup(this);
    views->setExclusive(true);
    m_showCatalogAction = view->addAction(tr("&Catalog"), this, &MainWindow::showCatalog);
    m_showCatalogAction->setObjectName(QStringLiteral("actionShowCatalog"));
    m_showCatalogAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    m_showCatalogAction->setToolTip(tr("Catalog versions and their recipes (Ctrl+1)"));
    m_showHealthAction = view->addAction(tr("&Health"), this, &MainWindow::showHealth);
    m_showHealthAction->setObjectName(QStringLiteral("actionShowHealth"));
    m_showHealthAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    m_showHealthAction->setToolTip(
        tr("The evidence status of every recipe coordinate: signed, pending, invalid or missing (Ctrl+2)"));
    m_showVerifyAction = view->addAction(tr("&Verify"), this, &MainWindow::showVerify);
    m_showVerifyAction->setObjectName(QStringLiteral("actionShowVerify"));
    m_showVerifyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_3));
    m_showVerifyAction->setToolTip(
        tr("Verify a Sigstore bundle offline, step by step, against a stored trusted root (Ctrl+3)"));
    m_showSignAction = view->addAction(tr("&Sign"), this, &MainWindow::showSign);
    m_showSignAction->setObjectName(QStringLiteral("actionShowSign"));
    m_showSignAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_4));
    m_showSignAction->setToolTip(tr("Signing keys; sign files, evidence bundles and deployment bundles; "
                                    "verify a deployment bundle (Ctrl+4)"));
    m_showValidationAction = view->addAction(tr("V&alidation"), this, &MainWindow::showValidation);
    m_showValidationAction->setObjectName(QStringLiteral("actionShowValidation"));
    m_showValidationAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_5));
    m_showValidationAction->setToolTip(
        tr("Validate a recipe on a cluster through a kubeconfig context: live checks, logs, "
           "NCCL and inference charts, past runs (Ctrl+5)"));
    m_showReceiptsAction = view->addAction(tr("&Receipts"), this, &MainWindow::showReceipts);
    m_showReceiptsAction->setObjectName(QStringLiteral("actionShowReceipts"));
    m_showReceiptsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_6));
    m_showReceiptsAction->setToolTip(
        tr("The receipts ledger: every action with its inputs, outputs and digests, the hash "
           "chain's status, and external ConfigHub records with their stage table (Ctrl+6)"));
    for (QAction* a : {m_showCatalogAction, m_showHealthAction, m_showVerifyAction, m_showSignAction,
                       m_showValidationAction, m_showReceiptsAction}) {
        a->setCheckable(true);
        views->addAction(a);
    }
    m_showCatalogAction->setChecked(true);
    view->addSeparator();
    m_viewBar = addToolBar(tr("Views"));
    m_viewBar->setObjectName(QStringLiteral("viewToolBar"));
    m_viewBar->setMovable(false);
    m_viewBar->setFloatable(false);
    m_viewBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_viewBar->toggleViewAction()->setVisible(false); // the only way back to the other view
    m_viewBar->addAction(m_showCatalogAction);
    m_viewBar->addAction(m_showHealthAction);
    m_viewBar->addAction(m_showVerifyAction);
    m_viewBar->addAction(m_showSignAction);
    m_viewBar->addAction(m_showValidationAction);
    m_viewBar->addAction(m_showReceiptsAction);
    m_viewBar->addSeparator();
    m_viewBar->addAction(m_importAction);
    m_viewBar->addAction(m_importGitAction);
    m_viewBar->addAction(m_importEvidenceAction);

    QAction* find = view->addAction(tr("&Filter"), this, [this] {
        if (isSignShown()) { // the deployment bundle's files
            auto* files = m_signPane->findChild<QLineEdit*>(QStringLiteral("bundleFilesFilter"));
            files->setFocus(Qt::ShortcutFocusReason);
            files->selectAll();
            return;
        }
        if (isVerifyShown()) { // nothing to filter: the bundle field
            auto* bundle = m_verifyPane->findChild<QLineEdit*>(QStringLiteral("verifyBundlePath"));
            bundle->setFocus(Qt::ShortcutFocusReason);
            bundle->selectAll();
            return;
        }
        if (isHealthShown()) {
            auto* healthFilter = m_healthPane->findChild<QLineEdit*>(QStringLiteral("healthFilter"));
            healthFilter->setFocus(Qt::ShortcutFocusReason);
            healthFilter->selectAll();
            return;
        }
        m_filter->setFocus(Qt::ShortcutFocusReason);
        m_filter->selectAll();
    });
    find->setObjectName(QStringLiteral("actionFilterRecipes"));
    find->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
    QAction* expand = view->addAction(tr("&Expand All"), m_tree, &QTreeView::expandAll);
    expand->setObjectName(QStringLiteral("actionExpandAll"));
    QAction* collapse = view->addAction(tr("&Collapse All"), m_tree, &QTreeView::collapseAll);
    collapse->setObjectName(QStringLiteral("actionCollapseAll"));
    QAction* reload = view->addAction(tr("&Reload"), this, &MainWindow::reloadCatalogs);
    reload->setObjectName(QStringLiteral("actionReload"));
    reload->setShortcut(QKeySequence::Refresh);
}

// Generate bundle…: the recipe on screen, resolved again on a worker, into the bundle dialog.
void MainWindow::generateBundle() {
    // The recipe on screen, as it was resolved to be shown: nothing is resolved again.
    const catalog::RecipeResult* recipe = m_recipeView->result();
    if (!recipe || !m_recipeView->catalog()) {
        QMessageBox::warning(this, tr("Generate bundle"),
                             tr("Cannot generate a bundle: %1").arg(tr("no resolved recipe is shown")));
        return;
    }
    const models::RecipeInfo info = m_recipeView->recipe();
    auto* dialog = new GenerateBundleDialog(m_workspace, m_recipeView->catalog(), *recipe, info.name,
                                            info.catalogLabel, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &GenerateBundleDialog::openBundleRequested, this, &MainWindow::openDeploymentBundle);
    dialog->open();
}

void MainWindow::reloadCatalogs() {
    reloadCatalogsThen({});
}

// Reads the tree on a worker; then restores the selection, runs `then` and says catalogsReloaded().
void MainWindow::reloadCatalogsThen(std::function<void()> then) {
    // Remember what was selected, so a reload keeps the user's place.
    QString label, recipe;
    const QModelIndex cur = m_proxy->mapToSource(m_tree->currentIndex());
    if (const models::CatalogVersionInfo* v = m_treeModel->versionAt(cur))
        label = v->label;
    if (const models::RecipeInfo* r = m_treeModel->recipeAt(cur))
        recipe = r->name;
    ++m_reloading;
    m_treeModel->reload(m_workspace, [this, label, recipe, then](const Status& status) {
        --m_reloading;
        afterCatalogsRead(label, recipe, status);
        if (then)
            then();
        emit catalogsReloaded();
    });
}

void MainWindow::afterCatalogsRead(const QString& label, const QString& recipe, const Status& status) {
    m_catalogErrors.clear(); // a reload retries versions that failed to load
    if (!status)
        statusBar()->showMessage(tr("Cannot read the catalog versions: %1").arg(status.error().toString()));

    // Drop cached catalogs of versions that are gone.
    for (auto it = m_catalogs.begin(); it != m_catalogs.end();)
        it = m_treeModel->versionIndex(it->first).isValid() ? std::next(it) : m_catalogs.erase(it);

    m_tree->expandAll();
    fitTreeColumn();
    updateWelcome();
    m_placeholder->setText(
        m_treeModel->versionCount() == 0
            ? tr("No catalog versions yet.\nUse File › Import Catalog… (Ctrl+I) to add one.")
            : tr("Select a recipe on the left."));
    if (!recipe.isEmpty())
        selectRecipe(label, recipe);
    else if (!label.isEmpty())
        selectVersion(label);
    else {
        m_stack->setCurrentWidget(m_placeholder);
        showSelectionSource(nullptr);
    }
    updateStatus();
    m_healthPane->reload();
    m_validationPane->reload(); // new versions in its recipe picker
}

bool MainWindow::isHealthShown() const {
    return m_views->currentWidget() == m_healthPane;
}

bool MainWindow::isVerifyShown() const {
    return m_views->currentWidget() == m_verifyPane;
}

bool MainWindow::isSignShown() const {
    return m_views->currentWidget() == m_signPane;
}

bool MainWindow::isValidationShown() const {
    return m_views->currentWidget() == m_validationPane;
}

void MainWindow::showValidation() {
    m_views->setCurrentWidget(m_validationPane);
    m_showValidationAction->setChecked(true);
    statusBar()->showMessage(m_validationPane->isRunning()
                                 ? tr("A validation run is going")
                                 : tr("Pick a kubeconfig context and a recipe, then Start"),
                             5000);
}

bool MainWindow::isReceiptsShown() const {
    return m_views->currentWidget() == m_receiptsPane;
}

void MainWindow::showReceipts() {
    m_views->setCurrentWidget(m_receiptsPane);
    m_showReceiptsAction->setChecked(true);
    // The chain status is known once the pane has read the ledger again (on its worker).
    connect(
        m_receiptsPane, &ReceiptsPane::refreshed, this,
        [this] {
            statusBar()->showMessage(
                m_receiptsPane->chain().ok
                    ? tr("Receipts chain intact")
                    : tr("Receipts chain broken at receipt #%1").arg(m_receiptsPane->chain().firstBadSeq),
                5000);
        },
        Qt::SingleShotConnection);
    m_receiptsPane->refresh();
}

void MainWindow::openReportDialog() {
    std::unique_ptr<ReportDialog> owned(new ReportDialog(m_workspace, this));
    ReportDialog& dialog = *owned;
    connect(&dialog, &ReportDialog::saved, this, [this](const QString& path, const QString& error) {
        statusBar()->showMessage(
            error.isEmpty() ? tr("Report saved to %1").arg(QDir::toNativeSeparators(path)) : error, 10000);
        if (m_receiptsPane->isVisible())
            m_receiptsPane->refresh();
    });
    dialog.exec();
}

void MainWindow::showSign() {
    m_views->setCurrentWidget(m_signPane);
    m_showSignAction->setChecked(true);
}

void MainWindow::showCatalog() {
    m_views->setCurrentWidget(m_catalogPage);
    m_showCatalogAction->setChecked(true);
}

void MainWindow::showHealth() {
    m_views->setCurrentWidget(m_healthPane);
    m_showHealthAction->setChecked(true);
    m_healthPane->table()->setFocus();
}

void MainWindow::showVerify() {
    m_views->setCurrentWidget(m_verifyPane);
    m_showVerifyAction->setChecked(true);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!verifiableFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
    else
        event->ignore();
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event) {
    if (!verifiableFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
    else
        event->ignore();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList files = verifiableFiles(event->mimeData());
    if (files.isEmpty()) {
        event->ignore();
        return;
    }
    showVerify();
    if (m_verifyPane->openFiles(files)) {
        event->acceptProposedAction();
        statusBar()->showMessage(tr("Opened %1 in the Verify view")
                                     .arg(QDir::toNativeSeparators(m_verifyPane->bundlePath().isEmpty()
                                                                       ? files.constFirst()
                                                                       : m_verifyPane->bundlePath())),
                                 8000);
    } else {
        event->ignore();
    }
}

// Which version is on view and where it came from: the window title, the sample mark in the
// status bar and the line over the recipe tabs.
void MainWindow::showSelectionSource(const models::CatalogVersionInfo* v, const models::RecipeInfo* r) {
    if (!v) {
        setWindowTitle(titleWith(QString()));
        m_statusSample->hide();
        m_recipeSource->clear();
        return;
    }
    setWindowTitle(titleWith(v->isSample() ? tr("%1 (sample data)").arg(v->label) : v->label));
    m_statusSample->setVisible(v->isSample());
    // The recipe as the tree names it (a wildcard leaf with its overlay: "recipe (monitoring-hpa)").
    const QString recipe = r ? tr("%1 in ").arg(models::displayName(*r).toHtmlEscaped()) : QString();
    if (v->isSample()) {
        m_recipeSource->setStyleSheet(
            QStringLiteral("QLabel { background: #fff8e1; color: #3e2c00; border-bottom: 1px solid #e0b84f; "
                           "padding: 4px 8px; }"));
        m_recipeSource->setText(
            tr("%1<b>%2 — sample data</b>: Proofbench's own sample catalog, not an AICR release. "
               "Its recipes, components and versions are examples.")
                .arg(recipe, v->label.toHtmlEscaped()));
    } else {
        m_recipeSource->setStyleSheet(
            QStringLiteral("QLabel { color: palette(placeholder-text); padding: 4px 8px; }"));
        m_recipeSource->setText(tr("%1<b>%2</b> · %3 · order: %4")
                                    .arg(recipe, v->label.toHtmlEscaped(), v->originText().toHtmlEscaped(),
                                         v->orderBasis().toHtmlEscaped()));
    }
    m_recipeSource->setToolTip(models::versionTooltip(*v));
}

// The welcome shows while the database holds only the sample catalog, until it is dismissed (for
// this session, or for good with "Don't show this again").
void MainWindow::updateWelcome() {
    bool onlySample = m_treeModel->versionCount() > 0;
    for (int i = 0; i < m_treeModel->versionCount() && onlySample; ++i)
        onlySample = m_treeModel->versionAt(m_treeModel->index(i, 0))->isSample();
    m_welcome->setVisible(onlySample && !m_welcomeDismissed && !WelcomePane::isDismissedForGood());
}

bool MainWindow::isWelcomeShown() const {
    return !m_welcome->isHidden();
}

GitImportDialog* MainWindow::gitImportDialog() const {
    return m_gitDialog;
}

ReleaseVerifyDialog* MainWindow::releaseVerifyDialog() const {
    return m_releaseDialog;
}

void MainWindow::verifyRelease() {
    if (m_releaseDialog) {
        m_releaseDialog->raise();
        m_releaseDialog->activateWindow();
        return;
    }
    m_releaseDialog = new ReleaseVerifyDialog(m_workspace, this);
    m_releaseDialog->setAttribute(Qt::WA_DeleteOnClose);
    QStringList labels;
    for (int i = 0; i < m_treeModel->versionCount(); ++i)
        if (const models::CatalogVersionInfo* v = m_treeModel->versionAt(m_treeModel->index(i, 0));
            v && !v->isSample())
            labels << v->label;
    m_releaseDialog->setCatalogVersions(labels);
    connect(m_releaseDialog, &ReleaseVerifyDialog::verified, this,
            [this](const QString& version, const QStringList& bound) {
                if (bound.isEmpty())
                    return;
                reloadCatalogs(); // the binding shows in the tree, the recipe header and the health header
                m_healthPane->reload();
                statusBar()->showMessage(tr("Registry and validator catalog signed by AICR %1: %2")
                                             .arg(version, bound.join(QStringLiteral(", "))),
                                         10000);
            });
    m_releaseDialog->show();
}

EmptyState* MainWindow::emptyState(const QString& view) const {
    auto it = m_emptyStates.find(view);
    return it == m_emptyStates.end() ? nullptr : it->second;
}

void MainWindow::importFromGit() {
    if (m_gitDialog) {
        m_gitDialog->raise();
        m_gitDialog->activateWindow();
        return;
    }
    m_gitDialog = new GitImportDialog(m_workspace, this);
    m_gitDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_gitDialog, &GitImportDialog::imported, this, [this](const QStringList& labels) {
        if (labels.isEmpty())
            return;
        showCatalog();
        // Then the newest of the versions imported (they come in version order).
        reloadCatalogsThen([this, newest = labels.constLast()] {
            if (!selectVersion(newest)) {
                m_filter->clear();
                selectVersion(newest);
            }
        });
        statusBar()->showMessage(models::counted(int(labels.size()), tr("catalog version imported from Git"),
                                                 tr("catalog versions imported from Git")) +
                                     QStringLiteral(": ") + labels.join(QStringLiteral(", ")),
                                 10000);
    });
    m_gitDialog->show();
}

// One empty state per view, over its main table: what is missing and the button that adds it.
void MainWindow::buildEmptyStates() {
    // Catalog: no version at all, or a filter that matches nothing.
    auto* catalog = new EmptyState(m_tree, "catalogEmptyState");
    catalog->addAction(m_importAction, "catalogEmptyImport");
    catalog->addAction(m_importGitAction, "catalogEmptyImportGit");
    QPushButton* clear =
        catalog->addButton(tr("Clear the filter"), "catalogEmptyClearFilter", [this] { m_filter->clear(); });
    catalog->watch(m_treeModel);
    catalog->setCondition([this, clear](EmptyState& e) {
        if (m_proxy->rowCount() > 0)
            return false;
        const bool none = m_treeModel->versionCount() == 0;
        e.setTitle(none ? tr("No catalog versions yet")
                        : tr("No recipe matches “%1”").arg(m_proxy->filterText()));
        e.setText(none ? tr("Import an AICR catalog: a recipes/ folder, or the tags of a Git repository.")
                       : tr("Every word must occur in a recipe's name or criteria."));
        e.button("catalogEmptyImport")->setVisible(none);
        e.button("catalogEmptyImportGit")->setVisible(none);
        clear->setVisible(!none);
        return true;
    });
    connect(m_filter, &QLineEdit::textChanged, catalog, &EmptyState::refresh); // rewords "No recipe matches"
    m_emptyStates[QStringLiteral("catalog")] = catalog;

    // Health: no evidence for any coordinate of the version (or filters that hide every row).
    auto* health = new EmptyState(m_healthPane->table(), "healthEmptyState");
    health->addAction(m_importEvidenceAction, "healthEmptyImportEvidence");
    QPushButton* clearHealth = health->addButton(tr("Clear the filters"), "healthEmptyClearFilters",
                                                 [this] { m_healthPane->clearFilters(); });
    health->watch(m_healthPane->model());
    connect(m_healthPane, &HealthPane::loaded, health, &EmptyState::refresh);
    health->setCondition([this, clearHealth](EmptyState& e) {
        const models::HealthModel* model = m_healthPane->model();
        const int rows = model->rowCount();
        const bool noEvidence = rows == 0 || model->countOf(evidence::HealthStatus::NoEvidence) == rows;
        if (!noEvidence && m_healthPane->proxy()->rowCount() > 0)
            return false;
        if (noEvidence) {
            e.setTitle(tr("No evidence imported yet"));
            e.setText(rows == 0
                          ? tr("Import a catalog, then the evidence pointers of its recipes.")
                          : tr("None of the %1 recipes of %2 has an evidence pointer. Import an AICR "
                               "recipes/evidence directory to see which are signed, pending or invalid.")
                                .arg(rows)
                                .arg(m_healthPane->version()));
        } else {
            e.setTitle(tr("No row matches the filters"));
            e.setText(QString());
        }
        e.button("healthEmptyImportEvidence")->setVisible(noEvidence);
        clearHealth->setVisible(!noEvidence);
        return true;
    });
    m_emptyStates[QStringLiteral("health")] = health;

    // Verify: nothing verified yet.
    auto* verify = new EmptyState(m_verifyPane->historyView(), "verifyEmptyState");
    verify->setTitle(tr("No bundle verified yet"));
    verify->setText(
        tr("Choose a Sigstore bundle above, or drop a .sigstore.json anywhere on the window. Every "
           "verification is kept here."));
    m_emptyStates[QStringLiteral("verify")] = verify;

    // Sign: no key yet.
    auto* sign = new EmptyState(m_signPane->keysView(), "signEmptyState");
    sign->setTitle(tr("No signing keys yet"));
    sign->setText(tr("Create a key pair or import a key to sign files, evidence and deployment bundles."));
    sign->addButton(tr("New Key…"), "signEmptyNewKey", [this] { m_signPane->newKey(); });
    sign->addButton(tr("Import Key…"), "signEmptyImportKey", [this] { m_signPane->importKey(); });
    m_emptyStates[QStringLiteral("sign")] = sign;

    // Validation: no run yet.
    if (auto* runs = m_validationPane->findChild<QAbstractItemView*>(QStringLiteral("runsTable"))) {
        auto* validation = new EmptyState(runs, "validationEmptyState");
        validation->setTitle(tr("No validation runs yet"));
        validation->setText(tr("Pick a kubeconfig context and a recipe, then Start."));
        m_emptyStates[QStringLiteral("validation")] = validation;
    }

    // Receipts: an empty ledger, or filters that hide every receipt.
    auto* receipts = new EmptyState(m_receiptsPane->ledgerView(), "receiptsEmptyState");
    receipts->watch(m_receiptsPane->ledgerModel());
    receipts->setCondition([this](EmptyState& e) {
        if (m_receiptsPane->ledgerView()->model()->rowCount() > 0)
            return false;
        const bool none = m_receiptsPane->ledgerModel()->rowCount() == 0;
        e.setTitle(none ? tr("No receipts yet") : tr("No receipt matches the filters"));
        e.setText(none ? tr("Every action (imports, signatures, verifications, validations, reports) leaves "
                            "a receipt here.")
                       : QString());
        return true;
    });
    m_emptyStates[QStringLiteral("receipts")] = receipts;
}

void MainWindow::updateStatus() {
    // A server's line (and tooltip) say how it was reached, once the connection was read.
    if (m_statusDbText.isEmpty()) {
        m_statusDb->setText(tr("Database: %1").arg(m_workspace.displayName()));
        // Not path(): a server's URI may carry a password (describe() never does).
        m_statusDb->setToolTip(m_workspace.displayName());
    }
    m_statusCounts->setText(
        models::counted(m_treeModel->versionCount(), tr("catalog version"), tr("catalog versions")) +
        QStringLiteral(" · ") + models::counted(m_treeModel->recipeCount(), tr("recipe"), tr("recipes")));
}

bool MainWindow::selectVersion(const QString& label) {
    const QModelIndex proxy = m_proxy->mapFromSource(m_treeModel->versionIndex(label));
    if (!proxy.isValid())
        return false;
    m_tree->expand(proxy);
    m_tree->setCurrentIndex(proxy);
    m_tree->scrollTo(proxy);
    return true;
}

bool MainWindow::selectRecipe(const QString& label, const QString& recipeName) {
    const QModelIndex proxy = m_proxy->mapFromSource(m_treeModel->recipeIndex(label, recipeName));
    if (!proxy.isValid())
        return false;
    m_tree->setCurrentIndex(proxy);
    m_tree->scrollTo(proxy);
    return true;
}

std::shared_ptr<const catalog::Catalog> MainWindow::cachedCatalog(const QString& label) const {
    auto it = m_catalogs.find(label);
    return it == m_catalogs.end() ? nullptr : it->second;
}

void MainWindow::onCurrentChanged(const QModelIndex& proxyIndex) {
    // A row hidden by the filter leaves the pane as it was.
    if (!proxyIndex.isValid())
        return;
    const QModelIndex source = m_proxy->mapToSource(proxyIndex);
    if (const models::RecipeInfo* r = m_treeModel->recipeAt(source))
        showRecipe(*r);
    else if (const models::CatalogVersionInfo* v = m_treeModel->versionAt(source))
        showVersion(*v);
}

void MainWindow::showVersion(const models::CatalogVersionInfo& v) {
    m_hiddenByFilter = {};
    QString html =
        QStringLiteral("<h2>%1%2</h2>")
            .arg(v.label.toHtmlEscaped(),
                 v.isSample() ? QStringLiteral(" <span style='color:#8a6100; font-weight:normal'>— %1</span>")
                                    .arg(tr("sample data").toHtmlEscaped())
                              : QString());
    if (v.isSample())
        html += QStringLiteral("<p style='background:#fff8e1; color:#3e2c00'>%1</p>")
                    .arg(tr("Proofbench's own sample catalog, compiled into the app to show what it does. It "
                            "is not an AICR "
                            "release: its recipes, components and versions are examples. Import a real "
                            "catalog with "
                            "File › Import Catalog… or File › Import from Git…")
                             .toHtmlEscaped());
    html += QStringLiteral("<table cellspacing='3'>");
    html += htmlRow(tr("Recipes"), QString::number(v.recipeCount));
    html += htmlRow(tr("Overlays"), QString::number(v.overlayCount));
    html += htmlRow(tr("Source"), v.originText().toHtmlEscaped());
    if (!v.isSample() && v.origin.kind != QLatin1String("git"))
        html += htmlRow(tr("Folder"), QDir::toNativeSeparators(v.source).toHtmlEscaped());
    html += htmlRow(tr("Version order"), v.orderBasis().toHtmlEscaped());
    html += htmlRow(tr("Imported"),
                    QLocale().toString(v.importedAt.toLocalTime(), QLocale::LongFormat).toHtmlEscaped());
    html += htmlRow(tr("Content digest"),
                    QStringLiteral("<code>sha256:%1</code>").arg(v.contentDigest.toHtmlEscaped()));
    html += htmlRow(
        tr("API versions"),
        v.apiVersions.split(QLatin1Char(','), Qt::SkipEmptyParts).join(QStringLiteral(", ")).toHtmlEscaped());
    html +=
        QStringLiteral("</table><p style='color:gray'>%1</p>")
            .arg(tr(
                "Open one of its recipes to see the components, constraints and validation it resolves to."));
    m_versionSummary->setText(html);
    const std::vector<models::RecipeInfo>* recipes = m_treeModel->recipesOf(v.label);
    m_versionRecipesModel->setRecipes(recipes ? *recipes : std::vector<models::RecipeInfo>());
    m_versionRecipes->resizeColumnsToContents();
    m_stack->setCurrentWidget(m_versionPage);
    showSelectionSource(&v);
    requestCatalog(v.label); // warm the cache: the user's next click is probably one of its recipes
}

void MainWindow::showRecipe(const models::RecipeInfo& info) {
    m_hiddenByFilter = {};
    m_stack->setCurrentWidget(m_recipePage);
    showSelectionSource(m_treeModel->versionAt(m_treeModel->versionIndex(info.catalogLabel)), &info);
    m_comparePane->setRecipe(info); // loads the catalogs it needs itself
    std::shared_ptr<const catalog::Catalog> cat = cachedCatalog(info.catalogLabel);
    if (!cat) {
        if (auto err = m_catalogErrors.find(info.catalogLabel); err != m_catalogErrors.end()) {
            const QString message = tr("Cannot load catalog %1: %2").arg(info.catalogLabel, err->second);
            m_recipeView->showMessage(info, message, true);
            m_graphPane->showMessage(message);
            return;
        }
        const QString message = tr("Loading catalog %1…").arg(info.catalogLabel);
        m_recipeView->showMessage(info, message, false);
        m_graphPane->showMessage(message);
        requestCatalog(info.catalogLabel);
        return;
    }
    // Resolving takes a few milliseconds, on a worker like every other step of the window.
    runInView<catalog::RecipeResult>(
        this, m_workspace,
        [cat, leaf = info.leafOverlay, label = info.catalogLabel](const ops::Context&) {
            return models::resolveRecipe(cat, leaf, label);
        },
        [this, info, cat](const Result<catalog::RecipeResult>& result) {
            if (isCurrentRecipe(info))
                showResolved(info, cat, result);
        });
}

bool MainWindow::isCurrentRecipe(const models::RecipeInfo& info) const {
    const models::RecipeInfo* r = m_treeModel->recipeAt(m_proxy->mapToSource(m_tree->currentIndex()));
    return r && r->catalogLabel == info.catalogLabel && r->name == info.name;
}

void MainWindow::showResolved(const models::RecipeInfo& info,
                              const std::shared_ptr<const catalog::Catalog>& cat,
                              const Result<catalog::RecipeResult>& result) {
    if (!result) {
        const QString message = tr("This recipe does not resolve: %1").arg(result.error().toString());
        m_recipeView->showMessage(info, message, true);
        m_graphPane->showMessage(message);
        return;
    }
    m_recipeView->showRecipe(info, cat, *result);
    m_graphPane->setRecipe(info, *result);
    emit recipeShown(info.catalogLabel, info.name);
}

void MainWindow::requestCatalog(const QString& label) {
    if (m_catalogs.count(label) || m_loads.count(label))
        return;
    m_catalogErrors.erase(label);
    // The stored version is read on a worker with a connection of its own.
    m_loads[label] = runInView<CatalogLoad>(
        this, m_workspace,
        [label](const ops::Context& ctx) -> Result<CatalogLoad> {
            CatalogLoad out;
            Result<std::shared_ptr<const catalog::Catalog>> cat = ops::loadCatalogVersion(ctx, label);
            if (!cat)
                out.error = cat.error().toString();
            else
                out.catalog = *cat;
            return out;
        },
        [this, label](const Result<CatalogLoad>& result) {
            const CatalogLoad load = result ? *result : CatalogLoad{nullptr, result.error().toString()};
            m_loads.erase(label);
            onCatalogLoaded(label, load);
        });
}

void MainWindow::onCatalogLoaded(const QString& label, const CatalogLoad& load) {
    if (load.catalog)
        m_catalogs[label] = load.catalog;
    else
        m_catalogErrors[label] = load.error;
    m_comparePane->catalogLoaded(label, load.catalog ? QString() : load.error);
    // Show the recipe the user is waiting for, if it is one of this version's.
    const QModelIndex source = m_proxy->mapToSource(m_tree->currentIndex());
    if (const models::RecipeInfo* r = m_treeModel->recipeAt(source); r && r->catalogLabel == label)
        showRecipe(*r);
}

// --- Filter and keyboard ------------------------------------------------------------------------

void MainWindow::applyFilter(const QString& text) {
    m_proxy->setFilterText(text);
    m_tree->expandAll();
    fitTreeColumn();
    // The recipe on show is never one the list no longer has: hidden by the filter, the pane says so
    // (and shows it again once the filter lets it through).
    if (m_stack->currentWidget() == m_recipePage && !m_recipeView->recipe().name.isEmpty()) {
        const models::RecipeInfo& shown = m_recipeView->recipe();
        if (!m_proxy->mapFromSource(m_treeModel->recipeIndex(shown.catalogLabel, shown.name)).isValid()) {
            m_hiddenByFilter = {shown.catalogLabel, shown.name};
            m_stack->setCurrentWidget(m_placeholder);
        }
    }
    if (m_stack->currentWidget() == m_placeholder && !m_hiddenByFilter.first.isEmpty()) {
        const auto [label, name] = m_hiddenByFilter;
        if (selectRecipe(label, name)) {
            m_hiddenByFilter = {};
            if (const models::RecipeInfo* r = m_treeModel->recipeAt(m_treeModel->recipeIndex(label, name)))
                showRecipe(*r);
        } else {
            m_placeholder->setText(tr("%1 (%2) is hidden by the filter “%3”.\nEsc clears the filter.")
                                       .arg(name, label, text.trimmed()));
        }
    }
    if (text.trimmed().isEmpty()) {
        statusBar()->clearMessage();
        if (m_tree->currentIndex().isValid())
            m_tree->scrollTo(m_tree->currentIndex());
        return;
    }
    int matches = 0;
    for (int v = 0; v < m_proxy->rowCount(); ++v)
        matches += m_proxy->rowCount(m_proxy->index(v, 0));
    statusBar()->showMessage(matches == 0
                                 ? tr("No recipe matches “%1”").arg(text.trimmed())
                                 : models::counted(matches, tr("recipe matches"), tr("recipes match")));
}

void MainWindow::focusFirstMatch() {
    QModelIndex cur = m_tree->currentIndex();
    if (!cur.isValid() ||
        CatalogTreeModel::kindOf(m_proxy->mapToSource(cur)) != CatalogTreeModel::Kind::Recipe) {
        for (int v = 0; v < m_proxy->rowCount(); ++v) {
            const QModelIndex version = m_proxy->index(v, 0);
            if (m_proxy->rowCount(version) > 0) {
                m_tree->setCurrentIndex(m_proxy->index(0, 0, version));
                break;
            }
        }
    }
    m_tree->setFocus(Qt::OtherFocusReason);
}

// Every row, not only those on screen (QTreeView::resizeColumnToContents looks at the visible ones).
void MainWindow::fitTreeColumn() {
    const int indent = m_tree->indentation();
    int widest = 0;
    for (int v = 0; v < m_proxy->rowCount(); ++v) {
        const QModelIndex version = m_proxy->index(v, 0);
        widest = std::max(widest, m_tree->sizeHintForIndex(version).width() + indent);
        if (!m_tree->isExpanded(version))
            continue;
        for (int r = 0; r < m_proxy->rowCount(version); ++r)
            widest = std::max(widest,
                              m_tree->sizeHintForIndex(m_proxy->index(r, 0, version)).width() + 2 * indent);
    }
    m_tree->setColumnWidth(CatalogTreeModel::NameColumn, std::max(widest + 4, m_tree->viewport()->width()));
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (m_tree && watched == m_tree->viewport() && event->type() == QEvent::Resize)
        fitTreeColumn();
    switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove:
    case QEvent::Drop:
        if (watched != this && !verifiableFiles(static_cast<QDropEvent*>(event)->mimeData()).isEmpty()) {
            if (event->type() == QEvent::Drop)
                dropEvent(static_cast<QDropEvent*>(event));
            else
                static_cast<QDropEvent*>(event)->acceptProposedAction();
            return true;
        }
        break;
    default:
        break;
    }
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        switch (key->key()) {
        case Qt::Key_Down:
        case Qt::Key_Return:
        case Qt::Key_Enter:
            focusFirstMatch();
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
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    cancelAndWait();
    QMainWindow::closeEvent(event);
}

// --- Import -------------------------------------------------------------------------------------

void MainWindow::importCatalog() {
    if (isImporting() || isImportingEvidence())
        return;
    const QString chosen = chooseDirectory(this, tr("Import Catalog — choose an AICR recipes/ directory"),
                                           "importDirectoryDialog");
    if (chosen.isEmpty())
        return;
    const QString dir = QDir::cleanPath(chosen);

    // Default label: the directory's name, or its parent's when it is the recipes/ folder itself.
    QFileInfo fi(dir);
    QString suggested = fi.fileName();
    if (suggested == QLatin1String("recipes"))
        suggested = fi.dir().dirName();

    QInputDialog labelDialog(this);
    labelDialog.setObjectName(QStringLiteral("importLabelDialog"));
    labelDialog.setWindowTitle(tr("Import Catalog"));
    labelDialog.setLabelText(tr("Version label for the catalog in\n%1:").arg(QDir::toNativeSeparators(dir)));
    labelDialog.setTextValue(suggested);
    labelDialog.setInputMode(QInputDialog::TextInput);
    if (labelDialog.exec() != QDialog::Accepted)
        return;
    const QString label = labelDialog.textValue().trimmed();
    if (label.isEmpty())
        return;
    startImport(dir, label);
}

bool MainWindow::startImport(const QString& dirIn, const QString& label) {
    if (isImporting() || isImportingEvidence())
        return false;
    const QString dir = QFileInfo(dirIn).absoluteFilePath();
    m_importDir = dir;
    m_importLabel = label;
    m_lastImportError.clear();
    m_importAction->setEnabled(false);
    m_importEvidenceAction->setEnabled(false);

    m_progress =
        new QProgressDialog(tr("Reading %1…").arg(QDir::toNativeSeparators(dir)), tr("Cancel"), 0, 100, this);
    m_progress->setObjectName(QStringLiteral("importProgress"));
    m_progress->setWindowTitle(tr("Importing %1").arg(label));
    m_progress->setWindowModality(Qt::WindowModal);
    m_progress->setMinimumDuration(250);
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    m_progress->setMinimumWidth(460);
    m_progress->setValue(0);
    connect(m_progress, &QProgressDialog::canceled, this, [this] {
        m_importTask.cancel();
        if (m_progress)
            m_progress->setLabelText(tr("Cancelling…"));
    });

    // The same operation as `proofbench catalog import`: one transaction with its receipt.
    ops::ImportCatalogRequest request;
    request.label = label;
    request.dir = dir;
    m_importTask = m_workspace.run<ops::ImportCatalogOutcome>(
        this, [request](const ops::Context& ctx) { return ops::importCatalog(ctx, request); },
        [this](const Result<ops::ImportCatalogOutcome>& r) {
            ImportOutcome out;
            out.ok = r.ok();
            out.cancelled = !r && m_importTask.cancelled();
            if (r)
                out.report = r->report;
            else
                out.error = r.error().toString();
            onImportFinished(out);
        },
        [this](const ops::Progress& p) {
            onImportProgress(p.total > 0 ? int(p.done * 100 / p.total) : 0, p.what);
        });
    return true;
}

void MainWindow::onImportProgress(int percent, const QString& text) {
    if (!m_progress || m_importTask.cancelled())
        return;
    m_progress->setLabelText(text);
    m_progress->setValue(std::min(percent, 99)); // 100 only when done
}

void MainWindow::onImportFinished(const ImportOutcome& outcome) {
    if (m_progress) {
        disconnect(m_progress, nullptr, this, nullptr);
        m_progress->close();
        m_progress->deleteLater();
        m_progress = nullptr;
    }
    updateImportActions();
    const QString label = m_importLabel;

    if (outcome.cancelled) {
        m_lastImportError = tr("Import cancelled; the database is unchanged.");
        statusBar()->showMessage(m_lastImportError, 8000);
        emit importFinished(false, label, m_lastImportError);
        return;
    }
    if (!outcome.ok) {
        m_lastImportError = outcome.error;
        statusBar()->showMessage(tr("Import of %1 failed").arg(label), 8000);
        QMessageBox box(QMessageBox::Critical, tr("Import failed"),
                        tr("The catalog in %1 was not imported as %2; the database is unchanged.\n\n%3")
                            .arg(QDir::toNativeSeparators(m_importDir), label, outcome.error),
                        QMessageBox::Ok, this);
        box.setObjectName(QStringLiteral("importErrorBox"));
        box.setTextFormat(Qt::PlainText);
        box.setTextInteractionFlags(Qt::TextSelectableByMouse);
        box.exec();
        emit importFinished(false, label, outcome.error);
        return;
    }

    showCatalog();
    QString message;
    switch (outcome.report.outcome) {
    case models::ImportReport::Outcome::Unchanged:
        message = tr("%1 is already in the database with the same content; nothing to import").arg(label);
        break;
    case models::ImportReport::Outcome::Replaced:
        message = tr("Replaced %1: %2 recipes from %3 files")
                      .arg(label)
                      .arg(outcome.report.recipes)
                      .arg(outcome.report.files);
        break;
    case models::ImportReport::Outcome::Imported:
        message = tr("Imported %1: %2 recipes from %3 files")
                      .arg(label)
                      .arg(outcome.report.recipes)
                      .arg(outcome.report.files);
        break;
    }
    // The new version, read back and selected in the tree; then the import is over.
    reloadCatalogsThen([this, label, message] {
        if (!selectVersion(label)) { // hidden by the filter
            m_filter->clear();
            selectVersion(label);
        }
        statusBar()->showMessage(message, 10000);
        emit importFinished(true, label, message);
    });
}

// --- Evidence import ----------------------------------------------------------------------------

void MainWindow::updateImportActions() {
    const bool idle = !isImporting() && !isImportingEvidence();
    m_importAction->setEnabled(idle);
    m_importEvidenceAction->setEnabled(idle);
}

void MainWindow::importEvidence() {
    if (isImporting() || isImportingEvidence())
        return;
    const QString chosen = chooseDirectory(
        this, tr("Import Evidence — choose an AICR recipes/evidence directory"), "importEvidenceDialog");
    if (!chosen.isEmpty())
        startEvidenceImport(QDir::cleanPath(chosen));
}

bool MainWindow::startEvidenceImport(const QString& dirIn, const QString& allowlist) {
    if (isImporting() || isImportingEvidence())
        return false;
    const QString dir = QFileInfo(dirIn).absoluteFilePath();
    m_evidenceDir = dir;
    m_lastEvidenceError.clear();
    m_importAction->setEnabled(false);
    m_importEvidenceAction->setEnabled(false);

    // Reading and writing pointers has no meaningful steps to count, and one transaction cannot
    // stop half-way: a busy indicator without a Cancel button says exactly that.
    m_evidenceProgress = new QProgressDialog(
        tr("Reading evidence pointers in %1…").arg(QDir::toNativeSeparators(dir)), QString(), 0, 0, this);
    m_evidenceProgress->setObjectName(QStringLiteral("evidenceImportProgress"));
    m_evidenceProgress->setWindowTitle(tr("Importing evidence"));
    m_evidenceProgress->setCancelButton(nullptr);
    m_evidenceProgress->setWindowModality(Qt::WindowModal);
    m_evidenceProgress->setMinimumDuration(250);
    m_evidenceProgress->setAutoClose(false);
    m_evidenceProgress->setAutoReset(false);
    m_evidenceProgress->setMinimumWidth(460);
    m_evidenceProgress->setValue(0);
    statusBar()->showMessage(tr("Importing evidence from %1…").arg(QDir::toNativeSeparators(dir)));

    // The same operation as `proofbench evidence import`: pointers and receipt in one transaction.
    ops::ImportEvidenceRequest request;
    request.dir = dir;
    request.allowlist = allowlist;
    m_evidenceTask = m_workspace.run<ops::ImportEvidenceOutcome>(
        this, [request](const ops::Context& ctx) { return ops::importEvidence(ctx, request); },
        [this](const Result<ops::ImportEvidenceOutcome>& r) {
            EvidenceOutcome out;
            out.ok = r.ok();
            if (r) {
                out.report = r->report;
                out.root = r->tree.root;
                out.pointers = static_cast<int>(r->tree.pointers.size());
            } else {
                out.error = r.error().toString();
            }
            onEvidenceImportFinished(out);
        });
    return true;
}

void MainWindow::onEvidenceImportFinished(const EvidenceOutcome& outcome) {
    if (m_evidenceProgress) {
        m_evidenceProgress->close();
        m_evidenceProgress->deleteLater();
        m_evidenceProgress = nullptr;
    }
    updateImportActions();
    if (!outcome.ok) {
        m_lastEvidenceError = outcome.error;
        statusBar()->showMessage(tr("Evidence import failed"), 8000);
        QMessageBox box(QMessageBox::Critical, tr("Evidence import failed"),
                        tr("The evidence in %1 was not imported; the database is unchanged.\n\n%2")
                            .arg(QDir::toNativeSeparators(m_evidenceDir), outcome.error),
                        QMessageBox::Ok, this);
        box.setObjectName(QStringLiteral("evidenceImportErrorBox"));
        box.setTextFormat(Qt::PlainText);
        box.setTextInteractionFlags(Qt::TextSelectableByMouse);
        box.exec();
        emit evidenceImportFinished(false, outcome.error);
        return;
    }
    const models::EvidenceImportReport& r = outcome.report;
    QString message = tr("Imported evidence from %1: %2 added, %3 updated, %4 unchanged")
                          .arg(QDir::toNativeSeparators(outcome.root))
                          .arg(r.added)
                          .arg(r.updated)
                          .arg(r.unchanged);
    if (r.invalid > 0)
        message += tr("; %1 invalid, kept with their reasons").arg(r.invalid);
    if (outcome.pointers == 0)
        message = tr("No evidence pointer in %1").arg(QDir::toNativeSeparators(outcome.root));
    statusBar()->showMessage(message, 10000);
    showHealth();
    m_healthPane->reload();
    emit evidenceImportFinished(true, message);
}

} // namespace pb::widgets
