// The one database, on either engine: a SQLite file (QSQLITE, WAL, foreign keys on, schema version
// in PRAGMA user_version; the embedded default) or a PostgreSQL server (QPSQL over libpq, tables in
// schema `proofbench`, schema version in its table schema_version, session time zone UTC). Numbered
// migrations per engine come from the resources (":/migrations/<sqlite|postgresql>/NNN_name.sql");
// both produce the same logical schema (tests/engine/tst_schemaparity). A Database owns one named
// connection; a worker thread opens its own with openSibling().
#pragma once

#include "core/Result.h"
#include "db/Dialect.h"
#include "db/Team.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QString>
#include <QVariant>

#include <functional>
#include <memory>

namespace pb::db {

class Database {
  public:
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // Opens and migrates the database `spec` names: a file path (SQLite, created if needed), or a
    // PostgreSQL server as a postgresql:// URI or libpq keyword=value text (`service=NAME`), whose
    // database must exist. Passwords come from libpq's own sources (~/.pgpass, PGPASSFILE,
    // PGPASSWORD, a service file) or pg::rememberPassword(); no error text carries one.
    static Result<std::unique_ptr<Database>> open(const QString& spec);
    // Connects to the PostgreSQL server `spec` names as open() does, without creating or migrating
    // the schema (schemaVersion() may then be 0 or older): what a connection test does.
    static Result<std::unique_ptr<Database>> connectOnly(const QString& spec);
    // A second connection to the same database, for use on the calling thread.
    Result<std::unique_ptr<Database>> openSibling() const;

    // Where the GUI and CLI keep their database unless --db says otherwise.
    static QString defaultPath();
    static int latestSchemaVersion(Engine engine = Engine::SQLite);

    QSqlDatabase& sql() { return m_db; }
    // The spec it was opened with (a file's absolute path; for a server, never with a password):
    // what sibling connections open.
    const QString& path() const { return m_path; }
    // For people: the file path, or "PostgreSQL user@host:port/dbname".
    QString displayName() const;
    // The same for a spec that is not open (a path, or a server spec shown without its password).
    static QString describe(const QString& spec);
    // A short name for the database: the file's name, or the server database's name.
    static QString shortName(const QString& spec);
    Engine engine() const { return m_engine; }
    int schemaVersion() const;
    // On PostgreSQL the session's login user as the server knows it (session_user), read once at
    // connect; empty for a SQLite file.
    const QString& sessionUser() const { return m_sessionUser; }
    // Who this connection is and its team role (db/Team.h), read at connect; Local for SQLite.
    const Access& access() const { return m_access; }
    // Which client of this process works through this connection (a window's Workspace tags its jobs'
    // connections; 0: none): receipts it appends are remembered as that client's own
    // (receipts::isOwnReceipt), so the client's live view does not count them as another's.
    void setOrigin(quint64 origin) { m_origin = origin; }
    quint64 origin() const { return m_origin; }

  private:
    Database() = default;
    static Result<std::unique_ptr<Database>> openSqlite(const QString& path);
    static Result<std::unique_ptr<Database>> openPostgres(const QString& spec, bool migrateSchema = true);
    Status migrate();
    Status migratePostgres();

    Engine m_engine = Engine::SQLite;
    QString m_display;
    QString m_path;
    QString m_connection;
    QString m_sessionUser;
    Access m_access;
    quint64 m_origin = 0;
    QSqlDatabase m_db;
};

// "table.column: driver text" for a failed query.
Error sqlError(const class QSqlQuery& q, const QString& what);

// A bound value that is SQL NULL for an empty string.
QVariant nullable(const QString& s);

// A transaction rolled back unless committed: an early return leaves the database as it was.
// Transactions nest: one opened while the connection is already inside a transaction becomes a
// SAVEPOINT, so a store write can run alone or as one part of an operation's larger transaction
// (the operation's receipt is written in that outer transaction: both commit or neither does).
//
// A transaction that will write (the default) waits its turn for the database's write lock when it
// begins, so that two writers never both read and then fail to write: on SQLite `BEGIN IMMEDIATE`
// (waiting up to the busy timeout; a deferred BEGIN upgraded to a write gets SQLITE_BUSY at once
// when another process committed meanwhile), on PostgreSQL the ledger's advisory lock, which every
// Proofbench writer takes first, so receipts are appended one transaction at a time (one chain, no
// fork, no gap) and writers never deadlock on each other. A Read transaction takes no write lock: it
// only gives its statements one consistent view. On PostgreSQL a write transaction also sends
// NOTIFY proofbench_changes as it commits (delivered only if it commits): live views of other
// clients listen for it (a SQLite file's views watch PRAGMA data_version instead).
class Transaction {
  public:
    enum class Mode { Write, Read };
    explicit Transaction(QSqlDatabase& db, Mode mode = Mode::Write);
    explicit Transaction(Database& db, Mode mode = Mode::Write) : Transaction(db.sql(), mode) {}
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    bool started() const { return m_ok; }
    // True when this is a savepoint inside an outer transaction.
    bool nested() const { return !m_savepoint.isEmpty(); }
    bool commit();
    // Why it did not start (the driver's text, or the writers' lock's error).
    QString errorText() const;

  private:
    QSqlDatabase& m_db;
    Mode m_mode = Mode::Write;
    QSqlError m_error;
    QString m_lockError;
    QString m_savepoint;
    bool m_ok = false;
    bool m_done = false;
};

// True while the connection is inside a transaction (SQLite: sqlite3_get_autocommit() is 0;
// PostgreSQL: the transaction status is not idle, a failed transaction included).
bool inTransaction(QSqlDatabase& db);

// Told (on the waiting thread) when a write has to wait for another client's: `what` names the wait
// ("waiting for another client's write to … to finish (user bob, server process 4711, writing for
// 3 s)"). The CLI prints it on stderr, the window shows it in its status bar. One for the process.
using WaitObserver = std::function<void(const QString& what)>;
void setWaitObserver(WaitObserver observer);

// On PostgreSQL, takes the writers' lock (a transaction-scoped advisory lock, released at COMMIT or
// ROLLBACK; taking it again in the same transaction is free). Transaction(Write) calls it; the
// ledger calls it again before it reads the chain head, for a caller that began its transaction some
// other way. Does nothing on SQLite (BEGIN IMMEDIATE already holds the file's write lock).
Status lockWriters(QSqlDatabase& db);

} // namespace pb::db
