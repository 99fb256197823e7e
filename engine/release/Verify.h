// A folder of AICR release assets verified offline, asset by asset (ops::verifyRelease assembles
// the request, reads the catalog to compare, keeps a verified recipe-catalog signature and writes
// the receipt):
// - every Sigstore bundle (the binary provenance, each SBOM's, the recipe catalog's, and the copy
//   of the binary provenance inside each tarball) parsed and verified against the policy;
// - aicr_checksums.txt parsed; its rows for signed SBOMs compared with their signed subjects; each
//   listed asset in the folder hashed and compared with its row;
// - each tarball opened in memory (readTarball) and its `aicr` binary compared with a verified
//   provenance subject (its own copy, or the release's);
// - the recipe catalog's subject recomputed from the catalog files given and compared, the
//   predicate's resolvedDependencies checked against attested-subject-checksums.txt.
// Each asset: verified (by a signature), listed (matches the unsigned checksum list only), digest only
// (absent from the folder: only the signed or listed digest is known), or failed, with the reason. A
// listed name that is not a regular file (a symbolic link, a FIFO, a device, a directory) fails,
// named with its kind.
#pragma once

#include "release/Release.h"
#include "sigstore/TrustedRoot.h"
#include "sigstore/Verify.h"

#include <QJsonObject>

#include <atomic>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace pb::release {

// Listed: the file matches its row in aicr_checksums.txt, which is not signed itself: consistent, not
// verified (anyone who can change the folder can change the list), and never counted as verified.
enum class AssetStatus { Verified, Listed, DigestOnly, Failed };
QString assetStatusName(AssetStatus s); // "verified" | "listed, not signed" | "digest only" | "failed"

struct ReleaseAsset {
    QString name; // file name, "aicr" (the binary) or "recipe-catalog"
    QString kind; // "checksum list", "binary", "tarball", "SBOM", "recipe catalog"
    AssetStatus status = AssetStatus::DigestOnly;
    QString reason;
    QString expectedSha256; // what a signature or the checksum list says
    QString foundSha256;    // what the asset in the folder hashes to; empty when absent
    QString bundle;         // the Sigstore bundle file that signs it, if any
    std::optional<sigstore::VerificationResult> signature;
    QJsonObject toJson() const;
};

// The regular files directly in a release folder (an error when it is not a folder, or holds more
// than a release would).
Result<QStringList> listReleaseFolder(const QString& dir);

// The two catalog files from a folder: `catalogDir` when given (an error when it lacks both), else
// DIR or DIR/recipes when either holds them; neither files nor problem when none does.
struct CatalogInput {
    std::optional<CatalogFiles> files;
    QString problem; // a source named but unreadable
};
CatalogInput catalogFromFolder(const QString& dir, const QString& catalogDir);

struct FolderRequest {
    QString dir;
    QStringList files; // listReleaseFolder(dir)
    QString version;   // vX.Y.Z (normalizeVersion)
    sigstore::Policy policy;
    const sigstore::TrustedRoot* root = nullptr;
    std::optional<CatalogFiles> catalogFiles; // what the recipe-catalog signature is compared with
    QString catalogProblem;                   // why the catalog named could not be read
    std::function<void(int step, int steps, const QString& what)> progress;
    const std::atomic_bool* cancel = nullptr;
};

// A recipe-catalog signature that verified for this release (and its attested subjects agree).
struct CatalogSignature {
    QString subjectSha256, registrySha256, validatorsSha256;
    QByteArray bundle;
    QJsonObject verification;
    QString trustedRootSha256;
};

struct FolderResult {
    std::vector<ReleaseAsset> assets; // the checksum list first
    QString trustedRootSha256;
    bool cancelled = false; // stopped by the cancel flag; `assets` may be partial
    std::optional<CatalogSignature> catalogSignature;
    // What was read, as a receipt's inputs name it: (path, bytes) of the checksum list and bundles.
    std::vector<std::pair<QString, QByteArray>> inputs;
};

inline constexpr int kVerifySteps = 5;

// Every asset's verdict. Never an error: what cannot be read or verified is a failed row.
FolderResult verifyFolder(const FolderRequest& request);

} // namespace pb::release
