#include "CatalogFixture.h"
#include "DbTestUtil.h"
#include "TestDb.h"
#include "TestUtil.h"
#include "catalog/Loader.h"
#include "db/Database.h"
#include "ops/ImportCatalog.h"
#include "store/CatalogStore.h"

#include <QCryptographicHash>
#include <QProcess>
#include <QScopeGuard>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace pb;
using namespace pb::store;
using pb::ops::seedEmbeddedCatalog;

namespace {

int count(Database& db, const QString& table) {
    return int(pbtest::rowCount(db, table));
}

} // namespace

class TestStore : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    // Opens (and migrates) the test database `spec` names; a failure ends the test run.
    static std::unique_ptr<Database> openDb(const QString& spec) {
        auto db = Database::open(spec);
        if (!db)
            qFatal("%s", qPrintable(db.error().toString()));
        return std::move(*db);
    }

  private slots:
    void migratesFromEmpty() {
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("empty.sqlite"));
        auto db = openDb(testDb.spec());
        QCOMPARE(db->schemaVersion(), Database::latestSchemaVersion(db->engine()));
        QVERIFY(Database::latestSchemaVersion(db->engine()) >= 1);
        QSqlQuery q(db->sql());
        if (pbtest::isPostgres(*db)) {
            // The session Database promises: the store's schema first, times in UTC.
            QVERIFY(q.exec(QStringLiteral("SHOW search_path")) && q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("proofbench"));
            QVERIFY(q.exec(QStringLiteral("SHOW TimeZone")) && q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("UTC"));
        } else {
            QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")) && q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
            QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys")) && q.next());
            QCOMPARE(q.value(0).toInt(), 1);
        }
        for (const char* table : {"catalog_versions", "catalog_files", "overlays", "registry_components",
                                  "validator_checks", "recipes", "recipe_components"})
            QCOMPARE(count(*db, QString::fromLatin1(table)), 0);
        // Opening again does not re-run migrations.
        db.reset();
        auto again = openDb(testDb.spec());
        QCOMPARE(again->schemaVersion(), Database::latestSchemaVersion(again->engine()));
    }

    void refusesANewerSchema() {
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("future.sqlite"));
        {
            auto db = openDb(testDb.spec());
            QSqlQuery q(db->sql());
            QVERIFY(q.exec(pbtest::isPostgres(*db)
                               ? QStringLiteral("UPDATE proofbench.schema_version SET version = 999")
                               : QStringLiteral("PRAGMA user_version = 999")));
        }
        auto db = Database::open(testDb.spec());
        QVERIFY(!db.ok());
        QVERIFY(db.error().message.contains(QStringLiteral("newer")));
    }

    void refusesAFileThatIsNotADatabase() {
        if (pb::test::onPostgres())
            QSKIP("a server database has no file to fill with junk");
        QFile f(m_tmp.filePath(QStringLiteral("junk.sqlite")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
        f.close();
        auto db = Database::open(f.fileName());
        QVERIFY(!db.ok());
        QCOMPARE(db.error().file, f.fileName());
    }

    void importsEmbeddedDefaultsOnce() {
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("embedded.sqlite"));
        auto db = openDb(testDb.spec());
        Result<QStringList> labels = seedEmbeddedCatalog(*db);
        QVERIFY2(labels.ok(), qPrintable(labels.ok() ? QString() : labels.error().toString()));
        QCOMPARE(*labels, QStringList({"sample-1", "sample-2"}));
        CatalogStore store(*db);
        auto versions = store.versions();
        QVERIFY(versions.ok());
        QCOMPARE(versions->size(), size_t(2));
        QCOMPARE(versions->at(1).label, QStringLiteral("sample-2"));
        QVERIFY(versions->at(1).embedded);
        QCOMPARE(versions->at(1).recipeCount, 16);
        auto recipes = store.recipes(versions->at(1).id);
        QVERIFY(recipes.ok());
        QCOMPARE(recipes->size(), size_t(16));
        for (const RecipeInfo& r : *recipes) {
            QCOMPARE(r.digest.size(), 64);
            QVERIFY(r.componentCount > 0);
        }
        // A second start does not import again.
        Result<QStringList> again = seedEmbeddedCatalog(*db);
        QVERIFY(again.ok());
        QVERIFY(again->isEmpty());
        // The stored files rebuild the same catalog.
        Result<catalog::Catalog> rebuilt = store.loadCatalog(QStringLiteral("sample-2"));
        QVERIFY(rebuilt.ok());
        QCOMPARE(rebuilt->contentDigest(), versions->at(1).contentDigest);
        // Components are stored in deployment order and join to recipes.
        QSqlQuery q(db->sql());
        QVERIFY(q.exec(QStringLiteral(
            "SELECT rc.version FROM recipe_components rc JOIN recipes r ON r.id = rc.recipe_id "
            "JOIN catalog_versions v ON v.id = r.catalog_version_id WHERE v.label = 'sample-2' "
            "AND r.name = 'h100-eks-ubuntu-training-kubeflow' AND rc.name = 'gpu-operator'")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("v26.7.1"));
    }

    void digestsComparedWithThePreviousVersion() {
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("changes.sqlite"));
        auto db = openDb(testDb.spec());
        QVERIFY(seedEmbeddedCatalog(*db).ok());
        CatalogStore store(*db);
        auto byName = [&](const QString& label) {
            QMap<QString, RecipeInfo> out;
            const Result<std::vector<RecipeInfo>> recipes = store.recipes(store.version(label)->id);
            for (const RecipeInfo& r : *recipes)
                out.insert(r.name, r);
            return out;
        };
        const auto first = byName(QStringLiteral("sample-1"));
        for (const RecipeInfo& r : first) {
            QCOMPARE(r.change(), RecipeInfo::Change::FirstVersion);
            QVERIFY(r.changeText().isEmpty());
        }
        const auto second = byName(QStringLiteral("sample-2"));
        const RecipeInfo& kubeflow = second.value(QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
        QCOMPARE(kubeflow.previousLabel, QStringLiteral("sample-1"));
        QCOMPARE(kubeflow.previousDigest,
                 first.value(QStringLiteral("h100-eks-ubuntu-training-kubeflow")).digest);
        QCOMPARE(kubeflow.change(), RecipeInfo::Change::Changed); // gpu-operator v26.3.3 -> v26.7.1
        QCOMPARE(kubeflow.changeText(), QStringLiteral("changed since sample-1"));
        const RecipeInfo& added = second.value(QStringLiteral("gb300-eks-ubuntu-inference-dynamo"));
        QCOMPARE(added.change(), RecipeInfo::Change::New);
        QCOMPARE(added.changeText(), QStringLiteral("new in sample-2"));
        // The same content again under another label: every recipe keeps its digest.
        Result<catalog::Catalog> again =
            catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
        QVERIFY(again.ok());
        // Issue 30: sample data is never a baseline of a real version, and a real version placed by
        // its label alone (its place in version order unknown) has none and is nobody's.
        QVERIFY(store.importCatalog(QStringLiteral("sample-2-rebuilt"), *again).ok());
        QVERIFY(store.importCatalog(QStringLiteral("2026-07-09"), *again).ok());
        QVERIFY(store.importCatalog(QStringLiteral("2026-08-01"), *again).ok());
        const auto third = byName(QStringLiteral("sample-2-rebuilt"));
        QCOMPARE(third.size(), second.size());
        for (const RecipeInfo& r : third) {
            QVERIFY2(r.previousLabel.isEmpty(), qPrintable(r.previousLabel));
            QCOMPARE(r.change(), RecipeInfo::Change::FirstVersion);
        }
        for (const RecipeInfo& r : byName(QStringLiteral("2026-07-09")))
            QVERIFY2(r.previousLabel.isEmpty(),
                     qPrintable(r.previousLabel)); // not sample-2, not the unplaced one
        for (const RecipeInfo& r : byName(QStringLiteral("2026-08-01"))) {
            QCOMPARE(r.previousLabel, QStringLiteral("2026-07-09"));
            QCOMPARE(r.change(), RecipeInfo::Change::Unchanged);
        }
        QVERIFY(!store.previousVersion(QStringLiteral("2026-07-09")).ok());
        QVERIFY2(store.previousVersion(QStringLiteral("2026-07-09"))
                     .error()
                     .message.contains(QStringLiteral("sample data is never a baseline")),
                 qPrintable(store.previousVersion(QStringLiteral("2026-07-09")).error().toString()));
        QVERIFY(store.previousVersion(QStringLiteral("sample-2-rebuilt"))
                    .error()
                    .message.contains(QStringLiteral("place in version order is unknown")));
        QCOMPARE(store.previousVersion(QStringLiteral("2026-08-01"))->label, QStringLiteral("2026-07-09"));
        QCOMPARE(store.previousVersion(QStringLiteral("sample-2"))->label, QStringLiteral("sample-1"));
    }

    void reimportIsIdempotent() {
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("idem.sqlite"));
        auto db = openDb(testDb.spec());
        CatalogStore store(*db);
        Result<catalog::Catalog> cat =
            catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-1")));
        QVERIFY(cat.ok());
        Result<ImportReport> first = store.importCatalog(QStringLiteral("sample-1"), *cat);
        QVERIFY(first.ok());
        QCOMPARE(first->outcome, ImportReport::Outcome::Imported);
        const QByteArray before = pbtest::dumpDigest(*db);
        Result<ImportReport> second = store.importCatalog(QStringLiteral("sample-1"), *cat);
        QVERIFY(second.ok());
        QCOMPARE(second->outcome, ImportReport::Outcome::Unchanged);
        QCOMPARE(second->versionId, first->versionId);
        QCOMPARE(pbtest::dumpDigest(*db), before);
        // Same label, different content: refused unless replace is asked for.
        Result<catalog::Catalog> other =
            catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
        QVERIFY(other.ok());
        Result<ImportReport> clash = store.importCatalog(QStringLiteral("sample-1"), *other);
        QVERIFY(!clash.ok());
        QVERIFY(clash.error().message.contains(QStringLiteral("already exists")));
        QCOMPARE(pbtest::dumpDigest(*db), before);
        ImportOptions replace;
        replace.replace = true;
        Result<ImportReport> replaced = store.importCatalog(QStringLiteral("sample-1"), *other, replace);
        QVERIFY(replaced.ok());
        QCOMPARE(replaced->outcome, ImportReport::Outcome::Replaced);
        QCOMPARE(store.versions()->size(), size_t(1));
        QCOMPARE(store.versions()->front().recipeCount, 16);
    }

    // The first start seeds every embedded version in one transaction: a disk that fills up while
    // the second version is written leaves no version and no receipt behind, and the next start
    // seeds them all. SQLite's max_page_count makes the file "full" exactly as a full disk does
    // (SQLITE_FULL), without needing a small filesystem.
    void seedingIsAllOrNothingOnAFullDisk() {
        if (pb::test::onPostgres())
            QSKIP("a server has no per-database size limit to fill (SQLite's max_page_count makes the file "
                  "full); serverDiskFullSaysSoAndKeepsNothing fills a server's disk");
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("full.sqlite"));
        auto db = openDb(testDb.spec());
        int oneVersionPages = 0;
        {
            // How many pages one embedded version takes, measured on a scratch copy.
            PB_TEST_DATABASE(probeDb, m_tmp.path(), QStringLiteral("probe.sqlite"));
            auto probe = openDb(probeDb.spec());
            QSqlQuery q(probe->sql());
            QVERIFY(q.exec(QStringLiteral("PRAGMA page_count")) && q.next());
            const int empty = q.value(0).toInt();
            Result<catalog::Catalog> cat =
                catalog::loadCatalog(QStringLiteral(":/recipes/") + embeddedCatalogLabels().constFirst());
            QVERIFY(cat.ok());
            QVERIFY(CatalogStore(*probe).importCatalog(QStringLiteral("probe"), *cat).ok());
            QVERIFY(q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")));
            QVERIFY(q.exec(QStringLiteral("PRAGMA page_count")) && q.next());
            oneVersionPages = q.value(0).toInt() - empty;
            QVERIFY(oneVersionPages > 10);
        }
        QSqlQuery q(db->sql());
        QVERIFY(q.exec(QStringLiteral("PRAGMA page_count")) && q.next());
        const int limit =
            q.value(0).toInt() + oneVersionPages + oneVersionPages / 2; // room for one version, not two
        QVERIFY(q.exec(QStringLiteral("PRAGMA max_page_count = %1").arg(limit)));
        Result<QStringList> seeded = seedEmbeddedCatalog(*db);
        QVERIFY2(!seeded.ok(), "seeding should have run out of room");
        QVERIFY2(seeded.error().message.contains(QStringLiteral("full"), Qt::CaseInsensitive),
                 qPrintable(seeded.error().toString()));
        QVERIFY2(seeded.error().message.contains(QStringLiteral("nothing was kept")),
                 qPrintable(seeded.error().toString()));
        QCOMPARE(count(*db, QStringLiteral("catalog_versions")), 0);
        QCOMPARE(count(*db, QStringLiteral("recipes")), 0);
        QCOMPARE(count(*db, QStringLiteral("receipts")), 0);
        // With room again, the next start seeds every version.
        QVERIFY(q.exec(QStringLiteral("PRAGMA max_page_count = 1073741823")));
        Result<QStringList> again = seedEmbeddedCatalog(*db);
        QVERIFY2(again.ok(), qPrintable(again.ok() ? QString() : again.error().toString()));
        QCOMPARE(*again, embeddedCatalogLabels());
        QCOMPARE(count(*db, QStringLiteral("catalog_versions")), int(embeddedCatalogLabels().size()));
        QCOMPARE(count(*db, QStringLiteral("receipts")), int(embeddedCatalogLabels().size()));
    }

    // A server whose disk fills during an import: the table the catalog's files go to is moved to a
    // tablespace on a 256 KiB tmpfs, so the COPY of the files runs out of room exactly as on a full
    // disk (SQLSTATE 53100). The error says the server's disk is full, names the database and server,
    // says nothing was written; nothing was. Needs root (mount) and the test server's superuser.
    void serverDiskFullSaysSoAndKeepsNothing() {
        if (!pb::test::onPostgres())
            QSKIP("a server's full disk (SQLite's is seedingIsAllOrNothingOnAFullDisk)");
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/2026-08-19/recipes"));
        if (::geteuid() != 0)
            QSKIP("mounting a small tmpfs for a tablespace needs root");
        const QDir serverDir(pb::test::pgServerDir());
        auto readFile = [&](const QString& name) {
            QFile f(serverDir.filePath(name));
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
        };
        const QString superuser = readFile(QStringLiteral("superuser"));
        const QFileInfo dataDir(readFile(QStringLiteral("datadir")));
        QVERIFY2(!superuser.isEmpty() && dataDir.exists(),
                 "the test server records its superuser and datadir");
        QTemporaryDir mountPoint;
        QVERIFY(mountPoint.isValid());
        QProcess mount;
        mount.start(QStringLiteral("mount"),
                    {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                     QStringLiteral("size=256k,mode=0700,uid=%1,gid=%2")
                         .arg(dataDir.ownerId())
                         .arg(dataDir.groupId()),
                     QStringLiteral("tmpfs"), mountPoint.path()});
        if (!mount.waitForFinished(10000) || mount.exitCode() != 0)
            QSKIP(qPrintable(QStringLiteral("cannot mount a tmpfs here: %1")
                                 .arg(QString::fromLocal8Bit(mount.readAllStandardError()).trimmed())));
        const QString adminUri = pb::test::pgServerUri().replace(QStringLiteral("://pbtest@"),
                                                                 QStringLiteral("://%1@").arg(superuser));
        const QString space = QStringLiteral("pb_full_%1").arg(QCoreApplication::applicationPid());
        auto psql = [&](const QString& sql) {
            QProcess p;
            p.start(QStringLiteral("psql"),
                    {QStringLiteral("-X"), QStringLiteral("-q"), QStringLiteral("-v"),
                     QStringLiteral("ON_ERROR_STOP=1"), adminUri, QStringLiteral("-c"), sql});
            p.waitForFinished(30000);
            return p.exitCode() == 0 ? QString() : QString::fromLocal8Bit(p.readAllStandardError());
        };
        const auto cleanup = qScopeGuard([&] { // after the test database is dropped
            psql(QStringLiteral("DROP TABLESPACE IF EXISTS %1").arg(space));
            QProcess::execute(QStringLiteral("umount"), {mountPoint.path()});
        });
        QString failed =
            psql(QStringLiteral("CREATE TABLESPACE %1 LOCATION '%2'").arg(space, mountPoint.path()));
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        failed = psql(QStringLiteral("GRANT CREATE ON TABLESPACE %1 TO pbtest").arg(space));
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        {
            PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("full"));
            auto db = openDb(testDb.spec());
            QSqlQuery q(db->sql());
            QVERIFY2(q.exec(QStringLiteral("ALTER TABLE catalog_files SET TABLESPACE %1").arg(space)),
                     qPrintable(q.lastError().text()));
            const int receipts = count(*db, QStringLiteral("receipts"));
            Result<catalog::Catalog> cat =
                catalog::loadCatalog(pbtest::sharedData(QStringLiteral("aicr/catalogs/2026-08-19/recipes")));
            QVERIFY(cat.ok());
            Result<ImportReport> r = CatalogStore(*db).importCatalog(QStringLiteral("2026-08-19"), *cat);
            QVERIFY2(!r.ok(), "the import should have run out of room");
            const QString message = r.error().message;
            QVERIFY2(message.contains(QStringLiteral("No space left on device")), qPrintable(message));
            QVERIFY2(message.contains(QStringLiteral("the server's disk is full; nothing was written")),
                     qPrintable(message));
            QVERIFY2(message.contains(testDb.pgName()) && message.contains(QStringLiteral("127.0.0.1:")),
                     qPrintable(message));
            QCOMPARE(count(*db, QStringLiteral("catalog_versions")), 0);
            QCOMPARE(count(*db, QStringLiteral("catalog_files")), 0);
            QCOMPARE(count(*db, QStringLiteral("receipts")), receipts);
            // With the table back on the server's own disk, the same import succeeds.
            QVERIFY2(q.exec(QStringLiteral("ALTER TABLE catalog_files SET TABLESPACE pg_default")),
                     qPrintable(q.lastError().text()));
            Result<ImportReport> again = CatalogStore(*db).importCatalog(QStringLiteral("2026-08-19"), *cat);
            QVERIFY2(again.ok(), qPrintable(again.ok() ? QString() : again.error().toString()));
            QCOMPARE(again->recipes, 45);
        }
    }

    // The same when the second version's write fails for another reason (a trigger refuses it: a
    // TEMP trigger on SQLite, a PL/pgSQL one on PostgreSQL).
    void seedingRollsBackOnAnyWriteFailure() {
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("refuse-second.sqlite"));
        auto db = openDb(testDb.spec());
        const QString refused =
            pbtest::refuseInserts(*db, QStringLiteral("refuse_second"), QStringLiteral("catalog_versions"),
                                  QStringLiteral("injected write failure"),
                                  QStringLiteral("(SELECT count(*) FROM catalog_versions) >= 1"));
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
        Result<QStringList> seeded = seedEmbeddedCatalog(*db);
        QVERIFY(!seeded.ok());
        QVERIFY2(seeded.error().toString().contains(QStringLiteral("injected write failure")),
                 qPrintable(seeded.error().toString()));
        QCOMPARE(count(*db, QStringLiteral("catalog_versions")), 0);
        QCOMPARE(count(*db, QStringLiteral("receipts")), 0);
    }

    void refusedImportLeavesDatabaseUnchanged() {
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("refused.sqlite"));
        auto db = openDb(testDb.spec());
        QVERIFY(seedEmbeddedCatalog(*db).ok());
        const QByteArray before = pbtest::dumpDigest(*db);
        // Loads fine but one leaf does not resolve: a dependency nobody declares.
        pbtest::CatalogFixture f;
        f.overlay(
            QStringLiteral("eks"),
            "spec:\n  criteria: {service: eks}\n  componentRefs: [{name: nfd, dependencyRefs: [ghost]}]\n");
        f.overlay(QStringLiteral("gke"), "spec:\n  criteria: {service: gke}\n");
        Result<catalog::Catalog> cat = catalog::loadCatalog(f.write());
        QVERIFY(cat.ok());
        CatalogStore store(*db);
        Result<ImportReport> r = store.importCatalog(QStringLiteral("broken"), *cat);
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QStringLiteral("'eks'")));
        QVERIFY(r.error().message.contains(QStringLiteral("ghost")));
        QCOMPARE(pbtest::dumpDigest(*db), before);
        QVERIFY(!store.version(QStringLiteral("broken")).ok());
    }

    void cancelledImportLeavesDatabaseUnchanged() {
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("cancel.sqlite"));
        auto db = openDb(testDb.spec());
        const QByteArray before = pbtest::dumpDigest(*db);
        Result<catalog::Catalog> cat =
            catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
        QVERIFY(cat.ok());
        std::atomic_bool cancel{false};
        ImportOptions opt;
        opt.cancel = &cancel;
        opt.progress = [&](int step, int, ImportStage) {
            if (step >= 3)
                cancel = true;
        };
        Result<ImportReport> r = CatalogStore(*db).importCatalog(QStringLiteral("sample-2"), *cat, opt);
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QStringLiteral("cancelled")));
        QCOMPARE(pbtest::dumpDigest(*db), before);
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
