// Import ConfigHub records (CLI `records import`, the Receipts view's Import records…): every
// record below a directory stored in one transaction with its records.import receipt; a file that
// does not parse refuses the whole import (a failed receipt says so). Importing the same files
// again changes nothing.
#pragma once

#include "ops/Operation.h"
#include "receipts/Records.h"

namespace pb::ops {

struct RecordsImportRequest {
    QString dir;
};

Result<receipts::RecordsImport> importRecords(const Context& ctx, const RecordsImportRequest& request);

// "11 record(s): 11 added, 0 updated, 0 unchanged; 0 check(s) failed"
QString recordsImportSummary(const receipts::RecordsImport& r);

} // namespace pb::ops
