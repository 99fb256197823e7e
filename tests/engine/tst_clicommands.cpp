// Issue 29: every command declares itself (app/cli/Commands.h), and its parser, --help, the group
// help's synopsis, the shell completion and the README's command table all come from that one
// declaration. Checked against the real `proofbench` binary and the table in-process.
#include "cli/Commands.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

Run proofbench(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    p.waitForFinished(120000);
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
               QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

QStringList words(const pb::cli::Command& c) {
    return c.sub.isEmpty() ? QStringList{c.verb} : QStringList{c.verb, c.sub};
}

// The lines of one section of QCommandLineParser's help ("Options:", "Arguments:").
QStringList section(const QString& help, const QString& title) {
    const qsizetype start = help.indexOf(QLatin1Char('\n') + title + QLatin1Char('\n'));
    if (start < 0)
        return {};
    QStringList lines;
    for (const QString& line : help.mid(start + title.size() + 2).split(QLatin1Char('\n'))) {
        if (line.isEmpty())
            break;
        lines << line;
    }
    return lines;
}

// Every option name the help lists ("-o, --output <FILE>  ..." gives -o and --output).
QSet<QString> helpOptions(const QString& help) {
    QSet<QString> names;
    static const QRegularExpression entry(QStringLiteral("^  (-[^ ,]+(?:, -[^ ,]+)*)"));
    for (const QString& line : section(help, QStringLiteral("Options:"))) {
        const QRegularExpressionMatch m = entry.match(line);
        if (!m.hasMatch())
            continue; // a wrapped description
        for (const QString& n : m.captured(1).split(QStringLiteral(", ")))
            names.insert(n);
    }
    return names;
}

QSet<QString> helpArguments(const QString& help) {
    QSet<QString> names;
    static const QRegularExpression entry(QStringLiteral("^  (\\S+)"));
    for (const QString& line : section(help, QStringLiteral("Arguments:")))
        if (const QRegularExpressionMatch m = entry.match(line); m.hasMatch())
            names.insert(m.captured(1));
    return names;
}

QString readmeTable() {
    QFile f(QStringLiteral(PB_SOURCE_DIR "/README.md"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(f.readAll());
    const qsizetype begin = text.indexOf(QStringLiteral("<!-- cli-table:begin"));
    const qsizetype end = text.indexOf(QStringLiteral("<!-- cli-table:end -->"));
    if (begin < 0 || end < begin)
        return {};
    const qsizetype from = text.indexOf(QLatin1Char('\n'), begin) + 1;
    return text.mid(from, end - from);
}

} // namespace

class TestCliCommands : public QObject {
    Q_OBJECT

  private slots:
    void tableIsComplete() {
        QVERIFY(pb::cli::commands().size() >= 44);
        QSet<QString> names;
        for (const pb::cli::Command& c : pb::cli::commands()) {
            QVERIFY2(c.handler, qPrintable(c.name()));
            QVERIFY2(!c.summary.isEmpty() && !c.description.isEmpty(), qPrintable(c.name()));
            QVERIFY2(!names.contains(c.name()), qPrintable(c.name()));
            names.insert(c.name());
        }
        for (const char* name :
             {"oci pull", "runs list", "perf import", "receipts export", "records stages", "completion"})
            QVERIFY2(names.contains(QString::fromLatin1(name)), name);
        const pb::cli::Command* report = pb::cli::commandNamed(QStringLiteral("report"));
        QVERIFY(report && report->needsGui);
    }

    // --help lists exactly the declared options and positional arguments.
    void helpListsExactlyTheDeclaration() {
        for (const pb::cli::Command& c : pb::cli::commands()) {
            const Run r = proofbench(words(c) + QStringList{QStringLiteral("--help")});
            QVERIFY2(r.code == 0, qPrintable(c.name() + r.err));
            QVERIFY2(r.out.startsWith(QStringLiteral("Usage: proofbench %1 [options]").arg(c.name())),
                     qPrintable(r.out.left(80)));
            QVERIFY2(r.out.contains(c.description.left(40)), qPrintable(c.name()));
            const QStringList declared = c.optionNames();
            QCOMPARE(helpOptions(r.out), QSet<QString>(declared.begin(), declared.end()));
            QSet<QString> positionals;
            for (const pb::cli::Positional& a : c.positionals)
                positionals.insert(a.name);
            QCOMPARE(helpArguments(r.out), positionals);
            // Issue 30: every verb's help says what its exit codes mean, from its declaration.
            QVERIFY2(r.out.contains(QStringLiteral("\nExit codes")), qPrintable(c.name()));
            for (const pb::cli::ExitCode& e : c.exitCodes)
                QVERIFY2(r.out.contains(QStringLiteral("  %1  %2\n").arg(e.code, 3).arg(e.meaning)),
                         qPrintable(c.name() + QStringLiteral(": exit %1").arg(e.code)));
        }
    }

    // Issue 30: exit codes are a contract. A malformed request is a usage error, exit 2, for every
    // verb, and nothing is written (not even the database); the verbs that mirror AICR list AICR's
    // codes, and validate's come from the runner itself.
    void exitCodesAreAContract() {
        const QString db = QDir::tempPath() +
                           QStringLiteral("/pb-exitcodes-%1.sqlite").arg(QCoreApplication::applicationPid());
        for (const pb::cli::Command& c : pb::cli::commands()) {
            const Run r = proofbench(
                words(c) + QStringList{QStringLiteral("--db"), db, QStringLiteral("--no-such-option")});
            QVERIFY2(r.code == 2,
                     qPrintable(c.name() + QStringLiteral(": exit %1 %2").arg(r.code).arg(r.err)));
            QVERIFY2(r.err.contains(QStringLiteral("no-such-option")), qPrintable(c.name() + r.err));
            QVERIFY2(!QFile::exists(db), qPrintable(c.name() + QStringLiteral(" created the database")));
            // Every code a verb lists is listed once.
            QSet<int> seen;
            for (const pb::cli::ExitCode& e : c.exitCodes) {
                QVERIFY2(!seen.contains(e.code), qPrintable(c.name()));
                seen.insert(e.code);
            }
            QVERIFY2(seen.contains(0) && seen.contains(2), qPrintable(c.name()));
        }
        auto codes = [](const QString& name) {
            QSet<int> out;
            for (const pb::cli::ExitCode& e : pb::cli::commandNamed(name)->exitCodes)
                out.insert(e.code);
            return out;
        };
        QCOMPARE(codes(QStringLiteral("validate")), (QSet<int>{0, 1, 2, 3, 4, 8, 130}));
        QCOMPARE(codes(QStringLiteral("evidence check")), (QSet<int>{0, 1, 2, 3}));
        QCOMPARE(codes(QStringLiteral("evidence fetch")), (QSet<int>{0, 1, 2, 3}));
        QCOMPARE(codes(QStringLiteral("receipts verify")), (QSet<int>{0, 1, 2}));
        // An error before any check ran is no verdict (3), never 1 ("valid, with failed phases").
        const Run missing =
            proofbench({QStringLiteral("evidence"), QStringLiteral("check"), QStringLiteral("--db"), db,
                        QDir::tempPath() + QStringLiteral("/pb-no-such-bundle")});
        QVERIFY2(missing.code == 2 || missing.code == 3, qPrintable(missing.err));
        QFile::remove(db);
        const Run global = proofbench({QStringLiteral("--help")});
        QVERIFY(global.out.contains(QStringLiteral("2 usage error")));
        QVERIFY(global.out.contains(QStringLiteral("--help lists its own")));
    }

    // Every declared option is accepted by the parser made from the declaration, and nothing else is.
    void parserAcceptsEveryDeclaredOption() {
        for (const pb::cli::Command& c : pb::cli::commands()) {
            for (const pb::cli::Option& o : c.options) {
                for (const QString& name : o.option.names()) {
                    QCommandLineParser p;
                    c.setUp(p);
                    QStringList args{QStringLiteral("proofbench"),
                                     (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name};
                    if (!o.option.valueName().isEmpty())
                        args << QStringLiteral("x");
                    QVERIFY2(p.parse(args), qPrintable(c.name() + QLatin1Char(' ') + name +
                                                       QLatin1String(": ") + p.errorText()));
                    QVERIFY2(p.isSet(name), qPrintable(c.name() + QLatin1Char(' ') + name));
                }
            }
            QCommandLineParser p;
            c.setUp(p);
            QVERIFY2(!p.parse({QStringLiteral("proofbench"), QStringLiteral("--no-such-option")}),
                     qPrintable(c.name()));
        }
    }

    // The group help shows each sub-command with the synopsis its declaration generates; the
    // general help lists every command with its summary.
    void synopsesAreGenerated() {
        const Run general = proofbench({QStringLiteral("--help")});
        QCOMPARE(general.code, 0);
        for (const pb::cli::Command& c : pb::cli::commands()) {
            QVERIFY2(general.out.contains(QStringLiteral("  %1  ").arg(c.name())), qPrintable(c.name()));
            QVERIFY2(general.out.contains(c.summary), qPrintable(c.name()));
            if (c.sub.isEmpty())
                continue;
            // (a verb that also runs bare, as `recipe`, answers --help with its own help)
            const pb::cli::Command* bare = pb::cli::findCommand(c.verb, QString());
            if (!bare || !bare->sub.isEmpty())
                QCOMPARE(pb::cli::groupHelp(c.verb), proofbench({c.verb, QStringLiteral("--help")}).out);
            const QString synopsis = c.synopsis();
            const QString line = synopsis.isEmpty() ? c.sub : c.sub + QLatin1Char(' ') + synopsis;
            QVERIFY2(
                pb::cli::groupHelp(c.verb).contains(QStringLiteral("\n  ") + line + QLatin1Char(' ')) ||
                    pb::cli::groupHelp(c.verb).contains(QStringLiteral("\n  ") + line + QLatin1Char('\n')),
                qPrintable(line));
        }
        // The synopsis is made of the declaration: every option outside a family, every positional.
        const pb::cli::Command* pull = pb::cli::commandNamed(QStringLiteral("oci pull"));
        QVERIFY(pull);
        QCOMPARE(
            pull->synopsis(),
            QStringLiteral(
                "[registry flags] --to DIR [--allow-unpinned-tag] [--referrers] [--format text|json] REF"));
        const pb::cli::Command* perf = pb::cli::commandNamed(QStringLiteral("perf import"));
        QVERIFY(perf);
        for (const char* o : {"--kind KIND", "[--check NAME]", "[--constraint NAME=VALUE]", "[--recipe FILE]",
                              "[--catalog DIR]", "[--version LABEL]", "[criteria]", "[--no-store]",
                              "[--at TIME]", "[--format text|json]"})
            QVERIFY2(perf->synopsis().contains(QLatin1String(o)), o);
    }

    void completionCoversEveryCommand() {
        for (const QString& shell : {QStringLiteral("bash"), QStringLiteral("zsh")}) {
            const Run r = proofbench({QStringLiteral("completion"), shell});
            QCOMPARE(r.code, 0);
            QCOMPARE(r.out, pb::cli::completionScript(shell));
            for (const pb::cli::Command& c : pb::cli::commands()) {
                QVERIFY2(r.out.contains(QRegularExpression(
                             QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(c.verb)))),
                         qPrintable(c.verb));
                if (!c.sub.isEmpty())
                    QVERIFY2(r.out.contains(QStringLiteral("%1/%2)").arg(c.verb, c.sub)),
                             qPrintable(c.name()));
                // the case of this command offers every option it declares
                const QString label = c.sub.isEmpty()
                                          ? QStringLiteral("\n                %1) ").arg(c.verb)
                                          : QStringLiteral("\n        %1/%2) ").arg(c.verb, c.sub);
                const qsizetype at = r.out.indexOf(label);
                QVERIFY2(at >= 0, qPrintable(c.name()));
                const QString line = r.out.mid(at + 1, r.out.indexOf(QLatin1Char('\n'), at + 1) - at - 1);
                for (const QString& o : c.optionNames())
                    QVERIFY2(line.contains(QLatin1Char(' ') + o + QLatin1Char(' ')) ||
                                 line.contains(QLatin1Char('"') + o + QLatin1Char(' ')) ||
                                 line.contains(QLatin1Char('(') + o + QLatin1Char(' ')) ||
                                 line.contains(QLatin1Char(' ') + o + QLatin1Char('"')) ||
                                 line.contains(QLatin1Char(' ') + o + QLatin1Char(')')),
                             qPrintable(c.name() + QLatin1Char(' ') + o));
            }
        }
        const Run bad = proofbench({QStringLiteral("completion"), QStringLiteral("fish")});
        QCOMPARE(bad.code, 2);
    }

    // The README's command table is the generated one (regenerate: proofbench completion markdown).
    void readmeTableIsGenerated() {
        const Run r = proofbench({QStringLiteral("completion"), QStringLiteral("markdown")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, pb::cli::markdownTable());
        QCOMPARE(readmeTable(), pb::cli::markdownTable());
    }

    // One source: no file of app/cli/ builds a parser of its own or reads an option no command
    // declares (the handlers get the parser Command::setUp makes from the declaration).
    void handlersReadOnlyDeclaredOptions() {
        QSet<QString> declared{QStringLiteral("help")};
        for (const pb::cli::Command& c : pb::cli::commands())
            for (const pb::cli::Option& o : c.options)
                for (const QString& n : o.option.names())
                    declared.insert(n);
        const QDir dir(QStringLiteral(PB_SOURCE_DIR "/app/cli"));
        const QStringList files =
            dir.entryList({QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files);
        QVERIFY(files.size() > 40);
        static const QRegularExpression read(
            QStringLiteral("\\bp\\.(?:isSet|value|values)\\(QStringLiteral\\(\"([^\"]+)\"\\)"));
        static const QRegularExpression parser(QStringLiteral("\\bQCommandLineParser [a-z]\\w*[;({]"));
        for (const QString& name : files) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString source = QString::fromUtf8(f.readAll());
            if (name != QLatin1String("Commands.cpp"))
                QVERIFY2(!source.contains(parser), qPrintable(name));
            for (auto it = read.globalMatch(source); it.hasNext();) {
                const QString option = it.next().captured(1);
                QVERIFY2(declared.contains(option), qPrintable(name + QLatin1String(": ") + option));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCliCommands)
#include "tst_clicommands.moc"
