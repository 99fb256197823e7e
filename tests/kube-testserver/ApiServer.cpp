#include "ApiServer.h"
#include "Http2.h"
#include "OpenApi.h"
#include "Protobuf.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTimeZone>
#include <QUuid>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace kts {
namespace {

using Clock = std::chrono::steady_clock;

QJsonObject statusObject(int code, const QString& reason, const QString& message,
                         const QJsonObject& details) {
    QJsonObject s{
        {QStringLiteral("kind"), QStringLiteral("Status")},
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("metadata"), QJsonObject{}},
        {QStringLiteral("status"), code < 300 ? QStringLiteral("Success") : QStringLiteral("Failure")},
        {QStringLiteral("code"), code}};
    if (!message.isEmpty())
        s.insert(QStringLiteral("message"), message);
    if (!reason.isEmpty())
        s.insert(QStringLiteral("reason"), reason);
    if (!details.isEmpty())
        s.insert(QStringLiteral("details"), details);
    return s;
}

QJsonObject detailsFor(const ResourceType& type, const QString& name, const QString& uid = {}) {
    QJsonObject d{{QStringLiteral("name"), name}, {QStringLiteral("kind"), type.resource}};
    if (!type.group.isEmpty())
        d.insert(QStringLiteral("group"), type.group);
    if (!uid.isEmpty())
        d.insert(QStringLiteral("uid"), uid);
    return d;
}

QByteArray toJson(const QJsonObject& o) {
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

bool truthy(const QString& v) {
    return v == QLatin1String("1") || v.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
}

// ---- selectors -------------------------------------------------------------------------------

struct Requirement {
    enum Op { Eq, Neq, Exists, NotExists, In, NotIn } op = Eq;
    QString key;
    QStringList values;
};

bool validLabelValue(const QString& s) {
    static const QRegularExpression re(QStringLiteral("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"));
    return s.size() <= 63 && re.match(s).hasMatch();
}

bool validLabelKey(const QString& s) {
    static const QRegularExpression re(
        QStringLiteral("^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$"));
    return !s.isEmpty() && re.match(s).hasMatch();
}

std::optional<QList<Requirement>> parseLabelSelector(const QString& text, QString* error) {
    QList<Requirement> out;
    QStringList terms;
    int depth = 0;
    QString current;
    for (const QChar c : text) {
        if (c == QLatin1Char('('))
            ++depth;
        else if (c == QLatin1Char(')'))
            --depth;
        if (c == QLatin1Char(',') && depth == 0) {
            terms << current;
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.trimmed().isEmpty() || !terms.isEmpty())
        terms << current;
    static const QRegularExpression setRe(QStringLiteral("^\\s*(\\S+)\\s+(in|notin)\\s*\\(([^)]*)\\)\\s*$"));
    for (const QString& raw : terms) {
        const QString term = raw.trimmed();
        Requirement r;
        if (const auto m = setRe.match(term); m.hasMatch()) {
            r.key = m.captured(1);
            r.op = m.captured(2) == QLatin1String("in") ? Requirement::In : Requirement::NotIn;
            for (const QString& v : m.captured(3).split(QLatin1Char(',')))
                r.values << v.trimmed();
        } else if (term.startsWith(QLatin1Char('!'))) {
            r.op = Requirement::NotExists;
            r.key = term.mid(1).trimmed();
        } else if (const qsizetype ne = term.indexOf(QLatin1String("!=")); ne > 0) {
            r.op = Requirement::Neq;
            r.key = term.left(ne).trimmed();
            r.values << term.mid(ne + 2).trimmed();
        } else if (const qsizetype eq2 = term.indexOf(QLatin1String("==")); eq2 > 0) {
            r.key = term.left(eq2).trimmed();
            r.values << term.mid(eq2 + 2).trimmed();
        } else if (const qsizetype eq = term.indexOf(QLatin1Char('=')); eq > 0) {
            r.key = term.left(eq).trimmed();
            r.values << term.mid(eq + 1).trimmed();
        } else {
            r.op = Requirement::Exists;
            r.key = term;
        }
        if (!validLabelKey(r.key)) {
            *error = QStringLiteral("unable to parse requirement: invalid label key \"%1\"").arg(r.key);
            return std::nullopt;
        }
        for (const QString& v : r.values)
            if (!validLabelValue(v)) {
                *error = QStringLiteral("unable to parse requirement: invalid label value: \"%1\"").arg(v);
                return std::nullopt;
            }
        out << r;
    }
    return out;
}

bool labelsMatch(const QList<Requirement>& reqs, const QJsonObject& object) {
    const QJsonObject labels = metadataOf(object).value(QLatin1String("labels")).toObject();
    for (const Requirement& r : reqs) {
        const bool has = labels.contains(r.key);
        const QString v = labels.value(r.key).toString();
        switch (r.op) {
        case Requirement::Eq:
            if (!has || v != r.values.first())
                return false;
            break;
        case Requirement::Neq:
            if (has && v == r.values.first())
                return false;
            break;
        case Requirement::Exists:
            if (!has)
                return false;
            break;
        case Requirement::NotExists:
            if (has)
                return false;
            break;
        case Requirement::In:
            if (!has || !r.values.contains(v))
                return false;
            break;
        case Requirement::NotIn:
            if (has && r.values.contains(v))
                return false;
            break;
        }
    }
    return true;
}

struct FieldRequirement {
    QString path;
    QString value;
    bool negate = false;
};

std::optional<QList<FieldRequirement>> parseFieldSelector(const QString& text, const ResourceType& type,
                                                          QString* error) {
    QList<FieldRequirement> out;
    if (text.trimmed().isEmpty())
        return out;
    for (const QString& raw : text.split(QLatin1Char(','))) {
        const QString term = raw.trimmed();
        FieldRequirement f;
        qsizetype at = term.indexOf(QLatin1String("!="));
        int opLen = 2;
        if (at > 0) {
            f.negate = true;
        } else if ((at = term.indexOf(QLatin1String("=="))) > 0) {
        } else if ((at = term.indexOf(QLatin1Char('='))) > 0) {
            opLen = 1;
        } else {
            *error = QStringLiteral("invalid selector: '%1'; can't understand '%2'").arg(text, term);
            return std::nullopt;
        }
        f.path = term.left(at).trimmed();
        f.value = term.mid(at + opLen).trimmed();
        QStringList allowed{QStringLiteral("metadata.name"), QStringLiteral("metadata.namespace")};
        if (type.resource == QLatin1String("pods"))
            allowed << QStringLiteral("status.phase") << QStringLiteral("spec.nodeName");
        if (type.resource == QLatin1String("jobs"))
            allowed << QStringLiteral("status.successful");
        if (!allowed.contains(f.path)) {
            *error = QStringLiteral("field label not supported: %1").arg(f.path);
            return std::nullopt;
        }
        out << f;
    }
    return out;
}

QJsonValue lookup(const QJsonObject& object, const QString& path) {
    QJsonValue v = object;
    for (const QString& part : path.split(QLatin1Char('.')))
        v = v.toObject().value(part);
    return v;
}

bool fieldsMatch(const QList<FieldRequirement>& reqs, const QJsonObject& object) {
    for (const FieldRequirement& f : reqs) {
        const QString v = lookup(object, f.path).toVariant().toString();
        if ((v == f.value) == f.negate)
            return false;
    }
    return true;
}

// ---- names, ages, tables -----------------------------------------------------------------------

bool validName(const QString& name, bool subdomain) {
    static const QRegularExpression label(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
    static const QRegularExpression sub(
        QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
    return name.size() <= (subdomain ? 253 : 63) && (subdomain ? sub : label).match(name).hasMatch();
}

QString age(const QString& timestamp) {
    const QDateTime t = QDateTime::fromString(timestamp, Qt::ISODate);
    if (!t.isValid())
        return QStringLiteral("<unknown>");
    const qint64 s = std::max<qint64>(0, t.secsTo(QDateTime::currentDateTimeUtc()));
    if (s < 120)
        return QStringLiteral("%1s").arg(s);
    if (s < 600)
        return QStringLiteral("%1m%2s").arg(s / 60).arg(s % 60);
    if (s < 3 * 3600)
        return QStringLiteral("%1m").arg(s / 60);
    if (s < 2 * 86400)
        return QStringLiteral("%1h").arg(s / 3600);
    return QStringLiteral("%1d").arg(s / 86400);
}

QJsonObject column(const QString& name, const QString& type, const QString& description, int priority = 0) {
    QJsonObject c{
        {QStringLiteral("name"), name},
        {QStringLiteral("type"), type},
        {QStringLiteral("format"), name == QLatin1String("Name") ? QStringLiteral("name") : QString()},
        {QStringLiteral("description"), description},
        {QStringLiteral("priority"), priority}};
    return c;
}

QJsonArray tableColumns(const ResourceType& type) {
    const QJsonObject name = column(QStringLiteral("Name"), QStringLiteral("string"),
                                    QStringLiteral("Name must be unique within a namespace."));
    const QJsonObject ageCol = column(QStringLiteral("Age"), QStringLiteral("string"),
                                      QStringLiteral("Time since the object was created."));
    if (type.resource == QLatin1String("pods"))
        return {name,
                column(QStringLiteral("Ready"), QStringLiteral("string"),
                       QStringLiteral("Ready containers / all containers.")),
                column(QStringLiteral("Status"), QStringLiteral("string"),
                       QStringLiteral("The aggregate status of the containers in this pod.")),
                column(QStringLiteral("Restarts"), QStringLiteral("string"),
                       QStringLiteral("Container restarts.")),
                ageCol,
                column(QStringLiteral("IP"), QStringLiteral("string"), QStringLiteral("Pod IP."), 1),
                column(QStringLiteral("Node"), QStringLiteral("string"),
                       QStringLiteral("Node the pod is bound to."), 1)};
    if (type.resource == QLatin1String("jobs"))
        return {
            name,
            column(QStringLiteral("Status"), QStringLiteral("string"), QStringLiteral("Status of the job.")),
            column(QStringLiteral("Completions"), QStringLiteral("string"),
                   QStringLiteral("Succeeded / desired completions.")),
            column(QStringLiteral("Duration"), QStringLiteral("string"), QStringLiteral("Time the job ran.")),
            ageCol};
    if (type.resource == QLatin1String("nodes"))
        return {
            name,
            column(QStringLiteral("Status"), QStringLiteral("string"), QStringLiteral("Node readiness.")),
            column(QStringLiteral("Roles"), QStringLiteral("string"), QStringLiteral("Node roles.")),
            ageCol,
            column(QStringLiteral("Version"), QStringLiteral("string"), QStringLiteral("Kubelet version.")),
            column(QStringLiteral("OS-Image"), QStringLiteral("string"), QStringLiteral("OS image."), 1),
            column(QStringLiteral("Kernel-Version"), QStringLiteral("string"),
                   QStringLiteral("Kernel version."), 1)};
    if (type.resource == QLatin1String("namespaces"))
        return {
            name,
            column(QStringLiteral("Status"), QStringLiteral("string"), QStringLiteral("Namespace phase.")),
            ageCol};
    if (type.resource == QLatin1String("configmaps"))
        return {
            name,
            column(QStringLiteral("Data"), QStringLiteral("integer"), QStringLiteral("Number of data keys.")),
            ageCol};
    if (type.resource == QLatin1String("clusterrolebindings"))
        return {name,
                column(QStringLiteral("Role"), QStringLiteral("string"), QStringLiteral("Referenced role.")),
                ageCol};
    if (type.resource == QLatin1String("events")) // the apiserver's printer: no Name column
        return {
            column(QStringLiteral("Last Seen"), QStringLiteral("string"),
                   QStringLiteral("Time since last seen.")),
            column(QStringLiteral("Type"), QStringLiteral("string"), QStringLiteral("Normal or Warning.")),
            column(QStringLiteral("Reason"), QStringLiteral("string"),
                   QStringLiteral("Why the event was raised.")),
            column(QStringLiteral("Object"), QStringLiteral("string"),
                   QStringLiteral("The object it is about.")),
            column(QStringLiteral("Message"), QStringLiteral("string"), QStringLiteral("What happened."))};
    return {name, ageCol};
}

QJsonArray tableCells(const ResourceType& type, const QJsonObject& o) {
    const QJsonObject meta = metadataOf(o);
    const QJsonObject status = o.value(QLatin1String("status")).toObject();
    const QString name = meta.value(QLatin1String("name")).toString();
    const QString created = age(meta.value(QLatin1String("creationTimestamp")).toString());
    if (type.resource == QLatin1String("pods")) {
        const QJsonArray cs = status.value(QLatin1String("containerStatuses")).toArray();
        int ready = 0, restarts = 0;
        QString reason = status.value(QLatin1String("phase")).toString();
        for (const QJsonValue& v : cs) {
            const QJsonObject c = v.toObject();
            ready += c.value(QLatin1String("ready")).toBool() ? 1 : 0;
            restarts += c.value(QLatin1String("restartCount")).toInt();
            const QJsonObject state = c.value(QLatin1String("state")).toObject();
            if (state.contains(QLatin1String("waiting")))
                reason = state.value(QLatin1String("waiting"))
                             .toObject()
                             .value(QLatin1String("reason"))
                             .toString();
            else if (state.contains(QLatin1String("terminated")))
                reason = state.value(QLatin1String("terminated"))
                             .toObject()
                             .value(QLatin1String("reason"))
                             .toString();
        }
        return {name,
                QStringLiteral("%1/%2").arg(ready).arg(cs.size()),
                reason,
                QString::number(restarts),
                created,
                status.value(QLatin1String("podIP")).toString(QStringLiteral("<none>")),
                o.value(QLatin1String("spec"))
                    .toObject()
                    .value(QLatin1String("nodeName"))
                    .toString(QStringLiteral("<none>"))};
    }
    if (type.resource == QLatin1String("jobs")) {
        QString state = QStringLiteral("Running");
        for (const QJsonValue& v : status.value(QLatin1String("conditions")).toArray()) {
            const QString t = v.toObject().value(QLatin1String("type")).toString();
            if (t == QLatin1String("Complete") || t == QLatin1String("Failed"))
                state = t;
        }
        const int completions =
            o.value(QLatin1String("spec")).toObject().value(QLatin1String("completions")).toInt(1);
        QString duration = QStringLiteral("0s");
        const QDateTime start =
            QDateTime::fromString(status.value(QLatin1String("startTime")).toString(), Qt::ISODate);
        QDateTime end =
            QDateTime::fromString(status.value(QLatin1String("completionTime")).toString(), Qt::ISODate);
        if (!end.isValid())
            end = QDateTime::currentDateTimeUtc();
        if (start.isValid())
            duration = QStringLiteral("%1s").arg(std::max<qint64>(0, start.secsTo(end)));
        return {
            name, state,
            QStringLiteral("%1/%2").arg(status.value(QLatin1String("succeeded")).toInt()).arg(completions),
            duration, created};
    }
    if (type.resource == QLatin1String("nodes")) {
        const QJsonObject info = status.value(QLatin1String("nodeInfo")).toObject();
        return {name,
                QStringLiteral("Ready"),
                QStringLiteral("<none>"),
                created,
                info.value(QLatin1String("kubeletVersion")).toString(),
                info.value(QLatin1String("osImage")).toString(),
                info.value(QLatin1String("kernelVersion")).toString()};
    }
    if (type.resource == QLatin1String("namespaces"))
        return {name, status.value(QLatin1String("phase")).toString(QStringLiteral("Active")), created};
    if (type.resource == QLatin1String("configmaps"))
        return {name,
                o.value(QLatin1String("data")).toObject().size() +
                    o.value(QLatin1String("binaryData")).toObject().size(),
                created};
    if (type.resource == QLatin1String("clusterrolebindings")) {
        const QJsonObject ref = o.value(QLatin1String("roleRef")).toObject();
        return {name,
                ref.value(QLatin1String("kind")).toString() + QLatin1Char('/') +
                    ref.value(QLatin1String("name")).toString(),
                created};
    }
    if (type.resource == QLatin1String("events")) {
        const QJsonObject involved = o.value(QLatin1String("involvedObject")).toObject();
        return {age(o.value(QLatin1String("lastTimestamp")).toString()),
                o.value(QLatin1String("type")).toString(), o.value(QLatin1String("reason")).toString(),
                involved.value(QLatin1String("kind")).toString().toLower() + QLatin1Char('/') +
                    involved.value(QLatin1String("name")).toString(),
                o.value(QLatin1String("message")).toString()};
    }
    return {name, created};
}

QJsonObject table(const ResourceType& type, const QList<QJsonObject>& objects, qint64 rv) {
    QJsonArray rows;
    for (const QJsonObject& o : objects) {
        QJsonObject partial{{QStringLiteral("kind"), QStringLiteral("PartialObjectMetadata")},
                            {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")},
                            {QStringLiteral("metadata"), metadataOf(o)}};
        rows.append(
            QJsonObject{{QStringLiteral("cells"), tableCells(type, o)}, {QStringLiteral("object"), partial}});
    }
    return QJsonObject{
        {QStringLiteral("kind"), QStringLiteral("Table")},
        {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("resourceVersion"), QString::number(rv)}}},
        {QStringLiteral("columnDefinitions"), tableColumns(type)},
        {QStringLiteral("rows"), rows}};
}

bool wantsTable(const Request& request) {
    return request.header("accept").contains("as=Table");
}

// RFC 7386 JSON merge patch.
QJsonValue mergePatch(const QJsonValue& target, const QJsonValue& patch) {
    if (!patch.isObject())
        return patch;
    QJsonObject out = target.toObject();
    const QJsonObject p = patch.toObject();
    for (auto it = p.begin(); it != p.end(); ++it) {
        if (it.value().isNull())
            out.remove(it.key());
        else
            out.insert(it.key(), mergePatch(out.value(it.key()), it.value()));
    }
    return out;
}

QJsonObject apiResource(const ResourceType& t, const QString& name, const QString& kind,
                        const QStringList& verbs) {
    QJsonObject r{{QStringLiteral("name"), name},
                  {QStringLiteral("singularName"), name.contains(QLatin1Char('/')) ? QString() : t.singular},
                  {QStringLiteral("namespaced"), t.namespaced},
                  {QStringLiteral("kind"), kind},
                  {QStringLiteral("verbs"), QJsonArray::fromStringList(verbs)}};
    if (!t.shortNames.isEmpty() && !name.contains(QLatin1Char('/')))
        r.insert(QStringLiteral("shortNames"), QJsonArray::fromStringList(t.shortNames));
    if ((t.resource == QLatin1String("pods") || t.resource == QLatin1String("jobs")) &&
        !name.contains(QLatin1Char('/')))
        r.insert(QStringLiteral("categories"), QJsonArray{QStringLiteral("all")});
    return r;
}

} // namespace

ApiServer::ApiServer(const Script& script, const QStringList& tokens, const QString& tokensFile)
    : script_(script), tokens_(tokens), tokensFile_(tokensFile), controller_(store_, script) {
    conflictsLeft_ = script.faults.conflictOnCreate;
}

void ApiServer::start(int port) {
    port_ = port;
    {
        std::lock_guard lock(store_.mu);
        store_.setHistoryLimit(script_.historyLimit);
        const ResourceType* ns = findResourceType({}, QStringLiteral("v1"), QStringLiteral("namespaces"));
        for (const char* name : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
            Failure f;
            createLocked(*ns, {},
                         QJsonObject{{QStringLiteral("metadata"),
                                      QJsonObject{{QStringLiteral("name"), QLatin1String(name)}}}},
                         false, f);
        }
        for (const QJsonObject& node : nodeObjects(script_))
            store_.add(QStringLiteral("nodes"), node);
        // What existed before the server "started" is compacted: watching from an older version is 410.
        store_.compact();
    }
    controller_.onServerFault = [this](const QString& fault, const QString& check) {
        serverFault(fault, check);
    };
    if (script_.exitAfterMs > 0)
        std::thread([ms = script_.exitAfterMs] {
            std::this_thread::sleep_for(std::chrono::milliseconds(ms));
            std::fprintf(stderr, "pb-kube-testserver: faults.exitAfterMs reached, exiting\n");
            std::fflush(stderr);
            std::_Exit(0);
        }).detach();
    controller_.start();
}

void ApiServer::serve(TlsStream& stream) {
    if (stream.alpn() == "h2") {
        serveHttp2(stream, [this](Exchange& exchange, Request& request) {
            if (script_.faults.slowMs > 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(script_.faults.slowMs));
            handle(exchange, request);
        });
        return;
    }
    HttpConnection http(stream);
    Request request;
    for (;;) {
        const auto result = http.readRequest(request);
        if (result == HttpConnection::ReadResult::Closed)
            return;
        if (result == HttpConnection::ReadResult::Malformed) {
            http.send(400, "text/plain", "malformed HTTP request\n", false);
            return;
        }
        if (script_.faults.slowMs > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(script_.faults.slowMs));
        if (!handle(http, request) || !request.keepAlive)
            return;
    }
}

std::optional<ApiServer::Identity> ApiServer::identify(const Peer& peer, const Request& request) {
    if (!peer.commonName.isEmpty())
        return Identity{peer.commonName, peer.organizations.contains(QStringLiteral("system:masters"))};
    const QByteArray auth = request.header("authorization");
    if (!auth.startsWith("Bearer ") || tokensRevoked_)
        return std::nullopt;
    const QString token = QString::fromUtf8(auth.mid(7).trimmed());
    if (token.isEmpty())
        return std::nullopt;
    bool known = tokens_.contains(token);
    if (!known && !tokensFile_.isEmpty()) {
        QFile f(tokensFile_);
        if (f.open(QIODevice::ReadOnly))
            for (const QByteArray& line : f.readAll().split('\n'))
                if (QString::fromUtf8(line.trimmed()) == token)
                    known = true;
    }
    if (!known)
        return std::nullopt;
    if (script_.faults.tokenMaxUses > 0) {
        std::lock_guard lock(authMu_);
        int& uses = tokenUses_[token];
        if (uses >= script_.faults.tokenMaxUses)
            return std::nullopt;
        ++uses;
    }
    const Rbac& rbac = script_.rbac;
    if (rbac.enabled && (rbac.tokens.isEmpty() || rbac.tokens.contains(token)))
        return Identity{rbac.user, false};
    return Identity{QStringLiteral("pb-token-user"), true}; // without rbac every token may do anything
}

std::optional<QString> ApiServer::forbidden(const Identity& who, const QString& verb,
                                            const ResourceType* type, const QString& subresource,
                                            const QString& ns, const QString& name) const {
    if (who.admin || !type)
        return std::nullopt;
    const QString qualifiedResource =
        subresource.isEmpty() ? type->qualified()
                              : type->resource + QLatin1Char('/') + subresource +
                                    (type->group.isEmpty() ? QString() : QLatin1Char('.') + type->group);
    if (script_.rbac.allowed(verb, qualifiedResource))
        return std::nullopt;
    // The apiserver's wording (k8s.io/apiserver authorization filter, forbidden()).
    QString msg =
        name.isEmpty() ? type->qualified() : QStringLiteral("%1 \"%2\"").arg(type->qualified(), name);
    msg += QStringLiteral(" is forbidden: User \"%1\" cannot %2 resource \"%3\"")
               .arg(script_.rbac.user, verb,
                    subresource.isEmpty() ? type->resource : type->resource + QLatin1Char('/') + subresource);
    msg += QStringLiteral(" in API group \"%1\"").arg(type->group);
    msg += ns.isEmpty() ? QStringLiteral(" at the cluster scope")
                        : QStringLiteral(" in the namespace \"%1\"").arg(ns);
    return msg;
}

std::optional<ApiServer::Failure> ApiServer::admit(const char* operation, const ResourceType& type,
                                                   const QString& ns, const QString& name) const {
    for (const AdmissionRule& rule : script_.admission) {
        if (rule.operation != QLatin1String(operation) ||
            (rule.resource != QLatin1String("*") && rule.resource != type.qualified()) ||
            !name.startsWith(rule.namePrefix))
            continue;
        Q_UNUSED(ns);
        Failure f;
        f.code = rule.code;
        f.reason = rule.reason;
        f.message =
            QStringLiteral("admission webhook \"%1\" denied the request: %2").arg(rule.webhook, rule.message);
        return f;
    }
    return std::nullopt;
}

void ApiServer::serverFault(const QString& fault, const QString& check) {
    // With store_.mu held (from the controller's tick).
    std::fprintf(stderr, "pb-kube-testserver: serverFault %s fired by %s\n", qPrintable(fault),
                 qPrintable(check));
    std::fflush(stderr);
    if (fault == QLatin1String("exit")) {
        std::fflush(stdout);
        std::_Exit(0); // the API server is gone: every connection drops, nothing answers
    }
    if (fault == QLatin1String("revokeTokens"))
        tokensRevoked_ = true;
    if (fault == QLatin1String("compact"))
        store_.compact();
}

bool ApiServer::evict(Exchange& http, const Request& request, const Route& r) {
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    if (body.value(QLatin1String("kind")).toString() != QLatin1String("Eviction"))
        return sendStatus(http, request, 400, QStringLiteral("BadRequest"),
                          QStringLiteral("the body must be a policy/v1 Eviction"));
    std::lock_guard lock(store_.mu);
    if (!store_.find(QStringLiteral("pods"), r.ns, r.name))
        return sendStatus(http, request, 404, QStringLiteral("NotFound"),
                          QStringLiteral("pods \"%1\" not found").arg(r.name), detailsFor(*r.type, r.name));
    controller_.deleteGracefully(QStringLiteral("pods"), r.ns, r.name,
                                 QStringLiteral("EvictionByEvictionAPI"));
    return sendJson(http, request, 201, statusObject(201, {}, {}, {}));
}

bool ApiServer::selfSubjectAccessReview(Exchange& http, const Request& request, const Identity& who) {
    QJsonObject review = QJsonDocument::fromJson(request.body).object();
    const QJsonObject attrs =
        review.value(QLatin1String("spec")).toObject().value(QLatin1String("resourceAttributes")).toObject();
    const QString verb = attrs.value(QLatin1String("verb")).toString();
    const QString group = attrs.value(QLatin1String("group")).toString();
    const QString resource = attrs.value(QLatin1String("resource")).toString();
    const QString subresource = attrs.value(QLatin1String("subresource")).toString();
    QString qualified = resource;
    if (!subresource.isEmpty())
        qualified += QLatin1Char('/') + subresource;
    if (!group.isEmpty())
        qualified += QLatin1Char('.') + group;
    const bool allowed = who.admin || script_.rbac.allowed(verb, qualified);
    QJsonObject status{{QStringLiteral("allowed"), allowed}};
    if (who.admin)
        status.insert(QStringLiteral("reason"),
                      QStringLiteral("pb-kube-testserver: system:masters may do anything"));
    else if (!allowed)
        status.insert(QStringLiteral("denied"), false), status.insert(QStringLiteral("reason"), QString());
    else
        status.insert(QStringLiteral("reason"),
                      QStringLiteral("RBAC: allowed by the script's rules for user \"%1\"").arg(who.user));
    review.insert(QStringLiteral("kind"), QStringLiteral("SelfSubjectAccessReview"));
    review.insert(QStringLiteral("apiVersion"), QStringLiteral("authorization.k8s.io/v1"));
    review.insert(QStringLiteral("status"), status);
    return sendJson(http, request, 201, review);
}

bool ApiServer::selfSubjectReview(Exchange& http, const Request& request, const Identity& who) {
    // `kubectl auth whoami`: who the server took the request to be.
    QJsonArray groups{QStringLiteral("system:authenticated")};
    if (who.admin)
        groups.prepend(QStringLiteral("system:masters"));
    const QJsonObject review{
        {QStringLiteral("kind"), QStringLiteral("SelfSubjectReview")},
        {QStringLiteral("apiVersion"), QStringLiteral("authentication.k8s.io/v1")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("creationTimestamp"), QJsonValue()}}},
        {QStringLiteral("status"),
         QJsonObject{{QStringLiteral("userInfo"), QJsonObject{{QStringLiteral("username"), who.user},
                                                              {QStringLiteral("groups"), groups}}}}}};
    return sendJson(http, request, 201, review);
}

bool ApiServer::selfSubjectRulesReview(Exchange& http, const Request& request, const Identity& who) {
    // `kubectl auth can-i --list`: the rules that apply to the caller (RBAC's "VERB RESOURCE" rules of
    // the script, or everything for system:masters).
    QJsonObject review = QJsonDocument::fromJson(request.body).object();
    QJsonArray resourceRules;
    auto rule = [](const QString& verb, const QString& qualified) {
        const QString resource = qualified.section(QLatin1Char('.'), 0, 0);
        const QString group =
            qualified == QLatin1String("*") ? QStringLiteral("*") : qualified.section(QLatin1Char('.'), 1);
        return QJsonObject{{QStringLiteral("verbs"), QJsonArray{verb}},
                           {QStringLiteral("apiGroups"), QJsonArray{group}},
                           {QStringLiteral("resources"), QJsonArray{resource}}};
    };
    if (who.admin || !script_.rbac.enabled) {
        resourceRules.append(rule(QStringLiteral("*"), QStringLiteral("*")));
    } else {
        for (const QString& r : script_.rbac.allow) {
            const QStringList parts = r.split(QLatin1Char(' '), Qt::SkipEmptyParts);
            if (parts.size() == 2)
                resourceRules.append(rule(parts[0], parts[1]));
        }
    }
    review.insert(QStringLiteral("kind"), QStringLiteral("SelfSubjectRulesReview"));
    review.insert(QStringLiteral("apiVersion"), QStringLiteral("authorization.k8s.io/v1"));
    review.insert(QStringLiteral("status"),
                  QJsonObject{{QStringLiteral("resourceRules"), resourceRules},
                              {QStringLiteral("nonResourceRules"),
                               QJsonArray{QJsonObject{
                                   {QStringLiteral("verbs"), QJsonArray{QStringLiteral("get")}},
                                   {QStringLiteral("nonResourceURLs"),
                                    QJsonArray{QStringLiteral("/version"), QStringLiteral("/api"),
                                               QStringLiteral("/api/*"), QStringLiteral("/apis"),
                                               QStringLiteral("/apis/*"), QStringLiteral("/openapi/*")}}}}},
                              {QStringLiteral("incomplete"), false}});
    return sendJson(http, request, 201, review);
}

bool ApiServer::sendJson(Exchange& http, const Request& request, int code, const QJsonObject& body) {
    return http.send(code, "application/json", toJson(body) + '\n', request.keepAlive);
}

bool ApiServer::sendStatus(Exchange& http, const Request& request, int code, const QString& reason,
                           const QString& message, const QJsonObject& details) {
    return sendJson(http, request, code, statusObject(code, reason, message, details));
}

bool ApiServer::discovery(Exchange& http, const Request& request, bool* handled) {
    *handled = true;
    QString p = request.path; // "/version/", "/api/" and "/apis/batch/" answer as without the slash
    while (p.size() > 1 && p.endsWith(QLatin1Char('/')))
        p.chop(1);
    if (p == QLatin1String("/version"))
        return sendJson(http, request, 200, script_.serverVersion);
    if (p == QLatin1String("/openapi/v3"))
        return sendJson(http, request, 200, openApiRoot());
    if (p.startsWith(QLatin1String("/openapi/v3/"))) {
        const std::optional<QJsonObject> doc =
            openApiDocument(p.mid(12), script_.serverVersion.value(QLatin1String("gitVersion")).toString());
        if (!doc)
            return sendStatus(http, request, 404, QStringLiteral("NotFound"),
                              QStringLiteral("the server could not find the requested resource"));
        return sendJson(http, request, 200, *doc);
    }
    if (p == QLatin1String("/healthz") || p == QLatin1String("/readyz") || p == QLatin1String("/livez"))
        return http.send(200, "text/plain; charset=utf-8", "ok", request.keepAlive);
    if (p == QLatin1String("/api"))
        return sendJson(http, request, 200,
                        {{QStringLiteral("kind"), QStringLiteral("APIVersions")},
                         {QStringLiteral("versions"), QJsonArray{QStringLiteral("v1")}},
                         {QStringLiteral("serverAddressByClientCIDRs"),
                          QJsonArray{QJsonObject{{QStringLiteral("clientCIDR"), QStringLiteral("0.0.0.0/0")},
                                                 {QStringLiteral("serverAddress"),
                                                  QStringLiteral("127.0.0.1:%1").arg(port_)}}}}});
    const QStringList groups{QStringLiteral("batch"), QStringLiteral("rbac.authorization.k8s.io"),
                             QStringLiteral("authorization.k8s.io"), QStringLiteral("authentication.k8s.io")};
    auto groupObject = [](const QString& g) {
        const QJsonObject v{{QStringLiteral("groupVersion"), g + QStringLiteral("/v1")},
                            {QStringLiteral("version"), QStringLiteral("v1")}};
        return QJsonObject{{QStringLiteral("name"), g},
                           {QStringLiteral("versions"), QJsonArray{v}},
                           {QStringLiteral("preferredVersion"), v}};
    };
    if (p == QLatin1String("/apis")) {
        QJsonArray list;
        for (const QString& g : groups)
            list.append(groupObject(g));
        return sendJson(http, request, 200,
                        {{QStringLiteral("kind"), QStringLiteral("APIGroupList")},
                         {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                         {QStringLiteral("groups"), list}});
    }
    for (const QString& g : groups)
        if (p == QLatin1String("/apis/") + g) {
            QJsonObject o = groupObject(g);
            o.insert(QStringLiteral("kind"), QStringLiteral("APIGroup"));
            o.insert(QStringLiteral("apiVersion"), QStringLiteral("v1"));
            return sendJson(http, request, 200, o);
        }
    QString groupVersion;
    if (p == QLatin1String("/api/v1"))
        groupVersion = QStringLiteral("v1");
    for (const QString& g : groups)
        if (p == QLatin1String("/apis/") + g + QLatin1String("/v1"))
            groupVersion = g + QLatin1String("/v1");
    if (groupVersion.isEmpty()) {
        *handled = false;
        return true;
    }
    QJsonArray resources;
    if (groupVersion == QLatin1String("authorization.k8s.io/v1")) {
        resources.append(
            QJsonObject{{QStringLiteral("name"), QStringLiteral("selfsubjectaccessreviews")},
                        {QStringLiteral("singularName"), QStringLiteral("selfsubjectaccessreview")},
                        {QStringLiteral("namespaced"), false},
                        {QStringLiteral("kind"), QStringLiteral("SelfSubjectAccessReview")},
                        {QStringLiteral("verbs"), QJsonArray{QStringLiteral("create")}}});
        resources.append(
            QJsonObject{{QStringLiteral("name"), QStringLiteral("selfsubjectrulesreviews")},
                        {QStringLiteral("singularName"), QStringLiteral("selfsubjectrulesreview")},
                        {QStringLiteral("namespaced"), false},
                        {QStringLiteral("kind"), QStringLiteral("SelfSubjectRulesReview")},
                        {QStringLiteral("verbs"), QJsonArray{QStringLiteral("create")}}});
    }
    if (groupVersion == QLatin1String("authentication.k8s.io/v1"))
        resources.append(QJsonObject{{QStringLiteral("name"), QStringLiteral("selfsubjectreviews")},
                                     {QStringLiteral("singularName"), QStringLiteral("selfsubjectreview")},
                                     {QStringLiteral("namespaced"), false},
                                     {QStringLiteral("kind"), QStringLiteral("SelfSubjectReview")},
                                     {QStringLiteral("verbs"), QJsonArray{QStringLiteral("create")}}});
    for (const ResourceType& t : resourceTypes()) {
        if (t.apiVersion() != groupVersion)
            continue;
        resources.append(apiResource(t, t.resource, t.kind, t.verbs));
        if (t.resource == QLatin1String("pods"))
            resources.append(
                apiResource(t, QStringLiteral("pods/log"), QStringLiteral("Pod"), {QStringLiteral("get")}));
        if (t.resource == QLatin1String("jobs"))
            resources.append(apiResource(t, QStringLiteral("jobs/status"), QStringLiteral("Job"),
                                         {QStringLiteral("get")}));
    }
    return sendJson(http, request, 200,
                    {{QStringLiteral("kind"), QStringLiteral("APIResourceList")},
                     {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                     {QStringLiteral("groupVersion"), groupVersion},
                     {QStringLiteral("resources"), resources}});
}

std::optional<ApiServer::Route> ApiServer::route(const QStringList& segments, QString* why) const {
    // segments: after the leading "", e.g. ["api","v1","namespaces","x","pods"]
    QString group, version;
    qsizetype at = 0;
    if (segments.value(0) == QLatin1String("api") && segments.size() >= 3) {
        version = segments.value(1);
        at = 2;
    } else if (segments.value(0) == QLatin1String("apis") && segments.size() >= 4) {
        group = segments.value(1);
        version = segments.value(2);
        at = 3;
    } else {
        return std::nullopt;
    }
    const QStringList rest = segments.mid(at);
    Route r;
    QStringList tail;
    if (rest.value(0) == QLatin1String("namespaces") && rest.size() >= 3) {
        r.ns = rest.value(1);
        r.nsGiven = true;
        r.type = findResourceType(group, version, rest.value(2));
        tail = rest.mid(3);
        if (r.type && !r.type->namespaced) {
            *why = QStringLiteral("the server could not find the requested resource");
            return std::nullopt;
        }
    } else {
        r.type = findResourceType(group, version, rest.value(0));
        tail = rest.mid(1);
    }
    if (!r.type || tail.size() > 2) {
        *why = QStringLiteral("the server could not find the requested resource");
        return std::nullopt;
    }
    r.name = tail.value(0);
    r.subresource = tail.value(1);
    return r;
}

bool ApiServer::handle(Exchange& http, const Request& request) {
    const std::optional<Identity> who = identify(http.peer(), request);
    if (!requestLog_.isEmpty()) {
        const QByteArray auth = request.header("authorization");
        const QJsonObject entry{
            {QStringLiteral("method"), QString::fromLatin1(request.method)},
            {QStringLiteral("target"), QString::fromUtf8(request.target)},
            {QStringLiteral("protocol"), QString::fromLatin1(request.protocol)},
            {QStringLiteral("host"), QString::fromUtf8(request.header("host"))},
            {QStringLiteral("sni"), http.peer().serverName},
            {QStringLiteral("alpn"), QString::fromLatin1(http.peer().alpn)},
            {QStringLiteral("auth"), !http.peer().commonName.isEmpty() ? QStringLiteral("certificate")
                                     : auth.startsWith("Bearer ")      ? QStringLiteral("bearer")
                                     : auth.isEmpty()                  ? QStringLiteral("none")
                                                                       : QStringLiteral("other")},
            {QStringLiteral("user"), who ? who->user : QString()},
            {QStringLiteral("userAgent"), QString::fromUtf8(request.header("user-agent"))}};
        // As the apiserver's audit log names a request: its verb and resource (or its non-resource URL).
        QJsonObject audited = entry;
        QStringList segments = request.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        QString ignored;
        if (const std::optional<Route> r = route(segments, &ignored)) {
            const bool watching = truthy(request.param(QStringLiteral("watch")));
            const QString verb = request.method == "GET"      ? (!r->name.isEmpty() ? QStringLiteral("get")
                                                                 : watching         ? QStringLiteral("watch")
                                                                                    : QStringLiteral("list"))
                                 : request.method == "POST"   ? QStringLiteral("create")
                                 : request.method == "PATCH"  ? QStringLiteral("patch")
                                 : request.method == "PUT"    ? QStringLiteral("update")
                                 : request.method == "DELETE" ? QStringLiteral("delete")
                                                              : QString::fromLatin1(request.method).toLower();
            audited.insert(QStringLiteral("verb"), verb);
            audited.insert(QStringLiteral("resource"), r->type->resource);
            audited.insert(QStringLiteral("apiGroup"), r->type->group);
            audited.insert(QStringLiteral("namespace"), r->ns);
            audited.insert(QStringLiteral("name"), r->name);
            audited.insert(QStringLiteral("subresource"), r->subresource);
        } else {
            audited.insert(QStringLiteral("nonResourceURL"), request.path);
        }
        std::lock_guard lock(logMu_);
        QFile f(requestLog_);
        if (f.open(QIODevice::WriteOnly | QIODevice::Append))
            f.write(toJson(audited) + '\n');
    }
    if (!who)
        return sendStatus(http, request, 401, QStringLiteral("Unauthorized"), QStringLiteral("Unauthorized"));
    if (request.method == "GET") {
        bool handled = false;
        const bool ok = discovery(http, request, &handled);
        if (handled)
            return ok;
    }
    if (request.path == QLatin1String("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews") &&
        request.method == "POST") {
        return selfSubjectAccessReview(http, request, *who);
    }
    if (request.path == QLatin1String("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews") &&
        request.method == "POST")
        return selfSubjectRulesReview(http, request, *who);
    if (request.path == QLatin1String("/apis/authentication.k8s.io/v1/selfsubjectreviews") &&
        request.method == "POST")
        return selfSubjectReview(http, request, *who);
    QStringList segments = request.path.split(QLatin1Char('/'));
    if (segments.value(0).isEmpty())
        segments.removeFirst();
    if (!segments.isEmpty() && segments.last().isEmpty())
        segments.removeLast();
    QString why = QStringLiteral("the server could not find the requested resource");
    const std::optional<Route> r = route(segments, &why);
    if (!r)
        return sendStatus(http, request, 404, QStringLiteral("NotFound"), why);

    { // RBAC
        QString verb;
        if (request.method == "GET")
            verb = !r->name.isEmpty()                               ? QStringLiteral("get")
                   : truthy(request.param(QStringLiteral("watch"))) ? QStringLiteral("watch")
                                                                    : QStringLiteral("list");
        else if (request.method == "POST")
            verb = QStringLiteral("create");
        else if (request.method == "PATCH")
            verb = QStringLiteral("patch");
        else if (request.method == "DELETE")
            verb = QStringLiteral("delete");
        else if (request.method == "PUT")
            verb = QStringLiteral("update");
        if (const std::optional<QString> no =
                forbidden(*who, verb, r->type, r->subresource, r->ns, r->name)) {
            QJsonObject details = detailsFor(*r->type, r->name);
            if (r->name.isEmpty())
                details.remove(QStringLiteral("name"));
            return sendStatus(http, request, 403, QStringLiteral("Forbidden"), *no, details);
        }
    }

    if (!r->subresource.isEmpty()) {
        if (r->type->resource == QLatin1String("pods") && r->subresource == QLatin1String("eviction") &&
            request.method == "POST")
            return evict(http, request, *r);
        if (r->type->resource == QLatin1String("pods") && r->subresource == QLatin1String("log") &&
            request.method == "GET")
            return logs(http, request, *r);
        if (r->subresource == QLatin1String("status") && request.method == "GET")
            return getOne(http, request, *r);
        return sendStatus(http, request, 404, QStringLiteral("NotFound"),
                          QStringLiteral("the server could not find the requested resource"));
    }
    if (request.method == "GET") {
        if (!r->name.isEmpty())
            return getOne(http, request, *r);
        if (truthy(request.param(QStringLiteral("watch"))))
            return watch(http, request, *r);
        return list(http, request, *r);
    }
    if (request.method == "POST" && r->name.isEmpty())
        return create(http, request, *r);
    if (request.method == "PATCH" && !r->name.isEmpty())
        return patch(http, request, *r);
    if (request.method == "DELETE" && !r->name.isEmpty())
        return remove(http, request, *r);
    return sendStatus(http, request, 405, QStringLiteral("MethodNotAllowed"),
                      QStringLiteral("the server does not allow this method on the requested resource"));
}

bool ApiServer::getOne(Exchange& http, const Request& request, const Route& r) {
    QJsonObject object;
    {
        std::lock_guard lock(store_.mu);
        const QJsonObject* found = store_.find(r.type->resource, r.ns, r.name);
        if (found)
            object = *found;
    }
    if (object.isEmpty())
        return sendStatus(http, request, 404, QStringLiteral("NotFound"),
                          QStringLiteral("%1 \"%2\" not found").arg(r.type->qualified(), r.name),
                          detailsFor(*r.type, r.name));
    if (wantsTable(request))
        return sendJson(
            http, request, 200,
            table(*r.type, {object},
                  metadataOf(object).value(QLatin1String("resourceVersion")).toString().toLongLong()));
    return sendJson(http, request, 200, object);
}

bool ApiServer::list(Exchange& http, const Request& request, const Route& r) {
    QString error;
    const auto labels = parseLabelSelector(request.param(QStringLiteral("labelSelector")), &error);
    const auto fields =
        labels ? parseFieldSelector(request.param(QStringLiteral("fieldSelector")), *r.type, &error)
               : std::nullopt;
    if (!labels || !fields)
        return sendStatus(http, request, 400, QStringLiteral("BadRequest"), error);
    QList<QJsonObject> items;
    qint64 rv = 0;
    const QString rvParam = request.param(QStringLiteral("resourceVersion"));
    const QString rvMatch = request.param(QStringLiteral("resourceVersionMatch"));
    {
        std::lock_guard lock(store_.mu);
        rv = store_.currentRv();
        if (!rvParam.isEmpty() && rvParam != QLatin1String("0")) {
            bool ok = false;
            const qint64 asked = rvParam.toLongLong(&ok);
            if (!ok || asked < 0)
                return sendStatus(
                    http, request, 400, QStringLiteral("BadRequest"),
                    QStringLiteral("resourceVersion: Invalid value: \"%1\": must be a non-negative integer")
                        .arg(rvParam));
            // Only the current state is kept: an exact older version is 410 once compacted (the
            // etcd compaction the apiserver reports), a newer one is "too large".
            if (asked > rv)
                return sendStatus(
                    http, request, 504, QStringLiteral("Timeout"),
                    QStringLiteral("Too large resource version: %1, current: %2").arg(asked).arg(rv));
            if (asked < store_.compactedRv() && (rvMatch == QLatin1String("Exact") || rvMatch.isEmpty()))
                return sendStatus(http, request, 410, QStringLiteral("Expired"),
                                  QStringLiteral("The resourceVersion for the provided list is too old."));
        }
        // limit/continue: items in (namespace, name) order; the token carries the list's version and
        // the key to start after, as the apiserver's does (base64 JSON). A token older than the
        // retained history is 410 Expired.
        QString startAfter;
        const QString cont = request.param(QStringLiteral("continue"));
        if (!cont.isEmpty()) {
            const QJsonObject token =
                QJsonDocument::fromJson(
                    QByteArray::fromBase64(cont.toLatin1(), QByteArray::Base64UrlEncoding))
                    .object();
            if (!token.contains(QLatin1String("rv")) || !token.contains(QLatin1String("start")))
                return sendStatus(
                    http, request, 400, QStringLiteral("BadRequest"),
                    QStringLiteral("continue key is not valid: illegal base64 data or not a continue token"));
            const qint64 tokenRv = token.value(QLatin1String("rv")).toInteger();
            if (tokenRv < store_.compactedRv())
                return sendStatus(
                    http, request, 410, QStringLiteral("Expired"),
                    QStringLiteral(
                        "The provided continue parameter is too old to display a consistent list result. You "
                        "can start a new list without the continue parameter, or use the continue token in "
                        "this response to retrieve the remainder of the results. Continuing with the "
                        "provided "
                        "token results in an inconsistent list - objects that were created, modified, or "
                        "deleted between the time the first chunk was returned and now may show up in the "
                        "list."));
            rv = tokenRv;
            startAfter = token.value(QLatin1String("start")).toString();
        }
        for (const QJsonObject& o : store_.list(r.type->resource, r.ns)) {
            const QJsonObject m = metadataOf(o);
            // \x01 sorts before every name character, so string order is the store's (namespace, name) order.
            const QString key = m.value(QLatin1String("namespace")).toString() + QChar(0x01) +
                                m.value(QLatin1String("name")).toString();
            if (!startAfter.isEmpty() && key <= startAfter)
                continue;
            if (labelsMatch(*labels, o) && fieldsMatch(*fields, o))
                items << o;
        }
    }
    qint64 limit = 0;
    if (request.hasParam(QStringLiteral("limit"))) {
        bool ok = false;
        limit = request.param(QStringLiteral("limit")).toLongLong(&ok);
        if (!ok || limit < 0)
            return sendStatus(http, request, 400, QStringLiteral("BadRequest"),
                              QStringLiteral("limit: Invalid value: \"%1\": must be a non-negative integer")
                                  .arg(request.param(QStringLiteral("limit"))));
    }
    QJsonObject listMeta{{QStringLiteral("resourceVersion"), QString::number(rv)}};
    if (limit > 0 && items.size() > limit) {
        const QJsonObject last = metadataOf(items.at(qsizetype(limit) - 1));
        const QJsonObject token{{QStringLiteral("v"), QStringLiteral("meta.k8s.io/v1")},
                                {QStringLiteral("rv"), rv},
                                {QStringLiteral("start"), last.value(QLatin1String("namespace")).toString() +
                                                              QChar(0x01) +
                                                              last.value(QLatin1String("name")).toString()}};
        listMeta.insert(QStringLiteral("continue"),
                        QString::fromLatin1(toJson(token).toBase64(QByteArray::Base64UrlEncoding |
                                                                   QByteArray::OmitTrailingEquals)));
        listMeta.insert(QStringLiteral("remainingItemCount"), items.size() - limit);
        items.resize(qsizetype(limit));
    }
    if (wantsTable(request)) {
        QJsonObject t = table(*r.type, items, rv);
        t.insert(QStringLiteral("metadata"), listMeta);
        return sendJson(http, request, 200, t);
    }
    QJsonArray array;
    for (QJsonObject o : items) { // typed lists omit kind/apiVersion on items, as the apiserver does
        o.remove(QStringLiteral("kind"));
        o.remove(QStringLiteral("apiVersion"));
        array.append(o);
    }
    return sendJson(http, request, 200,
                    {{QStringLiteral("kind"), r.type->kind + QStringLiteral("List")},
                     {QStringLiteral("apiVersion"), r.type->apiVersion()},
                     {QStringLiteral("metadata"), listMeta},
                     {QStringLiteral("items"), array}});
}

namespace {

// Where a watch starts: 0 (no version, or "0": the current state first) or the version given;
// nullopt when the parameter is not a non-negative integer.
std::optional<qint64> watchStart(const QString& rvParam) {
    if (rvParam.isEmpty() || rvParam == QLatin1String("0"))
        return 0;
    bool ok = false;
    const qint64 from = rvParam.toLongLong(&ok);
    if (!ok || from < 0)
        return std::nullopt;
    return from;
}

// How long a watch stays open: timeoutSeconds (not below 0), else 30 minutes.
int watchTimeoutSeconds(const Request& request) {
    if (!request.hasParam(QStringLiteral("timeoutSeconds")))
        return 1800;
    return std::max(0, request.param(QStringLiteral("timeoutSeconds")).toInt());
}

// A BOOKMARK event's object: the kind and the resource version reached.
QJsonObject bookmarkObject(const ResourceType& type, qint64 rv) {
    return QJsonObject{
        {QStringLiteral("kind"), type.kind},
        {QStringLiteral("apiVersion"), type.apiVersion()},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("resourceVersion"), QString::number(rv)}}}};
}

} // namespace

bool ApiServer::watch(Exchange& http, const Request& request, const Route& r) {
    QString error;
    const auto labels = parseLabelSelector(request.param(QStringLiteral("labelSelector")), &error);
    const auto fields =
        labels ? parseFieldSelector(request.param(QStringLiteral("fieldSelector")), *r.type, &error)
               : std::nullopt;
    if (!labels || !fields)
        return sendStatus(http, request, 400, QStringLiteral("BadRequest"), error);
    const QString rvParam = request.param(QStringLiteral("resourceVersion"));
    const std::optional<qint64> watchedFrom = watchStart(rvParam);
    if (!watchedFrom)
        return sendStatus(
            http, request, 400, QStringLiteral("BadRequest"),
            QStringLiteral("resourceVersion: Invalid value: \"%1\": must be a non-negative integer")
                .arg(rvParam));
    const qint64 from = *watchedFrom;
    const bool bookmarks = truthy(request.param(QStringLiteral("allowWatchBookmarks")));
    const bool table = wantsTable(request);
    const auto deadline = Clock::now() + std::chrono::seconds(watchTimeoutSeconds(request));
    const int dropAfter = script_.faults.dropWatchAfterEvents;
    const ResourceType& type = *r.type;

    auto matches = [&](const QString& resource, const QString& ns, const QJsonObject& o) {
        return resource == type.resource && (r.ns.isEmpty() || ns == r.ns) && labelsMatch(*labels, o) &&
               fieldsMatch(*fields, o);
    };
    auto line = [&](const QByteArray& evType, const QJsonObject& o) {
        QJsonObject object = o;
        if (table && evType != "BOOKMARK" && evType != "ERROR")
            object = kts::table(
                type, {o}, metadataOf(o).value(QLatin1String("resourceVersion")).toString().toLongLong());
        return toJson(QJsonObject{{QStringLiteral("type"), QString::fromLatin1(evType)},
                                  {QStringLiteral("object"), object}}) +
               '\n';
    };

    if (!http.beginChunked(200, "application/json"))
        return false;
    int sent = 0;
    QByteArray pending;
    qint64 last = 0;
    qint64 compactions = 0;
    const auto bookmarkEvery = std::chrono::milliseconds(script_.bookmarkMs);
    {
        std::lock_guard lock(store_.mu);
        compactions = store_.compactions();
        if (from == 0) { // no version: the current state as ADDED events, then changes
            last = store_.currentRv();
            for (const QJsonObject& o : store_.list(type.resource, r.ns))
                if (matches(type.resource, metadataOf(o).value(QLatin1String("namespace")).toString(), o))
                    pending += line("ADDED", o);
        } else if (from < store_.compactedRv()) {
            pending += line("ERROR", statusObject(410, QStringLiteral("Expired"),
                                                  QStringLiteral("too old resource version: %1 (%2)")
                                                      .arg(from)
                                                      .arg(store_.compactedRv() + 1),
                                                  {}));
            last = -1;
        } else {
            last = from;
        }
    }
    if (last < 0)
        return http.chunk(pending) && http.endChunked();

    auto lastWrite = Clock::now();
    for (;;) {
        // Send what is pending, one event per chunk, honouring the drop fault.
        if (!pending.isEmpty()) {
            for (const QByteArray& ev : pending.split('\n')) {
                if (ev.isEmpty())
                    continue;
                if (!http.chunk(ev + '\n'))
                    return false;
                if (!ev.contains("\"type\":\"BOOKMARK\"") && dropAfter > 0 && ++sent >= dropAfter) {
                    http.abort(); // cut without the final chunk
                    return false;
                }
            }
            pending.clear();
            lastWrite = Clock::now();
        }
        if (Clock::now() >= deadline)
            break;
        if (http.peerGone())
            return false;
        std::unique_lock lock(store_.mu);
        const auto wakeAt = std::min(deadline, lastWrite + bookmarkEvery);
        store_.changed.wait_until(
            lock, wakeAt, [&] { return store_.currentRv() > last || store_.compactions() != compactions; });
        if (last < store_.compactedRv() ||
            store_.compactions() != compactions) { // fell behind / compacted under it
            pending += line("ERROR", statusObject(410, QStringLiteral("Expired"),
                                                  QStringLiteral("too old resource version: %1 (%2)")
                                                      .arg(last)
                                                      .arg(store_.compactedRv() + 1),
                                                  {}));
            lock.unlock();
            return http.chunk(pending) && http.endChunked();
        }
        const auto& history = store_.history();
        auto it = std::upper_bound(history.begin(), history.end(), last,
                                   [](qint64 v, const Event& e) { return v < e.rv; });
        for (; it != history.end(); ++it)
            if (matches(it->resource, it->ns, it->object))
                pending += line(it->type, it->object);
        last = store_.currentRv();
        if (pending.isEmpty() && bookmarks && Clock::now() - lastWrite >= bookmarkEvery) {
            pending += line("BOOKMARK", bookmarkObject(type, last));
        }
    }
    return http.endChunked();
}

namespace {

using FieldProblem = std::pair<QString, QString>; // the field, and what is wrong with it

// A new object's name (required, an RFC 1123 label or subdomain) and labels.
std::optional<FieldProblem> metadataProblem(const QString& name, bool labelName, const QJsonObject& labels) {
    if (name.isEmpty())
        return FieldProblem{QStringLiteral("metadata.name"),
                            QStringLiteral("Required value: name or generateName is required")};
    if (!validName(name, !labelName))
        return FieldProblem{
            QStringLiteral("metadata.name"),
            QStringLiteral(
                "Invalid value: \"%1\": a lowercase RFC 1123 %2 must consist of lower case alphanumeric "
                "characters, '-'%3, and must start and end with an alphanumeric character")
                .arg(name, labelName ? QStringLiteral("label") : QStringLiteral("subdomain"),
                     labelName ? QString() : QStringLiteral(" or '.'"))};
    for (auto it = labels.begin(); it != labels.end(); ++it)
        if (!validLabelKey(it.key()) || !it.value().isString() || !validLabelValue(it.value().toString()))
            return FieldProblem{
                QStringLiteral("metadata.labels"),
                QStringLiteral("Invalid value: \"%1\": a valid label must be an empty string or "
                               "consist of alphanumeric characters, '-', '_' or '.'")
                    .arg(it.value().toVariant().toString())};
    return std::nullopt;
}

// A Job needs containers with names and images, and restartPolicy Never or OnFailure.
std::optional<FieldProblem> jobSpecProblem(const QJsonObject& object) {
    const QJsonObject podSpec = object.value(QLatin1String("spec"))
                                    .toObject()
                                    .value(QLatin1String("template"))
                                    .toObject()
                                    .value(QLatin1String("spec"))
                                    .toObject();
    const QJsonArray containers = podSpec.value(QLatin1String("containers")).toArray();
    if (containers.isEmpty())
        return FieldProblem{QStringLiteral("spec.template.spec.containers"),
                            QStringLiteral("Required value")};
    for (qsizetype i = 0; i < containers.size(); ++i) {
        const QJsonObject c = containers.at(i).toObject();
        if (c.value(QLatin1String("name")).toString().isEmpty())
            return FieldProblem{QStringLiteral("spec.template.spec.containers[%1].name").arg(i),
                                QStringLiteral("Required value")};
        if (c.value(QLatin1String("image")).toString().isEmpty())
            return FieldProblem{QStringLiteral("spec.template.spec.containers[%1].image").arg(i),
                                QStringLiteral("Required value")};
    }
    const QString restart = podSpec.value(QLatin1String("restartPolicy")).toString();
    if (restart != QLatin1String("Never") && restart != QLatin1String("OnFailure"))
        return FieldProblem{
            QStringLiteral("spec.template.spec.restartPolicy"),
            restart.isEmpty()
                ? QStringLiteral("Required value: valid values: \"OnFailure\", \"Never\"")
                : QStringLiteral("Unsupported value: \"%1\": supported values: \"OnFailure\", \"Never\"")
                      .arg(restart)};
    return std::nullopt;
}

// What the apiserver fills in on a new Job: uid, generation, the controller's labels on the Job and
// its pod template, pod defaults, spec defaults and the selector.
void defaultJob(QJsonObject& object, QJsonObject& meta, const QJsonObject& labels, const QString& name) {
    QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    QJsonObject templ = spec.value(QLatin1String("template")).toObject();
    QJsonObject podSpec = templ.value(QLatin1String("spec")).toObject();
    const QString uid = QUuid::createUuid().toString(QUuid::WithoutBraces);
    meta.insert(QStringLiteral("uid"), uid);
    meta.insert(QStringLiteral("generation"), 1);
    QJsonObject jobLabels = labels;
    jobLabels.insert(QStringLiteral("batch.kubernetes.io/controller-uid"), uid);
    jobLabels.insert(QStringLiteral("batch.kubernetes.io/job-name"), name);
    jobLabels.insert(QStringLiteral("controller-uid"), uid);
    jobLabels.insert(QStringLiteral("job-name"), name);
    meta.insert(QStringLiteral("labels"), jobLabels);
    QJsonObject templMeta = metadataOf(templ);
    QJsonObject templLabels = templMeta.value(QLatin1String("labels")).toObject();
    for (auto it = jobLabels.begin(); it != jobLabels.end(); ++it)
        if (it.key().contains(QLatin1String("controller-uid")) ||
            it.key().contains(QLatin1String("job-name")))
            templLabels.insert(it.key(), it.value());
    templMeta.insert(QStringLiteral("labels"), templLabels);
    templ.insert(QStringLiteral("metadata"), templMeta);
    podSpec.insert(QStringLiteral("dnsPolicy"),
                   podSpec.value(QLatin1String("dnsPolicy")).toString(QStringLiteral("ClusterFirst")));
    podSpec.insert(QStringLiteral("terminationGracePeriodSeconds"),
                   podSpec.value(QLatin1String("terminationGracePeriodSeconds")).toInt(30));
    templ.insert(QStringLiteral("spec"), podSpec);
    spec.insert(QStringLiteral("template"), templ);
    for (const auto& [key, value] : {std::pair<const char*, QJsonValue>{"parallelism", 1},
                                     {"completions", 1},
                                     {"backoffLimit", 6},
                                     {"completionMode", QStringLiteral("NonIndexed")},
                                     {"suspend", false},
                                     {"manualSelector", false},
                                     {"podReplacementPolicy", QStringLiteral("TerminatingOrFailed")}})
        if (!spec.contains(QLatin1String(key)))
            spec.insert(QLatin1String(key), value);
    spec.insert(QStringLiteral("selector"),
                QJsonObject{{QStringLiteral("matchLabels"),
                             QJsonObject{{QStringLiteral("batch.kubernetes.io/controller-uid"), uid}}}});
    object.insert(QStringLiteral("spec"), spec);
    object.insert(QStringLiteral("status"), QJsonObject{});
}

} // namespace

// A namespaced create: refused when the body names another namespace, or the namespace is missing
// or being terminated.
std::optional<ApiServer::Failure> ApiServer::namespaceRefusal(const ResourceType& type, const QString& ns,
                                                              const QJsonObject& meta) {
    const QString bodyNs = meta.value(QLatin1String("namespace")).toString();
    if (!bodyNs.isEmpty() && bodyNs != ns)
        return Failure{
            400,
            QStringLiteral("BadRequest"),
            QStringLiteral(
                "the namespace of the provided object does not match the namespace sent on the request"),
            {}};
    const QJsonObject* nsObject = store_.find(QStringLiteral("namespaces"), {}, ns);
    if (!nsObject)
        return Failure{404, QStringLiteral("NotFound"), QStringLiteral("namespaces \"%1\" not found").arg(ns),
                       QJsonObject{{QStringLiteral("name"), ns},
                                   {QStringLiteral("kind"), QStringLiteral("namespaces")}}};
    if (metadataOf(*nsObject).contains(QLatin1String("deletionTimestamp"))) {
        const QString objectName = meta.value(QLatin1String("name")).toString();
        QJsonObject details = detailsFor(type, objectName);
        details.insert(
            QStringLiteral("causes"),
            QJsonArray{QJsonObject{
                {QStringLiteral("reason"), QStringLiteral("NamespaceTerminating")},
                {QStringLiteral("message"), QStringLiteral("namespace %1 is being terminated").arg(ns)},
                {QStringLiteral("field"), QStringLiteral("metadata.namespace")}}});
        return Failure{403, QStringLiteral("Forbidden"),
                       QStringLiteral("%1 \"%2\" is forbidden: unable to create new content in namespace %3 "
                                      "because it is being terminated")
                           .arg(type.qualified(), objectName, ns),
                       details};
    }
    return std::nullopt;
}

std::optional<QJsonObject> ApiServer::createLocked(const ResourceType& type, const QString& ns,
                                                   QJsonObject object, bool dryRun, Failure& failure) {
    QJsonObject meta = metadataOf(object);
    auto fail = [&](int code, const QString& reason, const QString& message,
                    const QJsonObject& details = {}) {
        failure = {code, reason, message, details};
        return std::nullopt;
    };
    if (object.contains(QLatin1String("kind")) && object.value(QLatin1String("kind")).toString() != type.kind)
        return fail(400, QStringLiteral("BadRequest"),
                    QStringLiteral("the kind \"%1\" in the body does not match the resource %2 (kind %3)")
                        .arg(object.value(QLatin1String("kind")).toString(), type.qualified(), type.kind));
    object.insert(QStringLiteral("kind"), type.kind);
    object.insert(QStringLiteral("apiVersion"), type.apiVersion());
    if (type.namespaced) {
        if (const std::optional<Failure> refused = namespaceRefusal(type, ns, meta))
            return fail(refused->code, refused->reason, refused->message, refused->details);
        meta.insert(QStringLiteral("namespace"), ns);
    } else {
        meta.remove(QStringLiteral("namespace"));
    }
    QString name = meta.value(QLatin1String("name")).toString();
    const QString generateName = meta.value(QLatin1String("generateName")).toString();
    if (name.isEmpty() && !generateName.isEmpty()) {
        do
            name = generateName + randomSuffix();
        while (store_.find(type.resource, type.namespaced ? ns : QString(), name));
        meta.insert(QStringLiteral("name"), name);
    }
    const QString invalidPrefix =
        QStringLiteral("%1.%2 \"%3\" is invalid: ")
            .arg(type.kind, type.group.isEmpty() ? QStringLiteral("") : type.group, name);
    const QString invalidHead =
        type.group.isEmpty() ? QStringLiteral("%1 \"%2\" is invalid: ").arg(type.kind, name) : invalidPrefix;
    auto invalid = [&](const QString& field, const QString& what) {
        QJsonObject details = detailsFor(type, name);
        details.insert(QStringLiteral("causes"),
                       QJsonArray{QJsonObject{{QStringLiteral("reason"), QStringLiteral("FieldValueInvalid")},
                                              {QStringLiteral("message"), what},
                                              {QStringLiteral("field"), field}}});
        return fail(422, QStringLiteral("Invalid"), invalidHead + field + QStringLiteral(": ") + what,
                    details);
    };
    const bool labelName =
        type.resource == QLatin1String("namespaces") || type.resource == QLatin1String("jobs");
    const QJsonObject labels = meta.value(QLatin1String("labels")).toObject();
    if (const std::optional<FieldProblem> p = metadataProblem(name, labelName, labels))
        return invalid(p->first, p->second);

    for (qsizetype i = 0; i < conflictsLeft_.size(); ++i)
        if (name.startsWith(conflictsLeft_.at(i))) { // injected fault: one spurious conflict per prefix
            conflictsLeft_.removeAt(i);
            return fail(409, QStringLiteral("AlreadyExists"),
                        QStringLiteral("%1 \"%2\" already exists").arg(type.qualified(), name),
                        detailsFor(type, name));
        }
    if (const QJsonObject* existing = store_.find(type.resource, type.namespaced ? ns : QString(), name);
        existing && metadataOf(*existing).contains(QLatin1String("deletionTimestamp")))
        return fail(
            409, QStringLiteral("AlreadyExists"),
            QStringLiteral("object is being deleted: %1 \"%2\" already exists").arg(type.qualified(), name),
            detailsFor(type, name));
    if (!dryRun)
        if (const std::optional<Failure> denied = admit("CREATE", type, ns, name))
            return fail(denied->code, denied->reason, denied->message, denied->details);
    if (store_.find(type.resource, type.namespaced ? ns : QString(), name))
        return fail(409, QStringLiteral("AlreadyExists"),
                    QStringLiteral("%1 \"%2\" already exists").arg(type.qualified(), name),
                    detailsFor(type, name));

    // Per-kind validation and the defaults the apiserver fills in.
    if (type.resource == QLatin1String("namespaces")) {
        QJsonObject l = labels;
        l.insert(QStringLiteral("kubernetes.io/metadata.name"), name);
        meta.insert(QStringLiteral("labels"), l);
        object.insert(QStringLiteral("spec"),
                      QJsonObject{{QStringLiteral("finalizers"), QJsonArray{QStringLiteral("kubernetes")}}});
        object.insert(QStringLiteral("status"),
                      QJsonObject{{QStringLiteral("phase"), QStringLiteral("Active")}});
    } else if (type.resource == QLatin1String("clusterrolebindings")) {
        const QJsonObject ref = object.value(QLatin1String("roleRef")).toObject();
        if (ref.value(QLatin1String("name")).toString().isEmpty() ||
            ref.value(QLatin1String("kind")).toString().isEmpty())
            return invalid(QStringLiteral("roleRef.name"), QStringLiteral("Required value"));
    } else if (type.resource == QLatin1String("jobs")) {
        if (const std::optional<FieldProblem> p = jobSpecProblem(object))
            return invalid(p->first, p->second);
        defaultJob(object, meta, labels, name);
    }
    object.insert(QStringLiteral("metadata"), meta);
    if (dryRun) {
        setMeta(object, QStringLiteral("creationTimestamp"), nowTimestamp());
        if (metadataOf(object).value(QLatin1String("uid")).toString().isEmpty())
            setMeta(object, QStringLiteral("uid"), QUuid::createUuid().toString(QUuid::WithoutBraces));
        return object;
    }
    const QJsonObject stored = store_.add(type.resource, object);
    if (type.resource == QLatin1String("namespaces")) { // the service account controller's work
        store_.add(QStringLiteral("serviceaccounts"),
                   QJsonObject{{QStringLiteral("kind"), QStringLiteral("ServiceAccount")},
                               {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                               {QStringLiteral("metadata"),
                                QJsonObject{{QStringLiteral("name"), QStringLiteral("default")},
                                            {QStringLiteral("namespace"), name}}}});
    }
    if (type.resource == QLatin1String("jobs"))
        controller_.jobCreated(stored);
    return stored;
}

bool ApiServer::create(Exchange& http, const Request& request, const Route& r) {
    if (!r.type->creatable)
        return sendStatus(
            http, request, 405, QStringLiteral("MethodNotAllowed"),
            QStringLiteral("create is not supported on %1 by this test server").arg(r.type->qualified()));
    const QByteArray contentType = request.header("content-type").toLower();
    QJsonObject body;
    if (contentType.startsWith("application/vnd.kubernetes.protobuf")) {
        // kubectl's typed commands send protobuf, as to any API server.
        QString why;
        const std::optional<QJsonObject> decoded = decodeKubernetesProtobuf(request.body, &why);
        if (!decoded)
            return sendStatus(http, request, 415, QStringLiteral("UnsupportedMediaType"), why);
        body = *decoded;
    } else if (!contentType.isEmpty() && !contentType.startsWith("application/json")) {
        return sendStatus(http, request, 415, QStringLiteral("UnsupportedMediaType"),
                          QStringLiteral("the body of the request was in an unknown format - accepted media "
                                         "types include: application/json, application/yaml, "
                                         "application/vnd.kubernetes.protobuf"));
    } else {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(request.body, &parseError);
        if (!doc.isObject())
            return sendStatus(
                http, request, 400, QStringLiteral("BadRequest"),
                QStringLiteral("the request body is not a JSON object: %1").arg(parseError.errorString()));
        body = doc.object();
    }
    // fieldValidation=Strict (kubectl's default, once OpenAPI says the server supports it): an unknown
    // top-level field is refused as the apiserver's strict decoder refuses it.
    if (request.param(QStringLiteral("fieldValidation")) == QLatin1String("Strict")) {
        static const QStringList common{QStringLiteral("apiVersion"), QStringLiteral("kind"),
                                        QStringLiteral("metadata"), QStringLiteral("spec"),
                                        QStringLiteral("status")};
        static const QMap<QString, QStringList> extra{
            {QStringLiteral("ConfigMap"),
             {QStringLiteral("data"), QStringLiteral("binaryData"), QStringLiteral("immutable")}},
            {QStringLiteral("ServiceAccount"),
             {QStringLiteral("secrets"), QStringLiteral("imagePullSecrets"),
              QStringLiteral("automountServiceAccountToken")}},
            {QStringLiteral("ClusterRole"), {QStringLiteral("rules"), QStringLiteral("aggregationRule")}},
            {QStringLiteral("ClusterRoleBinding"), {QStringLiteral("roleRef"), QStringLiteral("subjects")}}};
        for (auto it = body.constBegin(); it != body.constEnd(); ++it)
            if (r.type->kind != QLatin1String("Event") && !common.contains(it.key()) &&
                !extra.value(r.type->kind).contains(it.key()))
                return sendStatus(
                    http, request, 400, QStringLiteral("BadRequest"),
                    QStringLiteral("%1 in version \"%2\" cannot be handled as a %1: strict decoding "
                                   "error: unknown field \"%3\"")
                        .arg(r.type->kind, r.type->version, it.key()));
    }
    const bool dryRun = request.param(QStringLiteral("dryRun")) == QLatin1String("All");
    Failure failure;
    std::optional<QJsonObject> created;
    {
        std::lock_guard lock(store_.mu);
        created = createLocked(*r.type, r.ns, body, dryRun, failure);
    }
    if (!created)
        return sendStatus(http, request, failure.code, failure.reason, failure.message, failure.details);
    return sendJson(http, request, 201, *created);
}

bool ApiServer::patch(Exchange& http, const Request& request, const Route& r) {
    const QByteArray contentType = request.header("content-type").toLower();
    const bool apply = contentType.startsWith("application/apply-patch");
    if (!apply && !contentType.startsWith("application/merge-patch+json") &&
        !contentType.startsWith("application/strategic-merge-patch+json"))
        return sendStatus(
            http, request, 415, QStringLiteral("UnsupportedMediaType"),
            QStringLiteral("the body of the request was in an unknown format - accepted media types include: "
                           "application/merge-patch+json, application/strategic-merge-patch+json, "
                           "application/apply-patch+yaml (JSON only here)"));
    const QJsonDocument doc = QJsonDocument::fromJson(request.body);
    if (!doc.isObject())
        return sendStatus(
            http, request, 400, QStringLiteral("BadRequest"),
            QStringLiteral("this test server accepts only JSON patch bodies (JSON is valid apply YAML)"));
    QJsonObject body = doc.object();
    std::lock_guard lock(store_.mu);
    const QJsonObject* existing = store_.find(r.type->resource, r.ns, r.name);
    if (!existing) {
        if (!apply || !r.type->creatable)
            return sendStatus(http, request, 404, QStringLiteral("NotFound"),
                              QStringLiteral("%1 \"%2\" not found").arg(r.type->qualified(), r.name),
                              detailsFor(*r.type, r.name));
        setMeta(body, QStringLiteral("name"), r.name);
        Failure failure;
        const auto created = createLocked(*r.type, r.ns, body, false, failure);
        if (!created)
            return sendStatus(http, request, failure.code, failure.reason, failure.message, failure.details);
        return sendJson(http, request, 201, *created);
    }
    if (!r.type->creatable)
        return sendStatus(
            http, request, 405, QStringLiteral("MethodNotAllowed"),
            QStringLiteral("patch is not supported on %1 by this test server").arg(r.type->qualified()));
    // Identity and server-owned fields are kept; everything else merges.
    QJsonObject patchMeta = metadataOf(body);
    for (const char* key : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp", "generation"})
        patchMeta.remove(QLatin1String(key));
    body.insert(QStringLiteral("metadata"), patchMeta);
    body.remove(QStringLiteral("status"));
    body.remove(QStringLiteral("kind"));
    body.remove(QStringLiteral("apiVersion"));
    if (r.type->resource == QLatin1String("jobs"))
        body.remove(QStringLiteral("spec")); // a Job's template is immutable
    const QJsonObject merged = mergePatch(*existing, body).toObject();
    return sendJson(http, request, 200, store_.update(r.type->resource, merged));
}

void ApiServer::deleteJobLocked(const QJsonObject& job, const QString& propagation) {
    const QJsonObject meta = metadataOf(job);
    const QString ns = meta.value(QLatin1String("namespace")).toString();
    const QString name = meta.value(QLatin1String("name")).toString();
    const QString uid = meta.value(QLatin1String("uid")).toString();
    QList<QJsonObject> owned;
    for (const QJsonObject& pod : store_.list(QStringLiteral("pods"), ns))
        for (const QJsonValue& ref : metadataOf(pod).value(QLatin1String("ownerReferences")).toArray())
            if (ref.toObject().value(QLatin1String("uid")).toString() == uid)
                owned << pod;
    controller_.jobDeleted(ns, name);
    if (propagation == QLatin1String("Orphan")) {
        for (QJsonObject pod : owned) {
            setMeta(pod, QStringLiteral("ownerReferences"), QJsonValue::Undefined);
            store_.update(QStringLiteral("pods"), pod);
        }
        store_.remove(QStringLiteral("jobs"), ns, name);
        return;
    }
    if (propagation == QLatin1String("Foreground")) { // dependents go first, then the owner
        for (const QJsonObject& pod : owned)
            controller_.deleteGracefully(QStringLiteral("pods"), ns,
                                         metadataOf(pod).value(QLatin1String("name")).toString());
        store_.remove(QStringLiteral("jobs"), ns, name);
        return;
    }
    store_.remove(QStringLiteral("jobs"), ns, name); // Background: the owner goes, then the collector
    for (const QJsonObject& pod : owned)
        controller_.deleteGracefully(QStringLiteral("pods"), ns,
                                     metadataOf(pod).value(QLatin1String("name")).toString());
}

bool ApiServer::remove(Exchange& http, const Request& request, const Route& r) {
    const ResourceType& type = *r.type;
    if (type.resource == QLatin1String("nodes"))
        return sendStatus(http, request, 405, QStringLiteral("MethodNotAllowed"),
                          QStringLiteral("nodes are read-only on this test server"));
    QString propagation = request.param(QStringLiteral("propagationPolicy"));
    if (propagation.isEmpty() && !request.body.isEmpty())
        propagation = QJsonDocument::fromJson(request.body)
                          .object()
                          .value(QLatin1String("propagationPolicy"))
                          .toString();
    if (!propagation.isEmpty() && propagation != QLatin1String("Background") &&
        propagation != QLatin1String("Foreground") && propagation != QLatin1String("Orphan"))
        return sendStatus(http, request, 400, QStringLiteral("BadRequest"),
                          QStringLiteral("propagationPolicy: Unsupported value: \"%1\": supported values: "
                                         "\"Foreground\", \"Background\", \"Orphan\"")
                              .arg(propagation));
    if (propagation.isEmpty()) // batch/v1 Jobs keep the legacy default of orphaning their pods
        propagation =
            type.resource == QLatin1String("jobs") ? QStringLiteral("Orphan") : QStringLiteral("Background");

    std::lock_guard lock(store_.mu);
    const QJsonObject* found = store_.find(type.resource, r.ns, r.name);
    if (!found)
        return sendStatus(http, request, 404, QStringLiteral("NotFound"),
                          QStringLiteral("%1 \"%2\" not found").arg(type.qualified(), r.name),
                          detailsFor(type, r.name));
    QJsonObject object = *found;
    const QString uid = metadataOf(object).value(QLatin1String("uid")).toString();
    if (const std::optional<Failure> denied = admit("DELETE", type, r.ns, r.name))
        return sendStatus(http, request, denied->code, denied->reason, denied->message, denied->details);
    if (type.resource == QLatin1String("namespaces")) {
        if (r.name == QLatin1String("default") || r.name.startsWith(QLatin1String("kube-")))
            return sendStatus(
                http, request, 403, QStringLiteral("Forbidden"),
                QStringLiteral("namespaces \"%1\" is forbidden: this namespace may not be deleted")
                    .arg(r.name),
                detailsFor(type, r.name));
        for (const QJsonObject& job : store_.list(QStringLiteral("jobs"), r.name))
            controller_.jobDeleted(r.name, metadataOf(job).value(QLatin1String("name")).toString());
        return sendJson(http, request, 200, controller_.deleteGracefully(type.resource, {}, r.name));
    }
    if (type.resource == QLatin1String("jobs")) {
        if (propagation == QLatin1String("Foreground")) {
            setMeta(object, QStringLiteral("deletionTimestamp"), nowTimestamp());
            setMeta(object, QStringLiteral("finalizers"), QJsonArray{QStringLiteral("foregroundDeletion")});
            object = store_.update(type.resource, object);
            deleteJobLocked(object, propagation);
            return sendJson(http, request, 200, object);
        }
        deleteJobLocked(object, propagation);
        return sendJson(http, request, 200, statusObject(200, {}, {}, detailsFor(type, r.name, uid)));
    }
    if (type.resource == QLatin1String("pods"))
        return sendJson(http, request, 200, controller_.deleteGracefully(type.resource, r.ns, r.name));
    store_.remove(type.resource, r.ns, r.name);
    return sendJson(http, request, 200, statusObject(200, {}, {}, detailsFor(type, r.name, uid)));
}

bool ApiServer::logs(Exchange& http, const Request& request, const Route& r) {
    const bool follow = truthy(request.param(QStringLiteral("follow")));
    const bool timestamps = truthy(request.param(QStringLiteral("timestamps")));
    const int tailLines = request.hasParam(QStringLiteral("tailLines"))
                              ? request.param(QStringLiteral("tailLines")).toInt()
                              : -1;
    QString container = request.param(QStringLiteral("container"));
    int next = 0;
    {
        std::lock_guard lock(store_.mu);
        const QJsonObject* pod = store_.find(QStringLiteral("pods"), r.ns, r.name);
        if (!pod)
            return sendStatus(http, request, 404, QStringLiteral("NotFound"),
                              QStringLiteral("pods \"%1\" not found").arg(r.name),
                              detailsFor(*r.type, r.name));
        QStringList names;
        for (const QJsonValue& c :
             pod->value(QLatin1String("spec")).toObject().value(QLatin1String("containers")).toArray())
            names << c.toObject().value(QLatin1String("name")).toString();
        if (container.isEmpty()) {
            if (names.size() != 1)
                return sendStatus(
                    http, request, 400, QStringLiteral("BadRequest"),
                    QStringLiteral("a container name must be specified for pod %1, choose one of: [%2]")
                        .arg(r.name, names.join(QLatin1Char(' '))));
            container = names.first();
        } else if (!names.contains(container)) {
            return sendStatus(http, request, 400, QStringLiteral("BadRequest"),
                              QStringLiteral("container %1 is not valid for pod %2").arg(container, r.name));
        }
        const Controller::PodRun* run = controller_.run(r.ns, r.name);
        if (run && run->stage == Controller::Stage::Pending)
            return sendStatus(
                http, request, 400, QStringLiteral("BadRequest"),
                QStringLiteral("container \"%1\" in pod \"%2\" is waiting to start: ContainerCreating")
                    .arg(container, r.name));
        if (run && tailLines >= 0)
            next = std::max(0, run->released - tailLines);
    }
    if (!http.beginChunked(200, "text/plain"))
        return false;
    for (;;) {
        QByteArray out;
        bool finished = false;
        {
            std::unique_lock lock(store_.mu);
            auto ready = [&] {
                const Controller::PodRun* run = controller_.run(r.ns, r.name);
                return !run || run->released > next || run->stage == Controller::Stage::Terminated;
            };
            if (follow)
                store_.changed.wait_for(lock, std::chrono::seconds(1), ready);
            const Controller::PodRun* run = controller_.run(r.ns, r.name);
            if (run) {
                for (; next < run->released; ++next)
                    out += (timestamps ? run->lineTimes.at(next).toUtf8() + ' ' : QByteArray()) +
                           run->lines.at(next);
            }
            finished =
                !follow || !run || (run->stage == Controller::Stage::Terminated && next >= run->released);
        }
        if (!out.isEmpty() && !http.chunk(out))
            return false;
        if (finished)
            break;
        if (http.peerGone())
            return false;
    }
    return http.endChunked();
}

} // namespace kts
