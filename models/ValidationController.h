// Drives one validation run for the GUI through the operation `proofbench validate` calls
// (ops::validate), on an ops::Async worker with that worker's database connection: the kubeconfig
// is read, the client created (exec plugins may run), the recipe resolved, the run row begun, the
// checks run and stored, the evidence written (and signed when a key was given), and the run
// finished with its receipt. The plan, every check change and log chunk come back queued on the
// GUI thread as signals.
#pragma once

#include "Workspace.h"
#include "catalog/Resolver.h"
#include "ops/Async.h"
#include "ops/Validate.h"
#include "sigstore/Crypto.h"
#include "validation/Runner.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace pb::models {

struct ValidationStart {
    QString kubeconfig, context; // one file; empty context = its current-context
    // The recipe: a catalog version and leaf overlay from the database, or a RecipeResult file
    // (validators then come from the newest catalog version in the database).
    QString catalogLabel, leafOverlay;
    QString recipeFile;
    QStringList phases; // empty = all
    QString namespace_ = QStringLiteral("aicr-validation");
    QString outDir;                              // evidence goes to <outDir>/summary-bundle
    std::shared_ptr<sigstore::crypto::Pkey> key; // signs the evidence when set
    bool signIncomplete = false;                 // sign even a run a cluster fault left incomplete
    QString toolVersion = QStringLiteral("dev");
    int pendingLimitSec = 0, retryLimitSec = 0, pollMs = 0; // 0: the runner's defaults
};

class ValidationController : public QObject {
    Q_OBJECT
  public:
    enum class Stage { Idle, Preparing, Running, Cancelling };
    // Runs and cleanups go one at a time to a worker of the controller's own over `workspace`'s
    // database (not the workspace's pool: the controller cancels and waits for its run when it is
    // destroyed, and the window waits for the workspace before its views are destroyed).
    ValidationController(Workspace& workspace, QObject* parent = nullptr);
    ~ValidationController() override; // cancels and waits for the worker

    // False (with `error` set) when a run is already going.
    bool start(const ValidationStart& start, QString* error = nullptr);
    void cancel();
    Stage stage() const { return m_stage; }
    bool busy() const { return m_stage != Stage::Idle; }
    qint64 runRowId() const { return m_rowId; }
    const validation::RunResult& lastResult() const { return m_result; }
    QString evidenceDir() const { return m_evidenceDir; }
    // Blocks until the worker ends (closing the window).
    void waitForWorker();
    // Deletes what run `rowId` left on the cluster (ops::cleanupRun, the same as `proofbench runs
    // cleanup`) on the worker; `cleanupFinished` reports. False (with `error`) while busy.
    bool cleanupLeftovers(qint64 rowId, const QString& kubeconfig, const QString& context,
                          QString* error = nullptr, int retryLimitSec = 60);
    bool cleaning() const { return m_cleaning; }

  signals:
    void stageChanged(pb::models::ValidationController::Stage stage);
    void message(const QString& text);
    // The plan, right after the run row was begun (row id in the database).
    void planned(qint64 rowId, const QString& runId, const std::vector<pb::validation::CheckRun>& plan,
                 const pb::catalog::RecipeResult& recipe);
    void checkChanged(const pb::validation::CheckRun& check);
    void logChunk(const QString& check, const QByteArray& chunk);
    // The run ended (or never started: rowId 0 and the reason in `error`).
    void finished(qint64 rowId, const pb::validation::RunResult& result, const QString& error);
    // A cleanup ended: what went, how many are still there, or why it could not run.
    void cleanupFinished(qint64 rowId, const QStringList& removed, int still, const QString& error);

  private:
    void setStage(Stage s);
    void onPlanned(qint64 rowId, const QString& runId, const std::vector<validation::CheckRun>& plan,
                   const catalog::RecipeResult& recipe);
    void onRunEnded();

    std::unique_ptr<ops::Async> m_async; // one worker, its own connection to the database
    Stage m_stage = Stage::Idle;
    std::optional<ops::Job<ops::ValidateOutcome>> m_job;
    qint64 m_rowId = 0;
    bool m_cleaning = false;
    validation::RunResult m_result;
    QString m_evidenceDir;
};

} // namespace pb::models
