// Trusted roots and verification results in a real database (a SQLite file, or a database on the
// PostgreSQL test server): a refused root leaves nothing, the same root imported twice is one row,
// the default is remembered, results keep every step (and the store writes no receipt: ops::verify
// does, tst_opsverify).
#include "DbTestUtil.h"
#include "SigstoreCases.h"
#include "TestUtil.h"
#include "store/VerificationStore.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using namespace pb::store;

class TestVerificationStore : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

  private slots:
    void trustedRootsAreImportedOnceAndRemembered() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/trusted_root.production.json"));
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("roots.sqlite"));
        const QString path = testDb.spec();
        {
            auto db = Database::open(path);
            QVERIFY(db.ok());
            VerificationStore store(**db);
            QVERIFY(!store.defaultTrustedRoot()->has_value());
            // A broken root is refused with the file and field, and stores nothing.
            const QString broken = m_tmp.filePath(QStringLiteral("broken_root.json"));
            QFile f(broken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(
                R"({"mediaType": "application/vnd.dev.sigstore.trustedroot+json;version=0.1", "tlogs": [{"baseUrl": "x", "hashAlgorithm": "SHA2_256", "publicKey": {"rawBytes": "AAAA"}, "logId": {"keyId": "AAAA"}}]})");
            f.close();
            auto refused = store.importTrustedRoot(broken);
            QVERIFY(!refused);
            QCOMPARE(refused.error().file, broken);
            QCOMPARE(refused.error().field, QStringLiteral("tlogs[0].publicKey.validFor"));
            QVERIFY(store.trustedRoots()->empty());

            auto a = store.importTrustedRoot(
                pbtest::sharedData(QStringLiteral("sigstore/trusted_root.production.json")));
            QVERIFY(a.ok());
            auto again = store.importTrustedRoot(
                pbtest::sharedData(QStringLiteral("sigstore/trusted_root.production.json")));
            QCOMPARE(*again, *a);
            auto b = store.importTrustedRoot(
                pbtest::sharedData(QStringLiteral("sigstore/cases/rekor2-happy-path/trusted_root.json")));
            QVERIFY(b.ok() && *b != *a);
            QCOMPARE(store.trustedRoots()->size(), size_t(2));
            QVERIFY(store.trustedRoots()->back().isDefault);
            QVERIFY(!store.trustedRoots()->front().isDefault);
            QCOMPARE(store.trustedRoots()->front().sourcePath,
                     pbtest::sharedData(QStringLiteral("sigstore/trusted_root.production.json")));
            // Choosing the first as the default again, by id; an unknown id changes nothing.
            QVERIFY(!store.setDefaultTrustedRoot(9999));
            QVERIFY(store.trustedRoots()->back().isDefault);
            QVERIFY(store.setDefaultTrustedRoot(*a).ok());
        }
        auto db = Database::open(path); // a new session sees the same default
        VerificationStore store(**db);
        auto def = store.defaultTrustedRoot();
        QVERIFY(def.ok() && def->has_value());
        QCOMPARE((*def)->tlogs.size(), size_t(2));
        QCOMPARE((*def)->tlogs.front().baseUrl, QStringLiteral("https://rekor.sigstore.dev"));
    }

    void resultsKeepEveryStepAndNoKeyMaterial() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/managed-key-happy-path"));
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("results.sqlite"));
        auto db = Database::open(testDb.spec());
        QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
        VerificationStore store(**db);
        for (const QString& name :
             {QStringLiteral("managed-key-happy-path"), QStringLiteral("happy-path-v0.3")}) {
            pbtest::SigstoreCase c;
            for (const auto& k : pbtest::sigstoreCases())
                if (k.name == name)
                    c = k;
            auto root = sigstore::loadTrustedRoot(c.file(QStringLiteral("trusted_root.json")));
            QVERIFY(root.ok());
            sigstore::Policy policy;
            if (c.mode == QLatin1String("key")) {
                policy.publicKeyPem = pbtest::readAll(c.file(QStringLiteral("key.pub")));
            } else {
                policy.identity = QStringLiteral("https://example.com/not-the-signer");
                policy.issuer = c.issuer;
            }
            const QByteArray bundle = pbtest::readAll(c.file(QStringLiteral("bundle.sigstore.json")));
            const auto r = sigstore::verifyBundle(
                bundle, c.file(QStringLiteral("bundle.sigstore.json")),
                sigstore::Artifact::fromBytes(pbtest::readAll(c.file(QStringLiteral("artifact")))), *root,
                policy);
            QVERIFY(store.record(r, bundle, policy).ok());
        }
        auto recent = store.recent();
        QVERIFY(recent.ok());
        QCOMPARE(recent->size(), size_t(2));
        const StoredVerification& mismatch = recent->front(); // newest first
        QVERIFY(!mismatch.verified);
        QVERIFY(mismatch.summary.startsWith(QStringLiteral("identity:")));
        QCOMPARE(mismatch.mode, QStringLiteral("identity"));
        QCOMPARE(mismatch.policy.value(QStringLiteral("identity")).toString(),
                 QStringLiteral("https://example.com/not-the-signer"));
        QVERIFY(
            mismatch.signerIdentity.startsWith(QStringLiteral("https://github.com/sigstore-conformance/")));
        const auto back = sigstore::VerificationResult::fromJson(mismatch.result);
        QCOMPARE(back.steps.back().name, QStringLiteral("identity"));
        QVERIFY(back.steps.back().expected.contains(QStringLiteral("not-the-signer")));
        const StoredVerification& key = recent->back();
        QVERIFY(key.verified);
        QCOMPARE(key.mode, QStringLiteral("key"));
        QCOMPARE(key.policy.value(QStringLiteral("keySha256")).toString().size(), 64);
        QCOMPARE(store.forBundle(key.bundleSha256)->size(), size_t(1));
        QCOMPARE(key.trustedRootSha256.size(), 64);
        // The store keeps rows only: the operation that ran the verification writes its receipt.
        QSqlQuery receipts((*db)->sql());
        QVERIFY(receipts.exec(QStringLiteral("SELECT count(*) FROM receipts")));
        QVERIFY(receipts.next());
        QCOMPARE(receipts.value(0).toInt(), 0);
        // Only public material: no PEM anywhere in the table.
        QSqlQuery q((*db)->sql());
        QVERIFY(q.exec(QStringLiteral(
            "SELECT count(*) FROM verifications WHERE policy LIKE '%BEGIN%' OR result LIKE '%BEGIN%'")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
    }
};

QTEST_GUILESS_MAIN(TestVerificationStore)
#include "tst_verificationstore.moc"
