// No arguments (or only --db PATH): the desktop app. A verb: the headless CLI on the engine.
// `report` is the one verb that needs widgets (its charts are QCustomPlot): it runs under a
// QApplication, on the offscreen platform when there is no display.
#include "Cli.h"
#include "CliUtil.h"
#include "MainWindow.h"
#include "ops/ImportCatalog.h"
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
        return pb::cli::run(app.arguments());
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
    if (auto seeded = pb::ops::seedEmbeddedCatalog(**db); !seeded) {
        QMessageBox::critical(nullptr, QStringLiteral("Proofbench"),
                              QStringLiteral("Cannot import the embedded default catalog.\n\n%1")
                                  .arg(seeded.error().toString()));
        return 1;
    }
    pb::widgets::MainWindow window(**db);
    window.show();
    return app.exec();
}
