// Writing a file all at once or not at all (QSaveFile: a temporary, renamed on commit), creating its
// folder; a crash or a full disk never leaves half a key, bundle or checksum list behind.
#pragma once

#include <functional>

#include "core/Result.h"

#include <QByteArray>
#include <QFile>
#include <QString>

namespace pb {

enum class FileAccess { Normal, OwnerOnly }; // OwnerOnly: mode 0600, for private keys

Status writeFileAtomically(const QString& path, const QByteArray& bytes,
                           FileAccess access = FileAccess::Normal);

// Where a function that produces files writes them: by default writeFileAtomically; the operations
// layer passes one that stages the files so they land together with their receipt (ops::StagedFiles).
using FileWriter = std::function<Status(const QString& path, const QByteArray& bytes, FileAccess access)>;
FileWriter atomicFileWriter();

// Input files are read whole only up to a limit: a file over it is a clear error naming the file, its
// size and the limit, never an out-of-memory. Pipes and /proc files (size 0) are read up to the limit.
namespace limits {
constexpr qint64 kSmallFile = 1ll * 1024 * 1024; // tokens, certificates, pointers
constexpr qint64 kConfigFile =
    16ll * 1024 * 1024; // kubeconfig, docker config, trusted roots, allowlists, index.json
constexpr qint64 kDocumentFile = 64ll * 1024 * 1024; // checksums lists, record payloads, attestations
} // namespace limits

// Every input file Proofbench reads is opened through openInputFile: the path is opened NON-BLOCKING
// (O_RDONLY | O_NONBLOCK | O_CLOEXEC), fstat'ed, and refused unless it is a regular file. A named pipe,
// socket or device never blocks the process in open() or read(); it, or a directory where a file is
// expected, is an Error naming the file and the reason ("is a named pipe (FIFO), not a regular file").
// `file` must carry the path (QFile f(path)); on success it is open read-only from that descriptor
// (blocking again, which makes no difference for a regular file). Qt forgets the name of a file opened
// from a descriptor, so fileName() is then EMPTY: name the file with the path you gave, or
// inputFileName(file).
Status openInputFile(QFile& file, const QString& what = {});
QString inputFileName(const QFile& file); // fileName(), or the path openInputFile opened

// The whole of a regular file, up to maxBytes: openInputFile + readLimited.
Result<QByteArray> readFileLimited(const QString& path, qint64 maxBytes, const QString& what = {});
// Reads an already open device up to maxBytes. Opening is the caller's business: use openInputFile
// (or readFileLimited) for anything named by a user or found in an input tree.
Result<QByteArray> readLimited(QFile& openFile, qint64 maxBytes, const QString& what = {});

// What a directory entry is, without following a symbolic link (lstat): "a regular file",
// "a directory", "a symbolic link", "a named pipe (FIFO)", "a socket", "a character device",
// "a block device", "missing" (or "unreadable: <reason>"). For tree walks that must say, by name,
// which entries they skip.
QString describeFileType(const QString& path);
bool isRegularFileNoFollow(const QString& path);

} // namespace pb
