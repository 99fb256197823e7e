// The component graph: Graphviz's layout read back correctly, in every output format.
#include "TestUtil.h"
#include "catalog/Loader.h"
#include "graph/Layout.h"
#include "store/CatalogStore.h"

#include <QJsonArray>
#include <QTest>

using namespace pb;

namespace {

catalog::RecipeResult resolveIn(const catalog::Catalog& cat, const QString& leaf) {
    Result<catalog::RecipeResult> r = store::resolveStoredRecipe(cat, leaf);
    if (!r)
        qFatal("%s: %s", qPrintable(leaf), qPrintable(r.error().toString()));
    return *r;
}

} // namespace

class TestGraph : public QObject {
    Q_OBJECT
  private slots:
    void layoutInvariants_data() {
        QTest::addColumn<QString>("catalogDir");
        QTest::addColumn<bool>("shared");
        QTest::addRow("embedded sample-2") << pbtest::embeddedCatalogDir(QStringLiteral("sample-2")) << false;
        QTest::addRow("embedded sample-1") << pbtest::embeddedCatalogDir(QStringLiteral("sample-1")) << false;
        QTest::addRow("AICR 2026-08-19") << pbtest::realCatalog(QStringLiteral("2026-08-19")) << true;
    }
    // For every leaf: one node per enabled component, every edge joins two nodes, a dependency
    // sits on an earlier rank (above) than its dependent, and no two node boxes overlap.
    void layoutInvariants() {
        QFETCH(QString, catalogDir);
        QFETCH(bool, shared);
        if (shared)
            PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/2026-08-19"));
        Result<catalog::Catalog> cat = catalog::loadCatalog(catalogDir);
        QVERIFY(cat.ok());
        int edgesSeen = 0;
        for (const QString& leaf : cat->leafNames()) {
            const catalog::RecipeResult r = resolveIn(*cat, leaf);
            Result<graph::ComponentGraph> g = graph::layoutRecipe(r);
            QVERIFY2(g.ok(), qPrintable(leaf));
            QCOMPARE(static_cast<int>(g->nodes.size()), static_cast<int>(r.deploymentOrder.size()));
            int expectedEdges = 0;
            for (const QString& name : r.deploymentOrder)
                for (const QString& dep : r.component(name)->dependencyRefs)
                    expectedEdges += r.deploymentOrder.contains(dep) ? 1 : 0;
            QCOMPARE(static_cast<int>(g->edges.size()), expectedEdges);
            for (const graph::GraphNode& n : g->nodes) {
                QVERIFY(n.width > 0 && n.height > 0);
                QVERIFY(g->bounds.contains(n.center));
            }
            for (const graph::GraphEdge& e : g->edges) {
                const graph::GraphNode* from = g->node(e.from);
                const graph::GraphNode* to = g->node(e.to);
                QVERIFY2(from && to,
                         qPrintable(leaf + QStringLiteral(": ") + e.from + QStringLiteral(" -> ") + e.to));
                QVERIFY(r.component(e.from)->dependencyRefs.contains(e.to));
                QVERIFY2(
                    to->center.y() < from->center.y(),
                    qPrintable(QStringLiteral("%1: dependency %2 not above %3").arg(leaf, e.to, e.from)));
                QVERIFY(e.points.size() >= 4 && (e.points.size() - 1) % 3 == 0);
                // The spline leaves the dependent's box and ends near the dependency's.
                QVERIFY(from->rect().adjusted(-2, -2, 2, 2).contains(e.points.front()));
                const QPointF tip = e.arrowTip.value_or(e.points.back());
                QVERIFY(to->rect().adjusted(-2, -2, 2, 2).contains(tip));
                ++edgesSeen;
            }
            for (size_t i = 0; i < g->nodes.size(); ++i)
                for (size_t j = i + 1; j < g->nodes.size(); ++j)
                    QVERIFY2(!g->nodes[i].rect().intersects(g->nodes[j].rect()),
                             qPrintable(leaf + QStringLiteral(": ") + g->nodes[i].name +
                                        QStringLiteral(" overlaps ") + g->nodes[j].name));
        }
        QVERIFY(edgesSeen > 0);
    }

    void jsonShape() {
        Result<catalog::Catalog> cat =
            catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
        QVERIFY(cat.ok());
        const catalog::RecipeResult r = resolveIn(*cat, QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
        Result<graph::ComponentGraph> g = graph::layoutRecipe(r);
        QVERIFY(g.ok());
        const QJsonObject j = graph::toJson(*g);
        const QJsonArray nodes = j.value("nodes").toArray();
        QCOMPARE(nodes.size(), static_cast<int>(r.deploymentOrder.size()));
        for (const QJsonValue& n : nodes)
            for (const char* key : {"name", "version", "x", "y", "width", "height"})
                QVERIFY2(n.toObject().contains(QLatin1String(key)), key);
        bool gpuEdge = false;
        for (const QJsonValue& e : j.value("edges").toArray()) {
            const QJsonObject o = e.toObject();
            QVERIFY(o.value("points").toArray().size() >= 4);
            gpuEdge |= o.value("from").toString() == QLatin1String("gpu-operator") &&
                       o.value("to").toString() == QLatin1String("nfd"); // from depends on to
        }
        QVERIFY(gpuEdge);
        QCOMPARE(g->dependenciesOf(QStringLiteral("gpu-operator")).contains(QStringLiteral("cert-manager")),
                 true);
        QVERIFY(g->dependentsOf(QStringLiteral("gpu-operator")).contains(QStringLiteral("kai-scheduler")));
    }

    void renderFormats() {
        Result<catalog::Catalog> cat =
            catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
        QVERIFY(cat.ok());
        const catalog::RecipeResult r = resolveIn(*cat, QStringLiteral("gb200-eks-ubuntu-inference-dynamo"));
        Result<QByteArray> svg = graph::render(r, QStringLiteral("svg"));
        QVERIFY(svg.ok());
        QVERIFY(svg->contains("<svg"));
        QVERIFY(svg->contains("dynamo&#45;platform")); // SVG escapes the hyphen
        Result<QByteArray> png = graph::render(r, QStringLiteral("png"));
        QVERIFY(png.ok());
        QVERIFY(png->startsWith("\x89PNG\r\n\x1a\n"));
        Result<QByteArray> dot = graph::render(r, QStringLiteral("dot"));
        QVERIFY(dot.ok());
        QVERIFY(dot->startsWith("digraph"));
        QVERIFY(dot->contains("pos=")); // laid out
        QVERIFY(!graph::render(r, QStringLiteral("gif")).ok());
    }
};

QTEST_GUILESS_MAIN(TestGraph)
#include "tst_graph.moc"
