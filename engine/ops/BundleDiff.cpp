#include "ops/BundleDiff.h"

#include "bundle/Generate.h"
#include "store/BundleStore.h"
#include "store/CatalogStore.h"

#include <QFileInfo>
#include <QTemporaryDir>

namespace pb::ops {

namespace model = bundle::model;

Result<model::ReadBundle> loadBundleSide(const Context& ctx, const QString& spec) {
    if (spec.isEmpty())
        return makeError(QStringLiteral("give a bundle folder or the name of an imported bundle"));
    const QFileInfo fi(spec);
    if (fi.exists() || fi.isSymLink()) {
        model::ReadOptions o;
        o.cancel = ctx.cancelFlag();
        o.progress = [&ctx, spec](int done, int total) {
            ctx.progress(done, total, QStringLiteral("reading %1").arg(spec));
        };
        return model::readBundle(spec, o);
    }
    store::BundleStore bundles(ctx.db());
    auto found = bundles.resolve(spec);
    if (!found)
        return found.error();
    if (!*found)
        return makeError(
            QStringLiteral(
                "neither a folder nor the name or tree digest of an imported bundle (see 'proofbench "
                "bundle list')"),
            spec);
    return bundles.load((*found)->name);
}

Result<model::ReadBundle> generatedBundle(const Context& ctx, const QString& label,
                                          const std::optional<catalog::Criteria>& criteria,
                                          const QString& leaf, const QString& deployer, const QString& dir) {
    store::CatalogStore catalogs(ctx.db());
    auto cat = catalogs.loadCatalog(label);
    if (!cat)
        return cat.error();
    catalog::Criteria query;
    if (!leaf.isEmpty()) {
        if (!cat->overlay(leaf))
            return makeError(QStringLiteral("catalog version %1 has no overlay named '%2'").arg(label, leaf),
                             QString(), 0, QStringLiteral("--leaf"));
        query = catalog::leafCriteria(*cat, leaf);
    } else if (criteria) {
        query = *criteria;
    } else {
        return makeError(QStringLiteral("give criteria or --leaf NAME for the generated bundles"));
    }
    auto recipe = catalog::resolve(*cat, query);
    if (!recipe)
        return recipe.error();
    bundle::GenerateOptions options;
    auto d = bundle::parseDeployer(deployer);
    if (!d)
        return d.error();
    options.deployer = *d;
    ctx.progress(0, 0, QStringLiteral("generating the %1 bundle of catalog version %2").arg(deployer, label));
    auto tree = bundle::generate(*cat, *recipe, options, dir, {}, ctx.cancelFlag());
    if (!tree)
        return tree.error();
    model::ReadOptions o;
    o.cancel = ctx.cancelFlag();
    o.deployer = model::parseDeployer(deployer);
    auto read = model::readBundle(dir, o);
    if (!read)
        return read.error();
    read->bundle.root = QStringLiteral("%1 (generated, %2)").arg(label, deployer);
    return read;
}

Result<BundleDiffOutcome> diffBundles(const Context& ctx, const BundleDiffRequest& request) {
    BundleDiffOutcome out;
    if (!request.fromVersion.isEmpty() || !request.toVersion.isEmpty()) {
        if (request.fromVersion.isEmpty() || request.toVersion.isEmpty())
            return makeError(QStringLiteral("give both --from-version and --to-version"));
        QTemporaryDir tmp;
        if (!tmp.isValid())
            return makeError(QStringLiteral("cannot create a temporary folder: %1").arg(tmp.errorString()));
        auto a = generatedBundle(ctx, request.fromVersion, request.criteria, request.leaf, request.deployer,
                                 tmp.filePath(QStringLiteral("from")));
        if (!a)
            return a.error();
        auto b = generatedBundle(ctx, request.toVersion, request.criteria, request.leaf, request.deployer,
                                 tmp.filePath(QStringLiteral("to")));
        if (!b)
            return b.error();
        out.from = std::move(*a);
        out.to = std::move(*b);
        out.generated = true;
    } else {
        auto a = loadBundleSide(ctx, request.from);
        if (!a)
            return a.error();
        auto b = loadBundleSide(ctx, request.to);
        if (!b)
            return b.error();
        out.from = std::move(*a);
        out.to = std::move(*b);
    }
    if (ctx.cancelled())
        return makeError(QStringLiteral("cancelled"));
    out.diff = model::diffBundles(out.from.bundle, out.to.bundle);
    return out;
}

} // namespace pb::ops
