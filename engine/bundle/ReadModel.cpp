// Model.h: names, JSON forms, flattening and Helm's values merge.
#include "bundle/Model.h"

#include <QJsonDocument>
#include <QSet>

namespace pb::bundle::model {

QString deployerName(Deployer d) {
    switch (d) {
    case Deployer::Helm:
        return QStringLiteral("helm");
    case Deployer::ArgoCD:
        return QStringLiteral("argocd");
    case Deployer::ArgoCDHelm:
        return QStringLiteral("argocd-helm");
    case Deployer::Flux:
        return QStringLiteral("flux");
    case Deployer::Helmfile:
        return QStringLiteral("helmfile");
    }
    return QStringLiteral("helm");
}

std::optional<Deployer> parseDeployer(const QString& name) {
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("helm"))
        return Deployer::Helm;
    if (n == QLatin1String("argocd") || n == QLatin1String("argo-cd"))
        return Deployer::ArgoCD;
    if (n == QLatin1String("argocd-helm") || n == QLatin1String("argocdhelm") ||
        n == QLatin1String("argocd_helm"))
        return Deployer::ArgoCDHelm;
    if (n == QLatin1String("flux"))
        return Deployer::Flux;
    if (n == QLatin1String("helmfile"))
        return Deployer::Helmfile;
    return std::nullopt;
}

QString objectNoun(Deployer d) {
    switch (d) {
    case Deployer::Helm:
        return QStringLiteral("Helm release");
    case Deployer::ArgoCD:
    case Deployer::ArgoCDHelm:
        return QStringLiteral("Argo CD Application");
    case Deployer::Flux:
        return QStringLiteral("Flux HelmRelease");
    case Deployer::Helmfile:
        return QStringLiteral("helmfile release");
    }
    return {};
}

QString Field::display() const {
    return templated ? QStringLiteral("templated: ") + text : text;
}

int DeployBundle::distinctSyncWaves() const {
    QSet<int> waves;
    for (const Component& c : components)
        if (c.syncWave)
            waves.insert(*c.syncWave);
    return static_cast<int>(waves.size());
}

bool DeployBundle::hasParentApplication() const {
    if (deployer != Deployer::ArgoCD && deployer != Deployer::ArgoCDHelm)
        return false;
    for (const BundleFile& f : files)
        if (f.role == QLatin1String("app-of-apps"))
            return true;
    return false;
}

const Component* DeployBundle::component(const QString& name) const {
    for (const Component& c : components)
        if (c.name == name)
            return &c;
    return nullptr;
}

const BundleFile* DeployBundle::file(const QString& path) const {
    for (const BundleFile& f : files)
        if (f.path == path)
            return &f;
    return nullptr;
}

QJsonObject toJson(const Field& f) {
    QJsonObject o{{QStringLiteral("text"), f.text}};
    if (f.templated)
        o.insert(QStringLiteral("templated"), true);
    return o;
}

QJsonObject toJson(const Component& c) {
    QJsonObject o;
    o.insert(QStringLiteral("name"), c.name);
    o.insert(QStringLiteral("order"), c.order);
    if (!c.valuesComplete)
        o.insert(QStringLiteral("valuesComplete"), false); // some values live outside the bundle
    if (!c.folder.isEmpty())
        o.insert(QStringLiteral("folder"), c.folder);
    if (c.syncWave)
        o.insert(QStringLiteral("syncWave"), *c.syncWave);
    if (!c.syncWaveText.isEmpty())
        o.insert(QStringLiteral("syncWaveText"), c.syncWaveText);
    o.insert(QStringLiteral("source"), c.source);
    o.insert(QStringLiteral("release"), toJson(c.release));
    o.insert(QStringLiteral("chart"), toJson(c.chart));
    o.insert(QStringLiteral("repository"), toJson(c.repository));
    o.insert(QStringLiteral("version"), toJson(c.version));
    o.insert(QStringLiteral("namespace"), toJson(c.namespace_));
    o.insert(QStringLiteral("valueFiles"), QJsonArray::fromStringList(c.valueFiles));
    o.insert(QStringLiteral("values"), c.values);
    if (c.valuesTemplated) {
        o.insert(QStringLiteral("valuesTemplated"), true);
        o.insert(QStringLiteral("valuesTemplate"), c.valuesTemplate);
    }
    o.insert(QStringLiteral("manifests"), QJsonArray::fromStringList(c.manifests));
    o.insert(QStringLiteral("dependsOn"), QJsonArray::fromStringList(c.dependsOn));
    o.insert(QStringLiteral("objectKind"), c.objectKind);
    o.insert(QStringLiteral("objectFile"), c.objectFile);
    o.insert(QStringLiteral("object"), c.object);
    o.insert(QStringLiteral("templatedFields"), QJsonArray::fromStringList(c.templatedFields));
    o.insert(QStringLiteral("notes"), QJsonArray::fromStringList(c.notes));
    return o;
}

QJsonObject toJson(const BundleFile& f) {
    QJsonObject o{{QStringLiteral("path"), f.path},
                  {QStringLiteral("role"), f.role},
                  {QStringLiteral("size"), f.size},
                  {QStringLiteral("sha256"), f.sha256}};
    if (!f.component.isEmpty())
        o.insert(QStringLiteral("component"), f.component);
    return o;
}

QJsonObject toJson(const DeployBundle& b) {
    QJsonObject o;
    o.insert(QStringLiteral("root"), b.root);
    o.insert(QStringLiteral("deployer"), deployerName(b.deployer));
    o.insert(QStringLiteral("treeDigest"), QStringLiteral("sha256:") + b.treeDigest);
    o.insert(QStringLiteral("totalBytes"), b.totalBytes);
    o.insert(QStringLiteral("distinctSyncWaves"), b.distinctSyncWaves());
    QJsonArray comps;
    for (const Component& c : b.components)
        comps.append(toJson(c));
    o.insert(QStringLiteral("components"), comps);
    QJsonArray files;
    for (const BundleFile& f : b.files)
        files.append(toJson(f));
    o.insert(QStringLiteral("files"), files);
    o.insert(QStringLiteral("unknownFiles"), QJsonArray::fromStringList(b.unknownFiles));
    if (!b.recipePath.isEmpty()) {
        QJsonObject r{{QStringLiteral("path"), b.recipePath}, {QStringLiteral("sha256"), b.recipeSha256}};
        if (!b.recipeEvidenceDigest.isEmpty())
            r.insert(QStringLiteral("evidenceDigest"), QStringLiteral("sha256:") + b.recipeEvidenceDigest);
        if (!b.recipeName.isEmpty())
            r.insert(QStringLiteral("name"), b.recipeName);
        o.insert(QStringLiteral("recipe"), r);
    }
    o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(b.warnings));
    return o;
}

namespace {
void flattenInto(const QJsonValue& v, const QString& path, std::vector<std::pair<QString, QString>>& out) {
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        if (o.isEmpty() && !path.isEmpty()) {
            out.emplace_back(path, QStringLiteral("{}"));
            return;
        }
        for (auto it = o.begin(); it != o.end(); ++it)
            flattenInto(it.value(), path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key(), out);
        return;
    }
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        if (a.isEmpty()) {
            out.emplace_back(path, QStringLiteral("[]"));
            return;
        }
        for (qsizetype i = 0; i < a.size(); ++i)
            flattenInto(a.at(i), path + QStringLiteral("[%1]").arg(i), out);
        return;
    }
    if (v.isString())
        out.emplace_back(path, v.toString());
    else if (v.isBool())
        out.emplace_back(path, v.toBool() ? QStringLiteral("true") : QStringLiteral("false"));
    else if (v.isNull() || v.isUndefined())
        out.emplace_back(path, QStringLiteral("null"));
    else {
        QJsonArray wrap{v};
        QByteArray t = QJsonDocument(wrap).toJson(QJsonDocument::Compact);
        out.emplace_back(path, QString::fromUtf8(t.mid(1, t.size() - 2)));
    }
}
} // namespace

std::vector<std::pair<QString, QString>> flatten(const QJsonValue& v) {
    std::vector<std::pair<QString, QString>> out;
    flattenInto(v, QString(), out);
    return out;
}

QJsonObject mergeValues(const QJsonObject& base, const QJsonObject& over) {
    QJsonObject out = base;
    for (auto it = over.begin(); it != over.end(); ++it) {
        if (it.value().isObject() && out.value(it.key()).isObject())
            out.insert(it.key(), mergeValues(out.value(it.key()).toObject(), it.value().toObject()));
        else
            out.insert(it.key(), it.value());
    }
    return out;
}

} // namespace pb::bundle::model
