#include "CatalogFixture.h"
#include "TestUtil.h"
#include "catalog/Loader.h"
#include "db/Database.h"
#include "ops/ImportCatalog.h"
#include "store/CatalogStore.h"

#include <QCryptographicHash>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using namespace pb::store;
using pb::ops::seedEmbeddedCatalog;

namespace {

// A digest of every row of every table: "unchanged" means this is equal.
QByteArray dumpDigest(Database& db) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    QSqlQuery tables(db.sql());
    tables.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"));
    while (tables.next()) {
        const QString t = tables.value(0).toString();
        h.addData(t.toUtf8());
        QSqlQuery rows(db.sql());
        rows.exec(QStringLiteral("SELECT * FROM \"%1\" ORDER BY 1").arg(t)); // table names from sqlite_master
        while (rows.next())
            for (int i = 0; i < 32 && rows.value(i).isValid(); ++i)
                h.addData(rows.value(i).toByteArray() + '\x1f');
    }
    return h.result().toHex();
}

int count(Database& db, const QString& table) {
    QSqlQuery q(db.sql());
    q.exec(QStringLiteral("SELECT count(*) FROM \"%1\"").arg(table));
    return q.next() ? q.value(0).toInt() : -1;
}

} // namespace

class TestStore : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    std::unique_ptr<Database> freshDb(const QString& name) {
        auto db = Database::open(m_tmp.filePath(name));
        if (!db)
            qFatal("%s", qPrintable(db.error().toString()));
        return std::move(*db);
    }

  private slots:
    void migratesFromEmpty() {
        auto db = freshDb(QStringLiteral("empty.sqlite"));
        QCOMPARE(db->schemaVersion(), Database::latestSchemaVersion());
        QVERIFY(Database::latestSchemaVersion() >= 1);
        QSqlQuery q(db->sql());
        QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")) && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
        QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys")) && q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        for (const char* table : {"catalog_versions", "catalog_files", "overlays", "registry_components",
                                  "validator_checks", "recipes", "recipe_components"})
            QCOMPARE(count(*db, QString::fromLatin1(table)), 0);
        // Opening again does not re-run migrations.
        db.reset();
        auto again = freshDb(QStringLiteral("empty.sqlite"));
        QCOMPARE(again->schemaVersion(), Database::latestSchemaVersion());
    }

    void refusesANewerSchema() {
        {
            auto db = freshDb(QStringLiteral("future.sqlite"));
            QSqlQuery q(db->sql());
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 999")));
        }
        auto db = Database::open(m_tmp.filePath(QStringLiteral("future.sqlite")));
        QVERIFY(!db.ok());
        QVERIFY(db.error().message.contains(QStringLiteral("newer")));
    }

    void refusesAFileThatIsNotADatabase() {
        QFile f(m_tmp.filePath(QStringLiteral("junk.sqlite")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
        f.close();
        auto db = Database::open(f.fileName());
        QVERIFY(!db.ok());
        QCOMPARE(db.error().file, f.fileName());
    }

    void importsEmbeddedDefaultsOnce() {
        auto db = freshDb(QStringLiteral("embedded.sqlite"));
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
        auto db = freshDb(QStringLiteral("changes.sqlite"));
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
        QVERIFY(store.importCatalog(QStringLiteral("sample-2-rebuilt"), *again).ok());
        const auto third = byName(QStringLiteral("sample-2-rebuilt"));
        QCOMPARE(third.size(), second.size());
        for (const RecipeInfo& r : third) {
            QCOMPARE(r.previousLabel, QStringLiteral("sample-2"));
            QCOMPARE(r.change(), RecipeInfo::Change::Unchanged);
        }
    }

    void reimportIsIdempotent() {
        auto db = freshDb(QStringLiteral("idem.sqlite"));
        CatalogStore store(*db);
        Result<catalog::Catalog> cat =
            catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-1")));
        QVERIFY(cat.ok());
        Result<ImportReport> first = store.importCatalog(QStringLiteral("sample-1"), *cat);
        QVERIFY(first.ok());
        QCOMPARE(first->outcome, ImportReport::Outcome::Imported);
        const QByteArray before = dumpDigest(*db);
        Result<ImportReport> second = store.importCatalog(QStringLiteral("sample-1"), *cat);
        QVERIFY(second.ok());
        QCOMPARE(second->outcome, ImportReport::Outcome::Unchanged);
        QCOMPARE(second->versionId, first->versionId);
        QCOMPARE(dumpDigest(*db), before);
        // Same label, different content: refused unless replace is asked for.
        Result<catalog::Catalog> other =
            catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
        QVERIFY(other.ok());
        Result<ImportReport> clash = store.importCatalog(QStringLiteral("sample-1"), *other);
        QVERIFY(!clash.ok());
        QVERIFY(clash.error().message.contains(QStringLiteral("already exists")));
        QCOMPARE(dumpDigest(*db), before);
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
        auto db = freshDb(QStringLiteral("full.sqlite"));
        int oneVersionPages = 0;
        {
            // How many pages one embedded version takes, measured on a scratch copy.
            auto probe = freshDb(QStringLiteral("probe.sqlite"));
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

    // The same when the second version's write fails for another reason (a trigger refuses it).
    void seedingRollsBackOnAnyWriteFailure() {
        auto db = freshDb(QStringLiteral("refuse-second.sqlite"));
        QSqlQuery q(db->sql());
        QVERIFY(q.exec(QStringLiteral("CREATE TEMP TRIGGER refuse_second BEFORE INSERT ON catalog_versions "
                                      "WHEN (SELECT count(*) FROM catalog_versions) >= 1 BEGIN SELECT "
                                      "RAISE(ABORT, 'injected write failure'); END")));
        Result<QStringList> seeded = seedEmbeddedCatalog(*db);
        QVERIFY(!seeded.ok());
        QVERIFY2(seeded.error().toString().contains(QStringLiteral("injected write failure")),
                 qPrintable(seeded.error().toString()));
        QCOMPARE(count(*db, QStringLiteral("catalog_versions")), 0);
        QCOMPARE(count(*db, QStringLiteral("receipts")), 0);
    }

    void refusedImportLeavesDatabaseUnchanged() {
        auto db = freshDb(QStringLiteral("refused.sqlite"));
        QVERIFY(seedEmbeddedCatalog(*db).ok());
        const QByteArray before = dumpDigest(*db);
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
        QCOMPARE(dumpDigest(*db), before);
        QVERIFY(!store.version(QStringLiteral("broken")).ok());
    }

    void cancelledImportLeavesDatabaseUnchanged() {
        auto db = freshDb(QStringLiteral("cancel.sqlite"));
        const QByteArray before = dumpDigest(*db);
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
        QCOMPARE(dumpDigest(*db), before);
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
