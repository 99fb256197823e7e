// File > Generate Bundle… (widgets/bundle/GenerateBundleDialog) in the real MainWindow, on a recipe
// of the real 2026-08-19 catalog: the action follows the recipe on screen, the dialog runs
// ops::bundleGenerate on a worker (the window stays live), shows the tree digest of what is on disk,
// refuses a foreign folder with the operation's error, and opens the result in the bundle view.
#include "BundleCompareView.h"
#include "BundleView.h"
#include "GenerateBundleDialog.h"
#include "GuiTestUtil.h"
#include "MainWindow.h"
#include "RecipeView.h"
#include "TestUtil.h"
#include "bundle/Index.h"
#include "bundle/Read.h"
#include "ops/ImportCatalog.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using widgets::GenerateBundleDialog;
using widgets::MainWindow;

namespace {
constexpr int kTimeout = 60000;
const QString kLabel = QStringLiteral("2026-08-19");
const QString kRecipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
} // namespace

class TstGenerateBundle : public QObject {
    Q_OBJECT
  private slots:
    void init();
    void cleanup();
    void generateFromTheRecipeOnScreen();
    void foreignFolderRefused();
    void everyDeployerGenerates();

  private:
    bool openWindow();
    GenerateBundleDialog* openDialog();

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_tmp;
};

void TstGenerateBundle::init() {}

void TstGenerateBundle::cleanup() {
    pbgui::closeWindow(m_db, m_window);
}

bool TstGenerateBundle::openWindow() {
    m_db = pbgui::seededDatabase();
    if (!m_db->error.isEmpty())
        return false;
    ops::ImportCatalogRequest req;
    req.label = kLabel;
    req.dir = pbtest::realCatalog(kLabel);
    if (!ops::importCatalog(ops::Context(*m_db->db), req))
        return false;
    m_window = std::make_unique<MainWindow>(m_db->workspace());
    m_window->show();
    return QTest::qWaitForWindowExposed(m_window.get()) &&
           QTest::qWaitFor([&] { return !m_window->isReloadingCatalogs(); },
                           kTimeout); // the tree is read on a worker
}

GenerateBundleDialog* TstGenerateBundle::openDialog() {
    auto* action = pbgui::findNamed<QAction>(m_window.get(), "actionGenerateBundle");
    if (!action || action->isEnabled()) // nothing shown yet: disabled
        return nullptr;
    if (!m_window->selectRecipe(kLabel, kRecipe))
        return nullptr;
    widgets::RecipeView* view = m_window->recipeView();
    if (!QTest::qWaitFor([&] { return view->hasResult() && view->recipe().name == kRecipe; }, kTimeout))
        return nullptr;
    if (!action->isEnabled())
        return nullptr;
    action->trigger();
    GenerateBundleDialog* dialog = nullptr;
    (void)QTest::qWaitFor(
        [&] { return (dialog = m_window->findChild<GenerateBundleDialog*>()) && dialog->isVisible(); },
        kTimeout);
    return dialog;
}

void TstGenerateBundle::generateFromTheRecipeOnScreen() {
    PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs"));
    QVERIFY(openWindow());
    GenerateBundleDialog* dialog = openDialog();
    QVERIFY(dialog);
    QVERIFY(!dialog->openButton()->isEnabled());
    const QString out = m_tmp.filePath(QStringLiteral("argo-bundle"));
    dialog->deployerCombo()->setCurrentIndex(dialog->deployerCombo()->findData(QStringLiteral("argocd")));
    QVERIFY(dialog->repoUrlEdit()->isEnabled());
    dialog->outDirEdit()->setText(out);
    dialog->nodeSelectorEdit()->setText(QStringLiteral("nodeGroup=gpu"));
    dialog->repoUrlEdit()->setText(QStringLiteral("https://example.com/bundles.git"));
    QSignalSpy generated(dialog, &GenerateBundleDialog::generated);
    QTest::mouseClick(dialog->generateButton(), Qt::LeftButton);
    // The operation runs on a worker: the dialog is back at once, busy, with Cancel offered.
    QVERIFY(dialog->isRunning() || generated.count() == 1);
    QVERIFY(generated.count() == 1 || !dialog->generateButton()->isEnabled());
    QVERIFY(generated.count() == 1 || generated.wait(kTimeout));
    QVERIFY(!dialog->isRunning());
    QVERIFY(dialog->outcome().has_value());
    const QString digest = dialog->outcome()->treeDigest;
    QCOMPARE(generated.at(0).at(1).toString(), digest);
    // What the dialog reports is what is on disk.
    QCOMPARE(*bundle::treeDigestOnDisk(out), digest);
    QVERIFY(QFile::exists(out + QStringLiteral("/app-of-apps.yaml")));
    QVERIFY2(dialog->statusLabel()->text().contains(digest), qPrintable(dialog->statusLabel()->text()));
    QVERIFY(dialog->openButton()->isEnabled());
    QCOMPARE(dialog->cancelButton()->text(), QObject::tr("Close"));
    // Open Bundle shows it in the bundle view.
    QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
    auto* view = m_window->findChild<widgets::BundleView*>();
    QVERIFY(view);
    QTRY_VERIFY_WITH_TIMEOUT(view->isVisible(), kTimeout);
    view->close();
    dialog->close();
}

void TstGenerateBundle::foreignFolderRefused() {
    PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs"));
    QVERIFY(openWindow());
    GenerateBundleDialog* dialog = openDialog();
    QVERIFY(dialog);
    // Empty folder name: said so, nothing runs.
    QTest::mouseClick(dialog->generateButton(), Qt::LeftButton);
    QVERIFY(!dialog->isRunning());
    QVERIFY(dialog->statusLabel()->text().contains(QLatin1String("output folder")));
    const QString foreign = m_tmp.filePath(QStringLiteral("notes"));
    QVERIFY(QDir().mkpath(foreign));
    QFile f(foreign + QStringLiteral("/mine.txt"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("mine");
    f.close();
    dialog->outDirEdit()->setText(foreign);
    QTest::mouseClick(dialog->generateButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isRunning(), kTimeout);
    QVERIFY2(dialog->statusLabel()->text().startsWith(QLatin1String("Not generated")),
             qPrintable(dialog->statusLabel()->text()));
    QVERIFY(dialog->generateButton()->isEnabled());
    QVERIFY(!dialog->openButton()->isEnabled());
    QVERIFY(QFile::exists(foreign + QStringLiteral("/mine.txt")));
    dialog->close();
}

// Issue 27: the dialog offers AICR's five deployers; each generates its layout through the real
// operation, is read back as that deployer, and the fields follow the deployer chosen.
void TstGenerateBundle::everyDeployerGenerates() {
    PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs"));
    QVERIFY(openWindow());
    GenerateBundleDialog* dialog = openDialog();
    QVERIFY(dialog);
    QComboBox* combo = dialog->deployerCombo();
    QStringList offered;
    for (int i = 0; i < combo->count(); ++i)
        offered << combo->itemData(i).toString();
    QCOMPARE(offered,
             (QStringList{QStringLiteral("helm"), QStringLiteral("argocd"), QStringLiteral("argocd-helm"),
                          QStringLiteral("flux"), QStringLiteral("helmfile")}));
    struct Expect {
        const char* deployer;
        const char* marker; // a file only that layout has at its top
        bool repo, revision, dynamic, hooks, serial;
    };
    const Expect expects[] = {
        {"helm", "deploy.sh", false, false, true, true, false},
        {"argocd", "app-of-apps.yaml", true, true, false, true, true},
        {"argocd-helm", "Chart.yaml", true, false, true, true, true},
        {"flux", "kustomization.yaml", true, true, true, false, true},
        {"helmfile", "helmfile.yaml", false, false, true, false, true},
    };
    for (const Expect& e : expects) {
        const QString name = QString::fromLatin1(e.deployer);
        combo->setCurrentIndex(combo->findData(name));
        QCOMPARE(dialog->repoUrlEdit()->isEnabled(), e.repo);
        QCOMPARE(dialog->revisionEdit()->isEnabled(), e.revision);
        QCOMPARE(dialog->dynamicEdit()->isEnabled(), e.dynamic);
        QCOMPARE(dialog->readinessHooksBox()->isEnabled(), e.hooks);
        QCOMPARE(dialog->serialBox()->isEnabled(), e.serial);
        const QString out = m_tmp.filePath(QStringLiteral("every-") + name);
        dialog->outDirEdit()->setText(out);
        dialog->repoUrlEdit()->setText(name == QLatin1String("argocd-helm")
                                           ? QStringLiteral("oci://registry.example/charts")
                                           : QStringLiteral("https://example.com/bundles.git"));
        QSignalSpy generated(dialog, &GenerateBundleDialog::generated);
        QTest::mouseClick(dialog->generateButton(), Qt::LeftButton);
        QVERIFY2(generated.count() == 1 || generated.wait(kTimeout),
                 qPrintable(name + QStringLiteral(": ") + dialog->statusLabel()->text()));
        QVERIFY(dialog->outcome().has_value());
        QCOMPARE(bundle::deployerName(dialog->outcome()->tree.deployer), name);
        QVERIFY2(QFile::exists(out + QLatin1Char('/') + QLatin1String(e.marker)), qPrintable(name));
        const QString digest = dialog->outcome()->treeDigest;
        QCOMPARE(*bundle::treeDigestOnDisk(out), digest);
        QVERIFY2(dialog->statusLabel()->text().contains(QStringLiteral("tree digest sha256:") + digest),
                 qPrintable(dialog->statusLabel()->text()));
        QVERIFY2(!dialog->statusLabel()->text().contains(QStringLiteral("(s)")),
                 qPrintable(dialog->statusLabel()->text()));
        // Read back as what it is.
        auto read = bundle::model::readBundle(out);
        QVERIFY2(read, read ? "" : qPrintable(read.error().toString()));
        QCOMPARE(bundle::model::deployerName(read->bundle.deployer), name);
        QVERIFY2(read->bundle.unknownFiles.isEmpty(),
                 qPrintable(read->bundle.unknownFiles.join(QLatin1Char(','))));
    }
    dialog->close();
}

QTEST_MAIN(TstGenerateBundle)
#include "tst_generatebundle.moc"
