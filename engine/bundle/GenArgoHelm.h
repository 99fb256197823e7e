// The argocd-helm deployer (AICR's argocd-helm layout): the argocd deployer's folders turned into one
// Helm chart, so the same bundle can be pushed once (OCI registry or Helm repository) and installed
// anywhere with `helm install`, its install-time values given then.
//
//   Chart.yaml                 the bundle chart (options.chartName / chartVersion)
//   values.yaml                install-time values: repoURL, targetRevision, deployer: (child
//                              Application defaults), appName when given, and under each
//                              component's override key its dynamic values
//   values.schema.json         Helm's check of the deployer: values at install time
//   templates/aicr-stack.yaml  the parent Application (the chart itself, pushed where repoURL says)
//   templates/<folder>.yaml    one child Application template per NNN- folder; a chart from a
//                              repository gets static/<name>.yaml merged with its install-time
//                              values, a folder chart (path source) its install-time values
//   static/<name>.yaml         the static values of each chart from a repository
//   NNN-<name>/                the argocd folders without application.yaml (values.yaml, and
//                              Chart.yaml + templates/ of folder charts)
// Template actions are Helm's; Proofbench never renders them (Read.h reads them as templated).
#pragma once

#include "bundle/Generate.h"

#include <map>

namespace pb::bundle {

// Turns the argocd tree in `tree` (NNN-*/application.yaml and the folders' files) into the chart.
// Errors name the component or option and reason.
Status writeArgoHelmChart(BundleTree& tree, const GenerateInput& input, const GenerateOptions& options,
                          const std::map<QString, const GenComponent*>& byName);

} // namespace pb::bundle
