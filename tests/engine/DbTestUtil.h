// What the store tests need of a database on either engine (issue 31): its tables, a digest of all
// its rows ("unchanged" means equal), every byte it stores (for "no secret anywhere"), row counts, a
// trigger that makes inserts fail (to show a rollback), and whether a store exists at all. SQLite
// reads sqlite_master; PostgreSQL reads the schema `proofbench` of the test's own database.
#pragma once

#include "TestDb.h"
#include "db/Database.h"
#include "db/Postgres.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTest>

#include <memory>

namespace pbtest {

inline bool isPostgres(pb::db::Database& db) {
    return db.engine() == pb::db::Engine::PostgreSQL;
}

// Every table of the store, sorted. On SQLite all of sqlite_master's tables (sqlite_sequence
// included, as the tests always counted it); on PostgreSQL the tables of schema proofbench (identity
// sequences are not tables: they are not transactional there, a rolled-back insert still draws).
inline QStringList storeTables(pb::db::Database& db) {
    QSqlQuery q(db.sql());
    q.exec(isPostgres(db)
               ? QStringLiteral("SELECT tablename FROM pg_tables WHERE schemaname = 'proofbench' "
                                "ORDER BY tablename")
               : QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"));
    QStringList out;
    while (q.next())
        out << q.value(0).toString();
    return out;
}

// Each row of `table` as one byte string (columns joined by 0x1f), in sorted order.
inline QList<QByteArray> tableRows(pb::db::Database& db, const QString& table) {
    QSqlQuery rows(db.sql());
    rows.setForwardOnly(true);
    rows.exec(QStringLiteral("SELECT * FROM \"%1\"").arg(table)); // a name storeTables() read
    QList<QByteArray> out;
    while (rows.next()) {
        QByteArray row;
        for (int i = 0; i < rows.record().count(); ++i)
            row += rows.value(i).toByteArray() + '\x1f';
        out << row;
    }
    std::sort(out.begin(), out.end());
    return out;
}

// A digest of every row of every table: "unchanged" means this is equal.
inline QByteArray dumpDigest(pb::db::Database& db) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const QString& t : storeTables(db)) {
        h.addData(t.toUtf8() + '\x1e');
        for (const QByteArray& row : tableRows(db, t))
            h.addData(row + '\x1d');
    }
    return h.result().toHex();
}

// Everything the database stores, as bytes (text as UTF-8, blobs as they are).
inline QByteArray allRowBytes(pb::db::Database& db) {
    QByteArray out;
    for (const QString& t : storeTables(db))
        for (const QByteArray& row : tableRows(db, t))
            out += row + '\n';
    return out;
}

inline qint64 rowCount(pb::db::Database& db, const QString& table) {
    QSqlQuery q(db.sql());
    if (!q.exec(QStringLiteral("SELECT count(*) FROM \"%1\"").arg(table)) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

// Makes every INSERT into `table` fail with `message` while `condition` holds (SQL; empty: always).
// SQLite: a TEMP trigger, gone with the connection. PostgreSQL: a PL/pgSQL function and trigger in
// the test's own database, dropped with it. Empty on success, else the error.
inline QString refuseInserts(pb::db::Database& db, const QString& name, const QString& table,
                             const QString& message, const QString& condition = {}) {
    QString quoted = message;
    quoted.replace(QLatin1Char('\''), QStringLiteral("''"));
    const QString when = condition.isEmpty() ? QStringLiteral("true") : condition;
    QStringList statements;
    if (isPostgres(db)) {
        statements << QStringLiteral(
                          "CREATE FUNCTION %1_fn() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF "
                          "%2 THEN RAISE EXCEPTION '%3'; END IF; RETURN NEW; END $$")
                          .arg(name, when, quoted)
                   << QStringLiteral(
                          "CREATE TRIGGER %1 BEFORE INSERT ON %2 FOR EACH ROW EXECUTE FUNCTION %1_fn()")
                          .arg(name, table);
    } else {
        statements << QStringLiteral("CREATE TEMP TRIGGER %1 BEFORE INSERT ON %2 WHEN %3 BEGIN SELECT "
                                     "RAISE(ABORT, '%4'); END")
                          .arg(name, table, when, quoted);
    }
    QSqlQuery q(db.sql());
    for (const QString& sql : statements)
        if (!q.exec(sql))
            return QStringLiteral("%1: %2").arg(sql, q.lastError().text());
    return {};
}

// A connection to a test database that does not migrate it (Database::open would): for looking at
// what a subprocess left. Removed on destruction.
class RawConnection {
  public:
    explicit RawConnection(const QString& spec) {
        static int counter = 0;
        m_name = QStringLiteral("pbtest-raw-%1").arg(++counter);
        if (pb::db::pg::isServerSpec(spec)) {
            m_db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_name);
            const auto parsed = pb::db::pg::parseServerSpec(spec);
            if (!parsed || !pb::db::pg::configure(m_db, *parsed))
                return;
        } else {
            m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
            m_db.setDatabaseName(spec);
        }
        m_db.open();
    }
    ~RawConnection() {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_name);
    }
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;
    QSqlDatabase& sql() { return m_db; }

  private:
    QString m_name;
    QSqlDatabase m_db;
};

// True when something made a store in the test database `spec` names: the SQLite file exists, or
// the PostgreSQL database has the schema proofbench (TestDatabase creates the database, empty).
inline bool storeExists(const QString& spec) {
    if (!pb::db::pg::isServerSpec(spec))
        return QFileInfo::exists(spec);
    RawConnection c(spec);
    QSqlQuery q(c.sql());
    return !q.exec(QStringLiteral("SELECT to_regnamespace('proofbench') IS NOT NULL")) || !q.next() ||
           q.value(0).toBool();
}

inline bool storeExists(const pb::test::TestDatabase& db) {
    return storeExists(db.spec());
}

// The environment for a CLI subprocess: the system's, with what it needs to reach the test server.
inline QProcessEnvironment cliEnvironment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    pb::test::addPgEnvironment(env);
    return env;
}

} // namespace pbtest

// For a test database kept in a member (one per test class): creates it into the unique_ptr `ptr`;
// skips when the run has no PostgreSQL server, fails when a recorded one cannot give a database.
#define PB_TEST_DATABASE_IN(ptr, dir, name)                                                                  \
    (ptr) = std::make_unique<pb::test::TestDatabase>((dir), (name));                                         \
    if (!(ptr)->ok()) {                                                                                      \
        if ((ptr)->serverMissing())                                                                          \
            QSKIP(qPrintable((ptr)->error()));                                                               \
        QFAIL(qPrintable((ptr)->error()));                                                                   \
    } else                                                                                                   \
        (void)0
