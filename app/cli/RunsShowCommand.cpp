// proofbench runs show: one run's checks, metrics and reason (or one check's log)
#include "cli/ValidationSupport.h"

#include <QFileInfo>
#include <QSaveFile>

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
    if (p.isSet(QStringLiteral("source"))) {
        // The file an import was parsed from, as it was kept (its SHA-256 checked on the way out).
        Result<QString> digest = RunStore(**db).sourceDigest(*row);
        if (!digest)
            return fail(digest.error());
        if (digest->isEmpty())
            return fail(makeError(QStringLiteral("run %1 keeps no source file (only perf imports do, since "
                                                 "this version)")
                                      .arg(run->summary.runUid)));
        const QString target = p.value(QStringLiteral("source"));
        if (QFileInfo::exists(target))
            return fail(makeError(QStringLiteral("already exists; choose a new file name"), target));
        QSaveFile file(target);
        if (!file.open(QIODevice::WriteOnly))
            return fail(makeError(file.errorString(), target));
        if (Status s = RunStore(**db).readSource(*digest, file); !s)
            return fail(s.error());
        if (!file.commit())
            return fail(makeError(file.errorString(), target));
        err() << "wrote " << target << " (" << *digest << ")" << Qt::endl;
        return kOk;
    }
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
        if (Result<QString> digest = RunStore(**db).sourceDigest(*row); digest && !digest->isEmpty())
            o.insert(QStringLiteral("sourceDigest"), *digest);
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
    p.addOption(
        {QStringLiteral("source"),
         QStringLiteral("Write the file a perf import was parsed from (kept in the database) to FILE."),
         QStringLiteral("FILE")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(
        QStringLiteral("RUN"),
        QStringLiteral("The run's id, or its first characters (see 'proofbench runs list')."));
    p.handler = runsShow;
    return p;
}

} // namespace pb::cli
