// OCI and registry inputs: an image layout's index.json, a manifest or index read from a layout
// (the evidence loader and the layout reader), a docker config.json (credential lookup for three
// registries and the credentials listing; credential helpers are looked for in an empty
// directory, so none runs), an image reference, and a WWW-Authenticate challenge. The first byte
// picks which.
#include "FuzzUtil.h"

#include "core/Hash.h"
#include "evidence/Bundle.h"
#include "oci/Auth.h"
#include "oci/Layout.h"
#include "oci/Reference.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <memory>

namespace {

QTemporaryDir& scratch() {
    static const std::unique_ptr<QTemporaryDir> dir = [] {
        const QString base =
            QDir(QStringLiteral("/dev/shm")).exists() ? QStringLiteral("/dev/shm") : QDir::tempPath();
        auto d = std::make_unique<QTemporaryDir>(base + QStringLiteral("/pb-fuzz-oci-XXXXXX"));
        if (!d->isValid() || !QDir().mkpath(d->path() + QStringLiteral("/layout/blobs/sha256")) ||
            !QDir().mkpath(d->path() + QStringLiteral("/helpers")))
            qFatal("fuzz_oci: cannot create a scratch directory");
        // No credential helper can be found: PATH and the helper directory are both empty.
        qputenv("PATH", (d->path() + QStringLiteral("/helpers")).toLocal8Bit());
        return d;
    }();
    return *dir;
}

void write(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(bytes);
}

void readLayout(const QString& dir) {
    (void)pb::evidence::loadOciLayout(dir);
    pb::Result<pb::oci::Layout> l = pb::oci::Layout::open(dir);
    if (!l)
        return;
    for (const pb::oci::Descriptor& d : l->manifests()) {
        (void)pb::oci::isManifestType(d.mediaType);
        (void)d.toJson();
        if (pb::Result<QByteArray> b = l->readBlob(d.digest, 1024 * 1024))
            (void)pb::oci::childrenOf(QJsonDocument::fromJson(*b).object());
    }
    (void)l->findManifest();
    (void)l->findManifest(QStringLiteral("latest"));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1)
        return 0;
    const QByteArray in = pbfuzz::bytes(data + 1, size - 1);
    const QString root = scratch().path();
    const QString layout = root + QStringLiteral("/layout");
    switch (data[0] % 5) {
    case 0: // index.json
        write(layout + QStringLiteral("/oci-layout"), R"({"imageLayoutVersion":"1.0.0"})");
        write(layout + QStringLiteral("/index.json"), in);
        readLayout(layout);
        break;
    case 1: { // a manifest (or index) blob named by the layout's index.json
        const QString digest = QStringLiteral("sha256:") + pb::sha256Hex(in);
        const QString blob = layout + QStringLiteral("/blobs/sha256/") + digest.mid(7);
        write(layout + QStringLiteral("/oci-layout"), R"({"imageLayoutVersion":"1.0.0"})");
        write(blob, in);
        write(
            layout + QStringLiteral("/index.json"),
            QStringLiteral(
                R"({"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"%1","size":%2}]})")
                .arg(digest)
                .arg(in.size())
                .toUtf8());
        readLayout(layout);
        QFile::remove(blob);
        break;
    }
    case 2: { // docker config.json
        pb::oci::DockerConfigOptions options;
        options.configFile = root + QStringLiteral("/config.json");
        options.helperDir = root + QStringLiteral("/helpers");
        write(options.configFile, in);
        for (const char* registry : {"ghcr.io", "docker.io", "127.0.0.1:5000"})
            (void)pb::oci::credentialsFor(QString::fromLatin1(registry), options);
        (void)pb::oci::listCredentialSources(options);
        break;
    }
    case 3: { // an image reference
        pb::Result<pb::oci::Reference> r = pb::oci::parseReference(QString::fromUtf8(in));
        if (r) {
            (void)r->toString();
            (void)r->apiHost();
            (void)pb::oci::isLoopbackRegistry(r->registry);
            (void)r->withDigest(QStringLiteral("sha256:") + QString(64, QLatin1Char('0'))).toString();
        }
        (void)pb::oci::isValidDigest(QString::fromUtf8(in));
        break;
    }
    default:
        (void)pb::oci::parseChallenge(in);
        break;
    }
    return 0;
}
