// proofbench evidence fetch: pull the bundles evidence pointers pin, with their signatures, and check them
#include "cli/OciSupport.h"

namespace pb::cli {

static constexpr int kNoVerdict = 3; // an error before any bundle was checked

static int evidenceFetch(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected one pointer file or directory"),
                     QStringLiteral("evidence fetch"));
    const QString input = p.positionalArguments().constFirst();
    std::vector<evidence::Pointer> pointers;
    if (QFileInfo(input).isDir()) {
        Result<evidence::EvidenceTree> tree =
            evidence::scanEvidence(input, p.value(QStringLiteral("allowlist")));
        if (!tree)
            return fail(tree.error()), kNoVerdict;
        pointers = tree->pointers;
    } else {
        Result<QByteArray> bytes = readFileLimited(input, limits::kSmallFile, QStringLiteral("the pointer"));
        if (!bytes)
            return fail(bytes.error()), kNoVerdict;
        pointers.push_back(evidence::parsePointer(*bytes, QFileInfo(input).fileName()));
        pointers.back().file = input;
    }
    Result<oci::ClientOptions> opts = registryOptions(p);
    if (!opts)
        return fail(opts.error()), kNoVerdict;
    ops::FetchEvidenceRequest req;
    req.pointers = std::move(pointers);
    req.cacheDir =
        p.isSet(QStringLiteral("cache")) ? p.value(QStringLiteral("cache")) : oci::Layout::defaultCacheDir();
    req.client = *opts;
    auto db = openDb(p);
    if (!db)
        return fail(db.error()), kNoVerdict;
    // --trusted-root or --key; without them the operation checks against the database's default root.
    std::optional<sigstore::TrustedRoot> root;
    if (p.isSet(QStringLiteral("trusted-root")) || p.isSet(QStringLiteral("key"))) {
        const ops::SignatureSource source{p.value(QStringLiteral("trusted-root")),
                                          p.value(QStringLiteral("key")),
                                          p.isSet(QStringLiteral("insecure-ignore-tlog"))};
        Result<evidence::SignatureCheck> signature = ops::signatureCheck(ops::Context(**db), source, root);
        if (!signature)
            return fail(signature.error()), kNoVerdict;
        req.signature = *signature;
    }
    Result<ops::FetchEvidenceOutcome> fetched = ops::fetchEvidence(ops::Context(**db), req);
    if (!fetched)
        return fail(fetched.error()), kNoVerdict;
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
                  << (b.fetch->signaturePulled ? QStringLiteral(" (with its signature)")
                                               : QStringLiteral(" (unsigned)"))
                  << '\n'
                  << b.check->toText() << '\n';
    }
    if (json)
        printJson(
            QJsonObject{{QStringLiteral("results"), results}, {QStringLiteral("exit"), fetched->worst}});
    out().flush();
    return fetched->worst;
}

Command evidenceFetchCommand() {
    Command p(QStringLiteral("evidence fetch"),
              QStringLiteral("pull the bundles evidence pointers pin, with their signatures, and check them"),
              QStringLiteral(
                  "Pull the bundle every pointer pins (by digest) and its Sigstore referrer into the cache, "
                  "then check it offline. Exit 0 when every bundle is valid."));
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("cache"),
                 QStringLiteral("Cache directory (default: %1).").arg(oci::Layout::defaultCacheDir()),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("allowlist"),
                 QStringLiteral("Signer allowlist (for a directory; default: the tree's own)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("trusted-root"),
                 QStringLiteral("Sigstore trusted_root.json for keyless signatures."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("key"),
                 QStringLiteral("Public key (PEM) the attestations must be signed with."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("insecure-ignore-tlog"),
                 QStringLiteral("With --key: accept an attestation without a log entry.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("POINTER_OR_DIR"),
                            QStringLiteral("An evidence pointer file, or a recipes/evidence directory."));
    p.handler = evidenceFetch;
    p.exitCodes = evidenceVerdictExitCodes();
    p.exitCodesSource = QStringLiteral("the worst verdict of aicr evidence verify over the bundles");
    return p;
}

} // namespace pb::cli
