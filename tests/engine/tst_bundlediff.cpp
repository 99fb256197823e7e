// bundle diff on real data: two of AICR's golden argocd bundles (a component gained a pre folder:
// one Application added, the others moved a sync-wave and a namespace), a bundle against itself,
// an imported bundle against a folder, the CLI's text/JSON/Markdown; and bundles generated from
// the 2026-07-09 and 2026-08-19 catalogs for the same leaf, whose diff must agree with the recipe
// diff (catalog/Diff) on components and versions. The cases that import run on both engines
// (DbFixture.h); the folder-only diffs on SQLite's half.
#include "DbFixture.h"
#include "bundle/Diff.h"
#include "bundle/Generate.h"
#include "bundle/Read.h"
#include "catalog/Diff.h"
#include "catalog/Loader.h"
#include "db/Database.h"
#include "ops/BundleDiff.h"
#include "ops/BundleImport.h"
#include "ops/ImportCatalog.h"
#include "store/BundleStore.h"
#include "store/CatalogStore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
namespace model = pb::bundle::model;

namespace {

QString golden(const QString& rel) {
    return QStringLiteral(PB_SHARED_DATA "/aicr/bundler-goldens/") + rel;
}

QString catalogDir(const QString& label) {
    return QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/") + label + QStringLiteral("/recipes");
}

QString waveIn(const QString& file) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const auto m =
        QRegularExpression(QStringLiteral("sync-wave: \"(\\d+)\"")).match(QString::fromUtf8(f.readAll()));
    return m.captured(1);
}

const model::ComponentChange* change(const model::BundleDiff& d, const QString& name) {
    for (const auto& c : d.components)
        if (c.name == name)
            return &c;
    return nullptr;
}

struct Cli {
    int code;
    QByteArray out, err;
};
Cli cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    p.waitForFinished(120000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

// The bundle diff of two generated bundles says what the recipe diff says: the same components added
// and removed, the same chart-version changes, and every deployed component of the newer recipe at
// its version (a leading 'v' aside: Argo CD's targetRevision for a Helm repository drops it, as AICR
// writes it).
void agreesWithRecipeDiff(const ops::BundleDiffOutcome& done, const catalog::RecipeResult& a,
                          const catalog::RecipeResult& b, const QString& leaf) {
    const catalog::RecipeDiff rd = catalog::diffRecipes(a, b);
    QSet<QString> recipeAdded, recipeRemoved, recipeVersion, bundleAdded, bundleRemoved, bundleVersion,
        deployed;
    for (const auto& c : rd.components) {
        const bool inA = c.fromOrder >= 0, inB = c.toOrder >= 0;
        if (inA || inB)
            deployed << c.name;
        if (!inA && inB)
            recipeAdded << c.name;
        else if (inA && !inB)
            recipeRemoved << c.name;
        else if (inA && inB && c.fromVersion != c.toVersion)
            recipeVersion << c.name;
    }
    for (const auto& c : done.diff.components) {
        if (!deployed.contains(c.name))
            continue; // -pre / -post / -readiness folders of a component
        if (c.change == model::Change::Added)
            bundleAdded << c.name;
        else if (c.change == model::Change::Removed)
            bundleRemoved << c.name;
        else if (c.versionChanged())
            bundleVersion << c.name;
    }
    QCOMPARE(bundleAdded, recipeAdded);
    QCOMPARE(bundleRemoved, recipeRemoved);
    QCOMPARE(bundleVersion, recipeVersion);
    const auto bare = [](const QString& v) { return v.startsWith(QLatin1Char('v')) ? v.mid(1) : v; };
    for (const auto& c : rd.components)
        if (c.toOrder >= 0) {
            const model::Component* bc = done.to.bundle.component(c.name);
            QVERIFY2(bc, qPrintable(leaf + QStringLiteral(": ") + c.name));
            if (bc->source ==
                QLatin1String("upstream-chart")) // a wrapper chart's version is its Chart.yaml's
                QCOMPARE(bare(bc->version.text), bare(c.toVersion));
        }
}

} // namespace

class TstBundleDiff : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        if (!QDir(golden(QString())).exists())
            QSKIP("AICR's bundler goldens are not at " PB_SHARED_DATA
                  "/aicr/bundler-goldens (shared data absent)");
    }

    void twoRealGoldens() {

        PB_NO_DATABASE_ON_POSTGRES();
        const QString a = golden(QStringLiteral("argocd/mixed_component")),
                      b = golden(QStringLiteral("argocd/mixed_with_pre"));
        auto ra = model::readBundle(a), rb = model::readBundle(b);
        QVERIFY(ra && rb);
        const model::BundleDiff d = model::diffBundles(ra->bundle, rb->bundle);
        QCOMPARE(d.count(model::Change::Added), 1);
        QCOMPARE(d.components.at(0).name, QStringLiteral("gpu-operator-pre"));
        QCOMPARE(d.components.at(0).change, model::Change::Added);
        QCOMPARE(d.count(model::Change::Removed), 0);
        // Sync-waves as the Application files say, on each side.
        const auto* op = change(d, QStringLiteral("gpu-operator"));
        QVERIFY(op);
        QCOMPARE(op->change, model::Change::Changed);
        QCOMPARE(QString::number(*op->fromWave),
                 waveIn(a + QStringLiteral("/001-gpu-operator/application.yaml")));
        QCOMPARE(QString::number(*op->toWave),
                 waveIn(b + QStringLiteral("/002-gpu-operator/application.yaml")));
        QCOMPARE(op->waveChanged(),
                 *op->fromWave != *op->toWave); // the same wave here: the pre folder took wave 0
        QCOMPARE(op->fromOrder, 0);
        QCOMPARE(op->toOrder, 1);
        QCOMPARE(op->fromNamespace.text, QStringLiteral("gpu-operator"));
        QCOMPARE(op->toNamespace.text, QStringLiteral("privileged-gpu-operator"));
        QVERIFY(!op->versionChanged());
        QVERIFY(op->values.empty()); // the same values.yaml on both sides
        QStringList fields;
        for (const auto& f : op->objectFields)
            fields << f.path;
        QVERIFY2(fields.contains(QStringLiteral("spec.destination.namespace")),
                 qPrintable(fields.join(QLatin1Char(' '))));
        QVERIFY(fields.contains(QStringLiteral("spec.sources[0].helm.valueFiles[0]")));
        // The post folder was renumbered (002 → 003): its manifest is matched by its path inside the
        // folder, never reported removed and added; it changed (its namespace), byte for byte.
        const auto* post = change(d, QStringLiteral("gpu-operator-post"));
        QVERIFY(post);
        QVERIFY(post->manifestsAdded.isEmpty() && post->manifestsRemoved.isEmpty());
        const bool sameBytes =
            QFile(a + QStringLiteral("/002-gpu-operator-post/templates/dcgm-exporter.yaml")).size() ==
                QFile(b + QStringLiteral("/003-gpu-operator-post/templates/dcgm-exporter.yaml")).size() &&
            ra->bundle.file(QStringLiteral("002-gpu-operator-post/templates/dcgm-exporter.yaml"))->sha256 ==
                rb->bundle.file(QStringLiteral("003-gpu-operator-post/templates/dcgm-exporter.yaml"))->sha256;
        QCOMPARE(post->manifestsChanged,
                 sameBytes ? QStringList() : QStringList{QStringLiteral("templates/dcgm-exporter.yaml")});
        QCOMPARE(d.fromWaves, ra->bundle.distinctSyncWaves());
        QCOMPARE(d.fromWaves, 2);
        QCOMPARE(d.toWaves, 3);
        QCOMPARE(d.changedObjects(), 2);
        QCOMPARE(d.chartVersionChanges(), 0);
        const QString head = d.headline();
        QVERIFY2(head.startsWith(QStringLiteral("2 → 3 Argo CD Applications, 2 → 3 distinct sync-waves, 1 "
                                                "added, 2 changed Application objects, "
                                                "0 chart-version changes")),
                 qPrintable(head));
        const QJsonObject json = d.toJson();
        QCOMPARE(json.value(QStringLiteral("summary")).toObject().value(QStringLiteral("added")).toInt(), 1);
        QVERIFY(d.toMarkdown().contains(QLatin1String("| gpu-operator-pre | added |")));
    }

    // Issue 27: a diff says only what it knows. The helmfile bundle keeps cert-manager's values in a
    // file it does not carry: unknown there, never "removed"; the argocd-helm bundle's app-of-apps
    // parent is counted with its Applications, and the count says what it counts; one object is
    // singular; an addition or removal is written as one, not as an arrow from nothing.
    void diffsSayOnlyWhatTheyKnow() {
        PB_NO_DATABASE_ON_POSTGRES();
        auto read = [](const QString& g) { return model::readBundle(golden(g)); };
        auto helm = read(QStringLiteral("helm/upstream_helm_only")),
             helmfile = read(QStringLiteral("helmfile/upstream_helm_only"));
        QVERIFY(helm && helmfile);
        const model::BundleDiff d = model::diffBundles(helm->bundle, helmfile->bundle);
        const auto* cm = change(d, QStringLiteral("cert-manager"));
        QVERIFY(cm);
        QVERIFY(cm->toValuesUnknown && !cm->fromValuesUnknown);
        QVERIFY(!cm->values.empty());
        for (const model::ValueChange& v : cm->values)
            QVERIFY2(v.change == model::Change::Unknown,
                     qPrintable(v.path + QLatin1Char(' ') + model::changeName(v.change)));
        QCOMPARE(d.valuesUnknown(), 1);
        const QString text = d.toText();
        QVERIFY2(!text.contains(QLatin1String("values removed")) &&
                     text.contains(QLatin1String("values unknown crds.enabled")),
                 qPrintable(text));
        QVERIFY2(d.headline().contains(QLatin1String("values unknown for 1 component")),
                 qPrintable(d.headline()));
        QVERIFY2(d.headline().startsWith(QStringLiteral("1 Helm release → 2 helmfile releases")),
                 qPrintable(d.headline()));
        // Additions and removals are sentences, never "X:  -> Y" or "X: Y -> ".
        QVERIFY2(!text.contains(QLatin1String(":  -> ")) && !text.contains(QLatin1String(" -> \n")),
                 qPrintable(text));
        QVERIFY2(
            text.contains(QLatin1String("object added name = cert-manager")) &&
                text.contains(QLatin1String("object removed repository (was https://charts.jetstack.io)")),
            qPrintable(text));
        const QString markdown = d.toMarkdown();
        QVERIFY2(!markdown.contains(QLatin1String("| removed |")) ||
                     !markdown.contains(QLatin1String("crds.enabled")),
                 qPrintable(markdown));

        // The argocd-helm bundle: its app-of-apps parent is one of its Applications.
        auto argo = read(QStringLiteral("argocd/mixed_component")),
             argoHelm = read(QStringLiteral("argocdhelm/mixed_component"));
        QVERIFY(argo && argoHelm);
        QVERIFY(argoHelm->bundle.hasParentApplication());
        int applicationFiles = 0;
        for (const model::BundleFile& f : argoHelm->bundle.files)
            applicationFiles +=
                f.role == QLatin1String("application-template") || f.role == QLatin1String("app-of-apps");
        const model::BundleDiff a = model::diffBundles(argo->bundle, argoHelm->bundle);
        QCOMPARE(a.toJson().value(QStringLiteral("to")).toObject().value(QStringLiteral("objects")).toInt(),
                 int(argoHelm->bundle.components.size()) + 1);
        QVERIFY2(a.headline().contains(
                     QStringLiteral("%1 Argo CD Applications (%2 components and the app-of-apps parent)")
                         .arg(argoHelm->bundle.components.size() + 1)
                         .arg(argoHelm->bundle.components.size())),
                 qPrintable(a.headline()));
        QVERIFY(applicationFiles >= 1);

        // One object: singular.
        auto one = read(QStringLiteral("helm/manifest_only"));
        QVERIFY(one);
        QCOMPARE(one->bundle.components.size(), size_t(1));
        const QString same = model::diffBundles(one->bundle, one->bundle).headline();
        QVERIFY2(same.startsWith(QLatin1String("1 Helm release on both sides")), qPrintable(same));
        const QString fromText = model::diffBundles(one->bundle, one->bundle).toText();
        QVERIFY2(fromText.contains(QLatin1String("1 component,")) &&
                     !fromText.contains(QLatin1String("1 components")),
                 qPrintable(fromText));
    }

    void chartVersionAndValues() {

        PB_NO_DATABASE_ON_POSTGRES();
        // cert-manager in a helm bundle and in an argocd bundle: version and values differ.
        auto ra = model::readBundle(golden(QStringLiteral("helm/upstream_helm_only")));
        auto rb = model::readBundle(golden(QStringLiteral("argocd/helm_and_manifest_only")));
        QVERIFY(ra && rb);
        const model::BundleDiff d = model::diffBundles(ra->bundle, rb->bundle);
        const auto* cm = change(d, QStringLiteral("cert-manager"));
        QVERIFY(cm);
        const model::Component* ca = ra->bundle.component(QStringLiteral("cert-manager"));
        const model::Component* cb = rb->bundle.component(QStringLiteral("cert-manager"));
        QCOMPARE(cm->versionChanged(), ca->version.text != cb->version.text);
        QCOMPARE(d.chartVersionChanges(), cm->versionChanged() ? 1 : 0);
        // Values path by path: every flattened path that differs, and no other.
        std::map<QString, QString> fa, fb;
        for (auto& [k, v] : model::flatten(ca->values))
            fa[k] = v;
        for (auto& [k, v] : model::flatten(cb->values))
            fb[k] = v;
        int differing = 0;
        for (auto& [k, v] : fa)
            differing += !fb.count(k) || fb[k] != v;
        for (auto& [k, v] : fb)
            differing += !fa.count(k);
        QCOMPARE(static_cast<int>(cm->values.size()), differing);
        QVERIFY(differing > 0);
    }

    void sameBundleIsIdentical() {

        PB_NO_DATABASE_ON_POSTGRES();
        auto r = model::readBundle(golden(QStringLiteral("helm/mixed_gpu_operator")));
        QVERIFY(r);
        const model::BundleDiff d = model::diffBundles(r->bundle, r->bundle);
        QVERIFY(d.identical());
        QCOMPARE(d.count(model::Change::Unchanged), 3);
        QVERIFY(d.files.empty());
        QVERIFY(d.toMarkdown().contains(QLatin1String("byte-identical")));
    }

    void importedAgainstFolderAndCli() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.db"));
        const QString dbPath = testDb.spec();
        Cli imp = cli({QStringLiteral("--db"), dbPath, QStringLiteral("bundle"), QStringLiteral("import"),
                       QStringLiteral("--name"), QStringLiteral("before"),
                       golden(QStringLiteral("argocd/mixed_component"))});
        QVERIFY2(imp.code == 0, imp.err.constData());
        Cli json = cli({QStringLiteral("--db"), dbPath, QStringLiteral("bundle"), QStringLiteral("diff"),
                        QStringLiteral("before"), golden(QStringLiteral("argocd/mixed_with_pre")),
                        QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(json.code == 0, json.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(o.value(QStringLiteral("from")).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("before"));
        QCOMPARE(o.value(QStringLiteral("summary")).toObject().value(QStringLiteral("added")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("to")).toObject().value(QStringLiteral("distinctSyncWaves")).toInt(),
                 3);
        Cli mdown = cli({QStringLiteral("--db"), dbPath, QStringLiteral("bundle"), QStringLiteral("diff"),
                         QStringLiteral("before"), golden(QStringLiteral("argocd/mixed_with_pre")),
                         QStringLiteral("--format"), QStringLiteral("markdown")});
        QVERIFY2(mdown.code == 0, mdown.err.constData());
        QVERIFY2(mdown.out.startsWith("**before → "), mdown.out.constData());
        QVERIFY(mdown.out.contains("Argo CD Applications"));
        Cli missing =
            cli({QStringLiteral("--db"), dbPath, QStringLiteral("bundle"), QStringLiteral("diff"),
                 QStringLiteral("no-such-bundle"), golden(QStringLiteral("argocd/mixed_with_pre"))});
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains(
                     "no-such-bundle: neither a folder nor the name or tree digest of an imported bundle"),
                 missing.err.constData());
        Cli list = cli({QStringLiteral("--db"), dbPath, QStringLiteral("bundle"), QStringLiteral("list")});
        QVERIFY2(QRegularExpression(
                     QStringLiteral("^before  argocd  tree digest sha256:[0-9a-f]{12}  2 components"),
                     QRegularExpression::MultilineOption)
                     .match(QString::fromUtf8(list.out))
                     .hasMatch(),
                 list.out.constData());
    }

    // The acceptance test of the issue: bundles generated from two catalog versions for the same
    // leaf; the bundle diff agrees with the recipe diff on components and versions.
    void generatedFromTwoCatalogsAgreesWithRecipeDiff() {
        if (!QDir(catalogDir(QStringLiteral("2026-07-09"))).exists() ||
            !QDir(catalogDir(QStringLiteral("2026-08-19"))).exists())
            QSKIP("the real catalogs 2026-07-09 and 2026-08-19 are not in the shared data");
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.db"));
        auto db = db::Database::open(testDb.spec());
        QVERIFY2(db, qPrintable(db ? QString() : db.error().toString()));
        ops::Context ctx(**db);
        for (const char* label : {"2026-07-09", "2026-08-19"}) {
            ops::ImportCatalogRequest req;
            req.label = QString::fromLatin1(label);
            req.dir = catalogDir(req.label);
            auto done = ops::importCatalog(ctx, req);
            QVERIFY2(done, qPrintable(done ? QString() : done.error().toString()));
        }
        store::CatalogStore catalogs(**db);
        auto from = catalogs.loadCatalog(QStringLiteral("2026-07-09"));
        auto to = catalogs.loadCatalog(QStringLiteral("2026-08-19"));
        QVERIFY(from && to);
        // Leaves present in both whose recipes differ in deployed components or versions: the interesting
        // ones.
        QStringList leaves;
        for (const QString& leaf : to->leafNames()) {
            if (!from->overlay(leaf))
                continue;
            auto ra = catalog::resolve(*from, catalog::leafCriteria(*from, leaf));
            auto rb = catalog::resolve(*to, catalog::leafCriteria(*to, leaf));
            if (!ra || !rb)
                continue;
            const catalog::RecipeDiff rd = catalog::diffRecipes(*ra, *rb);
            bool interesting = false;
            for (const auto& c : rd.components)
                interesting = interesting || c.change == catalog::Change::Added ||
                              c.change == catalog::Change::Removed ||
                              (c.fromVersion != c.toVersion && c.fromOrder >= 0 && c.toOrder >= 0);
            if (interesting)
                leaves << leaf;
        }
        QVERIFY2(!leaves.isEmpty(), "no leaf changed components or versions between the two catalogs");
        for (const QString& leaf : leaves.mid(0, 3)) {
            ops::BundleDiffRequest req;
            req.fromVersion = QStringLiteral("2026-07-09");
            req.toVersion = QStringLiteral("2026-08-19");
            req.leaf = leaf;
            auto done = ops::diffBundles(ctx, req);
            QVERIFY2(done,
                     qPrintable(leaf + QStringLiteral(": ") + (done ? QString() : done.error().toString())));
            auto ra = catalog::resolve(*from, catalog::leafCriteria(*from, leaf));
            auto rb = catalog::resolve(*to, catalog::leafCriteria(*to, leaf));
            QVERIFY(ra && rb);
            agreesWithRecipeDiff(*done, *ra, *rb, leaf);
            if (QTest::currentTestFailed())
                return;
        }
    }

    // Issue 27, the seed's release page: AICR deploys EKS H100 training with argocd-helm. The
    // argocd-helm bundle of h100-eks-ubuntu-training-kubeflow from the newest shared catalog, its
    // Argo CD Applications counted from its files (every child template and the parent), and its diff
    // against the 2026-07-09 catalog's bundle, checked against the recipe diff's components and chart
    // versions.
    void seedPageArgoHelmBundle() {
        const QString leaf = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
        if (!QDir(catalogDir(QStringLiteral("2026-07-09"))).exists() ||
            !QDir(catalogDir(QStringLiteral("2026-08-19"))).exists())
            QSKIP("the real catalogs 2026-07-09 and 2026-08-19 are not in the shared data");
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.db"));
        auto db = db::Database::open(testDb.spec());
        QVERIFY2(db, qPrintable(db ? QString() : db.error().toString()));
        ops::Context ctx(**db);
        for (const char* label : {"2026-07-09", "2026-08-19"}) {
            ops::ImportCatalogRequest req;
            req.label = QString::fromLatin1(label);
            req.dir = catalogDir(req.label);
            QVERIFY(ops::importCatalog(ctx, req));
        }
        ops::BundleDiffRequest req;
        req.fromVersion = QStringLiteral("2026-07-09");
        req.toVersion = QStringLiteral("2026-08-19");
        req.leaf = leaf;
        req.deployer = QStringLiteral("argocd-helm");
        auto done = ops::diffBundles(ctx, req);
        QVERIFY2(done, qPrintable(done ? QString() : done.error().toString()));
        for (const model::ReadBundle* side : {&done->from, &done->to}) {
            QCOMPARE(side->bundle.deployer, model::Deployer::ArgoCDHelm);
            QVERIFY(side->bundle.hasParentApplication());
            QVERIFY(side->bundle.unknownFiles.isEmpty());
            // Applications counted from the files: each template that declares one.
            int applications = 0;
            for (const auto& [path, bytes] : side->contents)
                if (path.startsWith(QLatin1String("templates/")) && bytes.contains("kind: Application\n"))
                    ++applications;
            QCOMPARE(applications, int(side->bundle.components.size()) + 1);
        }
        const int children = int(done->to.bundle.components.size());
        const QString headline = done->diff.headline();
        QVERIFY2(headline.contains(QStringLiteral("Argo CD Applications")) &&
                     headline.contains(QStringLiteral("and the app-of-apps parent")) &&
                     headline.contains(QString::number(children + 1)),
                 qPrintable(headline));
        qInfo("%s, argocd-helm, 2026-08-19: %d Argo CD Applications (%d children and the parent); %s",
              qPrintable(leaf), children + 1, children, qPrintable(headline));

        store::CatalogStore catalogs(**db);
        auto from = catalogs.loadCatalog(QStringLiteral("2026-07-09"));
        auto to = catalogs.loadCatalog(QStringLiteral("2026-08-19"));
        QVERIFY(from && to);
        auto ra = catalog::resolve(*from, catalog::leafCriteria(*from, leaf));
        auto rb = catalog::resolve(*to, catalog::leafCriteria(*to, leaf));
        QVERIFY(ra && rb);
        agreesWithRecipeDiff(*done, *ra, *rb, leaf);
    }
};

QTEST_GUILESS_MAIN(TstBundleDiff)
#include "tst_bundlediff.moc"
