// Issue #10: after runs that used a bearer token, a client certificate key, an exec credential plugin
// and a signing key's passphrase, none of those secrets is anywhere Proofbench writes: the database
// (a SQLite file and its WAL; every row of every table on PostgreSQL), the receipts export, the
// evidence it wrote, stdout and stderr.
#include "DbTestUtil.h"
#include "KubeTestServer.h"
#include "TestUtil.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Cli {
    int code = -1;
    QByteArray out, err;
};

Cli runCli(const QStringList& args, const QProcessEnvironment& env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    p.waitForFinished(180000);
    return Cli{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The distinctive middle of a PEM body (its base64 lines), which is what a leak would carry.
QList<QByteArray> pemLines(const QByteArray& pem) {
    QList<QByteArray> out;
    for (const QByteArray& l : pem.split('\n'))
        if (!l.startsWith("-----") && l.trimmed().size() >= 40)
            out << l.trimmed();
    return out;
}

} // namespace

class TestSecrets : public QObject {
    Q_OBJECT

  private slots:
    void noSecretIsWrittenAnywhere();
};

void TestSecrets::noSecretIsWrittenAnywhere() {
    pbtest::KubeTestServer server;
    const QString tokens = server.path(QStringLiteral("tokens.txt"));
    {
        QFile f(tokens);
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    const QByteArray staticToken = "pb-secret-token-7f3a9c";
    const QJsonObject check{
        {QStringLiteral("exitCode"), 0},
        {QStringLiteral("runMs"), 30},
        {QStringLiteral("logFile"), pbtest::fixture(QStringLiteral("validation/nccl-pass.txt"))}};
    QVERIFY(
        server.start({{QStringLiteral("checks"), QJsonObject{{QStringLiteral("nccl-all-reduce-bw"), check}}},
                      {QStringLiteral("serverVersion"),
                       QJsonObject{{QStringLiteral("gitVersion"), QStringLiteral("v1.34.1")}}}},
                     {QStringLiteral("--token"), QString::fromLatin1(staticToken),
                      QStringLiteral("--tokens-file"), tokens}));
    QTemporaryDir dir;
    PB_TEST_DATABASE(testDb, dir.path(), QStringLiteral("pb.sqlite"));
    const QString db = testDb.spec();
    const QByteArray passphrase = "horse-battery-staple-91";
    QProcessEnvironment env = pbtest::cliEnvironment();
    env.insert(QStringLiteral("PB_PASS"), QString::fromLatin1(passphrase));

    // An exec-plugin user beside the generated contexts (token and client certificate).
    pb::Result<pb::kube::Kubeconfig> generated = pb::kube::Kubeconfig::load({server.kubeconfig()});
    QVERIFY(generated.ok());
    const pb::kube::Cluster* cluster =
        generated->cluster(generated->context(QStringLiteral("pb-cert"))->cluster);
    const pb::kube::User* certUser = generated->user(generated->context(QStringLiteral("pb-cert"))->user);
    QVERIFY(cluster && certUser && !certUser->clientKeyData.isEmpty());
    const QString execConfig = dir.filePath(QStringLiteral("exec-kubeconfig"));
    {
        QFile f(execConfig);
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
    }

    QByteArray allOutput;
    auto run = [&](const QStringList& args, int expected = 0) {
        const Cli c = runCli(args + QStringList{QStringLiteral("--db"), db}, env);
        allOutput += c.out + c.err;
        if (c.code != expected)
            qWarning("%s: exit %d\n%s", qPrintable(args.join(QLatin1Char(' '))), c.code, c.err.constData());
        return c.code == expected;
    };
    QVERIFY(run({QStringLiteral("keygen"), QStringLiteral("--out"), dir.filePath(QStringLiteral("k.key")),
                 QStringLiteral("--passphrase-env"), QStringLiteral("PB_PASS")}));
    const QStringList criteria{
        QStringLiteral("--version"), QStringLiteral("sample-2"),      QStringLiteral("--service"),
        QStringLiteral("eks"),       QStringLiteral("--accelerator"), QStringLiteral("h100"),
        QStringLiteral("--os"),      QStringLiteral("ubuntu"),        QStringLiteral("--intent"),
        QStringLiteral("training"),  QStringLiteral("--platform"),    QStringLiteral("kubeflow"),
        QStringLiteral("--phase"),   QStringLiteral("performance")};
    int n = 0;
    for (const auto& [config, context] :
         std::vector<std::pair<QString, QString>>{{server.kubeconfig(), QStringLiteral("pb-token")},
                                                  {server.kubeconfig(), QStringLiteral("pb-cert")},
                                                  {execConfig, QStringLiteral("exec")}})
        QVERIFY(run(QStringList{QStringLiteral("validate"), QStringLiteral("--kubeconfig"), config,
                                QStringLiteral("--context"), context} +
                    criteria +
                    QStringList{QStringLiteral("--key"), dir.filePath(QStringLiteral("k.key")),
                                QStringLiteral("--passphrase-env"), QStringLiteral("PB_PASS"),
                                QStringLiteral("--out"), dir.filePath(QStringLiteral("ev%1").arg(++n))}));
    const QString exported = dir.filePath(QStringLiteral("receipts.json"));
    QVERIFY(run({QStringLiteral("receipts"), QStringLiteral("export"), QStringLiteral("--out"), exported}));
    QVERIFY(run({QStringLiteral("receipts"), QStringLiteral("verify")}));

    // The secrets that were in play.
    QList<QByteArray> secrets{staticToken, passphrase};
    for (const QByteArray& t : readAll(tokens).split('\n'))
        if (!t.trimmed().isEmpty())
            secrets << t.trimmed();
    QVERIFY2(secrets.size() >= 3, "the exec plugin minted no token");
    secrets += pemLines(certUser->clientKeyData);
    const QByteArray privateKeyFile = readAll(dir.filePath(QStringLiteral("k.key")));
    secrets += pemLines(privateKeyFile);

    // Everything Proofbench wrote.
    QMap<QString, QByteArray> written;
    written.insert(QStringLiteral("stdout+stderr"), allOutput);
    written.insert(exported, readAll(exported));
    if (pb::test::onPostgres()) {
        pb::Result<std::unique_ptr<pb::db::Database>> handle = pb::db::Database::open(db);
        QVERIFY(handle.ok());
        written.insert(db, pbtest::allRowBytes(**handle));
    } else {
        for (const QString& f : {db, db + QStringLiteral("-wal")})
            written.insert(f, readAll(f));
    }
    for (int i = 1; i <= n; ++i) {
        QDirIterator it(dir.filePath(QStringLiteral("ev%1").arg(i)), QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString f = it.next();
            written.insert(f, readAll(f));
        }
    }
    QVERIFY(written.value(db).size() > 0);
    QVERIFY(written.value(exported).contains("validation.run"));
    for (auto it = written.cbegin(); it != written.cend(); ++it)
        for (const QByteArray& s : std::as_const(secrets))
            QVERIFY2(!it.value().contains(s), qPrintable(QStringLiteral("%1 contains a secret (%2...)")
                                                             .arg(it.key(), QString::fromLatin1(s.left(6)))));
}

QTEST_GUILESS_MAIN(TestSecrets)
#include "tst_secrets.moc"
