// proofbench runs show: one run's checks, metrics and reason (or one check's log)
#include "cli/ValidationSupport.h"

namespace pb::cli {

static int runsShow(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give the run's id (see 'proofbench runs list')"),
                     QStringLiteral("runs show"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<qint64> row = RunStore(**db).findRun(p.positionalArguments().constFirst());
    if (!row)
        return fail(row.error());
    Result<StoredRun> run = RunStore(**db).load(*row);
    if (!run)
        return fail(run.error());
    if (p.isSet(QStringLiteral("log"))) {
        const CheckRun* c = run->result.check(p.value(QStringLiteral("log")));
        if (!c)
            return fail(makeError(QStringLiteral("run %1 has no check '%2'")
                                      .arg(run->summary.runUid, p.value(QStringLiteral("log")))));
        out().flush();
        std::fwrite(c->log.constData(), 1, size_t(c->log.size()), stdout);
        return kOk;
    }
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonObject o = runToJson(run->result);
        o.insert(QStringLiteral("id"), run->summary.runUid);
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
    out() << "run " << run->summary.runUid << " (" << run->summary.source << ", " << run->summary.coordinate
          << ", " << run->summary.startedAt.toString(Qt::ISODate) << ")\n";
    if (!run->summary.context.isEmpty())
        out() << "cluster: " << run->summary.context << " " << run->summary.server << '\n';
    printRunText(run->result);
    return kOk;
}

Command runsShowCommand() {
    Command p(QStringLiteral("runs show"),
              QStringLiteral("one run's checks, metrics and reason (or one check's log)"),
              QStringLiteral("Show one run: its checks, metrics and reason."));
    addDb(p);
    p.addOption({QStringLiteral("log"), QStringLiteral("Print this check's full log instead."),
                 QStringLiteral("CHECK")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(
        QStringLiteral("RUN"),
        QStringLiteral("The run's id, or its first characters (see 'proofbench runs list')."));
    p.handler = runsShow;
    return p;
}

} // namespace pb::cli
