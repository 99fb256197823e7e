// `validate`: a recipe's validation phases run on a cluster, for the CLI (`proofbench validate`)
// and the Validation view alike. The operation reads the kubeconfig and context, settles the recipe
// and its validator catalog, plans the checks, begins the run row, runs the checks (each one stored
// as it changes), writes the evidence summary bundle (signed when the caller loaded a key), and
// finishes the run row with its validation.run receipt in one transaction. Cancel through the
// Context's flag: the run stops and its Jobs and RBAC are deleted.
#pragma once

#include "catalog/Resolver.h"
#include "ops/Operation.h"
#include "sigstore/Crypto.h"
#include "validation/Runner.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace pb::ops {

// `validate`'s exit code when the checks ran but their evidence (or its signature) could not be
// written: the verdict is printed, but nothing proves it.
constexpr int kExitEvidenceNotWritten = 4;

// The recipe to validate, in one of three forms:
//  - `resolved` (the CLI's criteria flags, resolved by the caller) with its `validators`;
//  - `file`, a RecipeResult file;
//  - `leafOverlay` of the catalog version `catalogLabel` in the database.
// Validators not given come from `catalogLabel` in the database, or from its newest catalog version.
struct ValidateRecipe {
    std::optional<catalog::RecipeResult> resolved;
    std::optional<catalog::ValidatorCatalog> validators;
    QString file;
    QString leafOverlay;
    QString catalogLabel; // also recorded with the run
};

// Live events. `planned`, `checkChanged` and `message` come on the thread that called validate();
// `log` and `cancelling` may come from a helper thread.
struct ValidateEvents {
    std::function<void(const QString& message)> message;
    // The run row was begun: its id, the runner's run id, the planned checks and the recipe.
    std::function<void(qint64 runRow, const QString& runUid, const std::vector<validation::CheckRun>& plan,
                       const catalog::RecipeResult& recipe)>
        planned;
    // A check changed (after it was stored).
    std::function<void(const validation::CheckRun& check)> checkChanged;
    std::function<void(const QString& check, const QByteArray& chunk)> log;
    // The cancel flag was seen: the run is stopping and deleting its Jobs and RBAC.
    std::function<void()> cancelling;
};

struct ValidateRequest {
    QStringList kubeconfigs; // empty: $KUBECONFIG, else ~/.kube/config
    QString context;         // empty: the kubeconfig's current-context
    ValidateRecipe recipe;
    QStringList phases; // deployment, conformance, performance; empty = all
    QString namespace_ = QStringLiteral("aicr-validation");
    QString imageRegistry;
    bool cleanup = true;
    QString outDir; // the evidence goes to <outDir>/summary-bundle; empty: no evidence
    // Signs the evidence when set (loaded, and its passphrase asked, by the caller before the run).
    std::shared_ptr<sigstore::crypto::Pkey> key;
    // A run with a check that could not run or finish (`other`) is not signed unless this is set;
    // then its statement and pointer say "incomplete (cluster fault)".
    bool signIncomplete = false;
    // Limits (seconds): a pod that does not start (Pending, Unschedulable, image pull loop), and
    // retrying an API that does not answer / deleting what the run created. <= 0: the runner's default.
    int pendingLimitSec = 0;
    int retryLimitSec = 0;
    int pollMs = 0; // how often a pod that has not started is looked at (tests scale it down)
    QString toolVersion = QStringLiteral("dev");
    ValidateEvents events;
};

struct ValidateOutcome {
    qint64 runRow = 0;
    validation::RunResult result;
    catalog::RecipeResult recipe;
    QString catalogLabel;
    QString context, server;
    // The evidence bundle, when one was written (a passed or failed run with an outDir).
    QString evidenceDir, recipeDigest, manifestDigest;
    QString attestationPath, pointerPath, signer; // when signed
    // The run is kept and on record, but its evidence could not be written or signed (an
    // incomplete run without signIncomplete: signingRefused).
    QString evidenceError, signingError;
    bool signingRefused = false;
    bool incomplete() const { return result.state == validation::RunState::Incomplete; }
    // The run asked for evidence (an outDir, a key) and did not get it: the bundle or its signature
    // could not be written. Such a run is not a success, whatever its checks said.
    bool evidenceMissing() const {
        return !evidenceError.isEmpty() || (!signingError.isEmpty() && !signingRefused);
    }
    // The run's own code (validation::RunResult::exitCode), or kExitEvidenceNotWritten.
    int exitCode() const { return evidenceMissing() ? kExitEvidenceNotWritten : result.exitCode(); }
};

// Why validate() failed before a run was begun: the request itself was refused (an unknown phase,
// check or a recipe with no checks: aicr's "invalid input"), or something could not be read or
// reached. Once the run row exists validate() returns an outcome, or an error when the run could
// not be finished on record.
enum class ValidateFailure { None, Refused, Failed };

Result<ValidateOutcome> validate(const Context& ctx, const ValidateRequest& request,
                                 ValidateFailure* failure = nullptr);

// `runs cleanup RUN` and the Validation view's "Delete leftovers": deletes what a run left on the
// cluster (its recorded leftovers), through the kubeconfig and the run's own context (or `context`),
// retrying until each goes or `retryLimitSec` passes; what went is marked removed, what is still
// there keeps its new error. A validation.cleanup receipt records it with the run's data.
struct CleanupRunRequest {
    qint64 runRow = 0;
    QStringList kubeconfigs; // empty: $KUBECONFIG, else ~/.kube/config
    QString context;         // empty: the run's context
    int retryLimitSec = 60;
};
struct CleanupRunOutcome {
    QStringList removed;
    std::vector<validation::RunResult::Leftover> still;
    QString context, server;
};
Result<CleanupRunOutcome> cleanupRun(const Context& ctx, const CleanupRunRequest& request);

// The receipt result of a finished run, one vocabulary for runs and imports: passed or skipped -> ok;
// failed, error, readiness-failed -> failed; incomplete or cancelled (kept as far as it got) -> partial.
receipts::Outcome runOutcome(validation::RunState s);
// The validation.run receipt of a finished run (exposed for tests and for the perf import).
receipts::ReceiptDraft validationReceipt(QLatin1StringView kind, const validation::RunResult& result,
                                         const QJsonObject& parameters);

// A recipe's criteria as JSON (stored with the run).
QJsonObject criteriaJson(const catalog::Criteria& criteria);

} // namespace pb::ops
