// proofbench release verify: verify an AICR release offline: its Sigstore bundles, checksum list, assets and
// recipe catalog
#include "cli/CliUtil.h"
#include "cli/Commands.h"

#include "ops/ReleaseVerify.h"

#include <QCommandLineParser>

namespace pb::cli {

static int releaseVerify(const QCommandLineParser& p) {
    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return usage(QStringLiteral("unknown --format '%1' (expected text or json)").arg(format),
                     QStringLiteral("release verify"));
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one release folder"), QStringLiteral("release verify"));
    if (!p.isSet(QStringLiteral("version")))
        return usage(QStringLiteral("--version vX.Y.Z is required (it pins the signer identity)"),
                     QStringLiteral("release verify"));
    if (auto v = release::normalizeVersion(p.value(QStringLiteral("version"))); !v)
        return usage(v.error().message, QStringLiteral("release verify"));
    if (p.isSet(QStringLiteral("certificate-identity")) &&
        p.isSet(QStringLiteral("certificate-identity-regexp")))
        return usage(
            QStringLiteral("give at most one of --certificate-identity and --certificate-identity-regexp"),
            QStringLiteral("release verify"));
    if (p.isSet(QStringLiteral("certificate-oidc-issuer")) &&
        p.isSet(QStringLiteral("certificate-oidc-issuer-regexp")))
        return usage(
            QStringLiteral(
                "give at most one of --certificate-oidc-issuer and --certificate-oidc-issuer-regexp"),
            QStringLiteral("release verify"));
    if (p.isSet(QStringLiteral("catalog")) && p.isSet(QStringLiteral("catalog-version")))
        return usage(QStringLiteral("give at most one of --catalog DIR and --catalog-version LABEL"),
                     QStringLiteral("release verify"));

    ops::ReleaseVerifyRequest request;
    request.dir = p.positionalArguments().constFirst();
    request.version = p.value(QStringLiteral("version"));
    request.trustedRootPath = p.value(QStringLiteral("trusted-root"));
    request.catalogVersion = p.value(QStringLiteral("catalog-version"));
    request.catalogDir = p.value(QStringLiteral("catalog"));
    request.identity = p.value(QStringLiteral("certificate-identity"));
    request.identityRegexp = p.value(QStringLiteral("certificate-identity-regexp"));
    request.issuer = p.value(QStringLiteral("certificate-oidc-issuer"));
    request.issuerRegexp = p.value(QStringLiteral("certificate-oidc-issuer-regexp"));
    request.keepSignature = !p.isSet(QStringLiteral("no-keep"));

    Result<std::unique_ptr<db::Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    auto done = ops::verifyRelease(ops::Context(**db), request);
    if (!done)
        return fail(done.error());
    if (format == QLatin1String("json"))
        printJson(done->toJson());
    else
        out() << done->toText();
    out().flush();
    if (!done->ok())
        err() << "proofbench: release not verified: " << done->summary() << Qt::endl;
    return done->ok() ? kOk : kFailed;
}

Command releaseVerifyCommand() {
    Command p(
        QStringLiteral("release verify"),
        QStringLiteral(
            "verify an AICR release offline: its Sigstore bundles, checksum list, assets and recipe catalog"),
        QStringLiteral(
            "Verify an AICR release offline: each Sigstore bundle with the signer pinned to NVIDIA's tag "
            "workflow, the checksum list, the assets present (the aicr binary inside each tarball against "
            "its provenance) and the recipe catalog's registry and validator catalog. Each asset is "
            "verified, digest only (absent) or failed. Exit 0 when none failed."));
    addDb(p);
    p.addOption({QStringLiteral("version"),
                 QStringLiteral("The release, vX.Y.Z: pins the signer to NVIDIA's tag workflow at that tag."),
                 QStringLiteral("vX.Y.Z")});
    p.addOption({QStringLiteral("trusted-root"),
                 QStringLiteral("Sigstore trusted_root.json (default: the database's default root)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("catalog-version"),
                 QStringLiteral("Compare the recipe-catalog signature with this imported catalog version "
                                "(default: registry.yaml and "
                                "validators/catalog.yaml in DIR or DIR/recipes, when present)."),
                 QStringLiteral("LABEL")});
    p.addOption({QStringLiteral("catalog"),
                 QStringLiteral("Compare the recipe-catalog signature with this catalog folder instead."),
                 QStringLiteral("DIR")});
    p.addOption(
        {QStringLiteral("certificate-identity"),
         QStringLiteral("Exact signer identity (default: "
                        "https://github.com/NVIDIA/aicr/.github/workflows/on-tag.yaml@refs/tags/VERSION)."),
         QStringLiteral("ID")});
    p.addOption({QStringLiteral("certificate-identity-regexp"),
                 QStringLiteral("Signer identity regular expression (unanchored, as cosign)."),
                 QStringLiteral("RE")});
    p.addOption({QStringLiteral("certificate-oidc-issuer"),
                 QStringLiteral("Exact OIDC issuer (default: https://token.actions.githubusercontent.com)."),
                 QStringLiteral("URL")});
    p.addOption({QStringLiteral("certificate-oidc-issuer-regexp"),
                 QStringLiteral("OIDC issuer regular expression."), QStringLiteral("RE")});
    p.addOption(
        {QStringLiteral("no-keep"), QStringLiteral("Do not keep a verified recipe-catalog signature in the "
                                                   "database (and bind no catalog version).")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(
        QStringLiteral("DIR"),
        QStringLiteral(
            "The folder of release assets (aicr_checksums.txt, *.sigstore.json, tarballs, SBOMs)."));
    p.require({QStringLiteral("version")});
    p.handler = releaseVerify;
    return p;
}

} // namespace pb::cli
