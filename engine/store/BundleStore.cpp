// Deployment bundles in the database (migration 012): store, list, load, by content.
#include "store/BundleStore.h"
#include "store/IdPrefix.h"

#include "store/CatalogStore.h"
#include "store/Returning.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlQuery>

namespace pb::store {

using db::nullable;
using db::sqlError;

QString outcomeName(BundleImportResult::Outcome o) {
    switch (o) {
    case BundleImportResult::Outcome::Imported:
        return QStringLiteral("imported");
    case BundleImportResult::Outcome::Unchanged:
        return QStringLiteral("unchanged");
    case BundleImportResult::Outcome::Replaced:
        return QStringLiteral("replaced");
    }
    return {};
}

namespace {

QString compact(const QJsonArray& a) {
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}
QString compact(const QJsonObject& o) {
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

const char* const kSelect = "SELECT b.id, b.name, b.source_dir, b.deployer, b.tree_digest, b.file_count, "
                            "b.total_bytes, b.component_count, "
                            "b.distinct_sync_waves, b.unknown_files, b.recipe_name, "
                            "b.recipe_evidence_digest, v.label, r.leaf_overlay, b.imported_at "
                            "FROM deploy_bundles b LEFT JOIN catalog_versions v ON v.id = "
                            "b.catalog_version_id LEFT JOIN recipes r ON r.id = b.recipe_id ";

StoredBundleInfo readInfo(const QSqlQuery& q) {
    StoredBundleInfo i;
    i.id = q.value(0).toLongLong();
    i.name = q.value(1).toString();
    i.sourceDir = q.value(2).toString();
    i.deployer = q.value(3).toString();
    i.treeDigest = q.value(4).toString();
    i.fileCount = q.value(5).toInt();
    i.totalBytes = q.value(6).toLongLong();
    i.componentCount = q.value(7).toInt();
    i.distinctSyncWaves = q.value(8).toInt();
    i.unknownFiles = static_cast<int>(QJsonDocument::fromJson(q.value(9).toString().toUtf8()).array().size());
    i.recipeName = q.value(10).toString();
    i.recipeEvidenceDigest = q.value(11).toString();
    i.catalogLabel = q.value(12).toString();
    i.recipeLeaf = q.value(13).toString();
    i.importedAt = QDateTime::fromString(q.value(14).toString(), Qt::ISODate);
    return i;
}

} // namespace

Result<BundleImportResult> BundleStore::importBundle(const QString& name, const QString& sourceDir,
                                                     const bundle::model::DeployBundle& b,
                                                     const bundle::model::FileMap& files, bool replace,
                                                     const std::optional<RecipeLink>& link) {
    if (name.trimmed().isEmpty())
        return makeError(QStringLiteral("an imported bundle needs a name (--name)"));
    db::Transaction tx(m_db);
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    BundleImportResult result;
    auto existing = find(name);
    if (!existing)
        return existing.error();
    if (*existing) {
        if ((*existing)->treeDigest == b.treeDigest) {
            result.outcome = BundleImportResult::Outcome::Unchanged;
            result.id = (*existing)->id;
            if (!tx.commit())
                return makeError(QStringLiteral("cannot commit"), m_db.path());
            return result;
        }
        if (!replace)
            return makeError(QStringLiteral("a bundle named '%1' is already imported with other content "
                                            "(tree sha256:%2); give --replace "
                                            "to replace it or --name to import this one under another name")
                                 .arg(name, (*existing)->treeDigest),
                             sourceDir);
        QSqlQuery del(m_db.sql());
        del.prepare(QStringLiteral("DELETE FROM deploy_bundles WHERE id = ?"));
        del.addBindValue((*existing)->id);
        if (!del.exec())
            return sqlError(del, QStringLiteral("deploy_bundles"));
        result.outcome = BundleImportResult::Outcome::Replaced;
    }
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral(
        "INSERT INTO deploy_bundles (name, source_dir, deployer, tree_digest, file_count, total_bytes, "
        "component_count, "
        "distinct_sync_waves, unknown_files, warnings, recipe_path, recipe_sha256, recipe_evidence_digest, "
        "recipe_name, "
        "catalog_version_id, recipe_id, imported_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING "
        "id"));
    q.addBindValue(name);
    q.addBindValue(sourceDir);
    q.addBindValue(bundle::model::deployerName(b.deployer));
    q.addBindValue(b.treeDigest);
    q.addBindValue(static_cast<int>(b.files.size()));
    q.addBindValue(b.totalBytes);
    q.addBindValue(static_cast<int>(b.components.size()));
    q.addBindValue(b.distinctSyncWaves());
    q.addBindValue(compact(QJsonArray::fromStringList(b.unknownFiles)));
    q.addBindValue(compact(QJsonArray::fromStringList(b.warnings)));
    q.addBindValue(nullable(b.recipePath));
    q.addBindValue(nullable(b.recipeSha256));
    q.addBindValue(nullable(b.recipeEvidenceDigest));
    q.addBindValue(nullable(b.recipeName));
    q.addBindValue(link ? QVariant(link->catalogVersionId) : QVariant(QMetaType(QMetaType::LongLong)));
    q.addBindValue(link ? QVariant(link->recipeId) : QVariant(QMetaType(QMetaType::LongLong)));
    q.addBindValue(QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    Result<qint64> id = execReturningId(q, QStringLiteral("deploy_bundles"));
    if (!id)
        return id.error();
    result.id = *id;

    QSqlQuery f(m_db.sql());
    f.prepare(QStringLiteral("INSERT INTO deploy_bundle_files (bundle_id, path, role, component, size, "
                             "sha256, content) VALUES (?,?,?,?,?,?,?)"));
    for (const bundle::model::BundleFile& file : b.files) {
        auto it = files.find(file.path);
        if (it == files.end())
            return makeError(QStringLiteral("the file's bytes were not read"), file.path);
        f.addBindValue(result.id);
        f.addBindValue(file.path);
        f.addBindValue(file.role);
        f.addBindValue(nullable(file.component));
        f.addBindValue(file.size);
        f.addBindValue(file.sha256);
        f.addBindValue(it->second);
        if (!f.exec())
            return sqlError(f, QStringLiteral("deploy_bundle_files"));
    }
    QSqlQuery c(m_db.sql());
    c.prepare(QStringLiteral(
        "INSERT INTO deploy_bundle_components (bundle_id, position, name, folder, sync_wave, sync_wave_text, "
        "source, chart, "
        "repository, version, namespace, templated, detail_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    for (const bundle::model::Component& comp : b.components) {
        c.addBindValue(result.id);
        c.addBindValue(comp.order);
        c.addBindValue(comp.name);
        c.addBindValue(nullable(comp.folder));
        c.addBindValue(comp.syncWave ? QVariant(*comp.syncWave) : QVariant(QMetaType(QMetaType::Int)));
        c.addBindValue(nullable(comp.syncWaveText));
        c.addBindValue(nullable(comp.source));
        c.addBindValue(nullable(comp.chart.text));
        c.addBindValue(nullable(comp.repository.text));
        c.addBindValue(nullable(comp.version.text));
        c.addBindValue(nullable(comp.namespace_.text));
        c.addBindValue(compact(QJsonArray::fromStringList(comp.templatedFields)));
        c.addBindValue(compact(bundle::model::toJson(comp)));
        if (!c.exec())
            return sqlError(c, QStringLiteral("deploy_bundle_components"));
    }
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the bundle"), m_db.path());
    return result;
}

Result<std::vector<StoredBundleInfo>> BundleStore::list() const {
    QSqlQuery q(m_db.sql());
    if (!q.exec(QString::fromLatin1(kSelect) + QStringLiteral("ORDER BY b.name")))
        return sqlError(q, QStringLiteral("deploy_bundles"));
    std::vector<StoredBundleInfo> out;
    while (q.next())
        out.push_back(readInfo(q));
    return out;
}

Result<std::optional<StoredBundleInfo>> BundleStore::find(const QString& name) const {
    QSqlQuery q(m_db.sql());
    q.prepare(QString::fromLatin1(kSelect) + QStringLiteral("WHERE b.name = ?"));
    q.addBindValue(name);
    if (!q.exec())
        return sqlError(q, QStringLiteral("deploy_bundles"));
    if (!q.next())
        return std::optional<StoredBundleInfo>();
    return std::optional<StoredBundleInfo>(readInfo(q));
}

Result<std::optional<StoredBundleInfo>> BundleStore::resolve(const QString& ref) const {
    auto byName = find(ref);
    if (!byName || *byName)
        return byName;
    static const QRegularExpression digestLike(QStringLiteral("^(sha256:)?[0-9a-fA-F]+$"));
    if (!digestLike.match(ref.trimmed()).hasMatch())
        return std::optional<StoredBundleInfo>();
    auto id = findByPrefix(m_db,
                           IdLookup{"deploy_bundles", "tree_digest", QStringLiteral("bundle"),
                                    QStringLiteral("tree digest"), QStringLiteral("proofbench bundle list")},
                           ref);
    if (!id)
        return id.error();
    QSqlQuery q(m_db.sql());
    q.prepare(QString::fromLatin1(kSelect) + QStringLiteral("WHERE b.id = ?"));
    q.addBindValue(*id);
    if (!q.exec() || !q.next())
        return sqlError(q, QStringLiteral("deploy_bundles"));
    return std::optional<StoredBundleInfo>(readInfo(q));
}

Result<bundle::model::FileMap> BundleStore::files(qint64 id) const {
    QSqlQuery q(m_db.sql());
    q.prepare(
        QStringLiteral("SELECT path, content FROM deploy_bundle_files WHERE bundle_id = ? ORDER BY path"));
    q.addBindValue(id);
    if (!q.exec())
        return sqlError(q, QStringLiteral("deploy_bundle_files"));
    bundle::model::FileMap out;
    while (q.next())
        out.emplace(q.value(0).toString(), q.value(1).toByteArray());
    return out;
}

Result<bundle::model::ReadBundle> BundleStore::load(const QString& ref) const {
    auto info = resolve(ref);
    if (!info)
        return info.error();
    if (!*info)
        return makeError(
            QStringLiteral("no imported bundle is named '%1' (see 'proofbench bundle list')").arg(ref));
    auto stored = files((*info)->id);
    if (!stored)
        return stored.error();
    bundle::model::ReadOptions options;
    options.deployer = bundle::model::parseDeployer((*info)->deployer);
    auto b = bundle::model::readBundleFiles((*info)->name, *stored, options);
    if (!b)
        return b.error();
    return bundle::model::ReadBundle{std::move(*b), std::move(*stored)};
}

Result<std::optional<RecipeLink>> findRecipeByDigest(db::Database& db, const QString& evidenceDigest) {
    if (evidenceDigest.isEmpty())
        return std::optional<RecipeLink>();
    CatalogStore catalogs(db);
    auto versions = catalogs.versions();
    if (!versions)
        return versions.error();
    for (auto v = versions->rbegin(); v != versions->rend(); ++v) {
        auto recipes = catalogs.recipes(v->id);
        if (!recipes)
            return recipes.error();
        for (const RecipeInfo& r : *recipes)
            if (r.digest == evidenceDigest)
                return std::optional<RecipeLink>(RecipeLink{v->id, r.id, v->label, r.name, r.leafOverlay});
    }
    return std::optional<RecipeLink>();
}

} // namespace pb::store
