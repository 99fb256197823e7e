// proofbench bundle sign: seal a deployment bundle: checksums.txt and an SLSA provenance attestation
#include "bundle/TreeDigest.h"
#include "cli/SignSupport.h"

namespace pb::cli {

static int bundleSign(const QCommandLineParser& p) {
    if (!p.isSet(QStringLiteral("key")) || p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give --key KEY and one bundle directory"),
                     QStringLiteral("bundle sign"));
    auto key = signingKeyFrom(p);
    if (!key)
        return fail(key.error());
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto sealed = ops::sealBundle(
        ops::Context(**db), ops::SealBundleRequest{p.positionalArguments().constFirst(), std::move(*key)});
    if (!sealed)
        return fail(sealed.error());
    out() << "signed " << sealed->report.files
          << " files; checksums.txt sha256:" << sealed->report.checksumsSha256 << "; key "
          << sealed->report.keyFingerprint << "; " << pb::bundle::treeDigestText(sealed->report.treeDigest)
          << Qt::endl;
    return kOk;
}

Command bundleSignCommand() {
    Command p(QStringLiteral("bundle sign"),
              QStringLiteral("seal a deployment bundle: checksums.txt and an SLSA provenance attestation"),
              QStringLiteral(
                  "Seal a deployment bundle: checksums.txt (sha256sum format, every file) and "
                  "attestation/bundle-attestation.sigstore.json (SLSA provenance v1 over checksums.txt)."));
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key."), QStringLiteral("KEY")});
    p.addPositionalArgument(QStringLiteral("DIR"),
                            QStringLiteral("The deployment bundle (aicr bundle output)."));
    p.require({QStringLiteral("key")});
    p.handler = bundleSign;
    return p;
}

} // namespace pb::cli
