// AICR's pass/fail rules for performance checks (validators/performance): a recipe constraint
// named like the check is a threshold; NCCL passes at busbw >= 0.9 x threshold, inference
// throughput at >= 0.9 x and TTFT p99 at <= 1.1 x. A constraint without a comparator (e.g.
// inference-model) is an input, never a threshold. `-net` and `-nvls` NCCL checks also need the
// transport to show in the NCCL_DEBUG=INFO log.
#pragma once

#include "catalog/Types.h"
#include "validation/Inference.h"
#include "validation/Nccl.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace pb::validation {

enum class Verdict { Passed, Failed, Skipped };
QString verdictName(Verdict v); // "passed", "failed", "skipped"

struct Threshold {
    QString constraint;   // constraint name, e.g. "nccl-all-reduce-bw"
    QString written;      // the value as written, e.g. ">= 300"
    QString op;           // ">=" or "<="
    double value = 0;     // 300 (units stripped)
    double tolerance = 1; // 0.9 or 1.1
    double effective() const { return value * tolerance; }
};

// Parses a threshold as AICR's parseThreshold does: comparator, number, optional unit words.
// nullopt when the value has no comparator or no number (then it is an input, not a threshold).
std::optional<Threshold> parseThreshold(const catalog::Constraint& c);

// A constraint a user gives for the performance checks (`--constraint NAME=VALUE`): nothing when it
// can be scored, else why not ("inference-throughput = '4000' needs >= and a number, e.g. '>= 4000'").
// Only constraints that are thresholds by name are judged (NCCL bandwidth, inference throughput and
// TTFT p99); others are inputs. A malformed one is the request's fault: refused before anything runs
// or is stored, never a failed check.
std::optional<QString> thresholdProblem(const catalog::Constraint& c);

struct ScoredMetric {
    QString name; // "busbw", "output-throughput", "ttft-p99"
    QString unit; // "GB/s", "tokens/s", "ms"
    double measured = 0;
    std::optional<Threshold> threshold;
    bool pass = true; // measured against threshold->effective(); true without a threshold
};

struct CheckScore {
    QString check;
    Verdict verdict = Verdict::Skipped;
    QString message; // one line: why it passed, failed or was skipped
    std::vector<ScoredMetric> metrics;
    QStringList stdoutLines; // what AICR's validator prints (RESULT: / Constraint: lines)
};

// `constraints`: the performance phase's constraints of the recipe.
CheckScore scoreNccl(const QString& check, const NcclResult& result,
                     const std::vector<catalog::Constraint>& constraints);
// `gpuScale` = gpusBenchmarked / gpusPerNode (1 on a fully used node) scales the throughput gate.
CheckScore scoreInference(const QString& check, const InferenceResult& result,
                          const std::vector<catalog::Constraint>& constraints, double gpuScale = 1.0);

} // namespace pb::validation
