// Catalog versions in the database: transactional import (all or nothing), listing, and the
// resolved recipes of each version. Reads rebuild a Catalog from the verbatim files stored at
// import, so `--version LABEL` resolves exactly what `--catalog DIR` did.
#pragma once

#include "catalog/Resolver.h"
#include "catalog/Types.h"
#include "db/Database.h"
#include "release/Release.h"

#include <QDateTime>
#include <QJsonObject>

#include <atomic>
#include <functional>
#include <optional>

namespace pb::store {

using db::Database;
using db::nullable;
using db::sqlError;
using db::Transaction;

// Where a catalog version came from. Folder imports record the folder (and the commit when the
// folder is inside a Git clone); Git imports record repository, ref, tag, commit and its date.
struct CatalogSource {
    QString kind = QStringLiteral("folder"); // folder | git | embedded
    QString repository;                      // git: the repository path or URL; folder: the enclosing clone
    QString ref;                             // the ref asked for (refs/tags/v0.20.0, main, a commit id)
    QString tag;                             // the tag name when the ref is a tag
    QString commit;                          // full commit id
    QDateTime commitDate;                    // committer date, UTC
    QString path;                            // the catalog folder inside the repository (recipes)
};

struct CatalogVersionInfo {
    qint64 id = 0;
    QString label, source, contentDigest, apiVersions;
    QDateTime importedAt;
    bool embedded = false; // the sample catalog compiled into the app
    int overlayCount = 0, recipeCount = 0;
    CatalogSource origin;
    // AICR releases whose verified recipe-catalog signature this version's registry.yaml and
    // validators/catalog.yaml reproduce (table catalog_release_bindings), oldest binding first.
    QStringList signedByReleases;

    // "registry and validator catalog signed by AICR v0.19.0"; empty when not bound.
    QString releaseBindingText() const;
    // The embedded catalog is Proofbench's own sample data, never an AICR release.
    bool isSample() const { return embedded; }
    // "sample data (compiled into Proofbench)", "git github.com/NVIDIA/aicr tag v0.20.0, commit
    // 1b4724e39 (2026-01-02), recipes", "folder /x/recipes (in clone /x, commit 1b4724e39)".
    QString originText() const;
    // How it is placed in version order: "semantic version", "commit date", "date in label", "label".
    QString orderBasis() const;
    // Whether its place in version order is known: a real version with a semantic version, a commit
    // date or a date in its label (placed by its label alone, it is not).
    bool placed() const;
};

// The version `ordered[i]` is compared with by default: "previous", "changed since", "new in", and
// the default baseline of Compare and the report; `ordered` is in version order (versions()). It is
// the nearest version before it of its own kind: a sample for a sample; for a real version, a real
// version whose place is known. A real version placed by its label alone has none (its place is
// unknown), and is nobody's. Every place that says previous or baseline calls this.
std::optional<std::size_t> defaultBaselineIndex(const std::vector<CatalogVersionInfo>& ordered,
                                                std::size_t i);
// Why ordered[i] has no default baseline (empty when it has one).
QString noBaselineReason(const std::vector<CatalogVersionInfo>& ordered, std::size_t i);

// What a release binding says, and what it does not: the signature covers the component registry
// and the validator catalog only.
QString releaseScopeNote();

// A recipe-catalog Sigstore bundle of an AICR release that verified offline (release_signatures).
struct ReleaseSignature {
    qint64 id = 0;
    QString releaseVersion;                   // v0.19.0
    QString subjectSha256;                    // the signed recipe-catalog subject, hex
    QString registrySha256, validatorsSha256; // the predicate's resolvedDependencies, hex
    QByteArray bundle;                        // verbatim (empty in listings)
    QString bundleSha256;
    QJsonObject verification; // sigstore::VerificationResult::toJson()
    QJsonObject policy;       // identity and issuer it was verified against
    QString trustedRootSha256;
    QDateTime verifiedAt;
};

// A catalog version bound to a release signature.
struct ReleaseBinding {
    ReleaseSignature signature; // without the bundle bytes
    QDateTime boundAt;
    // "registry and validator catalog signed by AICR v0.19.0"
    QString text() const;
};

struct RecipeInfo {
    qint64 id = 0;
    qint64 catalogVersionId = 0;
    QString catalogLabel;
    QString name, leafOverlay, profile, apiVersion, digest;
    catalog::Criteria criteria;
    QStringList appliedOverlays;
    int componentCount = 0;
    // The same recipe (name and profile) in the catalog version just before this one in version
    // order (semantic version, else source date; never import order).
    // The same recipe in the version before this one in version order (catalog/VersionOrder.h).
    QString previousLabel;  // empty when this is the first version
    QString previousDigest; // empty when the recipe did not exist there
    // AICR releases whose recipe-catalog signature the recipe's catalog version reproduces (its
    // registry and validator catalog only; the overlays that make the recipe are not covered).
    QStringList catalogSignedByReleases;

    enum class Change { FirstVersion, New, Unchanged, Changed };
    Change change() const;
    // "changed since sample-1", "unchanged since sample-1", "new in sample-2", or empty.
    QString changeText() const;
};

enum class ImportStage { Resolving, Writing, Done };
QString stageName(ImportStage stage);

struct ImportOptions {
    bool replace = false; // replace a version of the same label whose content differs
    bool embedded = false;
    CatalogSource origin; // where the files came from (kind "embedded" is set from `embedded`)
    std::function<void(int, int, ImportStage)> progress; // (step, steps, stage)
    const std::atomic_bool* cancel = nullptr;
};

struct ImportReport {
    enum class Outcome { Imported, Unchanged, Replaced };
    Outcome outcome = Outcome::Imported;
    qint64 versionId = 0;
    int recipes = 0;
    int files = 0;
};

// Resolves a stored recipe exactly as import did (the leaf's own criteria, its profile default, no
// builder version), so its deterministic bytes and digest equal the stored ones.
Result<catalog::RecipeResult> resolveStoredRecipe(const catalog::Catalog& catalog,
                                                  const QString& leafOverlay);

// Bytes stored per recipe: AICR's v3 evidence-canonical YAML of the RecipeResult (no
// metadata.version, keys sorted, indent 4), so the stored digest IS the evidence digest — the one
// evidence pointers bind to — independent of the tool that resolved it (catalog/Digest.h).
QByteArray recipeBytes(const catalog::RecipeResult& recipe);

class CatalogStore {
  public:
    explicit CatalogStore(Database& db) : m_db(db) {}

    // Resolves every leaf first; only a catalog that loads and resolves completely is written,
    // in one transaction (a savepoint when the caller has one open: ops::importCatalog writes the
    // receipt in that outer transaction). An unchanged or refused import changes nothing.
    Result<ImportReport> importCatalog(const QString& label, const catalog::Catalog& cat,
                                       const ImportOptions& options = {});

    // Every version in version order, oldest first: "newest" is back(), "previous" the one before.
    Result<std::vector<CatalogVersionInfo>> versions() const;
    Result<CatalogVersionInfo> version(const QString& label) const;
    // The version just before `label` in version order; an error when there is none.
    Result<CatalogVersionInfo> previousVersion(const QString& label) const;
    // The newest version in version order; an error when the database holds none.
    Result<CatalogVersionInfo> newestVersion() const;
    // The version whose stored files have this content digest, if any.
    Result<std::optional<CatalogVersionInfo>> versionWithContent(const QString& contentDigest) const;
    Result<catalog::Catalog> loadCatalog(const QString& label) const;
    Result<std::vector<RecipeInfo>> recipes(qint64 catalogVersionId) const;
    Result<QByteArray> fileContent(qint64 catalogVersionId, const QString& path) const;
    bool isEmpty() const;
    // Once per database (migration 008's store_upgrades row "recipe-evidence-digest"): rewrites
    // every stored recipe from the indent-2 deterministic YAML earlier Proofbench stored to the
    // evidence-canonical bytes and digest stored today, in one transaction. Returns the number of
    // recipes rewritten (0 when already done).
    Result<int> upgradeRecipeDigests();

    // ---- AICR release signatures and the versions they bind (migration 009) --------------------
    // Keeps a verified recipe-catalog signature with its bundle and verification; the same bundle
    // for the same release again returns the existing id.
    Result<qint64> recordReleaseSignature(const ReleaseSignature& signature);
    // The newest kept signature of `releaseVersion`, if any (with its bundle bytes).
    Result<std::optional<ReleaseSignature>> releaseSignature(const QString& releaseVersion) const;
    // Every kept signature, oldest first (without bundle bytes).
    Result<std::vector<ReleaseSignature>> releaseSignatures() const;
    // The bindings of one version, oldest first.
    Result<std::vector<ReleaseBinding>> releaseBindings(qint64 catalogVersionId) const;
    // The stored registry.yaml and validators/catalog.yaml of a version; an error naming the file
    // when one is missing.
    Result<release::CatalogFiles> catalogFiles(qint64 catalogVersionId) const;
    // Binds version `catalogVersionId` to every kept signature whose subject its files reproduce;
    // returns the releases it is (now) bound to. Idempotent.
    Result<QStringList> bindToReleases(qint64 catalogVersionId);
    // Binds every stored version whose files reproduce signature `signatureId`; returns their labels.
    Result<QStringList> bindVersionsTo(qint64 signatureId);

  private:
    Database& m_db;
};

// The versions of the sample catalog compiled into the application (":/recipes/<label>", labels
// sample-1, sample-2, ...), oldest first.
// ops::seedEmbeddedCatalog imports them on first start.
QStringList embeddedCatalogLabels();

} // namespace pb::store
