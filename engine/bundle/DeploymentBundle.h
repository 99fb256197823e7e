// engine/bundle/ holds everything Proofbench does with a deployment bundle (the tree `aicr bundle`
// writes for a deployer, or any deployer's tree), in one folder: generate (Generate.h, with
// GenArgoHelm, GenFlux, GenHelmfile, GenGate, GenKustomize, GenManifest, GenValues, GenCommon: a
// resolved recipe rendered into the layout of AICR's helm, argocd, argocd-helm, flux or helmfile
// deployer), read (Read.h, Model.h: components, values, manifests, files), diff (Diff.h), index
// (Index.h), and seal and verify (this file, namespace pb::deploy). Imported bundles are kept by
// store/BundleStore; the actions are ops/Bundle*.h, ops/SealBundle.h and ops/VerifyBundle.h.
//
// Deployment bundles (the output of `aicr bundle`, or any deployer's tree): a closed-world
// checksums.txt in sha256sum format, an SLSA provenance v1 attestation over it, and offline
// verification with AICR's trust levels (`aicr verify`). Hashing runs on a thread pool, reports
// progress and can be cancelled.
#pragma once

#include "core/Files.h"
#include "core/Result.h"
#include "sigstore/Crypto.h"
#include "sigstore/Verify.h"

#include <QJsonObject>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace pb::deploy {

inline const char* const kChecksums = "checksums.txt";
inline const char* const kBundleAttestation = "attestation/bundle-attestation.sigstore.json";
inline const char* const kBinaryAttestation = "attestation/aicr-attestation.sigstore.json";

// Called with (files hashed, files in all); may be called from worker threads.
using Progress = std::function<void(int done, int total)>;

struct FileDigest {
    QString path; // relative, '/'-separated
    QString sha256Hex;
    qint64 size = 0;
};

// Every regular payload file below `dir`, hashed, sorted by path. A symlink, device or other special
// file makes the tree refused (the error names it): the closed world allows regular files only.
Result<std::vector<FileDigest>> hashTree(const QString& dir, const Progress& progress = {},
                                         std::atomic_bool* cancel = nullptr);

// "<hex>  <path>\n" per file, as sha256sum writes it.
QByteArray checksumsText(const std::vector<FileDigest>& files);

struct SignReport {
    int files = 0;
    QString checksumsSha256;
    QString keyFingerprint;
    QString treeDigest; // hex (bundle/TreeDigest.h), from the same hashes: sealing leaves it as it was
};

// Writes checksums.txt and attestation/bundle-attestation.sigstore.json (a DSSE in-toto statement,
// predicate SLSA provenance v1, subject checksums.txt), signed with `key`.
Result<SignReport> signDeploymentBundle(const QString& dir, EVP_PKEY* key, const Progress& progress = {},
                                        std::atomic_bool* cancel = nullptr, const FileWriter& writer = {});

enum class FileState { Ok, Changed, Missing, Unexpected };
QString fileStateName(FileState s);

struct FileCheck {
    QString path;
    FileState state = FileState::Ok;
    QString expected, found; // sha256 hex (empty when missing/unexpected)
};

// AICR's trust levels, lowest to highest.
enum class TrustLevel { Unknown = 1, Unverified = 2, Attested = 3, Verified = 4 };
QString trustLevelName(TrustLevel t);
std::optional<TrustLevel> parseTrustLevel(const QString& name); // also "max" = Verified

struct VerifyOptions {
    const sigstore::TrustedRoot* root = nullptr; // needed for keyless attestations
    sigstore::Policy policy;                     // key or identity for the bundle attestation
};

struct DeploymentVerification {
    std::vector<FileCheck> files; // every listed and every present file
    bool inventoryOk = false;
    QString inventoryDetail;
    std::optional<sigstore::VerificationResult> bundleAttestation;
    std::optional<sigstore::VerificationResult> binaryAttestation;
    QString attestationDetail;
    TrustLevel level = TrustLevel::Unknown;
    QJsonObject toJson() const;
    QString toText() const;
};

DeploymentVerification verifyDeploymentBundle(const QString& dir, const VerifyOptions& options,
                                              const Progress& progress = {},
                                              std::atomic_bool* cancel = nullptr);

} // namespace pb::deploy
