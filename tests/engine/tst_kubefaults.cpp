// pb-kube-testserver's cluster faults (issue #20), each driven by the production client
// (engine/kube/Client, libcurl) over a real TLS socket: pod phases Pending / Unschedulable /
// ErrImagePull -> ImagePullBackOff, a pod deleted or evicted mid-run (graceful deletion, then
// DELETED), the Eviction subresource, a Terminating namespace, RBAC 403s with Status bodies and a
// SelfSubjectAccessReview that agrees, an admission webhook's denial, the server killed mid-run,
// tokens revoked mid-run, history compaction (410 Gone on watch and list) and bookmarks.
#include "kube/Client.h"

#include "KubeTestServer.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace pb::kube;

namespace {

using TestServer = pbtest::KubeTestServer;

QJsonObject job(const QString& name, const QString& check) {
    return pbtest::checkJob(name, check, QStringLiteral("registry.example.invalid/check:1"));
}

QJsonObject configMap(const QString& name) {
    return {{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}}}};
}

QJsonObject meta(const QJsonObject& o) {
    return o.value(QStringLiteral("metadata")).toObject();
}
QString nameOf(const QJsonObject& o) {
    return meta(o).value(QStringLiteral("name")).toString();
}
QString rvOf(const QJsonObject& o) {
    return meta(o).value(QStringLiteral("resourceVersion")).toString();
}
QJsonObject statusOf(const QJsonObject& o) {
    return o.value(QStringLiteral("status")).toObject();
}

QString waitingReason(const QJsonObject& pod) {
    const QJsonArray cs = statusOf(pod).value(QStringLiteral("containerStatuses")).toArray();
    return cs.first()
        .toObject()
        .value(QStringLiteral("state"))
        .toObject()
        .value(QStringLiteral("waiting"))
        .toObject()
        .value(QStringLiteral("reason"))
        .toString();
}

QJsonObject conditionOf(const QJsonObject& o, const QString& type) {
    for (const QJsonValue& v : statusOf(o).value(QStringLiteral("conditions")).toArray())
        if (v.toObject().value(QStringLiteral("type")).toString() == type)
            return v.toObject();
    return {};
}

#define PB_REQUIRE_OK(call)                                                                                  \
    do {                                                                                                     \
        const ApiResponse pbResp_ = (call);                                                                  \
        QVERIFY2(pbResp_.ok(), qPrintable(pbResp_.message));                                                 \
    } while (0)

const QString kNs = QStringLiteral("default");
const QString kJobs = QStringLiteral("/apis/batch/v1/namespaces/default/jobs");
const QString kPods = QStringLiteral("/api/v1/namespaces/default/pods");

// Watches the pods of job `jobName` until `until` says so (or 10 s); returns the events seen.
QList<WatchEvent> watchPods(Client& c, const QString& jobName,
                            const std::function<bool(const QList<WatchEvent>&)>& until) {
    QList<WatchEvent> events;
    WatchOptions wo;
    wo.labelSelector = QStringLiteral("job-name=") + jobName;
    wo.timeoutSeconds = 10;
    QElapsedTimer t;
    t.start();
    c.watch(kPods, wo, [&](const WatchEvent& ev) {
        events << ev;
        return !until(events) && t.elapsed() < 10000;
    });
    return events;
}

} // namespace

class TestKubeFaults : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        if (!QFileInfo(QStringLiteral(PB_KUBE_TESTSERVER)).isExecutable())
            QSKIP("pb-kube-testserver was not built; these tests need it");
    }

    void helpDocumentsTheScript() {
        QProcess p;
        p.start(QStringLiteral(PB_KUBE_TESTSERVER), {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray help = p.readAllStandardOutput();
        for (const char* word :
             {"podFault", "Unschedulable", "ErrImagePull", "Evicted", "serverFault", "revokeTokens",
              "compact", "deletionGraceMs", "rbac", "admission", "bookmarkMs", "exitAfterMs"})
            QVERIFY2(help.contains(word), word);
    }

    void badScriptValuesAreRefused() {
        TestServer server;
        QVERIFY(!server.start(
            {{QStringLiteral("checks"),
              QJsonObject{{QStringLiteral("x"),
                           QJsonObject{{QStringLiteral("podFault"), QStringLiteral("Exploded")}}}}}}));
    }

    void pendingUnschedulableAndImagePull() {
        TestServer server;
        QVERIFY(server.start(
            {{QStringLiteral("checks"),
              QJsonObject{{QStringLiteral("stuck"),
                           QJsonObject{{QStringLiteral("podFault"), QStringLiteral("Pending")}}},
                          {QStringLiteral("nofit"),
                           QJsonObject{{QStringLiteral("podFault"), QStringLiteral("Unschedulable")}}},
                          {QStringLiteral("pull"),
                           QJsonObject{{QStringLiteral("podFault"), QStringLiteral("ErrImagePull")},
                                       {QStringLiteral("pendingMs"), 100}}}}}}));
        auto c = server.client();
        QVERIFY(c);
        for (const QString& check :
             {QStringLiteral("stuck"), QStringLiteral("nofit"), QStringLiteral("pull")})
            PB_REQUIRE_OK(c->create(kJobs, job(QStringLiteral("pb-") + check, check)));

        // ErrImagePull first, then ImagePullBackOff, the pod Pending throughout.
        QStringList reasons;
        const QList<WatchEvent> pull =
            watchPods(*c, QStringLiteral("pb-pull"), [&](const QList<WatchEvent>& evs) {
                const QString r = waitingReason(evs.last().object);
                if (!r.isEmpty() && (reasons.isEmpty() || reasons.last() != r))
                    reasons << r;
                return r == QLatin1String("ImagePullBackOff");
            });
        QCOMPARE(reasons, (QStringList{QStringLiteral("ContainerCreating"), QStringLiteral("ErrImagePull"),
                                       QStringLiteral("ImagePullBackOff")}));
        QCOMPARE(statusOf(pull.last().object).value(QStringLiteral("phase")).toString(),
                 QStringLiteral("Pending"));
        const QJsonObject waiting = statusOf(pull.last().object)
                                        .value(QStringLiteral("containerStatuses"))
                                        .toArray()
                                        .first()
                                        .toObject()
                                        .value(QStringLiteral("state"))
                                        .toObject()
                                        .value(QStringLiteral("waiting"))
                                        .toObject();
        QVERIFY(waiting.value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("registry.example.invalid/check:1")));

        // Unschedulable: PodScheduled False, no node.
        const QList<WatchEvent> nofit =
            watchPods(*c, QStringLiteral("pb-nofit"), [](const QList<WatchEvent>& evs) {
                return conditionOf(evs.last().object, QStringLiteral("PodScheduled"))
                           .value(QStringLiteral("status"))
                           .toString() == QLatin1String("False");
            });
        const QJsonObject scheduled = conditionOf(nofit.last().object, QStringLiteral("PodScheduled"));
        QCOMPARE(scheduled.value(QStringLiteral("reason")).toString(), QStringLiteral("Unschedulable"));
        QVERIFY(scheduled.value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("Insufficient nvidia.com/gpu")));
        QVERIFY(!nofit.last()
                     .object.value(QStringLiteral("spec"))
                     .toObject()
                     .contains(QStringLiteral("nodeName")));
        QCOMPARE(statusOf(nofit.last().object).value(QStringLiteral("phase")).toString(),
                 QStringLiteral("Pending"));

        // Pending: still Pending after a while (its pendingMs is long past).
        QTest::qWait(300);
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("labelSelector"), QStringLiteral("job-name=pb-stuck"));
        const ApiResponse stuck = c->get(kPods, q);
        PB_REQUIRE_OK(stuck);
        const QJsonObject pod = stuck.object.value(QStringLiteral("items")).toArray().first().toObject();
        QCOMPARE(statusOf(pod).value(QStringLiteral("phase")).toString(), QStringLiteral("Pending"));
        QCOMPARE(waitingReason(pod), QStringLiteral("ContainerCreating"));
    }

    void deletedAndEvictedMidRun() {
        TestServer server;
        QVERIFY(
            server.start({{QStringLiteral("deletionGraceMs"), 200},
                          {QStringLiteral("checks"),
                           QJsonObject{{QStringLiteral("drained"),
                                        QJsonObject{{QStringLiteral("podFault"), QStringLiteral("Deleted")},
                                                    {QStringLiteral("neverFinish"), true}}},
                                       {QStringLiteral("evicted"),
                                        QJsonObject{{QStringLiteral("podFault"), QStringLiteral("Evicted")},
                                                    {QStringLiteral("neverFinish"), true}}}}}}));
        auto c = server.client();
        QVERIFY(c);
        for (const QString& check : {QStringLiteral("drained"), QStringLiteral("evicted")}) {
            PB_REQUIRE_OK(c->create(kJobs, job(QStringLiteral("pb-") + check, check)));
            QElapsedTimer t;
            t.start();
            const QList<WatchEvent> evs =
                watchPods(*c, QStringLiteral("pb-") + check, [](const QList<WatchEvent>& e) {
                    return e.last().type == QLatin1String("DELETED");
                });
            QCOMPARE(evs.last().type, QStringLiteral("DELETED"));
            QVERIFY2(t.elapsed() >= 200, "the pod lingered for its grace period");
            // Before it went: deletionTimestamp, the container killed (exit 143), phase Failed.
            bool sawTerminating = false;
            for (const WatchEvent& ev : evs)
                if (ev.type == QLatin1String("MODIFIED") &&
                    meta(ev.object).contains(QStringLiteral("deletionTimestamp"))) {
                    sawTerminating = true;
                    QCOMPARE(meta(ev.object).value(QStringLiteral("deletionGracePeriodSeconds")).toInt(), 30);
                    QCOMPARE(statusOf(ev.object).value(QStringLiteral("phase")).toString(),
                             QStringLiteral("Failed"));
                }
            QVERIFY(sawTerminating);
            const QJsonObject disruption = conditionOf(evs.last().object, QStringLiteral("DisruptionTarget"));
            if (check == QLatin1String("evicted"))
                QCOMPARE(disruption.value(QStringLiteral("reason")).toString(),
                         QStringLiteral("EvictionByEvictionAPI"));
            else
                QVERIFY(disruption.isEmpty());
            // The Job failed (backoffLimit 0, no replacement pod).
            const ApiResponse j = c->get(kJobs + QStringLiteral("/pb-") + check);
            PB_REQUIRE_OK(j);
            QCOMPARE(
                conditionOf(j.object, QStringLiteral("Failed")).value(QStringLiteral("reason")).toString(),
                QStringLiteral("BackoffLimitExceeded"));
        }
    }

    void evictionSubresource() {
        TestServer server;
        QVERIFY(server.start(
            {{QStringLiteral("checks"),
              QJsonObject{{QStringLiteral("long"), QJsonObject{{QStringLiteral("neverFinish"), true}}}}}}));
        auto c = server.client();
        QVERIFY(c);
        PB_REQUIRE_OK(c->create(kJobs, job(QStringLiteral("pb-long"), QStringLiteral("long"))));
        const QList<WatchEvent> running =
            watchPods(*c, QStringLiteral("pb-long"), [](const QList<WatchEvent>& e) {
                return statusOf(e.last().object).value(QStringLiteral("phase")).toString() ==
                       QLatin1String("Running");
            });
        const QString pod = nameOf(running.last().object);
        const QJsonObject eviction{
            {QStringLiteral("apiVersion"), QStringLiteral("policy/v1")},
            {QStringLiteral("kind"), QStringLiteral("Eviction")},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), pod}, {QStringLiteral("namespace"), kNs}}}};
        const ApiResponse r =
            c->request("POST", kPods + QLatin1Char('/') + pod + QStringLiteral("/eviction"), {},
                       QJsonDocument(eviction).toJson(QJsonDocument::Compact), "application/json");
        QCOMPARE(r.http, 201);
        QCOMPARE(r.object.value(QStringLiteral("status")).toString(), QStringLiteral("Success"));
        const ApiResponse gone = c->get(kPods + QLatin1Char('/') + pod);
        QCOMPARE(gone.http, 404); // deletionGraceMs 0: at once
    }

    void namespaceTerminating() {
        TestServer server;
        QVERIFY(server.start(
            {{QStringLiteral("deletionGraceMs"), 400},
             {QStringLiteral("checks"),
              QJsonObject{{QStringLiteral("long"), QJsonObject{{QStringLiteral("neverFinish"), true}}}}}}));
        auto c = server.client();
        QVERIFY(c);
        const QJsonObject ns{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("Namespace")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("pb-run-1")}}}};
        PB_REQUIRE_OK(c->create(QStringLiteral("/api/v1/namespaces"), ns));
        PB_REQUIRE_OK(c->create(QStringLiteral("/apis/batch/v1/namespaces/pb-run-1/jobs"),
                                job(QStringLiteral("pb-long"), QStringLiteral("long"))));
        PB_REQUIRE_OK(c->create(QStringLiteral("/api/v1/namespaces/pb-run-1/configmaps"),
                                configMap(QStringLiteral("pb-cm"))));
        QTest::qWait(100);

        const ApiResponse del = c->remove(QStringLiteral("/api/v1/namespaces/pb-run-1"));
        PB_REQUIRE_OK(del);
        QCOMPARE(statusOf(del.object).value(QStringLiteral("phase")).toString(),
                 QStringLiteral("Terminating"));
        QVERIFY(meta(del.object).contains(QStringLiteral("deletionTimestamp")));

        const ApiResponse still = c->get(QStringLiteral("/api/v1/namespaces/pb-run-1"));
        PB_REQUIRE_OK(still);
        QCOMPARE(statusOf(still.object).value(QStringLiteral("phase")).toString(),
                 QStringLiteral("Terminating"));
        // Its pods linger with deletionTimestamp; new content is refused; the name is taken.
        const ApiResponse pods = c->get(QStringLiteral("/api/v1/namespaces/pb-run-1/pods"));
        PB_REQUIRE_OK(pods);
        QCOMPARE(pods.object.value(QStringLiteral("items")).toArray().size(), 1);
        QVERIFY(meta(pods.object.value(QStringLiteral("items")).toArray().first().toObject())
                    .contains(QStringLiteral("deletionTimestamp")));
        const ApiResponse refused = c->create(QStringLiteral("/api/v1/namespaces/pb-run-1/configmaps"),
                                              configMap(QStringLiteral("pb-cm2")));
        QCOMPARE(refused.http, 403);
        QCOMPARE(refused.reason, QStringLiteral("Forbidden"));
        QVERIFY2(refused.message.contains(QStringLiteral("because it is being terminated")),
                 qPrintable(refused.message));
        QCOMPARE(refused.object.value(QStringLiteral("details"))
                     .toObject()
                     .value(QStringLiteral("causes"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("reason"))
                     .toString(),
                 QStringLiteral("NamespaceTerminating"));
        const ApiResponse again = c->create(QStringLiteral("/api/v1/namespaces"), ns);
        QCOMPARE(again.http, 409);
        QVERIFY2(again.message.contains(QStringLiteral("object is being deleted")),
                 qPrintable(again.message));

        // Then it is gone, with everything in it.
        QElapsedTimer t;
        t.start();
        ApiResponse after;
        do {
            QTest::qWait(50);
            after = c->get(QStringLiteral("/api/v1/namespaces/pb-run-1"));
        } while (after.http == 200 && t.elapsed() < 5000);
        QCOMPARE(after.http, 404);
        QVERIFY2(t.elapsed() >= 200, "the namespace lingered");
        QCOMPARE(c->get(QStringLiteral("/api/v1/namespaces/pb-run-1/configmaps/pb-cm")).http, 404);
    }

    void rbacForbidsWithStatusAndReviewAgrees() {
        TestServer server;
        QVERIFY(server.start(
            {{QStringLiteral("rbac"),
              QJsonObject{{QStringLiteral("user"), QStringLiteral("jane")},
                          {QStringLiteral("deny"),
                           QJsonArray{QStringLiteral("create clusterrolebindings.rbac.authorization.k8s.io"),
                                      QStringLiteral("delete configmaps")}}}}}));
        auto token = server.client(QStringLiteral("pb-token"));
        auto admin = server.client(QStringLiteral("pb-cert"));
        QVERIFY(token && admin);
        const QJsonObject crb{
            {QStringLiteral("apiVersion"), QStringLiteral("rbac.authorization.k8s.io/v1")},
            {QStringLiteral("kind"), QStringLiteral("ClusterRoleBinding")},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("pb-admin-binding")}}},
            {QStringLiteral("roleRef"),
             QJsonObject{{QStringLiteral("apiGroup"), QStringLiteral("rbac.authorization.k8s.io")},
                         {QStringLiteral("kind"), QStringLiteral("ClusterRole")},
                         {QStringLiteral("name"), QStringLiteral("cluster-admin")}}},
            {QStringLiteral("subjects"), QJsonArray{}}};
        const QString crbs = QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings");
        const ApiResponse no = token->create(crbs, crb);
        QCOMPARE(no.http, 403);
        QCOMPARE(no.reason, QStringLiteral("Forbidden"));
        QCOMPARE(no.object.value(QStringLiteral("kind")).toString(), QStringLiteral("Status"));
        QCOMPARE(no.object.value(QStringLiteral("code")).toInt(), 403);
        QCOMPARE(
            no.object.value(QStringLiteral("message")).toString(),
            QStringLiteral(
                "clusterrolebindings.rbac.authorization.k8s.io is forbidden: User \"jane\" cannot create "
                "resource "
                "\"clusterrolebindings\" in API group \"rbac.authorization.k8s.io\" at the cluster scope"));
        PB_REQUIRE_OK(admin->create(crbs, crb)); // the certificate user is system:masters

        PB_REQUIRE_OK(token->create(QStringLiteral("/api/v1/namespaces/default/configmaps"),
                                    configMap(QStringLiteral("pb-cm"))));
        const ApiResponse noDelete =
            token->remove(QStringLiteral("/api/v1/namespaces/default/configmaps/pb-cm"));
        QCOMPARE(noDelete.http, 403);
        QCOMPARE(noDelete.object.value(QStringLiteral("message")).toString(),
                 QStringLiteral("configmaps \"pb-cm\" is forbidden: User \"jane\" cannot delete resource "
                                "\"configmaps\" in API group \"\" "
                                "in the namespace \"default\""));

        auto review = [&](Client& c, const QString& verb, const QString& group, const QString& resource) {
            const QJsonObject ssar{
                {QStringLiteral("apiVersion"), QStringLiteral("authorization.k8s.io/v1")},
                {QStringLiteral("kind"), QStringLiteral("SelfSubjectAccessReview")},
                {QStringLiteral("spec"), QJsonObject{{QStringLiteral("resourceAttributes"),
                                                      QJsonObject{{QStringLiteral("verb"), verb},
                                                                  {QStringLiteral("group"), group},
                                                                  {QStringLiteral("resource"), resource}}}}}};
            const ApiResponse r =
                c.create(QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"), ssar);
            return r.object.value(QStringLiteral("status"))
                .toObject()
                .value(QStringLiteral("allowed"))
                .toBool();
        };
        QVERIFY(!review(*token, QStringLiteral("create"), QStringLiteral("rbac.authorization.k8s.io"),
                        QStringLiteral("clusterrolebindings")));
        QVERIFY(!review(*token, QStringLiteral("delete"), QString(), QStringLiteral("configmaps")));
        QVERIFY(review(*token, QStringLiteral("create"), QStringLiteral("batch"), QStringLiteral("jobs")));
        QVERIFY(review(*admin, QStringLiteral("create"), QStringLiteral("rbac.authorization.k8s.io"),
                       QStringLiteral("clusterrolebindings")));
    }

    void admissionWebhookDenies() {
        TestServer server;
        QVERIFY(server.start(
            {{QStringLiteral("admission"),
              QJsonArray{QJsonObject{{QStringLiteral("resource"), QStringLiteral("jobs.batch")},
                                     {QStringLiteral("namePrefix"), QStringLiteral("pb-gpu")},
                                     {QStringLiteral("webhook"), QStringLiteral("gpu-quota.example.com")},
                                     {QStringLiteral("message"),
                                      QStringLiteral("GPU quota exceeded in namespace default")}}}}}));
        auto c = server.client();
        QVERIFY(c);
        const ApiResponse r = c->create(kJobs, job(QStringLiteral("pb-gpu-burn"), QStringLiteral("x")));
        QCOMPARE(r.http, 403);
        QCOMPARE(r.object.value(QStringLiteral("kind")).toString(), QStringLiteral("Status"));
        QCOMPARE(r.object.value(QStringLiteral("message")).toString(),
                 QStringLiteral("admission webhook \"gpu-quota.example.com\" denied the request: GPU quota "
                                "exceeded in namespace default"));
        PB_REQUIRE_OK(c->create(kJobs, job(QStringLiteral("pb-other"), QStringLiteral("x"))));
        QCOMPARE(c->get(kJobs + QStringLiteral("/pb-gpu-burn")).http, 404); // nothing stored
    }

    void serverExitsMidRun() {
        TestServer server;
        QVERIFY(
            server.start({{QStringLiteral("checks"),
                           QJsonObject{{QStringLiteral("boom"),
                                        QJsonObject{{QStringLiteral("serverFault"), QStringLiteral("exit")},
                                                    {QStringLiteral("neverFinish"), true}}}}}}));
        auto c = server.client();
        QVERIFY(c);
        PB_REQUIRE_OK(c->create(kJobs, job(QStringLiteral("pb-boom"), QStringLiteral("boom"))));
        QTRY_VERIFY_WITH_TIMEOUT(!server.running(), 5000);
        const ApiResponse r = c->get(QStringLiteral("/version"));
        QCOMPARE(r.http, 0);
        QCOMPARE(r.reason, QStringLiteral("Connect"));
    }

    void tokensRevokedMidRun() {
        TestServer server;
        QVERIFY(server.start(
            {{QStringLiteral("checks"),
              QJsonObject{{QStringLiteral("revoke"),
                           QJsonObject{{QStringLiteral("serverFault"), QStringLiteral("revokeTokens")},
                                       {QStringLiteral("neverFinish"), true}}}}}}));
        auto token = server.client(QStringLiteral("pb-token"));
        auto admin = server.client(QStringLiteral("pb-cert"));
        QVERIFY(token && admin);
        PB_REQUIRE_OK(token->create(kJobs, job(QStringLiteral("pb-revoke"), QStringLiteral("revoke"))));
        QTRY_COMPARE_WITH_TIMEOUT(token->get(QStringLiteral("/version")).http, 401, 5000);
        PB_REQUIRE_OK(admin->get(QStringLiteral("/version")));
    }

    void compactionIsGoneOnWatchAndList() {
        TestServer server;
        QVERIFY(server.start(
            {{QStringLiteral("checks"),
              QJsonObject{{QStringLiteral("squash"),
                           QJsonObject{{QStringLiteral("serverFault"), QStringLiteral("compact")},
                                       {QStringLiteral("pendingMs"), 300},
                                       {QStringLiteral("neverFinish"), true}}}}}}));
        auto c = server.client();
        QVERIFY(c);
        const ApiResponse list = c->get(kPods);
        PB_REQUIRE_OK(list);
        const QString before = rvOf(list.object);
        PB_REQUIRE_OK(c->create(kJobs, job(QStringLiteral("pb-squash"), QStringLiteral("squash"))));
        WatchOptions wo;
        wo.resourceVersion = before;
        int events = 0;
        const ApiResponse w = c->watch(kPods, wo, [&](const WatchEvent&) {
            ++events;
            return true;
        });
        QCOMPARE(w.http, 410);
        QCOMPARE(w.reason, QStringLiteral("Gone"));
        QVERIFY(events >= 1); // the pod's ADDED came before the compaction
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("resourceVersion"), before);
        q.addQueryItem(QStringLiteral("resourceVersionMatch"), QStringLiteral("Exact"));
        const ApiResponse old = c->get(kPods, q);
        QCOMPARE(old.http, 410);
        QCOMPARE(old.reason, QStringLiteral("Expired"));
    }

    void bookmarksOnIdleWatches() {
        TestServer server;
        QVERIFY(server.start({{QStringLiteral("faults"), QJsonObject{{QStringLiteral("bookmarkMs"), 100}}}}));
        auto c = server.client();
        QVERIFY(c);
        const ApiResponse list = c->get(kPods);
        PB_REQUIRE_OK(list);
        WatchOptions wo;
        wo.resourceVersion = rvOf(list.object);
        QList<WatchEvent> seen;
        QElapsedTimer t;
        t.start();
        PB_REQUIRE_OK(c->watch(kPods, wo, [&](const WatchEvent& ev) {
            seen << ev;
            return seen.size() < 2;
        }));
        QCOMPARE(seen.size(), 2);
        QCOMPARE(seen.first().type, QStringLiteral("BOOKMARK"));
        QVERIFY(!rvOf(seen.first().object).isEmpty());
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestKubeFaults)
#include "tst_kubefaults.moc"
