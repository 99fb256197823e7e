// proofbench records check: check ConfigHub records offline: each record's fields, checks and digests
#include "cli/ReceiptsSupport.h"

namespace pb::cli {

Command recordsCheckCommand() {
    Command p = recordsCommand(
        QStringLiteral("records check"),
        QStringLiteral("check ConfigHub records offline: each record's fields, checks and digests"),
        QStringLiteral(
            "Parse every ConfigHub record below DIR and run the offline checks: the digest index's "
            "platform digest recomputed from its payloads, checksums.txt files, digests shared with "
            "the generation receipt. Exit 0 only when nothing fails."));
    p.handler = recordsCheck;
    return p;
}

} // namespace pb::cli
