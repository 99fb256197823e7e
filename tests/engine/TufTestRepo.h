// A small TUF repository signed at test time with keys generated here (OpenSSL: Ed25519 for the root
// and targets roles, ECDSA P-256 for timestamp, snapshot and the delegated role), written in the
// Git-checkout layout engine/tuf/Client reads: metadata/root_history/N.root.json, metadata/root.json,
// metadata/{timestamp,snapshot,targets,<delegated>}.json, targets/FILE. The Sigstore copy holds one
// version of each role only; the rollback tests need validly signed OLDER metadata, so they publish
// a state, keep that folder, bump versions and publish again. Canonical JSON from engine/tuf (what
// the signatures cover), no private key ever written to disk.
#pragma once

#include "TufFixture.h"

#include "core/Hash.h"
#include "tuf/CanonicalJson.h"

#include <QJsonArray>

#include <openssl/evp.h>
#include <openssl/pem.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace pbtest {

struct TufTestKey {
    QString id;
    QJsonObject json; // as a root or delegation lists it
    std::shared_ptr<EVP_PKEY> pkey;

    static TufTestKey ed25519() {
        TufTestKey k;
        k.pkey.reset(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"), EVP_PKEY_free);
        unsigned char pub[32];
        size_t len = sizeof pub;
        EVP_PKEY_get_raw_public_key(k.pkey.get(), pub, &len);
        k.json = QJsonObject{
            {QStringLiteral("keytype"), QStringLiteral("ed25519")},
            {QStringLiteral("scheme"), QStringLiteral("ed25519")},
            {QStringLiteral("keyval"),
             QJsonObject{
                 {QStringLiteral("public"),
                  QString::fromLatin1(QByteArray(reinterpret_cast<const char*>(pub), int(len)).toHex())}}}};
        k.id = idOf(k.json);
        return k;
    }

    static TufTestKey ecdsaP256() {
        TufTestKey k;
        k.pkey.reset(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"), EVP_PKEY_free);
        BIO* bio = BIO_new(BIO_s_mem());
        PEM_write_bio_PUBKEY(bio, k.pkey.get());
        char* data = nullptr;
        const long n = BIO_get_mem_data(bio, &data);
        const QString pem = QString::fromLatin1(data, int(n));
        BIO_free(bio);
        k.json = QJsonObject{{QStringLiteral("keytype"), QStringLiteral("ecdsa")},
                             {QStringLiteral("scheme"), QStringLiteral("ecdsa-sha2-nistp256")},
                             {QStringLiteral("keyval"), QJsonObject{{QStringLiteral("public"), pem}}}};
        k.id = idOf(k.json);
        return k;
    }

    // The key id as TUF computes it: sha256 of the key's canonical JSON.
    static QString idOf(const QJsonObject& key) { return pb::sha256Hex(*pb::tuf::canonicalJson(key)); }

    QByteArray sign(const QByteArray& msg) const {
        const bool ed = EVP_PKEY_get_base_id(pkey.get()) == EVP_PKEY_ED25519;
        EVP_MD_CTX* ctx = EVP_MD_CTX_new();
        EVP_DigestSignInit(ctx, nullptr, ed ? nullptr : EVP_sha256(), nullptr, pkey.get());
        size_t len = 0;
        EVP_DigestSign(ctx, nullptr, &len, reinterpret_cast<const unsigned char*>(msg.constData()),
                       size_t(msg.size()));
        QByteArray sig(qsizetype(len), '\0');
        EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(sig.data()), &len,
                       reinterpret_cast<const unsigned char*>(msg.constData()), size_t(msg.size()));
        EVP_MD_CTX_free(ctx);
        sig.resize(qsizetype(len));
        return sig;
    }
};

// The signed envelope: {"signatures": [...], "signed": signedObj}, signed by each of `signers`.
inline QByteArray tufEnvelope(const QJsonObject& signedObj, const std::vector<TufTestKey>& signers) {
    const QByteArray msg = *pb::tuf::canonicalJson(signedObj);
    QJsonArray sigs;
    for (const TufTestKey& k : signers)
        sigs.append(QJsonObject{{QStringLiteral("keyid"), k.id},
                                {QStringLiteral("sig"), QString::fromLatin1(k.sign(msg).toHex())}});
    return QJsonDocument(
               QJsonObject{{QStringLiteral("signatures"), sigs}, {QStringLiteral("signed"), signedObj}})
        .toJson();
}

class TufTestRepo {
  public:
    // The keys the next root lists (change them, then addRoot(), to rotate).
    std::vector<TufTestKey> rootKeys{TufTestKey::ed25519()};
    TufTestKey timestampKey = TufTestKey::ecdsaP256(), snapshotKey = TufTestKey::ecdsaP256(),
               targetsKey = TufTestKey::ed25519();
    TufTestKey delegatedKey = TufTestKey::ecdsaP256();
    qint64 timestampVersion = 1, snapshotVersion = 1, targetsVersion = 1, delegatedVersion = 1;
    QString expires = QStringLiteral("2030-01-01T00:00:00Z");
    QString delegatedRole = QStringLiteral("delegated");
    QString targetName = QStringLiteral("trusted_root.json");
    QByteArray target = "{}\n";
    bool targetInDelegated = true; // the target is listed by the delegated role (so it is loaded)
    std::vector<QByteArray> roots; // roots[i]: the signed root v(i+1)

    TufTestRepo() { addRoot(); }

    // Root v(N+1) listing the current keys, signed by the previous root's keys and the new ones.
    const QByteArray& addRoot() {
        const qint64 version = qint64(roots.size()) + 1;
        QJsonObject keys;
        auto role = [&keys](const std::vector<TufTestKey>& ks) {
            QJsonArray ids;
            for (const TufTestKey& k : ks) {
                keys.insert(k.id, k.json);
                ids.append(k.id);
            }
            return QJsonObject{{QStringLiteral("keyids"), ids}, {QStringLiteral("threshold"), 1}};
        };
        QJsonObject roles{{QStringLiteral("root"), role(rootKeys)},
                          {QStringLiteral("timestamp"), role({timestampKey})},
                          {QStringLiteral("snapshot"), role({snapshotKey})},
                          {QStringLiteral("targets"), role({targetsKey})}};
        const QJsonObject signedObj{{QStringLiteral("_type"), QStringLiteral("root")},
                                    {QStringLiteral("spec_version"), QStringLiteral("1.0.31")},
                                    {QStringLiteral("version"), version},
                                    {QStringLiteral("expires"), expires},
                                    {QStringLiteral("consistent_snapshot"), false},
                                    {QStringLiteral("keys"), keys},
                                    {QStringLiteral("roles"), roles}};
        std::vector<TufTestKey> signers = m_signingRootKeys;
        for (const TufTestKey& k : rootKeys)
            if (std::none_of(signers.begin(), signers.end(),
                             [&](const TufTestKey& s) { return s.id == k.id; }))
                signers.push_back(k);
        roots.push_back(tufEnvelope(signedObj, signers));
        m_signingRootKeys = rootKeys;
        return roots.back();
    }

    // Writes the whole repository into `dir` (replacing what is there); false on a write error.
    bool publish(const QString& dir) const {
        QDir(dir).removeRecursively();
        if (!QDir().mkpath(dir + QStringLiteral("/metadata/root_history")) ||
            !QDir().mkpath(dir + QStringLiteral("/targets")))
            return false;
        bool ok = true;
        for (size_t i = 0; i < roots.size(); ++i)
            ok = ok &&
                 writeAll(dir + QStringLiteral("/metadata/root_history/%1.root.json").arg(i + 1), roots[i]);
        ok = ok && writeAll(dir + QStringLiteral("/metadata/root.json"), roots.back());
        ok = ok && writeAll(dir + QStringLiteral("/targets/") + targetName, target);

        const QJsonObject targetEntry{
            {QStringLiteral("length"), target.size()},
            {QStringLiteral("hashes"), QJsonObject{{QStringLiteral("sha256"), pb::sha256Hex(target)}}}};
        const QJsonObject listed{{targetName, targetEntry}};
        QJsonObject del = common(QStringLiteral("targets"), delegatedVersion);
        del.insert(QStringLiteral("targets"), targetInDelegated ? listed : QJsonObject());
        const QByteArray delegated = tufEnvelope(del, {delegatedKey});
        QJsonObject top = common(QStringLiteral("targets"), targetsVersion);
        top.insert(QStringLiteral("targets"), targetInDelegated ? QJsonObject() : listed);
        top.insert(
            QStringLiteral("delegations"),
            QJsonObject{{QStringLiteral("keys"), QJsonObject{{delegatedKey.id, delegatedKey.json}}},
                        {QStringLiteral("roles"),
                         QJsonArray{QJsonObject{{QStringLiteral("name"), delegatedRole},
                                                {QStringLiteral("keyids"), QJsonArray{delegatedKey.id}},
                                                {QStringLiteral("threshold"), 1},
                                                {QStringLiteral("terminating"), true},
                                                {QStringLiteral("paths"), QJsonArray{targetName}}}}}});
        const QByteArray targets = tufEnvelope(top, {targetsKey});
        QJsonObject snap = common(QStringLiteral("snapshot"), snapshotVersion);
        snap.insert(QStringLiteral("meta"),
                    QJsonObject{{QStringLiteral("targets.json"),
                                 QJsonObject{{QStringLiteral("version"), targetsVersion}}},
                                {delegatedRole + QStringLiteral(".json"),
                                 QJsonObject{{QStringLiteral("version"), delegatedVersion}}}});
        const QByteArray snapshot = tufEnvelope(snap, {snapshotKey});
        QJsonObject ts = common(QStringLiteral("timestamp"), timestampVersion);
        ts.insert(
            QStringLiteral("meta"),
            QJsonObject{{QStringLiteral("snapshot.json"),
                         QJsonObject{{QStringLiteral("version"), snapshotVersion},
                                     {QStringLiteral("length"), snapshot.size()},
                                     {QStringLiteral("hashes"),
                                      QJsonObject{{QStringLiteral("sha256"), pb::sha256Hex(snapshot)}}}}}});
        const QByteArray timestamp = tufEnvelope(ts, {timestampKey});
        ok = ok && writeAll(dir + QStringLiteral("/metadata/") + delegatedRole + QStringLiteral(".json"),
                            delegated);
        ok = ok && writeAll(dir + QStringLiteral("/metadata/targets.json"), targets);
        ok = ok && writeAll(dir + QStringLiteral("/metadata/snapshot.json"), snapshot);
        ok = ok && writeAll(dir + QStringLiteral("/metadata/timestamp.json"), timestamp);
        return ok;
    }

  private:
    QJsonObject common(const QString& type, qint64 version) const {
        return QJsonObject{{QStringLiteral("_type"), type},
                           {QStringLiteral("spec_version"), QStringLiteral("1.0.31")},
                           {QStringLiteral("version"), version},
                           {QStringLiteral("expires"), expires}};
    }

    std::vector<TufTestKey> m_signingRootKeys; // the keys of the last root (they sign the next)
};

} // namespace pbtest
