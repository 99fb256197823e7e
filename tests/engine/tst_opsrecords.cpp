// Issue 17: records check, records import and receipts export are one operation each. Each runs
// once through the CLI binary and once as the window calls it (ops::Async, a worker with its own
// connection) on a second database; the outcome and the receipt (kind, parameters, result,
// message, inputs, outputs) must be the same.
#include "DbTestUtil.h"
#include "TestUtil.h"

#include "db/Database.h"
#include "ops/Async.h"
#include "ops/ReceiptsExport.h"
#include "ops/ReceiptsVerify.h"
#include "ops/RecordsCheck.h"
#include "ops/RecordsImport.h"
#include "receipts/Canonical.h"
#include "receipts/Kinds.h"
#include "receipts/Ledger.h"
#include "receipts/Records.h"
#include "sigstore/Keys.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run proofbench(const QStringList& args) {
    QProcess p;
    p.setProcessEnvironment(pbtest::cliEnvironment());
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    Run r;
    if (!p.waitForFinished(120000))
        return r;
    r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QJsonObject comparable(const receipts::Receipt& r) {
    QJsonObject o = r.toJson();
    for (const char* k : {"seq", "time", "prev", "hash", "version"})
        o.remove(QLatin1String(k));
    return o;
}

std::optional<receipts::Receipt> lastOfKind(const QString& dbPath, QLatin1StringView kind) {
    auto db = db::Database::open(dbPath);
    if (!db)
        return std::nullopt;
    auto rows = receipts::Ledger(**db).list(receipts::ListFilter{QString(kind), std::nullopt, {}, {}, 0});
    if (!rows || rows->empty())
        return std::nullopt;
    return rows->back();
}

template <typename T, typename Fn> Result<T> viaAsync(const QString& dbPath, Fn fn) {
    ops::Async async(dbPath, 1);
    ops::Job<T> job = async.run<T>(std::move(fn));
    job.future.waitForFinished();
    return job.future.result();
}

QString canonical(const QJsonObject& o) {
    return QString::fromUtf8(receipts::canonicalJson(o));
}

void writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

// A records directory one of whose files lacks a required field (a problem) and one that does not parse.
void writeBrokenRecords(const QString& dir) {
    QDir().mkpath(dir + QStringLiteral("/e"));
    writeBytes(dir + QStringLiteral("/e/public-oci-receipt.yaml"),
               "apiVersion: catalog.confighub.com/v1alpha1\nkind: PublicOciReceipt\nmetadata:\n  name: "
               "x\nspec:\n  artifacts:\n"
               "    sourcePackage:\n      digest: sha256:00\n    literalConfiguration:\n      reference: "
               "oci://x\nstatus:\n  result: pass\n");
    writeBytes(dir + QStringLiteral("/e/generation-receipt.yaml"),
               "apiVersion: v1\nkind: SourceGenerationReceipt\nmetadata: {name: [unclosed\n");
}

} // namespace

class TestOpsRecords : public QObject {
    Q_OBJECT
  private slots:
    void recordsCheckCliAndWindowAlike_data() {
        QTest::addColumn<bool>("broken");
        QTest::addRow("fixture entry") << false;
        QTest::addRow("broken records") << true;
    }
    void recordsCheckCliAndWindowAlike() {
        QFETCH(bool, broken);
        QTemporaryDir tmp;
        QString dir = pbtest::fixture(QStringLiteral("receipts/entry"));
        if (broken) {
            dir = tmp.filePath(QStringLiteral("records"));
            writeBrokenRecords(dir);
        }
        PB_TEST_DATABASE(cliTestDb, tmp.path(), QStringLiteral("cli.sqlite"));
        PB_TEST_DATABASE(guiTestDb, tmp.path(), QStringLiteral("gui.sqlite"));
        const QString cliDb = cliTestDb.spec(), guiDb = guiTestDb.spec();
        Run cli = proofbench({QStringLiteral("records"), QStringLiteral("check"), dir, QStringLiteral("--db"),
                              cliDb, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(cli.code, broken ? 1 : 0);
        Result<receipts::RecordsReport> gui =
            viaAsync<receipts::RecordsReport>(guiDb, [dir](ops::Context& ctx) {
                return ops::checkRecords(ctx, ops::RecordsCheckRequest{dir});
            });
        QVERIFY2(gui, gui ? "" : qPrintable(gui.error().toString()));
        QCOMPARE(gui->ok(), !broken);
        // The same report, field by field, as the CLI printed it.
        QCOMPARE(canonical(gui->toJson()), canonical(QJsonDocument::fromJson(cli.out).object()));
        std::optional<receipts::Receipt> a = lastOfKind(cliDb, receipts::kinds::RecordsCheck);
        std::optional<receipts::Receipt> b = lastOfKind(guiDb, receipts::kinds::RecordsCheck);
        QVERIFY(a && b);
        QCOMPARE(canonical(comparable(*b)), canonical(comparable(*a)));
        QCOMPARE(a->result, broken ? receipts::Outcome::Failed : receipts::Outcome::Ok);
        QCOMPARE(a->inputs.size(), gui->records.size());
    }

    void recordsImportCliAndWindowAlike() {
        QTemporaryDir tmp;
        const QString dir = pbtest::fixture(QStringLiteral("receipts/entry"));
        PB_TEST_DATABASE(cliTestDb, tmp.path(), QStringLiteral("cli.sqlite"));
        PB_TEST_DATABASE(guiTestDb, tmp.path(), QStringLiteral("gui.sqlite"));
        const QString cliDb = cliTestDb.spec(), guiDb = guiTestDb.spec();
        Run cli =
            proofbench({QStringLiteral("records"), QStringLiteral("import"), dir, QStringLiteral("--db"),
                        cliDb, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(cli.code == 0, cli.err.constData());
        Result<receipts::RecordsImport> gui =
            viaAsync<receipts::RecordsImport>(guiDb, [dir](ops::Context& ctx) {
                return ops::importRecords(ctx, ops::RecordsImportRequest{dir});
            });
        QVERIFY2(gui, gui ? "" : qPrintable(gui.error().toString()));
        const QJsonObject c = QJsonDocument::fromJson(cli.out).object();
        QCOMPARE(c.value(QStringLiteral("added")).toInt(), gui->added);
        QCOMPARE(c.value(QStringLiteral("records")).toInt(), int(gui->report.records.size()));
        std::optional<receipts::Receipt> a = lastOfKind(cliDb, receipts::kinds::RecordsImport);
        std::optional<receipts::Receipt> b = lastOfKind(guiDb, receipts::kinds::RecordsImport);
        QVERIFY(a && b);
        QCOMPARE(canonical(comparable(*b)), canonical(comparable(*a)));

        // A directory that does not parse: refused by both, with the same failed receipt, nothing stored.
        const QString bad = tmp.filePath(QStringLiteral("bad"));
        writeBrokenRecords(bad);
        Run refused = proofbench(
            {QStringLiteral("records"), QStringLiteral("import"), bad, QStringLiteral("--db"), cliDb});
        QCOMPARE(refused.code, 1);
        Result<receipts::RecordsImport> guiRefused =
            viaAsync<receipts::RecordsImport>(guiDb, [bad](ops::Context& ctx) {
                return ops::importRecords(ctx, ops::RecordsImportRequest{bad});
            });
        QVERIFY(!guiRefused);
        a = lastOfKind(cliDb, receipts::kinds::RecordsImport);
        b = lastOfKind(guiDb, receipts::kinds::RecordsImport);
        QVERIFY(a && b);
        QCOMPARE(a->result, receipts::Outcome::Failed);
        QCOMPARE(canonical(comparable(*b)), canonical(comparable(*a)));
    }

    void signedHeadReceiptIsDeclaredAndAtomic() {
        // receipts.sign-head through the operation: the files appear with the receipt, and the
        // receipt's parameters are the kind's declared ones (the ledger refuses others).
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.sqlite"));
        const QString path = testDb.spec();
        auto db = db::Database::open(path);
        QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
        ops::Context ctx(**db);
        const sigstore::crypto::Pkey key = sigstore::generateSigningKey();
        ops::ReceiptsExportRequest req;
        req.outPath = tmp.filePath(QStringLiteral("receipts.json"));
        req.key = key.get();
        req.headPath = tmp.filePath(QStringLiteral("head.json"));
        req.bundlePath = tmp.filePath(QStringLiteral("head.sigstore.json"));
        Result<ops::ReceiptsExportOutcome> r = ops::exportReceipts(ctx, req);
        QVERIFY2(r, r ? "" : qPrintable(r.error().toString()));
        QVERIFY(r->signedHead);
        for (const QString& f : {req.outPath, req.headPath, req.bundlePath})
            QVERIFY2(QFileInfo(f).size() > 0, qPrintable(f));
        std::optional<receipts::Receipt> head = lastOfKind(path, receipts::kinds::ReceiptsSignHead);
        QVERIFY(head);
        QCOMPARE(head->parameters.value(QStringLiteral("seq")).toInteger(), r->head.seq);
        QCOMPARE(head->outputs.size(), size_t(3));
        // The chain stays intact through the verify operation.
        Result<ops::ReceiptsVerifyOutcome> v = ops::verifyReceipts(ctx, {true});
        QVERIFY(v && v->chain.ok);
        QCOMPARE(v->receipts.size(), size_t(1));

        // A head file that cannot be written (its directory is a file): no receipt, no export file.
        QTemporaryDir tmp2;
        writeBytes(tmp2.filePath(QStringLiteral("plain-file")), "x");
        req.outPath = tmp2.filePath(QStringLiteral("receipts.json"));
        req.headPath = tmp2.filePath(QStringLiteral("plain-file/head.json"));
        req.bundlePath = tmp2.filePath(QStringLiteral("head.sigstore.json"));
        QVERIFY(!ops::exportReceipts(ctx, req));
        QVERIFY(!QFileInfo::exists(req.outPath));
        QVERIFY(!QFileInfo::exists(req.bundlePath));
        Result<ops::ReceiptsVerifyOutcome> after = ops::verifyReceipts(ctx, {true});
        QVERIFY(after && after->receipts.size() == 1);
    }
};

QTEST_GUILESS_MAIN(TestOpsRecords)
#include "tst_opsrecords.moc"
