// The subset of `kustomize build` a bundle needs for a local kustomization: `resources:` that are
// files inside the kustomization's folder, each object written with sorted keys and comments
// dropped (as kustomize prints them), objects separated by "---". Anything else in the
// kustomization (generators, patches, remote bases) is an error naming the field.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QString>

#include <atomic>

namespace pb::bundle {

Result<QByteArray> kustomizeBuildLocal(const QString& dir);

// A Kustomize component's source as AICR builds it (`<repository>//<path>?ref=<ref>`): the
// kustomization at `path` in `repository` at `ref` (a tag, branch or commit; empty: HEAD), or, with
// no repository, the folder `path` (relative to `baseDir`, the catalog's folder).
struct KustomizeSource {
    QString repository; // a local repository path, file:// URL, or a remote URL (cloned, bare)
    QString path;
    QString ref;
};

// What was built, and from which commit.
struct KustomizeBuilt {
    QByteArray manifest;
    QString commit; // the commit read (empty for a plain folder)
};

// Reads the source with libgit2 (no checkout: the folder's files at the commit, links and
// submodules refused, sizes bounded) into a temporary folder and builds it with
// kustomizeBuildLocal. Errors name the repository, ref and path.
Result<KustomizeBuilt> kustomizeBuildSource(const KustomizeSource& source, const QString& baseDir,
                                            const std::atomic_bool* cancel = nullptr);

} // namespace pb::bundle
