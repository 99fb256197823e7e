// YAML alias bombs (issue 28): the input's first bytes choose an anchored scalar's length, how many
// aliases each level lists and how many levels there are; the rest is the anchored text. Whatever
// it builds, the parse must either refuse it for the alias expansion limit or return a document whose
// expanded text is within that limit: memory follows the limit, never the expansion.
#include "FuzzUtil.h"

#include "yaml/Yaml.h"

#include <cstdio>
#include <cstdlib>

namespace {

std::int64_t textBytes(const pb::yaml::Node& n) {
    std::int64_t c = static_cast<std::int64_t>(n.scalar.size());
    for (const pb::yaml::Node& i : n.items)
        c += textBytes(i);
    for (const pb::yaml::MapEntry& e : n.entries)
        c += textBytes(e.key) + textBytes(e.value);
    return c;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 3)
        return 0;
    const int stringKiB = 1 + data[0] % 64; // the anchored string: 1..64 KiB
    const int fanOut = 2 + data[1] % 15;    // aliases per level: 2..16
    const int levels = 1 + data[2] % 6;     // levels of alias lists: 1..6
    QByteArray text = pbfuzz::bytes(data + 3, size - 3).toBase64();
    if (text.isEmpty())
        text = "x";
    QByteArray anchored;
    while (anchored.size() < stringKiB * 1024)
        anchored += text;
    anchored.truncate(stringKiB * 1024);
    // The limits are scaled down so one run stays fast; the expansion they bound is what counts.
    pb::yaml::ParseLimits limits;
    limits.maxExpandedBytes = 8ll * 1024 * 1024;
    QByteArray doc = "s0: &s0 \"" + anchored + "\"\n";
    for (int l = 1; l <= levels; ++l) {
        doc += "s" + QByteArray::number(l) + ": &s" + QByteArray::number(l) + " [";
        for (int i = 0; i < fanOut; ++i)
            doc += (i ? ", *s" : "*s") + QByteArray::number(l - 1);
        doc += "]\n";
    }
    pb::Result<pb::yaml::Node> n = pb::yaml::parse(doc, QStringLiteral("bomb.yaml"), limits);
    if (!n) {
        if (!n.error().message.contains(QStringLiteral("alias expansion limit"))) {
            std::fprintf(stderr, "unexpected refusal: %s\n", qPrintable(n.error().toString()));
            std::abort();
        }
        return 0;
    }
    if (textBytes(*n) > limits.maxExpandedBytes) {
        std::fprintf(stderr, "expanded to %lld bytes, past the limit\n",
                     static_cast<long long>(textBytes(*n)));
        std::abort();
    }
    return 0;
}
