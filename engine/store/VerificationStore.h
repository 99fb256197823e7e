// Trusted roots and verification results in the database. A trusted root is public trust material
// (stored verbatim, one of them the default the GUI and CLI fall back to); a verification stores
// its full step list as JSON next to the queryable verdict and signer.
#pragma once

#include "db/Database.h"
#include "sigstore/TrustedRoot.h"
#include "sigstore/Verify.h"
#include "tuf/Client.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>

#include <optional>
#include <vector>

namespace pb::store {

using db::Database;
using db::nullable;
using db::sqlError;
using db::Transaction;

// How a trusted root was vouched for by a TUF repository (trusted-root update): the repository copy,
// the anchor its root chain started from, each role's version and expiry, and the time expiry was
// checked against. Public metadata only.
struct TrustedRootProvenance {
    qint64 id = 0, trustedRootId = 0;
    QString repository, targetName, targetFile, anchorName, anchorSha256, signedBy;
    qint64 anchorVersion = 0, rootVersion = 0, timestampVersion = 0, snapshotVersion = 0, targetsVersion = 0;
    QList<qint64> rootChain;
    QDateTime rootExpires, timestampExpires, snapshotExpires, targetsExpires;
    QDateTime verificationTime; // what expiry was checked against
    bool timeGiven = false;     // the user fixed it (--at)
    QDateTime verifiedAt;       // the clock when the update ran
    // How the root chain started: "anchor" (no trusted state yet), "trusted-state" (continued from
    // it), "anchor-requested" (--from-anchor: the state was ignored and replaced).
    QString startedFrom = QStringLiteral("anchor");
    QString trustedState; // the state it continued from or ignored (summary); empty when none
    // "TUF root v15 (chain 13 -> 15), timestamp v762, snapshot v165, targets v14; as of 2026-08-22T00:00:00Z
    // (given)"
    QString summary() const;
    // The earliest expiry of the roles that vouched for the root.
    QDateTime earliestExpiry() const;
};

struct StoredTrustedRoot {
    qint64 id = 0;
    QString name, sha256, sourcePath;
    bool isDefault = false;
    QDateTime importedAt;
    std::optional<TrustedRootProvenance> provenance; // the latest TUF update that vouched for it, if any
};

struct StoredKey {
    qint64 id = 0;
    QString fingerprint, publicPem, label; // fingerprint: "sha256:<hex>" (sigstore::keyFingerprint)
    QDateTime createdAt;
};

struct StoredVerification {
    qint64 id = 0;
    QString bundleFile, bundleSha256, artifactDigest, mode, summary, signerIdentity, signerIssuer;
    QString trustedRootSha256;
    bool verified = false;
    QJsonObject policy, result;
    std::optional<qint64> evidenceBundleId;
    QDateTime verifiedAt;
};

class VerificationStore {
  public:
    explicit VerificationStore(Database& db) : m_db(db) {}

    // Parses the file (refusing an invalid root) and stores it; importing the same bytes again is a
    // no-op that returns the existing id. `makeDefault` makes it the root used when none is named.
    Result<qint64> importTrustedRoot(const QString& path, bool makeDefault = true);
    // The same for bytes already read (and checked) elsewhere, e.g. a TUF target: `name` is shown,
    // `sourcePath` is where they came from. Inside a caller's transaction it is a savepoint of it.
    Result<qint64> importTrustedRootBytes(const QByteArray& bytes, const QString& name,
                                          const QString& sourcePath, bool makeDefault = true);
    // Records a TUF provenance row for a stored root (inside the caller's transaction, if any).
    Result<qint64> addProvenance(const TrustedRootProvenance& provenance);
    // Every provenance row of a root, newest first.
    Result<std::vector<TrustedRootProvenance>> provenance(qint64 trustedRootId) const;
    // What TUF updates of the lineage of the anchor with this sha256 trusted last (the root bytes,
    // the role versions); an empty optional before the first successful update.
    Result<std::optional<tuf::TrustedState>> tufTrustedState(const QString& anchorSha256) const;
    // Replaces the lineage's state (inside the caller's transaction, with the provenance row
    // `provenanceId` of the update that produced it).
    Status saveTufTrustedState(const tuf::TrustedState& state, qint64 provenanceId);
    Result<std::vector<StoredTrustedRoot>> trustedRoots() const;
    // The default root, parsed; an empty optional when none was imported.
    Result<std::optional<sigstore::TrustedRoot>> defaultTrustedRoot() const;
    Result<sigstore::TrustedRoot> trustedRoot(qint64 id) const;
    Status setDefaultTrustedRoot(qint64 id);

    // Stores a verification (the row only: the operation that ran it, ops::verify, writes the
    // receipt in the same transaction). Opened inside a transaction, this is a savepoint of it.
    Result<qint64> record(const sigstore::VerificationResult& result, const QByteArray& bundleBytes,
                          const sigstore::Policy& policy, std::optional<qint64> evidenceBundleId = {});
    // The row only, inside a transaction the caller has open (a bundle import, whose own receipt
    // covers it).
    Result<qint64> recordInTransaction(const sigstore::VerificationResult& result,
                                       const QByteArray& bundleBytes, const sigstore::Policy& policy,
                                       std::optional<qint64> evidenceBundleId = {});
    Result<std::vector<StoredVerification>> recent(int limit = 200) const;
    Result<std::vector<StoredVerification>> forBundle(const QString& bundleSha256) const;

    // Public signing keys (never private ones): added once per fingerprint.
    Result<qint64> addPublicKey(const QByteArray& publicPem, const QString& label);
    Result<std::vector<StoredKey>> publicKeys() const;

  private:
    Database& m_db;
};

} // namespace pb::store
