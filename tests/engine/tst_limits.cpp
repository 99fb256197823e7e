// Issue #10: hostile input meets a limit and a clear error (file, size or depth, and the limit),
// never a crash, a hang or an out-of-memory: oversize files (kubeconfig, trusted root, allowlist,
// docker config, index.json, tokenFile), YAML alias bombs and depth, JSON depth, archive members and
// totals, endless log lines, a validator that never stops printing.
#include "TestUtil.h"

#include "catalog/Digest.h"
#include "core/Files.h"
#include "core/Hash.h"
#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "kube/Kubeconfig.h"
#include "oci/Auth.h"
#include "receipts/Records.h"
#include "sigstore/TrustedRoot.h"
#include "validation/Nccl.h"
#include "validation/Runner.h"
#include "yaml/Yaml.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

namespace {

// A sparse file of `size` bytes: cheap to make, and larger than any limit.
QString hugeFile(const QTemporaryDir& dir, const QString& name, qint64 size) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !f.resize(size))
        qFatal("cannot make %s", qPrintable(path));
    return path;
}

void expectLimitError(const Error& e, const QString& path) {
    QVERIFY2(e.file == path, qPrintable(e.toString()));
    QVERIFY2(e.message.contains(QLatin1String("limit")), qPrintable(e.toString()));
}

} // namespace

class TestLimits : public QObject {
    Q_OBJECT

  private slots:
    void oversizeInputFiles();
    void readLimitedOnAPipe();
    void yamlAliasBombAndDepth();
    void jsonDepth();
    void archiveMembersAndTotals();
    void endlessLogLines();
    void chunkedReadsAreExact();
    void hostilePathsInLayoutsListsAndConfigs();
};

void TestLimits::oversizeInputFiles() {
    QTemporaryDir dir;
    const qint64 big = limits::kConfigFile + 1;
    {
        const QString p = hugeFile(dir, QStringLiteral("kubeconfig"), big);
        Result<kube::Kubeconfig> k = kube::Kubeconfig::load({p});
        QVERIFY(!k.ok());
        expectLimitError(k.error(), p);
    }
    {
        const QString p = hugeFile(dir, QStringLiteral("trusted_root.json"), big);
        Result<sigstore::TrustedRoot> r = sigstore::loadTrustedRoot(p);
        QVERIFY(!r.ok());
        expectLimitError(r.error(), p);
    }
    {
        QDir().mkpath(dir.filePath(QStringLiteral("evidence")));
        const QString p = hugeFile(dir, QStringLiteral("evidence/allowlist.yaml"), big);
        Result<evidence::EvidenceTree> t = evidence::scanEvidence(dir.filePath(QStringLiteral("evidence")));
        QVERIFY(!t.ok());
        expectLimitError(t.error(), p);
    }
    {
        QDir().mkpath(dir.filePath(QStringLiteral("docker")));
        const QString p = hugeFile(dir, QStringLiteral("docker/config.json"), big);
        oci::DockerConfigOptions o;
        o.configFile = p;
        Result<oci::Credentials> c = oci::credentialsFor(QStringLiteral("ghcr.io"), o);
        QVERIFY(!c.ok());
        expectLimitError(c.error(), p);
    }
    {
        QDir().mkpath(dir.filePath(QStringLiteral("layout")));
        const QString p = hugeFile(dir, QStringLiteral("layout/index.json"), big);
        Result<evidence::SummaryBundle> b = evidence::loadOciLayout(dir.filePath(QStringLiteral("layout")));
        QVERIFY(!b.ok());
        expectLimitError(b.error(), p);
    }
    {
        // Issue 28: a 16 GB sparse file in a bundle folder is refused by its size, before any read.
        QDir().mkpath(dir.filePath(QStringLiteral("bundle/summary-bundle")));
        QFile manifest(dir.filePath(QStringLiteral("bundle/summary-bundle/manifest.json")));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{}");
        manifest.close();
        const QString p = hugeFile(dir, QStringLiteral("bundle/summary-bundle/huge.bin"), 16ll << 30);
        Result<evidence::SummaryBundle> b = evidence::loadBundle(dir.filePath(QStringLiteral("bundle")));
        QVERIFY(!b.ok());
        QCOMPARE(b.error().file, p);
        QVERIFY2(b.error().message.contains(QLatin1String("larger than 64 MiB")),
                 qPrintable(b.error().toString()));
    }
}

void TestLimits::readLimitedOnAPipe() {
    // /dev/zero reports size 0 and never ends: the read stops at the limit.
    QFile f(QStringLiteral("/dev/zero"));
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Unbuffered));
    Result<QByteArray> r = readLimited(f, 4096, QStringLiteral("the token file"));
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.contains(QLatin1String("the token file")));
}

void TestLimits::yamlAliasBombAndDepth() {
    // "Billion laughs": nine levels of ten aliases each.
    QByteArray bomb =
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
    char prev = 'a';
    for (char c = 'b'; c <= 'j'; ++c) {
        bomb += QByteArray(1, c) + ": &" + c + " [";
        for (int i = 0; i < 10; ++i)
            bomb += QByteArray(i ? "," : "") + "*" + prev;
        bomb += "]\n";
        prev = c;
    }
    Result<yaml::Node> n = yaml::parse(bomb, QStringLiteral("bomb.yaml"));
    QVERIFY(!n.ok());
    QVERIFY2(n.error().message.contains(QLatin1String("alias expansion limit")),
             qPrintable(n.error().toString()));
    QCOMPARE(n.error().file, QStringLiteral("bomb.yaml"));

    const QByteArray deep = QByteArray(100000, '[') + QByteArray(100000, ']');
    Result<yaml::Node> d = yaml::parse(deep, QStringLiteral("deep.yaml"));
    QVERIFY(!d.ok());
    QVERIFY2(d.error().message.contains(QLatin1String("nesting deeper")), qPrintable(d.error().toString()));

    // The same through a kubeconfig: an error naming the file, not a crash.
    Result<kube::Kubeconfig> k = kube::Kubeconfig::parse(bomb, QStringLiteral("/tmp/kubeconfig"));
    QVERIFY(!k.ok());
    QCOMPARE(k.error().file, QStringLiteral("/tmp/kubeconfig"));

    // Issue 28: few nodes, long text (a 200 KB anchored string through five levels of ten aliases:
    // 100,011 nodes, 20 GB once expanded). Every YAML reader goes through yaml::parse; here an
    // allowlist and a recipe being digested refuse it at once, naming the file and the limit.
    QByteArray text = "s0: &s0 \"" + QByteArray(200 * 1024, 'x') + "\"\n";
    for (int l = 1; l <= 5; ++l) {
        text += "s" + QByteArray::number(l) + ": &s" + QByteArray::number(l) + " [";
        for (int i = 0; i < 10; ++i)
            text += (i ? ", *s" : "*s") + QByteArray::number(l - 1);
        text += "]\n";
    }
    Result<evidence::Allowlist> allow = evidence::parseAllowlist(text, QStringLiteral("allowlist.yaml"));
    QVERIFY(!allow.ok());
    QVERIFY2(allow.error().message.contains(QLatin1String("alias expansion limit")),
             qPrintable(allow.error().toString()));
    QCOMPARE(allow.error().file, QStringLiteral("allowlist.yaml"));
    Result<QString> digest =
        catalog::evidenceRecipeDigest(text, QStringLiteral("recipe.yaml"), catalog::PredicateVersion::V3);
    QVERIFY(!digest.ok());
    QVERIFY2(digest.error().message.contains(QLatin1String("alias expansion limit")),
             qPrintable(digest.error().toString()));
}

void TestLimits::jsonDepth() {
    // JSON readers (trusted roots, bundles, CTRF, docker config) go through Qt's parser, which refuses
    // nesting past its limit; our readers turn that into an error naming the file.
    const QByteArray deep = QByteArray(200000, '[') + QByteArray(200000, ']');
    Result<sigstore::TrustedRoot> r = sigstore::parseTrustedRoot(deep, QStringLiteral("trusted_root.json"));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().file, QStringLiteral("trusted_root.json"));
    Result<evidence::CtrfReport> c = evidence::parseCtrf(deep, QStringLiteral("ctrf/performance.json"));
    QVERIFY(!c.ok());
}

void TestLimits::archiveMembersAndTotals() {
    // A gzip stream that inflates to far more than the total allowed (a "zip bomb"): refused by the
    // limit on the member, without inflating it all.
    QTemporaryDir dir;
    const QString path = hugeFile(dir, QStringLiteral("zeros"), 300ll * 1024 * 1024);
    QProcess tar;
    tar.setWorkingDirectory(dir.path());
    tar.start(QStringLiteral("tar"),
              {QStringLiteral("-czf"), QStringLiteral("bomb.tar.gz"), QStringLiteral("zeros")});
    QVERIFY(tar.waitForFinished(120000));
    QCOMPARE(tar.exitCode(), 0);
    QFile f(dir.filePath(QStringLiteral("bomb.tar.gz")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray archive = f.readAll();
    QVERIFY(archive.size() < 2 * 1024 * 1024); // small on the wire
    evidence::ExtractLimits limits;
    Result<QMap<QString, QByteArray>> out =
        evidence::extractTar(archive, QStringLiteral("layer.tar.gz"), limits);
    QVERIFY(!out.ok());
    QVERIFY2(out.error().toString().contains(QLatin1String("zeros")), qPrintable(out.error().toString()));

    // Many tiny members: refused past the member count.
    evidence::ExtractLimits few;
    few.maxMembers = 3;
    QProcess many;
    many.setWorkingDirectory(dir.path());
    for (int i = 0; i < 5; ++i) {
        QFile m(dir.filePath(QStringLiteral("m%1").arg(i)));
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write("x");
    }
    many.start(QStringLiteral("tar"),
               {QStringLiteral("-czf"), QStringLiteral("many.tar.gz"), QStringLiteral("m0"),
                QStringLiteral("m1"), QStringLiteral("m2"), QStringLiteral("m3"), QStringLiteral("m4")});
    QVERIFY(many.waitForFinished(30000));
    QFile mf(dir.filePath(QStringLiteral("many.tar.gz")));
    QVERIFY(mf.open(QIODevice::ReadOnly));
    Result<QMap<QString, QByteArray>> m =
        evidence::extractTar(mf.readAll(), QStringLiteral("many.tar.gz"), few);
    QVERIFY(!m.ok());
}

void TestLimits::endlessLogLines() {
    // A line of 10 MB with no newline: skipped and counted, memory bounded, the table still found.
    validation::NcclParser parser;
    const QByteArray chunk(1024 * 1024, 'x');
    for (int i = 0; i < 10; ++i)
        parser.feed(chunk);
    QFile f(pbtest::fixture(QStringLiteral("validation/nccl-pass.txt")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    parser.feed("\n");
    parser.feed(f.readAll());
    const validation::NcclResult r = parser.finish();
    QCOMPARE(r.lastOopBusBw(), 386.56);
    QVERIFY(r.longLinesSkipped >= 1);

    // A check log past its bound keeps its head and its newest lines.
    QByteArray log;
    for (int i = 0; i < 40; ++i)
        validation::appendBounded(log, chunk + '\n', 4 * 1024 * 1024);
    QVERIFY(log.size() <= 4 * 1024 * 1024 + 512 * 1024);
}

void TestLimits::chunkedReadsAreExact() {
    // Larger than one read chunk, not a multiple of it: every byte arrives, in order, and the
    // limit is exact (size == limit passes, one byte less fails).
    QTemporaryDir dir;
    QByteArray bytes;
    for (int i = 0; i < 3 * 64 * 1024 + 5; ++i)
        bytes.append(char('a' + i % 23));
    const QString path = dir.filePath(QStringLiteral("blob"));
    QVERIFY(writeFileAtomically(path, bytes).ok());
    Result<QByteArray> whole = readFileLimited(path, bytes.size(), QStringLiteral("blob"));
    QVERIFY2(whole.ok(), qPrintable(whole.ok() ? QString() : whole.error().toString()));
    QCOMPARE(*whole, bytes);
    Result<QByteArray> over = readFileLimited(path, bytes.size() - 1, QStringLiteral("blob"));
    QVERIFY(!over.ok());
    expectLimitError(over.error(), path);
}

void TestLimits::hostilePathsInLayoutsListsAndConfigs() {
    QTemporaryDir dir;
    // An OCI layout whose index.json names a "digest" that climbs out of blobs/ to a device that
    // never ends: refused by its form, before any file is opened.
    const QString layout = dir.filePath(QStringLiteral("layout"));
    QVERIFY(QDir().mkpath(layout + QStringLiteral("/blobs/sha256")));
    QString escape = QStringLiteral("../../../../../../../../../../../../../../../../../../dev/zero");
    escape.prepend(QString(64 - escape.size(), QLatin1Char('/')));
    QCOMPARE(escape.size(), 64);
    QVERIFY(writeFileAtomically(
                layout + QStringLiteral("/index.json"),
                QStringLiteral(R"({"schemaVersion":2,"manifests":[{"digest":"sha256:%1","size":1}]})")
                    .arg(escape)
                    .toUtf8())
                .ok());
    Result<evidence::SummaryBundle> b = evidence::loadOciLayout(layout);
    QVERIFY(!b.ok());
    QVERIFY2(b.error().message.contains(QLatin1String("unsupported digest")),
             qPrintable(b.error().toString()));

    // A checksums list may only name files beside it.
    const QString listDir = dir.filePath(QStringLiteral("entry/rendered"));
    QVERIFY(QDir().mkpath(listDir));
    QVERIFY(writeFileAtomically(dir.filePath(QStringLiteral("entry/outside.txt")), "secret\n").ok());
    QVERIFY(writeFileAtomically(listDir + QStringLiteral("/app.yaml"), "kind: ConfigMap\n").ok());
    const QByteArray list = sha256Hex("kind: ConfigMap\n").toLatin1() + "  app.yaml\n" +
                            sha256Hex("secret\n").toLatin1() + "  ../outside.txt\n" + QByteArray(64, '0') +
                            "  /etc/hostname\n";
    QVERIFY(writeFileAtomically(listDir + QStringLiteral("/checksums.txt"), list).ok());
    const std::vector<receipts::RecordCheck> checks = receipts::checkChecksums(
        listDir + QStringLiteral("/checksums.txt"), QStringLiteral("rendered/checksums.txt"));
    int outside = 0;
    for (const receipts::RecordCheck& c : checks)
        if (c.detail.contains(QLatin1String("is outside the directory of the list")))
            ++outside;
    QCOMPARE(outside, 2);
    QCOMPARE(checks.back().verdict,
             receipts::Verdict::Fail); // the summary: 1 of 1 listed file matches, 2 bad rows
    QVERIFY2(checks.back().detail.startsWith(QLatin1String("1 of 1 listed")),
             qPrintable(checks.back().detail));

    // A docker config.json may name a credential helper, not a path to some other program.
    const QString config = dir.filePath(QStringLiteral("config.json"));
    QVERIFY(
        writeFileAtomically(config, R"({"credHelpers":{"ghcr.io":"../../../bin/true"},"credsStore":"x/y"})")
            .ok());
    oci::DockerConfigOptions options;
    options.configFile = config;
    Result<oci::Credentials> helper = oci::credentialsFor(QStringLiteral("ghcr.io"), options);
    QVERIFY(!helper.ok());
    QVERIFY2(helper.error().message.contains(QLatin1String("is not a plain name")),
             qPrintable(helper.error().toString()));
    Result<oci::Credentials> store = oci::credentialsFor(QStringLiteral("docker.io"), options);
    QVERIFY(!store.ok());
    QVERIFY2(store.error().message.contains(QLatin1String("is not a plain name")),
             qPrintable(store.error().toString()));
}

QTEST_GUILESS_MAIN(TestLimits)
#include "tst_limits.moc"
