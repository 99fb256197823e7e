#include "sigstore/Keys.h"

#include "core/Hash.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/rand.h>
#include <sodium.h>

#include <mutex>

namespace pb::sigstore {

using namespace crypto;

namespace {

using BioPtr = std::unique_ptr<BIO, decltype(&BIO_free)>;

BioPtr memBio() {
    return BioPtr(BIO_new(BIO_s_mem()), &BIO_free);
}
BioPtr readBio(const QByteArray& data) {
    return BioPtr(BIO_new_mem_buf(data.constData(), int(data.size())), &BIO_free);
}

QByteArray bioBytes(BIO* bio) {
    char* data = nullptr;
    const long len = BIO_get_mem_data(bio, &data);
    return QByteArray(data, int(len));
}

QByteArray randomBytes(int n) {
    QByteArray out(n, Qt::Uninitialized);
    RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), n);
    return out;
}

int passwordCallback(char* buf, int size, int, void* u) {
    const QByteArray& p = static_cast<const Passphrase*>(u)->bytes();
    if (p.size() > size)
        return -1;
    memcpy(buf, p.constData(), size_t(p.size()));
    return int(p.size());
}

QString pemLabel(const QByteArray& pem) {
    const qsizetype begin = pem.indexOf("-----BEGIN ");
    if (begin < 0)
        return {};
    const qsizetype end = pem.indexOf("-----", begin + 11);
    return end < 0 ? QString() : QString::fromLatin1(pem.mid(begin + 11, end - begin - 11));
}

bool sodiumReady() {
    static std::once_flag once;
    static bool ok = false;
    std::call_once(once, [] { ok = sodium_init() >= 0; });
    return ok;
}

Pkey fromPkcs8Der(const QByteArray& der) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.constData());
    PKCS8_PRIV_KEY_INFO* info = d2i_PKCS8_PRIV_KEY_INFO(nullptr, &p, der.size());
    if (!info)
        return {};
    Pkey key(EVP_PKCS82PKEY(info));
    PKCS8_PRIV_KEY_INFO_free(info);
    return key;
}

} // namespace

Passphrase::~Passphrase() {
    if (!m_bytes.isEmpty())
        OPENSSL_cleanse(m_bytes.data(), size_t(m_bytes.size()));
}

Passphrase& Passphrase::operator=(Passphrase&& o) noexcept {
    if (this != &o) {
        if (!m_bytes.isEmpty())
            OPENSSL_cleanse(m_bytes.data(), size_t(m_bytes.size()));
        m_bytes = std::move(o.m_bytes);
    }
    return *this;
}

Pkey generateSigningKey() {
    return Pkey(EVP_EC_gen("P-256"));
}

Result<QByteArray> encryptPrivateKey(EVP_PKEY* key, const Passphrase& passphrase) {
    if (passphrase.isEmpty())
        return makeError(
            QStringLiteral("a private key is only written encrypted: give a non-empty passphrase"));
    PKCS8_PRIV_KEY_INFO* info = EVP_PKEY2PKCS8(key);
    if (!info)
        return makeError(QStringLiteral("cannot encode the private key: %1").arg(lastError()));
    const QByteArray salt = randomBytes(16);
    // scrypt at OpenSSL's own default cost, which its PKCS#8 reader accepts within its memory limit.
    X509_ALGOR* pbe =
        PKCS5_pbe2_set_scrypt(EVP_aes_256_cbc(), reinterpret_cast<const unsigned char*>(salt.constData()),
                              int(salt.size()), nullptr, 16384, 8, 1);
    if (!pbe) {
        PKCS8_PRIV_KEY_INFO_free(info);
        return makeError(QStringLiteral("cannot set up scrypt: %1").arg(lastError()));
    }
    X509_SIG* sealed =
        PKCS8_set0_pbe(passphrase.bytes().constData(), int(passphrase.bytes().size()), info, pbe);
    PKCS8_PRIV_KEY_INFO_free(info);
    if (!sealed) {
        X509_ALGOR_free(pbe);
        return makeError(QStringLiteral("cannot encrypt the private key: %1").arg(lastError()));
    }
    BioPtr bio = memBio();
    const int ok = PEM_write_bio_PKCS8(bio.get(), sealed);
    X509_SIG_free(sealed);
    if (ok != 1)
        return makeError(QStringLiteral("cannot write the private key: %1").arg(lastError()));
    return bioBytes(bio.get());
}

Result<Pkey> readPrivateKey(const QByteArray& pem, const Passphrase& passphrase, const QString& file) {
    const QString label = pemLabel(pem);
    if (label == QLatin1String("ENCRYPTED SIGSTORE PRIVATE KEY") ||
        label == QLatin1String("ENCRYPTED COSIGN PRIVATE KEY"))
        return importCosignKey(pem, passphrase, file);
    if (label != QLatin1String("ENCRYPTED PRIVATE KEY"))
        return makeError(
            label.isEmpty()
                ? QStringLiteral("not a PEM private key")
                : QStringLiteral("'%1' is not an encrypted private key (keys are kept encrypted at rest; "
                                 "import it with keygen --import)")
                      .arg(label),
            file);
    BioPtr bio = readBio(pem);
    EVP_PKEY* key =
        PEM_read_bio_PrivateKey(bio.get(), nullptr, passwordCallback, const_cast<Passphrase*>(&passphrase));
    if (!key) {
        ERR_clear_error();
        return makeError(
            QStringLiteral("cannot decrypt the private key: wrong passphrase, or the file is damaged"), file);
    }
    return Pkey(key);
}

Result<Pkey> readAnyPrivateKey(const QByteArray& pem, const Passphrase& passphrase, const QString& file) {
    const QString label = pemLabel(pem);
    if (label == QLatin1String("PRIVATE KEY") || label == QLatin1String("EC PRIVATE KEY") ||
        label == QLatin1String("RSA PRIVATE KEY")) {
        BioPtr bio = readBio(pem);
        EVP_PKEY* key = PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr);
        ERR_clear_error();
        if (!key)
            return makeError(QStringLiteral("cannot read the %1").arg(label), file);
        return Pkey(key);
    }
    return readPrivateKey(pem, passphrase, file);
}

QByteArray publicKeyPem(EVP_PKEY* key) {
    BioPtr bio = memBio();
    PEM_write_bio_PUBKEY(bio.get(), key);
    return bioBytes(bio.get());
}

QString keyFingerprint(EVP_PKEY* key) {
    return QStringLiteral("sha256:") + QString::fromLatin1(sha256(spkiDer(key)).toHex());
}

QString keyHint(EVP_PKEY* key) {
    return QString::fromLatin1(sha256(spkiDer(key)).toBase64());
}

QString fingerprintFromHint(const QString& hint) {
    const auto decoded =
        QByteArray::fromBase64Encoding(hint.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.size() != 32)
        return hint;
    return QStringLiteral("sha256:") + QString::fromLatin1(decoded.decoded.toHex());
}

Result<QByteArray> exportCosignKey(EVP_PKEY* key, const Passphrase& passphrase) {
    if (!sodiumReady())
        return makeError(QStringLiteral("libsodium failed to initialise"));
    PKCS8_PRIV_KEY_INFO* info = EVP_PKEY2PKCS8(key);
    if (!info)
        return makeError(QStringLiteral("cannot encode the private key: %1").arg(lastError()));
    unsigned char* der = nullptr;
    const int derLen = i2d_PKCS8_PRIV_KEY_INFO(info, &der);
    PKCS8_PRIV_KEY_INFO_free(info);
    if (derLen <= 0)
        return makeError(QStringLiteral("cannot encode the private key"));
    const QByteArray salt = randomBytes(32), nonce = randomBytes(crypto_secretbox_NONCEBYTES);
    unsigned char box[crypto_secretbox_KEYBYTES];
    const bool derived =
        EVP_PBE_scrypt(passphrase.bytes().constData(), size_t(passphrase.bytes().size()),
                       reinterpret_cast<const unsigned char*>(salt.constData()), size_t(salt.size()), 65536,
                       8, 1, 256ull * 1024 * 1024, box, sizeof box) == 1;
    QByteArray cipher(derLen + int(crypto_secretbox_MACBYTES), Qt::Uninitialized);
    if (derived)
        crypto_secretbox_easy(reinterpret_cast<unsigned char*>(cipher.data()), der, size_t(derLen),
                              reinterpret_cast<const unsigned char*>(nonce.constData()), box);
    OPENSSL_clear_free(der, size_t(derLen));
    OPENSSL_cleanse(box, sizeof box);
    if (!derived)
        return makeError(QStringLiteral("scrypt failed: %1").arg(lastError()));
    const QJsonObject doc{{QStringLiteral("kdf"),
                           QJsonObject{{QStringLiteral("name"), QStringLiteral("scrypt")},
                                       {QStringLiteral("params"), QJsonObject{{QStringLiteral("N"), 65536},
                                                                              {QStringLiteral("r"), 8},
                                                                              {QStringLiteral("p"), 1}}},
                                       {QStringLiteral("salt"), QString::fromLatin1(salt.toBase64())}}},
                          {QStringLiteral("cipher"),
                           QJsonObject{{QStringLiteral("name"), QStringLiteral("nacl/secretbox")},
                                       {QStringLiteral("nonce"), QString::fromLatin1(nonce.toBase64())}}},
                          {QStringLiteral("ciphertext"), QString::fromLatin1(cipher.toBase64())}};
    const QByteArray body = QJsonDocument(doc).toJson(QJsonDocument::Compact);
    BioPtr bio = memBio();
    PEM_write_bio(bio.get(), "ENCRYPTED SIGSTORE PRIVATE KEY", "",
                  reinterpret_cast<const unsigned char*>(body.constData()), long(body.size()));
    return bioBytes(bio.get());
}

Result<Pkey> importCosignKey(const QByteArray& pem, const Passphrase& passphrase, const QString& file) {
    if (!sodiumReady())
        return makeError(QStringLiteral("libsodium failed to initialise"), file);
    BioPtr bio = readBio(pem);
    char* name = nullptr;
    char* header = nullptr;
    unsigned char* data = nullptr;
    long len = 0;
    if (PEM_read_bio(bio.get(), &name, &header, &data, &len) != 1) {
        ERR_clear_error();
        return makeError(QStringLiteral("not a PEM file"), file);
    }
    const QByteArray label(name);
    const QByteArray body(reinterpret_cast<const char*>(data), int(len));
    OPENSSL_free(name);
    OPENSSL_free(header);
    OPENSSL_free(data);
    if (label != "ENCRYPTED SIGSTORE PRIVATE KEY" && label != "ENCRYPTED COSIGN PRIVATE KEY")
        return makeError(QStringLiteral("'%1' is not a cosign private key").arg(QString::fromLatin1(label)),
                         file);
    const QJsonObject doc = QJsonDocument::fromJson(body).object();
    const QJsonObject kdf = doc.value(QStringLiteral("kdf")).toObject();
    const QJsonObject params = kdf.value(QStringLiteral("params")).toObject();
    const QJsonObject cipher = doc.value(QStringLiteral("cipher")).toObject();
    if (kdf.value(QStringLiteral("name")).toString() != QLatin1String("scrypt"))
        return makeError(QStringLiteral("kdf '%1' is not supported (scrypt only)")
                             .arg(kdf.value(QStringLiteral("name")).toString()),
                         file, 0, QStringLiteral("kdf.name"));
    const qint64 n = params.value(QStringLiteral("N")).toInteger(),
                 r = params.value(QStringLiteral("r")).toInteger(),
                 p = params.value(QStringLiteral("p")).toInteger();
    // cosign decrypts only these cost settings; anything else may be a denial-of-service file.
    if (!((n == 32768 || n == 65536 || n == 131072) && r == 8 && p == 1))
        return makeError(
            QStringLiteral("scrypt parameters N=%1 r=%2 p=%3 are not among cosign's").arg(n).arg(r).arg(p),
            file, 0, QStringLiteral("kdf.params"));
    if (cipher.value(QStringLiteral("name")).toString() != QLatin1String("nacl/secretbox"))
        return makeError(QStringLiteral("cipher '%1' is not supported")
                             .arg(cipher.value(QStringLiteral("name")).toString()),
                         file, 0, QStringLiteral("cipher.name"));
    const QByteArray salt = QByteArray::fromBase64(kdf.value(QStringLiteral("salt")).toString().toLatin1());
    const QByteArray nonce =
        QByteArray::fromBase64(cipher.value(QStringLiteral("nonce")).toString().toLatin1());
    const QByteArray sealed =
        QByteArray::fromBase64(doc.value(QStringLiteral("ciphertext")).toString().toLatin1());
    if (nonce.size() != int(crypto_secretbox_NONCEBYTES) || sealed.size() <= int(crypto_secretbox_MACBYTES))
        return makeError(QStringLiteral("the nonce or ciphertext has the wrong size"), file, 0,
                         QStringLiteral("cipher.nonce"));
    unsigned char box[crypto_secretbox_KEYBYTES];
    if (EVP_PBE_scrypt(passphrase.bytes().constData(), size_t(passphrase.bytes().size()),
                       reinterpret_cast<const unsigned char*>(salt.constData()), size_t(salt.size()),
                       uint64_t(n), uint64_t(r), uint64_t(p), 512ull * 1024 * 1024, box, sizeof box) != 1)
        return makeError(QStringLiteral("scrypt failed: %1").arg(lastError()), file);
    QByteArray der(sealed.size() - int(crypto_secretbox_MACBYTES), Qt::Uninitialized);
    const int opened = crypto_secretbox_open_easy(
        reinterpret_cast<unsigned char*>(der.data()),
        reinterpret_cast<const unsigned char*>(sealed.constData()), size_t(sealed.size()),
        reinterpret_cast<const unsigned char*>(nonce.constData()), box);
    OPENSSL_cleanse(box, sizeof box);
    if (opened != 0)
        return makeError(
            QStringLiteral("cannot decrypt the cosign key: wrong passphrase, or the file is damaged"), file);
    Pkey key = fromPkcs8Der(der);
    OPENSSL_cleanse(der.data(), size_t(der.size()));
    if (!key) {
        ERR_clear_error();
        return makeError(QStringLiteral("the decrypted key is not PKCS#8"), file);
    }
    return key;
}

} // namespace pb::sigstore
