// Issue 32: several clients writing one database at once, on both engines: a SQLite file (the window
// open while CLI jobs import, two CI jobs on one runner) and a PostgreSQL server (a team). Real
// processes: pb_teamchild appending receipts through receipts::Ledger, and the proofbench CLI
// importing catalogs; then the ledger must be one chain with every receipt in it.
#include "DbTestUtil.h"
#include "TeamUsers.h"
#include "TestDb.h"
#include "TestUtil.h"

#include "db/Database.h"
#include "receipts/Ledger.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QUuid>

#include <memory>
#include <vector>

using namespace pb;

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

// The CLI, run to its end in `env` (a crash or a hang counts as exit -1).
Run proofbench(const QStringList& args, const QProcessEnvironment& env = pbtest::cliEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
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
                importers.push_back(
                    start(QStringLiteral(PB_CLI_BINARY),
                          {QStringLiteral("catalog"), QStringLiteral("import"),
                           pbtest::embeddedCatalogDir(QStringLiteral("sample-1")),
                           QStringLiteral("--version"), label, QStringLiteral("--db"), spec}));
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

        const Run verify =
            proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--format"),
                        QStringLiteral("json"), QStringLiteral("--db"), spec});
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
            QCOMPARE(r.prevHash, prev);     // no fork
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

    // Names that reach SQL are bound parameters: a label written as an injection imports, lists and
    // is receipted as written, and the ledger is intact.
    void hostileLabelIsJustALabel() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("names.sqlite"));
        const QString spec = testDb.spec();
        const QString label = QStringLiteral("x'); drop table receipts; --");
        const Run imported = proofbench({QStringLiteral("catalog"), QStringLiteral("import"),
                                         pbtest::embeddedCatalogDir(QStringLiteral("sample-1")),
                                         QStringLiteral("--version"), label, QStringLiteral("--db"), spec});
        QVERIFY2(imported.code == 0, imported.err.constData());
        const Run listed =
            proofbench({QStringLiteral("catalog"), QStringLiteral("list"), QStringLiteral("--db"), spec});
        QVERIFY2(listed.out.contains(label.toUtf8()), listed.out.constData());
        const Run receipts =
            proofbench({QStringLiteral("receipts"), QStringLiteral("list"), QStringLiteral("--format"),
                        QStringLiteral("json"), QStringLiteral("--db"), spec});
        QVERIFY(receipts.code == 0);
        bool found = false;
        for (const QJsonValue& v :
             QJsonDocument::fromJson(receipts.out).object().value(QStringLiteral("receipts")).toArray())
            found |= v.toObject()
                         .value(QStringLiteral("parameters"))
                         .toObject()
                         .value(QStringLiteral("version")) == label;
        QVERIFY(found);
        const Run verify =
            proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"), spec});
        QVERIFY2(verify.code == 0, verify.out.constData());
    }

    // A write that must wait for another client's says whose wait it is, then goes on once the other
    // write ends (SQLite: another process holds the file's write lock; PostgreSQL: the writers' lock).
    void longLockSaysWhatItWaitsFor() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("wait.sqlite"));
        const QString spec = testDb.spec();
        const Run first =
            proofbench({QStringLiteral("catalog"), QStringLiteral("list"), QStringLiteral("--db"), spec});
        QVERIFY2(first.code == 0, first.err.constData()); // created and seeded
        pbtest::RawConnection other(spec);
        QSqlQuery hold(other.sql());
        if (pb::test::onPostgres()) {
            QVERIFY(hold.exec(QStringLiteral("BEGIN")));
            QVERIFY(hold.exec(QStringLiteral("SELECT pg_advisory_xact_lock(8102661203842721134)")));
        } else {
            QVERIFY(hold.exec(QStringLiteral("BEGIN IMMEDIATE")));
        }
        auto import =
            start(QStringLiteral(PB_CLI_BINARY),
                  {QStringLiteral("catalog"), QStringLiteral("import"),
                   pbtest::embeddedCatalogDir(QStringLiteral("sample-1")), QStringLiteral("--version"),
                   QStringLiteral("waited"), QStringLiteral("--db"), spec});
        QByteArray err;
        QVERIFY(QTest::qWaitFor(
            [&] {
                err += import->readAllStandardError();
                return err.contains("waiting for another client's write");
            },
            30000));
        QVERIFY2(!pb::test::onPostgres() || err.contains("(user pbtest, server process"), err.constData());
        QCOMPARE(import->state(), QProcess::Running); // it waits, it has not failed
        QVERIFY(hold.exec(QStringLiteral("ROLLBACK")));
        QVERIFY(import->waitForFinished(60000));
        QVERIFY2(import->exitCode() == 0, (err + import->readAllStandardError()).constData());
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

    // The three roles, enforced by the server: `db init-team` by the owner, then three login users
    // (auditor, engineer, release) each try what their role may and may not do, through the CLI (which
    // refuses first, in the action's words) and over a raw connection (which the server refuses).
    void rolesAreEnforcedByTheServer() {
        if (!pb::test::onPostgres())
            QSKIP("roles are the server's: a SQLite file has no users (tst_team.postgresql runs this)");
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("roles"));
        const QString spec = testDb.spec();
        auto owner = db::Database::open(spec);
        QVERIFY2(owner.ok(), owner.ok() ? "" : qPrintable(owner.error().toString()));
        QCOMPARE((*owner)->access().role, db::TeamRole::Owner);

        // Three login users of our own, with passwords in a pgpass file of our own.
        pbtest::TeamUsers users((*owner)->sql(), spec, testDb.pgName(),
                                {QStringLiteral("audit"), QStringLiteral("eng"), QStringLiteral("rel")},
                                tmp.path());
        QVERIFY2(users.error().isEmpty(), qPrintable(users.error()));
        const QString auditor = users.user(QStringLiteral("audit")),
                      engineer = users.user(QStringLiteral("eng")),
                      release = users.user(QStringLiteral("rel"));
        const QString pgpass = users.pgpass();
        QProcessEnvironment env = pbtest::cliEnvironment();
        env.insert(QStringLiteral("PGPASSFILE"), pgpass);
        auto cli = [&](const QString& user, QStringList args) {
            args << QStringLiteral("--db") << (user.isEmpty() ? spec : pb::test::pgSpecAs(spec, user));
            return proofbench(args, env);
        };
        auto count = [&](const QString& table) {
            QSqlQuery q((*owner)->sql());
            return q.exec(QStringLiteral("SELECT count(*) FROM %1").arg(table)) && q.next()
                       ? q.value(0).toInt()
                       : -1;
        };

        const Run init = cli({}, {QStringLiteral("db"), QStringLiteral("init-team"),
                                  QStringLiteral("--member"), auditor + QStringLiteral("=auditor"),
                                  QStringLiteral("--member"), engineer + QStringLiteral("=engineer"),
                                  QStringLiteral("--member"), release + QStringLiteral("=release")});
        QVERIFY2(init.code == 0, init.err.constData());
        QVERIFY(init.out.contains("is now proofbench_engineer"));

        // Each learns its role at connect time.
        for (const auto& [user, role] : {std::pair{auditor, "auditor (proofbench_auditor)"},
                                         std::pair{engineer, "engineer (proofbench_engineer)"},
                                         std::pair{release, "release (proofbench_release)"}}) {
            const Run status = cli(user, {QStringLiteral("db"), QStringLiteral("status"),
                                          QStringLiteral("--format"), QStringLiteral("json")});
            QVERIFY2(status.code == 0, status.err.constData());
            const QJsonObject o = QJsonDocument::fromJson(status.out).object();
            QCOMPARE(o.value(QStringLiteral("user")).toString(), user);
            QCOMPARE(o.value(QStringLiteral("role")).toString(), QString::fromLatin1(role));
        }

        const QString sample = pbtest::embeddedCatalogDir(QStringLiteral("sample-1"));
        const int receiptsBefore = count(QStringLiteral("receipts"));
        // The auditor reads, and may not import: refused before any work, in the action's words.
        const Run auditorImport = cli(auditor, {QStringLiteral("catalog"), QStringLiteral("import"), sample,
                                                QStringLiteral("--version"), QStringLiteral("audited")});
        QCOMPARE(auditorImport.code, 1);
        QVERIFY2(auditorImport.err.contains("role proofbench_auditor may not import catalogs"),
                 auditorImport.err.constData());
        QCOMPARE(count(QStringLiteral("catalog_versions")), 0);
        QCOMPARE(count(QStringLiteral("receipts")), receiptsBefore);
        const Run auditorList = cli(auditor, {QStringLiteral("receipts"), QStringLiteral("list")});
        QVERIFY2(auditorList.code == 0, auditorList.err.constData());

        // The engineer imports; the receipt names the engineer, as the server knows them.
        const Run engineerImport = cli(engineer, {QStringLiteral("catalog"), QStringLiteral("import"), sample,
                                                  QStringLiteral("--version"), QStringLiteral("engineered")});
        QVERIFY2(engineerImport.code == 0, engineerImport.err.constData());
        QCOMPARE(count(QStringLiteral("catalog_versions WHERE label = 'engineered'")), 1);
        // ...and may not add signing keys: refused before the key file is written.
        env.insert(QStringLiteral("PB_TEST_PASS"), QStringLiteral("correct horse"));
        const QString engineerKey = tmp.filePath(QStringLiteral("eng.key"));
        const Run engineerKeygen =
            cli(engineer, {QStringLiteral("keygen"), QStringLiteral("--out"), engineerKey,
                           QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS")});
        QCOMPARE(engineerKeygen.code, 1);
        QVERIFY2(engineerKeygen.err.contains("role proofbench_engineer may not add signing keys"),
                 engineerKeygen.err.constData());
        QVERIFY(!QFile::exists(engineerKey));
        // The release manager may.
        const Run releaseKeygen =
            cli(release,
                {QStringLiteral("keygen"), QStringLiteral("--out"), tmp.filePath(QStringLiteral("rel.key")),
                 QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS")});
        QVERIFY2(releaseKeygen.code == 0, releaseKeygen.err.constData());
        QCOMPARE(count(QStringLiteral("signing_keys")), 1);
        // The auditor lists the public keys and fingerprints; no private key is in the database.
        const qsizetype at = releaseKeygen.out.indexOf("fingerprint: ");
        QVERIFY(at >= 0);
        const QByteArray fingerprint = releaseKeygen.out.mid(at + 13).split('\n').first().trimmed();
        const Run auditorKeys = cli(auditor, {QStringLiteral("keys"), QStringLiteral("list"),
                                              QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(auditorKeys.code == 0, auditorKeys.err.constData());
        const QJsonArray keys = QJsonDocument::fromJson(auditorKeys.out).array();
        QCOMPARE(keys.size(), 1);
        QCOMPARE(keys.at(0)[QStringLiteral("fingerprint")].toString().toUtf8(), fingerprint);
        QVERIFY(keys.at(0)[QStringLiteral("publicKeyPem")].toString().contains(
            QLatin1String("BEGIN PUBLIC KEY")));
        {
            QSqlQuery q((*owner)->sql());
            QVERIFY(q.exec(QStringLiteral(
                        "SELECT count(*) FROM signing_keys WHERE public_pem LIKE '%PRIVATE%'")) &&
                    q.next());
            QCOMPARE(q.value(0).toInt(), 0);
        }

        // Whatever the client: the server itself refuses, over a raw connection.
        auto raw = [&](const QString& user, const QString& sql) {
            qputenv("PGPASSFILE", pgpass.toLocal8Bit());
            pbtest::RawConnection c(pb::test::pgSpecAs(spec, user));
            QSqlQuery q(c.sql());
            q.exec(QStringLiteral("SET search_path TO proofbench"));
            const bool ok = q.exec(sql);
            return ok ? QString()
                      : q.lastError().nativeErrorCode() + QLatin1Char(' ') + q.lastError().databaseText();
        };
        const QString forged =
            QStringLiteral("INSERT INTO receipts (seq, kind, created_at, version, prev_hash, hash, result, "
                           "written_by) VALUES "
                           "(1000, 'verify', '2026-12-05T00:00:00.000Z', 'x', 'p', 'h', 'ok', '%1')");
        QVERIFY(raw(auditor,
                    QStringLiteral("INSERT INTO signing_keys (fingerprint, public_pem, label, created_at) "
                                   "VALUES ('f', 'p', 'l', 'now')"))
                    .startsWith(QLatin1String("42501")));
        QVERIFY(raw(auditor, forged.arg(auditor)).startsWith(QLatin1String("42501")));
        QVERIFY(raw(auditor, QStringLiteral("SELECT count(*) FROM receipts")).isEmpty());
        QVERIFY(raw(engineer, QStringLiteral("INSERT INTO signing_keys (fingerprint, public_pem, label, "
                                             "created_at) VALUES ('f', 'p', 'l', 'now')"))
                    .startsWith(QLatin1String("42501")));
        QVERIFY(raw(engineer, QStringLiteral("UPDATE receipts SET message = 'x'"))
                    .startsWith(QLatin1String("42501")));
        QVERIFY(raw(engineer, QStringLiteral("DELETE FROM receipts")).startsWith(QLatin1String("42501")));
        QVERIFY(raw(engineer, QStringLiteral("DELETE FROM catalog_release_bindings"))
                    .startsWith(QLatin1String("42501")));
        // An engineer may append a receipt only in their own name.
        const QString claim = raw(engineer, forged.arg(release));
        QVERIFY2(claim.startsWith(QLatin1String("42501")) && claim.contains(QLatin1String("must name")),
                 qPrintable(claim));
        qunsetenv("PGPASSFILE");
        pb::test::exportPgPassFile();

        // The ledger says who did what, and is one chain.
        const Run list = cli({}, {QStringLiteral("receipts"), QStringLiteral("list"),
                                  QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(list.code == 0, list.err.constData());
        QMap<QString, QString> authorOf;
        for (const QJsonValue& v :
             QJsonDocument::fromJson(list.out).object().value(QStringLiteral("receipts")).toArray())
            authorOf[v.toObject().value(QStringLiteral("kind")).toString()] =
                v.toObject().value(QStringLiteral("author")).toString();
        QCOMPARE(authorOf.value(QStringLiteral("db.init-team")), (*owner)->sessionUser());
        QCOMPARE(authorOf.value(QStringLiteral("catalog.import")), engineer);
        QCOMPARE(authorOf.value(QStringLiteral("key.generate")), release);
        const Run verify = cli({}, {QStringLiteral("receipts"), QStringLiteral("verify")});
        QVERIFY2(verify.code == 0, verify.out.constData());
    }

    // The server goes away mid-import (what a restart or an administrator does to each connection:
    // the backend is terminated). The import had written its catalog rows and waits, uncommitted,
    // for the ledger's head row another session holds: then its backend is terminated. The command
    // fails saying the connection was lost, nothing of it is kept, and a retry succeeds.
    void importLosingItsConnectionKeepsNothing() {
        if (!pb::test::onPostgres())
            QSKIP("a server's connection (SQLite's crash safety is tst_crashsafety)");
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("lost"));
        const QString spec = testDb.spec();
        const QString sample = pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
        const Run first =
            proofbench({QStringLiteral("catalog"), QStringLiteral("import"), sample,
                        QStringLiteral("--version"), QStringLiteral("before"), QStringLiteral("--db"), spec});
        QVERIFY2(first.code == 0, first.err.constData());
        auto owner = db::Database::open(spec);
        QVERIFY(owner.ok());
        QSqlQuery hold((*owner)->sql());
        QVERIFY(hold.exec(QStringLiteral("BEGIN")));
        QVERIFY(hold.exec(QStringLiteral("SELECT seq FROM receipts_head WHERE id = 1 FOR UPDATE")));
        QVERIFY(hold.next());

        auto import =
            start(QStringLiteral(PB_CLI_BINARY),
                  {QStringLiteral("catalog"), QStringLiteral("import"), sample, QStringLiteral("--version"),
                   QStringLiteral("lost"), QStringLiteral("--db"), spec});
        // Its backend, waiting for the row lock with its catalog rows written.
        auto other = (*owner)->openSibling();
        QVERIFY(other.ok());
        QSqlQuery watch((*other)->sql());
        qint64 pid = 0;
        QVERIFY(QTest::qWaitFor(
            [&] {
                watch.prepare(QStringLiteral("SELECT pid FROM pg_stat_activity WHERE datname = ? AND "
                                             "wait_event_type = 'Lock' AND pid <> pg_backend_pid()"));
                watch.addBindValue(testDb.pgName());
                if (watch.exec() && watch.next())
                    pid = watch.value(0).toLongLong();
                return pid != 0;
            },
            60000));
        watch.prepare(QStringLiteral("SELECT pg_terminate_backend(?)"));
        watch.addBindValue(pid);
        QVERIFY2(watch.exec(), qPrintable(watch.lastError().text()));
        QVERIFY(import->waitForFinished(60000));
        const QString err = QString::fromLocal8Bit(import->readAllStandardError());
        QCOMPARE(import->exitCode(), 1);
        QVERIFY2(err.contains(QLatin1String("connection to the server was lost")), qPrintable(err));
        QVERIFY(hold.exec(QStringLiteral("ROLLBACK")));

        QSqlQuery q((*owner)->sql());
        QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM catalog_versions WHERE label = 'lost'")) &&
                q.next());
        QCOMPARE(q.value(0).toInt(), 0); // nothing half-imported
        const Run retry =
            proofbench({QStringLiteral("catalog"), QStringLiteral("import"), sample,
                        QStringLiteral("--version"), QStringLiteral("lost"), QStringLiteral("--db"), spec});
        QVERIFY2(retry.code == 0, retry.err.constData());
        const Run verify =
            proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"), spec});
        QVERIFY2(verify.code == 0, verify.out.constData());
    }

    // An auditor's hot standby (pg_basebackup -R of the test server, streaming replication): reads
    // work, the app knows it is a replica and refuses writes saying so, and what the primary commits
    // appears there within seconds.
    void hotStandbyReadsAndRefusesWrites() {
        if (!pb::test::onPostgres())
            QSKIP("a server's replica (tst_team.postgresql runs this)");
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("replica"));
        const QString spec = testDb.spec();
        const QString sample = pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
        const Run first = proofbench({QStringLiteral("catalog"), QStringLiteral("import"), sample,
                                      QStringLiteral("--version"), QStringLiteral("primary-1"),
                                      QStringLiteral("--db"), spec});
        QVERIFY2(first.code == 0, first.err.constData());

        const QString script = QStringLiteral(PB_SOURCE_DIR "/tools/pgtest-server.sh");
        const QString standbyDir = tmp.filePath(QStringLiteral("standby"));
        QProcess make;
        make.start(QStringLiteral("bash"),
                   {script, QStringLiteral("standby"), pb::test::pgServerDir(), standbyDir});
        QVERIFY(make.waitForFinished(120000));
        QVERIFY2(make.exitCode() == 0, make.readAllStandardError().constData());
        struct StopStandby {
            QString script, dir;
            ~StopStandby() {
                QProcess::execute(QStringLiteral("bash"), {script, QStringLiteral("stop"), dir});
            }
        } stopStandby{script, standbyDir};
        QFile uriFile(standbyDir + QStringLiteral("/uri"));
        QVERIFY(uriFile.open(QIODevice::ReadOnly));
        QUrl standbyUrl(spec);
        standbyUrl.setPort(QUrl(QString::fromUtf8(uriFile.readAll()).trimmed()).port());
        const QString standby = standbyUrl.toString(QUrl::FullyEncoded);
        QProcessEnvironment env = pbtest::cliEnvironment();
        env.insert(QStringLiteral("PGPASSFILE"), standbyDir + QStringLiteral("/pgpass"));
        auto onStandby = [&](QStringList args) {
            args << QStringLiteral("--db") << standby;
            return proofbench(args, env);
        };

        const Run status = onStandby({QStringLiteral("db"), QStringLiteral("status"),
                                      QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(status.code == 0, status.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(status.out).object();
        QVERIFY(o.value(QStringLiteral("readOnlyReplica")).toBool());
        QVERIFY2(o.value(QStringLiteral("role")).toString().endsWith(QLatin1String("read-only replica")),
                 status.out.constData());
        // Reads work.
        QTRY_VERIFY_WITH_TIMEOUT(
            onStandby({QStringLiteral("catalog"), QStringLiteral("list")}).out.contains("primary-1"), 30000);
        const Run chain = onStandby({QStringLiteral("receipts"), QStringLiteral("verify")});
        QVERIFY2(chain.code == 0, chain.out.constData());
        // Writes are refused before any work, saying why.
        const Run write = onStandby({QStringLiteral("catalog"), QStringLiteral("import"), sample,
                                     QStringLiteral("--version"), QStringLiteral("standby-1")});
        QCOMPARE(write.code, 1);
        QVERIFY2(write.err.contains("read-only replica") && write.err.contains("connect to the primary"),
                 write.err.constData());
        // An offline verification works there: the verdict is shown, nothing is stored.
        const QString sigCase = pbtest::sharedData(QStringLiteral("sigstore/cases/managed-key-happy-path"));
        if (QFileInfo::exists(sigCase + QStringLiteral("/bundle.sigstore.json"))) {
            const Run verified =
                onStandby({QStringLiteral("verify"), QStringLiteral("--bundle"),
                           sigCase + QStringLiteral("/bundle.sigstore.json"), QStringLiteral("--artifact"),
                           sigCase + QStringLiteral("/artifact"), QStringLiteral("--key"),
                           sigCase + QStringLiteral("/key.pub"), QStringLiteral("--trusted-root"),
                           sigCase + QStringLiteral("/trusted_root.json")});
            QVERIFY2(verified.code == 0, verified.err.constData());
            QVERIFY2(verified.err.contains("read-only replica: results are shown, nothing is stored"),
                     verified.err.constData());
        } else {
            qWarning(
                "../shared/data/sigstore/cases is absent: the standby's offline verification is not tried");
        }
        // What the primary commits shows up on the standby.
        const Run second = proofbench({QStringLiteral("catalog"), QStringLiteral("import"), sample,
                                       QStringLiteral("--version"), QStringLiteral("primary-2"),
                                       QStringLiteral("--db"), spec});
        QVERIFY2(second.code == 0, second.err.constData());
        QTRY_VERIFY_WITH_TIMEOUT(
            onStandby({QStringLiteral("catalog"), QStringLiteral("list")}).out.contains("primary-2"), 30000);
    }
};

QTEST_GUILESS_MAIN(TestTeam)
#include "tst_team.moc"
