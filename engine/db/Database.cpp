#include "db/Database.h"
#include "db/GuiThreadGuard.h"
#include "db/Postgres.h"

#include <QAtomicInt>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QThread>

#include <atomic>
#include <map>
#include <mutex>

#include <sqlite3.h>

namespace pb::db {

namespace {

QAtomicInt g_connectionCounter;

std::mutex g_observerMutex;
GuiThreadObserver g_observer;
std::atomic_bool g_observing{false};
WaitObserver g_waitObserver;

// How long a SQLite write waits for another writer before it fails ("database is locked").
constexpr int kBusyTimeoutMs = 10000;

// Tells the wait observer (if any) what a write waits for.
void reportWait(const QString& what) {
    WaitObserver observer;
    {
        const std::lock_guard lock(g_observerMutex);
        observer = g_waitObserver;
    }
    if (observer)
        observer(what);
}

bool onGuiThread() {
    const QCoreApplication* app = QCoreApplication::instance();
    return app && QThread::currentThread() == app->thread();
}

// Reports `sql` when an observer is set and this is the GUI thread.
void observe(const QString& sql) {
    if (!g_observing.load() || !onGuiThread())
        return;
    GuiThreadObserver observer;
    {
        const std::lock_guard lock(g_observerMutex);
        observer = g_observer;
    }
    if (observer)
        observer(sql);
}

// sqlite3_trace_v2 callback: every statement this connection runs.
int traceStatement(unsigned type, void*, void* statement, void*) {
    if (type == SQLITE_TRACE_STMT && g_observing.load() && onGuiThread()) {
        char* expanded = sqlite3_expanded_sql(static_cast<sqlite3_stmt*>(statement));
        observe(QString::fromUtf8(expanded ? expanded : sqlite3_sql(static_cast<sqlite3_stmt*>(statement))));
        sqlite3_free(expanded);
    }
    return 0;
}

sqlite3* sqliteHandle(const QSqlDatabase& db) {
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3* const*>(handle.data());
}

std::map<int, QString> migrationFiles(Engine engine) {
    std::map<int, QString> out;
    const QDir dir(engine == Engine::PostgreSQL ? QStringLiteral(":/migrations/postgresql")
                                                : QStringLiteral(":/migrations/sqlite"));
    static const QRegularExpression re(QStringLiteral("^(\\d+)_.*\\.sql$"));
    for (const QString& name : dir.entryList(QDir::Files, QDir::Name)) {
        const auto m = re.match(name);
        if (m.hasMatch())
            out[m.captured(1).toInt()] = dir.filePath(name);
    }
    return out;
}

// One statement per line ending in ';' (comment lines dropped), except inside a $$ … $$ block
// (a PostgreSQL function body), which stays in its statement whatever its lines end with.
QStringList splitStatements(const QString& sql) {
    QStringList out;
    QString current;
    bool inDollarBlock = false;
    for (const QString& line : sql.split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        if (!inDollarBlock && trimmed.startsWith(QLatin1String("--")))
            continue;
        current += line + QLatin1Char('\n');
        if (line.count(QLatin1String("$$")) % 2 == 1)
            inDollarBlock = !inDollarBlock;
        if (!inDollarBlock && trimmed.endsWith(QLatin1Char(';'))) {
            out << current.trimmed();
            current.clear();
        }
    }
    if (!current.trimmed().isEmpty())
        out << current.trimmed();
    return out;
}

} // namespace

void setWaitObserver(WaitObserver observer) {
    const std::lock_guard lock(g_observerMutex);
    g_waitObserver = std::move(observer);
}

void setGuiThreadObserver(GuiThreadObserver observer) {
    const std::lock_guard lock(g_observerMutex);
    g_observing.store(bool(observer));
    g_observer = std::move(observer);
}

QVariant nullable(const QString& s) {
    return s.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(s);
}

Error sqlError(const QSqlQuery& q, const QString& what) {
    QString message = QStringLiteral("%1: %2").arg(what, q.lastError().text().trimmed());
    const QSqlDriver* driver = q.driver();
    const Engine engine =
        driver && driver->dbmsType() == QSqlDriver::PostgreSQL ? Engine::PostgreSQL : Engine::SQLite;
    message += Dialect(engine).adviceNote(q.lastError().nativeErrorCode(), pg::serverOf(driver));
    if (engine == Engine::SQLite && q.lastError().text().contains(QLatin1String("no such table")))
        message += QStringLiteral(" (%1)").arg(Dialect::missingTableAdvice());
    return makeError(message);
}

Database::~Database() {
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connection);
    }
}

QString Database::defaultPath() {
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.local/share/proofbench");
    return dir + QStringLiteral("/proofbench.sqlite");
}

int Database::latestSchemaVersion(Engine engine) {
    const auto files = migrationFiles(engine);
    return files.empty() ? 0 : files.rbegin()->first;
}

Result<std::unique_ptr<Database>> Database::open(const QString& spec) {
    if (pg::isServerSpec(spec))
        return openPostgres(spec);
    return openSqlite(spec);
}

QString Database::describe(const QString& spec) {
    if (!pg::isServerSpec(spec))
        return QDir::toNativeSeparators(spec);
    Result<pg::ServerSpec> parsed = pg::parseServerSpec(spec);
    return parsed ? QStringLiteral("PostgreSQL %1").arg(parsed->display())
                  : QStringLiteral("PostgreSQL server");
}

QString Database::shortName(const QString& spec) {
    if (!pg::isServerSpec(spec))
        return QFileInfo(spec).fileName();
    Result<pg::ServerSpec> parsed = pg::parseServerSpec(spec);
    if (!parsed)
        return QStringLiteral("postgresql");
    const QString name = parsed->value(QStringLiteral("dbname"));
    return name.isEmpty() ? parsed->value(QStringLiteral("service")) : name;
}

QString Database::displayName() const {
    return m_engine == Engine::PostgreSQL ? m_display : QDir::toNativeSeparators(m_path);
}

Result<std::unique_ptr<Database>> Database::openSqlite(const QString& path) {
    observe(QStringLiteral("-- open %1").arg(path));
    const QFileInfo fi(path);
    if (!fi.absoluteDir().exists() && !QDir().mkpath(fi.absolutePath()))
        return makeError(QStringLiteral("cannot create the database folder"), fi.absolutePath());
    std::unique_ptr<Database> db(new Database);
    db->m_path = fi.absoluteFilePath();
    db->m_connection = QStringLiteral("pb-%1").arg(g_connectionCounter.fetchAndAddRelaxed(1));
    db->m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), db->m_connection);
    db->m_db.setDatabaseName(db->m_path);
    db->m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(kBusyTimeoutMs));
    if (!db->m_db.open())
        return makeError(QStringLiteral("cannot open database: %1").arg(db->m_db.lastError().text()), path);
    if (g_observing.load()) {
        if (sqlite3* h = sqliteHandle(db->m_db))
            sqlite3_trace_v2(h, SQLITE_TRACE_STMT, traceStatement, nullptr);
    }
    QSqlQuery q(db->m_db);
    for (const char* pragma :
         {"PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON", "PRAGMA synchronous=NORMAL"}) {
        if (!q.exec(QString::fromLatin1(pragma)))
            return makeError(QStringLiteral("%1 failed: %2").arg(QLatin1String(pragma), q.lastError().text()),
                             path);
    }
    // A file that is not a SQLite database fails on its first real read.
    if (!q.exec(QStringLiteral("SELECT count(*) FROM sqlite_master")))
        return makeError(QStringLiteral("not a Proofbench database: %1").arg(q.lastError().text()), path);
    // A statement left unfinished keeps its read snapshot open: the migration's BEGIN IMMEDIATE would
    // then be an upgrade, which SQLite refuses at once (no busy wait) when another process wrote.
    q.finish();
    if (Status s = db->migrate(); !s) {
        Error e = s.error();
        e.file = path;
        return e;
    }
    return db;
}

namespace {

// What to do about a connection that failed, from libpq's message.
QString connectAdvice(const QString& message) {
    if (message.contains(QLatin1String("password authentication failed")) ||
        message.contains(QLatin1String("no password supplied")))
        return QStringLiteral(
            "check the user's password in ~/.pgpass (mode 0600), PGPASSFILE or the service file");
    if (message.contains(QLatin1String("certificate")) || message.contains(QLatin1String("SSL")) ||
        message.contains(QLatin1String("root.crt")))
        return QStringLiteral("check the server's certificate and the CA given as sslrootcert=…");
    if (message.contains(QLatin1String("no pg_hba.conf entry")))
        return QStringLiteral(
            "the server's pg_hba.conf does not admit this user, database, address or TLS mode");
    if (message.contains(QLatin1String("does not exist")))
        return QStringLiteral("create the database and role first (README: \"A team server\")");
    if (message.contains(QLatin1String("Connection refused")) ||
        message.contains(QLatin1String("could not connect")) ||
        message.contains(QLatin1String("timeout expired")) ||
        message.contains(QLatin1String("could not translate")))
        return QStringLiteral("is the server running and reachable at that host and port?");
    return {};
}

} // namespace

Result<std::unique_ptr<Database>> Database::connectOnly(const QString& spec) {
    if (!pg::isServerSpec(spec))
        return makeError(QStringLiteral("not a PostgreSQL server: a connection test needs host, port and "
                                        "database (or a postgresql:// URI)"),
                         spec);
    return openPostgres(spec, false);
}

Result<std::unique_ptr<Database>> Database::openPostgres(const QString& spec, bool migrateSchema) {
    Result<pg::ServerSpec> parsed = pg::parseServerSpec(spec);
    if (!parsed)
        return parsed.error();
    const QString where = QStringLiteral("PostgreSQL %1").arg(parsed->display());
    observe(QStringLiteral("-- open %1").arg(where));
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL")))
        return makeError(QStringLiteral("cannot open %1: the Qt PostgreSQL driver is not installed (Debian "
                                        "package libqt6sql6-psql)")
                             .arg(where));
    std::unique_ptr<Database> db(new Database);
    db->m_engine = Engine::PostgreSQL;
    db->m_path = parsed->password.isEmpty() ? spec.trimmed() : parsed->canonical();
    db->m_display = where;
    db->m_connection = QStringLiteral("pb-%1").arg(g_connectionCounter.fetchAndAddRelaxed(1));
    db->m_db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), db->m_connection);
    if (Status s = pg::configure(db->m_db, *parsed); !s)
        return s.error();
    const QString password = db->m_db.password();
    if (!db->m_db.open()) {
        const QString message = pg::scrub(db->m_db.lastError().databaseText().trimmed(), password);
        const QString advice = connectAdvice(message);
        return makeError(QStringLiteral("cannot connect to %1: %2%3")
                             .arg(where, message.isEmpty() ? QStringLiteral("connection failed") : message,
                                  advice.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(advice)));
    }
    QSqlQuery q(db->m_db);
    // One session setting per statement (a multi-statement exec hides the later ones' errors).
    for (const char* setting : {"SET TimeZone TO 'UTC'", "SET search_path TO proofbench"}) {
        if (!q.exec(QString::fromLatin1(setting)))
            return makeError(QStringLiteral("%1: %2 failed: %3")
                                 .arg(where, QLatin1String(setting), q.lastError().databaseText().trimmed()));
    }
    if (!q.exec(QStringLiteral("SELECT session_user")) || !q.next())
        return makeError(QStringLiteral("%1: cannot read the session's user: %2")
                             .arg(where, q.lastError().databaseText().trimmed()));
    db->m_sessionUser = q.value(0).toString();
    if (Status s = migrateSchema ? db->migrate() : Status{}; !s) {
        Error e = s.error();
        e.message = QStringLiteral("%1: %2").arg(where, e.message);
        return e;
    }
    Result<Access> access = readAccess(*db);
    if (!access) {
        Error e = access.error();
        e.message = QStringLiteral("%1: %2").arg(where, e.message);
        return e;
    }
    db->m_access = *access;
    return db;
}

Status Database::migratePostgres() {
    const int latest = latestSchemaVersion(Engine::PostgreSQL);
    auto tooNew = [latest](int current) {
        return makeError(QStringLiteral("database schema version %1 is newer than this Proofbench (%2); "
                                        "upgrade Proofbench")
                             .arg(current)
                             .arg(latest));
    };
    // Up to date: nothing to write (a role that may only read opens it too).
    int current = schemaVersion();
    if (current < 0)
        return makeError(QStringLiteral("cannot read the schema version"));
    if (current > latest)
        return tooNew(current);
    if (current == latest)
        return {};
    QSqlQuery q(m_db);
    auto fail = [this, &q](const QString& what) {
        const QString why = q.lastError().databaseText().trimmed();
        m_db.rollback();
        return makeError(QStringLiteral("%1: %2").arg(what, why));
    };
    if (!m_db.transaction())
        return makeError(QStringLiteral("cannot start migrations: %1").arg(m_db.lastError().text()));
    // One migrator at a time: a second process waits here, then finds the work done.
    if (!q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(7146818323850297410)")))
        return fail(QStringLiteral("cannot take the migration lock"));
    if (!q.exec(QStringLiteral("CREATE SCHEMA IF NOT EXISTS proofbench")))
        return fail(
            QStringLiteral("cannot create schema proofbench (the user needs CREATE on the database, or "
                           "the database owner runs the first open)"));
    if (!q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS proofbench.schema_version (id integer PRIMARY KEY "
                               "CHECK (id = 1), version integer NOT NULL)")))
        return fail(QStringLiteral("cannot create the schema_version table"));
    if (!q.exec(QStringLiteral("SELECT version FROM proofbench.schema_version WHERE id = 1")))
        return fail(QStringLiteral("cannot read the schema version"));
    current = q.next() ? q.value(0).toInt() : 0;
    if (current > latest) {
        m_db.rollback();
        return tooNew(current);
    }
    for (const auto& [number, file] : migrationFiles(Engine::PostgreSQL)) {
        if (number <= current)
            continue;
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) {
            m_db.rollback();
            return makeError(QStringLiteral("cannot read migration"), file);
        }
        for (const QString& stmt : splitStatements(QString::fromUtf8(f.readAll()))) {
            if (!q.exec(stmt)) {
                Error err = fail(QStringLiteral("migration %1 failed").arg(number));
                err.file = file;
                return err;
            }
        }
    }
    q.prepare(QStringLiteral("INSERT INTO proofbench.schema_version (id, version) VALUES (1, ?) "
                             "ON CONFLICT (id) DO UPDATE SET version = excluded.version"));
    q.addBindValue(latest);
    if (!q.exec())
        return fail(QStringLiteral("cannot record schema version %1").arg(latest));
    if (!m_db.commit())
        return makeError(QStringLiteral("cannot commit migrations up to %1: %2")
                             .arg(latest)
                             .arg(m_db.lastError().databaseText().trimmed()));
    return {};
}

Result<std::unique_ptr<Database>> Database::openSibling() const {
    return open(m_path);
}

int Database::schemaVersion() const {
    QSqlQuery q(m_db);
    if (m_engine == Engine::PostgreSQL) {
        if (q.exec(QStringLiteral("SELECT to_regclass('proofbench.schema_version') IS NOT NULL")) &&
            q.next() && !q.value(0).toBool())
            return 0;
        if (q.exec(QStringLiteral("SELECT version FROM proofbench.schema_version WHERE id = 1")) && q.next())
            return q.value(0).toInt();
        return q.lastError().isValid() ? -1 : 0;
    }
    if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
        return q.value(0).toInt();
    return -1;
}

Status Database::migrate() {
    if (m_engine == Engine::PostgreSQL)
        return migratePostgres();
    int current = schemaVersion();
    const auto files = migrationFiles(Engine::SQLite);
    const int latest = files.empty() ? 0 : files.rbegin()->first;
    if (current > latest)
        return makeError(QStringLiteral("database schema version %1 is newer than this Proofbench (%2); "
                                        "upgrade Proofbench")
                             .arg(current)
                             .arg(latest));
    // Every pending migration runs in ONE transaction: an upgrade is all or nothing, and a new
    // file costs one commit (one fsync) instead of one per migration.
    if (latest <= current)
        return {};
    // The write lock first (another process may be migrating this file right now: wait for it, then
    // read the version again and find its work done).
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return makeError(QStringLiteral("cannot start migrations: %1").arg(q.lastError().text()), m_path);
    current = schemaVersion();
    if (current >= latest) {
        m_db.rollback();
        return {};
    }
    for (const auto& [number, file] : files) {
        if (number <= current)
            continue;
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) {
            m_db.rollback();
            return makeError(QStringLiteral("cannot read migration"), file);
        }
        const QString sql = QString::fromUtf8(f.readAll());
        for (const QString& stmt : splitStatements(sql)) {
            if (!q.exec(stmt)) {
                const QString err = q.lastError().text();
                m_db.rollback();
                return makeError(QStringLiteral("migration %1 failed: %2").arg(number).arg(err), file);
            }
        }
    }
    if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(latest))) {
        m_db.rollback();
        return makeError(QStringLiteral("cannot record schema version %1").arg(latest), m_path);
    }
    if (!m_db.commit())
        return makeError(QStringLiteral("cannot commit migrations up to %1").arg(latest), m_path);
    return {};
}

bool inTransaction(QSqlDatabase& db) {
    if (engineOf(db) == Engine::PostgreSQL)
        return pg::inTransaction(db);
    sqlite3* h = sqliteHandle(db);
    return h && sqlite3_get_autocommit(h) == 0;
}

Transaction::Transaction(QSqlDatabase& db, Mode mode) : m_db(db), m_mode(mode) {
    observe(QStringLiteral("BEGIN -- %1").arg(db.databaseName()));
    if (!inTransaction(m_db)) {
        if (engineOf(m_db) == Engine::SQLite && mode == Mode::Write) {
            // QSQLITE's transaction() is a deferred BEGIN; commit() and rollback() are plain
            // COMMIT and ROLLBACK, so beginning it here is all that changes.
            // First without waiting: when another process holds the write lock, say whose wait this
            // is before waiting for it (up to the busy timeout).
            // The connection's own timeout (kBusyTimeoutMs, unless its owner set another) is kept.
            QSqlQuery q(m_db);
            int busyMs = kBusyTimeoutMs;
            if (q.exec(QStringLiteral("PRAGMA busy_timeout")) && q.next())
                busyMs = q.value(0).toInt();
            q.finish();
            sqlite3* h = sqliteHandle(m_db);
            if (h)
                sqlite3_busy_timeout(h, 0);
            m_ok = q.exec(QStringLiteral("BEGIN IMMEDIATE"));
            if (h)
                sqlite3_busy_timeout(h, busyMs);
            if (!m_ok && (q.lastError().nativeErrorCode().toInt() & 0xff) == SQLITE_BUSY) {
                reportWait(QStringLiteral("waiting for another client's write to %1 to finish (up to %2 ms)")
                               .arg(QDir::toNativeSeparators(m_db.databaseName()))
                               .arg(busyMs));
                m_ok = q.exec(QStringLiteral("BEGIN IMMEDIATE"));
            }
            if (!m_ok)
                m_error = q.lastError();
            return;
        }
        m_ok = m_db.transaction();
        if (!m_ok)
            m_error = m_db.lastError();
        if (m_ok && mode == Mode::Write && engineOf(m_db) == Engine::PostgreSQL) {
            if (Status s = lockWriters(m_db); !s) {
                m_lockError = s.error().message;
                m_db.rollback();
                m_ok = false;
            }
        }
        return;
    }
    static QAtomicInt counter;
    m_savepoint = QStringLiteral("pb_sp_%1").arg(counter.fetchAndAddRelaxed(1) + 1);
    QSqlQuery q(m_db);
    m_ok = q.exec(QStringLiteral("SAVEPOINT ") + m_savepoint);
    if (!m_ok)
        m_error = q.lastError();
}

QString Transaction::errorText() const {
    if (!m_lockError.isEmpty())
        return m_lockError;
    return m_error.text().trimmed() +
           Dialect(engineOf(m_db)).adviceNote(m_error.nativeErrorCode(), pg::serverOf(m_db.driver()));
}

Status lockWriters(QSqlDatabase& db) {
    if (engineOf(db) != Engine::PostgreSQL)
        return {};
    QSqlQuery q(db);
    // The key is "proofben" in ASCII as a 64-bit number: one lock for every Proofbench writer. First
    // without waiting; when another client holds it, say who before waiting (lock_timeout applies).
    if (!q.exec(QStringLiteral("SELECT pg_try_advisory_xact_lock(8102661203842721134)")) || !q.next())
        return sqlError(q, QStringLiteral("the writers' lock"));
    if (q.value(0).toBool())
        return {};
    QString holder;
    // The same key as the server lists it: its high and low 32 bits, objsubid 1 for a bigint key.
    if (q.exec(QStringLiteral(
            "SELECT a.usename, a.pid, coalesce(extract(epoch FROM now() - a.xact_start)::bigint, 0) "
            "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = "
            "'advisory' AND l.granted AND l.classid = 1886547823 AND l.objid = 1717724526 AND "
            "l.objsubid = 1 LIMIT 1")) &&
        q.next())
        holder = QStringLiteral(" (user %1, server process %2, writing for %3 s)")
                     .arg(q.value(0).toString())
                     .arg(q.value(1).toLongLong())
                     .arg(q.value(2).toLongLong());
    reportWait(QStringLiteral("waiting for another client's write to %1 to finish%2")
                   .arg(pg::serverOf(db.driver()), holder));
    if (!q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(8102661203842721134)")))
        return sqlError(q, QStringLiteral("the writers' lock"));
    return {};
}

Transaction::~Transaction() {
    if (!m_ok || m_done)
        return;
    if (m_savepoint.isEmpty()) {
        m_db.rollback();
        return;
    }
    if (!inTransaction(m_db))
        return; // SQLite already rolled the enclosing transaction back
    QSqlQuery q(m_db);
    q.exec(QStringLiteral("ROLLBACK TO ") + m_savepoint);
    q.exec(QStringLiteral("RELEASE ") + m_savepoint);
}

bool Transaction::commit() {
    m_done = true;
    if (!m_ok)
        return false;
    if (m_savepoint.isEmpty()) {
        if (m_mode == Mode::Write && engineOf(m_db) == Engine::PostgreSQL) {
            QSqlQuery q(m_db);
            q.exec(QStringLiteral("NOTIFY proofbench_changes")); // only a view's hint: a failure is harmless
        }
        return m_db.commit();
    }
    // SQLite rolls a whole transaction back by itself on some errors (a full disk, an I/O error):
    // then there is no savepoint left to release, and nothing of this part was kept.
    if (!inTransaction(m_db))
        return false;
    QSqlQuery q(m_db);
    return q.exec(QStringLiteral("RELEASE ") + m_savepoint);
}

} // namespace pb::db
