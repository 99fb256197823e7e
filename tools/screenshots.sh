#!/usr/bin/env bash
# Writes the PNG screenshots in docs/screenshots/: the first-start welcome over the sample catalog and
# the Health view's empty state, the main window with a recipe selected, the
# filter in use, a catalog version's summary, an overlay's YAML dialog, the Graph and Compare tabs,
# the import progress, the window after an import, the Health view with evidence imported (the
# 2026-08-19 catalog and its recipes/evidence from ../shared/data when present, else a fixture), and
# the Verify view with a verified Sigstore bundle and with an identity mismatch (conformance cases
# from ../shared/data/sigstore; skipped when absent), and the Sign view (keys, a deployment bundle
# verified, the same bundle tampered, the signing dialog, the evidence signing dialog refusing an
# incomplete bundle), and the Validation view after a run on
# pb-kube-testserver with close-ups of its NCCL and history charts, the Receipts view (ledger and
# external records), the release review report dialog, Fetch Evidence and the registry credentials view,
# and Import from Git over a repository built on the spot from ../shared/data/aicr/catalogs (one
# commit and tag per catalog; needs git, skipped when the data is absent), the tree with the real
# versions and their sources, and Compare against a chosen baseline; then a team server for real (a
# private PostgreSQL primary and hot standby from tools/pgtest-server.sh; skipped when PostgreSQL is
# not installed): Open Team Database… after its connection test and warning of a remote host without
# TLS, a window on the server, the banner while the server is stopped, and a window on the standby.
# Builds the pb_screenshots helper (tests/gui) when needed and runs it on Qt's offscreen platform
# against a temporary database seeded with the sample catalog (settings in a temporary directory).
#
# Usage: tools/screenshots.sh [BUILD_DIR] [OUTPUT_DIR]
#   BUILD_DIR   default: $PB_BUILD_DIR or build/ in the source tree
#   OUTPUT_DIR  default: docs/screenshots
# PB_SCREENSHOTS_ONLY=verify, =sign, =validation, =receipts, =git or =team writes only those PNGs (quick).
set -euo pipefail

src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-${PB_BUILD_DIR:-$src/build}}"
out="${2:-$src/docs/screenshots}"

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  cmake -S "$src" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug
fi
cmake --build "$build" --target pb_screenshots

exe="$(find "$build" -type f -name pb_screenshots -perm -u+x | head -n 1)"
[[ -n "$exe" ]] || { echo "screenshots.sh: pb_screenshots was not built in $build" >&2; exit 1; }

mkdir -p "$out"
# Offscreen needs no display; xvfb-run is the fallback for platforms that want one.
export LC_ALL=C.UTF-8
# A sanitizer build reports the leaks of Graphviz and fontconfig at exit; suppress them as the tests do.
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$src/tests/lsan.supp:print_suppressions=0}"
if QT_QPA_PLATFORM=offscreen "$exe" "$out"; then
  :
elif command -v xvfb-run >/dev/null; then
  xvfb-run -a "$exe" "$out"
else
  exit 1
fi
echo "screenshots written to $out"
