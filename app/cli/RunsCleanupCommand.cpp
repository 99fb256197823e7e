// proofbench runs cleanup: delete what a validation run left on the cluster
#include "cli/ValidationSupport.h"

namespace pb::cli {

static int runsCleanup(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give the run's id (see 'proofbench runs leftovers')"),
                     QStringLiteral("runs cleanup"));
    const QString runName = p.positionalArguments().constFirst();
    bool limitOk = false;
    const int limit = p.value(QStringLiteral("retry-limit")).toInt(&limitOk);
    if (!limitOk || limit <= 0 || limit > 86400)
        return usage(QStringLiteral("--retry-limit must be a number of seconds from 1 to 86400"),
                     QStringLiteral("runs cleanup"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<qint64> id = RunStore(**db).findRun(runName);
    if (!id)
        return fail(id.error());
    ops::CleanupRunRequest req;
    req.runRow = *id;
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
        out() << "run " << runName << " left nothing on the cluster\n";
    out().flush();
    return done->still.empty() ? kOk : kFailed;
}

Command runsCleanupCommand() {
    Command p(QStringLiteral("runs cleanup"),
              QStringLiteral("delete what a validation run left on the cluster"),
              QStringLiteral(
                  "Delete what a validation run left on the cluster (see 'proofbench runs leftovers')."));
    addDb(p);
    p.addOption({QStringLiteral("kubeconfig"),
                 QStringLiteral("kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("context"), QStringLiteral("kubeconfig context (default: the run's)."),
                 QStringLiteral("C")});
    p.addOption({QStringLiteral("retry-limit"), QStringLiteral("Seconds to keep retrying (default 60)."),
                 QStringLiteral("SEC"), QStringLiteral("60")});
    p.addPositionalArgument(QStringLiteral("RUN"),
                            QStringLiteral("The run's id (see 'proofbench runs leftovers')."));
    p.handler = runsCleanup;
    return p;
}

} // namespace pb::cli
