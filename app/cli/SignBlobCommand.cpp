// proofbench sign-blob: sign a file offline into a Sigstore bundle
#include "cli/SignSupport.h"

namespace pb::cli {

static int signBlobVerb(const QCommandLineParser& p) {
    if (!p.isSet(QStringLiteral("key")) || !p.isSet(QStringLiteral("bundle")) ||
        p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give --key KEY, --bundle OUT and one FILE"),
                     QStringLiteral("sign-blob"));
    auto key = signingKeyFrom(p);
    if (!key)
        return fail(key.error());
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::SignBlobRequest request{p.positionalArguments().constFirst(), p.value(QStringLiteral("bundle")),
                                 std::move(*key)};
    auto signedBlob = ops::signBlob(ops::Context(**db), request);
    if (!signedBlob)
        return fail(signedBlob.error());
    out() << "signed " << signedBlob->file << " -> " << signedBlob->bundlePath << Qt::endl;
    return kOk;
}

Command signBlobCommand() {
    Command p(
        QStringLiteral("sign-blob"), QStringLiteral("sign a file offline into a Sigstore bundle"),
        QStringLiteral(
            "Sign a file offline: a v0.3 Sigstore bundle with a message signature and the key's hint. "
            "Verify with proofbench verify --key, or cosign verify-blob --key --insecure-ignore-tlog."));
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key (from keygen, or cosign.key)."),
                 QStringLiteral("KEY")});
    p.addOption({QStringLiteral("bundle"), QStringLiteral("Where to write the Sigstore bundle."),
                 QStringLiteral("OUT")});
    p.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The blob to sign."));
    p.require({QStringLiteral("key"), QStringLiteral("bundle")});
    p.handler = signBlobVerb;
    return p;
}

} // namespace pb::cli
