// A Kubernetes API client over libcurl: get/list/create/delete, watch streams (newline-delimited
// events split across chunks, BOOKMARK resourceVersions remembered, a dropped stream resumed from the
// last resourceVersion, 410 Gone reported so the caller re-lists), pod logs with follow, and every
// non-2xx Status turned into a clear message. TLS verification is on unless the kubeconfig says
// insecure-skip-tls-verify; tls-server-name and proxy-url are honoured. Calls block the calling
// thread (run them on a worker); cancel() from any thread stops every call in flight.
#pragma once

#include "core/Result.h"
#include "kube/Credentials.h"
#include "kube/Kubeconfig.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>
#include <QUrl>
#include <QUrlQuery>

#include <atomic>
#include <functional>
#include <memory>

namespace pb::kube {

struct ApiResponse {
    int http = 0;       // 0: the request never got an HTTP answer (connect, TLS, cancel)
    QJsonObject object; // the body as JSON (the object, or a Status on errors)
    QByteArray body;    // raw body
    QString reason;     // Status.reason, e.g. "NotFound", "AlreadyExists", "Gone", "Unauthorized"
    QString message;    // a sentence for the user: method, path, HTTP code and Status.message,
                        // or the transport error
    QString protocol;   // the HTTP version spoken: "HTTP/2", "HTTP/1.1" (empty without an answer)
    bool ok() const { return http >= 200 && http < 300; }
    Error error() const { return makeError(message); }
};

struct ClientOptions {
    int connectTimeoutMs = 10000;
    int requestTimeoutMs = 30000; // non-stream requests
    int lowSpeedSeconds = 120;    // streams: abort when < 1 byte/s for this long
    // Streams (watch, followed logs) may be quiet for long; after idleProbeSeconds without a byte
    // the client asks GET /version on a new connection. No answer within probeTimeoutMs: the server
    // has stopped (hung, SIGSTOP, a dead path), and the stream ends with reason "Unresponsive" (as
    // client-go's HTTP/2 health check, ReadIdleTimeout + PingTimeout). An answer: the stream is just
    // quiet. 0 turns it off.
    int idleProbeSeconds = 10;
    int probeTimeoutMs = 5000;
    QString userAgent = QStringLiteral("proofbench");
    QStringList execSearchPaths; // extra directories for exec plugins
};

enum class Propagation { Background, Foreground, Orphan };

struct WatchEvent {
    QString type; // ADDED, MODIFIED, DELETED, BOOKMARK, ERROR
    QJsonObject object;
    // listAndWatch only: true for events made from a re-list after 410 Gone (an object that was in
    // the old list and is not in the new one arrives as a synthetic DELETED; new or changed ones as
    // ADDED / MODIFIED), so a caller sees every deletion even when the watch history lost it.
    bool synthetic = false;
    bool isDeleted() const { return type == QLatin1String("DELETED"); }
    bool isBookmark() const { return type == QLatin1String("BOOKMARK"); }
};

// What listAndWatch went through, for logs and tests.
struct WatchStats {
    int resumes = 0;         // streams re-opened from the last resourceVersion (timeout, drop)
    int relists = 0;         // 410 Gone answered by listing again
    int bookmarks = 0;       // BOOKMARK events seen
    int pages = 0;           // list pages fetched (limit/continue)
    QString resourceVersion; // the last version seen
};

struct WatchOptions {
    QString labelSelector, fieldSelector;
    QString resourceVersion;  // start after this version (from a list); empty: from now
    int timeoutSeconds = 300; // server-side; the client reconnects after it, from the last version
    bool allowBookmarks = true;
};

class Client {
  public:
    static Result<std::unique_ptr<Client>> create(const ResolvedContext& context,
                                                  const ClientOptions& options = {});
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    QString server() const;
    QString defaultNamespace() const;
    CredentialProvider& credentials();

    // `path` is the API path, e.g. "/api/v1/namespaces/x/pods"; `query` is added to it.
    ApiResponse get(const QString& path, const QUrlQuery& query = {});
    ApiResponse create(const QString& collectionPath, const QJsonObject& object);
    ApiResponse remove(const QString& path, Propagation propagation = Propagation::Background);
    // A generic request (PATCH with apply-patch+yaml, POST of reviews, ...).
    ApiResponse request(const QByteArray& method, const QString& path, const QUrlQuery& query = {},
                        const QByteArray& body = {}, const QByteArray& contentType = {});

    // Streams events to `onEvent` until it returns false, cancel(), or an error. A stream the server
    // ends (timeoutSeconds) or that drops is re-opened from the last resourceVersion seen (events or
    // bookmarks); `resumes` counts those. A server that stopped answering (reason "Unresponsive" or
    // "Timeout") ends the watch at once: the caller's retry limit decides. An ERROR event with 410 ends the
    // watch with reason "Gone" (list again and watch from the new version). Returns the final response (http
    // 200 when ended by onEvent returning false).
    ApiResponse watch(const QString& collectionPath, const WatchOptions& options,
                      const std::function<bool(const WatchEvent&)>& onEvent, int* resumes = nullptr);

    // A whole list, fetched in pages of `pageSize` (limit/continue). An expired continue token
    // (410) restarts the list once from the beginning. The answer is one List object with every item
    // and the resourceVersion of the first page; `pages` counts requests.
    ApiResponse listAll(const QString& collectionPath, const QUrlQuery& query = {}, int pageSize = 500,
                        int* pages = nullptr);

    // Lists (paged), reports every item as ADDED, then watches from the list's version, resuming
    // dropped streams. A 410 Gone (compacted history, too old resourceVersion) is answered by listing
    // again and reporting the difference (synthetic DELETED / ADDED / MODIFIED), then watching on.
    // DELETED and BOOKMARK events are passed on as they come. Ends when onEvent returns false (http
    // 200), on cancel(), on an error that reconnecting cannot fix (401 after a credential refresh,
    // 403, 404), or after `maxRelists` re-lists in a row without an event between them.
    ApiResponse listAndWatch(const QString& collectionPath, const WatchOptions& options,
                             const std::function<bool(const WatchEvent&)>& onEvent,
                             WatchStats* stats = nullptr, int maxRelists = 5);

    // Forgets cached credentials and fetches new ones now (re-runs the exec plugin, re-reads a
    // tokenFile). Every call already does this once before retrying a 401; callers that saw a 401
    // elsewhere (a watch that ended with one) can ask for it explicitly.
    Status refreshCredentials();

    // Pod logs: with follow, streams until the container exits (or onChunk returns false / cancel).
    ApiResponse logs(const QString& ns, const QString& pod, const QString& container, bool follow,
                     const std::function<bool(QByteArrayView)>& onChunk);

    void cancel(); // thread-safe; every call in flight returns http 0, reason "Cancelled"
    void resetCancel();
    bool cancelled() const;

  private:
    Client();
    struct Impl;
    std::unique_ptr<Impl> d;
};

// The proxy kubectl (Go's net/http ProxyFromEnvironment) would use for `server` when the kubeconfig
// sets no proxy-url: HTTPS_PROXY (or https_proxy) for https servers, HTTP_PROXY for http, unless
// the host is localhost or a loopback IP, or NO_PROXY (or no_proxy) matches: "*", an IP, a CIDR, a
// domain (itself and its subdomains; ".example.com" subdomains only; "*.example.com" as
// ".example.com"), each optionally with ":port". A proxy without a scheme is http://. Empty: connect
// directly.
QString proxyFromEnvironment(const QUrl& server, const QProcessEnvironment& env);

// What kubectl does before its first request, used as the start of a run: the user's credentials are
// got (an exec plugin runs once), then GET /version is asked. A credential, TLS or authentication error
// is the client's configuration, not a fault of the cluster: it ends the probe at once (kubectl exits 1
// at once). A server that does not answer (connection refused, timeout, 429, 5xx) is retried with
// backoff until `retrySec` passes. The error names the context's user or server and the reason.
Status startProbe(Client& client, int retrySec, const std::function<bool()>& cancelled = {});

// "/api/v1/namespaces/NS/pods" style paths for the core group and named groups.
QString resourcePath(const QString& apiVersion, const QString& resource, const QString& ns = {},
                     const QString& name = {});

} // namespace pb::kube
