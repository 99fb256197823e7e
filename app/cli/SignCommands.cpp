// Signing verbs: keygen, sign-blob, attest, evidence sign, bundle sign, bundle verify.
#include "cli/Commands.h"
#include "cli/CliUtil.h"

#include "db/Database.h"
#include "ops/Attest.h"
#include "ops/Keygen.h"
#include "ops/SealBundle.h"
#include "ops/SignBlob.h"
#include "ops/SignEvidence.h"
#include "ops/VerifyBundle.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace pb::cli {

namespace {

// The --key file and its passphrase (from the terminal or --passphrase-env); the operation decrypts it.
Result<ops::SigningKey> signingKeyFrom(const QCommandLineParser& p) {
    auto pass = passphraseFrom(p, QStringLiteral("Passphrase for %1: ").arg(p.value(QStringLiteral("key"))), false);
    if (!pass)
        return pass.error();
    return ops::SigningKey{p.value(QStringLiteral("key")), std::move(*pass)};
}

} // namespace




static int keygenVerb(const QCommandLineParser& p) {
    const QString outPath = p.value(QStringLiteral("out"));
    if (outPath.isEmpty())
        return usage(QStringLiteral("--out NAME is required"), QStringLiteral("keygen"));
    auto pass = passphraseFrom(p, QStringLiteral("Passphrase for %1: ").arg(outPath), !p.isSet(QStringLiteral("from")));
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
    out() << "private key: " << made->privatePath << " (encrypted)\npublic key:  " << made->publicPath << "\nfingerprint: "
          << made->fingerprint << Qt::endl;
    return kOk;
}

static int signBlobVerb(const QCommandLineParser& p) {
    if (!p.isSet(QStringLiteral("key")) || !p.isSet(QStringLiteral("bundle")) || p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give --key KEY, --bundle OUT and one FILE"), QStringLiteral("sign-blob"));
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

static int attestVerb(const QCommandLineParser& p) {
    if (!p.isSet(QStringLiteral("key")) || !p.isSet(QStringLiteral("bundle")) || !p.isSet(QStringLiteral("predicate-type")) ||
        !p.isSet(QStringLiteral("predicate")) || p.values(QStringLiteral("subject")).isEmpty())
        return usage(QStringLiteral("give --key, --subject, --predicate-type, --predicate and --bundle"), QStringLiteral("attest"));
    ops::AttestRequest request;
    for (const QString& s : p.values(QStringLiteral("subject"))) {
        auto subject = ops::parseSubject(s);
        if (!subject)
            return usage(QStringLiteral("--subject expects NAME=sha256:<64 hex>, got '%1'").arg(s), QStringLiteral("attest"));
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

static int evidenceSign(const QCommandLineParser& p) {
    if (!p.isSet(QStringLiteral("key")) || p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give --key KEY and one bundle directory"), QStringLiteral("evidence sign"));
    auto key = signingKeyFrom(p);
    if (!key)
        return fail(key.error());
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::SignEvidenceRequest request{p.positionalArguments().constFirst(), p.value(QStringLiteral("evidence-root")),
                                     std::move(*key), p.isSet(QStringLiteral("sign-incomplete"))};
    auto signedEvidence = ops::signEvidence(ops::Context(**db), request);
    if (!signedEvidence)
        return fail(signedEvidence.error());
    const evidence::EvidenceSignature& s = signedEvidence->signature;
    out() << "attestation: " << s.attestationPath << "\npointer:     " << s.pointerPath << "\nsigner:      " << s.signerIdentity << " ("
          << s.signerIssuer << ")" << Qt::endl;
    return kOk;
}

static int bundleSign(const QCommandLineParser& p) {
    if (!p.isSet(QStringLiteral("key")) || p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give --key KEY and one bundle directory"), QStringLiteral("bundle sign"));
    auto key = signingKeyFrom(p);
    if (!key)
        return fail(key.error());
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto sealed = ops::sealBundle(ops::Context(**db), ops::SealBundleRequest{p.positionalArguments().constFirst(),
                                                                             std::move(*key)});
    if (!sealed)
        return fail(sealed.error());
    out() << "signed " << sealed->report.files << " files; checksums.txt sha256:" << sealed->report.checksumsSha256 << "; key "
          << sealed->report.keyFingerprint << Qt::endl;
    return kOk;
}

static int bundleVerify(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give one bundle directory"), QStringLiteral("bundle verify"));
    const auto minLevel = deploy::parseTrustLevel(p.value(QStringLiteral("min-trust-level")));
    if (!minLevel)
        return usage(QStringLiteral("unknown --min-trust-level '%1'").arg(p.value(QStringLiteral("min-trust-level"))), QStringLiteral("bundle verify"));
    auto policy = signerPolicy(p, false);
    if (!policy)
        return policy.error().file.isEmpty() ? usage(policy.error().message, QStringLiteral("bundle verify")) : fail(policy.error());
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
        err() << "proofbench: trust level " << deploy::trustLevelName(v.level) << " is below " << deploy::trustLevelName(*minLevel) << Qt::endl;
        return kFailed;
    }
    return kOk;
}


// ---- declarations ------------------------------------------------------------------------------

Command keygenCommand() {
    Command p(QStringLiteral("keygen"), QStringLiteral("create (or import) an encrypted ECDSA P-256 signing key and its .pub"),
              QStringLiteral("Create (or import) an ECDSA P-256 signing key. The private key is only ever written encrypted "
                                      "(PKCS#8, scrypt + AES-256-CBC; or cosign's scrypt + NaCl secretbox); the database keeps the "
                                      "public key and its fingerprint."));
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("out"), QStringLiteral("Write the encrypted private key to NAME and the public key to NAME.pub."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("from"), QStringLiteral("Import this key instead of generating one: cosign's cosign.key (same passphrase) or "
                                                        "an unencrypted PEM private key."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("cosign"), QStringLiteral("Write the private key in cosign's format (ENCRYPTED SIGSTORE PRIVATE KEY).")});
    p.require({QStringLiteral("out")});
    p.handler = keygenVerb;
    return p;
}

Command signBlobCommand() {
    Command p(QStringLiteral("sign-blob"), QStringLiteral("sign a file offline into a Sigstore bundle"),
              QStringLiteral("Sign a file offline: a v0.3 Sigstore bundle with a message signature and the key's hint. "
                                      "Verify with proofbench verify --key, or cosign verify-blob --key --insecure-ignore-tlog."));
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key (from keygen, or cosign.key)."), QStringLiteral("KEY")});
    p.addOption({QStringLiteral("bundle"), QStringLiteral("Where to write the Sigstore bundle."), QStringLiteral("OUT")});
    p.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The blob to sign."));
    p.require({QStringLiteral("key"), QStringLiteral("bundle")});
    p.handler = signBlobVerb;
    return p;
}

Command attestCommand() {
    Command p(QStringLiteral("attest"), QStringLiteral("sign an in-toto statement (DSSE) offline into a Sigstore bundle"),
              QStringLiteral("Sign an in-toto Statement v1 in a DSSE envelope, offline. Verify with proofbench verify --key "
                                      "--digest, or cosign verify-blob-attestation --key --insecure-ignore-tlog."));
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key."), QStringLiteral("KEY")});
    p.addOption({QStringLiteral("subject"), QStringLiteral("A subject, NAME=sha256:HEX (repeatable)."), QStringLiteral("SUBJECT")});
    p.addOption({QStringLiteral("predicate-type"), QStringLiteral("The predicate type URI."), QStringLiteral("URI")});
    p.addOption({QStringLiteral("predicate"), QStringLiteral("The predicate, a JSON object file."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("bundle"), QStringLiteral("Where to write the Sigstore bundle."), QStringLiteral("OUT")});
    p.require({QStringLiteral("key"), QStringLiteral("subject"), QStringLiteral("predicate-type"), QStringLiteral("predicate"), QStringLiteral("bundle")});
    p.handler = attestVerb;
    return p;
}

Command evidenceSignCommand() {
    Command p(QStringLiteral("evidence sign"), QStringLiteral("sign an evidence bundle and write its pointer"),
              QStringLiteral("Sign an evidence bundle: attestation.intoto.jsonl over its statement, and an evidence pointer "
                                      "in AICR's layout. A bundle that fails its integrity checks is refused, and so is an "
                                      "incomplete one unless --sign-incomplete is given."));
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key."), QStringLiteral("KEY")});
    p.addOption({QStringLiteral("evidence-root"), QStringLiteral("The recipes/evidence directory for the pointer (default: the bundle's "
                                                                 "parent)."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("sign-incomplete"),
                 QStringLiteral("Sign a bundle even though some of its checks could not run or finish (it stays marked incomplete).")});
    p.addPositionalArgument(QStringLiteral("SUMMARY_BUNDLE_DIR"), QStringLiteral("A summary-bundle directory (or its parent)."));
    p.require({QStringLiteral("key")});
    p.handler = evidenceSign;
    return p;
}

Command bundleSignCommand() {
    Command p(QStringLiteral("bundle sign"), QStringLiteral("seal a deployment bundle: checksums.txt and an SLSA provenance attestation"),
              QStringLiteral("Seal a deployment bundle: checksums.txt (sha256sum format, every file) and "
                                      "attestation/bundle-attestation.sigstore.json (SLSA provenance v1 over checksums.txt)."));
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key."), QStringLiteral("KEY")});
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("The deployment bundle (aicr bundle output)."));
    p.require({QStringLiteral("key")});
    p.handler = bundleSign;
    return p;
}

Command bundleVerifyCommand() {
    Command p(QStringLiteral("bundle verify"), QStringLiteral("verify a deployment bundle offline and print its trust level"),
              QStringLiteral("Verify a deployment bundle offline, as aicr verify does: the closed-world inventory, the "
                                      "bundle attestation, the aicr binary attestation; prints the trust level."));
    addDb(p);
    addSignerOptions(p);
    p.addOption({QStringLiteral("min-trust-level"), QStringLiteral("Fail below this level: max|verified|attested|unverified|unknown "
                                                                   "(default unverified)."), QStringLiteral("LEVEL"), QStringLiteral("unverified")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("The deployment bundle."));
    p.handler = bundleVerify;
    return p;
}

} // namespace pb::cli
