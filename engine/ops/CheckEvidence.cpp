#include "ops/CheckEvidence.h"

#include "core/Files.h"
#include "db/Database.h"
#include "evidence/Evidence.h"
#include "ops/SignatureCheck.h"
#include "receipts/Kinds.h"

#include <QFileInfo>
#include <QJsonObject>

namespace pb::ops {

QString CheckEvidenceOutcome::verdict() const {
    static const char* const meanings[] = {"valid", "valid with failed phases", "invalid", "incomplete"};
    return QLatin1String(meanings[qBound(0, exitCode, 3)]);
}

Result<CheckEvidenceOutcome> checkEvidence(const Context& ctx, const CheckEvidenceRequest& request) {
    receipts::ReceiptDraft receipt;
    receipt.kind = receipts::kinds::EvidenceCheck;
    receipt.parameters = QJsonObject{{QStringLiteral("pointer"), request.pointer},
                                     {QStringLiteral("trustedRoot"), request.trustedRoot},
                                     {QStringLiteral("publicKey"), request.publicKey},
                                     {QStringLiteral("insecureIgnoreTlog"), request.insecureIgnoreTlog}};
    receipt.inputs.push_back(receipts::Artifact::directory(request.bundle));
    if (!request.pointer.isEmpty())
        receipt.inputs.push_back(receipts::Artifact::file(request.pointer));

    CheckEvidenceOutcome out;
    auto refused = [&](const QString& problem) -> Result<CheckEvidenceOutcome> {
        out.exitCode = 2;
        out.problem = problem;
        receipt.result = receipts::Outcome::Failed;
        receipt.message = QStringLiteral("invalid (exit 2): ") + problem;
        Result<receipts::Receipt> r = record(ctx, receipt);
        if (!r)
            return r.error();
        out.receiptSeq = r->seq;
        return out;
    };

    ctx.progress(0, 0, QStringLiteral("checking %1").arg(request.bundle));
    Result<evidence::SummaryBundle> bundle = evidence::loadBundle(request.bundle);
    if (!bundle) // an unreadable or hostile bundle is invalid
        return refused(bundle.error().toString());
    std::optional<evidence::Pointer> pointer;
    if (!request.pointer.isEmpty()) {
        Result<QByteArray> bytes =
            readFileLimited(request.pointer, limits::kSmallFile, QStringLiteral("the pointer"));
        if (!bytes)
            return bytes.error();
        pointer = evidence::parsePointer(*bytes, QFileInfo(request.pointer).fileName());
        if (!pointer->problems.isEmpty())
            return refused(
                QStringLiteral("%1: %2").arg(request.pointer, pointer->problems.join(QStringLiteral("; "))));
    }
    // A root or key that cannot be read is the caller's error, not a verdict.
    std::optional<sigstore::TrustedRoot> root;
    Result<evidence::SignatureCheck> signature = signatureCheck(
        ctx, SignatureSource{request.trustedRoot, request.publicKey, request.insecureIgnoreTlog}, root);
    if (!signature)
        return signature.error();

    out.check = evidence::checkBundle(*bundle, pointer ? &*pointer : nullptr, &*signature);
    out.exitCode = out.check->exitCode;
    receipt.result = out.exitCode == 0   ? receipts::Outcome::Ok
                     : out.exitCode == 1 ? receipts::Outcome::Partial
                                         : receipts::Outcome::Failed;
    receipt.message = QStringLiteral("%1 (exit %2)").arg(out.verdict()).arg(out.exitCode);
    Result<receipts::Receipt> r = record(ctx, receipt);
    if (!r)
        return r.error();
    out.receiptSeq = r->seq;
    return out;
}

} // namespace pb::ops
