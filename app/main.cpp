// No arguments (or only --db PATH): the desktop app. A verb: the headless CLI on the engine.
#include "Cli.h"
#include "MainWindow.h"
#include "store/CatalogStore.h"
#include "store/Database.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>

namespace {

void setIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("Proofbench"));
    QCoreApplication::setApplicationName(QStringLiteral("proofbench"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PROOFBENCH_VERSION));
}

} // namespace

int main(int argc, char** argv) {
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
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
                                                              : pb::store::Database::defaultPath();
    auto db = pb::store::Database::open(path);
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
