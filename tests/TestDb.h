// The database a test runs on (issue 31): the same test executable runs once per engine. CTest
// registers `<name>` (SQLite) and, for tests marked `ENGINES sqlite postgresql`, `<name>.postgresql`
// with PB_TEST_ENGINE=postgresql, PB_TEST_PG_DIR (what tools/pgtest-server.sh recorded: uri, pgpass,
// ca.crt) and PGPASSFILE set. On PostgreSQL each TestDatabase is a fresh database on the private
// test server, created and dropped through libpq.
#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QTest>

namespace pb::test {

// True when this process runs a test's PostgreSQL half (PB_TEST_ENGINE=postgresql).
bool onPostgres();
// "SQLite" or "PostgreSQL", for messages and test output.
QString engineLabel();

// The directory tools/pgtest-server.sh recorded the running server in (PB_TEST_PG_DIR), or empty.
QString pgServerDir();
// The URI of the server's maintenance database `postgres` as role pbtest (DIR/uri: TLS with
// verify-full against the run's CA, no password in it), or empty when no server is recorded.
QString pgServerUri();

// The test server's superuser (DIR/superuser; its password is in DIR/pgpass), or empty.
QString pgSuperuser();
// `spec` (a postgresql:// URI as TestDatabase gives) for another login user of the same server.
QString pgSpecAs(const QString& spec, const QString& user);

// In a PostgreSQL-engine process, sets PGPASSFILE to the server's pgpass (unless already set) so
// libpq, here and in CLI subprocesses started with the system environment, finds the password.
// Does nothing on SQLite. TestDatabase calls it; call it before building a QProcessEnvironment.
void exportPgPassFile();
// The same for an environment a test builds for a subprocess.
void addPgEnvironment(QProcessEnvironment& env);

// A fresh empty database for one test. On SQLite: the file path `dir/name` (not created). On
// PostgreSQL: a `postgresql://` URI (same query parameters as DIR/uri, no password) naming a
// database `pbt_<random>` that pbtest creates (and so owns) on the private server and drops, with
// (FORCE), on destruction. Either is what `--db` and db::Database::open take.
class TestDatabase {
  public:
    TestDatabase(const QString& dir, const QString& name);
    ~TestDatabase();
    TestDatabase(const TestDatabase&) = delete;
    TestDatabase& operator=(const TestDatabase&) = delete;

    bool ok() const { return m_error.isEmpty(); }
    // Why there is no database (server not recorded, not reachable, CREATE DATABASE failed).
    QString error() const { return m_error; }
    // True when !ok() because no server is recorded at all (the run has no PostgreSQL): a reason to
    // skip. Otherwise a recorded server that cannot be used is a failure, not a skip.
    bool serverMissing() const { return m_serverMissing; }
    // The file path or URI to open.
    QString spec() const { return m_spec; }
    // On PostgreSQL, the database's name (pbt_…); empty on SQLite.
    QString pgName() const { return m_pgName; }

  private:
    QString m_spec;
    QString m_pgName;
    QString m_serverUri;
    QString m_error;
    bool m_serverMissing = false;
};

} // namespace pb::test

// Declares `var`, a TestDatabase for this test; skips the test when the run has no PostgreSQL server
// and fails it when a recorded server cannot give a database.
#define PB_TEST_DATABASE(var, dir, name)                                                                     \
    pb::test::TestDatabase var((dir), (name));                                                               \
    if (!(var).ok()) {                                                                                       \
        if ((var).serverMissing())                                                                           \
            QSKIP(qPrintable((var).error()));                                                                \
        QFAIL(qPrintable((var).error()));                                                                    \
    } else                                                                                                   \
        (void)0
