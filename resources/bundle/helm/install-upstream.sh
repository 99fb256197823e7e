#!/usr/bin/env bash
# Installs (or upgrades) the @NAME@ release from its upstream chart.
# Written by Proofbench bundle generate; deploy.sh runs it, or run it yourself.
set -euo pipefail
cd "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=/dev/null
source ./upstream.env

# Helm 4 applies server-side and needs --force-conflicts to take over fields that operators
# rewrite (webhook certificates); Helm 3 does not know the flag.
FORCE_CONFLICTS_FLAG=""
helm_major=$(helm version --template '{{.Version}}' 2>/dev/null | sed -nE 's/^v([0-9]+)\..*/\1/p')
if [[ "${helm_major:-0}" -ge 4 ]]; then
  FORCE_CONFLICTS_FLAG="--force-conflicts"
fi

# Words added to the helm command: the wait arguments deploy.sh chooses, and the dry-run,
# kubeconfig and debug flags a caller may set. Split into words, never expanded as globs.
read -r -a extra_args <<<"${COMPONENT_WAIT_ARGS:-} ${DRY_RUN_FLAG:-} ${KUBECONFIG_FLAG:-} ${HELM_DEBUG_FLAG:-}"

# OCI charts carry the whole reference in CHART and leave REPO empty, so --repo is only passed
# for HTTP(S) chart repositories.
helm upgrade --install ${FORCE_CONFLICTS_FLAG} @NAME@ "${CHART}" \
  ${REPO:+--repo "${REPO}"} --version "${VERSION}" \
  --namespace @NAMESPACE@ --create-namespace \
  -f values.yaml -f cluster-values.yaml \
  ${extra_args[@]+"${extra_args[@]}"}
