// The window's view of team roles (engine/db/Team.h): who the connection is, its role, and what the
// role may not do, for views to show and disable. Plain records from the engine, named here so that
// widgets reach them through models/.
#pragma once

#include "db/Database.h"
#include "db/Team.h"

#include <QMetaObject>
#include <QPointer>

#include <functional>

namespace pb::models {

using TeamAccess = db::Access;
using TeamRole = db::TeamRole;
using Capability = db::Capability;

// Empty when the role may take the action; otherwise the reason ("role proofbench_auditor may not
// import catalogs …").
inline QString refusal(const TeamAccess& access, Capability c) {
    return db::refusal(access, c);
}

// Shows each wait of a write for another client's (db::setWaitObserver, called on a worker) through
// `show` on `receiver`'s thread; nothing once `receiver` is gone. One for the process: the newest wins.
inline void showWriteWaits(QObject* receiver, std::function<void(const QString&)> show) {
    QPointer<QObject> guard(receiver);
    db::setWaitObserver([guard, show = std::move(show)](const QString& what) {
        if (QObject* r = guard.data())
            QMetaObject::invokeMethod(
                r,
                [guard, show, what] {
                    if (guard)
                        show(what);
                },
                Qt::QueuedConnection);
    });
}

} // namespace pb::models
