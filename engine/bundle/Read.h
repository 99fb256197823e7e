// Reading a deployment bundle from a folder (or from files already in memory: an imported bundle's
// stored files) into a DeployBundle. The tree is treated as hostile input, as evidence bundles
// are: symbolic links, devices, pipes and sockets are refused by name, and the number of files,
// each file's size, the total size and the folder depth are bounded; every refusal names the file,
// the limit and the reason. Malformed YAML in a file the layout depends on (a values file, an
// Application, a HelmRelease, a helmfile) is an error naming file and line; a file no deployer
// layout explains is kept and listed as unknown.
#pragma once

#include "bundle/Model.h"
#include "core/Result.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <functional>
#include <map>
#include <optional>

namespace pb::bundle::model {

struct ReadLimits {
    int maxFiles = 10000;
    qint64 maxFileBytes = 16ll * 1024 * 1024;
    qint64 maxTotalBytes = 512ll * 1024 * 1024;
    int maxDepth = 32;
};

struct ReadOptions {
    std::optional<Deployer> deployer; // empty: detected from the layout
    ReadLimits limits;
    const std::atomic_bool* cancel = nullptr;
    std::function<void(int done, int total)> progress; // files read
};

// Files by relative '/'-separated path.
using FileMap = std::map<QString, QByteArray>;

struct ReadBundle {
    DeployBundle bundle;
    FileMap contents; // every file's bytes
};

// Reads every regular file below `dir` (refusing a hostile tree), then the layout.
Result<ReadBundle> readBundle(const QString& dir, const ReadOptions& options = {});
// The layout of files already read (`name` is what errors and the bundle's root call it).
Result<DeployBundle> readBundleFiles(const QString& name, const FileMap& files,
                                     const ReadOptions& options = {});
// Which deployer wrote these files, or an error saying what was looked for.
Result<Deployer> detectDeployer(const QString& name, const FileMap& files);

// An argocd-helm Application template with its Helm actions made inert: lines that are only a
// template action are dropped, an unquoted templated value is quoted as written, block scalars are
// kept as they are. The result parses as YAML; a scalar that holds "{{" is a templated field.
QByteArray inertTemplate(const QByteArray& text);

} // namespace pb::bundle::model
