#include "core/Files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace pb {

Status writeFileAtomically(const QString& path, const QByteArray& bytes, FileAccess access) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return makeError(QStringLiteral("cannot write: %1").arg(f.errorString()), path);
    if (access == FileAccess::OwnerOnly)
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (f.write(bytes) != bytes.size() || !f.commit())
        return makeError(QStringLiteral("cannot write: %1").arg(f.errorString()), path);
    return {};
}

Result<QByteArray> readLimited(QFile& f, qint64 maxBytes, const QString& what) {
    const QString label = what.isEmpty() ? QStringLiteral("file") : what;
    auto tooLarge = [&](qint64 size) {
        return makeError(QStringLiteral("%1 is %2 bytes, over the %3-byte limit").arg(label).arg(size).arg(maxBytes), f.fileName());
    };
    if (f.size() > maxBytes)
        return tooLarge(f.size());
    QByteArray bytes = f.read(maxBytes + 1);
    if (bytes.size() > maxBytes)
        return tooLarge(bytes.size());
    return bytes;
}

Result<QByteArray> readFileLimited(const QString& path, qint64 maxBytes, const QString& what) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read: %1").arg(f.errorString()), path);
    return readLimited(f, maxBytes, what);
}

} // namespace pb
