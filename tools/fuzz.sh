#!/usr/bin/env bash
# Runs every libFuzzer target (tests/fuzz) for a given time each and prints, per target, the
# executions, the corpus size and whether it crashed, hung or leaked.
#   tools/fuzz.sh [SECONDS_PER_TARGET=600] [TARGET...]
# Builds the `fuzz` preset (clang, ASan + UBSan + libFuzzer) in build/fuzz. Corpora live in
# build/fuzz/corpus/<target>, seeded from tests/fuzz/seeds, the repository fixtures and, when present,
# ../shared/data. A crash is written to build/fuzz/crashes/<target>/; copy it into
# tests/fuzz/regressions/<target>/ (replayed by CTest in every build) once fixed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
secs=${1:-600}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(yaml yaml_aliases catalog evidence bundle_archive sigstore der kubeconfig perf receipts oci)
shared=$(cd "$here/.." && pwd)/shared/data

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null

# fuzz_der's inputs are one field of a Sigstore bundle with a selector byte in front; the
# conformance cases in ../shared/data give real certificates (with SCT lists), RFC 3161 timestamps,
# checkpoints and tlog bodies.
der_seeds() {
  local out=build/fuzz/seeds-der
  mkdir -p "$out"
  [ -d "$shared/sigstore/cases" ] && command -v python3 >/dev/null || return 0
  python3 - "$shared/sigstore/cases" "$out" <<'PY'
import base64, glob, hashlib, json, os, sys
cases, out = sys.argv[1], sys.argv[2]
def put(sel, data):
    blob = bytes([sel]) + data
    open(os.path.join(out, hashlib.sha256(blob).hexdigest()[:16]), "wb").write(blob)
for path in glob.glob(os.path.join(cases, "*", "bundle.sigstore.json")):
    try:
        vm = json.load(open(path)).get("verificationMaterial", {})
    except ValueError:
        continue
    certs = [vm.get("certificate", {}).get("rawBytes")] + [c.get("rawBytes") for c in vm.get("x509CertificateChain", {}).get("certificates", [])]
    for c in filter(None, certs):
        put(0, base64.b64decode(c))
    for t in vm.get("timestampVerificationData", {}).get("rfc3161Timestamps", []):
        put(1, base64.b64decode(t.get("signedTimestamp", "")))
    for e in vm.get("tlogEntries", []):
        env = e.get("inclusionProof", {}).get("checkpoint", {}).get("envelope")
        if env:
            put(2, env.encode())
        if e.get("canonicalizedBody"):
            put(3, base64.b64decode(e["canonicalizedBody"]))
PY
}

seeds() { # target -> seed directories
  case $1 in
    yaml) echo recipes tests/fixtures/kube "$shared/aicr/samples" ;;
    yaml_aliases) echo tests/fuzz/seeds/yaml_aliases ;;
    catalog) echo recipes/sample-2/overlays recipes/sample-2/validators recipes/sample-1/overlays "$shared/aicr/catalogs/2026-08-19/recipes/overlays" ;;
    evidence) echo tests/fuzz/seeds/evidence ;;
    bundle_archive) echo tests/fuzz/seeds/bundle_archive ;;
    sigstore) echo tests/fuzz/seeds/sigstore "$shared/sigstore/cases" ;;
    der) der_seeds; echo tests/fuzz/seeds/der build/fuzz/seeds-der ;;
    kubeconfig) echo tests/fixtures/kube/merge ;;
    perf) echo tests/fixtures/perf tests/fixtures/validation "$shared/perf" ;;
    receipts) echo tests/fuzz/seeds/receipts ;;
    oci) echo tests/fuzz/seeds/oci ;;
  esac
}

printf '%-16s %10s %12s %8s  %s\n' target seconds executions corpus result
for t in "${targets[@]}"; do
  corpus=build/fuzz/corpus/$t crashes=build/fuzz/crashes/$t
  mkdir -p "$corpus" "$crashes"
  for d in $(seeds "$t"); do
    [ -d "$d" ] || continue
    find "$d" -type f -size -1024k -print0 | while IFS= read -r -d '' f; do
      cp -n "$f" "$corpus/seed-$(sha256sum "$f" | cut -c1-16)" 2>/dev/null || true
    done
  done
  log=build/fuzz/$t.log
  set +e
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    LSAN_OPTIONS=suppressions=$here/tests/lsan.supp:print_suppressions=0 \
    "build/fuzz/tests/fuzz/fuzz_$t" "$corpus" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2560 \
      -max_len=262144 -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
  size=$(ls "$corpus" | wc -l)
  result=ok
  [ $rc -ne 0 ] && result="FAILED (exit $rc; see $log and $crashes)"
  printf '%-16s %10s %12s %8s  %s\n' "$t" "$secs" "${execs:-?}" "$size" "$result"
done
