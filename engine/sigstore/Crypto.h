// Thin RAII wrappers over the OpenSSL 3 operations Sigstore needs: keys from SPKI DER or PEM,
// signature checks over data or a prehash (ECDSA, RSA PKCS#1 v1.5, pure Ed25519), hashes by
// Sigstore's algorithm names. Every primitive is OpenSSL's.
#pragma once

#include <QByteArray>
#include <QString>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <memory>

class QThread;

namespace pb::sigstore::crypto {

struct PkeyFree {
    void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct X509Free {
    void operator()(X509* p) const { X509_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using Cert = std::unique_ptr<X509, X509Free>;

Pkey pkeyFromDer(const QByteArray& spki);     // SubjectPublicKeyInfo
Pkey pkeyFromPkcs1Rsa(const QByteArray& der); // RSAPublicKey (trusted root's PKCS1_RSA_PKCS1V5)
Pkey pkeyFromPem(const QByteArray& pem);      // "PUBLIC KEY" or "RSA PUBLIC KEY"
Cert certFromDer(const QByteArray& der);
Cert certFromPem(const QByteArray& pem);
QByteArray spkiDer(EVP_PKEY* key);
QByteArray certDer(X509* cert);
QString lastError(); // OpenSSL's error queue, drained, as text

enum class KeyKind { Unknown, EcP256, EcP384, EcP521, Rsa, Ed25519 };
KeyKind keyKind(EVP_PKEY* key);
// The digest a key signs with in Sigstore (nullptr for Ed25519, which signs the message itself).
const EVP_MD* defaultDigest(EVP_PKEY* key);
// "SHA2_256" and friends, and OpenSSL's digest for them.
const EVP_MD* digestByName(const QString& sigstoreName);
QByteArray hash(const EVP_MD* md, const QByteArray& data);

// Signature over `data` hashed with `md` (or pure Ed25519 when md is null).
bool verifyMessage(EVP_PKEY* key, const EVP_MD* md, const QByteArray& data, const QByteArray& signature);
// Signature over an already computed digest (ECDSA and RSA only).
bool verifyPrehash(EVP_PKEY* key, const EVP_MD* md, const QByteArray& digest, const QByteArray& signature);

// Called by a worker of a thread pool after each job: gives back OpenSSL's per-thread state (its
// error queue) now rather than when the thread ends, because Qt lets a pool thread finish exiting
// after the process has moved on, and OpenSSL's cleanup of that thread could then race the exit.
// Does nothing on `caller` (the thread that started the work, which blockingMap also uses).
void releasePoolThreadState(const QThread* caller);

} // namespace pb::sigstore::crypto
