// proofbench evidence sign: sign an evidence bundle and write its pointer
#include "cli/SignSupport.h"

namespace pb::cli {

static int evidenceSign(const QCommandLineParser& p) {
    if (!p.isSet(QStringLiteral("key")) || p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give --key KEY and one bundle directory"),
                     QStringLiteral("evidence sign"));
    auto key = signingKeyFrom(p);
    if (!key)
        return fail(key.error());
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::SignEvidenceRequest request{p.positionalArguments().constFirst(),
                                     p.value(QStringLiteral("evidence-root")), std::move(*key),
                                     p.isSet(QStringLiteral("sign-incomplete"))};
    auto signedEvidence = ops::signEvidence(ops::Context(**db), request);
    if (!signedEvidence)
        return fail(signedEvidence.error());
    const evidence::EvidenceSignature& s = signedEvidence->signature;
    out() << "attestation: " << s.attestationPath << "\npointer:     " << s.pointerPath
          << "\nsigner:      " << s.signerIdentity << " (" << s.signerIssuer << ")" << Qt::endl;
    return kOk;
}

Command evidenceSignCommand() {
    Command p(
        QStringLiteral("evidence sign"), QStringLiteral("sign an evidence bundle and write its pointer"),
        QStringLiteral(
            "Sign an evidence bundle: attestation.intoto.jsonl over its statement, and an evidence pointer "
            "in AICR's layout. A bundle that fails its integrity checks is refused, and so is an "
            "incomplete one unless --sign-incomplete is given."));
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key."), QStringLiteral("KEY")});
    p.addOption({QStringLiteral("evidence-root"),
                 QStringLiteral("The recipes/evidence directory for the pointer (default: the bundle's "
                                "parent)."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("sign-incomplete"),
                 QStringLiteral("Sign a bundle even though some of its checks could not run or finish (it "
                                "stays marked incomplete).")});
    p.addPositionalArgument(QStringLiteral("SUMMARY_BUNDLE_DIR"),
                            QStringLiteral("A summary-bundle directory (or its parent)."));
    p.require({QStringLiteral("key")});
    p.handler = evidenceSign;
    return p;
}

} // namespace pb::cli
