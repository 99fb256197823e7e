#include "ops/PrepareDatabase.h"

#include "ops/ImportCatalog.h"
#include "store/CatalogStore.h"

namespace pb::ops {

Result<QStringList> prepareDatabase(db::Database& db) {
    if (Result<int> upgraded = store::CatalogStore(db).upgradeRecipeDigests(); !upgraded) {
        Error e = upgraded.error();
        e.message =
            QStringLiteral("cannot upgrade the stored recipes to evidence digests (nothing was changed): %1")
                .arg(e.message);
        return e;
    }
    return seedEmbeddedCatalog(db);
}

} // namespace pb::ops
