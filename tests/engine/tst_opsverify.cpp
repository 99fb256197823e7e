// ops::verify and ops::verifyBatch on the Sigstore conformance cases of ../shared/data, in a real
// database of either engine (DbFixture.h): the verdict, the stored verification and the `verify` receipt are
// one transaction (a receipt the ledger refuses leaves no row either); an unreadable input stores nothing;
// the trusted root comes from a file, a stored id or the default; a batch leaves one verify.batch receipt
// with its counts.
#include "DbFixture.h"
#include "SigstoreCases.h"
#include "TestUtil.h"
#include "core/Hash.h"
#include "db/Database.h"
#include "ops/TrustedRoots.h"
#include "ops/Verify.h"
#include "ops/VerifyBatch.h"
#include "receipts/Ledger.h"
#include "store/VerificationStore.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

namespace {

pbtest::SigstoreCase sigstoreCase(const QString& name) {
    for (const auto& c : pbtest::sigstoreCases())
        if (c.name == name)
            return c;
    return {};
}

int count(db::Database& db, const QString& table) {
    QSqlQuery q(db.sql());
    if (!q.exec(QStringLiteral("SELECT count(*) FROM ") + table) || !q.next())
        return -1;
    return q.value(0).toInt();
}

ops::VerifyRequest identityRequest(const pbtest::SigstoreCase& c) {
    ops::VerifyRequest r;
    r.bundlePath = c.file(QStringLiteral("bundle.sigstore.json"));
    r.artifactPath = c.file(QStringLiteral("artifact"));
    r.policy.identity = c.identity;
    r.policy.issuer = c.issuer;
    r.trustedRootPath = c.file(QStringLiteral("trusted_root.json"));
    return r;
}

} // namespace

class TestOpsVerify : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    test::Databases m_dbs{m_tmp.path()};

    std::unique_ptr<db::Database> open(const QString& name) {
        auto db = m_dbs.open(name);
        if (!db)
            qWarning("%s", qPrintable(m_dbs.error()));
        return db;
    }

  private slots:
    void recordedVerificationAndReceiptAreOneTransaction() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
        const auto c = sigstoreCase(QStringLiteral("happy-path-v0.3"));
        auto db = open(QStringLiteral("record.sqlite"));
        QVERIFY(db);
        ops::Context ctx(*db);
        ops::VerifyRequest r = identityRequest(c);
        r.record = true;
        auto done = ops::verify(ctx, r);
        QVERIFY2(done, done ? "" : qPrintable(done.error().toString()));
        QVERIFY(done->result.verified);
        QVERIFY(done->verificationId > 0);
        QCOMPARE(count(*db, QStringLiteral("verifications")), 1);
        auto receipts = receipts::Ledger(*db).list();
        QVERIFY(receipts);
        QCOMPARE(receipts->size(), size_t(1));
        const receipts::Receipt& rc = receipts->front();
        QCOMPARE(rc.kind, QStringLiteral("verify"));
        QCOMPARE(rc.result, receipts::Outcome::Ok);
        QCOMPARE(rc.parameters.value(QStringLiteral("recorded")).toBool(), true);
        QCOMPARE(rc.parameters.value(QStringLiteral("useDigest")).toBool(), false);
        QCOMPARE(rc.parameters.value(QStringLiteral("policy"))
                     .toObject()
                     .value(QStringLiteral("identity"))
                     .toString(),
                 c.identity);
        QCOMPARE(rc.parameters.value(QStringLiteral("trustedRootSha256")).toString(),
                 done->result.trustedRootSha256);
        QCOMPARE(rc.inputs.size(), size_t(2));
        QCOMPARE(rc.inputs[0].name, r.bundlePath);
        QCOMPARE(rc.inputs[0].sha256, sha256Hex(pbtest::readAll(r.bundlePath)));
        QCOMPARE(rc.inputs[1].name, r.artifactPath);
        QCOMPARE(QStringLiteral("sha256:") + rc.inputs[1].sha256, c.digest);
        QCOMPARE(rc.outputs.size(), size_t(1));
        QCOMPARE(rc.outputs[0].name, QStringLiteral("verifications #%1").arg(done->verificationId));

        // Not recorded: a receipt that says so, no row.
        r.record = false;
        r.artifactPath.clear();
        r.artifactDigest = c.digest;
        auto unrecorded = ops::verify(ctx, r);
        QVERIFY(unrecorded && unrecorded->result.verified);
        QCOMPARE(unrecorded->verificationId, qint64(0));
        QCOMPARE(count(*db, QStringLiteral("verifications")), 1);
        receipts = receipts::Ledger(*db).list();
        QCOMPARE(receipts->size(), size_t(2));
        QCOMPARE(receipts->back().parameters.value(QStringLiteral("recorded")).toBool(), false);
        QCOMPARE(receipts->back().parameters.value(QStringLiteral("useDigest")).toBool(), true);
        QCOMPARE(receipts->back().inputs[1].name, QStringLiteral("artifact"));
        QVERIFY(receipts->back().outputs.empty());

        // A mismatch is an outcome (stored, receipted as failed), not an error.
        r.record = true;
        r.policy.identity = QStringLiteral("someone@example.com");
        auto mismatch = ops::verify(ctx, r);
        QVERIFY(mismatch);
        QVERIFY(!mismatch->result.verified);
        QCOMPARE(count(*db, QStringLiteral("verifications")), 2);
        QCOMPARE(receipts::Ledger(*db).list()->back().result, receipts::Outcome::Failed);
        QVERIFY(receipts::Ledger(*db).verify()->ok);
    }

    void refusedReceiptKeepsNoVerification() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
        const auto c = sigstoreCase(QStringLiteral("happy-path-v0.3"));
        auto db = open(QStringLiteral("refused.sqlite"));
        QVERIFY(db);
        const QString refused =
            test::refuseInserts(*db, QStringLiteral("receipts"), QStringLiteral("ledger refused"));
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
        ops::VerifyRequest r = identityRequest(c);
        r.record = true;
        auto done = ops::verify(ops::Context(*db), r);
        QVERIFY(!done);
        QVERIFY2(done.error().message.contains(QStringLiteral("receipt not written")),
                 qPrintable(done.error().toString()));
        QCOMPARE(count(*db, QStringLiteral("verifications")), 0);
    }

    void unreadableInputsStoreNothing() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/managed-key-happy-path"));
        const auto c = sigstoreCase(QStringLiteral("managed-key-happy-path"));
        auto db = open(QStringLiteral("inputs.sqlite"));
        QVERIFY(db);
        ops::Context ctx(*db);
        ops::VerifyRequest r;
        r.bundlePath = m_tmp.filePath(QStringLiteral("missing.sigstore.json"));
        r.artifactPath = c.file(QStringLiteral("artifact"));
        r.keyPath = c.file(QStringLiteral("key.pub"));
        r.record = true;
        auto missing = ops::verify(ctx, r);
        QVERIFY(!missing);
        QCOMPARE(missing.error().file, r.bundlePath);
        // Both the artifact and its digest, or neither: refused.
        r.bundlePath = c.file(QStringLiteral("bundle.sigstore.json"));
        r.artifactDigest = QStringLiteral("sha256:") + QString(64, QLatin1Char('0'));
        QVERIFY(!ops::verify(ctx, r));
        r.artifactDigest = QStringLiteral("sha256:12");
        r.artifactPath.clear();
        QVERIFY(!ops::verify(ctx, r));
        // An identity with no trusted root anywhere: refused, naming the database.
        ops::VerifyRequest noRoot = identityRequest(sigstoreCase(QStringLiteral("happy-path-v0.3")));
        noRoot.trustedRootPath.clear();
        auto refused = ops::verify(ctx, noRoot);
        QVERIFY(!refused);
        QVERIFY(refused.error().message.startsWith(QStringLiteral("no trusted root")));
        QCOMPARE(count(*db, QStringLiteral("verifications")), 0);
        QCOMPARE(count(*db, QStringLiteral("receipts")), 0);

        // A key needs no root: it runs, and its log entry fails as untrusted.
        r.artifactDigest.clear();
        r.artifactPath = c.file(QStringLiteral("artifact"));
        auto untrusted = ops::verify(ctx, r);
        QVERIFY(untrusted);
        QVERIFY(!untrusted->result.verified);
        // The stored default, or a stored root by id.
        auto id = ops::importTrustedRoot(ctx, c.file(QStringLiteral("trusted_root.json")));
        QVERIFY(id);
        auto withDefault = ops::verify(ctx, r);
        QVERIFY(withDefault && withDefault->result.verified);
        r.trustedRootId = *id;
        auto byId = ops::verify(ctx, r);
        QVERIFY(byId && byId->result.verified);
        QCOMPARE(byId->result.trustedRootSha256,
                 store::VerificationStore(*db).trustedRoots()->front().sha256);
        r.trustedRootId = *id + 100;
        QVERIFY(!ops::verify(ctx, r));
    }

    void batchOverTheManifest() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/MANIFEST.tsv"));
        const auto cases = pbtest::sigstoreCases();
        auto db = open(QStringLiteral("batch.sqlite"));
        QVERIFY(db);
        std::vector<int> progressed;
        ops::Context ctx(*db, [&](const ops::Progress& p) { progressed.push_back(int(p.done)); });
        ops::VerifyBatchRequest r;
        r.manifestPath = pbtest::sharedData(QStringLiteral("sigstore/MANIFEST.tsv"));
        auto done = ops::verifyBatch(ctx, r);
        QVERIFY2(done, done ? "" : qPrintable(done.error().toString()));
        QCOMPARE(done->total(), int(cases.size()));
        QVERIFY(done->ok());
        for (size_t i = 0; i < cases.size(); ++i) {
            QCOMPARE(done->cases[i].name, cases[i].name);
            QCOMPARE(done->cases[i].verdict(), cases[i].verdict);
        }
        QCOMPARE(progressed.back(), int(cases.size()));
        auto receipts = receipts::Ledger(*db).list();
        QCOMPARE(receipts->size(), size_t(1));
        const receipts::Receipt& rc = receipts->front();
        QCOMPARE(rc.kind, QStringLiteral("verify.batch"));
        QCOMPARE(rc.parameters.value(QStringLiteral("cases")).toInt(), int(cases.size()));
        QCOMPARE(rc.parameters.value(QStringLiteral("asExpected")).toInt(), int(cases.size()));
        QCOMPARE(rc.parameters.value(QStringLiteral("trustedRootSha256")).toString(),
                 QStringLiteral("per case"));
        QCOMPARE(rc.inputs.front().sha256, sha256Hex(pbtest::readAll(r.manifestPath)));
        QCOMPARE(rc.result, receipts::Outcome::Ok);
        QCOMPARE(count(*db, QStringLiteral("verifications")), 0);

        // A short line is reported by line, and fails the batch.
        const QString bad = m_tmp.filePath(QStringLiteral("bad/MANIFEST.tsv"));
        QDir().mkpath(m_tmp.filePath(QStringLiteral("bad")));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name\texpected\tmode\n\nonly\ttwo\n");
        f.close();
        r.manifestPath = bad;
        auto partial = ops::verifyBatch(ctx, r);
        QVERIFY(partial);
        QCOMPARE(partial->total(), 0);
        QCOMPARE(partial->unreadableLines.size(), size_t(1));
        QCOMPARE(partial->unreadableLines.front().line, 3);
        QVERIFY(!partial->ok());
        QCOMPARE(receipts::Ledger(*db).list()->back().result, receipts::Outcome::Failed);

        // Cancelled: an error, no receipt.
        std::atomic_bool cancel{true};
        ops::Context cancelled(*db, {}, &cancel);
        r.manifestPath = pbtest::sharedData(QStringLiteral("sigstore/MANIFEST.tsv"));
        QVERIFY(!ops::verifyBatch(cancelled, r));
        QCOMPARE(receipts::Ledger(*db).list()->size(), size_t(2));
    }

    // ops::verifyBundles spreads the verifications over the cores; its results are exactly what
    // verifying one by one gives (same verdicts, same steps and details, same order), and
    // verifyBatch's cases are the sequential results of its manifest's cases.
    void concurrentVerificationMatchesSequential() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/MANIFEST.tsv"));
        const auto cases = pbtest::sigstoreCases();
        std::vector<std::optional<sigstore::TrustedRoot>> roots;
        for (const auto& c : cases) {
            auto root = sigstore::loadTrustedRoot(c.file(QStringLiteral("trusted_root.json")));
            roots.push_back(root ? std::optional<sigstore::TrustedRoot>(std::move(*root)) : std::nullopt);
        }
        std::vector<ops::BundleVerification> items;
        for (int round = 0; round < 3;
             ++round) // more items than threads, each case several times, interleaved
            for (size_t i = 0; i < cases.size(); ++i) {
                const auto& c = cases[i];
                ops::BundleVerification v;
                v.bundleJson = pbtest::readAll(c.file(QStringLiteral("bundle.sigstore.json")));
                v.bundleFile = c.file(QStringLiteral("bundle.sigstore.json"));
                v.artifact =
                    sigstore::Artifact::fromBytes(pbtest::readAll(c.file(QStringLiteral("artifact"))));
                v.root = roots[i] ? &*roots[i] : nullptr;
                if (c.mode == QLatin1String("key")) {
                    v.policy.publicKeyPem = pbtest::readAll(c.file(QStringLiteral("key.pub")));
                } else {
                    v.policy.identity = c.identity;
                    v.policy.issuer = c.issuer;
                }
                if (round == 1) // an already parsed bundle gives the same result as its bytes
                    if (auto parsed = sigstore::parseBundle(v.bundleJson, v.bundleFile); parsed)
                        v.parsed = std::move(*parsed);
                items.push_back(std::move(v));
            }
        std::vector<sigstore::VerificationResult> sequential;
        for (const auto& v : items)
            sequential.push_back(
                v.root ? sigstore::verifyBundle(v.bundleJson, v.bundleFile, v.artifact, *v.root, v.policy)
                       : sigstore::VerificationResult{});
        const std::vector<sigstore::VerificationResult> concurrent = ops::verifyBundles(items);
        QCOMPARE(concurrent.size(), items.size());
        auto db = open(QStringLiteral("many.sqlite"));
        QVERIFY(db);
        int progressCalls = 0;
        ops::Context ctx(*db, [&](const ops::Progress&) { ++progressCalls; });
        auto withCtx = ops::verifyBundles(ctx, items, QStringLiteral("bundle(s)"));
        QVERIFY(withCtx);
        QCOMPARE(progressCalls, int(items.size()) + 1);
        int verified = 0;
        for (size_t i = 0; i < items.size(); ++i) {
            const auto& c = cases[i % cases.size()];
            if (!items[i].root) {
                QVERIFY(!concurrent[i].verified);
                continue;
            }
            QCOMPARE(concurrent[i].verified, c.pass());
            QCOMPARE(QJsonDocument(concurrent[i].toJson()).toJson(),
                     QJsonDocument(sequential[i].toJson()).toJson());
            QCOMPARE(QJsonDocument((*withCtx)[i].toJson()).toJson(),
                     QJsonDocument(sequential[i].toJson()).toJson());
            verified += concurrent[i].verified ? 1 : 0;
        }
        QVERIFY(verified >= 3 * 12);

        // verifyBatch: each case's result is the sequential result of that case.
        ops::VerifyBatchRequest r;
        r.manifestPath = pbtest::sharedData(QStringLiteral("sigstore/MANIFEST.tsv"));
        auto batch = ops::verifyBatch(ctx, r);
        QVERIFY(batch);
        QCOMPARE(batch->cases.size(), cases.size());
        for (size_t i = 0; i < cases.size(); ++i) {
            QCOMPARE(batch->cases[i].name, cases[i].name);
            if (!roots[i])
                continue;
            const auto& one = batch->cases[i].result;
            const sigstore::VerificationResult again =
                sigstore::verifyBundle(pbtest::readAll(cases[i].file(QStringLiteral("bundle.sigstore.json"))),
                                       one.bundleFile, items[i].artifact, *roots[i], items[i].policy);
            QCOMPARE(QJsonDocument(one.toJson()).toJson(), QJsonDocument(again.toJson()).toJson());
        }

        // Cancelled before the start: an error, not a partial list.
        std::atomic_bool cancel{true};
        ops::Context cancelled(*db, {}, &cancel);
        QVERIFY(!ops::verifyBundles(cancelled, items));
    }
};

QTEST_GUILESS_MAIN(TestOpsVerify)
#include "tst_opsverify.moc"
