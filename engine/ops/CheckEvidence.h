// Check an evidence bundle offline (CLI `evidence check`): the attestation's Sigstore signature
// (for the signer the pointer claims), the manifest, the recipe binding — as aicr evidence verify
// does. The verdict is the outcome (exit 0 valid, 1 valid with failed phases, 2 invalid, 3
// incomplete), and every verdict is on record (an evidence.check receipt); only inputs that cannot
// be read (the trusted root, the key, the pointer file) or an unwritten receipt are errors.
#pragma once

#include "evidence/Bundle.h"
#include "ops/Operation.h"

#include <optional>

namespace pb::ops {

struct CheckEvidenceRequest {
    QString bundle;      // a summary-bundle directory (or its parent), or an OCI image layout
    QString pointer;     // optional: the pointer file the bundle must match
    QString trustedRoot; // Sigstore trusted_root.json; empty: the database's default root (none: not checked)
    QString publicKey;   // PEM public key the attestation must be signed with (optional)
    bool insecureIgnoreTlog = false; // with publicKey: accept an attestation without a log entry
};

struct CheckEvidenceOutcome {
    int exitCode = 3;
    std::optional<evidence::BundleCheck> check; // empty when the bundle or the pointer was refused
    QString problem;                            // why, then (exit 2)
    qint64 receiptSeq = 0;
    // "valid", "valid with failed phases", "invalid", "incomplete"
    QString verdict() const;
};

Result<CheckEvidenceOutcome> checkEvidence(const Context& ctx, const CheckEvidenceRequest& request);

} // namespace pb::ops
