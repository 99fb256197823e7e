// How an evidence bundle's attestation is checked, from what the user names: a trusted root file
// (else the database's default root), or a public key. Shared by evidence check and evidence fetch.
#pragma once

#include "evidence/Bundle.h"
#include "ops/Operation.h"
#include "sigstore/TrustedRoot.h"

#include <optional>

namespace pb::ops {

struct SignatureSource {
    QString trustedRoot;             // trusted_root.json; empty: the database's default (none: not checked)
    QString publicKey;               // PEM public key the attestation must be signed with (optional)
    bool insecureIgnoreTlog = false; // with publicKey: accept an attestation without a log entry
};

// The check; it points into `root`, which must outlive it. A root or key that cannot be read is an
// error (the caller's), never a verdict.
Result<evidence::SignatureCheck> signatureCheck(const Context& ctx, const SignatureSource& source,
                                                std::optional<sigstore::TrustedRoot>& root);

} // namespace pb::ops
