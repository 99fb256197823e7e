// The fixed-base P-384 verification below needs OpenSSL's EC_KEY_METHOD and EC_POINT arithmetic,
// which OpenSSL 3.0 marks deprecated (they are still its public, supported API in 3.x).
#define OPENSSL_SUPPRESS_DEPRECATED
#include "sigstore/Crypto.h"

#include <QMutex>
#include <QStringList>
#include <QThread>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>

#include <atomic>
#include <map>
#include <mutex>

namespace pb::sigstore::crypto {

// ---------------------------------------------------------------------------------------------
// ECDSA P-384 verification with precomputed tables for trust-root keys
//
// OpenSSL 3.0 has no optimised P-384: a verification there is a generic double scalar
// multiplication u1*G + u2*Q (about 384 doublings). Fulcio's intermediates and the TSA certificates
// are P-384, and they never change for a trusted root, so for them (and for G) we precompute, once per
// process and key, every multiple d * 64^j * P (d = 1..63, j = 0..63) as affine points (about 1.2 MB
// a key). A verification is then at most 128 point additions and no doubling, done with OpenSSL's own EC_POINT
// and BIGNUM arithmetic; the rest of ECDSA verification (r, s range, digest truncation, s^-1, the
// final x mod n == r) is the textbook algorithm (SEC 1 4.1.4), and the comparison is done in
// Jacobian coordinates (X == r * Z^2 or (r + n) * Z^2 mod p), so no field inversion is needed.
//
// It is wired in as the verify_sig of the process's default EC_KEY_METHOD (a copy of OpenSSL's),
// so every ECDSA check made by OpenSSL itself — X509_verify_cert, TS_RESP_verify_response, our own
// EVP_DigestVerify — reaches it. Any key that is not a registered P-384 trust-root key, or any
// failure to set up the tables, goes to OpenSSL's own verify_sig unchanged.

namespace {

constexpr int kWindowBits = 6;                           // 64 windows of 6 bits: at most 128 additions
constexpr int kWindows = (384 + kWindowBits - 1) / kWindowBits;
constexpr int kDigits = (1 << kWindowBits) - 1;          // non-zero digits of a window
constexpr size_t kMaxRegisteredKeys = 64;

struct BnCtxFree { void operator()(BN_CTX* c) const { BN_CTX_free(c); } };
struct GroupFree { void operator()(EC_GROUP* g) const { EC_GROUP_free(g); } };

// d * 64^j * P for every window j and digit d, affine.
struct CombTable {
    std::vector<EC_POINT*> points; // [j * kDigits + d - 1]
    CombTable() = default;
    CombTable(const CombTable&) = delete;
    CombTable& operator=(const CombTable&) = delete;
    ~CombTable() {
        for (EC_POINT* p : points)
            EC_POINT_free(p);
    }
    const EC_POINT* at(int window, int digit) const { return points[size_t(window * kDigits + digit - 1)]; }
};

std::unique_ptr<CombTable> buildComb(const EC_GROUP* g, const EC_POINT* base) {
    std::unique_ptr<BN_CTX, BnCtxFree> ctx(BN_CTX_new());
    auto table = std::make_unique<CombTable>();
    table->points.reserve(size_t(kWindows * kDigits));
    EC_POINT* b = EC_POINT_dup(base, g);
    bool ok = b != nullptr && ctx;
    for (int j = 0; ok && j < kWindows; ++j) {
        EC_POINT* prev = nullptr;
        for (int d = 1; ok && d <= kDigits; ++d) {
            EC_POINT* p = d == 1 ? EC_POINT_dup(b, g) : EC_POINT_new(g);
            ok = p != nullptr && (d == 1 || EC_POINT_add(g, p, prev, b, ctx.get()) == 1);
            if (p)
                table->points.push_back(p);
            prev = p;
        }
        // next base: 2^w * b = (2^w - 1) * b + b
        ok = ok && EC_POINT_add(g, b, prev, b, ctx.get()) == 1;
    }
    EC_POINT_free(b);
    ok = ok && EC_POINTs_make_affine(g, table->points.size(), table->points.data(), ctx.get()) == 1;
    ERR_clear_error();
    if (!ok || table->points.size() != size_t(kWindows * kDigits))
        return nullptr;
    return table;
}

// The generator's table, built once per process on first use (points of one P-384 group work with
// any other copy of that group).
const CombTable* generatorTable() {
    static std::once_flag once;
    static const CombTable* table = nullptr; // never freed, as the registry
    std::call_once(once, [] {
        std::unique_ptr<EC_GROUP, GroupFree> group(EC_GROUP_new_by_curve_name(NID_secp384r1));
        if (group)
            table = buildComb(group.get(), EC_GROUP_get0_generator(group.get())).release();
        ERR_clear_error();
    });
    return table;
}

struct FastKey {
    std::once_flag once;
    std::unique_ptr<EC_GROUP, GroupFree> group;
    std::unique_ptr<CombTable> q; // the key's table
    const CombTable* g = nullptr; // the generator's
    bool ready = false;
};

struct Registry {
    QMutex lock;
    std::map<QByteArray, std::shared_ptr<FastKey>> keys; // by uncompressed point
    int (*original)(const unsigned char*, int, const ECDSA_SIG*, EC_KEY*) = nullptr;
    std::atomic_bool enabled{true};
    std::atomic<quint64> fastVerifications{0};
};

// Never destroyed: OpenSSL may run its own cleanup at exit before our statics' destructors, and the
// tables are only memory.
Registry& registry() {
    static Registry* r = new Registry;
    return *r;
}

// u as 48 big-endian bytes, and the digit of window j (bits [j*w, j*w + w), j = 0 least significant).
inline int digitAt(const unsigned char* be48, int j) {
    int value = 0;
    for (int b = 0; b < kWindowBits; ++b) {
        const int bit = j * kWindowBits + b;
        if (bit < 384)
            value |= ((be48[47 - bit / 8] >> (bit % 8)) & 1) << b;
    }
    return value;
}

// 1 valid, 0 invalid, -1 error (then the caller falls back to OpenSSL).
int fastVerify(const FastKey& k, const unsigned char* dgst, int dgstLen, const ECDSA_SIG* sig) {
    const EC_GROUP* g = k.group.get();
    std::unique_ptr<BN_CTX, BnCtxFree> ctxHolder(BN_CTX_new());
    BN_CTX* ctx = ctxHolder.get();
    if (!ctx)
        return -1;
    BN_CTX_start(ctx);
    struct End { BN_CTX* c; ~End() { BN_CTX_end(c); } } end{ctx};
    BIGNUM *m = BN_CTX_get(ctx), *w = BN_CTX_get(ctx), *u1 = BN_CTX_get(ctx), *u2 = BN_CTX_get(ctx), *p = BN_CTX_get(ctx),
           *X = BN_CTX_get(ctx), *Y = BN_CTX_get(ctx), *Z = BN_CTX_get(ctx), *t = BN_CTX_get(ctx), *rn = BN_CTX_get(ctx);
    if (!rn)
        return -1;
    const BIGNUM* n = EC_GROUP_get0_order(g);
    const BIGNUM *r = nullptr, *s = nullptr;
    ECDSA_SIG_get0(sig, &r, &s);
    if (!r || !s || BN_is_zero(r) || BN_is_negative(r) || BN_ucmp(r, n) >= 0 || BN_is_zero(s) || BN_is_negative(s) ||
        BN_ucmp(s, n) >= 0)
        return 0;
    // The digest as an integer, its leftmost bits when longer than the order (SEC 1 4.1.4 step 3).
    const int bits = BN_num_bits(n);
    if (dgstLen < 0)
        return -1;
    if (8 * dgstLen > bits)
        dgstLen = (bits + 7) / 8;
    if (!BN_bin2bn(dgst, dgstLen, m))
        return -1;
    if (8 * dgstLen > bits && !BN_rshift(m, m, 8 - (bits & 0x7)))
        return -1;
    if (!BN_mod_inverse(w, s, n, ctx) || !BN_mod_mul(u1, m, w, n, ctx) || !BN_mod_mul(u2, r, w, n, ctx))
        return -1;
    unsigned char e1[48], e2[48];
    if (BN_bn2binpad(u1, e1, 48) != 48 || BN_bn2binpad(u2, e2, 48) != 48)
        return -1;
    EC_POINT* acc = EC_POINT_new(g);
    if (!acc)
        return -1;
    std::unique_ptr<EC_POINT, decltype(&EC_POINT_free)> accHolder(acc, &EC_POINT_free);
    if (EC_POINT_set_to_infinity(g, acc) != 1)
        return -1;
    for (int j = 0; j < kWindows; ++j) {
        if (const int d = digitAt(e1, j); d && EC_POINT_add(g, acc, acc, k.g->at(j, d), ctx) != 1)
            return -1;
        if (const int d = digitAt(e2, j); d && EC_POINT_add(g, acc, acc, k.q->at(j, d), ctx) != 1)
            return -1;
    }
    if (EC_POINT_is_at_infinity(g, acc))
        return 0;
    // x(R) mod n == r, with x(R) = X / Z^2: X == r Z^2, or X == (r + n) Z^2 when r + n < p.
    if (EC_GROUP_get_curve(g, p, nullptr, nullptr, ctx) != 1 || EC_POINT_get_Jprojective_coordinates_GFp(g, acc, X, Y, Z, ctx) != 1)
        return -1;
    if (!BN_mod_sqr(Z, Z, p, ctx) || !BN_mod_mul(t, r, Z, p, ctx))
        return -1;
    if (BN_cmp(t, X) == 0)
        return 1;
    if (!BN_add(rn, r, n))
        return -1;
    if (BN_ucmp(rn, p) < 0) {
        if (!BN_mod_mul(t, rn, Z, p, ctx))
            return -1;
        if (BN_cmp(t, X) == 0)
            return 1;
    }
    return 0;
}

std::shared_ptr<FastKey> findKey(const EC_KEY* eckey) {
    const EC_GROUP* g = EC_KEY_get0_group(eckey);
    const EC_POINT* pub = EC_KEY_get0_public_key(eckey);
    if (!g || !pub || EC_GROUP_get_curve_name(g) != NID_secp384r1)
        return nullptr;
    unsigned char buf[97];
    const size_t len = EC_POINT_point2oct(g, pub, POINT_CONVERSION_UNCOMPRESSED, buf, sizeof buf, nullptr);
    if (len != sizeof buf)
        return nullptr;
    Registry& reg = registry();
    QMutexLocker locked(&reg.lock);
    const auto it = reg.keys.find(QByteArray(reinterpret_cast<const char*>(buf), int(len)));
    return it == reg.keys.end() ? nullptr : it->second;
}

int hookedVerifySig(const unsigned char* dgst, int dgstLen, const ECDSA_SIG* sig, EC_KEY* eckey) {
    Registry& reg = registry();
    if (reg.enabled.load(std::memory_order_relaxed)) {
        if (std::shared_ptr<FastKey> k = findKey(eckey)) {
            std::call_once(k->once, [&] {
                const EC_GROUP* g = EC_KEY_get0_group(eckey);
                k->group.reset(EC_GROUP_dup(g));
                if (k->group)
                    k->q = buildComb(k->group.get(), EC_KEY_get0_public_key(eckey));
                k->g = generatorTable();
                k->ready = k->q && k->g;
            });
            if (k->ready) {
                const int rc = fastVerify(*k, dgst, dgstLen, sig);
                if (rc >= 0) {
                    reg.fastVerifications.fetch_add(1, std::memory_order_relaxed);
                    ERR_clear_error();
                    return rc;
                }
                ERR_clear_error();
            }
        }
    }
    ERR_clear_error();
    return reg.original(dgst, dgstLen, sig, eckey);
}

// Installed before main() runs (no other thread exists yet), so every EC_KEY made afterwards,
// including the ones OpenSSL's providers make when decoding certificates, carries the hook.
struct Installer {
    Installer() {
        const EC_KEY_METHOD* base = EC_KEY_OpenSSL();
        EC_KEY_METHOD* meth = EC_KEY_METHOD_new(base);
        if (!meth)
            return;
        int (*verify)(int, const unsigned char*, int, const unsigned char*, int, EC_KEY*) = nullptr;
        int (*verifySig)(const unsigned char*, int, const ECDSA_SIG*, EC_KEY*) = nullptr;
        EC_KEY_METHOD_get_verify(base, &verify, &verifySig);
        if (!verify || !verifySig) {
            EC_KEY_METHOD_free(meth);
            return;
        }
        registry().original = verifySig;
        EC_KEY_METHOD_set_verify(meth, verify, hookedVerifySig);
        EC_KEY_set_default_method(meth); // never freed: EC_KEYs refer to it until the process ends
    }
} installer;

} // namespace

void registerTrustedKey(EVP_PKEY* key) {
    if (!key || keyKind(key) != KeyKind::EcP384 || !registry().original)
        return;
    unsigned char buf[97];
    size_t len = 0;
    if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, buf, sizeof buf, &len) != 1 || len != sizeof buf ||
        buf[0] != 0x04) {
        ERR_clear_error();
        return;
    }
    Registry& reg = registry();
    QMutexLocker locked(&reg.lock);
    const QByteArray point(reinterpret_cast<const char*>(buf), int(len));
    if (reg.keys.size() < kMaxRegisteredKeys && !reg.keys.count(point))
        reg.keys.emplace(point, std::make_shared<FastKey>());
}

void setFastVerification(bool enabled) { registry().enabled.store(enabled); }

quint64 fastVerifications() { return registry().fastVerifications.load(); }

Pkey pkeyFromDer(const QByteArray& spki) {
    const auto* p = reinterpret_cast<const unsigned char*>(spki.constData());
    EVP_PKEY* key = d2i_PUBKEY(nullptr, &p, spki.size());
    if (key && p != reinterpret_cast<const unsigned char*>(spki.constData()) + spki.size()) {
        EVP_PKEY_free(key); // trailing bytes after the key
        return {};
    }
    return Pkey(key);
}

Pkey pkeyFromPkcs1Rsa(const QByteArray& der) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.constData());
    return Pkey(d2i_PublicKey(EVP_PKEY_RSA, nullptr, &p, der.size()));
}

Pkey pkeyFromPem(const QByteArray& pem) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())), &BIO_free);
    if (EVP_PKEY* key = PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr))
        return Pkey(key);
    ERR_clear_error();
    // PKCS#1 "RSA PUBLIC KEY", as cosign also accepts.
    char* name = nullptr;
    char* header = nullptr;
    unsigned char* data = nullptr;
    long len = 0;
    std::unique_ptr<BIO, decltype(&BIO_free)> again(BIO_new_mem_buf(pem.constData(), int(pem.size())), &BIO_free);
    Pkey out;
    if (PEM_read_bio(again.get(), &name, &header, &data, &len) == 1 && qstrcmp(name, "RSA PUBLIC KEY") == 0)
        out = pkeyFromPkcs1Rsa(QByteArray(reinterpret_cast<const char*>(data), int(len)));
    OPENSSL_free(name);
    OPENSSL_free(header);
    OPENSSL_free(data);
    ERR_clear_error();
    return out;
}

Cert certFromDer(const QByteArray& der) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.constData());
    X509* cert = d2i_X509(nullptr, &p, der.size());
    if (cert && p != reinterpret_cast<const unsigned char*>(der.constData()) + der.size()) {
        X509_free(cert);
        return {};
    }
    return Cert(cert);
}

Cert certFromPem(const QByteArray& pem) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())), &BIO_free);
    return Cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
}

QByteArray spkiDer(EVP_PKEY* key) {
    unsigned char* buf = nullptr;
    const int len = i2d_PUBKEY(key, &buf);
    if (len <= 0)
        return {};
    QByteArray out(reinterpret_cast<const char*>(buf), len);
    OPENSSL_free(buf);
    return out;
}

QByteArray certDer(X509* cert) {
    unsigned char* buf = nullptr;
    const int len = i2d_X509(cert, &buf);
    if (len <= 0)
        return {};
    QByteArray out(reinterpret_cast<const char*>(buf), len);
    OPENSSL_free(buf);
    return out;
}

QString lastError() {
    QStringList parts;
    while (const unsigned long e = ERR_get_error()) {
        char buf[256];
        ERR_error_string_n(e, buf, sizeof buf);
        parts << QString::fromLatin1(buf);
    }
    return parts.join(QStringLiteral("; "));
}

KeyKind keyKind(EVP_PKEY* key) {
    if (!key)
        return KeyKind::Unknown;
    switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_EC: {
        char group[64] = {};
        size_t len = 0;
        if (EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &len) != 1)
            return KeyKind::Unknown;
        const QByteArray g(group);
        if (g == "prime256v1" || g == "P-256")
            return KeyKind::EcP256;
        if (g == "secp384r1" || g == "P-384")
            return KeyKind::EcP384;
        if (g == "secp521r1" || g == "P-521")
            return KeyKind::EcP521;
        return KeyKind::Unknown;
    }
    case EVP_PKEY_RSA:
        return KeyKind::Rsa;
    case EVP_PKEY_ED25519:
        return KeyKind::Ed25519;
    default:
        return KeyKind::Unknown;
    }
}

const EVP_MD* defaultDigest(EVP_PKEY* key) {
    switch (keyKind(key)) {
    case KeyKind::EcP384:
        return EVP_sha384();
    case KeyKind::EcP521:
        return EVP_sha512();
    case KeyKind::Ed25519:
    case KeyKind::Unknown:
        return nullptr;
    default:
        return EVP_sha256();
    }
}

const EVP_MD* digestByName(const QString& name) {
    if (name == QLatin1String("SHA2_256") || name == QLatin1String("sha256"))
        return EVP_sha256();
    if (name == QLatin1String("SHA2_384") || name == QLatin1String("sha384"))
        return EVP_sha384();
    if (name == QLatin1String("SHA2_512") || name == QLatin1String("sha512"))
        return EVP_sha512();
    return nullptr;
}

QByteArray hash(const EVP_MD* md, const QByteArray& data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(data.constData(), size_t(data.size()), out, &len, md, nullptr) != 1)
        return {};
    return QByteArray(reinterpret_cast<const char*>(out), int(len));
}

bool verifyMessage(EVP_PKEY* key, const EVP_MD* md, const QByteArray& data, const QByteArray& signature) {
    if (!key || signature.isEmpty())
        return false;
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (EVP_DigestVerifyInit(ctx.get(), nullptr, keyKind(key) == KeyKind::Ed25519 ? nullptr : md, nullptr, key) != 1) {
        ERR_clear_error();
        return false;
    }
    const int rc = EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.constData()), size_t(signature.size()),
                                    reinterpret_cast<const unsigned char*>(data.constData()), size_t(data.size()));
    ERR_clear_error();
    return rc == 1;
}

bool verifyPrehash(EVP_PKEY* key, const EVP_MD* md, const QByteArray& digest, const QByteArray& signature) {
    if (!key || !md || keyKind(key) == KeyKind::Ed25519)
        return false;
    std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> ctx(EVP_PKEY_CTX_new(key, nullptr), &EVP_PKEY_CTX_free);
    if (!ctx || EVP_PKEY_verify_init(ctx.get()) != 1 || EVP_PKEY_CTX_set_signature_md(ctx.get(), md) != 1) {
        ERR_clear_error();
        return false;
    }
    if (keyKind(key) == KeyKind::Rsa)
        EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_PADDING);
    const int rc = EVP_PKEY_verify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.constData()), size_t(signature.size()),
                                   reinterpret_cast<const unsigned char*>(digest.constData()), size_t(digest.size()));
    ERR_clear_error();
    return rc == 1;
}

void releasePoolThreadState(const QThread* caller) {
    if (QThread::currentThread() != caller)
        OPENSSL_thread_stop();
}

} // namespace pb::sigstore::crypto
