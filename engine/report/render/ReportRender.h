// The release review report, the parts that need Qt Gui but no widgets (library pb_report): the
// performance charts (ChartSpec.h computed from the report's runs, ChartPainter.h drawn to PNG) and
// the A4 PDF (the HTML laid out as a QTextDocument on a QPdfWriter, page numbers in the footer).
// The CLI (`proofbench report`) and the window's report dialog both hand renderReport to
// ops::exportReport, so for one database they write the same bytes. Everything is deterministic:
// fixed fonts and resolution, and the PDF's creation date and document id come from the data.
//
//   collectReport()       engine reads only (report/Report.h)
//   renderReportCharts()  the charts as PNGs; needs a QGuiApplication (offscreen is enough)
//   renderReport()        charts and PDF for ops::exportReport (ReportExportRequest::render), which
//                         writes the file(s) and the receipt
#pragma once

#include "core/Result.h"
#include "report/Report.h"
#include "report/render/ChartSpec.h"

#include <QImage>
#include <QRectF>
#include <QSize>
#include <QString>

#include <memory>
#include <vector>

class QPdfWriter;
class QTextDocument;

namespace pb::report {

// A chart of the report before it is drawn: what and where.
struct ReportChartSpec {
    QString coordinate;
    QString title;
    QString fileName;
    ChartSpec spec;
};

// The NCCL, inference and history charts of every coordinate with runs, in report order.
std::vector<ReportChartSpec> reportChartSpecs(const ReportData& data);
// Those charts drawn to PNGs of `size` pixels.
std::vector<ReportChart> renderReportCharts(const ReportData& data, QSize size = QSize(1000, 460));
QImage chartImage(const ReportChart& chart);
ReportCharts drawnCharts(const std::vector<ReportChart>& charts);

// The HTML with the charts as image resources, for the preview and the PDF.
std::unique_ptr<QTextDocument> reportDocument(const ReportData& data, const std::vector<ReportChart>& charts);
// A4, 15 mm margins, 96 dpi, a footer line for the page number: `doc` laid out for `writer` as one
// long page, and the slice of it each PDF page shows (document coordinates). A page ends above any
// line or table row that would not fit whole, so no row is split across pages (only something
// taller than a page is cut).
std::vector<QRectF> pdfPages(QTextDocument& doc, QPdfWriter& writer);
// pdfPages' count.
int layoutForPdf(QTextDocument& doc, QPdfWriter& writer);
int predictPdfPages(QTextDocument& doc);
// The PDF of `doc`, in memory; its creation date is `created` (UTC) and its document id is derived
// from its content, so the same document gives the same bytes.
Result<QByteArray> renderPdf(QTextDocument& doc, const QString& title, const QDateTime& created,
                             int* pages = nullptr);
QString pdfTitle(const ReportData& data);

// The charts of `data` drawn and, for a PDF, the document laid out and printed: what
// ops::exportReport writes (a report::ReportRenderer).
Result<RenderedReport> renderReport(const ReportData& data, ReportFormat format);

} // namespace pb::report
