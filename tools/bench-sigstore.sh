#!/usr/bin/env bash
# Issue 6: offline Sigstore verification, in one run on one machine.
#   tools/bench-sigstore.sh [ITERATIONS=1000] [MANIFEST.tsv]
# 1. builds pb_bench_sigstore in Release ($PB_BUILD_DIR, default build/release; configured with
#    -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_BENCH=ON when it has no CMakeCache.txt yet);
# 2. installs the pinned sigstore-js (tools/bench/sigstore-js/package-lock.json) with `npm ci` into
#    $PB_BUILD_DIR/sigstore-js, never into the source tree;
# 3. in ROUNDS rounds (default 4) of ITERATIONS/ROUNDS iterations each, runs verify.mjs (sigstore-js
#    verifying every PASS case in one Node process), then pb_bench_sigstore (our verifier and the bare
#    OpenSSL operations, the same cases and count): the two processes take turns, so a change in the
#    shared VM's speed during the run reaches both sides;
# 4. prints every JSON line, the totals per side and the ratios against the goals (>= 10x
#    sigstore-js in CPU per verification, <= 1.5x the bare operations; issue 19: the batch
#    (pb::ops::verifyBundles over every core) >= 15x the throughput of one sigstore-js process, i.e.
#    wall time per verification); and the ceiling: sigstore-js against bare-floor, a lower
#    bound of the per-bundle work on this OpenSSL. docs/PERFORMANCE.md records a run.
# Environment: PB_BUILD_DIR; PB_BUILD_JOBS (default: all cores); PB_BENCH_ROUNDS (default 4);
# PB_SIGSTORE_EXCLUDE=case1,case2 (PASS cases left out of BOTH sides, e.g. one the installed
# sigstore-js cannot verify; none today).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
iterations=${1:-1000}
manifest=${2:-$here/../shared/data/sigstore/MANIFEST.tsv}
build=${PB_BUILD_DIR:-$here/build/release}
exclude=${PB_SIGSTORE_EXCLUDE:-}
[ -f "$manifest" ] || { echo "bench-sigstore: no manifest at $manifest" >&2; exit 2; }
manifest=$(cd "$(dirname "$manifest")" && pwd)/$(basename "$manifest")
command -v node >/dev/null && command -v npm >/dev/null || { echo "bench-sigstore: needs node and npm" >&2; exit 2; }

# 1. pb_bench_sigstore, Release.
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_BENCH=ON >&2
fi
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
[ "$type" = Release ] || { echo "bench-sigstore: $build is a '$type' build; use a Release one (PB_BUILD_DIR)" >&2; exit 2; }
grep -q '^PB_BUILD_BENCH:BOOL=ON' "$build/CMakeCache.txt" || cmake -S "$here" -B "$build" -DPB_BUILD_BENCH=ON >&2
cmake --build "$build" -j "${PB_BUILD_JOBS:-$(nproc)}" --target pb_bench_sigstore >&2
bench=$(find "$build" -name pb_bench_sigstore -type f -perm -u+x | head -n1)

# 2. sigstore-js, pinned by the lock file, installed into the build directory.
js=$build/sigstore-js
src=$here/tools/bench/sigstore-js
mkdir -p "$js"
if ! cmp -s "$src/package-lock.json" "$js/package-lock.json" || [ ! -d "$js/node_modules" ]; then
  cp "$src/package.json" "$src/package-lock.json" "$js/"
  (cd "$js" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
fi
cp "$src/verify.mjs" "$js/"
# sigstore 5 declares node ^22.22.2 || ^24.15.0 || >=26 (npm ci warns EBADENGINE); it runs on 20 as well.
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 22 ] || echo "bench-sigstore: note: node $(node --version) is older than sigstore-js declares (>= 22); it runs, but newer V8 may be faster" >&2

ex=()
[ -n "$exclude" ] && ex=(--exclude "$exclude")
# 3. Rounds: the two processes take turns.
rounds=${PB_BENCH_ROUNDS:-4}
per=$(( (iterations + rounds - 1) / rounds ))
out=$build/bench-sigstore.jsonl
: >"$out"
echo "bench-sigstore: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n1), node $(node --version), $(openssl version 2>/dev/null || true), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((r = 1; r <= rounds; r++)); do
  echo "bench-sigstore: round $r/$rounds: sigstore-js, $per iterations..." >&2
  node "$js/verify.mjs" "$manifest" "$per" "${ex[@]}" >>"$out"
  echo "bench-sigstore: round $r/$rounds: pb_bench_sigstore, $per iterations..." >&2
  "$bench" "$manifest" "$per" "${ex[@]}" >>"$out"
done
echo "bench-sigstore: load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
cat "$out"

# 4. Totals over the rounds, and the ratios.
node - "$out" <<'EOF'
const lines = require('fs').readFileSync(process.argv[2], 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const by = {};
for (const l of lines.filter((x) => x.perVerifyCpuUs !== undefined)) {
  const t = (by[l.name] ??= { name: l.name, verifies: 0, iterations: 0, seconds: 0, cpuSeconds: 0, perCaseNs: {} });
  t.verifies += l.verifies;
  t.iterations += l.iterations;
  t.seconds += l.seconds;
  t.cpuSeconds += l.cpuSeconds;
  for (const [c, us] of Object.entries(l.perCaseUs)) t.perCaseNs[c] = (t.perCaseNs[c] ?? 0) + us * 1000 * l.iterations;
}
const r2 = (x) => Math.round(x * 100) / 100;
for (const t of Object.values(by)) {
  t.seconds = Math.round(t.seconds * 1e4) / 1e4;
  t.cpuSeconds = Math.round(t.cpuSeconds * 1e4) / 1e4;
  t.perVerifyUs = r2((t.seconds * 1e6) / t.verifies);
  t.perVerifyCpuUs = r2((t.cpuSeconds * 1e6) / t.verifies);
  t.perCaseUs = Object.fromEntries(Object.entries(t.perCaseNs).map(([c, ns]) => [c, r2(ns / t.iterations / 1000)]));
  delete t.perCaseNs;
  console.log(JSON.stringify({ total: true, ...t }));
}
const ours = by['proofbench'];
const f = (x) => x.toFixed(2);
const row = (what, num, den, goal) => {
  const wall = num.perVerifyUs / den.perVerifyUs, cpu = num.perVerifyCpuUs / den.perVerifyCpuUs;
  console.log(`${what.padEnd(44)} ${f(wall).padStart(7)}x wall  ${f(cpu).padStart(7)}x cpu   goal ${goal}`);
};
console.log(`\nper verification (us, wall / cpu): ` + Object.values(by).map((l) => `${l.name} ${f(l.perVerifyUs)} / ${f(l.perVerifyCpuUs)}`).join(', '));
row('sigstore-js / proofbench (speed-up)', by['sigstore-js'], ours, '>= 10x (cpu)');
if (by['proofbench-batch'])
  row('sigstore-js (1 process) / proofbench-batch', by['sigstore-js'], by['proofbench-batch'], `>= 15x (wall = throughput, ${require('os').cpus().length} cores)`);
row('proofbench / bare-openssl', ours, by['bare-openssl'], '<= 1.5x');
row('proofbench / bare-openssl+decode', ours, by['bare-openssl+decode'], '<= 1.5x');
row('proofbench-parsed / bare-openssl', by['proofbench-parsed'], by['bare-openssl'], '(bundle parsed outside the loop)');
if (by['bare-floor']) {
  // A lower bound of the per-bundle work on this OpenSSL (chains anchored at the issuing certificates,
  // as a verifier that checks the trusted root's own chains once at load does; nothing decoded):
  // no verifier's ratio against sigstore-js can exceed sigstore-js / bare-floor.
  row('sigstore-js / bare-floor (ceiling)', by['sigstore-js'], by['bare-floor'], '(no verifier on this OpenSSL does better)');
  row('proofbench / bare-floor', ours, by['bare-floor'], '(our cost above the floor)');
  const cores = require('os').cpus().length;
  console.log(`${'sigstore-js (1 process) / (floor / cores)'.padEnd(44)} ${f(by['sigstore-js'].perVerifyUs / (by['bare-floor'].perVerifyCpuUs / cores)).padStart(7)}x wall (batch ceiling on ${cores} cores, perfect scaling)`);
}
EOF
