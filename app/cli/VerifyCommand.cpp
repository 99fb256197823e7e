// proofbench verify: verify a Sigstore bundle offline (cosign's flags), or a MANIFEST.tsv with --batch
#include "cli/VerifySupport.h"

namespace pb::cli {

static int verifyVerb(const QCommandLineParser& p) {
    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return usage(QStringLiteral("unknown --format '%1' (expected text or json)").arg(format),
                     QStringLiteral("verify"));

    // Flags to a request (usage errors: exit 2) before anything is opened.
    ops::VerifyRequest request;
    const bool importing = p.isSet(QStringLiteral("import-trusted-root")),
               batch = p.isSet(QStringLiteral("batch"));
    if (!importing && !batch) {
        if (!p.isSet(QStringLiteral("bundle")))
            return usage(QStringLiteral("--bundle FILE is required"), QStringLiteral("verify"));
        request.bundlePath = p.value(QStringLiteral("bundle"));
        request.artifactPath = p.value(QStringLiteral("artifact"));
        if (request.artifactPath.isEmpty() && !p.positionalArguments().isEmpty())
            request.artifactPath = p.positionalArguments().constFirst();
        if (request.artifactPath.isEmpty() == !p.isSet(QStringLiteral("digest")))
            return usage(QStringLiteral("give exactly one of --artifact FILE and --digest sha256:HEX"),
                         QStringLiteral("verify"));
        auto policy = signerPolicy(p, true);
        if (!policy)
            return policy.error().file.isEmpty() ? usage(policy.error().message, QStringLiteral("verify"))
                                                 : fail(policy.error());
        request.policy = *policy;
        if (p.isSet(QStringLiteral("digest"))) {
            request.artifactDigest = p.value(QStringLiteral("digest"));
            if (auto d = sigstore::Artifact::fromDigest(request.artifactDigest); !d)
                return usage(d.error().toString(), QStringLiteral("verify"));
        }
        request.trustedRootPath = p.value(QStringLiteral("trusted-root"));
        request.record = p.isSet(QStringLiteral("record"));
    }

    auto db = openDbAsIs(p);
    if (!db)
        return fail(db.error());
    const ops::Context ctx(**db);

    if (importing) {
        auto id = ops::importTrustedRoot(ctx, p.value(QStringLiteral("import-trusted-root")));
        if (!id)
            return fail(id.error());
        out() << "trusted root " << p.value(QStringLiteral("import-trusted-root"))
              << " stored as the default\n";
        return kOk;
    }
    if (batch) {
        auto done = ops::verifyBatch(ctx, ops::VerifyBatchRequest{p.value(QStringLiteral("batch")),
                                                                  p.value(QStringLiteral("trusted-root")),
                                                                  p.isSet(QStringLiteral("use-digest"))});
        if (!done)
            return fail(done.error());
        return printBatch(*done, format == QLatin1String("json"));
    }

    auto done = ops::verify(ctx, request);
    if (!done)
        return fail(done.error());
    const sigstore::VerificationResult& r = done->result;
    if (format == QLatin1String("json"))
        printJson(r.toJson());
    else
        out() << r.toText();
    out().flush();
    if (!r.verified)
        err() << "proofbench: not verified: " << r.summary() << Qt::endl;
    return r.verified ? kOk : kFailed;
}

Command verifyCommand() {
    Command p(
        QStringLiteral("verify"),
        QStringLiteral("verify a Sigstore bundle offline (cosign's flags), or a MANIFEST.tsv with --batch"),
        QStringLiteral(
            "Verify a Sigstore bundle offline, every step shown: transparency log, timestamps, "
            "certificate chain at the signing time, SCT, signature, artifact, identity. Exit 0 only "
            "when verified."));
    addDb(p);
    p.addOption({QStringLiteral("bundle"),
                 QStringLiteral("Sigstore bundle (.sigstore.json, attestation.intoto.jsonl)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("artifact"),
                 QStringLiteral("The signed artifact (or the statement's subject)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("digest"),
                 QStringLiteral("The artifact's digest instead of the artifact: sha256:HEX."),
                 QStringLiteral("DIGEST")});
    addSignerOptions(p);
    p.addOption({QStringLiteral("import-trusted-root"),
                 QStringLiteral("Store FILE in the database as the default trusted root, then exit."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("batch"),
                 QStringLiteral(
                     "Verify every case of a MANIFEST.tsv (cases/<case>/ beside it); one verdict per line."),
                 QStringLiteral("MANIFEST")});
    p.addOption({QStringLiteral("use-digest"),
                 QStringLiteral(
                     "With --batch: verify against the manifest's artifact_digest, not the artifact file.")});
    p.addOption(
        {QStringLiteral("record"), QStringLiteral("Store the result in the database (as the app does).")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("ARTIFACT"),
                            QStringLiteral("The artifact, as cosign takes it (same as --artifact)."),
                            QStringLiteral("[ARTIFACT]"));
    p.handler = verifyVerb;
    return p;
}

} // namespace pb::cli
