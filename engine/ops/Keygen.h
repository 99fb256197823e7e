// Create or import an ECDSA P-256 signing key (CLI `keygen`, the Sign view's New/Import key).
#pragma once

#include "ops/Operation.h"
#include "sigstore/Keys.h"
#include "store/VerificationStore.h"

#include <vector>

namespace pb::ops {

struct KeygenRequest {
    QString outPath;           // the encrypted private key; the public key goes to outPath + ".pub"
    QString importFrom;        // empty: generate; else cosign.key (same passphrase) or an unencrypted PEM
    bool cosignFormat = false; // write cosign's ENCRYPTED SIGSTORE PRIVATE KEY instead of PKCS#8
    sigstore::Passphrase passphrase;
    QString label; // the key's name in the database (default: the file name)
};

struct KeygenOutcome {
    QString privatePath, publicPath, fingerprint;
    qint64 keyId = 0;
    qint64 receiptSeq = 0;
};

// The private key is only ever written encrypted (mode 0600); the database keeps the public key.
// Both files, the stored public key and the key.generate / key.import receipt land together.
Result<KeygenOutcome> keygen(const Context& ctx, const KeygenRequest& request);

// The signing keys the database knows: public halves, fingerprints and labels, oldest first (private
// keys never reach the database). Reads only: every role may list them (CLI `keys list`, the Sign view).
Result<std::vector<store::StoredKey>> publicKeys(const Context& ctx);

} // namespace pb::ops
