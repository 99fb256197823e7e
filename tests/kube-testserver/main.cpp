// pb-kube-testserver: a Kubernetes API server stand-in for tests (see ApiServer.h). Writes its own
// PKI and a kubeconfig, prints one "listening" line, and serves until SIGTERM/SIGINT or stdin EOF.
#include "ApiServer.h"
#include "Controller.h"
#include "Tls.h"

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

namespace {

int g_wake[2] = {-1, -1}; // written to when the server should stop

void usage(FILE* to) {
    std::fputs(
        "usage: pb-kube-testserver --write-kubeconfig FILE [--port N] [--script FILE.json]\n"
        "                          [--token TOKEN]... [--tokens-file FILE] [--state-dir DIR] "
        "[--no-stdin-exit]\n"
        "                          [--request-log FILE] [--http1-only]\n"
        "\n"
        "A Kubernetes API server stand-in for tests: HTTPS on 127.0.0.1 with a throwaway CA, a client\n"
        "certificate user (pb-admin, system:masters) and bearer tokens (default pb-test-token). It writes a\n"
        "kubeconfig (contexts pb-cert and pb-token), prints one 'listening' line, and serves until\n"
        "SIGTERM/SIGINT or stdin EOF. Each Job gets one Pod that goes Pending -> Running -> "
        "Succeeded/Failed.\n"
        "HTTP/2 (h2, chosen by ALPN) and HTTP/1.1 are both served; --http1-only offers HTTP/1.1 alone.\n"
        "\n"
        "--tokens-file FILE   bearer tokens, one a line, re-read on every request (edit it to revoke one)\n"
        "--request-log FILE   appends one JSON line per request: method, target, protocol (HTTP/1.1 or h2),\n"
        "                     host (Host or :authority), sni, alpn, auth (certificate/bearer/none), user, "
        "userAgent,\n"
        "                     and as the apiserver's audit log names it: verb, apiGroup, resource, "
        "namespace,\n"
        "                     name, subresource (or nonResourceURL)\n"
        "\n"
        "kubectl works against it unchanged: OpenAPI v3 (/openapi/v3) with fieldValidation on writes (so\n"
        "apply and create -f validate on the server; Strict refuses unknown top-level fields), protobuf\n"
        "bodies of Namespace, ConfigMap, ServiceAccount and Job (kubectl's typed create commands), core/v1\n"
        "Events recorded as the scheduler, kubelet and job controller do, SelfSubjectReview (auth whoami),\n"
        "SelfSubjectRulesReview (auth can-i --list) and SelfSubjectAccessReview (auth can-i).\n"
        "\n"
        "Script (JSON object; every key optional):\n"
        "  serverVersion {..}       fields merged over the default v1.33.0 /version answer\n"
        "  nodes [{name, gpus, labels, taints, osImage, kernelVersion, containerRuntimeVersion, "
        "kubeletVersion}]\n"
        "  checks {NAME: CHECK}     per check; a Job is matched by its first container arg, else by the "
        "label\n"
        "                           proofbench.dev/check on the Job or its pod template\n"
        "  defaultCheck CHECK       for Jobs matching no check\n"
        "  CHECK = {exitCode, log | logFile, terminationMessage, runMs (300), pendingMs (50), neverFinish,\n"
        "           podFault, faultAfterMs (100), serverFault}\n"
        "    podFault \"Pending\"        the pod stays Pending (ContainerCreating) until deleted or the "
        "deadline\n"
        "             \"Unschedulable\"  Pending, no node, PodScheduled=False reason Unschedulable "
        "(Insufficient nvidia.com/gpu)\n"
        "             \"ErrImagePull\"   Pending; container waiting ErrImagePull after pendingMs, "
        "ImagePullBackOff\n"
        "                              one pendingMs (at least 50 ms) later, for good\n"
        "             \"Deleted\"        faultAfterMs after the container starts the pod is deleted (as by a "
        "drain or\n"
        "                              kubectl delete): graceful deletion, then a DELETED watch event; the "
        "Job fails\n"
        "                              (BackoffLimitExceeded, no replacement pod)\n"
        "             \"Evicted\"        as Deleted, through the Eviction API: condition DisruptionTarget "
        "reason\n"
        "                              EvictionByEvictionAPI first\n"
        "    serverFault \"exit\"         when this check's container starts, the server process exits "
        "(connections drop)\n"
        "                \"revokeTokens\" ... every bearer token is 401 Unauthorized from then on "
        "(certificates still work)\n"
        "                \"compact\"      ... the watch history is compacted: open watches get ERROR 410 "
        "Expired and\n"
        "                              resuming or listing at an older resourceVersion is 410 Gone\n"
        "  deletionGraceMs N        graceful deletion (the 30 s grace scaled down): deleted pods and "
        "namespaces keep\n"
        "                           existing with metadata.deletionTimestamp for N ms (pods get "
        "deletionGracePeriodSeconds\n"
        "                           30, a running container is killed, exit 143); a deleted namespace is "
        "phase Terminating,\n"
        "                           its objects are deleted, creating in it is 403 (NamespaceTerminating) "
        "and re-creating it\n"
        "                           is 409 until it is gone 1.5*N ms after. 0 (default): pods go at once; a "
        "namespace is\n"
        "                           still Terminating in one MODIFIED event before its DELETED.\n"
        "  historyLimit N           events kept for watch resume (20000); older resourceVersions get 410 "
        "Gone\n"
        "  faults {dropWatchAfterEvents N, tokenMaxUses N, slowMs N, conflictOnCreate [name prefix...],\n"
        "          bookmarkMs N (1000: idle time before a BOOKMARK on watches with allowWatchBookmarks),\n"
        "          exitAfterMs N (the process exits N ms after start)}\n"
        "  rbac {user, tokens [..], allow [..], deny [..]}\n"
        "                           bearer-token users (all tokens, or those listed) become USER with these "
        "rules\n"
        "                           (the certificate user stays system:masters). A rule is \"VERB "
        "RESOURCE\", the\n"
        "                           resource qualified by group (jobs.batch, pods, pods/log, pods/eviction, "
        "namespaces,\n"
        "                           clusterrolebindings.rbac.authorization.k8s.io); \"*\" matches any. "
        "Allowed = some\n"
        "                           allow rule matches (default [\"* *\"]) and no deny rule does. Anything "
        "else is 403\n"
        "                           Forbidden with the apiserver's Status body; SelfSubjectAccessReview "
        "answers the same.\n"
        "  admission [{resource, operation CREATE|DELETE, namePrefix, webhook, message, code (403), "
        "reason}]\n"
        "                           a validating webhook that denies matching requests: Status code CODE, "
        "message\n"
        "                           'admission webhook \"WEBHOOK\" denied the request: MESSAGE'\n"
        "Example: {\"deletionGraceMs\": 300, \"checks\": {\"gpu-operator-health\": {\"podFault\": "
        "\"ErrImagePull\"},\n"
        "          \"nccl-all-reduce\": {\"serverFault\": \"exit\"}},\n"
        "          \"rbac\": {\"user\": \"jane\", \"deny\": [\"create "
        "clusterrolebindings.rbac.authorization.k8s.io\"]}}\n",
        to);
}

bool writeFile(const QString& path, const QByteArray& data, bool secret, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, f.errorString());
        return false;
    }
    if (secret)
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (f.write(data) != data.size()) {
        *error = QStringLiteral("%1: short write: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

QByteArray kubeconfig(const kts::Pki& pki, int port, const QString& token) {
    QByteArray y;
    y += "apiVersion: v1\nkind: Config\npreferences: {}\n";
    y += "clusters:\n- name: pb-test\n  cluster:\n";
    y += "    server: https://127.0.0.1:" + QByteArray::number(port) + "\n";
    y += "    certificate-authority-data: " + pki.caCert.toBase64() + "\n";
    y += "contexts:\n";
    y += "- name: pb-cert\n  context:\n    cluster: pb-test\n    user: pb-admin\n    namespace: default\n";
    y += "- name: pb-token\n  context:\n    cluster: pb-test\n    user: pb-token-user\n    namespace: "
         "default\n";
    y += "current-context: pb-cert\n";
    y += "users:\n";
    y += "- name: pb-admin\n  user:\n";
    y += "    client-certificate-data: " + pki.clientCert.toBase64() + "\n";
    y += "    client-key-data: " + pki.clientKey.toBase64() + "\n";
    y += "- name: pb-token-user\n  user:\n";
    y += "    token: \"" + token.toUtf8() + "\"\n";
    return y;
}

void wake() {
    const char c = 'x';
    [[maybe_unused]] const ssize_t n = ::write(g_wake[1], &c, 1);
}

} // namespace

namespace {

struct Options {
    QString kubeconfigPath, scriptPath, tokensFile, stateDir, requestLog;
    QStringList tokens;
    int port = 0;
    bool stdinExit = true;
    bool http2 = true;
};

// Reads the command line into `o`; returns -1 to go on, else the exit status (after --help or an error).
int parseArgs(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        auto value = [&](QString& out) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "pb-kube-testserver: %s needs a value\n", argv[i]);
                std::exit(2);
            }
            out = QString::fromLocal8Bit(argv[++i]);
        };
        QString v;
        if (arg == QLatin1String("--write-kubeconfig"))
            value(o.kubeconfigPath);
        else if (arg == QLatin1String("--script"))
            value(o.scriptPath);
        else if (arg == QLatin1String("--tokens-file"))
            value(o.tokensFile);
        else if (arg == QLatin1String("--request-log"))
            value(o.requestLog);
        else if (arg == QLatin1String("--state-dir"))
            value(o.stateDir);
        else if (arg == QLatin1String("--token")) {
            value(v);
            o.tokens << v;
        } else if (arg == QLatin1String("--port")) {
            value(v);
            bool ok = false;
            o.port = v.toInt(&ok);
            if (!ok || o.port < 0 || o.port > 65535) {
                std::fprintf(stderr, "pb-kube-testserver: --port: not a port number: %s\n", qPrintable(v));
                return 2;
            }
        } else if (arg == QLatin1String("--no-stdin-exit"))
            o.stdinExit = false;
        else if (arg == QLatin1String("--http1-only"))
            o.http2 = false;
        else if (arg == QLatin1String("--help") || arg == QLatin1String("-h")) {
            usage(stdout);
            return 0;
        } else {
            std::fprintf(stderr, "pb-kube-testserver: unknown argument: %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (o.kubeconfigPath.isEmpty()) {
        usage(stderr);
        return 2;
    }
    if (o.tokens.isEmpty())
        o.tokens << QStringLiteral("pb-test-token");
    return -1;
}

// The CA, server and client certificates and keys, for tests that read them.
bool writePki(const QDir& dir, const kts::Pki& pki, QString* error) {
    return writeFile(dir.filePath(QStringLiteral("ca.crt")), pki.caCert, false, error) &&
           writeFile(dir.filePath(QStringLiteral("ca.key")), pki.caKey, true, error) &&
           writeFile(dir.filePath(QStringLiteral("server.crt")), pki.serverCert, false, error) &&
           writeFile(dir.filePath(QStringLiteral("server.key")), pki.serverKey, true, error) &&
           writeFile(dir.filePath(QStringLiteral("client.crt")), pki.clientCert, false, error) &&
           writeFile(dir.filePath(QStringLiteral("client.key")), pki.clientKey, true, error);
}

// A listening socket on 127.0.0.1:`port` (0: any free port, then set to the one taken); -1 on failure.
int listenOnLoopback(int& port) {
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(quint16(port));
    if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listener, 64) != 0) {
        std::fprintf(stderr, "pb-kube-testserver: cannot listen on 127.0.0.1:%d: %s\n", port,
                     std::strerror(errno));
        return -1;
    }
    socklen_t len = sizeof addr;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
    return listener;
}

// Signals are taken by one thread with sigwait; every other thread inherits the blocked mask. A
// stop signal, or stdin closing (when asked), wakes the accept loop.
bool watchForStop(bool stdinExit) {
    ::signal(SIGPIPE, SIG_IGN);
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGTERM);
    sigaddset(&stopSignals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    if (::pipe2(g_wake, O_CLOEXEC) != 0)
        return false;
    std::thread([stopSignals] {
        int sig = 0;
        sigwait(&stopSignals, &sig);
        wake();
    }).detach();
    if (stdinExit)
        std::thread([] {
            char buf[256];
            while (::read(STDIN_FILENO, buf, sizeof buf) > 0) {
            }
            wake();
        }).detach();
    return true;
}

// Accepts connections until woken; each is served on its own thread.
void acceptUntilStopped(int listener, kts::ApiServer& server, kts::TlsContext& tls) {
    for (;;) {
        pollfd fds[2] = {{listener, POLLIN, 0}, {g_wake[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (fds[1].revents)
            break;
        if (fds[0].revents & POLLIN) {
            const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0)
                continue;
            const int nodelay = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nodelay, sizeof nodelay);
            std::thread([&server, &tls, fd] {
                kts::TlsStream stream(tls.handle(), fd);
                if (stream.handshake())
                    server.serve(stream);
            }).detach();
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    if (const int status = parseArgs(argc, argv, o); status >= 0)
        return status;

    QString error;
    const std::optional<kts::Script> script = kts::loadScript(o.scriptPath, &error);
    if (!script) {
        std::fprintf(stderr, "pb-kube-testserver: script %s\n", qPrintable(error));
        return 2;
    }

    std::unique_ptr<QTemporaryDir> tempDir;
    if (o.stateDir.isEmpty()) {
        tempDir =
            std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/pb-kube-testserver-XXXXXX"));
        if (!tempDir->isValid()) {
            std::fprintf(stderr, "pb-kube-testserver: cannot create a temporary state directory\n");
            return 1;
        }
        o.stateDir = tempDir->path();
    } else if (!QDir().mkpath(o.stateDir)) {
        std::fprintf(stderr, "pb-kube-testserver: --state-dir %s: cannot create\n", qPrintable(o.stateDir));
        return 1;
    }

    const std::optional<kts::Pki> pki = kts::generatePki(&error);
    kts::TlsContext tls;
    if (!pki || !tls.init(*pki, &error, o.http2)) {
        std::fprintf(stderr, "pb-kube-testserver: %s\n", qPrintable(error));
        return 1;
    }
    if (!writePki(QDir(o.stateDir), *pki, &error)) {
        std::fprintf(stderr, "pb-kube-testserver: %s\n", qPrintable(error));
        return 1;
    }

    int port = o.port;
    const int listener = listenOnLoopback(port);
    if (listener < 0)
        return 1;

    if (!writeFile(o.kubeconfigPath, kubeconfig(*pki, port, o.tokens.first()), true, &error)) {
        std::fprintf(stderr, "pb-kube-testserver: --write-kubeconfig %s\n", qPrintable(error));
        return 1;
    }
    if (!watchForStop(o.stdinExit))
        return 1;

    kts::ApiServer server(*script, o.tokens, o.tokensFile);
    server.setRequestLog(o.requestLog);
    server.start(port);

    std::printf("pb-kube-testserver listening on https://127.0.0.1:%d\n", port);
    std::fflush(stdout);

    acceptUntilStopped(listener, server, tls);
    ::close(listener);
    if (tempDir)
        tempDir->remove();
    std::fflush(stdout);
    std::fflush(stderr);
    // Connection threads may still be blocked in reads; leave without running destructors under them.
    std::_Exit(0);
}
