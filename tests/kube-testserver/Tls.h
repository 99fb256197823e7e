// TLS for the test API server: a throwaway PKI (CA, server certificate for 127.0.0.1/localhost,
// client certificate for CN pb-admin / O system:masters) and a server-side TLS stream over a socket
// that asks for, and verifies, client certificates against that CA.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

namespace kts {

struct Pki {
    QByteArray caCert, caKey;
    QByteArray serverCert, serverKey;
    QByteArray clientCert, clientKey;
};

// Generates the three EC P-256 key pairs and certificates; nullopt with `error` set on failure.
std::optional<Pki> generatePki(QString* error);

class TlsContext {
  public:
    TlsContext() = default;
    ~TlsContext();
    TlsContext(const TlsContext&) = delete;
    TlsContext& operator=(const TlsContext&) = delete;
    // With `http2`, ALPN offers "h2" first (then "http/1.1"); without, only "http/1.1".
    bool init(const Pki& pki, QString* error, bool http2 = true);
    SSL_CTX* handle() const { return ctx_; }

  private:
    SSL_CTX* ctx_ = nullptr;
};

// One accepted connection. Owns the socket; not thread-safe (one thread per connection).
class TlsStream {
  public:
    TlsStream(SSL_CTX* ctx, int fd);
    ~TlsStream();
    TlsStream(const TlsStream&) = delete;
    TlsStream& operator=(const TlsStream&) = delete;

    bool handshake();
    // The verified client certificate's subject CN (empty when none was presented).
    QString peerCommonName() const { return peerCn_; }
    QStringList peerOrganizations() const { return peerOrgs_; }
    // The SNI the client sent (empty when none) and the ALPN protocol agreed ("h2", "http/1.1", or
    // empty when the client offered none).
    QString serverName() const { return sni_; }
    QByteArray alpn() const { return alpn_; }
    // Bytes read (>0), 0 on orderly close, -1 on error.
    long read(char* buffer, long size);
    bool writeAll(const char* data, long size);
    bool writeAll(const QByteArray& data) { return writeAll(data.constData(), data.size()); }
    // Non-blocking use (the HTTP/2 loop polls the socket itself): after setNonBlocking(), readSome
    // and writeSome return -2 when they would block, -1 on error, 0 (read) on orderly close.
    bool setNonBlocking();
    long readSome(char* buffer, long size);
    long writeSome(const char* data, long size);
    // True when the peer has hung up (checked without blocking).
    bool peerGone() const;
    // Closes the socket without a TLS close_notify (a dropped connection).
    void abort();
    int fd() const { return fd_; }

  private:
    SSL* ssl_ = nullptr;
    int fd_ = -1;
    bool broken_ = false;
    QString peerCn_;
    QStringList peerOrgs_;
    QString sni_;
    QByteArray alpn_;
};

} // namespace kts
