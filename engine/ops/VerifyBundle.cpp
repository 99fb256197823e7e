#include "ops/VerifyBundle.h"

#include "ops/TrustedRoots.h"
#include "receipts/Kinds.h"

#include <QJsonObject>

namespace pb::ops {

Result<VerifyBundleOutcome> verifyBundle(const Context& ctx, const VerifyBundleRequest& request) {
    const bool keyMode = !request.policy.publicKeyPem.isEmpty();
    std::optional<sigstore::TrustedRoot> root;
    {
        auto resolved = resolveTrustedRoot(ctx, request.trustedRootFile, request.trustedRootId);
        if (!resolved) {
            if (!keyMode || !request.trustedRootFile.isEmpty())
                return resolved.error();
        } else {
            root = std::move(*resolved);
        }
    }
    deploy::VerifyOptions options;
    options.policy = request.policy;
    options.root = root ? &*root : nullptr;
    auto progress = [&ctx](int done, int total) {
        ctx.progress(done, total, QStringLiteral("Hashing files: %1 of %2").arg(done).arg(total));
    };
    VerifyBundleOutcome out;
    out.minLevel = request.minLevel;
    auto* cancel = const_cast<std::atomic_bool*>(ctx.cancelFlag());
    out.verification = deploy::verifyDeploymentBundle(request.dir, options, progress, cancel);
    out.cancelled = ctx.cancelled();
    if (out.cancelled)
        return out;
    out.passed = out.verification.level >= request.minLevel;
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::BundleVerify;
    d.parameters = QJsonObject{{QStringLiteral("policy"), options.policy.toJson()},
                               {QStringLiteral("minTrustLevel"), deploy::trustLevelName(request.minLevel)},
                               {QStringLiteral("level"), deploy::trustLevelName(out.verification.level)}};
    d.inputs.push_back(receipts::Artifact::directory(request.dir));
    d.result = outcomeOf(out.passed);
    d.message = QStringLiteral("trust level %1%2")
                    .arg(deploy::trustLevelName(out.verification.level),
                         out.verification.inventoryOk
                             ? QString()
                             : QStringLiteral("; inventory: ") + out.verification.inventoryDetail);
    Result<receipts::Receipt> r = record(ctx, d);
    if (!r)
        return r.error();
    out.receiptSeq = r->seq;
    return out;
}

} // namespace pb::ops
