// The one command table of the CLI: every verb and sub-command with its synopsis, its one-line
// summary, its handler and whether it needs a QApplication. The general --help and its verb list,
// each group's sub-command help, the "is this a CLI invocation" test and dispatch all come from it:
// a new verb is one row here and one handler.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace pb::cli {

// A handler gets the program name followed by the arguments after its verb (and sub-command),
// and returns the process exit code.
using Handler = int (*)(const QStringList& args);

// A positional argument the table documents for a handler whose parser does not declare it.
struct Argument {
    QString name;
    QString description;
};

struct Command {
    QString verb;     // "evidence"
    QString sub;      // "check"; empty for a verb without sub-commands (or its bare form, as `recipe`)
    QString synopsis; // the arguments, for the group help: "[--pointer FILE] BUNDLE"
    QString summary;  // one line
    Handler handler = nullptr;
    // Whether this command line needs a QApplication (charts and printing) rather than a
    // QCoreApplication; gets what the handler gets. Null: never. Only `report` with PDF output.
    bool (*needsGui)(const QStringList& args) = nullptr;
    QList<Argument> arguments;

    QString name() const { return sub.isEmpty() ? verb : verb + QLatin1Char(' ') + sub; }
};

// Every command, in the order the general help lists them.
const QList<Command>& commands();
// The distinct verbs, in table order.
QStringList verbs();
bool isVerb(const QString& word);
// The command `verb sub` names: the row for (verb, sub), else the verb's bare row, else null.
const Command* findCommand(const QString& verb, const QString& sub);
// The row named "verb" or "verb sub" (as parse() is told), or null.
const Command* commandNamed(const QString& name);

QString generalHelp();
// The sub-commands of a verb, one line each; empty when the verb has none.
QString groupHelp(const QString& verb);

// Runs the command args name; args = program, verb, arguments (global options already taken out).
int dispatch(const QStringList& args);

// ---- handlers, by group file ---------------------------------------------------------------------
// CatalogCommands.cpp
int catalogImport(const QStringList& args);
int catalogList(const QStringList& args);
int recipeVerb(const QStringList& args);
int recipeDigestVerb(const QStringList& args);
int graphVerb(const QStringList& args);
int diffVerb(const QStringList& args);
// EvidenceCommands.cpp
int evidenceImport(const QStringList& args);
int evidenceCheck(const QStringList& args);
int healthVerb(const QStringList& args);
// VerifyCommands.cpp
int verifyVerb(const QStringList& args);
// TrustRootCommands.cpp
int trustedRootUpdate(const QStringList& args);
int trustedRootList(const QStringList& args);
// SignCommands.cpp
int keygenVerb(const QStringList& args);
int signBlobVerb(const QStringList& args);
int attestVerb(const QStringList& args);
int evidenceSign(const QStringList& args);
int bundleSign(const QStringList& args);
int bundleVerify(const QStringList& args);
// BundleCompareCommands.cpp
int bundleImport(const QStringList& args);
int bundleList(const QStringList& args);
int bundleShow(const QStringList& args);
int bundleDiff(const QStringList& args);
// BundleGenerateCommands.cpp
int bundleGenerate(const QStringList& args);
int bundleIndex(const QStringList& args);
// ReleaseCommands.cpp
int releaseVerify(const QStringList& args);
// ReportCommand.cpp
int reportVerb(const QStringList& args);
bool reportNeedsGui(const QStringList& args);
// CliValidate.cpp, CliOci.cpp, CliReceipts.cpp are reached through validationVerbs, ociVerbs and
// receiptsVerbs (CliUtil.h), which take the full command line.

} // namespace pb::cli
