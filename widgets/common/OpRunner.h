// How a view runs an operation (engine/ops) off the GUI thread: through ops::Async (a database
// connection of the job's own), with progress and the Result back on the view's thread. Views never
// open a database or construct a store themselves.
#pragma once

#include "ops/Async.h"

#include <QFutureWatcher>
#include <QMetaObject>
#include <QObject>
#include <QPointer>

#include <memory>

namespace pb::widgets {

// Starts fn(const ops::Context&) -> Result<T> on `async`. While it runs, `running` holds its watcher;
// progress(ops::Progress) and then finished(Result<T>) are called on `owner`'s thread. Returns the
// job's cancel flag.
template <typename T, typename Fn, typename OnProgress, typename OnFinished>
std::shared_ptr<std::atomic_bool> runOperation(QObject* owner, QFutureWatcherBase*& running, ops::Async& async, Fn fn,
                                               OnProgress progress, OnFinished finished) {
    QPointer<QObject> guard(owner);
    ops::ProgressFn queued = [guard, progress](const ops::Progress& p) {
        if (QObject* o = guard.data())
            QMetaObject::invokeMethod(
                o,
                [guard, progress, p] {
                    if (guard)
                        progress(p);
                },
                Qt::QueuedConnection);
    };
    ops::Job<T> job = async.run<T>(std::move(fn), queued);
    auto* watcher = new QFutureWatcher<Result<T>>(owner);
    running = watcher;
    QObject::connect(watcher, &QFutureWatcherBase::finished, owner, [watcher, &running, finished] {
        const Result<T> result = watcher->future().resultCount() > 0
                                     ? watcher->result()
                                     : Result<T>(makeError(QStringLiteral("the operation did not finish")));
        watcher->deleteLater();
        running = nullptr;
        finished(result);
    });
    watcher->setFuture(job.future);
    return job.cancelFlag;
}

} // namespace pb::widgets
