// The Validation view (Ctrl+5): pick a kubeconfig context (every context of every file, grouped by
// file), a recipe (catalog version + recipe, or a RecipeResult file), the phases, namespace, an
// optional signing key and the output folder; Start runs it off the GUI thread (see
// models::ValidationController) and Cancel deletes its Jobs. The checks table updates live, the log
// follows the selected check with search, and the charts show NCCL busbw, inference figures and the
// recipe's history. Past runs reopen from the database.
#pragma once

#include "RunModels.h"
#include "ValidationController.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QFrame;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QTabWidget;
class QTableView;
class QTimer;
class QTreeView;

namespace pb::widgets {

class HistoryChart;
class InferenceChart;
class NcclChart;

class ValidationPane : public QWidget {
    Q_OBJECT
  public:
    // The stored runs, recipes and histories are read on `workspace`'s workers.
    explicit ValidationPane(models::Workspace& workspace, QWidget* parent = nullptr);
    ~ValidationPane() override;

    // Adds (or re-reads) a kubeconfig file in the picker.
    void addKubeconfig(const QString& file);
    bool selectContext(const QString& file, const QString& context);
    // Picks a stored recipe by catalog version label and recipe name (or leaf overlay).
    bool selectRecipe(const QString& catalogLabel, const QString& recipe);
    void setPhases(const QStringList& phases);
    void setOutputDir(const QString& dir);
    // Reloads catalog versions and the runs list (after imports elsewhere), on the worker;
    // runsLoaded() tells when the list is filled.
    void reload();
    // Opens a stored run: checks, logs and charts come from the database, read on the worker;
    // runShown() tells when they are on screen. True when the read started.
    bool openRun(qint64 id);

    bool isRunning() const;
    QString bannerText() const;
    models::CheckTableModel* checksModel() const { return m_checks; }
    models::RunListModel* runsModel() const { return m_runs; }
    models::KubeContextsModel* contextsModel() const { return m_contexts; }
    models::ValidationController* controller() const { return m_controller; }
    NcclChart* ncclChart() const { return m_nccl; }
    InferenceChart* inferenceChart() const { return m_inference; }
    HistoryChart* historyChart() const { return m_history; }
    // What the opened run left on the cluster, and the button that deletes it (runs cleanup).
    QLabel* leftoversLabel() const { return m_leftovers; }
    QPushButton* deleteLeftoversButton() const { return m_deleteLeftovers; }
    // Deletes the opened run's leftovers (the button's action).
    void deleteLeftovers();
    QPlainTextEdit* logView() const { return m_log; }
    QTabWidget* chartTabs() const { return m_tabs; }
    // The check whose log is on view.
    QString logCheck() const { return m_logCheck; }
    void showLogOf(const QString& check);

  public slots:
    void start();
    void cancel();

  signals:
    void statusMessage(const QString& text, int timeoutMs);
    void runFinished(qint64 id, const QString& state);
    void runsLoaded();
    void runShown(qint64 id);

  private:
    void buildUi();
    QWidget* buildForm();
    QGroupBox* buildClusterBox(QWidget* form);
    QGroupBox* buildRecipeBox(QWidget* form);
    QGroupBox* buildRunBox(QWidget* form);
    QHBoxLayout* buildButtons(QWidget* form);
    QGroupBox* buildRunsBox(QWidget* form);
    QWidget* buildResults();
    QWidget* buildLogPage();
    void buildCharts();
    struct RunsRead;
    void loadVersions();
    void showVersions(const Result<std::vector<models::CatalogVersionInfo>>& versions);
    void loadRecipes();
    // `select`: the run to select once the list is read (0: keep the selection).
    void reloadRuns(qint64 select = 0);
    void openRuns(qint64 id, const std::vector<qint64>& others);
    void showRun(const RunsRead& read);
    void loadHistory(const QString& coordinate);
    void showHistory(const Result<std::vector<models::HistoryPoint>>& history);
    void updateButtons();
    void showBanner(const QString& headline, const QString& detail, const QColor& tint, const QColor& ink);
    void hideBanner();
    void onPlanned(qint64 rowId, const QString& runId, const std::vector<validation::CheckRun>& plan,
                   const catalog::RecipeResult& recipe);
    void onCheckChanged(const validation::CheckRun& check);
    void onLogChunk(const QString& check, const QByteArray& chunk);
    void onFinished(qint64 rowId, const validation::RunResult& result, const QString& error);
    void onCleanupFinished(qint64 rowId, const QStringList& removed, int still, const QString& error);
    void showLeftovers(const models::StoredRun& run);
    void onCheckSelected();
    void onRunsSelected();
    // The NCCL and inference charts (the history chart: loadHistory(), showHistory()).
    void showCharts(const std::vector<validation::CheckRun>& checks,
                    const std::vector<std::pair<QString, validation::NcclResult>>& overlays = {});
    void findInLog(bool backwards);
    void highlightMatches();
    void setLogText(const QByteArray& text);

    models::Workspace& m_workspace;
    // Only the newest read of each kind is shown.
    bool m_versionChosen = false; // the user picked a catalog version (else: the newest real one)
    quint64 m_versionsGeneration = 0, m_recipesGeneration = 0, m_runsGeneration = 0, m_openGeneration = 0,
            m_historyGeneration = 0;
    models::ValidationController* m_controller = nullptr;
    models::KubeContextsModel* m_contexts = nullptr;
    models::CheckTableModel* m_checks = nullptr;
    models::RunListModel* m_runs = nullptr;

    QTreeView* m_contextView = nullptr;
    QRadioButton* m_fromCatalog = nullptr;
    QRadioButton* m_fromFile = nullptr;
    QComboBox* m_versionCombo = nullptr;
    QComboBox* m_recipeCombo = nullptr;
    QLineEdit* m_recipeFile = nullptr;
    QCheckBox* m_phaseDeployment = nullptr;
    QCheckBox* m_phaseConformance = nullptr;
    QCheckBox* m_phasePerformance = nullptr;
    QLineEdit* m_namespace = nullptr;
    QLineEdit* m_keyFile = nullptr;
    QCheckBox* m_signIncomplete = nullptr;
    QLineEdit* m_outDir = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_cancel = nullptr;
    QFrame* m_banner = nullptr;
    QLabel* m_bannerIcon = nullptr;
    QLabel* m_bannerHeadline = nullptr;
    QLabel* m_bannerDetail = nullptr;
    QLabel* m_runTitle = nullptr;
    QLabel* m_leftovers = nullptr;
    QPushButton* m_deleteLeftovers = nullptr;
    QWidget* m_leftoversRow = nullptr;
    qint64 m_openRun = 0;
    QString m_openRunUid; // the open run's one id, as every view shows it
    // A run's id for messages: the open run's uid, else what the runs list shows for that row.
    QString runUidOf(qint64 rowId) const;
    QString m_openContext;
    QTableView* m_checkView = nullptr;
    QTableView* m_runView = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QLineEdit* m_search = nullptr;
    QLabel* m_searchCount = nullptr;
    QTabWidget* m_tabs = nullptr;
    NcclChart* m_nccl = nullptr;
    InferenceChart* m_inference = nullptr;
    HistoryChart* m_history = nullptr;
    QTimer* m_ticker = nullptr;

    QHash<QString, QByteArray> m_logs; // check -> log (live, then the stored one)
    QString m_logCheck;
    bool m_follow = true; // the log follows the running check until the user picks one
    bool m_selecting = false;
    QString m_runLabel, m_coordinate;
    catalog::RecipeResult m_recipe;
    std::vector<validation::CheckRun> m_liveChecks;
};

} // namespace pb::widgets
