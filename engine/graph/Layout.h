// The component graph of a resolved recipe, laid out by Graphviz (libgvc + cgraph, the `dot`
// engine). Nodes are the enabled components; an edge joins a component to each component it
// depends on. Positions, sizes and edge splines all come from Graphviz.
#pragma once

#include "catalog/Resolver.h"
#include "core/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace pb::graph {

struct GraphNode {
    QString name, chart, version, namespace_, type, source;
    bool hasPreManifests = false;
    bool hasPostManifests = false; // manifestFiles (applied after the chart)
    int deploymentIndex = 0;       // position in deploymentOrder
    // Layout, in points (1/72 in), y growing downwards, origin at the top-left of the drawing.
    QPointF center;
    double width = 0, height = 0;
    QRectF rect() const { return {center.x() - width / 2, center.y() - height / 2, width, height}; }
};

struct GraphEdge {
    QString from; // the dependent component
    QString to;   // the component it depends on
    // Spline control points (cubic Bézier, 3n+1 points) from `from` to `to`, same coordinates as nodes.
    std::vector<QPointF> points;
    std::optional<QPointF> arrowTip; // where the arrowhead ends, when Graphviz draws one
};

struct ComponentGraph {
    std::vector<GraphNode> nodes; // in deploymentOrder
    std::vector<GraphEdge> edges;
    QRectF bounds;        // the drawing's bounding box
    QByteArray dotSource; // the graph as handed to Graphviz (before layout)

    const GraphNode* node(const QString& name) const;
    QStringList dependenciesOf(const QString& name) const; // direct
    QStringList dependentsOf(const QString& name) const;   // direct
};

// Builds and lays out the graph of `recipe` (enabled components only).
Result<ComponentGraph> layoutRecipe(const catalog::RecipeResult& recipe);

// The stable JSON form: {"nodes": [{name, version, x, y, width, height}], "edges": [{from, to, points}]}
// with x/y the node centre; edges point from the dependent to its dependency.
QJsonObject toJson(const ComponentGraph& graph);

// Renders the laid-out graph with Graphviz's own renderers: "dot" (attributed DOT), "svg", "png".
Result<QByteArray> render(const catalog::RecipeResult& recipe, const QString& format);

} // namespace pb::graph
