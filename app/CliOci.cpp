// OCI registry verbs (issue #11): `oci pull`, `evidence fetch`, `evidence push`, `bundle push`.
// The engine does the work (engine/oci); this file maps flags to options and results to output.
#include "CliUtil.h"

#include "core/Files.h"
#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "oci/Artifact.h"
#include "oci/Layout.h"
#include "oci/Reference.h"
#include "oci/Registry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

namespace pb::cli {

namespace {

void addRegistryOptions(QCommandLineParser& p) {
    p.addOption({QStringLiteral("plain-http"), QStringLiteral("Use plain HTTP for loopback registries (127.0.0.0/8, ::1, localhost).")});
    p.addOption({QStringLiteral("plain-http-registry"),
                 QStringLiteral("Use plain HTTP for this registry (host:port); may be repeated."), QStringLiteral("REGISTRY")});
    p.addOption({QStringLiteral("ca-file"), QStringLiteral("Extra CA bundle (PEM) to trust for registries."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("insecure-tls"), QStringLiteral("Do not verify the registry's TLS certificate (not recommended).")});
    p.addOption({QStringLiteral("docker-config"),
                 QStringLiteral("docker config.json with registry credentials (default: $DOCKER_CONFIG/config.json or "
                                "~/.docker/config.json)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("chunk-size"), QStringLiteral("Upload blobs in chunks of this many bytes (default: one request)."),
                 QStringLiteral("BYTES")});
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

int ociPull(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("to"), QStringLiteral("OCI image layout directory to pull into (created when absent)."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("allow-unpinned-tag"), QStringLiteral("Accept a tag-only reference to an evidence artifact.")});
    p.addOption({QStringLiteral("referrers"), QStringLiteral("Also pull every referrer (signatures) of the manifest.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("REF"), QStringLiteral("registry/repository[:tag][@sha256:...]"));
    if (int rc = parse(p, args, QStringLiteral("oci pull"),
                       QStringLiteral("Pull a manifest (or index) and its blobs into an OCI image layout; digests and sizes are "
                                      "verified while streaming."));
        rc >= 0)
        return rc;
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
    oci::Client client(*opts);
    oci::Reference target = *ref;
    if (!ref->isPinned()) {
        // Resolve the tag first: an evidence artifact must be pinned, as aicr evidence verify insists.
        Result<oci::Manifest> m = client.getManifest(*ref);
        if (!m)
            return fail(m.error());
        if (m->descriptor().artifactType == QLatin1String(oci::kAicrArtifact) && !p.isSet(QStringLiteral("allow-unpinned-tag"))) {
            err() << "proofbench: " << ref->toString() << ": an evidence artifact must be pulled by digest (" << ref->registry << '/'
                  << ref->repository << '@' << m->digest << "); pass --allow-unpinned-tag to accept the tag" << Qt::endl;
            return kUsage;
        }
        target = ref->withDigest(m->digest);
        target.tag = ref->tag;
    }
    Result<oci::Layout> layout = oci::Layout::open(p.value(QStringLiteral("to")));
    if (!layout)
        return fail(layout.error());
    oci::PullOptions po;
    po.referrers = p.isSet(QStringLiteral("referrers"));
    Result<oci::PullResult> pulled = client.pull(target, *layout, po);
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("oci.pull");
    d.parameters = QJsonObject{{QStringLiteral("reference"), ref->toString()}, {QStringLiteral("referrers"), po.referrers}};
    if (!pulled) {
        d.result = receipts::Outcome::Failed;
        d.message = pulled.error().toString();
        leaveReceipt(p, d);
        return fail(pulled.error());
    }
    d.inputs.push_back(receipts::Artifact::digest(pulled->reference.toString(), pulled->reference.digest.mid(7)));
    d.outputs.push_back(receipts::Artifact::directory(layout->dir()));
    d.message = QStringLiteral("%1 blobs fetched, %2 cached").arg(pulled->blobsFetched).arg(pulled->blobsCached);
    leaveReceipt(p, d);
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonObject o = pulled->toJson();
        o.insert(QStringLiteral("layout"), layout->dir());
        printJson(o);
    } else {
        out() << "pulled " << pulled->reference.toString() << " into " << layout->dir() << '\n'
              << "  " << pulled->manifest.mediaType << (pulled->manifest.artifactType.isEmpty() ? QString() : QStringLiteral(" (") + pulled->manifest.artifactType + QLatin1Char(')'))
              << '\n'
              << "  blobs fetched " << pulled->blobsFetched << " (" << pulled->bytesFetched << " bytes), already cached " << pulled->blobsCached
              << ", referrers " << pulled->referrers.size() << '\n';
    }
    return kOk;
}

int evidenceFetch(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("cache"), QStringLiteral("Cache directory (default: %1).").arg(oci::Layout::defaultCacheDir()), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("allowlist"), QStringLiteral("Signer allowlist (for a directory; default: the tree's own)."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("trusted-root"), QStringLiteral("Sigstore trusted_root.json for keyless signatures."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("key"), QStringLiteral("Public key (PEM) the attestations must be signed with."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("insecure-ignore-tlog"), QStringLiteral("With --key: accept an attestation without a log entry.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("POINTER_OR_DIR"), QStringLiteral("An evidence pointer file, or a recipes/evidence directory."));
    if (int rc = parse(p, args, QStringLiteral("evidence fetch"),
                       QStringLiteral("Pull the bundle every pointer pins (by digest) and its Sigstore referrer into the cache, "
                                      "then check it offline. Exit 0 when every bundle is valid."));
        rc >= 0)
        return rc;
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
    oci::Client client(*opts);
    const QString cache = p.isSet(QStringLiteral("cache")) ? p.value(QStringLiteral("cache")) : oci::Layout::defaultCacheDir();

    std::optional<sigstore::TrustedRoot> root;
    Result<evidence::SignatureCheck> signatureOrError = evidenceSignatureCheck(p, root);
    if (!signatureOrError)
        return fail(signatureOrError.error());
    const evidence::SignatureCheck signature = *signatureOrError;

    int worst = 0;
    QJsonArray results;
    for (const evidence::Pointer& ptr : pointers) {
        QJsonObject r{{QStringLiteral("pointer"), ptr.file}};
        Result<oci::EvidenceFetch> fetched = oci::fetchEvidence(client, ptr, cache);
        if (!fetched) {
            r.insert(QStringLiteral("error"), fetched.error().toString());
            r.insert(QStringLiteral("exit"), 3);
            worst = qMax(worst, 3);
            if (p.value(QStringLiteral("format")) != QLatin1String("json"))
                err() << "proofbench: " << fetched.error().toString() << Qt::endl;
            results.append(r);
            continue;
        }
        Result<evidence::SummaryBundle> bundle = evidence::loadSummaryBundle(fetched->dir);
        if (!bundle) {
            r.insert(QStringLiteral("error"), bundle.error().toString());
            worst = qMax(worst, 2);
            results.append(r);
            continue;
        }
        bundle->ociManifestDigest = fetched->bundleDigest;
        const evidence::BundleCheck check = evidence::checkBundle(*bundle, &ptr, &signature);
        worst = qMax(worst, check.exitCode);
        r.insert(QStringLiteral("fetch"), fetched->toJson());
        r.insert(QStringLiteral("check"), check.toJson());
        r.insert(QStringLiteral("exit"), check.exitCode);
        results.append(r);
        if (p.value(QStringLiteral("format")) != QLatin1String("json"))
            out() << ptr.file << ": fetched " << fetched->reference << " into " << fetched->dir
                  << (fetched->signaturePulled ? QStringLiteral(" (with its signature)") : QStringLiteral(" (unsigned)")) << '\n'
                  << check.toText() << '\n';
    }
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("evidence.fetch");
    d.parameters = QJsonObject{{QStringLiteral("pointers"), int(pointers.size())}, {QStringLiteral("cache"), cache}};
    d.inputs.push_back(QFileInfo(input).isDir() ? receipts::Artifact::directory(input) : receipts::Artifact::file(input));
    for (const evidence::Pointer& ptr : pointers)
        if (const evidence::Attestation* a = ptr.attestation(); a && a->bundleDigest.startsWith(QLatin1String("sha256:")))
            d.outputs.push_back(receipts::Artifact::digest(a->bundleOci, a->bundleDigest.mid(7)));
    d.result = worst == 0 ? receipts::Outcome::Ok : worst == 1 ? receipts::Outcome::Partial : receipts::Outcome::Failed;
    d.message = QStringLiteral("%1 bundles fetched and checked; worst exit %2").arg(pointers.size()).arg(worst);
    leaveReceipt(p, d);
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printJson(QJsonObject{{QStringLiteral("results"), results}, {QStringLiteral("exit"), worst}});
    out().flush();
    return worst;
}

int evidencePush(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("to"), QStringLiteral("Destination reference registry/repository:tag."), QStringLiteral("REF")});
    p.addOption({QStringLiteral("key"), QStringLiteral("Private key (PEM) to sign the bundle with before publishing."), QStringLiteral("KEY")});
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("pointer-dir"),
                 QStringLiteral("recipes/evidence directory the pointer goes to (default: the bundle directory's parent)."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("staging"), QStringLiteral("Keep the staged OCI layout here (default: in the cache)."), QStringLiteral("DIR")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("SUMMARY_BUNDLE_DIR"), QStringLiteral("A summary-bundle directory or its parent."));
    if (int rc = parse(p, args, QStringLiteral("evidence push"),
                       QStringLiteral("Publish an evidence bundle as AICR does (one tar+gzip layer, artifactType "
                                      "application/vnd.nvidia.aicr.artifact, the Sigstore bundle as a referrer) and write the "
                                      "pointer pinned to the manifest digest."));
        rc >= 0)
        return rc;
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
    oci::Client client(*opts);
    Result<oci::EvidencePush> pushed = oci::pushEvidence(client, p.positionalArguments().constFirst(), *to, po);
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("evidence.push");
    d.parameters = QJsonObject{{QStringLiteral("to"), to->toString()}, {QStringLiteral("signed"), po.key != nullptr}};
    d.inputs.push_back(receipts::Artifact::directory(p.positionalArguments().constFirst()));
    if (!pushed) {
        d.result = receipts::Outcome::Failed;
        d.message = pushed.error().toString();
        leaveReceipt(p, d);
        return fail(pushed.error());
    }
    d.outputs.push_back(receipts::Artifact::digest(pushed->artifact.reference.toString(), pushed->artifact.reference.digest.mid(7)));
    d.outputs.push_back(receipts::Artifact::file(pushed->pointerPath));
    d.message = QStringLiteral("published; pointer written");
    leaveReceipt(p, d);
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printJson(pushed->toJson());
    else
        out() << "pushed " << pushed->artifact.reference.toString() << '\n'
              << "  signature referrer: " << (pushed->signatureDigest.isEmpty() ? QStringLiteral("none (unsigned: pending signature)") : pushed->signatureDigest)
              << '\n'
              << "  pointer: " << pushed->pointerPath << '\n';
    return kOk;
}

int bundlePush(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("to"), QStringLiteral("Destination reference registry/repository:tag (oci:// accepted)."), QStringLiteral("REF")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("A deployment bundle directory."));
    if (int rc = parse(p, args, QStringLiteral("bundle push"),
                       QStringLiteral("Publish a deployment bundle as one tar+gzip layer, as aicr bundle -o oci:// does."));
        rc >= 0)
        return rc;
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
    oci::Client client(*opts);
    Result<oci::PushResult> pushed = oci::pushDeploymentBundle(client, p.positionalArguments().constFirst(), *to);
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("bundle.push");
    d.parameters = QJsonObject{{QStringLiteral("to"), to->toString()}};
    d.inputs.push_back(receipts::Artifact::directory(p.positionalArguments().constFirst()));
    if (!pushed) {
        d.result = receipts::Outcome::Failed;
        d.message = pushed.error().toString();
        leaveReceipt(p, d);
        return fail(pushed.error());
    }
    d.outputs.push_back(receipts::Artifact::digest(pushed->reference.toString(), pushed->reference.digest.mid(7)));
    d.message = QStringLiteral("%1 bytes in %2 new blobs").arg(pushed->bytesPushed).arg(pushed->blobsPushed);
    leaveReceipt(p, d);
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printJson(pushed->toJson());
    else
        out() << "pushed " << pushed->reference.toString() << " (" << pushed->bytesPushed << " bytes in " << pushed->blobsPushed
              << " new blobs, " << pushed->blobsExisting << " already there)\n";
    return kOk;
}

} // namespace

int ociVerbs(const QStringList& args) {
    const QString verb = args.value(1);
    const QString sub = args.value(2);
    const QStringList rest = args.mid(2);
    if (verb == QLatin1String("oci")) {
        if (sub == QLatin1String("pull"))
            return ociPull(rest);
        out() << "Usage: proofbench oci pull REF --to LAYOUT_DIR [--format json] [--allow-unpinned-tag] [--referrers]\n";
        return sub.isEmpty() || sub == QLatin1String("--help") || sub == QLatin1String("-h") ? kOk : kUsage;
    }
    if (verb == QLatin1String("evidence") && sub == QLatin1String("fetch"))
        return evidenceFetch(rest);
    if (verb == QLatin1String("evidence") && sub == QLatin1String("push"))
        return evidencePush(rest);
    if (verb == QLatin1String("bundle") && sub == QLatin1String("push"))
        return bundlePush(rest);
    return usage(QStringLiteral("unknown verb '%1 %2'").arg(verb, sub), verb);
}

} // namespace pb::cli
