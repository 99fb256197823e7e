// report: the release review report (HTML, PDF or Markdown).
// TODO(report engine): today the report is built by widgets/Report.h and needs a QApplication for
// every format (charts are painted with QCustomPlot). When the report's data and text move to
// engine/report/, only PDF needs one: set the table's GUI need (Commands.cpp, `report`) to PDF only.
#include "cli/Commands.h"
#include "CliUtil.h"
#include "Report.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace pb::cli {

// proofbench report [--version LABEL] [--filter TEXT] --format html|pdf|markdown --out FILE [--db PATH]
int reportVerb(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    p.addOption({QStringLiteral("version"), QStringLiteral("The catalog version to review (default: the newest imported)."),
                 QStringLiteral("LABEL")});
    p.addOption({QStringLiteral("filter"), QStringLiteral("Only recipes whose name or criteria contain TEXT."), QStringLiteral("TEXT")});
    addFormat(p, QStringLiteral("html|pdf|markdown"), QStringLiteral("by the --out suffix, else pdf"));
    p.addOption({QStringLiteral("out"), QStringLiteral("Write the report to FILE (Markdown: charts go to FILE's name + -charts/)."),
                 QStringLiteral("FILE")});
    if (int rc = parse(p, args, QStringLiteral("report"),
                       QStringLiteral("The release review report: summary by status, the health table, each coordinate's evidence and "
                                      "verification steps, performance charts, the diff against the previous catalog version, open "
                                      "problems and the receipts chain head. Leaves a report.export receipt."));
        rc >= 0)
        return rc;
    const QString suffix = QFileInfo(p.value(QStringLiteral("out"))).suffix().toLower();
    const QString formatText = p.isSet(QStringLiteral("format")) ? p.value(QStringLiteral("format"))
                               : suffix == QLatin1String("htm")   ? QStringLiteral("html")
                               : pb::widgets::parseReportFormat(suffix) ? suffix
                                                                        : QStringLiteral("pdf");
    const std::optional<pb::widgets::ReportFormat> format = pb::widgets::parseReportFormat(formatText);
    if (!format)
        return usage(QStringLiteral("--format expects html, pdf or markdown"), QStringLiteral("report"));
    const QString outPath = p.value(QStringLiteral("out"));
    if (outPath.isEmpty())
        return usage(QStringLiteral("--out FILE is required"), QStringLiteral("report"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    const pb::widgets::ReportOptions options{p.value(QStringLiteral("version")), p.value(QStringLiteral("filter"))};
    auto written = pb::widgets::exportReport(**db, options, *format, outPath);
    if (!written)
        return fail(written.error());
    out() << written->path << "  sha256:" << written->sha256;
    if (written->pages > 0)
        out() << "  " << written->pages << " page(s)";
    if (!written->chartFiles.isEmpty())
        out() << "  " << written->chartFiles.size() << " chart file(s)";
    out() << "  receipt #" << written->receiptSeq << Qt::endl;
    return kOk;
}

} // namespace pb::cli
