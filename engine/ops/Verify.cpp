#include "ops/Verify.h"

#include "core/Files.h"
#include "ops/TrustedRoots.h"
#include "receipts/Kinds.h"
#include "store/VerificationStore.h"

#include <QJsonObject>

namespace pb::ops {

namespace {

struct Inputs {
    QByteArray bundle;
    sigstore::Artifact artifact;
    sigstore::Policy policy;
    sigstore::TrustedRoot root;
};

Result<Inputs> readInputs(const Context& ctx, const VerifyRequest& r) {
    Inputs in;
    if (r.bundleBytes) {
        in.bundle = *r.bundleBytes;
    } else {
        if (r.bundlePath.isEmpty())
            return makeError(QStringLiteral("no bundle given"));
        auto bytes = readFileLimited(r.bundlePath, limits::kDocumentFile, QStringLiteral("the bundle"));
        if (!bytes)
            return bytes.error();
        in.bundle = std::move(*bytes);
    }
    if (r.artifactPath.isEmpty() == r.artifactDigest.isEmpty())
        return makeError(
            QStringLiteral("give exactly one of the artifact's file and its digest (sha256:HEX)"));
    if (!r.artifactDigest.isEmpty()) {
        auto a = sigstore::Artifact::fromDigest(r.artifactDigest);
        if (!a)
            return a.error();
        in.artifact = std::move(*a);
    } else {
        auto bytes = readFileLimited(r.artifactPath, limits::kDocumentFile, QStringLiteral("the artifact"));
        if (!bytes)
            return bytes.error();
        in.artifact = sigstore::Artifact::fromBytes(std::move(*bytes));
    }
    in.policy = r.policy;
    if (!r.keyPath.isEmpty()) {
        auto pem = readFileLimited(r.keyPath, limits::kSmallFile, QStringLiteral("the public key"));
        if (!pem)
            return pem.error();
        if (pem->trimmed().isEmpty())
            return makeError(QStringLiteral("the file is empty"), r.keyPath);
        in.policy.publicKeyPem = std::move(*pem);
    }
    const bool named = !r.trustedRootPath.isEmpty() || r.trustedRootId != 0;
    auto root = resolveTrustedRoot(ctx, r.trustedRootPath, r.trustedRootId);
    if (root && *root) {
        in.root = std::move(**root);
    } else if (!named && in.policy.keyMode()) {
        // A key needs no trust material; log entries then fail as untrusted.
        in.root = sigstore::TrustedRoot{};
    } else if (!root) {
        return root.error();
    } else {
        return makeError(
            QStringLiteral(
                "no trusted root: give one (--trusted-root FILE, Sigstore's trusted_root.json) or import one "
                "as the default (--import-trusted-root FILE, or Import… in the Verify view)"),
            ctx.db().path());
    }
    return in;
}

receipts::ReceiptDraft receiptFor(const VerifyRequest& r, const Inputs& in,
                                  const sigstore::VerificationResult& result, qint64 verificationId) {
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::Verify;
    // The policy as stored with results carries no key material (only the key's digest).
    d.parameters = QJsonObject{{QStringLiteral("policy"), in.policy.toJson()},
                               {QStringLiteral("trustedRootSha256"), result.trustedRootSha256},
                               {QStringLiteral("recorded"), r.record},
                               {QStringLiteral("useDigest"), !r.artifactDigest.isEmpty()}};
    d.inputs.push_back(receipts::Artifact::bytes(r.bundlePath, in.bundle));
    if (in.artifact.bytes)
        d.inputs.push_back(receipts::Artifact::bytes(r.artifactPath, *in.artifact.bytes));
    else
        d.inputs.push_back(receipts::Artifact::digest(QStringLiteral("artifact"),
                                                      QString::fromLatin1(in.artifact.sha256.toHex())));
    if (verificationId != 0)
        d.outputs.push_back(
            receipts::Artifact{QStringLiteral("verifications #%1").arg(verificationId), QString(), -1});
    d.result = outcomeOf(result.verified);
    d.message = result.summary();
    return d;
}

} // namespace

Result<VerifyOutcome> verify(const Context& ctx, const VerifyRequest& request) {
    if (request.record)
        if (Status s = require(ctx, db::Capability::RecordVerification); !s)
            return s.error();
    ctx.progress(0, 3, QStringLiteral("reading the bundle, the artifact and the trusted root"));
    auto in = readInputs(ctx, request);
    if (!in)
        return in.error();
    if (ctx.cancelled())
        return makeError(QStringLiteral("cancelled"), request.bundlePath);
    ctx.progress(1, 3, QStringLiteral("verifying %1").arg(request.bundlePath));
    sigstore::VerificationResult result =
        sigstore::verifyBundle(in->bundle, request.bundlePath, in->artifact, in->root, in->policy);
    ctx.progress(2, 3, QStringLiteral("recording the result"));
    auto done =
        transact<VerifyOutcome>(ctx, [&]() -> Result<std::pair<VerifyOutcome, receipts::ReceiptDraft>> {
            VerifyOutcome out;
            if (request.record) {
                auto id = store::VerificationStore(ctx.db()).record(result, in->bundle, in->policy);
                if (!id)
                    return id.error();
                out.verificationId = *id;
            }
            receipts::ReceiptDraft draft = receiptFor(request, *in, result, out.verificationId);
            out.result = std::move(result);
            return std::pair{std::move(out), std::move(draft)};
        });
    if (!done)
        return done.error();
    ctx.progress(3, 3, QStringLiteral("done"));
    return std::move(done->value);
}

} // namespace pb::ops
