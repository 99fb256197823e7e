#include "CatalogFixture.h"
#include "TestUtil.h"
#include "catalog/Loader.h"
#include "catalog/Resolver.h"

#include <QRandomGenerator>
#include <QTest>

using namespace pb;
using namespace pb::catalog;

namespace {

Criteria crit(const QString& service, const QString& accelerator = {}, const QString& os = {},
              const QString& intent = {}, const QString& platform = {}) {
    Criteria c;
    c.service = service;
    c.accelerator = accelerator;
    c.os = os;
    c.intent = intent;
    c.platform = platform;
    return c;
}

// deploymentOrder lists exactly the enabled components, each after all its enabled dependencies.
QString topologicalProblem(const RecipeResult& r) {
    QStringList enabled;
    for (const ComponentRef& c : r.componentRefs)
        if (c.isEnabled())
            enabled << c.name;
    QStringList sortedOrder = r.deploymentOrder;
    sortedOrder.sort();
    enabled.sort();
    if (sortedOrder != enabled)
        return QStringLiteral("deploymentOrder does not list exactly the enabled components");
    for (const ComponentRef& c : r.componentRefs) {
        if (!c.isEnabled())
            continue;
        const qsizetype at = r.deploymentOrder.indexOf(c.name);
        for (const QString& dep : c.dependencyRefs) {
            const qsizetype depAt = r.deploymentOrder.indexOf(dep);
            if (depAt >= 0 && depAt > at)
                return QStringLiteral("%1 comes before its dependency %2").arg(c.name, dep);
        }
    }
    return {};
}

Catalog loadOk(const QString& root) {
    Result<Catalog> c = loadCatalog(root);
    if (!c)
        qWarning("%s", qPrintable(c.error().toString()));
    return c ? std::move(*c) : Catalog();
}

} // namespace

class TestCatalog : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    // ---- the real AICR catalogs ----------------------------------------------------------

    void realCatalogResolvesEveryLeaf_data() {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("apiVersion");
        QTest::addRow("2026-08-19") << "2026-08-19"
                                    << "aicr.run/v1alpha2";
        QTest::addRow("2026-07-09") << "2026-07-09"
                                    << "aicr.run/v1alpha2";
        QTest::addRow("v0.14.0") << "v0.14.0"
                                 << "aicr.nvidia.com/v1alpha1";
        QTest::addRow("v0.11.1") << "v0.11.1"
                                 << "aicr.nvidia.com/v1alpha1";
    }
    void realCatalogResolvesEveryLeaf() {
        QFETCH(QString, version);
        QFETCH(QString, apiVersion);
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/%1").arg(version));
        Result<Catalog> cat = loadCatalog(pbtest::realCatalog(version));
        QVERIFY2(cat.ok(), qPrintable(cat.ok() ? QString() : cat.error().toString()));
        QCOMPARE(cat->overlay(QStringLiteral("base"))->apiVersion.text, apiVersion);
        const auto leaves = resolveAllLeaves(*cat);
        QVERIFY(leaves.size() >= 10);
        for (const LeafResolution& lr : leaves) {
            QVERIFY2(!lr.error, qPrintable(lr.leaf + QStringLiteral(": ") +
                                           (lr.error ? lr.error->toString() : QString())));
            QCOMPARE(lr.result->appliedOverlays.constFirst(), QStringLiteral("base"));
            QCOMPARE(lr.result->appliedOverlays.constLast(), lr.leaf);
            const QString problem = topologicalProblem(*lr.result);
            QVERIFY2(problem.isEmpty(), qPrintable(lr.leaf + QStringLiteral(": ") + problem));
        }
    }

    void realCatalogEksH100TrainingKubeflow() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/2026-08-19"));
        const Catalog cat = loadOk(pbtest::realCatalog(QStringLiteral("2026-08-19")));
        Result<RecipeResult> r =
            resolve(cat, crit(QStringLiteral("eks"), QStringLiteral("h100"), QStringLiteral("ubuntu"),
                              QStringLiteral("training"), QStringLiteral("kubeflow")));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        const QStringList expected = {"base",
                                      "monitoring-hpa",
                                      "h100-any",
                                      "eks",
                                      "eks-training",
                                      "h100-eks-training",
                                      "h100-eks-ubuntu-training",
                                      "h100-eks-ubuntu-training-kubeflow"};
        QCOMPARE(r->appliedOverlays, expected);
        QCOMPARE(topologicalProblem(*r), QString());
        QCOMPARE(r->recipeName(), QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
        // Mixins os-ubuntu and platform-kubeflow were merged after the chain.
        QVERIFY(r->component(QStringLiteral("kubeflow-trainer")));
        bool hasOsId = false;
        for (const Constraint& c : r->constraints)
            hasOsId |= c.name == QLatin1String("OS.release.ID") && c.value == QLatin1String("ubuntu");
        QVERIFY(hasOsId);
        // Constraints come out sorted by name.
        for (size_t i = 1; i < r->constraints.size(); ++i)
            QVERIFY(r->constraints[i - 1].name < r->constraints[i].name);
        // The performance phase carries the NCCL floor from h100-eks-training.
        QVERIFY(r->validation && r->validation->performance && r->validation->performance->checks);
        QVERIFY(r->validation->performance->checks->contains(QStringLiteral("nccl-all-reduce-bw")));
    }

    void realCatalogProfileSelection() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/2026-08-19"));
        const Catalog cat = loadOk(pbtest::realCatalog(QStringLiteral("2026-08-19")));
        const Criteria q = crit(QStringLiteral("aks"), QStringLiteral("h100"), QStringLiteral("ubuntu"),
                                QStringLiteral("training"), QStringLiteral("kubeflow"));
        Result<RecipeResult> def = resolve(cat, q);
        QVERIFY2(def.ok(), qPrintable(def.ok() ? QString() : def.error().toString()));
        QVERIFY(def->selectedProfile);
        QCOMPARE(def->selectedProfile->name, QStringLiteral("gpuStack"));
        QCOMPARE(def->selectedProfile->value, QStringLiteral("azure-managed"));
        QCOMPARE(def->apiVersion, QStringLiteral("aicr.run/v1alpha3"));
        ResolveOptions opt;
        opt.profiles.insert(QStringLiteral("gpuStack"), QStringLiteral("operator-managed"));
        Result<RecipeResult> op = resolve(cat, q, opt);
        QVERIFY(op.ok());
        QCOMPARE(op->selectedProfile->value, QStringLiteral("operator-managed"));
        QVERIFY(op->recipeName().endsWith(QStringLiteral("-gpustack-operator-managed")));
        opt.profiles.insert(QStringLiteral("gpuStack"), QStringLiteral("no-such-value"));
        Result<RecipeResult> bad = resolve(cat, q, opt);
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.contains(QStringLiteral("no value 'no-such-value'")));
    }

    // ---- the embedded sample catalog -------------------------------------------------------

    void embeddedCatalog_data() {
        QTest::addColumn<QString>("version");
        QTest::addColumn<int>("leaves");
        QTest::addColumn<QString>("gpuOperator");
        QTest::addColumn<QString>("kaiScheduler");
        QTest::addRow("sample-1") << "sample-1" << 15 << "v26.3.3"
                                  << "v0.14.1";
        QTest::addRow("sample-2") << "sample-2" << 16 << "v26.7.1"
                                  << "v0.16.9";
    }
    void embeddedCatalog() {
        QFETCH(QString, version);
        QFETCH(int, leaves);
        QFETCH(QString, gpuOperator);
        QFETCH(QString, kaiScheduler);
        // The resource copy is what the app imports; the source tree copy must be identical.
        Result<Catalog> fromResource = loadCatalog(QStringLiteral(":/recipes/") + version);
        QVERIFY2(fromResource.ok(),
                 qPrintable(fromResource.ok() ? QString() : fromResource.error().toString()));
        const Catalog fromDir = loadOk(pbtest::embeddedCatalogDir(version));
        QCOMPARE(fromResource->contentDigest(), fromDir.contentDigest());
        const auto resolved = resolveAllLeaves(*fromResource);
        QCOMPARE(static_cast<int>(resolved.size()), leaves);
        bool sawKai = false;
        for (const LeafResolution& lr : resolved) {
            QVERIFY2(!lr.error, qPrintable(lr.leaf + QStringLiteral(": ") +
                                           (lr.error ? lr.error->toString() : QString())));
            QCOMPARE(topologicalProblem(*lr.result), QString());
            if (const ComponentRef* g = lr.result->component(QStringLiteral("gpu-operator")))
                QCOMPARE(g->version, gpuOperator);
            if (const ComponentRef* k = lr.result->component(QStringLiteral("kai-scheduler"))) {
                QCOMPARE(k->version, kaiScheduler);
                sawKai = true;
            }
        }
        QVERIFY(sawKai);
    }

    // ---- merge rules, one small fixture each ------------------------------------------------

    void constraintsLaterWinsAndSorted() {
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("eks"), R"(spec:
  criteria: {service: eks}
  constraints:
    - {name: K8s.server.version, value: ">= 1.32"}
    - {name: A.first, value: x}
)");
        Result<RecipeResult> r = resolve(loadOk(f.write()), crit(QStringLiteral("eks")));
        QVERIFY(r.ok());
        QCOMPARE(r->constraints.size(), size_t(2));
        QCOMPARE(r->constraints[0].name, QStringLiteral("A.first"));
        QCOMPARE(r->constraints[1].value, QStringLiteral(">= 1.32"));
    }

    void componentFieldsMergeByRule() {
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("eks"), R"(spec:
  criteria: {service: eks}
  componentRefs:
    - name: gpu-operator
      version: v25.10.0
      namespace: ""
      dependencyRefs: [cert-manager, nfd]
      manifestFiles: [components/gpu-operator/eks.yaml]
      overrides: {driver: {enabled: false}, cdi: {enabled: true}}
    - name: nfd
      type: Helm
)");
        Result<RecipeResult> r = resolve(loadOk(f.write()), crit(QStringLiteral("eks")));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        const ComponentRef* g = r->component(QStringLiteral("gpu-operator"));
        QVERIFY(g);
        QCOMPARE(g->version, QStringLiteral("v25.10.0")); // later non-empty wins
        QCOMPARE(g->namespace_,
                 QStringLiteral("gpu-operator")); // empty does not erase; registry default fills
        QCOMPARE(g->dependencyRefs, QStringList({"cert-manager", "nfd"})); // additive, no duplicates
        QCOMPARE(g->manifestFiles, QStringList({"components/gpu-operator/eks.yaml"}));
        // overrides deep-merge: driver.enabled replaced, driver.version kept, cdi added, toolkit kept.
        QCOMPARE(g->overrides.get("driver")->get("enabled")->scalar, std::string("false"));
        QCOMPARE(g->overrides.get("driver")->get("version")->scalar, std::string("570"));
        QVERIFY(g->overrides.get("cdi"));
        QVERIFY(g->overrides.get("toolkit"));
        // Components come out sorted by name; nfd got its chart and version from the registry.
        QCOMPARE(r->componentRefs.front().name, QStringLiteral("cert-manager"));
        const ComponentRef* n = r->component(QStringLiteral("nfd"));
        QCOMPARE(n->chart, QStringLiteral("node-feature-discovery"));
        QCOMPARE(n->version, QStringLiteral("0.17.3"));
        QCOMPARE(r->deploymentOrder, QStringList({"cert-manager", "nfd", "gpu-operator"}));
    }

    void validationChecksInheritClearAndUnion() {
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("training"), R"(spec:
  criteria: {intent: training}
  validation:
    deployment: {checks: [operator-health]}
    performance:
      timeout: 30m
      checks: [nccl-all-reduce-bw]
      constraints: [{name: nccl-all-reduce-bw, value: ">= 100"}]
    conformance: {checks: [dra-support]}
)");
        f.overlay(QStringLiteral("eks-training"), R"(spec:
  criteria: {service: eks, intent: training}
  base: training
  validation:
    deployment: {}
    performance:
      checks: [nccl-all-reduce-bw]
      constraints: [{name: nccl-all-reduce-bw, value: ">= 300"}, {name: nccl-all-reduce-bw-min-size, value: "8G"}]
    conformance: {checks: []}
)");
        Result<RecipeResult> r =
            resolve(loadOk(f.write()), crit(QStringLiteral("eks"), {}, {}, QStringLiteral("training")));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QCOMPARE(r->appliedOverlays, QStringList({"base", "training", "eks-training"}));
        const Validation& v = *r->validation;
        QCOMPARE(*v.deployment->checks, QStringList({"operator-health"}));     // nil inherits
        QCOMPARE(*v.performance->checks, QStringList({"nccl-all-reduce-bw"})); // union without duplicates
        QCOMPARE(v.performance->timeout, QStringLiteral("30m"));
        QCOMPARE(v.performance->constraints->size(), size_t(2));
        QCOMPARE(v.performance->constraints->at(0).value, QStringLiteral(">= 300")); // later wins by name
        QVERIFY(v.conformance->checks && v.conformance->checks->isEmpty());          // [] clears
    }

    void candidatesMaximalLeavesAndSpecificity() {
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("eks"), "spec:\n  criteria: {service: eks}\n");
        f.overlay(QStringLiteral("eks-training"),
                  "spec:\n  base: eks\n  criteria: {service: eks, intent: training}\n");
        f.overlay(QStringLiteral("h100-any"), "spec:\n  criteria: {service: any, accelerator: h100}\n");
        f.overlay(QStringLiteral("monitoring"), "spec:\n  criteria: {intent: any}\n");
        f.overlay(QStringLiteral("gke"), "spec:\n  criteria: {service: gke}\n");
        const Catalog cat = loadOk(f.write());
        Result<RecipeResult> r =
            resolve(cat, crit(QStringLiteral("eks"), QStringLiteral("h100"), {}, QStringLiteral("training")));
        QVERIFY(r.ok());
        // monitoring (specificity 0) < h100-any (1) < eks-training (2), whose chain brings eks;
        // eks itself is an ancestor of eks-training and so not a candidate of its own; gke never matches.
        QCOMPARE(r->appliedOverlays, QStringList({"base", "monitoring", "h100-any", "eks", "eks-training"}));
        // A query without an accelerator does not pick the accelerator-specific overlay.
        Result<RecipeResult> r2 = resolve(cat, crit(QStringLiteral("eks")));
        QVERIFY(r2.ok());
        QVERIFY(!r2->appliedOverlays.contains(QStringLiteral("h100-any")));
        QCOMPARE(cat.leafNames(), QStringList({"eks-training", "gke", "h100-any", "monitoring"}));
    }

    void mixinsMergeAfterChainAndRefuseCollisions() {
        pbtest::CatalogFixture f;
        f.mixin(QStringLiteral("os-ubuntu"), R"(spec:
  constraints: [{name: OS.release.ID, value: ubuntu}, {name: OS.release.VERSION_ID, value: "24.04"}]
  componentRefs:
    - {name: gpu-operator, namespace: gpu-system}
    - {name: nfd, type: Helm}
)");
        f.overlay(QStringLiteral("eks-ubuntu"),
                  "spec:\n  criteria: {service: eks, os: ubuntu}\n  mixins: [os-ubuntu]\n");
        Result<RecipeResult> r =
            resolve(loadOk(f.write()), crit(QStringLiteral("eks"), {}, QStringLiteral("ubuntu")));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QCOMPARE(r->component(QStringLiteral("gpu-operator"))->namespace_, QStringLiteral("gpu-system"));
        QVERIFY(r->component(QStringLiteral("nfd")));
        QCOMPARE(r->constraints.size(), size_t(3));

        pbtest::CatalogFixture clash;
        clash.mixin(QStringLiteral("os-ubuntu"),
                    "spec:\n  constraints: [{name: K8s.server.version, value: '>= 1.99'}]\n");
        clash.overlay(QStringLiteral("eks-ubuntu"),
                      "spec:\n  criteria: {service: eks, os: ubuntu}\n  mixins: [os-ubuntu]\n");
        Result<RecipeResult> c =
            resolve(loadOk(clash.write()), crit(QStringLiteral("eks"), {}, QStringLiteral("ubuntu")));
        QVERIFY(!c.ok());
        QVERIFY(c.error().message.contains(QStringLiteral("K8s.server.version")));
        QVERIFY(c.error().file.endsWith(QStringLiteral("mixins/os-ubuntu.yaml")));

        pbtest::CatalogFixture clash2;
        clash2.mixin(QStringLiteral("os-ubuntu"),
                     "spec:\n  componentRefs: [{name: gpu-operator, version: v1}]\n");
        clash2.overlay(QStringLiteral("eks-ubuntu"),
                       "spec:\n  criteria: {service: eks, os: ubuntu}\n  mixins: [os-ubuntu]\n");
        Result<RecipeResult> c2 =
            resolve(loadOk(clash2.write()), crit(QStringLiteral("eks"), {}, QStringLiteral("ubuntu")));
        QVERIFY(!c2.ok());
        QVERIFY(c2.error().message.contains(QStringLiteral("gpu-operator")));
    }

    void profilesDefaultAndChoice() {
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("aks"), R"(spec:
  criteria: {service: aks}
  profile:
    name: gpuStack
    default: azure-managed
    values:
      azure-managed:
        componentRefs: [{name: gpu-operator, overrides: {driver: {enabled: false}}}]
      operator-managed:
        constraints: [{name: K8s.aks-gpu-pools.gpu-driver, value: None}]
        componentRefs: [{name: gpu-operator, overrides: {driver: {enabled: true}}}]
)",
                  "aicr.run/v1alpha3");
        const Catalog cat = loadOk(f.write());
        Result<RecipeResult> def = resolve(cat, crit(QStringLiteral("aks")));
        QVERIFY2(def.ok(), qPrintable(def.ok() ? QString() : def.error().toString()));
        QCOMPARE(def->selectedProfile->value, QStringLiteral("azure-managed"));
        QCOMPARE(
            def->component(QStringLiteral("gpu-operator"))->overrides.get("driver")->get("enabled")->scalar,
            std::string("false"));
        QCOMPARE(def->apiVersion, QStringLiteral("aicr.run/v1alpha3"));
        ResolveOptions opt;
        opt.profiles.insert(QStringLiteral("gpuStack"), QStringLiteral("operator-managed"));
        Result<RecipeResult> op = resolve(cat, crit(QStringLiteral("aks")), opt);
        QVERIFY(op.ok());
        QCOMPARE(op->constraints.size(), size_t(2));
        QCOMPARE(op->recipeName(), QStringLiteral("aks-gpustack-operator-managed"));
        ResolveOptions unknown;
        unknown.profiles.insert(QStringLiteral("nosuch"), QStringLiteral("x"));
        QVERIFY(!resolve(cat, crit(QStringLiteral("aks")), unknown).ok());
    }

    void disabledComponentsLeaveTheOrder() {
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("eks"), R"(spec:
  criteria: {service: eks}
  componentRefs:
    - {name: cert-manager, overrides: {enabled: false}}
    - {name: kustom, dependencyRefs: [gpu-operator]}
)");
        Result<RecipeResult> r = resolve(loadOk(f.write()), crit(QStringLiteral("eks")));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QCOMPARE(r->deploymentOrder, QStringList({"gpu-operator", "kustom"}));
        QVERIFY(r->component(QStringLiteral("cert-manager"))); // still listed, only not deployed
        const ComponentRef* k = r->component(QStringLiteral("kustom"));
        QCOMPARE(k->type, QStringLiteral("Kustomize"));
        QCOMPARE(k->path, QStringLiteral("deploy/base"));
        QCOMPARE(k->tag, QStringLiteral("v1.0.0")); // the fixture registry's default tag
    }

    void coverageRequiresEveryStatedDimension() {
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("eks"), "spec:\n  criteria: {service: eks}\n");
        Result<RecipeResult> r =
            resolve(loadOk(f.write()), crit(QStringLiteral("eks"), QStringLiteral("h100")));
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QStringLiteral("accelerator=h100")));
        QCOMPARE(r.error().field, QStringLiteral("criteria.accelerator"));
    }

    // ---- bad input ----------------------------------------------------------------------------

    void badInputNamesFileAndReason_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<int>("line");
        QTest::addRow("malformed YAML") << "overlays/eks.yaml"
                                        << QByteArray("kind: RecipeMetadata\napiVersion: aicr.run/v1alpha2\n"
                                                      "metadata: {name: eks\nspec: {}\n")
                                        << "malformed YAML" << 0;
        QTest::addRow("wrong kind") << "overlays/eks.yaml"
                                    << QByteArray("kind: RecipeMixin\napiVersion: aicr.run/v1alpha2\n"
                                                  "metadata: {name: eks}\nspec: {}\n")
                                    << "wrong kind 'RecipeMixin'" << 1;
        QTest::addRow("unknown apiVersion") << "overlays/eks.yaml"
                                            << QByteArray("kind: RecipeMetadata\napiVersion: aicr.run/v9\n"
                                                          "metadata: {name: eks}\nspec: {}\n")
                                            << "unknown apiVersion 'aicr.run/v9'" << 2;
        QTest::addRow("missing base")
            << "overlays/eks.yaml"
            << QByteArray("kind: RecipeMetadata\napiVersion: aicr.run/v1alpha2\n"
                          "metadata: {name: eks}\nspec: {base: ekz, criteria: {service: eks}}\n")
            << "base overlay 'ekz' does not exist" << 0;
        QTest::addRow("field of the wrong shape")
            << "overlays/eks.yaml"
            << QByteArray("kind: RecipeMetadata\napiVersion: aicr.run/v1alpha2\n"
                          "metadata: {name: eks}\nspec:\n  componentRefs: {a: b}\n")
            << "expected a list" << 5;
        QTest::addRow("registry not a registry")
            << "registry.yaml" << QByteArray("kind: RecipeMetadata\napiVersion: aicr.run/v1alpha2\n")
            << "wrong kind" << 1;
    }
    void badInputNamesFileAndReason() {
        QFETCH(QString, path);
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        QFETCH(int, line);
        pbtest::CatalogFixture f;
        f.files[path] = content;
        Result<Catalog> c = loadCatalog(f.write());
        QVERIFY(!c.ok());
        QVERIFY2(c.error().file.endsWith(path), qPrintable(c.error().toString()));
        QVERIFY2(c.error().message.contains(reason), qPrintable(c.error().toString()));
        if (line > 0)
            QCOMPARE(c.error().line, line);
    }

    void dependencyCycleNamesComponents() {
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("eks"), R"(spec:
  criteria: {service: eks}
  componentRefs:
    - {name: cert-manager, dependencyRefs: [gpu-operator]}
)");
        Result<RecipeResult> r = resolve(loadOk(f.write()), crit(QStringLiteral("eks")));
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QStringLiteral("cycle")));
        QVERIFY(r.error().message.contains(QStringLiteral("cert-manager")));
        QVERIFY(r.error().message.contains(QStringLiteral("gpu-operator")));
    }

    void undeclaredDependencyIsAnError() {
        pbtest::CatalogFixture f;
        f.overlay(
            QStringLiteral("eks"),
            "spec:\n  criteria: {service: eks}\n  componentRefs: [{name: nfd, dependencyRefs: [ghost]}]\n");
        Result<RecipeResult> r = resolve(loadOk(f.write()), crit(QStringLiteral("eks")));
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QStringLiteral("'ghost'")));
    }

    void baseChainCycleIsAnError() {
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("a"), "spec:\n  base: b\n  criteria: {service: eks}\n");
        f.overlay(QStringLiteral("b"), "spec:\n  base: a\n  criteria: {service: eks}\n");
        Result<Catalog> c = loadCatalog(f.write());
        QVERIFY(!c.ok());
        QVERIFY(c.error().message.contains(QStringLiteral("cycle")));
    }

    void unknownFieldsAreKept() {
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("eks"), "spec:\n  criteria: {service: eks}\n  futureField: {x: 1}\n"
                                         "  componentRefs: [{name: nfd, futureKnob: true}]\n");
        const Catalog cat = loadOk(f.write());
        const Overlay* o = cat.overlay(QStringLiteral("eks"));
        QVERIFY(o);
        QVERIFY(o->spec.extra.get("futureField"));
        QVERIFY(o->spec.componentRefs.front().extra.get("futureKnob"));
        QVERIFY(o->raw.contains("futureField"));
    }

    void truncatedAndRandomCatalogFilesNeverCrash() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/2026-08-19"));
        QFile src(pbtest::realCatalog(QStringLiteral("2026-08-19")) +
                  QStringLiteral("/overlays/h100-eks-training.yaml"));
        QVERIFY(src.open(QIODevice::ReadOnly));
        const QByteArray original = src.readAll();
        QRandomGenerator rng(7);
        int refused = 0;
        for (int i = 0; i < 300; ++i) {
            QByteArray bytes = original.left(static_cast<int>(rng.bounded(original.size() + 1)));
            if (i % 2)
                for (int k = 0; k < 5 && !bytes.isEmpty(); ++k)
                    bytes[static_cast<int>(rng.bounded(bytes.size()))] = static_cast<char>(rng.bounded(256));
            Result<Overlay> o = parseOverlay(bytes, QStringLiteral("overlays/h100-eks-training.yaml"), false);
            if (!o) {
                ++refused;
                QVERIFY(!o.error().message.isEmpty());
                QCOMPARE(o.error().file, QStringLiteral("overlays/h100-eks-training.yaml"));
            }
        }
        QVERIFY(refused > 0);
    }
};

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
