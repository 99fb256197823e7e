// proofbench bundle push: publish a deployment bundle to a registry
#include "cli/OciSupport.h"

namespace pb::cli {

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
        out() << "pushed " << pushed->reference.toString() << " (" << pushed->bytesPushed << " bytes in "
              << pushed->blobsPushed << " new blobs, " << pushed->blobsExisting << " already there)\n";
    return kOk;
}

Command bundlePushCommand() {
    Command p(
        QStringLiteral("bundle push"), QStringLiteral("publish a deployment bundle to a registry"),
        QStringLiteral("Publish a deployment bundle as one tar+gzip layer, as aicr bundle -o oci:// does."));
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("to"),
                 QStringLiteral("Destination reference registry/repository:tag (oci:// accepted)."),
                 QStringLiteral("REF")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("A deployment bundle directory."));
    p.require({QStringLiteral("to")});
    p.handler = bundlePush;
    return p;
}

} // namespace pb::cli
