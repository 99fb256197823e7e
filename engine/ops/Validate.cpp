#include "ops/Validate.h"

#include "catalog/Loader.h"
#include "core/Files.h"
#include "evidence/Sign.h"
#include "kube/Client.h"
#include "kube/Kubeconfig.h"
#include "receipts/Kinds.h"
#include "store/CatalogStore.h"
#include "store/RunStore.h"
#include "validation/Emit.h"

#include <QThread>

#include <atomic>
#include <thread>

namespace pb::ops {

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
receipts::ReceiptDraft validationReceipt(QLatin1StringView kind, qint64 runRow, const RunResult& r, const QJsonObject& parameters) {
    receipts::ReceiptDraft d;
    d.kind = kind;
    d.parameters = parameters;
    d.parameters.insert(QStringLiteral("runUid"), r.runId);
    d.parameters.insert(QStringLiteral("phases"), r.phasesRun.join(QLatin1Char(',')));
    int passed = 0, failed = 0, skipped = 0;
    for (const CheckRun& c : r.checks) {
        passed += c.state == CheckState::Passed;
        failed += c.state == CheckState::Failed;
        skipped += c.state == CheckState::Skipped;
    }
    d.outputs.push_back(receipts::Artifact{QStringLiteral("runs #%1").arg(runRow), QString(), -1});
    d.result = r.state == RunState::Passed                    ? receipts::Outcome::Ok
               : r.state == RunState::Failed && passed > 0 ? receipts::Outcome::Partial
                                                             : receipts::Outcome::Failed;
    d.message = QStringLiteral("%1: %2 check(s), %3 passed, %4 failed, %5 skipped%6")
                    .arg(validation::runStateName(r.state))
                    .arg(r.checks.size())
                    .arg(passed)
                    .arg(failed)
                    .arg(skipped)
                    .arg(r.reason.isEmpty() ? QString() : QStringLiteral("; ") + r.reason);
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
                return makeError(QStringLiteral("no catalog in the database to take the validator catalog from; give --catalog DIR"));
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
            return makeError(QStringLiteral("no recipe: give a RecipeResult file, criteria or a recipe of a catalog version"));
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

Result<Connected> connect(const ValidateRequest& req) {
    const QStringList files = req.kubeconfigs.isEmpty() ? kube::Kubeconfig::defaultFiles() : req.kubeconfigs;
    Result<kube::Kubeconfig> config = kube::Kubeconfig::load(files);
    if (!config)
        return config.error();
    Result<kube::ResolvedContext> ctx = kube::resolveContext(*config, req.context);
    if (!ctx)
        return ctx.error();
    Result<std::unique_ptr<kube::Client>> client = kube::Client::create(*ctx);
    if (!client)
        return client.error();
    return Connected{std::move(*client), *ctx};
}

// Writes the summary bundle (and signs it) for a run that reached a verdict.
void writeEvidence(const ValidateRequest& req, const SettledRecipe& recipe, const QString& toolVersion, ValidateOutcome& out) {
    const RunResult& r = out.result;
    if ((r.state != RunState::Passed && r.state != RunState::Failed) || req.outDir.isEmpty())
        return;
    Result<validation::EmittedBundle> bundle = validation::emitEvidence(r, recipe.recipe, req.outDir, toolVersion, recipe.validators.version);
    if (!bundle) {
        out.evidenceError = bundle.error().toString();
        return;
    }
    out.evidenceDir = bundle->dir;
    out.recipeDigest = bundle->recipeDigest;
    out.manifestDigest = bundle->manifestDigest;
    if (!req.key || !*req.key)
        return;
    Result<evidence::EvidenceSignature> sig = evidence::signEvidence(bundle->dir, req.key->get(), req.outDir);
    if (!sig) {
        out.signingError = sig.error().toString();
        return;
    }
    out.attestationPath = sig->attestationPath;
    out.pointerPath = sig->pointerPath;
    out.signer = sig->signerIdentity;
}

int planIndex(const std::vector<CheckRun>& plan, const QString& name) {
    int seq = 0;
    for (size_t i = 0; i < plan.size(); ++i)
        if (plan[i].name == name)
            seq = int(i);
    return seq;
}

} // namespace

Result<ValidateOutcome> validate(const Context& ctx, const ValidateRequest& req, ValidateFailure* failure) {
    auto stop = [failure](const Error& e, ValidateFailure why) {
        if (failure)
            *failure = why;
        return e;
    };
    if (failure)
        *failure = ValidateFailure::None;
    const QString toolVersion = req.toolVersion.isEmpty() ? QStringLiteral("dev") : req.toolVersion;

    Result<SettledRecipe> recipe = settleRecipe(ctx, req.recipe);
    if (!recipe)
        return stop(recipe.error(), ValidateFailure::Failed);
    Result<Connected> cluster = connect(req);
    if (!cluster)
        return stop(cluster.error(), ValidateFailure::Failed);

    validation::RunRequest run;
    run.recipe = recipe->recipe;
    run.validators = recipe->validators;
    run.phases = req.phases;
    run.namespace_ = req.namespace_;
    run.imageRegistry = req.imageRegistry;
    run.toolVersion = toolVersion;
    run.cleanup = req.cleanup;

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
            if (Status s = runs.saveCheck(row, planIndex(runner->plan(), c.name), c); !s && req.events.message)
                req.events.message(s.error().toString());
        if (req.events.checkChanged)
            req.events.checkChanged(c);
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
    {
        // The cancel flag reaches the runner from a watcher: run() blocks this thread.
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
        out.result = r.run();
        ended = true;
        watcher.join();
    }
    writeEvidence(req, *recipe, toolVersion, out);

    const QJsonObject parameters{{QStringLiteral("recipe"), header.recipeName},     {QStringLiteral("coordinate"), header.coordinate},
                                 {QStringLiteral("context"), header.context},       {QStringLiteral("server"), header.server},
                                 {QStringLiteral("namespace"), header.namespace_}};
    Result<bool> finished = transact<bool>(ctx, [&]() -> Result<std::pair<bool, receipts::ReceiptDraft>> {
        if (Status s = runs.finish(row, out.result, out.evidenceDir); !s)
            return s.error();
        receipts::ReceiptDraft d = validationReceipt(receipts::kinds::ValidationRun, row, out.result, parameters);
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

} // namespace pb::ops
