// proofbench attest: sign an in-toto statement (DSSE) offline into a Sigstore bundle
#include "cli/SignSupport.h"

namespace pb::cli {

static int attestVerb(const QCommandLineParser& p) {
    if (!p.isSet(QStringLiteral("key")) || !p.isSet(QStringLiteral("bundle")) ||
        !p.isSet(QStringLiteral("predicate-type")) || !p.isSet(QStringLiteral("predicate")) ||
        p.values(QStringLiteral("subject")).isEmpty())
        return usage(QStringLiteral("give --key, --subject, --predicate-type, --predicate and --bundle"),
                     QStringLiteral("attest"));
    ops::AttestRequest request;
    for (const QString& s : p.values(QStringLiteral("subject"))) {
        auto subject = ops::parseSubject(s);
        if (!subject)
            return usage(QStringLiteral("--subject expects NAME=sha256:<64 hex>, got '%1'").arg(s),
                         QStringLiteral("attest"));
        request.subjects << *subject;
    }
    request.predicateType = p.value(QStringLiteral("predicate-type"));
    request.predicateFile = p.value(QStringLiteral("predicate"));
    request.bundlePath = p.value(QStringLiteral("bundle"));
    auto key = signingKeyFrom(p);
    if (!key)
        return fail(key.error());
    request.key = std::move(*key);
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto attested = ops::attest(ops::Context(**db), request);
    if (!attested)
        return fail(attested.error());
    out() << "attested " << attested->subjects << " subject(s) -> " << attested->bundlePath << Qt::endl;
    return kOk;
}

Command attestCommand() {
    Command p(
        QStringLiteral("attest"),
        QStringLiteral("sign an in-toto statement (DSSE) offline into a Sigstore bundle"),
        QStringLiteral(
            "Sign an in-toto Statement v1 in a DSSE envelope, offline. Verify with proofbench verify --key "
            "--digest, or cosign verify-blob-attestation --key --insecure-ignore-tlog."));
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key."), QStringLiteral("KEY")});
    p.addOption({QStringLiteral("subject"), QStringLiteral("A subject, NAME=sha256:HEX (repeatable)."),
                 QStringLiteral("SUBJECT")});
    p.addOption(
        {QStringLiteral("predicate-type"), QStringLiteral("The predicate type URI."), QStringLiteral("URI")});
    p.addOption({QStringLiteral("predicate"), QStringLiteral("The predicate, a JSON object file."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("bundle"), QStringLiteral("Where to write the Sigstore bundle."),
                 QStringLiteral("OUT")});
    p.require({QStringLiteral("key"), QStringLiteral("subject"), QStringLiteral("predicate-type"),
               QStringLiteral("predicate"), QStringLiteral("bundle")});
    p.handler = attestVerb;
    return p;
}

} // namespace pb::cli
