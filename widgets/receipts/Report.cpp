#include "Report.h"

#include "PerfCharts.h"

#include "db/Database.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>

namespace pb::widgets {

// ---- charts ------------------------------------------------------------------------------------

namespace {

QString slug(const QString& s) {
    QString out;
    for (QChar c : s)
        out += (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('.')) ? c.toLower() : QLatin1Char('-');
    return out;
}

std::optional<validation::Threshold> ncclThreshold(const validation::CheckRun& c) {
    if (c.score)
        for (const validation::ScoredMetric& m : c.score->metrics)
            if (m.threshold)
                return m.threshold;
    return std::nullopt;
}

QByteArray pngOf(const QImage& image) {
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return png;
}

ReportChart chartOf(const QString& coordinate, const QString& title, const QString& fileName, const QImage& image) {
    return ReportChart{coordinate, title, fileName, pngOf(image), image.size()};
}

QImage renderChart(PerfChart& chart, QSize size) {
    chart.resize(size);
    chart.replot(QCustomPlot::rpImmediateRefresh);
    return chart.toPixmap(size.width(), size.height()).toImage();
}

} // namespace

std::vector<ReportChart> renderReportCharts(const ReportData& data, QSize size) {
    std::vector<ReportChart> out;
    for (const CoordinateRuns& cr : data.runs) {
        const QString base = slug(cr.coordinate);
        NcclChart nccl;
        std::optional<validation::Threshold> threshold;
        const validation::CheckRun* inference = nullptr;
        for (const store::StoredRun& run : cr.runs)
            for (const validation::CheckRun& c : run.result.checks) {
                if (c.nccl) {
                    nccl.addRun(QStringLiteral("run %1 %2").arg(run.summary.runUid, c.name), *c.nccl);
                    if (std::optional<validation::Threshold> t = ncclThreshold(c))
                        threshold = t;
                }
                if (c.inference)
                    inference = &c; // the newest run's
            }
        if (nccl.runCount() > 0) {
            nccl.setThreshold(threshold);
            out.push_back(chartOf(cr.coordinate, QStringLiteral("NCCL busbw against message size"),
                                  QStringLiteral("nccl-%1.png").arg(base), renderChart(nccl, size)));
        }
        if (inference) {
            InferenceChart chart;
            chart.setResult(*inference->inference,
                            inference->score ? inference->score->metrics : std::vector<validation::ScoredMetric>{});
            out.push_back(chartOf(cr.coordinate, QStringLiteral("Inference throughput and latency"),
                                  QStringLiteral("inference-%1.png").arg(base), renderChart(chart, size)));
        }
        if (!cr.history.empty()) {
            HistoryChart chart;
            chart.setHistory(cr.historyMetric, cr.history);
            out.push_back(chartOf(cr.coordinate, QStringLiteral("History: %1").arg(cr.historyMetric),
                                  QStringLiteral("history-%1.png").arg(base), renderChart(chart, size)));
        }
    }
    return out;
}

QImage chartImage(const ReportChart& chart) { return QImage::fromData(chart.png, "PNG"); }

report::ReportCharts drawnCharts(const std::vector<ReportChart>& charts) { return report::ReportCharts{charts, true}; }

// ---- PDF ---------------------------------------------------------------------------------------

std::unique_ptr<QTextDocument> reportDocument(const ReportData& data, const std::vector<ReportChart>& charts) {
    auto doc = std::make_unique<QTextDocument>();
    QFont font = doc->defaultFont();
    font.setPointSizeF(9);
    doc->setDefaultFont(font);
    for (const ReportChart& c : charts)
        doc->addResource(QTextDocument::ImageResource, QUrl(c.fileName), chartImage(c));
    doc->setHtml(report::reportHtml(data, drawnCharts(charts), ImageRefs::FileName));
    return doc;
}

namespace {

constexpr int kDpi = 96;
constexpr qreal kFooter = 28; // px at kDpi: the page number line

void setUpWriter(QPdfWriter& writer) {
    writer.setResolution(kDpi);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 15, 15, 12),
                                     QPageLayout::Millimeter));
}

} // namespace

int layoutForPdf(QTextDocument& doc, QPdfWriter& writer) {
    setUpWriter(writer);
    const QRectF page = writer.pageLayout().paintRectPixels(kDpi);
    doc.documentLayout()->setPaintDevice(&writer);
    doc.setPageSize(QSizeF(page.width(), page.height() - kFooter));
    return doc.pageCount();
}

int predictPdfPages(QTextDocument& doc) {
    QBuffer sink;
    sink.open(QIODevice::WriteOnly);
    QPdfWriter writer(&sink);
    const int pages = layoutForPdf(doc, writer);
    doc.documentLayout()->setPaintDevice(nullptr);
    return pages;
}

namespace {

Status printPdf(QTextDocument& doc, QPdfWriter& writer, const QString& title, int* pageCount) {
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("Proofbench"));
    const int pages = layoutForPdf(doc, writer);
    const QSizeF body = doc.pageSize();
    QPainter painter;
    if (!painter.begin(&writer))
        return makeError(QStringLiteral("cannot write the PDF"));
    QFont footerFont = doc.defaultFont();
    footerFont.setPointSizeF(8);
    for (int i = 0; i < pages; ++i) {
        if (i > 0)
            writer.newPage();
        painter.save();
        painter.translate(0, -i * body.height());
        doc.drawContents(&painter, QRectF(0, i * body.height(), body.width(), body.height()));
        painter.restore();
        painter.setFont(footerFont);
        painter.setPen(QColor(0x55, 0x55, 0x55));
        painter.drawText(QRectF(0, body.height() + 6, body.width(), kFooter - 6), Qt::AlignLeft | Qt::AlignVCenter, title);
        painter.drawText(QRectF(0, body.height() + 6, body.width(), kFooter - 6), Qt::AlignRight | Qt::AlignVCenter,
                         QStringLiteral("Page %1 of %2").arg(i + 1).arg(pages));
    }
    painter.end();
    doc.documentLayout()->setPaintDevice(nullptr);
    if (pageCount)
        *pageCount = pages;
    return {};
}

} // namespace

Result<QByteArray> renderPdf(QTextDocument& doc, const QString& title, int* pages) {
    QByteArray bytes;
    {
        QBuffer sink(&bytes);
        sink.open(QIODevice::WriteOnly);
        QPdfWriter writer(&sink);
        if (Status s = printPdf(doc, writer, title, pages); !s)
            return s.error();
    }
    if (bytes.isEmpty())
        return makeError(QStringLiteral("the PDF is empty"));
    return bytes;
}

Status writePdf(QTextDocument& doc, const QString& path, const QString& title) {
    {
        QPdfWriter writer(path);
        if (Status s = printPdf(doc, writer, title, nullptr); !s)
            return makeError(QStringLiteral("%1: %2").arg(path, s.error().toString()));
    }
    if (QFileInfo(path).size() == 0)
        return makeError(QStringLiteral("%1: the PDF is empty").arg(path));
    return {};
}

// ---- output ------------------------------------------------------------------------------------

Result<ReportOutput> writeReport(db::Database& db, const ReportData& data, const std::vector<ReportChart>& charts,
                                 ReportFormat format, const QString& path) {
    ops::ReportExportRequest request;
    request.format = format;
    request.path = path;
    request.data = data;
    request.charts = drawnCharts(charts);
    if (format == ReportFormat::Pdf) {
        std::unique_ptr<QTextDocument> doc = reportDocument(data, charts);
        request.pages = predictPdfPages(*doc);
        Result<QByteArray> pdf = renderPdf(*doc, QStringLiteral("Release review: catalog %1%2")
                                                     .arg(data.version.label, data.version.isSample()
                                                                                  ? QStringLiteral(" (sample data)")
                                                                                  : QString()));
        if (!pdf)
            return makeError(QStringLiteral("%1: %2").arg(path, pdf.error().toString()));
        request.pdf = std::move(*pdf);
    }
    return ops::exportReport(ops::Context(db), request);
}

Result<ReportOutput> exportReport(db::Database& db, const ReportOptions& options, ReportFormat format, const QString& path) {
    Result<ReportData> data = collectReport(db, options);
    if (!data)
        return data.error();
    return writeReport(db, *data, renderReportCharts(*data), format, path);
}

} // namespace pb::widgets
