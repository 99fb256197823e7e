// The health of a recipe coordinate: its status derived from the evidence pointers and bundles
// recorded for it, the reason in words, and the table's Markdown, CSV and JSON forms. The store
// (store/EvidenceStore.h) reads the rows from the database; what a row means lives here.
#pragma once

#include "catalog/Types.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <vector>

namespace pb::evidence {

// Status of a recipe coordinate. A signed pointer whose bundle signature was not verified offline
// is "signed"; stale means the evidence was recorded for other recipe bytes (or an older name).
// VerifiedIncomplete: the newest bundle's signature verified, but some of its checks could not run or
// finish (a cluster fault): neither passed nor failed.
enum class HealthStatus {
    NoEvidence,
    Pending,
    Signed,
    Verified,
    VerifiedFailedPhases,
    VerifiedIncomplete,
    Invalid,
    Stale
};
QString healthStatusName(HealthStatus s);

struct HealthRow {
    QString recipe;
    // The leaf overlay the recipe resolves from, when it is named otherwise (a profiled recipe, or a
    // wildcard leaf such as monitoring-hpa whose criteria are all "any" and whose recipe is "recipe").
    QString leafOverlay;
    // The name the evidence pointers of this row record, when it is not `recipe` (evidence recorded
    // before the coordinate's name changed: the pointers name the leaf overlay). Empty otherwise.
    QString evidenceName;
    // What the views show: the recipe name, except when it carries no criteria ("recipe",
    // "recipe-<profile>"): then the leaf overlay's name, which tells such leaves apart.
    QString displayName() const;
    // The name to read the row's pointers and bundles under.
    const QString& pointerName() const { return evidenceName.isEmpty() ? recipe : evidenceName; }
    catalog::Criteria criteria;
    QString catalogLabel; // empty when the evidence names a recipe this catalog version does not have
    bool inCatalog() const { return !catalogLabel.isEmpty(); }
    HealthStatus status = HealthStatus::NoEvidence;
    QString reason; // why the status is what it is
    int pointers = 0, invalid = 0, pending = 0;
    int firstParty = 0, community = 0, partner = 0, reported = 0; // valid signed pointers by signer class
    QDateTime newestAttestedAt;
    QString newestPredicateType;
    QString phaseCoverage; // from bundles (empty until bundles are imported)
    QString aicrVersion;   // from bundles
    bool devBuild = false; // aicrVersion "dev" (or a -dev/-next build)
    bool stale = false;
    bool failedPhases = false;      // the newest valid bundle records failed tests
    bool incomplete = false;        // the newest valid bundle records checks that could not run or finish
    bool signatureVerified = false; // the newest valid bundle's attestation verified offline
    QString verifiedSigner;         // its certificate identity (or "public key")
    int bundles = 0, invalidBundles = 0;
    QString bundleDigest;  // the newest bundle's predicate recipe digest
    QString currentDigest; // the catalog's recipe digest under the same predicate rules
};

// The catalog version a health table is of, as its exports label it.
struct HealthTableInfo {
    QString version;     // the catalog version's label; empty: unknown (the exports then say nothing)
    bool sample = false; // Proofbench's sample data, not an AICR release
    QString origin;      // where the version came from (store::CatalogVersionInfo::originText())
    // "2026-08-19" or "sample-2 (sample data)".
    QString versionText() const;
};

// The health table as text: one line per row, the columns of the Health view, then whether the
// recipe is in the chosen catalog version and the status reason. Markdown opens with a line naming
// the version, its origin and (for the sample) a "sample data" mark; CSV carries the version (so
// marked) in a "catalog version" column; JSON carries "catalogVersion" and "sample".
QString healthMarkdown(const std::vector<HealthRow>& rows, const HealthTableInfo& info = {});
QString healthCsv(const std::vector<HealthRow>& rows, const HealthTableInfo& info = {});
QJsonObject healthJson(const HealthRow& row, const HealthTableInfo& info = {});

} // namespace pb::evidence
