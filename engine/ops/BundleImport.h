// Import a deployment bundle (CLI `bundle import`, the window's File > Open deployment bundle…):
// read the folder as hostile input (bundle/Read.h), link its recipe.yaml to the catalog version
// whose stored recipe has the same evidence digest, and store the bundle, its files and components
// with a bundle.import receipt in one transaction: both are kept or neither is.
#pragma once

#include "bundle/Read.h"
#include "ops/Operation.h"
#include "store/BundleStore.h"

#include <optional>

namespace pb::ops {

struct BundleImportRequest {
    QString dir;
    QString name;                                    // default: the folder's name
    std::optional<bundle::model::Deployer> deployer; // default: detected
    bool replace = false;
    bundle::model::ReadLimits limits;
};

struct BundleImportOutcome {
    bundle::model::DeployBundle bundle;
    store::BundleImportResult stored;
    std::optional<store::RecipeLink> recipe;
    QString name;
    qint64 receiptSeq = 0;
};

Result<BundleImportOutcome> importBundle(const Context& ctx, const BundleImportRequest& request);

// Reads a bundle without storing it (the bundle view opening a folder): the same reader, no receipt.
Result<bundle::model::ReadBundle> readBundleFolder(const Context& ctx, const QString& dir,
                                                   std::optional<bundle::model::Deployer> deployer = {});

// The bundles imported so far, by name (the compare view's pickers, `bundle list`).
Result<std::vector<store::StoredBundleInfo>> listImportedBundles(const Context& ctx);

} // namespace pb::ops
