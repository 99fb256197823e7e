// `proofbench verify` and the Verify view's Verify button: one Sigstore bundle verified offline
// against a policy (certificate identity and issuer, exact or regexp, or a public key) and a trusted
// root (a file, a stored root, or the database's default). The verdict, the stored verification
// (when asked) and the `verify` receipt are one transaction: the same request gives the same
// verdict, row and receipt from the CLI and from the window.
#pragma once

#include "ops/Operation.h"
#include "sigstore/Verify.h"

#include <optional>

namespace pb::ops {

struct VerifyRequest {
    // The bundle: its file, read by the operation, or its bytes when the caller has them
    // (bundlePath then only names it).
    QString bundlePath;
    std::optional<QByteArray> bundleBytes;
    // The artifact: its file, or only its digest ("sha256:<hex>" or bare hex). Exactly one.
    QString artifactPath;
    QString artifactDigest;
    // Who must have signed. Key mode: policy.publicKeyPem, or the PEM file `keyPath` read here.
    sigstore::Policy policy;
    QString keyPath;
    // The trusted root: this file; else the stored root `trustedRootId`; else the database's
    // default. With none of them a key-mode request runs against no trust material (its log
    // entries then fail as untrusted), an identity request is refused.
    QString trustedRootPath;
    qint64 trustedRootId = 0;
    // Store the verification (table `verifications`) with its receipt.
    bool record = false;
};

struct VerifyOutcome {
    sigstore::VerificationResult result;
    qint64 verificationId = 0; // the stored row; 0 when not recorded
};

// Fails (nothing stored, no receipt) only when an input cannot be read or the receipt cannot be
// written; a bundle that does not verify is an outcome with result.verified false.
Result<VerifyOutcome> verify(const Context& ctx, const VerifyRequest& request);

} // namespace pb::ops
