// Import evidence (CLI `evidence import`, the window's File > Import Evidence and the Health view):
// read an evidence pointer tree and store every pointer, or read the evidence bundles below a
// directory and store what their offline checks found. Each writes its data and its receipt
// (evidence.import, evidence.import-bundles) in one transaction: both are kept or neither is.
#pragma once

#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "ops/Operation.h"
#include "store/EvidenceStore.h"

#include <optional>
#include <vector>

namespace pb::ops {

struct ImportEvidenceRequest {
    QString dir;       // recipes/evidence, or a directory containing it
    QString allowlist; // the signer allowlist to classify with; empty: allowlist.yaml in the tree
    // The tree already read from `dir` (skips reading it again); `dir` is then only a name.
    std::optional<evidence::EvidenceTree> scanned;
};

struct ImportEvidenceOutcome {
    evidence::EvidenceTree tree; // as read: every pointer, the invalid ones with their reasons
    store::EvidenceImportReport report;
    qint64 receiptSeq = 0;
    // The pointers kept as invalid, in file order.
    std::vector<const evidence::Pointer*> invalidPointers() const;
};

// Reads the tree (unless given) and imports it. A pointer that breaks a rule, is empty or is over
// the size limit is kept as invalid with its reason; the rest are imported. Only a tree that
// cannot be read at all, a database failure or an unwritten receipt is an error (nothing kept).
Result<ImportEvidenceOutcome> importEvidence(const Context& ctx, const ImportEvidenceRequest& request);

struct ImportEvidenceBundlesRequest {
    QString dir; // searched for summary-bundle directories and OCI layouts
    // How signatures are checked; empty: against the database's default trusted root (none: not
    // checked). The root it points to must outlive the call.
    std::optional<evidence::SignatureCheck> signature;
};

struct ImportEvidenceBundlesOutcome {
    store::BundleImportReport report;
    qint64 receiptSeq = 0;
    int bundles() const { return static_cast<int>(report.sources.size()); }
};

Result<ImportEvidenceBundlesOutcome> importEvidenceBundles(const Context& ctx,
                                                           const ImportEvidenceBundlesRequest& request);

} // namespace pb::ops
