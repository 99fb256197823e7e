#include "store/VerificationStore.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "sigstore/Keys.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

namespace pb::store {

namespace {

QString now() { return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs); }

QDateTime parseTime(const QVariant& v) {
    QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(v.toString(), Qt::ISODate);
    return t;
}

const char* kVerificationColumns =
    "SELECT id, bundle_file, bundle_sha256, artifact_digest, mode, policy, trusted_root_sha256, verified, summary, "
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
    const QByteArray bytes = *read;
    auto parsed = sigstore::parseTrustedRoot(bytes, path);
    if (!parsed)
        return parsed.error();
    const QString digest = sha256Hex(bytes);
    Transaction tx(m_db.sql());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction"), m_db.path());
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
        ins.prepare(QStringLiteral("INSERT INTO trusted_roots (name, source_path, sha256, content, is_default, imported_at) "
                                   "VALUES (?, ?, ?, ?, 0, ?)"));
        ins.addBindValue(QFileInfo(path).fileName());
        ins.addBindValue(QFileInfo(path).absoluteFilePath());
        ins.addBindValue(digest);
        ins.addBindValue(bytes);
        ins.addBindValue(now());
        if (!ins.exec())
            return sqlError(ins, QStringLiteral("trusted_roots"));
        id = ins.lastInsertId().toLongLong();
    }
    if (makeDefault) {
        QSqlQuery d(m_db.sql());
        d.prepare(QStringLiteral("UPDATE trusted_roots SET is_default = (id = ?)"));
        d.addBindValue(id);
        if (!d.exec())
            return sqlError(d, QStringLiteral("trusted_roots.is_default"));
    }
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the trusted root"), m_db.path());
    return id;
}

Result<std::vector<StoredTrustedRoot>> VerificationStore::trustedRoots() const {
    QSqlQuery q(m_db.sql());
    if (!q.exec(QStringLiteral("SELECT id, name, sha256, source_path, is_default, imported_at FROM trusted_roots ORDER BY id")))
        return sqlError(q, QStringLiteral("trusted_roots"));
    std::vector<StoredTrustedRoot> out;
    while (q.next())
        out.push_back(StoredTrustedRoot{q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                                        q.value(4).toInt() == 1, parseTime(q.value(5))});
    return out;
}

Status VerificationStore::setDefaultTrustedRoot(qint64 id) {
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("UPDATE trusted_roots SET is_default = (id = ?) WHERE EXISTS (SELECT 1 FROM trusted_roots WHERE id = ?)"));
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
    if (!q.exec(QStringLiteral("SELECT id FROM trusted_roots WHERE is_default = 1 LIMIT 1")))
        return sqlError(q, QStringLiteral("trusted_roots"));
    if (!q.next())
        return std::optional<sigstore::TrustedRoot>();
    auto root = trustedRoot(q.value(0).toLongLong());
    if (!root)
        return root.error();
    return std::optional<sigstore::TrustedRoot>(std::move(*root));
}

Result<qint64> VerificationStore::record(const sigstore::VerificationResult& result, const QByteArray& bundleBytes,
                                         const sigstore::Policy& policy, std::optional<qint64> evidenceBundleId) {
    Transaction tx(m_db.sql()); // a savepoint inside the caller's transaction
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(m_db.sql().lastError().text()), m_db.path());
    auto id = recordInTransaction(result, bundleBytes, policy, evidenceBundleId);
    if (!id)
        return id;
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the verification: %1").arg(m_db.sql().lastError().text()), m_db.path());
    return id;
}

Result<qint64> VerificationStore::recordInTransaction(const sigstore::VerificationResult& result, const QByteArray& bundleBytes,
                                                      const sigstore::Policy& policy, std::optional<qint64> evidenceBundleId) {
    const QString trustedRoot = result.trustedRootSha256;
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("INSERT INTO verifications (bundle_file, bundle_sha256, artifact_digest, mode, policy, trusted_root_sha256, "
                             "verified, summary, signer_identity, signer_issuer, result, evidence_bundle_id, verified_at) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
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
    if (!q.exec())
        return sqlError(q, QStringLiteral("verifications"));
    return q.lastInsertId().toLongLong();
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
    q.prepare(QString::fromLatin1(kVerificationColumns) + QStringLiteral("WHERE bundle_sha256 = ? ORDER BY id DESC"));
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
    const QString fp = sigstore::keyFingerprint(key.get());
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("INSERT INTO signing_keys (fingerprint, public_pem, label, created_at) VALUES (?, ?, ?, ?) "
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
    if (!q.exec(QStringLiteral("SELECT id, fingerprint, public_pem, label, created_at FROM signing_keys ORDER BY id")))
        return sqlError(q, QStringLiteral("signing_keys"));
    std::vector<StoredKey> out;
    while (q.next())
        out.push_back(StoredKey{q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(), parseTime(q.value(4))});
    return out;
}

} // namespace pb::store
