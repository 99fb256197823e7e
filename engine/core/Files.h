// Writing a file all at once or not at all (QSaveFile: a temporary, renamed on commit), creating its
// folder; a crash or a full disk never leaves half a key, bundle or checksum list behind.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QString>

namespace pb {

enum class FileAccess { Normal, OwnerOnly }; // OwnerOnly: mode 0600, for private keys

Status writeFileAtomically(const QString& path, const QByteArray& bytes, FileAccess access = FileAccess::Normal);

} // namespace pb
