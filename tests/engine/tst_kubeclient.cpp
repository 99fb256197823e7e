// The libcurl Kubernetes client against pb-kube-testserver: real HTTPS on loopback with its own CA,
// client certificates and bearer tokens, Status errors, watch streams (dropped and resumed, 410),
// pod logs, delete propagation, cancel from another thread, and a 401 answered by an exec plugin.
#include "kube/Client.h"

#include "KubeTestServer.h"
#include "TestUtil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

using namespace pb::kube;

namespace {

// One pb-kube-testserver process (tests/engine/KubeTestServer.h); it exits when its stdin closes.
using TestServer = pbtest::KubeTestServer;

QJsonObject configMap(const QString& name, const QJsonObject& labels = {}) {
    QJsonObject meta{{QStringLiteral("name"), name}};
    if (!labels.isEmpty())
        meta.insert(QStringLiteral("labels"), labels);
    return {{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
            {QStringLiteral("metadata"), meta},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}}}};
}

QJsonObject job(const QString& name, const QString& check) {
    return pbtest::checkJob(name, check);
}

QString nameOf(const QJsonObject& o) {
    return o.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("name")).toString();
}
QString rvOf(const QJsonObject& o) {
    return o.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("resourceVersion")).toString();
}
QString phaseOf(const QJsonObject& pod) {
    return pod.value(QStringLiteral("status")).toObject().value(QStringLiteral("phase")).toString();
}

const QByteArray kCheckLog = "# nccl-tests stand-in\nline two\nRESULT: busbw 123.4 GB/s\n";

// Evaluates the call once (QVERIFY2 evaluates its description even on success).
#define PB_REQUIRE_OK(call)                                                                                  \
    do {                                                                                                     \
        const ApiResponse pbResp_ = (call);                                                                  \
        QVERIFY2(pbResp_.ok(), qPrintable(pbResp_.message));                                                 \
    } while (0)

} // namespace

class TestKubeClient : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void resourcePaths();
    void versionWithCertificateAndToken();
    void wrongCaIsATlsError();
    void insecureSkipTlsVerify();
    void tlsServerName();
    void createConflictAndNotFound();
    void listWithLabelSelector();
    void jobPodsWatchedToSucceededAndLogFollowed();
    void droppedWatchIsResumed();
    void oldResourceVersionIsGone();
    void deleteBackgroundRemovesPods();
    void cancelEndsWatchFromAnotherThread();
    void execPluginRefreshesTokenOn401();
    void requestTimeout();
    void listAllFollowsContinue();
    void listAndWatchRelistsAfterGone();

  private:
    std::unique_ptr<TestServer> m_server;
};

void TestKubeClient::initTestCase() {
    if (!QFileInfo(QStringLiteral(PB_KUBE_TESTSERVER)).isExecutable())
        QSKIP("pb-kube-testserver was not built; these tests need it");
    m_server = std::make_unique<TestServer>();
    const QJsonObject script{
        {QStringLiteral("checks"),
         QJsonObject{
             {QStringLiteral("quick"), QJsonObject{{QStringLiteral("exitCode"), 0},
                                                   {QStringLiteral("log"), QString::fromUtf8(kCheckLog)},
                                                   {QStringLiteral("runMs"), 800}}},
             {QStringLiteral("forever"), QJsonObject{{QStringLiteral("neverFinish"), true}}}}}};
    QVERIFY(m_server->start(script));
}

void TestKubeClient::resourcePaths() {
    QCOMPARE(resourcePath(QStringLiteral("v1"), QStringLiteral("pods"), QStringLiteral("x")),
             QStringLiteral("/api/v1/namespaces/x/pods"));
    QCOMPARE(resourcePath(QStringLiteral("batch/v1"), QStringLiteral("jobs"), QStringLiteral("x"),
                          QStringLiteral("y")),
             QStringLiteral("/apis/batch/v1/namespaces/x/jobs/y"));
    QCOMPARE(resourcePath(QStringLiteral("v1"), QStringLiteral("nodes")), QStringLiteral("/api/v1/nodes"));
    QCOMPARE(resourcePath(QStringLiteral("rbac.authorization.k8s.io/v1"),
                          QStringLiteral("clusterrolebindings"), {}, QStringLiteral("b")),
             QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/b"));
}

void TestKubeClient::versionWithCertificateAndToken() {
    for (const QString& ctx : {QStringLiteral("pb-cert"), QStringLiteral("pb-token")}) {
        auto c = m_server->client(ctx);
        QVERIFY(c);
        ApiResponse r = c->get(QStringLiteral("/version"));
        PB_REQUIRE_OK(r);
        QCOMPARE(r.http, 200);
        QVERIFY(!r.object.value(QStringLiteral("gitVersion")).toString().isEmpty());
    }
    // No credentials at all: the server says who is missing.
    pb::Result<ResolvedContext> ctx = m_server->context(QStringLiteral("pb-token"));
    QVERIFY(ctx.ok());
    ctx->user.token = QStringLiteral("not-a-valid-token");
    auto c = std::move(*Client::create(*ctx));
    ApiResponse r = c->get(QStringLiteral("/api/v1/namespaces"));
    QCOMPARE(r.http, 401);
    QCOMPARE(r.reason, QStringLiteral("Unauthorized"));
    QVERIFY2(r.message.startsWith(QStringLiteral("GET /api/v1/namespaces: 401 Unauthorized")),
             qPrintable(r.message));
    QVERIFY(!r.message.contains(QStringLiteral("not-a-valid-token")));
}

void TestKubeClient::wrongCaIsATlsError() {
    pb::Result<ResolvedContext> ctx = m_server->context(QStringLiteral("pb-cert"));
    QVERIFY(ctx.ok());
    QFile other(pbtest::fixture(QStringLiteral("kube/merge/a/certs/ca.pem")));
    QVERIFY(other.open(QIODevice::ReadOnly));
    ctx->cluster.certificateAuthorityData = other.readAll();
    auto c = std::move(*Client::create(*ctx));
    ApiResponse r = c->get(QStringLiteral("/version"));
    QCOMPARE(r.http, 0);
    QCOMPARE(r.reason, QStringLiteral("TLS"));
    QVERIFY2(r.message.startsWith(QStringLiteral("GET /version (https://127.0.0.1:")), qPrintable(r.message));
    QVERIFY2(r.message.contains(QStringLiteral("certificate")), qPrintable(r.message));

    // No CA at all: the system store does not know the test CA either.
    ctx->cluster.certificateAuthorityData.clear();
    auto s = std::move(*Client::create(*ctx));
    QCOMPARE(s->get(QStringLiteral("/version")).reason, QStringLiteral("TLS"));
}

void TestKubeClient::insecureSkipTlsVerify() {
    pb::Result<ResolvedContext> ctx = m_server->context(QStringLiteral("pb-token"));
    QVERIFY(ctx.ok());
    ctx->cluster.certificateAuthorityData.clear();
    ctx->cluster.insecureSkipTlsVerify = true;
    auto c = std::move(*Client::create(*ctx));
    ApiResponse r = c->get(QStringLiteral("/version"));
    PB_REQUIRE_OK(r);
}

void TestKubeClient::tlsServerName() {
    // The server certificate names 127.0.0.1, localhost and kubernetes.default.svc: reach it by IP
    // while verifying a name only the certificate knows.
    pb::Result<ResolvedContext> ctx = m_server->context(QStringLiteral("pb-cert"));
    QVERIFY(ctx.ok());
    ctx->cluster.tlsServerName = QStringLiteral("kubernetes.default.svc");
    auto c = std::move(*Client::create(*ctx));
    PB_REQUIRE_OK(c->get(QStringLiteral("/version")));

    ctx->cluster.tlsServerName = QStringLiteral("someone-else.example");
    auto wrong = std::move(*Client::create(*ctx));
    ApiResponse r = wrong->get(QStringLiteral("/version"));
    QCOMPARE(r.http, 0);
    QCOMPARE(r.reason, QStringLiteral("TLS"));
    QVERIFY2(r.message.contains(QStringLiteral("someone-else.example")), qPrintable(r.message));
}

void TestKubeClient::createConflictAndNotFound() {
    auto c = m_server->client();
    QVERIFY(c);
    const QString cms =
        resourcePath(QStringLiteral("v1"), QStringLiteral("configmaps"), c->defaultNamespace());
    ApiResponse r = c->create(cms, configMap(QStringLiteral("pb-conflict")));
    PB_REQUIRE_OK(r);
    QCOMPARE(r.http, 201);
    QCOMPARE(nameOf(r.object), QStringLiteral("pb-conflict"));
    QVERIFY(!rvOf(r.object).isEmpty());

    r = c->create(cms, configMap(QStringLiteral("pb-conflict")));
    QCOMPARE(r.http, 409);
    QVERIFY(!r.ok());
    QCOMPARE(r.reason, QStringLiteral("AlreadyExists"));
    QCOMPARE(r.message, QStringLiteral("POST /api/v1/namespaces/default/configmaps: 409 AlreadyExists: "
                                       "configmaps \"pb-conflict\" already exists"));
    QCOMPARE(r.error().message, r.message);

    r = c->get(cms + QStringLiteral("/pb-missing"));
    QCOMPARE(r.http, 404);
    QCOMPARE(r.reason, QStringLiteral("NotFound"));
    QCOMPARE(r.message, QStringLiteral("GET /api/v1/namespaces/default/configmaps/pb-missing: 404 NotFound: "
                                       "configmaps \"pb-missing\" not found"));
    QCOMPARE(r.object.value(QStringLiteral("kind")).toString(), QStringLiteral("Status"));
}

void TestKubeClient::listWithLabelSelector() {
    auto c = m_server->client(QStringLiteral("pb-token"));
    QVERIFY(c);
    const QString cms =
        resourcePath(QStringLiteral("v1"), QStringLiteral("configmaps"), QStringLiteral("default"));
    const QJsonObject mine{{QStringLiteral("app.kubernetes.io/part-of"), QStringLiteral("pb-list")}};
    PB_REQUIRE_OK(c->create(cms, configMap(QStringLiteral("pb-list-1"), mine)));
    PB_REQUIRE_OK(c->create(cms, configMap(QStringLiteral("pb-list-2"), mine)));
    PB_REQUIRE_OK(
        c->create(cms, configMap(QStringLiteral("pb-list-3"),
                                 {{QStringLiteral("app.kubernetes.io/part-of"), QStringLiteral("other")}})));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("labelSelector"), QStringLiteral("app.kubernetes.io/part-of=pb-list"));
    ApiResponse r = c->get(cms, q);
    PB_REQUIRE_OK(r);
    QStringList names;
    for (const QJsonValue& v : r.object.value(QStringLiteral("items")).toArray())
        names << nameOf(v.toObject());
    names.sort();
    QCOMPARE(names, QStringList({QStringLiteral("pb-list-1"), QStringLiteral("pb-list-2")}));
    QVERIFY(!rvOf(r.object).isEmpty());
}

void TestKubeClient::jobPodsWatchedToSucceededAndLogFollowed() {
    auto c = m_server->client();
    QVERIFY(c);
    const QString ns = QStringLiteral("default");
    ApiResponse created = c->create(resourcePath(QStringLiteral("batch/v1"), QStringLiteral("jobs"), ns),
                                    job(QStringLiteral("pb-watch-job"), QStringLiteral("quick")));
    PB_REQUIRE_OK(created);
    const QString pods = resourcePath(QStringLiteral("v1"), QStringLiteral("pods"), ns);
    WatchOptions wo;
    wo.labelSelector = QStringLiteral("batch.kubernetes.io/job-name=pb-watch-job");
    wo.resourceVersion = rvOf(created.object); // everything after the Job's creation
    wo.timeoutSeconds = 60;

    // Watch until the pod runs, then follow its log while it is written, then watch to Succeeded.
    QString pod, phase;
    ApiResponse w = c->watch(pods, wo, [&](const WatchEvent& ev) {
        if (ev.type == QLatin1String("BOOKMARK"))
            return true;
        pod = nameOf(ev.object);
        phase = phaseOf(ev.object);
        wo.resourceVersion = rvOf(ev.object);
        return phase == QLatin1String("Pending");
    });
    PB_REQUIRE_OK(w);
    QVERIFY(!pod.isEmpty());
    QVERIFY2(phase == QLatin1String("Running") || phase == QLatin1String("Succeeded"), qPrintable(phase));

    QByteArray log;
    int chunks = 0;
    ApiResponse l = c->logs(ns, pod, QStringLiteral("main"), true, [&](QByteArrayView chunk) {
        log.append(chunk.data(), chunk.size());
        ++chunks;
        return true;
    });
    PB_REQUIRE_OK(l);
    QCOMPARE(log, kCheckLog);
    QVERIFY(chunks >= 1);

    ApiResponse done = c->watch(pods, wo, [&](const WatchEvent& ev) {
        if (ev.type == QLatin1String("BOOKMARK"))
            return true;
        phase = phaseOf(ev.object);
        return phase != QLatin1String("Succeeded") && phase != QLatin1String("Failed");
    });
    if (phase != QLatin1String("Succeeded")) // the last event may have come before the log ended
        PB_REQUIRE_OK(done);
    ApiResponse p = c->get(pods + QLatin1Char('/') + pod);
    PB_REQUIRE_OK(p);
    QCOMPARE(phaseOf(p.object), QStringLiteral("Succeeded"));

    // A log that is read whole (no follow) gives the same bytes; stopping early is not an error.
    QByteArray again;
    PB_REQUIRE_OK(c->logs(ns, pod, QStringLiteral("main"), false, [&](QByteArrayView ch) {
        again.append(ch.data(), ch.size());
        return true;
    }));
    QCOMPARE(again, kCheckLog);
    PB_REQUIRE_OK(c->logs(ns, pod, QStringLiteral("main"), false, [](QByteArrayView) { return false; }));

    // The log of a container that is not there is an error response with the server's reason.
    ApiResponse missing = c->logs(ns, QStringLiteral("no-such-pod"), QStringLiteral("main"), false,
                                  [](QByteArrayView) { return true; });
    QCOMPARE(missing.http, 404);
    QVERIFY2(missing.message.startsWith(
                 QStringLiteral("GET /api/v1/namespaces/default/pods/no-such-pod/log: 404 NotFound")),
             qPrintable(missing.message));
}

void TestKubeClient::droppedWatchIsResumed() {
    TestServer server;
    QVERIFY(
        server.start({{QStringLiteral("faults"), QJsonObject{{QStringLiteral("dropWatchAfterEvents"), 2}}}}));
    auto c = server.client();
    QVERIFY(c);
    const QString cms =
        resourcePath(QStringLiteral("v1"), QStringLiteral("configmaps"), QStringLiteral("default"));
    ApiResponse list = c->get(cms);
    PB_REQUIRE_OK(list);
    QStringList expected;
    for (int i = 0; i < 7; ++i) {
        expected << QStringLiteral("pb-drop-%1").arg(i);
        PB_REQUIRE_OK(c->create(cms, configMap(expected.last())));
    }
    WatchOptions wo;
    wo.resourceVersion = rvOf(list.object);
    QStringList seen;
    int resumes = 0;
    ApiResponse w = c->watch(
        cms, wo,
        [&](const WatchEvent& ev) {
            if (ev.type == QLatin1String("ADDED"))
                seen << nameOf(ev.object);
            return seen.size() < expected.size();
        },
        &resumes);
    PB_REQUIRE_OK(w);
    QCOMPARE(seen, expected); // in order, none lost, none twice
    QVERIFY2(resumes >= 3, qPrintable(QString::number(resumes)));
}

void TestKubeClient::oldResourceVersionIsGone() {
    auto c = m_server->client();
    QVERIFY(c);
    WatchOptions wo;
    wo.resourceVersion = QStringLiteral("1"); // compacted when the server started
    int events = 0, resumes = -1;
    ApiResponse w = c->watch(
        resourcePath(QStringLiteral("v1"), QStringLiteral("namespaces")), wo,
        [&](const WatchEvent&) {
            ++events;
            return true;
        },
        &resumes);
    QCOMPARE(w.http, 410);
    QCOMPARE(w.reason, QStringLiteral("Gone"));
    QVERIFY2(w.message.contains(QStringLiteral("too old resource version")), qPrintable(w.message));
    QVERIFY(w.message.startsWith(QStringLiteral("GET /api/v1/namespaces (watch): 410")));
    QCOMPARE(events, 0);
    QCOMPARE(resumes, 0);
}

void TestKubeClient::deleteBackgroundRemovesPods() {
    auto c = m_server->client();
    QVERIFY(c);
    const QString jobs =
        resourcePath(QStringLiteral("batch/v1"), QStringLiteral("jobs"), QStringLiteral("default"));
    const QString pods =
        resourcePath(QStringLiteral("v1"), QStringLiteral("pods"), QStringLiteral("default"));
    ApiResponse created = c->create(jobs, job(QStringLiteral("pb-delete-job"), QStringLiteral("forever")));
    PB_REQUIRE_OK(created);
    WatchOptions wo;
    wo.labelSelector = QStringLiteral("job-name=pb-delete-job");
    wo.resourceVersion = rvOf(created.object);
    QString pod;
    PB_REQUIRE_OK(c->watch(pods, wo, [&](const WatchEvent& ev) {
        if (ev.type == QLatin1String("ADDED"))
            pod = nameOf(ev.object);
        return pod.isEmpty();
    }));
    QVERIFY(!pod.isEmpty());

    ApiResponse del = c->remove(jobs + QStringLiteral("/pb-delete-job"), Propagation::Background);
    PB_REQUIRE_OK(del);
    QCOMPARE(c->get(jobs + QStringLiteral("/pb-delete-job")).http, 404);

    QUrlQuery q;
    q.addQueryItem(QStringLiteral("labelSelector"), wo.labelSelector);
    ApiResponse left = c->get(pods, q);
    PB_REQUIRE_OK(left);
    if (!left.object.value(QStringLiteral("items")).toArray().isEmpty()) {
        // The garbage collector may lag: wait for the DELETED event.
        wo.resourceVersion = rvOf(left.object);
        PB_REQUIRE_OK(
            c->watch(pods, wo, [&](const WatchEvent& ev) { return ev.type != QLatin1String("DELETED"); }));
    }
    QCOMPARE(c->get(pods + QLatin1Char('/') + pod).http, 404);

    // Deleting what is not there says so.
    ApiResponse again = c->remove(jobs + QStringLiteral("/pb-delete-job"));
    QCOMPARE(again.http, 404);
    QCOMPARE(again.reason, QStringLiteral("NotFound"));
    QVERIFY(again.message.startsWith(
        QStringLiteral("DELETE /apis/batch/v1/namespaces/default/jobs/pb-delete-job: 404 NotFound")));
}

void TestKubeClient::cancelEndsWatchFromAnotherThread() {
    auto c = m_server->client();
    QVERIFY(c);
    std::atomic<bool> started{false}, finished{false};
    ApiResponse result;
    std::thread worker([&] {
        WatchOptions wo; // from now: the current namespaces arrive as ADDED, then nothing happens
        wo.timeoutSeconds = 600;
        result = c->watch(resourcePath(QStringLiteral("v1"), QStringLiteral("namespaces")), wo,
                          [&](const WatchEvent&) {
                              started = true;
                              return true;
                          });
        finished = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(started.load(), 20000);
    QVERIFY(!finished.load());
    c->cancel();
    QVERIFY(c->cancelled());
    QTRY_VERIFY_WITH_TIMEOUT(finished.load(), 10000);
    worker.join();
    QCOMPARE(result.http, 0);
    QCOMPARE(result.reason, QStringLiteral("Cancelled"));
    // Calls after cancel() return at once until resetCancel().
    QCOMPARE(c->get(QStringLiteral("/version")).reason, QStringLiteral("Cancelled"));
    c->resetCancel();
    PB_REQUIRE_OK(c->get(QStringLiteral("/version")));
}

void TestKubeClient::execPluginRefreshesTokenOn401() {
    TestServer server;
    const QString tokens = server.path(QStringLiteral("tokens.txt"));
    {
        QFile f(tokens);
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    QVERIFY(server.start({{QStringLiteral("faults"), QJsonObject{{QStringLiteral("tokenMaxUses"), 3}}}},
                         {QStringLiteral("--tokens-file"), tokens}));
    pb::Result<ResolvedContext> generated = server.context(QStringLiteral("pb-token"));
    QVERIFY(generated.ok());

    // A kubeconfig of our own: the server's address, its CA by a relative path, an exec user.
    const QString path = server.path(QStringLiteral("exec-kubeconfig"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("apiVersion: v1\nkind: Config\ncurrent-context: pb-exec\nclusters:\n- name: pb\n  cluster:\n    "
            "server: " +
            generated->cluster.server.toUtf8() +
            "\n    certificate-authority: state/ca.crt\nusers:\n- name: minted\n  user:\n"
            "    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: " +
            pbtest::fixture(QStringLiteral("kube/exec/mint-token.sh")).toUtf8() +
            "\n      interactiveMode: Never\n      env:\n      - name: PB_TOKENS_FILE\n        value: " +
            tokens.toUtf8() +
            "\ncontexts:\n- name: pb-exec\n  context: {cluster: pb, user: minted, namespace: default}\n");
    f.close();
    pb::Result<Kubeconfig> k = Kubeconfig::load({path});
    QVERIFY(k.ok());
    pb::Result<ResolvedContext> ctx = resolveContext(*k);
    QVERIFY2(ctx.ok(), qPrintable(ctx.ok() ? QString() : ctx.error().toString()));
    auto c = std::move(*Client::create(*ctx));
    for (int i = 0; i < 10; ++i) {
        ApiResponse r = c->get(QStringLiteral("/api/v1/namespaces/default"));
        QVERIFY2(r.ok(), qPrintable(QStringLiteral("request %1: %2").arg(i).arg(r.message)));
    }
    QVERIFY2(c->credentials().execRuns() > 1, qPrintable(QString::number(c->credentials().execRuns())));
    QCOMPARE(c->credentials().execRuns(), 4); // ceil(10 / 3) tokens
    // The runner can ask for fresh credentials itself (a watch that ended with 401).
    const pb::Status refreshed = c->refreshCredentials();
    QVERIFY(refreshed.ok());
    QCOMPARE(c->credentials().execRuns(), 5);
    PB_REQUIRE_OK(c->get(QStringLiteral("/api/v1/namespaces/default")));
    QCOMPARE(c->credentials().execRuns(), 5);
    QFile minted(tokens);
    QVERIFY(minted.open(QIODevice::ReadOnly));
    QCOMPARE(minted.readAll().count('\n'), 5);
}

void TestKubeClient::requestTimeout() {
    TestServer server;
    QVERIFY(server.start({{QStringLiteral("faults"), QJsonObject{{QStringLiteral("slowMs"), 3000}}}}));
    ClientOptions o;
    o.requestTimeoutMs = 300;
    auto c = server.client(QStringLiteral("pb-cert"), o);
    QVERIFY(c);
    ApiResponse r = c->get(QStringLiteral("/version"));
    QCOMPARE(r.http, 0);
    QCOMPARE(r.reason, QStringLiteral("Timeout"));
    QVERIFY2(r.message.startsWith(QStringLiteral("GET /version (https://127.0.0.1:")), qPrintable(r.message));
}

void TestKubeClient::listAllFollowsContinue() {
    TestServer server;
    QVERIFY(server.start());
    auto c = server.client();
    QVERIFY(c);
    const QJsonObject ns{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Namespace")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("pb-pages")}}}};
    PB_REQUIRE_OK(c->create(QStringLiteral("/api/v1/namespaces"), ns));
    const QString cms =
        resourcePath(QStringLiteral("v1"), QStringLiteral("configmaps"), QStringLiteral("pb-pages"));
    QStringList names;
    for (int i = 0; i < 7; ++i) {
        names << QStringLiteral("pb-page-%1").arg(i);
        PB_REQUIRE_OK(c->create(
            cms, configMap(names.last(), {{QStringLiteral("pb"),
                                           i % 2 ? QStringLiteral("odd") : QStringLiteral("even")}})));
    }
    // One page by hand: limit honoured, a continue token and the count left.
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("limit"), QStringLiteral("3"));
    const ApiResponse first = c->get(cms, q);
    PB_REQUIRE_OK(first);
    QCOMPARE(first.object.value(QStringLiteral("items")).toArray().size(), 3);
    QVERIFY(!first.object.value(QStringLiteral("metadata"))
                 .toObject()
                 .value(QStringLiteral("continue"))
                 .toString()
                 .isEmpty());
    QCOMPARE(first.object.value(QStringLiteral("metadata"))
                 .toObject()
                 .value(QStringLiteral("remainingItemCount"))
                 .toInt(),
             4);

    int pages = 0;
    const ApiResponse all = c->listAll(cms, {}, 3, &pages);
    PB_REQUIRE_OK(all);
    QCOMPARE(pages, 3);
    QStringList seen;
    for (const QJsonValue& v : all.object.value(QStringLiteral("items")).toArray())
        seen << nameOf(v.toObject());
    QCOMPARE(seen, names);
    QVERIFY(!all.object.value(QStringLiteral("metadata")).toObject().contains(QStringLiteral("continue")));

    // A set-based selector, paged.
    QUrlQuery sel;
    sel.addQueryItem(QStringLiteral("labelSelector"), QStringLiteral("pb in (odd, nothing)"));
    const ApiResponse odd = c->listAll(cms, sel, 2, &pages);
    PB_REQUIRE_OK(odd);
    QCOMPARE(odd.object.value(QStringLiteral("items")).toArray().size(), 3);
    QCOMPARE(pages, 2);

    // A garbled token is a 400, not a silent full list.
    QUrlQuery bad;
    bad.addQueryItem(QStringLiteral("continue"), QStringLiteral("not-a-token"));
    QCOMPARE(c->get(cms, bad).http, 400);
}

void TestKubeClient::listAndWatchRelistsAfterGone() {
    // The pod's container start compacts the server's history under the open watch: the watch ends
    // with 410, listAndWatch lists again and reports what it missed as synthetic events, then the
    // pod's deletion (podFault Deleted) reaches the caller, from the watch or from a re-list.
    TestServer server;
    QVERIFY(
        server.start({{QStringLiteral("checks"),
                       QJsonObject{{QStringLiteral("squash"),
                                    QJsonObject{{QStringLiteral("serverFault"), QStringLiteral("compact")},
                                                {QStringLiteral("podFault"), QStringLiteral("Deleted")},
                                                {QStringLiteral("pendingMs"), 200},
                                                {QStringLiteral("faultAfterMs"), 300},
                                                {QStringLiteral("neverFinish"), true}}}}},
                      {QStringLiteral("faults"), QJsonObject{{QStringLiteral("bookmarkMs"), 100}}}}));
    auto c = server.client();
    QVERIFY(c);
    PB_REQUIRE_OK(
        c->create(resourcePath(QStringLiteral("batch/v1"), QStringLiteral("jobs"), QStringLiteral("default")),
                  job(QStringLiteral("pb-squash"), QStringLiteral("squash"))));
    WatchOptions wo;
    wo.labelSelector = QStringLiteral("job-name=pb-squash");
    QList<WatchEvent> events;
    WatchStats stats;
    const ApiResponse r = c->listAndWatch(
        resourcePath(QStringLiteral("v1"), QStringLiteral("pods"), QStringLiteral("default")), wo,
        [&](const WatchEvent& ev) {
            events << ev;
            return !ev.isDeleted() && events.size() < 200;
        },
        &stats);
    PB_REQUIRE_OK(r);
    QVERIFY(!events.isEmpty());
    QCOMPARE(events.first().type, QStringLiteral("ADDED"));
    QVERIFY(!events.first().synthetic);
    QVERIFY(events.last().isDeleted());
    QVERIFY2(stats.relists >= 1, qPrintable(QString::number(stats.relists)));
    bool synthetic = false, sawRunning = false;
    for (const WatchEvent& ev : events) {
        synthetic = synthetic || ev.synthetic;
        sawRunning = sawRunning || phaseOf(ev.object) == QLatin1String("Running");
    }
    QVERIFY(synthetic); // the Running update lost to the compaction came from the re-list
    QVERIFY(sawRunning);
    QVERIFY(stats.pages >= 2);
}

QTEST_GUILESS_MAIN(TestKubeClient)
#include "tst_kubeclient.moc"
