// proofbench runs leftovers: what validation runs could not delete from the cluster
#include "cli/ValidationSupport.h"

namespace pb::cli {

static int runsLeftovers(const QCommandLineParser& p) {
    if (p.positionalArguments().size() > 1)
        return usage(QStringLiteral("give at most one run's id (see 'proofbench runs list')"),
                     QStringLiteral("runs leftovers"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    qint64 id = 0;
    if (!p.positionalArguments().isEmpty()) {
        Result<qint64> found = RunStore(**db).findRun(p.positionalArguments().constFirst());
        if (!found)
            return fail(found.error());
        id = *found;
    }
    Result<std::vector<RunLeftover>> left = RunStore(**db).leftovers(id, p.isSet(QStringLiteral("all")));
    if (!left)
        return fail(left.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray a;
        for (const RunLeftover& l : *left) {
            QJsonObject o{{QStringLiteral("run"), l.runUid},
                          {QStringLiteral("context"), l.context},
                          {QStringLiteral("server"), l.server},
                          {QStringLiteral("path"), l.path},
                          {QStringLiteral("error"), l.error},
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
        out() << "run " << l.runUid << " (" << l.context << ")  " << l.path
              << (l.removedAt         ? QStringLiteral("  removed %1").arg(l.removedAt->toString(Qt::ISODate))
                  : l.error.isEmpty() ? QString()
                                      : QStringLiteral("  (%1)").arg(l.error))
              << '\n';
    out().flush();
    return kOk;
}

Command runsLeftoversCommand() {
    Command p(QStringLiteral("runs leftovers"),
              QStringLiteral("what validation runs could not delete from the cluster"),
              QStringLiteral(
                  "List what validation runs could not delete from the cluster (optionally of one RUN)."));
    addDb(p);
    p.addOption({QStringLiteral("all"), QStringLiteral("Also list what 'runs cleanup' already deleted.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("RUN"),
                            QStringLiteral("Only this run's leftovers (default: every run's)."),
                            QStringLiteral("[RUN]"));
    p.handler = runsLeftovers;
    return p;
}

} // namespace pb::cli
