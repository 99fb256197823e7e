// `proofbench validate`, `runs` and `perf import`: validation on a cluster through a kubeconfig,
// the runs stored in the database, and results people already have turned into runs.
#include "cli/CliUtil.h"

#include "store/CatalogStore.h"
#include "ops/PerfImport.h"
#include "ops/Validate.h"
#include "store/RunStore.h"
#include "validation/Emit.h"
#include "validation/Runner.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <csignal>
#include <mutex>

namespace pb::cli {

using namespace pb::catalog;
using namespace pb::store;
using namespace pb::validation;

namespace {

std::atomic_bool g_interrupted{false};
extern "C" void onInterrupt(int) { g_interrupted = true; }

QString seconds(qint64 ms) { return QString::number(double(ms) / 1000.0, 'f', 1) + QStringLiteral(" s"); }

QString stateMark(CheckState s) {
    switch (s) {
    case CheckState::Passed: return QStringLiteral("passed ");
    case CheckState::Failed: return QStringLiteral("FAILED ");
    case CheckState::Skipped: return QStringLiteral("skipped");
    case CheckState::Running: return QStringLiteral("running");
    case CheckState::Pending: return QStringLiteral("pending");
    case CheckState::Other: return QStringLiteral("other  ");
    }
    return {};
}

// The validator catalog for a recipe given as a file: --catalog/--version when set, else the newest
// catalog version in the database (the sample catalog on a new database).
Result<Catalog> validatorSource(const QCommandLineParser& p) {
    if (p.isSet(QStringLiteral("catalog")) || p.isSet(QStringLiteral("version")))
        return catalogFrom(p);
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return db.error();
    CatalogStore store(**db);
    Result<std::vector<CatalogVersionInfo>> versions = store.versions();
    if (!versions)
        return versions.error();
    if (versions->empty())
        return makeError(QStringLiteral("no catalog in the database to take the validator catalog from; give --catalog DIR"));
    return store.loadCatalog(versions->back().label);
}

struct RecipeChoice {
    RecipeResult recipe;
    ValidatorCatalog validators;
    QString catalogLabel;
};

Result<RecipeChoice> recipeFrom(const QCommandLineParser& p) {
    RecipeChoice out;
    if (p.isSet(QStringLiteral("recipe"))) {
        const QString path = p.value(QStringLiteral("recipe"));
        Result<QByteArray> bytes = readFile(path);
        if (!bytes)
            return bytes.error();
        Result<RecipeResult> r = parseRecipeResult(*bytes, path);
        if (!r)
            return r.error();
        out.recipe = *r;
        Result<Catalog> cat = validatorSource(p);
        if (!cat)
            return cat.error();
        out.validators = cat->validators;
        out.catalogLabel = p.value(QStringLiteral("version"));
        return out;
    }
    if (!p.isSet(QStringLiteral("catalog")) && !p.isSet(QStringLiteral("version")))
        return makeError(QStringLiteral("give --recipe FILE, or --catalog DIR / --version LABEL with criteria flags"));
    Result<Catalog> cat = catalogFrom(p);
    if (!cat)
        return cat.error();
    Result<Criteria> criteria = criteriaFrom(p, *cat);
    if (!criteria)
        return criteria.error();
    Result<ResolveOptions> opt = resolveOptionsFrom(p);
    if (!opt)
        return opt.error();
    Result<RecipeResult> r = resolve(*cat, *criteria, *opt);
    if (!r)
        return r.error();
    out.recipe = *r;
    out.validators = cat->validators;
    out.catalogLabel = p.isSet(QStringLiteral("version")) ? p.value(QStringLiteral("version")) : QFileInfo(p.value(QStringLiteral("catalog"))).fileName();
    return out;
}

// What `validate` validates: a RecipeResult file (its validators from --catalog/--version, else
// the database's newest catalog version), or the recipe the criteria flags resolve to.
Result<ops::ValidateRecipe> validateRecipeFrom(const QCommandLineParser& p) {
    ops::ValidateRecipe r;
    if (p.isSet(QStringLiteral("recipe"))) {
        r.file = p.value(QStringLiteral("recipe"));
        if (p.isSet(QStringLiteral("catalog")) || p.isSet(QStringLiteral("version"))) {
            Result<Catalog> cat = catalogFrom(p);
            if (!cat)
                return cat.error();
            r.validators = cat->validators;
            r.catalogLabel = p.value(QStringLiteral("version"));
        }
        return r;
    }
    Result<RecipeChoice> choice = recipeFrom(p);
    if (!choice)
        return choice.error();
    r.resolved = std::move(choice->recipe);
    r.validators = std::move(choice->validators);
    r.catalogLabel = choice->catalogLabel;
    return r;
}

void printRunText(const RunResult& r) {
    out() << "run " << r.runId << ": " << runStateName(r.state);
    if (!r.reason.isEmpty())
        out() << " (" << r.reason << ")";
    out() << '\n';
    for (const ConstraintCheck& c : r.readiness)
        out() << "  readiness " << c.constraint.name << " " << c.constraint.value << ": "
              << (c.outcome == ConstraintOutcome::Passed ? "passed" : c.outcome == ConstraintOutcome::Failed ? "FAILED" : "not measurable")
              << (c.measured.isEmpty() ? QString() : QStringLiteral(" (measured %1)").arg(c.measured)) << '\n';
    for (const CheckRun& c : r.checks) {
        out() << "  " << stateMark(c.state) << "  " << c.phase << "/" << c.name << "  " << seconds(c.durationMs);
        if (!c.cause.isEmpty())
            out() << "  [" << c.cause << (c.k8sReason.isEmpty() ? QString() : QStringLiteral(", ") + c.k8sReason) << "]";
        if (!c.message.isEmpty())
            out() << "  " << c.message;
        out() << '\n';
        if (c.score)
            for (const ScoredMetric& m : c.score->metrics)
                out() << "           " << m.name << " = " << QString::number(m.measured, 'f', 2) << ' ' << m.unit
                      << (m.threshold ? QStringLiteral("  (constraint %1, passes at %2 %3)")
                                            .arg(m.threshold->written, m.threshold->op, QString::number(m.threshold->effective(), 'f', 2))
                                      : QString())
                      << (m.pass ? "" : "  below threshold") << '\n';
    }
    for (const RunResult::Leftover& l : r.leftovers)
        out() << "  left on the cluster: " << l.path << (l.error.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(l.error)) << '\n';
    if (r.state == RunState::Incomplete)
        out() << "result: " << kIncompleteResult << " (exit " << kExitIncomplete << "): not evidence of failure\n";
    out().flush();
}

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
    for (const char* opt : {"pending-limit", "retry-limit"}) {
        if (!p.isSet(QLatin1String(opt)))
            continue;
        bool ok = false;
        const int v = p.value(QLatin1String(opt)).toInt(&ok);
        if (!ok || v <= 0 || v > 86400)
            return usage(QStringLiteral("--%1 must be a number of seconds from 1 to 86400").arg(QLatin1String(opt)), verb);
        (qstrcmp(opt, "pending-limit") == 0 ? req.pendingLimitSec : req.retryLimitSec) = v;
    }
    if (req.signIncomplete && !req.key)
        return usage(QStringLiteral("--sign-incomplete needs --key"), verb);
    req.outDir = p.value(QStringLiteral("out"));
    // Events come from the runner's thread and its log follower: one line at a time.
    std::mutex printing;
    req.events.message = [&](const QString& m) {
        std::lock_guard lock(printing);
        err() << m << Qt::endl;
    };
    req.events.checkChanged = [&](const CheckRun& c) {
        std::lock_guard lock(printing);
        if (c.state != CheckState::Running)
            err() << "  " << stateMark(c.state) << " " << c.phase << "/" << c.name << " (" << seconds(c.durationMs) << ")"
                  << (c.message.isEmpty() ? QString() : QStringLiteral(": ") + c.message) << Qt::endl;
        else
            err() << "  running " << c.phase << "/" << c.name << Qt::endl;
    };
    req.events.cancelling = [&] {
        std::lock_guard lock(printing);
        err() << "proofbench: cancelling; deleting the run's Jobs and RBAC" << Qt::endl;
    };

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
        return why == ops::ValidateFailure::Refused ? usage(done.error().toString(), verb) : fail(done.error());
    const ops::ValidateOutcome& o = *done;
    if (!o.evidenceError.isEmpty())
        err() << "proofbench: evidence: " << o.evidenceError << Qt::endl;
    if (!o.signingError.isEmpty())
        err() << "proofbench: signing: " << o.signingError << Qt::endl;

    QJsonObject evidence;
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
    if (format == QLatin1String("json")) {
        QJsonObject j = runToJson(o.result);
        j.insert(QStringLiteral("id"), o.runRow);
        j.insert(QStringLiteral("recipe"), o.recipe.recipeName());
        j.insert(QStringLiteral("context"), o.context);
        j.insert(QStringLiteral("server"), o.server);
        if (!evidence.isEmpty())
            j.insert(QStringLiteral("evidence"), evidence);
        printJson(j);
    } else {
        printRunText(o.result);
        if (!evidence.isEmpty())
            out() << "evidence: " << evidence.value(QStringLiteral("bundle")).toString()
                  << (evidence.contains(QStringLiteral("pointer")) ? QStringLiteral(" (signed; pointer %1)").arg(evidence.value(QStringLiteral("pointer")).toString())
                                                                    : QString())
                  << '\n';
        out().flush();
    }
    return o.exitCode();
}

static int runsList(const QCommandLineParser& p) {
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<std::vector<RunSummary>> list = RunStore(**db).list(p.value(QStringLiteral("coordinate")));
    if (!list)
        return fail(list.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray a;
        for (const RunSummary& s : *list)
            a.append(QJsonObject{{QStringLiteral("id"), s.id},
                                 {QStringLiteral("runId"), s.runUid},
                                 {QStringLiteral("source"), s.source},
                                 {QStringLiteral("state"), s.state},
                                 {QStringLiteral("reason"), s.reason},
                                 {QStringLiteral("recipe"), s.recipeName},
                                 {QStringLiteral("coordinate"), s.coordinate},
                                 {QStringLiteral("context"), s.context},
                                 {QStringLiteral("started"), s.startedAt.toString(Qt::ISODate)},
                                 {QStringLiteral("checks"), s.checks},
                                 {QStringLiteral("passed"), s.passed},
                                 {QStringLiteral("failed"), s.failed},
                                 {QStringLiteral("skipped"), s.skipped},
                                 {QStringLiteral("other"), s.other},
                                 {QStringLiteral("leftovers"), s.leftovers}});
        printJson(a);
        return kOk;
    }
    out() << QStringLiteral("%1  %2  %3  %4  %5  %6\n").arg(QStringLiteral("ID"), -5).arg(QStringLiteral("STARTED"), -20)
                 .arg(QStringLiteral("STATE"), -17).arg(QStringLiteral("CHECKS"), -14).arg(QStringLiteral("SOURCE"), -8).arg(QStringLiteral("COORDINATE"));
    for (const RunSummary& s : *list)
        out() << QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                     .arg(s.id, -5)
                     .arg(s.startedAt.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), -20)
                     .arg(s.state, -17)
                     .arg(QStringLiteral("%1/%2 passed").arg(s.passed).arg(s.checks), -14)
                     .arg(s.source, -8)
                     .arg(s.coordinate);
    out().flush();
    return kOk;
}

static int runsShow(const QCommandLineParser& p) {
    bool ok = false;
    const qint64 id = p.positionalArguments().value(0).toLongLong(&ok);
    if (!ok)
        return usage(QStringLiteral("give the run's id (see 'proofbench runs list')"), QStringLiteral("runs show"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<StoredRun> run = RunStore(**db).load(id);
    if (!run)
        return fail(run.error());
    if (p.isSet(QStringLiteral("log"))) {
        const CheckRun* c = run->result.check(p.value(QStringLiteral("log")));
        if (!c)
            return fail(makeError(QStringLiteral("run %1 has no check '%2'").arg(id).arg(p.value(QStringLiteral("log")))));
        out().flush();
        std::fwrite(c->log.constData(), 1, size_t(c->log.size()), stdout);
        return kOk;
    }
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonObject o = runToJson(run->result);
        o.insert(QStringLiteral("id"), id);
        o.insert(QStringLiteral("source"), run->summary.source);
        o.insert(QStringLiteral("recipe"), run->summary.recipeName);
        o.insert(QStringLiteral("coordinate"), run->summary.coordinate);
        o.insert(QStringLiteral("context"), run->summary.context);
        o.insert(QStringLiteral("server"), run->summary.server);
        o.insert(QStringLiteral("evidence"), run->summary.evidenceDir);
        o.insert(QStringLiteral("state"), run->summary.state);
        printJson(o);
        return kOk;
    }
    out() << "run " << id << " (" << run->summary.source << ", " << run->summary.coordinate << ", "
          << run->summary.startedAt.toString(Qt::ISODate) << ")\n";
    if (!run->summary.context.isEmpty())
        out() << "cluster: " << run->summary.context << " " << run->summary.server << '\n';
    printRunText(run->result);
    return kOk;
}

static int runsLeftovers(const QCommandLineParser& p) {
    qint64 id = 0;
    if (!p.positionalArguments().isEmpty()) {
        bool ok = false;
        id = p.positionalArguments().front().toLongLong(&ok);
        if (!ok || id <= 0)
            return usage(QStringLiteral("give the run's id (see 'proofbench runs list')"), QStringLiteral("runs leftovers"));
    }
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<std::vector<RunLeftover>> left = RunStore(**db).leftovers(id, p.isSet(QStringLiteral("all")));
    if (!left)
        return fail(left.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray a;
        for (const RunLeftover& l : *left) {
            QJsonObject o{{QStringLiteral("run"), l.runId},          {QStringLiteral("runId"), l.runUid},
                          {QStringLiteral("context"), l.context},    {QStringLiteral("server"), l.server},
                          {QStringLiteral("path"), l.path},          {QStringLiteral("error"), l.error},
                          {QStringLiteral("recorded"), l.recordedAt.toString(Qt::ISODate)}};
            if (l.removedAt)
                o.insert(QStringLiteral("removed"), l.removedAt->toString(Qt::ISODate));
            a.append(o);
        }
        printJson(a);
        return kOk;
    }
    if (left->empty()) {
        out() << "no leftovers: every run's objects were deleted\n";
        return kOk;
    }
    for (const RunLeftover& l : *left)
        out() << "run " << l.runId << " (" << l.runUid << ", " << l.context << ")  " << l.path
              << (l.removedAt ? QStringLiteral("  removed %1").arg(l.removedAt->toString(Qt::ISODate))
                              : l.error.isEmpty() ? QString() : QStringLiteral("  (%1)").arg(l.error))
              << '\n';
    out().flush();
    return kOk;
}

static int runsCleanup(const QCommandLineParser& p) {
    bool ok = false;
    const qint64 id = p.positionalArguments().value(0).toLongLong(&ok);
    if (!ok || id <= 0)
        return usage(QStringLiteral("give the run's id (see 'proofbench runs leftovers')"), QStringLiteral("runs cleanup"));
    bool limitOk = false;
    const int limit = p.value(QStringLiteral("retry-limit")).toInt(&limitOk);
    if (!limitOk || limit <= 0 || limit > 86400)
        return usage(QStringLiteral("--retry-limit must be a number of seconds from 1 to 86400"), QStringLiteral("runs cleanup"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::CleanupRunRequest req;
    req.runRow = id;
    if (p.isSet(QStringLiteral("kubeconfig")))
        req.kubeconfigs = {p.value(QStringLiteral("kubeconfig"))};
    req.context = p.value(QStringLiteral("context"));
    req.retryLimitSec = limit;
    g_interrupted = false;
    auto previous = std::signal(SIGINT, onInterrupt);
    Result<ops::CleanupRunOutcome> done = ops::cleanupRun(ops::Context(**db, {}, &g_interrupted), req);
    std::signal(SIGINT, previous);
    if (!done)
        return fail(done.error());
    for (const QString& path : done->removed)
        out() << "deleted  " << path << '\n';
    for (const RunResult::Leftover& l : done->still)
        out() << "LEFT     " << l.path << "  (" << l.error << ")\n";
    if (done->removed.isEmpty() && done->still.empty())
        out() << "run " << id << " left nothing on the cluster\n";
    out().flush();
    return done->still.empty() ? kOk : kFailed;
}

static int perfImport(const QCommandLineParser& p) {
    const QString verb = QStringLiteral("perf import");
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give exactly one FILE"), verb);
    const std::optional<PerfKind> kind = perfKindFromName(p.value(QStringLiteral("kind")));
    if (!kind)
        return usage(QStringLiteral("--kind must be nccl, aiperf, genai-perf or inference-perf"), verb);
    const QString file = p.positionalArguments().constFirst();

    ops::PerfImportRequest req;
    req.file = file;
    req.kind = *kind;
    req.check = p.value(QStringLiteral("check"));
    req.coordinate = p.value(QStringLiteral("coordinate"));
    req.toolVersion = QCoreApplication::applicationVersion();
    if (p.isSet(QStringLiteral("at"))) {
        req.at = QDateTime::fromString(p.value(QStringLiteral("at")), Qt::ISODateWithMs);
        if (!req.at.isValid())
            return usage(QStringLiteral("--at expects an ISO 8601 time such as 2026-11-30T14:00:00Z, got '%1'").arg(p.value(QStringLiteral("at"))), verb);
        if (req.at.timeSpec() == Qt::LocalTime)
            req.at = req.at.toUTC();
    }
    if (p.isSet(QStringLiteral("recipe")) || p.isSet(QStringLiteral("catalog")) || p.isSet(QStringLiteral("version"))) {
        Result<RecipeChoice> choice = recipeFrom(p);
        if (!choice)
            return fail(choice.error());
        req.recipe = std::move(choice->recipe);
    }
    for (const QString& nv : p.values(QStringLiteral("constraint"))) {
        const int eq = nv.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return usage(QStringLiteral("--constraint expects NAME=VALUE, got '%1'").arg(nv), verb);
        Constraint c;
        c.name = nv.left(eq).trimmed();
        c.value = nv.mid(eq + 1).trimmed();
        std::erase_if(req.constraints, [&](const Constraint& x) { return x.name == c.name; });
        req.constraints.push_back(c);
    }

    Result<ops::PerfImportOutcome> done = [&]() -> Result<ops::PerfImportOutcome> {
        if (p.isSet(QStringLiteral("no-store")))
            return ops::scorePerfFile(req);
        Result<std::unique_ptr<Database>> db = openDb(p);
        if (!db)
            return db.error();
        return ops::perfImport(ops::Context(**db), req);
    }();
    if (!done)
        return fail(done.error());
    const CheckRun& check = done->check;
    const qint64 id = done->runRow;
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonObject o = checkToJson(check);
        o.insert(QStringLiteral("file"), QFileInfo(file).absoluteFilePath());
        o.insert(QStringLiteral("kind"), perfKindName(*kind));
        o.insert(QStringLiteral("measuredAt"), done->timeSource == QLatin1String("unknown") ? QString() : check.started.toString(Qt::ISODate));
        o.insert(QStringLiteral("timeSource"), done->timeSource);
        if (id)
            o.insert(QStringLiteral("run"), id);
        printJson(o);
    } else {
        out() << file << " (" << perfKindName(*kind) << ")\n";
        out() << "measured: "
              << (done->timeSource == QLatin1String("unknown") ? QStringLiteral("unknown (the report does not say; give --at)")
                                                                : QStringLiteral("%1 (%2)").arg(check.started.toString(Qt::ISODate),
                                                                                                 done->timeSource == QLatin1String("given")
                                                                                                     ? QStringLiteral("--at")
                                                                                                     : QStringLiteral("from the report")))
              << '\n';
        if (check.nccl) {
            const NcclResult& n = *check.nccl;
            out() << "  rows " << n.rows.size() << ", sizes " << n.rows.front().sizeBytes << ".." << n.lastSizeBytes() << " B"
                  << (n.ranks ? QStringLiteral(", %1 ranks").arg(n.ranks) : QString()) << '\n'
                  << "  busbw of the largest size (out-of-place): " << QString::number(n.lastOopBusBw(), 'f', 2) << " GB/s\n"
                  << "  peak busbw: " << QString::number(n.peakBusBw(), 'f', 2) << " GB/s\n"
                  << "  average busbw: "
                  << (n.footerAvgBusBw ? QString::number(*n.footerAvgBusBw, 'g', 6) + QStringLiteral(" (footer)")
                                       : QString::number(n.computedAvgBusBw, 'f', 3) + QStringLiteral(" (computed; the log has no footer)"))
                  << '\n';
            if (!n.netPlugin.isEmpty() || n.nvlsComm)
                out() << "  transport: " << (n.netPlugin.isEmpty() ? QStringLiteral("-") : n.netPlugin) << (n.nvlsComm ? ", NVLS" : "") << '\n';
        }
        if (check.inference) {
            const InferenceResult& r = *check.inference;
            auto num = [](const std::optional<double>& v, const char* unit) {
                return v ? QString::number(*v, 'f', 2) + QLatin1Char(' ') + QLatin1String(unit) : QStringLiteral("-");
            };
            out() << "  format " << r.format << '\n'
                  << "  output throughput " << num(r.outputTokensPerSec, "tokens/s") << '\n'
                  << "  TTFT p50 " << num(r.ttftMs.p50, "ms") << ", p90 " << num(r.ttftMs.p90, "ms") << ", p99 " << num(r.ttftMs.p99, "ms") << '\n'
                  << "  ITL avg " << num(r.itlMs.avg, "ms") << ", request latency p99 " << num(r.requestLatencyMs.p99, "ms") << '\n';
        }
        for (const ScoredMetric& m : check.score->metrics)
            out() << "  " << m.name << " = " << QString::number(m.measured, 'f', 2) << ' ' << m.unit
                  << (m.threshold ? QStringLiteral(" against %1 (passes at %2 %3): %4")
                                        .arg(m.threshold->written, m.threshold->op, QString::number(m.threshold->effective(), 'f', 2),
                                             m.pass ? QStringLiteral("pass") : QStringLiteral("FAIL"))
                                  : QStringLiteral(" (no threshold)"))
                  << '\n';
        out() << "  verdict: " << verdictName(check.score->verdict) << " - " << check.score->message << '\n';
        if (id)
            out() << "  stored as run " << id << '\n';
        out().flush();
    }
    return check.state == CheckState::Failed ? kFailed : kOk;
}

} // namespace

// ---- declarations ------------------------------------------------------------------------------

Command validateCommand() {
    Command p(QStringLiteral("validate"), QStringLiteral("run a recipe's validation phases on a cluster (kubeconfig) and write the evidence"),
              QStringLiteral("Run a recipe's validation phases on a cluster, as aicr validate does, and write the evidence."));
    addDb(p);
    p.addOption({QStringLiteral("kubeconfig"), QStringLiteral("kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("context"), QStringLiteral("kubeconfig context (default: its current-context)."), QStringLiteral("C")});
    p.addOption({{QStringLiteral("n"), QStringLiteral("namespace")}, QStringLiteral("Namespace for the validation Jobs (default aicr-validation)."),
                 QStringLiteral("NS"), QStringLiteral("aicr-validation")});
    p.addOption({QStringLiteral("catalog"), QStringLiteral("Resolve the recipe from a catalog directory."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("version"), QStringLiteral("Resolve the recipe from an imported catalog version."), QStringLiteral("LABEL")});
    addCriteriaOptions(p);
    p.addOption({QStringLiteral("recipe"), QStringLiteral("A RecipeResult file to validate instead of criteria."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("phase"), QStringLiteral("deployment, conformance, performance or all (repeatable; default all)."), QStringLiteral("PHASE")});
    p.addOption({QStringLiteral("key"), QStringLiteral("Sign the evidence bundle with this private key."), QStringLiteral("KEY")});
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("out"), QStringLiteral("Directory for the evidence summary bundle and pointer."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("image-registry"), QStringLiteral("Replace the validator images' registry (AICR_VALIDATOR_IMAGE_REGISTRY)."),
                 QStringLiteral("REGISTRY")});
    p.addOption({QStringLiteral("no-cleanup"), QStringLiteral("Keep the Jobs, ConfigMaps and RBAC after the run.")});
    p.addOption({QStringLiteral("sign-incomplete"),
                 QStringLiteral("With --key: sign even a run a cluster fault left incomplete (the statement and pointer say so).")});
    p.addOption({QStringLiteral("pending-limit"),
                 QStringLiteral("Seconds a check's pod may stay Pending, Unschedulable or in image pull before the check is 'other' "
                                "(default 600, 120, 60)."),
                 QStringLiteral("SEC")});
    p.addOption({QStringLiteral("retry-limit"),
                 QStringLiteral("Seconds to retry an API that does not answer, and the cleanup, before giving up (default 60)."),
                 QStringLiteral("SEC")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = validateVerb;
    return p;
}

Command runsListCommand() {
    Command p(QStringLiteral("runs list"), QStringLiteral("validation runs and imported performance results, newest first"),
              QStringLiteral("List validation runs and imported results, newest first."));
    addDb(p);
    p.addOption({QStringLiteral("coordinate"), QStringLiteral("Only runs of this recipe coordinate."), QStringLiteral("NAME")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = runsList;
    return p;
}

Command runsShowCommand() {
    Command p(QStringLiteral("runs show"), QStringLiteral("one run's checks, metrics and reason (or one check's log)"),
              QStringLiteral("Show one run: its checks, metrics and reason."));
    addDb(p);
    p.addOption({QStringLiteral("log"), QStringLiteral("Print this check's full log instead.") , QStringLiteral("CHECK")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("RUN"), QStringLiteral("The run's id (see 'proofbench runs list')."));
    p.handler = runsShow;
    return p;
}

Command runsLeftoversCommand() {
    Command p(QStringLiteral("runs leftovers"), QStringLiteral("what validation runs could not delete from the cluster"),
              QStringLiteral("List what validation runs could not delete from the cluster (optionally of one RUN)."));
    addDb(p);
    p.addOption({QStringLiteral("all"), QStringLiteral("Also list what 'runs cleanup' already deleted.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("RUN"), QStringLiteral("Only this run's leftovers (default: every run's)."), QStringLiteral("[RUN]"));
    p.handler = runsLeftovers;
    return p;
}

Command runsCleanupCommand() {
    Command p(QStringLiteral("runs cleanup"), QStringLiteral("delete what a validation run left on the cluster"),
              QStringLiteral("Delete what a validation run left on the cluster (see 'proofbench runs leftovers')."));
    addDb(p);
    p.addOption({QStringLiteral("kubeconfig"), QStringLiteral("kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("context"), QStringLiteral("kubeconfig context (default: the run's)."), QStringLiteral("C")});
    p.addOption({QStringLiteral("retry-limit"), QStringLiteral("Seconds to keep retrying (default 60)."), QStringLiteral("SEC"), QStringLiteral("60")});
    p.addPositionalArgument(QStringLiteral("RUN"), QStringLiteral("The run's id (see 'proofbench runs leftovers')."));
    p.handler = runsCleanup;
    return p;
}

Command perfImportCommand() {
    Command p(QStringLiteral("perf import"), QStringLiteral("parse and score an nccl-tests log or an AIPerf / GenAI-Perf / inference-perf report"),
              QStringLiteral("Parse and score an nccl-tests log or an inference benchmark report, and keep it as a run."));
    addDb(p);
    p.addOption({QStringLiteral("kind"), QStringLiteral("nccl, aiperf, genai-perf or inference-perf."), QStringLiteral("KIND")});
    p.addOption({QStringLiteral("coordinate"), QStringLiteral("The recipe coordinate the run belongs to (history groups by it)."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("check"), QStringLiteral("Check name to score as (default nccl-all-reduce-bw, or inference-perf)."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("constraint"), QStringLiteral("A threshold, as a recipe writes it (repeatable), e.g. nccl-all-reduce-bw='>= 300'."),
                 QStringLiteral("NAME=VALUE")});
    p.addOption({QStringLiteral("recipe"), QStringLiteral("Take the thresholds from this RecipeResult file."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("catalog"), QStringLiteral("Take the thresholds from the recipe these criteria resolve to in a catalog directory."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("version"), QStringLiteral("... or in an imported catalog version."), QStringLiteral("LABEL")});
    addCriteriaOptions(p);
    p.addOption({QStringLiteral("no-store"), QStringLiteral("Only print the scored figures; do not keep the run.")});
    p.addOption({QStringLiteral("at"),
                 QStringLiteral("When the measurement was made (ISO 8601, e.g. 2026-11-30T14:00:00Z); default: the time the report "
                                "records, else unknown (never the file's modification time)."),
                 QStringLiteral("TIME")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The nccl-tests log or the benchmark report."));
    p.require({QStringLiteral("kind")});
    p.handler = perfImport;
    return p;
}

} // namespace pb::cli
