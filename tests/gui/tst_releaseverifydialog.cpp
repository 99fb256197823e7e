// Issue #19 in the window: Verify an AICR Release… (widgets/verify/ReleaseVerifyDialog) driven on the
// real v0.19.0 release bundles and the real 2026-08-09 catalog through a models::Workspace (the same
// operation as `proofbench release verify`): the version prefilled from the folder name, one row per
// asset with status and reason, a wrong identity failing clearly, Cancel; then, in the real
// MainWindow, the binding "registry and validator catalog signed by AICR v0.19.0" in the catalog
// tree, the recipe header and the health header, and the welcome's button enabled.
#include "GuiTestUtil.h"
#include "TestUtil.h"

#include "BundleCompareView.h"
#include "BundleView.h"
#include "CatalogTreeModel.h"
#include "HealthPane.h"
#include "MainWindow.h"
#include "RecipeView.h"
#include "ReleaseVerifyDialog.h"
#include "WelcomePane.h"
#include "Workspace.h"
#include "db/Database.h"
#include "ops/ImportCatalog.h"
#include "store/CatalogStore.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

namespace {

constexpr int kTimeout = 60000;

QString trustedRoot() {
    return pbtest::sharedData(QStringLiteral("sigstore/trusted_root.production.json"));
}

// The release's files in a folder named after the version (so the dialog can prefill it).
QString releaseCopy(const QTemporaryDir& tmp, const QString& version) {
    const QString to = tmp.filePath(QStringLiteral("download/") + version);
    QDir().mkpath(to);
    const QString from = pbtest::sharedData(QStringLiteral("aicr/releases/") + version);
    for (const QString& f : QDir(from).entryList(QDir::Files))
        QFile::copy(from + QLatin1Char('/') + f, to + QLatin1Char('/') + f);
    return to;
}

} // namespace

class TstReleaseVerifyDialog : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QTemporaryDir m_settings;
    std::unique_ptr<pbgui::SeededDb> m_db;

  private slots:
    void initTestCase() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/releases/v0.19.0"));
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/2026-08-09/recipes"));
        QVERIFY(m_tmp.isValid());
        pbgui::isolateSettings(m_settings.path(), QStringLiteral("tst_releaseverifydialog"));
        m_db = pbgui::seededDatabase();
        QVERIFY2(m_db->error.isEmpty(), qPrintable(m_db->error));
        ops::ImportCatalogRequest imp;
        imp.label = QStringLiteral("2026-08-09");
        imp.dir = pbtest::realCatalog(QStringLiteral("2026-08-09"));
        auto r = ops::importCatalog(ops::Context(*m_db->db), imp);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
    }

    void wrongIdentityFailsClearly() {
        models::Workspace workspace(m_db->path());
        widgets::ReleaseVerifyDialog dialog(workspace);
        dialog.show();
        dialog.setFolder(releaseCopy(m_tmp, QStringLiteral("v0.19.0")));
        dialog.versionField()->setText(QStringLiteral("v0.20.0")); // not the release's tag
        dialog.setTrustedRoot(trustedRoot());
        QVERIFY(dialog.verifyButton()->isEnabled());
        QSignalSpy finished(&dialog, &widgets::ReleaseVerifyDialog::verificationFinished);
        QTest::mouseClick(dialog.verifyButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(dialog.statusOf(QStringLiteral("aicr")), QStringLiteral("failed"));
        QVERIFY2(dialog.reasonOf(QStringLiteral("aicr")).contains(QStringLiteral("identity")),
                 qPrintable(dialog.reasonOf(QStringLiteral("aicr"))));
        QVERIFY(dialog.summaryLabel()->text().contains(QStringLiteral("failed")));
        QVERIFY(dialog.verifyButton()->isEnabled());
        QVERIFY(!dialog.cancelButton()->isEnabled());
        // A version that is not vX.Y.Z cannot be started.
        dialog.versionField()->setText(QStringLiteral("latest"));
        QVERIFY(!dialog.verifyButton()->isEnabled());
        QVERIFY(!dialog.startVerify());
    }

    void cancelStopsWithoutRecord() {
        models::Workspace workspace(m_db->path());
        widgets::ReleaseVerifyDialog dialog(workspace);
        dialog.show();
        dialog.setFolder(releaseCopy(m_tmp, QStringLiteral("v0.19.0")));
        dialog.setTrustedRoot(trustedRoot());
        QSignalSpy finished(&dialog, &widgets::ReleaseVerifyDialog::verificationFinished);
        QVERIFY(dialog.startVerify());
        QVERIFY(dialog.isRunning());
        QVERIFY(dialog.cancelButton()->isEnabled());
        QVERIFY(!dialog.folderField()->isEnabled()); // inputs are locked while it runs
        QTest::mouseClick(dialog.cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
        QVERIFY(!dialog.isRunning());
        // Cancelled before the end (nothing recorded), or it had already finished: either way the
        // dialog is usable again and says which.
        QVERIFY2(dialog.summaryLabel()->text().contains(QStringLiteral("Cancelled")) ||
                     dialog.summaryLabel()->text().contains(QStringLiteral("verified")),
                 qPrintable(dialog.summaryLabel()->text()));
        QVERIFY(dialog.verifyButton()->isEnabled());
    }

    void windowVerifiesAndShowsTheBinding() {
        widgets::MainWindow window(m_db->workspace());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isReloadingCatalogs(), 30000); // the tree is read on a worker
        QAction* action = window.findChild<QAction*>(QStringLiteral("actionVerifyRelease"));
        QVERIFY(action);
        action->trigger();
        widgets::ReleaseVerifyDialog* dialog = window.releaseVerifyDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        // The imported real version is offered; the sample catalog is not.
        QVERIFY(dialog->catalogVersionBox()->findData(QStringLiteral("2026-08-09")) > 0);
        QCOMPARE(dialog->catalogVersionBox()->findData(QStringLiteral("sample-1")), -1);
        dialog->setFolder(releaseCopy(m_tmp, QStringLiteral("v0.19.0")));
        QCOMPARE(dialog->versionField()->text(), QStringLiteral("v0.19.0")); // from the folder's name
        dialog->setTrustedRoot(trustedRoot());
        dialog->setCatalogVersion(QStringLiteral("2026-08-09"));
        QSignalSpy finished(dialog, &widgets::ReleaseVerifyDialog::verificationFinished);
        QTest::mouseClick(dialog->verifyButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
        QVERIFY2(finished.at(0).at(0).toBool(),
                 qPrintable(dialog->summaryLabel()->text() + dialog->lastError()));
        QCOMPARE(dialog->statusOf(QStringLiteral("recipe-catalog")), QStringLiteral("verified"));
        QCOMPARE(dialog->statusOf(QStringLiteral("aicr")), QStringLiteral("digest only"));
        QCOMPARE(dialog->statusOf(QStringLiteral("aicr_0.19.0_linux_amd64.tar.gz")),
                 QStringLiteral("digest only"));
        QCOMPARE(dialog->assetModel()->columnCount(), 4);
        QVERIFY(dialog->summaryLabel()->text().contains(QStringLiteral("2026-08-09")));
        QVERIFY(dialog->scopeLabel()->text().contains(QStringLiteral("not the overlays")));

        // The catalog tree: the version's source hint and tooltip carry the binding.
        const models::CatalogTreeModel* tree = nullptr;
        for (auto* m : window.findChildren<models::CatalogTreeModel*>())
            tree = m;
        QVERIFY(tree);
        QTRY_VERIFY_WITH_TIMEOUT(tree->versionIndex(QStringLiteral("2026-08-09"))
                                     .data(models::CatalogTreeModel::ReleaseBindingRole)
                                     .toString()
                                     .contains(QStringLiteral("signed by AICR v0.19.0")),
                                 kTimeout);
        const QModelIndex v = tree->versionIndex(QStringLiteral("2026-08-09"));
        QVERIFY(v.data(models::CatalogTreeModel::SourceHintRole)
                    .toString()
                    .contains(QStringLiteral("signed by AICR v0.19.0")));
        QVERIFY(v.data(Qt::ToolTipRole).toString().contains(QStringLiteral("not the overlays")));
        QVERIFY(tree->versionIndex(QStringLiteral("sample-1"))
                    .data(models::CatalogTreeModel::ReleaseBindingRole)
                    .toString()
                    .isEmpty());

        // The recipe header.
        auto recipes = store::CatalogStore(*m_db->db).recipes(tree->versionAt(v)->id);
        QVERIFY(recipes && !recipes->empty());
        QVERIFY(window.selectRecipe(QStringLiteral("2026-08-09"), recipes->front().name));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.recipeView()->releaseBindingText().contains(QStringLiteral("signed by AICR v0.19.0")),
            kTimeout);
        QVERIFY(
            window.recipeView()->releaseBindingText().contains(QStringLiteral("overlays are not covered")));

        // The health header.
        widgets::HealthPane* health = window.healthPane();
        window.showHealth();
        QVERIFY(health->setVersion(QStringLiteral("2026-08-09")));
        QTRY_VERIFY_WITH_TIMEOUT(!health->isLoading(), kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(health->sourceText().contains(
                                     QStringLiteral("registry and validator catalog signed by AICR v0.19.0")),
                                 kTimeout);
        QVERIFY2(health->sourceText().contains(QStringLiteral("overlays are not covered")),
                 qPrintable(health->sourceText()));
        dialog->close();
    }

    void welcomeButtonOpensTheDialog() {
        std::unique_ptr<pbgui::SeededDb> db;
        std::unique_ptr<widgets::MainWindow> window;
        QSettings().clear();
        const QString error = pbgui::openWindow(db, window);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        widgets::WelcomePane* welcome = window->welcomePane();
        QVERIFY(window->isWelcomeShown());
        QVERIFY(welcome->verifyReleaseButton()->isEnabled());
        QTest::mouseClick(welcome->verifyReleaseButton(), Qt::LeftButton);
        QVERIFY(window->releaseVerifyDialog());
        QVERIFY(window->releaseVerifyDialog()->isVisible());
        pbgui::closeWindow(db, window);
    }

    void cleanupTestCase() { m_db.reset(); }
};

QTEST_MAIN(TstReleaseVerifyDialog)
#include "tst_releaseverifydialog.moc"
