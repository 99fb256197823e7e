// proofbench diff: what changed between two catalogs, for one recipe or every leaf
#include "cli/CatalogSupport.h"

namespace pb::cli {

// ---- diff ---------------------------------------------------------------------------------------

static int diffVerb(const QCommandLineParser& p) {
    if (!p.isSet(QStringLiteral("from")) || !p.isSet(QStringLiteral("to")))
        return usage(QStringLiteral("--from and --to are required"), QStringLiteral("diff"));
    const bool all = p.isSet(QStringLiteral("all-leaves"));
    if (all == (anyCriteria(p) || anyCriteria(p, QStringLiteral("to-"))))
        return usage(QStringLiteral("give criteria flags or --all-leaves (not both)"),
                     QStringLiteral("diff"));
    const QString format = p.value(QStringLiteral("format"));
    if (!QStringList{QStringLiteral("text"), QStringLiteral("markdown"), QStringLiteral("json")}.contains(
            format))
        return usage(QStringLiteral("unknown --format '%1' (expected text, markdown or json)").arg(format),
                     QStringLiteral("diff"));
    Result<DiffOptions> options = diffOptionsFrom(p);
    if (!options)
        return usage(options.error().message, QStringLiteral("diff"));
    ops::DiffRequest request;
    request.from.spec = p.value(QStringLiteral("from"));
    request.to.spec = p.value(QStringLiteral("to"));
    request.allLeaves = all;
    request.options = *options;
    if (!all) {
        Result<ResolveOptions> opt = resolveOptionsFrom(p);
        if (!opt)
            return usage(opt.error().message, QStringLiteral("diff"));
        ops::RecipeQuery from, to;
        from.criteria = criteriaFlags(p);
        to.criteria = criteriaFlags(p, QStringLiteral("to-"));
        from.profiles = to.profiles = opt->profiles;
        request.fromQuery = from;
        request.toQuery = to;
    }
    // A side that is not a folder is a catalog version: only then is the database opened.
    std::unique_ptr<Database> db;
    if (!QFileInfo(request.from.spec).isDir() || !QFileInfo(request.to.spec).isDir()) {
        Result<std::unique_ptr<Database>> opened = openDb(p);
        if (!opened)
            return fail(opened.error());
        db = std::move(*opened);
    }
    Result<ops::DiffResult> d = ops::diff(db.get(), request);
    if (!d)
        return fail(d.error());
    Result<QByteArray> bytes = d->render(format);
    if (!bytes)
        return fail(bytes.error());
    return writeOutput(p, *bytes) ? kOk : kFailed;
}

Command diffCommand() {
    Command p(
        QStringLiteral("diff"),
        QStringLiteral("what changed between two catalogs, for one recipe or every leaf"),
        QStringLiteral("What changed between two catalogs: one recipe (criteria flags, optionally "
                       "different --to-* criteria) or every leaf (--all-leaves). Every value is printed "
                       "in full; recipes are identified by their evidence digest (the one evidence binds "
                       "to) and parity digest (AICR's catalog-parity golden). Exit 0 whether or not there "
                       "are differences; the output says."));
    addDb(p);
    p.addOption({QStringLiteral("from"), QStringLiteral("Older catalog: a directory or a version label."),
                 QStringLiteral("DIR|LABEL")});
    p.addOption({QStringLiteral("to"), QStringLiteral("Newer catalog: a directory or a version label."),
                 QStringLiteral("DIR|LABEL")});
    addCriteriaOptions(p);
    addCriteriaOptions(p, QStringLiteral("to-"));
    p.addOption(
        {QStringLiteral("all-leaves"),
         QStringLiteral("Compare the whole catalogs: document formats (apiVersion), overlays, mixins, "
                        "registry, validator checks, and every leaf recipe's evidence digest.")});
    p.addOption(
        {QStringLiteral("ignore"),
         QStringLiteral("Hide a kind of change: version-only = image/chart tags that only follow the catalog "
                        "version (old tag = the --from version's label, new tag = the --to version's label, "
                        "a leading v aside), e.g. validator images :sample-1 -> :sample-2."),
         QStringLiteral("version-only")});
    addFormat(p, QStringLiteral("text|markdown|json"), QStringLiteral("text"));
    p.addOption({QStringList{QStringLiteral("o"), QStringLiteral("output")},
                 QStringLiteral("Write to FILE instead of standard output."), QStringLiteral("FILE")});
    p.handler = diffVerb;
    return p;
}

} // namespace pb::cli
