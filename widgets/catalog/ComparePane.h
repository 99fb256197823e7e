// The Compare tab: the selected recipe in two catalog versions (or against another recipe of the
// "to" version), as a components table with changed cells highlighted, a combined graph of both
// sides laid out by Graphviz (added green, removed red, version changed amber), the constraint and
// validation changes, and a summary of the two whole catalogs.
#pragma once

#include "CatalogTreeModel.h"
#include "catalog/Diff.h"
#include "graph/Layout.h"

#include <QWidget>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QHBoxLayout;
class QSplitter;
class QComboBox;
class QLabel;
class QTableView;
class QTimer;
class QToolButton;

namespace pb::models {
class Workspace;
class CatalogTreeModel;
class ComponentDiffModel;
class ConstraintDiffModel;
class ValidationDiffModel;
} // namespace pb::models

namespace pb::widgets {

class GraphView;
struct NodeStyle;

// The union of two recipes for one combined graph: `to` plus the components deployed in `from`
// but not in `to` (with their dependencies among the union), and version labels reading
// "old → new" where the chart version changed, so Graphviz sizes the boxes for them.
catalog::RecipeResult unionRecipe(const catalog::RecipeResult& from, const catalog::RecipeResult& to,
                                  const catalog::RecipeDiff& diff);
// Node colours of the combined graph.
std::map<QString, NodeStyle> compareStyles(const catalog::RecipeDiff& diff);

class ComparePane : public QWidget {
    Q_OBJECT
  public:
    // Returns a version's loaded catalog, or nullptr after starting to load it (catalogLoaded()
    // follows).
    using CatalogSource = std::function<std::shared_ptr<const catalog::Catalog>(const QString& label)>;

    // Resolving and diffing run on `workspace`'s workers.
    ComparePane(models::Workspace& workspace, models::CatalogTreeModel* versions, CatalogSource source,
                QWidget* parent = nullptr);
    ~ComparePane() override;

    // The recipe selected in the main window: the comparison follows it. A recipe of another
    // version resets the pickers to the version before it in version order (never import order)
    // → that version; the first version compares with the next. The pickers list every version
    // newest first with its origin in the tooltip and "(sample data)" for the sample catalog.
    void setRecipe(const models::RecipeInfo& info);
    void clear(const QString& message = {});
    // A catalog finished loading (error empty) or failed.
    void catalogLoaded(const QString& label, const QString& error = {});

    // The tables and the graph show the comparison the pickers ask for.
    bool isUpToDate() const;
    const catalog::RecipeDiff* recipeDiff() const { return m_diff ? &*m_diff : nullptr; }
    const catalog::CatalogDiff* catalogDiff() const;
    models::ComponentDiffModel* componentsModel() const { return m_componentsModel; }
    models::ConstraintDiffModel* constraintsModel() const { return m_constraintsModel; }
    QString fromVersion() const { return fromLabel(); }
    QString toVersion() const { return toLabel(); }
    models::ValidationDiffModel* checksModel() const { return m_checksModel; }
    GraphView* graphView() const { return m_graph; }

  signals:
    // The recipe comparison for the current pickers is on screen.
    void compareUpdated();
    // The catalog summary for the current pair of versions is on screen.
    void catalogSummaryUpdated();

  protected:
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    QHBoxLayout* buildPickers();
    QSplitter* buildBody();
    void connectSignals();
    struct RecipeOutcome;
    struct CatalogOutcome;

    void reloadVersions();
    void fillToRecipes();
    void scheduleUpdate();
    void refresh();
    void startCatalogDiff(const QString& from, const QString& to,
                          std::shared_ptr<const catalog::Catalog> fromCat,
                          std::shared_ptr<const catalog::Catalog> toCat);
    void onRecipeOutcome(const RecipeOutcome& outcome);
    void showCatalogSummary();
    void showRecipeSummary();
    void fitAllColumns();
    void setBusyText(const QString& text);
    QString fromLabel() const;
    QString toLabel() const;
    QString toRecipeName() const;
    const models::RecipeInfo* findRecipe(const QString& label, const QString& name) const;
    bool isSampleLabel(const QString& label) const;
    static constexpr int SampleRole = Qt::UserRole + 1; // picker items: the version is sample data

    models::CatalogTreeModel* m_versions = nullptr;
    CatalogSource m_source;
    models::Workspace& m_workspace;
    QStringList m_order;                               // version labels, oldest first, in version order
    std::vector<models::CatalogVersionInfo> m_ordered; // the same versions

    models::RecipeInfo m_info; // the recipe selected in the main window
    bool m_hasRecipe = false;
    bool m_dirty = false;
    int m_generation = 0;
    int m_shownGeneration = -1;
    QString m_shownKey; // from|to|recipe|toRecipe of what is on screen
    std::optional<catalog::RecipeDiff> m_diff;
    std::map<QString, std::shared_ptr<const catalog::CatalogDiff>> m_catalogDiffs; // "from\nto"
    std::map<QString, bool> m_catalogDiffRunning;
    std::map<QString, QString> m_catalogErrors;

    QComboBox* m_from = nullptr;
    QComboBox* m_to = nullptr;
    QComboBox* m_toRecipe = nullptr;
    QToolButton* m_swap = nullptr;
    QCheckBox* m_changesOnly = nullptr;
    QCheckBox* m_hideVersionOnly = nullptr;
    QLabel* m_recipeSummary = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_legend = nullptr;
    QToolButton* m_fit = nullptr;
    QTableView* m_componentsView = nullptr;
    QTableView* m_constraintsView = nullptr;
    QTableView* m_checksView = nullptr;
    GraphView* m_graph = nullptr;
    models::ComponentDiffModel* m_componentsModel = nullptr;
    models::ConstraintDiffModel* m_constraintsModel = nullptr;
    models::ValidationDiffModel* m_checksModel = nullptr;
    QTimer* m_updateTimer = nullptr;
    bool m_syncing = false;
};

} // namespace pb::widgets
