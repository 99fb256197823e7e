// "Import from Git…" (widgets/catalog/GitImportDialog): against a bare repository built at test time
// from the real AICR catalogs, the dialog lists the tags and branches (name, kind, commit, date),
// the filter narrows them, two selected tags import through ops::Async as two versions with their
// Git source, and Cancel stops a run (nothing half-imported; the dialog does not close meanwhile).
#include "TestDb.h"
#include "TestUtil.h"
#include "engine/GitCatalogFixture.h"

#include "GitImportDialog.h"
#include "Workspace.h"
#include "db/Database.h"
#include "store/CatalogStore.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSqlQuery>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace pb;

namespace {

int versionCount(const QString& dbPath) {
    Result<std::unique_ptr<db::Database>> db = db::Database::open(dbPath);
    if (!db)
        return -1;
    QSqlQuery q((*db)->sql());
    q.exec(QStringLiteral("SELECT COUNT(*) FROM catalog_versions"));
    return q.next() ? q.value(0).toInt() : -1;
}

} // namespace

class TstGitImportDialog : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::unique_ptr<pbtest::GitCatalogRepo> m_repo;

    std::vector<std::unique_ptr<pb::test::TestDatabase>> m_dbs; // dropped with the test object

    // A fresh database of the run's engine (issue 31), migrated and empty.
    QString newDb(const QString& name) {
        const QString path =
            m_dbs.emplace_back(std::make_unique<pb::test::TestDatabase>(m_tmp.path(), name))->spec();
        if (!m_dbs.back()->ok())
            qFatal("%s", qPrintable(m_dbs.back()->error()));
        Result<std::unique_ptr<db::Database>> db = db::Database::open(path); // migrated, empty
        if (!db)
            qFatal("%s", qPrintable(db.error().toString()));
        return path;
    }

  private slots:
    void initTestCase() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/v0.11.1/recipes"));
        QVERIFY(m_tmp.isValid());
        m_repo = std::make_unique<pbtest::GitCatalogRepo>(
            m_tmp.filePath(QStringLiteral("repo")), pbtest::sharedData(QStringLiteral("aicr/catalogs")));
        QVERIFY2(m_repo->error().isEmpty(), qPrintable(m_repo->error()));
    }

    void listsFiltersAndImportsTwoTags() {
        const QString dbPath = newDb(QStringLiteral("dialog.db"));
        models::Workspace async(dbPath, nullptr, 1);
        widgets::GitImportDialog dialog(async);
        dialog.show();
        dialog.setRepository(m_repo->bare());
        QCOMPARE(dialog.repository(), m_repo->bare());
        QTRY_VERIFY(!dialog.isListing()); // the references are read on a worker
        QSortFilterProxyModel* proxy = dialog.refProxy();
        QCOMPARE(proxy->rowCount(), 8); // five tags, three branches
        QCOMPARE(proxy->columnCount(), 4);
        QCOMPARE(proxy->headerData(0, Qt::Horizontal).toString(), QStringLiteral("Name"));
        QCOMPARE(proxy->headerData(2, Qt::Horizontal).toString(), QStringLiteral("Commit"));
        int tags = 0;
        for (int row = 0; row < proxy->rowCount(); ++row) {
            const QString name = proxy->index(row, 0).data().toString();
            if (proxy->index(row, 1).data().toString() == QLatin1String("tag")) {
                ++tags;
                QCOMPARE(proxy->index(row, 2).data().toString(), m_repo->commitOf(name).left(12));
            }
        }
        QCOMPARE(tags, 5);
        QVERIFY(!dialog.importButton()->isEnabled()); // nothing selected yet

        // The filter narrows the list as you type.
        QTest::keyClicks(dialog.filterField(), QStringLiteral("v0."));
        QCOMPARE(proxy->rowCount(), 2);
        dialog.filterField()->clear();
        QCOMPARE(proxy->rowCount(), 8);

        dialog.selectRefs({QStringLiteral("v0.14.0"), QStringLiteral("2026-07-09")});
        QCOMPARE(dialog.selectedRefs().size(), 2);
        QVERIFY(dialog.importButton()->isEnabled());
        QSignalSpy imported(&dialog, &widgets::GitImportDialog::imported);
        QSignalSpy finished(&dialog, &widgets::GitImportDialog::importFinished);
        QTest::mouseClick(dialog.importButton(), Qt::LeftButton);
        QVERIFY(dialog.isRunning());
        QVERIFY(dialog.cancelButton()->isEnabled());
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QCOMPARE(imported.size(), 1);
        QCOMPARE(imported.at(0).at(0).toStringList(),
                 (QStringList{QStringLiteral("v0.14.0"), QStringLiteral("2026-07-09")}));
        QVERIFY2(dialog.resultText().contains(QStringLiteral("v0.14.0: imported (tag v0.14.0, commit ") +
                                              m_repo->commitOf(QStringLiteral("v0.14.0")).left(12)),
                 qPrintable(dialog.resultText()));
        QVERIFY(dialog.resultText().contains(QStringLiteral("2026-07-09: imported")));
        QVERIFY(!dialog.isRunning());

        Result<std::unique_ptr<db::Database>> db = db::Database::open(dbPath);
        QVERIFY(db);
        store::CatalogStore store(**db);
        Result<std::vector<store::CatalogVersionInfo>> versions = store.versions();
        QVERIFY(versions);
        QCOMPARE(versions->size(), size_t(2));
        QCOMPARE(versions->at(0).label, QStringLiteral("v0.14.0"));
        QCOMPARE(versions->at(1).label, QStringLiteral("2026-07-09"));
        for (const store::CatalogVersionInfo& v : *versions) {
            QCOMPARE(v.origin.kind, QStringLiteral("git"));
            QCOMPARE(v.origin.tag, v.label);
            QCOMPARE(v.origin.commit, m_repo->commitOf(v.label));
        }

        // Importing the same again: unchanged, nothing new.
        QTest::mouseClick(dialog.importButton(), Qt::LeftButton);
        QVERIFY(finished.wait(120000));
        QCOMPARE(imported.size(), 1);
        QVERIFY2(dialog.resultText().contains(QStringLiteral("v0.14.0: unchanged")),
                 qPrintable(dialog.resultText()));
    }

    void cancelStopsTheRun() {
        const QString dbPath = newDb(QStringLiteral("cancel.db"));
        models::Workspace async(dbPath, nullptr, 1);
        widgets::GitImportDialog dialog(async);
        dialog.show();
        dialog.setRepository(m_repo->work());
        QTRY_VERIFY(!dialog.isListing());
        QStringList tags;
        for (const pbtest::GitCatalogCommit& c : pbtest::gitCatalogCommits())
            tags << c.label;
        dialog.selectRefs(tags);
        QCOMPARE(dialog.selectedRefs().size(), 5);
        QSignalSpy finished(&dialog, &widgets::GitImportDialog::importFinished);
        QVERIFY(dialog.startImport());
        // Escape while running cancels instead of closing.
        QTest::keyClick(&dialog, Qt::Key_Escape);
        QVERIFY(dialog.isVisible());
        QVERIFY(!dialog.cancelButton()->isEnabled()); // already cancelling
        QVERIFY(finished.wait(120000));
        QVERIFY(!dialog.isRunning());
        QVERIFY2(dialog.resultText().contains(QStringLiteral("ancel")), qPrintable(dialog.resultText()));
        QVERIFY(versionCount(dbPath) < 5);
        // Closed once it has stopped.
        QTest::keyClick(&dialog, Qt::Key_Escape);
        QVERIFY(!dialog.isVisible());
    }

    void notARepository() {
        const QString dbPath = newDb(QStringLiteral("none.db"));
        models::Workspace async(dbPath, nullptr, 1);
        widgets::GitImportDialog dialog(async);
        dialog.setRepository(pbtest::realCatalog(QStringLiteral("v0.11.1")));
        QTRY_VERIFY(!dialog.isListing());
        QCOMPARE(dialog.refProxy()->rowCount(), 0);
        QVERIFY2(dialog.lastError().contains(QStringLiteral("not a Git repository")),
                 qPrintable(dialog.lastError()));
        QVERIFY(!dialog.importButton()->isEnabled());
        QVERIFY(!dialog.startImport());
    }
};

QTEST_MAIN(TstGitImportDialog)
#include "tst_gitimportdialog.moc"
