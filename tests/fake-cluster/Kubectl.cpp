// The fake kubectl: get, describe, delete, taint, rollout, wait and version against the scripted
// cluster, with kubectl's selectors, output formats and error messages; any other verb that changes
// a cluster is accepted (and logged by main.cpp) without changing the state.
#include "Cluster.h"
#include "JsonPath.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QSet>

#include <cstdio>

namespace fakecluster {

namespace {

const QList<ResourceType>& types() {
    static const QList<ResourceType> t{
        {"Namespace", "namespaces", "namespace", "", {"ns"}, false},
        {"Node", "nodes", "node", "", {"no"}, false},
        {"Service", "services", "service", "", {"svc"}, true},
        {"Pod", "pods", "pod", "", {"po"}, true},
        {"Event", "events", "event", "", {"ev"}, true},
        {"ConfigMap", "configmaps", "configmap", "", {"cm"}, true},
        {"Secret", "secrets", "secret", "", {}, true},
        {"Deployment", "deployments", "deployment", "apps", {"deploy"}, true},
        {"DaemonSet", "daemonsets", "daemonset", "apps", {"ds"}, true},
        {"StatefulSet", "statefulsets", "statefulset", "apps", {"sts"}, true},
        {"Job", "jobs", "job", "batch", {}, true},
        {"CustomResourceDefinition",
         "customresourcedefinitions",
         "customresourcedefinition",
         "apiextensions.k8s.io",
         {"crd", "crds"},
         false},
        {"APIService", "apiservices", "apiservice", "apiregistration.k8s.io", {}, false},
        {"MutatingWebhookConfiguration",
         "mutatingwebhookconfigurations",
         "mutatingwebhookconfiguration",
         "admissionregistration.k8s.io",
         {},
         false},
        {"ValidatingWebhookConfiguration",
         "validatingwebhookconfigurations",
         "validatingwebhookconfiguration",
         "admissionregistration.k8s.io",
         {},
         false},
    };
    return t;
}

void out(const QString& s) {
    const QByteArray b = s.toUtf8();
    std::fwrite(b.constData(), 1, static_cast<size_t>(b.size()), stdout);
}
void err(const QString& s) {
    const QByteArray b = s.toUtf8();
    std::fwrite(b.constData(), 1, static_cast<size_t>(b.size()), stderr);
}

// The command line: verb words, flags with their values, boolean flags.
struct Args {
    QStringList words;
    QMap<QString, QString> flags; // long name (without dashes) -> value
    QSet<QString> switches;       // long name
    QString flag(const char* name) const { return flags.value(QLatin1String(name)); }
    bool has(const char* name) const {
        return switches.contains(QLatin1String(name)) || flags.contains(QLatin1String(name));
    }
};

Args parse(const QStringList& argv) {
    static const QMap<QString, QString> shortNames{
        {"n", "namespace"}, {"l", "selector"},  {"o", "output"},        {"f", "filename"},
        {"p", "patch"},     {"c", "container"}, {"A", "all-namespaces"}};
    static const QSet<QString> valued{
        "namespace", "selector", "output", "filename",   "patch",   "container", "field-selector",
        "sort-by",   "timeout",  "for",    "kubeconfig", "context", "raw",       "type",
        "template",  "since",    "tail"};
    Args a;
    for (qsizetype i = 0; i < argv.size(); ++i) {
        QString w = argv[i];
        if (w == QLatin1String("--")) {
            a.words += argv.mid(i + 1);
            break;
        }
        if (w.size() < 2 || !w.startsWith(QLatin1Char('-')) || w == QLatin1String("-")) {
            a.words << w;
            continue;
        }
        QString name, value;
        bool inlineValue = false;
        if (w.startsWith(QLatin1String("--"))) {
            name = w.mid(2);
        } else {
            name = shortNames.value(w.mid(1, 1), w.mid(1, 1));
            if (w.size() > 2)
                value = w.mid(2), inlineValue = true;
        }
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
            value = name.mid(eq + 1);
            name = name.left(eq);
            inlineValue = true;
        }
        if (valued.contains(name)) {
            if (!inlineValue && i + 1 < argv.size())
                value = argv[++i];
            a.flags[name] = value;
        } else {
            a.switches.insert(name);
        }
    }
    return a;
}

QString metaName(const QJsonObject& o) {
    return o.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("name")).toString();
}
QString metaNamespace(const QJsonObject& o) {
    return o.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("namespace")).toString();
}

// The value at a dotted path as text; "" when absent.
QString fieldText(const QJsonObject& o, const QString& path, bool* present) {
    QJsonValue v = o;
    for (const QString& part : path.split(QLatin1Char('.'))) {
        v = v.toObject().value(part);
        if (v.isUndefined()) {
            *present = false;
            return {};
        }
    }
    *present = true;
    return v.isDouble() ? QString::number(v.toInteger()) : v.toVariant().toString();
}

bool labelsMatch(const QJsonObject& o, const QString& selector) {
    const QJsonObject labels =
        o.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("labels")).toObject();
    for (const QString& term : selector.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (term.startsWith(QLatin1Char('!'))) {
            if (labels.contains(term.mid(1)))
                return false;
        } else if (const qsizetype ne = term.indexOf(QLatin1String("!=")); ne >= 0) {
            if (labels.value(term.left(ne)).toString() == term.mid(ne + 2) && labels.contains(term.left(ne)))
                return false;
        } else if (const qsizetype eq = term.indexOf(QLatin1Char('=')); eq >= 0) {
            const QString value = term.mid(term.mid(eq).startsWith(QLatin1String("==")) ? eq + 2 : eq + 1);
            if (!labels.contains(term.left(eq)) || labels.value(term.left(eq)).toString() != value)
                return false;
        } else if (!labels.contains(term)) {
            return false;
        }
    }
    return true;
}

// Field selectors as the API server applies them: an integer status field that is absent reads 0.
bool fieldsMatch(const QJsonObject& o, const QString& selector) {
    for (const QString& term : selector.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const bool negate = term.contains(QLatin1String("!="));
        const qsizetype at = term.indexOf(negate ? QLatin1String("!=") : QLatin1String("="));
        const QString path = term.left(at);
        QString want = term.mid(at + (negate ? 2 : 1));
        if (want.startsWith(QLatin1Char('=')))
            want = want.mid(1);
        bool present = false;
        QString have = fieldText(o, path, &present);
        if (!present && path.startsWith(QLatin1String("status.")))
            have = QStringLiteral("0");
        if ((have == want) == negate)
            return false;
    }
    return true;
}

struct Selection {
    const ResourceType* type = nullptr;
    QStringList names;
    QString ns;
    bool allNamespaces = false;
};

// The resource words of a command ("TYPE [NAME...]" or "TYPE/NAME..."); an error message on failure.
QString selection(const QStringList& words, const Args& a, Selection* s) {
    if (words.isEmpty())
        return QStringLiteral("error: You must specify the type of resource to get.");
    for (const QString& w : words) {
        const qsizetype slash = w.indexOf(QLatin1Char('/'));
        if (slash >= 0) {
            const ResourceType* t = resourceType(w.left(slash));
            if (!t)
                return QStringLiteral("error: the server doesn't have a resource type \"%1\"")
                    .arg(w.left(slash));
            if (s->type && s->type != t)
                return QStringLiteral("error: the fake kubectl takes one resource type per command");
            s->type = t;
            s->names << w.mid(slash + 1);
        } else if (!s->type) {
            s->type = resourceType(w);
            if (!s->type)
                return QStringLiteral("error: the server doesn't have a resource type \"%1\"").arg(w);
        } else {
            s->names << w;
        }
    }
    s->allNamespaces = a.has("all-namespaces");
    s->ns = a.flags.value(QStringLiteral("namespace"), QStringLiteral("default"));
    return {};
}

bool forbidden(const Cluster& c, const ResourceType* t) {
    return c.state.value(QStringLiteral("forbidden")).toArray().contains(QJsonValue(t->plural));
}

// The objects a selection names (in its order) or matches; `missing` gets names not found.
QList<QJsonObject> matching(const Cluster& c, const Selection& s, const Args& a, QStringList* missing) {
    QList<QJsonObject> found;
    auto inScope = [&](const QJsonObject& o) {
        if (o.value(QStringLiteral("kind")).toString() != s.type->kind)
            return false;
        return !s.type->namespaced || s.allNamespaces || metaNamespace(o) == s.ns;
    };
    const QJsonArray all = c.objects();
    if (!s.names.isEmpty()) {
        for (const QString& n : s.names) {
            bool hit = false;
            for (const QJsonValue& v : all)
                if (inScope(v.toObject()) && metaName(v.toObject()) == n) {
                    found << v.toObject();
                    hit = true;
                    break;
                }
            if (!hit)
                *missing << n;
        }
        return found;
    }
    for (const QJsonValue& v : all) {
        const QJsonObject o = v.toObject();
        if (inScope(o) && labelsMatch(o, a.flag("selector")) && fieldsMatch(o, a.flag("field-selector")))
            found << o;
    }
    return found;
}

void notFound(const ResourceType* t, const QString& name) {
    err(QStringLiteral("Error from server (NotFound): %1 \"%2\" not found\n")
            .arg(t->qualifiedPlural(), name));
}

int forbiddenError(const ResourceType* t, const QString& verb) {
    err(QStringLiteral("Error from server (Forbidden): %1 is forbidden: User \"fake\" cannot %2 resource "
                       "\"%1\" in API group \"%3\"\n")
            .arg(t->plural, verb, t->group));
    return 1;
}

int get(const Cluster& c, const Args& a) {
    Selection s;
    if (const QString e = selection(a.words.mid(1), a, &s); !e.isEmpty()) {
        err(e + QLatin1Char('\n'));
        return 1;
    }
    if (forbidden(c, s.type))
        return forbiddenError(s.type, QStringLiteral("list"));
    QStringList missing;
    const QList<QJsonObject> found = matching(c, s, a, &missing);
    const QString output = a.flag("output");
    int rc = 0;
    if (!a.has("ignore-not-found"))
        for (const QString& n : missing) {
            notFound(s.type, n);
            rc = 1;
        }
    const bool single = s.names.size() == 1;
    QJsonValue data;
    if (single) {
        if (found.isEmpty())
            return rc;
        data = found.front();
    } else {
        QJsonArray items;
        for (const QJsonObject& o : found)
            items.append(o);
        data = QJsonObject{{"apiVersion", "v1"},
                           {"kind", "List"},
                           {"items", items},
                           {"metadata", QJsonObject{{"resourceVersion", ""}}}};
    }
    if (output == QLatin1String("json")) {
        out(QString::fromUtf8(QJsonDocument(data.toObject()).toJson()));
    } else if (output == QLatin1String("name")) {
        for (const QJsonObject& o : found)
            out(s.type->qualified() + QLatin1Char('/') + metaName(o) + QLatin1Char('\n'));
    } else if (output.startsWith(QLatin1String("jsonpath="))) {
        QString tmpl = output.mid(9), e;
        if (tmpl.size() >= 2 && tmpl.startsWith(QLatin1Char('\'')) && tmpl.endsWith(QLatin1Char('\'')))
            tmpl = tmpl.mid(1, tmpl.size() - 2);
        const QString text = evalJsonPath(tmpl, data, &e);
        if (!e.isEmpty()) {
            err(QStringLiteral("error: error executing jsonpath \"%1\": Error executing template: %2\n")
                    .arg(tmpl, e));
            return 1;
        }
        out(text);
    } else if (!output.isEmpty() && output != QLatin1String("wide")) {
        err(QStringLiteral("error: the fake kubectl does not print -o %1\n").arg(output));
        return 2;
    } else if (found.isEmpty() && missing.isEmpty()) {
        err(s.type->namespaced && !s.allNamespaces
                ? QStringLiteral("No resources found in %1 namespace.\n").arg(s.ns)
                : QStringLiteral("No resources found\n"));
    } else if (!found.isEmpty()) {
        out(s.allNamespaces ? QStringLiteral("NAMESPACE   NAME\n") : QStringLiteral("NAME\n"));
        for (const QJsonObject& o : found)
            out((s.allNamespaces ? metaNamespace(o) + QStringLiteral("   ") : QString()) + metaName(o) +
                QLatin1Char('\n'));
    }
    return rc;
}

int describe(const Cluster& c, const Args& a) {
    Selection s;
    if (const QString e = selection(a.words.mid(1), a, &s); !e.isEmpty()) {
        err(e + QLatin1Char('\n'));
        return 1;
    }
    if (forbidden(c, s.type))
        return forbiddenError(s.type, QStringLiteral("list"));
    QStringList missing;
    for (const QJsonObject& o : matching(c, s, a, &missing))
        out(QStringLiteral("Name:         %1\nNamespace:    %2\nKind:         %3\n\n")
                .arg(metaName(o), metaNamespace(o), s.type->kind));
    for (const QString& n : missing)
        notFound(s.type, n);
    return missing.isEmpty() ? 0 : 1;
}

int remove(Cluster& c, const Args& a) {
    Selection s;
    if (const QString e = selection(a.words.mid(1), a, &s); !e.isEmpty()) {
        err(e + QLatin1Char('\n'));
        return 1;
    }
    if (forbidden(c, s.type))
        return forbiddenError(s.type, QStringLiteral("delete"));
    QStringList missing;
    const QList<QJsonObject> doomed = matching(c, s, a, &missing);
    QJsonArray kept;
    for (const QJsonValue& v : c.objects())
        if (!doomed.contains(v.toObject()))
            kept.append(v);
    if (!doomed.isEmpty())
        c.setObjects(kept);
    for (const QJsonObject& o : doomed)
        out(QStringLiteral("%1 \"%2\" deleted\n").arg(s.type->qualified(), metaName(o)));
    if (a.has("ignore-not-found") || missing.isEmpty())
        return 0;
    for (const QString& n : missing)
        notFound(s.type, n);
    return 1;
}

// kubectl taint node NAME... KEY[=VALUE]:EFFECT | KEY- | KEY:EFFECT-
int taint(Cluster& c, const Args& a) {
    if (a.words.size() < 2 || resourceType(a.words[1]) != resourceType(QStringLiteral("node"))) {
        err(QStringLiteral("error: the fake kubectl taints nodes only\n"));
        return 2;
    }
    QStringList nodes, specs;
    for (const QString& w : a.words.mid(2))
        (w.contains(QLatin1Char('=')) || w.contains(QLatin1Char(':')) || w.endsWith(QLatin1Char('-')) ? specs
                                                                                                      : nodes)
            << w;
    if (nodes.isEmpty() || specs.isEmpty()) {
        err(QStringLiteral("error: at least one taint update is required\n"));
        return 1;
    }
    QJsonArray objects = c.objects();
    int rc = 0;
    for (const QString& node : nodes) {
        qsizetype at = -1;
        for (qsizetype i = 0; i < objects.size(); ++i)
            if (objects[i].toObject().value(QStringLiteral("kind")).toString() == QLatin1String("Node") &&
                metaName(objects[i].toObject()) == node)
                at = i;
        if (at < 0) {
            notFound(resourceType(QStringLiteral("node")), node);
            rc = 1;
            continue;
        }
        QJsonObject o = objects[at].toObject();
        QJsonObject spec = o.value(QStringLiteral("spec")).toObject();
        QJsonArray taints = spec.value(QStringLiteral("taints")).toArray();
        bool added = false;
        for (const QString& sp : specs) {
            if (sp.endsWith(QLatin1Char('-'))) {
                const QString body = sp.chopped(1);
                const QString key = body.section(QLatin1Char(':'), 0, 0);
                const QString effect =
                    body.contains(QLatin1Char(':')) ? body.section(QLatin1Char(':'), 1) : QString();
                QJsonArray left;
                bool removed = false;
                for (const QJsonValue& t : taints) {
                    const QJsonObject to = t.toObject();
                    if (to.value(QStringLiteral("key")).toString() == key &&
                        (effect.isEmpty() || to.value(QStringLiteral("effect")).toString() == effect))
                        removed = true;
                    else
                        left.append(t);
                }
                if (!removed) {
                    err(QStringLiteral("error: taint \"%1\" not found\n").arg(body));
                    return 1;
                }
                taints = left;
            } else {
                const QString keyValue = sp.section(QLatin1Char(':'), 0, 0);
                QJsonObject t{{"key", keyValue.section(QLatin1Char('='), 0, 0)},
                              {"effect", sp.section(QLatin1Char(':'), 1)}};
                if (keyValue.contains(QLatin1Char('=')))
                    t[QStringLiteral("value")] = keyValue.section(QLatin1Char('='), 1);
                taints.append(t);
                added = true;
            }
        }
        spec[QStringLiteral("taints")] = taints;
        o[QStringLiteral("spec")] = spec;
        objects[at] = o;
        out(QStringLiteral("node/%1 %2\n")
                .arg(node, added ? QStringLiteral("tainted") : QStringLiteral("untainted")));
    }
    c.setObjects(objects);
    return rc;
}

int rollout(Cluster& c, const Args& a) {
    const QString sub = a.words.value(1);
    Selection s;
    if (const QString e = selection(a.words.mid(2), a, &s); !e.isEmpty()) {
        err(e + QLatin1Char('\n'));
        return 1;
    }
    QStringList missing;
    const QList<QJsonObject> found = matching(c, s, a, &missing);
    for (const QString& n : missing) {
        notFound(s.type, n);
        return 1;
    }
    if (sub == QLatin1String("status") || sub == QLatin1String("history")) {
        for (const QJsonObject& o : found)
            out(QStringLiteral("%1 \"%2\" successfully rolled out\n").arg(s.type->singular, metaName(o)));
        return 0;
    }
    if (sub != QLatin1String("restart")) {
        err(QStringLiteral("error: the fake kubectl does not model rollout %1\n").arg(sub));
        return 2;
    }
    QJsonArray objects = c.objects();
    for (qsizetype i = 0; i < objects.size(); ++i) {
        QJsonObject o = objects[i].toObject();
        if (!found.contains(o))
            continue;
        QJsonObject spec = o.value(QStringLiteral("spec")).toObject();
        QJsonObject tmpl = spec.value(QStringLiteral("template")).toObject();
        QJsonObject meta = tmpl.value(QStringLiteral("metadata")).toObject();
        QJsonObject ann = meta.value(QStringLiteral("annotations")).toObject();
        ann[QStringLiteral("kubectl.kubernetes.io/restartedAt")] = QStringLiteral("restarted");
        meta[QStringLiteral("annotations")] = ann;
        tmpl[QStringLiteral("metadata")] = meta;
        spec[QStringLiteral("template")] = tmpl;
        o[QStringLiteral("spec")] = spec;
        objects[i] = o;
        out(QStringLiteral("%1/%2 restarted\n").arg(s.type->qualified(), metaName(o)));
    }
    c.setObjects(objects);
    return 0;
}

int wait(const Cluster& c, const Args& a) {
    Selection s;
    if (const QString e = selection(a.words.mid(1), a, &s); !e.isEmpty()) {
        err(e + QLatin1Char('\n'));
        return 1;
    }
    QStringList missing;
    const QList<QJsonObject> found = matching(c, s, a, &missing);
    if (found.isEmpty()) {
        err(QStringLiteral("error: no matching resources found\n"));
        return 1;
    }
    if (c.state.value(QStringLiteral("waitTimesOut")).toBool()) {
        err(QStringLiteral("error: timed out waiting for the condition on %1/%2\n")
                .arg(s.type->plural, metaName(found.front())));
        return 1;
    }
    for (const QJsonObject& o : found)
        out(QStringLiteral("%1/%2 condition met\n").arg(s.type->qualified(), metaName(o)));
    return 0;
}

} // namespace

const ResourceType* resourceType(const QString& word) {
    for (const ResourceType& t : types()) {
        for (const QString& n : QStringList{t.plural, t.singular} + t.shortNames)
            if (word.compare(n, Qt::CaseInsensitive) == 0 ||
                (!t.group.isEmpty() &&
                 word.compare(n + QLatin1Char('.') + t.group, Qt::CaseInsensitive) == 0))
                return &t;
    }
    return nullptr;
}

int kubectl(Cluster& cluster, const QStringList& argv) {
    const Args a = parse(argv);
    const QString verb = a.words.value(0);
    if (verb == QLatin1String("get"))
        return get(cluster, a);
    if (verb == QLatin1String("describe"))
        return describe(cluster, a);
    if (verb == QLatin1String("delete"))
        return remove(cluster, a);
    if (verb == QLatin1String("taint"))
        return taint(cluster, a);
    if (verb == QLatin1String("rollout"))
        return rollout(cluster, a);
    if (verb == QLatin1String("wait"))
        return wait(cluster, a);
    if (verb == QLatin1String("version")) {
        out(QStringLiteral("Client Version: v1.31.0\nServer Version: v1.31.0-fake\n"));
        return 0;
    }
    static const QSet<QString> accepted{"apply",        "create", "replace", "patch",         "label",
                                        "annotate",     "scale",  "cordon",  "uncordon",      "drain",
                                        "logs",         "top",    "explain", "api-resources", "api-versions",
                                        "cluster-info", "auth"};
    if (accepted.contains(verb))
        return 0;
    err(QStringLiteral("fake kubectl: '%1' is not modelled\n").arg(argv.join(QLatin1Char(' '))));
    return 2;
}

} // namespace fakecluster
