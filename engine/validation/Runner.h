// Runs a recipe's validation phases on a cluster the way `aicr validate` does, so AICR's own
// validator images work unchanged: a namespace (created if missing), a per-run ServiceAccount and
// ClusterRoleBinding, ConfigMaps with the snapshot and the ValidationInput, then one Job per declared
// check (deployment -> conformance -> performance) with the validator catalog's image, args, env and
// timeout. Each check's exit code (0 pass, 1 fail, 2 skip), termination message and log are
// collected; RESULT: lines and the ##AICR-EXTRA## line are read, and performance logs are parsed and
// scored with AICR's rules. The Jobs and RBAC are deleted at the end, also on cancel or error, and the
// run keeps what it measured and why it stopped.
#pragma once

#include "catalog/Resolver.h"
#include "core/Result.h"
#include "validation/Inference.h"
#include "validation/Nccl.h"
#include "validation/Score.h"
#include "validation/Snapshot.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace pb::kube {
class Client;
}

namespace pb::validation {

enum class CheckState { Pending, Running, Passed, Failed, Skipped, Other };
QString checkStateName(CheckState s); // "pending", "running", "passed", "failed", "skipped", "other"

struct CheckRun {
    QString phase, name;
    QString image, job, pod;
    CheckState state = CheckState::Pending;
    QDateTime started, finished;
    qint64 durationMs = 0;
    int exitCode = -1;
    QString message;           // termination message or the reason it failed/skipped
    QByteArray log;            // the container log (the ##AICR-EXTRA## line removed)
    QStringList resultLines;   // "RESULT: ..." lines
    QJsonObject extra;         // the ##AICR-EXTRA## JSON
    std::optional<CheckScore> score;
    std::optional<NcclResult> nccl;
    std::optional<InferenceResult> inference;
};

enum class RunState { Running, Passed, Failed, Cancelled, Error, ReadinessFailed };
QString runStateName(RunState s); // "running", "passed", "failed", "cancelled", "error", "readiness-failed"

struct RunRequest {
    catalog::RecipeResult recipe;
    catalog::ValidatorCatalog validators;
    QStringList phases;                       // subset of deployment, conformance, performance; empty = all
    QString namespace_ = QStringLiteral("aicr-validation");
    QString imageRegistry;                    // AICR_VALIDATOR_IMAGE_REGISTRY: replaces the image's registry
    QString toolVersion = QStringLiteral("dev");
    bool cleanup = true;
    int pendingTimeoutSec = 600;              // a pod that never starts
    int graceSec = 30;                        // beyond a check's timeout before we give up on it
    QString runId;                            // empty: random 8 hex
};

struct RunResult {
    QString runId;
    RunState state = RunState::Running;
    QString reason;                           // why it stopped, for anything but Passed
    QDateTime started, finished;
    std::optional<ClusterSnapshot> snapshot;
    std::vector<ConstraintCheck> readiness;
    std::vector<CheckRun> checks;             // in run order
    QStringList phasesRun;
    int exitCode() const;                     // aicr's: 0 ok, 2 invalid/readiness, 8 a phase failed, 130 cancelled
    const CheckRun* check(const QString& name) const;
};

struct RunObserver {
    std::function<void(const QString& message)> message;                  // progress lines
    std::function<void(const CheckRun& check)> checkChanged;               // state, timing, result
    std::function<void(const QString& check, const QByteArray& chunk)> log; // live log of the running check
};

class Runner {
  public:
    Runner(kube::Client& client, RunRequest request, RunObserver observer = {});
    // Validates the request against the validator catalog (fail-closed: an unknown check, a check
    // in the wrong phase, or a duplicate is an error before anything touches the cluster).
    Status prepare();
    // Blocks until the run ends; call from a worker thread. The result is also kept partial on error.
    RunResult run();
    // From any thread: stops the run; the Jobs and RBAC are still deleted.
    void cancel();
    // The checks the request will run, in order (after prepare()).
    const std::vector<CheckRun>& plan() const { return m_plan; }
    QString runId() const { return m_req.runId; }

  private:
    void runCheck(CheckRun& check);
    QString cleanup(); // returns what could not be deleted, empty when all went

    void notify(const CheckRun& c);
    void say(const QString& message);

    kube::Client& m_client;
    RunRequest m_req;
    RunObserver m_obs;
    std::vector<CheckRun> m_plan;
    std::atomic_bool m_cancel{false};
    std::atomic_bool m_cleaning{false};
    QStringList m_createdJobs;
};

// Scores a finished check's log: NCCL checks by their table, inference-perf by its AIPerf block.
void scoreCheck(CheckRun& check, const catalog::RecipeResult& recipe, double gpuScale = 1.0);
// A check's log is kept whole up to `limit` bytes; past it, the first limit/16 bytes and the newest
// lines are kept (the NCCL table and AIPerf block are at the end) with a marker where the middle
// was. A validator printing without end cannot exhaust memory.
constexpr qsizetype kMaxCheckLogBytes = 64ll * 1024 * 1024;
void appendBounded(QByteArray& log, QByteArrayView chunk, qsizetype limit = kMaxCheckLogBytes);
// Splits RESULT: and ##AICR-EXTRA## lines out of a raw log (log keeps everything but the EXTRA line).
void readContainerLog(CheckRun& check, const QByteArray& raw);

} // namespace pb::validation
