// File-system helpers for tests and benchmarks (no Qt Test dependency: the benchmarks use it too).
#pragma once

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QString>

namespace pbtest {

// Copies the folder `from` into `to` (created), sub-folders, hidden and empty ones included.
inline bool copyTree(const QString& from, const QString& to) {
    if (!QDir().mkpath(to))
        return false;
    QDirIterator it(from, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString src = it.next();
        const QString dst = to + QLatin1Char('/') + QDir(from).relativeFilePath(src);
        if (it.fileInfo().isDir() ? !QDir().mkpath(dst) : !QFile::copy(src, dst))
            return false;
    }
    return true;
}

} // namespace pbtest
