// The evidence operations on real trees, bundles and a database of either engine (DbFixture.h):
// ops::importEvidence keeps an empty and an over-limit pointer as invalid (with their reasons) and imports
// the rest, with one evidence.import receipt in the same transaction; the store alone writes no receipt; a
// failed receipt keeps nothing; ops::importEvidenceBundles and ops::checkEvidence leave theirs; and
// ops::exportReport writes HTML and Markdown on the engine alone (this binary does not link Qt Gui).
#include "BundleFixture.h"
#include "DbFixture.h"
#include "TestUtil.h"

#include "core/Hash.h"
#include "db/Database.h"
#include "evidence/Evidence.h"
#include "evidence/Health.h"
#include "ops/CheckEvidence.h"
#include "ops/ImportCatalog.h"
#include "ops/ImportEvidence.h"
#include "ops/ReportExport.h"
#include "receipts/Kinds.h"
#include "receipts/Ledger.h"
#include "report/Report.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

namespace {

void writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(bytes);
}

QByteArray pointerYaml(const QString& recipe, const QString& digestHex, bool withSigner) {
    QByteArray y = "attestations:\n  - attestedAt: 2026-10-01T10:00:00Z\n    bundle:\n      digest: sha256:" +
                   digestHex.toUtf8() + "\n      oci: ghcr.io/example/aicr-evidence:" + recipe.toUtf8() +
                   "\n      predicateType: https://aicr.run/recipe-evidence/v3\n";
    if (withSigner)
        y += "    signer:\n      identity: yuanchen97@gmail.com\n      issuer: "
             "https://github.com/login/oauth\n";
    return y + "recipe: " + recipe.toUtf8() + "\nschemaVersion: 1.0.0\n";
}

int receiptCount(db::Database& db, const QString& kind) {
    QSqlQuery q(db.sql());
    q.prepare(QStringLiteral("SELECT count(*) FROM receipts WHERE kind = ?"));
    q.addBindValue(kind);
    return q.exec() && q.next() ? q.value(0).toInt() : -1;
}

int scalar(db::Database& db, const QString& sql) {
    QSqlQuery q(db.sql());
    return q.exec(sql) && q.next() ? q.value(0).toInt() : -1;
}

const QString kSlug = QStringLiteral("7c4c0edc8c765a95a0f3afdb3bbb8e91");
const QString kSigned = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
const QString kPending = QStringLiteral("gb200-eks-ubuntu-inference-dynamo");
const QString kBroken = QStringLiteral("h100-gke-cos-training-kubeflow");

} // namespace

class TestOpsEvidence : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    test::Databases m_dbs{m_tmp.path()};

    std::unique_ptr<db::Database> freshDb(const QString& name) {
        auto db = m_dbs.open(name);
        if (!db)
            qFatal("%s", qPrintable(m_dbs.error()));
        if (!ops::seedEmbeddedCatalog(*db))
            qFatal("cannot seed the embedded catalog");
        return db;
    }

    // A tree with two good pointers, one empty pointer file and one over the 1 MiB limit.
    QString writeTreeWithBadPointers(const QString& name) {
        const QString root = m_tmp.filePath(name + QStringLiteral("/recipes/evidence"));
        writeFile(root + QStringLiteral("/allowlist.yaml"),
                  "community:\n  - issuer: https://github.com/login/oauth\n    source: "
                  "7c4c0edc8c765a95a0f3afdb3bbb8e91\n");
        const QString hexA(64, QLatin1Char('a')), hexB(64, QLatin1Char('b')), hexC(64, QLatin1Char('c')),
            hexD(64, QLatin1Char('d'));
        writeFile(root + QStringLiteral("/%1/%2/sha256-%3.yaml").arg(kSigned, kSlug, hexA),
                  pointerYaml(kSigned, hexA, true));
        writeFile(root + QStringLiteral("/%1.yaml").arg(kPending), pointerYaml(kPending, hexB, false));
        writeFile(root + QStringLiteral("/%1/%2/sha256-%3.yaml").arg(kBroken, kSlug, hexC), QByteArray());
        QByteArray huge = pointerYaml(kSigned, hexD, true);
        huge += "# " + QByteArray(1024 * 1024, 'x') + '\n';
        writeFile(root + QStringLiteral("/%1/%2/sha256-%3.yaml").arg(kSigned, kSlug, hexD), huge);
        return m_tmp.filePath(name);
    }

  private slots:
    void emptyAndOverLimitPointersAreKeptAsInvalid() {
        auto db = freshDb(QStringLiteral("invalid.sqlite"));
        const QString dir = writeTreeWithBadPointers(QStringLiteral("badtree"));
        const int before = scalar(*db, QStringLiteral("SELECT count(*) FROM receipts"));
        Result<ops::ImportEvidenceOutcome> out =
            ops::importEvidence(ops::Context(*db), {dir, {}, std::nullopt});
        QVERIFY2(out, out ? "" : qPrintable(out.error().toString()));
        QCOMPARE(int(out->tree.pointers.size()), 4);
        QCOMPARE(out->report.added, 4);
        QCOMPARE(out->report.invalid, 2);
        const auto invalid = out->invalidPointers();
        QCOMPARE(int(invalid.size()), 2);
        for (const evidence::Pointer* p : invalid) {
            QVERIFY2(p->file.endsWith(QString(64, QLatin1Char('c')) + QStringLiteral(".yaml")) ||
                         p->file.endsWith(QString(64, QLatin1Char('d')) + QStringLiteral(".yaml")),
                     qPrintable(p->file));
            QVERIFY2(!p->problems.isEmpty() && !p->problems.join(QString()).trimmed().isEmpty(),
                     qPrintable(p->file));
        }
        // Stored: four rows, two of them invalid with their reasons; one receipt, in the same transaction.
        QCOMPARE(scalar(*db, QStringLiteral("SELECT count(*) FROM evidence_pointers")), 4);
        QCOMPARE(
            scalar(*db, QStringLiteral(
                            "SELECT count(*) FROM evidence_pointers WHERE valid = 0 AND problems != '[]'")),
            2);
        QCOMPARE(scalar(*db, QStringLiteral("SELECT count(*) FROM receipts")), before + 1);
        QCOMPARE(receiptCount(*db, QStringLiteral("evidence.import")), 1);
        Result<receipts::Receipt> receipt = receipts::Ledger(*db).receipt(out->receiptSeq);
        QVERIFY(receipt);
        QCOMPARE(receipt->kind, QStringLiteral("evidence.import"));
        QCOMPARE(receipt->result, receipts::Outcome::Partial);
        QCOMPARE(receipt->parameters.value(QStringLiteral("pointers")).toInt(), 4);
        QCOMPARE(receipt->parameters.value(QStringLiteral("invalid")).toInt(), 2);

        // The health table and the inspector's pointer list show them with their reasons: the empty
        // pointer under the recipe its directory names (its only pointer: the row is invalid).
        store::EvidenceStore evidenceStore(*db);
        Result<std::vector<evidence::Pointer>> broken = evidenceStore.pointersFor(kBroken);
        QVERIFY(broken);
        QCOMPARE(int(broken->size()), 1);
        QVERIFY(!broken->front().isValid());
        QVERIFY(!broken->front().problems.isEmpty());
        Result<std::vector<evidence::Pointer>> signedOnes = evidenceStore.pointersFor(kSigned);
        QVERIFY(signedOnes);
        QCOMPARE(int(signedOnes->size()), 2);
        int invalidSigned = 0;
        for (const evidence::Pointer& p : *signedOnes)
            invalidSigned += p.isValid() ? 0 : 1;
        QCOMPARE(invalidSigned, 1);
        Result<store::CatalogVersionInfo> v = store::CatalogStore(*db).version(QStringLiteral("sample-2"));
        QVERIFY(v);
        Result<std::vector<evidence::HealthRow>> rows = evidenceStore.health(v->id);
        QVERIFY(rows);
        bool sawBroken = false, sawSigned = false;
        for (const evidence::HealthRow& r : *rows) {
            if (r.recipe == kBroken) {
                sawBroken = true;
                QCOMPARE(r.status, evidence::HealthStatus::Invalid);
                QCOMPARE(r.invalid, 1);
                QVERIFY(!r.reason.isEmpty());
            } else if (r.recipe == kSigned) {
                sawSigned = true;
                QCOMPARE(r.status, evidence::HealthStatus::Signed);
                QCOMPARE(r.pointers, 2);
                QCOMPARE(r.invalid, 1);
            }
        }
        QVERIFY(sawBroken && sawSigned);
        QVERIFY(evidence::healthMarkdown(*rows).contains(kBroken));

        // Again: unchanged, still one receipt per import.
        Result<ops::ImportEvidenceOutcome> again =
            ops::importEvidence(ops::Context(*db), {dir, {}, std::nullopt});
        QVERIFY(again);
        QCOMPARE(again->report.unchanged, 4);
        QCOMPARE(receiptCount(*db, QStringLiteral("evidence.import")), 2);
    }

    void storeAloneWritesNoReceiptAndAFailedReceiptKeepsNothing() {
        auto db = freshDb(QStringLiteral("noreceipt.sqlite"));
        const QString dir = writeTreeWithBadPointers(QStringLiteral("tree2"));
        Result<evidence::EvidenceTree> tree = evidence::scanEvidence(dir);
        QVERIFY(tree);
        // The store only writes the data (store ↛ receipts).
        Result<store::EvidenceImportReport> r = store::EvidenceStore(*db).importTree(*tree);
        QVERIFY(r);
        QCOMPARE(receiptCount(*db, QStringLiteral("evidence.import")), 0);

        // A receipt that cannot be written (the ledger refuses a trigger-blocked insert) rolls the
        // import back: no pointer of the new tree is kept.
        auto db2 = freshDb(QStringLiteral("blocked.sqlite"));
        const QString refused = test::refuseInserts(*db2, QStringLiteral("receipts"),
                                                    QStringLiteral("receipts blocked by the test"));
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
        Result<ops::ImportEvidenceOutcome> out =
            ops::importEvidence(ops::Context(*db2), {dir, {}, std::nullopt});
        QVERIFY(!out);
        QVERIFY2(out.error().toString().contains(QStringLiteral("receipt")),
                 qPrintable(out.error().toString()));
        QCOMPARE(scalar(*db2, QStringLiteral("SELECT count(*) FROM evidence_pointers")), 0);
        QCOMPARE(scalar(*db2, QStringLiteral("SELECT count(*) FROM evidence_summary")), 0);
    }

    void bundlesAndCheckLeaveTheirReceipts() {
        auto db = freshDb(QStringLiteral("bundles.sqlite"));
        const QString root = m_tmp.filePath(QStringLiteral("bundles"));
        pbtest::BundleFixture good(kSigned);
        const QString goodDir = good.writeDirectory(root + QStringLiteral("/a"));
        pbtest::BundleFixture bad(kPending);
        bad.files[QStringLiteral("extra.txt")] = "x";
        bad.writeDirectory(root + QStringLiteral("/c"));

        Result<ops::ImportEvidenceBundlesOutcome> imported =
            ops::importEvidenceBundles(ops::Context(*db), {root, std::nullopt});
        QVERIFY2(imported, imported ? "" : qPrintable(imported.error().toString()));
        QCOMPARE(imported->bundles(), 2);
        QCOMPARE(imported->report.invalid, 1);
        QCOMPARE(scalar(*db, QStringLiteral("SELECT count(*) FROM evidence_bundles")), 2);
        Result<receipts::Receipt> r = receipts::Ledger(*db).receipt(imported->receiptSeq);
        QVERIFY(r);
        QCOMPARE(r->kind, QStringLiteral("evidence.import-bundles"));
        QCOMPARE(r->result, receipts::Outcome::Partial);
        QCOMPARE(int(r->inputs.size()), 2);

        // evidence check: the valid bundle, then a directory that is no bundle (invalid, exit 2).
        ops::CheckEvidenceRequest check;
        check.bundle = goodDir.isEmpty() ? root + QStringLiteral("/a") : goodDir;
        Result<ops::CheckEvidenceOutcome> c = ops::checkEvidence(ops::Context(*db), check);
        QVERIFY2(c, c ? "" : qPrintable(c.error().toString()));
        QVERIFY(c->check);
        QCOMPARE(c->exitCode, c->check->exitCode);
        QVERIFY(c->exitCode == 0 || c->exitCode == 3); // unsigned: valid or incomplete, never invalid
        Result<receipts::Receipt> cr = receipts::Ledger(*db).receipt(c->receiptSeq);
        QVERIFY(cr);
        QCOMPARE(cr->kind, QStringLiteral("evidence.check"));
        QVERIFY(cr->message.contains(QStringLiteral("(exit %1)").arg(c->exitCode)));

        check.bundle = m_tmp.filePath(QStringLiteral("not-a-bundle"));
        QVERIFY(QDir().mkpath(check.bundle));
        c = ops::checkEvidence(ops::Context(*db), check);
        QVERIFY(c);
        QCOMPARE(c->exitCode, 2);
        QVERIFY(!c->check);
        QVERIFY(!c->problem.isEmpty());
        QCOMPARE(receiptCount(*db, QStringLiteral("evidence.check")), 2);

        // A trusted root that cannot be read is the caller's error (no verdict, no receipt).
        check.bundle = root + QStringLiteral("/a");
        check.trustedRoot = m_tmp.filePath(QStringLiteral("missing-root.json"));
        c = ops::checkEvidence(ops::Context(*db), check);
        QVERIFY(!c);
        QCOMPARE(receiptCount(*db, QStringLiteral("evidence.check")), 2);
    }

    void reportHtmlAndMarkdownWithoutGui() {
        // No QGuiApplication exists, and this binary does not link Qt Gui.
        QVERIFY(!QCoreApplication::instance()->inherits("QGuiApplication"));
        auto db = freshDb(QStringLiteral("report.sqlite"));
        QVERIFY(ops::importEvidence(
            ops::Context(*db), {writeTreeWithBadPointers(QStringLiteral("reporttree")), {}, std::nullopt}));
        const QString html = m_tmp.filePath(QStringLiteral("out/review.html"));
        QVERIFY(QDir().mkpath(m_tmp.filePath(QStringLiteral("out"))));
        ops::ReportExportRequest request;
        request.format = report::ReportFormat::Html;
        request.path = html;
        Result<ops::ReportExportOutcome> out = ops::exportReport(ops::Context(*db), request);
        QVERIFY2(out, out ? "" : qPrintable(out.error().toString()));
        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QCOMPARE(out->sha256, sha256Hex(bytes));
        const QString text = QString::fromUtf8(bytes);
        QVERIFY(text.contains(QStringLiteral("<h1>Release review: catalog sample-2</h1>")));
        QVERIFY(text.contains(QStringLiteral("<tr class=\"health-row\"><td>%1").arg(kBroken)));
        QVERIFY(text.contains(QStringLiteral(">invalid</font>")));
        Result<receipts::Receipt> r = receipts::Ledger(*db).receipt(out->receiptSeq);
        QVERIFY(r);
        QCOMPARE(r->kind, QStringLiteral("report.export"));
        QCOMPARE(r->parameters.value(QStringLiteral("format")).toString(), QStringLiteral("html"));
        QCOMPARE(r->outputs.front().sha256, out->sha256);
        // No staged temporaries left beside it.
        QCOMPARE(QDir(m_tmp.filePath(QStringLiteral("out"))).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("review.html")});

        request.format = report::ReportFormat::Markdown;
        request.path = m_tmp.filePath(QStringLiteral("out/review.md"));
        request.options.filter = QStringLiteral("h100");
        out = ops::exportReport(ops::Context(*db), request);
        QVERIFY2(out, out ? "" : qPrintable(out.error().toString()));
        QFile m(request.path);
        QVERIFY(m.open(QIODevice::ReadOnly));
        const QString md = QString::fromUtf8(m.readAll());
        QVERIFY(md.startsWith(QStringLiteral("# Release review: catalog sample-2")));
        const qsizetype healthAt = md.indexOf(QStringLiteral("## Health")),
                        evidenceAt = md.indexOf(QStringLiteral("## Evidence"));
        QVERIFY(healthAt > 0 && evidenceAt > healthAt);
        const QString health = md.mid(healthAt, evidenceAt - healthAt);
        QVERIFY(health.contains(QStringLiteral("| %1 |").arg(kSigned)));
        QVERIFY(!health.contains(QStringLiteral("| %1 |").arg(kPending))); // filtered out
        QVERIFY(out->chartFiles.isEmpty());
        r = receipts::Ledger(*db).receipt(out->receiptSeq);
        QVERIFY(r);
        QCOMPARE(r->parameters.value(QStringLiteral("filter")).toString(), QStringLiteral("h100"));

        // PDF needs the widgets' layout: refused here, nothing written, no receipt.
        request.format = report::ReportFormat::Pdf;
        request.path = m_tmp.filePath(QStringLiteral("out/review.pdf"));
        const int receiptsBefore = receiptCount(*db, QStringLiteral("report.export"));
        QVERIFY(!ops::exportReport(ops::Context(*db), request));
        QVERIFY(!QFileInfo::exists(request.path));
        QCOMPARE(receiptCount(*db, QStringLiteral("report.export")), receiptsBefore);
    }
    // The real CLI binary with no display at all (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM):
    // HTML and Markdown reports are written without Qt Gui; evidence import keeps the two bad
    // pointers as invalid and says why; evidence check leaves its receipt.
    void cliWithoutDisplay() {
        PB_TEST_DATABASE(cliDb, m_tmp.path(), QStringLiteral("cli.sqlite"));
        const QString dbPath = cliDb.spec();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QLatin1String(name));
        test::addPgEnvironment(env);
        struct Run {
            int code;
            QString out, err;
        };
        auto run = [&](const QStringList& args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(PB_CLI_BINARY), args);
            if (!p.waitForFinished(120000))
                return Run{-1, {}, QStringLiteral("timed out")};
            return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
                       QString::fromUtf8(p.readAllStandardOutput()),
                       QString::fromUtf8(p.readAllStandardError())};
        };
        const QString tree = writeTreeWithBadPointers(QStringLiteral("clitree"));
        Run imported =
            run({QStringLiteral("evidence"), QStringLiteral("import"), QStringLiteral("--db"), dbPath, tree});
        QVERIFY2(imported.code == 0, qPrintable(imported.err));
        QVERIFY2(imported.out.contains(QStringLiteral("4 added, 0 updated, 0 unchanged, 2 invalid")),
                 qPrintable(imported.out));
        QCOMPARE(imported.out.count(QStringLiteral("  invalid ")), 2);
        auto db = db::Database::open(dbPath);
        QVERIFY(db);
        QCOMPARE(receiptCount(**db, QStringLiteral("evidence.import")), 1);

        for (const char* format : {"markdown", "html"}) {
            const QString out = m_tmp.filePath(QStringLiteral("cli-report.%1").arg(QLatin1String(format)));
            Run r = run({QStringLiteral("report"), QStringLiteral("--db"), dbPath, QStringLiteral("--format"),
                         QLatin1String(format), QStringLiteral("--out"), out});
            QVERIFY2(
                r.code == 0,
                qPrintable(
                    QStringLiteral("%1: exit %2: %3").arg(QLatin1String(format)).arg(r.code).arg(r.err)));
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            QVERIFY(bytes.contains("Release review: catalog sample-2"));
            QVERIFY(bytes.contains(kBroken.toUtf8()));
            QVERIFY2(r.out.contains(sha256Hex(bytes)), qPrintable(r.out));
        }
        QCOMPARE(receiptCount(**db, QStringLiteral("report.export")), 2);

        pbtest::BundleFixture good(kSigned);
        const QString bundle = good.writeDirectory(m_tmp.filePath(QStringLiteral("clibundle")));
        Run checked = run(
            {QStringLiteral("evidence"), QStringLiteral("check"), QStringLiteral("--db"), dbPath, bundle});
        QVERIFY2(checked.code == 0 || checked.code == 3, qPrintable(checked.err));
        Run missing = run({QStringLiteral("evidence"), QStringLiteral("check"), QStringLiteral("--db"),
                           dbPath, m_tmp.filePath(QStringLiteral("nowhere"))});
        QCOMPARE(missing.code, 2);
        QCOMPARE(receiptCount(**db, QStringLiteral("evidence.check")), 2);
    }
};

QTEST_GUILESS_MAIN(TestOpsEvidence)
#include "tst_opsevidence.moc"
