#include "GraphPane.h"

#include "Workspace.h"

#include "GraphView.h"
#include "Plural.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QSaveFile>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

namespace pb::widgets {

struct GraphPane::LayoutOutcome {
    int generation = 0;
    std::optional<graph::ComponentGraph> graph;
    QString error;
    qint64 ms = 0;
};

namespace {

QToolButton* toolButton(const QString& text, const QString& objectName, const QString& tip, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setObjectName(objectName);
    b->setToolTip(tip);
    b->setAutoRaise(false);
    b->setMinimumWidth(30);
    return b;
}

QString formatFor(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return QStringLiteral("png");
    if (suffix == QLatin1String("dot") || suffix == QLatin1String("gv"))
        return QStringLiteral("dot");
    return QStringLiteral("svg");
}

QString coloured(const QColor& c, const QString& text) {
    return QStringLiteral("<span style='color:%1'>%2</span>").arg(c.name(), text);
}

} // namespace

GraphPane::GraphPane(models::Workspace& workspace, QWidget* parent)
    : QWidget(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("graphPane"));

    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("graphTitle"));
    m_title->setTextFormat(Qt::RichText);

    m_zoomOut =
        toolButton(QStringLiteral("−"), QStringLiteral("zoomOut"), tr("Zoom out (Ctrl+−, Ctrl+wheel)"), this);
    m_zoomIn =
        toolButton(QStringLiteral("+"), QStringLiteral("zoomIn"), tr("Zoom in (Ctrl++, Ctrl+wheel)"), this);
    m_fit = toolButton(tr("Fit"), QStringLiteral("zoomFit"), tr("Show the whole graph (Ctrl+0)"), this);
    m_export = toolButton(tr("Export…"), QStringLiteral("graphExport"),
                          tr("Save the graph as SVG, PNG or DOT, rendered by Graphviz"), this);
    m_zoomIn->setShortcut(QKeySequence::ZoomIn);
    m_zoomOut->setShortcut(QKeySequence::ZoomOut);
    m_fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));

    m_view = new GraphView(this);
    m_view->setObjectName(QStringLiteral("graphView"));
    m_view->setToolTip(QString());

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("graphStatus"));
    m_status->setTextFormat(Qt::RichText);
    m_status->setWordWrap(true);

    connect(m_zoomIn, &QToolButton::clicked, m_view, &GraphView::zoomIn);
    connect(m_zoomOut, &QToolButton::clicked, m_view, &GraphView::zoomOut);
    connect(m_fit, &QToolButton::clicked, m_view, &GraphView::fitGraph);
    connect(m_export, &QToolButton::clicked, this, &GraphPane::exportWithDialog);
    connect(m_view, &GraphView::nodeClicked, this, [this](const QString& name) {
        m_wanted = name;
        updateStatus();
        emit componentClicked(name);
    });

    auto* top = new QHBoxLayout;
    top->setSpacing(4);
    top->addWidget(m_title, 1);
    top->addWidget(m_zoomOut);
    top->addWidget(m_zoomIn);
    top->addWidget(m_fit);
    top->addSpacing(8);
    top->addWidget(m_export);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 6, 4);
    layout->setSpacing(6);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);

    showMessage(QString());
}

GraphPane::~GraphPane() = default;

void GraphPane::setRecipe(const models::RecipeInfo& info, const catalog::RecipeResult& recipe) {
    m_info = info;
    m_recipe = recipe;
    m_wanted.clear(); // the components table starts without a selection too
    ++m_generation;
    m_ready = false;
    m_title->setText(tr("<b>%1</b> <span style='color:gray'>· catalog %2 · laid out by Graphviz</span>")
                         .arg(info.name.toHtmlEscaped(), info.catalogLabel.toHtmlEscaped()));
    m_view->clearGraph(tr("Laying out…"));
    m_status->clear();
    for (QToolButton* b : {m_zoomIn, m_zoomOut, m_fit, m_export})
        b->setEnabled(true);
    if (isVisible())
        startLayout();
}

void GraphPane::showMessage(const QString& message) {
    m_info = {};
    m_recipe.reset();
    m_wanted.clear();
    ++m_generation;
    m_ready = false;
    m_title->setText(tr("<span style='color:gray'>Graph</span>"));
    m_view->clearGraph(message.isEmpty() ? tr("Select a recipe to see its component graph") : message);
    m_status->clear();
    for (QToolButton* b : {m_zoomIn, m_zoomOut, m_fit, m_export})
        b->setEnabled(false);
}

void GraphPane::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    startLayout();
}

void GraphPane::startLayout() {
    if (!m_recipe || m_laidOutGeneration == m_generation || m_layoutRunning)
        return;
    m_layoutRunning = true;
    // Graphviz takes 10–50 ms on a large recipe: off the GUI thread.
    auto layout = [recipe = *m_recipe,
                   generation = m_generation](const ops::Context&) -> Result<LayoutOutcome> {
        LayoutOutcome out;
        out.generation = generation;
        QElapsedTimer timer;
        timer.start();
        Result<graph::ComponentGraph> g = graph::layoutRecipe(recipe);
        out.ms = timer.elapsed();
        if (g)
            out.graph = std::move(*g);
        else
            out.error = g.error().toString();
        return out;
    };
    m_workspace.read<LayoutOutcome>(this, std::move(layout),
                                    [this, generation = m_generation](const Result<LayoutOutcome>& outcome) {
                                        m_layoutRunning = false;
                                        LayoutOutcome out;
                                        if (outcome) {
                                            out = *outcome;
                                        } else {
                                            out.generation = generation;
                                            out.error = outcome.error().toString();
                                        }
                                        onLayoutFinished(out);
                                    });
}

void GraphPane::onLayoutFinished(const LayoutOutcome& outcome) {
    if (outcome.generation != m_generation) { // the recipe changed meanwhile
        if (isVisible())
            startLayout();
        return;
    }
    m_laidOutGeneration = outcome.generation;
    if (!outcome.graph) {
        m_view->clearGraph(tr("Graphviz could not lay out this recipe:\n%1").arg(outcome.error));
        m_status->setText(coloured(QColor(0xB0, 0x00, 0x20), outcome.error.toHtmlEscaped()));
        return;
    }
    m_view->setGraph(*outcome.graph);
    m_view->selectNode(m_wanted);
    m_ready = true;
    m_layoutMs = outcome.ms;
    updateStatus();
    emit graphReady();
}

void GraphPane::selectComponent(const QString& name) {
    m_wanted = name;
    if (m_view->selectedNode() == name)
        return;
    m_view->selectNode(name);
    updateStatus();
}

void GraphPane::updateStatus() {
    if (!m_view->hasGraph()) {
        m_status->clear();
        return;
    }
    const graph::ComponentGraph& g = m_view->componentGraph();
    const QString selected = m_view->selectedNode();
    if (selected.isEmpty()) {
        const int disabled = m_recipe ? int(m_recipe->componentRefs.size()) - int(g.nodes.size()) : 0;
        QString text =
            tr("%1 · %2").arg(models::counted(int(g.nodes.size()), tr("component"), tr("components")),
                              models::counted(int(g.edges.size()), tr("dependency"), tr("dependencies")));
        if (disabled > 0)
            text += tr(" · %1 not drawn")
                        .arg(models::counted(disabled, tr("disabled component"), tr("disabled components")));
        text += tr(" · laid out in %1 ms").arg(m_layoutMs);
        text += QStringLiteral("<span style='color:gray'> — %1</span>")
                    .arg(tr("click a component to see what it depends on and what needs it; drag to pan, "
                            "Ctrl+wheel to zoom"));
        m_status->setText(text);
        return;
    }
    const QStringList deps = g.dependenciesOf(selected);
    const QStringList dependents = g.dependentsOf(selected);
    auto list = [](const QStringList& names) {
        return names.isEmpty() ? QObject::tr("nothing") : names.join(QStringLiteral(", ")).toHtmlEscaped();
    };
    m_status->setText(tr("<b>%1</b> depends on %2 · needed by %3")
                          .arg(selected.toHtmlEscaped(), coloured(QColor(0x00, 0x89, 0x7B), list(deps)),
                               coloured(QColor(0x8E, 0x24, 0xAA), list(dependents))));
}

bool GraphPane::exportGraph(const QString& path) {
    if (!m_recipe || path.isEmpty())
        return false;
    const QString format = formatFor(path);
    auto write = [recipe = *m_recipe, format, path](const ops::Context&) -> Result<QString> {
        Result<QByteArray> bytes = graph::render(recipe, format);
        if (!bytes)
            return bytes.error().toString();
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(*bytes) != bytes->size() || !file.commit())
            return QObject::tr("%1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return QString();
    };
    m_workspace.read<QString>(this, std::move(write), [this, path](const Result<QString>& result) {
        const QString error = result ? *result : result.error().toString();
        if (error.isEmpty())
            m_status->setText(tr("Exported to %1").arg(QDir::toNativeSeparators(path).toHtmlEscaped()));
        else
            m_status->setText(coloured(QColor(0xB0, 0x00, 0x20), error.toHtmlEscaped()));
        emit exportFinished(error.isEmpty(), path, error);
    });
    return true;
}

void GraphPane::exportWithDialog() {
    if (!m_recipe)
        return;
    if (m_lastExportDir.isEmpty())
        m_lastExportDir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString svg = tr("SVG image (*.svg)");
    const QString png = tr("PNG image (*.png)");
    const QString dot = tr("Graphviz DOT (*.dot)");
    QString filter = svg;
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export Graph"), QDir(m_lastExportDir).filePath(m_info.name + QStringLiteral(".svg")),
        QStringList{svg, png, dot}.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter == png   ? QStringLiteral(".png")
                : filter == dot ? QStringLiteral(".dot")
                                : QStringLiteral(".svg");
    m_lastExportDir = QFileInfo(path).absolutePath();
    exportGraph(path);
}

} // namespace pb::widgets
