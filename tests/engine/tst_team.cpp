// Issue 32: several clients writing one database at once, on both engines: a SQLite file (the window
// open while CLI jobs import, two CI jobs on one runner) and a PostgreSQL server (a team). Real
// processes: pb_teamchild appending receipts through receipts::Ledger, and the proofbench CLI
// importing catalogs; then the ledger must be one chain with every receipt in it.
#include "DbTestUtil.h"
#include "TestDb.h"
#include "TestUtil.h"

#include "db/Database.h"
#include "receipts/Ledger.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

using namespace pb;

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run proofbench(const QStringList& args) {
    QProcess p;
    p.setProcessEnvironment(pbtest::cliEnvironment());
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    if (!p.waitForFinished(300000))
        return {};
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
               p.readAllStandardError()};
}

std::unique_ptr<QProcess> start(const QString& program, const QStringList& args) {
    auto p = std::make_unique<QProcess>();
    p->setProcessEnvironment(pbtest::cliEnvironment());
    p->start(program, args);
    return p;
}

} // namespace

class TestTeam : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { pb::test::exportPgPassFile(); }

    // 8 clients append 250 receipts each while CLI imports run, all against one new database (so the
    // first opens race on its creation and migration too): every write succeeds, and the ledger is one
    // chain of exactly those receipts, without a fork or a gap.
    void concurrentWritersKeepOneChain() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("team.sqlite"));
        const QString spec = testDb.spec();
        constexpr int kWriters = 8, kEach = 250, kImporters = 4, kRounds = 2;

        std::vector<std::unique_ptr<QProcess>> writers;
        for (int w = 0; w < kWriters; ++w)
            writers.push_back(start(QStringLiteral(PB_TEAM_CHILD),
                                    {QStringLiteral("receipts"), spec, QString::number(kEach),
                                     QStringLiteral("writer-%1").arg(w)}));
        // Rounds of concurrent CLI imports of the sample catalog under new labels, while they write.
        QStringList labels;
        for (int round = 0; round < kRounds; ++round) {
            std::vector<std::unique_ptr<QProcess>> importers;
            for (int i = 0; i < kImporters; ++i) {
                const QString label = QStringLiteral("team-%1-%2").arg(round).arg(i);
                labels << label;
                importers.push_back(start(QStringLiteral(PB_CLI_BINARY),
                                          {QStringLiteral("catalog"), QStringLiteral("import"),
                                           pbtest::embeddedCatalogDir(QStringLiteral("sample-1")), QStringLiteral("--version"),
                                           label, QStringLiteral("--db"), spec}));
            }
            for (auto& p : importers) {
                QVERIFY(p->waitForFinished(300000));
                QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0,
                         qPrintable(QStringLiteral("catalog import failed (%1): %2")
                                        .arg(p->exitCode())
                                        .arg(QString::fromLocal8Bit(p->readAllStandardError()))));
            }
        }
        for (auto& p : writers) {
            QVERIFY(p->waitForFinished(300000));
            const QByteArray err = p->readAllStandardError();
            QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0,
                     qPrintable(QStringLiteral("a writer failed (%1): %2")
                                    .arg(p->exitCode())
                                    .arg(QString::fromLocal8Bit(err))));
            QCOMPARE(p->readAllStandardOutput().trimmed(), QByteArray("done ") + QByteArray::number(kEach));
        }

        const Run verify = proofbench({QStringLiteral("receipts"), QStringLiteral("verify"),
                                       QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--db"),
                                       spec});
        QVERIFY2(verify.code == 0, verify.out.constData());
        const QJsonObject chain = QJsonDocument::fromJson(verify.out).object();
        QVERIFY2(chain.value(QStringLiteral("intact")).toBool(), verify.out.constData());

        auto db = db::Database::open(spec);
        QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
        auto all = receipts::Ledger(**db).list();
        QVERIFY(all.ok());
        QMap<QString, int> perWriter;
        QStringList imported;
        qint64 expectedSeq = 1;
        QString prev = receipts::genesisHash();
        for (const receipts::Receipt& r : *all) {
            QCOMPARE(r.seq, expectedSeq++); // no gap
            QCOMPARE(r.prevHash, prev);      // no fork
            prev = r.hash;
            if (r.kind == QLatin1String("evidence.check"))
                ++perWriter[r.message.section(QLatin1Char(' '), 0, 0)];
            if (r.kind == QLatin1String("catalog.import") && r.result == receipts::Outcome::Ok)
                imported << r.parameters.value(QStringLiteral("version")).toString();
            // On the server each receipt names its writer as the server knows it.
            QCOMPARE(r.author, pb::test::onPostgres() ? (*db)->sessionUser() : QString());
        }
        QCOMPARE(perWriter.size(), kWriters);
        for (auto it = perWriter.cbegin(); it != perWriter.cend(); ++it)
            QCOMPARE(it.value(), kEach);
        for (const QString& label : labels)
            QVERIFY2(imported.contains(label), qPrintable(label));
        QCOMPARE(chain.value(QStringLiteral("receipts")).toInt(), int(all->size()));
    }

    // The ledger is append-only on both engines, for the database's owner too: the server (or the
    // file's triggers) refuses UPDATE, DELETE and, on a server, TRUNCATE of receipts, and nothing changes.
    void ledgerIsAppendOnly() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("append.sqlite"));
        const QString spec = testDb.spec();
        auto db = db::Database::open(spec);
        QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
        receipts::Ledger ledger(**db);
        receipts::ReceiptDraft d;
        d.kind = QStringLiteral("evidence.check");
        d.message = QStringLiteral("kept as written");
        QVERIFY(ledger.record(d).ok());
        QVERIFY(ledger.record(d).ok());
        QStringList refusals{QStringLiteral("UPDATE receipts SET message = 'rewritten'"),
                             QStringLiteral("DELETE FROM receipts WHERE seq = 2")};
        if (pb::test::onPostgres())
            refusals << QStringLiteral("TRUNCATE receipts");
        for (const QString& sql : refusals) {
            QSqlQuery q((*db)->sql());
            QVERIFY2(!q.exec(sql), qPrintable(sql));
            QVERIFY2(q.lastError().text().contains(QLatin1String("append-only")),
                     qPrintable(q.lastError().text()));
        }
        auto rows = ledger.list();
        QVERIFY(rows.ok());
        QCOMPARE(rows->size(), size_t(2));
        QCOMPARE(rows->at(1).message, QStringLiteral("kept as written"));
        QVERIFY(ledger.verify().ok() && ledger.verify()->ok);
    }
};

QTEST_GUILESS_MAIN(TestTeam)
#include "tst_team.moc"
