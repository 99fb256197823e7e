#include "ops/ImportCatalogGit.h"

#include "catalog/Loader.h"
#include "git/CatalogRefs.h"
#include "ops/ImportCatalog.h"
#include "receipts/Kinds.h"
#include "store/CatalogStore.h"

#include <QJsonObject>

namespace pb::ops {

QString GitVersionOutcome::summary() const {
    QString what = tag.isEmpty() ? QStringLiteral("ref %1").arg(ref) : QStringLiteral("tag %1").arg(tag);
    what += QStringLiteral(", commit %1").arg(commit.left(12));
    if (commitDate.isValid())
        what += QStringLiteral(" %1").arg(commitDate.toString(QStringLiteral("yyyy-MM-dd")));
    if (outcome == QLatin1String("skipped-same-content"))
        return QStringLiteral("%1: skipped, same content as version %2 (%3)").arg(label, sameContentAs, what);
    QString text =
        QStringLiteral("%1: %2 (%3, %4 files, %5 recipes)").arg(label, outcome, what).arg(files).arg(recipes);
    if (!signedByReleases.isEmpty())
        text += QStringLiteral("; registry and validator catalog signed by AICR %1")
                    .arg(signedByReleases.join(QStringLiteral(", ")));
    return text;
}

QStringList ImportCatalogGitOutcome::importedLabels() const {
    QStringList out;
    for (const GitVersionOutcome& v : versions)
        if (v.outcome == QLatin1String("imported") || v.outcome == QLatin1String("replaced"))
            out << v.label;
    return out;
}

namespace {

// Of each version, the share of its progress spent reading files from the repository (per mille).
constexpr qint64 kReadShare = 300;

store::CatalogSource originOf(const git::Repository& repo, const git::CatalogAtRef& p) {
    store::CatalogSource o;
    o.kind = QStringLiteral("git");
    o.repository = repo.path();
    o.ref = p.ref.fullName.isEmpty() ? p.ref.spec : p.ref.fullName;
    o.tag = p.ref.tag;
    o.commit = p.ref.commit;
    o.commitDate = p.ref.commitDate;
    o.path = p.folder;
    return o;
}

QString doneSoFar(const ImportCatalogGitOutcome& out) {
    QStringList done;
    for (const GitVersionOutcome& v : out.versions)
        done << QStringLiteral("%1 (%2)").arg(v.label, v.outcome);
    return done.isEmpty() ? QStringLiteral("no version was imported")
                          : QStringLiteral("done before it, each in its own transaction: %1")
                                .arg(done.join(QStringLiteral(", ")));
}

// A version whose content is already stored under another label: nothing is written, and the
// skip is put on record like an unchanged import.
Result<qint64> recordSkip(const Context& ctx, const store::CatalogSource& o, const QString& label,
                          const QString& sameAs, const catalog::Catalog& cat) {
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::CatalogImport;
    d.parameters =
        QJsonObject{{QStringLiteral("version"), label},           {QStringLiteral("replace"), false},
                    {QStringLiteral("embedded"), false},          {QStringLiteral("source"), o.kind},
                    {QStringLiteral("repository"), o.repository}, {QStringLiteral("ref"), o.ref},
                    {QStringLiteral("commit"), o.commit},         {QStringLiteral("path"), o.path},
                    {QStringLiteral("unchanged"), true},          {QStringLiteral("sameContentAs"), sameAs}};
    if (!o.tag.isEmpty())
        d.parameters.insert(QStringLiteral("tag"), o.tag);
    d.inputs.push_back(receipts::Artifact::digest(cat.root, cat.contentDigest()));
    d.message = QStringLiteral("catalog version %1 not imported: its content is already stored as version %2")
                    .arg(label, sameAs);
    Result<receipts::Receipt> r = record(ctx, d);
    if (!r)
        return r.error();
    return r->seq;
}

// One planned version, read, loaded and imported (or skipped as a copy of a stored version) in
// its own transaction; `base`/`n` place its progress among the versions. Cancellation leaves
// `out.cancelled` set and returns no error.
Status importVersion(const Context& ctx, const git::Repository& repo, const git::CatalogAtRef& p,
                     const ImportCatalogGitRequest& request, qint64 base, qint64 n, const QString& step,
                     ImportCatalogGitOutcome& out) {
    ctx.progress(base, n * 1000,
                 QStringLiteral("%1: reading %2 at %3").arg(step, p.folder, p.ref.commit.left(12)));
    git::ReadLimits limits;
    limits.cancel = ctx.cancelFlag();
    limits.progress = [&](int done, int total) {
        ctx.progress(base + (total > 0 ? done * kReadShare / total : 0), n * 1000,
                     QStringLiteral("%1: reading files, %2 of %3").arg(step).arg(done).arg(total));
    };
    Result<std::vector<catalog::CatalogFile>> files = git::readCatalogFiles(repo, p, limits);
    if (!files) {
        out.cancelled = ctx.cancelled();
        if (out.cancelled)
            return {};
        Error e = files.error();
        e.message = QStringLiteral("version %1 (ref %2) not imported: %3; %4")
                        .arg(p.label, p.ref.spec, e.message, doneSoFar(out));
        return e;
    }
    const QString rootLabel = git::catalogRootLabel(repo, p);
    Result<catalog::Catalog> cat = catalog::loadCatalogFromFiles(std::move(*files), rootLabel);
    if (!cat) {
        Error e = cat.error();
        e.message =
            QStringLiteral("%1 (version %2 not imported; %3)").arg(e.message, p.label, doneSoFar(out));
        return e;
    }

    const store::CatalogSource origin = originOf(repo, p);
    GitVersionOutcome v;
    v.label = p.label;
    v.ref = origin.ref;
    v.tag = p.ref.tag;
    v.commit = p.ref.commit;
    v.commitDate = p.ref.commitDate;
    v.path = p.folder;
    v.contentDigest = cat->contentDigest();
    v.files = static_cast<int>(cat->files.size());

    Result<std::optional<store::CatalogVersionInfo>> same =
        store::CatalogStore(ctx.db()).versionWithContent(v.contentDigest);
    if (!same)
        return same.error();
    if (*same && (**same).label != p.label) {
        v.outcome = QStringLiteral("skipped-same-content");
        v.sameContentAs = (**same).label;
        v.recipes = (**same).recipeCount;
        Result<qint64> seq = recordSkip(ctx, origin, p.label, v.sameContentAs, *cat);
        if (!seq)
            return seq.error();
        v.receiptSeq = *seq;
        out.versions.push_back(std::move(v));
        return {};
    }

    ImportCatalogRequest req;
    req.label = p.label;
    req.dir = rootLabel;
    req.loaded = std::move(*cat);
    req.replace = request.replace;
    req.origin = origin;
    req.expectRelease = request.expectRelease;
    // The import's own progress (per mille) fills the rest of this version's share.
    Context inner(
        ctx.db(),
        [&ctx, base, n, step](const Progress& pr) {
            const qint64 within = pr.total > 0 ? pr.done * (1000 - kReadShare) / pr.total : 0;
            ctx.progress(base + kReadShare + within, n * 1000, QStringLiteral("%1: %2").arg(step, pr.what));
        },
        ctx.cancelFlag());
    Result<ImportCatalogOutcome> imported = importCatalog(inner, req);
    if (!imported) {
        out.cancelled = ctx.cancelled();
        if (out.cancelled)
            return {};
        Error e = imported.error();
        e.message = QStringLiteral("version %1 not imported: %2; %3").arg(p.label, e.message, doneSoFar(out));
        return e;
    }
    v.outcome = imported->outcomeName();
    v.files = imported->report.files;
    v.recipes = imported->report.recipes;
    v.receiptSeq = imported->receiptSeq;
    v.signedByReleases = imported->signedByReleases;
    out.versions.push_back(std::move(v));
    return {};
}

} // namespace

Result<std::vector<git::RefInfo>> listGitRefs(const QString& repository) {
    Result<git::Repository> repo = git::Repository::open(repository);
    if (!repo)
        return repo.error();
    return repo->refs();
}

Result<ImportCatalogGitOutcome> importCatalogGit(const Context& ctx, const ImportCatalogGitRequest& request) {
    if (Status s = require(ctx, db::Capability::ImportCatalog); !s)
        return s.error();
    Result<git::Repository> opened = git::Repository::open(request.repository);
    if (!opened)
        return opened.error();
    const git::Repository& repo = *opened;
    // Every ref resolves and holds the catalog folder before anything is written.
    Result<std::vector<git::CatalogAtRef>> plan = git::planCatalogRefs(
        repo, git::CatalogRefsRequest{request.refs, request.tagGlob, request.path, request.label},
        ctx.cancelFlag());
    if (!plan)
        return plan.error();

    ImportCatalogGitOutcome out;
    out.repository = repo.path();
    out.skippedRefs = repo.skippedRefs();
    const qint64 n = static_cast<qint64>(plan->size());
    for (qint64 i = 0; i < n; ++i) {
        const git::CatalogAtRef& p = (*plan)[static_cast<size_t>(i)];
        if (ctx.cancelled()) {
            out.cancelled = true;
            return out;
        }
        const QString step = QStringLiteral("%1 (%2 of %3)").arg(p.label).arg(i + 1).arg(n);
        if (Status s = importVersion(ctx, repo, p, request, i * 1000, n, step, out); !s)
            return s.error();
        if (out.cancelled)
            return out;
    }
    ctx.progress(n * 1000, n * 1000, QStringLiteral("done"));
    return out;
}

} // namespace pb::ops
