// Bundle generation: parity with AICR's golden bundles (cases and rules in BundleGoldenCases.h),
// determinism, and generation from a real catalog.
//
// Only the CLI case opens a database: it runs on both engines (DbFixture.h), the rest on SQLite's half.
#include "BundleGoldenCases.h"
#include "DbFixture.h"
#include "TestUtil.h"
#include "bundle/GenKustomize.h"
#include "bundle/Generate.h"
#include "bundle/Read.h"
#include "catalog/Loader.h"
#include "catalog/Resolver.h"
#include "yaml/Yaml.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace pb;
using namespace pb::bundle;

namespace {

// `proofbench --db DB ARGS`: its exit code, its stdout in `stdoutBytes`; stderr is shown on failure.
int runCli(const QString& db, const QStringList& args, QByteArray* stdoutBytes = nullptr,
           const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess proc;
    proc.setProcessEnvironment(env);
    proc.start(QStringLiteral(PB_CLI_BINARY), QStringList{QStringLiteral("--db"), db} + args);
    proc.waitForFinished(120000);
    if (stdoutBytes)
        *stdoutBytes = proc.readAllStandardOutput();
    if (proc.exitCode() != 0)
        qWarning().noquote() << proc.readAllStandardError();
    return proc.exitCode();
}

} // namespace

using namespace pbtest::goldens;

namespace {

// One recipe with every shape a layout handles: a chart with an install-time value, an OCI chart
// (async in helmfile), a chart with pre- and post-manifests that depends on the first, and a
// manifest-only component that depends on it. Value override keys and CRD flags as a registry
// would give them.
GenerateInput richInput() {
    GenerateInput in;
    in.recipeVersion = QStringLiteral("v1.2.0");
    GenComponent cm = helmComponent(
        "cert-manager", "cert-manager", "cert-manager", "v1.17.2", "https://charts.jetstack.io",
        mapOf({{"crds", mapOf({{"enabled", b(true)}})}, {"replicaCount", yaml::Node::plain("2")}}));
    cm.overrideKey = QStringLiteral("certmanager");
    cm.dynamicPaths << QStringLiteral("replicaCount");
    GenComponent kai = helmComponent("kai-scheduler", "kai-scheduler", "kai-scheduler", "v0.14.1",
                                     "oci://ghcr.io/kai-scheduler/kai-scheduler");
    kai.overrideKey = QStringLiteral("kaischeduler");
    kai.selfReferencingCrds = true;
    GenComponent gpu = helmComponent("gpu-operator", "gpu-operator", "gpu-operator", "v25.3.3",
                                     "https://helm.ngc.nvidia.com/nvidia",
                                     mapOf({{"driver", mapOf({{"enabled", b(true)}})}}));
    gpu.overrideKey = QStringLiteral("gpuoperator");
    gpu.selfReferencingCrds = true;
    gpu.dependencyRefs << QStringLiteral("cert-manager");
    gpu.preManifests.push_back(
        {QStringLiteral("components/gpu-operator/manifests/namespace.yaml"), talos("gpu-operator")});
    gpu.postManifests.push_back(
        {QStringLiteral("components/gpu-operator/manifests/dcgm-exporter.yaml"), kDcgmArgo});
    GenComponent nw =
        helmComponent("nodewright-customizations", "skyhook", {}, {}, {}, mapOf({{"enabled", b(true)}}));
    nw.overrideKey = QStringLiteral("nodewrightcustomizations");
    nw.dependencyRefs << QStringLiteral("gpu-operator");
    nw.postManifests.push_back({QStringLiteral("components/nodewright-customizations/manifests/tuning.yaml"),
                                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tuning\n"});
    in.components = {nw, gpu, kai, cm}; // any order: deploymentOrder decides
    in.deploymentOrder = {QStringLiteral("cert-manager"), QStringLiteral("kai-scheduler"),
                          QStringLiteral("gpu-operator"), QStringLiteral("nodewright-customizations")};
    return in;
}

// richInput for a deployer: argocd carries no install-time values.
GenerateInput richInputFor(Deployer d) {
    GenerateInput in = richInput();
    if (d == Deployer::ArgoCD)
        for (GenComponent& c : in.components)
            c.dynamicPaths.clear();
    return in;
}

const std::vector<Deployer> kAllDeployers = {Deployer::Helm, Deployer::ArgoCD, Deployer::ArgoCDHelm,
                                             Deployer::Flux, Deployer::Helmfile};

QByteArray fileOf(const BundleTree& t, const QString& path) {
    const BundleFile* f = t.file(path);
    return f ? f->bytes : QByteArray();
}

// The YAML document after a file's header comment and "---".
yaml::Node docOf(const BundleTree& t, const QString& path) {
    QByteArray bytes = fileOf(t, path);
    const qsizetype sep = bytes.indexOf("---\n");
    if (sep >= 0 && bytes.left(sep).trimmed().startsWith('#'))
        bytes = bytes.mid(sep + 4);
    Result<yaml::Node> n = yaml::parse(bytes, path);
    return n ? *n : yaml::Node::null();
}

const yaml::Node* releaseNamed(const yaml::Node& helmfile, const QString& name) {
    if (const yaml::Node* rs = helmfile.get("releases"))
        for (const yaml::Node& r : rs->items)
            if (r.get("name") && r.get("name")->text() == name)
                return &r;
    return nullptr;
}

QStringList texts(const yaml::Node* seq) {
    QStringList out;
    if (seq)
        for (const yaml::Node& i : seq->items)
            out << (i.isMap() && i.get("name") ? i.get("name")->text() : i.text());
    return out;
}

} // namespace

class TestBundleGen : public QObject {
    Q_OBJECT

  private slots:
    void parity_data();
    void parity();
    void deterministic();
    void layoutAndOrder();
    void realCatalogLeaf();
    void readinessHooksFromCatalog();
    void dynamicValuesFromOptions();
    void roundTrip_data();
    void roundTrip();
    void helmfileReleases();
    void fluxReleases();
    void argoHelmChart();
    void deployerErrors();
    void parityRulesBite();
    void writeTreeRefusesForeignFolder();
    void writeTreeReplacesEarlierLayout();
    void cli();
    void oneTreeDigestEverywhere();
};

void TestBundleGen::parity_data() {
    PB_NO_DATABASE_ON_POSTGRES();
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("name");
    if (!QDir(goldens()).exists())
        return;
    for (const auto& [folder, deployer] : goldenFolders())
        for (const QString& c : QDir(goldens() + QLatin1Char('/') + folder)
                                    .entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            if (c == QLatin1String("kustomize_input")) // the kustomize cases' input, not a bundle
                continue;
            QTest::addRow("%s/%s", qPrintable(folder), qPrintable(c)) << folder << c;
        }
}

void TestBundleGen::parity() {
    if (!QDir(goldens()).exists())
        QSKIP("AICR's golden bundles (../shared/data/aicr/bundler-goldens) are not here");
    QFETCH(QString, folder);
    QFETCH(QString, name);
    const Case k = goldenCase(folder, name);
    if (!k.unreproducible.isEmpty())
        QFAIL(
            qPrintable(QStringLiteral("%1/%2 cannot be reproduced: %3").arg(folder, name, k.unreproducible)));
    Result<BundleTree> tree = render(k.input, k.options);
    QVERIFY2(tree.ok(), tree.ok() ? "" : qPrintable(tree.error().toString()));
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    // PB_KEEP_BUNDLES=1 keeps the generated bundles for a look (their folder is printed).
    if (qEnvironmentVariableIsSet("PB_KEEP_BUNDLES")) {
        tmp.setAutoRemove(false);
        qInfo().noquote() << "kept" << tmp.path();
    }
    const QString out = tmp.filePath(QStringLiteral("bundle"));
    const Status st = writeTree(*tree, out);
    QVERIFY2(st.ok(), st.ok() ? "" : qPrintable(st.error().toString()));
    QStringList notes;
    const QString golden = goldens() + QLatin1Char('/') + folder + QLatin1Char('/') + name;
    const QStringList problems = compareWithGolden(out, golden, k.options.deployer, &notes);
    qInfo().noquote() << QStringLiteral("parity %1/%2: %3 golden files, %4")
                             .arg(folder, name)
                             .arg(treePaths(golden).size())
                             .arg(problems.isEmpty() ? QStringLiteral("PASS") : QStringLiteral("FAIL"))
                      << (notes.isEmpty()
                              ? QString()
                              : QStringLiteral("; also written: ") + notes.join(QLatin1String(", ")));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TestBundleGen::deterministic() {
    PB_NO_DATABASE_ON_POSTGRES();
    for (const Deployer d : kAllDeployers) {
        const QString name = deployerName(d);
        GenerateOptions o;
        o.deployer = d;
        GenerateInput in = richInputFor(d);
        Result<BundleTree> a = render(in, o), b2 = render(in, o);
        QVERIFY2(a.ok() && b2.ok(),
                 qPrintable(name + QLatin1Char(' ') + (a.ok() ? QString() : a.error().toString())));
        QCOMPARE(treeDigest(*a), treeDigest(*b2));
        QCOMPARE(a->files.size(), b2->files.size());
        for (size_t i = 0; i < a->files.size(); ++i) {
            QCOMPARE(a->files[i].path, b2->files[i].path);
            QVERIFY2(a->files[i].bytes == b2->files[i].bytes,
                     qPrintable(name + QLatin1Char(' ') + a->files[i].path));
        }
        // The order the components are listed in does not matter, their deployment order does.
        std::reverse(in.components.begin(), in.components.end());
        Result<BundleTree> c = render(in, o);
        QVERIFY(c.ok());
        QCOMPARE(treeDigest(*c), treeDigest(*a));
        // A changed value changes the digest.
        in.components[0].values.set("extra", yaml::Node::plain("1"));
        Result<BundleTree> e = render(in, o);
        QVERIFY(e.ok());
        QVERIFY2(treeDigest(*e) != treeDigest(*a), qPrintable(name));
    }
}

void TestBundleGen::layoutAndOrder() {
    PB_NO_DATABASE_ON_POSTGRES();
    // Deployment order, not declaration or name order, numbers the folders; argocd waves follow
    // dependency tiers (a component after its dependency gets a later wave).
    GenerateInput in;
    in.components.push_back(helmComponent("gpu-operator", "gpu-operator", "gpu-operator", "v25.3.3",
                                          "https://helm.ngc.nvidia.com/nvidia"));
    in.components.push_back(helmComponent("cert-manager", "cert-manager", "cert-manager", "v1.17.2",
                                          "https://charts.jetstack.io"));
    in.components.push_back(helmComponent("nfd", "node-feature-discovery", "node-feature-discovery",
                                          "v0.16.4", "https://k.example/charts"));
    in.components[0].dependencyRefs << QStringLiteral("nfd") << QStringLiteral("cert-manager");
    in.deploymentOrder = {QStringLiteral("cert-manager"), QStringLiteral("nfd"),
                          QStringLiteral("gpu-operator")};
    GenerateOptions o;
    o.deployer = Deployer::ArgoCD;
    Result<BundleTree> t = render(in, o);
    QVERIFY(t.ok());
    QCOMPARE(t->folders.size(), size_t(3));
    QCOMPARE(t->folders[0].dir, QStringLiteral("001-cert-manager"));
    QCOMPARE(t->folders[1].dir, QStringLiteral("002-nfd"));
    QCOMPARE(t->folders[2].dir, QStringLiteral("003-gpu-operator"));
    QVERIFY(t->folders[2].syncWave > t->folders[1].syncWave);
    QCOMPARE(t->folders[0].syncWave, t->folders[1].syncWave);
    // An unsafe component name is refused.
    in.components[0].name = QStringLiteral("../evil");
    QVERIFY(!render(in, o).ok());
    // So is a namespace that is no Kubernetes name (it is written into deploy.sh and install.sh).
    in.components[0].name = QStringLiteral("gpu-operator");
    for (const char* ns : {"gpu;rm -rf /", "GPU", "a b", "$(id)", "-lead"}) {
        in.components[0].namespace_ = QString::fromLatin1(ns);
        for (const Deployer d : {Deployer::Helm, Deployer::ArgoCD}) {
            o.deployer = d;
            Result<BundleTree> refused = render(in, o);
            QVERIFY2(!refused && refused.error().field == QLatin1String("componentRefs.namespace"), ns);
        }
    }
}

void TestBundleGen::realCatalogLeaf() {
    PB_NO_DATABASE_ON_POSTGRES();
    const QString root = QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/2026-08-19/recipes");
    if (!QDir(root).exists())
        QSKIP("the 2026-08-19 catalog (../shared/data/aicr/catalogs) is not here");
    Result<catalog::Catalog> cat = catalog::loadCatalog(root);
    QVERIFY2(cat.ok(), cat.ok() ? "" : qPrintable(cat.error().toString()));
    const QStringList leaves = cat->leafNames();
    QVERIFY(!leaves.isEmpty());
    const QString leaf = leaves.contains(QStringLiteral("h100-eks-ubuntu-training"))
                             ? QStringLiteral("h100-eks-ubuntu-training")
                             : leaves.first();
    Result<catalog::RecipeResult> recipe = catalog::resolve(*cat, catalog::leafCriteria(*cat, leaf));
    QVERIFY2(recipe.ok(), recipe.ok() ? "" : qPrintable(recipe.error().toString()));
    for (const Deployer d : kAllDeployers) {
        GenerateOptions o;
        o.deployer = d;
        o.acceleratedNodeSelector.insert(QStringLiteral("nodeGroup"), QStringLiteral("gpu"));
        QTemporaryDir tmp;
        Result<BundleTree> t = generate(*cat, *recipe, o, tmp.filePath(QStringLiteral("b")));
        QVERIFY2(t.ok(), t.ok() ? "" : qPrintable(deployerName(d) + QLatin1Char(' ') + t.error().toString()));
        QVERIFY(t->file(QStringLiteral("recipe.yaml")));
        // Read back as the same deployer, one component per install step, every file explained.
        Result<model::ReadBundle> back = model::readBundle(tmp.filePath(QStringLiteral("b")));
        QVERIFY2(back.ok(), back.ok() ? "" : qPrintable(back.error().toString()));
        QCOMPARE(model::deployerName(back->bundle.deployer), deployerName(d));
        QCOMPARE(back->bundle.components.size(), t->folders.size());
        QVERIFY2(back->bundle.unknownFiles.isEmpty(),
                 qPrintable(back->bundle.unknownFiles.join(QLatin1Char(' '))));
        QCOMPARE(back->bundle.treeDigest, treeDigest(*t));
        // One primary folder per enabled component, in the recipe's deployment order.
        QStringList primaries;
        for (const BundleFolder& f : t->folders)
            if (f.name == f.component)
                primaries << f.name;
        QStringList expected;
        for (const QString& n : recipe->deploymentOrder)
            if (const catalog::ComponentRef* c = recipe->component(n); c && c->isEnabled())
                expected << n;
        QCOMPARE(primaries, expected);
        for (const BundleFile& f : t->files)
            QVERIFY2(QFileInfo::exists(tmp.filePath(QStringLiteral("b/") + f.path)), qPrintable(f.path));
    }
}

// --readiness-hooks: the catalog's components/<name>/readiness.yaml becomes a gate folder for the
// deployers that can wait on it; flux and helmfile refuse it, as AICR does.
void TestBundleGen::readinessHooksFromCatalog() {
    PB_NO_DATABASE_ON_POSTGRES();
    const QString root = QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/2026-08-19/recipes");
    if (!QDir(root).exists())
        QSKIP("the 2026-08-19 catalog (../shared/data/aicr/catalogs) is not here");
    Result<catalog::Catalog> cat = catalog::loadCatalog(root);
    QVERIFY(cat.ok());
    QVERIFY(cat->file(QStringLiteral("components/gpu-operator/readiness.yaml")));
    const QString leaf = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
    QVERIFY(cat->leafNames().contains(leaf));
    Result<catalog::RecipeResult> recipe = catalog::resolve(*cat, catalog::leafCriteria(*cat, leaf));
    QVERIFY2(recipe.ok(), recipe.ok() ? "" : qPrintable(recipe.error().toString()));
    QVERIFY(recipe->component(QStringLiteral("gpu-operator")));
    for (const Deployer d : kAllDeployers) {
        GenerateOptions o;
        o.deployer = d;
        o.readinessHooks = true;
        Result<GenerateInput> in = inputFromRecipe(*cat, *recipe, o);
        QVERIFY2(in.ok(), in.ok() ? "" : qPrintable(in.error().toString()));
        Result<BundleTree> t = render(*in, o);
        if (d == Deployer::Flux || d == Deployer::Helmfile) {
            QVERIFY2(!t.ok(), qPrintable(deployerName(d)));
            QVERIFY(t.error().message.contains(QLatin1String("readiness gate")));
            continue;
        }
        QVERIFY2(t.ok(), t.ok() ? "" : qPrintable(t.error().toString()));
        const auto gate = std::find_if(t->folders.begin(), t->folders.end(), [](const BundleFolder& f) {
            return f.name == QLatin1String("gpu-operator-readiness");
        });
        QVERIFY(gate != t->folders.end());
        const QByteArray job = fileOf(*t, gate->dir + QStringLiteral("/templates/readiness.yaml"));
        QVERIFY(job.contains("kind: Job"));
        // The catalog's Test is carried in the gate's ConfigMap.
        QVERIFY(job.contains("chainsaw.kyverno.io"));
        QCOMPARE(job.contains("argocd.argoproj.io/sync-options: Replace=true"), d != Deployer::Helm);
        // Without the option there is no gate.
        o.readinessHooks = false;
        Result<GenerateInput> plainIn = inputFromRecipe(*cat, *recipe, o);
        QVERIFY(plainIn.ok());
        Result<BundleTree> plain = render(*plainIn, o);
        QVERIFY(plain.ok());
        for (const BundleFolder& f : plain->folders)
            QVERIFY(f.phase != QLatin1String("readiness"));
    }
}

// --dynamic component:path (by name or value override key) through inputFromRecipe and the catalog.
void TestBundleGen::dynamicValuesFromOptions() {
    PB_NO_DATABASE_ON_POSTGRES();
    Result<catalog::Catalog> cat =
        catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
    QVERIFY(cat.ok());
    const QString leaf = cat->leafNames().constFirst();
    Result<catalog::RecipeResult> recipe = catalog::resolve(*cat, catalog::leafCriteria(*cat, leaf));
    QVERIFY(recipe.ok());
    QVERIFY(recipe->component(QStringLiteral("gpu-operator")));
    GenerateOptions o;
    o.deployer = Deployer::Helmfile;
    o.dynamicValues = {QStringLiteral("gpuoperator:driver.version"),
                       QStringLiteral("gpu-operator:driver.notThere")};
    Result<GenerateInput> in = inputFromRecipe(*cat, *recipe, o);
    QVERIFY2(in.ok(), in.ok() ? "" : qPrintable(in.error().toString()));
    const auto gpu = std::find_if(in->components.begin(), in->components.end(), [](const GenComponent& c) {
        return c.name == QLatin1String("gpu-operator");
    });
    QVERIFY(gpu != in->components.end());
    QCOMPARE(gpu->overrideKey, QStringLiteral("gpuoperator"));
    QCOMPARE(gpu->dynamicPaths,
             QStringList({QStringLiteral("driver.version"), QStringLiteral("driver.notThere")}));
    const yaml::Node* version =
        gpu->values.get("driver") ? gpu->values.get("driver")->get("version") : nullptr;
    Result<BundleTree> t = render(*in, o);
    QVERIFY2(t.ok(), t.ok() ? "" : qPrintable(t.error().toString()));
    QString dir;
    for (const BundleFolder& f : t->folders)
        if (f.name == QLatin1String("gpu-operator"))
            dir = f.dir;
    // The static values lose the path, cluster-values.yaml holds it (a path the values lack as "").
    const yaml::Node statics = docOf(*t, dir + QStringLiteral("/values.yaml"));
    const yaml::Node cluster = docOf(*t, dir + QStringLiteral("/cluster-values.yaml"));
    QVERIFY(!statics.get("driver") || !statics.get("driver")->get("version"));
    QVERIFY(cluster.get("driver"));
    if (version)
        QCOMPARE(cluster.get("driver")->get("version")->text(), version->text());
    QCOMPARE(cluster.get("driver")->get("notThere")->text(), QString());
    // Errors name the flag.
    o.dynamicValues = {QStringLiteral("no-such-component:x")};
    Result<GenerateInput> bad = inputFromRecipe(*cat, *recipe, o);
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().field, QStringLiteral("--dynamic"));
    o.dynamicValues = {QStringLiteral("gpu-operator")};
    QVERIFY(!inputFromRecipe(*cat, *recipe, o).ok());
}

void TestBundleGen::roundTrip_data() {
    QTest::addColumn<int>("deployer");
    for (const Deployer d : kAllDeployers)
        QTest::addRow("%s", qPrintable(deployerName(d))) << static_cast<int>(d);
}

// generate -> read (bundle show / diff read bundles this way): the same deployer, one component
// per install step, the same chart versions and effective values, every file explained, the same
// tree digest.
void TestBundleGen::roundTrip() {
    PB_NO_DATABASE_ON_POSTGRES();
    QFETCH(int, deployer);
    const Deployer d = static_cast<Deployer>(deployer);
    GenerateOptions o;
    o.deployer = d;
    const GenerateInput in = richInputFor(d);
    Result<BundleTree> t = render(in, o);
    QVERIFY2(t.ok(), t.ok() ? "" : qPrintable(t.error().toString()));
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("bundle"));
    QVERIFY(writeTree(*t, dir).ok());
    Result<model::ReadBundle> back = model::readBundle(dir);
    QVERIFY2(back.ok(), back.ok() ? "" : qPrintable(back.error().toString()));
    const model::DeployBundle& b = back->bundle;
    QCOMPARE(model::deployerName(b.deployer), deployerName(d));
    QVERIFY2(b.unknownFiles.isEmpty(), qPrintable(b.unknownFiles.join(QLatin1Char(' '))));
    QCOMPARE(b.treeDigest, treeDigest(*t));

    QStringList written, read;
    for (const BundleFolder& f : t->folders)
        written << f.name;
    for (const model::Component& c : b.components)
        read << c.name;
    if (d == Deployer::Flux) { // Flux has no order but dependsOn: compare the sets
        written.sort();
        read.sort();
    }
    QCOMPARE(read, written);
    QCOMPARE(t->folders.size(), size_t(6)); // cert-manager, kai-scheduler, gpu-operator x3, nodewright

    for (const BundleFolder& f : t->folders) {
        if (f.kind != QLatin1String("upstream-helm"))
            continue;
        const GenComponent& c = *std::find_if(in.components.begin(), in.components.end(),
                                              [&](const GenComponent& g) { return g.name == f.component; });
        const model::Component* rc = b.component(f.name);
        QVERIFY2(rc, qPrintable(f.name));
        auto bare = [](QString v) { return v.startsWith(QLatin1Char('v')) ? v.mid(1) : v; };
        QCOMPARE(bare(rc->version.text), bare(c.version));
        QCOMPARE(rc->chart.text, c.chart);
        QCOMPARE(rc->source, QStringLiteral("upstream-chart"));
        // Static and install-time values together are what the recipe gave the component.
        QVERIFY2(rc->valuesComplete, qPrintable(rc->notes.join(QLatin1Char(' '))));
        QCOMPARE(rc->values, yaml::toJson(c.values).toObject());
    }
}

// helmfile: levels, needs, async and CRD flags, createNamespace, cluster values; --serial.
void TestBundleGen::helmfileReleases() {
    PB_NO_DATABASE_ON_POSTGRES();
    GenerateOptions o;
    o.deployer = Deployer::Helmfile;
    Result<BundleTree> t = render(richInput(), o);
    QVERIFY2(t.ok(), t.ok() ? "" : qPrintable(t.error().toString()));
    QVERIFY(!t->file(QStringLiteral("deploy.sh")));
    const yaml::Node top = docOf(*t, QStringLiteral("helmfile.yaml"));
    QStringList levels;
    for (const yaml::Node& e : top.get("helmfiles")->items)
        levels << e.get("path")->text();
    QCOMPARE(levels, QStringList({QStringLiteral("level-0.yaml"), QStringLiteral("level-1.yaml"),
                                  QStringLiteral("level-2.yaml")}));
    const yaml::Node l0 = docOf(*t, QStringLiteral("level-0.yaml"));
    const yaml::Node l1 = docOf(*t, QStringLiteral("level-1.yaml"));
    const yaml::Node l2 = docOf(*t, QStringLiteral("level-2.yaml"));
    QCOMPARE(texts(l0.get("releases")),
             QStringList({QStringLiteral("cert-manager"), QStringLiteral("kai-scheduler")}));
    QCOMPARE(texts(l1.get("releases")),
             QStringList({QStringLiteral("gpu-operator-pre"), QStringLiteral("gpu-operator"),
                          QStringLiteral("gpu-operator-post")}));
    QCOMPARE(texts(l2.get("releases")), QStringList({QStringLiteral("nodewright-customizations")}));
    // Only the repositories a level uses; OCI without its scheme.
    QCOMPARE(l0.get("repositories")->size(), size_t(2));
    QCOMPARE(l0.get("repositories")->items[1].get("url")->text(),
             QStringLiteral("ghcr.io/kai-scheduler/kai-scheduler"));
    QVERIFY(!l2.get("repositories"));
    const yaml::Node* cm = releaseNamed(l0, QStringLiteral("cert-manager"));
    QCOMPARE(texts(cm->get("values")),
             QStringList({QStringLiteral("./001-cert-manager/values.yaml"),
                          QStringLiteral("./001-cert-manager/cluster-values.yaml")}));
    QVERIFY(!cm->get("needs"));
    const yaml::Node* kai = releaseNamed(l0, QStringLiteral("kai-scheduler"));
    QCOMPARE(kai->get("wait")->text(), QStringLiteral("false"));
    QCOMPARE(kai->get("timeout")->text(), QStringLiteral("1200"));
    QCOMPARE(kai->get("chart")->text(), QStringLiteral("ghcr-io-kai-scheduler-kai-scheduler/kai-scheduler"));
    QCOMPARE(kai->get("version")->text(), QStringLiteral("v0.14.1"));
    QVERIFY(!kai->get("needs")); // independent components of a level apply in parallel
    const yaml::Node* pre = releaseNamed(l1, QStringLiteral("gpu-operator-pre"));
    QCOMPARE(pre->get("createNamespace")->text(), QStringLiteral("false")); // it creates its Namespace itself
    QVERIFY(!pre->get("disableValidation"));
    const yaml::Node* gpu = releaseNamed(l1, QStringLiteral("gpu-operator"));
    QCOMPARE(texts(gpu->get("needs")), QStringList({QStringLiteral("gpu-operator-pre")}));
    QCOMPARE(gpu->get("disableValidation")->text(), QStringLiteral("true"));
    QVERIFY(!gpu->get("createNamespace"));
    const yaml::Node* post = releaseNamed(l1, QStringLiteral("gpu-operator-post"));
    QCOMPARE(texts(post->get("needs")), QStringList({QStringLiteral("gpu-operator")}));
    QCOMPARE(post->get("chart")->text(), QStringLiteral("./005-gpu-operator-post"));
    QVERIFY(!post->get("disableValidation")); // manifestsUseChartCrds is not set
    // The folders keep the helm layout.
    QVERIFY(t->file(QStringLiteral("005-gpu-operator-post/install.sh")));
    QVERIFY(t->file(QStringLiteral("001-cert-manager/upstream.env")));

    // --serial: every release needs the one before it in its file, across namespaces as ns/name.
    o.serial = true;
    Result<BundleTree> s = render(richInput(), o);
    QVERIFY(s.ok());
    const yaml::Node s0 = docOf(*s, QStringLiteral("level-0.yaml"));
    QCOMPARE(texts(releaseNamed(s0, QStringLiteral("kai-scheduler"))->get("needs")),
             QStringList({QStringLiteral("cert-manager/cert-manager")}));
    // One level: everything in helmfile.yaml.
    GenerateInput flat = richInput();
    for (GenComponent& c : flat.components)
        c.dependencyRefs.clear();
    o.serial = false;
    Result<BundleTree> f = render(flat, o);
    QVERIFY(f.ok());
    QVERIFY(!f->file(QStringLiteral("level-0.yaml")));
    QCOMPARE(texts(docOf(*f, QStringLiteral("helmfile.yaml")).get("releases")).size(), 6);
}

// flux: dependsOn from dependencyRefs (a dependency's last release), pre/post chains, local charts
// from the Git source, install-time values in a ConfigMap, OCI repositories; --serial.
void TestBundleGen::fluxReleases() {
    PB_NO_DATABASE_ON_POSTGRES();
    GenerateOptions o;
    o.deployer = Deployer::Flux;
    o.repoUrl = QStringLiteral("https://git.example.com/team/gitops.git");
    o.fluxNamespace = QStringLiteral("gitops");
    Result<BundleTree> t = render(richInput(), o);
    QVERIFY2(t.ok(), t.ok() ? "" : qPrintable(t.error().toString()));
    auto spec = [&](const QString& release) {
        return *docOf(*t, release + QStringLiteral("/helmrelease.yaml")).get("spec");
    };
    QVERIFY(!spec(QStringLiteral("cert-manager")).get("dependsOn"));
    QVERIFY(!spec(QStringLiteral("kai-scheduler")).get("dependsOn"));
    QCOMPARE(texts(spec(QStringLiteral("gpu-operator-pre")).get("dependsOn")),
             QStringList({QStringLiteral("cert-manager")}));
    QCOMPARE(texts(spec(QStringLiteral("gpu-operator")).get("dependsOn")),
             QStringList({QStringLiteral("gpu-operator-pre")}));
    QCOMPARE(texts(spec(QStringLiteral("gpu-operator-post")).get("dependsOn")),
             QStringList({QStringLiteral("gpu-operator")}));
    QCOMPARE(texts(spec(QStringLiteral("nodewright-customizations")).get("dependsOn")),
             QStringList({QStringLiteral("gpu-operator-post")}));
    // Objects in the Flux namespace; the release's own namespace is its target.
    QCOMPARE(
        docOf(*t, QStringLiteral("cert-manager/helmrelease.yaml")).get("metadata")->get("namespace")->text(),
        QStringLiteral("gitops"));
    QCOMPARE(spec(QStringLiteral("cert-manager")).get("targetNamespace")->text(),
             QStringLiteral("cert-manager"));
    // Install-time values: a ConfigMap read through valuesFrom, left out of spec.values.
    const yaml::Node cmSpec = spec(QStringLiteral("cert-manager"));
    QCOMPARE(texts(cmSpec.get("valuesFrom")), QStringList({QStringLiteral("cert-manager-values")}));
    QVERIFY(!cmSpec.get("values")->get("replicaCount"));
    const yaml::Node cm = docOf(*t, QStringLiteral("cert-manager/configmap-values.yaml"));
    QCOMPARE(cm.get("metadata")->get("name")->text(), QStringLiteral("cert-manager-values"));
    QCOMPARE(cm.get("data")->get("values.yaml")->text(), QStringLiteral("replicaCount: 2\n"));
    // OCI: a repository of type oci and the literal tag; others without the "v".
    const yaml::Node kaiChart = *spec(QStringLiteral("kai-scheduler")).get("chart")->get("spec");
    QCOMPARE(kaiChart.get("version")->text(), QStringLiteral("v0.14.1"));
    const yaml::Node kaiRepo = docOf(
        *t, QStringLiteral("sources/helmrepo-%1.yaml").arg(kaiChart.get("sourceRef")->get("name")->text()));
    QCOMPARE(kaiRepo.get("spec")->get("type")->text(), QStringLiteral("oci"));
    QCOMPARE(spec(QStringLiteral("gpu-operator")).get("chart")->get("spec")->get("version")->text(),
             QStringLiteral("25.3.3"));
    // Local charts: the manifests as written, from the bundle's Git repository, values under the name.
    const yaml::Node nwChart = *spec(QStringLiteral("nodewright-customizations")).get("chart")->get("spec");
    QCOMPARE(nwChart.get("chart")->text(), QStringLiteral("./nodewright-customizations"));
    QCOMPARE(nwChart.get("sourceRef")->get("kind")->text(), QStringLiteral("GitRepository"));
    QCOMPARE(nwChart.get("sourceRef")->get("name")->text(), QStringLiteral("git-example-com-team-gitops"));
    QVERIFY(
        spec(QStringLiteral("nodewright-customizations")).get("values")->get("nodewright-customizations"));
    QCOMPARE(
        fileOf(*t, QStringLiteral(
                       "gpu-operator-post/templates/components/gpu-operator/manifests/dcgm-exporter.yaml")),
        kDcgmArgo);
    QCOMPARE(docOf(*t, QStringLiteral("sources/gitrepo-git-example-com-team-gitops.yaml"))
                 .get("spec")
                 ->get("url")
                 ->text(),
             o.repoUrl);
    // kustomization.yaml lists every object file, and only files that exist.
    QStringList listed = texts(docOf(*t, QStringLiteral("kustomization.yaml")).get("resources"));
    QStringList expected;
    for (const BundleFile& f : t->files)
        if (f.path.endsWith(QLatin1String("/helmrelease.yaml")) ||
            f.path.endsWith(QLatin1String("/configmap-values.yaml")) ||
            f.path.startsWith(QLatin1String("sources/")))
            expected << f.path;
    expected.sort();
    QCOMPARE(listed, expected);
    // One folder per release, no NNN- numbering.
    QCOMPARE(t->folders.size(), size_t(6));
    QCOMPARE(t->folders.front().dir, QStringLiteral("cert-manager"));

    // --serial: each component waits for the one before it.
    o.serial = true;
    Result<BundleTree> s = render(richInput(), o);
    QVERIFY(s.ok());
    QCOMPARE(texts(docOf(*s, QStringLiteral("kai-scheduler/helmrelease.yaml")).get("spec")->get("dependsOn")),
             QStringList({QStringLiteral("cert-manager")}));
    QCOMPARE(
        texts(docOf(*s, QStringLiteral("gpu-operator-pre/helmrelease.yaml")).get("spec")->get("dependsOn")),
        QStringList({QStringLiteral("kai-scheduler")}));
}

// argocd-helm: the chart, its install-time values and deployer defaults, options and refusals.
void TestBundleGen::argoHelmChart() {
    PB_NO_DATABASE_ON_POSTGRES();
    GenerateOptions o;
    o.deployer = Deployer::ArgoCDHelm;
    o.appName = QStringLiteral("gpu-stack");
    o.namePrefix = QStringLiteral("team-a-");
    o.project = QStringLiteral("platform");
    o.cascadeDelete = true;
    o.repoUrl = QStringLiteral("oci://registry.example.com/bundles");
    o.chartName = QStringLiteral("gpu-bundle");
    o.chartVersion = QStringLiteral("2.0.1");
    Result<BundleTree> t = render(richInput(), o);
    QVERIFY2(t.ok(), t.ok() ? "" : qPrintable(t.error().toString()));
    for (const BundleFile& f : t->files)
        QVERIFY2(!f.path.endsWith(QLatin1String("application.yaml")) &&
                     f.path != QLatin1String("app-of-apps.yaml"),
                 qPrintable(f.path));
    const yaml::Node values = docOf(*t, QStringLiteral("values.yaml"));
    QCOMPARE(values.get("appName")->text(), o.appName);
    QCOMPARE(values.get("repoURL")->text(), o.repoUrl);
    QCOMPARE(values.get("deployer")->get("namePrefix")->text(), o.namePrefix);
    QCOMPARE(values.get("deployer")->get("project")->text(), o.project);
    QCOMPARE(values.get("certmanager")->get("replicaCount")->text(), QStringLiteral("2"));
    QVERIFY(!values.get("gpuoperator")); // no install-time values declared
    QVERIFY(!docOf(*t, QStringLiteral("static/cert-manager.yaml")).get("replicaCount"));
    QVERIFY(t->file(QStringLiteral("static/kai-scheduler.yaml")));
    QVERIFY(!t->file(QStringLiteral("static/nodewright-customizations.yaml"))); // a folder chart
    const yaml::Node chart = docOf(*t, QStringLiteral("Chart.yaml"));
    QCOMPARE(chart.get("name")->text(), o.chartName);
    QCOMPARE(chart.get("version")->text(), o.chartVersion);
    // cascadeDelete: the finalizer on the parent and every child.
    QVERIFY(fileOf(*t, QStringLiteral("templates/aicr-stack.yaml"))
                .contains("resources-finalizer.argocd.argoproj.io"));
    for (const BundleFolder& f : t->folders)
        QVERIFY2(fileOf(*t, QStringLiteral("templates/%1.yaml").arg(f.name))
                     .contains("resources-finalizer.argocd.argoproj.io"),
                 qPrintable(f.name));
    // A chart from a repository merges its static file with its install-time values; a folder
    // chart (path source inside the pushed chart) reads its install-time values only.
    const QByteArray cm = fileOf(*t, QStringLiteral("templates/cert-manager.yaml"));
    QVERIFY(cm.contains(".Files.Get \"static/cert-manager.yaml\"") &&
            cm.contains("index .Values \"certmanager\""));
    const QByteArray nw = fileOf(*t, QStringLiteral("templates/nodewright-customizations.yaml"));
    QVERIFY(nw.contains("path: 006-nodewright-customizations") && !nw.contains(".Files.Get"));
    QVERIFY(nw.contains("values: |-")); // a block: the YAML Helm renders there stays one value

    // --serial: one sync-wave per folder.
    o.serial = true;
    Result<BundleTree> s = render(richInput(), o);
    QVERIFY(s.ok());
    for (size_t i = 0; i < s->folders.size(); ++i)
        QCOMPARE(s->folders[i].syncWave, static_cast<int>(i));

    // Refusals name what is wrong.
    o.serial = false;
    auto refused = [&](GenerateInput in, GenerateOptions opt, const QString& field) {
        Result<BundleTree> r = render(in, opt);
        if (r.ok())
            return QStringLiteral("accepted");
        return r.error().field == field
                   ? QString()
                   : QStringLiteral("field %1: %2").arg(r.error().field, r.error().toString());
    };
    GenerateInput noKey = richInput();
    noKey.components[0].overrideKey.clear();
    QCOMPARE(refused(noKey, o, QStringLiteral("valueOverrideKeys")), QString());
    GenerateInput localDynamic = richInput();
    localDynamic.components[0].dynamicPaths << QStringLiteral("enabled"); // nodewright-customizations
    QCOMPARE(refused(localDynamic, o, QStringLiteral("--dynamic")), QString());
    GenerateOptions bad = o;
    bad.chartVersion = QStringLiteral("v2");
    QCOMPARE(refused(richInput(), bad, QStringLiteral("chartVersion")), QString());
    bad = o;
    bad.namePrefix = QStringLiteral("Team_A");
    QCOMPARE(refused(richInput(), bad, QStringLiteral("deployer:namePrefix")), QString());
    bad = o;
    bad.destinationServer = QStringLiteral("http://user:pw@cluster");
    QCOMPARE(refused(richInput(), bad, QStringLiteral("deployer:destinationServer")), QString());
    bad = o;
    bad.namePrefix = QStringLiteral("a-very-long-prefix-that-pushes-names-past-the-limit-");
    QCOMPARE(refused(richInput(), bad, QStringLiteral("componentRefs.name")), QString());
}

void TestBundleGen::deployerErrors() {
    PB_NO_DATABASE_ON_POSTGRES();
    for (const QString& n : deployerNames()) {
        Result<Deployer> d = parseDeployer(n.toUpper());
        QVERIFY2(d.ok(), qPrintable(n));
        QCOMPARE(deployerName(*d), n);
    }
    QCOMPARE(deployerNames().size(), 5);
    Result<Deployer> bad = parseDeployer(QStringLiteral("nomad"));
    QVERIFY(!bad.ok());
    for (const QString& n : deployerNames())
        QVERIFY2(bad.error().message.contains(n), qPrintable(bad.error().message));
    QCOMPARE(bad.error().field, QStringLiteral("--deployer"));
    // argocd has no place for install-time values.
    GenerateOptions o;
    o.deployer = Deployer::ArgoCD;
    Result<BundleTree> argo = render(richInput(), o);
    QVERIFY(!argo.ok());
    QVERIFY(argo.error().message.contains(QLatin1String("cert-manager")));
    // An Application name must be a DNS-1123 subdomain.
    GenerateOptions named;
    named.deployer = Deployer::ArgoCD;
    named.appName = QStringLiteral("Not_A_Name");
    Result<BundleTree> badName = render(richInputFor(Deployer::ArgoCD), named);
    QVERIFY(!badName.ok());
    QCOMPARE(badName.error().field, QStringLiteral("--app-name"));
    named.deployer = Deployer::ArgoCDHelm;
    QVERIFY(!render(richInput(), named).ok());
    // flux installs Helm components only.
    GenerateInput kust = richInputFor(Deployer::Flux);
    kust.components[0].kustomize = true;
    o.deployer = Deployer::Flux;
    QVERIFY(!render(kust, o).ok());
}

// The parity rules are not blind: a changed override key, an extra Application file, a changed
// schema and a changed install-time value are each reported.
void TestBundleGen::parityRulesBite() {
    PB_NO_DATABASE_ON_POSTGRES();
    const QString golden = goldens() + QStringLiteral("/argocdhelm/helm_and_manifest_only");
    if (!QDir(golden).exists())
        QSKIP("AICR's golden bundles (../shared/data/aicr/bundler-goldens) are not here");
    Case k = argoHelmCase(QStringLiteral("helm_and_manifest_only"));
    QVERIFY2(k.unreproducible.isEmpty(), qPrintable(k.unreproducible));
    auto problemsOf = [&](const Case& c, const std::function<void(const QString&)>& edit) {
        Result<BundleTree> t = render(c.input, c.options);
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("b"));
        if (!t.ok() || !writeTree(*t, out).ok())
            return QStringLiteral("could not generate the case");
        if (edit)
            edit(out);
        QStringList notes;
        return compareWithGolden(out, golden, c.options.deployer, &notes).join(QLatin1Char('\n'));
    };
    QCOMPARE(problemsOf(k, {}), QString());
    Case key = k;
    key.input.components[0].overrideKey = QStringLiteral("cm");
    const QString p1 = problemsOf(key, {});
    QVERIFY2(p1.contains(QLatin1String("templates/cert-manager.yaml: the template reads")), qPrintable(p1));
    QVERIFY2(p1.contains(QLatin1String("values.yaml: bytes after the comment block differ")), qPrintable(p1));
    const QString p2 = problemsOf(k, [](const QString& out) {
        QFile f(out + QStringLiteral("/001-cert-manager/application.yaml"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("kind: Application\n");
    });
    QVERIFY2(p2.contains(QLatin1String("extra 001-cert-manager/application.yaml")), qPrintable(p2));
    const QString p3 = problemsOf(k, [](const QString& out) {
        QFile f(out + QStringLiteral("/values.schema.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray b = f.readAll().replace("boolean", "string");
        f.close();
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(b);
    });
    QVERIFY2(p3.contains(QLatin1String("values.schema.json: JSON documents differ")), qPrintable(p3));
    const QString p4 = problemsOf(k, [](const QString& out) {
        QFile f(out + QStringLiteral("/templates/cert-manager.yaml"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray b =
            f.readAll().replace("argocd.argoproj.io/sync-wave: \"1\"", "argocd.argoproj.io/sync-wave: \"5\"");
        f.close();
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(b);
    });
    QVERIFY2(p4.contains(QLatin1String(
                 "templates/cert-manager.yaml (if branches): masked template documents differ")),
             qPrintable(p4));
}

// Generating another deployer's layout into a bundle folder leaves nothing of the earlier one.
void TestBundleGen::writeTreeReplacesEarlierLayout() {
    PB_NO_DATABASE_ON_POSTGRES();
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("b"));
    for (const Deployer d : kAllDeployers) {
        GenerateOptions o;
        o.deployer = d;
        Result<BundleTree> t = render(richInputFor(d), o);
        QVERIFY(t.ok());
        QVERIFY2(writeTree(*t, dir).ok(), qPrintable(deployerName(d)));
        QStringList expected;
        for (const BundleFile& f : t->files)
            expected << f.path;
        QCOMPARE(treePaths(dir), expected);
    }
}

void TestBundleGen::writeTreeRefusesForeignFolder() {
    PB_NO_DATABASE_ON_POSTGRES();
    QTemporaryDir tmp;
    QFile f(tmp.filePath(QStringLiteral("notes.txt")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("mine");
    f.close();
    Case k = helmCase(QStringLiteral("upstream_helm_only"));
    Result<BundleTree> t = render(k.input, k.options);
    QVERIFY(t.ok());
    const Status st = writeTree(*t, tmp.path());
    QVERIFY(!st.ok());
    QVERIFY(st.error().message.contains(QLatin1String("not empty")));
    // A Helm chart of one's own, or a Kustomize folder, is not mistaken for a bundle either.
    for (const QStringList& own :
         {QStringList{QStringLiteral("Chart.yaml"), QStringLiteral("templates/app.yaml")},
          QStringList{QStringLiteral("kustomization.yaml"), QStringLiteral("sources/a.yaml")}}) {
        QTemporaryDir mine;
        for (const QString& path : own) {
            QVERIFY(QDir().mkpath(QFileInfo(mine.filePath(path)).path()));
            QFile o(mine.filePath(path));
            QVERIFY(o.open(QIODevice::WriteOnly));
            o.write("kind: Mine\n");
        }
        QVERIFY2(!writeTree(*t, mine.path()).ok(), qPrintable(own.join(QLatin1Char(' '))));
        for (const QString& path : own)
            QVERIFY(QFileInfo::exists(mine.filePath(path)));
    }
}

void TestBundleGen::cli() {
    const QString root = QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/2026-08-19/recipes");
    if (!QDir(root).exists())
        QSKIP("the 2026-08-19 catalog (../shared/data/aicr/catalogs) is not here");
    QTemporaryDir tmp;
    PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.db"));
    const QString db = testDb.spec();
    auto run = [&](const QStringList& args, QByteArray* stdoutBytes = nullptr) {
        return runCli(db, args, stdoutBytes);
    };
    Result<catalog::Catalog> cat = catalog::loadCatalog(root);
    QVERIFY(cat.ok());
    const QString leaf = cat->leafNames().constFirst();
    QByteArray recipeOut;
    QCOMPARE(
        run({QStringLiteral("recipe"), QStringLiteral("--catalog"), root, QStringLiteral("--leaf"), leaf},
            &recipeOut),
        0);
    QVERIFY(recipeOut.contains("componentRefs"));
    QVERIFY(run({QStringLiteral("recipe"), QStringLiteral("--catalog"), root, QStringLiteral("--leaf"),
                 QStringLiteral("no-such-leaf")}) != 0);
    const QString out = tmp.filePath(QStringLiteral("bundle"));
    QByteArray json;
    QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("generate"), QStringLiteral("--catalog"), root,
                  QStringLiteral("--leaf"), leaf, QStringLiteral("--deployer"), QStringLiteral("helm"),
                  QStringLiteral("--out"), out, QStringLiteral("--format"), QStringLiteral("json")},
                 &json),
             0);
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    QVERIFY(o.value(QStringLiteral("treeDigest")).toString().startsWith(QLatin1String("sha256:")));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/deploy.sh")));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/recipe.yaml")));
    // The same inputs again give the same tree digest.
    QByteArray json2;
    QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("generate"), QStringLiteral("--catalog"), root,
                  QStringLiteral("--leaf"), leaf, QStringLiteral("--deployer"), QStringLiteral("helm"),
                  QStringLiteral("--out"), out, QStringLiteral("--format"), QStringLiteral("json")},
                 &json2),
             0);
    QCOMPARE(QJsonDocument::fromJson(json2).object().value(QStringLiteral("treeDigest")),
             o.value(QStringLiteral("treeDigest")));
    QVERIFY(run({QStringLiteral("bundle"), QStringLiteral("generate"), QStringLiteral("--catalog"), root,
                 QStringLiteral("--leaf"), leaf, QStringLiteral("--deployer"), QStringLiteral("nomad")}) !=
            0);

    // Every deployer: bundle show reads the bundle back as that deployer, with one component per
    // install step and the tree digest generate printed.
    const QStringList base = {QStringLiteral("bundle"),    QStringLiteral("generate"),
                              QStringLiteral("--catalog"), root,
                              QStringLiteral("--leaf"),    leaf,
                              QStringLiteral("--format"),  QStringLiteral("json")};
    for (const QString& d : deployerNames()) {
        const QString dir = tmp.filePath(QStringLiteral("bundle-") + d);
        QByteArray gen, shown;
        QCOMPARE(run(base + QStringList{QStringLiteral("--deployer"), d, QStringLiteral("--out"), dir}, &gen),
                 0);
        const QJsonObject g = QJsonDocument::fromJson(gen).object();
        QCOMPARE(g.value(QStringLiteral("deployer")).toString(), d);
        QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("show"), dir, QStringLiteral("--format"),
                      QStringLiteral("json")},
                     &shown),
                 0);
        const QJsonObject so = QJsonDocument::fromJson(shown).object();
        QCOMPARE(so.value(QStringLiteral("deployer")).toString(), d);
        QCOMPARE(so.value(QStringLiteral("treeDigest")), g.value(QStringLiteral("treeDigest")));
        QCOMPARE(so.value(QStringLiteral("components")).toArray().size(),
                 g.value(QStringLiteral("folders")).toArray().size());
        QVERIFY2(so.value(QStringLiteral("unknownFiles")).toArray().isEmpty(), shown.constData());
    }

    // The deployer options. A component of the recipe, named by its value override key for --dynamic.
    Result<catalog::RecipeResult> recipe = catalog::resolve(*cat, catalog::leafCriteria(*cat, leaf));
    QVERIFY(recipe.ok());
    QString component, key;
    for (const catalog::ComponentRef& ref : recipe->componentRefs)
        if (const catalog::RegistryComponent* reg = cat->component(ref.name);
            reg && ref.isEnabled() && !ref.source.isEmpty()) {
            GenComponent probe;
            applyRegistryEntry(probe, *reg);
            if (!probe.overrideKey.isEmpty()) {
                component = ref.name;
                key = probe.overrideKey;
                break;
            }
        }
    QVERIFY(!key.isEmpty());
    const QString hf = tmp.filePath(QStringLiteral("helmfile-dynamic"));
    QCOMPARE(run(base + QStringList{QStringLiteral("--deployer"), QStringLiteral("helmfile"),
                                    QStringLiteral("--out"), hf, QStringLiteral("--dynamic"),
                                    key + QStringLiteral(":pbInstallTime.value")}),
             0);
    QDirIterator files(hf, {QStringLiteral("cluster-values.yaml")}, QDir::Files,
                       QDirIterator::Subdirectories);
    QStringList withValue;
    while (files.hasNext()) {
        const QString f = files.next();
        if (readAll(f).contains("pbInstallTime:"))
            withValue << QFileInfo(f).dir().dirName();
    }
    QVERIFY2(withValue.size() == 1 && withValue.constFirst().endsWith(QLatin1Char('-') + component),
             qPrintable(withValue.join(QLatin1Char(' '))));
    QVERIFY(readAll(hf + QStringLiteral("/helmfile.yaml")).contains("cluster-values.yaml") ||
            !treePaths(hf).filter(QRegularExpression(QStringLiteral("^level-"))).isEmpty());
    // argocd has no install-time values: the generation fails (exit 1), naming the component.
    QCOMPARE(run(base + QStringList{QStringLiteral("--deployer"), QStringLiteral("argocd"),
                                    QStringLiteral("--out"), tmp.filePath(QStringLiteral("argocd-dynamic")),
                                    QStringLiteral("--dynamic"), key + QStringLiteral(":x")}),
             1);
    // --set deployer:KEY=VALUE: argocd-helm's defaults; a usage error for other deployers or keys.
    const QString ah = tmp.filePath(QStringLiteral("argocd-helm-prefix"));
    QCOMPARE(run(base + QStringList{QStringLiteral("--deployer"), QStringLiteral("argocd-helm"),
                                    QStringLiteral("--out"), ah, QStringLiteral("--set"),
                                    QStringLiteral("deployer:namePrefix=team-a-"),
                                    QStringLiteral("--app-name"), QStringLiteral("team-a-stack")}),
             0);
    const QByteArray values = readAll(ah + QStringLiteral("/values.yaml"));
    QVERIFY2(values.contains("namePrefix: team-a-") && values.contains("appName: team-a-stack"),
             values.constData());
    QCOMPARE(run(base + QStringList{QStringLiteral("--deployer"), QStringLiteral("helm"),
                                    QStringLiteral("--out"), tmp.filePath(QStringLiteral("helm-prefix")),
                                    QStringLiteral("--set"), QStringLiteral("deployer:namePrefix=team-a-")}),
             2);
    QCOMPARE(run(base + QStringList{QStringLiteral("--deployer"), QStringLiteral("argocd-helm"),
                                    QStringLiteral("--out"), tmp.filePath(QStringLiteral("argocd-helm-bad")),
                                    QStringLiteral("--set"), QStringLiteral("deployer:colour=blue")}),
             2);
    // --flux-namespace puts the Flux objects there.
    const QString fx = tmp.filePath(QStringLiteral("flux-ns"));
    QCOMPARE(
        run(base + QStringList{QStringLiteral("--deployer"), QStringLiteral("flux"), QStringLiteral("--out"),
                               fx, QStringLiteral("--flux-namespace"), QStringLiteral("gitops")}),
        0);
    QVERIFY(readAll(fx + QStringLiteral("/sources/gitrepo-github-com-your-org-your-repo.yaml"))
                .contains("namespace: gitops"));
}

// Issue 27: one tree digest per bundle, printed under one name by generate, show, index, sign and
// diff, recorded in their receipts, and the value coreutils give for the definition in
// bundle/TreeDigest.h (sha256sum of the sorted files, less checksums.txt, digest-index/, attestation/).
void TestBundleGen::oneTreeDigestEverywhere() {
    if (QStandardPaths::findExecutable(QStringLiteral("sha256sum")).isEmpty())
        QSKIP("coreutils' sha256sum is not here");
    const QString root = pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
    QTemporaryDir tmp;
    PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.db"));
    const QString db = testDb.spec();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PB_PASS"), QStringLiteral("tree digest test passphrase"));
    auto run = [&](const QStringList& args, QByteArray* stdoutBytes = nullptr) {
        return runCli(db, args, stdoutBytes, env);
    };
    Result<catalog::Catalog> cat = catalog::loadCatalog(root);
    QVERIFY(cat.ok());
    const QString leaf = cat->leafNames().constFirst();
    const QString out = tmp.filePath(QStringLiteral("bundle"));
    QByteArray json;
    QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("generate"), QStringLiteral("--catalog"), root,
                  QStringLiteral("--leaf"), leaf, QStringLiteral("--deployer"), QStringLiteral("helm"),
                  QStringLiteral("--out"), out, QStringLiteral("--format"), QStringLiteral("json")},
                 &json),
             0);
    const QString digest =
        QJsonDocument::fromJson(json).object().value(QStringLiteral("treeDigest")).toString();
    QVERIFY2(digest.startsWith(QLatin1String("sha256:")) && digest.size() == 71, qPrintable(digest));
    const QString hex = digest.mid(7);

    // coreutils, from the definition
    auto coreutils = [&] {
        QProcess sh;
        sh.setWorkingDirectory(out);
        sh.start(QStringLiteral("bash"),
                 {QStringLiteral("-c"),
                  QStringLiteral(
                      "find . -type f ! -path ./checksums.txt ! -path './digest-index/*' ! -path "
                      "'./attestation/*' | sed 's|^\\./||' | LC_ALL=C sort | xargs -d '\\n' sha256sum | "
                      "sha256sum | cut -d' ' -f1")});
        sh.waitForFinished(60000);
        return QString::fromLatin1(sh.readAllStandardOutput().trimmed());
    };
    QCOMPARE(coreutils(), hex);

    QByteArray shown;
    QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("show"), out, QStringLiteral("--format"),
                  QStringLiteral("json")},
                 &shown),
             0);
    QCOMPARE(QJsonDocument::fromJson(shown).object().value(QStringLiteral("treeDigest")).toString(), digest);
    QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("show"), out}, &shown), 0);
    QVERIFY2(shown.contains("tree digest " + digest.toLatin1()), shown.constData());

    QByteArray indexed;
    QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("index"), out, QStringLiteral("--format"),
                  QStringLiteral("json")},
                 &indexed),
             0);
    QCOMPARE(QJsonDocument::fromJson(indexed).object().value(QStringLiteral("treeDigest")).toString(),
             digest);
    // The digest index is the bundle's own, not files no layout explains.
    QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("show"), out, QStringLiteral("--format"),
                  QStringLiteral("json")},
                 &shown),
             0);
    QCOMPARE(QJsonDocument::fromJson(shown).object().value(QStringLiteral("treeDigest")).toString(), digest);
    QVERIFY2(
        QJsonDocument::fromJson(shown).object().value(QStringLiteral("unknownFiles")).toArray().isEmpty(),
        shown.constData());

    const QString key = tmp.filePath(QStringLiteral("signer.key"));
    QCOMPARE(run({QStringLiteral("keygen"), QStringLiteral("--out"), key, QStringLiteral("--passphrase-env"),
                  QStringLiteral("PB_PASS")}),
             0);
    QByteArray signedOut;
    QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("sign"), out, QStringLiteral("--key"), key,
                  QStringLiteral("--passphrase-env"), QStringLiteral("PB_PASS")},
                 &signedOut),
             0);
    QVERIFY2(signedOut.contains("tree digest " + digest.toLatin1()), signedOut.constData());
    QCOMPARE(coreutils(), hex); // sealing and indexing leave it as it was

    QByteArray diffed;
    run({QStringLiteral("bundle"), QStringLiteral("diff"), out, out}, &diffed);
    QVERIFY2(diffed.contains("tree digest " + digest.toLatin1()) && !diffed.contains("tree sha256:"),
             diffed.constData());

    // The receipts name it the same way.
    QByteArray receipts;
    QCOMPARE(run({QStringLiteral("receipts"), QStringLiteral("list"), QStringLiteral("--format"),
                  QStringLiteral("json")},
                 &receipts),
             0);
    int naming = 0;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(receipts).object().value(QStringLiteral("receipts")).toArray()) {
        const QJsonObject r = v.toObject();
        const QString kind = r.value(QStringLiteral("kind")).toString();
        if (kind == QLatin1String("sign.bundle")) {
            QCOMPARE(r.value(QStringLiteral("parameters"))
                         .toObject()
                         .value(QStringLiteral("treeDigest"))
                         .toString(),
                     digest);
            ++naming;
        }
        if (kind == QLatin1String("bundle.generate") || kind == QLatin1String("bundle.index")) {
            const QByteArray body = QJsonDocument(r).toJson(QJsonDocument::Compact);
            QVERIFY2(body.contains(hex.toLatin1()), body.constData());
            ++naming;
        }
    }
    QCOMPARE(naming, 3);
}

QTEST_GUILESS_MAIN(TestBundleGen)
#include "tst_bundlegen.moc"
