#include "ops/ReceiptsVerify.h"

#include "db/Database.h"

namespace pb::ops {

Result<ReceiptsVerifyOutcome> verifyReceipts(const Context& ctx, const ReceiptsVerifyRequest& request) {
    receipts::Ledger ledger = ctx.ledger();
    ReceiptsVerifyOutcome out;
    // One read transaction: the list and the check see the same ledger.
    db::Transaction tx(ctx.db(), db::Transaction::Mode::Read);
    if (request.withReceipts) {
        auto rows = ledger.list();
        if (!rows)
            return rows.error();
        out.receipts = std::move(*rows);
    }
    auto check = ledger.verify();
    if (!check)
        return check.error();
    out.chain = std::move(*check);
    return out;
}

} // namespace pb::ops
