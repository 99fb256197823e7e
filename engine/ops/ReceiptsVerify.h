// Verify the receipts chain (CLI `receipts verify`, the Receipts view's banner): recompute every
// receipt's hash and link and name the first that breaks (edited, deleted, inserted, reordered).
// Reading the ledger changes nothing, so it leaves no receipt of its own (one would extend the very
// chain being judged).
#pragma once

#include "ops/Operation.h"

#include <vector>

namespace pb::ops {

struct ReceiptsVerifyOutcome {
    receipts::ChainCheck chain;
    std::vector<receipts::Receipt> receipts; // the ledger, oldest first (for the view)
};

struct ReceiptsVerifyRequest {
    bool withReceipts = false; // also hand back every receipt
};

Result<ReceiptsVerifyOutcome> verifyReceipts(const Context& ctx, const ReceiptsVerifyRequest& request = {});

} // namespace pb::ops
