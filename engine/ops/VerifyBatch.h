// `proofbench verify --batch MANIFEST.tsv`: every case of a Sigstore conformance-style manifest
// (name, expected, mode, identity, issuer, note, artifact_digest; cases/<name>/ beside it holding
// bundle.sigstore.json, artifact, key.pub, trusted_root.json) verified, the cases spread over the
// cores, and one `verify.batch` receipt with the manifest and the counts. Nothing else is stored.
#pragma once

#include "ops/Operation.h"
#include "sigstore/Verify.h"

#include <optional>
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

// ---- Many bundles at once, for any operation that verifies several (batch, release verify) --------

// One verification: the bundle's bytes (parsed on the worker) or an already parsed bundle, the
// artifact, the trusted root (shared, only read; it must outlive the call) and the policy.
struct BundleVerification {
    QByteArray bundleJson;
    std::optional<sigstore::Bundle> parsed; // when set, used instead of bundleJson
    QString bundleFile;                     // names the bundle in the result
    sigstore::Artifact artifact;
    const sigstore::TrustedRoot* root = nullptr; // null: the result fails at its "inputs" step
    sigstore::Policy policy;
};

// Verifies every item spread over all cores (Qt's global thread pool), each exactly as
// sigstore::verifyBundle() would one by one: results[i] is item i's result, in the same order, with
// the same verdicts and steps as a sequential run. The calling thread takes part; nothing here
// touches the database, so callers record receipts or rows afterwards on their own thread.
// `progress` (optional) is called under a lock, from worker threads, after each item. Returns an
// error (and no results) when ctx's cancel flag is set before every item ran.
Result<std::vector<sigstore::VerificationResult>>
verifyBundles(const Context& ctx, const std::vector<BundleVerification>& items,
              const QString& what = QStringLiteral("bundle(s)"));

// The same without an operation context (no progress, no cancel): engine code and tests.
std::vector<sigstore::VerificationResult> verifyBundles(const std::vector<BundleVerification>& items);

} // namespace pb::ops
