// `proofbench`: no verb (nothing, --db PATH, Qt's GUI options) starts the desktop app; a verb anywhere
// after the global options (cli/Cli.h) runs the CLI exactly as `proofbench-cli` does (CliMain.cpp),
// through pb::cli::runProcess: no window, no widgets, Qt Gui only for a command that draws.
#include "MainWindow.h"
#include "OpenDatabase.h"
#include "WindowManager.h"
#include "cli/Cli.h"
#include "cli/CliUtil.h"
#include "db/Database.h"
#include "ops/PrepareDatabase.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>

int main(int argc, char** argv) {
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    // CLI or GUI is decided on the raw argv, and the CLI reads its arguments from it: Qt is handed
    // the program name only, so its GUI options (-platform, -style, ...) never swallow a verb's flags.
    const pb::cli::Invocation invocation = pb::cli::classify(args);
    if (invocation.mode == pb::cli::Invocation::Mode::Cli)
        return pb::cli::runProcess(argv[0], invocation); // the same path as proofbench-cli (CliMain.cpp)

    QApplication app(argc, argv);
    pb::cli::setApplicationIdentity();
    QApplication::setApplicationDisplayName(QStringLiteral("Proofbench"));
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("db"),
         QStringLiteral("Database: a SQLite file, or a PostgreSQL server as a postgresql:// URI or "
                        "service=NAME."),
         QStringLiteral("DB")});
    parser.process(app);
    const QString path = parser.isSet(QStringLiteral("db")) ? parser.value(QStringLiteral("db"))
                                                            : pb::db::Database::defaultPath();
    // A server whose password libpq cannot find asks for it; it stays in memory only.
    auto db =
        pb::models::openDatabase(path, [](const QString& where, bool refused) -> std::optional<QString> {
            bool ok = false;
            const QString password = QInputDialog::getText(
                nullptr, QStringLiteral("Proofbench"),
                QStringLiteral("Password for %1%2")
                    .arg(where, refused ? QStringLiteral(" (the last one was refused)") : QString()),
                QLineEdit::Password, QString(), &ok);
            return ok ? std::optional<QString>(password) : std::nullopt;
        });
    if (!db) {
        QMessageBox::critical(nullptr, QStringLiteral("Proofbench"),
                              QStringLiteral("Cannot open the database.\n\n%1").arg(db.error().toString()));
        return 1;
    }
    if (auto seeded = pb::ops::prepareDatabase(**db); !seeded) {
        QMessageBox::critical(
            nullptr, QStringLiteral("Proofbench"),
            QStringLiteral("Cannot prepare the database.\n\n%1").arg(seeded.error().toString()));
        return 1;
    }
    const QString opened = (*db)->path(); // never with a password in it
    db->reset();
    // Every window has its own workspace (every view reads and writes through it, on workers); File >
    // Open Team Database… and Open Recent add windows.
    pb::widgets::WindowManager windows;
    windows.openPrepared(opened);
    return app.exec();
}
