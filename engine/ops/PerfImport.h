// `perf import`: an nccl-tests log or an inference benchmark report, parsed and scored against a
// recipe's thresholds (or ones given), kept as a run with its validation.import receipt naming the
// file it was parsed from, in one transaction. The CLI and any view that imports a result call it.
#pragma once

#include "catalog/Resolver.h"
#include "ops/Operation.h"
#include "validation/Inference.h"
#include "validation/Runner.h"

#include <QString>

#include <optional>
#include <vector>

namespace pb::ops {

struct PerfImportRequest {
    QString file;
    validation::PerfKind kind = validation::PerfKind::Nccl;
    QString check;      // the check to score as; empty: nccl-all-reduce-bw, or inference-perf
    QString coordinate; // the history the run joins; empty: the recipe's name, else the file's name
    // The thresholds: the performance constraints of `recipe`, then `constraints` (a constraint
    // named in both is taken from `constraints`).
    std::optional<catalog::RecipeResult> recipe;
    std::vector<catalog::Constraint> constraints;
    QString toolVersion = QStringLiteral("dev");
    // When the measurement was made, if the user says (`--at`); otherwise the time the report
    // records, else unknown (the run then carries the import time, marked "unknown" in history).
    // Never the file's modification time: copies and checkouts change it.
    QDateTime at;
};

struct PerfImportOutcome {
    validation::CheckRun check; // parsed, scored
    validation::RunResult run;  // the one-check run that was stored
    qint64 runRow = 0;
    QString coordinate;
    QString timeSource;   // "given", "report" or "unknown"
    QString naiveTime;    // a zoneless time the report gives (ambiguous: not taken as the measurement time)
    QString fileDigest;   // sha256:<hex> of the bytes parsed (NCCL logs; empty for reports)
    QString sourceDigest; // the kept copy (run_sources), after perfImport
    bool sourceStored = false; // false: the same file was kept already
};

// Parses and scores only: no database, no receipt (`perf import --no-store`).
Result<PerfImportOutcome> scorePerfFile(const PerfImportRequest& request);
// Parses, scores and keeps the run with its receipt.
Result<PerfImportOutcome> perfImport(const Context& ctx, const PerfImportRequest& request);

} // namespace pb::ops
