// Template part of ops/Operation.h.
#pragma once

#include <utility>

namespace pb::ops {

template <typename T, typename Effect>
Result<Recorded<T>> transact(const Context& ctx, Effect&& effect, StagedFiles* files) {
    ReceiptTransaction tx(ctx);
    if (Status s = tx.started(); !s)
        return s.error();
    auto done = std::forward<Effect>(effect)();
    if (!done)
        return done.error();
    auto& [outcome, draft] = *done;
    Result<receipts::Receipt> receipt = tx.commit(draft, files);
    if (!receipt)
        return receipt.error();
    return Recorded<T>{std::move(outcome), std::move(*receipt)};
}

} // namespace pb::ops
