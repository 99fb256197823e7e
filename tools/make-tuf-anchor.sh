#!/usr/bin/env bash
# Writes the TUF anchor the app ships (resources/tuf/sigstore-public-good-root-v13.json) from a
# copy of Sigstore public-good root v13 (metadata/root_history/13.root.json of sigstore/root-signing):
# the same metadata re-encoded as one line of canonical JSON (keys sorted, no whitespace), the form
# its signatures cover, so every signature still verifies. Public keys only.
#   tools/make-tuf-anchor.sh ROOT_13_JSON [OUT]
set -euo pipefail
src=${1:?usage: tools/make-tuf-anchor.sh ROOT_13_JSON [OUT]}
out=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/resources/tuf/sigstore-public-good-root-v13.json}
python3 - "$src" "$out" <<'PY'
import json, sys
root = json.load(open(sys.argv[1], encoding="utf-8"))
if root.get("signed", {}).get("_type") != "root" or root["signed"].get("version") != 13:
    sys.exit("make-tuf-anchor: %s is not root version 13" % sys.argv[1])
text = json.dumps(root, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
open(sys.argv[2], "w", encoding="utf-8").write(text + "\n")
PY
sha256sum "$out"
