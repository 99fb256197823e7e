// Sign an in-toto Statement v1 in a DSSE envelope, offline (CLI `attest`).
#pragma once

#include "ops/Operation.h"
#include "ops/SigningKey.h"
#include "sigstore/Sign.h"

#include <QList>

namespace pb::ops {

struct AttestRequest {
    QList<sigstore::Subject> subjects;
    QString predicateType;
    QString predicateFile; // a JSON object
    QString bundlePath;
    SigningKey key;
};

struct AttestOutcome {
    QString bundlePath, keyFingerprint;
    int subjects = 0;
    qint64 receiptSeq = 0;
};

// Parses "NAME=sha256:<64 hex>" (the CLI's --subject).
Result<sigstore::Subject> parseSubject(const QString& text);
Result<AttestOutcome> attest(const Context& ctx, const AttestRequest& request);

} // namespace pb::ops
