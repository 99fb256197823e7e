#include "TestDb.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QUrl>

#include <libpq-fe.h>

#include <memory>

namespace pb::test {

namespace {

QString envString(const char* name) {
    return QString::fromLocal8Bit(qgetenv(name));
}

QString uriFile(const QString& dir) {
    return QDir(dir).filePath(QStringLiteral("uri"));
}

struct PgConnCloser {
    void operator()(PGconn* c) const { PQfinish(c); }
};
using PgConn = std::unique_ptr<PGconn, PgConnCloser>;

QString pgMessage(const PGconn* c) {
    return QString::fromUtf8(PQerrorMessage(c)).trimmed();
}

// A connection to the server's maintenance database, or the reason there is none. The URI names no
// password: libpq reads it from PGPASSFILE.
PgConn connectMaintenance(const QString& uri, QString* error) {
    const QByteArray dbname = uri.toUtf8();
    const char* keys[] = {"dbname", "connect_timeout", "application_name", nullptr};
    const char* values[] = {dbname.constData(), "15", "proofbench-tests", nullptr};
    PgConn c(PQconnectdbParams(keys, values, /*expand_dbname=*/1));
    if (!c || PQstatus(c.get()) != CONNECTION_OK) {
        *error = QStringLiteral("cannot connect to the PostgreSQL test server (%1): %2")
                     .arg(uri, c ? pgMessage(c.get()) : QStringLiteral("out of memory"));
        return nullptr;
    }
    return c;
}

// Runs one statement; empty on success, else the server's message.
QString exec(PGconn* c, const QByteArray& sql) {
    PGresult* r = PQexec(c, sql.constData());
    QString error;
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        error = QString::fromUtf8(PQresultErrorMessage(r)).trimmed();
    PQclear(r);
    return error;
}

} // namespace

bool onPostgres() {
    return qgetenv("PB_TEST_ENGINE") == "postgresql";
}

QString engineLabel() {
    return onPostgres() ? QStringLiteral("PostgreSQL") : QStringLiteral("SQLite");
}

QString pgServerDir() {
    const QString dir = envString("PB_TEST_PG_DIR");
#ifdef PB_PGTEST_DIR
    // Run by hand (not through ctest): the build tree's server, if one is running.
    if (dir.isEmpty())
        return QStringLiteral(PB_PGTEST_DIR);
#endif
    return dir;
}

QString pgServerUri() {
    const QString dir = pgServerDir();
    if (dir.isEmpty())
        return {};
    QFile f(uriFile(dir));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).trimmed();
}

QString pgSuperuser() {
    const QString dir = pgServerDir();
    if (dir.isEmpty())
        return {};
    QFile f(QDir(dir).filePath(QStringLiteral("superuser")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).trimmed();
}

QString pgSpecAs(const QString& spec, const QString& user) {
    QUrl url(spec);
    url.setUserName(user);
    return url.toString(QUrl::FullyEncoded);
}

void exportPgPassFile() {
    if (!onPostgres() || qEnvironmentVariableIsSet("PGPASSFILE"))
        return;
    const QString dir = pgServerDir();
    if (!dir.isEmpty())
        qputenv("PGPASSFILE", QDir(dir).filePath(QStringLiteral("pgpass")).toLocal8Bit());
}

void addPgEnvironment(QProcessEnvironment& env) {
    if (!onPostgres())
        return;
    exportPgPassFile();
    for (const char* name : {"PGPASSFILE", "PB_TEST_ENGINE", "PB_TEST_PG_DIR"}) {
        if (qEnvironmentVariableIsSet(name))
            env.insert(QString::fromLatin1(name), envString(name));
    }
}

TestDatabase::TestDatabase(const QString& dir, const QString& name) {
    if (!onPostgres()) {
        m_spec = QDir(dir).filePath(name);
        return;
    }
    const QString serverDir = pgServerDir();
    const QString uri = pgServerUri();
    if (uri.isEmpty()) {
        m_serverMissing = true;
        m_error = serverDir.isEmpty()
                      ? QStringLiteral("no PostgreSQL test server: PB_TEST_PG_DIR is not set (run the "
                                       "test through ctest, or tools/pgtest-server.sh start DIR)")
                      : QStringLiteral("no PostgreSQL test server recorded in %1 (start one with "
                                       "tools/pgtest-server.sh start %1, or run the test through ctest)")
                            .arg(serverDir);
        return;
    }
    exportPgPassFile();
    PgConn c = connectMaintenance(uri, &m_error);
    if (!c)
        return;
    const QString dbName =
        QStringLiteral("pbt_%1").arg(QRandomGenerator::system()->generate64(), 16, 16, QLatin1Char('0'));
    // FILE_COPY copies template1's files instead of writing them all to WAL (PostgreSQL 15's default,
    // WAL_LOG): measured here ~150 ms instead of ~280 ms; its checkpoints cost little with fsync off.
    if (const QString err = exec(c.get(), "CREATE DATABASE " + dbName.toLatin1() + " STRATEGY FILE_COPY");
        !err.isEmpty()) {
        m_error = QStringLiteral("CREATE DATABASE %1 on the PostgreSQL test server: %2").arg(dbName, err);
        return;
    }
    QUrl url(uri);
    url.setPath(QLatin1Char('/') + dbName);
    m_spec = url.toString(QUrl::FullyEncoded);
    m_pgName = dbName;
    m_serverUri = uri;
}

TestDatabase::~TestDatabase() {
    if (m_pgName.isEmpty())
        return;
    QString error;
    PgConn c = connectMaintenance(m_serverUri, &error);
    if (c)
        error = exec(c.get(), "DROP DATABASE IF EXISTS " + m_pgName.toLatin1() + " WITH (FORCE)");
    if (!error.isEmpty())
        qWarning("TestDatabase: could not drop %s: %s", qPrintable(m_pgName), qPrintable(error));
}

} // namespace pb::test
