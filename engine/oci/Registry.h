// An OCI Distribution client over libcurl: manifests (image manifests, indexes, artifact manifests
// with artifactType), blobs streamed to an OCI layout with their digest and size verified while the
// bytes arrive, pushes (monolithic POST+PUT or chunked PATCH), and referrers (the referrers API, or
// the `sha256-<hex>` tag schema on registries without it, such as distribution 2.x).
//
// Auth is what registries expect: anonymous first, then the WWW-Authenticate challenge (Bearer token
// from the realm, with Basic credentials or an identity token from docker config.json; or Basic).
// HTTPS with verification by default; plain HTTP only for loopback registries when asked, or for
// registries named explicitly. Every call is blocking: run it off the GUI thread. Each long call
// reports progress through ClientOptions::progress and stops soon after *ClientOptions::cancel turns
// true (the error then says "cancelled"). A Client is not thread-safe; use one per thread.
#pragma once

#include "core/Result.h"
#include "oci/Auth.h"
#include "oci/Layout.h"
#include "oci/Reference.h"

#include <QByteArray>
#include <QJsonObject>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace pb::oci {

// (bytes done, bytes in all or -1 when unknown, what is being transferred). Called on the caller's thread.
using Progress = std::function<void(qint64 done, qint64 total, const QString& what)>;

struct ClientOptions {
    bool plainHttp = false;          // http:// for loopback registries (127.0.0.0/8, ::1, localhost)
    QStringList plainHttpRegistries; // http:// for these registries ("host:port"), loopback or not
    QString caFile;                  // extra CA bundle (PEM) to trust; empty: the system's
    bool insecureTls = false;        // skip TLS verification (explicit opt-in only)
    DockerConfigOptions dockerConfig;
    std::optional<Credentials> credentials; // when set, used instead of config.json
    qint64 chunkSize = 0;                   // > 0: blobs are uploaded in PATCH chunks of this size
    int connectTimeoutMs = 15000;
    Progress progress;
    const std::atomic_bool* cancel = nullptr;
};

struct Manifest {
    QByteArray bytes; // verbatim, as the digest covers them
    QString mediaType, digest;
    QJsonObject json;
    Descriptor descriptor() const;
};

struct PullOptions {
    bool referrers = false;       // also pull every referrer of the manifest (signatures, SBOMs)
    QString referrerArtifactType; // only referrers of this artifactType (empty: all)
    QString refName;              // index.json ref name; empty: the reference's tag
};

struct PullResult {
    Reference reference;
    Descriptor manifest;               // as recorded in index.json
    std::vector<Descriptor> referrers; // pulled referrer manifests
    int blobsFetched = 0, blobsCached = 0;
    qint64 bytesFetched = 0;
    QJsonObject toJson() const;
};

struct PushResult {
    Reference reference; // pinned to the pushed manifest digest
    QString digest;
    int blobsPushed = 0, blobsExisting = 0;
    qint64 bytesPushed = 0;
    QJsonObject toJson() const;
};

class Client {
  public:
    explicit Client(ClientOptions options = {});
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    const ClientOptions& options() const;

    // The manifest `ref` names. A pinned reference must come back with exactly that digest.
    Result<Manifest> getManifest(const Reference& ref);
    // True when the registry holds the blob in `repo`'s repository.
    Result<bool> hasBlob(const Reference& repo, const QString& digest);
    // Streams the blob into `layout` (temp file, sha256 and size checked, renamed on success).
    // Returns the number of bytes transferred (0 when the layout already had it).
    Result<qint64> fetchBlob(const Reference& repo, const Descriptor& blob, Layout& layout);
    // Uploads `file` as blob `blob.digest` unless the registry has it. Returns bytes sent (0: existed).
    Result<qint64> pushBlob(const Reference& repo, const Descriptor& blob, const QString& file);
    // PUTs a manifest under `ref`'s tag (or digest). Returns the digest. `subjectSupported`, when
    // given, is set to whether the registry answered with OCI-Subject (it has a referrers API).
    Result<QString> pushManifest(const Reference& ref, const QByteArray& bytes, const QString& mediaType,
                                 bool* subjectSupported = nullptr);
    // Referrers of `digest`: the referrers API, else the `sha256-<hex>` tag index, else none.
    Result<std::vector<Descriptor>> referrers(const Reference& repo, const QString& digest,
                                              const QString& artifactType = {});
    // Pushes a manifest whose `subject` is `subjectDigest`, and, when the registry has no referrers
    // API, adds it to the `sha256-<hex>` tag index. Returns the referrer's digest.
    Result<QString> pushReferrer(const Reference& repo, const QByteArray& manifest, const QString& mediaType);

    // Pulls `ref` (manifest or index, recursively, and its blobs) into `layout` and records it in
    // index.json. Blobs already in the layout are not fetched again.
    Result<PullResult> pull(const Reference& ref, Layout& layout, const PullOptions& options = {});
    // Pushes the manifest `manifest` of `layout` (and everything it names) to `to`.
    Result<PushResult> push(Layout& layout, const Descriptor& manifest, const Reference& to);

    // Where the credentials for `registry` come from (never the secret).
    QString credentialSource(const QString& registry);

  private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace pb::oci
