// The one version order: catalog/VersionOrder.h rules, then the store following them whatever the
// import order, and an old database (embedded versions labelled v0.20.0/v1.0.0) relabelled.
#include "DbTestUtil.h"
#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "catalog/VersionOrder.h"
#include "db/Database.h"
#include "ops/ImportCatalog.h"
#include "ops/PrepareDatabase.h"
#include "store/CatalogStore.h"

#include <QDir>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using namespace pb::catalog;

namespace {

QStringList ordered(const std::vector<VersionOrderKey>& keys) {
    QStringList out;
    for (int i : versionOrder(keys))
        out << keys[static_cast<std::size_t>(i)].label;
    return out;
}

QDateTime at(const char* iso) {
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODate);
}

QString realCatalog(const QString& label) {
    return QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/") + label + QStringLiteral("/recipes");
}

} // namespace

class TstVersionOrder : public QObject {
    Q_OBJECT
  private slots:
    void semverPrecedence_data() {
        QTest::addColumn<QString>("lower");
        QTest::addColumn<QString>("higher");
        QTest::newRow("minor is numeric") << "v0.9.0"
                                          << "v0.10.0";
        QTest::newRow("major") << "v0.20.0"
                               << "v1.0.0";
        QTest::newRow("prerelease before release") << "v1.0.0-rc.1"
                                                   << "v1.0.0";
        QTest::newRow("numeric prerelease ids compare as numbers") << "1.0.0-alpha.6"
                                                                   << "1.0.0-alpha.10";
        QTest::newRow("numeric before alphanumeric") << "1.0.0-1"
                                                     << "1.0.0-alpha";
        QTest::newRow("shorter prerelease first") << "1.0.0-alpha"
                                                  << "1.0.0-alpha.1";
        QTest::newRow("build metadata ignored, v prefix optional") << "1.2.3+build.9"
                                                                   << "v1.2.4";
    }
    void semverPrecedence() {
        QFETCH(QString, lower);
        QFETCH(QString, higher);
        const auto a = parseSemVer(lower), b = parseSemVer(higher);
        QVERIFY2(a && b, qPrintable(lower + QLatin1Char(' ') + higher));
        QVERIFY(compareSemVer(*a, *b) < 0);
        QVERIFY(compareSemVer(*b, *a) > 0);
        QCOMPARE(compareSemVer(*a, *a), 0);
    }
    void notSemver() {
        for (const char* l : {"2026-07-09", "sample-1", "v1.0", "v01.2.3", "1.2.3-01", "main", ""})
            QVERIFY2(!parseSemVer(QString::fromLatin1(l)), l);
        QCOMPARE(labelDate(QStringLiteral("2026-07-09")), at("2026-07-09T00:00:00Z"));
        QCOMPARE(labelDate(QStringLiteral("catalog-2026-08-19-rc")), at("2026-08-19T00:00:00Z"));
        QVERIFY(!labelDate(QStringLiteral("2026-13-40")).isValid());
        QVERIFY(!labelDate(QStringLiteral("sample-2")).isValid());
    }
    // The five real AICR catalog labels, given in a scrambled order with no commit dates.
    void realLabelsFollowTheirMeaning() {
        const std::vector<VersionOrderKey> keys{{QStringLiteral("2026-08-19"), {}, false},
                                                {QStringLiteral("v0.14.0"), {}, false},
                                                {QStringLiteral("2026-07-09"), {}, false},
                                                {QStringLiteral("v0.11.1"), {}, false},
                                                {QStringLiteral("2026-08-09"), {}, false}};
        QCOMPARE(ordered(keys),
                 (QStringList{"v0.11.1", "v0.14.0", "2026-07-09", "2026-08-09", "2026-08-19"}));
    }
    // Commit dates place non-semver labels (over the date in the label), and semver among them.
    void commitDatesPlaceDatedVersions() {
        const std::vector<VersionOrderKey> keys{
            {QStringLiteral("2026-07-09"), at("2026-09-01T10:00:00Z"), false}, // committed after 2026-08-19
            {QStringLiteral("2026-08-19"), at("2026-08-20T10:00:00Z"), false},
            {QStringLiteral("v0.20.0"), at("2026-08-25T00:00:00Z"), false},
            {QStringLiteral("v0.19.0"), at("2026-08-30T00:00:00Z"), false}, // later commit, lower version
            {QStringLiteral("main"), {}, false},
        };
        // Semver among itself: v0.19.0 < v0.20.0 whatever the dates; v0.19.0 carries its own date
        // (08-30), v0.20.0 the latest seen before it (08-30) and its own (08-25) is older: 08-30.
        QCOMPARE(ordered(keys), (QStringList{"main", "2026-08-19", "v0.19.0", "v0.20.0", "2026-07-09"}));
        QCOMPARE(orderBasis(keys[0]), QStringLiteral("commit date"));
        QCOMPARE(orderBasis(keys[2]), QStringLiteral("semantic version"));
        QCOMPARE(orderBasis({QStringLiteral("2026-07-09"), {}, false}), QStringLiteral("date in label"));
        QCOMPARE(orderBasis(keys[4]), QStringLiteral("label"));
    }
    void samplesComeFirstInNaturalOrder() {
        const std::vector<VersionOrderKey> keys{{QStringLiteral("v0.1.0"), {}, false},
                                                {QStringLiteral("sample-10"), {}, true},
                                                {QStringLiteral("sample-2"), {}, true},
                                                {QStringLiteral("2020-01-01"), {}, false}};
        QCOMPARE(ordered(keys), (QStringList{"sample-2", "sample-10", "v0.1.0", "2020-01-01"}));
        QCOMPARE(ordered({}), QStringList());
    }

    // The store: imported out of order, listed in version order; previous/newest and a recipe's
    // "vs previous version" follow it.
    void storeFollowsVersionOrder() {
        if (!QDir(realCatalog(QStringLiteral("2026-08-19"))).exists())
            QSKIP("../shared/data/aicr/catalogs is absent: the real catalogs are needed for this test");
        QTemporaryDir dir;
        PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.db"));
        Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
        QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
        QVERIFY(ops::seedEmbeddedCatalog(**db));
        for (const char* label : {"v0.11.1", "2026-08-19", "2026-07-09", "v0.14.0"}) {
            ops::ImportCatalogRequest r;
            r.label = QString::fromLatin1(label);
            r.dir = realCatalog(r.label);
            Result<ops::ImportCatalogOutcome> o = ops::importCatalog(ops::Context(**db), r);
            QVERIFY2(o, o ? "" : qPrintable(o.error().toString()));
        }
        store::CatalogStore store(**db);
        Result<std::vector<store::CatalogVersionInfo>> versions = store.versions();
        QVERIFY(versions);
        QStringList labels;
        for (const auto& v : *versions)
            labels << v.label;
        QCOMPARE(labels,
                 (QStringList{"sample-1", "sample-2", "v0.11.1", "v0.14.0", "2026-07-09", "2026-08-19"}));
        QVERIFY(versions->front().isSample());
        QVERIFY(!versions->back().isSample());
        QCOMPARE(versions->back().origin.kind, QStringLiteral("folder"));
        QVERIFY(versions->back().originText().contains(realCatalog(QStringLiteral("2026-08-19"))));
        QVERIFY(versions->front().originText().contains(QStringLiteral("sample data")));
        QCOMPARE(store.newestVersion()->label, QStringLiteral("2026-08-19"));
        QCOMPARE(store.previousVersion(QStringLiteral("2026-08-19"))->label, QStringLiteral("2026-07-09"));
        QCOMPARE(store.previousVersion(QStringLiteral("2026-07-09"))->label, QStringLiteral("v0.14.0"));
        QVERIFY(!store.previousVersion(QStringLiteral("sample-1")));
        QVERIFY(!store.previousVersion(QStringLiteral("no-such")));
        // Every recipe of 2026-08-19 compares with 2026-07-09 (imported after it), never the sample.
        Result<std::vector<store::RecipeInfo>> recipes = store.recipes(versions->back().id);
        QVERIFY(recipes && !recipes->empty());
        int unchangedOrChanged = 0;
        for (const auto& r : *recipes) {
            QCOMPARE(r.previousLabel, QStringLiteral("2026-07-09"));
            unchangedOrChanged += r.change() == store::RecipeInfo::Change::Unchanged ||
                                  r.change() == store::RecipeInfo::Change::Changed;
        }
        QVERIFY(unchangedOrChanged > 0);
        Result<std::optional<store::CatalogVersionInfo>> same =
            store.versionWithContent(versions->back().contentDigest);
        QVERIFY(same && *same);
        QCOMPARE((*same)->label, QStringLiteral("2026-08-19"));
        QVERIFY(!*store.versionWithContent(QStringLiteral("sha256:none")));
    }

    // A database made before the relabel: its embedded versions are renamed, never shown as releases.
    // ... and its recipes, stored as indent-2 deterministic YAML with that digest, are rewritten
    // once to the evidence-canonical bytes and evidence digest a new import stores. PostgreSQL
    // databases start at the baseline schema (13), so there is no older PostgreSQL schema to relabel
    // from; but one copied from an old SQLite file (`db copy`) can hold recipes not yet upgraded, and
    // that upgrade runs there too.
    void migrationRelabelsOldSample() {
        QTemporaryDir dir;
        PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("old.db"));
        const QString path = testDb.spec();
        QHash<QString, QString> currentDigests; // leaf@version -> digest a new import stores
        {
            Result<std::unique_ptr<db::Database>> db = db::Database::open(path);
            QVERIFY(db);
            QVERIFY(ops::seedEmbeddedCatalog(**db));
            QSqlQuery q((*db)->sql());
            QSqlQuery u((*db)->sql());
            QVERIFY(q.exec(QStringLiteral("SELECT r.id, r.leaf_overlay, v.label, r.digest FROM recipes r "
                                          "JOIN catalog_versions v ON v.id = r.catalog_version_id")));
            u.prepare(QStringLiteral("UPDATE recipes SET canonical_yaml = ?, digest = ? WHERE id = ?"));
            int rewritten = 0;
            while (q.next()) {
                const QString label = q.value(2).toString();
                currentDigests.insert(q.value(1).toString() + QLatin1Char('@') + label,
                                      q.value(3).toString());
                Result<catalog::Catalog> cat = catalog::loadCatalog(QStringLiteral(":/recipes/") + label);
                QVERIFY(cat);
                Result<catalog::RecipeResult> r = store::resolveStoredRecipe(*cat, q.value(1).toString());
                QVERIFY(r);
                catalog::RecipeResult unstamped = *r;
                const QByteArray old =
                    catalog::deterministicYaml(unstamped); // what earlier Proofbench stored
                QVERIFY(catalog::sha256Hex(old) != q.value(3).toString());
                u.addBindValue(old);
                u.addBindValue(catalog::sha256Hex(old));
                u.addBindValue(q.value(0));
                QVERIFY(u.exec());
                ++rewritten;
            }
            QCOMPARE(rewritten, 31);
            if (pbtest::isPostgres(**db)) { // no schema 6 here: only the upgrade's record goes
                QVERIFY(q.exec(QStringLiteral("DELETE FROM store_upgrades")));
                return checkUpgraded(path, currentDigests);
            }
            QVERIFY(q.exec(QStringLiteral("DROP TABLE store_upgrades")));
            // Put the database back to schema 6 with the labels older Proofbench gave the sample.
            QVERIFY(q.exec(
                QStringLiteral("UPDATE catalog_versions SET label = 'v0.20.0' WHERE label = 'sample-1'")));
            QVERIFY(q.exec(
                QStringLiteral("UPDATE catalog_versions SET label = 'v1.0.0' WHERE label = 'sample-2'")));
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 6")));
            // (the labels were renamed back above; the relabel reads them as v0.20.0/v1.0.0 again)
            for (const char* c : {"source_kind", "source_repo", "source_ref", "source_tag", "source_commit",
                                  "source_commit_date", "source_path"})
                QVERIFY(q.exec(
                    QStringLiteral("ALTER TABLE catalog_versions DROP COLUMN %1").arg(QLatin1String(c))));
            // What migrations 009-013 added (release bindings, TUF provenance, run leftovers, deployment
            // bundles, TUF trusted state) goes too, so the database is schema 6 again.
            for (const char* t :
                 {"tuf_trusted_state", "catalog_release_bindings", "release_signatures",
                  "trusted_root_provenance", "run_leftovers", "deploy_bundle_components",
                  "deploy_bundle_files", "deploy_bundles", "run_source_chunks", "run_sources"})
                QVERIFY2(q.exec(QStringLiteral("DROP TABLE IF EXISTS %1").arg(QLatin1String(t))), t);
            // ...and what 016 added: the receipts' writer and the append-only triggers (017's tables and
            // column go above and below).
            for (const char* t : {"receipts_no_update", "receipts_no_delete", "receipts_author"})
                QVERIFY2(q.exec(QStringLiteral("DROP TRIGGER IF EXISTS %1").arg(QLatin1String(t))), t);
            for (const char* c : {"run_checks.cause", "run_checks.k8s_reason", "runs.time_source",
                                  "run_series.seq", "receipts.written_by", "runs.source_digest"}) {
                const QStringList tc = QString::fromLatin1(c).split(QLatin1Char('.'));
                QVERIFY2(q.exec(QStringLiteral("ALTER TABLE %1 DROP COLUMN %2").arg(tc[0], tc[1])), c);
            }
        }
        checkUpgraded(path, currentDigests);
    }

  private:
    // Opening and preparing the database `path` rewrites every recipe once to the digest a new
    // import stores, keeps the sample's two versions (labelled sample-1, sample-2) and seeds nothing.
    static void checkUpgraded(const QString& path, const QHash<QString, QString>& currentDigests) {
        Result<std::unique_ptr<db::Database>> db = db::Database::open(path);
        QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
        Result<QStringList> prepared = ops::prepareDatabase(**db);
        QVERIFY2(prepared, prepared ? "" : qPrintable(prepared.error().toString()));
        QVERIFY(prepared->isEmpty()); // the sample is there: nothing seeded again
        {
            QSqlQuery q((*db)->sql());
            QVERIFY(q.exec(
                QStringLiteral("SELECT r.leaf_overlay, v.label, r.digest, r.canonical_yaml FROM recipes r "
                               "JOIN catalog_versions v ON v.id = r.catalog_version_id")));
            int checked = 0;
            while (q.next()) {
                const QString key = q.value(0).toString() + QLatin1Char('@') + q.value(1).toString();
                QCOMPARE(q.value(2).toString(), currentDigests.value(key));
                QCOMPARE(catalog::sha256Hex(q.value(3).toByteArray()), q.value(2).toString());
                ++checked;
            }
            QCOMPARE(checked, 31);
        }
        QCOMPARE(*store::CatalogStore(**db).upgradeRecipeDigests(), 0); // once only
        Result<std::vector<store::CatalogVersionInfo>> versions = store::CatalogStore(**db).versions();
        QVERIFY(versions);
        QCOMPARE(versions->size(), std::size_t(2));
        QCOMPARE(versions->at(0).label, QStringLiteral("sample-1"));
        QCOMPARE(versions->at(1).label, QStringLiteral("sample-2"));
        QCOMPARE(versions->at(1).origin.kind, QStringLiteral("embedded"));
        QVERIFY(versions->at(1).isSample());
    }
};

QTEST_GUILESS_MAIN(TstVersionOrder)
#include "tst_versionorder.moc"
