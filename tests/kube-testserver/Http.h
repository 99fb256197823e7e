// HTTP/1.1 over a TlsStream: requests with Content-Length or chunked bodies, keep-alive, and
// responses either whole or chunked (watch and log streams).
#pragma once

#include "Tls.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QUrlQuery>

namespace kts {

struct Request {
    QByteArray method;
    QByteArray target;   // as sent, e.g. "/api/v1/pods?watch=1"
    QString path;        // percent-decoded path without the query
    QUrlQuery query;
    QMap<QByteArray, QByteArray> headers;  // names lower-cased
    QByteArray body;
    bool keepAlive = true;

    QByteArray header(const QByteArray& lowerName) const { return headers.value(lowerName); }
    QString param(const QString& key) const { return query.queryItemValue(key, QUrl::FullyDecoded); }
    bool hasParam(const QString& key) const { return query.hasQueryItem(key); }
};

class HttpConnection {
  public:
    explicit HttpConnection(TlsStream& stream) : stream_(stream) {}

    enum class ReadResult { Ok, Closed, Malformed };
    ReadResult readRequest(Request& request);

    bool send(int status, const QByteArray& contentType, const QByteArray& body, bool keepAlive);
    bool beginChunked(int status, const QByteArray& contentType);
    bool chunk(const QByteArray& data);
    bool endChunked();

    TlsStream& stream() { return stream_; }

  private:
    bool fill();                          // reads more into buffer_; false on close/error
    bool readLine(QByteArray& line);      // one CRLF-terminated line, without the CRLF
    bool readExactly(qsizetype n, QByteArray& out);

    TlsStream& stream_;
    QByteArray buffer_;
};

QByteArray reasonPhrase(int status);

} // namespace kts
