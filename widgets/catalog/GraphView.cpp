#include "GraphView.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace pb::widgets {

namespace {

enum class Mark { Normal, Selected, Dependency, Dependent, Dimmed };

// Highlight colours: the selected node, what it depends on, what depends on it.
QColor selectedColor() {
    return QColor(0x15, 0x65, 0xC0);
}
QColor dependencyColor() {
    return QColor(0x00, 0x89, 0x7B);
}
QColor dependentColor() {
    return QColor(0x8E, 0x24, 0xAA);
}
constexpr double kDimmed = 0.22;

// Scene units are Graphviz points; fonts are sized in the same units (pixel size = points) so the
// labels fill the boxes Graphviz sized for its 11 pt labels.
QFont labelFont(int size, bool bold) {
    QFont f = QApplication::font();
    f.setPixelSize(size);
    f.setBold(bold);
    return f;
}

class NodeItem : public QGraphicsItem {
  public:
    NodeItem(const graph::GraphNode& node, const NodeStyle& style)
        : m_name(node.name), m_version(node.version), m_style(style),
          m_rect(-node.width / 2, -node.height / 2, node.width, node.height) {
        setPos(node.center);
        setData(GraphView::NameKey, node.name);
        setAcceptHoverEvents(true);
        setCursor(Qt::PointingHandCursor);
        setZValue(1);
    }

    int type() const override { return GraphView::NodeItemType; }
    QRectF boundingRect() const override { return m_rect.adjusted(-3, -3, 3, 3); }

    void setMark(Mark m) {
        if (m == m_mark)
            return;
        m_mark = m;
        setOpacity(m == Mark::Dimmed ? kDimmed : 1.0);
        update();
    }

    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        QColor border = m_style.border;
        double width = 1.2;
        switch (m_mark) {
        case Mark::Selected:
            border = selectedColor();
            width = 3.2;
            break;
        case Mark::Dependency:
            border = dependencyColor();
            width = 2.6;
            break;
        case Mark::Dependent:
            border = dependentColor();
            width = 2.6;
            break;
        case Mark::Normal:
        case Mark::Dimmed:
            break;
        }
        p->setRenderHint(QPainter::Antialiasing);
        QPen pen(border, width,
                 m_mark == Mark::Normal || m_mark == Mark::Dimmed ? m_style.borderStyle : Qt::SolidLine);
        p->setPen(pen);
        p->setBrush(m_style.fill);
        p->drawRoundedRect(m_rect, 7, 7);

        const QFont nameFont = labelFont(11, true);
        const QFont versionFont = labelFont(10, false);
        const QFontMetricsF nfm(nameFont), vfm(versionFont);
        const bool twoLines = !m_version.isEmpty();
        const double total = nfm.height() + (twoLines ? vfm.height() : 0);
        double y = -total / 2;
        const double avail = m_rect.width() - 8;
        auto line = [&](const QString& text, const QFont& font, const QFontMetricsF& fm,
                        const QColor& color) {
            const double w = fm.horizontalAdvance(text);
            const double s = w > avail ? avail / w : 1.0; // shrink rather than spill out of the box
            p->save();
            p->translate(0, y + fm.height() / 2);
            p->scale(s, s);
            p->setFont(font);
            p->setPen(color);
            p->drawText(QRectF(-w / 2, -fm.height() / 2, w, fm.height()), Qt::AlignCenter, text);
            p->restore();
            y += fm.height();
        };
        line(m_name, nameFont, nfm, QColor(0x1A, 0x1A, 0x1A));
        if (twoLines)
            line(m_version, versionFont, vfm, QColor(0x4A, 0x4A, 0x4A));
    }

  private:
    QString m_name, m_version;
    NodeStyle m_style;
    QRectF m_rect;
    Mark m_mark = Mark::Normal;
};

class EdgeItem : public QGraphicsItem {
  public:
    explicit EdgeItem(const graph::GraphEdge& edge) {
        setData(GraphView::NameKey, edge.from + QStringLiteral("->") + edge.to);
        if (edge.points.empty())
            return;
        m_path.moveTo(edge.points.front());
        for (size_t i = 1; i + 2 < edge.points.size(); i += 3)
            m_path.cubicTo(edge.points[i], edge.points[i + 1], edge.points[i + 2]);
        // The arrowhead points at the dependency: from the spline's end to Graphviz's arrow tip,
        // or along the last tangent when Graphviz drew none.
        QPointF tip, base;
        if (edge.arrowTip) {
            tip = *edge.arrowTip;
            base = edge.points.back();
        } else {
            tip = edge.points.back();
            const QPointF prev = edge.points.size() > 1 ? edge.points[edge.points.size() - 2] : tip;
            QPointF d = tip - prev;
            const double len = std::hypot(d.x(), d.y());
            d = len > 0 ? d / len : QPointF(0, 1);
            base = tip - d * 7.0;
        }
        const QPointF u = tip - base;
        const QPointF v(-u.y() * 0.42, u.x() * 0.42);
        m_arrow = QPolygonF({tip, base + v, base - v});
        setZValue(0);
    }

    int type() const override { return GraphView::EdgeItemType; }
    QRectF boundingRect() const override {
        return m_path.boundingRect().united(m_arrow.boundingRect()).adjusted(-3, -3, 3, 3);
    }

    void setMark(Mark m) {
        if (m == m_mark)
            return;
        m_mark = m;
        setOpacity(m == Mark::Dimmed ? kDimmed : 1.0);
        setZValue(m == Mark::Dependency || m == Mark::Dependent ? 0.5 : 0);
        update();
    }

    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        QColor color(0x7A, 0x86, 0x9A);
        double width = 1.1;
        if (m_mark == Mark::Dependency || m_mark == Mark::Dependent) {
            color = m_mark == Mark::Dependency ? dependencyColor() : dependentColor();
            width = 2.2;
        }
        p->setRenderHint(QPainter::Antialiasing);
        p->setPen(QPen(color, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p->setBrush(Qt::NoBrush);
        p->drawPath(m_path);
        p->setPen(QPen(color, 0.8));
        p->setBrush(color);
        p->drawPolygon(m_arrow);
    }

  private:
    QPainterPath m_path;
    QPolygonF m_arrow;
    Mark m_mark = Mark::Normal;
};

QString nodeTooltip(const graph::GraphNode& n, const graph::ComponentGraph& g, const NodeStyle& style) {
    QStringList lines{QStringLiteral("<b>%1</b> %2").arg(n.name.toHtmlEscaped(), n.version.toHtmlEscaped())};
    auto row = [&](const QString& label, const QString& value) {
        if (!value.isEmpty())
            lines
                << QStringLiteral("<span style='color:gray'>%1</span> %2").arg(label, value.toHtmlEscaped());
    };
    if (!style.note.isEmpty())
        lines << QStringLiteral("<i>%1</i>").arg(style.note.toHtmlEscaped());
    row(QObject::tr("chart"), n.chart);
    row(QObject::tr("namespace"), n.namespace_);
    row(QObject::tr("source"), n.source);
    row(QObject::tr("type"), n.type);
    row(QObject::tr("deployed"), QObject::tr("#%1 in the deployment order").arg(n.deploymentIndex + 1));
    QStringList manifests;
    if (n.hasPreManifests)
        manifests << QObject::tr("before the chart");
    if (n.hasPostManifests)
        manifests << QObject::tr("after the chart");
    row(QObject::tr("manifests"), manifests.join(QStringLiteral(", ")));
    row(QObject::tr("depends on"), g.dependenciesOf(n.name).join(QStringLiteral(", ")));
    row(QObject::tr("needed by"), g.dependentsOf(n.name).join(QStringLiteral(", ")));
    return lines.join(QStringLiteral("<br>"));
}

} // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent) {
    setScene(new QGraphicsScene(this));
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setAlignment(Qt::AlignCenter);
    setFocusPolicy(Qt::StrongFocus);
    setBackgroundBrush(QColor(0xFF, 0xFF, 0xFF));
    setToolTip(QString()); // item tooltips only
}

void GraphView::clearGraph(const QString& message) {
    scene()->clear();
    m_nodes.clear();
    m_edges.clear();
    m_graph = {};
    m_hasGraph = false;
    m_selected.clear();
    resetTransform();
    if (!message.isEmpty()) {
        auto* text = scene()->addSimpleText(message);
        text->setBrush(QColor(0x80, 0x80, 0x80));
        const QRectF r = text->boundingRect();
        text->setPos(-r.width() / 2, -r.height() / 2);
    }
    scene()->setSceneRect(scene()->itemsBoundingRect().adjusted(-20, -20, 20, 20));
}

void GraphView::setGraph(const graph::ComponentGraph& g, const std::map<QString, NodeStyle>& styles) {
    const QString keep = m_selected;
    clearGraph();
    m_graph = g;
    m_hasGraph = true;
    const NodeStyle plain{QColor(0xF4, 0xF6, 0xFB), QColor(0x5B, 0x6B, 0x8C), Qt::SolidLine, {}};
    for (const graph::GraphNode& n : m_graph.nodes) {
        const auto s = styles.find(n.name);
        const NodeStyle& style = s != styles.end() ? s->second : plain;
        auto* item = new NodeItem(n, style);
        item->setToolTip(nodeTooltip(n, m_graph, style));
        scene()->addItem(item);
        m_nodes[n.name] = item;
    }
    for (const graph::GraphEdge& e : m_graph.edges) {
        auto* item = new EdgeItem(e);
        scene()->addItem(item);
        m_edges.push_back(item);
    }
    scene()->setSceneRect(m_graph.bounds.united(scene()->itemsBoundingRect()).adjusted(-16, -16, 16, 16));
    m_selected = m_nodes.count(keep) ? keep : QString();
    applyHighlight();
    fitGraph();
}

QList<QGraphicsItem*> GraphView::nodeItems() const {
    QList<QGraphicsItem*> out;
    for (const auto& [name, item] : m_nodes)
        out << item;
    return out;
}

QList<QGraphicsItem*> GraphView::edgeItems() const {
    return QList<QGraphicsItem*>(m_edges.begin(), m_edges.end());
}

QGraphicsItem* GraphView::nodeItem(const QString& name) const {
    const auto it = m_nodes.find(name);
    return it == m_nodes.end() ? nullptr : it->second;
}

double GraphView::zoom() const {
    return transform().m11();
}

bool GraphView::graphFullyVisible() const {
    if (!m_hasGraph)
        return true;
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect().adjusted(-1, -1, 1, 1);
    return visible.contains(m_graph.bounds);
}

void GraphView::selectNode(const QString& name) {
    const QString n = m_nodes.count(name) ? name : QString();
    if (n == m_selected)
        return;
    m_selected = n;
    applyHighlight();
    if (QGraphicsItem* item = nodeItem(n))
        ensureVisible(item, 30, 30);
}

void GraphView::applyHighlight() {
    if (m_selected.isEmpty()) {
        for (auto& [name, item] : m_nodes)
            static_cast<NodeItem*>(item)->setMark(Mark::Normal);
        for (QGraphicsItem* e : m_edges)
            static_cast<EdgeItem*>(e)->setMark(Mark::Normal);
        return;
    }
    const QStringList deps = m_graph.dependenciesOf(m_selected);
    const QStringList dependents = m_graph.dependentsOf(m_selected);
    for (auto& [name, item] : m_nodes) {
        Mark m = Mark::Dimmed;
        if (name == m_selected)
            m = Mark::Selected;
        else if (deps.contains(name))
            m = Mark::Dependency;
        else if (dependents.contains(name))
            m = Mark::Dependent;
        static_cast<NodeItem*>(item)->setMark(m);
    }
    for (size_t i = 0; i < m_edges.size() && i < m_graph.edges.size(); ++i) {
        const graph::GraphEdge& e = m_graph.edges[i];
        Mark m = Mark::Dimmed;
        if (e.from == m_selected)
            m = Mark::Dependency;
        else if (e.to == m_selected)
            m = Mark::Dependent;
        static_cast<EdgeItem*>(m_edges[i])->setMark(m);
    }
}

void GraphView::zoomIn() {
    zoomBy(1.25);
}

void GraphView::zoomOut() {
    zoomBy(1 / 1.25);
}

void GraphView::zoomBy(double factor) {
    const double current = zoom();
    const double target = std::clamp(current * factor, kMinZoom, kMaxZoom);
    if (current <= 0 || std::abs(target - current) < 1e-9)
        return;
    scale(target / current, target / current);
    m_autoFit = false;
    emit zoomChanged(zoom());
}

void GraphView::fitGraph() {
    m_autoFit = true;
    const QRectF r = sceneRect();
    if (r.isEmpty() || viewport()->width() < 4 || viewport()->height() < 4)
        return;
    resetTransform();
    fitInView(r, Qt::KeepAspectRatio);
    if (zoom() > 1.25) {
        resetTransform();
        scale(1.25, 1.25);
    }
    centerOn(r.center());
    emit zoomChanged(zoom());
}

void GraphView::wheelEvent(QWheelEvent* event) {
    if (!(event->modifiers() & Qt::ControlModifier)) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    const int delta = event->angleDelta().y();
    if (delta != 0) {
        const ViewportAnchor anchor = transformationAnchor();
        setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
        zoomBy(std::pow(1.2, delta / 120.0));
        setTransformationAnchor(anchor);
    }
    event->accept();
}

void GraphView::mousePressEvent(QMouseEvent* event) {
    m_pressed = event->button() == Qt::LeftButton;
    m_pressPos = event->position().toPoint();
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseReleaseEvent(QMouseEvent* event) {
    QGraphicsView::mouseReleaseEvent(event);
    if (!m_pressed || event->button() != Qt::LeftButton)
        return;
    m_pressed = false;
    const QPoint pos = event->position().toPoint();
    if ((pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance())
        return; // a pan, not a click
    QString name;
    for (QGraphicsItem* item : items(pos))
        if (item->type() == NodeItemType) {
            name = item->data(NameKey).toString();
            break;
        }
    selectNode(name);
    emit nodeClicked(name);
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    if (m_autoFit)
        fitGraph();
}

void GraphView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        return;
    case Qt::Key_Minus:
        zoomOut();
        return;
    case Qt::Key_0:
        fitGraph();
        return;
    case Qt::Key_Escape:
        if (!m_selected.isEmpty()) {
            selectNode(QString());
            emit nodeClicked(QString());
            return;
        }
        break;
    default:
        break;
    }
    QGraphicsView::keyPressEvent(event);
}

} // namespace pb::widgets
