#include "bundle/Generate.h"
#include "bundle/TreeDigest.h"
#include "core/Hash.h"

#include "bundle/GenArgoHelm.h"
#include "bundle/GenCommon.h"
#include "bundle/GenFlux.h"
#include "bundle/GenGate.h"
#include "bundle/GenHelmfile.h"
#include "bundle/GenValues.h"

#include "bundle/GenManifest.h"
#include "catalog/Digest.h"
#include "core/Files.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <set>

namespace pb::bundle {

using yaml::Node;

QStringList deployerNames() {
    QStringList names;
    for (Deployer d :
         {Deployer::Helm, Deployer::ArgoCD, Deployer::ArgoCDHelm, Deployer::Flux, Deployer::Helmfile})
        names << deployerName(d);
    return names;
}

Result<Deployer> parseDeployer(const QString& text) {
    const QString t = text.trimmed().toLower();
    for (Deployer d :
         {Deployer::Helm, Deployer::ArgoCD, Deployer::ArgoCDHelm, Deployer::Flux, Deployer::Helmfile})
        if (t == deployerName(d))
            return d;
    return makeError(QStringLiteral("unknown deployer '%1' (expected one of %2)")
                         .arg(text, deployerNames().join(QStringLiteral(", "))),
                     {}, 0, QStringLiteral("--deployer"));
}

const BundleFile* BundleTree::file(const QString& path) const {
    auto it = std::lower_bound(files.begin(), files.end(), path,
                               [](const BundleFile& f, const QString& p) { return f.path < p; });
    return it != files.end() && it->path == path ? &*it : nullptr;
}

namespace {

constexpr char kDefaultRepoUrl[] = "https://github.com/YOUR-ORG/YOUR-REPO.git";
constexpr char kDefaultAppName[] = "nvidia-stack";
constexpr char kArgoServer[] = "https://kubernetes.default.svc";

using gen::encodeOrdered;
using gen::fill;
using gen::kv;
using gen::normalizeVersion;
using gen::put;
using gen::s;
using gen::strSeq;
using gen::templateText;
using gen::valuesFile;

// A value for a single-quoted shell assignment.
QByteArray shellQuote(const QString& value) {
    QByteArray v = value.toUtf8();
    v.replace("'", "'\\''");
    return "'" + v + "'";
}

bool isSafeName(const QString& name) {
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]*$"));
    return re.match(name).hasMatch() && name != QLatin1String("..");
}

struct Planned {
    BundleFolder folder;
    const GenComponent* component = nullptr;
    enum class Phase { Pre, Primary, Post, Readiness } phase = Phase::Primary;
    std::vector<GenManifest> templates; // local-helm only
};

// Longest dependency chain below each component (0 for none), for argocd's sync-wave tiers.
std::map<QString, int> dependencyTiers(const std::vector<const GenComponent*>& ordered) {
    std::map<QString, const GenComponent*> byName;
    for (const GenComponent* c : ordered)
        byName[c->name] = c;
    std::map<QString, int> tier;
    std::function<int(const QString&, int)> depth = [&](const QString& name, int guard) -> int {
        if (auto it = tier.find(name); it != tier.end())
            return it->second;
        auto c = byName.find(name);
        if (c == byName.end() || guard > 256)
            return -1;
        int t = 0;
        for (const QString& d : c->second->dependencyRefs) {
            const int dt = depth(d, guard + 1);
            if (dt >= 0)
                t = std::max(t, dt + 1);
        }
        tier[name] = t;
        return t;
    };
    for (const GenComponent* c : ordered)
        depth(c->name, 0);
    return tier;
}

Node application(const Planned& p, const QString& repoUrl, const QString& revision) {
    const GenComponent& c = *p.component;
    Node app = Node::map();
    app.set("apiVersion", s(QStringLiteral("argoproj.io/v1alpha1")));
    app.set("kind", s(QStringLiteral("Application")));
    app.set(
        "metadata",
        kv({{"name", s(p.folder.name)},
            {"namespace", s(QStringLiteral("argocd"))},
            {"annotations", kv({{"argocd.argoproj.io/sync-wave", s(QString::number(p.folder.syncWave))}})}}));
    Node spec = Node::map();
    spec.set("project", s(QStringLiteral("default")));
    if (p.folder.kind == QLatin1String("upstream-helm")) {
        const QString chart = c.chart.isEmpty() ? c.name : c.chart;
        const bool oci = c.source.startsWith(QLatin1String("oci://"));
        QString repo = c.source;
        QString version = normalizeVersion(c.version);
        if (oci) {
            while (repo.endsWith(QLatin1Char('/')))
                repo.chop(1);
            repo += QLatin1Char('/') + chart;
            version = c.version; // OCI tags are literal
        }
        Node chartSource = kv(
            {{"repoURL", s(repo)},
             {"chart", s(chart)},
             {"targetRevision", s(version)},
             {"helm",
              kv({{"valueFiles", strSeq({QStringLiteral("$values/%1/values.yaml").arg(p.folder.dir)})}})}});
        Node valuesRef = kv(
            {{"repoURL", s(repoUrl)}, {"targetRevision", s(revision)}, {"ref", s(QStringLiteral("values"))}});
        Node sources = Node::seq();
        sources.items.push_back(chartSource);
        sources.items.push_back(valuesRef);
        spec.set("sources", sources);
    } else {
        spec.set("source",
                 kv({{"repoURL", s(repoUrl)}, {"targetRevision", s(revision)}, {"path", s(p.folder.dir)}}));
    }
    spec.set("destination",
             kv({{"server", s(QString::fromLatin1(kArgoServer))}, {"namespace", s(c.namespace_)}}));
    Node automated = kv({{"prune", Node::plain("true")}, {"selfHeal", Node::plain("true")}});
    // Server-side apply everywhere: some charts' CRDs exceed the client-side annotation limit.
    spec.set("syncPolicy", kv({{"automated", automated},
                               {"syncOptions", strSeq({QStringLiteral("CreateNamespace=true"),
                                                       QStringLiteral("ServerSideApply=true")})}}));
    app.set("spec", spec);
    return app;
}

Node appOfApps(const QString& name, const QString& repoUrl, const QString& revision) {
    Node app = Node::map();
    app.set("apiVersion", s(QStringLiteral("argoproj.io/v1alpha1")));
    app.set("kind", s(QStringLiteral("Application")));
    app.set("metadata", kv({{"name", s(name)}, {"namespace", s(QStringLiteral("argocd"))}}));
    Node spec = Node::map();
    spec.set("project", s(QStringLiteral("default")));
    spec.set("source", kv({{"repoURL", s(repoUrl)},
                           {"targetRevision", s(revision)},
                           {"path", s(QStringLiteral("."))},
                           {"directory", kv({{"recurse", Node::plain("true")},
                                             {"include", s(QStringLiteral("*/application.yaml"))}})}}));
    spec.set("destination", kv({{"server", s(QString::fromLatin1(kArgoServer))},
                                {"namespace", s(QStringLiteral("argocd"))}}));
    spec.set("syncPolicy",
             kv({{"automated", kv({{"prune", Node::plain("true")}, {"selfHeal", Node::plain("true")}})}}));
    app.set("spec", spec);
    return app;
}

QByteArray wrapperChart(const QString& name, const QString& component) {
    Node chart = Node::map();
    chart.set("apiVersion", s(QStringLiteral("v2")));
    chart.set("name", s(name));
    chart.set("description",
              s(QStringLiteral("Generated wrapper chart for %1 local content.").arg(component)));
    chart.set("type", s(QStringLiteral("application")));
    chart.set("version", s(QStringLiteral("0.1.0")));
    chart.set("appVersion", Node::str("0.1.0", yaml::ScalarStyle::DoubleQuoted));
    return "# Wrapper chart for " + name.toUtf8() + " (written by Proofbench bundle generate)\n" +
           encodeOrdered(chart);
}

// The components keyed by name; an error when a name is no folder name or appears twice.
Result<std::map<QString, const GenComponent*>> componentsByName(const GenerateInput& input) {
    std::map<QString, const GenComponent*> byName;
    for (const GenComponent& c : input.components) {
        if (!isSafeName(c.name))
            return makeError(QStringLiteral("component name '%1' cannot be a folder name").arg(c.name), {}, 0,
                             QStringLiteral("componentRefs.name"));
        if (byName.count(c.name))
            return makeError(QStringLiteral("component '%1' appears twice").arg(c.name), {}, 0,
                             QStringLiteral("componentRefs.name"));
        // A namespace is written into scripts and objects: it must be a Kubernetes name (DNS-1123
        // label), nothing a shell or YAML would read otherwise.
        static const QRegularExpression label(QStringLiteral("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$"));
        if (!c.namespace_.isEmpty() && !label.match(c.namespace_).hasMatch())
            return makeError(
                QStringLiteral("component '%1': namespace '%2' is not a Kubernetes name (lower-case "
                               "letters, digits and '-', at most 63)")
                    .arg(c.name, c.namespace_),
                {}, 0, QStringLiteral("componentRefs.namespace"));
        byName[c.name] = &c;
    }
    return byName;
}

// Deployment order: the recipe's order, then any component it does not name, by name.
std::vector<const GenComponent*> deploymentOrder(const GenerateInput& input,
                                                 const std::map<QString, const GenComponent*>& byName) {
    std::vector<const GenComponent*> ordered;
    std::set<QString> seen;
    for (const QString& n : input.deploymentOrder)
        if (auto it = byName.find(n); it != byName.end() && seen.insert(n).second)
            ordered.push_back(it->second);
    for (const auto& [n, c] : byName)
        if (seen.insert(n).second)
            ordered.push_back(c);
    return ordered;
}

void addPlanned(std::vector<Planned>& plan, const GenComponent* c, int tier, Planned::Phase phase,
                const QString& name, bool local, std::vector<GenManifest> templates) {
    Planned p;
    p.component = c;
    p.phase = phase;
    p.folder.name = name;
    p.folder.component = c->name;
    p.folder.kind = local ? QStringLiteral("local-helm") : QStringLiteral("upstream-helm");
    p.folder.namespace_ = c->namespace_;
    static const char* const kPhases[] = {"pre", "primary", "post", "readiness"};
    p.folder.phase = QString::fromLatin1(kPhases[static_cast<int>(phase)]);
    p.folder.level = tier;
    p.folder.syncWave = tier * 4 + static_cast<int>(phase);
    p.templates = std::move(templates);
    plan.push_back(std::move(p));
}

// A component's manifests rendered for one release, sorted by file name; those that render to
// nothing are dropped (AICR drops them too).
Result<std::vector<GenManifest>> renderedManifests(const GenComponent& c, const std::vector<GenManifest>& in,
                                                   const QString& release) {
    std::vector<GenManifest> out;
    ManifestContext ctx{
        release,  c.namespace_, c.chart.isEmpty() ? c.name : c.chart, normalizeVersion(c.version),
        c.values, c.name};
    for (const GenManifest& m : in) {
        Result<QByteArray> r = renderManifest(m.bytes, ctx, m.path);
        if (!r)
            return r.error();
        if (!hasYamlObjects(*r))
            continue; // renders to nothing: AICR drops it too
        out.push_back({QFileInfo(m.path).fileName(), *r});
    }
    std::sort(out.begin(), out.end(),
              [](const GenManifest& a, const GenManifest& b) { return a.path < b.path; });
    return out;
}

// Renders `in` for the release `name` and plans a local folder of that name unless nothing is left.
Status addRenderedFolder(std::vector<Planned>& plan, const GenComponent* c, int tier, Planned::Phase phase,
                         const std::vector<GenManifest>& in, const QString& name) {
    auto out = renderedManifests(*c, in, name);
    if (!out)
        return out.error();
    if (!out->empty())
        addPlanned(plan, c, tier, phase, name, true, std::move(*out));
    return {};
}

// Plans a component's folders: pre, primary (upstream, kustomize or own chart), post, readiness.
Status planComponent(std::vector<Planned>& plan, const GenComponent* c, int tier,
                     const GenerateOptions& options) {
    using Phase = Planned::Phase;
    if (!c->preManifests.empty())
        if (Status s = addRenderedFolder(plan, c, tier, Phase::Pre, c->preManifests,
                                         c->name + QStringLiteral("-pre"));
            !s)
            return s;
    const bool upstream = !c->kustomize && !c->source.isEmpty();
    if (upstream) {
        addPlanned(plan, c, tier, Phase::Primary, c->name, false, {});
        if (Status s = addRenderedFolder(plan, c, tier, Phase::Post, c->postManifests,
                                         c->name + QStringLiteral("-post"));
            !s)
            return s;
    } else if (c->kustomize) {
        addPlanned(plan, c, tier, Phase::Primary, c->name, true,
                   {{QStringLiteral("manifest.yaml"), c->kustomizeBuilt}});
    } else {
        auto own = renderedManifests(*c, c->postManifests, c->name);
        if (!own)
            return own.error();
        addPlanned(plan, c, tier, Phase::Primary, c->name, true, std::move(*own));
    }
    std::vector<GenManifest> gateIn = c->readiness;
    if (gateIn.empty() && !c->readinessTest.isEmpty()) {
        Result<QByteArray> gate = renderReadinessGate(c->name, gateImage(options.bundlerVersion),
                                                      c->readinessTest, options.deployer);
        if (!gate)
            return gate.error();
        gateIn.push_back({QStringLiteral("readiness.yaml"), *gate});
    }
    // Rendered like any manifest: the gate's namespace is {{ .Release.Namespace }}.
    if (!gateIn.empty())
        return addRenderedFolder(plan, c, tier, Phase::Readiness, gateIn,
                                 c->name + QStringLiteral("-readiness"));
    return {};
}

// The install steps in deployment order; an error when cancelled or when they overflow NNN-.
Result<std::vector<Planned>> planFolders(const std::vector<const GenComponent*>& ordered,
                                         const GenerateOptions& options, const std::atomic_bool* cancel) {
    const std::map<QString, int> tiers = dependencyTiers(ordered);
    std::vector<Planned> plan;
    for (const GenComponent* c : ordered) {
        const int tier = tiers.count(c->name) ? tiers.at(c->name) : 0;
        if (Status s = planComponent(plan, c, tier, options); !s)
            return s.error();
        if (cancel && cancel->load())
            return makeError(QStringLiteral("cancelled"));
    }
    if (plan.size() > 999)
        return makeError(
            QStringLiteral("%1 install steps do not fit the NNN- folder numbering").arg(plan.size()));
    return plan;
}

// The helm deployer's install files of an upstream chart: upstream.env and install.sh.
void writeUpstreamInstall(BundleTree& tree, const Planned& p, const QString& dir) {
    const GenComponent& c = *p.component;
    const QString chart = c.chart.isEmpty() ? c.name : c.chart;
    QString chartRef = chart, repo = c.source;
    if (c.source.startsWith(QLatin1String("oci://"))) {
        QString base = c.source;
        while (base.endsWith(QLatin1Char('/')))
            base.chop(1);
        chartRef = base + QLatin1Char('/') + chart;
        repo.clear();
    }
    put(tree, dir + QStringLiteral("upstream.env"),
        "CHART=" + shellQuote(chartRef) + "\nREPO=" + shellQuote(repo) +
            "\nVERSION=" + shellQuote(c.version) + "\n");
    put(tree, dir + QStringLiteral("install.sh"),
        fill(templateText(QStringLiteral("helm/install-upstream.sh")),
             {{"NAME", p.folder.name.toUtf8()}, {"NAMESPACE", c.namespace_.toUtf8()}}),
        true);
}

// One numbered folder's files; the folder joins tree.folders.
void writeFolder(BundleTree& tree, Planned& p, size_t index, bool argo, const QString& repoUrl,
                 const QString& revision) {
    p.folder.dir = QStringLiteral("%1-%2").arg(index + 1, 3, 10, QLatin1Char('0')).arg(p.folder.name);
    const GenComponent& c = *p.component;
    const QString dir = p.folder.dir + QLatin1Char('/');
    const bool local = p.folder.kind == QLatin1String("local-helm");
    put(tree, dir + QStringLiteral("values.yaml"),
        valuesFile(QStringLiteral("Helm values of %1").arg(p.folder.name), c.values));
    if (local) {
        put(tree, dir + QStringLiteral("Chart.yaml"), wrapperChart(p.folder.name, c.name));
        for (const GenManifest& m : p.templates)
            put(tree, dir + QStringLiteral("templates/") + m.path, m.bytes);
    }
    if (argo) {
        QByteArray app = "# Argo CD Application for " + p.folder.name.toUtf8() +
                         " (written by Proofbench bundle generate)\n" +
                         encodeOrdered(application(p, repoUrl, revision));
        put(tree, dir + QStringLiteral("application.yaml"), app);
    } else {
        put(tree, dir + QStringLiteral("cluster-values.yaml"),
            valuesFile(QStringLiteral("Per-cluster Helm values of %1").arg(p.folder.name), c.clusterValues));
        if (local) {
            // A pre folder creates the namespace itself (its manifests usually are the Namespace).
            const QByteArray create =
                p.phase == Planned::Phase::Pre ? QByteArray() : QByteArray(" --create-namespace");
            put(tree, dir + QStringLiteral("install.sh"),
                fill(templateText(QStringLiteral("helm/install-local.sh")),
                     {{"NAME", p.folder.name.toUtf8()},
                      {"NAMESPACE", c.namespace_.toUtf8()},
                      {"CREATE_NAMESPACE", create}}),
                true);
        } else {
            writeUpstreamInstall(tree, p, dir);
        }
    }
    tree.folders.push_back(p.folder);
}

// The README's "## Criteria" section, empty when every criterion is unset or "any".
QByteArray criteriaSection(const catalog::Criteria& cr) {
    QByteArray criteria;
    for (const auto& [label, value] :
         std::vector<std::pair<const char*, QString>>{{"Service", cr.service},
                                                      {"Accelerator", cr.accelerator},
                                                      {"Intent", cr.intent},
                                                      {"OS", cr.os},
                                                      {"Platform", cr.platform}})
        if (!value.isEmpty() && value != QLatin1String("any"))
            criteria += QByteArray("- ") + label + ": " + value.toUtf8() + "\n";
    if (!criteria.isEmpty())
        criteria = "\n## Criteria\n\n" + criteria;
    return criteria;
}

// Argo CD's top level: app-of-apps.yaml and README.md.
void writeArgoTop(BundleTree& tree, const GenerateInput& input, const GenerateOptions& options,
                  const std::map<QString, const GenComponent*>& byName, const QString& repoUrl,
                  const QString& revision, const QString& appName) {
    put(tree, QStringLiteral("app-of-apps.yaml"),
        "# Parent Application: syncs every */application.yaml of this bundle\n" +
            encodeOrdered(appOfApps(appName, repoUrl, revision)));
    QByteArray rows;
    for (const BundleFolder& f : tree.folders) {
        const GenComponent* c = byName.at(f.component);
        const QString src = f.kind == QLatin1String("upstream-helm")
                                ? QStringLiteral("%1 %2 (%3)")
                                      .arg(c->chart.isEmpty() ? c->name : c->chart, c->version, c->source)
                                : QStringLiteral("chart in %1/").arg(f.dir);
        rows += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n")
                    .arg(f.dir, f.name)
                    .arg(f.syncWave)
                    .arg(f.namespace_, src)
                    .toUtf8();
    }
    put(tree, QStringLiteral("README.md"),
        fill(templateText(QStringLiteral("argocd/README.md")),
             {{"RECIPE_VERSION", input.recipeVersion.toUtf8()},
              {"BUNDLER_VERSION", options.bundlerVersion.toUtf8()},
              {"COMPONENT_ROWS", rows},
              {"REPO_URL", repoUrl.toUtf8()},
              {"TARGET_REVISION", revision.toUtf8()},
              {"APP_NAME", appName.toUtf8()}}));
}

// API groups of the CRDs that a component's chart installs, for the components whose CRDs AICR's
// deploy.sh looks for before installing (left by an earlier install, they can clash).
QStringList crdGroupsOf(const QString& component) {
    static const std::map<QString, QStringList> groups{
        {QStringLiteral("kai-scheduler"),
         {QStringLiteral("kai.scheduler"), QStringLiteral("scheduling.run.ai")}},
        {QStringLiteral("gpu-operator"), {QStringLiteral("nvidia.com"), QStringLiteral("nfd.k8s-sigs.io")}},
        {QStringLiteral("dynamo-platform"),
         {QStringLiteral("grove.io"), QStringLiteral("scheduler.grove.io")}},
        {QStringLiteral("kube-prometheus-stack"), {QStringLiteral("monitoring.coreos.com")}},
        {QStringLiteral("k8s-nim-operator"), {QStringLiteral("apps.nvidia.com")}},
        {QStringLiteral("kubeflow-trainer"),
         {QStringLiteral("trainer.kubeflow.org"), QStringLiteral("jobset.x-k8s.io")}}};
    auto it = groups.find(component);
    return it == groups.end() ? QStringList() : it->second;
}

// Components whose operators reconcile their custom resources after Helm returns, so that Helm's
// --wait would time out on them: deploy.sh installs them without --wait (AICR's list, whatever the
// bundle holds).
constexpr char kAsyncComponents[] = "kai-scheduler";

// Helm's --timeout for a readiness gate folder: the gate's own deadline (--max-wait) plus five
// minutes, so that Helm never gives up before the gate does. Go duration text, as AICR writes it.
QByteArray readinessHelmTimeout() {
    static const QRegularExpression part(QStringLiteral("([0-9]+)([hms])"));
    qint64 seconds = 5 * 60;
    for (const QRegularExpressionMatch& m : part.globalMatch(GateSettings().maxWait)) {
        const qint64 n = m.captured(1).toLongLong();
        const QChar unit = m.captured(2).at(0);
        seconds += unit == QLatin1Char('h') ? n * 3600 : unit == QLatin1Char('m') ? n * 60 : n;
    }
    QString text;
    if (seconds >= 3600)
        text += QStringLiteral("%1h").arg(seconds / 3600);
    if (seconds >= 60)
        text += QStringLiteral("%1m").arg(seconds % 3600 / 60);
    return (text + QStringLiteral("%1s").arg(seconds % 60)).toUtf8();
}

// Words for a bash array: each one single-quoted.
QByteArray shellWords(const QStringList& words) {
    QByteArray out;
    for (const QString& w : words)
        out += (out.isEmpty() ? "" : " ") + shellQuote(w);
    return out;
}

// What deploy.sh must know about the bundle's components, as AICR's template derives it from them:
// their namespaces, the CRD groups it looks for, and where nodewright and the DRA driver run.
std::vector<std::pair<const char*, QByteArray>>
helmDeployFields(const std::vector<const GenComponent*>& components) {
    std::set<QString> namespaces;
    QStringList crdGroups;
    QString nodewrightNs, draNs;
    for (const GenComponent* c : components) {
        namespaces.insert(c->namespace_);
        crdGroups += crdGroupsOf(c->name);
        if (c->name == QLatin1String("nodewright-operator"))
            nodewrightNs = c->namespace_;
        if (c->name == QLatin1String("nvidia-dra-driver-gpu"))
            draNs = c->namespace_;
    }
    return {{"NAMESPACES", shellWords(QStringList(namespaces.begin(), namespaces.end()))},
            {"CRD_GROUPS", shellWords(crdGroups)},
            {"ASYNC_COMPONENTS", shellQuote(QString::fromLatin1(kAsyncComponents))},
            {"NODEWRIGHT_NAMESPACE", shellQuote(nodewrightNs)},
            {"DRA_DRIVER_NAMESPACE", shellQuote(draNs)},
            {"READINESS_TIMEOUT", shellQuote(QString::fromUtf8(readinessHelmTimeout()))}};
}

// The helm deployer's top level: README.md and deploy.sh.
void writeHelmTop(BundleTree& tree, const GenerateInput& input, const GenerateOptions& options,
                  const std::map<QString, const GenComponent*>& byName) {
    QByteArray rows, uninstall;
    std::vector<const GenComponent*> components; // in deployment order
    for (size_t i = 0; i < tree.folders.size(); ++i) {
        const BundleFolder& f = tree.folders[i];
        const GenComponent* c = byName.at(f.component);
        const QString chart =
            f.kind == QLatin1String("upstream-helm")
                ? QStringLiteral("%1 (%2)").arg(c->chart.isEmpty() ? c->name : c->chart, c->source)
                : QStringLiteral("local chart");
        rows += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n")
                    .arg(i + 1)
                    .arg(f.name, f.kind == QLatin1String("upstream-helm") ? c->version : QStringLiteral("-"),
                         f.namespace_, chart)
                    .toUtf8();
        if (std::find(components.begin(), components.end(), c) == components.end())
            components.push_back(c);
    }
    for (auto it = tree.folders.rbegin(); it != tree.folders.rend(); ++it)
        uninstall += QStringLiteral("helm uninstall %1 -n %2\n").arg(it->name, it->namespace_).toUtf8();
    uninstall.chop(1);
    QByteArray constraints;
    if (!input.constraints.empty()) {
        constraints = "\n## Constraints\n\n";
        for (const catalog::Constraint& k : input.constraints)
            constraints += "- " + k.name.toUtf8() + ": " + k.value.toUtf8() + "\n";
    }
    put(tree, QStringLiteral("README.md"),
        fill(templateText(QStringLiteral("helm/README.md")),
             {{"RECIPE_VERSION", input.recipeVersion.toUtf8()},
              {"BUNDLER_VERSION", options.bundlerVersion.toUtf8()},
              {"CRITERIA", criteriaSection(input.criteria)},
              {"COMPONENT_ROWS", rows},
              {"CONSTRAINTS", constraints},
              {"UNINSTALL", uninstall}}));
    auto deployFields = helmDeployFields(components);
    deployFields.emplace_back("BUNDLER_VERSION", options.bundlerVersion.toUtf8());
    put(tree, QStringLiteral("deploy.sh"), fill(templateText(QStringLiteral("helm/deploy.sh")), deployFields),
        true);
}

} // namespace

Result<BundleTree> render(const GenerateInput& original, const GenerateOptions& options,
                          const std::atomic_bool* cancel) {
    // Install-time value paths leave the static values first; every layout reads the split.
    GenerateInput input = original;
    for (GenComponent& c : input.components) {
        if (!c.dynamicPaths.isEmpty() && options.deployer == Deployer::ArgoCD)
            return makeError(
                QStringLiteral("component '%1' declares install-time (dynamic) values, which the "
                               "argocd deployer cannot carry; use argocd-helm")
                    .arg(c.name),
                {}, 0, QStringLiteral("--dynamic"));
        if (Status st = splitDynamicValues(c); !st)
            return st.error();
        const bool gated = !c.readiness.empty() || !c.readinessTest.isEmpty();
        if (gated && (options.deployer == Deployer::Flux || options.deployer == Deployer::Helmfile))
            return makeError(
                QStringLiteral("component '%1' has a readiness gate, which the %2 deployer cannot "
                               "wait on (readiness gates need helm, argocd or argocd-helm)")
                    .arg(c.name, deployerName(options.deployer)),
                {}, 0, QStringLiteral("--readiness-hooks"));
    }
    auto byName = componentsByName(input);
    if (!byName)
        return byName.error();
    const std::vector<const GenComponent*> ordered = deploymentOrder(input, *byName);

    BundleTree tree;
    tree.deployer = options.deployer;
    if (options.deployer == Deployer::Flux) {
        // No NNN- folders: one folder per Flux HelmRelease (GenFlux.h).
        if (Status st = writeFluxBundle(tree, input, ordered, options, cancel); !st)
            return st.error();
    } else {
        auto plan = planFolders(ordered, options, cancel);
        if (!plan)
            return plan.error();
        const bool argo = options.deployer == Deployer::ArgoCD || options.deployer == Deployer::ArgoCDHelm;
        // --serial: one sync-wave per folder, in deployment order, instead of dependency tiers.
        if (argo && options.serial)
            for (size_t i = 0; i < plan->size(); ++i)
                (*plan)[i].folder.syncWave = static_cast<int>(i);
        const QString repoUrl =
            options.repoUrl.isEmpty() ? QString::fromLatin1(kDefaultRepoUrl) : options.repoUrl;
        const QString revision =
            options.targetRevision.isEmpty() ? QStringLiteral("main") : options.targetRevision;
        const QString appName =
            options.appName.isEmpty() ? QString::fromLatin1(kDefaultAppName) : options.appName;
        if (options.deployer == Deployer::ArgoCD && !gen::isDnsSubdomain(appName))
            return makeError(
                QStringLiteral("'%1' is not a DNS-1123 subdomain, which an Application name must be")
                    .arg(appName),
                {}, 0, QStringLiteral("--app-name"));
        for (size_t i = 0; i < plan->size(); ++i)
            writeFolder(tree, (*plan)[i], i, argo, repoUrl, revision);
        switch (options.deployer) {
        case Deployer::ArgoCD:
            writeArgoTop(tree, input, options, *byName, repoUrl, revision, appName);
            break;
        case Deployer::ArgoCDHelm:
            // The Argo CD folders become a Helm chart of Application templates (GenArgoHelm.h).
            if (Status st = writeArgoHelmChart(tree, input, options, *byName); !st)
                return st.error();
            break;
        case Deployer::Helmfile:
            if (Status st = writeHelmfileTop(tree, input, options, *byName); !st)
                return st.error();
            break;
        case Deployer::Helm:
            writeHelmTop(tree, input, options, *byName);
            break;
        case Deployer::Flux: // written above
            break;
        }
    }
    if (options.writeRecipe && !input.recipeYaml.isEmpty())
        put(tree, QStringLiteral("recipe.yaml"), input.recipeYaml);

    std::sort(tree.files.begin(), tree.files.end(),
              [](const BundleFile& a, const BundleFile& b) { return a.path < b.path; });
    for (const BundleFile& f : tree.files)
        if (f.bytes.isEmpty() && f.path.endsWith(QLatin1String(".sh")))
            return makeError(
                QStringLiteral("bundle template for %1 is missing from the resources").arg(f.path));
    return tree;
}

QString treeDigest(const BundleTree& tree) {
    std::vector<std::pair<QString, QString>> files;
    files.reserve(tree.files.size());
    for (const BundleFile& f : tree.files)
        files.emplace_back(f.path, sha256Hex(f.bytes));
    return treeDigestOfFiles(std::move(files));
}

Status writeTree(const BundleTree& tree, const QString& dirPath, const GenProgressFn& progress,
                 const std::atomic_bool* cancel) {
    QDir dir(dirPath);
    if (dir.exists()) {
        const QStringList entries = dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
        static const QRegularExpression numbered(QStringLiteral("^[0-9]{3}-"));
        static const QRegularExpression level(QStringLiteral("^level-[0-9]+\\.yaml$"));
        // What each layout leaves that no user folder is likely to have.
        auto fluxRelease = [&](const QString& e) {
            return QFileInfo(dir.filePath(e)).isDir() &&
                   QFileInfo::exists(dir.filePath(e + QStringLiteral("/helmrelease.yaml")));
        };
        const bool argoHelmChart =
            QFileInfo::exists(dir.filePath(QStringLiteral("templates/aicr-stack.yaml")));
        const bool helmfile = entries.contains(QStringLiteral("helmfile.yaml"));
        const bool fluxBundle = entries.contains(QStringLiteral("kustomization.yaml")) &&
                                QFileInfo(dir.filePath(QStringLiteral("sources"))).isDir() &&
                                std::any_of(entries.begin(), entries.end(), fluxRelease);
        bool ours = entries.isEmpty() || argoHelmChart || helmfile || fluxBundle;
        for (const QString& e : entries)
            if (numbered.match(e).hasMatch() || e == QLatin1String("deploy.sh") ||
                e == QLatin1String("app-of-apps.yaml"))
                ours = true;
        if (!ours)
            return makeError(
                QStringLiteral(
                    "output folder is not empty and does not hold a bundle; choose an empty folder"),
                dirPath);
        // Remove what an earlier generation wrote (of any deployer) so no stale file survives.
        QStringList generatedFiles = {QStringLiteral("deploy.sh"),     QStringLiteral("undeploy.sh"),
                                      QStringLiteral("README.md"),     QStringLiteral("app-of-apps.yaml"),
                                      QStringLiteral("helmfile.yaml"), QStringLiteral("recipe.yaml")};
        if (argoHelmChart)
            generatedFiles << QStringLiteral("Chart.yaml") << QStringLiteral("values.yaml")
                           << QStringLiteral("values.schema.json");
        if (fluxBundle)
            generatedFiles << QStringLiteral("kustomization.yaml");
        for (const QString& e : entries) {
            const QString p = dir.filePath(e);
            const QFileInfo fi(p);
            if (fi.isSymLink())
                continue;
            const bool generatedDir =
                numbered.match(e).hasMatch() ||
                (argoHelmChart && (e == QLatin1String("templates") || e == QLatin1String("static"))) ||
                (fluxBundle && (e == QLatin1String("sources") || fluxRelease(e)));
            if (fi.isDir() && generatedDir)
                QDir(p).removeRecursively();
            else if (fi.isFile() && ((helmfile && level.match(e).hasMatch()) || generatedFiles.contains(e)))
                QFile::remove(p);
        }
    } else if (!QDir().mkpath(dirPath)) {
        return makeError(QStringLiteral("cannot create the output folder"), dirPath);
    }
    int done = 0;
    const int total = static_cast<int>(tree.files.size());
    for (const BundleFile& f : tree.files) {
        if (cancel && cancel->load())
            return makeError(QStringLiteral("cancelled"));
        const QString path = dir.filePath(f.path);
        if (!QDir().mkpath(QFileInfo(path).absolutePath()))
            return makeError(QStringLiteral("cannot create folder"), QFileInfo(path).absolutePath());
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(f.bytes) != f.bytes.size())
            return makeError(QStringLiteral("cannot write: %1").arg(out.errorString()), path);
        out.close();
        QFile::Permissions perms = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther;
        if (f.executable)
            perms |= QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther;
        out.setPermissions(perms);
        if (progress)
            progress(++done, total, f.path);
    }
    return Status::success();
}

} // namespace pb::bundle
