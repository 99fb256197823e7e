// Check ConfigHub records offline (CLI `records check`): parse every record below a directory, run
// the offline checks (digest index recomputed, checksums files, shared digests) and build the stage
// table. Checking is an action: a records.check receipt names every record read (ok only when
// nothing failed). A receipt that cannot be written is the op's failure.
#pragma once

#include "ops/Operation.h"
#include "receipts/Records.h"

namespace pb::ops {

struct RecordsCheckRequest {
    QString dir;
};

Result<receipts::RecordsReport> checkRecords(const Context& ctx, const RecordsCheckRequest& request);

} // namespace pb::ops
