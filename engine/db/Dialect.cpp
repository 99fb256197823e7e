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

} // namespace pb::db
