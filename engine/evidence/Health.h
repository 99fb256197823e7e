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

// The health table as text: one line per row, the columns of the Health view.
QString healthMarkdown(const std::vector<HealthRow>& rows);
QString healthCsv(const std::vector<HealthRow>& rows);
QJsonObject healthJson(const HealthRow& row);

} // namespace pb::evidence
