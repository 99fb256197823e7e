// The Graph and Compare tabs of the real MainWindow on a temp database seeded with the embedded
// catalog: the graph's nodes and edges against the resolved recipe, zoom, selection both ways
// between the graph and the components table, export, and the compare pickers.
#include "CatalogTreeModel.h"
#include "ComparePane.h"
#include "DiffModels.h"
#include "GraphPane.h"
#include "GraphView.h"
#include "GuiTestUtil.h"
#include "MainWindow.h"
#include "RecipeModels.h"
#include "RecipeView.h"
#include "catalog/Resolver.h"

#include <QBrush>
#include <QCheckBox>
#include <QComboBox>
#include <QGraphicsItem>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

using namespace pb;
using catalog::Change;
using models::ComponentDiffModel;
using widgets::GraphView;
using widgets::MainWindow;

namespace {

constexpr int kTimeout = 30000;
const QString kRecipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");

QSet<QString> namesOf(const QList<QGraphicsItem*>& items) {
    QSet<QString> out;
    for (QGraphicsItem* i : items)
        out.insert(i->data(GraphView::NameKey).toString());
    return out;
}

QSet<QString> deployed(const catalog::RecipeResult& r) {
    return QSet<QString>(r.deploymentOrder.begin(), r.deploymentOrder.end());
}

int dependencyCount(const catalog::RecipeResult& r) {
    int n = 0;
    for (const QString& name : r.deploymentOrder)
        for (const QString& dep : r.component(name)->dependencyRefs)
            n += r.deploymentOrder.contains(dep) ? 1 : 0;
    return n;
}

QPoint centerOf(GraphView* view, QGraphicsItem* item) {
    return view->mapFromScene(item->sceneBoundingRect().center());
}

} // namespace

class TestGraphCompare : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void init();
    void cleanup();

    void graphMatchesRecipe();
    void zoomAndFit();
    void selectionFollowsBothWays();
    void exportSvgAndPng();
    void graphFollowsTreeSelection();
    void comparePickers();
    void compareOtherRecipeAndSummary();
    void compareFollowsTreeSelection();

  private:
    template <typename T> T* find(const char* name) { return pbgui::findNamed<T>(m_window.get(), name); }
    bool openRecipe(const QString& label, const QString& recipe);
    bool showGraph();
    bool showCompare();
    catalog::RecipeResult resolved(const QString& label, const QString& recipe);
    int rowOf(QAbstractItemModel* model, const QString& name);

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<MainWindow> m_window;
};

void TestGraphCompare::initTestCase() {
    QLocale::setDefault(QLocale::c());
}

void TestGraphCompare::init() {
    const QString error = pbgui::openWindow(m_db, m_window);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestGraphCompare::cleanup() {
    pbgui::closeWindow(m_db, m_window);
}

bool TestGraphCompare::openRecipe(const QString& label, const QString& recipe) {
    if (!m_window->selectRecipe(label, recipe))
        return false;
    widgets::RecipeView* view = m_window->recipeView();
    return QTest::qWaitFor(
        [&] {
            return view->hasResult() && view->recipe().catalogLabel == label && view->recipe().name == recipe;
        },
        kTimeout);
}

bool TestGraphCompare::showGraph() {
    m_window->recipeTabs()->setCurrentWidget(m_window->graphPane());
    return QTest::qWaitFor([&] { return m_window->graphPane()->isReady(); }, kTimeout);
}

bool TestGraphCompare::showCompare() {
    m_window->recipeTabs()->setCurrentWidget(m_window->comparePane());
    return QTest::qWaitFor(
        [&] { return m_window->comparePane()->isUpToDate() && m_window->comparePane()->recipeDiff(); },
        kTimeout);
}

catalog::RecipeResult TestGraphCompare::resolved(const QString& label, const QString& recipe) {
    std::shared_ptr<const catalog::Catalog> cat = m_window->cachedCatalog(label);
    if (!cat)
        qFatal("catalog %s not loaded", qPrintable(label));
    const std::vector<store::RecipeInfo>* recipes = m_window->catalogModel()->recipesOf(label);
    for (const store::RecipeInfo& r : *recipes) {
        if (r.name != recipe)
            continue;
        Result<catalog::RecipeResult> res = store::resolveStoredRecipe(*cat, r.leafOverlay);
        if (!res)
            qFatal("%s", qPrintable(res.error().toString()));
        return *res;
    }
    qFatal("no recipe %s in %s", qPrintable(recipe), qPrintable(label));
}

int TestGraphCompare::rowOf(QAbstractItemModel* model, const QString& name) {
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, 1).data(models::ComponentsModel::ComponentNameRole).toString() == name ||
            model->index(r, 0).data(models::NameRole).toString() == name)
            return r;
    return -1;
}

void TestGraphCompare::graphMatchesRecipe() {
    QVERIFY(openRecipe(QStringLiteral("sample-2"), kRecipe));
    QVERIFY(showGraph());
    auto* view = find<GraphView>("graphView");
    QVERIFY(view && view->isVisible());
    QCOMPARE(view, m_window->graphPane()->view());

    // One node per enabled component, one edge per dependency between them.
    const catalog::RecipeResult r = resolved(QStringLiteral("sample-2"), kRecipe);
    QCOMPARE(view->nodeItems().size(), r.deploymentOrder.size());
    QCOMPARE(namesOf(view->nodeItems()), deployed(r));
    QCOMPARE(view->edgeItems().size(), dependencyCount(r));
    int nodes = 0, edges = 0;
    for (QGraphicsItem* item : view->scene()->items()) {
        nodes += item->type() == GraphView::NodeItemType ? 1 : 0;
        edges += item->type() == GraphView::EdgeItemType ? 1 : 0;
    }
    QCOMPARE(nodes, int(r.deploymentOrder.size()));
    QCOMPARE(edges, dependencyCount(r));
    QSet<QString> edgeNames;
    for (const QString& name : r.deploymentOrder)
        for (const QString& dep : r.component(name)->dependencyRefs)
            edgeNames.insert(name + QStringLiteral("->") + dep);
    QCOMPARE(namesOf(view->edgeItems()), edgeNames);

    // Each node sits where Graphviz put it and says what it is on hover.
    const catalog::ComponentRef* gpu = r.component(QStringLiteral("gpu-operator"));
    QGraphicsItem* node = view->nodeItem(QStringLiteral("gpu-operator"));
    QVERIFY(node && gpu);
    const graph::GraphNode* laid = view->componentGraph().node(QStringLiteral("gpu-operator"));
    QVERIFY(laid);
    QCOMPARE(node->pos(), laid->center);
    QVERIFY(node->toolTip().contains(gpu->chart));
    QVERIFY(node->toolTip().contains(gpu->namespace_));
    QVERIFY(node->toolTip().contains(gpu->source));
    QVERIFY(node->toolTip().contains(gpu->type));
    QCOMPARE(laid->version, QStringLiteral("v26.7.1"));
}

void TestGraphCompare::zoomAndFit() {
    QVERIFY(openRecipe(QStringLiteral("sample-2"), kRecipe));
    QVERIFY(showGraph());
    auto* view = find<GraphView>("graphView");
    auto* in = find<QToolButton>("zoomIn");
    auto* out = find<QToolButton>("zoomOut");
    auto* fit = find<QToolButton>("zoomFit");
    QVERIFY(view && in && out && fit);
    QSignalSpy zoomed(view, &GraphView::zoomChanged);

    QTest::mouseClick(fit, Qt::LeftButton);
    QVERIFY(view->graphFullyVisible());
    const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
    QVERIFY(visible.adjusted(-1, -1, 1, 1).contains(view->sceneRect()));
    const double fitted = view->zoom();

    QTest::mouseClick(in, Qt::LeftButton);
    QVERIFY(view->zoom() > fitted * 1.2);
    QTest::mouseClick(in, Qt::LeftButton);
    QTest::mouseClick(in, Qt::LeftButton);
    QVERIFY(!view->graphFullyVisible()); // zoomed in beyond the viewport
    const double zoomedIn = view->zoom();
    QTest::mouseClick(out, Qt::LeftButton);
    QVERIFY(view->zoom() < zoomedIn);

    // Ctrl+wheel zooms; a plain wheel scrolls.
    const QPointF at = QPointF(view->viewport()->rect().center());
    const double before = view->zoom();
    QWheelEvent ctrlWheel(at, view->viewport()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view->viewport(), &ctrlWheel);
    QVERIFY(view->zoom() > before);
    const double afterCtrl = view->zoom();
    QWheelEvent plainWheel(at, view->viewport()->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                           Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view->viewport(), &plainWheel);
    QCOMPARE(view->zoom(), afterCtrl);

    // Dragging pans.
    QScrollBar* h = view->horizontalScrollBar();
    QScrollBar* v = view->verticalScrollBar();
    const QPoint start = view->viewport()->rect().center();
    const int h0 = h->value(), v0 = v->value();
    QTest::mousePress(view->viewport(), Qt::LeftButton, {}, start);
    QTest::mouseMove(view->viewport(), start + QPoint(60, 40));
    QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, start + QPoint(60, 40));
    QVERIFY(h->value() != h0 || v->value() != v0);

    // Zoom is bounded.
    for (int i = 0; i < 40; ++i)
        view->zoomIn();
    QCOMPARE(view->zoom(), GraphView::kMaxZoom);
    for (int i = 0; i < 80; ++i)
        view->zoomOut();
    QCOMPARE(view->zoom(), GraphView::kMinZoom);

    QTest::mouseClick(fit, Qt::LeftButton);
    QVERIFY(view->graphFullyVisible());
    QVERIFY(zoomed.count() >= 5);
}

void TestGraphCompare::selectionFollowsBothWays() {
    QVERIFY(openRecipe(QStringLiteral("sample-2"), kRecipe));
    QVERIFY(showGraph());
    auto* view = find<GraphView>("graphView");
    auto* table = find<QTableView>("componentsTable");
    QVERIFY(view && table);
    widgets::RecipeView* recipeView = m_window->recipeView();
    QSignalSpy fromTable(recipeView, &widgets::RecipeView::componentSelected);
    QSignalSpy fromGraph(m_window->graphPane(), &widgets::GraphPane::componentClicked);
    const catalog::RecipeResult r = resolved(QStringLiteral("sample-2"), kRecipe);

    // Click a node: the table's current row follows; nothing echoes back.
    const QString target = QStringLiteral("gpu-operator");
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, centerOf(view, view->nodeItem(target)));
    QCOMPARE(view->selectedNode(), target);
    QCOMPARE(fromGraph.count(), 1);
    QCOMPARE(fromGraph.at(0).at(0).toString(), target);
    QCOMPARE(recipeView->selectedComponent(), target);
    QCOMPARE(table->currentIndex().data(models::ComponentsModel::ComponentNameRole).toString(), target);
    QVERIFY(table->selectionModel()->isRowSelected(table->currentIndex().row(), QModelIndex()));
    QCOMPARE(fromTable.count(), 0);

    // Its dependencies and dependents stand out; everything else is dimmed.
    QSet<QString> related{target};
    for (const QString& d : r.component(target)->dependencyRefs)
        related.insert(d);
    for (const QString& name : r.deploymentOrder)
        if (r.component(name)->dependencyRefs.contains(target))
            related.insert(name);
    QVERIFY(related.size() > 2);
    for (QGraphicsItem* node : view->nodeItems()) {
        const QString name = node->data(GraphView::NameKey).toString();
        if (related.contains(name))
            QCOMPARE(node->opacity(), 1.0);
        else
            QVERIFY2(node->opacity() < 0.5, qPrintable(name));
    }
    for (QGraphicsItem* edge : view->edgeItems()) {
        const QStringList ends = edge->data(GraphView::NameKey).toString().split(QStringLiteral("->"));
        QCOMPARE(edge->opacity() == 1.0, ends.contains(target));
    }
    auto* status = find<QLabel>("graphStatus");
    QVERIFY(status->text().contains(target));

    // Choose a row in the table (Details tab): the graph follows.
    m_window->recipeTabs()->setCurrentWidget(recipeView);
    const QString other = QStringLiteral("cert-manager");
    const int row = rowOf(table->model(), other);
    QVERIFY(row >= 0);
    const QModelIndex cell = table->model()->index(row, models::ComponentsModel::NameColumn);
    table->scrollTo(cell);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QCOMPARE(fromTable.count(), 1);
    QCOMPARE(fromTable.at(0).at(0).toString(), other);
    QCOMPARE(view->selectedNode(), other);
    QCOMPARE(fromGraph.count(), 1); // no echo
    m_window->recipeTabs()->setCurrentWidget(m_window->graphPane());
    QVERIFY(view->nodeItem(QStringLiteral("gpu-operator"))->opacity() == 1.0); // cert-manager's dependent

    // Clicking the background clears both.
    QTRY_VERIFY(view->isVisible());
    view->fitGraph();
    QPoint empty;
    bool found = false;
    for (int y = 2; y < view->viewport()->height() && !found; y += 7)
        for (int x = 2; x < view->viewport()->width() && !found; x += 7)
            if (view->items(QPoint(x, y)).isEmpty()) {
                empty = QPoint(x, y);
                found = true;
            }
    QVERIFY(found);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, empty);
    QVERIFY(view->selectedNode().isEmpty());
    QVERIFY(recipeView->selectedComponent().isEmpty());
    for (QGraphicsItem* node : view->nodeItems())
        QCOMPARE(node->opacity(), 1.0);
}

void TestGraphCompare::exportSvgAndPng() {
    QVERIFY(openRecipe(QStringLiteral("sample-2"), kRecipe));
    QVERIFY(showGraph());
    QVERIFY(find<QToolButton>("graphExport")->isEnabled());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    widgets::GraphPane* pane = m_window->graphPane();
    QSignalSpy finished(pane, &widgets::GraphPane::exportFinished);

    const QString svg = dir.filePath(QStringLiteral("graph.svg"));
    QVERIFY(pane->exportGraph(svg));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
    QCOMPARE(finished.at(0).at(1).toString(), svg);
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.startsWith("<?xml") || bytes.startsWith("<svg"));
    QVERIFY(bytes.contains("gpu-operator") || bytes.contains("gpu&#45;operator")); // Graphviz escapes "-"

    const QString png = dir.filePath(QStringLiteral("graph.png"));
    QVERIFY(pane->exportGraph(png));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kTimeout);
    QVERIFY2(finished.at(1).at(0).toBool(), qPrintable(finished.at(1).at(2).toString()));
    QFile pngFile(png);
    QVERIFY(pngFile.open(QIODevice::ReadOnly));
    QVERIFY(pngFile.read(8).startsWith("\x89PNG"));

    // An unwritable path reports an error instead of failing silently.
    QVERIFY(pane->exportGraph(dir.filePath(QStringLiteral("missing/dir/graph.svg"))));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, kTimeout);
    QVERIFY(!finished.at(2).at(0).toBool());
    QVERIFY(!finished.at(2).at(2).toString().isEmpty());
}

void TestGraphCompare::graphFollowsTreeSelection() {
    QVERIFY(openRecipe(QStringLiteral("sample-2"), kRecipe));
    QVERIFY(showGraph());
    auto* view = find<GraphView>("graphView");
    QSignalSpy ready(m_window->graphPane(), &widgets::GraphPane::graphReady);

    // Another recipe (selected while the Graph tab is showing): a new layout of its components.
    const QString other = QStringLiteral("gb200-eks-ubuntu-inference-dynamo");
    QVERIFY(openRecipe(QStringLiteral("sample-2"), other));
    QVERIFY(m_window->graphPane()->isVisible()); // the tab stays
    QTRY_VERIFY_WITH_TIMEOUT(m_window->graphPane()->isReady(), kTimeout);
    QCOMPARE(ready.count(), 1);
    const catalog::RecipeResult r = resolved(QStringLiteral("sample-2"), other);
    QCOMPARE(namesOf(view->nodeItems()), deployed(r));
    QCOMPARE(view->edgeItems().size(), dependencyCount(r));

    // A row chosen in the table before the graph is laid out is selected once it is.
    m_window->recipeTabs()->setCurrentWidget(m_window->recipeView());
    QVERIFY(openRecipe(QStringLiteral("sample-2"), kRecipe));
    QVERIFY(!m_window->graphPane()->isReady()); // laid out when the tab shows
    auto* table = find<QTableView>("componentsTable");
    const int row = rowOf(table->model(), QStringLiteral("kai-scheduler"));
    QVERIFY(row >= 0);
    const QModelIndex cell = table->model()->index(row, models::ComponentsModel::NameColumn);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QVERIFY(showGraph());
    QCOMPARE(view->selectedNode(), QStringLiteral("kai-scheduler"));

    // A version row shows the version summary instead of the tabs.
    QVERIFY(m_window->selectVersion(QStringLiteral("sample-1")));
    QVERIFY(!m_window->graphPane()->isVisible());
}

void TestGraphCompare::comparePickers() {
    QVERIFY(openRecipe(QStringLiteral("sample-2"), kRecipe));
    QVERIFY(showCompare());
    auto* from = find<QComboBox>("compareFrom");
    auto* to = find<QComboBox>("compareTo");
    auto* toRecipe = find<QComboBox>("compareToRecipe");
    auto* table = find<QTableView>("compareComponents");
    auto* graphView = find<GraphView>("compareGraph");
    QVERIFY(from && to && toRecipe && table && graphView);
    QVERIFY(find<QTableView>("compareConstraints") && find<QTableView>("compareChecks"));
    widgets::ComparePane* pane = m_window->comparePane();
    QAbstractItemModel* model = table->model();

    // Default: the version before this one in version order → this one, same recipe; the
    // pickers mark the sample catalog.
    QCOMPARE(from->currentText(), QStringLiteral("sample-1 (sample data)"));
    QCOMPARE(from->currentData().toString(), QStringLiteral("sample-1"));
    QCOMPARE(to->currentData().toString(), QStringLiteral("sample-2"));
    QCOMPARE(toRecipe->currentText(), kRecipe);

    auto check = [&](const QString& fromLabel, const QString& toLabel) {
        const catalog::RecipeResult a = resolved(fromLabel, kRecipe);
        const catalog::RecipeResult b = resolved(toLabel, kRecipe);
        QSet<QString> names;
        for (const catalog::ComponentRef& c : a.componentRefs)
            names.insert(c.name);
        for (const catalog::ComponentRef& c : b.componentRefs)
            names.insert(c.name);
        QCOMPARE(model->rowCount(), int(names.size()));
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString name = model->index(row, 0).data().toString();
            const catalog::ComponentRef* ca = a.component(name);
            const catalog::ComponentRef* cb = b.component(name);
            const Change change = Change(model->index(row, 0).data(models::ChangeRole).toInt());
            if (!ca)
                QCOMPARE(change, Change::Added);
            else if (!cb)
                QCOMPARE(change, Change::Removed);
            else if (ca->version != cb->version || ca->tag != cb->tag)
                QCOMPARE(change, Change::Changed);
        }
        // The combined graph: every component deployed on either side, once.
        QCOMPARE(namesOf(graphView->nodeItems()), deployed(a) | deployed(b));
    };

    check(QStringLiteral("sample-1"), QStringLiteral("sample-2"));
    int gpu = rowOf(model, QStringLiteral("gpu-operator"));
    QVERIFY(gpu >= 0);
    QCOMPARE(model->index(gpu, ComponentDiffModel::ChangeColumn).data().toString(),
             QStringLiteral("changed"));
    QCOMPARE(model->index(gpu, ComponentDiffModel::FromVersionColumn).data().toString(),
             QStringLiteral("v26.3.3"));
    QCOMPARE(model->index(gpu, ComponentDiffModel::ToVersionColumn).data().toString(),
             QStringLiteral("v26.7.1"));
    QCOMPARE(model->index(gpu, ComponentDiffModel::ToVersionColumn)
                 .data(Qt::BackgroundRole)
                 .value<QBrush>()
                 .color(),
             models::ChangeColors::changedBackground());
    const int kai = rowOf(model, QStringLiteral("kai-scheduler"));
    QCOMPARE(model->index(kai, ComponentDiffModel::FromVersionColumn).data().toString(),
             QStringLiteral("v0.14.1"));
    QCOMPARE(model->index(kai, ComponentDiffModel::ToVersionColumn).data().toString(),
             QStringLiteral("v0.16.9"));
    QVERIFY(
        graphView->nodeItem(QStringLiteral("gpu-operator"))->toolTip().contains(QStringLiteral("v26.3.3")));
    const int firstRows = model->rowCount();
    QCOMPARE(find<QTableView>("compareConstraints")->model()->rowCount(),
             int(pane->recipeDiff()->constraints.size()));

    // Same version on both sides: everything unchanged.
    QSignalSpy updated(pane, &widgets::ComparePane::compareUpdated);
    from->setCurrentIndex(from->findData(QStringLiteral("sample-2")));
    QTRY_VERIFY_WITH_TIMEOUT(pane->isUpToDate() && updated.count() > 0, kTimeout);
    QCOMPARE(model->rowCount(), int(resolved(QStringLiteral("sample-2"), kRecipe).componentRefs.size()));
    for (int row = 0; row < model->rowCount(); ++row)
        QCOMPARE(model->index(row, ComponentDiffModel::ChangeColumn).data().toString(),
                 QStringLiteral("unchanged"));
    QVERIFY(pane->recipeDiff()->identical());
    QVERIFY(find<QLabel>("compareRecipeSummary")->text().contains(QStringLiteral("identical")));

    // Backwards: sample-2 → sample-1, the GPU Operator goes down again.
    updated.clear();
    to->setCurrentIndex(to->findData(QStringLiteral("sample-1")));
    QTRY_VERIFY_WITH_TIMEOUT(pane->isUpToDate() && updated.count() > 0, kTimeout);
    QCOMPARE(toRecipe->currentText(), kRecipe);
    check(QStringLiteral("sample-2"), QStringLiteral("sample-1"));
    QCOMPARE(model->rowCount(), firstRows);
    gpu = rowOf(model, QStringLiteral("gpu-operator"));
    QCOMPARE(model->index(gpu, ComponentDiffModel::FromVersionColumn).data().toString(),
             QStringLiteral("v26.7.1"));
    QCOMPARE(model->index(gpu, ComponentDiffModel::ToVersionColumn).data().toString(),
             QStringLiteral("v26.3.3"));

    // The swap button turns it around again.
    updated.clear();
    QTest::mouseClick(find<QToolButton>("compareSwap"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(pane->isUpToDate() && updated.count() > 0, kTimeout);
    QCOMPARE(from->currentData().toString(), QStringLiteral("sample-1"));
    QCOMPARE(to->currentData().toString(), QStringLiteral("sample-2"));
    check(QStringLiteral("sample-1"), QStringLiteral("sample-2"));

    // Changes only hides the unchanged rows.
    auto* changesOnly = find<QCheckBox>("compareChangesOnly");
    QVERIFY(changesOnly);
    changesOnly->setChecked(true);
    for (int row = 0; row < model->rowCount(); ++row) {
        const auto& c = pane->componentsModel()->componentAt(row);
        QVERIFY(c.change != Change::Unchanged || c.orderMoved());
    }
    QVERIFY(model->rowCount() <= firstRows);
    changesOnly->setChecked(false);
    QCOMPARE(model->rowCount(), firstRows);

    // The table and the combined graph follow each other.
    gpu = rowOf(model, QStringLiteral("gpu-operator"));
    const QModelIndex cell = model->index(gpu, 0);
    table->scrollTo(cell);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QCOMPARE(graphView->selectedNode(), QStringLiteral("gpu-operator"));
    graphView->fitGraph();
    QGraphicsItem* node = graphView->nodeItem(QStringLiteral("cert-manager"));
    QTest::mouseClick(graphView->viewport(), Qt::LeftButton, {}, centerOf(graphView, node));
    QCOMPARE(graphView->selectedNode(), QStringLiteral("cert-manager"));
    QCOMPARE(table->currentIndex().row(), rowOf(model, QStringLiteral("cert-manager")));
}

void TestGraphCompare::compareOtherRecipeAndSummary() {
    QVERIFY(openRecipe(QStringLiteral("sample-2"), kRecipe));
    QVERIFY(showCompare());
    widgets::ComparePane* pane = m_window->comparePane();
    auto* toRecipe = find<QComboBox>("compareToRecipe");
    QAbstractItemModel* model = find<QTableView>("compareComponents")->model();

    // The catalog summary: leaf counts as the store recorded them at import (digest against the
    // previous version), and the components that moved most.
    QTRY_VERIFY_WITH_TIMEOUT(pane->catalogDiff() != nullptr, kTimeout);
    const catalog::CatalogDiff* cd = pane->catalogDiff();
    int changed = 0, added = 0, unchanged = 0;
    for (const store::RecipeInfo& r : *m_window->catalogModel()->recipesOf(QStringLiteral("sample-2"))) {
        changed += r.change() == store::RecipeInfo::Change::Changed ? 1 : 0;
        added += r.change() == store::RecipeInfo::Change::New ? 1 : 0;
        unchanged += r.change() == store::RecipeInfo::Change::Unchanged ? 1 : 0;
    }
    QCOMPARE(cd->leafCount(Change::Changed), changed);
    QCOMPARE(cd->leafCount(Change::Added), added);
    QCOMPARE(cd->leafCount(Change::Unchanged), unchanged);
    auto* summary = find<QLabel>("compareSummary");
    QVERIFY(summary && summary->isVisible());
    QTRY_VERIFY(summary->text().contains(QStringLiteral("%1 changed").arg(changed)));
    QVERIFY(summary->text().contains(QStringLiteral("%1 added").arg(added)));
    QVERIFY(!cd->componentMoves.empty());
    QVERIFY(summary->text().contains(cd->componentMoves.front().first));
    QVERIFY(summary->text().contains(QStringLiteral("gpu-operator")));

    // Another recipe of the "to" version (a different criteria set).
    QCOMPARE(toRecipe->count(), int(m_window->catalogModel()->recipesOf(QStringLiteral("sample-2"))->size()));
    const QString other = QStringLiteral("h100-eks-ubuntu-inference-dynamo");
    QSignalSpy updated(pane, &widgets::ComparePane::compareUpdated);
    toRecipe->setCurrentIndex(toRecipe->findText(other));
    QTRY_VERIFY_WITH_TIMEOUT(pane->isUpToDate() && updated.count() > 0, kTimeout);
    const catalog::RecipeResult a = resolved(QStringLiteral("sample-1"), kRecipe);
    const catalog::RecipeResult b = resolved(QStringLiteral("sample-2"), other);
    QSet<QString> names;
    for (const catalog::ComponentRef& c : a.componentRefs)
        names.insert(c.name);
    for (const catalog::ComponentRef& c : b.componentRefs)
        names.insert(c.name);
    QCOMPARE(model->rowCount(), int(names.size()));
    for (int row = 0; row < model->rowCount(); ++row) {
        const QString name = model->index(row, 0).data().toString();
        const Change change = Change(model->index(row, 0).data(models::ChangeRole).toInt());
        QCOMPARE(change == Change::Added, a.component(name) == nullptr);
        QCOMPARE(change == Change::Removed, b.component(name) == nullptr);
    }
    QVERIFY(find<QLabel>("compareRecipeSummary")->text().contains(other));
    QCOMPARE(namesOf(find<GraphView>("compareGraph")->nodeItems()), deployed(a) | deployed(b));
}

void TestGraphCompare::compareFollowsTreeSelection() {
    QVERIFY(openRecipe(QStringLiteral("sample-2"), kRecipe));
    QVERIFY(showCompare());
    auto* from = find<QComboBox>("compareFrom");
    auto* to = find<QComboBox>("compareTo");
    auto* toRecipe = find<QComboBox>("compareToRecipe");
    widgets::ComparePane* pane = m_window->comparePane();

    // Another recipe of the same version: the pickers stay, the recipe follows.
    from->setCurrentIndex(from->findData(QStringLiteral("sample-2")));
    const QString other = QStringLiteral("gb200-eks-ubuntu-training-kubeflow");
    QVERIFY(openRecipe(QStringLiteral("sample-2"), other));
    QTRY_VERIFY_WITH_TIMEOUT(pane->isUpToDate(), kTimeout);
    QCOMPARE(from->currentData().toString(), QStringLiteral("sample-2"));
    QCOMPARE(toRecipe->currentText(), other);
    QVERIFY(pane->recipeDiff()->identical());

    // A recipe of the first version: compared with the version after it.
    QVERIFY(openRecipe(QStringLiteral("sample-1"), other));
    QTRY_VERIFY_WITH_TIMEOUT(pane->isUpToDate(), kTimeout);
    QCOMPARE(from->currentData().toString(), QStringLiteral("sample-1"));
    QCOMPARE(to->currentData().toString(), QStringLiteral("sample-2"));
    QCOMPARE(toRecipe->currentText(), other);
    const int gpu = pane->componentsModel()->rowOf(QStringLiteral("gpu-operator"));
    QVERIFY(gpu >= 0);
    QCOMPARE(pane->componentsModel()->index(gpu, ComponentDiffModel::ChangeColumn).data().toString(),
             QStringLiteral("changed"));
    QCOMPARE(pane->componentsModel()->index(gpu, ComponentDiffModel::FromVersionColumn).data().toString(),
             QStringLiteral("v26.3.3"));
}

QTEST_MAIN(TestGraphCompare)
#include "tst_graphcompare.moc"
