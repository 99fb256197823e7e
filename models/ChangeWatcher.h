// Live views (issue 32): notices what other clients commit to the window's database, so views can
// show it without a restart. On a thread of its own with a connection of its own (nothing on the
// GUI thread): on PostgreSQL it LISTENs for proofbench_changes (every Proofbench write transaction
// sends it as it commits; a poll every few seconds covers a lost notification), on SQLite it polls
// PRAGMA data_version twice a second (it changes when another connection commits). Each action
// leaves a receipt in the same transaction as its data, so the receipts appended since the last look
// say what changed and who did it; receipts the watching client wrote itself are left out (the
// window already refreshes after its own writes).
#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include <memory>

class QThread;

namespace pb::models {

// One action another client committed: its receipt.
struct ExternalChange {
    qint64 seq = 0;
    QString kind;   // "catalog.import", "evidence.import", "validation.run", ...
    QString author; // the server's login user; empty on a SQLite file
    QString message;
};

class ChangeWatcherWorker;

class ChangeWatcher : public QObject {
    Q_OBJECT
  public:
    // Starts watching `dbPath` (what Database::open takes). `pollMs`: the SQLite poll interval, and
    // a tenth of PostgreSQL's fallback poll.
    // `origin`: the client whose own receipts are not reported (ops::Async::origin()).
    ChangeWatcher(const QString& dbPath, quint64 origin, QObject* parent = nullptr, int pollMs = 500);
    ~ChangeWatcher() override; // stops the thread and closes its connection
    // Tries to reconnect now instead of at the end of the backoff.
    void retryNow();

  signals:
    // Receipts other clients appended, oldest first; on the thread that made the watcher.
    void changed(const QList<pb::models::ExternalChange>& changes);
    // The watcher could not open its connection or read (it keeps trying at the poll interval).
    void problem(const QString& text);
    // A server's connection: `up` once it is made and again after it came back; down (with why, the
    // failed attempts so far and when the next one is) when it was lost or could not be made. Tries
    // again after 1, 2, 4, 8, then every 15 s. Not emitted for a SQLite file.
    void connectionChanged(bool up, const QString& why, int attempt, int retryInMs);

  private:
    QThread* m_thread = nullptr;
    ChangeWatcherWorker* m_worker = nullptr;
};

} // namespace pb::models

Q_DECLARE_METATYPE(pb::models::ExternalChange)
