// proofbench runs list: validation runs and imported performance results, newest first
#include "cli/ValidationSupport.h"

namespace pb::cli {

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
            a.append(QJsonObject{{QStringLiteral("id"), s.runUid},
                                 {QStringLiteral("source"), s.source},
                                 {QStringLiteral("state"), s.state},
                                 {QStringLiteral("reason"), s.reason},
                                 {QStringLiteral("recipe"), s.recipeName},
                                 {QStringLiteral("coordinate"), s.coordinate},
                                 {QStringLiteral("context"), s.context},
                                 {QStringLiteral("started"),
                                  s.timeKnown ? QJsonValue(s.startedAt.toString(Qt::ISODate)) : QJsonValue()},
                                 {QStringLiteral("timeKnown"), s.timeKnown},
                                 // the time the run was imported, when that is all that is known
                                 {QStringLiteral("importedAt"),
                                  s.timeKnown ? QJsonValue() : QJsonValue(s.startedAt.toString(Qt::ISODate))},
                                 {QStringLiteral("checks"), s.checks},
                                 {QStringLiteral("passed"), s.passed},
                                 {QStringLiteral("failed"), s.failed},
                                 {QStringLiteral("skipped"), s.skipped},
                                 {QStringLiteral("other"), s.other},
                                 {QStringLiteral("leftovers"), s.leftovers}});
        printJson(a);
        return kOk;
    }
    out() << QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                 .arg(QStringLiteral("ID"), -8)
                 .arg(QStringLiteral("STARTED"), -20)
                 .arg(QStringLiteral("STATE"), -17)
                 .arg(QStringLiteral("CHECKS"), -14)
                 .arg(QStringLiteral("SOURCE"), -8)
                 .arg(QStringLiteral("COORDINATE"));
    for (const RunSummary& s : *list)
        out() << QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                     .arg(s.runUid, -8)
                     .arg(s.timeKnown ? s.startedAt.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                                      : QStringLiteral("unknown"),
                          -20)
                     .arg(s.state, -17)
                     .arg(QStringLiteral("%1/%2 passed").arg(s.passed).arg(s.checks), -14)
                     .arg(s.source, -8)
                     .arg(s.coordinate);
    out().flush();
    return kOk;
}

Command runsListCommand() {
    Command p(QStringLiteral("runs list"),
              QStringLiteral("validation runs and imported performance results, newest first"),
              QStringLiteral("List validation runs and imported results, newest first (imports of unknown "
                             "measurement time last)."));
    addDb(p);
    p.addOption({QStringLiteral("coordinate"), QStringLiteral("Only runs of this recipe coordinate."),
                 QStringLiteral("NAME")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = runsList;
    return p;
}

} // namespace pb::cli
