// Nothing touches the database on the GUI thread: the real MainWindow on a temp SQLite database
// holding the sample catalog, with db::setGuiThreadObserver() installed before the window exists.
// Every view is visited (Ctrl+1 … Ctrl+6) and made to do its main reads; each test fails with the
// statements (and the view that was on screen) that ran on the GUI thread while it ran.
#include "BundleCompareView.h"
#include "BundleView.h"
#include "ComparePane.h"
#include "EvidenceInspector.h"
#include "GraphPane.h"
#include "GuiTestUtil.h"
#include "HealthModels.h"
#include "HealthPane.h"
#include "MainWindow.h"
#include "RecipeView.h"
#include "db/GuiThreadGuard.h"

#include <QLocale>
#include <QMutex>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace pb;
using widgets::MainWindow;

namespace {

constexpr int kTimeout = 30000;

QString golden(const QString& rel) {
    return QStringLiteral(PB_SHARED_DATA "/aicr/bundler-goldens/") + rel;
}

} // namespace

class TestGuiThreadDb : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void cleanupTestCase();
    void init();

    void windowOpensWithoutGuiThreadCalls();
    void catalogView();
    void healthView();
    void bundleViews();
    void otherViews_data();
    void otherViews();

  private:
    // The calls recorded since init(), one line each: "[phase] sql".
    QStringList calls();
    void showView(int key);
    QString report(const QStringList& calls) const;

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_settings;
    QMutex m_mutex;
    QStringList m_calls;
    QString m_phase = QStringLiteral("opening the window");
};

void TestGuiThreadDb::initTestCase() {
    QLocale::setDefault(QLocale::c());
    pbgui::isolateSettings(m_settings.path(), QStringLiteral("tst_guithreaddb"));
    m_db = pbgui::seededDatabase(); // the fixture itself writes on this thread, before the hook
    QVERIFY2(m_db->error.isEmpty(), qPrintable(m_db->error));
    db::setGuiThreadObserver([this](const QString& sql) {
        const QMutexLocker lock(&m_mutex);
        m_calls << QStringLiteral("[%1] %2").arg(m_phase, sql.simplified().left(160));
    });
    m_window = std::make_unique<MainWindow>(m_db->workspace());
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isReloadingCatalogs(), kTimeout);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->catalogModel()->versionCount() == 2, kTimeout);
}

void TestGuiThreadDb::cleanupTestCase() {
    m_window.reset();
    db::setGuiThreadObserver({});
    m_db.reset();
}

void TestGuiThreadDb::init() {
    // Every test function but the first starts from a clean record.
    if (QString::fromLatin1(QTest::currentTestFunction()) !=
        QLatin1String("windowOpensWithoutGuiThreadCalls")) {
        const QMutexLocker lock(&m_mutex);
        m_calls.clear();
    }
    m_phase = QString::fromLatin1(QTest::currentTestFunction());
}

QStringList TestGuiThreadDb::calls() {
    const QMutexLocker lock(&m_mutex);
    return m_calls;
}

QString TestGuiThreadDb::report(const QStringList& calls) const {
    return QStringLiteral("%1 database call(s) on the GUI thread:\n").arg(calls.size()) + calls.join(u'\n');
}

void TestGuiThreadDb::showView(int key) {
    // The shortcuts are the window's: it is active when they are typed (the bundle views are
    // windows of their own).
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::keyClick(m_window.get(), Qt::Key(key), Qt::ControlModifier);
}

void TestGuiThreadDb::windowOpensWithoutGuiThreadCalls() {
    const QStringList c = calls();
    QVERIFY2(c.isEmpty(), qPrintable(report(c)));
}

void TestGuiThreadDb::catalogView() {
    showView(Qt::Key_1);
    auto* tree = pbgui::findNamed<QTreeView>(m_window.get(), "catalogTree");
    QVERIFY(tree);
    // A version: its summary and recipes (its catalog loads in the background).
    QVERIFY(m_window->selectVersion(QStringLiteral("sample-1")));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->cachedCatalog(QStringLiteral("sample-1")) != nullptr, kTimeout);
    // A recipe: Details, Graph, Compare.
    const QString recipe = QStringLiteral("h100-gke-cos-training-kubeflow");
    QVERIFY(m_window->selectRecipe(QStringLiteral("sample-2"), recipe));
    widgets::RecipeView* details = m_window->recipeView();
    QTRY_VERIFY_WITH_TIMEOUT(details->hasResult() && details->recipe().name == recipe &&
                                 details->recipe().catalogLabel == QLatin1String("sample-2"),
                             kTimeout);
    m_window->recipeTabs()->setCurrentWidget(m_window->graphPane());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->graphPane()->isReady(), kTimeout);
    m_window->recipeTabs()->setCurrentWidget(m_window->comparePane());
    QTRY_VERIFY_WITH_TIMEOUT(
        m_window->comparePane()->isUpToDate() && m_window->comparePane()->recipeDiff() != nullptr, kTimeout);
    m_window->recipeTabs()->setCurrentWidget(details);
    // The tree's own reload (View › Reload also re-reads the Validation view's recipe picker,
    // which windowOpensWithoutGuiThreadCalls covers).
    bool reloaded = false;
    m_window->catalogModel()->reload(m_window->workspace(), [&reloaded](const Status&) { reloaded = true; });
    QTRY_VERIFY_WITH_TIMEOUT(reloaded, kTimeout);
    const QStringList c = calls();
    QVERIFY2(c.isEmpty(), qPrintable(report(c)));
}

void TestGuiThreadDb::healthView() {
    showView(Qt::Key_2);
    QVERIFY(m_window->isHealthShown());
    widgets::HealthPane* health = m_window->healthPane();
    health->reload();
    QTRY_VERIFY_WITH_TIMEOUT(!health->isLoading() && health->model()->rowCount() > 0, kTimeout);
    // A row and its inspector: its pointers and its bundles.
    health->table()->setCurrentIndex(health->table()->model()->index(0, 0));
    QTRY_VERIFY_WITH_TIMEOUT(!health->isLoadingRow() && health->inspector()->hasRow(), kTimeout);
    QTRY_VERIFY_WITH_TIMEOUT(!health->inspector()->isLoadingBundles(), kTimeout);
    const QStringList c = calls();
    QVERIFY2(c.isEmpty(), qPrintable(report(c)));
}

void TestGuiThreadDb::bundleViews() {
    m_window->openDeploymentBundle(golden(QStringLiteral("helm/mixed_gpu_operator")));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->bundleView() != nullptr, kTimeout);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->bundleView()->isBusy() && m_window->bundleView()->hasBundle(),
                             kTimeout);
    m_window->bundleView()->close();
    m_window->compareBundles();
    QTRY_VERIFY_WITH_TIMEOUT(m_window->bundleCompareView() != nullptr, kTimeout);
    QTest::qWait(300); // the list of imported bundles is read when the view opens
    m_window->bundleCompareView()->close();
    const QStringList c = calls();
    QVERIFY2(c.isEmpty(), qPrintable(report(c)));
}

// The views of the Verify, Sign, Validation and Receipts folders: shown, given time to read.
void TestGuiThreadDb::otherViews_data() {
    QTest::addColumn<int>("key");
    QTest::newRow("verify (Ctrl+3)") << int(Qt::Key_3);
    QTest::newRow("sign (Ctrl+4)") << int(Qt::Key_4);
    QTest::newRow("validation (Ctrl+5)") << int(Qt::Key_5);
    QTest::newRow("receipts (Ctrl+6)") << int(Qt::Key_6);
}

void TestGuiThreadDb::otherViews() {
    QFETCH(int, key);
    m_phase = QString::fromLatin1(QTest::currentDataTag());
    const QWidget* before =
        m_window->findChild<QStackedWidget*>(QStringLiteral("viewStack"))->currentWidget();
    showView(key);
    QTRY_VERIFY_WITH_TIMEOUT(
        m_window->findChild<QStackedWidget*>(QStringLiteral("viewStack"))->currentWidget() != before,
        kTimeout);
    QTest::qWait(500);
    m_window->workspace().waitForDone();
    QCoreApplication::processEvents();
    const QStringList c = calls();
    QVERIFY2(c.isEmpty(), qPrintable(report(c)));
}

QTEST_MAIN(TestGuiThreadDb)
#include "tst_guithreaddb.moc"
