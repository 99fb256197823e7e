#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   tools/bootstrap.sh run  [app args...]   install what is missing, build (release), start the app
#   tools/bootstrap.sh test [ctest args...] install what is missing, build (dev), run every test
# Missing Debian packages are installed with apt-get (as root, or through sudo).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

packages=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libqt6sql6-sqlite libqt6opengl6-dev
  libsqlite3-dev libyaml-cpp-dev libyaml-dev libssl-dev libcurl4-openssl-dev
  libqcustomplot-dev libgraphviz-dev graphviz libsodium-dev libarchive-dev zlib1g-dev
  fonts-dejavu-core
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

build() {
  local preset=$1
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$(nproc)"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  run)
    install_missing
    build release
    exec "$here/build/release/app/proofbench" "$@"
    ;;
  test)
    install_missing
    build dev
    QT_QPA_PLATFORM=offscreen ctest --preset dev -j "$(nproc)" "$@"
    ;;
  *)
    echo "usage: tools/bootstrap.sh run [app args...] | test [ctest args...]" >&2
    exit 2
    ;;
esac
