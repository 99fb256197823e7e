// The private PostgreSQL test server (tools/pgtest-server.sh) as clients see it: reachable with QPSQL
// through the recorded URI, TLS verified against the run's CA and no other, scram-sha-256, no plain
// connections, and TestDatabase's per-test databases. A PostgreSQL-only test (it is about the server).
#include "TestDb.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <libpq-fe.h>

#include <memory>

Q_DECLARE_OPAQUE_POINTER(PGconn*)
Q_DECLARE_METATYPE(PGconn*)

namespace {

// QPSQL takes no URI: libpq's own parser turns it into keywords, which become the QSqlDatabase
// fields and connect options (reference §2.1). `overrides` replace or add keywords.
struct PgSettings {
    QString host, dbname, user;
    int port = -1;
    QStringList options;
};

PgSettings parseUri(const QString& uri, const QList<QPair<QString, QString>>& overrides = {}) {
    PgSettings s;
    char* err = nullptr;
    PQconninfoOption* opts = PQconninfoParse(uri.toUtf8().constData(), &err);
    if (!opts) {
        qWarning("PQconninfoParse: %s", err ? err : "out of memory");
        PQfreemem(err);
        return s;
    }
    QList<QPair<QString, QString>> pairs;
    for (PQconninfoOption* o = opts; o->keyword; ++o) {
        if (o->val && *o->val)
            pairs.append({QString::fromUtf8(o->keyword), QString::fromUtf8(o->val)});
    }
    PQconninfoFree(opts);
    for (const auto& [key, value] : overrides) {
        auto it = std::find_if(pairs.begin(), pairs.end(), [&](const auto& p) { return p.first == key; });
        if (it != pairs.end())
            it->second = value;
        else
            pairs.append({key, value});
    }
    for (const auto& [key, value] : pairs) {
        if (key == QLatin1String("host"))
            s.host = value;
        else if (key == QLatin1String("port"))
            s.port = value.toInt();
        else if (key == QLatin1String("dbname"))
            s.dbname = value;
        else if (key == QLatin1String("user"))
            s.user = value;
        else
            s.options << key + QLatin1Char('=') + value;
    }
    return s;
}

// One named QPSQL connection, removed when it goes out of scope.
class Connection {
  public:
    Connection(const PgSettings& s, const QString& password = {}) {
        static int counter = 0;
        m_name = QStringLiteral("tst_pgserver_%1").arg(++counter);
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_name);
        db.setHostName(s.host);
        db.setPort(s.port);
        db.setDatabaseName(s.dbname);
        db.setUserName(s.user);
        if (!password.isEmpty())
            db.setPassword(password);
        db.setConnectOptions(s.options.join(QLatin1Char(';')));
        m_ok = db.open();
        m_error = db.lastError();
    }
    ~Connection() {
        {
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_name);
    }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    bool ok() const { return m_ok; }
    QSqlError error() const { return m_error; }
    QString errorText() const { return m_error.text(); }
    QSqlDatabase db() const { return QSqlDatabase::database(m_name, false); }
    QVariant value(const QString& sql) const {
        QSqlQuery q(db());
        if (!q.exec(sql) || !q.next()) {
            qWarning("%s: %s", qPrintable(sql), qPrintable(q.lastError().text()));
            return {};
        }
        return q.value(0);
    }
    PGconn* handle() const {
        const QVariant h = db().driver()->handle();
        return h.canConvert<PGconn*>() ? qvariant_cast<PGconn*>(h) : nullptr;
    }

  private:
    QString m_name;
    bool m_ok = false;
    QSqlError m_error;
};

} // namespace

class TestPgServer : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void connectsOverVerifiedTls_data();
    void connectsOverVerifiedTls();
    void serverSettings();
    void otherCaIsRefused();
    void plainConnectionIsRefused();
    void wrongPasswordIsRefused();
    void passwordFileIsPrivate();
    void exportsPasswordFile();
    void testDatabaseIsCreatedAndDropped();

  private:
    QString m_uri;
    QString m_dir;
};

void TestPgServer::initTestCase() {
    if (!pb::test::onPostgres())
        QSKIP("PostgreSQL-only test (the private test server itself): run as tst_pgserver.postgresql, "
              "or with PB_TEST_ENGINE=postgresql");
    m_dir = pb::test::pgServerDir();
    m_uri = pb::test::pgServerUri();
    if (m_uri.isEmpty())
        QSKIP(qPrintable(QStringLiteral("no PostgreSQL test server recorded in %1 "
                                        "(tools/pgtest-server.sh start %1)")
                             .arg(m_dir)));
    pb::test::exportPgPassFile();
    QVERIFY(QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL")));
    QVERIFY2(m_uri.contains(QLatin1String("sslmode=verify-full")), qPrintable(m_uri));
}

void TestPgServer::connectsOverVerifiedTls_data() {
    QTest::addColumn<QString>("host");
    // The server certificate names both (SAN DNS:localhost, IP:127.0.0.1); verify-full checks it.
    QTest::newRow("127.0.0.1") << QStringLiteral("127.0.0.1");
    QTest::newRow("localhost") << QStringLiteral("localhost");
}

void TestPgServer::connectsOverVerifiedTls() {
    QFETCH(QString, host);
    Connection c(parseUri(m_uri, {{QStringLiteral("host"), host}}));
    QVERIFY2(c.ok(), qPrintable(c.errorText()));
    QCOMPARE(c.value(QStringLiteral("SELECT current_user")).toString(), QStringLiteral("pbtest"));
    QCOMPARE(c.value(QStringLiteral("SHOW ssl")).toString(), QStringLiteral("on"));
    QCOMPARE(c.value(QStringLiteral("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")).toBool(),
             true);
    PGconn* pg = c.handle();
    QVERIFY(pg);
    QCOMPARE(PQsslInUse(pg), 1);
    const QString protocol = QString::fromUtf8(PQsslAttribute(pg, "protocol"));
    QVERIFY2(protocol.startsWith(QLatin1String("TLSv1.")), qPrintable(protocol));
    QCOMPARE(PQserverVersion(pg) / 10000, 15);
}

void TestPgServer::serverSettings() {
    Connection c(parseUri(m_uri));
    QVERIFY2(c.ok(), qPrintable(c.errorText()));
    QCOMPARE(c.value(QStringLiteral("SHOW password_encryption")).toString(), QStringLiteral("scram-sha-256"));
    QCOMPARE(c.value(QStringLiteral("SHOW listen_addresses")).toString(), QStringLiteral("127.0.0.1"));
    // A throwaway cluster, but commits stay synchronous (a standby must see them at once).
    QCOMPARE(c.value(QStringLiteral("SHOW fsync")).toString(), QStringLiteral("off"));
    QCOMPARE(c.value(QStringLiteral("SHOW synchronous_commit")).toString(), QStringLiteral("on"));
    QCOMPARE(c.value(QStringLiteral("SELECT rolcreatedb AND NOT rolsuper FROM pg_roles WHERE rolname = "
                                    "current_user"))
                 .toBool(),
             true);

    // The stored verifiers are SCRAM (only a superuser may read pg_authid; its password is in pgpass).
    QFile superuser(QDir(m_dir).filePath(QStringLiteral("superuser")));
    QVERIFY(superuser.open(QIODevice::ReadOnly));
    Connection admin(
        parseUri(m_uri, {{QStringLiteral("user"), QString::fromUtf8(superuser.readAll()).trimmed()}}));
    QVERIFY2(admin.ok(), qPrintable(admin.errorText()));
    QCOMPARE(admin
                 .value(QStringLiteral("SELECT count(*) FROM pg_authid WHERE rolcanlogin AND "
                                       "rolpassword NOT LIKE 'SCRAM-SHA-256$%'"))
                 .toInt(),
             0);
}

void TestPgServer::otherCaIsRefused() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString ca = tmp.filePath(QStringLiteral("other-ca.crt"));
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"),
                  {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                   QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                   QStringLiteral("ec_paramgen_curve:P-256"), QStringLiteral("-nodes"),
                   QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-subj"),
                   QStringLiteral("/CN=not the test CA"), QStringLiteral("-keyout"),
                   tmp.filePath(QStringLiteral("other-ca.key")), QStringLiteral("-out"), ca});
    if (!openssl.waitForStarted())
        QSKIP("openssl not installed: cannot make a second CA");
    QVERIFY(openssl.waitForFinished(30000));
    QCOMPARE(openssl.exitCode(), 0);

    Connection c(parseUri(m_uri, {{QStringLiteral("sslrootcert"), ca}}));
    QVERIFY(!c.ok());
    QCOMPARE(c.error().type(), QSqlError::ConnectionError);
    QVERIFY2(c.errorText().contains(QLatin1String("certificate verify failed")), qPrintable(c.errorText()));
}

void TestPgServer::plainConnectionIsRefused() {
    // pg_hba has only `local` and `hostssl` lines: an unencrypted TCP connection finds no entry.
    Connection c(parseUri(m_uri, {{QStringLiteral("sslmode"), QStringLiteral("disable")}}));
    QVERIFY(!c.ok());
    QVERIFY2(c.errorText().contains(QLatin1String("no pg_hba.conf entry")), qPrintable(c.errorText()));
    QVERIFY2(c.errorText().contains(QLatin1String("no encryption")), qPrintable(c.errorText()));
}

void TestPgServer::wrongPasswordIsRefused() {
    const QString password =
        QStringLiteral("Wrong-%1").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    Connection c(parseUri(m_uri), password); // an explicit password wins over PGPASSFILE
    QVERIFY(!c.ok());
    const QString text = c.errorText();
    QVERIFY2(text.contains(QLatin1String("password authentication failed for user \"pbtest\"")),
             qPrintable(text));
    for (const QString& part : {text, c.error().driverText(), c.error().databaseText()})
        QVERIFY2(!part.contains(password), qPrintable(part));
}

void TestPgServer::passwordFileIsPrivate() {
    // libpq ignores a password file that group or others can read.
    const QFileInfo pgpass(QDir(m_dir).filePath(QStringLiteral("pgpass")));
    QVERIFY(pgpass.exists());
    const auto others = QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther |
                        QFile::WriteOther | QFile::ExeOther;
    QCOMPARE(pgpass.permissions() & others, QFile::Permissions());
    QVERIFY(!m_uri.contains(QLatin1String("password")));
}

void TestPgServer::exportsPasswordFile() {
    const QByteArray saved = qgetenv("PGPASSFILE");
    qunsetenv("PGPASSFILE");
    pb::test::exportPgPassFile();
    const QString exported = qEnvironmentVariable("PGPASSFILE");
    QProcessEnvironment env;
    pb::test::addPgEnvironment(env);
    qputenv("PGPASSFILE", saved);
    QCOMPARE(exported, QDir(m_dir).filePath(QStringLiteral("pgpass")));
    QCOMPARE(env.value(QStringLiteral("PGPASSFILE")), exported);
    QCOMPARE(env.value(QStringLiteral("PB_TEST_ENGINE")), QStringLiteral("postgresql"));
}

void TestPgServer::testDatabaseIsCreatedAndDropped() {
    Connection admin(parseUri(m_uri));
    QVERIFY2(admin.ok(), qPrintable(admin.errorText()));
    const auto owner = [&](const QString& name) {
        QSqlQuery q(admin.db());
        q.prepare(QStringLiteral("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = ?"));
        q.addBindValue(name);
        return q.exec() && q.next() ? q.value(0).toString() : QString();
    };

    QString name;
    std::unique_ptr<Connection> stillOpen;
    {
        PB_TEST_DATABASE(tdb, QDir::tempPath(), QStringLiteral("ignored.sqlite"));
        name = tdb.pgName();
        QVERIFY2(name.startsWith(QLatin1String("pbt_")), qPrintable(name));
        const QString spec = tdb.spec();
        QVERIFY2(spec.startsWith(QLatin1String("postgresql://pbtest@127.0.0.1:")), qPrintable(spec));
        QVERIFY2(spec.contains(QLatin1Char('/') + name + QLatin1Char('?')), qPrintable(spec));
        QVERIFY2(spec.contains(QLatin1String("sslmode=verify-full&sslrootcert=")), qPrintable(spec));
        QCOMPARE(owner(name), QStringLiteral("pbtest"));

        PB_TEST_DATABASE(second, QDir::tempPath(), QStringLiteral("ignored.sqlite"));
        QVERIFY(second.pgName() != name);

        // Usable through its spec, and still connected when dropped (DROP ... WITH (FORCE)).
        stillOpen = std::make_unique<Connection>(parseUri(spec));
        const Connection& c = *stillOpen;
        QVERIFY2(c.ok(), qPrintable(c.errorText()));
        QCOMPARE(c.value(QStringLiteral("SELECT current_database()")).toString(), name);
        QSqlQuery q(c.db());
        QVERIFY2(q.exec(QStringLiteral("CREATE TABLE t (id bigint PRIMARY KEY)")),
                 qPrintable(q.lastError().text()));
        QCOMPARE(c.value(QStringLiteral("SELECT count(*) FROM pg_tables WHERE tablename = 't'")).toInt(), 1);
    }
    QCOMPARE(owner(name), QString());
    QSqlQuery q(stillOpen->db());
    QVERIFY(!q.exec(QStringLiteral("SELECT 1"))); // its session was ended by the drop
}

QTEST_GUILESS_MAIN(TestPgServer)
#include "tst_pgserver.moc"
