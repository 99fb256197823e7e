// ConfigHub external records: the real samples in ../shared/data/confighub (skipped when absent) and
// the project's own fixture entry (tests/fixtures/receipts/entry, made by make-fixture.py), through
// the engine and the `records` verbs.
#include "DbTestUtil.h"
#include "SigstoreCases.h"
#include "TestUtil.h"
#include "core/Hash.h"
#include "db/Database.h"
#include "ops/RecordsImport.h"
#include "receipts/Ledger.h"
#include "receipts/Records.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using namespace pb::receipts;

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run proofbench(const QStringList& args) {
    QProcess p;
    p.setProcessEnvironment(pbtest::cliEnvironment());
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    if (!p.waitForFinished(120000))
        return {};
    return Run{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

const QString kV100 = QStringLiteral("confighub/examples/aicr/eks-h100-training-kubeflow-v1-0-0");
const QString kV020 = QStringLiteral("confighub/examples/aicr/eks-h100-training-kubeflow-v0-20-0");

QJsonObject readJson(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

// Copies a directory tree (so a test can change a byte without touching the shared samples).
void copyTree(const QString& from, const QString& to) {
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString src = it.next();
        const QString dst = to + QLatin1Char('/') + QDir(from).relativeFilePath(src);
        QDir().mkpath(QFileInfo(dst).path());
        QVERIFY(QFile::copy(src, dst));
        QFile(dst).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
}

void flipByte(const QString& path, qsizetype at) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QByteArray b = f.readAll();
    b[at] = b[at] == 'a' ? 'b' : 'a';
    f.seek(0);
    f.write(b);
}

const RecordCheck* findCheck(const RecordsReport& r, const QString& check, const QString& fileEnd = {}) {
    for (const RecordCheck& c : r.checks)
        if (c.check == check && (fileEnd.isEmpty() || c.file.endsWith(fileEnd)))
            return &c;
    return nullptr;
}

} // namespace

class TestRecords : public QObject {
    Q_OBJECT

  private slots:
    void realDigestIndexesRecomputeToTheirPlatformDigests_data() {
        QTest::addColumn<QString>("index");
        QTest::addColumn<QString>("digest");
        QTest::addRow("v1.0.0")
            << kV100 + QStringLiteral("/digest-index/platform-index.json")
            << QStringLiteral("sha256:b05bba571afb8d0aaf3fd4182f195569ff0dde97533bf3381627dd94f68727f8");
        QTest::addRow("v0.20.0")
            << kV020 + QStringLiteral("/digest-index/platform-index.json")
            << QStringLiteral("sha256:969e73550ef853489c201d336701ba6a3d53224bb899ae0a75dce31ce60f1241");
    }
    void realDigestIndexesRecomputeToTheirPlatformDigests() {
        QFETCH(QString, index);
        QFETCH(QString, digest);
        PB_REQUIRE_SHARED(index);
        const QJsonObject doc = readJson(pbtest::sharedData(index));
        QCOMPARE(
            doc.value(QStringLiteral("spec")).toObject().value(QStringLiteral("platformDigest")).toString(),
            digest);
        QCOMPARE(platformDigest(doc), digest);
        // One member changed: another digest.
        QJsonObject spec = doc.value(QStringLiteral("spec")).toObject();
        QJsonArray members = spec.value(QStringLiteral("members")).toArray();
        QJsonObject m = members.at(1).toObject();
        m.insert(QStringLiteral("syncWave"), m.value(QStringLiteral("syncWave")).toInt() + 1);
        members.replace(1, m);
        spec.insert(QStringLiteral("members"), members);
        QJsonObject changed = doc;
        changed.insert(QStringLiteral("spec"), spec);
        QVERIFY(platformDigest(changed) != digest);
    }

    void realSamplesParseWithTheirFields() {
        PB_REQUIRE_SHARED(QStringLiteral("confighub/examples"));
        auto report = readRecords(pbtest::sharedData(QStringLiteral("confighub")));
        QVERIFY2(report.ok(), report.ok() ? "" : qPrintable(report.error().toString()));
        for (const Error& e : report->problems)
            qWarning() << e.toString();
        QVERIFY(report->problems.empty());
        QMap<QString, const ExternalRecord*> byFile;
        for (const ExternalRecord& r : report->records)
            byFile.insert(r.relative, &r);
        const QString e100 = QStringLiteral("examples/aicr/eks-h100-training-kubeflow-v1-0-0/");
        const QString e020 = QStringLiteral("examples/aicr/eks-h100-training-kubeflow-v0-20-0/");
        struct Expect {
            QString file, kind, field, value;
        };
        const Expect expected[] = {
            {e100 + QStringLiteral("generation-receipt.yaml"), QStringLiteral("SourceGenerationReceipt"),
             QStringLiteral("spec.source.commit"),
             QStringLiteral("82bccef69855c70e151f8b5e6ed9d04d70a30f81")},
            {e100 + QStringLiteral("argocd-oci-receipt.yaml"), QStringLiteral("OciArtifactReceipt"),
             QStringLiteral("spec.artifacts.literalConfiguration.digest"),
             QStringLiteral("sha256:631dba7ef35a676eafa1590f11149c4bae02867af046dba36dc1dcfd5c9edc19")},
            {e100 + QStringLiteral("route-intent.yaml"), QStringLiteral("PlatformRouteIntent"),
             QStringLiteral("status.routesExecuted"), QStringLiteral("false")},
            {e100 + QStringLiteral("field-policy-assessment.yaml"),
             QStringLiteral("SourceFieldPolicyAssessment"), QStringLiteral("status.configPlaneOnly"),
             QStringLiteral("true")},
            {e100 + QStringLiteral("flattening-safety-verdict.yaml"),
             QStringLiteral("FlatteningSafetyVerdict"), QStringLiteral("spec.verdict.lane"),
             QStringLiteral("flatten-with-routes")},
            {e100 + QStringLiteral("source-catalog/source-catalog-record.yaml"),
             QStringLiteral("SourceCatalogRecord"), QStringLiteral("spec.selection.name"),
             QStringLiteral("h100-eks-ubuntu-training-kubeflow")},
            {e100 + QStringLiteral("digest-index/platform-index.json"),
             QStringLiteral("AICRPlatformDigestIndex"), QStringLiteral("members"), QStringLiteral("17")},
            {e020 + QStringLiteral("public-oci-receipt.yaml"), QStringLiteral("PublicOciReceipt"),
             QStringLiteral("spec.artifacts.sourcePackage.digest"),
             QStringLiteral("sha256:2eedf6b36ea2cfab828245e38f72b7ed344915b6695c6a56d92a744d25992431")},
            {e020 + QStringLiteral("confighub-upload-receipt.yaml"), QStringLiteral("ConfigHubUploadReceipt"),
             QStringLiteral("status.result"), QStringLiteral("partial")},
            {e020 + QStringLiteral("confighub-release-oci-receipt.yaml"),
             QStringLiteral("ConfigHubReleaseOciReceipt"), QStringLiteral("status.result"),
             QStringLiteral("pass")},
            {QStringLiteral("runs/aicr-provenance-v1-0-0/receipt.yaml"),
             QStringLiteral("AicrUpstreamProvenanceReceipt"), QStringLiteral("spec.upstream.archiveSha256"),
             QStringLiteral("cb85cce54a82deb88e826c3e735c26e11a0863173b8aa5ff3ba4ebc2dc6af8b2")},
        };
        for (const Expect& x : expected) {
            QVERIFY2(byFile.contains(x.file), qPrintable(x.file));
            const ExternalRecord* r = byFile.value(x.file);
            QCOMPARE(r->kind, x.kind);
            QVERIFY(!r->name.isEmpty());
            const QJsonValue v = r->fields.value(x.field);
            const QString text = v.isBool() ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                                 : v.isDouble() ? QString::number(v.toInt())
                                                : v.toString();
            QCOMPARE(text, x.value);
        }
        // Every digest-index and shared-digest check that compares two recorded values passes.
        QCOMPARE(report->failed(), 0);
        const RecordCheck* pd = findCheck(*report, QStringLiteral("digest-index.platform-digest"),
                                          QStringLiteral("v1-0-0/digest-index/platform-index.json"));
        QVERIFY(pd);
        QCOMPARE(pd->verdict, Verdict::Pass);
        QCOMPARE(pd->actual,
                 QStringLiteral("sha256:b05bba571afb8d0aaf3fd4182f195569ff0dde97533bf3381627dd94f68727f8"));
        int payloads = 0;
        for (const RecordCheck& c : report->checks)
            payloads += c.check == QLatin1String("digest-index.payload") && c.verdict == Verdict::Pass;
        QCOMPARE(payloads, 4); // the four retained payloads
        const RecordCheck* source = findCheck(*report, QStringLiteral("digest-index.source"));
        QVERIFY(source);
        QCOMPARE(source->verdict, Verdict::Pass);
        const RecordCheck* rendered =
            findCheck(*report, QStringLiteral("checksums"), QStringLiteral("argocd-rendered/checksums.txt"));
        QVERIFY(rendered);
        QCOMPARE(rendered->verdict,
                 Verdict::Incomplete); // 3 of 17 Applications were retained, and they match
        // The provenance receipt shares the archive digest with the generation receipt.
        bool archiveShared = false;
        for (const RecordCheck& c : report->checks)
            archiveShared |= c.file.startsWith(QLatin1String("runs/")) &&
                             c.detail.contains(QLatin1String("archiveSha256")) && c.verdict == Verdict::Pass;
        QVERIFY(archiveShared);
        // Stage table of v1.0.0: generated and verified, nothing published or delivered.
        QMap<QString, StageResult> stages;
        for (const StageRow& s : report->stages)
            if (s.entry.endsWith(QLatin1String("v1-0-0")))
                stages.insert(s.stage, s.result);
        QCOMPARE(stages.value(QStringLiteral("Select the AICR source variant")), StageResult::Complete);
        QCOMPARE(stages.value(QStringLiteral("Verify the upstream source")), StageResult::Complete);
        QCOMPARE(stages.value(QStringLiteral("Generate the wrapper and exact Applications")),
                 StageResult::Complete);
        QCOMPARE(stages.value(QStringLiteral("Publish source and literal configuration OCI")),
                 StageResult::NotRun);
        QCOMPARE(stages.value(QStringLiteral("Deliver through Argo CD or Flux")), StageResult::NotRun);
        QCOMPARE(stages.value(QStringLiteral("Run on the target cluster and GPUs")), StageResult::NotRun);
        // v0.20.0 has its later receipts: published, uploaded (partial), released.
        QMap<QString, StageResult> old;
        for (const StageRow& s : report->stages)
            if (s.entry.endsWith(QLatin1String("v0-20-0")))
                old.insert(s.stage, s.result);
        QCOMPARE(old.value(QStringLiteral("Publish source and literal configuration OCI")),
                 StageResult::Complete);
        QCOMPARE(old.value(QStringLiteral("Retain a ConfigHub base and create derived variants")),
                 StageResult::Partial);
        QCOMPARE(old.value(QStringLiteral("Promote and publish a ConfigHub release OCI")),
                 StageResult::Complete);
    }

    void changedPayloadByteIsReportedByFile() {
        PB_REQUIRE_SHARED(kV100);
        QTemporaryDir tmp;
        copyTree(pbtest::sharedData(QStringLiteral("confighub")), tmp.path());
        const QString payload = tmp.filePath(QStringLiteral(
            "examples/aicr/eks-h100-training-kubeflow-v1-0-0/digest-index/payloads/"
            "gpu-operator-5acb1a1421b7e8003953c7802eb23e435f0a80acc37e8e6cbf148297909e6096.json"));
        flipByte(payload, 40);
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.sqlite"));
        auto report = readRecords(tmp.path());
        QVERIFY(report.ok());
        QVERIFY(!report->ok());
        const RecordCheck* c = findCheck(
            *report, QStringLiteral("digest-index.payload"),
            QStringLiteral(
                "gpu-operator-5acb1a1421b7e8003953c7802eb23e435f0a80acc37e8e6cbf148297909e6096.json"));
        QVERIFY(c);
        QCOMPARE(c->verdict, Verdict::Fail);
        QVERIFY(c->detail.contains(QStringLiteral("gpu-operator-5acb1a14")));
        QCOMPARE(c->expected,
                 QStringLiteral("5acb1a1421b7e8003953c7802eb23e435f0a80acc37e8e6cbf148297909e6096"));
        QCOMPARE(c->actual, sha256Hex(pbtest::readAll(payload)));
        // The digest index's own checksums.txt says the same, naming the file.
        const RecordCheck* row = findCheck(
            *report, QStringLiteral("checksums"),
            QStringLiteral(
                "payloads/"
                "gpu-operator-5acb1a1421b7e8003953c7802eb23e435f0a80acc37e8e6cbf148297909e6096.json"));
        QVERIFY(row);
        QCOMPARE(row->verdict, Verdict::Fail);
        // Through the CLI: exit 1, the file named on stderr and in the JSON.
        Run r = proofbench({QStringLiteral("records"), QStringLiteral("check"), tmp.path(),
                            QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--db"),
                            testDb.spec()});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains(
            "gpu-operator-5acb1a1421b7e8003953c7802eb23e435f0a80acc37e8e6cbf148297909e6096.json"));
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("ok")).toBool(), false);
    }

    void fixtureEntryHasEveryKindAndPasses() {
        const QString dir = pbtest::fixture(QStringLiteral("receipts/entry"));
        auto report = readRecords(dir);
        QVERIFY(report.ok());
        for (const Error& e : report->problems)
            qWarning() << e.toString();
        QVERIFY(report->problems.empty());
        QStringList kinds;
        for (const ExternalRecord& r : report->records)
            kinds << r.kind;
        kinds.sort();
        QCOMPARE(
            kinds,
            (QStringList{
                QStringLiteral("AICRPlatformDigestIndex"), QStringLiteral("AicrUpstreamProvenanceReceipt"),
                QStringLiteral("ConfigHubReleaseOciReceipt"), QStringLiteral("ConfigHubUploadReceipt"),
                QStringLiteral("FlatteningSafetyVerdict"), QStringLiteral("OciArtifactReceipt"),
                QStringLiteral("PlatformRouteIntent"), QStringLiteral("PublicOciReceipt"),
                QStringLiteral("SourceCatalogRecord"), QStringLiteral("SourceFieldPolicyAssessment"),
                QStringLiteral("SourceGenerationReceipt")}));
        for (const RecordCheck& c : report->checks)
            QVERIFY2(c.verdict != Verdict::Fail, qPrintable(c.file + QStringLiteral(": ") + c.detail));
        // Every kind of comparison ran and passed at least once.
        for (const char* check :
             {"digest-index.platform-digest", "digest-index.payload", "digest-index.payload-form",
              "digest-index.source", "digest-index.criteria", "shared-digest", "oci-layout", "checksums"}) {
            bool passed = false;
            for (const RecordCheck& c : report->checks)
                passed |= c.check == QLatin1String(check) && c.verdict == Verdict::Pass;
            QVERIFY2(passed, check);
        }
        QMap<QString, StageRow> stages;
        for (const StageRow& s : report->stages)
            stages.insert(s.stage, s);
        QCOMPARE(stages.size(), 9);
        QCOMPARE(stages.value(QStringLiteral("Verify the upstream source")).result,
                 StageResult::Complete); // the provenance receipt
        QVERIFY(stages.value(QStringLiteral("Verify the upstream source"))
                    .record.startsWith(QLatin1String("runs/")));
        QCOMPARE(stages.value(QStringLiteral("Publish source and literal configuration OCI")).result,
                 StageResult::Complete);
        QVERIFY(stages.value(QStringLiteral("Publish source and literal configuration OCI"))
                    .record.endsWith(QLatin1String("public-oci-receipt.yaml")));
        QCOMPARE(stages.value(QStringLiteral("Resolve all nested chart objects and lifecycle work")).result,
                 StageResult::Partial);
        QCOMPARE(stages.value(QStringLiteral("Retain a ConfigHub base and create derived variants")).result,
                 StageResult::Partial);
        QCOMPARE(stages.value(QStringLiteral("Promote and publish a ConfigHub release OCI")).result,
                 StageResult::NotRun);
        QCOMPARE(stages.value(QStringLiteral("Run on the target cluster and GPUs")).detail,
                 QStringLiteral("status.demoRuntime: not-run"));
    }

    void fixtureTamperingFailsTheRightCheck_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("check");
        const QString e = QStringLiteral("examples/aicr/demo-v9-9-9/");
        QTest::addRow("platform digest")
            << e + QStringLiteral("digest-index/platform-index.json") << QStringLiteral("\"syncWave\": 9")
            << QStringLiteral("\"syncWave\": 8") << QStringLiteral("digest-index.platform-digest");
        QTest::addRow("rendered application")
            << e + QStringLiteral("argocd-rendered/templates/gpu-operator.yaml") << QStringLiteral("26.7.1")
            << QStringLiteral("26.7.2") << QStringLiteral("checksums");
        QTest::addRow("oci receipt digest")
            << e + QStringLiteral("argocd-oci-receipt.yaml") << QStringLiteral("portableDigest: sha256:1111")
            << QStringLiteral("portableDigest: sha256:2111") << QStringLiteral("shared-digest");
        QTest::addRow("flattening verdict")
            << e + QStringLiteral("flattening-safety-verdict.yaml")
            << QStringLiteral("platformDigest: sha256:") << QStringLiteral("platformDigest: sha256:0")
            << QStringLiteral("shared-digest");
        QTest::addRow("criteria") << e + QStringLiteral("generation-receipt.yaml")
                                  << QStringLiteral("intent: training") << QStringLiteral("intent: inference")
                                  << QStringLiteral("digest-index.criteria");
    }
    void fixtureTamperingFailsTheRightCheck() {
        QFETCH(QString, file);
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, check);
        QTemporaryDir tmp;
        copyTree(pbtest::fixture(QStringLiteral("receipts/entry")), tmp.path());
        const QString path = tmp.filePath(file);
        QByteArray bytes = pbtest::readAll(path);
        QVERIFY(bytes.contains(from.toUtf8()));
        bytes.replace(from.toUtf8(), to.toUtf8());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();
        auto report = readRecords(tmp.path());
        QVERIFY(report.ok());
        QVERIFY(!report->ok());
        bool named = false;
        for (const RecordCheck& c : report->checks)
            named |= c.verdict == Verdict::Fail && c.check == check;
        QVERIFY2(named, qPrintable(QString::fromUtf8(report->toText().toUtf8())));
    }

    void missingFieldNamesFileLineAndField() {
        QTemporaryDir tmp;
        QDir().mkpath(tmp.filePath(QStringLiteral("e")));
        QFile f(tmp.filePath(QStringLiteral("e/public-oci-receipt.yaml")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: catalog.confighub.com/v1alpha1\nkind: PublicOciReceipt\nmetadata:\n  name: "
                "x\nspec:\n  artifacts:\n"
                "    sourcePackage:\n      digest: sha256:00\n    literalConfiguration:\n      reference: "
                "oci://x\nstatus:\n  result: pass\n");
        f.close();
        QFile broken(tmp.filePath(QStringLiteral("e/generation-receipt.yaml")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("apiVersion: v1\nkind: SourceGenerationReceipt\nmetadata: {name: [unclosed\n");
        broken.close();
        auto report = readRecords(tmp.path());
        QVERIFY(report.ok());
        QCOMPARE(report->problems.size(), size_t(2));
        const Error* missing = nullptr;
        for (const Error& e : report->problems)
            if (e.file == QLatin1String("e/public-oci-receipt.yaml"))
                missing = &e;
        QVERIFY(missing);
        QCOMPARE(missing->field, QStringLiteral("spec.artifacts.literalConfiguration.digest"));
        QCOMPARE(missing->line, 10);
        QVERIFY(report->problems.front().toString().startsWith(QLatin1String("e/generation-receipt.yaml:")));
        // An import refuses such a directory and changes nothing but its (failed) receipt.
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.sqlite"));
        auto db = db::Database::open(testDb.spec());
        QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
        QVERIFY(!ops::importRecords(ops::Context(**db), ops::RecordsImportRequest{tmp.path()}).ok());
        QSqlQuery q((*db)->sql());
        QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM external_records")) && q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        auto rows = Ledger(**db).list();
        QVERIFY(rows.ok());
        QCOMPARE(rows->size(), size_t(1));
        QCOMPARE(rows->front().result, Outcome::Failed);
    }

    void importIsTransactionalAndIdempotent() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.sqlite"));
        const QString db = testDb.spec();
        const QString dir = pbtest::fixture(QStringLiteral("receipts/entry"));
        Run first =
            proofbench({QStringLiteral("records"), QStringLiteral("import"), dir, QStringLiteral("--format"),
                        QStringLiteral("json"), QStringLiteral("--db"), db});
        QVERIFY2(first.code == 0, first.err.constData());
        const QJsonObject a = QJsonDocument::fromJson(first.out).object();
        QCOMPARE(a.value(QStringLiteral("added")).toInt(), 11);
        Run again =
            proofbench({QStringLiteral("records"), QStringLiteral("import"), dir, QStringLiteral("--format"),
                        QStringLiteral("json"), QStringLiteral("--db"), db});
        const QJsonObject b = QJsonDocument::fromJson(again.out).object();
        QCOMPARE(b.value(QStringLiteral("added")).toInt(), 0);
        QCOMPARE(b.value(QStringLiteral("unchanged")).toInt(), 11);
        auto handle = db::Database::open(db);
        QVERIFY(handle.ok());
        auto stored = storedRecords(**handle);
        QVERIFY(stored.ok());
        QCOMPARE(stored->size(), size_t(11));
        QCOMPARE(stageTable(QStringLiteral("examples/aicr/demo-v9-9-9"), *stored).size(), size_t(9));
        auto receipts =
            Ledger(**handle).list(ListFilter{QStringLiteral("records.import"), std::nullopt, {}, {}, 0});
        QVERIFY(receipts.ok());
        QCOMPARE(receipts->size(), size_t(2));
        QCOMPARE(receipts->front().inputs.size(), size_t(11));
        // check and stages through the CLI.
        Run check =
            proofbench({QStringLiteral("records"), QStringLiteral("check"), dir, QStringLiteral("--db"), db});
        QVERIFY2(check.code == 0, check.out.constData());
        QVERIFY(check.out.contains("AICRPlatformDigestIndex"));
        Run stages =
            proofbench({QStringLiteral("records"), QStringLiteral("stages"), dir, QStringLiteral("--format"),
                        QStringLiteral("json"), QStringLiteral("--db"), db});
        QCOMPARE(stages.code, 0);
        QCOMPARE(
            QJsonDocument::fromJson(stages.out).object().value(QStringLiteral("stages")).toArray().size(), 9);
    }
};

QTEST_GUILESS_MAIN(TestRecords)
#include "tst_records.moc"
