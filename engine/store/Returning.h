// The id of a row just inserted, the same way on both engines: `INSERT … RETURNING id`, read from the
// statement itself. QSqlQuery::lastInsertId() is `SELECT lastval()` on PostgreSQL (the last sequence
// value drawn anywhere in the session: a trigger's row, or a stale value).
#pragma once

#include "db/Database.h"

#include <QSqlQuery>

namespace pb::store {

// Executes `q`, a prepared INSERT … RETURNING id with its values bound, and returns the new id.
// The statement is reset afterwards: on SQLite an INSERT … RETURNING left unreset keeps the
// statement in progress, and COMMIT or RELEASE then fails ("SQL statements in progress").
inline Result<qint64> execReturningId(QSqlQuery& q, const QString& what) {
    if (!q.exec() || !q.next())
        return db::sqlError(q, what);
    const qint64 id = q.value(0).toLongLong();
    q.finish();
    return id;
}

} // namespace pb::store
