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
#include "kube/Client.h"
#include "validation/Inference.h"
#include "validation/Nccl.h"
#include "validation/Score.h"
#include "validation/Snapshot.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

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
    QString message; // termination message or the reason it failed/skipped
    // For `other` (could not run or finish for a cause outside the check): the cause class
    // ("api-unreachable", "unauthorized", "forbidden", "admission-rejected", "api-error",
    // "image-pull", "unschedulable", "pod-deleted", "evicted", "pending-deadline", "cancelled",
    // "not-run") and the Kubernetes reason (Status.reason, a waiting or condition reason); the
    // Kubernetes message is in `message`.
    QString cause, k8sReason;
    QByteArray log;          // the container log (the ##AICR-EXTRA## line removed)
    QStringList resultLines; // "RESULT: ..." lines
    QJsonObject extra;       // the ##AICR-EXTRA## JSON
    std::optional<CheckScore> score;
    std::optional<NcclResult> nccl;
    std::optional<InferenceResult> inference;
};

// Incomplete: at least one check is `other` (a cluster fault kept it from running or finishing):
// not evidence of failure, and not of success either.
// A run's id: 8 random hex digits (the one id every verb, view and report uses; also the label of the
// objects a run creates on a cluster).
QString newRunId();

// Skipped: every check was skipped (none applied to the recipe): nothing was judged, so not "passed".
enum class RunState { Running, Passed, Failed, Cancelled, Error, ReadinessFailed, Incomplete, Skipped };
QString runStateName(RunState s); // "running", "passed", "failed", "cancelled", "error", "readiness-failed",
                                  // "incomplete", "skipped"
// Passed, unless every check was skipped (Skipped). For a run that failed nothing.
RunState passedOrSkipped(const std::vector<CheckRun>& checks);

// The process exit code of an incomplete run ("incomplete (cluster fault)"): next to aicr
// validate's 0 passed, 2 invalid/readiness, 5 timeout, 8 failed, and evidence verify's 3 incomplete.
constexpr int kExitIncomplete = 3;

// A Kubernetes API answer that did not come from the check: its cause class ("api-unreachable",
// "unauthorized", "forbidden", "admission-rejected", "api-error"), empty for an answer that is not a
// fault (2xx, 404, 409).
QString apiFaultClass(int http, const QString& reason, const QString& message);
// Whether the answer is worth retrying (no answer, 429, 5xx, 410 on a write).
bool transientFault(int http);

struct RunRequest {
    catalog::RecipeResult recipe;
    catalog::ValidatorCatalog validators;
    QStringList phases; // subset of deployment, conformance, performance; empty = all
    QString namespace_ = QStringLiteral("aicr-validation");
    QString imageRegistry; // AICR_VALIDATOR_IMAGE_REGISTRY: replaces the image's registry
    QString toolVersion = QStringLiteral("dev");
    bool cleanup = true;
    int pendingTimeoutSec = 600; // a pod that never starts
    int graceSec = 30;           // beyond a check's timeout before we give up on it
    int unschedulableSec = 120;  // a pod the scheduler cannot place (PodScheduled=False, Unschedulable)
    int imagePullSec = 60;       // a pod looping in ErrImagePull / ImagePullBackOff
    int transientSec = 60;       // retrying an unreachable API (backoff) before a check is `other`
    int cleanupSec = 120;        // retrying the deletes before what is left is recorded
    int namespaceWaitSec = 120;  // waiting for a Terminating namespace to go before recreating it
    int pollMs = 1000;           // how often a pod that has not started is looked at
    QString runId;               // empty: random 8 hex
};

struct RunResult {
    QString runId;
    RunState state = RunState::Running;
    QString reason; // why it stopped, for anything but Passed
    QDateTime started, finished;
    std::optional<ClusterSnapshot> snapshot;
    std::vector<ConstraintCheck> readiness;
    std::vector<CheckRun> checks; // in run order
    QStringList phasesRun;
    // What cleanup could not delete (API paths, "/apis/batch/v1/namespaces/x/jobs/y"), each with why.
    struct Leftover {
        QString path, error;
    };
    std::vector<Leftover> leftovers;
    // Every object the run created, in the order it was created (API paths).
    QStringList created;
    bool incomplete() const; // any check `other`
    // aicr's: 0 ok, 2 invalid/readiness, 8 a check failed, 130 cancelled; 3 incomplete (cluster fault)
    int exitCode() const;
    const CheckRun* check(const QString& name) const;
};

struct RunObserver {
    std::function<void(const QString& message)> message;                    // progress lines
    std::function<void(const CheckRun& check)> checkChanged;                // state, timing, result
    std::function<void(const QString& check, const QByteArray& chunk)> log; // live log of the running check
    // An object the run created (its API path), as soon as the API server accepted it; on the run's
    // thread. A caller records it, so what a run leaves is known even if the run never ends.
    std::function<void(const QString& path)> created;
};

// The ClusterRole a run's validator ServiceAccount gets for `phases`. AICR binds cluster-admin to
// every run; Proofbench binds it only to a run with the performance phase (its NCCL check installs the
// Kubeflow Trainer when it is missing: CRDs, ClusterRoles, webhooks, from a kustomization), and
// otherwise a per-run ClusterRole: read everything (the validators inspect CRDs, metrics APIs,
// ResourceSlices and operators' resources not known in advance) and write only what the deployment
// and conformance validators create (namespaces, pods, deployments, HPAs, resource claims, KAI
// PodGroups, TrainJobs, Dynamo graph deployments). Empty: cluster-admin.
QJsonArray validatorRules(const QStringList& phases);

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
    class CheckSession; // one check's Job, pod, log and verdict (Runner.cpp)
    void runCheck(CheckRun& check);
    // Deletes what the run created, retrying (backoff) until all went or cleanupSec passed; fills
    // `left` with what is still there; returns a sentence about it, empty when all went.
    QString cleanup(std::vector<RunResult::Leftover>& left);
    // `call` retried while the answer is transient (no answer, 429, 5xx), with backoff, until it
    // is not or transientSec passed (or cancel).
    kube::ApiResponse retrying(const std::function<kube::ApiResponse()>& call, const QString& what);
    bool sleepUnlessCancelled(int ms);

    void notify(const CheckRun& c);
    void say(const QString& message);

    kube::Client& m_client;
    RunRequest m_req;
    RunObserver m_obs;
    std::vector<CheckRun> m_plan;
    std::atomic_bool m_cancel{false};
    std::atomic_bool m_cleaning{false};
    QStringList m_created;       // API paths, in creation order
    bool m_clusterAdmin = false; // the run's ServiceAccount is bound to cluster-admin
    void recordCreated(const QString& path);
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

// Deletes objects a run left on the cluster (`runs cleanup`): each path is deleted (background
// propagation), retried with backoff until it goes or `limitSec` passes; returns what is still
// there (404 counts as gone).
std::vector<RunResult::Leftover> deleteLeftovers(kube::Client& client, const QStringList& paths, int limitSec,
                                                 const std::function<bool()>& cancelled = {});

} // namespace pb::validation
