#include "ops/Validate.h"
#include "core/Plural.h"

#include "catalog/Loader.h"
#include "core/Files.h"
#include "evidence/Sign.h"
#include "kube/Client.h"
#include "kube/Kubeconfig.h"
#include "receipts/Kinds.h"
#include "store/CatalogStore.h"
#include "store/RunStore.h"
#include "validation/Emit.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <thread>

namespace pb::ops {

receipts::Outcome runOutcome(validation::RunState s) {
    switch (s) {
    case validation::RunState::Passed:
    case validation::RunState::Skipped:
        return receipts::Outcome::Ok;
    case validation::RunState::Incomplete:
    case validation::RunState::Cancelled:
        return receipts::Outcome::Partial;
    case validation::RunState::Running:
    case validation::RunState::Failed:
    case validation::RunState::Error:
    case validation::RunState::ReadinessFailed:
        break;
    }
    return receipts::Outcome::Failed;
}

using validation::CheckRun;
using validation::CheckState;
using validation::RunResult;
using validation::RunState;

QJsonObject criteriaJson(const catalog::Criteria& c) {
    QJsonObject o;
    for (const QString& d : catalog::Criteria::dimensions())
        o.insert(d, c.get(d));
    return o;
}

// What ran (uid, phases, and the caller's parameters), its verdict and the checks' counts.
receipts::ReceiptDraft validationReceipt(QLatin1StringView kind, const RunResult& r,
                                         const QJsonObject& parameters) {
    receipts::ReceiptDraft d;
    d.kind = kind;
    d.parameters = parameters;
    d.parameters.insert(QStringLiteral("runUid"), r.runId);
    d.parameters.insert(QStringLiteral("phases"), r.phasesRun.join(QLatin1Char(',')));
    int passed = 0, failed = 0, skipped = 0, other = 0;
    for (const CheckRun& c : r.checks) {
        passed += c.state == CheckState::Passed;
        failed += c.state == CheckState::Failed;
        skipped += c.state == CheckState::Skipped;
        other += c.state == CheckState::Other;
    }
    d.outputs.push_back(
        receipts::Artifact{QStringLiteral("run %1").arg(r.runId), QString(), -1}); // its one id
    d.result = runOutcome(r.state);
    d.message =
        QStringLiteral("%1: %2, %3 passed, %4 failed, %5 skipped%6%7")
            .arg(validation::runStateName(r.state))
            .arg(counted(qint64(r.checks.size()), QStringLiteral("check"), QStringLiteral("checks")))
            .arg(passed)
            .arg(failed)
            .arg(skipped)
            .arg(other ? QStringLiteral(", %1 other (could not run or finish)").arg(other) : QString())
            .arg(r.reason.isEmpty() ? QString() : QStringLiteral("; ") + r.reason);
    if (!r.leftovers.empty())
        d.parameters.insert(QStringLiteral("leftovers"), int(r.leftovers.size()));
    return d;
}

namespace {

struct SettledRecipe {
    catalog::RecipeResult recipe;
    catalog::ValidatorCatalog validators;
    QString catalogLabel;
};

// The recipe and the validator catalog its checks are looked up in.
Result<SettledRecipe> settleRecipe(const Context& ctx, const ValidateRecipe& in) {
    SettledRecipe out;
    out.catalogLabel = in.catalogLabel;
    std::optional<catalog::Catalog> stored;
    const bool needStored = !in.validators || (!in.resolved && in.file.isEmpty());
    if (needStored) {
        store::CatalogStore catalogs(ctx.db());
        if (out.catalogLabel.isEmpty()) {
            Result<std::vector<store::CatalogVersionInfo>> versions = catalogs.versions();
            if (!versions)
                return versions.error();
            if (versions->empty())
                return makeError(QStringLiteral(
                    "no catalog in the database to take the validator catalog from; give --catalog DIR"));
            out.catalogLabel = versions->back().label;
        }
        Result<catalog::Catalog> cat = catalogs.loadCatalog(out.catalogLabel);
        if (!cat)
            return cat.error();
        stored = std::move(*cat);
    }
    out.validators = in.validators ? *in.validators : stored->validators;
    if (in.resolved) {
        out.recipe = *in.resolved;
    } else if (!in.file.isEmpty()) {
        Result<QByteArray> bytes = readFileLimited(in.file, limits::kDocumentFile, QStringLiteral("recipe"));
        if (!bytes)
            return bytes.error();
        Result<catalog::RecipeResult> r = catalog::parseRecipeResult(*bytes, in.file);
        if (!r)
            return r.error();
        out.recipe = std::move(*r);
    } else {
        if (in.leafOverlay.isEmpty())
            return makeError(QStringLiteral(
                "no recipe: give a RecipeResult file, criteria or a recipe of a catalog version"));
        Result<catalog::RecipeResult> r = store::resolveStoredRecipe(*stored, in.leafOverlay);
        if (!r)
            return r.error();
        out.recipe = std::move(*r);
    }
    return out;
}

struct Connected {
    std::unique_ptr<kube::Client> client;
    kube::ResolvedContext context;
};

Result<Connected> connect(const QStringList& kubeconfigs, const QString& context) {
    const QStringList files = kubeconfigs.isEmpty() ? kube::Kubeconfig::defaultFiles() : kubeconfigs;
    Result<kube::Kubeconfig> config = kube::Kubeconfig::load(files);
    if (!config)
        return config.error();
    Result<kube::ResolvedContext> ctx = kube::resolveContext(*config, context);
    if (!ctx)
        return ctx.error();
    Result<std::unique_ptr<kube::Client>> client = kube::Client::create(*ctx);
    if (!client)
        return client.error();
    return Connected{std::move(*client), *ctx};
}

// Writes the summary bundle (and signs it) for a run that reached a verdict.
void writeEvidence(const ValidateRequest& req, const SettledRecipe& recipe, const QString& toolVersion,
                   ValidateOutcome& out) {
    const RunResult& r = out.result;
    // An incomplete run keeps its evidence too: the statement says it is incomplete.
    if ((r.state != RunState::Passed && r.state != RunState::Failed && r.state != RunState::Incomplete &&
         r.state != RunState::Skipped) ||
        req.outDir.isEmpty())
        return;
    Result<validation::EmittedBundle> bundle =
        validation::emitEvidence(r, recipe.recipe, req.outDir, toolVersion, recipe.validators.version);
    if (!bundle) {
        out.evidenceError = bundle.error().toString();
        return;
    }
    out.evidenceDir = bundle->dir;
    out.recipeDigest = bundle->recipeDigest;
    out.manifestDigest = bundle->manifestDigest;
    if (!req.key || !*req.key)
        return;
    if (bundle->incomplete && !req.signIncomplete) {
        // Not evidence of failure, nor of success: signing it takes the user's explicit word.
        out.signingRefused = true;
        out.signingError = QStringLiteral("not signed: the run is %1 (%2); the bundle is kept unsigned, "
                                          "--sign-incomplete signs it marked incomplete")
                               .arg(QLatin1String(validation::kIncompleteResult), r.reason);
        return;
    }
    Result<evidence::EvidenceSignature> sig =
        evidence::signEvidence(bundle->dir, req.key->get(), req.outDir, {}, req.signIncomplete);
    if (!sig) {
        out.signingError = sig.error().toString();
        return;
    }
    if (bundle->incomplete) {
        // The pointer says it too (a key after recipe, before schemaVersion: AICR's sorted keys).
        Result<QByteArray> pointer =
            readFileLimited(sig->pointerPath, limits::kSmallFile, QStringLiteral("the pointer"));
        if (!pointer) {
            out.signingError = pointer.error().toString();
            return;
        }
        QByteArray text = *pointer;
        const qsizetype at = text.indexOf("\nschemaVersion:");
        const QByteArray line = QByteArray("result: ") + validation::kIncompleteResult + "\n";
        if (at >= 0)
            text.insert(at + 1, line);
        else
            text.append(line);
        if (Status s = writeFileAtomically(sig->pointerPath, text); !s) {
            out.signingError = s.error().toString();
            return;
        }
    }
    out.attestationPath = sig->attestationPath;
    out.pointerPath = sig->pointerPath;
    out.signer = sig->signerIdentity;
}

// The evidence folder is settled before anything touches the cluster: a bundle already there is never
// written over (an hour of checks would end in "already exists"), and a folder that cannot be
// written to is found now, not after the run.
Status checkOutDir(const QString& outDir) {
    const QFileInfo info(outDir);
    if (info.exists() && !info.isDir())
        return makeError(QStringLiteral("--out: not a directory"), outDir);
    const QString bundle = QDir(outDir).absoluteFilePath(QStringLiteral("summary-bundle"));
    if (QFileInfo::exists(bundle) || QFileInfo(bundle).isSymLink())
        return makeError(
            QStringLiteral("--out: an evidence bundle is already there; evidence is never written "
                           "over, so give another or an empty directory"),
            bundle);
    // Nothing is created yet (a run refused later leaves no folder behind): the folder, or the
    // nearest folder above it that exists, must take a new file.
    QString existing = QFileInfo(outDir).absoluteFilePath();
    while (!QFileInfo(existing).exists() && QFileInfo(existing).absolutePath() != existing)
        existing = QFileInfo(existing).absolutePath();
    if (!QFileInfo(existing).isDir())
        return makeError(QStringLiteral("--out: %1 is not a directory").arg(existing), outDir);
    QTemporaryFile probe(QDir(existing).absoluteFilePath(QStringLiteral(".proofbench-write-XXXXXX")));
    if (!probe.open())
        return makeError(
            QStringLiteral("--out: %1 cannot be written to (%2)").arg(existing, probe.errorString()), outDir);
    return {};
}

int planIndex(const std::vector<CheckRun>& plan, const QString& name) {
    int seq = 0;
    for (size_t i = 0; i < plan.size(); ++i)
        if (plan[i].name == name)
            seq = int(i);
    return seq;
}

validation::RunRequest runRequestOf(const ValidateRequest& req, const SettledRecipe& recipe,
                                    const QString& toolVersion) {
    validation::RunRequest run;
    run.recipe = recipe.recipe;
    run.validators = recipe.validators;
    run.phases = req.phases;
    run.namespace_ = req.namespace_;
    run.imageRegistry = req.imageRegistry;
    run.toolVersion = toolVersion;
    run.cleanup = req.cleanup;
    if (req.pendingLimitSec > 0)
        run.pendingTimeoutSec = run.unschedulableSec = run.imagePullSec = req.pendingLimitSec;
    if (req.retryLimitSec > 0)
        run.transientSec = run.cleanupSec = run.namespaceWaitSec = req.retryLimitSec;
    if (req.pollMs > 0)
        run.pollMs = req.pollMs;
    return run;
}

// Runs the checks; the cancel flag reaches the runner from a watcher, since run() blocks this thread.
validation::RunResult runCancellable(const Context& ctx, const ValidateRequest& req, validation::Runner& r) {
    std::atomic_bool ended{false};
    std::thread watcher([&] {
        while (!ended) {
            if (ctx.cancelled()) {
                if (req.events.cancelling)
                    req.events.cancelling();
                r.cancel();
                return;
            }
            QThread::msleep(50);
        }
    });
    validation::RunResult result = r.run();
    ended = true;
    watcher.join();
    return result;
}

} // namespace

Result<ValidateOutcome> validate(const Context& ctx, const ValidateRequest& req, ValidateFailure* failure) {
    if (Status s = require(ctx, db::Capability::RunValidation); !s)
        return s.error();
    auto stop = [failure](const Error& e, ValidateFailure why) {
        if (failure)
            *failure = why;
        return e;
    };
    if (failure)
        *failure = ValidateFailure::None;
    const QString toolVersion = req.toolVersion.isEmpty() ? QStringLiteral("dev") : req.toolVersion;

    if (!req.outDir.isEmpty())
        if (Status s = checkOutDir(req.outDir); !s)
            return stop(s.error(), ValidateFailure::Refused);
    Result<SettledRecipe> recipe = settleRecipe(ctx, req.recipe);
    if (!recipe)
        return stop(recipe.error(), ValidateFailure::Failed);
    Result<Connected> cluster = connect(req.kubeconfigs, req.context);
    if (!cluster)
        return stop(cluster.error(), ValidateFailure::Failed);

    const validation::RunRequest run = runRequestOf(req, *recipe, toolVersion);
    // As kubectl: a credential, TLS or authentication error ends here (nothing run, nothing stored);
    // only a fault after this good start is the cluster's.
    if (Status s = kube::startProbe(*cluster->client, run.transientSec, [&] { return ctx.cancelled(); }); !s)
        return stop(s.error(), ValidateFailure::Failed);

    store::RunStore runs(ctx.db());
    qint64 row = 0;
    validation::Runner* runner = nullptr;
    validation::RunObserver observer;
    observer.message = req.events.message;
    observer.log = req.events.log;
    // Runner::run() reports check changes on this thread: each is stored as it changes, so a run cut
    // short keeps every check that finished.
    observer.checkChanged = [&](const CheckRun& c) {
        if (row && runner)
            if (Status s = runs.saveCheck(row, planIndex(runner->plan(), c.name), c);
                !s && req.events.message)
                req.events.message(s.error().toString());
        if (req.events.checkChanged)
            req.events.checkChanged(c);
    };
    // Each object the run creates is on record from the moment it exists: a run that never reaches
    // its cleanup (killed, --no-cleanup) still has its objects listed for `runs cleanup`.
    observer.created = [&](const QString& path) {
        if (!row)
            return;
        const std::vector<RunResult::Leftover> made{
            {path, QStringLiteral("created by the run; not deleted yet (the run is going, or ended before "
                                  "its cleanup)")}};
        if (Status s = runs.saveLeftovers(row, made); !s && req.events.message)
            req.events.message(s.error().toString());
    };
    validation::Runner r(*cluster->client, run, observer);
    runner = &r;
    if (Status s = r.prepare(); !s)
        return stop(s.error(), ValidateFailure::Refused);
    if (ctx.cancelled())
        return stop(makeError(QStringLiteral("cancelled before the run started")), ValidateFailure::Failed);

    store::RunHeader header;
    header.recipeName = run.recipe.recipeName();
    header.coordinate = header.recipeName;
    header.catalogVersion = recipe->catalogLabel;
    header.criteria = criteriaJson(run.recipe.criteria);
    header.context = cluster->context.context.name;
    header.server = cluster->context.cluster.server;
    header.namespace_ = run.namespace_;
    header.toolVersion = toolVersion;
    // The run id is the runner's, so Jobs on the cluster and the row in the database match.
    Result<qint64> begun = runs.begin(header, r.runId(), r.plan());
    if (!begun)
        return stop(begun.error(), ValidateFailure::Failed);
    row = *begun;
    if (req.events.planned)
        req.events.planned(row, r.runId(), r.plan(), run.recipe);

    ValidateOutcome out;
    out.runRow = row;
    out.recipe = run.recipe;
    out.catalogLabel = recipe->catalogLabel;
    out.context = header.context;
    out.server = header.server;
    out.result = runCancellable(ctx, req, r);
    writeEvidence(req, *recipe, toolVersion, out);
    if (out.evidenceMissing())
        out.result.reason += (out.result.reason.isEmpty() ? QString() : QStringLiteral("; ")) +
                             QStringLiteral("evidence not written: ") +
                             (out.evidenceError.isEmpty() ? out.signingError : out.evidenceError);

    const QJsonObject parameters{{QStringLiteral("recipe"), header.recipeName},
                                 {QStringLiteral("coordinate"), header.coordinate},
                                 {QStringLiteral("context"), header.context},
                                 {QStringLiteral("server"), header.server},
                                 {QStringLiteral("namespace"), header.namespace_}};
    auto finished = transact<bool>(ctx, [&]() -> Result<std::pair<bool, receipts::ReceiptDraft>> {
        if (Status s = runs.finish(row, out.result, out.evidenceDir); !s)
            return s.error();
        QStringList removed;
        for (const QString& p : std::as_const(out.result.created))
            if (std::none_of(out.result.leftovers.cbegin(), out.result.leftovers.cend(),
                             [&](const RunResult::Leftover& l) { return l.path == p; }))
                removed << p;
        if (Status s = runs.markLeftovers(row, removed, {}); !s)
            return s.error();
        if (Status s = runs.saveLeftovers(row, out.result.leftovers); !s)
            return s.error();
        receipts::ReceiptDraft d = validationReceipt(receipts::kinds::ValidationRun, out.result, parameters);
        if (out.evidenceMissing())
            d.result = receipts::Outcome::Failed; // the checks' verdict is in the message; no proof of it
        if (!out.evidenceDir.isEmpty())
            d.outputs.push_back(receipts::Artifact::directory(out.evidenceDir));
        if (!out.pointerPath.isEmpty())
            d.outputs.push_back(receipts::Artifact::file(out.pointerPath));
        return std::pair{true, std::move(d)};
    });
    if (!finished)
        return stop(finished.error(), ValidateFailure::Failed);
    return out;
}

Result<CleanupRunOutcome> cleanupRun(const Context& ctx, const CleanupRunRequest& req) {
    if (Status s = require(ctx, db::Capability::RunValidation); !s)
        return s.error();
    store::RunStore runs(ctx.db());
    Result<store::StoredRun> run = runs.load(req.runRow);
    if (!run)
        return run.error();
    Result<std::vector<store::RunLeftover>> left = runs.leftovers(req.runRow);
    if (!left)
        return left.error();
    CleanupRunOutcome out;
    out.context = req.context.isEmpty() ? run->summary.context : req.context;
    if (left->empty())
        return out;
    if (out.context.isEmpty())
        return makeError(
            QStringLiteral("run %1 names no kubeconfig context; give --context").arg(req.runRow));
    Result<Connected> cluster = connect(req.kubeconfigs, out.context);
    if (!cluster)
        return cluster.error();
    out.server = cluster->context.cluster.server;
    if (!run->summary.server.isEmpty() && out.server != run->summary.server)
        return makeError(QStringLiteral("context %1 points at %2, but run %3 ran on %4: not deleting there")
                             .arg(out.context, out.server)
                             .arg(req.runRow)
                             .arg(run->summary.server));
    QStringList paths;
    for (const store::RunLeftover& l : *left)
        paths << l.path;
    ctx.progress(0, paths.size(),
                 QStringLiteral("deleting %1 run %2 left on %3")
                     .arg(counted(qint64(paths.size()), QStringLiteral("object"), QStringLiteral("objects")))
                     .arg(req.runRow)
                     .arg(out.server));
    out.still = validation::deleteLeftovers(*cluster->client, paths, std::max(1, req.retryLimitSec),
                                            [&] { return ctx.cancelled(); });
    for (const QString& p : std::as_const(paths)) {
        bool kept = false;
        for (const validation::RunResult::Leftover& l : out.still)
            kept = kept || l.path == p;
        if (!kept)
            out.removed << p;
    }
    receipts::ReceiptDraft d;
    d.kind = QLatin1StringView{"validation.cleanup"};
    d.parameters = QJsonObject{{QStringLiteral("runUid"), run->summary.runUid},
                               {QStringLiteral("context"), out.context},
                               {QStringLiteral("server"), out.server}};
    d.outputs.push_back(receipts::Artifact{QStringLiteral("run %1").arg(run->summary.runUid), QString(), -1});
    d.result = out.still.empty()       ? receipts::Outcome::Ok
               : out.removed.isEmpty() ? receipts::Outcome::Failed
                                       : receipts::Outcome::Partial;
    d.message =
        QStringLiteral("%1 deleted, %2 still on the cluster").arg(out.removed.size()).arg(out.still.size());
    auto done = transact<bool>(ctx, [&]() -> Result<std::pair<bool, receipts::ReceiptDraft>> {
        if (Status s = runs.markLeftovers(req.runRow, out.removed, out.still); !s)
            return s.error();
        return std::pair{true, d};
    });
    if (!done)
        return done.error();
    return out;
}

} // namespace pb::ops
