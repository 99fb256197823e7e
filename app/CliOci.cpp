// OCI registry verbs (issue #11): placeholder until the registry client lands.
#include "CliUtil.h"

namespace pb::cli {

int ociVerbs(const QStringList& args) {
    return usage(QStringLiteral("'%1' is not available in this build yet").arg(args.mid(1, 2).join(QLatin1Char(' '))), args.value(1));
}

} // namespace pb::cli
