// kubeconfig files: parse, merge with itself, resolve the current context, and print as kubectl.
#include "FuzzUtil.h"

#include "kube/Kubeconfig.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    pb::Result<pb::kube::Kubeconfig> k =
        pb::kube::Kubeconfig::parse(pbfuzz::bytes(data, size), QStringLiteral("/tmp/fuzz/kubeconfig"));
    if (!k)
        return 0;
    (void)k->toJson(true);
    for (const pb::kube::Context& c : k->contexts)
        (void)pb::kube::resolveContext(*k, c.name);
    (void)pb::kube::resolveContext(*k);
    return 0;
}
