// Inference benchmark reports, normalised: NVIDIA AIPerf (the current flat JSON and the early
// "records" JSON, and both CSVs), GenAI-Perf (JSON and CSV with quoted thousands separators) and
// kubernetes-sigs/inference-perf lifecycle reports (seconds, "median" for p50). Every latency comes
// out in milliseconds and every throughput per second, whatever the tool wrote.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QDateTime>
#include <QString>

#include <optional>

namespace pb::validation {

enum class PerfKind { Nccl, AIPerf, GenAIPerf, InferencePerf };
QString perfKindName(PerfKind k); // "nccl", "aiperf", "genai-perf", "inference-perf"
std::optional<PerfKind> perfKindFromName(const QString& name);

struct Distribution {
    std::optional<double> avg, min, max, p50, p90, p95, p99;
    bool empty() const { return !avg && !p50 && !p99; }
};

struct InferenceResult {
    PerfKind kind = PerfKind::AIPerf;
    QString format;      // "aiperf-json", "aiperf-records-json", "aiperf-csv", "genai-perf-csv",
                         // "genai-perf-json", "inference-perf-json"
    QString toolVersion; // when the report says
    std::optional<double> outputTokensPerSec, requestsPerSec;
    Distribution ttftMs, itlMs, requestLatencyMs;
    std::optional<qint64> requests, errors;
    std::optional<double> durationSec;
    // When the benchmark ran, as the report records it with its zone: the epoch timestamps (the CSV's
    // "Maximum Response Timestamp (ns)", the JSON's max_response_timestamp), or an end_time/start_time
    // that carries a zone ("Z", "+02:00"). Invalid when the report does not say.
    QDateTime recordedAt;
    // AIPerf JSON writes end_time in the machine's local time with no zone: such a time is ambiguous
    // (the same report read elsewhere is hours off). Kept as written (e.g. "2026-05-01T05:31:46.005908")
    // and shown as such, never taken as UTC; recordedAt stays invalid unless an epoch timestamp says.
    QString naiveTime;
};

// `kind` says which tool wrote it; JSON or CSV is detected from the bytes. A figure that is not a
// finite, non-negative number (inf, nan, -1) is an error naming it (and the CSV line).
Result<InferenceResult> parseInference(QByteArrayView bytes, PerfKind kind, const QString& file);
Result<InferenceResult> parseInferenceUnchecked(QByteArrayView bytes, PerfKind kind, const QString& file);
// Regular files only, up to kMaxInferenceReportBytes.
constexpr qint64 kMaxInferenceReportBytes = 16ll * 1024 * 1024;
Result<InferenceResult> parseInferenceFile(const QString& path, PerfKind kind);

// AICR's inference validator prints the AIPerf JSON between two `===AIPERF-RESULT===` lines in its
// pod log; this finds the last such block (nullopt when there is none).
std::optional<QByteArray> extractAiperfBlock(QByteArrayView log);

} // namespace pb::validation
