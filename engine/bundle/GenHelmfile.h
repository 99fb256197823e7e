// The helmfile deployer's top level (AICR's helmfile layout): the helm deployer's NNN- folders stay
// as they are (values.yaml, cluster-values.yaml, upstream.env or a wrapper chart, install.sh),
// deploy.sh is not written, and helmfile.yaml declares one release per folder.
//
// When the components fall into more than one dependency level, helmfile.yaml only lists
// level-N.yaml files (helmfiles:), one per level, which helmfile applies one after another: a
// level's CRDs exist before the next level is diffed. Otherwise helmfile.yaml holds the releases.
// Within a file a release needs: the previous release of its own component (pre -> chart -> post),
// or with --serial the release before it. The releases of an async component (kai-scheduler, as
// the helm deployer's deploy.sh treats it) do not wait and get 20 minutes; a folder whose chart
// creates its own Namespace does not ask helm to create it; helm-diff's validation is off for a
// chart that creates objects of CRDs it ships, and for a -post folder whose manifests do.
#pragma once

#include "bundle/Generate.h"

#include <map>

namespace pb::bundle {

// Adds helmfile.yaml (and level-N.yaml) and README.md for the folders already in `tree`.
Status writeHelmfileTop(BundleTree& tree, const GenerateInput& input, const GenerateOptions& options,
                        const std::map<QString, const GenComponent*>& byName);

} // namespace pb::bundle
