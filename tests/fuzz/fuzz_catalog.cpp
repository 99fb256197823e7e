// Catalog documents: overlay, mixin, component registry, validator catalog, RecipeResult, and the
// evidence canonicalization of a recipe. The first byte picks the parser.
#include "FuzzUtil.h"

#include "catalog/Digest.h"
#include "catalog/Loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1)
        return 0;
    const QByteArray in = pbfuzz::bytes(data + 1, size - 1);
    const QString file = QStringLiteral("overlays/fuzz.yaml");
    switch (data[0] % 6) {
    case 0:
        (void)pb::catalog::parseOverlay(in, file, false);
        break;
    case 1:
        (void)pb::catalog::parseOverlay(in, file, true);
        break;
    case 2:
        (void)pb::catalog::parseRegistry(in, file);
        break;
    case 3:
        (void)pb::catalog::parseValidatorCatalog(in, file);
        break;
    case 4: {
        pb::Result<pb::catalog::RecipeResult> r = pb::catalog::parseRecipeResult(in, file);
        if (r)
            (void)pb::catalog::deterministicYaml(*r);
        break;
    }
    default:
        (void)pb::catalog::canonicalizeRecipeYaml(in, file, pb::catalog::PredicateVersion::V3);
        (void)pb::catalog::canonicalizeRecipeYaml(in, file, pb::catalog::PredicateVersion::V1);
        break;
    }
    return 0;
}
