// The bundle view and the bundle compare view, driven in the real MainWindow on AICR's golden
// bundles: File › Open Deployment Bundle… reads a folder off the GUI thread and shows components,
// sync-waves, templated fields (argocd-helm), files, contents, effective values and unknown files;
// a hostile folder shows its error; "Import into database" stores it; File › Compare Deployment
// Bundles… compares the imported bundle with a folder and shows the diff as tables.
#include "BundleCompareView.h"
#include "BundleView.h"
#include "DeployBundleModels.h"
#include "GuiTestUtil.h"
#include "MainWindow.h"
#include "bundle/Read.h"

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace pb;
using widgets::MainWindow;
namespace bm = pb::bundle::model;

namespace {

constexpr int kTimeout = 30000;

QString golden(const QString& rel) {
    return QStringLiteral(PB_SHARED_DATA "/aicr/bundler-goldens/") + rel;
}

QModelIndex findFile(QStandardItemModel* m, const QString& path, const QModelIndex& parent = {}) {
    for (int r = 0; r < m->rowCount(parent); ++r) {
        const QModelIndex i = m->index(r, 0, parent);
        if (i.data(Qt::UserRole).toString() == path)
            return i;
        if (QModelIndex inner = findFile(m, path, i); inner.isValid())
            return inner;
    }
    return {};
}

} // namespace

class TstBundleView : public QObject {
    Q_OBJECT
  private slots:
    void init() {
        if (!QDir(golden(QString())).exists())
            QSKIP("AICR's bundler goldens are not at " PB_SHARED_DATA
                  "/aicr/bundler-goldens (shared data absent)");
        const QString error = pbgui::openWindow(m_db, m_window);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    void cleanup() { pbgui::closeWindow(m_db, m_window); }

    void openFromTheFileMenu() {
        const QString dir = golden(QStringLiteral("argocdhelm/helm_and_manifest_only"));
        auto* action = m_window->findChild<QAction*>(QStringLiteral("actionOpenDeploymentBundle"));
        QVERIFY(action);
        auto watch = pbgui::whenModal<QFileDialog>([dir](QFileDialog* d) {
            d->setDirectory(dir);
            d->selectFile(dir);
            static_cast<QDialog*>(d)->accept();
        });
        action->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->bundleView() != nullptr, kTimeout);
        widgets::BundleView* view = m_window->bundleView();
        QTRY_VERIFY_WITH_TIMEOUT(view->hasBundle() || !view->lastError().isEmpty(), kTimeout);
        QVERIFY2(view->lastError().isEmpty(), qPrintable(view->lastError()));
        QVERIFY(view->isVisible());

        auto reference = bm::readBundle(dir);
        QVERIFY(reference);
        models::BundleComponentsModel* comps = view->componentsModel();
        QAbstractItemModelTester tester(comps, pbgui::kTesterMode);
        QCOMPARE(comps->rowCount(), static_cast<int>(reference->bundle.components.size()));
        for (int r = 0; r < comps->rowCount(); ++r) {
            QCOMPARE(comps->index(r, models::BundleComponentsModel::Name).data().toString(),
                     reference->bundle.components[size_t(r)].name);
            QCOMPARE(comps->index(r, models::BundleComponentsModel::Order).data().toInt(), r + 1);
        }
        // Templated fields are shown as written, in italics; literal ones as read.
        int nw = -1;
        for (int r = 0; r < comps->rowCount(); ++r)
            if (comps->component(r)->name == QLatin1String("nodewright-customizations"))
                nw = r;
        QVERIFY(nw >= 0);
        const QModelIndex repo = comps->index(nw, models::BundleComponentsModel::Repository);
        QVERIFY(repo.data().toString().startsWith(QLatin1String("templated: ")));
        QVERIFY(repo.data(Qt::FontRole).value<QFont>().italic());
        QVERIFY(view->findChild<QLabel*>(QStringLiteral("bundleSummary"))
                    ->text()
                    .contains(QLatin1String("never rendered")));

        // Clicking a component shows its effective values and its Application.
        QVERIFY(view->selectComponent(QStringLiteral("cert-manager")));
        QStringList paths = pbgui::column(*view->valuesModel(), 0);
        QVERIFY2(paths.contains(QStringLiteral("prometheus.enabled")),
                 qPrintable(paths.join(QLatin1Char(' '))));
        QVERIFY(view->objectView()->toPlainText().contains(QLatin1String("templates/cert-manager.yaml")));

        // Clicking a file in the tree shows its bytes.
        const QModelIndex values = findFile(view->filesModel(), QStringLiteral("values.yaml"));
        QVERIFY(values.isValid());
        view->tabs()->setCurrentIndex(1);
        view->filesView()->scrollTo(values);
        QTest::mouseClick(view->filesView()->viewport(), Qt::LeftButton, {},
                          view->filesView()->visualRect(values).center());
        QFile f(dir + QStringLiteral("/values.yaml"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString valuesText = QString::fromUtf8(f.readAll()); // read once: QTRY_ re-evaluates both sides
        QTRY_COMPARE(view->contentView()->toPlainText(), valuesText);
        // The slot bundlegen's dialog calls opens the same view on another folder.
        QSignalSpy loaded(view, &widgets::BundleView::loaded);
        m_window->openDeploymentBundle(golden(QStringLiteral("helm/mixed_gpu_operator")));
        QVERIFY(view->isBusy() || loaded.count() == 1); // reading runs off the GUI thread
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeout);
        QCOMPARE(loaded.at(0).at(0).toBool(), true);
        QCOMPARE(comps->rowCount(), 3);
        QCOMPARE(view->unknownList()->count(), 0);
    }

    void unknownFilesAndErrors() {
        QTemporaryDir tmp;
        QVERIFY(pbtest::copyTree(golden(QStringLiteral("flux/helm_components")), tmp.path()));
        QProcess::execute(QStringLiteral("chmod"), {QStringLiteral("-R"), QStringLiteral("u+w"), tmp.path()});
        QFile extra(tmp.filePath(QStringLiteral("cert-manager/notes.txt")));
        QVERIFY(extra.open(QIODevice::WriteOnly));
        extra.write("kept, listed\n");
        extra.close();
        m_window->openDeploymentBundle(tmp.path());
        widgets::BundleView* view = m_window->bundleView();
        QTRY_VERIFY_WITH_TIMEOUT(view->hasBundle() && !view->isBusy(), kTimeout);
        QCOMPARE(view->unknownList()->count(), 1);
        QCOMPARE(view->unknownList()->item(0)->text(), QStringLiteral("cert-manager/notes.txt"));
        view->unknownList()->setCurrentRow(0);
        QCOMPARE(view->contentView()->toPlainText(), QStringLiteral("kept, listed\n"));

        // A hostile folder: refused with the file and the reason on screen, the old bundle kept.
        QTemporaryDir bad;
        QDir().mkpath(bad.filePath(QStringLiteral("001-x")));
        QVERIFY(
            QFile::link(QStringLiteral("/etc/passwd"), bad.filePath(QStringLiteral("001-x/values.yaml"))));
        QSignalSpy loaded(view, &widgets::BundleView::loaded);
        QVERIFY(view->openFolder(bad.path()));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeout);
        QCOMPARE(loaded.at(0).at(0).toBool(), false);
        auto* error = view->findChild<QLabel*>(QStringLiteral("bundleError"));
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().contains(QLatin1String("001-x/values.yaml")) &&
                     error->text().contains(QLatin1String("outside the bundle")),
                 qPrintable(error->text()));
        QCOMPARE(view->componentsModel()->rowCount(), 2);
    }

    void cancelWhileReading() {
        QTemporaryDir tmp;
        QVERIFY(pbtest::copyTree(golden(QStringLiteral("helm/mixed_gpu_operator")), tmp.path()));
        QProcess::execute(QStringLiteral("chmod"), {QStringLiteral("-R"), QStringLiteral("u+w"), tmp.path()});
        QDir().mkpath(tmp.filePath(QStringLiteral("003-gpu-operator-post/templates")));
        for (int i = 0; i < 3000; ++i) {
            QFile f(tmp.filePath(QStringLiteral("003-gpu-operator-post/templates/m%1.yaml").arg(i)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n");
        }
        m_window->openDeploymentBundle(QString());
        widgets::BundleView* view = m_window->bundleView();
        QSignalSpy loaded(view, &widgets::BundleView::loaded);
        QVERIFY(view->openFolder(tmp.path()));
        QVERIFY(view->isBusy());
        QVERIFY(view->progressBar()->isVisible());
        QTest::mouseClick(view->findChild<QPushButton*>(QStringLiteral("cancelBundleButton")),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeout);
        QVERIFY(!view->isBusy());
        if (!loaded.at(0).at(0).toBool())
            QVERIFY2(view->lastError().contains(QLatin1String("cancelled")), qPrintable(view->lastError()));
        else
            qInfo("the read finished before the cancel reached it (3001 files); nothing to check of the "
                  "cancel itself");
    }

    void importThenCompare() {
        const QString before = golden(QStringLiteral("argocd/mixed_component"));
        const QString after = golden(QStringLiteral("argocd/mixed_with_pre"));
        m_window->openDeploymentBundle(before);
        widgets::BundleView* view = m_window->bundleView();
        QTRY_VERIFY_WITH_TIMEOUT(view->hasBundle() && !view->isBusy(), kTimeout);
        QSignalSpy imported(view, &widgets::BundleView::importFinished);
        QVERIFY(view->importButton()->isEnabled());
        QTest::mouseClick(view->importButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 1, kTimeout);
        QVERIFY2(imported.at(0).at(0).toBool(), qPrintable(imported.at(0).at(1).toString()));

        auto* action = m_window->findChild<QAction*>(QStringLiteral("actionCompareBundles"));
        QVERIFY(action);
        action->trigger();
        widgets::BundleCompareView* cmp = m_window->bundleCompareView();
        QVERIFY(cmp && cmp->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(cmp->importedNames().contains(QStringLiteral("mixed_component")), kTimeout);
        QCOMPARE(cmp->fromPicker()->findText(QStringLiteral("mixed_component")) >= 0, true);
        cmp->setSides(QStringLiteral("mixed_component"), after);
        QSignalSpy compared(cmp, &widgets::BundleCompareView::compared);
        QTest::mouseClick(cmp->compareButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 1, kTimeout);
        QVERIFY2(compared.at(0).at(0).toBool(), qPrintable(cmp->lastError()));
        QAbstractItemModelTester tester(cmp->componentsModel(), pbgui::kTesterMode);
        QCOMPARE(cmp->componentsModel()->rowCount(), 3);
        QCOMPARE(cmp->componentsModel()->index(0, models::BundleDiffModel::Name).data().toString(),
                 QStringLiteral("gpu-operator-pre"));
        QCOMPARE(cmp->componentsModel()->index(0, models::BundleDiffModel::Change).data().toString(),
                 QStringLiteral("added"));
        QCOMPARE(cmp->componentsModel()->index(1, models::BundleDiffModel::Wave).data().toString(),
                 QStringLiteral("1"));
        QCOMPARE(cmp->componentsModel()->index(1, models::BundleDiffModel::Order).data().toString(),
                 QStringLiteral("1 → 2"));
        QVERIFY(cmp->findChild<QLabel*>(QStringLiteral("bundleCompareHeadline"))
                    ->text()
                    .contains(QStringLiteral("2 → 3 distinct sync-waves")));
        // Clicking a component narrows the object table to its fields.
        cmp->componentsView()->selectRow(1);
        QStringList comps = pbgui::column(*cmp->objectModel(), 0);
        comps.removeDuplicates();
        QCOMPARE(comps, QStringList{QStringLiteral("gpu-operator")});
        QVERIFY(pbgui::column(*cmp->objectModel(), 1).contains(QStringLiteral("spec.destination.namespace")));
        // Copy Markdown.
        QTest::mouseClick(cmp->findChild<QPushButton*>(QStringLiteral("copyBundleMarkdown")), Qt::LeftButton);
        QVERIFY(QApplication::clipboard()->text().startsWith(QStringLiteral("**mixed_component → ")));
        // A side that is neither: the error on screen.
        cmp->setSides(QStringLiteral("no-such-bundle"), after);
        QVERIFY(cmp->compare());
        QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 2, kTimeout);
        QCOMPARE(compared.at(1).at(0).toBool(), false);
        QVERIFY(cmp->findChild<QLabel*>(QStringLiteral("bundleCompareError"))
                    ->text()
                    .contains(QLatin1String("neither a folder")));
    }

  private:
    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TstBundleView)
#include "tst_bundleview.moc"
