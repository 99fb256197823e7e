#!/usr/bin/env bash
# Checks that every C++ source of the project follows .clang-format (clang-format 14, Debian 12's).
#   tools/check-format.sh          report the files that differ; exit 1 when any does
#   tools/check-format.sh --fix    rewrite them in place
# Exit 77 (CTest's skip code here) when clang-format is not installed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v clang-format >/dev/null || { echo "check-format: clang-format not installed; skipped" >&2; exit 77; }
mapfile -t files < <(git ls-files -- '*.cpp' '*.h' 2>/dev/null || find app engine models widgets tests tools -name '*.cpp' -o -name '*.h')
[ ${#files[@]} -gt 0 ] || { echo "check-format: no sources found" >&2; exit 1; }
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
# One clang-format process for every file (one per file spent most of a minute starting up); it
# names each file that differs in its "FILE:LINE:COL: error:" lines.
report=$(clang-format --dry-run -Werror "${files[@]}" 2>&1) && status=0 || status=$?
mapfile -t bad < <(printf '%s\n' "$report" | sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*clang-format-violations.*$/\1/p' | sort -u)
if [ "$status" -ne 0 ] && [ ${#bad[@]} -eq 0 ]; then
  printf 'check-format: clang-format failed:\n%s\n' "$report" >&2
  exit 1
fi
if [ ${#bad[@]} -gt 0 ]; then
  printf 'check-format: %d of %d files differ from .clang-format (tools/check-format.sh --fix):\n' "${#bad[@]}" "${#files[@]}" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files follow .clang-format"
