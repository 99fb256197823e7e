// proofbench oci pull: pull an artifact (by digest) and its blobs into an OCI image layout
#include "cli/OciSupport.h"

namespace pb::cli {

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
              << "  " << pulled->manifest.mediaType
              << (pulled->manifest.artifactType.isEmpty()
                      ? QString()
                      : QStringLiteral(" (") + pulled->manifest.artifactType + QLatin1Char(')'))
              << '\n'
              << "  blobs fetched " << pulled->blobsFetched << " (" << pulled->bytesFetched
              << " bytes), already cached " << pulled->blobsCached << ", referrers "
              << pulled->referrers.size() << '\n';
    }
    return kOk;
}

Command ociPullCommand() {
    Command p(QStringLiteral("oci pull"),
              QStringLiteral("pull an artifact (by digest) and its blobs into an OCI image layout"),
              QStringLiteral(
                  "Pull a manifest (or index) and its blobs into an OCI image layout; digests and sizes are "
                  "verified while streaming."));
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("to"),
                 QStringLiteral("OCI image layout directory to pull into (created when absent)."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("allow-unpinned-tag"),
                 QStringLiteral("Accept a tag-only reference to an evidence artifact.")});
    p.addOption({QStringLiteral("referrers"),
                 QStringLiteral("Also pull every referrer (signatures) of the manifest.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("REF"), QStringLiteral("registry/repository[:tag][@sha256:...]"));
    p.require({QStringLiteral("to")});
    p.handler = ociPull;
    return p;
}

} // namespace pb::cli
