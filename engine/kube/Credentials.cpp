#include "kube/Credentials.h"
#include "core/Files.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTimeZone>

namespace pb::kube {

namespace {

constexpr int kExecTimeoutMs = 60000;
// An exec plugin's stdout (one ExecCredential) and stderr (its prompts and warnings) are each read up
// to this much; past it the plugin is stopped and the run fails with that said. Only a short tail of
// stderr is quoted in errors, so nothing it writes is kept twice or stored whole.
constexpr qint64 kExecOutputCap = 1024 * 1024;
constexpr qsizetype kStderrQuote = 2000;
constexpr int kLoginShellTimeoutMs = 5000;
// Exec credentials are renewed this long before they expire, so a request never carries a token
// that dies on the way.
constexpr qint64 kRefreshMarginSecs = 30;

// PATH as the user's login shell reports it; asked once per process (a desktop session often has a
// much shorter PATH than a terminal). Empty when there is no usable shell.
QStringList loginShellPath() {
    static std::once_flag once;
    static QStringList dirs;
    std::call_once(once, [] {
        QString shell = QString::fromLocal8Bit(qgetenv("SHELL"));
        if (shell.isEmpty() || !QFileInfo(shell).isExecutable())
            return;
        QProcess p;
        p.setStandardInputFile(QProcess::nullDevice());
        p.setProcessChannelMode(QProcess::SeparateChannels);
        // A marker keeps whatever profile scripts print apart from the answer.
        p.start(shell, {QStringLiteral("-lc"), QStringLiteral("printf '\\n__PB_PATH__%s' \"$PATH\"")});
        if (!p.waitForStarted(kLoginShellTimeoutMs))
            return;
        if (!p.waitForFinished(kLoginShellTimeoutMs)) {
            p.kill();
            p.waitForFinished(1000);
            return;
        }
        const QString out = QString::fromLocal8Bit(p.readAllStandardOutput());
        const qsizetype at = out.lastIndexOf(QStringLiteral("__PB_PATH__"));
        if (at < 0)
            return;
        dirs = out.mid(at + 11).trimmed().split(QLatin1Char(':'), Qt::SkipEmptyParts);
    });
    return dirs;
}

QString execName(const ExecConfig& e) {
    return QFileInfo(e.command).fileName();
}

std::optional<QDateTime> parseTimestamp(const QString& s) {
    QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(s, Qt::ISODate);
    if (!t.isValid())
        return std::nullopt;
    return t.toUTC();
}

Result<QByteArray> readAll(const QString& path, const QString& what, const User& user) {
    // Non-blocking, regular files only: a named pipe as a certificate, key or token never hangs.
    QFile f(path);
    if (Status opened = openInputFile(f, QStringLiteral("%1 %2").arg(what, path)); !opened)
        return makeError(opened.error().message, user.sourceFile, 0,
                         QStringLiteral("users[%1].user").arg(user.name));
    Result<QByteArray> bytes = readLimited(f, limits::kSmallFile, what);
    if (!bytes)
        return makeError(bytes.error().message, user.sourceFile, 0,
                         QStringLiteral("users[%1].user").arg(user.name));
    return bytes;
}

} // namespace

QString findExecutable(const QString& command, const QStringList& extraPaths, QStringList* tried) {
    if (command.isEmpty())
        return {};
    if (command.contains(QLatin1Char('/'))) {
        const QFileInfo fi(command);
        if (tried)
            *tried << fi.absolutePath();
        return fi.isFile() && fi.isExecutable() ? fi.absoluteFilePath() : QString();
    }
    QStringList dirs = QString::fromLocal8Bit(qgetenv("PATH")).split(QLatin1Char(':'), Qt::SkipEmptyParts);
    dirs += loginShellPath();
    dirs += extraPaths;
    const QString home = QDir::homePath();
    dirs += {QStringLiteral("/usr/local/bin"), QStringLiteral("/opt/homebrew/bin"),
             home + QStringLiteral("/.local/bin"), home + QStringLiteral("/bin"),
             home + QStringLiteral("/go/bin")};
    QStringList seen;
    for (const QString& d : dirs) {
        const QString dir = QDir::cleanPath(d.startsWith(QLatin1String("~/")) ? home + d.mid(1) : d);
        if (seen.contains(dir))
            continue;
        seen << dir;
        const QFileInfo fi(dir + QLatin1Char('/') + command);
        if (fi.isFile() && fi.isExecutable()) {
            if (tried)
                *tried += seen;
            return fi.absoluteFilePath();
        }
    }
    if (tried)
        *tried += seen;
    return {};
}

CredentialProvider::CredentialProvider(ResolvedContext context, QStringList extraSearchPaths)
    : m_ctx(std::move(context)), m_extraPaths(std::move(extraSearchPaths)) {}

int CredentialProvider::execRuns() const {
    std::lock_guard lock(m_mutex);
    return m_execRuns;
}

void CredentialProvider::invalidate() {
    std::lock_guard lock(m_mutex);
    m_cached.reset();
}

Result<Credentials> CredentialProvider::get() {
    std::lock_guard lock(m_mutex);
    const User& u = m_ctx.user;
    if (u.problem)
        return *u.problem;
    // kubectl (client-go) sends a static token (or tokenFile) when the user has one and never runs the
    // exec plugin for it: the plugin only fills in an Authorization header nobody else set.
    const bool staticToken = !u.token.isEmpty() || !u.tokenFile.isEmpty();
    if (u.exec && !staticToken) {
        if (m_cached) {
            const bool fresh = !m_cached->expiry ||
                               QDateTime::currentDateTimeUtc().secsTo(*m_cached->expiry) > kRefreshMarginSecs;
            if (fresh)
                return *m_cached;
        }
        Result<Credentials> c = runExec();
        if (!c)
            return c.error();
        m_cached = *c;
        return *c;
    }

    Credentials c;
    QStringList sources;
    if (!u.clientCertificateData.isEmpty() || !u.clientCertificate.isEmpty()) {
        if (!u.clientCertificateData.isEmpty())
            c.clientCertificatePem = u.clientCertificateData;
        else {
            Result<QByteArray> b = readAll(u.clientCertificate, QStringLiteral("client-certificate"), u);
            if (!b)
                return b.error();
            c.clientCertificatePem = *b;
        }
        if (!u.clientKeyData.isEmpty())
            c.clientKeyPem = u.clientKeyData;
        else if (!u.clientKey.isEmpty()) {
            Result<QByteArray> b = readAll(u.clientKey, QStringLiteral("client-key"), u);
            if (!b)
                return b.error();
            c.clientKeyPem = *b;
        } else
            return makeError(
                QStringLiteral("user '%1' has a client certificate but no client-key").arg(u.name),
                u.sourceFile, 0, QStringLiteral("users[%1].user.client-key").arg(u.name));
        sources << QStringLiteral("client certificate");
    }
    if (!u.token.isEmpty()) {
        c.bearerToken = u.token;
        sources << QStringLiteral("token");
    } else if (!u.tokenFile.isEmpty()) {
        // Read on every call: projected service-account tokens are rotated in place.
        Result<QByteArray> b = readAll(u.tokenFile, QStringLiteral("tokenFile"), u);
        if (!b)
            return b.error();
        c.bearerToken = QString::fromUtf8(b->trimmed());
        if (c.bearerToken.isEmpty())
            return makeError(QStringLiteral("tokenFile %1 is empty").arg(u.tokenFile), u.sourceFile, 0,
                             QStringLiteral("users[%1].user.tokenFile").arg(u.name));
        sources << QStringLiteral("tokenFile");
    } else if (!u.username.isEmpty() || !u.password.isEmpty()) {
        c.username = u.username;
        c.password = u.password;
        sources << QStringLiteral("basic");
    }
    c.source = sources.isEmpty() ? QStringLiteral("anonymous") : sources.join(QStringLiteral(" + "));
    return c;
}

namespace {

// KUBERNETES_EXEC_INFO: the ExecCredential the plugin is given, with the cluster when it asks for it.
QJsonObject execInfo(const ResolvedContext& ctx, const ExecConfig& e) {
    QJsonObject spec{{QStringLiteral("interactive"), false}};
    if (e.provideClusterInfo) {
        const Cluster& cl = ctx.cluster;
        QJsonObject cluster{{QStringLiteral("server"), cl.server}};
        QByteArray ca = cl.certificateAuthorityData;
        if (ca.isEmpty() && !cl.certificateAuthority.isEmpty()) {
            // Unreadable (or not a regular file): the plugin gets no CA, as before; never a hang.
            ca = readFileLimited(cl.certificateAuthority, limits::kSmallFile,
                                 QStringLiteral("certificate-authority"))
                     .valueOr({});
        }
        if (!ca.isEmpty())
            cluster.insert(QStringLiteral("certificate-authority-data"), QString::fromLatin1(ca.toBase64()));
        if (!cl.tlsServerName.isEmpty())
            cluster.insert(QStringLiteral("tls-server-name"), cl.tlsServerName);
        if (cl.insecureSkipTlsVerify)
            cluster.insert(QStringLiteral("insecure-skip-tls-verify"), true);
        if (!cl.proxyUrl.isEmpty())
            cluster.insert(QStringLiteral("proxy-url"), cl.proxyUrl);
        spec.insert(QStringLiteral("cluster"), cluster);
    }
    return QJsonObject{{QStringLiteral("apiVersion"), e.apiVersion},
                       {QStringLiteral("kind"), QStringLiteral("ExecCredential")},
                       {QStringLiteral("spec"), spec}};
}

// The plugin's environment: ours, the login shell's PATH and the extra paths, its own variables
// and KUBERNETES_EXEC_INFO.
QProcessEnvironment execEnvironment(const ExecConfig& e, const QJsonObject& info,
                                    const QStringList& extraPaths) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // Plugins often call other tools (aws-vault, gcloud): give them the login shell's PATH too.
    QStringList path = env.value(QStringLiteral("PATH")).split(QLatin1Char(':'), Qt::SkipEmptyParts);
    for (const QString& d : loginShellPath() + extraPaths)
        if (!path.contains(d))
            path << d;
    env.insert(QStringLiteral("PATH"), path.join(QLatin1Char(':')));
    for (const auto& [k, v] : e.env)
        env.insert(k, v);
    env.insert(QStringLiteral("KUBERNETES_EXEC_INFO"),
               QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact)));
    return env;
}

// What a started plugin wrote, each channel capped at kExecOutputCap + 1 bytes.
struct ExecOutput {
    QByteArray out, err;
    QString overflow; // "stdout" or "stderr" when one went past the cap
    bool finished = false;
};

// Reads both channels as they come, each capped: a plugin that floods stdout or stderr is stopped
// at kExecOutputCap instead of being buffered whole.
ExecOutput readExecOutput(QProcess& p) {
    ExecOutput o;
    QByteArray& out = o.out;
    QByteArray& errBytes = o.err;
    QString& overflow = o.overflow;
    bool& finished = o.finished;
    QElapsedTimer clock;
    clock.start();
    auto drain = [&] {
        out += p.readAllStandardOutput().left(std::max<qsizetype>(0, kExecOutputCap + 1 - out.size()));
        errBytes +=
            p.readAllStandardError().left(std::max<qsizetype>(0, kExecOutputCap + 1 - errBytes.size()));
        if (out.size() > kExecOutputCap)
            overflow = QStringLiteral("stdout");
        else if (errBytes.size() > kExecOutputCap)
            overflow = QStringLiteral("stderr");
    };
    // Short waits on each channel in turn: whatever QProcess buffers between two drains stays small.
    while (!finished && overflow.isEmpty() && clock.elapsed() < kExecTimeoutMs) {
        p.setReadChannel(QProcess::StandardError);
        p.waitForReadyRead(5);
        drain();
        p.setReadChannel(QProcess::StandardOutput);
        p.waitForReadyRead(5);
        drain();
        if (p.state() == QProcess::NotRunning) {
            p.waitForFinished(0);
            drain();
            finished = true;
        }
    }
    return o;
}

// The ExecCredential the plugin printed: kind, apiVersion, a token or a client certificate and key,
// and an expiry when it gives one.
Result<Credentials> parseExecCredential(const QByteArray& out, const ExecConfig& e, const QString& name,
                                        const User& u, const QString& field) {
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(out, &pe);
    if (!doc.isObject())
        return makeError(QStringLiteral("exec plugin '%1' printed no ExecCredential JSON (%2)")
                             .arg(name, pe.errorString()),
                         u.sourceFile, e.line, field);
    const QJsonObject cred = doc.object();
    const QString kind = cred.value(QStringLiteral("kind")).toString();
    const QString api = cred.value(QStringLiteral("apiVersion")).toString();
    if (kind != QLatin1String("ExecCredential"))
        return makeError(
            QStringLiteral("exec plugin '%1' printed kind '%2', expected ExecCredential").arg(name, kind),
            u.sourceFile, e.line, field);
    if (api != e.apiVersion) {
        QString msg =
            QStringLiteral("exec plugin '%1' answered with apiVersion '%2' but the kubeconfig asked for '%3'")
                .arg(name, api, e.apiVersion);
        if (api.endsWith(QLatin1String("/v1alpha1")))
            msg += QStringLiteral(
                "; v1alpha1 was removed in Kubernetes 1.24, update the plugin (e.g. a newer AWS CLI)");
        return makeError(msg, u.sourceFile, e.line, field + QStringLiteral(".apiVersion"));
    }
    const QJsonObject status = cred.value(QStringLiteral("status")).toObject();
    Credentials c;
    c.source = QStringLiteral("exec: ") + name;
    c.bearerToken = status.value(QStringLiteral("token")).toString();
    c.clientCertificatePem = status.value(QStringLiteral("clientCertificateData")).toString().toUtf8();
    c.clientKeyPem = status.value(QStringLiteral("clientKeyData")).toString().toUtf8();
    if (c.clientCertificatePem.isEmpty() != c.clientKeyPem.isEmpty())
        return makeError(
            QStringLiteral(
                "exec plugin '%1' returned clientCertificateData without clientKeyData (both are needed)")
                .arg(name),
            u.sourceFile, e.line, field);
    if (c.bearerToken.isEmpty() && c.clientCertificatePem.isEmpty())
        return makeError(
            QStringLiteral("exec plugin '%1' returned neither a token nor a client certificate in status")
                .arg(name),
            u.sourceFile, e.line, field);
    if (const QJsonValue exp = status.value(QStringLiteral("expirationTimestamp"));
        exp.isString() && !exp.toString().isEmpty()) {
        c.expiry = parseTimestamp(exp.toString());
        if (!c.expiry)
            return makeError(
                QStringLiteral(
                    "exec plugin '%1' returned an unreadable expirationTimestamp '%2' (RFC 3339 expected)")
                    .arg(name, exp.toString()),
                u.sourceFile, e.line, field);
    }
    return c;
}

} // namespace

Result<Credentials> CredentialProvider::runExec() {
    const User& u = m_ctx.user;
    const ExecConfig& e = *u.exec;
    const QString field = QStringLiteral("users[%1].user.exec").arg(u.name);
    QStringList tried;
    const QString program = findExecutable(e.command, m_extraPaths, &tried);
    if (program.isEmpty()) {
        QString msg = QStringLiteral("exec plugin '%1' not found; looked in: %2")
                          .arg(e.command, tried.join(QStringLiteral(", ")));
        if (!e.installHint.isEmpty())
            msg += QStringLiteral(". ") + e.installHint.trimmed();
        return makeError(msg, u.sourceFile, e.line, field + QStringLiteral(".command"));
    }

    const QJsonObject info = execInfo(m_ctx, e);
    const QProcessEnvironment env = execEnvironment(e, info, m_extraPaths);
    QProcess p;
    p.setProcessEnvironment(env);
    p.setStandardInputFile(QProcess::nullDevice());
    p.setProcessChannelMode(QProcess::SeparateChannels);
    ++m_execRuns;
    p.start(program, e.args);
    const QString name = execName(e);
    if (!p.waitForStarted(kExecTimeoutMs))
        return makeError(
            QStringLiteral("exec plugin '%1' could not be started: %2").arg(program, p.errorString()),
            u.sourceFile, e.line, field + QStringLiteral(".command"));
    ExecOutput output = readExecOutput(p);
    const QString& overflow = output.overflow;
    const bool finished = output.finished;
    QByteArray& out = output.out;
    QByteArray& errBytes = output.err;
    if (!overflow.isEmpty() || !finished) {
        p.kill();
        p.waitForFinished(2000);
        if (!overflow.isEmpty())
            return makeError(
                QStringLiteral(
                    "exec plugin '%1' wrote more than %2 MiB to %3; it was stopped and its output discarded")
                    .arg(name)
                    .arg(kExecOutputCap / (1024 * 1024))
                    .arg(overflow),
                u.sourceFile, e.line, field);
        return makeError(QStringLiteral("exec plugin '%1' did not finish within %2 s")
                             .arg(name)
                             .arg(kExecTimeoutMs / 1000),
                         u.sourceFile, e.line, field);
    }
    QString err = QString::fromLocal8Bit(errBytes).trimmed();
    errBytes.clear();
    if (err.size() > kStderrQuote)
        err = QStringLiteral("...") + err.right(kStderrQuote);
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        QString msg =
            p.exitStatus() != QProcess::NormalExit
                ? QStringLiteral("exec plugin '%1' crashed").arg(name)
                : QStringLiteral("exec plugin '%1' failed with exit code %2").arg(name).arg(p.exitCode());
        msg += err.isEmpty() ? QStringLiteral(" (no output on stderr)") : QStringLiteral(": ") + err;
        return makeError(msg, u.sourceFile, e.line, field);
    }

    return parseExecCredential(out, e, name, u, field);
}

} // namespace pb::kube
