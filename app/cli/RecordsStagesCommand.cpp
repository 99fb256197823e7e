// proofbench records stages: the stage table of each recipe entry of ConfigHub records
#include "cli/ReceiptsSupport.h"

namespace pb::cli {

Command recordsStagesCommand() {
    Command p = recordsCommand(
        QStringLiteral("records stages"),
        QStringLiteral("the stage table of each recipe entry of ConfigHub records"),
        QStringLiteral("The stage table of each recipe entry: stage, result (complete, partial, not run) and "
                       "the record behind it."));
    p.handler = recordsStages;
    return p;
}

} // namespace pb::cli
