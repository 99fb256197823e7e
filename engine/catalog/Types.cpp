#include "catalog/Types.h"

#include "core/Hash.h"
#include <QSet>

#include <algorithm>

namespace pb::catalog {

ApiVersion classifyApiVersion(const QString& text) {
    ApiVersion v;
    v.text = text;
    const int slash = text.indexOf(QLatin1Char('/'));
    const QString group = slash < 0 ? QString() : text.left(slash);
    v.maturity = slash < 0 ? text : text.mid(slash + 1);
    if (group == QLatin1String("aicr.nvidia.com") && v.maturity == QLatin1String("v1alpha1"))
        v.track = ApiTrack::Legacy;
    else if (group == QLatin1String("aicr.run")) {
        if (v.maturity == QLatin1String("v1alpha2") || v.maturity == QLatin1String("v1beta1"))
            v.track = ApiTrack::Authoring;
        else if (v.maturity == QLatin1String("v1alpha3") || v.maturity == QLatin1String("v1beta2"))
            v.track = ApiTrack::Profile;
        else if (v.maturity == QLatin1String("v1"))
            v.track = ApiTrack::Stable;
    } else if ((group == QLatin1String("validator.nvidia.com") && v.maturity == QLatin1String("v1alpha1")) ||
               (group == QLatin1String("aicr.nvidia.com") && v.maturity == QLatin1String("v1"))) {
        v.track = ApiTrack::Validator; // v0.11-era validator catalogs used aicr.nvidia.com/v1
    }
    return v;
}

const QStringList& Criteria::dimensions() {
    static const QStringList dims = {QStringLiteral("service"), QStringLiteral("accelerator"),
                                     QStringLiteral("os"), QStringLiteral("intent"),
                                     QStringLiteral("platform")};
    return dims;
}

QString Criteria::get(const QString& d) const {
    if (d == QLatin1String("service"))
        return service;
    if (d == QLatin1String("accelerator"))
        return accelerator;
    if (d == QLatin1String("os"))
        return os;
    if (d == QLatin1String("intent"))
        return intent;
    if (d == QLatin1String("platform"))
        return platform;
    return {};
}

void Criteria::set(const QString& d, const QString& value) {
    if (d == QLatin1String("service"))
        service = value;
    else if (d == QLatin1String("accelerator"))
        accelerator = value;
    else if (d == QLatin1String("os"))
        os = value;
    else if (d == QLatin1String("intent"))
        intent = value;
    else if (d == QLatin1String("platform"))
        platform = value;
}

static bool isWild(const QString& v) {
    return v.isEmpty() || v == QLatin1String("any");
}

bool Criteria::matches(const Criteria& query) const {
    for (const QString& d : dimensions()) {
        const QString mine = get(d);
        if (isWild(mine))
            continue; // overlay does not care
        const QString theirs = query.get(d);
        if (isWild(theirs) || mine != theirs)
            return false; // overlay is specific and the query is not, or differs
    }
    return true;
}

int Criteria::specificity() const {
    int s = 0;
    for (const QString& d : dimensions())
        if (!isWild(get(d)))
            ++s;
    if (nodes != 0)
        ++s;
    return s;
}

bool Criteria::isEmpty() const {
    for (const QString& d : dimensions())
        if (!get(d).isEmpty())
            return false;
    return nodes == 0;
}

QString Criteria::summary() const {
    QStringList parts;
    for (const QString& d : dimensions())
        parts << (get(d).isEmpty() ? QStringLiteral("any") : get(d));
    return parts.join(QStringLiteral(" / "));
}

ConstraintValue parseConstraintValue(const QString& value) {
    const QString v = value.trimmed();
    for (const char* op : {">=", "<=", "==", "!=", ">", "<"}) // longest first
        if (v.startsWith(QLatin1String(op)))
            return ConstraintValue{QString::fromLatin1(op), v.mid(static_cast<int>(qstrlen(op))).trimmed()};
    return ConstraintValue{QString(), v};
}

bool ComponentRef::isEnabled() const {
    if (!overrides.isMap())
        return true;
    for (const char* key : {"enabled", "install"}) {
        const yaml::Node* v = overrides.get(key);
        if (v && v->isScalar() && v->resolve() == yaml::Resolved::Bool &&
            (v->scalar == "false" || v->scalar == "False" || v->scalar == "FALSE"))
            return false;
    }
    return true;
}

const QStringList& Validation::phaseNames() {
    static const QStringList names = {QStringLiteral("readiness"), QStringLiteral("deployment"),
                                      QStringLiteral("performance"), QStringLiteral("conformance")};
    return names;
}

std::optional<ValidationPhase>& Validation::phase(const QString& name) {
    if (name == QLatin1String("readiness"))
        return readiness;
    if (name == QLatin1String("deployment"))
        return deployment;
    if (name == QLatin1String("performance"))
        return performance;
    return conformance;
}

const std::optional<ValidationPhase>& Validation::phase(const QString& name) const {
    return const_cast<Validation*>(this)->phase(name);
}

bool Validation::isEmpty() const {
    return !readiness && !deployment && !performance && !conformance;
}

const ValidatorCheck* ValidatorCatalog::find(const QString& n) const {
    for (const ValidatorCheck& c : checks)
        if (c.name == n)
            return &c;
    return nullptr;
}

template <typename T> static const T* findByName(const std::vector<T>& v, const QString& name) {
    auto it =
        std::lower_bound(v.begin(), v.end(), name, [](const T& a, const QString& b) { return a.name < b; });
    return it != v.end() && it->name == name ? &*it : nullptr;
}

const Overlay* Catalog::overlay(const QString& name) const {
    return findByName(overlays, name);
}

const Overlay* Catalog::mixin(const QString& name) const {
    return findByName(mixins, name);
}

const RegistryComponent* Catalog::component(const QString& name) const {
    for (const RegistryComponent& c : registry)
        if (c.name == name)
            return &c;
    return nullptr;
}

const CatalogFile* Catalog::file(const QString& path) const {
    auto it = std::lower_bound(files.begin(), files.end(), path,
                               [](const CatalogFile& a, const QString& b) { return a.path < b; });
    return it != files.end() && it->path == path ? &*it : nullptr;
}

QStringList Catalog::leafNames() const {
    QSet<QString> parents;
    for (const Overlay& o : overlays)
        parents.insert(o.spec.base.isEmpty() ? QStringLiteral("base") : o.spec.base);
    QStringList leaves;
    for (const Overlay& o : overlays)
        if (o.name != QLatin1String("base") && o.spec.hasCriteria && !parents.contains(o.name))
            leaves << o.name;
    return leaves;
}

QString Catalog::contentDigest() const {
    Sha256 h;
    for (const CatalogFile& f : files) {
        const QByteArray p = f.path.toUtf8();
        h.add(QByteArray::number(p.size()) + ':' + p + '\n');
        h.add(QByteArray::number(f.bytes.size()) + ':');
        h.add(f.bytes);
    }
    return QString::fromLatin1(h.result().toHex());
}

} // namespace pb::catalog
