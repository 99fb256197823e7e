// The real MainWindow on a temp database seeded with the sample catalog (sample-1, sample-2):
// widgets found by objectName, driven by keyboard and mouse; the import action end to end, success
// and failure.
#include "CatalogTreeModel.h"
#include "GuiTestUtil.h"
#include "MainWindow.h"
#include "RecipeModels.h"
#include "RecipeView.h"
#include "YamlDialog.h"
#include "catalog/Resolver.h"

#include <QAction>
#include <QFileDialog>
#include <QFontInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace pb;
using models::CatalogTreeModel;
using models::ComponentsModel;
using widgets::MainWindow;

namespace {

constexpr int kTimeout = 30000;

// What the database holds, to compare before and after an import that must not change it.
QStringList databaseSummary(db::Database& db) {
    QStringList out;
    store::CatalogStore store(db);
    Result<std::vector<store::CatalogVersionInfo>> versions = store.versions();
    if (!versions)
        return {versions.error().toString()};
    for (const store::CatalogVersionInfo& v : *versions)
        out << QStringLiteral("%1 %2 %3 %4")
                   .arg(v.label, v.contentDigest)
                   .arg(v.recipeCount)
                   .arg(v.overlayCount);
    return out;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void init();
    void cleanup();

    void startsOnNewestVersion();
    void filterAndSelectRecipe();
    void keyboardFilterAndNavigation();
    void recipeDetails();
    void overlayYamlDialog();
    void importCatalogAction();
    void importErrorLeavesDatabaseUnchanged();
    void importCancelLeavesDatabaseUnchanged();

  private:
    template <typename T> T* find(const char* name) { return pbgui::findNamed<T>(m_window.get(), name); }
    // Waits until the recipe pane shows `recipe` of `label`, resolved.
    bool waitForRecipe(const QString& label, const QString& recipe);
    catalog::RecipeResult resolved(const QString& label, const QString& leaf);
    int rowOf(QAbstractItemModel* model, int column, const QString& text);

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<MainWindow> m_window;
};

void TestMainWindow::initTestCase() {
    QLocale::setDefault(QLocale::c());
}

void TestMainWindow::init() {
    const QString error = pbgui::openWindow(m_db, m_window, true);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestMainWindow::cleanup() {
    pbgui::closeWindow(m_db, m_window);
}

bool TestMainWindow::waitForRecipe(const QString& label, const QString& recipe) {
    widgets::RecipeView* view = m_window->recipeView();
    return QTest::qWaitFor(
        [&] {
            return view->isVisible() && view->hasResult() && view->recipe().catalogLabel == label &&
                   view->recipe().name == recipe;
        },
        kTimeout);
}

catalog::RecipeResult TestMainWindow::resolved(const QString& label, const QString& leaf) {
    std::shared_ptr<const catalog::Catalog> cat = m_window->cachedCatalog(label);
    if (!cat)
        qFatal("catalog %s not loaded", qPrintable(label));
    Result<catalog::RecipeResult> r = store::resolveStoredRecipe(*cat, leaf);
    if (!r)
        qFatal("%s", qPrintable(r.error().toString()));
    return *r;
}

int TestMainWindow::rowOf(QAbstractItemModel* model, int column, const QString& text) {
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, column).data().toString() == text)
            return r;
    return -1;
}

void TestMainWindow::startsOnNewestVersion() {
    auto* tree = find<QTreeView>("catalogTree");
    QVERIFY(tree);
    QCOMPARE(tree->model()->rowCount(), 2);
    QCOMPARE(tree->currentIndex().data(CatalogTreeModel::VersionLabelRole).toString(),
             QStringLiteral("sample-2"));
    QVERIFY(tree->isExpanded(tree->model()->index(0, 0)));
    QVERIFY(tree->hasFocus());
    QVERIFY(!find<QLabel>("recipeTitle")->isVisible());

    auto* summary = find<QLabel>("versionSummary");
    QVERIFY(summary && summary->isVisible());
    QVERIFY(summary->text().contains(QLatin1String("sample-2")));
    auto* recipes = find<QTableView>("versionRecipesTable");
    QVERIFY(recipes && recipes->isVisible());
    QCOMPARE(recipes->model()->rowCount(), 16);

    // Activating a row of the version's table opens that recipe.
    const int row = rowOf(recipes->model(), models::VersionRecipesModel::NameColumn,
                          QStringLiteral("h100-gke-cos-training-kubeflow"));
    QVERIFY(row >= 0);
    recipes->setFocus();
    recipes->setCurrentIndex(recipes->model()->index(row, 0));
    QTest::keyClick(recipes, Qt::Key_Return);
    QCOMPARE(tree->currentIndex().data(CatalogTreeModel::RecipeNameRole).toString(),
             QStringLiteral("h100-gke-cos-training-kubeflow"));
    QVERIFY(waitForRecipe(QStringLiteral("sample-2"), QStringLiteral("h100-gke-cos-training-kubeflow")));

    auto* db = find<QLabel>("statusDatabase");
    // The file, or the server and database (never a password), on either engine.
    QVERIFY(db && db->text().contains(pb::db::Database::describe(m_db->path())));
    QCOMPARE(find<QLabel>("statusCounts")->text(), QStringLiteral("2 catalog versions · 31 recipes"));
    QCOMPARE(m_window->size(), QSize(1400, 900));

    // The version's catalog loads in the background, ready for the first recipe click.
    QTRY_VERIFY_WITH_TIMEOUT(m_window->cachedCatalog(QStringLiteral("sample-2")) != nullptr, kTimeout);

    // Every interactive widget has a name.
    for (QWidget* w : m_window->findChildren<QWidget*>()) {
        if (qobject_cast<QAbstractItemView*>(w) || qobject_cast<QLineEdit*>(w))
            if (w->objectName().isEmpty() && !qobject_cast<QHeaderView*>(w) &&
                !w->parentWidget()->inherits("QComboBox") &&
                !w->parentWidget()->inherits("QComboBoxPrivateContainer"))
                QFAIL(qPrintable(
                    QStringLiteral("unnamed %1 in %2")
                        .arg(QLatin1String(w->metaObject()->className()), w->parentWidget()->objectName())));
    }
}

void TestMainWindow::filterAndSelectRecipe() {
    auto* filter = find<QLineEdit>("recipeFilter");
    auto* tree = find<QTreeView>("catalogTree");
    auto* components = find<QTableView>("componentsTable");
    QVERIFY(filter && tree && components);

    filter->setFocus();
    QTest::keyClicks(filter, QStringLiteral("gb200-eks-ubuntu-training"));
    QCOMPARE(filter->text(), QStringLiteral("gb200-eks-ubuntu-training"));

    // Both versions stay, each with its one matching recipe.
    QAbstractItemModel* proxy = tree->model();
    QCOMPARE(proxy->rowCount(), 2);
    for (int v = 0; v < 2; ++v) {
        const QModelIndex version = proxy->index(v, 0);
        QCOMPARE(proxy->rowCount(version), 1);
        QCOMPARE(proxy->index(0, 0, version).data().toString(),
                 QStringLiteral("gb200-eks-ubuntu-training-kubeflow"));
        QVERIFY(tree->isExpanded(version));
    }

    // Select the sample-2 match with the mouse.
    const QModelIndex match = proxy->index(0, 0, proxy->index(0, 0));
    QCOMPARE(match.data(CatalogTreeModel::VersionLabelRole).toString(), QStringLiteral("sample-2"));
    tree->scrollTo(match);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(match).center());
    QCOMPARE(tree->currentIndex(), match);
    QVERIFY(waitForRecipe(QStringLiteral("sample-2"), QStringLiteral("gb200-eks-ubuntu-training-kubeflow")));

    const catalog::RecipeResult recipe =
        resolved(QStringLiteral("sample-2"), QStringLiteral("gb200-eks-ubuntu-training-kubeflow"));
    QAbstractItemModel* table = components->model();
    QCOMPARE(table->rowCount(), int(recipe.componentRefs.size())); // enabled + disabled
    QCOMPARE(table->index(0, ComponentsModel::NameColumn).data().toString(), recipe.deploymentOrder.first());
    QVERIFY(table->index(0, ComponentsModel::DependenciesColumn).data().toString().isEmpty());
    for (int r = 0; r < recipe.deploymentOrder.size(); ++r)
        QCOMPARE(table->index(r, ComponentsModel::NameColumn).data().toString(), recipe.deploymentOrder[r]);
    const int gpu = rowOf(table, ComponentsModel::NameColumn, QStringLiteral("gpu-operator"));
    QVERIFY(gpu > 0);
    QCOMPARE(table->index(gpu, ComponentsModel::VersionColumn).data().toString(), QStringLiteral("v26.7.1"));

    // The same recipe in sample-1 ships the older GPU Operator.
    QVERIFY(m_window->selectRecipe(QStringLiteral("sample-1"),
                                   QStringLiteral("gb200-eks-ubuntu-training-kubeflow")));
    QVERIFY(waitForRecipe(QStringLiteral("sample-1"), QStringLiteral("gb200-eks-ubuntu-training-kubeflow")));
    const int gpuOld = rowOf(table, ComponentsModel::NameColumn, QStringLiteral("gpu-operator"));
    QVERIFY(gpuOld > 0);
    QCOMPARE(table->index(gpuOld, ComponentsModel::VersionColumn).data().toString(),
             QStringLiteral("v26.3.3"));

    // Digest in the header: short hex shown, full hex in the tooltip.
    auto* digest = find<QLabel>("recipeDigest");
    const QString full = m_window->recipeView()->recipe().digest;
    QCOMPARE(full.size(), 64);
    QVERIFY(digest->text().contains(full.left(12)));
    QVERIFY(!digest->text().contains(full));
    QVERIFY(digest->toolTip().contains(full));
    QVERIFY(!find<QLabel>("recipeMessage")->isVisible()); // the digest resolved now matches the stored one
    // sample-1 is the first version: nothing to compare with.
    QVERIFY(!digest->text().contains(QStringLiteral("since")));

    // Nothing matches: versions disappear too; clearing brings all back.
    filter->clear();
    QTest::keyClicks(filter, QStringLiteral("no-such-recipe"));
    QCOMPARE(proxy->rowCount(), 0);
    // Issue 30: the recipe on show is not left there as if it were still listed: the pane says the
    // filter hides it, and shows it again once the filter is cleared.
    auto* placeholder = find<QLabel>("placeholder");
    QVERIFY(placeholder->isVisible());
    QVERIFY2(placeholder->text().contains(
                 QStringLiteral("gb200-eks-ubuntu-training-kubeflow (sample-1) is hidden by the "
                                "filter “no-such-recipe”")),
             qPrintable(placeholder->text()));
    QVERIFY(!find<QWidget>("recipePage")->isVisible());
    filter->clear();
    QTRY_VERIFY(find<QWidget>("recipePage")->isVisible());
    QCOMPARE(m_window->recipeView()->recipe().catalogLabel, QStringLiteral("sample-1"));
    QCOMPARE(m_window->recipeView()->recipe().name, QStringLiteral("gb200-eks-ubuntu-training-kubeflow"));
    QCOMPARE(proxy->rowCount(), 2);
    QCOMPARE(proxy->rowCount(proxy->index(0, 0)) + proxy->rowCount(proxy->index(1, 0)), 31);
}

void TestMainWindow::keyboardFilterAndNavigation() {
    auto* filter = find<QLineEdit>("recipeFilter");
    auto* tree = find<QTreeView>("catalogTree");
    QVERIFY(tree->hasFocus());

    // Ctrl+F focuses the filter.
    QTest::keyClick(m_window.get(), Qt::Key_F, Qt::ControlModifier);
    QTRY_VERIFY(filter->hasFocus());
    QTest::keyClicks(filter, QStringLiteral("H100 EKS TRAINING"));
    QAbstractItemModel* proxy = tree->model();
    QCOMPARE(proxy->rowCount(proxy->index(0, 0)), 1);

    // Down moves to the first match, in the tree.
    QTest::keyClick(filter, Qt::Key_Down);
    QVERIFY(tree->hasFocus());
    QCOMPARE(tree->currentIndex().data(CatalogTreeModel::RecipeNameRole).toString(),
             QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
    QCOMPARE(tree->currentIndex().data(CatalogTreeModel::VersionLabelRole).toString(),
             QStringLiteral("sample-2"));
    QVERIFY(waitForRecipe(QStringLiteral("sample-2"), QStringLiteral("h100-eks-ubuntu-training-kubeflow")));

    // Arrow keys walk the (filtered) tree: the next version, then its match.
    QTest::keyClick(tree, Qt::Key_Down);
    QCOMPARE(tree->currentIndex().data(CatalogTreeModel::VersionLabelRole).toString(),
             QStringLiteral("sample-1"));
    QCOMPARE(tree->currentIndex().data(CatalogTreeModel::KindRole).value<CatalogTreeModel::Kind>(),
             CatalogTreeModel::Kind::Version);
    QTest::keyClick(tree, Qt::Key_Down);
    QCOMPARE(tree->currentIndex().data(CatalogTreeModel::RecipeNameRole).toString(),
             QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
    QVERIFY(waitForRecipe(QStringLiteral("sample-1"), QStringLiteral("h100-eks-ubuntu-training-kubeflow")));
    QCOMPARE(find<QTableView>("componentsTable")->model()->rowCount(),
             int(resolved(QStringLiteral("sample-1"), QStringLiteral("h100-eks-ubuntu-training-kubeflow"))
                     .componentRefs.size()));

    // Escape in the filter clears it; the selection stays.
    QTest::keyClick(m_window.get(), Qt::Key_F, Qt::ControlModifier);
    QTRY_VERIFY(filter->hasFocus());
    QTest::keyClick(filter, Qt::Key_Escape);
    QVERIFY(filter->text().isEmpty());
    QCOMPARE(proxy->rowCount(proxy->index(0, 0)), 16);
    QCOMPARE(tree->currentIndex().data(CatalogTreeModel::VersionLabelRole).toString(),
             QStringLiteral("sample-1"));
}

void TestMainWindow::recipeDetails() {
    QVERIFY(m_window->selectRecipe(QStringLiteral("sample-2"),
                                   QStringLiteral("h100-eks-ubuntu-inference-dynamo")));
    QVERIFY(waitForRecipe(QStringLiteral("sample-2"), QStringLiteral("h100-eks-ubuntu-inference-dynamo")));
    const catalog::RecipeResult recipe =
        resolved(QStringLiteral("sample-2"), QStringLiteral("h100-eks-ubuntu-inference-dynamo"));

    QCOMPARE(find<QLabel>("recipeTitle")->text(), QStringLiteral("h100-eks-ubuntu-inference-dynamo"));
    QVERIFY(find<QLabel>("criteria_accelerator")->text().contains(QLatin1String("h100")));
    QVERIFY(find<QLabel>("criteria_platform")->text().contains(QLatin1String("dynamo")));

    // Constraints: cluster requirements, and the benchmark inputs shown but not as thresholds.
    QAbstractItemModel* constraints = find<QTableView>("constraintsTable")->model();
    const int k8s =
        rowOf(constraints, models::ConstraintsModel::NameColumn, QStringLiteral("K8s.server.version"));
    QVERIFY(k8s >= 0);
    QCOMPARE(constraints->index(k8s, models::ConstraintsModel::ValueColumn).data().toString(),
             QStringLiteral(">= 1.34"));
    const int model =
        rowOf(constraints, models::ConstraintsModel::NameColumn, QStringLiteral("inference-model"));
    QVERIFY(model >= 0);
    QCOMPARE(constraints->index(model, models::ConstraintsModel::ValueColumn).data().toString(),
             QStringLiteral("Qwen/Qwen3-8B"));
    QVERIFY(!constraints->index(model, 0).data(models::ConstraintsModel::IsThresholdRole).toBool());
    QCOMPARE(constraints->index(model, models::ConstraintsModel::KindColumn).data().toString(),
             QStringLiteral("input"));

    // Validation: phases with their checks and thresholds.
    auto* validation = find<QTreeView>("validationTree");
    QAbstractItemModel* phases = validation->model();
    QCOMPARE(phases->rowCount(), 3);
    QCOMPARE(phases->index(0, 0).data(models::ValidationModel::NameRole).toString(),
             QStringLiteral("deployment"));
    QCOMPARE(phases->index(1, 0).data(models::ValidationModel::NameRole).toString(),
             QStringLiteral("performance"));
    QVERIFY(validation->isExpanded(phases->index(1, 0)));
    QVERIFY(validation->isFirstColumnSpanned(1, QModelIndex()));

    // Applied overlays: every overlay in order, then the mixins.
    QAbstractItemModel* overlays = find<QListView>("appliedOverlays")->model();
    for (int i = 0; i < recipe.appliedOverlays.size(); ++i)
        QCOMPARE(overlays->index(i, 0).data(models::AppliedOverlaysModel::OverlayNameRole).toString(),
                 recipe.appliedOverlays[i]);

    // Components fit the pane: no column pushed off screen.
    auto* components = find<QTableView>("componentsTable");
    QVERIFY(components->horizontalHeader()->length() <= components->viewport()->width() + 1);
}

void TestMainWindow::overlayYamlDialog() {
    QVERIFY(m_window->selectRecipe(QStringLiteral("sample-2"),
                                   QStringLiteral("h100-eks-ubuntu-training-kubeflow")));
    QVERIFY(waitForRecipe(QStringLiteral("sample-2"), QStringLiteral("h100-eks-ubuntu-training-kubeflow")));

    auto* list = find<QListView>("appliedOverlays");
    QAbstractItemModel* overlays = list->model();
    const int row = rowOf(overlays, 0, QStringLiteral("eks"));
    QVERIFY(row >= 0);
    QSignalSpy opened(m_window->recipeView(), &widgets::RecipeView::overlayOpened);
    list->setFocus();
    list->setCurrentIndex(overlays->index(row, 0));
    QTest::keyClick(list, Qt::Key_Return); // activation
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.at(0).at(0).toString(), QStringLiteral("eks"));

    auto* dialog = m_window->findChild<widgets::YamlDialog*>(QStringLiteral("yamlDialog"));
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    const catalog::Overlay* eks =
        m_window->cachedCatalog(QStringLiteral("sample-2"))->overlay(QStringLiteral("eks"));
    QVERIFY(eks);
    QCOMPARE(dialog->file(), QStringLiteral("overlays/eks.yaml"));
    QCOMPARE(dialog->text(), QString::fromUtf8(eks->raw)); // verbatim, comments included
    QVERIFY(dialog->text().contains(QLatin1String("# Amazon EKS")));
    auto* text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("yamlText"));
    QVERIFY(text && text->isReadOnly());
    QVERIFY(QFontInfo(text->font()).fixedPitch());

    // A mixin opens too (double-click).
    const int mixin = rowOf(overlays, 0, QStringLiteral("os-ubuntu (mixin)"));
    QVERIFY(mixin >= 0);
    const QRect rect = list->visualRect(overlays->index(mixin, 0));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center()); // a double-click's first press
    QTest::mouseDClick(list->viewport(), Qt::LeftButton, {}, rect.center());
    QTRY_COMPARE(opened.count(), 2);
    QCOMPARE(opened.at(1).at(0).toString(), QStringLiteral("os-ubuntu"));

    QPointer<widgets::YamlDialog> guard(dialog);
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("yamlCloseButton")), Qt::LeftButton);
    QTRY_VERIFY(guard.isNull()); // deleted on close
}

void TestMainWindow::importCatalogAction() {
    const QString dir = QStringLiteral(PB_SOURCE_DIR "/recipes/sample-1");
    const QStringList before = databaseSummary(*m_db->db);
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);

    // File > Import Catalog…: the directory dialog, then the label (its default: the folder name).
    QString suggested, dialogName;
    pbgui::ModalWatch labelWatch;
    pbgui::ModalWatch dirWatch = pbgui::whenModal<QFileDialog>([&](QFileDialog* d) {
        dialogName = d->objectName();
        labelWatch = pbgui::whenModal<QInputDialog>([&](QInputDialog* in) {
            suggested = in->textValue();
            in->setTextValue(QStringLiteral("sample-1-copy"));
            in->accept();
        });
        d->selectFile(dir);
        static_cast<QDialog*>(d)->accept(); // QFileDialog::accept() is protected
    });
    auto* action = m_window->findChild<QAction*>(QStringLiteral("actionImportCatalog"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_I));
    action->trigger();
    QCOMPARE(dialogName, QStringLiteral("importDirectoryDialog"));
    QCOMPARE(suggested, QStringLiteral("sample-1"));

    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
    QCOMPARE(finished.at(0).at(1).toString(), QStringLiteral("sample-1-copy"));
    QVERIFY(action->isEnabled());
    QVERIFY(!m_window->isImporting());

    // The tree shows the new version, first (newest), selected.
    auto* tree = find<QTreeView>("catalogTree");
    QTRY_COMPARE_WITH_TIMEOUT(tree->model()->rowCount(), 3, kTimeout);
    QCOMPARE(tree->model()->index(0, 0).data().toString(), QStringLiteral("sample-1-copy"));
    QCOMPARE(tree->model()->rowCount(tree->model()->index(0, 0)), 15);
    QCOMPARE(tree->currentIndex().data(CatalogTreeModel::VersionLabelRole).toString(),
             QStringLiteral("sample-1-copy"));
    QCOMPARE(find<QLabel>("statusCounts")->text(), QStringLiteral("3 catalog versions · 46 recipes"));

    // In the database, with the same content as the embedded sample-1.
    const QStringList after = databaseSummary(*m_db->db);
    QCOMPARE(after.size(), before.size() + 1);
    store::CatalogStore store(*m_db->db);
    QCOMPARE(store.version(QStringLiteral("sample-1-copy"))->contentDigest,
             store.version(QStringLiteral("sample-1"))->contentDigest);

    // And its recipes open like any other.
    QVERIFY(m_window->selectRecipe(QStringLiteral("sample-1-copy"),
                                   QStringLiteral("h100-eks-ubuntu-training-kubeflow")));
    QVERIFY(
        waitForRecipe(QStringLiteral("sample-1-copy"), QStringLiteral("h100-eks-ubuntu-training-kubeflow")));
    QAbstractItemModel* table = find<QTableView>("componentsTable")->model();
    QCOMPARE(table
                 ->index(rowOf(table, ComponentsModel::NameColumn, QStringLiteral("gpu-operator")),
                         ComponentsModel::VersionColumn)
                 .data()
                 .toString(),
             QStringLiteral("v26.3.3"));
}

void TestMainWindow::importErrorLeavesDatabaseUnchanged() {
    // A copy of sample-1 with one overlay broken.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString dir = tmp.filePath(QStringLiteral("broken"));
    QVERIFY(pbtest::copyTree(QStringLiteral(PB_SOURCE_DIR "/recipes/sample-1"), dir));
    QFile overlay(dir + QStringLiteral("/overlays/eks.yaml"));
    QVERIFY(overlay.open(QIODevice::ReadOnly));
    QByteArray bytes = overlay.readAll();
    overlay.close();
    const int line = int(bytes.left(bytes.indexOf("spec:")).count('\n')) + 1;
    bytes.replace("spec:", "spec: [unclosed\n  criteria:");
    QVERIFY(overlay.open(QIODevice::WriteOnly | QIODevice::Truncate));
    overlay.write(bytes);
    overlay.close();

    const QStringList before = databaseSummary(*m_db->db);
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    QString boxText;
    QString boxTitle;
    QMessageBox::Icon icon = QMessageBox::NoIcon;
    pbgui::ModalWatch watch = pbgui::whenModal<QMessageBox>([&](QMessageBox* box) {
        boxText = box->text();
        boxTitle = box->windowTitle();
        icon = box->icon();
        QTimer::singleShot(0, box, &QMessageBox::accept);
    });
    QVERIFY(m_window->startImport(dir, QStringLiteral("broken")));
    QVERIFY(m_window->isImporting());
    QVERIFY(!m_window->startImport(dir, QStringLiteral("again"))); // one at a time

    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
    QVERIFY(!finished.at(0).at(0).toBool());
    QCOMPARE(icon, QMessageBox::Critical);
    QCOMPARE(boxTitle, QStringLiteral("Import failed"));
    // The message names the file and the line (the reason comes from the YAML parser).
    const QString error = finished.at(0).at(2).toString();
    QVERIFY2(error.contains(QLatin1String("overlays/eks.yaml")), qPrintable(error));
    QVERIFY2(
        QRegularExpression(QStringLiteral("eks\\.yaml:(%1|%2|%3)\\b").arg(line).arg(line + 1).arg(line + 2))
            .match(error)
            .hasMatch(),
        qPrintable(error));
    QVERIFY(boxText.contains(error));
    QCOMPARE(m_window->lastImportError(), error);

    // Nothing changed: database, tree, status.
    QCOMPARE(databaseSummary(*m_db->db), before);
    QCOMPARE(find<QTreeView>("catalogTree")->model()->rowCount(), 2);
    QCOMPARE(find<QLabel>("statusCounts")->text(), QStringLiteral("2 catalog versions · 31 recipes"));
    QVERIFY(m_window->findChild<QAction*>(QStringLiteral("actionImportCatalog"))->isEnabled());
}

void TestMainWindow::importCancelLeavesDatabaseUnchanged() {
    const QStringList before = databaseSummary(*m_db->db);
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    bool boxShown = false;
    pbgui::ModalWatch watch = pbgui::whenModal<QMessageBox>(
        [&](QMessageBox* box) {
            boxShown = true;
            QTimer::singleShot(0, box, &QMessageBox::reject);
        },
        kTimeout);

    QVERIFY(m_window->startImport(QStringLiteral(PB_SOURCE_DIR "/recipes/sample-2"),
                                  QStringLiteral("to-cancel")));
    auto* progress = m_window->findChild<QProgressDialog*>(QStringLiteral("importProgress"));
    QVERIFY(progress);
    QCOMPARE(progress->windowModality(), Qt::WindowModal);
    auto* cancel = progress->findChild<QPushButton*>();
    QVERIFY(cancel);
    QCOMPARE(cancel->text(), QStringLiteral("Cancel"));
    cancel->click();

    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
    QVERIFY(!finished.at(0).at(0).toBool());
    QVERIFY2(finished.at(0).at(2).toString().contains(QLatin1String("cancelled")),
             qPrintable(finished.at(0).at(2).toString()));
    QVERIFY(!boxShown); // cancelling is not an error
    QCOMPARE(databaseSummary(*m_db->db), before);
    QCOMPARE(find<QTreeView>("catalogTree")->model()->rowCount(), 2);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
