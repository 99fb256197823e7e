// Import catalog versions straight from a Git repository (CLI `catalog import --git`, the window's
// Import from Git…): the catalog folder (default recipes) is read at each ref from the object
// database (bare repository or clone, no checkout), loaded with the same loader as a folder
// (catalog::loadCatalogFromFiles) and imported with ops::importCatalog, its source recorded
// (repository, ref, tag, commit, commit date, path). One transaction per version.
#pragma once

#include "git/Repository.h"
#include "ops/Operation.h"

#include <QDateTime>
#include <QStringList>

#include <vector>

namespace pb::ops {

struct ImportCatalogGitRequest {
    QString repository; // a bare repository, or the top folder of a clone
    QStringList refs;   // refs to import (tags, branches, commit ids)
    QString tagGlob;    // and every tag matching this fnmatch glob ("v*", "*"); empty: none
    QString path = QStringLiteral("recipes"); // the catalog folder inside the repository
    QString label;         // the version label; only with a single ref (default: tag or ref name)
    bool replace = false;  // replace a version of the same label whose content differs
    QString expectRelease; // each version must reproduce this AICR release's signed recipe catalog
                           // (ImportCatalogRequest)
};

struct GitVersionOutcome {
    QString label;
    QString ref; // as asked (or the tag's full name for --tags)
    QString tag; // the tag name when the ref is a tag
    QString commit;
    QDateTime commitDate;  // committer date, UTC
    QString path;          // the catalog folder read
    QString outcome;       // "imported", "unchanged", "replaced" or "skipped-same-content"
    QString sameContentAs; // skipped: the version that already has this content
    int files = 0, recipes = 0;
    QString contentDigest;
    qint64 receiptSeq = 0;
    QStringList signedByReleases; // AICR releases whose recipe-catalog signature it reproduces
    // "v0.14.0: imported (tag v0.14.0, commit 1b4724e39abc 2026-01-02, 97 files, 36 recipes)"
    QString summary() const;
};

struct ImportCatalogGitOutcome {
    QString repository;                      // absolute path of the repository
    std::vector<GitVersionOutcome> versions; // in version order (the order they were imported)
    bool cancelled = false;                  // stopped by the cancel flag; `versions` were done before
    QStringList skippedRefs; // refs left out because their names are not UTF-8 (percent-encoded)
    // Labels written (imported or replaced).
    QStringList importedLabels() const;
};

// Every ref is resolved and its catalog folder found BEFORE anything is written: a repository that
// is not one, a ref that does not exist, or a commit without the folder is an error naming the
// repository, ref and path, and nothing is imported. Then each version is read, loaded and imported
// in its own transaction with its catalog.import receipt, in version order; a version whose content
// is already stored under another label is skipped (and receipted as such). A version that fails to
// load or import stops the run: the error names it and the versions already imported before it.
Result<ImportCatalogGitOutcome> importCatalogGit(const Context& ctx, const ImportCatalogGitRequest& request);

// The repository's tags and branches, for the window's chooser.
Result<std::vector<git::RefInfo>> listGitRefs(const QString& repository);

} // namespace pb::ops
