#include "Workspace.h"

#include <QDir>

namespace pb::models {

Workspace::Workspace(QString dbPath, QObject* parent, int maxThreads)
    : QObject(parent), m_async(std::move(dbPath), maxThreads) {}

Workspace::~Workspace() {
    m_async.waitForDone();
}

QString Workspace::displayName() const {
    return QDir::toNativeSeparators(path());
}

db::Database& Workspace::legacyDatabase() {
    if (!m_legacy) {
        Result<std::unique_ptr<db::Database>> db = db::Database::open(path());
        if (!db)
            qFatal("cannot open the database %s: %s", qPrintable(path()), qPrintable(db.error().toString()));
        m_legacy = std::move(*db);
    }
    return *m_legacy;
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
