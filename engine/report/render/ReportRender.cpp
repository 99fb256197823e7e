#include "report/render/ReportRender.h"

#include "report/render/ChartPainter.h"

#include "core/Hash.h"
#include "db/Database.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QHashSeed>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <QTimeZone>
#include <QUrl>

#include <functional>
#include <limits>

namespace pb::report {

// ---- charts ------------------------------------------------------------------------------------

namespace {

QString slug(const QString& s) {
    QString out;
    for (QChar c : s)
        out += (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('.')) ? c.toLower()
                                                                                        : QLatin1Char('-');
    return out;
}

std::optional<validation::Threshold> ncclThreshold(const validation::CheckRun& c) {
    if (c.score)
        for (const validation::ScoredMetric& m : c.score->metrics)
            if (m.threshold)
                return m.threshold;
    return std::nullopt;
}

void coordinateSpecs(const CoordinateRuns& cr, std::vector<ReportChartSpec>& out) {
    const QString base = slug(cr.coordinate);
    std::vector<NcclRunInput> nccl;
    std::optional<validation::Threshold> threshold;
    const validation::CheckRun* inference = nullptr;
    for (const store::StoredRun& run : cr.runs)
        for (const validation::CheckRun& c : run.result.checks) {
            if (c.nccl) {
                nccl.push_back(
                    NcclRunInput{QStringLiteral("run %1 %2").arg(run.summary.runUid, c.name), *c.nccl});
                if (std::optional<validation::Threshold> t = ncclThreshold(c))
                    threshold = t;
            }
            if (c.inference)
                inference = &c; // the newest run's
        }
    ChartSpec ncclSpec = ncclChartSpec(nccl, threshold);
    if (!ncclSpec.empty)
        out.push_back(ReportChartSpec{cr.coordinate, QStringLiteral("NCCL busbw against message size"),
                                      QStringLiteral("nccl-%1.png").arg(base), std::move(ncclSpec)});
    if (inference)
        out.push_back(
            ReportChartSpec{cr.coordinate, QStringLiteral("Inference throughput and latency"),
                            QStringLiteral("inference-%1.png").arg(base),
                            inferenceChartSpec(&*inference->inference,
                                               inference->score ? inference->score->metrics
                                                                : std::vector<validation::ScoredMetric>{})});
    if (!cr.history.empty())
        out.push_back(ReportChartSpec{cr.coordinate, QStringLiteral("History: %1").arg(cr.historyMetric),
                                      QStringLiteral("history-%1.png").arg(base),
                                      historyChartSpec(cr.historyMetric, cr.history)});
}

} // namespace

std::vector<ReportChartSpec> reportChartSpecs(const ReportData& data) {
    std::vector<ReportChartSpec> out;
    for (const CoordinateRuns& cr : data.runs)
        coordinateSpecs(cr, out);
    return out;
}

std::vector<ReportChart> renderReportCharts(const ReportData& data, QSize size) {
    std::vector<ReportChart> out;
    for (const ReportChartSpec& c : reportChartSpecs(data))
        out.push_back(ReportChart{c.coordinate, c.title, c.fileName, chartPng(c.spec, size), size});
    return out;
}

QImage chartImage(const ReportChart& chart) {
    return QImage::fromData(chart.png, "PNG");
}

ReportCharts drawnCharts(const std::vector<ReportChart>& charts) {
    return ReportCharts{charts, true};
}

// ---- PDF ---------------------------------------------------------------------------------------

std::unique_ptr<QTextDocument> reportDocument(const ReportData& data,
                                              const std::vector<ReportChart>& charts) {
    auto doc = std::make_unique<QTextDocument>();
    // A fixed family: the window's QApplication and the CLI's QGuiApplication lay out the same text.
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(9);
    doc->setDefaultFont(font);
    for (const ReportChart& c : charts)
        doc->addResource(QTextDocument::ImageResource, QUrl(c.fileName), chartImage(c));
    doc->setHtml(reportHtml(data, drawnCharts(charts), ImageRefs::FileName));
    return doc;
}

namespace {

constexpr int kDpi = 96;
constexpr qreal kFooter = 28; // px at kDpi: the page number line

void setUpWriter(QPdfWriter& writer) {
    writer.setResolution(kDpi);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                     QMarginsF(15, 15, 15, 12), QPageLayout::Millimeter));
}

Status printPdf(QTextDocument& doc, QPdfWriter& writer, const QString& title, int* pageCount) {
    const std::vector<QRectF> pages = pdfPages(doc, writer);
    const qreal width = doc.textWidth();
    const qreal bodyHeight = writer.pageLayout().paintRectPixels(kDpi).height() - kFooter;
    QPainter painter;
    if (!painter.begin(&writer))
        return makeError(QStringLiteral("cannot write the PDF"));
    QFont footerFont = doc.defaultFont();
    footerFont.setPointSizeF(8);
    const int count = int(pages.size());
    for (int i = 0; i < count; ++i) {
        if (i > 0)
            writer.newPage();
        // The slice of the one long page this PDF page shows: whatever lies past its end is clipped
        // here and starts the next page.
        // The rectangle is drawn a hair inside its ends: a line or image that only touches a page's
        // end belongs to the page beside it, and is not drawn (clipped away) on this one as well.
        painter.save();
        painter.translate(0, -pages[size_t(i)].top());
        doc.drawContents(&painter, pages[size_t(i)].adjusted(0, 0.05, 0, -0.05));
        painter.restore();
        painter.setFont(footerFont);
        painter.setPen(QColor(0x55, 0x55, 0x55));
        const QRectF footer(0, bodyHeight + 6, width, kFooter - 6);
        painter.drawText(footer, Qt::AlignLeft | Qt::AlignVCenter, title);
        painter.drawText(footer, Qt::AlignRight | Qt::AlignVCenter,
                         QStringLiteral("Page %1 of %2").arg(i + 1).arg(count));
    }
    painter.end();
    doc.documentLayout()->setPaintDevice(nullptr);
    if (pageCount)
        *pageCount = count;
    return {};
}

// The XMP packet Qt would write, with the given date and id (Qt's own has the time of writing and
// a random uuid).
QByteArray xmpMetadata(const QString& title, const QDateTime& created, const QString& id) {
    const QString date = created.toUTC().toString(Qt::ISODate);
    return QStringLiteral(
               "<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>\n"
               "<x:xmpmeta xmlns:x='adobe:ns:meta/'>\n"
               "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\n"
               "<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'>\n"
               "<dc:title><rdf:Alt><rdf:li xml:lang='x-default'>%1</rdf:li></rdf:Alt></dc:title>\n"
               "</rdf:Description>\n"
               "<rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/'>\n"
               "<xmp:CreatorTool>Proofbench</xmp:CreatorTool>\n"
               "<xmp:CreateDate>%2</xmp:CreateDate>\n<xmp:ModifyDate>%2</xmp:ModifyDate>\n"
               "<xmp:MetadataDate>%2</xmp:MetadataDate>\n"
               "</rdf:Description>\n"
               "<rdf:Description rdf:about='' xmlns:xmpMM='http://ns.adobe.com/xap/1.0/mm/'>\n"
               "<xmpMM:DocumentID>uuid:%3</xmpMM:DocumentID>\n<xmpMM:InstanceID>uuid:%3</xmpMM:InstanceID>\n"
               "</rdf:Description>\n"
               "</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end='w'?>\n")
        .arg(title.toHtmlEscaped(), date, id)
        .toUtf8();
}

// Rewrites, in place and at the same length (the cross-reference offsets stay valid), what Qt
// writes from the clock and from random numbers: the Info dictionary's /CreationDate and the
// trailer's /ID.
void pinVolatileFields(QByteArray& pdf, const QDateTime& created, const QByteArray& idHex) {
    static const QRegularExpression date(QStringLiteral("/CreationDate \\(D:([^)]*)\\)"));
    static const QRegularExpression id(QStringLiteral("/ID \\[\\s*<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]+)>"));
    const QString text = QString::fromLatin1(pdf);
    for (auto it = date.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QByteArray value = created.toUTC().toString(QStringLiteral("yyyyMMddHHmmss")).toLatin1() + "Z";
        pdf.replace(m.capturedStart(1), m.capturedLength(1),
                    value.leftJustified(m.capturedLength(1), ' ', true));
    }
    for (auto it = id.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        for (int g = 1; g <= 2; ++g)
            pdf.replace(m.capturedStart(g), m.capturedLength(g), idHex.repeated(4).left(m.capturedLength(g)));
    }
}

} // namespace

namespace {

// What must not be cut by a page end, as [top, bottom) in document coordinates: every line of text
// (an image is a line too) and every table row, all its cells together.
std::vector<std::pair<qreal, qreal>> keepTogether(QTextDocument& doc) {
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    std::vector<std::pair<qreal, qreal>> spans;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        const QPointF at = layout->blockBoundingRect(b).topLeft();
        const QTextLayout* text = b.layout();
        for (int i = 0; text && i < text->lineCount(); ++i) {
            const QRectF line = text->lineAt(i).rect().translated(at);
            spans.emplace_back(line.top(), line.bottom());
        }
        // A heading stays with the first line (or table row) after it.
        if (b.blockFormat().headingLevel() > 0 && b.next().isValid()) {
            const QTextBlock next = b.next();
            const QTextLayout* nextText = next.layout();
            const QRectF nextRect = layout->blockBoundingRect(next);
            const qreal end = nextText && nextText->lineCount() > 0
                                  ? nextRect.top() + nextText->lineAt(0).rect().bottom()
                                  : nextRect.bottom();
            spans.emplace_back(layout->blockBoundingRect(b).top(), end);
        }
    }
    std::function<void(QTextFrame*)> walk = [&](QTextFrame* frame) {
        for (QTextFrame* child : frame->childFrames()) {
            if (const auto* table = qobject_cast<QTextTable*>(child)) {
                const QTextTableFormat f = table->format();
                const qreal pad = f.cellPadding() + f.border() + f.cellSpacing();
                std::vector<std::pair<qreal, qreal>> rows;
                for (int row = 0; row < table->rows(); ++row) {
                    qreal top = std::numeric_limits<qreal>::max(),
                          bottom = std::numeric_limits<qreal>::lowest();
                    for (int col = 0; col < table->columns(); ++col) {
                        const QTextTableCell cell = table->cellAt(row, col);
                        if (!cell.isValid() || cell.row() != row || cell.column() != col)
                            continue; // covered by a spanning cell
                        for (QTextFrame::iterator it = cell.begin(); !it.atEnd(); ++it) {
                            const QTextBlock b = it.currentBlock();
                            if (!b.isValid())
                                continue;
                            const QRectF r = layout->blockBoundingRect(b);
                            top = std::min(top, r.top());
                            bottom = std::max(bottom, r.bottom());
                        }
                    }
                    // From above its top padding and border to its text's end: the next row's span
                    // begins below this one's text, so adjacent rows never overlap (an overlap
                    // would move a page end up row after row).
                    if (top < bottom)
                        rows.emplace_back(top - pad, bottom);
                }
                spans.insert(spans.end(), rows.begin(), rows.end());
                // The header row stays with the first row under it.
                if (rows.size() > 1)
                    spans.emplace_back(rows[0].first, rows[1].second);
            }
            walk(child);
        }
    };
    walk(doc.rootFrame());
    return spans;
}

} // namespace

std::vector<QRectF> pdfPages(QTextDocument& doc, QPdfWriter& writer) {
    setUpWriter(writer);
    const QRectF page = writer.pageLayout().paintRectPixels(kDpi);
    const qreal height = page.height() - kFooter;
    doc.documentLayout()->setPaintDevice(&writer);
    // One long page: the document is cut into pages here, where no line and no table row is cut
    // (Qt's own pagination moves lines, not rows: a row's cells ended on two pages).
    doc.setPageSize(QSizeF(page.width(), -1));
    const qreal total = doc.documentLayout()->documentSize().height();
    const std::vector<std::pair<qreal, qreal>> spans = keepTogether(doc);
    constexpr qreal kEpsilon = 0.5;
    std::vector<QRectF> pages;
    qreal from = 0;
    while (total - from > height + kEpsilon) {
        qreal cut = from + height;
        // Move the end up to the top of whatever it would cut, until it cuts nothing; something
        // taller than a page (that began on this one) is cut where the page ends after all.
        for (bool moved = true; moved;) {
            moved = false;
            for (const auto& [top, bottom] : spans)
                if (top > from + kEpsilon && top < cut - kEpsilon && bottom > cut + kEpsilon) {
                    cut = top;
                    moved = true;
                }
        }
        if (cut <= from + kEpsilon)
            cut = from + height;
        pages.emplace_back(0, from, page.width(), cut - from);
        from = cut;
    }
    pages.emplace_back(0, from, page.width(), std::max<qreal>(total - from, 1));
    return pages;
}

int layoutForPdf(QTextDocument& doc, QPdfWriter& writer) {
    return int(pdfPages(doc, writer).size());
}

int predictPdfPages(QTextDocument& doc) {
    QBuffer sink;
    sink.open(QIODevice::WriteOnly);
    QPdfWriter writer(&sink);
    const int pages = layoutForPdf(doc, writer);
    doc.documentLayout()->setPaintDevice(nullptr);
    return pages;
}

Result<QByteArray> renderPdf(QTextDocument& doc, const QString& title, const QDateTime& created, int* pages) {
    // The document id: a digest of what the PDF shows (its HTML and title) and when it was made.
    const QByteArray idHex =
        sha256Hex((doc.toHtml() + title + created.toString(Qt::ISODate)).toUtf8()).left(32).toLatin1();
    const QString uuid =
        QStringLiteral("%1-%2-%3-%4-%5")
            .arg(QString::fromLatin1(idHex.mid(0, 8)), QString::fromLatin1(idHex.mid(8, 4)),
                 QString::fromLatin1(idHex.mid(12, 4)), QString::fromLatin1(idHex.mid(16, 4)),
                 QString::fromLatin1(idHex.mid(20, 12)));
    QByteArray bytes;
    {
        // Qt's PDF engine keeps the document's fonts in a QHash and writes them in its order, which
        // follows the process's random hash seed: a fixed seed while printing fixes their order.
        const struct FixedHashSeed {
            FixedHashSeed() { QHashSeed::setDeterministicGlobalSeed(); }
            ~FixedHashSeed() { QHashSeed::resetRandomGlobalSeed(); }
        } fixedSeed;
        QBuffer sink(&bytes);
        sink.open(QIODevice::WriteOnly);
        QPdfWriter writer(&sink);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("Proofbench"));
        writer.setDocumentXmpMetadata(xmpMetadata(title, created, uuid));
        if (Status s = printPdf(doc, writer, title, pages); !s)
            return s.error();
    }
    if (bytes.isEmpty())
        return makeError(QStringLiteral("the PDF is empty"));
    pinVolatileFields(bytes, created, idHex);
    return bytes;
}

QString pdfTitle(const ReportData& data) {
    return QStringLiteral("Release review: catalog %1%2")
        .arg(data.version.label, data.version.isSample() ? QStringLiteral(" (sample data)") : QString());
}

// ---- output ------------------------------------------------------------------------------------

Result<RenderedReport> renderReport(const ReportData& data, ReportFormat format) {
    const std::vector<ReportChart> charts = renderReportCharts(data);
    RenderedReport out;
    out.charts = drawnCharts(charts);
    if (format == ReportFormat::Pdf) {
        std::unique_ptr<QTextDocument> doc = reportDocument(data, charts);
        out.pages = predictPdfPages(*doc);
        Result<QByteArray> pdf = renderPdf(*doc, pdfTitle(data), data.generatedAt);
        if (!pdf)
            return pdf.error();
        out.pdf = std::move(*pdf);
    }
    return out;
}

} // namespace pb::report
