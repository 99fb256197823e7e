// HTTP/1.1 over a TlsStream: requests with Content-Length or chunked bodies, keep-alive, and
// responses either whole or chunked (watch and log streams).
#pragma once

#include "Tls.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QUrlQuery>

namespace kts {

struct Request {
    QByteArray method;
    QByteArray target; // as sent, e.g. "/api/v1/pods?watch=1"
    QString path;      // percent-decoded path without the query
    QUrlQuery query;
    QMap<QByteArray, QByteArray> headers; // names lower-cased
    QByteArray body;
    bool keepAlive = true;
    QByteArray protocol = "HTTP/1.1"; // or "h2"

    QByteArray header(const QByteArray& lowerName) const { return headers.value(lowerName); }
    QString param(const QString& key) const { return query.queryItemValue(key, QUrl::FullyDecoded); }
    bool hasParam(const QString& key) const { return query.hasQueryItem(key); }
};

// Who is on the other end of a connection (copied out of the TLS session).
struct Peer {
    QString commonName; // verified client certificate CN, empty when none
    QStringList organizations;
    QString serverName; // SNI
    QByteArray alpn;    // "h2", "http/1.1" or empty
    static Peer of(const TlsStream& s) {
        return {s.peerCommonName(), s.peerOrganizations(), s.serverName(), s.alpn()};
    }
};

// One request's answer, over HTTP/1.1 (HttpConnection) or an HTTP/2 stream (Http2.h): a whole body
// or a stream of pieces (chunked on HTTP/1.1, DATA frames on HTTP/2).
class Exchange {
  public:
    virtual ~Exchange() = default;
    virtual bool send(int status, const QByteArray& contentType, const QByteArray& body, bool keepAlive) = 0;
    virtual bool beginChunked(int status, const QByteArray& contentType) = 0;
    virtual bool chunk(const QByteArray& data) = 0;
    virtual bool endChunked() = 0;
    // True when the client has gone (connection closed, stream reset).
    virtual bool peerGone() = 0;
    // Ends the response without a proper end: the connection is cut (HTTP/1.1) or the stream reset
    // (HTTP/2), as a dropped watch looks to a client.
    virtual void abort() = 0;
    virtual const Peer& peer() const = 0;
};

// Parses request.target into path and query (form-encoded: '+' is a space, as Go reads queries).
void parseTarget(Request& request);

class HttpConnection : public Exchange {
  public:
    explicit HttpConnection(TlsStream& stream) : stream_(stream), peer_(Peer::of(stream)) {}

    enum class ReadResult { Ok, Closed, Malformed };
    ReadResult readRequest(Request& request);

    bool send(int status, const QByteArray& contentType, const QByteArray& body, bool keepAlive) override;
    bool beginChunked(int status, const QByteArray& contentType) override;
    bool chunk(const QByteArray& data) override;
    bool endChunked() override;
    bool peerGone() override { return stream_.peerGone(); }
    void abort() override { stream_.abort(); }
    const Peer& peer() const override { return peer_; }

    TlsStream& stream() { return stream_; }

  private:
    bool fill();                     // reads more into buffer_; false on close/error
    bool readLine(QByteArray& line); // one CRLF-terminated line, without the CRLF
    bool readExactly(qsizetype n, QByteArray& out);

    TlsStream& stream_;
    Peer peer_;
    QByteArray buffer_;
};

QByteArray reasonPhrase(int status);

} // namespace kts
