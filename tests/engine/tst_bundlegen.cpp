// Bundle generation: parity with AICR's golden bundles (cases and rules in BundleGoldenCases.h),
// determinism, and generation from a real catalog.
//
// Only the CLI case opens a database: it runs on both engines (DbFixture.h), the rest on SQLite's half.
#include "BundleGoldenCases.h"
#include "DbFixture.h"
#include "TestUtil.h"
#include "bundle/GenKustomize.h"
#include "bundle/Generate.h"
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

class TestBundleGen : public QObject {
    Q_OBJECT

  private slots:
    void parity_data();
    void parity();
    void deterministic();
    void layoutAndOrder();
    void realCatalogLeaf();
    void writeTreeRefusesForeignFolder();
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
    for (const Deployer d : {Deployer::Helm, Deployer::ArgoCD}) {
        Case k = d == Deployer::Helm ? helmCase(QStringLiteral("mixed_gpu_operator"))
                                     : argoCase(QStringLiteral("mixed_component"));
        Result<BundleTree> a = render(k.input, k.options), b2 = render(k.input, k.options);
        QVERIFY(a.ok() && b2.ok());
        QCOMPARE(treeDigest(*a), treeDigest(*b2));
        QCOMPARE(a->files.size(), b2->files.size());
        // A changed value changes the digest.
        k.input.components[0].values.set("extra", yaml::Node::plain("1"));
        Result<BundleTree> c = render(k.input, k.options);
        QVERIFY(c.ok());
        QVERIFY(treeDigest(*c) != treeDigest(*a));
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
    for (const Deployer d : {Deployer::Helm, Deployer::ArgoCD}) {
        GenerateOptions o;
        o.deployer = d;
        o.acceleratedNodeSelector.insert(QStringLiteral("nodeGroup"), QStringLiteral("gpu"));
        QTemporaryDir tmp;
        Result<BundleTree> t = generate(*cat, *recipe, o, tmp.filePath(QStringLiteral("b")));
        QVERIFY2(t.ok(), t.ok() ? "" : qPrintable(t.error().toString()));
        QVERIFY(t->file(QStringLiteral("recipe.yaml")));
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
