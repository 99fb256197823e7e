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

#include <optional>
#include <vector>

namespace pb::evidence {

struct ExtractLimits {
    qint64 maxMembers = 10000;
    qint64 maxMemberBytes = 64ll * 1024 * 1024;
    qint64 maxTotalBytes = 512ll * 1024 * 1024;
};

// Reads a tar (optionally gzip-compressed) archive into memory with libarchive. Refuses absolute
// paths, "..", links, devices and anything but regular files and directories, and members or
// totals over the limits; the error names the member and the reason.
Result<QMap<QString, QByteArray>> extractTar(const QByteArray& archive, const QString& name,
                                             const ExtractLimits& limits = {});

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

struct SummaryBundle {
    QString source;                  // directory or OCI layout it came from
    QMap<QString, QByteArray> files; // path inside summary-bundle/ -> bytes
    QString ociManifestDigest;       // "sha256:<hex>" when read from an OCI layout
};

Result<SummaryBundle> loadSummaryBundle(const QString& dir); // summary-bundle/ or its parent
Result<SummaryBundle> loadOciLayout(const QString& dir);     // an OCI image layout directory
Result<SummaryBundle> loadBundle(const QString& path);       // either, detected

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
