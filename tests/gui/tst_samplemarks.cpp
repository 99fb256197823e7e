// Issue #18, the window's side of "honest sample, real sources": the real MainWindow on a temp
// database. The sample catalog reads "sample data" in the tree, the details, the window title and
// the status bar; versions say where they came from and how they are ordered; a first-start welcome
// offers the real sources until a real catalog is imported or it is dismissed; File > Import from
// Git… opens the Git import dialog; every view shows an empty state while it has nothing to show.
// Real catalogs (../shared/data/aicr/catalogs) are imported out of order and listed in version order.
#include "CatalogTreeModel.h"
#include "ComparePane.h"
#include "EmptyState.h"
#include "EvidenceFixture.h"
#include "GitImportDialog.h"
#include "GuiTestUtil.h"
#include "HealthModels.h"
#include "HealthPane.h"
#include "MainWindow.h"
#include "ReceiptsPane.h"
#include "RecipeView.h"
#include "SignPane.h"
#include "TeamConnection.h"
#include "WelcomePane.h"
#include "ops/Keygen.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace pb;
using models::CatalogTreeModel;
using widgets::EmptyState;
using widgets::MainWindow;
using widgets::WelcomePane;

namespace {

constexpr int kTimeout = 60000;

QString realCatalog(const QString& label) {
    return QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/%1/recipes").arg(label);
}

} // namespace

class TestSampleMarks : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void init();
    void cleanup();

    void sampleMarkedInTree();
    void sampleMarkedInDetails();
    void welcomeOnFreshDatabase();
    void welcomeGoneAfterRealImport();
    void sampleIsNeverABaselineOrDefault();
    void welcomeDismissed();
    void importFromGitAction();
    void catalogEmptyState();
    void healthEmptyState();
    void otherViewsEmptyStates();
    void realCatalogsInVersionOrder();
    void wildcardLeavesNamed();

  private:
    template <typename T> T* find(const char* name) { return pbgui::findNamed<T>(m_window.get(), name); }
    // The title names the database after the version: its file's name, or the server database's.
    QString dbTitle() const { return models::titleName(m_window->workspace().path()); }
    bool import(const QString& dir, const QString& label);
    void checkLeafNames(const QAbstractItemModel* tree);

    QTemporaryDir m_settings;
    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<MainWindow> m_window;
};

void TestSampleMarks::initTestCase() {
    QLocale::setDefault(QLocale::c());
    // The welcome's "don't show again" lives in QSettings: keep the tests' own, away from the user's.
    QVERIFY(m_settings.isValid());
    pbgui::isolateSettings(m_settings.path(), QStringLiteral("tst_samplemarks"));
}

void TestSampleMarks::init() {
    QSettings().clear();
    const QString error = pbgui::openWindow(m_db, m_window);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestSampleMarks::cleanup() {
    pbgui::closeWindow(m_db, m_window);
}

bool TestSampleMarks::import(const QString& dir, const QString& label) {
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    if (!m_window->startImport(dir, label))
        return false;
    if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, kTimeout))
        return false;
    if (!finished.at(0).at(0).toBool())
        qWarning("%s", qPrintable(finished.at(0).at(2).toString()));
    return finished.at(0).at(0).toBool();
}

void TestSampleMarks::sampleMarkedInTree() {
    auto* tree = find<QTreeView>("catalogTree");
    QVERIFY(tree);
    QCOMPARE(tree->textElideMode(), Qt::ElideMiddle); // names that differ at the end stay apart
    QAbstractItemModel* model = tree->model();
    QCOMPARE(model->rowCount(), 2);
    for (int row = 0; row < 2; ++row) {
        const QModelIndex v = model->index(row, 0);
        const QString label = v.data(CatalogTreeModel::VersionLabelRole).toString();
        QVERIFY(label.startsWith(QLatin1String("sample-")));
        QVERIFY(v.data(CatalogTreeModel::SampleRole).toBool());
        // The row's visible mark (drawn beside the label), its tooltip and its accessible text.
        QCOMPARE(v.data(CatalogTreeModel::SourceHintRole).toString(), QStringLiteral("sample data"));
        QVERIFY(v.data(Qt::FontRole).value<QFont>().italic());
        QCOMPARE(v.data(Qt::AccessibleTextRole).toString(), label + QStringLiteral(", sample data"));
        const QString tip = v.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QLatin1String("sample data")) &&
                     tip.contains(QLatin1String("not an AICR release")),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1String("Version order: sample")), qPrintable(tip));
        QVERIFY(!tip.contains(QLatin1String("embedded default")));
        // Its recipes say which version they belong to and where it came from.
        const QString recipeTip = model->index(0, 0, v).data(Qt::ToolTipRole).toString();
        QVERIFY2(recipeTip.contains(QStringLiteral("Catalog version %1: sample data").arg(label)),
                 qPrintable(recipeTip));
        QVERIFY(model->index(0, 0, v).data(CatalogTreeModel::SampleRole).toBool());
    }
    // The mark is painted: the row drawn with the delegate differs from the label drawn alone.
    const QModelIndex first = model->index(0, 0);
    const QRect rect = tree->visualRect(first);
    QVERIFY(rect.isValid());
    const QImage shot = tree->viewport()->grab(rect).toImage();
    if (!qEnvironmentVariableIsEmpty("PB_SAVE_GRAB"))
        shot.save(qEnvironmentVariable("PB_SAVE_GRAB"));
    // Somewhere right of the label there is the badge's amber.
    bool amber = false;
    for (int x = 0; x < shot.width() && !amber; ++x)
        for (int y = 0; y < shot.height() && !amber; ++y) {
            const QColor c = shot.pixelColor(x, y);
            amber = c.red() > 200 && c.green() > 150 &&
                    c.red() - c.blue() > 50; // neither the blue selection nor white text
        }
    QVERIFY2(amber, "no sample badge painted on the version row");
}

void TestSampleMarks::sampleMarkedInDetails() {
    // The window starts on sample-2: details, title and status say it is sample data.
    auto* summary = find<QLabel>("versionSummary");
    QTRY_VERIFY(summary->isVisible());
    QVERIFY2(summary->text().contains(QLatin1String("sample data")), qPrintable(summary->text()));
    QVERIFY(summary->text().contains(QLatin1String("not an AICR release")));
    QVERIFY(summary->text().contains(QLatin1String("Version order")));
    QVERIFY(!summary->text().contains(QLatin1String("embedded default")));
    QCOMPARE(m_window->windowTitle(),
             QStringLiteral("sample-2 (sample data) — %1 — Proofbench").arg(dbTitle()));
    auto* mark = find<QLabel>("statusSample");
    QVERIFY(mark && mark->isVisible());
    QVERIFY(mark->text().contains(QLatin1String("Sample data")));

    // A recipe: the line over its tabs names the version as sample data.
    QVERIFY(m_window->selectRecipe(QStringLiteral("sample-1"),
                                   QStringLiteral("h100-eks-ubuntu-training-kubeflow")));
    QLabel* source = m_window->recipeSourceLabel();
    QTRY_VERIFY(source->isVisible());
    QVERIFY2(source->text().contains(QStringLiteral("sample-1 — sample data")), qPrintable(source->text()));
    QVERIFY(source->text().contains(QLatin1String("not an AICR release")));
    QCOMPARE(m_window->windowTitle(),
             QStringLiteral("sample-1 (sample data) — %1 — Proofbench").arg(dbTitle()));

    // Nothing in the window says "embedded default" any more.
    for (QLabel* l : m_window->findChildren<QLabel*>())
        QVERIFY2(!l->text().contains(QLatin1String("embedded default"), Qt::CaseInsensitive),
                 qPrintable(l->objectName()));
}

void TestSampleMarks::welcomeOnFreshDatabase() {
    WelcomePane* welcome = m_window->welcomePane();
    QVERIFY(welcome);
    QVERIFY(m_window->isWelcomeShown());
    QVERIFY(welcome->isVisible());
    QVERIFY2(welcome->text().contains(QLatin1String("sample data")), qPrintable(welcome->text()));
    QVERIFY(welcome->text().contains(QLatin1String("not an AICR release")));
    QVERIFY(welcome->text().contains(QLatin1String("sample-1 and sample-2")));
    QVERIFY(welcome->importFolderButton()->isEnabled());
    QVERIFY(welcome->importGitButton()->isEnabled());
    // Release verification (issue 19) is offered from the welcome too.
    QVERIFY(welcome->verifyReleaseButton()->isEnabled());
    QVERIFY(welcome->verifyReleaseButton()->toolTip().contains(QLatin1String("AICR release")));

    // "Import a catalog folder…" is File > Import Catalog…: its directory dialog opens.
    QString dialogName;
    pbgui::ModalWatch watch = pbgui::whenModal<QFileDialog>([&](QFileDialog* d) {
        dialogName = d->objectName();
        d->reject();
    });
    QTest::mouseClick(welcome->importFolderButton(), Qt::LeftButton);
    QCOMPARE(dialogName, QStringLiteral("importDirectoryDialog"));
    QVERIFY(m_window->isWelcomeShown()); // nothing imported: still there
}

void TestSampleMarks::welcomeGoneAfterRealImport() {
    // A real (non-sample) catalog: a folder import of a copy of the sample's files is no longer sample data.
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("catalog/recipes"));
    QVERIFY(pbtest::copyTree(QStringLiteral(PB_SOURCE_DIR "/recipes/sample-2"), dir));
    QVERIFY(import(dir, QStringLiteral("my-catalog")));
    QVERIFY(!m_window->isWelcomeShown());

    // The new version is first (newest: samples come before every real version), marked by its source.
    auto* tree = find<QTreeView>("catalogTree");
    const QModelIndex first = tree->model()->index(0, 0);
    QCOMPARE(first.data().toString(), QStringLiteral("my-catalog"));
    QVERIFY(!first.data(CatalogTreeModel::SampleRole).toBool());
    QCOMPARE(first.data(CatalogTreeModel::SourceHintRole).toString(),
             QStringLiteral("folder catalog/recipes"));
    QVERIFY(first.data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("Source: folder %1").arg(QDir(dir).absolutePath())));
    QVERIFY(!first.data(Qt::FontRole).value<QFont>().italic());
    QCOMPARE(m_window->windowTitle(), QStringLiteral("my-catalog — %1 — Proofbench").arg(dbTitle()));
    QVERIFY(!find<QLabel>("statusSample")->isVisible());
    auto* summary = find<QLabel>("versionSummary");
    QVERIFY(!summary->text().contains(QLatin1String("sample data")));
    QVERIFY(summary->text().contains(QLatin1String("Version order")));

    // A new window on the same database: no welcome.
    m_window.reset();
    m_window = std::make_unique<MainWindow>(m_db->workspace());
    (void)QTest::qWaitFor([&] { return !m_window->isReloadingCatalogs(); },
                          30000); // the tree is read on a worker
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(!m_window->isWelcomeShown());
}

// Issue 30: sample data is never a real version's baseline or a default. A real catalog (a copy of the
// sample's files, dated by its label) is not "changed since sample-2" in Details, Compare does not open
// on sample-2 → it, and the Validation view's version box starts on it and marks the samples.
void TestSampleMarks::sampleIsNeverABaselineOrDefault() {
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("catalog/recipes"));
    QVERIFY(pbtest::copyTree(QStringLiteral(PB_SOURCE_DIR "/recipes/sample-2"), dir));
    QVERIFY(import(dir, QStringLiteral("2026-07-09")));
    const QString recipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
    QVERIFY(m_window->selectRecipe(QStringLiteral("2026-07-09"), recipe));
    widgets::RecipeView* view = m_window->recipeView();
    QTRY_VERIFY_WITH_TIMEOUT(view->hasResult() && view->recipe().catalogLabel == QLatin1String("2026-07-09"),
                             30000);
    QVERIFY2(view->recipe().previousLabel.isEmpty(), qPrintable(view->recipe().previousLabel));
    const QString details = find<QLabel>("recipeDigest")->text();
    QVERIFY2(!details.contains(QStringLiteral("since")) && !details.contains(QStringLiteral("new in")),
             qPrintable(details));

    m_window->recipeTabs()->setCurrentWidget(m_window->comparePane());
    auto* from = find<QComboBox>("compareFrom");
    auto* to = find<QComboBox>("compareTo");
    QTRY_VERIFY_WITH_TIMEOUT(from->count() == 3, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(from->currentData().toString(), QStringLiteral("2026-07-09"), 30000);
    QVERIFY(to->currentData().toString() != QLatin1String("sample-2"));
    QVERIFY(
        from->itemText(from->findData(QStringLiteral("sample-2"))).contains(QStringLiteral("sample data")));

    m_window->showValidation();
    auto* versions = find<QComboBox>("catalogVersionCombo");
    QTRY_VERIFY_WITH_TIMEOUT(versions->count() == 3, 30000);
    QCOMPARE(versions->currentData().toString(), QStringLiteral("2026-07-09"));
    QCOMPARE(versions->itemText(versions->findData(QStringLiteral("sample-2"))),
             QStringLiteral("sample-2 (sample data)"));
    QCOMPARE(versions->itemText(versions->findData(QStringLiteral("2026-07-09"))),
             QStringLiteral("2026-07-09"));
}

void TestSampleMarks::welcomeDismissed() {
    WelcomePane* welcome = m_window->welcomePane();
    QVERIFY(m_window->isWelcomeShown());
    QTest::mouseClick(welcome->dismissButton(), Qt::LeftButton);
    QVERIFY(!m_window->isWelcomeShown());
    m_window->reloadCatalogs(); // stays dismissed for the session
    QVERIFY(!m_window->isWelcomeShown());

    // Dismiss alone is for this session: the next start shows it again.
    m_window.reset();
    m_window = std::make_unique<MainWindow>(m_db->workspace());
    (void)QTest::qWaitFor([&] { return !m_window->isReloadingCatalogs(); },
                          30000); // the tree is read on a worker
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_window->isWelcomeShown());

    // "Don't show this again" is kept in the settings.
    QTest::mouseClick(m_window->welcomePane()->dontShowAgain(), Qt::LeftButton);
    QVERIFY(m_window->welcomePane()->dontShowAgain()->isChecked());
    QVERIFY(QSettings().value(QLatin1String(WelcomePane::kDismissedKey)).toBool());
    QTest::mouseClick(m_window->welcomePane()->dismissButton(), Qt::LeftButton);
    m_window.reset();
    m_window = std::make_unique<MainWindow>(m_db->workspace());
    (void)QTest::qWaitFor([&] { return !m_window->isReloadingCatalogs(); },
                          30000); // the tree is read on a worker
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(!m_window->isWelcomeShown());
}

void TestSampleMarks::importFromGitAction() {
    auto* action = find<QAction>("actionImportGit");
    QVERIFY(action);
    QCOMPARE(action->text(), QStringLiteral("Import from &Git…"));
    QVERIFY(find<QMenu>("fileMenu")->actions().contains(action));
    QVERIFY(!m_window->gitImportDialog());
    action->trigger();
    widgets::GitImportDialog* dialog = m_window->gitImportDialog();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QVERIFY(!dialog->isModal()); // the window stays usable
    action->trigger();           // one at a time
    QCOMPARE(m_window->gitImportDialog(), dialog);
    QPointer<widgets::GitImportDialog> guard(dialog);
    dialog->close();
    QTRY_VERIFY(guard.isNull());
    QVERIFY(!m_window->gitImportDialog());

    // The welcome's button opens the same dialog.
    QTest::mouseClick(m_window->welcomePane()->importGitButton(), Qt::LeftButton);
    QVERIFY(m_window->gitImportDialog());
    m_window->gitImportDialog()->close();
}

void TestSampleMarks::catalogEmptyState() {
    EmptyState* empty = m_window->emptyState(QStringLiteral("catalog"));
    QVERIFY(empty);
    QCOMPARE(empty->objectName(), QStringLiteral("catalogEmptyState"));
    QVERIFY(!empty->isVisible());
    auto* filter = find<QLineEdit>("recipeFilter");
    filter->setFocus();
    QTest::keyClicks(filter, QStringLiteral("no-such-recipe"));
    QVERIFY(empty->isVisible());
    QCOMPARE(empty->title(), QStringLiteral("No recipe matches “no-such-recipe”"));
    QVERIFY(empty->button("catalogEmptyClearFilter")->isVisible());
    QVERIFY(!empty->button("catalogEmptyImport")->isVisible());
    QTest::mouseClick(empty->button("catalogEmptyClearFilter"), Qt::LeftButton);
    QVERIFY(filter->text().isEmpty());
    QVERIFY(!empty->isVisible());

    // A tree with no version at all offers the imports.
    m_window->catalogModel()->setEntries({});
    QVERIFY(empty->isVisible());
    QCOMPARE(empty->title(), QStringLiteral("No catalog versions yet"));
    QVERIFY(empty->button("catalogEmptyImport")->isVisible());
    QVERIFY(empty->button("catalogEmptyImportGit")->isVisible());
    QVERIFY(!empty->button("catalogEmptyClearFilter")->isVisible());
    m_window->reloadCatalogs();
    QTRY_VERIFY(!empty->isVisible()); // the tree is read on a worker
}

void TestSampleMarks::healthEmptyState() {
    m_window->showHealth();
    widgets::HealthPane* pane = m_window->healthPane();
    QTRY_VERIFY_WITH_TIMEOUT(!pane->isLoading() && pane->model()->rowCount() == 16, kTimeout);
    EmptyState* empty = m_window->emptyState(QStringLiteral("health"));
    QVERIFY(empty);
    QTRY_VERIFY(empty->isVisible());
    QCOMPARE(empty->title(), QStringLiteral("No evidence imported yet"));
    QVERIFY(empty->text().contains(QLatin1String("sample-2")));
    QPushButton* importButton = empty->button("healthEmptyImportEvidence");
    QVERIFY(importButton && importButton->isVisible() && importButton->isEnabled());
    QCOMPARE(importButton->text(), QStringLiteral("Import &Evidence…"));

    // The button is File > Import Evidence…: its directory dialog opens.
    QString dialogName;
    pbgui::ModalWatch watch = pbgui::whenModal<QFileDialog>([&](QFileDialog* d) {
        dialogName = d->objectName();
        d->reject();
    });
    QTest::mouseClick(importButton, Qt::LeftButton);
    QCOMPARE(dialogName, QStringLiteral("importEvidenceDialog"));

    // Evidence imported: the table shows, the empty state goes.
    QTemporaryDir tmp;
    const QString evidence = tmp.filePath(QStringLiteral("fork/recipes/evidence"));
    QVERIFY(pbgui::EvidenceFixture::writeTree(evidence));
    QSignalSpy finished(m_window.get(), &MainWindow::evidenceImportFinished);
    QVERIFY(m_window->startEvidenceImport(tmp.filePath(QStringLiteral("fork"))));
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kTimeout);
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
    QTRY_VERIFY_WITH_TIMEOUT(!pane->isLoading() && pane->model()->rowCount() == 17, kTimeout);
    QTRY_VERIFY(!empty->isVisible());
}

void TestSampleMarks::otherViewsEmptyStates() {
    // Verify: nothing verified yet.
    m_window->showVerify();
    EmptyState* verify = m_window->emptyState(QStringLiteral("verify"));
    QVERIFY(verify && verify->isVisible());
    QCOMPARE(verify->title(), QStringLiteral("No bundle verified yet"));

    // Validation: no run yet.
    m_window->showValidation();
    EmptyState* validation = m_window->emptyState(QStringLiteral("validation"));
    QVERIFY(validation && validation->isVisible());
    QCOMPARE(validation->title(), QStringLiteral("No validation runs yet"));

    // Sign: no key yet; a key made (through the same operation as the New Key dialog) removes it.
    m_window->showSign();
    EmptyState* sign = m_window->emptyState(QStringLiteral("sign"));
    QVERIFY(sign && sign->isVisible());
    QCOMPARE(sign->title(), QStringLiteral("No signing keys yet"));
    QVERIFY(sign->button("signEmptyNewKey") && sign->button("signEmptyImportKey"));
    QTemporaryDir keys;
    ops::KeygenRequest request;
    request.outPath = keys.filePath(QStringLiteral("test.key"));
    request.passphrase = sigstore::Passphrase(QByteArrayLiteral("correct horse"));
    const Result<ops::KeygenOutcome> made = ops::keygen(ops::Context(*m_db->db), request);
    QVERIFY2(made.ok(), made.ok() ? "" : qPrintable(made.error().toString()));
    m_window->signPane()->reloadKeys();
    QTRY_VERIFY(!sign->isVisible());

    // Receipts: the sample's import left receipts; a filter that hides all of them says so.
    m_window->showReceipts();
    EmptyState* receipts = m_window->emptyState(QStringLiteral("receipts"));
    QVERIFY(receipts);
    QTRY_VERIFY(m_window->receiptsPane()->ledgerView()->model()->rowCount() > 0);
    QVERIFY(!receipts->isVisible());
    m_window->receiptsPane()->setTextFilter(QStringLiteral("no-such-receipt-anywhere"));
    QTRY_VERIFY(receipts->isVisible());
    QCOMPARE(receipts->title(), QStringLiteral("No receipt matches the filters"));
    m_window->receiptsPane()->setTextFilter(QString());
    QTRY_VERIFY(!receipts->isVisible());
}

void TestSampleMarks::realCatalogsInVersionOrder() {
    const QStringList labels{QStringLiteral("v0.14.0"), QStringLiteral("2026-08-19"),
                             QStringLiteral("v0.11.1"), QStringLiteral("2026-07-09")};
    for (const QString& label : labels)
        if (!QFileInfo::exists(realCatalog(label)))
            QSKIP(
                qPrintable(QStringLiteral("no real catalog at %1 (../shared/data)").arg(realCatalog(label))));
    // Imported out of order; listed newest first in version order, the sample last.
    for (const QString& label : labels)
        QVERIFY2(import(realCatalog(label), label), qPrintable(label));
    QVERIFY(!m_window->isWelcomeShown());
    QAbstractItemModel* tree = find<QTreeView>("catalogTree")->model();
    QStringList order;
    for (int r = 0; r < tree->rowCount(); ++r)
        order << tree->index(r, 0).data(CatalogTreeModel::VersionLabelRole).toString();
    QCOMPARE(order, (QStringList{QStringLiteral("2026-08-19"), QStringLiteral("2026-07-09"),
                                 QStringLiteral("v0.14.0"), QStringLiteral("v0.11.1"),
                                 QStringLiteral("sample-2"), QStringLiteral("sample-1")}));
    // Each names its source and how it is ordered.
    const QModelIndex semver = tree->index(2, 0);
    QCOMPARE(semver.data(CatalogTreeModel::SourceHintRole).toString(),
             QStringLiteral("folder v0.14.0/recipes"));
    QVERIFY(
        semver.data(Qt::ToolTipRole).toString().contains(QLatin1String("Version order: semantic version")));
    QVERIFY(tree->index(0, 0)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("Version order: date in label")));
    QVERIFY(m_window->selectVersion(QStringLiteral("v0.14.0")));
    QVERIFY(find<QLabel>("versionSummary")
                ->text()
                .contains(QDir::toNativeSeparators(realCatalog(QStringLiteral("v0.14.0")))));
    checkLeafNames(tree);
    // Long names are not elided into look-alikes: the column is as wide as the longest one.
    auto* view = find<QTreeView>("catalogTree");
    for (int v = 0; v < tree->rowCount(); ++v)
        for (int r = 0; r < tree->rowCount(tree->index(v, 0)); ++r) {
            const QModelIndex recipe = tree->index(r, 0, tree->index(v, 0));
            if (view->isExpanded(tree->index(v, 0)))
                QVERIFY2(view->sizeHintForIndex(recipe).width() <= view->visualRect(recipe).width(),
                         qPrintable(recipe.data().toString()));
        }
}

void TestSampleMarks::wildcardLeavesNamed() {
    checkLeafNames(find<QTreeView>("catalogTree")->model());
    // The sample's monitoring-hpa leaf has no criteria: its recipe is "recipe", shown with the leaf.
    const QModelIndex hpa =
        m_window->catalogModel()->recipeIndex(QStringLiteral("sample-2"), QStringLiteral("recipe"));
    QVERIFY(hpa.isValid());
    QCOMPARE(hpa.data(CatalogTreeModel::RecipeNameRole).toString(), QStringLiteral("recipe"));
    QCOMPARE(hpa.data().toString(), QStringLiteral("recipe (monitoring-hpa)"));
    QVERIFY(hpa.data(Qt::ToolTipRole).toString().contains(QLatin1String("Leaf overlay: monitoring-hpa")));
    // Opened, the line over its tabs names it with its leaf too.
    QVERIFY(m_window->selectRecipe(QStringLiteral("sample-2"), QStringLiteral("recipe")));
    QTRY_VERIFY(m_window->recipeSourceLabel()->isVisible());
    QVERIFY2(m_window->recipeSourceLabel()->text().contains(QLatin1String("recipe (monitoring-hpa) in")),
             qPrintable(m_window->recipeSourceLabel()->text()));
}

// No recipe row is shown as bare "recipe", and no two rows of a version read alike.
void TestSampleMarks::checkLeafNames(const QAbstractItemModel* tree) {
    for (int v = 0; v < tree->rowCount(); ++v) {
        const QModelIndex version = tree->index(v, 0);
        QSet<QString> seen;
        for (int r = 0; r < tree->rowCount(version); ++r) {
            const QModelIndex recipe = tree->index(r, 0, version);
            const QString shown = recipe.data().toString();
            QVERIFY2(shown != QLatin1String("recipe"), qPrintable(version.data().toString()));
            QVERIFY2(
                !seen.contains(shown),
                qPrintable(QStringLiteral("%1: two rows read %2").arg(version.data().toString(), shown)));
            seen.insert(shown);
            QVERIFY(recipe.data(Qt::ToolTipRole)
                        .toString()
                        .startsWith(recipe.data(CatalogTreeModel::RecipeNameRole).toString()));
        }
    }
}

QTEST_MAIN(TestSampleMarks)
#include "tst_samplemarks.moc"
