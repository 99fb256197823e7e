// Offline Sigstore verification, the way sigstore-go and cosign v3 do it, with every step reported:
// bundle and trusted root parsed, transparency-log entries (Rekor v1 SET, inclusion proof and
// checkpoint; Rekor v2 rebuilt entry, proof and checkpoint) bound to this bundle, RFC 3161
// timestamps, the certificate path to Fulcio at every verified time (never the wall clock), SCTs,
// the signature over the artifact or DSSE envelope, and the identity policy. OpenSSL 3 does every
// primitive; nothing here touches the network.
#pragma once

#include "core/Result.h"
#include "sigstore/Bundle.h"
#include "sigstore/TrustedRoot.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace pb::sigstore {

struct PreparedKey; // a policy's public key decoded once (Verify.cpp)

// What must be true of the signer: a certificate identity (exact or regexp, issuer exact or
// regexp), or a public key. Regexps are unanchored, as cosign's are.
struct Policy {
    QString identity, identityRegexp;
    QString issuer, issuerRegexp;
    QByteArray publicKeyPem; // non-empty: key mode
    // cosign's --insecure-ignore-tlog: accept a bundle without a transparency-log entry (key-mode
    // bundles signed offline). Entries present are still verified.
    bool ignoreTlog = false;
    // Key mode: publicKeyPem decoded once by prepare(), for callers that verify many bundles with
    // one policy (sigstore-js likewise reads its keys once, into its trust material). verifyBundle
    // uses it only when it was made from the same bytes as publicKeyPem, and decodes the PEM itself
    // otherwise. Shared read-only between copies of the policy and threads.
    std::shared_ptr<const PreparedKey> preparedKey;
    void prepare();
    bool keyMode() const { return !publicKeyPem.isEmpty(); }
    QJsonObject toJson() const; // the policy as stored with a result (no key material, its digest)
    // cosign flags reproducing this policy (without --bundle/--trusted-root/artifact).
    QStringList cosignFlags() const;
};

// The artifact: its bytes, or only its digest ("sha256:<hex>" or bare hex).
struct Artifact {
    std::optional<QByteArray> bytes;
    QByteArray sha256; // raw 32 bytes when only the digest is known
    static Result<Artifact> fromDigest(const QString& text);
    static Artifact fromBytes(QByteArray data);
};

enum class StepState { Passed, Failed, Skipped };
QString stepStateName(StepState s); // "passed" | "failed" | "skipped"

struct Step {
    QString name; // stable, e.g. "transparency log"
    StepState state = StepState::Skipped;
    QString detail;          // what was checked, or why it failed
    QString expected, found; // side by side on a mismatch (identity, digests)
};

struct CertificateInfo {
    QString subject, issuer, serialHex;
    QString san, sanKind; // "URI" | "email" | "otherName"
    QString oidcIssuer;   // Fulcio extension .1.8 (or legacy .1.1)
    qint64 notBeforeMs = 0, notAfterMs = 0;
    QList<QPair<QString, QString>> extensions; // (name or OID, value) in certificate order
};

struct LogEntryInfo {
    QString logUrl, kind, version;
    qint64 logIndex = 0;
    qint64 integratedTime = 0; // 0: none (Rekor v2)
    QString checkpointOrigin;
    qint64 treeSize = 0;
    QString rootHashHex;
    bool verified = false;
};

struct TimestampInfo {
    QString tsaUri;
    qint64 genTimeMs = 0;
    bool verified = false;
    QString detail;
};

struct VerificationResult {
    bool verified = false;
    QString bundleFile;
    QString mediaType;
    std::vector<Step> steps;
    std::optional<CertificateInfo> certificate;
    std::vector<LogEntryInfo> logEntries;
    std::vector<TimestampInfo> timestamps;
    QList<qint64> verifiedTimesMs;
    QString predicateType; // DSSE in-toto statements
    QJsonObject statement;
    QString artifactDigest;    // "sha256:<hex>" of what was verified against
    QString trustedRootSha256; // hex digest of the trusted root file used

    const Step* firstFailure() const;
    QString summary() const; // one line: "verified" or the first failure
    QJsonObject toJson() const;
    static VerificationResult fromJson(const QJsonObject& o); // what toJson wrote
    QString toText() const;
};

VerificationResult verifyBundle(const QByteArray& bundleJson, const QString& bundleFile,
                                const Artifact& artifact, const TrustedRoot& root, const Policy& policy);

// The same with an already parsed bundle (batch and evidence callers parse once).
VerificationResult verifyBundle(const Bundle& bundle, const QString& bundleFile, const Artifact& artifact,
                                const TrustedRoot& root, const Policy& policy);

// Certificate details for display, from DER.
std::optional<CertificateInfo> describeCertificate(const QByteArray& der);

} // namespace pb::sigstore
