// The release review report's data and text: one document a release manager hands to a reviewer.
// collectReport() reads the database (catalog version, health table, evidence and bundle checks,
// runs, catalog diff, receipts chain); reportHtml() and reportMarkdown() write it as text. None of
// this needs Qt Gui. The performance charts and the PDF are pb_report's (report/render/: Qt Gui, no
// widgets), handed in as PNG bytes; without them the text says where the charts are.
// ops::exportReport (ops/ReportExport.h) writes the file(s) and the report.export receipt;
// ops::exportReport with report::renderReport (render/ReportRender.h) is what the CLI and the
// window both call.
#pragma once

#include <functional>

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
QString reportSuffix(ReportFormat f); // "html", "pdf", "md"

struct ReportOptions {
    QString version;  // catalog version label; empty: the newest in version order
    QString filter;   // case-insensitive text in the recipe name or its criteria; empty: all
    QString baseline; // the version "changes since" compares with; empty: the one before `version` in
                      // version order; kNoBaseline: no comparison
};

// ReportOptions::baseline for "compare with nothing".
inline const QString kNoBaseline = QStringLiteral("none");

struct ReportProblem {
    QString recipe;
    QString kind; // "stale", "pending", "failed", "invalid"
    QString reason;
};

struct CoordinateEvidence {
    QString recipe;   // as the views name it (HealthRow::displayName())
    QString mismatch; // a stale or outside row: which pointers name it and why they no longer match
    std::vector<evidence::Pointer> pointers;
    std::vector<store::BundleRecord> bundles; // newest first, each with its stored check steps
};

struct CoordinateRuns {
    QString coordinate;
    std::vector<store::StoredRun> runs; // runs with performance data, oldest first (at most 3)
    QString historyMetric;
    std::vector<store::HistoryPoint> history; // that metric over time
    // What the table and the History chart each count, said under the table: the table lists the
    // newest runs with performance data (at most 3), the chart every stored run with the metric.
    int historyRuns() const; // distinct runs the History chart plots
    QString countsNote() const;
};

struct ReportData {
    ReportOptions options;
    QString toolVersion;
    QDateTime generatedAt; // UTC: the newest receipt's time (else the version's import), not the clock
    store::CatalogVersionInfo version;
    QString previousLabel; // the version just before it in version order; empty when none
    // The version the changes are counted from: the one chosen, else the default
    // (store::defaultBaselineIndex). Unset when there is none or the user chose none.
    std::optional<store::CatalogVersionInfo> baseline;
    QString noBaselineReason;                 // why there is no default baseline (store::noBaselineReason)
    std::vector<evidence::HealthRow> rows;    // every row of the health table (after the filter)
    std::vector<CoordinateEvidence> evidence; // rows that have pointers or bundles
    std::vector<CoordinateRuns> runs;         // coordinates with stored runs (after the filter)
    std::optional<catalog::CatalogDiff> diff;
    QString diffNote; // why there is no diff
    std::vector<ReportProblem> problems;
    receipts::ChainCheck chain;

    // Rows per status, in the report's status order (statuses with no row included, as 0).
    std::vector<std::pair<evidence::HealthStatus, int>> statusCounts() const;
};

Result<ReportData> collectReport(db::Database& db, const ReportOptions& options);

// The baseline a report of `label` compares with by default: the version just before it in
// version order (`versions` as CatalogStore::versions() gives them), except the sample data before
// a real version (comparing a real catalog with the sample says nothing). Empty when none.
QString defaultBaseline(const std::vector<store::CatalogVersionInfo>& versions, const QString& label);

// A performance chart as drawn by pb_report (render/ChartPainter.h): the PNG bytes and their size in pixels.
struct ReportChart {
    QString coordinate;
    QString title;    // "NCCL busbw", "Inference", "History: busbw"
    QString fileName; // "nccl-<coordinate>.png": the PNG's name beside a Markdown report, and the
                      // resource name inside the PDF/preview document
    QByteArray png;
    QSize size; // pixels
};

// The charts a report is written with: drawn (possibly none, when no coordinate has runs), or not
// drawn at all (no display toolkit: the text then says so where the charts would be).
struct ReportCharts {
    std::vector<ReportChart> list;
    bool drawn = false;
};

// What pb_report draws for a collected report (report/render/ReportRender.h, renderReport): its
// charts and, for a PDF, the laid-out document and its page count.
struct RenderedReport {
    ReportCharts charts;
    QByteArray pdf;
    int pages = 0;
};
// The renderer ops::exportReport calls on the data it collected; both faces hand it
// report::renderReport, so the engine below pb_report never depends on Qt Gui.
using ReportRenderer = std::function<Result<RenderedReport>(const ReportData& data, ReportFormat format)>;

// Charts as data: URIs (a stand-alone HTML file), or by their file names (a QTextDocument that has
// them as resources: the preview and the PDF).
enum class ImageRefs { DataUri, FileName };
QString reportHtml(const ReportData& data, const ReportCharts& charts, ImageRefs refs = ImageRefs::DataUri);
// `chartDir`: the directory the chart PNGs are written to, relative to the .md file.
QString reportMarkdown(const ReportData& data, const ReportCharts& charts, const QString& chartDir);

// The directory a Markdown report's charts go to, relative to it: "<name>-charts".
QString markdownChartDir(const QString& reportPath);
// The sentence that marks a report of the sample catalog.
QString sampleNote();
// The sentence written where the charts would be when they were not drawn.
QString chartsNotDrawnNote();

} // namespace pb::report
