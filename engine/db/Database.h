// The one SQLite database: QSQLITE, WAL, foreign keys on, schema version in PRAGMA user_version,
// numbered migrations from the resources (":/migrations/NNN_name.sql"). A Database owns one named
// connection; a worker thread opens its own with openSibling().
#pragma once

#include "core/Result.h"

#include <QSqlDatabase>
#include <QString>
#include <QVariant>

#include <memory>

namespace pb::db {

class Database {
  public:
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // Opens (creating if needed) and migrates the database at `path`.
    static Result<std::unique_ptr<Database>> open(const QString& path);
    // A second connection to the same file, for use on the calling thread.
    Result<std::unique_ptr<Database>> openSibling() const;

    // Where the GUI and CLI keep their database unless --db says otherwise.
    static QString defaultPath();
    static int latestSchemaVersion();

    QSqlDatabase& sql() { return m_db; }
    const QString& path() const { return m_path; }
    int schemaVersion() const;

  private:
    Database() = default;
    Status migrate();

    QString m_path;
    QString m_connection;
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
class Transaction {
  public:
    explicit Transaction(QSqlDatabase& db);
    explicit Transaction(Database& db) : Transaction(db.sql()) {}
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    bool started() const { return m_ok; }
    // True when this is a savepoint inside an outer transaction.
    bool nested() const { return !m_savepoint.isEmpty(); }
    bool commit();

  private:
    QSqlDatabase& m_db;
    QString m_savepoint;
    bool m_ok = false;
    bool m_done = false;
};

// True while the connection is inside a transaction (sqlite3_get_autocommit() is 0).
bool inTransaction(QSqlDatabase& db);

} // namespace pb::db
