// Recipe and catalog diffs, checked against the two resolved recipes independently.
#include "CatalogFixture.h"
#include "TestUtil.h"
#include "catalog/Diff.h"
#include "catalog/Loader.h"
#include "store/CatalogStore.h"

#include <QJsonArray>
#include <QTest>

using namespace pb;
using namespace pb::catalog;

namespace {

Criteria eksH100Training() {
    Criteria c;
    c.service = QStringLiteral("eks");
    c.accelerator = QStringLiteral("h100");
    c.os = QStringLiteral("ubuntu");
    c.intent = QStringLiteral("training");
    c.platform = QStringLiteral("kubeflow");
    return c;
}

Catalog load(const QString& dir) {
    Result<Catalog> c = loadCatalog(dir);
    if (!c)
        qFatal("%s", qPrintable(c.error().toString()));
    return *std::move(c);
}

// The test's own notion of "this component differs", field by field.
bool differs(const ComponentRef& a, const ComponentRef& b) {
    auto sorted = [](QStringList l) {
        l.sort();
        return l;
    };
    return a.chart != b.chart || a.version != b.version || a.tag != b.tag || a.source != b.source ||
           a.namespace_ != b.namespace_ || a.type != b.type || a.path != b.path ||
           a.valuesFile != b.valuesFile || a.isEnabled() != b.isEnabled() ||
           sorted(a.dependencyRefs) != sorted(b.dependencyRefs) ||
           sorted(a.manifestFiles) != sorted(b.manifestFiles) ||
           sorted(a.preManifestFiles) != sorted(b.preManifestFiles) ||
           yaml::toJson(a.overrides) != yaml::toJson(b.overrides) ||
           yaml::toJson(a.expectedResources) != yaml::toJson(b.expectedResources) ||
           a.healthCheckAsserts != b.healthCheckAsserts;
}

void checkAgainstRecipes(const RecipeDiff& d, const RecipeResult& a, const RecipeResult& b) {
    QSet<QString> names;
    for (const ComponentRef& c : a.componentRefs)
        names.insert(c.name);
    for (const ComponentRef& c : b.componentRefs)
        names.insert(c.name);
    QCOMPARE(static_cast<qsizetype>(d.components.size()), names.size());
    for (const ComponentDiff& c : d.components) {
        const ComponentRef* x = a.component(c.name);
        const ComponentRef* y = b.component(c.name);
        switch (c.change) {
        case Change::Added:
            QVERIFY2(!x && y, qPrintable(c.name));
            break;
        case Change::Removed:
            QVERIFY2(x && !y, qPrintable(c.name));
            break;
        case Change::Changed:
            QVERIFY2(x && y && differs(*x, *y), qPrintable(c.name));
            QVERIFY(!c.fields.empty());
            break;
        case Change::Unchanged:
            QVERIFY2(x && y && !differs(*x, *y), qPrintable(c.name));
            break;
        }
        QCOMPARE(c.fromOrder, static_cast<int>(a.deploymentOrder.indexOf(c.name)));
        QCOMPARE(c.toOrder, static_cast<int>(b.deploymentOrder.indexOf(c.name)));
        if (x && y && x->version != y->version) {
            bool reported = false;
            for (const FieldChange& f : c.fields)
                reported |= f.field == QLatin1String("version") && f.from == x->version && f.to == y->version;
            QVERIFY2(reported, qPrintable(c.name));
        }
    }
}

} // namespace

class TestDiff : public QObject {
    Q_OBJECT
  private slots:
    void realCatalogs_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addRow("v0.14.0 -> 2026-08-19") << "v0.14.0"
                                               << "2026-08-19";
        QTest::addRow("2026-07-09 -> 2026-08-19") << "2026-07-09"
                                                  << "2026-08-19";
    }
    void realCatalogs() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/%1").arg(from));
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/%1").arg(to));
        const Catalog ca = load(pbtest::realCatalog(from));
        const Catalog cb = load(pbtest::realCatalog(to));
        Result<RecipeResult> a = resolve(ca, eksH100Training());
        Result<RecipeResult> b = resolve(cb, eksH100Training());
        QVERIFY(a.ok() && b.ok());
        const RecipeDiff d = diffRecipes(*a, *b, from, to);
        checkAgainstRecipes(d, *a, *b);
        QVERIFY(!d.identical());
        QVERIFY(d.count(Change::Changed) > 0);
        // Every applied overlay of either side is listed once.
        QSet<QString> overlays(a->appliedOverlays.begin(), a->appliedOverlays.end());
        for (const QString& o : b->appliedOverlays)
            overlays.insert(o);
        QCOMPARE(static_cast<qsizetype>(d.appliedOverlays.size()), overlays.size());
    }

    // What a release page shows for EKS H100 training on Kubeflow, from our own two versions.
    void embeddedReleaseTable() {
        const Catalog ca = load(pbtest::embeddedCatalogDir(QStringLiteral("sample-1")));
        const Catalog cb = load(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
        const RecipeResult a =
            *store::resolveStoredRecipe(ca, QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
        const RecipeResult b =
            *store::resolveStoredRecipe(cb, QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
        const RecipeDiff d = diffRecipes(a, b, QStringLiteral("sample-1"), QStringLiteral("sample-2"));
        checkAgainstRecipes(d, a, b);
        auto find = [&](const QString& n) -> const ComponentDiff& {
            for (const ComponentDiff& c : d.components)
                if (c.name == n)
                    return c;
            qFatal("no %s", qPrintable(n));
        };
        QCOMPARE(find(QStringLiteral("gpu-operator")).fromVersion, QStringLiteral("v26.3.3"));
        QCOMPARE(find(QStringLiteral("gpu-operator")).toVersion, QStringLiteral("v26.7.1"));
        QCOMPARE(find(QStringLiteral("kai-scheduler")).toVersion, QStringLiteral("v0.16.9"));
        QCOMPARE(find(QStringLiteral("nodewright-operator")).change, Change::Added); // renamed from skyhook
        QCOMPARE(find(QStringLiteral("skyhook-operator")).change, Change::Removed);
        QCOMPARE(find(QStringLiteral("k8s-ephemeral-storage-metrics")).change, Change::Removed);
        QCOMPARE(find(QStringLiteral("nvsentinel")).change, Change::Added);
        // Order moves, as the release page's sync-wave column.
        const ComponentDiff& gpu = find(QStringLiteral("gpu-operator"));
        QCOMPARE(gpu.fromOrder, static_cast<int>(a.deploymentOrder.indexOf(QStringLiteral("gpu-operator"))));
        QCOMPARE(gpu.orderMoved(), gpu.fromOrder != gpu.toOrder);
        // Component counts and the markdown table.
        const QString md = toMarkdown(d);
        // A count that did not move is written once: "14", never "14 → 14".
        QVERIFY(md.contains(a.componentRefs.size() == b.componentRefs.size()
                                ? QStringLiteral("Components: %1 (").arg(a.componentRefs.size())
                                : QStringLiteral("Components: %1 → %2 (")
                                      .arg(a.componentRefs.size())
                                      .arg(b.componentRefs.size())));
        QVERIFY(md.contains(QStringLiteral("Evidence digest: `sha256:%1` → `sha256:%2`")
                                .arg(d.fromEvidenceDigest, d.toEvidenceDigest)));
        QVERIFY(md.contains(QStringLiteral("Format: apiVersion `aicr.run/v1alpha2` → `aicr.run/v1`")));
        QVERIFY(md.contains(QStringLiteral("| gpu-operator | v26.3.3 | v26.7.1 | changed |")));
        QVERIFY(md.contains(QStringLiteral("| K8s.server.version | >= 1.32.4 | >= 1.33 | changed |")));
        const QJsonObject j = toJson(d);
        QCOMPARE(j.value("components").toArray().size(), static_cast<int>(d.components.size()));
        QVERIFY(toText(d).contains(QStringLiteral("~ gpu-operator")));
    }

    void overridesComparedPathByPath() {
        pbtest::CatalogFixture f1, f2;
        f2.overlay(QStringLiteral("base"), R"(spec:
  constraints:
    - {name: K8s.server.version, value: ">= 1.31"}
  componentRefs:
    - name: cert-manager
      type: Helm
    - name: gpu-operator
      type: Helm
      dependencyRefs: [cert-manager]
      overrides: {driver: {enabled: true, version: "580"}, toolkit: {enabled: true}, cdi: {enabled: true}}
)");
        for (auto* f : {&f1, &f2})
            f->overlay(QStringLiteral("eks"), "spec:\n  criteria: {service: eks}\n");
        Criteria q;
        q.service = QStringLiteral("eks");
        const RecipeResult a = *resolve(load(f1.write()), q);
        const RecipeResult b = *resolve(load(f2.write()), q);
        const RecipeDiff d = diffRecipes(a, b);
        checkAgainstRecipes(d, a, b);
        QMap<QString, QPair<QString, QString>> fields;
        for (const ComponentDiff& c : d.components)
            if (c.name == QLatin1String("gpu-operator"))
                for (const FieldChange& fc : c.fields)
                    fields.insert(fc.field, {fc.from, fc.to});
        QCOMPARE(fields.value(QStringLiteral("overrides.driver.version")),
                 qMakePair(QStringLiteral("570"), QStringLiteral("580")));
        QCOMPARE(fields.value(QStringLiteral("overrides.cdi.enabled")),
                 qMakePair(QString(), QStringLiteral("true")));
        QVERIFY(
            !fields.contains(QStringLiteral("overrides.toolkit.enabled"))); // unchanged paths are not listed
        QCOMPARE(d.constraints.size(), size_t(1));
        QCOMPARE(d.constraints[0].change, Change::Changed);
        QCOMPARE(d.count(Change::Unchanged), 1); // cert-manager
    }

    void sameRecipeIsIdentical() {
        const Catalog c = load(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
        const RecipeResult r =
            *store::resolveStoredRecipe(c, QStringLiteral("gb300-eks-ubuntu-inference-dynamo"));
        const RecipeDiff d = diffRecipes(r, r);
        QVERIFY(d.identical());
        QCOMPARE(d.count(Change::Unchanged), static_cast<int>(r.componentRefs.size()));
        for (const ConstraintDiff& cd : d.constraints)
            QCOMPARE(cd.change, Change::Unchanged);
        for (const CheckDiff& cd : d.checks)
            QCOMPARE(cd.change, Change::Unchanged);
    }

    void embeddedCatalogDiff() {
        const Catalog ca = load(pbtest::embeddedCatalogDir(QStringLiteral("sample-1")));
        const Catalog cb = load(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
        const CatalogDiff d = diffCatalogs(ca, cb, QStringLiteral("sample-1"), QStringLiteral("sample-2"));
        QCOMPARE(d.leaves.size(), size_t(16));
        QCOMPARE(d.leafCount(Change::Added), 1);
        QCOMPARE(d.leafCount(Change::Removed), 0);
        auto change = [](const std::vector<NamedChange>& list, const QString& name) {
            for (const NamedChange& n : list)
                if (n.name == name)
                    return n;
            return NamedChange{
                name, Change::Unchanged, QStringLiteral("<absent>"), QStringLiteral("<absent>"), {}, false};
        };
        QCOMPARE(change(d.leaves, QStringLiteral("gb300-eks-ubuntu-inference-dynamo")).change, Change::Added);
        QCOMPARE(change(d.registry, QStringLiteral("k8s-ephemeral-storage-metrics")).change, Change::Removed);
        QCOMPARE(change(d.registry, QStringLiteral("nvsentinel")).change, Change::Added);
        const NamedChange gpu = change(d.registry, QStringLiteral("gpu-operator"));
        QCOMPARE(gpu.change, Change::Changed);
        QCOMPARE(gpu.from, QStringLiteral("v26.3.3"));
        QCOMPARE(gpu.to, QStringLiteral("v26.7.1"));
        QCOMPARE(change(d.validators, QStringLiteral("gke-gpu-nic-networks")).change, Change::Added);
        // Leaf digests agree with the store's, which resolves the same way.
        for (const NamedChange& n : d.leaves)
            if (n.change == Change::Changed)
                QVERIFY(n.from != n.to);
        QVERIFY(!d.componentMoves.empty());
        bool gpuMoved = false;
        for (const auto& [name, count] : d.componentMoves)
            gpuMoved |= name == QLatin1String("gpu-operator") && count > 0;
        QVERIFY(gpuMoved);
        QVERIFY(toMarkdown(d).contains(QStringLiteral("| Leaf recipes | 1 | 0 |")));
        QCOMPARE(toJson(d).value("leaves").toArray().size(), 16);
    }
};

QTEST_GUILESS_MAIN(TestDiff)
#include "tst_diff.moc"
