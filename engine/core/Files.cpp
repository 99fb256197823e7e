#include "core/Files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

QString inputFileName(const QFile& f) {
    return f.fileName().isEmpty() ? f.objectName() : f.fileName();
}

Result<QByteArray> readLimited(QFile& f, qint64 maxBytes, const QString& what) {
    const QString name = inputFileName(f);
    const QString label = what.isEmpty() ? QStringLiteral("file") : what;
    auto tooLarge = [&](qint64 size) {
        return makeError(
            QStringLiteral("%1 is %2 bytes, over the %3-byte limit").arg(label).arg(size).arg(maxBytes),
            name);
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
            return makeError(QStringLiteral("cannot read %1: %2").arg(label, f.errorString()), name);
        if (n == 0)
            break;
        bytes.append(chunk, n);
        if (bytes.size() > maxBytes)
            return tooLarge(bytes.size());
    }
    return bytes;
}

namespace {

QString typeName(mode_t mode) {
    if (S_ISREG(mode))
        return QStringLiteral("a regular file");
    if (S_ISDIR(mode))
        return QStringLiteral("a directory");
    if (S_ISLNK(mode))
        return QStringLiteral("a symbolic link");
    if (S_ISFIFO(mode))
        return QStringLiteral("a named pipe (FIFO)");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    if (S_ISCHR(mode))
        return QStringLiteral("a character device");
    if (S_ISBLK(mode))
        return QStringLiteral("a block device");
    return QStringLiteral("not a regular file");
}

QString errnoText(int err) {
    return QString::fromLocal8Bit(std::strerror(err));
}

} // namespace

Status openInputFile(QFile& file, const QString& what) {
    const QString path = file.fileName();
    const QString label = what.isEmpty() ? QStringLiteral("file") : what;
    if (path.isEmpty())
        return makeError(QStringLiteral("cannot read %1: no file name")
                             .arg(what.isEmpty() ? QStringLiteral("file") : what));
    if (file.isOpen())
        file.close();
    // Qt resources (":/recipes/...") are compiled in: never a pipe or a device.
    if (path.startsWith(QLatin1Char(':')) || path.startsWith(QLatin1String("qrc:"))) {
        if (!file.open(QIODevice::ReadOnly))
            return makeError(QStringLiteral("cannot read %1: %2").arg(label, file.errorString()), path);
        return {};
    }
    const QByteArray native = QFile::encodeName(path);
    int fd;
    do
        fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return makeError(QStringLiteral("cannot read %1: %2").arg(label, errnoText(errno)), path);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        return makeError(QStringLiteral("cannot read %1: %2").arg(label, errnoText(err)), path);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return makeError(QStringLiteral("%1 is %2, not a regular file").arg(label, typeName(st.st_mode)),
                         path);
    }
    // A regular file: reads never block, so the descriptor goes back to ordinary (blocking) mode.
    if (const int flags = ::fcntl(fd, F_GETFL); flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return makeError(QStringLiteral("cannot read %1: %2").arg(label, file.errorString()), path);
    }
    // QFile forgets the name of a file opened from a descriptor; keep it for errors (inputFileName).
    file.setObjectName(path);
    return {};
}

Result<QByteArray> readFileLimited(const QString& path, qint64 maxBytes, const QString& what) {
    QFile f(path);
    if (Status opened = openInputFile(f, what); !opened)
        return opened.error();
    return readLimited(f, maxBytes, what);
}

QString describeFileType(const QString& path) {
    struct stat st {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return errno == ENOENT ? QStringLiteral("missing")
                               : QStringLiteral("unreadable: %1").arg(errnoText(errno));
    return typeName(st.st_mode);
}

bool isRegularFileNoFollow(const QString& path) {
    struct stat st {};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISREG(st.st_mode);
}

FileWriter atomicFileWriter() {
    return [](const QString& path, const QByteArray& bytes, FileAccess access) {
        return writeFileAtomically(path, bytes, access);
    };
}

} // namespace pb
