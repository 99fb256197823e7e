// ops::resolveRecipe, ops::diff and ops::exportRecipe on real catalogs: the sample catalog in the
// source tree (recipes/), the same versions imported into a real database of either engine, and AICR's
// published catalogs in ../shared/data when they are there. Each result is checked against the catalog
// functions the faces called before (resolve, diffRecipes, diffCatalogs), and an export's receipt
// against the one stored.
#include "DbFixture.h"
#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "db/Database.h"
#include "ops/ImportCatalog.h"
#include "ops/Recipe.h"
#include "receipts/Kinds.h"
#include "receipts/Ledger.h"
#include "store/CatalogStore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

namespace {

QString sampleDir(const QString& label) {
    return QStringLiteral(PB_SOURCE_DIR "/recipes/") + label;
}

ops::CatalogRef dirRef(const QString& dir) {
    return ops::CatalogRef{dir, ops::CatalogRef::Kind::Directory, nullptr, false};
}

} // namespace

class TestOpsRecipe : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    test::Databases m_dbs{m_tmp.path()};
    std::unique_ptr<db::Database> m_db;

  private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        m_db = m_dbs.open(QStringLiteral("recipe.sqlite"));
        QVERIFY2(m_db, qPrintable(m_dbs.error()));
        auto seeded = ops::seedEmbeddedCatalog(*m_db);
        QVERIFY2(seeded.ok(), qPrintable(seeded ? QString() : seeded.error().toString()));
        QVERIFY(seeded->contains(QStringLiteral("sample-1")));
    }

    // A leaf resolved from the folder and from the imported version: the same recipe, digests as
    // the resolver's, and the stored query gives exactly the recipe import stored.
    void resolvesALeafFromAFolderAndAVersion() {
        const ops::Context ctx(*m_db);
        Result<catalog::Catalog> cat = catalog::loadCatalog(sampleDir(QStringLiteral("sample-1")));
        QVERIFY(cat.ok());
        const QString leaf = cat->leafNames().constFirst();
        ops::ResolveRequest req{dirRef(sampleDir(QStringLiteral("sample-1"))),
                                ops::RecipeQuery::stored(leaf)};
        auto fromDir = ops::resolveRecipe(ctx, req);
        QVERIFY2(fromDir.ok(), qPrintable(fromDir ? QString() : fromDir.error().toString()));
        auto direct = store::resolveStoredRecipe(*cat, leaf);
        QVERIFY(direct.ok());
        QCOMPARE(fromDir->evidenceDigest, catalog::evidenceDigest(*direct));
        QCOMPARE(fromDir->parityDigest, catalog::parityDigest(*direct));
        QCOMPARE(fromDir->leafOverlay(), leaf);
        QVERIFY(fromDir->sample); // the folder holds the compiled-in sample content
        QVERIFY(!fromDir->catalogIsVersion);

        req.catalog = ops::CatalogRef{QStringLiteral("sample-1")};
        auto fromVersion = ops::resolveRecipe(ctx, req);
        QVERIFY2(fromVersion.ok(), qPrintable(fromVersion ? QString() : fromVersion.error().toString()));
        QVERIFY(fromVersion->catalogIsVersion);
        QVERIFY(fromVersion->sample);
        QCOMPARE(fromVersion->evidenceDigest, fromDir->evidenceDigest);
        // The digest import stored for this recipe is the evidence digest resolved here.
        auto version = store::CatalogStore(*m_db).version(QStringLiteral("sample-1"));
        QVERIFY(version.ok());
        auto recipes = store::CatalogStore(*m_db).recipes(version->id);
        QVERIFY(recipes.ok());
        bool found = false;
        for (const store::RecipeInfo& r : *recipes)
            if (r.leafOverlay == leaf) {
                found = true;
                QCOMPARE(r.digest, fromDir->evidenceDigest);
            }
        QVERIFY(found);
    }

    void resolvesCriteriaWithTheCliStamp() {
        const ops::Context ctx(*m_db);
        ops::ResolveRequest req;
        req.catalog = ops::CatalogRef{sampleDir(QStringLiteral("sample-1"))};
        req.query.criteria = {{QStringLiteral("service"), QStringLiteral("eks")},
                              {QStringLiteral("intent"), QStringLiteral("training")}};
        auto r = ops::resolveRecipe(ctx, req);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().toString()));
        QCOMPARE(r->recipe.version, QStringLiteral("dev"));
        Result<catalog::Catalog> cat = catalog::loadCatalog(req.catalog.spec);
        auto criteria = catalog::parseUserCriteria(*cat, req.query.criteria);
        QVERIFY(criteria.ok());
        auto direct = catalog::resolve(*cat, *criteria, {});
        QVERIFY(direct.ok());
        QCOMPARE(r->recipe.appliedOverlays, direct->appliedOverlays);
        QCOMPARE(r->parityDigest, catalog::parityDigest(*direct));
    }

    void refusesWhatIsNotThere() {
        const ops::Context ctx(*m_db);
        ops::ResolveRequest req{ops::CatalogRef{sampleDir(QStringLiteral("sample-1"))},
                                ops::RecipeQuery::stored(QStringLiteral("no-such-leaf"))};
        auto r = ops::resolveRecipe(ctx, req);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("'no-such-leaf' is not a leaf overlay")),
                 qPrintable(r.error().toString()));
        req.catalog = ops::CatalogRef{QStringLiteral("no-such-version")};
        r = ops::resolveRecipe(ctx, req);
        QVERIFY(!r.ok());
        QVERIFY2(
            r.error().message.contains(QStringLiteral("neither a catalog directory nor a catalog version")),
            qPrintable(r.error().toString()));
    }

    // One recipe across the two sample versions, equal to diffRecipes of the two resolutions; a
    // side with no query compares as an empty recipe; every leaf equals diffCatalogs.
    void diffsOneRecipeAndEveryLeaf() {
        const ops::Context ctx(*m_db);
        Result<catalog::Catalog> a = catalog::loadCatalog(sampleDir(QStringLiteral("sample-1")));
        Result<catalog::Catalog> b = catalog::loadCatalog(sampleDir(QStringLiteral("sample-2")));
        QVERIFY(a.ok() && b.ok());
        const QString leaf = a->leafNames().constFirst();
        QVERIFY(b->leafNames().contains(leaf));
        ops::DiffRequest req;
        req.from = ops::CatalogRef{QStringLiteral("sample-1")};
        req.to = ops::CatalogRef{QStringLiteral("sample-2")};
        req.fromQuery = req.toQuery = ops::RecipeQuery::stored(leaf);
        auto d = ops::diff(ctx, req);
        QVERIFY2(d.ok(), qPrintable(d ? QString() : d.error().toString()));
        QVERIFY(d->recipe && !d->catalog);
        const catalog::RecipeDiff expected =
            catalog::diffRecipes(*store::resolveStoredRecipe(*a, leaf), *store::resolveStoredRecipe(*b, leaf),
                                 QStringLiteral("sample-1"), QStringLiteral("sample-2"));
        QCOMPARE(d->recipe->fromEvidenceDigest, expected.fromEvidenceDigest);
        QCOMPARE(d->recipe->toEvidenceDigest, expected.toEvidenceDigest);
        QVERIFY(d->recipe->fromSample && d->recipe->toSample);
        catalog::RecipeDiff marked = expected;
        marked.fromSample = marked.toSample = true;
        QCOMPARE(*d->render(QStringLiteral("text")), catalog::toText(marked).toUtf8());
        QVERIFY(!d->render(QStringLiteral("html")).ok());

        req.fromQuery.reset(); // no such recipe on the from side: everything is added
        auto added = ops::diff(ctx, req);
        QVERIFY(added.ok());
        QCOMPARE(added->recipe->count(catalog::Change::Added),
                 static_cast<int>(added->toRecipe.componentRefs.size()));
        QVERIFY(added->recipe->count(catalog::Change::Added) > 0);

        ops::DiffRequest all;
        all.from = ops::CatalogRef{sampleDir(QStringLiteral("sample-1"))};
        all.to = ops::CatalogRef{sampleDir(QStringLiteral("sample-2"))};
        all.allLeaves = true;
        all.options.ignoreVersionOnly = true;
        auto whole = ops::diff(ctx, all);
        QVERIFY2(whole.ok(), qPrintable(whole ? QString() : whole.error().toString()));
        QVERIFY(whole->catalog && !whole->recipe);
        catalog::CatalogDiff exp = catalog::diffCatalogs(*a, *b, all.from.spec, all.to.spec);
        exp.fromSample = exp.toSample = true;
        QCOMPARE(*whole->render(QStringLiteral("markdown")), catalog::toMarkdown(exp, all.options).toUtf8());
        all.fromQuery = ops::RecipeQuery::stored(leaf);
        QVERIFY(!ops::diff(ctx, all).ok()); // criteria and all leaves: not both

        // As the CLI's diff printed them: both sides' criteria are checked before either side is
        // resolved, a criteria error names the criterion, a resolve error its side.
        ops::RecipeQuery unknownProfile = ops::RecipeQuery::stored(leaf);
        unknownProfile.profiles = {{QStringLiteral("noSuchProfile"), QStringLiteral("x")}};
        ops::RecipeQuery badCriteria;
        badCriteria.criteria = {{QStringLiteral("service"), QStringLiteral("nope")}};
        req.fromQuery = unknownProfile;
        req.toQuery = badCriteria;
        auto refused = ops::diff(ctx, req);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().field, QStringLiteral("criteria.service"));
        QVERIFY2(
            refused.error().toString().startsWith(QStringLiteral("criteria.service: invalid service 'nope'")),
            qPrintable(refused.error().toString()));
        req.toQuery = ops::RecipeQuery::stored(leaf);
        auto unresolved = ops::diff(ctx, req);
        QVERIFY(!unresolved.ok());
        QVERIFY2(unresolved.error().toString().startsWith(QStringLiteral("sample-1: ")) &&
                     unresolved.error().toString().contains(QStringLiteral("--profile noSuchProfile")),
                 qPrintable(unresolved.error().toString()));
    }

    // The window's way: catalogs it has loaded already, on a worker thread with no connection.
    void worksOnLoadedCatalogsWithoutADatabase() {
        Result<catalog::Catalog> a = catalog::loadCatalog(sampleDir(QStringLiteral("sample-1")));
        Result<catalog::Catalog> b = catalog::loadCatalog(sampleDir(QStringLiteral("sample-2")));
        QVERIFY(a.ok() && b.ok());
        const QString leaf = a->leafNames().constFirst();
        auto sa = std::make_shared<const catalog::Catalog>(std::move(*a));
        auto sb = std::make_shared<const catalog::Catalog>(std::move(*b));
        ops::DiffRequest req;
        req.from = ops::CatalogRef{QStringLiteral("sample-1"), ops::CatalogRef::Kind::Version, sa, true};
        req.to = ops::CatalogRef{QStringLiteral("sample-2"), ops::CatalogRef::Kind::Version, sb, false};
        req.fromQuery = req.toQuery = ops::RecipeQuery::stored(leaf);
        auto d = ops::diff(nullptr, req);
        QVERIFY2(d.ok(), qPrintable(d ? QString() : d.error().toString()));
        QVERIFY(d->recipe->fromSample && !d->recipe->toSample); // as the caller said
        QCOMPARE(d->recipe->fromEvidenceDigest,
                 catalog::evidenceDigest(*store::resolveStoredRecipe(*sa, leaf)));
        QCOMPARE(d->fromRecipe.appliedOverlays.constLast(), leaf);

        // A version label with no database is refused, not guessed.
        auto r = ops::resolveRecipe(nullptr, ops::ResolveRequest{ops::CatalogRef{QStringLiteral("sample-1")},
                                                                 ops::RecipeQuery::stored(leaf)});
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("needs a database")),
                 qPrintable(r.error().toString()));
    }

    // AICR's published catalogs, when the shared data is here: every leaf of two dated versions.
    void diffsPublishedCatalogs() {
        const QString root = QStringLiteral(PB_SHARED_DATA "/aicr/catalogs");
        if (!QDir(root + QStringLiteral("/2026-08-09")).exists() ||
            !QDir(root + QStringLiteral("/2026-08-19")).exists())
            QSKIP("AICR's catalogs (../shared/data/aicr/catalogs) are not here");
        const ops::Context ctx(*m_db);
        ops::DiffRequest all;
        all.from = dirRef(root + QStringLiteral("/2026-08-09"));
        all.to = dirRef(root + QStringLiteral("/2026-08-19"));
        all.allLeaves = true;
        auto whole = ops::diff(ctx, all);
        QVERIFY2(whole.ok(), qPrintable(whole ? QString() : whole.error().toString()));
        QVERIFY(!whole->catalog->leaves.empty());
        QVERIFY(!whole->catalog->fromSample && !whole->catalog->toSample);
        auto json = whole->render(QStringLiteral("json"));
        QVERIFY(json.ok() && json->contains("\"leaves\""));
    }

    // Export to a file: the file holds the bytes returned, the receipt returned is the one stored
    // (seq and hash) and names the file with its digest; to stdout, the receipt names the bytes.
    void exportWritesTheFileAndReturnsItsReceipt() {
        const ops::Context ctx(*m_db);
        Result<catalog::Catalog> cat = catalog::loadCatalog(sampleDir(QStringLiteral("sample-2")));
        QVERIFY(cat.ok());
        ops::ExportRecipeRequest req;
        req.resolve.catalog = ops::CatalogRef{QStringLiteral("sample-2")};
        req.resolve.query.leaf = cat->leafNames().constLast();
        req.deterministic = true;
        req.outputPath = m_tmp.filePath(QStringLiteral("out/recipe.yaml"));
        auto e = ops::exportRecipe(ctx, req);
        QVERIFY2(e.ok(), qPrintable(e ? QString() : e.error().toString()));
        QFile f(req.outputPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), e->bytes);
        QCOMPARE(e->bytes, catalog::deterministicYaml(e->resolved.recipe));
        auto stored = receipts::Ledger(*m_db).receipt(e->receipt.seq);
        QVERIFY(stored.ok());
        QCOMPARE(stored->hash, e->receipt.hash);
        QCOMPARE(stored->kind, QString(receipts::kinds::RecipeExport));
        QCOMPARE(stored->parameters.value(QStringLiteral("version")).toString(), QStringLiteral("sample-2"));
        QCOMPARE(stored->outputs.size(), size_t(1));
        QCOMPARE(stored->outputs.front().name, req.outputPath);

        ops::ExportRecipeRequest toStdout = req;
        toStdout.outputPath.clear();
        toStdout.format = QStringLiteral("digest");
        auto d = ops::exportRecipe(ctx, toStdout);
        QVERIFY(d.ok());
        QVERIFY(d->bytes.startsWith("evidence digest sha256:" + d->resolved.evidenceDigest.toLatin1()));
        QCOMPARE(d->receipt.seq, e->receipt.seq + 1);
        QCOMPARE(d->receipt.prevHash, e->receipt.hash);
        QVERIFY(d->receipt.outputs.front().name.endsWith(QStringLiteral("(stdout)")));
        QCOMPARE(d->receipt.parameters.value(QStringLiteral("format")).toString(), QStringLiteral("digest"));

        toStdout.format = QStringLiteral("toml");
        auto bad = ops::exportRecipe(ctx, toStdout);
        QVERIFY(!bad.ok());
        QCOMPARE(receipts::Ledger(*m_db).head()->seq, d->receipt.seq); // nothing recorded
    }
};

QTEST_GUILESS_MAIN(TestOpsRecipe)
#include "tst_opsrecipe.moc"
