// proofbench db init-team: the three team roles on a PostgreSQL database, their grants, and members
#include "cli/CliUtil.h"
#include "ops/DbAdmin.h"

#include <QJsonArray>
#include <QJsonObject>

namespace pb::cli {

static int dbInitTeam(const QCommandLineParser& p) {
    ops::InitTeamRequest request;
    for (const QString& m : p.values(QStringLiteral("member"))) {
        const qsizetype eq = m.indexOf(QLatin1Char('='));
        const db::TeamRole role = eq > 0 ? db::teamRoleFromName(m.mid(eq + 1)) : db::TeamRole::Unassigned;
        if (eq <= 0 || role == db::TeamRole::Unassigned)
            return usage(
                QStringLiteral("--member %1: expected USER=ROLE, ROLE one of auditor, engineer, release")
                    .arg(m),
                QStringLiteral("db init-team"));
        request.members.push_back(db::TeamMember{m.left(eq), role});
    }
    // Database::open, not openDb: setting up roles seeds no catalog.
    Result<std::unique_ptr<db::Database>> db = db::Database::open(dbPath(p));
    if (!db)
        return fail(db.error());
    const ops::Context ctx(**db);
    Result<receipts::Receipt> r = ops::initTeam(ctx, request);
    if (!r)
        return fail(r.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonObject members;
        for (const db::TeamMember& m : request.members)
            members.insert(m.user, db::teamRoleName(m.role));
        printJson(QJsonObject{{QStringLiteral("database"), (*db)->displayName()},
                              {QStringLiteral("roles"), QJsonArray::fromStringList(db::teamRoleNames())},
                              {QStringLiteral("members"), members},
                              {QStringLiteral("receipt"), r->seq}});
        return kOk;
    }
    out() << QStringLiteral("team roles on %1: %2 (each a member of the one before)\n")
                 .arg((*db)->displayName(), db::teamRoleNames().join(QStringLiteral(", ")));
    for (const db::TeamMember& m : request.members)
        out() << QStringLiteral("  %1 is now %2\n").arg(m.user, db::teamRoleName(m.role));
    out() << QStringLiteral("receipt #%1\n").arg(r->seq);
    out().flush();
    return kOk;
}

Command dbInitTeamCommand() {
    Command c(
        QStringLiteral("db init-team"),
        QStringLiteral("create the team roles on a PostgreSQL database and give members their role"),
        QStringLiteral("Run by the database's owner (who needs CREATEROLE). Creates the roles "
                       "proofbench_auditor (reads everything, writes nothing), proofbench_engineer "
                       "(imports catalogs, evidence and results, runs validation, generates bundles) and "
                       "proofbench_release (also signs, keeps release signatures, updates trusted roots), "
                       "grants them their rights on this database, and makes each --member USER=ROLE a "
                       "member of one of them (revoking the other two). The server enforces the roles "
                       "whichever client connects. Safe to run again. Leaves a db.init-team receipt."));
    addDb(c);
    c.addOption(
        {QStringLiteral("member"),
         QStringLiteral("Give login user USER the role ROLE (auditor, engineer or release); repeatable."),
         QStringLiteral("USER=ROLE")});
    addFormat(c, QStringLiteral("text|json"), QStringLiteral("text"));
    c.handler = dbInitTeam;
    return c;
}

} // namespace pb::cli
