// Drives the real `proofbench` binary as scripts and CI would. The cases that read or write a
// database run on both engines (DbFixture.h: --db is a file or a PostgreSQL URI); parsing, help and
// the verbs that only read files run on SQLite's half alone, which keeps this slow test from doubling.
#include "BundleFixture.h"
#include "CatalogFixture.h"
#include "DbFixture.h"
#include "SigstoreCases.h"
#include "TestUtil.h"
#include "catalog/Digest.h"
#include "cli/Cli.h"
#include "cli/Commands.h"
#include "sigstore/Keys.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run proofbench(const QStringList& args, const QString& workingDir = {},
               const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    if (!workingDir.isEmpty())
        p.setWorkingDirectory(workingDir);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    p.waitForFinished(120000);
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
               p.readAllStandardError()};
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    pb::test::Databases m_dbs{m_tmp.path()};
    QString db() { return m_dbs.spec(QStringLiteral("cli.sqlite")); }

  private slots:
    void versionAndHelp() {
        PB_NO_DATABASE_ON_POSTGRES();
        Run v = proofbench({QStringLiteral("--version")});
        QCOMPARE(v.code, 0);
        QVERIFY(v.out.startsWith("proofbench "));
        Run h = proofbench({QStringLiteral("--help")});
        QCOMPARE(h.code, 0);
        QVERIFY(h.out.contains("catalog import"));
        QVERIFY(h.out.contains("recipe"));
        Run rh = proofbench({QStringLiteral("recipe"), QStringLiteral("--help")});
        QCOMPARE(rh.code, 0);
        QVERIFY(rh.out.contains("--all-leaves"));
        QVERIFY(rh.out.contains("--accelerator"));
        Run ch = proofbench({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--help")});
        QCOMPARE(ch.code, 0);
        QVERIFY(ch.out.contains("--version"));
        Run bad = proofbench({QStringLiteral("frobnicate")});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("unknown verb"));
    }

    void importListAndResolveByLabel() {
        const QString dir = pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
        Run imp = proofbench({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"),
                              db(), QStringLiteral("--version"), QStringLiteral("mine-1.0"), dir});
        QVERIFY2(imp.code == 0, imp.err.constData());
        QVERIFY(imp.out.contains("imported"));
        Run again = proofbench({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"),
                                db(), QStringLiteral("--version"), QStringLiteral("mine-1.0"), dir});
        QCOMPARE(again.code, 0);
        QVERIFY(again.out.contains("unchanged"));
        Run list = proofbench({QStringLiteral("catalog"), QStringLiteral("list"), QStringLiteral("--db"),
                               db(), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(list.code, 0);
        // A new database starts with the embedded sample catalog, as in the GUI.
        const QJsonArray versions = QJsonDocument::fromJson(list.out).array();
        QCOMPARE(versions.size(), 3);
        QCOMPARE(versions.at(0).toObject().value("embedded").toBool(), true);
        const QJsonObject mine = versions.at(2).toObject();
        QCOMPARE(mine.value("version").toString(), QStringLiteral("mine-1.0"));
        QCOMPARE(mine.value("recipes").toInt(), 16);
        QCOMPARE(mine.value("embedded").toBool(), false);
        // Same content as the embedded sample-2.
        QCOMPARE(mine.value("contentDigest").toString(),
                 versions.at(1).toObject().value("contentDigest").toString());

        Run r =
            proofbench({QStringLiteral("recipe"), QStringLiteral("--db"), db(), QStringLiteral("--version"),
                        QStringLiteral("mine-1.0"), QStringLiteral("--service"), QStringLiteral("eks"),
                        QStringLiteral("--accelerator"), QStringLiteral("h100"), QStringLiteral("--os"),
                        QStringLiteral("ubuntu"), QStringLiteral("--intent"), QStringLiteral("training"),
                        QStringLiteral("--platform"), QStringLiteral("kubeflow"), QStringLiteral("--format"),
                        QStringLiteral("json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject recipe = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(recipe.value("kind").toString(), QStringLiteral("RecipeResult"));
        QCOMPARE(recipe.value("apiVersion").toString(), QStringLiteral("aicr.run/v1"));
        const QJsonArray applied = recipe.value("metadata").toObject().value("appliedOverlays").toArray();
        QCOMPARE(applied.last().toString(), QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
        QVERIFY(!recipe.value("deploymentOrder").toArray().isEmpty());
    }

    void recipeFromDirectoryAsYaml() {

        PB_NO_DATABASE_ON_POSTGRES();
        Run r =
            proofbench({QStringLiteral("recipe"), QStringLiteral("--catalog"),
                        pbtest::embeddedCatalogDir(QStringLiteral("sample-1")), QStringLiteral("--service"),
                        QStringLiteral("gke"), QStringLiteral("--accelerator"), QStringLiteral("h100"),
                        QStringLiteral("--os"), QStringLiteral("cos"), QStringLiteral("--intent"),
                        QStringLiteral("inference"), QStringLiteral("--platform"), QStringLiteral("dynamo")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.startsWith("kind: RecipeResult\napiVersion: aicr.run/v1alpha2\n"));
        QVERIFY(r.out.contains("dynamo-platform"));
    }

    void allLeavesJson() {

        PB_NO_DATABASE_ON_POSTGRES();
        Run r =
            proofbench({QStringLiteral("recipe"), QStringLiteral("--all-leaves"), QStringLiteral("--catalog"),
                        pbtest::embeddedCatalogDir(QStringLiteral("sample-1")), QStringLiteral("--format"),
                        QStringLiteral("json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray leaves = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(leaves.size(), 15);
        for (const QJsonValue& v : leaves) {
            const QJsonObject o = v.toObject();
            QVERIFY(o.contains("leaf"));
            QVERIFY(o.value("error").isNull());
            QVERIFY(o.value("components").toInt() > 0);
            QCOMPARE(o.value("appliedOverlays").toArray().first().toString(), QStringLiteral("base"));
        }
    }

    void allLeavesReportsPerLeafErrors() {

        PB_NO_DATABASE_ON_POSTGRES();
        pbtest::CatalogFixture f;
        f.overlay(
            QStringLiteral("eks"),
            "spec:\n  criteria: {service: eks}\n  componentRefs: [{name: nfd, dependencyRefs: [ghost]}]\n");
        f.overlay(QStringLiteral("gke"), "spec:\n  criteria: {service: gke}\n");
        Run r =
            proofbench({QStringLiteral("recipe"), QStringLiteral("--all-leaves"), QStringLiteral("--catalog"),
                        f.write(), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 1);
        const QJsonArray leaves = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(leaves.size(), 2);
        QVERIFY(leaves.at(0).toObject().value("error").toString().contains(QStringLiteral("ghost")));
        QVERIFY(leaves.at(1).toObject().value("error").isNull());
    }

    void relativeCatalogPath() {

        PB_NO_DATABASE_ON_POSTGRES();
        Run r =
            proofbench({QStringLiteral("recipe"), QStringLiteral("--all-leaves"), QStringLiteral("--catalog"),
                        QStringLiteral("sample-1"), QStringLiteral("--format"), QStringLiteral("json")},
                       QStringLiteral(PB_SOURCE_DIR "/recipes"));
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 15);
    }

    void evidenceRecipeDigest() {

        PB_NO_DATABASE_ON_POSTGRES();
        const QString file = pbtest::fixture(QStringLiteral("evidence/recipe-with-version.yaml"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QString expected[2];
        int i = 0;
        for (const char* type :
             {"https://aicr.run/recipe-evidence/v1", "https://aicr.run/recipe-evidence/v3"}) {
            Run r = proofbench({QStringLiteral("recipe"), QStringLiteral("digest"),
                                QStringLiteral("--predicate-type"), QString::fromLatin1(type), file});
            QVERIFY2(r.code == 0, r.err.constData());
            const auto version = pb::catalog::parsePredicateType(QString::fromLatin1(type));
            expected[i] = *pb::catalog::evidenceRecipeDigest(bytes, file, *version);
            // Labelled: "evidence digest sha256:<hex>", with the v1 rule named when it applies.
            const QString printed = QString::fromLatin1(r.out.trimmed());
            const QString prefix =
                QStringLiteral("evidence digest sha256:") + expected[i].section(QLatin1Char(':'), -1);
            QVERIFY2(printed.startsWith(prefix), qPrintable(printed));
            QCOMPARE(printed.contains(QLatin1String("metadata.version kept")), i == 0);
            ++i;
        }
        QVERIFY(expected[0] != expected[1]); // v3 drops metadata.version, v1 keeps it
        // The default is v3; comments and key order do not change the digest (scalar and flow styles do).
        QByteArray reordered = bytes;
        reordered.replace("# A RecipeResult", "# Another comment, same recipe");
        QTemporaryDir tmp;
        QFile g(tmp.filePath(QStringLiteral("recipe.yaml")));
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write("deploymentOrder:\n  - gpu-operator\n" +
                reordered.replace("deploymentOrder:\n  - gpu-operator\n", ""));
        g.close();
        Run d = proofbench({QStringLiteral("recipe"), QStringLiteral("digest"), g.fileName()});
        QCOMPARE(d.code, 0);
        QCOMPARE(QString::fromLatin1(d.out.trimmed()),
                 QStringLiteral("evidence digest sha256:") + expected[1].section(QLatin1Char(':'), -1));
        Run bad = proofbench({QStringLiteral("recipe"), QStringLiteral("digest"),
                              QStringLiteral("--predicate-type"), QStringLiteral("https://example.com/x/v9"),
                              file});
        QCOMPARE(bad.code, 1);
        QVERIFY(bad.err.contains("unknown predicate type"));
    }

    void allLeavesDigestsInTheGoldenFormat() {

        PB_NO_DATABASE_ON_POSTGRES();
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalog-parity/2026-08-19.partial.txt"));
        Run r =
            proofbench({QStringLiteral("recipe"), QStringLiteral("--all-leaves"), QStringLiteral("--catalog"),
                        pbtest::realCatalog(QStringLiteral("2026-08-19")), QStringLiteral("--digest"),
                        QStringLiteral("--stamp-version"), QStringLiteral("catalog-parity-golden")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 45);
        QList<QByteArray> sorted = lines;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(lines, sorted);
        QFile golden(pbtest::sharedData(QStringLiteral("aicr/catalog-parity/2026-08-19.partial.txt")));
        QVERIFY(golden.open(QIODevice::ReadOnly));
        int compared = 0;
        for (const QByteArray& line : golden.readAll().split('\n')) {
            if (line.trimmed().isEmpty() || line.startsWith('#'))
                continue;
            QVERIFY2(lines.contains(line.trimmed()), line.constData()); // same text, byte for byte
            ++compared;
        }
        QCOMPARE(compared, 23);
    }

    void graphVerb() {

        PB_NO_DATABASE_ON_POSTGRES();
        const QStringList criteria = {
            QStringLiteral("--catalog"),     pbtest::embeddedCatalogDir(QStringLiteral("sample-2")),
            QStringLiteral("--service"),     QStringLiteral("eks"),
            QStringLiteral("--accelerator"), QStringLiteral("h100"),
            QStringLiteral("--os"),          QStringLiteral("ubuntu"),
            QStringLiteral("--intent"),      QStringLiteral("training"),
            QStringLiteral("--platform"),    QStringLiteral("kubeflow")};
        Run j = proofbench(QStringList{QStringLiteral("graph")} + criteria +
                           QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(j.code == 0, j.err.constData());
        const QJsonObject g = QJsonDocument::fromJson(j.out).object();
        QVERIFY(g.value("nodes").toArray().size() > 5);
        QSet<QString> names;
        for (const QJsonValue& n : g.value("nodes").toArray())
            names.insert(n.toObject().value("name").toString());
        for (const QJsonValue& e : g.value("edges").toArray()) {
            QVERIFY(names.contains(e.toObject().value("from").toString()));
            QVERIFY(names.contains(e.toObject().value("to").toString()));
        }
        QTemporaryDir tmp;
        const QString svg = tmp.filePath(QStringLiteral("g.svg"));
        Run s = proofbench(
            QStringList{QStringLiteral("graph")} + criteria +
            QStringList{QStringLiteral("--format"), QStringLiteral("svg"), QStringLiteral("-o"), svg});
        QVERIFY2(s.code == 0, s.err.constData());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("<svg"));
        Run bad = proofbench(QStringList{QStringLiteral("graph")} + criteria +
                             QStringList{QStringLiteral("--format"), QStringLiteral("gif")});
        QCOMPARE(bad.code, 2);
    }

    void diffVerb() {
        PB_NO_DATABASE_ON_POSTGRES();
        const QString from = pbtest::embeddedCatalogDir(QStringLiteral("sample-1"));
        const QString to = pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
        const QStringList criteria = {QStringLiteral("--service"),     QStringLiteral("eks"),
                                      QStringLiteral("--accelerator"), QStringLiteral("h100"),
                                      QStringLiteral("--os"),          QStringLiteral("ubuntu"),
                                      QStringLiteral("--intent"),      QStringLiteral("training"),
                                      QStringLiteral("--platform"),    QStringLiteral("kubeflow")};
        Run j = proofbench(
            QStringList{QStringLiteral("diff"), QStringLiteral("--from"), from, QStringLiteral("--to"), to} +
            criteria + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(j.code == 0, j.err.constData());
        const QJsonObject d = QJsonDocument::fromJson(j.out).object();
        QCOMPARE(d.value("identical").toBool(), false);
        bool gpu = false;
        for (const QJsonValue& c : d.value("components").toArray())
            gpu |= c.toObject().value("name").toString() == QLatin1String("gpu-operator") &&
                   c.toObject().value("change").toString() == QLatin1String("changed") &&
                   c.toObject().value("toVersion").toString() == QLatin1String("v26.7.1");
        QVERIFY(gpu);
        // Two criteria in one version.
        Run cross = proofbench(
            QStringList{QStringLiteral("diff"), QStringLiteral("--from"), to, QStringLiteral("--to"), to} +
            criteria + QStringList{QStringLiteral("--to-accelerator"), QStringLiteral("gb200")});
        QVERIFY2(cross.code == 0, cross.err.constData());
        QVERIFY(cross.out.contains("→ eks / gb200 / ubuntu / training / kubeflow"));
        // Whole catalogs, markdown.
        Run all = proofbench({QStringLiteral("diff"), QStringLiteral("--from"), from, QStringLiteral("--to"),
                              to, QStringLiteral("--all-leaves"), QStringLiteral("--format"),
                              QStringLiteral("markdown")});
        QVERIFY2(all.code == 0, all.err.constData());
        QVERIFY(all.out.contains("| Leaf recipes | 1 | 0 |"));
        Run neither =
            proofbench({QStringLiteral("diff"), QStringLiteral("--from"), from, QStringLiteral("--to"), to});
        QCOMPARE(neither.code, 2);
    }

    // diff with a stored version on one side: the database's catalogs (diffVerb has the folders).
    void diffVerbWithStoredVersions() {
        const QString to = pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
        const QStringList criteria = {QStringLiteral("--service"),     QStringLiteral("eks"),
                                      QStringLiteral("--accelerator"), QStringLiteral("h100"),
                                      QStringLiteral("--os"),          QStringLiteral("ubuntu"),
                                      QStringLiteral("--intent"),      QStringLiteral("training"),
                                      QStringLiteral("--platform"),    QStringLiteral("kubeflow")};
        // Same catalog on both sides: exit 0 and the output says identical. Labels work as well as dirs.
        Run same = proofbench(QStringList{QStringLiteral("diff"), QStringLiteral("--db"), db(),
                                          QStringLiteral("--from"), QStringLiteral("sample-2"),
                                          QStringLiteral("--to"), to} +
                              criteria);
        QVERIFY2(same.code == 0, same.err.constData());
        QVERIFY(same.out.contains("(identical)"));
        Run missing = proofbench(QStringList{QStringLiteral("diff"), QStringLiteral("--db"), db(),
                                             QStringLiteral("--from"), QStringLiteral("no-such-version"),
                                             QStringLiteral("--to"), to} +
                                 criteria);
        QCOMPARE(missing.code, 1);
        QVERIFY(missing.err.contains("no-such-version"));
    }

    // recipe, graph and diff run ops::exportRecipe, ops::resolveRecipe and ops::diff: a folder opens
    // no database; the recipe.export receipt names what was printed (profiles one per name, the
    // last given as the resolver takes it); a diff's criteria error names the criterion, not a side.
    void recipeGraphAndDiffThroughTheOperations() {
        QTemporaryDir tmp;
        const QString dir = pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
        const QString unused = tmp.filePath(QStringLiteral("unused.sqlite"));
        const QStringList criteria = {QStringLiteral("--service"),     QStringLiteral("eks"),
                                      QStringLiteral("--accelerator"), QStringLiteral("h100"),
                                      QStringLiteral("--os"),          QStringLiteral("ubuntu"),
                                      QStringLiteral("--intent"),      QStringLiteral("training"),
                                      QStringLiteral("--platform"),    QStringLiteral("kubeflow")};
        // A folder opens no database: decided before any is opened, so the SQLite half's file shows it.
        if (!pb::test::onPostgres()) {
            Run graph = proofbench(QStringList{QStringLiteral("graph"), QStringLiteral("--db"), unused,
                                               QStringLiteral("--catalog"), dir} +
                                   criteria);
            QVERIFY2(graph.code == 0, graph.err.constData());
            Run leaves = proofbench({QStringLiteral("recipe"), QStringLiteral("--db"), unused,
                                     QStringLiteral("--all-leaves"), QStringLiteral("--catalog"), dir,
                                     QStringLiteral("--digest")});
            QVERIFY2(leaves.code == 0, leaves.err.constData());
            Run dirs = proofbench(QStringList{QStringLiteral("diff"), QStringLiteral("--db"), unused,
                                              QStringLiteral("--from"), dir, QStringLiteral("--to"), dir} +
                                  criteria);
            QVERIFY2(dirs.code == 0, dirs.err.constData());
            QVERIFY(!QFileInfo::exists(unused));
        }

        PB_TEST_DATABASE(exportDb, tmp.path(), QStringLiteral("export.sqlite"));
        const QString file = exportDb.spec();
        const QString leaf = QStringLiteral("h100-aks-ubuntu-training-kubeflow");
        Run r = proofbench({QStringLiteral("recipe"), QStringLiteral("--db"), file,
                            QStringLiteral("--catalog"), dir, QStringLiteral("--leaf"), leaf,
                            QStringLiteral("--profile"), QStringLiteral("gpuStack=no-such-value"),
                            QStringLiteral("--profile"), QStringLiteral("gpuStack=azure-managed"),
                            QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QJsonDocument::fromJson(r.out)
                    .object()
                    .value("metadata")
                    .toObject()
                    .value("appliedOverlays")
                    .toArray()
                    .contains(leaf));
        auto exports = [&] {
            Run list =
                proofbench({QStringLiteral("receipts"), QStringLiteral("list"), QStringLiteral("--kind"),
                            QStringLiteral("recipe.export"), QStringLiteral("--format"),
                            QStringLiteral("json"), QStringLiteral("--db"), file});
            return QJsonDocument::fromJson(list.out).object().value(QStringLiteral("receipts")).toArray();
        };
        QCOMPARE(exports().size(), 1);
        const QJsonObject receipt = exports().first().toObject();
        const QJsonObject params = receipt.value(QStringLiteral("parameters")).toObject();
        QCOMPARE(params.value(QStringLiteral("profiles")).toArray(),
                 QJsonArray{QStringLiteral("gpuStack=azure-managed")});
        QCOMPARE(params.value(QStringLiteral("criteria")).toObject(),
                 (QJsonObject{{QStringLiteral("leaf"), leaf}}));
        QCOMPARE(params.value(QStringLiteral("format")).toString(), QStringLiteral("json"));
        QCOMPARE(params.value(QStringLiteral("version")).toString(), QString());
        const QJsonObject output = receipt.value(QStringLiteral("outputs")).toArray().first().toObject();
        QCOMPARE(output.value(QStringLiteral("name")).toString(),
                 QStringLiteral("recipe %1 (stdout)").arg(leaf));
        QCOMPARE(output.value(QStringLiteral("sha256")).toString(),
                 QString::fromLatin1(QCryptographicHash::hash(r.out, QCryptographicHash::Sha256).toHex()));

        // Refusals write no receipt: --leaf beside criteria (usage), a leaf the catalog lacks.
        Run both = proofbench(QStringList{QStringLiteral("recipe"), QStringLiteral("--db"), file,
                                          QStringLiteral("--catalog"), dir, QStringLiteral("--leaf"), leaf} +
                              criteria);
        QCOMPARE(both.code, 2);
        Run missing =
            proofbench({QStringLiteral("recipe"), QStringLiteral("--db"), file, QStringLiteral("--catalog"),
                        dir, QStringLiteral("--leaf"), QStringLiteral("no-such-leaf")});
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.startsWith(
                     QStringLiteral("proofbench: %1: --leaf: 'no-such-leaf' is not a leaf overlay")
                         .arg(dir)
                         .toUtf8()),
                 missing.err.constData());
        QCOMPARE(exports().size(), 1);

        Run badTo = proofbench(
            QStringList{QStringLiteral("diff"), QStringLiteral("--from"), dir, QStringLiteral("--to"), dir} +
            criteria + QStringList{QStringLiteral("--to-service"), QStringLiteral("nope")});
        QCOMPARE(badTo.code, 1);
        QVERIFY2(badTo.err.startsWith("proofbench: criteria.service: invalid service 'nope' (valid: any, "),
                 badTo.err.constData());
    }

    void evidenceImportAndHealth() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/2026-08-19/recipes/evidence"));
        QTemporaryDir tmp;
        PB_TEST_DATABASE(evTestDb, tmp.path(), QStringLiteral("ev.sqlite"));
        const QString evDb = evTestDb.spec();
        const QString catalogDir = pbtest::realCatalog(QStringLiteral("2026-08-19"));
        Run cat = proofbench({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"),
                              evDb, QStringLiteral("--version"), QStringLiteral("2026-08-19"), catalogDir});
        QVERIFY2(cat.code == 0, cat.err.constData());
        Run imp = proofbench({QStringLiteral("evidence"), QStringLiteral("import"), QStringLiteral("--db"),
                              evDb, QStringLiteral("--format"), QStringLiteral("json"), catalogDir});
        QVERIFY2(imp.code == 0, imp.err.constData());
        const QJsonObject r = QJsonDocument::fromJson(imp.out).object();
        QVERIFY(r.value("pointers").toInt() >= 5);
        QCOMPARE(r.value("added").toInt(), r.value("pointers").toInt());
        Run again = proofbench(
            {QStringLiteral("evidence"), QStringLiteral("import"), QStringLiteral("--db"), evDb, catalogDir});
        QVERIFY(again.out.contains(" 0 added"));
        Run health =
            proofbench({QStringLiteral("health"), QStringLiteral("--db"), evDb, QStringLiteral("--version"),
                        QStringLiteral("2026-08-19"), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(health.code == 0, health.err.constData());
        const QJsonArray rows = QJsonDocument::fromJson(health.out).array();
        int signedRows = 0, inCatalog = 0;
        for (const QJsonValue& v : rows) {
            signedRows +=
                v.toObject().value("status").toString() == QLatin1String("signed (not verified)") ? 1 : 0;
            inCatalog += v.toObject().value("inCatalog").toBool() ? 1 : 0;
        }
        QCOMPARE(inCatalog, 45);
        QVERIFY(signedRows >= 5);
        Run csv = proofbench({QStringLiteral("health"), QStringLiteral("--db"), evDb,
                              QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(csv.code, 0);
        QVERIFY(csv.out.startsWith("recipe,service,accelerator,os,intent,platform,status"));
    }

    void evidenceCheck() {

        PB_SKIP_ON_POSTGRES("evidence check of a folder: the database takes only its receipt, which "
                            "tst_opsevidence checks on both engines");
        QTemporaryDir tmp;
        pbtest::BundleFixture f;
        const QString dir = f.writeDirectory(tmp.filePath(QStringLiteral("good")));
        Run ok = proofbench({QStringLiteral("evidence"), QStringLiteral("check"), QStringLiteral("--format"),
                             QStringLiteral("json"), dir});
        QCOMPARE(ok.code, 0);
        QCOMPARE(QJsonDocument::fromJson(ok.out).object().value("pending").toBool(), true);
        f.files[QStringLiteral("ctrf/deployment.json")].append(' ');
        const QString bad = f.writeDirectory(tmp.filePath(QStringLiteral("bad")));
        Run refused = proofbench({QStringLiteral("evidence"), QStringLiteral("check"), bad});
        QCOMPARE(refused.code, 2);
        QVERIFY(refused.out.contains("failed    manifest-hash-check"));
        QVERIFY(refused.out.contains("result: invalid (exit 2)"));
        Run missing = proofbench(
            {QStringLiteral("evidence"), QStringLiteral("check"), tmp.filePath(QStringLiteral("nowhere"))});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains("not a summary bundle"));
    }

    void verifyBundleLikeCosign() {

        PB_NO_DATABASE_ON_POSTGRES();
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/MANIFEST.tsv"));
        const QString dir = pbtest::sharedData(QStringLiteral("sigstore/cases/rekor2-dsse-happy-path"));
        pbtest::SigstoreCase c;
        for (const auto& k : pbtest::sigstoreCases())
            if (k.name == QLatin1String("rekor2-dsse-happy-path"))
                c = k;
        const QStringList base{QStringLiteral("verify"), QStringLiteral("--bundle"),
                               dir + QStringLiteral("/bundle.sigstore.json"),
                               QStringLiteral("--trusted-root"), dir + QStringLiteral("/trusted_root.json")};
        // Artifact mode, exact identity: verified, every step listed.
        Run ok =
            proofbench(base + QStringList{QStringLiteral("--artifact"), dir + QStringLiteral("/artifact"),
                                          QStringLiteral("--certificate-identity"), c.identity,
                                          QStringLiteral("--certificate-oidc-issuer"), c.issuer});
        QVERIFY2(ok.code == 0, ok.err.constData());
        QVERIFY(ok.out.contains("VERIFIED"));
        QVERIFY(ok.out.contains("[ok]   transparency log"));
        QVERIFY(ok.out.contains("[ok]   timestamps"));
        // Digest mode, regexp identity, JSON.
        Run json = proofbench(base + QStringList{QStringLiteral("--digest"), c.digest,
                                                 QStringLiteral("--certificate-identity-regexp"),
                                                 QStringLiteral("^https://github.com/sigstore-conformance/"),
                                                 QStringLiteral("--certificate-oidc-issuer-regexp"),
                                                 QStringLiteral("githubusercontent"),
                                                 QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(o.value("verified").toBool(), true);
        QCOMPARE(o.value("certificate").toObject().value("san").toString(), c.identity);
        QCOMPARE(o.value("artifactDigest").toString(), c.digest);
        // Wrong identity: exit 1, expected and found side by side.
        Run wrong =
            proofbench(base + QStringList{QStringLiteral("--artifact"), dir + QStringLiteral("/artifact"),
                                          QStringLiteral("--certificate-identity"),
                                          QStringLiteral("someone@example.com"),
                                          QStringLiteral("--certificate-oidc-issuer"), c.issuer});
        QCOMPARE(wrong.code, 1);
        QVERIFY(wrong.out.contains("expected: identity: someone@example.com"));
        QVERIFY(wrong.out.contains(("found:    identity: " + c.identity).toUtf8()));
        QVERIFY(wrong.err.contains("not verified: identity"));
        // Usage errors: exit 2.
        QCOMPARE(proofbench(base + QStringList{QStringLiteral("--certificate-identity"), c.identity}).code,
                 2);
        QCOMPARE(proofbench(base + QStringList{QStringLiteral("--digest"), QStringLiteral("sha256:12"),
                                               QStringLiteral("--certificate-identity"), c.identity,
                                               QStringLiteral("--certificate-oidc-issuer"), c.issuer})
                     .code,
                 2);
        QCOMPARE(
            proofbench(base + QStringList{QStringLiteral("--artifact"), dir + QStringLiteral("/artifact"),
                                          QStringLiteral("--certificate-identity"), c.identity})
                .code,
            2);
    }

    void verifyWithStoredTrustedRootAndRecord() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/managed-key-happy-path"));
        const QString dir = pbtest::sharedData(QStringLiteral("sigstore/cases/managed-key-happy-path"));
        const QString vdb = m_dbs.spec(QStringLiteral("verify.sqlite"));
        const QStringList args{QStringLiteral("verify"),
                               QStringLiteral("--db"),
                               vdb,
                               QStringLiteral("--bundle"),
                               dir + QStringLiteral("/bundle.sigstore.json"),
                               QStringLiteral("--key"),
                               dir + QStringLiteral("/key.pub"),
                               QStringLiteral("--record"),
                               dir + QStringLiteral("/artifact")};
        Run none = proofbench(args);
        QCOMPARE(none.code, 1);
        QVERIFY(none.err.contains("not in the trusted root")); // a key needs no root, but its log entry does
        Run imp =
            proofbench({QStringLiteral("verify"), QStringLiteral("--db"), vdb,
                        QStringLiteral("--import-trusted-root"), dir + QStringLiteral("/trusted_root.json")});
        QCOMPARE(imp.code, 0);
        Run ok = proofbench(args);
        QVERIFY2(ok.code == 0, ok.err.constData());
        QVERIFY(ok.out.contains("[skip] identity: key mode"));
        auto db = pb::db::Database::open(vdb);
        QVERIFY2(db.ok(), qPrintable(db ? QString() : db.error().toString()));
        QSqlQuery q((*db)->sql());
        QVERIFY(q.exec(QStringLiteral("SELECT verified, mode, policy FROM verifications ORDER BY id DESC")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        QCOMPARE(q.value(1).toString(), QStringLiteral("key"));
        QVERIFY(!q.value(2).toString().contains(
            QStringLiteral("BEGIN PUBLIC KEY"))); // the key's digest, not the key
    }

    void verifyBatchManifest() {

        PB_NO_DATABASE_ON_POSTGRES();
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/MANIFEST.tsv"));
        const QString manifest = pbtest::sharedData(QStringLiteral("sigstore/MANIFEST.tsv"));
        const auto cases = pbtest::sigstoreCases();
        for (const bool digest : {false, true}) {
            QStringList args{QStringLiteral("verify"), QStringLiteral("--batch"), manifest};
            if (digest)
                args << QStringLiteral("--use-digest");
            Run r = proofbench(args);
            QVERIFY2(r.code == 0, r.out.constData());
            const QList<QByteArray> lines = r.out.trimmed().split('\n');
            QCOMPARE(lines.size(), qsizetype(cases.size() + 1));
            for (size_t i = 0; i < cases.size(); ++i) {
                const QList<QByteArray> cols = lines.at(qsizetype(i)).split('\t');
                QCOMPARE(QString::fromUtf8(cols.at(1)), cases[i].name);
                QCOMPARE(QString::fromUtf8(cols.at(0)), cases[i].verdict);
            }
            QVERIFY(lines.last().contains("as expected, 0 unexpected"));
        }
        // A manifest whose expectation is wrong makes the batch fail.
        QTemporaryDir tmp;
        QDir().mkpath(tmp.filePath(QStringLiteral("cases")));
        QFile::link(pbtest::sharedData(QStringLiteral("sigstore/cases/happy-path-v0.1")),
                    tmp.filePath(QStringLiteral("cases/happy-path-v0.1")));
        QFile in(manifest);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = in.readAll().split('\n');
        QByteArray row = lines.at(1);
        row.replace("\tPASS\t", "\tFAIL\t");
        pbtest::writeBytes(tmp.filePath(QStringLiteral("MANIFEST.tsv")), lines.at(0) + '\n' + row + '\n');
        Run r = proofbench({QStringLiteral("verify"), QStringLiteral("--batch"),
                            tmp.filePath(QStringLiteral("MANIFEST.tsv"))});
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.contains("UNEXPECTED"));
    }

    void evidenceCheckVerifiesTheSignature() {

        PB_SKIP_ON_POSTGRES("evidence check of a folder: the database takes only its receipt, which "
                            "tst_opsevidence checks on both engines");
        QTemporaryDir tmp;
        pbtest::BundleFixture f;
        const QByteArray pem = f.signWithNewKey();
        pbtest::writeBytes(tmp.filePath(QStringLiteral("key.pub")), pem);
        const QString dir = f.writeDirectory(tmp.filePath(QStringLiteral("signed")));
        const QStringList base{QStringLiteral("evidence"), QStringLiteral("check"), QStringLiteral("--db"),
                               tmp.filePath(QStringLiteral("none.sqlite")), dir};
        Run unchecked = proofbench(base);
        QCOMPARE(unchecked.code, 0);
        QVERIFY(unchecked.out.contains("not checked: no trusted root"));
        Run ok =
            proofbench(base + QStringList{QStringLiteral("--key"), tmp.filePath(QStringLiteral("key.pub")),
                                          QStringLiteral("--insecure-ignore-tlog")});
        QVERIFY2(ok.code == 0, ok.out.constData());
        QVERIFY(ok.out.contains("signed with the given key"));
        pbtest::BundleFixture other;
        pbtest::writeBytes(tmp.filePath(QStringLiteral("other.pub")), other.signWithNewKey());
        Run bad =
            proofbench(base + QStringList{QStringLiteral("--key"), tmp.filePath(QStringLiteral("other.pub")),
                                          QStringLiteral("--insecure-ignore-tlog")});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.out.contains("Sigstore: signature"));
    }

    void keysSigningAndDeploymentBundles() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(keysDb, tmp.path(), QStringLiteral("keys.sqlite"));
        const QString kdb = keysDb.spec();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PB_TEST_PASS"), QStringLiteral("s3cret-pass"));
        pb::test::addPgEnvironment(env);
        auto run = [&](const QStringList& args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(PB_CLI_BINARY), args);
            p.waitForFinished(120000);
            return Run{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
        };
        const QString key = tmp.filePath(QStringLiteral("signer.key"));
        Run gen = run({QStringLiteral("keygen"), QStringLiteral("--db"), kdb, QStringLiteral("--out"), key,
                       QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS")});
        QVERIFY2(gen.code == 0, gen.err.constData());
        QVERIFY(QFileInfo(key).permissions() == (QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                 QFileDevice::ReadUser | QFileDevice::WriteUser));
        QVERIFY(!QFile(key).open(QIODevice::ReadOnly) || !pbtest::readAll(key).contains("BEGIN PRIVATE KEY"));
        // The passphrase reaches neither the database nor the output.
        QVERIFY(!pb::test::databaseContains(kdb, "s3cret-pass"));
        QVERIFY(!gen.out.contains("s3cret-pass"));
        {
            auto db = pb::db::Database::open(kdb);
            QVERIFY2(db.ok(), qPrintable(db ? QString() : db.error().toString()));
            QSqlQuery q((*db)->sql());
            QVERIFY(q.exec(QStringLiteral("SELECT fingerprint, public_pem FROM signing_keys")));
            QVERIFY(q.next());
            // Stored as the bundle hint (base64); printed in the key's one spelling, sha256:<hex>.
            QVERIFY2(gen.out.contains(pb::sigstore::fingerprintFromHint(q.value(0).toString()).toUtf8()),
                     gen.out.constData());
            QVERIFY(gen.out.contains("fingerprint: sha256:"));
            QVERIFY(!q.value(1).toString().contains(QStringLiteral("PRIVATE")));
        }
        // No passphrase source and no terminal: a clear error, nothing written.
        Run noPass =
            proofbench({QStringLiteral("sign-blob"), QStringLiteral("--key"), key, QStringLiteral("--bundle"),
                        tmp.filePath(QStringLiteral("x.json")), key + QStringLiteral(".pub")});
        QCOMPARE(noPass.code, 1);
        QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("x.json"))));

        // sign-blob -> verify --key.
        pbtest::writeBytes(tmp.filePath(QStringLiteral("blob.txt")), "blob\n");
        QCOMPARE(run({QStringLiteral("sign-blob"), QStringLiteral("--key"), key,
                      QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS"),
                      QStringLiteral("--bundle"), tmp.filePath(QStringLiteral("blob.sigstore.json")),
                      tmp.filePath(QStringLiteral("blob.txt"))})
                     .code,
                 0);
        Run ok =
            proofbench({QStringLiteral("verify"), QStringLiteral("--db"), kdb, QStringLiteral("--bundle"),
                        tmp.filePath(QStringLiteral("blob.sigstore.json")), QStringLiteral("--key"),
                        key + QStringLiteral(".pub"), QStringLiteral("--insecure-ignore-tlog"),
                        tmp.filePath(QStringLiteral("blob.txt"))});
        QVERIFY2(ok.code == 0, ok.out.constData());
        // Without --insecure-ignore-tlog a bundle with no log entry is refused, as cosign does.
        QCOMPARE(
            proofbench({QStringLiteral("verify"), QStringLiteral("--db"), kdb, QStringLiteral("--bundle"),
                        tmp.filePath(QStringLiteral("blob.sigstore.json")), QStringLiteral("--key"),
                        key + QStringLiteral(".pub"), tmp.filePath(QStringLiteral("blob.txt"))})
                .code,
            1);

        // attest -> verify --digest.
        pbtest::writeBytes(tmp.filePath(QStringLiteral("pred.json")), "{\"ok\": true}");
        const QString digest = QStringLiteral("sha256:") + pb::sha256Hex("subject");
        QCOMPARE(run({QStringLiteral("attest"), QStringLiteral("--key"), key,
                      QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS"),
                      QStringLiteral("--subject"), QStringLiteral("thing=") + digest,
                      QStringLiteral("--predicate-type"), QStringLiteral("https://example.com/t/v1"),
                      QStringLiteral("--predicate"), tmp.filePath(QStringLiteral("pred.json")),
                      QStringLiteral("--bundle"), tmp.filePath(QStringLiteral("att.json"))})
                     .code,
                 0);
        QCOMPARE(proofbench({QStringLiteral("verify"), QStringLiteral("--db"), kdb,
                             QStringLiteral("--bundle"), tmp.filePath(QStringLiteral("att.json")),
                             QStringLiteral("--key"), key + QStringLiteral(".pub"),
                             QStringLiteral("--insecure-ignore-tlog"), QStringLiteral("--digest"), digest})
                     .code,
                 0);

        // evidence sign, then evidence check with the key.
        pbtest::BundleFixture f;
        const QString bundleDir = f.writeDirectory(tmp.filePath(QStringLiteral("ev")));
        Run es = run({QStringLiteral("evidence"), QStringLiteral("sign"), QStringLiteral("--key"), key,
                      QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS"),
                      QStringLiteral("--evidence-root"), tmp.filePath(QStringLiteral("tree")), bundleDir});
        QVERIFY2(es.code == 0, es.err.constData());
        QVERIFY(es.out.contains("pointer:"));
        Run ec = proofbench({QStringLiteral("evidence"), QStringLiteral("check"), QStringLiteral("--db"), kdb,
                             QStringLiteral("--key"), key + QStringLiteral(".pub"),
                             QStringLiteral("--insecure-ignore-tlog"), bundleDir});
        QVERIFY2(ec.code == 0, ec.out.constData());

        // bundle sign / verify with a minimum trust level.
        const QString deployDir = tmp.filePath(QStringLiteral("deploy"));
        pbtest::writeBytes(deployDir + QStringLiteral("/recipe.yaml"), "kind: RecipeResult\n");
        pbtest::writeBytes(deployDir + QStringLiteral("/001-gpu-operator/values.yaml"), "a: 1\n");
        QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("sign"), QStringLiteral("--key"), key,
                      QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS"), deployDir})
                     .code,
                 0);
        const QStringList verify{QStringLiteral("bundle"),
                                 QStringLiteral("verify"),
                                 QStringLiteral("--db"),
                                 kdb,
                                 QStringLiteral("--key"),
                                 key + QStringLiteral(".pub"),
                                 QStringLiteral("--insecure-ignore-tlog"),
                                 deployDir};
        Run bv =
            proofbench(verify + QStringList{QStringLiteral("--min-trust-level"), QStringLiteral("attested")});
        QVERIFY2(bv.code == 0, bv.out.constData());
        QVERIFY(bv.out.startsWith("trust level: attested"));
        Run max = proofbench(verify + QStringList{QStringLiteral("--min-trust-level"), QStringLiteral("max"),
                                                  QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(max.code, 1);
        QCOMPARE(QJsonDocument::fromJson(max.out).object().value("trustLevel").toString(),
                 QStringLiteral("attested"));
        pbtest::writeBytes(deployDir + QStringLiteral("/001-gpu-operator/values.yaml"), "a: 2\n");
        Run changed = proofbench(verify);
        QCOMPARE(changed.code, 1);
        QVERIFY(changed.out.contains("changed     001-gpu-operator/values.yaml"));
    }

    // ---- the command line: global options, the GUI/CLI decision, the command table's help ----------

    // --db before the verb, after it, and as --db=PATH: the same database, the same answer. HOME
    // points into the temporary directory so a fall-back to the default database would show.
    void globalDbBeforeAndAfterTheVerb() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(globalDb, tmp.path(), QStringLiteral("global.sqlite"));
        const QString file = globalDb.spec(); // on PostgreSQL a URI: --db=URI keeps the '=' of its query
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), tmp.filePath(QStringLiteral("home")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), tmp.filePath(QStringLiteral("home/.local/share")));
        pb::test::addPgEnvironment(env);
        const QString dir = pbtest::embeddedCatalogDir(QStringLiteral("sample-2"));
        Run imp =
            proofbench({QStringLiteral("--db"), file, QStringLiteral("catalog"), QStringLiteral("import"),
                        QStringLiteral("--version"), QStringLiteral("global-1.0"), dir},
                       {}, env);
        QVERIFY2(imp.code == 0, imp.err.constData());
        QVERIFY(pb::test::onPostgres() || QFileInfo::exists(file));
        QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("home/.local/share/Proofbench"))));
        const QStringList list{QStringLiteral("catalog"), QStringLiteral("list"), QStringLiteral("--format"),
                               QStringLiteral("json")};
        const Run before = proofbench(QStringList{QStringLiteral("--db"), file} + list, {}, env);
        const Run after = proofbench(list + QStringList{QStringLiteral("--db"), file}, {}, env);
        const Run beforeEq = proofbench(QStringList{QStringLiteral("--db=") + file} + list, {}, env);
        const Run afterEq = proofbench(list + QStringList{QStringLiteral("--db=") + file}, {}, env);
        const Run middle =
            proofbench({QStringLiteral("catalog"), QStringLiteral("list"), QStringLiteral("--db"), file,
                        QStringLiteral("--format"), QStringLiteral("json")},
                       {}, env);
        for (const Run* r : {&before, &after, &beforeEq, &afterEq, &middle}) {
            QVERIFY2(r->code == 0, r->err.constData());
            QCOMPARE(r->out, before.out);
        }
        const QJsonArray versions = QJsonDocument::fromJson(before.out).array();
        QVERIFY(!versions.isEmpty());
        QCOMPARE(versions.last().toObject().value("version").toString(), QStringLiteral("global-1.0"));
        QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("home/.local/share/Proofbench"))));
        // The same path twice is fine; two different paths are a usage error (on PostgreSQL a URI and
        // a file: neither is opened).
        Run same = proofbench(QStringList{QStringLiteral("--db"), file} + list +
                                  QStringList{QStringLiteral("--db"), file},
                              {}, env);
        QCOMPARE(same.code, 0);
        QCOMPARE(same.out, before.out);
        Run twice =
            proofbench(QStringList{QStringLiteral("--db"), file} + list +
                           QStringList{QStringLiteral("--db"), tmp.filePath(QStringLiteral("other.sqlite"))},
                       {}, env);
        QCOMPARE(twice.code, 2);
        QVERIFY(twice.err.contains("--db"));
        QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("other.sqlite"))));
    }

    // Qt's -platform/--platform is a GUI option; after a verb it is the verb's. With no display and
    // QT_QPA_PLATFORM unset, a GUI start would fail: the recipe resolves, so no GUI was tried.
    void qtOptionsNeverSwallowAVerbsFlags() {
        PB_SKIP_ON_POSTGRES("Qt's options on the command line: the database only takes a receipt, which the "
                            "SQLite half covers");
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("platform.sqlite"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(v));
        Run r =
            proofbench({QStringLiteral("--db"), file, QStringLiteral("recipe"), QStringLiteral("--platform"),
                        QStringLiteral("kubeflow"), QStringLiteral("--catalog"),
                        pbtest::embeddedCatalogDir(QStringLiteral("sample-2")), QStringLiteral("--service"),
                        QStringLiteral("eks"), QStringLiteral("--accelerator"), QStringLiteral("h100"),
                        QStringLiteral("--os"), QStringLiteral("ubuntu"), QStringLiteral("--intent"),
                        QStringLiteral("training"), QStringLiteral("--format"), QStringLiteral("json")},
                       {}, env);
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray applied = QJsonDocument::fromJson(r.out)
                                       .object()
                                       .value("metadata")
                                       .toObject()
                                       .value("appliedOverlays")
                                       .toArray();
        QVERIFY(!applied.isEmpty());
        QCOMPARE(applied.last().toString(), QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
        // The recipe.export receipt went to the --db given before the verb.
        Run receipts =
            proofbench({QStringLiteral("receipts"), QStringLiteral("list"), QStringLiteral("--format"),
                        QStringLiteral("json"), QStringLiteral("--db"), file},
                       {}, env);
        QVERIFY2(receipts.code == 0, receipts.err.constData());
        QVERIFY(receipts.out.contains("recipe.export"));
        // The single-dash form after the verb too (the verbs read single-dash long options).
        Run single =
            proofbench({QStringLiteral("recipe"), QStringLiteral("-platform"), QStringLiteral("kubeflow"),
                        QStringLiteral("--db"), file, QStringLiteral("--catalog"),
                        pbtest::embeddedCatalogDir(QStringLiteral("sample-2")), QStringLiteral("--service"),
                        QStringLiteral("eks"), QStringLiteral("--accelerator"), QStringLiteral("h100"),
                        QStringLiteral("--os"), QStringLiteral("ubuntu"), QStringLiteral("--intent"),
                        QStringLiteral("training"), QStringLiteral("--digest")},
                       {}, env);
        QVERIFY2(single.code == 0, single.err.constData());
        const QList<QByteArray> digestLines = single.out.trimmed().split('\n');
        QCOMPARE(digestLines.size(), 2);
        QVERIFY2(digestLines[0].startsWith("evidence digest sha256:") && digestLines[0].size() == 23 + 64,
                 digestLines[0].constData());
        QVERIFY2(digestLines[1].startsWith("parity digest sha256:") && digestLines[1].size() == 21 + 64,
                 digestLines[1].constData());
        // HTML draws its charts off-screen (pb_report on a QGuiApplication): no display is needed.
        Run html = proofbench({QStringLiteral("--db"), file, QStringLiteral("report"),
                               QStringLiteral("--format"), QStringLiteral("html"), QStringLiteral("--out"),
                               tmp.filePath(QStringLiteral("review.html"))},
                              {}, env);
        QVERIFY2(html.code == 0, html.err.constData());
        QVERIFY(QFileInfo(tmp.filePath(QStringLiteral("review.html"))).size() > 0);
        QVERIFY(!html.err.contains("platform plugin"));
        // A Qt option before a verb is a usage error, not a GUI start.
        Run before =
            proofbench({QStringLiteral("-platform"), QStringLiteral("offscreen"), QStringLiteral("catalog"),
                        QStringLiteral("list"), QStringLiteral("--db"), file},
                       {}, env);
        QCOMPARE(before.code, 2);
        QVERIFY(before.err.contains("not a global option"));
    }

    // The decision itself, on the raw argv.
    void classifyDecidesOnTheRawCommandLine() {
        PB_NO_DATABASE_ON_POSTGRES();
        using pb::cli::Invocation;
        auto classify = [](const QStringList& a) {
            return pb::cli::classify(QStringList{QStringLiteral("proofbench")} + a);
        };
        QCOMPARE(classify({}).mode, Invocation::Mode::Gui);
        QCOMPARE(classify({QStringLiteral("--db"), QStringLiteral("x.db")}).mode, Invocation::Mode::Gui);
        QCOMPARE(classify({QStringLiteral("--db"), QStringLiteral("x.db")}).db, QStringLiteral("x.db"));
        QCOMPARE(
            classify({QStringLiteral("-platform"), QStringLiteral("offscreen"), QStringLiteral("--db=x.db")})
                .mode,
            Invocation::Mode::Gui);
        QCOMPARE(classify({QStringLiteral("--style"), QStringLiteral("fusion")}).mode, Invocation::Mode::Gui);
        const Invocation recipe =
            classify({QStringLiteral("--db"), QStringLiteral("x.db"), QStringLiteral("recipe"),
                      QStringLiteral("--platform"), QStringLiteral("kubeflow")});
        QCOMPARE(recipe.mode, Invocation::Mode::Cli);
        QCOMPARE(recipe.db, QStringLiteral("x.db"));
        QCOMPARE(recipe.args, (QStringList{QStringLiteral("proofbench"), QStringLiteral("recipe"),
                                           QStringLiteral("--platform"), QStringLiteral("kubeflow")}));
        QVERIFY(recipe.error.isEmpty());
        QVERIFY(!recipe.needsGui);
        const Invocation after =
            classify({QStringLiteral("health"), QStringLiteral("--db"), QStringLiteral("y.db"),
                      QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(after.db, QStringLiteral("y.db"));
        QCOMPARE(after.args, (QStringList{QStringLiteral("proofbench"), QStringLiteral("health"),
                                          QStringLiteral("--format"), QStringLiteral("csv")}));
        QCOMPARE(classify({QStringLiteral("frobnicate")}).mode, Invocation::Mode::Cli);
        QCOMPARE(classify({QStringLiteral("--help")}).mode, Invocation::Mode::Cli);
        QCOMPARE(classify({QStringLiteral("--db"), QStringLiteral("x.db"), QStringLiteral("--version")}).mode,
                 Invocation::Mode::Cli);
        // The table says which command line needs a QApplication: only a PDF report.
        for (const pb::cli::Command& c : pb::cli::commands()) {
            QStringList line{c.verb};
            if (!c.sub.isEmpty())
                line << c.sub;
            QCOMPARE(classify(line).needsGui, c.verb == QLatin1String("report")); // every report draws charts
        }
        const auto report = [&](const QStringList& a) {
            return classify(QStringList{QStringLiteral("report")} + a).needsGui;
        };
        QVERIFY(report({QStringLiteral("--out"), QStringLiteral("r.pdf")}));
        QVERIFY(report({QStringLiteral("--db"), QStringLiteral("x.db"), QStringLiteral("--format"),
                        QStringLiteral("pdf"), QStringLiteral("--out"), QStringLiteral("r")}));
        // HTML and Markdown draw their charts too (Qt Gui, off-screen); an unknown format draws nothing.
        QVERIFY(report({QStringLiteral("--format"), QStringLiteral("html"), QStringLiteral("--out"),
                        QStringLiteral("r.pdf")}));
        QVERIFY(report({QStringLiteral("--out"), QStringLiteral("r.html")}));
        QVERIFY(
            report({QStringLiteral("--format=markdown"), QStringLiteral("--out"), QStringLiteral("r.md")}));
        QVERIFY(!report({QStringLiteral("--format"), QStringLiteral("docx"), QStringLiteral("--out"),
                         QStringLiteral("r")}));
    }

    // The general help lists every command of the table; each group's help lists every sub-command.
    void helpComesFromTheCommandTable() {
        PB_NO_DATABASE_ON_POSTGRES();
        Run h = proofbench({QStringLiteral("--help")});
        QCOMPARE(h.code, 0);
        const QString help = QString::fromUtf8(h.out);
        QVERIFY(pb::cli::commands().size() > 20);
        for (const pb::cli::Command& c : pb::cli::commands()) {
            QVERIFY2(help.contains(QStringLiteral("  ") + c.name() + QStringLiteral("  ")),
                     qPrintable(c.name()));
            QVERIFY2(help.contains(c.summary), qPrintable(c.summary));
        }
        QVERIFY(help.contains("--db PATH"));
        // `help` and `--help` before the verb are the verb's help.
        Run viaHelp = proofbench({QStringLiteral("help")});
        QCOMPARE(viaHelp.out, h.out);
        for (const QString& verb : pb::cli::verbs()) {
            bool group = false;
            for (const pb::cli::Command& c : pb::cli::commands())
                group =
                    group || (c.verb == verb && !c.sub.isEmpty() && !pb::cli::findCommand(verb, QString()));
            if (!group)
                continue;
            Run g = proofbench({verb, QStringLiteral("--help")});
            QVERIFY2(g.code == 0, qPrintable(verb));
            for (const pb::cli::Command& c : pb::cli::commands())
                if (c.verb == verb)
                    QVERIFY2(g.out.contains("  " + c.sub.toUtf8() + ' ') ||
                                 g.out.contains("  " + c.sub.toUtf8() + '\n'),
                             qPrintable(c.name()));
            QCOMPARE(proofbench({QStringLiteral("help"), verb}).out, g.out);
            QCOMPARE(proofbench({QStringLiteral("--help"), verb}).out, g.out);
            Run bare = proofbench({verb});
            QCOMPARE(bare.code, 2);
            QCOMPARE(bare.out, g.out);
            Run unknown = proofbench({verb, QStringLiteral("frobnicate")});
            QCOMPARE(unknown.code, 2);
            QVERIFY(unknown.err.contains("unknown " + verb.toUtf8() + " command"));
        }
        // Spelled out for the groups whose sub-commands live in three files.
        const QString evidence =
            QString::fromUtf8(proofbench({QStringLiteral("evidence"), QStringLiteral("--help")}).out);
        for (const char* sub : {"import", "check", "sign", "fetch", "push"})
            QVERIFY2(evidence.contains(QStringLiteral("\n  %1 ").arg(QLatin1String(sub))), sub);
        const QString bundle =
            QString::fromUtf8(proofbench({QStringLiteral("bundle"), QStringLiteral("--help")}).out);
        for (const char* sub : {"sign", "verify", "push"})
            QVERIFY2(bundle.contains(QStringLiteral("\n  %1 ").arg(QLatin1String(sub))), sub);
        // A sub-command's help documents its positional argument even when its parser does not.
        Run runsShow = proofbench({QStringLiteral("runs"), QStringLiteral("show"), QStringLiteral("--help")});
        QCOMPARE(runsShow.code, 0);
        QVERIFY(runsShow.out.startsWith("Usage: proofbench runs show [options] RUN"));
        QVERIFY(runsShow.out.contains("The run's id"));
        QVERIFY(runsShow.out.contains("--log"));
    }

    void unknownVerbIsAUsageErrorNeverTheGui() {

        PB_NO_DATABASE_ON_POSTGRES();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(v));
        for (const QStringList& line :
             {QStringList{QStringLiteral("frobnicate")},
              QStringList{QStringLiteral("--db"), db(), QStringLiteral("frobnicate"),
                          QStringLiteral("--platform"), QStringLiteral("x")},
              QStringList{QStringLiteral("--db=") + db(), QStringLiteral("nothing.db")}}) {
            Run r = proofbench(line, {}, env);
            QCOMPARE(r.code, 2);
            QVERIFY(r.err.contains("unknown verb"));
            for (const QString& verb : pb::cli::verbs())
                QVERIFY2(r.err.contains(verb.toUtf8()), qPrintable(verb));
        }
        Run missing =
            proofbench({QStringLiteral("catalog"), QStringLiteral("list"), QStringLiteral("--db")}, {}, env);
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains("--db expects a database"));
    }

    void badImportFailsWithFileAndReason() {

        PB_SKIP_ON_POSTGRES("the catalog fails to load before anything is stored: the SQLite half covers it");
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("eks"), "spec:\n  criteria: {service: eks}\n  base: nowhere\n");
        Run r = proofbench({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"), db(),
                            QStringLiteral("--version"), QStringLiteral("bad"), f.write()});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("overlays/eks.yaml"));
        QVERIFY(r.err.contains("spec.base"));
        QVERIFY(r.err.contains("'nowhere'"));
        Run missing = proofbench(
            {QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"), db(), f.write()});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains("--version"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
