// proofbench db status: which database --db names, on which engine and server, reached how
#include "cli/CliUtil.h"
#include "ops/DbAdmin.h"

#include <QJsonObject>

namespace pb::cli {

static QString sizeText(qint64 bytes) {
    if (bytes >= 10 * 1024 * 1024)
        return QStringLiteral("%1 MiB").arg(bytes / (1024 * 1024));
    if (bytes >= 10 * 1024)
        return QStringLiteral("%1 KiB").arg(bytes / 1024);
    return QStringLiteral("%1 bytes").arg(bytes);
}

static QString tlsText(const ops::DatabaseStatus& s) {
    if (s.engine != QLatin1String("PostgreSQL"))
        return QStringLiteral("none (a local file)");
    if (!s.tlsInUse)
        return QStringLiteral("off (the connection is not encrypted)");
    const QString check = s.tlsHostChecked ? QStringLiteral("certificate and host name verified")
                          : s.tlsVerified  ? QStringLiteral("certificate verified, host name not checked")
                                           : QStringLiteral("certificate NOT verified");
    return QStringLiteral("%1 %2, %3").arg(s.tlsProtocol, s.tlsCipher, check);
}

static int dbStatus(const QCommandLineParser& p) {
    // Database::open, not openDb: asking about a database seeds nothing into it.
    Result<std::unique_ptr<db::Database>> db = db::Database::open(dbPath(p));
    if (!db)
        return fail(db.error());
    const ops::Context ctx(**db);
    Result<ops::DatabaseStatus> s = ops::databaseStatus(ctx);
    if (!s)
        return fail(s.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        printJson(QJsonObject{
            {QStringLiteral("engine"), s->engine},
            {QStringLiteral("database"), s->where},
            {QStringLiteral("serverVersion"), s->serverVersion},
            {QStringLiteral("schemaVersion"), s->schemaVersion},
            {QStringLiteral("latestSchemaVersion"), s->latestSchemaVersion},
            {QStringLiteral("user"), s->user},
            {QStringLiteral("role"), s->role},
            {QStringLiteral("readOnlyReplica"), s->replica},
            {QStringLiteral("sizeBytes"), s->sizeBytes},
            {QStringLiteral("tls"), QJsonObject{{QStringLiteral("inUse"), s->tlsInUse},
                                                {QStringLiteral("certificateVerified"), s->tlsVerified},
                                                {QStringLiteral("hostVerified"), s->tlsHostChecked},
                                                {QStringLiteral("protocol"), s->tlsProtocol},
                                                {QStringLiteral("cipher"), s->tlsCipher}}}});
        return kOk;
    }
    const bool server = s->engine == QLatin1String("PostgreSQL");
    out() << QStringLiteral("engine:    %1 %2\n").arg(s->engine, s->serverVersion);
    out() << QStringLiteral("database:  %1\n").arg(s->where);
    out() << QStringLiteral("schema:    version %1 (this Proofbench writes %2)\n")
                 .arg(s->schemaVersion)
                 .arg(s->latestSchemaVersion);
    if (server) {
        out() << QStringLiteral("user:      %1\n").arg(s->user);
        out() << QStringLiteral("role:      %1\n").arg(s->role);
    }
    out() << QStringLiteral("tls:       %1\n").arg(tlsText(*s));
    out() << QStringLiteral("size:      %1\n").arg(sizeText(s->sizeBytes));
    out().flush();
    return kOk;
}

Command dbStatusCommand() {
    Command c(
        QStringLiteral("db status"),
        QStringLiteral("show the database's engine, server, schema, TLS and size"),
        QStringLiteral("Show which database --db names: the engine (SQLite file or PostgreSQL server) and "
                       "its version, the schema version, the user, whether the connection uses TLS and "
                       "whether the server's certificate was verified, and the database's size. Changes "
                       "nothing."));
    addDb(c);
    addFormat(c, QStringLiteral("text|json"), QStringLiteral("text"));
    c.handler = dbStatus;
    return c;
}

} // namespace pb::cli
