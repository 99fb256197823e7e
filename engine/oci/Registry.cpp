#include "oci/Registry.h"
#include "core/Files.h"

#include "core/Hash.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QSet>
#include <QUrl>
#include <QUrlQuery>

#include <curl/curl.h>

#include <mutex>

namespace pb::oci {

namespace {

constexpr qint64 kMaxManifest = 4 * 1024 * 1024;

void globalInit() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

QString digestOf(const QByteArray& bytes) {
    return QStringLiteral("sha256:") + sha256Hex(bytes);
}

QString statusWords(long code) {
    switch (code) {
    case 400:
        return QStringLiteral("400 Bad Request");
    case 401:
        return QStringLiteral("401 Unauthorized");
    case 403:
        return QStringLiteral("403 Forbidden");
    case 404:
        return QStringLiteral("404 Not Found");
    case 405:
        return QStringLiteral("405 Method Not Allowed");
    case 409:
        return QStringLiteral("409 Conflict");
    case 416:
        return QStringLiteral("416 Range Not Satisfiable");
    case 429:
        return QStringLiteral("429 Too Many Requests");
    case 500:
        return QStringLiteral("500 Internal Server Error");
    case 502:
        return QStringLiteral("502 Bad Gateway");
    case 503:
        return QStringLiteral("503 Service Unavailable");
    default:
        return QString::number(code);
    }
}

// The registry's own words from an OCI error body: {"errors":[{"code":"MANIFEST_UNKNOWN","message":"..."}]}.
QString registryErrors(const QByteArray& body) {
    const QJsonArray errors =
        QJsonDocument::fromJson(body).object().value(QStringLiteral("errors")).toArray();
    QStringList parts;
    for (const QJsonValue& v : errors) {
        const QJsonObject e = v.toObject();
        parts << QStringLiteral("%1: %2").arg(e.value(QStringLiteral("code")).toString(),
                                              e.value(QStringLiteral("message")).toString());
    }
    return parts.join(QStringLiteral("; "));
}

struct Response {
    long status = 0;
    QMap<QByteArray, QByteArray> headers; // lower-cased names; the last value wins
    QByteArray body;                      // non-2xx bodies, and 2xx bodies without a sink
    QString transportError;               // libcurl's reason when the exchange failed
    bool cancelled = false;
    bool sinkRefused = false;
    QByteArray header(const char* name) const { return headers.value(QByteArray(name)); }
    bool ok() const { return transportError.isEmpty() && !cancelled && status >= 200 && status < 300; }
};

struct Request {
    QByteArray method = "GET";
    QByteArray url;
    QList<QByteArray> headers;
    QByteArray body;         // small bodies
    QFile* upload = nullptr; // or a file range
    qint64 uploadOffset = 0, uploadLength = 0;
    std::function<bool(const char*, size_t)> sink; // 2xx bodies go here when set
    bool follow = true;
    QString what; // for progress and errors
};

} // namespace

Descriptor Manifest::descriptor() const {
    Descriptor d;
    d.mediaType = mediaType;
    d.digest = digest;
    d.size = bytes.size();
    d.artifactType = json.value(QStringLiteral("artifactType")).toString();
    if (d.artifactType.isEmpty() && isManifestType(mediaType)) {
        const QString cfg =
            json.value(QStringLiteral("config")).toObject().value(QStringLiteral("mediaType")).toString();
        if (cfg != QLatin1String(kEmptyConfig) &&
            cfg != QLatin1String("application/vnd.oci.image.config.v1+json") &&
            cfg != QLatin1String("application/vnd.docker.container.image.v1+json"))
            d.artifactType = cfg;
    }
    return d;
}

QJsonObject PullResult::toJson() const {
    QJsonArray refs;
    for (const Descriptor& r : referrers)
        refs.append(r.toJson());
    return QJsonObject{{QStringLiteral("reference"), reference.toString()},
                       {QStringLiteral("digest"), manifest.digest},
                       {QStringLiteral("mediaType"), manifest.mediaType},
                       {QStringLiteral("artifactType"), manifest.artifactType},
                       {QStringLiteral("blobsFetched"), blobsFetched},
                       {QStringLiteral("blobsCached"), blobsCached},
                       {QStringLiteral("bytesFetched"), bytesFetched},
                       {QStringLiteral("referrers"), refs}};
}

QJsonObject PushResult::toJson() const {
    return QJsonObject{{QStringLiteral("reference"), reference.toString()},
                       {QStringLiteral("digest"), digest},
                       {QStringLiteral("blobsPushed"), blobsPushed},
                       {QStringLiteral("blobsExisting"), blobsExisting},
                       {QStringLiteral("bytesPushed"), bytesPushed}};
}

struct Client::Impl {
    ClientOptions opts;
    CURL* curl = nullptr;
    QMap<QString, QByteArray> authHeader;            // "registry|repository" -> "Authorization: ..."
    QMap<QString, std::optional<Credentials>> creds; // by registry
    qint64 progressBase = 0, progressTotal = -1;
    QString progressWhat;

    ~Impl() {
        if (curl)
            curl_easy_cleanup(curl);
    }

    bool cancelled() const { return opts.cancel && opts.cancel->load(); }

    Error cancelledError(const QString& what) const {
        return makeError(what + QStringLiteral(": cancelled"));
    }

    Result<QByteArray> baseUrl(const Reference& ref) const {
        const bool loop = isLoopbackRegistry(ref.registry);
        if (opts.plainHttpRegistries.contains(ref.registry))
            return QByteArray("http://") + ref.apiHost().toUtf8();
        if (opts.plainHttp) {
            if (!loop)
                return makeError(
                    QStringLiteral(
                        "refusing plain HTTP to '%1': --plain-http covers loopback registries only; "
                        "name this registry with --plain-http-registry %1 to allow it")
                        .arg(ref.registry),
                    {}, 0, QStringLiteral("registry"));
            return QByteArray("http://") + ref.apiHost().toUtf8();
        }
        return QByteArray("https://") + ref.apiHost().toUtf8();
    }

    Result<QByteArray> repoUrl(const Reference& ref) const {
        Result<QByteArray> base = baseUrl(ref);
        if (!base)
            return base;
        return *base + "/v2/" + ref.repository.toUtf8();
    }

    Result<Credentials> credentialsFor(const QString& registry) {
        if (opts.credentials)
            return *opts.credentials;
        if (!creds.contains(registry)) {
            Result<Credentials> c = oci::credentialsFor(registry, opts.dockerConfig);
            if (!c)
                return c.error();
            creds.insert(registry, *c);
        }
        return *creds.value(registry);
    }

    // ---- one HTTP exchange ----------------------------------------------------------------------

    struct Transfer {
        Impl* d = nullptr;
        Request* req = nullptr;
        Response* resp = nullptr;
        bool streaming = false;
        bool statusKnown = false;
        qint64 uploaded = 0;
    };

    static size_t onHeader(char* ptr, size_t size, size_t nitems, void* user) {
        auto* t = static_cast<Transfer*>(user);
        const size_t n = size * nitems;
        const QByteArray line = QByteArray(ptr, qsizetype(n)).trimmed();
        if (line.startsWith("HTTP/")) {
            t->resp->headers.clear(); // a new response (after a redirect or 100 Continue)
            t->statusKnown = false;
            return n;
        }
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            t->resp->headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
        return n;
    }

    static size_t onWrite(char* ptr, size_t size, size_t nmemb, void* user) {
        auto* t = static_cast<Transfer*>(user);
        const size_t n = size * nmemb;
        if (!t->statusKnown) {
            long code = 0;
            curl_easy_getinfo(t->d->curl, CURLINFO_RESPONSE_CODE, &code);
            t->streaming = t->req->sink && code >= 200 && code < 300;
            t->statusKnown = true;
        }
        if (t->streaming) {
            if (!t->req->sink(ptr, n)) {
                t->resp->sinkRefused = true;
                return 0;
            }
            return n;
        }
        if (t->resp->body.size() < kMaxManifest)
            t->resp->body.append(ptr, qsizetype(n));
        return n;
    }

    static size_t onRead(char* buffer, size_t size, size_t nitems, void* user) {
        auto* t = static_cast<Transfer*>(user);
        const qint64 left = t->req->uploadLength - t->uploaded;
        const qint64 want = qMin<qint64>(left, qint64(size * nitems));
        if (want <= 0)
            return 0;
        const qint64 got = t->req->upload->read(buffer, want);
        if (got <= 0)
            return CURL_READFUNC_ABORT;
        t->uploaded += got;
        return size_t(got);
    }

    static int onProgress(void* user, curl_off_t, curl_off_t dlnow, curl_off_t, curl_off_t ulnow) {
        auto* t = static_cast<Transfer*>(user);
        Impl* d = t->d;
        if (d->cancelled()) {
            t->resp->cancelled = true;
            return 1;
        }
        if (d->opts.progress && d->progressTotal != 0 && (t->req->sink || t->req->upload))
            d->opts.progress(d->progressBase + qint64(dlnow + ulnow), d->progressTotal, d->progressWhat);
        return 0;
    }

    Response perform(Request& req) {
        Response resp;
        if (cancelled()) {
            resp.cancelled = true;
            return resp;
        }
        globalInit();
        if (!curl)
            curl = curl_easy_init();
        else
            curl_easy_reset(curl);
        if (!curl) {
            resp.transportError = QStringLiteral("libcurl could not create a handle");
            return resp;
        }
        Transfer t{this, &req, &resp};
        char errbuf[CURL_ERROR_SIZE] = {0};
        curl_easy_setopt(curl, CURLOPT_URL, req.url.constData());
        curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "https,http");
        curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "https,http");
        curl_easy_setopt(curl, CURLOPT_USERAGENT, "proofbench-oci/1");
        curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(opts.connectTimeoutMs));
        // A registry that stops sending for a minute is gone; there is no overall time limit
        // (blobs can be large), the cancel flag ends long transfers.
        curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 60L);
        curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, req.follow ? 1L : 0L);
        curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
        curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &Impl::onHeader);
        curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Impl::onWrite);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
        curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &Impl::onProgress);
        curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &t);
        curl_easy_setopt(curl, CURLOPT_BUFFERSIZE, 256L * 1024L);
        curl_easy_setopt(curl, CURLOPT_UPLOAD_BUFFERSIZE,
                         1024L * 1024L); // fewer read callbacks on large blobs
        if (opts.insecureTls) {
            curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
            curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
        } else {
            curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
            curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
            if (!opts.caFile.isEmpty()) {
                const QByteArray ca = QFile::encodeName(opts.caFile);
                curl_easy_setopt(curl, CURLOPT_CAINFO, ca.constData());
            }
        }

        curl_slist* headers = nullptr;
        for (const QByteArray& h : req.headers)
            headers = curl_slist_append(headers, h.constData());
        headers = curl_slist_append(headers, "Expect:");
        if (req.method == "GET") {
            curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
        } else if (req.method == "HEAD") {
            curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
        } else if (req.upload) {
            if (!req.upload->seek(req.uploadOffset)) {
                curl_slist_free_all(headers);
                resp.transportError = QStringLiteral("cannot seek %1: %2")
                                          .arg(req.upload->fileName(), req.upload->errorString());
                return resp;
            }
            curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
            curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(req.uploadLength));
            curl_easy_setopt(curl, CURLOPT_READFUNCTION, &Impl::onRead);
            curl_easy_setopt(curl, CURLOPT_READDATA, &t);
            curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, req.method.constData());
        } else {
            curl_easy_setopt(curl, CURLOPT_POST, 1L);
            curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(req.body.size()));
            curl_easy_setopt(curl, CURLOPT_POSTFIELDS, req.body.constData());
            if (req.method != "POST")
                curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, req.method.constData());
        }
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
        const CURLcode rc = curl_easy_perform(curl);
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &resp.status);
        curl_slist_free_all(headers);
        if (resp.cancelled || (rc == CURLE_ABORTED_BY_CALLBACK && cancelled())) {
            resp.cancelled = true;
        } else if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && resp.sinkRefused)) {
            resp.transportError = QString::fromUtf8(errbuf[0] ? errbuf : curl_easy_strerror(rc));
        }
        return resp;
    }

    // ---- auth -------------------------------------------------------------------------------------

    // Answers a 401 challenge: fetches a bearer token (or prepares Basic) for `ref`'s repository.
    Status authenticate(const Reference& ref, const Response& challenged, const QString& actions) {
        const QString what = QStringLiteral("authenticating to %1").arg(ref.registry);
        const Challenge ch = parseChallenge(challenged.header("www-authenticate"));
        Result<Credentials> cr = credentialsFor(ref.registry);
        if (!cr)
            return cr.error();
        const Credentials& c = *cr;
        const QString key = ref.registry + QLatin1Char('|') + ref.repository;
        if (ch.scheme == QLatin1String("basic")) {
            if (c.kind != Credentials::Kind::Basic)
                return makeError(
                    QStringLiteral(
                        "%1: the registry asks for a user name and password and none are configured "
                        "(docker config.json has no entry for it)")
                        .arg(what));
            authHeader.insert(key, "Authorization: Basic " +
                                       (c.username + QLatin1Char(':') + c.secret).toUtf8().toBase64());
            return {};
        }
        if (ch.scheme != QLatin1String("bearer"))
            return makeError(
                QStringLiteral("%1: unsupported authentication scheme '%2'").arg(what, ch.scheme));
        const QString realm = ch.params.value(QStringLiteral("realm"));
        const QUrl realmUrl(realm);
        if (!realmUrl.isValid() ||
            (realmUrl.scheme() != QLatin1String("https") && realmUrl.scheme() != QLatin1String("http")))
            return makeError(
                QStringLiteral("%1: the token realm '%2' is not an http(s) URL").arg(what, realm));
        if (realmUrl.scheme() == QLatin1String("http") && !isLoopbackRegistry(realmUrl.host()) &&
            !opts.plainHttpRegistries.contains(ref.registry) && c.kind != Credentials::Kind::Anonymous)
            return makeError(
                QStringLiteral("%1: refusing to send credentials to the plain-HTTP token realm %2")
                    .arg(what, realm));
        QString scope = ch.params.value(QStringLiteral("scope"));
        const QString wanted = QStringLiteral("repository:%1:%2").arg(ref.repository, actions);
        if (scope.isEmpty() || !scope.contains(ref.repository))
            scope = wanted;
        Request req;
        req.what = what;
        QUrlQuery q;
        if (ch.params.contains(QStringLiteral("service")))
            q.addQueryItem(QStringLiteral("service"), ch.params.value(QStringLiteral("service")));
        q.addQueryItem(QStringLiteral("scope"), scope);
        if (c.kind == Credentials::Kind::IdentityToken) {
            // OAuth2 refresh-token grant (the docker token spec's identity-token flow).
            req.method = "POST";
            req.url = realm.toUtf8();
            QUrlQuery form = q;
            form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("refresh_token"));
            form.addQueryItem(QStringLiteral("client_id"), QStringLiteral("proofbench"));
            form.addQueryItem(QStringLiteral("refresh_token"), c.secret);
            req.body = form.toString(QUrl::FullyEncoded).toUtf8();
            req.headers << "Content-Type: application/x-www-form-urlencoded";
        } else {
            QUrl u(realmUrl);
            QUrlQuery existing(u);
            for (const auto& item : q.queryItems())
                existing.addQueryItem(item.first, item.second);
            u.setQuery(existing);
            req.url = u.toEncoded();
            if (c.kind == Credentials::Kind::Basic)
                req.headers << "Authorization: Basic " +
                                   (c.username + QLatin1Char(':') + c.secret).toUtf8().toBase64();
        }
        Response r = perform(req);
        if (r.cancelled)
            return cancelledError(what);
        if (!r.transportError.isEmpty())
            return makeError(QStringLiteral("%1: token request to %2 failed: %3")
                                 .arg(what, realmUrl.toString(QUrl::RemoveQuery), r.transportError));
        if (r.status != 200)
            return makeError(QStringLiteral("%1: the token server %2 answered %3%4 (credentials from %5)")
                                 .arg(what, realmUrl.toString(QUrl::RemoveQuery), statusWords(r.status),
                                      r.status == 401 || r.status == 403
                                          ? QStringLiteral(": credentials refused")
                                          : QString(),
                                      c.source));
        const QJsonObject o = QJsonDocument::fromJson(r.body).object();
        QString token = o.value(QStringLiteral("token")).toString();
        if (token.isEmpty())
            token = o.value(QStringLiteral("access_token")).toString();
        if (token.isEmpty())
            return makeError(QStringLiteral("%1: the token server's answer has no token").arg(what));
        authHeader.insert(key, "Authorization: Bearer " + token.toUtf8());
        return {};
    }

    // Sends `req` with the cached authorization for `ref`, answering one 401 challenge.
    Result<Response> send(const Reference& ref, Request& req,
                          const QString& actions = QStringLiteral("pull")) {
        const QString key = ref.registry + QLatin1Char('|') + ref.repository;
        for (int attempt = 0; attempt < 2; ++attempt) {
            Request r = req;
            if (authHeader.contains(key))
                r.headers << authHeader.value(key);
            Response resp = perform(r);
            if (resp.cancelled)
                return cancelledError(req.what);
            if (!resp.transportError.isEmpty())
                return makeError(QStringLiteral("%1: %2").arg(req.what, resp.transportError));
            if (resp.status != 401 || attempt == 1)
                return resp;
            if (Status s = authenticate(ref, resp, actions); !s)
                return s.error();
        }
        return makeError(req.what + QStringLiteral(": unreachable"));
    }

    Error httpError(const Request& req, const Response& r, const Reference& ref) const {
        QString msg = QStringLiteral("%1: %2").arg(req.what, statusWords(r.status));
        const QString regErr = registryErrors(r.body);
        if (!regErr.isEmpty())
            msg += QStringLiteral(" (%1)").arg(regErr);
        if (r.status == 401) {
            const QString src = opts.credentials ? opts.credentials->source
                                                 : creds.value(ref.registry).value_or(Credentials{}).source;
            msg += QStringLiteral(": credentials refused (from %1)").arg(src);
        }
        return makeError(msg, {}, 0, ref.toString());
    }
};

Client::Client(ClientOptions options) : d(std::make_unique<Impl>()) {
    d->opts = std::move(options);
}
Client::~Client() = default;
const ClientOptions& Client::options() const {
    return d->opts;
}

QString Client::credentialSource(const QString& registry) {
    Result<Credentials> c = d->credentialsFor(registry);
    return c ? c->source : QStringLiteral("error: %1").arg(c.error().toString());
}

Result<Manifest> Client::getManifest(const Reference& ref) {
    Result<QByteArray> url = d->repoUrl(ref);
    if (!url)
        return url.error();
    Request req;
    req.url = *url + "/manifests/" + QUrl::toPercentEncoding(ref.reference());
    req.what = QStringLiteral("GET manifest %1").arg(ref.toString());
    req.headers << QByteArray("Accept: ") + kImageManifest + ", " + kImageIndex + ", " + kDockerManifest +
                       ", " + kDockerManifestList;
    Result<Response> r = d->send(ref, req);
    if (!r)
        return r.error();
    if (r->status != 200)
        return d->httpError(req, *r, ref);
    if (r->body.size() >= kMaxManifest)
        return makeError(QStringLiteral("%1: manifest over %2 bytes").arg(req.what).arg(kMaxManifest));
    Manifest m;
    m.bytes = r->body;
    m.digest = digestOf(m.bytes);
    if (ref.isPinned() && m.digest != ref.digest)
        return makeError(
            QStringLiteral("%1: the registry sent a manifest whose digest is %2, not the pinned %3")
                .arg(req.what, m.digest, ref.digest),
            {}, 0, ref.toString());
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(m.bytes, &pe);
    if (!doc.isObject())
        return makeError(QStringLiteral("%1: the manifest is not JSON: %2").arg(req.what, pe.errorString()));
    m.json = doc.object();
    m.mediaType = m.json.value(QStringLiteral("mediaType")).toString();
    if (m.mediaType.isEmpty())
        m.mediaType = QString::fromUtf8(r->header("content-type")).section(QLatin1Char(';'), 0, 0).trimmed();
    if (!isManifestType(m.mediaType) && !isIndexType(m.mediaType))
        return makeError(
            QStringLiteral("%1: unsupported manifest media type '%2'").arg(req.what, m.mediaType));
    return m;
}

Result<bool> Client::hasBlob(const Reference& repo, const QString& digest) {
    Result<QByteArray> url = d->repoUrl(repo);
    if (!url)
        return url.error();
    Request req;
    req.method = "HEAD";
    req.url = *url + "/blobs/" + digest.toUtf8();
    req.what = QStringLiteral("HEAD blob %1 in %2/%3").arg(digest, repo.registry, repo.repository);
    Result<Response> r = d->send(repo, req, QStringLiteral("pull,push"));
    if (!r)
        return r.error();
    if (r->status == 200)
        return true;
    if (r->status == 404)
        return false;
    return d->httpError(req, *r, repo);
}

Result<qint64> Client::fetchBlob(const Reference& repo, const Descriptor& blob, Layout& layout) {
    const QString what =
        QStringLiteral("GET blob %1 from %2/%3").arg(blob.digest, repo.registry, repo.repository);
    if (!isValidDigest(blob.digest))
        return makeError(QStringLiteral("%1: not a sha256 digest").arg(what));
    if (layout.hasBlob(blob.digest))
        return qint64(0);
    Result<QByteArray> url = d->repoUrl(repo);
    if (!url)
        return url.error();
    const QString temp = layout.tempPath();
    QFile out(temp);
    if (!out.open(QIODevice::WriteOnly))
        return makeError(
            QStringLiteral("%1: cannot create a temporary file: %2").arg(what, out.errorString()), temp);
    Sha256 hash;
    qint64 received = 0;
    bool tooLong = false, writeFailed = false;
    Request req;
    req.url = *url + "/blobs/" + blob.digest.toUtf8();
    req.what = what;
    req.sink = [&](const char* data, size_t n) {
        received += qint64(n);
        if (blob.size >= 0 && received > blob.size) {
            tooLong = true;
            return false;
        }
        hash.add(data, qsizetype(n));
        if (out.write(data, qint64(n)) != qint64(n)) {
            writeFailed = true;
            return false;
        }
        return true;
    };
    d->progressTotal = blob.size;
    d->progressBase = 0;
    d->progressWhat = blob.digest;
    Result<Response> r = d->send(repo, req);
    d->progressTotal = -1;
    const bool flushed = out.flush();
    out.close();
    auto failWith = [&](const QString& why) -> Result<qint64> {
        QFile::remove(temp);
        return makeError(QStringLiteral("%1: %2").arg(what, why), {}, 0, repo.toString());
    };
    if (!r) {
        QFile::remove(temp);
        Error e = r.error();
        if (received > 0 && !tooLong)
            e.message +=
                QStringLiteral(" (after %1 of %2 bytes; nothing was kept)").arg(received).arg(blob.size);
        return e;
    }
    if (tooLong)
        return failWith(
            QStringLiteral("the registry sent more than the %1 bytes the manifest declares").arg(blob.size));
    if (writeFailed || !flushed)
        return failWith(QStringLiteral("cannot write the blob to %1 (disk full?)").arg(layout.dir()));
    if (r->status != 200) {
        QFile::remove(temp);
        return d->httpError(req, *r, repo);
    }
    if (blob.size >= 0 && received != blob.size)
        return failWith(QStringLiteral("truncated: received %1 of %2 bytes").arg(received).arg(blob.size));
    const QString got = QStringLiteral("sha256:") + QString::fromLatin1(hash.result().toHex());
    if (got != blob.digest)
        return failWith(QStringLiteral("the content's digest is %1, not the expected %2 (corrupt or tampered "
                                       "blob; nothing was kept)")
                            .arg(got, blob.digest));
    if (Status s = layout.adoptBlob(temp, blob.digest); !s)
        return s.error();
    return received;
}

Result<qint64> Client::pushBlob(const Reference& repo, const Descriptor& blob, const QString& file) {
    const QString what =
        QStringLiteral("upload blob %1 to %2/%3").arg(blob.digest, repo.registry, repo.repository);
    Result<bool> exists = hasBlob(repo, blob.digest);
    if (!exists)
        return exists.error();
    if (*exists)
        return qint64(0);
    QFile in(file);
    if (Status s = openInputFile(in, what); !s)
        return s.error();
    const qint64 size = in.size();
    Result<QByteArray> repoUrl = d->repoUrl(repo);
    if (!repoUrl)
        return repoUrl.error();
    const QByteArray base = *d->baseUrl(repo);
    auto absolute = [&](const QByteArray& location) {
        return location.startsWith("http") ? location : base + location;
    };
    auto withDigest = [&](const QByteArray& location) {
        return absolute(location) + (location.contains('?') ? "&" : "?") +
               "digest=" + QUrl::toPercentEncoding(blob.digest);
    };

    Request start;
    start.method = "POST";
    start.url = *repoUrl + "/blobs/uploads/";
    start.what = what + QStringLiteral(" (start)");
    Result<Response> r = d->send(repo, start, QStringLiteral("pull,push"));
    if (!r)
        return r.error();
    if (r->status != 202)
        return d->httpError(start, *r, repo);
    QByteArray location = r->header("location");
    if (location.isEmpty())
        return makeError(QStringLiteral("%1: the registry gave no upload Location").arg(what));

    d->progressTotal = size;
    d->progressWhat = blob.digest;
    d->progressBase = 0;
    if (d->opts.chunkSize > 0) {
        for (qint64 offset = 0; offset < size;) {
            const qint64 len = qMin(d->opts.chunkSize, size - offset);
            Request patch;
            patch.method = "PATCH";
            patch.url = absolute(location);
            patch.upload = &in;
            patch.uploadOffset = offset;
            patch.uploadLength = len;
            patch.what = what + QStringLiteral(" (chunk at %1)").arg(offset);
            patch.headers << "Content-Type: application/octet-stream"
                          << QByteArray("Content-Range: ") + QByteArray::number(offset) + '-' +
                                 QByteArray::number(offset + len - 1);
            d->progressBase = offset;
            r = d->send(repo, patch, QStringLiteral("pull,push"));
            if (!r) {
                d->progressTotal = -1;
                return r.error();
            }
            if (r->status != 202) {
                d->progressTotal = -1;
                return d->httpError(patch, *r, repo);
            }
            if (!r->header("location").isEmpty())
                location = r->header("location");
            offset += len;
        }
        Request put;
        put.method = "PUT";
        put.url = withDigest(location);
        put.what = what + QStringLiteral(" (commit)");
        put.headers << "Content-Type: application/octet-stream";
        r = d->send(repo, put, QStringLiteral("pull,push"));
    } else {
        Request put;
        put.method = "PUT";
        put.url = withDigest(location);
        put.upload = &in;
        put.uploadLength = size;
        put.what = what;
        put.headers << "Content-Type: application/octet-stream";
        r = d->send(repo, put, QStringLiteral("pull,push"));
    }
    d->progressTotal = -1;
    if (!r)
        return r.error();
    if (r->status != 201) {
        Request done;
        done.what = what;
        return d->httpError(done, *r, repo);
    }
    return size;
}

Result<QString> Client::pushManifest(const Reference& ref, const QByteArray& bytes, const QString& mediaType,
                                     bool* subjectSupported) {
    Result<QByteArray> url = d->repoUrl(ref);
    if (!url)
        return url.error();
    const QString digest = digestOf(bytes);
    Request req;
    req.method = "PUT";
    req.url = *url + "/manifests/" + QUrl::toPercentEncoding(ref.tag.isEmpty() ? digest : ref.tag);
    req.body = bytes;
    req.headers << "Content-Type: " + mediaType.toUtf8();
    req.what = QStringLiteral("PUT manifest %1").arg(ref.toString());
    Result<Response> r = d->send(ref, req, QStringLiteral("pull,push"));
    if (!r)
        return r.error();
    if (r->status != 201 && r->status != 200)
        return d->httpError(req, *r, ref);
    const QString echoed = QString::fromUtf8(r->header("docker-content-digest"));
    if (!echoed.isEmpty() && echoed != digest)
        return makeError(QStringLiteral("%1: the registry stored the manifest as %2, not %3")
                             .arg(req.what, echoed, digest));
    if (subjectSupported)
        *subjectSupported = !r->header("oci-subject").isEmpty();
    return digest;
}

Result<std::vector<Descriptor>> Client::referrers(const Reference& repo, const QString& digest,
                                                  const QString& artifactType) {
    Result<QByteArray> url = d->repoUrl(repo);
    if (!url)
        return url.error();
    std::vector<Descriptor> out;
    auto collect = [&](const QJsonObject& index) {
        for (const QJsonValue& v : index.value(QStringLiteral("manifests")).toArray()) {
            const Descriptor ds = Descriptor::fromJson(v.toObject());
            if (artifactType.isEmpty() || ds.artifactType == artifactType)
                out.push_back(ds);
        }
    };
    Request req;
    req.url = *url + "/referrers/" + digest.toUtf8();
    req.what = QStringLiteral("GET referrers of %1 in %2/%3").arg(digest, repo.registry, repo.repository);
    req.headers << QByteArray("Accept: ") + kImageIndex;
    Result<Response> r = d->send(repo, req);
    if (!r)
        return r.error();
    if (r->status == 200 &&
        QString::fromUtf8(r->header("content-type")).startsWith(QLatin1String(kImageIndex))) {
        collect(QJsonDocument::fromJson(r->body).object());
        return out;
    }
    if (r->status != 404 && r->status != 200)
        return d->httpError(req, *r, repo);
    // No referrers API (distribution 2.x): the tag schema, an index tagged sha256-<hex>.
    Reference tagRef = repo;
    tagRef.digest.clear();
    tagRef.tag = QStringLiteral("sha256-") + digest.mid(7);
    Result<Manifest> idx = getManifest(tagRef);
    if (!idx) {
        if (idx.error().message.contains(QLatin1String("404")))
            return out;
        return idx.error();
    }
    collect(idx->json);
    return out;
}

Result<QString> Client::pushReferrer(const Reference& repo, const QByteArray& manifest,
                                     const QString& mediaType) {
    const QJsonObject json = QJsonDocument::fromJson(manifest).object();
    const Descriptor subject = Descriptor::fromJson(json.value(QStringLiteral("subject")).toObject());
    if (!isValidDigest(subject.digest))
        return makeError(QStringLiteral("a referrer needs a subject with a sha256 digest"), {}, 0,
                         QStringLiteral("subject.digest"));
    bool supported = false;
    Reference byDigest = repo;
    byDigest.tag.clear();
    byDigest.digest.clear();
    Result<QString> digest = pushManifest(byDigest, manifest, mediaType, &supported);
    if (!digest || supported)
        return digest;
    // Fallback tag schema: add this referrer to the index tagged sha256-<subject hex>.
    Reference tagRef = byDigest;
    tagRef.tag = QStringLiteral("sha256-") + subject.digest.mid(7);
    QJsonObject index{{QStringLiteral("schemaVersion"), 2},
                      {QStringLiteral("mediaType"), QLatin1String(kImageIndex)}};
    QJsonArray entries;
    Result<Manifest> existing = getManifest(tagRef);
    if (existing) {
        index = existing->json;
        entries = index.value(QStringLiteral("manifests")).toArray();
    } else if (!existing.error().message.contains(QLatin1String("404"))) {
        return existing.error();
    }
    for (const QJsonValue& v : entries)
        if (v.toObject().value(QStringLiteral("digest")).toString() == *digest)
            return digest;
    Descriptor me;
    me.mediaType = mediaType;
    me.digest = *digest;
    me.size = manifest.size();
    me.artifactType = json.value(QStringLiteral("artifactType")).toString();
    me.annotations = json.value(QStringLiteral("annotations")).toObject();
    entries.append(me.toJson());
    index.insert(QStringLiteral("manifests"), entries);
    Result<QString> tagged =
        pushManifest(tagRef, QJsonDocument(index).toJson(QJsonDocument::Compact), QLatin1String(kImageIndex));
    if (!tagged)
        return tagged.error();
    return digest;
}

Result<PullResult> Client::pull(const Reference& ref, Layout& layout, const PullOptions& options) {
    PullResult res;
    res.reference = ref;
    QSet<QString> seen;
    // Pulls one manifest (by reference) and everything below it.
    std::function<Result<Descriptor>(const Reference&)> pullManifest =
        [&](const Reference& r) -> Result<Descriptor> {
        Result<Manifest> m = getManifest(r);
        if (!m)
            return m.error();
        if (!seen.contains(m->digest)) {
            seen.insert(m->digest);
            for (const Descriptor& child : childrenOf(m->json)) {
                if (isManifestType(child.mediaType) || isIndexType(child.mediaType)) {
                    Result<Descriptor> sub = pullManifest(ref.withDigest(child.digest));
                    if (!sub)
                        return sub.error();
                    continue;
                }
                if (layout.hasBlob(child.digest)) {
                    ++res.blobsCached;
                    continue;
                }
                Result<qint64> got = fetchBlob(ref, child, layout);
                if (!got)
                    return got.error();
                ++res.blobsFetched;
                res.bytesFetched += *got;
            }
            // The manifest goes in last: a manifest in the layout means its blobs are there too.
            if (!layout.hasBlob(m->digest)) {
                Result<QString> w = layout.writeBlob(m->bytes);
                if (!w)
                    return w.error();
            }
        }
        return m->descriptor();
    };
    Result<Descriptor> top = pullManifest(ref);
    if (!top)
        return top.error();
    res.manifest = *top;
    res.reference = ref.withDigest(top->digest);
    res.reference.tag = ref.tag;
    if (options.referrers) {
        Result<std::vector<Descriptor>> refs = referrers(ref, top->digest, options.referrerArtifactType);
        if (!refs)
            return refs.error();
        for (const Descriptor& rd : *refs) {
            Result<Descriptor> got = pullManifest(ref.withDigest(rd.digest));
            if (!got)
                return got.error();
            res.referrers.push_back(rd);
        }
    }
    const QString refName = options.refName.isEmpty() ? ref.tag : options.refName;
    if (Status s = layout.addManifest(*top, refName); !s)
        return s.error();
    for (const Descriptor& rd : res.referrers)
        if (Status s = layout.addManifest(rd); !s)
            return s.error();
    return res;
}

Result<PushResult> Client::push(Layout& layout, const Descriptor& manifest, const Reference& to) {
    PushResult res;
    std::function<Status(const Descriptor&, const Reference&)> pushOne =
        [&](const Descriptor& md, const Reference& target) -> Status {
        Result<QByteArray> bytes = layout.readBlob(md.digest, kMaxManifest);
        if (!bytes)
            return bytes.error();
        const QJsonObject json = QJsonDocument::fromJson(*bytes).object();
        QString mediaType = json.value(QStringLiteral("mediaType")).toString();
        if (mediaType.isEmpty())
            mediaType = md.mediaType;
        for (const Descriptor& child : childrenOf(json)) {
            if (isManifestType(child.mediaType) || isIndexType(child.mediaType)) {
                if (Status s = pushOne(child, to.withDigest(child.digest)); !s)
                    return s;
                continue;
            }
            if (!layout.hasBlob(child.digest))
                return makeError(QStringLiteral("blob %1 is missing from the layout").arg(child.digest),
                                 layout.dir());
            Result<qint64> sent = pushBlob(to, child, layout.blobPath(child.digest));
            if (!sent)
                return sent.error();
            if (*sent > 0) {
                ++res.blobsPushed;
                res.bytesPushed += *sent;
            } else {
                ++res.blobsExisting;
            }
        }
        Reference t = target;
        if (t.isPinned())
            t.tag.clear();
        Result<QString> dg = pushManifest(t, *bytes, mediaType);
        if (!dg)
            return dg.error();
        return {};
    };
    Reference target = to;
    target.digest.clear();
    if (Status s = pushOne(manifest, target); !s)
        return s.error();
    res.digest = manifest.digest;
    res.reference = to.withDigest(manifest.digest);
    res.reference.tag = to.tag;
    return res;
}

} // namespace pb::oci
