// What changed between two deployment bundles: components added and removed, chart, repository
// and version changes, deployment order and sync-wave moves, values path by path, the deployed
// objects (Applications, HelmReleases, releases) field by field, manifests, unknown files, and the
// number of distinct sync-waves on each side. Rendered as text, JSON and a Markdown summary a
// release page can paste.
#pragma once

#include "bundle/Model.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

namespace pb::bundle::model {

// Unknown (values only): a side keeps the value outside the bundle (a values file it names is
// missing, Flux valuesFrom), so what it is there is not known: never "removed" or "added".
enum class Change { Unchanged, Added, Removed, Changed, Unknown };
QString changeName(Change c); // "unchanged", "added", "removed", "changed", "unknown"

struct ValueChange {
    QString path; // "driver.enabled", "tolerations[0].key"
    Change change = Change::Changed;
    QString from, to; // full text ("" when absent)
};

struct ComponentChange {
    QString name;
    Change change = Change::Unchanged;
    int fromOrder = -1, toOrder = -1;
    std::optional<int> fromWave, toWave;
    Field fromChart, toChart, fromRepository, toRepository, fromVersion, toVersion, fromNamespace,
        toNamespace;
    QString fromSource, toSource;
    std::vector<ValueChange> values;       // effective values, path by path
    std::vector<ValueChange> objectFields; // the Application / HelmRelease / release, field by field
    QStringList manifestsAdded, manifestsRemoved, manifestsChanged; // by path inside the component
    bool chartChanged() const { return fromChart.text != toChart.text; }
    bool versionChanged() const { return fromVersion.text != toVersion.text; }
    bool repositoryMoved() const { return fromRepository.text != toRepository.text; }
    bool namespaceChanged() const { return fromNamespace.text != toNamespace.text; }
    bool waveChanged() const { return fromWave != toWave; }
    bool objectChanged() const { return !objectFields.empty(); }
    // A side keeps some of this component's values outside the bundle: its values are unknown there.
    bool fromValuesUnknown = false, toValuesUnknown = false;
    bool valuesChanged() const; // a known value change (not one of unknown values)
};

struct FileChange {
    QString path;
    Change change = Change::Changed;
    QString role;
};

struct BundleDiff {
    QString fromName, toName;
    Deployer fromDeployer = Deployer::Helm, toDeployer = Deployer::Helm;
    QString fromDigest, toDigest; // tree digests
    int fromComponents = 0, toComponents = 0;
    bool fromParent = false, toParent = false; // an app-of-apps parent Application besides the components
    int fromWaves = 0, toWaves = 0;            // distinct sync-waves
    QStringList fromOrder, toOrder;            // component names in deployment order
    bool orderChanged = false;                 // the relative order of the components on both sides differs
    std::vector<ComponentChange>
        components;                // every component of either side, in the new order then removed ones
    std::vector<FileChange> files; // added, removed, changed files (unchanged ones left out)
    QStringList fromUnknown, toUnknown;

    int count(Change c) const;
    int chartVersionChanges() const;
    int repositoryMoves() const;
    int changedObjects() const;
    int waveChanges() const;
    int valueChanges() const;  // components whose effective values changed (known on both sides)
    int valuesUnknown() const; // components whose values a side keeps outside the bundle
    bool identical() const { return fromDigest == toDigest; }

    QJsonObject toJson() const;
    QString toText() const;
    // A summary a release page can paste: "17 Argo CD Applications on both sides, 5 distinct
    // sync-waves, 15 changed Application objects, eight chart-version changes", then tables.
    QString toMarkdown() const;
    // The first line of toMarkdown (no Markdown markup).
    QString headline() const;
};

BundleDiff diffBundles(const DeployBundle& from, const DeployBundle& to);

} // namespace pb::bundle::model
