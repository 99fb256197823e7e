// Credentials for one kubeconfig user, in memory only: static token, token file (re-read when it
// changes), basic auth, client certificate, or an exec plugin (client.authentication.k8s.io v1 and
// v1beta1) run with its env and args, cached until its expirationTimestamp and re-run after a 401.
// A desktop app does not inherit the shell's PATH, so an exec command is looked up in the PATH a
// login shell reports, plus the usual install places; when none has it, the error lists what was
// tried and the plugin's installHint. Thread-safe.
#pragma once

#include "core/Result.h"
#include "kube/Kubeconfig.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <memory>
#include <mutex>
#include <optional>

namespace pb::kube {

struct Credentials {
    QString bearerToken;
    QByteArray clientCertificatePem, clientKeyPem;
    QString username, password;
    std::optional<QDateTime> expiry; // exec credentials only
    QString source;                  // "token", "tokenFile", "basic", "client certificate", "exec: aws"
};

// Finds `command` as a login shell would: an absolute or relative-with-slash path is used as is;
// otherwise $PATH, the login shell's PATH ($SHELL -lc), `extraPaths`, then /usr/local/bin,
// /opt/homebrew/bin, ~/.local/bin, ~/bin, ~/go/bin. `tried` receives every directory looked in.
QString findExecutable(const QString& command, const QStringList& extraPaths = {},
                       QStringList* tried = nullptr);

class CredentialProvider {
  public:
    CredentialProvider(ResolvedContext context, QStringList extraSearchPaths = {});
    // Current credentials; runs the exec plugin when there is none cached or it has expired.
    Result<Credentials> get();
    // After a 401: forget cached exec credentials (and re-read tokenFile) so get() refreshes.
    void invalidate();
    // How many times the exec plugin ran (tests and the GUI's status line).
    int execRuns() const;

  private:
    Result<Credentials> runExec();
    ResolvedContext m_ctx;
    QStringList m_extraPaths;
    mutable std::mutex m_mutex;
    std::optional<Credentials> m_cached;
    int m_execRuns = 0;
};

} // namespace pb::kube
