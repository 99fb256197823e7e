// Publishing and fetching AICR artifacts: evidence summary bundles (one tar+gzip layer,
// artifactType application/vnd.nvidia.aicr.artifact, the Sigstore bundle as an OCI referrer) and
// deployment bundles (`aicr bundle -o oci://`), staged as OCI image layouts on disk. Long calls take
// the Client's progress and cancel (ClientOptions); packing large trees also checks `cancel`.
#pragma once

#include "core/Result.h"
#include "evidence/Evidence.h"
#include "oci/Layout.h"
#include "oci/Registry.h"
#include "sigstore/Crypto.h"

#include <QJsonObject>
#include <QSet>
#include <QString>

#include <atomic>

namespace pb::oci {

inline const char* const kDeploymentBundleArtifact = "application/vnd.nvidia.aicr.bundle";

// Writes `dir`'s regular files (sorted, zero mtime, owner 0, mode 0644/0755 dirs) as a tar, gzip
// compressed at `gzipLevel` (1-9), to `outFile`; members named in `exclude` (relative paths) are
// skipped. Returns the archive's descriptor (size, sha256 digest). Streams: memory stays small.
Result<Descriptor> packDirectory(const QString& dir, const QString& outFile,
                                 const QSet<QString>& exclude = {}, int gzipLevel = 9,
                                 const std::atomic_bool* cancel = nullptr);

// Builds an artifact manifest in `layout` around one tar+gzip layer file (moved into the layout):
// empty config, `artifactType`, the given manifest annotations, layer title ".". Returns the manifest.
Result<Descriptor> stageArtifact(Layout& layout, const QString& layerFile, const Descriptor& layer,
                                 const QString& artifactType, const QJsonObject& annotations,
                                 const QString& refName);

// A referrer manifest in `layout` carrying `payload` (one layer of `payloadType`) for `subject`.
Result<Descriptor> stageReferrer(Layout& layout, const Descriptor& subject, const QByteArray& payload,
                                 const QString& payloadType);

struct EvidencePush {
    PushResult artifact;
    QString signatureDigest; // the referrer's manifest digest, empty when the bundle is unsigned
    QString pointerPath;     // the pointer written (per-source when signed, flat pending otherwise)
    QString layoutDir;       // the staged layout (kept in the cache)
    QJsonObject toJson() const;
};

struct EvidencePushOptions {
    QString pointerRoot;         // a recipes/evidence directory; empty: the bundle directory's parent
    QString stagingDir;          // where the OCI layout is staged; empty: <cache>/staging/<manifest.json hex>
    EVP_PKEY* key = nullptr;     // sign first (signEvidence) when the bundle is not signed yet
    bool signIncomplete = false; // ... even when it is incomplete (signEvidence's signIncomplete)
};

// Publishes a summary bundle as AICR does and writes the pointer pinned to the manifest digest.
Result<EvidencePush> pushEvidence(Client& client, const QString& bundleDir, const Reference& to,
                                  const EvidencePushOptions& options = {});

struct EvidenceFetch {
    QString reference; // registry/repo@digest
    QString dir; // <cache>/evidence/<hex>: oci/ (layout) and summary-bundle/ (unpacked, with its signature)
    QString bundleDigest;
    bool signaturePulled = false;
    PullResult pull;
    QJsonObject toJson() const;
};

// Pulls the bundle a pointer names, by its pinned digest, and its Sigstore referrer into
// `cacheDir`/evidence/<hex>, then unpacks it beside the layout. Refuses an unpinned pointer.
Result<EvidenceFetch> fetchEvidence(Client& client, const evidence::Pointer& pointer,
                                    const QString& cacheDir);

// Packs and pushes a deployment bundle directory. `stagingDir` empty: a temporary directory under
// the cache, removed afterwards.
Result<PushResult> pushDeploymentBundle(Client& client, const QString& dir, const Reference& to,
                                        const QString& stagingDir = {});

} // namespace pb::oci
