// What the Oci commands share (one command per file: OciPullCommand.cpp, EvidenceFetchCommand.cpp,
// EvidencePushCommand.cpp, BundlePushCommand.cpp).
#pragma once

#include "cli/CliUtil.h"

#include "core/Files.h"
#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "oci/Artifact.h"
#include "oci/Layout.h"
#include "oci/Reference.h"
#include "oci/Registry.h"
#include "ops/FetchEvidence.h"
#include "ops/OciPull.h"
#include "ops/PushBundle.h"
#include "ops/PushEvidence.h"
#include "ops/SignatureCheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

namespace pb::cli {

inline void addRegistryOptions(Command& c) {
    const QString family = QStringLiteral("registry flags");
    c.addOption({QStringLiteral("plain-http"),
                 QStringLiteral("Use plain HTTP for loopback registries (127.0.0.0/8, ::1, localhost).")},
                family);
    c.addOption({QStringLiteral("plain-http-registry"),
                 QStringLiteral("Use plain HTTP for this registry (host:port); may be repeated."),
                 QStringLiteral("REGISTRY")},
                family);
    c.addOption({QStringLiteral("ca-file"), QStringLiteral("Extra CA bundle (PEM) to trust for registries."),
                 QStringLiteral("FILE")},
                family);
    c.addOption({QStringLiteral("insecure-tls"),
                 QStringLiteral("Do not verify the registry's TLS certificate (not recommended).")},
                family);
    c.addOption({QStringLiteral("docker-config"),
                 QStringLiteral(
                     "docker config.json with registry credentials (default: $DOCKER_CONFIG/config.json or "
                     "~/.docker/config.json)."),
                 QStringLiteral("FILE")},
                family);
    c.addOption({QStringLiteral("chunk-size"),
                 QStringLiteral("Upload blobs in chunks of this many bytes (default: one request)."),
                 QStringLiteral("BYTES")},
                family);
}

inline Result<oci::ClientOptions> registryOptions(const QCommandLineParser& p) {
    oci::ClientOptions o;
    o.plainHttp = p.isSet(QStringLiteral("plain-http"));
    o.plainHttpRegistries = p.values(QStringLiteral("plain-http-registry"));
    o.caFile = p.value(QStringLiteral("ca-file"));
    o.insecureTls = p.isSet(QStringLiteral("insecure-tls"));
    o.dockerConfig.configFile = p.value(QStringLiteral("docker-config"));
    if (p.isSet(QStringLiteral("chunk-size"))) {
        bool ok = false;
        o.chunkSize = p.value(QStringLiteral("chunk-size")).toLongLong(&ok);
        if (!ok || o.chunkSize <= 0)
            return makeError(QStringLiteral("'%1' is not a positive number of bytes")
                                 .arg(p.value(QStringLiteral("chunk-size"))),
                             {}, 0, QStringLiteral("--chunk-size"));
    }
    return o;
}

inline Result<oci::Reference> referenceArg(const QString& text, const QString& flag) {
    Result<oci::Reference> r = oci::parseReference(text);
    if (!r) {
        Error e = r.error();
        e.field = flag;
        return e;
    }
    return r;
}

} // namespace pb::cli
