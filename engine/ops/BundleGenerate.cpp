#include "ops/BundleGenerate.h"

#include "catalog/Digest.h"
#include "ops/SealBundle.h"
#include "receipts/Kinds.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

namespace pb::ops {

namespace {

QJsonObject selectorJson(const QMap<QString, QString>& m) {
    QJsonObject o;
    for (auto it = m.begin(); it != m.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

} // namespace

Result<BundleGenerateOutcome> bundleGenerate(const Context& ctx, const BundleGenerateRequest& request) {
    if (Status s = require(ctx, db::Capability::GenerateBundle); !s)
        return s.error();
    if (!request.catalog)
        return makeError(QStringLiteral("no catalog given for the recipe"));
    if (request.outDir.isEmpty())
        return makeError(QStringLiteral("no output folder given"), {}, 0, QStringLiteral("--out"));
    ctx.progress(
        0, 0, QStringLiteral("Rendering the %1 bundle").arg(bundle::deployerName(request.options.deployer)));
    Result<bundle::GenerateInput> input =
        bundle::inputFromRecipe(*request.catalog, request.recipe, request.options);
    if (!input)
        return input.error();
    Result<bundle::BundleTree> tree = bundle::render(*input, request.options, ctx.cancelFlag());
    if (!tree)
        return tree.error();
    auto progress = [&ctx](int done, int total, const QString& what) {
        ctx.progress(done, total, QStringLiteral("Writing %1 (%2 of %3)").arg(what).arg(done).arg(total));
    };
    if (Status st = bundle::writeTree(*tree, request.outDir, progress, ctx.cancelFlag()); !st)
        return st.error();

    BundleGenerateOutcome out;
    out.outDir = QFileInfo(request.outDir).absoluteFilePath();
    out.treeDigest = bundle::treeDigest(*tree);
    for (const bundle::BundleFile& f : tree->files)
        out.bytes += f.bytes.size();

    if (request.key) {
        Result<SealBundleOutcome> sealed =
            sealBundle(ctx, SealBundleRequest{request.outDir, std::move(*request.key)});
        if (!sealed)
            return makeError(
                QStringLiteral("the bundle was written but not sealed: %1").arg(sealed.error().toString()),
                request.outDir);
        out.sealed = true;
    }

    const bundle::GenerateOptions& o = request.options;
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("bundle.generate");
    d.parameters =
        QJsonObject{{QStringLiteral("deployer"), bundle::deployerName(o.deployer)},
                    {QStringLiteral("recipe"), request.recipeLabel},
                    {QStringLiteral("catalog"), request.catalogLabel},
                    {QStringLiteral("sets"), QJsonArray::fromStringList(o.sets)},
                    {QStringLiteral("acceleratedNodeSelector"), selectorJson(o.acceleratedNodeSelector)},
                    {QStringLiteral("acceleratedNodeTolerations"),
                     QJsonArray::fromStringList(o.acceleratedNodeTolerations)},
                    {QStringLiteral("workloadSelector"), selectorJson(o.workloadSelector)},
                    {QStringLiteral("storageClass"), o.storageClass},
                    {QStringLiteral("estimatedNodeCount"), o.estimatedNodeCount},
                    {QStringLiteral("repoUrl"), o.repoUrl},
                    {QStringLiteral("files"), static_cast<int>(tree->files.size())},
                    {QStringLiteral("sealed"), out.sealed}};
    // The deployer options, named only when given (so earlier receipts read the same).
    auto named = [&d](const char* key, const QJsonValue& v, bool given) {
        if (given)
            d.parameters.insert(QLatin1String(key), v);
    };
    named("dynamicValues", QJsonArray::fromStringList(o.dynamicValues), !o.dynamicValues.isEmpty());
    named("readinessHooks", true, o.readinessHooks);
    named("serial", true, o.serial);
    named("targetRevision", o.targetRevision, !o.targetRevision.isEmpty());
    named("appName", o.appName, !o.appName.isEmpty());
    named("fluxNamespace", o.fluxNamespace, !o.fluxNamespace.isEmpty());
    named("chartName", o.chartName, !o.chartName.isEmpty());
    named("chartVersion", o.chartVersion, !o.chartVersion.isEmpty());
    named("namePrefix", o.namePrefix, !o.namePrefix.isEmpty());
    named("destinationServer", o.destinationServer, !o.destinationServer.isEmpty());
    named("project", o.project, !o.project.isEmpty());
    named("cascadeDelete", true, o.cascadeDelete);
    d.inputs.push_back(receipts::Artifact::digest(request.catalog->root, request.catalog->contentDigest()));
    d.inputs.push_back(receipts::Artifact::digest(
        QStringLiteral("recipe %1").arg(request.recipe.recipeName()), catalog::recipeDigest(request.recipe)));
    d.outputs.push_back(receipts::Artifact::digest(out.outDir, out.treeDigest, out.bytes));
    d.message = QStringLiteral("%1 bundle: %2 install steps, %3 files, tree digest sha256:%4")
                    .arg(bundle::deployerName(o.deployer))
                    .arg(tree->folders.size())
                    .arg(tree->files.size())
                    .arg(out.treeDigest);
    Result<receipts::Receipt> r = record(ctx, d);
    if (!r)
        return r.error();
    out.receiptSeq = r->seq;
    out.tree = std::move(*tree);
    return out;
}

} // namespace pb::ops
