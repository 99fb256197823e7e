// Issue #20: a check fails only on its own verdict. Each cluster fault is scripted in
// pb-kube-testserver (real HTTPS, the production kube::Client, the production Runner and
// ops::validate) and the run is checked for the CTRF status (`other`, with the cause class and the
// Kubernetes reason), the run's result (incomplete, exit 3), how fast the fault was noticed, what
// the cleanup left (recorded, then deleted by ops::cleanupRun), the evidence rating (incomplete,
// never "valid, with failed phases") and signing (refused unless signIncomplete; then the statement
// and the pointer say incomplete). Limits are scaled down so the whole file runs in seconds. The
// cases that store a run run on both engines (DbFixture.h), the runner alone on SQLite's half.
#include "DbFixture.h"
#include "KubeTestServer.h"
#include "TestUtil.h"

#include "catalog/Loader.h"
#include "db/Database.h"
#include "evidence/Bundle.h"
#include "ops/CheckEvidence.h"
#include "ops/Validate.h"
#include "sigstore/Keys.h"
#include "store/CatalogStore.h"
#include "store/RunStore.h"
#include "validation/Emit.h"
#include "validation/Runner.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using namespace pb::validation;

namespace {

const QString kTraining = QStringLiteral("h100-eks-ubuntu-training-kubeflow");

catalog::Catalog embedded() {
    Result<catalog::Catalog> c = catalog::loadCatalog(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")));
    if (!c)
        qFatal("embedded catalog: %s", qPrintable(c.error().toString()));
    return *c;
}

QJsonObject passing(int runMs = 80) {
    return QJsonObject{{QStringLiteral("exitCode"), 0},
                       {QStringLiteral("runMs"), runMs},
                       {QStringLiteral("pendingMs"), 20},
                       {QStringLiteral("log"), QStringLiteral("RESULT: ok\n")}};
}

QJsonObject faulty(const char* key, const char* value, int runMs = 3000) {
    QJsonObject o = passing(runMs);
    o.insert(QLatin1String(key), QLatin1String(value));
    o.insert(QStringLiteral("faultAfterMs"), 100);
    return o;
}

QJsonObject script(const QJsonObject& checks, const QJsonObject& extra = {}) {
    QJsonObject s{{QStringLiteral("checks"), checks},
                  {QStringLiteral("defaultCheck"), passing()},
                  {QStringLiteral("serverVersion"),
                   QJsonObject{{QStringLiteral("major"), QStringLiteral("1")},
                               {QStringLiteral("minor"), QStringLiteral("34")},
                               {QStringLiteral("gitVersion"), QStringLiteral("v1.34.1")}}}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        s.insert(it.key(), it.value());
    return s;
}

// The deployment phase of the training recipe (four checks), every limit scaled down.
RunRequest fastRequest() {
    const catalog::Catalog cat = embedded();
    RunRequest r;
    Result<catalog::RecipeResult> recipe = store::resolveStoredRecipe(cat, kTraining);
    if (!recipe)
        qFatal("%s", qPrintable(recipe.error().toString()));
    r.recipe = *recipe;
    r.validators = cat.validators;
    r.phases = {QStringLiteral("deployment")};
    r.toolVersion = QStringLiteral("test");
    r.pollMs = 50;
    r.transientSec = 1;
    r.cleanupSec = 1;
    r.unschedulableSec = 1;
    r.imagePullSec = 1;
    r.pendingTimeoutSec = 2;
    r.namespaceWaitSec = 5;
    r.graceSec = 2;
    return r;
}

// The same run through the operation (ops::validate), as `proofbench validate` starts it.
ops::ValidateRequest opsRequest(const pbtest::KubeTestServer& server, const QString& context,
                                const QString& outDir, int pendingLimitSec) {
    const RunRequest run = fastRequest();
    ops::ValidateRequest req;
    req.kubeconfigs = {server.kubeconfig()};
    req.context = context;
    req.recipe.resolved = run.recipe;
    req.recipe.validators = run.validators;
    req.phases = run.phases;
    req.pendingLimitSec = pendingLimitSec;
    req.retryLimitSec = 1;
    req.pollMs = run.pollMs;
    req.outDir = outDir;
    req.toolVersion = run.toolVersion;
    return req;
}

QStringList planNames() {
    pbtest::KubeTestServer server;
    if (!server.start())
        qFatal("pb-kube-testserver did not start");
    auto client = server.client();
    Runner r(*client, fastRequest());
    if (!r.prepare().ok())
        qFatal("prepare failed");
    QStringList names;
    for (const CheckRun& c : r.plan())
        names << c.name;
    return names;
}

QString describe(const RunResult& r) {
    QString s = runStateName(r.state) + QStringLiteral(": ") + r.reason;
    for (const CheckRun& c : r.checks)
        s += QStringLiteral("\n  %1 %2 [%3/%4] %5 (%6 ms)")
                 .arg(c.name, checkStateName(c.state), c.cause, c.k8sReason, c.message)
                 .arg(c.durationMs);
    return s;
}

int objectsOfRun(kube::Client& c, const QString& runId) {
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
        for (const QJsonValue& v : r.object.value(QStringLiteral("items")).toArray())
            n += v.toObject()
                         .value(QStringLiteral("metadata"))
                         .toObject()
                         .value(QStringLiteral("deletionTimestamp"))
                         .toString()
                         .isEmpty()
                     ? 1
                     : 0;
    }
    return n;
}

} // namespace

class TestValidationFaults : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void podFaultsAreOtherAndNoticedFast();
    void evictionAndDeadlineWhilePending();
    void expiredWatchIsResumed();
    void forbiddenAndAdmission();
    void serverGoneMidRun();
    void revokedTokenLeavesLeftoversThatCleanupDeletes();
    void terminatingNamespaceIsWaitedFor();
    void signingRefusesIncompleteRuns();

  private:
    QStringList m_names;
};

void TestValidationFaults::initTestCase() {
    m_names = planNames();
    QVERIFY2(m_names.size() >= 4, qPrintable(m_names.join(QLatin1Char(','))));
}

void TestValidationFaults::podFaultsAreOtherAndNoticedFast() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QVERIFY(server.start(script({{m_names[0], faulty("podFault", "Unschedulable")},
                                 {m_names[1], faulty("podFault", "ErrImagePull")},
                                 {m_names[2], faulty("podFault", "Deleted")}})));
    auto client = server.client();
    Runner runner(*client, fastRequest());
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    const QString d = describe(r);
    QVERIFY2(r.state == RunState::Incomplete, qPrintable(d));
    QCOMPARE(r.exitCode(), kExitIncomplete);
    QVERIFY2(r.reason.startsWith(QLatin1String("incomplete (cluster fault)")), qPrintable(d));

    const CheckRun* unsched = r.check(m_names[0]);
    QCOMPARE(unsched->state, CheckState::Other);
    QCOMPARE(unsched->cause, QStringLiteral("unschedulable"));
    QCOMPARE(unsched->k8sReason, QStringLiteral("Unschedulable"));
    QVERIFY2(unsched->message.contains(QLatin1String("Insufficient")),
             qPrintable(d));                             // the scheduler's own message
    QVERIFY2(unsched->durationMs < 3000, qPrintable(d)); // the 1 s limit, not the catalog timeout

    const CheckRun* pull = r.check(m_names[1]);
    QCOMPARE(pull->state, CheckState::Other);
    QCOMPARE(pull->cause, QStringLiteral("image-pull"));
    QVERIFY2(pull->k8sReason == QLatin1String("ImagePullBackOff") ||
                 pull->k8sReason == QLatin1String("ErrImagePull"),
             qPrintable(d));
    QVERIFY2(pull->durationMs < 3000, qPrintable(d));

    const CheckRun* deleted = r.check(m_names[2]);
    QCOMPARE(deleted->state, CheckState::Other);
    QCOMPARE(deleted->cause, QStringLiteral("pod-deleted"));
    QVERIFY2(deleted->durationMs < 3000, qPrintable(d)); // seconds, not the timeout plus 630 s

    // The others ran on: a fault in one check's pod is not the run's end.
    QCOMPARE(r.check(m_names[3])->state, CheckState::Passed);
    QVERIFY(r.leftovers.empty());
    QCOMPARE(objectsOfRun(*client, r.runId), 0);

    // CTRF: other, with the cause and reason; the predicate counts them apart from failures.
    QTemporaryDir dir;
    Result<EmittedBundle> b =
        emitEvidence(r, fastRequest().recipe, dir.path(), QStringLiteral("test"), QStringLiteral("1"));
    QVERIFY2(b, b ? "" : qPrintable(b.error().toString()));
    QVERIFY(b->incomplete);
    const QJsonObject ctrf =
        QJsonDocument::fromJson(b->files.value(QStringLiteral("ctrf/deployment.json"))).object();
    const QJsonObject summary =
        ctrf.value(QStringLiteral("results")).toObject().value(QStringLiteral("summary")).toObject();
    QCOMPARE(summary.value(QStringLiteral("other")).toInt(), 3);
    QCOMPARE(summary.value(QStringLiteral("failed")).toInt(), 0);
    for (const QJsonValue& t :
         ctrf.value(QStringLiteral("results")).toObject().value(QStringLiteral("tests")).toArray()) {
        const QJsonObject o = t.toObject();
        if (o.value(QStringLiteral("name")).toString() == m_names[0]) {
            QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("other"));
            QCOMPARE(o.value(QStringLiteral("extra")).toObject().value(QStringLiteral("cause")).toString(),
                     QStringLiteral("unschedulable"));
            QCOMPARE(o.value(QStringLiteral("extra")).toObject().value(QStringLiteral("reason")).toString(),
                     QStringLiteral("Unschedulable"));
        }
    }
    const QJsonObject predicate =
        QJsonDocument::fromJson(b->files.value(QStringLiteral("statement.intoto.json")))
            .object()
            .value(QStringLiteral("predicate"))
            .toObject();
    QCOMPARE(predicate.value(QStringLiteral("result")).toString(), QString::fromLatin1(kIncompleteResult));
    const QJsonObject phase =
        predicate.value(QStringLiteral("phases")).toObject().value(QStringLiteral("deployment")).toObject();
    QCOMPARE(phase.value(QStringLiteral("failed")).toInt(), 0);
    QCOMPARE(phase.value(QStringLiteral("other")).toInt(), 3);

    // evidence check: incomplete (3), never "valid, with failed phases".
    Result<evidence::SummaryBundle> loaded = evidence::loadBundle(b->dir);
    QVERIFY(loaded);
    const evidence::BundleCheck check = evidence::checkBundle(*loaded); // rates completeness itself
    QCOMPARE(check.exitCode, 3);
    QVERIFY2(check.toText().contains(QLatin1String("result: incomplete (exit 3)")),
             qPrintable(check.toText()));
}

void TestValidationFaults::evictionAndDeadlineWhilePending() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QVERIFY(server.start(
        script({{m_names[0], faulty("podFault", "Evicted")}, {m_names[1], faulty("podFault", "Pending")}},
               QJsonObject{{QStringLiteral("deletionGraceMs"), 200}})));
    auto client = server.client();
    Runner runner(*client, fastRequest());
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    const QString d = describe(r);
    QVERIFY2(r.state == RunState::Incomplete, qPrintable(d));
    const CheckRun* evicted = r.check(m_names[0]);
    QVERIFY2(evicted->state == CheckState::Other, qPrintable(d));
    QVERIFY2(evicted->cause == QLatin1String("evicted"), qPrintable(d));
    QVERIFY2(evicted->durationMs < 3000, qPrintable(d));
    const CheckRun* pending = r.check(m_names[1]);
    QCOMPARE(pending->state, CheckState::Other);
    QCOMPARE(pending->cause, QStringLiteral("pending-deadline"));
    QVERIFY2(pending->durationMs < 4000, qPrintable(d));
    QCOMPARE(r.check(m_names[2])->state, CheckState::Passed);
    QVERIFY(r.leftovers.empty());
}

void TestValidationFaults::expiredWatchIsResumed() {
    PB_NO_DATABASE_ON_POSTGRES();
    // The watch history is compacted while a check runs: the runner re-lists and goes on, and the
    // check keeps its own verdict.
    pbtest::KubeTestServer server;
    QJsonObject compact = passing(600);
    compact.insert(QStringLiteral("serverFault"), QStringLiteral("compact"));
    QVERIFY(server.start(
        script({{m_names[0], compact}},
               QJsonObject{{QStringLiteral("faults"), QJsonObject{{QStringLiteral("bookmarkMs"), 100}}}})));
    auto client = server.client();
    QStringList said;
    RunObserver obs;
    obs.message = [&](const QString& m) { said << m; };
    Runner runner(*client, fastRequest(), obs);
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    QVERIFY2(r.state == RunState::Passed, qPrintable(describe(r) + said.join(QLatin1Char('\n'))));
    QCOMPARE(r.exitCode(), 0);
}

void TestValidationFaults::forbiddenAndAdmission() {
    PB_NO_DATABASE_ON_POSTGRES();
    {
        // A webhook refuses one check's Job: that check is `other` (admission-rejected); the rest run.
        pbtest::KubeTestServer server;
        const QJsonArray admission{
            QJsonObject{{QStringLiteral("resource"), QStringLiteral("jobs.batch")},
                        {QStringLiteral("operation"), QStringLiteral("CREATE")},
                        {QStringLiteral("namePrefix"), QStringLiteral("aicr-") + m_names[1]},
                        {QStringLiteral("webhook"), QStringLiteral("policy.example.com")},
                        {QStringLiteral("message"), QStringLiteral("images must come from the mirror")}}};
        QVERIFY(server.start(script({}, QJsonObject{{QStringLiteral("admission"), admission}})));
        auto client = server.client();
        Runner runner(*client, fastRequest());
        QVERIFY(runner.prepare().ok());
        const RunResult r = runner.run();
        const QString d = describe(r);
        QVERIFY2(r.state == RunState::Incomplete, qPrintable(d));
        const CheckRun* refused = r.check(m_names[1]);
        QCOMPARE(refused->state, CheckState::Other);
        QCOMPARE(refused->cause, QStringLiteral("admission-rejected"));
        QVERIFY2(refused->message.contains(QLatin1String("images must come from the mirror")), qPrintable(d));
        QCOMPARE(r.check(m_names[0])->state, CheckState::Passed);
        QCOMPARE(r.check(m_names[2])->state, CheckState::Passed);
    }
    {
        // RBAC: the token user may not create Jobs. Every check is `other` (forbidden), with the
        // apiserver's message; the run is incomplete, and what setup created is deleted.
        pbtest::KubeTestServer server;
        const QJsonObject rbac{{QStringLiteral("user"), QStringLiteral("jane")},
                               {QStringLiteral("deny"), QJsonArray{QStringLiteral("create jobs.batch")}}};
        QVERIFY(server.start(script({}, QJsonObject{{QStringLiteral("rbac"), rbac}})));
        auto client = server.client(QStringLiteral("pb-token"));
        QVERIFY(client);
        Runner runner(*client, fastRequest());
        QVERIFY(runner.prepare().ok());
        const RunResult r = runner.run();
        const QString d = describe(r);
        QVERIFY2(r.state == RunState::Incomplete, qPrintable(d));
        QCOMPARE(r.exitCode(), kExitIncomplete);
        for (const CheckRun& c : r.checks) {
            QCOMPARE(c.state, CheckState::Other);
            QCOMPARE(c.cause, QStringLiteral("forbidden"));
        }
        QVERIFY2(r.checks.front().message.contains(QLatin1String("jane")), qPrintable(d));
        QVERIFY2(r.leftovers.empty(), qPrintable(d));
        auto admin = server.client();
        QCOMPARE(objectsOfRun(*admin, r.runId), 0);
    }
}

void TestValidationFaults::serverGoneMidRun() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QJsonObject exitCheck = passing(2000);
    exitCheck.insert(QStringLiteral("serverFault"), QStringLiteral("exit"));
    QVERIFY(server.start(script({{m_names[1], exitCheck}})));
    auto client = server.client();
    QElapsedTimer clock;
    clock.start();
    Runner runner(*client, fastRequest());
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    const QString d = describe(r);
    QVERIFY2(r.state == RunState::Incomplete, qPrintable(d));
    QCOMPARE(r.exitCode(), kExitIncomplete);
    QCOMPARE(r.check(m_names[0])->state, CheckState::Passed); // a verdict reached before the fault stays
    for (int i = 1; i < m_names.size(); ++i) {
        const CheckRun* c = r.check(m_names[i]);
        QVERIFY2(c->state == CheckState::Other && c->cause == QLatin1String("api-unreachable"),
                 qPrintable(d));
    }
    QVERIFY2(r.check(m_names[2])->message.startsWith(QLatin1String("not run")), qPrintable(d));
    // Retried with backoff up to the limit, not forever: the limits are 1 s here.
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    // Nothing could be deleted: all of it is recorded (2 Jobs, the role and its binding, the account,
    // 2 ConfigMaps), exactly what the run created.
    QCOMPARE(int(r.leftovers.size()), 7);
    QCOMPARE(r.created.size(), qsizetype(7));
    bool binding = false, role = false;
    for (const RunResult::Leftover& l : r.leftovers) {
        binding = binding || l.path.contains(QLatin1String("clusterrolebindings/aicr-validator-"));
        role = role || l.path.contains(QLatin1String("clusterroles/aicr-validator-"));
        QVERIFY2(r.created.contains(l.path), qPrintable(l.path));
    }
    QVERIFY(binding && role);
    QVERIFY2(r.reason.contains(QLatin1String("runs cleanup")), qPrintable(r.reason));
}

void TestValidationFaults::revokedTokenLeavesLeftoversThatCleanupDeletes() {
    pbtest::KubeTestServer server;
    QJsonObject revoke = passing(1500);
    revoke.insert(QStringLiteral("serverFault"), QStringLiteral("revokeTokens"));
    QVERIFY(server.start(script({{m_names[1], revoke}})));
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
    QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
    const ops::ValidateRequest req =
        opsRequest(server, QStringLiteral("pb-token"), dir.filePath(QStringLiteral("out")), 2);
    Result<ops::ValidateOutcome> done = ops::validate(ops::Context(**db), req);
    QVERIFY2(done, done ? "" : qPrintable(done.error().toString()));
    const QString d = describe(done->result);
    QVERIFY2(done->incomplete(), qPrintable(d));
    QCOMPARE(done->exitCode(), kExitIncomplete);
    const CheckRun* c = done->result.check(m_names[1]);
    QVERIFY2(c->state == CheckState::Other && c->cause == QLatin1String("unauthorized"), qPrintable(d));
    QCOMPARE(c->k8sReason, QStringLiteral("Unauthorized"));
    QVERIFY2(!done->result.leftovers.empty(), qPrintable(d));

    // Recorded on the run: the stored run and its leftovers.
    store::RunStore runs(**db);
    Result<std::vector<store::RunLeftover>> left = runs.leftovers();
    QVERIFY(left);
    QCOMPARE(left->size(), done->result.leftovers.size());
    Result<store::StoredRun> stored = runs.load(done->runRow);
    QVERIFY(stored);
    QCOMPARE(stored->summary.state, QStringLiteral("incomplete"));
    QCOMPARE(stored->summary.leftovers, int(left->size()));
    QCOMPARE(stored->result.check(m_names[1])->cause, QStringLiteral("unauthorized"));
    auto admin = server.client();
    QVERIFY(objectsOfRun(*admin, done->result.runId) > 0);

    // `runs cleanup` later, with working credentials (the certificate context on the same server).
    ops::CleanupRunRequest cleanup;
    cleanup.runRow = done->runRow;
    cleanup.kubeconfigs = {server.kubeconfig()};
    cleanup.context = QStringLiteral("pb-cert");
    cleanup.retryLimitSec = 2;
    Result<ops::CleanupRunOutcome> cleaned = ops::cleanupRun(ops::Context(**db), cleanup);
    QVERIFY2(cleaned, cleaned ? "" : qPrintable(cleaned.error().toString()));
    QVERIFY(cleaned->still.empty());
    QCOMPARE(cleaned->removed.size(), qsizetype(left->size()));
    QCOMPARE(objectsOfRun(*admin, done->result.runId), 0);
    Result<std::vector<store::RunLeftover>> after = runs.leftovers();
    QVERIFY(after && after->empty());
    Result<std::vector<store::RunLeftover>> all = runs.leftovers(done->runRow, true);
    QVERIFY(all && all->size() == left->size() && all->front().removedAt);
}

void TestValidationFaults::terminatingNamespaceIsWaitedFor() {
    PB_NO_DATABASE_ON_POSTGRES();
    pbtest::KubeTestServer server;
    QVERIFY(server.start(script({}, QJsonObject{{QStringLiteral("deletionGraceMs"), 400}})));
    auto client = server.client();
    const kube::ApiResponse created = client->create(
        QStringLiteral("/api/v1/namespaces"),
        QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                    {QStringLiteral("kind"), QStringLiteral("Namespace")},
                    {QStringLiteral("metadata"),
                     QJsonObject{{QStringLiteral("name"), QStringLiteral("aicr-validation")}}}});
    QVERIFY2(created.ok(), qPrintable(created.message));
    const kube::ApiResponse removed = client->remove(QStringLiteral("/api/v1/namespaces/aicr-validation"));
    QVERIFY2(removed.ok(), qPrintable(removed.message));
    QStringList said;
    RunObserver obs;
    obs.message = [&](const QString& m) { said << m; };
    Runner runner(*client, fastRequest(), obs);
    QVERIFY(runner.prepare().ok());
    const RunResult r = runner.run();
    QVERIFY2(r.state == RunState::Passed,
             qPrintable(describe(r) + QLatin1Char('\n') + said.join(QLatin1Char('\n'))));
    QVERIFY2(said.join(QLatin1Char('\n')).contains(QLatin1String("Terminating")),
             qPrintable(said.join(QLatin1Char('\n'))));
}

void TestValidationFaults::signingRefusesIncompleteRuns() {
    pbtest::KubeTestServer server;
    QVERIFY(server.start(script({{m_names[0], faulty("podFault", "Unschedulable")}})));
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb.spec());
    QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
    auto request = [&](const QString& out, bool signIncomplete) {
        ops::ValidateRequest req = opsRequest(server, QStringLiteral("pb-cert"), dir.filePath(out), 1);
        req.key = std::make_shared<sigstore::crypto::Pkey>(sigstore::generateSigningKey());
        req.signIncomplete = signIncomplete;
        return req;
    };
    // Without --sign-incomplete: the bundle is kept, unsigned, and says why.
    Result<ops::ValidateOutcome> refused =
        ops::validate(ops::Context(**db), request(QStringLiteral("a"), false));
    QVERIFY2(refused, refused ? "" : qPrintable(refused.error().toString()));
    QVERIFY(refused->incomplete());
    QVERIFY(refused->signingRefused);
    QVERIFY(refused->pointerPath.isEmpty() && refused->attestationPath.isEmpty());
    QVERIFY2(refused->signingError.contains(QLatin1String("--sign-incomplete")),
             qPrintable(refused->signingError));
    QVERIFY(!refused->evidenceDir.isEmpty());
    QVERIFY(!QFileInfo::exists(refused->evidenceDir + QStringLiteral("/attestation.intoto.jsonl")));

    // With it: signed, and the statement and the pointer say incomplete.
    Result<ops::ValidateOutcome> signedRun =
        ops::validate(ops::Context(**db), request(QStringLiteral("b"), true));
    QVERIFY2(signedRun, signedRun ? "" : qPrintable(signedRun.error().toString()));
    QVERIFY2(!signedRun->pointerPath.isEmpty(), qPrintable(signedRun->signingError));
    QFile pointer(signedRun->pointerPath);
    QVERIFY(pointer.open(QIODevice::ReadOnly));
    const QByteArray pointerText = pointer.readAll();
    QVERIFY2(pointerText.contains(QByteArray("result: ") + kIncompleteResult), pointerText.constData());
    ops::CheckEvidenceRequest check;
    check.bundle = signedRun->evidenceDir;
    Result<ops::CheckEvidenceOutcome> rated = ops::checkEvidence(ops::Context(**db), check);
    QVERIFY2(rated, rated ? "" : qPrintable(rated.error().toString()));
    QCOMPARE(rated->exitCode, 3);
    QCOMPARE(rated->verdict(), QStringLiteral("incomplete"));
}

QTEST_GUILESS_MAIN(TestValidationFaults)
#include "tst_validationfaults.moc"
