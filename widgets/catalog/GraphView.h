// Draws a laid-out component graph (graph::ComponentGraph, positions and splines from Graphviz):
// rounded boxes with the component's name and version, edges as the cubic Béziers Graphviz
// computed, with arrowheads at the dependency. Zoom (Ctrl+wheel, zoomIn/zoomOut/fitGraph), pan by
// dragging, hover tooltips, and a selected node whose dependencies and dependents are highlighted
// while everything else is dimmed.
#pragma once

#include "graph/Layout.h"

#include <QColor>
#include <QGraphicsView>
#include <QPoint>

#include <map>

class QGraphicsSimpleTextItem;

namespace pb::widgets {

// How one node is drawn; the default style is used for nodes without one.
struct NodeStyle {
    QColor fill;
    QColor border;
    Qt::PenStyle borderStyle = Qt::SolidLine;
    QString note; // an extra tooltip line ("removed in sample-2")
};

class GraphView : public QGraphicsView {
    Q_OBJECT
  public:
    // QGraphicsItem::type() of the items this view creates.
    enum ItemType { NodeItemType = 0x10000 + 1, EdgeItemType = 0x10000 + 2 };
    // Item data key holding the component name (nodes) or "from->to" (edges).
    static constexpr int NameKey = 0;

    static constexpr double kMinZoom = 0.05;
    static constexpr double kMaxZoom = 8.0;

    explicit GraphView(QWidget* parent = nullptr);

    void setGraph(const graph::ComponentGraph& graph, const std::map<QString, NodeStyle>& styles = {});
    // No graph: an empty scene with `message` in the middle ("Laying out…", an error).
    void clearGraph(const QString& message = {});

    bool hasGraph() const { return m_hasGraph; }
    const graph::ComponentGraph& componentGraph() const { return m_graph; }
    QList<QGraphicsItem*> nodeItems() const;
    QList<QGraphicsItem*> edgeItems() const;
    QGraphicsItem* nodeItem(const QString& name) const;
    QString selectedNode() const { return m_selected; }
    double zoom() const;
    // Every node is inside the viewport at the current transform.
    bool graphFullyVisible() const;

  public slots:
    // Selects (and highlights) a node, or none for an empty or unknown name. Emits nothing:
    // nodeClicked is for the user's clicks only, so two views can follow each other without loops.
    void selectNode(const QString& name);
    void zoomIn();
    void zoomOut();
    // The whole graph in view (never magnified beyond 1.25×); keeps fitting on resize until the
    // user zooms.
    void fitGraph();

  signals:
    // The user clicked a node (its name) or the background (empty).
    void nodeClicked(const QString& name);
    void zoomChanged(double zoom);

  protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

  private:
    void zoomBy(double factor);
    void applyHighlight();

    graph::ComponentGraph m_graph;
    bool m_hasGraph = false;
    bool m_autoFit = true;
    QString m_selected;
    QPoint m_pressPos;
    bool m_pressed = false;
    std::map<QString, QGraphicsItem*> m_nodes;
    std::vector<QGraphicsItem*> m_edges;
};

} // namespace pb::widgets
