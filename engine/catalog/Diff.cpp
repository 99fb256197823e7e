#include "catalog/Diff.h"

#include "catalog/Digest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <map>
#include <functional>
#include <set>

namespace pb::catalog {

QString changeName(Change c) {
    switch (c) {
    case Change::Unchanged:
        return QStringLiteral("unchanged");
    case Change::Added:
        return QStringLiteral("added");
    case Change::Removed:
        return QStringLiteral("removed");
    case Change::Changed:
        return QStringLiteral("changed");
    }
    return {};
}

int RecipeDiff::count(Change c) const {
    return static_cast<int>(std::count_if(components.begin(), components.end(),
                                          [c](const ComponentDiff& d) { return d.change == c; }));
}

int CatalogDiff::leafCount(Change c) const {
    return static_cast<int>(
        std::count_if(leaves.begin(), leaves.end(), [c](const NamedChange& d) { return d.change == c; }));
}

namespace {

QString compactJson(const yaml::Node& n) {
    const QJsonValue v = yaml::toJson(n);
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isNull())
        return QStringLiteral("null");
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 17);
    return v.toString();
}

// Overrides flattened to dotted leaf paths (lists are leaves), each with its value as text.
void flatten(const yaml::Node& n, const QString& prefix, std::map<QString, QString>& out) {
    if (n.isMap() && !n.entries.empty()) {
        for (const yaml::MapEntry& e : n.entries)
            flatten(e.value, prefix.isEmpty() ? e.key.text() : prefix + QLatin1Char('.') + e.key.text(), out);
        return;
    }
    if (!prefix.isEmpty())
        out[prefix] = compactJson(n);
}

void compareText(std::vector<FieldChange>& out, const QString& field, const QString& a, const QString& b) {
    if (a != b)
        out.push_back(FieldChange{field, a, b});
}

QString sortedJoin(QStringList l) {
    l.sort();
    return l.join(QStringLiteral(", "));
}

QString shortHash(const QString& text) {
    return text.isEmpty() ? QString() : QStringLiteral("sha256:") + sha256Hex(text.toUtf8()).left(12);
}

std::vector<FieldChange> componentFields(const ComponentRef& a, const ComponentRef& b) {
    std::vector<FieldChange> f;
    compareText(f, QStringLiteral("chart"), a.chart, b.chart);
    compareText(f, QStringLiteral("version"), a.version, b.version);
    compareText(f, QStringLiteral("tag"), a.tag, b.tag);
    compareText(f, QStringLiteral("source"), a.source, b.source);
    compareText(f, QStringLiteral("namespace"), a.namespace_, b.namespace_);
    compareText(f, QStringLiteral("type"), a.type, b.type);
    compareText(f, QStringLiteral("path"), a.path, b.path);
    compareText(f, QStringLiteral("valuesFile"), a.valuesFile, b.valuesFile);
    compareText(f, QStringLiteral("enabled"), a.isEnabled() ? QStringLiteral("true") : QStringLiteral("false"),
                b.isEnabled() ? QStringLiteral("true") : QStringLiteral("false"));
    compareText(f, QStringLiteral("dependencyRefs"), sortedJoin(a.dependencyRefs), sortedJoin(b.dependencyRefs));
    compareText(f, QStringLiteral("manifestFiles"), sortedJoin(a.manifestFiles), sortedJoin(b.manifestFiles));
    compareText(f, QStringLiteral("preManifestFiles"), sortedJoin(a.preManifestFiles), sortedJoin(b.preManifestFiles));
    std::map<QString, QString> oa, ob;
    flatten(a.overrides, QString(), oa);
    flatten(b.overrides, QString(), ob);
    std::set<QString> paths;
    for (const auto& [k, v] : oa)
        paths.insert(k);
    for (const auto& [k, v] : ob)
        paths.insert(k);
    for (const QString& p : paths) {
        const auto ia = oa.find(p), ib = ob.find(p);
        compareText(f, QStringLiteral("overrides.") + p, ia == oa.end() ? QString() : ia->second,
                    ib == ob.end() ? QString() : ib->second);
    }
    compareText(f, QStringLiteral("expectedResources"), a.expectedResources.isNull() ? QString() : compactJson(a.expectedResources),
                b.expectedResources.isNull() ? QString() : compactJson(b.expectedResources));
    compareText(f, QStringLiteral("healthCheckAsserts"), shortHash(a.healthCheckAsserts), shortHash(b.healthCheckAsserts));
    return f;
}

template <typename T, typename Key>
std::vector<NamedChange> diffNamed(const std::vector<T>& a, const std::vector<T>& b, Key key,
                                   const std::function<bool(const T&, const T&)>& same,
                                   const std::function<QString(const T&)>& detail) {
    std::map<QString, const T*> ma, mb;
    for (const T& x : a)
        ma[key(x)] = &x;
    for (const T& x : b)
        mb[key(x)] = &x;
    std::set<QString> names;
    for (const auto& [k, v] : ma)
        names.insert(k);
    for (const auto& [k, v] : mb)
        names.insert(k);
    std::vector<NamedChange> out;
    for (const QString& n : names) {
        NamedChange c;
        c.name = n;
        const T* x = ma.count(n) ? ma[n] : nullptr;
        const T* y = mb.count(n) ? mb[n] : nullptr;
        if (x)
            c.from = detail(*x);
        if (y)
            c.to = detail(*y);
        c.change = !x ? Change::Added : !y ? Change::Removed : same(*x, *y) ? Change::Unchanged : Change::Changed;
        out.push_back(c);
    }
    return out;
}

void diffConstraintList(std::vector<ConstraintDiff>& out, const QString& phase, const std::vector<Constraint>& a,
                        const std::vector<Constraint>& b) {
    std::map<QString, QString> ma, mb;
    for (const Constraint& c : a)
        ma[c.name] = c.value;
    for (const Constraint& c : b)
        mb[c.name] = c.value;
    std::set<QString> names;
    for (const auto& [k, v] : ma)
        names.insert(k);
    for (const auto& [k, v] : mb)
        names.insert(k);
    for (const QString& n : names) {
        ConstraintDiff d;
        d.name = n;
        d.phase = phase;
        const bool inA = ma.count(n), inB = mb.count(n);
        d.from = inA ? ma[n] : QString();
        d.to = inB ? mb[n] : QString();
        d.change = !inA ? Change::Added : !inB ? Change::Removed : d.from == d.to ? Change::Unchanged : Change::Changed;
        out.push_back(d);
    }
}

QString criteriaText(const Criteria& c) {
    return c.summary();
}

} // namespace

namespace {

std::vector<ComponentDiff> componentDiffs(const RecipeResult& from, const RecipeResult& to) {
    std::vector<ComponentDiff> out;
    std::set<QString> names;
    for (const ComponentRef& c : from.componentRefs)
        names.insert(c.name);
    for (const ComponentRef& c : to.componentRefs)
        names.insert(c.name);
    for (const QString& n : names) {
        const ComponentRef* a = from.component(n);
        const ComponentRef* b = to.component(n);
        ComponentDiff c;
        c.name = n;
        c.fromOrder = static_cast<int>(from.deploymentOrder.indexOf(n));
        c.toOrder = static_cast<int>(to.deploymentOrder.indexOf(n));
        if (a)
            c.fromVersion = a->version.isEmpty() ? a->tag : a->version;
        if (b)
            c.toVersion = b->version.isEmpty() ? b->tag : b->version;
        if (!a)
            c.change = Change::Added;
        else if (!b)
            c.change = Change::Removed;
        else {
            c.fields = componentFields(*a, *b);
            c.change = c.fields.empty() ? Change::Unchanged : Change::Changed;
        }
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace

RecipeDiff diffRecipes(const RecipeResult& from, const RecipeResult& to, const QString& fromLabel,
                       const QString& toLabel) {
    RecipeDiff d;
    d.fromLabel = fromLabel;
    d.toLabel = toLabel;
    d.fromCriteria = from.criteria;
    d.toCriteria = to.criteria;
    d.fromDigest = recipeDigest(from);
    d.toDigest = recipeDigest(to);
    d.components = componentDiffs(from, to);

    diffConstraintList(d.constraints, QString(), from.constraints, to.constraints);
    const Validation noValidation;
    const Validation& va = from.validation ? *from.validation : noValidation;
    const Validation& vb = to.validation ? *to.validation : noValidation;
    for (const QString& phase : Validation::phaseNames()) {
        const std::optional<ValidationPhase>& pa = va.phase(phase);
        const std::optional<ValidationPhase>& pb = vb.phase(phase);
        if (!pa && !pb)
            continue;
        if (bool(pa) != bool(pb))
            d.phaseSettings.push_back(FieldChange{phase, pa ? QStringLiteral("present") : QString(),
                                                  pb ? QStringLiteral("present") : QString()});
        const ValidationPhase empty;
        const ValidationPhase& a = pa ? *pa : empty;
        const ValidationPhase& b = pb ? *pb : empty;
        compareText(d.phaseSettings, phase + QStringLiteral(".timeout"), a.timeout, b.timeout);
        compareText(d.phaseSettings, phase + QStringLiteral(".infrastructure"), a.infrastructure, b.infrastructure);
        diffConstraintList(d.constraints, phase, a.constraints ? *a.constraints : std::vector<Constraint>(),
                           b.constraints ? *b.constraints : std::vector<Constraint>());
        const QStringList ca = a.checks ? *a.checks : QStringList();
        const QStringList cb = b.checks ? *b.checks : QStringList();
        for (const QString& c : ca)
            d.checks.push_back(CheckDiff{phase, c, cb.contains(c) ? Change::Unchanged : Change::Removed});
        for (const QString& c : cb)
            if (!ca.contains(c))
                d.checks.push_back(CheckDiff{phase, c, Change::Added});
    }
    for (const QString& o : from.appliedOverlays)
        d.appliedOverlays.push_back(
            NamedChange{o, to.appliedOverlays.contains(o) ? Change::Unchanged : Change::Removed, {}, {}});
    for (const QString& o : to.appliedOverlays)
        if (!from.appliedOverlays.contains(o))
            d.appliedOverlays.push_back(NamedChange{o, Change::Added, {}, {}});
    return d;
}

CatalogDiff diffCatalogs(const Catalog& from, const Catalog& to, const QString& fromLabel, const QString& toLabel) {
    CatalogDiff d;
    d.fromLabel = fromLabel;
    d.toLabel = toLabel;
    auto overlayName = [](const Overlay& o) { return o.name; };
    const std::function<bool(const Overlay&, const Overlay&)> sameSpec = [](const Overlay& a, const Overlay& b) {
        return a.specNode == b.specNode;
    };
    const std::function<QString(const Overlay&)> apiOf = [](const Overlay& o) { return o.apiVersion.text; };
    d.overlays = diffNamed(from.overlays, to.overlays, overlayName, sameSpec, apiOf);
    d.mixins = diffNamed(from.mixins, to.mixins, overlayName, sameSpec, apiOf);
    d.registry = diffNamed<RegistryComponent>(
        from.registry, to.registry, [](const RegistryComponent& c) { return c.name; },
        [](const RegistryComponent& a, const RegistryComponent& b) { return a.node == b.node; },
        [](const RegistryComponent& c) { return c.kind == QLatin1String("Kustomize") ? c.defaultTag : c.defaultVersion; });
    d.validators = diffNamed<ValidatorCheck>(
        from.validators.checks, to.validators.checks, [](const ValidatorCheck& c) { return c.name; },
        [](const ValidatorCheck& a, const ValidatorCheck& b) { return a.node == b.node; },
        [](const ValidatorCheck& c) { return c.phase; });

    ResolveOptions opt;
    opt.builderVersion.clear();
    std::map<QString, RecipeResult> ra, rb;
    for (LeafResolution& lr : resolveAllLeaves(from, opt))
        if (lr.result)
            ra.emplace(lr.leaf, std::move(*lr.result));
    for (LeafResolution& lr : resolveAllLeaves(to, opt))
        if (lr.result)
            rb.emplace(lr.leaf, std::move(*lr.result));
    std::set<QString> leaves;
    for (const auto& [k, v] : ra)
        leaves.insert(k);
    for (const auto& [k, v] : rb)
        leaves.insert(k);
    std::map<QString, int> moves;
    for (const QString& leaf : leaves) {
        NamedChange c;
        c.name = leaf;
        const auto ia = ra.find(leaf), ib = rb.find(leaf);
        if (ia != ra.end())
            c.from = recipeDigest(ia->second);
        if (ib != rb.end())
            c.to = recipeDigest(ib->second);
        c.change = ia == ra.end() ? Change::Added
                   : ib == rb.end() ? Change::Removed
                   : c.from == c.to ? Change::Unchanged
                                    : Change::Changed;
        if (c.change == Change::Changed) {
            for (const ComponentDiff& cd : componentDiffs(ia->second, ib->second))
                if (cd.change == Change::Changed && cd.fromVersion != cd.toVersion)
                    ++moves[cd.name];
        }
        d.leaves.push_back(c);
    }
    for (const auto& [name, n] : moves)
        d.componentMoves.emplace_back(name, n);
    std::stable_sort(d.componentMoves.begin(), d.componentMoves.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return d;
}

// ---- renderings ---------------------------------------------------------------------------------

namespace {

QChar marker(Change c) {
    switch (c) {
    case Change::Added:
        return QLatin1Char('+');
    case Change::Removed:
        return QLatin1Char('-');
    case Change::Changed:
        return QLatin1Char('~');
    case Change::Unchanged:
        break;
    }
    return QLatin1Char('=');
}

QString orderText(const ComponentDiff& c) {
    auto pos = [](int i) { return i < 0 ? QStringLiteral("—") : QString::number(i + 1); };
    return pos(c.fromOrder) + QStringLiteral(" → ") + pos(c.toOrder);
}

QString side(const QString& label, const QString& fallback) {
    return label.isEmpty() ? fallback : label;
}

QJsonArray fieldsJson(const std::vector<FieldChange>& fields) {
    QJsonArray a;
    for (const FieldChange& f : fields)
        a.append(QJsonObject{{QStringLiteral("field"), f.field}, {QStringLiteral("from"), f.from}, {QStringLiteral("to"), f.to}});
    return a;
}

QJsonArray namedJson(const std::vector<NamedChange>& list) {
    QJsonArray a;
    for (const NamedChange& n : list) {
        QJsonObject o{{QStringLiteral("name"), n.name}, {QStringLiteral("change"), changeName(n.change)}};
        if (!n.from.isEmpty())
            o.insert(QStringLiteral("from"), n.from);
        if (!n.to.isEmpty())
            o.insert(QStringLiteral("to"), n.to);
        a.append(o);
    }
    return a;
}

QString countsText(const std::vector<NamedChange>& list) {
    int n[4] = {0, 0, 0, 0};
    for (const NamedChange& c : list)
        ++n[static_cast<int>(c.change)];
    return QStringLiteral("%1 added, %2 removed, %3 changed, %4 unchanged").arg(n[1]).arg(n[2]).arg(n[3]).arg(n[0]);
}

} // namespace

QString toText(const RecipeDiff& d) {
    const QString from = side(d.fromLabel, QStringLiteral("from")), to = side(d.toLabel, QStringLiteral("to"));
    QString out;
    out += QStringLiteral("Recipe diff %1 → %2\n").arg(from, to);
    out += QStringLiteral("criteria: %1").arg(criteriaText(d.fromCriteria));
    if (criteriaText(d.fromCriteria) != criteriaText(d.toCriteria))
        out += QStringLiteral(" → %1").arg(criteriaText(d.toCriteria));
    out += QLatin1Char('\n');
    out += QStringLiteral("digest: %1 → %2 (%3)\n")
               .arg(d.fromDigest.left(12), d.toDigest.left(12), d.identical() ? QStringLiteral("identical")
                                                                              : QStringLiteral("differs"));
    out += QStringLiteral("\nComponents: %1 added, %2 removed, %3 changed, %4 unchanged\n")
               .arg(d.count(Change::Added))
               .arg(d.count(Change::Removed))
               .arg(d.count(Change::Changed))
               .arg(d.count(Change::Unchanged));
    for (const ComponentDiff& c : d.components) {
        out += QStringLiteral("  %1 %2  %3 → %4  order %5%6\n")
                   .arg(marker(c.change))
                   .arg(c.name, -34)
                   .arg(c.fromVersion.isEmpty() ? QStringLiteral("—") : c.fromVersion,
                        c.toVersion.isEmpty() ? QStringLiteral("—") : c.toVersion)
                   .arg(orderText(c), c.orderMoved() ? QStringLiteral(" (moved)") : QString());
        for (const FieldChange& f : c.fields)
            out += QStringLiteral("      %1: %2 → %3\n")
                       .arg(f.field, f.from.isEmpty() ? QStringLiteral("(none)") : f.from,
                            f.to.isEmpty() ? QStringLiteral("(none)") : f.to);
    }
    out += QStringLiteral("\nConstraints:\n");
    for (const ConstraintDiff& c : d.constraints)
        out += QStringLiteral("  %1 %2%3  %4 → %5\n")
                   .arg(marker(c.change))
                   .arg(c.phase.isEmpty() ? QString() : c.phase + QLatin1Char('/'), c.name,
                        c.from.isEmpty() ? QStringLiteral("—") : c.from, c.to.isEmpty() ? QStringLiteral("—") : c.to);
    out += QStringLiteral("\nChecks:\n");
    for (const CheckDiff& c : d.checks)
        out += QStringLiteral("  %1 %2/%3\n").arg(marker(c.change)).arg(c.phase, c.name);
    if (!d.phaseSettings.empty()) {
        out += QStringLiteral("\nValidation settings:\n");
        for (const FieldChange& f : d.phaseSettings)
            out += QStringLiteral("  ~ %1: %2 → %3\n").arg(f.field, f.from.isEmpty() ? QStringLiteral("(none)") : f.from,
                                                          f.to.isEmpty() ? QStringLiteral("(none)") : f.to);
    }
    out += QStringLiteral("\nApplied overlays:\n");
    for (const NamedChange& o : d.appliedOverlays)
        out += QStringLiteral("  %1 %2\n").arg(marker(o.change)).arg(o.name);
    return out;
}

QString toMarkdown(const RecipeDiff& d) {
    const QString from = side(d.fromLabel, QStringLiteral("from")), to = side(d.toLabel, QStringLiteral("to"));
    QString out;
    out += QStringLiteral("## What changed from %1 to %2\n\n").arg(from, to);
    out += QStringLiteral("Criteria: `%1`  \nDigest: `%2` → `%3` (%4)\n\n")
               .arg(criteriaText(d.toCriteria), d.fromDigest.left(12), d.toDigest.left(12),
                    d.identical() ? QStringLiteral("identical") : QStringLiteral("differs"));
    int fromCount = 0, toCount = 0;
    for (const ComponentDiff& c : d.components) {
        fromCount += c.change != Change::Added ? 1 : 0;
        toCount += c.change != Change::Removed ? 1 : 0;
    }
    out += QStringLiteral("Components: %1 → %2 (%3 added, %4 removed, %5 changed, %6 unchanged)\n\n")
               .arg(fromCount)
               .arg(toCount)
               .arg(d.count(Change::Added))
               .arg(d.count(Change::Removed))
               .arg(d.count(Change::Changed))
               .arg(d.count(Change::Unchanged));
    out += QStringLiteral("| Component | %1 | %2 | Change | Order | Details |\n|---|---|---|---|---|---|\n").arg(from, to);
    for (const ComponentDiff& c : d.components) {
        QStringList details;
        for (const FieldChange& f : c.fields)
            if (f.field != QLatin1String("version"))
                details << QStringLiteral("%1: %2 → %3").arg(f.field, f.from.isEmpty() ? QStringLiteral("—") : f.from,
                                                              f.to.isEmpty() ? QStringLiteral("—") : f.to);
        out += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                   .arg(c.name, c.fromVersion.isEmpty() ? QStringLiteral("—") : c.fromVersion,
                        c.toVersion.isEmpty() ? QStringLiteral("—") : c.toVersion, changeName(c.change),
                        orderText(c) + (c.orderMoved() ? QStringLiteral(" (moved)") : QString()),
                        details.join(QStringLiteral("<br>")).replace(QLatin1Char('|'), QStringLiteral("\\|")));
    }
    out += QStringLiteral("\n### Constraints\n\n| Constraint | %1 | %2 | Change |\n|---|---|---|---|\n").arg(from, to);
    for (const ConstraintDiff& c : d.constraints)
        out += QStringLiteral("| %1%2 | %3 | %4 | %5 |\n")
                   .arg(c.phase.isEmpty() ? QString() : c.phase + QLatin1Char('/'), c.name,
                        c.from.isEmpty() ? QStringLiteral("—") : c.from, c.to.isEmpty() ? QStringLiteral("—") : c.to,
                        changeName(c.change));
    out += QStringLiteral("\n### Checks\n\n| Phase | Check | Change |\n|---|---|---|\n");
    for (const CheckDiff& c : d.checks)
        out += QStringLiteral("| %1 | %2 | %3 |\n").arg(c.phase, c.name, changeName(c.change));
    return out;
}

QJsonObject toJson(const RecipeDiff& d) {
    QJsonArray comps, cons, checks, overlays;
    for (const ComponentDiff& c : d.components)
        comps.append(QJsonObject{{QStringLiteral("name"), c.name},
                                 {QStringLiteral("change"), changeName(c.change)},
                                 {QStringLiteral("fromVersion"), c.fromVersion},
                                 {QStringLiteral("toVersion"), c.toVersion},
                                 {QStringLiteral("fromOrder"), c.fromOrder},
                                 {QStringLiteral("toOrder"), c.toOrder},
                                 {QStringLiteral("orderMoved"), c.orderMoved()},
                                 {QStringLiteral("fields"), fieldsJson(c.fields)}});
    for (const ConstraintDiff& c : d.constraints)
        cons.append(QJsonObject{{QStringLiteral("name"), c.name},
                                {QStringLiteral("phase"), c.phase},
                                {QStringLiteral("change"), changeName(c.change)},
                                {QStringLiteral("from"), c.from},
                                {QStringLiteral("to"), c.to}});
    for (const CheckDiff& c : d.checks)
        checks.append(QJsonObject{{QStringLiteral("phase"), c.phase},
                                  {QStringLiteral("name"), c.name},
                                  {QStringLiteral("change"), changeName(c.change)}});
    return QJsonObject{{QStringLiteral("from"), d.fromLabel},
                       {QStringLiteral("to"), d.toLabel},
                       {QStringLiteral("fromCriteria"), criteriaText(d.fromCriteria)},
                       {QStringLiteral("toCriteria"), criteriaText(d.toCriteria)},
                       {QStringLiteral("fromDigest"), d.fromDigest},
                       {QStringLiteral("toDigest"), d.toDigest},
                       {QStringLiteral("identical"), d.identical()},
                       {QStringLiteral("components"), comps},
                       {QStringLiteral("constraints"), cons},
                       {QStringLiteral("checks"), checks},
                       {QStringLiteral("validationSettings"), fieldsJson(d.phaseSettings)},
                       {QStringLiteral("appliedOverlays"), namedJson(d.appliedOverlays)}};
}

QString toText(const CatalogDiff& d) {
    QString out = QStringLiteral("Catalog diff %1 → %2\n")
                      .arg(side(d.fromLabel, QStringLiteral("from")), side(d.toLabel, QStringLiteral("to")));
    auto section = [&](const QString& title, const std::vector<NamedChange>& list, bool showDetail) {
        out += QStringLiteral("\n%1: %2\n").arg(title, countsText(list));
        for (const NamedChange& n : list) {
            out += QStringLiteral("  %1 %2").arg(marker(n.change)).arg(n.name);
            if (showDetail && n.change != Change::Unchanged && (!n.from.isEmpty() || !n.to.isEmpty()))
                out += QStringLiteral("  %1 → %2").arg(n.from.isEmpty() ? QStringLiteral("—") : n.from.left(12),
                                                       n.to.isEmpty() ? QStringLiteral("—") : n.to.left(12));
            out += QLatin1Char('\n');
        }
    };
    section(QStringLiteral("Leaf recipes (digest)"), d.leaves, true);
    section(QStringLiteral("Overlays"), d.overlays, false);
    section(QStringLiteral("Mixins"), d.mixins, false);
    section(QStringLiteral("Registry components (default version)"), d.registry, true);
    section(QStringLiteral("Validator checks"), d.validators, false);
    out += QStringLiteral("\nComponents whose version changed, by number of leaves:\n");
    for (const auto& [name, n] : d.componentMoves)
        out += QStringLiteral("  %1 %2\n").arg(n, 4).arg(name);
    return out;
}

QString toMarkdown(const CatalogDiff& d) {
    QString out = QStringLiteral("## Catalog %1 → %2\n\n")
                      .arg(side(d.fromLabel, QStringLiteral("from")), side(d.toLabel, QStringLiteral("to")));
    out += QStringLiteral("| | Added | Removed | Changed | Unchanged |\n|---|---|---|---|---|\n");
    auto row = [&](const QString& title, const std::vector<NamedChange>& list) {
        int n[4] = {0, 0, 0, 0};
        for (const NamedChange& c : list)
            ++n[static_cast<int>(c.change)];
        out += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n").arg(title).arg(n[1]).arg(n[2]).arg(n[3]).arg(n[0]);
    };
    row(QStringLiteral("Leaf recipes"), d.leaves);
    row(QStringLiteral("Overlays"), d.overlays);
    row(QStringLiteral("Mixins"), d.mixins);
    row(QStringLiteral("Registry components"), d.registry);
    row(QStringLiteral("Validator checks"), d.validators);
    out += QStringLiteral("\n### Leaf recipes\n\n| Leaf | Change | Digest |\n|---|---|---|\n");
    for (const NamedChange& n : d.leaves)
        out += QStringLiteral("| %1 | %2 | %3 |\n")
                   .arg(n.name, changeName(n.change),
                        n.change == Change::Changed ? QStringLiteral("`%1` → `%2`").arg(n.from.left(12), n.to.left(12))
                                                    : QStringLiteral("`%1`").arg((n.to.isEmpty() ? n.from : n.to).left(12)));
    out += QStringLiteral("\n### Registry components\n\n| Component | %1 | %2 | Change |\n|---|---|---|---|\n")
               .arg(side(d.fromLabel, QStringLiteral("from")), side(d.toLabel, QStringLiteral("to")));
    for (const NamedChange& n : d.registry)
        out += QStringLiteral("| %1 | %2 | %3 | %4 |\n")
                   .arg(n.name, n.from.isEmpty() ? QStringLiteral("—") : n.from, n.to.isEmpty() ? QStringLiteral("—") : n.to,
                        changeName(n.change));
    return out;
}

QJsonObject toJson(const CatalogDiff& d) {
    QJsonArray moves;
    for (const auto& [name, n] : d.componentMoves)
        moves.append(QJsonObject{{QStringLiteral("component"), name}, {QStringLiteral("leaves"), n}});
    return QJsonObject{{QStringLiteral("from"), d.fromLabel},
                       {QStringLiteral("to"), d.toLabel},
                       {QStringLiteral("leaves"), namedJson(d.leaves)},
                       {QStringLiteral("overlays"), namedJson(d.overlays)},
                       {QStringLiteral("mixins"), namedJson(d.mixins)},
                       {QStringLiteral("registry"), namedJson(d.registry)},
                       {QStringLiteral("validators"), namedJson(d.validators)},
                       {QStringLiteral("componentMoves"), moves}};
}

} // namespace pb::catalog
