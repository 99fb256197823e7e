// Where the two database engines differ in SQL text. Stores write portable SQL (ON CONFLICT,
// RETURNING, CASE, COALESCE, bound parameters, integer 0/1 flags compared with `= 1`) and ask here
// for the few spellings that have no common form. Nothing outside engine/db branches on the engine
// for SQL; the migrations are the other dialect-specific place (resources/migrations/<engine>/).
#pragma once

#include <QSqlDatabase>
#include <QSqlError>
#include <QString>

namespace pb::db {

enum class Engine { SQLite, PostgreSQL };

// The engine behind a connection (by its Qt driver: QSQLITE or QPSQL).
Engine engineOf(const QSqlDatabase& db);
QString engineName(Engine engine); // "SQLite", "PostgreSQL"

class Dialect {
  public:
    explicit Dialect(Engine engine) : m_engine(engine) {}
    explicit Dialect(const QSqlDatabase& db) : m_engine(engineOf(db)) {}
    Engine engine() const { return m_engine; }

    // The values of `expr` over a group joined by `separator` (a SQL string literal, e.g. "','").
    // Order: `orderBy` when given (PostgreSQL takes it inside the aggregate; SQLite keeps the
    // order its input arrives in, so give the ORDER BY in the sub-select as well).
    QString stringAgg(const QString& expr, const QString& separator, const QString& orderBy = {}) const;
    // 1-based position of `needle` in `haystack`, 0 when absent (instr / strpos).
    QString position(const QString& haystack, const QString& needle) const;
    // The larger / smaller of two values (SQLite's scalar max(a, b) / GREATEST).
    QString greatest(const QString& a, const QString& b) const;
    QString least(const QString& a, const QString& b) const;
    // Byte length of a BLOB / bytea value.
    QString byteLength(const QString& expr) const;

    // Whether a statement failed on a UNIQUE or PRIMARY KEY constraint: SQLite's extended result
    // codes 2067 / 1555 (or its "UNIQUE constraint failed" text), PostgreSQL's SQLSTATE 23505.
    bool isUniqueViolation(const QSqlError& error) const;
    // What to do about a failed statement, from the engine's error code, or empty when there is
    // nothing better to say than the driver's text: a statement or lock timeout, a full disk, a lost
    // connection, a read-only server (a replica), a missing privilege (a role), a busy SQLite file.
    QString advice(const QSqlError& error) const { return advice(error.nativeErrorCode()); }
    // The same from the code alone (SQLSTATE on PostgreSQL, the extended result code on SQLite).
    QString advice(const QString& code) const;
    // What an error message ends with when there is advice: " (SERVER: advice)", or " (advice)" when
    // `server` is empty (SQLite); empty when the code has no advice.
    QString adviceNote(const QString& code, const QString& server) const;
    // What to do when a table the schema has is gone (PostgreSQL 42P01, SQLite "no such table").
    static QString missingTableAdvice();

  private:
    Engine m_engine;
};

} // namespace pb::db
