#include "ops/SignBlob.h"

#include "core/Files.h"
#include "receipts/Kinds.h"
#include "sigstore/Sign.h"

#include <QJsonObject>

namespace pb::ops {

Result<SignBlobOutcome> signBlob(const Context& ctx, const SignBlobRequest& request) {
    if (Status s = require(ctx, db::Capability::Sign); !s)
        return s.error();
    if (request.file.isEmpty() || request.bundlePath.isEmpty())
        return makeError(QStringLiteral("give the file to sign and where to write the bundle"));
    Result<QByteArray> blob =
        readFileLimited(request.file, kMaxArtifactBytes, QStringLiteral("file to sign"));
    if (!blob)
        return blob.error();
    ctx.progress(0, 0, QStringLiteral("Decrypting the key"));
    Result<sigstore::crypto::Pkey> key = loadSigningKey(request.key);
    if (!key)
        return key.error();
    Result<QByteArray> bundle = sigstore::signBlob(key->get(), *blob);
    if (!bundle)
        return bundle.error();
    StagedFiles files;
    if (Status s = files.stage(request.bundlePath, *bundle + '\n'); !s)
        return s.error();
    SignBlobOutcome out{request.file, request.bundlePath, sigstore::keyFingerprint(key->get())};
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::SignBlob;
    d.parameters = QJsonObject{{QStringLiteral("keyFingerprint"), out.keyFingerprint}};
    d.inputs.push_back(receipts::Artifact::bytes(request.file, *blob));
    d.outputs.push_back(receipts::Artifact::bytes(request.bundlePath, *bundle + '\n'));
    d.message = QStringLiteral("message signature bundle written");
    Result<receipts::Receipt> r = record(ctx, d, &files);
    if (!r)
        return r.error();
    out.receiptSeq = r->seq;
    return out;
}

} // namespace pb::ops
