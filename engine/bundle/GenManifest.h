// Manifest files of a component as the bundle carries them: AICR renders a component's manifests
// with Go templates at bundle time ({{ .Release.Namespace }}, {{ .Values.x }}, ...). Proofbench
// renders the plain field references; a manifest using anything more (conditionals, functions,
// pipelines) is kept as written, since the wrapper chart it lands in is rendered by Helm at
// install time, and the result says so.
#pragma once

#include "core/Result.h"
#include "yaml/Yaml.h"

#include <QByteArray>
#include <QString>

namespace pb::bundle {

struct ManifestContext {
    QString releaseName, namespace_, chartName, chartVersion;
    yaml::Node values = yaml::Node::map();
    QString component;
};

// Renders the field references of `bytes`; `file` names the manifest in errors. A reference to a
// value that does not exist renders empty, as Go's text/template does for a missing map key.
Result<QByteArray> renderManifest(const QByteArray& bytes, const ManifestContext& context,
                                  const QString& file);

// True when the text holds at least one YAML object (a line that is not blank, a comment or a
// document separator).
bool hasYamlObjects(const QByteArray& bytes);

// True when renderManifest left template actions it does not evaluate in place.
bool hasUnrenderedActions(const QByteArray& bytes);

} // namespace pb::bundle
