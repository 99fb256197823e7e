// Evidence pointers (every layout) checked against an allowlist, the allowlist itself, and CTRF.
#include "FuzzUtil.h"

#include "evidence/Bundle.h"
#include "evidence/Evidence.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1)
        return 0;
    const QByteArray in = pbfuzz::bytes(data + 1, size - 1);
    switch (data[0] % 3) {
    case 0: {
        pb::evidence::Pointer p = pb::evidence::parsePointer(
            in, QStringLiteral("h100-eks-ubuntu-training/aicr-ci-abc/sha256-0.yaml"));
        pb::evidence::checkPointer(p, nullptr);
        break;
    }
    case 1:
        (void)pb::evidence::parseAllowlist(in, QStringLiteral("allowlist.yaml"));
        break;
    default:
        (void)pb::evidence::parseCtrf(in, QStringLiteral("ctrf/performance.json"));
        break;
    }
    return 0;
}
