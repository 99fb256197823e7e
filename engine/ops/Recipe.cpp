#include "ops/Recipe.h"

#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "receipts/Kinds.h"
#include "store/CatalogStore.h"
#include "yaml/Yaml.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace pb::ops {

using namespace pb::catalog;

RecipeQuery RecipeQuery::stored(const QString& leaf) {
    RecipeQuery q;
    q.leaf = leaf;
    q.stampVersion.clear();
    return q;
}

namespace {

bool isDirectory(const CatalogRef& ref) {
    return ref.kind == CatalogRef::Kind::Directory ||
           (ref.kind == CatalogRef::Kind::Auto && QFileInfo(ref.spec).isDir());
}

// The query as criteria checked against the catalog (a leaf: its own criteria).
Result<Criteria> criteriaOf(const Catalog& cat, const QString& spec, const RecipeQuery& q) {
    if (q.leaf.isEmpty())
        return parseUserCriteria(cat, q.criteria);
    if (!cat.leafNames().contains(q.leaf))
        return makeError(
            QStringLiteral(
                "'%1' is not a leaf overlay of this catalog (%2 leaves; `recipe --all-leaves` lists them)")
                .arg(q.leaf)
                .arg(cat.leafNames().size()),
            spec, 0, QStringLiteral("--leaf"));
    return leafCriteria(cat, q.leaf);
}

Result<RecipeResult> resolveWith(const Catalog& cat, const Criteria& criteria, const RecipeQuery& q) {
    ResolveOptions opt;
    opt.profiles = q.profiles;
    opt.builderVersion = q.stampVersion;
    return resolve(cat, criteria, opt);
}

Result<RecipeResult> resolveOn(const Catalog& cat, const QString& spec, const RecipeQuery& q) {
    Result<Criteria> criteria = criteriaOf(cat, spec, q);
    if (!criteria)
        return criteria.error();
    return resolveWith(cat, *criteria, q);
}

// One side of a one-recipe diff: no query, an empty recipe; criteria errors as the resolver gives
// them (checked for both sides first, see diff()), a resolve error prefixed with the side's spec.
Result<RecipeResult> resolveSide(const Catalog& cat, const QString& spec, const std::optional<RecipeQuery>& q,
                                 const std::optional<Criteria>& criteria) {
    if (!q)
        return RecipeResult{};
    Result<RecipeResult> r = resolveWith(cat, *criteria, *q);
    if (!r)
        return makeError(QStringLiteral("%1: %2").arg(spec, r.error().toString()));
    return r;
}

} // namespace

Result<std::shared_ptr<const Catalog>> loadCatalogRef(db::Database* db, const CatalogRef& ref) {
    if (ref.loaded)
        return ref.loaded;
    if (!isDirectory(ref) && !db)
        return makeError(
            QStringLiteral("'%1' is not a catalog directory (a catalog version needs a database)")
                .arg(ref.spec));
    Result<Catalog> cat =
        isDirectory(ref) ? loadCatalog(ref.spec) : store::CatalogStore(*db).loadCatalog(ref.spec);
    if (!cat && ref.kind == CatalogRef::Kind::Auto)
        return makeError(
            QStringLiteral("'%1' is neither a catalog directory nor a catalog version in the database")
                .arg(ref.spec));
    if (!cat)
        return cat.error();
    return std::shared_ptr<const Catalog>(std::make_shared<Catalog>(std::move(*cat)));
}

bool isSampleCatalog(db::Database* db, const CatalogRef& ref, const Catalog& cat) {
    if (ref.loaded)
        return ref.sample;
    if (!isDirectory(ref)) {
        if (!db)
            return false;
        Result<store::CatalogVersionInfo> v = store::CatalogStore(*db).version(ref.spec);
        return v && v->isSample();
    }
    static const QStringList sampleDigests = [] {
        QStringList out;
        for (const QString& label : store::embeddedCatalogLabels())
            if (Result<Catalog> c = loadCatalog(QStringLiteral(":/recipes/") + label))
                out << c->contentDigest();
        return out;
    }();
    return sampleDigests.contains(cat.contentDigest());
}

Result<ResolvedRecipe> resolveRecipe(db::Database* db, const ResolveRequest& request) {
    auto cat = loadCatalogRef(db, request.catalog);
    if (!cat)
        return cat.error();
    Result<RecipeResult> r = resolveOn(**cat, request.catalog.spec, request.query);
    if (!r)
        return r.error();
    ResolvedRecipe out;
    out.catalog = *cat;
    out.catalogSpec = request.catalog.spec;
    out.catalogIsVersion = !request.catalog.loaded && !isDirectory(request.catalog);
    out.sample = isSampleCatalog(db, request.catalog, **cat);
    out.evidenceDigest = evidenceDigest(*r);
    out.parityDigest = parityDigest(*r);
    out.recipe = std::move(*r);
    return out;
}

Result<QByteArray> DiffResult::render(const QString& format) const {
    const bool json = format == QLatin1String("json"), markdown = format == QLatin1String("markdown");
    if (!json && !markdown && format != QLatin1String("text"))
        return makeError(
            QStringLiteral("unknown --format '%1' (expected text, markdown or json)").arg(format));
    if (catalog)
        return json       ? QJsonDocument(toJson(*catalog, options)).toJson(QJsonDocument::Indented)
               : markdown ? toMarkdown(*catalog, options).toUtf8()
                          : toText(*catalog, options).toUtf8();
    if (!recipe)
        return makeError(QStringLiteral("no diff to render"));
    return json       ? QJsonDocument(toJson(*recipe, options)).toJson(QJsonDocument::Indented)
           : markdown ? toMarkdown(*recipe, options).toUtf8()
                      : toText(*recipe, options).toUtf8();
}

Result<DiffResult> diff(db::Database* db, const DiffRequest& request) {
    if (request.allLeaves && (request.fromQuery || request.toQuery))
        return makeError(QStringLiteral("give criteria or all leaves (not both)"));
    auto from = loadCatalogRef(db, request.from);
    if (!from)
        return from.error();
    auto to = loadCatalogRef(db, request.to);
    if (!to)
        return to.error();
    const bool fromSample = isSampleCatalog(db, request.from, **from),
               toSample = isSampleCatalog(db, request.to, **to);
    const QString& fromSpec = request.from.spec;
    const QString& toSpec = request.to.spec;
    DiffResult out;
    out.options = request.options;
    if (request.allLeaves) {
        out.catalog = diffCatalogs(**from, **to, fromSpec, toSpec);
        out.catalog->fromSample = fromSample;
        out.catalog->toSample = toSample;
        return out;
    }
    // Both sides' criteria are checked before either side is resolved (the CLI's order and messages).
    std::optional<Criteria> fromCriteria, toCriteria;
    if (request.fromQuery) {
        Result<Criteria> c = criteriaOf(**from, fromSpec, *request.fromQuery);
        if (!c)
            return c.error();
        fromCriteria = std::move(*c);
    }
    if (request.toQuery) {
        Result<Criteria> c = criteriaOf(**to, toSpec, *request.toQuery);
        if (!c)
            return c.error();
        toCriteria = std::move(*c);
    }
    Result<RecipeResult> fromRecipe = resolveSide(**from, fromSpec, request.fromQuery, fromCriteria);
    if (!fromRecipe)
        return fromRecipe.error();
    Result<RecipeResult> toRecipe = resolveSide(**to, toSpec, request.toQuery, toCriteria);
    if (!toRecipe)
        return toRecipe.error();
    out.fromRecipe = std::move(*fromRecipe);
    out.toRecipe = std::move(*toRecipe);
    out.recipe = diffRecipes(out.fromRecipe, out.toRecipe, fromSpec, toSpec);
    out.recipe->fromSample = fromSample;
    out.recipe->toSample = toSample;
    return out;
}

namespace {

// The bytes of an exported recipe in `format` (see ExportRecipeRequest).
Result<QByteArray> exportedBytes(const ResolvedRecipe& r, const ExportRecipeRequest& req) {
    const RecipeResult& recipe = r.recipe;
    if (req.format == QLatin1String("digest-json")) {
        QJsonObject o{{QStringLiteral("recipe"), recipe.recipeName()},
                      {QStringLiteral("leafOverlay"), r.leafOverlay()},
                      {QStringLiteral("catalog"), r.catalogSpec},
                      {QStringLiteral("evidenceDigest"), prefixedDigest(r.evidenceDigest)},
                      {QStringLiteral("parityDigest"), prefixedDigest(r.parityDigest)},
                      {QStringLiteral("parityStamp"), QString::fromLatin1(kParityStamp)}};
        if (r.sample)
            o.insert(QStringLiteral("sample"), true);
        return QJsonDocument(o).toJson(QJsonDocument::Indented);
    }
    if (req.format == QLatin1String("digest"))
        return QStringLiteral("evidence digest %1\nparity digest %2\n")
            .arg(prefixedDigest(r.evidenceDigest), prefixedDigest(r.parityDigest))
            .toUtf8();
    if (req.format == QLatin1String("json")) {
        QJsonObject o = toJson(recipe).toObject();
        if (r.sample)
            o.insert(QStringLiteral("sample"), true);
        return QJsonDocument(o).toJson(QJsonDocument::Indented);
    }
    if (req.format == QLatin1String("yaml"))
        return req.deterministic ? deterministicYaml(recipe) : yaml::serialize(toNode(recipe));
    return makeError(QStringLiteral("unknown --format '%1'").arg(req.format));
}

receipts::ReceiptDraft exportDraft(const ResolvedRecipe& r, const ExportRecipeRequest& req) {
    const RecipeQuery& q = req.resolve.query;
    QJsonObject criteria;
    for (auto it = q.criteria.cbegin(); it != q.criteria.cend(); ++it)
        if (!it.value().isEmpty())
            criteria.insert(it.key(), it.value());
    if (!q.leaf.isEmpty())
        criteria.insert(QStringLiteral("leaf"), q.leaf);
    QStringList profiles;
    for (auto it = q.profiles.cbegin(); it != q.profiles.cend(); ++it)
        profiles << it.key() + QLatin1Char('=') + it.value();
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::RecipeExport;
    d.parameters =
        QJsonObject{{QStringLiteral("criteria"), criteria},
                    {QStringLiteral("format"),
                     req.format.startsWith(QLatin1String("digest")) ? QStringLiteral("digest") : req.format},
                    {QStringLiteral("deterministic"), req.deterministic},
                    {QStringLiteral("profiles"), QJsonArray::fromStringList(profiles)},
                    {QStringLiteral("version"), r.catalogIsVersion ? r.catalogSpec : QString()}};
    d.inputs.push_back(receipts::Artifact::digest(r.catalog->root, r.catalog->contentDigest()));
    d.message = QStringLiteral("%1 components, overlays %2")
                    .arg(r.recipe.componentRefs.size())
                    .arg(r.recipe.appliedOverlays.join(QStringLiteral(", ")));
    return d;
}

} // namespace

Result<ExportedRecipe> exportRecipe(const Context& ctx, const ExportRecipeRequest& request) {
    Result<ResolvedRecipe> r = resolveRecipe(ctx, request.resolve);
    if (!r)
        return r.error();
    Result<QByteArray> bytes = exportedBytes(*r, request);
    if (!bytes)
        return bytes.error();
    receipts::ReceiptDraft d = exportDraft(*r, request);
    StagedFiles files;
    if (request.outputPath.isEmpty()) {
        d.outputs.push_back(
            receipts::Artifact::bytes(QStringLiteral("recipe %1 (stdout)").arg(r->leafOverlay()), *bytes));
    } else {
        if (Status s = files.stage(request.outputPath, *bytes); !s)
            return s.error();
        d.outputs = files.artifacts();
    }
    Result<receipts::Receipt> receipt = record(ctx, d, &files);
    if (!receipt)
        return receipt.error();
    return ExportedRecipe{std::move(*r), std::move(*bytes), std::move(*receipt)};
}

} // namespace pb::ops
