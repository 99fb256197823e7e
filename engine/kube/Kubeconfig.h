// kubeconfig as kubectl reads it: one file or the KUBECONFIG list, merged by kubectl's rules (the
// first file that defines a cluster, user, context or current-context wins; relative paths are
// relative to the file that holds them), with every context of every file listed for pickers.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace pb::kube {

struct ExecConfig {
    QString apiVersion; // client.authentication.k8s.io/v1 or /v1beta1
    QString command;
    QStringList args;
    QList<QPair<QString, QString>> env;
    QString installHint;
    bool provideClusterInfo = false;
    QString interactiveMode;  // Never | IfAvailable | Always (required in v1)
    QString commandAsWritten; // `command` before a relative path with '/' was resolved (kubectl view)
    int line = 0;             // line of the exec mapping in its file
};

struct Cluster {
    QString name;
    QString server;
    QString certificateAuthority;        // absolute path, empty when none
    QByteArray certificateAuthorityData; // decoded PEM
    bool insecureSkipTlsVerify = false;
    QString tlsServerName;
    QString proxyUrl;
    QString sourceFile; // the file that defined it
};

struct User {
    QString name;
    QString clientCertificate, clientKey;            // absolute paths
    QByteArray clientCertificateData, clientKeyData; // decoded PEM
    QString token, tokenFile;                        // tokenFile absolute
    QString username, password;
    std::optional<ExecConfig> exec;
    bool hasAuthProvider = false; // legacy auth-provider: reported, not run
    QString sourceFile;
    QString tokenFileAsWritten;  // tokenFile as in the file (kubectl view keeps it so)
    QString authProviderName;    // auth-provider.name ("oidc", "gcp", ...)
    QByteArray authProviderJson; // auth-provider as compact JSON (for toJson)
    // Set when this user cannot be used (exec v1alpha1, v1 without interactiveMode, ...): the
    // kubeconfig still loads so every context can be listed; resolveContext() returns this error.
    std::optional<Error> problem;
};

struct Context {
    QString name, cluster, user, namespace_;
    QString sourceFile;
};

struct Kubeconfig {
    QStringList files; // in merge order
    QString currentContext;
    std::vector<Cluster> clusters;
    std::vector<User> users;
    std::vector<Context> contexts;

    const Cluster* cluster(const QString& name) const;
    const User* user(const QString& name) const;
    const Context* context(const QString& name) const;

    // The files kubectl would read: $KUBECONFIG (':'-separated, empty entries and missing files
    // skipped) or ~/.kube/config.
    static QStringList defaultFiles();
    // Loads and merges. A file that does not parse is an error naming the file, line and field;
    // a listed file that does not exist is skipped, as kubectl does (unless it is the only one).
    static Result<Kubeconfig> load(const QStringList& files);
    static Result<Kubeconfig> parse(const QByteArray& yaml, const QString& file);

    // The merged config as `kubectl config view --merge --flatten --raw -o json` prints it
    // (for parity tests and for display with secrets masked when `redact`).
    QByteArray toJson(bool redact = false) const;
};

// A context with its cluster and user looked up; errors name the missing piece.
struct ResolvedContext {
    Context context;
    Cluster cluster;
    User user;
    QString namespaceOrDefault() const {
        return context.namespace_.isEmpty() ? QStringLiteral("default") : context.namespace_;
    }
};
Result<ResolvedContext> resolveContext(const Kubeconfig& config, const QString& contextName = {});

} // namespace pb::kube
