// Signing an AICR evidence bundle with a key: attestation.intoto.jsonl over the bundle's own
// statement (byte for byte), and an evidence pointer for it in AICR's schema 1.0 and per-source
// layout. Bundles that fail their integrity checks are refused before anything is signed.
#pragma once

#include "core/Files.h"

#include "core/Result.h"
#include "sigstore/Crypto.h"

#include <QString>

namespace pb::evidence {

// A key has no OIDC identity; the pointer names the signer by the key's fingerprint under this issuer
// (an allowlist can list it like any other signer).
inline const char* const kKeyIssuer = "urn:proofbench:publickey";

struct EvidenceSignature {
    QString attestationPath; // summary-bundle/attestation.intoto.jsonl
    QString pointerPath;     // <evidence root>/<recipe>/<slug>/sha256-<hex>.yaml
    QString recipe, signerIdentity, signerIssuer, bundleDigest;
};

// `evidenceRoot`: where the pointer goes (a recipes/evidence directory); empty = the bundle's parent.
// An invalid bundle is refused; so is an incomplete one (a check could not run or finish) unless
// `signIncomplete`: then it is signed as it is, its predicate still saying incomplete.
Result<EvidenceSignature> signEvidence(const QString& bundleDir, EVP_PKEY* key,
                                       const QString& evidenceRoot = {}, const FileWriter& writer = {},
                                       bool signIncomplete = false);

} // namespace pb::evidence
