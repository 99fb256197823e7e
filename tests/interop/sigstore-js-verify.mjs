// Verifies a key-signed Sigstore bundle with sigstore-js (the npm `sigstore` family), offline, the
// way another team's tooling would: the given public key, no log, no timestamps required.
//
//   node sigstore-js-verify.mjs MODULES_DIR BUNDLE PUBLIC_KEY [ARTIFACT]
//
// MODULES_DIR is where `npm ci` installed tools/bench/sigstore-js (its node_modules' parent).
// ARTIFACT is the signed blob for a message signature; a DSSE bundle needs none.
// Exit 0 verified, 1 refused (the reason on stdout), 2 usage.
import { readFileSync } from 'node:fs';
import { createPublicKey } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [modules, bundlePath, keyPath, artifactPath] = process.argv.slice(2);
if (!modules || !bundlePath || !keyPath) {
  process.stderr.write('usage: node sigstore-js-verify.mjs MODULES_DIR BUNDLE PUBLIC_KEY [ARTIFACT]\n');
  process.exit(2);
}
const require = createRequire(join(modules, 'package.json'));
const { bundleFromJSON } = require('@sigstore/bundle');
const { Verifier, toSignedEntity, toTrustMaterial } = require('@sigstore/verify');

const publicKey = createPublicKey(readFileSync(keyPath));
const emptyRoot = { certificateAuthorities: [], timestampAuthorities: [], tlogs: [], ctlogs: [] };
const verifier = new Verifier(toTrustMaterial(emptyRoot, () => ({ publicKey, validFor: () => true })), {
  tlogThreshold: 0,
  ctlogThreshold: 0,
  timestampThreshold: 0,
});
try {
  const bundle = bundleFromJSON(JSON.parse(readFileSync(bundlePath, 'utf8')));
  const artifact = artifactPath ? readFileSync(artifactPath) : undefined;
  verifier.verify(toSignedEntity(bundle, artifact));
  process.stdout.write('verified\n');
  process.exit(0);
} catch (e) {
  process.stdout.write(`refused: ${e.code ?? ''} ${e.message}\n`);
  process.exit(1);
}
