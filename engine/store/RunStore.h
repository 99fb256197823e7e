// Validation runs in the database: the run, each check as it ends (state, exit code, message, log,
// RESULT: lines, score), every scored metric and every measured point (NCCL rows, inference
// percentiles), so charts and history read from here. Each check is saved in its own transaction:
// a run cut short keeps every check that finished. The store writes no receipt: the operations that
// run or import (ops/Validate.h, ops/PerfImport.h) write theirs in the same transaction.
#pragma once

#include "db/Database.h"
#include "validation/Runner.h"

#include <QDateTime>
#include <QIODevice>
#include <QJsonObject>

#include <optional>
#include <vector>

namespace pb::store {

using db::Database;
using db::nullable;
using db::sqlError;
using db::Transaction;

struct RunHeader {
    QString source = QStringLiteral("cluster"); // cluster | import
    QString recipeName, coordinate, catalogVersion;
    QJsonObject criteria;
    QString context, server, namespace_;
    QString toolVersion;
    QString timeSource;   // imports: "given", "report" or "unknown"
    QString sourceDigest; // imports: the kept file it was parsed from ("sha256:<hex>", run_sources)
};

// A file kept in run_sources (what `perf import` parsed).
struct RunSource {
    QString digest; // sha256:<hex> of the original
    qint64 size = 0, storedSize = 0;
    int chunks = 0;
    bool stored = false; // written now (false: the same bytes were kept already)
};

struct RunSummary {
    qint64 id = 0;
    QString runUid, source, state, reason, recipeName, coordinate, context, server, phases;
    QDateTime startedAt, finishedAt;
    int checks = 0, passed = 0, failed = 0, skipped = 0;
    int other = 0;     // checks that could not run or finish (a cluster fault), not failures
    int leftovers = 0; // objects still on the cluster (cleanup gave up)
    QString evidenceDir;
    // False for an import whose report did not say when it was measured: startedAt is then the
    // import's time, which is no measurement time (lists show "unknown" and sort it after dated runs).
    bool timeKnown = true;
};

struct StoredRun {
    RunSummary summary;
    RunHeader header;
    validation::RunResult result; // checks with logs, scores and parsed series
    QByteArray snapshotYaml;
};

struct HistoryPoint {
    qint64 runId = 0;
    QDateTime at;
    QString check, metric, unit;
    double value = 0;
    std::optional<double> effectiveThreshold;
    bool pass = true;
    QString source;        // what it came from: "import nccl.txt", "<context> run <uid>"
    bool timeKnown = true; // false: an import whose report did not say when it ran (at = import time)
    // The check this metric belongs to failed (on this metric or another, e.g. TTFT while this is
    // throughput): a point that met its own threshold is then not shown as a plain pass.
    bool checkFailed = false;
};

// An object a run could not delete from the cluster (run_leftovers).
struct RunLeftover {
    qint64 runId = 0;
    QString runUid, context, server; // the run's, to reach the same cluster again
    QString path, error;
    QDateTime recordedAt;
    std::optional<QDateTime> removedAt;
};

class RunStore {
  public:
    explicit RunStore(Database& db) : m_db(db) {}

    // Writes the run row (state "running"); the checks of `plan` as pending.
    Result<qint64> begin(const RunHeader& header, const QString& runUid,
                         const std::vector<validation::CheckRun>& plan);
    // Upserts one check with its metrics and series, in one transaction.
    Status saveCheck(qint64 runId, int seq, const validation::CheckRun& check);
    // Final state, reason, snapshot, readiness, and every check again, in one transaction (a
    // savepoint inside the caller's: ops::validate writes the validation.run receipt in the same).
    Status finish(qint64 runId, const validation::RunResult& result, const QString& evidenceDir = {});
    // A whole run at once (imported results), in one transaction. The receipt naming the files it
    // was parsed from is ops::perfImport's; `sourceFiles` is no longer used here.
    Result<qint64> saveImported(const RunHeader& header, const validation::RunResult& result,
                                const QStringList& sourceFiles = {});
    // Keeps `path` in run_sources: read in 1 MiB pieces, hashed and zlib-compressed as it is read, its
    // chunks (at most 4 MiB each) inserted as they fill, so memory does not grow with the file. When
    // `expectedDigest` is given and the bytes read are not those, nothing is kept and the error says
    // the file changed. A digest already kept is not written again. Runs inside the caller's
    // transaction (or one of its own).
    Result<RunSource> keepSource(const QString& path, const QString& expectedDigest = {});
    // The kept file of `digest`, inflated chunk by chunk into `out`; its SHA-256 is checked at the end.
    Status readSource(const QString& digest, QIODevice& out) const;
    // The digest of the file a run was imported from (empty when none was kept).
    Result<QString> sourceDigest(qint64 runId) const;

    Result<std::vector<RunSummary>> list(const QString& coordinate = {}, int limit = 500) const;
    Result<StoredRun> load(qint64 id) const;
    // A run is named by one id everywhere: its uid (8 hex digits, as `validate` prints it and every
    // view and report shows it). Finds the run a uid or an unambiguous prefix of one (at least 4
    // characters, as git takes a commit) names; the error says when none or several match.
    Result<qint64> findRun(const QString& uidOrPrefix) const;
    // Scored metrics of a coordinate's runs over time, oldest first (the history chart).
    Result<std::vector<HistoryPoint>> history(const QString& coordinate, const QString& metric = {}) const;
    Result<QStringList> coordinates() const;

    // What a run left on the cluster (its cleanup gave up), recorded in the caller's transaction.
    Status saveLeftovers(qint64 runId, const std::vector<validation::RunResult::Leftover>& left);
    // Open leftovers of one run (0: of every run), oldest run first; with includeRemoved, also
    // those `runs cleanup` deleted.
    Result<std::vector<RunLeftover>> leftovers(qint64 runId = 0, bool includeRemoved = false) const;
    // After `runs cleanup`: `removed` are gone (removed_at set), `still` keep their new error.
    Status markLeftovers(qint64 runId, const QStringList& removed,
                         const std::vector<validation::RunResult::Leftover>& still);

  private:
    Database& m_db;
};

// The run as JSON (`runs show --format json`, `validate --format json`): header, state, snapshot
// facts, readiness, checks with metrics (logs left out unless `withLogs`).
QJsonObject runToJson(const validation::RunResult& result, bool withLogs = false);
QJsonObject checkToJson(const validation::CheckRun& check, bool withLog = false);

} // namespace pb::store
