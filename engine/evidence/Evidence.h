// AICR evidence pointers and the signer allowlist (pkg/evidence/attestation, pkg/evidence/allowlist,
// pkg/evidence/verifier): parsing every layout AICR has used, its pointer rules and tree contract,
// the source slug, and signer classes. Bundles and signatures come later; a pointer here is checked
// structurally, never cryptographically.
#pragma once

#include "core/Result.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace pb::evidence {

// First 32 hex characters of sha256(issuer + "\n" + identity): the <source> directory name.
QString sourceSlug(const QString& issuer, const QString& identity);

// "gpuStack=azure-managed" -> "gpustack-azure-managed", the suffix a profiled recipe name carries.
QString profileSegment(const QString& profile);

enum class SignerClass { FirstParty, Community, Partner, Reported };
QString signerClassName(SignerClass c); // "first-party", "community", "partner", "reported-only"

struct AllowlistEntry {
    SignerClass cls = SignerClass::Reported;
    QString label, issuer;
    QString source;                  // 32-hex slug, or empty
    QString identityPattern;         // anchored regex, or empty
    QRegularExpression identityRegex;
};

struct Allowlist {
    QString file;
    QString schemaVersion;
    std::vector<AllowlistEntry> entries;
    // The class of a signer; Reported when no entry matches (zero weight).
    SignerClass classify(const QString& issuer, const QString& identity) const;
    const AllowlistEntry* match(const QString& issuer, const QString& identity) const;
};

Result<Allowlist> parseAllowlist(const QByteArray& bytes, const QString& file);

enum class PredicateVersion { V1, V2, V3, LegacyV1, Unknown };
PredicateVersion predicateVersionOf(const QString& predicateType);

struct Signer {
    QString identity, issuer;
    std::optional<qint64> rekorLogIndex;
};

struct Attestation {
    QString attestedAtText; // as written
    QDateTime attestedAt;   // UTC, invalid when unparsable
    QString bundleDigest, bundleOci, predicateType;
    std::optional<Signer> signer;
};

enum class PointerLayout {
    PerSource,   // <recipe>/<source>/sha256-<hex>.yaml (signed, immutable)
    FlatPending, // <recipe>.yaml, unsigned, on fork branches
    LegacyFlat,  // <recipe>.yaml signed with an aicr.nvidia.com predicate (before v0.16)
    Misplaced,   // anywhere else
};
QString layoutName(PointerLayout l);

struct Pointer {
    QString file;          // relative to the evidence root, e.g. "h100-gke-cos-training/7c4c.../sha256-....yaml"
    QByteArray raw;        // verbatim bytes
    PointerLayout layout = PointerLayout::Misplaced;
    QString dirRecipe, dirSource; // from the path (per-source layout)
    QString recipe, profile, schemaVersion;
    std::vector<Attestation> attestations;
    QStringList problems;  // every broken rule, in words; empty when the pointer is valid
    std::optional<SignerClass> signerClass; // when an allowlist was given and the pointer is signed

    bool isValid() const { return problems.isEmpty(); }
    bool isSigned() const { return !attestations.empty() && attestations.front().signer.has_value(); }
    const Attestation* attestation() const { return attestations.empty() ? nullptr : &attestations.front(); }
    // Slug recomputed from the claimed signer; empty when unsigned.
    QString claimedSlug() const;
};

// Parses one pointer file. A file that is not YAML, or not a pointer, still yields a Pointer whose
// problems say why, so an import can keep it as invalid instead of dropping it.
Pointer parsePointer(const QByteArray& bytes, const QString& relativePath);

// Applies AICR's pointer rules (pkg/evidence/verifier/pointer.go) and the tree contract
// (CheckEvidenceTree): appends to pointer.problems and sets signerClass.
void checkPointer(Pointer& pointer, const Allowlist* allowlist, bool allowPending = true);

struct EvidenceTree {
    QString root;
    std::optional<Allowlist> allowlist;
    std::vector<Pointer> pointers; // sorted by file
};

// Reads a recipes/evidence directory (or a directory containing recipes/evidence): the allowlist
// (or the one given) and every pointer below it, each checked.
Result<EvidenceTree> scanEvidence(const QString& dir, const QString& allowlistFile = {});

} // namespace pb::evidence
