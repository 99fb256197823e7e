// Byte-identical recipes: AICR's deterministic YAML (yaml.v3 rules) and recipe digests.
#include "CatalogFixture.h"
#include "TestUtil.h"
#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "yaml/GoYaml.h"

#include <QFile>
#include <QTest>

using namespace pb;
using namespace pb::catalog;
using pb::yaml::Node;

namespace {

// Encodes {k: v} as Go values with indent 2 and returns the text after "k:".
QByteArray goValue(const Node& v) {
    Node m = Node::map();
    m.set("k", v);
    const QByteArray out = yaml::goEncode(m);
    return out.mid(2);
}

QByteArray parsedGo(const QByteArray& doc, int indent = 2, yaml::StyleMode mode = yaml::StyleMode::GoValues) {
    Result<Node> n = yaml::parse(doc, QStringLiteral("case.yaml"));
    if (!n)
        return "PARSE ERROR: " + n.error().toString().toUtf8();
    return yaml::goEncode(*n, yaml::GoEncodeOptions{indent, true, mode});
}

} // namespace

class TestDigest : public QObject {
    Q_OBJECT
  private slots:
    // ---- serializer rules, one tiny case each -------------------------------------------------

    void stringQuoting_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QByteArray>("expected");
        QTest::addRow("version-like float string") << "24.04" << QByteArray(" \"24.04\"\n");
        QTest::addRow("comparator starts with >") << ">= 1.32.4" << QByteArray(" '>= 1.32.4'\n");
        QTest::addRow("bang tag-like string") << "!gke-no-default" << QByteArray(" '!gke-no-default'\n");
        QTest::addRow("true as string") << "true" << QByteArray(" \"true\"\n");
        QTest::addRow("yes (YAML 1.1 bool)") << "yes" << QByteArray(" \"yes\"\n");
        QTest::addRow("on (YAML 1.1 bool)") << "on" << QByteArray(" \"on\"\n");
        QTest::addRow("Off (YAML 1.1 bool)") << "Off" << QByteArray(" \"Off\"\n");
        QTest::addRow("null word") << "null" << QByteArray(" \"null\"\n");
        QTest::addRow("empty string") << "" << QByteArray(" \"\"\n");
        QTest::addRow("int-like") << "256" << QByteArray(" \"256\"\n");
        QTest::addRow("hex-like") << "0x1F" << QByteArray(" \"0x1F\"\n");
        QTest::addRow("base-60 float") << "1:20" << QByteArray(" \"1:20\"\n");
        QTest::addRow("timestamp-like") << "2026-08-19" << QByteArray(" \"2026-08-19\"\n");
        QTest::addRow("plain version") << "v26.3.3" << QByteArray(" v26.3.3\n");
        QTest::addRow("dotted triple") << "1.2.3" << QByteArray(" 1.2.3\n");
        QTest::addRow("url") << "https://helm.ngc.nvidia.com/nvidia"
                             << QByteArray(" https://helm.ngc.nvidia.com/nvidia\n");
        QTest::addRow("colon-space") << "a: b" << QByteArray(" 'a: b'\n");
        QTest::addRow("hash after space") << "x #y" << QByteArray(" 'x #y'\n");
        QTest::addRow("leading space") << " x" << QByteArray(" ' x'\n");
        QTest::addRow("single quote inside") << "it's" << QByteArray(" it's\n");
        QTest::addRow("quote needed and inner quote") << "'x'" << QByteArray(" '''x'''\n");
        QTest::addRow("tab") << "a\tb" << QByteArray(" \"a\\tb\"\n");
        QTest::addRow("unicode raw") << QString::fromUtf8("Grüße ✓") << QByteArray(" Grüße ✓\n");
        QTest::addRow("non-printable escaped") << QString::fromUtf8("a\x01"
                                                                    "b")
                                               << QByteArray(" \"a\\x01b\"\n");
        QTest::addRow("BOM escaped") << QString(QChar(0xFEFF)) + "x" << QByteArray(" \"\\uFEFFx\"\n");
        const QString longLine = QString(300, QLatin1Char('w')) + QStringLiteral(" end");
        QTest::addRow("long line not folded") << longLine << (" " + longLine.toUtf8() + "\n");
    }
    void stringQuoting() {
        QFETCH(QString, value);
        QFETCH(QByteArray, expected);
        QCOMPARE(goValue(Node::str(value.toStdString())), expected);
    }

    void typedScalars_data() {
        QTest::addColumn<QByteArray>("plain");
        QTest::addColumn<QByteArray>("expected");
        QTest::addRow("int") << QByteArray("300") << QByteArray(" 300\n");
        QTest::addRow("int with underscores") << QByteArray("1_000") << QByteArray(" 1000\n");
        QTest::addRow("hex int") << QByteArray("0x1F") << QByteArray(" 31\n");
        QTest::addRow("octal int") << QByteArray("0o17") << QByteArray(" 15\n");
        QTest::addRow("negative") << QByteArray("-7") << QByteArray(" -7\n");
        QTest::addRow("float") << QByteArray("1.50") << QByteArray(" 1.5\n");
        QTest::addRow("float integral") << QByteArray("2.0") << QByteArray(" 2\n");
        QTest::addRow("float large uses exponent") << QByteArray("1000000.0") << QByteArray(" 1e+06\n");
        QTest::addRow("float small uses exponent") << QByteArray("0.00001") << QByteArray(" 1e-05\n");
        QTest::addRow("float mid") << QByteArray("123456.5") << QByteArray(" 123456.5\n");
        QTest::addRow("inf") << QByteArray(".Inf") << QByteArray(" .inf\n");
        QTest::addRow("bool True") << QByteArray("True") << QByteArray(" true\n");
        QTest::addRow("null tilde") << QByteArray("~") << QByteArray(" null\n");
    }
    void typedScalars() {
        QFETCH(QByteArray, plain);
        QFETCH(QByteArray, expected);
        QCOMPARE(goValue(Node::plain(plain.toStdString())), expected);
    }

    void emptyCollectionsAndKeyOrder() {
        QCOMPARE(parsedGo("b: {}\na: []\nB: x\n_: z\n"), QByteArray("B: x\n_: z\na: []\nb: {}\n"));
    }

    void sequencesInsideMappings() {
        const QByteArray in = "list:\n- a\n- name: x\n  deps: [p, q]\n  sub: {k: v}\n- - nested\n";
        QCOMPARE(parsedGo(in), QByteArray("list:\n  - a\n  - deps:\n      - p\n      - q\n    name: x\n    "
                                          "sub:\n      k: v\n  - - nested\n"));
    }

    void multiLineStringsUseLiteralBlocks() {
        // one trailing newline: "|"; none: "|-"; two: "|+"; blank lines kept empty.
        QCOMPARE(goValue(Node::str("line one\n\nline two\n")), QByteArray(" |\n  line one\n\n  line two\n"));
        QCOMPARE(goValue(Node::str("a\nb")), QByteArray(" |-\n  a\n  b\n"));
        QCOMPARE(goValue(Node::str("a\n\n")), QByteArray(" |+\n  a\n\n"));
        QCOMPARE(goValue(Node::str(" indented\nx\n")), QByteArray(" |2\n   indented\n  x\n"));
        // trailing space on a line forbids the block style: double quotes instead
        QCOMPARE(goValue(Node::str("a \nb\n")), QByteArray(" \"a \\nb\\n\"\n"));
        // inside a sequence item mapping the content is indented two past the key
        Result<Node> doc =
            yaml::parse("refs:\n- name: x\n  asserts: \"l1\\nl2\\n\"\n", QStringLiteral("t.yaml"));
        QVERIFY(doc.ok());
        QCOMPARE(yaml::goEncode(*doc),
                 QByteArray("refs:\n  - asserts: |\n      l1\n      l2\n    name: x\n"));
    }

    void quotedStringsStayStringsIntsStayInts() {
        QCOMPARE(parsedGo("a: \"300\"\nb: 300\nc: '1.0'\nd: 1.0\n"),
                 QByteArray("a: \"300\"\nb: 300\nc: \"1.0\"\nd: 1\n"));
    }

    // ---- the evidence canonical form (indent 4, styles kept) ----------------------------------

    void canonicalRecipeKeepsStylesIndentsFour() {
        const QByteArray in = "# a comment\n"
                              "kind: RecipeResult\n"
                              "apiVersion: aicr.run/v1alpha2\n"
                              "metadata:\n  version: v0.23.0\n  appliedOverlays: [base, eks]\n"
                              "componentRefs:\n"
                              "  - name: gpu-operator\n"
                              "    overrides:\n      driver: {enabled: true}\n"
                              "    dependencyRefs:\n      - nfd\n"
                              "constraints:\n  - name: K8s.server.version\n    value: '>= 1.32'\n"
                              "criteria: {service: \"eks\"}\n";
        const QByteArray expectedV1 = "apiVersion: aicr.run/v1alpha2\n"
                                      "componentRefs:\n"
                                      "    - dependencyRefs:\n"
                                      "        - nfd\n"
                                      "      name: gpu-operator\n"
                                      "      overrides:\n"
                                      "        driver: {enabled: true}\n"
                                      "constraints:\n"
                                      "    - name: K8s.server.version\n"
                                      "      value: '>= 1.32'\n"
                                      "criteria: {service: \"eks\"}\n"
                                      "kind: RecipeResult\n"
                                      "metadata:\n"
                                      "    appliedOverlays: [base, eks]\n"
                                      "    version: v0.23.0\n";
        Result<QByteArray> v1 =
            canonicalizeRecipeYaml(in, QStringLiteral("recipe.yaml"), PredicateVersion::V1);
        QVERIFY(v1.ok());
        QCOMPARE(*v1, expectedV1);
        Result<QByteArray> v3 =
            canonicalizeRecipeYaml(in, QStringLiteral("recipe.yaml"), PredicateVersion::V3);
        QVERIFY(v3.ok());
        QVERIFY(!v3->contains("version: v0.23.0"));
        QVERIFY(v3->contains("metadata:\n    appliedOverlays: [base, eks]\n"));
        // Canonical bytes are a fixed point, and the digest is their sha256.
        QCOMPARE(*canonicalizeRecipeYaml(*v1, QStringLiteral("recipe.yaml"), PredicateVersion::V1), *v1);
        QCOMPARE(*evidenceRecipeDigest(in, QStringLiteral("recipe.yaml"), PredicateVersion::V1),
                 sha256Hex(*v1));
        // metadata holding only version disappears under v3.
        Result<QByteArray> onlyVersion =
            canonicalizeRecipeYaml("kind: RecipeResult\nmetadata:\n  version: dev\n",
                                   QStringLiteral("r.yaml"), PredicateVersion::V3);
        QCOMPARE(*onlyVersion, QByteArray("kind: RecipeResult\n"));
    }

    void predicateTypes() {
        QCOMPARE(*parsePredicateType(QStringLiteral("https://aicr.run/recipe-evidence/v3")),
                 PredicateVersion::V3);
        QCOMPARE(*parsePredicateType(QStringLiteral("https://aicr.nvidia.com/recipe-evidence/v1")),
                 PredicateVersion::V1);
        QCOMPARE(*parsePredicateType(QStringLiteral("v2")), PredicateVersion::V2);
        QVERIFY(!parsePredicateType(QStringLiteral("https://example.com/recipe-evidence/v3")).ok());
        QVERIFY(!parsePredicateType(QStringLiteral("v9")).ok());
    }

    // ---- AICR's own catalog-parity golden ------------------------------------------------------

    void catalogParityGolden() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalog-parity/2026-08-19.partial.txt"));
        QFile golden(pbtest::sharedData(QStringLiteral("aicr/catalog-parity/2026-08-19.partial.txt")));
        QVERIFY(golden.open(QIODevice::ReadOnly));
        QMap<QString, QString> expected;
        for (const QByteArray& line : golden.readAll().split('\n')) {
            const int colon = line.indexOf(": ");
            if (colon > 0 && !line.startsWith('#'))
                expected.insert(QString::fromUtf8(line.left(colon)),
                                QString::fromUtf8(line.mid(colon + 2)).trimmed());
        }
        QVERIFY(expected.size() >= 20);
        Result<Catalog> cat = loadCatalog(pbtest::realCatalog(QStringLiteral("2026-08-19")));
        QVERIFY(cat.ok());
        ResolveOptions opt;
        opt.builderVersion = QStringLiteral("catalog-parity-golden");
        int matched = 0;
        for (const LeafResolution& lr : resolveAllLeaves(*cat, opt)) {
            QVERIFY2(lr.result, qPrintable(lr.leaf));
            if (!expected.contains(lr.leaf))
                continue;
            QCOMPARE(lr.leaf + QStringLiteral(": ") + recipeDigest(*lr.result),
                     lr.leaf + QStringLiteral(": ") + expected.value(lr.leaf));
            ++matched;
        }
        QCOMPARE(matched, static_cast<int>(expected.size()));
    }

    void digestIgnoresNothingThatMatters() {
        // Changing one chart version changes the digest; resolving twice gives the same bytes.
        pbtest::CatalogFixture f;
        f.overlay(QStringLiteral("eks"), "spec:\n  criteria: {service: eks}\n");
        Result<Catalog> a = loadCatalog(f.write());
        QVERIFY(a.ok());
        Criteria q;
        q.service = QStringLiteral("eks");
        const QString d1 = recipeDigest(*resolve(*a, q));
        QCOMPARE(recipeDigest(*resolve(*a, q)), d1);
        f.files[QStringLiteral("registry.yaml")].replace("v25.3.0", "v25.3.1");
        Result<Catalog> b = loadCatalog(f.write());
        QVERIFY(b.ok());
        QVERIFY(recipeDigest(*resolve(*b, q)) != d1);
    }
};

QTEST_GUILESS_MAIN(TestDigest)
#include "tst_digest.moc"
