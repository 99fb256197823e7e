#include "ops/ImportPublicKey.h"

#include "core/Files.h"
#include "receipts/Kinds.h"
#include "sigstore/Crypto.h"
#include "sigstore/Keys.h"
#include "store/VerificationStore.h"

#include <QFileInfo>
#include <QJsonObject>

namespace pb::ops {

bool isPublicKeyPem(const QByteArray& pem) {
    return pem.contains("-----BEGIN PUBLIC KEY-----");
}

Result<ImportPublicKeyOutcome> importPublicKey(const Context& ctx, const ImportPublicKeyRequest& request) {
    if (Status s = require(ctx, db::Capability::ManageKeys); !s)
        return s.error();
    Result<QByteArray> pem = readFileLimited(request.path, limits::kSmallFile, QStringLiteral("public key"));
    if (!pem)
        return pem.error();
    if (!isPublicKeyPem(*pem))
        return makeError(QStringLiteral("not a PEM public key"), request.path);
    sigstore::crypto::Pkey pub = sigstore::crypto::pkeyFromPem(*pem);
    if (!pub)
        return makeError(QStringLiteral("not a PEM public key"), request.path);
    const QByteArray canonical = sigstore::publicKeyPem(pub.get());
    const QString label = request.label.isEmpty() ? QFileInfo(request.path).fileName() : request.label;
    auto done = transact<ImportPublicKeyOutcome>(
        ctx, [&]() -> Result<std::pair<ImportPublicKeyOutcome, receipts::ReceiptDraft>> {
            Result<qint64> id = store::VerificationStore(ctx.db()).addPublicKey(canonical, label);
            if (!id)
                return id.error();
            ImportPublicKeyOutcome out{sigstore::keyFingerprint(pub.get()), *id};
            receipts::ReceiptDraft d;
            d.kind = receipts::kinds::KeyImport;
            d.parameters = QJsonObject{{QStringLiteral("format"), QStringLiteral("public")},
                                       {QStringLiteral("fingerprint"), out.fingerprint}};
            d.inputs.push_back(receipts::Artifact::bytes(request.path, *pem));
            d.message = QStringLiteral("public key %1 kept for verification").arg(out.fingerprint);
            return std::make_pair(out, d);
        });
    if (!done)
        return done.error();
    done->value.receiptSeq = done->receipt.seq;
    return std::move(done->value);
}

} // namespace pb::ops
