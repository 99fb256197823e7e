// Export the receipts ledger (CLI `receipts export`, the Receipts view's Export): every receipt
// and the chain head as JSON ({"format":"proofbench-receipts/v1",...}); with a key, the head
// statement and a Sigstore bundle over it too, recorded as receipts.sign-head. The signed files
// are staged and moved into place inside the receipt's transaction: on disk only when on record.
// A plain export writes no receipt (it reads the ledger; its bytes are the ledger).
#pragma once

#include "ops/Operation.h"

#include <openssl/types.h>

namespace pb::ops {

struct ReceiptsExportRequest {
    QString outPath;         // the export; empty: not written (the outcome's bytes are the export)
    EVP_PKEY* key = nullptr; // borrowed; when set the head is signed
    QString headPath;        // with key: the head statement
    QString bundlePath;      // with key: the Sigstore bundle over it
    QString databaseName;    // named in the statement; empty: the database file's name
};

struct ReceiptsExportOutcome {
    QByteArray bytes;         // the export (indented JSON)
    receipts::ChainHead head; // as exported
    bool signedHead = false;
    QByteArray statement; // with key
};

Result<ReceiptsExportOutcome> exportReceipts(const Context& ctx, const ReceiptsExportRequest& request);

} // namespace pb::ops
