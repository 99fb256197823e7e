// Deployment bundles in the database (migration 012): each imported bundle with every file verbatim
// and its components in deployment order. An imported bundle is loaded back by re-reading its
// stored files with the deployer it was imported as, so it reads exactly as the folder did.
#pragma once

#include "bundle/Read.h"
#include "db/Database.h"

#include <QDateTime>

#include <optional>
#include <vector>

namespace pb::store {

struct StoredBundleInfo {
    qint64 id = 0;
    QString name, sourceDir, deployer, treeDigest;
    int fileCount = 0, componentCount = 0, distinctSyncWaves = 0, unknownFiles = 0;
    qint64 totalBytes = 0;
    QString recipeName, recipeEvidenceDigest;
    QString catalogLabel, recipeLeaf; // the catalog version and leaf whose stored recipe it was made from
    QDateTime importedAt;
};

// The catalog recipe a bundle's recipe.yaml is (by evidence digest), found read-only through
// CatalogStore.
struct RecipeLink {
    qint64 catalogVersionId = 0;
    qint64 recipeId = 0;
    QString catalogLabel, recipeName, leafOverlay;
};

struct BundleImportResult {
    enum class Outcome { Imported, Unchanged, Replaced };
    Outcome outcome = Outcome::Imported;
    qint64 id = 0;
};
QString outcomeName(BundleImportResult::Outcome o); // "imported", "unchanged", "replaced"

class BundleStore {
  public:
    explicit BundleStore(db::Database& db) : m_db(db) {}

    // Writes the bundle, its files and components (a savepoint inside the caller's transaction).
    // A bundle of the same name and tree digest is left as it is (Unchanged); one of the same name
    // and other content is refused unless `replace`.
    Result<BundleImportResult> importBundle(const QString& name, const QString& sourceDir,
                                            const bundle::model::DeployBundle& b,
                                            const bundle::model::FileMap& files, bool replace,
                                            const std::optional<RecipeLink>& link);

    Result<std::vector<StoredBundleInfo>> list() const; // by name
    Result<std::optional<StoredBundleInfo>> find(const QString& name) const;
    // The imported bundle `ref` names: its name, or its tree digest ("sha256:<hex>", or hex) whole or
    // as an unambiguous prefix of at least 4 digits. Empty when it names none and does not look like
    // a digest; an error for a digest prefix that is too short, unknown or ambiguous.
    Result<std::optional<StoredBundleInfo>> resolve(const QString& ref) const;
    Result<bundle::model::FileMap> files(qint64 id) const;
    // The stored bundle `ref` names (resolve()) read again from its files (root = its name).
    Result<bundle::model::ReadBundle> load(const QString& ref) const;

  private:
    db::Database& m_db;
};

// The catalog recipe whose stored evidence digest is `evidenceDigest` (bare hex), newest version first.
Result<std::optional<RecipeLink>> findRecipeByDigest(db::Database& db, const QString& evidenceDigest);

} // namespace pb::store
