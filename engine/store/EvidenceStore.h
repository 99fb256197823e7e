// Evidence pointers in the database: idempotent import of an evidence tree (invalid pointers are
// kept with their reasons, never dropped), and the health table — one row per leaf coordinate of
// a catalog version with its status derived from the pointers.
#pragma once

#include "catalog/Types.h"
#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "db/Database.h"

#include <QDateTime>
#include <QJsonObject>

namespace pb::store {

using db::Database;
using db::nullable;
using db::sqlError;
using db::Transaction;

struct EvidenceImportReport {
    int added = 0, updated = 0, unchanged = 0, invalid = 0;
    bool allowlistStored = false;
};

// Status of a recipe coordinate. Signature verification and bundle checks come with the verify and
// bundle work; until then a signed pointer is "signed" (signature not checked) and stale cannot be told.
enum class HealthStatus { NoEvidence, Pending, Signed, Verified, VerifiedFailedPhases, Invalid, Stale };
QString healthStatusName(HealthStatus s);

struct HealthRow {
    QString recipe;
    catalog::Criteria criteria;
    QString catalogLabel;   // empty when the evidence names a recipe this catalog version does not have
    bool inCatalog() const { return !catalogLabel.isEmpty(); }
    HealthStatus status = HealthStatus::NoEvidence;
    QString reason;              // why the status is what it is
    int pointers = 0, invalid = 0, pending = 0;
    int firstParty = 0, community = 0, partner = 0, reported = 0; // valid signed pointers by signer class
    QDateTime newestAttestedAt;
    QString newestPredicateType;
    QString phaseCoverage;       // from bundles (empty until bundles are imported)
    QString aicrVersion;         // from bundles
    bool devBuild = false;       // aicrVersion "dev" (or a -dev/-next build)
    bool stale = false;
    bool failedPhases = false;   // the newest valid bundle records failed tests
    bool signatureVerified = false; // the newest valid bundle's attestation verified offline
    QString verifiedSigner;      // its certificate identity (or "public key")
    int bundles = 0, invalidBundles = 0;
    QString bundleDigest;        // the newest bundle's predicate recipe digest
    QString currentDigest;       // the catalog's recipe digest under the same predicate rules
};

// A bundle as stored: what the offline checks found, and the CTRF tests of each phase.
struct BundleRecord {
    QString source, ociDigest, recipe, predicateType, attestedAt, aicrVersion, recipeDigest;
    bool signedBundle = false;
    std::optional<bool> signatureVerified;          // empty: not checked
    QString signatureDetail;
    int checkExit = 3;                              // 0 valid, 1 failed phases, 2 invalid, 3 incomplete
    std::vector<evidence::CheckStep> steps;
    QMap<QString, evidence::PhaseSummary> phases;
    QMap<QString, std::vector<evidence::CtrfTest>> tests; // by phase
};

class EvidenceStore {
  public:
    explicit EvidenceStore(Database& db) : m_db(db) {}

    // One transaction: every pointer of the tree (added, updated when its bytes changed, or unchanged)
    // and the allowlist it was checked against.
    Result<EvidenceImportReport> importTree(const evidence::EvidenceTree& tree);

    // Reads every bundle below `dir` (each summary-bundle directory or OCI layout), checks it
    // offline and stores the result (replacing an earlier read of the same source). One transaction.
    // Signatures (attestation.intoto.jsonl) are verified offline as `signature` says, or against the
    // database's default trusted root when it is not given; with neither they stay "not checked".
    Result<int> importBundles(const QString& dir, const evidence::SignatureCheck* signature = nullptr);

    // Rows for every recipe of the catalog version, plus recipes that have pointers but are not in it.
    Result<std::vector<HealthRow>> health(qint64 catalogVersionId) const;
    Result<std::vector<evidence::Pointer>> pointersFor(const QString& recipe) const;
    // Bundles whose predicate names `recipe` (or, with `alsoNamed`, an older name of it), newest first.
    Result<std::vector<BundleRecord>> bundlesFor(const QString& recipe, const QString& alsoNamed = {}) const;
    int pointerCount() const;

  private:
    Database& m_db;
};

QString healthMarkdown(const std::vector<HealthRow>& rows);
QString healthCsv(const std::vector<HealthRow>& rows);
QJsonObject healthJson(const HealthRow& row);

} // namespace pb::store
