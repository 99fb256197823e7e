// Recipe operations both faces call with the same options: resolve a recipe (criteria or a leaf
// against a catalog folder or an imported version), diff two catalogs (one recipe or every leaf),
// and export a resolved recipe (to a file or to the caller, with its receipt). The CLI's `recipe`,
// `graph` and `diff` verbs and the window's recipe view, Generate bundle and Compare pane build
// one of these requests; what they print or show is rendered from the result.
#pragma once

#include "catalog/Diff.h"
#include "catalog/Resolver.h"
#include "core/Result.h"
#include "ops/Operation.h"

#include <QMap>
#include <QString>

#include <memory>
#include <optional>

namespace pb::ops {

// A catalog to work on. `spec` is a directory or a catalog version label; `kind` says which
// (Auto: a directory when one exists at that path, else a label). `loaded`, when set, is used as
// is (the window's catalog cache) and `sample` then says whether it is Proofbench's sample data.
struct CatalogRef {
    enum class Kind { Auto, Directory, Version };
    QString spec{};
    Kind kind = Kind::Auto;
    std::shared_ptr<const catalog::Catalog> loaded{};
    bool sample = false; // only read when `loaded` is set
};

// Which recipe. A leaf overlay stands for its own criteria (and takes the place of `criteria`);
// otherwise `criteria` holds what a user typed per dimension (unset or "any": no preference).
// `stampVersion` is metadata.version: "dev" as the CLI prints, empty as import stores recipes (the
// window shows stored recipes: leaf set, no profiles, empty stamp).
struct RecipeQuery {
    QString leaf;
    QMap<QString, QString> criteria;
    QMap<QString, QString> profiles; // NAME -> VALUE
    QString stampVersion = QStringLiteral("dev");

    // The query of a stored recipe (what the window shows): the leaf, no profile, no stamp.
    static RecipeQuery stored(const QString& leaf);
};

struct ResolveRequest {
    CatalogRef catalog;
    RecipeQuery query;
};

struct ResolvedRecipe {
    std::shared_ptr<const catalog::Catalog> catalog;
    QString catalogSpec;
    bool catalogIsVersion = false; // `catalogSpec` is a version label (else a directory)
    bool sample = false;           // the catalog is Proofbench's sample data
    catalog::RecipeResult recipe;
    QString evidenceDigest, parityDigest; // bare hex (catalog/Digest.h)
    QString leafOverlay() const { return recipe.appliedOverlays.value(recipe.appliedOverlays.size() - 1); }
};

// Resolve and diff read the database only for a version label: each takes a Context, or a
// database that may be null (a folder or a loaded catalog needs none, so `graph --catalog DIR`
// opens no database and the window's worker threads need no connection).

// Loads the catalog `ref` names (a version label from `db`). Errors name the spec.
Result<std::shared_ptr<const catalog::Catalog>> loadCatalogRef(db::Database* db, const CatalogRef& ref);
// Whether `ref` is Proofbench's sample catalog: a stored version marked so, or a folder whose content
// is one of the sample versions compiled into the application; `loaded` refs say so themselves.
bool isSampleCatalog(db::Database* db, const CatalogRef& ref, const catalog::Catalog& cat);

// Resolves one recipe. No receipt (nothing leaves the program: exportRecipe records what is
// printed or written).
Result<ResolvedRecipe> resolveRecipe(db::Database* db, const ResolveRequest& request);
inline Result<ResolvedRecipe> resolveRecipe(const Context& ctx, const ResolveRequest& request) {
    return resolveRecipe(&ctx.db(), request);
}

// Two catalogs; one recipe (fromQuery/toQuery) or every leaf (allLeaves). A side whose query is
// unset has no such recipe and compares as an empty recipe (everything added or removed).
struct DiffRequest {
    CatalogRef from, to;
    bool allLeaves = false;
    std::optional<RecipeQuery> fromQuery, toQuery;
    catalog::DiffOptions options; // what the renderings leave out
};

struct DiffResult {
    std::optional<catalog::RecipeDiff> recipe;   // one recipe
    std::optional<catalog::CatalogDiff> catalog; // allLeaves
    catalog::RecipeResult fromRecipe, toRecipe;  // the two sides (one recipe; empty for a missing side)
    catalog::DiffOptions options;
    // "text", "markdown" or "json": the bytes the CLI prints.
    Result<QByteArray> render(const QString& format) const;
};

Result<DiffResult> diff(db::Database* db, const DiffRequest& request);
inline Result<DiffResult> diff(const Context& ctx, const DiffRequest& request) {
    return diff(&ctx.db(), request);
}

// A resolved recipe exported: "yaml" (deterministic: AICR's sorted bytes), "json", or its two
// digests ("digest" text / "digest-json"). `outputPath` empty: the bytes are returned for the
// caller to print, and the receipt names "(stdout)"; set: the file is written with the receipt
// (one step). The receipt is kept before the bytes are handed back.
struct ExportRecipeRequest {
    ResolveRequest resolve;
    QString format = QStringLiteral("yaml");
    bool deterministic = false;
    QString outputPath;
};

struct ExportedRecipe {
    ResolvedRecipe resolved;
    QByteArray bytes;
    receipts::Receipt receipt;
};

Result<ExportedRecipe> exportRecipe(const Context& ctx, const ExportRecipeRequest& request);

} // namespace pb::ops
