// proofbench evidence push: publish an evidence bundle to a registry and write its pointer
#include "cli/OciSupport.h"

namespace pb::cli {

static int evidencePush(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one bundle directory"),
                     QStringLiteral("evidence push"));
    if (!p.isSet(QStringLiteral("to")))
        return usage(QStringLiteral("--to REF is required"), QStringLiteral("evidence push"));
    Result<oci::Reference> to = referenceArg(p.value(QStringLiteral("to")), QStringLiteral("--to"));
    if (!to)
        return fail(to.error());
    if (to->isPinned())
        return usage(QStringLiteral("--to names a tag, not a digest (the digest is the result)"),
                     QStringLiteral("evidence push"));
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
              << "  signature referrer: "
              << (pushed->signatureDigest.isEmpty() ? QStringLiteral("none (unsigned: pending signature)")
                                                    : pushed->signatureDigest)
              << '\n'
              << "  pointer: " << pushed->pointerPath << '\n';
    return kOk;
}

Command evidencePushCommand() {
    Command p(QStringLiteral("evidence push"),
              QStringLiteral("publish an evidence bundle to a registry and write its pointer"),
              QStringLiteral(
                  "Publish an evidence bundle as AICR does (one tar+gzip layer, artifactType "
                  "application/vnd.nvidia.aicr.artifact, the Sigstore bundle as a referrer) and write the "
                  "pointer pinned to the manifest digest."));
    addDb(p);
    addRegistryOptions(p);
    p.addOption({QStringLiteral("to"), QStringLiteral("Destination reference registry/repository:tag."),
                 QStringLiteral("REF")});
    p.addOption({QStringLiteral("key"),
                 QStringLiteral("Private key (PEM) to sign the bundle with before publishing."),
                 QStringLiteral("KEY")});
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("sign-incomplete"),
                 QStringLiteral("With --key: sign even though some checks could not run or finish (it stays "
                                "marked incomplete).")});
    p.addOption(
        {QStringLiteral("pointer-dir"),
         QStringLiteral(
             "recipes/evidence directory the pointer goes to (default: the bundle directory's parent)."),
         QStringLiteral("DIR")});
    p.addOption({QStringLiteral("staging"),
                 QStringLiteral("Keep the staged OCI layout here (default: in the cache)."),
                 QStringLiteral("DIR")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("SUMMARY_BUNDLE_DIR"),
                            QStringLiteral("A summary-bundle directory or its parent."));
    p.require({QStringLiteral("to")});
    p.handler = evidencePush;
    return p;
}

} // namespace pb::cli
