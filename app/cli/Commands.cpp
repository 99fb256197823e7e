#include "cli/Commands.h"
#include "cli/CliUtil.h"

#include "db/Database.h"

#include <QRegularExpression>

namespace pb::cli {

Command::Command(const QString& name, const QString& summaryText, const QString& descriptionText)
    : verb(name.section(QLatin1Char(' '), 0, 0)), sub(name.section(QLatin1Char(' '), 1)),
      summary(summaryText), description(descriptionText) {}

void Command::addOption(const QCommandLineOption& option, const QString& family, const QString& values) {
    options.append(Option{option, family, values, false});
}

void Command::addPositionalArgument(const QString& name, const QString& descriptionText,
                                    const QString& syntax) {
    positionals.append(Positional{name, descriptionText, syntax});
}

void Command::require(const QStringList& names) {
    for (Option& o : options)
        for (const QString& n : names)
            if (o.option.names().contains(n))
                o.required = true;
}

namespace {

QString dashed(const QString& name) {
    return (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
}

// The name the synopsis shows: the longest one ("namespace" rather than "n").
QString longName(const QCommandLineOption& o) {
    QString best;
    for (const QString& n : o.names())
        if (n.size() > best.size())
            best = n;
    return best;
}

} // namespace

QString Command::synopsis() const {
    QStringList parts;
    QStringList families;
    for (const Option& o : options) {
        const QString name = longName(o.option);
        if (name == QLatin1String("db"))
            continue; // a global option (Cli.h)
        if (!o.family.isEmpty()) {
            if (!families.contains(o.family)) {
                families << o.family;
                parts << QStringLiteral("[%1]").arg(o.family);
            }
            continue;
        }
        QString text = dashed(name);
        const QString value = o.values.isEmpty() ? o.option.valueName() : o.values;
        if (!value.isEmpty())
            text += QLatin1Char(' ') + value;
        parts << (o.required ? text : QStringLiteral("[%1]").arg(text));
    }
    for (const Positional& a : positionals)
        parts << (a.syntax.isEmpty() ? a.name : a.syntax);
    return parts.join(QLatin1Char(' '));
}

QStringList Command::optionNames() const {
    QStringList names;
    for (const Option& o : options)
        for (const QString& n : o.option.names())
            names << dashed(n);
    names << QStringLiteral("-h") << QStringLiteral("--help");
    return names;
}

void Command::setUp(QCommandLineParser& p) const {
    p.setApplicationDescription(description);
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    for (const Option& o : options)
        p.addOption(o.option);
    p.addOption(QCommandLineOption(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                   QStringLiteral("Show this help.")));
    for (const Positional& a : positionals)
        p.addPositionalArgument(a.name, a.description, a.syntax);
}

int runCommand(const Command& c, const QStringList& args) {
    QCommandLineParser p;
    c.setUp(p);
    if (!p.parse(args))
        return usage(p.errorText(), c.name());
    if (p.isSet(QStringLiteral("help"))) {
        QString text = p.helpText();
        text.replace(QRegularExpression(QStringLiteral("^Usage: \\S+")),
                     QStringLiteral("Usage: proofbench ") + c.name());
        text += exitCodesHelp(c.exitCodes, c.exitCodesSource);
        out() << text;
        out().flush();
        return kOk;
    }
    return c.handler(p);
}

namespace {

// The table: general help, completion and the README list the commands in this order.
QList<Command> buildTable() {
    return {
        // catalogs and recipes
        catalogImportCommand(),
        catalogListCommand(),
        recipeCommand(),
        recipeDigestCommand(),
        graphCommand(),
        diffCommand(),
        // evidence
        evidenceImportCommand(),
        evidenceCheckCommand(),
        evidenceSignCommand(),
        evidenceFetchCommand(),
        evidencePushCommand(),
        healthCommand(),
        // signatures
        verifyCommand(),
        trustedRootUpdateCommand(),
        trustedRootListCommand(),
        releaseVerifyCommand(),
        keygenCommand(),
        keysListCommand(),
        signBlobCommand(),
        attestCommand(),
        // deployment bundles
        bundleGenerateCommand(),
        bundleIndexCommand(),
        bundleSignCommand(),
        bundleVerifyCommand(),
        bundlePushCommand(),
        bundleImportCommand(),
        bundleListCommand(),
        bundleShowCommand(),
        bundleDiffCommand(),
        // registries
        ociPullCommand(),
        // validation and performance
        validateCommand(),
        runsListCommand(),
        runsShowCommand(),
        runsLeftoversCommand(),
        runsCleanupCommand(),
        perfImportCommand(),
        // the record
        receiptsListCommand(),
        receiptsShowCommand(),
        receiptsExportCommand(),
        receiptsCheckpointCommand(),
        receiptsVerifyCommand(),
        recordsImportCommand(),
        recordsCheckCommand(),
        recordsStagesCommand(),
        // the database itself
        dbStatusCommand(),
        dbCopyCommand(),
        dbInitTeamCommand(),
        // the report, and the shell
        reportCommand(),
        completionCommand(),
    };
}

} // namespace

const QList<Command>& commands() {
    static const QList<Command> table = buildTable();
    return table;
}

QStringList verbs() {
    QStringList v;
    for (const Command& c : commands())
        if (!v.contains(c.verb))
            v << c.verb;
    return v;
}

bool isVerb(const QString& word) {
    return verbs().contains(word);
}

const Command* findCommand(const QString& verb, const QString& sub) {
    const Command* bare = nullptr;
    for (const Command& c : commands()) {
        if (c.verb != verb)
            continue;
        if (!sub.isEmpty() && c.sub == sub)
            return &c;
        if (c.sub.isEmpty())
            bare = &c;
    }
    return bare;
}

const Command* commandNamed(const QString& name) {
    for (const Command& c : commands())
        if (c.name() == name)
            return &c;
    return nullptr;
}

QString generalHelp() {
    QString text =
        QStringLiteral("Proofbench - a workbench for AICR recipes, evidence and signatures.\n"
                       "\n"
                       "Usage:\n"
                       "  proofbench [--db PATH]                     start the desktop app\n"
                       "  proofbench [--db PATH] <verb> [options]    run a command without a window\n"
                       "\n"
                       "Verbs:\n");
    int width = 0;
    for (const Command& c : commands())
        width = std::max(width, int(c.name().size()));
    for (const Command& c : commands())
        text += QStringLiteral("  %1  %2\n").arg(c.name(), -width).arg(c.summary);
    text += QStringLiteral("\n"
                           "Global options (before or after the verb):\n"
                           "  --db PATH       the database file (default: %1)\n"
                           "  -h, --help      this help; 'proofbench <verb> --help' for a verb's options\n"
                           "  -v, --version   the version\n"
                           "\n"
                           "Exit status: 0 success, 1 failure (reason on stderr), 2 usage error (nothing\n"
                           "done). validate, evidence check and evidence fetch mirror AICR's codes (3\n"
                           "incomplete, 8 failed, ...): each verb's --help lists its own.\n")
                .arg(db::Database::defaultPath());
    return text;
}

QString groupHelp(const QString& verb) {
    QList<const Command*> subs;
    for (const Command& c : commands())
        if (c.verb == verb && !c.sub.isEmpty())
            subs << &c;
    if (subs.isEmpty())
        return {};
    QStringList names;
    QStringList left;
    int width = 0;
    for (const Command* c : subs) {
        names << c->sub;
        const QString synopsis = c->synopsis();
        left << (synopsis.isEmpty() ? c->sub : c->sub + QLatin1Char(' ') + synopsis);
        width = std::max(width, int(left.last().size()));
    }
    width = std::min(width, 48);
    QString text =
        QStringLiteral("Usage: proofbench %1 <%2> [options]\n\n").arg(verb, names.join(QLatin1Char('|')));
    for (qsizetype i = 0; i < subs.size(); ++i) {
        if (left.at(i).size() > width)
            text += QStringLiteral("  %1\n  %2  %3\n")
                        .arg(left.at(i), QString(width, QLatin1Char(' ')), subs.at(i)->summary);
        else
            text += QStringLiteral("  %1  %2\n").arg(left.at(i), -width).arg(subs.at(i)->summary);
    }
    text += QStringLiteral("\nRun 'proofbench %1 <command> --help' for the options of each.\n").arg(verb);
    return text;
}

int dispatch(const QStringList& args) {
    const QString verb = args.value(1);
    if (!isVerb(verb)) {
        err() << "proofbench: unknown verb '" << verb << "'\n"
              << "Verbs: " << verbs().join(QStringLiteral(", ")) << "\n"
              << "Run 'proofbench --help' for usage." << Qt::endl;
        return kUsage;
    }
    const QString sub = args.value(2);
    if (const Command* c = findCommand(verb, sub)) {
        QStringList rest{args.value(0)};
        rest += args.mid(c->sub.isEmpty() ? 2 : 3);
        return runCommand(*c, rest);
    }
    // A verb made only of sub-commands, without a known one.
    if (sub.isEmpty() || sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        out() << groupHelp(verb);
        out().flush();
        return sub.isEmpty() ? kUsage : kOk;
    }
    return usage(QStringLiteral("unknown %1 command '%2'").arg(verb, sub), verb);
}

} // namespace pb::cli
