// The databases one test object works on, on the engine the run tests (issue 31; TestDb.h): by
// name, so a test that reopens "locked.sqlite" on a second connection reaches the same database on
// either engine. On SQLite a name is a file in the test's folder; on PostgreSQL each name is a fresh
// database on the private test server, dropped when the object goes. Also the few test-side
// statements whose spelling differs between the engines (a trigger that refuses inserts).
#pragma once

#include "TestDb.h"
#include "db/Database.h"

#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>

namespace pb::test {

class Databases {
  public:
    explicit Databases(QString dir) : m_dir(std::move(dir)) {}

    // The spec (file path or postgresql:// URI) of database `name`, made on first use; the same
    // spec afterwards. Empty when it cannot be made: error() says why.
    QString spec(const QString& name) {
        auto it = m_dbs.find(name);
        if (it == m_dbs.end())
            it = m_dbs.emplace(name, std::make_unique<TestDatabase>(m_dir, name)).first;
        if (!it->second->ok()) {
            m_error = it->second->error();
            return {};
        }
        return it->second->spec();
    }

    // A connection to `name` (opened and migrated), or nullptr with error() set.
    std::unique_ptr<db::Database> open(const QString& name) {
        const QString s = spec(name);
        if (s.isEmpty())
            return nullptr;
        auto db = db::Database::open(s);
        if (!db) {
            m_error = db.error().toString();
            return nullptr;
        }
        return std::move(*db);
    }

    QString error() const { return m_error; }

  private:
    QString m_dir;
    QString m_error;
    std::map<QString, std::unique_ptr<TestDatabase>> m_dbs;
};

// Makes every INSERT into `table` fail with `message`, the way a ledger or store that refuses a
// write fails: SQLite's RAISE(ABORT) in a trigger, PostgreSQL's RAISE EXCEPTION in a trigger
// function. Empty on success, else the failing statement's error.
inline QString refuseInserts(db::Database& db, const QString& table, const QString& message) {
    const QString name = QStringLiteral("refuse_") + table;
    QStringList statements;
    if (db.engine() == db::Engine::PostgreSQL) {
        // One statement per exec(): a multi-statement exec() on QPSQL reports only the first's error.
        statements << QStringLiteral("CREATE FUNCTION %1() RETURNS trigger LANGUAGE plpgsql AS "
                                     "$f$ BEGIN RAISE EXCEPTION '%2'; END $f$")
                          .arg(name, message)
                   << QStringLiteral(
                          "CREATE TRIGGER %1 BEFORE INSERT ON %2 FOR EACH ROW EXECUTE FUNCTION %1()")
                          .arg(name, table);
    } else {
        statements << QStringLiteral(
                          "CREATE TRIGGER %1 BEFORE INSERT ON %2 BEGIN SELECT RAISE(ABORT, '%3'); END")
                          .arg(name, table, message);
    }
    QSqlQuery q(db.sql());
    for (const QString& sql : statements)
        if (!q.exec(sql))
            return sql + QStringLiteral(": ") + q.lastError().text();
    return {};
}

// True when `needle` is anywhere in what the database `spec` keeps: on SQLite the bytes of the file and
// its write-ahead log; on PostgreSQL every row of every table in schema proofbench as text (a bytea
// column reads as hex there, so the needle's hex is looked for too). For "no secret reaches the
// database" checks. Unreadable counts as containing, so a broken check cannot pass.
inline bool databaseContains(const QString& spec, const QByteArray& needle) {
    auto opened = db::Database::open(spec);
    if (!opened)
        return true;
    db::Database& db = **opened;
    if (db.engine() == db::Engine::SQLite) {
        for (const QString& path : {db.path(), db.path() + QStringLiteral("-wal")}) {
            QFile f(path);
            if (f.open(QIODevice::ReadOnly) && f.readAll().contains(needle))
                return true;
        }
        return false;
    }
    QSqlQuery tables(db.sql());
    if (!tables.exec(QStringLiteral("SELECT table_name FROM information_schema.tables WHERE table_schema = "
                                    "'proofbench' AND table_type = 'BASE TABLE'")))
        return true;
    QStringList names;
    while (tables.next())
        names << tables.value(0).toString();
    for (const QString& t : names) {
        QSqlQuery q(db.sql());
        q.prepare(
            QStringLiteral("SELECT count(*) FROM proofbench.%1 AS r WHERE strpos(CAST(r AS text), ?) > 0 "
                           "OR strpos(CAST(r AS text), ?) > 0")
                .arg(t));
        q.addBindValue(QString::fromUtf8(needle));
        q.addBindValue(QString::fromLatin1(needle.toHex()));
        if (!q.exec() || !q.next() || q.value(0).toLongLong() != 0)
            return true;
    }
    return false;
}

} // namespace pb::test

// Skips the PostgreSQL half of a test function (or of a _data function's whole test) with `reason`,
// a sentence saying why the SQLite half alone covers it.
#define PB_SKIP_ON_POSTGRES(reason)                                                                          \
    do {                                                                                                     \
        if (pb::test::onPostgres())                                                                          \
            QSKIP(reason);                                                                                   \
    } while (false)

// For a test function that never opens a database: its PostgreSQL half would repeat the SQLite
// half's work for nothing.
#define PB_NO_DATABASE_ON_POSTGRES() PB_SKIP_ON_POSTGRES("no database involved: the SQLite half covers it")
