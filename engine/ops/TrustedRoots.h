// Trusted roots for offline verification, as `proofbench verify --import-trusted-root` and the
// Verify view's Import… both store them, and as `verify` picks one: a file named in the request,
// else a stored root chosen by id, else the database's default.
#pragma once

#include "ops/Operation.h"
#include "sigstore/TrustedRoot.h"

#include <optional>

namespace pb::ops {

// Parses the file (an invalid root is refused, naming the file and field) and stores it; the same
// bytes again return the existing id. `makeDefault`: the root used when none is named. Public trust
// material only, so it leaves no receipt (the verifications that use it name its sha256).
Result<qint64> importTrustedRoot(const Context& ctx, const QString& path, bool makeDefault = true);

// `path` when given, else the stored root `id` when non-zero, else the default; an empty optional
// when none of them names one (no default stored).
Result<std::optional<sigstore::TrustedRoot>> resolveTrustedRoot(const Context& ctx, const QString& path,
                                                                qint64 id = 0);

} // namespace pb::ops
