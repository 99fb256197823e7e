// proofbench validate: run a recipe's validation phases on a cluster (kubeconfig) and write the evidence
#include "cli/ValidationSupport.h"

namespace pb::cli {

namespace {

// --pending-limit and --retry-limit, in seconds; the exit code of a usage error.
std::optional<int> readTimeLimits(const QCommandLineParser& p, const QString& verb,
                                  ops::ValidateRequest& req) {
    for (const char* opt : {"pending-limit", "retry-limit"}) {
        if (!p.isSet(QLatin1String(opt)))
            continue;
        bool ok = false;
        const int v = p.value(QLatin1String(opt)).toInt(&ok);
        if (!ok || v <= 0 || v > 86400)
            return usage(
                QStringLiteral("--%1 must be a number of seconds from 1 to 86400").arg(QLatin1String(opt)),
                verb);
        (qstrcmp(opt, "pending-limit") == 0 ? req.pendingLimitSec : req.retryLimitSec) = v;
    }
    return std::nullopt;
}

// Events come from the runner's thread and its log follower: one line at a time.
void printEvents(ops::ValidateRequest& req, std::mutex& printing) {
    req.events.message = [&printing](const QString& m) {
        std::lock_guard lock(printing);
        err() << m << Qt::endl;
    };
    req.events.checkChanged = [&printing](const CheckRun& c) {
        std::lock_guard lock(printing);
        if (c.state != CheckState::Running)
            err() << "  " << stateMark(c.state) << " " << c.phase << "/" << c.name << " ("
                  << seconds(c.durationMs) << ")"
                  << (c.message.isEmpty() ? QString() : QStringLiteral(": ") + c.message) << Qt::endl;
        else
            err() << "  running " << c.phase << "/" << c.name << Qt::endl;
    };
    req.events.cancelling = [&printing] {
        std::lock_guard lock(printing);
        err() << "proofbench: cancelling; deleting the run's Jobs and RBAC" << Qt::endl;
    };
}

// The evidence written, for the JSON and text output; empty when none was.
QJsonObject evidenceJson(const ops::ValidateOutcome& o) {
    QJsonObject evidence;
    if (!o.evidenceError.isEmpty())
        evidence.insert(QStringLiteral("error"), o.evidenceError);
    if (!o.signingError.isEmpty() && !o.signingRefused)
        evidence.insert(QStringLiteral("signingError"), o.signingError);
    if (!o.evidenceDir.isEmpty()) {
        evidence.insert(QStringLiteral("bundle"), o.evidenceDir);
        evidence.insert(QStringLiteral("recipe"), o.recipe.recipeName());
        evidence.insert(QStringLiteral("recipeDigest"), o.recipeDigest);
        evidence.insert(QStringLiteral("manifestDigest"), o.manifestDigest);
        if (o.incomplete())
            evidence.insert(QStringLiteral("result"), QLatin1String(kIncompleteResult));
        if (o.signingRefused)
            evidence.insert(QStringLiteral("signingRefused"), o.signingError);
        if (!o.pointerPath.isEmpty()) {
            evidence.insert(QStringLiteral("attestation"), o.attestationPath);
            evidence.insert(QStringLiteral("pointer"), o.pointerPath);
            evidence.insert(QStringLiteral("signer"), o.signer);
        }
    }
    return evidence;
}

void printOutcome(const QString& format, const ops::ValidateOutcome& o, const QJsonObject& evidence) {
    if (format == QLatin1String("json")) {
        QJsonObject j = runToJson(o.result);
        j.insert(QStringLiteral("id"), o.result.runId); // the run's one id
        j.insert(QStringLiteral("recipe"), o.recipe.recipeName());
        j.insert(QStringLiteral("context"), o.context);
        j.insert(QStringLiteral("server"), o.server);
        if (!evidence.isEmpty())
            j.insert(QStringLiteral("evidence"), evidence);
        printJson(j);
    } else {
        printRunText(o.result);
        if (evidence.contains(QStringLiteral("bundle")))
            out() << "evidence: " << evidence.value(QStringLiteral("bundle")).toString()
                  << (evidence.contains(QStringLiteral("pointer"))
                          ? QStringLiteral(" (signed; pointer %1)")
                                .arg(evidence.value(QStringLiteral("pointer")).toString())
                          : QString())
                  << '\n';
        if (o.evidenceMissing())
            out() << "evidence: NOT WRITTEN; the verdict above is unproven (exit "
                  << ops::kExitEvidenceNotWritten << ")\n";
        out().flush();
    }
}

} // namespace

static int validateVerb(const QCommandLineParser& p) {
    const QString verb = QStringLiteral("validate");
    if (!p.isSet(QStringLiteral("out")))
        return usage(QStringLiteral("--out DIR is required"), verb);
    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return usage(QStringLiteral("--format must be text or json"), verb);
    QStringList phases;
    for (const QString& ph : p.values(QStringLiteral("phase"))) {
        if (ph == QLatin1String("all")) {
            if (p.values(QStringLiteral("phase")).size() > 1)
                return usage(QStringLiteral("--phase all cannot be combined with other phases"), verb);
            continue;
        }
        phases << ph;
    }
    Result<ops::ValidateRecipe> recipe = validateRecipeFrom(p);
    if (!recipe)
        return fail(recipe.error());

    // The key is read (and its passphrase asked) before the run, not after an hour of checks.
    ops::ValidateRequest req;
    if (p.isSet(QStringLiteral("key"))) {
        Result<sigstore::crypto::Pkey> k = privateKeyFrom(p);
        if (!k)
            return fail(k.error());
        req.key = std::make_shared<sigstore::crypto::Pkey>(std::move(*k));
    }
    if (p.isSet(QStringLiteral("kubeconfig")))
        req.kubeconfigs = {p.value(QStringLiteral("kubeconfig"))};
    req.context = p.value(QStringLiteral("context"));
    req.recipe = std::move(*recipe);
    req.phases = phases;
    req.namespace_ = p.value(QStringLiteral("namespace"));
    req.imageRegistry = p.value(QStringLiteral("image-registry"));
    req.toolVersion = QCoreApplication::applicationVersion();
    req.cleanup = !p.isSet(QStringLiteral("no-cleanup"));
    req.signIncomplete = p.isSet(QStringLiteral("sign-incomplete"));
    if (std::optional<int> failed = readTimeLimits(p, verb, req))
        return *failed;
    if (req.signIncomplete && !req.key)
        return usage(QStringLiteral("--sign-incomplete needs --key"), verb);
    req.outDir = p.value(QStringLiteral("out"));
    std::mutex printing;
    printEvents(req, printing);

    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    g_interrupted = false;
    auto previous = std::signal(SIGINT, onInterrupt);
    auto previousTerm = std::signal(SIGTERM, onInterrupt);
    ops::ValidateFailure why = ops::ValidateFailure::None;
    Result<ops::ValidateOutcome> done = ops::validate(ops::Context(**db, {}, &g_interrupted), req, &why);
    std::signal(SIGINT, previous);
    std::signal(SIGTERM, previousTerm);
    if (!done)
        return why == ops::ValidateFailure::Refused ? usage(done.error().toString(), verb)
                                                    : fail(done.error());
    const ops::ValidateOutcome& o = *done;
    if (!o.evidenceError.isEmpty())
        err() << "proofbench: evidence: " << o.evidenceError << Qt::endl;
    if (!o.signingError.isEmpty())
        err() << "proofbench: signing: " << o.signingError << Qt::endl;

    printOutcome(format, o, evidenceJson(o));
    return o.exitCode();
}

Command validateCommand() {
    Command p(
        QStringLiteral("validate"),
        QStringLiteral("run a recipe's validation phases on a cluster (kubeconfig) and write the evidence"),
        QStringLiteral(
            "Run a recipe's validation phases on a cluster, as aicr validate does, and write the evidence."));
    addDb(p);
    p.addOption({QStringLiteral("kubeconfig"),
                 QStringLiteral("kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("context"),
                 QStringLiteral("kubeconfig context (default: its current-context)."), QStringLiteral("C")});
    p.addOption({{QStringLiteral("n"), QStringLiteral("namespace")},
                 QStringLiteral("Namespace for the validation Jobs (default aicr-validation)."),
                 QStringLiteral("NS"),
                 QStringLiteral("aicr-validation")});
    p.addOption({QStringLiteral("catalog"), QStringLiteral("Resolve the recipe from a catalog directory."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("version"),
                 QStringLiteral("Resolve the recipe from an imported catalog version."),
                 QStringLiteral("LABEL")});
    addCriteriaOptions(p);
    p.addOption({QStringLiteral("recipe"),
                 QStringLiteral("A RecipeResult file to validate instead of criteria."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("phase"),
                 QStringLiteral("deployment, conformance, performance or all (repeatable; default all)."),
                 QStringLiteral("PHASE")});
    p.addOption({QStringLiteral("key"), QStringLiteral("Sign the evidence bundle with this private key."),
                 QStringLiteral("KEY")});
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("out"),
                 QStringLiteral("Directory for the evidence summary bundle and pointer."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("image-registry"),
                 QStringLiteral("Replace the validator images' registry (AICR_VALIDATOR_IMAGE_REGISTRY)."),
                 QStringLiteral("REGISTRY")});
    p.addOption(
        {QStringLiteral("no-cleanup"), QStringLiteral("Keep the Jobs, ConfigMaps and RBAC after the run.")});
    p.addOption({QStringLiteral("sign-incomplete"),
                 QStringLiteral("With --key: sign even a run a cluster fault left incomplete (the statement "
                                "and pointer say so).")});
    p.addOption({QStringLiteral("pending-limit"),
                 QStringLiteral("Seconds a check's pod may stay Pending, Unschedulable or in image pull "
                                "before the check is 'other' "
                                "(default 600, 120, 60)."),
                 QStringLiteral("SEC")});
    p.addOption(
        {QStringLiteral("retry-limit"),
         QStringLiteral(
             "Seconds to retry an API that does not answer, and the cleanup, before giving up (default 60)."),
         QStringLiteral("SEC")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = validateVerb;
    p.exitCodes = validateExitCodes();
    p.exitCodesSource = QStringLiteral("as aicr validate");
    return p;
}

} // namespace pb::cli
