// issue #11's GUI: the Health view's "Fetch evidence" against a real registry. Debian's
// docker-registry runs on 127.0.0.1; a signed evidence bundle is pushed with oci::pushEvidence
// (which writes its pointer); the pointer tree goes into a temp database; then the real HealthPane
// fetches the selected coordinate (valid, imported, shown in the table and the inspector with its
// cache directory and signature referrer), and "Fetch all" also meets a pointer whose pinned digest
// the registry does not have (failed, with the registry's reason). A registry that stalls mid-blob
// shows Cancel: the row ends cancelled and nothing half-written stays in the cache. The registry
// credentials dialog opened from the toolbar lists the registry and tests access to it.
#include "BundleModels.h"
#include "DockerRegistry.h"
#include "EvidenceFixture.h"
#include "EvidenceInspector.h"
#include "FetchEvidenceDialog.h"
#include "GuiTestUtil.h"
#include "HealthModels.h"
#include "HealthPane.h"
#include "RegistryCredentialsDialog.h"
#include "RegistryModels.h"
#include "TestUtil.h"

#include "core/Hash.h"
#include "oci/Artifact.h"
#include "oci/Layout.h"
#include "oci/Reference.h"
#include "oci/Registry.h"
#include "sigstore/Crypto.h"
#include "store/EvidenceStore.h"

#include <QAbstractItemModelTester>
#include <QDirIterator>
#include <QJsonArray>
#include <QLocale>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <openssl/evp.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

using namespace pb;
using models::FetchQueueModel;
using models::FetchState;
using pbgui::EvidenceFixture;
using widgets::FetchEvidenceDialog;
using widgets::HealthPane;

namespace {

constexpr int kTimeout = 60000;
constexpr int kShortTimeout = 20000; // for what a working fetch reaches at once

using pbtest::canConnectLoopback;
using Registry = pbtest::DockerRegistry;

// A registry that serves one artifact manifest, then sends the first 64 KiB of its 8 MiB layer and
// stalls until the client goes away: a pull that is still running when Cancel is pressed.
struct StallingRegistry {
    QByteArray config = "{}";
    QByteArray layer = QByteArray(8 * 1024 * 1024, 's');
    QByteArray manifest;
    QString manifestDigest, layerDigest;
    int fd = -1;
    quint16 port = 0;
    std::atomic_bool stop{false};
    std::thread acceptor;
    std::mutex mutex;
    std::vector<std::thread> connections;
    std::vector<int> clients; // shut down at the end, so idle keep-alive reads return

    StallingRegistry() {
        layerDigest = QStringLiteral("sha256:") + sha256Hex(layer);
        const QJsonObject m{
            {QStringLiteral("schemaVersion"), 2},
            {QStringLiteral("mediaType"), QLatin1String(oci::kImageManifest)},
            {QStringLiteral("artifactType"), QLatin1String(oci::kAicrArtifact)},
            {QStringLiteral("config"),
             QJsonObject{{QStringLiteral("mediaType"), QLatin1String(oci::kEmptyConfig)},
                         {QStringLiteral("digest"), QStringLiteral("sha256:") + sha256Hex(config)},
                         {QStringLiteral("size"), config.size()}}},
            {QStringLiteral("layers"),
             QJsonArray{QJsonObject{{QStringLiteral("mediaType"), QLatin1String(oci::kLayerTarGzip)},
                                    {QStringLiteral("digest"), layerDigest},
                                    {QStringLiteral("size"), layer.size()}}}}};
        manifest = QJsonDocument(m).toJson(QJsonDocument::Compact);
        manifestDigest = QStringLiteral("sha256:") + sha256Hex(manifest);
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        socklen_t len = sizeof a;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
        ::listen(fd, 16);
        acceptor = std::thread([this] {
            while (!stop) {
                const int c = ::accept(fd, nullptr, nullptr);
                if (c < 0)
                    break;
                std::lock_guard lock(mutex);
                clients.push_back(c);
                connections.emplace_back([this, c] { serve(c); });
            }
        });
    }
    ~StallingRegistry() {
        stop = true;
        ::shutdown(fd, SHUT_RDWR);
        ::close(fd);
        acceptor.join();
        std::lock_guard lock(mutex);
        for (int c : clients)
            ::shutdown(c, SHUT_RDWR);
        for (std::thread& t : connections)
            t.join();
        for (int c : clients)
            ::close(c);
    }
    QString host() const { return QStringLiteral("127.0.0.1:%1").arg(port); }

    static bool sendAll(int c, const QByteArray& b) {
        qsizetype sent = 0;
        while (sent < b.size()) {
            const ssize_t n = ::send(c, b.constData() + sent, size_t(b.size() - sent), MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += n;
        }
        return true;
    }
    void serve(int c) {
        QByteArray buf;
        char chunk[4096];
        for (;;) {
            qsizetype end;
            while ((end = buf.indexOf("\r\n\r\n")) < 0) {
                const ssize_t n = ::recv(c, chunk, sizeof chunk, 0);
                if (n <= 0)
                    return;
                buf.append(chunk, n);
            }
            const QByteArray head = buf.left(end);
            buf.remove(0, end + 4);
            const QList<QByteArray> line = head.left(head.indexOf("\r\n")).split(' ');
            const QByteArray method = line.value(0), path = line.value(1);
            auto reply = [&](int status, const QByteArray& type, const QByteArray& body, qint64 length = -1) {
                QByteArray h = "HTTP/1.1 " + QByteArray::number(status) +
                               (status == 200 ? " OK" : " Not Found") + "\r\n";
                if (!type.isEmpty())
                    h += "Content-Type: " + type + "\r\n";
                h += "Content-Length: " + QByteArray::number(length >= 0 ? length : body.size()) + "\r\n\r\n";
                return sendAll(c, h) && (method == "HEAD" || sendAll(c, body));
            };
            bool ok = true;
            if (path == "/v2/" || path == "/v2")
                ok = reply(200, "application/json", "{}");
            else if (path.contains("/manifests/") && path.endsWith(manifestDigest.mid(7).toLatin1()))
                ok = reply(200, oci::kImageManifest, manifest);
            else if (path.endsWith(sha256Hex(config).toLatin1()))
                ok = reply(200, "application/octet-stream", config);
            else if (path.endsWith(layerDigest.mid(7).toLatin1())) {
                // Headers for the whole layer, the first 64 KiB, then nothing until the client leaves.
                if (reply(200, "application/octet-stream", layer.left(64 * 1024), layer.size()))
                    while (!stop) {
                        pollfd p{c, POLLIN, 0};
                        if (::poll(&p, 1, 100) > 0 && ::recv(c, chunk, sizeof chunk, 0) <= 0)
                            break;
                    }
                ok = false;
            } else
                ok = reply(404, "application/json",
                           "{\"errors\":[{\"code\":\"NAME_UNKNOWN\",\"message\":\"not here\"}]}");
            if (!ok)
                break;
        }
    }
};

QByteArray pointerYaml(const QString& recipe, const QString& oci, const QString& digest) {
    return "attestations:\n  - attestedAt: 2026-10-01T10:00:00Z\n    bundle:\n      digest: " +
           digest.toUtf8() + "\n      oci: " + oci.toUtf8() +
           "\n      predicateType: https://aicr.run/recipe-evidence/v3\nrecipe: " + recipe.toUtf8() +
           "\nschemaVersion: 1.0.0\n";
}

// Files in a layout's blobs/ that are not finished blobs (temporaries, partial downloads).
QStringList leftovers(const QString& dir) {
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        const QFileInfo fi(f);
        const bool finishedBlob =
            fi.absolutePath().endsWith(QLatin1String("blobs/sha256")) && fi.fileName().size() == 64;
        const bool layoutFile =
            fi.fileName() == QLatin1String("index.json") || fi.fileName() == QLatin1String("oci-layout");
        if (!finishedBlob && !layoutFile)
            out << f;
    }
    return out;
}

} // namespace

class TestFetchEvidence : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void fetchSelectedThenAll();
    void cancelMidFetch();

  private:
    // The pointer tree under `root` into a fresh seeded database, and a shown HealthPane over it.
    bool openPane(const QString& root, const QString& cache, const QStringList& plainHttp);
    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<HealthPane> m_pane;
    QTemporaryDir m_home;
};

void TestFetchEvidence::initTestCase() {
    QLocale::setDefault(QLocale::c());
    QVERIFY(m_home.isValid());
    // No credentials of the machine's user leak in: an empty docker config directory.
    qputenv("DOCKER_CONFIG", m_home.filePath(QStringLiteral("docker")).toLocal8Bit());
    QStandardPaths::setTestModeEnabled(true);
}

bool TestFetchEvidence::openPane(const QString& root, const QString& cache, const QStringList& plainHttp) {
    m_pane.reset();
    m_db = pbgui::seededDatabase();
    if (!m_db->error.isEmpty()) {
        qWarning("%s", qPrintable(m_db->error));
        return false;
    }
    Result<evidence::EvidenceTree> tree = evidence::scanEvidence(root);
    if (!tree) {
        qWarning("%s", qPrintable(tree.error().toString()));
        return false;
    }
    if (auto r = store::EvidenceStore(*m_db->db).importTree(*tree); !r) {
        qWarning("%s", qPrintable(r.error().toString()));
        return false;
    }
    m_pane = std::make_unique<HealthPane>(m_db->workspace());
    widgets::RegistrySettings s;
    s.plainHttpRegistries = plainHttp;
    s.cacheDir = cache;
    m_pane->setRegistrySettings(s);
    m_pane->resize(1200, 800);
    m_pane->show();
    return QTest::qWaitFor([&] { return !m_pane->isLoading() && m_pane->model()->rowCount() > 0; }, kTimeout);
}

void TestFetchEvidence::fetchSelectedThenAll() {
    if (!QFileInfo::exists(QStringLiteral("/usr/bin/docker-registry")))
        QSKIP("/usr/bin/docker-registry (Debian package docker-registry) is not installed; "
              "tools/bootstrap.sh installs it");
    Registry reg;
    QVERIFY2(reg.start(), "docker-registry did not start");
    QTRY_VERIFY_WITH_TIMEOUT(canConnectLoopback(reg.port) || reg.process.state() == QProcess::NotRunning,
                             20000);
    QVERIFY(canConnectLoopback(reg.port));

    // Publish a signed, fully passing bundle for the signed recipe; pushEvidence writes its pointer.
    QTemporaryDir work;
    const pbgui::BundleDirFixture fx(EvidenceFixture::signedRecipe(), 0);
    const QString bundleDir = fx.writeDirectory(work.filePath(QStringLiteral("ev")));
    QVERIFY(!bundleDir.isEmpty());
    sigstore::crypto::Pkey key(EVP_EC_gen("P-256"));
    oci::ClientOptions co;
    co.plainHttpRegistries = {reg.host()};
    oci::Client client(co);
    oci::EvidencePushOptions po;
    po.key = key.get();
    const QString root = work.filePath(QStringLiteral("recipes/evidence"));
    po.pointerRoot = root;
    po.stagingDir = work.filePath(QStringLiteral("staging"));
    const oci::Reference to =
        *oci::parseReference(reg.host() + QStringLiteral("/owner/aicr-evidence:") + fx.recipeName);
    Result<oci::EvidencePush> pushed = oci::pushEvidence(client, bundleDir, to, po);
    QVERIFY2(pushed, pushed ? "" : qPrintable(pushed.error().toString()));
    QVERIFY(!pushed->signatureDigest.isEmpty());
    // A second coordinate whose pointer pins a digest the registry does not have.
    const QString missing = QStringLiteral("sha256:") + QString(64, QLatin1Char('1'));
    QVERIFY(EvidenceFixture::write(root + QStringLiteral("/%1.yaml").arg(EvidenceFixture::pendingRecipe()),
                                   pointerYaml(EvidenceFixture::pendingRecipe(),
                                               reg.host() + QStringLiteral("/owner/aicr-evidence:gone"),
                                               missing)));

    const QString cache = work.filePath(QStringLiteral("cache"));
    QVERIFY(openPane(root, cache, {reg.host()}));
    HealthPane* pane = m_pane.get();
    QAbstractItemModelTester healthTester(pane->model(), pbgui::kTesterMode);
    auto* fetchButton = pbgui::findNamed<QPushButton>(pane, "healthFetchEvidence");
    QVERIFY(fetchButton && pbgui::findNamed<QPushButton>(pane, "healthFetchAll") &&
            pbgui::findNamed<QPushButton>(pane, "healthRegistries"));
    const QString recipe = EvidenceFixture::signedRecipe();
    const int source = pane->model()->rowOf(recipe);
    QVERIFY(source >= 0);
    QCOMPARE(pane->model()->rowAt(source).bundles, 0);
    QVERIFY(pane->selectRecipe(recipe));
    QTRY_VERIFY(pane->inspector()->cacheText().contains(
        QStringLiteral("not fetched"))); // the row is read on a worker

    // Fetch evidence for the selected coordinate: one row, queued, then valid.
    QTest::mouseClick(fetchButton, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(pane->fetchDialog() != nullptr, 10000); // the pointers are read on a worker
    FetchEvidenceDialog* dlg = pane->fetchDialog();
    QVERIFY(QTest::qWaitForWindowExposed(dlg));
    FetchQueueModel* queue = dlg->model();
    QAbstractItemModelTester queueTester(queue, pbgui::kTesterMode);
    QCOMPARE(queue->rowCount(), 1);
    QCOMPARE(queue->itemAt(0).state, FetchState::Queued);
    QCOMPARE(queue->index(0, FetchQueueModel::ReferenceColumn).data().toString(),
             to.withDigest(pushed->artifact.digest).toString());
    QSignalSpy finished(dlg, &FetchEvidenceDialog::fetchFinished);
    QSignalSpy loaded(pane, &HealthPane::loaded);
    QTest::mouseClick(pbgui::findNamed<QPushButton>(dlg, "fetchStart"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(queue->index(0, FetchQueueModel::StateColumn).data().toString(),
                              QStringLiteral("valid"), kTimeout);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
    QCOMPARE(finished.at(0).at(0).toInt(), 1); // valid
    QCOMPARE(finished.at(0).at(1).toInt(), 0); // failed
    QCOMPARE(finished.at(0).at(2).toInt(), 1); // imported
    const QString dir = cache + QStringLiteral("/evidence/") + pushed->artifact.digest.mid(7);
    QCOMPARE(queue->itemAt(0).cacheDir, dir);
    QVERIFY(queue->itemAt(0).signaturePulled);
    QVERIFY(queue->itemAt(0).bytesDone > 0);
    QVERIFY2(queue->itemAt(0).detail.contains(QStringLiteral("signature")),
             qPrintable(queue->itemAt(0).detail));
    QVERIFY(QFileInfo::exists(dir + QStringLiteral("/summary-bundle/attestation.intoto.jsonl")));
    QVERIFY(leftovers(dir + QStringLiteral("/oci")).isEmpty());
    QVERIFY(dlg->summaryText().contains(QStringLiteral("1 valid")));
    QVERIFY(!pbgui::findNamed<QPushButton>(dlg, "fetchCancel")->isEnabled());

    // The health table re-read: the row has the bundle, and the inspector shows it and its cache.
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && !pane->isLoading(), kTimeout);
    QCOMPARE(pane->model()->rowAt(pane->model()->rowOf(recipe)).bundles, 1);
    widgets::EvidenceInspector* inspector = pane->inspector();
    QTRY_VERIFY_WITH_TIMEOUT(inspector->hasRow() && inspector->row().recipe == recipe &&
                                 !inspector->isLoadingBundles() && inspector->bundleModel()->rowCount() == 1,
                             kTimeout);
    QCOMPARE(inspector->bundleModel()->bundleAt(0).source, dir);
    QVERIFY(inspector->bundleModel()->bundleAt(0).signedBundle);
    QVERIFY(inspector->bundleModel()->bundleAt(0).checkExit <= 1);
    const QString cacheText = inspector->cacheText();
    QVERIFY2(cacheText.contains(QDir::toNativeSeparators(dir)) &&
                 cacheText.contains(QStringLiteral("signature referrer pulled")),
             qPrintable(cacheText));
    // The fetch left a receipt, as the CLI's does.
    QSqlQuery q(m_db->db->sql());
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM receipts WHERE kind = 'evidence.fetch'")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    // The stored bundle keeps the manifest digest its pointer pins (read from the cached layout).
    q.prepare(QStringLiteral("SELECT oci_digest FROM evidence_bundles WHERE source = ?"));
    q.addBindValue(dir);
    QVERIFY(q.exec() && q.next());
    QCOMPARE(q.value(0).toString(), pushed->artifact.digest);
    dlg->close();
    QTRY_VERIFY(pane->fetchDialog() == nullptr);

    // Fetch all: both coordinates with pointers; the missing digest fails with the registry's reason.
    QTest::mouseClick(pbgui::findNamed<QPushButton>(pane, "healthFetchAll"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(pane->fetchDialog() != nullptr, 10000);
    dlg = pane->fetchDialog();
    queue = dlg->model();
    QCOMPARE(queue->rowCount(), 2);
    QVERIFY(dlg->start());
    QVERIFY(!dlg->start()); // one run at a time
    QTRY_COMPARE_WITH_TIMEOUT(queue->finishedCount(), 2, kTimeout);
    QTRY_VERIFY_WITH_TIMEOUT(!dlg->isRunning(), kTimeout);
    int failedRow = -1, validRow = -1;
    for (int r = 0; r < 2; ++r)
        (queue->itemAt(r).pointer.recipe == EvidenceFixture::pendingRecipe() ? failedRow : validRow) = r;
    QVERIFY(failedRow >= 0 && validRow >= 0);
    QCOMPARE(queue->index(validRow, FetchQueueModel::StateColumn).data().toString(), QStringLiteral("valid"));
    QCOMPARE(queue->index(failedRow, FetchQueueModel::StateColumn).data().toString(),
             QStringLiteral("failed"));
    const QString reason = queue->index(failedRow, FetchQueueModel::DetailColumn).data().toString();
    QVERIFY2(reason.contains(QStringLiteral("404")) && reason.contains(missing.mid(7, 12)),
             qPrintable(reason));
    QVERIFY(!QFileInfo::exists(cache + QStringLiteral("/evidence/") + missing.mid(7) +
                               QStringLiteral("/summary-bundle")));
    QCOMPARE(dlg->findChild<QProgressBar*>(QStringLiteral("fetchProgress"))->value(), 2);
    QVERIFY(pbgui::findNamed<QPushButton>(dlg, "fetchStart")->isEnabled()); // the failed row can be retried

    // The registry credentials view from the toolbar: the registry is listed (anonymous, plain
    // HTTP as asked) and answers an access test.
    widgets::RegistryCredentialsDialog* creds = nullptr;
    bool tested = false;
    QString accessText;
    pbgui::ModalWatch watch =
        pbgui::whenModal<widgets::RegistryCredentialsDialog>([&](widgets::RegistryCredentialsDialog* d) {
            creds = d;
            QAbstractItemModelTester t(d->model(), pbgui::kTesterMode);
            const int row = d->model()->rowOf(reg.host());
            if (row >= 0 && d->model()->entryAt(row).kind == models::CredentialKind::Anonymous &&
                d->model()->entryAt(row).plainHttp) {
                QSignalSpy spy(d, &widgets::RegistryCredentialsDialog::accessTested);
                if (d->testAccess(row) && (spy.wait(kTimeout) || !spy.isEmpty())) {
                    tested = spy.at(0).at(1).toBool();
                    accessText = spy.at(0).at(2).toString();
                }
            }
            d->accept();
        });
    dlg->close();
    QTest::mouseClick(pbgui::findNamed<QPushButton>(pane, "healthRegistries"), Qt::LeftButton);
    // The pane reads the registries in use on a worker before the dialog opens.
    QTRY_VERIFY_WITH_TIMEOUT(creds != nullptr && !QApplication::activeModalWidget(), kTimeout);
    QVERIFY2(tested, qPrintable(accessText));
    QVERIFY(accessText.contains(QStringLiteral("reachable over HTTP, answered anonymously")));
}

void TestFetchEvidence::cancelMidFetch() {
    StallingRegistry slow;
    QTemporaryDir work;
    const QString root = work.filePath(QStringLiteral("recipes/evidence"));
    const QString recipe = EvidenceFixture::signedRecipe();
    QVERIFY(EvidenceFixture::write(
        root + QStringLiteral("/%1.yaml").arg(recipe),
        pointerYaml(recipe, slow.host() + QStringLiteral("/slow/evidence:t"), slow.manifestDigest)));
    const QString cache = work.filePath(QStringLiteral("cache"));
    QVERIFY(openPane(root, cache, {slow.host()}));
    HealthPane* pane = m_pane.get();
    QVERIFY(pane->selectRecipe(recipe));
    delete pane->fetchDialog();
    pane->fetchSelected(); // reads the pointers on a worker, then opens the dialog
    QTRY_VERIFY_WITH_TIMEOUT(pane->fetchDialog() != nullptr, 10000);
    FetchEvidenceDialog* dlg = pane->fetchDialog();
    FetchQueueModel* queue = dlg->model();
    QCOMPARE(queue->rowCount(), 1);
    QSignalSpy finished(dlg, &FetchEvidenceDialog::fetchFinished);
    QTest::mouseClick(pbgui::findNamed<QPushButton>(dlg, "fetchStart"), Qt::LeftButton);
    // Running: the first bytes of the layer have arrived, then the registry stalls.
    const bool running = QTest::qWaitFor(
        [&] { return queue->itemAt(0).state == FetchState::Fetching && queue->itemAt(0).bytesDone > 0; },
        kShortTimeout);
    QVERIFY2(running, qPrintable(QStringLiteral("%1: %2").arg(models::fetchStateName(queue->itemAt(0).state),
                                                              queue->itemAt(0).detail)));
    auto* cancel = pbgui::findNamed<QPushButton>(dlg, "fetchCancel");
    QVERIFY(cancel->isEnabled());
    QVERIFY(!pbgui::findNamed<QPushButton>(dlg, "fetchStart")->isEnabled());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
    QCOMPARE(queue->index(0, FetchQueueModel::StateColumn).data().toString(), QStringLiteral("cancelled"));
    QVERIFY2(queue->itemAt(0).detail.contains(QStringLiteral("cancelled")),
             qPrintable(queue->itemAt(0).detail));
    QVERIFY(dlg->wasCancelled());
    QVERIFY(dlg->summaryText().contains(QStringLiteral("cancelled")));
    // Nothing half-written: no partial layer, no temporaries, no unpacked bundle.
    const QString dir = cache + QStringLiteral("/evidence/") + slow.manifestDigest.mid(7);
    QVERIFY2(leftovers(dir).isEmpty(), qPrintable(leftovers(dir).join(QLatin1Char('\n'))));
    QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/oci/blobs/sha256/") + slow.layerDigest.mid(7)));
    QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/summary-bundle")));
    QCOMPARE(store::EvidenceStore(*m_db->db).bundlesFor(recipe)->size(), size_t(0));
    dlg->close();
    m_pane.reset();
}

QTEST_MAIN(TestFetchEvidence)
#include "tst_fetchevidence.moc"
