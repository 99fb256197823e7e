// The headless face of Proofbench: `proofbench [global options] <verb> ...` and the window-free
// `proofbench-cli <verb> ...`. Uses the engine, and pb_report (Qt Gui, no widgets) for `report`.
#pragma once

#include <QString>
#include <QStringList>

namespace pb::cli {

// What a command line asks for, decided on the raw argv before any Q*Application sees it: Qt's own
// GUI options (-platform, -style, ...) must never swallow a verb's flags.
struct Invocation {
    enum class Mode { Gui, Cli };
    Mode mode = Mode::Gui;
    // --db PATH (or --db=PATH) given before or after the verb; empty when not given.
    QString db;
    // Cli: the program, then the verb and its arguments, with the global options taken out.
    QStringList args;
    // Cli: a usage error in the global options (the process exits 2).
    QString error;
    // Cli: the command needs a QApplication (Commands.h); everything else runs under a QCoreApplication.
    bool needsGui = false;
};

// A verb anywhere after the global options (--db PATH, --help, --version) means the CLI, and so do
// --help and --version alone; an unknown verb is the CLI's usage error, never the GUI. Without a
// verb (nothing, --db PATH, Qt's GUI options) the desktop app starts.
Invocation classify(const QStringList& argv);
bool isCliInvocation(const QStringList& argv);
// Runs a Cli invocation; returns the process exit code.
int run(const Invocation& invocation);
// argv includes the program name: classify, then run.
int run(const QStringList& argv);

// Sets the organisation, application name and version every Q*Application of Proofbench carries.
void setApplicationIdentity();
// Runs a Cli invocation as the whole process: starts the application object it needs (a
// QCoreApplication; a QGuiApplication on the offscreen platform for a command that draws, unless
// QT_QPA_PLATFORM names another; never a display, never widgets), then run(). Both executables,
// `proofbench` and `proofbench-cli`, call it, so a verb behaves the same in either.
int runProcess(char* program, const Invocation& invocation);

} // namespace pb::cli
