// pb-kube-testserver against real clients: curl (the Debian CLI, over real TLS with the server's CA,
// client certificate and bearer tokens) and, where installed, kubectl. Nothing here uses engine/kube:
// that client is tested against this server elsewhere.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

struct Reply {
    int code = 0;
    QByteArray body;
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    QList<QJsonObject> events() const {
        QList<QJsonObject> out;
        for (const QByteArray& line : body.split('\n'))
            if (!line.trimmed().isEmpty())
                out << QJsonDocument::fromJson(line).object();
        return out;
    }
};

enum class Auth { Cert, Token, None };

class Server {
  public:
    // Starts the server; `script` (JSON text) is written to a file when given.
    bool start(const QByteArray& script = {}, const QStringList& extra = {}) {
        if (!dir.isValid())
            return false;
        kubeconfig = dir.filePath(QStringLiteral("kubeconfig"));
        state = dir.filePath(QStringLiteral("state"));
        QStringList args{QStringLiteral("--write-kubeconfig"), kubeconfig, QStringLiteral("--state-dir"),
                         state};
        if (!script.isEmpty()) {
            QFile f(dir.filePath(QStringLiteral("script.json")));
            if (!f.open(QIODevice::WriteOnly) || f.write(script) != script.size())
                return false;
            f.close();
            args << QStringLiteral("--script") << f.fileName();
        }
        args << extra;
        process.setProgram(QStringLiteral(PB_KUBE_TESTSERVER));
        process.setArguments(args);
        process.start();
        if (!process.waitForStarted(10000))
            return false;
        while (!process.canReadLine())
            if (!process.waitForReadyRead(20000))
                return false;
        const QByteArray line = process.readLine().trimmed();
        const QByteArray prefix = "pb-kube-testserver listening on https://127.0.0.1:";
        if (!line.startsWith(prefix))
            return false;
        port = line.mid(prefix.size()).toInt();
        base = QStringLiteral("https://127.0.0.1:%1").arg(port);
        return port > 0;
    }

    ~Server() {
        if (process.state() != QProcess::NotRunning) {
            process.closeWriteChannel(); // stdin EOF stops it
            if (!process.waitForFinished(5000))
                process.kill();
            process.waitForFinished(2000);
        }
    }

    QStringList curlArgs(Auth auth, const QString& token = QStringLiteral("pb-test-token")) const {
        QStringList a{QStringLiteral("-sS"), QStringLiteral("--cacert"), state + QStringLiteral("/ca.crt")};
        if (auth == Auth::Cert)
            a << QStringLiteral("--cert") << state + QStringLiteral("/client.crt") << QStringLiteral("--key")
              << state + QStringLiteral("/client.key");
        if (auth == Auth::Token)
            a << QStringLiteral("-H") << QStringLiteral("Authorization: Bearer ") + token;
        return a;
    }

    Reply call(const QByteArray& method, const QString& path, const QByteArray& body = {},
               Auth auth = Auth::Cert, const QString& token = QStringLiteral("pb-test-token"),
               const QByteArray& contentType = "application/json") const {
        QStringList args = curlArgs(auth, token);
        args << QStringLiteral("-X") << QString::fromLatin1(method) << QStringLiteral("-w")
             << QStringLiteral("\n%{http_code}");
        if (!body.isEmpty())
            args << QStringLiteral("-H")
                 << QStringLiteral("Content-Type: ") + QString::fromLatin1(contentType)
                 << QStringLiteral("--data-binary") << QStringLiteral("@-");
        args << base + path;
        QProcess curl;
        curl.start(QStringLiteral("curl"), args);
        curl.waitForStarted();
        curl.write(body);
        curl.closeWriteChannel();
        curl.waitForFinished(60000);
        QByteArray out = curl.readAllStandardOutput();
        Reply r;
        const qsizetype nl = out.lastIndexOf('\n');
        r.code = out.mid(nl + 1).toInt();
        r.body = out.left(std::max<qsizetype>(0, nl));
        return r;
    }

    Reply get(const QString& path) const { return call("GET", path); }
    Reply post(const QString& path, const QJsonObject& o) const {
        return call("POST", path, QJsonDocument(o).toJson(QJsonDocument::Compact));
    }

    QTemporaryDir dir;
    QProcess process;
    QString kubeconfig, state, base;
    int port = 0;
};

QJsonObject configMap(const QString& name, const QJsonObject& labels = {}) {
    return {{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("labels"), labels}}},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}}}};
}

QJsonObject job(const QString& name, const QString& check, int deadline = -1) {
    QJsonObject spec{
        {QStringLiteral("backoffLimit"), 0},
        {QStringLiteral("template"),
         QJsonObject{
             {QStringLiteral("metadata"),
              QJsonObject{
                  {QStringLiteral("labels"), QJsonObject{{QStringLiteral("app"), QStringLiteral("pb")}}}}},
             {QStringLiteral("spec"),
              QJsonObject{{QStringLiteral("restartPolicy"), QStringLiteral("Never")},
                          {QStringLiteral("containers"),
                           QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("validator")},
                                                  {QStringLiteral("image"),
                                                   QStringLiteral("ghcr.io/nvidia/aicr-validator:test")},
                                                  {QStringLiteral("args"), QJsonArray{check}}}}}}}}}};
    if (deadline >= 0)
        spec.insert(QStringLiteral("activeDeadlineSeconds"), deadline);
    return {{QStringLiteral("apiVersion"), QStringLiteral("batch/v1")},
            {QStringLiteral("kind"), QStringLiteral("Job")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
            {QStringLiteral("spec"), spec}};
}

QStringList names(const Reply& list) {
    QStringList out;
    for (const QJsonValue& v : list.json().value(QLatin1String("items")).toArray())
        out << v.toObject()
                   .value(QLatin1String("metadata"))
                   .toObject()
                   .value(QLatin1String("name"))
                   .toString();
    return out;
}

QString rvOf(const QJsonObject& o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
}

QJsonObject jobStatus(const Server& s, const QString& ns, const QString& name) {
    return s.get(QStringLiteral("/apis/batch/v1/namespaces/%1/jobs/%2").arg(ns, name))
        .json()
        .value(QLatin1String("status"))
        .toObject();
}

QString conditionReason(const QJsonObject& status, const QString& type) {
    for (const QJsonValue& c : status.value(QLatin1String("conditions")).toArray())
        if (c.toObject().value(QLatin1String("type")).toString() == type &&
            c.toObject().value(QLatin1String("status")).toString() == QLatin1String("True"))
            return c.toObject().value(QLatin1String("reason")).toString();
    return {};
}

QString podOf(const Server& s, const QString& ns, const QString& jobName) {
    const QString selector = QString::fromLatin1(
        QUrl::toPercentEncoding(QStringLiteral("batch.kubernetes.io/job-name=") + jobName));
    const QStringList pods = names(s.get(QStringLiteral("/api/v1/namespaces/") + ns +
                                         QStringLiteral("/pods?labelSelector=") + selector));
    return pods.value(0);
}

} // namespace

class TstKubeTestServer : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        if (QStandardPaths::findExecutable(QStringLiteral("curl")).isEmpty())
            QSKIP("curl is not installed; these tests talk to the server with the curl CLI");
    }

    void tlsClientCertificateAndKubeconfig() {
        Server s;
        QVERIFY(s.start());
        const Reply v = s.get(QStringLiteral("/version"));
        QCOMPARE(v.code, 200);
        QCOMPARE(v.json().value(QLatin1String("gitVersion")).toString(), QStringLiteral("v1.33.0"));
        for (const char* f : {"ca.crt", "client.crt", "client.key", "server.crt"})
            QVERIFY2(QFile::exists(s.state + QLatin1Char('/') + QLatin1String(f)), f);
        QFile kc(s.kubeconfig);
        QVERIFY(kc.open(QIODevice::ReadOnly));
        const QByteArray text = kc.readAll();
        QVERIFY(text.contains("current-context: pb-cert"));
        QVERIFY(text.contains("server: " + s.base.toUtf8()));
        QVERIFY(text.contains("certificate-authority-data: "));
        QVERIFY(text.contains("client-key-data: "));
        QVERIFY(text.contains("token: \"pb-test-token\""));
        // A client that does not trust the server's CA fails the handshake.
        QProcess curl;
        curl.start(QStringLiteral("curl"), {QStringLiteral("-sS"), s.base + QStringLiteral("/version")});
        QVERIFY(curl.waitForFinished(30000));
        QVERIFY(curl.exitCode() != 0);
        // Discovery and unknown paths.
        QCOMPARE(s.get(QStringLiteral("/apis/batch/v1")).json().value(QLatin1String("kind")).toString(),
                 QStringLiteral("APIResourceList"));
        const Reply unknown = s.get(QStringLiteral("/apis/example.com/v1/widgets"));
        QCOMPARE(unknown.code, 404);
        QCOMPARE(unknown.json().value(QLatin1String("reason")).toString(), QStringLiteral("NotFound"));
    }

    void bearerTokensAnd401() {
        Server s;
        QVERIFY(s.start(
            {},
            {QStringLiteral("--token"), QStringLiteral("alpha"), QStringLiteral("--token"),
             QStringLiteral("beta"), QStringLiteral("--tokens-file"),
             QStringLiteral("%1/tokens.txt").arg(QDir::tempPath() + QStringLiteral("/nonexistent-dir"))}));
        QCOMPARE(
            s.call("GET", QStringLiteral("/api/v1/nodes"), {}, Auth::Token, QStringLiteral("alpha")).code,
            200);
        QCOMPARE(s.call("GET", QStringLiteral("/api/v1/nodes"), {}, Auth::Token, QStringLiteral("beta")).code,
                 200);
        const Reply bad =
            s.call("GET", QStringLiteral("/api/v1/nodes"), {}, Auth::Token, QStringLiteral("pb-test-token"));
        QCOMPARE(bad.code, 401);
        QCOMPARE(bad.json().value(QLatin1String("kind")).toString(), QStringLiteral("Status"));
        QCOMPARE(bad.json().value(QLatin1String("reason")).toString(), QStringLiteral("Unauthorized"));
        QCOMPARE(s.call("GET", QStringLiteral("/api/v1/nodes"), {}, Auth::None).code, 401);
    }

    void tokensFileIsReread() {
        Server s;
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("tokens"));
        QVERIFY(s.start({}, {QStringLiteral("--tokens-file"), file}));
        QCOMPARE(s.call("GET", QStringLiteral("/version"), {}, Auth::Token, QStringLiteral("fresh")).code,
                 401);
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("old\nfresh\n");
        f.close();
        QCOMPARE(s.call("GET", QStringLiteral("/version"), {}, Auth::Token, QStringLiteral("fresh")).code,
                 200);
    }

    void tokenMaxUses() {
        Server s;
        QVERIFY(s.start(R"({"faults":{"tokenMaxUses":2}})"));
        QCOMPARE(s.call("GET", QStringLiteral("/version"), {}, Auth::Token).code, 200);
        QCOMPARE(s.call("GET", QStringLiteral("/version"), {}, Auth::Token).code, 200);
        const Reply third = s.call("GET", QStringLiteral("/version"), {}, Auth::Token);
        QCOMPARE(third.code, 401);
        QCOMPARE(third.json().value(QLatin1String("reason")).toString(), QStringLiteral("Unauthorized"));
        QCOMPARE(s.call("GET", QStringLiteral("/version"), {}, Auth::Token).code, 401);
        QCOMPARE(s.get(QStringLiteral("/version")).code, 200); // client certificates are unaffected
    }

    void createGetListConflictNotFound() {
        Server s;
        QVERIFY(s.start(R"({"faults":{"conflictOnCreate":["flaky-"]}})"));
        const Reply ns = s.post(
            QStringLiteral("/api/v1/namespaces"),
            {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("pb-run")}}}});
        QCOMPARE(ns.code, 201);
        QCOMPARE(ns.json().value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString(),
                 QStringLiteral("Active"));
        const Reply cm =
            s.post(QStringLiteral("/api/v1/namespaces/pb-run/configmaps"), configMap(QStringLiteral("snap")));
        QCOMPARE(cm.code, 201);
        const QJsonObject meta = cm.json().value(QLatin1String("metadata")).toObject();
        QCOMPARE(meta.value(QLatin1String("namespace")).toString(), QStringLiteral("pb-run"));
        QVERIFY(!meta.value(QLatin1String("uid")).toString().isEmpty());
        QVERIFY(meta.value(QLatin1String("creationTimestamp")).toString().endsWith(QLatin1Char('Z')));
        QVERIFY(rvOf(cm.json()).toLongLong() > rvOf(ns.json()).toLongLong());

        const Reply got = s.get(QStringLiteral("/api/v1/namespaces/pb-run/configmaps/snap"));
        QCOMPARE(got.code, 200);
        QCOMPARE(got.json().value(QLatin1String("data")).toObject().value(QLatin1String("k")).toString(),
                 QStringLiteral("v"));
        const Reply list = s.get(QStringLiteral("/api/v1/namespaces/pb-run/configmaps"));
        QCOMPARE(list.json().value(QLatin1String("kind")).toString(), QStringLiteral("ConfigMapList"));
        QCOMPARE(names(list), QStringList{QStringLiteral("snap")});
        QVERIFY(!rvOf(list.json()).isEmpty());

        const Reply dup =
            s.post(QStringLiteral("/api/v1/namespaces/pb-run/configmaps"), configMap(QStringLiteral("snap")));
        QCOMPARE(dup.code, 409);
        QCOMPARE(dup.json().value(QLatin1String("reason")).toString(), QStringLiteral("AlreadyExists"));
        QCOMPARE(dup.json().value(QLatin1String("message")).toString(),
                 QStringLiteral("configmaps \"snap\" already exists"));

        const Reply dupJob = s.post(QStringLiteral("/apis/batch/v1/namespaces/pb-run/jobs"),
                                    job(QStringLiteral("j"), QStringLiteral("x")));
        QCOMPARE(dupJob.code, 201);
        const Reply dupJob2 = s.post(QStringLiteral("/apis/batch/v1/namespaces/pb-run/jobs"),
                                     job(QStringLiteral("j"), QStringLiteral("x")));
        QCOMPARE(dupJob2.json().value(QLatin1String("message")).toString(),
                 QStringLiteral("jobs.batch \"j\" already exists"));
        QCOMPARE(dupJob2.json()
                     .value(QLatin1String("details"))
                     .toObject()
                     .value(QLatin1String("group"))
                     .toString(),
                 QStringLiteral("batch"));

        const Reply missingNs =
            s.post(QStringLiteral("/api/v1/namespaces/nope/configmaps"), configMap(QStringLiteral("x")));
        QCOMPARE(missingNs.code, 404);
        QCOMPARE(missingNs.json().value(QLatin1String("message")).toString(),
                 QStringLiteral("namespaces \"nope\" not found"));
        const Reply missing = s.get(QStringLiteral("/api/v1/namespaces/pb-run/configmaps/absent"));
        QCOMPARE(missing.code, 404);
        QCOMPARE(missing.json().value(QLatin1String("message")).toString(),
                 QStringLiteral("configmaps \"absent\" not found"));

        const Reply noName =
            s.post(QStringLiteral("/api/v1/namespaces/pb-run/configmaps"), configMap(QString()));
        QCOMPARE(noName.code, 422);
        QCOMPARE(noName.json().value(QLatin1String("reason")).toString(), QStringLiteral("Invalid"));

        QJsonObject generated = configMap(QString());
        generated.insert(QStringLiteral("metadata"),
                         QJsonObject{{QStringLiteral("generateName"), QStringLiteral("aicr-snapshot-")}});
        const Reply gen = s.post(QStringLiteral("/api/v1/namespaces/pb-run/configmaps"), generated);
        QCOMPARE(gen.code, 201);
        const QString genName =
            gen.json().value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
        QVERIFY2(genName.startsWith(QLatin1String("aicr-snapshot-")) && genName.size() == 19,
                 qPrintable(genName));

        // The injected conflict fires once, then the same create succeeds.
        QCOMPARE(s.post(QStringLiteral("/api/v1/namespaces/pb-run/configmaps"),
                        configMap(QStringLiteral("flaky-1")))
                     .code,
                 409);
        QCOMPARE(s.post(QStringLiteral("/api/v1/namespaces/pb-run/configmaps"),
                        configMap(QStringLiteral("flaky-1")))
                     .code,
                 201);

        // RBAC and service accounts; YAML bodies are refused with 415.
        const Reply crb =
            s.post(QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings"),
                   {{QStringLiteral("metadata"),
                     QJsonObject{{QStringLiteral("name"), QStringLiteral("aicr-validator-1")}}},
                    {QStringLiteral("roleRef"),
                     QJsonObject{{QStringLiteral("apiGroup"), QStringLiteral("rbac.authorization.k8s.io")},
                                 {QStringLiteral("kind"), QStringLiteral("ClusterRole")},
                                 {QStringLiteral("name"), QStringLiteral("cluster-admin")}}}});
        QCOMPARE(crb.code, 201);
        QCOMPARE(s.post(QStringLiteral("/api/v1/namespaces/pb-run/serviceaccounts"),
                        {{QStringLiteral("metadata"),
                          QJsonObject{{QStringLiteral("name"), QStringLiteral("aicr-validator-1")}}}})
                     .code,
                 201);
        QCOMPARE(s.call("POST", QStringLiteral("/api/v1/namespaces/pb-run/configmaps"),
                        "metadata:\n  name: y\n", Auth::Cert, {}, "application/yaml")
                     .code,
                 415);
    }

    void selectors() {
        Server s;
        QVERIFY(s.start());
        const QString path = QStringLiteral("/api/v1/namespaces/default/configmaps");
        QCOMPARE(s.post(path, configMap(QStringLiteral("a"), {{QStringLiteral("app"), QStringLiteral("x")},
                                                              {QStringLiteral("tier"), QStringLiteral("1")}}))
                     .code,
                 201);
        QCOMPARE(
            s.post(path, configMap(QStringLiteral("b"), {{QStringLiteral("app"), QStringLiteral("y")}})).code,
            201);
        QCOMPARE(s.post(path, configMap(QStringLiteral("c"))).code, 201);
        auto sel = [&](const QString& q) {
            return names(s.get(path + QStringLiteral("?labelSelector=") +
                               QString::fromLatin1(QUrl::toPercentEncoding(q))));
        };
        QCOMPARE(sel(QStringLiteral("app=x")), QStringList{QStringLiteral("a")});
        QCOMPARE(sel(QStringLiteral("app==y")), QStringList{QStringLiteral("b")});
        QCOMPARE(sel(QStringLiteral("app!=x")), (QStringList{QStringLiteral("b"), QStringLiteral("c")}));
        QCOMPARE(sel(QStringLiteral("app")), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QCOMPARE(sel(QStringLiteral("!app")), QStringList{QStringLiteral("c")});
        QCOMPARE(sel(QStringLiteral("app,tier=1")), QStringList{QStringLiteral("a")});
        QCOMPARE(sel(QStringLiteral("app in (x,y),tier!=1")), QStringList{QStringLiteral("b")});
        QCOMPARE(names(s.get(path + QStringLiteral("?fieldSelector=metadata.name%3Dc"))),
                 QStringList{QStringLiteral("c")});
        const Reply bad = s.get(path + QStringLiteral("?fieldSelector=spec.bogus%3D1"));
        QCOMPARE(bad.code, 400);
        QCOMPARE(bad.json().value(QLatin1String("reason")).toString(), QStringLiteral("BadRequest"));
        // Form encoding as client-go writes it: '+' is a space, %2B a literal plus.
        QCOMPARE(
            names(s.get(path + QStringLiteral("?labelSelector=app+in+%28x%2C+y%29%2Ctier+notin+%281%29"))),
            QStringList{QStringLiteral("b")});
        QCOMPARE(s.get(path + QStringLiteral("?labelSelector=app%3Dx%2By")).code,
                 400); // "x+y" is not a label value
        // Discovery with a trailing slash, as some clients send it.
        QCOMPARE(s.get(QStringLiteral("/version/")).json().value(QLatin1String("gitVersion")).toString(),
                 QStringLiteral("v1.33.0"));
        QCOMPARE(s.get(QStringLiteral("/api/v1/")).json().value(QLatin1String("kind")).toString(),
                 QStringLiteral("APIResourceList"));
        // Nodes: the default cluster has two GPU nodes and one CPU node.
        QCOMPARE(names(s.get(QStringLiteral("/api/v1/nodes?labelSelector=nvidia.com%2Fgpu.present%3Dtrue"))),
                 (QStringList{QStringLiteral("gpu-node-1"), QStringLiteral("gpu-node-2")}));
    }

    void jobRunsToSucceededWithLog() {
        QFile expected(QStringLiteral(PB_KUBE_FIXTURES "/nccl-all-reduce-short.txt"));
        QVERIFY(expected.open(QIODevice::ReadOnly));
        const QByteArray log = expected.readAll();
        Server s;
        QVERIFY(s.start(R"({"checks":{"nccl-all-reduce-bw":{"exitCode":0,"logFile":")" PB_KUBE_FIXTURES
                        R"(/nccl-all-reduce-short.txt","runMs":400,"pendingMs":50},
                                      "never":{"neverFinish":true},
                                      "bad":{"exitCode":1,"log":"RESULT: nope\n","terminationMessage":"bandwidth below threshold","runMs":50},
                                      "stuck":{"pendingMs":600000}}})"));
        QCOMPARE(s.post(QStringLiteral("/apis/batch/v1/namespaces/default/jobs"),
                        job(QStringLiteral("nccl"), QStringLiteral("nccl-all-reduce-bw")))
                     .code,
                 201);
        const QString pod = podOf(s, QStringLiteral("default"), QStringLiteral("nccl"));
        QVERIFY(pod.startsWith(QLatin1String("nccl-")));
        QCOMPARE(pod.size(), 10);
        // A log follow started now sees every line arrive and ends when the container terminates.
        QProcess follow;
        QStringList args = s.curlArgs(Auth::Cert);
        args << QStringLiteral("-N")
             << s.base +
                    QStringLiteral("/api/v1/namespaces/default/pods/%1/log?container=validator&follow=true")
                        .arg(pod);
        QTRY_VERIFY_WITH_TIMEOUT(s.get(QStringLiteral("/api/v1/namespaces/default/pods/%1").arg(pod))
                                         .json()
                                         .value(QLatin1String("status"))
                                         .toObject()
                                         .value(QLatin1String("phase"))
                                         .toString() != QLatin1String("Pending"),
                                 20000);
        follow.start(QStringLiteral("curl"), args);
        QVERIFY(follow.waitForFinished(30000));
        QCOMPARE(follow.exitCode(), 0);
        QCOMPARE(follow.readAllStandardOutput(), log);

        QTRY_COMPARE_WITH_TIMEOUT(jobStatus(s, QStringLiteral("default"), QStringLiteral("nccl"))
                                      .value(QLatin1String("succeeded"))
                                      .toInt(),
                                  1, 20000);
        const QJsonObject status = jobStatus(s, QStringLiteral("default"), QStringLiteral("nccl"));
        QCOMPARE(conditionReason(status, QStringLiteral("Complete")), QStringLiteral("CompletionsReached"));
        QVERIFY(!status.value(QLatin1String("startTime")).toString().isEmpty());
        QVERIFY(!status.value(QLatin1String("completionTime")).toString().isEmpty());
        const QJsonObject podObject =
            s.get(QStringLiteral("/api/v1/namespaces/default/pods/%1").arg(pod)).json();
        const QJsonObject podStatus = podObject.value(QLatin1String("status")).toObject();
        QCOMPARE(podStatus.value(QLatin1String("phase")).toString(), QStringLiteral("Succeeded"));
        const QJsonObject terminated = podStatus.value(QLatin1String("containerStatuses"))
                                           .toArray()
                                           .first()
                                           .toObject()
                                           .value(QLatin1String("state"))
                                           .toObject()
                                           .value(QLatin1String("terminated"))
                                           .toObject();
        QCOMPARE(terminated.value(QLatin1String("exitCode")).toInt(), 0);
        QCOMPARE(terminated.value(QLatin1String("reason")).toString(), QStringLiteral("Completed"));
        const QJsonObject labels =
            podObject.value(QLatin1String("metadata")).toObject().value(QLatin1String("labels")).toObject();
        QCOMPARE(labels.value(QLatin1String("job-name")).toString(), QStringLiteral("nccl"));
        QCOMPARE(labels.value(QLatin1String("app")).toString(), QStringLiteral("pb"));
        // After the fact, the whole log; with timestamps every line carries an RFC 3339 prefix.
        const Reply whole =
            s.get(QStringLiteral("/api/v1/namespaces/default/pods/%1/log?container=validator").arg(pod));
        QCOMPARE(whole.code, 200);
        QCOMPARE(whole.body, log);
        const Reply stamped =
            s.get(QStringLiteral("/api/v1/namespaces/default/pods/%1/log?timestamps=true").arg(pod));
        QVERIFY(stamped.body.startsWith(
            QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-")).toLatin1()));
        QVERIFY(stamped.body.contains("Z #       size"));

        // A failing check: Failed with its exit code and termination message.
        QCOMPARE(s.post(QStringLiteral("/apis/batch/v1/namespaces/default/jobs"),
                        job(QStringLiteral("bad"), QStringLiteral("bad")))
                     .code,
                 201);
        QTRY_COMPARE_WITH_TIMEOUT(
            conditionReason(jobStatus(s, QStringLiteral("default"), QStringLiteral("bad")),
                            QStringLiteral("Failed")),
            QStringLiteral("BackoffLimitExceeded"), 20000);
        const QJsonObject badTerm =
            s.get(QStringLiteral("/api/v1/namespaces/default/pods/%1")
                      .arg(podOf(s, QStringLiteral("default"), QStringLiteral("bad"))))
                .json()
                .value(QLatin1String("status"))
                .toObject()
                .value(QLatin1String("containerStatuses"))
                .toArray()
                .first()
                .toObject()
                .value(QLatin1String("state"))
                .toObject()
                .value(QLatin1String("terminated"))
                .toObject();
        QCOMPARE(badTerm.value(QLatin1String("exitCode")).toInt(), 1);
        QCOMPARE(badTerm.value(QLatin1String("reason")).toString(), QStringLiteral("Error"));
        QCOMPARE(badTerm.value(QLatin1String("message")).toString(),
                 QStringLiteral("bandwidth below threshold"));

        // Still pending: logs are refused with 400.
        QCOMPARE(s.post(QStringLiteral("/apis/batch/v1/namespaces/default/jobs"),
                        job(QStringLiteral("stuck"), QStringLiteral("stuck")))
                     .code,
                 201);
        const Reply waiting =
            s.get(QStringLiteral("/api/v1/namespaces/default/pods/%1/log?container=validator")
                      .arg(podOf(s, QStringLiteral("default"), QStringLiteral("stuck"))));
        QCOMPARE(waiting.code, 400);
        QVERIFY(waiting.json()
                    .value(QLatin1String("message"))
                    .toString()
                    .startsWith(QStringLiteral("container \"validator\" in pod \"stuck-")));
        QVERIFY(waiting.json()
                    .value(QLatin1String("message"))
                    .toString()
                    .contains(QLatin1String("is waiting to start")));

        // A Job that never finishes is failed by its activeDeadlineSeconds.
        QCOMPARE(s.post(QStringLiteral("/apis/batch/v1/namespaces/default/jobs"),
                        job(QStringLiteral("never"), QStringLiteral("never"), 1))
                     .code,
                 201);
        QTRY_COMPARE_WITH_TIMEOUT(
            conditionReason(jobStatus(s, QStringLiteral("default"), QStringLiteral("never")),
                            QStringLiteral("Failed")),
            QStringLiteral("DeadlineExceeded"), 20000);
        QCOMPARE(podOf(s, QStringLiteral("default"), QStringLiteral("never")), QString());
    }

    void watchAndResume() {
        Server s;
        QVERIFY(s.start());
        const QString path = QStringLiteral("/api/v1/namespaces/default/configmaps");
        const QString rv0 = rvOf(s.get(path).json());
        const Reply a =
            s.post(path, configMap(QStringLiteral("a"), {{QStringLiteral("w"), QStringLiteral("1")}}));
        QCOMPARE(s.post(path, configMap(QStringLiteral("b"))).code, 201);
        QCOMPARE(
            s.post(path, configMap(QStringLiteral("c"), {{QStringLiteral("w"), QStringLiteral("1")}})).code,
            201);

        // From the list's version: every change since, in order; the server ends it after timeoutSeconds.
        Reply w = s.get(path + QStringLiteral("?watch=1&timeoutSeconds=1&resourceVersion=") + rv0);
        QCOMPARE(w.code, 200);
        QList<QJsonObject> ev = w.events();
        QCOMPARE(ev.size(), 3);
        QCOMPARE(ev[0].value(QLatin1String("type")).toString(), QStringLiteral("ADDED"));
        QCOMPARE(ev[2]
                     .value(QLatin1String("object"))
                     .toObject()
                     .value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("name"))
                     .toString(),
                 QStringLiteral("c"));
        // Resumed from a's version with a selector: only c.
        w = s.get(path + QStringLiteral("?watch=true&timeoutSeconds=1&labelSelector=w%3D1&resourceVersion=") +
                  rvOf(a.json()));
        ev = w.events();
        QCOMPARE(ev.size(), 1);
        QCOMPARE(ev[0]
                     .value(QLatin1String("object"))
                     .toObject()
                     .value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("name"))
                     .toString(),
                 QStringLiteral("c"));

        // A live watch sees a change as it happens, and bookmarks while idle.
        QProcess live;
        QStringList args = s.curlArgs(Auth::Cert);
        const QString now = rvOf(s.get(path).json());
        args << QStringLiteral("-N")
             << s.base + path +
                    QStringLiteral("?watch=1&allowWatchBookmarks=true&timeoutSeconds=30&resourceVersion=") +
                    now;
        live.start(QStringLiteral("curl"), args);
        QVERIFY(live.waitForStarted());
        QByteArray seen;
        QTRY_VERIFY_WITH_TIMEOUT((seen += live.readAllStandardOutput()).contains("\"type\":\"BOOKMARK\""),
                                 20000);
        QCOMPARE(s.call("DELETE", path + QStringLiteral("/b")).code, 200);
        QTRY_VERIFY_WITH_TIMEOUT((seen += live.readAllStandardOutput()).contains("\"type\":\"DELETED\""),
                                 20000);
        live.kill();
        live.waitForFinished();

        // Too old: one ERROR event carrying a 410 Status, then the stream ends.
        const Reply old = s.get(path + QStringLiteral("?watch=1&resourceVersion=1"));
        ev = old.events();
        QCOMPARE(ev.size(), 1);
        QCOMPARE(ev[0].value(QLatin1String("type")).toString(), QStringLiteral("ERROR"));
        QCOMPARE(ev[0].value(QLatin1String("object")).toObject().value(QLatin1String("code")).toInt(), 410);
        QCOMPARE(ev[0].value(QLatin1String("object")).toObject().value(QLatin1String("reason")).toString(),
                 QStringLiteral("Expired"));
    }

    void historyLimitAndDroppedWatch() {
        Server s;
        QVERIFY(s.start(R"({"historyLimit":2,"faults":{"dropWatchAfterEvents":2}})"));
        const QString path = QStringLiteral("/api/v1/namespaces/default/configmaps");
        const QString first = rvOf(s.post(path, configMap(QStringLiteral("a"))).json());
        for (const char* n : {"b", "c", "d"})
            QCOMPARE(s.post(path, configMap(QLatin1String(n))).code, 201);
        QCOMPARE(s.get(path + QStringLiteral("?watch=1&resourceVersion=") + first)
                     .events()
                     .value(0)
                     .value(QLatin1String("object"))
                     .toObject()
                     .value(QLatin1String("code"))
                     .toInt(),
                 410);
        // The drop fault: two events, then the connection is cut without the final chunk.
        QProcess curl;
        QStringList args = s.curlArgs(Auth::Cert);
        args << s.base + path + QStringLiteral("?watch=1&timeoutSeconds=30");
        curl.start(QStringLiteral("curl"), args);
        QVERIFY(curl.waitForFinished(30000));
        QVERIFY2(curl.exitCode() != 0, "curl must see a truncated chunked stream");
        QCOMPARE(curl.readAllStandardOutput().count('\n'), 2);
    }

    void deletePropagation() {
        Server s;
        QVERIFY(s.start(R"({"defaultCheck":{"neverFinish":true,"pendingMs":0}})"));
        const QString jobs = QStringLiteral("/apis/batch/v1/namespaces/default/jobs");
        for (const char* n : {"bg", "fg", "orphan"})
            QCOMPARE(s.post(jobs, job(QLatin1String(n), QStringLiteral("any"))).code, 201);
        const QString orphanPod = podOf(s, QStringLiteral("default"), QStringLiteral("orphan"));
        QVERIFY(!orphanPod.isEmpty());

        const Reply bg = s.call("DELETE", jobs + QStringLiteral("/bg?propagationPolicy=Background"));
        QCOMPARE(bg.code, 200);
        QCOMPARE(bg.json().value(QLatin1String("status")).toString(), QStringLiteral("Success"));
        QCOMPARE(podOf(s, QStringLiteral("default"), QStringLiteral("bg")), QString());

        const Reply fg =
            s.call("DELETE", jobs + QStringLiteral("/fg"),
                   R"({"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Foreground"})");
        QCOMPARE(fg.code, 200);
        const QJsonObject fgMeta = fg.json().value(QLatin1String("metadata")).toObject();
        QVERIFY(!fgMeta.value(QLatin1String("deletionTimestamp")).toString().isEmpty());
        QCOMPARE(fgMeta.value(QLatin1String("finalizers")).toArray().first().toString(),
                 QStringLiteral("foregroundDeletion"));
        QCOMPARE(podOf(s, QStringLiteral("default"), QStringLiteral("fg")), QString());
        QCOMPARE(s.get(jobs + QStringLiteral("/fg")).code, 404);

        QCOMPARE(s.call("DELETE", jobs + QStringLiteral("/orphan?propagationPolicy=Orphan")).code, 200);
        const Reply kept = s.get(QStringLiteral("/api/v1/namespaces/default/pods/") + orphanPod);
        QCOMPARE(kept.code, 200);
        QVERIFY(!kept.json()
                     .value(QLatin1String("metadata"))
                     .toObject()
                     .contains(QLatin1String("ownerReferences")));

        const Reply gone = s.call("DELETE", jobs + QStringLiteral("/bg"));
        QCOMPARE(gone.code, 404);
        QCOMPARE(gone.json().value(QLatin1String("reason")).toString(), QStringLiteral("NotFound"));

        // Deleting a namespace deletes what is in it.
        QCOMPARE(s.post(QStringLiteral("/api/v1/namespaces"),
                        {{QStringLiteral("metadata"),
                          QJsonObject{{QStringLiteral("name"), QStringLiteral("run-1")}}}})
                     .code,
                 201);
        QCOMPARE(s.post(QStringLiteral("/apis/batch/v1/namespaces/run-1/jobs"),
                        job(QStringLiteral("j"), QStringLiteral("any")))
                     .code,
                 201);
        QCOMPARE(
            s.post(QStringLiteral("/api/v1/namespaces/run-1/configmaps"), configMap(QStringLiteral("cm")))
                .code,
            201);
        const Reply nsDel = s.call("DELETE", QStringLiteral("/api/v1/namespaces/run-1"));
        QCOMPARE(nsDel.code, 200);
        QCOMPARE(
            nsDel.json().value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString(),
            QStringLiteral("Terminating"));
        QCOMPARE(s.get(QStringLiteral("/api/v1/namespaces/run-1")).code, 404);
        QCOMPARE(names(s.get(QStringLiteral("/api/v1/pods?labelSelector=job-name%3Dj"))), QStringList());
        QCOMPARE(names(s.get(QStringLiteral("/api/v1/configmaps"))), QStringList());
    }

    void kubectlSpeaksToIt() {
        const QString kubectl = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
        if (kubectl.isEmpty())
            QSKIP("kubectl is not installed; the kubectl interoperability check is skipped");
        Server s;
        QVERIFY(s.start(R"({"defaultCheck":{"log":"hello\n","runMs":10,"pendingMs":0}})"));
        QCOMPARE(s.post(QStringLiteral("/apis/batch/v1/namespaces/default/jobs"),
                        job(QStringLiteral("pb-check"), QStringLiteral("any")))
                     .code,
                 201);
        QTRY_COMPARE_WITH_TIMEOUT(jobStatus(s, QStringLiteral("default"), QStringLiteral("pb-check"))
                                      .value(QLatin1String("succeeded"))
                                      .toInt(),
                                  1, 20000);
        QTemporaryDir cache;
        auto run = [&](const QStringList& args) {
            QProcess p;
            p.start(kubectl, QStringList{QStringLiteral("--kubeconfig"), s.kubeconfig,
                                         QStringLiteral("--cache-dir"), cache.path()} +
                                 args);
            p.waitForFinished(60000);
            return std::make_pair(p.exitCode(),
                                  QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError()));
        };
        auto [code, out] = run({QStringLiteral("get"), QStringLiteral("jobs,pods"), QStringLiteral("-A")});
        QVERIFY2(code == 0, qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("job.batch/pb-check")) && out.contains(QLatin1String("Complete")),
                 qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("pod/pb-check-")) && out.contains(QLatin1String("Completed")),
                 qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("NAMESPACE")), qPrintable(out));
        std::tie(code, out) = run({QStringLiteral("get"), QStringLiteral("nodes")});
        QVERIFY2(code == 0 && out.contains(QLatin1String("gpu-node-1")) &&
                     out.contains(QLatin1String("cpu-node-1")),
                 qPrintable(out));
        // A set-based selector (kubectl encodes its spaces as '+') and a chunked list (limit/continue).
        std::tie(code, out) = run({QStringLiteral("get"), QStringLiteral("nodes"), QStringLiteral("-l"),
                                   QStringLiteral("kubernetes.io/hostname in (gpu-node-2, cpu-node-1)"),
                                   QStringLiteral("-o"), QStringLiteral("name")});
        QVERIFY2(code == 0 && out == QLatin1String("node/cpu-node-1\nnode/gpu-node-2\n"), qPrintable(out));
        std::tie(code, out) =
            run({QStringLiteral("get"), QStringLiteral("nodes"), QStringLiteral("--chunk-size=1"),
                 QStringLiteral("-o"), QStringLiteral("name")});
        QVERIFY2(code == 0 && out == QLatin1String("node/cpu-node-1\nnode/gpu-node-1\nnode/gpu-node-2\n"),
                 qPrintable(out));
        std::tie(code, out) = run({QStringLiteral("version"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(code == 0 && out.contains(QLatin1String("\"gitVersion\": \"v1.33.0\"")), qPrintable(out));
        std::tie(code, out) = run({QStringLiteral("--context"), QStringLiteral("pb-token"),
                                   QStringLiteral("logs"), QStringLiteral("job/pb-check")});
        QVERIFY2(code == 0 && out == QLatin1String("hello\n"), qPrintable(out));
        std::tie(code, out) =
            run({QStringLiteral("delete"), QStringLiteral("job"), QStringLiteral("pb-check")});
        QVERIFY2(code == 0 && out.contains(QLatin1String("deleted")), qPrintable(out));
        std::tie(code, out) = run({QStringLiteral("get"), QStringLiteral("pods")});
        QVERIFY2(code == 0 && !out.contains(QLatin1String("pb-check")), qPrintable(out));
    }

    void stdinEofStopsTheServer() {
        Server s;
        QVERIFY(s.start());
        s.process.closeWriteChannel();
        QVERIFY(s.process.waitForFinished(20000));
        QCOMPARE(s.process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(s.process.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TstKubeTestServer)
#include "tst_kubetestserver.moc"
