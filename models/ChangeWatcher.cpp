#include "ChangeWatcher.h"

#include "db/Database.h"
#include "db/Postgres.h"
#include "receipts/Ledger.h"

#include <algorithm>

#include <QDateTime>
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
        : m_path(std::move(path)), m_origin(origin), m_pollMs(pollMs),
          m_server(db::pg::isServerSpec(m_path)) {}

    // On the watcher's thread.
    void start() {
        m_timer = new QTimer(this);
        connect(m_timer, &QTimer::timeout, this, &ChangeWatcherWorker::tick);
        m_timer->start(m_server ? kCheckMs : m_pollMs);
        poll();
    }
    void stop() {
        if (m_timer)
            m_timer->stop();
        m_db.reset();
        db::pg::endThread(); // the thread ends next: a cut TLS connection left errors in its queue
    }
    // The next reconnection attempt now, not at the end of its backoff.
    void retryNow() {
        if (m_db)
            return;
        m_nextTry = 0;
        poll();
    }

  signals:
    void changed(const QList<pb::models::ExternalChange>& changes);
    void problem(const QString& text);
    void connectionChanged(bool up, const QString& why, int attempt, int retryInMs);

  private:
    // A server connection is checked this often (a local look at libpq's state: no traffic).
    static constexpr int kCheckMs = 1000;
    static constexpr int kMaxBackoffMs = 15000;

    // Says a problem once, not at every poll.
    void report(const QString& text) {
        if (text == m_lastProblem)
            return;
        m_lastProblem = text;
        emit problem(text);
    }

    // The server connection failed (or could not be made): back off, say so.
    void lost(const QString& why) {
        m_db.reset();
        if (!m_server) {
            report(why);
            return;
        }
        ++m_attempt;
        const int wait = std::min(kMaxBackoffMs, 1000 << std::min(m_attempt - 1, 4));
        m_nextTry = QDateTime::currentMSecsSinceEpoch() + wait;
        emit connectionChanged(false, why, m_attempt, wait);
    }

    bool connectOnce() {
        if (m_db)
            return true;
        // A file that is not there yet is waited for, not created (Database::open would make one).
        if (!m_server && !QFileInfo::exists(m_path))
            return false;
        if (m_server && QDateTime::currentMSecsSinceEpoch() < m_nextTry)
            return false;
        auto db = db::Database::open(m_path);
        if (!db) {
            lost(db.error().toString());
            return false;
        }
        m_db = std::move(*db);
        QSqlQuery q(m_db->sql());
        if (!q.exec(QStringLiteral("SELECT coalesce(max(seq), 0) FROM receipts")) || !q.next()) {
            lost(db::sqlError(q, QStringLiteral("receipts")).toString());
            return false;
        }
        // After a reconnection the receipts written meanwhile are reported, not skipped.
        if (m_seen < 0)
            m_seen = q.value(0).toLongLong();
        m_ticks = 0;
        if (m_db->engine() == db::Engine::PostgreSQL) {
            m_replica = m_db->access().replica;
            // A hot standby cannot LISTEN (and NOTIFY is not replicated): it is polled instead.
            if (!m_replica) {
                QSqlDriver* driver = m_db->sql().driver();
                connect(driver, &QSqlDriver::notification, this, [this] { scan(); });
                if (!driver->subscribeToNotification(QStringLiteral("proofbench_changes")))
                    report(QStringLiteral("cannot LISTEN for changes: %1").arg(driver->lastError().text()));
            }
            if (m_attempt > 0 || !m_announced) {
                m_attempt = 0;
                m_announced = true;
                emit connectionChanged(true, QString(), 0, 0);
            }
        } else {
            m_dataVersion = dataVersion();
        }
        return true;
    }

    qint64 dataVersion() {
        QSqlQuery q(m_db->sql());
        return q.exec(QStringLiteral("PRAGMA data_version")) && q.next() ? q.value(0).toLongLong() : -1;
    }

    // A server connection that libpq has found closed (Qt's driver reads its socket as data comes).
    bool connectionBroken() const { return m_db && db::pg::connectionBroken(m_db->sql()); }

    void tick() {
        if (!m_server) {
            poll();
            return;
        }
        if (m_db && connectionBroken()) {
            lost(QStringLiteral("The server closed the connection."));
            return;
        }
        // LISTEN brings changes as they commit: a scan every tenth poll interval covers a lost one; a
        // replica (no LISTEN) is scanned every other second.
        ++m_ticks;
        const int every = m_replica ? 2 : std::max(1, m_pollMs * 10 / kCheckMs);
        if (!m_db || m_ticks % every == 0)
            poll();
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
            // Reconnect (a server restart, a lost connection): at once for a file, with backoff for a server.
            lost(db::sqlError(q, QStringLiteral("receipts")).toString());
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
    bool m_server;
    bool m_replica = false;
    bool m_announced = false;
    QTimer* m_timer = nullptr;
    std::unique_ptr<db::Database> m_db;
    qint64 m_seen = -1;
    qint64 m_dataVersion = -1;
    int m_ticks = 0;
    int m_attempt = 0;    // failed connection attempts since the last success
    qint64 m_nextTry = 0; // ms since the epoch
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
    connect(m_worker, &ChangeWatcherWorker::connectionChanged, this, &ChangeWatcher::connectionChanged);
    m_thread->start(QThread::LowPriority);
}

void ChangeWatcher::retryNow() {
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->retryNow(); }, Qt::QueuedConnection);
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
