// Offline Sigstore verification against the shared acceptance cases (every case, artifact mode and
// digest mode), plus the parsers' strictness on their own.
#include "SigstoreCases.h"
#include "sigstore/Crypto.h"
#include "sigstore/Verify.h"

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <QTest>
#include <functional>

using namespace pb::sigstore;

class TestSigstore : public QObject {
    Q_OBJECT

  private:
    static Policy policyFor(const pbtest::SigstoreCase& c) {
        Policy p;
        if (c.mode == QLatin1String("key")) {
            p.publicKeyPem = pbtest::readAll(c.file(QStringLiteral("key.pub")));
        } else {
            p.identity = c.identity;
            p.issuer = c.issuer;
        }
        return p;
    }

    static void addCases() {
        QTest::addColumn<QString>("name");
        const auto cases = pbtest::sigstoreCases();
        for (const auto& c : cases)
            QTest::newRow(qPrintable(c.name)) << c.name;
    }

    static VerificationResult run(const QString& name, bool digestMode, pbtest::SigstoreCase* out = nullptr) {
        for (const auto& c : pbtest::sigstoreCases()) {
            if (c.name != name)
                continue;
            if (out)
                *out = c;
            auto root = loadTrustedRoot(c.file(QStringLiteral("trusted_root.json")));
            if (!root) {
                VerificationResult r;
                r.steps.push_back(
                    Step{QStringLiteral("trusted root"), StepState::Failed, root.error().toString(), {}, {}});
                return r;
            }
            Artifact a;
            if (digestMode) {
                const QByteArray bytes = pbtest::readAll(c.file(QStringLiteral("artifact")));
                a = *Artifact::fromDigest(
                    QStringLiteral("sha256:") +
                    QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
            } else {
                a = Artifact::fromBytes(pbtest::readAll(c.file(QStringLiteral("artifact"))));
            }
            return verifyBundle(pbtest::readAll(c.file(QStringLiteral("bundle.sigstore.json"))),
                                c.file(QStringLiteral("bundle.sigstore.json")), a, *root, policyFor(c));
        }
        return {};
    }

    struct Loaded {
        QJsonObject bundle, root;
        QByteArray artifact;
        Policy policy;
    };

    static Loaded load(const QString& name) {
        Loaded l;
        for (const auto& c : pbtest::sigstoreCases()) {
            if (c.name != name)
                continue;
            l.bundle =
                QJsonDocument::fromJson(pbtest::readAll(c.file(QStringLiteral("bundle.sigstore.json"))))
                    .object();
            l.root = QJsonDocument::fromJson(pbtest::readAll(c.file(QStringLiteral("trusted_root.json"))))
                         .object();
            l.artifact = pbtest::readAll(c.file(QStringLiteral("artifact")));
            l.policy = policyFor(c);
        }
        return l;
    }

    static VerificationResult verifyLoaded(const Loaded& l) {
        auto root = parseTrustedRoot(QJsonDocument(l.root).toJson(), QStringLiteral("trusted_root.json"));
        if (!root) {
            VerificationResult r;
            r.steps.push_back(
                Step{QStringLiteral("trusted root"), StepState::Failed, root.error().toString(), {}, {}});
            return r;
        }
        return verifyBundle(QJsonDocument(l.bundle).toJson(), QStringLiteral("tampered.sigstore.json"),
                            Artifact::fromBytes(l.artifact), *root, l.policy);
    }

    static const Step* step(const VerificationResult& r, const QString& name) {
        for (const Step& s : r.steps)
            if (s.name == name)
                return &s;
        return nullptr;
    }

    // Flips one bit of a base64 field reached by `path` ("a.b[0].c").
    static void flip(QJsonObject& root, const QString& path, int byteIndex = -1) {
        QByteArray b = QByteArray::fromBase64(at(root, path).toString().toLatin1());
        const int i = byteIndex < 0 ? int(b.size()) + byteIndex : byteIndex;
        b[i] = char(b[i] ^ 0x01);
        setAt(root, path, QString::fromLatin1(b.toBase64()));
    }

    // The value at `path` ("a.b[0].c"), and setting it.
    static QJsonValue at(const QJsonObject& root, const QString& path) {
        QJsonValue v = root;
        for (QString part : path.split(QLatin1Char('.'))) {
            int index = -1;
            if (part.endsWith(QLatin1Char(']'))) {
                index = part.section(QLatin1Char('['), 1).chopped(1).toInt();
                part = part.section(QLatin1Char('['), 0, 0);
            }
            v = v.toObject().value(part);
            if (index >= 0)
                v = v.toArray().at(index);
        }
        return v;
    }
    static void setAt(QJsonObject& root, const QString& path, const QJsonValue& value) {
        std::function<QJsonValue(QJsonValue, QStringList)> edit = [&](QJsonValue v,
                                                                      QStringList parts) -> QJsonValue {
            if (parts.isEmpty())
                return value;
            QString head = parts.takeFirst();
            int index = -1;
            if (head.endsWith(QLatin1Char(']'))) {
                index = head.section(QLatin1Char('['), 1).chopped(1).toInt();
                head = head.section(QLatin1Char('['), 0, 0);
            }
            QJsonObject o = v.toObject();
            if (index < 0) {
                o[head] = edit(o.value(head), parts);
            } else {
                QJsonArray a = o.value(head).toArray();
                a[index] = edit(a.at(index), parts);
                o[head] = a;
            }
            return o;
        };
        root = edit(root, path.split(QLatin1Char('.'))).toObject();
    }

    // The proto3 JSON forms a Sigstore document may take, applied to every object of a bundle or
    // trusted root: proto field names instead of lowerCamelCase, int64 as JSON numbers, every
    // absent field of the schema written as null, unknown fields, enums as numbers, and all at once.
    enum Form { SnakeNames, Int64Numbers, NullForAbsent, UnknownFields, EnumNumbers, AllForms, kForms };
    static constexpr const char* kFormNames[] = {"proto field names",      "int64 as numbers",
                                                 "null for absent fields", "unknown fields",
                                                 "enums as numbers",       "all forms at once"};
    static QString snake(const QString& camel) {
        QString out;
        for (const QChar ch : camel) {
            if (ch.isUpper()) {
                out += QLatin1Char('_');
                out += ch.toLower();
            } else {
                out += ch;
            }
        }
        return out;
    }
    static QJsonValue rewrite(const QJsonValue& v, int form) {
        static const QStringList schema = {QStringLiteral("mediaType"),
                                           QStringLiteral("verificationMaterial"),
                                           QStringLiteral("publicKey"),
                                           QStringLiteral("x509CertificateChain"),
                                           QStringLiteral("certificate"),
                                           QStringLiteral("tlogEntries"),
                                           QStringLiteral("timestampVerificationData"),
                                           QStringLiteral("messageSignature"),
                                           QStringLiteral("dsseEnvelope"),
                                           QStringLiteral("messageDigest"),
                                           QStringLiteral("signature"),
                                           QStringLiteral("payload"),
                                           QStringLiteral("payloadType"),
                                           QStringLiteral("signatures"),
                                           QStringLiteral("sig"),
                                           QStringLiteral("keyid"),
                                           QStringLiteral("logIndex"),
                                           QStringLiteral("logId"),
                                           QStringLiteral("kindVersion"),
                                           QStringLiteral("integratedTime"),
                                           QStringLiteral("inclusionPromise"),
                                           QStringLiteral("inclusionProof"),
                                           QStringLiteral("canonicalizedBody"),
                                           QStringLiteral("rootHash"),
                                           QStringLiteral("treeSize"),
                                           QStringLiteral("hashes"),
                                           QStringLiteral("checkpoint"),
                                           QStringLiteral("envelope"),
                                           QStringLiteral("keyId"),
                                           QStringLiteral("kind"),
                                           QStringLiteral("version"),
                                           QStringLiteral("signedEntryTimestamp"),
                                           QStringLiteral("rfc3161Timestamps"),
                                           QStringLiteral("signedTimestamp"),
                                           QStringLiteral("rawBytes"),
                                           QStringLiteral("certificates"),
                                           QStringLiteral("hint"),
                                           QStringLiteral("algorithm"),
                                           QStringLiteral("digest"),
                                           QStringLiteral("tlogs"),
                                           QStringLiteral("ctlogs"),
                                           QStringLiteral("certificateAuthorities"),
                                           QStringLiteral("timestampAuthorities"),
                                           QStringLiteral("baseUrl"),
                                           QStringLiteral("hashAlgorithm"),
                                           QStringLiteral("keyDetails"),
                                           QStringLiteral("validFor"),
                                           QStringLiteral("start"),
                                           QStringLiteral("end"),
                                           QStringLiteral("checkpointKeyId"),
                                           QStringLiteral("operator"),
                                           QStringLiteral("subject"),
                                           QStringLiteral("organization"),
                                           QStringLiteral("commonName"),
                                           QStringLiteral("uri"),
                                           QStringLiteral("certChain")};
        static const QStringList int64s = {QStringLiteral("logIndex"), QStringLiteral("integratedTime"),
                                           QStringLiteral("treeSize")};
        static const QStringList hashAlgs = {QStringLiteral("HASH_ALGORITHM_UNSPECIFIED"),
                                             QStringLiteral("SHA2_256"), QStringLiteral("SHA2_384"),
                                             QStringLiteral("SHA2_512")};
        static const QStringList keyDetails = {QStringLiteral("PUBLIC_KEY_DETAILS_UNSPECIFIED"),
                                               QStringLiteral("PKCS1_RSA_PKCS1V5"),
                                               QStringLiteral("PKCS1_RSA_PSS"),
                                               QStringLiteral("PKIX_RSA_PKCS1V5"),
                                               QStringLiteral("PKIX_RSA_PSS"),
                                               QStringLiteral("PKIX_ECDSA_P256_SHA_256"),
                                               QStringLiteral("PKIX_ECDSA_P256_HMAC_SHA_256"),
                                               QStringLiteral("PKIX_ED25519")};
        const bool all = form == AllForms;
        if (v.isArray()) {
            QJsonArray out;
            for (const QJsonValue& e : v.toArray())
                out.append(rewrite(e, form));
            return out;
        }
        if (!v.isObject())
            return v;
        const QJsonObject in = v.toObject();
        QJsonObject out;
        for (auto it = in.begin(); it != in.end(); ++it) {
            QJsonValue value = rewrite(it.value(), form);
            if ((form == Int64Numbers || all) && int64s.contains(it.key()) && value.isString()) {
                bool ok = false;
                const qint64 n = value.toString().toLongLong(&ok);
                if (ok)
                    value = double(n);
            }
            if ((form == EnumNumbers || all) && value.isString()) {
                if ((it.key() == QLatin1String("algorithm") || it.key() == QLatin1String("hashAlgorithm")) &&
                    hashAlgs.contains(value.toString()))
                    value = hashAlgs.indexOf(value.toString());
                else if (it.key() == QLatin1String("keyDetails") && keyDetails.contains(value.toString()))
                    value = keyDetails.indexOf(value.toString());
            }
            out.insert(form == SnakeNames || all ? snake(it.key()) : it.key(), value);
        }
        if (form == NullForAbsent || all)
            for (const QString& name : schema)
                if (!in.contains(name) && !out.contains(snake(name)))
                    out.insert(form == NullForAbsent ? name : snake(name), QJsonValue::Null);
        if (form == UnknownFields || all) {
            out.insert(QStringLiteral("proofbenchUnknownField"),
                       QJsonObject{
                           {QStringLiteral("nested"), QJsonArray{1, QStringLiteral("x"), QJsonValue::Null}}});
            out.insert(QStringLiteral("unknown_scalar"), 7);
        }
        return out;
    }

    static void expectFailedStep(const VerificationResult& r, const QString& name,
                                 const QString& detailPart) {
        QVERIFY2(!r.verified, qPrintable(r.toText()));
        const Step* s = step(r, name);
        QVERIFY2(s, qPrintable(QStringLiteral("no step '%1' in\n%2").arg(name, r.toText())));
        QVERIFY2(s->state == StepState::Failed,
                 qPrintable(QStringLiteral("step '%1' did not fail:\n%2").arg(name, r.toText())));
        QVERIFY2(s->detail.contains(detailPart, Qt::CaseInsensitive),
                 qPrintable(QStringLiteral("step '%1' failed for another reason: %2").arg(name, s->detail)));
    }

  private slots:
    void manifestCase_data() { addCases(); }
    void manifestCase() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/MANIFEST.tsv"));
        QFETCH(QString, name);
        pbtest::SigstoreCase c;
        const VerificationResult r = run(name, false, &c);
        if (r.verified != c.pass())
            qWarning().noquote() << r.toText();
        QCOMPARE(r.verified, c.pass());
        if (!c.pass())
            QVERIFY2(r.firstFailure() != nullptr, "a refused bundle names the step that failed");
    }

    void manifestCaseDigestMode_data() { addCases(); }
    void manifestCaseDigestMode() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/MANIFEST.tsv"));
        QFETCH(QString, name);
        pbtest::SigstoreCase c;
        const VerificationResult r = run(name, true, &c);
        if (r.verified != c.pass())
            qWarning().noquote() << r.toText();
        QCOMPARE(r.verified, c.pass());
        // The manifest's artifact digest is the one verified against.
        if (c.digest.startsWith(QLatin1String("sha256:")) && c.name != QLatin1String("wrong-material_fail"))
            QCOMPARE(r.artifactDigest, c.digest);
    }

    // ---- tampering: each refused, for the right reason ------------------------------------------

    void tamperedSignatureIsRefused() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.1"));
        Loaded l = load(QStringLiteral("happy-path-v0.1"));
        QVERIFY(verifyLoaded(l).verified);
        flip(l.bundle, QStringLiteral("messageSignature.signature"), -3);
        const VerificationResult r = verifyLoaded(l);
        expectFailedStep(r, QStringLiteral("signature"), QStringLiteral("does not verify"));
        expectFailedStep(r, QStringLiteral("transparency log"),
                         QStringLiteral("not this bundle's signature"));
    }

    void tamperedCertificateIsRefused() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
        // Rekor v1: the log recorded another certificate.
        Loaded l = load(QStringLiteral("happy-path-v0.3"));
        QVERIFY(verifyLoaded(l).verified);
        flip(l.bundle, QStringLiteral("verificationMaterial.certificate.rawBytes"),
             -5); // inside the CA's signature
        expectFailedStep(verifyLoaded(l), QStringLiteral("transparency log"),
                         QStringLiteral("not this bundle's signing certificate"));
        // Rekor v2: the rebuilt entry is not the logged leaf; the timestamp still gives a signing time,
        // at which the altered certificate no longer chains to Fulcio.
        Loaded v2 = load(QStringLiteral("rekor2-happy-path"));
        flip(v2.bundle, QStringLiteral("verificationMaterial.certificate.rawBytes"), -5);
        const VerificationResult r = verifyLoaded(v2);
        expectFailedStep(r, QStringLiteral("transparency log"), QStringLiteral("rebuilt from this bundle"));
        expectFailedStep(r, QStringLiteral("certificate chain"), QStringLiteral("signature failure"));
    }

    void tamperedCheckpointIsRefused() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
        Loaded l = load(QStringLiteral("happy-path-v0.3"));
        QJsonObject vm = l.bundle[QStringLiteral("verificationMaterial")].toObject();
        QJsonArray entries = vm[QStringLiteral("tlogEntries")].toArray();
        QJsonObject e = entries[0].toObject();
        QJsonObject proof = e[QStringLiteral("inclusionProof")].toObject();
        QJsonObject cp = proof[QStringLiteral("checkpoint")].toObject();
        QString env = cp[QStringLiteral("envelope")].toString();
        const int nl = env.indexOf(QLatin1Char('\n'));
        env[nl + 1] =
            env[nl + 1] == QLatin1Char('1') ? QLatin1Char('2') : QLatin1Char('1'); // the tree size line
        cp[QStringLiteral("envelope")] = env;
        proof[QStringLiteral("checkpoint")] = cp;
        e[QStringLiteral("inclusionProof")] = proof;
        entries[0] = e;
        vm[QStringLiteral("tlogEntries")] = entries;
        l.bundle[QStringLiteral("verificationMaterial")] = vm;
        expectFailedStep(verifyLoaded(l), QStringLiteral("transparency log"),
                         QStringLiteral("checkpoint signature"));
    }

    void tamperedProofHashIsRefused() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
        Loaded l = load(QStringLiteral("rekor2-happy-path"));
        QVERIFY(verifyLoaded(l).verified);
        flip(l.bundle, QStringLiteral("verificationMaterial.tlogEntries[0].inclusionProof.hashes[2]"), 7);
        expectFailedStep(verifyLoaded(l), QStringLiteral("transparency log"),
                         QStringLiteral("inclusion proof"));
    }

    void tamperedSetIsRefused() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.2"));
        Loaded l = load(QStringLiteral("happy-path-v0.2"));
        QVERIFY(verifyLoaded(l).verified);
        flip(l.bundle,
             QStringLiteral("verificationMaterial.tlogEntries[0].inclusionPromise.signedEntryTimestamp"), 10);
        expectFailedStep(verifyLoaded(l), QStringLiteral("transparency log"),
                         QStringLiteral("signed entry timestamp"));
    }

    void tamperedTimestampIsRefused() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
        Loaded l = load(QStringLiteral("rekor2-happy-path"));
        flip(l.bundle,
             QStringLiteral(
                 "verificationMaterial.timestampVerificationData.rfc3161Timestamps[0].signedTimestamp"),
             -4);
        const VerificationResult r = verifyLoaded(l);
        expectFailedStep(r, QStringLiteral("timestamps"), QStringLiteral("not verified by"));
        // Rekor v2 has no integrated time: without the timestamp there is no signing time at all.
        expectFailedStep(r, QStringLiteral("verified time"), QStringLiteral("no verified signing time"));
    }

    void swappedTrustedRootIsRefused() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
        Loaded prod = load(QStringLiteral("happy-path-v0.3"));
        const Loaded custom = load(QStringLiteral("rekor2-happy-path"));
        prod.root = custom.root;
        expectFailedStep(verifyLoaded(prod), QStringLiteral("transparency log"),
                         QStringLiteral("not in the trusted root"));
    }

    void validityWindowsAreEnforced() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
        // The Fulcio CA ended before the signing time: no CA is valid then.
        {
            Loaded l = load(QStringLiteral("happy-path-v0.3"));
            QJsonArray cas = l.root[QStringLiteral("certificateAuthorities")].toArray();
            for (int i = 0; i < cas.size(); ++i) {
                QJsonObject ca = cas[i].toObject();
                ca[QStringLiteral("validFor")] =
                    QJsonObject{{QStringLiteral("start"), QStringLiteral("2021-01-01T00:00:00Z")},
                                {QStringLiteral("end"), QStringLiteral("2022-01-01T00:00:00Z")}};
                cas[i] = ca;
            }
            l.root[QStringLiteral("certificateAuthorities")] = cas;
            expectFailedStep(verifyLoaded(l), QStringLiteral("certificate chain"),
                             QStringLiteral("no Fulcio certificate authority"));
        }
        // The log's key is not yet valid at the integrated time.
        {
            Loaded l = load(QStringLiteral("happy-path-v0.3"));
            QJsonArray logs = l.root[QStringLiteral("tlogs")].toArray();
            for (int i = 0; i < logs.size(); ++i) {
                QJsonObject log = logs[i].toObject();
                QJsonObject key = log[QStringLiteral("publicKey")].toObject();
                key[QStringLiteral("validFor")] =
                    QJsonObject{{QStringLiteral("start"), QStringLiteral("2030-01-01T00:00:00Z")}};
                log[QStringLiteral("publicKey")] = key;
                logs[i] = log;
            }
            l.root[QStringLiteral("tlogs")] = logs;
            expectFailedStep(verifyLoaded(l), QStringLiteral("transparency log"),
                             QStringLiteral("outside the validity"));
        }
        // The timestamp authority's window ended before the timestamp.
        {
            Loaded l = load(QStringLiteral("rekor2-happy-path"));
            QJsonArray tsas = l.root[QStringLiteral("timestampAuthorities")].toArray();
            for (int i = 0; i < tsas.size(); ++i) {
                QJsonObject tsa = tsas[i].toObject();
                tsa[QStringLiteral("validFor")] =
                    QJsonObject{{QStringLiteral("start"), QStringLiteral("2020-01-01T00:00:00Z")},
                                {QStringLiteral("end"), QStringLiteral("2021-01-01T00:00:00Z")}};
                tsas[i] = tsa;
            }
            l.root[QStringLiteral("timestampAuthorities")] = tsas;
            expectFailedStep(verifyLoaded(l), QStringLiteral("timestamps"),
                             QStringLiteral("outside the validity"));
        }
        // A log key without a start of validity rejects the whole root.
        {
            Loaded l = load(QStringLiteral("happy-path-v0.3"));
            QJsonArray logs = l.root[QStringLiteral("tlogs")].toArray();
            QJsonObject log = logs[0].toObject();
            QJsonObject key = log[QStringLiteral("publicKey")].toObject();
            key.remove(QStringLiteral("validFor"));
            log[QStringLiteral("publicKey")] = key;
            logs[0] = log;
            l.root[QStringLiteral("tlogs")] = logs;
            auto root = parseTrustedRoot(QJsonDocument(l.root).toJson(), QStringLiteral("root.json"));
            QVERIFY(!root);
            QCOMPARE(root.error().field, QStringLiteral("tlogs[0].publicKey.validFor"));
        }
    }

    void tamperedTrustedRootChainIsRefused() {
        // The root's own chains are checked once, when it is loaded: an intermediate whose signature
        // no longer verifies under its root (Fulcio) or a TSA certificate likewise is never trusted.
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
        Loaded l = load(QStringLiteral("rekor2-happy-path"));
        QVERIFY(verifyLoaded(l).verified);
        QJsonArray cas = l.root[QStringLiteral("certificateAuthorities")].toArray();
        for (int i = 0; i < cas.size(); ++i) {
            QJsonObject ca = cas[i].toObject();
            if (ca[QStringLiteral("certChain")].toObject()[QStringLiteral("certificates")].toArray().size() <
                2)
                continue;
            flip(ca, QStringLiteral("certChain.certificates[0].rawBytes"), -4);
            cas[i] = ca;
        }
        QJsonArray tsas = l.root[QStringLiteral("timestampAuthorities")].toArray();
        QJsonObject tsa = tsas[0].toObject();
        flip(tsa, QStringLiteral("certChain.certificates[0].rawBytes"), -4);
        tsas[0] = tsa;
        Loaded broken = l;
        broken.root[QStringLiteral("certificateAuthorities")] = cas;
        const VerificationResult r = verifyLoaded(broken);
        expectFailedStep(r, QStringLiteral("certificate chain"), QStringLiteral("does not verify"));
        broken = l;
        broken.root[QStringLiteral("timestampAuthorities")] = tsas;
        expectFailedStep(verifyLoaded(broken), QStringLiteral("timestamps"),
                         QStringLiteral("does not verify"));
    }

    void identityMismatchShowsExpectedAndFound() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
        Loaded l = load(QStringLiteral("happy-path-v0.3"));
        const QString real = l.policy.identity;
        l.policy.identity =
            QStringLiteral("https://github.com/someone/else/.github/workflows/release.yml@refs/heads/main");
        const VerificationResult r = verifyLoaded(l);
        expectFailedStep(r, QStringLiteral("identity"),
                         QStringLiteral("certificate identity does not match"));
        const Step* s = step(r, QStringLiteral("identity"));
        QVERIFY(s->expected.contains(l.policy.identity));
        QVERIFY(s->found.contains(real));
        // Every other step passed: the mismatch is the only reason.
        for (const Step& other : r.steps)
            if (other.name != QLatin1String("identity"))
                QVERIFY2(other.state != StepState::Failed, qPrintable(other.name));

        // Regexps are unanchored, as cosign's; an invalid one is an error, not a match.
        l.policy.identity.clear();
        l.policy.identityRegexp = QStringLiteral("sigstore-conformance/extremely-dangerous");
        QVERIFY(verifyLoaded(l).verified);
        l.policy.identityRegexp = QStringLiteral("^sigstore-conformance");
        expectFailedStep(verifyLoaded(l), QStringLiteral("identity"), QStringLiteral("does not match"));
        l.policy.identityRegexp = QStringLiteral("([unclosed");
        expectFailedStep(verifyLoaded(l), QStringLiteral("identity"),
                         QStringLiteral("invalid regular expression"));
        l.policy.identityRegexp = QStringLiteral(".+");
        l.policy.issuer = QStringLiteral("https://accounts.google.com");
        expectFailedStep(verifyLoaded(l), QStringLiteral("identity"),
                         QStringLiteral("OIDC issuer does not match"));
    }

    void materialMustFitThePolicy() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/managed-key-happy-path"));
        Loaded key = load(QStringLiteral("managed-key-happy-path"));
        QVERIFY(verifyLoaded(key).verified);
        Loaded cert = load(QStringLiteral("happy-path-v0.3"));
        cert.policy.publicKeyPem = key.policy.publicKeyPem;
        expectFailedStep(verifyLoaded(cert), QStringLiteral("verification material"),
                         QStringLiteral("carries a certificate"));
        key.policy.publicKeyPem.clear();
        key.policy.identity = QStringLiteral("x");
        key.policy.issuer = QStringLiteral("y");
        expectFailedStep(verifyLoaded(key), QStringLiteral("verification material"),
                         QStringLiteral("verify it with --key"));
    }

    // Issue 19: a key decoded once (Policy::prepare) gives the same result as the PEM decoded per
    // verification, and is never used for other bytes than it was made from.
    void preparedKeyGivesTheSameResult() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/managed-key-wrong-key_fail"));
        for (const QString& name :
             {QStringLiteral("managed-key-happy-path"), QStringLiteral("managed-key-wrong-key_fail")}) {
            Loaded plain = load(name);
            Loaded prepared = plain;
            prepared.policy.prepare();
            const VerificationResult a = verifyLoaded(plain), b = verifyLoaded(prepared);
            QCOMPARE(b.verified, name == QLatin1String("managed-key-happy-path"));
            QCOMPARE(QJsonDocument(b.toJson()).toJson(), QJsonDocument(a.toJson()).toJson());
            QCOMPARE(prepared.policy.toJson(), plain.policy.toJson());
        }
        // Prepared from the right key, then handed the corrupted key.pub: the corrupted one is read.
        Loaded good = load(QStringLiteral("managed-key-happy-path"));
        good.policy.prepare();
        QVERIFY(good.policy.preparedKey);
        good.policy.publicKeyPem = load(QStringLiteral("managed-key-wrong-key_fail")).policy.publicKeyPem;
        expectFailedStep(verifyLoaded(good), QStringLiteral("verification material"),
                         QStringLiteral("cannot be read"));
        // And the other way round: an unreadable key prepares to nothing and still fails at its step.
        Loaded bad = load(QStringLiteral("managed-key-wrong-key_fail"));
        bad.policy.prepare();
        QVERIFY(!bad.policy.preparedKey);
        expectFailedStep(verifyLoaded(bad), QStringLiteral("verification material"),
                         QStringLiteral("cannot be read"));
    }

    void wrongDigestShowsBothDigests() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
        Loaded l = load(QStringLiteral("happy-path-v0.3"));
        auto root = parseTrustedRoot(QJsonDocument(l.root).toJson(), QStringLiteral("r.json"));
        QVERIFY(root.ok());
        const auto wrong = Artifact::fromDigest(QString(64, QLatin1Char('0')));
        QVERIFY(wrong.ok());
        const VerificationResult r =
            verifyBundle(QJsonDocument(l.bundle).toJson(), QStringLiteral("b.json"), *wrong, *root, l.policy);
        expectFailedStep(r, QStringLiteral("artifact"), QStringLiteral("not the bundle's message digest"));
        QCOMPARE(step(r, QStringLiteral("artifact"))->found, QString(64, QLatin1Char('0')));
        QVERIFY(!Artifact::fromDigest(QStringLiteral("sha256:abc")).ok());
        QVERIFY(!Artifact::fromDigest(QStringLiteral("md5:") + QString(64, QLatin1Char('a'))).ok());
    }

    void dsseStatementSubjectIsBound() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-dsse-happy-path"));
        Loaded l = load(QStringLiteral("rekor2-dsse-happy-path"));
        const VerificationResult ok = verifyLoaded(l);
        QVERIFY2(ok.verified, qPrintable(ok.toText()));
        QCOMPARE(ok.predicateType, QStringLiteral("https://slsa.dev/provenance/v1"));
        l.artifact += "extra";
        const VerificationResult r = verifyLoaded(l);
        expectFailedStep(r, QStringLiteral("artifact"), QStringLiteral("no subject"));
        QVERIFY(step(r, QStringLiteral("artifact"))->found.contains(QStringLiteral("sha256:a0cfc712")));
    }

    void resultRoundTripsThroughJson() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
        const VerificationResult r = verifyLoaded(load(QStringLiteral("rekor2-happy-path")));
        QVERIFY(r.verified);
        QVERIFY(r.certificate.has_value());
        QVERIFY(!r.logEntries.empty());
        QCOMPARE(r.timestamps.size(), size_t(1));
        QVERIFY(r.timestamps[0].verified);
        const VerificationResult back = VerificationResult::fromJson(r.toJson());
        QCOMPARE(back.toJson(), r.toJson());
        QCOMPARE(back.certificate->san, r.certificate->san);
        QCOMPARE(back.logEntries[0].logIndex, r.logEntries[0].logIndex);
    }

    // ---- parsers ---------------------------------------------------------------------------------

    void base64IsStrict() {
        QCOMPARE(decodeBase64Strict(QStringLiteral("aGVsbG8=")).value(), QByteArray("hello"));
        QCOMPARE(decodeBase64Strict(QStringLiteral("aGVsbG8")).value(),
                 QByteArray("hello")); // unpadded, as protojson
        QCOMPARE(decodeBase64Strict(QStringLiteral("-_8=")).value(), QByteArray("\xfb\xff", 2)); // URL-safe
        QVERIFY(!decodeBase64Strict(QStringLiteral("aGVs bG8=")));
        QVERIFY(!decodeBase64Strict(QStringLiteral("aGVsbG8=\n")));
        QVERIFY(!decodeBase64Strict(QStringLiteral("a+b_")));       // mixed alphabets
        QVERIFY(!decodeBase64Strict(QStringLiteral("aGVsbG8==="))); // too much padding
        QVERIFY(!decodeBase64Strict(QStringLiteral("aG=Vs")));      // padding inside
        QVERIFY(!decodeBase64Strict(QStringLiteral("aGVsb")));      // impossible length
    }

    void bundleStructureIsEnforced() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.2"));
        const Loaded base = load(QStringLiteral("happy-path-v0.2"));
        auto parse = [](const QJsonObject& o) {
            return parseBundle(QJsonDocument(o).toJson(), QStringLiteral("b.json"));
        };
        QVERIFY(parse(base.bundle).ok());
        {
            QJsonObject o = base.bundle;
            o[QStringLiteral("mediaType")] =
                QStringLiteral("application/vnd.dev.sigstore.bundle.v0.3+json"); // chain not allowed in v0.3
            auto b = parse(o);
            QVERIFY(!b);
            QCOMPARE(b.error().field, QStringLiteral("verificationMaterial.x509CertificateChain"));
        }
        {
            QJsonObject o = base.bundle;
            QJsonObject vm = o[QStringLiteral("verificationMaterial")].toObject();
            QJsonArray entries = vm[QStringLiteral("tlogEntries")].toArray();
            QJsonObject e = entries[0].toObject();
            e[QStringLiteral("logIndex")] = QStringLiteral("-4");
            entries[0] = e;
            vm[QStringLiteral("tlogEntries")] = entries;
            o[QStringLiteral("verificationMaterial")] = vm;
            auto b = parse(o);
            QVERIFY(!b);
            QCOMPARE(b.error().field, QStringLiteral("verificationMaterial.tlogEntries[0].logIndex"));
        }
        {
            QJsonObject o = base.bundle;
            o[QStringLiteral("dsseEnvelope")] =
                QJsonObject{{QStringLiteral("payload"), QStringLiteral("e30=")},
                            {QStringLiteral("payloadType"), QStringLiteral("application/vnd.in-toto+json")},
                            {QStringLiteral("signatures"), QJsonArray{}}};
            QVERIFY(!parse(o)); // both a message signature and an envelope
            o.remove(QStringLiteral("messageSignature"));
            auto b = parse(o);
            QVERIFY(!b);
            QCOMPARE(b.error().field, QStringLiteral("dsseEnvelope.signatures"));
        }
    }

    // ---- issue 19: verifier findings --------------------------------------------------------------

    // A checkpoint signature line from a key the verifier does not know is ignored (C2SP signed
    // note), in Rekor v1 as in v2; a known line must verify, and one must be there.
    void checkpointLinesFromUnknownKeysAreIgnored() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-checkpoint-cosigned"));
        QVERIFY(verifyLoaded(load(QStringLiteral("rekor2-checkpoint-cosigned"))).verified);
        const QString envelopePath =
            QStringLiteral("verificationMaterial.tlogEntries[0].inclusionProof.checkpoint.envelope");
        // A witness cosignature, and a line with the log's name but another key hint, added to a
        // Rekor v1 checkpoint: both ignored, the bundle still verifies.
        for (const QString& name : {QStringLiteral("happy-path-v0.3"), QStringLiteral("happy-path-v0.1")}) {
            Loaded l = load(name);
            QVERIFY(verifyLoaded(l).verified);
            const QString env = at(l.bundle, envelopePath).toString();
            const QByteArray junk = QByteArray(4, '\x5a') + QByteArray(70, '\x11');
            QString withWitness = env + QStringLiteral("\u2014 witness.example ") +
                                  QString::fromLatin1(junk.toBase64()) + QLatin1Char('\n');
            setAt(l.bundle, envelopePath, withWitness);
            const VerificationResult r = verifyLoaded(l);
            QVERIFY2(r.verified, qPrintable(r.toText()));
            setAt(l.bundle, envelopePath,
                  env + QStringLiteral("\u2014 rekor.sigstore.dev ") + QString::fromLatin1(junk.toBase64()) +
                      QLatin1Char('\n'));
            QVERIFY2(verifyLoaded(l).verified, qPrintable(verifyLoaded(l).toText()));
            // The unknown line first: position does not matter.
            const int sep = env.lastIndexOf(QStringLiteral("\n\n"));
            setAt(l.bundle, envelopePath,
                  env.left(sep + 2) + QStringLiteral("\u2014 witness.example ") +
                      QString::fromLatin1(junk.toBase64()) + QLatin1Char('\n') + env.mid(sep + 2));
            QVERIFY2(verifyLoaded(l).verified, qPrintable(verifyLoaded(l).toText()));
            // A line with the log's own key hint that does not verify is fatal.
            const QByteArray logHint =
                QByteArray::fromBase64(env.mid(sep + 2).section(QLatin1Char(' '), 2).trimmed().toLatin1())
                    .left(4);
            setAt(l.bundle, envelopePath,
                  env + QStringLiteral("\u2014 rekor.sigstore.dev ") +
                      QString::fromLatin1((logHint + QByteArray(70, '\x11')).toBase64()) + QLatin1Char('\n'));
            expectFailedStep(verifyLoaded(l), QStringLiteral("transparency log"),
                             QStringLiteral("does not verify"));
        }
        // Only lines from unknown keys: no signature by the log (checkpoint-bad-keyhint_fail).
        const VerificationResult r = verifyLoaded(load(QStringLiteral("checkpoint-bad-keyhint_fail")));
        expectFailedStep(r, QStringLiteral("transparency log"),
                         QStringLiteral("no signature by rekor.sigstore.dev"));
        // A note asking for more than 100 signature checks is refused.
        Loaded many = load(QStringLiteral("happy-path-v0.3"));
        QString env = at(many.bundle, envelopePath).toString();
        for (int i = 0; i < 101; ++i)
            env += QStringLiteral("\u2014 w%1 ").arg(i) +
                   QString::fromLatin1(QByteArray(40, char(i)).toBase64()) + QLatin1Char('\n');
        setAt(many.bundle, envelopePath, env);
        expectFailedStep(verifyLoaded(many), QStringLiteral("transparency log"),
                         QStringLiteral("at most 100"));
    }

    // The log entry is bound to the artifact's digest whether or not the bundle states
    // messageSignature.messageDigest: removing it must not leave the logged digest unchecked.
    void logEntryIsBoundToTheArtifactWithoutMessageDigest() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
        for (const QString& name : {QStringLiteral("happy-path-v0.3"), QStringLiteral("happy-path-v0.1"),
                                    QStringLiteral("rekor2-happy-path")}) {
            Loaded l = load(name);
            QJsonObject ms = l.bundle[QStringLiteral("messageSignature")].toObject();
            ms.remove(QStringLiteral("messageDigest"));
            l.bundle[QStringLiteral("messageSignature")] = ms;
            const VerificationResult ok = verifyLoaded(l);
            QVERIFY2(ok.verified, qPrintable(name + QLatin1Char('\n') + ok.toText()));
            // Another artifact: the log entry itself refuses it (not only the signature step).
            Loaded other = l;
            other.artifact += '\n';
            const VerificationResult r = verifyLoaded(other);
            expectFailedStep(r, QStringLiteral("transparency log"),
                             name.startsWith(QLatin1String("rekor2"))
                                 ? QStringLiteral("rebuilt from this bundle")
                                 : QStringLiteral("not the artifact's"));
            // Digest mode: the given digest is what the log entry must hold.
            auto root = parseTrustedRoot(QJsonDocument(l.root).toJson(), QStringLiteral("r.json"));
            QVERIFY(root.ok());
            const auto wrong = Artifact::fromDigest(QString(64, QLatin1Char('0')));
            const VerificationResult d = verifyBundle(QJsonDocument(l.bundle).toJson(),
                                                      QStringLiteral("b.json"), *wrong, *root, l.policy);
            QVERIFY(!d.verified);
            QCOMPARE(step(d, QStringLiteral("transparency log"))->state, StepState::Failed);
        }
    }

    // Rekor v2: the inclusion proof's index must be the entry's log index.
    void rekorV2ProofIndexIsTheEntrysIndex() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
        Loaded l = load(QStringLiteral("rekor2-happy-path"));
        QVERIFY(verifyLoaded(l).verified);
        const QString path = QStringLiteral("verificationMaterial.tlogEntries[0].inclusionProof.logIndex");
        const qint64 index = at(l.bundle, path).toString().toLongLong();
        setAt(l.bundle, path, QString::number(index + 1));
        expectFailedStep(verifyLoaded(l), QStringLiteral("transparency log"),
                         QStringLiteral("the inclusion proof is for index"));
        setAt(l.bundle, path, QString::number(index)); // as a string or number, the same index verifies
        QVERIFY(verifyLoaded(l).verified);
        setAt(l.bundle, path, double(index));
        QVERIFY(verifyLoaded(l).verified);
    }

    // Issue 28: a Rekor v2 entry's canonicalizedBody, when present, must be the entry rebuilt from the
    // bundle: an edited or garbage body is refused, not ignored.
    void rekorV2BodyMustBeTheRebuiltEntry() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
        Loaded l = load(QStringLiteral("rekor2-happy-path"));
        QVERIFY(verifyLoaded(l).verified);
        const QString path = QStringLiteral("verificationMaterial.tlogEntries[0].canonicalizedBody");
        const QByteArray body = QByteArray::fromBase64(at(l.bundle, path).toString().toLatin1());
        QJsonObject entry = QJsonDocument::fromJson(body).object();
        QVERIFY(!entry.isEmpty());
        // The same entry written with other whitespace is the same entry.
        setAt(l.bundle, path,
              QString::fromLatin1(QJsonDocument(entry).toJson(QJsonDocument::Indented).toBase64()));
        QVERIFY(verifyLoaded(l).verified);
        // An edited entry, and garbage, are refused at the transparency log step.
        entry[QStringLiteral("kind")] = entry[QStringLiteral("kind")].toString() + QStringLiteral("-edited");
        for (const QByteArray& bad :
             {QJsonDocument(entry).toJson(QJsonDocument::Compact), QByteArray("garbage")}) {
            setAt(l.bundle, path, QString::fromLatin1(bad.toBase64()));
            expectFailedStep(verifyLoaded(l), QStringLiteral("transparency log"),
                             QStringLiteral("canonicalizedBody is not the entry rebuilt"));
        }
    }

    // Media types and times match as a whole: a trailing newline is not accepted.
    void mediaTypeMatchIsAnchored() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
        for (const QString& name : {QStringLiteral("rekor2-happy-path"), QStringLiteral("happy-path-v0.3")}) {
            Loaded l = load(name);
            const QString mt = l.bundle[QStringLiteral("mediaType")].toString();
            for (const QString& bad : {mt + QLatin1Char('\n'), mt + QStringLiteral("\r\n"),
                                       QLatin1Char('\n') + mt, mt + QLatin1Char(' ')}) {
                l.bundle[QStringLiteral("mediaType")] = bad;
                expectFailedStep(verifyLoaded(l), QStringLiteral("bundle"),
                                 QStringLiteral("not a supported bundle version"));
            }
        }
        QVERIFY(!parseRfc3339Ms(QStringLiteral("2025-09-23T00:00:00Z\n")));
        QVERIFY(parseRfc3339Ms(QStringLiteral("2025-09-23T00:00:00Z")));
        QVERIFY(!Artifact::fromDigest(QStringLiteral("sha256:") + QString(64, QLatin1Char('a')) +
                                      QStringLiteral("\nx"))
                     .ok());
    }

    // Every Sigstore JSON input follows the proto3 JSON mapping: each conformance case rewritten at
    // test time into each form gives the same verdict (and fails at the same step) as the original.
    void proto3JsonFormsGiveTheSameVerdicts_data() {
        QTest::addColumn<int>("form");
        for (int f = 0; f < kForms; ++f)
            QTest::newRow(kFormNames[f]) << f;
    }
    void proto3JsonFormsGiveTheSameVerdicts() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/MANIFEST.tsv"));
        QFETCH(int, form);
        int compared = 0;
        for (const auto& c : pbtest::sigstoreCases()) {
            const QByteArray bundleBytes = pbtest::readAll(c.file(QStringLiteral("bundle.sigstore.json")));
            const QByteArray rootBytes = pbtest::readAll(c.file(QStringLiteral("trusted_root.json")));
            const Artifact artifact =
                Artifact::fromBytes(pbtest::readAll(c.file(QStringLiteral("artifact"))));
            const Policy policy = policyFor(c);
            auto verdict = [&](const QByteArray& bundle, const QByteArray& rootJson) {
                auto root = parseTrustedRoot(rootJson, QStringLiteral("trusted_root.json"));
                if (!root)
                    return QStringLiteral("root refused");
                const VerificationResult r =
                    verifyBundle(bundle, QStringLiteral("bundle.sigstore.json"), artifact, *root, policy);
                return r.verified ? QStringLiteral("verified")
                                  : QStringLiteral("failed at ") + r.firstFailure()->name;
            };
            const QString original = verdict(bundleBytes, rootBytes);
            QCOMPARE(original == QLatin1String("verified"), c.pass());
            const QJsonDocument b = QJsonDocument::fromJson(bundleBytes),
                                r = QJsonDocument::fromJson(rootBytes);
            const QByteArray bundle2 =
                b.isObject() ? QJsonDocument(rewrite(b.object(), form).toObject()).toJson() : bundleBytes;
            const QByteArray root2 =
                r.isObject() ? QJsonDocument(rewrite(r.object(), form).toObject()).toJson() : rootBytes;
            if (b.isObject())
                QVERIFY2(bundle2 != bundleBytes, qPrintable(c.name));
            QCOMPARE(c.name + QStringLiteral(": ") + verdict(bundle2, root2),
                     c.name + QStringLiteral(": ") + original);
            ++compared;
        }
        QVERIFY(compared >= 35);
    }

    // Issue 28: proto3 JSON omits integers at zero, so an entry's or a proof's logIndex (and a proof's
    // treeSize) may be absent: read as 0, and the proof decides, as sigstore-js does; never "missing".
    void proto3ZeroIntegersMayBeAbsent() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
        Loaded l = load(QStringLiteral("rekor2-happy-path"));
        QJsonObject vm = l.bundle[QStringLiteral("verificationMaterial")].toObject();
        QJsonArray entries = vm[QStringLiteral("tlogEntries")].toArray();
        QJsonObject entry = entries[0].toObject();
        QJsonObject proof = entry[QStringLiteral("inclusionProof")].toObject();
        QVERIFY(entry.contains(QStringLiteral("logIndex")) && proof.contains(QStringLiteral("logIndex")));
        entry.remove(QStringLiteral("logIndex"));
        proof.remove(QStringLiteral("logIndex"));
        proof.remove(QStringLiteral("treeSize"));
        entry[QStringLiteral("inclusionProof")] = proof;
        entries[0] = entry;
        vm[QStringLiteral("tlogEntries")] = entries;
        l.bundle[QStringLiteral("verificationMaterial")] = vm;
        pb::Result<Bundle> parsed =
            parseBundle(QJsonDocument(l.bundle).toJson(), QStringLiteral("bundle.sigstore.json"));
        QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().toString()));
        QCOMPARE(parsed->tlogEntries.at(0).logIndex, qint64(0));
        QVERIFY(parsed->tlogEntries.at(0).inclusionProof);
        QCOMPARE(parsed->tlogEntries.at(0).inclusionProof->logIndex, qint64(0));
        QCOMPARE(parsed->tlogEntries.at(0).inclusionProof->treeSize, qint64(0));
        // This entry's real index is not 0: the proof, not the parser, refuses it.
        const VerificationResult r = verifyLoaded(l);
        QVERIFY(!r.verified);
        QCOMPARE(r.firstFailure()->name, QStringLiteral("transparency log"));
        QVERIFY2(!r.toText().contains(QLatin1String("missing")), qPrintable(r.toText()));
    }

    void proto3NullMeansAbsent() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
        Loaded l = load(QStringLiteral("rekor2-happy-path"));
        // An open-ended validity written as "end": null, and a proto field name beside a null JSON name.
        QJsonArray tlogs = l.root[QStringLiteral("tlogs")].toArray();
        QJsonObject t = tlogs[0].toObject();
        QJsonObject pk = t[QStringLiteral("publicKey")].toObject();
        QJsonObject vf = pk[QStringLiteral("validFor")].toObject();
        vf[QStringLiteral("end")] = QJsonValue::Null;
        pk[QStringLiteral("validFor")] = vf;
        t[QStringLiteral("publicKey")] = pk;
        tlogs[0] = t;
        l.root[QStringLiteral("tlogs")] = tlogs;
        l.bundle[QStringLiteral("media_type")] = l.bundle[QStringLiteral("mediaType")];
        l.bundle[QStringLiteral("mediaType")] = QJsonValue::Null;
        l.bundle[QStringLiteral("dsseEnvelope")] = QJsonValue::Null;
        const VerificationResult r = verifyLoaded(l);
        QVERIFY2(r.verified, qPrintable(r.toText()));
        // A required field given as null is missing, and says so.
        l.bundle[QStringLiteral("media_type")] = QJsonValue::Null;
        expectFailedStep(verifyLoaded(l), QStringLiteral("bundle"), QStringLiteral("missing"));
    }
};

QTEST_GUILESS_MAIN(TestSigstore)
#include "tst_sigstore.moc"
