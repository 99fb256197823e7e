#!/usr/bin/env bash
# Deploys this bundle: looks the cluster over, then runs every NNN-<name>/install.sh in folder order.
# Written by Proofbench bundle generate (bundler version @BUNDLER_VERSION@).
#
#   ./deploy.sh [--no-wait] [--best-effort] [--retries N]
#     --no-wait      do not pass --wait to Helm (the --timeout for hooks stays)
#     --best-effort  keep going when a component fails; the failures are listed at the end
#     --retries N    retry a failed install N times with growing pauses (default 5; 0: no retry)
#
# Each folder's install.sh also works on its own: cd NNN-<name> && bash install.sh
set -euo pipefail

BUNDLE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Helm runs from an empty scratch folder so that a bundle folder named like a chart cannot stand
# in for the remote chart.
SCRATCH_DIR="$(mktemp -d)"
trap 'rm -rf "${SCRATCH_DIR}"' EXIT
trap 'rm -rf "${SCRATCH_DIR}"; exit 130' INT TERM

# ---- What this bundle holds (filled in by bundle generate) --------------------------------------
# The namespaces of its components.
BUNDLE_NAMESPACES=(@NAMESPACES@)
# API groups of the CRDs its charts bring; CRDs of these groups already on the cluster are reported.
CRD_GROUPS=(@CRD_GROUPS@)
# Operators whose custom resources settle after Helm returns: Helm does not --wait for them.
ASYNC_COMPONENTS=@ASYNC_COMPONENTS@
# Namespace of the nodewright-operator component; empty when the bundle has none.
NODEWRIGHT_NAMESPACE=@NODEWRIGHT_NAMESPACE@
# Namespace of the nvidia-dra-driver-gpu component; empty when the bundle has none.
DRA_DRIVER_NAMESPACE=@DRA_DRIVER_NAMESPACE@
# Helm's --timeout for a readiness gate: the gate's own deadline plus a margin.
READINESS_TIMEOUT=@READINESS_TIMEOUT@
# --------------------------------------------------------------------------------------------------

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

# install.sh appends these to its helm command; empty unless set by the caller.
export DRY_RUN_FLAG="${DRY_RUN_FLAG:-}"
export KUBECONFIG_FLAG="${KUBECONFIG_FLAG:-}"
export HELM_DEBUG_FLAG="${HELM_DEBUG_FLAG:-}"

if [[ -t 1 && -z "${NO_COLOR:-}" ]]; then
  BOLD=$'\033[1m' RED=$'\033[0;31m' GREEN=$'\033[0;32m' YELLOW=$'\033[1;33m' PLAIN=$'\033[0m'
else
  BOLD="" RED="" GREEN="" YELLOW="" PLAIN=""
fi
section() { printf '\n%s== %s ==%s\n' "${BOLD}" "$1" "${PLAIN}"; }
problem() { printf '%sproblem:%s %s\n' "${RED}" "${PLAIN}" "$1"; }
caution() { printf '%scaution:%s %s\n' "${YELLOW}" "${PLAIN}" "$1"; }

in_bundle_namespace() {
  local ns
  for ns in "${BUNDLE_NAMESPACES[@]}"; do
    [[ "$1" == "${ns}" ]] && return 0
  done
  return 1
}

# ---- Pre-flight: leftovers of an earlier install that would break this one ------------------------
# Every check runs and reports before the verdict, so one run lists all there is to fix.
section "Checking the cluster"
blocked=false

# A namespace of this bundle still being deleted would swallow what is created in it.
for ns in "${BUNDLE_NAMESPACES[@]}"; do
  if [[ "$(kubectl get ns "${ns}" -o jsonpath='{.status.phase}' 2>/dev/null || true)" == "Terminating" ]]; then
    problem "namespace ${ns} is still being deleted; wait until it is gone (or clear its finalizers:"
    echo "  kubectl get ns ${ns} -o json | jq '.spec.finalizers=[]' | kubectl replace --raw /api/v1/namespaces/${ns}/finalize -f -)"
    blocked=true
  fi
done

# An admission webhook served from a bundle namespace whose Service is gone rejects every object it
# intercepts. Webhooks served from other namespaces are not this bundle's business.
if command -v jq >/dev/null 2>&1; then
  for kind in mutatingwebhookconfigurations validatingwebhookconfigurations; do
    while IFS=$'\t' read -r config svc_ns svc_name; do
      in_bundle_namespace "${svc_ns}" || continue
      # Only a definite NotFound counts: a timeout or a refusal says nothing about the Service.
      answer=$(kubectl get svc "${svc_name}" -n "${svc_ns}" 2>&1 || true)
      if grep -q -e 'NotFound' -e 'not found' <<<"${answer}"; then
        problem "${kind} ${config} calls Service ${svc_ns}/${svc_name}, which does not exist; it will reject what this bundle creates"
        echo "  remove it: kubectl delete ${kind} ${config}"
        blocked=true
      fi
    done < <(kubectl get "${kind}" -o json 2>/dev/null |
      jq -r '.items[] | .metadata.name as $config | (.webhooks // [])[]
             | .clientConfig.service // empty | [$config, .namespace, .name] | @tsv' 2>/dev/null || true)
  done
  # An aggregated API that is not Available keeps namespaces from being deleted: worth knowing,
  # not a reason to stop.
  kubectl get apiservices -o json 2>/dev/null |
    jq -r '.items[] | select(any(.status.conditions[]?; .type == "Available" and .status == "False"))
           | .metadata.name' 2>/dev/null |
    while IFS= read -r api; do
      caution "APIService ${api} is not available; namespace deletion can hang on it (kubectl delete apiservice ${api})"
    done || true
else
  echo "note: jq is not installed, so stale webhooks and unavailable APIServices were not looked for"
fi

# CRDs of this bundle's API groups left by an earlier install can clash with the charts' own.
if [[ ${#CRD_GROUPS[@]} -gt 0 ]]; then
  crds=$(kubectl get crd -o name 2>/dev/null || true)
  for group in "${CRD_GROUPS[@]}"; do
    left=$(grep -e "\.${group}\$" <<<"${crds}" || true)
    if [[ -n "${left}" ]]; then
      caution "CRDs of ${group} are already on the cluster (from an earlier install?): ${left//$'\n'/ }"
      echo "  if they clash: kubectl delete ${left//$'\n'/ }"
    fi
  done
fi

# nodewright taints nodes until it has tuned them. With its operator not running, a taint left from
# an earlier install is never lifted and keeps every pod of this bundle off those nodes: remove it.
# With the operator running, the taint is doing its job and stays.
if [[ -n "${NODEWRIGHT_NAMESPACE}" ]]; then
  running=$(kubectl get deploy -n "${NODEWRIGHT_NAMESPACE}" -l app.kubernetes.io/name=skyhook-operator \
    -o jsonpath='{.items[0].status.availableReplicas}' 2>/dev/null || echo "0")
  if [[ -z "${running}" || "${running}" == "0" ]]; then
    # The taint key: the operator's runtimeRequiredTaint in the bundle's values (key=value:effect
    # or key:effect), skyhook.nvidia.com when it is not set.
    taint_key="skyhook.nvidia.com"
    for folder in "${BUNDLE_DIR}"/[0-9][0-9][0-9]-nodewright-operator; do
      if [[ -d "${folder}" && -f "${folder}/values.yaml" ]]; then
        setting=$(grep 'runtimeRequiredTaint:' "${folder}/values.yaml" 2>/dev/null || true)
        if [[ -n "${setting}" ]]; then
          taint=$(sed -e 's/.*runtimeRequiredTaint:[[:space:]]*//' -e "s/[\"']//g" <<<"${setting}")
          if [[ -n "${taint}" ]]; then
            taint_key="${taint%%=*}"
            taint_key="${taint_key%%:*}"
          fi
        fi
      fi
      break
    done
    # One line per node: its name, then the keys of its taints.
    tainted=$(kubectl get nodes \
      -o jsonpath='{range .items[*]}{.metadata.name}{" "}{range .spec.taints[*]}{.key}{" "}{end}{"\n"}{end}' \
      2>/dev/null | grep -e "${taint_key}" | awk '{print $1}' || true)
    if [[ -n "${tainted}" ]]; then
      caution "nodes still carry the ${taint_key} taint and no nodewright-operator is running: ${tainted//$'\n'/ }"
      echo "  removing the taint so that pods can be scheduled there"
      for node in ${tainted}; do
        kubectl taint node "${node}" "${taint_key}-" 2>/dev/null || true
      done
    fi
  fi
fi

if [[ "${blocked}" == "true" ]]; then
  echo
  problem "the cluster is not ready for this bundle; fix the problems above and run deploy.sh again"
  echo "  (a release half installed by an earlier run: helm uninstall <release> -n <namespace>)"
  exit 1
fi
echo "${GREEN}cluster checked${PLAIN}"

# ---- Install ----------------------------------------------------------------------------------------
# Pause before retry number $1: 5s, 20s, 45s, 80s, then 120s.
pause_for() {
  local s=$(( $1 * $1 * 5 ))
  if [[ ${s} -gt 120 ]]; then s=120; fi
  echo "${s}"
}

# A hook Job left behind by a failed attempt (failed, pending or stuck) blocks the next attempt.
# Hook Jobs carry the helm.sh/hook annotation; other Jobs are left alone. What the Job and its pods
# say is printed first, since deleting them loses it.
remove_failed_hook_jobs() {
  local ns="$1" job pod spec
  for job in $(kubectl get jobs -n "${ns}" --field-selector=status.successful=0 \
      -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' 2>/dev/null || true); do
    # Read whole before searching: grep -q stopping early must not cut kubectl's output short.
    spec=$(kubectl get job "${job}" -n "${ns}" -o json 2>/dev/null || true)
    grep -q '"helm.sh/hook"' <<<"${spec}" || continue
    echo "  -- hook Job ${ns}/${job} did not succeed:"
    kubectl describe job "${job}" -n "${ns}" 2>/dev/null | tail -50 || true
    for pod in $(kubectl get pods -n "${ns}" -l "job-name=${job}" \
        -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' 2>/dev/null || true); do
      echo "  -- its pod ${pod}:"
      kubectl describe pod "${pod}" -n "${ns}" 2>/dev/null | tail -50 || true
    done
    echo "  removing hook Job ${ns}/${job} before the next attempt"
    kubectl delete job "${job}" -n "${ns}" --ignore-not-found 2>/dev/null || true
  done
}

# kai-scheduler's install fails in ways only its Jobs, pods and events explain: show them.
show_kai_scheduler_state() {
  local ns="$1"
  [[ "${ns}" == "kai-scheduler" ]] || return 0
  echo "  -- state of namespace ${ns}:"
  kubectl get jobs -n "${ns}" 2>/dev/null || true
  kubectl describe jobs -n "${ns}" 2>/dev/null || true
  kubectl get pods -n "${ns}" -o wide 2>/dev/null || true
  kubectl describe pods -n "${ns}" 2>/dev/null || true
  kubectl get events -n "${ns}" --sort-by='.lastTimestamp' 2>/dev/null | tail -30 || true
}

# After nvidia-dra-driver-gpu: restart its kubelet plugin so that the kubelet registers a fresh socket
# (after a reinstall the kubelet can miss the new one). When gpu-operator is replacing the driver,
# wait for that first: a plugin started meanwhile holds on to the old driver.
restart_dra_kubelet_plugin() {
  local ns="$1" driver_ns managed plugin
  if ! driver_ns=$(kubectl get daemonset -A \
      -o jsonpath='{.items[?(@.metadata.name=="nvidia-driver-daemonset")].metadata.namespace}' \
      2>/dev/null | awk '{print $1}'); then
    problem "cannot list DaemonSets, so whether gpu-operator is replacing the driver is unknown; stopping"
    exit 1
  fi
  if [[ -z "${driver_ns}" ]]; then
    echo "  no nvidia-driver-daemonset (the driver is the host's): no driver update to wait for"
  else
    # Nodes whose driver gpu-operator manages carry nvidia.com/gpu.deploy.driver=true.
    if ! managed=$(kubectl get nodes -l nvidia.com/gpu.deploy.driver=true -o name 2>/dev/null | wc -l | tr -d ' '); then
      problem "cannot list the nodes whose driver gpu-operator manages; stopping"
      exit 1
    fi
    if [[ "${managed}" -gt 0 ]]; then
      echo "  waiting (up to 15m) for the driver update to finish on ${managed} node(s) (driver in ${driver_ns})"
      if ! kubectl wait --for=jsonpath='{.metadata.labels.nvidia\.com/gpu-driver-upgrade-state}=upgrade-done' \
          nodes -l nvidia.com/gpu.deploy.driver=true --timeout=15m; then
        caution "the driver update has not finished everywhere after 15m; restarting the plugin anyway"
      fi
    else
      echo "  no node is marked nvidia.com/gpu.deploy.driver=true yet: no driver update to wait for"
    fi
  fi
  plugin=$(kubectl get daemonset -n "${ns}" -o name 2>/dev/null | awk '/kubelet-plugin/ {print; exit}' || true)
  if [[ -z "${plugin}" ]]; then
    caution "no kubelet-plugin DaemonSet in ${ns}; nothing restarted"
    return 0
  fi
  echo "  restarting ${plugin#*/}"
  if ! kubectl rollout restart "${plugin}" -n "${ns}"; then
    caution "the restart of ${plugin#*/} failed"
  # Waited for even with --no-wait: the kubelet must have registered the plugin before DRA works.
  elif ! kubectl rollout status "${plugin}" -n "${ns}" --timeout=120s; then
    caution "${plugin#*/} has not rolled out after 120s"
  fi
}

section "Installing"
cd "${SCRATCH_DIR}"
total=0
for dir in "${BUNDLE_DIR}"/[0-9][0-9][0-9]-*/; do
  [[ -d "${dir}" ]] && total=$((total + 1))
done
step=0
for dir in "${BUNDLE_DIR}"/[0-9][0-9][0-9]-*/; do
  [[ -d "${dir}" ]] || continue
  dir="${dir%/}"
  name="${dir##*/}"
  name="${name#[0-9][0-9][0-9]-}"
  step=$((step + 1))
  # The release namespace is the one install.sh passes to Helm (a -pre or -post folder shares its
  # component's namespace, which need not be its folder name).
  ns=$(awk '{ for (i = 1; i < NF; i++) if ($i == "--namespace") { print $(i + 1); exit } }' "${dir}/install.sh")
  printf '%s[%s/%s] %s%s (namespace %s; by hand: cd %q && bash install.sh)\n' \
    "${BOLD}" "${step}" "${total}" "${name}" "${PLAIN}" "${ns}" "${dir}"

  timeout="${HELM_TIMEOUT}"
  retries="${MAX_RETRIES}"
  wait_args=""
  case "${name}" in
    kai-scheduler) timeout="20m"; retries=1 ;;
    # A readiness gate is a hook Job polling until its component is ready, up to its own deadline:
    # Helm must wait for it whatever --no-wait says, and a second run only doubles the wait.
    *-readiness) timeout="${READINESS_TIMEOUT}"; retries=1; wait_args="--wait --timeout ${timeout}" ;;
  esac
  if [[ -z "${wait_args}" ]]; then
    if [[ "${NO_WAIT}" == "true" ]]; then
      wait_args="--timeout ${timeout}"
    else
      wait_args="--wait --timeout ${timeout}"
    fi
    if grep -q -w -e "${name}" <<<"${ASYNC_COMPONENTS}"; then
      wait_args="--timeout ${timeout}"
      echo "  (its operator settles after Helm returns: no --wait, the --timeout stays for hooks)"
    fi
  fi
  export COMPONENT_WAIT_ARGS="${wait_args}"

  attempt=0
  until ( cd "${dir}" && bash install.sh ); do
    attempt=$((attempt + 1))
    show_kai_scheduler_state "${ns}"
    if [[ ${attempt} -gt ${retries} ]]; then
      problem "${name} failed after ${attempt} attempts"
      if [[ "${BEST_EFFORT}" != "true" ]]; then exit 1; fi
      echo "  going on (--best-effort)"
      FAILED="${FAILED} ${name}"
      break
    fi
    remove_failed_hook_jobs "${ns}"
    pause=$(pause_for "${attempt}")
    echo "  ${name}: attempt ${attempt} of ${retries} retries failed; next in ${pause}s"
    sleep "${pause}"
  done
  if [[ ${attempt} -le ${retries} ]]; then echo "${GREEN}  ${name} installed${PLAIN}"; fi

  # Also after a retried or (--best-effort) failed install. AICR's script means the same but skips
  # it once a hook Job was cleaned up, as its clean-up overwrites the component name it checks.
  if [[ "${name}" == "nvidia-dra-driver-gpu" && -n "${DRA_DRIVER_NAMESPACE}" ]]; then
    restart_dra_kubelet_plugin "${DRA_DRIVER_NAMESPACE}"
  fi
done

echo
if [[ -n "${FAILED}" ]]; then
  problem "these components failed (--best-effort went on without them):${FAILED}"
else
  echo "${GREEN}all components installed.${PLAIN}"
fi
echo "This says what Helm installed, not that GPU workloads can run yet: after this script ends the"
echo "operators go on working (nodewright tunes fresh nodes, 10-20 minutes; gpu-operator rolls out the"
echo "driver, toolkit and device plugin; the NVIDIA DRA kubelet plugin registers with each kubelet)."
