// The real Sigstore TUF repository copy (../shared/data/sigstore/tuf) and temporary copies of it
// for tampering: each test changes one thing in its own copy, never the shared data.
#pragma once

#include "../TestUtil.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace pbtest {

inline QString tufRepo() {
    return sharedData(QStringLiteral("sigstore/tuf"));
}
// Inside every role's validity (README of the copy): timestamp v762 expires 2026-08-28.
inline QDateTime tufValidTime() {
    return QDateTime(QDate(2026, 8, 22), QTime(0, 0), Qt::UTC);
}

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile::remove(path);
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// A writable copy of the repository (224 KB) in `tmp`.
inline QString copyTufRepo(const QTemporaryDir& tmp) {
    const QString src = tufRepo(), dst = tmp.filePath(QStringLiteral("tuf"));
    QDirIterator it(src, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        const QString to = dst + QLatin1Char('/') + QDir(src).relativeFilePath(f);
        QDir().mkpath(QFileInfo(to).path());
        writeAll(to, readAll(f));
    }
    return dst;
}

inline QJsonObject readJson(const QString& path) {
    return QJsonDocument::fromJson(readAll(path)).object();
}
inline bool writeJson(const QString& path, const QJsonObject& o) {
    return writeAll(path, QJsonDocument(o).toJson());
}

} // namespace pbtest
