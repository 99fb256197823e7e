// Signing keys: ECDSA P-256, private keys only ever written encrypted (PKCS#8 with scrypt and
// AES-256-CBC), public keys as SPKI PEM, and cosign's "ENCRYPTED SIGSTORE PRIVATE KEY" format
// (scrypt + NaCl secretbox, via libsodium) for import and export. Passphrases are wiped after use.
#pragma once

#include "core/Result.h"
#include "sigstore/Crypto.h"

#include <QByteArray>
#include <QString>

namespace pb::sigstore {

// A passphrase held in memory that is overwritten when it goes away.
class Passphrase {
  public:
    Passphrase() = default;
    explicit Passphrase(QByteArray bytes) : m_bytes(std::move(bytes)) {}
    ~Passphrase();
    Passphrase(const Passphrase&) = delete;
    Passphrase& operator=(const Passphrase&) = delete;
    Passphrase(Passphrase&& o) noexcept : m_bytes(std::move(o.m_bytes)) {}
    Passphrase& operator=(Passphrase&& o) noexcept;
    const QByteArray& bytes() const { return m_bytes; }
    bool isEmpty() const { return m_bytes.isEmpty(); }

  private:
    QByteArray m_bytes;
};

crypto::Pkey generateSigningKey(); // ECDSA P-256

// "ENCRYPTED PRIVATE KEY" PEM: PKCS#8, PBES2 with scrypt (N=16384, r=8, p=1) and AES-256-CBC.
Result<QByteArray> encryptPrivateKey(EVP_PKEY* key, const Passphrase& passphrase);
// Reads our encrypted PKCS#8 or cosign's format (detected by the PEM label). `file` names errors.
Result<crypto::Pkey> readPrivateKey(const QByteArray& pem, const Passphrase& passphrase, const QString& file);
// Also accepts unencrypted PKCS#8 / SEC1 / PKCS#1 PEM, for importing keys made elsewhere.
Result<crypto::Pkey> readAnyPrivateKey(const QByteArray& pem, const Passphrase& passphrase,
                                       const QString& file);

QByteArray publicKeyPem(EVP_PKEY* key);
// A key's one id: "sha256:" + the lower-case hex SHA-256 of its SPKI DER, as keygen, keys list, the
// Sign view, receipts and verify print it (verify and short labels print a prefix of the same).
QString keyFingerprint(EVP_PKEY* key);
// The same digest as base64: the publicKey hint a bundle carries, and how signing_keys stores it.
QString keyHint(EVP_PKEY* key);
// A stored hint (base64 of 32 bytes) in the one spelling; anything else is returned unchanged.
QString fingerprintFromHint(const QString& hint);

// cosign.key: "ENCRYPTED SIGSTORE PRIVATE KEY" (scrypt N=65536 r=8 p=1, NaCl secretbox over PKCS#8 DER).
Result<QByteArray> exportCosignKey(EVP_PKEY* key, const Passphrase& passphrase);
Result<crypto::Pkey> importCosignKey(const QByteArray& pem, const Passphrase& passphrase,
                                     const QString& file);

} // namespace pb::sigstore
