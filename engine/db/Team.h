// A team on one PostgreSQL database (issue 32): three roles the server enforces, and what the app
// learns of them when it connects.
//
// `db init-team` (run by the database's owner) creates the group roles and their grants:
//   proofbench_auditor   reads everything, writes nothing;
//   proofbench_engineer  the auditor's reads, plus imports (catalogs, evidence, runs, records,
//                        deployment bundles), validation runs, stored verifications, receipts;
//   proofbench_release   the engineer's rights, plus signing keys, kept release signatures and
//                        trusted roots (the TUF state with them).
// Each role is a member of the one before it. People log in as their own users, members of one of the
// three; the server refuses whatever a role may not do, whichever client sends it. The client checks
// the same table first (allows()), so an action a role cannot take is refused before any work, with
// the reason, and disabled in the window.
#pragma once

#include "core/Result.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace pb::db {

class Database;

enum class TeamRole {
    Local,      // a SQLite file: no roles; whoever can write the file may do everything
    Owner,      // the schema's owner or a superuser: everything
    Release,    // proofbench_release
    Engineer,   // proofbench_engineer
    Auditor,    // proofbench_auditor
    Unassigned, // a server user in none of the three: the server's own grants decide
};

// What an action needs. Reading needs nothing beyond the auditor's rights.
enum class Capability {
    ImportCatalog,
    ImportEvidence,
    ImportResults, // performance results, external records, deployment bundles
    RunValidation,
    GenerateBundle,
    RecordVerification,
    Sign,
    ManageKeys,
    KeepReleaseSignature,
    UpdateTrustedRoot,
};

struct Access {
    TeamRole role = TeamRole::Local;
    QString user;     // the login user (session_user); empty for a SQLite file
    QString roleName; // "proofbench_engineer", "owner", ...; empty for a SQLite file
    // A hot standby (pg_is_in_recovery()): everything reads, nothing can be written, whatever the
    // role.
    bool replica = false;
    // For the status bar: "engineer (proofbench_engineer)", "owner", "local file"; on a replica with
    // ", read-only replica" after it.
    QString describe() const;
    // The role alone.
    QString roleText() const;
};

// The role group names, in the order auditor, engineer, release.
QStringList teamRoleNames();
QString teamRoleName(TeamRole role);
// "auditor" → TeamRole::Auditor (also accepts the full group name); nullopt-like Unassigned otherwise.
TeamRole teamRoleFromName(const QString& name);

// "import catalogs", "sign", ...: what the capability lets one do, for messages.
QString capabilityVerb(Capability c);
bool allows(TeamRole role, Capability c);
// Empty when allowed; otherwise "role proofbench_auditor may not import catalogs", or, on a read-only
// replica, that nothing can be written there.
QString refusal(const Access& access, Capability c);

// Whether this connection may append receipts: not on a read-only replica, not as an auditor (who
// writes nothing); there an action's result is shown and not stored.
bool mayWriteReceipts(const Access& access);

// Reads who this connection is and which team role it holds (the strongest of the three it is a
// member of; the schema's owner and superusers are Owner). Local for SQLite.
Result<Access> readAccess(Database& db);

struct TeamMember {
    QString user;
    TeamRole role = TeamRole::Auditor;
};

// Creates the three group roles (those missing; they are the server's, shared by its databases) and
// grants them their rights on this database's schema, in one transaction; then makes each member a
// member of its role. Needs the schema's owner (or a superuser) with CREATEROLE. Re-running it is
// harmless and re-grants tables added by later migrations.
Status initTeam(Database& db, const std::vector<TeamMember>& members);

} // namespace pb::db
