#include "bundle/Diff.h"
#include "bundle/TreeDigest.h"

#include <QJsonArray>
#include <QSet>

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
    }
    return {};
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
            o.insert(QStringLiteral("from"), v.from);
        if (v.change != Change::Removed)
            o.insert(QStringLiteral("to"), v.to);
        a.append(o);
    }
    return a;
}

QString plural(int n, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

QString nounPlural(Deployer d) {
    switch (d) {
    case Deployer::Helm:
        return QStringLiteral("Helm releases");
    case Deployer::ArgoCD:
    case Deployer::ArgoCDHelm:
        return QStringLiteral("Argo CD Applications");
    case Deployer::Flux:
        return QStringLiteral("Flux HelmReleases");
    case Deployer::Helmfile:
        return QStringLiteral("helmfile releases");
    }
    return {};
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
    if (a->valuesTemplate != b->valuesTemplate)
        cc.values.push_back(
            {QStringLiteral("(values template)"), Change::Changed, a->valuesTemplate, b->valuesTemplate});
    cc.objectFields = diffFlat(a->object, b->object);
    diffManifests(cc, from, *a, to, *b);
    const bool changed = cc.chartChanged() || cc.versionChanged() || cc.repositoryMoved() ||
                         cc.namespaceChanged() || cc.waveChanged() || cc.fromSource != cc.toSource ||
                         !cc.values.empty() || !cc.objectFields.empty() || !cc.manifestsAdded.isEmpty() ||
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
        n += cc.change == Change::Changed && !cc.values.empty();
    return n;
}

QJsonObject BundleDiff::toJson() const {
    QJsonObject o;
    auto side = [](const QString& name, Deployer d, const QString& digest, int comps, int waves,
                   const QStringList& order, const QStringList& unknown) {
        return QJsonObject{{QStringLiteral("name"), name},
                           {QStringLiteral("deployer"), deployerName(d)},
                           {QStringLiteral("treeDigest"), QStringLiteral("sha256:") + digest},
                           {QStringLiteral("components"), comps},
                           {QStringLiteral("distinctSyncWaves"), waves},
                           {QStringLiteral("order"), QJsonArray::fromStringList(order)},
                           {QStringLiteral("unknownFiles"), QJsonArray::fromStringList(unknown)}};
    };
    o.insert(QStringLiteral("from"),
             side(fromName, fromDeployer, fromDigest, fromComponents, fromWaves, fromOrder, fromUnknown));
    o.insert(QStringLiteral("to"),
             side(toName, toDeployer, toDigest, toComponents, toWaves, toOrder, toUnknown));
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
    const QString noun = nounPlural(toDeployer);
    if (fromDeployer != toDeployer)
        parts << QStringLiteral("%1 %2 → %3 %4")
                     .arg(fromComponents)
                     .arg(nounPlural(fromDeployer))
                     .arg(toComponents)
                     .arg(noun);
    else if (fromComponents == toComponents)
        parts << QStringLiteral("%1 %2 on both sides").arg(toComponents).arg(noun);
    else
        parts << QStringLiteral("%1 → %2 %3").arg(fromComponents).arg(toComponents).arg(noun);
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
    parts << QStringLiteral("%1 changed %2 objects").arg(changedObjects()).arg(objectWord(toDeployer));
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
        s += QStringLiteral("Values changed:\n\n| Component | Path | From | To |\n|---|---|---|---|\n");
        for (const ComponentChange* cc : changed)
            for (const ValueChange& v : cc->values)
                s += QStringLiteral("| %1 | `%2` | %3 | %4 |\n")
                         .arg(md(cc->name), v.path, md(v.from), md(v.to));
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
        if (cc.change == Change::Unchanged)
            continue;
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
            s += QStringLiteral("  values %1 %2: %3 -> %4\n").arg(changeName(v.change), v.path, v.from, v.to);
        for (const ValueChange& v : cc.objectFields)
            s += QStringLiteral("  object %1 %2: %3 -> %4\n").arg(changeName(v.change), v.path, v.from, v.to);
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
