// A recipe catalog kept in a Git repository: which refs to read (named refs, then every tag matching
// a glob), each resolved with its catalog folder and label, in version order; and one ref's folder
// read from the object database as catalog files. ops::importCatalogGit writes what is read.
#pragma once

#include "catalog/Types.h"
#include "core/Result.h"
#include "git/Repository.h"

#include <QStringList>

#include <atomic>
#include <vector>

namespace pb::git {

struct CatalogRefsRequest {
    QStringList refs;                         // refs to read (tags, branches, commit ids)
    QString tagGlob;                          // and every tag matching this fnmatch glob; empty: none
    QString path = QStringLiteral("recipes"); // the catalog folder inside the repository
    QString label;                            // the version label; only with a single ref
};

struct CatalogAtRef {
    ResolvedRef ref;
    QString label;  // the request's label, else the tag, else the ref's short name
    QString folder; // the catalog folder at that commit
};

// Every ref resolved and its folder found, labels distinct, in version order (so that of two refs
// with the same content the older comes first). Errors name the ref and path and end with
// "nothing was imported" (no ref is read before all are planned).
Result<std::vector<CatalogAtRef>> planCatalogRefs(const Repository& repo, const CatalogRefsRequest& request,
                                                  const std::atomic_bool* cancel = nullptr);

// "<repository>@<label>:<folder>": the catalog's root as loaded from a ref.
QString catalogRootLabel(const Repository& repo, const CatalogAtRef& at);

// The files of the folder at the ref's commit, for catalog::loadCatalogFromFiles with
// catalogRootLabel() as the root (the loader of a folder on disk).
Result<std::vector<catalog::CatalogFile>> readCatalogFiles(const Repository& repo, const CatalogAtRef& at,
                                                           const ReadLimits& limits);

} // namespace pb::git
