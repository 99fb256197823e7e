// proofbench bundle verify: verify a deployment bundle offline and print its trust level
#include "cli/SignSupport.h"

namespace pb::cli {

static int bundleVerify(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give one bundle directory"), QStringLiteral("bundle verify"));
    const auto minLevel = deploy::parseTrustLevel(p.value(QStringLiteral("min-trust-level")));
    if (!minLevel)
        return usage(
            QStringLiteral("unknown --min-trust-level '%1'").arg(p.value(QStringLiteral("min-trust-level"))),
            QStringLiteral("bundle verify"));
    auto policy = signerPolicy(p, false);
    if (!policy)
        return policy.error().file.isEmpty() ? usage(policy.error().message, QStringLiteral("bundle verify"))
                                             : fail(policy.error());
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::VerifyBundleRequest request;
    request.dir = p.positionalArguments().constFirst();
    request.policy = *policy;
    request.trustedRootFile = p.value(QStringLiteral("trusted-root"));
    request.minLevel = *minLevel;
    auto verified = ops::verifyBundle(ops::Context(**db), request);
    if (!verified)
        return fail(verified.error());
    const deploy::DeploymentVerification& v = verified->verification;
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printJson(v.toJson());
    else
        out() << v.toText();
    out().flush();
    if (!verified->passed) {
        err() << "proofbench: trust level " << deploy::trustLevelName(v.level) << " is below "
              << deploy::trustLevelName(*minLevel) << Qt::endl;
        return kFailed;
    }
    return kOk;
}

Command bundleVerifyCommand() {
    Command p(QStringLiteral("bundle verify"),
              QStringLiteral("verify a deployment bundle offline and print its trust level"),
              QStringLiteral(
                  "Verify a deployment bundle offline, as aicr verify does: the closed-world inventory, the "
                  "bundle attestation, the aicr binary attestation; prints the trust level."));
    addDb(p);
    addSignerOptions(p);
    p.addOption({QStringLiteral("min-trust-level"),
                 QStringLiteral("Fail below this level: max|verified|attested|unverified|unknown "
                                "(default unverified)."),
                 QStringLiteral("LEVEL"), QStringLiteral("unverified")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("The deployment bundle."));
    p.handler = bundleVerify;
    return p;
}

} // namespace pb::cli
