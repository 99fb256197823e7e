#include "db/Dialect.h"

#include <QSqlDriver>
#include <QSqlError>

namespace pb::db {

Engine engineOf(const QSqlDatabase& db) {
    return db.driverName() == QLatin1String("QPSQL") ? Engine::PostgreSQL : Engine::SQLite;
}

QString engineName(Engine engine) {
    return engine == Engine::PostgreSQL ? QStringLiteral("PostgreSQL") : QStringLiteral("SQLite");
}

QString Dialect::stringAgg(const QString& expr, const QString& separator, const QString& orderBy) const {
    if (m_engine == Engine::PostgreSQL) {
        const QString order = orderBy.isEmpty() ? QString() : QStringLiteral(" ORDER BY ") + orderBy;
        return QStringLiteral("string_agg(CAST(%1 AS text), %2%3)").arg(expr, separator, order);
    }
    return QStringLiteral("group_concat(%1, %2)").arg(expr, separator);
}

QString Dialect::position(const QString& haystack, const QString& needle) const {
    if (m_engine == Engine::PostgreSQL)
        return QStringLiteral("strpos(%1, %2)").arg(haystack, needle);
    return QStringLiteral("instr(%1, %2)").arg(haystack, needle);
}

QString Dialect::greatest(const QString& a, const QString& b) const {
    return m_engine == Engine::PostgreSQL ? QStringLiteral("GREATEST(%1, %2)").arg(a, b)
                                          : QStringLiteral("max(%1, %2)").arg(a, b);
}

QString Dialect::least(const QString& a, const QString& b) const {
    return m_engine == Engine::PostgreSQL ? QStringLiteral("LEAST(%1, %2)").arg(a, b)
                                          : QStringLiteral("min(%1, %2)").arg(a, b);
}

QString Dialect::byteLength(const QString& expr) const {
    return m_engine == Engine::PostgreSQL ? QStringLiteral("octet_length(%1)").arg(expr)
                                          : QStringLiteral("length(CAST(%1 AS BLOB))").arg(expr);
}

bool Dialect::isUniqueViolation(const QSqlError& error) const {
    const QString code = error.nativeErrorCode();
    if (m_engine == Engine::PostgreSQL)
        return code == QLatin1String("23505");
    return code == QLatin1String("2067") || code == QLatin1String("1555") ||
           error.text().contains(QLatin1String("UNIQUE constraint failed"));
}

QString Dialect::adviceNote(const QString& code, const QString& server) const {
    const QString text = advice(code);
    if (text.isEmpty())
        return {};
    return QStringLiteral(" (%1%2)").arg(server.isEmpty() ? QString() : server + QStringLiteral(": "), text);
}

QString Dialect::missingTableAdvice() {
    return QStringLiteral("a table Proofbench keeps is missing: the database is incomplete (damaged, or "
                          "changed outside Proofbench) and cannot be vouched for; restore it from a backup");
}

QString Dialect::advice(const QString& code) const {
    if (m_engine == Engine::PostgreSQL) {
        // SQLSTATE codes: https://www.postgresql.org/docs/15/errcodes-appendix.html
        if (code == QLatin1String("57014"))
            return QStringLiteral(
                "the server cancelled the statement (statement_timeout); nothing was written. "
                "Retry, or ask the server's administrator to raise statement_timeout for "
                "your role");
        if (code == QLatin1String("55P03"))
            return QStringLiteral("another session holds a lock this needs (lock_timeout); nothing was "
                                  "written. Retry when the other work has finished");
        if (code == QLatin1String("40001") || code == QLatin1String("40P01"))
            return QStringLiteral("the server rolled the transaction back to resolve a conflict with another "
                                  "session; nothing was written. Retry");
        if (code == QLatin1String("53100"))
            return QStringLiteral("the server's disk is full; nothing was written. Ask its administrator to "
                                  "free space");
        if (code == QLatin1String("53200") || code == QLatin1String("53300"))
            return QStringLiteral("the server is out of memory or connections; nothing was written. Retry "
                                  "later");
        if (code == QLatin1String("25006"))
            return QStringLiteral("the server is read-only (a replica or a read-only transaction); write "
                                  "to the primary");
        if (code == QLatin1String("42501"))
            return QStringLiteral("your role lacks the privilege; ask the server's administrator");
        if (code == QLatin1String("42P01"))
            return missingTableAdvice();
        if (code.startsWith(QLatin1String("08")) || code == QLatin1String("57P01") ||
            code == QLatin1String("57P02") || code == QLatin1String("57P03"))
            return QStringLiteral("the connection to the server was lost; nothing was written. Check that "
                                  "it is running and retry");
        return {};
    }
    // SQLite primary result codes (the low byte of the extended code).
    bool ok = false;
    const int primary = code.toInt(&ok) & 0xff;
    if (!ok)
        return {};
    if (primary == 13) // SQLITE_FULL
        return QStringLiteral("the disk holding the database is full; nothing was written. Free space and "
                              "retry");
    if (primary == 5 || primary == 6) // SQLITE_BUSY, SQLITE_LOCKED
        return QStringLiteral("another program is writing this database; nothing was written. Retry");
    if (primary == 8) // SQLITE_READONLY
        return QStringLiteral("the database file is read-only for you; check its permissions");
    return {};
}

} // namespace pb::db
