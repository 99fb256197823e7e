// Evidence pointers in the database: idempotent import of an evidence tree (invalid pointers are
// kept with their reasons, never dropped), and the health table — one row per leaf coordinate of
// a catalog version with its status derived from the pointers (evidence/Health.h says what a row
// means). The store only reads and writes the database: the receipts of an import are written by
// the operations (ops/ImportEvidence.h), in the same transaction.
#pragma once

#include "catalog/Types.h"
#include "db/Database.h"
#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "evidence/Health.h"

#include <QDateTime>
#include <QJsonObject>

namespace pb::store {

using db::Database;
using db::nullable;
using db::sqlError;
using db::Transaction;

// The health types moved to evidence/Health.h; these names keep older includers compiling.
using evidence::healthCsv;
using evidence::healthJson;
using evidence::healthMarkdown;
using evidence::HealthRow;
using evidence::HealthStatus;
using evidence::healthStatusName;

struct EvidenceImportReport {
    int added = 0, updated = 0, unchanged = 0, invalid = 0;
    bool allowlistStored = false;
};

// What a bundle import read: every source (a summary-bundle directory or an OCI layout) and how
// many of them failed their integrity checks or could not be read.
struct BundleImportReport {
    QStringList sources;
    int invalid = 0;    // check exit 2 (or unreadable)
    int incomplete = 0; // check exit 3: some checks could not run or finish (not a failure)
};

// A bundle as stored: what the offline checks found, and the CTRF tests of each phase.
struct BundleRecord {
    QString source, ociDigest, recipe, predicateType, attestedAt, aicrVersion, recipeDigest;
    bool signedBundle = false;
    std::optional<bool> signatureVerified; // empty: not checked
    QString signatureDetail;
    int checkExit = 3; // 0 valid, 1 failed phases, 2 invalid, 3 incomplete
    std::vector<evidence::CheckStep> steps;
    QMap<QString, evidence::PhaseSummary> phases;
    QMap<QString, std::vector<evidence::CtrfTest>> tests; // by phase
};

class EvidenceStore {
  public:
    explicit EvidenceStore(Database& db) : m_db(db) {}

    // One transaction (a savepoint inside the caller's): every pointer of the tree (added, updated
    // when its bytes changed, or unchanged) and the allowlist it was checked against. A pointer that
    // could not be read (empty, over the size limit) is kept as invalid with its reason, under the
    // recipe its directory names when its content names none.
    Result<EvidenceImportReport> importTree(const evidence::EvidenceTree& tree);

    // Reads every bundle below `dir` (each summary-bundle directory or OCI layout), checks it
    // offline and stores the result (replacing an earlier read of the same source). One transaction.
    // Signatures (attestation.intoto.jsonl) are verified offline as `signature` says, or against the
    // database's default trusted root when it is not given; with neither they stay "not checked".
    // Bundles are read a few at a time (memory does not grow with their number); all of them
    // together may expand to `maxExpandedBytes`, beyond which nothing is imported.
    Result<BundleImportReport> importBundleDir(const QString& dir,
                                               const evidence::SignatureCheck* signature = nullptr,
                                               qint64 maxExpandedBytes = evidence::bundle_limits::kImport);
    // importBundleDir(), the number of bundles read.
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

} // namespace pb::store
