#include "kube/Client.h"
#include "core/Files.h"
#include "core/Plural.h"

#include <curl/curl.h>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

#include <arpa/inet.h>

#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace pb::kube {

namespace {

void globalInit() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

QString methodPath(const QByteArray& method, const QString& path) {
    return QString::fromLatin1(method) + QLatin1Char(' ') + path;
}

QByteArray encodeQuery(const QUrlQuery& query) {
    QByteArray out;
    for (const auto& [k, v] : query.queryItems(QUrl::FullyDecoded)) {
        if (!out.isEmpty())
            out += '&';
        out += QUrl::toPercentEncoding(k) + '=' + QUrl::toPercentEncoding(v);
    }
    return out;
}

QString statusText(long code) {
    switch (code) {
    case 400:
        return QStringLiteral("Bad Request");
    case 401:
        return QStringLiteral("Unauthorized");
    case 403:
        return QStringLiteral("Forbidden");
    case 404:
        return QStringLiteral("Not Found");
    case 405:
        return QStringLiteral("Method Not Allowed");
    case 409:
        return QStringLiteral("Conflict");
    case 410:
        return QStringLiteral("Gone");
    case 422:
        return QStringLiteral("Unprocessable Entity");
    case 429:
        return QStringLiteral("Too Many Requests");
    case 500:
        return QStringLiteral("Internal Server Error");
    case 503:
        return QStringLiteral("Service Unavailable");
    case 504:
        return QStringLiteral("Gateway Timeout");
    default:
        return {};
    }
}

// Fills reason and message of a non-2xx answer from its Status body (or its text).
void describeFailure(ApiResponse& r, const QString& what) {
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(r.body, &pe);
    QString detail;
    if (doc.isObject()) {
        r.object = doc.object();
        r.reason = r.object.value(QStringLiteral("reason")).toString();
        detail = r.object.value(QStringLiteral("message")).toString();
    } else {
        detail = QString::fromUtf8(r.body.left(300)).trimmed();
    }
    if (r.reason.isEmpty())
        r.reason = statusText(r.http).remove(QLatin1Char(' '));
    QString head = what + QStringLiteral(": ") + QString::number(r.http);
    if (!r.reason.isEmpty())
        head += QLatin1Char(' ') + r.reason;
    r.message = detail.isEmpty() ? head : head + QStringLiteral(": ") + detail;
}

// An IP address as Go's net.IP compares them: IPv4 and IPv4-mapped IPv6 are the same address.
struct Ip {
    bool valid = false;
    bool v4 = false;
    unsigned char b[16] = {};
};

Ip parseIp(const QString& text) {
    Ip ip;
    const QByteArray t = text.toLatin1();
    unsigned char buf[16] = {};
    if (::inet_pton(AF_INET, t.constData(), buf) == 1) {
        ip.valid = ip.v4 = true;
        std::memcpy(ip.b, buf, 4);
    } else if (::inet_pton(AF_INET6, t.constData(), buf) == 1) {
        ip.valid = true;
        static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (std::memcmp(buf, mapped, 12) == 0) {
            ip.v4 = true;
            std::memcpy(ip.b, buf + 12, 4);
        } else {
            std::memcpy(ip.b, buf, 16);
        }
    }
    return ip;
}

bool sameIp(const Ip& a, const Ip& b) {
    return a.valid && b.valid && a.v4 == b.v4 && std::memcmp(a.b, b.b, a.v4 ? 4 : 16) == 0;
}

bool isLoopback(const Ip& ip) {
    static const unsigned char one[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    return ip.valid && (ip.v4 ? ip.b[0] == 127 : std::memcmp(ip.b, one, 16) == 0);
}

// "10.0.0.0/8", "fd00::/8"; false when `cidr` is not one.
bool parseCidr(const QString& cidr, Ip& net, int& bits) {
    const qsizetype slash = cidr.indexOf(QLatin1Char('/'));
    if (slash <= 0)
        return false;
    net = parseIp(cidr.left(slash));
    bool ok = false;
    bits = cidr.mid(slash + 1).toInt(&ok);
    return net.valid && ok && bits >= 0 && bits <= (net.v4 ? 32 : 128);
}

bool inCidr(const Ip& ip, const Ip& net, int bits) {
    if (!ip.valid || ip.v4 != net.v4)
        return false;
    for (int i = 0; i < bits; ++i) {
        const int byte = i / 8, mask = 0x80 >> (i % 8);
        if ((ip.b[byte] & mask) != (net.b[byte] & mask))
            return false;
    }
    return true;
}

} // namespace

QString proxyFromEnvironment(const QUrl& server, const QProcessEnvironment& env) {
    auto either = [&](const char* upper, const char* lower) { // Go: the first one set and non-empty
        QString v = env.value(QLatin1String(upper)).trimmed();
        return v.isEmpty() ? env.value(QLatin1String(lower)).trimmed() : v;
    };
    const bool https = server.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0;
    QString proxy = https ? either("HTTPS_PROXY", "https_proxy") : either("HTTP_PROXY", "http_proxy");
    if (proxy.isEmpty())
        return {};
    const QString host = server.host().toLower();
    const QString port = QString::number(server.port(https ? 443 : 80));
    const Ip ip = parseIp(host);
    if (host == QLatin1String("localhost") || isLoopback(ip))
        return {};
    for (QString entry : either("NO_PROXY", "no_proxy").split(QLatin1Char(','))) {
        entry = entry.trimmed().toLower();
        if (entry.isEmpty())
            continue;
        if (entry == QLatin1String("*"))
            return {};
        Ip net;
        int bits = 0;
        if (parseCidr(entry, net, bits)) {
            if (inCidr(ip, net, bits))
                return {};
            continue;
        }
        QString phost = entry, pport;
        if (entry.startsWith(QLatin1Char('['))) { // [v6] or [v6]:port
            const qsizetype close = entry.indexOf(QLatin1Char(']'));
            if (close < 0)
                continue;
            phost = entry.mid(1, close - 1);
            if (entry.mid(close + 1).startsWith(QLatin1Char(':')))
                pport = entry.mid(close + 2);
        } else if (entry.count(QLatin1Char(':')) == 1) { // host:port (a bare IPv6 has more colons)
            phost = entry.section(QLatin1Char(':'), 0, 0);
            pport = entry.section(QLatin1Char(':'), 1);
        }
        if (phost.isEmpty())
            continue;
        if (const Ip pip = parseIp(phost); pip.valid) {
            if (sameIp(ip, pip) && (pport.isEmpty() || pport == port))
                return {};
            continue;
        }
        if (phost.startsWith(QLatin1String("*.")))
            phost = phost.mid(1);
        bool matchHost = false;
        if (!phost.startsWith(QLatin1Char('.'))) {
            matchHost = true;
            phost.prepend(QLatin1Char('.'));
        }
        if ((host.endsWith(phost) || (matchHost && host == phost.mid(1))) &&
            (pport.isEmpty() || pport == port))
            return {};
    }
    if (!proxy.contains(QLatin1String("://")))
        proxy.prepend(QStringLiteral("http://"));
    return proxy;
}

Status startProbe(Client& client, int retrySec, const std::function<bool()>& cancelled) {
    if (Result<Credentials> c = client.credentials().get(); !c)
        return makeError(QStringLiteral("the credentials for %1 could not be got (nothing was run): %2")
                             .arg(client.server(), c.error().toString()));
    QElapsedTimer clock;
    clock.start();
    int delay = 100;
    for (int attempt = 1;; ++attempt) {
        const ApiResponse r = client.get(QStringLiteral("/version"));
        if (r.ok())
            return {};
        if (r.reason == QLatin1String("Cancelled"))
            return makeError(QStringLiteral("cancelled before the run started"));
        const bool unanswered =
            r.http == 0 && r.reason != QLatin1String("TLS") && r.reason != QLatin1String("Credentials");
        const bool retry = unanswered || r.http == 429 || r.http >= 500;
        QString why = r.message;
        if (r.http == 401)
            why += QStringLiteral(" (the server did not accept the context's credentials)");
        if (!retry)
            return makeError(why + QStringLiteral("; nothing was run"));
        const qint64 left = qint64(retrySec) * 1000 - clock.elapsed();
        if (left <= 0 || (cancelled && cancelled()))
            return makeError(
                QStringLiteral("%1 (gave up after %2 over %3 s); nothing was run")
                    .arg(why)
                    .arg(counted(qint64(attempt), QStringLiteral("attempt"), QStringLiteral("attempts")))
                    .arg(clock.elapsed() / 1000.0, 0, 'f', 1));
        for (qint64 slept = 0; slept < std::min<qint64>(delay, left); slept += 50) {
            if (cancelled && cancelled())
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        delay = std::min(delay * 2, 5000);
    }
}

QString resourcePath(const QString& apiVersion, const QString& resource, const QString& ns,
                     const QString& name) {
    QString p = apiVersion.contains(QLatin1Char('/')) ? QStringLiteral("/apis/") + apiVersion
                                                      : QStringLiteral("/api/") + apiVersion;
    if (!ns.isEmpty())
        p += QStringLiteral("/namespaces/") + ns;
    p += QLatin1Char('/') + resource;
    if (!name.isEmpty())
        p += QLatin1Char('/') + name;
    return p;
}

struct Client::Impl {
    ResolvedContext ctx;
    ClientOptions opts;
    std::unique_ptr<CredentialProvider> creds;
    std::atomic<bool> cancelFlag{false};
    QByteArray caPem;
    QByteArray baseUrl;    // scheme://host[:port][/prefix], host replaced by tls-server-name when set
    QByteArray connectTo;  // CURLOPT_CONNECT_TO entry for tls-server-name
    QByteArray hostHeader; // "Host: host[:port]" of the server URL when tls-server-name changed the URL
    QByteArray proxy;      // proxy-url, else the environment's proxy as Go applies it; empty: direct

    // One transfer's state, reached from libcurl's callbacks.
    struct Transfer {
        Impl* d = nullptr;
        CURL* curl = nullptr;
        QByteArray body;
        const std::function<bool(QByteArrayView)>* onData = nullptr;
        bool stoppedByCallback = false;
        bool streaming = false; // 2xx seen on a stream: bytes go to onData
        // The idle probe of a stream (see ClientOptions::idleProbeSeconds).
        qint64 lastDataMs = 0;
        std::thread probe;
        std::atomic<int> probeState{0}; // 0 none, 1 asking, 2 answered, 3 no answer
        bool unresponsive = false;
        ~Transfer() {
            if (probe.joinable())
                probe.join();
        }
    };

    static qint64 steadyMs() {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }

    static size_t onWrite(char* ptr, size_t size, size_t nmemb, void* user) {
        auto* t = static_cast<Transfer*>(user);
        const size_t n = size * nmemb;
        t->lastDataMs = steadyMs();
        if (t->onData) {
            if (!t->streaming) {
                long code = 0;
                curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &code);
                t->streaming = code >= 200 && code < 300;
            }
            if (t->streaming) {
                if (!(*t->onData)(QByteArrayView(ptr, qsizetype(n)))) {
                    t->stoppedByCallback = true;
                    return 0; // aborts the transfer
                }
                return n;
            }
        }
        t->body.append(ptr, qsizetype(n));
        return n;
    }

    static int onProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
        auto* t = static_cast<Transfer*>(user);
        if (t->d->cancelFlag.load())
            return 1;
        const int idleMs = t->d->opts.idleProbeSeconds * 1000;
        if (!t->onData || idleMs <= 0 || steadyMs() - t->lastDataMs < idleMs)
            return 0;
        switch (t->probeState.load()) {
        case 0: // quiet for long: is the server still there?
            if (t->probe.joinable())
                t->probe.join();
            t->probeState = 1;
            t->probe = std::thread([t] {
                const ApiResponse r = t->d->perform("GET", QStringLiteral("/version"), {}, {}, {}, nullptr,
                                                    t->d->opts.probeTimeoutMs);
                t->probeState = r.http != 0 || r.reason == QLatin1String("Cancelled") ? 2 : 3;
            });
            return 0;
        case 2: // it answered: the stream is only quiet
            t->probe.join();
            t->probeState = 0;
            t->lastDataMs = steadyMs();
            return 0;
        case 3:
            t->unresponsive = true;
            return 1;
        default:
            return 0;
        }
    }

    ApiResponse cancelledResponse(const QString& what) const {
        ApiResponse r;
        r.reason = QStringLiteral("Cancelled");
        r.message = what + QStringLiteral(": cancelled");
        return r;
    }

    // Connection, timeouts and callbacks of one transfer; a stream has no overall timeout.
    void setTransferOptions(CURL* curl, Transfer& t, char* errbuf, const QByteArray& url,
                            const QByteArray& ua, bool streaming, int timeoutMs) const {
        curl_easy_setopt(curl, CURLOPT_URL, url.constData());
        curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "https,http");
        curl_easy_setopt(curl, CURLOPT_USERAGENT, ua.constData());
        curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
        curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(opts.connectTimeoutMs));
        if (streaming) {
            curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
            curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, long(opts.lowSpeedSeconds));
        } else {
            curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                             long(timeoutMs > 0 ? timeoutMs : opts.requestTimeoutMs));
            if (timeoutMs > 0)
                curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                                 long(std::min(timeoutMs, opts.connectTimeoutMs)));
            curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
        }
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Impl::onWrite);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
        curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &Impl::onProgress);
        curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &t);
    }

    static void setMethod(CURL* curl, const QByteArray& method, const QByteArray& body) {
        if (method == "GET") {
            curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
            return;
        }
        if (method != "POST")
            curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.constData());
        if (!body.isEmpty() || method == "POST") {
            curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
            curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.constData());
        }
    }

    // Accept, Content-Type, Host and the bearer token; `auth` keeps the formatted token header so
    // the caller can wipe it.
    curl_slist* requestHeaders(bool logStream, const QByteArray& body, const QByteArray& contentType,
                               const Credentials& c, QByteArray& auth) const {
        curl_slist* headers = nullptr;
        headers = curl_slist_append(headers, logStream ? "Accept: */*" : "Accept: application/json");
        if (!body.isEmpty()) {
            const QByteArray ct =
                "Content-Type: " + (contentType.isEmpty() ? QByteArray("application/json") : contentType);
            headers = curl_slist_append(headers, ct.constData());
        }
        headers = curl_slist_append(headers, "Expect:");
        if (!hostHeader.isEmpty()) // libcurl sends it as :authority on HTTP/2
            headers = curl_slist_append(headers, hostHeader.constData());
        if (!c.bearerToken.isEmpty()) {
            auth = "Authorization: Bearer " + c.bearerToken.toUtf8();
            headers = curl_slist_append(headers, auth.constData());
        }
        return headers;
    }

    // Basic auth (without a token), TLS verification and client certificate, connect-to and proxy.
    // `user` and `pass` keep the formatted credentials so the caller can wipe them; the returned
    // list (connect-to) is the caller's to free.
    curl_slist* setCredentialsAndRoute(CURL* curl, const Credentials& c, QByteArray& user,
                                       QByteArray& pass) const {
        if (c.bearerToken.isEmpty() && (!c.username.isEmpty() || !c.password.isEmpty())) {
            user = c.username.toUtf8();
            pass = c.password.toUtf8();
            curl_easy_setopt(curl, CURLOPT_HTTPAUTH, long(CURLAUTH_BASIC));
            curl_easy_setopt(curl, CURLOPT_USERNAME, user.constData());
            curl_easy_setopt(curl, CURLOPT_PASSWORD, pass.constData());
        }
        // TLS: verification stays on unless the kubeconfig turned it off.
        if (ctx.cluster.insecureSkipTlsVerify) {
            curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
            curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
        } else {
            curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
            curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
            if (!caPem.isEmpty()) {
                curl_blob blob{const_cast<char*>(caPem.constData()), size_t(caPem.size()), CURL_BLOB_COPY};
                curl_easy_setopt(curl, CURLOPT_CAINFO_BLOB, &blob);
            }
        }
        if (!c.clientCertificatePem.isEmpty()) {
            curl_blob cert{const_cast<char*>(c.clientCertificatePem.constData()),
                           size_t(c.clientCertificatePem.size()), CURL_BLOB_COPY};
            curl_blob key{const_cast<char*>(c.clientKeyPem.constData()), size_t(c.clientKeyPem.size()),
                          CURL_BLOB_COPY};
            curl_easy_setopt(curl, CURLOPT_SSLCERT_BLOB, &cert);
            curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
            curl_easy_setopt(curl, CURLOPT_SSLKEY_BLOB, &key);
            curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
        }
        curl_slist* connectTos = nullptr;
        if (!connectTo.isEmpty()) {
            connectTos = curl_slist_append(connectTos, connectTo.constData());
            curl_easy_setopt(curl, CURLOPT_CONNECT_TO, connectTos);
        }
        // Always explicit: libcurl's own reading of https_proxy/no_proxy differs from Go's (loopback,
        // port and "*." forms), so the choice was made in create(); "" means no proxy at all.
        curl_easy_setopt(curl, CURLOPT_PROXY, proxy.constData());
        // and libcurl would still read NO_PROXY from the environment on its own (a bare host for
        // ".example", a proxy-url the kubeconfig set): "" turns that reading off.
        curl_easy_setopt(curl, CURLOPT_NOPROXY, "");
        return connectTos;
    }

    static QString protocolName(long version) {
        switch (version) {
        case CURL_HTTP_VERSION_1_0:
            return QStringLiteral("HTTP/1.0");
        case CURL_HTTP_VERSION_1_1:
            return QStringLiteral("HTTP/1.1");
        case CURL_HTTP_VERSION_2_0:
            return QStringLiteral("HTTP/2");
        case CURL_HTTP_VERSION_3:
            return QStringLiteral("HTTP/3");
        default:
            return {};
        }
    }

    // No (complete) HTTP answer: connect, TLS, timeout, dropped stream.
    void describeTransportFailure(ApiResponse& r, CURLcode rc, const char* errbuf,
                                  const QString& what) const {
        r.http = 0;
        QString detail = QString::fromUtf8(errbuf).trimmed();
        if (detail.isEmpty())
            detail = QString::fromUtf8(curl_easy_strerror(rc));
        switch (rc) {
        case CURLE_OPERATION_TIMEDOUT:
            r.reason = QStringLiteral("Timeout");
            break;
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CONNECT_ERROR:
        case CURLE_SSL_CERTPROBLEM:
        case CURLE_SSL_CIPHER:
        case CURLE_SSL_CACERT_BADFILE:
        case CURLE_SSL_ISSUER_ERROR:
            r.reason = QStringLiteral("TLS");
            detail = QStringLiteral("TLS: ") + detail;
            break;
        case CURLE_COULDNT_CONNECT:
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY:
            r.reason = QStringLiteral("Connect");
            break;
        default:
            r.reason = QStringLiteral("Transport");
            break;
        }
        r.message = what + QStringLiteral(" (") + ctx.cluster.server + QStringLiteral("): ") + detail;
    }

    ApiResponse perform(const QByteArray& method, const QString& path, const QUrlQuery& query,
                        const QByteArray& body, const QByteArray& contentType,
                        const std::function<bool(QByteArrayView)>* onData, int timeoutMs = 0) {
        const QString what = methodPath(method, path);
        if (cancelFlag.load())
            return cancelledResponse(what);
        ApiResponse r;
        Result<Credentials> cr = creds->get();
        if (!cr) {
            r.reason = QStringLiteral("Credentials");
            r.message = what + QStringLiteral(": no credentials for user '%1': %2")
                                   .arg(ctx.user.name, cr.error().toString());
            return r;
        }
        const Credentials& c = *cr;

        CURL* curl = curl_easy_init();
        if (!curl) {
            r.message = what + QStringLiteral(": libcurl could not create a handle");
            return r;
        }
        Transfer t;
        t.d = this;
        t.curl = curl;
        t.onData = onData;
        char errbuf[CURL_ERROR_SIZE] = {0};

        QByteArray url = baseUrl + path.toUtf8();
        const QByteArray q = encodeQuery(query);
        if (!q.isEmpty())
            url += '?' + q;
        const QByteArray ua = opts.userAgent.toUtf8();
        t.lastDataMs = steadyMs();
        setTransferOptions(curl, t, errbuf, url, ua, onData != nullptr, timeoutMs);
        setMethod(curl, method, body);
        QByteArray auth, user, pass;
        curl_slist* headers =
            requestHeaders(onData && path.endsWith(QLatin1String("/log")), body, contentType, c, auth);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
        curl_slist* connectTos = setCredentialsAndRoute(curl, c, user, pass);

        const CURLcode rc = curl_easy_perform(curl);
        long code = 0;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
        long version = 0;
        curl_easy_getinfo(curl, CURLINFO_HTTP_VERSION, &version);
        if (const QString protocol = protocolName(version); !protocol.isEmpty())
            r.protocol = protocol;
        curl_easy_cleanup(curl);
        curl_slist_free_all(headers);
        curl_slist_free_all(connectTos);
        // Wipe the secrets we formatted into buffers.
        auth.fill('\0');
        pass.fill('\0');

        if (t.probe.joinable())
            t.probe.join();
        r.body = std::move(t.body);
        if (t.unresponsive && !cancelFlag.load()) {
            r.http = 0;
            r.reason = QStringLiteral("Unresponsive");
            r.message =
                what + QStringLiteral(" (") + ctx.cluster.server +
                QStringLiteral("): the API server stopped answering: nothing on the stream for %1 s and "
                               "no answer to GET /version within %2 s")
                    .arg(opts.idleProbeSeconds)
                    .arg(opts.probeTimeoutMs / 1000.0, 0, 'f', 1);
            return r;
        }
        if (t.stoppedByCallback) {
            r.http = int(code);
            return r;
        }
        if (rc != CURLE_OK && (rc == CURLE_ABORTED_BY_CALLBACK || cancelFlag.load()))
            return cancelledResponse(what);
        if (rc != CURLE_OK && (code == 0 || (code >= 200 && code < 300))) {
            describeTransportFailure(r, rc, errbuf, what);
            return r;
        }
        r.http = int(code);
        if (!r.ok()) {
            describeFailure(r, what);
            return r;
        }
        if (!onData && !r.body.isEmpty()) {
            const QJsonDocument doc = QJsonDocument::fromJson(r.body);
            if (doc.isObject())
                r.object = doc.object();
        }
        return r;
    }

    // A call with one retry after 401 on fresh credentials (expired exec token, rotated tokenFile).
    ApiResponse call(const QByteArray& method, const QString& path, const QUrlQuery& query,
                     const QByteArray& body = {}, const QByteArray& contentType = {},
                     const std::function<bool(QByteArrayView)>* onData = nullptr) {
        ApiResponse r = perform(method, path, query, body, contentType, onData);
        if (r.http == 401) {
            creds->invalidate();
            r = perform(method, path, query, body, contentType, onData);
        }
        return r;
    }
};

Client::Client() : d(std::make_unique<Impl>()) {}
Client::~Client() = default;

Result<std::unique_ptr<Client>> Client::create(const ResolvedContext& context, const ClientOptions& options) {
    globalInit();
    const Cluster& cl = context.cluster;
    const QString field = QStringLiteral("clusters[%1].cluster").arg(cl.name);
    const QUrl url(cl.server, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() ||
        (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")))
        return makeError(QStringLiteral("server '%1' is not an https:// URL").arg(cl.server), cl.sourceFile,
                         0, field + QStringLiteral(".server"));
    if (cl.insecureSkipTlsVerify &&
        (!cl.certificateAuthority.isEmpty() || !cl.certificateAuthorityData.isEmpty()))
        return makeError(
            QStringLiteral(
                "cluster '%1' sets insecure-skip-tls-verify together with a certificate authority; kubectl "
                "refuses this (\"specifying a root certificates file with the insecure flag is not "
                "allowed\")")
                .arg(cl.name),
            cl.sourceFile, 0, field + QStringLiteral(".insecure-skip-tls-verify"));
    std::unique_ptr<Client> c(new Client());
    Impl& d = *c->d;
    d.ctx = context;
    d.opts = options;
    d.creds = std::make_unique<CredentialProvider>(context, options.execSearchPaths);
    if (!cl.certificateAuthorityData.isEmpty())
        d.caPem = cl.certificateAuthorityData;
    else if (!cl.certificateAuthority.isEmpty()) {
        Result<QByteArray> ca = readFileLimited(cl.certificateAuthority, limits::kSmallFile,
                                                QStringLiteral("certificate-authority"));
        if (!ca)
            return makeError(ca.error().message, cl.sourceFile, 0,
                             field + QStringLiteral(".certificate-authority"));
        d.caPem = *ca;
    }
    const int port = url.port(url.scheme() == QLatin1String("https") ? 443 : 80);
    QString prefix = url.path(QUrl::FullyEncoded);
    while (prefix.endsWith(QLatin1Char('/')))
        prefix.chop(1);
    const QString host = url.host(QUrl::FullyEncoded);
    const QString hostForUrl =
        host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    if (!cl.tlsServerName.isEmpty() && cl.tlsServerName != host) {
        // The URL carries the name the certificate must match; libcurl connects to the real host.
        d.baseUrl = (url.scheme() + QStringLiteral("://") + cl.tlsServerName + QLatin1Char(':') +
                     QString::number(port) + prefix)
                        .toUtf8();
        d.connectTo = (cl.tlsServerName + QLatin1Char(':') + QString::number(port) + QLatin1Char(':') +
                       hostForUrl + QLatin1Char(':') + QString::number(port))
                          .toUtf8();
        // SNI and certificate check use tls-server-name; the Host header stays the server URL's
        // host[:port], as Go sets it (kubectl).
        d.hostHeader =
            "Host: " +
            (hostForUrl + (url.port() >= 0 ? QLatin1Char(':') + QString::number(url.port()) : QString()))
                .toUtf8();
    } else {
        d.baseUrl = (url.scheme() + QStringLiteral("://") + hostForUrl + QLatin1Char(':') +
                     QString::number(port) + prefix)
                        .toUtf8();
    }
    QString p = !cl.proxyUrl.isEmpty() ? cl.proxyUrl
                                       : proxyFromEnvironment(url, QProcessEnvironment::systemEnvironment());
    if (p.startsWith(QLatin1String("socks5://"), Qt::CaseInsensitive))
        p = QStringLiteral("socks5h://") + p.mid(9); // names resolved by the proxy, as kubectl does
    d.proxy = p.toUtf8();
    return c;
}

QString Client::server() const {
    return d->ctx.cluster.server;
}
QString Client::defaultNamespace() const {
    return d->ctx.namespaceOrDefault();
}
CredentialProvider& Client::credentials() {
    return *d->creds;
}

void Client::cancel() {
    d->cancelFlag.store(true);
}
void Client::resetCancel() {
    d->cancelFlag.store(false);
}
bool Client::cancelled() const {
    return d->cancelFlag.load();
}

ApiResponse Client::get(const QString& path, const QUrlQuery& query) {
    return d->call("GET", path, query);
}

ApiResponse Client::create(const QString& collectionPath, const QJsonObject& object) {
    return d->call("POST", collectionPath, {}, QJsonDocument(object).toJson(QJsonDocument::Compact),
                   "application/json");
}

ApiResponse Client::remove(const QString& path, Propagation propagation) {
    QString policy;
    switch (propagation) {
    case Propagation::Background:
        policy = QStringLiteral("Background");
        break;
    case Propagation::Foreground:
        policy = QStringLiteral("Foreground");
        break;
    case Propagation::Orphan:
        policy = QStringLiteral("Orphan");
        break;
    }
    // Both forms, agreeing: batch/v1 Jobs would otherwise orphan their pods.
    const QJsonObject options{{QStringLiteral("kind"), QStringLiteral("DeleteOptions")},
                              {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                              {QStringLiteral("propagationPolicy"), policy}};
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("propagationPolicy"), policy);
    return d->call("DELETE", path, q, QJsonDocument(options).toJson(QJsonDocument::Compact),
                   "application/json");
}

ApiResponse Client::request(const QByteArray& method, const QString& path, const QUrlQuery& query,
                            const QByteArray& body, const QByteArray& contentType) {
    return d->call(method.toUpper(), path, query, body, contentType);
}

namespace {

// A watch request's query: from `rv` (when known), with the options' bookmarks, timeout and selectors.
QUrlQuery watchQuery(const WatchOptions& options, const QString& rv) {
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("watch"), QStringLiteral("1"));
    if (!rv.isEmpty())
        q.addQueryItem(QStringLiteral("resourceVersion"), rv);
    if (options.allowBookmarks)
        q.addQueryItem(QStringLiteral("allowWatchBookmarks"), QStringLiteral("true"));
    if (options.timeoutSeconds > 0)
        q.addQueryItem(QStringLiteral("timeoutSeconds"), QString::number(options.timeoutSeconds));
    if (!options.labelSelector.isEmpty())
        q.addQueryItem(QStringLiteral("labelSelector"), options.labelSelector);
    if (!options.fieldSelector.isEmpty())
        q.addQueryItem(QStringLiteral("fieldSelector"), options.fieldSelector);
    return q;
}

// An ERROR event as the response that ends the watch (410 is "Gone": list again).
ApiResponse watchError(const QJsonObject& status, const QByteArray& line, const QString& what) {
    ApiResponse r;
    r.object = status;
    r.body = line;
    r.http = status.value(QStringLiteral("code")).toInt(500);
    r.reason = status.value(QStringLiteral("reason")).toString();
    if (r.http == 410)
        r.reason = QStringLiteral("Gone");
    const QString msg = status.value(QStringLiteral("message")).toString();
    r.message = what + QStringLiteral(": %1 %2").arg(r.http).arg(r.reason) +
                (msg.isEmpty() ? QString() : QStringLiteral(": ") + msg);
    return r;
}

} // namespace

ApiResponse Client::watch(const QString& collectionPath, const WatchOptions& options,
                          const std::function<bool(const WatchEvent&)>& onEvent, int* resumes) {
    const QString what = methodPath("GET", collectionPath) + QStringLiteral(" (watch)");
    QString rv = options.resourceVersion;
    int failures = 0;
    constexpr int kMaxFailures = 5;
    if (resumes)
        *resumes = 0;
    for (;;) {
        const QUrlQuery q = watchQuery(options, rv);

        QByteArray buffer;
        bool progress = false, userStopped = false;
        std::optional<ApiResponse> ended; // an ERROR event
        const std::function<bool(QByteArrayView)> onData = [&](QByteArrayView chunk) {
            buffer.append(chunk.data(), chunk.size());
            qsizetype nl;
            while ((nl = buffer.indexOf('\n')) >= 0) {
                const QByteArray line = buffer.left(nl).trimmed();
                buffer.remove(0, nl + 1);
                if (line.isEmpty())
                    continue;
                const QJsonDocument doc = QJsonDocument::fromJson(line);
                if (!doc.isObject())
                    continue; // not an event; the stream stays usable
                WatchEvent ev;
                ev.type = doc.object().value(QStringLiteral("type")).toString();
                ev.object = doc.object().value(QStringLiteral("object")).toObject();
                if (ev.type == QLatin1String("ERROR")) {
                    ended = watchError(ev.object, line, what);
                    return false;
                }
                const QString v = ev.object.value(QStringLiteral("metadata"))
                                      .toObject()
                                      .value(QStringLiteral("resourceVersion"))
                                      .toString();
                if (!v.isEmpty())
                    rv = v;
                progress = true;
                if (!onEvent(ev)) {
                    userStopped = true;
                    return false;
                }
            }
            return true;
        };
        QElapsedTimer clock;
        clock.start();
        ApiResponse r = d->call("GET", collectionPath, q, {}, {}, &onData);
        if (userStopped) {
            r.http = 200;
            r.reason.clear();
            r.message.clear();
            return r;
        }
        if (ended)
            return *ended;
        if (r.reason == QLatin1String("Cancelled") || d->cancelFlag.load())
            return d->cancelledResponse(what);
        if (r.http != 0 && !r.ok())
            return r; // 403, 404, ...: reconnecting will not help
        if (r.reason == QLatin1String("Unresponsive") || r.reason == QLatin1String("Timeout"))
            return r; // a server that stopped answering: the caller's retry limit decides
        // The stream ended (timeoutSeconds) or dropped: go on from the last version seen. A quick
        // end or a failure without a single event counts towards giving up.
        const bool quiet = !progress && (r.http == 0 || clock.elapsed() < 1000);
        failures = quiet ? failures + 1 : 0;
        if (failures >= kMaxFailures) {
            r.message =
                what + QStringLiteral(": gave up after %1 attempts without an event").arg(failures) +
                (r.message.isEmpty() ? QString() : QStringLiteral(" (last: ") + r.message + QLatin1Char(')'));
            if (r.reason.isEmpty())
                r.reason = QStringLiteral("Transport");
            r.http = 0;
            return r;
        }
        if (resumes)
            ++*resumes;
        if (failures > 0) {
            // Back off a little (200 ms, 400 ms, ...), staying responsive to cancel().
            const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200 * failures);
            while (std::chrono::steady_clock::now() < until && !d->cancelFlag.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
}

ApiResponse Client::logs(const QString& ns, const QString& pod, const QString& container, bool follow,
                         const std::function<bool(QByteArrayView)>& onChunk) {
    QUrlQuery q;
    if (!container.isEmpty())
        q.addQueryItem(QStringLiteral("container"), container);
    if (follow)
        q.addQueryItem(QStringLiteral("follow"), QStringLiteral("true"));
    const std::function<bool(QByteArrayView)> cb = onChunk;
    ApiResponse r = d->call(
        "GET", resourcePath(QStringLiteral("v1"), QStringLiteral("pods"), ns, pod) + QStringLiteral("/log"),
        q, {}, {}, &cb);
    if (r.http >= 200 && r.http < 300) {
        r.reason.clear();
        r.message.clear();
    }
    return r;
}

Status Client::refreshCredentials() {
    d->creds->invalidate();
    Result<Credentials> c = d->creds->get();
    if (!c)
        return c.error();
    return Status::success();
}

ApiResponse Client::listAll(const QString& collectionPath, const QUrlQuery& query, int pageSize, int* pages) {
    constexpr int kMaxPages = 100000;
    int n = 0;
    bool restarted = false;
    QJsonArray items;
    std::optional<ApiResponse> first;
    QString cont;
    for (;;) {
        QUrlQuery q = query;
        if (pageSize > 0)
            q.addQueryItem(QStringLiteral("limit"), QString::number(pageSize));
        if (!cont.isEmpty())
            q.addQueryItem(QStringLiteral("continue"), cont);
        ApiResponse r = d->call("GET", collectionPath, q);
        ++n;
        if (pages)
            *pages = n;
        if (!r.ok()) {
            if (r.http == 410 && !cont.isEmpty() && !restarted) {
                // The continue token outlived the server's history: start over, once.
                restarted = true;
                cont.clear();
                items = QJsonArray();
                first.reset();
                continue;
            }
            return r;
        }
        if (!first)
            first = r;
        for (const QJsonValue& v : r.object.value(QStringLiteral("items")).toArray())
            items.append(v);
        cont = r.object.value(QStringLiteral("metadata"))
                   .toObject()
                   .value(QStringLiteral("continue"))
                   .toString();
        if (cont.isEmpty() || pageSize <= 0)
            break;
        if (n >= kMaxPages) {
            ApiResponse e;
            e.reason = QStringLiteral("TooManyPages");
            e.message = methodPath("GET", collectionPath) +
                        QStringLiteral(": more than %1 pages; stopped").arg(kMaxPages);
            return e;
        }
    }
    ApiResponse out = std::move(*first);
    QJsonObject meta = out.object.value(QStringLiteral("metadata")).toObject();
    meta.remove(QStringLiteral("continue"));
    meta.remove(QStringLiteral("remainingItemCount"));
    out.object.insert(QStringLiteral("metadata"), meta);
    out.object.insert(QStringLiteral("items"), items);
    out.body.clear(); // the pages' bodies are not kept; `object` holds the whole list
    return out;
}

ApiResponse Client::listAndWatch(const QString& collectionPath, const WatchOptions& options,
                                 const std::function<bool(const WatchEvent&)>& onEvent, WatchStats* stats,
                                 int maxRelists) {
    WatchStats local;
    WatchStats& st = stats ? *stats : local;
    st = WatchStats();
    auto keyOf = [](const QJsonObject& o) {
        const QJsonObject m = o.value(QStringLiteral("metadata")).toObject();
        return m.value(QStringLiteral("namespace")).toString() + QLatin1Char('/') +
               m.value(QStringLiteral("name")).toString();
    };
    auto rvOf = [](const QJsonObject& o) {
        return o.value(QStringLiteral("metadata"))
            .toObject()
            .value(QStringLiteral("resourceVersion"))
            .toString();
    };
    auto stopped = [] {
        ApiResponse r;
        r.http = 200;
        return r;
    };
    std::map<QString, QJsonObject> known; // what the caller has been told exists
    bool firstList = true;
    int relistsInRow = 0;
    for (;;) {
        QUrlQuery q;
        if (!options.labelSelector.isEmpty())
            q.addQueryItem(QStringLiteral("labelSelector"), options.labelSelector);
        if (!options.fieldSelector.isEmpty())
            q.addQueryItem(QStringLiteral("fieldSelector"), options.fieldSelector);
        int pages = 0;
        ApiResponse list = listAll(collectionPath, q, 500, &pages);
        st.pages += pages;
        if (!list.ok())
            return list;
        const QString listRv = rvOf(list.object);
        st.resourceVersion = listRv;
        std::map<QString, QJsonObject> now;
        for (const QJsonValue& v : list.object.value(QStringLiteral("items")).toArray())
            now[keyOf(v.toObject())] = v.toObject();
        // Report what changed since the caller last heard (everything, the first time).
        QList<WatchEvent> diff;
        for (const auto& [k, o] : known)
            if (now.find(k) == now.end())
                diff << WatchEvent{QStringLiteral("DELETED"), o, !firstList};
        for (const auto& [k, o] : now) {
            const auto old = known.find(k);
            if (old == known.end())
                diff << WatchEvent{QStringLiteral("ADDED"), o, !firstList};
            else if (rvOf(old->second) != rvOf(o))
                diff << WatchEvent{QStringLiteral("MODIFIED"), o, true};
        }
        known = std::move(now);
        firstList = false;
        for (const WatchEvent& ev : diff)
            if (!onEvent(ev))
                return stopped();

        WatchOptions wo = options;
        wo.resourceVersion = listRv;
        bool sawEvent = false, userStopped = false;
        int resumes = 0;
        ApiResponse w = watch(
            collectionPath, wo,
            [&](const WatchEvent& ev) {
                const QString v = rvOf(ev.object);
                if (!v.isEmpty())
                    st.resourceVersion = v;
                if (ev.isBookmark()) {
                    ++st.bookmarks;
                } else {
                    sawEvent = true;
                    if (ev.isDeleted())
                        known.erase(keyOf(ev.object));
                    else
                        known[keyOf(ev.object)] = ev.object;
                }
                if (!onEvent(ev)) {
                    userStopped = true;
                    return false;
                }
                return true;
            },
            &resumes);
        st.resumes += resumes;
        if (userStopped)
            return stopped();
        if (w.http == 410 || w.reason == QLatin1String("Gone")) {
            ++st.relists;
            relistsInRow = sawEvent ? 1 : relistsInRow + 1;
            if (relistsInRow > maxRelists) {
                w.message += QStringLiteral(" (listed again %1 times in a row without an event; giving up)")
                                 .arg(relistsInRow - 1);
                return w;
            }
            continue;
        }
        return w;
    }
}

} // namespace pb::kube
