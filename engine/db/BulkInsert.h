// Many rows into one table, inside the caller's transaction, the way each engine takes them fastest
// (issue 31): on SQLite one prepared INSERT run per row, which inside one transaction is SQLite's
// fast path; on PostgreSQL the rows stream with COPY (libpq's PQputCopyData on the driver's own
// connection; binary format when the columns' types allow, so bytea travels as its bytes): straight into the
// table when there is no conflict clause, otherwise into a temporary staging table from which one INSERT ...
// SELECT moves them, in the order they were added, through the same ON CONFLICT clause. A round trip per row
// over a network is what this avoids: 200k rows one by one take tens of seconds on a server, COPY a fraction
// of one (../shared/reference/postgresql-team-store.md).
//
// On SQLite each add() writes its row; on PostgreSQL rows are sent in chunks of a few MiB and the
// last of them (and, with a conflict clause, all of them) at finish(). Either way nothing is visible
// to others before the caller's transaction commits, and a failure leaves the transaction to be
// rolled back. Rows must not repeat a key the conflict clause
// updates on (PostgreSQL refuses to update one row twice in one statement; the error says so).
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <vector>

namespace pb::db {

class BulkInsert {
  public:
    // `conflict`: an ON CONFLICT clause (using `excluded.`), or empty. `columns` are plain names.
    BulkInsert(QSqlDatabase& db, const QString& table, const QStringList& columns,
               const QString& conflict = {});
    ~BulkInsert();
    BulkInsert(const BulkInsert&) = delete;
    BulkInsert& operator=(const BulkInsert&) = delete;

    // One row, its values in the order of `columns` (a null QVariant is SQL NULL; a QByteArray is a
    // BLOB / bytea). `what` names the row in an error (e.g. the file it came from).
    Status add(const QVariantList& row, const QString& what = {});
    // PostgreSQL: sends what is buffered and, with a conflict clause, moves the staged rows into the
    // table. SQLite: nothing left to do. Call once, after the last add() and before the transaction commits.
    Status finish();
    // Rows the table received (after finish() on PostgreSQL): with a DO NOTHING conflict clause,
    // rows skipped are not counted.
    qint64 written() const { return m_written; }

  private:
    Status startStage();
    Status flush();

    QSqlDatabase& m_db;
    QString m_table;
    QStringList m_columns;
    QString m_conflict;
    bool m_postgres = false;
    // SQLite
    QSqlQuery m_insert;
    bool m_prepared = false;
    // PostgreSQL
    QString m_stage;
    std::vector<quint32> m_types; // binary COPY when every column's type allows it (pg::columnTypes)
    QByteArray m_buffer;
    bool m_finished = false;
    qint64 m_pending = 0; // rows in m_buffer
    qint64 m_copied = 0;  // rows sent with COPY
    qint64 m_written = 0;
};

} // namespace pb::db
