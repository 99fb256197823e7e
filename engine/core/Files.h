// Writing a file all at once or not at all (QSaveFile: a temporary, renamed on commit), creating its
// folder; a crash or a full disk never leaves half a key, bundle or checksum list behind.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QFile>
#include <QString>

namespace pb {

enum class FileAccess { Normal, OwnerOnly }; // OwnerOnly: mode 0600, for private keys

Status writeFileAtomically(const QString& path, const QByteArray& bytes, FileAccess access = FileAccess::Normal);

// Input files are read whole only up to a limit: a file over it is a clear error naming the file, its
// size and the limit, never an out-of-memory. Pipes and /proc files (size 0) are read up to the limit.
namespace limits {
constexpr qint64 kSmallFile = 1ll * 1024 * 1024;      // tokens, certificates, pointers
constexpr qint64 kConfigFile = 16ll * 1024 * 1024;    // kubeconfig, docker config, trusted roots, allowlists, index.json
constexpr qint64 kDocumentFile = 64ll * 1024 * 1024;  // checksums lists, record payloads, attestations
} // namespace limits

Result<QByteArray> readFileLimited(const QString& path, qint64 maxBytes, const QString& what = {});
Result<QByteArray> readLimited(QFile& openFile, qint64 maxBytes, const QString& what = {});

} // namespace pb
