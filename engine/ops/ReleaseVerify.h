// `proofbench release verify DIR --version vX.Y.Z` and the window's Verify an AICR release dialog:
// a folder of AICR release assets verified offline, one row per asset. The operation assembles the
// request (policy, trusted root, the catalog to compare), calls release::verifyFolder (the steps
// below) and records; the steps:
//
// - every Sigstore bundle (binary provenance aicr-attestation.sigstore.json, *.sbom.json.sigstore.json,
//   recipe-catalog.sigstore.json) verified with the identity pinned to NVIDIA's tag workflow for that
//   version and GitHub's OIDC issuer (both overridable, exact or regexp);
// - aicr_checksums.txt parsed; its rows for signed SBOMs compared with their signed subjects; each
//   asset present in DIR hashed and compared with its row;
// - each release tarball present opened (libarchive, bounded, nothing written to disk) and its `aicr`
//   binary compared with a binary provenance subject (the tarball's own copy of the provenance, or
//   the release's);
// - the recipe catalog: its subject recomputed from registry.yaml and validators/catalog.yaml (from
//   DIR, a catalog folder or an imported catalog version), the predicate's resolvedDependencies and
//   attested-subject-checksums.txt checked, and the file that differs named.
// Each asset: verified, digest only (absent from DIR: only the signed or listed digest is known), or
// failed, with the reason. A verified recipe-catalog signature is kept in the database with its
// bundle and verification, and every catalog version whose two files reproduce its subject is bound
// to the release ("registry and validator catalog signed by AICR vX.Y.Z"). The signature, bindings
// and the release.verify receipt are one transaction.
#pragma once

#include "ops/Operation.h"
#include "release/Verify.h"
#include "sigstore/Verify.h"

#include <QJsonObject>

#include <optional>
#include <vector>

namespace pb::ops {

inline constexpr QLatin1StringView kReleaseVerifyKind{"release.verify"};

struct ReleaseVerifyRequest {
    QString dir;
    QString version; // vX.Y.Z (a leading v is optional)
    // Signer policy; empty fields take the pinned defaults (release::tagIdentity(version), kIssuer).
    QString identity, identityRegexp, issuer, issuerRegexp;
    QString trustedRootPath; // else the stored root trustedRootId, else the database's default
    qint64 trustedRootId = 0;
    QString catalogVersion;    // compare the recipe-catalog signature with this imported version
    QString catalogDir;        // or with this catalog folder (recipes/ layout); default: DIR's own files
    bool keepSignature = true; // keep a verified recipe-catalog signature and bind matching versions
};

// The per-asset verdicts are the release domain's (release/Verify.h).
using release::AssetStatus;
using release::assetStatusName;
using release::ReleaseAsset;

struct ReleaseVerifyOutcome {
    QString version, dir;
    sigstore::Policy policy;
    QString trustedRootSha256;
    std::vector<ReleaseAsset> assets;
    QString catalogSource;     // where the recipe catalog's files came from; empty when none
    QStringList boundVersions; // catalog versions bound to this release by this run
    qint64 signatureId = 0;    // the kept recipe-catalog signature; 0 when none
    qint64 receiptSeq = 0;
    bool cancelled = false; // nothing recorded

    int count(AssetStatus s) const;
    bool ok() const { return count(AssetStatus::Failed) == 0; }
    QString summary() const; // "AICR v0.19.0: 3 verified, 1 listed (not signed), 10 digest only, 0 failed"
    QJsonObject toJson() const;
    QString toText() const;
};

// An error (nothing recorded) when the check cannot run: DIR unreadable, a version that is not
// vX.Y.Z, no trusted root, an unknown catalog version, the receipt not written. Otherwise an
// outcome, whatever the verdicts.
Result<ReleaseVerifyOutcome> verifyRelease(const Context& ctx, const ReleaseVerifyRequest& request);

// The signer policy a request stands for (pinned defaults filled in).
sigstore::Policy releasePolicy(const ReleaseVerifyRequest& request, const QString& version);

// What a release's recipe-catalog signature covers and what it does not (the overlays), for the
// faces to show beside a binding (the store's wording; widgets do not include store/).
QString releaseScopeNote();

} // namespace pb::ops
