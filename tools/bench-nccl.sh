#!/usr/bin/env bash
# Issue 8: NCCL log parsing against `grep -c busbw`, in one run on one machine.
#   tools/bench-nccl.sh [MB=100] [RUNS=5]
# 1. builds pb_bench_nccl in Release ($PB_BUILD_DIR, default /tmp/pb-p-rel; configured with
#    -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_BENCH=ON when it has no CMakeCache.txt yet);
# 2. runs it on a generated NCCL_DEBUG=INFO log ($PB_NCCL_LOG, default $PB_BUILD_DIR/nccl-info.log,
#    written once, deterministically, and reused), which times the parser streaming the file in
#    1 MiB reads and `grep -c busbw` over the same file, alternating, and reports MB/s, the ratio and
#    peak RSS before and after parsing. docs/PERFORMANCE.md ("NCCL log parsing") records a run.
# Environment: PB_BUILD_DIR; PB_BUILD_JOBS (default: all cores); PB_NCCL_LOG.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mb=${1:-100}
runs=${2:-5}
build=${PB_BUILD_DIR:-/tmp/pb-p-rel}
log=${PB_NCCL_LOG:-$build/nccl-info.log}
command -v grep >/dev/null || { echo "bench-nccl: needs grep" >&2; exit 2; }

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_BENCH=ON >&2
fi
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
[ "$type" = Release ] || { echo "bench-nccl: $build is a '$type' build; use a Release one (PB_BUILD_DIR)" >&2; exit 2; }
grep -q '^PB_BUILD_BENCH:BOOL=ON' "$build/CMakeCache.txt" || cmake -S "$here" -B "$build" -DPB_BUILD_BENCH=ON >&2
cmake --build "$build" -j "${PB_BUILD_JOBS:-$(nproc)}" --target pb_bench_nccl >&2
bench=$(find "$build" -name pb_bench_nccl -type f -perm -u+x | head -n1)

echo "bench-nccl: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n1), $(grep --version | head -n1), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$bench" "$log" "$mb" "$runs"
echo "bench-nccl: load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
