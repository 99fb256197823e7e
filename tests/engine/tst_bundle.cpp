// Evidence bundles: our own fixture bundles (directory and OCI layout) pass the offline integrity
// checks, and tampered copies are refused for the right reason.
#include "BundleFixture.h"
#include "SigstoreCases.h"
#include "TestUtil.h"
#include "core/Hash.h"
#include "evidence/Bundle.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using namespace pb::evidence;

namespace {

const CheckStep* stepNamed(const BundleCheck& c, const QString& name) {
    for (const CheckStep& s : c.steps)
        if (s.name == name)
            return &s;
    return nullptr;
}

BundleCheck checkDir(const pbtest::BundleFixture& f, const Pointer* pointer = nullptr,
                     const SignatureCheck* sig = nullptr) {
    QTemporaryDir tmp;
    Result<SummaryBundle> b = loadBundle(f.writeDirectory(tmp.path()));
    if (!b)
        qFatal("%s", qPrintable(b.error().toString()));
    return checkBundle(*b, pointer, sig);
}

Pointer pointerFor(const QString& recipe, const QString& digest, bool withSigner, const QString& attestedAt) {
    QByteArray y = "attestations:\n  - attestedAt: " + attestedAt.toUtf8() +
                   "\n    bundle:\n      digest: " + digest.toUtf8() +
                   "\n      oci: ghcr.io/example/aicr-evidence:x\n      predicateType: "
                   "https://aicr.run/recipe-evidence/v3\n";
    if (withSigner)
        y += "    signer:\n      identity: someone@example.com\n      issuer: "
             "https://github.com/login/oauth\n";
    y += "recipe: " + recipe.toUtf8() + "\nschemaVersion: 1.0.0\n";
    return parsePointer(y, recipe + QStringLiteral(".yaml"));
}

} // namespace

class TestBundle : public QObject {
    Q_OBJECT
  private slots:
    void validDirectoryBundle() {
        const pbtest::BundleFixture f;
        const BundleCheck c = checkDir(f);
        QVERIFY2(c.exitCode == 0, qPrintable(c.toText()));
        QCOMPARE(stepNamed(c, QStringLiteral("manifest-hash-check"))->status, StepStatus::Passed);
        QCOMPARE(stepNamed(c, QStringLiteral("recipe-binding"))->status, StepStatus::Passed);
        QCOMPARE(stepNamed(c, QStringLiteral("signature-verify"))->status, StepStatus::Skipped);
        QVERIFY(stepNamed(c, QStringLiteral("signature-verify"))->detail.contains(QStringLiteral("pending")));
        QCOMPARE(c.ctrf.value(QStringLiteral("conformance")).passed, 10);
        QCOMPARE(c.ctrf.value(QStringLiteral("deployment")).results.size(), size_t(4));
        QCOMPARE(c.predicate->recipeName, QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
        QCOMPARE(c.toJson().value("exit").toInt(), 0);
    }

    void signedBundleIsVerifiedAndBound() {
        // A key-signed attestation (no log entry, as a locally signed bundle) over the bundle's statement.
        pbtest::BundleFixture f;
        const QByteArray pem = f.signWithNewKey();
        QVERIFY(!pem.isEmpty());
        sigstore::TrustedRoot emptyRoot;
        SignatureCheck sig;
        sig.root = &emptyRoot;
        sig.policy.publicKeyPem = pem;
        sig.policy.ignoreTlog = true;
        BundleCheck c = checkDir(f, nullptr, &sig);
        QVERIFY2(c.exitCode == 0, qPrintable(c.toText()));
        QCOMPARE(stepNamed(c, QStringLiteral("signature-verify"))->status, StepStatus::Passed);
        QVERIFY(c.signature && c.signature->verified);

        // Without a trusted root the signature is present but not checked.
        c = checkDir(f);
        QCOMPARE(stepNamed(c, QStringLiteral("signature-verify"))->status, StepStatus::Skipped);
        QVERIFY(stepNamed(c, QStringLiteral("signature-verify"))
                    ->detail.contains(QStringLiteral("no trusted root")));

        // Another key: refused, and the bundle is invalid.
        pbtest::BundleFixture other;
        sig.policy.publicKeyPem = other.signWithNewKey();
        c = checkDir(f, nullptr, &sig);
        QCOMPARE(c.exitCode, 2);
        QCOMPARE(stepNamed(c, QStringLiteral("signature-verify"))->status, StepStatus::Failed);
        QVERIFY(
            stepNamed(c, QStringLiteral("signature-verify"))->detail.contains(QStringLiteral("signature")));

        // The unsigned statement swapped for another: the signature no longer covers what the bundle says.
        sig.policy.publicKeyPem = pem;
        pbtest::BundleFixture swapped = f;
        swapped.attestedAt = QStringLiteral("2026-10-02T10:00:00Z");
        const QByteArray attestation = swapped.files[QStringLiteral("attestation.intoto.jsonl")];
        swapped.seal();
        swapped.files[QStringLiteral("attestation.intoto.jsonl")] = attestation;
        c = checkDir(swapped, nullptr, &sig);
        QCOMPARE(c.exitCode, 2);
        QVERIFY(stepNamed(c, QStringLiteral("signature-verify"))
                    ->detail.contains(QStringLiteral("not statement.intoto.json")));
    }

    void keylessAttestationWithRealSigstoreData() {
        // The current AICR encoding (DSSE logged to Rekor v2 as hashedrekord 0.0.2, plus a TSA
        // timestamp) from the conformance set, carried in a summary bundle.
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-dsse-happy-path"));
        pbtest::SigstoreCase sc;
        for (const auto& c : pbtest::sigstoreCases())
            if (c.name == QLatin1String("rekor2-dsse-happy-path"))
                sc = c;
        const QByteArray bundleJson = pbtest::readAll(sc.file(QStringLiteral("bundle.sigstore.json")));
        const QByteArray payload = QByteArray::fromBase64(QJsonDocument::fromJson(bundleJson)
                                                              .object()[QStringLiteral("dsseEnvelope")]
                                                              .toObject()[QStringLiteral("payload")]
                                                              .toString()
                                                              .toLatin1());
        pbtest::BundleFixture f;
        f.files[QStringLiteral("statement.intoto.json")] = payload;
        f.files[QStringLiteral("attestation.intoto.jsonl")] = bundleJson;
        auto root = sigstore::loadTrustedRoot(sc.file(QStringLiteral("trusted_root.json")));
        QVERIFY(root.ok());
        SignatureCheck sig;
        sig.root = &*root;
        BundleCheck c = checkDir(f, nullptr, &sig);
        const CheckStep* s = stepNamed(c, QStringLiteral("signature-verify"));
        QVERIFY2(s->status == StepStatus::Passed, qPrintable(c.toText()));
        QVERIFY(s->detail.contains(sc.identity));
        QVERIFY(s->detail.contains(sc.issuer));

        // A pointer claiming another signer: the certificate identity does not match it.
        const Pointer claimed =
            pointerFor(c.predicate->recipeName, QStringLiteral("sha256:") + QString(64, QLatin1Char('a')),
                       true, QStringLiteral("2026-10-01T10:00:00Z"));
        c = checkDir(f, &claimed, &sig);
        s = stepNamed(c, QStringLiteral("signature-verify"));
        QCOMPARE(s->status, StepStatus::Failed);
        QVERIFY2(s->detail.contains(QStringLiteral("identity")), qPrintable(s->detail));
        const sigstore::Step* id = nullptr;
        for (const auto& st : c.signature->steps)
            if (st.name == QLatin1String("identity"))
                id = &st;
        QVERIFY(id && id->expected.contains(QStringLiteral("someone@example.com")) &&
                id->found.contains(sc.identity));
    }

    void failedPhaseIsValidWithExitOne() {
        const pbtest::BundleFixture f(QStringLiteral("h100-eks-ubuntu-training-kubeflow"), 1);
        const BundleCheck c = checkDir(f);
        QCOMPARE(c.exitCode, 1);
        QCOMPARE(c.ctrf.value(QStringLiteral("performance")).failed, 1);
    }

    void tamperedBundlesAreRefused_data() {
        QTest::addColumn<int>("tamper");
        QTest::addColumn<QString>("step");
        QTest::addColumn<QString>("reason");
        QTest::addRow("changed CTRF byte") << 0 << "manifest-hash-check"
                                           << "ctrf/conformance.json: sha256 differs";
        QTest::addRow("extra file") << 1 << "manifest-hash-check"
                                    << "notes.txt: not listed in the manifest";
        QTest::addRow("wrong manifest digest") << 2 << "manifest-hash-check"
                                               << "sha256(manifest.json) is";
        QTest::addRow("renamed recipe") << 3 << "recipe-binding"
                                        << "the predicate names 'h100-gke-cos-training-kubeflow'";
        QTest::addRow("recipe edited, digest kept") << 4 << "manifest-hash-check"
                                                    << "recipe.yaml: sha256 differs";
        QTest::addRow("missing file") << 5 << "manifest-hash-check"
                                      << "bom.cdx.json: listed but missing";
    }
    void tamperedBundlesAreRefused() {
        QFETCH(int, tamper);
        QFETCH(QString, step);
        QFETCH(QString, reason);
        pbtest::BundleFixture f;
        switch (tamper) {
        case 0: {
            QByteArray& b = f.files[QStringLiteral("ctrf/conformance.json")];
            b[b.indexOf("passed")] = 'P';
            break;
        }
        case 1:
            f.files[QStringLiteral("notes.txt")] = "added after sealing\n";
            break;
        case 2:
            f.files[QStringLiteral("manifest.json")].append('\n');
            break;
        case 3:
            f.recipeName = QStringLiteral("h100-gke-cos-training-kubeflow");
            f.seal();
            break;
        case 4:
            f.files[QStringLiteral("recipe.yaml")].replace("v26.7.1", "v26.7.2");
            break;
        case 5:
            f.files.remove(QStringLiteral("bom.cdx.json"));
            break;
        }
        const BundleCheck c = checkDir(f);
        QCOMPARE(c.exitCode, 2);
        const CheckStep* s = stepNamed(c, step);
        QVERIFY(s);
        QCOMPARE(s->status, StepStatus::Failed);
        QVERIFY2(s->detail.contains(reason), qPrintable(s->detail));
    }

    void ociLayoutAndPointerCoherence() {
        const pbtest::BundleFixture f;
        QTemporaryDir tmp;
        const QString digest =
            pbtest::BundleFixture::writeOciLayout(tmp.path(), pbtest::BundleFixture::tarGz(f.files));
        Result<SummaryBundle> b = loadBundle(tmp.path());
        QVERIFY2(b.ok(), qPrintable(b.ok() ? QString() : b.error().toString()));
        QCOMPARE(b->ociManifestDigest, digest);
        QCOMPARE(b->paths().size(), f.files.size());
        const Pointer good = pointerFor(f.recipeName, digest, false, f.attestedAt);
        BundleCheck c = checkBundle(*b, &good);
        QVERIFY2(c.exitCode == 0, qPrintable(c.toText()));
        QCOMPARE(stepNamed(c, QStringLiteral("pointer-coherence"))->status, StepStatus::Passed);
        // A pointer pinning another digest, or naming another recipe.
        const Pointer other =
            pointerFor(QStringLiteral("gb200-eks-ubuntu-training-kubeflow"),
                       QStringLiteral("sha256:") + QString(64, QLatin1Char('0')), false, f.attestedAt);
        c = checkBundle(*b, &other);
        QCOMPARE(c.exitCode, 2);
        QVERIFY(stepNamed(c, QStringLiteral("pointer-coherence"))
                    ->detail.contains(QStringLiteral("pins sha256:0000")));
        // A pointer that claims a signer while the bundle is unsigned.
        const Pointer claims = pointerFor(f.recipeName, digest, true, f.attestedAt);
        c = checkBundle(*b, &claims);
        QCOMPARE(c.exitCode, 2);
        QCOMPARE(stepNamed(c, QStringLiteral("signature-verify"))->status, StepStatus::Failed);
        // A corrupted blob is caught by its digest.
        QFile blob(tmp.path() + QStringLiteral("/blobs/sha256/") + digest.mid(7));
        QVERIFY(blob.open(QIODevice::Append));
        blob.write(" ");
        blob.close();
        Result<SummaryBundle> broken = loadBundle(tmp.path());
        QVERIFY(!broken.ok());
        QVERIFY(broken.error().message.contains(QStringLiteral("does not match its digest")));
    }

    // Issue 28: loading streams every file through SHA-256 and keeps in memory only what the checks
    // read; a large file the manifest lists is judged by the digest taken while streaming.
    void loadingKeepsOnlyWhatTheChecksRead() {
        pbtest::BundleFixture f;
        const QByteArray big(32 * 1024 * 1024, '\0');
        f.files[QStringLiteral("logs/node-0.log")] = big;
        f.seal();
        for (const bool oci : {false, true}) {
            QTemporaryDir tmp;
            const QString path = oci ? (pbtest::BundleFixture::writeOciLayout(
                                            tmp.path(), pbtest::BundleFixture::tarGz(f.files)),
                                        tmp.path())
                                     : f.writeDirectory(tmp.path());
            Result<SummaryBundle> b = loadBundle(path);
            QVERIFY2(b.ok(), qPrintable(b.ok() ? QString() : b.error().toString()));
            QVERIFY(!b->files.contains(QStringLiteral("logs/node-0.log")));
            QVERIFY(!b->files.contains(QStringLiteral("snapshot.yaml")));
            for (auto it = b->files.cbegin(); it != b->files.cend(); ++it)
                QVERIFY2(checkedContent(it.key()), qPrintable(it.key()));
            QCOMPARE(b->digests.value(QStringLiteral("logs/node-0.log")).size, big.size());
            QCOMPARE(b->digests.value(QStringLiteral("logs/node-0.log")).sha256, sha256(big));
            QVERIFY(b->expandedBytes > big.size());
            QCOMPARE(b->paths().size(), f.files.size());
            const BundleCheck c = checkBundle(*b);
            QVERIFY2(c.exitCode == 0, qPrintable(c.toText()));
            // Everything, when asked (a fetched layout is unpacked whole).
            Result<SummaryBundle> all = loadBundle(path, BundleContent::All);
            QVERIFY(all.ok());
            QCOMPARE(all->files.value(QStringLiteral("logs/node-0.log")), big);
            if (oci)
                continue;
            // One byte changed in the unkept file: its streamed digest no longer matches the manifest.
            QFile log(path + QStringLiteral("/logs/node-0.log"));
            QVERIFY(log.open(QIODevice::ReadWrite));
            log.seek(big.size() / 2);
            log.write("x");
            log.close();
            Result<SummaryBundle> edited = loadBundle(path);
            QVERIFY(edited.ok());
            const BundleCheck bad = checkBundle(*edited);
            QCOMPARE(bad.exitCode, 2);
            QVERIFY2(stepNamed(bad, QStringLiteral("manifest-hash-check"))
                         ->detail.contains(QStringLiteral("logs/node-0.log: sha256 differs")),
                     qPrintable(bad.toText()));
        }
    }

    // The members a streamed layer keeps in memory are capped apart from what it expands to, and a
    // layer whose bytes are not its digest is refused even when its archive reads well.
    void streamedLayerLimits() {
        QTemporaryDir tmp;
        const QByteArray layer =
            pbtest::BundleFixture::tarGz({{QStringLiteral("ctrf/a.json"), QByteArray(3 * 1024 * 1024, 'a')},
                                          {QStringLiteral("ctrf/b.json"), QByteArray(3 * 1024 * 1024, 'b')},
                                          {QStringLiteral("big.bin"), QByteArray(20 * 1024 * 1024, '\0')}});
        const QString file = tmp.filePath(QStringLiteral("layer.tar.gz"));
        pbtest::writeBytes(file, layer);
        const auto keepCtrf = [](const QString& p) { return p.startsWith(QLatin1String("ctrf/")); };
        Result<TarContents> ok =
            streamTarFile(file, QStringLiteral("layer"), ExtractLimits{100, 64 << 20, 64 << 20, 8 << 20},
                          keepCtrf, sha256(layer));
        QVERIFY2(ok.ok(), qPrintable(ok.ok() ? QString() : ok.error().toString()));
        QCOMPARE(ok->files.size(), 2);
        QCOMPARE(ok->digests.size(), 3);
        QCOMPARE(ok->digests.value(QStringLiteral("big.bin")).sha256,
                 sha256(QByteArray(20 * 1024 * 1024, '\0')));
        Result<TarContents> capped = streamTarFile(file, QStringLiteral("layer"),
                                                   ExtractLimits{100, 64 << 20, 64 << 20, 4 << 20}, keepCtrf);
        QVERIFY(!capped.ok());
        QVERIFY2(capped.error().message.contains(QStringLiteral("kept in memory exceed 4 MiB")),
                 qPrintable(capped.error().toString()));
        Result<TarContents> wrong =
            streamTarFile(file, QStringLiteral("layer"), ExtractLimits{}, keepCtrf, sha256("something else"));
        QVERIFY(!wrong.ok());
        QVERIFY(wrong.error().message.contains(QStringLiteral("does not match its digest")));
    }

    void hostileArchivesAreRefused_data() {
        QTest::addColumn<QString>("member");
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("reason");
        QTest::addRow("traversal") << "../../etc/evil" << int(AE_IFREG) << "path traversal";
        QTest::addRow("nested traversal") << "ctrf/../../evil" << int(AE_IFREG) << "path traversal";
        QTest::addRow("absolute path") << "/etc/evil" << int(AE_IFREG) << "absolute path";
        QTest::addRow("symlink") << "ctrf/link" << int(AE_IFLNK) << "links are refused";
        QTest::addRow("device") << "dev/null" << int(AE_IFCHR) << "only regular files";
        QTest::addRow("fifo") << "pipe" << int(AE_IFIFO) << "only regular files";
    }
    void hostileArchivesAreRefused() {
        QFETCH(QString, member);
        QFETCH(int, type);
        QFETCH(QString, reason);
        const pbtest::BundleFixture f;
        const QByteArray layer = pbtest::BundleFixture::tarGz(f.files, {{member, type}});
        Result<QMap<QString, QByteArray>> files = extractTar(layer, QStringLiteral("layer"));
        QVERIFY(!files.ok());
        QVERIFY2(files.error().message.contains(reason), qPrintable(files.error().toString()));
        QVERIFY(files.error().file.contains(member.section(QLatin1Char('/'), -1)));
        // The same through an OCI layout: nothing is written anywhere, the load fails.
        QTemporaryDir tmp;
        pbtest::BundleFixture::writeOciLayout(tmp.path(), layer);
        QVERIFY(!loadBundle(tmp.path()).ok());
        QVERIFY(!QFileInfo::exists(tmp.path() + QStringLiteral("/../evil")));
    }

    void archiveLimits() {
        QMap<QString, QByteArray> many;
        for (int i = 0; i < 30; ++i)
            many.insert(QStringLiteral("f%1").arg(i), QByteArray(100, 'x'));
        ExtractLimits limits;
        limits.maxMembers = 20;
        Result<QMap<QString, QByteArray>> r =
            extractTar(pbtest::BundleFixture::tarGz(many), QStringLiteral("layer"), limits);
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QStringLiteral("more than 20 members")));
        limits = ExtractLimits{};
        limits.maxMemberBytes = 50;
        r = extractTar(pbtest::BundleFixture::tarGz(many), QStringLiteral("layer"), limits);
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QStringLiteral("larger than")));
        QVERIFY(!extractTar("not an archive at all", QStringLiteral("junk")).ok());
    }

    void ctrfParsing() {
        Result<CtrfReport> bad = parseCtrf("{\"nope\": 1}", QStringLiteral("ctrf/deployment.json"));
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.contains(QStringLiteral("not a CTRF report")));
        PB_REQUIRE_SHARED(QStringLiteral("aicr/samples/ctrf-run"));
        QDirIterator it(pbtest::sharedData(QStringLiteral("aicr/samples/ctrf-run")),
                        {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
        int parsed = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            if (!path.contains(QLatin1String("/ctrf/")))
                continue; // meta.json and friends
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            Result<CtrfReport> r = parseCtrf(f.readAll(), f.fileName());
            QVERIFY2(r.ok(), qPrintable(f.fileName()));
            QCOMPARE(static_cast<int>(r->results.size()), r->tests);
            QCOMPARE(r->passed + r->failed + r->skipped + r->pending + r->other, r->tests);
            ++parsed;
        }
        QVERIFY(parsed > 0);
    }
};

QTEST_GUILESS_MAIN(TestBundle)
#include "tst_bundle.moc"
