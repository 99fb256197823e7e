#include "core/Files.h"
#include "kube/Client.h"

#include <curl/curl.h>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

#include <chrono>
#include <mutex>
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
    case 400: return QStringLiteral("Bad Request");
    case 401: return QStringLiteral("Unauthorized");
    case 403: return QStringLiteral("Forbidden");
    case 404: return QStringLiteral("Not Found");
    case 405: return QStringLiteral("Method Not Allowed");
    case 409: return QStringLiteral("Conflict");
    case 410: return QStringLiteral("Gone");
    case 422: return QStringLiteral("Unprocessable Entity");
    case 429: return QStringLiteral("Too Many Requests");
    case 500: return QStringLiteral("Internal Server Error");
    case 503: return QStringLiteral("Service Unavailable");
    case 504: return QStringLiteral("Gateway Timeout");
    default: return {};
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

} // namespace

QString resourcePath(const QString& apiVersion, const QString& resource, const QString& ns, const QString& name) {
    QString p = apiVersion.contains(QLatin1Char('/')) ? QStringLiteral("/apis/") + apiVersion : QStringLiteral("/api/") + apiVersion;
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
    QByteArray baseUrl;   // scheme://host[:port][/prefix], host replaced by tls-server-name when set
    QByteArray connectTo; // CURLOPT_CONNECT_TO entry for tls-server-name
    QByteArray proxy;

    // One transfer's state, reached from libcurl's callbacks.
    struct Transfer {
        Impl* d = nullptr;
        CURL* curl = nullptr;
        QByteArray body;
        const std::function<bool(QByteArrayView)>* onData = nullptr;
        bool stoppedByCallback = false;
        bool streaming = false; // 2xx seen on a stream: bytes go to onData
    };

    static size_t onWrite(char* ptr, size_t size, size_t nmemb, void* user) {
        auto* t = static_cast<Transfer*>(user);
        const size_t n = size * nmemb;
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
        return t->d->cancelFlag.load() ? 1 : 0;
    }

    ApiResponse cancelledResponse(const QString& what) const {
        ApiResponse r;
        r.reason = QStringLiteral("Cancelled");
        r.message = what + QStringLiteral(": cancelled");
        return r;
    }

    ApiResponse perform(const QByteArray& method, const QString& path, const QUrlQuery& query, const QByteArray& body,
                        const QByteArray& contentType, const std::function<bool(QByteArrayView)>* onData) {
        const QString what = methodPath(method, path);
        if (cancelFlag.load())
            return cancelledResponse(what);
        ApiResponse r;
        Result<Credentials> cr = creds->get();
        if (!cr) {
            r.reason = QStringLiteral("Credentials");
            r.message = what + QStringLiteral(": no credentials for user '%1': %2").arg(ctx.user.name, cr.error().toString());
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
        curl_slist* headers = nullptr;

        QByteArray url = baseUrl + path.toUtf8();
        const QByteArray q = encodeQuery(query);
        if (!q.isEmpty())
            url += '?' + q;
        curl_easy_setopt(curl, CURLOPT_URL, url.constData());
        curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "https,http");
        const QByteArray ua = opts.userAgent.toUtf8();
        curl_easy_setopt(curl, CURLOPT_USERAGENT, ua.constData());
        curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
        curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(opts.connectTimeoutMs));
        if (onData) {
            curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
            curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, long(opts.lowSpeedSeconds));
        } else {
            curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(opts.requestTimeoutMs));
            curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
        }
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Impl::onWrite);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
        curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &Impl::onProgress);
        curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &t);

        if (method == "GET") {
            curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
        } else {
            if (method != "POST")
                curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.constData());
            if (!body.isEmpty() || method == "POST") {
                curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
                curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.constData());
            }
        }
        headers = curl_slist_append(headers, onData && path.endsWith(QLatin1String("/log")) ? "Accept: */*" : "Accept: application/json");
        if (!body.isEmpty()) {
            const QByteArray ct = "Content-Type: " + (contentType.isEmpty() ? QByteArray("application/json") : contentType);
            headers = curl_slist_append(headers, ct.constData());
        }
        headers = curl_slist_append(headers, "Expect:");
        QByteArray auth;
        if (!c.bearerToken.isEmpty()) {
            auth = "Authorization: Bearer " + c.bearerToken.toUtf8();
            headers = curl_slist_append(headers, auth.constData());
        }
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
        QByteArray user, pass;
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
            curl_blob cert{const_cast<char*>(c.clientCertificatePem.constData()), size_t(c.clientCertificatePem.size()), CURL_BLOB_COPY};
            curl_blob key{const_cast<char*>(c.clientKeyPem.constData()), size_t(c.clientKeyPem.size()), CURL_BLOB_COPY};
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
        // Without proxy-url libcurl follows https_proxy/no_proxy from the environment, as kubectl does.
        if (!proxy.isEmpty())
            curl_easy_setopt(curl, CURLOPT_PROXY, proxy.constData());

        const CURLcode rc = curl_easy_perform(curl);
        long code = 0;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
        curl_easy_cleanup(curl);
        curl_slist_free_all(headers);
        curl_slist_free_all(connectTos);
        // Wipe the secrets we formatted into buffers.
        auth.fill('\0');
        pass.fill('\0');

        r.body = std::move(t.body);
        if (t.stoppedByCallback) {
            r.http = int(code);
            return r;
        }
        if (rc != CURLE_OK && (rc == CURLE_ABORTED_BY_CALLBACK || cancelFlag.load()))
            return cancelledResponse(what);
        if (rc != CURLE_OK && (code == 0 || (code >= 200 && code < 300))) {
            // No (complete) HTTP answer: connect, TLS, timeout, dropped stream.
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
    ApiResponse call(const QByteArray& method, const QString& path, const QUrlQuery& query, const QByteArray& body = {},
                     const QByteArray& contentType = {}, const std::function<bool(QByteArrayView)>* onData = nullptr) {
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
        return makeError(QStringLiteral("server '%1' is not an https:// URL").arg(cl.server), cl.sourceFile, 0,
                         field + QStringLiteral(".server"));
    std::unique_ptr<Client> c(new Client());
    Impl& d = *c->d;
    d.ctx = context;
    d.opts = options;
    d.creds = std::make_unique<CredentialProvider>(context, options.execSearchPaths);
    if (!cl.certificateAuthorityData.isEmpty())
        d.caPem = cl.certificateAuthorityData;
    else if (!cl.certificateAuthority.isEmpty()) {
        Result<QByteArray> ca = readFileLimited(cl.certificateAuthority, limits::kSmallFile, QStringLiteral("certificate-authority"));
        if (!ca)
            return makeError(ca.error().message, cl.sourceFile, 0, field + QStringLiteral(".certificate-authority"));
        d.caPem = *ca;
    }
    const int port = url.port(url.scheme() == QLatin1String("https") ? 443 : 80);
    QString prefix = url.path(QUrl::FullyEncoded);
    while (prefix.endsWith(QLatin1Char('/')))
        prefix.chop(1);
    const QString host = url.host(QUrl::FullyEncoded);
    const QString hostForUrl = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    if (!cl.tlsServerName.isEmpty() && cl.tlsServerName != host) {
        // The URL carries the name the certificate must match; libcurl connects to the real host.
        d.baseUrl = (url.scheme() + QStringLiteral("://") + cl.tlsServerName + QLatin1Char(':') + QString::number(port) + prefix).toUtf8();
        d.connectTo = (cl.tlsServerName + QLatin1Char(':') + QString::number(port) + QLatin1Char(':') + hostForUrl + QLatin1Char(':') +
                       QString::number(port))
                          .toUtf8();
    } else {
        d.baseUrl = (url.scheme() + QStringLiteral("://") + hostForUrl + QLatin1Char(':') + QString::number(port) + prefix).toUtf8();
    }
    if (!cl.proxyUrl.isEmpty()) {
        QString p = cl.proxyUrl;
        if (p.startsWith(QLatin1String("socks5://"), Qt::CaseInsensitive))
            p = QStringLiteral("socks5h://") + p.mid(9); // names resolved by the proxy, as kubectl does
        d.proxy = p.toUtf8();
    }
    return c;
}

QString Client::server() const { return d->ctx.cluster.server; }
QString Client::defaultNamespace() const { return d->ctx.namespaceOrDefault(); }
CredentialProvider& Client::credentials() { return *d->creds; }

void Client::cancel() { d->cancelFlag.store(true); }
void Client::resetCancel() { d->cancelFlag.store(false); }
bool Client::cancelled() const { return d->cancelFlag.load(); }

ApiResponse Client::get(const QString& path, const QUrlQuery& query) { return d->call("GET", path, query); }

ApiResponse Client::create(const QString& collectionPath, const QJsonObject& object) {
    return d->call("POST", collectionPath, {}, QJsonDocument(object).toJson(QJsonDocument::Compact), "application/json");
}

ApiResponse Client::remove(const QString& path, Propagation propagation) {
    QString policy;
    switch (propagation) {
    case Propagation::Background: policy = QStringLiteral("Background"); break;
    case Propagation::Foreground: policy = QStringLiteral("Foreground"); break;
    case Propagation::Orphan: policy = QStringLiteral("Orphan"); break;
    }
    // Both forms, agreeing: batch/v1 Jobs would otherwise orphan their pods.
    const QJsonObject options{{QStringLiteral("kind"), QStringLiteral("DeleteOptions")},
                              {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                              {QStringLiteral("propagationPolicy"), policy}};
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("propagationPolicy"), policy);
    return d->call("DELETE", path, q, QJsonDocument(options).toJson(QJsonDocument::Compact), "application/json");
}

ApiResponse Client::request(const QByteArray& method, const QString& path, const QUrlQuery& query, const QByteArray& body,
                            const QByteArray& contentType) {
    return d->call(method.toUpper(), path, query, body, contentType);
}

ApiResponse Client::watch(const QString& collectionPath, const WatchOptions& options,
                          const std::function<bool(const WatchEvent&)>& onEvent, int* resumes) {
    const QString what = methodPath("GET", collectionPath) + QStringLiteral(" (watch)");
    QString rv = options.resourceVersion;
    int failures = 0;
    constexpr int kMaxFailures = 5;
    if (resumes)
        *resumes = 0;
    for (;;) {
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
                    ApiResponse r;
                    r.object = ev.object;
                    r.body = line;
                    r.http = ev.object.value(QStringLiteral("code")).toInt(500);
                    r.reason = ev.object.value(QStringLiteral("reason")).toString();
                    if (r.http == 410)
                        r.reason = QStringLiteral("Gone");
                    const QString msg = ev.object.value(QStringLiteral("message")).toString();
                    r.message = what + QStringLiteral(": %1 %2").arg(r.http).arg(r.reason) +
                                (msg.isEmpty() ? QString() : QStringLiteral(": ") + msg);
                    ended = r;
                    return false;
                }
                const QString v = ev.object.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("resourceVersion")).toString();
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
        // The stream ended (timeoutSeconds) or dropped: go on from the last version seen. A quick
        // end or a failure without a single event counts towards giving up.
        const bool quiet = !progress && (r.http == 0 || clock.elapsed() < 1000);
        failures = quiet ? failures + 1 : 0;
        if (failures >= kMaxFailures) {
            r.message = what + QStringLiteral(": gave up after %1 attempts without an event").arg(failures) +
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
    ApiResponse r = d->call("GET", resourcePath(QStringLiteral("v1"), QStringLiteral("pods"), ns, pod) + QStringLiteral("/log"), q, {}, {}, &cb);
    if (r.http >= 200 && r.http < 300) {
        r.reason.clear();
        r.message.clear();
    }
    return r;
}

} // namespace pb::kube
