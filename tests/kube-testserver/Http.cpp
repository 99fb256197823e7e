#include "Http.h"

#include <QUrl>

namespace kts {
namespace {
constexpr qsizetype kMaxHeaderBytes = 64 * 1024;
constexpr qsizetype kMaxBodyBytes = 16 * 1024 * 1024;
} // namespace

QByteArray reasonPhrase(int status) {
    switch (status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 413:
        return "Payload Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Entity";
    case 500:
        return "Internal Server Error";
    default:
        return "Status";
    }
}

bool HttpConnection::fill() {
    char buf[16384];
    const long n = stream_.read(buf, sizeof buf);
    if (n <= 0)
        return false;
    buffer_.append(buf, n);
    return true;
}

bool HttpConnection::readLine(QByteArray& line) {
    for (;;) {
        const qsizetype at = buffer_.indexOf("\r\n");
        if (at >= 0) {
            line = buffer_.left(at);
            buffer_.remove(0, at + 2);
            return true;
        }
        if (buffer_.size() > kMaxHeaderBytes || !fill())
            return false;
    }
}

bool HttpConnection::readExactly(qsizetype n, QByteArray& out) {
    while (buffer_.size() < n)
        if (!fill())
            return false;
    out += buffer_.left(n);
    buffer_.remove(0, n);
    return true;
}

HttpConnection::ReadResult HttpConnection::readRequest(Request& request) {
    request = Request{};
    QByteArray line;
    do { // tolerate stray CRLF between requests
        if (!readLine(line))
            return buffer_.isEmpty() ? ReadResult::Closed : ReadResult::Malformed;
    } while (line.isEmpty());
    const QList<QByteArray> parts = line.split(' ');
    if (parts.size() != 3 || !parts[2].startsWith("HTTP/1."))
        return ReadResult::Malformed;
    request.method = parts[0];
    request.target = parts[1];
    const bool http10 = parts[2] == "HTTP/1.0";
    for (;;) {
        if (!readLine(line))
            return ReadResult::Malformed;
        if (line.isEmpty())
            break;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return ReadResult::Malformed;
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (request.headers.contains(name))
            request.headers[name] += ", " + value;
        else
            request.headers.insert(name, value);
    }
    const QByteArray connection = request.header("connection").toLower();
    request.keepAlive = http10 ? connection.contains("keep-alive") : !connection.contains("close");

    if (request.header("transfer-encoding").toLower().contains("chunked")) {
        for (;;) {
            if (!readLine(line))
                return ReadResult::Malformed;
            bool ok = false;
            const qsizetype size = line.split(';').first().trimmed().toLongLong(&ok, 16);
            if (!ok || size < 0 || request.body.size() + size > kMaxBodyBytes)
                return ReadResult::Malformed;
            if (size == 0) {
                do { // trailers, up to the empty line
                    if (!readLine(line))
                        return ReadResult::Malformed;
                } while (!line.isEmpty());
                break;
            }
            QByteArray crlf;
            if (!readExactly(size, request.body) || !readExactly(2, crlf) || crlf != "\r\n")
                return ReadResult::Malformed;
        }
    } else if (request.headers.contains("content-length")) {
        bool ok = false;
        const qsizetype length = request.header("content-length").toLongLong(&ok);
        if (!ok || length < 0 || length > kMaxBodyBytes || !readExactly(length, request.body))
            return ReadResult::Malformed;
    }

    parseTarget(request);
    return ReadResult::Ok;
}

void parseTarget(Request& request) {
    const qsizetype q = request.target.indexOf('?');
    const QByteArray rawPath = q >= 0 ? request.target.left(q) : request.target;
    request.path = QUrl::fromPercentEncoding(rawPath);
    if (q >= 0) {
        // Form encoding, as Go's url.ParseQuery reads it (client-go writes spaces as '+':
        // labelSelector=app+in+%28a%2Cb%29); a literal plus arrives as %2B.
        QByteArray query = request.target.mid(q + 1);
        query.replace('+', "%20");
        request.query.setQuery(QString::fromUtf8(query));
    }
}

bool HttpConnection::send(int status, const QByteArray& contentType, const QByteArray& body, bool keepAlive) {
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    head += "Content-Type: " + contentType + "\r\n";
    head += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    head += "Cache-Control: no-cache, private\r\n";
    head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    head += "\r\n";
    return stream_.writeAll(head + body);
}

bool HttpConnection::beginChunked(int status, const QByteArray& contentType) {
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    head += "Content-Type: " + contentType + "\r\n";
    head += "Transfer-Encoding: chunked\r\n";
    head += "Cache-Control: no-cache, private\r\n";
    head += "\r\n";
    return stream_.writeAll(head);
}

bool HttpConnection::chunk(const QByteArray& data) {
    if (data.isEmpty())
        return true;
    return stream_.writeAll(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
}

bool HttpConnection::endChunked() {
    return stream_.writeAll(QByteArrayLiteral("0\r\n\r\n"));
}

} // namespace kts
