// The headless face of Proofbench: `proofbench <verb> ...`. Uses the engine only.
#pragma once

#include <QStringList>

namespace pb::cli {

// Verbs the CLI knows; anything else starts the GUI.
bool isCliInvocation(const QStringList& args);
// args includes the program name. Returns the process exit code.
int run(const QStringList& args);

} // namespace pb::cli
