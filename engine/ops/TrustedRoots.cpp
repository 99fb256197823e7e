#include "ops/TrustedRoots.h"

#include "store/VerificationStore.h"

namespace pb::ops {

Result<qint64> importTrustedRoot(const Context& ctx, const QString& path, bool makeDefault) {
    if (Status s = require(ctx, db::Capability::UpdateTrustedRoot); !s)
        return s.error();
    return store::VerificationStore(ctx.db()).importTrustedRoot(path, makeDefault);
}

Result<std::optional<sigstore::TrustedRoot>> resolveTrustedRoot(const Context& ctx, const QString& path,
                                                                qint64 id) {
    if (!path.isEmpty()) {
        auto root = sigstore::loadTrustedRoot(path);
        if (!root)
            return root.error();
        return std::optional<sigstore::TrustedRoot>(std::move(*root));
    }
    store::VerificationStore roots(ctx.db());
    if (id != 0) {
        auto root = roots.trustedRoot(id);
        if (!root)
            return root.error();
        return std::optional<sigstore::TrustedRoot>(std::move(*root));
    }
    return roots.defaultTrustedRoot();
}

} // namespace pb::ops
