#include "evidence/Sign.h"
#include "core/Plural.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "sigstore/Keys.h"
#include "sigstore/Sign.h"

#include <QDir>
#include <QFileInfo>

namespace pb::evidence {

Result<EvidenceSignature> signEvidence(const QString& bundleDirIn, EVP_PKEY* key, const QString& evidenceRoot,
                                       const FileWriter& writer, bool signIncomplete) {
    Result<SummaryBundle> bundle = loadSummaryBundle(bundleDirIn);
    if (!bundle)
        return bundle.error();
    if (bundle->files.contains(QStringLiteral("attestation.intoto.jsonl")))
        return makeError(
            QStringLiteral("already signed (attestation.intoto.jsonl exists); remove it to sign again"),
            bundleDirIn);
    const BundleCheck check = checkBundle(*bundle);
    if (check.exitCode == 3 && !signIncomplete)
        return makeError(
            QStringLiteral("refused: the bundle is incomplete, %1 could not run or finish (%2); "
                           "sign it anyway with --sign-incomplete, and it stays marked incomplete")
                .arg(counted(qint64(check.incompleteChecks.size()), QStringLiteral("check"),
                             QStringLiteral("checks")))
                .arg(check.incompleteChecks.join(QStringLiteral(", "))),
            bundleDirIn, 0, QStringLiteral("completeness")); // the check step that found it
    if (check.exitCode == 2 || !check.predicate) {
        QStringList failed;
        for (const CheckStep& s : check.steps)
            if (s.status == StepStatus::Failed)
                failed << QStringLiteral("%1: %2").arg(s.name, s.detail);
        return makeError(QStringLiteral("refused: the bundle fails its integrity checks (%1)")
                             .arg(failed.join(QStringLiteral("; "))),
                         bundleDirIn);
    }
    const Predicate& pred = *check.predicate;
    auto signedBundle = sigstore::attest(key, bundle->files.value(QStringLiteral("statement.intoto.json")));
    if (!signedBundle)
        return signedBundle.error();

    // The summary-bundle directory itself (loadSummaryBundle accepts it or its parent).
    QString dir = QFileInfo(bundleDirIn).absoluteFilePath();
    if (QFileInfo::exists(dir + QStringLiteral("/summary-bundle/statement.intoto.json")))
        dir += QStringLiteral("/summary-bundle");
    EvidenceSignature out;
    out.recipe = pred.recipeName;
    out.signerIdentity = sigstore::keyFingerprint(key);
    out.signerIssuer = QLatin1String(kKeyIssuer);
    // A directory bundle has no OCI manifest to pin; the pointer pins its manifest.json, which the
    // signed predicate also names.
    out.bundleDigest = pred.manifestDigest;
    out.attestationPath = dir + QStringLiteral("/attestation.intoto.jsonl");

    // Pointer schema 1.0, keys sorted, two-space indent (as AICR's MarshalPointer writes it).
    QByteArray pointer = "attestations:\n  - attestedAt: " + pred.attestedAt.toUtf8() +
                         "\n    bundle:\n      digest: " + out.bundleDigest.toUtf8() +
                         "\n      predicateType: " + pred.type.toUtf8() +
                         "\n    signer:\n      identity: " + out.signerIdentity.toUtf8() +
                         "\n      issuer: " + out.signerIssuer.toUtf8() + "\n";
    if (!pred.profileSelection.isEmpty())
        pointer += "profile: " + pred.profileSelection.toUtf8() + "\n";
    pointer += "recipe: " + pred.recipeName.toUtf8() + "\nschemaVersion: 1.0.0\n";
    const QString root = evidenceRoot.isEmpty() ? QFileInfo(dir).absolutePath() : evidenceRoot;
    out.pointerPath = QStringLiteral("%1/%2/%3/sha256-%4.yaml")
                          .arg(root, pred.recipeName, sourceSlug(out.signerIssuer, out.signerIdentity),
                               out.bundleDigest.mid(7));

    // The attestation is written first: a pointer never names a bundle that is not signed.
    const FileWriter write = writer ? writer : atomicFileWriter();
    if (Status s = write(out.attestationPath, *signedBundle + '\n', FileAccess::Normal); !s)
        return s.error();
    if (Status s = write(out.pointerPath, pointer, FileAccess::Normal); !s)
        return s.error();
    return out;
}

} // namespace pb::evidence
