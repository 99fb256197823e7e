// No verb (nothing, --db PATH, Qt's GUI options): the desktop app. A verb anywhere after the global
// options (Cli.h): the headless CLI on the engine. The command table says which verbs need a
// QApplication (today only `report`, whose charts are QCustomPlot): they run on the offscreen
// platform when there is no display.
#include "Cli.h"
#include "CliUtil.h"
#include "MainWindow.h"
#include "ops/PrepareDatabase.h"
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
    // CLI or GUI is decided on the raw argv, and the CLI reads its arguments from it: Qt is handed
    // the program name only, so its GUI options (-platform, -style, ...) never swallow a verb's flags.
    const pb::cli::Invocation invocation = pb::cli::classify(args);
    if (invocation.mode == pb::cli::Invocation::Mode::Cli) {
        int qtArgc = 1;
        char* qtArgv[] = {argv[0], nullptr};
        if (invocation.needsGui) { // report: charts and printing (see Commands.cpp)
            if (!haveDisplay())
                qputenv("QT_QPA_PLATFORM", "offscreen");
            QApplication app(qtArgc, qtArgv);
            setIdentity();
            return pb::cli::run(invocation);
        }
        QCoreApplication app(qtArgc, qtArgv);
        setIdentity();
        return pb::cli::run(invocation);
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
    if (auto seeded = pb::ops::prepareDatabase(**db); !seeded) {
        QMessageBox::critical(nullptr, QStringLiteral("Proofbench"),
                              QStringLiteral("Cannot prepare the database.\n\n%1")
                                  .arg(seeded.error().toString()));
        return 1;
    }
    pb::models::Workspace workspace((*db)->path()); // every view reads and writes through it, on workers
    pb::widgets::MainWindow window(workspace);
    window.show();
    return app.exec();
}
