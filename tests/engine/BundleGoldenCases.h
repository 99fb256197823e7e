// AICR's golden deployment bundles as test cases: the input each golden was made from
// (reconstructed from AICR's Go tests, pkg/bundler/deployer/<deployer>/<deployer>_test.go) and the
// parity rules a generated bundle is compared by. Shared by the parity test (tst_bundlegen) and
// the script behaviour test (tst_bundlescripts).
//
// Parity rules (issue #21): the same set of paths; values files byte-identical after their leading
// comment block; every other YAML file the same documents once parsed; upstream.env the same
// assignments; JSON files the same document once parsed.
//
// Where AICR's harness freezes only a listed subset of files, the golden folder holds only those,
// and a file we write that the golden does not hold is accepted only when it is a kind of file
// that deployer writes but its test does not freeze; such files are listed in the report:
//   argocd       TestBundleGolden_* freeze a list per case (README.md, app-of-apps.yaml and the
//                wrapper Chart.yaml are not frozen);
//   argocd-helm  TestBundleGolden_* freeze a list per case (the chart files, static/, templates/,
//                and the folders' values.yaml, Chart.yaml and templates/ are not always frozen);
//   flux         TestBundleGolden_HelmComponents freezes the HelmReleases and kustomization.yaml
//                (README.md, sources/, ConfigMaps and local charts are not frozen);
//   helmfile     TestGenerate_Scenarios freezes helmfile.yaml, level-N.yaml and in one case
//                README.md (the NNN- folders are not frozen).
// argocd-helm's templates/*.yaml are Helm templates, not YAML: their template actions (and the
// messages in them) are our own, so each is compared as the documents left when lines that are
// only template actions are dropped and every other action becomes one marker, plus the same
// chart files (.Files.Get), top-level .Values keys and .Chart fields read.
#pragma once

#include "bundle/GenKustomize.h"
#include "bundle/Generate.h"
#include "catalog/Loader.h"
#include "yaml/Yaml.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QRegularExpression>
#include <QStringList>

#include <map>
#include <optional>

namespace pbtest::goldens {

using namespace pb;
using namespace pb::bundle;

inline QString goldens() {
    return QStringLiteral(PB_SHARED_DATA "/aicr/bundler-goldens");
}

inline yaml::Node mapOf(std::initializer_list<std::pair<const char*, yaml::Node>> entries) {
    yaml::Node m = yaml::Node::map();
    for (const auto& [k, v] : entries)
        m.set(k, v);
    return m;
}
inline yaml::Node b(bool v) {
    return yaml::Node::plain(v ? "true" : "false");
}

inline GenComponent helmComponent(const QString& name, const QString& ns, const QString& chart,
                                  const QString& version, const QString& source,
                                  yaml::Node values = yaml::Node::map()) {
    GenComponent c;
    c.name = name;
    c.namespace_ = ns;
    c.chart = chart;
    c.version = version;
    c.source = source;
    c.values = std::move(values);
    return c;
}

inline const QByteArray kCopyright =
    "# Copyright (c) 2026, NVIDIA CORPORATION & AFFILIATES.  All rights reserved.\n\n";
inline const QByteArray kTalosNs = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %NS%\n  labels:\n"
                                   "    pod-security.kubernetes.io/enforce: privileged\n";
inline QByteArray talos(const QByteArray& ns) {
    return QByteArray(kTalosNs).replace("%NS%", ns);
}
inline const QByteArray kDcgmArgo =
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dcgm-exporter-config\n"
    "  namespace: {{ .Release.Namespace }}\ndata:\n  config.yaml: |\n    metrics: enabled\n";

struct Case {
    GenerateInput input;
    GenerateOptions options;
    QString unreproducible; // non-empty: why this case cannot be generated
};

inline Case helmCase(const QString& name) {
    Case k;
    k.options.deployer = Deployer::Helm;
    k.options.bundlerVersion = QStringLiteral("v1.0.0");
    k.input.recipeVersion = QStringLiteral("v0.1.0");
    GenComponent c;
    if (name == QLatin1String("upstream_helm_only")) {
        c = helmComponent("cert-manager", "cert-manager", "cert-manager", "v1.17.2",
                          "https://charts.jetstack.io", mapOf({{"crds", mapOf({{"enabled", b(true)}})}}));
    } else if (name == QLatin1String("manifest_only")) {
        c = helmComponent("skyhook-customizations", "skyhook", {}, {}, {});
        c.postManifests.push_back(
            {QStringLiteral("components/skyhook-customizations/manifests/customization.yaml"),
             kCopyright + "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: customization\n"});
    } else if (name == QLatin1String("mixed_gpu_operator")) {
        c = helmComponent("gpu-operator", "privileged-gpu-operator", "gpu-operator", "v25.3.3",
                          "https://helm.ngc.nvidia.com/nvidia",
                          mapOf({{"driver", mapOf({{"enabled", b(true)}})}}));
        c.preManifests.push_back({QStringLiteral("components/gpu-operator/manifests/talos-namespace.yaml"),
                                  kCopyright + talos("privileged-gpu-operator")});
        c.postManifests.push_back(
            {QStringLiteral("components/gpu-operator/manifests/dcgm-exporter.yaml"),
             kCopyright + "apiVersion: v1\nkind: Service\nmetadata:\n  name: dcgm-exporter\n"});
    } else if (name == QLatin1String("kai_scheduler_present")) {
        c = helmComponent("kai-scheduler", "kai-scheduler", "kai-scheduler", "v0.14.1",
                          "oci://ghcr.io/kai-scheduler/kai-scheduler");
    } else if (name == QLatin1String("nodewright_present")) {
        c = helmComponent("nodewright-operator", "skyhook", "skyhook-operator", "v0.1.0",
                          "https://example.invalid/charts");
    } else if (name == QLatin1String("mixed_with_pre")) {
        c = helmComponent("foo", "privileged-foo", "foo", "v1.0.0", "https://example.com/charts");
        c.preManifests.push_back({QStringLiteral("components/foo/manifests/talos-namespace.yaml"),
                                  kCopyright + talos("privileged-foo")});
    } else {
        k.unreproducible = QStringLiteral("no input known for helm case '%1' (not among AICR's "
                                          "TestBundleGolden_* cases this test knows)")
                               .arg(name);
        return k;
    }
    k.input.deploymentOrder << c.name;
    k.input.components.push_back(c);
    return k;
}

inline Case argoCase(const QString& name) {
    Case k;
    k.options.deployer = Deployer::ArgoCD;
    k.options.bundlerVersion = QStringLiteral("v0.0.0-golden");
    k.options.repoUrl = QStringLiteral("https://github.com/example/aicr-bundles.git");
    k.options.targetRevision = QStringLiteral("main");
    k.input.recipeVersion = QStringLiteral("v1.0.0");
    const yaml::Node driver580 = mapOf({{"driver", mapOf({{"version", yaml::Node::str("580")}})}});
    auto kustomizeApp = [&]() -> std::optional<GenComponent> {
        GenComponent c = helmComponent("my-kustomize-app", "my-app", {}, {}, {});
        c.kustomize = true;
        Result<QByteArray> built = kustomizeBuildLocal(goldens() + QStringLiteral("/argocd/kustomize_input"));
        if (!built) {
            k.unreproducible =
                QStringLiteral("kustomize build of the committed input failed: ") + built.error().toString();
            return std::nullopt;
        }
        c.kustomizeBuilt = *built;
        return c;
    };
    if (name == QLatin1String("helm_and_manifest_only")) {
        k.input.components.push_back(helmComponent("cert-manager", "cert-manager", "cert-manager", "v1.20.2",
                                                   "https://charts.jetstack.io",
                                                   mapOf({{"replicaCount", yaml::Node::plain("1")}})));
        GenComponent n =
            helmComponent("nodewright-customizations", "skyhook", {}, {}, {}, mapOf({{"enabled", b(true)}}));
        n.postManifests.push_back(
            {QStringLiteral("tuning.yaml"),
             "apiVersion: skyhook.nvidia.com/v1alpha1\nkind: Skyhook\nmetadata:\n  name: tuning\n"
             "  namespace: {{ .Release.Namespace }}\nspec:\n  packages:\n    - tuning\n"});
        k.input.components.push_back(n);
        k.input.deploymentOrder = {QStringLiteral("cert-manager"),
                                   QStringLiteral("nodewright-customizations")};
    } else if (name == QLatin1String("mixed_component")) {
        GenComponent c = helmComponent("gpu-operator", "gpu-operator", "gpu-operator", "v25.3.3",
                                       "https://helm.ngc.nvidia.com/nvidia", driver580);
        c.postManifests.push_back({QStringLiteral("dcgm-exporter.yaml"), kDcgmArgo});
        k.input.components.push_back(c);
        k.input.deploymentOrder << c.name;
    } else if (name == QLatin1String("mixed_with_pre")) {
        GenComponent c = helmComponent("gpu-operator", "privileged-gpu-operator", "gpu-operator", "v25.3.3",
                                       "https://helm.ngc.nvidia.com/nvidia", driver580);
        // AICR's test has named this pre-manifest namespace.yaml and, later, talos-namespace.yaml;
        // its per-file golden update never deletes, so the golden folder holds both. Both are input.
        c.preManifests.push_back({QStringLiteral("components/gpu-operator/manifests/talos-namespace.yaml"),
                                  talos("privileged-gpu-operator")});
        c.preManifests.push_back({QStringLiteral("components/gpu-operator/manifests/namespace.yaml"),
                                  talos("privileged-gpu-operator")});
        c.postManifests.push_back({QStringLiteral("dcgm-exporter.yaml"), kDcgmArgo});
        k.input.components.push_back(c);
        k.input.deploymentOrder << c.name;
    } else if (name == QLatin1String("kustomize_only")) {
        auto app = kustomizeApp();
        if (!app)
            return k;
        k.input.components.push_back(*app);
        k.input.deploymentOrder << app->name;
    } else if (name == QLatin1String("helm_and_kustomize")) {
        k.input.components.push_back(helmComponent("cert-manager", "cert-manager", "cert-manager", "v1.20.2",
                                                   "https://charts.jetstack.io",
                                                   mapOf({{"replicaCount", yaml::Node::plain("1")}})));
        auto app = kustomizeApp();
        if (!app)
            return k;
        k.input.components.push_back(*app);
        k.input.deploymentOrder = {QStringLiteral("cert-manager"), QStringLiteral("my-kustomize-app")};
    } else if (name == QLatin1String("readiness_gate")) {
        // gpu-operator with a chainsaw readiness Test: the gate (ServiceAccount, RBAC, ConfigMap, Job)
        // is synthesized from it into 002-gpu-operator-readiness/.
        GenComponent c = helmComponent("gpu-operator", "gpu-operator", "gpu-operator", "v25.3.3",
                                       "https://helm.ngc.nvidia.com/nvidia", driver580);
        c.readinessTest = "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: "
                          "gpu-operator-readiness\n";
        k.input.components.push_back(c);
        k.input.deploymentOrder << c.name;
    } else {
        k.unreproducible = QStringLiteral("no input known for argocd case '%1'").arg(name);
    }
    return k;
}

// The component registry of the AICR commit the goldens were made at (its Go tests read the
// embedded registry): the same tree as the 2026-08-19 catalog.
inline QString goldenRegistryPath() {
    return QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/2026-08-19/recipes/registry.yaml");
}

// Applies the registry entry of each component (value override key, CRD flags), as AICR's
// generators look them up; a component the registry lacks keeps none. Returns why it cannot.
inline QString applyGoldenRegistry(std::vector<GenComponent>& components) {
    QFile f(goldenRegistryPath());
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("the registry of AICR at 8703d8c (%1) is not here; the cases' value override "
                              "keys and CRD flags come from it")
            .arg(goldenRegistryPath());
    Result<std::vector<catalog::RegistryComponent>> reg =
        catalog::parseRegistry(f.readAll(), goldenRegistryPath());
    if (!reg)
        return reg.error().toString();
    for (GenComponent& c : components)
        for (const catalog::RegistryComponent& r : *reg)
            if (r.name == c.name)
                applyRegistryEntry(c, r);
    return {};
}

inline yaml::Node num(const char* v) {
    return yaml::Node::plain(v);
}

// pkg/bundler/deployer/argocdhelm/argocdhelm_test.go, TestBundleGolden_*. The tests pass RepoURL
// and TargetRevision, which argocd-helm does not use (the bundle is URL-portable; AICR bakes only
// an OCI push target into values.yaml, and Proofbench's repoUrl plays that part): here both empty.
inline Case argoHelmCase(const QString& name) {
    Case k;
    k.options.deployer = Deployer::ArgoCDHelm;
    k.options.bundlerVersion = QStringLiteral("v0.0.0-golden");
    k.input.recipeVersion = QStringLiteral("v1.0.0");
    const QByteArray dcgm = kDcgmArgo;
    if (name == QLatin1String("helm_and_manifest_only")) {
        GenComponent cm = helmComponent(
            "cert-manager", "cert-manager", "cert-manager", "v1.20.2", "https://charts.jetstack.io",
            mapOf({{"replicaCount", num("1")}, {"prometheus", mapOf({{"enabled", b(true)}})}}));
        cm.dynamicPaths << QStringLiteral("replicaCount");
        GenComponent n =
            helmComponent("nodewright-customizations", "skyhook", {}, {}, {}, mapOf({{"enabled", b(true)}}));
        n.postManifests.push_back(
            {QStringLiteral("tuning.yaml"),
             "apiVersion: skyhook.nvidia.com/v1alpha1\nkind: Skyhook\nmetadata:\n  name: tuning\n"
             "  namespace: {{ .Release.Namespace }}\nspec:\n  packages:\n    - tuning\n"});
        k.input.components = {cm, n};
        k.input.deploymentOrder = {QStringLiteral("cert-manager"),
                                   QStringLiteral("nodewright-customizations")};
    } else if (name == QLatin1String("mixed_component")) {
        GenComponent c = helmComponent(
            "gpu-operator", "gpu-operator", "gpu-operator", "v25.3.3", "https://helm.ngc.nvidia.com/nvidia",
            mapOf({{"driver", mapOf({{"version", yaml::Node::str("580")}, {"enabled", b(true)}})}}));
        c.dynamicPaths << QStringLiteral("driver.version");
        c.postManifests.push_back({QStringLiteral("dcgm-exporter.yaml"), dcgm});
        k.input.components = {c};
        k.input.deploymentOrder << c.name;
    } else if (name == QLatin1String("readiness_gate")) {
        GenComponent c = helmComponent("gpu-operator", "gpu-operator", "gpu-operator", "v25.3.3",
                                       "https://helm.ngc.nvidia.com/nvidia",
                                       mapOf({{"driver", mapOf({{"version", yaml::Node::str("580")}})}}));
        // readinessGateManifest(): gatemanifest.Render of this Test for argocd-helm.
        c.readinessTest = "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: "
                          "gpu-operator-readiness\n";
        k.input.components = {c};
        k.input.deploymentOrder << c.name;
    } else {
        k.unreproducible = QStringLiteral("no input known for argocd-helm case '%1'").arg(name);
        return k;
    }
    k.unreproducible = applyGoldenRegistry(k.input.components);
    return k;
}

// pkg/bundler/deployer/flux/flux_test.go, TestBundleGolden_HelmComponents.
inline Case fluxCase(const QString& name) {
    Case k;
    k.options.deployer = Deployer::Flux;
    k.options.bundlerVersion = QStringLiteral("v0.9.0");
    k.input.recipeVersion = QStringLiteral("v1.0.0");
    if (name == QLatin1String("helm_components")) {
        GenComponent cm =
            helmComponent("cert-manager", "cert-manager", "cert-manager", "v1.17.2",
                          "https://charts.jetstack.io", mapOf({{"crds", mapOf({{"enabled", b(true)}})}}));
        GenComponent gpu = helmComponent("gpu-operator", "gpu-operator", "gpu-operator", "v25.3.3",
                                         "https://helm.ngc.nvidia.com/nvidia",
                                         mapOf({{"driver", mapOf({{"enabled", b(true)}})}}));
        gpu.dependencyRefs << QStringLiteral("cert-manager");
        k.input.components = {cm, gpu};
        k.input.deploymentOrder = {QStringLiteral("cert-manager"), QStringLiteral("gpu-operator")};
    } else {
        k.unreproducible = QStringLiteral("no input known for flux case '%1'").arg(name);
        return k;
    }
    k.unreproducible = applyGoldenRegistry(k.input.components);
    return k;
}

// pkg/bundler/deployer/helmfile/helmfile_test.go, TestGenerate_Scenarios (recipeWith: the recipe
// version is the bundler version, the deployment order the components' order).
inline Case helmfileCase(const QString& name) {
    Case k;
    k.options.deployer = Deployer::Helmfile;
    k.options.bundlerVersion = QStringLiteral("v1.0.0");
    k.input.recipeVersion = QStringLiteral("v1.0.0");
    const yaml::Node crds = mapOf({{"crds", mapOf({{"enabled", b(true)}})}});
    if (name == QLatin1String("upstream_helm_only")) {
        GenComponent cm = helmComponent("cert-manager", "cert-manager", "cert-manager", "v1.17.2",
                                        "https://charts.jetstack.io", crds);
        GenComponent gpu = helmComponent("gpu-operator", "gpu-operator", "gpu-operator", "v25.3.3",
                                         "https://helm.ngc.nvidia.com/nvidia",
                                         mapOf({{"driver", mapOf({{"enabled", b(true)}})}}));
        gpu.dependencyRefs << QStringLiteral("cert-manager");
        k.input.components = {cm, gpu};
    } else if (name == QLatin1String("with_dynamic_values")) {
        GenComponent cm = helmComponent(
            "cert-manager", "cert-manager", "cert-manager", "v1.17.2", "https://charts.jetstack.io",
            mapOf({{"crds", mapOf({{"enabled", b(true)}})}, {"replicaCount", num("3")}}));
        cm.dynamicPaths << QStringLiteral("replicaCount");
        k.input.components = {cm};
    } else if (name == QLatin1String("kai_scheduler_async")) {
        k.input.components = {helmComponent("kai-scheduler", "kai-scheduler", "kai-scheduler", "v0.14.1",
                                            "oci://ghcr.io/kai-scheduler/kai-scheduler",
                                            mapOf({{"enabled", b(true)}}))};
    } else if (name == QLatin1String("mixed_gpu_operator")) {
        GenComponent gpu = helmComponent("gpu-operator", "gpu-operator", "gpu-operator", "v25.3.3",
                                         "https://helm.ngc.nvidia.com/nvidia",
                                         mapOf({{"driver", mapOf({{"enabled", b(true)}})}}));
        gpu.postManifests.push_back(
            {QStringLiteral("nvidia-runtime-class.yaml"),
             "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: nvidia\nhandler: nvidia\n"});
        k.input.components = {gpu};
    } else if (name == QLatin1String("manifest_only")) {
        GenComponent n = helmComponent("node-prep", "kube-system", {}, {}, {});
        n.postManifests.push_back(
            {QStringLiteral("daemonset.yaml"),
             "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: node-prep\nspec: {}\n"});
        k.input.components = {n};
    } else {
        k.unreproducible = QStringLiteral("no input known for helmfile case '%1'").arg(name);
        return k;
    }
    for (const GenComponent& c : k.input.components)
        k.input.deploymentOrder << c.name;
    k.unreproducible = applyGoldenRegistry(k.input.components);
    return k;
}

// The golden folders under bundler-goldens/ (AICR's deployer package names) and their deployers.
inline const std::vector<std::pair<QString, Deployer>>& goldenFolders() {
    static const std::vector<std::pair<QString, Deployer>> folders = {
        {QStringLiteral("helm"), Deployer::Helm},
        {QStringLiteral("argocd"), Deployer::ArgoCD},
        {QStringLiteral("argocdhelm"), Deployer::ArgoCDHelm},
        {QStringLiteral("flux"), Deployer::Flux},
        {QStringLiteral("helmfile"), Deployer::Helmfile}};
    return folders;
}

inline Case goldenCase(const QString& folder, const QString& name) {
    if (folder == QLatin1String("helm"))
        return helmCase(name);
    if (folder == QLatin1String("argocd"))
        return argoCase(name);
    if (folder == QLatin1String("argocdhelm"))
        return argoHelmCase(name);
    if (folder == QLatin1String("flux"))
        return fluxCase(name);
    if (folder == QLatin1String("helmfile"))
        return helmfileCase(name);
    Case k;
    k.unreproducible = QStringLiteral("no golden folder '%1' is known").arg(folder);
    return k;
}

inline QStringList treePaths(const QString& dir) {
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << QDir(dir).relativeFilePath(it.next());
    out.sort();
    return out;
}

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline QByteArray afterLeadingComments(const QByteArray& bytes) {
    qsizetype pos = 0;
    while (pos < bytes.size() && bytes.at(pos) == '#') {
        const qsizetype nl = bytes.indexOf('\n', pos);
        pos = nl < 0 ? bytes.size() : nl + 1;
    }
    return bytes.mid(pos);
}

// Every document of a YAML stream, parsed and typed; empty documents dropped.
inline QJsonArray yamlDocs(const QByteArray& bytes, const QString& name, QString* error) {
    QJsonArray docs;
    QByteArray cur;
    auto flush = [&] {
        Result<yaml::Node> n = yaml::parse(cur, name);
        if (!n)
            *error = n.error().toString();
        else if (!n->isNull())
            docs.append(yaml::toJson(*n));
        cur.clear();
    };
    for (const QByteArray& line : bytes.split('\n')) {
        if (line == "---") {
            flush();
            continue;
        }
        cur += line + '\n';
    }
    flush();
    return docs;
}

inline QMap<QString, QString> envAssignments(const QByteArray& bytes) {
    QMap<QString, QString> out;
    for (const QByteArray& raw : bytes.split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        QString v = line.mid(eq + 1);
        if (v.size() >= 2 && v.startsWith(QLatin1Char('\'')) && v.endsWith(QLatin1Char('\'')))
            v = v.mid(1, v.size() - 2).replace(QLatin1String("'\\''"), QLatin1String("'"));
        out[line.left(eq)] = v;
    }
    return out;
}

inline bool notFrozenByAicrArgoTest(const QString& path) {
    return path == QLatin1String("README.md") || path == QLatin1String("app-of-apps.yaml") ||
           path.endsWith(QLatin1String("/Chart.yaml"));
}

// Kinds of files the deployer writes that its AICR test does not always freeze (see the top).
inline bool notFrozenByAicrTest(Deployer deployer, const QString& path) {
    auto m = [&](const char* re) {
        return QRegularExpression(QString::fromLatin1(re)).match(path).hasMatch();
    };
    switch (deployer) {
    case Deployer::Helm:
        return false; // AICR's helm harness compares whole trees
    case Deployer::ArgoCD:
        return notFrozenByAicrArgoTest(path);
    case Deployer::ArgoCDHelm:
        return m("^(README\\.md|Chart\\.yaml|values\\.yaml|values\\.schema\\.json)$") ||
               m("^(static|templates)/[^/]+\\.yaml$") ||
               m("^[0-9]{3}-[^/]+/(values\\.yaml|Chart\\.yaml|templates/.+)$");
    case Deployer::Flux:
        return m("^README\\.md$") || m("^sources/[^/]+\\.yaml$") ||
               m("^[^/]+/(configmap-values\\.yaml|Chart\\.yaml|templates/.+)$");
    case Deployer::Helmfile:
        return m("^README\\.md$") ||
               m("^[0-9]{3}-[^/]+/"
                 "(values\\.yaml|cluster-values\\.yaml|install\\.sh|upstream\\.env|Chart\\.yaml|"
                 "templates/.+)$");
    }
    return false;
}

// A Helm template (argocd-helm's templates/*.yaml) made comparable: lines that are only template
// actions dropped, every other action replaced by one marker. Of each if/else on lines of their
// own, only the first branch is kept, or with `elseBranches` only the else branch.
inline QByteArray maskedTemplate(const QByteArray& bytes, bool elseBranches = false) {
    static const QRegularExpression onlyActions(QStringLiteral("^\\s*(\\{\\{.*?\\}\\}\\s*)+$"));
    static const QRegularExpression action(QStringLiteral("\\{\\{-?\\s*(.*?)\\s*-?\\}\\}"));
    static const QRegularExpression opens(QStringLiteral("^(if|with|range)\\b"));
    static const QRegularExpression elses(QStringLiteral("^else\\b"));
    static const QRegularExpression ends(QStringLiteral("^end\\b"));
    std::vector<bool> inElse; // per open block: now in its else branch
    auto skipping = [&] {
        for (bool e : inElse)
            if (e != elseBranches)
                return true;
        return false;
    };
    QByteArray out;
    for (const QString& line : QString::fromUtf8(bytes).split(QLatin1Char('\n'))) {
        if (onlyActions.match(line).hasMatch()) {
            for (auto it = action.globalMatch(line); it.hasNext();) {
                const QString a = it.next().captured(1);
                if (opens.match(a).hasMatch())
                    inElse.push_back(false);
                else if (elses.match(a).hasMatch() && !inElse.empty())
                    inElse.back() = true;
                else if (ends.match(a).hasMatch() && !inElse.empty())
                    inElse.pop_back();
            }
            continue;
        }
        if (skipping())
            continue;
        QString kept = line;
        kept.replace(action, QStringLiteral("TEMPLATED"));
        out += kept.toUtf8() + '\n';
    }
    return out;
}

// What a Helm template reads: chart files, top-level .Values keys and .Chart fields, sorted.
inline QStringList templateReads(const QByteArray& bytes) {
    const QString text = QString::fromUtf8(bytes);
    QStringList reads;
    for (const auto& [re, what] : std::vector<std::pair<QString, QString>>{
             {QStringLiteral("\\.Files\\.Get\\s+\"([^\"]+)\""), QStringLiteral("file ")},
             {QStringLiteral("index\\s+\\.Values\\s+\"([^\"]+)\""), QStringLiteral("value ")},
             {QStringLiteral("\\.Values\\.([A-Za-z_][A-Za-z0-9_]*)"), QStringLiteral("value ")},
             {QStringLiteral("\\.Chart\\.([A-Za-z]+)"), QStringLiteral("chart ")}})
        for (auto it = QRegularExpression(re).globalMatch(text); it.hasNext();) {
            const QString r = what + it.next().captured(1);
            if (!reads.contains(r))
                reads << r;
        }
    reads.sort();
    return reads;
}

inline bool isHelmTemplate(Deployer deployer, const QString& path) {
    return deployer == Deployer::ArgoCDHelm && path.startsWith(QLatin1String("templates/")) &&
           path.count(QLatin1Char('/')) == 1;
}

// Compares a generated bundle with a golden folder; returns the differences (empty: parity).
inline QStringList compareWithGolden(const QString& out, const QString& golden, Deployer deployer,
                                     QStringList* notes) {
    QStringList problems;
    const QStringList mine = treePaths(out), theirs = treePaths(golden);
    for (const QString& p : theirs)
        if (!mine.contains(p))
            problems << QStringLiteral("missing %1").arg(p);
    for (const QString& p : mine)
        if (!theirs.contains(p)) {
            if (notFrozenByAicrTest(deployer, p))
                *notes << QStringLiteral("%1 (not frozen by AICR's %2 test)").arg(p, deployerName(deployer));
            else
                problems << QStringLiteral("extra %1").arg(p);
        }
    for (const QString& p : theirs) {
        if (!mine.contains(p))
            continue;
        const QByteArray a = readAll(out + QLatin1Char('/') + p), g = readAll(golden + QLatin1Char('/') + p);
        const QString base = QFileInfo(p).fileName();
        if (base == QLatin1String("values.yaml") || base == QLatin1String("cluster-values.yaml")) {
            if (afterLeadingComments(a) != afterLeadingComments(g))
                problems << QStringLiteral(
                                "%1: bytes after the comment block differ:\n--- ours\n%2--- AICR\n%3")
                                .arg(p, QString::fromUtf8(afterLeadingComments(a)),
                                     QString::fromUtf8(afterLeadingComments(g)));
        } else if (isHelmTemplate(deployer, p)) {
            for (const bool elseBranches : {false, true}) {
                QString e1, e2;
                const QJsonArray da = yamlDocs(maskedTemplate(a, elseBranches), p, &e1),
                                 dg = yamlDocs(maskedTemplate(g, elseBranches), p, &e2);
                const QString branch =
                    elseBranches ? QStringLiteral("else branches") : QStringLiteral("if branches");
                if (!e1.isEmpty() || !e2.isEmpty())
                    problems << QStringLiteral("%1 (%2): masked template does not parse: %3")
                                    .arg(p, branch,
                                         e1.isEmpty() ? QStringLiteral("AICR's: ") + e2
                                                      : QStringLiteral("ours: ") + e1);
                else if (da != dg)
                    problems << QStringLiteral(
                                    "%1 (%2): masked template documents differ:\n--- ours\n%3\n--- AICR\n%4")
                                    .arg(p, branch, QString::fromUtf8(QJsonDocument(da).toJson()),
                                         QString::fromUtf8(QJsonDocument(dg).toJson()));
            }
            if (templateReads(a) != templateReads(g))
                problems << QStringLiteral("%1: the template reads %2, AICR's reads %3")
                                .arg(p, templateReads(a).join(QStringLiteral(", ")),
                                     templateReads(g).join(QStringLiteral(", ")));
        } else if (base.endsWith(QLatin1String(".json"))) {
            QJsonParseError e1, e2;
            const QJsonDocument ja = QJsonDocument::fromJson(a, &e1), jg = QJsonDocument::fromJson(g, &e2);
            if (e1.error != QJsonParseError::NoError)
                problems << QStringLiteral("%1: ours is not JSON: %2").arg(p, e1.errorString());
            else if (ja != jg)
                problems << QStringLiteral("%1: JSON documents differ:\n--- ours\n%2--- AICR\n%3")
                                .arg(p, QString::fromUtf8(a), QString::fromUtf8(g));
        } else if (base == QLatin1String("upstream.env")) {
            if (envAssignments(a) != envAssignments(g))
                problems << QStringLiteral("%1: assignments differ:\n--- ours\n%2--- AICR\n%3")
                                .arg(p, QString::fromUtf8(a), QString::fromUtf8(g));
        } else if (base.endsWith(QLatin1String(".yaml")) || base.endsWith(QLatin1String(".yml"))) {
            QString e1, e2;
            const QJsonArray da = yamlDocs(a, p, &e1), dg = yamlDocs(g, p, &e2);
            if (!e1.isEmpty())
                problems << QStringLiteral("%1: ours does not parse: %2").arg(p, e1);
            else if (da != dg)
                problems << QStringLiteral("%1: documents differ:\n--- ours\n%2\n--- AICR\n%3")
                                .arg(p, QString::fromUtf8(QJsonDocument(da).toJson()),
                                     QString::fromUtf8(QJsonDocument(dg).toJson()));
        }
        // Scripts and READMEs are our own wording: the path is what must match.
    }
    return problems;
}

} // namespace pbtest::goldens
