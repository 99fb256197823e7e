// Debian's docker-registry (CNCF distribution) as a test peer: a temporary config and storage, a
// free loopback port, optional auth and extra http: YAML, output kept in a log file. Shared by
// tst_oci, tst_fetchevidence and bench_oci. Also the two loopback socket helpers they use.
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace pbtest {

// A port nothing listens on right now (bound, read back, released).
inline quint16 freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

inline bool canConnectLoopback(quint16 port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

struct DockerRegistry {
    QTemporaryDir dir;
    QProcess process;
    quint16 port = 0;

    DockerRegistry() = default;
    DockerRegistry(const DockerRegistry&) = delete;
    DockerRegistry& operator=(const DockerRegistry&) = delete;
    ~DockerRegistry() {
        if (process.state() != QProcess::NotRunning) {
            process.terminate();
            if (!process.waitForFinished(5000)) {
                process.kill();
                process.waitForFinished(2000);
            }
        }
    }

    QString host() const { return QStringLiteral("127.0.0.1:%1").arg(port); }
    // What the registry printed (it logs every 404 HEAD of a push at error level: shown on failure).
    QByteArray log() const {
        QFile f(dir.filePath(QStringLiteral("registry.log")));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    // Starts the process. `auth` is the YAML under "auth:" (empty: none); `httpExtra` is more YAML
    // under "http:" (e.g. a tls: block). False when the config cannot be written or the program
    // does not start; whether it listens yet is waitUntilListening()'s question.
    bool start(const QByteArray& auth = {}, const QByteArray& httpExtra = {}) {
        port = freeLoopbackPort();
        QByteArray cfg =
            "version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n "
            "   rootdirectory: " +
            dir.filePath(QStringLiteral("storage")).toUtf8() +
            "\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:" + QByteArray::number(port) + "\n" +
            httpExtra;
        if (!auth.isEmpty())
            cfg += "auth:\n" + auth;
        QFile f(dir.filePath(QStringLiteral("config.yml")));
        if (!f.open(QIODevice::WriteOnly) || f.write(cfg) != cfg.size())
            return false;
        f.close();
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.setStandardOutputFile(dir.filePath(QStringLiteral("registry.log")));
        process.start(QStringLiteral("docker-registry"), {QStringLiteral("serve"), f.fileName()});
        return process.waitForStarted(10000);
    }

    // Polls until the port accepts connections (true) or the process died or `ms` passed (false).
    bool waitUntilListening(int ms = 20000) const {
        QElapsedTimer t;
        t.start();
        while (!canConnectLoopback(port)) {
            if (process.state() == QProcess::NotRunning || t.elapsed() > ms)
                return false;
            QThread::msleep(50);
        }
        return true;
    }
};

} // namespace pbtest
