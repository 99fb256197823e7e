#include "bundle/Diff.h"
#include "bundle/TreeDigest.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>

#include <map>

namespace pb::bundle::model {

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
    case Change::Unknown:
        return QStringLiteral("unknown");
    }
    return {};
}

bool ComponentChange::valuesChanged() const {
    return std::any_of(values.begin(), values.end(),
                       [](const ValueChange& v) { return v.change != Change::Unknown; });
}

namespace {

std::vector<ValueChange> diffFlat(const QJsonValue& a, const QJsonValue& b) {
    std::map<QString, QString> fa, fb;
    for (auto& [k, v] : flatten(a))
        fa[k] = v;
    for (auto& [k, v] : flatten(b))
        fb[k] = v;
    std::vector<ValueChange> out;
    for (const auto& [k, v] : fa) {
        auto it = fb.find(k);
        if (it == fb.end())
            out.push_back({k, Change::Removed, v, {}});
        else if (it->second != v)
            out.push_back({k, Change::Changed, v, it->second});
    }
    for (const auto& [k, v] : fb)
        if (!fa.count(k))
            out.push_back({k, Change::Added, {}, v});
    std::sort(out.begin(), out.end(),
              [](const ValueChange& x, const ValueChange& y) { return x.path < y.path; });
    return out;
}

// Manifests of a component by their path inside its folder (a folder may be renumbered).
std::map<QString, QString> manifestDigests(const DeployBundle& b, const Component& c) {
    std::map<QString, QString> out;
    for (const QString& p : c.manifests) {
        const BundleFile* f = b.file(p);
        QString rel = p;
        if (!c.folder.isEmpty() && rel.startsWith(c.folder + QLatin1Char('/')))
            rel = rel.mid(c.folder.size() + 1);
        out[rel] = f ? f->sha256 : QString();
    }
    return out;
}

QJsonObject fieldPair(const Field& a, const Field& b) {
    return QJsonObject{{QStringLiteral("from"), a.text},
                       {QStringLiteral("to"), b.text},
                       {QStringLiteral("templated"), a.templated || b.templated}};
}

QJsonArray valueChangesJson(const std::vector<ValueChange>& vs) {
    QJsonArray a;
    for (const ValueChange& v : vs) {
        QJsonObject o{{QStringLiteral("path"), v.path}, {QStringLiteral("change"), changeName(v.change)}};
        if (v.change != Change::Added)
            o.insert(QStringLiteral("from"),
                     v.from.isNull() && v.change == Change::Unknown ? QJsonValue() : QJsonValue(v.from));
        if (v.change != Change::Removed)
            o.insert(QStringLiteral("to"),
                     v.to.isNull() && v.change == Change::Unknown ? QJsonValue() : QJsonValue(v.to));
        a.append(o);
    }
    return a;
}

QString plural(int n, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

// What a bundle's objects are called, singular or plural by `n`.
QString objectsNoun(Deployer d, int n) {
    switch (d) {
    case Deployer::Helm:
        return n == 1 ? QStringLiteral("Helm release") : QStringLiteral("Helm releases");
    case Deployer::ArgoCD:
    case Deployer::ArgoCDHelm:
        return n == 1 ? QStringLiteral("Argo CD Application") : QStringLiteral("Argo CD Applications");
    case Deployer::Flux:
        return n == 1 ? QStringLiteral("Flux HelmRelease") : QStringLiteral("Flux HelmReleases");
    case Deployer::Helmfile:
        return n == 1 ? QStringLiteral("helmfile release") : QStringLiteral("helmfile releases");
    }
    return {};
}

// "17 Argo CD Applications (16 components and the app-of-apps parent)", "1 Helm release".
QString objectsText(Deployer d, int components, bool parent) {
    const int n = components + (parent ? 1 : 0);
    QString s = QStringLiteral("%1 %2").arg(n).arg(objectsNoun(d, n));
    if (parent)
        s += QStringLiteral(" (%1 and the app-of-apps parent)")
                 .arg(plural(components, QStringLiteral("component"), QStringLiteral("components")));
    return s;
}

QString objectWord(Deployer d) {
    switch (d) {
    case Deployer::ArgoCD:
    case Deployer::ArgoCDHelm:
        return QStringLiteral("Application");
    case Deployer::Flux:
        return QStringLiteral("HelmRelease");
    case Deployer::Helm:
        return QStringLiteral("Helm release");
    case Deployer::Helmfile:
        return QStringLiteral("helmfile release");
    }
    return {};
}

QString waveText(const std::optional<int>& w) {
    return w ? QString::number(*w) : QStringLiteral("-");
}

QString orderText(int o) {
    return o < 0 ? QStringLiteral("-") : QString::number(o + 1);
}

QString md(QString s) {
    s.replace(QLatin1Char('|'), QLatin1String("\\|"));
    s.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return s.isEmpty() ? QStringLiteral("—") : s;
}

// The names of `names` that `other` also has, in the order of `names`.
QStringList commonOrder(const QStringList& names, const QStringList& other) {
    QStringList out;
    for (const QString& n : names)
        if (other.contains(n))
            out << n;
    return out;
}

void setSides(ComponentChange& cc, const Component* a, const Component* b) {
    if (a) {
        cc.fromOrder = a->order;
        cc.fromWave = a->syncWave;
        cc.fromChart = a->chart;
        cc.fromRepository = a->repository;
        cc.fromVersion = a->version;
        cc.fromNamespace = a->namespace_;
        cc.fromSource = a->source;
    }
    if (b) {
        cc.toOrder = b->order;
        cc.toWave = b->syncWave;
        cc.toChart = b->chart;
        cc.toRepository = b->repository;
        cc.toVersion = b->version;
        cc.toNamespace = b->namespace_;
        cc.toSource = b->source;
    }
}

// The manifests of a component present on both sides, added, removed and changed.
void diffManifests(ComponentChange& cc, const DeployBundle& from, const Component& a, const DeployBundle& to,
                   const Component& b) {
    const auto ma = manifestDigests(from, a), mb = manifestDigests(to, b);
    for (const auto& [p, h] : ma) {
        auto it = mb.find(p);
        if (it == mb.end())
            cc.manifestsRemoved << p;
        else if (it->second != h)
            cc.manifestsChanged << p;
    }
    for (const auto& [p, h] : mb)
        if (!ma.count(p))
            cc.manifestsAdded << p;
}

// One component across the two bundles (a only in `from`, b only in `to`, or both).
ComponentChange compareComponent(const BundleDiff& d, const DeployBundle& from, const DeployBundle& to,
                                 const Component* a, const Component* b) {
    ComponentChange cc;
    const Component& any = a ? *a : *b;
    cc.name = any.name;
    setSides(cc, a, b);
    if (!a) {
        cc.change = Change::Added;
        return cc;
    }
    if (!b) {
        cc.change = Change::Removed;
        return cc;
    }
    cc.values = diffFlat(a->values, b->values);
    cc.fromValuesUnknown = !a->valuesComplete;
    cc.toValuesUnknown = !b->valuesComplete;
    if (cc.fromValuesUnknown || cc.toValuesUnknown)
        // A side that keeps values outside the bundle: what differs is unknown there, not absent.
        for (ValueChange& v : cc.values) {
            if (v.change == Change::Removed && cc.toValuesUnknown)
                v = {v.path, Change::Unknown, v.from, QString()};
            else if (v.change == Change::Added && cc.fromValuesUnknown)
                v = {v.path, Change::Unknown, QString(), v.to};
            else if (v.change == Change::Changed)
                v.change = Change::Unknown;
        }
    if (a->valuesTemplate != b->valuesTemplate)
        cc.values.push_back(
            {QStringLiteral("(values template)"), Change::Changed, a->valuesTemplate, b->valuesTemplate});
    cc.objectFields = diffFlat(a->object, b->object);
    diffManifests(cc, from, *a, to, *b);
    const bool changed = cc.chartChanged() || cc.versionChanged() || cc.repositoryMoved() ||
                         cc.namespaceChanged() || cc.waveChanged() || cc.fromSource != cc.toSource ||
                         cc.valuesChanged() || !cc.objectFields.empty() || !cc.manifestsAdded.isEmpty() ||
                         !cc.manifestsRemoved.isEmpty() || !cc.manifestsChanged.isEmpty() ||
                         (d.orderChanged && d.fromOrder.indexOf(cc.name) >= 0 &&
                          // moved relative to the components on both sides
                          commonOrder(d.fromOrder, d.toOrder).indexOf(cc.name) !=
                              commonOrder(d.toOrder, d.fromOrder).indexOf(cc.name));
    cc.change = changed ? Change::Changed : Change::Unchanged;
    return cc;
}

// Files removed, changed and added between the bundles, by path.
std::vector<FileChange> diffFiles(const DeployBundle& from, const DeployBundle& to) {
    std::vector<FileChange> out;
    std::map<QString, const BundleFile*> fa, fb;
    for (const BundleFile& f : from.files)
        fa[f.path] = &f;
    for (const BundleFile& f : to.files)
        fb[f.path] = &f;
    for (const auto& [p, f] : fa) {
        auto it = fb.find(p);
        if (it == fb.end())
            out.push_back({p, Change::Removed, f->role});
        else if (it->second->sha256 != f->sha256)
            out.push_back({p, Change::Changed, it->second->role});
    }
    for (const auto& [p, f] : fb)
        if (!fa.count(p))
            out.push_back({p, Change::Added, f->role});
    std::sort(out.begin(), out.end(),
              [](const FileChange& a, const FileChange& b) { return a.path < b.path; });
    return out;
}

// One value (or object field) change, as a sentence: an addition and a removal are one, not an arrow
// from nothing; an unknown value says which side does not know it.
QString valueLine(const ValueChange& v, const ComponentChange& cc) {
    switch (v.change) {
    case Change::Added:
        return QStringLiteral("added %1 = %2").arg(v.path, v.to);
    case Change::Removed:
        return QStringLiteral("removed %1 (was %2)").arg(v.path, v.from);
    case Change::Unknown: {
        const QString side = cc.toValuesUnknown && cc.fromValuesUnknown ? QStringLiteral("either bundle")
                             : cc.toValuesUnknown                       ? QStringLiteral("the second bundle")
                                                                        : QStringLiteral("the first bundle");
        const QString known = !v.from.isEmpty() && !v.to.isEmpty()
                                  ? QStringLiteral("%1 / %2").arg(v.from, v.to)
                                  : (v.from.isEmpty() ? v.to : v.from);
        return QStringLiteral("unknown %1 (%2; %3 keeps its values outside the bundle)")
            .arg(v.path, known, side);
    }
    case Change::Changed:
    case Change::Unchanged:
        break;
    }
    return QStringLiteral("changed %1: %2 -> %3").arg(v.path, v.from, v.to);
}

} // namespace

BundleDiff diffBundles(const DeployBundle& from, const DeployBundle& to) {
    BundleDiff d;
    d.fromName = from.root;
    d.toName = to.root;
    d.fromDeployer = from.deployer;
    d.toDeployer = to.deployer;
    d.fromDigest = from.treeDigest;
    d.toDigest = to.treeDigest;
    d.fromComponents = static_cast<int>(from.components.size());
    d.toComponents = static_cast<int>(to.components.size());
    d.fromParent = from.hasParentApplication();
    d.toParent = to.hasParentApplication();
    d.fromWaves = from.distinctSyncWaves();
    d.toWaves = to.distinctSyncWaves();
    for (const Component& c : from.components)
        d.fromOrder << c.name;
    for (const Component& c : to.components)
        d.toOrder << c.name;
    d.orderChanged = commonOrder(d.fromOrder, d.toOrder) != commonOrder(d.toOrder, d.fromOrder);
    for (const Component& c : to.components)
        d.components.push_back(compareComponent(d, from, to, from.component(c.name), &c));
    for (const Component& c : from.components)
        if (!to.component(c.name))
            d.components.push_back(compareComponent(d, from, to, &c, nullptr));
    d.files = diffFiles(from, to);
    d.fromUnknown = from.unknownFiles;
    d.toUnknown = to.unknownFiles;
    return d;
}

int BundleDiff::count(Change c) const {
    int n = 0;
    for (const ComponentChange& cc : components)
        n += cc.change == c;
    return n;
}

int BundleDiff::chartVersionChanges() const {
    int n = 0;
    for (const ComponentChange& cc : components)
        n += cc.change == Change::Changed && cc.versionChanged();
    return n;
}

int BundleDiff::repositoryMoves() const {
    int n = 0;
    for (const ComponentChange& cc : components)
        n += cc.change == Change::Changed && cc.repositoryMoved();
    return n;
}

int BundleDiff::changedObjects() const {
    int n = 0;
    for (const ComponentChange& cc : components)
        n += cc.change == Change::Changed && cc.objectChanged();
    return n;
}

int BundleDiff::waveChanges() const {
    int n = 0;
    for (const ComponentChange& cc : components)
        n += cc.change == Change::Changed && cc.waveChanged();
    return n;
}

int BundleDiff::valueChanges() const {
    int n = 0;
    for (const ComponentChange& cc : components)
        n += cc.change == Change::Changed && cc.valuesChanged();
    return n;
}

int BundleDiff::valuesUnknown() const {
    int n = 0;
    for (const ComponentChange& cc : components)
        n += (cc.fromValuesUnknown || cc.toValuesUnknown) ? 1 : 0;
    return n;
}

QJsonObject BundleDiff::toJson() const {
    QJsonObject o;
    auto side = [](const QString& name, Deployer d, const QString& digest, int comps, bool parent, int waves,
                   const QStringList& order, const QStringList& unknown) {
        return QJsonObject{{QStringLiteral("name"), name},
                           {QStringLiteral("deployer"), deployerName(d)},
                           {QStringLiteral("treeDigest"), QStringLiteral("sha256:") + digest},
                           {QStringLiteral("components"), comps},
                           {QStringLiteral("objects"), comps + (parent ? 1 : 0)},
                           {QStringLiteral("parentApplication"), parent},
                           {QStringLiteral("distinctSyncWaves"), waves},
                           {QStringLiteral("order"), QJsonArray::fromStringList(order)},
                           {QStringLiteral("unknownFiles"), QJsonArray::fromStringList(unknown)}};
    };
    o.insert(QStringLiteral("from"), side(fromName, fromDeployer, fromDigest, fromComponents, fromParent,
                                          fromWaves, fromOrder, fromUnknown));
    o.insert(QStringLiteral("to"),
             side(toName, toDeployer, toDigest, toComponents, toParent, toWaves, toOrder, toUnknown));
    o.insert(QStringLiteral("identical"), identical());
    o.insert(QStringLiteral("summary"),
             QJsonObject{{QStringLiteral("added"), count(Change::Added)},
                         {QStringLiteral("removed"), count(Change::Removed)},
                         {QStringLiteral("changed"), count(Change::Changed)},
                         {QStringLiteral("unchanged"), count(Change::Unchanged)},
                         {QStringLiteral("chartVersionChanges"), chartVersionChanges()},
                         {QStringLiteral("repositoryMoves"), repositoryMoves()},
                         {QStringLiteral("changedObjects"), changedObjects()},
                         {QStringLiteral("syncWaveChanges"), waveChanges()},
                         {QStringLiteral("valueChanges"), valueChanges()},
                         {QStringLiteral("valuesUnknown"), valuesUnknown()},
                         {QStringLiteral("orderChanged"), orderChanged},
                         {QStringLiteral("headline"), headline()}});
    QJsonArray comps;
    for (const ComponentChange& cc : components) {
        QJsonObject c{{QStringLiteral("name"), cc.name}, {QStringLiteral("change"), changeName(cc.change)}};
        c.insert(QStringLiteral("fromOrder"), cc.fromOrder < 0 ? QJsonValue() : QJsonValue(cc.fromOrder + 1));
        c.insert(QStringLiteral("toOrder"), cc.toOrder < 0 ? QJsonValue() : QJsonValue(cc.toOrder + 1));
        c.insert(QStringLiteral("fromSyncWave"), cc.fromWave ? QJsonValue(*cc.fromWave) : QJsonValue());
        c.insert(QStringLiteral("toSyncWave"), cc.toWave ? QJsonValue(*cc.toWave) : QJsonValue());
        c.insert(QStringLiteral("chart"), fieldPair(cc.fromChart, cc.toChart));
        c.insert(QStringLiteral("repository"), fieldPair(cc.fromRepository, cc.toRepository));
        c.insert(QStringLiteral("version"), fieldPair(cc.fromVersion, cc.toVersion));
        c.insert(QStringLiteral("namespace"), fieldPair(cc.fromNamespace, cc.toNamespace));
        if (cc.change == Change::Changed) {
            c.insert(QStringLiteral("values"), valueChangesJson(cc.values));
            c.insert(QStringLiteral("object"), valueChangesJson(cc.objectFields));
            c.insert(
                QStringLiteral("manifests"),
                QJsonObject{{QStringLiteral("added"), QJsonArray::fromStringList(cc.manifestsAdded)},
                            {QStringLiteral("removed"), QJsonArray::fromStringList(cc.manifestsRemoved)},
                            {QStringLiteral("changed"), QJsonArray::fromStringList(cc.manifestsChanged)}});
        }
        comps.append(c);
    }
    o.insert(QStringLiteral("components"), comps);
    QJsonArray fileList;
    for (const FileChange& f : files)
        fileList.append(QJsonObject{{QStringLiteral("path"), f.path},
                                    {QStringLiteral("change"), changeName(f.change)},
                                    {QStringLiteral("role"), f.role}});
    o.insert(QStringLiteral("files"), fileList);
    return o;
}

QString BundleDiff::headline() const {
    QStringList parts;
    // The objects each side deploys, counted whole (an Argo CD bundle's app-of-apps parent too) and
    // saying what they count.
    if (fromDeployer == toDeployer && fromParent == toParent) {
        const int a = fromComponents + (fromParent ? 1 : 0), b = toComponents + (toParent ? 1 : 0);
        QString text = a == b ? QStringLiteral("%1 %2 on both sides").arg(b).arg(objectsNoun(toDeployer, b))
                              : QStringLiteral("%1 → %2 %3").arg(a).arg(b).arg(objectsNoun(toDeployer, b));
        if (toParent)
            text += fromComponents == toComponents
                        ? QStringLiteral(" (%1 and the app-of-apps parent)")
                              .arg(plural(toComponents, QStringLiteral("component"),
                                          QStringLiteral("components")))
                        : QStringLiteral(" (%1 → %2 components and the app-of-apps parent)")
                              .arg(fromComponents)
                              .arg(toComponents);
        parts << text;
    } else {
        parts << objectsText(fromDeployer, fromComponents, fromParent) + QStringLiteral(" → ") +
                     objectsText(toDeployer, toComponents, toParent);
    }
    if (fromWaves == toWaves)
        parts << (toWaves == 0 ? QStringLiteral("no sync-waves (deployment order only)")
                               : plural(toWaves, QStringLiteral("distinct sync-wave"),
                                        QStringLiteral("distinct sync-waves")));
    else
        parts << QStringLiteral("%1 → %2 distinct sync-waves").arg(fromWaves).arg(toWaves);
    if (count(Change::Added))
        parts << QStringLiteral("%1 added").arg(count(Change::Added));
    if (count(Change::Removed))
        parts << QStringLiteral("%1 removed").arg(count(Change::Removed));
    parts << QStringLiteral("%1 changed %2 %3")
                 .arg(changedObjects())
                 .arg(objectWord(toDeployer),
                      changedObjects() == 1 ? QStringLiteral("object") : QStringLiteral("objects"));
    if (valuesUnknown())
        parts << QStringLiteral("values unknown for %1 (kept outside a bundle)")
                     .arg(plural(valuesUnknown(), QStringLiteral("component"), QStringLiteral("components")));
    parts << plural(chartVersionChanges(), QStringLiteral("chart-version change"),
                    QStringLiteral("chart-version changes"));
    if (repositoryMoves())
        parts << plural(repositoryMoves(), QStringLiteral("repository move"),
                        QStringLiteral("repository moves"));
    if (waveChanges())
        parts << plural(waveChanges(), QStringLiteral("sync-wave change"),
                        QStringLiteral("sync-wave changes"));
    if (orderChanged)
        parts << QStringLiteral("deployment order changed");
    return parts.join(QStringLiteral(", "));
}

QString BundleDiff::toMarkdown() const {
    QString s;
    s += QStringLiteral("**%1 → %2**: %3.\n\n").arg(md(fromName), md(toName), headline());
    if (identical()) {
        s += QStringLiteral("The two bundles are byte-identical (%1).\n").arg(treeDigestText(toDigest));
        return s;
    }
    QList<const ComponentChange*> changed;
    for (const ComponentChange& cc : components)
        if (cc.change != Change::Unchanged)
            changed << &cc;
    if (!changed.isEmpty()) {
        s += QStringLiteral(
            "| Component | Change | Chart | Version | Repository | Sync-wave | Order | Values | Object |\n");
        s += QStringLiteral("|---|---|---|---|---|---|---|---|---|\n");
        for (const ComponentChange* cc : changed) {
            auto pair = [](const Field& a, const Field& b) {
                if (a.text == b.text)
                    return md(b.display());
                return md(a.display()) + QStringLiteral(" → ") + md(b.display());
            };
            const QString wave = cc->fromWave == cc->toWave
                                     ? waveText(cc->toWave)
                                     : waveText(cc->fromWave) + QStringLiteral(" → ") + waveText(cc->toWave);
            const QString order =
                cc->fromOrder == cc->toOrder
                    ? orderText(cc->toOrder)
                    : orderText(cc->fromOrder) + QStringLiteral(" → ") + orderText(cc->toOrder);
            s += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 |\n")
                     .arg(md(cc->name), changeName(cc->change), pair(cc->fromChart, cc->toChart),
                          pair(cc->fromVersion, cc->toVersion), pair(cc->fromRepository, cc->toRepository),
                          wave, order,
                          cc->values.empty() ? QStringLiteral("—")
                                             : plural(static_cast<int>(cc->values.size()),
                                                      QStringLiteral("path"), QStringLiteral("paths")),
                          cc->objectFields.empty()
                              ? QStringLiteral("—")
                              : plural(static_cast<int>(cc->objectFields.size()), QStringLiteral("field"),
                                       QStringLiteral("fields")));
        }
        s += QLatin1Char('\n');
    }
    bool anyValues = false;
    for (const ComponentChange* cc : changed)
        anyValues = anyValues || !cc->values.empty();
    if (anyValues) {
        s += QStringLiteral("Values:\n\n| Component | Path | Change | From | To |\n|---|---|---|---|---|\n");
        for (const ComponentChange* cc : changed)
            for (const ValueChange& v : cc->values)
                s += QStringLiteral("| %1 | `%2` | %3 | %4 | %5 |\n")
                         .arg(md(cc->name), v.path, changeName(v.change),
                              v.change == Change::Added                         ? QStringLiteral("(not set)")
                              : v.change == Change::Unknown && v.from.isEmpty() ? QStringLiteral("(unknown)")
                                                                                : md(v.from),
                              v.change == Change::Removed                     ? QStringLiteral("(not set)")
                              : v.change == Change::Unknown && v.to.isEmpty() ? QStringLiteral("(unknown)")
                                                                              : md(v.to));
        s += QLatin1Char('\n');
    }
    if (!toUnknown.isEmpty())
        s += QStringLiteral("Files no deployer layout explains (in %1): %2\n")
                 .arg(md(toName), toUnknown.join(QStringLiteral(", ")));
    return s;
}

QString BundleDiff::toText() const {
    QString s;
    s += QStringLiteral("from %1 (%2, %3, %4)\n")
             .arg(fromName, deployerName(fromDeployer),
                  plural(fromComponents, QStringLiteral("component"), QStringLiteral("components")),
                  treeDigestText(fromDigest));
    s += QStringLiteral("to   %1 (%2, %3, %4)\n")
             .arg(toName, deployerName(toDeployer),
                  plural(toComponents, QStringLiteral("component"), QStringLiteral("components")),
                  treeDigestText(toDigest));
    s += headline() + QLatin1Char('\n');
    if (orderChanged)
        s += QStringLiteral("order: %1\n    -> %2\n")
                 .arg(fromOrder.join(QStringLiteral(", ")), toOrder.join(QStringLiteral(", ")));
    for (const ComponentChange& cc : components) {
        s += QStringLiteral("\n%1 %2").arg(changeName(cc.change), -9).arg(cc.name);
        if (cc.change == Change::Added || cc.change == Change::Removed) {
            const Field& chart = cc.change == Change::Added ? cc.toChart : cc.fromChart;
            const Field& version = cc.change == Change::Added ? cc.toVersion : cc.fromVersion;
            s += QStringLiteral("  %1 %2\n").arg(chart.display(), version.display());
            continue;
        }
        s += QLatin1Char('\n');
        if (cc.change == Change::Unchanged) {
            // Nothing known changed; values a side keeps outside the bundle are said to be unknown.
            for (const ValueChange& v : cc.values)
                s += QStringLiteral("  values ") + valueLine(v, cc) + QLatin1Char('\n');
            continue;
        }
        auto line = [&](const char* what, const Field& a, const Field& b) {
            if (a.text != b.text)
                s += QStringLiteral("  %1: %2 -> %3\n")
                         .arg(QString::fromLatin1(what), a.display(), b.display());
        };
        line("chart", cc.fromChart, cc.toChart);
        line("version", cc.fromVersion, cc.toVersion);
        line("repository", cc.fromRepository, cc.toRepository);
        line("namespace", cc.fromNamespace, cc.toNamespace);
        if (cc.fromWave != cc.toWave)
            s += QStringLiteral("  sync-wave: %1 -> %2\n").arg(waveText(cc.fromWave), waveText(cc.toWave));
        if (cc.fromOrder != cc.toOrder)
            s += QStringLiteral("  order: %1 -> %2\n").arg(orderText(cc.fromOrder), orderText(cc.toOrder));
        for (const ValueChange& v : cc.values)
            s += QStringLiteral("  values ") + valueLine(v, cc) + QLatin1Char('\n');
        for (const ValueChange& v : cc.objectFields)
            s += QStringLiteral("  object ") + valueLine(v, cc) + QLatin1Char('\n');
        for (const QString& m : cc.manifestsAdded)
            s += QStringLiteral("  manifest added %1\n").arg(m);
        for (const QString& m : cc.manifestsRemoved)
            s += QStringLiteral("  manifest removed %1\n").arg(m);
        for (const QString& m : cc.manifestsChanged)
            s += QStringLiteral("  manifest changed %1\n").arg(m);
    }
    if (!files.empty()) {
        s += QStringLiteral("\nfiles:\n");
        for (const FileChange& f : files)
            s += QStringLiteral("  %1 %2 (%3)\n").arg(changeName(f.change), -8).arg(f.path, f.role);
    }
    return s;
}

} // namespace pb::bundle::model
