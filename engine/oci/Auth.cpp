#include "oci/Auth.h"
#include "core/Files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <optional>

namespace pb::oci {

namespace {

// The keys a config.json may use for one registry: Docker Hub has historic spellings.
QStringList keysFor(const QString& registry) {
    QStringList keys{registry, QStringLiteral("https://") + registry, QStringLiteral("http://") + registry,
                     QStringLiteral("https://") + registry + QStringLiteral("/v1/"),
                     QStringLiteral("https://") + registry + QStringLiteral("/v2/")};
    if (registry == QLatin1String("docker.io"))
        keys << QStringLiteral("https://index.docker.io/v1/") << QStringLiteral("index.docker.io")
             << QStringLiteral("registry-1.docker.io");
    return keys;
}

Result<Credentials> runHelper(const QString& helper, const QString& registry,
                              const DockerConfigOptions& options, const QString& source) {
    // A helper name is a plain program suffix ("ecr-login", "desktop"); a path separator or ".." would
    // let a config file name a program outside the directories searched.
    static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]*$"));
    if (!name.match(helper).hasMatch() || helper.contains(QLatin1String("..")))
        return makeError(
            QStringLiteral("credential helper name '%1' is not a plain name").arg(helper.left(100)), {}, 0,
            source);
    const QString program = QStringLiteral("docker-credential-") + helper;
    QString path;
    if (!options.helperDir.isEmpty())
        path = QStandardPaths::findExecutable(program, {options.helperDir});
    if (path.isEmpty())
        path = QStandardPaths::findExecutable(program);
    if (path.isEmpty())
        return makeError(QStringLiteral("credential helper '%1' not found in PATH").arg(program), {}, 0,
                         source);
    QProcess p;
    p.start(path, {QStringLiteral("get")});
    if (!p.waitForStarted(10000))
        return makeError(
            QStringLiteral("credential helper '%1' could not be started: %2").arg(program, p.errorString()),
            {}, 0, source);
    p.write(registry.toUtf8());
    p.closeWriteChannel();
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished(2000);
        return makeError(QStringLiteral("credential helper '%1' did not answer within 30 s").arg(program), {},
                         0, source);
    }
    const QByteArray out = p.readAllStandardOutput();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        // "credentials not found in native keychain" is the helpers' way to say "none": anonymous.
        if (out.contains("credentials not found") ||
            p.readAllStandardError().contains("credentials not found"))
            return Credentials{};
        return makeError(
            QStringLiteral("credential helper '%1' failed with exit code %2").arg(program).arg(p.exitCode()),
            {}, 0, source);
    }
    const QJsonObject o = QJsonDocument::fromJson(out).object();
    Credentials c;
    c.username = o.value(QStringLiteral("Username")).toString();
    c.secret = o.value(QStringLiteral("Secret")).toString();
    if (c.secret.isEmpty())
        return makeError(QStringLiteral("credential helper '%1' answered without a Secret").arg(program), {},
                         0, source);
    c.kind =
        c.username == QLatin1String("<token>") ? Credentials::Kind::IdentityToken : Credentials::Kind::Basic;
    c.source = source;
    return c;
}

// The config file as a JSON object; nullopt when there is no file (anonymous, not an error).
Result<std::optional<QJsonObject>> readDockerConfig(const QString& file) {
    if (!QFileInfo::exists(file))
        return std::optional<QJsonObject>();
    Result<QByteArray> bytes =
        readFileLimited(file, limits::kConfigFile, QStringLiteral("the docker config"));
    if (!bytes)
        return bytes.error();
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(QStringLiteral("not a JSON object: %1").arg(pe.errorString()), file);
    return std::optional<QJsonObject>(doc.object());
}

} // namespace

QString dockerConfigPath(const DockerConfigOptions& options) {
    if (!options.configFile.isEmpty())
        return options.configFile;
    const QString env = qEnvironmentVariable("DOCKER_CONFIG");
    if (!env.isEmpty())
        return env + QStringLiteral("/config.json");
    return QDir::homePath() + QStringLiteral("/.docker/config.json");
}

Result<Credentials> credentialsFor(const QString& registry, const DockerConfigOptions& options) {
    const QString file = dockerConfigPath(options);
    Result<std::optional<QJsonObject>> config = readDockerConfig(file);
    if (!config)
        return config.error();
    if (!*config)
        return Credentials{};
    const QJsonObject& root = **config;
    const QStringList keys = keysFor(registry);

    const QJsonObject helpers = root.value(QStringLiteral("credHelpers")).toObject();
    for (const QString& k : keys)
        if (helpers.contains(k)) {
            const QString helper = helpers.value(k).toString();
            return runHelper(helper, registry, options, QStringLiteral("credHelpers: %1").arg(helper));
        }

    const QJsonObject auths = root.value(QStringLiteral("auths")).toObject();
    for (const QString& k : keys) {
        if (!auths.contains(k))
            continue;
        const QJsonObject a = auths.value(k).toObject();
        const QString field = QStringLiteral("auths.%1").arg(k);
        Credentials c;
        c.source = QStringLiteral("config.json auths (%1)").arg(file);
        const QString identity = a.value(QStringLiteral("identitytoken")).toString();
        if (!identity.isEmpty()) {
            c.kind = Credentials::Kind::IdentityToken;
            c.username = QStringLiteral("<token>");
            c.secret = identity;
            return c;
        }
        const QString auth = a.value(QStringLiteral("auth")).toString();
        if (!auth.isEmpty()) {
            const QByteArray decoded = QByteArray::fromBase64(auth.toLatin1());
            const qsizetype colon = decoded.indexOf(':');
            if (colon < 0)
                return makeError(QStringLiteral("'auth' is not base64 of user:password"), file, 0,
                                 field + QStringLiteral(".auth"));
            c.kind = Credentials::Kind::Basic;
            c.username = QString::fromUtf8(decoded.left(colon));
            c.secret = QString::fromUtf8(decoded.mid(colon + 1));
            return c;
        }
        if (a.contains(QStringLiteral("username")) && a.contains(QStringLiteral("password"))) {
            c.kind = Credentials::Kind::Basic;
            c.username = a.value(QStringLiteral("username")).toString();
            c.secret = a.value(QStringLiteral("password")).toString();
            return c;
        }
        // An empty entry with credsStore set means "ask the store" (docker login writes these).
        break;
    }

    const QString store = root.value(QStringLiteral("credsStore")).toString();
    if (!store.isEmpty())
        return runHelper(store, registry, options, QStringLiteral("credsStore: %1").arg(store));
    return Credentials{};
}

Result<std::vector<CredentialSource>> listCredentialSources(const DockerConfigOptions& options) {
    std::vector<CredentialSource> out;
    const QString file = dockerConfigPath(options);
    Result<std::optional<QJsonObject>> config = readDockerConfig(file);
    if (!config)
        return config.error();
    if (!*config)
        return out;
    const QJsonObject& root = **config;
    const QJsonObject helpers = root.value(QStringLiteral("credHelpers")).toObject();
    for (auto it = helpers.begin(); it != helpers.end(); ++it)
        out.push_back({it.key(), QStringLiteral("credHelpers: %1").arg(it.value().toString())});
    const QJsonObject auths = root.value(QStringLiteral("auths")).toObject();
    for (auto it = auths.begin(); it != auths.end(); ++it) {
        if (helpers.contains(it.key()))
            continue;
        const QJsonObject a = it.value().toObject();
        const bool hasInline = a.contains(QStringLiteral("auth")) ||
                               a.contains(QStringLiteral("identitytoken")) ||
                               a.contains(QStringLiteral("password"));
        const QString store = root.value(QStringLiteral("credsStore")).toString();
        out.push_back({it.key(), hasInline || store.isEmpty()
                                     ? QStringLiteral("config.json auths (%1)").arg(file)
                                     : QStringLiteral("credsStore: %1").arg(store)});
    }
    const QString store = root.value(QStringLiteral("credsStore")).toString();
    if (!store.isEmpty())
        out.push_back({QStringLiteral("*"), QStringLiteral("credsStore: %1").arg(store)});
    return out;
}

Challenge parseChallenge(const QByteArray& header) {
    Challenge c;
    const QString h = QString::fromUtf8(header).trimmed();
    const qsizetype sp = h.indexOf(QLatin1Char(' '));
    c.scheme = (sp < 0 ? h : h.left(sp)).toLower();
    if (sp < 0)
        return c;
    const QString rest = h.mid(sp + 1);
    qsizetype i = 0;
    while (i < rest.size()) {
        while (i < rest.size() && (rest[i] == QLatin1Char(',') || rest[i].isSpace()))
            ++i;
        const qsizetype eq = rest.indexOf(QLatin1Char('='), i);
        if (eq < 0)
            break;
        const QString key = rest.mid(i, eq - i).trimmed().toLower();
        i = eq + 1;
        QString value;
        if (i < rest.size() && rest[i] == QLatin1Char('"')) {
            ++i;
            while (i < rest.size() && rest[i] != QLatin1Char('"')) {
                if (rest[i] == QLatin1Char('\\') && i + 1 < rest.size())
                    ++i;
                value += rest[i++];
            }
            ++i;
        } else {
            while (i < rest.size() && rest[i] != QLatin1Char(','))
                value += rest[i++];
            value = value.trimmed();
        }
        c.params.insert(key, value);
    }
    return c;
}

} // namespace pb::oci
