#include "kube/Kubeconfig.h"
#include "core/Files.h"

#include "yaml/Yaml.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace pb::kube {

using yaml::Node;

namespace {

// Reads one kubeconfig file's YAML tree into the structs, remembering the first error with its
// file, line and field.
class Reader {
  public:
    Reader(QString file, QString baseDir) : m_file(std::move(file)), m_base(std::move(baseDir)) {}

    Error error(const Node* node, const QString& field, const QString& message) const {
        return makeError(message, m_file, node ? node->line : 0, field);
    }

    // A scalar as text; a mapping or sequence where a string belongs is an error.
    Result<QString> string(const Node& parent, std::string_view key, const QString& field) const {
        const Node* n = parent.get(key);
        if (!n || n->isNull())
            return QString();
        if (!n->isScalar())
            return error(n, field, QStringLiteral("expected a string"));
        return n->text();
    }

    Result<bool> boolean(const Node& parent, std::string_view key, const QString& field) const {
        const Node* n = parent.get(key);
        if (!n || n->isNull())
            return false;
        if (!n->isScalar() || n->resolve() != yaml::Resolved::Bool)
            return error(n, field, QStringLiteral("expected true or false, found '%1'").arg(n->text()));
        return n->scalar[0] == 't' || n->scalar[0] == 'T';
    }

    // *-data fields: standard base64 (line breaks tolerated, as Go's decoder does).
    Result<QByteArray> base64(const Node& parent, std::string_view key, const QString& field) const {
        Result<QString> text = string(parent, key, field);
        if (!text)
            return text.error();
        QByteArray raw = text->toLatin1();
        raw.replace('\n', QByteArray()).replace('\r', QByteArray()).replace(' ', QByteArray());
        if (raw.isEmpty())
            return QByteArray();
        auto decoded = QByteArray::fromBase64Encoding(raw, QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return error(parent.get(key), field, QStringLiteral("not valid base64"));
        return decoded.decoded;
    }

    // Relative paths are relative to the file that holds them.
    QString path(const QString& p) const {
        if (p.isEmpty() || QDir::isAbsolutePath(p))
            return p;
        return QDir::cleanPath(m_base + QLatin1Char('/') + p);
    }

    const QString& file() const { return m_file; }

  private:
    QString m_file, m_base;
};

#define PB_KUBE_CAT2(a, b) a##b
#define PB_KUBE_CAT(a, b) PB_KUBE_CAT2(a, b)
// Assigns a Result's value to `target`, or returns its error.
#define PB_TRY(target, expr)                                                                                 \
    auto PB_KUBE_CAT(pbTry, __LINE__) = (expr);                                                              \
    if (!PB_KUBE_CAT(pbTry, __LINE__))                                                                       \
        return PB_KUBE_CAT(pbTry, __LINE__).error();                                                         \
    target = std::move(*PB_KUBE_CAT(pbTry, __LINE__))

const QString kExecV1 = QStringLiteral("client.authentication.k8s.io/v1");
const QString kExecV1beta1 = QStringLiteral("client.authentication.k8s.io/v1beta1");

Status readExec(const Reader& r, const Node& exec, const QString& field, User& user) {
    ExecConfig e;
    e.line = exec.line;
    PB_TRY(e.apiVersion, r.string(exec, "apiVersion", field + QStringLiteral(".apiVersion")));
    PB_TRY(e.command, r.string(exec, "command", field + QStringLiteral(".command")));
    PB_TRY(e.installHint, r.string(exec, "installHint", field + QStringLiteral(".installHint")));
    PB_TRY(e.provideClusterInfo,
           r.boolean(exec, "provideClusterInfo", field + QStringLiteral(".provideClusterInfo")));
    PB_TRY(e.interactiveMode, r.string(exec, "interactiveMode", field + QStringLiteral(".interactiveMode")));
    if (const Node* args = exec.get("args"); args && !args->isNull()) {
        if (!args->isSeq())
            return r.error(args, field + QStringLiteral(".args"),
                           QStringLiteral("expected a list of strings"));
        for (size_t i = 0; i < args->items.size(); ++i) {
            const Node& a = args->items[i];
            if (!a.isScalar())
                return r.error(&a, field + QStringLiteral(".args[%1]").arg(i),
                               QStringLiteral("expected a string"));
            e.args << a.text();
        }
    }
    if (const Node* env = exec.get("env"); env && !env->isNull()) {
        if (!env->isSeq())
            return r.error(env, field + QStringLiteral(".env"),
                           QStringLiteral("expected a list of {name, value}"));
        for (size_t i = 0; i < env->items.size(); ++i) {
            const Node& v = env->items[i];
            const QString f = field + QStringLiteral(".env[%1]").arg(i);
            if (!v.isMap())
                return r.error(&v, f, QStringLiteral("expected a mapping with name and value"));
            QString name, value;
            PB_TRY(name, r.string(v, "name", f + QStringLiteral(".name")));
            PB_TRY(value, r.string(v, "value", f + QStringLiteral(".value")));
            if (name.isEmpty())
                return r.error(&v, f + QStringLiteral(".name"),
                               QStringLiteral("an environment variable needs a name"));
            e.env.append({name, value});
        }
    }
    e.commandAsWritten = e.command;
    if (e.command.contains(QLatin1Char('/')))
        e.command = r.path(e.command);

    // Problems that make the user unusable but leave the file listable.
    auto problem = [&](const char* key, const QString& message) {
        const Node* n = exec.get(key);
        user.problem = r.error(n ? n : &exec, field + QLatin1Char('.') + QLatin1String(key), message);
    };
    if (e.command.isEmpty())
        problem("command", QStringLiteral("the exec plugin has no command"));
    else if (e.apiVersion == QLatin1String("client.authentication.k8s.io/v1alpha1"))
        problem("apiVersion",
                QStringLiteral("client.authentication.k8s.io/v1alpha1 was removed in Kubernetes 1.24 and is "
                               "not supported; use client.authentication.k8s.io/v1beta1 or /v1 (update the "
                               "plugin, e.g. a newer AWS CLI, and regenerate the kubeconfig)"));
    else if (e.apiVersion.isEmpty())
        problem("apiVersion",
                QStringLiteral(
                    "the exec plugin needs an apiVersion (client.authentication.k8s.io/v1 or /v1beta1)"));
    else if (e.apiVersion != kExecV1 && e.apiVersion != kExecV1beta1)
        problem("apiVersion",
                QStringLiteral(
                    "unsupported exec apiVersion '%1' (expected client.authentication.k8s.io/v1 or /v1beta1)")
                    .arg(e.apiVersion));
    else if (e.apiVersion == kExecV1 && e.interactiveMode.isEmpty())
        problem("interactiveMode",
                QStringLiteral("interactiveMode is required with client.authentication.k8s.io/v1 "
                               "(Never, IfAvailable or Always)"));
    else if (!e.interactiveMode.isEmpty() && e.interactiveMode != QLatin1String("Never") &&
             e.interactiveMode != QLatin1String("IfAvailable") &&
             e.interactiveMode != QLatin1String("Always"))
        problem("interactiveMode",
                QStringLiteral("interactiveMode must be Never, IfAvailable or Always, not '%1'")
                    .arg(e.interactiveMode));
    else if (e.interactiveMode == QLatin1String("Always"))
        problem("interactiveMode",
                QStringLiteral("this exec plugin always needs a terminal (interactiveMode: Always), "
                               "which Proofbench cannot offer; log in from a shell first"));
    user.exec = std::move(e);
    return {};
}

// The entries of a named list ("clusters", "users", "contexts"): a sequence of {name, <inner>}.
template <typename F>
Status readNamed(const Reader& r, const Node& root, const char* listKey, const char* innerKey, F&& each) {
    const Node* list = root.get(listKey);
    if (!list || list->isNull())
        return {};
    const QString lk = QLatin1String(listKey);
    if (!list->isSeq())
        return r.error(list, lk, QStringLiteral("expected a list"));
    QSet<QString> seen;
    for (size_t i = 0; i < list->items.size(); ++i) {
        const Node& item = list->items[i];
        const QString f = lk + QStringLiteral("[%1]").arg(i);
        if (!item.isMap())
            return r.error(
                &item, f, QStringLiteral("expected a mapping with name and %1").arg(QLatin1String(innerKey)));
        QString name;
        PB_TRY(name, r.string(item, "name", f + QStringLiteral(".name")));
        if (name.isEmpty())
            return r.error(&item, f + QStringLiteral(".name"), QStringLiteral("an entry needs a name"));
        if (seen.contains(name))
            return r.error(item.get("name"), f + QStringLiteral(".name"),
                           QStringLiteral("duplicate name '%1' in %2").arg(name, lk));
        seen.insert(name);
        const Node* inner = item.get(innerKey);
        static const Node empty = Node::map();
        if (inner && !inner->isNull() && !inner->isMap())
            return r.error(inner, f + QLatin1Char('.') + QLatin1String(innerKey),
                           QStringLiteral("expected a mapping"));
        if (Status s = each(name, (inner && inner->isMap()) ? *inner : empty,
                            f + QLatin1Char('.') + QLatin1String(innerKey));
            !s)
            return s;
    }
    return {};
}

QString base64(const QByteArray& b) {
    return QString::fromLatin1(b.toBase64());
}

template <typename T> std::vector<const T*> byName(const std::vector<T>& items) {
    std::vector<const T*> out;
    for (const T& t : items)
        out.push_back(&t);
    // Go serialises the merged maps in byte order of their keys.
    std::sort(out.begin(), out.end(),
              [](const T* a, const T* b) { return a->name.toUtf8() < b->name.toUtf8(); });
    return out;
}

// --flatten: a file reference becomes its content, inline.
void flatten(QJsonObject& o, const char* dataKey, const QByteArray& data, const char* pathKey,
             const QString& path, bool redact) {
    QByteArray bytes = data;
    if (bytes.isEmpty() && !path.isEmpty()) {
        Result<QByteArray> read = readFileLimited(path, limits::kSmallFile);
        if (read)
            bytes = *read;
        else {
            o.insert(QLatin1String(pathKey), path); // unreadable: show where it points
            return;
        }
    }
    if (!bytes.isEmpty())
        o.insert(QLatin1String(dataKey), redact ? QStringLiteral("DATA+OMITTED") : base64(bytes));
}

} // namespace

const Cluster* Kubeconfig::cluster(const QString& name) const {
    for (const Cluster& c : clusters)
        if (c.name == name)
            return &c;
    return nullptr;
}

const User* Kubeconfig::user(const QString& name) const {
    for (const User& u : users)
        if (u.name == name)
            return &u;
    return nullptr;
}

const Context* Kubeconfig::context(const QString& name) const {
    for (const Context& c : contexts)
        if (c.name == name)
            return &c;
    return nullptr;
}

QStringList Kubeconfig::defaultFiles() {
    const QByteArray env = qgetenv("KUBECONFIG");
    QStringList out;
    if (!env.isEmpty()) {
        for (const QString& p :
             QString::fromLocal8Bit(env).split(QDir::listSeparator(), Qt::SkipEmptyParts)) {
            const QString abs = QFileInfo(p).absoluteFilePath();
            if (QFileInfo::exists(abs) && !out.contains(abs))
                out << abs;
        }
        return out;
    }
    return {QDir::homePath() + QStringLiteral("/.kube/config")};
}

Result<Kubeconfig> Kubeconfig::parse(const QByteArray& bytes, const QString& file) {
    Result<Node> doc = yaml::parse(bytes, file);
    if (!doc)
        return doc.error();
    const QString abs = file.isEmpty() ? QString() : QFileInfo(file).absoluteFilePath();
    Reader r(file, abs.isEmpty() ? QDir::currentPath() : QFileInfo(abs).absolutePath());
    Kubeconfig cfg;
    if (!abs.isEmpty())
        cfg.files << abs;
    const Node& root = *doc;
    if (root.isNull())
        return cfg; // an empty file is an empty config, as for kubectl
    if (!root.isMap())
        return r.error(
            &root, QString(),
            QStringLiteral("a kubeconfig must be a mapping (apiVersion, kind, clusters, users, contexts)"));
    if (const Node* kind = root.get("kind");
        kind && kind->isScalar() && !kind->isNull() && kind->text() != QLatin1String("Config"))
        return r.error(kind, QStringLiteral("kind"),
                       QStringLiteral("expected 'Config', found '%1'").arg(kind->text()));
    PB_TRY(cfg.currentContext, r.string(root, "current-context", QStringLiteral("current-context")));

    Status s = readNamed(
        r, root, "clusters", "cluster", [&](const QString& name, const Node& c, const QString& f) -> Status {
            Cluster cl;
            cl.name = name;
            cl.sourceFile = abs;
            PB_TRY(cl.server, r.string(c, "server", f + QStringLiteral(".server")));
            QString ca;
            PB_TRY(ca, r.string(c, "certificate-authority", f + QStringLiteral(".certificate-authority")));
            cl.certificateAuthority = r.path(ca);
            PB_TRY(cl.certificateAuthorityData, r.base64(c, "certificate-authority-data",
                                                         f + QStringLiteral(".certificate-authority-data")));
            PB_TRY(cl.insecureSkipTlsVerify,
                   r.boolean(c, "insecure-skip-tls-verify", f + QStringLiteral(".insecure-skip-tls-verify")));
            PB_TRY(cl.tlsServerName, r.string(c, "tls-server-name", f + QStringLiteral(".tls-server-name")));
            PB_TRY(cl.proxyUrl, r.string(c, "proxy-url", f + QStringLiteral(".proxy-url")));
            if (!cl.proxyUrl.isEmpty()) {
                const QString scheme = cl.proxyUrl.section(QStringLiteral("://"), 0, 0).toLower();
                if (!cl.proxyUrl.contains(QStringLiteral("://")) ||
                    (scheme != QLatin1String("http") && scheme != QLatin1String("https") &&
                     scheme != QLatin1String("socks5")))
                    return r.error(
                        c.get("proxy-url"), f + QStringLiteral(".proxy-url"),
                        QStringLiteral("proxy-url must be an http://, https:// or socks5:// URL, not '%1'")
                            .arg(cl.proxyUrl));
            }
            cfg.clusters.push_back(std::move(cl));
            return {};
        });
    if (!s)
        return s.error();

    s = readNamed(
        r, root, "users", "user", [&](const QString& name, const Node& u, const QString& f) -> Status {
            User us;
            us.name = name;
            us.sourceFile = abs;
            QString p;
            PB_TRY(p, r.string(u, "client-certificate", f + QStringLiteral(".client-certificate")));
            us.clientCertificate = r.path(p);
            PB_TRY(p, r.string(u, "client-key", f + QStringLiteral(".client-key")));
            us.clientKey = r.path(p);
            PB_TRY(us.clientCertificateData,
                   r.base64(u, "client-certificate-data", f + QStringLiteral(".client-certificate-data")));
            PB_TRY(us.clientKeyData, r.base64(u, "client-key-data", f + QStringLiteral(".client-key-data")));
            PB_TRY(us.token, r.string(u, "token", f + QStringLiteral(".token")));
            PB_TRY(us.tokenFileAsWritten, r.string(u, "tokenFile", f + QStringLiteral(".tokenFile")));
            us.tokenFile = r.path(us.tokenFileAsWritten);
            PB_TRY(us.username, r.string(u, "username", f + QStringLiteral(".username")));
            PB_TRY(us.password, r.string(u, "password", f + QStringLiteral(".password")));
            if (const Node* exec = u.get("exec"); exec && !exec->isNull()) {
                if (!exec->isMap())
                    return r.error(exec, f + QStringLiteral(".exec"), QStringLiteral("expected a mapping"));
                if (Status es = readExec(r, *exec, f + QStringLiteral(".exec"), us); !es)
                    return es;
            }
            if (const Node* ap = u.get("auth-provider"); ap && !ap->isNull()) {
                us.hasAuthProvider = true;
                if (ap->isMap())
                    if (const Node* n = ap->get("name"); n && n->isScalar())
                        us.authProviderName = n->text();
                us.authProviderJson =
                    QJsonDocument(yaml::toJson(*ap).toObject()).toJson(QJsonDocument::Compact);
                if (!us.exec && us.token.isEmpty() && us.clientCertificate.isEmpty() &&
                    us.clientCertificateData.isEmpty())
                    us.problem =
                        r.error(ap, f + QStringLiteral(".auth-provider"),
                                QStringLiteral(
                                    "the legacy auth-provider '%1' is not supported (removed from kubectl in "
                                    "1.26); switch this user to an exec plugin such as kubelogin or "
                                    "gke-gcloud-auth-plugin")
                                    .arg(us.authProviderName));
            }
            cfg.users.push_back(std::move(us));
            return {};
        });
    if (!s)
        return s.error();

    s = readNamed(r, root, "contexts", "context",
                  [&](const QString& name, const Node& c, const QString& f) -> Status {
                      Context cx;
                      cx.name = name;
                      cx.sourceFile = abs;
                      PB_TRY(cx.cluster, r.string(c, "cluster", f + QStringLiteral(".cluster")));
                      PB_TRY(cx.user, r.string(c, "user", f + QStringLiteral(".user")));
                      PB_TRY(cx.namespace_, r.string(c, "namespace", f + QStringLiteral(".namespace")));
                      cfg.contexts.push_back(std::move(cx));
                      return {};
                  });
    if (!s)
        return s.error();
    return cfg;
}

Result<Kubeconfig> Kubeconfig::load(const QStringList& files) {
    Kubeconfig merged;
    QStringList missing;
    for (const QString& f : files) {
        if (f.isEmpty())
            continue;
        const QString abs = QFileInfo(f).absoluteFilePath();
        if (merged.files.contains(abs))
            continue;
        if (!QFileInfo::exists(abs)) {
            missing << f;
            continue;
        }
        // Non-blocking, regular files only: KUBECONFIG naming a named pipe is an error, not a hang.
        Result<QByteArray> bytes =
            readFileLimited(abs, limits::kConfigFile, QStringLiteral("the kubeconfig"));
        if (!bytes)
            return bytes.error();
        Result<Kubeconfig> one = parse(*bytes, f);
        if (!one)
            return one.error();
        merged.files << abs;
        // First file to define a name (or current-context) wins.
        if (merged.currentContext.isEmpty())
            merged.currentContext = one->currentContext;
        for (Cluster& c : one->clusters)
            if (!merged.cluster(c.name))
                merged.clusters.push_back(std::move(c));
        for (User& u : one->users)
            if (!merged.user(u.name))
                merged.users.push_back(std::move(u));
        for (Context& c : one->contexts)
            if (!merged.context(c.name))
                merged.contexts.push_back(std::move(c));
    }
    if (merged.files.isEmpty()) {
        if (files.isEmpty())
            return makeError(QStringLiteral("no kubeconfig file given"));
        return makeError(QStringLiteral("kubeconfig file not found (looked for: %1)")
                             .arg(missing.join(QStringLiteral(", "))),
                         missing.value(0));
    }
    return merged;
}

QByteArray Kubeconfig::toJson(bool redact) const {
    const QString redacted = QStringLiteral("REDACTED");
    QJsonArray cl;
    for (const Cluster* c : byName(clusters)) {
        QJsonObject o;
        if (!c->server.isEmpty())
            o.insert(QStringLiteral("server"), c->server);
        if (!c->tlsServerName.isEmpty())
            o.insert(QStringLiteral("tls-server-name"), c->tlsServerName);
        if (c->insecureSkipTlsVerify)
            o.insert(QStringLiteral("insecure-skip-tls-verify"), true);
        flatten(o, "certificate-authority-data", c->certificateAuthorityData, "certificate-authority",
                c->certificateAuthority, redact);
        if (!c->proxyUrl.isEmpty())
            o.insert(QStringLiteral("proxy-url"), c->proxyUrl);
        cl.append(QJsonObject{{QStringLiteral("name"), c->name}, {QStringLiteral("cluster"), o}});
    }
    QJsonArray us;
    for (const User* u : byName(users)) {
        QJsonObject o;
        flatten(o, "client-certificate-data", u->clientCertificateData, "client-certificate",
                u->clientCertificate, redact);
        flatten(o, "client-key-data", u->clientKeyData, "client-key", u->clientKey, redact);
        if (!u->token.isEmpty())
            o.insert(QStringLiteral("token"), redact ? redacted : u->token);
        if (!u->tokenFileAsWritten.isEmpty())
            o.insert(QStringLiteral("tokenFile"), u->tokenFileAsWritten);
        if (!u->username.isEmpty())
            o.insert(QStringLiteral("username"), u->username);
        if (!u->password.isEmpty())
            o.insert(QStringLiteral("password"), redact ? redacted : u->password);
        if (u->hasAuthProvider) {
            QJsonObject ap = QJsonDocument::fromJson(u->authProviderJson).object();
            if (redact && ap.contains(QStringLiteral("config"))) {
                QJsonObject conf = ap.value(QStringLiteral("config")).toObject();
                for (const QString& k : conf.keys())
                    if (k.contains(QStringLiteral("token")) || k.contains(QStringLiteral("secret")))
                        conf.insert(k, redacted);
                ap.insert(QStringLiteral("config"), conf);
            }
            o.insert(QStringLiteral("auth-provider"), ap);
        }
        if (u->exec) {
            const ExecConfig& e = *u->exec;
            QJsonObject x;
            x.insert(QStringLiteral("command"), e.commandAsWritten);
            x.insert(QStringLiteral("args"),
                     e.args.isEmpty() ? QJsonValue() : QJsonArray::fromStringList(e.args));
            QJsonArray env;
            for (const auto& [k, v] : e.env)
                env.append(QJsonObject{{QStringLiteral("name"), k}, {QStringLiteral("value"), v}});
            x.insert(QStringLiteral("env"), env.isEmpty() ? QJsonValue() : env);
            x.insert(QStringLiteral("apiVersion"), e.apiVersion);
            if (!e.installHint.isEmpty())
                x.insert(QStringLiteral("installHint"), e.installHint);
            x.insert(QStringLiteral("provideClusterInfo"), e.provideClusterInfo);
            x.insert(QStringLiteral("interactiveMode"), e.interactiveMode);
            o.insert(QStringLiteral("exec"), x);
        }
        us.append(QJsonObject{{QStringLiteral("name"), u->name}, {QStringLiteral("user"), o}});
    }
    QJsonArray cx;
    for (const Context* c : byName(contexts)) {
        QJsonObject o{{QStringLiteral("cluster"), c->cluster}, {QStringLiteral("user"), c->user}};
        if (!c->namespace_.isEmpty())
            o.insert(QStringLiteral("namespace"), c->namespace_);
        cx.append(QJsonObject{{QStringLiteral("name"), c->name}, {QStringLiteral("context"), o}});
    }
    QJsonObject root{{QStringLiteral("kind"), QStringLiteral("Config")},
                     {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                     {QStringLiteral("preferences"), QJsonObject()},
                     {QStringLiteral("clusters"), cl},
                     {QStringLiteral("users"), us},
                     {QStringLiteral("contexts"), cx},
                     {QStringLiteral("current-context"), currentContext}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Result<ResolvedContext> resolveContext(const Kubeconfig& config, const QString& contextName) {
    const QString name = contextName.isEmpty() ? config.currentContext : contextName;
    const QString where = config.files.join(QLatin1Char(':'));
    if (name.isEmpty())
        return makeError(QStringLiteral("no context given and no current-context set"), where, 0,
                         QStringLiteral("current-context"));
    const Context* cx = config.context(name);
    if (!cx)
        return makeError(QStringLiteral("context '%1' not found").arg(name), where, 0,
                         QStringLiteral("contexts"));
    ResolvedContext out;
    out.context = *cx;
    const Cluster* cl = config.cluster(cx->cluster);
    if (!cl)
        return makeError(
            QStringLiteral("context '%1' refers to cluster '%2', which no kubeconfig file defines")
                .arg(name, cx->cluster),
            cx->sourceFile, 0, QStringLiteral("contexts[%1].context.cluster").arg(name));
    if (cl->server.isEmpty())
        return makeError(QStringLiteral("cluster '%1' has no server").arg(cl->name), cl->sourceFile, 0,
                         QStringLiteral("clusters[%1].cluster.server").arg(cl->name));
    if (cl->insecureSkipTlsVerify &&
        (!cl->certificateAuthority.isEmpty() || !cl->certificateAuthorityData.isEmpty()))
        // kubectl (client-go) refuses this combination too: "specifying a root certificates file with
        // the insecure flag is not allowed".
        return makeError(
            QStringLiteral(
                "cluster '%1' sets insecure-skip-tls-verify together with a certificate authority; kubectl "
                "refuses this (\"specifying a root certificates file with the insecure flag is not "
                "allowed\"). "
                "Remove one of them")
                .arg(cl->name),
            cl->sourceFile, 0, QStringLiteral("clusters[%1].cluster.insecure-skip-tls-verify").arg(cl->name));
    out.cluster = *cl;
    if (!cx->user.isEmpty()) {
        const User* us = config.user(cx->user);
        if (!us)
            return makeError(
                QStringLiteral("context '%1' refers to user '%2', which no kubeconfig file defines")
                    .arg(name, cx->user),
                cx->sourceFile, 0, QStringLiteral("contexts[%1].context.user").arg(name));
        if (us->problem)
            return *us->problem;
        out.user = *us;
    }
    return out;
}

} // namespace pb::kube
