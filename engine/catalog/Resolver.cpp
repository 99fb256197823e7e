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

bool nonEmpty(const Node& n) {
    return !n.isNull() && (n.isScalar() || n.size() > 0);
}

// Deep merge of Helm-style values: mappings merge key by key; scalars, null and lists replace.
void deepMerge(Node& into, const Node& from) {
    for (const yaml::MapEntry& e : from.entries) {
        Node* existing = into.get(e.key.scalar);
        if (e.value.isMap() && existing && existing->isMap())
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
    if (from.overrides.isMap() && !from.overrides.entries.empty()) {
        if (!into.overrides.isMap())
            into.overrides = Node::map();
        deepMerge(into.overrides, from.overrides);
    }
    addUnique(into.dependencyRefs, from.dependencyRefs);
    addUnique(into.manifestFiles, from.manifestFiles);
    addUnique(into.preManifestFiles, from.preManifestFiles);
    if (nonEmpty(from.patches))
        into.patches = from.patches;
    if (nonEmpty(from.expectedResources))
        into.expectedResources = from.expectedResources;
    into.cleanup = into.cleanup || from.cleanup;
    into.healthCheckSkip = into.healthCheckSkip || from.healthCheckSkip;
}

void mergeConstraints(std::vector<Constraint>& into, const std::vector<Constraint>& from) {
    for (const Constraint& c : from) {
        auto it =
            std::find_if(into.begin(), into.end(), [&](const Constraint& x) { return x.name == c.name; });
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
        if (from.checks->isEmpty()) {
            into.checks = QStringList(); // [] clears
        } else {
            QStringList merged;
            if (into.checks)
                addUnique(merged, *into.checks);
            addUnique(merged, *from.checks);
            into.checks = merged;
        }
    }
    if (from.constraints) {
        if (from.constraints->empty()) {
            into.constraints = std::vector<Constraint>();
        } else {
            if (!into.constraints)
                into.constraints = std::vector<Constraint>();
            mergeConstraints(*into.constraints, *from.constraints);
        }
    }
    if (!from.nodeSelection.isNull())
        into.nodeSelection = from.nodeSelection;
}

void mergeValidation(std::optional<Validation>& into, const std::optional<Validation>& from, Era era) {
    if (!from)
        return;
    if (!into) {
        into = from;
        return;
    }
    for (const QString& name : Validation::phaseNames()) {
        const std::optional<ValidationPhase>& f = from->phase(name);
        if (!f)
            continue;
        std::optional<ValidationPhase>& t = into->phase(name);
        if (!t || era == Era::Legacy)
            t = f; // v0.11-v0.15: a later layer's phase replaces the whole phase
        else
            mergePhase(*t, *f);
    }
}

struct Accumulator {
    Era era = Era::Current;
    std::vector<Constraint> constraints;
    std::vector<ComponentRef> components;
    std::optional<Validation> validation;

    ComponentRef* find(const QString& name) {
        for (ComponentRef& c : components)
            if (c.name == name)
                return &c;
        return nullptr;
    }

    void merge(const std::vector<Constraint>& cs, const std::vector<ComponentRef>& refs) {
        mergeConstraints(constraints, cs);
        for (const ComponentRef& c : refs) {
            if (ComponentRef* existing = find(c.name))
                mergeComponent(*existing, c);
            else
                components.push_back(c);
        }
        sort();
    }

    void merge(const OverlaySpec& s) {
        merge(s.constraints, s.componentRefs);
        mergeValidation(validation, s.validation, era);
    }

    void sort() {
        std::stable_sort(constraints.begin(), constraints.end(),
                         [](const Constraint& a, const Constraint& b) { return a.name < b.name; });
        std::stable_sort(components.begin(), components.end(),
                         [](const ComponentRef& a, const ComponentRef& b) { return a.name < b.name; });
    }
};

QString parentOf(const Overlay& o) {
    if (o.name == QLatin1String("base"))
        return {};
    return o.spec.base.isEmpty() ? QStringLiteral("base") : o.spec.base;
}

// base -> ... -> overlay.
Result<QStringList> chainOf(const Catalog& cat, const QString& name) {
    QStringList chain;
    QString cur = name;
    while (!cur.isEmpty() && cur != QLatin1String("base")) {
        if (chain.contains(cur))
            return makeError(
                QStringLiteral("circular inheritance: overlay '%1' references itself in its base chain")
                    .arg(cur));
        const Overlay* o = cat.overlay(cur);
        if (!o)
            return makeError(QStringLiteral("overlay '%1' not found (referenced in the base chain of '%2')")
                                 .arg(cur, name));
        chain.prepend(cur);
        cur = parentOf(*o);
    }
    chain.prepend(QStringLiteral("base"));
    return chain;
}

QString overlayFile(const Catalog& cat, const Overlay& o) {
    return cat.root.isEmpty() ? o.file : cat.root + QLatin1Char('/') + o.file;
}

// Flattened dotted paths of every leaf under `n` (lists and scalars are leaves).
void leafPaths(const Node& n, const QString& prefix, QStringList& out) {
    if (n.isMap() && !n.entries.empty()) {
        for (const yaml::MapEntry& e : n.entries)
            leafPaths(e.value, prefix.isEmpty() ? e.key.text() : prefix + QLatin1Char('.') + e.key.text(),
                      out);
        return;
    }
    if (!prefix.isEmpty())
        out << prefix;
}

struct ProfileValue {
    QString advertiser;
    std::vector<Constraint> constraints;
    std::vector<ComponentRef> componentRefs;
};

// Reads and checks a profile declaration (ADR-015) of overlay `o`.
Result<std::map<QString, ProfileValue>> readProfileValues(const Catalog& cat, const Overlay& o) {
    const Node& decl = o.spec.profile;
    const QString file = overlayFile(cat, o);
    const Node* values = decl.get("values");
    if (!values || !values->isMap() || values->entries.empty())
        return makeError(QStringLiteral("profile declares no values"), file, decl.line,
                         QStringLiteral("spec.profile.values"));
    std::map<QString, ProfileValue> out;
    for (const yaml::MapEntry& e : values->entries) {
        ProfileValue pv;
        const QString field = QStringLiteral("spec.profile.values.%1").arg(e.key.text());
        if (e.value.isMap()) {
            if (const Node* adv = e.value.get("advertiser"); adv && adv->isScalar() && !adv->isNull())
                pv.advertiser = adv->text();
            // A value has the shape of an overlay spec fragment: constraints and componentRefs.
            Node doc = Node::map();
            doc.set("kind", Node::str("RecipeMetadata"));
            doc.set("apiVersion", Node::str("aicr.run/v1alpha2"));
            Node meta = Node::map();
            meta.set("name", Node::str(o.name.toStdString()));
            doc.set("metadata", meta);
            Node spec = Node::map();
            for (const char* key : {"constraints", "componentRefs"})
                if (const Node* v = e.value.get(key))
                    spec.set(key, *v);
            doc.set("spec", spec);
            Result<Overlay> frag = parseOverlay(yaml::serialize(doc), file, false);
            if (!frag)
                return makeError(frag.error().message, file, e.value.line,
                                 field + QLatin1Char('.') + frag.error().field.mid(5));
            pv.constraints = frag->spec.constraints;
            pv.componentRefs = frag->spec.componentRefs;
            for (const ComponentRef& r : pv.componentRefs)
                if (r.overrides.get("enabled"))
                    return makeError(
                        QStringLiteral("a profile value may not set overrides.enabled of '%1'").arg(r.name),
                        file, r.line, field);
        }
        out[e.key.text()] = std::move(pv);
    }
    return out;
}

Status applyProfile(const Catalog& cat, const Overlay& declaring, const ResolveOptions& opt, Accumulator& acc,
                    SelectedProfile& selected) {
    const Node& decl = declaring.spec.profile;
    const QString file = overlayFile(cat, declaring);
    const Node* pname = decl.get("name");
    if (!pname || !pname->isScalar() || pname->scalar.empty())
        return makeError(QStringLiteral("profile declaration needs a name"), file, decl.line,
                         QStringLiteral("spec.profile.name"));
    const QString profileName = pname->text();
    for (auto it = opt.profiles.cbegin(); it != opt.profiles.cend(); ++it)
        if (it.key() != profileName)
            return makeError(
                QStringLiteral("--profile %1: this recipe's profile is '%2'").arg(it.key(), profileName),
                file, decl.line, QStringLiteral("spec.profile.name"));
    Result<std::map<QString, ProfileValue>> values = readProfileValues(cat, declaring);
    if (!values)
        return values.error();
    QString value;
    if (opt.profiles.contains(profileName))
        value = opt.profiles.value(profileName);
    else if (const Node* def = decl.get("default"); def && def->isScalar())
        value = def->text();
    if (value.isEmpty())
        return makeError(QStringLiteral("profile '%1' has no default; choose one with --profile %1=VALUE")
                             .arg(profileName),
                         file, decl.line, QStringLiteral("spec.profile.default"));
    auto chosen = values->find(value);
    if (chosen == values->end()) {
        QStringList known;
        for (const auto& [k, v] : *values)
            known << k;
        return makeError(QStringLiteral("profile '%1' has no value '%2' (known: %3)")
                             .arg(profileName, value, known.join(QStringLiteral(", "))),
                         file, decl.line, QStringLiteral("spec.profile.values"));
    }
    // ownedPaths: declaration-wide, every path any value sets, plus the component's presence.
    std::map<QString, QStringList> owned;
    for (const auto& [k, v] : *values)
        for (const ComponentRef& r : v.componentRefs) {
            QStringList& paths = owned[r.name];
            QStringList mine;
            leafPaths(r.overrides, QString(), mine);
            mine << QStringLiteral("enabled");
            addUnique(paths, mine);
        }
    for (auto& [comp, paths] : owned) {
        paths.sort();
        const ComponentRef* ref = acc.find(comp);
        if (!ref || !ref->isEnabled())
            return makeError(
                QStringLiteral("profile '%1' references component '%2', which is not enabled in the "
                               "resolved recipe")
                    .arg(profileName, comp),
                file, decl.line, QStringLiteral("spec.profile.values"));
    }
    for (const Constraint& c : chosen->second.constraints) {
        for (const Constraint& existing : acc.constraints)
            if (existing.name == c.name)
                return makeError(
                    QStringLiteral("profile constraint '%1' collides with a constraint of the overlays")
                        .arg(c.name),
                    file, decl.line, QStringLiteral("spec.profile.values.%1.constraints").arg(value));
        acc.constraints.push_back(c);
    }
    for (const ComponentRef& r : chosen->second.componentRefs) {
        ComponentRef* ref = acc.find(r.name);
        if (!ref->overrides.isMap())
            ref->overrides = Node::map();
        if (r.overrides.isMap())
            deepMerge(ref->overrides, r.overrides);
    }
    acc.sort();
    selected.name = profileName;
    selected.value = value;
    selected.advertiser = chosen->second.advertiser;
    Node ownedNode = Node::map();
    for (const auto& [comp, paths] : owned) {
        Node list = Node::seq();
        for (const QString& p : paths)
            list.items.push_back(Node::str(p.toStdString()));
        ownedNode.set(comp.toStdString(), list);
    }
    selected.ownedPaths = ownedNode;
    return {};
}

QString canonicalType(const QString& t) {
    if (t.compare(QLatin1String("helm"), Qt::CaseInsensitive) == 0)
        return QStringLiteral("Helm");
    if (t.compare(QLatin1String("kustomize"), Qt::CaseInsensitive) == 0)
        return QStringLiteral("Kustomize");
    return t;
}

Status applyRegistryDefaults(const Catalog& cat, std::vector<ComponentRef>& comps, Era era) {
    for (ComponentRef& c : comps) {
        c.type = canonicalType(c.type);
        const RegistryComponent* r = cat.component(c.name);
        if (!r)
            continue;
        if (c.type.isEmpty())
            c.type = r->defaultSource.isEmpty() ? QStringLiteral("Helm") : QStringLiteral("Kustomize");
        auto fill = [](QString& field, const QString& def) {
            if (field.isEmpty() && !def.isEmpty())
                field = def;
        };
        if (c.type == QLatin1String("Helm")) {
            fill(c.source, r->defaultRepository);
            fill(c.version, r->defaultVersion);
            fill(c.namespace_, r->defaultNamespace);
            // The recipe names the chart without its repository alias ("nvidia/gpu-operator").
            fill(c.chart, r->defaultChart.mid(r->defaultChart.lastIndexOf(QLatin1Char('/')) + 1));
        } else if (c.type == QLatin1String("Kustomize")) {
            fill(c.source, r->defaultSource);
            fill(c.tag, r->defaultTag);
            fill(c.path, r->defaultPath);
        }
        if (c.manifestFiles.isEmpty() && !r->manifestFiles.isEmpty())
            c.manifestFiles = r->manifestFiles;
        // aicr.run era: the registry's health-check assert file is embedded verbatim.
        if (era == Era::Current && !c.healthCheckSkip && c.healthCheckAsserts.isEmpty() &&
            !r->healthCheckAssertFile.isEmpty()) {
            const CatalogFile* f = cat.file(r->healthCheckAssertFile);
            if (!f)
                return makeError(QStringLiteral("health check file of component '%1' is missing").arg(c.name),
                                 cat.root + QStringLiteral("/registry.yaml"), r->node.line,
                                 QStringLiteral("healthCheck.assertFile"));
            c.healthCheckAsserts = QString::fromUtf8(f->bytes);
        }
    }
    return {};
}

// Every dependency names a declared component, and the graph over all components is acyclic.
Status validateDependencies(const std::vector<ComponentRef>& comps) {
    std::map<QString, const ComponentRef*> byName;
    for (const ComponentRef& c : comps)
        byName[c.name] = &c;
    for (const ComponentRef& c : comps)
        for (const QString& dep : c.dependencyRefs)
            if (!byName.count(dep))
                return makeError(
                    QStringLiteral("component '%1' depends on '%2', which is not part of the recipe")
                        .arg(c.name, dep),
                    {}, 0, QStringLiteral("componentRefs.%1.dependencyRefs").arg(c.name));
    std::map<QString, int> state; // 0 new, 1 on stack, 2 done
    QStringList stack;
    std::function<Status(const QString&)> visit = [&](const QString& n) -> Status {
        state[n] = 1;
        stack << n;
        for (const QString& dep : byName[n]->dependencyRefs) {
            if (state[dep] == 1) {
                QStringList cycle = stack.mid(stack.indexOf(dep));
                cycle << dep;
                return makeError(QStringLiteral("dependency cycle among components: %1")
                                     .arg(cycle.join(QStringLiteral(" -> "))),
                                 {}, 0, QStringLiteral("componentRefs.%1.dependencyRefs").arg(n));
            }
            if (state[dep] == 0)
                if (Status s = visit(dep); !s)
                    return s;
        }
        stack.removeLast();
        state[n] = 2;
        return {};
    };
    for (const ComponentRef& c : comps)
        if (state[c.name] == 0)
            if (Status s = visit(c.name); !s)
                return s;
    return {};
}

// Kahn's algorithm, always taking the smallest ready name, so the order is deterministic.
// aicr.run era: only enabled components are deployed and an edge to a disabled one is satisfied.
Result<QStringList> deploymentOrder(const std::vector<ComponentRef>& comps, Era era) {
    std::map<QString, const ComponentRef*> nodes;
    QSet<QString> declared;
    for (const ComponentRef& c : comps) {
        declared.insert(c.name);
        if (era == Era::Legacy || c.isEnabled())
            nodes[c.name] = &c;
    }
    std::map<QString, int> indegree;
    std::map<QString, QStringList> dependents;
    for (const auto& [name, c] : nodes) {
        indegree[name];
        for (const QString& dep : c->dependencyRefs) {
            if (declared.contains(dep) && !nodes.count(dep))
                continue;
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
    if (order.size() != static_cast<qsizetype>(nodes.size())) {
        QStringList stuck;
        for (const auto& [name, deg] : indegree)
            if (deg > 0)
                stuck << name;
        return makeError(QStringLiteral("cannot order the deployment: dependency cycle among %1")
                             .arg(stuck.join(QStringLiteral(", "))),
                         {}, 0, QStringLiteral("componentRefs.dependencyRefs"));
    }
    return order;
}

// aicr.run era Slurm recipes: accounting defaults to disabled, recorded as typed configuration,
// and the MariaDB pieces it would need are switched off.
Status applySlurmAccounting(RecipeResult& r) {
    static const char* const needed[] = {"slinky-slurm", "mariadb-operator-crds", "mariadb-operator",
                                         "slurm-accounting-mariadb"};
    for (const char* n : needed)
        if (!r.component(QString::fromLatin1(n)))
            return {}; // catalogs before the accounting model: nothing to configure
    Node mode = Node::map();
    mode.set("mode", Node::str("disabled"));
    Node accounting = Node::map();
    accounting.set("accounting", mode);
    Node slurm = Node::map();
    slurm.set("slurm", accounting);
    r.configuration = slurm;
    for (ComponentRef& c : r.componentRefs) {
        Node patch = Node::map();
        if (c.name == QLatin1String("slinky-slurm")) {
            Node acc = Node::map();
            acc.set("enabled", Node::plain("false"));
            patch.set("accounting", acc);
        } else if (c.name == QLatin1String("mariadb-operator-crds") ||
                   c.name == QLatin1String("mariadb-operator") ||
                   c.name == QLatin1String("slurm-accounting-mariadb")) {
            patch.set("install", Node::plain("false"));
        } else {
            continue;
        }
        if (!c.overrides.isMap())
            c.overrides = Node::map();
        deepMerge(c.overrides, patch);
    }
    return {};
}

QString resultApiVersion(Era era, bool alphaCatalog, bool profiled) {
    if (era == Era::Legacy)
        return QStringLiteral("aicr.nvidia.com/v1alpha1");
    if (profiled)
        return alphaCatalog ? QStringLiteral("aicr.run/v1alpha3") : QStringLiteral("aicr.run/v1beta2");
    return alphaCatalog ? QStringLiteral("aicr.run/v1alpha2") : QStringLiteral("aicr.run/v1");
}

bool isWildValue(const QString& v) {
    return v.isEmpty() || v == QLatin1String("any");
}

} // namespace

Era eraOf(const Catalog& cat) {
    const Overlay* base = cat.overlay(QStringLiteral("base"));
    return base && base->apiVersion.track == ApiTrack::Legacy ? Era::Legacy : Era::Current;
}

Result<Criteria> parseUserCriteria(const Catalog& cat, const QMap<QString, QString>& values) {
    static const QMap<QString, QStringList> builtin = {
        {QStringLiteral("service"), {"eks", "gke", "aks", "oke", "kind", "lke", "bcm"}},
        {QStringLiteral("accelerator"),
         {"h100", "h200", "gb200", "gb300", "b200", "a100", "l40", "rtx-pro-6000"}},
        {QStringLiteral("intent"), {"training", "inference"}},
        {QStringLiteral("os"), {"ubuntu", "rhel", "cos", "amazonlinux", "talos"}},
        {QStringLiteral("platform"), {"dynamo", "kubeflow", "nim", "runai", "slurm"}},
    };
    Criteria c;
    for (const QString& d : Criteria::dimensions()) {
        QString v = values.value(d).trimmed().toLower();
        if (v.isEmpty())
            v = QStringLiteral("any");
        if (d == QLatin1String("service") && (v == QLatin1String("self-managed") ||
                                              v == QLatin1String("self") || v == QLatin1String("vanilla")))
            v = QStringLiteral("any");
        if (d == QLatin1String("os") && (v == QLatin1String("al2") || v == QLatin1String("al2023")))
            v = QStringLiteral("amazonlinux");
        if (v != QLatin1String("any") && !builtin.value(d).contains(v)) {
            QStringList known = builtin.value(d);
            for (const Overlay& o : cat.overlays) {
                const QString ov = o.spec.criteria.get(d);
                if (!isWildValue(ov) && !known.contains(ov))
                    known << ov;
            }
            if (!known.contains(v)) {
                known.sort();
                return makeError(QStringLiteral("invalid %1 '%2' (valid: any, %3)")
                                     .arg(d, v, known.join(QStringLiteral(", "))),
                                 {}, 0, QStringLiteral("criteria.%1").arg(d));
            }
        }
        c.set(d, v);
    }
    return c;
}

namespace {

// Steps 1-3: the overlays whose criteria match the query, minus ancestors of other matches, least
// specific first (ties by name), each as its chain from base.
Result<std::vector<QStringList>> candidateChains(const Catalog& cat, const Criteria& query) {
    QStringList matches;
    for (const Overlay& o : cat.overlays)
        if (o.name != QLatin1String("base") && o.spec.hasCriteria && o.spec.criteria.matches(query))
            matches << o.name;
    QSet<QString> ancestors;
    for (const QString& m : std::as_const(matches)) {
        QString b = parentOf(*cat.overlay(m));
        QSet<QString> seen;
        while (!b.isEmpty() && b != QLatin1String("base") && !seen.contains(b)) {
            seen.insert(b);
            ancestors.insert(b);
            const Overlay* o = cat.overlay(b);
            if (!o)
                break;
            b = parentOf(*o);
        }
    }
    QStringList candidates;
    for (const QString& m : std::as_const(matches))
        if (!ancestors.contains(m))
            candidates << m;
    // 3. Least specific first; ties by name.
    std::stable_sort(candidates.begin(), candidates.end(), [&](const QString& a, const QString& b) {
        const int sa = cat.overlay(a)->spec.criteria.specificity();
        const int sb = cat.overlay(b)->spec.criteria.specificity();
        return sa != sb ? sa < sb : a < b;
    });
    std::vector<QStringList> chains;
    for (const QString& c : std::as_const(candidates)) {
        Result<QStringList> chain = chainOf(cat, c);
        if (!chain) {
            Error e = chain.error();
            e.file = overlayFile(cat, *cat.overlay(c));
            e.field = QStringLiteral("spec.base");
            return e;
        }
        chains.push_back(*chain);
    }
    return chains;
}

// The one profile declaration of the composition, if any (null when none).
Result<const Overlay*> profileDeclaration(const Catalog& cat, const Overlay* base,
                                          const std::vector<QStringList>& chains, const ResolveOptions& opt) {
    const Overlay* declaring = base->spec.profile.isMap() ? base : nullptr;
    for (const QStringList& chain : chains)
        for (const QString& name : chain) {
            const Overlay* o = cat.overlay(name);
            if (o->spec.profile.isMap() && o != declaring) {
                if (declaring)
                    return makeError(
                        QStringLiteral("the resolved recipe has more than one profile declaration "
                                       "(%1 and %2)")
                            .arg(declaring->name, o->name),
                        overlayFile(cat, *o), o->spec.profile.line, QStringLiteral("spec.profile"));
                declaring = o;
            }
        }
    if (!declaring && !opt.profiles.isEmpty())
        return makeError(QStringLiteral("--profile %1: no overlay of this recipe declares a profile")
                             .arg(opt.profiles.firstKey()));
    return declaring;
}

// A mixin may add namespace, manifestFiles or preManifestFiles to a component already in the recipe.
Status checkMixinComponent(const ComponentRef& c, const QString& file) {
    const std::pair<const char*, bool> set[] = {{"chart", !c.chart.isEmpty()},
                                                {"type", !c.type.isEmpty()},
                                                {"source", !c.source.isEmpty()},
                                                {"version", !c.version.isEmpty()},
                                                {"tag", !c.tag.isEmpty()},
                                                {"path", !c.path.isEmpty()},
                                                {"valuesFile", !c.valuesFile.isEmpty()},
                                                {"overrides", nonEmpty(c.overrides)},
                                                {"patches", nonEmpty(c.patches)},
                                                {"dependencyRefs", !c.dependencyRefs.isEmpty()},
                                                {"cleanup", c.cleanup},
                                                {"expectedResources", nonEmpty(c.expectedResources)},
                                                {"healthCheckAsserts", !c.healthCheckAsserts.isEmpty()},
                                                {"healthCheckSkip", c.healthCheckSkip}};
    for (const auto& [field, isSet] : set)
        if (isSet)
            return makeError(QStringLiteral("mixin component '%1' is already in the recipe; a mixin may only "
                                            "add namespace, manifestFiles or preManifestFiles to it, not %2")
                                 .arg(c.name, QLatin1String(field)),
                             file, c.line, QStringLiteral("spec.componentRefs"));
    return {};
}

// Step 5: the mixins after the chain; none may redefine a constraint or a component's fields.
Status applyMixins(const Catalog& cat, const QStringList& mixins, Accumulator& acc) {
    QSet<QString> existingConstraints, existingComponents;
    for (const Constraint& c : acc.constraints)
        existingConstraints.insert(c.name);
    for (const ComponentRef& c : acc.components)
        existingComponents.insert(c.name);
    for (const QString& m : std::as_const(mixins)) {
        const Overlay* mix = cat.mixin(m);
        if (!mix)
            return makeError(QStringLiteral("mixin '%1' does not exist").arg(m), cat.root, 0,
                             QStringLiteral("spec.mixins"));
        const QString file = overlayFile(cat, *mix);
        for (const Constraint& c : mix->spec.constraints)
            if (existingConstraints.contains(c.name))
                return makeError(
                    QStringLiteral("mixin constraint '%1' conflicts with the overlays or another mixin")
                        .arg(c.name),
                    file, 0, QStringLiteral("spec.constraints"));
        for (const ComponentRef& c : mix->spec.componentRefs) {
            if (!existingComponents.contains(c.name))
                continue;
            if (Status st = checkMixinComponent(c, file); !st)
                return st;
        }
        acc.merge(mix->spec.constraints, mix->spec.componentRefs);
        for (const Constraint& c : mix->spec.constraints)
            existingConstraints.insert(c.name);
        for (const ComponentRef& c : mix->spec.componentRefs)
            existingComponents.insert(c.name);
    }
    return {};
}

// Step 6: every dimension the query states is carried by an applied overlay.
Status checkCoverage(const Catalog& cat, const Criteria& query, const QStringList& applied) {
    for (const QString& d : Criteria::dimensions()) {
        const QString want = query.get(d);
        if (isWildValue(want))
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
    return {};
}

} // namespace

Result<RecipeResult> resolve(const Catalog& cat, const Criteria& query, const ResolveOptions& opt) {
    const Overlay* base = cat.overlay(QStringLiteral("base"));
    if (!base)
        return makeError(QStringLiteral("the catalog has no base overlay"), cat.root);
    const Era era = eraOf(cat);

    // 1-3. Candidates, each as its chain.
    Result<std::vector<QStringList>> candidates = candidateChains(cat, query);
    if (!candidates)
        return candidates.error();
    const std::vector<QStringList>& chains = *candidates;

    Result<const Overlay*> declared = profileDeclaration(cat, base, chains, opt);
    if (!declared)
        return declared.error();
    const Overlay* declaring = *declared;

    // 4. Seed with base, then apply each candidate's chain root -> leaf, each overlay once.
    Accumulator acc;
    acc.era = era;
    acc.constraints = base->spec.constraints;
    acc.components = base->spec.componentRefs;
    acc.validation = base->spec.validation;
    QStringList applied{QStringLiteral("base")};
    QStringList mixins = base->spec.mixins;
    for (const QStringList& chain : chains) {
        for (const QString& name : chain.mid(1)) {
            if (applied.contains(name))
                continue;
            const Overlay* o = cat.overlay(name);
            acc.merge(o->spec);
            addUnique(mixins, o->spec.mixins);
            applied << name;
        }
    }

    // 5. Mixins after the chain.
    if (Status st = applyMixins(cat, mixins, acc); !st)
        return st.error();

    // 6. Coverage.
    if (Status st = checkCoverage(cat, query, applied); !st)
        return st.error();

    RecipeResult r;
    // 7. Profile value, then dependency checks and order, registry defaults.
    if (declaring) {
        SelectedProfile sp;
        if (Status s = applyProfile(cat, *declaring, opt, acc, sp); !s)
            return s.error();
        r.selectedProfile = sp;
    }
    if (Status s = validateDependencies(acc.components); !s) {
        Error e = s.error();
        e.file = cat.root;
        return e;
    }
    for (const ComponentRef& c : acc.components)
        if (nonEmpty(c.patches) && c.isEnabled())
            return makeError(
                QStringLiteral("component '%1' sets patches, which AICR does not implement").arg(c.name),
                cat.root, 0, QStringLiteral("componentRefs.%1.patches").arg(c.name));
    if (Status s = applyRegistryDefaults(cat, acc.components, era); !s)
        return s.error();

    const ApiVersion& baseApi = base->apiVersion;
    const bool alphaCatalog = baseApi.maturity.contains(QLatin1String("alpha"));
    r.version = opt.builderVersion;
    r.appliedOverlays = applied;
    r.criteria = query;
    r.constraints = std::move(acc.constraints);
    r.componentRefs = std::move(acc.components);
    r.validation = std::move(acc.validation);
    bool configured = false;
    if (era == Era::Current && query.platform == QLatin1String("slurm")) {
        if (Status s = applySlurmAccounting(r); !s)
            return s.error();
        configured = !r.configuration.isNull();
    }
    Result<QStringList> order = deploymentOrder(r.componentRefs, era);
    if (!order) {
        Error e = order.error();
        e.file = cat.root;
        return e;
    }
    r.deploymentOrder = *order;
    r.apiVersion = resultApiVersion(era, alphaCatalog, r.selectedProfile.has_value() || configured);
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
    m.set("type", strNode(c.type)); // AICR emits type and source even when empty
    m.set("source", strNode(c.source));
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
    if (c.expectedResources.isSeq() && !c.expectedResources.items.empty()) {
        // Go type: [{kind, name, namespace,omitempty}] of strings.
        Node list = Node::seq();
        for (const Node& item : c.expectedResources.items) {
            Node r = Node::map();
            for (const char* key : {"kind", "name", "namespace"}) {
                const Node* v = item.isMap() ? item.get(key) : nullptr;
                const std::string text = v && v->isScalar() && !v->isNull() ? v->scalar : std::string();
                if (!text.empty() || std::string_view(key) != "namespace")
                    r.set(key, Node::str(text));
            }
            list.items.push_back(r);
        }
        m.set("expectedResources", list);
    }
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
    if (!p.nodeSelection.isNull()) {
        // Go type: {selector map[string]string, maxNodes int, excludeNodes []string}, omitempty each.
        Node ns = Node::map();
        if (const Node* sel = p.nodeSelection.get("selector"); sel && sel->isMap() && !sel->entries.empty()) {
            Node s = Node::map();
            for (const yaml::MapEntry& e : sel->entries)
                s.set(e.key.scalar, Node::str(e.value.isNull() ? std::string() : e.value.scalar));
            ns.set("selector", s);
        }
        if (const Node* mx = p.nodeSelection.get("maxNodes");
            mx && mx->isScalar() && mx->resolve() == yaml::Resolved::Int && mx->scalar != "0")
            ns.set("maxNodes", Node::plain(mx->scalar));
        if (const Node* ex = p.nodeSelection.get("excludeNodes"); ex && ex->isSeq() && !ex->items.empty()) {
            Node l = Node::seq();
            for (const Node& i : ex->items)
                l.items.push_back(Node::str(i.scalar));
            ns.set("excludeNodes", l);
        }
        m.set("nodeSelection", ns);
    }
    putStr(m, "infrastructure", p.infrastructure);
    return m;
}

} // namespace

Node toNode(const RecipeResult& r) {
    Node doc = Node::map();
    doc.set("kind", strNode(r.kind));
    doc.set("apiVersion", strNode(r.apiVersion));
    Node meta = Node::map();
    putStr(meta, "version", r.version);
    if (!r.appliedOverlays.isEmpty())
        meta.set("appliedOverlays", strList(r.appliedOverlays));
    if (r.selectedProfile) {
        Node sp = Node::map();
        sp.set("name", strNode(r.selectedProfile->name));
        sp.set("value", strNode(r.selectedProfile->value));
        putStr(sp, "advertiser", r.selectedProfile->advertiser);
        sp.set("ownedPaths",
               r.selectedProfile->ownedPaths.isMap() ? r.selectedProfile->ownedPaths : Node::map());
        meta.set("selectedProfile", sp);
    }
    doc.set("metadata", meta);
    Node crit = Node::map();
    for (const char* d : {"service", "accelerator", "intent", "os", "platform"}) // AICR's field order
        putStr(crit, d, r.criteria.get(QLatin1String(d)));
    if (r.criteria.nodes != 0)
        crit.set("nodes", Node::plain(std::to_string(r.criteria.nodes)));
    doc.set("criteria", crit);
    if (r.configuration.isMap())
        doc.set("configuration", r.configuration);
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
