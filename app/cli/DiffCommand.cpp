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
    const QString fromSpec = p.value(QStringLiteral("from")), toSpec = p.value(QStringLiteral("to"));
    Result<Catalog> from = catalogFromSpec(fromSpec, p);
    if (!from)
        return fail(from.error());
    Result<Catalog> to = catalogFromSpec(toSpec, p);
    if (!to)
        return fail(to.error());
    const bool fromSample = isSampleCatalog(*from, fromSpec, p), toSample = isSampleCatalog(*to, toSpec, p);
    QByteArray bytes;
    if (all) {
        CatalogDiff d = diffCatalogs(*from, *to, fromSpec, toSpec);
        d.fromSample = fromSample;
        d.toSample = toSample;
        bytes = format == QLatin1String("json")
                    ? QJsonDocument(toJson(d, *options)).toJson(QJsonDocument::Indented)
                : format == QLatin1String("markdown") ? toMarkdown(d, *options).toUtf8()
                                                      : toText(d, *options).toUtf8();
    } else {
        Result<ResolveOptions> opt = resolveOptionsFrom(p);
        if (!opt)
            return usage(opt.error().message, QStringLiteral("diff"));
        Result<Criteria> qa = criteriaFrom(p, *from);
        if (!qa)
            return fail(qa.error());
        Result<Criteria> qb = criteriaFrom(p, *to, QStringLiteral("to-"));
        if (!qb)
            return fail(qb.error());
        Result<RecipeResult> ra = resolve(*from, *qa, *opt);
        if (!ra)
            return fail(makeError(QStringLiteral("%1: %2").arg(fromSpec, ra.error().toString())));
        Result<RecipeResult> rb = resolve(*to, *qb, *opt);
        if (!rb)
            return fail(makeError(QStringLiteral("%1: %2").arg(toSpec, rb.error().toString())));
        RecipeDiff d = diffRecipes(*ra, *rb, fromSpec, toSpec);
        d.fromSample = fromSample;
        d.toSample = toSample;
        bytes = format == QLatin1String("json")
                    ? QJsonDocument(toJson(d, *options)).toJson(QJsonDocument::Indented)
                : format == QLatin1String("markdown") ? toMarkdown(d, *options).toUtf8()
                                                      : toText(d, *options).toUtf8();
    }
    return writeOutput(p, bytes) ? kOk : kFailed;
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
