// The subset of `kustomize build` a bundle needs for a local kustomization: `resources:` that are
// files inside the kustomization's folder, each object written with sorted keys and comments
// dropped (as kustomize prints them), objects separated by "---". Anything else in the
// kustomization (generators, patches, remote bases) is an error naming the field.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QString>

namespace pb::bundle {

Result<QByteArray> kustomizeBuildLocal(const QString& dir);

} // namespace pb::bundle
