#include "Tls.h"

#include <QRandomGenerator>
#include <QStringList>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <memory>

namespace kts {
namespace {

struct KeyFree {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct CertFree {
    void operator()(X509* c) const { X509_free(c); }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;
using CertPtr = std::unique_ptr<X509, CertFree>;

QString sslError(const char* what) {
    QString out = QString::fromLatin1(what);
    unsigned long code = 0;
    while ((code = ERR_get_error()) != 0) {
        char buf[256];
        ERR_error_string_n(code, buf, sizeof buf);
        out += QLatin1String(": ") + QString::fromLatin1(buf);
    }
    return out;
}

bool addExt(X509* cert, X509* issuer, int nid, const char* value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    if (!ext)
        return false;
    const bool ok = X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

struct Subject {
    const char* cn;
    const char* o;
};

// A certificate for `key`, signed by `issuerKey` (self-signed when issuer is null).
CertPtr makeCert(EVP_PKEY* key, const Subject& subject, X509* issuer, EVP_PKEY* issuerKey,
                 const QList<QPair<int, const char*>>& extensions) {
    CertPtr cert(X509_new());
    if (!cert)
        return {};
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set_uint64(X509_get_serialNumber(cert.get()), QRandomGenerator::global()->generate64() >> 1);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 365L * 24 * 3600);
    X509_set_pubkey(cert.get(), key);
    X509_NAME* name = X509_get_subject_name(cert.get());
    if (subject.o)
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(subject.o),
                                   -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(subject.cn),
                               -1, -1, 0);
    X509_set_issuer_name(cert.get(), issuer ? X509_get_subject_name(issuer) : name);
    X509* issuerCert = issuer ? issuer : cert.get();
    for (const auto& [nid, value] : extensions)
        if (!addExt(cert.get(), issuerCert, nid, value))
            return {};
    if (X509_sign(cert.get(), issuerKey ? issuerKey : key, EVP_sha256()) <= 0)
        return {};
    return cert;
}

QByteArray certPem(X509* cert) {
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(bio, cert);
    char* data = nullptr;
    const long len = BIO_get_mem_data(bio, &data);
    QByteArray out(data, len);
    BIO_free(bio);
    return out;
}

QByteArray keyPem(EVP_PKEY* key) {
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
    char* data = nullptr;
    const long len = BIO_get_mem_data(bio, &data);
    QByteArray out(data, len);
    BIO_free(bio);
    return out;
}

CertPtr readCert(const QByteArray& pem) {
    BIO* bio = BIO_new_mem_buf(pem.constData(), int(pem.size()));
    CertPtr cert(PEM_read_bio_X509(bio, nullptr, nullptr, nullptr));
    BIO_free(bio);
    return cert;
}

KeyPtr readKey(const QByteArray& pem) {
    BIO* bio = BIO_new_mem_buf(pem.constData(), int(pem.size()));
    KeyPtr key(PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr));
    BIO_free(bio);
    return key;
}

} // namespace

std::optional<Pki> generatePki(QString* error) {
    KeyPtr caKey(EVP_EC_gen("P-256")), serverKey(EVP_EC_gen("P-256")), clientKey(EVP_EC_gen("P-256"));
    if (!caKey || !serverKey || !clientKey) {
        *error = sslError("EC P-256 key generation failed");
        return std::nullopt;
    }
    CertPtr ca = makeCert(caKey.get(), {"pb-kube-testserver-ca", "proofbench"}, nullptr, nullptr,
                          {{NID_basic_constraints, "critical,CA:TRUE"},
                           {NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature"},
                           {NID_subject_key_identifier, "hash"}});
    if (!ca) {
        *error = sslError("CA certificate creation failed");
        return std::nullopt;
    }
    CertPtr server =
        makeCert(serverKey.get(), {"kube-apiserver", nullptr}, ca.get(), caKey.get(),
                 {{NID_basic_constraints, "critical,CA:FALSE"},
                  {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
                  {NID_ext_key_usage, "serverAuth"},
                  {NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost,DNS:kubernetes.default.svc"},
                  {NID_authority_key_identifier, "keyid:always"}});
    CertPtr client = makeCert(clientKey.get(), {"pb-admin", "system:masters"}, ca.get(), caKey.get(),
                              {{NID_basic_constraints, "critical,CA:FALSE"},
                               {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
                               {NID_ext_key_usage, "clientAuth"},
                               {NID_authority_key_identifier, "keyid:always"}});
    if (!server || !client) {
        *error = sslError("leaf certificate creation failed");
        return std::nullopt;
    }
    Pki pki;
    pki.caCert = certPem(ca.get());
    pki.caKey = keyPem(caKey.get());
    pki.serverCert = certPem(server.get());
    pki.serverKey = keyPem(serverKey.get());
    pki.clientCert = certPem(client.get());
    pki.clientKey = keyPem(clientKey.get());
    return pki;
}

TlsContext::~TlsContext() {
    SSL_CTX_free(ctx_);
}

namespace {
int selectAlpn(SSL*, const unsigned char** out, unsigned char* outlen, const unsigned char* in,
               unsigned int inlen, void* arg) {
    const bool http2 = arg != nullptr;
    for (const char* wanted : {"h2", "http/1.1"}) {
        const QByteArray want(wanted);
        if (want == "h2" && !http2)
            continue;
        for (unsigned int i = 0; i < inlen;) {
            const unsigned int len = in[i];
            if (i + 1 + len > inlen)
                break;
            if (len == unsigned(want.size()) && std::memcmp(in + i + 1, want.constData(), len) == 0) {
                *out = in + i + 1;
                *outlen = static_cast<unsigned char>(len);
                return SSL_TLSEXT_ERR_OK;
            }
            i += 1 + len;
        }
    }
    return SSL_TLSEXT_ERR_NOACK;
}
} // namespace

bool TlsContext::init(const Pki& pki, QString* error, bool http2) {
    ctx_ = SSL_CTX_new(TLS_server_method());
    if (!ctx_) {
        *error = sslError("SSL_CTX_new failed");
        return false;
    }
    SSL_CTX_set_min_proto_version(ctx_, TLS1_2_VERSION);
    CertPtr ca = readCert(pki.caCert), server = readCert(pki.serverCert);
    KeyPtr key = readKey(pki.serverKey);
    if (!ca || !server || !key || SSL_CTX_use_certificate(ctx_, server.get()) != 1 ||
        SSL_CTX_use_PrivateKey(ctx_, key.get()) != 1 || SSL_CTX_check_private_key(ctx_) != 1) {
        *error = sslError("loading the server certificate failed");
        return false;
    }
    X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx_), ca.get());
    SSL_CTX_add_client_CA(ctx_, ca.get());
    // Ask for a client certificate, verify it when given; bearer tokens cover the rest.
    SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER, nullptr);
    SSL_CTX_set_alpn_select_cb(ctx_, selectAlpn, http2 ? this : nullptr);
    static const unsigned char sid[] = "pb-kube-testserver";
    SSL_CTX_set_session_id_context(ctx_, sid, sizeof sid - 1);
    return true;
}

TlsStream::TlsStream(SSL_CTX* ctx, int fd) : ssl_(SSL_new(ctx)), fd_(fd) {
    SSL_set_fd(ssl_, fd_);
}

TlsStream::~TlsStream() {
    if (!broken_ && ssl_)
        SSL_shutdown(ssl_);
    SSL_free(ssl_);
    if (fd_ >= 0)
        ::close(fd_);
}

bool TlsStream::handshake() {
    if (SSL_accept(ssl_) != 1) {
        ERR_clear_error();
        broken_ = true;
        return false;
    }
    if (const char* sni = SSL_get_servername(ssl_, TLSEXT_NAMETYPE_host_name))
        sni_ = QString::fromUtf8(sni);
    const unsigned char* proto = nullptr;
    unsigned int protoLen = 0;
    SSL_get0_alpn_selected(ssl_, &proto, &protoLen);
    if (proto)
        alpn_ = QByteArray(reinterpret_cast<const char*>(proto), int(protoLen));
    if (X509* peer = SSL_get0_peer_certificate(ssl_); peer && SSL_get_verify_result(ssl_) == X509_V_OK) {
        X509_NAME* name = X509_get_subject_name(peer);
        for (int i = -1; (i = X509_NAME_get_index_by_NID(name, NID_commonName, i)) >= 0;) {
            unsigned char* utf8 = nullptr;
            const int n = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, i)));
            if (n >= 0)
                peerCn_ = QString::fromUtf8(reinterpret_cast<const char*>(utf8), n);
            OPENSSL_free(utf8);
        }
        for (int i = -1; (i = X509_NAME_get_index_by_NID(name, NID_organizationName, i)) >= 0;) {
            unsigned char* utf8 = nullptr;
            const int n = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, i)));
            if (n >= 0)
                peerOrgs_ << QString::fromUtf8(reinterpret_cast<const char*>(utf8), n);
            OPENSSL_free(utf8);
        }
    }
    return true;
}

long TlsStream::read(char* buffer, long size) {
    // The blocking read is readSome on a blocking socket, where "would block" is an error.
    const long n = readSome(buffer, size);
    if (n == -2) {
        broken_ = true;
        return -1;
    }
    return n;
}

bool TlsStream::writeAll(const char* data, long size) {
    while (size > 0 && !broken_) {
        const int n = SSL_write(ssl_, data, int(size));
        if (n <= 0) {
            ERR_clear_error();
            broken_ = true;
            return false;
        }
        data += n;
        size -= n;
    }
    return !broken_;
}

bool TlsStream::setNonBlocking() {
    const int flags = ::fcntl(fd_, F_GETFL, 0);
    if (flags < 0 || ::fcntl(fd_, F_SETFL, flags | O_NONBLOCK) != 0)
        return false;
    SSL_set_mode(ssl_, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    return true;
}

long TlsStream::readSome(char* buffer, long size) {
    if (broken_)
        return -1;
    const int n = SSL_read(ssl_, buffer, int(size));
    if (n > 0)
        return n;
    const int err = SSL_get_error(ssl_, n);
    ERR_clear_error();
    if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE)
        return -2;
    if (err == SSL_ERROR_ZERO_RETURN)
        return 0;
    broken_ = true;
    return err == SSL_ERROR_SYSCALL ? 0 : -1;
}

long TlsStream::writeSome(const char* data, long size) {
    if (broken_)
        return -1;
    const int n = SSL_write(ssl_, data, int(size));
    if (n > 0)
        return n;
    const int err = SSL_get_error(ssl_, n);
    ERR_clear_error();
    if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE)
        return -2;
    broken_ = true;
    return -1;
}

bool TlsStream::peerGone() const {
    if (broken_)
        return true;
    pollfd p{fd_, short(POLLIN | POLLRDHUP), 0};
    if (::poll(&p, 1, 0) <= 0)
        return false;
    return (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

void TlsStream::abort() {
    broken_ = true;
    if (fd_ >= 0) {
        ::shutdown(fd_, SHUT_RDWR);
        ::close(fd_);
        fd_ = -1;
    }
}

} // namespace kts
