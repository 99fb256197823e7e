// The registry client every OCI operation uses: the request's options (registry, credentials,
// TLS) with the operation's cancel flag and progress wired in.
#pragma once

#include "oci/Registry.h"
#include "ops/Operation.h"

namespace pb::ops {

inline oci::ClientOptions clientOptions(const Context& ctx, oci::ClientOptions options) {
    options.cancel = ctx.cancelFlag();
    options.progress = [&ctx](qint64 done, qint64 total, const QString& what) {
        ctx.progress(done, total < 0 ? 0 : total, what);
    };
    return options;
}

} // namespace pb::ops
