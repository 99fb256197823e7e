// nccl-tests output (all_reduce_perf and friends), read the way a person reads it: the result table
// is found by its header names, not column positions, so old and new nccl-tests, Slurm `0: ` and
// OpenMPI `[1,0]<stdout>:` prefixes, ssh warnings, NCCL_DEBUG=INFO noise, `...` elisions, a missing
// footer, `N/A` in #wrong and any float spelling all parse. The parser is a push parser with
// constant memory in the size of the log (it keeps the rows, never the text), so a 100 MB log of
// INFO lines streams through it.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QCryptographicHash>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace pb::validation {

struct NcclRow {
    qint64 sizeBytes = 0;
    qint64 count = 0;
    QString type, redop;
    qint64 root = -1;
    double oopTimeUs = 0, oopAlgBw = 0, oopBusBw = 0; // out-of-place
    double ipTimeUs = 0, ipAlgBw = 0, ipBusBw = 0;    // in-place
    QString oopWrong, ipWrong;                        // as printed: "0", "N/A", ...
};

struct NcclResult {
    // One row per message size (size, type, redop, root), in the order each size first appeared
    // (ascending for a normal sweep). A size that comes again (a log of repeated sweeps) keeps its
    // newest figures; the row of the last line read is kept last, so lastOopBusBw() is the log's
    // last row, as AICR reads it. Past kMaxRows distinct sizes the rows are thinned (every
    // `decimation`-th size kept, always the last): a chart and the verdict need no more, and memory
    // stays bounded whatever the log's length.
    static constexpr qsizetype kMaxRows = 16384;
    std::vector<NcclRow> rows;
    qint64 rowsRead = 0;     // data rows read (every line that is a row, repeats included)
    qint64 repeatedRows = 0; // rows whose size was already kept (their figures replaced the older ones)
    int decimation = 1;      // 1: every distinct size is kept; N: one in N (beyond kMaxRows)
    QString collective;      // "all_reduce_perf" when the log names it, else empty
    QString ncclVersion;     // "2.26.2" from "NCCL version 2.26.2+cuda12.8", when present
    QString testsVersion;    // "2.19.6" from "# nccl-tests version ...", when present
    int ranks = 0;           // "#  Rank N ..." device lines seen (or highest N + 1 when the list is cut)
    std::optional<double> footerAvgBusBw; // "# Avg bus bandwidth : X", when printed
    double computedAvgBusBw = 0;          // mean of every busbw, both halves (what the footer means)
    QString netPlugin;                    // X from "NCCL INFO Using network X" (last seen), empty if none
    bool nvlsMulticast = false;           // "NVLS multicast support is available"
    bool nvlsComm = false;                // "NVLS comm 0x..."
    qint64 lines = 0, bytes = 0;          // how much was read
    qint64 longLinesSkipped = 0;          // lines over NcclParser::kMaxLine bytes, skipped unread
    bool headerFound = false;             // a result table header was seen (rows may still be absent)
    QString footerCheck; // "OK" / "FAILED" after the footer average (NCCL_TESTS_MIN_BW), else empty
    // The first row (or footer) with a figure that is not a finite, non-negative number (inf, nan,
    // a negative size): its line and what was wrong. Such a row is not kept; the file is an error.
    qint64 badLine = 0;
    QString badValue;

    bool empty() const { return rows.empty(); }
    // What the rows are of the rows read, when not all: "4369760 rows read, 32 kept (one per message
    // size, the newest of 4369728 repeats)" (and "; one size in N" when thinned); empty otherwise.
    QString keptNote() const;
    // AICR's metric: the out-of-place busbw of the last (largest) row.
    double lastOopBusBw() const { return rows.empty() ? 0 : rows.back().oopBusBw; }
    qint64 lastSizeBytes() const { return rows.empty() ? 0 : rows.back().sizeBytes; }
    double peakBusBw() const;
};

class NcclParser {
  public:
    // A line longer than this is counted in longLinesSkipped and dropped, never buffered whole.
    static constexpr qsizetype kMaxLine = 64 * 1024;
    NcclParser();
    ~NcclParser();
    NcclParser(const NcclParser&) = delete;
    NcclParser& operator=(const NcclParser&) = delete;
    // Feed any number of chunks, split anywhere (even inside a line or a CRLF pair).
    void feed(QByteArrayView chunk);
    // Ends the input and returns what was read.
    NcclResult finish();

  private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// Whole-buffer and whole-file conveniences. An input with no result table is an error that names
// the file and says what was looked for.
Result<NcclResult> parseNccl(QByteArrayView bytes, const QString& file);
// Regular files only (a FIFO or device is refused), streamed in 1 MiB chunks, up to kMaxNcclLogBytes.
constexpr qint64 kMaxNcclLogBytes = 1024ll * 1024 * 1024;
// `alsoHash`, when given, is fed every byte read (one pass for the parse and the file's digest).
Result<NcclResult> parseNcclFile(const QString& path, QCryptographicHash* alsoHash = nullptr);

} // namespace pb::validation
