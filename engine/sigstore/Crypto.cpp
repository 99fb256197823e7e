#include "sigstore/Crypto.h"

#include <QMutex>
#include <QStringList>
#include <QThread>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>

#include <atomic>
#include <map>
#include <mutex>

namespace pb::sigstore::crypto {

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
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())),
                                                  &BIO_free);
    if (EVP_PKEY* key = PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr))
        return Pkey(key);
    ERR_clear_error();
    // PKCS#1 "RSA PUBLIC KEY", as cosign also accepts.
    char* name = nullptr;
    char* header = nullptr;
    unsigned char* data = nullptr;
    long len = 0;
    std::unique_ptr<BIO, decltype(&BIO_free)> again(BIO_new_mem_buf(pem.constData(), int(pem.size())),
                                                    &BIO_free);
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
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())),
                                                  &BIO_free);
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

namespace {

// OpenSSL 3 looks a legacy EVP_sha256() up in its provider store on every use (a lock and a
// table lookup, more than hashing a Merkle node costs); the digests used here are fetched once,
// as OpenSSL's guide to explicit fetching recommends, and kept for the life of the process.
const EVP_MD* fetched(const EVP_MD* md) {
    static EVP_MD* const sha256 = EVP_MD_fetch(nullptr, "SHA2-256", nullptr);
    static EVP_MD* const sha384 = EVP_MD_fetch(nullptr, "SHA2-384", nullptr);
    static EVP_MD* const sha512 = EVP_MD_fetch(nullptr, "SHA2-512", nullptr);
    if (md == EVP_sha256() && sha256)
        return sha256;
    if (md == EVP_sha384() && sha384)
        return sha384;
    if (md == EVP_sha512() && sha512)
        return sha512;
    return md;
}

} // namespace

QByteArray hash(const EVP_MD* md, const QByteArray& data) {
    md = fetched(md);
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
    if (EVP_DigestVerifyInit(ctx.get(), nullptr, keyKind(key) == KeyKind::Ed25519 ? nullptr : fetched(md),
                             nullptr, key) != 1) {
        ERR_clear_error();
        return false;
    }
    const int rc = EVP_DigestVerify(
        ctx.get(), reinterpret_cast<const unsigned char*>(signature.constData()), size_t(signature.size()),
        reinterpret_cast<const unsigned char*>(data.constData()), size_t(data.size()));
    ERR_clear_error();
    return rc == 1;
}

bool verifyPrehash(EVP_PKEY* key, const EVP_MD* md, const QByteArray& digest, const QByteArray& signature) {
    if (!key || !md || keyKind(key) == KeyKind::Ed25519)
        return false;
    std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> ctx(EVP_PKEY_CTX_new(key, nullptr),
                                                                    &EVP_PKEY_CTX_free);
    if (!ctx || EVP_PKEY_verify_init(ctx.get()) != 1 ||
        EVP_PKEY_CTX_set_signature_md(ctx.get(), fetched(md)) != 1) {
        ERR_clear_error();
        return false;
    }
    if (keyKind(key) == KeyKind::Rsa)
        EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_PADDING);
    const int rc = EVP_PKEY_verify(
        ctx.get(), reinterpret_cast<const unsigned char*>(signature.constData()), size_t(signature.size()),
        reinterpret_cast<const unsigned char*>(digest.constData()), size_t(digest.size()));
    ERR_clear_error();
    return rc == 1;
}

void releasePoolThreadState(const QThread* caller) {
    if (QThread::currentThread() != caller)
        OPENSSL_thread_stop();
}

} // namespace pb::sigstore::crypto
