#include "bundle/TreeDigest.h"

#include <QCryptographicHash>

#include <algorithm>

namespace pb::bundle {

bool partOfTreeDigest(const QString& path) {
    return path != QLatin1String("checksums.txt") && !path.startsWith(QLatin1String("digest-index/")) &&
           !path.startsWith(QLatin1String("attestation/"));
}

QString treeDigestOfFiles(std::vector<std::pair<QString, QString>> files) {
    std::vector<std::pair<QByteArray, QByteArray>> lines;
    lines.reserve(files.size());
    for (auto& [path, sha] : files)
        if (partOfTreeDigest(path))
            lines.emplace_back(path.toUtf8(), sha.toLatin1().toLower());
    std::sort(lines.begin(), lines.end()); // byte order of the UTF-8 paths
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const auto& [path, sha] : lines) {
        h.addData(sha);
        h.addData(QByteArrayView("  "));
        h.addData(path);
        h.addData(QByteArrayView("\n"));
    }
    return QString::fromLatin1(h.result().toHex());
}

} // namespace pb::bundle
