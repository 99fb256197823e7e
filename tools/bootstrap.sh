#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   tools/bootstrap.sh run  [app args...]   install what is missing, build (release), start the app
#   tools/bootstrap.sh test [ctest args...] install what is missing, build (asan), run every test
# Missing Debian packages are installed with apt-get (as root, or through sudo).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

packages=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libqt6sql6-sqlite libqt6opengl6-dev
  libsqlite3-dev libyaml-cpp-dev libyaml-dev libssl-dev libcurl4-openssl-dev libnghttp2-dev
  libqcustomplot-dev libgraphviz-dev graphviz libsodium-dev libarchive-dev zlib1g-dev libgit2-dev
  fonts-dejavu-core sqlite3 clang-format
  docker-registry skopeo
  poppler-utils
  postgresql-15 libqt6sql6-psql libpq-dev openssl
)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "bootstrap: installing ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# build PRESET [TARGET...]: configure and build (every target, or only those named).
build() {
  local preset=$1
  shift
  cmake --preset "$preset" >/dev/null
  if [ $# -gt 0 ]; then
    cmake --build --preset "$preset" -j "$(nproc)" --target "$@"
  else
    cmake --build --preset "$preset" -j "$(nproc)"
  fi
}

# sigstore-js (pinned by tools/bench/sigstore-js/package-lock.json) for the interop tests: what
# Proofbench signs must verify there too. Without node/npm or the registry, those halves skip.
install_sigstore_js() {
  local dir=$1 src=$here/tools/bench/sigstore-js
  command -v node >/dev/null && command -v npm >/dev/null || { echo "bootstrap: no node/npm; sigstore-js interop tests will skip" >&2; return 0; }
  if [ -f "$dir/node_modules/@sigstore/verify/package.json" ] && cmp -s "$src/package-lock.json" "$dir/package-lock.json"; then
    return 0
  fi
  mkdir -p "$dir"
  cp "$src/package.json" "$src/package-lock.json" "$dir/"
  (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2) ||
    echo "bootstrap: npm ci failed; sigstore-js interop tests will skip" >&2
}

# tuf-js (pinned by tests/interop/tuf-js/package-lock.json) for the TUF interop test (issue 19):
# the same repository copy and anchor must give the same verdict and bytes there. Installed the same
# way as sigstore-js; without node/npm or the registry that test skips.
install_tuf_js() {
  local dir=$1 src=$here/tests/interop/tuf-js
  command -v node >/dev/null && command -v npm >/dev/null || { echo "bootstrap: no node/npm; the tuf-js interop test will skip" >&2; return 0; }
  if [ -f "$dir/node_modules/tuf-js/package.json" ] && cmp -s "$src/package-lock.json" "$dir/package-lock.json"; then
    return 0
  fi
  mkdir -p "$dir"
  cp "$src/package.json" "$src/package-lock.json" "$dir/"
  (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2) ||
    echo "bootstrap: npm ci failed; the tuf-js interop test will skip" >&2
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  run)
    install_missing
    build release proofbench # the app alone: no test or benchmark is built to start it
    exec "$here/build/release/app/proofbench" "$@"
    ;;
  test)
    # Every test runs in the `ci` build (-O1, assertions on, LeakSanitizer linked: a leak fails the
    # suite). PB_TEST_PRESET=asan runs them all under AddressSanitizer + UndefinedBehaviorSanitizer
    # instead (about twice the time: run it before merging work on memory-handling code).
    install_missing
    preset=${PB_TEST_PRESET:-ci}
    build "$preset"
    install_sigstore_js "$here/build/$preset/sigstore-js"
    install_tuf_js "$here/build/$preset/tuf-js"
    # The test run starts a private PostgreSQL 15 (tools/pgtest-server.sh); say up front when it cannot.
    tools/pgtest-server.sh check || echo "bootstrap: the PostgreSQL half of the tests will skip" >&2
    QT_QPA_PLATFORM=offscreen ctest --preset "$preset" -j "$(nproc)" "$@"
    ;;
  *)
    echo "usage: tools/bootstrap.sh run [app args...] | test [ctest args...]" >&2
    exit 2
    ;;
esac
