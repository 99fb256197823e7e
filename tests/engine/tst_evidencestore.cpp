// Evidence import into the store (SQLite or PostgreSQL) and the health table derived from it.
#include "BundleFixture.h"
#include "DbTestUtil.h"
#include "TestUtil.h"
#include "catalog/Loader.h"
#include "evidence/Evidence.h"
#include "ops/ImportCatalog.h"
#include "report/HealthTable.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"
#include "store/VerificationStore.h"

#include <QDir>
#include <QFile>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QTimeZone>

using namespace pb;
using namespace pb::store;

namespace {

void writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(bytes);
}

QByteArray pointerYaml(const QString& recipe, const QString& digestHex, bool withSigner,
                       const QByteArray& predicateType = "https://aicr.run/recipe-evidence/v3",
                       const QByteArray& attestedAt = "2026-10-01T10:00:00Z") {
    QByteArray y = "attestations:\n  - attestedAt: " + attestedAt +
                   "\n    bundle:\n      digest: sha256:" + digestHex.toUtf8() +
                   "\n      oci: ghcr.io/example/aicr-evidence:" + recipe.toUtf8() +
                   "\n      predicateType: " + predicateType + "\n";
    if (withSigner)
        y += "    signer:\n      identity: yuanchen97@gmail.com\n      issuer: "
             "https://github.com/login/oauth\n";
    return y + "recipe: " + recipe.toUtf8() + "\nschemaVersion: 1.0.0\n";
}

} // namespace

class TestEvidenceStore : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

  private slots:
    void importIsIdempotentAndKeepsInvalid() {
        const QString root = m_tmp.filePath(QStringLiteral("tree/recipes/evidence"));
        writeFile(root + QStringLiteral("/allowlist.yaml"),
                  "community:\n  - issuer: https://github.com/login/oauth\n    source: "
                  "7c4c0edc8c765a95a0f3afdb3bbb8e91\n");
        const QString slug = QStringLiteral("7c4c0edc8c765a95a0f3afdb3bbb8e91");
        const QString hexA = QString(64, QLatin1Char('a')), hexB = QString(64, QLatin1Char('b'));
        // sample-2 recipe names of the embedded catalog.
        const QString signedRecipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
        const QString pendingRecipe = QStringLiteral("gb200-eks-ubuntu-inference-dynamo");
        writeFile(root + QStringLiteral("/%1/%2/sha256-%3.yaml").arg(signedRecipe, slug, hexA),
                  pointerYaml(signedRecipe, hexA, true));
        writeFile(root + QStringLiteral("/%1.yaml").arg(pendingRecipe),
                  pointerYaml(pendingRecipe, hexB, false));
        // Invalid: wrong source directory.
        writeFile(root + QStringLiteral("/h100-gke-cos-training-kubeflow/%1/sha256-%2.yaml")
                             .arg(QString(32, QLatin1Char('0')), hexA),
                  pointerYaml(QStringLiteral("h100-gke-cos-training-kubeflow"), hexA, true));
        // Evidence for a coordinate the catalog does not have.
        writeFile(root + QStringLiteral("/vr200-rke2-ubuntu-training/%1/sha256-%2.yaml").arg(slug, hexB),
                  pointerYaml(QStringLiteral("vr200-rke2-ubuntu-training"), hexB, true));

        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("ev.sqlite"));
        auto db = Database::open(testDb.spec());
        QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
        QCOMPARE((*db)->schemaVersion(), Database::latestSchemaVersion((*db)->engine()));
        QVERIFY(ops::seedEmbeddedCatalog(**db).ok());
        Result<evidence::EvidenceTree> tree = evidence::scanEvidence(m_tmp.filePath(QStringLiteral("tree")));
        QVERIFY(tree.ok());
        EvidenceStore store(**db);
        Result<EvidenceImportReport> first = store.importTree(*tree);
        QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().toString()));
        QCOMPARE(first->added, 4);
        QCOMPARE(first->invalid, 1);
        Result<EvidenceImportReport> again = store.importTree(*tree);
        QVERIFY(again.ok());
        QCOMPARE(again->added, 0);
        QCOMPARE(again->unchanged, 4);
        QCOMPARE(store.pointerCount(), 4);
        // The invalid pointer is in the database with its reason.
        QSqlQuery q((*db)->sql());
        QVERIFY(q.exec(QStringLiteral("SELECT problems FROM evidence_pointers WHERE valid = 0")));
        QVERIFY(q.next());
        QVERIFY(q.value(0).toString().contains(QStringLiteral("does not match the signer's slug")));

        CatalogStore catalogs(**db);
        Result<std::vector<HealthRow>> rows = store.health(catalogs.version(QStringLiteral("sample-2"))->id);
        QVERIFY(rows.ok());
        QMap<QString, HealthRow> byName;
        for (const HealthRow& r : *rows)
            byName.insert(r.recipe, r);
        QCOMPARE(byName.size(), 16 + 1); // every leaf of sample-2, plus the outside coordinate
        QCOMPARE(byName.value(signedRecipe).status, HealthStatus::Signed);
        QCOMPARE(byName.value(signedRecipe).community, 1);
        QCOMPARE(byName.value(signedRecipe).newestAttestedAt,
                 QDateTime(QDate(2026, 10, 1), QTime(10, 0), QTimeZone::utc()));
        QCOMPARE(byName.value(pendingRecipe).status, HealthStatus::Pending);
        QCOMPARE(byName.value(QStringLiteral("h100-gke-cos-training-kubeflow")).status,
                 HealthStatus::Invalid);
        QCOMPARE(byName.value(QStringLiteral("h100-gke-cos-inference-dynamo")).status,
                 HealthStatus::NoEvidence);
        QVERIFY(!byName.value(QStringLiteral("vr200-rke2-ubuntu-training")).inCatalog());
        QCOMPARE(byName.value(QStringLiteral("vr200-rke2-ubuntu-training")).criteria.service, QString());
        // Renderings.
        const QString md = healthMarkdown(*rows);
        QVERIFY(md.contains(QStringLiteral("| h100-eks-ubuntu-training-kubeflow | eks | h100 | ubuntu | "
                                           "training | kubeflow | signed (not verified) |")));
        const QString csv = healthCsv(*rows);
        QCOMPARE(csv.count(QLatin1Char('\n')), 18);
        QCOMPARE(healthJson(byName.value(pendingRecipe)).value("status").toString(),
                 QStringLiteral("pending"));
        // Changed bytes of a flat pending pointer update it in place.
        writeFile(root + QStringLiteral("/%1.yaml").arg(pendingRecipe),
                  pointerYaml(pendingRecipe, hexA, false));
        Result<evidence::EvidenceTree> tree2 = evidence::scanEvidence(m_tmp.filePath(QStringLiteral("tree")));
        Result<EvidenceImportReport> third = store.importTree(*tree2);
        QVERIFY(third.ok());
        QCOMPARE(third->updated, 1);
        QCOMPARE(store.pointerCount(), 4);
    }

    void bundlesGivePhasesAndStaleness() {
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("bundles.sqlite"));
        auto db = Database::open(testDb.spec());
        QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
        QVERIFY(ops::seedEmbeddedCatalog(**db).ok());
        const QString recipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
        // Two bundles for the same sample-2 recipe: one v3 (in a summary-bundle dir), one v1 as an OCI
        // layout with a failed performance test; plus a tampered one for another recipe.
        const QString root = m_tmp.filePath(QStringLiteral("bundles"));
        pbtest::BundleFixture v3(recipe);
        v3.writeDirectory(root + QStringLiteral("/a"));
        pbtest::BundleFixture v1(recipe, 1);
        v1.predicateType = QStringLiteral("https://aicr.run/recipe-evidence/v1");
        v1.attestedAt = QStringLiteral("2026-10-02T10:00:00Z");
        v1.seal();
        const QByteArray v1Key = v1.signWithNewKey(); // signed: the pointer below claims a signer
        const QString ociDigest = pbtest::BundleFixture::writeOciLayout(
            root + QStringLiteral("/b"), pbtest::BundleFixture::tarGz(v1.files));
        pbtest::BundleFixture bad(QStringLiteral("gb200-eks-ubuntu-inference-dynamo"));
        bad.files[QStringLiteral("extra.txt")] = "x";
        bad.writeDirectory(root + QStringLiteral("/c"));
        // A signed pointer for the recipe, so it has evidence to show.
        const QString tree = m_tmp.filePath(QStringLiteral("bundle-tree/recipes/evidence"));
        writeFile(tree + QStringLiteral("/%1/7c4c0edc8c765a95a0f3afdb3bbb8e91/sha256-%2.yaml")
                             .arg(recipe, ociDigest.mid(7)),
                  pointerYaml(recipe, ociDigest.mid(7), true, "https://aicr.run/recipe-evidence/v1",
                              "2026-10-02T10:00:00Z"));
        writeFile(tree + QStringLiteral("/gb200-eks-ubuntu-inference-dynamo.yaml"),
                  pointerYaml(QStringLiteral("gb200-eks-ubuntu-inference-dynamo"),
                              QString(64, QLatin1Char('c')), false));
        EvidenceStore store(**db);
        Result<EvidenceImportReport> imported =
            store.importTree(*evidence::scanEvidence(m_tmp.filePath(QStringLiteral("bundle-tree"))));
        QVERIFY2(imported.ok(), qPrintable(imported.ok() ? QString() : imported.error().toString()));
        Result<int> n = store.importBundles(root);
        QVERIFY2(n.ok(), qPrintable(n.ok() ? QString() : n.error().toString()));
        QCOMPARE(*n, 3);
        QCOMPARE(*store.importBundles(root), 3); // re-reading replaces, does not duplicate
        CatalogStore catalogs(**db);
        auto rowFor = [&](const QString& label, const QString& name) {
            for (const HealthRow& r : *store.health(catalogs.version(label)->id))
                if (r.recipe == name)
                    return r;
            return HealthRow{};
        };
        const HealthRow now = rowFor(QStringLiteral("sample-2"), recipe);
        QCOMPARE(now.bundles, 2);
        QVERIFY(!now.stale); // both digests (v3 and v1 rules) match the sample-2 recipe
        QCOMPARE(now.status, HealthStatus::Signed);
        QCOMPARE(now.phaseCoverage,
                 QStringLiteral("deployment 4/4, performance 0/1, conformance 10/10")); // newest: v1
        QVERIFY(now.reason.contains(QStringLiteral("failed phases")));
        QCOMPARE(
            now.aicrVersion,
            QStringLiteral("v1.0.0")); // the AICR build that recorded it (BundleFixture), not a catalog label
        const HealthRow before = rowFor(QStringLiteral("sample-1"), recipe);
        QVERIFY(before.stale); // the same evidence against the older catalog: its recipe differs
        QCOMPARE(before.status, HealthStatus::Stale);
        QVERIFY(before.reason.contains(before.currentDigest.left(12)));
        // The inspector's and the report's account of it: both digests in full.
        const QString why =
            report::mismatchText(before, *store.pointersFor(recipe), QStringLiteral("sample-1"));
        QVERIFY2(why.contains(before.bundleDigest) && why.contains(before.currentDigest) &&
                     why.contains(QStringLiteral("no longer match")),
                 qPrintable(why));
        // The stored bundles, newest first, with their steps and CTRF tests.
        Result<std::vector<BundleRecord>> bundles = store.bundlesFor(recipe);
        QVERIFY(bundles.ok());
        QCOMPARE(bundles->size(), size_t(2));
        QCOMPARE(bundles->front().attestedAt, QStringLiteral("2026-10-02T10:00:00Z"));
        QCOMPARE(bundles->front().checkExit, 1);
        QCOMPARE(bundles->front().ociDigest, ociDigest);
        QCOMPARE(bundles->front().tests.value(QStringLiteral("performance")).size(), size_t(1));
        QCOMPARE(bundles->front().tests.value(QStringLiteral("performance")).front().status,
                 QStringLiteral("failed"));
        QCOMPARE(bundles->front().phases.value(QStringLiteral("conformance")).passed, 10);
        bool manifestStep = false;
        for (const evidence::CheckStep& s : bundles->front().steps)
            manifestStep |=
                s.name == QLatin1String("manifest-hash-check") && s.status == evidence::StepStatus::Passed;
        QVERIFY(manifestStep);
        const HealthRow tampered =
            rowFor(QStringLiteral("sample-2"), QStringLiteral("gb200-eks-ubuntu-inference-dynamo"));
        QCOMPARE(tampered.invalidBundles, 1);
        QCOMPARE(tampered.status, HealthStatus::Invalid);
        QVERIFY(!bundles->front().signatureVerified.has_value()); // no trusted root: not checked

        // Verified with the signing key: the status says so and the verification is kept with the bundle.
        sigstore::TrustedRoot noLogs;
        evidence::SignatureCheck check;
        check.root = &noLogs;
        check.policy.publicKeyPem = v1Key;
        check.policy.ignoreTlog = true;
        QCOMPARE(*store.importBundles(root, &check), 3);
        const HealthRow verified = rowFor(QStringLiteral("sample-2"), recipe);
        QCOMPARE(verified.status, HealthStatus::VerifiedFailedPhases);
        QVERIFY(verified.reason.contains(QStringLiteral("signature verified offline")));
        QCOMPARE(store.bundlesFor(recipe)->front().signatureVerified, std::optional<bool>(true));
        QVERIFY(healthMarkdown({verified}).contains(QStringLiteral("verified")));
        auto stored = VerificationStore(**db).recent();
        QVERIFY(stored.ok());
        QVERIFY(std::any_of(stored->begin(), stored->end(), [](const StoredVerification& v) {
            return v.verified && v.evidenceBundleId.has_value() && v.mode == QLatin1String("key");
        }));

        // Another key: the bundle is invalid, and so is the recipe's only signed evidence.
        pbtest::BundleFixture other;
        check.policy.publicKeyPem = other.signWithNewKey();
        QCOMPARE(*store.importBundles(root, &check), 3);
        const auto again = store.bundlesFor(recipe);
        QCOMPARE(again->front().signatureVerified, std::optional<bool>(false));
        QCOMPARE(again->front().checkExit, 2);
        QVERIFY(rowFor(QStringLiteral("sample-2"), recipe).status != HealthStatus::Verified);
    }

    // Issue 19: evidence import loads and verifies its bundles on every core. The stored rows and
    // verifications must be exactly what one thread stores, in the same order.
    // Issue 28: bundles are read a few at a time and hold only what their checks read, so memory
    // does not grow with their number (docs/PERFORMANCE.md measures it); what they expand to
    // together is capped, and over the cap nothing is imported.
    void bundleImportIsBatchedAndCapped() {
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("batched.sqlite"));
        auto db = Database::open(testDb.spec());
        QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
        QVERIFY(ops::seedEmbeddedCatalog(**db).ok());
        const QString recipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
        const QString root = m_tmp.filePath(QStringLiteral("many-bundles"));
        pbtest::BundleFixture f(recipe);
        f.files[QStringLiteral("logs/node.log")] = QByteArray(4 * 1024 * 1024, '\0');
        f.seal();
        const int count = QThread::idealThreadCount() * 2 + 3; // more than one batch
        for (int i = 0; i < count; ++i) {
            const QString dir = root + QStringLiteral("/b%1").arg(i, 2, 10, QLatin1Char('0'));
            if (i % 2)
                pbtest::BundleFixture::writeOciLayout(dir, pbtest::BundleFixture::tarGz(f.files));
            else
                f.writeDirectory(dir);
        }
        EvidenceStore store(**db);
        Result<BundleImportReport> capped = store.importBundleDir(root, nullptr, 10ll * 1024 * 1024);
        QVERIFY(!capped.ok());
        QVERIFY2(capped.error().message.contains(QStringLiteral("expand to more than 10 MiB")) &&
                     capped.error().message.contains(QStringLiteral("nothing was imported")),
                 qPrintable(capped.error().toString()));
        QCOMPARE(store.bundlesFor(recipe)->size(), size_t(0));
        Result<BundleImportReport> all = store.importBundleDir(root);
        QVERIFY2(all.ok(), qPrintable(all.ok() ? QString() : all.error().toString()));
        QCOMPARE(all->sources.size(), count);
        QCOMPARE(all->invalid, 0);
        QStringList sorted = all->sources;
        sorted.sort();
        QCOMPARE(all->sources, sorted); // written in source order across batches
        QCOMPARE(store.bundlesFor(recipe)->size(), size_t(count));
    }

    void concurrentImportMatchesOneThread() {
        const QString root = m_tmp.filePath(QStringLiteral("many"));
        const QStringList leaves{QStringLiteral("h100-eks-ubuntu-training-kubeflow"),
                                 QStringLiteral("gb200-eks-ubuntu-inference-dynamo"),
                                 QStringLiteral("gb200-eks-ubuntu-training-kubeflow"),
                                 QStringLiteral("gb300-aks-ubuntu-training-kubeflow")};
        QByteArray policyKey;
        for (int i = 0; i < 16; ++i) {
            pbtest::BundleFixture b(leaves.at(i % leaves.size()), i % 3 == 0 ? 1 : 0);
            b.attestedAt = QStringLiteral("2026-10-%1T10:00:00Z").arg(i + 1, 2, 10, QLatin1Char('0'));
            b.seal();
            if (i % 4 != 3) {
                const QByteArray key = b.signWithNewKey();
                if (i == 0)
                    policyKey = key; // bundle 0 verifies; the others are signed by other keys
            }
            if (i == 7 || i == 15) // unsigned and tampered after sealing: the manifest check fails
                b.files[QStringLiteral("extra.txt")] = "x";
            b.writeDirectory(root + QStringLiteral("/b%1").arg(i, 2, 10, QLatin1Char('0')));
        }
        sigstore::TrustedRoot noLogs;
        evidence::SignatureCheck check;
        check.root = &noLogs;
        check.policy.publicKeyPem = policyKey;
        check.policy.ignoreTlog = true;

        PB_TEST_DATABASE(oneThreadDb, m_tmp.path(), QStringLiteral("one-thread.sqlite"));
        PB_TEST_DATABASE(fourThreadsDb, m_tmp.path(), QStringLiteral("four-threads.sqlite"));
        auto importWith = [&](int threads, const QString& name) -> QStringList {
            QThreadPool::globalInstance()->setMaxThreadCount(threads);
            auto db = Database::open(name);
            if (!db.ok() || !ops::seedEmbeddedCatalog(**db).ok())
                return {QStringLiteral("cannot prepare %1").arg(name)};
            Result<BundleImportReport> r = EvidenceStore(**db).importBundleDir(root, &check);
            QThreadPool::globalInstance()->setMaxThreadCount(QThread::idealThreadCount());
            if (!r.ok())
                return {r.error().toString()};
            QStringList rows{
                QStringLiteral("report %1 sources, %2 invalid").arg(r->sources.size()).arg(r->invalid)};
            rows << r->sources;
            QSqlQuery q((*db)->sql());
            q.exec(QStringLiteral(
                "SELECT id, source, oci_digest, recipe, predicate_type, attested_at, aicr_version, "
                "recipe_digest, "
                "recipe_version, phases, signed, check_exit, check_steps, ctrf_tests, signature_verified, "
                "signature_detail FROM evidence_bundles ORDER BY id"));
            while (q.next()) {
                QStringList cols;
                for (int c = 0; c < 16; ++c)
                    cols << q.value(c).toString();
                rows << cols.join(QLatin1Char('|'));
            }
            q.exec(QStringLiteral("SELECT evidence_bundle_id, bundle_sha256, mode, verified, summary FROM "
                                  "verifications ORDER BY id"));
            while (q.next())
                rows << QStringLiteral("verification %1 %2 %3 %4 %5")
                            .arg(q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                                 q.value(3).toString(), q.value(4).toString());
            return rows;
        };
        const QStringList one = importWith(1, oneThreadDb.spec());
        const QStringList many = importWith(4, fourThreadsDb.spec());
        QCOMPARE(one.size(),
                 1 + 16 + 16 + 12); // report, sources, bundle rows, one verification per signed bundle
        // Invalid: the 11 signed by another key than the policy's (1, 2, 4-6, 8-10, 12-14) and the two
        // tampered (7, 15); bundle 0 verifies, 3 and 11 are unsigned and intact.
        QCOMPARE(one.first(), QStringLiteral("report 16 sources, 13 invalid"));
        QCOMPARE(many, one);
        QVERIFY(
            one.join(QLatin1Char('\n')).contains(QStringLiteral("manifest"))); // the tampered ones say why
    }

    // An incomplete bundle (checks that could not run) is neither invalid nor verified: the import
    // counts it apart, and the health row says "verified, incomplete" once its signature verifies.
    void incompleteBundleIsRatedApart() {
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("incomplete.sqlite"));
        auto db = Database::open(testDb.spec());
        QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
        QVERIFY(ops::seedEmbeddedCatalog(**db).ok());
        const QString recipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
        pbtest::BundleFixture b(recipe);
        b.files[QStringLiteral("ctrf/conformance.json")] =
            pbtest::ctrfWithOther(b.files[QStringLiteral("ctrf/conformance.json")], 1);
        b.seal();
        const QByteArray key = b.signWithNewKey();
        const QString root = m_tmp.filePath(QStringLiteral("incomplete-bundles"));
        b.writeDirectory(root + QStringLiteral("/a"));
        sigstore::TrustedRoot noLogs;
        evidence::SignatureCheck check;
        check.root = &noLogs;
        check.policy.publicKeyPem = key;
        check.policy.ignoreTlog = true;
        EvidenceStore store(**db);
        Result<BundleImportReport> r = store.importBundleDir(root, &check);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QCOMPARE(r->invalid, 0);
        QCOMPARE(r->incomplete, 1);
        const std::vector<BundleRecord> bundles = *store.bundlesFor(recipe);
        QCOMPARE(bundles.size(), size_t(1));
        QCOMPARE(bundles.front().checkExit, 3);
        QCOMPARE(bundles.front().signatureVerified, std::optional<bool>(true));
        CatalogStore catalogs(**db);
        for (const HealthRow& row : *store.health(catalogs.version(QStringLiteral("sample-2"))->id)) {
            if (row.recipe != recipe)
                continue;
            QCOMPARE(row.status, HealthStatus::VerifiedIncomplete);
            QVERIFY(row.incomplete);
            QVERIFY(!row.failedPhases);
            QVERIFY2(row.reason.contains(QStringLiteral("incomplete")), qPrintable(row.reason));
            QCOMPARE(evidence::healthStatusName(row.status), QStringLiteral("verified, incomplete"));
            return;
        }
        QFAIL("no health row for the recipe");
    }

    void realEvidenceHealth() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/2026-08-19/recipes/evidence"));
        PB_TEST_DATABASE(testDb, m_tmp.path(), QStringLiteral("real.sqlite"));
        auto db = Database::open(testDb.spec());
        QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
        Result<catalog::Catalog> cat =
            catalog::loadCatalog(pbtest::realCatalog(QStringLiteral("2026-08-19")));
        QVERIFY(cat.ok());
        QVERIFY(CatalogStore(**db).importCatalog(QStringLiteral("2026-08-19"), *cat).ok());
        Result<evidence::EvidenceTree> tree =
            evidence::scanEvidence(pbtest::realCatalog(QStringLiteral("2026-08-19")));
        QVERIFY(tree.ok());
        EvidenceStore store(**db);
        Result<EvidenceImportReport> r = store.importTree(*tree);
        QVERIFY(r.ok());
        QCOMPARE(r->invalid, 0);
        Result<std::vector<HealthRow>> rows =
            store.health(CatalogStore(**db).version(QStringLiteral("2026-08-19"))->id);
        QVERIFY(rows.ok());
        int signedRows = 0, pointers = 0;
        for (const HealthRow& row : *rows) {
            signedRows += row.status == HealthStatus::Signed ? 1 : 0;
            pointers += row.pointers;
        }
        QCOMPARE(pointers, static_cast<int>(tree->pointers.size())); // every pointer lands in a row
        QVERIFY(signedRows >= 1);
        // Evidence recorded before AKS recipes carried a profile lands on the profiled recipe of the
        // same leaf overlay, flagged stale with the old name in the reason.
        bool matched = false;
        for (const HealthRow& row : *rows)
            if (row.recipe == QLatin1String("h100-aks-ubuntu-training-kubeflow-gpustack-azure-managed")) {
                matched = true;
                QCOMPARE(row.status, HealthStatus::Stale);
                QVERIFY(row.pointers > 0);
                QVERIFY(row.reason.contains(QStringLiteral("'h100-aks-ubuntu-training-kubeflow'")));
            }
        QVERIFY(matched);
    }
};

QTEST_GUILESS_MAIN(TestEvidenceStore)
#include "tst_evidencestore.moc"
