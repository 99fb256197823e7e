#include "ops/PushBundle.h"

#include "oci/Artifact.h"
#include "ops/OciClient.h"
#include "receipts/Kinds.h"

namespace pb::ops {

Result<oci::PushResult> pushBundle(const Context& ctx, const PushBundleRequest& request) {
    oci::Client client(clientOptions(ctx, request.client));
    Result<oci::PushResult> pushed =
        oci::pushDeploymentBundle(client, request.dir, request.to, request.stagingDir);
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::BundlePush;
    d.parameters = QJsonObject{{QStringLiteral("to"), request.to.toString()}};
    d.inputs.push_back(receipts::Artifact::directory(request.dir));
    if (!pushed) {
        d.result = receipts::Outcome::Failed;
        d.message = pushed.error().toString();
        if (auto r = record(ctx, d); !r)
            return r.error();
        return pushed.error();
    }
    d.outputs.push_back(
        receipts::Artifact::digest(pushed->reference.toString(), pushed->reference.digest.mid(7)));
    d.message = QStringLiteral("%1 bytes in %2 new blobs").arg(pushed->bytesPushed).arg(pushed->blobsPushed);
    if (auto r = record(ctx, d); !r)
        return r.error();
    return pushed;
}

} // namespace pb::ops
