#include "cli/ExitCodes.h"

#include "ops/Validate.h"
#include "validation/Runner.h"

#include <map>

namespace pb::cli {

ExitCodes standardExitCodes() {
    return {{0, QStringLiteral("success")},
            {1, QStringLiteral(
                    "failure: the action failed or what it checked is not true (the reason on stderr)")},
            {2, QStringLiteral("usage error: the request is malformed; nothing was done or stored")}};
}

ExitCodes evidenceVerdictExitCodes() {
    return {{0, QStringLiteral("valid (as aicr evidence verify)")},
            {1, QStringLiteral("valid, with recorded phase failures")},
            {2, QStringLiteral("invalid: the bundle fails a check, or the request is malformed")},
            {3, QStringLiteral("incomplete: a check could not run or finish (no verdict), including an error "
                               "before any check ran")}};
}

ExitCodes validateExitCodes() {
    using validation::RunState;
    // Every final state's code, as the runner gives it; states that share a code share a line.
    std::map<int, QStringList> byCode;
    for (RunState s : {RunState::Passed, RunState::Failed, RunState::ReadinessFailed, RunState::Error,
                       RunState::Incomplete, RunState::Cancelled, RunState::Skipped}) {
        validation::RunResult r;
        r.state = s;
        byCode[r.exitCode()] << validation::runStateName(s);
    }
    byCode[2] << QStringLiteral("usage error, or --out already holds evidence (refused before the run)");
    byCode[ops::kExitEvidenceNotWritten]
        << QStringLiteral("the checks ran but their evidence or its signature could not be written");
    byCode[1] << QStringLiteral("error before the run started (the reason on stderr)");
    static const std::map<int, QString> notes{{0, QStringLiteral("(aicr validate's 0)")},
                                              {2, QStringLiteral("(aicr validate's 2: invalid)")},
                                              {3, QStringLiteral("(a cluster fault: not a failure)")},
                                              {8, QStringLiteral("(aicr validate's 8)")},
                                              {130, QStringLiteral("(Ctrl-C)")}};
    ExitCodes out;
    for (const auto& [code, names] : byCode) {
        const auto note = notes.find(code);
        out.push_back({code, names.join(QStringLiteral(", ")) +
                                 (note == notes.end() ? QString() : QLatin1Char(' ') + note->second)});
    }
    return out;
}

QString exitCodesHelp(const ExitCodes& codes, const QString& source) {
    QString text = QStringLiteral("\nExit codes%1:\n")
                       .arg(source.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(source));
    for (const ExitCode& c : codes)
        text += QStringLiteral("  %1  %2\n").arg(c.code, 3).arg(c.meaning);
    return text;
}

} // namespace pb::cli
