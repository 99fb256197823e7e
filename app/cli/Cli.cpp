#include "cli/Cli.h"
#include "cli/CliUtil.h"
#include "cli/Commands.h"
#include "db/Database.h"

#include <QCoreApplication>
#include <QGuiApplication>

#include <cstdio>

namespace pb::cli {

namespace {

bool isHelp(const QString& a) {
    return a == QLatin1String("--help") || a == QLatin1String("-h");
}
bool isVersion(const QString& a) {
    return a == QLatin1String("--version") || a == QLatin1String("-v");
}

// --db PATH, --db=PATH (and -db, as the verbs' parsers take single-dash long options). Returns
// false when args[i] is not --db; else takes its value (advancing i) or sets error.
bool takeDb(const QStringList& args, qsizetype& i, Invocation& inv) {
    const QString& a = args.at(i);
    QString value;
    if (a == QLatin1String("--db") || a == QLatin1String("-db")) {
        if (i + 1 >= args.size()) {
            inv.error =
                QStringLiteral("--db expects a database: a file path, or a PostgreSQL URI or service=NAME");
            return true;
        }
        value = args.at(++i);
    } else if (a.startsWith(QLatin1String("--db=")) || a.startsWith(QLatin1String("-db="))) {
        value = a.mid(a.indexOf(QLatin1Char('=')) + 1);
    } else {
        return false;
    }
    if (value.isEmpty())
        inv.error =
            QStringLiteral("--db expects a database: a file path, or a PostgreSQL URI or service=NAME");
    else if (!inv.db.isEmpty() && inv.db != value)
        inv.error = QStringLiteral("--db given twice with different databases ('%1', '%2')")
                        .arg(db::Database::describe(inv.db), db::Database::describe(value));
    else
        inv.db = value;
    return true;
}

// Qt's GUI options that take a value (QGuiApplication, QApplication), with one or two dashes.
bool qtOptionTakesValue(const QString& a) {
    static const QStringList names = {QStringLiteral("platform"),
                                      QStringLiteral("platformpluginpath"),
                                      QStringLiteral("platformtheme"),
                                      QStringLiteral("plugin"),
                                      QStringLiteral("qwindowgeometry"),
                                      QStringLiteral("geometry"),
                                      QStringLiteral("qwindowicon"),
                                      QStringLiteral("icon"),
                                      QStringLiteral("qwindowtitle"),
                                      QStringLiteral("title"),
                                      QStringLiteral("display"),
                                      QStringLiteral("style"),
                                      QStringLiteral("stylesheet"),
                                      QStringLiteral("session"),
                                      QStringLiteral("name")};
    QString n = a;
    n.remove(0, n.startsWith(QLatin1String("--")) ? 2 : 1);
    return !n.contains(QLatin1Char('=')) && names.contains(n);
}

} // namespace

Invocation classify(const QStringList& argv) {
    Invocation inv;
    const QString program = argv.value(0, QStringLiteral("proofbench"));
    bool help = false, version = false;
    QStringList foreign; // options before the verb that are not global ones
    qsizetype i = 1;
    QString verb;
    for (; i < argv.size(); ++i) {
        const QString& a = argv.at(i);
        if (takeDb(argv, i, inv))
            continue;
        if (isHelp(a)) {
            help = true;
        } else if (isVersion(a)) {
            version = true;
        } else if (a.startsWith(QLatin1Char('-')) && a.size() > 1) {
            foreign << a;
            if (qtOptionTakesValue(a) && i + 1 < argv.size())
                foreign << argv.at(++i);
        } else {
            verb = a;
            break;
        }
    }
    if (verb.isEmpty() && !help && !version)
        return inv; // the desktop app: no verb (Qt's own options are its to read)
    inv.mode = Invocation::Mode::Cli;
    if (version) {
        inv.args = {program, QStringLiteral("--version")};
        return inv;
    }
    // After the verb: its own arguments, less the global --db (up to a "--" that ends the options).
    QStringList rest;
    for (++i; i < argv.size(); ++i) {
        if (argv.at(i) == QLatin1String("--")) {
            rest += argv.mid(i);
            break;
        }
        if (!takeDb(argv, i, inv))
            rest << argv.at(i);
    }
    if (verb == QLatin1String("help")) { // proofbench help [verb [sub]]
        verb = rest.value(0);
        rest = rest.mid(1);
        help = true;
    }
    if (!foreign.isEmpty() && inv.error.isEmpty())
        inv.error = QStringLiteral("'%1' is not a global option (a verb's options go after the verb)")
                        .arg(foreign.join(QLatin1Char(' ')));
    if (verb.isEmpty()) {
        inv.args = {program, QStringLiteral("--help")};
        return inv;
    }
    inv.args = QStringList{program, verb} + rest;
    if (help)
        inv.args << QStringLiteral("--help");
    if (const Command* c = findCommand(verb, rest.value(0)); c && c->needsGui)
        inv.needsGui = c->needsGui(QStringList{program} + rest.mid(c->sub.isEmpty() ? 0 : 1));
    return inv;
}

bool isCliInvocation(const QStringList& argv) {
    return classify(argv).mode == Invocation::Mode::Cli;
}

int run(const Invocation& inv) {
    if (!inv.error.isEmpty()) {
        err() << "proofbench: " << inv.error << Qt::endl << "Run 'proofbench --help' for usage." << Qt::endl;
        return kUsage;
    }
    setGlobalDbPath(inv.db);
    // A write that must wait for another client's says so, once per wait, instead of hanging quietly.
    db::setWaitObserver([](const QString& what) {
        const QByteArray line = "proofbench: " + what.toUtf8() + "\n";
        std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
        std::fflush(stderr);
    });
    const QString verb = inv.args.value(1);
    if (verb == QLatin1String("--version")) {
        out() << "proofbench " << QCoreApplication::applicationVersion() << Qt::endl;
        return kOk;
    }
    if (verb == QLatin1String("--help")) {
        out() << generalHelp();
        out().flush();
        return kOk;
    }
    return dispatch(inv.args);
}

int run(const QStringList& argv) {
    Invocation inv = classify(argv);
    if (inv.mode != Invocation::Mode::Cli)
        inv = Invocation{Invocation::Mode::Cli, {}, {argv.value(0), QStringLiteral("--help")}, {}, false};
    return run(inv);
}

void setApplicationIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("Proofbench"));
    QCoreApplication::setApplicationName(QStringLiteral("proofbench"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PROOFBENCH_VERSION));
}

int runProcess(char* program, const Invocation& invocation) {
    // Qt is handed the program name only, so its own options (-platform, -style, ...) never
    // swallow a verb's flags: the verb's arguments are in invocation.args.
    int qtArgc = 1;
    char* qtArgv[] = {program, nullptr};
    if (invocation.needsGui) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QGuiApplication app(qtArgc, qtArgv);
        setApplicationIdentity();
        return run(invocation);
    }
    QCoreApplication app(qtArgc, qtArgv);
    setApplicationIdentity();
    return run(invocation);
}

} // namespace pb::cli
