// Runs tuf-js (the TUF client sigstore-js updates its trust root with) on a local copy of a TUF
// repository, from a given anchor, and fetches one target: the peer of `proofbench trusted-root
// update` in tst_tufinterop. The copy is served over a real HTTP server on 127.0.0.1 (tuf-js fetches
// over HTTP only); the server maps the served names tuf-js asks for (N.root.json, V.snapshot.json,
// HASH.trusted_root.json with consistent snapshots) onto the copy's Git layout
// (metadata/root_history/N.root.json, metadata/snapshot.json, targets/trusted_root.json), as
// sigstore/root-signing's publishing does. tuf-js itself checks every version and hash it receives.
//
//   node tuf-js-update.mjs MODULES_DIR REPO_DIR ANCHOR_ROOT_JSON TARGET_NAME OUT_FILE [AT]
//
// AT (an ISO 8601 time) fixes this Node process's clock for the run: `new Date()` and `Date.now()`
// return AT, which is what tuf-js compares each role's expiry with (the `--at` of the proofbench side).
// Prints one JSON line; exit 0 verified (target written to OUT_FILE), 1 refused, 2 usage.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';

const [modules, repoArg, anchor, targetName, outFile, at] = process.argv.slice(2);
if (!modules || !repoArg || !anchor || !targetName || !outFile) {
  process.stderr.write('usage: node tuf-js-update.mjs MODULES_DIR REPO_DIR ANCHOR_ROOT_JSON TARGET_NAME OUT_FILE [AT]\n');
  process.exit(2);
}

if (at) {
  const fixed = new Date(at).getTime();
  if (Number.isNaN(fixed)) {
    process.stderr.write(`not a time: ${at}\n`);
    process.exit(2);
  }
  const RealDate = Date;
  class FixedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(fixed);
      else super(...args);
    }
    static now() {
      return fixed;
    }
  }
  globalThis.Date = FixedDate;
}

const require = createRequire(join(modules, 'package.json'));
const { Updater } = require('tuf-js');

const repo = resolve(repoArg);
const metadata = existsSync(join(repo, 'metadata')) ? join(repo, 'metadata') : repo;
const targets = join(repo, 'targets');

const isFile = (p) => existsSync(p) && statSync(p).isFile();
const inside = (root, p) => p === root || p.startsWith(root + sep);

// The copy's file for a served name, or undefined (404).
function metadataFile(name) {
  const direct = resolve(metadata, name);
  if (!inside(metadata, direct)) return undefined;
  if (isFile(direct)) return direct;
  const m = /^(\d+)\.(.+)$/.exec(name);
  if (!m) return undefined;
  if (m[2] === 'root.json') {
    const history = join(metadata, 'root_history', name);
    return isFile(history) ? history : undefined;
  }
  const unversioned = resolve(metadata, m[2]);
  return inside(metadata, unversioned) && isFile(unversioned) ? unversioned : undefined;
}

function targetFile(name) {
  const direct = resolve(targets, name);
  if (!inside(targets, direct)) return undefined;
  if (isFile(direct)) return direct;
  const m = /^[0-9a-f]{64,128}\.(.+)$/.exec(basename(name));
  if (!m) return undefined;
  const plain = resolve(targets, dirname(name), m[1]);
  return inside(targets, plain) && isFile(plain) ? plain : undefined;
}

const served = [];
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file;
  if (path.startsWith('/metadata/')) file = metadataFile(path.slice('/metadata/'.length));
  else if (path.startsWith('/targets/')) file = targetFile(path.slice('/targets/'.length));
  served.push(`${path} ${file ? 200 : 404}`);
  if (!file) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}`;

const work = mkdtempSync(join(tmpdir(), 'tuf-js-'));
const version = (role) => {
  try {
    return JSON.parse(readFileSync(join(work, `${role}.json`))).signed.version;
  } catch {
    return undefined;
  }
};
let code = 1;
try {
  writeFileSync(join(work, 'root.json'), readFileSync(anchor));
  const updater = new Updater({
    metadataDir: work,
    metadataBaseUrl: `${base}/metadata`,
    targetBaseUrl: `${base}/targets`,
    targetDir: work,
    config: { fetchRetry: 0 },
  });
  await updater.refresh();
  const info = await updater.getTargetInfo(targetName);
  if (!info) throw new Error(`no targets role lists ${targetName}`);
  const got = await updater.downloadTarget(info, join(work, 'target.out'));
  copyFileSync(got, outFile);
  process.stdout.write(
    JSON.stringify({
      verified: true,
      root: version('root'),
      timestamp: version('timestamp'),
      snapshot: version('snapshot'),
      targets: version('targets'),
      length: info.length,
      served,
    }) + '\n'
  );
  code = 0;
} catch (e) {
  process.stdout.write(JSON.stringify({ verified: false, error: `${e?.name ?? 'Error'}: ${e?.message ?? e}`, root: version('root'), served }) + '\n');
} finally {
  server.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);
