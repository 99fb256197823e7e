#include "ops/SignEvidence.h"

#include "receipts/Kinds.h"

#include <QJsonObject>

namespace pb::ops {

Result<SignEvidenceOutcome> signEvidence(const Context& ctx, const SignEvidenceRequest& request) {
    if (Status s = require(ctx, db::Capability::Sign); !s)
        return s.error();
    if (request.bundleDir.isEmpty())
        return makeError(QStringLiteral("give the evidence bundle directory"));
    Result<sigstore::crypto::Pkey> key = loadSigningKey(request.key);
    if (!key)
        return key.error();
    // The bundle as it was signed: hashed before the attestation is staged inside it.
    const receipts::Artifact input = receipts::Artifact::directory(request.bundleDir);
    StagedFiles files;
    Result<evidence::EvidenceSignature> s = evidence::signEvidence(
        request.bundleDir, key->get(), request.evidenceRoot, files.writer(), request.signIncomplete);
    if (!s)
        return s.error();
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::SignEvidence;
    d.parameters = QJsonObject{{QStringLiteral("keyFingerprint"), sigstore::keyFingerprint(key->get())},
                               {QStringLiteral("signer"), s->signerIdentity}};
    if (request.signIncomplete)
        d.parameters.insert(QStringLiteral("signIncomplete"), true);
    d.inputs.push_back(input);
    d.message = QStringLiteral("attestation and pointer written");
    d.outputs = files.artifacts();
    Result<receipts::Receipt> r = record(ctx, d, &files);
    if (!r)
        return r.error();
    return SignEvidenceOutcome{*s, r->seq};
}

} // namespace pb::ops
