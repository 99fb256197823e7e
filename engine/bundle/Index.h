// A ConfigHub-style digest index for a deployment bundle (CLI `bundle index DIR`): one payload per
// rendered object, and one platform digest over the inputs (source), the recipe's criteria and
// every payload, computed exactly as receipts::platformDigest (and so `records check`) does.
//
// Written into the bundle:
//   digest-index/platform-index.json   kind AICRPlatformDigestIndex: spec{platformDigest, source,
//                                      criteria, transports: [], members[{component, role,
//                                      syncWave, payloadSha256, payloadPath}]}
//   digest-index/payloads/<name>-<sha256>.json   canonical JSON + "\n", one per object
//   digest-index/README.md, digest-index/checksums.txt (over the three above)
//   checksums.txt                      every file of the bundle, the index included
// Objects: each YAML document of a YAML file (a Kubernetes object, a values file, Chart.yaml),
// each other file whole (scripts, upstream.env, READMEs, Helm templates that are not YAML), and
// recipe.yaml as the recipe member. Every payload carries its file's sha256, so a changed byte
// anywhere in the bundle changes a payload and with it the platform digest; the top-level
// checksums.txt lets `records check` see a changed file without re-indexing.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <atomic>
#include <functional>
#include <vector>

namespace pb::bundle {

inline constexpr const char* kIndexDir = "digest-index";

// Bounds on the bundle read (hostile trees are refused by name).
struct IndexLimits {
    int maxFiles = 20000;
    qint64 maxFileBytes = 64ll * 1024 * 1024;
    qint64 maxTotalBytes = 1024ll * 1024 * 1024;
    int maxDepth = 16;
    int maxDocumentsPerFile = 5000;
};

struct IndexFile {
    QString path; // relative to the bundle directory, '/' separated
    QByteArray bytes;
};

struct DigestIndex {
    QString platformDigest; // "sha256:<hex>"
    QString treeDigest;     // the bundle's tree digest (as bundle::treeDigest), index excluded
    QString deployer;       // "helm", "argocd", "" when not recognised
    int members = 0;
    int bundleFiles = 0;
    QJsonObject index;            // the platform-index.json document
    std::vector<IndexFile> files; // digest-index/* and the top-level checksums.txt, sorted by path
};

using IndexProgressFn = std::function<void(int done, int total, const QString& what)>;

// `source` is merged into spec.source (the generation inputs, when known: catalog and recipe
// digests, options); the tree digest, deployer and recipe digest are always added. Refuses a
// sealed bundle (its checksums.txt is signed; index before sealing), a symlink, a file or tree
// over the limits, and a bundle whose existing checksums.txt disagrees with a file it lists.
Result<DigestIndex> buildIndex(const QString& dir, const QJsonObject& source = {},
                               const IndexLimits& limits = {}, const IndexProgressFn& progress = {},
                               const std::atomic_bool* cancel = nullptr);

// The bundle's tree digest read from disk (the same value bundle::treeDigest gives for the tree
// that was written), leaving out digest-index/ and the top-level checksums.txt.
Result<QString> treeDigestOnDisk(const QString& dir, const IndexLimits& limits = {});

} // namespace pb::bundle
