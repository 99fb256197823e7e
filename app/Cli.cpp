#include "Cli.h"
#include "CliUtil.h"
#include "cli/Commands.h"

#include <QCoreApplication>

namespace pb::cli {

bool isCliInvocation(const QStringList& args) {
    if (args.size() < 2)
        return false;
    static const QStringList flags = {QStringLiteral("help"), QStringLiteral("--help"), QStringLiteral("-h"),
                                      QStringLiteral("--version"), QStringLiteral("-v")};
    return isVerb(args.at(1)) || flags.contains(args.at(1)) || !args.at(1).startsWith(QLatin1Char('-'));
}

int run(const QStringList& args) {
    const QString verb = args.value(1);
    if (verb == QLatin1String("--version") || verb == QLatin1String("-v")) {
        out() << "proofbench " << QCoreApplication::applicationVersion() << Qt::endl;
        return kOk;
    }
    if (verb == QLatin1String("--help") || verb == QLatin1String("-h") || verb == QLatin1String("help")) {
        out() << generalHelp();
        return kOk;
    }
    return dispatch(args);
}

} // namespace pb::cli
