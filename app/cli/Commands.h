// The one command table of the CLI. Every command declares itself (its name, one-line summary,
// description, options and positional arguments, its handler) in its file under app/cli/; from
// those declarations come the parser each handler is given, its --help, the synopsis in the group
// help, the general verb list, `proofbench completion bash|zsh` and the README's command table
// (`proofbench completion markdown`). A new command is one declaration function and one line in
// Commands.cpp's table: nothing else is written by hand, so nothing can drift.
#pragma once

#include "cli/ExitCodes.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>

namespace pb::cli {

// One option as declared: the parser's option, and how the synopsis shows it.
struct Option {
    QCommandLineOption option;
    // Options of one family (criteria, signer flags, registry flags) show as one "[family]" in the
    // synopsis; empty: the option shows itself.
    QString family;
    // What the synopsis shows for the value ("text|json"); empty: the value name.
    QString values;
    // Shown without brackets in the synopsis (the handler still checks it).
    bool required = false;
};

// One positional argument, as QCommandLineParser::addPositionalArgument takes it.
struct Positional {
    QString name;
    QString description;
    QString syntax; // empty: the name
};

struct Command {
    // The handler gets the parser made from the declaration, already parsed (--help and usage
    // errors are handled before it is called); returns the process exit code.
    using Handler = int (*)(const QCommandLineParser& p);

    // name: "verb" or "verb sub".
    Command(const QString& name, const QString& summary, const QString& description);

    QString verb;        // "evidence"
    QString sub;         // "check"; empty for a verb without sub-commands (or its bare form, as `recipe`)
    QString summary;     // one line, for the verb list and the group help
    QString description; // the paragraph --help shows
    QList<Option> options;
    QList<Positional> positionals;
    Handler handler = nullptr;
    // What each exit code means (cli/ExitCodes.h); --help prints them, README's table lists them.
    ExitCodes exitCodes = standardExitCodes();
    QString exitCodesSource; // "as aicr validate", when the codes mirror AICR's
    // Whether this command line needs a QApplication (charts and printing) rather than a
    // QCoreApplication; gets the program followed by the command's arguments. Null: never.
    bool (*needsGui)(const QStringList& args) = nullptr;

    // The same calls as QCommandLineParser's, so a declaration reads like the parser it makes.
    void addOption(const QCommandLineOption& option, const QString& family = {}, const QString& values = {});
    void addPositionalArgument(const QString& name, const QString& description, const QString& syntax = {});
    // Marks declared options as required in the synopsis.
    void require(const QStringList& names);

    QString name() const { return sub.isEmpty() ? verb : verb + QLatin1Char(' ') + sub; }
    // Generated from the options and positionals: "[--pointer FILE] [--format text|json] BUNDLE".
    // --db is global and left out.
    QString synopsis() const;
    // Every name of every declared option, with its dashes ("--format", "-o"), plus --help and -h.
    QStringList optionNames() const;
    // A parser holding exactly the declared options and positionals (and -h/--help).
    void setUp(QCommandLineParser& p) const;
};

// Every command, in the order the general help lists them.
const QList<Command>& commands();
// The distinct verbs, in table order.
QStringList verbs();
bool isVerb(const QString& word);
// The command `verb sub` names: the row for (verb, sub), else the verb's bare row, else null.
const Command* findCommand(const QString& verb, const QString& sub);
// The row named "verb" or "verb sub", or null.
const Command* commandNamed(const QString& name);

QString generalHelp();
// The sub-commands of a verb, with their synopses, one line each; empty when the verb has none.
QString groupHelp(const QString& verb);
// `proofbench completion bash|zsh`: a completion script for every verb, sub-command and option.
QString completionScript(const QString& shell);
// The README's CLI table (Markdown), between its marker comments.
QString markdownTable();

// Runs the command args name; args = program, verb, arguments (global options already taken out).
int dispatch(const QStringList& args);
// Parses args (program first) with the command's declared parser, answers --help and usage
// errors, else calls the handler.
int runCommand(const Command& c, const QStringList& args);

// ---- the declarations: Command fooBarCommand() is in FooBarCommand.cpp -------------------------
// (what the commands of one group share is in that group's *Support.h)
Command catalogImportCommand();
Command catalogListCommand();
Command recipeCommand();
Command recipeDigestCommand();
Command graphCommand();
Command diffCommand();
Command evidenceImportCommand();
Command evidenceCheckCommand();
Command healthCommand();
Command verifyCommand();
Command trustedRootUpdateCommand();
Command trustedRootListCommand();
Command keygenCommand();
Command keysListCommand();
Command signBlobCommand();
Command attestCommand();
Command evidenceSignCommand();
Command bundleSignCommand();
Command bundleVerifyCommand();
Command bundleImportCommand();
Command bundleListCommand();
Command bundleShowCommand();
Command bundleDiffCommand();
Command bundleGenerateCommand();
Command bundleIndexCommand();
Command releaseVerifyCommand();
Command ociPullCommand();
Command evidenceFetchCommand();
Command evidencePushCommand();
Command bundlePushCommand();
Command validateCommand();
Command runsListCommand();
Command runsShowCommand();
Command runsLeftoversCommand();
Command runsCleanupCommand();
Command perfImportCommand();
Command receiptsListCommand();
Command receiptsShowCommand();
Command receiptsExportCommand();
Command receiptsCheckpointCommand();
Command receiptsVerifyCommand();
Command recordsImportCommand();
Command recordsCheckCommand();
Command recordsStagesCommand();
Command dbStatusCommand();
Command dbCopyCommand();
Command dbInitTeamCommand();
Command reportCommand();
Command completionCommand();

} // namespace pb::cli
