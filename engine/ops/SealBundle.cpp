#include "ops/SealBundle.h"

#include "receipts/Kinds.h"

#include <QFileInfo>
#include <QJsonObject>

namespace pb::ops {

Result<SealBundleOutcome> sealBundle(const Context& ctx, const SealBundleRequest& request) {
    if (Status s = require(ctx, db::Capability::Sign); !s)
        return s.error();
    if (request.dir.isEmpty() || !QFileInfo(request.dir).isDir())
        return makeError(QStringLiteral("not a directory"), request.dir);
    ctx.progress(0, 0, QStringLiteral("Decrypting the key"));
    Result<sigstore::crypto::Pkey> key = loadSigningKey(request.key);
    if (!key)
        return key.error();
    StagedFiles files;
    auto progress = [&ctx](int done, int total) {
        ctx.progress(done, total, QStringLiteral("Hashing files: %1 of %2").arg(done).arg(total));
    };
    // The engine function takes a mutable flag; it only reads it.
    auto* cancel = const_cast<std::atomic_bool*>(ctx.cancelFlag());
    Result<deploy::SignReport> report =
        deploy::signDeploymentBundle(request.dir, key->get(), progress, cancel, files.writer());
    if (!report)
        return report.error();
    SealBundleOutcome out;
    out.report = *report;
    const QString dir = QFileInfo(request.dir).absoluteFilePath();
    out.checksumsPath = dir + QLatin1Char('/') + QLatin1String(deploy::kChecksums);
    out.attestationPath = dir + QLatin1Char('/') + QLatin1String(deploy::kBundleAttestation);
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::SignBundle;
    d.parameters =
        QJsonObject{{QStringLiteral("keyFingerprint"), report->keyFingerprint},
                    {QStringLiteral("files"), report->files},
                    {QStringLiteral("treeDigest"), QStringLiteral("sha256:") + report->treeDigest}};
    d.inputs.push_back(
        receipts::Artifact::digest(request.dir + QStringLiteral("/checksums.txt"), report->checksumsSha256));
    for (const receipts::Artifact& a : files.artifacts())
        if (a.name.endsWith(QLatin1String(deploy::kBundleAttestation)))
            d.outputs.push_back(receipts::Artifact::digest(request.dir + QLatin1Char('/') +
                                                               QLatin1String(deploy::kBundleAttestation),
                                                           a.sha256, a.size));
    d.message = QStringLiteral("checksums.txt and the bundle attestation written");
    Result<receipts::Receipt> r = record(ctx, d, &files);
    if (!r)
        return r.error();
    out.receiptSeq = r->seq;
    return out;
}

} // namespace pb::ops
