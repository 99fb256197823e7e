// Verify a deployment bundle offline and grade its trust level (CLI `bundle verify`, the Sign
// view's bundle verification). One rule for both: it passes when the level reaches minLevel.
#pragma once

#include "bundle/DeploymentBundle.h"
#include "ops/Operation.h"

namespace pb::ops {

struct VerifyBundleRequest {
    QString dir;
    sigstore::Policy policy; // key (publicKeyPem) or identity + issuer
    QString trustedRootFile; // else the stored root trustedRootId, else the database default
    qint64 trustedRootId = 0;
    deploy::TrustLevel minLevel = deploy::TrustLevel::Unverified; // `--min-trust-level`, default as aicr
};

struct VerifyBundleOutcome {
    deploy::DeploymentVerification verification;
    deploy::TrustLevel minLevel = deploy::TrustLevel::Unverified;
    bool passed = false; // level >= minLevel
    bool cancelled = false;
    qint64 receiptSeq = 0; // 0 when cancelled (a cancelled check is not an outcome)
};

// Always returns an outcome for a check that ran (passed or not) with its bundle.verify receipt; an
// error only when the check could not run (unreadable trusted root, receipt not written).
Result<VerifyBundleOutcome> verifyBundle(const Context& ctx, const VerifyBundleRequest& request);

} // namespace pb::ops
