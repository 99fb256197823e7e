// Pull an artifact into an OCI image layout (CLI `oci pull`): the manifest (or index) and its blobs,
// digests and sizes checked while streaming, optionally every referrer. An evidence artifact named
// by a tag alone is refused unless the request accepts it (it must be pinned, as aicr evidence
// verify insists). Leaves an oci.pull receipt (failed when the pull fails).
#pragma once

#include "oci/Reference.h"
#include "oci/Registry.h"
#include "ops/Operation.h"

namespace pb::ops {

struct OciPullRequest {
    oci::Reference reference;
    QString layoutDir; // created when absent
    bool allowUnpinnedTag = false;
    bool referrers = false;
    oci::ClientOptions client; // progress and cancel come from the Context
};

struct OciPullOutcome {
    oci::PullResult pull;
    QString layoutDir; // as the layout names it
};

// The error of a refused tag-only evidence artifact carries this field (the CLI's usage exit).
inline constexpr const char* kUnpinnedField = "--allow-unpinned-tag";

Result<OciPullOutcome> pullOci(const Context& ctx, const OciPullRequest& request);

} // namespace pb::ops
