#include "ops/SigningKey.h"

#include "core/Files.h"

namespace pb::ops {

Result<sigstore::crypto::Pkey> loadSigningKey(const SigningKey& key) {
    if (key.path.isEmpty())
        return makeError(QStringLiteral("no private key given"));
    if (key.passphrase.isEmpty())
        return makeError(QStringLiteral("the private key's passphrase is empty"), key.path);
    Result<QByteArray> pem = readFileLimited(key.path, limits::kSmallFile, QStringLiteral("private key"));
    if (!pem)
        return pem.error();
    return sigstore::readPrivateKey(*pem, key.passphrase, key.path);
}

} // namespace pb::ops
