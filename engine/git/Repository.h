// Reading catalogs out of Git repositories with libgit2: open a repository (bare or a clone), list
// its tags and branches with their commits and dates, resolve a ref to a commit, and read the files
// under a folder at a commit straight from the object database (no checkout, no work tree). Also:
// the clone (and HEAD commit) a folder on disk is inside, for folder imports.
//
// Every libgit2 object is held by a unique_ptr with its free function; libgit2 is initialised once
// per process (and shut down at exit). Errors carry libgit2's own message (git_error_last).
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

struct git_repository;

namespace pb::git {

// A tag or branch and the commit it points at (annotated tags are peeled to their commit).
struct RefInfo {
    QString name;         // short name: v0.14.0, main, origin/main
    QString fullName;     // refs/tags/v0.14.0
    QString kind;         // "tag", "branch" or "remote"
    QString commit;       // full commit id
    QDateTime commitDate; // committer date, UTC
    QString subject;      // first line of the commit message
};

// What a ref spec (v0.14.0, refs/tags/v0.14.0, main, HEAD, a commit id) names.
struct ResolvedRef {
    QString spec;         // as asked
    QString fullName;     // refs/tags/v0.14.0; empty when the spec is a commit id or expression
    QString shortName;    // v0.14.0, main; the spec itself when it is not a reference
    QString tag;          // the tag name when the spec names a tag
    QString commit;       // full commit id
    QDateTime commitDate; // committer date, UTC
};

struct TreeFile {
    QString path; // relative to the folder read, '/'-separated
    QByteArray bytes;
};

// The bounds of a tree read: the same per-file and file-count limits as a folder load
// (catalog::LoadOptions), and a cap on the total.
struct ReadLimits {
    qint64 maxFileBytes = 8ll * 1024 * 1024;
    int maxFiles = 20000;
    qint64 maxTotalBytes = 512ll * 1024 * 1024;
    const std::atomic_bool* cancel = nullptr;
    std::function<void(int, int)> progress; // (files read, files total)
};

// The clone a folder on disk is inside, with its HEAD commit.
struct CloneInfo {
    QString workdir;      // the clone's top folder (no trailing slash)
    QString pathInClone;  // the folder, relative to workdir ("recipes", "" for the top)
    QString commit;       // the last commit that changed the folder (`git log -1 -- <folder>` from HEAD)
    QDateTime commitDate; // that commit's committer date, UTC: the time of the folder's content
    QString headCommit;   // HEAD's commit id
    bool dirty = false;   // files under the folder differ from HEAD (modified, added, deleted or untracked)
};

struct RepositoryFree {
    void operator()(git_repository* repo) const;
};

class Repository {
  public:
    // Opens the repository at `path` exactly (a bare repository, a clone's top folder or its .git);
    // no search upwards. An error names the path and says it is not a Git repository.
    static Result<Repository> open(const QString& path);
    // A bare clone of `url` (https://, ssh://, git://, file:// or a path) made in `dir` (an empty
    // or missing folder), every branch and tag fetched; TLS certificates are verified (libgit2's
    // default). `cancel` stops the transfer. An error carries libgit2's message and names the URL.
    static Result<Repository> cloneBare(const QString& url, const QString& dir,
                                        const std::atomic_bool* cancel = nullptr);

    const QString& path() const { return m_path; }
    bool isBare() const;

    // Tags, local branches and remote-tracking branches (symbolic refs such as origin/HEAD are left
    // out), sorted by kind then name. Refs that do not point at a commit are skipped.
    Result<std::vector<RefInfo>> refs() const;
    // Refs the last refs() left out because their names are not UTF-8 (percent-encoded here).
    const QStringList& skippedRefs() const { return m_skippedRefs; }
    // Resolves a ref spec to a commit; an error names the repository and the spec.
    Result<ResolvedRef> resolve(const QString& spec) const;

    // The catalog folder at `commit`: `path` itself when it holds overlays/, or `path`/recipes when
    // that does (as the folder loader does); "" or "." is the top of the tree. An error says what
    // is missing ("no folder 'recipes' at commit 1b4724e39abc").
    Result<QString> catalogFolder(const QString& commit, const QString& path) const;

    // Every file under `folder` at `commit`, read from the object database, sorted by path. A
    // symbolic link (mode 120000) or a submodule (gitlink) inside the folder is refused by name, as
    // the folder loader refuses links; a file over the limits is refused by name and size.
    Result<std::vector<TreeFile>> readFiles(const QString& commit, const QString& folder,
                                            const ReadLimits& limits = {}) const;

    // The clone `folder` is inside, when there is one and the folder is tracked in its HEAD commit;
    // nullopt otherwise (no clone, a bare repository, an unborn HEAD, an untracked folder).
    // `checkDirty` also looks for uncommitted changes under the folder.
    static Result<std::optional<CloneInfo>> enclosingClone(const QString& folder, bool checkDirty = true);

  private:
    Repository(git_repository* repo, QString path);
    std::unique_ptr<git_repository, RepositoryFree> m_repo;
    QString m_path;
    mutable QStringList m_skippedRefs;
};

// True when `name` matches the fnmatch(3)-style glob (`*`, `?`, `[...]`).
bool globMatch(const QString& glob, const QString& name);

// libgit2's version, "1.5.1".
QString libgit2Version();

} // namespace pb::git
