// AICR release verification, the pure part: the release's checksum lists, the in-toto statements its
// Sigstore bundles sign, the recipe-catalog subject and its predicate, and the `aicr` binary inside a
// release tarball. No database, no network, no signature check (ops::verifyRelease calls the
// Sigstore verifier and records the outcome).
//
// What AICR's release workflow publishes (NVIDIA/aicr `.github/workflows/on-tag.yaml`, keyless,
// GitHub Actions OIDC):
// - aicr_checksums.txt: sha256 of every tarball and SBOM ("HEX  NAME" per line); itself unsigned;
// - aicr-attestation.sigstore.json: SLSA provenance of the `aicr` binary (subject "aicr"); a copy
//   of it ships inside each tarball next to the binary it covers;
// - *.sbom.json.sigstore.json: SLSA provenance whose subject is the SBOM file;
// - recipe-catalog.sigstore.json: subject "recipe-catalog", the digest below over the component
//   registry and the validator catalog ONLY (never the overlays, mixins or checks); its predicate's
//   resolvedDependencies name both files' sha256.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace pb::release {

inline constexpr qint64 kMaxChecksumLines = 10000;
inline constexpr qint64 kMaxTarball = 512ll * 1024 * 1024;    // a release tarball read into memory
inline constexpr qint64 kMaxBinary = 512ll * 1024 * 1024;     // the binary extracted from it
inline constexpr qint64 kMaxTarEntries = 10000;               // entries looked at in one tarball
inline constexpr qint64 kMaxCatalogFile = 16ll * 1024 * 1024; // registry.yaml, validators/catalog.yaml

inline constexpr char kRegistryPath[] = "registry.yaml";
inline constexpr char kValidatorsPath[] = "validators/catalog.yaml";
inline constexpr char kIssuer[] = "https://token.actions.githubusercontent.com";

// "v0.19.0" from "v0.19.0" or "0.19.0"; an error for anything that is not a semantic version tag.
Result<QString> normalizeVersion(const QString& text);
// The signer every bundle of release `version` must carry: NVIDIA's tag workflow at that tag.
QString tagIdentity(const QString& version);
// "v0.19.0" from a folder named "v0.19.0", "aicr-v0.19.0", "aicr_0.19.0" ...; empty when none.
QString versionFromFolderName(const QString& name);

// One line of a sha256sum-style list ("HEX  NAME" or "HEX *NAME").
struct ChecksumRow {
    QString name;
    QString sha256; // lower-case hex
    int line = 0;
};

// Parses a checksum list. Refused (naming file and line): a malformed line, a digest that is not 64
// hex digits, a name with a path separator, "..", or control characters, a name listed twice, more
// than kMaxChecksumLines lines.
Result<std::vector<ChecksumRow>> parseChecksums(const QByteArray& bytes, const QString& file);
const ChecksumRow* findRow(const std::vector<ChecksumRow>& rows, const QString& name);

// The recipe-catalog subject: sha256(u64be(len(registry)) || registry || u64be(len(validators)) ||
// validators), lower-case hex.
QString recipeCatalogSubject(const QByteArray& registry, const QByteArray& validators);

struct Dependency {
    QString uri;
    QString sha256;    // lower-case hex, empty when not given
    QString gitCommit; // empty when not given
};

// What the release's in-toto statements say (the DSSE payload of a bundle).
struct Statement {
    QString type, predicateType, buildType, ref, builderId, invocationId, toolVersion;
    std::vector<std::pair<QString, QString>> subjects; // (name, sha256 hex)
    std::vector<Dependency> resolvedDependencies;
    QString subjectDigest(const QString& name) const; // empty when absent
};
// Parses an in-toto statement (JSON); the error names `file` and the field.
Result<Statement> parseStatement(const QByteArray& payload, const QString& file);

// The two files the recipe-catalog signature covers.
struct CatalogFiles {
    QByteArray registry, validators;
    QString source; // where they came from, for messages: a folder or "catalog version LABEL"
};

// The catalog compared with a recipe-catalog statement (and, when given, the release's
// attested-subject-checksums.txt): the recomputed subject, and which files differ.
struct CatalogMatch {
    QString subject;       // recomputed, hex
    QString signedSubject; // the statement's, hex
    QString registrySha256, validatorsSha256;
    QStringList differing; // "registry.yaml", "validators/catalog.yaml"
    QStringList problems;  // each reason, in words (empty: matches)
    bool matches() const { return problems.isEmpty(); }
    QString reason() const { return problems.join(QStringLiteral("; ")); }
};
CatalogMatch matchCatalog(const Statement& statement, const CatalogFiles& files,
                          const std::vector<ChecksumRow>* attestedSubjects = nullptr);

// A statement's resolvedDependencies against the release's attested-subject-checksums.txt
// (rows "registry.yaml" and "catalog.yaml"): the problems found, empty when consistent.
QStringList checkAttestedSubjects(const Statement& statement, const std::vector<ChecksumRow>& rows,
                                  const QString& file);

// What a release tarball holds for verification: the `aicr` binary and, when it ships one, the
// binary's provenance bundle. Read from memory by evidence::extractTar (gzip'ed tar), bounded: at
// most kMaxTarEntries entries, kMaxBinary bytes per file and kMaxTarball in all; an absolute path, a
// ".." component, a link or device, or two entries named `aicr` refuse the tarball. Nothing is
// written to disk.
struct TarballContents {
    QByteArray binary;      // the `aicr` executable
    QString binaryPath;     // its path in the tarball
    QByteArray attestation; // aicr-attestation.sigstore.json, empty when absent
    int entries = 0;
};
Result<TarballContents> readTarball(const QByteArray& tarGz, const QString& file);

} // namespace pb::release
