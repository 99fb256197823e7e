#include "ops/Keygen.h"

#include "core/Files.h"
#include "db/Database.h"
#include "receipts/Kinds.h"
#include "store/VerificationStore.h"

#include <QFileInfo>
#include <QJsonObject>
#include <QSqlError>

namespace pb::ops {

Result<std::vector<store::StoredKey>> publicKeys(const Context& ctx) {
    return store::VerificationStore(ctx.db()).publicKeys();
}

Result<KeygenOutcome> keygen(const Context& ctx, const KeygenRequest& request) {
    if (Status s = require(ctx, db::Capability::ManageKeys); !s)
        return s.error();
    if (request.outPath.isEmpty())
        return makeError(QStringLiteral("give where to write the key (--out NAME)"));
    if (request.passphrase.isEmpty())
        return makeError(QStringLiteral("an empty passphrase would leave the key unprotected"),
                         request.outPath);
    for (const QString& path : {request.outPath, request.outPath + QStringLiteral(".pub")})
        if (QFileInfo::exists(path) || QFileInfo(path).isSymLink())
            return makeError(
                QStringLiteral("already exists; choose another name (keys are never overwritten)"), path);
    sigstore::crypto::Pkey key;
    if (!request.importFrom.isEmpty()) {
        Result<QByteArray> pem =
            readFileLimited(request.importFrom, limits::kSmallFile, QStringLiteral("private key"));
        if (!pem)
            return pem.error();
        Result<sigstore::crypto::Pkey> k =
            sigstore::readAnyPrivateKey(*pem, request.passphrase, request.importFrom);
        if (!k)
            return k.error();
        key = std::move(*k);
        if (sigstore::crypto::keyKind(key.get()) != sigstore::crypto::KeyKind::EcP256)
            return makeError(QStringLiteral("only ECDSA P-256 keys can sign here"), request.importFrom);
    } else {
        key = sigstore::generateSigningKey();
    }
    ctx.progress(0, 0, QStringLiteral("Encrypting the key"));
    Result<QByteArray> sealed = request.cosignFormat
                                    ? sigstore::exportCosignKey(key.get(), request.passphrase)
                                    : sigstore::encryptPrivateKey(key.get(), request.passphrase);
    if (!sealed)
        return sealed.error();
    const QByteArray pub = sigstore::publicKeyPem(key.get());
    KeygenOutcome out;
    out.privatePath = request.outPath;
    out.publicPath = request.outPath + QStringLiteral(".pub");
    out.fingerprint = sigstore::keyFingerprint(key.get());

    StagedFiles files;
    if (Status s = files.stage(out.privatePath, *sealed, FileAccess::OwnerOnly); !s)
        return s.error();
    if (Status s = files.stage(out.publicPath, pub); !s)
        return s.error();

    ReceiptTransaction tx(ctx);
    if (Status s = tx.started(); !s)
        return s.error();
    const QString label = request.label.isEmpty() ? QFileInfo(request.outPath).fileName() : request.label;
    Result<qint64> id = store::VerificationStore(ctx.db()).addPublicKey(pub, label);
    if (!id)
        return id.error();
    out.keyId = *id;
    // The receipt names the public key only: the private key file's digest would say nothing a
    // reader can check, and its bytes (even encrypted) stay out of every record.
    receipts::ReceiptDraft d;
    d.kind = request.importFrom.isEmpty() ? receipts::kinds::KeyGenerate : receipts::kinds::KeyImport;
    d.parameters = QJsonObject{
        {QStringLiteral("format"), request.cosignFormat ? QStringLiteral("cosign") : QStringLiteral("pkcs8")},
        {QStringLiteral("fingerprint"), out.fingerprint},
        {QStringLiteral("encryptedKeyAt"), QFileInfo(request.outPath).absoluteFilePath()}};
    d.outputs.push_back(receipts::Artifact::bytes(out.publicPath, pub));
    d.message = QStringLiteral("ECDSA P-256 key %1").arg(out.fingerprint);
    Result<receipts::Receipt> r = tx.commit(d, &files);
    if (!r)
        return r.error();
    out.receiptSeq = r->seq;
    return out;
}

} // namespace pb::ops
