// Drives one validation run for the GUI the way `proofbench validate` does: on a worker, the
// kubeconfig is read, the client created (exec plugins may run) and the recipe resolved; back on the
// GUI thread the run row is begun; on a worker again the runner runs, then the evidence is written
// (and signed when a key was given). Every check change and log chunk comes back queued on the GUI
// thread, where the checks are saved (a QSqlDatabase connection belongs to the thread that opened it).
#pragma once

#include "catalog/Resolver.h"
#include "sigstore/Crypto.h"
#include "store/RunStore.h"
#include "validation/Runner.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace pb::models {

struct ValidationStart {
    QString kubeconfig, context;          // one file; empty context = its current-context
    // The recipe: a catalog version and leaf overlay from the database, or a RecipeResult file
    // (validators then come from the newest catalog version in the database).
    QString catalogLabel, leafOverlay;
    QString recipeFile;
    QStringList phases;                   // empty = all
    QString namespace_ = QStringLiteral("aicr-validation");
    QString outDir;                       // evidence goes to <outDir>/summary-bundle
    std::shared_ptr<sigstore::crypto::Pkey> key; // signs the evidence when set
    QString toolVersion = QStringLiteral("dev");
};

class ValidationController : public QObject {
    Q_OBJECT
  public:
    enum class Stage { Idle, Preparing, Running, Cancelling };
    ValidationController(db::Database& db, QObject* parent = nullptr);
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

  private:
    struct Job;
    void setStage(Stage s);
    void onPrepared();
    void onRunEnded();
    void saveChange(const validation::CheckRun& check);

    db::Database& m_db;
    Stage m_stage = Stage::Idle;
    std::shared_ptr<Job> m_job;
    qint64 m_rowId = 0;
    validation::RunResult m_result;
    QString m_evidenceDir;
};

} // namespace pb::models
