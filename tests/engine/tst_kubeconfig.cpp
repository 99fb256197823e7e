// kubeconfig loading and merging (compared with kubectl itself) and credentials, including exec
// plugins run as real processes (bash scripts in tests/fixtures/kube/exec).
#include "kube/Credentials.h"
#include "kube/Kubeconfig.h"

#include "TestUtil.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace pb::kube;

namespace {

QString mergeDir() {
    return pbtest::fixture(QStringLiteral("kube/merge"));
}
QString execDir() {
    return pbtest::fixture(QStringLiteral("kube/exec"));
}

QStringList mergeFiles() {
    return {mergeDir() + QStringLiteral("/a/config"), mergeDir() + QStringLiteral("/not-there.yaml"),
            mergeDir() + QStringLiteral("/b/config.yaml"), mergeDir() + QStringLiteral("/c.yaml")};
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Drops what kubectl adds on its own (null fields, empty preferences/extensions) so that the trees
// compare on content.
QJsonValue normalise(const QJsonValue& v) {
    if (v.isObject()) {
        QJsonObject out;
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QJsonValue n = normalise(it.value());
            if (n.isNull() ||
                (n.isObject() && n.toObject().isEmpty() &&
                 (it.key() == QLatin1String("preferences") || it.key() == QLatin1String("extensions"))))
                continue;
            if (it.key() == QLatin1String("extensions") && n.isArray() && n.toArray().isEmpty())
                continue;
            out.insert(it.key(), n);
        }
        return out;
    }
    if (v.isArray()) {
        QJsonArray out;
        for (const QJsonValue& i : v.toArray())
            out.append(normalise(i));
        return out;
    }
    return v;
}

// A kubeconfig with one user around `userYaml`, written into `dir`.
QString writeConfig(const QTemporaryDir& dir, const QByteArray& userYaml,
                    const QByteArray& clusterExtra = {}) {
    const QString path = dir.filePath(QStringLiteral("kubeconfig"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write("apiVersion: v1\nkind: Config\ncurrent-context: ctx\nclusters:\n- name: c\n  cluster:\n"
            "    server: https://127.0.0.1:6443\n" +
            clusterExtra + "users:\n- name: u\n  user:\n" + userYaml +
            "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: u\n");
    return path;
}

pb::Result<ResolvedContext> resolvedFrom(const QString& path) {
    pb::Result<Kubeconfig> cfg = Kubeconfig::load({path});
    if (!cfg)
        return cfg.error();
    return resolveContext(*cfg);
}

QByteArray execUser(const QString& script, const QByteArray& apiVersion, const QByteArray& extra = {}) {
    return "    exec:\n      apiVersion: client.authentication.k8s.io/" + apiVersion +
           "\n      command: " + (execDir() + QLatin1Char('/') + script).toUtf8() +
           "\n      interactiveMode: Never\n" + extra;
}

} // namespace

class TestKubeconfig : public QObject {
    Q_OBJECT

  private slots:
    void mergeRules();
    void mergeOrderMatters();
    void kubectlParity_data();
    void kubectlParity();
    void redactedJson();
    void errors_data();
    void errors();
    void unusableUsers_data();
    void unusableUsers();
    void missingFiles();
    void defaultFiles();
    void resolveErrors();

    void staticCredentials();
    void tokenFileReRead();
    void execTokenCachedUntilExpiry();
    void execOutputCapped_data();
    void execOutputCapped();
    void tokenWinsOverExec();
    void insecureWithCaRefused();
    void execExpiryDrivesRerun();
    void execInvalidateReruns();
    void execArgsEnvAndClusterInfo();
    void execClientCertificateV1();
    void execV1alpha1Answer();
    void execFailureShowsStderr();
    void execMissingCommand();
    void findExecutableLooksInExtraPaths();
};

void TestKubeconfig::mergeRules() {
    pb::Result<Kubeconfig> r = Kubeconfig::load(mergeFiles());
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
    const Kubeconfig& k = *r;
    QCOMPARE(k.files.size(), 3); // the missing one skipped
    QCOMPARE(k.currentContext, QStringLiteral("dev"));
    QCOMPARE(k.contexts.size(), size_t(8));
    QCOMPARE(k.clusters.size(), size_t(5));
    QCOMPARE(k.users.size(), size_t(8));

    // First file wins for a name defined twice: the whole entry, not field by field.
    QCOMPARE(k.cluster(QStringLiteral("shared"))->server,
             QStringLiteral("https://shared-from-a.example:6443"));
    QVERIFY(k.cluster(QStringLiteral("shared"))->insecureSkipTlsVerify);
    const User* shared = k.user(QStringLiteral("shared-user"));
    QCOMPARE(shared->username, QStringLiteral("admin-a"));
    QVERIFY(shared->token.isEmpty());
    QCOMPARE(k.context(QStringLiteral("shared"))->user, QStringLiteral("shared-user"));

    // Relative paths are relative to the file that holds them.
    const Cluster* dev = k.cluster(QStringLiteral("dev"));
    QCOMPARE(dev->certificateAuthority, QDir::cleanPath(mergeDir() + QStringLiteral("/a/certs/ca.pem")));
    QCOMPARE(dev->tlsServerName, QStringLiteral("api.dev.internal"));
    QCOMPARE(dev->sourceFile, QDir::cleanPath(mergeDir() + QStringLiteral("/a/config")));
    const User* bob = k.user(QStringLiteral("bob"));
    QCOMPARE(bob->clientCertificate, QDir::cleanPath(mergeDir() + QStringLiteral("/b/pki/client.crt")));
    QCOMPARE(bob->clientKey, QDir::cleanPath(mergeDir() + QStringLiteral("/b/pki/client.key")));
    QCOMPARE(k.user(QStringLiteral("carol"))->tokenFile,
             QDir::cleanPath(mergeDir() + QStringLiteral("/b/pki/token")));
    const User* plugin = k.user(QStringLiteral("plugin-v1"));
    QVERIFY(plugin->exec);
    QCOMPARE(plugin->exec->command, QDir::cleanPath(mergeDir() + QStringLiteral("/bin/get-token")));
    QCOMPARE(plugin->exec->commandAsWritten, QStringLiteral("./bin/get-token"));
    QCOMPARE(plugin->exec->args, QStringList({QStringLiteral("--audience"), QStringLiteral("proofbench")}));
    QVERIFY(plugin->exec->provideClusterInfo);
    QCOMPARE(plugin->exec->interactiveMode, QStringLiteral("Never"));

    // *-data decoded.
    const QByteArray caPem = readFile(mergeDir() + QStringLiteral("/a/certs/ca.pem"));
    QCOMPARE(k.cluster(QStringLiteral("inline"))->certificateAuthorityData, caPem);
    QCOMPARE(k.user(QStringLiteral("inline-cert"))->clientKeyData,
             readFile(mergeDir() + QStringLiteral("/b/pki/client.key")));

    // An EKS-style ARN as context, cluster and user name.
    const QString arn = QStringLiteral("arn:aws:eks:us-west-2:123456789012:cluster/gpu-prod");
    pb::Result<ResolvedContext> eks = resolveContext(k, arn);
    QVERIFY2(eks.ok(), qPrintable(eks.ok() ? QString() : eks.error().toString()));
    QCOMPARE(eks->cluster.proxyUrl, QStringLiteral("http://proxy.corp.example:3128"));
    QCOMPARE(eks->cluster.certificateAuthorityData, caPem);
    QCOMPARE(eks->user.exec->command, QStringLiteral("aws"));
    QCOMPARE(eks->user.exec->env.value(0), qMakePair(QStringLiteral("AWS_PROFILE"), QStringLiteral("gpu")));
    QCOMPARE(eks->namespaceOrDefault(), QStringLiteral("default"));

    pb::Result<ResolvedContext> staging = resolveContext(k, QStringLiteral("staging"));
    QVERIFY(staging.ok());
    QVERIFY(staging->cluster.insecureSkipTlsVerify);
    QCOMPARE(staging->cluster.proxyUrl, QStringLiteral("socks5://127.0.0.1:1080"));
    QCOMPARE(staging->namespaceOrDefault(), QStringLiteral("team-b"));

    pb::Result<ResolvedContext> current = resolveContext(k);
    QVERIFY(current.ok());
    QCOMPARE(current->context.name, QStringLiteral("dev"));
    QCOMPARE(current->user.token, QStringLiteral("alice-static-token"));

    // The legacy auth-provider is noted, and refused when it is all the user has.
    QVERIFY(k.user(QStringLiteral("oidc-user"))->hasAuthProvider);
    QCOMPARE(k.user(QStringLiteral("oidc-user"))->authProviderName, QStringLiteral("oidc"));
    pb::Result<ResolvedContext> oidc = resolveContext(k, QStringLiteral("oidc"));
    QVERIFY(!oidc.ok());
    QVERIFY2(oidc.error().message.contains(QStringLiteral("auth-provider")),
             qPrintable(oidc.error().toString()));
    QVERIFY(oidc.error().line > 0);
}

void TestKubeconfig::mergeOrderMatters() {
    const QStringList files = {mergeDir() + QStringLiteral("/b/config.yaml"),
                               mergeDir() + QStringLiteral("/a/config")};
    pb::Result<Kubeconfig> r = Kubeconfig::load(files);
    QVERIFY(r.ok());
    QCOMPARE(r->currentContext, QStringLiteral("staging"));
    QCOMPARE(r->cluster(QStringLiteral("shared"))->server,
             QStringLiteral("https://shared-from-b.example:6443"));
    QCOMPARE(r->user(QStringLiteral("shared-user"))->token, QStringLiteral("loses-to-a"));
    QCOMPARE(r->context(QStringLiteral("shared"))->user, QStringLiteral("carol"));
}

void TestKubeconfig::kubectlParity_data() {
    QTest::addColumn<QStringList>("files");
    QTest::addRow("a:missing:b:c") << mergeFiles();
    QTest::addRow("c:b:a") << QStringList{mergeDir() + QStringLiteral("/c.yaml"),
                                          mergeDir() + QStringLiteral("/b/config.yaml"),
                                          mergeDir() + QStringLiteral("/a/config")};
    QTest::addRow("b alone") << QStringList{mergeDir() + QStringLiteral("/b/config.yaml")};
}

void TestKubeconfig::kubectlParity() {
    QFETCH(QStringList, files);
    const QString kubectl = QStringLiteral("/usr/bin/kubectl");
    if (!QFileInfo(kubectl).isExecutable())
        QSKIP("kubectl is not installed at /usr/bin/kubectl; parity with kubectl cannot be checked");
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("KUBECONFIG"), files.join(QLatin1Char(':')));
    env.insert(QStringLiteral("HOME"), QDir::tempPath()); // no kubectl cache or user config involved
    p.setProcessEnvironment(env);
    p.start(kubectl, {QStringLiteral("config"), QStringLiteral("view"), QStringLiteral("--merge"),
                      QStringLiteral("--flatten"), QStringLiteral("--raw"), QStringLiteral("-o"),
                      QStringLiteral("json")});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    const QJsonDocument theirs = QJsonDocument::fromJson(p.readAllStandardOutput());
    QVERIFY(theirs.isObject());

    pb::Result<Kubeconfig> r = Kubeconfig::load(files);
    QVERIFY(r.ok());
    const QJsonDocument ours = QJsonDocument::fromJson(r->toJson());
    QVERIFY(ours.isObject());
    const QJsonValue a = normalise(ours.object()), b = normalise(theirs.object());
    if (a != b) {
        qWarning().noquote() << "ours:" << QJsonDocument(a.toObject()).toJson();
        qWarning().noquote() << "kubectl:" << QJsonDocument(b.toObject()).toJson();
    }
    QVERIFY(a == b);
}

void TestKubeconfig::redactedJson() {
    pb::Result<Kubeconfig> r = Kubeconfig::load(mergeFiles());
    QVERIFY(r.ok());
    const QByteArray json = r->toJson(true);
    QVERIFY(!json.contains("alice-static-token"));
    QVERIFY(!json.contains("secret-a"));
    QVERIFY(!json.contains(readFile(mergeDir() + QStringLiteral("/b/pki/client.key")).toBase64().left(40)));
    QVERIFY(json.contains("DATA+OMITTED"));
    QVERIFY(json.contains("REDACTED"));
}

void TestKubeconfig::errors_data() {
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("reason");
    const QByteArray head = "apiVersion: v1\nkind: Config\n";
    QTest::addRow("not yaml") << QByteArray(head + "clusters: [\n  - {name: a\n") << 0 << QString()
                              << QString();
    QTest::addRow("clusters not a list") << QByteArray(head + "clusters:\n  name: x\n") << 4
                                         << QStringLiteral("clusters") << QStringLiteral("expected a list");
    QTest::addRow("bad base64") << QByteArray(head +
                                              "clusters:\n- name: x\n  cluster:\n    server: https://h\n"
                                              "    certificate-authority-data: '%%%not base64'\n")
                                << 7 << QStringLiteral("clusters[0].cluster.certificate-authority-data")
                                << QStringLiteral("base64");
    QTest::addRow("bool")
        << QByteArray(head + "clusters:\n- name: x\n  cluster:\n    insecure-skip-tls-verify: maybe\n") << 6
        << QStringLiteral("clusters[0].cluster.insecure-skip-tls-verify") << QStringLiteral("true or false");
    QTest::addRow("duplicate") << QByteArray(head + "users:\n- name: u\n  user: {}\n- name: u\n  user: {}\n")
                               << 6 << QStringLiteral("users[1].name") << QStringLiteral("duplicate");
    QTest::addRow("no name") << QByteArray(head + "contexts:\n- context: {cluster: c}\n") << 4
                             << QStringLiteral("contexts[0].name") << QStringLiteral("needs a name");
    QTest::addRow("proxy scheme")
        << QByteArray(head + "clusters:\n- name: x\n  cluster:\n    proxy-url: ftp://p:21\n") << 6
        << QStringLiteral("clusters[0].cluster.proxy-url") << QStringLiteral("socks5");
    QTest::addRow("args not a list")
        << QByteArray(head + "users:\n- name: u\n  user:\n    exec:\n      command: x\n      args: y\n") << 8
        << QStringLiteral("users[0].user.exec.args") << QStringLiteral("list");
    QTest::addRow("wrong kind") << QByteArray("apiVersion: v1\nkind: Pod\n") << 2 << QStringLiteral("kind")
                                << QStringLiteral("Config");
}

void TestKubeconfig::errors() {
    QFETCH(QByteArray, yaml);
    QFETCH(int, line);
    QFETCH(QString, field);
    QFETCH(QString, reason);
    pb::Result<Kubeconfig> r = Kubeconfig::parse(yaml, QStringLiteral("/tmp/broken.yaml"));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().file, QStringLiteral("/tmp/broken.yaml"));
    if (line > 0)
        QCOMPARE(r.error().line, line);
    else
        QVERIFY(r.error().line > 0);
    QCOMPARE(r.error().field, field);
    QVERIFY2(r.error().message.contains(reason), qPrintable(r.error().toString()));
}

void TestKubeconfig::unusableUsers_data() {
    QTest::addColumn<QByteArray>("exec");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("reason");
    QTest::addRow("v1alpha1")
        << QByteArray("      apiVersion: client.authentication.k8s.io/v1alpha1\n      command: aws\n")
        << QStringLiteral("users[0].user.exec.apiVersion") << QStringLiteral("v1alpha1 was removed");
    QTest::addRow("v1 without interactiveMode")
        << QByteArray("      apiVersion: client.authentication.k8s.io/v1\n      command: aws\n")
        << QStringLiteral("users[0].user.exec.interactiveMode")
        << QStringLiteral("interactiveMode is required");
    QTest::addRow("no command") << QByteArray("      apiVersion: client.authentication.k8s.io/v1beta1\n")
                                << QStringLiteral("users[0].user.exec.command")
                                << QStringLiteral("no command");
    QTest::addRow("unknown api") << QByteArray("      apiVersion: example.com/v9\n      command: aws\n")
                                 << QStringLiteral("users[0].user.exec.apiVersion")
                                 << QStringLiteral("unsupported");
}

// A user that cannot be used does not stop the file from loading (every context stays listed);
// resolving a context that needs it fails with the file, line and field.
void TestKubeconfig::unusableUsers() {
    QFETCH(QByteArray, exec);
    QFETCH(QString, field);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const QString path = writeConfig(dir, "    exec:\n" + exec);
    pb::Result<Kubeconfig> cfg = Kubeconfig::load({path});
    QVERIFY(cfg.ok());
    QCOMPARE(cfg->contexts.size(), size_t(1));
    pb::Result<ResolvedContext> r = resolveContext(*cfg);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().file, path);
    QCOMPARE(r.error().field, field);
    QVERIFY(r.error().line >= 11); // the exec block starts on line 11 of writeConfig()'s file
    QVERIFY2(r.error().message.contains(reason), qPrintable(r.error().toString()));
}

void TestKubeconfig::missingFiles() {
    pb::Result<Kubeconfig> r = Kubeconfig::load({QStringLiteral("/nonexistent/kubeconfig")});
    QVERIFY(!r.ok());
    QVERIFY(r.error().toString().contains(QStringLiteral("/nonexistent/kubeconfig")));
    QVERIFY(r.error().message.contains(QStringLiteral("not found")));
}

void TestKubeconfig::defaultFiles() {
    const QByteArray saved = qgetenv("KUBECONFIG");
    const QString a = mergeDir() + QStringLiteral("/a/config"),
                  b = mergeDir() + QStringLiteral("/b/config.yaml");
    qputenv("KUBECONFIG", (a + QStringLiteral("::/nonexistent/x:") + b + QLatin1Char(':') + a).toLocal8Bit());
    const QStringList files = Kubeconfig::defaultFiles();
    if (saved.isNull())
        qunsetenv("KUBECONFIG");
    else
        qputenv("KUBECONFIG", saved);
    QCOMPARE(files, QStringList({QFileInfo(a).absoluteFilePath(), QFileInfo(b).absoluteFilePath()}));
}

void TestKubeconfig::resolveErrors() {
    pb::Result<Kubeconfig> r = Kubeconfig::load(mergeFiles());
    QVERIFY(r.ok());
    pb::Result<ResolvedContext> none = resolveContext(*r, QStringLiteral("nope"));
    QVERIFY(!none.ok());
    QVERIFY(none.error().message.contains(QStringLiteral("'nope' not found")));

    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("k")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("contexts:\n- name: x\n  context: {cluster: gone, user: u}\ncurrent-context: x\n");
    f.close();
    pb::Result<Kubeconfig> k = Kubeconfig::load({f.fileName()});
    QVERIFY(k.ok());
    pb::Result<ResolvedContext> rc = resolveContext(*k);
    QVERIFY(!rc.ok());
    QVERIFY2(rc.error().message.contains(QStringLiteral("cluster 'gone'")),
             qPrintable(rc.error().toString()));
    QCOMPARE(rc.error().file, f.fileName());
}

void TestKubeconfig::staticCredentials() {
    pb::Result<Kubeconfig> k = Kubeconfig::load(mergeFiles());
    QVERIFY(k.ok());
    {
        CredentialProvider p(*resolveContext(*k, QStringLiteral("dev")));
        pb::Result<Credentials> c = p.get();
        QVERIFY(c.ok());
        QCOMPARE(c->bearerToken, QStringLiteral("alice-static-token"));
        QCOMPARE(c->source, QStringLiteral("token"));
    }
    {
        CredentialProvider p(*resolveContext(*k, QStringLiteral("shared")));
        pb::Result<Credentials> c = p.get();
        QVERIFY(c.ok());
        QCOMPARE(c->username, QStringLiteral("admin-a"));
        QCOMPARE(c->password, QStringLiteral("secret-a"));
        QCOMPARE(c->source, QStringLiteral("basic"));
    }
    {
        CredentialProvider p(*resolveContext(*k, QStringLiteral("staging")));
        pb::Result<Credentials> c = p.get();
        QVERIFY(c.ok());
        QCOMPARE(c->clientCertificatePem, readFile(mergeDir() + QStringLiteral("/b/pki/client.crt")));
        QCOMPARE(c->clientKeyPem, readFile(mergeDir() + QStringLiteral("/b/pki/client.key")));
        QCOMPARE(c->source, QStringLiteral("client certificate"));
    }
    {
        CredentialProvider p(*resolveContext(*k, QStringLiteral("inline")));
        pb::Result<Credentials> c = p.get();
        QVERIFY(c.ok());
        QVERIFY(c->clientCertificatePem.startsWith("-----BEGIN CERTIFICATE-----"));
        QCOMPARE(p.execRuns(), 0);
    }
}

void TestKubeconfig::tokenFileReRead() {
    QTemporaryDir dir;
    QFile token(dir.filePath(QStringLiteral("token")));
    QVERIFY(token.open(QIODevice::WriteOnly));
    token.write("first-token\n");
    token.close();
    CredentialProvider p(*resolvedFrom(writeConfig(dir, "    tokenFile: token\n")));
    QCOMPARE(p.get()->bearerToken, QStringLiteral("first-token"));
    QVERIFY(token.open(QIODevice::WriteOnly | QIODevice::Truncate));
    token.write("rotated-token");
    token.close();
    p.invalidate();
    QCOMPARE(p.get()->bearerToken, QStringLiteral("rotated-token"));
    QVERIFY(token.remove());
    pb::Result<Credentials> gone = p.get();
    QVERIFY(!gone.ok());
    QVERIFY(gone.error().message.contains(QStringLiteral("tokenFile")));
}

void TestKubeconfig::execTokenCachedUntilExpiry() {
    QTemporaryDir dir;
    CredentialProvider p(
        *resolvedFrom(writeConfig(dir, execUser(QStringLiteral("token-v1beta1.sh"), "v1beta1"))));
    pb::Result<Credentials> c = p.get();
    QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().toString()));
    QCOMPARE(c->bearerToken, QStringLiteral("stub-token-none"));
    QCOMPARE(c->source, QStringLiteral("exec: token-v1beta1.sh"));
    QVERIFY(c->expiry.has_value());
    const qint64 left = QDateTime::currentDateTimeUtc().secsTo(*c->expiry);
    QVERIFY2(left > 3500 && left <= 3600, qPrintable(QString::number(left)));
    QVERIFY(p.get().ok());
    QVERIFY(p.get().ok());
    QCOMPARE(p.execRuns(), 1);
}

void TestKubeconfig::execOutputCapped_data() {
    QTest::addColumn<QByteArray>("script");
    QTest::addColumn<QString>("channel");
    // 256 MiB, as in the hostile test of issue #20; the plugin is stopped long before the end.
    QTest::addRow("stderr flood") << QByteArray("head -c 268435456 /dev/zero | tr '\\0' x >&2\n")
                                  << QStringLiteral("stderr");
    QTest::addRow("stdout flood") << QByteArray("head -c 268435456 /dev/zero | tr '\\0' x\n")
                                  << QStringLiteral("stdout");
}

void TestKubeconfig::execOutputCapped() {
    QFETCH(QByteArray, script);
    QFETCH(QString, channel);
    QTemporaryDir dir;
    const QString plugin = dir.filePath(QStringLiteral("flood.sh"));
    QFile f(plugin);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("#!/bin/sh\n" + script);
    f.close();
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    CredentialProvider p(*resolvedFrom(
        writeConfig(dir, "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: " +
                             plugin.toUtf8() + "\n      interactiveMode: Never\n")));
    QElapsedTimer t;
    t.start();
    pb::Result<Credentials> c = p.get();
    QVERIFY(!c.ok());
    QVERIFY2(c.error().message.contains(QStringLiteral("wrote more than 1 MiB to %1").arg(channel)),
             qPrintable(c.error().toString()));
    QVERIFY2(c.error().message.size() < 1000, "the flood is not quoted");
    QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
}

void TestKubeconfig::tokenWinsOverExec() {
    // kubectl sends the static token and never runs the plugin (client-go's exec authenticator only
    // fills an Authorization header nobody set).
    QTemporaryDir dir;
    CredentialProvider p(*resolvedFrom(writeConfig(
        dir, "    token: static-token\n" + execUser(QStringLiteral("token-v1beta1.sh"), "v1beta1"))));
    pb::Result<Credentials> c = p.get();
    QVERIFY(c.ok());
    QCOMPARE(c->bearerToken, QStringLiteral("static-token"));
    p.invalidate(); // a 401 does not bring the plugin in either
    QCOMPARE(p.get()->bearerToken, QStringLiteral("static-token"));
    QCOMPARE(p.execRuns(), 0);
}

void TestKubeconfig::insecureWithCaRefused() {
    QTemporaryDir dir;
    const QString path = writeConfig(dir, "    token: t\n",
                                     "    insecure-skip-tls-verify: true\n    certificate-authority-data: " +
                                         QByteArray("-----BEGIN CERTIFICATE-----\n").toBase64() + "\n");
    pb::Result<Kubeconfig> k = Kubeconfig::load({path});
    QVERIFY(k.ok());
    pb::Result<ResolvedContext> r = resolveContext(*k);
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.contains(QStringLiteral("cluster 'c'")), qPrintable(r.error().toString()));
    QCOMPARE(r.error().field, QStringLiteral("clusters[c].cluster.insecure-skip-tls-verify"));
    // Either one alone is fine.
    QVERIFY(resolvedFrom(writeConfig(dir, "    token: t\n", "    insecure-skip-tls-verify: true\n")).ok());
}

void TestKubeconfig::execExpiryDrivesRerun() {
    // A token that expires within the refresh margin is never reused.
    QTemporaryDir dir;
    CredentialProvider p(*resolvedFrom(
        writeConfig(dir, execUser(QStringLiteral("token-v1beta1.sh"), "v1beta1",
                                  "      env:\n      - name: PB_EXPIRES_IN\n        value: \"5\"\n"))));
    QVERIFY(p.get().ok());
    QVERIFY(p.get().ok());
    QVERIFY(p.get().ok());
    QCOMPARE(p.execRuns(), 3);
}

void TestKubeconfig::execInvalidateReruns() {
    QTemporaryDir dir;
    CredentialProvider p(
        *resolvedFrom(writeConfig(dir, execUser(QStringLiteral("token-v1beta1.sh"), "v1beta1"))));
    QVERIFY(p.get().ok());
    QCOMPARE(p.execRuns(), 1);
    p.invalidate();
    QVERIFY(p.get().ok());
    QCOMPARE(p.execRuns(), 2);
}

void TestKubeconfig::execArgsEnvAndClusterInfo() {
    QTemporaryDir dir;
    const QString capture = dir.filePath(QStringLiteral("capture.txt"));
    const QByteArray ca = readFile(mergeDir() + QStringLiteral("/a/certs/ca.pem"));
    const QByteArray extra =
        "      args: [\"eu-1\", \"two words\"]\n      provideClusterInfo: true\n      env:\n"
        "      - name: PB_CAPTURE\n        value: " +
        capture.toUtf8() + "\n      - name: PB_REGION\n        value: eu-west-1\n";
    const QByteArray cluster =
        "    certificate-authority: " + (mergeDir() + QStringLiteral("/a/certs/ca.pem")).toUtf8() +
        "\n    tls-server-name: api.internal\n    proxy-url: socks5://127.0.0.1:1080\n";
    CredentialProvider p(*resolvedFrom(
        writeConfig(dir, execUser(QStringLiteral("token-v1beta1.sh"), "v1beta1", extra), cluster)));
    pb::Result<Credentials> c = p.get();
    QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().toString()));
    QCOMPARE(c->bearerToken, QStringLiteral("stub-token-eu-1"));
    const QList<QByteArray> lines = readFile(capture).split('\n');
    QCOMPARE(lines.value(0), QByteArray("args: [eu-1] [two words]"));
    QCOMPARE(lines.value(1), QByteArray("region=eu-west-1"));
    QVERIFY(lines.value(2).startsWith("info="));
    const QJsonObject info = QJsonDocument::fromJson(lines.value(2).mid(5)).object();
    QCOMPARE(info.value(QStringLiteral("kind")).toString(), QStringLiteral("ExecCredential"));
    QCOMPARE(info.value(QStringLiteral("apiVersion")).toString(),
             QStringLiteral("client.authentication.k8s.io/v1beta1"));
    const QJsonObject spec = info.value(QStringLiteral("spec")).toObject();
    QCOMPARE(spec.value(QStringLiteral("interactive")), QJsonValue(false));
    const QJsonObject cl = spec.value(QStringLiteral("cluster")).toObject();
    QCOMPARE(cl.value(QStringLiteral("server")).toString(), QStringLiteral("https://127.0.0.1:6443"));
    QCOMPARE(
        QByteArray::fromBase64(cl.value(QStringLiteral("certificate-authority-data")).toString().toLatin1()),
        ca);
    QCOMPARE(cl.value(QStringLiteral("tls-server-name")).toString(), QStringLiteral("api.internal"));
    QCOMPARE(cl.value(QStringLiteral("proxy-url")).toString(), QStringLiteral("socks5://127.0.0.1:1080"));

    // Without provideClusterInfo the plugin learns nothing about the cluster.
    QTemporaryDir dir2;
    const QByteArray plain =
        "      env:\n      - name: PB_CAPTURE\n        value: " + capture.toUtf8() + "\n";
    CredentialProvider p2(
        *resolvedFrom(writeConfig(dir2, execUser(QStringLiteral("token-v1beta1.sh"), "v1", plain))));
    pb::Result<Credentials> c2 = p2.get();
    QVERIFY(!c2.ok()); // the stub answers v1beta1 when v1 was asked
    QVERIFY2(c2.error().message.contains(QStringLiteral("asked for 'client.authentication.k8s.io/v1'")),
             qPrintable(c2.error().toString()));
    const QJsonObject info2 = QJsonDocument::fromJson(readFile(capture).split('\n').value(2).mid(5)).object();
    QCOMPARE(info2.value(QStringLiteral("apiVersion")).toString(),
             QStringLiteral("client.authentication.k8s.io/v1"));
    QVERIFY(!info2.value(QStringLiteral("spec")).toObject().contains(QStringLiteral("cluster")));
}

void TestKubeconfig::execClientCertificateV1() {
    QTemporaryDir dir;
    CredentialProvider p(*resolvedFrom(writeConfig(dir, execUser(QStringLiteral("cert-v1.sh"), "v1"))));
    pb::Result<Credentials> c = p.get();
    QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().toString()));
    QCOMPARE(c->clientCertificatePem, readFile(mergeDir() + QStringLiteral("/b/pki/client.crt")));
    QCOMPARE(c->clientKeyPem, readFile(mergeDir() + QStringLiteral("/b/pki/client.key")));
    QVERIFY(c->bearerToken.isEmpty());
    QVERIFY(!c->expiry);
    QVERIFY(p.get().ok());
    QCOMPARE(p.execRuns(), 1);
}

void TestKubeconfig::execV1alpha1Answer() {
    QTemporaryDir dir;
    const QString path = writeConfig(dir, execUser(QStringLiteral("v1alpha1.sh"), "v1beta1"));
    CredentialProvider p(*resolvedFrom(path));
    pb::Result<Credentials> c = p.get();
    QVERIFY(!c.ok());
    QCOMPARE(c.error().file, path);
    QVERIFY2(c.error().message.contains(QStringLiteral("'client.authentication.k8s.io/v1alpha1'")),
             qPrintable(c.error().toString()));
    QVERIFY2(c.error().message.contains(QStringLiteral("removed in Kubernetes 1.24")),
             qPrintable(c.error().toString()));
}

void TestKubeconfig::execFailureShowsStderr() {
    QTemporaryDir dir;
    CredentialProvider p(*resolvedFrom(writeConfig(dir, execUser(QStringLiteral("fail.sh"), "v1beta1"))));
    pb::Result<Credentials> c = p.get();
    QVERIFY(!c.ok());
    const QString msg = c.error().message;
    QVERIFY2(msg.contains(QStringLiteral("exit code 1")), qPrintable(msg));
    QVERIFY2(
        msg.endsWith(QStringLiteral(
            ": Error loading SSO Token: Token for gpu-sso does not exist; run: aws sso login --profile gpu")),
        qPrintable(msg));
    QVERIFY(!msg.contains(QStringLiteral("stdout")));
}

void TestKubeconfig::execMissingCommand() {
    QTemporaryDir dir;
    const QByteArray user =
        "    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: "
        "pb-no-such-plugin\n"
        "      installHint: |\n        Install pb-no-such-plugin from https://example.invalid/plugin\n";
    CredentialProvider p(*resolvedFrom(writeConfig(dir, user)), {dir.path()});
    pb::Result<Credentials> c = p.get();
    QVERIFY(!c.ok());
    const QString msg = c.error().message;
    QVERIFY2(msg.contains(QStringLiteral("'pb-no-such-plugin' not found")), qPrintable(msg));
    QVERIFY2(msg.contains(QStringLiteral("/usr/local/bin")), qPrintable(msg));
    QVERIFY2(msg.contains(dir.path()), qPrintable(msg));
    QVERIFY2(msg.contains(QStringLiteral("/usr/bin")), qPrintable(msg)); // from PATH
    QVERIFY2(msg.endsWith(QStringLiteral("Install pb-no-such-plugin from https://example.invalid/plugin")),
             qPrintable(msg));
    QCOMPARE(c.error().field, QStringLiteral("users[u].user.exec.command"));
}

void TestKubeconfig::findExecutableLooksInExtraPaths() {
    QTemporaryDir dir;
    const QString tool = dir.filePath(QStringLiteral("pb-extra-tool"));
    QVERIFY(QFile::copy(execDir() + QStringLiteral("/v1alpha1.sh"), tool));
    QVERIFY(QFile::setPermissions(tool, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    QStringList tried;
    QCOMPARE(findExecutable(QStringLiteral("pb-extra-tool"), {dir.path()}, &tried), tool);
    QVERIFY(tried.contains(dir.path()));
    QCOMPARE(findExecutable(tool), tool);
    QVERIFY(findExecutable(QStringLiteral("pb-extra-tool")).isEmpty());
    QVERIFY(findExecutable(QStringLiteral("bash")).endsWith(QStringLiteral("/bash"))); // from PATH
}

QTEST_GUILESS_MAIN(TestKubeconfig)
#include "tst_kubeconfig.moc"
