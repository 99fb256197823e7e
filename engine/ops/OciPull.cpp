#include "ops/OciPull.h"

#include "oci/Layout.h"
#include "ops/OciClient.h"
#include "receipts/Kinds.h"

namespace pb::ops {

Result<OciPullOutcome> pullOci(const Context& ctx, const OciPullRequest& request) {
    oci::Client client(clientOptions(ctx, request.client));
    const oci::Reference& ref = request.reference;
    oci::Reference target = ref;
    if (!ref.isPinned()) {
        // Resolve the tag first: an evidence artifact must be pinned.
        Result<oci::Manifest> m = client.getManifest(ref);
        if (!m)
            return m.error();
        if (m->descriptor().artifactType == QLatin1String(oci::kAicrArtifact) && !request.allowUnpinnedTag) {
            Error e;
            e.field = QLatin1String(kUnpinnedField);
            e.message = QStringLiteral("%1: an evidence artifact must be pulled by digest (%2/%3@%4); pass "
                                       "--allow-unpinned-tag to accept the tag")
                            .arg(ref.toString(), ref.registry, ref.repository, m->digest);
            return e;
        }
        target = ref.withDigest(m->digest);
        target.tag = ref.tag;
    }
    Result<oci::Layout> layout = oci::Layout::open(request.layoutDir);
    if (!layout)
        return layout.error();
    oci::PullOptions po;
    po.referrers = request.referrers;
    Result<oci::PullResult> pulled = client.pull(target, *layout, po);
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::OciPull;
    d.parameters = QJsonObject{{QStringLiteral("reference"), ref.toString()},
                               {QStringLiteral("referrers"), po.referrers}};
    if (!pulled) {
        d.result = receipts::Outcome::Failed;
        d.message = pulled.error().toString();
        if (auto r = record(ctx, d); !r)
            return r.error();
        return pulled.error();
    }
    d.inputs.push_back(
        receipts::Artifact::digest(pulled->reference.toString(), pulled->reference.digest.mid(7)));
    d.outputs.push_back(receipts::Artifact::directory(layout->dir()));
    d.message =
        QStringLiteral("%1 blobs fetched, %2 cached").arg(pulled->blobsFetched).arg(pulled->blobsCached);
    if (auto r = record(ctx, d); !r)
        return r.error();
    return OciPullOutcome{*pulled, layout->dir()};
}

} // namespace pb::ops
