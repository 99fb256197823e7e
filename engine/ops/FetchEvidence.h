// Fetch evidence (CLI `evidence fetch`, the Health view's Fetch Evidence dialog): for every
// evidence pointer, pull the bundle it pins (by digest) and its Sigstore signature referrer into the
// local OCI cache, check it offline, and import what was fetched. The imports and the
// evidence.fetch receipt are one transaction. A cancelled run is an outcome (its rows say
// "cancelled"), recorded as failed; only a database or receipt failure is an error.
#pragma once

#include "evidence/Bundle.h"
#include "evidence/Evidence.h"
#include "oci/Artifact.h"
#include "oci/Registry.h"
#include "ops/Operation.h"

#include <functional>
#include <optional>
#include <vector>

namespace pb::ops {

enum class FetchedState { Queued, Fetching, Checking, Valid, ValidFailedPhases, Invalid, Failed, Cancelled };

// One pointer's outcome.
struct FetchedBundle {
    evidence::Pointer pointer;
    FetchedState state = FetchedState::Queued;
    int exitCode = 3;                           // 0 valid, 1 failed phases, 2 invalid, 3 not fetched
    QString error;                              // fetch or load error (empty when checked)
    QString detail;                             // one line: the reason, or what the check found
    std::optional<oci::EvidenceFetch> fetch;    // when pulled
    std::optional<evidence::BundleCheck> check; // when loaded and checked
    bool imported = false;
    // The CLI's per-pointer JSON: {pointer, fetch, check, exit} or {pointer, error[, exit]}.
    QJsonObject toJson() const;
};

struct FetchedBundle;
// What the window shows while a run goes on; called on the op's worker threads.
struct FetchEvent {
    int index = 0; // into FetchEvidenceRequest::pointers
    FetchedState state = FetchedState::Queued;
    qint64 bytesDone = 0, bytesTotal = -1; // while Fetching
    const FetchedBundle* result = nullptr; // when the bundle is done (valid to the end of the call)
};

struct FetchEvidenceRequest {
    std::vector<evidence::Pointer> pointers;
    QString cacheDir;          // the OCI cache (oci::Layout::defaultCacheDir() when empty)
    oci::ClientOptions client; // registry options; progress and cancel come from the Context
    // The signature check (keyless root or key); empty: the database's default trusted root.
    std::optional<evidence::SignatureCheck> signature;
    int concurrency = 2; // bundles pulled at once
    std::function<void(const FetchEvent&)> onEvent;
};

struct FetchEvidenceOutcome {
    std::vector<FetchedBundle> bundles; // in request order
    int worst = 0;                      // the worst exit code (CLI exit)
    bool cancelled = false;
    int valid() const;  // Valid + ValidFailedPhases
    int failed() const; // Failed + Invalid
    int imported() const;
};

Result<FetchEvidenceOutcome> fetchEvidence(const Context& ctx, const FetchEvidenceRequest& request);

} // namespace pb::ops
