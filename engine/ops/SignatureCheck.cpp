#include "ops/SignatureCheck.h"

#include "core/Files.h"
#include "ops/TrustedRoots.h"

namespace pb::ops {

Result<evidence::SignatureCheck> signatureCheck(const Context& ctx, const SignatureSource& source,
                                                std::optional<sigstore::TrustedRoot>& root) {
    Result<std::optional<sigstore::TrustedRoot>> resolved = resolveTrustedRoot(ctx, source.trustedRoot);
    if (!resolved)
        return resolved.error();
    root = std::move(*resolved);
    evidence::SignatureCheck signature;
    if (!source.publicKey.isEmpty()) {
        Result<QByteArray> key =
            readFileLimited(source.publicKey, limits::kSmallFile, QStringLiteral("the public key"));
        if (!key)
            return key.error();
        signature.policy.publicKeyPem = *key;
        signature.policy.ignoreTlog = source.insecureIgnoreTlog;
        if (!root)
            root.emplace(); // a key needs no trust material unless the attestation is logged
    }
    signature.root = root ? &*root : nullptr;
    return signature;
}

} // namespace pb::ops
