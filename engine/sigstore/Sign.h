// Signing offline with a key: Sigstore bundles (v0.3, publicKey hint, no log entry) that cosign
// (`--key --insecure-ignore-tlog`), sigstore-js and our verifier accept — a message signature over a
// blob, or a DSSE envelope over an in-toto Statement v1.
#pragma once

#include "core/Result.h"
#include "sigstore/Crypto.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace pb::sigstore {

struct Subject {
    QString name;
    QString sha256Hex;
};

// ECDSA-SHA256 (DER) over `data` with `key`.
Result<QByteArray> signData(EVP_PKEY* key, const QByteArray& data);

// A v0.3 bundle with a messageSignature over `blob`.
Result<QByteArray> signBlob(EVP_PKEY* key, const QByteArray& blob);

// An in-toto Statement v1 (compact JSON bytes, as signed).
QByteArray inTotoStatement(const QList<Subject>& subjects, const QString& predicateType,
                           const QJsonObject& predicate);

// A v0.3 bundle with a DSSE envelope (application/vnd.in-toto+json) over `statement`, signed as is.
Result<QByteArray> attest(EVP_PKEY* key, const QByteArray& statement);

} // namespace pb::sigstore
