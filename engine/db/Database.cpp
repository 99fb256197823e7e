#include "db/Database.h"
#include "db/GuiThreadGuard.h"

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

std::map<int, QString> migrationFiles() {
    std::map<int, QString> out;
    const QDir dir(QStringLiteral(":/migrations"));
    static const QRegularExpression re(QStringLiteral("^(\\d+)_.*\\.sql$"));
    for (const QString& name : dir.entryList(QDir::Files, QDir::Name)) {
        const auto m = re.match(name);
        if (m.hasMatch())
            out[m.captured(1).toInt()] = dir.filePath(name);
    }
    return out;
}

QStringList splitStatements(const QString& sql) {
    QStringList out;
    QString current;
    for (const QString& line : sql.split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        if (trimmed.startsWith(QLatin1String("--")))
            continue;
        current += line + QLatin1Char('\n');
        if (trimmed.endsWith(QLatin1Char(';'))) {
            out << current.trimmed();
            current.clear();
        }
    }
    if (!current.trimmed().isEmpty())
        out << current.trimmed();
    return out;
}

} // namespace

void setGuiThreadObserver(GuiThreadObserver observer) {
    const std::lock_guard lock(g_observerMutex);
    g_observing.store(bool(observer));
    g_observer = std::move(observer);
}

QVariant nullable(const QString& s) {
    return s.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(s);
}

Error sqlError(const QSqlQuery& q, const QString& what) {
    return makeError(QStringLiteral("%1: %2").arg(what, q.lastError().text()));
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

int Database::latestSchemaVersion() {
    const auto files = migrationFiles();
    return files.empty() ? 0 : files.rbegin()->first;
}

Result<std::unique_ptr<Database>> Database::open(const QString& path) {
    observe(QStringLiteral("-- open %1").arg(path));
    const QFileInfo fi(path);
    if (!fi.absoluteDir().exists() && !QDir().mkpath(fi.absolutePath()))
        return makeError(QStringLiteral("cannot create the database folder"), fi.absolutePath());
    std::unique_ptr<Database> db(new Database);
    db->m_path = fi.absoluteFilePath();
    db->m_connection = QStringLiteral("pb-%1").arg(g_connectionCounter.fetchAndAddRelaxed(1));
    db->m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), db->m_connection);
    db->m_db.setDatabaseName(db->m_path);
    db->m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
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
    if (Status s = db->migrate(); !s) {
        Error e = s.error();
        e.file = path;
        return e;
    }
    return db;
}

Result<std::unique_ptr<Database>> Database::openSibling() const {
    return open(m_path);
}

int Database::schemaVersion() const {
    QSqlQuery q(m_db);
    if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
        return q.value(0).toInt();
    return -1;
}

Status Database::migrate() {
    const int current = schemaVersion();
    const auto files = migrationFiles();
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
    if (!m_db.transaction())
        return makeError(QStringLiteral("cannot start migrations: %1").arg(m_db.lastError().text()), m_path);
    QSqlQuery q(m_db);
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
    sqlite3* h = sqliteHandle(db);
    return h && sqlite3_get_autocommit(h) == 0;
}

Transaction::Transaction(QSqlDatabase& db) : m_db(db) {
    observe(QStringLiteral("BEGIN -- %1").arg(db.databaseName()));
    if (!inTransaction(m_db)) {
        m_ok = m_db.transaction();
        return;
    }
    static QAtomicInt counter;
    m_savepoint = QStringLiteral("pb_sp_%1").arg(counter.fetchAndAddRelaxed(1) + 1);
    QSqlQuery q(m_db);
    m_ok = q.exec(QStringLiteral("SAVEPOINT ") + m_savepoint);
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
    if (m_savepoint.isEmpty())
        return m_db.commit();
    // SQLite rolls a whole transaction back by itself on some errors (a full disk, an I/O error):
    // then there is no savepoint left to release, and nothing of this part was kept.
    if (!inTransaction(m_db))
        return false;
    QSqlQuery q(m_db);
    return q.exec(QStringLiteral("RELEASE ") + m_savepoint);
}

} // namespace pb::db
