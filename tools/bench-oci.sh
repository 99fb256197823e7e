#!/usr/bin/env bash
# Issue 11: pushing and pulling a deployment bundle over loopback with Proofbench against
# `skopeo copy` of the same artifact, in one run on one machine.
#   tools/bench-oci.sh [MB=200] [RUNS=3]
# 1. builds pb_bench_oci in Release ($PB_BUILD_DIR, default /tmp/pb-o-rel; configured with
#    -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_BENCH=ON when it has no CMakeCache.txt yet);
# 2. runs it: it starts Debian's docker-registry on 127.0.0.1:<free port> with a temporary storage
#    directory, packs the bundle once into an OCI layout, then per run pushes it to fresh
#    repositories (Proofbench and skopeo, alternating which goes first) and pulls it back into fresh
#    layouts, and prints medians, MB/s and the Proofbench/skopeo ratios (goal <= 1.2) plus a JSON line.
# docs/PERFORMANCE.md ("Registry") records a run. Needs docker-registry and skopeo (tools/bootstrap.sh).
# Environment: PB_BUILD_DIR; PB_BUILD_JOBS (default: all cores).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mb=${1:-200}
runs=${2:-3}
build=${PB_BUILD_DIR:-/tmp/pb-o-rel}
for t in docker-registry skopeo; do
  command -v "$t" >/dev/null || { echo "bench-oci: needs $t (tools/bootstrap.sh installs it)" >&2; exit 2; }
done

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_BENCH=ON >&2
fi
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
[ "$type" = Release ] || { echo "bench-oci: $build is a '$type' build; use a Release one (PB_BUILD_DIR)" >&2; exit 2; }
grep -q '^PB_BUILD_BENCH:BOOL=ON' "$build/CMakeCache.txt" || cmake -S "$here" -B "$build" -DPB_BUILD_BENCH=ON >&2
cmake --build "$build" -j "${PB_BUILD_JOBS:-$(nproc)}" --target pb_bench_oci >&2
bench=$(find "$build" -name pb_bench_oci -type f -perm -u+x | head -n1)

echo "bench-oci: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n1), $(skopeo --version), $(docker-registry --version), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$bench" "$mb" "$runs"
echo "bench-oci: load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
