// Import a catalog directory as a catalog version (CLI `catalog import`, the window's Import
// Catalog, and the first start's embedded catalog).
#pragma once

#include "catalog/Types.h"
#include "ops/Operation.h"
#include "store/CatalogStore.h"

#include <optional>

namespace pb::ops {

struct ImportCatalogRequest {
    QString label;                          // the version label, e.g. sample-2
    QString dir;                            // the catalog directory (AICR recipes/ layout)
    std::optional<catalog::Catalog> loaded; // the catalog already loaded from `dir` (skips loading)
    bool replace = false;                   // replace a version of the same label whose content differs
    bool embedded = false;                  // the sample catalog compiled into the application
    store::CatalogSource origin;            // where the files came from (git imports fill it in)
    // "v0.19.0": refuse the import unless the catalog's registry.yaml and validators/catalog.yaml
    // reproduce the recipe-catalog subject AICR v0.19.0 signed (a signature `release verify` kept);
    // the refusal names the file that differs. Empty: no expectation.
    QString expectRelease;
};

struct ImportCatalogOutcome {
    store::ImportReport report;
    QString label;
    QString contentDigest; // "sha256:..." over the catalog's files
    qint64 receiptSeq = 0;
    // AICR releases whose kept recipe-catalog signature this version reproduces (bound at import).
    QStringList signedByReleases;
    // "imported", "unchanged" or "replaced"
    QString outcomeName() const;
};

// Loads (unless given) and resolves the catalog, writes it and its catalog.import receipt in one
// transaction. An unchanged import and a refused one (same label, other content, no replace) write
// no data but are receipted (ok "unchanged" / failed) — the attempt is on record; a catalog that
// does not load or resolve is refused before anything is written.
Result<ImportCatalogOutcome> importCatalog(const Context& ctx, const ImportCatalogRequest& request);

// First start: when the database holds no catalog, imports every version of the embedded catalog
// (":/recipes/<label>") in ONE transaction: all of them with their receipts, or none (a full disk
// mid-seed leaves nothing half-imported). Returns the labels imported (empty when not needed).
Result<QStringList> seedEmbeddedCatalog(const Context& ctx);
// The same for callers that hold only a database (tests, tools).
Result<QStringList> seedEmbeddedCatalog(db::Database& db);

} // namespace pb::ops
