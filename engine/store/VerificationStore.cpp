#include "store/VerificationStore.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "sigstore/Keys.h"
#include "store/Returning.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

namespace pb::store {

namespace {

QString now() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QDateTime parseTime(const QVariant& v) {
    QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(v.toString(), Qt::ISODate);
    return t;
}

const char* kVerificationColumns =
    "SELECT id, bundle_file, bundle_sha256, artifact_digest, mode, policy, trusted_root_sha256, verified, "
    "summary, "
    "signer_identity, signer_issuer, result, evidence_bundle_id, verified_at FROM verifications ";

StoredVerification readVerification(const QSqlQuery& q) {
    StoredVerification v;
    v.id = q.value(0).toLongLong();
    v.bundleFile = q.value(1).toString();
    v.bundleSha256 = q.value(2).toString();
    v.artifactDigest = q.value(3).toString();
    v.mode = q.value(4).toString();
    v.policy = QJsonDocument::fromJson(q.value(5).toByteArray()).object();
    v.trustedRootSha256 = q.value(6).toString();
    v.verified = q.value(7).toInt() == 1;
    v.summary = q.value(8).toString();
    v.signerIdentity = q.value(9).toString();
    v.signerIssuer = q.value(10).toString();
    v.result = QJsonDocument::fromJson(q.value(11).toByteArray()).object();
    if (!q.value(12).isNull())
        v.evidenceBundleId = q.value(12).toLongLong();
    v.verifiedAt = parseTime(q.value(13));
    return v;
}

} // namespace

Result<qint64> VerificationStore::importTrustedRoot(const QString& path, bool makeDefault) {
    Result<QByteArray> read = readFileLimited(path, limits::kConfigFile, QStringLiteral("the trusted root"));
    if (!read)
        return read.error();
    return importTrustedRootBytes(*read, QFileInfo(path).fileName(), QFileInfo(path).absoluteFilePath(),
                                  makeDefault);
}

Result<qint64> VerificationStore::importTrustedRootBytes(const QByteArray& bytes, const QString& name,
                                                         const QString& sourcePath, bool makeDefault) {
    auto parsed = sigstore::parseTrustedRoot(bytes, sourcePath.isEmpty() ? name : sourcePath);
    if (!parsed)
        return parsed.error();
    const QString digest = sha256Hex(bytes);
    Transaction tx(m_db.sql());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("SELECT id FROM trusted_roots WHERE sha256 = ?"));
    q.addBindValue(digest);
    if (!q.exec())
        return sqlError(q, QStringLiteral("trusted_roots"));
    qint64 id = 0;
    if (q.next()) {
        id = q.value(0).toLongLong();
    } else {
        QSqlQuery ins(m_db.sql());
        ins.prepare(QStringLiteral(
            "INSERT INTO trusted_roots (name, source_path, sha256, content, is_default, imported_at) "
            "VALUES (?, ?, ?, ?, 0, ?) RETURNING id"));
        ins.addBindValue(name);
        ins.addBindValue(nullable(sourcePath));
        ins.addBindValue(digest);
        ins.addBindValue(bytes);
        ins.addBindValue(now());
        Result<qint64> inserted = execReturningId(ins, QStringLiteral("trusted_roots"));
        if (!inserted)
            return inserted.error();
        id = *inserted;
    }
    if (makeDefault) {
        QSqlQuery d(m_db.sql());
        d.prepare(QStringLiteral("UPDATE trusted_roots SET is_default = CASE WHEN id = ? THEN 1 ELSE 0 END"));
        d.addBindValue(id);
        if (!d.exec())
            return sqlError(d, QStringLiteral("trusted_roots.is_default"));
    }
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the trusted root"), m_db.path());
    return id;
}

namespace {

const char* kProvenanceColumns = "SELECT id, trusted_root_id, repository, target_name, target_file, "
                                 "anchor_name, anchor_sha256, anchor_version, root_chain, "
                                 "root_version, root_expires, timestamp_version, timestamp_expires, "
                                 "snapshot_version, snapshot_expires, targets_version, "
                                 "targets_expires, signed_by, verification_time, time_given, verified_at, "
                                 "started_from, trusted_state FROM trusted_root_provenance ";

QString isoTime(const QDateTime& t) {
    return t.toUTC().toString(Qt::ISODate);
}

TrustedRootProvenance readProvenance(const QSqlQuery& q) {
    TrustedRootProvenance p;
    p.id = q.value(0).toLongLong();
    p.trustedRootId = q.value(1).toLongLong();
    p.repository = q.value(2).toString();
    p.targetName = q.value(3).toString();
    p.targetFile = q.value(4).toString();
    p.anchorName = q.value(5).toString();
    p.anchorSha256 = q.value(6).toString();
    p.anchorVersion = q.value(7).toLongLong();
    for (const QJsonValue v : QJsonDocument::fromJson(q.value(8).toByteArray()).array())
        p.rootChain << v.toInteger();
    p.rootVersion = q.value(9).toLongLong();
    p.rootExpires = parseTime(q.value(10));
    p.timestampVersion = q.value(11).toLongLong();
    p.timestampExpires = parseTime(q.value(12));
    p.snapshotVersion = q.value(13).toLongLong();
    p.snapshotExpires = parseTime(q.value(14));
    p.targetsVersion = q.value(15).toLongLong();
    p.targetsExpires = parseTime(q.value(16));
    p.signedBy = q.value(17).toString();
    p.verificationTime = parseTime(q.value(18));
    p.timeGiven = q.value(19).toInt() == 1;
    p.verifiedAt = parseTime(q.value(20));
    p.startedFrom = q.value(21).toString();
    p.trustedState = q.value(22).toString();
    return p;
}

} // namespace

QString TrustedRootProvenance::summary() const {
    return QStringLiteral(
               "TUF root v%1 (chain from v%2), timestamp v%3, snapshot v%4, targets v%5; verified as of %6%7")
               .arg(rootVersion)
               .arg(anchorVersion)
               .arg(timestampVersion)
               .arg(snapshotVersion)
               .arg(targetsVersion)
               .arg(isoTime(verificationTime), timeGiven ? QStringLiteral(" (time given)") : QString()) +
           (startedFrom == QLatin1String("trusted-state")
                ? QStringLiteral("; continued from the trusted state (%1)").arg(trustedState)
            : startedFrom == QLatin1String("anchor-requested")
                ? QStringLiteral("; started again from the anchor as asked") +
                      (trustedState.isEmpty()
                           ? QString()
                           : QStringLiteral(", ignoring the trusted state (%1)").arg(trustedState))
                : QString());
}

QDateTime TrustedRootProvenance::earliestExpiry() const {
    QDateTime e = rootExpires;
    for (const QDateTime& t : {timestampExpires, snapshotExpires, targetsExpires})
        if (t.isValid() && (!e.isValid() || t < e))
            e = t;
    return e;
}

Result<qint64> VerificationStore::addProvenance(const TrustedRootProvenance& p) {
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral(
        "INSERT INTO trusted_root_provenance (trusted_root_id, repository, target_name, target_file, "
        "anchor_name, "
        "anchor_sha256, anchor_version, root_chain, root_version, root_expires, timestamp_version, "
        "timestamp_expires, "
        "snapshot_version, snapshot_expires, targets_version, targets_expires, signed_by, verification_time, "
        "time_given, verified_at, started_from, trusted_state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    QJsonArray chain;
    for (qint64 v : p.rootChain)
        chain.append(v);
    for (const QVariant& v :
         {QVariant(p.trustedRootId),
          QVariant(p.repository),
          QVariant(p.targetName),
          QVariant(p.targetFile),
          QVariant(p.anchorName),
          QVariant(p.anchorSha256),
          QVariant(p.anchorVersion),
          QVariant(QString::fromUtf8(QJsonDocument(chain).toJson(QJsonDocument::Compact))),
          QVariant(p.rootVersion),
          QVariant(isoTime(p.rootExpires)),
          QVariant(p.timestampVersion),
          QVariant(isoTime(p.timestampExpires)),
          QVariant(p.snapshotVersion),
          QVariant(isoTime(p.snapshotExpires)),
          QVariant(p.targetsVersion),
          QVariant(isoTime(p.targetsExpires)),
          QVariant(p.signedBy),
          QVariant(isoTime(p.verificationTime)),
          QVariant(p.timeGiven ? 1 : 0),
          QVariant(p.verifiedAt.isValid() ? isoTime(p.verifiedAt) : now()),
          QVariant(p.startedFrom),
          nullable(p.trustedState)})
        q.addBindValue(v);
    return execReturningId(q, QStringLiteral("trusted_root_provenance"));
}

Result<std::vector<TrustedRootProvenance>> VerificationStore::provenance(qint64 trustedRootId) const {
    QSqlQuery q(m_db.sql());
    q.prepare(QString::fromLatin1(kProvenanceColumns) +
              QStringLiteral("WHERE trusted_root_id = ? ORDER BY id DESC"));
    q.addBindValue(trustedRootId);
    if (!q.exec())
        return sqlError(q, QStringLiteral("trusted_root_provenance"));
    std::vector<TrustedRootProvenance> out;
    while (q.next())
        out.push_back(readProvenance(q));
    return out;
}

namespace {

QJsonObject roleStateJson(const tuf::RoleState& r) {
    return QJsonObject{{QStringLiteral("version"), r.version},
                       {QStringLiteral("expires"), isoTime(r.expires)},
                       {QStringLiteral("file"), r.file}};
}

QString compact(const QJsonObject& o) {
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

} // namespace

Result<std::optional<tuf::TrustedState>>
VerificationStore::tufTrustedState(const QString& anchorSha256) const {
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral(
        "SELECT anchor_name, repository, root_version, root_expires, root_json, timestamp_version, "
        "timestamp_expires, "
        "snapshot_version, snapshot_expires, snapshot_meta, targets_version, targets_expires, delegations, "
        "verification_time, time_given, updated_at FROM tuf_trusted_state WHERE anchor_sha256 = ?"));
    q.addBindValue(anchorSha256);
    if (!q.exec())
        return sqlError(q, QStringLiteral("tuf_trusted_state"));
    if (!q.next())
        return std::optional<tuf::TrustedState>();
    tuf::TrustedState t;
    t.anchorSha256 = anchorSha256;
    t.anchorName = q.value(0).toString();
    t.repository = q.value(1).toString();
    t.root = tuf::RoleState{q.value(2).toLongLong(), parseTime(q.value(3)), QStringLiteral("root.json")};
    t.rootBytes = q.value(4).toByteArray();
    t.timestamp =
        tuf::RoleState{q.value(5).toLongLong(), parseTime(q.value(6)), QStringLiteral("timestamp.json")};
    t.snapshot =
        tuf::RoleState{q.value(7).toLongLong(), parseTime(q.value(8)), QStringLiteral("snapshot.json")};
    const QJsonObject meta = QJsonDocument::fromJson(q.value(9).toByteArray()).object();
    for (auto it = meta.begin(); it != meta.end(); ++it)
        t.snapshotMeta.insert(it.key(), it.value().toInteger());
    t.targets =
        tuf::RoleState{q.value(10).toLongLong(), parseTime(q.value(11)), QStringLiteral("targets.json")};
    const QJsonObject del = QJsonDocument::fromJson(q.value(12).toByteArray()).object();
    for (auto it = del.begin(); it != del.end(); ++it) {
        const QJsonObject r = it.value().toObject();
        t.delegations.emplace_back(it.key(),
                                   tuf::RoleState{r.value(QStringLiteral("version")).toInteger(),
                                                  parseTime(r.value(QStringLiteral("expires")).toString()),
                                                  r.value(QStringLiteral("file")).toString()});
    }
    t.verificationTime = parseTime(q.value(13));
    t.timeGiven = q.value(14).toInt() == 1;
    t.updatedAt = parseTime(q.value(15));
    // A row whose JSON columns do not read back is not a state to trust silently.
    if (t.rootBytes.isEmpty() || t.root.version <= 0)
        return makeError(
            QStringLiteral("the trusted TUF state of anchor %1 has no root").arg(anchorSha256.left(16)),
            m_db.path(), 0, QStringLiteral("tuf_trusted_state.root_json"));
    return std::optional<tuf::TrustedState>(std::move(t));
}

Status VerificationStore::saveTufTrustedState(const tuf::TrustedState& t, qint64 provenanceId) {
    QJsonObject meta;
    for (auto it = t.snapshotMeta.begin(); it != t.snapshotMeta.end(); ++it)
        meta.insert(it.key(), it.value());
    QJsonObject del;
    for (const auto& [name, st] : t.delegations)
        del.insert(name, roleStateJson(st));
    QSqlQuery q(m_db.sql());
    // One row per anchor: a later update replaces every column (the row's identity is its anchor).
    q.prepare(QStringLiteral(
        "INSERT INTO tuf_trusted_state (anchor_sha256, anchor_name, repository, root_version, root_expires, "
        "root_json, root_sha256, timestamp_version, timestamp_expires, snapshot_version, snapshot_expires, "
        "snapshot_meta, targets_version, targets_expires, delegations, verification_time, time_given, "
        "provenance_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (anchor_sha256) DO UPDATE SET anchor_name = excluded.anchor_name, "
        "repository = excluded.repository, root_version = excluded.root_version, "
        "root_expires = excluded.root_expires, root_json = excluded.root_json, "
        "root_sha256 = excluded.root_sha256, timestamp_version = excluded.timestamp_version, "
        "timestamp_expires = excluded.timestamp_expires, snapshot_version = excluded.snapshot_version, "
        "snapshot_expires = excluded.snapshot_expires, snapshot_meta = excluded.snapshot_meta, "
        "targets_version = excluded.targets_version, targets_expires = excluded.targets_expires, "
        "delegations = excluded.delegations, verification_time = excluded.verification_time, "
        "time_given = excluded.time_given, provenance_id = excluded.provenance_id, "
        "updated_at = excluded.updated_at"));
    for (const QVariant& v :
         {QVariant(t.anchorSha256), QVariant(t.anchorName), QVariant(t.repository), QVariant(t.root.version),
          QVariant(isoTime(t.root.expires)), QVariant(t.rootBytes), QVariant(sha256Hex(t.rootBytes)),
          QVariant(t.timestamp.version), QVariant(isoTime(t.timestamp.expires)), QVariant(t.snapshot.version),
          QVariant(isoTime(t.snapshot.expires)), QVariant(compact(meta)), QVariant(t.targets.version),
          QVariant(isoTime(t.targets.expires)), QVariant(compact(del)), QVariant(isoTime(t.verificationTime)),
          QVariant(t.timeGiven ? 1 : 0),
          provenanceId > 0 ? QVariant(provenanceId) : QVariant(QMetaType(QMetaType::LongLong)),
          QVariant(t.updatedAt.isValid() ? isoTime(t.updatedAt) : now())})
        q.addBindValue(v);
    if (!q.exec())
        return sqlError(q, QStringLiteral("tuf_trusted_state"));
    return {};
}

Result<std::vector<StoredTrustedRoot>> VerificationStore::trustedRoots() const {
    QSqlQuery q(m_db.sql());
    if (!q.exec(QStringLiteral(
            "SELECT id, name, sha256, source_path, is_default, imported_at FROM trusted_roots ORDER BY id")))
        return sqlError(q, QStringLiteral("trusted_roots"));
    std::vector<StoredTrustedRoot> out;
    while (q.next())
        out.push_back(StoredTrustedRoot{q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
                                        q.value(3).toString(), q.value(4).toInt() == 1, parseTime(q.value(5)),
                                        std::nullopt});
    for (StoredTrustedRoot& r : out) {
        auto p = provenance(r.id);
        if (!p)
            return p.error();
        if (!p->empty())
            r.provenance = p->front();
    }
    return out;
}

Status VerificationStore::setDefaultTrustedRoot(qint64 id) {
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("UPDATE trusted_roots SET is_default = CASE WHEN id = ? THEN 1 ELSE 0 END "
                             "WHERE EXISTS (SELECT 1 FROM trusted_roots WHERE id = ?)"));
    q.addBindValue(id);
    q.addBindValue(id);
    if (!q.exec())
        return sqlError(q, QStringLiteral("trusted_roots.is_default"));
    if (q.numRowsAffected() == 0)
        return makeError(QStringLiteral("no trusted root with id %1").arg(id), m_db.path());
    return {};
}

Result<sigstore::TrustedRoot> VerificationStore::trustedRoot(qint64 id) const {
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("SELECT name, content FROM trusted_roots WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return sqlError(q, QStringLiteral("trusted_roots"));
    if (!q.next())
        return makeError(QStringLiteral("no trusted root with id %1").arg(id), m_db.path());
    return sigstore::parseTrustedRoot(q.value(1).toByteArray(), q.value(0).toString());
}

Result<std::optional<sigstore::TrustedRoot>> VerificationStore::defaultTrustedRoot() const {
    QSqlQuery q(m_db.sql());
    if (!q.exec(QStringLiteral("SELECT id FROM trusted_roots WHERE is_default = 1 ORDER BY id LIMIT 1")))
        return sqlError(q, QStringLiteral("trusted_roots"));
    if (!q.next())
        return std::optional<sigstore::TrustedRoot>();
    auto root = trustedRoot(q.value(0).toLongLong());
    if (!root)
        return root.error();
    return std::optional<sigstore::TrustedRoot>(std::move(*root));
}

Result<qint64> VerificationStore::record(const sigstore::VerificationResult& result,
                                         const QByteArray& bundleBytes, const sigstore::Policy& policy,
                                         std::optional<qint64> evidenceBundleId) {
    Transaction tx(m_db.sql()); // a savepoint inside the caller's transaction
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    auto id = recordInTransaction(result, bundleBytes, policy, evidenceBundleId);
    if (!id)
        return id;
    if (!tx.commit())
        return makeError(
            QStringLiteral("cannot commit the verification: %1").arg(m_db.sql().lastError().text()),
            m_db.path());
    return id;
}

Result<qint64> VerificationStore::recordInTransaction(const sigstore::VerificationResult& result,
                                                      const QByteArray& bundleBytes,
                                                      const sigstore::Policy& policy,
                                                      std::optional<qint64> evidenceBundleId) {
    const QString trustedRoot = result.trustedRootSha256;
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral(
        "INSERT INTO verifications (bundle_file, bundle_sha256, artifact_digest, mode, policy, "
        "trusted_root_sha256, "
        "verified, summary, signer_identity, signer_issuer, result, evidence_bundle_id, verified_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    q.addBindValue(result.bundleFile);
    q.addBindValue(sha256Hex(bundleBytes));
    q.addBindValue(nullable(result.artifactDigest));
    q.addBindValue(policy.keyMode() ? QStringLiteral("key") : QStringLiteral("identity"));
    q.addBindValue(QString::fromUtf8(QJsonDocument(policy.toJson()).toJson(QJsonDocument::Compact)));
    q.addBindValue(nullable(trustedRoot));
    q.addBindValue(result.verified ? 1 : 0);
    q.addBindValue(result.summary());
    q.addBindValue(nullable(result.certificate ? result.certificate->san : QString()));
    q.addBindValue(nullable(result.certificate ? result.certificate->oidcIssuer : QString()));
    q.addBindValue(QString::fromUtf8(QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact)));
    q.addBindValue(evidenceBundleId ? QVariant(*evidenceBundleId) : QVariant(QMetaType(QMetaType::LongLong)));
    q.addBindValue(now());
    return execReturningId(q, QStringLiteral("verifications"));
}

Result<std::vector<StoredVerification>> VerificationStore::recent(int limit) const {
    QSqlQuery q(m_db.sql());
    q.prepare(QString::fromLatin1(kVerificationColumns) + QStringLiteral("ORDER BY id DESC LIMIT ?"));
    q.addBindValue(limit);
    if (!q.exec())
        return sqlError(q, QStringLiteral("verifications"));
    std::vector<StoredVerification> out;
    while (q.next())
        out.push_back(readVerification(q));
    return out;
}

Result<std::vector<StoredVerification>> VerificationStore::forBundle(const QString& bundleSha256) const {
    QSqlQuery q(m_db.sql());
    q.prepare(QString::fromLatin1(kVerificationColumns) +
              QStringLiteral("WHERE bundle_sha256 = ? ORDER BY id DESC"));
    q.addBindValue(bundleSha256);
    if (!q.exec())
        return sqlError(q, QStringLiteral("verifications"));
    std::vector<StoredVerification> out;
    while (q.next())
        out.push_back(readVerification(q));
    return out;
}

Result<qint64> VerificationStore::addPublicKey(const QByteArray& publicPem, const QString& label) {
    sigstore::crypto::Pkey key = sigstore::crypto::pkeyFromPem(publicPem);
    if (!key)
        return makeError(QStringLiteral("not a PEM public key"), label);
    if (publicPem.contains("PRIVATE"))
        return makeError(QStringLiteral("refusing to store private key material"), label);
    const QString fp = sigstore::keyHint(key.get()); // stored as the hint; shown as keyFingerprint
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral(
        "INSERT INTO signing_keys (fingerprint, public_pem, label, created_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(fingerprint) DO NOTHING"));
    q.addBindValue(fp);
    q.addBindValue(QString::fromLatin1(sigstore::publicKeyPem(key.get())));
    q.addBindValue(label);
    q.addBindValue(now());
    if (!q.exec())
        return sqlError(q, QStringLiteral("signing_keys"));
    QSqlQuery id(m_db.sql());
    id.prepare(QStringLiteral("SELECT id FROM signing_keys WHERE fingerprint = ?"));
    id.addBindValue(fp);
    if (!id.exec() || !id.next())
        return sqlError(id, QStringLiteral("signing_keys"));
    return id.value(0).toLongLong();
}

Result<std::vector<StoredKey>> VerificationStore::publicKeys() const {
    QSqlQuery q(m_db.sql());
    if (!q.exec(QStringLiteral(
            "SELECT id, fingerprint, public_pem, label, created_at FROM signing_keys ORDER BY id")))
        return sqlError(q, QStringLiteral("signing_keys"));
    std::vector<StoredKey> out;
    while (q.next())
        out.push_back(StoredKey{q.value(0).toLongLong(), sigstore::fingerprintFromHint(q.value(1).toString()),
                                q.value(2).toString(), q.value(3).toString(), parseTime(q.value(4))});
    return out;
}

} // namespace pb::store
