// An evidence layer as it arrives from a registry: tar (+gzip) extracted with the limits, then the
// summary bundle's offline checks (statement, predicate, manifest, CTRF digests, recipe binding).
#include "FuzzUtil.h"

#include "evidence/Bundle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    pb::evidence::ExtractLimits limits;
    limits.maxMembers = 200;
    limits.maxMemberBytes = 4 * 1024 * 1024;
    limits.maxTotalBytes = 16 * 1024 * 1024;
    pb::Result<QMap<QString, QByteArray>> files =
        pb::evidence::extractTar(pbfuzz::bytes(data, size), QStringLiteral("layer.tar.gz"), limits);
    if (!files)
        return 0;
    pb::evidence::SummaryBundle b;
    b.source = QStringLiteral("fuzz");
    for (auto it = files->cbegin(); it != files->cend(); ++it) {
        QString path = it.key();
        if (path.startsWith(QLatin1String("summary-bundle/")))
            path.remove(0, 15);
        b.files.insert(path, it.value());
    }
    (void)pb::evidence::checkBundle(b).toJson();
    return 0;
}
