// The release review report's data and text: one document a release manager hands to a reviewer.
// collectReport() reads the database (catalog version, health table, evidence and bundle checks,
// runs, catalog diff, receipts chain); reportHtml() and reportMarkdown() write it as text. None of
// this needs Qt Gui: `proofbench report --format html|markdown` runs on the engine alone. The
// performance charts are drawn by the widgets (QCustomPlot) and handed in as PNG bytes; without
// them the text says where the charts are (the PDF and the window's report). ops::exportReport
// (ops/ReportExport.h) writes the file(s) and the report.export receipt.
#pragma once

#include "catalog/Diff.h"
#include "core/Result.h"
#include "evidence/Evidence.h"
#include "evidence/Health.h"
#include "receipts/Ledger.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"
#include "store/RunStore.h"

#include <QByteArray>
#include <QDateTime>
#include <QSize>
#include <QString>

#include <optional>
#include <vector>

namespace pb::db {
class Database;
}

namespace pb::report {

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
    std::vector<evidence::HealthRow> rows;     // every row of the health table (after the filter)
    std::vector<CoordinateEvidence> evidence;  // rows that have pointers or bundles
    std::vector<CoordinateRuns> runs;          // coordinates with stored runs (after the filter)
    std::optional<catalog::CatalogDiff> diff;
    QString diffNote;                          // why there is no diff
    std::vector<ReportProblem> problems;
    receipts::ChainCheck chain;

    // Rows per status, in the report's status order (statuses with no row included, as 0).
    std::vector<std::pair<evidence::HealthStatus, int>> statusCounts() const;
};

Result<ReportData> collectReport(db::Database& db, const ReportOptions& options);

// A performance chart as drawn by the widgets: the PNG bytes and their size in pixels.
struct ReportChart {
    QString coordinate;
    QString title;    // "NCCL busbw", "Inference", "History: busbw"
    QString fileName; // "nccl-<coordinate>.png": the PNG's name beside a Markdown report, and the
                      // resource name inside the PDF/preview document
    QByteArray png;
    QSize size;       // pixels
};

// The charts a report is written with: drawn (possibly none, when no coordinate has runs), or not
// drawn at all (no display toolkit: the text then says so where the charts would be).
struct ReportCharts {
    std::vector<ReportChart> list;
    bool drawn = false;
};

// Charts as data: URIs (a stand-alone HTML file), or by their file names (a QTextDocument that has
// them as resources: the preview and the PDF).
enum class ImageRefs { DataUri, FileName };
QString reportHtml(const ReportData& data, const ReportCharts& charts, ImageRefs refs = ImageRefs::DataUri);
// `chartDir`: the directory the chart PNGs are written to, relative to the .md file.
QString reportMarkdown(const ReportData& data, const ReportCharts& charts, const QString& chartDir);

// The directory a Markdown report's charts go to, relative to it: "<name>-charts".
QString markdownChartDir(const QString& reportPath);
// The sentence written where the charts would be when they were not drawn.
QString chartsNotDrawnNote();

} // namespace pb::report
