// The main window: six views, switched by the tool bar (Ctrl+1 … Ctrl+6). Catalog:
// versions and their recipes on the left (filter as you type), the selected recipe on the right.
// Health: the evidence status of every recipe coordinate with its inspector. Verify: offline
// Sigstore verification of a bundle, step by step, and the stored history. Sign: signing keys, the
// three signatures (file, evidence bundle, deployment bundle) and deployment-bundle verification;
// the Sign menu reaches the same dialogs from any view. Validation: a recipe's validation phases on
// a cluster, live, with its charts and past runs. Receipts: the ledger of every action, its chain
// status and external records. File > Release review report… writes the review. File > Import Catalog…
// and File > Import Evidence… run on workers; File > Import from Git… opens the Git import dialog. A
// Sigstore bundle (or trusted root) dropped anywhere on the window opens in the Verify view.
// The sample catalog compiled into the app never looks like a release: its tree rows read "sample
// data", the details, window title and status bar say so, and while the database holds nothing else
// a welcome across the Catalog view offers the real sources. Every view shows an empty state
// (widgets/common/EmptyState) when it has nothing to show.
#pragma once

#include "TeamAccess.h"

#include "CatalogTreeModel.h"
#include "Workspace.h"
#include "catalog/Types.h"

#include <functional>

#include <QMainWindow>
#include <QPointer>

#include <atomic>
#include <map>
#include <memory>

class QAction;
class QLabel;
class QMenu;
class QLineEdit;
class QProgressDialog;
class QSplitter;
class QStackedWidget;
class QToolBar;
class QTabWidget;
class QTableView;
class QTreeView;

namespace pb::models {
class CatalogTreeModel;
class RecipeFilterProxyModel;
class VersionRecipesModel;
} // namespace pb::models

namespace pb::widgets {

class BundleCompareView;
class BundleView;
class ComparePane;
class EmptyState;
class GitImportDialog;
class OpenTeamDatabaseDialog;
class ReleaseVerifyDialog;
class GraphPane;
class HealthPane;
class ReceiptsPane;
class RecipeView;
class SignPane;
class ValidationPane;
class VerifyPane;
class WelcomePane;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    // Who the window's connection is and its team role (read at start on a worker); Local for a file.
    const models::TeamAccess& access() const { return m_access; }
    // How many times another client's commits were taken in (tests wait for it).
    int changesSeen() const { return m_changesSeen; }
    // `workspace`: the database every view reads and writes through (off the GUI thread); it
    // outlives the window.
    explicit MainWindow(models::Workspace& workspace, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Reads `dir` (an AICR recipes/ directory) and imports it as `label` on a worker thread,
    // with a progress dialog that can cancel. False when an import is already running.
    bool startImport(const QString& dir, const QString& label);
    bool isImporting() const { return m_importTask.running(); }
    QString lastImportError() const { return m_lastImportError; }

    // Reads an evidence directory (recipes/evidence, or a directory holding one) and imports its
    // pointers on a worker, with a busy indicator; `allowlist` overrides <dir>/allowlist.yaml.
    // False when an import (of either kind) is already running.
    bool startEvidenceImport(const QString& dir, const QString& allowlist = {});
    bool isImportingEvidence() const { return m_evidenceTask.running(); }
    QString lastEvidenceImportError() const { return m_lastEvidenceError; }

    // Selects (and shows) a version or one of its recipes in the tree; false when absent or
    // hidden by the filter.
    // Both need the catalog tree, which is read on a worker: wait for catalogsReloaded() first.
    bool selectVersion(const QString& label);
    bool selectRecipe(const QString& label, const QString& recipeName);

    RecipeView* recipeView() const { return m_recipeView; }
    GraphPane* graphPane() const { return m_graphPane; }
    ComparePane* comparePane() const { return m_comparePane; }
    // The selected recipe's tabs: Details (recipeView), Graph, Compare.
    QTabWidget* recipeTabs() const { return m_recipeTabs; }
    models::CatalogTreeModel* catalogModel() const { return m_treeModel; }
    HealthPane* healthPane() const { return m_healthPane; }
    bool isHealthShown() const;
    VerifyPane* verifyPane() const { return m_verifyPane; }
    bool isVerifyShown() const;
    SignPane* signPane() const { return m_signPane; }
    bool isSignShown() const;
    ValidationPane* validationPane() const { return m_validationPane; }
    bool isValidationShown() const;
    ReceiptsPane* receiptsPane() const { return m_receiptsPane; }
    bool isReceiptsShown() const;
    // The first-start welcome (shown while every version is sample data, unless dismissed).
    WelcomePane* welcomePane() const { return m_welcome; }
    bool isWelcomeShown() const;
    // The deployment bundle view and the bundle compare view (their own windows), once opened.
    // Defined in MainWindow.cpp: QPointer needs the complete types, which this header only declares.
    BundleView* bundleView() const;
    BundleCompareView* bundleCompareView() const;
    // The open Import from Git dialog, if any.
    GitImportDialog* gitImportDialog() const;
    // The open Open Team Database dialog, if any.
    OpenTeamDatabaseDialog* teamDatabaseDialog() const;
    // The banner over the views while the server's connection is lost (hidden otherwise), and the one
    // that says the database is a read-only replica.
    QWidget* connectionBanner() const { return m_connectionBanner; }
    QString connectionBannerText() const;
    QLabel* replicaBanner() const { return m_replicaBanner; }
    // How the connection was made, as the status bar says it ("TLS verified (TLSv1.3, …)"); empty for
    // a file or before the connection was read.
    QString transportText() const { return m_transport; }
    // The open Verify an AICR Release dialog, if any.
    ReleaseVerifyDialog* releaseVerifyDialog() const;
    // The empty state of a view: "catalog", "health", "verify", "sign", "validation", "receipts".
    EmptyState* emptyState(const QString& view) const;
    // Where the selected version came from, above the recipe tabs ("sample data …", "git … tag …").
    QLabel* recipeSourceLabel() const { return m_recipeSource; }
    // True while the catalog tree is being read.
    bool isReloadingCatalogs() const { return m_reloading > 0; }
    models::Workspace& workspace() const { return m_workspace; }
    // The loaded catalog of a version, when it is cached (nullptr otherwise).
    std::shared_ptr<const catalog::Catalog> cachedCatalog(const QString& label) const;

  public slots:
    // File > Import Catalog…: asks for a directory and a version label, then startImport().
    void importCatalog();
    // File > Import from Git…: the Git import dialog (not modal; one at a time).
    void importFromGit();
    // File > Verify an AICR Release… (and the welcome's button): the release dialog (not modal; one at a
    // time).
    void verifyRelease();
    void reloadCatalogs();
    // File > Import Evidence…: asks for a directory, then startEvidenceImport().
    void importEvidence();
    // The two views.
    void showCatalog();
    void showHealth();
    void showVerify();
    void showSign();
    void showValidation();
    void showReceipts();
    // File > Release review report…: the report dialog (modal).
    void openReportDialog();
    // The bundle view on `dir`, read off the GUI thread (e.g. a bundle just generated).
    void openDeploymentBundle(const QString& dir);
    // File > Open Deployment Bundle…: asks for a folder, then openDeploymentBundle().
    void openDeploymentBundleDialog();
    // File > Compare Deployment Bundles…: the bundle compare view.
    void compareBundles();
    // File > Open Team Database…: the connection dialog (window-modal; Open asks for a window on it).
    void openTeamDatabase();
    // File > Open Database File…: a SQLite file, in a window of its own.
    void openDatabaseFile();

  signals:
    // Open Team Database…, Open Database File… or Open Recent chose a database: the application
    // (WindowManager) opens a window on it.
    void openDatabaseRequested(const QString& spec);
    // After an import ends (and after its error box was closed).
    void importFinished(bool ok, const QString& label, const QString& message);
    // After an evidence import ends (and after its error box was closed).
    void evidenceImportFinished(bool ok, const QString& message);
    // The catalog tree was read again (after reloadCatalogs(), an import, the start).
    void catalogsReloaded();
    // A recipe is on screen, resolved.
    void recipeShown(const QString& label, const QString& recipeName);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    // Drops of local Sigstore bundles (.sigstore.json, .json, .jsonl) and trusted roots.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    // Shows the user and role in the status bar and disables what the role may not do, the reason
    // in the tooltip (the server would refuse it anyway).
    void applyAccess(const models::TeamAccess& access);
    // Another client committed these: re-read the views they touch, keeping selections.
    void showChangesElsewhere(const QList<models::ExternalChange>& changes);
    // The server's connection was lost or came back: the banner, and a fresh read when it is back.
    void showConnection(bool up, const QString& why, int attempt, int retryInMs);
    // "<head> — <database> — Proofbench".
    QString titleWith(const QString& head) const;
    void fillRecentMenu();
    struct CatalogLoad;
    struct ImportOutcome;
    struct EvidenceOutcome;

    void buildUi();
    QWidget* buildCatalogTree();
    void buildCatalogPages();
    void buildViews();
    void buildMenus();
    void buildViewMenu();
    void buildEmptyStates();
    void updateWelcome();
    void showSelectionSource(const models::CatalogVersionInfo* version,
                             const models::RecipeInfo* recipe = nullptr);
    void onCurrentChanged(const QModelIndex& proxyIndex);
    void showRecipe(const models::RecipeInfo& info);
    void showVersion(const models::CatalogVersionInfo& version);
    void showResolved(const models::RecipeInfo& info, const std::shared_ptr<const catalog::Catalog>& cat,
                      const Result<catalog::RecipeResult>& result);
    bool isCurrentRecipe(const models::RecipeInfo& info) const;
    void generateBundle();
    void reloadCatalogsThen(std::function<void()> then);
    void afterCatalogsRead(const QString& label, const QString& recipe, const Status& status);
    void requestCatalog(const QString& label);
    void onCatalogLoaded(const QString& label, const CatalogLoad& load);
    void onImportProgress(int percent, const QString& text);
    void onImportFinished(const ImportOutcome& outcome);
    void onEvidenceImportFinished(const EvidenceOutcome& outcome);
    void updateImportActions();
    void applyFilter(const QString& text);
    void focusFirstMatch();
    void fitTreeColumn();
    void updateStatus();
    void cancelAndWait();

    models::Workspace& m_workspace; // every read and write runs on its workers
    int m_reloading = 0;

    models::CatalogTreeModel* m_treeModel = nullptr;
    models::RecipeFilterProxyModel* m_proxy = nullptr;

    QStackedWidget* m_views = nullptr;
    QToolBar* m_viewBar = nullptr;
    QAction* m_showCatalogAction = nullptr;
    QAction* m_showHealthAction = nullptr;
    QAction* m_showVerifyAction = nullptr;
    QAction* m_showSignAction = nullptr;
    QAction* m_showValidationAction = nullptr;
    QAction* m_showReceiptsAction = nullptr;
    QAction* m_reportAction = nullptr;
    ReceiptsPane* m_receiptsPane = nullptr;
    HealthPane* m_healthPane = nullptr;
    VerifyPane* m_verifyPane = nullptr;
    SignPane* m_signPane = nullptr;
    ValidationPane* m_validationPane = nullptr;
    QSplitter* m_splitter = nullptr;
    QWidget* m_catalogPage = nullptr; // the welcome over the splitter
    WelcomePane* m_welcome = nullptr;
    bool m_welcomeDismissed = false; // for this session
    QWidget* m_recipePage = nullptr; // the source line over the recipe tabs
    QLabel* m_recipeSource = nullptr;
    QLabel* m_statusSample = nullptr;
    std::map<QString, EmptyState*> m_emptyStates;
    QPointer<BundleView> m_bundleView; // a window of its own, made on first use
    QPointer<BundleCompareView> m_bundleCompare;
    QPointer<ReleaseVerifyDialog> m_releaseDialog;
    QPointer<GitImportDialog>
        m_gitDialog; // cleared by Qt when the dialog closes (WA_DeleteOnClose) or the window goes
    QLineEdit* m_filter = nullptr;
    QTreeView* m_tree = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_placeholder = nullptr;
    std::pair<QString, QString> m_hiddenByFilter; // (version, recipe) the filter hid while on show
    QWidget* m_versionPage = nullptr;
    QLabel* m_versionSummary = nullptr;
    QTableView* m_versionRecipes = nullptr;
    models::VersionRecipesModel* m_versionRecipesModel = nullptr;
    QTabWidget* m_recipeTabs = nullptr;
    RecipeView* m_recipeView = nullptr;
    GraphPane* m_graphPane = nullptr;
    ComparePane* m_comparePane = nullptr;
    QLabel* m_statusDb = nullptr;
    QWidget* m_connectionBanner = nullptr;
    QLabel* m_connectionText = nullptr;
    QLabel* m_replicaBanner = nullptr;
    QMenu* m_recentMenu = nullptr;
    QPointer<OpenTeamDatabaseDialog> m_teamDialog;
    QString m_transport;
    QString m_statusDbText; // a server's status line, once its connection was read
    bool m_connectionDown = false;
    QLabel* m_statusRole = nullptr;
    QLabel* m_statusCounts = nullptr;
    models::TeamAccess m_access;
    int m_changesSeen = 0;
    QAction* m_importAction = nullptr;
    QAction* m_importEvidenceAction = nullptr;
    QAction* m_importGitAction = nullptr;

    // Loaded catalogs per version label (loading takes ~100 ms; resolving is fast).
    std::map<QString, std::shared_ptr<const catalog::Catalog>> m_catalogs;
    std::map<QString, QString> m_catalogErrors;
    std::map<QString, models::Task> m_loads;

    models::Task m_importTask; // the catalog import, while it runs
    QProgressDialog* m_progress = nullptr;
    QString m_importLabel, m_importDir;
    QString m_lastImportError;

    models::Task m_evidenceTask; // the evidence import, while it runs
    QProgressDialog* m_evidenceProgress = nullptr;
    QString m_evidenceDir;
    QString m_lastEvidenceError;
};

} // namespace pb::widgets
