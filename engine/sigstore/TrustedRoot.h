// Sigstore's trusted_root.json (dev.sigstore.trustroot.v1.TrustedRoot): the transparency logs,
// Fulcio certificate authorities, CT logs and timestamp authorities a verifier trusts, each with a
// validity window. Parsed strictly: a log without a key, a log id or a validity start rejects the
// whole root rather than trusting it unbounded.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace pb::sigstore {

struct TrustCache;

// Milliseconds since the Unix epoch; all validFor ranges are closed intervals.
struct TimeRange {
    qint64 startMs = 0;
    std::optional<qint64> endMs; // open-ended when absent
    bool contains(qint64 ms) const { return ms >= startMs && (!endMs || ms <= *endMs); }
};

struct TransparencyLog {
    QString baseUrl;
    QString hashAlgorithm;   // always SHA2_256 after parsing
    QByteArray publicKeyDer; // SubjectPublicKeyInfo DER (or PKCS#1 for PKCS1_RSA_PKCS1V5)
    QString keyDetails;      // e.g. PKIX_ECDSA_P256_SHA_256, PKIX_ED25519
    TimeRange validFor;
    QByteArray logId; // raw key id bytes (32)
    QByteArray checkpointKeyId;
    QString host() const; // hostname of baseUrl, the Rekor v2 checkpoint origin
};

struct CertificateAuthority {
    QString uri, organization, commonName;
    QList<QByteArray> certChainDer; // CA: intermediates..., root last; TSA: leaf, intermediates..., root
    TimeRange validFor;
};

struct TrustedRoot {
    QString mediaType;
    std::vector<TransparencyLog> tlogs, ctlogs;
    std::vector<CertificateAuthority> certificateAuthorities, timestampAuthorities;
    QByteArray sha256; // digest of the file bytes, to name which root a result used
    // Keys and certificates decoded once (set by parseTrustedRoot; built on first use otherwise).
    std::shared_ptr<const TrustCache> cache;

    const TransparencyLog* tlogById(const QByteArray& logId) const;
    const TransparencyLog* ctlogById(const QByteArray& logId) const;
};

Result<TrustedRoot> parseTrustedRoot(const QByteArray& json, const QString& file);
Result<TrustedRoot> loadTrustedRoot(const QString& path);

// RFC 3339 ("2022-12-31T23:59:59.999Z", offsets allowed) to epoch milliseconds.
std::optional<qint64> parseRfc3339Ms(const QString& text);
QString formatMs(qint64 ms); // "2026-05-13T19:23:33Z" (milliseconds shown when non-zero)

// Strict standard/URL-safe base64 as protojson reads it (padding optional, nothing else allowed).
std::optional<QByteArray> decodeBase64Strict(const QString& text);

} // namespace pb::sigstore
