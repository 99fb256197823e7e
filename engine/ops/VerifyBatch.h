// `proofbench verify --batch MANIFEST.tsv`: every case of a Sigstore conformance-style manifest
// (name, expected, mode, identity, issuer, note, artifact_digest; cases/<name>/ beside it holding
// bundle.sigstore.json, artifact, key.pub, trusted_root.json) verified, the cases spread over the
// cores, and one `verify.batch` receipt with the manifest and the counts. Nothing else is stored.
#pragma once

#include "ops/Operation.h"
#include "sigstore/Verify.h"

#include <vector>

namespace pb::ops {

struct VerifyBatchRequest {
    QString manifestPath;
    // One trusted root for every case; empty: each case's own cases/<name>/trusted_root.json.
    QString trustedRootPath;
    // Verify against the manifest's artifact_digest instead of the artifact file.
    bool useDigest = false;
};

struct VerifyBatchCase {
    QString name;
    QString expected; // "PASS", "FAIL", or empty (no expectation)
    sigstore::VerificationResult result;
    bool asExpected = true;
    QString verdict() const { return result.verified ? QStringLiteral("PASS") : QStringLiteral("FAIL"); }
};

struct VerifyBatchOutcome {
    std::vector<VerifyBatchCase> cases; // in manifest order
    // Manifest lines that could not be used, each naming the manifest and line.
    std::vector<Error> unreadableLines;
    int verified = 0, asExpected = 0;
    QString trustedRootSha256; // of the common root; empty when each case brings its own
    int total() const { return int(cases.size()); }
    bool ok() const { return asExpected == total() && unreadableLines.empty(); }
};

// Fails only when the manifest or the common trusted root cannot be read, on cancel, or when the
// receipt cannot be written; cases that do not verify (or not as expected) are in the outcome.
Result<VerifyBatchOutcome> verifyBatch(const Context& ctx, const VerifyBatchRequest& request);

} // namespace pb::ops
