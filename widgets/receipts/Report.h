// The release review report, the parts that need Qt Gui: the performance charts, drawn with the
// Validation view's own QCustomPlot classes (PerfCharts.h) off-screen, and the A4 PDF (the HTML
// laid out as a QTextDocument on a QPdfWriter, page numbers in the footer). The report's data and
// its HTML and Markdown text are the engine's (report/Report.h); the file(s) and the report.export
// receipt are written by ops::exportReport (ops/ReportExport.h).
//
//   collectReport()       engine reads only; runs on a worker thread with its own connection
//   renderReportCharts()  GUI thread (QCustomPlot is a widget)
//   writeReport()         the file(s) and the receipt, through ops::exportReport
//   exportReport()        all three (charts included), as the window's report writes it
#pragma once

#include "core/Result.h"
#include "ops/ReportExport.h"
#include "report/Report.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <memory>
#include <vector>

class QPdfWriter;
class QTextDocument;

namespace pb::db {
class Database;
}

namespace pb::widgets {

using report::collectReport;
using report::CoordinateEvidence;
using report::CoordinateRuns;
using report::ImageRefs;
using report::parseReportFormat;
using report::ReportChart;
using report::ReportData;
using report::ReportFormat;
using report::reportFormatName;
using report::ReportOptions;
using report::ReportProblem;
using report::reportSuffix;
using ReportOutput = ops::ReportExportOutcome;

// NcclChart, InferenceChart and HistoryChart for every coordinate with runs, rendered to PNGs of
// `size` pixels. GUI thread.
std::vector<ReportChart> renderReportCharts(const ReportData& data, QSize size = QSize(1000, 460));
// A chart's PNG as an image.
QImage chartImage(const ReportChart& chart);
// Drawn charts, as the engine's text functions take them.
report::ReportCharts drawnCharts(const std::vector<ReportChart>& charts);

// The HTML with the charts as image resources, for the preview and the PDF.
std::unique_ptr<QTextDocument> reportDocument(const ReportData& data, const std::vector<ReportChart>& charts);

// A4, 15 mm margins, 96 dpi, a footer line for the page number: the PDF's layout. Sets the
// document's page size and paint device; returns the page count.
int layoutForPdf(QTextDocument& doc, QPdfWriter& writer);
// The page count the PDF of `doc` will have (lays it out on a PDF writer to memory).
int predictPdfPages(QTextDocument& doc);
// The PDF of `doc`, in memory; `pages` (optional) receives its page count.
Result<QByteArray> renderPdf(QTextDocument& doc, const QString& title, int* pages = nullptr);
Status writePdf(QTextDocument& doc, const QString& path, const QString& title);

// Writes the report and its "report.export" receipt (ops::exportReport on `db`), charts included.
Result<ReportOutput> writeReport(db::Database& db, const ReportData& data, const std::vector<ReportChart>& charts,
                                 ReportFormat format, const QString& path);
// collectReport + renderReportCharts + writeReport (GUI thread).
Result<ReportOutput> exportReport(db::Database& db, const ReportOptions& options, ReportFormat format,
                                  const QString& path);

} // namespace pb::widgets
