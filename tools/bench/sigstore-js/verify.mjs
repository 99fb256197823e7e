// Peer of pb_bench_sigstore (issue 6): sigstore-js verifies every PASS case of the Sigstore
// acceptance set, offline, in one Node process.
//
//   node verify.mjs MANIFEST.tsv [ITERATIONS=1000] [--exclude case1,case2] [--warmup N=20]
//
// Each case gets one Verifier built from its own trusted_root.json (outside the timed loop, as
// pb_bench_sigstore parses each root once). Each timed verification then does what the `sigstore`
// package's createVerifier().verify() does after TUF: the bundle from its bytes (JSON.parse +
// bundleFromJSON), toSignedEntity with the artifact bytes, Verifier.verify with the identity policy
// (subjectAlternativeName + issuer extension) or, in key mode, the case's key.pub. TUF is never
// called: the trust material comes from the case's trusted_root.json, so nothing goes to the network.
//
// Every case must verify once before timing starts; a case that does not is reported and the run
// fails, unless it is named in --exclude (which the bench script passes to both sides alike). Then
// N untimed iterations let V8 compile the hot paths, as a long-running verifier process would.
// Prints one JSON line: {name, cases, iterations, seconds, perVerifyUs, cpuSeconds, perVerifyCpuUs,
// perCaseUs, ...}: wall time, and the process's CPU time (user + system) for a loaded machine.
import { readFileSync } from 'node:fs';
import { createPublicKey } from 'node:crypto';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

import { bundleFromJSON } from '@sigstore/bundle';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { Verifier, toSignedEntity, toTrustMaterial } from '@sigstore/verify';

const require = createRequire(import.meta.url);

function usage(message) {
  process.stderr.write(`verify.mjs: ${message}\nusage: node verify.mjs MANIFEST.tsv [ITERATIONS] [--exclude case1,case2] [--warmup N]\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
const exclude = new Set();
const positional = [];
let warmup = 20;
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--exclude') {
    if (i + 1 >= args.length) usage('--exclude needs a value');
    for (const name of args[++i].split(',')) if (name) exclude.add(name);
  } else if (args[i] === '--warmup') {
    warmup = Number.parseInt(args[++i], 10);
    if (!Number.isInteger(warmup) || warmup < 0) usage('bad --warmup');
  } else {
    positional.push(args[i]);
  }
}
if (positional.length < 1) usage('missing MANIFEST.tsv');
const manifestPath = positional[0];
const iterations = positional.length > 1 ? Number.parseInt(positional[1], 10) : 1000;
if (!Number.isInteger(iterations) || iterations < 1) usage(`bad ITERATIONS '${positional[1]}'`);

// MANIFEST.tsv: a header row naming the columns, then one case per row.
const rows = readFileSync(manifestPath, 'utf8').split('\n').filter((l) => l.length > 0);
const header = rows[0].split('\t');
const col = (name) => {
  const i = header.indexOf(name);
  if (i < 0) usage(`${manifestPath}: no column '${name}'`);
  return i;
};
const [cCase, cVerdict, cMode, cIdentity, cIssuer] = ['case', 'expected_verdict', 'mode', 'expected_identity', 'expected_issuer'].map(col);
const casesDir = join(dirname(manifestPath), 'cases');

const cases = [];
const excluded = [];
for (const line of rows.slice(1)) {
  const f = line.split('\t');
  if (f[cVerdict] !== 'PASS') continue;
  if (exclude.has(f[cCase])) {
    excluded.push(f[cCase]);
    continue;
  }
  const dir = join(casesDir, f[cCase]);
  const root = TrustedRoot.fromJSON(JSON.parse(readFileSync(join(dir, 'trusted_root.json'), 'utf8')));
  const c = {
    name: f[cCase],
    mode: f[cMode],
    bundleText: readFileSync(join(dir, 'bundle.sigstore.json'), 'utf8'),
    artifact: readFileSync(join(dir, 'artifact')),
  };
  if (c.mode === 'key') {
    // Key mode: the key the user gives (key.pub), whatever hint the bundle carries, as cosign's
    // --key and our Policy.publicKeyPem do. Any validity window is open.
    const publicKey = createPublicKey(readFileSync(join(dir, 'key.pub')));
    c.verifier = new Verifier(toTrustMaterial(root, () => ({ publicKey, validFor: () => true })));
    c.policy = undefined;
  } else {
    c.verifier = new Verifier(toTrustMaterial(root));
    c.policy = { subjectAlternativeName: f[cIdentity], extensions: { issuer: f[cIssuer] } };
  }
  cases.push(c);
}
for (const name of exclude) {
  if (!excluded.includes(name)) usage(`--exclude names '${name}', which is not a PASS case of the manifest`);
}
if (cases.length === 0) usage('no PASS case to verify');

// One verification, from the bundle's bytes, as sigstore's createVerifier().verify() does.
function verifyOnce(c) {
  const bundle = bundleFromJSON(JSON.parse(c.bundleText));
  const entity = toSignedEntity(bundle, c.artifact);
  return c.verifier.verify(entity, c.policy);
}

// Each case must pass once (this is also the warm-up).
let failed = 0;
for (const c of cases) {
  try {
    verifyOnce(c);
  } catch (e) {
    ++failed;
    process.stderr.write(`verify.mjs: sigstore-js does NOT verify PASS case ${c.name}: ${e?.code ?? ''} ${e?.message ?? e}\n`);
  }
}
if (failed) {
  process.stderr.write(`verify.mjs: ${failed} PASS case(s) failed; exclude them with --exclude (on both sides) to compare the rest\n`);
  process.exit(1);
}

for (let it = 0; it < warmup; ++it) for (const c of cases) verifyOnce(c);

const perCaseNs = new Array(cases.length).fill(0n);
const cpuStart = process.cpuUsage();
const start = process.hrtime.bigint();
for (let it = 0; it < iterations; ++it) {
  for (let i = 0; i < cases.length; ++i) {
    const t0 = process.hrtime.bigint();
    verifyOnce(cases[i]);
    perCaseNs[i] += process.hrtime.bigint() - t0;
  }
}
const totalNs = process.hrtime.bigint() - start;
const cpu = process.cpuUsage(cpuStart); // the whole process: includes V8's GC and compiler threads

const seconds = Number(totalNs) / 1e9;
const verifies = iterations * cases.length;
const perCaseUs = {};
cases.forEach((c, i) => {
  perCaseUs[c.name] = Math.round(Number(perCaseNs[i]) / iterations / 10) / 100;
});
const version = (pkg) => require(`${pkg}/package.json`).version;
process.stdout.write(
  JSON.stringify({
    name: 'sigstore-js',
    sigstore: version('sigstore'),
    verify: version('@sigstore/verify'),
    node: process.version,
    cases: cases.length,
    excluded,
    warmup,
    iterations,
    verifies,
    seconds: Math.round(seconds * 1e4) / 1e4,
    perVerifyUs: Math.round((Number(totalNs) / verifies) / 10) / 100,
    cpuSeconds: Math.round((cpu.user + cpu.system) / 100) / 1e4,
    perVerifyCpuUs: Math.round(((cpu.user + cpu.system) / verifies) * 100) / 100,
    perCaseUs,
  }) + '\n',
);
