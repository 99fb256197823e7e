// No arguments (or only --db PATH): the desktop app. A verb: the headless CLI on the engine.
// `report` is the one verb that needs widgets (its charts are QCustomPlot): it runs under a
// QApplication, on the offscreen platform when there is no display.
#include "Cli.h"
#include "CliUtil.h"
#include "MainWindow.h"
#include "Report.h"
#include "store/CatalogStore.h"
#include "db/Database.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QMessageBox>

namespace {

void setIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("Proofbench"));
    QCoreApplication::setApplicationName(QStringLiteral("proofbench"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PROOFBENCH_VERSION));
}

bool haveDisplay() {
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

// proofbench report [--version LABEL] [--filter TEXT] --format html|pdf|markdown --out FILE [--db PATH]
int reportVerb(const QStringList& args) {
    using namespace pb::cli;
    QCommandLineParser p;
    addDb(p);
    p.addOption({QStringLiteral("version"), QStringLiteral("The catalog version to review (default: the newest imported)."),
                 QStringLiteral("LABEL")});
    p.addOption({QStringLiteral("filter"), QStringLiteral("Only recipes whose name or criteria contain TEXT."), QStringLiteral("TEXT")});
    addFormat(p, QStringLiteral("html|pdf|markdown"), QStringLiteral("by the --out suffix, else pdf"));
    p.addOption({QStringLiteral("out"), QStringLiteral("Write the report to FILE (Markdown: charts go to FILE's name + -charts/)."),
                 QStringLiteral("FILE")});
    QStringList rest = args;
    rest.remove(1);
    if (int rc = parse(p, rest, QStringLiteral("report"),
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

} // namespace

int main(int argc, char** argv) {
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (args.value(1) == QLatin1String("report")) {
        if (!haveDisplay())
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        setIdentity();
        return reportVerb(app.arguments());
    }
    if (pb::cli::isCliInvocation(args)) {
        QCoreApplication app(argc, argv);
        setIdentity();
        return pb::cli::run(app.arguments());
    }

    QApplication app(argc, argv);
    setIdentity();
    QApplication::setApplicationDisplayName(QStringLiteral("Proofbench"));
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({QStringLiteral("db"), QStringLiteral("Database file."), QStringLiteral("PATH")});
    parser.process(app);
    const QString path = parser.isSet(QStringLiteral("db")) ? parser.value(QStringLiteral("db"))
                                                              : pb::db::Database::defaultPath();
    auto db = pb::db::Database::open(path);
    if (!db) {
        QMessageBox::critical(nullptr, QStringLiteral("Proofbench"),
                              QStringLiteral("Cannot open the database.\n\n%1").arg(db.error().toString()));
        return 1;
    }
    if (auto seeded = pb::store::importEmbeddedDefaults(**db); !seeded) {
        QMessageBox::critical(nullptr, QStringLiteral("Proofbench"),
                              QStringLiteral("Cannot import the embedded default catalog.\n\n%1")
                                  .arg(seeded.error().toString()));
        return 1;
    }
    pb::widgets::MainWindow window(**db);
    window.show();
    return app.exec();
}
