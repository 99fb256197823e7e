// The private key an operation signs with: its file and passphrase, decrypted inside the
// operation (the CLI reads the passphrase from the terminal or --passphrase-env, the window from
// its field; both hand it here and never keep it).
#pragma once

#include "core/Result.h"
#include "sigstore/Crypto.h"
#include "sigstore/Keys.h"

namespace pb::ops {

struct SigningKey {
    QString path;
    sigstore::Passphrase passphrase;
};

// Reads (with the small-file limit, refusing anything not a regular file) and decrypts the key.
Result<sigstore::crypto::Pkey> loadSigningKey(const SigningKey& key);

// Artifacts are read whole up to this size (a Sigstore message signature covers the bytes).
inline constexpr qint64 kMaxArtifactBytes = 2ll * 1024 * 1024 * 1024;

} // namespace pb::ops
