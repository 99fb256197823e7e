// Keys, offline signing and deployment bundles: what Proofbench signs verifies in Proofbench and, in
// the same run, in sigstore-js (when node and the pinned npm packages are installed); a flipped byte
// makes both refuse. Cosign's key format round-trips.
#include "BundleFixture.h"
#include "TestUtil.h"
#include "bundle/DeploymentBundle.h"
#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "evidence/Sign.h"
#include "sigstore/Keys.h"
#include "sigstore/Sign.h"
#include "sigstore/Verify.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using namespace pb::sigstore;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void write(const QString& path, const QByteArray& bytes) {
    pbtest::writeBytes(path, bytes);
}

Policy keyPolicy(EVP_PKEY* key) {
    Policy p;
    p.publicKeyPem = publicKeyPem(key);
    p.ignoreTlog = true;
    return p;
}

// sigstore-js, installed by the test command into the build tree; empty when unavailable.
QString sigstoreJs() {
    const QString dir = QStringLiteral(PB_SIGSTORE_JS_DIR);
    if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty() ||
        !QFileInfo::exists(dir + QStringLiteral("/node_modules/@sigstore/verify/package.json")))
        return {};
    return dir;
}

// 0 verified, 1 refused.
int jsVerify(const QString& bundle, const QString& pub, const QString& artifact = {}) {
    QProcess p;
    QStringList args{QStringLiteral(PB_SOURCE_DIR "/tests/interop/sigstore-js-verify.mjs"), sigstoreJs(),
                     bundle, pub};
    if (!artifact.isEmpty())
        args << artifact;
    p.start(QStringLiteral("node"), args);
    p.waitForFinished(60000);
    if (p.exitCode() > 1)
        qWarning() << p.readAllStandardError();
    return p.exitCode();
}

QByteArray flipByteOfSignature(const QByteArray& bundleJson) {
    QJsonObject o = QJsonDocument::fromJson(bundleJson).object();
    auto flip = [](const QString& b64) {
        QByteArray raw = QByteArray::fromBase64(b64.toLatin1());
        raw[raw.size() - 2] = char(raw[raw.size() - 2] ^ 0x01);
        return QString::fromLatin1(raw.toBase64());
    };
    if (o.contains(QStringLiteral("messageSignature"))) {
        QJsonObject m = o[QStringLiteral("messageSignature")].toObject();
        m[QStringLiteral("signature")] = flip(m[QStringLiteral("signature")].toString());
        o[QStringLiteral("messageSignature")] = m;
    } else {
        QJsonObject d = o[QStringLiteral("dsseEnvelope")].toObject();
        QJsonArray sigs = d[QStringLiteral("signatures")].toArray();
        QJsonObject s = sigs[0].toObject();
        s[QStringLiteral("sig")] = flip(s[QStringLiteral("sig")].toString());
        sigs[0] = s;
        d[QStringLiteral("signatures")] = sigs;
        o[QStringLiteral("dsseEnvelope")] = d;
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// A deployment bundle in AICR's helm-deployer layout.
void writeDeploymentTree(const QString& dir) {
    write(dir + QStringLiteral("/README.md"), "# Deployment bundle\n");
    write(dir + QStringLiteral("/deploy.sh"),
          "#!/bin/sh\nfor d in [0-9][0-9][0-9]-*/; do (cd \"$d\" && ./install.sh); done\n");
    write(dir + QStringLiteral("/recipe.yaml"),
          "kind: RecipeResult\napiVersion: aicr.run/v1\nmetadata:\n  name: h100-eks-ubuntu-training\n");
    for (const auto& [n, c] :
         {std::pair{1, "cert-manager"}, std::pair{2, "gpu-operator"}, std::pair{3, "network-operator"}}) {
        const QString d =
            dir + QStringLiteral("/%1-%2").arg(n, 3, 10, QLatin1Char('0')).arg(QLatin1String(c));
        write(d + QStringLiteral("/install.sh"), QByteArray("#!/bin/sh\nhelm upgrade --install ") + c + "\n");
        write(d + QStringLiteral("/values.yaml"), QByteArray("# values for ") + c + "\nreplicas: 1\n");
        write(d + QStringLiteral("/upstream.env"), QByteArray("CHART=") + c + "\nVERSION=v1.0.0\n");
    }
}

} // namespace

class TestSigning : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

  private slots:
    void initTestCase() {
        if (sigstoreJs().isEmpty())
            qInfo("sigstore-js not installed (needs node and `npm ci` of tools/bench/sigstore-js into %s): "
                  "the interop halves "
                  "of these tests are skipped",
                  PB_SIGSTORE_JS_DIR);
    }

    void privateKeysAreEncryptedAtRest() {
        crypto::Pkey key = generateSigningKey();
        QVERIFY(key);
        QVERIFY(!encryptPrivateKey(key.get(), Passphrase()).ok()); // never written in the clear
        auto pem = encryptPrivateKey(key.get(), Passphrase("correct horse"));
        QVERIFY(pem.ok());
        QVERIFY(pem->startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
        QVERIFY(!pem->contains("correct horse"));
        auto back = readPrivateKey(*pem, Passphrase("correct horse"), QStringLiteral("k.key"));
        QVERIFY(back.ok());
        QCOMPARE(keyFingerprint(back->get()), keyFingerprint(key.get()));
        auto wrong = readPrivateKey(*pem, Passphrase("battery staple"), QStringLiteral("k.key"));
        QVERIFY(!wrong);
        QCOMPARE(wrong.error().file, QStringLiteral("k.key"));
        QVERIFY(wrong.error().message.contains(QStringLiteral("wrong passphrase")));
        // An unencrypted key is refused for signing (imported only through keygen --from).
        BIO* bio = BIO_new(BIO_s_mem());
        PEM_write_bio_PrivateKey(bio, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
        char* data = nullptr;
        const long clearLen = BIO_get_mem_data(bio, &data);
        const QByteArray clear(data, int(clearLen));
        BIO_free(bio);
        QVERIFY(!readPrivateKey(clear, Passphrase("x"), QStringLiteral("plain.pem")));
        QVERIFY(readAnyPrivateKey(clear, Passphrase(), QStringLiteral("plain.pem")).ok());
        // Issue 30: one spelling for a key: sha256:<hex> of the SPKI; the bundle hint is the same digest
        // in base64, and reads back as the fingerprint.
        QCOMPARE(keyFingerprint(key.get()),
                 QStringLiteral("sha256:") + QString::fromLatin1(sha256(crypto::spkiDer(key.get())).toHex()));
        QCOMPARE(keyHint(key.get()), QString::fromLatin1(sha256(crypto::spkiDer(key.get())).toBase64()));
        QCOMPARE(fingerprintFromHint(keyHint(key.get())), keyFingerprint(key.get()));
        QCOMPARE(fingerprintFromHint(QStringLiteral("not base64 of 32 bytes")),
                 QStringLiteral("not base64 of 32 bytes"));
    }

    void cosignKeyFormatRoundTrips() {
        crypto::Pkey key = generateSigningKey();
        auto exported = exportCosignKey(key.get(), Passphrase("pw"));
        QVERIFY(exported.ok());
        QVERIFY(exported->startsWith("-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----"));
        // The body is cosign's JSON: scrypt N=65536 r=8 p=1 and a NaCl secretbox.
        const QByteArray body =
            QByteArray::fromBase64(exported->split('\n').mid(1, exported->split('\n').size() - 3).join());
        const QJsonObject doc = QJsonDocument::fromJson(body).object();
        QCOMPARE(doc[QStringLiteral("kdf")]
                     .toObject()[QStringLiteral("params")]
                     .toObject()[QStringLiteral("N")]
                     .toInt(),
                 65536);
        QCOMPARE(doc[QStringLiteral("cipher")].toObject()[QStringLiteral("name")].toString(),
                 QStringLiteral("nacl/secretbox"));
        QCOMPARE(QByteArray::fromBase64(
                     doc[QStringLiteral("kdf")].toObject()[QStringLiteral("salt")].toString().toLatin1())
                     .size(),
                 32);
        auto imported = readPrivateKey(*exported, Passphrase("pw"), QStringLiteral("cosign.key"));
        QVERIFY(imported.ok());
        QCOMPARE(keyFingerprint(imported->get()), keyFingerprint(key.get()));
        QVERIFY(!importCosignKey(*exported, Passphrase("nope"), QStringLiteral("cosign.key")));
        // Re-import, sign, verify: the imported key signs what the original's public key verifies.
        auto bundle = signBlob(imported->get(), "payload");
        QVERIFY(bundle.ok());
        QVERIFY(verifyBundle(*bundle, QStringLiteral("b"), Artifact::fromBytes("payload"), TrustedRoot{},
                             keyPolicy(key.get()))
                    .verified);
        // Costs outside cosign's set are refused before any work is done.
        QByteArray tampered = QJsonDocument(doc).toJson(QJsonDocument::Compact).replace("65536", "1048576");
        const QByteArray pem = "-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----\n" + tampered.toBase64() +
                               "\n-----END ENCRYPTED SIGSTORE PRIVATE KEY-----\n";
        auto refused = importCosignKey(pem, Passphrase("pw"), QStringLiteral("evil.key"));
        QVERIFY(!refused);
        QCOMPARE(refused.error().field, QStringLiteral("kdf.params"));
    }

    void signedBlobVerifiesHereAndInSigstoreJs() {
        crypto::Pkey key = generateSigningKey();
        const QString dir = m_tmp.filePath(QStringLiteral("blob"));
        write(dir + QStringLiteral("/artifact.bin"), "the artifact bytes\n");
        write(dir + QStringLiteral("/key.pub"), publicKeyPem(key.get()));
        auto bundle = signBlob(key.get(), readAll(dir + QStringLiteral("/artifact.bin")));
        QVERIFY(bundle.ok());
        write(dir + QStringLiteral("/good.sigstore.json"), *bundle);
        write(dir + QStringLiteral("/bad.sigstore.json"), flipByteOfSignature(*bundle));
        const Artifact artifact = Artifact::fromBytes(readAll(dir + QStringLiteral("/artifact.bin")));
        const VerificationResult ok =
            verifyBundle(*bundle, QStringLiteral("good"), artifact, TrustedRoot{}, keyPolicy(key.get()));
        QVERIFY2(ok.verified, qPrintable(ok.toText()));
        // The key is named as keygen names it (a prefix of the same spelling), never another form.
        QVERIFY2(ok.toText().contains(keyFingerprint(key.get()).left(23)), qPrintable(ok.toText()));
        const VerificationResult bad =
            verifyBundle(readAll(dir + QStringLiteral("/bad.sigstore.json")), QStringLiteral("bad"), artifact,
                         TrustedRoot{}, keyPolicy(key.get()));
        QVERIFY(!bad.verified);
        QCOMPARE(bad.firstFailure()->name, QStringLiteral("signature"));
        // The hint is the key's digest (base64); another key is refused.
        QCOMPARE(QJsonDocument::fromJson(*bundle)
                     .object()[QStringLiteral("verificationMaterial")]
                     .toObject()[QStringLiteral("publicKey")]
                     .toObject()[QStringLiteral("hint")]
                     .toString(),
                 keyHint(key.get()));
        crypto::Pkey other = generateSigningKey();
        QVERIFY(
            !verifyBundle(*bundle, QStringLiteral("good"), artifact, TrustedRoot{}, keyPolicy(other.get()))
                 .verified);
        if (sigstoreJs().isEmpty())
            QSKIP("sigstore-js not installed; Proofbench's half passed");
        QCOMPARE(jsVerify(dir + QStringLiteral("/good.sigstore.json"), dir + QStringLiteral("/key.pub"),
                          dir + QStringLiteral("/artifact.bin")),
                 0);
        QCOMPARE(jsVerify(dir + QStringLiteral("/bad.sigstore.json"), dir + QStringLiteral("/key.pub"),
                          dir + QStringLiteral("/artifact.bin")),
                 1);
        write(dir + QStringLiteral("/other.bin"), "other bytes\n");
        QCOMPARE(jsVerify(dir + QStringLiteral("/good.sigstore.json"), dir + QStringLiteral("/key.pub"),
                          dir + QStringLiteral("/other.bin")),
                 1);
    }

    void attestationVerifiesHereAndInSigstoreJs() {
        crypto::Pkey key = generateSigningKey();
        const QString dir = m_tmp.filePath(QStringLiteral("attest"));
        write(dir + QStringLiteral("/key.pub"), publicKeyPem(key.get()));
        const QString subjectHex = sha256Hex("subject bytes");
        const QByteArray statement = inTotoStatement({Subject{QStringLiteral("thing.tar"), subjectHex}},
                                                     QStringLiteral("https://example.com/p/v1"),
                                                     QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}});
        auto bundle = attest(key.get(), statement);
        QVERIFY(bundle.ok());
        write(dir + QStringLiteral("/good.json"), *bundle);
        write(dir + QStringLiteral("/bad.json"), flipByteOfSignature(*bundle));
        const VerificationResult r =
            verifyBundle(*bundle, QStringLiteral("good"), *Artifact::fromDigest(subjectHex), TrustedRoot{},
                         keyPolicy(key.get()));
        QVERIFY2(r.verified, qPrintable(r.toText()));
        QCOMPARE(r.predicateType, QStringLiteral("https://example.com/p/v1"));
        QVERIFY(!verifyBundle(*bundle, QStringLiteral("good"), *Artifact::fromDigest(sha256Hex("else")),
                              TrustedRoot{}, keyPolicy(key.get()))
                     .verified);
        if (sigstoreJs().isEmpty())
            QSKIP("sigstore-js not installed; Proofbench's half passed");
        QCOMPARE(jsVerify(dir + QStringLiteral("/good.json"), dir + QStringLiteral("/key.pub")), 0);
        QCOMPARE(jsVerify(dir + QStringLiteral("/bad.json"), dir + QStringLiteral("/key.pub")), 1);
    }

    void evidenceSigningWritesAttestationAndPointer() {
        crypto::Pkey key = generateSigningKey();
        QTemporaryDir tmp;
        pbtest::BundleFixture f;
        const QString dir = f.writeDirectory(tmp.filePath(QStringLiteral("run")));
        const QString root = tmp.filePath(QStringLiteral("recipes/evidence"));
        auto signedEvidence = evidence::signEvidence(dir, key.get(), root);
        QVERIFY2(signedEvidence.ok(),
                 qPrintable(signedEvidence.ok() ? QString() : signedEvidence.error().toString()));
        QVERIFY(QFileInfo::exists(signedEvidence->attestationPath));
        // The pointer sits where AICR's tree contract wants it, and passes AICR's pointer rules.
        const QString slug =
            evidence::sourceSlug(QLatin1String(evidence::kKeyIssuer), keyFingerprint(key.get()));
        QVERIFY(signedEvidence->pointerPath.startsWith(root + QStringLiteral("/") + f.recipeName +
                                                       QStringLiteral("/") + slug +
                                                       QStringLiteral("/sha256-")));
        auto tree = evidence::scanEvidence(root);
        QVERIFY(tree.ok());
        QCOMPARE(tree->pointers.size(), size_t(1));
        QVERIFY2(tree->pointers.front().isValid(),
                 qPrintable(tree->pointers.front().problems.join(QStringLiteral("; "))));
        QVERIFY(tree->pointers.front().isSigned());
        // The bundle now verifies with the key, bound to the pointer.
        auto bundle = evidence::loadBundle(dir);
        QVERIFY(bundle.ok());
        TrustedRoot empty;
        evidence::SignatureCheck check{&empty, keyPolicy(key.get())};
        const evidence::BundleCheck c = evidence::checkBundle(*bundle, &tree->pointers.front(), &check);
        QVERIFY2(c.exitCode == 0, qPrintable(c.toText()));
        // Signing twice, or signing a tampered bundle, is refused.
        QVERIFY(!evidence::signEvidence(dir, key.get(), root));
        pbtest::BundleFixture bad;
        bad.files[QStringLiteral("ctrf/deployment.json")].append(' ');
        const QString badDir = bad.writeDirectory(tmp.filePath(QStringLiteral("bad")));
        auto refused = evidence::signEvidence(badDir, key.get(), root);
        QVERIFY(!refused);
        QVERIFY(refused.error().message.contains(QStringLiteral("manifest-hash-check")));
        QVERIFY(!QFileInfo::exists(badDir + QStringLiteral("/attestation.intoto.jsonl")));
    }

    // A bundle with checks that could not run is incomplete: refused unless signIncomplete, and then
    // signed as it is (it still rates incomplete, never valid).
    void incompleteEvidenceIsSignedOnlyWhenAsked() {
        crypto::Pkey key = generateSigningKey();
        QTemporaryDir tmp;
        pbtest::BundleFixture f;
        f.files[QStringLiteral("ctrf/deployment.json")] =
            pbtest::ctrfWithOther(f.files[QStringLiteral("ctrf/deployment.json")], 2);
        f.seal();
        const QString dir = f.writeDirectory(tmp.filePath(QStringLiteral("incomplete")));
        const QString root = tmp.filePath(QStringLiteral("recipes/evidence"));
        const evidence::BundleCheck before = evidence::checkBundle(*evidence::loadBundle(dir));
        QCOMPARE(before.exitCode, 3);
        QCOMPARE(before.incompleteChecks.size(), 2);
        auto refused = evidence::signEvidence(dir, key.get(), root);
        QVERIFY(!refused);
        QVERIFY2(
            refused.error().message.contains(QStringLiteral("incomplete")) &&
                refused.error().message.contains(QStringLiteral("deployment/deployment-check-3 (other)")) &&
                refused.error().message.contains(QStringLiteral("--sign-incomplete")),
            qPrintable(refused.error().toString()));
        QVERIFY(!refused.error().message.contains(QStringLiteral("integrity")));
        QCOMPARE(refused.error().field, QStringLiteral("completeness")); // the check that found it
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/attestation.intoto.jsonl")));
        auto signedAnyway = evidence::signEvidence(dir, key.get(), root, {}, true);
        QVERIFY2(signedAnyway.ok(),
                 qPrintable(signedAnyway.ok() ? QString() : signedAnyway.error().toString()));
        TrustedRoot empty;
        evidence::SignatureCheck check{&empty, keyPolicy(key.get())};
        const evidence::BundleCheck after =
            evidence::checkBundle(*evidence::loadBundle(dir), nullptr, &check);
        QVERIFY2(after.signature && after.signature->verified, qPrintable(after.toText()));
        QCOMPARE(after.exitCode, 3);
        QVERIFY(after.toText().contains(QStringLiteral("result: incomplete (exit 3)")));
    }

    void deploymentBundleSignsAndReportsEveryFile() {
        crypto::Pkey key = generateSigningKey();
        const QString dir = m_tmp.filePath(QStringLiteral("deploy"));
        writeDeploymentTree(dir);
        auto report = deploy::signDeploymentBundle(dir, key.get());
        QVERIFY2(report.ok(), qPrintable(report.ok() ? QString() : report.error().toString()));
        QCOMPARE(report->files, 12);
        // checksums.txt is sha256sum's format, sorted, every payload file.
        const QList<QByteArray> lines = readAll(dir + QStringLiteral("/checksums.txt")).trimmed().split('\n');
        QCOMPARE(lines.size(), 12);
        QCOMPARE(lines.front().mid(66), QByteArray("001-cert-manager/install.sh"));
        QCOMPARE(lines.front().left(64),
                 sha256Hex(readAll(dir + QStringLiteral("/001-cert-manager/install.sh"))).toLatin1());
        deploy::VerifyOptions opts;
        opts.policy = keyPolicy(key.get());
        deploy::DeploymentVerification v = deploy::verifyDeploymentBundle(dir, opts);
        QVERIFY2(v.level == deploy::TrustLevel::Attested, qPrintable(v.toText()));
        QVERIFY(v.inventoryOk);
        QCOMPARE(v.bundleAttestation->predicateType, QStringLiteral("https://slsa.dev/provenance/v1"));
        if (!sigstoreJs().isEmpty()) {
            write(dir + QStringLiteral("/../deploy-key.pub"), publicKeyPem(key.get()));
            QCOMPARE(jsVerify(dir + QStringLiteral("/attestation/bundle-attestation.sigstore.json"),
                              dir + QStringLiteral("/../deploy-key.pub")),
                     0);
        }
        // Another key: the attestation fails and nothing is trusted.
        crypto::Pkey other = generateSigningKey();
        opts.policy = keyPolicy(other.get());
        QCOMPARE(deploy::verifyDeploymentBundle(dir, opts).level, deploy::TrustLevel::Unknown);
        opts.policy = keyPolicy(key.get());

        // One file changed, one removed, one added: each reported by name.
        write(dir + QStringLiteral("/002-gpu-operator/values.yaml"), "replicas: 2\n");
        QFile::remove(dir + QStringLiteral("/003-network-operator/upstream.env"));
        write(dir + QStringLiteral("/001-cert-manager/extra.yaml"), "x: 1\n");
        v = deploy::verifyDeploymentBundle(dir, opts);
        QCOMPARE(v.level, deploy::TrustLevel::Unknown);
        QMap<QString, deploy::FileState> states;
        for (const auto& f : v.files)
            states[f.path] = f.state;
        QCOMPARE(states.value(QStringLiteral("002-gpu-operator/values.yaml")), deploy::FileState::Changed);
        QCOMPARE(states.value(QStringLiteral("003-network-operator/upstream.env")),
                 deploy::FileState::Missing);
        QCOMPARE(states.value(QStringLiteral("001-cert-manager/extra.yaml")), deploy::FileState::Unexpected);
        QCOMPARE(states.value(QStringLiteral("recipe.yaml")), deploy::FileState::Ok);
        QVERIFY(v.toText().contains(QStringLiteral("changed     002-gpu-operator/values.yaml")));

        // Re-sealed, it verifies again; a symlink is refused by name.
        QVERIFY(deploy::signDeploymentBundle(dir, key.get()).ok());
        QCOMPARE(deploy::verifyDeploymentBundle(dir, opts).level, deploy::TrustLevel::Attested);
        QVERIFY(QFile::link(QStringLiteral("/etc/hostname"), dir + QStringLiteral("/001-cert-manager/link")));
        auto refused = deploy::signDeploymentBundle(dir, key.get());
        QVERIFY(!refused);
        QCOMPARE(refused.error().file, QStringLiteral("001-cert-manager/link"));
        QCOMPARE(deploy::verifyDeploymentBundle(dir, opts).level, deploy::TrustLevel::Unknown);
        QFile::remove(dir + QStringLiteral("/001-cert-manager/link"));

        // Without an attestation, only the inventory can be checked.
        QFile::remove(dir + QStringLiteral("/attestation/bundle-attestation.sigstore.json"));
        QCOMPARE(deploy::verifyDeploymentBundle(dir, opts).level, deploy::TrustLevel::Unverified);
        QVERIFY(!deploy::parseTrustLevel(QStringLiteral("bogus")));
        QCOMPARE(*deploy::parseTrustLevel(QStringLiteral("max")), deploy::TrustLevel::Verified);
    }

    void hashingCanBeCancelledAndReportsProgress() {
        const QString dir = m_tmp.filePath(QStringLiteral("many"));
        for (int i = 0; i < 300; ++i)
            write(dir + QStringLiteral("/f%1.txt").arg(i), QByteArray::number(i));
        int last = 0, total = 0;
        auto files = deploy::hashTree(dir, [&](int done, int all) {
            last = done;
            total = all;
        });
        QVERIFY(files.ok());
        QCOMPARE(last, 300);
        QCOMPARE(total, 300);
        std::atomic_bool cancel{true};
        auto cancelled = deploy::hashTree(dir, {}, &cancel);
        QVERIFY(!cancelled);
        QCOMPARE(cancelled.error().message, QStringLiteral("cancelled"));
    }
};

QTEST_GUILESS_MAIN(TestSigning)
#include "tst_signing.moc"
