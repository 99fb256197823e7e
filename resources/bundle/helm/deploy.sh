#!/usr/bin/env bash
# Deploys this bundle: runs every NNN-<name>/install.sh in folder order.
# Written by Proofbench bundle generate (bundler version @BUNDLER_VERSION@).
#
#   ./deploy.sh [--no-wait] [--best-effort] [--retries N]
#     --no-wait      do not pass --wait to Helm (the --timeout for hooks stays)
#     --best-effort  keep going when a component fails, and list the failures at the end
#     --retries N    retry a failed install N times with growing pauses (default 5; 0: no retry)
#
# Each folder's install.sh also works on its own: cd NNN-<name> && bash install.sh
set -euo pipefail

BUNDLE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Helm runs from an empty scratch folder so that a bundle folder named like a chart cannot stand
# in for the remote chart.
SCRATCH_DIR="$(mktemp -d)"
trap 'rm -rf "${SCRATCH_DIR}"' EXIT

HELM_TIMEOUT="10m"
NO_WAIT=false
BEST_EFFORT=false
MAX_RETRIES=5
FAILED=""

usage() { echo "usage: ./deploy.sh [--no-wait] [--best-effort] [--retries N]"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-wait) NO_WAIT=true; shift ;;
    --best-effort) BEST_EFFORT=true; shift ;;
    --retries)
      if [[ $# -lt 2 || ! "$2" =~ ^[0-9]+$ ]]; then echo "error: --retries needs a whole number"; exit 1; fi
      MAX_RETRIES="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "error: unknown option $1"; usage; exit 1 ;;
  esac
done

export DRY_RUN_FLAG="${DRY_RUN_FLAG:-}"
export KUBECONFIG_FLAG="${KUBECONFIG_FLAG:-}"
export HELM_DEBUG_FLAG="${HELM_DEBUG_FLAG:-}"

# Operators whose custom resources settle after Helm returns: installed without --wait.
ASYNC_COMPONENTS="@ASYNC_COMPONENTS@"

# Pause before retry number $1: 5s, 20s, 45s, 80s, then 120s.
pause_for() {
  local s=$(( $1 * $1 * 5 ))
  if [[ ${s} -gt 120 ]]; then s=120; fi
  echo "${s}"
}

# A hook Job left behind by a failed attempt blocks the next one: remove the ones that did not
# succeed (only hook Jobs, recognised by their helm.sh/hook annotation).
remove_failed_hook_jobs() {
  local ns="$1" job
  for job in $(kubectl get jobs -n "${ns}" --field-selector=status.successful=0 \
      -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' 2>/dev/null || true); do
    if kubectl get job "${job}" -n "${ns}" -o json 2>/dev/null | grep -q '"helm.sh/hook"'; then
      echo "  removing failed hook Job ${ns}/${job}"
      kubectl delete job "${job}" -n "${ns}" --ignore-not-found >/dev/null 2>&1 || true
    fi
  done
}

# Before anything is installed: a namespace of this bundle still terminating from an earlier
# install would swallow what is created in it.
for ns in @NAMESPACES@; do
  phase=$(kubectl get ns "${ns}" -o jsonpath='{.status.phase}' 2>/dev/null || true)
  if [[ "${phase}" == "Terminating" ]]; then
    echo "error: namespace ${ns} is still terminating; wait for it to go, then run deploy.sh again"
    exit 1
  fi
done

cd "${SCRATCH_DIR}"
folders=("${BUNDLE_DIR}"/[0-9][0-9][0-9]-*/)
total=${#folders[@]}
step=0
for dir in "${folders[@]}"; do
  [[ -d "${dir}" ]] || continue
  dir="${dir%/}"
  name="${dir##*/}"
  name="${name#[0-9][0-9][0-9]-}"
  step=$((step + 1))
  # The release namespace is the one install.sh passes to Helm.
  ns=$(awk '{ for (i = 1; i < NF; i++) if ($i == "--namespace") { print $(i + 1); exit } }' "${dir}/install.sh")
  echo "[${step}/${total}] ${name} (namespace ${ns})"

  timeout="${HELM_TIMEOUT}"
  retries="${MAX_RETRIES}"
  wait_args=""
  case "${name}" in
    kai-scheduler) timeout="20m"; retries=1 ;;
    # A readiness gate is a hook Job that polls until the component is ready: Helm must wait for
    # it whatever --no-wait says, and re-running it on failure only doubles the wait.
    *-readiness) timeout="@READINESS_TIMEOUT@"; retries=1; wait_args="--wait --timeout ${timeout}" ;;
  esac
  if [[ -z "${wait_args}" ]]; then
    if [[ "${NO_WAIT}" == "true" ]] || echo " ${ASYNC_COMPONENTS} " | grep -q " ${name} "; then
      wait_args="--timeout ${timeout}"
    else
      wait_args="--wait --timeout ${timeout}"
    fi
  fi
  export COMPONENT_WAIT_ARGS="${wait_args}"

  attempt=0
  until ( cd "${dir}" && bash install.sh ); do
    attempt=$((attempt + 1))
    if [[ ${attempt} -gt ${retries} ]]; then
      echo "  ${name} failed after ${attempt} attempts"
      if [[ "${BEST_EFFORT}" == "true" ]]; then FAILED="${FAILED} ${name}"; break; fi
      exit 1
    fi
    remove_failed_hook_jobs "${ns}"
    pause=$(pause_for "${attempt}")
    echo "  ${name}: attempt ${attempt} of ${retries} failed, retrying in ${pause}s"
    sleep "${pause}"
  done
done

if [[ -n "${FAILED}" ]]; then
  echo "deployed with failures:${FAILED}"
  exit 1
fi
echo "all components installed."
echo "Helm reported success; operators keep reconciling (drivers, node tuning, device plugins) after"
echo "this script ends, so the cluster may need more time before GPU workloads can run."
