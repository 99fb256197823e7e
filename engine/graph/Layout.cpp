#include "graph/Layout.h"

#include <gvc.h>

#include <QJsonArray>
#include <QMutex>
#include <QMutexLocker>

#include <memory>

namespace pb::graph {

namespace {

// Graphviz keeps global state (error handlers, the layout engines' statics): one layout at a
// time, process-wide.
QMutex& graphvizLock() {
    static QMutex m;
    return m;
}

QByteArray quoted(const QString& s) {
    QByteArray out = "\"";
    for (const char c : s.toUtf8()) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + '"';
}

// DOT for the recipe: an edge runs from each dependency to its dependent so that `dot` puts
// dependencies on earlier ranks; dir=back draws the arrow at the dependency, reading "depends on".
QByteArray dotFor(const catalog::RecipeResult& recipe) {
    QByteArray dot = "digraph recipe {\n"
                     "  graph [rankdir=TB, nodesep=0.35, ranksep=0.55, fontname=\"DejaVu Sans\"];\n"
                     "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f6fb\", color=\"#5b6b8c\", "
                     "fontname=\"DejaVu Sans\", fontsize=11, margin=\"0.15,0.06\"];\n"
                     "  edge [dir=back, color=\"#7a869a\", arrowsize=0.7];\n";
    for (const QString& name : recipe.deploymentOrder) {
        const catalog::ComponentRef* c = recipe.component(name);
        const QString version = c && !c->version.isEmpty() ? c->version : (c ? c->tag : QString());
        dot += "  " + quoted(name) +
               " [label=" + quoted(version.isEmpty() ? name : name + QLatin1Char('\n') + version) + "];\n";
    }
    for (const QString& name : recipe.deploymentOrder) {
        const catalog::ComponentRef* c = recipe.component(name);
        for (const QString& dep : c->dependencyRefs)
            if (recipe.deploymentOrder.contains(dep))
                dot += "  " + quoted(dep) + " -> " + quoted(name) + ";\n";
    }
    dot += "}\n";
    return dot;
}

struct GraphDeleter {
    GVC_t* gvc;
    void operator()(Agraph_t* g) const {
        gvFreeLayout(gvc, g);
        agclose(g);
    }
};

struct ContextDeleter {
    void operator()(GVC_t* c) const { gvFreeContext(c); }
};

GVC_t* context() {
    // One context for the process (plugins are loaded once), used under the lock.
    static std::unique_ptr<GVC_t, ContextDeleter> gvc(gvContext());
    return gvc.get();
}

Result<std::unique_ptr<Agraph_t, GraphDeleter>> laidOut(const QByteArray& dot) {
    GVC_t* gvc = context();
    if (!gvc)
        return makeError(QStringLiteral("Graphviz could not start (no plugins?)"));
    Agraph_t* g = agmemread(dot.constData());
    if (!g)
        return makeError(QStringLiteral("Graphviz could not read the generated graph"));
    std::unique_ptr<Agraph_t, GraphDeleter> graph(g, GraphDeleter{gvc});
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(graph.release());
        return makeError(QStringLiteral("Graphviz dot layout failed"));
    }
    return graph;
}

} // namespace

const GraphNode* ComponentGraph::node(const QString& name) const {
    for (const GraphNode& n : nodes)
        if (n.name == name)
            return &n;
    return nullptr;
}

QStringList ComponentGraph::dependenciesOf(const QString& name) const {
    QStringList out;
    for (const GraphEdge& e : edges)
        if (e.from == name)
            out << e.to;
    return out;
}

QStringList ComponentGraph::dependentsOf(const QString& name) const {
    QStringList out;
    for (const GraphEdge& e : edges)
        if (e.to == name)
            out << e.from;
    return out;
}

Result<ComponentGraph> layoutRecipe(const catalog::RecipeResult& recipe) {
    ComponentGraph out;
    out.dotSource = dotFor(recipe);
    if (recipe.deploymentOrder.isEmpty())
        return out;
    QMutexLocker lock(&graphvizLock());
    auto graph = laidOut(out.dotSource);
    if (!graph)
        return graph.error();
    Agraph_t* g = graph->get();
    const boxf bb = GD_bb(g);
    // Graphviz: points, y up, origin bottom-left. Ours: points, y down, origin top-left.
    auto toScene = [&](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
    out.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    int index = 0;
    for (const QString& name : recipe.deploymentOrder) {
        const catalog::ComponentRef* c = recipe.component(name);
        QByteArray key = name.toUtf8();
        Agnode_t* n = agnode(g, key.data(), 0);
        if (!n)
            return makeError(QStringLiteral("Graphviz lost node '%1'").arg(name));
        GraphNode gn;
        gn.name = name;
        gn.chart = c->chart;
        gn.version = c->version.isEmpty() ? c->tag : c->version;
        gn.namespace_ = c->namespace_;
        gn.type = c->type;
        gn.source = c->source;
        gn.hasPreManifests = !c->preManifestFiles.isEmpty();
        gn.hasPostManifests = !c->manifestFiles.isEmpty();
        gn.deploymentIndex = index++;
        gn.center = toScene(ND_coord(n));
        gn.width = ND_width(n) * 72.0; // inches -> points
        gn.height = ND_height(n) * 72.0;
        out.nodes.push_back(gn);
    }
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
        for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
            GraphEdge ge;
            ge.to = QString::fromUtf8(agnameof(agtail(e)));   // the dependency
            ge.from = QString::fromUtf8(agnameof(aghead(e))); // the dependent
            if (const splines* spl = ED_spl(e); spl && spl->size > 0) {
                const bezier& bz = spl->list[0];
                for (int i = bz.size - 1; i >= 0; --i) // from the dependent to the dependency
                    ge.points.push_back(toScene(bz.list[i]));
                if (bz.sflag)
                    ge.arrowTip = toScene(bz.sp);
            }
            out.edges.push_back(std::move(ge));
        }
    }
    return out;
}

QJsonObject toJson(const ComponentGraph& graph) {
    QJsonArray nodes, edges;
    for (const GraphNode& n : graph.nodes)
        nodes.append(QJsonObject{{QStringLiteral("name"), n.name},
                                 {QStringLiteral("version"), n.version},
                                 {QStringLiteral("chart"), n.chart},
                                 {QStringLiteral("namespace"), n.namespace_},
                                 {QStringLiteral("type"), n.type},
                                 {QStringLiteral("x"), n.center.x()},
                                 {QStringLiteral("y"), n.center.y()},
                                 {QStringLiteral("width"), n.width},
                                 {QStringLiteral("height"), n.height}});
    for (const GraphEdge& e : graph.edges) {
        QJsonArray pts;
        for (const QPointF& p : e.points)
            pts.append(QJsonArray{p.x(), p.y()});
        edges.append(QJsonObject{
            {QStringLiteral("from"), e.from}, {QStringLiteral("to"), e.to}, {QStringLiteral("points"), pts}});
    }
    return QJsonObject{{QStringLiteral("nodes"), nodes},
                       {QStringLiteral("edges"), edges},
                       {QStringLiteral("width"), graph.bounds.width()},
                       {QStringLiteral("height"), graph.bounds.height()}};
}

Result<QByteArray> render(const catalog::RecipeResult& recipe, const QString& format) {
    static const QStringList formats = {QStringLiteral("dot"), QStringLiteral("svg"), QStringLiteral("png")};
    if (!formats.contains(format))
        return makeError(
            QStringLiteral("unknown graph format '%1' (expected dot, svg, png or json)").arg(format));
    QMutexLocker lock(&graphvizLock());
    auto graph = laidOut(dotFor(recipe));
    if (!graph)
        return graph.error();
    char* data = nullptr;
    unsigned int length = 0;
    const QByteArray fmt = format.toLatin1();
    if (gvRenderData(context(), graph->get(), fmt.constData(), &data, &length) != 0 || !data)
        return makeError(QStringLiteral("Graphviz could not render %1").arg(format));
    QByteArray out(data, static_cast<qsizetype>(length));
    gvFreeRenderData(data);
    return out;
}

} // namespace pb::graph
