// The Graph tab: the selected recipe's component graph laid out by Graphviz on a worker thread,
// with zoom, fit, export (SVG, PNG or DOT rendered by Graphviz) and a status line that names the
// selected component's dependencies and dependents.
#pragma once

#include "CatalogTreeModel.h"
#include "catalog/Resolver.h"
#include "graph/Layout.h"

#include <QWidget>

#include <optional>

class QLabel;
class QToolButton;
template <typename T> class QFutureWatcher;

namespace pb::models {
class Workspace;
}

namespace pb::widgets {

class GraphView;

class GraphPane : public QWidget {
    Q_OBJECT
  public:
    // Layout and export run on `workspace`'s workers.
    explicit GraphPane(models::Workspace& workspace, QWidget* parent = nullptr);
    ~GraphPane() override;

    // The recipe to draw. It is laid out when the pane is (or becomes) visible.
    void setRecipe(const models::RecipeInfo& info, const catalog::RecipeResult& recipe);
    // No recipe (loading, or it does not resolve).
    void showMessage(const QString& message);

    GraphView* view() const { return m_view; }
    // A layout for the current recipe is on screen.
    bool isReady() const { return m_ready; }
    const models::RecipeInfo& recipe() const { return m_info; }

  public slots:
    // Follows a selection made elsewhere (the components table). Emits nothing.
    void selectComponent(const QString& name);
    // Renders the recipe with Graphviz to `path` on a worker: SVG, PNG or DOT by the file's
    // suffix (SVG when it has none). False when there is no recipe; else exportFinished follows.
    bool exportGraph(const QString& path);
    // Asks for a file name, then exportGraph().
    void exportWithDialog();

  signals:
    // The user clicked a node ("" for the background).
    void componentClicked(const QString& name);
    // A new layout is on screen.
    void graphReady();
    void exportFinished(bool ok, const QString& path, const QString& message);

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    struct LayoutOutcome;
    void startLayout();
    void onLayoutFinished(const LayoutOutcome& outcome);
    void updateStatus();

    models::Workspace& m_workspace;
    models::RecipeInfo m_info;
    std::optional<catalog::RecipeResult> m_recipe;
    int m_generation = 0; // bumped on every new recipe
    int m_laidOutGeneration = -1;
    bool m_layoutRunning = false;
    bool m_ready = false;
    qint64 m_layoutMs = 0;
    QString m_wanted; // the component to select, also in a layout still to come

    GraphView* m_view = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_status = nullptr;
    QToolButton* m_zoomIn = nullptr;
    QToolButton* m_zoomOut = nullptr;
    QToolButton* m_fit = nullptr;
    QToolButton* m_export = nullptr;
    QString m_lastExportDir;
};

} // namespace pb::widgets
