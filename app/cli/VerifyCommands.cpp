// verify: one Sigstore bundle offline, or every case of a MANIFEST.tsv with --batch.
#include "cli/Commands.h"
#include "CliUtil.h"

#include "db/Database.h"
#include "receipts/Ledger.h"
#include "sigstore/Verify.h"
#include "store/VerificationStore.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace pb::cli {

using namespace pb::catalog;
using namespace pb::store;


namespace {

// ---- verify -------------------------------------------------------------------------------------

// The trusted root: --trusted-root FILE, else the database's default (imported in the app or by
// `proofbench verify --import-trusted-root`).
Result<sigstore::TrustedRoot> trustedRootFrom(const QCommandLineParser& p) {
    if (p.isSet(QStringLiteral("trusted-root")))
        return sigstore::loadTrustedRoot(p.value(QStringLiteral("trusted-root")));
    auto db = Database::open(dbPath(p));
    if (!db)
        return db.error();
    auto root = VerificationStore(**db).defaultTrustedRoot();
    if (!root)
        return root.error();
    if (!*root)
        return makeError(QStringLiteral("no trusted root: give --trusted-root FILE (Sigstore's trusted_root.json), or import "
                                        "one with --import-trusted-root"),
                         dbPath(p));
    return std::move(**root);
}

int verifyBatch(const QCommandLineParser& p) {
    const QString manifest = p.value(QStringLiteral("batch"));
    auto text = readFile(manifest);
    if (!text)
        return fail(text.error());
    std::optional<sigstore::TrustedRoot> common;
    if (p.isSet(QStringLiteral("trusted-root"))) {
        auto r = sigstore::loadTrustedRoot(p.value(QStringLiteral("trusted-root")));
        if (!r)
            return fail(r.error());
        common = std::move(*r);
    }
    const QDir base = QFileInfo(manifest).dir();
    const bool useDigest = p.isSet(QStringLiteral("use-digest"));
    const QList<QByteArray> lines = text->split('\n');
    int total = 0, verified = 0, asExpected = 0, errors = 0;
    QJsonArray json;
    const bool asJson = p.value(QStringLiteral("format")) == QLatin1String("json");
    for (int i = 1; i < lines.size(); ++i) {
        if (lines.at(i).trimmed().isEmpty())
            continue;
        const QStringList c = QString::fromUtf8(lines.at(i)).split(QLatin1Char('\t'));
        if (c.size() < 7) {
            err() << manifest << ":" << (i + 1) << ": expected at least 7 tab-separated columns, found " << c.size() << Qt::endl;
            ++errors;
            continue;
        }
        const QString name = c.at(0), expected = c.at(1), mode = c.at(2);
        const QDir dir(base.filePath(QStringLiteral("cases/") + name));
        ++total;
        sigstore::Policy policy;
        if (mode == QLatin1String("key")) {
            auto key = readFile(dir.filePath(QStringLiteral("key.pub")));
            policy.publicKeyPem = key ? *key : QByteArray();
        } else {
            policy.identity = c.at(3);
            policy.issuer = c.at(4);
        }
        std::optional<sigstore::TrustedRoot> own;
        if (!common) {
            auto r = sigstore::loadTrustedRoot(dir.filePath(QStringLiteral("trusted_root.json")));
            if (r)
                own = std::move(*r);
        }
        sigstore::VerificationResult r;
        const QString bundlePath = dir.filePath(QStringLiteral("bundle.sigstore.json"));
        const sigstore::TrustedRoot* root = common ? &*common : own ? &*own : nullptr;
        auto artifactBytes = readFile(dir.filePath(QStringLiteral("artifact")));
        auto bundleBytes = readFile(bundlePath);
        if (!root || !bundleBytes || (!useDigest && !artifactBytes)) {
            r.bundleFile = bundlePath;
            r.steps.push_back({QStringLiteral("inputs"), sigstore::StepState::Failed,
                               !root ? QStringLiteral("no readable trusted root")
                               : !bundleBytes ? bundleBytes.error().toString()
                                              : artifactBytes.error().toString(),
                               {}, {}});
        } else {
            sigstore::Artifact artifact;
            if (useDigest) {
                auto d = sigstore::Artifact::fromDigest(c.at(6));
                if (!d) {
                    err() << manifest << ":" << (i + 1) << ": artifact_digest: " << d.error().message << Qt::endl;
                    ++errors;
                    continue;
                }
                artifact = *d;
            } else {
                artifact = sigstore::Artifact::fromBytes(*artifactBytes);
            }
            r = sigstore::verifyBundle(*bundleBytes, bundlePath, artifact, *root, policy);
        }
        const QString verdict = r.verified ? QStringLiteral("PASS") : QStringLiteral("FAIL");
        verified += r.verified;
        const bool ok = expected.isEmpty() || verdict == expected;
        asExpected += ok;
        if (asJson) {
            QJsonObject o = r.toJson();
            o.insert(QStringLiteral("case"), name);
            o.insert(QStringLiteral("expected"), expected);
            o.insert(QStringLiteral("asExpected"), ok);
            o.remove(QStringLiteral("statement"));
            json.append(o);
        } else {
            out() << verdict << '\t' << name << '\t' << (ok ? "as expected" : "UNEXPECTED") << '\t' << r.summary() << '\n';
        }
    }
    if (asJson)
        printJson(QJsonObject{{QStringLiteral("cases"), json},
                              {QStringLiteral("total"), total},
                              {QStringLiteral("verified"), verified},
                              {QStringLiteral("asExpected"), asExpected}});
    else
        out() << QStringLiteral("%1 case(s): %2 verified, %3 refused; %4 as expected, %5 unexpected%6\n")
                     .arg(total)
                     .arg(verified)
                     .arg(total - verified)
                     .arg(asExpected)
                     .arg(total - asExpected)
                     .arg(errors ? QStringLiteral(", %1 manifest line(s) unreadable").arg(errors) : QString());
    out().flush();
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("verify.batch");
    d.parameters = QJsonObject{{QStringLiteral("useDigest"), useDigest},
                               {QStringLiteral("trustedRootSha256"), common ? QString::fromLatin1(common->sha256.toHex()) : QStringLiteral("per case")},
                               {QStringLiteral("cases"), total},
                               {QStringLiteral("verified"), verified},
                               {QStringLiteral("asExpected"), asExpected},
                               {QStringLiteral("unreadableLines"), errors}};
    d.inputs.push_back(receipts::Artifact::bytes(manifest, *text));
    d.result = outcomeOf(asExpected == total && errors == 0);
    d.message = QStringLiteral("%1 case(s): %2 verified, %3 as expected").arg(total).arg(verified).arg(asExpected);
    leaveReceipt(p, d);
    return asExpected == total && errors == 0 ? kOk : kFailed;
}


} // namespace

int verifyVerb(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    p.addOption({QStringLiteral("bundle"), QStringLiteral("Sigstore bundle (.sigstore.json, attestation.intoto.jsonl)."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("artifact"), QStringLiteral("The signed artifact (or the statement's subject)."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("digest"), QStringLiteral("The artifact's digest instead of the artifact: sha256:HEX."), QStringLiteral("DIGEST")});
    addSignerOptions(p);
    p.addOption({QStringLiteral("import-trusted-root"), QStringLiteral("Store FILE in the database as the default trusted root, then exit."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("batch"), QStringLiteral("Verify every case of a MANIFEST.tsv (cases/<case>/ beside it); one verdict per line."), QStringLiteral("MANIFEST")});
    p.addOption({QStringLiteral("use-digest"), QStringLiteral("With --batch: verify against the manifest's artifact_digest, not the artifact file.")});
    p.addOption({QStringLiteral("record"), QStringLiteral("Store the result in the database (as the app does).")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("ARTIFACT"), QStringLiteral("The artifact, as cosign takes it (same as --artifact)."), QStringLiteral("[ARTIFACT]"));
    if (int rc = parse(p, args, QStringLiteral("verify"),
                       QStringLiteral("Verify a Sigstore bundle offline, every step shown: transparency log, timestamps, "
                                      "certificate chain at the signing time, SCT, signature, artifact, identity. Exit 0 only "
                                      "when verified."));
        rc >= 0)
        return rc;
    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return usage(QStringLiteral("unknown --format '%1' (expected text or json)").arg(format), QStringLiteral("verify"));
    if (p.isSet(QStringLiteral("import-trusted-root"))) {
        auto db = Database::open(dbPath(p));
        if (!db)
            return fail(db.error());
        auto id = VerificationStore(**db).importTrustedRoot(p.value(QStringLiteral("import-trusted-root")));
        if (!id)
            return fail(id.error());
        out() << "trusted root " << p.value(QStringLiteral("import-trusted-root")) << " stored as the default\n";
        return kOk;
    }
    if (p.isSet(QStringLiteral("batch")))
        return verifyBatch(p);

    if (!p.isSet(QStringLiteral("bundle")))
        return usage(QStringLiteral("--bundle FILE is required"), QStringLiteral("verify"));
    QString artifactPath = p.value(QStringLiteral("artifact"));
    if (artifactPath.isEmpty() && !p.positionalArguments().isEmpty())
        artifactPath = p.positionalArguments().constFirst();
    if (artifactPath.isEmpty() == !p.isSet(QStringLiteral("digest")))
        return usage(QStringLiteral("give exactly one of --artifact FILE and --digest sha256:HEX"), QStringLiteral("verify"));
    auto policyOrError = signerPolicy(p, true);
    if (!policyOrError)
        return policyOrError.error().file.isEmpty() ? usage(policyOrError.error().message, QStringLiteral("verify")) : fail(policyOrError.error());
    const sigstore::Policy policy = *policyOrError;
    auto root = trustedRootFrom(p);
    if (!root && policy.keyMode() && !p.isSet(QStringLiteral("trusted-root")))
        root = sigstore::TrustedRoot{}; // a key needs no trust material; log entries then fail as untrusted
    if (!root)
        return fail(root.error());
    sigstore::Artifact artifact;
    if (!artifactPath.isEmpty()) {
        auto bytes = readFile(artifactPath);
        if (!bytes)
            return fail(bytes.error());
        artifact = sigstore::Artifact::fromBytes(std::move(*bytes));
    } else {
        auto d = sigstore::Artifact::fromDigest(p.value(QStringLiteral("digest")));
        if (!d)
            return usage(d.error().toString(), QStringLiteral("verify"));
        artifact = *d;
    }
    const QString bundlePath = p.value(QStringLiteral("bundle"));
    auto bundleBytes = readFile(bundlePath);
    if (!bundleBytes)
        return fail(bundleBytes.error());
    const sigstore::VerificationResult r = sigstore::verifyBundle(*bundleBytes, bundlePath, artifact, *root, policy);
    if (p.isSet(QStringLiteral("record"))) {
        // The verification and its receipt in one transaction.
        auto db = Database::open(dbPath(p));
        if (!db)
            return fail(db.error());
        if (auto id = VerificationStore(**db).record(r, *bundleBytes, policy); !id)
            return fail(id.error());
    } else {
        receipts::ReceiptDraft d;
        d.kind = QStringLiteral("verify");
        d.parameters = QJsonObject{{QStringLiteral("policy"), policy.toJson()}, {QStringLiteral("trustedRootSha256"), r.trustedRootSha256},
                                   {QStringLiteral("recorded"), false}};
        d.inputs.push_back(receipts::Artifact::bytes(bundlePath, *bundleBytes));
        d.inputs.push_back(artifactPath.isEmpty() ? receipts::Artifact::digest(QStringLiteral("artifact"), r.artifactDigest)
                                                  : receipts::Artifact::file(artifactPath));
        d.result = outcomeOf(r.verified);
        d.message = r.summary();
        leaveReceipt(p, d);
    }
    if (format == QLatin1String("json"))
        printJson(r.toJson());
    else
        out() << r.toText();
    out().flush();
    if (!r.verified)
        err() << "proofbench: not verified: " << r.summary() << Qt::endl;
    return r.verified ? kOk : kFailed;
}


} // namespace pb::cli
