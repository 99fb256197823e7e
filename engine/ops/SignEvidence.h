// Sign an evidence bundle and write its pointer (CLI `evidence sign`, the Sign view).
#pragma once

#include "evidence/Sign.h"
#include "ops/Operation.h"
#include "ops/SigningKey.h"

namespace pb::ops {

struct SignEvidenceRequest {
    QString bundleDir;    // a summary-bundle directory (or its parent)
    QString evidenceRoot; // the recipes/evidence directory for the pointer (default: the bundle's parent)
    SigningKey key;
    bool signIncomplete = false; // sign a bundle whose checks did not all run (it stays marked incomplete)
};

struct SignEvidenceOutcome {
    evidence::EvidenceSignature signature;
    qint64 receiptSeq = 0;
};

// A bundle that fails its integrity checks is refused, and an incomplete one unless signIncomplete.
// The attestation and the pointer are staged and land with the sign.evidence receipt.
Result<SignEvidenceOutcome> signEvidence(const Context& ctx, const SignEvidenceRequest& request);

} // namespace pb::ops
