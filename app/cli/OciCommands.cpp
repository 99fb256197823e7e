// OCI registry verbs (issue #11): `oci pull`, `evidence fetch`, `evidence push`, `bundle push`.
// Each verb parses its flags, calls its operation (engine/ops) and prints the outcome.
#include "cli/CliUtil.h"

#include "core/Files.h"
#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "oci/Artifact.h"
#include "oci/Layout.h"
#include "oci/Reference.h"
#include "oci/Registry.h"
#include "ops/FetchEvidence.h"
#include "ops/SignatureCheck.h"
#include "ops/OciPull.h"
#include "ops/PushBundle.h"
#include "ops/PushEvidence.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

namespace pb::cli {

namespace {

void addRegistryOptions(Command& c) {
    const QString family = QStringLiteral("registry flags");
    c.addOption({QStringLiteral("plain-http"), QStringLiteral("Use plain HTTP for loopback registries (127.0.0.0/8, ::1, localhost).")}, family);
    c.addOption({QStringLiteral("plain-http-registry"),
                 QStringLiteral("Use plain HTTP for this registry (host:port); may be repeated."), QStringLiteral("REGISTRY")}, family);
    c.addOption({QStringLiteral("ca-file"), QStringLiteral("Extra CA bundle (PEM) to trust for registries."), QStringLiteral("FILE")}, family);
    c.addOption({QStringLiteral("insecure-tls"), QStringLiteral("Do not verify the registry's TLS certificate (not recommended).")}, family);
    c.addOption({QStringLiteral("docker-config"),
                 QStringLiteral("docker config.json with registry credentials (default: $DOCKER_CONFIG/config.json or "
                                "~/.docker/config.json)."),
                 QStringLiteral("FILE")}, family);
    c.addOption({QStringLiteral("chunk-size"), QStringLiteral("Upload blobs in chunks of this many bytes (default: one request)."),
                 QStringLiteral("BYTES")}, family);
}

Result<oci::ClientOptions> registryOptions(const QCommandLineParser& p) {
    oci::ClientOptions o;
    o.plainHttp = p.isSet(QStringLiteral("plain-http"));
    o.plainHttpRegistries = p.values(QStringLiteral("plain-http-registry"));
    o.caFile = p.value(QStringLiteral("ca-file"));
    o.insecureTls = p.isSet(QStringLiteral("insecure-tls"));
    o.dockerConfig.configFile = p.value(QStringLiteral("docker-config"));
    if (p.isSet(QStringLiteral("chunk-size"))) {
        bool ok = false;
        o.chunkSize = p.value(QStringLiteral("chunk-size")).toLongLong(&ok);
        if (!ok || o.chunkSize <= 0)
            return makeError(QStringLiteral("'%1' is not a positive number of bytes").arg(p.value(QStringLiteral("chunk-size"))), {}, 0,
                             QStringLiteral("--chunk-size"));
    }
    return o;
}

Result<oci::Reference> referenceArg(const QString& text, const QString& flag) {
    Result<oci::Reference> r = oci::parseReference(text);
    if (!r) {
        Error e = r.error();
        e.field = flag;
        return e;
    }
    return r;
}

static int ociPull(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one reference"), QStringLiteral("oci pull"));
    if (!p.isSet(QStringLiteral("to")))
        return usage(QStringLiteral("--to DIR is required"), QStringLiteral("oci pull"));
    Result<oci::Reference> ref = referenceArg(p.positionalArguments().constFirst(), QStringLiteral("REF"));
    if (!ref)
        return fail(ref.error());
    Result<oci::ClientOptions> opts = registryOptions(p);
    if (!opts)
        return fail(opts.error());
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::OciPullRequest req;
    req.reference = *ref;
    req.layoutDir = p.value(QStringLiteral("to"));
    req.allowUnpinnedTag = p.isSet(QStringLiteral("allow-unpinned-tag"));
    req.referrers = p.isSet(QStringLiteral("referrers"));
    req.client = *opts;
    Result<ops::OciPullOutcome> outcome = ops::pullOci(ops::Context(**db), req);
    if (!outcome) {
        if (outcome.error().field == QLatin1String(ops::kUnpinnedField)) {
            err() << "proofbench: " << outcome.error().message << Qt::endl;
            return kUsage;
        }
        return fail(outcome.error());
    }
    const oci::PullResult* pulled = &outcome->pull;
    const QString layoutDir = outcome->layoutDir;
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonObject o = pulled->toJson();
        o.insert(QStringLiteral("layout"), layoutDir);
        printJson(o);
    } else {
        out() << "pulled " << pulled->reference.toString() << " into " << layoutDir << '\n'
              << "  " << pulled->manifest.mediaType << (pulled->manifest.artifactType.isEmpty() ? QString() : QStringLiteral(" (") + pulled->manifest.artifactType + QLatin1Char(')'))
              << '\n'
              << "  blobs fetched " << pulled->blobsFetched << " (" << pulled->bytesFetched << " bytes), already cached " << pulled->blobsCached
              << ", referrers " << pulled->referrers.size() << '\n';
    }
    return kOk;
}

static int evidenceFetch(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected one pointer file or directory"), QStringLiteral("evidence fetch"));
    const QString input = p.positionalArguments().constFirst();
    std::vector<evidence::Pointer> pointers;
    if (QFileInfo(input).isDir()) {
        Result<evidence::EvidenceTree> tree = evidence::scanEvidence(input, p.value(QStringLiteral("allowlist")));
        if (!tree)
            return fail(tree.error());
        pointers = tree->pointers;
    } else {
        Result<QByteArray> bytes = readFileLimited(input, limits::kSmallFile, QStringLiteral("the pointer"));
        if (!bytes)
            return fail(bytes.error());
        pointers.push_back(evidence::parsePointer(*bytes, QFileInfo(input).fileName()));
        pointers.back().file = input;
    }
    Result<oci::ClientOptions> opts = registryOptions(p);
    if (!opts)
        return fail(opts.error());
    ops::FetchEvidenceRequest req;
    req.pointers = std::move(pointers);
    req.cacheDir = p.isSet(QStringLiteral("cache")) ? p.value(QStringLiteral("cache")) : oci::Layout::defaultCacheDir();
    req.client = *opts;
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    // --trusted-root or --key; without them the operation checks against the database's default root.
    std::optional<sigstore::TrustedRoot> root;
    if (p.isSet(QStringLiteral("trusted-root")) || p.isSet(QStringLiteral("key"))) {
        const ops::SignatureSource source{p.value(QStringLiteral("trusted-root")), p.value(QStringLiteral("key")),
                                          p.isSet(QStringLiteral("insecure-ignore-tlog"))};
        Result<evidence::SignatureCheck> signature = ops::signatureCheck(ops::Context(**db), source, root);
        if (!signature)
            return fail(signature.error());
        req.signature = *signature;
    }
    Result<ops::FetchEvidenceOutcome> fetched = ops::fetchEvidence(ops::Context(**db), req);
    if (!fetched)
        return fail(fetched.error());
    const bool json = p.value(QStringLiteral("format")) == QLatin1String("json");
    QJsonArray results;
    for (const ops::FetchedBundle& b : fetched->bundles) {
        results.append(b.toJson());
        if (json)
            continue;
        if (!b.fetch)
            err() << "proofbench: " << b.error << Qt::endl;
        else if (b.check)
            out() << b.pointer.file << ": fetched " << b.fetch->reference << " into " << b.fetch->dir
                  << (b.fetch->signaturePulled ? QStringLiteral(" (with its signature)") : QStringLiteral(" (unsigned)")) << '\n'
                  << b.check->toText() << '\n';
    }
    if (json)
        printJson(QJsonObject{{QStringLiteral("results"), results}, {QStringLiteral("exit"), fetched->worst}});
    out().flush();
    return fetched->worst;
}

static int evidencePush(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one bundle directory"), QStringLiteral("evidence push"));
    if (!p.isSet(QStringLiteral("to")))
        return usage(QStringLiteral("--to REF is required"), QStringLiteral("evidence push"));
    Result<oci::Reference> to = referenceArg(p.value(QStringLiteral("to")), QStringLiteral("--to"));
    if (!to)
        return fail(to.error());
    if (to->isPinned())
        return usage(QStringLiteral("--to names a tag, not a digest (the digest is the result)"), QStringLiteral("evidence push"));
    Result<oci::ClientOptions> opts = registryOptions(p);
    if (!opts)
        return fail(opts.error());
    oci::EvidencePushOptions po;
    po.pointerRoot = p.value(QStringLiteral("pointer-dir"));
    po.stagingDir = p.value(QStringLiteral("staging"));
    sigstore::crypto::Pkey key;
    if (p.isSet(QStringLiteral("key"))) {
        auto k = privateKeyFrom(p);
        if (!k)
            return fail(k.error());
        key = std::move(*k);
        po.key = key.get();
    }
    po.signIncomplete = p.isSet(QStringLiteral("sign-incomplete"));
    if (po.signIncomplete && !po.key)
        return usage(QStringLiteral("--sign-incomplete needs --key"), QStringLiteral("evidence push"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::PushEvidenceRequest req;
    req.bundleDir = p.positionalArguments().constFirst();
    req.to = *to;
    req.options = po;
    req.client = *opts;
    Result<oci::EvidencePush> pushed = ops::pushEvidence(ops::Context(**db), req);
    if (!pushed)
        return fail(pushed.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printJson(pushed->toJson());
    else
        out() << "pushed " << pushed->artifact.reference.toString() << '\n'
              << "  signature referrer: " << (pushed->signatureDigest.isEmpty() ? QStringLiteral("none (unsigned: pending signature)") : pushed->signatureDigest)
              << '\n'
              << "  pointer: " << pushed->pointerPath << '\n';
    return kOk;
}

static int bundlePush(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one directory"), QStringLiteral("bundle push"));
    if (!p.isSet(QStringLiteral("to")))
        return usage(QStringLiteral("--to REF is required"), QStringLiteral("bundle push"));
    Result<oci::Reference> to = referenceArg(p.value(QStringLiteral("to")), QStringLiteral("--to"));
    if (!to)
        return fail(to.error());
    Result<oci::ClientOptions> opts = registryOptions(p);
    if (!opts)
        return fail(opts.error());
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::PushBundleRequest req;
    req.dir = p.positionalArguments().constFirst();
    req.to = *to;
    req.client = *opts;
    Result<oci::PushResult> pushed = ops::pushBundle(ops::Context(**db), req);
    if (!pushed)
        return fail(pushed.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printJson(pushed->toJson());
    else
        out() << "pushed " << pushed->reference.toString() << " (" << pushed->bytesPushed << " bytes in " << pushed->blobsPushed
              << " new blobs, " << pushed->blobsExisting << " already there)\n";
    return kOk;
}

} // namespace

// ---- declarations ------------------------------------------------------------------------------

Command ociPullCommand() {
    Command p(QStringLiteral("oci pull"), QStringLiteral("pull an artifact (by digest) and its blobs into an OCI image layout"),
              QStringLiteral("Pull a manifest (or index) and its blobs into an OCI image layout; digests and sizes are "
                                      "verified while streaming."));
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("to"), QStringLiteral("OCI image layout directory to pull into (created when absent)."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("allow-unpinned-tag"), QStringLiteral("Accept a tag-only reference to an evidence artifact.")});
    p.addOption({QStringLiteral("referrers"), QStringLiteral("Also pull every referrer (signatures) of the manifest.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("REF"), QStringLiteral("registry/repository[:tag][@sha256:...]"));
    p.require({QStringLiteral("to")});
    p.handler = ociPull;
    return p;
}

Command evidenceFetchCommand() {
    Command p(QStringLiteral("evidence fetch"), QStringLiteral("pull the bundles evidence pointers pin, with their signatures, and check them"),
              QStringLiteral("Pull the bundle every pointer pins (by digest) and its Sigstore referrer into the cache, "
                                      "then check it offline. Exit 0 when every bundle is valid."));
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("cache"), QStringLiteral("Cache directory (default: %1).").arg(oci::Layout::defaultCacheDir()), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("allowlist"), QStringLiteral("Signer allowlist (for a directory; default: the tree's own)."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("trusted-root"), QStringLiteral("Sigstore trusted_root.json for keyless signatures."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("key"), QStringLiteral("Public key (PEM) the attestations must be signed with."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("insecure-ignore-tlog"), QStringLiteral("With --key: accept an attestation without a log entry.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("POINTER_OR_DIR"), QStringLiteral("An evidence pointer file, or a recipes/evidence directory."));
    p.handler = evidenceFetch;
    return p;
}

Command evidencePushCommand() {
    Command p(QStringLiteral("evidence push"), QStringLiteral("publish an evidence bundle to a registry and write its pointer"),
              QStringLiteral("Publish an evidence bundle as AICR does (one tar+gzip layer, artifactType "
                                      "application/vnd.nvidia.aicr.artifact, the Sigstore bundle as a referrer) and write the "
                                      "pointer pinned to the manifest digest."));
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("to"), QStringLiteral("Destination reference registry/repository:tag."), QStringLiteral("REF")});
    p.addOption({QStringLiteral("key"), QStringLiteral("Private key (PEM) to sign the bundle with before publishing."), QStringLiteral("KEY")});
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("sign-incomplete"),
                 QStringLiteral("With --key: sign even though some checks could not run or finish (it stays marked incomplete).")});
    p.addOption({QStringLiteral("pointer-dir"),
                 QStringLiteral("recipes/evidence directory the pointer goes to (default: the bundle directory's parent)."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("staging"), QStringLiteral("Keep the staged OCI layout here (default: in the cache)."), QStringLiteral("DIR")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("SUMMARY_BUNDLE_DIR"), QStringLiteral("A summary-bundle directory or its parent."));
    p.require({QStringLiteral("to")});
    p.handler = evidencePush;
    return p;
}

Command bundlePushCommand() {
    Command p(QStringLiteral("bundle push"), QStringLiteral("publish a deployment bundle to a registry"),
              QStringLiteral("Publish a deployment bundle as one tar+gzip layer, as aicr bundle -o oci:// does."));
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("to"), QStringLiteral("Destination reference registry/repository:tag (oci:// accepted)."), QStringLiteral("REF")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("A deployment bundle directory."));
    p.require({QStringLiteral("to")});
    p.handler = bundlePush;
    return p;
}

} // namespace pb::cli
