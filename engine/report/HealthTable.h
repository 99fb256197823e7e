// The health table of a catalog version as every front shows it (the Health view, `proofbench
// health`, the release review report): the store's rows (store::EvidenceStore::health) with what
// the views need to name a row truthfully — the leaf overlay a recipe resolves from (a wildcard leaf
// such as monitoring-hpa resolves to "recipe"), and the name the row's pointers were recorded under
// when it is not the recipe's (evidence recorded before a profile renamed the coordinate) — so the
// inspector reads the very pointers the counts were taken from.
#pragma once

#include "core/Result.h"
#include "evidence/Evidence.h"
#include "evidence/Health.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"

#include <QString>

#include <vector>

namespace pb::db {
class Database;
}

namespace pb::report {

// The version a health table or report is of: `label`, or when empty the newest in version order
// (CatalogStore::newestVersion(), never the last imported).
Result<store::CatalogVersionInfo> chosenVersion(db::Database& db, const QString& label);

// How the exports label the table: the version, its sample mark and its origin.
evidence::HealthTableInfo tableInfo(const store::CatalogVersionInfo& version);

// The rows of `catalogVersionId`, sorted by recipe name, each with leafOverlay and evidenceName.
Result<std::vector<evidence::HealthRow>> healthRows(db::Database& db, qint64 catalogVersionId);

// The pointers the row's counts were taken from (under evidenceName when set), and its bundles.
Result<std::vector<evidence::Pointer>> rowPointers(db::Database& db, const evidence::HealthRow& row);
Result<std::vector<store::BundleRecord>> rowBundles(db::Database& db, const evidence::HealthRow& row);

// Why a stale or outside row's evidence no longer matches the catalog version, in words, naming
// the pointers (their files) and what each side says: the name the pointers record against the name
// the catalog gives the leaf now, or the recipe digest the evidence was recorded for against the
// catalog's. Empty for any other row.
QString mismatchText(const evidence::HealthRow& row, const std::vector<evidence::Pointer>& pointers,
                     const QString& catalogLabel);

} // namespace pb::report
