#include "ChangeWatcher.h"

#include "db/Database.h"
#include "db/Postgres.h"
#include "receipts/Ledger.h"

#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QTimer>

namespace pb::models {

class ChangeWatcherWorker : public QObject {
    Q_OBJECT
  public:
    ChangeWatcherWorker(QString path, quint64 origin, int pollMs)
        : m_path(std::move(path)), m_origin(origin), m_pollMs(pollMs) {}

    // On the watcher's thread.
    void start() {
        m_timer = new QTimer(this);
        connect(m_timer, &QTimer::timeout, this, &ChangeWatcherWorker::poll);
        m_timer->start(m_pollMs);
        poll();
    }
    void stop() {
        if (m_timer)
            m_timer->stop();
        m_db.reset();
    }

  signals:
    void changed(const QList<pb::models::ExternalChange>& changes);
    void problem(const QString& text);

  private:
    // Says a problem once, not at every poll.
    void report(const QString& text) {
        if (text == m_lastProblem)
            return;
        m_lastProblem = text;
        emit problem(text);
    }

    bool connectOnce() {
        if (m_db)
            return true;
        // A file that is not there yet is waited for, not created (Database::open would make one).
        if (!db::pg::isServerSpec(m_path) && !QFileInfo::exists(m_path))
            return false;
        auto db = db::Database::open(m_path);
        if (!db) {
            report(db.error().toString());
            return false;
        }
        m_db = std::move(*db);
        QSqlQuery q(m_db->sql());
        if (!q.exec(QStringLiteral("SELECT coalesce(max(seq), 0) FROM receipts")) || !q.next()) {
            report(db::sqlError(q, QStringLiteral("receipts")).toString());
            m_db.reset();
            return false;
        }
        m_seen = q.value(0).toLongLong();
        if (m_db->engine() == db::Engine::PostgreSQL) {
            QSqlDriver* driver = m_db->sql().driver();
            connect(driver, &QSqlDriver::notification, this, [this] { scan(); });
            if (!driver->subscribeToNotification(QStringLiteral("proofbench_changes")))
                report(QStringLiteral("cannot LISTEN for changes: %1").arg(driver->lastError().text()));
            m_timer->setInterval(m_pollMs * 10); // the notification is the signal; this is the fallback
        } else {
            m_dataVersion = dataVersion();
        }
        return true;
    }

    qint64 dataVersion() {
        QSqlQuery q(m_db->sql());
        return q.exec(QStringLiteral("PRAGMA data_version")) && q.next() ? q.value(0).toLongLong() : -1;
    }

    void poll() {
        if (!connectOnce())
            return;
        if (m_db->engine() == db::Engine::SQLite) {
            const qint64 v = dataVersion();
            if (v == m_dataVersion)
                return;
            m_dataVersion = v;
        }
        scan();
    }

    void scan() {
        if (!m_db)
            return;
        QSqlQuery q(m_db->sql());
        q.prepare(
            QStringLiteral("SELECT seq, kind, written_by, message FROM receipts WHERE seq > ? ORDER BY seq "
                           "LIMIT 1000"));
        q.addBindValue(m_seen);
        if (!q.exec()) {
            const QString why = db::sqlError(q, QStringLiteral("receipts")).toString();
            m_db.reset(); // reconnect at the next poll (a server restart, a lost connection)
            report(why);
            return;
        }
        QList<ExternalChange> changes;
        while (q.next()) {
            m_seen = q.value(0).toLongLong();
            if (receipts::isOwnReceipt(m_path, m_origin, m_seen))
                continue;
            changes.append(
                ExternalChange{m_seen, q.value(1).toString(), q.value(2).toString(), q.value(3).toString()});
        }
        if (!changes.isEmpty())
            emit changed(changes);
    }

    QString m_path;
    quint64 m_origin;
    int m_pollMs;
    QTimer* m_timer = nullptr;
    std::unique_ptr<db::Database> m_db;
    qint64 m_seen = 0;
    qint64 m_dataVersion = -1;
    QString m_lastProblem;
};

ChangeWatcher::ChangeWatcher(const QString& dbPath, quint64 origin, QObject* parent, int pollMs)
    : QObject(parent) {
    qRegisterMetaType<QList<pb::models::ExternalChange>>();
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("pb-change-watcher"));
    m_worker = new ChangeWatcherWorker(dbPath, origin, pollMs);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::started, m_worker, &ChangeWatcherWorker::start);
    connect(m_worker, &ChangeWatcherWorker::changed, this, &ChangeWatcher::changed);
    connect(m_worker, &ChangeWatcherWorker::problem, this, &ChangeWatcher::problem);
    m_thread->start(QThread::LowPriority);
}

ChangeWatcher::~ChangeWatcher() {
    // Timers and the connection belong to the worker's thread: stopped there, then the thread ends.
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->stop(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
}

} // namespace pb::models

#include "ChangeWatcher.moc"
