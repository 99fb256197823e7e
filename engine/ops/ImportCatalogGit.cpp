#include "ops/ImportCatalogGit.h"

#include "catalog/Loader.h"
#include "catalog/VersionOrder.h"
#include "ops/ImportCatalog.h"
#include "receipts/Kinds.h"
#include "store/CatalogStore.h"

#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace pb::ops {

QString GitVersionOutcome::summary() const {
    QString what = tag.isEmpty() ? QStringLiteral("ref %1").arg(ref) : QStringLiteral("tag %1").arg(tag);
    what += QStringLiteral(", commit %1").arg(commit.left(12));
    if (commitDate.isValid())
        what += QStringLiteral(" %1").arg(commitDate.toString(QStringLiteral("yyyy-MM-dd")));
    if (outcome == QLatin1String("skipped-same-content"))
        return QStringLiteral("%1: skipped, same content as version %2 (%3)").arg(label, sameContentAs, what);
    QString text = QStringLiteral("%1: %2 (%3, %4 files, %5 recipes)").arg(label, outcome, what).arg(files).arg(recipes);
    if (!signedByReleases.isEmpty())
        text += QStringLiteral("; registry and validator catalog signed by AICR %1").arg(signedByReleases.join(QStringLiteral(", ")));
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

struct Planned {
    git::ResolvedRef ref;
    QString label;
    QString folder; // the catalog folder at that commit
};

store::CatalogSource originOf(const git::Repository& repo, const Planned& p) {
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
                          : QStringLiteral("done before it, each in its own transaction: %1").arg(done.join(QStringLiteral(", ")));
}

// A version whose content is already stored under another label: nothing is written, and the
// skip is put on record like an unchanged import.
Result<qint64> recordSkip(const Context& ctx, const store::CatalogSource& o, const QString& label, const QString& sameAs,
                          const catalog::Catalog& cat) {
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::CatalogImport;
    d.parameters = QJsonObject{{QStringLiteral("version"), label},
                               {QStringLiteral("replace"), false},
                               {QStringLiteral("embedded"), false},
                               {QStringLiteral("source"), o.kind},
                               {QStringLiteral("repository"), o.repository},
                               {QStringLiteral("ref"), o.ref},
                               {QStringLiteral("commit"), o.commit},
                               {QStringLiteral("path"), o.path},
                               {QStringLiteral("unchanged"), true},
                               {QStringLiteral("sameContentAs"), sameAs}};
    if (!o.tag.isEmpty())
        d.parameters.insert(QStringLiteral("tag"), o.tag);
    d.inputs.push_back(receipts::Artifact::digest(cat.root, cat.contentDigest()));
    d.message = QStringLiteral("catalog version %1 not imported: its content is already stored as version %2").arg(label, sameAs);
    Result<receipts::Receipt> r = record(ctx, d);
    if (!r)
        return r.error();
    return r->seq;
}

} // namespace

Result<std::vector<git::RefInfo>> listGitRefs(const QString& repository) {
    Result<git::Repository> repo = git::Repository::open(repository);
    if (!repo)
        return repo.error();
    return repo->refs();
}

Result<ImportCatalogGitOutcome> importCatalogGit(const Context& ctx, const ImportCatalogGitRequest& request) {
    Result<git::Repository> opened = git::Repository::open(request.repository);
    if (!opened)
        return opened.error();
    const git::Repository& repo = *opened;
    const QString path = request.path.trimmed().isEmpty() ? QStringLiteral("recipes") : request.path.trimmed();

    // Which refs: those named, then every tag matching the glob.
    QStringList specs;
    for (const QString& r : request.refs)
        if (!specs.contains(r.trimmed()))
            specs << r.trimmed();
    if (!request.tagGlob.isEmpty()) {
        Result<std::vector<git::RefInfo>> refs = repo.refs();
        if (!refs)
            return refs.error();
        int matched = 0;
        for (const git::RefInfo& r : *refs)
            if (r.kind == QLatin1String("tag") && git::globMatch(request.tagGlob, r.name)) {
                ++matched;
                if (!specs.contains(r.fullName))
                    specs << r.fullName;
            }
        if (matched == 0)
            return makeError(QStringLiteral("no tag matches '%1'").arg(request.tagGlob), repo.path());
    }
    if (specs.isEmpty())
        return makeError(QStringLiteral("name the refs to import (--ref REF, or --tags GLOB)"), repo.path());
    if (!request.label.isEmpty() && specs.size() != 1)
        return makeError(QStringLiteral("--version names one version, but %1 refs were given (%2); leave it out to label "
                                        "each version by its tag or ref name")
                             .arg(specs.size())
                             .arg(specs.join(QStringLiteral(", "))),
                         repo.path());

    // Every ref resolves and holds the catalog folder before anything is written.
    std::vector<Planned> plan;
    QSet<QString> labels;
    for (const QString& spec : std::as_const(specs)) {
        if (ctx.cancelled())
            return makeError(QStringLiteral("cancelled; nothing was imported"), repo.path());
        Result<git::ResolvedRef> ref = repo.resolve(spec);
        if (!ref)
            return makeError(ref.error().message + QStringLiteral("; nothing was imported"), repo.path());
        Result<QString> folder = repo.catalogFolder(ref->commit, path);
        if (!folder)
            return makeError(QStringLiteral("ref '%1': %2 (--path %3); nothing was imported").arg(spec, folder.error().message, path),
                             repo.path());
        Planned p{*ref, request.label, *folder};
        if (p.label.isEmpty())
            p.label = ref->tag.isEmpty() ? ref->shortName : ref->tag;
        if (labels.contains(p.label))
            return makeError(QStringLiteral("two refs would both be imported as version '%1'; import them one at a time "
                                            "with --version; nothing was imported")
                                 .arg(p.label),
                             repo.path());
        labels.insert(p.label);
        plan.push_back(std::move(p));
    }
    // In version order, so that of two refs with the same content the older keeps it.
    {
        std::vector<catalog::VersionOrderKey> keys;
        for (const Planned& p : plan)
            keys.push_back({p.label, p.ref.commitDate, false});
        std::vector<Planned> ordered;
        for (int i : catalog::versionOrder(keys))
            ordered.push_back(std::move(plan[static_cast<size_t>(i)]));
        plan = std::move(ordered);
    }

    ImportCatalogGitOutcome out;
    out.repository = repo.path();
    const qint64 n = static_cast<qint64>(plan.size());
    store::CatalogStore store(ctx.db());
    for (qint64 i = 0; i < n; ++i) {
        const Planned& p = plan[static_cast<size_t>(i)];
        if (ctx.cancelled()) {
            out.cancelled = true;
            return out;
        }
        const qint64 base = i * 1000;
        const QString step = QStringLiteral("%1 (%2 of %3)").arg(p.label).arg(i + 1).arg(n);
        ctx.progress(base, n * 1000, QStringLiteral("%1: reading %2 at %3").arg(step, p.folder, p.ref.commit.left(12)));

        git::ReadLimits limits;
        limits.cancel = ctx.cancelFlag();
        limits.progress = [&](int done, int total) {
            ctx.progress(base + (total > 0 ? done * kReadShare / total : 0), n * 1000,
                         QStringLiteral("%1: reading files, %2 of %3").arg(step).arg(done).arg(total));
        };
        Result<std::vector<git::TreeFile>> read = repo.readFiles(p.ref.commit, p.folder, limits);
        if (!read) {
            if (ctx.cancelled()) {
                out.cancelled = true;
                return out;
            }
            Error e = read.error();
            e.message = QStringLiteral("version %1 (ref %2) not imported: %3; %4").arg(p.label, p.ref.spec, e.message, doneSoFar(out));
            return e;
        }
        std::vector<catalog::CatalogFile> files;
        files.reserve(read->size());
        for (git::TreeFile& f : *read)
            files.push_back(catalog::CatalogFile{std::move(f.path), QString(), std::move(f.bytes)});
        const QString rootLabel = QStringLiteral("%1@%2:%3").arg(repo.path(), p.label, p.folder);
        Result<catalog::Catalog> cat = catalog::loadCatalogFromFiles(std::move(files), rootLabel);
        if (!cat) {
            Error e = cat.error();
            e.message = QStringLiteral("%1 (version %2 not imported; %3)").arg(e.message, p.label, doneSoFar(out));
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

        Result<std::optional<store::CatalogVersionInfo>> same = store.versionWithContent(v.contentDigest);
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
            continue;
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
            if (ctx.cancelled()) {
                out.cancelled = true;
                return out;
            }
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
    }
    ctx.progress(n * 1000, n * 1000, QStringLiteral("done"));
    return out;
}

} // namespace pb::ops
