#include "db/BulkInsert.h"

#include "db/Database.h"
#include "db/Dialect.h"
#include "db/Postgres.h"

#include <atomic>

namespace pb::db {

namespace {

// COPY data is sent in pieces of about this size: memory stays bounded for any number of rows.
constexpr qsizetype kCopyChunk = 4 << 20;

std::atomic<quint64> g_stageCounter{0};

} // namespace

BulkInsert::BulkInsert(QSqlDatabase& db, const QString& table, const QStringList& columns,
                       const QString& conflict)
    : m_db(db), m_table(table), m_columns(columns), m_conflict(conflict),
      m_postgres(engineOf(db) == Engine::PostgreSQL), m_insert(db) {}

BulkInsert::~BulkInsert() = default;

Status BulkInsert::startStage() {
    if (!inTransaction(m_db))
        return makeError(QStringLiteral("%1: a bulk insert runs inside a transaction").arg(m_table));
    m_types = pg::columnTypes(m_db, m_table, m_columns); // empty: text COPY
    if (m_conflict.isEmpty()) {
        // No conflict to resolve: COPY straight into the table, rows in the order they were added.
        m_stage = m_table;
        return {};
    }
    // A temporary table of the target's own column types (so COPY parses each field as the table
    // would), plus the order rows arrived in; dropped at the end of the transaction whatever happens.
    m_stage = QStringLiteral("pb_stage_%1_%2").arg(m_table).arg(++g_stageCounter);
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("CREATE TEMP TABLE %1 ON COMMIT DROP AS SELECT %2 FROM %3 WITH NO DATA")
                    .arg(m_stage, m_columns.join(QLatin1Char(',')), m_table)) ||
        !q.exec(QStringLiteral("ALTER TABLE %1 ADD COLUMN pb_row bigserial").arg(m_stage)))
        return sqlError(q, m_table);
    return {};
}

Status BulkInsert::add(const QVariantList& row, const QString& what) {
    if (m_finished)
        return makeError(QStringLiteral("%1: rows added after the bulk insert finished").arg(m_table));
    if (row.size() != m_columns.size())
        return makeError(QStringLiteral("%1: a row of %2 values for %3 columns")
                             .arg(m_table)
                             .arg(row.size())
                             .arg(m_columns.size()),
                         what);
    if (!m_postgres) {
        if (!m_prepared) {
            QStringList marks;
            for (qsizetype i = 0; i < m_columns.size(); ++i)
                marks << QStringLiteral("?");
            const QString sql =
                QStringLiteral("INSERT INTO %1 (%2) VALUES (%3) %4")
                    .arg(m_table, m_columns.join(QLatin1Char(',')), marks.join(QLatin1Char(',')), m_conflict);
            if (!m_insert.prepare(sql))
                return sqlError(m_insert, m_table);
            m_prepared = true;
        }
        for (const QVariant& v : row)
            m_insert.addBindValue(v);
        if (!m_insert.exec())
            return sqlError(m_insert,
                            what.isEmpty() ? m_table : QStringLiteral("%1 (%2)").arg(m_table, what));
        m_written += std::max(0, m_insert.numRowsAffected());
        return {};
    }
    if (m_stage.isEmpty())
        if (Status s = startStage(); !s)
            return s;
    if (!m_types.empty()) {
        const qsizetype before = m_buffer.size();
        if (Status s = pg::appendBinaryRow(m_buffer, row, m_types, m_columns); !s) {
            m_buffer.truncate(before); // no half row is ever sent
            return makeError(what.isEmpty()
                                 ? QStringLiteral("%1: %2").arg(m_table, s.error().message)
                                 : QStringLiteral("%1 (%2): %3").arg(m_table, what, s.error().message));
        }
    } else {
        for (qsizetype i = 0; i < row.size(); ++i) {
            if (i)
                m_buffer += '\t';
            pg::appendCopyField(m_buffer, row[i]);
        }
        m_buffer += '\n';
    }
    ++m_pending;
    if (m_buffer.size() >= kCopyChunk)
        return flush();
    return {};
}

Status BulkInsert::flush() {
    if (m_buffer.isEmpty())
        return {};
    Status s = pg::copyIn(m_db, m_stage, m_columns, m_buffer, !m_types.empty());
    m_buffer.clear();
    m_copied += m_pending;
    m_pending = 0;
    if (!s)
        return makeError(QStringLiteral("%1: %2").arg(m_table, s.error().message));
    return {};
}

Status BulkInsert::finish() {
    if (m_finished)
        return {};
    m_finished = true;
    if (!m_postgres || m_stage.isEmpty())
        return {};
    if (Status s = flush(); !s)
        return s;
    if (m_stage == m_table) {
        m_written = m_copied;
        return {};
    }
    const QString columns = m_columns.join(QLatin1Char(','));
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("INSERT INTO %1 (%2) SELECT %2 FROM %3 ORDER BY pb_row %4")
                    .arg(m_table, columns, m_stage, m_conflict)))
        return sqlError(q, m_table);
    m_written = std::max(0, q.numRowsAffected());
    if (!q.exec(QStringLiteral("DROP TABLE %1").arg(m_stage)))
        return sqlError(q, m_table);
    return {};
}

} // namespace pb::db
