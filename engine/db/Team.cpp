#include "db/Team.h"

#include "db/Database.h"

#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>
#include <set>

namespace pb::db {

namespace {

// What each role may write, table by table. Every table of the schema is in exactly one list, so
// a table a later migration adds is a decision, not an accident: initTeam() refuses a schema with a
// table it does not know (tst_team checks the lists against the migrated schema).
const QStringList& engineerWrites() {
    static const QStringList t{
        QStringLiteral("catalog_versions"),
        QStringLiteral("catalog_files"),
        QStringLiteral("overlays"),
        QStringLiteral("registry_components"),
        QStringLiteral("validator_checks"),
        QStringLiteral("recipes"),
        QStringLiteral("recipe_components"),
        QStringLiteral("evidence_pointers"),
        QStringLiteral("evidence_allowlists"),
        QStringLiteral("evidence_bundles"),
        QStringLiteral("evidence_summary"),
        QStringLiteral("verifications"),
        QStringLiteral("runs"),
        QStringLiteral("run_checks"),
        QStringLiteral("run_metrics"),
        QStringLiteral("run_series"),
        QStringLiteral("run_leftovers"),
        QStringLiteral("run_sources"),
        QStringLiteral("run_source_chunks"),
        QStringLiteral("external_records"),
        QStringLiteral("store_upgrades"),
        QStringLiteral("deploy_bundles"),
        QStringLiteral("deploy_bundle_files"),
        QStringLiteral("deploy_bundle_components"),
    };
    return t;
}

const QStringList& releaseWrites() {
    static const QStringList t{
        QStringLiteral("signing_keys"),      QStringLiteral("release_signatures"),
        QStringLiteral("trusted_roots"),     QStringLiteral("trusted_root_provenance"),
        QStringLiteral("tuf_trusted_state"),
    };
    return t;
}

// Tables with rights of their own: the ledger (appended, never changed), its head, the bindings an
// import makes (a catalog version whose digest matches a kept release signature is bound to it; only
// the release role removes a binding), and the migration runner's bookkeeping (read only).
const QStringList& specialTables() {
    static const QStringList t{QStringLiteral("receipts"), QStringLiteral("receipts_head"),
                               QStringLiteral("catalog_release_bindings"), QStringLiteral("schema_version")};
    return t;
}

QString quoteIdent(const QString& name) {
    QString n = name;
    n.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + n + QLatin1Char('"');
}

} // namespace

QString Access::describe() const {
    if (replica)
        return roleText() + QStringLiteral(", read-only replica");
    return roleText();
}

QString Access::roleText() const {
    switch (role) {
    case TeamRole::Local:
        return QStringLiteral("local file");
    case TeamRole::Owner:
        return QStringLiteral("owner");
    case TeamRole::Unassigned:
        return QStringLiteral("no Proofbench role");
    default:
        return QStringLiteral("%1 (%2)").arg(roleName.mid(int(qstrlen("proofbench_"))), roleName);
    }
}

QStringList teamRoleNames() {
    return {QStringLiteral("proofbench_auditor"), QStringLiteral("proofbench_engineer"),
            QStringLiteral("proofbench_release")};
}

QString teamRoleName(TeamRole role) {
    switch (role) {
    case TeamRole::Auditor:
        return QStringLiteral("proofbench_auditor");
    case TeamRole::Engineer:
        return QStringLiteral("proofbench_engineer");
    case TeamRole::Release:
        return QStringLiteral("proofbench_release");
    case TeamRole::Owner:
        return QStringLiteral("owner");
    default:
        return {};
    }
}

TeamRole teamRoleFromName(const QString& name) {
    const QString n = name.trimmed().toLower();
    for (TeamRole r : {TeamRole::Auditor, TeamRole::Engineer, TeamRole::Release})
        if (n == teamRoleName(r) || QStringLiteral("proofbench_") + n == teamRoleName(r))
            return r;
    return TeamRole::Unassigned;
}

QString capabilityVerb(Capability c) {
    switch (c) {
    case Capability::ImportCatalog:
        return QStringLiteral("import catalogs");
    case Capability::ImportEvidence:
        return QStringLiteral("import evidence");
    case Capability::ImportResults:
        return QStringLiteral("import results, records or deployment bundles");
    case Capability::RunValidation:
        return QStringLiteral("run validation");
    case Capability::GenerateBundle:
        return QStringLiteral("generate bundles");
    case Capability::RecordVerification:
        return QStringLiteral("store verifications");
    case Capability::Sign:
        return QStringLiteral("sign");
    case Capability::ManageKeys:
        return QStringLiteral("add signing keys");
    case Capability::KeepReleaseSignature:
        return QStringLiteral("keep release signatures and bind releases");
    case Capability::UpdateTrustedRoot:
        return QStringLiteral("update trusted roots");
    }
    return {};
}

bool allows(TeamRole role, Capability c) {
    switch (role) {
    case TeamRole::Local:
    case TeamRole::Owner:
    case TeamRole::Release:
    case TeamRole::Unassigned: // the server's own grants decide; nothing to say before trying
        return true;
    case TeamRole::Auditor:
        return false;
    case TeamRole::Engineer:
        switch (c) {
        case Capability::Sign:
        case Capability::ManageKeys:
        case Capability::KeepReleaseSignature:
        case Capability::UpdateTrustedRoot:
            return false;
        default:
            return true;
        }
    }
    return true;
}

QString refusal(const Access& access, Capability c) {
    if (access.replica)
        return QStringLiteral(
                   "this database is a read-only replica (a hot standby of the primary): it cannot "
                   "%1 here; connect to the primary to write")
            .arg(capabilityVerb(c));
    if (allows(access.role, c))
        return {};
    return QStringLiteral("role %1 may not %2 (user %3; ask the database's owner for another role: "
                          "proofbench db init-team --member %3=ROLE)")
        .arg(access.roleName, capabilityVerb(c), access.user);
}

bool mayWriteReceipts(const Access& access) {
    return !access.replica && access.role != TeamRole::Auditor;
}

Result<Access> readAccess(Database& db) {
    Access a;
    if (db.engine() != Engine::PostgreSQL)
        return a;
    QSqlQuery q(db.sql());
    // The schema's owner (or a member of the owning role; before there is a schema, the database's) and
    // superusers are owners; otherwise the strongest of the three group roles the login user is a
    // member of.
    if (!q.exec(QStringLiteral(
            "SELECT session_user, "
            "COALESCE((SELECT rolsuper FROM pg_roles WHERE rolname = session_user), false) OR "
            "COALESCE((SELECT pg_has_role(session_user, nspowner, 'MEMBER') FROM pg_namespace "
            "WHERE nspname = 'proofbench'), "
            // No schema yet: the database's owner makes it at the first open.
            "(SELECT pg_has_role(session_user, datdba, 'MEMBER') FROM pg_database WHERE datname = "
            "current_database())), "
            "EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'proofbench_release' AND "
            "pg_has_role(session_user, oid, 'MEMBER')), "
            "EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'proofbench_engineer' AND "
            "pg_has_role(session_user, oid, 'MEMBER')), "
            "EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'proofbench_auditor' AND "
            "pg_has_role(session_user, oid, 'MEMBER')), pg_is_in_recovery()")) ||
        !q.next())
        return sqlError(q, QStringLiteral("the session's role"));
    a.user = q.value(0).toString();
    a.role = q.value(1).toBool()   ? TeamRole::Owner
             : q.value(2).toBool() ? TeamRole::Release
             : q.value(3).toBool() ? TeamRole::Engineer
             : q.value(4).toBool() ? TeamRole::Auditor
                                   : TeamRole::Unassigned;
    a.roleName = teamRoleName(a.role);
    a.replica = q.value(5).toBool();
    return a;
}

Status initTeam(Database& db, const std::vector<TeamMember>& members) {
    if (db.engine() != Engine::PostgreSQL)
        return makeError(QStringLiteral("roles need a PostgreSQL database; a SQLite file has no users "
                                        "(whoever can write the file may do everything)"),
                         db.path());
    Transaction tx(db);
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()));
    QSqlQuery q(db.sql());
    auto run = [&q](const QString& sql, const QString& what) -> Status {
        if (!q.exec(sql)) {
            Error e = sqlError(q, what);
            if (q.lastError().nativeErrorCode() == QLatin1String("42501"))
                e.message += QStringLiteral(
                    "; db init-team is run by the database's owner (the user that created its schema), "
                    "who needs CREATEROLE");
            return e;
        }
        return {};
    };

    // Every table is classified (see engineerWrites()).
    if (!q.exec(QStringLiteral("SELECT tablename FROM pg_tables WHERE schemaname = 'proofbench' ORDER BY 1")))
        return sqlError(q, QStringLiteral("the schema's tables"));
    QStringList tables;
    while (q.next())
        tables << q.value(0).toString();
    QStringList unknown;
    for (const QString& t : tables)
        if (!engineerWrites().contains(t) && !releaseWrites().contains(t) && !specialTables().contains(t))
            unknown << t;
    if (!unknown.isEmpty())
        return makeError(QStringLiteral("this Proofbench does not know which role may write table(s) %1; "
                                        "nothing was granted")
                             .arg(unknown.join(QStringLiteral(", "))));

    for (const QString& role : teamRoleNames()) {
        // Two owners initialising two databases of one server at once may race to create a role.
        if (Status s =
                run(QStringLiteral("DO $$ BEGIN CREATE ROLE %1 NOLOGIN; EXCEPTION WHEN duplicate_object "
                                   "OR unique_violation THEN NULL; END $$")
                        .arg(role),
                    QStringLiteral("role %1").arg(role));
            !s)
            return s;
    }
    const QString grants[] = {
        QStringLiteral("GRANT proofbench_auditor TO proofbench_engineer"),
        QStringLiteral("GRANT proofbench_engineer TO proofbench_release"),
        QStringLiteral("DO $$ BEGIN EXECUTE format('GRANT CONNECT ON DATABASE %I TO proofbench_auditor', "
                       "current_database()); END $$"),
        QStringLiteral("GRANT USAGE ON SCHEMA proofbench TO proofbench_auditor"),
        QStringLiteral("GRANT SELECT ON ALL TABLES IN SCHEMA proofbench TO proofbench_auditor"),
        QStringLiteral("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA proofbench TO proofbench_engineer"),
        QStringLiteral("GRANT INSERT, UPDATE, DELETE ON %1 TO proofbench_engineer")
            .arg(engineerWrites().join(QStringLiteral(", "))),
        QStringLiteral("GRANT INSERT ON receipts, catalog_release_bindings TO proofbench_engineer"),
        QStringLiteral("GRANT INSERT, UPDATE ON receipts_head TO proofbench_engineer"),
        QStringLiteral("GRANT INSERT, UPDATE, DELETE ON %1 TO proofbench_release")
            .arg(releaseWrites().join(QStringLiteral(", "))),
        QStringLiteral("GRANT UPDATE, DELETE ON catalog_release_bindings TO proofbench_release"),
        // The ledger is appended, never changed, whoever asks (its triggers say so to the owner too).
        QStringLiteral("REVOKE UPDATE, DELETE, TRUNCATE ON receipts FROM PUBLIC, proofbench_auditor, "
                       "proofbench_engineer, proofbench_release"),
    };
    for (const QString& sql : grants)
        if (Status s = run(sql, QStringLiteral("the team's grants")); !s)
            return s;

    for (const TeamMember& m : members) {
        const QString group = teamRoleName(m.role);
        if (!teamRoleNames().contains(group))
            return makeError(QStringLiteral("%1: not a team role (auditor, engineer or release)").arg(group));
        q.prepare(QStringLiteral("SELECT rolcanlogin FROM pg_roles WHERE rolname = ?"));
        q.addBindValue(m.user);
        if (!q.exec())
            return sqlError(q, QStringLiteral("user %1").arg(m.user));
        if (!q.next())
            return makeError(
                QStringLiteral("no user %1 on this server (create it first: CREATE ROLE %2 LOGIN "
                               "PASSWORD …); nothing was granted")
                    .arg(m.user, quoteIdent(m.user)));
        // One role per member: the others are revoked first (a release manager made an auditor loses
        // the release and engineer rights).
        for (const QString& other : teamRoleNames())
            if (other != group)
                if (Status s = run(QStringLiteral("REVOKE %1 FROM %2").arg(other, quoteIdent(m.user)),
                                   QStringLiteral("user %1").arg(m.user));
                    !s)
                    return s;
        if (Status s = run(QStringLiteral("GRANT %1 TO %2").arg(group, quoteIdent(m.user)),
                           QStringLiteral("user %1").arg(m.user));
            !s)
            return s;
    }
    if (!tx.commit())
        return makeError(
            QStringLiteral("cannot commit the team's grants: %1").arg(db.sql().lastError().text()));
    return {};
}

} // namespace pb::db
