// A standard OCI image layout on disk (oci-layout, index.json, blobs/sha256/<hex>): the local cache
// for everything pulled, and the staging area for everything pushed. Blobs are written to a
// temporary file under blobs/ and renamed into place only once their digest and size are verified,
// so a crash, a cancel or a lying server never leaves half a blob behind.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <vector>

namespace pb::oci {

inline const char* const kImageManifest = "application/vnd.oci.image.manifest.v1+json";
inline const char* const kImageIndex = "application/vnd.oci.image.index.v1+json";
inline const char* const kDockerManifest = "application/vnd.docker.distribution.manifest.v2+json";
inline const char* const kDockerManifestList = "application/vnd.docker.distribution.manifest.list.v2+json";
inline const char* const kEmptyConfig = "application/vnd.oci.empty.v1+json";
inline const char* const kLayerTarGzip = "application/vnd.oci.image.layer.v1.tar+gzip";
inline const char* const kAicrArtifact = "application/vnd.nvidia.aicr.artifact";
inline const char* const kSigstoreBundle = "application/vnd.dev.sigstore.bundle.v0.3+json";
inline const char* const kRefName = "org.opencontainers.image.ref.name";

struct Descriptor {
    QString mediaType, digest, artifactType;
    qint64 size = 0;
    QJsonObject annotations;
    QJsonObject toJson() const;
    static Descriptor fromJson(const QJsonObject& o);
};

bool isManifestType(const QString& mediaType);
bool isIndexType(const QString& mediaType);

// The (config, layers, subject) or (manifests) descriptors a manifest or index names.
std::vector<Descriptor> childrenOf(const QJsonObject& manifest);

class Layout {
  public:
    // Opens `dir`, creating oci-layout, index.json and blobs/sha256 when absent. Fails (naming the
    // file) when the directory holds something that is not an OCI layout.
    static Result<Layout> open(const QString& dir);
    // The app's cache: <AppDataLocation>/oci.
    static QString defaultCacheDir();

    QString dir() const { return m_dir; }
    QString blobPath(const QString& digest) const;
    bool hasBlob(const QString& digest) const;
    Result<QByteArray> readBlob(const QString& digest, qint64 maxBytes = 64ll * 1024 * 1024) const;
    // Writes bytes as a blob (verified, atomic) and returns its descriptor digest "sha256:<hex>".
    Result<QString> writeBlob(const QByteArray& bytes);
    // Moves a verified temporary file into place as `digest` (used by streamed writes).
    Status adoptBlob(const QString& tempFile, const QString& digest);
    // A fresh temporary file path inside the layout (same file system as blobs/, so rename is atomic).
    QString tempPath() const;

    std::vector<Descriptor> manifests() const;
    // Adds or replaces an index.json entry: one with the same ref name (when `refName` is given) or
    // the same digest is replaced. index.json is rewritten atomically.
    Status addManifest(Descriptor manifest, const QString& refName = {});
    // The entry named `refName`, or with `digest`, or (both empty) the only one.
    Result<Descriptor> findManifest(const QString& refNameOrDigest = {}) const;

  private:
    QString m_dir;
};

} // namespace pb::oci
