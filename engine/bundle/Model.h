// A deployment bundle read as structured data: what `aicr bundle` wrote for one of its deployers
// (helm, argocd, argocd-helm, flux, helmfile), as components in deployment order with their chart
// coordinates, namespace, sync-wave, effective values and manifests, every file of the tree with
// its role, and the files no deployer layout explains (listed, never dropped).
//
// argocd-helm bundles are Helm charts whose Applications are templates. Proofbench never renders
// Helm: a field whose text holds a template action ("{{ ... }}") is kept as written and marked
// templated; only literal fields are read as values.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace pb::bundle::model {

enum class Deployer { Helm, ArgoCD, ArgoCDHelm, Flux, Helmfile };
// "helm", "argocd", "argocd-helm", "flux", "helmfile"
QString deployerName(Deployer d);
// Also accepts "argocdhelm" and "argocd_helm".
std::optional<Deployer> parseDeployer(const QString& name);
// What a deployer's objects are called: "Helm release", "Argo CD Application", "Flux HelmRelease",
// "helmfile release".
QString objectNoun(Deployer d);

// A field as the bundle writes it: literal text, or a Helm template kept as written.
struct Field {
    QString text;
    bool templated = false;
    bool isEmpty() const { return text.isEmpty(); }
    // The text, or "templated: <text>" for a template.
    QString display() const;
    bool operator==(const Field& o) const { return text == o.text && templated == o.templated; }
};

// What a file is in the bundle. Unknown files are kept with role "unknown".
struct BundleFile {
    QString path; // relative, '/'-separated
    QString role; // values, cluster-values, upstream-env, install-script, chart, manifest, application,
                  // application-template, app-of-apps, helmrelease, kustomization, helmfile, static-values,
                  // bundle-values, values-schema, readme, deploy-script, undeploy-script, recipe, checksums,
                  // attestation, digest-index, unknown
    QString component; // the component it belongs to (empty for bundle-level files)
    qint64 size = 0;
    QString sha256;
};

struct Component {
    QString name;                // identity used to match components across bundles
    int order = 0;               // 0-based deployment position
    QString folder;              // "001-cert-manager"; empty when the deployer uses none
    std::optional<int> syncWave; // literal Argo CD sync-wave (helmfile: the level of a leveled helmfile)
    QString syncWaveText;        // as written (may be templated)
    QString source; // "upstream-chart" (a chart from a repository), "local-chart" (a wrapper chart in
                    // the bundle), "path" (Argo CD path source: Kustomize or plain manifests)
    Field release;  // Application / HelmRelease / release name as written
    Field chart, repository, version, namespace_;
    QStringList valueFiles;       // the bundle files its values come from, in the order applied
    QJsonObject values;           // effective values: value files merged in order, then inline values
    bool valuesTemplated = false; // inline values are a template (argocd-helm) and are shown as written
    QString valuesTemplate;       // that template text
    QStringList manifests;        // manifest files (templates/ of a wrapper chart)
    QStringList dependsOn;        // Flux dependsOn / helmfile needs
    QString objectKind;           // "Application", "HelmRelease", "release" (helmfile), "helm release" (helm)
    QString objectFile;           // the file that declares it
    QJsonObject object;           // that object as read (templated scalars kept as written)
    QStringList templatedFields;  // dotted paths of object fields that are templates
    QStringList notes; // e.g. "values file 001-cert-manager/values.yaml is referenced but not in the bundle"
    // False when some of its values live outside the bundle (a values file it names is missing,
    // Flux spec.valuesFrom): its effective values are then unknown, not absent.
    bool valuesComplete = true;
};

struct DeployBundle {
    QString root; // the folder read (or the imported bundle's name)
    Deployer deployer = Deployer::Helm;
    std::vector<Component> components; // in deployment order
    std::vector<BundleFile> files;     // every file, sorted by path
    QStringList unknownFiles;          // files no layout explains (also in files, role "unknown")
    QString treeDigest;                // the tree digest, hex (bundle/TreeDigest.h)
    qint64 totalBytes = 0;
    // The recipe it was made from (recipe.yaml at the root), when present.
    QString recipePath, recipeSha256, recipeEvidenceDigest, recipeName;
    QStringList warnings; // what was read but looked wrong (never fatal)

    int distinctSyncWaves() const;
    // Argo CD: the app-of-apps parent Application is an object of the bundle too (not a component).
    bool hasParentApplication() const;
    const Component* component(const QString& name) const;
    const BundleFile* file(const QString& path) const;
};

QJsonObject toJson(const Field& f);
QJsonObject toJson(const Component& c);
QJsonObject toJson(const BundleFile& f);
// The whole bundle (without file contents).
QJsonObject toJson(const DeployBundle& b);

// Every scalar leaf of a JSON value as "a.b[2].c" -> text (strings as written, others as JSON).
// An empty object or array is a leaf of its own ("{}", "[]").
std::vector<std::pair<QString, QString>> flatten(const QJsonValue& v);
// Helm's deep merge of values: maps merge key by key, anything else in `over` replaces.
QJsonObject mergeValues(const QJsonObject& base, const QJsonObject& over);

} // namespace pb::bundle::model
