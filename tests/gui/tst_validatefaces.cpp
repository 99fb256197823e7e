// `validate` is one operation (ops::validate) with two faces: the CLI verb and the Validation view's
// controller. The same recipe (embedded sample-2, h100-eks-ubuntu-training-kubeflow, performance phase,
// nccl-all-reduce-bw ">= 300") runs once through the real CLI binary and once through
// models::ValidationController (on a models::Workspace worker, its own connection), each against the real
// pb-kube-testserver and into a database of its own; the runs (state, checks, verdicts, metrics)
// and the validation.run receipts (kind, parameters, result, outputs; not time, seq or hash) must
// be the same. A cancel through the controller reaches the operation and is on record too.
#include "TestDb.h"
#include "ValidationController.h"
#include "ValidationFixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using namespace pb::validation;

namespace {

struct Ran {
    int code = -1;
    QByteArray out, err;
};

Ran cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    Ran r;
    if (!p.waitForFinished(180000)) {
        p.kill();
        p.waitForFinished();
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QJsonObject json(const QByteArray& bytes) {
    return QJsonDocument::fromJson(bytes).object();
}

// A run as stored, without what differs by nature between two runs (ids, times, Jobs, pods).
QJsonObject comparable(QJsonObject run) {
    for (const char* k : {"id", "runId", "started", "finished", "evidence"})
        run.remove(QLatin1String(k));
    QJsonArray checks;
    for (const QJsonValue& v : run.value(QStringLiteral("checks")).toArray()) {
        QJsonObject c = v.toObject();
        for (const char* k : {"durationMs", "job", "pod"})
            c.remove(QLatin1String(k));
        checks.append(c);
    }
    run.insert(QStringLiteral("checks"), checks);
    return run;
}

// The newest receipt of `kind`, without time, seq, hash, prev and version; the run uid (random per
// run) and the evidence folder's path and digest (it holds run ids and times) are checked apart.
QJsonObject lastReceipt(const QString& db, const QString& kind) {
    const Ran r = cli({QStringLiteral("receipts"), QStringLiteral("list"), QStringLiteral("--kind"), kind,
                       QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--db"), db});
    const QJsonArray all = json(r.out).value(QStringLiteral("receipts")).toArray();
    if (r.code != 0 || all.isEmpty())
        return {};
    QJsonObject o = all.last().toObject();
    for (const char* k : {"time", "seq", "hash", "prev", "version"})
        o.remove(QLatin1String(k));
    return o;
}

} // namespace

class TestValidateFaces : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }
    void cliAndWindowAgree();
    void windowCancelIsOnRecord();
};

void TestValidateFaces::cliAndWindowAgree() {
    pbtest::KubeTestServer server;
    QVERIFY(server.start(pbgui::ncclScript(300)));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    PB_TEST_DATABASE(cliTdb, dir.path(), QStringLiteral("cli.sqlite"));
    PB_TEST_DATABASE(guiTdb, dir.path(), QStringLiteral("gui.sqlite"));
    const QString cliDb = cliTdb.spec();
    const QString guiDb = guiTdb.spec();

    // 1. The CLI: criteria flags resolve the recipe.
    const Ran v = cli({QStringLiteral("validate"),
                       QStringLiteral("--kubeconfig"),
                       server.kubeconfig(),
                       QStringLiteral("--context"),
                       QStringLiteral("pb-cert"),
                       QStringLiteral("--version"),
                       QLatin1String(pbgui::kNcclVersion),
                       QStringLiteral("--service"),
                       QStringLiteral("eks"),
                       QStringLiteral("--accelerator"),
                       QStringLiteral("h100"),
                       QStringLiteral("--os"),
                       QStringLiteral("ubuntu"),
                       QStringLiteral("--intent"),
                       QStringLiteral("training"),
                       QStringLiteral("--platform"),
                       QStringLiteral("kubeflow"),
                       QStringLiteral("--phase"),
                       QStringLiteral("performance"),
                       QStringLiteral("--out"),
                       dir.filePath(QStringLiteral("cli-out")),
                       QStringLiteral("--format"),
                       QStringLiteral("json"),
                       QStringLiteral("--db"),
                       cliDb});
    QVERIFY2(v.code == 0, v.err.constData());
    const QJsonObject cliPrinted = json(v.out);
    QCOMPARE(cliPrinted.value(QStringLiteral("state")).toString(), QStringLiteral("passed"));
    // The CLI's progress lines still go to stderr.
    QVERIFY2(v.err.contains("passed  performance/nccl-all-reduce-bw"), v.err.constData());

    // 2. The window's path: the controller with the catalog version and recipe the view offers. The
    // database is created (and seeded with the embedded catalog) as the application does it.
    QCOMPARE(cli({QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--db"), guiDb}).code, 0);
    Result<std::unique_ptr<db::Database>> db = db::Database::open(guiDb);
    QVERIFY(db.ok());
    qint64 guiRow = 0;
    RunResult guiResult;
    {
        models::Workspace workspace(guiDb);
        models::ValidationController controller(workspace);
        QSignalSpy planned(&controller, &models::ValidationController::planned);
        QSignalSpy changes(&controller, &models::ValidationController::checkChanged);
        QSignalSpy finished(&controller, &models::ValidationController::finished);
        models::ValidationStart s;
        s.kubeconfig = server.kubeconfig();
        s.context = QStringLiteral("pb-cert");
        s.catalogLabel = QLatin1String(pbgui::kNcclVersion);
        s.leafOverlay = QLatin1String(pbgui::kNcclRecipe);
        s.phases = {QStringLiteral("performance")};
        s.outDir = dir.filePath(QStringLiteral("gui-out"));
        QString error;
        QVERIFY2(controller.start(s, &error), qPrintable(error));
        QVERIFY(controller.busy());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        QCOMPARE(finished.first().at(2).toString(), QString());
        QCOMPARE(planned.size(), 1);
        QVERIFY(!changes.isEmpty());
        QCOMPARE(changes.last().at(0).value<CheckRun>().state, CheckState::Passed);
        QVERIFY(!controller.busy());
        guiRow = controller.runRowId();
        guiResult = controller.lastResult();
        QCOMPARE(planned.first().at(0).toLongLong(), guiRow);
        QVERIFY(QFileInfo::exists(controller.evidenceDir() + QStringLiteral("/manifest.json")));
    }
    QVERIFY(guiRow > 0);
    QCOMPARE(runStateName(guiResult.state), cliPrinted.value(QStringLiteral("state")).toString());
    QCOMPARE(guiResult.checks.size(), size_t(cliPrinted.value(QStringLiteral("checks")).toArray().size()));

    // 3. The stored runs are the same, as `runs show` prints them from either database.
    const QString cliRunId = cliPrinted.value(QStringLiteral("id")).toString();
    const Ran a = cli({QStringLiteral("runs"), QStringLiteral("show"), cliRunId, QStringLiteral("--format"),
                       QStringLiteral("json"), QStringLiteral("--db"), cliDb});
    const Ran b = cli({QStringLiteral("runs"), QStringLiteral("show"), guiResult.runId,
                       QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--db"), guiDb});
    QCOMPARE(a.code, 0);
    QCOMPARE(b.code, 0);
    const QJsonObject cliRun = json(a.out), guiRun = json(b.out);
    QCOMPARE(cliRun.value(QStringLiteral("state")).toString(), QStringLiteral("passed"));
    const QJsonObject check = cliRun.value(QStringLiteral("checks")).toArray().first().toObject();
    QCOMPARE(check.value(QStringLiteral("score")).toObject().value(QStringLiteral("verdict")).toString(),
             QStringLiteral("passed"));
    QCOMPARE(check.value(QStringLiteral("nccl")).toObject().value(QStringLiteral("lastOopBusBw")).toDouble(),
             386.56);
    QCOMPARE(QJsonDocument(comparable(guiRun)).toJson(), QJsonDocument(comparable(cliRun)).toJson());
    QVERIFY(!cliRun.value(QStringLiteral("evidence")).toString().isEmpty());
    QVERIFY(!guiRun.value(QStringLiteral("evidence")).toString().isEmpty());

    // 4. The receipts: same kind, parameters, result and outputs.
    QJsonObject cliReceipt = lastReceipt(cliDb, QStringLiteral("validation.run"));
    QJsonObject guiReceipt = lastReceipt(guiDb, QStringLiteral("validation.run"));
    QVERIFY2(!cliReceipt.isEmpty(), "the CLI left no validation.run receipt");
    QVERIFY2(!guiReceipt.isEmpty(), "the window left no validation.run receipt");
    QCOMPARE(cliReceipt.value(QStringLiteral("kind")).toString(), QStringLiteral("validation.run"));
    QCOMPARE(cliReceipt.value(QStringLiteral("result")).toObject().value(QStringLiteral("status")).toString(),
             QStringLiteral("ok"));
    QJsonObject cliParams = cliReceipt.value(QStringLiteral("parameters")).toObject();
    QJsonObject guiParams = guiReceipt.value(QStringLiteral("parameters")).toObject();
    QCOMPARE(cliParams.value(QStringLiteral("runUid")).toString(),
             cliPrinted.value(QStringLiteral("runId")).toString());
    QCOMPARE(guiParams.value(QStringLiteral("runUid")).toString(), guiResult.runId);
    cliParams.remove(QStringLiteral("runUid"));
    guiParams.remove(QStringLiteral("runUid"));
    QCOMPARE(cliParams.value(QStringLiteral("recipe")).toString(), QLatin1String(pbgui::kNcclRecipe));
    QCOMPARE(cliParams.value(QStringLiteral("context")).toString(), QStringLiteral("pb-cert"));
    QCOMPARE(QJsonDocument(guiParams).toJson(), QJsonDocument(cliParams).toJson());
    // Outputs: the run row, then the evidence folder (named by its path; its digest covers run ids).
    auto outputs = [](const QJsonObject& r) {
        QStringList names;
        for (const QJsonValue& o : r.value(QStringLiteral("outputs")).toArray())
            names << QFileInfo(o.toObject().value(QStringLiteral("name")).toString()).fileName();
        return names;
    };
    QCOMPARE(outputs(cliReceipt),
             (QStringList{QStringLiteral("run %1").arg(cliRunId), QStringLiteral("summary-bundle")}));
    QCOMPARE(outputs(guiReceipt),
             (QStringList{QStringLiteral("run %1").arg(guiResult.runId), QStringLiteral("summary-bundle")}));
    for (QJsonObject* r : {&cliReceipt, &guiReceipt}) {
        r->remove(QStringLiteral("parameters"));
        r->remove(QStringLiteral("outputs"));
    }
    QCOMPARE(QJsonDocument(guiReceipt).toJson(), QJsonDocument(cliReceipt).toJson());
    // Both ledgers are intact.
    QCOMPARE(cli({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"), cliDb}).code,
             0);
    QCOMPARE(cli({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"), guiDb}).code,
             0);
}

void TestValidateFaces::windowCancelIsOnRecord() {
    pbtest::KubeTestServer server;
    QVERIFY(server.start(pbgui::ncclScript(0, /*neverFinish=*/true)));
    QTemporaryDir dir;
    PB_TEST_DATABASE(guiTdb, dir.path(), QStringLiteral("gui.sqlite"));
    const QString dbPath = guiTdb.spec();
    QCOMPARE(cli({QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--db"), dbPath}).code, 0);
    Result<std::unique_ptr<db::Database>> db = db::Database::open(dbPath);
    QVERIFY(db.ok());
    models::Workspace workspace(dbPath);
    models::ValidationController controller(workspace);
    QSignalSpy changes(&controller, &models::ValidationController::checkChanged);
    QSignalSpy finished(&controller, &models::ValidationController::finished);
    models::ValidationStart s;
    s.kubeconfig = server.kubeconfig();
    s.context = QStringLiteral("pb-cert");
    s.catalogLabel = QLatin1String(pbgui::kNcclVersion);
    s.leafOverlay = QLatin1String(pbgui::kNcclRecipe);
    s.phases = {QStringLiteral("performance")};
    s.outDir = dir.filePath(QStringLiteral("out"));
    QVERIFY(controller.start(s));
    QTRY_VERIFY_WITH_TIMEOUT(
        !changes.isEmpty() && changes.last().at(0).value<CheckRun>().state == CheckState::Running, 60000);
    controller.cancel();
    QCOMPARE(controller.stage(), models::ValidationController::Stage::Cancelling);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
    QCOMPARE(controller.lastResult().state, RunState::Cancelled);
    const QJsonObject receipt = lastReceipt(dbPath, QStringLiteral("validation.run"));
    // Issue 30: a cancelled run is kept as far as it got: partial, as an incomplete one (never "failed").
    QCOMPARE(receipt.value(QStringLiteral("result")).toObject().value(QStringLiteral("status")).toString(),
             QStringLiteral("partial"));
    QVERIFY(receipt.value(QStringLiteral("result"))
                .toObject()
                .value(QStringLiteral("message"))
                .toString()
                .startsWith(QLatin1String("cancelled")));
    const Ran shown =
        cli({QStringLiteral("runs"), QStringLiteral("show"), controller.lastResult().runId,
             QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--db"), dbPath});
    QCOMPARE(json(shown.out).value(QStringLiteral("state")).toString(), QStringLiteral("cancelled"));
}

QTEST_GUILESS_MAIN(TestValidateFaces)
#include "tst_validatefaces.moc"
