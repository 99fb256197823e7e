// Deployment bundle generation: a resolved recipe (plus the catalog it came from) rendered into
// the folder layout AICR's `aicr bundle` writes for its five deployers: helm, argocd, argocd-helm,
// flux and helmfile.
//
// NNN- layout (helm, argocd, argocd-helm, helmfile): one NNN-<name>/ folder per install step, in
// deployment order. A component with pre-manifests gets an NNN-<name>-pre/ wrapper chart before
// it; one with a Helm chart and manifests gets NNN-<name>-post/ after it; a manifest-only or
// kustomize component is a wrapper chart itself (Chart.yaml + templates/); a readiness gate is
// NNN-<name>-readiness/. Every folder has values.yaml.
//   helm:        cluster-values.yaml, install.sh, upstream.env (upstream charts) per folder;
//                deploy.sh and README.md at the top.
//   argocd:      application.yaml per folder, app-of-apps.yaml and README.md at the top.
//   argocd-helm: the bundle is a Helm chart (GenArgoHelm.h): Chart.yaml, values.yaml (install-time
//                values), values.schema.json, templates/<name>.yaml (one Application template per
//                folder) and templates/aicr-stack.yaml (the parent), static/<name>.yaml (the
//                values of each upstream chart); the folders keep values.yaml and their charts.
//   helmfile:    the helm folders (without deploy.sh), helmfile.yaml (or helmfile.yaml listing one
//                level-N.yaml per dependency level) and README.md (GenHelmfile.h).
// flux (GenFlux.h) has no NNN- folders: <release>/helmrelease.yaml per release (a local chart
// beside it for manifests), sources/ (HelmRepository, GitRepository), kustomization.yaml listing
// them, README.md.
// Every deployer writes recipe.yaml (the recipe the bundle was made from) unless told not to.
//
// Deterministic: the same input and options give the same paths and bytes (no timestamps, no
// absolute paths, maps written with sorted keys). render() works in memory; generate() writes.
#pragma once

#include "bundle/Model.h"

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

// The deployers are the ones a bundle is read as (bundle/Model.h): one enum, one name table.
using Deployer = model::Deployer;
using model::deployerName; // "helm", "argocd", "argocd-helm", "flux", "helmfile"
// Accepts the five names exactly (any case; not the reader's aliases); the error lists them all.
Result<Deployer> parseDeployer(const QString& text);
// The five names, in the order above.
QStringList deployerNames();

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
    QStringList dependencyRefs;                   // drive sync-wave tiers, helmfile levels, flux dependsOn
    yaml::Node values = yaml::Node::map();        // effective Helm values (static part)
    yaml::Node clusterValues = yaml::Node::map(); // dynamic, per-cluster part
    // Dotted value paths that are install-time inputs (AICR --dynamic): render() moves each from
    // `values` into `clusterValues` (a path `values` lacks becomes ""), which then lands in
    // cluster-values.yaml (helm, helmfile), the bundle chart's values.yaml (argocd-helm) or a
    // ConfigMap read through valuesFrom (flux). argocd refuses them, as AICR does.
    QStringList dynamicPaths;
    // From the registry entry: the key install-time values of this component sit under in an
    // argocd-helm bundle's values.yaml (the first of valueOverrideKeys, "gpuoperator" for
    // gpu-operator). argocd-helm needs it for every component.
    QString overrideKey;
    // From the registry entry: the chart's own templates create objects of CRDs it ships
    // (hasSelfRefCRDs), and the component's manifests create objects of CRDs its chart installs
    // (manifestsUseChartCRDs). helmfile turns helm-diff's validation off for those releases.
    bool selfReferencingCrds = false;
    bool manifestsUseChartCrds = false;
    std::vector<GenManifest> preManifests;  // applied before the chart (NNN-<name>-pre/)
    std::vector<GenManifest> postManifests; // applied after the chart (or the chart itself)
    std::vector<GenManifest> readiness;     // readiness gate objects (NNN-<name>-readiness/)
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
    QString bundlerVersion = QStringLiteral("v1.0.0"); // stamped into README/deploy.sh, gate image
    // Where the bundle will be published.
    //   argocd: the Applications' repoURL / targetRevision (empty: YOUR-ORG placeholder, main).
    //   flux:   the GitRepository source of local charts (empty: YOUR_ORG placeholder, main).
    //   argocd-helm: repoUrl is the parent OCI namespace or Helm repository the bundle chart is
    //   pushed to, without the chart name (AICR takes it from `--output oci://...`); it becomes
    //   the default repoURL in the chart's values.yaml (empty: "", given at `helm install`).
    //   targetRevision is not used (the chart's templates default to its version).
    QString repoUrl;
    QString targetRevision;
    // The parent Application's name. argocd: empty is nvidia-stack. argocd-helm: empty is
    // aicr-stack (the template's default); a name given is written to the chart's values.yaml.
    QString appName;
    // Install-time value paths, "component:dotted.path" (AICR --dynamic); the component may be
    // named by one of its valueOverrideKeys. See GenComponent::dynamicPaths.
    QStringList dynamicValues;
    // Emit a readiness gate (NNN-<name>-readiness/) for each component whose catalog folder has
    // components/<name>/readiness.yaml (AICR --readiness-hooks). helm, argocd and argocd-helm only.
    bool readinessHooks = false;
    // One component at a time (AICR --serial): argocd and argocd-helm give every folder its own
    // sync-wave, helmfile chains every release to the one before, flux makes every component
    // depend on the previous one. helm is serial anyway.
    bool serial = false;
    // flux: the namespace of the Flux objects (HelmReleases, sources); empty: flux-system.
    QString fluxNamespace;
    // argocd-helm: the bundle chart's name and version (empty: aicr-bundle, and the recipe
    // version without its "v"). The version must be strict SemVer.
    QString chartName;
    QString chartVersion;
    // argocd-helm: defaults for the child Applications (AICR --set deployer:<key>=<value>), written
    // to the chart's values.yaml under deployer: and overridable at install time. cascadeDelete
    // adds Argo CD's resources finalizer to the parent and every child (bundle time only).
    QString namePrefix;
    QString destinationServer; // empty: https://kubernetes.default.svc
    QString project;           // empty: default
    bool cascadeDelete = false;
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
    QString dir;       // "002-gpu-operator" (flux: "gpu-operator")
    QString name;      // release / Application name, "gpu-operator-post"
    QString component; // the recipe component it belongs to
    QString kind;      // "upstream-helm" or "local-helm"
    QString phase;     // "pre", "primary", "post" or "readiness"
    QString namespace_;
    int level = 0;    // its component's dependency level: the longest chain of dependencies below it
    int syncWave = 0; // argocd and argocd-helm only
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

// What the component's registry entry tells generation: its first value override key and its CRD
// flags (hasSelfRefCRDs, manifestsUseChartCRDs). inputFromRecipe applies it to every component.
void applyRegistryEntry(GenComponent& c, const catalog::RegistryComponent& entry);

// Renders the bundle in memory. Deterministic.
Result<BundleTree> render(const GenerateInput& input, const GenerateOptions& options,
                          const std::atomic_bool* cancel = nullptr);

// The bundle's tree digest (bundle/TreeDigest.h), hex.
QString treeDigest(const BundleTree& tree);

// Writes a rendered tree into `dir` (created when missing). Refuses a non-empty directory that does
// not look like a bundle this generator wrote (no NNN-* folders, no deploy.sh, app-of-apps.yaml,
// helmfile.yaml, Flux kustomization.yaml or bundle chart); what an earlier generation wrote
// (NNN-* folders, level-N.yaml, templates/, static/, sources/, Flux release folders) is removed.
Status writeTree(const BundleTree& tree, const QString& dir, const GenProgressFn& progress = {},
                 const std::atomic_bool* cancel = nullptr);

// inputFromRecipe + render + writeTree, for callers that just want a bundle on disk (e.g. diffing
// bundles generated from two catalog versions). Returns the rendered tree.
Result<BundleTree> generate(const catalog::Catalog& catalog, const catalog::RecipeResult& recipe,
                            const GenerateOptions& options, const QString& dir,
                            const GenProgressFn& progress = {}, const std::atomic_bool* cancel = nullptr);

} // namespace pb::bundle
