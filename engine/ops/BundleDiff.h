// Compare two deployment bundles (CLI `bundle diff`, the window's Compare bundles…): each side is a
// folder (read as hostile input), a bundle imported earlier (by name), or a bundle generated into a
// temporary folder from a catalog version in the database (bundle/Generate.h) for the same
// criteria or leaf. Reads only: no receipt.
#pragma once

#include "bundle/Diff.h"
#include "bundle/Read.h"
#include "catalog/Types.h"
#include "ops/Operation.h"

#include <optional>

namespace pb::ops {

struct BundleDiffRequest {
    QString from, to; // folders or imported bundle names (empty in generated mode)
    // Generated mode: both sides generated from these catalog versions (labels in the database).
    QString fromVersion, toVersion;
    std::optional<catalog::Criteria> criteria; // or:
    QString leaf;                              // a leaf overlay by name
    QString deployer = QStringLiteral("helm"); // helm | argocd (what the generator writes)
};

struct BundleDiffOutcome {
    bundle::model::ReadBundle from, to;
    bundle::model::BundleDiff diff;
    bool generated = false;
};

// One side: a folder when `spec` is a directory, else the imported bundle of that name.
Result<bundle::model::ReadBundle> loadBundleSide(const Context& ctx, const QString& spec);

Result<BundleDiffOutcome> diffBundles(const Context& ctx, const BundleDiffRequest& request);

// Generated mode's one side: the bundle of `label`'s recipe for criteria/leaf, written into `dir`
// and read back.
Result<bundle::model::ReadBundle> generatedBundle(const Context& ctx, const QString& label,
                                                  const std::optional<catalog::Criteria>& criteria,
                                                  const QString& leaf, const QString& deployer,
                                                  const QString& dir);

} // namespace pb::ops
