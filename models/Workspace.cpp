#include "Workspace.h"

#include "db/Database.h"

#include <QDir>

namespace pb::models {

Workspace::Workspace(QString dbPath, QObject* parent, int maxThreads)
    : QObject(parent), m_async(std::move(dbPath), maxThreads) {
    m_watcher = new ChangeWatcher(m_async.dbPath(), m_async.origin(), this);
    connect(m_watcher, &ChangeWatcher::changed, this, &Workspace::changedElsewhere);
    connect(m_watcher, &ChangeWatcher::connectionChanged, this, &Workspace::connectionChanged);
}

Workspace::~Workspace() {
    m_async.waitForDone();
}

void Workspace::reconnectNow() {
    m_watcher->retryNow();
}

QString Workspace::displayName() const {
    return db::Database::describe(path());
}

void Workspace::jobStarted() {
    ++m_pending;
    emit busyChanged(m_pending);
}

void Workspace::jobEnded(bool wrote) {
    --m_pending;
    emit busyChanged(m_pending);
    if (wrote)
        emit changed();
}

} // namespace pb::models
