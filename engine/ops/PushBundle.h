// Publish a deployment bundle (CLI `bundle push`): the directory as one tar+gzip layer, as
// `aicr bundle -o oci://` does. Leaves a bundle.push receipt (failed when the push fails).
#pragma once

#include "oci/Reference.h"
#include "oci/Registry.h"
#include "ops/Operation.h"

namespace pb::ops {

struct PushBundleRequest {
    QString dir;               // the deployment bundle directory
    oci::Reference to;         // registry/repository:tag
    QString stagingDir;        // empty: a temporary directory under the cache, removed afterwards
    oci::ClientOptions client; // progress and cancel come from the Context
};

Result<oci::PushResult> pushBundle(const Context& ctx, const PushBundleRequest& request);

} // namespace pb::ops
