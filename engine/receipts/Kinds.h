// Every receipt kind Proofbench writes, with its parameter schema: the one place a kind is named.
// Ledger::append() refuses a kind that is not listed here, and a parameter the kind does not
// declare, so a new action cannot drift into an undocumented receipt (docs/RECEIPTS.md lists the
// same table for readers).
#pragma once

#include <QLatin1StringView>
#include <QStringList>
#include <QStringView>

#include <span>

namespace pb::receipts::kinds {

inline constexpr QLatin1StringView CatalogImport{"catalog.import"};
inline constexpr QLatin1StringView RecipeExport{"recipe.export"};
inline constexpr QLatin1StringView EvidenceImport{"evidence.import"};
inline constexpr QLatin1StringView EvidenceImportBundles{"evidence.import-bundles"};
inline constexpr QLatin1StringView EvidenceCheck{"evidence.check"};
inline constexpr QLatin1StringView EvidenceFetch{"evidence.fetch"};
inline constexpr QLatin1StringView EvidencePush{"evidence.push"};
inline constexpr QLatin1StringView Verify{"verify"};
inline constexpr QLatin1StringView VerifyBatch{"verify.batch"};
inline constexpr QLatin1StringView KeyGenerate{"key.generate"};
inline constexpr QLatin1StringView KeyImport{"key.import"};
inline constexpr QLatin1StringView SignBlob{"sign.blob"};
inline constexpr QLatin1StringView SignAttest{"sign.attest"};
inline constexpr QLatin1StringView SignEvidence{"sign.evidence"};
inline constexpr QLatin1StringView SignBundle{"sign.bundle"};
inline constexpr QLatin1StringView BundleVerify{"bundle.verify"};
inline constexpr QLatin1StringView BundlePush{"bundle.push"};
inline constexpr QLatin1StringView OciPull{"oci.pull"};
inline constexpr QLatin1StringView ValidationRun{"validation.run"};
inline constexpr QLatin1StringView ValidationImport{"validation.import"};
inline constexpr QLatin1StringView RecordsImport{"records.import"};
inline constexpr QLatin1StringView RecordsCheck{"records.check"};
inline constexpr QLatin1StringView ReceiptsSignHead{"receipts.sign-head"};
inline constexpr QLatin1StringView ReceiptsCheckpoint{"receipts.checkpoint"};
inline constexpr QLatin1StringView ReportExport{"report.export"};

struct KindInfo {
    QLatin1StringView name;
    const char* summary;    // what the receipt records, in a line
    const char* parameters; // the parameter keys it may carry, space-separated (never a secret)
};

// The whole table, in the order docs/RECEIPTS.md lists it.
std::span<const KindInfo> all();
// The entry for `kind`, or nullptr.
const KindInfo* find(QStringView kind);
// Every parameter key `kind` declares (empty for an unknown kind).
QStringList parameterKeys(QStringView kind);

} // namespace pb::receipts::kinds
