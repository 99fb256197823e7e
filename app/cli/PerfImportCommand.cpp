// proofbench perf import: parse and score an nccl-tests log or an AIPerf / GenAI-Perf / inference-perf report
#include "cli/ValidationSupport.h"
#include "validation/Score.h"

namespace pb::cli {

namespace {

void printPerfJson(const QString& file, PerfKind kind, const ops::PerfImportOutcome& done) {
    const CheckRun& check = done.check;
    const qint64 id = done.runRow;
    QJsonObject o = checkToJson(check);
    o.insert(QStringLiteral("file"), QFileInfo(file).absoluteFilePath());
    o.insert(QStringLiteral("kind"), perfKindName(kind));
    o.insert(QStringLiteral("measuredAt"),
             done.timeSource == QLatin1String("unknown") ? QString() : check.started.toString(Qt::ISODate));
    o.insert(QStringLiteral("timeSource"), done.timeSource);
    if (!done.naiveTime.isEmpty())
        o.insert(QStringLiteral("reportTimeWithoutZone"), done.naiveTime);
    if (id)
        o.insert(QStringLiteral("run"), done.run.runId); // the run's one id (runs show takes it)
    if (!done.sourceDigest.isEmpty())
        o.insert(QStringLiteral("sourceDigest"), done.sourceDigest);
    if (check.nccl) {
        o.insert(QStringLiteral("rowsRead"), double(check.nccl->rowsRead));
        o.insert(QStringLiteral("rowsKept"), int(check.nccl->rows.size()));
    }
    printJson(o);
}

void printNcclText(const NcclResult& n) {
    out() << "  rows " << n.rows.size() << ", sizes " << n.rows.front().sizeBytes << ".." << n.lastSizeBytes()
          << " B" << (n.ranks ? QStringLiteral(", %1 ranks").arg(n.ranks) : QString()) << '\n';
    if (const QString kept = n.keptNote(); !kept.isEmpty())
        out() << "  " << kept << '\n';
    out() << "  busbw of the largest size (out-of-place): " << QString::number(n.lastOopBusBw(), 'f', 2)
          << " GB/s\n"
          << "  peak busbw: " << QString::number(n.peakBusBw(), 'f', 2) << " GB/s\n"
          << "  average busbw: "
          << (n.footerAvgBusBw ? QString::number(*n.footerAvgBusBw, 'g', 6) + QStringLiteral(" (footer)")
                               : QString::number(n.computedAvgBusBw, 'f', 3) +
                                     QStringLiteral(" (computed; the log has no footer)"))
          << '\n';
    if (!n.netPlugin.isEmpty() || n.nvlsComm)
        out() << "  transport: " << (n.netPlugin.isEmpty() ? QStringLiteral("-") : n.netPlugin)
              << (n.nvlsComm ? ", NVLS" : "") << '\n';
}

void printInferenceText(const InferenceResult& r) {
    auto num = [](const std::optional<double>& v, const char* unit) {
        return v ? QString::number(*v, 'f', 2) + QLatin1Char(' ') + QLatin1String(unit) : QStringLiteral("-");
    };
    out() << "  format " << r.format << '\n'
          << "  output throughput " << num(r.outputTokensPerSec, "tokens/s") << '\n'
          << "  TTFT p50 " << num(r.ttftMs.p50, "ms") << ", p90 " << num(r.ttftMs.p90, "ms") << ", p99 "
          << num(r.ttftMs.p99, "ms") << '\n'
          << "  ITL avg " << num(r.itlMs.avg, "ms") << ", request latency p99 "
          << num(r.requestLatencyMs.p99, "ms") << '\n';
}

// Each scored metric against its threshold, and the verdict.
void printScoreText(const CheckRun& check) {
    for (const ScoredMetric& m : check.score->metrics)
        out() << "  " << m.name << " = " << QString::number(m.measured, 'f', 2) << ' ' << m.unit
              << (m.threshold ? QStringLiteral(" against %1 (passes at %2 %3): %4")
                                    .arg(m.threshold->written, m.threshold->op,
                                         QString::number(m.threshold->effective(), 'f', 2),
                                         m.pass ? QStringLiteral("pass") : QStringLiteral("FAIL"))
                              : QStringLiteral(" (no threshold)"))
              << '\n';
    out() << "  verdict: " << verdictName(check.score->verdict) << " - " << check.score->message << '\n';
}

void printPerfText(const QString& file, PerfKind kind, const ops::PerfImportOutcome& done) {
    const CheckRun& check = done.check;
    out() << file << " (" << perfKindName(kind) << ")\n";
    out() << "measured: "
          << (done.timeSource == QLatin1String("unknown")
                  ? (done.naiveTime.isEmpty()
                         ? QStringLiteral("unknown (the report does not say; give --at)")
                         : QStringLiteral("unknown: the report says %1 with no time zone (the writer's local "
                                          "time, which it does not name); give --at")
                               .arg(done.naiveTime))
                  : QStringLiteral("%1 (%2)").arg(check.started.toString(Qt::ISODate),
                                                  done.timeSource == QLatin1String("given")
                                                      ? QStringLiteral("--at")
                                                      : QStringLiteral("from the report")))
          << '\n';
    if (check.nccl)
        printNcclText(*check.nccl);
    if (check.inference)
        printInferenceText(*check.inference);
    printScoreText(check);
    if (done.runRow)
        out() << "  stored as run " << done.run.runId << '\n';
    out().flush();
}

} // namespace

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
            return usage(
                QStringLiteral("--at expects an ISO 8601 time such as 2026-11-30T14:00:00Z, got '%1'")
                    .arg(p.value(QStringLiteral("at"))),
                verb);
        if (req.at.timeSpec() == Qt::LocalTime)
            req.at = req.at.toUTC();
    }
    if (p.isSet(QStringLiteral("recipe")) || p.isSet(QStringLiteral("catalog")) ||
        p.isSet(QStringLiteral("version"))) {
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
        // A threshold that cannot be scored is a malformed request: refused, nothing stored.
        if (const std::optional<QString> problem = validation::thresholdProblem(c))
            return usage(QStringLiteral("--constraint %1").arg(*problem), verb);
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
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printPerfJson(file, *kind, *done);
    else
        printPerfText(file, *kind, *done);
    return done->check.state == CheckState::Failed ? kFailed : kOk;
}

Command perfImportCommand() {
    Command p(
        QStringLiteral("perf import"),
        QStringLiteral("parse and score an nccl-tests log or an AIPerf / GenAI-Perf / inference-perf report"),
        QStringLiteral(
            "Parse and score an nccl-tests log or an inference benchmark report, and keep it as a run."));
    addDb(p);
    p.addOption({QStringLiteral("kind"), QStringLiteral("nccl, aiperf, genai-perf or inference-perf."),
                 QStringLiteral("KIND")});
    p.addOption({QStringLiteral("coordinate"),
                 QStringLiteral("The recipe coordinate the run belongs to (history groups by it)."),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("check"),
                 QStringLiteral("Check name to score as (default nccl-all-reduce-bw, or inference-perf)."),
                 QStringLiteral("NAME")});
    p.addOption(
        {QStringLiteral("constraint"),
         QStringLiteral("A threshold, as a recipe writes it (repeatable), e.g. nccl-all-reduce-bw='>= 300'."),
         QStringLiteral("NAME=VALUE")});
    p.addOption({QStringLiteral("recipe"), QStringLiteral("Take the thresholds from this RecipeResult file."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("catalog"),
                 QStringLiteral(
                     "Take the thresholds from the recipe these criteria resolve to in a catalog directory."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("version"), QStringLiteral("... or in an imported catalog version."),
                 QStringLiteral("LABEL")});
    addCriteriaOptions(p);
    p.addOption(
        {QStringLiteral("no-store"), QStringLiteral("Only print the scored figures; do not keep the run.")});
    p.addOption({QStringLiteral("at"),
                 QStringLiteral("When the measurement was made (ISO 8601, e.g. 2026-11-30T14:00:00Z); "
                                "default: the time the report "
                                "records, else unknown (never the file's modification time)."),
                 QStringLiteral("TIME")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("FILE"),
                            QStringLiteral("The nccl-tests log or the benchmark report."));
    p.require({QStringLiteral("kind")});
    p.handler = perfImport;
    return p;
}

} // namespace pb::cli
