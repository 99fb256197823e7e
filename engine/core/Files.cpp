#include "core/Files.h"

#include <QDir>
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

} // namespace pb
