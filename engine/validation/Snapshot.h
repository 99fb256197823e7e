// The cluster as `aicr snapshot` records it, read over the API instead of by an agent Job: server
// version, nodes with their GPU labels and counts, OS image, kernel and container runtime, turned
// into AICR's Snapshot YAML; and the recipe's readiness constraints (top-level constraints plus
// validation.readiness) evaluated on it before any Job is created.
#pragma once

#include "catalog/Resolver.h"
#include "core/Result.h"
#include "yaml/Yaml.h"

#include <QByteArray>
#include <QDateTime>
#include <QMap>
#include <QString>

#include <atomic>
#include <vector>

namespace pb::kube {
class Client;
}

namespace pb::validation {

struct NodeInfo {
    QString name;
    QMap<QString, QString> labels;
    int gpus = 0;       // allocatable (else capacity) nvidia.com/gpu
    QString gpuProduct; // nvidia.com/gpu.product label
    QString osImage, kernelVersion, containerRuntime, kubeletVersion;
    QString osId, osVersion; // from NFD labels, else parsed from osImage
    bool schedulable = true;
    bool isGpuNode() const {
        return gpus > 0 || labels.value(QStringLiteral("nvidia.com/gpu.present")) == QLatin1String("true");
    }
};

struct ClusterSnapshot {
    QDateTime taken;
    QString serverVersion; // gitVersion, e.g. "v1.33.0"
    std::vector<NodeInfo> nodes;
    QString toolVersion; // Proofbench version, for metadata.version

    int gpuNodeCount() const;
    const NodeInfo* firstGpuNode() const;
    // A measurement by AICR's constraint path: "K8s.server.version", "OS.release.ID",
    // "OS.release.VERSION_ID", "OS.sysctl./proc/sys/kernel/osrelease", "GPU.hardware.model", ...
    // Empty when the snapshot has no such reading.
    QString reading(const QString& path) const;
    yaml::Node toNode() const;
    QByteArray toYaml() const;
};

// Builds a snapshot from the API: GET /version and the node list.
Result<ClusterSnapshot> takeSnapshot(kube::Client& client, const QString& toolVersion);
// The same from JSON already fetched (the node list and /version bodies), for tests and replays.
ClusterSnapshot snapshotFromJson(const QJsonObject& version, const QJsonObject& nodeList,
                                 const QString& toolVersion);

enum class ConstraintOutcome { Passed, Failed, Unknown };
struct ConstraintCheck {
    catalog::Constraint constraint;
    QString source;   // "constraints" or "validation.readiness"
    QString measured; // the reading, empty when not measurable from the API
    ConstraintOutcome outcome = ConstraintOutcome::Unknown;
    QString detail;
};

// Versions compare numerically component by component ("v1.33.0-eks-1" >= "1.32.4"); other values
// compare as strings. A constraint whose reading is not in the snapshot is Unknown (reported, not
// blocking), as the API cannot see it (e.g. Deployment.* before the components are deployed).
std::vector<ConstraintCheck> evaluateReadiness(const catalog::RecipeResult& recipe,
                                               const ClusterSnapshot& snapshot);
bool compareVersions(const QString& measured, const QString& op, const QString& wanted,
                     bool* comparable = nullptr);

} // namespace pb::validation
