#include "catalog/Loader.h"

#include "core/Files.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <algorithm>

namespace pb::catalog {

namespace {

using yaml::Node;

// Typed field access with errors that name the file, line and dotted field path.
class Reader {
  public:
    explicit Reader(QString file) : m_file(std::move(file)) {}

    bool failed() const { return m_error.has_value(); }
    const Error& error() const { return *m_error; }

    void fail(const Node* at, const QString& field, const QString& message) {
        if (!m_error)
            m_error = makeError(message, m_file, at ? at->line : 0, field);
    }

    // A string scalar (numbers and booleans are taken as their text, as Go's yaml decoder does
    // for string fields); absent or null gives an empty string.
    QString str(const Node& map, const char* key, const QString& path) {
        const Node* v = map.get(key);
        if (!v || v->isNull())
            return {};
        if (!v->isScalar()) {
            fail(v, join(path, key), QStringLiteral("expected a string, found a %1").arg(shape(*v)));
            return {};
        }
        return v->text();
    }

    QStringList strList(const Node& map, const char* key, const QString& path, bool* present = nullptr) {
        const Node* v = map.get(key);
        if (present)
            *present = v && !v->isNull();
        QStringList out;
        if (!v || v->isNull())
            return out;
        if (!v->isSeq()) {
            fail(v, join(path, key), QStringLiteral("expected a list of strings, found a %1").arg(shape(*v)));
            return out;
        }
        for (size_t i = 0; i < v->items.size(); ++i) {
            const Node& item = v->items[i];
            if (!item.isScalar() || item.isNull()) {
                fail(&item, join(path, key) + QStringLiteral("[%1]").arg(i),
                     QStringLiteral("expected a string"));
                return out;
            }
            out << item.text();
        }
        return out;
    }

    bool boolean(const Node& map, const char* key, const QString& path) {
        const Node* v = map.get(key);
        if (!v || v->isNull())
            return false;
        if (!v->isScalar() || v->resolve() != yaml::Resolved::Bool) {
            fail(v, join(path, key), QStringLiteral("expected true or false"));
            return false;
        }
        return v->scalar[0] == 't' || v->scalar[0] == 'T';
    }

    int integer(const Node& map, const char* key, const QString& path) {
        const Node* v = map.get(key);
        if (!v || v->isNull())
            return 0;
        bool ok = false;
        const int n = v->isScalar() ? v->text().toInt(&ok) : 0;
        if (!ok)
            fail(v, join(path, key), QStringLiteral("expected an integer"));
        return n;
    }

    const Node* mapping(const Node& map, const char* key, const QString& path) {
        const Node* v = map.get(key);
        if (!v || v->isNull())
            return nullptr;
        if (!v->isMap()) {
            fail(v, join(path, key), QStringLiteral("expected a mapping, found a %1").arg(shape(*v)));
            return nullptr;
        }
        return v;
    }

    const Node* sequence(const Node& map, const char* key, const QString& path) {
        const Node* v = map.get(key);
        if (!v || v->isNull())
            return nullptr;
        if (!v->isSeq()) {
            fail(v, join(path, key), QStringLiteral("expected a list, found a %1").arg(shape(*v)));
            return nullptr;
        }
        return v;
    }

    // Everything in `map` whose key is not in `known`.
    static Node extras(const Node& map, std::initializer_list<const char*> known) {
        Node out = Node::map();
        for (const yaml::MapEntry& e : map.entries) {
            bool isKnown = false;
            for (const char* k : known)
                if (e.key.scalar == k)
                    isKnown = true;
            if (!isKnown)
                out.entries.push_back(e);
        }
        return out;
    }

    static QString join(const QString& path, const char* key) {
        return path.isEmpty() ? QString::fromLatin1(key) : path + QLatin1Char('.') + QLatin1String(key);
    }

    static QString shape(const Node& n) {
        if (n.isMap())
            return QStringLiteral("mapping");
        if (n.isSeq())
            return QStringLiteral("list");
        return QStringLiteral("scalar");
    }

  private:
    QString m_file;
    std::optional<Error> m_error;
};

Constraint readConstraint(Reader& r, const Node& n, const QString& path) {
    Constraint c;
    if (!n.isMap()) {
        r.fail(&n, path, QStringLiteral("expected a constraint mapping with name and value"));
        return c;
    }
    c.name = r.str(n, "name", path);
    c.value = r.str(n, "value", path);
    c.severity = r.str(n, "severity", path);
    c.remediation = r.str(n, "remediation", path);
    c.unit = r.str(n, "unit", path);
    c.extra = Reader::extras(n, {"name", "value", "severity", "remediation", "unit"});
    if (c.name.isEmpty())
        r.fail(&n, path + QStringLiteral(".name"), QStringLiteral("a constraint needs a name"));
    return c;
}

std::vector<Constraint> readConstraints(Reader& r, const Node& seq, const QString& path) {
    std::vector<Constraint> out;
    for (size_t i = 0; i < seq.items.size(); ++i)
        out.push_back(readConstraint(r, seq.items[i], path + QStringLiteral("[%1]").arg(i)));
    return out;
}

ComponentRef readComponentRef(Reader& r, const Node& n, const QString& path) {
    ComponentRef c;
    c.line = n.line;
    if (!n.isMap()) {
        r.fail(&n, path, QStringLiteral("expected a component mapping"));
        return c;
    }
    c.name = r.str(n, "name", path);
    c.namespace_ = r.str(n, "namespace", path);
    c.chart = r.str(n, "chart", path);
    c.type = r.str(n, "type", path);
    c.source = r.str(n, "source", path);
    c.version = r.str(n, "version", path);
    c.tag = r.str(n, "tag", path);
    c.valuesFile = r.str(n, "valuesFile", path);
    c.path = r.str(n, "path", path);
    if (const Node* o = r.mapping(n, "overrides", path))
        c.overrides = *o;
    else
        c.overrides = Node::null();
    if (const Node* p = n.get("patches"); p && !p->isNull())
        c.patches = *p;
    else
        c.patches = Node::null();
    c.dependencyRefs = r.strList(n, "dependencyRefs", path);
    c.manifestFiles = r.strList(n, "manifestFiles", path);
    c.preManifestFiles = r.strList(n, "preManifestFiles", path);
    c.cleanup = r.boolean(n, "cleanup", path);
    if (const Node* e = r.sequence(n, "expectedResources", path))
        c.expectedResources = *e;
    else
        c.expectedResources = Node::null();
    c.healthCheckAsserts = r.str(n, "healthCheckAsserts", path);
    c.healthCheckSkip = r.boolean(n, "healthCheckSkip", path);
    c.extra = Reader::extras(n, {"name", "namespace", "chart", "type", "source", "version", "tag",
                                 "valuesFile", "path", "overrides", "patches", "dependencyRefs",
                                 "manifestFiles", "preManifestFiles", "cleanup", "expectedResources",
                                 "healthCheckAsserts", "healthCheckSkip"});
    if (c.name.isEmpty())
        r.fail(&n, path + QStringLiteral(".name"), QStringLiteral("a component reference needs a name"));
    if (!c.type.isEmpty() && c.type != QLatin1String("Helm") && c.type != QLatin1String("Kustomize"))
        r.fail(n.get("type"), path + QStringLiteral(".type"),
               QStringLiteral("unknown component type '%1' (expected Helm or Kustomize)").arg(c.type));
    return c;
}

std::vector<ComponentRef> readComponentRefs(Reader& r, const Node& seq, const QString& path) {
    std::vector<ComponentRef> out;
    QSet<QString> seen;
    for (size_t i = 0; i < seq.items.size(); ++i) {
        const QString p = path + QStringLiteral("[%1]").arg(i);
        ComponentRef c = readComponentRef(r, seq.items[i], p);
        if (!c.name.isEmpty() && seen.contains(c.name))
            r.fail(&seq.items[i], p + QStringLiteral(".name"),
                   QStringLiteral("component '%1' is listed twice").arg(c.name));
        seen.insert(c.name);
        out.push_back(std::move(c));
    }
    return out;
}

ValidationPhase readPhase(Reader& r, const Node& n, const QString& path) {
    ValidationPhase p;
    if (n.isNull())
        return p;
    if (!n.isMap()) {
        r.fail(&n, path, QStringLiteral("expected a validation phase mapping"));
        return p;
    }
    p.timeout = r.str(n, "timeout", path);
    p.infrastructure = r.str(n, "infrastructure", path);
    if (const Node* c = n.get("constraints"); c && !c->isNull()) {
        if (const Node* s = r.sequence(n, "constraints", path))
            p.constraints = readConstraints(r, *s, path + QStringLiteral(".constraints"));
    }
    bool hasChecks = false;
    QStringList checks = r.strList(n, "checks", path, &hasChecks);
    if (hasChecks)
        p.checks = checks;
    if (const Node* ns = r.mapping(n, "nodeSelection", path))
        p.nodeSelection = *ns;
    else
        p.nodeSelection = Node::null();
    p.extra = Reader::extras(n, {"timeout", "constraints", "checks", "nodeSelection", "infrastructure"});
    return p;
}

Validation readValidation(Reader& r, const Node& n, const QString& path) {
    Validation v;
    for (const QString& name : Validation::phaseNames()) {
        const QByteArray key = name.toLatin1();
        if (const Node* ph = n.get(key.constData()))
            v.phase(name) = readPhase(r, *ph, path + QLatin1Char('.') + name);
    }
    v.extra = Reader::extras(n, {"readiness", "deployment", "performance", "conformance"});
    return v;
}

Criteria readCriteria(Reader& r, const Node& n, const QString& path) {
    Criteria c;
    for (const QString& d : Criteria::dimensions()) {
        const QByteArray key = d.toLatin1();
        c.set(d, r.str(n, key.constData(), path).toLower());
    }
    c.nodes = r.integer(n, "nodes", path);
    return c;
}

Result<Node> parseDocument(const QByteArray& bytes, const QString& file) {
    Result<Node> doc = yaml::parse(bytes, file);
    if (!doc)
        return doc;
    if (!doc->isMap())
        return makeError(QStringLiteral("expected a YAML mapping at the top of the document"), file,
                         doc->line);
    return doc;
}

Status checkHeader(Reader& r, const Node& doc, const QString& file, const QString& expectedKind,
                   ApiVersion* apiOut) {
    const QString kind = r.str(doc, "kind", {});
    const QString api = r.str(doc, "apiVersion", {});
    if (r.failed())
        return r.error();
    if (kind.isEmpty())
        return makeError(QStringLiteral("missing kind (expected %1)").arg(expectedKind), file, doc.line,
                         QStringLiteral("kind"));
    if (kind != expectedKind)
        return makeError(QStringLiteral("wrong kind '%1' (expected %2)").arg(kind, expectedKind), file,
                         doc.get("kind")->line, QStringLiteral("kind"));
    const ApiVersion v = classifyApiVersion(api);
    const bool validatorKind = expectedKind == QLatin1String("ValidatorCatalog");
    const bool known = validatorKind ? v.track == ApiTrack::Validator
                                     : (v.track != ApiTrack::Unknown && v.track != ApiTrack::Validator);
    if (!known) {
        const Node* at = doc.get("apiVersion");
        return makeError(api.isEmpty()
                             ? QStringLiteral("missing apiVersion")
                             : QStringLiteral("unknown apiVersion '%1' for kind %2 (expected %3)")
                                   .arg(api, kind,
                                        validatorKind ? QStringLiteral("validator.nvidia.com/v1alpha1")
                                                      : QStringLiteral("aicr.run/v1alpha2, v1alpha3, "
                                                                       "v1beta1, v1beta2, v1 or "
                                                                       "aicr.nvidia.com/v1alpha1")),
                         file, at ? at->line : doc.line, QStringLiteral("apiVersion"));
    }
    if (apiOut)
        *apiOut = v;
    return {};
}

} // namespace

Result<Overlay> parseOverlay(const QByteArray& bytes, const QString& file, bool mixin) {
    Result<Node> doc = parseDocument(bytes, file);
    if (!doc)
        return doc.error();
    Overlay o;
    o.file = file;
    o.raw = bytes;
    o.kind = mixin ? QStringLiteral("RecipeMixin") : QStringLiteral("RecipeMetadata");
    Reader r(file);
    if (Status s = checkHeader(r, *doc, file, o.kind, &o.apiVersion); !s)
        return s.error();
    const Node* meta = r.mapping(*doc, "metadata", {});
    if (meta)
        o.name = r.str(*meta, "name", QStringLiteral("metadata"));
    if (r.failed())
        return r.error();
    if (o.name.isEmpty())
        return makeError(QStringLiteral("missing metadata.name"), file, meta ? meta->line : doc->line,
                         QStringLiteral("metadata.name"));
    const Node* spec = r.mapping(*doc, "spec", {});
    if (r.failed())
        return r.error();
    if (!spec) {
        if (mixin)
            return makeError(QStringLiteral("missing spec"), file, doc->line, QStringLiteral("spec"));
        static const Node empty = Node::map();
        spec = &empty;
    }
    const QString sp = QStringLiteral("spec");
    OverlaySpec& s = o.spec;
    if (!mixin) {
        s.base = r.str(*spec, "base", sp);
        if (const Node* c = r.mapping(*spec, "criteria", sp)) {
            s.criteria = readCriteria(r, *c, QStringLiteral("spec.criteria"));
            s.hasCriteria = true;
        }
        s.mixins = r.strList(*spec, "mixins", sp);
        if (const Node* v = r.mapping(*spec, "validation", sp))
            s.validation = readValidation(r, *v, QStringLiteral("spec.validation"));
        if (const Node* p = r.mapping(*spec, "profile", sp))
            s.profile = *p;
        else
            s.profile = Node::null();
    } else {
        s.profile = Node::null();
        for (const char* forbidden : {"base", "criteria", "mixins", "validation", "profile"})
            if (const Node* f = spec->get(forbidden))
                r.fail(f, QStringLiteral("spec.") + QLatin1String(forbidden),
                       QStringLiteral("a RecipeMixin may only carry constraints and componentRefs"));
    }
    if (const Node* c = r.sequence(*spec, "constraints", sp))
        s.constraints = readConstraints(r, *c, QStringLiteral("spec.constraints"));
    if (const Node* c = r.sequence(*spec, "componentRefs", sp))
        s.componentRefs = readComponentRefs(r, *c, QStringLiteral("spec.componentRefs"));
    s.extra = Reader::extras(
        *spec, {"base", "criteria", "mixins", "constraints", "componentRefs", "validation", "profile"});
    if (r.failed())
        return r.error();
    if (Node* written = doc->get("spec"); written && written->isMap())
        o.specNode = std::move(*written);
    return o;
}

Result<std::vector<RegistryComponent>> parseRegistry(const QByteArray& bytes, const QString& file,
                                                     ApiVersion* apiVersion) {
    Result<Node> doc = parseDocument(bytes, file);
    if (!doc)
        return doc.error();
    Reader r(file);
    if (Status s = checkHeader(r, *doc, file, QStringLiteral("ComponentRegistry"), apiVersion); !s)
        return s.error();
    std::vector<RegistryComponent> out;
    const Node* comps = r.sequence(*doc, "components", {});
    if (r.failed())
        return r.error();
    if (!comps)
        return makeError(QStringLiteral("missing components list"), file, doc->line,
                         QStringLiteral("components"));
    QSet<QString> seen;
    for (size_t i = 0; i < comps->items.size(); ++i) {
        const Node& n = comps->items[i];
        const QString p = QStringLiteral("components[%1]").arg(i);
        if (!n.isMap())
            return makeError(QStringLiteral("expected a component mapping"), file, n.line, p);
        RegistryComponent c;
        c.node = n;
        c.name = r.str(n, "name", p);
        c.displayName = r.str(n, "displayName", p);
        const Node* helm = r.mapping(n, "helm", p);
        const Node* kust = r.mapping(n, "kustomize", p);
        if (helm && kust)
            r.fail(&n, p, QStringLiteral("component '%1' has both helm and kustomize settings").arg(c.name));
        if (helm) {
            c.kind = QStringLiteral("Helm");
            c.defaultRepository = r.str(*helm, "defaultRepository", p + QStringLiteral(".helm"));
            c.defaultChart = r.str(*helm, "defaultChart", p + QStringLiteral(".helm"));
            c.defaultVersion = r.str(*helm, "defaultVersion", p + QStringLiteral(".helm"));
            c.defaultNamespace = r.str(*helm, "defaultNamespace", p + QStringLiteral(".helm"));
        }
        if (kust) {
            c.kind = QStringLiteral("Kustomize");
            c.defaultSource = r.str(*kust, "defaultSource", p + QStringLiteral(".kustomize"));
            c.defaultPath = r.str(*kust, "defaultPath", p + QStringLiteral(".kustomize"));
            c.defaultTag = r.str(*kust, "defaultTag", p + QStringLiteral(".kustomize"));
            c.defaultNamespace = r.str(*kust, "defaultNamespace", p + QStringLiteral(".kustomize"));
        }
        if (const Node* hc = r.mapping(n, "healthCheck", p))
            c.healthCheckAssertFile = r.str(*hc, "assertFile", p + QStringLiteral(".healthCheck"));
        c.manifestFiles = r.strList(n, "manifestFiles", p);
        if (r.failed())
            return r.error();
        if (c.name.isEmpty())
            return makeError(QStringLiteral("a registry component needs a name"), file, n.line, p + ".name");
        if (seen.contains(c.name))
            return makeError(QStringLiteral("component '%1' is registered twice").arg(c.name), file, n.line,
                             p + ".name");
        seen.insert(c.name);
        out.push_back(std::move(c));
    }
    return out;
}

Result<RecipeResult> parseRecipeResult(const QByteArray& bytes, const QString& file) {
    Result<Node> doc = parseDocument(bytes, file);
    if (!doc)
        return doc.error();
    Reader r(file);
    RecipeResult out;
    out.kind = r.str(*doc, "kind", {});
    if (out.kind != QLatin1String("RecipeResult"))
        return makeError(out.kind.isEmpty()
                             ? QStringLiteral("missing kind (expected RecipeResult)")
                             : QStringLiteral("wrong kind '%1' (expected RecipeResult)").arg(out.kind),
                         file, doc->line, QStringLiteral("kind"));
    out.apiVersion = r.str(*doc, "apiVersion", {});
    if (const Node* meta = r.mapping(*doc, "metadata", {})) {
        out.version = r.str(*meta, "version", QStringLiteral("metadata"));
        out.appliedOverlays = r.strList(*meta, "appliedOverlays", QStringLiteral("metadata"));
    }
    if (const Node* crit = r.mapping(*doc, "criteria", {}))
        out.criteria = readCriteria(r, *crit, QStringLiteral("criteria"));
    if (const Node* cons = r.sequence(*doc, "constraints", {}))
        out.constraints = readConstraints(r, *cons, QStringLiteral("constraints"));
    if (const Node* comps = r.sequence(*doc, "componentRefs", {}))
        out.componentRefs = readComponentRefs(r, *comps, QStringLiteral("componentRefs"));
    out.deploymentOrder = r.strList(*doc, "deploymentOrder", {});
    if (const Node* config = doc->get("configuration"); config && config->isMap())
        out.configuration = *config;
    if (const Node* val = r.mapping(*doc, "validation", {}))
        out.validation = readValidation(r, *val, QStringLiteral("validation"));
    if (r.failed())
        return r.error();
    return out;
}

Result<ValidatorCatalog> parseValidatorCatalog(const QByteArray& bytes, const QString& file) {
    Result<Node> doc = parseDocument(bytes, file);
    if (!doc)
        return doc.error();
    Reader r(file);
    ValidatorCatalog vc;
    if (Status s = checkHeader(r, *doc, file, QStringLiteral("ValidatorCatalog"), &vc.apiVersion); !s)
        return s.error();
    if (const Node* meta = r.mapping(*doc, "metadata", {})) {
        vc.name = r.str(*meta, "name", QStringLiteral("metadata"));
        vc.version = r.str(*meta, "version", QStringLiteral("metadata"));
    }
    const Node* list = r.sequence(*doc, "validators", {});
    if (r.failed())
        return r.error();
    if (list) {
        QSet<QString> seen;
        static const QStringList phases = {QStringLiteral("deployment"), QStringLiteral("performance"),
                                           QStringLiteral("conformance"), QStringLiteral("readiness")};
        for (size_t i = 0; i < list->items.size(); ++i) {
            const Node& n = list->items[i];
            const QString p = QStringLiteral("validators[%1]").arg(i);
            if (!n.isMap())
                return makeError(QStringLiteral("expected a validator mapping"), file, n.line, p);
            ValidatorCheck c;
            c.node = n;
            c.name = r.str(n, "name", p);
            c.phase = r.str(n, "phase", p);
            c.description = r.str(n, "description", p);
            c.image = r.str(n, "image", p);
            c.timeout = r.str(n, "timeout", p);
            c.args = r.strList(n, "args", p);
            if (r.failed())
                return r.error();
            if (c.name.isEmpty())
                return makeError(QStringLiteral("a validator needs a name"), file, n.line, p + ".name");
            if (!phases.contains(c.phase))
                return makeError(QStringLiteral("unknown phase '%1' for validator '%2'").arg(c.phase, c.name),
                                 file, n.line, p + ".phase");
            if (seen.contains(c.name))
                return makeError(QStringLiteral("validator '%1' is declared twice").arg(c.name), file, n.line,
                                 p + ".name");
            seen.insert(c.name);
            vc.checks.push_back(std::move(c));
        }
    }
    return vc;
}

namespace {

QString classify(const QString& path) {
    if (path.startsWith(QLatin1String("overlays/")) && path.endsWith(QLatin1String(".yaml")) &&
        !path.mid(9).contains(QLatin1Char('/')))
        return QStringLiteral("overlay");
    if (path.startsWith(QLatin1String("mixins/")) && path.endsWith(QLatin1String(".yaml")) &&
        !path.mid(7).contains(QLatin1Char('/')))
        return QStringLiteral("mixin");
    if (path == QLatin1String("registry.yaml"))
        return QStringLiteral("registry");
    if (path == QLatin1String("validators/catalog.yaml"))
        return QStringLiteral("validators");
    if (path.startsWith(QLatin1String("components/")))
        return path.contains(QLatin1String("/manifests/")) ? QStringLiteral("manifest")
                                                           : QStringLiteral("values");
    if (path.startsWith(QLatin1String("checks/")))
        return QStringLiteral("check");
    if (path.startsWith(QLatin1String("evidence/")))
        return QStringLiteral("evidence");
    return QStringLiteral("other");
}

} // namespace

Result<Catalog> loadCatalogFromFiles(std::vector<CatalogFile> files, const QString& rootLabel) {
    Catalog cat;
    cat.root = rootLabel;
    std::sort(files.begin(), files.end(),
              [](const CatalogFile& a, const CatalogFile& b) { return a.path < b.path; });
    for (CatalogFile& f : files)
        if (f.kind.isEmpty())
            f.kind = classify(f.path);
    bool haveRegistry = false;
    for (const CatalogFile& f : files) {
        const QString shown = rootLabel.isEmpty() ? f.path : rootLabel + QLatin1Char('/') + f.path;
        if (f.kind == QLatin1String("overlay") || f.kind == QLatin1String("mixin")) {
            const bool mixin = f.kind == QLatin1String("mixin");
            Result<Overlay> o = parseOverlay(f.bytes, shown, mixin);
            if (!o)
                return o.error();
            o->file = f.path;
            auto& list = mixin ? cat.mixins : cat.overlays;
            for (const Overlay& other : list)
                if (other.name == o->name)
                    return makeError(QStringLiteral("%1 name '%2' is also used by %3")
                                         .arg(mixin ? QStringLiteral("mixin") : QStringLiteral("overlay"),
                                              o->name, other.file),
                                     shown, 0, QStringLiteral("metadata.name"));
            list.push_back(std::move(*o));
        } else if (f.kind == QLatin1String("registry")) {
            Result<std::vector<RegistryComponent>> reg =
                parseRegistry(f.bytes, shown, &cat.registryApiVersion);
            if (!reg)
                return reg.error();
            cat.registry = std::move(*reg);
            haveRegistry = true;
        } else if (f.kind == QLatin1String("validators")) {
            Result<ValidatorCatalog> vc = parseValidatorCatalog(f.bytes, shown);
            if (!vc)
                return vc.error();
            cat.validators = std::move(*vc);
            cat.hasValidators = true;
        }
    }
    auto byName = [](const Overlay& a, const Overlay& b) { return a.name < b.name; };
    std::sort(cat.overlays.begin(), cat.overlays.end(), byName);
    std::sort(cat.mixins.begin(), cat.mixins.end(), byName);
    if (cat.overlays.empty())
        return makeError(QStringLiteral("no overlays found (expected overlays/*.yaml)"), rootLabel);
    if (!cat.overlay(QStringLiteral("base")))
        return makeError(QStringLiteral("the catalog has no base overlay (expected overlays/base.yaml)"),
                         rootLabel, 0, QStringLiteral("overlays/base.yaml"));
    if (!haveRegistry)
        return makeError(QStringLiteral("missing registry.yaml"), rootLabel, 0,
                         QStringLiteral("registry.yaml"));
    // Structural checks that make every later resolution well-defined.
    for (const Overlay& o : cat.overlays) {
        const QString shown = rootLabel + QLatin1Char('/') + o.file;
        if (!o.spec.base.isEmpty() && !cat.overlay(o.spec.base))
            return makeError(QStringLiteral("base overlay '%1' does not exist").arg(o.spec.base), shown, 0,
                             QStringLiteral("spec.base"));
        for (const QString& m : o.spec.mixins)
            if (!cat.mixin(m))
                return makeError(QStringLiteral("mixin '%1' does not exist (expected mixins/%1.yaml)").arg(m),
                                 shown, 0, QStringLiteral("spec.mixins"));
        // Walk the base chain to catch cycles.
        QStringList chain{o.name};
        const Overlay* cur = &o;
        while (cur->name != QLatin1String("base")) {
            const QString parent = cur->spec.base.isEmpty() ? QStringLiteral("base") : cur->spec.base;
            if (chain.contains(parent))
                return makeError(
                    QStringLiteral("base chain forms a cycle: %1").arg((chain << parent).join(" -> ")), shown,
                    0, QStringLiteral("spec.base"));
            chain << parent;
            cur = cat.overlay(parent);
        }
    }
    cat.files = std::move(files);
    return cat;
}

Result<Catalog> loadCatalog(const QString& rootIn, const LoadOptions& options) {
    // Resource paths (":/recipes/...") stay as they are; files are read by absolute path so that
    // relative roots work the same from any working directory.
    QString root = rootIn.startsWith(QLatin1Char(':')) ? rootIn : QFileInfo(rootIn).absoluteFilePath();
    if (root.endsWith(QLatin1Char('/')) && root.size() > 1)
        root.chop(1);
    QDir dir(root);
    if (!dir.exists())
        return makeError(QStringLiteral("catalog directory does not exist"), root);
    if (!dir.exists(QStringLiteral("overlays")) && dir.exists(QStringLiteral("recipes/overlays"))) {
        root += QStringLiteral("/recipes");
        dir = QDir(root);
    }
    if (!dir.exists(QStringLiteral("overlays")))
        return makeError(QStringLiteral("not an AICR catalog: no overlays/ directory"), root);

    // Every entry is looked at, not only regular files: a symbolic link, named pipe, socket or device
    // inside the catalog is refused by name. Skipping it silently made a symlinked overlays/eks.yaml
    // fail later as "base overlay 'eks' does not exist".
    const bool onDisk = !root.startsWith(QLatin1Char(':'));
    QStringList paths;
    QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString abs = it.next();
        const QFileInfo fi = it.fileInfo();
        if (onDisk) {
            if (fi.isSymLink())
                return makeError(
                    QStringLiteral("%1 is a symbolic link; a catalog is read without following links "
                                   "(put the file itself there)")
                        .arg(dir.relativeFilePath(abs)),
                    abs);
            if (fi.isDir())
                continue;
            if (!isRegularFileNoFollow(abs))
                return makeError(
                    QStringLiteral("%1 is %2, not a regular file; a catalog holds only files and directories")
                        .arg(dir.relativeFilePath(abs), describeFileType(abs)),
                    abs);
        } else if (fi.isDir()) {
            continue;
        }
        paths << dir.relativeFilePath(abs);
        if (paths.size() > options.maxFiles)
            return makeError(
                QStringLiteral("more than %1 files; not a catalog directory?").arg(options.maxFiles), root);
    }
    paths.sort();
    std::vector<CatalogFile> files;
    files.reserve(static_cast<size_t>(paths.size()));
    int done = 0;
    for (const QString& rel : std::as_const(paths)) {
        if (options.cancel && options.cancel->load())
            return makeError(QStringLiteral("cancelled"), root);
        const QString abs = root + QLatin1Char('/') + rel;
        QFile f(abs);
        if (Status opened = openInputFile(f, rel); !opened)
            return opened.error();
        if (f.size() > options.maxFileBytes)
            return makeError(QStringLiteral("file is larger than %1 MiB").arg(options.maxFileBytes >> 20),
                             abs);
        Result<QByteArray> bytes = readLimited(f, options.maxFileBytes, rel);
        if (!bytes)
            return bytes.error();
        files.push_back(CatalogFile{rel, QString(), std::move(*bytes)});
        if (options.progress)
            options.progress(++done, static_cast<int>(paths.size()));
    }
    return loadCatalogFromFiles(std::move(files), root);
}

} // namespace pb::catalog
