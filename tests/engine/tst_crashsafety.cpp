// Issue #10: kill -9 at random points of a catalog import, an evidence import and a validation run
// (a child process, tests/engine/crashchild.cpp, doing the real write through the engine) must leave
// a database that passes PRAGMA integrity_check, with every import all-or-nothing, a run either absent
// or present with all its checks, and the receipts chain intact. The kill points are uniform over the
// time an uninterrupted write takes; PB_CRASH_POINTS (default 50) and PB_CRASH_SEED reproduce a run.
// Issue 31: on PostgreSQL the killed client's session ends on the server, which rolls back its open
// transaction; each point waits for that session to be gone, then finds nothing half-written. There
// the points default to 20 a kind: what a kill can leave is decided by the server (the transaction
// committed or not), not by where a file's pages stood, so fewer moments cover it, and each point
// costs a migration on the server besides.
#include "DbTestUtil.h"
#include "KubeTestServer.h"
#include "TestUtil.h"

#include "../gui/EvidenceFixture.h"

#include "db/Database.h"
#include "receipts/Ledger.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace pb;

namespace {

struct ChildRun {
    bool completed = false; // exited 0 and said "done"
    bool killed = false;
    qint64 elapsedMs = 0;
    QByteArray err;
};

// Runs the child; kills it with SIGKILL after `killAfterMs` (< 0: never).
ChildRun runChild(const QStringList& args, int killAfterMs) {
    ChildRun r;
    QProcess p;
    QElapsedTimer t;
    t.start();
    p.start(QStringLiteral(PB_CRASH_CHILD), args);
    if (!p.waitForStarted(10000))
        qFatal("cannot start the crash child");
    if (killAfterMs >= 0 && !p.waitForFinished(killAfterMs)) {
        p.kill(); // SIGKILL
        r.killed = true;
    }
    p.waitForFinished(120000);
    r.elapsedMs = t.elapsed();
    r.err = p.readAllStandardError();
    r.completed = !r.killed && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 &&
                  p.readAllStandardOutput().contains("done");
    return r;
}

qint64 scalar(db::Database& db, const QString& sql) {
    QSqlQuery q(db.sql());
    if (!q.exec(sql) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

// On PostgreSQL: waits until no other session is connected to the test database, i.e. the server
// has seen the killed child's connection close and ended its session (rolling back whatever
// transaction it had open). What is read afterwards is final. False after 20 s.
bool waitForChildSessionToEnd(const QString& spec) {
    if (!db::pg::isServerSpec(spec))
        return true;
    pbtest::RawConnection c(spec);
    QSqlQuery q(c.sql());
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 20000) {
        if (q.exec(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                  "AND pid <> pg_backend_pid()")) &&
            q.next() && q.value(0).toLongLong() == 0)
            return true;
        QThread::msleep(5);
    }
    return false;
}

// The database of kill point `point`: on SQLite a new file each time. On PostgreSQL the one test
// database of the kind, its store dropped first (schema proofbench and everything in it), so the
// child migrates it again as it would a new database: much cheaper than a CREATE DATABASE a point.
QString pointDatabase(const pb::test::TestDatabase& scratch, const QString& dir, const QString& prefix,
                      int point) {
    if (!pb::test::onPostgres())
        return QDir(dir).filePath(QStringLiteral("%1%2.sqlite").arg(prefix).arg(point));
    pbtest::RawConnection c(scratch.spec());
    QSqlQuery q(c.sql());
    if (!q.exec(QStringLiteral("DROP SCHEMA IF EXISTS proofbench CASCADE")))
        qFatal("point %d: cannot empty the test database: %s", point, qPrintable(q.lastError().text()));
    return scratch.spec();
}

// What every kill point must leave: an intact file and an intact receipts chain. A database the
// child never got to create (on PostgreSQL: never got to migrate) is fine too.
void checkCommon(const QString& spec, int point) {
    QVERIFY2(waitForChildSessionToEnd(spec),
             qPrintable(QStringLiteral("point %1: the killed child's session did not end").arg(point)));
    if (!pbtest::storeExists(spec))
        return;
    Result<std::unique_ptr<db::Database>> db = db::Database::open(spec);
    QVERIFY2(db.ok(),
             qPrintable(
                 QStringLiteral("point %1: %2").arg(point).arg(db.ok() ? QString() : db.error().toString())));
    if (!pbtest::isPostgres(**db)) { // a server keeps no file of ours to check
        QSqlQuery q((*db)->sql());
        QVERIFY(q.exec(QStringLiteral("PRAGMA integrity_check")) && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
    }
    Result<receipts::ChainCheck> chain = receipts::Ledger(**db).verify();
    QVERIFY(chain.ok());
    QVERIFY2(chain->ok, qPrintable(QStringLiteral("point %1: receipts chain broken").arg(point)));
}

} // namespace

class TestCrashSafety : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void catalogImport();
    void evidenceImport();
    void validationRun();

  private:
    int m_points = 50;
    quint32 m_seed = 0;
    QRandomGenerator m_random;
};

void TestCrashSafety::initTestCase() {
    m_points = qEnvironmentVariableIsSet("PB_CRASH_POINTS") ? qEnvironmentVariableIntValue("PB_CRASH_POINTS")
               : pb::test::onPostgres()                     ? 20
                                                            : 50;
    m_seed = qEnvironmentVariableIsSet("PB_CRASH_SEED")
                 ? quint32(qEnvironmentVariableIntValue("PB_CRASH_SEED"))
                 : QRandomGenerator::system()->generate();
    m_random.seed(m_seed);
    qInfo("kill points per kind: %d, seed: %u (PB_CRASH_SEED reproduces them)", m_points, m_seed);
}

void TestCrashSafety::catalogImport() {
    QTemporaryDir dir;
    const QString catalog = pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
    // The uninterrupted import: how long it takes and what a complete import holds.
    PB_TEST_DATABASE(full, dir.path(), QStringLiteral("full.sqlite"));
    // On PostgreSQL, the one database the kill points reuse (pointDatabase).
    PB_TEST_DATABASE(points, dir.path(), QStringLiteral("points.sqlite"));
    const ChildRun whole =
        runChild({QStringLiteral("catalog"), full.spec(), QStringLiteral("sample-2"), catalog}, -1);
    QVERIFY2(whole.completed, whole.err.constData());
    qint64 recipes = 0, files = 0;
    {
        Result<std::unique_ptr<db::Database>> db = db::Database::open(full.spec());
        QVERIFY(db.ok());
        recipes = scalar(**db, QStringLiteral("SELECT count(*) FROM recipes"));
        files = scalar(**db, QStringLiteral("SELECT count(*) FROM catalog_files"));
    }
    QVERIFY(recipes > 10 && files > 10);
    int interrupted = 0, completed = 0;
    for (int i = 0; i < m_points; ++i) {
        const QString path = pointDatabase(points, dir.path(), QStringLiteral("c"), i);
        const int at = int(m_random.bounded(qint64(whole.elapsedMs * 11 / 10 + 1)));
        const ChildRun r =
            runChild({QStringLiteral("catalog"), path, QStringLiteral("sample-2"), catalog}, at);
        (r.completed ? completed : interrupted)++;
        checkCommon(path, i);
        if (QTest::currentTestFailed())
            return;
        if (!pbtest::storeExists(path))
            continue;
        Result<std::unique_ptr<db::Database>> db = db::Database::open(path);
        QVERIFY(db.ok());
        const qint64 versions = scalar(**db, QStringLiteral("SELECT count(*) FROM catalog_versions"));
        QVERIFY(versions == 0 || versions == 1);
        // All or nothing: a version is there with every recipe and file, or not at all.
        QCOMPARE(scalar(**db, QStringLiteral("SELECT count(*) FROM recipes")), versions ? recipes : 0);
        QCOMPARE(scalar(**db, QStringLiteral("SELECT count(*) FROM catalog_files")), versions ? files : 0);
        QCOMPARE(scalar(**db, QStringLiteral("SELECT count(*) FROM receipts WHERE kind = 'catalog.import'")),
                 versions);
    }
    qInfo("catalog import: %d killed, %d completed before the kill (uninterrupted %lld ms)", interrupted,
          completed, whole.elapsedMs);
    QVERIFY(interrupted > 0);
}

void TestCrashSafety::evidenceImport() {
    QTemporaryDir dir;
    const QString tree = dir.filePath(QStringLiteral("evidence"));
    QVERIFY(pbgui::EvidenceFixture::writeTree(tree));
    PB_TEST_DATABASE(full, dir.path(), QStringLiteral("full.sqlite"));
    // On PostgreSQL, the one database the kill points reuse (pointDatabase).
    PB_TEST_DATABASE(points, dir.path(), QStringLiteral("points.sqlite"));
    const ChildRun whole = runChild({QStringLiteral("evidence"), full.spec(), tree}, -1);
    QVERIFY2(whole.completed, whole.err.constData());
    qint64 pointers = 0;
    {
        Result<std::unique_ptr<db::Database>> db = db::Database::open(full.spec());
        QVERIFY(db.ok());
        pointers = scalar(**db, QStringLiteral("SELECT count(*) FROM evidence_pointers"));
    }
    QVERIFY(pointers >= 3);
    int interrupted = 0;
    for (int i = 0; i < m_points; ++i) {
        const QString path = pointDatabase(points, dir.path(), QStringLiteral("e"), i);
        const int at = int(m_random.bounded(qint64(whole.elapsedMs * 11 / 10 + 1)));
        const ChildRun r = runChild({QStringLiteral("evidence"), path, tree}, at);
        interrupted += r.completed ? 0 : 1;
        checkCommon(path, i);
        if (QTest::currentTestFailed())
            return;
        if (!pbtest::storeExists(path))
            continue;
        Result<std::unique_ptr<db::Database>> db = db::Database::open(path);
        QVERIFY(db.ok());
        const qint64 n = scalar(**db, QStringLiteral("SELECT count(*) FROM evidence_pointers"));
        QVERIFY2(n == 0 || n == pointers,
                 qPrintable(QStringLiteral("point %1: %2 of %3 pointers").arg(i).arg(n).arg(pointers)));
        QCOMPARE(scalar(**db, QStringLiteral("SELECT count(*) FROM receipts WHERE kind = 'evidence.import'")),
                 n ? 1 : 0);
    }
    QVERIFY(interrupted > 0);
}

void TestCrashSafety::validationRun() {
    pbtest::KubeTestServer server;
    const QJsonObject check{
        {QStringLiteral("exitCode"), 0},
        {QStringLiteral("runMs"), 40},
        {QStringLiteral("pendingMs"), 10},
        {QStringLiteral("logFile"), pbtest::fixture(QStringLiteral("validation/nccl-pass.txt"))}};
    QVERIFY(
        server.start({{QStringLiteral("checks"), QJsonObject{{QStringLiteral("nccl-all-reduce-bw"), check}}},
                      {QStringLiteral("defaultCheck"),
                       QJsonObject{{QStringLiteral("exitCode"), 0},
                                   {QStringLiteral("runMs"), 20},
                                   {QStringLiteral("log"), QStringLiteral("RESULT: ok\n")}}},
                      {QStringLiteral("serverVersion"),
                       QJsonObject{{QStringLiteral("gitVersion"), QStringLiteral("v1.34.1")}}}}));
    QTemporaryDir dir;
    const QString catalog = pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
    PB_TEST_DATABASE(full, dir.path(), QStringLiteral("full.sqlite"));
    // On PostgreSQL, the one database the kill points reuse (pointDatabase).
    PB_TEST_DATABASE(points, dir.path(), QStringLiteral("points.sqlite"));
    const ChildRun whole = runChild({QStringLiteral("run"), full.spec(), server.kubeconfig(), catalog}, -1);
    QVERIFY2(whole.completed, whole.err.constData());
    qint64 checks = 0;
    {
        Result<std::unique_ptr<db::Database>> db = db::Database::open(full.spec());
        QVERIFY(db.ok());
        checks = scalar(**db, QStringLiteral("SELECT count(*) FROM run_checks"));
        QCOMPARE(scalar(**db, QStringLiteral("SELECT count(*) FROM runs WHERE state = 'passed'")), qint64(1));
    }
    QVERIFY(checks > 3);
    int interrupted = 0, partial = 0;
    for (int i = 0; i < m_points; ++i) {
        const QString path = pointDatabase(points, dir.path(), QStringLiteral("r"), i);
        const int at = int(m_random.bounded(qint64(whole.elapsedMs * 11 / 10 + 1)));
        const ChildRun r = runChild({QStringLiteral("run"), path, server.kubeconfig(), catalog}, at);
        interrupted += r.completed ? 0 : 1;
        checkCommon(path, i);
        if (QTest::currentTestFailed())
            return;
        if (!pbtest::storeExists(path))
            continue;
        Result<std::unique_ptr<db::Database>> db = db::Database::open(path);
        QVERIFY(db.ok());
        const qint64 runs = scalar(**db, QStringLiteral("SELECT count(*) FROM runs"));
        QVERIFY(runs == 0 || runs == 1);
        // A run row comes with its whole plan; a run cut short stays "running", with the checks that
        // finished kept as they were saved.
        QCOMPARE(scalar(**db, QStringLiteral("SELECT count(*) FROM run_checks")), runs ? checks : 0);
        const qint64 finishedRuns =
            scalar(**db, QStringLiteral("SELECT count(*) FROM runs WHERE state <> 'running'"));
        QCOMPARE(scalar(**db, QStringLiteral("SELECT count(*) FROM receipts WHERE kind LIKE 'validation.%'")),
                 finishedRuns);
        if (runs && !finishedRuns)
            ++partial;
    }
    qInfo("validation run: %d killed, %d left as partial runs", interrupted, partial);
    QVERIFY(interrupted > 0);
}

QTEST_GUILESS_MAIN(TestCrashSafety)
#include "tst_crashsafety.moc"
