// The window's handle on its database: where it is, and the one way to reach it. Every read and
// write a view or a model triggers runs as fn(const ops::Context&) -> Result<T> on a worker thread
// (ops::Async: a connection of the job's own), and its Result comes back on the receiver's thread.
// Nothing touches the database on the GUI thread (tests/gui/tst_guithreaddb holds the window to
// that). After a write (run()) succeeds, changed() tells every view to refresh. Views reach it
// through widgets/common/OpRunner.h, which adds the progress dialog, Cancel and the error box.
#pragma once

#include "ChangeWatcher.h"
#include "ops/Async.h"

#include <QFutureWatcher>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <utility>

namespace pb::models {

using ProgressSink = std::function<void(const ops::Progress&)>;

// A job started by Workspace::read/run: cancel it, or ask whether its result is still to come.
class Task {
  public:
    Task() = default;
    void cancel() const {
        if (m_cancel)
            m_cancel->store(true);
    }
    // True until its result was delivered (or its receiver went away).
    bool running() const { return m_state && !m_state->delivered && m_state->receiver; }
    // True once cancel() was called (the job stops at its next check).
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    const std::shared_ptr<std::atomic_bool>& cancelFlag() const { return m_cancel; }

  private:
    friend class Workspace;
    struct State {
        QPointer<QObject> receiver;
        bool delivered = false;
    };
    std::shared_ptr<std::atomic_bool> m_cancel;
    std::shared_ptr<State> m_state;
};

class Workspace : public QObject {
    Q_OBJECT
  public:
    // `dbPath`: the database (already created and migrated by whoever opened it first).
    explicit Workspace(QString dbPath, QObject* parent = nullptr, int maxThreads = 4);
    ~Workspace() override; // waits for running jobs

    const QString& path() const { return m_async.dbPath(); }
    // The path as the status bar shows it.
    QString displayName() const;
    // For operations that take the pool themselves; prefer read()/run().
    ops::Async& async() { return m_async; }

    // Starts fn on a worker; progress(ops::Progress) and then done(Result<T>) are called on
    // `receiver`'s thread, never after `receiver` is gone. done gets the result as an rvalue
    // (take it by value or by const reference).
    template <typename T, typename Fn, typename Done>
    Task read(QObject* receiver, Fn fn, Done done, ProgressSink progress = {}) {
        return start<T>(receiver, std::move(fn), std::move(done), std::move(progress), false);
    }
    // As read(), for work that writes: after a successful result was delivered, changed().
    template <typename T, typename Fn, typename Done>
    Task run(QObject* receiver, Fn fn, Done done, ProgressSink progress = {}) {
        return start<T>(receiver, std::move(fn), std::move(done), std::move(progress), true);
    }

    // Tries to reconnect at once (the banner's Reconnect Now).
    void reconnectNow();

    // Blocks until every job has finished (results still arrive through the event loop).
    void waitForDone() { m_async.waitForDone(); }
    // Jobs started and not yet delivered.
    int pending() const { return m_pending; }

  signals:
    // A write went through: views re-read what they show.
    void changed();
    // Another client (another process: a CLI job, a colleague's window) committed these actions;
    // views showing what they touched re-read it, keeping their selection (ChangeWatcher.h).
    void changedElsewhere(const QList<pb::models::ExternalChange>& changes);
    // pending() changed.
    void busyChanged(int pending);
    // A server's connection was lost or came back (ChangeWatcher::connectionChanged): the window's
    // banner. Jobs started while it is down fail with the connection's error.
    void connectionChanged(bool up, const QString& why, int attempt, int retryInMs);

  private:
    template <typename T, typename Fn, typename Done>
    Task start(QObject* receiver, Fn fn, Done done, ProgressSink progress, bool writes);
    void jobStarted();
    void jobEnded(bool wrote);

    ops::Async m_async;
    ChangeWatcher* m_watcher = nullptr;
    int m_pending = 0;
};

template <typename T, typename Fn, typename Done>
Task Workspace::start(QObject* receiver, Fn fn, Done done, ProgressSink progress, bool writes) {
    Task task;
    task.m_state = std::make_shared<Task::State>();
    task.m_state->receiver = receiver;
    QPointer<QObject> guard(receiver);
    ops::ProgressFn queued;
    if (progress) {
        queued = [guard, progress](const ops::Progress& p) {
            if (QObject* o = guard.data())
                QMetaObject::invokeMethod(
                    o,
                    [guard, progress, p] {
                        if (guard)
                            progress(p);
                    },
                    Qt::QueuedConnection);
        };
    }
    ops::Job<T> job = m_async.run<T>(std::move(fn), std::move(queued));
    task.m_cancel = job.cancelFlag;
    auto* watcher = new QFutureWatcher<Result<T>>(receiver);
    jobStarted();
    // The watcher dies with its receiver: then nothing is delivered, and the job still counts down.
    QPointer<Workspace> self(this);
    auto state = task.m_state;
    auto ended = std::make_shared<bool>(false);
    auto end = [self, ended](bool wrote) {
        if (*ended)
            return;
        *ended = true;
        if (self)
            self->jobEnded(wrote);
    };
    QObject::connect(watcher, &QObject::destroyed, this, [end] { end(false); });
    QObject::connect(watcher, &QFutureWatcherBase::finished, receiver, [watcher, state, done, writes, end] {
        QFuture<Result<T>> future = watcher->future();
        Result<T> result = future.resultCount() > 0
                               ? future.takeResult() // moved, not copied: large reads
                               : Result<T>(makeError(QStringLiteral("the operation did not finish")));
        watcher->deleteLater();
        state->delivered = true;
        const bool ok = bool(result);
        done(std::move(result));
        end(writes && ok);
    });
    watcher->setFuture(job.future);
    return task;
}

} // namespace pb::models
