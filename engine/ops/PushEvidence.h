// Publish an evidence summary bundle (CLI `evidence push`): one tar+gzip layer with AICR's
// artifactType, the Sigstore bundle as a referrer (signed first with the request's key when given),
// and the pointer written pinned to the manifest digest. Leaves an evidence.push receipt (failed
// when the push fails).
#pragma once

#include "oci/Artifact.h"
#include "oci/Reference.h"
#include "oci/Registry.h"
#include "ops/Operation.h"

namespace pb::ops {

struct PushEvidenceRequest {
    QString bundleDir;                // a summary-bundle directory or its parent
    oci::Reference to;                // registry/repository:tag (not a digest)
    oci::EvidencePushOptions options; // pointer root, staging directory, signing key (borrowed)
    oci::ClientOptions client;        // progress and cancel come from the Context
};

Result<oci::EvidencePush> pushEvidence(const Context& ctx, const PushEvidenceRequest& request);

} // namespace pb::ops
