// report: the release review report (HTML, PDF or Markdown), charts included, written by pb_report
// (ops::exportReport drawing with report::renderReport: the same code, and so the same bytes, as
// the window's report dialog). The
// charts and the PDF need Qt Gui but no display: reportNeedsGui() tells main() to start a
// QGuiApplication on the offscreen platform.
#include "cli/CliUtil.h"
#include "cli/Commands.h"
#include "core/Plural.h"

#include "ops/ReportExport.h"
#include "report/Report.h"
#include "report/render/ReportRender.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pb::cli {

namespace {

// --format, or the --out suffix, else pdf; nullopt for an unknown format.
std::optional<report::ReportFormat> formatOf(const QString& formatOption, const QString& outPath) {
    const QString suffix = QFileInfo(outPath).suffix().toLower();
    const QString text = !formatOption.isEmpty()             ? formatOption
                         : suffix == QLatin1String("htm")    ? QStringLiteral("html")
                         : report::parseReportFormat(suffix) ? suffix
                                                             : QStringLiteral("pdf");
    return report::parseReportFormat(text);
}

// The value of `--name VALUE` or `--name=VALUE` on a raw command line (empty when absent).
QString optionValue(const QStringList& args, const QString& name) {
    const QString flag = QStringLiteral("--") + name;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == flag && i + 1 < args.size())
            return args[i + 1];
        if (args[i].startsWith(flag + QLatin1Char('=')))
            return args[i].mid(flag.size() + 1);
    }
    return {};
}

// Qt Gui, started for a PDF, warns on stderr ("QStandardPaths: XDG_RUNTIME_DIR not set, defaulting
// to ...") when the session has no runtime directory (a shell without a login session, CI, a
// container). A command that succeeded prints no warning: point XDG_RUNTIME_DIR at the directory Qt
// would have chosen (private to the user, 0700), or at a fresh private one when that is not ours.
void provideRuntimeDir() {
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    const QString user = QString::fromLocal8Bit(qgetenv("USER")).isEmpty()
                             ? QStringLiteral("%1").arg(::getuid())
                             : QString::fromLocal8Bit(qgetenv("USER"));
    const QString dir = QDir::tempPath() + QStringLiteral("/runtime-") + user;
    constexpr QFile::Permissions kPrivate = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                            QFile::ReadUser | QFile::WriteUser | QFile::ExeUser;
    auto ours = [&](const QString& d) {
        const QFileInfo fi(d);
        return fi.isDir() && !fi.isSymLink() && fi.ownerId() == ::getuid() && fi.permissions() == kPrivate;
    };
    if (!QFileInfo::exists(dir) && ::mkdir(QFile::encodeName(dir).constData(), 0700) != 0)
        return; // Qt says why itself
    if (!ours(dir)) {
        QByteArray fresh = QFile::encodeName(QDir::tempPath() + QStringLiteral("/proofbench-runtime-XXXXXX"));
        if (!::mkdtemp(fresh.data()))
            return;
        qputenv("XDG_RUNTIME_DIR", fresh);
        return;
    }
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(dir));
}

} // namespace

// True when `proofbench report ...` will write a report: every format draws its charts (Qt Gui). An
// unknown format needs none: it is refused before anything is drawn. main() asks before it starts
// Qt Gui, so the runtime directory Qt Gui wants is provided here (see provideRuntimeDir).
bool reportNeedsGui(const QStringList& args) {
    const bool draws =
        formatOf(optionValue(args, QStringLiteral("format")), optionValue(args, QStringLiteral("out")))
            .has_value();
    if (draws)
        provideRuntimeDir();
    return draws;
}

// proofbench report [--version LABEL] [--baseline LABEL|none] [--filter TEXT] --format html|pdf|markdown
// --out FILE [--db PATH]
static int reportVerb(const QCommandLineParser& p) {
    const QString outPath = p.value(QStringLiteral("out"));
    const std::optional<report::ReportFormat> format =
        formatOf(p.isSet(QStringLiteral("format")) ? p.value(QStringLiteral("format")) : QString(), outPath);
    if (!format)
        return usage(QStringLiteral("--format expects html, pdf or markdown"), QStringLiteral("report"));
    if (outPath.isEmpty())
        return usage(QStringLiteral("--out FILE is required"), QStringLiteral("report"));
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        return fail(makeError(
            QStringLiteral("the report's charts need Qt Gui (run as `proofbench report`, which starts it)")));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    const report::ReportOptions options{p.value(QStringLiteral("version")), p.value(QStringLiteral("filter")),
                                        p.value(QStringLiteral("baseline"))};
    ops::ReportExportRequest request;
    request.format = *format;
    request.path = outPath;
    request.options = options;
    request.render = report::renderReport; // the report dialog's renderer too: the same bytes
    const Result<ops::ReportExportOutcome> written = ops::exportReport(ops::Context(**db), request);
    if (!written)
        return fail(written.error());
    out() << written->path << "  sha256:" << written->sha256;
    if (written->pages > 0)
        out() << "  " << counted(written->pages, QStringLiteral("page"), QStringLiteral("pages"));
    if (!written->chartFiles.isEmpty())
        out() << "  "
              << counted(written->chartFiles.size(), QStringLiteral("chart file"),
                         QStringLiteral("chart files"));
    out() << "  receipt #" << written->receiptSeq << Qt::endl;
    return kOk;
}

// ---- declarations ------------------------------------------------------------------------------

Command reportCommand() {
    Command p(
        QStringLiteral("report"),
        QStringLiteral("the release review report (health, evidence, charts, diff, receipts head)"),
        QStringLiteral(
            "The release review report: summary by status, the health table, each coordinate's evidence and "
            "verification steps, performance charts, the diff against a baseline version, open "
            "problems and the receipts chain head. Leaves a report.export receipt."));
    addDb(p);
    p.addOption(
        {QStringLiteral("version"),
         QStringLiteral(
             "The catalog version to review (default: the newest in version order: semantic version, else "
             "source date; never the order of import)."),
         QStringLiteral("LABEL")});
    p.addOption(
        {QStringLiteral("baseline"),
         QStringLiteral(
             "The catalog version the \"changes since\" section compares with, or \"none\" (default: the "
             "version just before --version in version order)."),
         QStringLiteral("LABEL")});
    p.addOption({QStringLiteral("filter"),
                 QStringLiteral("Only recipes whose name or criteria contain TEXT."),
                 QStringLiteral("TEXT")});
    addFormat(p, QStringLiteral("html|pdf|markdown"), QStringLiteral("by the --out suffix, else pdf"));
    p.addOption({QStringLiteral("out"),
                 QStringLiteral("Write the report to FILE (Markdown: charts go to FILE's name + -charts/)."),
                 QStringLiteral("FILE")});
    p.require({QStringLiteral("out")});
    p.handler = reportVerb;
    p.needsGui = reportNeedsGui;
    return p;
}

} // namespace pb::cli
