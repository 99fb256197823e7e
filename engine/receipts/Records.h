// External records: ConfigHub-style YAML receipts that describe what happened to an AICR recipe
// entry outside Proofbench (generation, OCI transport, publication, upload, release, route intent,
// field policy, flattening verdict, source catalog, digest index, upstream provenance). This reads
// them (through engine/yaml, errors with file, line and field), runs every check that can be done
// offline, and derives the entry's stage table ("current status"). Reference:
// ../shared/reference/confighub-receipts.md; docs/RECEIPTS.md.
//
//   readRecords(dir)      parse + checks + stages, no database   (`records check DIR`)
//   storeRecords(db,rep)  a report's records stored in external_records (one transaction, or a
//                         savepoint of the caller's); storing the same bytes again changes nothing.
//                         The records.import action and its receipt: ops/RecordsImport.h
//   storedRecords(db)     what was imported (for the GUI's records view and the report)
#pragma once

#include "core/Result.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace pb::db {
class Database;
}

namespace pb::receipts {

// The record kinds read (the YAML `kind:`, or AICRPlatformDigestIndex for platform-index.json).
QStringList recordKinds();

struct ExternalRecord {
    QString path;     // absolute
    QString relative; // below the directory read
    QString entry;    // the recipe entry directory it belongs to, relative ("examples/aicr/<entry>")
    QString kind, apiVersion, name;
    QString sha256;
    qint64 size = 0;
    QJsonObject document; // the whole document, typed as go-yaml resolves it
    QJsonObject fields;   // the fields that identify it (versions, digests, counts, status.result)
};

enum class Verdict { Pass, Fail, Incomplete, NotChecked };
QString verdictName(Verdict v); // "pass", "fail", "incomplete", "not-checked"

// One offline check, with the digests (or values) it compared.
struct RecordCheck {
    QString check; // "digest-index.platform-digest", "checksums", "shared-digest", ...
    QString file;  // the file the check is about (relative)
    Verdict verdict = Verdict::NotChecked;
    QString detail;   // in words; names the file that differs
    QString expected; // the recorded value
    QString actual;   // the recomputed / other record's value
    QJsonObject toJson() const;
};

enum class StageResult { Complete, Partial, NotRun };
QString stageResultName(StageResult r); // "complete", "partial", "not run"

struct StageRow {
    QString entry;
    QString stage; // "Select the AICR source variant", ...
    StageResult result = StageResult::NotRun;
    QString record; // the record behind it (relative path), empty when none
    QString detail; // the field and value that decided it
    QJsonObject toJson() const;
};

struct RecordsReport {
    QString root;
    std::vector<ExternalRecord> records;
    std::vector<RecordCheck> checks;
    std::vector<Error> problems; // files that do not parse or lack a required field
    std::vector<StageRow> stages;
    bool ok() const; // no problem and no failed check
    int failed() const;
    QJsonObject toJson() const; // {root, ok, records[], checks[], problems[], stages[]}
    QString toText() const;
};

// Reads every record below `dir`, runs the offline checks and builds the stage table.
// Fails only when `dir` is not a readable directory; bad files are reported as problems.
Result<RecordsReport> readRecords(const QString& dir);

// The digest index's platform digest recomputed from platform-index.json as ConfigHub's compiler
// does (reference section 3): "sha256:" + sha256(canonicalJson({source, criteria,
// transports:[{id,role,manifestDigest}], members:[{component,role,syncWave,payloadSha256}]})).
QString platformDigest(const QJsonObject& platformIndex);

// A checksums.txt ("<64 hex>  <path>" per line) checked against the files beside it: one check
// per differing or missing file, and one summary check.
std::vector<RecordCheck> checkChecksums(const QString& checksumsFile, const QString& relativeName);

// Stage table of one entry from its records (reference section 6).
std::vector<StageRow> stageTable(const QString& entry, const std::vector<ExternalRecord>& records);

struct RecordsImport {
    int added = 0, updated = 0, unchanged = 0;
    RecordsReport report;
};
// Stores the records of `report` (from readRecords); refuses (changing nothing) when a file did not
// parse. Writes no receipt: ops::importRecords does, in the same transaction.
Result<RecordsImport> storeRecords(db::Database& db, RecordsReport report);
Result<std::vector<ExternalRecord>> storedRecords(db::Database& db);

} // namespace pb::receipts
