#include "ops/ReportExport.h"
#include "core/Plural.h"

#include "db/Database.h"
#include "receipts/Kinds.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>

namespace pb::ops {

using report::ReportFormat;

Result<ReportExportOutcome> exportReport(const Context& ctx, const ReportExportRequest& request) {
    if (request.path.isEmpty())
        return makeError(QStringLiteral("no file to write the report to"));
    std::optional<report::ReportData> collected;
    if (!request.data) {
        ctx.progress(0, 0, QStringLiteral("reading the database"));
        Result<report::ReportData> d = report::collectReport(ctx.db(), request.options);
        if (!d)
            return d.error();
        collected = std::move(*d);
    }
    const report::ReportData& data = request.data ? *request.data : *collected;
    report::RenderedReport rendered{request.charts, request.pdf, request.pages};
    if (request.render) {
        ctx.progress(0, 0, QStringLiteral("drawing the charts"));
        Result<report::RenderedReport> r = request.render(data, request.format);
        if (!r)
            return makeError(QStringLiteral("%1: %2").arg(request.path, r.error().toString()));
        rendered = std::move(*r);
    }
    if (request.format == ReportFormat::Pdf && rendered.pdf.isEmpty())
        return makeError(
            QStringLiteral(
                "a PDF report is laid out by pb_report (report::renderReport, Qt Gui); none was given"),
            request.path);
    const report::ReportCharts& charts = rendered.charts;

    ReportExportOutcome out;
    out.path = QFileInfo(request.path).absoluteFilePath();
    out.pages = request.format == ReportFormat::Pdf ? rendered.pages : 0;
    StagedFiles files;
    QByteArray bytes;
    std::vector<receipts::Artifact> chartArtifacts;
    if (request.format == ReportFormat::Html) {
        bytes = report::reportHtml(data, charts, report::ImageRefs::DataUri).toUtf8();
    } else if (request.format == ReportFormat::Markdown) {
        const QString chartDir = report::markdownChartDir(out.path);
        if (!charts.list.empty()) {
            const QString abs = QFileInfo(out.path).absoluteDir().filePath(chartDir);
            if (!QDir().mkpath(abs))
                return makeError(QStringLiteral("%1: cannot create the chart directory").arg(abs));
            for (const report::ReportChart& c : charts.list) {
                const QString file = abs + QLatin1Char('/') + c.fileName;
                if (Status s = files.stage(file, c.png); !s)
                    return makeError(QStringLiteral("%1: cannot write the chart '%2': %3")
                                         .arg(file, c.title, s.error().toString()));
                out.chartFiles << file;
                chartArtifacts.push_back(receipts::Artifact::bytes(file, c.png));
            }
        }
        bytes = report::reportMarkdown(data, charts, chartDir).toUtf8();
    } else {
        bytes = rendered.pdf;
    }
    if (Status s = files.stage(out.path, bytes); !s)
        return s.error();

    receipts::ReceiptDraft draft;
    draft.kind = receipts::kinds::ReportExport;
    draft.parameters = QJsonObject{
        {QStringLiteral("format"), report::reportFormatName(request.format)},
        {QStringLiteral("version"), data.version.label},
        {QStringLiteral("filter"), data.options.filter},
        {QStringLiteral("rows"), int(data.rows.size())},
        {QStringLiteral("charts"), int(charts.list.size())},
        {QStringLiteral("baseline"), data.baseline ? data.baseline->label : QStringLiteral("none")}};
    QString catalogDigest = data.version.contentDigest;
    if (catalogDigest.startsWith(QLatin1String("sha256:")))
        catalogDigest = catalogDigest.mid(7);
    draft.inputs.push_back(receipts::Artifact::digest(
        QStringLiteral("catalog version %1").arg(data.version.label), catalogDigest));
    draft.inputs.push_back(receipts::Artifact::digest(
        QStringLiteral("receipts head #%1").arg(data.chain.head.seq), data.chain.head.hash));
    const receipts::Artifact file = receipts::Artifact::bytes(out.path, bytes);
    out.sha256 = file.sha256;
    draft.outputs.push_back(file);
    for (const receipts::Artifact& c : chartArtifacts)
        draft.outputs.push_back(c);
    draft.message =
        QStringLiteral("%1 report of %2 (%3, %4)")
            .arg(report::reportFormatName(request.format), data.version.label,
                 counted(qint64(data.rows.size()), QStringLiteral("row"), QStringLiteral("rows")),
                 counted(qint64(charts.list.size()), QStringLiteral("chart"), QStringLiteral("charts")));
    Result<receipts::Receipt> r = record(ctx, draft, &files);
    if (!r)
        return r.error();
    out.receiptSeq = r->seq;
    return out;
}

} // namespace pb::ops
