// Deployment bundle generation: a resolved recipe (plus the catalog it came from) rendered into
// the folder layout AICR's `aicr bundle` writes for the helm and argocd deployers.
//
// Layout (both deployers): one NNN-<name>/ folder per install step, in deployment order. A
// component with pre-manifests gets an NNN-<name>-pre/ wrapper chart before it; one with a Helm
// chart and manifests gets NNN-<name>-post/ after it; a manifest-only or kustomize component is a
// wrapper chart itself (Chart.yaml + templates/); a readiness gate is NNN-<name>-readiness/. Every
// folder has values.yaml. helm adds cluster-values.yaml, install.sh, upstream.env (upstream charts),
// deploy.sh and README.md; argocd adds application.yaml per folder, app-of-apps.yaml and README.md.
// Both write recipe.yaml (the recipe the bundle was made from) unless told not to.
//
// Deterministic: the same input and options give the same paths and bytes (no timestamps, no
// absolute paths, maps written with sorted keys). render() works in memory; generate() writes.
#pragma once

#include "catalog/Resolver.h"
#include "catalog/Types.h"
#include "core/Result.h"
#include "yaml/Yaml.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <vector>

namespace pb::bundle {

enum class Deployer { Helm, ArgoCD };
QString deployerName(Deployer deployer); // "helm", "argocd"
Result<Deployer> parseDeployer(const QString& text);

// A manifest file handed to the generator: its name (only the file name is kept in the bundle)
// and its bytes, which may use the Go-template fields AICR's manifest renderer offers
// ({{ .Release.Namespace }}, {{ .Values.x.y }}, {{ .Chart.Name }}, ...).
struct GenManifest {
    QString path;
    QByteArray bytes;
};

// One recipe component as the generator consumes it: AICR's ComponentRef plus what the bundler
// collects for it (effective values, manifests, readiness gate).
struct GenComponent {
    QString name, namespace_, chart, source, version, tag, path;
    bool kustomize = false;                       // type Kustomize
    QStringList dependencyRefs;                   // drive argocd sync-wave tiers
    yaml::Node values = yaml::Node::map();        // effective Helm values (static part)
    yaml::Node clusterValues = yaml::Node::map(); // dynamic, per-cluster part (helm only)
    std::vector<GenManifest> preManifests;        // applied before the chart (NNN-<name>-pre/)
    std::vector<GenManifest> postManifests;       // applied after the chart (or the chart itself)
    std::vector<GenManifest> readiness;           // readiness gate objects (NNN-<name>-readiness/)
    // The component's chainsaw readiness Test: when set (and `readiness` is empty) the gate's
    // ServiceAccount, RBAC, ConfigMap and Job are synthesized from it (GenGate.h) as
    // NNN-<name>-readiness/templates/readiness.yaml.
    QByteArray readinessTest;
    // Kustomize components: the built output (kustomize build), stored as templates/manifest.yaml,
    // and the commit of the source repository it was built from (empty for a plain folder).
    QByteArray kustomizeBuilt;
    QString kustomizeCommit;
};

struct GenerateInput {
    QString recipeVersion; // RecipeResult metadata.version
    catalog::Criteria criteria;
    std::vector<catalog::Constraint> constraints;
    std::vector<GenComponent> components; // any order; deploymentOrder decides
    QStringList deploymentOrder;
    QByteArray recipeYaml; // written as recipe.yaml when non-empty and options.writeRecipe
};

struct GenerateOptions {
    Deployer deployer = Deployer::Helm;
    QString bundlerVersion = QStringLiteral("v1.0.0"); // stamped into README/deploy.sh
    // argocd: where the bundle will be published (Applications' repoURL / targetRevision) and the
    // parent Application's name.
    QString repoUrl;        // empty: https://github.com/YOUR-ORG/YOUR-REPO.git
    QString targetRevision; // empty: main
    QString appName;        // empty: nvidia-stack
    // Value overrides, "component.dotted.path=value" (AICR --set), applied last.
    QStringList sets;
    // Node scheduling (AICR --accelerated-node-selector etc.), applied through the registry's
    // nodeScheduling paths of each component.
    QMap<QString, QString> acceleratedNodeSelector;
    QStringList acceleratedNodeTolerations; // "key=value:Effect" or "key:Effect"
    QMap<QString, QString> workloadSelector;
    QString storageClass;
    int estimatedNodeCount = 0; // 0: not given
    bool writeRecipe = true;
};

// One file of a rendered bundle.
struct BundleFile {
    QString path; // relative, '/' separated
    QByteArray bytes;
    bool executable = false;
};

// One install step (NNN-<name>/ folder).
struct BundleFolder {
    QString dir;       // "002-gpu-operator"
    QString name;      // release / Application name, "gpu-operator-post"
    QString component; // the recipe component it belongs to
    QString kind;      // "upstream-helm" or "local-helm"
    QString namespace_;
    int syncWave = 0; // argocd only
};

struct BundleTree {
    Deployer deployer = Deployer::Helm;
    std::vector<BundleFolder> folders; // deployment order
    std::vector<BundleFile> files;     // sorted by path
    const BundleFile* file(const QString& path) const;
};

using GenProgressFn = std::function<void(int done, int total, const QString& what)>;

// From a resolved recipe and its catalog: effective values (component values file, overrides,
// node scheduling, --set), manifests and kustomize output read from the catalog. Errors name the
// catalog file and field.
Result<GenerateInput> inputFromRecipe(const catalog::Catalog& catalog, const catalog::RecipeResult& recipe,
                                      const GenerateOptions& options);

// Renders the bundle in memory. Deterministic.
Result<BundleTree> render(const GenerateInput& input, const GenerateOptions& options,
                          const std::atomic_bool* cancel = nullptr);

// The bundle's tree digest (bundle/TreeDigest.h), hex.
QString treeDigest(const BundleTree& tree);

// Writes a rendered tree into `dir` (created when missing). Refuses a non-empty directory that does
// not look like a bundle this generator wrote (no NNN-* folders, no deploy.sh/app-of-apps.yaml);
// stale NNN-* folders from an earlier generation are removed.
Status writeTree(const BundleTree& tree, const QString& dir, const GenProgressFn& progress = {},
                 const std::atomic_bool* cancel = nullptr);

// inputFromRecipe + render + writeTree, for callers that just want a bundle on disk (e.g. diffing
// bundles generated from two catalog versions). Returns the rendered tree.
Result<BundleTree> generate(const catalog::Catalog& catalog, const catalog::RecipeResult& recipe,
                            const GenerateOptions& options, const QString& dir,
                            const GenProgressFn& progress = {}, const std::atomic_bool* cancel = nullptr);

} // namespace pb::bundle
