// Catalog versions in the database: transactional import (all or nothing), listing, and the
// resolved recipes of each version. Reads rebuild a Catalog from the verbatim files stored at
// import, so `--version LABEL` resolves exactly what `--catalog DIR` did.
#pragma once

#include "catalog/Resolver.h"
#include "catalog/Types.h"
#include "db/Database.h"

#include <QDateTime>

#include <atomic>
#include <functional>

namespace pb::store {

using db::Database;
using db::nullable;
using db::sqlError;
using db::Transaction;

struct CatalogVersionInfo {
    qint64 id = 0;
    QString label, source, contentDigest, apiVersions;
    QDateTime importedAt;
    bool embedded = false;
    int overlayCount = 0, recipeCount = 0;
};

struct RecipeInfo {
    qint64 id = 0;
    qint64 catalogVersionId = 0;
    QString catalogLabel;
    QString name, leafOverlay, profile, apiVersion, digest;
    catalog::Criteria criteria;
    QStringList appliedOverlays;
    int componentCount = 0;
    // The same recipe (name and profile) in the catalog version imported just before this one.
    QString previousLabel;  // empty when this is the first version
    QString previousDigest; // empty when the recipe did not exist there

    enum class Change { FirstVersion, New, Unchanged, Changed };
    Change change() const;
    // "changed since v0.20.0", "unchanged since v0.20.0", "new in v1.0.0", or empty.
    QString changeText() const;
};

enum class ImportStage { Resolving, Writing, Done };
QString stageName(ImportStage stage);

struct ImportOptions {
    bool replace = false;   // replace a version of the same label whose content differs
    bool embedded = false;
    std::function<void(int, int, ImportStage)> progress; // (step, steps, stage)
    const std::atomic_bool* cancel = nullptr;
};

struct ImportReport {
    enum class Outcome { Imported, Unchanged, Replaced };
    Outcome outcome = Outcome::Imported;
    qint64 versionId = 0;
    int recipes = 0;
    int files = 0;
};

// Resolves a stored recipe exactly as import did (the leaf's own criteria, its profile default, no
// builder version), so its deterministic bytes and digest equal the stored ones.
Result<catalog::RecipeResult> resolveStoredRecipe(const catalog::Catalog& catalog, const QString& leafOverlay);

// Bytes stored per recipe: AICR's deterministic YAML of the RecipeResult, with no
// metadata.version, so the digest identifies the recipe independent of the tool that resolved it.
QByteArray recipeBytes(const catalog::RecipeResult& recipe);

class CatalogStore {
  public:
    explicit CatalogStore(Database& db) : m_db(db) {}

    // Resolves every leaf first; only a catalog that loads and resolves completely is written,
    // in one transaction (a savepoint when the caller has one open: ops::importCatalog writes the
    // receipt in that outer transaction). An unchanged or refused import changes nothing.
    Result<ImportReport> importCatalog(const QString& label, const catalog::Catalog& cat,
                                       const ImportOptions& options = {});

    Result<std::vector<CatalogVersionInfo>> versions() const;
    Result<CatalogVersionInfo> version(const QString& label) const;
    Result<catalog::Catalog> loadCatalog(const QString& label) const;
    Result<std::vector<RecipeInfo>> recipes(qint64 catalogVersionId) const;
    Result<QByteArray> fileContent(qint64 catalogVersionId, const QString& path) const;
    bool isEmpty() const;

  private:
    Database& m_db;
};

// The versions of the catalog compiled into the application (":/recipes/<label>"), oldest first.
// ops::seedEmbeddedCatalog imports them on first start.
QStringList embeddedCatalogLabels();

} // namespace pb::store
