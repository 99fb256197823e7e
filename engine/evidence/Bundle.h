// Evidence bundles on disk, checked offline as `aicr evidence verify` steps 3-4 do: the
// summary-bundle/ directory that `aicr validate --emit-attestation` writes, or the same content as an
// OCI image layout (index.json, blobs/sha256/..., one tar+gzip layer). Signatures are the verify
// issue's: a signed bundle shows "signature not checked" until then.
#pragma once

#include "core/Result.h"
#include "evidence/Evidence.h"
#include "sigstore/Verify.h"

#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

namespace pb::evidence {

struct ExtractLimits {
    qint64 maxMembers = 10000;
    qint64 maxMemberBytes = 64ll * 1024 * 1024;
    qint64 maxTotalBytes = 512ll * 1024 * 1024;
    qint64 maxKeptBytes = -1; // bytes held in memory (members `keep` names); -1: up to maxTotalBytes
};

// What a summary bundle may hold: each file, all files together, and the content the checks keep in
// memory (manifest, statement, attestation, recipe, CTRF reports).
namespace bundle_limits {
constexpr qint64 kFile = 64ll * 1024 * 1024;
constexpr qint64 kTotal = 512ll * 1024 * 1024;
constexpr qint64 kChecked = 128ll * 1024 * 1024;
constexpr qint64 kImport = 16ll * 1024 * 1024 * 1024; // every bundle of one import together
} // namespace bundle_limits

// Size and SHA-256 of a file, taken while it was read (the content itself need not be kept).
struct FileDigest {
    qint64 size = 0;
    QByteArray sha256; // 32 raw bytes
    QString sha256Hex() const { return QString::fromLatin1(sha256.toHex()); }
};

// A tar archive as read: the content of the members `keep` asked for, the size and SHA-256 of every
// member (hashed while streaming through, so memory holds only what is kept).
struct TarContents {
    QMap<QString, QByteArray> files;    // clean path -> bytes, kept members only
    QMap<QString, FileDigest> digests;  // clean path -> size and digest, every member
    QMap<QString, QString> memberNames; // clean path -> the member's name as the archive spells it
};

// Reads a tar (optionally gzip-compressed) archive into memory with libarchive. Refuses absolute
// paths, "..", links, devices and anything but regular files and directories, and members or
// totals over the limits; the error names the member and the reason.
Result<QMap<QString, QByteArray>> extractTar(const QByteArray& archive, const QString& name,
                                             const ExtractLimits& limits = {});

// The same checks over a tar streamed from a file: a member's bytes are kept only when `keep` says
// so; every member is hashed. When `expectedSha256` (32 raw bytes) is given, the file's own SHA-256
// (hashed while libarchive reads it, to its last byte) must equal it, or nothing is returned.
Result<TarContents> streamTarFile(const QString& path, const QString& name, const ExtractLimits& limits,
                                  const std::function<bool(const QString&)>& keep,
                                  const QByteArray& expectedSha256 = {});

struct CtrfTest {
    QString name, status, message, suite;
    double durationMs = 0;
};

struct CtrfReport {
    QString phase;
    int tests = 0, passed = 0, failed = 0, skipped = 0, pending = 0, other = 0;
    std::vector<CtrfTest> results;
};

Result<CtrfReport> parseCtrf(const QByteArray& bytes, const QString& file);

struct PhaseSummary {
    int passed = 0, failed = 0, skipped = 0;
    QString ctrfDigest; // "sha256:<hex>"
};

// The predicate of an AICR evidence statement (the parts the checks and the health table use).
struct Predicate {
    QString type; // predicateType
    QString schemaVersion, attestedAt, aicrVersion, aicrCommit, validatorCatalogVersion;
    QString recipeName, recipeDigest; // recipe digest: 64 hex, no prefix
    QString manifestDigest;           // "sha256:<hex>"
    int manifestFileCount = -1;
    QString profileSelection;
    QMap<QString, PhaseSummary> phases; // deployment, performance, conformance
    QJsonObject raw;
};

// A summary bundle as loaded. Loading streams every file through SHA-256 and keeps in memory only
// the content the checks read (checkedContent(): the manifest, statement, attestation, recipe and
// CTRF reports), so memory does not grow with the bundle's other files; BundleContent::All keeps
// every file (to unpack a fetched layout). The checks use `files` where a path is there and
// `digests` for the rest.
struct SummaryBundle {
    QString source;                    // directory or OCI layout it came from
    QMap<QString, QByteArray> files;   // path inside summary-bundle/ -> bytes (see above)
    QMap<QString, FileDigest> digests; // path -> size and SHA-256, every file read
    QString ociManifestDigest;         // "sha256:<hex>" when read from an OCI layout
    qint64 expandedBytes = 0;          // bytes of every file together
    QStringList paths() const;         // every file: the union of files and digests
};

// The bundle files whose content the checks read.
bool checkedContent(const QString& path);

enum class BundleContent { Checked, All };

Result<SummaryBundle> loadSummaryBundle(const QString& dir, BundleContent = BundleContent::Checked);
Result<SummaryBundle> loadOciLayout(const QString& dir, BundleContent = BundleContent::Checked);
Result<SummaryBundle> loadBundle(const QString& path, BundleContent = BundleContent::Checked);

enum class StepStatus { Passed, Failed, Skipped };
QString stepStatusName(StepStatus s);

struct CheckStep {
    QString name;
    StepStatus status = StepStatus::Skipped;
    QString detail;
};

struct BundleCheck {
    std::vector<CheckStep> steps;
    std::optional<Predicate> predicate;
    QMap<QString, CtrfReport> ctrf; // by phase
    bool signaturePresent = false;
    std::optional<sigstore::VerificationResult> signature; // when attestation.intoto.jsonl was verified
    sigstore::Policy signaturePolicy;                      // the signer it was verified for
    // AICR's exit codes: 0 valid, 1 valid with failed phases, 2 invalid, 3 incomplete.
    int exitCode = 3;
    QStringList incompleteChecks; // when rated incomplete: "phase/name (status or cause)"
    QJsonObject toJson() const;
    QString toText() const;
};

// How the attestation's signature is checked: against a trusted root, with a public key when
// `policy` has one, else the signer the pointer claims (exact identity and issuer) or, without a
// pointer, `policy` (default: any identity and issuer, as aicr evidence verify does when none is given).
struct SignatureCheck {
    const sigstore::TrustedRoot* root = nullptr; // null: signatures are not checked
    sigstore::Policy policy;
};

// Integrity checks, offline. `pointer` (optional) adds pointer <-> predicate coherence; `signature`
// (optional) verifies attestation.intoto.jsonl and binds it to statement.intoto.json and the layout.
// The result is rated for completeness too (rateCompleteness): every caller (evidence check, import,
// fetch, sign, the OCI paths) sees an incomplete bundle as incomplete.
BundleCheck checkBundle(const SummaryBundle& bundle, const Pointer* pointer = nullptr,
                        const SignatureCheck* signature = nullptr);

// A bundle whose CTRF has a check `other` or `pending`, or whose predicate says "incomplete", is
// rated incomplete (exit 3) with a `completeness` step naming those checks, instead of valid or
// valid with failed phases; an invalid bundle stays invalid. checkBundle calls it.
void rateCompleteness(BundleCheck& check);

} // namespace pb::evidence
