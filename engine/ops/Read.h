// Reads the window does off the GUI thread through ops::Async (no receipt: nothing is changed).
// Views use these instead of constructing a store on a worker thread of their own.
#pragma once

#include "catalog/Types.h"
#include "ops/Operation.h"

#include <memory>

namespace pb::ops {

// The stored catalog version `label`, whole (every file), as loaded for resolving and comparing.
Result<std::shared_ptr<const catalog::Catalog>> loadCatalogVersion(const Context& ctx, const QString& label);

} // namespace pb::ops
