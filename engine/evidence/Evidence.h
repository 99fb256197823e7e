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
    QString source;          // 32-hex slug, or empty
    QString identityPattern; // anchored regex, or empty
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
    QString file;   // relative to the evidence root, e.g. "h100-gke-cos-training/7c4c.../sha256-....yaml"
    QByteArray raw; // verbatim bytes
    PointerLayout layout = PointerLayout::Misplaced;
    QString dirRecipe, dirSource; // from the path (per-source layout)
    QString recipe, profile, schemaVersion;
    std::vector<Attestation> attestations;
    QStringList problems; // every broken rule, in words; empty when the pointer is valid
    // The file's bytes could not be taken (empty is still read; over the limit, not a regular file,
    // unreadable are not): raw is then empty (never null), problems.front() says why, and layout,
    // dirRecipe and dirSource come from the path alone. Such a pointer is invalid, never an error.
    bool unread = false;
    std::optional<SignerClass> signerClass; // when an allowlist was given and the pointer is signed

    bool isValid() const { return problems.isEmpty(); }
    bool isSigned() const { return !attestations.empty() && attestations.front().signer.has_value(); }
    const Attestation* attestation() const { return attestations.empty() ? nullptr : &attestations.front(); }
    // Slug recomputed from the claimed signer; empty when unsigned.
    QString claimedSlug() const;
};

// Parses one pointer file. A file that is not YAML, or not a pointer, or empty, still yields a
// Pointer whose problems say why, so an import can keep it as invalid instead of dropping it.
// raw is never a null QByteArray (an empty file is stored as zero bytes, not SQL NULL).
Pointer parsePointer(const QByteArray& bytes, const QString& relativePath);

// A pointer is read whole up to this size; a larger file is an invalid pointer, not an error.
constexpr qint64 kMaxPointerBytes = 1024 * 1024;

// Reads one pointer file through openInputFile (core/Files.h: non-blocking, regular files only) and
// parses it. Never an error: an empty, over-limit, unreadable or non-regular file (FIFO, socket,
// device, symbolic link when `followLinks` is false) yields an invalid Pointer whose problems name the
// reason, so the rest of the tree is still read and imported. Not yet checked (see checkPointer).
Pointer readPointer(const QString& absolutePath, const QString& relativePath, bool followLinks = false);

// An invalid pointer for `relativePath` that could not be read: layout and directories from the
// path, raw empty (not null), `reason` as its one problem, unread set.
Pointer unreadPointer(const QString& relativePath, const QString& reason);

// Applies AICR's pointer rules (pkg/evidence/verifier/pointer.go) and the tree contract
// (CheckEvidenceTree): appends to pointer.problems and sets signerClass.
void checkPointer(Pointer& pointer, const Allowlist* allowlist, bool allowPending = true);

struct EvidenceTree {
    QString root;
    std::optional<Allowlist> allowlist;
    std::vector<Pointer> pointers; // sorted by file
    // Entries below the root that were not read and are not pointers (a symbolic link or a named
    // pipe, socket or device not named *.yaml, a symlinked directory), each "path: reason", sorted.
    // A *.yaml entry that is not a regular file is not here: it is an invalid pointer (unread).
    QStringList skipped;
};

// Reads a recipes/evidence directory (or a directory containing recipes/evidence): the allowlist
// (or the one given) and every pointer below it, each checked. One unreadable pointer never stops
// the tree: it is kept as an invalid pointer with its reason. Links are not followed: a symlinked
// pointer is an invalid pointer ("is a symbolic link"), other skipped entries are listed in skipped.
Result<EvidenceTree> scanEvidence(const QString& dir, const QString& allowlistFile = {});

} // namespace pb::evidence
