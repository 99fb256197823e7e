// YAML documents (every catalog file, pointer and kubeconfig goes through this parser), with the
// default limits: depth, node count (alias expansion) and size.
#include "FuzzUtil.h"

#include "yaml/Yaml.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    pb::Result<pb::yaml::Node> n = pb::yaml::parse(pbfuzz::bytes(data, size), QStringLiteral("fuzz.yaml"));
    if (n) {
        (void)pb::yaml::toJson(*n);
        (void)pb::yaml::serialize(*n);
    }
    return 0;
}
