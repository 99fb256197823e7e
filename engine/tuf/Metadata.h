// TUF metadata (specification 1.x): the signed envelope, the four top-level roles and delegated
// targets, parsed from bounded bytes with errors that name the file, the field and the reason; and
// signature thresholds checked with OpenSSL (ECDSA P-256/P-384 keys as PEM or hex points, Ed25519
// keys as hex). Key ids are taken as the metadata states them (as python-tuf and tuf-js do: Sigstore's
// own root history has ids that are not the hash of today's key encoding); a key is counted once
// however many ids name it.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <vector>

namespace pb::tuf {

// Size bounds per file, as tuf-js's defaults (the snapshot and targets roles may state an exact
// length, which then applies).
inline constexpr qint64 kRootMaxLength = 512000;
inline constexpr qint64 kTimestampMaxLength = 16384;
inline constexpr qint64 kSnapshotMaxLength = 2000000;
inline constexpr qint64 kTargetsMaxLength = 5000000;
inline constexpr qint64 kTargetMaxLength = 16ll * 1024 * 1024;
inline constexpr int kMaxRootRotations = 256;
inline constexpr int kMaxDelegations = 32;
inline constexpr int kMaxKeys = 1024;
inline constexpr int kMaxSignatures = 1024;

struct Key {
    QString id, type, scheme, publicValue;
};

struct RoleKeys {
    QStringList keyids;
    int threshold = 1;
};

// A metadata file as snapshot and timestamp describe it.
struct MetaFile {
    qint64 version = 0;
    qint64 length = -1;            // -1: not stated
    QMap<QString, QString> hashes; // algorithm -> lower-case hex
};

struct TargetFile {
    QString path;
    qint64 length = 0;
    QMap<QString, QString> hashes;
};

struct DelegatedRole {
    QString name;
    RoleKeys keys;
    bool terminating = false;
    QStringList paths, pathHashPrefixes;
    // Whether this role is trusted for `targetPath` (shell-style patterns per path segment, or
    // sha256 prefixes of the path).
    bool covers(const QString& targetPath) const;
};

struct Signature {
    QString keyid;
    QByteArray sig; // raw bytes (decoded from hex)
};

// The common part of every role, and the envelope around it.
struct Envelope {
    QString file; // as shown in errors: "metadata/root_history/14.root.json"
    QString type; // "_type"
    qint64 version = 0;
    QString specVersion;
    QString expiresText; // as written
    QDateTime expires;   // invalid when `expiresText` is not a time
    QJsonObject signedObject;
    QByteArray canonical; // the bytes the signatures cover
    std::vector<Signature> signatures;
    QByteArray bytes; // the file's bytes
};

struct Root {
    Envelope env;
    bool consistentSnapshot = false;
    QMap<QString, Key> keys;
    QMap<QString, RoleKeys> roles; // root, timestamp, snapshot, targets
};

struct Timestamp {
    Envelope env;
    MetaFile snapshot;
};

struct Snapshot {
    Envelope env;
    QMap<QString, MetaFile> meta; // "targets.json", "<delegated role>.json"
};

struct Targets {
    Envelope env;
    QMap<QString, TargetFile> targets;
    QMap<QString, Key> delegationKeys;
    std::vector<DelegatedRole> delegations;
};

// Parses the envelope (signatures, signed, common fields) and checks `_type` is `expectedType`
// ("root", "timestamp", "snapshot", "targets") and the specification's major version is 1.
Result<Envelope> parseEnvelope(const QByteArray& bytes, const QString& file, const QString& expectedType);
Result<Root> parseRoot(const QByteArray& bytes, const QString& file);
Result<Timestamp> parseTimestamp(const QByteArray& bytes, const QString& file);
Result<Snapshot> parseSnapshot(const QByteArray& bytes, const QString& file);
Result<Targets> parseTargets(const QByteArray& bytes, const QString& file);

// Counts the distinct keys among `role.keyids` (looked up in `keys`) with a valid signature over the
// envelope; an Error when fewer than `role.threshold`, saying how many of how many and whose keys
// (`signer`, e.g. "root v14's root role"). Returns the count.
Result<int> verifyThreshold(const Envelope& env, const QMap<QString, Key>& keys, const RoleKeys& role,
                            const QString& signer);

// One signature check, for unit tests and the threshold: an Error saying why a key cannot be used
// (unsupported type or scheme, unreadable public value), else whether `sig` verifies over `data`.
Result<bool> verifySignature(const Key& key, const QByteArray& data, const QByteArray& sig);

// Whether `hashes` (algorithm -> hex) all match `bytes` and at least one algorithm is known
// (sha256, sha384, sha512); an Error naming the algorithm that differs.
Status checkHashes(const QByteArray& bytes, const QMap<QString, QString>& hashes, const QString& file);

// "2026-11-20T13:58:18Z"; accepts what TUF writers emit (fractional seconds, an offset).
QDateTime parseTime(const QString& text);
QString formatTime(const QDateTime& t);

} // namespace pb::tuf
