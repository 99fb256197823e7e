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
    // Read in chunks, not read(maxBytes + 1): that allocates (and the allocator touches) the whole
    // limit for every small file. A file that grows while read, or a device with no size, still
    // stops at the limit.
    QByteArray bytes;
    if (!f.isSequential())
        bytes.reserve(qMin(f.size(), maxBytes) + 1);
    char chunk[64 * 1024];
    for (;;) {
        const qint64 n = f.read(chunk, qint64(sizeof chunk));
        if (n < 0)
            return makeError(QStringLiteral("cannot read %1: %2").arg(label, f.errorString()), f.fileName());
        if (n == 0)
            break;
        bytes.append(chunk, n);
        if (bytes.size() > maxBytes)
            return tooLarge(bytes.size());
    }
    return bytes;
}

Result<QByteArray> readFileLimited(const QString& path, qint64 maxBytes, const QString& what) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read: %1").arg(f.errorString()), path);
    return readLimited(f, maxBytes, what);
}

} // namespace pb
