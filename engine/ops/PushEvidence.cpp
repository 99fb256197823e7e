#include "ops/PushEvidence.h"

#include "ops/OciClient.h"
#include "receipts/Kinds.h"

namespace pb::ops {

Result<oci::EvidencePush> pushEvidence(const Context& ctx, const PushEvidenceRequest& request) {
    if (request.to.isPinned())
        return makeError(
            QStringLiteral("the destination names a tag, not a digest (the digest is the result)"), {}, 0,
            QStringLiteral("--to"));
    oci::Client client(clientOptions(ctx, request.client));
    Result<oci::EvidencePush> pushed =
        oci::pushEvidence(client, request.bundleDir, request.to, request.options);
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::EvidencePush;
    d.parameters = QJsonObject{{QStringLiteral("to"), request.to.toString()},
                               {QStringLiteral("signed"), request.options.key != nullptr}};
    if (request.options.signIncomplete)
        d.parameters.insert(QStringLiteral("signIncomplete"), true);
    d.inputs.push_back(receipts::Artifact::directory(request.bundleDir));
    if (!pushed) {
        d.result = receipts::Outcome::Failed;
        d.message = pushed.error().toString();
        if (auto r = record(ctx, d); !r)
            return r.error();
        return pushed.error();
    }
    d.outputs.push_back(receipts::Artifact::digest(pushed->artifact.reference.toString(),
                                                   pushed->artifact.reference.digest.mid(7)));
    d.outputs.push_back(receipts::Artifact::file(pushed->pointerPath));
    d.message = QStringLiteral("published; pointer written");
    if (auto r = record(ctx, d); !r)
        return r.error();
    return pushed;
}

} // namespace pb::ops
