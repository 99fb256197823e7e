// issue #11: the OCI registry client against real peers. Debian's docker-registry (CNCF distribution
// 2.8, which has no referrers API, so the sha256-<hex> tag fallback is what runs) is started on
// 127.0.0.1 three times: without auth, with htpasswd (Basic), and with token auth whose token server
// is a small in-test HTTP server issuing RS256 JWTs under a freshly made certificate. skopeo is the
// independent peer. Faults the registry cannot produce come from a tiny fake registry in this file.
#include "BundleFixture.h"
#include "DockerRegistry.h"
#include "TestUtil.h"

#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "oci/Artifact.h"
#include "oci/Auth.h"
#include "oci/Layout.h"
#include "oci/Reference.h"
#include "oci/Registry.h"
#include "sigstore/TrustedRoot.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

using namespace pb;

namespace {

const char* const kUser = "pbtest";
const char* const kPassword = "pb-secret-1";

using pbtest::canConnectLoopback;
using Registry = pbtest::DockerRegistry;

// ---- a tiny HTTP/1.1 server on its own thread (one request per connection) --------------------------

struct HttpRequest {
    QByteArray method, target, body;
    QMap<QByteArray, QByteArray> headers; // lower-cased names
    QByteArray path() const {
        return target.left(target.indexOf('?') < 0 ? target.size() : target.indexOf('?'));
    }
    QUrlQuery query() const { return QUrlQuery(QString::fromUtf8(target.mid(target.indexOf('?') + 1))); }
};

struct HttpReply {
    int status = 200;
    QList<QByteArray> headers;
    QByteArray body;
    qint64 sendOnly =
        -1; // >= 0: send only this many body bytes (Content-Length stays the full size), then close
    bool dieAfter = false; // stop listening after this reply (a registry that dies)
};

class MiniHttp {
  public:
    using Handler = std::function<HttpReply(const HttpRequest&)>;
    explicit MiniHttp(Handler h) : m_handler(std::move(h)) {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        ::setsockopt(m_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        ::listen(m_fd, 16);
        socklen_t len = sizeof a;
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&a), &len);
        m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] { loop(); });
    }
    ~MiniHttp() { stop(); }
    void stop() {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }
    quint16 port() const { return m_port; }
    QByteArray base() const { return "127.0.0.1:" + QByteArray::number(m_port); }
    QList<HttpRequest> requests() {
        std::lock_guard<std::mutex> g(m_mutex);
        return m_seen;
    }

  private:
    void loop() {
        while (!m_stop) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0)
                continue;
            const int c = ::accept(m_fd, nullptr, nullptr);
            if (c < 0)
                continue;
            const bool die = serve(c);
            ::close(c);
            if (die) {
                ::close(m_fd);
                m_fd = -1;
                return;
            }
        }
    }
    bool serve(int c) {
        QByteArray buf;
        char chunk[65536];
        qsizetype headerEnd = -1;
        while ((headerEnd = buf.indexOf("\r\n\r\n")) < 0) {
            const ssize_t n = ::recv(c, chunk, sizeof chunk, 0);
            if (n <= 0)
                return false;
            buf.append(chunk, n);
        }
        HttpRequest req;
        const QList<QByteArray> lines = buf.left(headerEnd).split('\n');
        const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
        req.method = first.value(0);
        req.target = first.value(1);
        for (int i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon > 0)
                req.headers.insert(lines[i].left(colon).trimmed().toLower(),
                                   lines[i].mid(colon + 1).trimmed());
        }
        const qint64 want = req.headers.value("content-length", "0").toLongLong();
        req.body = buf.mid(headerEnd + 4);
        while (req.body.size() < want) {
            const ssize_t n = ::recv(c, chunk, sizeof chunk, 0);
            if (n <= 0)
                break;
            req.body.append(chunk, n);
        }
        {
            std::lock_guard<std::mutex> g(m_mutex);
            m_seen.append(req);
        }
        const HttpReply r = m_handler(req);
        QByteArray out = "HTTP/1.1 " + QByteArray::number(r.status) +
                         " X\r\nConnection: close\r\nContent-Length: " + QByteArray::number(r.body.size()) +
                         "\r\n";
        for (const QByteArray& h : r.headers)
            out += h + "\r\n";
        out += "\r\n";
        out += r.sendOnly >= 0 ? r.body.left(r.sendOnly) : r.body;
        qsizetype sent = 0;
        while (sent < out.size()) {
            const ssize_t n = ::send(c, out.constData() + sent, size_t(out.size() - sent), MSG_NOSIGNAL);
            if (n <= 0)
                break;
            sent += n;
        }
        return r.dieAfter;
    }
    Handler m_handler;
    int m_fd = -1;
    quint16 m_port = 0;
    std::atomic_bool m_stop{false};
    std::thread m_thread;
    std::mutex m_mutex;
    QList<HttpRequest> m_seen;
};

// ---- a token issuer: RSA key, self-signed certificate (the registry's rootcertbundle), RS256 JWTs ---

QByteArray b64url(const QByteArray& b) {
    return b.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

struct TokenIssuer {
    EVP_PKEY* key = nullptr;
    X509* cert = nullptr;
    QByteArray certPem, certDer;
    TokenIssuer() {
        key = EVP_RSA_gen(2048);
        cert = X509_new();
        X509_set_version(cert, 2);
        ASN1_INTEGER_set(X509_get_serialNumber(cert), 4242);
        X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
        X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
        X509_set_pubkey(cert, key);
        X509_NAME* name = X509_get_subject_name(cert);
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                   reinterpret_cast<const unsigned char*>("pb-test-token-issuer"), -1, -1, 0);
        X509_set_issuer_name(cert, name);
        X509_sign(cert, key, EVP_sha256());
        BIO* bio = BIO_new(BIO_s_mem());
        PEM_write_bio_X509(bio, cert);
        char* data = nullptr;
        const long n = BIO_get_mem_data(bio, &data);
        certPem = QByteArray(data, int(n));
        BIO_free(bio);
        unsigned char* der = nullptr;
        const int dl = i2d_X509(cert, &der);
        certDer = QByteArray(reinterpret_cast<char*>(der), dl);
        OPENSSL_free(der);
    }
    ~TokenIssuer() {
        X509_free(cert);
        EVP_PKEY_free(key);
    }
    QByteArray token(const QString& repository, const QStringList& actions) const {
        const QJsonObject header{
            {QStringLiteral("typ"), QStringLiteral("JWT")},
            {QStringLiteral("alg"), QStringLiteral("RS256")},
            {QStringLiteral("x5c"), QJsonArray{QString::fromLatin1(certDer.toBase64())}}};
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const QJsonObject claims{
            {QStringLiteral("iss"), QStringLiteral("pb-test-issuer")},
            {QStringLiteral("sub"), QLatin1String(kUser)},
            {QStringLiteral("aud"), QStringLiteral("pb-registry")},
            {QStringLiteral("exp"), now + 600},
            {QStringLiteral("nbf"), now - 60},
            {QStringLiteral("iat"), now - 60},
            {QStringLiteral("jti"), QString::number(now) + repository},
            {QStringLiteral("access"),
             QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("repository")},
                                    {QStringLiteral("name"), repository},
                                    {QStringLiteral("actions"), QJsonArray::fromStringList(actions)}}}}};
        const QByteArray input = b64url(QJsonDocument(header).toJson(QJsonDocument::Compact)) + '.' +
                                 b64url(QJsonDocument(claims).toJson(QJsonDocument::Compact));
        EVP_MD_CTX* ctx = EVP_MD_CTX_new();
        EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key);
        size_t len = 0;
        EVP_DigestSign(ctx, nullptr, &len, reinterpret_cast<const unsigned char*>(input.constData()),
                       size_t(input.size()));
        QByteArray sig(qsizetype(len), Qt::Uninitialized);
        EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(sig.data()), &len,
                       reinterpret_cast<const unsigned char*>(input.constData()), size_t(input.size()));
        sig.truncate(qsizetype(len));
        EVP_MD_CTX_free(ctx);
        return input + '.' + b64url(sig);
    }
};

// The token endpoint: Basic pbtest:pb-secret-1 required; grants what the scope asks for.
// An identity token (refresh token) is accepted through the OAuth2 POST form instead.
HttpReply tokenEndpoint(const TokenIssuer& issuer, const HttpRequest& req) {
    QUrlQuery params = req.query();
    if (req.method == "POST") {
        params = QUrlQuery(QString::fromUtf8(req.body));
        if (params.queryItemValue(QStringLiteral("grant_type")) != QLatin1String("refresh_token") ||
            params.queryItemValue(QStringLiteral("refresh_token")) != QLatin1String("pb-identity-token"))
            return HttpReply{401, {}, "{\"details\":\"bad refresh token\"}"};
    } else {
        const QByteArray expected = "Basic " + QByteArray(QByteArray(kUser) + ':' + kPassword).toBase64();
        if (req.headers.value("authorization") != expected)
            return HttpReply{401, {}, "{\"details\":\"bad credentials\"}"};
    }
    const QStringList scope =
        params.queryItemValue(QStringLiteral("scope"), QUrl::FullyDecoded).split(QLatin1Char(':'));
    const QByteArray token = issuer.token(scope.value(1), scope.value(2).split(QLatin1Char(',')));
    // POST answers use the OAuth2 field name, GET the docker one: the client must read both.
    const QByteArray field = req.method == "POST" ? "access_token" : "token";
    return HttpReply{
        200, {"Content-Type: application/json"}, "{\"" + field + "\":\"" + token + "\",\"expires_in\":600}"};
}

// ---- docker-registry -------------------------------------------------------------------------------

bool haveTool(const char* name) {
    return !QStandardPaths::findExecutable(QLatin1String(name)).isEmpty();
}

#define REQUIRE_PEERS()                                                                                      \
    do {                                                                                                     \
        if (!haveTool("docker-registry"))                                                                    \
            QSKIP("docker-registry (Debian package docker-registry) is not installed; tools/bootstrap.sh "   \
                  "installs it");                                                                            \
        if (!haveTool("skopeo"))                                                                             \
            QSKIP("skopeo (Debian package skopeo) is not installed; tools/bootstrap.sh installs it");        \
    } while (0)

#define START_REGISTRY(reg, ...)                                                                             \
    do {                                                                                                     \
        QVERIFY2((reg).start(__VA_ARGS__), "docker-registry did not start");                                 \
        QTRY_VERIFY_WITH_TIMEOUT(                                                                            \
            canConnectLoopback((reg).port) || (reg).process.state() == QProcess::NotRunning, 20000);         \
        QVERIFY2(canConnectLoopback((reg).port), (reg).log().constData());                                   \
    } while (0)

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run run(const QString& program, const QStringList& args, const QString& home = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!home.isEmpty()) {
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/.local/share"));
        env.remove(QStringLiteral("DOCKER_CONFIG"));
        env.remove(QStringLiteral("REGISTRY_AUTH_FILE"));
    }
    p.setProcessEnvironment(env);
    p.start(program, args);
    p.waitForFinished(120000);
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
               p.readAllStandardError()};
}

QString manifestDigestOfLayout(const QString& dir) {
    QFile f(dir + QStringLiteral("/index.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll())
        .object()
        .value(QStringLiteral("manifests"))
        .toArray()
        .first()
        .toObject()
        .value(QStringLiteral("digest"))
        .toString();
}

// Files left in a layout that are not finished blobs (temporaries, partial downloads).
QStringList leftovers(const QString& layoutDir) {
    QStringList out;
    QDirIterator it(layoutDir + QStringLiteral("/blobs"), QDir::Files | QDir::Hidden,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        if (!QFileInfo(f).absolutePath().endsWith(QLatin1String("blobs/sha256")) ||
            f.contains(QLatin1String(".partial")))
            out << f;
    }
    return out;
}

int blobCount(const QString& layoutDir) {
    return int(QDir(layoutDir + QStringLiteral("/blobs/sha256")).entryList(QDir::Files).size());
}

QByteArray publicPem(EVP_PKEY* key) {
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PUBKEY(bio, key);
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    QByteArray pem(data, int(n));
    BIO_free(bio);
    return pem;
}

// A fake registry serving one manifest with one layer, whose blob endpoint misbehaves as asked.
struct FakeRegistry {
    QByteArray layer = QByteArray(200000, 'x');
    QByteArray config = "{}";
    QByteArray manifest;
    QString manifestDigest, layerDigest;
    std::function<HttpReply(const HttpRequest&)> blobReply;
    std::unique_ptr<MiniHttp> http;
    FakeRegistry() {
        layerDigest = QStringLiteral("sha256:") + sha256Hex(layer);
        const QJsonObject m{
            {QStringLiteral("schemaVersion"), 2},
            {QStringLiteral("mediaType"), QLatin1String(oci::kImageManifest)},
            {QStringLiteral("config"),
             QJsonObject{{QStringLiteral("mediaType"), QLatin1String(oci::kEmptyConfig)},
                         {QStringLiteral("digest"), QStringLiteral("sha256:") + sha256Hex(config)},
                         {QStringLiteral("size"), 2}}},
            {QStringLiteral("layers"),
             QJsonArray{QJsonObject{{QStringLiteral("mediaType"), QLatin1String(oci::kLayerTarGzip)},
                                    {QStringLiteral("digest"), layerDigest},
                                    {QStringLiteral("size"), layer.size()}}}}};
        manifest = QJsonDocument(m).toJson(QJsonDocument::Compact);
        manifestDigest = QStringLiteral("sha256:") + sha256Hex(manifest);
        blobReply = [this](const HttpRequest&) { return HttpReply{200, {}, layer}; };
        http = std::make_unique<MiniHttp>([this](const HttpRequest& r) { return handle(r); });
    }
    HttpReply handle(const HttpRequest& r) {
        if (r.path().contains("/manifests/"))
            return HttpReply{200, {QByteArray("Content-Type: ") + oci::kImageManifest}, manifest};
        if (r.path().endsWith(config.isEmpty() ? QByteArray("-") : sha256Hex(config).toLatin1()))
            return HttpReply{200, {}, config};
        if (r.path().contains("/blobs/"))
            return blobReply(r);
        return HttpReply{404, {}, "{\"errors\":[{\"code\":\"NAME_UNKNOWN\",\"message\":\"nope\"}]}"};
    }
    oci::Reference ref() const {
        return *oci::parseReference(QStringLiteral("%1/fake/repo:v1").arg(QString::fromLatin1(http->base())));
    }
};

oci::ClientOptions plain() {
    oci::ClientOptions o;
    o.plainHttp = true;
    o.credentials = oci::Credentials{}; // anonymous, whatever the user's docker config holds
    return o;
}

} // namespace

class TestOci : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void references_data();
    void references();
    void badReferences_data();
    void badReferences();
    void plainHttpOnlyWhereAllowed();
    void dockerConfig();
    void credentialHelper();
    void challenges();
    void layoutIsAtomic();

    void evidenceRoundTripWithSkopeo();
    void skopeoPushesProofbenchPulls();
    void chunkedDeploymentBundle();
    void cliRefusesUnpinnedEvidenceTag();
    void notFound();
    void htpasswdRegistry();
    void tokenRegistry();

    void faultDigestMismatch();
    void faultTruncated();
    void faultRegistryDies();
    void fault401ThenToken();
    void cancelMidBlob();
    void referrersApi();
    void tlsVerifiedByDefault();

  private:
    QTemporaryDir m_home;
};

void TestOci::initTestCase() {
    QLocale::setDefault(QLocale::c());
    // skopeo and the CLI must not see the developer's credentials or policy.
    qputenv("HOME", m_home.path().toUtf8());
    qunsetenv("DOCKER_CONFIG");
    QDir().mkpath(m_home.filePath(QStringLiteral(".config/containers")));
    QFile policy(m_home.filePath(QStringLiteral(".config/containers/policy.json")));
    QVERIFY(policy.open(QIODevice::WriteOnly));
    policy.write("{\"default\":[{\"type\":\"insecureAcceptAnything\"}]}");
}

void TestOci::references_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("registry");
    QTest::addColumn<QString>("repository");
    QTest::addColumn<QString>("tag");
    QTest::addColumn<QString>("digest");
    const QString d = QStringLiteral("sha256:") + QString(64, QLatin1Char('a'));
    QTest::addRow("hub short") << "ubuntu"
                               << "docker.io"
                               << "library/ubuntu"
                               << "latest"
                               << "";
    QTest::addRow("hub user") << "nvidia/cuda:12.4"
                              << "docker.io"
                              << "nvidia/cuda"
                              << "12.4"
                              << "";
    QTest::addRow("ghcr tag") << "ghcr.io/owner/aicr-evidence:h100-eks-3f9a1c2b4d5e"
                              << "ghcr.io"
                              << "owner/aicr-evidence"
                              << "h100-eks-3f9a1c2b4d5e"
                              << "";
    QTest::addRow("pinned") << "ghcr.io/owner/aicr-evidence@" + d << "ghcr.io"
                            << "owner/aicr-evidence"
                            << "" << d;
    QTest::addRow("tag and digest") << "ghcr.io/o/r:v1@" + d << "ghcr.io"
                                    << "o/r"
                                    << "v1" << d;
    QTest::addRow("port") << "127.0.0.1:5000/a/b:c"
                          << "127.0.0.1:5000"
                          << "a/b"
                          << "c"
                          << "";
    QTest::addRow("localhost") << "localhost/x"
                               << "localhost"
                               << "x"
                               << "latest"
                               << "";
    QTest::addRow("oci scheme") << "oci://europe-west1-docker.pkg.dev/p/helm/aicr-bundle:0.20.0"
                                << "europe-west1-docker.pkg.dev"
                                << "p/helm/aicr-bundle"
                                << "0.20.0"
                                << "";
}

void TestOci::references() {
    QFETCH(QString, text);
    Result<oci::Reference> r = oci::parseReference(text);
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
    QTEST(r->registry, "registry");
    QTEST(r->repository, "repository");
    QTEST(r->tag, "tag");
    QTEST(r->digest, "digest");
    QCOMPARE(oci::parseReference(r->toString())->toString(), r->toString());
}

void TestOci::badReferences_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reason");
    QTest::addRow("empty") << ""
                           << "empty";
    QTest::addRow("upper repo") << "ghcr.io/Owner/x:1"
                                << "not a valid name";
    QTest::addRow("short digest") << "ghcr.io/o/r@sha256:abc"
                                  << "64 lowercase hex";
    QTest::addRow("md5") << "ghcr.io/o/r@md5:abc"
                         << "only sha256";
    QTest::addRow("bad tag") << "ghcr.io/o/r:-x"
                             << "not a valid tag";
}

void TestOci::badReferences() {
    QFETCH(QString, text);
    QFETCH(QString, reason);
    Result<oci::Reference> r = oci::parseReference(text);
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.contains(reason), qPrintable(r.error().toString()));
    QCOMPARE(r.error().field, QStringLiteral("reference"));
}

void TestOci::plainHttpOnlyWhereAllowed() {
    QVERIFY(oci::isLoopbackRegistry(QStringLiteral("127.0.0.1:5000")));
    QVERIFY(oci::isLoopbackRegistry(QStringLiteral("localhost:5000")));
    QVERIFY(oci::isLoopbackRegistry(QStringLiteral("[::1]:5000")));
    QVERIFY(!oci::isLoopbackRegistry(QStringLiteral("registry.example.com")));
    oci::Client client(plain());
    Result<oci::Manifest> m =
        client.getManifest(*oci::parseReference(QStringLiteral("registry.example.com/a/b:c")));
    QVERIFY(!m.ok());
    QVERIFY2(m.error().message.contains(QLatin1String("refusing plain HTTP")) &&
                 m.error().message.contains(QLatin1String("--plain-http-registry")),
             qPrintable(m.error().toString()));
}

void TestOci::dockerConfig() {
    QTemporaryDir dir;
    const QString cfg = dir.filePath(QStringLiteral("config.json"));
    QFile f(cfg);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        QJsonDocument(
            QJsonObject{
                {QStringLiteral("auths"),
                 QJsonObject{{QStringLiteral("ghcr.io"),
                              QJsonObject{{QStringLiteral("auth"),
                                           QString::fromLatin1(QByteArray("me:pw:with:colons").toBase64())}}},
                             {QStringLiteral("https://index.docker.io/v1/"),
                              QJsonObject{{QStringLiteral("identitytoken"), QStringLiteral("refresh-123")}}},
                             {QStringLiteral("bad.example"),
                              QJsonObject{{QStringLiteral("auth"), QStringLiteral("bm9jb2xvbg==")}}}}}})
            .toJson());
    f.close();
    oci::DockerConfigOptions o;
    o.configFile = cfg;
    Result<oci::Credentials> gh = oci::credentialsFor(QStringLiteral("ghcr.io"), o);
    QVERIFY(gh.ok());
    QCOMPARE(gh->kind, oci::Credentials::Kind::Basic);
    QCOMPARE(gh->username, QStringLiteral("me"));
    QCOMPARE(gh->secret, QStringLiteral("pw:with:colons"));
    QVERIFY(gh->source.contains(cfg));
    QVERIFY(!gh->source.contains(QLatin1String("pw")));
    Result<oci::Credentials> hub = oci::credentialsFor(QStringLiteral("docker.io"), o);
    QVERIFY(hub.ok());
    QCOMPARE(hub->kind, oci::Credentials::Kind::IdentityToken);
    QCOMPARE(hub->secret, QStringLiteral("refresh-123"));
    QCOMPARE(oci::credentialsFor(QStringLiteral("quay.io"), o)->kind, oci::Credentials::Kind::Anonymous);
    Result<oci::Credentials> bad = oci::credentialsFor(QStringLiteral("bad.example"), o);
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().file, cfg);
    QCOMPARE(bad.error().field, QStringLiteral("auths.bad.example.auth"));
    Result<std::vector<oci::CredentialSource>> sources = oci::listCredentialSources(o);
    QVERIFY(sources.ok());
    QCOMPARE(sources->size(), size_t(3));
    for (const oci::CredentialSource& s : *sources) {
        QVERIFY(s.source.contains(cfg));
        QVERIFY(!s.source.contains(QLatin1String("pw")) && !s.source.contains(QLatin1String("refresh-123")));
    }
    o.configFile = dir.filePath(QStringLiteral("missing.json"));
    QCOMPARE(oci::credentialsFor(QStringLiteral("ghcr.io"), o)->kind, oci::Credentials::Kind::Anonymous);
}

void TestOci::credentialHelper() {
    QTemporaryDir dir;
    // A real helper program speaking the docker-credential protocol (registry on stdin, JSON out).
    const QString helper = dir.filePath(QStringLiteral("docker-credential-pbtest"));
    QFile h(helper);
    QVERIFY(h.open(QIODevice::WriteOnly));
    h.write("#!/bin/sh\n[ \"$1\" = get ] || exit 3\nread reg\n"
            "case \"$reg\" in\n"
            "  reg.example) echo "
            "'{\"ServerURL\":\"reg.example\",\"Username\":\"helper-user\",\"Secret\":\"helper-secret\"}' ;;\n"
            "  tok.example) echo "
            "'{\"ServerURL\":\"tok.example\",\"Username\":\"<token>\",\"Secret\":\"id-token\"}' ;;\n"
            "  *) echo 'credentials not found in native keychain'; exit 1 ;;\n"
            "esac\n");
    h.close();
    h.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QFile cfg(dir.filePath(QStringLiteral("config.json")));
    QVERIFY(cfg.open(QIODevice::WriteOnly));
    cfg.write("{\"credsStore\":\"pbtest\",\"credHelpers\":{\"tok.example\":\"pbtest\",\"broken.example\":"
              "\"nosuchhelper\"}}");
    cfg.close();
    oci::DockerConfigOptions o;
    o.configFile = cfg.fileName();
    o.helperDir = dir.path();
    Result<oci::Credentials> c = oci::credentialsFor(QStringLiteral("reg.example"), o);
    QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().toString()));
    QCOMPARE(c->username, QStringLiteral("helper-user"));
    QCOMPARE(c->secret, QStringLiteral("helper-secret"));
    QCOMPARE(c->source, QStringLiteral("credsStore: pbtest"));
    Result<oci::Credentials> t = oci::credentialsFor(QStringLiteral("tok.example"), o);
    QVERIFY(t.ok());
    QCOMPARE(t->kind, oci::Credentials::Kind::IdentityToken);
    QCOMPARE(t->source, QStringLiteral("credHelpers: pbtest"));
    QCOMPARE(oci::credentialsFor(QStringLiteral("other.example"), o)->kind,
             oci::Credentials::Kind::Anonymous);
    Result<std::vector<oci::CredentialSource>> sources = oci::listCredentialSources(o);
    QVERIFY(sources.ok());
    QCOMPARE(sources->size(), size_t(3)); // two helpers and the store
    QCOMPARE(sources->back().registry, QStringLiteral("*"));
    QCOMPARE(sources->back().source, QStringLiteral("credsStore: pbtest"));
    Result<oci::Credentials> broken = oci::credentialsFor(QStringLiteral("broken.example"), o);
    QVERIFY(!broken.ok());
    QVERIFY(broken.error().message.contains(QLatin1String("docker-credential-nosuchhelper")));
}

void TestOci::challenges() {
    const oci::Challenge c = oci::parseChallenge(
        R"(Bearer realm="https://auth.example/token",service="registry.example",scope="repository:a/b:pull,push")");
    QCOMPARE(c.scheme, QStringLiteral("bearer"));
    QCOMPARE(c.params.value(QStringLiteral("realm")), QStringLiteral("https://auth.example/token"));
    QCOMPARE(c.params.value(QStringLiteral("service")), QStringLiteral("registry.example"));
    QCOMPARE(c.params.value(QStringLiteral("scope")), QStringLiteral("repository:a/b:pull,push"));
    QCOMPARE(oci::parseChallenge("Basic realm=\"x\"").scheme, QStringLiteral("basic"));
}

void TestOci::layoutIsAtomic() {
    QTemporaryDir dir;
    Result<oci::Layout> l = oci::Layout::open(dir.filePath(QStringLiteral("l")));
    QVERIFY(l.ok());
    Result<QString> d = l->writeBlob("hello");
    QVERIFY(d.ok());
    QCOMPARE(*d, QStringLiteral("sha256:") + sha256Hex("hello"));
    oci::Descriptor m;
    m.mediaType = QLatin1String(oci::kImageManifest);
    m.digest = *d;
    m.size = 5;
    QVERIFY(l->addManifest(m, QStringLiteral("v1")).ok());
    QVERIFY(l->addManifest(m, QStringLiteral("v1")).ok()); // replaced, not duplicated
    QCOMPARE(l->manifests().size(), size_t(1));
    QCOMPARE(l->findManifest(QStringLiteral("v1"))->digest, *d);
    QVERIFY(!l->findManifest(QStringLiteral("v2")).ok());
    // A corrupt blob is refused on read.
    QFile f(l->blobPath(*d));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("tampered");
    f.close();
    QVERIFY(l->readBlob(*d).error().message.contains(QLatin1String("does not match")));
    // Not a layout.
    QFile bad(dir.filePath(QStringLiteral("bad/oci-layout")));
    QDir().mkpath(dir.filePath(QStringLiteral("bad")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{\"imageLayoutVersion\":\"9\"}");
    bad.close();
    QVERIFY(!oci::Layout::open(dir.filePath(QStringLiteral("bad"))).ok());
}

// Proofbench publishes a signed evidence bundle; skopeo reads and copies it byte for byte; Proofbench
// fetches it back by the pointer's pinned digest with its Sigstore referrer (tag-schema fallback),
// and the fetched bundle checks valid offline with its signature.
void TestOci::evidenceRoundTripWithSkopeo() {
    REQUIRE_PEERS();
    Registry reg;
    START_REGISTRY(reg, QByteArray());
    QTemporaryDir work;
    pbtest::BundleFixture fx;
    const QString bundleDir = fx.writeDirectory(work.filePath(QStringLiteral("ev")));
    sigstore::crypto::Pkey key(EVP_EC_gen("P-256"));
    oci::Client client(plain());
    oci::EvidencePushOptions po;
    po.key = key.get();
    po.pointerRoot = work.filePath(QStringLiteral("recipes/evidence"));
    po.stagingDir = work.filePath(QStringLiteral("staging"));
    const oci::Reference to = *oci::parseReference(reg.host() + QStringLiteral("/owner/aicr-evidence:") +
                                                   fx.recipeName + QStringLiteral("-1"));
    Result<oci::EvidencePush> pushed = oci::pushEvidence(client, bundleDir, to, po);
    QVERIFY2(pushed.ok(), qPrintable(pushed.ok() ? QString() : pushed.error().toString()));
    QVERIFY(!pushed->signatureDigest.isEmpty());
    QVERIFY(pushed->pointerPath.endsWith(pushed->artifact.digest.mid(7) + QStringLiteral(".yaml")));

    // skopeo sees exactly our manifest.
    Run raw = run(QStringLiteral("skopeo"),
                  {QStringLiteral("inspect"), QStringLiteral("--raw"), QStringLiteral("--tls-verify=false"),
                   QStringLiteral("docker://") + to.toString()});
    QVERIFY2(raw.code == 0, raw.err.constData());
    QCOMPARE(QStringLiteral("sha256:") + sha256Hex(raw.out), pushed->artifact.digest);
    const QJsonObject m = QJsonDocument::fromJson(raw.out).object();
    QCOMPARE(m.value(QStringLiteral("artifactType")).toString(), QLatin1String(oci::kAicrArtifact));
    QCOMPARE(m.value(QStringLiteral("layers")).toArray().size(), 1);
    QCOMPARE(m.value(QStringLiteral("layers"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("mediaType"))
                 .toString(),
             QLatin1String(oci::kLayerTarGzip));
    // The referrer hangs off the tag-schema index sha256-<hex> (distribution 2.8 has no referrers API).
    Run idx = run(QStringLiteral("skopeo"),
                  {QStringLiteral("inspect"), QStringLiteral("--raw"), QStringLiteral("--tls-verify=false"),
                   QStringLiteral("docker://%1/owner/aicr-evidence:sha256-%2")
                       .arg(reg.host(), pushed->artifact.digest.mid(7))});
    QVERIFY2(idx.code == 0, idx.err.constData());
    const QJsonArray refs =
        QJsonDocument::fromJson(idx.out).object().value(QStringLiteral("manifests")).toArray();
    QCOMPARE(refs.size(), 1);
    QCOMPARE(refs.first().toObject().value(QStringLiteral("digest")).toString(), pushed->signatureDigest);
    QCOMPARE(refs.first().toObject().value(QStringLiteral("artifactType")).toString(),
             QLatin1String(oci::kSigstoreBundle));
    // skopeo copies it into its own OCI layout with the same digest, and that layout checks valid.
    const QString skDir = work.filePath(QStringLiteral("skopeo-layout"));
    Run copy = run(QStringLiteral("skopeo"),
                   {QStringLiteral("copy"), QStringLiteral("--src-tls-verify=false"),
                    QStringLiteral("docker://") + to.withDigest(pushed->artifact.digest).toString(),
                    QStringLiteral("oci:") + skDir});
    QVERIFY2(copy.code == 0, copy.err.constData());
    QCOMPARE(manifestDigestOfLayout(skDir), pushed->artifact.digest);
    Result<evidence::SummaryBundle> viaSkopeo = evidence::loadOciLayout(skDir);
    QVERIFY2(viaSkopeo.ok(), qPrintable(viaSkopeo.ok() ? QString() : viaSkopeo.error().toString()));
    QCOMPARE(evidence::checkBundle(*viaSkopeo).exitCode, 0);

    // Fetch by pointer into a fresh cache; offline check with the signature.
    QFile pf(pushed->pointerPath);
    QVERIFY(pf.open(QIODevice::ReadOnly));
    evidence::Pointer pointer = evidence::parsePointer(pf.readAll(), QStringLiteral("pointer.yaml"));
    QCOMPARE(pointer.attestation()->bundleDigest, pushed->artifact.digest);
    QCOMPARE(pointer.attestation()->bundleOci, to.toString());
    QVERIFY(pointer.isSigned());
    const QString cache = work.filePath(QStringLiteral("cache"));
    Result<oci::EvidenceFetch> fetched = oci::fetchEvidence(client, pointer, cache);
    QVERIFY2(fetched.ok(), qPrintable(fetched.ok() ? QString() : fetched.error().toString()));
    QVERIFY(fetched->signaturePulled);
    QCOMPARE(manifestDigestOfLayout(fetched->dir + QStringLiteral("/oci")), pushed->artifact.digest);
    Result<evidence::SummaryBundle> local = evidence::loadSummaryBundle(fetched->dir);
    QVERIFY(local.ok());
    QVERIFY(local->files.contains(QStringLiteral("attestation.intoto.jsonl")));
    sigstore::TrustedRoot root;
    evidence::SignatureCheck sig;
    sig.root = &root;
    sig.policy.publicKeyPem = publicPem(key.get());
    sig.policy.ignoreTlog = true;
    const evidence::BundleCheck check = evidence::checkBundle(*local, &pointer, &sig);
    QVERIFY2(check.exitCode == 0, qPrintable(check.toText()));
    QVERIFY(check.signature.has_value());
    QVERIFY(leftovers(fetched->dir + QStringLiteral("/oci")).isEmpty());

    // The CLI does the same from the pointer, and a second fetch finds everything cached.
    Run cli =
        run(QStringLiteral(PB_CLI_BINARY),
            {QStringLiteral("evidence"), QStringLiteral("fetch"), pushed->pointerPath,
             QStringLiteral("--plain-http"), QStringLiteral("--cache"), cache, QStringLiteral("--format"),
             QStringLiteral("json"), QStringLiteral("--key"), work.filePath(QStringLiteral("none.pem"))},
            m_home.path());
    // A missing key file stops it before any fetch: no verdict (3), never 1, which for evidence fetch
    // means "valid, with recorded phase failures" (issue 30: exit codes are a contract).
    QCOMPARE(cli.code, 3);
    QFile kf(work.filePath(QStringLiteral("pub.pem")));
    QVERIFY(kf.open(QIODevice::WriteOnly));
    kf.write(publicPem(key.get()));
    kf.close();
    cli = run(QStringLiteral(PB_CLI_BINARY),
              {QStringLiteral("evidence"), QStringLiteral("fetch"), pushed->pointerPath,
               QStringLiteral("--plain-http"), QStringLiteral("--cache"), cache, QStringLiteral("--format"),
               QStringLiteral("json"), QStringLiteral("--key"), kf.fileName(),
               QStringLiteral("--insecure-ignore-tlog")},
              m_home.path());
    QVERIFY2(cli.code == 0, cli.out + cli.err);
    const QJsonObject res = QJsonDocument::fromJson(cli.out)
                                .object()
                                .value(QStringLiteral("results"))
                                .toArray()
                                .first()
                                .toObject();
    QCOMPARE(res.value(QStringLiteral("fetch")).toObject().value(QStringLiteral("blobsFetched")).toInt(), 0);
    QCOMPARE(res.value(QStringLiteral("exit")).toInt(), 0);
}

// skopeo publishes an OCI layout; Proofbench pulls it; digests and bytes agree.
void TestOci::skopeoPushesProofbenchPulls() {
    REQUIRE_PEERS();
    Registry reg;
    START_REGISTRY(reg, QByteArray());
    QTemporaryDir work;
    pbtest::BundleFixture fx;
    const QString src = work.filePath(QStringLiteral("src"));
    QDir().mkpath(src);
    const QString layoutDigest =
        pbtest::BundleFixture::writeOciLayout(src, pbtest::BundleFixture::tarGz(fx.files));
    Run copy =
        run(QStringLiteral("skopeo"),
            {QStringLiteral("copy"), QStringLiteral("--dest-tls-verify=false"), QStringLiteral("oci:") + src,
             QStringLiteral("docker://%1/peer/evidence:from-skopeo").arg(reg.host())});
    QVERIFY2(copy.code == 0, copy.err.constData());
    oci::Client client(plain());
    Result<oci::Layout> layout = oci::Layout::open(work.filePath(QStringLiteral("pulled")));
    QVERIFY(layout.ok());
    Result<oci::PullResult> pulled =
        client.pull(*oci::parseReference(reg.host() + QStringLiteral("/peer/evidence:from-skopeo")), *layout);
    QVERIFY2(pulled.ok(), qPrintable(pulled.ok() ? QString() : pulled.error().toString()));
    QCOMPARE(pulled->manifest.digest, layoutDigest);
    QCOMPARE(pulled->blobsFetched, 2);
    QDirIterator it(src + QStringLiteral("/blobs/sha256"), QDir::Files);
    while (it.hasNext()) {
        const QString f = it.next();
        QVERIFY2(QFileInfo::exists(layout->blobPath(QStringLiteral("sha256:") + QFileInfo(f).fileName())),
                 qPrintable(f));
    }
    Result<evidence::SummaryBundle> b = evidence::loadOciLayout(layout->dir());
    QVERIFY(b.ok());
    QCOMPARE(evidence::checkBundle(*b).exitCode, 0);
    // Pulling again fetches nothing.
    Result<oci::PullResult> again = client.pull(
        *oci::parseReference(reg.host() + QStringLiteral("/peer/evidence@") + layoutDigest), *layout);
    QVERIFY(again.ok());
    QCOMPARE(again->blobsFetched, 0);
}

// A deployment bundle pushed in PATCH chunks arrives whole: skopeo copies it, and its layer unpacks
// to the same files.
void TestOci::chunkedDeploymentBundle() {
    REQUIRE_PEERS();
    Registry reg;
    START_REGISTRY(reg, QByteArray());
    QTemporaryDir work;
    const QString dir = work.filePath(QStringLiteral("bundle"));
    QDir().mkpath(dir + QStringLiteral("/001-gpu-operator"));
    QByteArray big;
    for (int i = 0; i < 40000; ++i)
        big += QByteArray::number(i * 7919) + ' ';
    pbtest::writeBytes(dir + QStringLiteral("/001-gpu-operator/values.yaml"), big);
    pbtest::writeBytes(dir + QStringLiteral("/README.md"), "bundle\n");
    oci::ClientOptions o = plain();
    o.chunkSize = 16 * 1024;
    qint64 lastDone = 0;
    o.progress = [&](qint64 done, qint64, const QString&) { lastDone = qMax(lastDone, done); };
    oci::Client client(o);
    const oci::Reference to = *oci::parseReference(QStringLiteral("oci://%1/aicr/bundle:v1").arg(reg.host()));
    Result<oci::PushResult> pushed =
        oci::pushDeploymentBundle(client, dir, to, work.filePath(QStringLiteral("stage")));
    QVERIFY2(pushed.ok(), qPrintable(pushed.ok() ? QString() : pushed.error().toString()));
    QCOMPARE(pushed->blobsPushed, 2);
    QVERIFY(lastDone > 0);
    const QString skDir = work.filePath(QStringLiteral("sk"));
    Run copy =
        run(QStringLiteral("skopeo"), {QStringLiteral("copy"), QStringLiteral("--src-tls-verify=false"),
                                       QStringLiteral("docker://") + to.toString(),
                                       QStringLiteral("oci:") + skDir + QStringLiteral(":v1")});
    QVERIFY2(copy.code == 0, copy.err.constData());
    QCOMPARE(manifestDigestOfLayout(skDir), pushed->digest);
    Result<oci::Layout> sk = oci::Layout::open(skDir);
    const QJsonObject m = QJsonDocument::fromJson(*sk->readBlob(pushed->digest)).object();
    const QString layerDigest = m.value(QStringLiteral("layers"))
                                    .toArray()
                                    .first()
                                    .toObject()
                                    .value(QStringLiteral("digest"))
                                    .toString();
    Result<QMap<QString, QByteArray>> files =
        evidence::extractTar(*sk->readBlob(layerDigest), QStringLiteral("layer"));
    QVERIFY(files.ok());
    QCOMPARE(files->value(QStringLiteral("001-gpu-operator/values.yaml")), big);
    QCOMPARE(files->value(QStringLiteral("README.md")), QByteArray("bundle\n"));
    // Pushing the same bundle again uploads nothing new.
    Result<oci::PushResult> again =
        oci::pushDeploymentBundle(client, dir, to, work.filePath(QStringLiteral("stage2")));
    QVERIFY(again.ok());
    QCOMPARE(again->digest, pushed->digest);
    QCOMPARE(again->blobsPushed, 0);
}

void TestOci::cliRefusesUnpinnedEvidenceTag() {
    REQUIRE_PEERS();
    Registry reg;
    START_REGISTRY(reg, QByteArray());
    QTemporaryDir work;
    pbtest::BundleFixture fx;
    const QString bundleDir = fx.writeDirectory(work.filePath(QStringLiteral("ev")));
    const QString ref = reg.host() + QStringLiteral("/owner/aicr-evidence:unsigned");
    Run push = run(QStringLiteral(PB_CLI_BINARY),
                   {QStringLiteral("evidence"), QStringLiteral("push"), bundleDir, QStringLiteral("--to"),
                    ref, QStringLiteral("--plain-http"), QStringLiteral("--format"), QStringLiteral("json")},
                   m_home.path());
    QVERIFY2(push.code == 0, push.out + push.err);
    const QJsonObject pushed = QJsonDocument::fromJson(push.out).object();
    QVERIFY(pushed.value(QStringLiteral("signatureDigest")).toString().isEmpty());
    QVERIFY(pushed.value(QStringLiteral("pointer"))
                .toString()
                .endsWith(fx.recipeName + QStringLiteral(".yaml"))); // flat pending pointer
    const QString digest = pushed.value(QStringLiteral("digest")).toString();

    Run refused = run(QStringLiteral(PB_CLI_BINARY),
                      {QStringLiteral("oci"), QStringLiteral("pull"), ref, QStringLiteral("--to"),
                       work.filePath(QStringLiteral("l1")), QStringLiteral("--plain-http")},
                      m_home.path());
    QCOMPARE(refused.code, 2);
    QVERIFY2(refused.err.contains("must be pulled by digest") && refused.err.contains(digest.toUtf8()),
             refused.err.constData());
    QVERIFY(!QFileInfo::exists(work.filePath(QStringLiteral("l1/index.json"))));
    Run allowed =
        run(QStringLiteral(PB_CLI_BINARY),
            {QStringLiteral("oci"), QStringLiteral("pull"), ref, QStringLiteral("--to"),
             work.filePath(QStringLiteral("l2")), QStringLiteral("--plain-http"),
             QStringLiteral("--allow-unpinned-tag"), QStringLiteral("--format"), QStringLiteral("json")},
            m_home.path());
    QVERIFY2(allowed.code == 0, allowed.err.constData());
    QCOMPARE(QJsonDocument::fromJson(allowed.out).object().value(QStringLiteral("digest")).toString(),
             digest);
    Run pinned = run(QStringLiteral(PB_CLI_BINARY),
                     {QStringLiteral("oci"), QStringLiteral("pull"),
                      reg.host() + QStringLiteral("/owner/aicr-evidence@") + digest, QStringLiteral("--to"),
                      work.filePath(QStringLiteral("l3")), QStringLiteral("--plain-http")},
                     m_home.path());
    QVERIFY2(pinned.code == 0, pinned.err.constData());
    Run check = run(QStringLiteral(PB_CLI_BINARY),
                    {QStringLiteral("evidence"), QStringLiteral("check"), work.filePath(QStringLiteral("l3")),
                     QStringLiteral("--db"), work.filePath(QStringLiteral("pb.db"))},
                    m_home.path());
    QVERIFY2(check.code == 0, check.out + check.err);
}

void TestOci::notFound() {
    REQUIRE_PEERS();
    Registry reg;
    START_REGISTRY(reg, QByteArray());
    QTemporaryDir work;
    oci::Client client(plain());
    Result<oci::Layout> layout = oci::Layout::open(work.path());
    Result<oci::PullResult> r =
        client.pull(*oci::parseReference(reg.host() + QStringLiteral("/no/such:tag")), *layout);
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.contains(QLatin1String("404 Not Found")) &&
                 r.error().message.contains(QLatin1String("no/such:tag")),
             qPrintable(r.error().toString()));
    QCOMPARE(blobCount(work.path()), 0);
    QVERIFY(layout->manifests().empty());
}

void TestOci::htpasswdRegistry() {
    REQUIRE_PEERS();
    Registry reg;
    START_REGISTRY(reg, "  htpasswd:\n    realm: pb-test\n    path: " +
                            pbtest::fixture(QStringLiteral("oci/htpasswd")).toUtf8() + "\n");
    QTemporaryDir work;
    const QString dir = work.filePath(QStringLiteral("b"));
    pbtest::writeBytes(dir + QStringLiteral("/a.txt"), "basic auth\n");
    const oci::Reference to = *oci::parseReference(reg.host() + QStringLiteral("/private/bundle:v1"));
    {
        oci::Client anonymous(plain());
        Result<oci::PushResult> denied =
            oci::pushDeploymentBundle(anonymous, dir, to, work.filePath(QStringLiteral("s0")));
        QVERIFY(!denied.ok());
        QVERIFY2(denied.error().message.contains(QLatin1String("user name and password")),
                 qPrintable(denied.error().toString()));
    }
    // Credentials from a docker config.json, as `docker login` writes them.
    const QString cfg = work.filePath(QStringLiteral("config.json"));
    pbtest::writeBytes(
        cfg, QJsonDocument(
                 QJsonObject{
                     {QStringLiteral("auths"),
                      QJsonObject{
                          {reg.host(),
                           QJsonObject{{QStringLiteral("auth"),
                                        QString::fromLatin1(
                                            QByteArray(QByteArray(kUser) + ':' + kPassword).toBase64())}}}}}})
                 .toJson());
    oci::ClientOptions o;
    o.plainHttp = true;
    o.dockerConfig.configFile = cfg;
    oci::Client client(o);
    QVERIFY(client.credentialSource(reg.host()).contains(cfg));
    Result<oci::PushResult> pushed =
        oci::pushDeploymentBundle(client, dir, to, work.filePath(QStringLiteral("s1")));
    QVERIFY2(pushed.ok(), qPrintable(pushed.ok() ? QString() : pushed.error().toString()));
    Run raw = run(QStringLiteral("skopeo"),
                  {QStringLiteral("inspect"), QStringLiteral("--raw"), QStringLiteral("--tls-verify=false"),
                   QStringLiteral("--creds"),
                   QStringLiteral("%1:%2").arg(QLatin1String(kUser), QLatin1String(kPassword)),
                   QStringLiteral("docker://") + to.toString()});
    QVERIFY2(raw.code == 0, raw.err.constData());
    QCOMPARE(QStringLiteral("sha256:") + sha256Hex(raw.out), pushed->digest);
    // A wrong password is a clear 401 naming where the credentials came from.
    oci::ClientOptions wrong = plain();
    wrong.credentials = oci::Credentials{oci::Credentials::Kind::Basic, QLatin1String(kUser),
                                         QStringLiteral("nope"), QStringLiteral("command line")};
    oci::Client bad(wrong);
    Result<oci::Manifest> m = bad.getManifest(to);
    QVERIFY(!m.ok());
    QVERIFY2(m.error().message.contains(QLatin1String("401")) &&
                 m.error().message.contains(QLatin1String("command line")) &&
                 !m.error().message.contains(QLatin1String("nope")),
             qPrintable(m.error().toString()));
}

void TestOci::tokenRegistry() {
    REQUIRE_PEERS();
    TokenIssuer issuer;
    MiniHttp tokens([&](const HttpRequest& r) { return tokenEndpoint(issuer, r); });
    Registry reg;
    const QString bundle = reg.dir.filePath(QStringLiteral("root.pem"));
    pbtest::writeBytes(bundle, issuer.certPem);
    START_REGISTRY(reg, "  token:\n    realm: http://" + tokens.base() +
                            "/token\n    service: pb-registry\n    issuer: pb-test-issuer\n"
                            "    rootcertbundle: " +
                            bundle.toUtf8() + "\n");
    QTemporaryDir work;
    const QString dir = work.filePath(QStringLiteral("b"));
    pbtest::writeBytes(dir + QStringLiteral("/a.txt"), "token auth\n");
    oci::ClientOptions o = plain();
    o.credentials = oci::Credentials{oci::Credentials::Kind::Basic, QLatin1String(kUser),
                                     QLatin1String(kPassword), QStringLiteral("test")};
    oci::Client client(o);
    const oci::Reference to = *oci::parseReference(reg.host() + QStringLiteral("/team/bundle:v1"));
    Result<oci::PushResult> pushed =
        oci::pushDeploymentBundle(client, dir, to, work.filePath(QStringLiteral("s")));
    QVERIFY2(pushed.ok(), qPrintable(pushed.ok() ? QString() : pushed.error().toString()));
    const QList<HttpRequest> seen = tokens.requests();
    QVERIFY(!seen.isEmpty());
    QCOMPARE(seen.first().query().queryItemValue(QStringLiteral("service")), QStringLiteral("pb-registry"));
    QVERIFY(seen.first()
                .query()
                .queryItemValue(QStringLiteral("scope"), QUrl::FullyDecoded)
                .startsWith(QLatin1String("repository:team/bundle:")));
    // A second client pulls it back through the same dance.
    Result<oci::Layout> layout = oci::Layout::open(work.filePath(QStringLiteral("pulled")));
    oci::Client puller(o);
    Result<oci::PullResult> pulled = puller.pull(to, *layout);
    QVERIFY2(pulled.ok(), qPrintable(pulled.ok() ? QString() : pulled.error().toString()));
    QCOMPARE(pulled->manifest.digest, pushed->digest);
    // Refused credentials at the token server: a clear error.
    oci::ClientOptions wrong = o;
    wrong.credentials->secret = QStringLiteral("nope");
    oci::Client bad(wrong);
    Result<oci::Manifest> m = bad.getManifest(to);
    QVERIFY(!m.ok());
    QVERIFY2(m.error().message.contains(QLatin1String("token server")) &&
                 m.error().message.contains(QLatin1String("401")),
             qPrintable(m.error().toString()));
}

void TestOci::faultDigestMismatch() {
    FakeRegistry fake;
    fake.blobReply = [&](const HttpRequest&) {
        return HttpReply{200, {}, QByteArray(fake.layer.size(), 'y')};
    };
    QTemporaryDir work;
    Result<oci::Layout> layout = oci::Layout::open(work.path());
    oci::Client client(plain());
    Result<oci::PullResult> r = client.pull(fake.ref(), *layout);
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.contains(QLatin1String("not the expected ")) &&
                 r.error().message.contains(fake.layerDigest),
             qPrintable(r.error().toString()));
    QVERIFY(!layout->hasBlob(fake.layerDigest));
    QVERIFY(!layout->hasBlob(fake.manifestDigest));
    QVERIFY(leftovers(work.path()).isEmpty());
    QVERIFY(layout->manifests().empty());
}

void TestOci::faultTruncated() {
    FakeRegistry fake;
    fake.blobReply = [&](const HttpRequest&) {
        HttpReply h{200, {}, fake.layer};
        h.sendOnly = fake.layer.size() / 3;
        return h;
    };
    QTemporaryDir work;
    Result<oci::Layout> layout = oci::Layout::open(work.path());
    oci::Client client(plain());
    Result<oci::PullResult> r = client.pull(fake.ref(), *layout);
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.contains(fake.layerDigest) &&
                 r.error().message.contains(QLatin1String("nothing was kept")),
             qPrintable(r.error().toString()));
    QVERIFY(!layout->hasBlob(fake.layerDigest));
    QVERIFY(leftovers(work.path()).isEmpty());
    // A server that sends the right bytes but fewer than the manifest declares (no Content-Length lie).
    FakeRegistry shortOne;
    shortOne.blobReply = [&](const HttpRequest&) { return HttpReply{200, {}, shortOne.layer.left(1000)}; };
    Result<oci::PullResult> r2 = client.pull(shortOne.ref(), *layout);
    QVERIFY(!r2.ok());
    QVERIFY2(r2.error().message.contains(QLatin1String("truncated: received 1000 of 200000 bytes")),
             qPrintable(r2.error().toString()));
    QVERIFY(leftovers(work.path()).isEmpty());
}

void TestOci::faultRegistryDies() {
    FakeRegistry fake;
    fake.blobReply = [&](const HttpRequest&) {
        HttpReply h{200, {}, fake.layer};
        h.sendOnly = fake.layer.size() / 2;
        h.dieAfter = true;
        return h;
    };
    QTemporaryDir work;
    Result<oci::Layout> layout = oci::Layout::open(work.path());
    oci::Client client(plain());
    Result<oci::PullResult> r = client.pull(fake.ref(), *layout);
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.contains(QLatin1String("GET blob")), qPrintable(r.error().toString()));
    QVERIFY(leftovers(work.path()).isEmpty());
    QVERIFY(!layout->hasBlob(fake.layerDigest));
    // The registry is gone now: the next pull fails to connect, clearly.
    Result<oci::PullResult> again = client.pull(fake.ref(), *layout);
    QVERIFY(!again.ok());
    QVERIFY2(again.error().message.contains(QLatin1String("GET manifest")),
             qPrintable(again.error().toString()));
    QVERIFY(layout->manifests().empty());
}

void TestOci::fault401ThenToken() {
    FakeRegistry fake;
    TokenIssuer issuer;
    // The fake registry wants a bearer token from its own /token realm.
    std::atomic_int challenges{0};
    fake.http = std::make_unique<MiniHttp>([&](const HttpRequest& r) {
        if (r.path() == "/token")
            return tokenEndpoint(issuer, r);
        if (!r.headers.value("authorization").startsWith("Bearer ")) {
            ++challenges;
            return HttpReply{
                401,
                {"WWW-Authenticate: Bearer realm=\"http://" + fake.http->base() +
                 "/token\",service=\"fake\",scope=\"repository:fake/repo:pull\""},
                "{\"errors\":[{\"code\":\"UNAUTHORIZED\",\"message\":\"authentication required\"}]}"};
        }
        return fake.handle(r);
    });
    QTemporaryDir work;
    Result<oci::Layout> layout = oci::Layout::open(work.path());
    oci::ClientOptions o = plain();
    o.credentials = oci::Credentials{oci::Credentials::Kind::Basic, QLatin1String(kUser),
                                     QLatin1String(kPassword), QStringLiteral("test")};
    oci::Client client(o);
    Result<oci::PullResult> r = client.pull(fake.ref(), *layout);
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
    QCOMPARE(challenges.load(), 1); // one challenge, then the token is reused for every blob
    QCOMPARE(r->manifest.digest, fake.manifestDigest);
    QVERIFY(layout->hasBlob(fake.layerDigest));
    // An identity token from config.json goes to the realm as an OAuth2 refresh-token grant.
    oci::ClientOptions io = plain();
    io.credentials = oci::Credentials{oci::Credentials::Kind::IdentityToken, QStringLiteral("<token>"),
                                      QStringLiteral("pb-identity-token"), QStringLiteral("test")};
    oci::Client viaIdentity(io);
    QTemporaryDir work3;
    Result<oci::Layout> l3 = oci::Layout::open(work3.path());
    Result<oci::PullResult> r3 = viaIdentity.pull(fake.ref(), *l3);
    QVERIFY2(r3.ok(), qPrintable(r3.ok() ? QString() : r3.error().toString()));
    bool sawPost = false;
    for (const HttpRequest& q : fake.http->requests())
        sawPost = sawPost || (q.method == "POST" && q.path() == "/token");
    QVERIFY(sawPost);
    // Anonymous: the token server refuses, and the error says so.
    oci::Client anon(plain());
    QTemporaryDir work2;
    Result<oci::Layout> l2 = oci::Layout::open(work2.path());
    Result<oci::PullResult> denied = anon.pull(fake.ref(), *l2);
    QVERIFY(!denied.ok());
    QVERIFY2(denied.error().message.contains(QLatin1String("credentials refused")),
             qPrintable(denied.error().toString()));
}

void TestOci::cancelMidBlob() {
    FakeRegistry fake;
    fake.layer = QByteArray(8 * 1024 * 1024, 'z');
    fake.layerDigest = QStringLiteral("sha256:") + sha256Hex(fake.layer);
    FakeRegistry* f = &fake;
    // Rebuild the manifest for the bigger layer.
    QJsonObject m = QJsonDocument::fromJson(fake.manifest).object();
    QJsonArray layers{QJsonObject{{QStringLiteral("mediaType"), QLatin1String(oci::kLayerTarGzip)},
                                  {QStringLiteral("digest"), fake.layerDigest},
                                  {QStringLiteral("size"), fake.layer.size()}}};
    m.insert(QStringLiteral("layers"), layers);
    fake.manifest = QJsonDocument(m).toJson(QJsonDocument::Compact);
    fake.blobReply = [f](const HttpRequest&) { return HttpReply{200, {}, f->layer}; };
    std::atomic_bool cancel{false};
    oci::ClientOptions o = plain();
    o.cancel = &cancel;
    o.progress = [&](qint64 done, qint64, const QString&) {
        if (done > 0)
            cancel = true;
    };
    QTemporaryDir work;
    Result<oci::Layout> layout = oci::Layout::open(work.path());
    oci::Client client(o);
    Result<oci::PullResult> r = client.pull(fake.ref(), *layout);
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.contains(QLatin1String("cancelled")), qPrintable(r.error().toString()));
    QVERIFY(leftovers(work.path()).isEmpty());
    QVERIFY(!layout->hasBlob(fake.layerDigest));
}

// A registry with the referrers API: listing uses it (no tag-schema lookup), and a referrer push
// answered with OCI-Subject does not touch the sha256-<hex> tag.
void TestOci::referrersApi() {
    FakeRegistry fake;
    const QString sigDigest = QStringLiteral("sha256:") + QString(64, QLatin1Char('5'));
    QList<QByteArray> tagTouched;
    std::mutex mu;
    fake.http = std::make_unique<MiniHttp>([&](const HttpRequest& r) {
        if (r.path().contains("/referrers/")) {
            const QJsonObject idx{
                {QStringLiteral("schemaVersion"), 2},
                {QStringLiteral("mediaType"), QLatin1String(oci::kImageIndex)},
                {QStringLiteral("manifests"),
                 QJsonArray{
                     QJsonObject{{QStringLiteral("mediaType"), QLatin1String(oci::kImageManifest)},
                                 {QStringLiteral("digest"), sigDigest},
                                 {QStringLiteral("size"), 500},
                                 {QStringLiteral("artifactType"), QLatin1String(oci::kSigstoreBundle)}},
                     QJsonObject{
                         {QStringLiteral("mediaType"), QLatin1String(oci::kImageManifest)},
                         {QStringLiteral("digest"),
                          QStringLiteral("sha256:") + QString(64, QLatin1Char('6'))},
                         {QStringLiteral("size"), 400},
                         {QStringLiteral("artifactType"), QStringLiteral("application/spdx+json")}}}}};
            return HttpReply{200,
                             {QByteArray("Content-Type: ") + oci::kImageIndex},
                             QJsonDocument(idx).toJson(QJsonDocument::Compact)};
        }
        if (r.path().contains("/manifests/sha256-")) {
            std::lock_guard<std::mutex> g(mu);
            tagTouched << r.method;
            return HttpReply{404, {}, {}};
        }
        if (r.method == "PUT" && r.path().contains("/manifests/"))
            return HttpReply{201,
                             {"Docker-Content-Digest: sha256:" + sha256Hex(r.body).toLatin1(),
                              "OCI-Subject: " + fake.manifestDigest.toLatin1()},
                             {}};
        return fake.handle(r);
    });
    oci::Client client(plain());
    Result<std::vector<oci::Descriptor>> refs =
        client.referrers(fake.ref(), fake.manifestDigest, QLatin1String(oci::kSigstoreBundle));
    QVERIFY2(refs.ok(), qPrintable(refs.ok() ? QString() : refs.error().toString()));
    QCOMPARE(refs->size(), size_t(1));
    QCOMPARE(refs->front().digest, sigDigest);
    oci::Descriptor subject;
    subject.mediaType = QLatin1String(oci::kImageManifest);
    subject.digest = fake.manifestDigest;
    subject.size = fake.manifest.size();
    const QJsonObject referrer{
        {QStringLiteral("schemaVersion"), 2},
        {QStringLiteral("mediaType"), QLatin1String(oci::kImageManifest)},
        {QStringLiteral("artifactType"), QLatin1String(oci::kSigstoreBundle)},
        {QStringLiteral("config"),
         QJsonObject{{QStringLiteral("mediaType"), QLatin1String(oci::kEmptyConfig)},
                     {QStringLiteral("digest"), QStringLiteral("sha256:") + sha256Hex("{}")},
                     {QStringLiteral("size"), 2}}},
        {QStringLiteral("layers"), QJsonArray{}},
        {QStringLiteral("subject"), subject.toJson()}};
    const QByteArray bytes = QJsonDocument(referrer).toJson(QJsonDocument::Compact);
    Result<QString> pushed = client.pushReferrer(fake.ref(), bytes, QLatin1String(oci::kImageManifest));
    QVERIFY2(pushed.ok(), qPrintable(pushed.ok() ? QString() : pushed.error().toString()));
    QCOMPARE(*pushed, QStringLiteral("sha256:") + sha256Hex(bytes));
    std::lock_guard<std::mutex> g(mu);
    QVERIFY2(tagTouched.isEmpty(), "the tag schema was used although the registry has the referrers API");
}

// HTTPS is verified by default: a registry with a certificate nobody vouched for is refused; the
// same registry with its CA given (--ca-file) works, and skopeo agrees on the digest.
void TestOci::tlsVerifiedByDefault() {
    REQUIRE_PEERS();
    EVP_PKEY* key = EVP_EC_gen("P-256");
    X509* cert = X509_new();
    X509_set_version(cert, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), 77);
    X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
    X509_set_pubkey(cert, key);
    X509_NAME* name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("127.0.0.1"),
                               -1, -1, 0);
    X509_set_issuer_name(cert, name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
    X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, "IP:127.0.0.1");
    X509_add_ext(cert, san, -1);
    X509_EXTENSION_free(san);
    X509_sign(cert, key, EVP_sha256());
    Registry reg;
    const QString certFile = reg.dir.filePath(QStringLiteral("tls.crt"));
    const QString keyFile = reg.dir.filePath(QStringLiteral("tls.key"));
    {
        BIO* b = BIO_new_file(certFile.toLocal8Bit().constData(), "w");
        PEM_write_bio_X509(b, cert);
        BIO_free(b);
        b = BIO_new_file(keyFile.toLocal8Bit().constData(), "w");
        PEM_write_bio_PrivateKey(b, key, nullptr, nullptr, 0, nullptr, nullptr);
        BIO_free(b);
    }
    X509_free(cert);
    EVP_PKEY_free(key);
    START_REGISTRY(reg, QByteArray(),
                   "  tls:\n    certificate: " + certFile.toUtf8() + "\n    key: " + keyFile.toUtf8() + "\n");

    QTemporaryDir work;
    const QString dir = work.filePath(QStringLiteral("b"));
    pbtest::writeBytes(dir + QStringLiteral("/a.txt"), "over TLS\n");
    const oci::Reference to = *oci::parseReference(reg.host() + QStringLiteral("/tls/bundle:v1"));
    oci::ClientOptions o;
    o.credentials = oci::Credentials{};
    {
        oci::Client unverified(o);
        Result<oci::PushResult> refused =
            oci::pushDeploymentBundle(unverified, dir, to, work.filePath(QStringLiteral("s0")));
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.contains(QLatin1String("certificate"), Qt::CaseInsensitive),
                 qPrintable(refused.error().toString()));
    }
    o.caFile = certFile;
    oci::Client client(o);
    Result<oci::PushResult> pushed =
        oci::pushDeploymentBundle(client, dir, to, work.filePath(QStringLiteral("s1")));
    QVERIFY2(pushed.ok(), qPrintable(pushed.ok() ? QString() : pushed.error().toString()));
    Run raw = run(QStringLiteral("skopeo"),
                  {QStringLiteral("inspect"), QStringLiteral("--raw"), QStringLiteral("--tls-verify=false"),
                   QStringLiteral("docker://") + to.toString()});
    QVERIFY2(raw.code == 0, raw.err.constData());
    QCOMPARE(QStringLiteral("sha256:") + sha256Hex(raw.out), pushed->digest);
}

QTEST_GUILESS_MAIN(TestOci)
#include "tst_oci.moc"
