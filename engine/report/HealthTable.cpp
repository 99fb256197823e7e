#include "report/HealthTable.h"

#include "db/Database.h"

#include <QHash>
#include <QSqlQuery>
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
        return makeError(QStringLiteral("%1: no catalog version in the database (import one first)").arg(db.path()));
    return all->back(); // versions() is in version order: back() is the newest
}

evidence::HealthTableInfo tableInfo(const store::CatalogVersionInfo& version) {
    return {version.label, version.isSample(), version.originText()};
}

Result<std::vector<HealthRow>> healthRows(db::Database& db, qint64 catalogVersionId) {
    store::EvidenceStore evidence(db);
    Result<std::vector<HealthRow>> rows = evidence.health(catalogVersionId);
    if (!rows)
        return rows;
    // Leaf overlays named otherwise than their recipe (few: profiled recipes, wildcard leaves).
    QHash<QString, QString> leafOf;
    {
        QSqlQuery q(db.sql());
        q.prepare(QStringLiteral("SELECT name, leaf_overlay FROM recipes WHERE catalog_version_id = ? AND "
                                 "leaf_overlay IS NOT NULL AND leaf_overlay <> name"));
        q.addBindValue(catalogVersionId);
        if (!q.exec())
            return db::sqlError(q, QStringLiteral("recipes"));
        while (q.next()) {
            const QString name = q.value(0).toString();
            if (!leafOf.contains(name)) // the first leaf of a name, as the health table takes it
                leafOf.insert(name, q.value(1).toString());
        }
    }
    for (HealthRow& row : *rows) {
        if (!row.inCatalog())
            continue;
        const auto leaf = leafOf.constFind(row.recipe);
        if (leaf == leafOf.cend())
            continue;
        if (row.leafOverlay.isEmpty())
            row.leafOverlay = *leaf;
        // Evidence recorded under the leaf's name before a profile renamed the coordinate: the store
        // counts those pointers on this row; read them under that name.
        if (row.evidenceName.isEmpty() && row.pointers > 0) {
            Result<std::vector<evidence::Pointer>> own = evidence.pointersFor(row.recipe);
            if (!own)
                return own.error();
            if (own->empty())
                row.evidenceName = *leaf;
        }
    }
    return rows;
}

Result<std::vector<evidence::Pointer>> rowPointers(db::Database& db, const HealthRow& row) {
    return store::EvidenceStore(db).pointersFor(row.pointerName());
}

Result<std::vector<store::BundleRecord>> rowBundles(db::Database& db, const HealthRow& row) {
    return store::EvidenceStore(db).bundlesFor(row.recipe, row.evidenceName);
}

QString mismatchText(const HealthRow& row, const std::vector<evidence::Pointer>& pointers, const QString& catalogLabel) {
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
        why << QStringLiteral("the evidence records the recipe name '%1', but catalog version %2 now resolves leaf "
                              "overlay '%3' to the recipe '%4'")
                   .arg(row.evidenceName, catalogLabel, row.leafOverlay.isEmpty() ? row.evidenceName : row.leafOverlay,
                        row.recipe);
    if (digest)
        why << QStringLiteral("the newest bundle was recorded for recipe digest %1, but the catalog's recipe digest "
                              "(same predicate rules) is now %2")
                   .arg(row.bundleDigest, row.currentDigest);
    return which + (n == 1 ? QStringLiteral("; it no longer matches: ") : QStringLiteral("; they no longer match: ")) +
           why.join(QStringLiteral("; ")) + QLatin1Char('.');
}

} // namespace pb::report
