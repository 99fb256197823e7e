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
[ ${#targets[@]} -eq 0 ] && targets=(yaml catalog evidence bundle_archive sigstore kubeconfig perf)
shared=$(cd "$here/.." && pwd)/shared/data

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null

seeds() { # target -> seed directories
  case $1 in
    yaml) echo recipes tests/fixtures/kube "$shared/aicr/samples" ;;
    catalog) echo recipes/v1.0.0/overlays recipes/v1.0.0/validators recipes/v0.20.0/overlays "$shared/aicr/catalogs/2026-08-19/recipes/overlays" ;;
    evidence) echo tests/fuzz/seeds/evidence ;;
    bundle_archive) echo tests/fuzz/seeds/bundle_archive ;;
    sigstore) echo tests/fuzz/seeds/sigstore "$shared/sigstore/cases" ;;
    kubeconfig) echo tests/fixtures/kube/merge ;;
    perf) echo tests/fixtures/perf tests/fixtures/validation "$shared/perf" ;;
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
