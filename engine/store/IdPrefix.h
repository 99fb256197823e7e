// Naming a stored thing by its id or an unambiguous prefix of it, as git names commits: runs by
// their uid, imported bundles by their tree digest. One lookup, one set of refusals (too short,
// none, ambiguous with the candidates named), so every verb that takes such an id answers alike.
#pragma once

#include "core/Result.h"
#include "db/Database.h"

#include <QString>

namespace pb::store {

struct IdLookup {
    const char* table;     // e.g. "runs" (a constant of the caller, never user input)
    const char* keyColumn; // e.g. "run_uid": lower-case hex text
    QString noun;          // "run"
    QString idName;        // "run id"
    QString listVerb;      // "proofbench runs list": where the ids are shown
    int minLength = 4;
};

// The row id whose key is `text` or starts with it (case-insensitive; a leading "sha256:" is
// dropped). Errors: shorter than minLength, no such key, or a prefix of several (up to five named).
Result<qint64> findByPrefix(db::Database& db, const IdLookup& lookup, const QString& text);

} // namespace pb::store
