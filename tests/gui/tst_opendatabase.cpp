// Issue 31: the window opens a team server whose password libpq cannot find by asking for it
// (models::openDatabase, the prompt main.cpp shows). Runs against the private PostgreSQL test
// server with PGPASSFILE taken away, so the only way in is the prompt.
#include "OpenDatabase.h"
#include "TestDb.h"
#include "db/Postgres.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

class TestOpenDatabase : public QObject {
    Q_OBJECT

    // pbtest's password, from the server's pgpass (host:port:db:user:password).
    static QString pbtestPassword() {
        QFile f(test::pgServerDir() + QStringLiteral("/pgpass"));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        for (const QByteArray& line : f.readAll().split('\n')) {
            const QList<QByteArray> parts = line.split(':');
            if (parts.size() == 5 && parts[3] == "pbtest")
                return QString::fromUtf8(parts[4]);
        }
        return {};
    }

  private slots:
    void asksOnceAndKeepsItInMemory() {
        if (!test::onPostgres())
            QSKIP("a PostgreSQL password: the SQLite half has none to ask for");
        QTemporaryDir tmp;
        PB_TEST_DATABASE(tdb, tmp.path(), QStringLiteral("unused"));
        const QString password = pbtestPassword();
        QVERIFY(!password.isEmpty());
        const QByteArray passFile = qgetenv("PGPASSFILE");
        qunsetenv("PGPASSFILE"); // libpq finds no password now: only the prompt can give it
        qputenv("PGPASSFILE", QByteArray("/nonexistent/pgpass"));
        // Without a prompt: a clear failure that says a password is wanted.
        auto plain = db::Database::open(tdb.spec());
        QVERIFY(!plain);
        QVERIFY2(models::needsPassword(plain.error()), qPrintable(plain.error().toString()));

        int asked = 0;
        QString shownWhere;
        auto db = models::openDatabase(tdb.spec(), [&](const QString& where, bool refused) -> std::optional<QString> {
            ++asked;
            shownWhere = where;
            return refused ? std::nullopt : std::optional<QString>(password);
        });
        QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
        QCOMPARE(asked, 1);
        QVERIFY2(shownWhere.contains(QStringLiteral("pbtest@127.0.0.1")), qPrintable(shownWhere));
        QVERIFY(!shownWhere.contains(password));
        // The workspace's worker connections open the same spec again: the password is remembered.
        auto sibling = (*db)->openSibling();
        QVERIFY2(sibling, sibling ? "" : qPrintable(sibling.error().toString()));
        QVERIFY(!(*db)->path().contains(password));
        QVERIFY(!(*db)->displayName().contains(password));
        qputenv("PGPASSFILE", passFile);
    }

    void wrongPasswordsAreAskedForAgainAndNeverShown() {
        if (!test::onPostgres())
            QSKIP("a PostgreSQL password: the SQLite half has none to ask for");
        QTemporaryDir tmp;
        PB_TEST_DATABASE(tdb, tmp.path(), QStringLiteral("unused"));
        const QByteArray passFile = qgetenv("PGPASSFILE");
        qputenv("PGPASSFILE", QByteArray("/nonexistent/pgpass"));
        // Another application_name: a spec of its own, with no password remembered for it yet.
        const QString spec = tdb.spec() + QStringLiteral("&application_name=pb-wrong-password");
        const QString wrong = QStringLiteral("wrong-%1").arg(QTest::currentTestFunction());
        QList<bool> refusals;
        auto db = models::openDatabase(spec, [&](const QString&, bool refused) -> std::optional<QString> {
            refusals << refused;
            return wrong;
        });
        QVERIFY(!db);
        QCOMPARE(refusals, (QList<bool>{false, true, true})); // three tries, then it gives up
        QVERIFY2(db.error().message.contains(QStringLiteral("password authentication failed")),
                 qPrintable(db.error().toString()));
        QVERIFY2(!db.error().toString().contains(wrong), qPrintable(db.error().toString()));
        QVERIFY2(db.error().toString().contains(QStringLiteral("127.0.0.1")), qPrintable(db.error().toString()));

        // Cancelling the prompt gives up at once.
        int asked = 0;
        auto cancelled = models::openDatabase(spec + QStringLiteral("-2"), [&](const QString&, bool) {
            ++asked;
            return std::optional<QString>();
        });
        QVERIFY(!cancelled);
        QCOMPARE(asked, 1);
        qputenv("PGPASSFILE", passFile);
    }

    void aFileNeedsNoPrompt() {
        QTemporaryDir tmp;
        int asked = 0;
        auto db = models::openDatabase(tmp.filePath(QStringLiteral("plain.sqlite")), [&](const QString&, bool) {
            ++asked;
            return std::optional<QString>();
        });
        QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
        QCOMPARE(asked, 0);
        QCOMPARE((*db)->engine(), db::Engine::SQLite);
    }
};

QTEST_GUILESS_MAIN(TestOpenDatabase)
#include "tst_opendatabase.moc"
