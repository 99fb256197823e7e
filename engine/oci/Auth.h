// Registry credentials as Docker and its peers keep them: a docker config.json (`auths` with
// base64 user:password or an identity token, `credsStore`, `credHelpers` run as the
// docker-credential-<helper> program), and the WWW-Authenticate challenges registries answer with.
// Secrets stay in memory: nothing here logs or writes them, and `source` never contains one.
#pragma once

#include "core/Result.h"

#include <QMap>
#include <QString>

#include <vector>

namespace pb::oci {

struct Credentials {
    enum class Kind { Anonymous, Basic, IdentityToken };
    Kind kind = Kind::Anonymous;
    QString username;
    QString secret; // password, or the identity (refresh) token
    // Where they came from, for display: "anonymous", "config.json auths (/home/u/.docker/config.json)",
    // "credHelpers: ecr-login", "credsStore: desktop", "command line".
    QString source = QStringLiteral("anonymous");
};

struct DockerConfigOptions {
    QString configFile; // empty: $DOCKER_CONFIG/config.json, else ~/.docker/config.json
    QString helperDir;  // where docker-credential-* helpers are looked for first; empty: PATH only
};

// The docker config.json in effect for `options` (may not exist).
QString dockerConfigPath(const DockerConfigOptions& options = {});

// Credentials for `registry` ("ghcr.io", "127.0.0.1:5000", "docker.io"): credHelpers for the registry,
// else auths, else credsStore, else anonymous. A missing config file is anonymous; a broken one, or a
// helper that fails, is an error naming the file or helper and the reason.
Result<Credentials> credentialsFor(const QString& registry, const DockerConfigOptions& options = {});

// For a credentials view: every registry config.json names and where its credentials come from
// ("auths", "credHelpers: <helper>"), plus the credsStore (registry "*") when set. No helper is run
// and no secret is read into the result.
struct CredentialSource {
    QString registry, source;
};
Result<std::vector<CredentialSource>> listCredentialSources(const DockerConfigOptions& options = {});

// One challenge from a WWW-Authenticate header: `Bearer realm="...",service="...",scope="..."`.
struct Challenge {
    QString scheme; // "bearer" or "basic", lower-cased
    QMap<QString, QString> params;
};
Challenge parseChallenge(const QByteArray& header);

} // namespace pb::oci
