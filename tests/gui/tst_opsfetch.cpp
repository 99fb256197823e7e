// Issue 17: `evidence fetch` is one operation. The same pointer tree is fetched from the same real
// docker-registry twice, once by the CLI binary (`proofbench evidence fetch DIR --db A`) and once by
// the Fetch Evidence dialog (the window's path: ops::Async running ops::fetchEvidence) into a second
// database; the outcomes (per pointer: valid / failed, the exit, the bundle stored) and the
// evidence.fetch receipts (kind, parameters, result, message, inputs, outputs) must be the same.
#include "DockerRegistry.h"
#include "EvidenceFixture.h"
#include "FetchEvidenceDialog.h"
#include "GuiTestUtil.h"
#include "RegistryModels.h"
#include "TestUtil.h"

#include "oci/Artifact.h"
#include "oci/Reference.h"
#include "oci/Registry.h"
#include "receipts/Canonical.h"
#include "receipts/Kinds.h"
#include "receipts/Ledger.h"
#include "sigstore/Crypto.h"
#include "store/EvidenceStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <openssl/evp.h>

using namespace pb;
using models::FetchState;
using pbgui::EvidenceFixture;

namespace {

constexpr int kTimeout = 60000;

// The receipt without what differs between two runs by construction (seq, time, chain hashes).
QJsonObject comparable(const receipts::Receipt& r) {
    QJsonObject o = r.toJson();
    for (const char* k : {"seq", "time", "prev", "hash", "version"})
        o.remove(QLatin1String(k));
    return o;
}

std::optional<receipts::Receipt> lastOfKind(db::Database& db, QLatin1StringView kind) {
    auto rows = receipts::Ledger(db).list(receipts::ListFilter{QString(kind), std::nullopt, {}, {}, 0});
    if (!rows || rows->empty())
        return std::nullopt;
    return rows->back();
}

// (source, oci digest, check exit) of every stored bundle, sorted.
QStringList storedBundles(db::Database& db) {
    QStringList out;
    QSqlQuery q(db.sql());
    if (q.exec(QStringLiteral("SELECT source, oci_digest, check_exit, signature_verified FROM "
                              "evidence_bundles ORDER BY source")))
        while (q.next())
            out << QStringLiteral("%1 %2 %3 %4")
                       .arg(q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                            q.value(3).toString());
    return out;
}

QByteArray pointerYaml(const QString& recipe, const QString& oci, const QString& digest) {
    return "attestations:\n  - attestedAt: 2026-10-01T10:00:00Z\n    bundle:\n      digest: " +
           digest.toUtf8() + "\n      oci: " + oci.toUtf8() +
           "\n      predicateType: https://aicr.run/recipe-evidence/v3\nrecipe: " + recipe.toUtf8() +
           "\nschemaVersion: 1.0.0\n";
}

} // namespace

class TestOpsFetch : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QLocale::setDefault(QLocale::c());
        QVERIFY(m_home.isValid());
        qputenv("DOCKER_CONFIG", m_home.filePath(QStringLiteral("docker")).toLocal8Bit());
        QStandardPaths::setTestModeEnabled(true);
    }
    void cliAndWindowFetchAlike();

  private:
    QTemporaryDir m_home;
};

void TestOpsFetch::cliAndWindowFetchAlike() {
    if (!QFileInfo::exists(QStringLiteral("/usr/bin/docker-registry")))
        QSKIP("/usr/bin/docker-registry (Debian package docker-registry) is not installed; "
              "tools/bootstrap.sh installs it");
    pbtest::DockerRegistry reg;
    QVERIFY2(reg.start(), "docker-registry did not start");
    QTRY_VERIFY_WITH_TIMEOUT(
        pbtest::canConnectLoopback(reg.port) || reg.process.state() == QProcess::NotRunning, 20000);
    QVERIFY(pbtest::canConnectLoopback(reg.port));

    // A signed bundle pushed (its pointer written), and a pointer whose digest the registry lacks.
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
    const QString missing = QStringLiteral("sha256:") + QString(64, QLatin1Char('1'));
    QVERIFY(EvidenceFixture::write(root + QStringLiteral("/%1.yaml").arg(EvidenceFixture::pendingRecipe()),
                                   pointerYaml(EvidenceFixture::pendingRecipe(),
                                               reg.host() + QStringLiteral("/owner/aicr-evidence:gone"),
                                               missing)));
    Result<evidence::EvidenceTree> tree = evidence::scanEvidence(root);
    QVERIFY2(tree, tree ? "" : qPrintable(tree.error().toString()));
    QCOMPARE(tree->pointers.size(), size_t(2));

    // Two databases prepared alike: the embedded catalog and the pointer tree.
    auto cliDb = pbgui::seededDatabase();
    auto guiDb = pbgui::seededDatabase();
    QVERIFY2(cliDb->error.isEmpty() && guiDb->error.isEmpty(), qPrintable(cliDb->error + guiDb->error));
    QVERIFY(store::EvidenceStore(*cliDb->db).importTree(*tree));
    QVERIFY(store::EvidenceStore(*guiDb->db).importTree(*tree));
    const QString cache = work.filePath(QStringLiteral("cache")); // one cache: the receipts name it

    // 1. The CLI.
    QProcess cli;
    cli.start(QStringLiteral(PB_CLI_BINARY),
              {QStringLiteral("evidence"), QStringLiteral("fetch"), root, QStringLiteral("--db"),
               cliDb->path(), QStringLiteral("--cache"), cache, QStringLiteral("--plain-http-registry"),
               reg.host(), QStringLiteral("--format"), QStringLiteral("json")});
    QVERIFY(cli.waitForFinished(kTimeout));
    const QByteArray cliOut = cli.readAllStandardOutput();
    QCOMPARE(cli.exitCode(), 3); // the missing digest: a fetch that failed
    const QJsonObject cliJson = QJsonDocument::fromJson(cliOut).object();
    QCOMPARE(cliJson.value(QStringLiteral("exit")).toInt(), 3);
    QMap<QString, int> cliExit; // pointer file -> exit
    for (const QJsonValue& v : cliJson.value(QStringLiteral("results")).toArray())
        cliExit.insert(v.toObject().value(QStringLiteral("pointer")).toString(),
                       v.toObject().value(QStringLiteral("exit")).toInt());
    QCOMPARE(cliExit.size(), 2);

    // 2. The window: the Fetch Evidence dialog over the pointers the database holds.
    std::vector<evidence::Pointer> pointers;
    for (const QString& recipe : {EvidenceFixture::signedRecipe(), EvidenceFixture::pendingRecipe()}) {
        auto ps = store::EvidenceStore(*guiDb->db).pointersFor(recipe);
        QVERIFY(ps);
        pointers.insert(pointers.end(), ps->begin(), ps->end());
    }
    QCOMPARE(pointers.size(), size_t(2));
    widgets::RegistrySettings settings;
    settings.plainHttpRegistries = {reg.host()};
    settings.cacheDir = cache;
    widgets::FetchEvidenceDialog dlg(guiDb->workspace(), pointers, settings);
    dlg.show();
    QSignalSpy finished(&dlg, &widgets::FetchEvidenceDialog::fetchFinished);
    QVERIFY(dlg.start());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
    QCOMPARE(finished.at(0).at(0).toInt(), 1); // valid
    QCOMPARE(finished.at(0).at(1).toInt(), 1); // failed
    QCOMPARE(finished.at(0).at(2).toInt(), 1); // imported

    // Outcomes: the same pointer valid (exit 0) and the same one failed (exit 3).
    models::FetchQueueModel* queue = dlg.model();
    for (int r = 0; r < queue->rowCount(); ++r) {
        const models::FetchItem& it = queue->itemAt(r);
        QVERIFY2(cliExit.contains(it.pointer.file), qPrintable(it.pointer.file));
        const int exit = cliExit.value(it.pointer.file);
        if (exit == 0)
            QCOMPARE(it.state, FetchState::Valid);
        else
            QCOMPARE(it.state, FetchState::Failed);
    }
    // The same bundle stored in each database, checked alike.
    QCOMPARE(storedBundles(*guiDb->db), storedBundles(*cliDb->db));
    QCOMPARE(storedBundles(*cliDb->db).size(), 1);

    // The receipts: one evidence.fetch each, alike but for seq, time and chain.
    std::optional<receipts::Receipt> a = lastOfKind(*cliDb->db, receipts::kinds::EvidenceFetch);
    std::optional<receipts::Receipt> b = lastOfKind(*guiDb->db, receipts::kinds::EvidenceFetch);
    QVERIFY(a && b);
    QCOMPARE(QString::fromUtf8(receipts::canonicalJson(comparable(*b))),
             QString::fromUtf8(receipts::canonicalJson(comparable(*a))));
    QCOMPARE(a->kind, QStringLiteral("evidence.fetch"));
    QCOMPARE(a->result, receipts::Outcome::Failed);
    QVERIFY(!a->parameters.contains(QStringLiteral("from")) &&
            !a->parameters.contains(QStringLiteral("via")));
    QCOMPARE(a->inputs.size(), size_t(2));
    QCOMPARE(a->outputs.size(), size_t(1));
    QCOMPARE(a->outputs.front().sha256, pushed->artifact.digest.mid(7));
    // The import the fetch made is on record in both, in the fetch's transaction (just before it).
    std::optional<receipts::Receipt> ia = lastOfKind(*cliDb->db, receipts::kinds::EvidenceImportBundles);
    std::optional<receipts::Receipt> ib = lastOfKind(*guiDb->db, receipts::kinds::EvidenceImportBundles);
    QVERIFY(ia && ib);
    QCOMPARE(ia->seq, a->seq - 1);
    QCOMPARE(ib->seq, b->seq - 1);
    QCOMPARE(QString::fromUtf8(receipts::canonicalJson(comparable(*ib))),
             QString::fromUtf8(receipts::canonicalJson(comparable(*ia))));
}

QTEST_MAIN(TestOpsFetch)
#include "tst_opsfetch.moc"
