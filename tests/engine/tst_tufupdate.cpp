// ops::updateTrustedRoot and `proofbench trusted-root update/list` against the real Sigstore TUF
// repository copy: the verified trusted_root.json stored byte for byte with its provenance and a
// receipt in one transaction; an expired or tampered repository stores nothing and says why; the CLI
// prints the same verdict (real binary, PB_CLI_BINARY).
#include "TufFixture.h"

#include "db/Database.h"
#include "ops/TrustedRootUpdate.h"
#include "receipts/Ledger.h"
#include "store/VerificationStore.h"

#include <QJsonArray>
#include <QProcess>
#include <QSqlQuery>
#include <QTest>

using namespace pb;

namespace {

int count(db::Database& db, const QString& table) {
    QSqlQuery q(db.sql());
    return q.exec(QStringLiteral("SELECT COUNT(*) FROM ") + table) && q.next() ? q.value(0).toInt() : -1;
}

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run proofbench(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    p.waitForFinished(120000);
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace

class TstTufUpdate : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    std::unique_ptr<db::Database> open(const QString& name) {
        auto db = db::Database::open(m_tmp.filePath(name));
        return db ? std::move(*db) : nullptr;
    }

  private slots:
    void importsTheVerifiedRootWithProvenance() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        auto db = open(QStringLiteral("ok.sqlite"));
        QVERIFY(db);
        int progressed = 0;
        ops::Context ctx(*db, [&](const ops::Progress&) { ++progressed; });
        ops::TrustedRootUpdateRequest req;
        req.repository = pbtest::tufRepo();
        req.at = pbtest::tufValidTime();
        std::vector<tuf::ClientStep> seen;
        auto done = ops::updateTrustedRoot(ctx, req, [&](const tuf::ClientStep& s) { seen.push_back(s); });
        QVERIFY2(done, done ? "" : qPrintable(done.error().toString()));
        QVERIFY2(done->ok(), qPrintable(done->verification.error.toString()));
        QCOMPARE(int(seen.size()), 8);
        QCOMPARE(progressed, 8);
        QVERIFY(!done->alreadyStored);

        store::VerificationStore roots(*db);
        auto stored = roots.trustedRoots();
        QVERIFY(stored);
        QCOMPARE(int(stored->size()), 1);
        const auto& r = stored->front();
        QVERIFY(r.isDefault);
        QCOMPARE(r.sha256, QStringLiteral("6494e21ea73fa7ee769f85f57d5a3e6a08725eae1e38c755fc3517c9e6bc0b66"));
        QSqlQuery q(db->sql());
        QVERIFY(q.exec(QStringLiteral("SELECT content FROM trusted_roots")) && q.next());
        QCOMPARE(q.value(0).toByteArray(), pbtest::readAll(pbtest::tufRepo() + QStringLiteral("/targets/trusted_root.json")));
        QVERIFY(r.provenance);
        const auto& p = *r.provenance;
        QCOMPARE(p.repository, pbtest::tufRepo());
        QCOMPARE(p.anchorName, QString(ops::kShippedTufAnchor));
        QCOMPARE(p.anchorVersion, 13);
        QCOMPARE(p.rootChain, (QList<qint64>{14, 15}));
        QCOMPARE(p.rootVersion, 15);
        QCOMPARE(p.timestampVersion, 762);
        QCOMPARE(p.snapshotVersion, 165);
        QCOMPARE(p.targetsVersion, 14);
        QCOMPARE(p.verificationTime, pbtest::tufValidTime());
        QVERIFY(p.timeGiven);
        QCOMPARE(p.earliestExpiry(), QDateTime(QDate(2026, 8, 28), QTime(19, 25, 56), Qt::UTC));
        QVERIFY(p.summary().contains(QStringLiteral("TUF root v15")));
        // The default root is usable for verification.
        auto def = roots.defaultTrustedRoot();
        QVERIFY(def && def->has_value());

        auto receipts = receipts::Ledger(*db).list();
        QVERIFY(receipts);
        QCOMPARE(receipts->back().kind, QString(ops::kTrustedRootUpdateKind));
        QCOMPARE(receipts->back().result, receipts::Outcome::Ok);
        QCOMPARE(receipts->back().parameters.value(QStringLiteral("rootVersion")).toInteger(), 15);
        QCOMPARE(receipts->back().parameters.value(QStringLiteral("verificationTime")).toString(), QStringLiteral("2026-08-22T00:00:00Z"));

        // Again: the same bytes, one more provenance row, the root not duplicated.
        auto again = ops::updateTrustedRoot(ctx, req);
        QVERIFY(again && again->ok());
        QVERIFY(again->alreadyStored);
        QCOMPARE(again->trustedRootId, done->trustedRootId);
        QCOMPARE(count(*db, QStringLiteral("trusted_roots")), 1);
        QCOMPARE(count(*db, QStringLiteral("trusted_root_provenance")), 2);
    }

    void expiredOrTamperedStoresNothing() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        auto db = open(QStringLiteral("fail.sqlite"));
        QVERIFY(db);
        ops::Context ctx(*db);
        ops::TrustedRootUpdateRequest req;
        req.repository = pbtest::tufRepo();
        req.at = QDateTime(QDate(2026, 11, 21), QTime(0, 0), Qt::UTC);
        auto done = ops::updateTrustedRoot(ctx, req);
        QVERIFY(done);
        QVERIFY(!done->ok());
        QCOMPARE(done->verification.failedRole, QStringLiteral("root"));
        QVERIFY(done->verification.error.message.startsWith(QStringLiteral("root v15 expired 2026-11-20T13:58:18Z")));
        QCOMPARE(count(*db, QStringLiteral("trusted_roots")), 0);
        QCOMPARE(count(*db, QStringLiteral("trusted_root_provenance")), 0);
        auto receipts = receipts::Ledger(*db).list();
        QVERIFY(receipts && !receipts->empty());
        QCOMPARE(receipts->back().result, receipts::Outcome::Failed);
        QVERIFY(receipts->back().message.contains(QStringLiteral("root v15 expired")));

        // A target that is not a Sigstore trusted root (signed, but another file): refused.
        QTemporaryDir tmp;
        const QString repo = pbtest::copyTufRepo(tmp);
        req.repository = repo;
        req.at = pbtest::tufValidTime();
        req.targetName = QStringLiteral("rekor.pub");
        auto other = ops::updateTrustedRoot(ctx, req);
        QVERIFY(other);
        QVERIFY(!other->ok());
        QCOMPARE(other->verification.failedRole, QStringLiteral("target"));
        QCOMPARE(count(*db, QStringLiteral("trusted_roots")), 0);

        // An unreadable anchor is an error of the request, not a verdict.
        req.anchorPath = m_tmp.filePath(QStringLiteral("missing-root.json"));
        QVERIFY(!ops::updateTrustedRoot(ctx, req));
    }

    void verificationTimes() {
        QCOMPARE(*ops::parseVerificationTime(QStringLiteral("2026-08-22")), pbtest::tufValidTime());
        QCOMPARE(*ops::parseVerificationTime(QStringLiteral("2026-08-22T02:00:00+02:00")), pbtest::tufValidTime());
        QVERIFY(!ops::parseVerificationTime(QStringLiteral("yesterday")));
        QVERIFY(!ops::parseVerificationTime(QStringLiteral("2026-08-22T00:00:00"))); // no zone
    }

    void cli() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        const QString dbPath = m_tmp.filePath(QStringLiteral("cli.sqlite"));
        Run ok = proofbench({QStringLiteral("trusted-root"), QStringLiteral("update"), QStringLiteral("--db"), dbPath, QStringLiteral("--tuf"),
                             pbtest::tufRepo(), QStringLiteral("--at"), QStringLiteral("2026-08-22T00:00:00Z"), QStringLiteral("--format"),
                             QStringLiteral("json")});
        QVERIFY2(ok.code == 0, ok.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(ok.out).object();
        QCOMPARE(j.value(QStringLiteral("verified")).toBool(), true);
        QCOMPARE(j.value(QStringLiteral("root")).toObject().value(QStringLiteral("version")).toInt(), 15);
        QCOMPARE(j.value(QStringLiteral("target")).toObject().value(QStringLiteral("sha256")).toString(),
                 QStringLiteral("6494e21ea73fa7ee769f85f57d5a3e6a08725eae1e38c755fc3517c9e6bc0b66"));
        QCOMPARE(j.value(QStringLiteral("steps")).toArray().size(), 8);

        Run text = proofbench({QStringLiteral("trusted-root"), QStringLiteral("update"), QStringLiteral("--db"), dbPath, QStringLiteral("--tuf"),
                               pbtest::tufRepo(), QStringLiteral("--anchor"), pbtest::tufRepo() + QStringLiteral("/metadata/root_history/1.root.json"),
                               QStringLiteral("--at"), QStringLiteral("2026-08-22")});
        QVERIFY2(text.code == 0, text.err.constData());
        QVERIFY(text.out.contains("root v1 -> v2"));
        QVERIFY(text.out.contains("(already present)"));

        if (QDateTime::currentDateTimeUtc() > QDateTime(QDate(2026, 11, 20), QTime(13, 58, 18), Qt::UTC)) {
            Run expired = proofbench({QStringLiteral("trusted-root"), QStringLiteral("update"), QStringLiteral("--db"), dbPath, QStringLiteral("--tuf"),
                                      pbtest::tufRepo()});
            QCOMPARE(expired.code, 1);
            QVERIFY2(expired.err.contains("root v15 expired 2026-11-20T13:58:18Z"), expired.err.constData());
            QVERIFY(expired.out.contains("FAILED"));
        }

        Run bad = proofbench({QStringLiteral("trusted-root"), QStringLiteral("update"), QStringLiteral("--db"), dbPath, QStringLiteral("--tuf"),
                              pbtest::tufRepo(), QStringLiteral("--at"), QStringLiteral("soon")});
        QCOMPARE(bad.code, 2);
        Run missing = proofbench({QStringLiteral("trusted-root"), QStringLiteral("update"), QStringLiteral("--db"), dbPath});
        QCOMPARE(missing.code, 2);

        Run list = proofbench({QStringLiteral("trusted-root"), QStringLiteral("list"), QStringLiteral("--db"), dbPath});
        QCOMPARE(list.code, 0);
        QVERIFY2(list.out.contains("default") && list.out.contains("TUF root v15"), list.out.constData());
    }
};

QTEST_GUILESS_MAIN(TstTufUpdate)
#include "tst_tufupdate.moc"
