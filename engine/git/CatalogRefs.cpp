#include "git/CatalogRefs.h"

#include "catalog/VersionOrder.h"

#include <QSet>

namespace pb::git {

namespace {

// The refs named, then every tag matching the glob, each once.
Result<QStringList> refSpecs(const Repository& repo, const CatalogRefsRequest& request) {
    QStringList specs;
    for (const QString& r : request.refs)
        if (!specs.contains(r.trimmed()))
            specs << r.trimmed();
    if (!request.tagGlob.isEmpty()) {
        Result<std::vector<RefInfo>> refs = repo.refs();
        if (!refs)
            return refs.error();
        int matched = 0;
        for (const RefInfo& r : *refs)
            if (r.kind == QLatin1String("tag") && globMatch(request.tagGlob, r.name)) {
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
        return makeError(
            QStringLiteral("--version names one version, but %1 refs were given (%2); leave it out to label "
                           "each version by its tag or ref name")
                .arg(specs.size())
                .arg(specs.join(QStringLiteral(", "))),
            repo.path());
    return specs;
}

std::vector<CatalogAtRef> inVersionOrder(std::vector<CatalogAtRef> plan) {
    std::vector<catalog::VersionOrderKey> keys;
    for (const CatalogAtRef& p : plan)
        keys.push_back({p.label, p.ref.commitDate, false});
    std::vector<CatalogAtRef> ordered;
    for (int i : catalog::versionOrder(keys))
        ordered.push_back(std::move(plan[static_cast<size_t>(i)]));
    return ordered;
}

} // namespace

Result<std::vector<CatalogAtRef>> planCatalogRefs(const Repository& repo, const CatalogRefsRequest& request,
                                                  const std::atomic_bool* cancel) {
    const QString path =
        request.path.trimmed().isEmpty() ? QStringLiteral("recipes") : request.path.trimmed();
    Result<QStringList> specs = refSpecs(repo, request);
    if (!specs)
        return specs.error();
    std::vector<CatalogAtRef> plan;
    QSet<QString> labels;
    for (const QString& spec : std::as_const(*specs)) {
        if (cancel && cancel->load())
            return makeError(QStringLiteral("cancelled; nothing was imported"), repo.path());
        Result<ResolvedRef> ref = repo.resolve(spec);
        if (!ref)
            return makeError(ref.error().message + QStringLiteral("; nothing was imported"), repo.path());
        Result<QString> folder = repo.catalogFolder(ref->commit, path);
        if (!folder)
            return makeError(QStringLiteral("ref '%1': %2 (--path %3); nothing was imported")
                                 .arg(spec, folder.error().message, path),
                             repo.path());
        CatalogAtRef p{*ref, request.label, *folder};
        if (p.label.isEmpty())
            p.label = ref->tag.isEmpty() ? ref->shortName : ref->tag;
        if (labels.contains(p.label))
            return makeError(
                QStringLiteral("two refs would both be imported as version '%1'; import them one at a time "
                               "with --version; nothing was imported")
                    .arg(p.label),
                repo.path());
        labels.insert(p.label);
        plan.push_back(std::move(p));
    }
    return inVersionOrder(std::move(plan));
}

QString catalogRootLabel(const Repository& repo, const CatalogAtRef& at) {
    return QStringLiteral("%1@%2:%3").arg(repo.path(), at.label, at.folder);
}

Result<std::vector<catalog::CatalogFile>> readCatalogFiles(const Repository& repo, const CatalogAtRef& at,
                                                           const ReadLimits& limits) {
    Result<std::vector<TreeFile>> read = repo.readFiles(at.ref.commit, at.folder, limits);
    if (!read)
        return read.error();
    std::vector<catalog::CatalogFile> files;
    files.reserve(read->size());
    for (TreeFile& f : *read)
        files.push_back(catalog::CatalogFile{std::move(f.path), QString(), std::move(f.bytes)});
    return files;
}

} // namespace pb::git
