// `proofbench-cli`: the CLI alone, for servers, CI images and scripts. It links no widget library
// (pb_cli, pb_report and pb_engine only), so it needs no QtWidgets and no display; `proofbench VERB`
// runs the same code. Without a verb it prints the general help (there is no window to start).
#include "cli/Cli.h"

int main(int argc, char** argv) {
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    pb::cli::Invocation invocation = pb::cli::classify(args);
    if (invocation.mode != pb::cli::Invocation::Mode::Cli) {
        // Nothing, or only global options: the usage, as `proofbench --help` prints it, exit 2.
        invocation.mode = pb::cli::Invocation::Mode::Cli;
        invocation.args = QStringList{args.value(0), QStringLiteral("--help")};
        invocation.needsGui = false;
        const int rc = pb::cli::runProcess(argv[0], invocation);
        return rc == 0 ? 2 : rc;
    }
    return pb::cli::runProcess(argv[0], invocation);
}
