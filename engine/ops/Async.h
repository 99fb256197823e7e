// The window's front on the operations layer: runs an operation on a worker thread with its own
// database connection and hands back a future. Progress goes to the `progress` callback given to
// run() (called on the worker thread: queue it to the GUI thread, as widgets/common/OpRunner.h
// does), and also to the future (QFutureWatcher::progressValueChanged, per mille of Progress::total,
// which Qt reports only when it grows); cancel through Job::cancel(). Widgets never open a database
// or construct a store themselves.
#pragma once

#include "db/Database.h"
#include "db/Postgres.h"
#include "ops/Operation.h"

#include <QFuture>
#include <QPromise>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <memory>

namespace pb::ops {

template <typename T> struct Job {
    QFuture<Result<T>> future;
    std::shared_ptr<std::atomic_bool> cancelFlag = std::make_shared<std::atomic_bool>(false);
    void cancel() const { cancelFlag->store(true); }
};

class Async {
  public:
    // `dbPath`: the database every job connects to (a connection of its own, on its thread).
    explicit Async(QString dbPath, int maxThreads = 4);
    ~Async(); // waits for running jobs
    Async(const Async&) = delete;
    Async& operator=(const Async&) = delete;

    const QString& dbPath() const { return m_dbPath; }
    // Tags every job's connection (db::Database::setOrigin): unique in the process.
    quint64 origin() const { return m_origin; }
    QThreadPool& pool() { return m_pool; }

    // Runs fn(Context&) -> Result<T> on a worker thread.
    template <typename T, typename Fn> Job<T> run(Fn fn, ProgressFn progress = {});

    void waitForDone() { m_pool.waitForDone(); }

  private:
    QString m_dbPath;
    quint64 m_origin;
    QThreadPool m_pool;
};

template <typename T, typename Fn> Job<T> Async::run(Fn fn, ProgressFn onProgress) {
    Job<T> job;
    auto flag = job.cancelFlag;
    job.future = QtConcurrent::run(&m_pool, [path = m_dbPath, origin = m_origin, fn = std::move(fn), flag,
                                             onProgress](QPromise<Result<T>>& promise) mutable {
        [&] {
            auto db = db::Database::open(path);
            if (!db) {
                promise.addResult(Result<T>(db.error()));
                return;
            }
            (*db)->setOrigin(origin);
            promise.setProgressRange(0, 1000);
            ProgressFn progress = [&promise, onProgress](const Progress& p) {
                const int value = p.total > 0 ? int(std::clamp<qint64>(p.done * 1000 / p.total, 0, 1000)) : 0;
                promise.setProgressValueAndText(value, p.what);
                if (onProgress)
                    onProgress(p);
            };
            Context ctx(**db, progress, flag.get());
            promise.addResult(fn(ctx));
        }();
        // The pool's threads end with the workspace: a server connection's TLS errors go with the job.
        if (db::pg::isServerSpec(path))
            db::pg::endThread();
    });
    return job;
}

} // namespace pb::ops
