// Keep a public key for verification (the Sign view's Import key… given a .pub / PEM public key).
#pragma once

#include "ops/Operation.h"

namespace pb::ops {

struct ImportPublicKeyRequest {
    QString path;  // a PEM public key
    QString label; // default: the file name
};

struct ImportPublicKeyOutcome {
    QString fingerprint;
    qint64 keyId = 0;
    qint64 receiptSeq = 0;
};

// True when `pem` is a PEM public key (rather than a private key).
bool isPublicKeyPem(const QByteArray& pem);
// Stores the key (canonical PEM) and its key.import receipt (format "public") in one transaction.
Result<ImportPublicKeyOutcome> importPublicKey(const Context& ctx, const ImportPublicKeyRequest& request);

} // namespace pb::ops
