#include "git/Repository.h"

#include <git2.h>

#include <QDir>
#include <QFileInfo>
#include <QSet>

#include <fnmatch.h>

#include <algorithm>

namespace pb::git {

namespace {

// libgit2 is initialised once, on first use, and shut down when the process exits.
void ensureInit() {
    struct Library {
        Library() { git_libgit2_init(); }
        ~Library() { git_libgit2_shutdown(); }
        Library(const Library&) = delete;
        Library& operator=(const Library&) = delete;
    };
    static const Library library;
}

template <typename T, void (*Free)(T*)> struct Deleter {
    void operator()(T* p) const { Free(p); }
};
using ObjectPtr = std::unique_ptr<git_object, Deleter<git_object, git_object_free>>;
using CommitPtr = std::unique_ptr<git_commit, Deleter<git_commit, git_commit_free>>;
using TreePtr = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using TreeEntryPtr = std::unique_ptr<git_tree_entry, Deleter<git_tree_entry, git_tree_entry_free>>;
using CommitPtr = std::unique_ptr<git_commit, Deleter<git_commit, git_commit_free>>;
using ReferencePtr = std::unique_ptr<git_reference, Deleter<git_reference, git_reference_free>>;
using RefIteratorPtr =
    std::unique_ptr<git_reference_iterator, Deleter<git_reference_iterator, git_reference_iterator_free>>;
using OdbPtr = std::unique_ptr<git_odb, Deleter<git_odb, git_odb_free>>;
using OdbObjectPtr = std::unique_ptr<git_odb_object, Deleter<git_odb_object, git_odb_object_free>>;
using StatusListPtr = std::unique_ptr<git_status_list, Deleter<git_status_list, git_status_list_free>>;

// libgit2's message for the last failure on this thread.
QString lastError() {
    const git_error* e = git_error_last();
    return e && e->message ? QString::fromUtf8(e->message) : QStringLiteral("unknown libgit2 error");
}

QString oidText(const git_oid* oid) {
    char hex[GIT_OID_HEXSZ + 1] = {};
    git_oid_tostr(hex, sizeof hex, oid);
    return QString::fromLatin1(hex);
}

QDateTime commitTime(const git_commit* c) {
    return QDateTime::fromSecsSinceEpoch(static_cast<qint64>(git_commit_time(c)), Qt::UTC);
}

QString subjectOf(const git_commit* c) {
    const char* s = git_commit_summary(const_cast<git_commit*>(c));
    return s ? QString::fromUtf8(s) : QString();
}

Result<CommitPtr> lookupCommit(git_repository* repo, const QString& commit) {
    git_oid oid;
    if (git_oid_fromstr(&oid, commit.toLatin1().constData()) != 0)
        return makeError(QStringLiteral("'%1' is not a full commit id").arg(commit));
    git_commit* c = nullptr;
    if (git_commit_lookup(&c, repo, &oid) != 0)
        return makeError(QStringLiteral("commit %1 not found: %2").arg(commit, lastError()));
    return CommitPtr(c);
}

// The root tree of a commit given by its full id.
Result<TreePtr> commitRootTree(git_repository* repo, const QString& commit) {
    Result<CommitPtr> c = lookupCommit(repo, commit);
    if (!c)
        return c.error();
    git_tree* rawRoot = nullptr;
    if (git_commit_tree(&rawRoot, c->get()) != 0)
        return makeError(QStringLiteral("cannot read the tree of commit %1: %2").arg(commit, lastError()));
    return TreePtr(rawRoot);
}

// The tree `path` names in the tree of `commit` (the root tree for "" or "."); nullopt when
// there is no such entry; an error when it is not a folder.
Result<std::optional<TreePtr>> subtree(git_repository* repo, const git_tree* root, const QString& path) {
    const QString clean = QDir::cleanPath(path);
    if (clean.isEmpty() || clean == QLatin1String(".")) {
        git_tree* dup = nullptr;
        if (git_tree_dup(&dup, const_cast<git_tree*>(root)) != 0)
            return makeError(lastError());
        return std::optional<TreePtr>(TreePtr(dup));
    }
    git_tree_entry* raw = nullptr;
    const int rc = git_tree_entry_bypath(&raw, root, clean.toUtf8().constData());
    if (rc == GIT_ENOTFOUND)
        return std::optional<TreePtr>();
    if (rc != 0)
        return makeError(lastError());
    TreeEntryPtr entry(raw);
    if (git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE)
        return makeError(QStringLiteral("'%1' is not a folder").arg(clean));
    git_tree* t = nullptr;
    if (git_tree_lookup(&t, repo, git_tree_entry_id(entry.get())) != 0)
        return makeError(lastError());
    return std::optional<TreePtr>(TreePtr(t));
}

// The id of what `path` names in a commit (its root tree for ""), or nothing when it holds no such path.
std::optional<git_oid> pathId(const git_commit* c, const QString& path) {
    git_tree* rawTree = nullptr;
    if (git_commit_tree(&rawTree, c) != 0)
        return std::nullopt;
    TreePtr tree(rawTree);
    if (path.isEmpty())
        return *git_tree_id(tree.get());
    git_tree_entry* rawEntry = nullptr;
    if (git_tree_entry_bypath(&rawEntry, tree.get(), path.toUtf8().constData()) != 0)
        return std::nullopt;
    TreeEntryPtr entry(rawEntry);
    return *git_tree_entry_id(entry.get());
}

// `git log -1 -- <path>` from `start`: the newest commit that changed what `path` holds. A commit whose
// path is the same as in one of its parents did not change it: the walk follows that parent (Git's
// history simplification); the first commit that differs from every parent, or has none, changed it.
// Bounded: after kMaxWalk commits the one reached is taken.
CommitPtr lastCommitTouching(const git_commit* start, const QString& path) {
    constexpr int kMaxWalk = 200000;
    git_commit* raw = nullptr;
    if (git_commit_dup(&raw, const_cast<git_commit*>(start)) != 0)
        return {};
    CommitPtr current(raw);
    for (int step = 0; step < kMaxWalk; ++step) {
        const std::optional<git_oid> here = pathId(current.get(), path);
        if (!here)
            break;
        CommitPtr same;
        const unsigned parents = git_commit_parentcount(current.get());
        for (unsigned i = 0; i < parents && !same; ++i) {
            git_commit* rawParent = nullptr;
            if (git_commit_parent(&rawParent, current.get(), i) != 0)
                continue; // a shallow clone's boundary: the walk stops here
            CommitPtr parent(rawParent);
            const std::optional<git_oid> there = pathId(parent.get(), path);
            if (there && git_oid_equal(&*there, &*here))
                same = std::move(parent);
        }
        if (!same)
            break;
        current = std::move(same);
    }
    return current;
}

bool hasSubtree(const git_tree* tree, const char* name) {
    const git_tree_entry* e = git_tree_entry_byname(tree, name);
    return e && git_tree_entry_type(e) == GIT_OBJECT_TREE;
}

QString joinPath(const QString& a, const QString& b) {
    return a.isEmpty() ? b : a + QLatin1Char('/') + b;
}

struct Entry {
    QString path;
    git_oid oid;
};

// Lists the blobs under `tree` (recursively), refusing links and submodules by name.
Status collect(git_repository* repo, const git_tree* tree, const QString& prefix, const QString& shownRoot,
               const ReadLimits& limits, std::vector<Entry>& out) {
    const size_t n = git_tree_entrycount(tree);
    QSet<QString> seen;
    for (size_t i = 0; i < n; ++i) {
        const git_tree_entry* e = git_tree_entry_byindex(tree, i);
        // A tree is data anyone can write: its names are checked as a folder's would be, never joined
        // into a path unchecked.
        const QByteArray raw(git_tree_entry_name(e));
        const QString where = prefix.isEmpty() ? QStringLiteral("the catalog folder") : prefix;
        if (!QUtf8StringView(raw).isValidUtf8())
            return makeError(QStringLiteral("an entry of %1 is named with bytes that are not UTF-8 (%2)")
                                 .arg(where, QString::fromLatin1(raw.toPercentEncoding())),
                             shownRoot);
        const QString name = QString::fromUtf8(raw);
        bool control = false;
        for (QChar c : name)
            control |= c.unicode() < 0x20 || c.unicode() == 0x7f;
        if (name.isEmpty() || name == QLatin1String(".") || name == QLatin1String("..") ||
            name.contains(QLatin1Char('/')) || name.contains(QLatin1Char('\\')) || control)
            return makeError(
                QStringLiteral("an entry of %1 is named '%2', which is not a plain file or folder "
                               "name (no path, no '.' or '..', no control characters)")
                    .arg(where, name.toHtmlEscaped()),
                shownRoot);
        if (name.compare(QLatin1String(".git"), Qt::CaseInsensitive) == 0)
            return makeError(
                QStringLiteral("%1 holds an entry named '%2', which only Git's own folder may be")
                    .arg(where, name),
                shownRoot);
        if (seen.contains(name))
            return makeError(QStringLiteral("%1 holds two entries named '%2'").arg(where, name), shownRoot);
        seen.insert(name);
        const QString rel = joinPath(prefix, name);
        switch (git_tree_entry_filemode(e)) {
        case GIT_FILEMODE_TREE: {
            git_tree* sub = nullptr;
            if (git_tree_lookup(&sub, repo, git_tree_entry_id(e)) != 0)
                return makeError(QStringLiteral("cannot read folder %1: %2").arg(rel, lastError()),
                                 shownRoot);
            TreePtr subtreePtr(sub);
            if (Status s = collect(repo, subtreePtr.get(), rel, shownRoot, limits, out); !s)
                return s;
            break;
        }
        case GIT_FILEMODE_LINK:
            return makeError(
                QStringLiteral("%1 is a symbolic link; a catalog is read without following links "
                               "(commit the file itself there)")
                    .arg(rel),
                shownRoot);
        case GIT_FILEMODE_COMMIT:
            return makeError(
                QStringLiteral("%1 is a submodule (a link to another repository's commit); a catalog "
                               "holds only files and folders")
                    .arg(rel),
                shownRoot);
        case GIT_FILEMODE_BLOB:
        case GIT_FILEMODE_BLOB_EXECUTABLE:
            out.push_back(Entry{rel, *git_tree_entry_id(e)});
            if (static_cast<qint64>(out.size()) > limits.maxFiles)
                return makeError(
                    QStringLiteral("more than %1 files; not a catalog folder?").arg(limits.maxFiles),
                    shownRoot);
            break;
        default:
            return makeError(QStringLiteral("%1 has an unknown file mode %2")
                                 .arg(rel)
                                 .arg(git_tree_entry_filemode(e), 0, 8),
                             shownRoot);
        }
    }
    return {};
}

QString withoutTrailingSlash(QString p) {
    while (p.size() > 1 && p.endsWith(QLatin1Char('/')))
        p.chop(1);
    return p;
}

} // namespace

void RepositoryFree::operator()(git_repository* repo) const {
    git_repository_free(repo);
}

Repository::Repository(git_repository* repo, QString path) : m_repo(repo), m_path(std::move(path)) {}

Result<Repository> Repository::open(const QString& path) {
    ensureInit();
    if (path.trimmed().isEmpty())
        return makeError(QStringLiteral("no repository given"));
    const QFileInfo fi(path);
    if (!fi.exists())
        return makeError(QStringLiteral("no such folder"), path);
    if (!fi.isDir())
        return makeError(QStringLiteral("not a folder, so not a Git repository"), path);
    git_repository* repo = nullptr;
    const int rc = git_repository_open_ext(&repo, QFile::encodeName(fi.absoluteFilePath()).constData(),
                                           GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr);
    if (rc == GIT_ENOTFOUND)
        return makeError(
            QStringLiteral("not a Git repository (neither a bare repository nor the top of a clone)"), path);
    if (rc != 0)
        return makeError(QStringLiteral("cannot open the Git repository: %1").arg(lastError()), path);
    return Repository(repo, QDir::cleanPath(fi.absoluteFilePath()));
}

Result<Repository> Repository::cloneBare(const QString& url, const QString& dir,
                                         const std::atomic_bool* cancel) {
    ensureInit();
    if (url.trimmed().isEmpty())
        return makeError(QStringLiteral("no repository URL given"));
    git_clone_options options = GIT_CLONE_OPTIONS_INIT;
    options.bare = 1;
    // A transfer callback that returns non-zero stops the fetch: how `cancel` is honoured.
    options.fetch_opts.callbacks.transfer_progress = [](const git_indexer_progress*, void* payload) {
        const auto* flag = static_cast<const std::atomic_bool*>(payload);
        return flag && flag->load() ? -1 : 0;
    };
    options.fetch_opts.callbacks.payload = const_cast<std::atomic_bool*>(cancel);
    git_repository* repo = nullptr;
    const int rc = git_clone(&repo, url.toUtf8().constData(), QFile::encodeName(dir).constData(), &options);
    if (rc != 0) {
        if (cancel && cancel->load())
            return makeError(QStringLiteral("cancelled while cloning"), url);
        return makeError(QStringLiteral("cannot clone: %1").arg(lastError()), url);
    }
    return Repository(repo, QDir::cleanPath(QFileInfo(dir).absoluteFilePath()));
}

bool Repository::isBare() const {
    return git_repository_is_bare(m_repo.get()) == 1;
}

Result<std::vector<RefInfo>> Repository::refs() const {
    m_skippedRefs.clear();
    git_reference_iterator* rawIt = nullptr;
    if (git_reference_iterator_new(&rawIt, m_repo.get()) != 0)
        return makeError(QStringLiteral("cannot list references: %1").arg(lastError()), m_path);
    RefIteratorPtr it(rawIt);
    std::vector<RefInfo> out;
    git_reference* rawRef = nullptr;
    int rc = 0;
    while ((rc = git_reference_next(&rawRef, it.get())) == 0) {
        ReferencePtr ref(rawRef);
        if (git_reference_type(ref.get()) != GIT_REFERENCE_DIRECT)
            continue; // origin/HEAD and the like name another ref
        // A ref name that is not UTF-8 cannot be shown or asked for by name: skipped, and said so.
        if (!QUtf8StringView(git_reference_name(ref.get())).isValidUtf8()) {
            m_skippedRefs << QString::fromLatin1(
                QByteArray(git_reference_name(ref.get())).toPercentEncoding("/"));
            continue;
        }
        RefInfo info;
        if (git_reference_is_tag(ref.get()))
            info.kind = QStringLiteral("tag");
        else if (git_reference_is_branch(ref.get()))
            info.kind = QStringLiteral("branch");
        else if (git_reference_is_remote(ref.get()))
            info.kind = QStringLiteral("remote");
        else
            continue; // notes, stash, ...
        git_object* peeled = nullptr;
        if (git_reference_peel(&peeled, ref.get(), GIT_OBJECT_COMMIT) != 0)
            continue; // a tag of a tree or blob: nothing to import
        ObjectPtr commit(peeled);
        const auto* c = reinterpret_cast<const git_commit*>(commit.get());
        info.fullName = QString::fromUtf8(git_reference_name(ref.get()));
        info.name = QString::fromUtf8(git_reference_shorthand(ref.get()));
        info.commit = oidText(git_commit_id(c));
        info.commitDate = commitTime(c);
        info.subject = subjectOf(c);
        out.push_back(std::move(info));
    }
    if (rc != GIT_ITEROVER)
        return makeError(QStringLiteral("cannot list references: %1").arg(lastError()), m_path);
    static const QStringList kindOrder = {QStringLiteral("tag"), QStringLiteral("branch"),
                                          QStringLiteral("remote")};
    std::sort(out.begin(), out.end(), [](const RefInfo& a, const RefInfo& b) {
        if (a.kind != b.kind)
            return kindOrder.indexOf(a.kind) < kindOrder.indexOf(b.kind);
        return a.name < b.name;
    });
    return out;
}

Result<ResolvedRef> Repository::resolve(const QString& spec) const {
    if (spec.trimmed().isEmpty())
        return makeError(QStringLiteral("an empty ref"), m_path);
    git_object* rawObj = nullptr;
    git_reference* rawRef = nullptr;
    if (git_revparse_ext(&rawObj, &rawRef, m_repo.get(), spec.toUtf8().constData()) != 0)
        return makeError(
            QStringLiteral("ref '%1' does not exist in the repository (%2)").arg(spec, lastError()), m_path);
    ObjectPtr obj(rawObj);
    ReferencePtr ref(rawRef);
    git_object* rawCommit = nullptr;
    if (git_object_peel(&rawCommit, obj.get(), GIT_OBJECT_COMMIT) != 0)
        return makeError(QStringLiteral("ref '%1' does not name a commit (%2)").arg(spec, lastError()),
                         m_path);
    ObjectPtr commit(rawCommit);
    const auto* c = reinterpret_cast<const git_commit*>(commit.get());
    ResolvedRef r;
    r.spec = spec;
    r.shortName = spec;
    if (ref) {
        // HEAD and other symbolic refs: name the branch they point at.
        git_reference* rawResolved = nullptr;
        ReferencePtr resolved;
        if (git_reference_type(ref.get()) == GIT_REFERENCE_SYMBOLIC &&
            git_reference_resolve(&rawResolved, ref.get()) == 0)
            resolved.reset(rawResolved);
        const git_reference* named = resolved ? resolved.get() : ref.get();
        r.fullName = QString::fromUtf8(git_reference_name(named));
        if (!resolved)
            r.shortName = QString::fromUtf8(git_reference_shorthand(named));
        if (git_reference_is_tag(named))
            r.tag = QString::fromUtf8(git_reference_shorthand(named));
    }
    r.commit = oidText(git_commit_id(c));
    r.commitDate = commitTime(c);
    return r;
}

Result<QString> Repository::catalogFolder(const QString& commit, const QString& path) const {
    Result<TreePtr> rootTree = commitRootTree(m_repo.get(), commit);
    if (!rootTree)
        return makeError(rootTree.error().message, m_path);
    const TreePtr root = std::move(*rootTree);
    QString folder = QDir::cleanPath(path);
    if (folder == QLatin1String("."))
        folder.clear();
    if (folder.startsWith(QLatin1String("../")) || folder == QLatin1String("..") ||
        folder.startsWith(QLatin1Char('/')))
        return makeError(QStringLiteral("the path '%1' is not inside the repository").arg(path), m_path);
    Result<std::optional<TreePtr>> tree = subtree(m_repo.get(), root.get(), folder);
    if (!tree)
        return makeError(QStringLiteral("at commit %1: %2").arg(commit.left(12), tree.error().message),
                         m_path);
    if (!*tree)
        return makeError(QStringLiteral("no folder '%1' at commit %2").arg(folder, commit.left(12)), m_path);
    if (hasSubtree((*tree)->get(), "overlays"))
        return folder;
    if (git_tree_entry_byname((*tree)->get(), "recipes")) {
        const QString inner = joinPath(folder, QStringLiteral("recipes"));
        Result<std::optional<TreePtr>> sub = subtree(m_repo.get(), root.get(), inner);
        if (sub && *sub && hasSubtree((**sub).get(), "overlays"))
            return inner;
    }
    return makeError(QStringLiteral("'%1' at commit %2 is not an AICR catalog: no overlays/ folder")
                         .arg(folder.isEmpty() ? QStringLiteral(".") : folder, commit.left(12)),
                     m_path);
}

Result<std::vector<TreeFile>> Repository::readFiles(const QString& commit, const QString& folder,
                                                    const ReadLimits& limits) const {
    const QString shownRoot = QStringLiteral("%1@%2:%3").arg(m_path, commit.left(12), folder);
    Result<TreePtr> rootTree = commitRootTree(m_repo.get(), commit);
    if (!rootTree)
        return makeError(rootTree.error().message, m_path);
    const TreePtr root = std::move(*rootTree);
    Result<std::optional<TreePtr>> tree = subtree(m_repo.get(), root.get(), folder);
    if (!tree)
        return makeError(tree.error().message, shownRoot);
    if (!*tree)
        return makeError(QStringLiteral("no folder '%1' at commit %2").arg(folder, commit.left(12)), m_path);

    std::vector<Entry> entries;
    if (Status s = collect(m_repo.get(), (*tree)->get(), QString(), shownRoot, limits, entries); !s)
        return s.error();
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.path < b.path; });

    git_odb* rawOdb = nullptr;
    if (git_repository_odb(&rawOdb, m_repo.get()) != 0)
        return makeError(QStringLiteral("cannot open the object database: %1").arg(lastError()), m_path);
    OdbPtr odb(rawOdb);
    std::vector<TreeFile> out;
    out.reserve(entries.size());
    qint64 total = 0;
    const int count = static_cast<int>(entries.size());
    for (int i = 0; i < count; ++i) {
        const Entry& e = entries[static_cast<size_t>(i)];
        if (limits.cancel && limits.cancel->load())
            return makeError(QStringLiteral("cancelled"), shownRoot);
        // The size is read from the object's header before the object itself, so an oversized
        // blob is refused without being inflated into memory.
        size_t size = 0;
        git_object_t type = GIT_OBJECT_INVALID;
        if (git_odb_read_header(&size, &type, odb.get(), &e.oid) != 0)
            return makeError(QStringLiteral("cannot read %1: %2").arg(e.path, lastError()), shownRoot);
        if (static_cast<qint64>(size) > limits.maxFileBytes)
            return makeError(QStringLiteral("%1 is %2 bytes, larger than the %3 MiB a catalog file may be")
                                 .arg(e.path)
                                 .arg(size)
                                 .arg(limits.maxFileBytes >> 20),
                             shownRoot);
        total += static_cast<qint64>(size);
        if (total > limits.maxTotalBytes)
            return makeError(QStringLiteral("the files add up to more than %1 MiB; not a catalog folder?")
                                 .arg(limits.maxTotalBytes >> 20),
                             shownRoot);
        git_odb_object* rawObject = nullptr;
        if (git_odb_read(&rawObject, odb.get(), &e.oid) != 0)
            return makeError(QStringLiteral("cannot read %1: %2").arg(e.path, lastError()), shownRoot);
        OdbObjectPtr object(rawObject);
        if (git_odb_object_type(object.get()) != GIT_OBJECT_BLOB)
            return makeError(QStringLiteral("%1 is not a blob in the object database").arg(e.path),
                             shownRoot);
        out.push_back(
            TreeFile{e.path, QByteArray(static_cast<const char*>(git_odb_object_data(object.get())),
                                        static_cast<qsizetype>(git_odb_object_size(object.get())))});
        if (limits.progress)
            limits.progress(i + 1, count);
    }
    return out;
}

Result<std::optional<CloneInfo>> Repository::enclosingClone(const QString& folder, bool checkDirty) {
    ensureInit();
    const QString canonical = QFileInfo(folder).canonicalFilePath();
    if (canonical.isEmpty() || folder.startsWith(QLatin1Char(':')))
        return std::optional<CloneInfo>();
    git_repository* rawRepo = nullptr;
    const int rc = git_repository_open_ext(&rawRepo, QFile::encodeName(canonical).constData(), 0, nullptr);
    if (rc == GIT_ENOTFOUND)
        return std::optional<CloneInfo>();
    if (rc != 0)
        return makeError(QStringLiteral("cannot open the Git clone the folder is in: %1").arg(lastError()),
                         folder);
    std::unique_ptr<git_repository, RepositoryFree> repo(rawRepo);
    const char* wd = git_repository_workdir(repo.get());
    if (!wd || git_repository_is_bare(repo.get()))
        return std::optional<CloneInfo>();
    CloneInfo info;
    info.workdir = withoutTrailingSlash(QFileInfo(QFile::decodeName(wd)).canonicalFilePath());
    const QString rel = QDir(info.workdir).relativeFilePath(canonical);
    if (rel.startsWith(QLatin1String("..")))
        return std::optional<CloneInfo>(); // the folder is the clone's .git or outside its work tree
    info.pathInClone = rel == QLatin1String(".") ? QString() : rel;

    git_reference* rawHead = nullptr;
    const int headRc = git_repository_head(&rawHead, repo.get());
    if (headRc == GIT_EUNBORNBRANCH || headRc == GIT_ENOTFOUND)
        return std::optional<CloneInfo>(); // no commit yet
    if (headRc != 0)
        return makeError(
            QStringLiteral("cannot read HEAD of the Git clone %1: %2").arg(info.workdir, lastError()),
            folder);
    ReferencePtr head(rawHead);
    git_object* rawCommit = nullptr;
    if (git_reference_peel(&rawCommit, head.get(), GIT_OBJECT_COMMIT) != 0)
        return makeError(
            QStringLiteral("HEAD of the Git clone %1 is not a commit: %2").arg(info.workdir, lastError()),
            folder);
    ObjectPtr commit(rawCommit);
    const auto* c = reinterpret_cast<const git_commit*>(commit.get());
    info.headCommit = oidText(git_commit_id(c));

    // A folder the HEAD commit does not hold (ignored, or never added) owes nothing to that commit.
    if (!info.pathInClone.isEmpty()) {
        git_tree* rawTree = nullptr;
        if (git_commit_tree(&rawTree, c) != 0)
            return makeError(
                QStringLiteral("cannot read HEAD's tree in %1: %2").arg(info.workdir, lastError()), folder);
        TreePtr tree(rawTree);
        Result<std::optional<TreePtr>> sub = subtree(repo.get(), tree.get(), info.pathInClone);
        if (!sub || !*sub)
            return std::optional<CloneInfo>();
    }
    // The folder's content is that of the last commit that changed it, not of whatever HEAD is now.
    if (CommitPtr touched = lastCommitTouching(c, info.pathInClone)) {
        info.commit = oidText(git_commit_id(touched.get()));
        info.commitDate = commitTime(touched.get());
    } else {
        info.commit = info.headCommit;
        info.commitDate = commitTime(c);
    }

    if (checkDirty) {
        git_status_options opts;
        git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION);
        opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
        opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
                     GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
        QByteArray spec = info.pathInClone.toUtf8();
        char* specs[] = {spec.data()};
        if (!info.pathInClone.isEmpty()) {
            opts.pathspec.strings = specs;
            opts.pathspec.count = 1;
        }
        git_status_list* rawStatus = nullptr;
        if (git_status_list_new(&rawStatus, repo.get(), &opts) != 0)
            return makeError(
                QStringLiteral("cannot read the status of %1: %2").arg(info.workdir, lastError()), folder);
        StatusListPtr status(rawStatus);
        info.dirty = git_status_list_entrycount(status.get()) > 0;
    }
    return std::optional<CloneInfo>(std::move(info));
}

bool globMatch(const QString& glob, const QString& name) {
    return ::fnmatch(glob.toUtf8().constData(), name.toUtf8().constData(), 0) == 0;
}

QString libgit2Version() {
    int major = 0, minor = 0, rev = 0;
    git_libgit2_version(&major, &minor, &rev);
    return QStringLiteral("%1.%2.%3").arg(major).arg(minor).arg(rev);
}

} // namespace pb::git
