// The faster catalog import (issue 18) must store exactly what the plain one did.
//  - The yaml.v3 encoder's byte-level fast path writes the same bytes as its code-point reference
//    path, on every recipe of the real and sample catalogs (both encodings) and on generated
//    scalars full of indicators, breaks, non-ASCII and malformed UTF-8.
//  - The import, which resolves, writes and hashes the leaves on every core, stores each recipe's
//    bytes (recipeBytes of resolveStoredRecipe) and their sha256, in leaf order, the same on every
//    run; file hashes are the files' sha256; progress counts up one leaf at a time.
#include "DbTestUtil.h"
#include "TestUtil.h"

#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "catalog/Resolver.h"
#include "core/Hash.h"
#include "db/Database.h"
#include "store/CatalogStore.h"
#include "yaml/GoYaml.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace pb;

namespace {

QByteArray encode(const yaml::Node& n, int indent, yaml::StyleMode mode, bool reference) {
    yaml::GoEncodeOptions o{indent, true, mode};
    o.referencePath = reference;
    return yaml::goEncode(n, o);
}

QStringList catalogsToCheck() {
    QStringList roots{pbtest::embeddedCatalogDir(QStringLiteral("sample-1")),
                      pbtest::embeddedCatalogDir(QStringLiteral("sample-2"))};
    for (const char* v : {"v0.11.1", "v0.14.0", "2026-07-09", "2026-08-09", "2026-08-19"})
        if (QFileInfo::exists(pbtest::realCatalog(QLatin1String(v))))
            roots << pbtest::realCatalog(QLatin1String(v));
    return roots;
}

// Pieces a generated scalar is made of: plain text, every indicator, spaces, tabs, each kind of
// break, printable and unprintable non-ASCII, a BOM, and malformed UTF-8 (a stray continuation
// byte, 0xFF, an overlong NUL, a cut sequence), so both paths and their hand-over are exercised.
const char* const kPieces[] = {"a",
                               "word",
                               " ",
                               "  ",
                               "\t",
                               "\n",
                               "\n\n",
                               "\r",
                               "\r\n",
                               ":",
                               ": ",
                               "- ",
                               "-",
                               "#",
                               " #",
                               "'",
                               "\"",
                               "\\",
                               ",",
                               "[",
                               "]",
                               "{",
                               "}",
                               "&",
                               "*",
                               "!",
                               "|",
                               ">",
                               "%",
                               "@",
                               "`",
                               "?",
                               "? ",
                               "---",
                               "...",
                               "~",
                               "null",
                               "true",
                               "24.04",
                               "0x1F",
                               "1e3",
                               "012",
                               "2026-08-19",
                               "<<",
                               "yes",
                               "1:20",
                               "\xC2\x85",
                               "\xE2\x80\xA8",
                               "\xE2\x80\xA9",
                               "\xC2\xA0",
                               "\xC3\xA9",
                               "\xEF\xBB\xBF",
                               "\xF0\x9F\x98\x80",
                               "\xE4\xB8\xAD",
                               "\x01",
                               "\x7F",
                               "\x1B",
                               "\x80",
                               "\xFF",
                               "\xC0\x80",
                               "\xE2\x80",
                               "\xED\xA0\x80"};

// The encoder cases touch no database: the PostgreSQL half would only repeat them (about 25 s under
// ASan), so they run in the SQLite half.
#define PB_SQLITE_HALF_ONLY()                                                                                \
    if (pb::test::onPostgres())                                                                              \
    QSKIP("touches no database: the encoder is the same in both halves, checked in the SQLite half")

std::string generated(std::mt19937& rng) {
    std::uniform_int_distribution<int> count(0, 8);
    std::uniform_int_distribution<size_t> pick(0, std::size(kPieces) - 1);
    std::string s;
    const int n = count(rng);
    for (int i = 0; i < n; ++i)
        s += kPieces[pick(rng)];
    return s;
}

} // namespace

class TestImportPerf : public QObject {
    Q_OBJECT

  private slots:
    void fastPathMatchesReferenceOnEveryRecipe() {
        PB_SQLITE_HALF_ONLY();
        int recipes = 0;
        for (const QString& root : catalogsToCheck()) {
            Result<catalog::Catalog> cat = catalog::loadCatalog(root);
            QVERIFY2(cat.ok(), qPrintable(root));
            for (const catalog::LeafResolution& lr : catalog::resolveAllLeaves(*cat)) {
                if (!lr.result)
                    continue;
                const yaml::Node node = catalog::toNode(*lr.result);
                const QByteArray fast = encode(node, 2, yaml::StyleMode::GoValues, false);
                QCOMPARE(fast, encode(node, 2, yaml::StyleMode::GoValues, true));
                // The evidence form: the same bytes parsed back, styles kept, indent 4.
                Result<yaml::Node> parsed = yaml::parse(fast, lr.leaf);
                QVERIFY(parsed.ok());
                QCOMPARE(encode(*parsed, 4, yaml::StyleMode::PreserveStyles, false),
                         encode(*parsed, 4, yaml::StyleMode::PreserveStyles, true));
                ++recipes;
            }
        }
        QVERIFY(recipes >= 16);
    }

    // The stored evidence form is written once at indent 4, without parsing the deterministic YAML
    // back; the bytes must be exactly the definition's (parse back, styles kept, indent 4), with
    // and without a builder stamp, on every recipe of every catalog here.
    void evidenceFormWithoutParseBackMatchesDefinition() {
        PB_SQLITE_HALF_ONLY();
        int recipes = 0;
        for (const QString& root : catalogsToCheck()) {
            Result<catalog::Catalog> cat = catalog::loadCatalog(root);
            QVERIFY2(cat.ok(), qPrintable(root));
            for (const catalog::LeafResolution& lr : catalog::resolveAllLeaves(*cat)) {
                if (!lr.result)
                    continue;
                QCOMPARE(catalog::evidenceCanonicalYaml(*lr.result),
                         catalog::evidenceCanonicalYamlReference(*lr.result));
                catalog::RecipeResult unstamped = *lr.result;
                unstamped.version.clear();
                QCOMPARE(catalog::evidenceCanonicalYaml(unstamped),
                         catalog::evidenceCanonicalYamlReference(unstamped));
                ++recipes;
            }
        }
        qInfo("%d recipes: the direct evidence form equals its definition", recipes);
        QVERIFY(recipes >= 16);
    }

    void fastPathMatchesReferenceOnGeneratedScalars() {
        PB_SQLITE_HALF_ONLY();
        std::mt19937 rng(18); // fixed: the same documents on every run
        const yaml::ScalarStyle styles[] = {yaml::ScalarStyle::Plain, yaml::ScalarStyle::SingleQuoted,
                                            yaml::ScalarStyle::DoubleQuoted, yaml::ScalarStyle::Literal,
                                            yaml::ScalarStyle::Folded};
        for (int doc = 0; doc < 3000; ++doc) {
            yaml::Node root = yaml::Node::map();
            yaml::Node list = yaml::Node::seq();
            yaml::Node flow = yaml::Node::map();
            flow.flow = true;
            for (int i = 0; i < 4; ++i) {
                yaml::Node value = yaml::Node::plain(generated(rng));
                value.style = styles[static_cast<size_t>(rng() % std::size(styles))];
                root.entries.push_back({yaml::Node::plain(generated(rng)), value});
                list.items.push_back(value);
                flow.entries.push_back(
                    {yaml::Node::plain(std::string(1, static_cast<char>('k' + i))), value});
            }
            root.entries.push_back({yaml::Node::plain("list"), list});
            root.entries.push_back({yaml::Node::plain("flow"), flow});
            for (int indent : {2, 4})
                for (yaml::StyleMode mode : {yaml::StyleMode::GoValues, yaml::StyleMode::PreserveStyles}) {
                    const QByteArray fast = encode(root, indent, mode, false);
                    const QByteArray reference = encode(root, indent, mode, true);
                    if (fast != reference)
                        QFAIL(qPrintable(
                            QStringLiteral("document %1, indent %2: fast path\n%3\nreference\n%4")
                                .arg(doc)
                                .arg(indent)
                                .arg(QString::fromUtf8(fast.toPercentEncoding(" \n:-'\"|>")),
                                     QString::fromUtf8(reference.toPercentEncoding(" \n:-'\"|>")))));
                }
        }
    }

    // Each catalog is imported into two databases (two runs), one after the other under its own
    // label, so both runs give every row the same id.
    void importStoresEachRecipeInLeafOrderOnEveryRun() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(firstRun, tmp.path(), QStringLiteral("run-0.sqlite"));
        PB_TEST_DATABASE(secondRun, tmp.path(), QStringLiteral("run-1.sqlite"));
        std::unique_ptr<db::Database> dbs[2];
        for (int run = 0; run < 2; ++run) {
            auto db = db::Database::open((run ? secondRun : firstRun).spec());
            QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
            dbs[run] = std::move(*db);
        }
        int label = 0;
        for (const QString& root : catalogsToCheck()) {
            Result<catalog::Catalog> cat = catalog::loadCatalog(root);
            QVERIFY(cat.ok());
            QList<QList<QVariant>> runs[2];
            ++label;
            for (int run = 0; run < 2; ++run) {
                db::Database& db = *dbs[run];
                std::vector<int> resolving;
                store::ImportOptions opt;
                opt.progress = [&](int step, int, store::ImportStage stage) {
                    if (stage == store::ImportStage::Resolving)
                        resolving.push_back(step);
                };
                Result<store::ImportReport> r =
                    store::CatalogStore(db).importCatalog(QStringLiteral("v%1").arg(label), *cat, opt);
                QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
                const QStringList leaves = cat->leafNames();
                QCOMPARE(static_cast<qsizetype>(resolving.size()), leaves.size());
                for (size_t i = 0; i < resolving.size(); ++i)
                    QCOMPARE(resolving[i], static_cast<int>(i) + 1);

                QSqlQuery q(db.sql());
                q.prepare(QStringLiteral("SELECT id, leaf_overlay, canonical_yaml, digest FROM recipes WHERE "
                                         "catalog_version_id = ? ORDER BY id"));
                q.addBindValue(r->versionId);
                QVERIFY(q.exec());
                int i = 0;
                while (q.next()) {
                    const QString leaf = q.value(1).toString();
                    QCOMPARE(leaf, leaves[i++]);
                    Result<catalog::RecipeResult> again = store::resolveStoredRecipe(*cat, leaf);
                    QVERIFY(again.ok());
                    const QByteArray bytes = q.value(2).toByteArray();
                    QCOMPARE(bytes, store::recipeBytes(*again));
                    QCOMPARE(q.value(3).toString(), pb::sha256Hex(bytes));
                    runs[run].push_back({q.value(0), leaf, bytes, q.value(3)});
                }
                QCOMPARE(i, static_cast<int>(leaves.size()));
                q.prepare(QStringLiteral("SELECT path, sha256, content FROM catalog_files WHERE "
                                         "catalog_version_id = ? ORDER BY id"));
                q.addBindValue(r->versionId);
                QVERIFY(q.exec());
                size_t f = 0;
                while (q.next()) {
                    QCOMPARE(q.value(0).toString(), cat->files[f++].path);
                    QCOMPARE(q.value(1).toString(), pb::sha256Hex(q.value(2).toByteArray()));
                }
                QCOMPARE(f, cat->files.size());
            }
            QCOMPARE(runs[0], runs[1]);
        }
    }
};

QTEST_GUILESS_MAIN(TestImportPerf)
#include "tst_importperf.moc"
