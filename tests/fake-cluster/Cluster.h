// The scripted cluster the fake kubectl and helm answer from: a JSON file (PB_FAKE_STATE) holding
//   "objects": Kubernetes objects as the API returns them (apiVersion, kind, metadata, spec, status)
//   "helm":    {"version": "v3.17.0", "releases": {"name": "namespace"},
//               "failures": {"release" or "*": attempts that fail, -1 for every one},
//               "hookJobOnFailure": true}  (a failed attempt leaves a failed hook Job behind)
//   "forbidden": ["daemonsets", ...]  resources kubectl may not list (Forbidden)
// A command that changes the cluster writes the file back (atomically), so later commands see it.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace fakecluster {

// One resource type as kubectl names it.
struct ResourceType {
    QString kind, plural, singular, group;
    QStringList shortNames;
    bool namespaced = true;
    // How `-o name` and messages spell it: "deployment.apps", "pod".
    QString qualified() const { return group.isEmpty() ? singular : singular + QLatin1Char('.') + group; }
    QString qualifiedPlural() const { return group.isEmpty() ? plural : plural + QLatin1Char('.') + group; }
};

// The type a command-line word names ("deploy", "daemonset.apps", "crds"); null when unknown.
const ResourceType* resourceType(const QString& word);

struct Cluster {
    QJsonObject state;
    QString path;
    bool changed = false;

    bool load(const QString& file, QString* error);
    bool save(QString* error) const;

    QJsonArray objects() const { return state.value(QStringLiteral("objects")).toArray(); }
    void setObjects(const QJsonArray& objects) {
        state[QStringLiteral("objects")] = objects;
        changed = true;
    }
    QJsonObject helm() const { return state.value(QStringLiteral("helm")).toObject(); }
    void setHelm(const QJsonObject& helm) {
        state[QStringLiteral("helm")] = helm;
        changed = true;
    }
};

int kubectl(Cluster& cluster, const QStringList& args);
int helm(Cluster& cluster, const QStringList& args);

} // namespace fakecluster
