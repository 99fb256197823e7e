// proofbench graph: a recipe's component graph, laid out by Graphviz (dot, svg, png, json)
#include "cli/CatalogSupport.h"

namespace pb::cli {

// ---- graph --------------------------------------------------------------------------------------

static int graphVerb(const QCommandLineParser& p) {
    const QString format = p.value(QStringLiteral("format"));
    if (!QStringList{QStringLiteral("dot"), QStringLiteral("svg"), QStringLiteral("png"),
                     QStringLiteral("json")}
             .contains(format))
        return usage(QStringLiteral("unknown --format '%1' (expected dot, svg, png or json)").arg(format),
                     QStringLiteral("graph"));
    Result<ResolveOptions> opt = resolveOptionsFrom(p);
    if (!opt)
        return usage(opt.error().message, QStringLiteral("graph"));
    Result<ops::CatalogRef> ref = catalogRefFrom(p);
    if (!ref)
        return fail(ref.error());
    // Only a catalog version is read from the database: `graph --catalog DIR` opens none.
    std::unique_ptr<Database> db;
    if (ref->kind == ops::CatalogRef::Kind::Version) {
        Result<std::unique_ptr<Database>> opened = openDb(p);
        if (!opened)
            return fail(opened.error());
        db = std::move(*opened);
    }
    ops::RecipeQuery query;
    query.criteria = criteriaFlags(p);
    query.profiles = opt->profiles;
    Result<ops::ResolvedRecipe> resolved = ops::resolveRecipe(db.get(), ops::ResolveRequest{*ref, query});
    if (!resolved)
        return fail(resolved.error());
    const RecipeResult& r = resolved->recipe;
    QByteArray bytes;
    if (format == QLatin1String("json")) {
        Result<graph::ComponentGraph> g = graph::layoutRecipe(r);
        if (!g)
            return fail(g.error());
        bytes = QJsonDocument(graph::toJson(*g)).toJson(QJsonDocument::Indented);
    } else {
        Result<QByteArray> rendered = graph::render(r, format);
        if (!rendered)
            return fail(rendered.error());
        bytes = *rendered;
    }
    return writeOutput(p, bytes) ? kOk : kFailed;
}

Command graphCommand() {
    Command p(QStringLiteral("graph"),
              QStringLiteral("a recipe's component graph, laid out by Graphviz (dot, svg, png, json)"),
              QStringLiteral("Lay out the component graph of a recipe with Graphviz (dot): nodes are the "
                             "enabled components, edges their dependencies."));
    addDb(p);
    p.addOption({QStringLiteral("catalog"), QStringLiteral("Resolve against a catalog directory."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("version"), QStringLiteral("Resolve against an imported catalog version."),
                 QStringLiteral("LABEL")});
    addCriteriaOptions(p);
    addFormat(p, QStringLiteral("dot|svg|png|json"), QStringLiteral("json"));
    p.addOption({QStringList{QStringLiteral("o"), QStringLiteral("output")},
                 QStringLiteral("Write to FILE instead of standard output."), QStringLiteral("FILE")});
    p.handler = graphVerb;
    return p;
}

} // namespace pb::cli
