// Template part of ops/Operation.h.
#pragma once

#include "db/Database.h"

#include <QSqlError>

#include <utility>

namespace pb::ops {

template <typename T, typename Effect>
Result<T> transact(const Context& ctx, Effect&& effect) {
    db::Transaction tx(ctx.db());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(ctx.db().sql().lastError().text()), ctx.db().path());
    auto done = std::forward<Effect>(effect)();
    if (!done)
        return done.error();
    auto& [outcome, draft] = *done;
    if (auto r = ctx.ledger().append(draft); !r)
        return makeError(QStringLiteral("receipt not written, so nothing was kept: %1").arg(r.error().toString()), ctx.db().path());
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit: %1").arg(ctx.db().sql().lastError().text()), ctx.db().path());
    return std::move(outcome);
}

} // namespace pb::ops
