// Reads a catalog laid out like AICR's recipes/ directory (overlays/, mixins/, registry.yaml,
// validators/catalog.yaml, components/, checks/) from disk or from a Qt resource path. All files
// are checked before anything is returned: one bad file refuses the whole catalog, with an error
// naming the file, line, field and reason.
#pragma once

#include "catalog/Resolver.h"
#include "catalog/Types.h"
#include "core/Result.h"

#include <atomic>
#include <functional>

namespace pb::catalog {

struct LoadOptions {
    // Called with (files done, files total); may be empty.
    std::function<void(int, int)> progress;
    const std::atomic_bool* cancel = nullptr;
    qint64 maxFileBytes = 8ll * 1024 * 1024;
    int maxFiles = 20000;
};

// `root` is the recipes/ directory itself (or a directory containing recipes/). Every file is opened
// through openInputFile (core/Files.h). An entry that is not a regular file or a directory (a symbolic
// link, named pipe, socket or device) is REFUSED, with an error naming the entry and what it is: links
// are never followed out of (or within) a catalog, and skipping one silently would make a later check
// fail with a misleading reason ("base overlay 'eks' does not exist").
Result<Catalog> loadCatalog(const QString& root, const LoadOptions& options = {});

// Builds a catalog from files already in memory (path relative to the root -> bytes); the store
// uses this to rebuild an imported catalog version.
Result<Catalog> loadCatalogFromFiles(std::vector<CatalogFile> files, const QString& rootLabel);

// Parsers of single documents, for tests and tools.
Result<Overlay> parseOverlay(const QByteArray& bytes, const QString& file, bool mixin);
Result<std::vector<RegistryComponent>> parseRegistry(const QByteArray& bytes, const QString& file,
                                                     ApiVersion* apiVersion = nullptr);
Result<ValidatorCatalog> parseValidatorCatalog(const QByteArray& bytes, const QString& file);
// A RecipeResult as `aicr recipe` (or `proofbench recipe`) writes it: criteria, constraints,
// componentRefs, deploymentOrder and validation, for running a recipe that is only a file.
Result<RecipeResult> parseRecipeResult(const QByteArray& bytes, const QString& file);

} // namespace pb::catalog
