// Issue 32, live views: the real MainWindow shows what other clients commit to its database without
// a restart, keeping the user's place: a CLI `catalog import` in another process, and a second client
// (another Workspace, as a colleague's window) in this one. On SQLite (PRAGMA data_version) and on
// PostgreSQL (LISTEN/NOTIFY). The window's own writes are not taken in twice.
#include "CatalogTreeModel.h"
#include "GuiTestUtil.h"
#include "HealthPane.h"
#include "MainWindow.h"
#include "ReceiptModels.h"
#include "ReceiptsPane.h"
#include "TestUtil.h"
#include "ops/ImportCatalog.h"

#include <QProcess>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace pb;
using widgets::HealthPane;
using widgets::MainWindow;

namespace {

constexpr int kTimeout = 30000;

QStringList versionLabels(MainWindow* window) {
    auto* tree = pbgui::findNamed<QTreeView>(window, "catalogTree");
    QStringList out;
    for (int row = 0; row < tree->model()->rowCount(); ++row)
        out << tree->model()->index(row, 0).data(models::CatalogTreeModel::VersionLabelRole).toString();
    return out;
}

} // namespace

class TestLiveViews : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QVERIFY(m_settings.isValid());
        pbgui::isolateSettings(m_settings.path(), QStringLiteral("tst_liveviews"));
    }
    void init() {
        const QString error = pbgui::openWindow(m_db, m_window);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    void cleanup() { pbgui::closeWindow(m_db, m_window); }

    void othersCommitsShowUpInPlace() {
        MainWindow* w = m_window.get();
        const QString sample = pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
        QCOMPARE(versionLabels(w).size(), 2);
        // The user's place: a recipe of sample-1 in the tree, sample-1's Health table with a row chosen.
        auto* tree = pbgui::findNamed<QTreeView>(w, "catalogTree");
        const QModelIndex firstVersion = tree->model()->index(0, 0);
        const QString version = firstVersion.data(models::CatalogTreeModel::VersionLabelRole).toString();
        const QString recipe = tree->model()
                                   ->index(0, 0, firstVersion)
                                   .data(models::CatalogTreeModel::RecipeNameRole)
                                   .toString();
        QVERIFY(!recipe.isEmpty());

        // The window's own import is taken in once (its own refresh), not again as another's.
        QSignalSpy imported(w, &MainWindow::importFinished);
        QVERIFY(w->startImport(sample, QStringLiteral("own-1")));
        QTRY_COMPARE_WITH_TIMEOUT(imported.size(), 1, kTimeout);
        QVERIFY(imported.at(0).at(0).toBool());
        QTRY_VERIFY_WITH_TIMEOUT(versionLabels(w).contains(QStringLiteral("own-1")), kTimeout);
        QTest::qWait(1500); // three SQLite polls; a notification arrives at once
        QCOMPARE(w->changesSeen(), 0);
        QVERIFY(w->selectRecipe(version, recipe)); // (an import of one's own selects the new version)

        // Another process: the CLI imports a version.
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        pb::test::addPgEnvironment(env);
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(PB_CLI_BINARY),
                  {QStringLiteral("catalog"), QStringLiteral("import"), sample, QStringLiteral("--version"),
                   QStringLiteral("cli-1"), QStringLiteral("--db"), m_db->path()});
        QVERIFY(cli.waitForFinished(kTimeout));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QTRY_VERIFY_WITH_TIMEOUT(w->changesSeen() >= 1, kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(versionLabels(w).contains(QStringLiteral("cli-1")), kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isReloadingCatalogs(), kTimeout);
        QVERIFY2(w->statusBar()->currentMessage().contains(QLatin1String("catalog.import")),
                 qPrintable(w->statusBar()->currentMessage()));
        // The selection stayed where the user left it.
        const QModelIndex current = tree->currentIndex();
        QCOMPARE(current.data(models::CatalogTreeModel::RecipeNameRole).toString(), recipe);
        QCOMPARE(current.parent().data(models::CatalogTreeModel::VersionLabelRole).toString(), version);

        // The Health view, on an older version with a row chosen, keeps both through another client's
        // write (a colleague's window: a second Workspace of this process).
        w->showHealth();
        HealthPane* health = w->healthPane();
        QTRY_VERIFY_WITH_TIMEOUT(!health->isLoading(), kTimeout);
        QVERIFY(health->setVersion(QStringLiteral("own-1")));
        QTRY_VERIFY_WITH_TIMEOUT(!health->isLoading() && health->model()->rowCount() > 0, kTimeout);
        const QString healthRecipe = health->model()->index(0, 0).data(Qt::DisplayRole).toString();
        QVERIFY(health->selectRecipe(healthRecipe));
        const int seen = w->changesSeen();
        {
            models::Workspace colleague(m_db->path());
            QVERIFY(colleague.async().origin() != 0);
            ops::ImportCatalogRequest request;
            request.label = QStringLiteral("colleague-1");
            request.dir = sample;
            auto job = colleague.async().run<ops::ImportCatalogOutcome>(
                [request](const ops::Context& ctx) { return ops::importCatalog(ctx, request); });
            job.future.waitForFinished();
            QVERIFY(job.future.result().ok());
        }
        QTRY_VERIFY_WITH_TIMEOUT(w->changesSeen() > seen, kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(versionLabels(w).contains(QStringLiteral("colleague-1")), kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(!health->isLoading(), kTimeout);
        QCOMPARE(health->version(), QStringLiteral("own-1"));
        QCOMPARE(health->selectedRecipes(), QStringList{healthRecipe});

        // The receipts view shows the colleague's receipt once it is on screen.
        w->showReceipts();
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                auto* ledger = w->receiptsPane()->ledgerModel();
                for (int row = 0; row < ledger->rowCount(); ++row)
                    for (int col = 0; col < ledger->columnCount(); ++col)
                        if (ledger->index(row, col).data().toString().contains(QLatin1String("colleague-1")))
                            return true;
                return false;
            }(),
            kTimeout);
    }

  private:
    QTemporaryDir m_settings;
    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestLiveViews)
#include "tst_liveviews.moc"
