// The database itself (CLI `db status`, `db copy`): which engine and server a --db names, how it is
// reached, and moving everything from one database to another with a proof that nothing changed.
#pragma once

#include "ops/Operation.h"

#include <QString>

#include <vector>

namespace pb::ops {

struct DatabaseStatus {
    QString engine;        // "SQLite" / "PostgreSQL"
    QString where;         // the file, or "PostgreSQL user@host:port/dbname"
    QString serverVersion; // PostgreSQL's server_version; for SQLite the library's version
    int schemaVersion = 0;
    int latestSchemaVersion = 0; // what this Proofbench writes
    // PostgreSQL: the connection's TLS as libpq reports it (a SQLite file has none).
    bool tlsInUse = false;
    bool tlsVerified = false;    // certificate checked against a CA (sslmode verify-ca / verify-full)
    bool tlsHostChecked = false; // and the host name against the certificate (verify-full)
    QString tlsProtocol, tlsCipher;
    QString user; // PostgreSQL: the session's user; SQLite: empty
    // The team role (db/Team.h Access::describe()): "engineer (proofbench_engineer)", "owner".
    QString role;
    bool replica = false; // a hot standby: reads only
    qint64 sizeBytes = 0; // pg_database_size, or the file with its write-ahead log
};

// Reads only: leaves no receipt.
Result<DatabaseStatus> databaseStatus(const Context& ctx);
// The same for a PostgreSQL server that is not open yet (the window's Test Connection): connects with
// the spec (db::Database::connectOnly: the schema is neither created nor migrated), reads, closes.
// schemaVersion is 0 when the database has no Proofbench schema yet.
Result<DatabaseStatus> testConnection(const QString& spec);

// `db init-team`: the three team roles and their grants on this PostgreSQL database, and each
// member's role (db::initTeam), with a db.init-team receipt in the same transaction.
struct InitTeamRequest {
    std::vector<db::TeamMember> members;
};
Result<receipts::Receipt> initTeam(const Context& ctx, const InitTeamRequest& request);

struct TableProof {
    QString table;
    qint64 rows = 0;
    QString sha256; // over every row in key order, each value encoded by its column's declared type
};

struct DatabaseCopyRequest {
    QString from; // --db specs: file paths or PostgreSQL URIs
    QString to;
};

struct DatabaseCopyOutcome {
    QString fromWhere, toWhere;
    std::vector<TableProof> tables; // equal on both sides, or the copy was rolled back
    qint64 rows = 0;
    qint64 receipts = 0;
    QString ledgerHead; // the receipts chain's head hash, the same on both sides and verified on the target
};

// Copies every row of every table from `from` into `to` (which must hold no rows), in one
// transaction on the target, then proves the copy before committing: row counts and a content digest
// per table equal on both sides, and the receipts chain verifying on the target with the source's
// head. Any difference rolls the whole copy back. It writes no receipt: the target's ledger is the
// source's, link for link.
Result<DatabaseCopyOutcome> copyDatabase(const DatabaseCopyRequest& request, const ProgressFn& progress = {},
                                         const std::atomic_bool* cancel = nullptr);

} // namespace pb::ops
