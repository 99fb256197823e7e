// The readiness gate of a component: a Job that runs the component's chainsaw readiness Test
// (carried in a ConfigMap) against its namespace, with the ServiceAccount and read-only cluster
// RBAC it needs. Functionally what AICR's bundler emits for a component with a readiness check
// (NNN-<name>-readiness/templates/readiness.yaml): the same objects, names, arguments and
// deployer-specific Job annotations; the text is ours. The namespace is left as
// {{ .Release.Namespace }} for the manifest renderer (GenManifest.h).
#pragma once

#include "bundle/Generate.h"

#include <QByteArray>
#include <QString>

namespace pb::bundle {

// Gate timing, as AICR's defaults (Go duration text).
struct GateSettings {
    QString execTimeout = QStringLiteral("2m0s");
    QString pollInterval = QStringLiteral("10s");
    QString stabilityWindow = QStringLiteral("30s");
    QString maxWait = QStringLiteral("1h30m0s");
    int backoffLimit = 6;
};

// The gate image for a bundler version ("ghcr.io/nvidia/aicr-gate:<version>").
QString gateImage(const QString& bundlerVersion);

// The gate manifest (five YAML documents). Refuses an empty component name or test.
Result<QByteArray> renderReadinessGate(const QString& component, const QString& image,
                                       const QByteArray& testYaml, Deployer deployer,
                                       const GateSettings& settings = {});

} // namespace pb::bundle
