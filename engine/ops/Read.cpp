#include "ops/Read.h"

#include "store/CatalogStore.h"

namespace pb::ops {

Result<std::shared_ptr<const catalog::Catalog>> loadCatalogVersion(const Context& ctx, const QString& label) {
    Result<catalog::Catalog> cat = store::CatalogStore(ctx.db()).loadCatalog(label);
    if (!cat)
        return cat.error();
    return std::shared_ptr<const catalog::Catalog>(std::make_shared<const catalog::Catalog>(std::move(*cat)));
}

} // namespace pb::ops
