#!/usr/bin/env bash
# Issue 31's benchmarks (docs/PERFORMANCE.md, "The team store"): starts a private PostgreSQL 15
# (tools/pgtest-server.sh: loopback, TLS verified, scram-sha-256), runs pb_bench_postgres against it
# and stops it, also when the benchmark fails.
#   tools/bench-postgres.sh [BUILD_DIR [RUNS]]     default: build/release, 5 runs per median
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$here/build/release}
runs=${2:-5}
bin=$build/tests/bench/pb_bench_postgres
[ -x "$bin" ] || { echo "bench-postgres: $bin not built (cmake --build --preset release --target pb_bench_postgres)" >&2; exit 1; }
dir=$(mktemp -d /tmp/pb-bench-pg.XXXXXX)
chmod 755 "$dir"
trap '"$here/tools/pgtest-server.sh" stop "$dir" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
"$here/tools/pgtest-server.sh" start "$dir"
PB_TEST_PG_DIR=$dir PGPASSFILE=$dir/pgpass "$bin" "$runs"
