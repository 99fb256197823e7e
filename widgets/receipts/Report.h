// The release review report: one document a release manager hands to a reviewer. It reads the
// database (catalog version, health table, evidence and bundle checks, runs, catalog diff, receipts
// chain), renders the performance charts with the Validation view's own QCustomPlot classes
// (PerfCharts.h) off-screen, and writes HTML (charts as data: URIs), Markdown (charts as PNG files
// beside it) or an A4 PDF (QTextDocument laid out on a QPdfWriter, page numbers in the footer).
// Every export leaves a "report.export" receipt naming the file and its sha256.
//
//   collectReport()       engine reads only; runs on a worker thread with its own connection
//   renderReportCharts()  GUI thread (QCustomPlot is a widget)
//   writeReport()         the file(s) and the receipt
//   exportReport()        all three, for the CLI
#pragma once

#include "catalog/Diff.h"
#include "core/Result.h"
#include "evidence/Evidence.h"
#include "receipts/Ledger.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"
#include "store/RunStore.h"

#include <QDateTime>
#include <QImage>
#include <QSize>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QPdfWriter;
class QTextDocument;

namespace pb::db {
class Database;
}

namespace pb::widgets {

enum class ReportFormat { Html, Pdf, Markdown };
QString reportFormatName(ReportFormat f); // "html", "pdf", "markdown"
std::optional<ReportFormat> parseReportFormat(const QString& s);
QString reportSuffix(ReportFormat f);     // "html", "pdf", "md"

struct ReportOptions {
    QString version; // catalog version label; empty: the newest imported
    QString filter;  // case-insensitive text in the recipe name or its criteria; empty: all
};

struct ReportProblem {
    QString recipe;
    QString kind;   // "stale", "pending", "failed", "invalid"
    QString reason;
};

struct CoordinateEvidence {
    QString recipe;
    std::vector<evidence::Pointer> pointers;
    std::vector<store::BundleRecord> bundles; // newest first, each with its stored check steps
};

struct CoordinateRuns {
    QString coordinate;
    std::vector<store::StoredRun> runs;        // runs with performance data, oldest first (at most 3)
    QString historyMetric;
    std::vector<store::HistoryPoint> history;  // that metric over time
};

struct ReportData {
    ReportOptions options;
    QString toolVersion;
    QDateTime generatedAt; // UTC
    store::CatalogVersionInfo version;
    QString previousLabel; // the catalog version imported before it; empty when none
    std::vector<store::HealthRow> rows;        // every row of the health table (after the filter)
    std::vector<CoordinateEvidence> evidence;  // rows that have pointers or bundles
    std::vector<CoordinateRuns> runs;          // coordinates with stored runs (after the filter)
    std::optional<catalog::CatalogDiff> diff;
    QString diffNote;                          // why there is no diff
    std::vector<ReportProblem> problems;
    receipts::ChainCheck chain;

    // Rows per status, in HealthStatus order (statuses with no row included, as 0).
    std::vector<std::pair<store::HealthStatus, int>> statusCounts() const;
};

Result<ReportData> collectReport(db::Database& db, const ReportOptions& options);

struct ReportChart {
    QString coordinate;
    QString title;    // "NCCL busbw", "Inference", "History: busbw"
    QString fileName; // "nccl-<coordinate>.png": the PNG's name beside a Markdown report, and the
                      // resource name inside the PDF/preview document
    QImage image;
};

// NcclChart, InferenceChart and HistoryChart for every coordinate with runs, rendered to images of
// `size` pixels. GUI thread.
std::vector<ReportChart> renderReportCharts(const ReportData& data, QSize size = QSize(1000, 460));

// Charts as data: URIs (a stand-alone HTML file), or by their file names (a QTextDocument that has
// them as resources: the preview and the PDF).
enum class ImageRefs { DataUri, FileName };
QString reportHtml(const ReportData& data, const std::vector<ReportChart>& charts, ImageRefs refs = ImageRefs::DataUri);
// `chartDir`: the directory the chart PNGs are written to, relative to the .md file.
QString reportMarkdown(const ReportData& data, const std::vector<ReportChart>& charts, const QString& chartDir);

// The HTML with the charts as image resources, for the preview and the PDF.
std::unique_ptr<QTextDocument> reportDocument(const ReportData& data, const std::vector<ReportChart>& charts);

// A4, 15 mm margins, 96 dpi, a footer line for the page number: the PDF's layout. Sets the
// document's page size and paint device; returns the page count.
int layoutForPdf(QTextDocument& doc, QPdfWriter& writer);
// The page count the PDF of `doc` will have (lays it out on a PDF writer to memory).
int predictPdfPages(QTextDocument& doc);
Status writePdf(QTextDocument& doc, const QString& path, const QString& title);

struct ReportOutput {
    QString path;
    QString sha256;        // of the report file
    QStringList chartFiles; // Markdown: the PNGs written beside it
    int pages = 0;          // PDF only
    qint64 receiptSeq = 0;
};

// Writes the report and its "report.export" receipt (through the ledger of `db`).
Result<ReportOutput> writeReport(db::Database& db, const ReportData& data, const std::vector<ReportChart>& charts,
                                 ReportFormat format, const QString& path);
// collectReport + renderReportCharts + writeReport (the CLI; GUI thread).
Result<ReportOutput> exportReport(db::Database& db, const ReportOptions& options, ReportFormat format,
                                  const QString& path);

} // namespace pb::widgets
