#include "ops/ImportCatalog.h"

#include "catalog/Loader.h"
#include "db/Database.h"
#include "git/Repository.h"
#include "receipts/Kinds.h"
#include "release/Release.h"

#include <QJsonObject>

#include <QSqlError>
#include <algorithm>

namespace pb::ops {

QString ImportCatalogOutcome::outcomeName() const {
    static const char* const words[] = {"imported", "unchanged", "replaced"};
    return QString::fromLatin1(words[static_cast<int>(report.outcome)]);
}

namespace {

constexpr qint64 kReadShare = 400; // per mille of the import spent reading files

receipts::ReceiptDraft draftFor(const ImportCatalogRequest& request, const store::CatalogSource& o,
                                const catalog::Catalog& cat) {
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::CatalogImport;
    d.parameters = QJsonObject{{QStringLiteral("version"), request.label},
                               {QStringLiteral("replace"), request.replace},
                               {QStringLiteral("embedded"), request.embedded}};
    if (!request.embedded) {
        d.parameters.insert(QStringLiteral("source"), o.kind.isEmpty() ? QStringLiteral("folder") : o.kind);
        for (auto [key, value] :
             {std::pair{"repository", o.repository}, std::pair{"ref", o.ref}, std::pair{"tag", o.tag},
              std::pair{"commit", o.commit}, std::pair{"path", o.path}})
            if (!value.isEmpty())
                d.parameters.insert(QLatin1String(key), value);
    }
    d.inputs.push_back(receipts::Artifact::digest(cat.root, cat.contentDigest()));
    return d;
}

// A folder import records what it can: the folder, and when the folder is tracked in a Git clone,
// the clone, the last commit that changed the folder (git log -1 -- <folder>: the time of its
// content, which orders the version, not the clone's HEAD) and the folder's path in it; the ref says
// when files under the folder differ from HEAD ("HEAD, with uncommitted changes"). A folder outside
// any clone (or untracked in it) keeps a plain folder source.
store::CatalogSource folderOrigin(const ImportCatalogRequest& request, const catalog::Catalog& cat) {
    store::CatalogSource o = request.origin;
    if (request.embedded || (!o.kind.isEmpty() && o.kind != QLatin1String("folder")) || !o.commit.isEmpty() ||
        cat.root.startsWith(QLatin1Char(':')))
        return o;
    o.kind = QStringLiteral("folder");
    Result<std::optional<git::CloneInfo>> clone = git::Repository::enclosingClone(cat.root);
    if (!clone || !*clone)
        return o; // no clone, or one that cannot be read: the folder alone is the source
    const git::CloneInfo& c = **clone;
    o.repository = c.workdir;
    o.commit = c.commit;
    o.commitDate = c.commitDate;
    o.path = c.pathInClone.isEmpty() ? QStringLiteral(".") : c.pathInClone;
    o.ref = c.dirty ? QStringLiteral("HEAD, with uncommitted changes") : QStringLiteral("HEAD");
    return o;
}

// --expect-release: the catalog against the kept recipe-catalog signature of that release.
Status checkExpectedRelease(const Context& ctx, const QString& expect, const catalog::Catalog& cat) {
    auto version = release::normalizeVersion(expect);
    if (!version)
        return makeError(version.error().message, cat.root, 0, QStringLiteral("--expect-release"));
    auto sig = store::CatalogStore(ctx.db()).releaseSignature(*version);
    if (!sig)
        return sig.error();
    if (!*sig)
        return makeError(QStringLiteral("refused: the database keeps no verified recipe-catalog signature of "
                                        "AICR %1; run 'proofbench "
                                        "release verify DIR --version %1' on the release's assets first")
                             .arg(*version),
                         cat.root);
    const catalog::CatalogFile* registry = cat.file(QLatin1String(release::kRegistryPath));
    const catalog::CatalogFile* validators = cat.file(QLatin1String(release::kValidatorsPath));
    if (!registry || !validators)
        return makeError(
            QStringLiteral("refused: the catalog has no %1, which AICR %2's recipe-catalog signature covers")
                .arg(QLatin1String(!registry ? release::kRegistryPath : release::kValidatorsPath), *version),
            cat.root);
    release::Statement st;
    st.subjects.emplace_back(QStringLiteral("recipe-catalog"), (*sig)->subjectSha256);
    st.resolvedDependencies = {
        {QStringLiteral("file://registry.yaml"), (*sig)->registrySha256, {}},
        {QStringLiteral("file://validators/catalog.yaml"), (*sig)->validatorsSha256, {}}};
    const release::CatalogMatch m =
        release::matchCatalog(st, release::CatalogFiles{registry->bytes, validators->bytes, cat.root});
    if (!m.matches())
        return makeError(
            QStringLiteral("refused: not the catalog AICR %1 signed: %2").arg(*version, m.reason()),
            cat.root);
    return {};
}

} // namespace

Result<ImportCatalogOutcome> importCatalog(const Context& ctx, const ImportCatalogRequest& request) {
    if (Status s = require(ctx, db::Capability::ImportCatalog); !s)
        return s.error();
    if (request.label.trimmed().isEmpty())
        return makeError(QStringLiteral("a catalog version needs a label (--version)"), request.dir);
    // Progress is one scale for the whole import (per mille): reading the files takes the first
    // kReadShare of it when the catalog is read here, resolving and writing the rest.
    const qint64 readShare = request.loaded ? 0 : kReadShare;
    // A catalog handed in is used where it is (a copy would deep-copy every parsed document).
    std::optional<catalog::Catalog> readHere;
    if (!request.loaded) {
        catalog::LoadOptions lo;
        lo.cancel = ctx.cancelFlag();
        lo.progress = [&ctx](int done, int total) {
            ctx.progress(total > 0 ? done * kReadShare / total : 0, 1000,
                         QStringLiteral("Reading files: %1 of %2").arg(done).arg(total));
        };
        Result<catalog::Catalog> cat = catalog::loadCatalog(request.dir, lo);
        if (!cat)
            return cat.error();
        readHere = std::move(*cat);
    }
    const catalog::Catalog& cat = request.loaded ? *request.loaded : *readHere;
    const store::CatalogSource origin = folderOrigin(request, cat);

    store::ImportOptions options;
    options.replace = request.replace;
    options.embedded = request.embedded;
    options.origin = origin;
    options.cancel = ctx.cancelFlag();
    options.progress = [&ctx, readShare](int step, int steps, store::ImportStage stage) {
        const qint64 done = readShare + (steps > 0 ? step * (1000 - readShare) / steps : 0);
        ctx.progress(std::min<qint64>(done, 999), 1000,
                     stage == store::ImportStage::Resolving
                         ? QStringLiteral("Resolving recipes: %1 of %2").arg(step).arg(steps - 1)
                         : store::stageName(stage));
    };

    ReceiptTransaction tx(ctx);
    if (Status s = tx.started(); !s)
        return s.error();
    Result<store::ImportReport> report = makeError(QString());
    if (Status expected = request.expectRelease.isEmpty()
                              ? Status()
                              : checkExpectedRelease(ctx, request.expectRelease, cat);
        !expected)
        report = expected.error();
    else
        report = store::CatalogStore(ctx.db()).importCatalog(request.label, cat, options);
    QStringList signedBy;
    if (report && !request.embedded) {
        // Bound to every release whose kept recipe-catalog signature these files reproduce.
        auto bound = store::CatalogStore(ctx.db()).bindToReleases(report->versionId);
        if (!bound)
            report = bound.error();
        else
            signedBy = *bound;
    }
    receipts::ReceiptDraft d = draftFor(request, origin, cat);
    if (!report) {
        // Nothing was written. Alone, the refused attempt is still put on record; inside a larger
        // transaction (the first start's seeding) the caller's rollback is the whole answer — and
        // SQLite may already have rolled it back (a full disk does), so nothing is written here.
        const bool nested = tx.nested();
        tx.end();
        if (nested)
            return report.error();
        d.result = receipts::Outcome::Failed;
        d.message = report.error().toString();
        if (auto r = record(ctx, d); !r) {
            Error e = report.error();
            e.message += QStringLiteral(" (and the refused attempt could not be receipted: %1)")
                             .arg(r.error().message);
            return e;
        }
        return report.error();
    }
    ImportCatalogOutcome out;
    out.report = *report;
    out.label = request.label;
    out.contentDigest = cat.contentDigest();
    out.signedByReleases = signedBy;
    for (const QString& r : std::as_const(signedBy))
        d.outputs.push_back(receipts::Artifact{
            QStringLiteral("catalog version %1 bound to AICR %2").arg(request.label, r), QString(), -1});
    if (report->outcome == store::ImportReport::Outcome::Unchanged)
        d.parameters.insert(QStringLiteral("unchanged"), true);
    else
        d.outputs.push_back(receipts::Artifact::digest(QStringLiteral("catalog version ") + request.label,
                                                       out.contentDigest));
    d.message = QStringLiteral("catalog version %1 %2 (%3 files, %4 recipes)")
                    .arg(request.label, out.outcomeName())
                    .arg(report->files)
                    .arg(report->recipes);
    if (!signedBy.isEmpty())
        d.message += QStringLiteral("; registry and validator catalog signed by AICR %1")
                         .arg(signedBy.join(QStringLiteral(", ")));
    auto receipt = tx.commit(d, nullptr, QStringLiteral("catalog version"));
    if (!receipt)
        return receipt.error();
    out.receiptSeq = receipt->seq;
    return out;
}

Result<QStringList> seedEmbeddedCatalog(const Context& ctx) {
    // A team member who may not import (an auditor), or a read-only replica, opens an empty database
    // as it is.
    if (!db::refusal(ctx.db().access(), db::Capability::ImportCatalog).isEmpty())
        return QStringList();
    if (!store::CatalogStore(ctx.db()).isEmpty())
        return QStringList();
    const QStringList labels = store::embeddedCatalogLabels();
    db::Transaction tx(ctx.db());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()),
                         ctx.db().path());
    // Again with the write lock held: another process (a second CLI on a new database) may have
    // seeded it since the first look.
    if (!store::CatalogStore(ctx.db()).isEmpty())
        return QStringList();
    for (const QString& label : labels) {
        ImportCatalogRequest request;
        request.label = label;
        request.dir = QStringLiteral(":/recipes/") + label;
        request.embedded = true;
        Result<ImportCatalogOutcome> r = importCatalog(ctx, request);
        if (!r) // the transaction rolls back: no version of the embedded catalog is kept
            return makeError(QStringLiteral("the embedded catalog was not imported (nothing was kept): %1")
                                 .arg(r.error().toString()),
                             ctx.db().path());
    }
    if (!tx.commit())
        return makeError(
            QStringLiteral("cannot commit the embedded catalog: %1").arg(ctx.db().sql().lastError().text()),
            ctx.db().path());
    return labels;
}

Result<QStringList> seedEmbeddedCatalog(db::Database& db) {
    Context ctx(db);
    return seedEmbeddedCatalog(ctx);
}

} // namespace pb::ops
