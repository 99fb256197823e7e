// Issue #26: a validation run never reports a success it did not have. Against pb-kube-testserver
// (real HTTPS, the production kube::Client, Runner and ops::validate):
//  - an --out that already holds evidence is refused before any request reaches the cluster; a run
//    whose evidence could not be written is not a success (exit 4, receipt failed, reason on record);
//  - every object a run creates is on record from the moment it exists, --no-cleanup keeps them and
//    says so, and `runs cleanup` deletes exactly them; the validators' ServiceAccount is bound to a
//    per-run ClusterRole, cluster-admin only when the performance phase runs;
//  - a credential or TLS error ends the run before it starts (the exec plugin run once, nothing
//    stored or written), as kubectl exits 1 at once.
#include "DbFixture.h"
#include "KubeTestServer.h"
#include "TestUtil.h"

#include "catalog/Loader.h"
#include "db/Database.h"
#include "ops/Validate.h"
#include "receipts/Kinds.h"
#include "receipts/Ledger.h"
#include "store/CatalogStore.h"
#include "store/RunStore.h"
#include "validation/Runner.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <thread>

using namespace pb;
using namespace pb::validation;

namespace {

using pbtest::writeFile;

const QString kTraining = QStringLiteral("h100-eks-ubuntu-training-kubeflow");

QJsonObject script() {
    return QJsonObject{{QStringLiteral("defaultCheck"),
                        QJsonObject{{QStringLiteral("exitCode"), 0},
                                    {QStringLiteral("runMs"), 60},
                                    {QStringLiteral("pendingMs"), 20},
                                    {QStringLiteral("log"), QStringLiteral("RESULT: ok\n")}}}};
}

ops::ValidateRequest request(const QString& kubeconfig, const QString& context, const QString& outDir) {
    Result<catalog::Catalog> cat =
        catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
    if (!cat)
        qFatal("embedded catalog: %s", qPrintable(cat.error().toString()));
    Result<catalog::RecipeResult> recipe = store::resolveStoredRecipe(*cat, kTraining);
    if (!recipe)
        qFatal("%s", qPrintable(recipe.error().toString()));
    ops::ValidateRequest req;
    req.kubeconfigs = {kubeconfig};
    req.context = context;
    req.recipe.resolved = *recipe;
    req.recipe.validators = cat->validators;
    req.phases = {QStringLiteral("deployment")};
    req.pendingLimitSec = 2;
    req.retryLimitSec = 2;
    req.pollMs = 50;
    req.outDir = outDir;
    req.toolVersion = QStringLiteral("test");
    return req;
}

int requestsLogged(const QString& log) {
    QFile f(log);
    return f.open(QIODevice::ReadOnly) ? int(f.readAll().count('\n')) : 0;
}

int runCount(db::Database& db) {
    Result<std::vector<store::RunSummary>> all = store::RunStore(db).list();
    if (!all)
        qFatal("%s", qPrintable(all.error().toString()));
    return int(all->size());
}

std::vector<receipts::Receipt> receiptsOf(db::Database& db, QLatin1StringView kind) {
    receipts::ListFilter f;
    f.kind = QString(kind);
    Result<std::vector<receipts::Receipt>> r = receipts::Ledger(db).list(f);
    if (!r)
        qFatal("%s", qPrintable(r.error().toString()));
    return *r;
}

// The run's objects still on the cluster (not being deleted), by their run-id label.
QStringList objectsOfRun(kube::Client& c, const QString& runId) {
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("labelSelector"), QStringLiteral("aicr.nvidia.com/run-id=%1").arg(runId));
    QStringList out;
    for (const QString& path : {QStringLiteral("/apis/batch/v1/namespaces/aicr-validation/jobs"),
                                QStringLiteral("/api/v1/namespaces/aicr-validation/configmaps"),
                                QStringLiteral("/api/v1/namespaces/aicr-validation/serviceaccounts"),
                                QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterroles"),
                                QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings")}) {
        const kube::ApiResponse r = c.get(path, q);
        if (!r.ok())
            qFatal("%s", qPrintable(r.message));
        for (const QJsonValue& v : r.object.value(QStringLiteral("items")).toArray()) {
            const QJsonObject meta = v.toObject().value(QStringLiteral("metadata")).toObject();
            if (meta.value(QStringLiteral("deletionTimestamp")).toString().isEmpty())
                out << path + QLatin1Char('/') + meta.value(QStringLiteral("name")).toString();
        }
    }
    out.sort();
    return out;
}

} // namespace

class TestValidationTruth : public QObject {
    Q_OBJECT

  private slots:
    void existingEvidenceIsRefusedBeforeTheRun();
    void evidenceThatCannotBeWrittenIsNotSuccess();
    void keptObjectsAreTrackedAndCleanedUp();
    void validatorsGetOnlyWhatTheyNeed();
    void clientErrorsEndTheRunBeforeItStarts();
    void stoppedServerIsAFaultWithin30s();
};

void TestValidationTruth::existingEvidenceIsRefusedBeforeTheRun() {
    pbtest::KubeTestServer server;
    const QString log = server.path(QStringLiteral("requests.log"));
    QVERIFY(server.start(script(), {QStringLiteral("--request-log"), log}));
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
    QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
    const QString out = dir.filePath(QStringLiteral("out"));
    const ops::ValidateRequest req = request(server.kubeconfig(), QStringLiteral("pb-cert"), out);

    Result<ops::ValidateOutcome> first = ops::validate(ops::Context(**db), req);
    QVERIFY2(first, first ? "" : qPrintable(first.error().toString()));
    QCOMPARE(first->exitCode(), 0);
    QVERIFY(!first->evidenceDir.isEmpty());
    QFile manifest(first->evidenceDir + QStringLiteral("/manifest.json"));
    QVERIFY(manifest.open(QIODevice::ReadOnly));
    const QByteArray before = manifest.readAll();
    manifest.close();

    const int requests = requestsLogged(log);
    // The run's requests, as the apiserver's audit log names them: each is a verb on a served resource
    // (or /version), and the run asks for nothing beyond what it needs.
    {
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QSet<QString> verbs, resources;
        for (const QByteArray& line : f.readAll().split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            QCOMPARE(e.value(QStringLiteral("userAgent")).toString(), QStringLiteral("proofbench"));
            if (e.contains(QStringLiteral("nonResourceURL"))) {
                QCOMPARE(e.value(QStringLiteral("nonResourceURL")).toString(), QStringLiteral("/version"));
                continue;
            }
            verbs << e.value(QStringLiteral("verb")).toString();
            QString r = e.value(QStringLiteral("resource")).toString();
            if (!e.value(QStringLiteral("subresource")).toString().isEmpty())
                r += QLatin1Char('/') + e.value(QStringLiteral("subresource")).toString();
            resources << r;
        }
        QVERIFY2(
            (verbs - QSet<QString>{QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch"),
                                   QStringLiteral("create"), QStringLiteral("delete")})
                .isEmpty(),
            qPrintable(QStringList(verbs.values()).join(QLatin1Char(','))));
        QVERIFY2((resources - QSet<QString>{QStringLiteral("nodes"), QStringLiteral("namespaces"),
                                            QStringLiteral("pods"), QStringLiteral("pods/log"),
                                            QStringLiteral("jobs"), QStringLiteral("configmaps"),
                                            QStringLiteral("serviceaccounts"), QStringLiteral("clusterroles"),
                                            QStringLiteral("clusterrolebindings")})
                     .isEmpty(),
                 qPrintable(QStringList(resources.values()).join(QLatin1Char(','))));
        QVERIFY(resources.contains(QStringLiteral("jobs")) && verbs.contains(QStringLiteral("watch")));
    }
    const int runs = runCount(**db);
    const size_t receiptsBefore = receiptsOf(**db, receipts::kinds::ValidationRun).size();
    ops::ValidateFailure why = ops::ValidateFailure::None;
    Result<ops::ValidateOutcome> second = ops::validate(ops::Context(**db), req, &why);
    QVERIFY(!second);
    QCOMPARE(int(why), int(ops::ValidateFailure::Refused));
    QVERIFY2(second.error().toString().contains(QLatin1String("already there")),
             qPrintable(second.error().toString()));
    QCOMPARE(requestsLogged(log), requests); // the cluster was not touched
    QCOMPARE(runCount(**db), runs);
    QCOMPARE(receiptsOf(**db, receipts::kinds::ValidationRun).size(), receiptsBefore);
    QVERIFY(manifest.open(QIODevice::ReadOnly));
    QCOMPARE(manifest.readAll(), before);

    // An --out that is a file is refused the same way, and nothing is created for a refused run.
    const QString file = dir.filePath(QStringLiteral("a-file"));
    QVERIFY(writeFile(file, "x"));
    Result<ops::ValidateOutcome> onFile = ops::validate(
        ops::Context(**db), request(server.kubeconfig(), QStringLiteral("pb-cert"), file), &why);
    QVERIFY(!onFile && why == ops::ValidateFailure::Refused);
    QCOMPARE(requestsLogged(log), requests);

    // The CLI: usage error (2), the reason on stderr, nothing on the cluster.
    QProcess cli;
    cli.start(QStringLiteral(PB_CLI_BINARY), {QStringLiteral("validate"),
                                              QStringLiteral("--db"),
                                              dir.filePath(QStringLiteral("cli.sqlite")),
                                              QStringLiteral("--kubeconfig"),
                                              server.kubeconfig(),
                                              QStringLiteral("--context"),
                                              QStringLiteral("pb-cert"),
                                              QStringLiteral("--catalog"),
                                              pbtest::embeddedCatalogDir(QStringLiteral("sample-2")),
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
                                              QStringLiteral("deployment"),
                                              QStringLiteral("--out"),
                                              out});
    QVERIFY(cli.waitForFinished(60000));
    const QByteArray err = cli.readAllStandardError();
    QCOMPARE(cli.exitCode(), 2);
    QVERIFY2(err.contains("already there"), err.constData());
    QCOMPARE(requestsLogged(log), requests);
}

void TestValidationTruth::evidenceThatCannotBeWrittenIsNotSuccess() {
    pbtest::KubeTestServer server;
    QVERIFY(server.start(script()));
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
    QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
    const QString out = dir.filePath(QStringLiteral("out"));
    ops::ValidateRequest req = request(server.kubeconfig(), QStringLiteral("pb-cert"), out);
    // While the checks run, something else takes the bundle's place.
    req.events.planned = [&](qint64, const QString&, const std::vector<CheckRun>&,
                             const catalog::RecipeResult&) {
        QDir().mkpath(out);
        writeFile(out + QStringLiteral("/summary-bundle"), "in the way");
    };
    Result<ops::ValidateOutcome> done = ops::validate(ops::Context(**db), req);
    QVERIFY2(done, done ? "" : qPrintable(done.error().toString()));
    QCOMPARE(done->result.state, RunState::Passed); // the checks' own verdict is kept
    QVERIFY(done->evidenceMissing());
    QVERIFY(done->evidenceDir.isEmpty());
    QCOMPARE(done->exitCode(), ops::kExitEvidenceNotWritten);
    QVERIFY2(done->result.reason.contains(QLatin1String("evidence not written")),
             qPrintable(done->result.reason));

    Result<store::StoredRun> stored = store::RunStore(**db).load(done->runRow);
    QVERIFY(stored);
    QVERIFY2(stored->summary.reason.contains(QLatin1String("evidence not written")),
             qPrintable(stored->summary.reason));
    const std::vector<receipts::Receipt> r = receiptsOf(**db, receipts::kinds::ValidationRun);
    QVERIFY(!r.empty());
    QCOMPARE(r.back().result, receipts::Outcome::Failed);
    QVERIFY2(r.back().message.contains(QLatin1String("evidence not written")), qPrintable(r.back().message));
}

void TestValidationTruth::keptObjectsAreTrackedAndCleanedUp() {
    pbtest::KubeTestServer server;
    QVERIFY(server.start(script()));
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
    QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
    store::RunStore runs(**db);
    ops::ValidateRequest req = request(server.kubeconfig(), QStringLiteral("pb-cert"), dir.filePath("out"));
    req.cleanup = false;
    qint64 row = 0;
    int onRecordAtFirstCheck = -1;
    QStringList said;
    req.events.planned = [&](qint64 r, const QString&, const std::vector<CheckRun>&,
                             const catalog::RecipeResult&) { row = r; };
    req.events.checkChanged = [&](const CheckRun& c) {
        if (c.state == CheckState::Running && onRecordAtFirstCheck < 0) {
            Result<std::vector<store::RunLeftover>> left = runs.leftovers(row);
            onRecordAtFirstCheck = left ? int(left->size()) : -2;
        }
    };
    req.events.message = [&](const QString& m) { said << m; };
    Result<ops::ValidateOutcome> done = ops::validate(ops::Context(**db), req);
    QVERIFY2(done, done ? "" : qPrintable(done.error().toString()));
    QCOMPARE(done->exitCode(), 0);
    // Recorded when created: the role, binding, account and two ConfigMaps before the first check.
    QCOMPARE(onRecordAtFirstCheck, 5);

    auto admin = server.client();
    const QStringList onCluster = objectsOfRun(*admin, done->result.runId);
    QStringList created = done->result.created;
    created.sort();
    QCOMPARE(onCluster, created); // 4 Jobs, the role, its binding, the account, 2 ConfigMaps
    QCOMPARE(created.size(), qsizetype(9));
    Result<std::vector<store::RunLeftover>> left = runs.leftovers(done->runRow);
    QVERIFY(left);
    QStringList recorded;
    for (const store::RunLeftover& l : *left) {
        recorded << l.path;
        QVERIFY2(l.error.contains(QLatin1String("--no-cleanup")), qPrintable(l.error));
    }
    recorded.sort();
    QCOMPARE(recorded, created);
    QVERIFY2(said.join(QLatin1Char('\n')).contains(QLatin1String("kept 9 objects")),
             qPrintable(said.join(QLatin1Char('\n'))));

    ops::CleanupRunRequest cleanup;
    cleanup.runRow = done->runRow;
    cleanup.kubeconfigs = {server.kubeconfig()};
    cleanup.retryLimitSec = 2;
    Result<ops::CleanupRunOutcome> cleaned = ops::cleanupRun(ops::Context(**db), cleanup);
    QVERIFY2(cleaned, cleaned ? "" : qPrintable(cleaned.error().toString()));
    QCOMPARE(cleaned->removed.size(), qsizetype(9));
    QVERIFY(cleaned->still.empty());
    QVERIFY(objectsOfRun(*admin, done->result.runId).isEmpty());
    Result<std::vector<store::RunLeftover>> after = runs.leftovers(done->runRow);
    QVERIFY(after && after->empty());

    // A run that cleans up: everything it created was deleted and is on record as removed.
    ops::ValidateRequest tidy = request(server.kubeconfig(), QStringLiteral("pb-cert"), dir.filePath("out2"));
    Result<ops::ValidateOutcome> tidied = ops::validate(ops::Context(**db), tidy);
    QVERIFY2(tidied, tidied ? "" : qPrintable(tidied.error().toString()));
    QVERIFY(objectsOfRun(*admin, tidied->result.runId).isEmpty());
    Result<std::vector<store::RunLeftover>> open = runs.leftovers(tidied->runRow);
    QVERIFY(open && open->empty());
    Result<std::vector<store::RunLeftover>> all = runs.leftovers(tidied->runRow, true);
    QVERIFY(all);
    QCOMPARE(all->size(), size_t(9));
    for (const store::RunLeftover& l : *all)
        QVERIFY2(l.removedAt, qPrintable(l.path));
}

void TestValidationTruth::validatorsGetOnlyWhatTheyNeed() {
    PB_NO_DATABASE_ON_POSTGRES();
    // Read everything, write only the kinds the deployment and conformance validators create.
    const QJsonArray rules = validatorRules({QStringLiteral("deployment"), QStringLiteral("conformance")});
    QVERIFY(!rules.isEmpty());
    for (const QJsonValue& v : rules) {
        const QJsonObject r = v.toObject();
        const QStringList verbs = r.value(QStringLiteral("verbs")).toVariant().toStringList();
        const QStringList resources = r.value(QStringLiteral("resources")).toVariant().toStringList();
        QVERIFY2(!verbs.contains(QStringLiteral("*")) && !verbs.contains(QStringLiteral("escalate")) &&
                     !verbs.contains(QStringLiteral("bind")) &&
                     !verbs.contains(QStringLiteral("impersonate")),
                 QJsonDocument(r).toJson().constData());
        if (resources.contains(QStringLiteral("*")))
            QCOMPARE(verbs,
                     (QStringList{QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")}));
        QVERIFY(!resources.contains(QStringLiteral("clusterrolebindings")) &&
                !resources.contains(QStringLiteral("clusterroles")) &&
                !resources.contains(QStringLiteral("secrets")));
    }
    // The performance phase installs the Kubeflow Trainer when missing: cluster-admin, as AICR binds.
    QVERIFY(validatorRules({QStringLiteral("deployment"), QStringLiteral("performance")}).isEmpty());

    // On the cluster: the binding names the run's own role, which has exactly those rules.
    pbtest::KubeTestServer server;
    QVERIFY(server.start(script()));
    auto client = server.client();
    QTemporaryDir dir;
    ops::ValidateRequest req = request(server.kubeconfig(), QStringLiteral("pb-cert"), QString());
    RunRequest run;
    run.recipe = *req.recipe.resolved;
    run.validators = *req.recipe.validators;
    run.phases = req.phases;
    run.cleanup = false;
    run.pollMs = 50;
    Runner runner(*client, run);
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    QCOMPARE(r.state, RunState::Passed);
    const QString name = QStringLiteral("aicr-validator-") + r.runId;
    const kube::ApiResponse binding =
        client->get(QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/") + name);
    QVERIFY2(binding.ok(), qPrintable(binding.message));
    QCOMPARE(
        binding.object.value(QStringLiteral("roleRef")).toObject().value(QStringLiteral("name")).toString(),
        name);
    const kube::ApiResponse role =
        client->get(QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterroles/") + name);
    QVERIFY2(role.ok(), qPrintable(role.message));
    QCOMPARE(role.object.value(QStringLiteral("rules")).toArray(), validatorRules(req.phases));
}

void TestValidationTruth::clientErrorsEndTheRunBeforeItStarts() {
    pbtest::KubeTestServer server;
    const QString log = server.path(QStringLiteral("requests.log"));
    QVERIFY(server.start(script(), {QStringLiteral("--request-log"), log}));
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
    QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
    const QString serverUrl = server.context(QStringLiteral("pb-cert"))->cluster.server;
    const QString runsFile = dir.filePath(QStringLiteral("plugin-runs"));
    const QString plugin = dir.filePath(QStringLiteral("plugin.sh"));
    QVERIFY(writeFile(plugin,
                      "#!/bin/sh\necho ran >> '" + runsFile.toUtf8() +
                          "'\necho 'token expired: log in' >&2\nexit 1\n",
                      true));
    const QByteArray cluster =
        "clusters:\n- name: pb\n  cluster:\n    server: " + serverUrl.toUtf8() +
        "\n    certificate-authority: " + server.path(QStringLiteral("state/ca.crt")).toUtf8() + "\n";
    const QByteArray context =
        "contexts:\n- name: c\n  context: {cluster: pb, user: u}\ncurrent-context: c\n";
    struct Case {
        QString name;
        QByteArray kubeconfig;
    };
    const QList<Case> cases{
        {QStringLiteral("exec plugin fails"),
         cluster +
             "users:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n"
             "      command: " +
             plugin.toUtf8() + "\n      interactiveMode: Never\n" + context},
        {QStringLiteral("basic auth"),
         cluster + "users:\n- name: u\n  user:\n    username: admin\n    password: hunter2\n" + context},
        {QStringLiteral("SNI mismatch"), cluster +
                                             "    tls-server-name: wrong.example.invalid\nusers:\n- name: "
                                             "u\n  user:\n    token: pb-test-token\n" +
                                             context},
    };
    for (const Case& tc : cases) {
        const QString kc = dir.filePath(QStringLiteral("kc.yaml"));
        QVERIFY(writeFile(kc, "apiVersion: v1\nkind: Config\n" + tc.kubeconfig));
        QFile::remove(runsFile);
        const QString out = dir.filePath(QStringLiteral("out-") + QString::number(qHash(tc.name)));
        ops::ValidateRequest req = request(kc, QString(), out);
        req.retryLimitSec = 30; // would be spent retrying if these were treated as cluster faults
        ops::ValidateFailure why = ops::ValidateFailure::None;
        QElapsedTimer clock;
        clock.start();
        Result<ops::ValidateOutcome> done = ops::validate(ops::Context(**db), req, &why);
        const qint64 ms = clock.elapsed();
        QVERIFY2(!done, qPrintable(tc.name));
        QCOMPARE(int(why), int(ops::ValidateFailure::Failed));
        QVERIFY2(ms < 5000, qPrintable(tc.name + QStringLiteral(": %1 ms").arg(ms)));
        QVERIFY2(done.error().toString().contains(QLatin1String("nothing was run")),
                 qPrintable(done.error().toString()));
        QFile counted(runsFile);
        QVERIFY(!counted.open(QIODevice::ReadOnly) || counted.readAll().count('\n') <= 1);
        QCOMPARE(runCount(**db), 0);
        QVERIFY(receiptsOf(**db, receipts::kinds::ValidationRun).empty());
        QVERIFY2(!QFileInfo::exists(out), qPrintable(tc.name));
    }
}

// A server that stops answering (SIGSTOP: its sockets stay open, nothing comes back) is a fault
// within 30 s with the client's default deadlines (an idle stream is probed after 10 s, the probe
// waits 5 s; a new connection's handshake 10 s) and a 5 s retry limit, and the run ends soon after
// (the cleanup does not spend a connect timeout on each object).
void TestValidationTruth::stoppedServerIsAFaultWithin30s() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QJsonObject s = script();
    QJsonObject longCheck = s.value(QStringLiteral("defaultCheck")).toObject();
    longCheck.insert(QStringLiteral("runMs"), 120000);
    s.insert(QStringLiteral("defaultCheck"), longCheck);
    QVERIFY(server.start(s));
    auto client = server.client();
    const ops::ValidateRequest req = request(server.kubeconfig(), QStringLiteral("pb-cert"), QString());
    RunRequest run;
    run.recipe = *req.recipe.resolved;
    run.validators = *req.recipe.validators;
    run.phases = req.phases;
    run.pollMs = 50;
    run.transientSec = 5;
    run.cleanupSec = 5;
    QElapsedTimer sinceStop;
    qint64 faultAfterMs = -1;
    std::thread stopper;
    RunObserver obs;
    obs.checkChanged = [&](const CheckRun& c) {
        if (c.state == CheckState::Running && !stopper.joinable())
            stopper = std::thread([&] {
                QThread::msleep(1500); // the pod is running and watched
                ::kill(pid_t(server.pid()), SIGSTOP);
                sinceStop.start();
            });
        if (c.state == CheckState::Other && faultAfterMs < 0 && sinceStop.isValid())
            faultAfterMs = sinceStop.elapsed();
    };
    Runner runner(*client, run, obs);
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    const qint64 endedAfterMs = sinceStop.isValid() ? sinceStop.elapsed() : -1;
    if (stopper.joinable())
        stopper.join();
    ::kill(pid_t(server.pid()), SIGCONT);
    qInfo("stopped server: the check was 'other' %lld ms after SIGSTOP, the run ended after %lld ms",
          faultAfterMs, endedAfterMs);
    QCOMPARE(r.state, RunState::Incomplete);
    const CheckRun& first = r.checks.front();
    QVERIFY2(first.state == CheckState::Other && first.cause == QLatin1String("api-unreachable"),
             qPrintable(first.message));
    QVERIFY2(faultAfterMs > 0 && faultAfterMs < 30000,
             qPrintable(QStringLiteral("fault after %1 ms").arg(faultAfterMs)));
    QVERIFY2(endedAfterMs < 45000,
             qPrintable(QStringLiteral("run ended %1 ms after the stop").arg(endedAfterMs)));
    QCOMPARE(r.leftovers.size(), size_t(r.created.size())); // nothing could be deleted: all on record
}

QTEST_GUILESS_MAIN(TestValidationTruth)
#include "tst_validationtruth.moc"
