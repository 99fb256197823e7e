#include "OpenDatabase.h"

#include "db/Postgres.h"

namespace pb::models {

bool needsPassword(const Error& error) {
    return error.message.contains(QLatin1String("no password supplied")) ||
           error.message.contains(QLatin1String("password authentication failed"));
}

Result<std::unique_ptr<db::Database>> openDatabase(const QString& spec, const PasswordPrompt& ask) {
    Result<std::unique_ptr<db::Database>> db = db::Database::open(spec);
    if (db || !ask || !db::pg::isServerSpec(spec))
        return db;
    Result<db::pg::ServerSpec> parsed = db::pg::parseServerSpec(spec);
    if (!parsed)
        return db;
    for (int attempt = 0; attempt < 3 && !db && needsPassword(db.error()); ++attempt) {
        const std::optional<QString> password = ask(parsed->display(), attempt > 0);
        if (!password)
            break;
        db::pg::rememberPassword(parsed->canonical(), *password);
        db = db::Database::open(spec);
    }
    return db;
}

} // namespace pb::models
