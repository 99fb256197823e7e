// proofbench keygen: create (or import) an encrypted ECDSA P-256 signing key and its .pub
#include "cli/SignSupport.h"

namespace pb::cli {

static int keygenVerb(const QCommandLineParser& p) {
    const QString outPath = p.value(QStringLiteral("out"));
    if (outPath.isEmpty())
        return usage(QStringLiteral("--out NAME is required"), QStringLiteral("keygen"));
    auto pass = passphraseFrom(p, QStringLiteral("Passphrase for %1: ").arg(outPath),
                               !p.isSet(QStringLiteral("from")));
    if (!pass)
        return fail(pass.error());
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::KeygenRequest request;
    request.outPath = outPath;
    request.importFrom = p.value(QStringLiteral("from"));
    request.cosignFormat = p.isSet(QStringLiteral("cosign"));
    request.passphrase = std::move(*pass);
    auto made = ops::keygen(ops::Context(**db), request);
    if (!made)
        return fail(made.error());
    out() << "private key: " << made->privatePath << " (encrypted)\npublic key:  " << made->publicPath
          << "\nfingerprint: " << made->fingerprint << Qt::endl;
    return kOk;
}

Command keygenCommand() {
    Command p(
        QStringLiteral("keygen"),
        QStringLiteral("create (or import) an encrypted ECDSA P-256 signing key and its .pub"),
        QStringLiteral(
            "Create (or import) an ECDSA P-256 signing key. The private key is only ever written encrypted "
            "(PKCS#8, scrypt + AES-256-CBC; or cosign's scrypt + NaCl secretbox); the database keeps the "
            "public key and its fingerprint."));
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("out"),
                 QStringLiteral("Write the encrypted private key to NAME and the public key to NAME.pub."),
                 QStringLiteral("NAME")});
    p.addOption(
        {QStringLiteral("from"),
         QStringLiteral("Import this key instead of generating one: cosign's cosign.key (same passphrase) or "
                        "an unencrypted PEM private key."),
         QStringLiteral("FILE")});
    p.addOption(
        {QStringLiteral("cosign"),
         QStringLiteral("Write the private key in cosign's format (ENCRYPTED SIGSTORE PRIVATE KEY).")});
    p.require({QStringLiteral("out")});
    p.handler = keygenVerb;
    return p;
}

} // namespace pb::cli
