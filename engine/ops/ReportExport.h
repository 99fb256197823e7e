// Export the release review report (CLI `proofbench report`, the window's Release review report
// dialog): the report file (and, for Markdown, its chart PNGs) and the report.export receipt, as
// one step: the files are staged beside their destination and moved into place inside the
// receipt's transaction. HTML and Markdown are written here, on the engine alone; pb_report
// (report/render/ReportRender.h, Qt Gui, no widgets) draws the charts and lays out the PDF through
// the request's renderer: both the CLI and the window pass report::renderReport.
#pragma once

#include "ops/Operation.h"
#include "report/Report.h"

#include <optional>

namespace pb::ops {

struct ReportExportRequest {
    report::ReportFormat format = report::ReportFormat::Html;
    QString path;                           // the report file
    report::ReportOptions options;          // what to collect, unless `data` is given
    std::optional<report::ReportData> data; // already collected (the window's preview)
    // Draws the collected data (report::renderReport from pb_report); when set, it replaces the
    // three fields below. Both faces set it, so they write the same bytes.
    report::ReportRenderer render;
    report::ReportCharts charts; // drawn by pb_report; not drawn: the text says so
    // PDF only: the document pb_report laid out and printed, and its page count.
    QByteArray pdf;
    int pages = 0;
};

struct ReportExportOutcome {
    QString path;           // absolute
    QString sha256;         // of the report file
    QStringList chartFiles; // Markdown: the PNGs written beside it
    int pages = 0;          // PDF only
    qint64 receiptSeq = 0;
};

Result<ReportExportOutcome> exportReport(const Context& ctx, const ReportExportRequest& request);

} // namespace pb::ops
