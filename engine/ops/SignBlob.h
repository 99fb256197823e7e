// Sign a file offline into a Sigstore bundle (CLI `sign-blob`, the Sign view's "Sign file…").
#pragma once

#include "ops/Operation.h"
#include "ops/SigningKey.h"

namespace pb::ops {

struct SignBlobRequest {
    QString file;       // the blob
    QString bundlePath; // where the Sigstore bundle goes
    SigningKey key;
};

struct SignBlobOutcome {
    QString file, bundlePath, keyFingerprint;
    qint64 receiptSeq = 0;
};

// The bundle is staged and moved into place with its sign.blob receipt: both or neither.
Result<SignBlobOutcome> signBlob(const Context& ctx, const SignBlobRequest& request);

} // namespace pb::ops
