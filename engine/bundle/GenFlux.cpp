#include "bundle/GenFlux.h"

#include "bundle/GenCommon.h"

#include <QDir>

#include <map>
#include <set>

namespace pb::bundle {

using namespace gen;
using yaml::Node;

namespace {

constexpr char kDefaultFluxNamespace[] = "flux-system";
// AICR's flux placeholder for the bundle's own repository (its Git source needs some URL).
constexpr char kPlaceholderRepo[] = "https://github.com/YOUR_ORG/YOUR_REPO.git";

struct FluxContext {
    QString ns;        // where the Flux objects live
    QString gitSource; // the GitRepository's name
    BundleTree* tree = nullptr;
    QStringList resources; // for kustomization.yaml
};

bool hasUpstreamChart(const GenComponent& c) {
    return !c.source.isEmpty();
}

// The last release of a component: its -post release when it has a chart and manifests.
QString terminalRelease(const GenComponent& c) {
    return hasUpstreamChart(c) && !c.postManifests.empty() ? c.name + QStringLiteral("-post") : c.name;
}

Node dependsOnNode(const QStringList& names) {
    Node seq = Node::seq();
    for (const QString& n : names)
        seq.items.push_back(kv({{"name", s(n)}}));
    return seq;
}

// ConfigMap <release>-values with the install-time values, for spec.valuesFrom.
QString writeValuesConfigMap(FluxContext& ctx, const QString& release, const Node& values) {
    const QString name = release + QStringLiteral("-values");
    QByteArray text;
    if (values.isMap() && !values.entries.empty())
        text = encodeOrdered(sortedKeys(values));
    Node cm = Node::map();
    cm.set("apiVersion", s(QStringLiteral("v1")));
    cm.set("kind", s(QStringLiteral("ConfigMap")));
    cm.set("metadata", kv({{"name", s(name)}, {"namespace", s(ctx.ns)}}));
    cm.set("data", kv({{"values.yaml", Node::str(text.toStdString(), yaml::ScalarStyle::Literal)}}));
    const QString path = release + QStringLiteral("/configmap-values.yaml");
    put(*ctx.tree, path,
        documentHeader(QStringLiteral("Install-time values of %1, read by its HelmRelease").arg(release)) +
            encodeOrdered(cm));
    ctx.resources << path;
    return name;
}

struct ReleaseSpec {
    QString name, targetNamespace;
    Node chartSpec; // spec.chart.spec
    QStringList dependsOn;
    Node values = Node::map(); // inline (static) values
    Node dynamic = Node::map();
    bool hasDynamic = false;
};

void writeHelmRelease(FluxContext& ctx, const ReleaseSpec& r) {
    Node spec = Node::map();
    spec.set("interval", s(QStringLiteral("10m")));
    spec.set("targetNamespace", s(r.targetNamespace));
    spec.set("install", kv({{"createNamespace", Node::plain("true")}}));
    spec.set("chart", kv({{"spec", r.chartSpec}}));
    if (!r.dependsOn.isEmpty())
        spec.set("dependsOn", dependsOnNode(r.dependsOn));
    if (r.hasDynamic) {
        const QString cm = writeValuesConfigMap(ctx, r.name, r.dynamic);
        Node from = Node::seq();
        from.items.push_back(kv({{"kind", s(QStringLiteral("ConfigMap"))}, {"name", s(cm)}}));
        spec.set("valuesFrom", from);
    }
    if (r.values.isMap() && !r.values.entries.empty())
        spec.set("values", sortedKeys(r.values));
    Node hr = Node::map();
    hr.set("apiVersion", s(QStringLiteral("helm.toolkit.fluxcd.io/v2")));
    hr.set("kind", s(QStringLiteral("HelmRelease")));
    hr.set("metadata", kv({{"name", s(r.name)}, {"namespace", s(ctx.ns)}}));
    hr.set("spec", spec);
    const QString path = r.name + QStringLiteral("/helmrelease.yaml");
    put(*ctx.tree, path,
        documentHeader(QStringLiteral("Flux HelmRelease %1").arg(r.name)) + encodeOrdered(hr));
    ctx.resources << path;
}

bool hasDynamicValues(const GenComponent& c) {
    return !c.dynamicPaths.isEmpty() || (c.clusterValues.isMap() && !c.clusterValues.entries.empty());
}

// A local chart <release>/ holding the manifests as written, and its HelmRelease from the Git source.
Status writeLocalChart(FluxContext& ctx, const GenComponent& c, const QString& release,
                       const std::vector<GenManifest>& manifests, const QStringList& dependsOn) {
    std::set<QString> seen;
    std::vector<std::pair<QString, QByteArray>> files;
    for (const GenManifest& m : manifests) {
        const QString rel = QDir::cleanPath(m.path);
        if (rel.isEmpty() || rel.startsWith(QLatin1Char('/')) || rel == QLatin1String("..") ||
            rel.startsWith(QLatin1String("../")))
            return makeError(
                QStringLiteral("component '%1': manifest path '%2' leaves the chart's templates/")
                    .arg(c.name, m.path),
                {}, 0, QStringLiteral("manifestFiles"));
        if (!seen.insert(rel).second)
            return makeError(QStringLiteral("component '%1' lists manifest '%2' twice").arg(c.name, rel), {},
                             0, QStringLiteral("manifestFiles"));
        files.emplace_back(rel, m.bytes);
    }
    std::sort(files.begin(), files.end());
    for (const auto& [rel, bytes] : files)
        put(*ctx.tree, release + QStringLiteral("/templates/") + rel, bytes);
    Node chart = Node::map();
    chart.set("apiVersion", s(QStringLiteral("v2")));
    chart.set("name", s(release));
    chart.set("version", s(QStringLiteral("0.1.0")));
    chart.set("description", s(QStringLiteral("Manifests of %1 as a chart Flux installs").arg(c.name)));
    chart.set("type", s(QStringLiteral("application")));
    put(*ctx.tree, release + QStringLiteral("/Chart.yaml"),
        documentHeader(QStringLiteral("Local chart %1").arg(release)) + encodeOrdered(chart));

    ReleaseSpec r;
    r.name = release;
    r.targetNamespace = c.namespace_;
    r.chartSpec = kv({{"chart", s(QStringLiteral("./") + release)},
                      {"sourceRef", kv({{"kind", s(QStringLiteral("GitRepository"))},
                                        {"name", s(ctx.gitSource)},
                                        {"namespace", s(ctx.ns)}})},
                      {"interval", s(QStringLiteral("5m"))}});
    r.dependsOn = dependsOn;
    // The manifests read their values as index .Values "<component>": nest them under the name.
    if (c.values.isMap() && !c.values.entries.empty())
        r.values = kv({{c.name.toUtf8().constData(), c.values}});
    r.hasDynamic = hasDynamicValues(c);
    r.dynamic = kv({{c.name.toUtf8().constData(), c.clusterValues}});
    writeHelmRelease(ctx, r);
    return {};
}

void addFolder(BundleTree& tree, const GenComponent& c, const QString& release, bool local,
               const char* phase) {
    BundleFolder f;
    f.dir = release;
    f.name = release;
    f.component = c.name;
    f.kind = local ? QStringLiteral("local-helm") : QStringLiteral("upstream-helm");
    f.phase = QString::fromLatin1(phase);
    f.namespace_ = c.namespace_;
    tree.folders.push_back(f);
}

} // namespace

Status writeFluxBundle(BundleTree& tree, const GenerateInput& input,
                       const std::vector<const GenComponent*>& ordered, const GenerateOptions& options,
                       const std::atomic_bool* cancel) {
    FluxContext ctx;
    ctx.tree = &tree;
    ctx.ns =
        options.fluxNamespace.isEmpty() ? QString::fromLatin1(kDefaultFluxNamespace) : options.fluxNamespace;
    const QString repoUrl =
        options.repoUrl.isEmpty() ? QString::fromLatin1(kPlaceholderRepo) : options.repoUrl;
    const QString branch = options.targetRevision.isEmpty() ? QStringLiteral("main") : options.targetRevision;

    // Release names must not collide: a component's -pre/-post release with another component.
    std::set<QString> names;
    for (const GenComponent* c : ordered)
        names.insert(c->name);
    for (const GenComponent* c : ordered) {
        if (c->kustomize)
            return makeError(
                QStringLiteral("component '%1' is a Kustomize component; the flux deployer installs "
                               "Helm components only")
                    .arg(c->name),
                {}, 0, QStringLiteral("componentRefs.type"));
        if (!c->preManifests.empty() && names.count(c->name + QStringLiteral("-pre")))
            return makeError(
                QStringLiteral("component '%1' has pre-manifests, whose release %1-pre is also a "
                               "component of the recipe; rename one")
                    .arg(c->name),
                {}, 0, QStringLiteral("componentRefs.name"));
        if (hasUpstreamChart(*c) && !c->postManifests.empty() &&
            names.count(c->name + QStringLiteral("-post")))
            return makeError(
                QStringLiteral("component '%1' has a chart and manifests, whose release %1-post is "
                               "also a component of the recipe; rename one")
                    .arg(c->name),
                {}, 0, QStringLiteral("componentRefs.name"));
    }

    // Sources: one HelmRepository per chart repository, and the bundle's own Git repository.
    std::map<QString, std::pair<QString, bool>> helmRepos; // url -> name, oci
    for (const GenComponent* c : ordered)
        if (hasUpstreamChart(*c) && !helmRepos.count(c->source))
            helmRepos[c->source] = {urlSlug(c->source, QStringLiteral("default-source")),
                                    c->source.startsWith(QLatin1String("oci://"))};
    std::map<QString, std::pair<QString, bool>> byName;
    for (const auto& [url, v] : helmRepos)
        byName[v.first] = {url, v.second};
    for (const auto& [name, v] : byName) {
        Node spec = Node::map();
        if (v.second)
            spec.set("type", s(QStringLiteral("oci")));
        spec.set("url", s(v.first));
        spec.set("interval", s(QStringLiteral("10m")));
        Node repo = kv({{"apiVersion", s(QStringLiteral("source.toolkit.fluxcd.io/v1"))},
                        {"kind", s(QStringLiteral("HelmRepository"))},
                        {"metadata", kv({{"name", s(name)}, {"namespace", s(ctx.ns)}})},
                        {"spec", spec}});
        const QString path = QStringLiteral("sources/helmrepo-%1.yaml").arg(name);
        put(tree, path,
            documentHeader(QStringLiteral("Helm repository %1").arg(v.first)) + encodeOrdered(repo));
        ctx.resources << path;
    }
    ctx.gitSource = urlSlug(repoUrl, QStringLiteral("default-source"));
    {
        Node git = kv({{"apiVersion", s(QStringLiteral("source.toolkit.fluxcd.io/v1"))},
                       {"kind", s(QStringLiteral("GitRepository"))},
                       {"metadata", kv({{"name", s(ctx.gitSource)}, {"namespace", s(ctx.ns)}})},
                       {"spec", kv({{"url", s(repoUrl)},
                                    {"ref", kv({{"branch", s(branch)}})},
                                    {"interval", s(QStringLiteral("10m"))}})}});
        const QString path = QStringLiteral("sources/gitrepo-%1.yaml").arg(ctx.gitSource);
        put(tree, path,
            documentHeader(
                QStringLiteral("The Git repository this bundle is pushed to, for its local charts")) +
                encodeOrdered(git));
        ctx.resources << path;
    }

    // What each component waits for: the last release of each dependency, or the previous component.
    std::map<QString, const GenComponent*> present;
    for (const GenComponent* c : ordered)
        present[c->name] = c;
    std::map<QString, QStringList> dependsOn;
    QString previous;
    for (const GenComponent* c : ordered) {
        QStringList deps;
        if (options.serial) {
            if (!previous.isEmpty())
                deps << previous;
            previous = terminalRelease(*c);
        } else {
            for (const QString& d : c->dependencyRefs)
                if (auto it = present.find(d);
                    it != present.end() && !deps.contains(terminalRelease(*it->second)))
                    deps << terminalRelease(*it->second);
            deps.sort();
        }
        dependsOn[c->name] = deps;
    }

    for (const GenComponent* cp : ordered) {
        if (cancel && cancel->load())
            return makeError(QStringLiteral("cancelled"));
        const GenComponent& c = *cp;
        QStringList head = dependsOn[c.name];
        if (!c.preManifests.empty()) {
            const QString pre = c.name + QStringLiteral("-pre");
            if (Status st = writeLocalChart(ctx, c, pre, c.preManifests, head); !st)
                return st;
            addFolder(tree, c, pre, true, "pre");
            head = {pre};
        }
        if (!hasUpstreamChart(c)) {
            if (Status st = writeLocalChart(ctx, c, c.name, c.postManifests, head); !st)
                return st;
            addFolder(tree, c, c.name, true, "primary");
            continue;
        }
        ReleaseSpec r;
        r.name = c.name;
        r.targetNamespace = c.namespace_;
        const bool oci = c.source.startsWith(QLatin1String("oci://"));
        // OCI tags are literal; a Helm repository's index matches SemVer without the "v".
        const QString version = oci ? c.version : normalizeVersion(c.version);
        Node chartSpec = Node::map();
        chartSpec.set("chart", s(effectiveChart(c)));
        if (!version.isEmpty())
            chartSpec.set("version", s(version));
        chartSpec.set("sourceRef", kv({{"kind", s(QStringLiteral("HelmRepository"))},
                                       {"name", s(helmRepos.at(c.source).first)},
                                       {"namespace", s(ctx.ns)}}));
        chartSpec.set("interval", s(QStringLiteral("5m")));
        r.chartSpec = chartSpec;
        r.dependsOn = head;
        r.values = c.values;
        r.hasDynamic = hasDynamicValues(c);
        r.dynamic = c.clusterValues;
        writeHelmRelease(ctx, r);
        addFolder(tree, c, c.name, false, "primary");
        if (!c.postManifests.empty()) {
            const QString post = c.name + QStringLiteral("-post");
            if (Status st = writeLocalChart(ctx, c, post, c.postManifests, {c.name}); !st)
                return st;
            addFolder(tree, c, post, true, "post");
        }
    }

    ctx.resources.sort();
    Node resources = strSeq(ctx.resources);
    put(tree, QStringLiteral("kustomization.yaml"),
        documentHeader(QStringLiteral("Every object of this Flux bundle")) +
            encodeOrdered(kv({{"apiVersion", s(QStringLiteral("kustomize.config.k8s.io/v1beta1"))},
                              {"kind", s(QStringLiteral("Kustomization"))},
                              {"resources", resources}})));

    QByteArray rows;
    for (const BundleFolder& f : tree.folders) {
        const GenComponent& c = *present.at(f.component);
        QStringList deps;
        if (f.phase == QLatin1String("post"))
            deps = {c.name};
        else if (f.phase == QLatin1String("primary") && !c.preManifests.empty())
            deps = {c.name + QStringLiteral("-pre")};
        else
            deps = dependsOn[c.name];
        const QString version = f.phase == QLatin1String("primary")
                                    ? (c.version.isEmpty() ? c.tag : c.version)
                                    : QStringLiteral("-");
        rows += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n")
                    .arg(f.name, f.kind == QLatin1String("local-helm") ? QStringLiteral("local chart")
                                                                       : QStringLiteral("chart"))
                    .arg(version.isEmpty() ? QStringLiteral("-") : version, f.namespace_,
                         deps.isEmpty() ? QStringLiteral("-") : deps.join(QStringLiteral(", ")))
                    .toUtf8();
    }
    bool dynamic = false;
    for (const GenComponent* c : ordered)
        dynamic = dynamic || hasDynamicValues(*c);
    const QByteArray clusterValues =
        dynamic
            ? QByteArray("\nA `configmap-values.yaml` beside a release holds its install-time values (read "
                         "through\n`valuesFrom`): fill them in for your cluster before you push.\n")
            : QByteArray();
    put(tree, QStringLiteral("README.md"),
        fill(templateText(QStringLiteral("flux/README.md")),
             {{"RECIPE_VERSION", input.recipeVersion.toUtf8()},
              {"BUNDLER_VERSION", options.bundlerVersion.toUtf8()},
              {"COMPONENT_ROWS", rows},
              {"CLUSTER_VALUES", clusterValues},
              {"NAMESPACE", ctx.ns.toUtf8()},
              {"REPO_URL", repoUrl.toUtf8()},
              {"BRANCH", branch.toUtf8()}}));
    return {};
}

} // namespace pb::bundle
