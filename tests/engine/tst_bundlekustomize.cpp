// Kustomize components built as AICR builds them (issue #27): `<source>//<path>?ref=<tag>`, the
// repository read with libgit2 at the pinned revision, the output written as the wrapper chart's
// templates/manifest.yaml. No network: the test makes its own Git repository with the git command
// line (a tag v1.0 holding AICR's kustomize_input, then a later commit on main that changes it) and
// a catalog (the embedded sample-2 plus a Kustomize component pointing at that repository).
//
// The generated folder is compared with AICR's argocd golden kustomize_only (the same kustomization
// built by AICR), and the tag, not the branch head, is what is built.
#include "BundleGoldenCases.h"
#include "TestUtil.h"
#include "bundle/GenKustomize.h"
#include "bundle/Generate.h"
#include "catalog/Loader.h"
#include "catalog/Resolver.h"

#include <QCoreApplication>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace pb;
using namespace pb::bundle;

namespace {

QString gitRun(const QString& dir, const QStringList& args) {
    QProcess p;
    p.setWorkingDirectory(dir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* k : {"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"})
        env.insert(QLatin1String(k), QStringLiteral("Proofbench Test"));
    for (const char* k : {"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"})
        env.insert(QLatin1String(k), QStringLiteral("test@example.invalid"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("git"), QStringList{QStringLiteral("-c"), QStringLiteral("commit.gpgsign=false"),
                                               QStringLiteral("-c"), QStringLiteral("tag.gpgsign=false")} +
                                       args);
    p.waitForFinished(60000);
    if (p.exitCode() != 0)
        return QStringLiteral("ERROR: ") + QString::fromUtf8(p.readAllStandardError());
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

} // namespace

class TstBundleKustomize : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_repo, m_tagCommit;

  private slots:
    void initTestCase() {
        if (QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty())
            QSKIP("git is not installed: the test builds its repository with it");
        if (!QDir(pbtest::goldens::goldens()).exists())
            QSKIP("AICR's golden bundles (../shared/data/aicr/bundler-goldens) are not here");
        m_repo = m_tmp.filePath(QStringLiteral("app-repo"));
        QVERIFY(pbtest::copyTree(pbtest::goldens::goldens() + QStringLiteral("/argocd/kustomize_input"),
                                 m_repo + QStringLiteral("/deploy/app")));
        QVERIFY(pbtest::writeFile(m_repo + QStringLiteral("/README.md"), "an application repository\n"));
        for (const QStringList& step : {QStringList{QStringLiteral("init"), QStringLiteral("-q"),
                                                    QStringLiteral("-b"), QStringLiteral("main")},
                                        QStringList{QStringLiteral("add"), QStringLiteral("-A")},
                                        QStringList{QStringLiteral("commit"), QStringLiteral("-q"),
                                                    QStringLiteral("-m"), QStringLiteral("v1")},
                                        QStringList{QStringLiteral("tag"), QStringLiteral("v1.0")}}) {
            const QString out = gitRun(m_repo, step);
            QVERIFY2(!out.startsWith(QLatin1String("ERROR")), qPrintable(out));
        }
        m_tagCommit = gitRun(m_repo, {QStringLiteral("rev-parse"), QStringLiteral("v1.0^{commit}")});
        // A later commit on main changes the ConfigMap: building the tag must not see it.
        QFile cm(m_repo + QStringLiteral("/deploy/app/cm.yaml"));
        QVERIFY(cm.open(QIODevice::Append));
        cm.write("# changed after v1.0\n");
        cm.close();
        QVERIFY(pbtest::writeFile(m_repo + QStringLiteral("/deploy/app/extra.yaml"),
                                  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: only-on-main\n"));
        QVERIFY(pbtest::writeFile(m_repo + QStringLiteral("/deploy/app/kustomization.yaml"),
                                  "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                                  "resources:\n  - cm.yaml\n  - extra.yaml\n"));
        for (const QStringList& step : {QStringList{QStringLiteral("add"), QStringLiteral("-A")},
                                        QStringList{QStringLiteral("commit"), QStringLiteral("-q"),
                                                    QStringLiteral("-m"), QStringLiteral("v2")}})
            QVERIFY(!gitRun(m_repo, step).startsWith(QLatin1String("ERROR")));
    }

    // The source builder: the tag's tree, by commit; HEAD when no ref; refusals name the field.
    void buildsThePinnedRevision() {
        const QString url = QUrl::fromLocalFile(m_repo).toString();
        Result<KustomizeBuilt> atTag = kustomizeBuildSource(
            KustomizeSource{url, QStringLiteral("deploy/app"), QStringLiteral("v1.0")}, {});
        QVERIFY2(atTag, atTag ? "" : qPrintable(atTag.error().toString()));
        QCOMPARE(atTag->commit, m_tagCommit);
        Result<QByteArray> local =
            kustomizeBuildLocal(pbtest::goldens::goldens() + QStringLiteral("/argocd/kustomize_input"));
        QVERIFY(local);
        QCOMPARE(atTag->manifest, *local);
        QVERIFY(!atTag->manifest.contains("only-on-main"));

        Result<KustomizeBuilt> atHead =
            kustomizeBuildSource(KustomizeSource{m_repo, QStringLiteral("deploy/app"), {}}, {});
        QVERIFY2(atHead, atHead ? "" : qPrintable(atHead.error().toString()));
        QVERIFY(atHead->manifest.contains("only-on-main"));
        QVERIFY(atHead->commit != m_tagCommit);

        Result<KustomizeBuilt> noTag = kustomizeBuildSource(
            KustomizeSource{url, QStringLiteral("deploy/app"), QStringLiteral("v9.9")}, {});
        QVERIFY(!noTag);
        QVERIFY2(noTag.error().field == QLatin1String("tag") &&
                     noTag.error().file.contains(QStringLiteral("?ref=v9.9")),
                 qPrintable(noTag.error().toString()));
        Result<KustomizeBuilt> escape = kustomizeBuildSource(
            KustomizeSource{url, QStringLiteral("../outside"), QStringLiteral("v1.0")}, {});
        QVERIFY(!escape);
        QCOMPARE(escape.error().field, QStringLiteral("path"));
        Result<KustomizeBuilt> noRepo = kustomizeBuildSource(
            KustomizeSource{m_tmp.filePath(QStringLiteral("missing")), QStringLiteral("deploy/app"), {}}, {});
        QVERIFY(!noRepo);
        QCOMPARE(noRepo.error().field, QStringLiteral("source"));
    }

    // A remote source is cloned (bare, libgit2) over the real git protocol: `git daemon` serves the
    // test's repository on a local port.
    void clonesARemoteSource() {
        // git-daemon itself, not `git daemon`: the git wrapper runs it as a child a kill would miss.
        const QString daemonBinary =
            gitRun(m_tmp.path(), {QStringLiteral("--exec-path")}) + QStringLiteral("/git-daemon");
        if (!QFileInfo(daemonBinary).isExecutable())
            QSKIP("git-daemon is not installed here");
        QProcess daemon;
        int port = 0;
        for (int attempt = 0; attempt < 20 && !port; ++attempt) {
            const int candidate =
                20000 + int((QCoreApplication::applicationPid() * 7 + attempt * 131) % 20000);
            daemon.start(daemonBinary, {QStringLiteral("--export-all"), QStringLiteral("--verbose"),
                                        QStringLiteral("--reuseaddr"), QStringLiteral("--listen=127.0.0.1"),
                                        QStringLiteral("--port=%1").arg(candidate),
                                        QStringLiteral("--base-path=%1").arg(m_tmp.path()), m_tmp.path()});
            if (!daemon.waitForStarted(5000))
                QSKIP("git daemon cannot be started here");
            // It says "Ready to rumble" once it listens (with --verbose), or exits (port taken).
            for (int i = 0; i < 100 && daemon.state() == QProcess::Running; ++i) {
                daemon.waitForReadyRead(100);
                if (daemon.readAllStandardError().contains("Ready to rumble")) {
                    port = candidate;
                    break;
                }
            }
            if (!port) {
                daemon.kill();
                daemon.waitForFinished(5000);
            }
        }
        QVERIFY2(port, "git daemon did not start on any port tried");
        Result<KustomizeBuilt> built =
            kustomizeBuildSource(KustomizeSource{QStringLiteral("git://127.0.0.1:%1/app-repo").arg(port),
                                                 QStringLiteral("deploy/app"), QStringLiteral("v1.0")},
                                 {});
        daemon.kill();
        daemon.waitForFinished(5000);
        QVERIFY2(built, built ? "" : qPrintable(built.error().toString()));
        QCOMPARE(built->commit, m_tagCommit);
        QVERIFY(built->manifest.contains("kind: ConfigMap") && !built->manifest.contains("only-on-main"));
        // Nothing listens there any more: the clone fails and says where.
        Result<KustomizeBuilt> gone =
            kustomizeBuildSource(KustomizeSource{QStringLiteral("git://127.0.0.1:%1/app-repo").arg(port),
                                                 QStringLiteral("deploy/app"), QStringLiteral("v1.0")},
                                 {});
        QVERIFY(!gone);
        QVERIFY2(gone.error().message.contains(QStringLiteral("cannot clone")) &&
                     gone.error().field == QLatin1String("source"),
                 qPrintable(gone.error().toString()));
    }

    // From a catalog: a registry component with kustomize defaults (source, path, tag) is built and
    // written where AICR writes it; the folder matches AICR's golden for the same kustomization.
    void generatedFromACatalogMatchesAicr() {
        const QString catalogDir = m_tmp.filePath(QStringLiteral("catalog"));
        QVERIFY(pbtest::copyTree(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")), catalogDir));
        QFile registry(catalogDir + QStringLiteral("/registry.yaml"));
        QVERIFY(registry.open(QIODevice::Append));
        registry.write(
            QStringLiteral("\n  - name: my-kustomize-app\n    displayName: My Kustomize App\n"
                           "    kustomize:\n      defaultSource: %1\n      defaultPath: deploy/app\n"
                           "      defaultTag: v1.0\n      defaultNamespace: my-app\n")
                .arg(QUrl::fromLocalFile(m_repo).toString())
                .toUtf8());
        registry.close();
        QFile base(catalogDir + QStringLiteral("/overlays/base.yaml"));
        QVERIFY(base.open(QIODevice::ReadOnly));
        QByteArray text = base.readAll();
        base.close();
        text.replace("  componentRefs:\n",
                     "  componentRefs:\n    - name: my-kustomize-app\n      type: Kustomize\n\n");
        QVERIFY(pbtest::writeFile(catalogDir + QStringLiteral("/overlays/base.yaml"), text));

        Result<catalog::Catalog> cat = catalog::loadCatalog(catalogDir);
        QVERIFY2(cat, cat ? "" : qPrintable(cat.error().toString()));
        const QString leaf = cat->leafNames().constFirst();
        Result<catalog::RecipeResult> recipe = catalog::resolve(*cat, catalog::leafCriteria(*cat, leaf));
        QVERIFY2(recipe, recipe ? "" : qPrintable(recipe.error().toString()));
        const catalog::ComponentRef* ref = recipe->component(QStringLiteral("my-kustomize-app"));
        QVERIFY(ref);
        QCOMPARE(ref->tag, QStringLiteral("v1.0"));

        GenerateOptions o;
        o.deployer = Deployer::ArgoCD;
        o.repoUrl = QStringLiteral("https://github.com/example/aicr-bundles.git");
        o.targetRevision = QStringLiteral("main");
        const QString out = m_tmp.filePath(QStringLiteral("bundle"));
        Result<BundleTree> tree = generate(*cat, *recipe, o, out);
        QVERIFY2(tree, tree ? "" : qPrintable(tree.error().toString()));
        const BundleFolder* folder = nullptr;
        for (const BundleFolder& f : tree->folders)
            if (f.component == QLatin1String("my-kustomize-app"))
                folder = &f;
        QVERIFY(folder);
        const BundleFile* manifest = tree->file(folder->dir + QStringLiteral("/templates/manifest.yaml"));
        QVERIFY(manifest);
        // The manifest AICR's kustomize build wrote for the same kustomization (its golden), as documents.
        const QByteArray golden = pbtest::goldens::readAll(
            pbtest::goldens::goldens() +
            QStringLiteral("/argocd/kustomize_only/001-my-kustomize-app/templates/manifest.yaml"));
        QString e1, e2;
        QCOMPARE(pbtest::goldens::yamlDocs(manifest->bytes, QStringLiteral("ours"), &e1),
                 pbtest::goldens::yamlDocs(golden, QStringLiteral("golden"), &e2));
        QVERIFY(e1.isEmpty() && e2.isEmpty());
        QVERIFY(!manifest->bytes.contains("only-on-main"));

        // A tag the repository does not have: refused, naming the component and the field.
        text.replace("      type: Kustomize\n", "      type: Kustomize\n      tag: v0.0-missing\n");
        QVERIFY(pbtest::writeFile(catalogDir + QStringLiteral("/overlays/base.yaml"), text));
        Result<catalog::Catalog> cat2 = catalog::loadCatalog(catalogDir);
        QVERIFY(cat2);
        Result<catalog::RecipeResult> recipe2 = catalog::resolve(*cat2, catalog::leafCriteria(*cat2, leaf));
        QVERIFY(recipe2);
        Result<GenerateInput> refused = inputFromRecipe(*cat2, *recipe2, o);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("my-kustomize-app")) &&
                     refused.error().toString().contains(QStringLiteral("v0.0-missing")),
                 qPrintable(refused.error().toString()));
    }
};

QTEST_GUILESS_MAIN(TstBundleKustomize)
#include "tst_bundlekustomize.moc"
