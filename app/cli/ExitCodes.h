// The exit codes of the CLI, one table. Every verb uses 0 success, 1 failure (the reason on stderr)
// and 2 usage error (nothing was done or stored). Verbs that mirror an AICR command use its codes
// instead, and say so in their --help: `validate` those of `aicr validate` (0 passed, 2 invalid,
// 8 failed; 3 incomplete and 130 cancelled are Proofbench's), `evidence check` and `evidence fetch`
// the verdicts of `aicr evidence verify` (0 valid, 1 valid with failed phases, 2 invalid,
// 3 incomplete). Each Command carries its table; --help prints it and README's table is this one.
#pragma once

#include <QList>
#include <QString>

namespace pb::cli {

struct ExitCode {
    int code = 0;
    QString meaning;
};
using ExitCodes = QList<ExitCode>;

ExitCodes standardExitCodes();
ExitCodes evidenceVerdictExitCodes();
ExitCodes validateExitCodes(); // from validation::RunResult::exitCode(), so it cannot drift
// "Exit codes:" and one line per code, for --help.
QString exitCodesHelp(const ExitCodes& codes, const QString& source = {});

} // namespace pb::cli
