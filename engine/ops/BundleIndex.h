// Write a ConfigHub-style digest index for a deployment bundle (CLI `bundle index DIR`): the
// bundle/Index.h payloads, platform-index.json and checksums, moved into place with a
// bundle.index receipt. When the bundle's tree digest matches a bundle.generate receipt in this
// database, that receipt's inputs (catalog and recipe digests, options) become the index's source.
#pragma once

#include "bundle/Index.h"
#include "ops/Operation.h"

namespace pb::ops {

struct BundleIndexRequest {
    QString dir;
    bundle::IndexLimits limits;
};

struct BundleIndexOutcome {
    QString dir;
    QString platformDigest;
    QString treeDigest;
    QString deployer;
    int members = 0;
    int bundleFiles = 0;
    qint64 generateReceipt = 0; // the bundle.generate receipt whose inputs were used, 0 when none
    QStringList written;        // relative paths
    qint64 receiptSeq = 0;
};

// Progress counts indexed files; cancel stops before anything is written.
Result<BundleIndexOutcome> bundleIndex(const Context& ctx, const BundleIndexRequest& request);

} // namespace pb::ops
