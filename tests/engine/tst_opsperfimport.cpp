// `perf import` is ops::perfImport: the CLI verb and a call through ops::Async (the window's front)
// store the same run and leave the same validation.import receipt (kind, parameters, the parsed
// file's sha256 and size, result), in the run's transaction. `--no-store` keeps nothing, and the run
// store itself writes no receipt.
#include "DbTestUtil.h"
#include "TestUtil.h"
#include "ops/Validate.h"
#include "receipts/Kinds.h"

#include "ops/Async.h"
#include "ops/PerfImport.h"
#include "receipts/Ledger.h"
#include "store/RunStore.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

namespace {

QByteArray cli(const QStringList& args, int* code = nullptr) {
    QProcess p;
    p.setProcessEnvironment(pbtest::cliEnvironment());
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    p.waitForFinished(60000);
    if (code)
        *code = p.exitCode();
    return p.readAllStandardOutput();
}

QJsonObject withoutIds(QJsonObject o) {
    for (const char* k : {"id", "runId", "started", "finished", "evidence"})
        o.remove(QLatin1String(k));
    return o;
}

QJsonObject receiptBody(const receipts::Receipt& r) {
    QJsonObject o = r.toJson();
    for (const char* k : {"time", "seq", "hash", "prev", "version"})
        o.remove(QLatin1String(k));
    QJsonObject params = o.value(QStringLiteral("parameters")).toObject();
    params.remove(QStringLiteral("runUid"));
    o.insert(QStringLiteral("parameters"), params);
    // The run's output names it by its id, which differs between two imports of the same file.
    QJsonArray outputs = o.value(QStringLiteral("outputs")).toArray();
    for (qsizetype i = 0; i < outputs.size(); ++i) {
        QJsonObject a = outputs[i].toObject();
        if (a.value(QStringLiteral("name")).toString() ==
            QLatin1String("run ") + r.parameters.value(QStringLiteral("runUid")).toString())
            a.insert(QStringLiteral("name"), QStringLiteral("run <id>"));
        outputs[i] = a;
    }
    o.insert(QStringLiteral("outputs"), outputs);
    return o;
}

std::vector<receipts::Receipt> receiptsOf(const QString& dbPath, const QString& kind) {
    Result<std::unique_ptr<db::Database>> db = db::Database::open(dbPath);
    if (!db)
        return {};
    receipts::ListFilter f;
    f.kind = kind;
    Result<std::vector<receipts::Receipt>> r = receipts::Ledger(**db).list(f);
    return r ? *r : std::vector<receipts::Receipt>{};
}

} // namespace

class TestOpsPerfImport : public QObject {
    Q_OBJECT
  private slots:
    void cliAndAsyncAgree();
    void noStoreKeepsNothing();
    void malformedConstraintIsAUsageError();
    void skippedIsNotPassed();
    void oneVocabularyForRunReceipts();
    void oneIdPerRun();
    void runStoreWritesNoReceipt();
    void measuredTimeIsTheReports();
    void sourceFileIsKeptByDigest();
    void historyKnowsTheCheckFailed();
};

void TestOpsPerfImport::cliAndAsyncAgree() {
    QTemporaryDir dir;
    PB_TEST_DATABASE(cliTestDb, dir.path(), QStringLiteral("cli.sqlite"));
    PB_TEST_DATABASE(opTestDb, dir.path(), QStringLiteral("op.sqlite"));
    const QString cliDb = cliTestDb.spec(), opDb = opTestDb.spec();
    const QString log = pbtest::fixture(QStringLiteral("validation/nccl-low.txt"));
    int code = -1;
    const QJsonObject printed =
        QJsonDocument::fromJson(
            cli({QStringLiteral("perf"), QStringLiteral("import"), log, QStringLiteral("--kind"),
                 QStringLiteral("nccl"), QStringLiteral("--constraint"),
                 QStringLiteral("nccl-all-reduce-bw=>= 300"), QStringLiteral("--coordinate"),
                 QStringLiteral("lab-a"), QStringLiteral("--format"), QStringLiteral("json"),
                 QStringLiteral("--db"), cliDb},
                &code))
            .object();
    QCOMPARE(code, 1); // 250.10 is below 0.9 x 300
    // Issue 30: the run's one id (8 hex digits), as `runs show` takes it.
    const QString cliRun = printed.value(QStringLiteral("run")).toString();
    QVERIFY2(QRegularExpression(QStringLiteral("^[0-9a-f]{8}$")).match(cliRun).hasMatch(),
             qPrintable(cliRun));

    ops::PerfImportRequest req;
    req.file = log;
    req.kind = validation::PerfKind::Nccl;
    req.coordinate = QStringLiteral("lab-a");
    catalog::Constraint threshold;
    threshold.name = QStringLiteral("nccl-all-reduce-bw");
    threshold.value = QStringLiteral(">= 300");
    req.constraints = {threshold};
    Result<ops::PerfImportOutcome> done = [&] {
        ops::Async async(opDb, 1);
        auto job =
            async.run<ops::PerfImportOutcome>([req](ops::Context& ctx) { return ops::perfImport(ctx, req); });
        job.future.waitForFinished();
        return job.future.result();
    }();
    QVERIFY2(done.ok(), qPrintable(done.ok() ? QString() : done.error().toString()));
    QCOMPARE(done->check.state, validation::CheckState::Failed);
    QVERIFY(done->runRow > 0);

    auto show = [&](const QString& db, const QString& id) {
        return QJsonDocument::fromJson(
                   cli({QStringLiteral("runs"), QStringLiteral("show"), id, QStringLiteral("--format"),
                        QStringLiteral("json"), QStringLiteral("--db"), db}))
            .object();
    };
    const QJsonObject a = show(cliDb, cliRun),
                      b = show(opDb, done->run.runId.left(5)); // a prefix names it too
    QCOMPARE(a.value(QStringLiteral("state")).toString(), QStringLiteral("failed"));
    QCOMPARE(a.value(QStringLiteral("coordinate")).toString(), QStringLiteral("lab-a"));
    QCOMPARE(QJsonDocument(withoutIds(b)).toJson(), QJsonDocument(withoutIds(a)).toJson());

    const std::vector<receipts::Receipt> ra = receiptsOf(cliDb, QStringLiteral("validation.import"));
    const std::vector<receipts::Receipt> rb = receiptsOf(opDb, QStringLiteral("validation.import"));
    QCOMPARE(ra.size(), size_t(1));
    QCOMPARE(rb.size(), size_t(1));
    QCOMPARE(ra.front().parameters.value(QStringLiteral("kind")).toString(), QStringLiteral("nccl"));
    QCOMPARE(ra.front().parameters.value(QStringLiteral("threshold")).toString(), QStringLiteral(">= 300"));
    QCOMPARE(ra.front().inputs.size(), size_t(1));
    QCOMPARE(ra.front().inputs.front().size, QFileInfo(log).size());
    QCOMPARE(ra.front().result, receipts::Outcome::Failed);
    QCOMPARE(QJsonDocument(receiptBody(rb.front())).toJson(),
             QJsonDocument(receiptBody(ra.front())).toJson());
}

void TestOpsPerfImport::noStoreKeepsNothing() {
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    const QString db = testDb.spec();
    int code = -1;
    const QByteArray out =
        cli({QStringLiteral("perf"), QStringLiteral("import"),
             pbtest::fixture(QStringLiteral("validation/nccl-pass.txt")), QStringLiteral("--kind"),
             QStringLiteral("nccl"), QStringLiteral("--no-store"), QStringLiteral("--db"), db},
            &code);
    QCOMPARE(code, 0);
    QVERIFY2(out.contains("386.56") && !out.contains("stored as run"), out.constData());
    QVERIFY(!pbtest::storeExists(testDb)); // no file; on PostgreSQL, not even the schema
}

// Issue 30: a threshold that cannot be scored is the request's fault: exit 2, nothing stored (no run,
// no receipt, no database), never a failed validation run.
void TestOpsPerfImport::malformedConstraintIsAUsageError() {
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    const QString db = testDb.spec();
    struct Case {
        const char* fixture;
        const char* kind;
        const char* constraint;
        const char* says;
    };
    for (const Case& c :
         {Case{"validation/nccl-pass.txt", "nccl", "nccl-all-reduce-bw=fast", "needs a bandwidth"},
          Case{"perf/aiperf-missing-throughput.json", "aiperf", "inference-throughput=4000",
               "needs >= and a number"},
          Case{"perf/aiperf-missing-throughput.json", "aiperf", "inference-ttft-p99=>= 20",
               "needs <= and a number"}}) {
        QProcess p;
        p.setProcessEnvironment(pbtest::cliEnvironment());
        p.start(QStringLiteral(PB_CLI_BINARY),
                {QStringLiteral("perf"), QStringLiteral("import"),
                 pbtest::fixture(QString::fromLatin1(c.fixture)), QStringLiteral("--kind"),
                 QString::fromLatin1(c.kind), QStringLiteral("--constraint"),
                 QString::fromLatin1(c.constraint), QStringLiteral("--db"), db});
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitCode() == 2, err.constData());
        QVERIFY2(err.contains(c.says), err.constData());
        QVERIFY(!pbtest::storeExists(testDb));
    }
    // A well-formed one scores (and is stored).
    int code = -1;
    cli({QStringLiteral("perf"), QStringLiteral("import"),
         pbtest::fixture(QStringLiteral("validation/nccl-pass.txt")), QStringLiteral("--kind"),
         QStringLiteral("nccl"), QStringLiteral("--constraint"), QStringLiteral("nccl-all-reduce-bw=>= 300"),
         QStringLiteral("--db"), db},
        &code);
    QCOMPARE(code, 0);
}

// Issue 30: an import whose only check was skipped (no constraint applies) is "skipped", not
// "passed"; its receipt is ok (nothing failed) and says skipped.
void TestOpsPerfImport::skippedIsNotPassed() {
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    const QString db = testDb.spec();
    int code = -1;
    cli({QStringLiteral("perf"), QStringLiteral("import"),
         pbtest::fixture(QStringLiteral("perf/genai-perf-crlf-thousands.csv")), QStringLiteral("--kind"),
         QStringLiteral("genai-perf"), QStringLiteral("--db"), db},
        &code);
    QCOMPARE(code, 0);
    const QJsonArray runs =
        QJsonDocument::fromJson(cli({QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--db"),
                                     db, QStringLiteral("--format"), QStringLiteral("json")}))
            .array();
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs[0].toObject()[QStringLiteral("state")].toString(), QStringLiteral("skipped"));
    const std::vector<receipts::Receipt> r = receiptsOf(db, QStringLiteral("validation.import"));
    QCOMPARE(r.size(), size_t(1));
    QCOMPARE(r[0].result, receipts::Outcome::Ok);
    QVERIFY2(r[0].message.startsWith(QStringLiteral("skipped:")), qPrintable(r[0].message));
}

// One vocabulary: a run's receipt result follows its state the same way for live runs and imports.
void TestOpsPerfImport::oneVocabularyForRunReceipts() {
    using validation::RunState;
    const std::pair<RunState, receipts::Outcome> expected[] = {
        {RunState::Passed, receipts::Outcome::Ok},
        {RunState::Skipped, receipts::Outcome::Ok},
        {RunState::Failed, receipts::Outcome::Failed},
        {RunState::Error, receipts::Outcome::Failed},
        {RunState::ReadinessFailed, receipts::Outcome::Failed},
        {RunState::Incomplete, receipts::Outcome::Partial},
        {RunState::Cancelled, receipts::Outcome::Partial}};
    for (const auto& [state, outcome] : expected) {
        validation::RunResult run;
        run.state = state;
        validation::CheckRun passed, failed;
        passed.state = validation::CheckState::Passed;
        failed.state = validation::CheckState::Failed;
        run.checks = {passed, failed}; // a failed run with a check that passed is failed, not partial
        const receipts::ReceiptDraft d = ops::validationReceipt(receipts::kinds::ValidationRun, run, {});
        QVERIFY2(d.result == outcome, qPrintable(validation::runStateName(state)));
        QCOMPARE(ops::runOutcome(state), outcome);
    }
}

// Issue 30: a run has one id, its uid, which every verb takes, whole or as an unambiguous prefix of 4
// or more characters (as git takes a commit); the error says when none or several match.
void TestOpsPerfImport::oneIdPerRun() {
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("ids.sqlite"));
    Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
    QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
    store::RunStore runs(**db);
    std::vector<qint64> rows;
    for (const char* uid : {"abcd0001", "abcd0002", "12ab34cd"}) {
        store::RunHeader h;
        h.source = QStringLiteral("import");
        h.coordinate = QStringLiteral("lab-a");
        validation::RunResult r;
        r.runId = QString::fromLatin1(uid);
        r.state = validation::RunState::Passed;
        r.phasesRun = {QStringLiteral("performance")};
        r.started = r.finished = QDateTime::currentDateTimeUtc();
        Result<qint64> row = runs.saveImported(h, r);
        QVERIFY2(row, row ? "" : qPrintable(row.error().toString()));
        rows.push_back(*row);
    }
    QCOMPARE(*runs.findRun(QStringLiteral("abcd0002")), rows[1]);
    QCOMPARE(*runs.findRun(QStringLiteral("ABCD0001")), rows[0]); // hex digits in either case
    QCOMPARE(*runs.findRun(QStringLiteral("12ab")), rows[2]);
    const Result<qint64> ambiguous = runs.findRun(QStringLiteral("abcd"));
    QVERIFY(!ambiguous);
    QVERIFY2(ambiguous.error().message.contains(QStringLiteral("ambiguous")) &&
                 ambiguous.error().message.contains(QStringLiteral("abcd0001")) &&
                 ambiguous.error().message.contains(QStringLiteral("abcd0002")),
             qPrintable(ambiguous.error().toString()));
    QVERIFY(runs.findRun(QStringLiteral("abc")).error().message.contains(QStringLiteral("too short")));
    QVERIFY(runs.findRun(QStringLiteral("ffff")).error().message.contains(QStringLiteral("no run 'ffff'")));
    QVERIFY(!runs.findRun(QStringLiteral("ab%_"))); // no wildcard
    // The row number is not an id (12 is not a prefix here; and 1 is too short).
    QVERIFY(!runs.findRun(QString::number(rows[0])));
    // The CLI takes the same: `runs show` by prefix, `runs list` prints the uid.
    int code = -1;
    const QByteArray shown =
        cli({QStringLiteral("runs"), QStringLiteral("show"), QStringLiteral("12ab"),
             QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--db"), testDb.spec()},
            &code);
    QCOMPARE(code, 0);
    QCOMPARE(QJsonDocument::fromJson(shown).object()[QStringLiteral("id")].toString(),
             QStringLiteral("12ab34cd"));
    const QByteArray listed =
        cli({QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--db"), testDb.spec()});
    QVERIFY2(listed.contains("abcd0001") && listed.contains("12ab34cd"), listed.constData());
    cli({QStringLiteral("runs"), QStringLiteral("show"), QStringLiteral("abcd"), QStringLiteral("--db"),
         testDb.spec()},
        &code);
    QCOMPARE(code, 1);
}

void TestOpsPerfImport::runStoreWritesNoReceipt() {
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
    QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
    ops::PerfImportRequest req;
    req.file = pbtest::fixture(QStringLiteral("validation/nccl-pass.txt"));
    Result<ops::PerfImportOutcome> scored = ops::scorePerfFile(req);
    QVERIFY(scored.ok());
    store::RunHeader h;
    h.source = QStringLiteral("import");
    h.coordinate = QStringLiteral("lab-b");
    QVERIFY(store::RunStore(**db).saveImported(h, scored->run).ok());
    Result<receipts::ChainHead> head = receipts::Ledger(**db).head();
    QVERIFY(head.ok());
    QCOMPARE(head->seq, qint64(0));
}

// Issue #20: an imported run is stamped with the time the report records, or the one given, else
// "unknown" — never the file's modification time (copies all share one, and History drew them as one
// vertical line).
void TestOpsPerfImport::measuredTimeIsTheReports() {
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
    QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
    // An NCCL log records no time: unknown, whatever its mtime.
    const QString copy = dir.filePath(QStringLiteral("nccl.txt"));
    QVERIFY(QFile::copy(pbtest::fixture(QStringLiteral("validation/nccl-pass.txt")), copy));
    QFile touched(copy);
    QVERIFY(touched.open(QIODevice::ReadWrite));
    QVERIFY(touched.setFileTime(QDateTime(QDate(2001, 1, 1), QTime(0, 0), Qt::UTC),
                                QFileDevice::FileModificationTime));
    touched.close();
    ops::PerfImportRequest nccl;
    nccl.file = copy;
    nccl.coordinate = QStringLiteral("lab-t");
    catalog::Constraint floor;
    floor.name = QStringLiteral("nccl-all-reduce-bw");
    floor.value = QStringLiteral(">= 300");
    nccl.constraints = {floor};
    Result<ops::PerfImportOutcome> a = ops::perfImport(ops::Context(**db), nccl);
    QVERIFY(a.ok());
    QCOMPARE(a->timeSource, QStringLiteral("unknown"));
    QVERIFY(a->check.started.date().year() > 2001);
    // Given with --at.
    nccl.at = QDateTime(QDate(2026, 11, 30), QTime(14, 0), Qt::UTC);
    Result<ops::PerfImportOutcome> b = ops::perfImport(ops::Context(**db), nccl);
    QVERIFY(b.ok());
    QCOMPARE(b->timeSource, QStringLiteral("given"));
    QCOMPARE(b->run.started, nccl.at);
    // History marks which times are known, and names the file the points came from.
    Result<std::vector<store::HistoryPoint>> h =
        store::RunStore(**db).history(QStringLiteral("lab-t"), QStringLiteral("busbw"));
    QVERIFY(h.ok());
    QCOMPARE(h->size(), size_t(2));
    int known = 0;
    for (const store::HistoryPoint& p : *h) {
        known += p.timeKnown;
        QCOMPARE(p.source, QStringLiteral("import nccl.txt"));
    }
    QCOMPARE(known, 1);
    // The report's own time (AIPerf end_time).
    PB_REQUIRE_SHARED(QStringLiteral("perf/inference/aiperf-0.8.0_profile_export_aiperf.json"));
    ops::PerfImportRequest aiperf;
    aiperf.file =
        pbtest::sharedData(QStringLiteral("perf/inference/aiperf-0.8.0_profile_export_aiperf.json"));
    aiperf.kind = validation::PerfKind::AIPerf;
    Result<ops::PerfImportOutcome> c = ops::perfImport(ops::Context(**db), aiperf);
    QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().toString()));
    // Issue 26: its end_time has no zone: ambiguous, so unknown, and the text is kept to be shown.
    QCOMPARE(c->timeSource, QStringLiteral("unknown"));
    QCOMPARE(c->naiveTime, QStringLiteral("2026-05-01T05:31:46.005908"));
    // The legacy report's epoch timestamp is a time (20:13:48 UTC, not its naive 13:13:48).
    PB_REQUIRE_SHARED(QStringLiteral("perf/inference/aiperf-legacy-records_profile_export_aiperf.json"));
    aiperf.file =
        pbtest::sharedData(QStringLiteral("perf/inference/aiperf-legacy-records_profile_export_aiperf.json"));
    Result<ops::PerfImportOutcome> d = ops::perfImport(ops::Context(**db), aiperf);
    QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().toString()));
    QCOMPARE(d->timeSource, QStringLiteral("report"));
    QCOMPARE(d->run.started.toUTC(), QDateTime(QDate(2025, 10, 3), QTime(20, 13, 48, 472), Qt::UTC));

    // Lists: runs of unknown time come after the dated ones (never "newest" because imported last),
    // and say so.
    Result<std::vector<store::RunSummary>> listed = store::RunStore(**db).list();
    QVERIFY(listed);
    QCOMPARE(listed->size(), size_t(4));
    QVERIFY(listed->at(0).timeKnown && listed->at(1).timeKnown);
    QCOMPARE(listed->at(0).runUid, b->run.runId); // 2026-11-30, given
    QCOMPARE(listed->at(1).runUid, d->run.runId); // 2025-10-03, from the report
    QVERIFY(!listed->at(2).timeKnown && !listed->at(3).timeKnown);
    int code = -1;
    const QByteArray text =
        cli({QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--db"), testDb.spec()}, &code);
    QCOMPARE(code, 0);
    const QList<QByteArray> lines = text.split('\n');
    QVERIFY2(lines.size() > 4 && lines[3].contains("unknown") && lines[4].contains("unknown") &&
                 !lines[1].contains("unknown"),
             text.constData());
}

// Issue 26: the parsed file is kept with the run (zlib, by its SHA-256): `runs show --source` gives back
// the same bytes, a second import of the same file keeps no second copy, and a kept copy changed in
// the database is refused on the way out.
void TestOpsPerfImport::sourceFileIsKeptByDigest() {
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    const QString spec = testDb.spec();
    const QString log = pbtest::fixture(QStringLiteral("validation/nccl-low.txt"));
    QFile original(log);
    QVERIFY(original.open(QIODevice::ReadOnly));
    const QByteArray bytes = original.readAll();
    const QString digest =
        QStringLiteral("sha256:") +
        QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    auto import = [&] {
        int code = -1;
        const QJsonObject o =
            QJsonDocument::fromJson(
                cli({QStringLiteral("perf"), QStringLiteral("import"), log, QStringLiteral("--kind"),
                     QStringLiteral("nccl"), QStringLiteral("--format"), QStringLiteral("json"),
                     QStringLiteral("--db"), spec},
                    &code))
                .object();
        return o;
    };
    const QJsonObject first = import();
    QCOMPARE(first.value(QStringLiteral("sourceDigest")).toString(), digest);
    const QJsonObject second = import();
    QCOMPARE(second.value(QStringLiteral("sourceDigest")).toString(), digest);
    {
        Result<std::unique_ptr<db::Database>> db = db::Database::open(spec);
        QVERIFY(db);
        QSqlQuery q((*db)->sql());
        QVERIFY(q.exec(QStringLiteral("SELECT count(*), sum(size) FROM run_sources")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 1); // one copy for two runs
        QCOMPARE(q.value(1).toLongLong(), qint64(bytes.size()));
    }
    int code = -1;
    const QString back = dir.filePath(QStringLiteral("back.txt"));
    cli({QStringLiteral("runs"), QStringLiteral("show"), second.value(QStringLiteral("run")).toString(),
         QStringLiteral("--source"), back, QStringLiteral("--db"), spec},
        &code);
    QCOMPARE(code, 0);
    QFile got(back);
    QVERIFY(got.open(QIODevice::ReadOnly));
    QCOMPARE(got.readAll(), bytes);

    // A chunk changed in the database: refused, nothing written.
    {
        Result<std::unique_ptr<db::Database>> db = db::Database::open(spec);
        QVERIFY(db);
        store::RunStore runs(**db);
        QBuffer sink;
        sink.open(QIODevice::WriteOnly);
        QVERIFY(runs.readSource(digest, sink).ok());
        QSqlQuery q((*db)->sql());
        q.prepare(QStringLiteral("UPDATE run_source_chunks SET data = ? WHERE digest = ? AND seq = 0"));
        const QByteArray data = qCompress(bytes + "tampered").mid(4); // a valid zlib stream of other bytes
        q.addBindValue(data);
        q.addBindValue(digest);
        QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
        QBuffer again;
        again.open(QIODevice::WriteOnly);
        const Status s = runs.readSource(digest, again);
        QVERIFY(!s.ok());
        QVERIFY2(s.error().toString().contains(QLatin1String("changed in the database")),
                 qPrintable(s.error().toString()));
    }
    const QString refused = dir.filePath(QStringLiteral("refused.txt"));
    cli({QStringLiteral("runs"), QStringLiteral("show"), second.value(QStringLiteral("run")).toString(),
         QStringLiteral("--source"), refused, QStringLiteral("--db"), spec},
        &code);
    QCOMPARE(code, 1);
    QVERIFY(!QFileInfo::exists(refused));
}

// Issue 26: a throughput point of a check that failed on TTFT is marked so in the history (the chart
// draws it as a failed check's point, not a plain pass).
void TestOpsPerfImport::historyKnowsTheCheckFailed() {
    PB_REQUIRE_SHARED(QStringLiteral("perf/inference/aiperf-legacy-records_profile_export_aiperf.csv"));
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
    QVERIFY(db);
    ops::PerfImportRequest req;
    req.file =
        pbtest::sharedData(QStringLiteral("perf/inference/aiperf-legacy-records_profile_export_aiperf.csv"));
    req.kind = validation::PerfKind::AIPerf;
    req.coordinate = QStringLiteral("lab-i");
    catalog::Constraint tput, ttft;
    tput.name = QStringLiteral("inference-throughput");
    tput.value = QStringLiteral(">= 1");
    ttft.name = QStringLiteral("inference-ttft-p99");
    ttft.value = QStringLiteral("<= 0.001 ms");
    req.constraints = {tput, ttft};
    Result<ops::PerfImportOutcome> done = ops::perfImport(ops::Context(**db), req);
    QVERIFY2(done, done ? "" : qPrintable(done.error().toString()));
    QCOMPARE(done->check.state, validation::CheckState::Failed);
    Result<std::vector<store::HistoryPoint>> h = store::RunStore(**db).history(QStringLiteral("lab-i"));
    QVERIFY(h);
    bool throughputSeen = false;
    for (const store::HistoryPoint& p : *h) {
        QVERIFY2(p.checkFailed, qPrintable(p.metric));
        if (p.metric == QLatin1String("output-throughput")) {
            throughputSeen = true;
            QVERIFY(p.pass); // met its own threshold
        }
    }
    QVERIFY(throughputSeen);
}

QTEST_GUILESS_MAIN(TestOpsPerfImport)
#include "tst_opsperfimport.moc"
