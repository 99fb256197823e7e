// kubectl parity (issue #20) on the same kubeconfig files against pb-kube-testserver, which logs
// what each client sent (--request-log: protocol, Host, SNI, auth). Proofbench's side is asserted
// against kubectl's documented behaviour always; kubectl itself is run when installed and must agree.
//  - a user with both `token` and `exec`: the static token is sent, the plugin never runs;
//  - insecure-skip-tls-verify together with a CA: refused (naming the cluster);
//  - tls-server-name: the SNI is that name, the Host header stays the server URL's host:port;
//  - HTTPS_PROXY with NO_PROXY as Go applies it (loopback bypasses; CIDR, domain suffix, port forms),
//    through a real CONNECT proxy;
// and the production client speaks HTTP/2 to the server (HTTP/1.1 when the server offers only that).
#include "kube/Client.h"
#include "kube/Credentials.h"

#include "KubeTestServer.h"
#include "TestUtil.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <QThread>
#include <QUrlQuery>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <thread>

using namespace pb::kube;

namespace {

using pbtest::writeFile;

using TestServer = pbtest::KubeTestServer;

QList<QJsonObject> readLog(const QString& path) {
    QList<QJsonObject> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (!line.trimmed().isEmpty())
            out << QJsonDocument::fromJson(line).object();
    return out;
}

QString kubectlPath() {
    const QString k = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
    return k;
}

struct KubectlResult {
    int exitCode = -1;
    QByteArray out, err;
};

KubectlResult runKubectl(const QString& kubeconfig, const QStringList& args,
                         const QProcessEnvironment& extra = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("KUBECONFIG"), kubeconfig);
    env.insert(QStringLiteral("HOME"),
               QFileInfo(kubeconfig).absolutePath()); // no user config or cache involved
    for (const QString& k :
         {QStringLiteral("HTTPS_PROXY"), QStringLiteral("https_proxy"), QStringLiteral("NO_PROXY"),
          QStringLiteral("no_proxy"), QStringLiteral("HTTP_PROXY"), QStringLiteral("http_proxy")})
        env.remove(k);
    for (const QString& k : extra.keys())
        env.insert(k, extra.value(k));
    p.setProcessEnvironment(env);
    p.start(kubectlPath(), args);
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// A minimal HTTP CONNECT proxy on loopback: records each CONNECT target and tunnels it to
// 127.0.0.1 on the requested port (whatever the host name), as a corporate proxy would reach it.
class ConnectProxy {
  public:
    bool start() {
        m_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (m_listener < 0 || ::bind(m_listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
            ::listen(m_listener, 16) != 0)
            return false;
        socklen_t len = sizeof addr;
        ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        m_thread = std::thread([this] { loop(); });
        return true;
    }
    ~ConnectProxy() {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        for (std::thread& t : m_tunnels)
            t.join();
        if (m_listener >= 0)
            ::close(m_listener);
    }
    int port() const { return m_port; }
    QStringList targets() {
        std::lock_guard lock(m_mu);
        return m_targets;
    }
    void clear() {
        std::lock_guard lock(m_mu);
        m_targets.clear();
    }

  private:
    void loop() {
        while (!m_stop) {
            pollfd p{m_listener, POLLIN, 0};
            if (::poll(&p, 1, 100) <= 0)
                continue;
            const int fd = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd >= 0)
                m_tunnels.emplace_back([this, fd] { tunnel(fd); });
        }
    }
    void tunnel(int client) {
        QByteArray head;
        char buf[16384];
        while (!head.contains("\r\n\r\n") && head.size() < 16384) {
            const ssize_t n = ::read(client, buf, sizeof buf);
            if (n <= 0) {
                ::close(client);
                return;
            }
            head.append(buf, n);
        }
        const QList<QByteArray> first = head.left(head.indexOf("\r\n")).split(' ');
        const QByteArray target = first.value(1);
        {
            std::lock_guard lock(m_mu);
            m_targets << QString::fromLatin1(target);
        }
        const int port = target.mid(target.lastIndexOf(':') + 1).toInt();
        const int upstream = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = htons(quint16(port));
        if (first.value(0) != "CONNECT" ||
            ::connect(upstream, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            const QByteArray no = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n";
            [[maybe_unused]] const ssize_t w = ::write(client, no.constData(), size_t(no.size()));
            ::close(client);
            ::close(upstream);
            return;
        }
        const QByteArray ok = "HTTP/1.1 200 Connection established\r\n\r\n";
        [[maybe_unused]] const ssize_t w = ::write(client, ok.constData(), size_t(ok.size()));
        for (;;) {
            pollfd fds[2] = {{client, POLLIN, 0}, {upstream, POLLIN, 0}};
            if (::poll(fds, 2, 200) < 0 || m_stop)
                break;
            bool done = false;
            for (int i = 0; i < 2 && !done; ++i) {
                if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
                if (n <= 0 || ::write(fds[1 - i].fd, buf, size_t(n)) != n)
                    done = true;
            }
            if (done)
                break;
        }
        ::close(client);
        ::close(upstream);
    }

    int m_listener = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
    std::vector<std::thread> m_tunnels;
    std::mutex m_mu;
    QStringList m_targets;
};

QByteArray clusterYaml(const QString& server, const QString& caFile, const QByteArray& extra = {}) {
    return "clusters:\n- name: pb\n  cluster:\n    server: " + server.toUtf8() +
           "\n    certificate-authority: " + caFile.toUtf8() + "\n" + extra;
}

} // namespace

class TestKubeParity : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        if (!QFileInfo(QStringLiteral(PB_KUBE_TESTSERVER)).isExecutable())
            QSKIP("pb-kube-testserver was not built; these tests need it");
        if (kubectlPath().isEmpty())
            qInfo("kubectl is not installed: Proofbench is checked against kubectl's documented behaviour "
                  "only");
    }

    void clientSpeaksHttp2() {
        for (const bool http1Only : {false, true}) {
            TestServer server;
            QStringList args{QStringLiteral("--request-log"), server.path(QStringLiteral("requests.log"))};
            if (http1Only)
                args << QStringLiteral("--http1-only");
            QVERIFY(server.start(
                {{QStringLiteral("checks"),
                  QJsonObject{{QStringLiteral("quick"),
                               QJsonObject{{QStringLiteral("log"), QStringLiteral("a\nb\n")}}}}}},
                args));
            auto c = server.client();
            QVERIFY(c);
            const ApiResponse v = c->get(QStringLiteral("/version"));
            QVERIFY2(v.ok(), qPrintable(v.message));
            QCOMPARE(v.protocol, http1Only ? QStringLiteral("HTTP/1.1") : QStringLiteral("HTTP/2"));
            // A watch stream and a followed log over the same protocol.
            const QJsonObject container{
                {QStringLiteral("name"), QStringLiteral("main")},
                {QStringLiteral("image"), QStringLiteral("registry.example.invalid/c:1")},
                {QStringLiteral("args"), QJsonArray{QStringLiteral("quick")}}};
            const QJsonObject job{
                {QStringLiteral("apiVersion"), QStringLiteral("batch/v1")},
                {QStringLiteral("kind"), QStringLiteral("Job")},
                {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("pb-h2")}}},
                {QStringLiteral("spec"),
                 QJsonObject{
                     {QStringLiteral("template"),
                      QJsonObject{{QStringLiteral("spec"),
                                   QJsonObject{{QStringLiteral("restartPolicy"), QStringLiteral("Never")},
                                               {QStringLiteral("containers"), QJsonArray{container}}}}}}}}};
            QVERIFY(c->create(QStringLiteral("/apis/batch/v1/namespaces/default/jobs"), job).ok());
            QString pod;
            WatchOptions wo;
            wo.labelSelector = QStringLiteral("job-name=pb-h2");
            const ApiResponse w =
                c->watch(QStringLiteral("/api/v1/namespaces/default/pods"), wo, [&](const WatchEvent& ev) {
                    pod = ev.object.value(QStringLiteral("metadata"))
                              .toObject()
                              .value(QStringLiteral("name"))
                              .toString();
                    return ev.object.value(QStringLiteral("status"))
                               .toObject()
                               .value(QStringLiteral("phase"))
                               .toString() != QLatin1String("Succeeded");
                });
            QVERIFY2(w.ok(), qPrintable(w.message));
            QByteArray log;
            const ApiResponse l =
                c->logs(QStringLiteral("default"), pod, {}, true, [&](QByteArrayView chunk) {
                    log += chunk.toByteArray();
                    return true;
                });
            QVERIFY2(l.ok(), qPrintable(l.message));
            QCOMPARE(log, QByteArray("a\nb\n"));
            const QList<QJsonObject> entries = readLog(server.path(QStringLiteral("requests.log")));
            QVERIFY(entries.size() >= 4);
            for (const QJsonObject& e : entries) {
                QCOMPARE(e.value(QStringLiteral("protocol")).toString(),
                         http1Only ? QStringLiteral("HTTP/1.1") : QStringLiteral("h2"));
                QCOMPARE(e.value(QStringLiteral("userAgent")).toString(), QStringLiteral("proofbench"));
            }
        }
    }

    void tokenAndExecSendsTheToken() {
        TestServer server;
        QVERIFY(
            server.start({}, {QStringLiteral("--request-log"), server.path(QStringLiteral("requests.log"))}));
        const QString marker = server.path(QStringLiteral("plugin-ran"));
        const QString plugin = server.path(QStringLiteral("plugin.sh"));
        QVERIFY(writeFile(
            plugin,
            "#!/bin/sh\ntouch '" + marker.toUtf8() +
                "'\necho '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
                "\"status\":{\"token\":\"from-the-plugin\"}}'\n",
            true));
        const QString server0 = server.context(QStringLiteral("pb-token"))->cluster.server;
        const QString kc = server.path(QStringLiteral("both.kubeconfig"));
        QVERIFY(writeFile(kc, "apiVersion: v1\nkind: Config\ncurrent-context: c\n" +
                                  clusterYaml(server0, server.path(QStringLiteral("state/ca.crt"))) +
                                  "users:\n- name: u\n  user:\n    token: pb-test-token\n    exec:\n      "
                                  "apiVersion: client.authentication.k8s.io/v1\n"
                                  "      command: " +
                                  plugin.toUtf8() +
                                  "\n      interactiveMode: Never\n"
                                  "contexts:\n- name: c\n  context: {cluster: pb, user: u}\n"));
        pb::Result<Kubeconfig> k = Kubeconfig::load({kc});
        QVERIFY(k.ok());
        pb::Result<ResolvedContext> ctx = resolveContext(*k);
        QVERIFY(ctx.ok());
        auto c = std::move(*Client::create(*ctx));
        const ApiResponse r = c->get(QStringLiteral("/version"));
        QVERIFY2(r.ok(), qPrintable(r.message));
        QCOMPARE(c->credentials().execRuns(), 0);
        QVERIFY(!QFile::exists(marker));
        QCOMPARE(readLog(server.path(QStringLiteral("requests.log")))
                     .last()
                     .value(QStringLiteral("auth"))
                     .toString(),
                 QStringLiteral("bearer"));

        if (kubectlPath().isEmpty())
            QSKIP("kubectl is not installed; Proofbench's side was checked against kubectl's documented "
                  "behaviour");
        const KubectlResult kr =
            runKubectl(kc, {QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/version")});
        QVERIFY2(kr.exitCode == 0, kr.err.constData());
        QVERIFY2(!QFile::exists(marker), "kubectl ran the exec plugin although the user has a token");
    }

    void insecureWithCaIsRefused() {
        TestServer server;
        QVERIFY(server.start());
        const QString server0 = server.context(QStringLiteral("pb-cert"))->cluster.server;
        const QString kc = server.path(QStringLiteral("insecure.kubeconfig"));
        QVERIFY(writeFile(kc, "apiVersion: v1\nkind: Config\ncurrent-context: c\n" +
                                  clusterYaml(server0, server.path(QStringLiteral("state/ca.crt")),
                                              "    insecure-skip-tls-verify: true\n") +
                                  "users:\n- name: u\n  user:\n    token: pb-test-token\ncontexts:\n- name: "
                                  "c\n  context: {cluster: pb, user: u}\n"));
        pb::Result<Kubeconfig> k = Kubeconfig::load({kc});
        QVERIFY(k.ok()); // it loads (contexts can be listed) ...
        pb::Result<ResolvedContext> ctx = resolveContext(*k);
        QVERIFY(!ctx.ok()); // ... but is not used
        QVERIFY2(ctx.error().message.contains(QStringLiteral("cluster 'pb'")),
                 qPrintable(ctx.error().toString()));
        QVERIFY2(ctx.error().message.contains(QStringLiteral("insecure-skip-tls-verify")),
                 qPrintable(ctx.error().toString()));
        QCOMPARE(ctx.error().field, QStringLiteral("clusters[pb].cluster.insecure-skip-tls-verify"));

        if (kubectlPath().isEmpty())
            QSKIP("kubectl is not installed; Proofbench's side was checked against kubectl's documented "
                  "behaviour");
        const KubectlResult kr =
            runKubectl(kc, {QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/version")});
        QVERIFY(kr.exitCode != 0);
        QVERIFY2(kr.err.contains("specifying a root certificates file with the insecure flag is not allowed"),
                 kr.err.constData());
    }

    void tlsServerNameKeepsHost() {
        TestServer server;
        const QString log = server.path(QStringLiteral("requests.log"));
        QVERIFY(server.start({}, {QStringLiteral("--request-log"), log}));
        const QString server0 =
            server.context(QStringLiteral("pb-cert"))->cluster.server; // https://127.0.0.1:PORT
        const QString hostPort = QUrl(server0).authority();
        const QString kc = server.path(QStringLiteral("sni.kubeconfig"));
        QVERIFY(writeFile(kc, "apiVersion: v1\nkind: Config\ncurrent-context: c\n" +
                                  clusterYaml(server0, server.path(QStringLiteral("state/ca.crt")),
                                              "    tls-server-name: kubernetes.default.svc\n") +
                                  "users:\n- name: u\n  user:\n    token: pb-test-token\ncontexts:\n- name: "
                                  "c\n  context: {cluster: pb, user: u}\n"));
        pb::Result<Kubeconfig> k = Kubeconfig::load({kc});
        QVERIFY(k.ok());
        auto c = std::move(*Client::create(*resolveContext(*k)));
        const ApiResponse r = c->get(QStringLiteral("/version"));
        QVERIFY2(r.ok(), qPrintable(r.message));
        const QJsonObject ours = readLog(log).last();
        QCOMPARE(ours.value(QStringLiteral("sni")).toString(), QStringLiteral("kubernetes.default.svc"));
        QCOMPARE(ours.value(QStringLiteral("host")).toString(), hostPort);

        if (kubectlPath().isEmpty())
            QSKIP("kubectl is not installed; Proofbench's side was checked against kubectl's documented "
                  "behaviour");
        const KubectlResult kr =
            runKubectl(kc, {QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/version")});
        QVERIFY2(kr.exitCode == 0, kr.err.constData());
        const QJsonObject theirs = readLog(log).last();
        QVERIFY(theirs.value(QStringLiteral("userAgent")).toString().startsWith(QStringLiteral("kubectl")));
        QCOMPARE(theirs.value(QStringLiteral("sni")).toString(),
                 ours.value(QStringLiteral("sni")).toString());
        QCOMPARE(theirs.value(QStringLiteral("host")).toString(),
                 ours.value(QStringLiteral("host")).toString());
        QCOMPARE(theirs.value(QStringLiteral("protocol")).toString(),
                 ours.value(QStringLiteral("protocol")).toString());
    }

    // Configuration and credential errors are the client's: kubectl exits 1 at once, and the start
    // of a run (kube::startProbe, what `validate` does before anything else) fails at once too, with
    // the plugin run once and no retry; an unreachable server is the one thing retried.
    void clientErrorsFailFast() {
        TestServer server, other;
        const QString log = server.path(QStringLiteral("requests.log"));
        QVERIFY(server.start({}, {QStringLiteral("--request-log"), log}));
        QVERIFY(other.start());
        const QString server0 = server.context(QStringLiteral("pb-cert"))->cluster.server;
        const QString ca = server.path(QStringLiteral("state/ca.crt"));
        const QString runs = server.path(QStringLiteral("plugin-runs"));
        auto plugin = [&](const QString& name, const QByteArray& body) {
            const QString path = server.path(name);
            if (!writeFile(path, "#!/bin/sh\necho ran >> '" + runs.toUtf8() + "'\n" + body, true))
                qFatal("cannot write %s", qPrintable(path));
            return path.toUtf8();
        };
        auto execUser = [](const QByteArray& command) {
            return "users:\n- name: u\n  user:\n    exec:\n      apiVersion: "
                   "client.authentication.k8s.io/v1\n      command: " +
                   command + "\n      interactiveMode: Never\n";
        };
        const QByteArray tokenUser = "users:\n- name: u\n  user:\n    token: pb-test-token\n";
        const QByteArray context = "contexts:\n- name: c\n  context: {cluster: pb, user: u}\n";
        struct Case {
            QString name;
            QByteArray cluster, user;
            QString expect; // in Proofbench's message
        };
        const QList<Case> cases{
            {QStringLiteral("exec plugin fails"), clusterYaml(server0, ca),
             execUser(plugin(QStringLiteral("fails.sh"), "echo 'no session: run login first' >&2\nexit 1\n")),
             QStringLiteral("exec plugin")},
            {QStringLiteral("exec plugin answers another apiVersion"), clusterYaml(server0, ca),
             execUser(plugin(QStringLiteral("v1beta1.sh"),
                             "echo '{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"kind\":"
                             "\"ExecCredential\",\"status\":{\"token\":\"pb-test-token\"}}'\n")),
             QStringLiteral("apiVersion")},
            {QStringLiteral("basic auth"), clusterYaml(server0, ca),
             "users:\n- name: u\n  user:\n    username: admin\n    password: secret\n",
             QStringLiteral("401")},
            {QStringLiteral("wrong CA"), clusterYaml(server0, other.path(QStringLiteral("state/ca.crt"))),
             tokenUser, QStringLiteral("TLS")},
            {QStringLiteral("SNI mismatch"),
             clusterYaml(server0, ca, "    tls-server-name: wrong.example.invalid\n"), tokenUser,
             QStringLiteral("TLS")},
        };
        for (const Case& tc : cases) {
            const QString kc = server.path(tc.name.simplified().replace(QLatin1Char(' '), QLatin1Char('-')) +
                                           QStringLiteral(".kubeconfig"));
            QVERIFY(writeFile(kc, "apiVersion: v1\nkind: Config\ncurrent-context: c\n" + tc.cluster +
                                      tc.user + context));
            QFile::remove(runs);
            const int logged = readLog(log).size();
            pb::Result<Kubeconfig> k = Kubeconfig::load({kc});
            QVERIFY2(k.ok(), qPrintable(tc.name));
            pb::Result<ResolvedContext> ctx = resolveContext(*k);
            QVERIFY2(ctx.ok(), qPrintable(tc.name + (ctx ? QString() : ctx.error().toString())));
            auto c = std::move(*Client::create(*ctx));
            QElapsedTimer clock;
            clock.start();
            const pb::Status probed = startProbe(*c, 30);
            const qint64 ms = clock.elapsed();
            QVERIFY2(!probed.ok(), qPrintable(tc.name));
            QVERIFY2(!probed.ok() && probed.error().toString().contains(tc.expect),
                     qPrintable(tc.name + QStringLiteral(": ") + probed.error().toString()));
            QVERIFY2(ms < 3000, qPrintable(tc.name + QStringLiteral(": %1 ms").arg(ms)));
            QFile counted(runs);
            const int pluginRuns = counted.open(QIODevice::ReadOnly) ? int(counted.readAll().count('\n')) : 0;
            QVERIFY2(pluginRuns <= 1,
                     qPrintable(tc.name + QStringLiteral(": plugin ran %1 times").arg(pluginRuns)));
            QVERIFY2(readLog(log).size() - logged <= 2,
                     qPrintable(tc.name)); // 401: one retry, fresh credentials

            if (kubectlPath().isEmpty())
                continue;
            clock.restart();
            const KubectlResult kr =
                runKubectl(kc, {QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/version")});
            QVERIFY2(kr.exitCode == 1, qPrintable(QStringLiteral("kubectl, %1: exit %2: %3")
                                                      .arg(tc.name)
                                                      .arg(kr.exitCode)
                                                      .arg(QString::fromUtf8(kr.err))));
            QVERIFY2(clock.elapsed() < 10000, qPrintable(tc.name));
        }

        // The one thing retried: a server that does not answer, until the limit.
        const QString closed = server.path(QStringLiteral("closed.kubeconfig"));
        QVERIFY(writeFile(closed, "apiVersion: v1\nkind: Config\ncurrent-context: c\n" +
                                      clusterYaml(QStringLiteral("https://127.0.0.1:1"), ca) + tokenUser +
                                      context));
        pb::Result<Kubeconfig> k = Kubeconfig::load({closed});
        QVERIFY(k.ok());
        auto c = std::move(*Client::create(*resolveContext(*k)));
        QElapsedTimer clock;
        clock.start();
        const pb::Status probed = startProbe(*c, 1);
        QVERIFY(!probed.ok());
        QVERIFY2(probed.error().toString().contains(QLatin1String("gave up after")),
                 qPrintable(probed.error().toString()));
        QVERIFY(clock.elapsed() >= 900);
    }

    // Issue 26: kubectl works against the test server unchanged, through create (its typed commands
    // send protobuf), apply and create -f (server-side field validation, learnt from OpenAPI v3),
    // get, watch, logs, events, auth (whoami, can-i, can-i --list) and delete; an eviction at grace 0
    // marks the pod DisruptionTarget before it goes; and every request Proofbench's runner makes is
    // one a real API server serves (the audit-style log names its verb and resource).
    void kubectlDrivesTheTestServer() {
        if (kubectlPath().isEmpty())
            QSKIP("kubectl is not installed; the kubectl side of the test server is not checked");
        TestServer server;
        const QString log = server.path(QStringLiteral("requests.log"));
        const QJsonObject script{
            {QStringLiteral("defaultCheck"),
             QJsonObject{{QStringLiteral("log"), QStringLiteral("hello from the check\n")},
                         {QStringLiteral("runMs"), 200},
                         {QStringLiteral("pendingMs"), 20}}},
            {QStringLiteral("checks"),
             QJsonObject{{QStringLiteral("sleeper"), QJsonObject{{QStringLiteral("neverFinish"), true}}}}},
            {QStringLiteral("rbac"),
             QJsonObject{{QStringLiteral("user"), QStringLiteral("viewer")},
                         {QStringLiteral("allow"),
                          QJsonArray{QStringLiteral("get pods"), QStringLiteral("list pods")}}}}};
        QVERIFY(server.start(script, {QStringLiteral("--request-log"), log}));
        auto kubectl = [&](const QStringList& args, const QByteArray& input = {}) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("KUBECONFIG"), server.kubeconfig());
            env.insert(QStringLiteral("HOME"), server.path(QString())); // no user cache
            p.setProcessEnvironment(env);
            p.start(kubectlPath(), args);
            if (!input.isEmpty()) {
                p.write(input);
                p.closeWriteChannel();
            }
            p.waitForFinished(60000);
            return std::make_pair(p.exitCode(),
                                  QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError()));
        };
        auto expectOk = [&](const QStringList& args, const QString& contains, const QByteArray& input = {}) {
            const auto [code, out] = kubectl(args, input);
            if (code != 0 || !out.contains(contains))
                qWarning("kubectl %s: exit %d: %s", qPrintable(args.join(QLatin1Char(' '))), code,
                         qPrintable(out));
            return code == 0 && out.contains(contains);
        };
        // create (protobuf bodies), apply and create -f (no --validate=false)
        QVERIFY(expectOk({QStringLiteral("create"), QStringLiteral("namespace"), QStringLiteral("demo")},
                         QStringLiteral("namespace/demo created")));
        QVERIFY(expectOk({QStringLiteral("create"), QStringLiteral("job"), QStringLiteral("hello"),
                          QStringLiteral("-n"), QStringLiteral("demo"),
                          QStringLiteral("--image=registry.example.invalid/c:1"), QStringLiteral("--"),
                          QStringLiteral("hello")},
                         QStringLiteral("job.batch/hello created")));
        QVERIFY(expectOk({QStringLiteral("create"), QStringLiteral("configmap"), QStringLiteral("cm"),
                          QStringLiteral("-n"), QStringLiteral("demo"),
                          QStringLiteral("--from-literal=answer=42")},
                         QStringLiteral("configmap/cm created")));
        QVERIFY(expectOk({QStringLiteral("get"), QStringLiteral("configmap"), QStringLiteral("cm"),
                          QStringLiteral("-n"), QStringLiteral("demo"), QStringLiteral("-o"),
                          QStringLiteral("jsonpath={.data.answer}")},
                         QStringLiteral("42")));
        const QByteArray applied =
            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: applied\n  namespace: demo\n"
            "spec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n"
            "      - name: c\n        image: registry.example.invalid/c:1\n        args: [applied]\n";
        QVERIFY(expectOk({QStringLiteral("apply"), QStringLiteral("-f"), QStringLiteral("-")},
                         QStringLiteral("job.batch/applied created"), applied));
        const auto [badCode, badOut] = kubectl(
            {QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")},
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: typo, namespace: demo}\ndatta: {a: b}\n");
        QVERIFY2(badCode != 0 &&
                     badOut.contains(QLatin1String("strict decoding error: unknown field \"datta\"")),
                 qPrintable(badOut));
        // get, watch, logs, events
        QTRY_VERIFY_WITH_TIMEOUT(expectOk({QStringLiteral("get"), QStringLiteral("jobs"),
                                           QStringLiteral("-n"), QStringLiteral("demo")},
                                          QStringLiteral("Complete")),
                                 20000);
        {
            QProcess w;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("KUBECONFIG"), server.kubeconfig());
            env.insert(QStringLiteral("HOME"), server.path(QString()));
            w.setProcessEnvironment(env);
            w.start(kubectlPath(),
                    {QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("-n"),
                     QStringLiteral("demo"), QStringLiteral("-w"), QStringLiteral("--output-watch-events")});
            QTRY_VERIFY_WITH_TIMEOUT(w.bytesAvailable() > 0 || w.state() == QProcess::NotRunning, 10000);
            QTest::qWait(500);
            (void)kubectl({QStringLiteral("create"), QStringLiteral("job"), QStringLiteral("later"),
                           QStringLiteral("-n"), QStringLiteral("demo"),
                           QStringLiteral("--image=registry.example.invalid/c:1")});
            QByteArray seen;
            QTRY_VERIFY_WITH_TIMEOUT((seen += w.readAllStandardOutput()).contains("later-"), 10000);
            w.kill();
            w.waitForFinished(5000);
            QVERIFY2(seen.contains("ADDED"), seen.constData());
        }
        QVERIFY(expectOk({QStringLiteral("logs"), QStringLiteral("-n"), QStringLiteral("demo"),
                          QStringLiteral("job/hello")},
                         QStringLiteral("hello from the check")));
        const auto [evCode, events] = kubectl(
            {QStringLiteral("get"), QStringLiteral("events"), QStringLiteral("-n"), QStringLiteral("demo")});
        QCOMPARE(evCode, 0);
        for (const char* reason :
             {"Scheduled", "Pulled", "Created", "Started", "SuccessfulCreate", "Completed"})
            QVERIFY2(events.contains(QLatin1String(reason)),
                     qPrintable(QLatin1String(reason) + QLatin1Char('\n') + events));
        QVERIFY2(events.contains(QLatin1String("job/hello")) && events.contains(QLatin1String("LAST SEEN")),
                 qPrintable(events));
        // auth: the certificate user is an admin; the token user may only read pods
        QVERIFY(expectOk({QStringLiteral("auth"), QStringLiteral("whoami")}, QStringLiteral("pb-admin")));
        QVERIFY(expectOk({QStringLiteral("auth"), QStringLiteral("whoami"), QStringLiteral("--context"),
                          QStringLiteral("pb-token")},
                         QStringLiteral("viewer")));
        QVERIFY(expectOk({QStringLiteral("auth"), QStringLiteral("can-i"), QStringLiteral("create"),
                          QStringLiteral("jobs")},
                         QStringLiteral("yes")));
        const auto [noCode, no] =
            kubectl({QStringLiteral("auth"), QStringLiteral("can-i"), QStringLiteral("create"),
                     QStringLiteral("jobs"), QStringLiteral("--context"), QStringLiteral("pb-token")});
        QVERIFY2(noCode == 1 && no.trimmed() == QLatin1String("no"), qPrintable(no));
        const auto [listCode, rules] =
            kubectl({QStringLiteral("auth"), QStringLiteral("can-i"), QStringLiteral("--list"),
                     QStringLiteral("--context"), QStringLiteral("pb-token")});
        QVERIFY2(listCode == 0 && rules.contains(QLatin1String("pods")) &&
                     !rules.contains(QLatin1String("*.*")),
                 qPrintable(rules));

        // Eviction at grace 0: a MODIFIED event with DisruptionTarget, then DELETED.
        auto c = server.client();
        QVERIFY(expectOk(
            {QStringLiteral("apply"), QStringLiteral("-f"), QStringLiteral("-")}, QStringLiteral("created"),
            QByteArray(applied).replace("applied", "evictee").replace("[evictee]", "[sleeper]")));
        QString pod;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QUrlQuery q;
                q.addQueryItem(QStringLiteral("labelSelector"), QStringLiteral("job-name=evictee"));
                const ApiResponse r = c->get(QStringLiteral("/api/v1/namespaces/demo/pods"), q);
                const QJsonArray items = r.object.value(QStringLiteral("items")).toArray();
                if (items.isEmpty())
                    return false;
                const QJsonObject p = items.first().toObject();
                pod = p.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("name")).toString();
                return p.value(QStringLiteral("status"))
                           .toObject()
                           .value(QStringLiteral("phase"))
                           .toString() == QLatin1String("Running");
            }(),
            10000);
        const ApiResponse listed = c->get(QStringLiteral("/api/v1/namespaces/demo/pods"));
        QStringList sequence;
        std::thread evictor([&] {
            QThread::msleep(300);
            c->request("POST", QStringLiteral("/api/v1/namespaces/demo/pods/%1/eviction").arg(pod), {},
                       QJsonDocument(
                           QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("policy/v1")},
                                       {QStringLiteral("kind"), QStringLiteral("Eviction")},
                                       {QStringLiteral("metadata"),
                                        QJsonObject{{QStringLiteral("name"), pod},
                                                    {QStringLiteral("namespace"), QStringLiteral("demo")}}}})
                           .toJson(QJsonDocument::Compact));
        });
        WatchOptions wo;
        wo.fieldSelector = QStringLiteral("metadata.name=") + pod;
        wo.resourceVersion = listed.object.value(QStringLiteral("metadata"))
                                 .toObject()
                                 .value(QStringLiteral("resourceVersion"))
                                 .toString();
        wo.timeoutSeconds = 10;
        c->watch(QStringLiteral("/api/v1/namespaces/demo/pods"), wo, [&](const WatchEvent& e) {
            if (e.isBookmark())
                return true;
            bool disruption = false;
            for (const QJsonValue& v : e.object.value(QStringLiteral("status"))
                                           .toObject()
                                           .value(QStringLiteral("conditions"))
                                           .toArray())
                disruption = disruption || v.toObject().value(QStringLiteral("type")).toString() ==
                                               QLatin1String("DisruptionTarget");
            sequence << e.type + (disruption ? QStringLiteral("+DisruptionTarget") : QString());
            return !e.isDeleted();
        });
        evictor.join();
        QVERIFY2(sequence.size() >= 2 && sequence.last().startsWith(QLatin1String("DELETED")) &&
                     sequence.contains(QStringLiteral("MODIFIED+DisruptionTarget")) &&
                     sequence.indexOf(QStringLiteral("MODIFIED+DisruptionTarget")) < sequence.size() - 1,
                 qPrintable(sequence.join(QLatin1Char(' '))));

        QVERIFY(expectOk({QStringLiteral("delete"), QStringLiteral("namespace"), QStringLiteral("demo")},
                         QStringLiteral("deleted")));

        // Every request kubectl and Proofbench's client made is one the audit log can name.
        int named = 0;
        for (const QJsonObject& e : readLog(log)) {
            const bool resource = !e.value(QStringLiteral("resource")).toString().isEmpty() &&
                                  !e.value(QStringLiteral("verb")).toString().isEmpty();
            const QString url = e.value(QStringLiteral("nonResourceURL")).toString();
            const bool nonResource = url == QLatin1String("/version") ||
                                     url.startsWith(QLatin1String("/api")) ||
                                     url.startsWith(QLatin1String("/openapi/v3"));
            QVERIFY2(resource || nonResource,
                     qPrintable(QString::fromUtf8(QJsonDocument(e).toJson(QJsonDocument::Compact))));
            named += resource ? 1 : 0;
        }
        QVERIFY(named > 10);
    }

    void noProxyAsGoReadsIt_data() {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("httpsProxy");
        QTest::addColumn<QString>("noProxy");
        QTest::addColumn<bool>("proxied");
        const QString proxy = QStringLiteral("http://proxy.corp.example:3128");
        QTest::addRow("no proxy set") << "https://10.1.2.3:6443" << QString() << QString() << false;
        QTest::addRow("proxied") << "https://10.1.2.3:6443" << proxy << QString() << true;
        QTest::addRow("loopback v4 bypasses") << "https://127.0.0.1:6443" << proxy << QString() << false;
        QTest::addRow("loopback 127/8 bypasses") << "https://127.4.5.6:6443" << proxy << QString() << false;
        QTest::addRow("loopback v6 bypasses") << "https://[::1]:6443" << proxy << QString() << false;
        QTest::addRow("localhost bypasses") << "https://localhost:6443" << proxy << QString() << false;
        QTest::addRow("star") << "https://10.1.2.3:6443" << proxy << "*" << false;
        QTest::addRow("cidr match") << "https://10.1.2.3:6443" << proxy << "192.168.0.0/16, 10.0.0.0/8"
                                    << false;
        QTest::addRow("cidr miss") << "https://10.1.2.3:6443" << proxy << "10.2.0.0/16" << true;
        QTest::addRow("ip") << "https://10.1.2.3:6443" << proxy << "10.1.2.3" << false;
        QTest::addRow("ip port match") << "https://10.1.2.3:6443" << proxy << "10.1.2.3:6443" << false;
        QTest::addRow("ip port miss") << "https://10.1.2.3:6443" << proxy << "10.1.2.3:443" << true;
        QTest::addRow("domain itself") << "https://k8s.corp.example:6443" << proxy << "corp.example" << false;
        QTest::addRow("domain suffix") << "https://api.k8s.corp.example" << proxy << "corp.example" << false;
        QTest::addRow("not a suffix on a label boundary")
            << "https://notcorp.example" << proxy << "corp.example" << true;
        QTest::addRow("leading dot: subdomains only")
            << "https://corp.example" << proxy << ".corp.example" << true;
        QTest::addRow("leading dot subdomain")
            << "https://a.corp.example" << proxy << ".corp.example" << false;
        QTest::addRow("star dot") << "https://a.corp.example" << proxy << "*.corp.example" << false;
        QTest::addRow("domain port match")
            << "https://a.corp.example:6443" << proxy << "corp.example:6443" << false;
        QTest::addRow("domain port miss")
            << "https://a.corp.example:6443" << proxy << "corp.example:443" << true;
        QTest::addRow("default port 443") << "https://a.corp.example" << proxy << "corp.example:443" << false;
        QTest::addRow("case and spaces") << "https://A.Corp.Example" << proxy << " CORP.example , x" << false;
    }

    void noProxyAsGoReadsIt() {
        QFETCH(QString, server);
        QFETCH(QString, httpsProxy);
        QFETCH(QString, noProxy);
        QFETCH(bool, proxied);
        QProcessEnvironment env;
        if (!httpsProxy.isEmpty())
            env.insert(QStringLiteral("HTTPS_PROXY"), httpsProxy);
        if (!noProxy.isEmpty())
            env.insert(QStringLiteral("NO_PROXY"), noProxy);
        QCOMPARE(proxyFromEnvironment(QUrl(server), env), proxied ? httpsProxy : QString());
        // lower-case names work too; upper case wins; a bare host:port proxy is http://
        QProcessEnvironment lower;
        if (!httpsProxy.isEmpty())
            lower.insert(QStringLiteral("https_proxy"), QStringLiteral("proxy.corp.example:3128"));
        lower.insert(QStringLiteral("no_proxy"), noProxy);
        QCOMPARE(proxyFromEnvironment(QUrl(server), lower),
                 proxied ? QStringLiteral("http://proxy.corp.example:3128") : QString());
    }

    void proxyThroughConnect() {
        // The server's certificate also names kubernetes.default.svc, which does not resolve here:
        // only a proxy can reach it, so reaching it proves the proxy was used, and a direct attempt fails.
        TestServer server;
        QVERIFY(server.start());
        ConnectProxy proxy;
        QVERIFY(proxy.start());
        const int port = QUrl(server.context(QStringLiteral("pb-cert"))->cluster.server).port();
        const QString named = QStringLiteral("https://kubernetes.default.svc:%1").arg(port);
        const QString kcNamed = server.path(QStringLiteral("named.kubeconfig"));
        const QString kcLoop = server.path(QStringLiteral("loop.kubeconfig"));
        const QByteArray users = "users:\n- name: u\n  user:\n    token: pb-test-token\ncontexts:\n- name: "
                                 "c\n  context: {cluster: pb, user: u}\n";
        QVERIFY(writeFile(kcNamed, "apiVersion: v1\nkind: Config\ncurrent-context: c\n" +
                                       clusterYaml(named, server.path(QStringLiteral("state/ca.crt"))) +
                                       users));
        QVERIFY(writeFile(kcLoop, "apiVersion: v1\nkind: Config\ncurrent-context: c\n" +
                                      clusterYaml(QStringLiteral("https://127.0.0.1:%1").arg(port),
                                                  server.path(QStringLiteral("state/ca.crt"))) +
                                      users));
        const QString proxyUrl = QStringLiteral("http://127.0.0.1:%1").arg(proxy.port());
        // The same server with the proxy in the kubeconfig: kubectl uses it whatever NO_PROXY says.
        const QString kcProxyUrl = server.path(QStringLiteral("proxyurl.kubeconfig"));
        QVERIFY(writeFile(kcProxyUrl, "apiVersion: v1\nkind: Config\ncurrent-context: c\n" +
                                          clusterYaml(named, server.path(QStringLiteral("state/ca.crt")),
                                                      "    proxy-url: " + proxyUrl.toUtf8() + "\n") +
                                          users));
        struct Case {
            QString kubeconfig, noProxy;
            bool proxied;
        };
        const QList<Case> cases{{kcNamed, QString(), true},
                                {kcNamed, QStringLiteral("10.0.0.0/8,example.com"), true},
                                {kcNamed, QStringLiteral("default.svc:%1").arg(port + 1), true},
                                {kcNamed, QStringLiteral(".svc"), false},
                                {kcNamed, QStringLiteral("kubernetes.default.svc:%1").arg(port), false},
                                {kcLoop, QString(), false},
                                // Go: a leading dot matches subdomains only, never the bare host
                                // (libcurl's own NO_PROXY reading bypasses it too).
                                {kcNamed, QStringLiteral(".kubernetes.default.svc"), true},
                                {kcNamed, QStringLiteral(".default.svc"), false},
                                // proxy-url in the kubeconfig wins over NO_PROXY.
                                {kcProxyUrl, QStringLiteral("kubernetes.default.svc"), true},
                                {kcProxyUrl, QStringLiteral("*"), true}};
        const QByteArray oldProxy = qgetenv("HTTPS_PROXY"), oldNo = qgetenv("NO_PROXY");
        for (const Case& tc : cases) {
            const QString what =
                QStringLiteral("%1 NO_PROXY=%2").arg(QFileInfo(tc.kubeconfig).fileName(), tc.noProxy);
            qputenv("HTTPS_PROXY", proxyUrl.toUtf8());
            qputenv("NO_PROXY", tc.noProxy.toUtf8());
            proxy.clear();
            pb::Result<Kubeconfig> k = Kubeconfig::load({tc.kubeconfig});
            QVERIFY(k.ok());
            ClientOptions o;
            o.connectTimeoutMs = 3000;
            auto c = std::move(*Client::create(*resolveContext(*k), o));
            const ApiResponse r = c->get(QStringLiteral("/version"));
            const bool wentThrough = !proxy.targets().isEmpty();
            QVERIFY2(wentThrough == tc.proxied, qPrintable(what + QStringLiteral(": proxy saw ") +
                                                           proxy.targets().join(QLatin1Char(' '))));
            // Reached when proxied (the proxy resolves the name) or when the URL is loopback.
            QVERIFY2(r.ok() == (tc.proxied || tc.kubeconfig == kcLoop),
                     qPrintable(what + QStringLiteral(": ") + r.message));

            if (kubectlPath().isEmpty())
                continue;
            proxy.clear();
            QProcessEnvironment env;
            env.insert(QStringLiteral("HTTPS_PROXY"), proxyUrl);
            env.insert(QStringLiteral("NO_PROXY"), tc.noProxy);
            const KubectlResult kr =
                runKubectl(tc.kubeconfig,
                           {QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/version"),
                            QStringLiteral("--request-timeout=5s")},
                           env);
            QVERIFY2((!proxy.targets().isEmpty()) == tc.proxied,
                     qPrintable(QStringLiteral("kubectl: ") + what));
            QVERIFY2((kr.exitCode == 0) == r.ok(),
                     qPrintable(QStringLiteral("kubectl: ") + what + QStringLiteral(": ") +
                                QString::fromUtf8(kr.err)));
        }
        qputenv("HTTPS_PROXY", oldProxy);
        qputenv("NO_PROXY", oldNo);
        if (oldProxy.isEmpty())
            qunsetenv("HTTPS_PROXY");
        if (oldNo.isEmpty())
            qunsetenv("NO_PROXY");
        if (kubectlPath().isEmpty())
            QSKIP("kubectl is not installed; Proofbench's side was checked against kubectl's documented "
                  "behaviour");
    }
};

QTEST_GUILESS_MAIN(TestKubeParity)
#include "tst_kubeparity.moc"
