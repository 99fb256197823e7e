// The models of the recipe browser over a temp database seeded with the embedded catalog. Every
// model runs under QAbstractItemModelTester; contents are checked against the catalog itself.
#include "CatalogTreeModel.h"
#include "GuiTestUtil.h"
#include "RecipeModels.h"
#include "catalog/Digest.h"
#include "catalog/Resolver.h"

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

using namespace pb;
using models::AppliedOverlaysModel;
using models::CatalogTreeModel;
using models::ComponentsModel;
using models::ConstraintsModel;
using models::RecipeFilterProxyModel;
using models::ValidationModel;

class TestModels : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();

    void catalogTree_data();
    void catalogTree();
    void catalogTreeLookups();
    void versionRecipes();
    void filterProxy_data();
    void filterProxy();

    void components_data();
    void components();
    void disabledComponentsLast();
    void constraints();
    void validation();
    void appliedOverlays();
    void clearResetsEverything();

  private:
    const catalog::Catalog& cat(const QString& label);
    catalog::RecipeResult resolveLeaf(const QString& label, const QString& leaf);

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::map<QString, catalog::Catalog> m_catalogs;
};

void TestModels::initTestCase() {
    QLocale::setDefault(QLocale::c());
    m_db = pbgui::seededDatabase();
    QVERIFY2(m_db->error.isEmpty(), qPrintable(m_db->error));
    store::CatalogStore store(*m_db->db);
    for (const QString& label : {QStringLiteral("sample-2"), QStringLiteral("sample-1")}) {
        Result<catalog::Catalog> c = store.loadCatalog(label);
        QVERIFY2(c.ok(), c.ok() ? "" : qPrintable(c.error().toString()));
        m_catalogs.emplace(label, std::move(*c));
    }
}

const catalog::Catalog& TestModels::cat(const QString& label) {
    return m_catalogs.at(label);
}

catalog::RecipeResult TestModels::resolveLeaf(const QString& label, const QString& leaf) {
    Result<catalog::RecipeResult> r = store::resolveStoredRecipe(cat(label), leaf);
    if (!r)
        qFatal("%s does not resolve: %s", qPrintable(leaf), qPrintable(r.error().toString()));
    return *r;
}

// --- Catalog tree -------------------------------------------------------------------------------

void TestModels::catalogTree_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("label");
    QTest::addColumn<int>("recipes");
    // The samples are imported oldest first; the tree lists the newest first (version order).
    QTest::addRow("sample-2") << 0 << QStringLiteral("sample-2") << 16;
    QTest::addRow("sample-1") << 1 << QStringLiteral("sample-1") << 15;
}

void TestModels::catalogTree() {
    QFETCH(int, row);
    QFETCH(QString, label);
    QFETCH(int, recipes);

    CatalogTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    const Status s = model.reload(store::CatalogStore(*m_db->db));
    QVERIFY2(s.ok(), s.ok() ? "" : qPrintable(s.error().toString()));
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.versionCount(), 2);
    QCOMPARE(model.recipeCount(), 31);
    QCOMPARE(model.columnCount(), int(CatalogTreeModel::ColumnCount));

    const QModelIndex v = model.index(row, 0);
    QCOMPARE(v.data().toString(), label);
    QCOMPARE(v.data(CatalogTreeModel::KindRole).value<CatalogTreeModel::Kind>(),
             CatalogTreeModel::Kind::Version);
    QCOMPARE(model.rowCount(v), recipes);
    QCOMPARE(model.index(row, CatalogTreeModel::ComponentsColumn).data().toString(),
             QStringLiteral("%1 recipes").arg(recipes));

    // One recipe per leaf overlay of the catalog, each with the digest it resolves to now.
    QStringList leaves;
    for (int r = 0; r < model.rowCount(v); ++r) {
        const QModelIndex idx = model.index(r, 0, v);
        QCOMPARE(idx.parent(), v);
        QCOMPARE(idx.data(CatalogTreeModel::KindRole).value<CatalogTreeModel::Kind>(),
                 CatalogTreeModel::Kind::Recipe);
        QCOMPARE(idx.data(CatalogTreeModel::VersionLabelRole).toString(), label);
        const store::RecipeInfo* info = model.recipeAt(idx);
        QVERIFY(info);
        QCOMPARE(idx.data(CatalogTreeModel::RecipeNameRole).toString(), info->name);
        QVERIFY(idx.data().toString().startsWith(info->name));
        if (!info->name.startsWith(info->leafOverlay)) // "recipe (monitoring-hpa)"
            QCOMPARE(idx.data().toString(), QStringLiteral("%1 (%2)").arg(info->name, info->leafOverlay));
        QCOMPARE(model.rowCount(idx), 0);
        leaves << info->leafOverlay;
        const catalog::RecipeResult result = resolveLeaf(label, info->leafOverlay);
        QCOMPARE(info->name, result.recipeName());
        QCOMPARE(info->digest, catalog::sha256Hex(store::recipeBytes(result)));
        QCOMPARE(model.index(r, CatalogTreeModel::ComponentsColumn, v).data().toInt(),
                 int(result.deploymentOrder.size()));
    }
    leaves.sort();
    QCOMPARE(leaves, cat(label).leafNames());
}

void TestModels::catalogTreeLookups() {
    CatalogTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.reload(store::CatalogStore(*m_db->db)).ok());

    const QModelIndex recipe =
        model.recipeIndex(QStringLiteral("sample-1"), QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
    QVERIFY(recipe.isValid());
    QCOMPARE(recipe.parent(), model.versionIndex(QStringLiteral("sample-1")));
    QCOMPARE(model.versionAt(recipe)->label, QStringLiteral("sample-1"));
    QCOMPARE(model.recipeAt(recipe)->criteria.platform, QStringLiteral("kubeflow"));
    QVERIFY(!model.recipeAt(recipe.parent()));
    QVERIFY(!model.recipeIndex(QStringLiteral("sample-1"), QStringLiteral("no-such-recipe")).isValid());
    QVERIFY(!model.versionIndex(QStringLiteral("v9")).isValid());
    QVERIFY(
        model.data(recipe, CatalogTreeModel::SearchTextRole).toString().contains(QLatin1String("kubeflow")));
}

void TestModels::versionRecipes() {
    store::CatalogStore store(*m_db->db);
    Result<store::CatalogVersionInfo> v = store.version(QStringLiteral("sample-2"));
    QVERIFY(v.ok());
    Result<std::vector<store::RecipeInfo>> recipes = store.recipes(v->id);
    QVERIFY(recipes.ok());

    models::VersionRecipesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRecipes(*recipes);
    QCOMPARE(model.rowCount(), 16);
    QCOMPARE(model.columnCount(), int(models::VersionRecipesModel::ColumnCount));
    const int row = [&] {
        for (int r = 0; r < model.rowCount(); ++r)
            if (model.recipeAt(r).name == QLatin1String("h100-eks-ubuntu-training-kubeflow"))
                return r;
        return -1;
    }();
    QVERIFY(row >= 0);
    using C = models::VersionRecipesModel;
    QCOMPARE(model.index(row, C::ServiceColumn).data().toString(), QStringLiteral("eks"));
    QCOMPARE(model.index(row, C::AcceleratorColumn).data().toString(), QStringLiteral("h100"));
    QCOMPARE(model.index(row, C::OsColumn).data().toString(), QStringLiteral("ubuntu"));
    QCOMPARE(model.index(row, C::IntentColumn).data().toString(), QStringLiteral("training"));
    QCOMPARE(model.index(row, C::PlatformColumn).data().toString(), QStringLiteral("kubeflow"));
    QCOMPARE(model.index(row, C::ComponentsColumn).data().toInt(), 14);
    QCOMPARE(model.index(row, C::DigestColumn).data().toString(), model.recipeAt(row).digest.left(12));
    QVERIFY(model.index(row, C::DigestColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(model.recipeAt(row).digest));
    // Compared with sample-1 (imported just before): the digest moved, and the tooltip shows both.
    QCOMPARE(model.index(row, C::ChangeColumn).data().toString(), QStringLiteral("changed"));
    QVERIFY(!model.index(row, C::ChangeColumn).data(Qt::DecorationRole).value<QIcon>().isNull());
    const QString tip = model.index(row, C::ChangeColumn).data(Qt::ToolTipRole).toString();
    QVERIFY(tip.contains(QStringLiteral("sample-1")));
    QVERIFY(tip.contains(model.recipeAt(row).previousDigest));
    const int added = [&] {
        for (int r = 0; r < model.rowCount(); ++r)
            if (model.recipeAt(r).name == QLatin1String("gb300-eks-ubuntu-inference-dynamo"))
                return r;
        return -1;
    }();
    QVERIFY(added >= 0);
    QCOMPARE(model.index(added, C::ChangeColumn).data().toString(), QStringLiteral("new"));
    model.setRecipes({});
    QCOMPARE(model.rowCount(), 0);
}

// --- Filter -------------------------------------------------------------------------------------

void TestModels::filterProxy_data() {
    QTest::addColumn<QString>("filter");
    QTest::addColumn<int>("inV1");   // recipes visible under sample-2
    QTest::addColumn<int>("inV020"); // and under sample-1
    QTest::addRow("empty") << QString() << 16 << 15;
    QTest::addRow("exact name") << QStringLiteral("gb200-eks-ubuntu-training") << 1 << 1;
    QTest::addRow("case-insensitive") << QStringLiteral("GB200-EKS-Ubuntu-Training") << 1 << 1;
    QTest::addRow("criteria value") << QStringLiteral("dynamo") << 5 << 4;
    QTest::addRow("words anywhere") << QStringLiteral("kubeflow  h100") << 3 << 3;
    QTest::addRow("one version by label") << QStringLiteral("sample-1") << 0 << 15;
    QTest::addRow("profile in the name") << QStringLiteral("gpustack") << 3 << 3;
    QTest::addRow("no match") << QStringLiteral("a100") << 0 << 0;
}

void TestModels::filterProxy() {
    QFETCH(QString, filter);
    QFETCH(int, inV1);
    QFETCH(int, inV020);

    CatalogTreeModel model;
    QVERIFY(model.reload(store::CatalogStore(*m_db->db)).ok());
    RecipeFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setFilterText(filter);

    auto visible = [&](const QString& label) {
        const QModelIndex v = proxy.mapFromSource(model.versionIndex(label));
        return v.isValid() ? proxy.rowCount(v) : 0;
    };
    QCOMPARE(visible(QStringLiteral("sample-2")), inV1);
    QCOMPARE(visible(QStringLiteral("sample-1")), inV020);
    // A version stays visible exactly when one of its recipes does.
    QCOMPARE(proxy.rowCount(), int(inV1 > 0) + int(inV020 > 0));

    // Every visible recipe carries every word of the filter.
    for (int v = 0; v < proxy.rowCount(); ++v) {
        const QModelIndex version = proxy.index(v, 0);
        for (int r = 0; r < proxy.rowCount(version); ++r) {
            const QString hay = proxy.index(r, 0, version).data(CatalogTreeModel::SearchTextRole).toString();
            for (const QString& w : filter.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts))
                QVERIFY2(hay.contains(w), qPrintable(hay));
        }
    }

    // Clearing the filter brings everything back.
    proxy.setFilterText(QString());
    QCOMPARE(visible(QStringLiteral("sample-2")), 16);
    QCOMPARE(visible(QStringLiteral("sample-1")), 15);
}

// --- Components ---------------------------------------------------------------------------------

void TestModels::components_data() {
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("leaf");
    QTest::addColumn<QStringList>("order");
    QTest::addColumn<QString>("gpuOperatorVersion");

    QTest::addRow("sample-2 h100-eks-ubuntu-training-kubeflow")
        << QStringLiteral("sample-2") << QStringLiteral("h100-eks-ubuntu-training-kubeflow")
        << QStringList{"aws-ebs-csi-driver",
                       "aws-efa",
                       "cert-manager",
                       "nfd",
                       "nodewright-operator",
                       "nodewright-customizations",
                       "prometheus-operator-crds",
                       "kube-prometheus-stack",
                       "gpu-operator",
                       "kai-scheduler",
                       "kubeflow-trainer",
                       "nvidia-dra-driver-gpu",
                       "nvsentinel",
                       "prometheus-adapter"}
        << QStringLiteral("v26.7.1");
    QTest::addRow("sample-1 h100-eks-ubuntu-training-kubeflow")
        << QStringLiteral("sample-1") << QStringLiteral("h100-eks-ubuntu-training-kubeflow")
        << QStringList{"aws-ebs-csi-driver",
                       "aws-efa",
                       "cert-manager",
                       "nfd",
                       "prometheus-operator-crds",
                       "kube-prometheus-stack",
                       "k8s-ephemeral-storage-metrics",
                       "prometheus-adapter",
                       "skyhook-operator",
                       "skyhook-customizations",
                       "gpu-operator",
                       "kai-scheduler",
                       "kubeflow-trainer",
                       "nvidia-dra-driver-gpu"}
        << QStringLiteral("v26.3.3");
}

void TestModels::components() {
    QFETCH(QString, label);
    QFETCH(QString, leaf);
    QFETCH(QStringList, order);
    QFETCH(QString, gpuOperatorVersion);

    const catalog::RecipeResult recipe = resolveLeaf(label, leaf);
    QCOMPARE(recipe.deploymentOrder, order);

    ComponentsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRecipe(recipe);
    QCOMPARE(model.columnCount(), 8);
    QCOMPARE(model.headerData(ComponentsModel::VersionColumn, Qt::Horizontal).toString(),
             QStringLiteral("Version"));
    QCOMPARE(model.rowCount(), int(recipe.componentRefs.size()));
    QCOMPARE(model.enabledCount(), int(order.size()));

    QStringList names;
    QSet<QString> deployed;
    for (int r = 0; r < model.rowCount(); ++r) {
        const QString name = model.index(r, ComponentsModel::NameColumn).data().toString();
        names << name;
        QCOMPARE(model.index(r, ComponentsModel::OrderColumn).data().toInt(), r + 1);
        QVERIFY(model.index(r, 0).data(ComponentsModel::EnabledRole).toBool());
        // Deployment order respects dependencies: each is deployed before its dependents.
        const QString deps = model.index(r, ComponentsModel::DependenciesColumn).data().toString();
        for (const QString& d : deps.split(QStringLiteral(", "), Qt::SkipEmptyParts))
            QVERIFY2(deployed.contains(d), qPrintable(name + QLatin1String(" before ") + d));
        deployed.insert(name);
    }
    QCOMPARE(names, order);
    QVERIFY(model.index(0, ComponentsModel::DependenciesColumn).data().toString().isEmpty());

    const int gpu = int(order.indexOf(QStringLiteral("gpu-operator")));
    QVERIFY(gpu >= 0);
    QCOMPARE(model.index(gpu, ComponentsModel::VersionColumn).data().toString(), gpuOperatorVersion);
    const catalog::ComponentRef* ref = recipe.component(QStringLiteral("gpu-operator"));
    QVERIFY(ref && !ref->chart.isEmpty());
    QCOMPARE(model.index(gpu, ComponentsModel::ChartColumn).data().toString(), ref->chart);
    QCOMPARE(model.index(gpu, ComponentsModel::NamespaceColumn).data().toString(),
             QStringLiteral("gpu-operator"));
    QCOMPARE(model.index(gpu, ComponentsModel::TypeColumn).data().toString(), QStringLiteral("Helm"));
    QCOMPARE(model.index(gpu, ComponentsModel::SourceColumn).data().toString(),
             QStringLiteral("https://helm.ngc.nvidia.com/nvidia"));
    QVERIFY(model.index(gpu, ComponentsModel::DependenciesColumn)
                .data()
                .toString()
                .contains(QLatin1String("nfd")));
}

void TestModels::disabledComponentsLast() {
    catalog::RecipeResult recipe =
        resolveLeaf(QStringLiteral("sample-2"), QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
    // Disable one component the way a catalog does (overrides.enabled: false): resolution leaves
    // it out of deploymentOrder, and the table lists it after the deployed ones.
    catalog::ComponentRef off;
    off.name = QStringLiteral("aaa-disabled");
    off.type = QStringLiteral("Helm");
    off.version = QStringLiteral("1.0.0");
    off.overrides = yaml::Node::map();
    off.overrides.set("enabled", yaml::Node::plain("false"));
    QVERIFY(!off.isEnabled());
    recipe.componentRefs.insert(recipe.componentRefs.begin(), off);

    ComponentsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRecipe(recipe);
    const int last = model.rowCount() - 1;
    QCOMPARE(model.rowCount(), int(recipe.deploymentOrder.size()) + 1);
    QCOMPARE(model.enabledCount(), int(recipe.deploymentOrder.size()));
    QCOMPARE(model.index(last, ComponentsModel::NameColumn).data().toString(),
             QStringLiteral("aaa-disabled"));
    QVERIFY(!model.index(last, 0).data(ComponentsModel::EnabledRole).toBool());
    QCOMPARE(model.index(last, ComponentsModel::OrderColumn).data().toString(), QStringLiteral("off"));
    QVERIFY(model.index(last, ComponentsModel::NameColumn).data(Qt::ForegroundRole).isValid()); // greyed
    QVERIFY(!model.index(0, ComponentsModel::NameColumn).data(Qt::ForegroundRole).isValid());
}

// --- Constraints and validation -----------------------------------------------------------------

void TestModels::constraints() {
    QVERIFY(models::hasComparator(QStringLiteral(">= 1.33")));
    QVERIFY(models::hasComparator(QStringLiteral("<= 2000")));
    QVERIFY(models::hasComparator(QStringLiteral("== 8")));
    QVERIFY(!models::hasComparator(QStringLiteral("Qwen/Qwen3-8B")));
    QVERIFY(!models::hasComparator(QStringLiteral("24.04")));

    const catalog::RecipeResult recipe =
        resolveLeaf(QStringLiteral("sample-2"), QStringLiteral("h100-eks-ubuntu-inference-dynamo"));
    ConstraintsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRecipe(recipe);

    int phaseConstraints = 0;
    for (const QString& p : catalog::Validation::phaseNames())
        if (recipe.validation && recipe.validation->phase(p) && recipe.validation->phase(p)->constraints)
            phaseConstraints += int(recipe.validation->phase(p)->constraints->size());
    QCOMPARE(model.rowCount(), int(recipe.constraints.size()) + phaseConstraints);

    auto row = [&](const QString& name) {
        for (int r = 0; r < model.rowCount(); ++r)
            if (model.index(r, ConstraintsModel::NameColumn).data().toString() == name)
                return r;
        return -1;
    };
    using Kind = ConstraintsModel::Kind;
    struct Expect {
        const char* name;
        const char* value;
        Kind kind;
        bool threshold;
    };
    for (const Expect& e : {Expect{"K8s.server.version", ">= 1.34", Kind::Requirement, true},
                            Expect{"OS.release.ID", "ubuntu", Kind::ExactMatch, false},
                            Expect{"inference-model", "Qwen/Qwen3-8B", Kind::Input, false},
                            Expect{"inference-throughput", ">= 50000", Kind::Threshold, true}}) {
        const int r = row(QLatin1String(e.name));
        QVERIFY2(r >= 0, e.name);
        QCOMPARE(model.index(r, ConstraintsModel::ValueColumn).data().toString(), QLatin1String(e.value));
        QCOMPARE(model.index(r, 0).data(ConstraintsModel::KindRole).value<Kind>(), e.kind);
        QCOMPARE(model.index(r, 0).data(ConstraintsModel::IsThresholdRole).toBool(), e.threshold);
    }
    QCOMPARE(
        model.index(row(QStringLiteral("inference-model")), ConstraintsModel::KindColumn).data().toString(),
        QStringLiteral("input"));
    QCOMPARE(
        model.index(row(QStringLiteral("inference-model")), 0).data(ConstraintsModel::PhaseRole).toString(),
        QStringLiteral("performance"));
}

void TestModels::validation() {
    const catalog::RecipeResult recipe =
        resolveLeaf(QStringLiteral("sample-2"), QStringLiteral("h100-eks-ubuntu-inference-dynamo"));
    QVERIFY(recipe.validation);
    ValidationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setValidation(recipe.validation, &cat(QStringLiteral("sample-2")).validators);

    // Phases present, in AICR's order.
    QStringList phases;
    for (const QString& p : catalog::Validation::phaseNames())
        if (recipe.validation->phase(p))
            phases << p;
    QCOMPARE(model.rowCount(), int(phases.size()));
    for (int p = 0; p < phases.size(); ++p) {
        const QModelIndex phase = model.index(p, 0);
        QCOMPARE(phase.data(ValidationModel::NameRole).toString(), phases[p]);
        QVERIFY(phase.data().toString().startsWith(phases[p] + QStringLiteral(" — ")));
        QCOMPARE(phase.data(ValidationModel::ItemKindRole).value<ValidationModel::ItemKind>(),
                 ValidationModel::ItemKind::Phase);
        const auto& spec = *recipe.validation->phase(phases[p]);
        const int checks = spec.checks ? int(spec.checks->size()) : 0;
        const int constraints = spec.constraints ? int(spec.constraints->size()) : 0;
        QCOMPARE(model.rowCount(phase), checks + constraints);
        if (!spec.timeout.isEmpty()) {
            QVERIFY(model.index(p, ValidationModel::ValueColumn).data().toString().contains(spec.timeout));
            QVERIFY(phase.data().toString().contains(spec.timeout));
        }
        for (int c = 0; c < checks; ++c) {
            QCOMPARE(model.index(c, 0, phase).data().toString(), spec.checks->at(c));
            QCOMPARE(model.index(c, ValidationModel::KindColumn, phase).data().toString(),
                     QStringLiteral("check"));
        }
    }

    // Performance: the benchmark inputs are not thresholds, the comparators are.
    const QModelIndex perf = model.index(int(phases.indexOf(QStringLiteral("performance"))), 0);
    QVERIFY(perf.isValid());
    QMap<QString, ValidationModel::ItemKind> kinds;
    for (int r = 0; r < model.rowCount(perf); ++r)
        kinds.insert(
            model.index(r, 0, perf).data().toString(),
            model.index(r, 0, perf).data(ValidationModel::ItemKindRole).value<ValidationModel::ItemKind>());
    QCOMPARE(kinds.value(QStringLiteral("inference-perf")), ValidationModel::ItemKind::Check);
    QCOMPARE(kinds.value(QStringLiteral("inference-model")), ValidationModel::ItemKind::Input);
    QCOMPARE(kinds.value(QStringLiteral("inference-routing-mode")), ValidationModel::ItemKind::Input);
    QCOMPARE(kinds.value(QStringLiteral("inference-throughput")), ValidationModel::ItemKind::Threshold);
    QCOMPARE(kinds.value(QStringLiteral("inference-ttft-p99")), ValidationModel::ItemKind::Threshold);
}

void TestModels::appliedOverlays() {
    const catalog::Catalog& c = cat(QStringLiteral("sample-2"));
    const catalog::RecipeResult recipe =
        resolveLeaf(QStringLiteral("sample-2"), QStringLiteral("h100-eks-ubuntu-inference-dynamo"));
    AppliedOverlaysModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRecipe(recipe, &c);

    QStringList overlays, mixins;
    for (int r = 0; r < model.rowCount(); ++r) {
        const QModelIndex idx = model.index(r, 0);
        const QString name = idx.data(AppliedOverlaysModel::OverlayNameRole).toString();
        const catalog::Overlay* o =
            idx.data(AppliedOverlaysModel::IsMixinRole).toBool() ? c.mixin(name) : c.overlay(name);
        QVERIFY2(o, qPrintable(name));
        QCOMPARE(idx.data(AppliedOverlaysModel::FileRole).toString(), o->file);
        (idx.data(AppliedOverlaysModel::IsMixinRole).toBool() ? mixins : overlays) << name;
    }
    QCOMPARE(overlays, recipe.appliedOverlays);
    QCOMPARE(overlays.last(), QStringLiteral("h100-eks-ubuntu-inference-dynamo"));
    QVERIFY(mixins.contains(QStringLiteral("os-ubuntu")));
    QVERIFY(mixins.contains(QStringLiteral("platform-dynamo")));
    // Mixins come after every overlay.
    QCOMPARE(model.index(int(overlays.size()), 0).data(AppliedOverlaysModel::IsMixinRole).toBool(), true);
}

void TestModels::clearResetsEverything() {
    const catalog::RecipeResult recipe =
        resolveLeaf(QStringLiteral("sample-1"), QStringLiteral("h100-eks-ubuntu-inference-dynamo"));
    ComponentsModel components;
    ConstraintsModel constraints;
    ValidationModel validation;
    AppliedOverlaysModel overlays;
    QAbstractItemModelTester t1(&components, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&constraints, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t3(&validation, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t4(&overlays, QAbstractItemModelTester::FailureReportingMode::QtTest);
    components.setRecipe(recipe);
    constraints.setRecipe(recipe);
    validation.setValidation(recipe.validation);
    overlays.setRecipe(recipe);
    QVERIFY(components.rowCount() > 0 && constraints.rowCount() > 0 && validation.rowCount() > 0);
    QCOMPARE(overlays.rowCount(), int(recipe.appliedOverlays.size())); // no catalog: no mixins, no files
    components.clear();
    constraints.clear();
    validation.clear();
    overlays.clear();
    QCOMPARE(components.rowCount() + constraints.rowCount() + validation.rowCount() + overlays.rowCount(), 0);
}

QTEST_MAIN(TestModels)
#include "tst_models.moc"
