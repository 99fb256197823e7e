#include "receipts/Kinds.h"

#include <array>

namespace pb::receipts::kinds {

namespace {

// `via` is not a parameter: the CLI and the window run one operation, so their receipts are alike.
constexpr std::array kTable{
    KindInfo{
        CatalogImport, "a catalog version imported (or an attempt that changed nothing)",
        "version replace embedded unchanged refused source repository ref tag commit path sameContentAs"},
    KindInfo{RecipeExport, "a resolved recipe printed or written",
             "criteria format deterministic profiles version"},
    KindInfo{EvidenceImport, "evidence pointers read into the database", "pointers allowlist invalid"},
    KindInfo{EvidenceImportBundles, "evidence bundles checked and stored", "dir bundles invalid incomplete"},
    KindInfo{EvidenceCheck, "an evidence bundle checked offline",
             "pointer trustedRoot publicKey insecureIgnoreTlog"},
    KindInfo{EvidenceFetch, "the bundles evidence pointers pin, pulled and checked", "pointers cache exit"},
    KindInfo{EvidencePush, "an evidence bundle published to a registry", "to signed signIncomplete"},
    KindInfo{Verify, "a Sigstore bundle verified offline",
             "policy recorded artifact trustedRootSha256 useDigest"},
    KindInfo{VerifyBatch, "a manifest of Sigstore bundles verified",
             "useDigest cases verified asExpected unreadableLines trustedRootSha256"},
    KindInfo{KeyGenerate, "a signing key created (public key and fingerprint only)",
             "format fingerprint encryptedKeyAt"},
    KindInfo{KeyImport, "a signing key imported (public key and fingerprint only)",
             "format fingerprint encryptedKeyAt"},
    KindInfo{SignBlob, "a file signed into a Sigstore bundle", "keyFingerprint"},
    KindInfo{SignAttest, "an in-toto statement signed (DSSE)", "keyFingerprint predicateType"},
    KindInfo{SignEvidence, "an evidence bundle signed and its pointer written",
             "keyFingerprint signer signIncomplete"},
    KindInfo{SignBundle, "a deployment bundle sealed", "keyFingerprint files treeDigest"},
    KindInfo{BundleVerify, "a deployment bundle verified offline", "policy minTrustLevel level"},
    KindInfo{BundlePush, "a deployment bundle published to a registry", "to"},
    KindInfo{QLatin1StringView{"bundle.import"},
             "a deployment bundle read into the database (components, files, unknown files)",
             "name deployer components files unknownFiles outcome recipeEvidenceDigest catalogVersion"},
    KindInfo{QLatin1StringView{"bundle.generate"},
             "a deployment bundle generated from a recipe (inputs and the tree digest)",
             "deployer recipe catalog sets acceleratedNodeSelector acceleratedNodeTolerations "
             "workloadSelector storageClass estimatedNodeCount repoUrl files sealed dynamicValues "
             "readinessHooks serial targetRevision appName fluxNamespace chartName chartVersion namePrefix "
             "destinationServer project cascadeDelete"},
    KindInfo{QLatin1StringView{"bundle.index"},
             "a digest index written for a deployment bundle (one payload per object, the platform digest)",
             "deployer members files generateReceipt platformDigest"},
    KindInfo{OciPull, "an artifact pulled into the OCI layout cache", "reference referrers"},
    KindInfo{ValidationRun, "a validation run on a cluster",
             "runUid phases coordinate recipe context server namespace status leftovers"},
    KindInfo{QLatin1StringView{"validation.cleanup"},
             "objects a validation run left on the cluster, deleted later", "runUid context server"},
    KindInfo{ValidationImport, "a performance result parsed and scored",
             "runUid phases coordinate recipe kind threshold time"},
    KindInfo{RecordsImport, "ConfigHub records stored", "dir"},
    KindInfo{RecordsCheck, "ConfigHub records checked offline", "dir"},
    KindInfo{ReceiptsSignHead, "the ledger head exported and signed", "keyFingerprint seq"},
    KindInfo{ReceiptsCheckpoint, "the ledger head signed into a checkpoint file kept outside the database",
             "keyFingerprint seq hash"},
    KindInfo{QLatin1StringView{"release.verify"},
             "an AICR release's signatures, checksum list and assets verified offline",
             "version policy trustedRootSha256 verified listedNotSigned digestOnly failed catalogVersion "
             "boundVersions"},
    KindInfo{ReportExport, "the release review report written", "format version filter rows charts baseline"},
    KindInfo{QLatin1StringView{"db.init-team"},
             "the team's roles and grants made on a PostgreSQL database, and who holds which role",
             "roles members"},
    KindInfo{QLatin1StringView{"trusted-root.update"},
             "a Sigstore trusted root taken from a TUF repository copy, verified offline",
             "repository anchor anchorSha256 anchorVersion rootVersion timestampVersion snapshotVersion "
             "targetsVersion verificationTime timeGiven target sha256 stored startedFrom"},
};

} // namespace

std::span<const KindInfo> all() {
    return kTable;
}

const KindInfo* find(QStringView kind) {
    for (const KindInfo& k : kTable)
        if (kind == k.name)
            return &k;
    return nullptr;
}

QStringList parameterKeys(QStringView kind) {
    const KindInfo* k = find(kind);
    return k ? QString::fromLatin1(k->parameters).split(QLatin1Char(' '), Qt::SkipEmptyParts) : QStringList();
}

} // namespace pb::receipts::kinds
