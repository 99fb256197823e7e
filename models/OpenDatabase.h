// Opening the window's database: a SQLite file, or a PostgreSQL server for which the password
// libpq could not find itself (~/.pgpass, PGPASSFILE, a service file) is asked for through `ask`.
// A password given is kept in this process's memory only (db::pg::rememberPassword), so the
// workspace's worker connections open too; it is never written anywhere.
#pragma once

#include "core/Result.h"
#include "db/Database.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace pb::models {

// ask(where, refusedBefore) returns the password, or nothing when the person cancelled.
using PasswordPrompt = std::function<std::optional<QString>(const QString& where, bool refusedBefore)>;

// True when opening failed only for want of a (right) password.
bool needsPassword(const Error& error);

// Opens `spec`; on a server that wants a password, asks up to three times.
Result<std::unique_ptr<db::Database>> openDatabase(const QString& spec, const PasswordPrompt& ask);

} // namespace pb::models
