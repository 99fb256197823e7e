// Issue 18: one recipe digest per purpose, labelled everywhere, and faithful diffs.
//  - evidence digest: what evidence binds to (AICR's v3 canonical recipe, no metadata.version);
//    the store keeps it, and every verb prints it as "evidence digest sha256:<hex>".
//  - parity digest: AICR's catalog-parity golden (deterministic YAML stamped catalog-parity-golden).
// Checked on the sample catalog and on real AICR catalogs (skipped when ../shared/data is absent),
// through the engine and through the real CLI binary, text and JSON. What reads the store runs on
// both engines (DbFixture.h); digests and diffs of folders on SQLite's half.
#include "DbFixture.h"
#include "TestUtil.h"
#include "catalog/Diff.h"
#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "db/Database.h"
#include "store/CatalogStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using namespace pb::catalog;

namespace {

const QString kRecipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    if (!p.waitForFinished(120000))
        return {};
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
               p.readAllStandardError()};
}

QStringList criteriaFlags() {
    return {QStringLiteral("--service"), QStringLiteral("eks"),      QStringLiteral("--accelerator"),
            QStringLiteral("h100"),      QStringLiteral("--os"),     QStringLiteral("ubuntu"),
            QStringLiteral("--intent"),  QStringLiteral("training"), QStringLiteral("--platform"),
            QStringLiteral("kubeflow")};
}

Catalog load(const QString& dir) {
    Result<Catalog> c = loadCatalog(dir);
    if (!c)
        qFatal("%s", qPrintable(c.error().toString()));
    return *std::move(c);
}

RecipeResult resolveLeaf(const Catalog& cat, const QString& leaf, const QString& stamp) {
    ResolveOptions o;
    o.builderVersion = stamp;
    Result<RecipeResult> r = resolve(cat, leafCriteria(cat, leaf), o);
    if (!r)
        qFatal("%s", qPrintable(r.error().toString()));
    return *std::move(r);
}

QJsonObject jsonObject(const QByteArray& bytes) {
    return QJsonDocument::fromJson(bytes).object();
}

QJsonObject named(const QJsonArray& list, const QString& name) {
    for (const QJsonValue& v : list)
        if (v.toObject().value(QStringLiteral("name")).toString() == name)
            return v.toObject();
    return {};
}

// Every "a → b" in a rendering has a != b (a change is never printed "X → X").
void checkNoSelfArrows(const QString& text, const QString& what) {
    static const QRegularExpression selfArrow(
        QStringLiteral("(?:^|[\\s`(])([^\\s`]+)`? → `?\\1(?=$|[\\s`)|,;])"),
        QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = selfArrow.match(text);
    QVERIFY2(!m.hasMatch(),
             qPrintable(QStringLiteral("%1 prints a change as X → X: '%2'").arg(what, m.captured(0))));
}

} // namespace

class TestRecipeDigests : public QObject {
    Q_OBJECT

  private slots:
    // The evidence digest does not depend on the builder stamp; the parity digest is always
    // stamped catalog-parity-golden; the "dev" stamped digest of before is neither.
    void twoDigestsTwoDefinitions() {
        PB_NO_DATABASE_ON_POSTGRES();
        const Catalog cat = load(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
        const RecipeResult dev = resolveLeaf(cat, kRecipe, QStringLiteral("dev"));
        const RecipeResult none = resolveLeaf(cat, kRecipe, QString());
        const RecipeResult golden = resolveLeaf(cat, kRecipe, QString::fromLatin1(kParityStamp));
        QCOMPARE(evidenceDigest(dev), evidenceDigest(none));
        QCOMPARE(evidenceDigest(dev), evidenceDigest(golden));
        QCOMPARE(parityDigest(dev), parityDigest(none));
        QCOMPARE(parityDigest(dev), recipeDigest(golden));
        QVERIFY(recipeDigest(dev) != parityDigest(dev));
        QVERIFY(recipeDigest(none) != evidenceDigest(none));
        // AICR's own rule applied to the recipe.yaml `aicr recipe` writes (any stamp) gives the
        // evidence digest.
        Result<QString> aicr =
            evidenceRecipeDigest(deterministicYaml(dev), QStringLiteral("recipe.yaml"), PredicateVersion::V3);
        QVERIFY(aicr.ok());
        QCOMPARE(*aicr, evidenceDigest(dev));
        // Stored bytes of either generation give the same evidence digest.
        QCOMPARE(*evidenceDigestOfYaml(evidenceCanonicalYaml(dev)), evidenceDigest(dev));
        QCOMPARE(*evidenceDigestOfYaml(deterministicYaml(none)), evidenceDigest(dev));
    }

    // The store keeps the evidence digest: the catalog view, "vs previous" and Compare show it.
    void storedDigestIsTheEvidenceDigest_data() {
        QTest::addColumn<QString>("dir");
        QTest::newRow("sample-2") << pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
        QTest::newRow("2026-08-19") << pbtest::realCatalog(QStringLiteral("2026-08-19"));
        QTest::newRow("v0.14.0") << pbtest::realCatalog(QStringLiteral("v0.14.0"));
    }
    void storedDigestIsTheEvidenceDigest() {
        QFETCH(QString, dir);
        if (!dir.startsWith(QStringLiteral(PB_SOURCE_DIR)))
            PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs"));
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("p.sqlite"));
        auto db = db::Database::open(testDb.spec());
        QVERIFY2(db.ok(), qPrintable(db ? QString() : db.error().toString()));
        store::CatalogStore st(**db);
        const Catalog cat = load(dir);
        QVERIFY(st.importCatalog(QStringLiteral("x"), cat).ok());
        const auto versions = st.versions();
        QVERIFY(versions.ok() && versions->size() == 1);
        const auto recipes = st.recipes(versions->front().id);
        QVERIFY(recipes.ok() && !recipes->empty());
        for (const store::RecipeInfo& r : *recipes) {
            const RecipeResult resolved = resolveLeaf(cat, r.leafOverlay, QStringLiteral("dev"));
            QCOMPARE(r.digest, evidenceDigest(resolved));
            QCOMPARE(r.digest,
                     *evidenceRecipeDigest(deterministicYaml(resolved), r.name, PredicateVersion::V3));
        }
    }

    // The parity digest reproduces AICR's golden, and `recipe --all-leaves --digest` prints it
    // with no --stamp-version (the golden's format; the label goes to stderr).
    void parityDigestIsTheGolden() {
        PB_SKIP_ON_POSTGRES("catalog folders only: the CLI opens the database but reads nothing stored; the "
                            "SQLite half covers it");
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalog-parity/2026-08-19.partial.txt"));
        QFile golden(pbtest::sharedData(QStringLiteral("aicr/catalog-parity/2026-08-19.partial.txt")));
        QVERIFY(golden.open(QIODevice::ReadOnly));
        const Catalog cat = load(pbtest::realCatalog(QStringLiteral("2026-08-19")));
        QTemporaryDir tmp;
        Run r =
            cli({QStringLiteral("recipe"), QStringLiteral("--db"), tmp.filePath(QStringLiteral("p.sqlite")),
                 QStringLiteral("--all-leaves"), QStringLiteral("--catalog"),
                 pbtest::realCatalog(QStringLiteral("2026-08-19")), QStringLiteral("--digest")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.err.contains("parity digests"));
        int compared = 0;
        for (const QByteArray& line : golden.readAll().split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            const QString leaf = QString::fromUtf8(line.left(line.indexOf(':')));
            const QString hex = QString::fromUtf8(line.mid(line.indexOf(':') + 1).trimmed());
            QCOMPARE(parityDigest(resolveLeaf(cat, leaf, QStringLiteral("dev"))), hex);
            QVERIFY2(r.out.contains(line.trimmed()), line.constData());
            ++compared;
        }
        QVERIFY(compared >= 20);
    }

    // `recipe --digest` (text and JSON), `recipe digest FILE`, `diff` by criteria and
    // `diff --all-leaves` print the same labelled digests as the store, for the sample and a real
    // catalog; JSON says "sample": true for the sample only.
    void everyVerbAgrees_data() {
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("previous");
        QTest::addColumn<QString>("dir");
        QTest::addColumn<bool>("sample");
        QTest::newRow("sample-2") << QStringLiteral("sample-2") << QStringLiteral("sample-1") << QString()
                                  << true;
        QTest::newRow("2026-08-19") << QStringLiteral("2026-08-19") << QStringLiteral("2026-07-09")
                                    << pbtest::realCatalog(QStringLiteral("2026-08-19")) << false;
    }
    void everyVerbAgrees() {
        QFETCH(QString, label);
        QFETCH(QString, previous);
        QFETCH(QString, dir);
        QFETCH(bool, sample);
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("p.sqlite"));
        const QString db = testDb.spec();
        if (!sample) {
            PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs"));
            for (const QString& v : {label, previous}) {
                Run imp = cli({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"),
                               db, QStringLiteral("--version"), v, pbtest::realCatalog(v)});
                QVERIFY2(imp.code == 0, imp.err.constData());
            }
        }
        // The store's digest (what the catalog view shows). The CLI seeds the sample on first use.
        QVERIFY(cli({QStringLiteral("catalog"), QStringLiteral("list"), QStringLiteral("--db"), db}).code ==
                0);
        QString stored;
        {
            auto opened = db::Database::open(db);
            QVERIFY(opened.ok());
            store::CatalogStore st(**opened);
            const auto v = st.version(label);
            QVERIFY2(v.ok(), qPrintable(label));
            QCOMPARE(v->isSample(), sample);
            for (const store::RecipeInfo& r : *st.recipes(v->id))
                if (r.name == kRecipe)
                    stored = r.digest;
        }
        QCOMPARE(stored.size(), 64);
        const Catalog cat = load(sample ? pbtest::embeddedCatalogDir(label) : dir);
        const QString parity = parityDigest(resolveLeaf(cat, kRecipe, QString()));
        const QString E = QStringLiteral("sha256:") + stored, P = QStringLiteral("sha256:") + parity;

        const QStringList base = QStringList{QStringLiteral("--db"), db} + criteriaFlags();
        Run text = cli(QStringList{QStringLiteral("recipe"), QStringLiteral("--version"), label,
                                   QStringLiteral("--digest")} +
                       base);
        QVERIFY2(text.code == 0, text.err.constData());
        QCOMPARE(QString::fromUtf8(text.out),
                 QStringLiteral("evidence digest %1\nparity digest %2\n").arg(E, P));
        Run json =
            cli(QStringList{QStringLiteral("recipe"), QStringLiteral("--version"), label,
                            QStringLiteral("--digest"), QStringLiteral("--format"), QStringLiteral("json")} +
                base);
        QVERIFY2(json.code == 0, json.err.constData());
        const QJsonObject j = jsonObject(json.out);
        QCOMPARE(j.value("evidenceDigest").toString(), E);
        QCOMPARE(j.value("parityDigest").toString(), P);
        QCOMPARE(j.value("sample").toBool(), sample);
        QCOMPARE(j.contains("sample"), sample);
        // The RecipeResult JSON carries the mark too.
        Run recipeJson = cli(QStringList{QStringLiteral("recipe"), QStringLiteral("--version"), label,
                                         QStringLiteral("--format"), QStringLiteral("json")} +
                             base);
        QCOMPARE(jsonObject(recipeJson.out).value("sample").toBool(), sample);
        // A different stamp never changes a digest: asking for one is refused.
        Run stamped = cli(QStringList{QStringLiteral("recipe"), QStringLiteral("--version"), label,
                                      QStringLiteral("--digest"), QStringLiteral("--stamp-version"),
                                      QStringLiteral("v9")} +
                          base);
        QCOMPARE(stamped.code, 2);

        // `recipe digest` of the recipe.yaml `recipe` writes: the same evidence digest.
        Run yaml = cli(QStringList{QStringLiteral("recipe"), QStringLiteral("--version"), label,
                                   QStringLiteral("--format"), QStringLiteral("yaml"),
                                   QStringLiteral("--deterministic")} +
                       base);
        QVERIFY2(yaml.code == 0, yaml.err.constData());
        QFile f(tmp.filePath(QStringLiteral("recipe.yaml")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(yaml.out);
        f.close();
        Run file = cli({QStringLiteral("recipe"), QStringLiteral("digest"), f.fileName()});
        QCOMPARE(QString::fromUtf8(file.out.trimmed()), QStringLiteral("evidence digest %1").arg(E));
        Run fileJson = cli({QStringLiteral("recipe"), QStringLiteral("digest"), QStringLiteral("--format"),
                            QStringLiteral("json"), f.fileName()});
        QCOMPARE(jsonObject(fileJson.out).value("evidenceDigest").toString(), E);

        // diff by criteria: text and JSON.
        Run dtext = cli(QStringList{QStringLiteral("diff"), QStringLiteral("--from"), previous,
                                    QStringLiteral("--to"), label} +
                        base);
        QVERIFY2(dtext.code == 0, dtext.err.constData());
        QVERIFY2(dtext.out.contains(QStringLiteral("→ %1 (differs)\n").arg(E).toUtf8()),
                 dtext.out.constData());
        QVERIFY(dtext.out.contains(QStringLiteral("parity digest: ").toUtf8()));
        QVERIFY(dtext.out.contains(QStringLiteral("→ %1\n").arg(P).toUtf8()));
        Run djson = cli(QStringList{QStringLiteral("diff"), QStringLiteral("--from"), previous,
                                    QStringLiteral("--to"), label, QStringLiteral("--format"),
                                    QStringLiteral("json")} +
                        base);
        const QJsonObject dj = jsonObject(djson.out);
        QCOMPARE(dj.value("toEvidenceDigest").toString(), E);
        QCOMPARE(dj.value("toParityDigest").toString(), P);
        QCOMPARE(dj.value("toSample").toBool(), sample);
        QCOMPARE(dj.value("sample").toBool(), sample);
        Run same = cli(QStringList{QStringLiteral("diff"), QStringLiteral("--from"), label,
                                   QStringLiteral("--to"), label} +
                       base);
        QVERIFY(same.out.contains(QStringLiteral("evidence digest: %1 (identical)\n").arg(E).toUtf8()));
        // diff --all-leaves: the leaf's evidence digest, labelled.
        Run all = cli({QStringLiteral("diff"), QStringLiteral("--db"), db, QStringLiteral("--from"), previous,
                       QStringLiteral("--to"), label, QStringLiteral("--all-leaves"),
                       QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(all.code == 0, all.err.constData());
        const QJsonObject aj = jsonObject(all.out);
        QCOMPARE(aj.value("leafDigest").toString(), QStringLiteral("evidenceDigest"));
        QCOMPARE(named(aj.value("leaves").toArray(), kRecipe).value("to").toString(), E);
        Run allText = cli({QStringLiteral("diff"), QStringLiteral("--db"), db, QStringLiteral("--from"),
                           previous, QStringLiteral("--to"), label, QStringLiteral("--all-leaves")});
        QVERIFY(allText.out.contains("Leaf recipes (evidence digest)"));
        QVERIFY(allText.out.contains(QStringLiteral("→ %1").arg(E).toUtf8()));
    }

    // Full values, never "X → X"; grove's alpha.6 → alpha.8 as the JSON has it.
    void faithfulText_data() {
        PB_NO_DATABASE_ON_POSTGRES();
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::newRow("sample-1 → sample-2") << pbtest::embeddedCatalogDir(QStringLiteral("sample-1"))
                                             << pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
        QTest::newRow("v0.14.0 → 2026-07-09") << pbtest::realCatalog(QStringLiteral("v0.14.0"))
                                              << pbtest::realCatalog(QStringLiteral("2026-07-09"));
        QTest::newRow("2026-07-09 → 2026-08-19") << pbtest::realCatalog(QStringLiteral("2026-07-09"))
                                                 << pbtest::realCatalog(QStringLiteral("2026-08-19"));
        QTest::newRow("v0.11.1 → v0.14.0") << pbtest::realCatalog(QStringLiteral("v0.11.1"))
                                           << pbtest::realCatalog(QStringLiteral("v0.14.0"));
    }
    void faithfulText() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        if (!from.startsWith(QStringLiteral(PB_SOURCE_DIR)))
            PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs"));
        const Catalog a = load(from), b = load(to);
        const CatalogDiff d = diffCatalogs(a, b, from, to);
        checkNoSelfArrows(toText(d), QStringLiteral("catalog text"));
        checkNoSelfArrows(toMarkdown(d), QStringLiteral("catalog markdown"));
        // Every changed registry entry's text line carries the JSON's full values.
        const QString text = toText(d);
        const QJsonArray registry = toJson(d).value("registry").toArray();
        for (const QJsonValue& v : registry) {
            const QJsonObject o = v.toObject();
            if (o.value("change").toString() == QLatin1String("changed") && o.value("from") != o.value("to"))
                QVERIFY2(
                    text.contains(QStringLiteral("%1  %2 → %3")
                                      .arg(o.value("name").toString(),
                                           o.value("from").toString().isEmpty() ? QStringLiteral("—")
                                                                                : o.value("from").toString(),
                                           o.value("to").toString().isEmpty() ? QStringLiteral("—")
                                                                              : o.value("to").toString())),
                    qPrintable(o.value("name").toString()));
        }
        for (const QString& leaf : a.leafNames()) {
            if (!b.leafNames().contains(leaf))
                continue;
            const RecipeDiff rd = diffRecipes(resolveLeaf(a, leaf, {}), resolveLeaf(b, leaf, {}), from, to);
            checkNoSelfArrows(toText(rd), QStringLiteral("recipe text ") + leaf);
            checkNoSelfArrows(toMarkdown(rd), QStringLiteral("recipe markdown ") + leaf);
        }
    }

    void groveInFull() {

        PB_SKIP_ON_POSTGRES("catalog folders only: the CLI opens the database but reads nothing stored; the "
                            "SQLite half covers it");
        QTemporaryDir tmp;
        Run r = cli({QStringLiteral("diff"), QStringLiteral("--db"), tmp.filePath(QStringLiteral("p.sqlite")),
                     QStringLiteral("--from"), pbtest::embeddedCatalogDir(QStringLiteral("sample-1")),
                     QStringLiteral("--to"), pbtest::embeddedCatalogDir(QStringLiteral("sample-2")),
                     QStringLiteral("--all-leaves")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("grove  v0.1.0-alpha.6 → v0.1.0-alpha.8"));
        QVERIFY(!r.out.contains("v0.1.0-alpha → v0.1.0-alpha"));
        QVERIFY(r.out.contains("(sample data)"));
    }

    // apiVersion/kind changes are reported: catalog formats and each recipe's RecipeResult.
    void formatChanges() {
        PB_SKIP_ON_POSTGRES("catalog folders only: the CLI opens the database but reads nothing stored; the "
                            "SQLite half covers it");
        {
            const Catalog a = load(pbtest::embeddedCatalogDir(QStringLiteral("sample-1")));
            const Catalog b = load(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
            const RecipeDiff rd = diffRecipes(resolveLeaf(a, kRecipe, {}), resolveLeaf(b, kRecipe, {}),
                                              QStringLiteral("sample-1"), QStringLiteral("sample-2"));
            QCOMPARE(rd.format.size(), size_t(1));
            QCOMPARE(rd.format[0].field, QStringLiteral("apiVersion"));
            QCOMPARE(rd.format[0].from, QStringLiteral("aicr.run/v1alpha2"));
            QCOMPARE(rd.format[0].to, QStringLiteral("aicr.run/v1"));
            QVERIFY(
                toText(rd).contains(QStringLiteral("format: apiVersion aicr.run/v1alpha2 → aicr.run/v1\n")));
            const CatalogDiff cd = diffCatalogs(a, b, QStringLiteral("sample-1"), QStringLiteral("sample-2"));
            const QJsonObject registry =
                named(toJson(cd).value("formats").toArray(), QStringLiteral("ComponentRegistry"));
            QCOMPARE(registry.value("from").toString(), QStringLiteral("aicr.run/v1alpha2"));
            QCOMPARE(registry.value("to").toString(), QStringLiteral("aicr.run/v1beta1"));
            // An overlay whose only change is its apiVersion is changed, not unchanged.
            QVERIFY(toText(cd).contains(
                QStringLiteral("  ~ aks\n      apiVersion: aicr.run/v1alpha3 → aicr.run/v1beta2\n")));
        }
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs"));
        QTemporaryDir tmp;
        Run r = cli({QStringLiteral("diff"), QStringLiteral("--db"), tmp.filePath(QStringLiteral("p.sqlite")),
                     QStringLiteral("--from"), pbtest::realCatalog(QStringLiteral("v0.14.0")),
                     QStringLiteral("--to"), pbtest::realCatalog(QStringLiteral("2026-07-09")),
                     QStringLiteral("--all-leaves"), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray formats = jsonObject(r.out).value("formats").toArray();
        QCOMPARE(named(formats, QStringLiteral("RecipeMetadata")).value("change").toString(),
                 QStringLiteral("changed"));
        QVERIFY(named(formats, QStringLiteral("RecipeMetadata"))
                    .value("from")
                    .toString()
                    .contains(QStringLiteral("aicr.nvidia.com/v1alpha1")));
        QCOMPARE(named(formats, QStringLiteral("RecipeMetadata")).value("to").toString(),
                 QStringLiteral("aicr.run/v1alpha2"));
        QVERIFY(named(formats, QStringLiteral("RecipeResult"))
                    .value("from")
                    .toString()
                    .contains(QStringLiteral("aicr.nvidia.com/v1alpha1")));
        Run rt = cli(QStringList{QStringLiteral("diff"), QStringLiteral("--db"),
                                 tmp.filePath(QStringLiteral("p.sqlite")), QStringLiteral("--from"),
                                 pbtest::realCatalog(QStringLiteral("v0.14.0")), QStringLiteral("--to"),
                                 pbtest::realCatalog(QStringLiteral("2026-07-09"))} +
                     criteriaFlags());
        QVERIFY2(rt.code == 0, rt.err.constData());
        QVERIFY2(rt.out.contains("format: apiVersion aicr.nvidia.com/v1alpha1 → aicr.run/v1alpha2\n"),
                 rt.out.constData());
    }

    void versionOnlyRule() {

        PB_NO_DATABASE_ON_POSTGRES();
        const QString img = QStringLiteral("ghcr.io/nvidia/aicr-validators/deployment:");
        QVERIFY(isVersionOnlyMove(img + "sample-1", img + "sample-2", QStringLiteral("sample-1"),
                                  QStringLiteral("sample-2")));
        QVERIFY(isVersionOnlyMove(img + "v0.14.0", img + "0.15.0", QStringLiteral("0.14.0"),
                                  QStringLiteral("v0.15.0")));
        QVERIFY(isVersionOnlyMove(QStringLiteral("v0.14.0"), QStringLiteral("v0.15.0"),
                                  QStringLiteral("v0.14.0"), QStringLiteral("v0.15.0")));
        QVERIFY(!isVersionOnlyMove(img + "latest", img + "latest", QStringLiteral("v0.14.0"),
                                   QStringLiteral("v0.15.0")));
        QVERIFY(!isVersionOnlyMove(img + "sample-1", img + "sample-3", QStringLiteral("sample-1"),
                                   QStringLiteral("sample-2")));
        QVERIFY(!isVersionOnlyMove(img + "v1.2.0", img + "sample-2", QStringLiteral("sample-1"),
                                   QStringLiteral("sample-2")));
        QVERIFY(!isVersionOnlyMove(img + "sample-1", QStringLiteral("ghcr.io/other/deployment:sample-2"),
                                   QStringLiteral("sample-1"), QStringLiteral("sample-2")));
        QVERIFY(!isVersionOnlyMove(img + "sample-1", img + "sample-2@sha256:abc", QStringLiteral("sample-1"),
                                   QStringLiteral("sample-2")));
        QVERIFY(!isVersionOnlyMove(QStringLiteral("60m"), QStringLiteral("65m"), QStringLiteral("sample-1"),
                                   QStringLiteral("sample-2")));
        QCOMPARE(versionLabelOf(QStringLiteral("/x/catalogs/v0.14.0/recipes")), QStringLiteral("v0.14.0"));
        QCOMPARE(versionLabelOf(QStringLiteral("/src/recipes/sample-1/")), QStringLiteral("sample-1"));
        QCOMPARE(versionLabelOf(QStringLiteral("2026-07-09")), QStringLiteral("2026-07-09"));
    }

    // --ignore version-only hides the validator image moves :sample-1 → :sample-2 and nothing else.
    void ignoreVersionOnly() {
        PB_SKIP_ON_POSTGRES("catalog folders only: the CLI opens the database but reads nothing stored; the "
                            "SQLite half covers it");
        QTemporaryDir tmp;
        const QStringList args{QStringLiteral("diff"),
                               QStringLiteral("--db"),
                               tmp.filePath(QStringLiteral("p.sqlite")),
                               QStringLiteral("--from"),
                               pbtest::embeddedCatalogDir(QStringLiteral("sample-1")),
                               QStringLiteral("--to"),
                               pbtest::embeddedCatalogDir(QStringLiteral("sample-2")),
                               QStringLiteral("--all-leaves"),
                               QStringLiteral("--format"),
                               QStringLiteral("json")};
        const QJsonObject all = jsonObject(cli(args).out);
        const QJsonArray validators = all.value("validators").toArray();
        int versionOnly = 0;
        for (const QJsonValue& v : validators)
            versionOnly += v.toObject().value("versionOnly").toBool() ? 1 : 0;
        QCOMPARE(versionOnly, 18);
        QVERIFY(named(validators, QStringLiteral("accelerator-metrics")).value("versionOnly").toBool());
        QVERIFY(!named(validators, QStringLiteral("inference-perf"))
                     .value("versionOnly")
                     .toBool()); // its timeout moved too
        const QJsonObject hidden = jsonObject(
            cli(args + QStringList{QStringLiteral("--ignore"), QStringLiteral("version-only")}).out);
        const QJsonArray kept = hidden.value("validators").toArray();
        QCOMPARE(kept.size(), validators.size() - 18);
        QVERIFY(named(kept, QStringLiteral("accelerator-metrics")).isEmpty());
        QCOMPARE(named(kept, QStringLiteral("inference-perf")).value("change").toString(),
                 QStringLiteral("changed"));
        QCOMPARE(named(kept, QStringLiteral("gke-gpu-nic-networks")).value("change").toString(),
                 QStringLiteral("added"));
        QCOMPARE(hidden.value("hiddenVersionOnly").toInt(), 18);
        QCOMPARE(hidden.value("registry").toArray().size(), all.value("registry").toArray().size());
        QStringList textArgs = args;
        textArgs.removeLast();
        textArgs.removeLast();
        Run text = cli(textArgs + QStringList{QStringLiteral("--ignore"), QStringLiteral("version-only")});
        QVERIFY(text.out.contains("18 version-only changes hidden"));
        QVERIFY(!text.out.contains("accelerator-metrics"));
        QVERIFY(text.out.contains("inference-perf"));
        Run bad = cli(args + QStringList{QStringLiteral("--ignore"), QStringLiteral("everything")});
        QCOMPARE(bad.code, 2);
        // Real catalogs tag validators :latest: nothing there follows the version.
        if (!QFileInfo::exists(pbtest::sharedData(QStringLiteral("aicr/catalogs"))))
            return;
        const CatalogDiff real = diffCatalogs(load(pbtest::realCatalog(QStringLiteral("2026-07-09"))),
                                              load(pbtest::realCatalog(QStringLiteral("2026-08-19"))),
                                              QStringLiteral("2026-07-09"), QStringLiteral("2026-08-19"));
        QCOMPARE(toJson(real, DiffOptions{true}).value("hiddenVersionOnly").toInt(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRecipeDigests)
#include "tst_recipedigests.moc"
