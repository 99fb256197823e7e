// engine/tuf against the real Sigstore public-good TUF repository copy: canonical JSON, the root
// chain from the shipped anchor and from root v1 (hex-encoded keys), expiry against a given time and
// against now, the delegation search, and each kind of tampering on a temporary copy; and rollback
// protection across updates (a TrustedState from an earlier update): on the real copy for the root,
// on a small repository signed at test time (TufTestRepo.h) for the other roles, whose older
// versions the real copy does not hold.
#include "TufFixture.h"
#include "TufTestRepo.h"

#include "sigstore/Crypto.h"
#include "tuf/CanonicalJson.h"
#include "tuf/Client.h"
#include "tuf/Metadata.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <openssl/evp.h>

using namespace pb;

namespace {

QByteArray shippedAnchor() {
    return pbtest::readAll(QStringLiteral(":/tuf/sigstore-public-good-root-v13.json"));
}

tuf::ClientResult runAt(const QString& dir, const QByteArray& anchor, std::optional<QDateTime> at,
                        const QString& target = QStringLiteral("trusted_root.json")) {
    tuf::ClientRequest r;
    r.dir = dir;
    r.anchor = anchor;
    r.anchorName = QStringLiteral("anchor.json");
    r.at = at;
    r.targetName = target;
    return tuf::runClient(r);
}

QByteArray canon(const char* json) {
    auto c = tuf::canonicalJson(QJsonDocument::fromJson(json).object());
    return c ? *c : QByteArray("ERROR: ") + c.error().toString().toUtf8();
}

// A root signed by one fresh Ed25519 key (OpenSSL), structured like Sigstore's: a different
// repository's root, validly self-signed.
QByteArray foreignEd25519Root(qint64 version) {
    EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
    unsigned char pub[32];
    size_t publen = sizeof pub;
    EVP_PKEY_get_raw_public_key(key, pub, &publen);
    const QString hexPub =
        QString::fromLatin1(QByteArray(reinterpret_cast<const char*>(pub), int(publen)).toHex());
    const QString keyid = QStringLiteral("aa").repeated(32);
    QJsonObject role{{QStringLiteral("keyids"), QJsonArray{keyid}}, {QStringLiteral("threshold"), 1}};
    QJsonObject signedObj{
        {QStringLiteral("_type"), QStringLiteral("root")},
        {QStringLiteral("spec_version"), QStringLiteral("1.0")},
        {QStringLiteral("version"), version},
        {QStringLiteral("expires"), QStringLiteral("2030-01-01T00:00:00Z")},
        {QStringLiteral("consistent_snapshot"), true},
        {QStringLiteral("keys"),
         QJsonObject{{keyid, QJsonObject{{QStringLiteral("keytype"), QStringLiteral("ed25519")},
                                         {QStringLiteral("scheme"), QStringLiteral("ed25519")},
                                         {QStringLiteral("keyval"),
                                          QJsonObject{{QStringLiteral("public"), hexPub}}}}}}},
        {QStringLiteral("roles"), QJsonObject{{QStringLiteral("root"), role},
                                              {QStringLiteral("timestamp"), role},
                                              {QStringLiteral("snapshot"), role},
                                              {QStringLiteral("targets"), role}}}};
    const QByteArray msg = *tuf::canonicalJson(signedObj);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, key);
    unsigned char sig[64];
    size_t siglen = sizeof sig;
    EVP_DigestSign(ctx, sig, &siglen, reinterpret_cast<const unsigned char*>(msg.constData()),
                   size_t(msg.size()));
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    QJsonObject env{
        {QStringLiteral("signed"), signedObj},
        {QStringLiteral("signatures"),
         QJsonArray{QJsonObject{
             {QStringLiteral("keyid"), keyid},
             {QStringLiteral("sig"),
              QString::fromLatin1(QByteArray(reinterpret_cast<const char*>(sig), int(siglen)).toHex())}}}}};
    return QJsonDocument(env).toJson();
}

tuf::ClientResult runTrusted(const QString& dir, const QByteArray& anchor, std::optional<QDateTime> at,
                             std::optional<tuf::TrustedState> trusted) {
    tuf::ClientRequest r;
    r.dir = dir;
    r.anchor = anchor;
    r.anchorName = QStringLiteral("anchor.json");
    r.at = at;
    r.trusted = std::move(trusted);
    return tuf::runClient(r);
}

// What a successful run leaves trusted, as the store would give it back.
tuf::TrustedState stateOf(const tuf::ClientResult& r) {
    tuf::TrustedState t = r.trustedAfter;
    t.updatedAt = QDateTime(QDate(2026, 8, 22), QTime(1, 0), Qt::UTC);
    return t;
}

QString stepRoles(const tuf::ClientResult& r) {
    QStringList roles;
    for (const auto& s : r.steps)
        roles << s.role;
    return roles.join(QLatin1Char(' '));
}

// A generated repository valid until 2030; checked as of this time.
QDateTime genTime() {
    return QDateTime(QDate(2027, 1, 1), QTime(0, 0), Qt::UTC);
}

bool replaceIn(const QString& path, const QByteArray& from, const QByteArray& to) {
    QByteArray b = pbtest::readAll(path);
    if (!b.contains(from))
        return false;
    b.replace(from, to);
    return pbtest::writeAll(path, b);
}

} // namespace

class TstTuf : public QObject {
    Q_OBJECT
  private slots:
    void canonicalJsonCases() {
        const char* sorted = "{\"b\":1,\"a\":[true,false,null],\"c\":{\"z\":\"\",\"y\":-7}}";
        const char* sortedOut = "{\"a\":[true,false,null],\"b\":1,\"c\":{\"y\":-7,\"z\":\"\"}}";
        QCOMPARE(canon(sorted), QByteArray(sortedOut));
        // Only backslash and double quote are escaped; everything else is raw UTF-8.
        const char* escapes = "{\"s\":\"a\\\"b\\\\c\\nd\\u00e9\\u0001/\"}";
        QCOMPARE(canon(escapes), QByteArray("{\"s\":\"a\\\"b\\\\c\nd\xc3\xa9\x01/\"}"));
        // Keys in code-point order: "Z" < "a" < U+FB01 < U+1D11E (UTF-16 order would put U+1D11E first).
        QCOMPARE(canon("{\"\xef\xac\x81\":1,\"\xf0\x9d\x84\x9e\":2,\"a\":3,\"Z\":4}"),
                 QByteArray("{\"Z\":4,\"a\":3,\"\xef\xac\x81\":1,\"\xf0\x9d\x84\x9e\":2}"));
        const char* big = "{\"n\":9007199254740993,\"m\":-9223372036854775808}";
        const char* bigOut = "{\"m\":-9223372036854775808,\"n\":9007199254740993}";
        QCOMPARE(canon(big), QByteArray(bigOut));
        const char* empty = "{\"e\":{},\"a\":[]}";
        const char* emptyOut = "{\"a\":[],\"e\":{}}";
        QCOMPARE(canon(empty), QByteArray(emptyOut));
        // No floating point: refused, naming the field.
        const char* floating = "{\"x\":{\"y\":[1,2.5]}}";
        auto f = tuf::canonicalJson(QJsonDocument::fromJson(floating).object());
        QVERIFY(!f);
        QCOMPARE(f.error().field, QStringLiteral("x.y[1]"));
        QVERIFY(f.error().message.contains(QStringLiteral("not an integer")));
        // Limit (docs/SIGSTORE.md): Qt's parser keeps a whole number written as 1.0 or 1e3 as an
        // integer, so it is written canonically (1, 1000) rather than refused as securesystemslib does.
    }

    void timesAsTufWritersWriteThem() {
        QCOMPARE(tuf::parseTime(QStringLiteral("2026-11-20T13:58:18Z")),
                 QDateTime(QDate(2026, 11, 20), QTime(13, 58, 18), Qt::UTC));
        // Root v1 of Sigstore's repository: fractional seconds and an offset.
        const QDateTime v1 = tuf::parseTime(QStringLiteral("2021-12-18T13:28:12.99008-06:00"));
        QVERIFY(v1.isValid());
        QCOMPARE(v1.toUTC().date(), QDate(2021, 12, 18));
        QCOMPARE(v1.toUTC().time().hour(), 19);
        QVERIFY(!tuf::parseTime(QStringLiteral("2026-11-20 13:58")).isValid());
        QVERIFY(!tuf::parseTime(QStringLiteral("2026-11-20T13:58:18")).isValid()); // no zone: refused
    }

    // The shipped anchor is Sigstore's root v13 re-encoded (tools/make-tuf-anchor.sh): the same
    // signed metadata in its canonical form, and the same signatures.
    void shippedAnchorIsRootV13() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root_history/13.root.json"));
        const QJsonObject shipped = QJsonDocument::fromJson(shippedAnchor()).object();
        const QJsonObject published =
            pbtest::readJson(pbtest::tufRepo() + QStringLiteral("/metadata/root_history/13.root.json"));
        QVERIFY(!shipped.isEmpty() && !published.isEmpty());
        const auto a = tuf::canonicalJson(shipped.value(QStringLiteral("signed")));
        const auto b = tuf::canonicalJson(published.value(QStringLiteral("signed")));
        QVERIFY(a && b);
        QCOMPARE(*a, *b);
        QCOMPARE(shipped.value(QStringLiteral("signatures")), published.value(QStringLiteral("signatures")));
    }

    void realRepositoryVerifiesAtAValidTime() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        const QByteArray anchor = shippedAnchor();
        QVERIFY(!anchor.isEmpty());
        const auto r = runAt(pbtest::tufRepo(), anchor, pbtest::tufValidTime());
        QVERIFY2(r.ok, qPrintable(r.error.toString()));
        QCOMPARE(r.anchorVersion, 13);
        QCOMPARE(r.rootChain, (std::vector<qint64>{14, 15}));
        QCOMPARE(r.root.version, 15);
        QCOMPARE(tuf::formatTime(r.root.expires), QStringLiteral("2026-11-20T13:58:18Z"));
        QCOMPARE(r.timestamp.version, 762);
        QCOMPARE(r.snapshot.version, 165);
        QCOMPARE(r.targets.version, 14);
        QVERIFY(r.consistentSnapshot);
        QCOMPARE(r.targetSignedBy, QStringLiteral("targets"));
        QCOMPARE(r.targetFile, QStringLiteral("targets/trusted_root.json"));
        QCOMPARE(r.targetBytes,
                 pbtest::readAll(pbtest::tufRepo() + QStringLiteral("/targets/trusted_root.json")));
        QCOMPARE(r.targetBytes, pbtest::readAll(pbtest::sharedData(
                                    QStringLiteral("sigstore/trusted_root.production.json"))));
        QCOMPARE(r.targetSha256,
                 QStringLiteral("6494e21ea73fa7ee769f85f57d5a3e6a08725eae1e38c755fc3517c9e6bc0b66"));
        QCOMPARE(r.targetLength, 6787);
        // anchor, 14, 15, final root, timestamp, snapshot, targets, target
        QCOMPARE(int(r.steps.size()), 8);
        for (const auto& s : r.steps)
            QVERIFY2(s.ok, qPrintable(s.detail));
        QVERIFY(r.steps[1].detail.contains(QStringLiteral("root v13 -> v14")));
        QCOMPARE(r.toJson().value(QStringLiteral("verified")).toBool(), true);
    }

    void wholeChainFromRootV1WithHexKeys() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root_history/1.root.json"));
        const auto r =
            runAt(pbtest::tufRepo(),
                  pbtest::readAll(pbtest::tufRepo() + QStringLiteral("/metadata/root_history/1.root.json")),
                  pbtest::tufValidTime());
        QVERIFY2(r.ok, qPrintable(r.error.toString()));
        QCOMPARE(r.anchorVersion, 1);
        QCOMPARE(int(r.rootChain.size()), 14);
        QCOMPARE(r.rootChain.back(), 15);
    }

    void expiredNowSaysWhichRoleAndWhen() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        const auto r = runAt(pbtest::tufRepo(), shippedAnchor(), std::nullopt);
        if (QDateTime::currentDateTimeUtc() < QDateTime(QDate(2026, 11, 20), QTime(13, 58, 18), Qt::UTC))
            QSKIP("the copy's root has not expired yet on this clock");
        QVERIFY(!r.ok);
        QCOMPARE(r.failedRole, QStringLiteral("root"));
        QVERIFY2(r.error.message.startsWith(QStringLiteral("root v15 expired 2026-11-20T13:58:18Z")),
                 qPrintable(r.error.toString()));
        QCOMPARE(r.error.file, QStringLiteral("metadata/root_history/15.root.json"));
        QCOMPARE(r.error.field, QStringLiteral("signed.expires"));
        QCOMPARE(r.rootChain, (std::vector<qint64>{14, 15})); // the chain itself verified
        QVERIFY(r.targetBytes.isEmpty());
    }

    void timestampExpiredAfterItsDate() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        const auto r =
            runAt(pbtest::tufRepo(), shippedAnchor(), QDateTime(QDate(2026, 9, 1), QTime(0, 0), Qt::UTC));
        QVERIFY(!r.ok);
        QCOMPARE(r.failedRole, QStringLiteral("timestamp"));
        QVERIFY2(r.error.message.startsWith(QStringLiteral("timestamp v762 expired 2026-08-28T19:25:56Z")),
                 qPrintable(r.error.toString()));
    }

    void delegatedTargetIsFoundThroughTheDelegation() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/registry.npmjs.org.json"));
        const auto r = runAt(pbtest::tufRepo(), shippedAnchor(), pbtest::tufValidTime(),
                             QStringLiteral("registry.npmjs.org/keys.json"));
        QVERIFY2(r.ok, qPrintable(r.error.toString()));
        QCOMPARE(r.targetSignedBy, QStringLiteral("registry.npmjs.org"));
        QCOMPARE(int(r.delegations.size()), 1);
        QCOMPARE(r.delegations[0].second.version, 8);
        QCOMPARE(r.targetBytes, pbtest::readAll(pbtest::tufRepo() +
                                                QStringLiteral("/targets/registry.npmjs.org/keys.json")));
        // Not listed anywhere: a clear failure, not a crash.
        const auto none = runAt(pbtest::tufRepo(), shippedAnchor(), pbtest::tufValidTime(),
                                QStringLiteral("no-such-target.json"));
        QVERIFY(!none.ok);
        QVERIFY2(none.error.message.contains(QStringLiteral("lists 'no-such-target.json'")),
                 qPrintable(none.error.toString()));
        const auto escape =
            runAt(pbtest::tufRepo(), shippedAnchor(), pbtest::tufValidTime(), QStringLiteral("../README.md"));
        QVERIFY(!escape.ok);
        QCOMPARE(escape.failedRole, QStringLiteral("target"));
    }

    void changedByteInARole() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        QTemporaryDir tmp;
        const QString repo = pbtest::copyTufRepo(tmp);
        QVERIFY(replaceIn(repo + QStringLiteral("/metadata/snapshot.json"), "2036-05-15T08:09:16Z",
                          "2036-05-15T08:09:17Z"));
        const auto r = runAt(repo, shippedAnchor(), pbtest::tufValidTime());
        QVERIFY(!r.ok);
        QCOMPARE(r.failedRole, QStringLiteral("snapshot"));
        QCOMPARE(r.error.file, QStringLiteral("metadata/snapshot.json"));
        QVERIFY2(r.error.message.contains(
                     QStringLiteral("0 valid signatures from root v15's snapshot keys, 1 required")),
                 qPrintable(r.error.toString()));
        QVERIFY(r.error.message.contains(QStringLiteral("does not verify")));
    }

    void signaturesBelowThreshold() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        QTemporaryDir tmp;
        const QString repo = pbtest::copyTufRepo(tmp);
        const QString path = repo + QStringLiteral("/metadata/root_history/15.root.json");
        QJsonObject root = pbtest::readJson(path);
        QJsonArray sigs = root.value(QStringLiteral("signatures")).toArray();
        while (sigs.size() > 2)
            sigs.removeLast();
        root.insert(QStringLiteral("signatures"), sigs);
        QVERIFY(pbtest::writeJson(path, root));
        QFile::remove(repo + QStringLiteral("/metadata/root.json")); // the same root again
        const auto r = runAt(repo, shippedAnchor(), pbtest::tufValidTime());
        QVERIFY(!r.ok);
        QCOMPARE(r.failedRole, QStringLiteral("root"));
        QVERIFY2(r.error.message.startsWith(
                     QStringLiteral("2 valid signatures from root v14's root keys, 3 required")),
                 qPrintable(r.error.toString()));
    }

    void rootVersionRollbackAndSkip() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        {
            QTemporaryDir tmp;
            const QString repo = pbtest::copyTufRepo(tmp);
            // 14.root.json holding root v13: a rollback.
            QVERIFY(pbtest::writeAll(repo + QStringLiteral("/metadata/root_history/14.root.json"),
                                     shippedAnchor()));
            const auto r = runAt(repo, shippedAnchor(), pbtest::tufValidTime());
            QVERIFY(!r.ok);
            QVERIFY2(r.error.message.contains(QStringLiteral("is root v13 where v14 was expected")),
                     qPrintable(r.error.toString()));
            QCOMPARE(r.error.field, QStringLiteral("signed.version"));
        }
        {
            QTemporaryDir tmp;
            const QString repo = pbtest::copyTufRepo(tmp);
            // Root v14 gone: v13 -> v15 would skip a version.
            QVERIFY(QFile::remove(repo + QStringLiteral("/metadata/root_history/14.root.json")));
            QVERIFY(QFile::remove(repo + QStringLiteral("/metadata/root_history/15.root.json")));
            const auto r = runAt(repo, shippedAnchor(), pbtest::tufValidTime());
            QVERIFY(!r.ok);
            QCOMPARE(r.error.file, QStringLiteral("metadata/root.json"));
            QVERIFY2(r.error.message.contains(QStringLiteral("is root v15, but root v14 is missing")),
                     qPrintable(r.error.toString()));
        }
        {
            QTemporaryDir tmp;
            const QString repo = pbtest::copyTufRepo(tmp);
            // 14.root.json holding root v15: signed by the right keys, but a skip.
            QVERIFY(pbtest::writeAll(repo + QStringLiteral("/metadata/root_history/14.root.json"),
                                     pbtest::readAll(repo + QStringLiteral("/metadata/root.json"))));
            const auto r = runAt(repo, shippedAnchor(), pbtest::tufValidTime());
            QVERIFY(!r.ok);
            QVERIFY2(r.error.message.contains(QStringLiteral("is root v15 where v14 was expected")),
                     qPrintable(r.error.toString()));
        }
    }

    void targetHashAndLengthMismatch() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/targets/trusted_root.json"));
        {
            QTemporaryDir tmp;
            const QString repo = pbtest::copyTufRepo(tmp);
            QVERIFY(replaceIn(repo + QStringLiteral("/targets/trusted_root.json"), "\"mediaType\"",
                              "\"mediaTypf\""));
            const auto r = runAt(repo, shippedAnchor(), pbtest::tufValidTime());
            QVERIFY(!r.ok);
            QCOMPARE(r.failedRole, QStringLiteral("target"));
            QVERIFY2(r.error.message.startsWith(QStringLiteral("sha256 is ")),
                     qPrintable(r.error.toString()));
            QVERIFY(r.error.message.contains(QStringLiteral("the metadata says 6494e21ea73fa7ee")));
            QVERIFY(r.error.message.contains(QStringLiteral("(in targets v14)")));
        }
        {
            QTemporaryDir tmp;
            const QString repo = pbtest::copyTufRepo(tmp);
            const QString t = repo + QStringLiteral("/targets/trusted_root.json");
            QVERIFY(pbtest::writeAll(t, pbtest::readAll(t) + "\n"));
            const auto r = runAt(repo, shippedAnchor(), pbtest::tufValidTime());
            QVERIFY(!r.ok);
            QVERIFY2(r.error.message.startsWith(QStringLiteral("6788 bytes, targets v14 says 6787")),
                     qPrintable(r.error.toString()));
        }
        {
            // The consistent-snapshot name wins over the plain one: a good HASH.trusted_root.json beside a
            // bad plain file.
            QTemporaryDir tmp;
            const QString repo = pbtest::copyTufRepo(tmp);
            const QString t = repo + QStringLiteral("/targets/trusted_root.json");
            QVERIFY(pbtest::writeAll(
                repo +
                    QStringLiteral(
                        "/targets/"
                        "6494e21ea73fa7ee769f85f57d5a3e6a08725eae1e38c755fc3517c9e6bc0b66.trusted_root.json"),
                pbtest::readAll(t)));
            QVERIFY(pbtest::writeAll(t, "{}"));
            const auto r = runAt(repo, shippedAnchor(), pbtest::tufValidTime());
            QVERIFY2(r.ok, qPrintable(r.error.toString()));
            QVERIFY(r.targetFile.startsWith(QStringLiteral("targets/6494e21e")));
        }
    }

    void wrongAnchor() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        // Another repository's root (a fresh Ed25519 key, validly self-signed) at version 13.
        const QByteArray foreign = foreignEd25519Root(13);
        auto parsed = tuf::parseRoot(foreign, QStringLiteral("foreign.json"));
        QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().toString()));
        QVERIFY(tuf::verifyThreshold(parsed->env, parsed->keys, parsed->roles.value(QStringLiteral("root")),
                                     QStringLiteral("own")));
        const auto r = runAt(pbtest::tufRepo(), foreign, pbtest::tufValidTime());
        QVERIFY(!r.ok);
        QCOMPARE(r.failedRole, QStringLiteral("root"));
        QCOMPARE(r.steps.front().ok, true); // the anchor itself is well signed
        QVERIFY2(r.error.message.startsWith(
                     QStringLiteral("0 valid signatures from root v13's root keys, 1 required")),
                 qPrintable(r.error.toString()));
        // A timestamp given as the anchor; a root whose signatures were changed.
        const auto notRoot =
            runAt(pbtest::tufRepo(),
                  pbtest::readAll(pbtest::tufRepo() + QStringLiteral("/metadata/timestamp.json")),
                  pbtest::tufValidTime());
        QVERIFY(!notRoot.ok);
        QCOMPARE(notRoot.failedRole, QStringLiteral("anchor"));
        QVERIFY2(
            notRoot.error.toString().contains(QStringLiteral("signed._type: 'timestamp', expected 'root'")),
            qPrintable(notRoot.error.toString()));
        QByteArray tampered = shippedAnchor();
        tampered.replace("2026-01-22T13:05:59Z", "2027-01-22T13:05:59Z");
        const auto selfSig = runAt(pbtest::tufRepo(), tampered, pbtest::tufValidTime());
        QVERIFY(!selfSig.ok);
        QCOMPARE(selfSig.failedRole, QStringLiteral("anchor"));
        QVERIFY2(selfSig.error.message.contains(QStringLiteral("from its own root keys, 3 required")),
                 qPrintable(selfSig.error.toString()));
    }

    // ---- Rollback protection across updates ----

    void unchangedRepositoryUpdatesTwice() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        const auto first = runAt(pbtest::tufRepo(), shippedAnchor(), pbtest::tufValidTime());
        QVERIFY2(first.ok, qPrintable(first.error.toString()));
        QVERIFY(!first.trustedBefore);
        const tuf::TrustedState t = stateOf(first);
        QCOMPARE(t.root.version, 15);
        QCOMPARE(t.rootBytes,
                 pbtest::readAll(pbtest::tufRepo() + QStringLiteral("/metadata/root_history/15.root.json")));
        QCOMPARE(t.timestamp.version, 762);
        QCOMPARE(t.snapshot.version, 165);
        QCOMPARE(t.targets.version, 14);
        QCOMPARE(t.snapshotMeta.value(QStringLiteral("targets.json")), 14);
        QCOMPARE(t.snapshotMeta.value(QStringLiteral("registry.npmjs.org.json")), 8);
        QCOMPARE(t.anchorSha256, first.anchorSha256);
        QCOMPARE(
            t.summary(),
            QStringLiteral("root v15, timestamp v762, snapshot v165, targets v14 from 2026-08-22T01:00:00Z"));

        // The same repository again: equal versions are accepted, the chain starts from root v15.
        const auto again = runTrusted(pbtest::tufRepo(), shippedAnchor(), pbtest::tufValidTime(), t);
        QVERIFY2(again.ok, qPrintable(again.error.toString()));
        QVERIFY(again.rootChain.empty());
        QCOMPARE(stepRoles(again), QStringLiteral("anchor trusted root timestamp snapshot targets target"));
        QVERIFY2(again.steps[1].detail.startsWith(QStringLiteral(
                     "trusted state: root v15, timestamp v762, snapshot v165, targets v14 from "
                     "2026-08-22T01:00:00Z")),
                 qPrintable(again.steps[1].detail));
        QVERIFY(again.steps[3].detail.contains(QStringLiteral("(the trusted version, unchanged)")));
        QCOMPARE(again.targetBytes, first.targetBytes);
        QCOMPARE(again.toJson()
                     .value(QStringLiteral("trustedState"))
                     .toObject()
                     .value(QStringLiteral("root"))
                     .toObject()
                     .value(QStringLiteral("version"))
                     .toInt(),
                 15);
        QCOMPARE(again.trustedAfter.root.version, 15);
    }

    void rootRollbackOnTheRealCopy() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root_history/14.root.json"));
        const auto first = runAt(pbtest::tufRepo(), shippedAnchor(), pbtest::tufValidTime());
        QVERIFY2(first.ok, qPrintable(first.error.toString()));
        const tuf::TrustedState t = stateOf(first);

        // A copy whose history stops at root v14 (real files: 15 removed, root.json is v14's bytes).
        QTemporaryDir tmp;
        const QString repo = pbtest::copyTufRepo(tmp);
        QVERIFY(QFile::remove(repo + QStringLiteral("/metadata/root_history/15.root.json")));
        QVERIFY(
            pbtest::writeAll(repo + QStringLiteral("/metadata/root.json"),
                             pbtest::readAll(repo + QStringLiteral("/metadata/root_history/14.root.json"))));
        const auto r = runTrusted(repo, shippedAnchor(), pbtest::tufValidTime(), t);
        QVERIFY(!r.ok);
        QCOMPARE(r.failedRole, QStringLiteral("root"));
        QCOMPARE(r.error.file, QStringLiteral("metadata/root.json"));
        QCOMPARE(r.error.field, QStringLiteral("signed.version"));
        QVERIFY2(r.error.message.startsWith(QStringLiteral(
                     "the repository's newest root is version 14, older than the trusted root version 15 "
                     "(trusted since 2026-08-22T01:00:00Z): a rollback, refused")),
                 qPrintable(r.error.toString()));
        QVERIFY(r.targetBytes.isEmpty());
        // Without root.json the highest numbered file counts.
        QVERIFY(QFile::remove(repo + QStringLiteral("/metadata/root.json")));
        const auto numbered = runTrusted(repo, shippedAnchor(), pbtest::tufValidTime(), t);
        QVERIFY(!numbered.ok);
        QCOMPARE(numbered.error.file, QStringLiteral("metadata/root_history/14.root.json"));
        QVERIFY(numbered.error.message.contains(
            QStringLiteral("version 14, older than the trusted root version 15")));
        // The same copy from the anchor (no state) verifies, as of a time root v14 was still valid.
        QVERIFY(
            pbtest::writeAll(repo + QStringLiteral("/metadata/root.json"),
                             pbtest::readAll(repo + QStringLiteral("/metadata/root_history/14.root.json"))));
        const auto fresh = runAt(repo, shippedAnchor(), QDateTime(QDate(2026, 6, 1), QTime(0, 0), Qt::UTC));
        QVERIFY2(fresh.ok, qPrintable(fresh.error.toString()));
        QCOMPARE(fresh.root.version, 14);
    }

    void chainStartsFromTheTrustedRoot() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root_history/14.root.json"));
        const auto first = runAt(pbtest::tufRepo(), shippedAnchor(), pbtest::tufValidTime());
        QVERIFY(first.ok);
        // Root v14 broken in the copy: from the anchor the chain fails there; from the trusted root
        // v15 it is never read.
        QTemporaryDir tmp;
        const QString repo = pbtest::copyTufRepo(tmp);
        QVERIFY(replaceIn(repo + QStringLiteral("/metadata/root_history/14.root.json"),
                          "2026-06-22T13:27:01Z", "2027-06-22T13:27:01Z"));
        const auto fromAnchor = runAt(repo, shippedAnchor(), pbtest::tufValidTime());
        QVERIFY(!fromAnchor.ok);
        QCOMPARE(fromAnchor.error.file, QStringLiteral("metadata/root_history/14.root.json"));
        const auto fromState = runTrusted(repo, shippedAnchor(), pbtest::tufValidTime(), stateOf(first));
        QVERIFY2(fromState.ok, qPrintable(fromState.error.toString()));
        // A state from another anchor is refused, naming both.
        tuf::TrustedState other = stateOf(first);
        other.anchorSha256 = QStringLiteral("ab").repeated(32);
        const auto wrong = runTrusted(pbtest::tufRepo(), shippedAnchor(), pbtest::tufValidTime(), other);
        QVERIFY(!wrong.ok);
        QCOMPARE(wrong.failedRole, QStringLiteral("trusted"));
        QVERIFY2(
            wrong.error.message.contains(QStringLiteral("descends from the anchor with sha256 abababab")),
            qPrintable(wrong.error.toString()));
        // A stored root that is not what the state says (bytes changed): refused, not trusted.
        tuf::TrustedState tampered = stateOf(first);
        tampered.rootBytes.replace("2026-11-20T13:58:18Z", "2027-11-20T13:58:18Z");
        const auto bad = runTrusted(pbtest::tufRepo(), shippedAnchor(), pbtest::tufValidTime(), tampered);
        QVERIFY(!bad.ok);
        QCOMPARE(bad.failedRole, QStringLiteral("trusted"));
        QVERIFY2(bad.error.message.contains(QStringLiteral("from its own root keys, 3 required")),
                 qPrintable(bad.error.toString()));
    }

    void timestampVersionRollback() {
        QTemporaryDir tmp;
        pbtest::TufTestRepo repo;
        const QString older = tmp.filePath(QStringLiteral("older")),
                      newer = tmp.filePath(QStringLiteral("newer"));
        QVERIFY(repo.publish(older));
        repo.timestampVersion = 2;
        QVERIFY(repo.publish(newer));
        const QByteArray anchor = repo.roots.front();
        const auto first = runAt(newer, anchor, genTime());
        QVERIFY2(first.ok, qPrintable(first.error.toString()));
        QCOMPARE(first.targetSignedBy, repo.delegatedRole);
        QCOMPARE(int(first.trustedAfter.delegations.size()), 1);
        // The older copy verifies on its own (validly signed) ...
        QVERIFY(runAt(older, anchor, genTime()).ok);
        // ... but not after the newer one was trusted.
        const auto r = runTrusted(older, anchor, genTime(), stateOf(first));
        QVERIFY(!r.ok);
        QCOMPARE(r.failedRole, QStringLiteral("timestamp"));
        QCOMPARE(r.error.file, QStringLiteral("metadata/timestamp.json"));
        QCOMPARE(r.error.toString(),
                 QStringLiteral(
                     "metadata/timestamp.json: signed.version: version 1 is older than the trusted version 2 "
                     "(trusted since 2026-08-22T01:00:00Z): a rollback, refused"));
        // Newer than trusted: accepted, and said so.
        repo.timestampVersion = 3;
        QVERIFY(repo.publish(newer));
        const auto later = runTrusted(newer, anchor, genTime(), stateOf(first));
        QVERIFY2(later.ok, qPrintable(later.error.toString()));
        QVERIFY(later.steps[3].detail.contains(QStringLiteral("(newer than the trusted v2)")));
    }

    void snapshotVersionRollback() {
        QTemporaryDir tmp;
        pbtest::TufTestRepo repo;
        const QString dir = tmp.filePath(QStringLiteral("repo"));
        repo.timestampVersion = 2;
        repo.snapshotVersion = 2;
        QVERIFY(repo.publish(dir));
        const QByteArray anchor = repo.roots.front();
        const auto first = runAt(dir, anchor, genTime());
        QVERIFY2(first.ok, qPrintable(first.error.toString()));
        // A newer timestamp that names an older snapshot (both validly signed).
        repo.timestampVersion = 3;
        repo.snapshotVersion = 1;
        QVERIFY(repo.publish(dir));
        QVERIFY(runAt(dir, anchor, genTime()).ok);
        const auto r = runTrusted(dir, anchor, genTime(), stateOf(first));
        QVERIFY(!r.ok);
        QCOMPARE(r.failedRole, QStringLiteral("timestamp"));
        QCOMPARE(r.error.field, QStringLiteral("signed.meta.snapshot.json.version"));
        QVERIFY2(r.error.message.startsWith(QStringLiteral(
                     "timestamp v3 names snapshot version 1, older than the trusted snapshot version 2 "
                     "(trusted since 2026-08-22T01:00:00Z)")),
                 qPrintable(r.error.toString()));
    }

    void targetsAndDelegatedVersionRollback() {
        QTemporaryDir tmp;
        pbtest::TufTestRepo repo;
        const QString dir = tmp.filePath(QStringLiteral("repo"));
        repo.timestampVersion = repo.snapshotVersion = repo.targetsVersion = repo.delegatedVersion = 2;
        QVERIFY(repo.publish(dir));
        const QByteArray anchor = repo.roots.front();
        const auto first = runAt(dir, anchor, genTime());
        QVERIFY2(first.ok, qPrintable(first.error.toString()));
        const tuf::TrustedState t = stateOf(first);
        QCOMPARE(t.snapshotMeta.value(QStringLiteral("delegated.json")), 2);
        QCOMPARE(t.delegations.front().second.version, 2);
        // A newer snapshot listing an older delegated role.
        repo.timestampVersion = repo.snapshotVersion = 3;
        repo.delegatedVersion = 1;
        QVERIFY(repo.publish(dir));
        auto r = runTrusted(dir, anchor, genTime(), t);
        QVERIFY(!r.ok);
        QCOMPARE(r.failedRole, QStringLiteral("snapshot"));
        QCOMPARE(r.error.field, QStringLiteral("signed.meta.delegated.json.version"));
        QVERIFY2(r.error.message.startsWith(QStringLiteral(
                     "snapshot v3 lists delegated.json at version 1, older than the trusted version 2")),
                 qPrintable(r.error.toString()));
        // ... or an older top-level targets.
        repo.delegatedVersion = 2;
        repo.targetsVersion = 1;
        QVERIFY(repo.publish(dir));
        r = runTrusted(dir, anchor, genTime(), t);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.startsWith(QStringLiteral(
                     "snapshot v3 lists targets.json at version 1, older than the trusted version 2")),
                 qPrintable(r.error.toString()));
        // ... or one that no longer lists the delegated role.
        repo.targetsVersion = 2;
        repo.delegatedRole = QStringLiteral("renamed");
        QVERIFY(repo.publish(dir));
        r = runTrusted(dir, anchor, genTime(), t);
        QVERIFY(!r.ok);
        QVERIFY2(
            r.error.message.startsWith(QStringLiteral("snapshot v3 no longer lists delegated.json, which the "
                                                      "trusted snapshot v2 listed at version 2")),
            qPrintable(r.error.toString()));
        QVERIFY(runAt(dir, anchor, genTime()).ok); // from the anchor, each of these verifies
    }

    void forkAfterRootRotationIsRefused() {
        QTemporaryDir tmp;
        pbtest::TufTestRepo repo;
        pbtest::TufTestRepo fork = repo; // same root v1, same keys
        const QByteArray anchor = repo.roots.front();
        // The legitimate repository rotates its root key away: v2 signed by the old and the new key.
        repo.rootKeys = {pbtest::TufTestKey::ed25519()};
        repo.addRoot();
        const QString legit = tmp.filePath(QStringLiteral("legit"));
        QVERIFY(repo.publish(legit));
        const auto first = runAt(legit, anchor, genTime());
        QVERIFY2(first.ok, qPrintable(first.error.toString()));
        QCOMPARE(first.root.version, 2);
        // Whoever kept the rotated-away key signs a fork: its own v2 and v3, with its own timestamp key.
        fork.timestampKey = pbtest::TufTestKey::ecdsaP256();
        fork.addRoot();
        fork.addRoot();
        const QString forked = tmp.filePath(QStringLiteral("fork"));
        QVERIFY(fork.publish(forked));
        QVERIFY(runAt(forked, anchor, genTime()).ok); // from the anchor alone the fork looks fine
        const auto r = runTrusted(forked, anchor, genTime(), stateOf(first));
        QVERIFY(!r.ok);
        QCOMPARE(r.failedRole, QStringLiteral("root"));
        QCOMPARE(r.error.file, QStringLiteral("metadata/root_history/3.root.json"));
        QVERIFY2(r.error.message.startsWith(
                     QStringLiteral("0 valid signatures from root v2's root keys, 1 required")),
                 qPrintable(r.error.toString()));
    }

    void rootRollbackIsMeasuredAgainstTheTrustedRoot() {
        // The numbered history goes to v3 while root.json still holds v2: the chain reaches v3, and
        // v2 is not older than the trusted v1, so this is no rollback. Trusted at v3, it is one.
        QTemporaryDir tmp;
        pbtest::TufTestRepo repo;
        const QString dir = tmp.filePath(QStringLiteral("repo"));
        QVERIFY(repo.publish(dir));
        const QByteArray anchor = repo.roots.front();
        const auto first = runAt(dir, anchor, genTime());
        QVERIFY(first.ok);
        repo.addRoot();
        repo.addRoot();
        QVERIFY(repo.publish(dir));
        QVERIFY(pbtest::writeAll(dir + QStringLiteral("/metadata/root.json"), repo.roots[1]));
        const auto r = runTrusted(dir, anchor, genTime(), stateOf(first));
        QVERIFY2(r.ok, qPrintable(r.error.toString()));
        QCOMPARE(r.rootChain, (std::vector<qint64>{2, 3}));
        QVERIFY(pbtest::writeAll(dir + QStringLiteral("/metadata/root.json"), repo.roots[2]));
        const auto three = runTrusted(dir, anchor, genTime(), stateOf(r));
        QVERIFY(three.ok);
        QVERIFY(three.rootChain.empty());
        QVERIFY(pbtest::writeAll(dir + QStringLiteral("/metadata/root.json"), repo.roots[1]));
        QVERIFY(QFile::remove(dir + QStringLiteral("/metadata/root_history/3.root.json")));
        const auto back = runTrusted(dir, anchor, genTime(), stateOf(three));
        QVERIFY(!back.ok);
        QVERIFY2(back.error.message.startsWith(QStringLiteral(
                     "the repository's newest root is version 2, older than the trusted root version 3")),
                 qPrintable(back.error.toString()));
    }

    void rotatedTimestampKeysDropTheTrustedVersions() {
        // Specification 5.3.11: after the timestamp/snapshot keys change, their versions may start over.
        QTemporaryDir tmp;
        pbtest::TufTestRepo repo;
        const QString dir = tmp.filePath(QStringLiteral("repo"));
        repo.timestampVersion = repo.snapshotVersion = 5;
        QVERIFY(repo.publish(dir));
        const QByteArray anchor = repo.roots.front();
        const auto first = runAt(dir, anchor, genTime());
        QVERIFY(first.ok);
        repo.timestampKey = pbtest::TufTestKey::ecdsaP256();
        repo.addRoot();
        repo.timestampVersion = repo.snapshotVersion = 1;
        QVERIFY(repo.publish(dir));
        const auto r = runTrusted(dir, anchor, genTime(), stateOf(first));
        QVERIFY2(r.ok, qPrintable(r.error.toString()));
        QVERIFY(r.timestampSnapshotDropped);
        QVERIFY(stepRoles(r).contains(QStringLiteral("root root timestamp")));
        bool said = false;
        for (const auto& s : r.steps)
            said = said || s.detail.contains(QStringLiteral("are not carried over (specification 5.3.11)"));
        QVERIFY(said);
        QCOMPARE(r.trustedAfter.timestamp.version, 1);
        // With the keys unchanged from then on, going back is a rollback again.
        repo.timestampVersion = 3;
        QVERIFY(repo.publish(dir));
        const auto three = runTrusted(dir, anchor, genTime(), stateOf(r));
        QVERIFY2(three.ok, qPrintable(three.error.toString()));
        QVERIFY(!three.timestampSnapshotDropped);
        repo.timestampVersion = 2;
        QVERIFY(repo.publish(dir));
        const auto rolled = runTrusted(dir, anchor, genTime(), stateOf(three));
        QVERIFY(!rolled.ok);
        QCOMPARE(rolled.failedRole, QStringLiteral("timestamp"));
        QVERIFY(
            rolled.error.message.startsWith(QStringLiteral("version 2 is older than the trusted version 3")));
    }

    void keysAndParsingErrorsAreClear() {
        tuf::Key rsa{QStringLiteral("k1"), QStringLiteral("rsa"), QStringLiteral("rsassa-pss-sha256"),
                     QStringLiteral("-----BEGIN PUBLIC KEY-----")};
        auto r = tuf::verifySignature(rsa, "x", "y");
        QVERIFY(!r);
        QVERIFY(r.error().message.contains(
            QStringLiteral("'rsa' with scheme 'rsassa-pss-sha256' is not supported")));
        tuf::Key badHex{QStringLiteral("k2"), QStringLiteral("ed25519"), QStringLiteral("ed25519"),
                        QStringLiteral("abcd")};
        QVERIFY(!tuf::verifySignature(badHex, "x", "y"));
        auto e = tuf::parseRoot("{\"signatures\":[],\"signed\":{\"_type\":\"root\",\"version\":0}}",
                                QStringLiteral("r.json"));
        QVERIFY(!e);
        QCOMPARE(e.error().toString(), QStringLiteral("r.json: signed.version: 0 is below 1"));
        const char* twoSigs = "{\"signatures\":[{\"keyid\":\"a\",\"sig\":\"00\"},{\"keyid\":\"a\",\"sig\":"
                              "\"01\"}],\"signed\":{}}";
        auto dup = tuf::parseEnvelope(twoSigs, QStringLiteral("d.json"), QStringLiteral("root"));
        QVERIFY(!dup);
        QVERIFY(dup.error().message.contains(QStringLiteral("a second signature by key a")));
        auto notJson = tuf::parseTimestamp("{", QStringLiteral("t.json"));
        QVERIFY(!notJson);
        QVERIFY(notJson.error().message.startsWith(QStringLiteral("not JSON")));
        // A repository folder that is not one.
        QTemporaryDir tmp;
        const auto none = runAt(tmp.path(), shippedAnchor(), pbtest::tufValidTime());
        QVERIFY(!none.ok);
        QVERIFY(none.error.message.contains(QStringLiteral("no timestamp.json")));
    }
};

QTEST_GUILESS_MAIN(TstTuf)
#include "tst_tuf.moc"
