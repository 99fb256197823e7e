#include "catalog/Diff.h"

#include "catalog/Digest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <functional>
#include <map>
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

namespace {

// Splits an image/chart reference into (reference without tag, tag). A bare value (no '/', ':'
// or '@') is all tag. A digest pin ("@sha256:…") has no tag: returns ok=false.
struct TagSplit {
    QString base, tag;
    bool ok = false;
};

TagSplit splitTag(const QString& value) {
    TagSplit t;
    const QString v = value.trimmed();
    if (v.isEmpty() || v.contains(QLatin1Char('@')) || v.contains(QLatin1Char(' ')) ||
        v.contains(QLatin1Char('\n')))
        return t;
    const qsizetype slash = v.lastIndexOf(QLatin1Char('/'));
    const qsizetype colon = v.lastIndexOf(QLatin1Char(':'));
    if (colon > slash) {
        t.base = v.left(colon);
        t.tag = v.mid(colon + 1);
        t.ok = !t.base.isEmpty() && !t.tag.isEmpty();
        return t;
    }
    if (slash < 0 && colon < 0) {
        t.tag = v;
        t.ok = true;
    }
    return t;
}

QString withoutV(const QString& s) {
    const QString t = s.trimmed().toLower();
    return t.startsWith(QLatin1Char('v')) ? t.mid(1) : t;
}

bool follows(const QString& tag, const QString& version) {
    return !tag.isEmpty() && !version.isEmpty() && withoutV(tag) == withoutV(version);
}

} // namespace

bool isVersionOnlyMove(const QString& from, const QString& to, const QString& fromVersion,
                       const QString& toVersion) {
    if (from == to)
        return false;
    const TagSplit a = splitTag(from), b = splitTag(to);
    if (!a.ok || !b.ok || a.base != b.base || a.tag == b.tag)
        return false;
    return follows(a.tag, fromVersion) && follows(b.tag, toVersion);
}

QString versionLabelOf(const QString& labelOrDirectory) {
    QString s = labelOrDirectory;
    while (s.size() > 1 && (s.endsWith(QLatin1Char('/')) || s.endsWith(QLatin1Char('\\'))))
        s.chop(1);
    if (!s.contains(QLatin1Char('/')) && !s.contains(QLatin1Char('\\')))
        return s;
    QStringList parts = s.split(QRegularExpression(QStringLiteral("[/\\\\]")), Qt::SkipEmptyParts);
    if (parts.size() >= 2 && parts.last() == QLatin1String("recipes"))
        parts.removeLast();
    return parts.isEmpty() ? s : parts.last();
}

bool ComponentDiff::versionOnly() const {
    if (change != Change::Changed || fields.empty() || orderMoved())
        return false;
    return std::all_of(fields.begin(), fields.end(), [](const FieldChange& f) { return f.versionOnly; });
}

int RecipeDiff::versionOnlyCount() const {
    return static_cast<int>(std::count_if(components.begin(), components.end(),
                                          [](const ComponentDiff& c) { return c.versionOnly(); }));
}

bool RecipeDiff::onlyVersionMoves() const {
    if (identical() || !format.empty() || !phaseSettings.empty())
        return false;
    for (const ConstraintDiff& c : constraints)
        if (c.change != Change::Unchanged)
            return false;
    for (const CheckDiff& c : checks)
        if (c.change != Change::Unchanged)
            return false;
    for (const NamedChange& o : appliedOverlays)
        if (o.change != Change::Unchanged)
            return false;
    int moves = 0;
    for (const ComponentDiff& c : components) {
        if (c.change == Change::Unchanged && !c.orderMoved())
            continue;
        if (!c.versionOnly())
            return false;
        ++moves;
    }
    return moves > 0;
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

// A list as one value: "[a, b]" (never "a → a, b", which reads as an unchanged a); empty when empty.
QString listText(const QStringList& l) {
    return l.isEmpty() ? QString() : QLatin1Char('[') + sortedJoin(l) + QLatin1Char(']');
}

QString shortHash(const QString& text) {
    return text.isEmpty() ? QString() : QStringLiteral("sha256:") + sha256Hex(text.toUtf8());
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
    compareText(f, QStringLiteral("enabled"),
                a.isEnabled() ? QStringLiteral("true") : QStringLiteral("false"),
                b.isEnabled() ? QStringLiteral("true") : QStringLiteral("false"));
    compareText(f, QStringLiteral("dependencyRefs"), listText(a.dependencyRefs), listText(b.dependencyRefs));
    compareText(f, QStringLiteral("manifestFiles"), listText(a.manifestFiles), listText(b.manifestFiles));
    compareText(f, QStringLiteral("preManifestFiles"), listText(a.preManifestFiles),
                listText(b.preManifestFiles));
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
    compareText(f, QStringLiteral("expectedResources"),
                a.expectedResources.isNull() ? QString() : compactJson(a.expectedResources),
                b.expectedResources.isNull() ? QString() : compactJson(b.expectedResources));
    compareText(f, QStringLiteral("healthCheckAsserts"), shortHash(a.healthCheckAsserts),
                shortHash(b.healthCheckAsserts));
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
        c.change = !x             ? Change::Added
                   : !y           ? Change::Removed
                   : same(*x, *y) ? Change::Unchanged
                                  : Change::Changed;
        out.push_back(c);
    }
    return out;
}

void diffConstraintList(std::vector<ConstraintDiff>& out, const QString& phase,
                        const std::vector<Constraint>& a, const std::vector<Constraint>& b) {
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
        d.change = !inA             ? Change::Added
                   : !inB           ? Change::Removed
                   : d.from == d.to ? Change::Unchanged
                                    : Change::Changed;
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

namespace {

void markVersionOnly(std::vector<FieldChange>& fields, const QString& fromVersion, const QString& toVersion) {
    for (FieldChange& f : fields)
        f.versionOnly = isVersionOnlyMove(f.from, f.to, fromVersion, toVersion);
}

bool allVersionOnly(const std::vector<FieldChange>& fields) {
    return !fields.empty() &&
           std::all_of(fields.begin(), fields.end(), [](const FieldChange& f) { return f.versionOnly; });
}

} // namespace

RecipeDiff diffRecipes(const RecipeResult& from, const RecipeResult& to, const QString& fromLabel,
                       const QString& toLabel) {
    RecipeDiff d;
    d.fromLabel = fromLabel;
    d.toLabel = toLabel;
    d.fromVersion = versionLabelOf(fromLabel);
    d.toVersion = versionLabelOf(toLabel);
    d.fromCriteria = from.criteria;
    d.toCriteria = to.criteria;
    d.fromEvidenceDigest = evidenceDigest(from);
    d.toEvidenceDigest = evidenceDigest(to);
    d.fromParityDigest = parityDigest(from);
    d.toParityDigest = parityDigest(to);
    // A side without the recipe (an empty result) has no format to compare.
    const bool bothSides = !from.apiVersion.isEmpty() && !to.apiVersion.isEmpty();
    if (bothSides) {
        compareText(d.format, QStringLiteral("apiVersion"), from.apiVersion, to.apiVersion);
        compareText(d.format, QStringLiteral("kind"), from.kind, to.kind);
    }
    d.components = componentDiffs(from, to);
    for (ComponentDiff& c : d.components)
        markVersionOnly(c.fields, d.fromVersion, d.toVersion);
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
        compareText(d.phaseSettings, phase + QStringLiteral(".infrastructure"), a.infrastructure,
                    b.infrastructure);
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
        d.appliedOverlays.push_back(NamedChange{
            o, to.appliedOverlays.contains(o) ? Change::Unchanged : Change::Removed, {}, {}, {}, false});
    for (const QString& o : to.appliedOverlays)
        if (!from.appliedOverlays.contains(o))
            d.appliedOverlays.push_back(NamedChange{o, Change::Added, {}, {}, {}, false});
    return d;
}

namespace {

// Both nodes flattened to dotted paths, every path whose value differs as a field change.
std::vector<FieldChange> nodeFields(const yaml::Node& a, const yaml::Node& b, const QString& prefix = {}) {
    std::map<QString, QString> fa, fb;
    flatten(a, prefix, fa);
    flatten(b, prefix, fb);
    std::set<QString> paths;
    for (const auto& [k, v] : fa)
        paths.insert(k);
    for (const auto& [k, v] : fb)
        paths.insert(k);
    std::vector<FieldChange> out;
    for (const QString& p : paths) {
        const auto ia = fa.find(p), ib = fb.find(p);
        compareText(out, p, ia == fa.end() ? QString() : ia->second, ib == fb.end() ? QString() : ib->second);
    }
    return out;
}

std::vector<FieldChange> overlayFields(const Overlay& a, const Overlay& b) {
    std::vector<FieldChange> f;
    compareText(f, QStringLiteral("apiVersion"), a.apiVersion.text, b.apiVersion.text);
    compareText(f, QStringLiteral("kind"), a.kind, b.kind);
    for (FieldChange& c : nodeFields(a.specNode, b.specNode, QStringLiteral("spec")))
        f.push_back(std::move(c));
    return f;
}

// The apiVersions one kind of document uses across a catalog, sorted and joined.
QString apiVersionsOf(const std::vector<Overlay>& docs, const QString& kind) {
    QStringList l;
    for (const Overlay& o : docs)
        if (o.kind == kind && !l.contains(o.apiVersion.text))
            l << o.apiVersion.text;
    return l.size() > 1 ? listText(l) : sortedJoin(l);
}

} // namespace

namespace {

// The documents: overlays, mixins, registry entries and validators added, removed or changed,
// with their changed fields and whether only versions moved.
void diffDocuments(CatalogDiff& d, const Catalog& from, const Catalog& to) {
    auto overlayName = [](const Overlay& o) { return o.name; };
    const std::function<bool(const Overlay&, const Overlay&)> sameDoc = [](const Overlay& a,
                                                                           const Overlay& b) {
        return a.specNode == b.specNode && a.apiVersion.text == b.apiVersion.text && a.kind == b.kind;
    };
    const std::function<QString(const Overlay&)> apiOf = [](const Overlay& o) { return o.apiVersion.text; };
    d.overlays = diffNamed(from.overlays, to.overlays, overlayName, sameDoc, apiOf);
    d.mixins = diffNamed(from.mixins, to.mixins, overlayName, sameDoc, apiOf);
    auto overlayDetails = [&](std::vector<NamedChange>& list, const Catalog& ca, const Catalog& cb,
                              bool mixin) {
        for (NamedChange& n : list)
            if (n.change == Change::Changed) {
                const Overlay* x = mixin ? ca.mixin(n.name) : ca.overlay(n.name);
                const Overlay* y = mixin ? cb.mixin(n.name) : cb.overlay(n.name);
                n.fields = overlayFields(*x, *y);
            }
    };
    overlayDetails(d.overlays, from, to, false);
    overlayDetails(d.mixins, from, to, true);
    d.registry = diffNamed<RegistryComponent>(
        from.registry, to.registry, [](const RegistryComponent& c) { return c.name; },
        [](const RegistryComponent& a, const RegistryComponent& b) { return a.node == b.node; },
        [](const RegistryComponent& c) {
            return c.kind == QLatin1String("Kustomize") ? c.defaultTag : c.defaultVersion;
        });
    for (NamedChange& n : d.registry)
        if (n.change == Change::Changed)
            n.fields = nodeFields(from.component(n.name)->node, to.component(n.name)->node);
    d.validators = diffNamed<ValidatorCheck>(
        from.validators.checks, to.validators.checks, [](const ValidatorCheck& c) { return c.name; },
        [](const ValidatorCheck& a, const ValidatorCheck& b) { return a.node == b.node; },
        [](const ValidatorCheck& c) { return c.image; });
    for (NamedChange& n : d.validators)
        if (n.change == Change::Changed)
            n.fields = nodeFields(from.validators.find(n.name)->node, to.validators.find(n.name)->node);
    for (std::vector<NamedChange>* list : {&d.overlays, &d.mixins, &d.registry, &d.validators})
        for (NamedChange& n : *list) {
            markVersionOnly(n.fields, d.fromVersion, d.toVersion);
            n.versionOnly = n.change == Change::Changed && allVersionOnly(n.fields);
        }
}

// Every leaf that resolves, by leaf overlay name (without a builder version, so only the catalog differs).
std::map<QString, RecipeResult> resolvedLeaves(const Catalog& cat) {
    ResolveOptions opt;
    opt.builderVersion.clear();
    std::map<QString, RecipeResult> out;
    for (LeafResolution& lr : resolveAllLeaves(cat, opt))
        if (lr.result)
            out.emplace(lr.leaf, std::move(*lr.result));
    return out;
}

// Formats: the apiVersions each kind of document uses, on each side.
void diffFormats(CatalogDiff& d, const Catalog& from, const Catalog& to,
                 const std::map<QString, RecipeResult>& ra, const std::map<QString, RecipeResult>& rb) {
    auto formatRow = [&](const QString& kind, const QString& a, const QString& b) {
        if (a.isEmpty() && b.isEmpty())
            return;
        NamedChange c;
        c.name = kind;
        c.from = a;
        c.to = b;
        c.change = a.isEmpty()   ? Change::Added
                   : b.isEmpty() ? Change::Removed
                   : a == b      ? Change::Unchanged
                                 : Change::Changed;
        if (c.change == Change::Changed)
            c.fields.push_back(FieldChange{QStringLiteral("apiVersion"), a, b, false});
        d.formats.push_back(c);
    };
    auto resultApis = [](const std::map<QString, RecipeResult>& m) {
        QStringList l;
        for (const auto& [leaf, r] : m)
            if (!l.contains(r.apiVersion))
                l << r.apiVersion;
        return l.size() > 1 ? listText(l) : sortedJoin(l);
    };
    formatRow(QStringLiteral("RecipeMetadata"),
              apiVersionsOf(from.overlays, QStringLiteral("RecipeMetadata")),
              apiVersionsOf(to.overlays, QStringLiteral("RecipeMetadata")));
    formatRow(QStringLiteral("RecipeMixin"), apiVersionsOf(from.mixins, QStringLiteral("RecipeMixin")),
              apiVersionsOf(to.mixins, QStringLiteral("RecipeMixin")));
    formatRow(QStringLiteral("ComponentRegistry"), from.registryApiVersion.text, to.registryApiVersion.text);
    formatRow(QStringLiteral("ValidatorCatalog"),
              from.hasValidators ? from.validators.apiVersion.text : QString(),
              to.hasValidators ? to.validators.apiVersion.text : QString());
    formatRow(QStringLiteral("RecipeResult"), resultApis(ra), resultApis(rb));
}

// Leaves: each resolved recipe's evidence digest on both sides, what changed in it, and how often
// each component's version moved across them.
void diffLeaves(CatalogDiff& d, const std::map<QString, RecipeResult>& ra,
                const std::map<QString, RecipeResult>& rb, const QString& fromLabel, const QString& toLabel) {
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
            c.from = prefixedDigest(evidenceDigest(ia->second)); // "sha256:<hex>"
        if (ib != rb.end())
            c.to = prefixedDigest(evidenceDigest(ib->second));
        c.change = ia == ra.end()   ? Change::Added
                   : ib == rb.end() ? Change::Removed
                   : c.from == c.to ? Change::Unchanged
                                    : Change::Changed;
        if (c.change == Change::Changed) {
            const RecipeDiff rd = diffRecipes(ia->second, ib->second, fromLabel, toLabel);
            for (const FieldChange& f : rd.format)
                c.fields.push_back(f);
            c.versionOnly = rd.onlyVersionMoves();
            for (const ComponentDiff& cd : rd.components)
                if (cd.change == Change::Changed && cd.fromVersion != cd.toVersion)
                    ++moves[cd.name];
        }
        d.leaves.push_back(c);
    }
    for (const auto& [name, n] : moves)
        d.componentMoves.emplace_back(name, n);
    std::stable_sort(d.componentMoves.begin(), d.componentMoves.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
}

} // namespace

CatalogDiff diffCatalogs(const Catalog& from, const Catalog& to, const QString& fromLabel,
                         const QString& toLabel) {
    CatalogDiff d;
    d.fromLabel = fromLabel;
    d.toLabel = toLabel;
    d.fromVersion = versionLabelOf(fromLabel);
    d.toVersion = versionLabelOf(toLabel);
    diffDocuments(d, from, to);
    const std::map<QString, RecipeResult> ra = resolvedLeaves(from), rb = resolvedLeaves(to);
    diffFormats(d, from, to, ra, rb);
    diffLeaves(d, ra, rb, fromLabel, toLabel);
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

QString orDash(const QString& s) {
    return s.isEmpty() ? QStringLiteral("—") : s;
}

QString orNone(const QString& s) {
    return s.isEmpty() ? QStringLiteral("(none)") : s;
}

// "a → b" when the two differ, else the one value: a change is never written "X → X".
QString arrow(const QString& a, const QString& b, const QString& empty = QStringLiteral("—")) {
    const QString x = a.isEmpty() ? empty : a, y = b.isEmpty() ? empty : b;
    return a == b ? x : x + QStringLiteral(" → ") + y;
}

QString orderText(const ComponentDiff& c) {
    auto pos = [](int i) { return i < 0 ? QStringLiteral("—") : QString::number(i + 1); };
    return c.fromOrder == c.toOrder ? pos(c.toOrder)
                                    : pos(c.fromOrder) + QStringLiteral(" → ") + pos(c.toOrder);
}

QString side(const QString& label, const QString& fallback) {
    return label.isEmpty() ? fallback : label;
}

QString sampleMark(bool sample) {
    return sample ? QStringLiteral(" (sample data)") : QString();
}

QString versionOnlyMark(bool versionOnly) {
    return versionOnly ? QStringLiteral(" (version-only)") : QString();
}

QJsonArray fieldsJson(const std::vector<FieldChange>& fields) {
    QJsonArray a;
    for (const FieldChange& f : fields) {
        QJsonObject o{{QStringLiteral("field"), f.field},
                      {QStringLiteral("from"), f.from},
                      {QStringLiteral("to"), f.to}};
        if (f.versionOnly)
            o.insert(QStringLiteral("versionOnly"), true);
        a.append(o);
    }
    return a;
}

QJsonArray namedJson(const std::vector<NamedChange>& list, const DiffOptions& options,
                     int* hidden = nullptr) {
    QJsonArray a;
    for (const NamedChange& n : list) {
        if (options.ignoreVersionOnly && n.versionOnly) {
            if (hidden)
                ++*hidden;
            continue;
        }
        QJsonObject o{{QStringLiteral("name"), n.name}, {QStringLiteral("change"), changeName(n.change)}};
        if (!n.from.isEmpty())
            o.insert(QStringLiteral("from"), n.from);
        if (!n.to.isEmpty())
            o.insert(QStringLiteral("to"), n.to);
        if (!n.fields.empty())
            o.insert(QStringLiteral("fields"), fieldsJson(n.fields));
        if (n.versionOnly)
            o.insert(QStringLiteral("versionOnly"), true);
        a.append(o);
    }
    return a;
}

struct Tally {
    int n[4] = {0, 0, 0, 0};
    int hidden = 0;
};

Tally tally(const std::vector<NamedChange>& list, const DiffOptions& options) {
    Tally t;
    for (const NamedChange& c : list) {
        if (options.ignoreVersionOnly && c.versionOnly)
            ++t.hidden;
        else
            ++t.n[static_cast<int>(c.change)];
    }
    return t;
}

QString countsText(const Tally& t) {
    QString s = QStringLiteral("%1 added, %2 removed, %3 changed, %4 unchanged")
                    .arg(t.n[1])
                    .arg(t.n[2])
                    .arg(t.n[3])
                    .arg(t.n[0]);
    if (t.hidden)
        s += QStringLiteral(", %1 version-only hidden").arg(t.hidden);
    return s;
}

QString hiddenNote(int hidden) {
    return hidden ? QStringLiteral("(%1 version-only change%2 hidden: tags that follow the catalog version; "
                                   "drop --ignore version-only to list them)\n")
                        .arg(hidden)
                        .arg(hidden == 1 ? QString() : QStringLiteral("s"))
                  : QString();
}

QString digestLine(const QString& what, const QString& a, const QString& b, const QString& note) {
    return QStringLiteral("%1: %2%3\n").arg(what, arrow(prefixedDigest(a), prefixedDigest(b)), note);
}

QString mdCell(QString s) {
    return s.replace(QLatin1Char('|'), QStringLiteral("\\|"))
        .replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

} // namespace

QString toText(const RecipeDiff& d, const DiffOptions& options) {
    const QString from = side(d.fromLabel, QStringLiteral("from")),
                  to = side(d.toLabel, QStringLiteral("to"));
    QString out;
    out += QStringLiteral("Recipe diff %1 → %2\n")
               .arg(from + sampleMark(d.fromSample), to + sampleMark(d.toSample));
    out +=
        QStringLiteral("criteria: %1\n").arg(arrow(criteriaText(d.fromCriteria), criteriaText(d.toCriteria)));
    out += digestLine(QStringLiteral("evidence digest"), d.fromEvidenceDigest, d.toEvidenceDigest,
                      d.identical() ? QStringLiteral(" (identical)") : QStringLiteral(" (differs)"));
    out += digestLine(QStringLiteral("parity digest"), d.fromParityDigest, d.toParityDigest, {});
    for (const FieldChange& f : d.format)
        out += QStringLiteral("format: %1 %2\n").arg(f.field, arrow(f.from, f.to, QStringLiteral("(none)")));
    int hidden = 0;
    out += QStringLiteral("\nComponents: %1 added, %2 removed, %3 changed, %4 unchanged\n")
               .arg(d.count(Change::Added))
               .arg(d.count(Change::Removed))
               .arg(d.count(Change::Changed))
               .arg(d.count(Change::Unchanged));
    for (const ComponentDiff& c : d.components) {
        if (options.ignoreVersionOnly && c.versionOnly()) {
            ++hidden;
            continue;
        }
        const QString version = c.change == Change::Added     ? orDash(c.toVersion)
                                : c.change == Change::Removed ? orDash(c.fromVersion)
                                                              : arrow(c.fromVersion, c.toVersion);
        out += QStringLiteral("  %1 %2  %3  order %4%5%6\n")
                   .arg(marker(c.change))
                   .arg(c.name, -34)
                   .arg(version, orderText(c), c.orderMoved() ? QStringLiteral(" (moved)") : QString(),
                        versionOnlyMark(c.versionOnly()));
        for (const FieldChange& f : c.fields)
            out += QStringLiteral("      %1: %2%3\n")
                       .arg(f.field, arrow(f.from, f.to, QStringLiteral("(none)")),
                            versionOnlyMark(f.versionOnly));
    }
    out += hiddenNote(hidden);
    out += QStringLiteral("\nConstraints:\n");
    for (const ConstraintDiff& c : d.constraints)
        out +=
            QStringLiteral("  %1 %2%3  %4\n")
                .arg(marker(c.change))
                .arg(c.phase.isEmpty() ? QString() : c.phase + QLatin1Char('/'), c.name, arrow(c.from, c.to));
    out += QStringLiteral("\nChecks:\n");
    for (const CheckDiff& c : d.checks)
        out += QStringLiteral("  %1 %2/%3\n").arg(marker(c.change)).arg(c.phase, c.name);
    if (!d.phaseSettings.empty()) {
        out += QStringLiteral("\nValidation settings:\n");
        for (const FieldChange& f : d.phaseSettings)
            out += QStringLiteral("  ~ %1: %2\n").arg(f.field, arrow(f.from, f.to, QStringLiteral("(none)")));
    }
    out += QStringLiteral("\nApplied overlays:\n");
    for (const NamedChange& o : d.appliedOverlays)
        out += QStringLiteral("  %1 %2\n").arg(marker(o.change)).arg(o.name);
    return out;
}

QString toMarkdown(const RecipeDiff& d, const DiffOptions& options) {
    const QString from = side(d.fromLabel, QStringLiteral("from")),
                  to = side(d.toLabel, QStringLiteral("to"));
    QString out;
    out += QStringLiteral("## What changed from %1 to %2\n\n")
               .arg(from + sampleMark(d.fromSample), to + sampleMark(d.toSample));
    out += QStringLiteral("Criteria: `%1`  \nEvidence digest: %2  \nParity digest: %3  \n%4\n\n")
               .arg(arrow(criteriaText(d.fromCriteria), criteriaText(d.toCriteria)),
                    d.fromEvidenceDigest == d.toEvidenceDigest
                        ? QStringLiteral("`%1`").arg(prefixedDigest(d.toEvidenceDigest))
                        : QStringLiteral("`%1` → `%2`")
                              .arg(prefixedDigest(d.fromEvidenceDigest), prefixedDigest(d.toEvidenceDigest)),
                    d.fromParityDigest == d.toParityDigest
                        ? QStringLiteral("`%1`").arg(prefixedDigest(d.toParityDigest))
                        : QStringLiteral("`%1` → `%2`")
                              .arg(prefixedDigest(d.fromParityDigest), prefixedDigest(d.toParityDigest)),
                    d.identical() ? QStringLiteral("Identical.") : QStringLiteral("Differs."));
    for (const FieldChange& f : d.format)
        out += QStringLiteral("Format: %1 `%2` → `%3`\n\n").arg(f.field, orNone(f.from), orNone(f.to));
    int fromCount = 0, toCount = 0;
    for (const ComponentDiff& c : d.components) {
        fromCount += c.change != Change::Added ? 1 : 0;
        toCount += c.change != Change::Removed ? 1 : 0;
    }
    out += QStringLiteral("Components: %1 (%2 added, %3 removed, %4 changed, %5 unchanged)\n\n")
               .arg(arrow(QString::number(fromCount), QString::number(toCount)))
               .arg(d.count(Change::Added))
               .arg(d.count(Change::Removed))
               .arg(d.count(Change::Changed))
               .arg(d.count(Change::Unchanged));
    out += QStringLiteral("| Component | %1 | %2 | Change | Order | Details |\n|---|---|---|---|---|---|\n")
               .arg(mdCell(from), mdCell(to));
    int hidden = 0;
    for (const ComponentDiff& c : d.components) {
        if (options.ignoreVersionOnly && c.versionOnly()) {
            ++hidden;
            continue;
        }
        QStringList details;
        for (const FieldChange& f : c.fields)
            if (f.field != QLatin1String("version"))
                details << QStringLiteral("%1: %2").arg(f.field, arrow(f.from, f.to));
        out += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                   .arg(c.name, mdCell(orDash(c.fromVersion)), mdCell(orDash(c.toVersion)),
                        changeName(c.change) + versionOnlyMark(c.versionOnly()),
                        orderText(c) + (c.orderMoved() ? QStringLiteral(" (moved)") : QString()),
                        mdCell(details.join(QLatin1Char('\n'))));
    }
    if (hidden)
        out += QStringLiteral("\n") + hiddenNote(hidden);
    out += QStringLiteral("\n### Constraints\n\n| Constraint | %1 | %2 | Change |\n|---|---|---|---|\n")
               .arg(mdCell(from), mdCell(to));
    for (const ConstraintDiff& c : d.constraints)
        out += QStringLiteral("| %1%2 | %3 | %4 | %5 |\n")
                   .arg(c.phase.isEmpty() ? QString() : c.phase + QLatin1Char('/'), c.name,
                        mdCell(orDash(c.from)), mdCell(orDash(c.to)), changeName(c.change));
    out += QStringLiteral("\n### Checks\n\n| Phase | Check | Change |\n|---|---|---|\n");
    for (const CheckDiff& c : d.checks)
        out += QStringLiteral("| %1 | %2 | %3 |\n").arg(c.phase, c.name, changeName(c.change));
    return out;
}

QJsonObject toJson(const RecipeDiff& d, const DiffOptions& options) {
    QJsonArray comps, cons, checks;
    int hidden = 0;
    for (const ComponentDiff& c : d.components) {
        if (options.ignoreVersionOnly && c.versionOnly()) {
            ++hidden;
            continue;
        }
        QJsonObject o{{QStringLiteral("name"), c.name},
                      {QStringLiteral("change"), changeName(c.change)},
                      {QStringLiteral("fromVersion"), c.fromVersion},
                      {QStringLiteral("toVersion"), c.toVersion},
                      {QStringLiteral("fromOrder"), c.fromOrder},
                      {QStringLiteral("toOrder"), c.toOrder},
                      {QStringLiteral("orderMoved"), c.orderMoved()},
                      {QStringLiteral("fields"), fieldsJson(c.fields)}};
        if (c.versionOnly())
            o.insert(QStringLiteral("versionOnly"), true);
        comps.append(o);
    }
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
    QJsonObject o{{QStringLiteral("from"), d.fromLabel},
                  {QStringLiteral("to"), d.toLabel},
                  {QStringLiteral("fromSample"), d.fromSample},
                  {QStringLiteral("toSample"), d.toSample},
                  {QStringLiteral("fromCriteria"), criteriaText(d.fromCriteria)},
                  {QStringLiteral("toCriteria"), criteriaText(d.toCriteria)},
                  {QStringLiteral("fromEvidenceDigest"), prefixedDigest(d.fromEvidenceDigest)},
                  {QStringLiteral("toEvidenceDigest"), prefixedDigest(d.toEvidenceDigest)},
                  {QStringLiteral("fromParityDigest"), prefixedDigest(d.fromParityDigest)},
                  {QStringLiteral("toParityDigest"), prefixedDigest(d.toParityDigest)},
                  {QStringLiteral("parityStamp"), QString::fromLatin1(kParityStamp)},
                  {QStringLiteral("identical"), d.identical()},
                  {QStringLiteral("format"), fieldsJson(d.format)},
                  {QStringLiteral("components"), comps},
                  {QStringLiteral("constraints"), cons},
                  {QStringLiteral("checks"), checks},
                  {QStringLiteral("validationSettings"), fieldsJson(d.phaseSettings)},
                  {QStringLiteral("appliedOverlays"), namedJson(d.appliedOverlays, {})}};
    if (d.fromSample || d.toSample)
        o.insert(QStringLiteral("sample"), true);
    if (options.ignoreVersionOnly)
        o.insert(QStringLiteral("hiddenVersionOnly"), hidden);
    return o;
}

QString toText(const CatalogDiff& d, const DiffOptions& options) {
    QString out = QStringLiteral("Catalog diff %1 → %2\n")
                      .arg(side(d.fromLabel, QStringLiteral("from")) + sampleMark(d.fromSample),
                           side(d.toLabel, QStringLiteral("to")) + sampleMark(d.toSample));
    // `headline`: print from → to on the item's line (when they differ); `fieldValues`: each
    // changed field with both values, else only the names of the fields that changed.
    auto section = [&](const QString& title, const std::vector<NamedChange>& list, bool headline,
                       bool fieldValues, auto&& prefix) {
        const Tally t = tally(list, options);
        out += QStringLiteral("\n%1: %2\n").arg(title, countsText(t));
        for (const NamedChange& n : list) {
            if (options.ignoreVersionOnly && n.versionOnly)
                continue;
            out += QStringLiteral("  %1 %2").arg(marker(n.change)).arg(n.name);
            if (headline && (!n.from.isEmpty() || !n.to.isEmpty())) {
                if (n.change == Change::Added)
                    out += QStringLiteral("  ") + prefix(n.to);
                else if (n.change == Change::Removed)
                    out += QStringLiteral("  ") + prefix(n.from);
                else if (n.change == Change::Unchanged && !n.to.isEmpty())
                    out += QStringLiteral("  ") + prefix(n.to);
                else if (n.change == Change::Changed && n.from != n.to)
                    out += QStringLiteral("  %1 → %2")
                               .arg(prefix(n.from).isEmpty() ? QStringLiteral("—") : prefix(n.from),
                                    prefix(n.to).isEmpty() ? QStringLiteral("—") : prefix(n.to));
            }
            out += versionOnlyMark(n.versionOnly) + QLatin1Char('\n');
            if (n.change != Change::Changed)
                continue;
            QStringList names;
            for (const FieldChange& f : n.fields) {
                if (headline && f.from == n.from && f.to == n.to)
                    continue; // already on the item's line
                if (f.field == QLatin1String("evidenceDigest"))
                    continue;
                if (fieldValues || f.field == QLatin1String("apiVersion") || f.field == QLatin1String("kind"))
                    out += QStringLiteral("      %1: %2%3\n")
                               .arg(f.field, arrow(f.from, f.to, QStringLiteral("(none)")),
                                    versionOnlyMark(f.versionOnly && !n.versionOnly));
                else
                    names << f.field;
            }
            if (!names.isEmpty())
                out += QStringLiteral("      changed: %1\n").arg(names.join(QStringLiteral(", ")));
        }
    };
    auto plain = [](const QString& s) { return s; };
    auto digest = [](const QString& s) { return prefixedDigest(s); };
    section(QStringLiteral("Formats (apiVersion by document kind)"), d.formats, true, true, plain);
    section(QStringLiteral("Leaf recipes (evidence digest)"), d.leaves, true, true, digest);
    section(QStringLiteral("Overlays"), d.overlays, false, false, plain);
    section(QStringLiteral("Mixins"), d.mixins, false, false, plain);
    section(QStringLiteral("Registry components (default version)"), d.registry, true, true, plain);
    section(QStringLiteral("Validator checks (image)"), d.validators, true, true, plain);
    out += QStringLiteral("\nComponents whose version changed, by number of leaves:\n");
    for (const auto& [name, n] : d.componentMoves)
        out += QStringLiteral("  %1 %2\n").arg(n, 4).arg(name);
    int hidden = 0;
    for (const std::vector<NamedChange>* list :
         {&d.leaves, &d.overlays, &d.mixins, &d.registry, &d.validators})
        hidden += tally(*list, options).hidden;
    out += hidden ? QStringLiteral("\n") + hiddenNote(hidden) : QString();
    return out;
}

QString toMarkdown(const CatalogDiff& d, const DiffOptions& options) {
    const QString from = side(d.fromLabel, QStringLiteral("from")),
                  to = side(d.toLabel, QStringLiteral("to"));
    QString out = QStringLiteral("## Catalog %1 → %2\n\n")
                      .arg(from + sampleMark(d.fromSample), to + sampleMark(d.toSample));
    out += QStringLiteral("| | Added | Removed | Changed | Unchanged |\n|---|---|---|---|---|\n");
    int hidden = 0;
    auto row = [&](const QString& title, const std::vector<NamedChange>& list) {
        const Tally t = tally(list, options);
        hidden += t.hidden;
        out += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n")
                   .arg(title)
                   .arg(t.n[1])
                   .arg(t.n[2])
                   .arg(t.n[3])
                   .arg(t.n[0]);
    };
    row(QStringLiteral("Leaf recipes"), d.leaves);
    row(QStringLiteral("Overlays"), d.overlays);
    row(QStringLiteral("Mixins"), d.mixins);
    row(QStringLiteral("Registry components"), d.registry);
    row(QStringLiteral("Validator checks"), d.validators);
    if (hidden)
        out += QStringLiteral("\n") + hiddenNote(hidden);
    bool formatChanged = false;
    for (const NamedChange& n : d.formats)
        formatChanged |= n.change != Change::Unchanged;
    if (formatChanged) {
        out += QStringLiteral("\n### Formats\n\n| Document | %1 | %2 |\n|---|---|---|\n")
                   .arg(mdCell(from), mdCell(to));
        for (const NamedChange& n : d.formats)
            if (n.change != Change::Unchanged)
                out += QStringLiteral("| %1 | %2 | %3 |\n")
                           .arg(n.name, mdCell(orDash(n.from)), mdCell(orDash(n.to)));
    }
    out += QStringLiteral("\n### Leaf recipes\n\n| Leaf | Change | Evidence digest |\n|---|---|---|\n");
    for (const NamedChange& n : d.leaves) {
        if (options.ignoreVersionOnly && n.versionOnly)
            continue;
        QString cell = n.change == Change::Changed
                           ? QStringLiteral("`%1` → `%2`").arg(prefixedDigest(n.from), prefixedDigest(n.to))
                           : QStringLiteral("`%1`").arg(prefixedDigest(n.to.isEmpty() ? n.from : n.to));
        for (const FieldChange& f : n.fields)
            if (f.field != QLatin1String("evidenceDigest"))
                cell += QStringLiteral("<br>%1: %2").arg(f.field, mdCell(arrow(f.from, f.to)));
        out += QStringLiteral("| %1 | %2 | %3 |\n")
                   .arg(n.name, changeName(n.change) + versionOnlyMark(n.versionOnly), cell);
    }
    out +=
        QStringLiteral("\n### Registry components\n\n| Component | %1 | %2 | Change |\n|---|---|---|---|\n")
            .arg(mdCell(from), mdCell(to));
    for (const NamedChange& n : d.registry) {
        if (options.ignoreVersionOnly && n.versionOnly)
            continue;
        QString change = changeName(n.change) + versionOnlyMark(n.versionOnly);
        if (n.change == Change::Changed && n.from == n.to) {
            QStringList names;
            for (const FieldChange& f : n.fields)
                names << f.field;
            change += QStringLiteral(": ") + names.join(QStringLiteral(", "));
        }
        out += QStringLiteral("| %1 | %2 | %3 | %4 |\n")
                   .arg(n.name, mdCell(orDash(n.from)), mdCell(orDash(n.to)), mdCell(change));
    }
    return out;
}

QJsonObject toJson(const CatalogDiff& d, const DiffOptions& options) {
    QJsonArray moves;
    for (const auto& [name, n] : d.componentMoves)
        moves.append(QJsonObject{{QStringLiteral("component"), name}, {QStringLiteral("leaves"), n}});
    int hidden = 0;
    QJsonObject o{{QStringLiteral("from"), d.fromLabel},
                  {QStringLiteral("to"), d.toLabel},
                  {QStringLiteral("fromSample"), d.fromSample},
                  {QStringLiteral("toSample"), d.toSample},
                  {QStringLiteral("leafDigest"), QStringLiteral("evidenceDigest")},
                  {QStringLiteral("formats"), namedJson(d.formats, options, &hidden)},
                  {QStringLiteral("leaves"), namedJson(d.leaves, options, &hidden)},
                  {QStringLiteral("overlays"), namedJson(d.overlays, options, &hidden)},
                  {QStringLiteral("mixins"), namedJson(d.mixins, options, &hidden)},
                  {QStringLiteral("registry"), namedJson(d.registry, options, &hidden)},
                  {QStringLiteral("validators"), namedJson(d.validators, options, &hidden)},
                  {QStringLiteral("componentMoves"), moves}};
    if (d.fromSample || d.toSample)
        o.insert(QStringLiteral("sample"), true);
    if (options.ignoreVersionOnly)
        o.insert(QStringLiteral("hiddenVersionOnly"), hidden);
    return o;
}

} // namespace pb::catalog
