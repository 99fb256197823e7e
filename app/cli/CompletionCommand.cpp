// completion: the shell completion scripts (bash, zsh) and the README's command table (markdown),
// all made from the command table's declarations.
#include "cli/CliUtil.h"
#include "cli/Commands.h"

namespace pb::cli {

namespace {

// The verbs that have sub-commands, each with its sub-commands in table order.
QList<QPair<QString, QStringList>> groups() {
    QList<QPair<QString, QStringList>> result;
    for (const QString& verb : verbs()) {
        QStringList subs;
        for (const Command& c : commands())
            if (c.verb == verb && !c.sub.isEmpty())
                subs << c.sub;
        result.append({verb, subs});
    }
    return result;
}

// The words one shell case offers: a bare command's options, after a group verb its sub-commands.
QString words(const QStringList& list) {
    return list.join(QLatin1Char(' '));
}

// The body both shells share: find the verb and sub-command typed so far (skipping options and the
// value of --db), then offer the words of that command. `assign` turns a word list into the
// shell's assignment of the candidates.
QString caseBody(QString (*assign)(const QString& words)) {
    QString text;
    text += QStringLiteral("    case \"$verb/$sub\" in\n");
    for (const Command& c : commands())
        if (!c.sub.isEmpty())
            text +=
                QStringLiteral("        %1/%2) %3 ;;\n").arg(c.verb, c.sub, assign(words(c.optionNames())));
    text += QStringLiteral("        *)\n            case \"$verb\" in\n");
    for (const auto& [verb, subs] : groups()) {
        QStringList offered = subs;
        if (const Command* bare = findCommand(verb, QString()); bare && bare->sub.isEmpty())
            offered += bare->optionNames();
        else if (!subs.isEmpty())
            offered << QStringLiteral("--help");
        text += QStringLiteral("                %1) %2 ;;\n").arg(verb, assign(words(offered)));
    }
    text +=
        QStringLiteral("                *) %1 ;;\n            esac ;;\n    esac\n")
            .arg(assign(words(verbs() + QStringList{QStringLiteral("help"), QStringLiteral("--db"),
                                                    QStringLiteral("--help"), QStringLiteral("--version")})));
    return text;
}

QString bashAssign(const QString& w) {
    return QStringLiteral("candidates=\"%1\"").arg(w);
}
QString zshAssign(const QString& w) {
    return QStringLiteral("candidates=(%1)").arg(w);
}

// The verb and sub-command typed so far; `first` is the index of the first word after the program.
QString findVerb(const QString& wordsArray, const QString& first, const QString& current) {
    return QStringLiteral(
               "    local verb= sub= i w\n"
               "    for ((i = %2; i < %3; i++)); do\n"
               "        w=${%1[i]}\n"
               "        if [[ $w == --db ]]; then ((i++)); continue; fi\n"
               "        [[ $w == -* ]] && continue\n"
               "        if [[ -z $verb ]]; then verb=$w; elif [[ -z $sub ]]; then sub=$w; break; fi\n"
               "    done\n")
        .arg(wordsArray, first, current);
}

QString bashScript() {
    return QStringLiteral("# bash completion for proofbench (made by 'proofbench completion bash')\n"
                          "_proofbench() {\n"
                          "    local cur=${COMP_WORDS[COMP_CWORD]} candidates\n") +
           findVerb(QStringLiteral("COMP_WORDS"), QStringLiteral("1"), QStringLiteral("COMP_CWORD")) +
           caseBody(bashAssign) +
           QStringLiteral("    COMPREPLY=($(compgen -W \"$candidates\" -- \"$cur\"))\n"
                          "}\n"
                          "complete -o default -F _proofbench proofbench\n");
}

QString zshScript() {
    return QStringLiteral("#compdef proofbench\n"
                          "# zsh completion for proofbench (made by 'proofbench completion zsh')\n"
                          "_proofbench() {\n"
                          "    local -a candidates\n") +
           findVerb(QStringLiteral("words"), QStringLiteral("2"), QStringLiteral("CURRENT")) +
           caseBody(zshAssign) +
           QStringLiteral("    compadd -- $candidates\n"
                          "    _files\n"
                          "}\n"
                          "if [[ $funcstack[1] == _proofbench ]]; then _proofbench \"$@\"; else compdef "
                          "_proofbench proofbench; fi\n");
}

QString cell(QString text) {
    return text.replace(QLatin1Char('|'), QStringLiteral("\\|"));
}

int completion(const QCommandLineParser& p) {
    const QStringList args = p.positionalArguments();
    if (args.size() != 1)
        return usage(QStringLiteral("give one of bash, zsh or markdown"), QStringLiteral("completion"));
    const QString text = completionScript(args.constFirst());
    if (text.isEmpty())
        return usage(
            QStringLiteral("unknown shell '%1' (expected bash, zsh or markdown)").arg(args.constFirst()),
            QStringLiteral("completion"));
    out() << text;
    out().flush();
    return kOk;
}

} // namespace

QString completionScript(const QString& shell) {
    if (shell == QLatin1String("bash"))
        return bashScript();
    if (shell == QLatin1String("zsh"))
        return zshScript();
    if (shell == QLatin1String("markdown"))
        return markdownTable();
    return {};
}

QString markdownTable() {
    QString text = QStringLiteral("| Command | Synopsis | What it does |\n|---|---|---|\n");
    for (const Command& c : commands()) {
        const QString synopsis = c.synopsis();
        text +=
            QStringLiteral("| `%1` | `proofbench %2` | %3 |\n")
                .arg(c.name(), cell(synopsis.isEmpty() ? c.name() : c.name() + QLatin1Char(' ') + synopsis),
                     cell(c.summary));
    }
    // The exit codes: the standard ones, then each verb whose codes are its own (cli/ExitCodes.h).
    QStringList standard;
    for (const ExitCode& e : standardExitCodes())
        standard << QStringLiteral("%1 %2").arg(e.code).arg(e.meaning);
    text += QStringLiteral(
                "\n**Exit codes.** Every command: %1. These use the codes of the AICR command "
                "they mirror (each one's `--help` lists them):\n\n| Command | Exit codes |\n|---|---|\n")
                .arg(cell(standard.join(QStringLiteral("; "))));
    for (const Command& c : commands()) {
        bool own = c.exitCodes.size() != standardExitCodes().size();
        for (qsizetype i = 0; !own && i < c.exitCodes.size(); ++i)
            own = c.exitCodes[i].code != standardExitCodes()[i].code ||
                  c.exitCodes[i].meaning != standardExitCodes()[i].meaning;
        if (!own)
            continue;
        QStringList codes;
        for (const ExitCode& e : c.exitCodes)
            codes << QStringLiteral("%1 %2").arg(e.code).arg(e.meaning);
        text += QStringLiteral("| `%1` (%2) | %3 |\n")
                    .arg(c.name(), cell(c.exitCodesSource), cell(codes.join(QStringLiteral("; "))));
    }
    return text;
}

Command completionCommand() {
    Command p(QStringLiteral("completion"),
              QStringLiteral("a shell completion script (bash, zsh), or the README's command table"),
              QStringLiteral("Print a completion script for every verb, sub-command and option: "
                             "'source <(proofbench completion bash)', or for zsh put the output of "
                             "'proofbench completion zsh' in a directory of $fpath as _proofbench. "
                             "'markdown' prints the command table of the README."));
    p.addPositionalArgument(QStringLiteral("SHELL"), QStringLiteral("bash, zsh or markdown."),
                            QStringLiteral("bash|zsh|markdown"));
    p.handler = completion;
    return p;
}

} // namespace pb::cli
