#include "report/HealthTable.h"

#include "db/Database.h"

#include <QStringList>

namespace pb::report {

using evidence::HealthRow;
using evidence::HealthStatus;

Result<store::CatalogVersionInfo> chosenVersion(db::Database& db, const QString& label) {
    store::CatalogStore catalogs(db);
    if (!label.isEmpty())
        return catalogs.version(label);
    Result<std::vector<store::CatalogVersionInfo>> all = catalogs.versions();
    if (!all)
        return all.error();
    if (all->empty())
        return makeError(
            QStringLiteral("%1: no catalog version in the database (import one first)").arg(db.path()));
    return all->back(); // versions() is in version order: back() is the newest
}

evidence::HealthTableInfo tableInfo(const store::CatalogVersionInfo& version) {
    QString origin = version.originText();
    // The release binding (issue #19) travels with the source, and says what it does not cover.
    if (!version.signedByReleases.isEmpty())
        origin += QStringLiteral("; %1 (verified offline; the overlays are not covered)")
                      .arg(version.releaseBindingText());
    return {version.label, version.isSample(), origin};
}

Result<std::vector<HealthRow>> healthRows(db::Database& db, qint64 catalogVersionId) {
    // The store names each row's leaf overlay and the older name its evidence was recorded under.
    return store::EvidenceStore(db).health(catalogVersionId);
}

Result<std::vector<evidence::Pointer>> rowPointers(db::Database& db, const HealthRow& row) {
    return store::EvidenceStore(db).pointersFor(row.pointerName());
}

Result<std::vector<store::BundleRecord>> rowBundles(db::Database& db, const HealthRow& row) {
    return store::EvidenceStore(db).bundlesFor(row.recipe, row.evidenceName);
}

QString mismatchText(const HealthRow& row, const std::vector<evidence::Pointer>& pointers,
                     const QString& catalogLabel) {
    const bool outside = !row.inCatalog();
    const bool renamed = !row.evidenceName.isEmpty() && row.evidenceName != row.recipe;
    const bool digest = row.stale && !row.bundleDigest.isEmpty() && !row.currentDigest.isEmpty() &&
                        row.bundleDigest != row.currentDigest;
    if (!outside && !renamed && !digest)
        return {};
    QStringList files;
    for (const evidence::Pointer& p : pointers)
        files << p.file;
    const int n = int(pointers.size());
    QString which = n == 0 ? QStringLiteral("No pointer file was read")
                           : QStringLiteral("%1 pointer%2 name%3 '%4' (%5)")
                                 .arg(n)
                                 .arg(n == 1 ? QString() : QStringLiteral("s"))
                                 .arg(n == 1 ? QStringLiteral("s") : QString())
                                 .arg(row.pointerName(), files.join(QStringLiteral(", ")));
    QStringList why;
    if (outside)
        why << QStringLiteral("catalog version %1 has no recipe named '%2'").arg(catalogLabel, row.recipe);
    if (renamed)
        why << QStringLiteral(
                   "the evidence records the recipe name '%1', but catalog version %2 now resolves leaf "
                   "overlay '%3' to the recipe '%4'")
                   .arg(row.evidenceName, catalogLabel,
                        row.leafOverlay.isEmpty() ? row.evidenceName : row.leafOverlay, row.recipe);
    if (digest)
        why << QStringLiteral(
                   "the newest bundle was recorded for recipe digest %1, but the catalog's recipe digest "
                   "(same predicate rules) is now %2")
                   .arg(row.bundleDigest, row.currentDigest);
    return which +
           (n == 1 ? QStringLiteral("; it no longer matches: ")
                   : QStringLiteral("; they no longer match: ")) +
           why.join(QStringLiteral("; ")) + QLatin1Char('.');
}

} // namespace pb::report
