// The flux deployer (AICR's flux layout). No NNN- folders: a folder per Flux HelmRelease, named as
// the release.
//   <name>/helmrelease.yaml          a chart from a HelmRepository, its static values inline
//   <name>/configmap-values.yaml     the install-time (dynamic) values, read through valuesFrom
//   <name>-pre/, <name>-post/, or <name>/ of a manifest-only component: a local chart
//     (Chart.yaml, templates/ with the manifests as written: helm-controller renders them with the
//     component's values under its name) installed from the GitRepository of the bundle itself
//   sources/helmrepo-<slug>.yaml     one HelmRepository per chart repository
//   sources/gitrepo-<slug>.yaml      the GitRepository the bundle is pushed to (options.repoUrl)
//   kustomization.yaml               every file above, sorted; README.md
// dependsOn follows the recipe's dependencyRefs (a component waits for the last release of each
// dependency); a component's -pre release comes before it and its -post release after it. With
// --serial every component depends on the one before it instead.
#pragma once

#include "bundle/Generate.h"

#include <atomic>
#include <vector>

namespace pb::bundle {

// Writes the Flux bundle of the components (in deployment order) into `tree`, with one
// BundleFolder per HelmRelease. Errors name the component and reason.
Status writeFluxBundle(BundleTree& tree, const GenerateInput& input,
                       const std::vector<const GenComponent*>& ordered, const GenerateOptions& options,
                       const std::atomic_bool* cancel);

} // namespace pb::bundle
