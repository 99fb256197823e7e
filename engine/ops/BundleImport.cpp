#include "ops/BundleImport.h"

#include "receipts/Kinds.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

namespace pb::ops {

namespace {
bundle::model::ReadOptions readOptions(const Context& ctx, std::optional<bundle::model::Deployer> deployer,
                                       const bundle::model::ReadLimits& limits) {
    bundle::model::ReadOptions o;
    o.deployer = deployer;
    o.limits = limits;
    o.cancel = ctx.cancelFlag();
    o.progress = [&ctx](int done, int total) {
        ctx.progress(done, total, QStringLiteral("reading %1 of %2 files").arg(done).arg(total));
    };
    return o;
}
} // namespace

Result<bundle::model::ReadBundle> readBundleFolder(const Context& ctx, const QString& dir,
                                                   std::optional<bundle::model::Deployer> deployer) {
    return bundle::model::readBundle(dir, readOptions(ctx, deployer, {}));
}

Result<BundleImportOutcome> importBundle(const Context& ctx, const BundleImportRequest& request) {
    if (Status s = require(ctx, db::Capability::ImportResults); !s)
        return s.error();
    auto read = bundle::model::readBundle(request.dir, readOptions(ctx, request.deployer, request.limits));
    if (!read)
        return read.error();
    if (ctx.cancelled())
        return makeError(QStringLiteral("cancelled"), request.dir);
    BundleImportOutcome outcome;
    outcome.name = request.name.isEmpty() ? QFileInfo(QDir::cleanPath(request.dir)).fileName() : request.name;
    auto link = store::findRecipeByDigest(ctx.db(), read->bundle.recipeEvidenceDigest);
    if (!link)
        return link.error();
    outcome.recipe = *link;
    ctx.progress(0, 0, QStringLiteral("writing the bundle to the database"));
    auto result = transact<BundleImportOutcome>(
        ctx, [&]() -> Result<std::pair<BundleImportOutcome, receipts::ReceiptDraft>> {
            store::BundleStore bundles(ctx.db());
            auto stored = bundles.importBundle(outcome.name, QDir::cleanPath(request.dir), read->bundle,
                                               read->contents, request.replace, outcome.recipe);
            if (!stored)
                return stored.error();
            outcome.stored = *stored;
            receipts::ReceiptDraft d;
            d.kind = QStringLiteral("bundle.import");
            d.parameters.insert(QStringLiteral("name"), outcome.name);
            d.parameters.insert(QStringLiteral("deployer"),
                                bundle::model::deployerName(read->bundle.deployer));
            d.parameters.insert(QStringLiteral("components"),
                                static_cast<int>(read->bundle.components.size()));
            d.parameters.insert(QStringLiteral("files"), static_cast<int>(read->bundle.files.size()));
            d.parameters.insert(QStringLiteral("unknownFiles"),
                                static_cast<int>(read->bundle.unknownFiles.size()));
            d.parameters.insert(QStringLiteral("outcome"), store::outcomeName(stored->outcome));
            if (!read->bundle.recipeEvidenceDigest.isEmpty())
                d.parameters.insert(QStringLiteral("recipeEvidenceDigest"),
                                    QStringLiteral("sha256:") + read->bundle.recipeEvidenceDigest);
            if (outcome.recipe)
                d.parameters.insert(QStringLiteral("catalogVersion"), outcome.recipe->catalogLabel);
            d.inputs.push_back(receipts::Artifact{QDir::cleanPath(request.dir), read->bundle.treeDigest,
                                                  read->bundle.totalBytes});
            d.outputs.push_back(
                receipts::Artifact{QStringLiteral("deploy bundle %1").arg(outcome.name), QString(), -1});
            d.message = QStringLiteral("%1 %2 bundle '%3': %4 components, %5 files (%6 unknown)")
                            .arg(store::outcomeName(stored->outcome),
                                 bundle::model::deployerName(read->bundle.deployer), outcome.name)
                            .arg(read->bundle.components.size())
                            .arg(read->bundle.files.size())
                            .arg(read->bundle.unknownFiles.size());
            return std::pair{outcome, d};
        });
    if (!result)
        return result.error();
    result->value.receiptSeq = result->receipt.seq;
    result->value.bundle = std::move(read->bundle);
    return std::move(result->value);
}

Result<std::vector<store::StoredBundleInfo>> listImportedBundles(const Context& ctx) {
    return store::BundleStore(ctx.db()).list();
}

} // namespace pb::ops
