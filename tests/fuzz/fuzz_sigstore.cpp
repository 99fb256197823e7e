// Sigstore bundles (v0.1-v0.3) parsed and verified offline against the production trusted root when
// it is available (../shared/data), which drives the DER, SCT, RFC 3161, checkpoint and inclusion
// proof readers; and trusted roots themselves. The first byte picks which.
#include "FuzzUtil.h"

#include "sigstore/Bundle.h"
#include "sigstore/TrustedRoot.h"
#include "sigstore/Verify.h"

#include <QFile>

#include <optional>

namespace {

const std::optional<pb::sigstore::TrustedRoot>& productionRoot() {
    static const std::optional<pb::sigstore::TrustedRoot> root =
        []() -> std::optional<pb::sigstore::TrustedRoot> {
        const QString path = qEnvironmentVariable(
            "PB_FUZZ_TRUSTED_ROOT", QStringLiteral(PB_SHARED_DATA "/sigstore/trusted_root.production.json"));
        pb::Result<pb::sigstore::TrustedRoot> r = pb::sigstore::loadTrustedRoot(path);
        if (r)
            return std::move(*r);
        return std::nullopt;
    }();
    return root;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1)
        return 0;
    const QByteArray in = pbfuzz::bytes(data + 1, size - 1);
    if (data[0] % 4 == 0) {
        (void)pb::sigstore::parseTrustedRoot(in, QStringLiteral("trusted_root.json"));
        return 0;
    }
    pb::Result<pb::sigstore::Bundle> b = pb::sigstore::parseBundle(in, QStringLiteral("fuzz.sigstore.json"));
    if (!b || !productionRoot())
        return 0;
    pb::sigstore::Policy policy;
    policy.identityRegexp = QStringLiteral(".*");
    policy.issuerRegexp = QStringLiteral(".*");
    policy.ignoreTlog = data[0] % 4 == 3;
    const pb::sigstore::Artifact artifact = pb::sigstore::Artifact::fromBytes(QByteArray("hello, world\n"));
    (void)pb::sigstore::verifyBundle(*b, QStringLiteral("fuzz.sigstore.json"), artifact, *productionRoot(),
                                     policy)
        .toJson();
    return 0;
}
