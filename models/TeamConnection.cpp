#include "TeamConnection.h"

#include "db/Database.h"
#include "ops/PrepareDatabase.h"

#include <QFileInfo>
#include <QSettings>

namespace pb::models {

namespace {
constexpr auto kRecentKey = "databases/recent";

// The spec as it is kept: a server's canonical text (no password), a file's absolute path.
QString keptForm(const QString& spec) {
    if (!db::pg::isServerSpec(spec))
        return QFileInfo(spec).absoluteFilePath();
    Result<db::pg::ServerSpec> parsed = db::pg::parseServerSpec(spec);
    return parsed ? parsed->canonical() : QString();
}
} // namespace

bool isServerSpec(const QString& spec) {
    return db::pg::isServerSpec(spec);
}

QString specFromForm(const ServerForm& form) {
    return db::pg::specFromForm(form);
}

std::optional<ServerForm> formFromSpec(const QString& spec) {
    if (!db::pg::isServerSpec(spec))
        return std::nullopt;
    Result<db::pg::ServerSpec> parsed = db::pg::parseServerSpec(spec);
    if (!parsed)
        return std::nullopt;
    return db::pg::formFromSpec(*parsed);
}

QString transportWarning(const QString& spec) {
    if (!db::pg::isServerSpec(spec))
        return {};
    Result<db::pg::ServerSpec> parsed = db::pg::parseServerSpec(spec);
    return parsed ? db::pg::transportWarning(*parsed) : QString();
}

QString describeDatabase(const QString& spec) {
    return db::Database::describe(spec);
}

QString titleName(const QString& spec) {
    if (!db::pg::isServerSpec(spec))
        return QFileInfo(spec).fileName();
    Result<db::pg::ServerSpec> parsed = db::pg::parseServerSpec(spec);
    if (!parsed)
        return QStringLiteral("PostgreSQL");
    const QString name = db::Database::shortName(spec);
    const QString host = parsed->value(QStringLiteral("host"));
    return host.isEmpty() || host.startsWith(QLatin1Char('/')) ? name
                                                               : QStringLiteral("%1 on %2").arg(name, host);
}

QString describeTransport(const ConnectionReport& s) {
    if (s.engine != QLatin1String("PostgreSQL"))
        return QStringLiteral("local file");
    if (!s.tlsInUse)
        return QStringLiteral("no TLS");
    const QString how = s.tlsProtocol.isEmpty() ? QString() : s.tlsProtocol;
    if (s.tlsHostChecked)
        return QStringLiteral("TLS verified (%1, host name checked)").arg(how);
    if (s.tlsVerified)
        return QStringLiteral("TLS verified (%1, host name not checked)").arg(how);
    return QStringLiteral("TLS, certificate not verified (%1)").arg(how);
}

// Both run on a pool thread that may end before the process: a failed or cut TLS connection's
// OpenSSL errors are freed with the job (db::pg::endThread).
Result<ConnectionReport> testConnection(const QString& spec) {
    Result<ConnectionReport> report = ops::testConnection(spec);
    db::pg::endThread();
    return report;
}

Result<QString> prepareForWindow(const QString& spec) {
    Result<QString> opened = [&spec]() -> Result<QString> {
        Result<std::unique_ptr<db::Database>> db = db::Database::open(spec);
        if (!db)
            return db.error();
        if (Result<QStringList> prepared = ops::prepareDatabase(**db); !prepared)
            return prepared.error();
        return (*db)->path();
    }();
    if (db::pg::isServerSpec(spec))
        db::pg::endThread();
    return opened;
}

QStringList recentDatabases() {
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void addRecentDatabase(const QString& spec) {
    const QString kept = keptForm(spec);
    if (kept.isEmpty())
        return;
    QStringList list = recentDatabases();
    list.removeAll(kept);
    list.prepend(kept);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings settings;
    settings.setValue(QLatin1String(kRecentKey), list);
}

QString passwordTarget(const QString& spec) {
    Result<db::pg::ServerSpec> parsed = db::pg::parseServerSpec(spec);
    return parsed ? parsed->display() : QStringLiteral("the server");
}

void rememberPassword(const QString& spec, const QString& password) {
    if (Result<db::pg::ServerSpec> parsed = db::pg::parseServerSpec(spec))
        db::pg::rememberPassword(parsed->canonical(), password);
}

} // namespace pb::models
