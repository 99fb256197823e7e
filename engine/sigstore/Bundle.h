// Sigstore bundle (dev.sigstore.bundle.v1.Bundle) in protobuf-JSON, versions 0.1, 0.2 and 0.3
// (both media-type spellings). Parsing enforces the structural rules of each version; the
// cryptography is the verifier's.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace pb::sigstore {

struct InclusionProof {
    qint64 logIndex = 0;
    qint64 treeSize = 0;
    QByteArray rootHash;
    QList<QByteArray> hashes;
    QByteArray checkpoint; // signed note, exact bytes
};

struct TlogEntry {
    qint64 logIndex = 0;
    QByteArray logId;
    QString kind, version;
    qint64 integratedTime = 0; // Unix seconds; 0 for Rekor v2
    std::optional<QByteArray> signedEntryTimestamp;
    std::optional<InclusionProof> inclusionProof;
    QByteArray canonicalizedBody;
};

struct Bundle {
    enum class Material { PublicKey, CertificateChain, Certificate };

    QString mediaType;
    int minorVersion = 3; // 0.1 -> 1, 0.2 -> 2, 0.3 -> 3
    Material material = Material::Certificate;
    QString publicKeyHint;
    QList<QByteArray> certificates; // [0] is the leaf
    std::vector<TlogEntry> tlogEntries;
    QList<QByteArray> rfc3161Timestamps; // DER TimeStampResp

    bool isDsse = false;
    // messageSignature
    QString digestAlgorithm; // SHA2_256 | SHA2_384 | SHA2_512
    QByteArray messageDigest;
    // dsseEnvelope
    QByteArray payload; // decoded
    QString payloadType;
    QString keyId;
    // Both: the raw signature bytes.
    QByteArray signature;

    QByteArray leafDer() const { return certificates.isEmpty() ? QByteArray() : certificates.first(); }
};

Result<Bundle> parseBundle(const QByteArray& json, const QString& file);

// DSSE pre-authentication encoding: "DSSEv1 <len> <type> <len> <body>".
QByteArray dssePae(const QByteArray& payloadType, const QByteArray& payload);

} // namespace pb::sigstore
