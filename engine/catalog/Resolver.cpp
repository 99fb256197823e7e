#include "catalog/Resolver.h"

#include "catalog/Loader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <map>
#include <set>

namespace pb::catalog {

using yaml::Node;

namespace {

// ---- merge helpers ----------------------------------------------------------------------------

void laterNonEmpty(QString& into, const QString& from) {
    if (!from.isEmpty())
        into = from;
}

void addUnique(QStringList& into, const QStringList& from) {
    for (const QString& s : from)
        if (!into.contains(s))
            into << s;
}

// Deep merge of Helm-style values: mappings merge key by key, anything else is replaced.
void deepMerge(Node& into, const Node& from) {
    if (from.isNull() && from.isScalar())
        return;
    if (!into.isMap() || !from.isMap()) {
        into = from;
        return;
    }
    for (const yaml::MapEntry& e : from.entries) {
        Node* existing = into.get(e.key.scalar);
        if (existing && existing->isMap() && e.value.isMap())
            deepMerge(*existing, e.value);
        else if (existing)
            *existing = e.value;
        else
            into.entries.push_back(e);
    }
}

void mergeComponent(ComponentRef& into, const ComponentRef& from) {
    laterNonEmpty(into.namespace_, from.namespace_);
    laterNonEmpty(into.chart, from.chart);
    laterNonEmpty(into.type, from.type);
    laterNonEmpty(into.source, from.source);
    laterNonEmpty(into.version, from.version);
    laterNonEmpty(into.tag, from.tag);
    laterNonEmpty(into.valuesFile, from.valuesFile);
    laterNonEmpty(into.path, from.path);
    laterNonEmpty(into.healthCheckAsserts, from.healthCheckAsserts);
    if (from.overrides.isMap()) {
        if (!into.overrides.isMap())
            into.overrides = Node::map();
        deepMerge(into.overrides, from.overrides);
    }
    addUnique(into.dependencyRefs, from.dependencyRefs);
    addUnique(into.manifestFiles, from.manifestFiles);
    addUnique(into.preManifestFiles, from.preManifestFiles);
    if (!from.patches.isNull())
        into.patches = from.patches;
    if (!from.expectedResources.isNull())
        into.expectedResources = from.expectedResources;
    if (from.cleanup)
        into.cleanup = true;
    if (from.healthCheckSkip)
        into.healthCheckSkip = true;
}

void mergeConstraints(std::vector<Constraint>& into, const std::vector<Constraint>& from) {
    for (const Constraint& c : from) {
        auto it = std::find_if(into.begin(), into.end(), [&](const Constraint& x) { return x.name == c.name; });
        if (it != into.end())
            *it = c;
        else
            into.push_back(c);
    }
}

void mergePhase(ValidationPhase& into, const ValidationPhase& from) {
    laterNonEmpty(into.timeout, from.timeout);
    laterNonEmpty(into.infrastructure, from.infrastructure);
    if (from.checks) {
        if (from.checks->isEmpty())
            into.checks = QStringList();
        else {
            if (!into.checks)
                into.checks = QStringList();
            addUnique(*into.checks, *from.checks);
        }
    }
    if (from.constraints) {
        if (from.constraints->empty())
            into.constraints = std::vector<Constraint>();
        else {
            if (!into.constraints)
                into.constraints = std::vector<Constraint>();
            mergeConstraints(*into.constraints, *from.constraints);
        }
    }
    if (!from.nodeSelection.isNull())
        into.nodeSelection = from.nodeSelection;
}

void mergeValidation(std::optional<Validation>& into, const std::optional<Validation>& from) {
    if (!from)
        return;
    if (!into)
        into = Validation();
    for (const QString& name : Validation::phaseNames()) {
        const std::optional<ValidationPhase>& f = from->phase(name);
        if (!f)
            continue;
        std::optional<ValidationPhase>& t = into->phase(name);
        if (!t)
            t = ValidationPhase();
        mergePhase(*t, *f);
    }
}

struct Accumulator {
    std::vector<Constraint> constraints;
    std::vector<ComponentRef> components;
    std::optional<Validation> validation;

    ComponentRef* find(const QString& name) {
        for (ComponentRef& c : components)
            if (c.name == name)
                return &c;
        return nullptr;
    }

    void merge(const OverlaySpec& s) {
        mergeConstraints(constraints, s.constraints);
        for (const ComponentRef& c : s.componentRefs) {
            if (ComponentRef* existing = find(c.name))
                mergeComponent(*existing, c);
            else
                components.push_back(c);
        }
        mergeValidation(validation, s.validation);
    }
};

QString parentOf(const Overlay& o) {
    if (o.name == QLatin1String("base"))
        return {};
    return o.spec.base.isEmpty() ? QStringLiteral("base") : o.spec.base;
}

// root -> ... -> overlay, including base.
QStringList chainOf(const Catalog& cat, const QString& name) {
    QStringList chain;
    QString cur = name;
    while (!cur.isEmpty() && !chain.contains(cur)) {
        chain.prepend(cur);
        const Overlay* o = cat.overlay(cur);
        if (!o)
            break;
        cur = parentOf(*o);
    }
    return chain;
}

bool isAncestor(const Catalog& cat, const QString& ancestor, const QString& of) {
    const QStringList chain = chainOf(cat, of);
    return chain.contains(ancestor) && ancestor != of;
}

QString overlayFile(const Catalog& cat, const Overlay& o) {
    return cat.root.isEmpty() ? o.file : cat.root + QLatin1Char('/') + o.file;
}

// Flattened dotted paths of every leaf under `n`.
void leafPaths(const Node& n, const QString& prefix, QStringList& out) {
    if (n.isMap() && !n.entries.empty()) {
        for (const yaml::MapEntry& e : n.entries)
            leafPaths(e.value, prefix.isEmpty() ? e.key.text() : prefix + QLatin1Char('.') + e.key.text(), out);
        return;
    }
    if (!prefix.isEmpty())
        out << prefix;
}

Status applyProfile(const Catalog& cat, const QStringList& applied, const ResolveOptions& opt, Accumulator& acc,
                    std::optional<SelectedProfile>& selected) {
    QSet<QString> requested(opt.profiles.keyBegin(), opt.profiles.keyEnd());
    for (const QString& name : applied) {
        const Overlay* o = cat.overlay(name);
        if (!o || !o->spec.profile.isMap())
            continue;
        const Node& decl = o->spec.profile;
        const QString file = overlayFile(cat, *o);
        const Node* pname = decl.get("name");
        if (!pname || !pname->isScalar() || pname->scalar.empty())
            return makeError(QStringLiteral("profile declaration needs a name"), file, decl.line,
                             QStringLiteral("spec.profile.name"));
        const QString profileName = pname->text();
        QString value;
        if (opt.profiles.contains(profileName)) {
            value = opt.profiles.value(profileName);
            requested.remove(profileName);
        } else if (const Node* def = decl.get("default"); def && def->isScalar()) {
            value = def->text();
        }
        const Node* values = decl.get("values");
        if (!values || !values->isMap())
            return makeError(QStringLiteral("profile '%1' declares no values").arg(profileName), file, decl.line,
                             QStringLiteral("spec.profile.values"));
        if (value.isEmpty())
            return makeError(QStringLiteral("profile '%1' has no default; choose one with --profile %1=VALUE")
                                 .arg(profileName),
                             file, decl.line, QStringLiteral("spec.profile.default"));
        const Node* fragment = values->get(value.toStdString());
        if (!fragment) {
            QStringList known;
            for (const yaml::MapEntry& e : values->entries)
                known << e.key.text();
            return makeError(QStringLiteral("profile '%1' has no value '%2' (known: %3)")
                                 .arg(profileName, value, known.join(QStringLiteral(", "))),
                             file, decl.line, QStringLiteral("spec.profile.values"));
        }
        SelectedProfile sp;
        sp.name = profileName;
        sp.value = value;
        Node owned = Node::map();
        if (fragment->isMap()) {
            if (const Node* adv = fragment->get("advertiser"); adv && adv->isScalar())
                sp.advertiser = adv->text();
            // The fragment has the shape of an overlay spec (constraints, componentRefs).
            Node specDoc = Node::map();
            specDoc.set("kind", Node::str("RecipeMetadata"));
            specDoc.set("apiVersion", Node::str(o->apiVersion.text.toStdString()));
            Node meta = Node::map();
            meta.set("name", Node::str(o->name.toStdString()));
            specDoc.set("metadata", meta);
            Node spec = Node::map();
            for (const char* key : {"constraints", "componentRefs"})
                if (const Node* v = fragment->get(key))
                    spec.set(key, *v);
            specDoc.set("spec", spec);
            Result<Overlay> frag = parseOverlay(yaml::serialize(specDoc), file, false);
            if (!frag)
                return makeError(frag.error().message, file, fragment->line,
                                 QStringLiteral("spec.profile.values.%1").arg(value));
            acc.merge(frag->spec);
            for (const ComponentRef& c : frag->spec.componentRefs) {
                QStringList paths;
                leafPaths(c.overrides, QString(), paths);
                Node list = Node::seq();
                for (const QString& p : std::as_const(paths))
                    list.items.push_back(Node::str(p.toStdString()));
                owned.set(c.name.toStdString(), list);
            }
        }
        sp.ownedPaths = owned;
        selected = sp;
    }
    if (!requested.isEmpty())
        return makeError(QStringLiteral("--profile %1: no applied overlay declares this profile")
                             .arg(QStringList(requested.values()).join(QStringLiteral(", "))));
    return {};
}

void applyRegistryDefaults(const Catalog& cat, std::vector<ComponentRef>& comps) {
    for (ComponentRef& c : comps) {
        const RegistryComponent* r = cat.component(c.name);
        if (!r)
            continue;
        if (c.type.isEmpty())
            c.type = r->kind;
        if (r->kind == QLatin1String("Kustomize")) {
            if (c.source.isEmpty())
                c.source = r->defaultSource;
            if (c.path.isEmpty())
                c.path = r->defaultPath;
            if (c.tag.isEmpty())
                c.tag = r->defaultTag;
        } else {
            if (c.chart.isEmpty())
                c.chart = r->defaultChart;
            if (c.version.isEmpty())
                c.version = r->defaultVersion;
            if (c.source.isEmpty())
                c.source = r->defaultRepository;
        }
        if (c.namespace_.isEmpty())
            c.namespace_ = r->defaultNamespace;
        if (c.manifestFiles.isEmpty() && !r->manifestFiles.isEmpty())
            c.manifestFiles = r->manifestFiles;
    }
}

// Kahn's algorithm over enabled components; ready components are taken in name order, so the
// result is deterministic. Dependencies on disabled components count as satisfied.
Result<QStringList> deploymentOrder(const std::vector<ComponentRef>& comps) {
    std::map<QString, const ComponentRef*> enabled;
    QSet<QString> declared;
    for (const ComponentRef& c : comps) {
        declared.insert(c.name);
        if (c.isEnabled())
            enabled[c.name] = &c;
    }
    std::map<QString, int> indegree;
    std::map<QString, QStringList> dependents;
    for (const auto& [name, c] : enabled) {
        indegree[name];
        for (const QString& dep : c->dependencyRefs) {
            if (!declared.contains(dep))
                return makeError(QStringLiteral("component '%1' depends on '%2', which is not part of the recipe")
                                     .arg(name, dep),
                                 {}, 0, QStringLiteral("componentRefs.%1.dependencyRefs").arg(name));
            if (!enabled.count(dep))
                continue;
            if (dep == name)
                return makeError(QStringLiteral("component '%1' depends on itself").arg(name), {}, 0,
                                 QStringLiteral("componentRefs.%1.dependencyRefs").arg(name));
            ++indegree[name];
            dependents[dep] << name;
        }
    }
    std::set<QString> ready;
    for (const auto& [name, deg] : indegree)
        if (deg == 0)
            ready.insert(name);
    QStringList order;
    while (!ready.empty()) {
        const QString n = *ready.begin();
        ready.erase(ready.begin());
        order << n;
        for (const QString& d : dependents[n])
            if (--indegree[d] == 0)
                ready.insert(d);
    }
    if (order.size() != static_cast<qsizetype>(enabled.size())) {
        QStringList stuck;
        for (const auto& [name, deg] : indegree)
            if (deg > 0)
                stuck << name;
        return makeError(QStringLiteral("dependency cycle among components: %1").arg(stuck.join(QStringLiteral(", "))),
                         {}, 0, QStringLiteral("componentRefs.dependencyRefs"));
    }
    return order;
}

QString resultApiVersion(const Catalog& cat, bool profiled) {
    const ApiVersion& base = cat.overlay(QStringLiteral("base"))->apiVersion;
    if (base.track == ApiTrack::Legacy)
        return QStringLiteral("aicr.nvidia.com/v1alpha1");
    const bool alpha = base.maturity.contains(QLatin1String("alpha"));
    if (profiled)
        return alpha ? QStringLiteral("aicr.run/v1alpha3") : QStringLiteral("aicr.run/v1beta2");
    return alpha ? QStringLiteral("aicr.run/v1alpha2") : QStringLiteral("aicr.run/v1");
}

} // namespace

Result<RecipeResult> resolve(const Catalog& cat, const Criteria& queryIn, const ResolveOptions& opt) {
    Criteria query = queryIn;
    for (const QString& d : Criteria::dimensions()) {
        const QString v = query.get(d).trimmed().toLower();
        query.set(d, v == QLatin1String("any") ? QString() : v);
    }
    const Overlay* base = cat.overlay(QStringLiteral("base"));
    if (!base)
        return makeError(QStringLiteral("the catalog has no base overlay"), cat.root);

    // 1-2. Candidates: overlays with criteria matching the query, reduced to maximal leaves.
    QStringList candidates;
    for (const Overlay& o : cat.overlays)
        if (o.name != QLatin1String("base") && o.spec.hasCriteria && o.spec.criteria.matches(query))
            candidates << o.name;
    QStringList maximal;
    for (const QString& c : std::as_const(candidates)) {
        bool ancestor = false;
        for (const QString& other : std::as_const(candidates))
            if (other != c && isAncestor(cat, c, other)) {
                ancestor = true;
                break;
            }
        if (!ancestor)
            maximal << c;
    }
    // 3. Least specific first; ties by name.
    std::sort(maximal.begin(), maximal.end(), [&](const QString& a, const QString& b) {
        const int sa = cat.overlay(a)->spec.criteria.specificity();
        const int sb = cat.overlay(b)->spec.criteria.specificity();
        return sa != sb ? sa < sb : a < b;
    });

    // 4. Seed with base, then apply each candidate's chain root -> leaf.
    Accumulator acc;
    QStringList applied{QStringLiteral("base")};
    QStringList mixins;
    acc.merge(base->spec);
    addUnique(mixins, base->spec.mixins);
    for (const QString& leaf : std::as_const(maximal)) {
        for (const QString& name : chainOf(cat, leaf)) {
            if (applied.contains(name))
                continue;
            const Overlay* o = cat.overlay(name);
            acc.merge(o->spec);
            addUnique(mixins, o->spec.mixins);
            applied << name;
        }
    }

    // 5. Mixins after the chain.
    for (const QString& m : std::as_const(mixins)) {
        const Overlay* mix = cat.mixin(m);
        if (!mix)
            return makeError(QStringLiteral("mixin '%1' does not exist").arg(m), cat.root, 0, QStringLiteral("spec.mixins"));
        const QString file = overlayFile(cat, *mix);
        for (const Constraint& c : mix->spec.constraints)
            for (const Constraint& existing : acc.constraints)
                if (existing.name == c.name)
                    return makeError(QStringLiteral("mixin constraint '%1' is already set by the overlays").arg(c.name),
                                     file, 0, QStringLiteral("spec.constraints"));
        mergeConstraints(acc.constraints, mix->spec.constraints);
        for (const ComponentRef& c : mix->spec.componentRefs) {
            if (ComponentRef* existing = acc.find(c.name)) {
                const bool onlyAllowed = c.chart.isEmpty() && c.type.isEmpty() && c.source.isEmpty() &&
                                         c.version.isEmpty() && c.tag.isEmpty() && c.valuesFile.isEmpty() &&
                                         c.path.isEmpty() && c.overrides.isNull() && c.dependencyRefs.isEmpty();
                if (!onlyAllowed)
                    return makeError(QStringLiteral("mixin component '%1' collides with an overlay component; a mixin "
                                                    "may only add namespace, manifestFiles or preManifestFiles to it")
                                         .arg(c.name),
                                     file, c.line, QStringLiteral("spec.componentRefs"));
                mergeComponent(*existing, c);
            } else {
                acc.components.push_back(c);
            }
        }
    }

    RecipeResult r;
    // 6. Profile, registry defaults, dependency sort.
    if (Status s = applyProfile(cat, applied, opt, acc, r.selectedProfile); !s)
        return s.error();
    applyRegistryDefaults(cat, acc.components);
    for (const ComponentRef& c : acc.components)
        if (!c.patches.isNull() && c.isEnabled())
            return makeError(QStringLiteral("component '%1' sets patches, which AICR does not implement").arg(c.name),
                             cat.root, 0, QStringLiteral("componentRefs.%1.patches").arg(c.name));
    std::sort(acc.constraints.begin(), acc.constraints.end(),
              [](const Constraint& a, const Constraint& b) { return a.name < b.name; });
    std::sort(acc.components.begin(), acc.components.end(),
              [](const ComponentRef& a, const ComponentRef& b) { return a.name < b.name; });
    Result<QStringList> order = deploymentOrder(acc.components);
    if (!order) {
        Error e = order.error();
        e.file = cat.root;
        return e;
    }

    // 7. Coverage: every dimension the query states is carried by an applied overlay.
    for (const QString& d : Criteria::dimensions()) {
        const QString want = query.get(d);
        if (want.isEmpty())
            continue;
        bool carried = false;
        for (const QString& name : std::as_const(applied))
            if (cat.overlay(name)->spec.criteria.get(d) == want)
                carried = true;
        if (!carried)
            return makeError(QStringLiteral("no overlay covers %1=%2 (applied: %3)")
                                 .arg(d, want, applied.join(QStringLiteral(", "))),
                             cat.root, 0, QStringLiteral("criteria.%1").arg(d));
    }

    r.apiVersion = resultApiVersion(cat, r.selectedProfile.has_value());
    r.version = opt.builderVersion;
    r.appliedOverlays = applied;
    r.criteria = query;
    r.constraints = std::move(acc.constraints);
    r.componentRefs = std::move(acc.components);
    r.deploymentOrder = *order;
    r.validation = std::move(acc.validation);
    return r;
}

Criteria leafCriteria(const Catalog& cat, const QString& leaf) {
    const Overlay* o = cat.overlay(leaf);
    return o ? o->spec.criteria : Criteria();
}

std::vector<LeafResolution> resolveAllLeaves(const Catalog& cat, const ResolveOptions& opt,
                                             const std::function<void(int, int)>& progress,
                                             const std::atomic_bool* cancel) {
    std::vector<LeafResolution> out;
    const QStringList leaves = cat.leafNames();
    int done = 0;
    for (const QString& leaf : leaves) {
        if (cancel && cancel->load())
            break;
        LeafResolution lr;
        lr.leaf = leaf;
        lr.criteria = leafCriteria(cat, leaf);
        Result<RecipeResult> r = resolve(cat, lr.criteria, opt);
        if (r)
            lr.result = std::move(*r);
        else
            lr.error = r.error();
        out.push_back(std::move(lr));
        if (progress)
            progress(++done, static_cast<int>(leaves.size()));
    }
    return out;
}

const ComponentRef* RecipeResult::component(const QString& name) const {
    for (const ComponentRef& c : componentRefs)
        if (c.name == name)
            return &c;
    return nullptr;
}

QString RecipeResult::recipeName() const {
    QStringList parts;
    for (const QString& d : {QStringLiteral("accelerator"), QStringLiteral("service"), QStringLiteral("os"),
                             QStringLiteral("intent"), QStringLiteral("platform")}) {
        const QString v = criteria.get(d);
        if (!v.isEmpty() && v != QLatin1String("any"))
            parts << v;
    }
    if (parts.isEmpty())
        parts << QStringLiteral("recipe");
    if (selectedProfile)
        parts << selectedProfile->name << selectedProfile->value;
    return parts.join(QLatin1Char('-')).toLower();
}

// ---- serialization -------------------------------------------------------------------------------

namespace {

Node strNode(const QString& s) {
    return Node::str(s.toStdString());
}

Node strList(const QStringList& l) {
    Node n = Node::seq();
    for (const QString& s : l)
        n.items.push_back(strNode(s));
    return n;
}

void putStr(Node& m, const char* key, const QString& v) {
    if (!v.isEmpty())
        m.set(key, strNode(v));
}

Node constraintNode(const Constraint& c) {
    Node m = Node::map();
    m.set("name", strNode(c.name));
    m.set("value", strNode(c.value));
    putStr(m, "severity", c.severity);
    putStr(m, "remediation", c.remediation);
    putStr(m, "unit", c.unit);
    return m;
}

Node constraintsNode(const std::vector<Constraint>& cs) {
    Node n = Node::seq();
    for (const Constraint& c : cs)
        n.items.push_back(constraintNode(c));
    return n;
}

Node componentNode(const ComponentRef& c) {
    Node m = Node::map();
    m.set("name", strNode(c.name));
    putStr(m, "namespace", c.namespace_);
    putStr(m, "chart", c.chart);
    putStr(m, "type", c.type);
    putStr(m, "source", c.source);
    putStr(m, "version", c.version);
    putStr(m, "tag", c.tag);
    putStr(m, "valuesFile", c.valuesFile);
    if (c.overrides.isMap() && !c.overrides.entries.empty())
        m.set("overrides", c.overrides);
    if (!c.patches.isNull())
        m.set("patches", c.patches);
    if (!c.dependencyRefs.isEmpty())
        m.set("dependencyRefs", strList(c.dependencyRefs));
    if (!c.manifestFiles.isEmpty())
        m.set("manifestFiles", strList(c.manifestFiles));
    if (!c.preManifestFiles.isEmpty())
        m.set("preManifestFiles", strList(c.preManifestFiles));
    putStr(m, "path", c.path);
    if (c.cleanup)
        m.set("cleanup", Node::plain("true"));
    if (c.expectedResources.isSeq() && !c.expectedResources.items.empty())
        m.set("expectedResources", c.expectedResources);
    putStr(m, "healthCheckAsserts", c.healthCheckAsserts);
    if (c.healthCheckSkip)
        m.set("healthCheckSkip", Node::plain("true"));
    return m;
}

Node phaseNode(const ValidationPhase& p) {
    Node m = Node::map();
    putStr(m, "timeout", p.timeout);
    if (p.constraints && !p.constraints->empty())
        m.set("constraints", constraintsNode(*p.constraints));
    if (p.checks && !p.checks->isEmpty())
        m.set("checks", strList(*p.checks));
    if (!p.nodeSelection.isNull())
        m.set("nodeSelection", p.nodeSelection);
    putStr(m, "infrastructure", p.infrastructure);
    return m;
}

} // namespace

Node toNode(const RecipeResult& r) {
    Node doc = Node::map();
    doc.set("kind", strNode(r.kind));
    doc.set("apiVersion", strNode(r.apiVersion));
    Node meta = Node::map();
    meta.set("version", strNode(r.version));
    meta.set("appliedOverlays", strList(r.appliedOverlays));
    if (r.selectedProfile) {
        Node sp = Node::map();
        sp.set("name", strNode(r.selectedProfile->name));
        sp.set("value", strNode(r.selectedProfile->value));
        putStr(sp, "advertiser", r.selectedProfile->advertiser);
        if (r.selectedProfile->ownedPaths.isMap() && !r.selectedProfile->ownedPaths.entries.empty())
            sp.set("ownedPaths", r.selectedProfile->ownedPaths);
        meta.set("selectedProfile", sp);
    }
    doc.set("metadata", meta);
    Node crit = Node::map();
    for (const QString& d : Criteria::dimensions())
        putStr(crit, d.toLatin1().constData(), r.criteria.get(d));
    doc.set("criteria", crit);
    if (!r.constraints.empty())
        doc.set("constraints", constraintsNode(r.constraints));
    Node comps = Node::seq();
    for (const ComponentRef& c : r.componentRefs)
        comps.items.push_back(componentNode(c));
    doc.set("componentRefs", comps);
    doc.set("deploymentOrder", strList(r.deploymentOrder));
    if (r.validation && !r.validation->isEmpty()) {
        Node v = Node::map();
        for (const QString& name : Validation::phaseNames())
            if (const auto& p = r.validation->phase(name))
                v.set(name.toLatin1().constData(), phaseNode(*p));
        doc.set("validation", v);
    }
    return doc;
}

QJsonValue toJson(const RecipeResult& r) {
    return yaml::toJson(toNode(r));
}

} // namespace pb::catalog
