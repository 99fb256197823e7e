// Issue #8 end to end: the validation runner against pb-kube-testserver (real HTTPS, real Kubernetes
// wire protocol): training and inference recipes passing, failing by threshold and skipped; cancel
// mid-run with cleanup; a dropped watch resumed; a 409 on create; an expired token refreshed through
// an exec plugin; readiness failing before any Job; the evidence bundle checked and, signed through the
// CLI, verified; runs stored and read back; `perf import`. What stores a run runs on both engines
// (DbFixture.h); the runner against the cluster alone on SQLite's half.
#include "DbFixture.h"
#include "KubeTestServer.h"
#include "TestUtil.h"

#include "catalog/Loader.h"
#include "evidence/Bundle.h"
#include "store/CatalogStore.h"
#include "store/RunStore.h"
#include "validation/Emit.h"
#include "validation/Runner.h"

#include <QJsonArray>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

using namespace pb;
using namespace pb::validation;

namespace {

const QString kTraining = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
const QString kInference = QStringLiteral("h100-eks-ubuntu-inference-dynamo");

catalog::Catalog embedded() {
    Result<catalog::Catalog> c = catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
    if (!c)
        qFatal("embedded catalog: %s", qPrintable(c.error().toString()));
    return *c;
}

QJsonObject check(int exitCode, const QString& logFile = {}, int runMs = 150) {
    QJsonObject o{{QStringLiteral("exitCode"), exitCode},
                  {QStringLiteral("runMs"), runMs},
                  {QStringLiteral("pendingMs"), 30}};
    if (!logFile.isEmpty())
        o.insert(QStringLiteral("logFile"), pbtest::fixture(QStringLiteral("validation/") + logFile));
    else
        o.insert(QStringLiteral("log"), QStringLiteral("RESULT: ok\n"));
    return o;
}

QJsonObject script(const QJsonObject& checks, const QJsonObject& faults = {},
                   const QString& serverVersion = QStringLiteral("v1.34.1")) {
    QJsonObject s{{QStringLiteral("checks"), checks},
                  {QStringLiteral("defaultCheck"), check(0)},
                  {QStringLiteral("serverVersion"),
                   QJsonObject{{QStringLiteral("major"), QStringLiteral("1")},
                               {QStringLiteral("minor"), serverVersion.section(QLatin1Char('.'), 1, 1)},
                               {QStringLiteral("gitVersion"), serverVersion}}}};
    if (!faults.isEmpty())
        s.insert(QStringLiteral("faults"), faults);
    return s;
}

RunRequest request(const QString& leaf, const QStringList& phases = {}) {
    const catalog::Catalog cat = embedded();
    RunRequest r;
    Result<catalog::RecipeResult> recipe = store::resolveStoredRecipe(cat, leaf);
    if (!recipe)
        qFatal("%s: %s", qPrintable(leaf), qPrintable(recipe.error().toString()));
    r.recipe = *recipe;
    r.validators = cat.validators;
    r.phases = phases;
    r.toolVersion = QStringLiteral("test");
    return r;
}

// Objects the run left behind, by kind.
int leftovers(kube::Client& c, const QString& runId) {
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("labelSelector"), QStringLiteral("aicr.nvidia.com/run-id=%1").arg(runId));
    int n = 0;
    for (const QString& path : {QStringLiteral("/apis/batch/v1/namespaces/aicr-validation/jobs"),
                                QStringLiteral("/api/v1/namespaces/aicr-validation/configmaps"),
                                QStringLiteral("/api/v1/namespaces/aicr-validation/serviceaccounts"),
                                QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings")}) {
        const kube::ApiResponse r = c.get(path, q);
        if (!r.ok())
            qFatal("%s", qPrintable(r.message));
        n += int(r.object.value(QStringLiteral("items")).toArray().size());
    }
    return n;
}

QString errorText(const Status& s) {
    return s.ok() ? QString() : s.error().toString();
}

} // namespace

class TestValidation : public QObject {
    Q_OBJECT

  private slots:
    void prepareIsFailClosed();
    void trainingRunPasses();
    void trainingRunFailsByThreshold();
    void exitZeroButBelowThresholdFails();
    void netCheckNeedsItsTransport();
    void inferenceRunPassesAndSkips();
    void readinessFailureCreatesNoJob();
    void cancelMidRunCleansUp();
    void droppedWatchIsResumed();
    void conflictOnCreateIsRetried();
    void expiredTokenRefreshedByExecPlugin();
    void runStoreKeepsPartialRuns();
    void longLogsAreBounded();
    void cliValidateSignsAndVerifies();
    void cliPerfImport();
    void cliIncompleteRun();
};

void TestValidation::prepareIsFailClosed() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QVERIFY(server.start());
    auto client = server.client();
    QVERIFY(client);
    RunRequest r = request(kTraining);
    r.validators.checks.erase(std::remove_if(r.validators.checks.begin(), r.validators.checks.end(),
                                             [](const catalog::ValidatorCheck& c) {
                                                 return c.name == QLatin1String("nccl-all-reduce-bw");
                                             }),
                              r.validators.checks.end());
    Runner unknown(*client, r);
    const Status s = unknown.prepare();
    QVERIFY(!s.ok());
    QVERIFY2(s.error().toString().contains(QLatin1String("nccl-all-reduce-bw")) &&
                 s.error().toString().contains(QLatin1String("validation.performance.checks")),
             qPrintable(s.error().toString()));

    RunRequest wrongPhase = request(kTraining, {QStringLiteral("warmup")});
    Runner w(*client, wrongPhase);
    QVERIFY(!w.prepare().ok());

    // The plan follows AICR's phase order: conformance before performance.
    Runner ok(*client, request(kTraining));
    QVERIFY2(ok.prepare().ok(), qPrintable(errorText(ok.prepare())));
    QVERIFY(!ok.plan().empty());
    QCOMPARE(ok.plan().back().name, QStringLiteral("nccl-all-reduce-bw"));
    QStringList order;
    for (const CheckRun& c : ok.plan())
        if (order.isEmpty() || order.back() != c.phase)
            order << c.phase;
    QCOMPARE(order, (QStringList{QStringLiteral("deployment"), QStringLiteral("conformance"),
                                 QStringLiteral("performance")}));
    QVERIFY(ok.plan().back().image.startsWith(QLatin1String("ghcr.io/nvidia/aicr-validators/performance:")));
}

void TestValidation::trainingRunPasses() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QVERIFY(server.start(
        script({{QStringLiteral("nccl-all-reduce-bw"), check(0, QStringLiteral("nccl-pass.txt"))}})));
    auto client = server.client();
    QVERIFY(client);
    std::vector<QString> seen;
    QByteArray streamed;
    RunObserver obs;
    obs.checkChanged = [&](const CheckRun& c) {
        seen.push_back(c.name + QLatin1Char(':') + checkStateName(c.state));
    };
    obs.log = [&](const QString& name, const QByteArray& chunk) {
        if (name == QLatin1String("nccl-all-reduce-bw"))
            streamed += chunk;
    };
    Runner runner(*client, request(kTraining), obs);
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    QVERIFY2(r.state == RunState::Passed,
             qPrintable(runStateName(r.state) + QStringLiteral(": ") + r.reason));
    QCOMPARE(r.exitCode(), 0);
    QVERIFY(r.snapshot);
    QCOMPARE(r.snapshot->serverVersion, QStringLiteral("v1.34.1"));
    QVERIFY(r.snapshot->gpuNodeCount() >= 1);
    bool readinessPassed = false;
    for (const ConstraintCheck& c : r.readiness)
        if (c.constraint.name == QLatin1String("K8s.server.version"))
            readinessPassed = c.outcome == ConstraintOutcome::Passed;
    QVERIFY(readinessPassed);
    for (const CheckRun& c : r.checks)
        QVERIFY2(c.state == CheckState::Passed, qPrintable(c.name + QStringLiteral(": ") + c.message));
    const CheckRun* nccl = r.check(QStringLiteral("nccl-all-reduce-bw"));
    QVERIFY(nccl && nccl->nccl && nccl->score);
    QCOMPARE(nccl->nccl->lastOopBusBw(), 386.56);
    QCOMPARE(nccl->score->verdict, Verdict::Passed);
    QCOMPARE(nccl->score->metrics.front().threshold->value, 300.0);
    QCOMPARE(nccl->exitCode, 0);
    QVERIFY(nccl->log.contains("Avg bus bandwidth"));
    QVERIFY(streamed.contains("4294967296")); // the live log reached the observer
    QVERIFY(std::find(seen.begin(), seen.end(), QStringLiteral("nccl-all-reduce-bw:running")) != seen.end());
    QCOMPARE(leftovers(*client, r.runId), 0);

    // The evidence bundle passes the same checks as evidence from AICR.
    QTemporaryDir out;
    Result<EmittedBundle> b =
        emitEvidence(r, runner.plan().empty() ? request(kTraining).recipe : request(kTraining).recipe,
                     out.path(), QStringLiteral("test"), QStringLiteral("1.0.0"));
    QVERIFY2(b.ok(), qPrintable(b.ok() ? QString() : b.error().toString()));
    Result<evidence::SummaryBundle> loaded = evidence::loadBundle(b->dir);
    QVERIFY(loaded.ok());
    const evidence::BundleCheck bc = evidence::checkBundle(*loaded);
    QVERIFY2(bc.exitCode == 0, qPrintable(bc.toText()));
    QVERIFY(bc.ctrf.contains(QStringLiteral("performance")));
    QCOMPARE(bc.ctrf[QStringLiteral("performance")].passed, 1);
    QVERIFY(b->files[QStringLiteral("ctrf/performance.json")].contains("NCCL All Reduce bandwidth"));
    QVERIFY(b->files[QStringLiteral("snapshot.yaml")].contains("kind: Snapshot"));
}

void TestValidation::trainingRunFailsByThreshold() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QVERIFY(server.start(
        script({{QStringLiteral("nccl-all-reduce-bw"), check(1, QStringLiteral("nccl-low.txt"))}})));
    auto client = server.client();
    Runner runner(*client, request(kTraining, {QStringLiteral("performance")}));
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    QCOMPARE(r.state, RunState::Failed);
    QCOMPARE(r.exitCode(), 8);
    QVERIFY(r.reason.contains(QLatin1String("nccl-all-reduce-bw")));
    const CheckRun* nccl = r.check(QStringLiteral("nccl-all-reduce-bw"));
    QCOMPARE(nccl->state, CheckState::Failed);
    QCOMPARE(nccl->exitCode, 1);
    QCOMPARE(nccl->score->verdict, Verdict::Failed);
    QVERIFY(qAbs(nccl->score->metrics.front().measured - 250.10) < 0.01);
    QCOMPARE(r.phasesRun, QStringList{QStringLiteral("performance")});
    QCOMPARE(leftovers(*client, r.runId), 0);
}

void TestValidation::exitZeroButBelowThresholdFails() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QVERIFY(server.start(
        script({{QStringLiteral("nccl-all-reduce-bw"), check(0, QStringLiteral("nccl-low.txt"))}})));
    auto client = server.client();
    Runner runner(*client, request(kTraining, {QStringLiteral("performance")}));
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    const CheckRun* nccl = r.check(QStringLiteral("nccl-all-reduce-bw"));
    QCOMPARE(nccl->state, CheckState::Failed);
    QVERIFY2(nccl->message.contains(QLatin1String("threshold")), qPrintable(nccl->message));
}

void TestValidation::netCheckNeedsItsTransport() {
    PB_NO_DATABASE_ON_POSTGRES();
    // The -net variant must show a network plugin other than Socket in the NCCL_DEBUG=INFO log.
    CheckRun c;
    c.name = QStringLiteral("nccl-all-reduce-bw-net");
    QFile f(pbtest::fixture(QStringLiteral("validation/nccl-net-socket.txt")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    readContainerLog(c, f.readAll());
    catalog::RecipeResult recipe;
    recipe.validation = catalog::Validation{};
    recipe.validation->performance = catalog::ValidationPhase{};
    recipe.validation->performance->constraints = std::vector<catalog::Constraint>{
        {QStringLiteral("nccl-all-reduce-bw-net"), QStringLiteral(">= 40"), {}, {}, {}, {}}};
    scoreCheck(c, recipe);
    QVERIFY(c.score && c.nccl);
    QCOMPARE(c.nccl->netPlugin, QStringLiteral("Socket"));
    QCOMPARE(c.score->verdict, Verdict::Failed);
}

void TestValidation::inferenceRunPassesAndSkips() {
    PB_NO_DATABASE_ON_POSTGRES();
    {
        pbtest::KubeTestServer server;
        QVERIFY(server.start(
            script({{QStringLiteral("inference-perf"), check(0, QStringLiteral("inference-aiperf.log"))}})));
        auto client = server.client();
        Runner runner(*client, request(kInference, {QStringLiteral("performance")}));
        QVERIFY2(runner.prepare().ok(), qPrintable(errorText(runner.prepare())));
        const RunResult r = runner.run();
        QVERIFY2(r.state == RunState::Passed, qPrintable(r.reason));
        const CheckRun* inf = r.check(QStringLiteral("inference-perf"));
        QVERIFY(inf && inf->inference && inf->score);
        QCOMPARE(*inf->inference->outputTokensPerSec, 58210.44);
        QCOMPARE(*inf->inference->ttftMs.p99, 1490.3);
        QCOMPARE(inf->score->verdict, Verdict::Passed);
        QCOMPARE(inf->resultLines.size(), 2);
        QCOMPARE(inf->extra.value(QStringLiteral("nodesValidated")).toInt(), 1);
        QVERIFY(!inf->log.contains("##AICR-EXTRA##"));
    }
    {
        // Exit 2: the validator skipped itself (e.g. dynamo-platform missing).
        pbtest::KubeTestServer server;
        QJsonObject skip = check(2);
        skip.insert(QStringLiteral("terminationMessage"), QStringLiteral("dynamo-platform is not deployed"));
        QVERIFY(server.start(script({{QStringLiteral("inference-perf"), skip}})));
        auto client = server.client();
        Runner runner(*client, request(kInference, {QStringLiteral("performance")}));
        QVERIFY(runner.prepare().ok());
        const RunResult r = runner.run();
        // Skipped is not a failure, as in aicr (exit 0), nor a pass: the only check judged nothing.
        QCOMPARE(r.state, RunState::Skipped);
        QCOMPARE(r.exitCode(), 0);
        const CheckRun* inf = r.check(QStringLiteral("inference-perf"));
        QCOMPARE(inf->state, CheckState::Skipped);
        QCOMPARE(inf->message, QStringLiteral("dynamo-platform is not deployed"));
    }
}

void TestValidation::readinessFailureCreatesNoJob() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QVERIFY(server.start(script({}, {}, QStringLiteral("v1.31.2"))));
    auto client = server.client();
    Runner runner(*client, request(kTraining));
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    QCOMPARE(r.state, RunState::ReadinessFailed);
    QCOMPARE(r.exitCode(), 2);
    QVERIFY2(r.reason.contains(QLatin1String("K8s.server.version")) &&
                 r.reason.contains(QLatin1String("v1.31.2")),
             qPrintable(r.reason));
    const kube::ApiResponse jobs = client->get(QStringLiteral("/apis/batch/v1/jobs"));
    QVERIFY2(jobs.ok() || jobs.http == 404, qPrintable(jobs.message));
    const kube::ApiResponse ns = client->get(QStringLiteral("/api/v1/namespaces/aicr-validation"));
    QCOMPARE(ns.http, 404); // nothing was created
}

void TestValidation::cancelMidRunCleansUp() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QJsonObject hang = check(0, QStringLiteral("nccl-pass.txt"));
    hang.insert(QStringLiteral("neverFinish"), true);
    QVERIFY(server.start(script({{QStringLiteral("nccl-all-reduce-bw"), hang}})));
    auto client = server.client();
    std::atomic_bool running{false};
    RunObserver obs;
    obs.checkChanged = [&](const CheckRun& c) {
        if (c.name == QLatin1String("nccl-all-reduce-bw") && c.state == CheckState::Running)
            running = true;
    };
    obs.log = [&](const QString& name, const QByteArray&) {
        if (name == QLatin1String("nccl-all-reduce-bw"))
            running = true;
    };
    Runner runner(*client, request(kTraining), obs);
    QVERIFY(runner.prepare().ok());
    RunResult r;
    std::atomic_bool done{false};
    std::thread t([&] {
        r = runner.run();
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(running.load(), 30000);
    QTest::qWait(300); // let the check's pod start streaming
    runner.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(done.load(), 30000);
    t.join();
    QCOMPARE(r.state, RunState::Cancelled);
    QCOMPARE(r.exitCode(), 130);
    QVERIFY(r.reason.contains(QLatin1String("cancelled")));
    // What finished before the cancel is kept; the cancelled check says so.
    int passed = 0;
    for (const CheckRun& c : r.checks)
        passed += c.state == CheckState::Passed;
    QVERIFY(passed > 0);
    QCOMPARE(r.check(QStringLiteral("nccl-all-reduce-bw"))->message, QStringLiteral("cancelled"));
    auto fresh = server.client();
    QCOMPARE(leftovers(*fresh, r.runId), 0);
}

void TestValidation::droppedWatchIsResumed() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QVERIFY(server.start(
        script({{QStringLiteral("nccl-all-reduce-bw"), check(0, QStringLiteral("nccl-pass.txt"), 400)}},
               {{QStringLiteral("dropWatchAfterEvents"), 1}})));
    auto client = server.client();
    Runner runner(*client, request(kTraining, {QStringLiteral("performance")}));
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    QVERIFY2(r.state == RunState::Passed, qPrintable(r.reason));
    QCOMPARE(r.check(QStringLiteral("nccl-all-reduce-bw"))->nccl->lastOopBusBw(), 386.56);
}

void TestValidation::conflictOnCreateIsRetried() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QVERIFY(server.start(
        script({{QStringLiteral("nccl-all-reduce-bw"), check(0, QStringLiteral("nccl-pass.txt"))}},
               {{QStringLiteral("conflictOnCreate"), QJsonArray{QStringLiteral("aicr-nccl")}}})));
    auto client = server.client();
    Runner runner(*client, request(kTraining, {QStringLiteral("performance")}));
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    QVERIFY2(r.state == RunState::Passed, qPrintable(r.reason));
}

void TestValidation::expiredTokenRefreshedByExecPlugin() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    const QString tokens = server.path(QStringLiteral("tokens.txt"));
    {
        QFile f(tokens);
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    QVERIFY(server.start(
        script({{QStringLiteral("nccl-all-reduce-bw"), check(0, QStringLiteral("nccl-pass.txt"))}},
               {{QStringLiteral("tokenMaxUses"), 5}}),
        {QStringLiteral("--tokens-file"), tokens}));
    Result<kube::Kubeconfig> generated = kube::Kubeconfig::load({server.kubeconfig()});
    QVERIFY(generated.ok());
    const kube::Cluster* cluster =
        generated->cluster(generated->context(QStringLiteral("pb-token"))->cluster);
    // An exec user whose plugin mints a new token each time it runs (tokens expire after 5 uses).
    const QString path = server.path(QStringLiteral("exec-kubeconfig"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("apiVersion: v1\nkind: Config\ncurrent-context: exec\nclusters:\n- name: c\n  cluster:\n    "
            "server: " +
            cluster->server.toUtf8() +
            "\n    certificate-authority-data: " + cluster->certificateAuthorityData.toBase64() +
            "\nusers:\n- name: u\n  user:\n    exec:\n      apiVersion: "
            "client.authentication.k8s.io/v1beta1\n      command: " +
            pbtest::fixture(QStringLiteral("kube/exec/mint-token.sh")).toUtf8() +
            "\n      interactiveMode: Never\n      env:\n      - name: PB_TOKENS_FILE\n        value: " +
            tokens.toUtf8() + "\ncontexts:\n- name: exec\n  context: {cluster: c, user: u}\n");
    f.close();
    Result<kube::Kubeconfig> k = kube::Kubeconfig::load({path});
    QVERIFY(k.ok());
    Result<kube::ResolvedContext> ctx = kube::resolveContext(*k);
    QVERIFY(ctx.ok());
    auto client = std::move(*kube::Client::create(*ctx));
    Runner runner(*client, request(kTraining, {QStringLiteral("performance")}));
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    QVERIFY2(r.state == RunState::Passed, qPrintable(r.reason));
    QVERIFY2(client->credentials().execRuns() > 2,
             qPrintable(QString::number(client->credentials().execRuns())));
}

void TestValidation::runStoreKeepsPartialRuns() {
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
    QVERIFY2(db.ok(), qPrintable(db ? QString() : db.error().toString()));
    store::RunStore runs(**db);
    pbtest::KubeTestServer server;
    QVERIFY(server.start(
        script({{QStringLiteral("nccl-all-reduce-bw"), check(0, QStringLiteral("nccl-pass.txt"))}})));
    auto client = server.client();
    Runner runner(*client, request(kTraining));
    QVERIFY(runner.prepare().ok());
    store::RunHeader h;
    h.recipeName = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
    h.context = QStringLiteral("pb-cert");
    Result<qint64> id = runs.begin(h, runner.runId(), runner.plan());
    QVERIFY2(id.ok(), qPrintable(id.ok() ? QString() : id.error().toString()));
    // Before the run ends the row already exists, every check pending: a crash keeps this much.
    Result<store::StoredRun> early = runs.load(*id);
    QVERIFY(early.ok());
    QCOMPARE(early->summary.state, QStringLiteral("running"));
    QCOMPARE(early->result.checks.size(), runner.plan().size());
    const RunResult r = runner.run();
    QVERIFY(runs.finish(*id, r).ok());
    Result<store::StoredRun> back = runs.load(*id);
    QVERIFY(back.ok());
    QCOMPARE(back->summary.state, QStringLiteral("passed"));
    QCOMPARE(back->summary.runUid, r.runId);
    const CheckRun* nccl = back->result.check(QStringLiteral("nccl-all-reduce-bw"));
    QVERIFY(nccl && nccl->nccl && nccl->score);
    QCOMPARE(nccl->nccl->rows.size(), r.check(QStringLiteral("nccl-all-reduce-bw"))->nccl->rows.size());
    QCOMPARE(nccl->nccl->lastOopBusBw(), 386.56);
    QCOMPARE(nccl->score->metrics.front().threshold->effective(), 270.0);
    QVERIFY(nccl->log.contains("Avg bus bandwidth"));
    Result<std::vector<store::HistoryPoint>> hist = runs.history(h.recipeName);
    QVERIFY(hist.ok());
    QCOMPARE(hist->size(), size_t(1));
    QCOMPARE(hist->front().value, 386.56);
    // No credential reaches the database.
    QVERIFY(!test::databaseContains(testDb.spec(), "PRIVATE KEY"));
}

void TestValidation::longLogsAreBounded() {
    PB_NO_DATABASE_ON_POSTGRES();
    QByteArray log;
    const qsizetype limit = 1024 * 1024;
    QByteArray line =
        "gpu-node-1:4100:4100 [0] NCCL INFO Channel 00/32 : 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n";
    appendBounded(log, "first line of the log\n", limit);
    for (int i = 0; i < 200000; ++i) // ~17 MB in small chunks
        appendBounded(log, line, limit);
    appendBounded(log,
                  "  4294967296    1073741824     float     sum      -1    20833  206.17  386.56       0\n",
                  limit);
    QVERIFY(log.size() <= limit + limit / 8);
    QVERIFY(log.startsWith("first line of the log\n"));
    QVERIFY(log.endsWith("386.56       0\n"));
    QCOMPARE(log.count("log too long"), 1);
    // What follows the marker starts on a whole line.
    const qsizetype m = log.indexOf("the middle was omitted]\n");
    QVERIFY(log.mid(m + 24).startsWith("gpu-node-1:"));
}

void TestValidation::cliValidateSignsAndVerifies() {
    pbtest::KubeTestServer server;
    QVERIFY(server.start(
        script({{QStringLiteral("nccl-all-reduce-bw"), check(0, QStringLiteral("nccl-pass.txt"))}})));
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    const QString db = testDb.spec();
    auto cli = [&](const QStringList& args, QByteArray* out = nullptr, QByteArray* errOut = nullptr) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PB_PASS"), QStringLiteral("correct horse battery"));
        test::addPgEnvironment(env);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(PB_CLI_BINARY), args + QStringList{QStringLiteral("--db"), db});
        p.waitForFinished(120000);
        if (out)
            *out = p.readAllStandardOutput();
        const QByteArray e = p.readAllStandardError();
        if (errOut)
            *errOut = e;
        return p.exitCode();
    };
    QByteArray out, errOut;
    QCOMPARE(
        cli({QStringLiteral("keygen"), QStringLiteral("--out"), dir.filePath(QStringLiteral("signer.key")),
             QStringLiteral("--passphrase-env"), QStringLiteral("PB_PASS")},
            &out, &errOut),
        0);
    const QString outDir = dir.filePath(QStringLiteral("evidence"));
    const int rc = cli({QStringLiteral("validate"),
                        QStringLiteral("--kubeconfig"),
                        server.kubeconfig(),
                        QStringLiteral("--context"),
                        QStringLiteral("pb-token"),
                        QStringLiteral("--version"),
                        QStringLiteral("sample-2"),
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
                        QStringLiteral("--key"),
                        dir.filePath(QStringLiteral("signer.key")),
                        QStringLiteral("--passphrase-env"),
                        QStringLiteral("PB_PASS"),
                        QStringLiteral("--out"),
                        outDir,
                        QStringLiteral("--format"),
                        QStringLiteral("json")},
                       &out, &errOut);
    QVERIFY2(rc == 0, errOut.constData());
    const QJsonObject result = QJsonDocument::fromJson(out).object();
    QCOMPARE(result.value(QStringLiteral("state")).toString(), QStringLiteral("passed"));
    const QJsonObject ev = result.value(QStringLiteral("evidence")).toObject();
    const QString bundle = ev.value(QStringLiteral("bundle")).toString();
    QVERIFY(QFileInfo::exists(bundle + QStringLiteral("/statement.intoto.json")));
    QVERIFY(QFileInfo::exists(ev.value(QStringLiteral("pointer")).toString()));
    // The key's passphrase and the token never reach stdout, stderr or the database.
    QVERIFY(!out.contains("correct horse") && !errOut.contains("correct horse") &&
            !errOut.contains("pb-test-token"));

    QVERIFY2(cli({QStringLiteral("evidence"), QStringLiteral("check"), bundle, QStringLiteral("--key"),
                  dir.filePath(QStringLiteral("signer.key.pub")), QStringLiteral("--insecure-ignore-tlog")},
                 &out, &errOut) == 0,
             out + errOut);
    QCOMPARE(cli({QStringLiteral("verify"), QStringLiteral("--bundle"),
                  ev.value(QStringLiteral("attestation")).toString(), QStringLiteral("--key"),
                  dir.filePath(QStringLiteral("signer.key.pub")), QStringLiteral("--insecure-ignore-tlog"),
                  QStringLiteral("--digest"),
                  QStringLiteral("sha256:") + ev.value(QStringLiteral("recipeDigest")).toString()},
                 &out, &errOut),
             0);

    // The run is in the database, with the context name but no secret.
    QCOMPARE(cli({QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--format"),
                  QStringLiteral("json")},
                 &out),
             0);
    const QJsonArray list = QJsonDocument::fromJson(out).array();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.first().toObject().value(QStringLiteral("context")).toString(), QStringLiteral("pb-token"));
    const QString id = list.first().toObject().value(QStringLiteral("id")).toString();
    QCOMPARE(cli({QStringLiteral("runs"), QStringLiteral("show"), id, QStringLiteral("--format"),
                  QStringLiteral("json")},
                 &out),
             0);
    const QJsonObject shown = QJsonDocument::fromJson(out).object();
    QCOMPARE(shown.value(QStringLiteral("checks")).toArray().size(), 1);
    QCOMPARE(shown.value(QStringLiteral("checks"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("nccl"))
                 .toObject()
                 .value(QStringLiteral("lastOopBusBw"))
                 .toDouble(),
             386.56);
    QVERIFY(!test::databaseContains(db, "pb-test-token"));
    QVERIFY(!test::databaseContains(db, "correct horse"));
}

void TestValidation::cliPerfImport() {
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    const QString db = testDb.spec();
    QProcess p;
    p.start(QStringLiteral(PB_CLI_BINARY), {QStringLiteral("perf"),
                                            QStringLiteral("import"),
                                            pbtest::fixture(QStringLiteral("validation/nccl-low.txt")),
                                            QStringLiteral("--kind"),
                                            QStringLiteral("nccl"),
                                            QStringLiteral("--version"),
                                            QStringLiteral("sample-2"),
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
                                            QStringLiteral("--format"),
                                            QStringLiteral("json"),
                                            QStringLiteral("--db"),
                                            db});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1); // below 0.9 x 300
    const QJsonObject o = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    const QJsonObject metric = o.value(QStringLiteral("score"))
                                   .toObject()
                                   .value(QStringLiteral("metrics"))
                                   .toArray()
                                   .first()
                                   .toObject();
    QVERIFY(qAbs(metric.value(QStringLiteral("value")).toDouble() - 250.10) < 0.01);
    QCOMPARE(metric.value(QStringLiteral("effectiveThreshold")).toDouble(), 270.0);
    QCOMPARE(o.value(QStringLiteral("run")).toString().size(), 8); // the run's one id

    // Without a recipe, --constraint gives the threshold.
    QProcess q;
    q.start(QStringLiteral(PB_CLI_BINARY),
            {QStringLiteral("perf"), QStringLiteral("import"),
             pbtest::fixture(QStringLiteral("validation/nccl-low.txt")), QStringLiteral("--kind"),
             QStringLiteral("nccl"), QStringLiteral("--constraint"),
             QStringLiteral("nccl-all-reduce-bw=>= 250"), QStringLiteral("--coordinate"),
             QStringLiteral("lab-a"), QStringLiteral("--db"), db});
    QVERIFY(q.waitForFinished(60000));
    QCOMPARE(q.exitCode(), 0);
    const QByteArray text = q.readAllStandardOutput();
    QVERIFY2(text.contains("250.10") && text.contains("pass"), text.constData());
}

// Issue #20 through the CLI: a token revoked mid-run makes the check `other` (unauthorized), the run
// incomplete (exit 3), the evidence unsigned without --sign-incomplete and rated incomplete by
// `evidence check`; what the revoked token could not delete is listed by `runs leftovers` and
// deleted by `runs cleanup` with working credentials.
void TestValidation::cliIncompleteRun() {
    pbtest::KubeTestServer server;
    QJsonObject revoke = check(0, QStringLiteral("nccl-pass.txt"), 1500);
    revoke.insert(QStringLiteral("serverFault"), QStringLiteral("revokeTokens"));
    QVERIFY(server.start(script({{QStringLiteral("nccl-all-reduce-bw"), revoke}})));
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    const QString db = testDb.spec();
    auto cli = [&](const QStringList& args, QByteArray* out = nullptr, QByteArray* errOut = nullptr) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PB_PASS"), QStringLiteral("correct horse battery"));
        test::addPgEnvironment(env);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(PB_CLI_BINARY), args + QStringList{QStringLiteral("--db"), db});
        p.waitForFinished(120000);
        const QByteArray o = p.readAllStandardOutput(), e = p.readAllStandardError();
        if (out)
            *out = o;
        if (errOut)
            *errOut = e;
        return p.exitCode();
    };
    QByteArray out, errOut;
    QCOMPARE(
        cli({QStringLiteral("keygen"), QStringLiteral("--out"), dir.filePath(QStringLiteral("signer.key")),
             QStringLiteral("--passphrase-env"), QStringLiteral("PB_PASS")}),
        0);
    const int rc = cli({QStringLiteral("validate"),
                        QStringLiteral("--kubeconfig"),
                        server.kubeconfig(),
                        QStringLiteral("--context"),
                        QStringLiteral("pb-token"),
                        QStringLiteral("--version"),
                        QStringLiteral("sample-2"),
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
                        QStringLiteral("--retry-limit"),
                        QStringLiteral("1"),
                        QStringLiteral("--key"),
                        dir.filePath(QStringLiteral("signer.key")),
                        QStringLiteral("--passphrase-env"),
                        QStringLiteral("PB_PASS"),
                        QStringLiteral("--out"),
                        dir.filePath(QStringLiteral("evidence")),
                        QStringLiteral("--format"),
                        QStringLiteral("json")},
                       &out, &errOut);
    QVERIFY2(rc == kExitIncomplete,
             qPrintable(QString::number(rc) + QLatin1Char(' ') + QString::fromUtf8(errOut)));
    const QJsonObject result = QJsonDocument::fromJson(out).object();
    QCOMPARE(result.value(QStringLiteral("state")).toString(), QStringLiteral("incomplete"));
    QCOMPARE(result.value(QStringLiteral("exitCode")).toInt(), 3);
    const QJsonObject nccl = result.value(QStringLiteral("checks")).toArray().first().toObject();
    QCOMPARE(nccl.value(QStringLiteral("status")).toString(), QStringLiteral("other"));
    QCOMPARE(nccl.value(QStringLiteral("cause")).toString(), QStringLiteral("unauthorized"));
    QVERIFY(!result.value(QStringLiteral("leftovers")).toArray().isEmpty());
    const QJsonObject ev = result.value(QStringLiteral("evidence")).toObject();
    QVERIFY(!ev.contains(QStringLiteral("pointer")));
    QVERIFY2(errOut.contains("--sign-incomplete"), errOut.constData());
    QCOMPARE(cli({QStringLiteral("evidence"), QStringLiteral("check"),
                  ev.value(QStringLiteral("bundle")).toString()},
                 &out),
             3);
    QVERIFY2(out.contains("incomplete (exit 3)"), out.constData());

    const QString id = result.value(QStringLiteral("id")).toString();
    QCOMPARE(id, result.value(QStringLiteral("runId")).toString()); // one id: what validate printed
    QCOMPARE(cli({QStringLiteral("runs"), QStringLiteral("leftovers"), QStringLiteral("--format"),
                  QStringLiteral("json")},
                 &out),
             0);
    const QJsonArray left = QJsonDocument::fromJson(out).array();
    QVERIFY(!left.isEmpty());
    QCOMPARE(left.first().toObject().value(QStringLiteral("run")).toString(), id);
    QVERIFY2(cli({QStringLiteral("runs"), QStringLiteral("cleanup"), id, QStringLiteral("--kubeconfig"),
                  server.kubeconfig(), QStringLiteral("--context"), QStringLiteral("pb-cert")},
                 &out, &errOut) == 0,
             out + errOut);
    QVERIFY(out.contains("deleted"));
    QCOMPARE(cli({QStringLiteral("runs"), QStringLiteral("leftovers")}, &out), 0);
    QVERIFY2(out.contains("no leftovers"), out.constData());
    QCOMPARE(leftovers(*server.client(), result.value(QStringLiteral("runId")).toString()), 0);
}

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
