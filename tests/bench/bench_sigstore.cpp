// Offline Sigstore verification (issue 6): every PASS case of the acceptance set verified N times
// in one process, against two floors measured in the same run:
//
//  - proofbench         pb::sigstore::verifyBundle() from the bundle's bytes (JSON parse included),
//                       with each case's trusted root parsed once, outside the loop;
//  - proofbench-parsed  the same with the bundle parsed once outside the loop (what parsing costs);
//  - proofbench-batch   (issue 19) the same verifications from bytes, handed to
//                       pb::ops::verifyBundles() a block at a time, spread over every core of Qt's
//                       thread pool: its wall time per verification is the batch throughput that
//                       tools/bench-sigstore.sh compares with one sigstore-js process;
//  - bare-openssl       only the cryptographic operations that verifying the case needs, called on
//                       OpenSSL directly (not through our verifier), every key, certificate,
//                       timestamp and signed message prepared outside the loop;
//  - bare-openssl+decode the same plus the per-bundle DER work no verifier can skip: decode the
//                       leaf certificate and the RFC 3161 responses, read genTime, decode the SCT
//                       list and re-encode the leaf's TBS without it. Trust-root material (log keys,
//                       CA and TSA certificates, the user's key.pub) stays parsed once per case,
//                       like the trusted root on our side.
//  - bare-floor         (issue 19) a lower bound for any verifier on this OpenSSL: the operations of
//                       bare-openssl with the certificate path and the RFC 3161 chain anchored at
//                       the issuing certificate (CA) and at the TSA's signing certificate, whose
//                       own chains to the roots a verifier can check once when it loads the trusted
//                       root (ours does, TrustCache.h), and nothing decoded in the loop. What is
//                       left per bundle is the leaf's and the TSA token's P-384 signatures inside
//                       X509_verify_cert and TS_RESP_verify_response, the P-256 (or Ed25519) checks
//                       and the hashes. sigstore-js / bare-floor bounds the ratio any verifier
//                       could reach against sigstore-js here (it still has to parse and decode).
//
// The peer, sigstore-js in Node, runs in its own process (tools/bench/sigstore-js/verify.mjs);
// tools/bench-sigstore.sh runs both and prints the ratios. docs/PERFORMANCE.md records them.
//
//   pb_bench_sigstore [MANIFEST.tsv] [ITERATIONS=1000] [--exclude case1,case2] [--only ours|bare]
//
// Prints one JSON line per side: {name, cases, iterations, verifies, seconds, perVerifyUs, cpuSeconds,
// perVerifyCpuUs, perCaseUs} (wall and process CPU time),
// then one line with the bare operations broken down by kind.
#include "ops/VerifyBatch.h"
#include "sigstore/Bundle.h"
#include "sigstore/Crypto.h"
#include "sigstore/TrustedRoot.h"
#include "sigstore/Verify.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThreadPool>
#include <QUrl>

#include <openssl/ct.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ts.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

namespace ss = pb::sigstore;

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void die(const QString& message) {
    std::fprintf(stderr, "pb_bench_sigstore: %s\n", qPrintable(message));
    std::exit(1);
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        die(QStringLiteral("cannot read %1").arg(path));
    return f.readAll();
}

QJsonObject jsonObject(const QByteArray& bytes, const QString& what) {
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
    if (!doc.isObject())
        die(QStringLiteral("%1: not a JSON object (%2)").arg(what, err.errorString()));
    return doc.object();
}

QByteArray b64(const QJsonValue& v) {
    return QByteArray::fromBase64(v.toString().toLatin1());
}

// ---------------------------------------------------------------------------------------------
// The manifest's PASS cases.

struct Case {
    QString name, dir, mode, identity, issuer;
    QByteArray bundleJson, artifact, rootJson, keyPem;
    bool keyMode() const { return mode == QLatin1String("key"); }
};

std::vector<Case> loadCases(const QString& manifest, const std::set<QString>& exclude,
                            QStringList* excluded) {
    const QList<QByteArray> lines = readFile(manifest).split('\n');
    const QList<QByteArray> header = lines.value(0).split('\t');
    auto col = [&](const char* name) {
        const qsizetype i = header.indexOf(QByteArray(name));
        if (i < 0)
            die(QStringLiteral("%1: no column '%2'").arg(manifest, QLatin1String(name)));
        return i;
    };
    const qsizetype cCase = col("case"), cVerdict = col("expected_verdict"), cMode = col("mode"),
                    cIdentity = col("expected_identity"), cIssuer = col("expected_issuer");
    const QString casesDir = QFileInfo(manifest).absolutePath() + QStringLiteral("/cases/");
    std::vector<Case> cases;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> f = lines[i].split('\t');
        if (f.size() < header.size() || f[cVerdict] != "PASS")
            continue;
        Case c;
        c.name = QString::fromUtf8(f[cCase]);
        if (exclude.count(c.name)) {
            excluded->append(c.name);
            continue;
        }
        c.dir = casesDir + c.name;
        c.mode = QString::fromUtf8(f[cMode]);
        c.identity = QString::fromUtf8(f[cIdentity]);
        c.issuer = QString::fromUtf8(f[cIssuer]);
        c.bundleJson = readFile(c.dir + QStringLiteral("/bundle.sigstore.json"));
        c.artifact = readFile(c.dir + QStringLiteral("/artifact"));
        c.rootJson = readFile(c.dir + QStringLiteral("/trusted_root.json"));
        if (c.keyMode())
            c.keyPem = readFile(c.dir + QStringLiteral("/key.pub"));
        cases.push_back(std::move(c));
    }
    for (const QString& name : exclude)
        if (!excluded->contains(name))
            die(QStringLiteral("--exclude names '%1', which is not a PASS case of the manifest").arg(name));
    if (cases.empty())
        die(QStringLiteral("no PASS case in %1").arg(manifest));
    return cases;
}

// ---------------------------------------------------------------------------------------------
// Ours.

struct OurCase {
    const Case* c = nullptr;
    QString bundleFile;
    ss::TrustedRoot root;
    ss::Artifact artifact;
    ss::Policy policy;
    ss::Bundle bundle; // for proofbench-parsed
};

std::vector<OurCase> prepareOurs(const std::vector<Case>& cases) {
    std::vector<OurCase> out;
    for (const Case& c : cases) {
        OurCase o;
        o.c = &c;
        o.bundleFile = c.dir + QStringLiteral("/bundle.sigstore.json");
        pb::Result<ss::TrustedRoot> root =
            ss::parseTrustedRoot(c.rootJson, c.dir + QStringLiteral("/trusted_root.json"));
        if (!root)
            die(QStringLiteral("%1: our parseTrustedRoot failed: %2").arg(c.name, root.error().toString()));
        o.root = std::move(root).value();
        o.artifact = ss::Artifact::fromBytes(c.artifact);
        if (c.keyMode()) {
            // key.pub is read once per case, as sigstore-js reads it once into its trust material.
            o.policy.publicKeyPem = c.keyPem;
            o.policy.prepare();
        } else {
            o.policy.identity = c.identity;
            o.policy.issuer = c.issuer;
        }
        pb::Result<ss::Bundle> bundle = ss::parseBundle(c.bundleJson, o.bundleFile);
        if (!bundle)
            die(QStringLiteral("%1: our parseBundle failed: %2").arg(c.name, bundle.error().toString()));
        o.bundle = std::move(bundle).value();
        // Must pass once, both ways, before anything is timed.
        const ss::VerificationResult r =
            ss::verifyBundle(c.bundleJson, o.bundleFile, o.artifact, o.root, o.policy);
        if (!r.verified)
            die(QStringLiteral("%1: our verifier does NOT verify this PASS case: %2")
                    .arg(c.name, r.summary()));
        const ss::VerificationResult r2 =
            ss::verifyBundle(o.bundle, o.bundleFile, o.artifact, o.root, o.policy);
        if (!r2.verified)
            die(QStringLiteral("%1: our verifier (parsed bundle) does NOT verify this PASS case: %2")
                    .arg(c.name, r2.summary()));
        out.push_back(std::move(o));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Bare OpenSSL: the operations, on objects prepared with OpenSSL directly from the case's files.

struct X509Free {
    void operator()(X509* x) const { X509_free(x); }
};
struct PkeyFree {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct StoreFree {
    void operator()(X509_STORE* s) const { X509_STORE_free(s); }
};
struct StackFree {
    void operator()(STACK_OF(X509) * s) const { sk_X509_pop_free(s, X509_free); }
};
struct TsRespFree {
    void operator()(TS_RESP* r) const { TS_RESP_free(r); }
};
using X509Ptr = std::unique_ptr<X509, X509Free>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;
using StorePtr = std::unique_ptr<X509_STORE, StoreFree>;
using StackPtr = std::unique_ptr<STACK_OF(X509), StackFree>;
using TsRespPtr = std::unique_ptr<TS_RESP, TsRespFree>;

X509Ptr x509FromDer(const QByteArray& der) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.constData());
    return X509Ptr(d2i_X509(nullptr, &p, static_cast<long>(der.size())));
}

PkeyPtr keyFromDer(const QByteArray& der) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.constData());
    EVP_PKEY* k = d2i_PUBKEY(nullptr, &p, static_cast<long>(der.size()));
    if (!k) {
        p = reinterpret_cast<const unsigned char*>(der.constData());
        k = d2i_PublicKey(EVP_PKEY_RSA, nullptr, &p, static_cast<long>(der.size())); // PKCS1_RSA_PKCS1V5
    }
    return PkeyPtr(k);
}

TsRespPtr tsRespFromDer(const QByteArray& der) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.constData());
    return TsRespPtr(d2i_TS_RESP(nullptr, &p, static_cast<long>(der.size())));
}

QByteArray sha256(const char* data, size_t size) {
    QByteArray out(32, Qt::Uninitialized);
    EVP_Digest(data, size, reinterpret_cast<unsigned char*>(out.data()), nullptr, EVP_sha256(), nullptr);
    return out;
}
QByteArray sha256(const QByteArray& b) {
    return sha256(b.constData(), static_cast<size_t>(b.size()));
}

// EVP_DigestVerify: ECDSA/RSA with SHA-256 over the message, or pure Ed25519 (md == nullptr).
bool verifyMessage(EVP_PKEY* key, const EVP_MD* md, const QByteArray& msg, const QByteArray& sig) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    bool ok = EVP_DigestVerifyInit(ctx, nullptr, md, nullptr, key) == 1 &&
              EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(sig.constData()),
                               static_cast<size_t>(sig.size()),
                               reinterpret_cast<const unsigned char*>(msg.constData()),
                               static_cast<size_t>(msg.size())) == 1;
    EVP_MD_CTX_free(ctx);
    return ok;
}

// EVP_PKEY_verify on a SHA-256 prehash (the artifact or PAE digest is computed once and reused).
bool verifyPrehash(EVP_PKEY* key, const QByteArray& digest, const QByteArray& sig) {
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(key, nullptr);
    bool ok = ctx && EVP_PKEY_verify_init(ctx) == 1 &&
              EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) == 1 &&
              EVP_PKEY_verify(ctx, reinterpret_cast<const unsigned char*>(sig.constData()),
                              static_cast<size_t>(sig.size()),
                              reinterpret_cast<const unsigned char*>(digest.constData()),
                              static_cast<size_t>(digest.size())) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

bool verifyChain(X509_STORE* store, STACK_OF(X509) * untrusted, X509* leaf, qint64 t) {
    X509_STORE_CTX* ctx = X509_STORE_CTX_new();
    bool ok = X509_STORE_CTX_init(ctx, store, leaf, untrusted) == 1;
    if (ok) {
        X509_STORE_CTX_set_time(ctx, 0, static_cast<time_t>(t));
        ok = X509_verify_cert(ctx) == 1;
    }
    X509_STORE_CTX_free(ctx);
    return ok && (X509_get_extended_key_usage(leaf) & XKU_CODE_SIGN) != 0;
}

bool verifyTimestamp(TS_RESP* resp, X509_STORE* store, STACK_OF(X509) * certs, const QByteArray& signature) {
    TS_VERIFY_CTX* v = TS_VERIFY_CTX_new();
    TS_VERIFY_CTX_set_flags(v, TS_VFY_VERSION | TS_VFY_SIGNATURE | TS_VFY_IMPRINT);
    auto* imprint = static_cast<unsigned char*>(OPENSSL_malloc(32));
    EVP_Digest(signature.constData(), static_cast<size_t>(signature.size()), imprint, nullptr, EVP_sha256(),
               nullptr);
    TS_VERIFY_CTX_set_imprint(v, imprint, 32); // owned by the context from here
    X509_STORE_up_ref(store);
    TS_VERIFY_CTX_set_store(v, store);
    TS_VERIFY_CTX_set_certs(v, X509_chain_up_ref(certs));
    const bool ok = TS_RESP_verify_response(v, resp) == 1;
    TS_VERIFY_CTX_free(v);
    return ok;
}

std::optional<qint64> genTime(TS_RESP* resp) {
    TS_TST_INFO* info = TS_RESP_get_tst_info(resp);
    if (!info)
        return std::nullopt;
    std::tm tm{};
    if (ASN1_TIME_to_tm(TS_TST_INFO_get_time(info), &tm) != 1)
        return std::nullopt;
    return static_cast<qint64>(timegm(&tm));
}

// RFC 6962 inclusion proof (reference 4.3).
QByteArray nodeHash(const QByteArray& l, const QByteArray& r) {
    unsigned char buf[65];
    buf[0] = 0x01;
    std::memcpy(buf + 1, l.constData(), 32);
    std::memcpy(buf + 33, r.constData(), 32);
    QByteArray out(32, Qt::Uninitialized);
    EVP_Digest(buf, sizeof buf, reinterpret_cast<unsigned char*>(out.data()), nullptr, EVP_sha256(), nullptr);
    return out;
}

QByteArray leafHash(const QByteArray& body) {
    QByteArray out(32, Qt::Uninitialized);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    const unsigned char zero = 0;
    EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
    EVP_DigestUpdate(ctx, &zero, 1);
    EVP_DigestUpdate(ctx, body.constData(), static_cast<size_t>(body.size()));
    EVP_DigestFinal_ex(ctx, reinterpret_cast<unsigned char*>(out.data()), nullptr);
    EVP_MD_CTX_free(ctx);
    return out;
}

bool verifyInclusion(qint64 index, qint64 size, const QByteArray& leaf, const QList<QByteArray>& path,
                     const QByteArray& root) {
    if (index >= size)
        return false;
    qint64 fn = index, sn = size - 1;
    QByteArray r = leaf;
    for (const QByteArray& p : path) {
        if (sn == 0)
            return false;
        if ((fn & 1) == 1 || fn == sn) {
            r = nodeHash(p, r);
            if ((fn & 1) == 0)
                do {
                    fn >>= 1;
                    sn >>= 1;
                } while ((fn & 1) == 0 && fn != 0);
        } else {
            r = nodeHash(r, p);
        }
        fn >>= 1;
        sn >>= 1;
    }
    return sn == 0 && r == root;
}

// The signed message of an embedded SCT (reference 4.8), for the SCT whose log is in `ctlogs`.
struct SctCheck {
    QByteArray signedData, signature;
    EVP_PKEY* key = nullptr;
};

std::optional<SctCheck> sctCheck(X509* leaf, const QByteArray& issuerKeyHash,
                                 const std::map<QByteArray, EVP_PKEY*>& ctlogs) {
    auto* scts = static_cast<STACK_OF(SCT)*>(X509_get_ext_d2i(leaf, NID_ct_precert_scts, nullptr, nullptr));
    if (!scts)
        return std::nullopt;
    std::optional<SctCheck> out;
    for (int i = 0; i < sk_SCT_num(scts) && !out; ++i) {
        SCT* sct = sk_SCT_value(scts, i);
        unsigned char* logId = nullptr;
        const size_t logIdLen = SCT_get0_log_id(sct, &logId);
        const auto log =
            ctlogs.find(QByteArray(reinterpret_cast<const char*>(logId), static_cast<qsizetype>(logIdLen)));
        if (log == ctlogs.end())
            continue;
        X509* dup = X509_dup(leaf);
        X509_EXTENSION_free(X509_delete_ext(dup, X509_get_ext_by_NID(dup, NID_ct_precert_scts, -1)));
        unsigned char* tbs = nullptr;
        const int tbsLen = i2d_re_X509_tbs(dup, &tbs);
        X509_free(dup);
        unsigned char* ext = nullptr;
        const size_t extLen = SCT_get0_extensions(sct, &ext);
        const uint64_t ts = SCT_get_timestamp(sct);
        QByteArray m;
        m.reserve(tbsLen + static_cast<qsizetype>(extLen) + 64);
        m.append('\0').append('\0');
        for (int s = 56; s >= 0; s -= 8)
            m.append(static_cast<char>((ts >> s) & 0xff));
        m.append('\0').append('\1');
        m.append(issuerKeyHash);
        m.append(static_cast<char>((tbsLen >> 16) & 0xff))
            .append(static_cast<char>((tbsLen >> 8) & 0xff))
            .append(static_cast<char>(tbsLen & 0xff));
        m.append(reinterpret_cast<const char*>(tbs), tbsLen);
        m.append(static_cast<char>((extLen >> 8) & 0xff)).append(static_cast<char>(extLen & 0xff));
        m.append(reinterpret_cast<const char*>(ext), static_cast<qsizetype>(extLen));
        OPENSSL_free(tbs);
        unsigned char* sig = nullptr;
        const size_t sigLen = SCT_get0_signature(sct, &sig);
        out = SctCheck{m, QByteArray(reinterpret_cast<const char*>(sig), static_cast<qsizetype>(sigLen)),
                       log->second};
    }
    SCT_LIST_free(scts);
    return out;
}

struct Op {
    const char* kind;
    std::function<bool()> run;
};

struct Timestamp {
    QByteArray der;
    TsRespPtr resp;
    X509_STORE* store = nullptr;           // TSA root, verification time = genTime
    STACK_OF(X509) * certs = nullptr;      // TSA leaf + intermediates
    X509_STORE* floorStore = nullptr;      // the TSA's signing certificate as the anchor (partial chain)
    STACK_OF(X509) * floorCerts = nullptr; // just that certificate
    qint64 genTime = 0;
};

struct BareCase {
    QString name;
    bool keyMode = false;
    // Trust material, parsed once (as our TrustedRoot and key.pub are read once per case).
    std::vector<PkeyPtr> keys;
    std::vector<StorePtr> stores;
    std::vector<StackPtr> stacks;
    std::map<QByteArray, EVP_PKEY*> ctlogs;
    X509_STORE* caStore = nullptr;
    STACK_OF(X509) * caUntrusted = nullptr;
    X509_STORE* floorCaStore = nullptr;          // the leaf's issuer as the anchor (partial chain)
    STACK_OF(X509) * floorCaUntrusted = nullptr; // empty
    QByteArray issuerKeyHash;
    EVP_PKEY* userKey = nullptr;
    // The bundle's per-bundle objects: prepared once (bare) or decoded in the loop (+decode).
    QByteArray leafDer;
    X509Ptr leaf;
    EVP_PKEY* signingKey = nullptr;
    std::vector<Timestamp> timestamps;
    std::optional<qint64> integratedTime; // of the SET-verified v1 entry
    SctCheck sct;
    QByteArray contentDigest; // SHA-256 of artifact (messageSignature) or of PAE (DSSE)
    std::vector<Op> decodeOps, cryptoOps, floorOps;
};

// Every distinct verified time: the SET's integratedTime and each TSA genTime (read from the
// re-decoded responses in the +decode variant).
std::vector<qint64> distinctTimes(const BareCase& b) {
    std::vector<qint64> distinct;
    if (b.integratedTime)
        distinct.push_back(*b.integratedTime);
    for (const Timestamp& ts : b.timestamps)
        if (std::find(distinct.begin(), distinct.end(), ts.genTime) == distinct.end())
            distinct.push_back(ts.genTime);
    return distinct;
}

// A store whose only trust anchor is `anchor` (not self-signed: partial chain), and an empty or
// one-certificate untrusted stack; both owned by `b`.
std::pair<X509_STORE*, STACK_OF(X509) *> anchoredAt(BareCase& b, X509* anchor, bool withAnchorInStack) {
    X509_STORE* store = X509_STORE_new();
    X509_STORE_add_cert(store, anchor);
    X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN);
    STACK_OF(X509)* stack = sk_X509_new_null();
    if (withAnchorInStack) {
        X509_up_ref(anchor);
        sk_X509_push(stack, anchor);
    }
    b.stores.emplace_back(store);
    b.stacks.emplace_back(stack);
    return {store, stack};
}

void prepareTrust(BareCase& b, const QJsonObject& root) {
    for (const QJsonValue& v : root.value(QLatin1String("ctlogs")).toArray()) {
        const QJsonObject o = v.toObject();
        PkeyPtr k =
            keyFromDer(b64(o.value(QLatin1String("publicKey")).toObject().value(QLatin1String("rawBytes"))));
        if (!k)
            continue;
        b.ctlogs[b64(o.value(QLatin1String("logId")).toObject().value(QLatin1String("keyId")))] = k.get();
        b.keys.push_back(std::move(k));
    }
}

// Stores for one CertificateAuthority chain [certs..., anchor]: anchor in the store, the rest untrusted.
std::pair<X509_STORE*, STACK_OF(X509) *> chainStore(BareCase& b, const QJsonObject& ca) {
    const QJsonArray certs =
        ca.value(QLatin1String("certChain")).toObject().value(QLatin1String("certificates")).toArray();
    X509_STORE* store = X509_STORE_new();
    STACK_OF(X509)* rest = sk_X509_new_null();
    for (int i = 0; i < certs.size(); ++i) {
        X509Ptr x = x509FromDer(b64(certs[i].toObject().value(QLatin1String("rawBytes"))));
        if (i == certs.size() - 1) {
            X509_STORE_add_cert(store, x.get());
            if (X509_self_signed(x.get(), 0) != 1)
                X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN);
        }
        if (i < certs.size() - 1 || certs.size() == 1)
            sk_X509_push(rest, x.release());
    }
    b.stores.emplace_back(store);
    b.stacks.emplace_back(rest);
    return {store, rest};
}

// Everything below reads the case's files with QJsonDocument and OpenSSL only, independent of
// pb::sigstore, and checks that each operation succeeds once before it is timed.
// Fills `b` in place: its operations capture a reference to it.
void prepareBare(BareCase& b, const Case& c) {
    b.name = c.name;
    b.keyMode = c.keyMode();
    const QJsonObject bundle = jsonObject(c.bundleJson, c.name + QStringLiteral(" bundle"));
    const QJsonObject root = jsonObject(c.rootJson, c.name + QStringLiteral(" trusted root"));
    const QJsonObject material = bundle.value(QLatin1String("verificationMaterial")).toObject();
    prepareTrust(b, root);
    auto fail = [&](const QString& what) { die(QStringLiteral("%1: bare OpenSSL: %2").arg(c.name, what)); };

    // Signing key: the leaf certificate's, or the user's key.pub.
    if (b.keyMode) {
        BIO* bio = BIO_new_mem_buf(c.keyPem.constData(), static_cast<int>(c.keyPem.size()));
        b.keys.emplace_back(PEM_read_bio_PUBKEY(bio, nullptr, nullptr, nullptr));
        BIO_free(bio);
        b.userKey = b.keys.back().get();
        if (!b.userKey)
            fail(QStringLiteral("key.pub"));
        b.signingKey = b.userKey;
    } else {
        if (material.contains(QLatin1String("certificate")))
            b.leafDer =
                b64(material.value(QLatin1String("certificate")).toObject().value(QLatin1String("rawBytes")));
        else
            b.leafDer = b64(material.value(QLatin1String("x509CertificateChain"))
                                .toObject()
                                .value(QLatin1String("certificates"))
                                .toArray()
                                .first()
                                .toObject()
                                .value(QLatin1String("rawBytes")));
        b.leaf = x509FromDer(b.leafDer);
        if (!b.leaf)
            fail(QStringLiteral("leaf certificate"));
        b.signingKey = X509_get0_pubkey(b.leaf.get());
    }

    // The content: messageSignature over the artifact, or DSSE over PAE.
    const bool dsse = bundle.contains(QLatin1String("dsseEnvelope"));
    QByteArray signature, payload, expectedArtifactDigest;
    if (dsse) {
        const QJsonObject env = bundle.value(QLatin1String("dsseEnvelope")).toObject();
        payload = b64(env.value(QLatin1String("payload")));
        signature = b64(
            env.value(QLatin1String("signatures")).toArray().first().toObject().value(QLatin1String("sig")));
        const QByteArray type = env.value(QLatin1String("payloadType")).toString().toUtf8();
        const QByteArray pae = "DSSEv1 " + QByteArray::number(type.size()) + ' ' + type + ' ' +
                               QByteArray::number(payload.size()) + ' ' + payload;
        // The statement's subject digest the artifact must match.
        for (const QJsonValue& s : jsonObject(payload, c.name + QStringLiteral(" statement"))
                                       .value(QLatin1String("subject"))
                                       .toArray())
            expectedArtifactDigest = QByteArray::fromHex(s.toObject()
                                                             .value(QLatin1String("digest"))
                                                             .toObject()
                                                             .value(QLatin1String("sha256"))
                                                             .toString()
                                                             .toLatin1());
        b.cryptoOps.push_back({"sha256 PAE", [&b, pae] {
                                   b.contentDigest = sha256(pae);
                                   return true;
                               }});
        b.cryptoOps.push_back({"signature (ECDSA P-256)", [&b, signature] {
                                   return verifyPrehash(b.signingKey, b.contentDigest, signature);
                               }});
        b.cryptoOps.push_back({"sha256 artifact", [artifact = c.artifact, expectedArtifactDigest] {
                                   return sha256(artifact) == expectedArtifactDigest;
                               }});
    } else {
        const QJsonObject ms = bundle.value(QLatin1String("messageSignature")).toObject();
        signature = b64(ms.value(QLatin1String("signature")));
        const QByteArray messageDigest =
            b64(ms.value(QLatin1String("messageDigest")).toObject().value(QLatin1String("digest")));
        b.cryptoOps.push_back({"sha256 artifact", [&b, artifact = c.artifact, messageDigest] {
                                   b.contentDigest = sha256(artifact);
                                   return b.contentDigest == messageDigest;
                               }});
        b.cryptoOps.push_back({"signature (ECDSA P-256)", [&b, signature] {
                                   return verifyPrehash(b.signingKey, b.contentDigest, signature);
                               }});
    }

    // Transparency log entries.
    for (const QJsonValue& ev : material.value(QLatin1String("tlogEntries")).toArray()) {
        const QJsonObject e = ev.toObject();
        const QByteArray logId =
            b64(e.value(QLatin1String("logId")).toObject().value(QLatin1String("keyId")));
        QJsonObject tlog;
        for (const QJsonValue& t : root.value(QLatin1String("tlogs")).toArray())
            if (b64(t.toObject().value(QLatin1String("logId")).toObject().value(QLatin1String("keyId"))) ==
                logId)
                tlog = t.toObject();
        if (tlog.isEmpty())
            fail(QStringLiteral("tlog entry's log is not in the trusted root"));
        b.keys.push_back(keyFromDer(
            b64(tlog.value(QLatin1String("publicKey")).toObject().value(QLatin1String("rawBytes")))));
        EVP_PKEY* logKey = b.keys.back().get();
        const bool ed25519 = EVP_PKEY_get_id(logKey) == EVP_PKEY_ED25519;
        const QByteArray body = b64(e.value(QLatin1String("canonicalizedBody")));
        const qint64 logIndex = e.value(QLatin1String("logIndex")).toString().toLongLong();
        const bool v2 =
            e.value(QLatin1String("kindVersion")).toObject().value(QLatin1String("version")).toString() ==
                QLatin1String("0.0.2") &&
            e.value(QLatin1String("kindVersion")).toObject().value(QLatin1String("kind")).toString() ==
                QLatin1String("hashedrekord");

        // SET (Rekor v1): JCS of {body, integratedTime, logID, logIndex}.
        if (e.contains(QLatin1String("inclusionPromise"))) {
            const qint64 integrated = e.value(QLatin1String("integratedTime")).toString().toLongLong();
            const QByteArray set = b64(e.value(QLatin1String("inclusionPromise"))
                                           .toObject()
                                           .value(QLatin1String("signedEntryTimestamp")));
            const QByteArray jcs =
                "{\"body\":\"" + body.toBase64() + "\",\"integratedTime\":" + QByteArray::number(integrated) +
                ",\"logID\":\"" + logId.toHex() + "\",\"logIndex\":" + QByteArray::number(logIndex) + "}";
            b.cryptoOps.push_back({"SET (ECDSA P-256)", [logKey, jcs, set] {
                                       return verifyMessage(logKey, EVP_sha256(), jcs, set);
                                   }});
            b.integratedTime = integrated;
        }
        // Rekor v1 body: the logged payload hash must be SHA-256 of the envelope's payload.
        if (dsse && !v2) {
            const QJsonObject spec =
                jsonObject(body, c.name + QStringLiteral(" body")).value(QLatin1String("spec")).toObject();
            const QJsonObject ph = spec.contains(QLatin1String("payloadHash"))
                                       ? spec.value(QLatin1String("payloadHash")).toObject()
                                       : spec.value(QLatin1String("content"))
                                             .toObject()
                                             .value(QLatin1String("payloadHash"))
                                             .toObject();
            const QByteArray expected =
                QByteArray::fromHex(ph.value(QLatin1String("value")).toString().toLatin1());
            b.cryptoOps.push_back(
                {"sha256 DSSE payload", [payload, expected] { return sha256(payload) == expected; }});
        }
        // Inclusion proof and checkpoint. The Rekor v2 leaf is the entry rebuilt from the bundle,
        // which equals canonicalizedBody for every untampered bundle (reference 4.6): its bytes are
        // prepared here, its hash is in the loop.
        const QJsonObject proof = e.value(QLatin1String("inclusionProof")).toObject();
        if (!proof.isEmpty()) {
            const qint64 index =
                v2 ? logIndex : proof.value(QLatin1String("logIndex")).toString().toLongLong();
            const qint64 size = proof.value(QLatin1String("treeSize")).toString().toLongLong();
            const QByteArray rootHash = b64(proof.value(QLatin1String("rootHash")));
            QList<QByteArray> path;
            for (const QJsonValue& h : proof.value(QLatin1String("hashes")).toArray())
                path.append(b64(h));
            b.cryptoOps.push_back({"Merkle inclusion (SHA-256)", [body, index, size, path, rootHash] {
                                       return verifyInclusion(index, size, leafHash(body), path, rootHash);
                                   }});
            const QByteArray note = proof.value(QLatin1String("checkpoint"))
                                        .toObject()
                                        .value(QLatin1String("envelope"))
                                        .toString()
                                        .toUtf8();
            const qsizetype split = note.lastIndexOf("\n\n");
            const QByteArray text = note.left(split + 1);
            const QByteArray host = QUrl(tlog.value(QLatin1String("baseUrl")).toString()).host().toUtf8();
            int lines = 0;
            for (const QByteArray& line : note.mid(split + 2).split('\n')) {
                if (!line.startsWith("\xE2\x80\x94 "))
                    continue;
                const QList<QByteArray> parts = line.mid(4).split(' ');
                const QByteArray raw = QByteArray::fromBase64(parts.value(1));
                if (raw.left(4) != logId.left(4) || (ed25519 && parts.value(0) != host))
                    continue; // Rekor v2: unknown lines (witness cosignatures) are ignored
                ++lines;
                const QByteArray sig = raw.mid(4);
                if (ed25519)
                    b.cryptoOps.push_back({"checkpoint (Ed25519)", [logKey, text, sig] {
                                               return verifyMessage(logKey, nullptr, text, sig);
                                           }});
                else
                    b.cryptoOps.push_back({"checkpoint (ECDSA P-256)", [logKey, text, sig] {
                                               return verifyMessage(logKey, EVP_sha256(), text, sig);
                                           }});
            }
            if (lines == 0)
                fail(QStringLiteral("no checkpoint signature line for the log"));
        }
    }

    // RFC 3161 timestamps: the TSA of the trusted root that verifies each one.
    const QJsonArray tsas = root.value(QLatin1String("timestampAuthorities")).toArray();
    for (const QJsonValue& tv : material.value(QLatin1String("timestampVerificationData"))
                                    .toObject()
                                    .value(QLatin1String("rfc3161Timestamps"))
                                    .toArray()) {
        Timestamp ts;
        ts.der = b64(tv.toObject().value(QLatin1String("signedTimestamp")));
        ts.resp = tsRespFromDer(ts.der);
        if (!ts.resp || !genTime(ts.resp.get()))
            fail(QStringLiteral("RFC 3161 response"));
        ts.genTime = *genTime(ts.resp.get());
        for (const QJsonValue& tsa : tsas) {
            auto [store, certs] = chainStore(b, tsa.toObject());
            X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(store), static_cast<time_t>(ts.genTime));
            if (verifyTimestamp(ts.resp.get(), store, certs, signature)) {
                ts.store = store;
                ts.certs = certs;
                std::tie(ts.floorStore, ts.floorCerts) = anchoredAt(b, sk_X509_value(certs, 0), true);
                X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(ts.floorStore),
                                           static_cast<time_t>(ts.genTime));
                if (!verifyTimestamp(ts.resp.get(), ts.floorStore, ts.floorCerts, signature))
                    fail(QStringLiteral(
                        "the timestamp does not verify anchored at the TSA's signing certificate"));
                break;
            }
        }
        if (!ts.store)
            fail(QStringLiteral("no TSA of the trusted root verifies the timestamp"));
        b.timestamps.push_back(std::move(ts));
    }
    for (size_t i = 0; i < b.timestamps.size(); ++i)
        b.cryptoOps.push_back({"RFC 3161 (TS_RESP_verify_response)", [&b, i, signature] {
                                   Timestamp& ts = b.timestamps[i];
                                   return verifyTimestamp(ts.resp.get(), ts.store, ts.certs, signature);
                               }});

    // Identity mode: the certificate path at every verified time, and the SCT.
    if (!b.keyMode) {
        std::vector<qint64> times;
        if (b.integratedTime)
            times.push_back(*b.integratedTime);
        for (const Timestamp& ts : b.timestamps)
            times.push_back(ts.genTime);
        for (const QJsonValue& ca : root.value(QLatin1String("certificateAuthorities")).toArray()) {
            auto [store, untrusted] = chainStore(b, ca.toObject());
            bool all = !times.empty();
            for (qint64 t : times)
                all = all && verifyChain(store, untrusted, b.leaf.get(), t);
            if (all) {
                b.caStore = store;
                b.caUntrusted = untrusted;
                // The SCT's issuer: the CA certificate that issued the leaf.
                X509* issuer = nullptr;
                for (int i = 0; i < sk_X509_num(untrusted) && !issuer; ++i)
                    if (X509_check_issued(sk_X509_value(untrusted, i), b.leaf.get()) == X509_V_OK)
                        issuer = sk_X509_value(untrusted, i);
                if (!issuer) {
                    STACK_OF(X509_OBJECT)* objs = X509_STORE_get0_objects(store);
                    for (int i = 0; i < sk_X509_OBJECT_num(objs) && !issuer; ++i) {
                        X509* x = X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objs, i));
                        if (x && X509_check_issued(x, b.leaf.get()) == X509_V_OK)
                            issuer = x;
                    }
                }
                if (!issuer)
                    fail(QStringLiteral("no issuer for the leaf in the CA chain"));
                std::tie(b.floorCaStore, b.floorCaUntrusted) = anchoredAt(b, issuer, false);
                for (qint64 t : times)
                    if (!verifyChain(b.floorCaStore, b.floorCaUntrusted, b.leaf.get(), t))
                        fail(QStringLiteral("the leaf does not verify anchored at its issuer"));
                unsigned char* spki = nullptr;
                const int spkiLen = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(issuer), &spki);
                b.issuerKeyHash = sha256(reinterpret_cast<const char*>(spki), static_cast<size_t>(spkiLen));
                OPENSSL_free(spki);
                break;
            }
        }
        if (!b.caStore)
            fail(QStringLiteral(
                "no certificate authority of the trusted root verifies the leaf at every verified time"));
        b.cryptoOps.push_back({"X.509 path (X509_verify_cert)", [&b] {
                                   for (const qint64 t : distinctTimes(b))
                                       if (!verifyChain(b.caStore, b.caUntrusted, b.leaf.get(), t))
                                           return false;
                                   return true;
                               }});
        std::optional<SctCheck> sct = sctCheck(b.leaf.get(), b.issuerKeyHash, b.ctlogs);
        if (!sct)
            fail(QStringLiteral("no SCT from a ctlog of the trusted root"));
        b.sct = *sct;
        b.cryptoOps.push_back(
            {"SCT (ECDSA P-256)",
             [&b] { return verifyMessage(b.sct.key, EVP_sha256(), b.sct.signedData, b.sct.signature); }});
    }

    // The floor: every operation as above, the two chain checks anchored at the issuing certificates.
    size_t tsIndex = 0;
    for (const Op& op : b.cryptoOps) {
        const QLatin1String kind(op.kind);
        if (kind == QLatin1String("RFC 3161 (TS_RESP_verify_response)")) {
            const size_t i = tsIndex++;
            b.floorOps.push_back({op.kind, [&b, i, signature] {
                                      Timestamp& ts = b.timestamps[i];
                                      return verifyTimestamp(ts.resp.get(), ts.floorStore, ts.floorCerts,
                                                             signature);
                                  }});
        } else if (kind == QLatin1String("X.509 path (X509_verify_cert)")) {
            b.floorOps.push_back(
                {op.kind, [&b] {
                     for (const qint64 t : distinctTimes(b))
                         if (!verifyChain(b.floorCaStore, b.floorCaUntrusted, b.leaf.get(), t))
                             return false;
                     return true;
                 }});
        } else {
            b.floorOps.push_back(op);
        }
    }

    // The per-bundle DER work, for bare-openssl+decode.
    if (!b.keyMode)
        b.decodeOps.push_back({"DER: leaf certificate", [&b] {
                                   b.leaf = x509FromDer(b.leafDer);
                                   b.signingKey = b.leaf ? X509_get0_pubkey(b.leaf.get()) : nullptr;
                                   return b.signingKey != nullptr;
                               }});
    if (!b.timestamps.empty())
        b.decodeOps.push_back({"DER: RFC 3161 responses + genTime", [&b] {
                                   for (Timestamp& ts : b.timestamps) {
                                       ts.resp = tsRespFromDer(ts.der);
                                       const std::optional<qint64> g =
                                           ts.resp ? genTime(ts.resp.get()) : std::nullopt;
                                       if (!g)
                                           return false;
                                       ts.genTime = *g;
                                   }
                                   return true;
                               }});
    if (!b.keyMode)
        b.decodeOps.push_back({"DER: SCT list + TBS re-encoding", [&b] {
                                   std::optional<SctCheck> s =
                                       sctCheck(b.leaf.get(), b.issuerKeyHash, b.ctlogs);
                                   if (!s)
                                       return false;
                                   b.sct = std::move(*s);
                                   return true;
                               }});
}

bool runOps(const std::vector<Op>& ops) {
    for (const Op& op : ops)
        if (!op.run())
            return false;
    return true;
}

// ---------------------------------------------------------------------------------------------
// Reporting.

struct Side {
    QString name;
    std::function<bool(size_t)> verifyCase; // true: verified
    std::vector<double> perCaseNs;
    double totalNs = 0;
    double cpuNs = 0; // process CPU time (the bench is single-threaded)
};

double cpuNow() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

QByteArray jsonLine(const Side& s, const std::vector<Case>& cases, int iterations,
                    const QStringList& excluded) {
    QJsonObject perCase;
    for (size_t i = 0; i < cases.size(); ++i)
        perCase.insert(cases[i].name, qRound(s.perCaseNs[i] / iterations / 10.0) / 100.0);
    const double verifies = static_cast<double>(iterations) * static_cast<double>(cases.size());
    QJsonObject o{{QStringLiteral("name"), s.name},
                  {QStringLiteral("cases"), static_cast<int>(cases.size())},
                  {QStringLiteral("excluded"), QJsonArray::fromStringList(excluded)},
                  {QStringLiteral("iterations"), iterations},
                  {QStringLiteral("verifies"), verifies},
                  {QStringLiteral("seconds"), qRound(s.totalNs / 1e5) / 1e4},
                  {QStringLiteral("perVerifyUs"), qRound(s.totalNs / verifies / 10.0) / 100.0},
                  {QStringLiteral("cpuSeconds"), qRound(s.cpuNs / 1e5) / 1e4},
                  {QStringLiteral("perVerifyCpuUs"), qRound(s.cpuNs / verifies / 10.0) / 100.0},
                  {QStringLiteral("perCaseUs"), perCase}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QStringList positional;
    std::set<QString> exclude;
    QString only;
    const QStringList args = app.arguments().mid(1);
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--exclude") && i + 1 < args.size()) {
            for (const QString& n : args[++i].split(QLatin1Char(','), Qt::SkipEmptyParts))
                exclude.insert(n);
        } else if (args[i] == QLatin1String("--only") && i + 1 < args.size()) {
            only = args[++i];
        } else if (args[i].startsWith(QLatin1String("--"))) {
            die(QStringLiteral("usage: pb_bench_sigstore [MANIFEST.tsv] [ITERATIONS] [--exclude a,b] [--only "
                               "ours|single|batch|bare]"));
        } else {
            positional << args[i];
        }
    }
    const QString manifest = positional.value(0, QStringLiteral(PB_SHARED_DATA "/sigstore/MANIFEST.tsv"));
    const int iterations = positional.size() > 1 ? positional[1].toInt() : 1000;
    if (iterations < 1)
        die(QStringLiteral("bad ITERATIONS"));
    if (!QFileInfo::exists(manifest))
        die(QStringLiteral("manifest not found at %1 (pass MANIFEST.tsv)").arg(manifest));
    const bool runOurs = only.isEmpty() || only == QLatin1String("ours") || only == QLatin1String("single");
    const bool runBatch = only.isEmpty() || only == QLatin1String("ours") || only == QLatin1String("batch");
    const bool runBare = only.isEmpty() || only == QLatin1String("bare");

    QStringList excluded;
    const std::vector<Case> cases = loadCases(manifest, exclude, &excluded);

    std::vector<Side> sides;
    std::vector<OurCase> ours;
    if (runOurs || runBatch)
        ours = prepareOurs(cases);
    if (runOurs) {
        sides.push_back({QStringLiteral("proofbench"),
                         [&](size_t i) {
                             const OurCase& o = ours[i];
                             return ss::verifyBundle(o.c->bundleJson, o.bundleFile, o.artifact, o.root,
                                                     o.policy)
                                 .verified;
                         },
                         {},
                         0});
        sides.push_back(
            {QStringLiteral("proofbench-parsed"),
             [&](size_t i) {
                 const OurCase& o = ours[i];
                 return ss::verifyBundle(o.bundle, o.bundleFile, o.artifact, o.root, o.policy).verified;
             },
             {},
             0});
    }
    std::vector<BareCase> bare(runBare ? cases.size() : 0); // never resized: the ops refer to their case
    if (runBare) {
        for (size_t i = 0; i < cases.size(); ++i) {
            prepareBare(bare[i], cases[i]);
            if (!runOps(bare[i].cryptoOps) || !runOps(bare[i].decodeOps) || !runOps(bare[i].cryptoOps) ||
                !runOps(bare[i].floorOps))
                die(QStringLiteral("%1: a bare OpenSSL operation fails on this PASS case")
                        .arg(cases[i].name));
        }
        sides.push_back(
            {QStringLiteral("bare-openssl"), [&](size_t i) { return runOps(bare[i].cryptoOps); }, {}, 0});
        sides.push_back({QStringLiteral("bare-openssl+decode"),
                         [&](size_t i) { return runOps(bare[i].decodeOps) && runOps(bare[i].cryptoOps); },
                         {},
                         0});
        sides.push_back(
            {QStringLiteral("bare-floor"), [&](size_t i) { return runOps(bare[i].floorOps); }, {}, 0});
    }

    // The batch side: one block's verifications (every case, n times) handed to ops::verifyBundles at
    // once; wall time and process CPU time (now of every thread) per verification.
    Side batch{QStringLiteral("proofbench-batch"), {}, std::vector<double>(cases.size(), 0), 0, 0};
    auto runBatchBlock = [&](int n) {
        std::vector<pb::ops::BundleVerification> items;
        items.reserve(size_t(n) * ours.size());
        for (int it = 0; it < n; ++it)
            for (const OurCase& o : ours)
                items.push_back({o.c->bundleJson, std::nullopt, o.bundleFile, o.artifact, &o.root, o.policy});
        const double cpu0 = cpuNow();
        const Clock::time_point start = Clock::now();
        const std::vector<ss::VerificationResult> results = pb::ops::verifyBundles(items);
        batch.totalNs += static_cast<double>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
        batch.cpuNs += cpuNow() - cpu0;
        for (size_t i = 0; i < results.size(); ++i)
            if (!results[i].verified)
                die(QStringLiteral("%1: the batch did not verify a PASS case: %2")
                        .arg(ours[i % ours.size()].c->name, results[i].summary()));
    };

    // Blocks of iterations, the sides taking turns, so a drift in the VM's speed reaches all alike.
    for (Side& s : sides)
        s.perCaseNs.assign(cases.size(), 0);
    const int block = 50;
    for (int done = 0; done < iterations; done += block) {
        const int n = std::min(block, iterations - done);
        if (runBatch)
            runBatchBlock(n);
        for (Side& s : sides) {
            const double cpu0 = cpuNow();
            const Clock::time_point start = Clock::now();
            for (int it = 0; it < n; ++it)
                for (size_t i = 0; i < cases.size(); ++i) {
                    const Clock::time_point t0 = Clock::now();
                    if (!s.verifyCase(i))
                        die(QStringLiteral("%1: %2 did not verify a PASS case in the loop")
                                .arg(cases[i].name, s.name));
                    s.perCaseNs[i] += static_cast<double>(
                        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
                }
            s.totalNs += static_cast<double>(
                std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
            s.cpuNs += cpuNow() - cpu0;
        }
    }
    for (const Side& s : sides)
        std::printf("%s\n", jsonLine(s, cases, iterations, excluded).constData());
    if (runBatch) {
        QJsonObject o = QJsonDocument::fromJson(jsonLine(batch, cases, iterations, excluded)).object();
        o.remove(QStringLiteral("perCaseUs")); // one wall time for the whole block: no per-case split
        o.insert(QStringLiteral("perCaseUs"), QJsonObject{});
        o.insert(QStringLiteral("threads"), QThreadPool::globalInstance()->maxThreadCount());
        std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    }

    // Where the bare time goes: each kind of operation timed on its own (a tenth of the iterations).
    if (runBare) {
        std::map<QString, double> byKind;
        const int n = std::max(1, iterations / 10);
        for (int it = 0; it < n; ++it)
            for (BareCase& b : bare)
                for (const std::vector<Op>* ops : {&b.decodeOps, &b.cryptoOps})
                    for (const Op& op : *ops) {
                        const Clock::time_point t0 = Clock::now();
                        if (!op.run())
                            die(QStringLiteral("%1: %2 failed").arg(b.name, QLatin1String(op.kind)));
                        byKind[QLatin1String(op.kind)] += static_cast<double>(
                            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
                    }
        QJsonObject kinds;
        const double verifies = static_cast<double>(n) * static_cast<double>(cases.size());
        for (const auto& [kind, ns] : byKind)
            kinds.insert(kind, qRound(ns / verifies / 10.0) / 100.0);
        QJsonObject o{{QStringLiteral("name"), QStringLiteral("bare-openssl-ops")},
                      {QStringLiteral("iterations"), n},
                      {QStringLiteral("perVerifyUs"), kinds}};
        std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    }
    return 0;
}
