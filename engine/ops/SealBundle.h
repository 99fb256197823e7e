// Seal a deployment bundle: checksums.txt and an SLSA provenance attestation (CLI `bundle sign`,
// the Sign view's "Seal deployment bundle…").
#pragma once

#include "bundle/DeploymentBundle.h"
#include "ops/Operation.h"
#include "ops/SigningKey.h"

namespace pb::ops {

struct SealBundleRequest {
    QString dir; // the deployment bundle (aicr bundle output)
    SigningKey key;
};

struct SealBundleOutcome {
    deploy::SignReport report;
    QString checksumsPath, attestationPath;
    qint64 receiptSeq = 0;
};

// Progress counts hashed files; cancel stops hashing with nothing written.
Result<SealBundleOutcome> sealBundle(const Context& ctx, const SealBundleRequest& request);

} // namespace pb::ops
