#!/usr/bin/env python3
"""Time and peak RSS of the CLI on the hostile inputs of issue 28 (docs/RELIABILITY.md, "Hostile
input, third round"), each built on the spot from ../shared/data (cases whose data is absent are
skipped). One line per case: exit code, wall seconds, the child's peak RSS (wait4), and the first
line of what it said.

    tools/measure-hostile.py [PROOFBENCH]   (default: build/release/app/proofbench)
"""
import base64, json, os, shutil, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
shared = os.path.join(os.path.dirname(here), "shared", "data")
cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "build", "release", "app", "proofbench")
tmp = tempfile.mkdtemp(prefix="pb-hostile-")


def run(name, args):
    start = time.monotonic()
    with open(os.path.join(tmp, "out"), "wb") as out, open(os.path.join(tmp, "err"), "wb") as err:
        p = subprocess.Popen(args, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
    seconds = time.monotonic() - start
    said = (open(os.path.join(tmp, "err"), "rb").read() or open(os.path.join(tmp, "out"), "rb").read())
    first = said.decode("utf-8", "replace").strip().splitlines()[:1]
    print(f"| {name} | exit {os.waitstatus_to_exitcode(status)} | {seconds:.2f} s | {usage.ru_maxrss / 1024:.0f} MB | "
          f"{first[0][:160] if first else ''} |", flush=True)


def db(name):
    return os.path.join(tmp, name + ".sqlite")


def need(path):
    if not os.path.exists(os.path.join(shared, path)):
        print(f"| (skipped: {path} is absent) | | | | |")
        return False
    return True


print("| case | result | time | peak RSS | first line |\n| --- | --- | --- | --- | --- |")

# A release folder that lies: a checksum row rewritten for a fake asset, links, a FIFO, a directory.
if need("aicr/releases/v0.20.0") and need("sigstore/trusted_root.production.json"):
    rel = os.path.join(tmp, "release")
    shutil.copytree(os.path.join(shared, "aicr/releases/v0.20.0"), rel)
    fake = b'{"spdxVersion":"SPDX-2.3","name":"not the release\'s"}\n'
    open(os.path.join(rel, "aicr_0.20.0_linux_amd64.sbom.json"), "wb").write(fake)
    import hashlib
    lst = os.path.join(rel, "aicr_checksums.txt")
    text = open(lst, "rb").read().replace(b"9cb4aceff212d64c4c1e21c6561d562c664c4d2057dd9c7f509d527b43b45a00",
                                          hashlib.sha256(fake).hexdigest().encode())
    open(lst, "wb").write(text)
    root = os.path.join(shared, "sigstore/trusted_root.production.json")
    run("release folder: a checksum row rewritten for a fake asset",
        [cli, "release", "verify", "--db", db("release"), "--version", "v0.20.0", "--trusted-root", root, rel])
    os.symlink("/etc/passwd", os.path.join(rel, "aicr_0.20.0_linux_arm64.sbom.json"))
    os.mkfifo(os.path.join(rel, "aicrd_0.20.0_linux_amd64.sbom.json"))
    os.mkdir(os.path.join(rel, "aicrd_0.20.0_linux_arm64.sbom.json"))
    run("release folder: listed assets that are a symlink, a FIFO, a directory",
        [cli, "release", "verify", "--db", db("release"), "--version", "v0.20.0", "--trusted-root", root, rel])

# Rekor v2: an edited canonicalizedBody; proto3 zero integers left out.
case = "sigstore/cases/rekor2-happy-path"
if need(case):
    c = os.path.join(shared, case)
    bundle = json.load(open(os.path.join(c, "bundle.sigstore.json")))
    entry = bundle["verificationMaterial"]["tlogEntries"][0]
    body = json.loads(base64.b64decode(entry["canonicalizedBody"]))
    body["spec"]["hashedRekordV002"]["data"]["digest"] = base64.b64encode(b"\0" * 32).decode()
    entry["canonicalizedBody"] = base64.b64encode(json.dumps(body).encode()).decode()
    edited = os.path.join(tmp, "edited.sigstore.json")
    json.dump(bundle, open(edited, "w"))
    flags = ["--certificate-identity",
             "https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon/.github/workflows/"
             "extremely-dangerous-oidc-beacon.yml@refs/heads/main",
             "--certificate-oidc-issuer", "https://token.actions.githubusercontent.com",
             "--trusted-root", os.path.join(c, "trusted_root.json")]
    run("Rekor v2 bundle, canonicalizedBody edited",
        [cli, "verify", "--db", db("verify"), "--bundle", edited] + flags + [os.path.join(c, "artifact")])
    bundle = json.load(open(os.path.join(c, "bundle.sigstore.json")))
    entry = bundle["verificationMaterial"]["tlogEntries"][0]
    entry.pop("logIndex", None)
    entry.get("inclusionProof", {}).pop("logIndex", None)
    entry.get("inclusionProof", {}).pop("treeSize", None)
    zeros = os.path.join(tmp, "zeros.sigstore.json")
    json.dump(bundle, open(zeros, "w"))
    run("Rekor v2 bundle, logIndex and treeSize left out (proto3 zero)",
        [cli, "verify", "--db", db("verify"), "--bundle", zeros] + flags + [os.path.join(c, "artifact")])

# A 16 GB sparse file beside the TUF metadata.
if need("sigstore/tuf"):
    tuf = os.path.join(tmp, "tuf")
    shutil.copytree(os.path.join(shared, "sigstore/tuf"), tuf)
    with open(os.path.join(tuf, "metadata", "unused.bin"), "wb") as f:
        f.truncate(16 << 30)
    run("TUF copy with a 16 GB sparse file beside the metadata",
        [cli, "trusted-root", "update", "--db", db("tuf"), "--tuf", tuf, "--at", "2026-08-22T00:00:00Z"])

# A Git tree holding an entry named ../../../../tmp/pwned.yaml (written with hash-object --literally:
# Git itself would refuse the name) and a second registry.yaml.
if need("aicr/catalogs/2026-08-19") and shutil.which("git"):
    repo = os.path.join(tmp, "repo")
    shutil.copytree(os.path.join(shared, "aicr/catalogs/2026-08-19"), repo)
    genv = dict(os.environ, GIT_AUTHOR_NAME="m", GIT_COMMITTER_NAME="m", GIT_AUTHOR_EMAIL="m@invalid",
                GIT_COMMITTER_EMAIL="m@invalid", GIT_CONFIG_NOSYSTEM="1", HOME=tmp)

    def git(*args, data=None):
        return subprocess.run(["git", *args], cwd=repo, env=genv, input=data, check=True,
                              capture_output=True).stdout.strip()

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "catalog")

    def tree_with(tree, extra):
        raw = b""
        for line in git("cat-file", "-p", tree).splitlines():
            meta, name = line.split(b"\t", 1)
            mode, _, oid = meta.split(b" ")
            raw += mode + b" " + name + b"\0" + bytes.fromhex(oid.decode())
        for mode, name, oid in extra:
            raw += mode + b" " + name + b"\0" + bytes.fromhex(oid.decode())
        return git("hash-object", "-t", "tree", "-w", "--literally", "--stdin", data=raw)

    blob = git("hash-object", "-w", "--stdin", data=b"pwned: true\n")
    for label, extra in (("an entry named ../../../../tmp/pwned.yaml", [(b"100644", b"../../../../tmp/pwned.yaml", blob)]),
                         ("two entries named registry.yaml", [(b"100644", b"registry.yaml", blob)])):
        recipes = tree_with(git("rev-parse", "HEAD:recipes"), extra)
        raw = b""
        for line in git("cat-file", "-p", "HEAD^{tree}").splitlines():
            meta, name = line.split(b"\t", 1)
            mode, _, oid = meta.split(b" ")
            raw += mode + b" " + name + b"\0" + bytes.fromhex((recipes if name == b"recipes" else oid).decode())
        root = git("hash-object", "-t", "tree", "-w", "--literally", "--stdin", data=raw)
        commit = git("commit-tree", root.decode(), "-m", "hostile").decode()
        run(f"catalog import --git, a tree with {label}",
            [cli, "catalog", "import", "--db", db("git"), "--git", repo, "--ref", commit, "--version", "hostile"])

# A ledger erased whole, checked against a checkpoint; and the receipts table dropped.
if shutil.which("sqlite3"):
    d = db("ledger")
    key = os.path.join(tmp, "k.key")
    env = dict(os.environ, PB_PASS="measure-pass")
    subprocess.run([cli, "keygen", "--db", d, "--out", key, "--passphrase-env", "PB_PASS"], env=env,
                   check=True, capture_output=True)
    cp = os.path.join(tmp, "checkpoint.json")
    subprocess.run([cli, "receipts", "checkpoint", "--db", d, "--key", key, "--passphrase-env", "PB_PASS",
                    "--out", cp], env=env, check=True, capture_output=True)
    subprocess.run(["sqlite3", d, "DROP TRIGGER receipts_no_delete; DELETE FROM receipts; DELETE FROM receipts_head;"],
                   check=True)
    run("ledger erased whole, verified against a checkpoint",
        [cli, "receipts", "verify", "--db", d, "--checkpoint", cp, "--key", key + ".pub"])
    subprocess.run(["sqlite3", d, "DROP TABLE receipts"], check=True)
    run("receipts table dropped", [cli, "receipts", "verify", "--db", d])

shutil.rmtree(tmp, ignore_errors=True)
