// The catalog versions in the database and the recipes of each, as a two-level tree
// (version -> recipes), plus the filter proxy the recipe browser uses. No widgets here.
#pragma once

#include "core/Result.h"
#include "store/CatalogStore.h"

#include <QAbstractItemModel>
#include <QAbstractTableModel>
#include <QIcon>
#include <QSortFilterProxyModel>

#include <functional>
#include <memory>
#include <vector>

namespace pb::models {

class Task;
class Workspace;

// The records the catalog views show, under the models' names (views name no store:: type).
using CatalogVersionInfo = store::CatalogVersionInfo;
// The version a version is compared with by default (store::defaultBaselineIndex): one rule for the
// tree, Details, Compare and the report.
using store::defaultBaselineIndex;
using RecipeInfo = store::RecipeInfo;
using ImportReport = store::ImportReport;
// The note under a release-bound version: what the release's signature covers.
using store::releaseScopeNote;
// A stored recipe (a catalog's leaf overlay) resolved through ops::resolveRecipe (the CLI's
// operation) on a loaded catalog: pure computation, so a view calls it inside a Workspace job.
// `label` (the catalog's version label) names the catalog in errors.
Result<catalog::RecipeResult> resolveRecipe(std::shared_ptr<const catalog::Catalog> catalog,
                                            const QString& leafOverlay, const QString& label = QString());

class CatalogTreeModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Column { NameColumn, ComponentsColumn, ColumnCount };
    enum Role {
        KindRole = Qt::UserRole + 1, // Kind
        VersionLabelRole,            // label of the version (for a recipe: its version's)
        VersionIdRole,
        RecipeIdRole, // 0 for a version
        RecipeNameRole,
        DigestRole,         // recipe digest, full hex
        SearchTextRole,     // recipe name and criteria values, lower case
        ChangeRole,         // store::RecipeInfo::Change against the previous catalog version (as int)
        SampleRole,         // bool: the version (or the recipe's version) is Proofbench's sample data
        SourceHintRole,     // version rows: where it came from, short ("sample data", "git tag v0.14.0 ·
                            // 2026-03-02")
        OriginRole,         // CatalogVersionInfo::originText() of the version (of the recipe's version)
        ReleaseBindingRole, // "registry and validator catalog signed by AICR v0.19.0", or empty
    };
    enum class Kind { Version, Recipe };
    Q_ENUM(Kind)

    struct VersionEntry {
        store::CatalogVersionInfo info;
        std::vector<store::RecipeInfo> recipes;
    };

    explicit CatalogTreeModel(QObject* parent = nullptr);

    // Re-reads every version and its recipes, in version order newest first (catalog/VersionOrder.h:
    // semantic version, else source date; never import order), so the sample catalog comes last.
    Status reload(const store::CatalogStore& store);
    Status reload(db::Database& db) { return reload(store::CatalogStore(db)); }
    // Reads every version and its recipes on a worker of `workspace`, then shows them and calls
    // done(status) on this model's thread.
    Task reload(Workspace& workspace, std::function<void(const Status&)> done = {});
    // What reload() reads, on the caller's connection (a worker's).
    static Result<std::vector<VersionEntry>> readEntries(db::Database& db);
    static Result<std::vector<VersionEntry>> readEntries(const store::CatalogStore& store);
    void setEntries(std::vector<VersionEntry> entries);

    int versionCount() const { return static_cast<int>(m_versions.size()); }
    int recipeCount() const;

    const store::CatalogVersionInfo* versionAt(const QModelIndex& index) const; // either kind of row
    const store::RecipeInfo* recipeAt(const QModelIndex& index) const;          // recipe rows only
    const std::vector<store::RecipeInfo>* recipesOf(const QString& label) const;
    QModelIndex versionIndex(const QString& label) const;
    QModelIndex recipeIndex(const QString& label, const QString& recipeName) const;
    static Kind kindOf(const QModelIndex& index);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    // internalId: 0 for a version row, version row + 1 for a recipe row.
    std::vector<VersionEntry> m_versions;
};

// What the tree shows for a recipe: its name, plus the leaf overlay when the name alone does not
// say where it comes from ("recipe (monitoring-hpa)", "h100 (h100-any)").
QString displayName(const store::RecipeInfo& recipe);

// Where a version came from, in a few words for the tree: "sample data", "git tag v0.14.0 · 2026-03-02",
// "folder v0.14.0/recipes".
QString sourceHint(const store::CatalogVersionInfo& version);
// Everything about a version's origin, for tooltips: its label, counts, where it came from
// (originText), how it is placed in version order (orderBasis) and when it was imported.
QString versionTooltip(const store::CatalogVersionInfo& version);

// How a recipe's digest compares with the previous catalog version, for tooltips.
QString changeTooltip(const store::RecipeInfo& recipe);
// A small coloured dot for changed (amber) and new (green) recipes; a blank of the same size otherwise.
QIcon changeIcon(store::RecipeInfo::Change change);

// The recipes of one catalog version as a table: name, criteria, component count, digest.
class VersionRecipesModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        NameColumn,
        ServiceColumn,
        AcceleratorColumn,
        OsColumn,
        IntentColumn,
        PlatformColumn,
        ComponentsColumn,
        DigestColumn,
        ChangeColumn, // digest compared with the same recipe in the previous catalog version
        ColumnCount
    };

    explicit VersionRecipesModel(QObject* parent = nullptr);

    void setRecipes(std::vector<store::RecipeInfo> recipes);
    const store::RecipeInfo& recipeAt(int row) const { return m_rows[static_cast<size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<store::RecipeInfo> m_rows;
};

// Filter-as-you-type over the catalog tree: every whitespace-separated word must occur
// (case-insensitively) in a recipe's name or criteria values. A version stays visible while any
// recipe under it matches; a version whose label matches keeps all its recipes.
class RecipeFilterProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit RecipeFilterProxyModel(QObject* parent = nullptr);

    void setFilterText(const QString& text);
    QString filterText() const { return m_words.join(QLatin1Char(' ')); }

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

  private:
    bool matchesWords(const QString& haystack) const;
    QStringList m_words;
};

} // namespace pb::models
