// Starts pb-kube-testserver (tests/kube-testserver) for a test: a real HTTPS Kubernetes API stand-in
// on loopback, with its kubeconfig written into a temporary directory. It exits when its stdin closes.
#pragma once

#include "kube/Client.h"
#include "kube/Kubeconfig.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <memory>

namespace pbtest {

class KubeTestServer {
  public:
    // `script` is the server's script JSON (checks, nodes, faults); relative logFile paths resolve
    // against `scriptDir` (the script is written there).
    bool start(const QJsonObject& script = {}, const QStringList& extraArgs = {}) {
        if (!m_dir.isValid())
            return false;
        QStringList args{QStringLiteral("--write-kubeconfig"), kubeconfig(), QStringLiteral("--state-dir"),
                         m_dir.filePath(QStringLiteral("state"))};
        if (!script.isEmpty()) {
            QFile f(m_dir.filePath(QStringLiteral("script.json")));
            if (!f.open(QIODevice::WriteOnly))
                return false;
            f.write(QJsonDocument(script).toJson());
            f.close();
            args << QStringLiteral("--script") << f.fileName();
        }
        args += extraArgs;
        m_proc.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_proc.start(QStringLiteral(PB_KUBE_TESTSERVER), args);
        if (!m_proc.waitForStarted(10000))
            return false;
        QByteArray line;
        while (!line.contains('\n')) {
            if (!m_proc.waitForReadyRead(30000))
                return false;
            line += m_proc.readAllStandardOutput();
        }
        return line.startsWith("pb-kube-testserver listening on https://127.0.0.1:");
    }
    ~KubeTestServer() {
        if (m_proc.state() == QProcess::NotRunning)
            return;
        m_proc.closeWriteChannel();
        if (!m_proc.waitForFinished(10000)) {
            m_proc.kill();
            m_proc.waitForFinished(5000);
        }
    }
    // The server's process id (to stop it with SIGSTOP, as a hung server).
    qint64 pid() const { return m_proc.processId(); }
    // False once the process has exited (a scripted serverFault "exit", a crash).
    bool running() const { return m_proc.state() != QProcess::NotRunning; }
    QString kubeconfig() const { return m_dir.filePath(QStringLiteral("kubeconfig")); }
    QString path(const QString& name) const { return m_dir.filePath(name); }

    pb::Result<pb::kube::ResolvedContext> context(const QString& name) const {
        pb::Result<pb::kube::Kubeconfig> k = pb::kube::Kubeconfig::load({kubeconfig()});
        if (!k)
            return k.error();
        return pb::kube::resolveContext(*k, name);
    }
    std::unique_ptr<pb::kube::Client> client(const QString& name = QStringLiteral("pb-cert"),
                                             const pb::kube::ClientOptions& options = {}) const {
        pb::Result<pb::kube::ResolvedContext> ctx = context(name);
        if (!ctx)
            return nullptr;
        pb::Result<std::unique_ptr<pb::kube::Client>> c = pb::kube::Client::create(*ctx, options);
        return c ? std::move(*c) : nullptr;
    }

  private:
    QTemporaryDir m_dir;
    QProcess m_proc;
};

// A one-container Job the test server runs as check `check` (its first argument), never retried.
inline QJsonObject checkJob(const QString& name, const QString& check,
                            const QString& image = QStringLiteral("example.invalid/check:1")) {
    const QJsonObject container{{QStringLiteral("name"), QStringLiteral("main")},
                                {QStringLiteral("image"), image},
                                {QStringLiteral("args"), QJsonArray{check}}};
    const QJsonObject podSpec{{QStringLiteral("restartPolicy"), QStringLiteral("Never")},
                              {QStringLiteral("containers"), QJsonArray{container}}};
    return {{QStringLiteral("apiVersion"), QStringLiteral("batch/v1")},
            {QStringLiteral("kind"), QStringLiteral("Job")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
            {QStringLiteral("spec"),
             QJsonObject{{QStringLiteral("backoffLimit"), 0},
                         {QStringLiteral("template"), QJsonObject{{QStringLiteral("spec"), podSpec}}}}}};
}

} // namespace pbtest
