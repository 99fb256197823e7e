// Issue 17, "Input safety": hostile files meet the file primitives (core/Files.h) and a clear error
// naming them, never a hang. Every FIFO is a real one (mkfifo) in a QTemporaryDir; each read that
// could block runs under a watchdog that fails the test instead of hanging the suite.
#include "TestUtil.h"

#include "bundle/DeploymentBundle.h"
#include "catalog/Loader.h"
#include "core/Files.h"
#include "core/Hash.h"
#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "kube/Credentials.h"
#include "kube/Kubeconfig.h"
#include "oci/Auth.h"
#include "oci/Layout.h"
#include "sigstore/TrustedRoot.h"

#include <archive.h>
#include <archive_entry.h>

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>

#include <sys/stat.h>
#include <sys/types.h>

using namespace pb;

namespace {

QString makeFifo(const QString& path) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    if (::mkfifo(QFile::encodeName(path).constData(), 0600) != 0)
        qFatal("cannot mkfifo %s", qPrintable(path));
    return path;
}

// A hung open() on a FIFO cannot be interrupted from inside; a watchdog thread aborts the process
// after `seconds` so the suite reports a failure instead of hanging.
class Watchdog {
  public:
    explicit Watchdog(const char* what, int seconds = 5) : m_what(what) {
        m_thread = std::thread([this, seconds] {
            for (int i = 0; i < seconds * 100 && !m_done; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            if (!m_done)
                qFatal("hung for %d s: %s", seconds, m_what);
        });
    }
    ~Watchdog() {
        m_done = true;
        m_thread.join();
    }

  private:
    const char* m_what;
    std::atomic<bool> m_done{false};
    std::thread m_thread;
};

void writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

void copyTree(const QString& from, const QString& to) {
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString abs = it.next();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(abs);
        QDir().mkpath(QFileInfo(target).absolutePath());
        if (!QFile::copy(abs, target))
            qFatal("cannot copy %s", qPrintable(abs));
    }
}

// An uncompressed tar built with libarchive: members in the order given, names as given (so the
// same name can appear twice).
QByteArray tarOf(const QList<QPair<QString, QByteArray>>& members) {
    QByteArray out(1024 * 1024, Qt::Uninitialized);
    size_t used = 0;
    archive* a = archive_write_new();
    archive_write_set_format_pax_restricted(a);
    archive_write_open_memory(a, out.data(), static_cast<size_t>(out.size()), &used);
    for (const auto& [path, bytes] : members) {
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(e, path.toUtf8().constData());
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_size(e, bytes.size());
        archive_write_header(a, e);
        archive_write_data(a, bytes.constData(), static_cast<size_t>(bytes.size()));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    out.truncate(static_cast<qsizetype>(used));
    return out;
}

// An OCI image layout in `dir` whose one manifest has `layer` as its one layer; returns the layer's
// digest.
QString writeOciLayout(const QString& dir, const QByteArray& layer) {
    const QString layerDigest = QStringLiteral("sha256:") + sha256Hex(layer);
    writeFile(dir + QStringLiteral("/blobs/sha256/") + layerDigest.mid(7), layer);
    const QByteArray manifest =
        QStringLiteral(
            R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",)"
            R"("layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"%1","size":%2}]})")
            .arg(layerDigest)
            .arg(layer.size())
            .toUtf8();
    const QString manifestDigest = QStringLiteral("sha256:") + sha256Hex(manifest);
    writeFile(dir + QStringLiteral("/blobs/sha256/") + manifestDigest.mid(7), manifest);
    writeFile(dir + QStringLiteral("/oci-layout"), R"({"imageLayoutVersion":"1.0.0"})");
    writeFile(
        dir + QStringLiteral("/index.json"),
        QStringLiteral(
            R"({"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"%1","size":%2}]})")
            .arg(manifestDigest)
            .arg(manifest.size())
            .toUtf8());
    return layerDigest;
}

QByteArray pointerYaml(const QString& recipe, const QString& digestHex) {
    return "attestations:\n  - attestedAt: 2026-10-01T10:00:00Z\n    bundle:\n      digest: sha256:" +
           digestHex.toUtf8() + "\n      oci: ghcr.io/example/aicr-evidence:" + recipe.toUtf8() +
           "\n      predicateType: https://aicr.run/recipe-evidence/v3\n"
           "    signer:\n      identity: yuanchen97@gmail.com\n      issuer: https://github.com/login/oauth\n"
           "recipe: " +
           recipe.toUtf8() + "\nschemaVersion: 1.0.0\n";
}

const QString kSlug = QStringLiteral("7c4c0edc8c765a95a0f3afdb3bbb8e91");

void expectNotRegular(const Error& e, const QString& path, const char* kind = "named pipe (FIFO)") {
    qInfo("%s", qPrintable(e.toString()));
    QVERIFY2(e.file == path || e.message.contains(path), qPrintable(e.toString()));
    QVERIFY2(e.toString().contains(QLatin1String(kind)), qPrintable(e.toString()));
    QVERIFY2(e.toString().contains(QLatin1String("not a regular file")), qPrintable(e.toString()));
}

} // namespace

class TestInputSafety : public QObject {
    Q_OBJECT
  private slots:
    void primitiveRefusesFifoSocketDeviceDirectory();
    void fifoAsAllowlist();
    void fifoAsKubeconfigFiles();
    void fifoAsDockerConfigAndTrustedRoot();
    void fifoAsOciIndexAndBlob();
    void fifoAndSymlinkInCatalogTree();
    void evidenceTreeReportsEverySkippedEntry();
    void emptyAndOverLimitPointersAreInvalidNotFatal();
    void duplicateAndShadowedLayerMembers();
    void fifoInSummaryBundleDirectory();
    void fifoAsDeploymentChecksums();
};

void TestInputSafety::primitiveRefusesFifoSocketDeviceDirectory() {
    QTemporaryDir dir;
    const QString fifo = makeFifo(dir.filePath(QStringLiteral("pipe")));
    {
        Watchdog w("readFileLimited on a FIFO");
        QElapsedTimer t;
        t.start();
        Result<QByteArray> r = readFileLimited(fifo, limits::kSmallFile, QStringLiteral("the token file"));
        QVERIFY(!r.ok());
        QVERIFY(t.elapsed() < 1000);
        expectNotRegular(r.error(), fifo);
        QVERIFY2(r.error().message.startsWith(QLatin1String("the token file is a named pipe (FIFO)")),
                 qPrintable(r.error().toString()));
    }
    {
        QFile f(fifo);
        Status s = openInputFile(f, QStringLiteral("the allowlist"));
        QVERIFY(!s.ok());
        QVERIFY(!f.isOpen());
        expectNotRegular(s.error(), fifo);
    }
    Result<QByteArray> dev = readFileLimited(QStringLiteral("/dev/zero"), 4096);
    QVERIFY(!dev.ok());
    expectNotRegular(dev.error(), QStringLiteral("/dev/zero"), "character device");
    Result<QByteArray> d = readFileLimited(dir.path(), 4096, QStringLiteral("index.json"));
    QVERIFY(!d.ok());
    expectNotRegular(d.error(), dir.path(), "directory");
    Result<QByteArray> missing =
        readFileLimited(dir.filePath(QStringLiteral("nope")), 4096, QStringLiteral("the allowlist"));
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().file, dir.filePath(QStringLiteral("nope")));

    // A regular file reads whole; the open QFile keeps its name (errors name the file).
    const QString plain = dir.filePath(QStringLiteral("plain.txt"));
    QVERIFY(writeFileAtomically(plain, "hello\n").ok());
    QFile f(plain);
    QVERIFY(openInputFile(f).ok());
    QCOMPARE(inputFileName(f), plain);
    QVERIFY(!f.isSequential());
    QCOMPARE(f.size(), qint64(6));
    Result<QByteArray> over = readLimited(f, 3, QStringLiteral("plain"));
    QVERIFY(!over.ok());
    QCOMPARE(over.error().file, plain);
    Result<QByteArray> whole = readFileLimited(plain, 100);
    QVERIFY(whole.ok());
    QCOMPARE(*whole, QByteArray("hello\n"));

    QCOMPARE(describeFileType(fifo), QStringLiteral("a named pipe (FIFO)"));
    QCOMPARE(describeFileType(plain), QStringLiteral("a regular file"));
    QVERIFY(QFile::link(plain, dir.filePath(QStringLiteral("link"))));
    QCOMPARE(describeFileType(dir.filePath(QStringLiteral("link"))), QStringLiteral("a symbolic link"));
    QVERIFY(!isRegularFileNoFollow(dir.filePath(QStringLiteral("link"))));
    QVERIFY(isRegularFileNoFollow(plain));
}

void TestInputSafety::fifoAsAllowlist() {
    QTemporaryDir dir;
    const QString root = dir.filePath(QStringLiteral("recipes/evidence"));
    writeFile(root + QStringLiteral("/h100-eks-ubuntu-training/%1/sha256-%2.yaml")
                         .arg(kSlug, QString(64, QLatin1Char('a'))),
              pointerYaml(QStringLiteral("h100-eks-ubuntu-training"), QString(64, QLatin1Char('a'))));
    // Given with --allowlist.
    const QString given = makeFifo(dir.filePath(QStringLiteral("allowlist.yaml")));
    {
        Watchdog w("scanEvidence with a FIFO allowlist");
        Result<evidence::EvidenceTree> t = evidence::scanEvidence(dir.path(), given);
        QVERIFY(!t.ok());
        expectNotRegular(t.error(), given);
        QVERIFY2(t.error().message.contains(QLatin1String("the allowlist")),
                 qPrintable(t.error().toString()));
    }
    // The tree's own allowlist.yaml.
    const QString inTree = makeFifo(root + QStringLiteral("/allowlist.yaml"));
    {
        Watchdog w("scanEvidence with a FIFO allowlist.yaml in the tree");
        Result<evidence::EvidenceTree> t = evidence::scanEvidence(dir.path());
        QVERIFY(!t.ok());
        expectNotRegular(t.error(), inTree);
    }
}

void TestInputSafety::fifoAsKubeconfigFiles() {
    QTemporaryDir dir;
    const QString cert = makeFifo(dir.filePath(QStringLiteral("pki/client.crt")));
    writeFile(dir.filePath(QStringLiteral("pki/client.key")), "-----BEGIN PRIVATE KEY-----\n");
    const QString token = makeFifo(dir.filePath(QStringLiteral("pki/token")));
    auto config = [&](const QString& name, const QByteArray& user) {
        const QString path = dir.filePath(name);
        writeFile(path,
                  "apiVersion: v1\nkind: Config\ncurrent-context: ctx\nclusters:\n- name: c\n  cluster:\n"
                  "    server: https://127.0.0.1:6443\nusers:\n- name: u\n  user:\n" +
                      user + "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: u\n");
        return path;
    };
    auto credentials = [](const QString& path) -> Result<kube::Credentials> {
        Result<kube::Kubeconfig> cfg = kube::Kubeconfig::load({path});
        if (!cfg)
            return cfg.error();
        Result<kube::ResolvedContext> ctx = kube::resolveContext(*cfg);
        if (!ctx)
            return ctx.error();
        kube::CredentialProvider p(*ctx);
        return p.get();
    };
    {
        Watchdog w("client-certificate FIFO");
        const QString kc = config(QStringLiteral("cert-config"),
                                  "    client-certificate: pki/client.crt\n    client-key: pki/client.key\n");
        Result<kube::Credentials> c = credentials(kc);
        QVERIFY(!c.ok());
        QVERIFY2(c.error().message.contains(cert), qPrintable(c.error().toString()));
        QVERIFY2(c.error().message.contains(QLatin1String("client-certificate")),
                 qPrintable(c.error().toString()));
        QVERIFY2(c.error().message.contains(QLatin1String("named pipe (FIFO), not a regular file")),
                 qPrintable(c.error().toString()));
        QCOMPARE(c.error().file, kc);
    }
    {
        Watchdog w("tokenFile FIFO");
        const QString kc = config(QStringLiteral("token-config"), "    tokenFile: pki/token\n");
        Result<kube::Credentials> c = credentials(kc);
        QVERIFY(!c.ok());
        QVERIFY2(c.error().message.contains(token), qPrintable(c.error().toString()));
        QVERIFY2(c.error().message.contains(QLatin1String("tokenFile")), qPrintable(c.error().toString()));
        QVERIFY2(c.error().message.contains(QLatin1String("named pipe (FIFO), not a regular file")),
                 qPrintable(c.error().toString()));
    }
    {
        // The kubeconfig itself (KUBECONFIG=/some/fifo).
        Watchdog w("kubeconfig FIFO");
        const QString fifo = makeFifo(dir.filePath(QStringLiteral("fifo-config")));
        Result<kube::Kubeconfig> cfg = kube::Kubeconfig::load({fifo});
        QVERIFY(!cfg.ok());
        expectNotRegular(cfg.error(), fifo);
    }
}

void TestInputSafety::fifoAsDockerConfigAndTrustedRoot() {
    QTemporaryDir dir;
    const QString docker = makeFifo(dir.filePath(QStringLiteral("docker/config.json")));
    const QString root = makeFifo(dir.filePath(QStringLiteral("trusted_root.json")));
    Watchdog w("docker config / trusted root FIFO");
    oci::DockerConfigOptions o;
    o.configFile = docker;
    Result<oci::Credentials> c = oci::credentialsFor(QStringLiteral("ghcr.io"), o);
    QVERIFY(!c.ok());
    expectNotRegular(c.error(), docker);
    Result<sigstore::TrustedRoot> r = sigstore::loadTrustedRoot(root);
    QVERIFY(!r.ok());
    expectNotRegular(r.error(), root);
}

void TestInputSafety::fifoAsOciIndexAndBlob() {
    QTemporaryDir dir;
    // index.json a FIFO: the evidence reader and the layout cache both refuse it by name.
    const QString layout = dir.filePath(QStringLiteral("layout"));
    QVERIFY(QDir().mkpath(layout + QStringLiteral("/blobs/sha256")));
    const QString index = makeFifo(layout + QStringLiteral("/index.json"));
    {
        Watchdog w("loadOciLayout with a FIFO index.json");
        Result<evidence::SummaryBundle> b = evidence::loadOciLayout(layout);
        QVERIFY(!b.ok());
        expectNotRegular(b.error(), index);
        Result<evidence::SummaryBundle> viaLoad = evidence::loadBundle(layout);
        QVERIFY(!viaLoad.ok());
        expectNotRegular(viaLoad.error(), index);
        Result<oci::Layout> l = oci::Layout::open(layout);
        QVERIFY(l.ok()); // index.json exists: open does not rewrite it
        QVERIFY(l->manifests().empty());
        Status add = l->addManifest(oci::Descriptor{}, QStringLiteral("x"));
        QVERIFY(!add.ok());
        expectNotRegular(add.error(), index);
    }
    // oci-layout a FIFO.
    {
        const QString other = dir.filePath(QStringLiteral("layout2"));
        const QString marker = makeFifo(other + QStringLiteral("/oci-layout"));
        Watchdog w("Layout::open with a FIFO oci-layout");
        Result<oci::Layout> l = oci::Layout::open(other);
        QVERIFY(!l.ok());
        expectNotRegular(l.error(), marker);
    }
    // A blob a FIFO: the manifest index.json names exists only as a pipe.
    {
        const QString third = dir.filePath(QStringLiteral("layout3"));
        const QString layerDigest = writeOciLayout(third, tarOf({{QStringLiteral("manifest.json"), "{}"}}));
        const QString blob = third + QStringLiteral("/blobs/sha256/") + layerDigest.mid(7);
        QVERIFY(QFile::remove(blob));
        makeFifo(blob);
        Watchdog w("a FIFO blob");
        Result<evidence::SummaryBundle> b = evidence::loadOciLayout(third);
        QVERIFY(!b.ok());
        expectNotRegular(b.error(), blob);
        Result<oci::Layout> l = oci::Layout::open(third);
        QVERIFY(l.ok());
        Result<QByteArray> read = l->readBlob(layerDigest);
        QVERIFY(!read.ok());
        expectNotRegular(read.error(), blob);
        // A blob that is simply missing still says so.
        QVERIFY(QFile::remove(blob));
        Result<QByteArray> gone = l->readBlob(layerDigest);
        QVERIFY(!gone.ok());
        QVERIFY2(gone.error().message.contains(QLatin1String("missing")),
                 qPrintable(gone.error().toString()));
    }
}

void TestInputSafety::fifoAndSymlinkInCatalogTree() {
    QTemporaryDir dir;
    const QString root = dir.filePath(QStringLiteral("recipes"));
    copyTree(pbtest::embeddedCatalogDir(QStringLiteral("sample-2")), root);
    {
        Result<catalog::Catalog> ok = catalog::loadCatalog(root);
        QVERIFY2(ok.ok(), qPrintable(ok.ok() ? QString() : ok.error().toString()));
    }
    const QString eks = root + QStringLiteral("/overlays/eks.yaml");
    QVERIFY(QFile::exists(eks));
    // A symlinked overlay: refused by name, not "base overlay 'eks' does not exist".
    const QString outside = dir.filePath(QStringLiteral("eks.yaml"));
    QVERIFY(QFile::rename(eks, outside));
    QVERIFY(QFile::link(outside, eks));
    {
        Result<catalog::Catalog> c = catalog::loadCatalog(root);
        QVERIFY(!c.ok());
        QVERIFY2(c.error().toString().contains(QLatin1String("overlays/eks.yaml")),
                 qPrintable(c.error().toString()));
        QVERIFY2(c.error().message.contains(QLatin1String("symbolic link")),
                 qPrintable(c.error().toString()));
        QVERIFY2(!c.error().message.contains(QLatin1String("does not exist")),
                 qPrintable(c.error().toString()));
        QCOMPARE(c.error().file, eks);
    }
    // The same overlay as a named pipe: refused by name, no hang.
    QVERIFY(QFile::remove(eks));
    makeFifo(eks);
    {
        Watchdog w("loadCatalog with a FIFO overlay");
        QElapsedTimer t;
        t.start();
        Result<catalog::Catalog> c = catalog::loadCatalog(root);
        QVERIFY(t.elapsed() < 1000);
        QVERIFY(!c.ok());
        expectNotRegular(c.error(), eks);
        QVERIFY2(c.error().message.contains(QLatin1String("overlays/eks.yaml")),
                 qPrintable(c.error().toString()));
    }
    // A symlinked directory (not followed, and not passed over either).
    QVERIFY(QFile::remove(eks));
    QVERIFY(QFile::rename(outside, eks));
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("extra"))));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("extra")), root + QStringLiteral("/mixins/extra")));
    Result<catalog::Catalog> c = catalog::loadCatalog(root);
    QVERIFY(!c.ok());
    QVERIFY2(c.error().message.contains(QLatin1String("mixins/extra is a symbolic link")),
             qPrintable(c.error().toString()));
}

void TestInputSafety::evidenceTreeReportsEverySkippedEntry() {
    QTemporaryDir dir;
    const QString root = dir.filePath(QStringLiteral("recipes/evidence"));
    const QString recipe = QStringLiteral("h100-eks-ubuntu-training");
    const QString a(64, QLatin1Char('a')), b(64, QLatin1Char('b')), c(64, QLatin1Char('c'));
    const QString good = QStringLiteral("%1/%2/sha256-%3.yaml").arg(recipe, kSlug, a);
    writeFile(root + QLatin1Char('/') + good, pointerYaml(recipe, a));
    const QString fifoPointer = QStringLiteral("%1/%2/sha256-%3.yaml").arg(recipe, kSlug, b);
    makeFifo(root + QLatin1Char('/') + fifoPointer);
    const QString linkPointer = QStringLiteral("%1/%2/sha256-%3.yaml").arg(recipe, kSlug, c);
    writeFile(dir.filePath(QStringLiteral("outside.yaml")), pointerYaml(recipe, c));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("outside.yaml")), root + QLatin1Char('/') + linkPointer));
    makeFifo(root + QStringLiteral("/notes.fifo"));
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("elsewhere"))));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("elsewhere")), root + QStringLiteral("/linked-recipe")));

    Watchdog w("scanEvidence over FIFOs");
    Result<evidence::EvidenceTree> t = evidence::scanEvidence(dir.path());
    QVERIFY2(t.ok(), qPrintable(t.ok() ? QString() : t.error().toString()));
    QCOMPARE(int(t->pointers.size()), 3);
    std::map<QString, const evidence::Pointer*> byFile;
    for (const evidence::Pointer& p : t->pointers)
        byFile[p.file] = &p;
    QVERIFY(byFile.count(good) && byFile.count(fifoPointer) && byFile.count(linkPointer));
    QVERIFY2(byFile[good]->problems.isEmpty() || !byFile[good]->unread,
             qPrintable(byFile[good]->problems.join(QStringLiteral("; "))));
    QCOMPARE(byFile[good]->recipe, recipe);
    for (const QString& f : {fifoPointer, linkPointer}) {
        const evidence::Pointer& p = *byFile[f];
        QVERIFY(!p.isValid());
        QVERIFY(p.unread);
        QVERIFY(!p.raw.isNull());
        QCOMPARE(p.dirRecipe, recipe);
        QCOMPARE(p.dirSource, kSlug);
        QCOMPARE(p.layout, evidence::PointerLayout::PerSource);
    }
    QVERIFY2(byFile[fifoPointer]->problems.join(QString()).contains(
                 QLatin1String("named pipe (FIFO), not a regular file")),
             qPrintable(byFile[fifoPointer]->problems.join(QStringLiteral("; "))));
    QVERIFY2(byFile[linkPointer]->problems.join(QString()).contains(QLatin1String("symbolic link")),
             qPrintable(byFile[linkPointer]->problems.join(QStringLiteral("; "))));
    // Not pointers, not read, but named.
    QCOMPARE(t->skipped.size(), 2);
    QVERIFY2(t->skipped.at(0).startsWith(QLatin1String("linked-recipe: a symbolic link to a directory")),
             qPrintable(t->skipped.join(QLatin1Char('\n'))));
    QVERIFY2(t->skipped.at(1).startsWith(QLatin1String("notes.fifo: a named pipe (FIFO)")),
             qPrintable(t->skipped.join(QLatin1Char('\n'))));
}

void TestInputSafety::emptyAndOverLimitPointersAreInvalidNotFatal() {
    QTemporaryDir dir;
    const QString root = dir.filePath(QStringLiteral("recipes/evidence"));
    const QString recipe = QStringLiteral("h100-eks-ubuntu-training");
    const QString a(64, QLatin1Char('a')), b(64, QLatin1Char('b')), c(64, QLatin1Char('c')),
        d(64, QLatin1Char('d'));
    const QString good = QStringLiteral("%1/%2/sha256-%3.yaml").arg(recipe, kSlug, a);
    const QString empty = QStringLiteral("%1/%2/sha256-%3.yaml").arg(recipe, kSlug, b);
    const QString huge = QStringLiteral("%1/%2/sha256-%3.yaml").arg(recipe, kSlug, c);
    const QString pending = QStringLiteral("gb200-eks-ubuntu-inference.yaml");
    writeFile(root + QLatin1Char('/') + good, pointerYaml(recipe, a));
    writeFile(root + QLatin1Char('/') + empty, QByteArray());
    writeFile(root + QLatin1Char('/') + huge,
              pointerYaml(recipe, c) + "# " + QByteArray(evidence::kMaxPointerBytes, 'x') + '\n');
    writeFile(root + QLatin1Char('/') + pending,
              pointerYaml(QStringLiteral("gb200-eks-ubuntu-inference"), d));

    Result<evidence::EvidenceTree> t = evidence::scanEvidence(dir.path());
    QVERIFY2(t.ok(), qPrintable(t.ok() ? QString() : t.error().toString()));
    QCOMPARE(int(t->pointers.size()), 4);
    std::map<QString, const evidence::Pointer*> byFile;
    for (const evidence::Pointer& p : t->pointers)
        byFile[p.file] = &p;
    QCOMPARE(byFile[good]->recipe, recipe);
    QVERIFY(!byFile[good]->unread);
    QCOMPARE(byFile[pending]->recipe, QStringLiteral("gb200-eks-ubuntu-inference"));

    const evidence::Pointer& e = *byFile[empty];
    QVERIFY(!e.isValid());
    QVERIFY(!e.raw.isNull());
    QVERIFY(e.raw.isEmpty());
    QCOMPARE(e.dirRecipe, recipe);
    QVERIFY2(e.problems.join(QString()).contains(QLatin1String("empty file")),
             qPrintable(e.problems.join(QStringLiteral("; "))));

    const evidence::Pointer& h = *byFile[huge];
    QVERIFY(!h.isValid());
    QVERIFY(h.unread);
    QVERIFY(!h.raw.isNull());
    QVERIFY(h.raw.isEmpty());
    QCOMPARE(h.dirRecipe, recipe);
    QCOMPARE(h.dirSource, kSlug);
    QVERIFY2(h.problems.join(QString()).contains(QLatin1String("over the 1048576-byte limit")),
             qPrintable(h.problems.join(QStringLiteral("; "))));
    QVERIFY2(h.problems.join(QString()).contains(huge), qPrintable(h.problems.join(QStringLiteral("; "))));

    // The same through the single-file reader and the old parser (its signature unchanged).
    const evidence::Pointer direct = evidence::readPointer(root + QLatin1Char('/') + empty, empty);
    QVERIFY(!direct.isValid());
    const evidence::Pointer parsed = evidence::parsePointer(QByteArray(), empty);
    QVERIFY(!parsed.isValid());
    QVERIFY(!parsed.raw.isNull());
    const evidence::Pointer missing =
        evidence::readPointer(root + QStringLiteral("/nope.yaml"), QStringLiteral("nope.yaml"));
    QVERIFY(!missing.isValid());
    QVERIFY(missing.unread);
}

void TestInputSafety::duplicateAndShadowedLayerMembers() {
    // One name twice in a tarball.
    {
        Result<QMap<QString, QByteArray>> r =
            evidence::extractTar(tarOf({{QStringLiteral("manifest.json"), "{\"a\":1}"},
                                        {QStringLiteral("manifest.json"), "{\"a\":2}"}}),
                                 QStringLiteral("layer.tar"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("'manifest.json' appears twice")),
                 qPrintable(r.error().toString()));
        QCOMPARE(r.error().file, QStringLiteral("layer.tar"));
    }
    // Two names, one file.
    {
        Result<QMap<QString, QByteArray>> r =
            evidence::extractTar(tarOf({{QStringLiteral("ctrf/deployment.json"), "{}"},
                                        {QStringLiteral("./ctrf//deployment.json"), "{}"}}),
                                 QStringLiteral("layer.tar"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("'ctrf/deployment.json'")) &&
                     r.error().message.contains(QLatin1String("'./ctrf//deployment.json'")),
                 qPrintable(r.error().toString()));
    }
    // manifest.json beside summary-bundle/manifest.json: both would be the bundle's manifest.json.
    QTemporaryDir dir;
    const QString layout = dir.filePath(QStringLiteral("layout"));
    const QString layerDigest = writeOciLayout(
        layout, tarOf({{QStringLiteral("manifest.json"), "{\"from\":\"root\"}"},
                       {QStringLiteral("summary-bundle/manifest.json"), "{\"from\":\"dir\"}"}}));
    Result<evidence::SummaryBundle> b = evidence::loadOciLayout(layout);
    QVERIFY(!b.ok());
    QVERIFY2(b.error().message.contains(QLatin1String("'manifest.json'")) &&
                 b.error().message.contains(QLatin1String("'summary-bundle/manifest.json'")),
             qPrintable(b.error().toString()));
    QVERIFY2(b.error().file.contains(layerDigest), qPrintable(b.error().toString()));
    // Either alone is fine.
    const QString single = dir.filePath(QStringLiteral("single"));
    writeOciLayout(single, tarOf({{QStringLiteral("summary-bundle/manifest.json"), "{}"}}));
    Result<evidence::SummaryBundle> one = evidence::loadOciLayout(single);
    QVERIFY2(one.ok(), qPrintable(one.ok() ? QString() : one.error().toString()));
    QVERIFY(one->files.contains(QStringLiteral("manifest.json")));
}

void TestInputSafety::fifoInSummaryBundleDirectory() {
    QTemporaryDir dir;
    const QString bundle = dir.filePath(QStringLiteral("summary-bundle"));
    writeFile(bundle + QStringLiteral("/manifest.json"), "{}");
    const QString fifo = makeFifo(bundle + QStringLiteral("/ctrf/deployment.json"));
    Watchdog w("loadSummaryBundle with a FIFO");
    Result<evidence::SummaryBundle> b = evidence::loadSummaryBundle(dir.path());
    QVERIFY(!b.ok());
    QCOMPARE(b.error().file, fifo);
    QVERIFY2(b.error().message.contains(QLatin1String("named pipe (FIFO)")),
             qPrintable(b.error().toString()));
}

void TestInputSafety::fifoAsDeploymentChecksums() {
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("001-cert-manager/values.yaml")), "a: 1\n");
    const QString checksums = makeFifo(dir.filePath(QStringLiteral("checksums.txt")));
    Watchdog w("verifyDeploymentBundle with a FIFO checksums.txt");
    const deploy::DeploymentVerification v = deploy::verifyDeploymentBundle(dir.path(), {});
    QVERIFY(!v.inventoryOk);
    QVERIFY2(v.inventoryDetail.contains(checksums) &&
                 v.inventoryDetail.contains(QLatin1String("named pipe (FIFO), not a regular file")),
             qPrintable(v.inventoryDetail));
}

QTEST_GUILESS_MAIN(TestInputSafety)
#include "tst_inputsafety.moc"
