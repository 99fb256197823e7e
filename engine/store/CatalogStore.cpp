#include "store/CatalogStore.h"

#include "db/BulkInsert.h"

#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "catalog/VersionOrder.h"
#include "db/Dialect.h"
#include "store/Returning.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>
#include <thread>

namespace pb::store {

using namespace pb::catalog;

// The recipe as a v3 evidence statement canonicalizes it: sha256 of these bytes is the recipe's
// evidence digest (catalog/Digest.h), so recipes.digest is the digest evidence binds to.
QByteArray recipeBytes(const RecipeResult& recipe) {
    return evidenceCanonicalYaml(recipe);
}

namespace {
ResolveOptions storedResolveOptions() {
    ResolveOptions o;
    o.builderVersion.clear(); // stored recipes carry no builder version (the evidence digest ignores it)
    return o;
}
} // namespace

Result<RecipeResult> resolveStoredRecipe(const Catalog& catalog, const QString& leafOverlay) {
    return resolve(catalog, leafCriteria(catalog, leafOverlay), storedResolveOptions());
}

QString stageName(ImportStage stage) {
    switch (stage) {
    case ImportStage::Resolving:
        return QStringLiteral("Resolving recipes");
    case ImportStage::Writing:
        return QStringLiteral("Writing to the database");
    case ImportStage::Done:
        break;
    }
    return QStringLiteral("Done");
}

namespace {

QString jsonText(const QJsonValue& v) {
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
}

QJsonArray jsonList(const QStringList& l) {
    return QJsonArray::fromStringList(l);
}

// Runs work(i) for every i in [0, count) on hardware_concurrency - 1 threads started at once,
// while the calling thread does other work; the caller then joins in with run() until every item is
// done. Each item has its own result slot, so order never depends on the scheduling. Destroying the
// pool (an early return) stops the threads after their current item and joins them.
class ItemPool {
  public:
    ItemPool(std::size_t count, std::function<void(std::size_t)> work)
        : m_count(count), m_work(std::move(work)) {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const std::size_t helpers = std::min<std::size_t>(cores - 1, count);
        for (std::size_t t = 0; t < helpers; ++t)
            m_threads.emplace_back([this] { loop(nullptr); });
    }
    ~ItemPool() {
        m_stop = true;
        join();
    }
    ItemPool(const ItemPool&) = delete;
    ItemPool& operator=(const ItemPool&) = delete;
    // The calling thread takes items until none is left, then waits for the threads; `afterEach`
    // runs here only, after each item this thread did, with the number of items finished so far.
    void run(const std::function<void(int)>& afterEach) {
        loop(&afterEach);
        join();
        if (afterEach)
            afterEach(m_finished.load());
    }

  private:
    void loop(const std::function<void(int)>* afterEach) {
        for (std::size_t i = m_next++; i < m_count && !m_stop; i = m_next++) {
            m_work(i);
            const int done = ++m_finished;
            if (afterEach && *afterEach)
                (*afterEach)(done);
        }
    }
    void join() {
        for (std::thread& t : m_threads)
            if (t.joinable())
                t.join(); // a thread's OpenSSL state is released as it exits, before join returns
    }
    std::size_t m_count;
    std::function<void(std::size_t)> m_work;
    std::atomic<std::size_t> m_next{0};
    std::atomic_int m_finished{0};
    std::atomic_bool m_stop{false};
    std::vector<std::thread> m_threads;
};

// A leaf resolved as import stores it, with its bytes and their digest.
struct PreparedLeaf {
    LeafResolution resolution;
    QByteArray bytes;
    QString digest;
};

} // namespace

namespace {

// Resolves one leaf as import stores it: the recipe, its canonical bytes and their digest.
void prepareLeaf(PreparedLeaf& p, const Catalog& cat, const QString& leaf,
                 const ResolveOptions& resolveOptions) {
    LeafResolution& lr = p.resolution;
    lr.leaf = leaf;
    lr.criteria = leafCriteria(cat, lr.leaf);
    Result<RecipeResult> r = resolve(cat, lr.criteria, resolveOptions);
    if (!r) {
        lr.error = r.error();
        return;
    }
    lr.result = std::move(*r);
    p.bytes = recipeBytes(*lr.result);
    p.digest = sha256Hex(p.bytes);
}

// Deletes the version called `label` (its rows go with it); true when there was one.
Result<bool> deleteVersion(QSqlQuery& q, const QString& label) {
    q.prepare(QStringLiteral("DELETE FROM catalog_versions WHERE label = ?"));
    q.addBindValue(label);
    if (!q.exec())
        return sqlError(q, QStringLiteral("catalog_versions"));
    return q.numRowsAffected() > 0;
}

// The catalog_versions row: label, origin and the API versions its overlays and registry use.
Result<qint64> insertVersion(QSqlQuery& q, const QString& label, const Catalog& cat, const QString& digest,
                             const ImportOptions& options) {
    QSet<QString> apis;
    for (const Overlay& o : cat.overlays)
        apis.insert(o.apiVersion.text);
    for (const Overlay& o : cat.mixins)
        apis.insert(o.apiVersion.text);
    if (!cat.registryApiVersion.text.isEmpty())
        apis.insert(cat.registryApiVersion.text);
    QStringList apiList(apis.begin(), apis.end());
    apiList.sort();

    q.prepare(QStringLiteral(
        "INSERT INTO catalog_versions (label, source, content_digest, api_versions, imported_at, "
        "embedded, source_kind, source_repo, source_ref, source_tag, source_commit, "
        "source_commit_date, source_path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    q.addBindValue(label);
    q.addBindValue(cat.root);
    q.addBindValue(digest);
    q.addBindValue(apiList.join(QLatin1Char(',')));
    q.addBindValue(QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    q.addBindValue(options.embedded ? 1 : 0);
    const CatalogSource& origin = options.origin;
    q.addBindValue(options.embedded ? QStringLiteral("embedded")
                                    : (origin.kind.isEmpty() ? QStringLiteral("folder") : origin.kind));
    q.addBindValue(nullable(origin.repository));
    q.addBindValue(nullable(origin.ref));
    q.addBindValue(nullable(origin.tag));
    q.addBindValue(nullable(origin.commit));
    q.addBindValue(origin.commitDate.isValid() ? QVariant(origin.commitDate.toUTC().toString(Qt::ISODate))
                                               : QVariant(QMetaType::fromType<QString>()));
    q.addBindValue(nullable(origin.path));
    return execReturningId(q, QStringLiteral("catalog_versions"));
}

// Every catalog file with its bytes (the engine's bulk path); `fileIds` gets path -> row id.
Status insertFiles(QSqlDatabase& db, QSqlQuery& q, qint64 cv, const Catalog& cat,
                   QHash<QString, qint64>& fileIds) {
    db::BulkInsert files(db, QStringLiteral("catalog_files"),
                         {QStringLiteral("catalog_version_id"), QStringLiteral("path"),
                          QStringLiteral("kind"), QStringLiteral("sha256"), QStringLiteral("size"),
                          QStringLiteral("content")});
    for (const CatalogFile& f : cat.files)
        if (Status s = files.add({cv, f.path, f.kind, sha256Hex(f.bytes), f.bytes.size(), f.bytes}, f.path);
            !s)
            return s;
    if (Status s = files.finish(); !s)
        return s;
    q.prepare(QStringLiteral("SELECT path, id FROM catalog_files WHERE catalog_version_id = ?"));
    q.addBindValue(cv);
    if (!q.exec())
        return sqlError(q, QStringLiteral("catalog_files"));
    while (q.next())
        fileIds.insert(q.value(0).toString(), q.value(1).toLongLong());
    return {};
}

// Overlays and mixins, each with its criteria, its file and whether it is a leaf.
Status insertOverlays(QSqlDatabase& db, qint64 cv, const Catalog& cat, const QStringList& leaves,
                      const QHash<QString, qint64>& fileIds) {
    const QSet<QString> leafSet(leaves.begin(), leaves.end());
    QStringList columns{QStringLiteral("catalog_version_id"),
                        QStringLiteral("file_id"),
                        QStringLiteral("kind"),
                        QStringLiteral("name"),
                        QStringLiteral("api_version"),
                        QStringLiteral("base")};
    columns << Criteria::dimensions();
    columns << QStringLiteral("nodes") << QStringLiteral("mixins") << QStringLiteral("is_leaf")
            << QStringLiteral("has_profile") << QStringLiteral("component_count")
            << QStringLiteral("spec_json");
    db::BulkInsert overlays(db, QStringLiteral("overlays"), columns);
    for (const std::vector<Overlay>* list : {&cat.overlays, &cat.mixins}) {
        for (const Overlay& o : *list) {
            QVariantList row{cv,     fileIds.value(o.file), o.kind,
                             o.name, o.apiVersion.text,     nullable(o.spec.base)};
            for (const QString& d : Criteria::dimensions())
                row << nullable(o.spec.criteria.get(d));
            row << o.spec.criteria.nodes << jsonText(jsonList(o.spec.mixins))
                << (leafSet.contains(o.name) && o.kind == QLatin1String("RecipeMetadata") ? 1 : 0)
                << (o.spec.profile.isMap() ? 1 : 0) << static_cast<int>(o.spec.componentRefs.size())
                << jsonText(yaml::toJson(o.specNode));
            if (Status st = overlays.add(row, o.file); !st)
                return st;
        }
    }
    return overlays.finish();
}

// The registry's components and the validator's checks, through the engine's bulk path (a round
// trip per row is most of their cost on a server).
Status insertRegistry(QSqlDatabase& db, qint64 cv, const Catalog& cat) {
    db::BulkInsert rows(db, QStringLiteral("registry_components"),
                        {QStringLiteral("catalog_version_id"), QStringLiteral("name"),
                         QStringLiteral("display_name"), QStringLiteral("type"),
                         QStringLiteral("default_source"), QStringLiteral("default_chart"),
                         QStringLiteral("default_version"), QStringLiteral("default_namespace"),
                         QStringLiteral("entry_json")});
    for (const RegistryComponent& c : cat.registry) {
        const bool kustomize = c.kind == QLatin1String("Kustomize");
        if (Status st =
                rows.add({cv, c.name, nullable(c.displayName), nullable(c.kind),
                          nullable(kustomize ? c.defaultSource : c.defaultRepository),
                          nullable(c.defaultChart), nullable(kustomize ? c.defaultTag : c.defaultVersion),
                          nullable(c.defaultNamespace), jsonText(yaml::toJson(c.node))},
                         c.name);
            !st)
            return st;
    }
    return rows.finish();
}

Status insertValidators(QSqlDatabase& db, qint64 cv, const Catalog& cat) {
    db::BulkInsert rows(db, QStringLiteral("validator_checks"),
                        {QStringLiteral("catalog_version_id"), QStringLiteral("name"),
                         QStringLiteral("phase"), QStringLiteral("description"), QStringLiteral("image"),
                         QStringLiteral("timeout"), QStringLiteral("entry_json")});
    for (const ValidatorCheck& c : cat.validators.checks)
        if (Status st = rows.add({cv, c.name, c.phase, nullable(c.description), nullable(c.image),
                                  nullable(c.timeout), jsonText(yaml::toJson(c.node))},
                                 c.name);
            !st)
            return st;
    return rows.finish();
}

// The first leaf that did not resolve, as the import's error.
std::optional<Error> unresolvedLeaf(const std::vector<PreparedLeaf>& prepared, const QString& root) {
    for (const PreparedLeaf& p : prepared)
        if (const LeafResolution& lr = p.resolution; lr.error) {
            Error e = *lr.error;
            e.message = QStringLiteral("leaf overlay '%1' does not resolve: %2").arg(lr.leaf, e.message);
            if (e.file.isEmpty())
                e.file = root;
            return e;
        }
    return std::nullopt;
}

QString profileOf(const RecipeResult& r) {
    // NOT NULL: '' means no profile.
    return r.selectedProfile ? r.selectedProfile->name + QLatin1Char('=') + r.selectedProfile->value
                             : QStringLiteral("");
}

// Every resolved leaf's recipe, then every recipe's components in deployment order (the disabled
// ones last), both through the engine's bulk path; recipe ids are read back by (name, profile), the
// table's key within a version. The number of recipes written.
Result<int> insertRecipes(QSqlDatabase& db, QSqlQuery& q, qint64 cv,
                          const std::vector<PreparedLeaf>& prepared, const QString& root) {
    auto key = [](const QString& name, const QString& profile) { return name + QChar(0x1f) + profile; };
    // Two leaves that make one recipe: refused, naming the second, before anything is written.
    QSet<QString> made;
    for (const PreparedLeaf& p : prepared) {
        const RecipeResult& r = *p.resolution.result;
        const QString k = key(r.recipeName(), profileOf(r));
        if (made.contains(k))
            return makeError(QStringLiteral("leaf overlay '%1' resolves to recipe '%2', which another leaf "
                                            "already produces")
                                 .arg(p.resolution.leaf, r.recipeName()),
                             root);
        made.insert(k);
    }
    QStringList columns{QStringLiteral("catalog_version_id"), QStringLiteral("name"),
                        QStringLiteral("leaf_overlay")};
    columns << Criteria::dimensions();
    columns << QStringLiteral("profile") << QStringLiteral("api_version")
            << QStringLiteral("applied_overlays") << QStringLiteral("component_count")
            << QStringLiteral("canonical_yaml") << QStringLiteral("digest");
    db::BulkInsert recipes(db, QStringLiteral("recipes"), columns);
    for (const PreparedLeaf& p : prepared) {
        const RecipeResult& r = *p.resolution.result;
        QVariantList row{cv, r.recipeName(), p.resolution.leaf};
        for (const QString& d : Criteria::dimensions())
            row << nullable(r.criteria.get(d));
        row << profileOf(r) << r.apiVersion << jsonText(jsonList(r.appliedOverlays))
            << static_cast<int>(r.deploymentOrder.size()) << p.bytes << p.digest;
        if (Status st = recipes.add(row, p.resolution.leaf); !st)
            return st.error();
    }
    if (Status st = recipes.finish(); !st)
        return st.error();

    QHash<QString, qint64> ids;
    q.prepare(QStringLiteral("SELECT name, profile, id FROM recipes WHERE catalog_version_id = ?"));
    q.addBindValue(cv);
    if (!q.exec())
        return sqlError(q, QStringLiteral("recipes"));
    while (q.next())
        ids.insert(key(q.value(0).toString(), q.value(1).toString()), q.value(2).toLongLong());
    q.finish();

    db::BulkInsert components(db, QStringLiteral("recipe_components"),
                              {QStringLiteral("recipe_id"), QStringLiteral("position"),
                               QStringLiteral("name"), QStringLiteral("type"), QStringLiteral("chart"),
                               QStringLiteral("version"), QStringLiteral("namespace"),
                               QStringLiteral("source"), QStringLiteral("enabled"),
                               QStringLiteral("dependency_refs")});
    for (const PreparedLeaf& p : prepared) {
        const LeafResolution& lr = p.resolution;
        const RecipeResult& r = *lr.result;
        const qint64 rid = ids.value(key(r.recipeName(), profileOf(r)), -1);
        if (rid < 0)
            return makeError(QStringLiteral("recipes (%1): the row just written was not found").arg(lr.leaf),
                             root);
        int position = 0;
        QStringList ordered = r.deploymentOrder;
        for (const ComponentRef& c : r.componentRefs)
            if (!ordered.contains(c.name))
                ordered << c.name; // disabled components after the enabled ones
        for (const QString& name : std::as_const(ordered)) {
            const ComponentRef* c = r.component(name);
            if (Status st =
                    components.add({rid, position++, c->name, nullable(c->type), nullable(c->chart),
                                    nullable(c->version), nullable(c->namespace_), nullable(c->source),
                                    c->isEnabled() ? 1 : 0, jsonText(jsonList(c->dependencyRefs))},
                                   lr.leaf + QLatin1Char('/') + c->name);
                !st)
                return st.error();
        }
    }
    if (Status st = components.finish(); !st)
        return st.error();
    return static_cast<int>(prepared.size());
}

} // namespace

Result<ImportReport> CatalogStore::importCatalog(const QString& label, const Catalog& cat,
                                                 const ImportOptions& options) {
    if (label.trimmed().isEmpty())
        return makeError(QStringLiteral("a catalog version needs a label (--version)"));
    const QString digest = cat.contentDigest();
    ImportReport report;
    report.files = static_cast<int>(cat.files.size());

    {
        Result<CatalogVersionInfo> existing = version(label);
        if (existing) {
            if (existing->contentDigest == digest) {
                report.outcome = ImportReport::Outcome::Unchanged;
                report.versionId = existing->id;
                report.recipes = existing->recipeCount;
                return report;
            }
            if (!options.replace)
                return makeError(QStringLiteral("catalog version '%1' already exists with different content "
                                                "(imported from %2); choose another label or replace it")
                                     .arg(label, existing->source),
                                 cat.root);
        }
    }

    // Every leaf is resolved, written as the bytes the store keeps and hashed on the other cores
    // while this thread writes the rows that need no recipe (version, files, overlays, registry,
    // validators); then this thread joins in. All of it is one transaction: a leaf that does not
    // resolve, or a cancel, rolls everything back, so a refused catalog leaves nothing behind.
    const QStringList leaves = cat.leafNames();
    const int steps = static_cast<int>(leaves.size()) + 1;
    auto progress = [&](int done, ImportStage stage) {
        if (options.progress)
            options.progress(done, steps, stage);
    };
    const std::size_t leafCount = static_cast<std::size_t>(leaves.size());
    const ResolveOptions resolveOptions = storedResolveOptions();
    std::vector<PreparedLeaf> prepared(leafCount);
    ItemPool leafPool(leafCount, [&](std::size_t i) {
        if (!(options.cancel && options.cancel->load()))
            prepareLeaf(prepared[i], cat, leaves[static_cast<qsizetype>(i)], resolveOptions);
    });

    QSqlDatabase& db = m_db.sql();
    Transaction tx(db);
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    QSqlQuery q(db);
    if (report.outcome != ImportReport::Outcome::Unchanged) {
        Result<bool> replaced = deleteVersion(q, label);
        if (!replaced)
            return replaced.error();
        if (*replaced)
            report.outcome = ImportReport::Outcome::Replaced;
    }

    Result<qint64> inserted = insertVersion(q, label, cat, digest, options);
    if (!inserted)
        return inserted.error();
    const qint64 cv = *inserted;
    report.versionId = cv;

    QHash<QString, qint64> fileIds;
    if (Status st = insertFiles(db, q, cv, cat, fileIds); !st)
        return st.error();
    if (Status st = insertOverlays(db, cv, cat, leaves, fileIds); !st)
        return st.error();
    if (Status st = insertRegistry(db, cv, cat); !st)
        return st.error();
    if (Status st = insertValidators(db, cv, cat); !st)
        return st.error();

    int reported = 0;
    leafPool.run([&](int finished) {
        const int done = std::min(finished, static_cast<int>(leafCount));
        for (; reported < done; ++reported)
            progress(reported + 1, ImportStage::Resolving);
    });
    if (options.cancel && options.cancel->load())
        return makeError(QStringLiteral("import cancelled; the database is unchanged"), cat.root);
    if (std::optional<Error> e = unresolvedLeaf(prepared, cat.root))
        return *e;
    progress(steps - 1, ImportStage::Writing);

    Result<int> recipes = insertRecipes(db, q, cv, prepared, cat.root);
    if (!recipes)
        return recipes.error();
    report.recipes += *recipes;
    if (options.cancel && options.cancel->load())
        return makeError(QStringLiteral("import cancelled; the database is unchanged"), cat.root);
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the import: %1").arg(db.lastError().text()),
                         m_db.path());
    progress(steps, ImportStage::Done);
    return report;
}

namespace {

CatalogVersionInfo readVersion(const QSqlQuery& q) {
    CatalogVersionInfo v;
    v.id = q.value(0).toLongLong();
    v.label = q.value(1).toString();
    v.source = q.value(2).toString();
    v.contentDigest = q.value(3).toString();
    v.apiVersions = q.value(4).toString();
    v.importedAt = QDateTime::fromString(q.value(5).toString(), Qt::ISODate);
    v.embedded = q.value(6).toInt() != 0;
    v.overlayCount = q.value(7).toInt();
    v.recipeCount = q.value(8).toInt();
    v.origin.kind = q.value(9).toString();
    v.origin.repository = q.value(10).toString();
    v.origin.ref = q.value(11).toString();
    v.origin.tag = q.value(12).toString();
    v.origin.commit = q.value(13).toString();
    if (!q.value(14).isNull())
        v.origin.commitDate = QDateTime::fromString(q.value(14).toString(), Qt::ISODate).toUTC();
    v.origin.path = q.value(15).toString();
    if (!q.value(16).isNull())
        v.signedByReleases = q.value(16).toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
    return v;
}

// The columns readVersion() reads. The releases that signed a version: each release once, in the
// order it was first bound to the version.
QString versionSelect(const QSqlDatabase& db) {
    const QString releases = db::Dialect(db).stringAgg(QStringLiteral("release_version"),
                                                       QStringLiteral("','"), QStringLiteral("first_bound"));
    return QStringLiteral(
               "SELECT v.id, v.label, v.source, v.content_digest, v.api_versions, v.imported_at, v.embedded, "
               "(SELECT count(*) FROM overlays o WHERE o.catalog_version_id = v.id AND o.kind = "
               "'RecipeMetadata'), "
               "(SELECT count(*) FROM recipes r WHERE r.catalog_version_id = v.id), v.source_kind, "
               "v.source_repo, v.source_ref, v.source_tag, v.source_commit, v.source_commit_date, "
               "v.source_path, "
               "(SELECT %1 FROM (SELECT s.release_version, min(b.id) AS first_bound FROM "
               "catalog_release_bindings b JOIN release_signatures s ON s.id = b.release_signature_id "
               "WHERE b.catalog_version_id = v.id GROUP BY s.release_version ORDER BY first_bound) AS bound) "
               "FROM catalog_versions v ")
        .arg(releases);
}

} // namespace

QString CatalogVersionInfo::originText() const {
    if (isSample())
        return QStringLiteral("sample data (compiled into Proofbench; not an AICR release)");
    const QString shortCommit = origin.commit.left(12);
    const QString when =
        origin.commitDate.isValid() ? origin.commitDate.toString(QStringLiteral("yyyy-MM-dd")) : QString();
    if (origin.kind == QLatin1String("git")) {
        QString what = origin.tag.isEmpty() ? QStringLiteral("ref %1").arg(origin.ref)
                                            : QStringLiteral("tag %1").arg(origin.tag);
        QString text = QStringLiteral("git %1 %2, commit %3").arg(origin.repository, what, shortCommit);
        if (!when.isEmpty())
            text += QStringLiteral(" (%1)").arg(when);
        if (!origin.path.isEmpty())
            text += QStringLiteral(", path %1").arg(origin.path);
        return text;
    }
    QString text = QStringLiteral("folder %1").arg(source);
    if (!origin.commit.isEmpty()) {
        text += QStringLiteral(" (in Git clone %1, commit %2").arg(origin.repository, shortCommit);
        if (!when.isEmpty())
            text += QStringLiteral(", %1").arg(when);
        text += QLatin1Char(')');
    }
    return text;
}

QString CatalogVersionInfo::releaseBindingText() const {
    if (signedByReleases.isEmpty())
        return {};
    return QStringLiteral("registry and validator catalog signed by AICR %1")
        .arg(signedByReleases.join(QStringLiteral(", ")));
}

QString releaseScopeNote() {
    return QStringLiteral("The release signature covers registry.yaml and validators/catalog.yaml only, not "
                          "the overlays, mixins, "
                          "component values or checks.");
}

QString ReleaseBinding::text() const {
    return QStringLiteral("registry and validator catalog signed by AICR %1").arg(signature.releaseVersion);
}

QString CatalogVersionInfo::orderBasis() const {
    return isSample() ? QStringLiteral("sample (before every real version)")
                      : catalog::orderBasis({label, origin.commitDate, false});
}

bool CatalogVersionInfo::placed() const {
    return !isSample() && catalog::orderBasis({label, origin.commitDate, false}) != QLatin1String("label");
}

std::optional<std::size_t> defaultBaselineIndex(const std::vector<CatalogVersionInfo>& ordered,
                                                std::size_t i) {
    if (i >= ordered.size())
        return std::nullopt;
    const CatalogVersionInfo& self = ordered[i];
    if (!self.isSample() && !self.placed())
        return std::nullopt;
    for (std::size_t j = i; j-- > 0;) {
        const CatalogVersionInfo& v = ordered[j];
        if (self.isSample() ? v.isSample() : v.placed())
            return j;
    }
    return std::nullopt;
}

QString noBaselineReason(const std::vector<CatalogVersionInfo>& ordered, std::size_t i) {
    if (i >= ordered.size() || defaultBaselineIndex(ordered, i))
        return {};
    const CatalogVersionInfo& self = ordered[i];
    if (!self.isSample() && !self.placed())
        return QStringLiteral(
            "its place in version order is unknown (no semantic version, commit date or date in "
            "its label), so no version is before it");
    if (self.isSample())
        return QStringLiteral("it is the oldest sample");
    for (std::size_t j = 0; j < i; ++j)
        if (ordered[j].isSample())
            return QStringLiteral("it is the oldest real version (sample data is never a baseline)");
    return QStringLiteral("it is the oldest in version order");
}

Result<std::vector<CatalogVersionInfo>> CatalogStore::versions() const {
    QSqlQuery q(m_db.sql());
    if (!q.exec(versionSelect(m_db.sql()) + QStringLiteral("ORDER BY v.id")))
        return sqlError(q, QStringLiteral("catalog_versions"));
    std::vector<CatalogVersionInfo> all;
    while (q.next())
        all.push_back(readVersion(q));
    std::vector<VersionOrderKey> keys;
    keys.reserve(all.size());
    for (const CatalogVersionInfo& v : all)
        keys.push_back({v.label, v.origin.commitDate, v.isSample()});
    std::vector<CatalogVersionInfo> out;
    out.reserve(all.size());
    for (int i : versionOrder(keys))
        out.push_back(std::move(all[static_cast<std::size_t>(i)]));
    return out;
}

Result<CatalogVersionInfo> CatalogStore::previousVersion(const QString& label) const {
    Result<std::vector<CatalogVersionInfo>> all = versions();
    if (!all)
        return all.error();
    for (std::size_t i = 0; i < all->size(); ++i)
        if ((*all)[i].label == label) {
            if (const std::optional<std::size_t> b = defaultBaselineIndex(*all, i))
                return (*all)[*b];
            return makeError(QStringLiteral("catalog version '%1' has no previous version: %2")
                                 .arg(label, noBaselineReason(*all, i)),
                             m_db.path());
        }
    return makeError(QStringLiteral("no catalog version '%1' in the database").arg(label), m_db.path());
}

Result<CatalogVersionInfo> CatalogStore::newestVersion() const {
    Result<std::vector<CatalogVersionInfo>> all = versions();
    if (!all)
        return all.error();
    if (all->empty())
        return makeError(QStringLiteral("the database holds no catalog version"), m_db.path());
    return all->back();
}

Result<std::optional<CatalogVersionInfo>>
CatalogStore::versionWithContent(const QString& contentDigest) const {
    QSqlQuery q(m_db.sql());
    q.prepare(versionSelect(m_db.sql()) + QStringLiteral("WHERE v.content_digest = ? ORDER BY v.id LIMIT 1"));
    q.addBindValue(contentDigest);
    if (!q.exec())
        return sqlError(q, QStringLiteral("catalog_versions"));
    if (!q.next())
        return std::optional<CatalogVersionInfo>();
    return std::optional<CatalogVersionInfo>(readVersion(q));
}

Result<CatalogVersionInfo> CatalogStore::version(const QString& label) const {
    QSqlQuery q(m_db.sql());
    q.prepare(versionSelect(m_db.sql()) + QStringLiteral("WHERE v.label = ?"));
    q.addBindValue(label);
    if (!q.exec())
        return sqlError(q, QStringLiteral("catalog_versions"));
    if (!q.next())
        return makeError(QStringLiteral("no catalog version '%1' in the database").arg(label), m_db.path());
    return readVersion(q);
}

Result<int> CatalogStore::upgradeRecipeDigests() {
    static const QString kName = QStringLiteral("recipe-evidence-digest");
    QSqlDatabase& db = m_db.sql();
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT 1 FROM store_upgrades WHERE name = ?"));
    q.addBindValue(kName);
    if (!q.exec())
        return sqlError(q, QStringLiteral("store_upgrades"));
    if (q.next())
        return 0;
    Transaction tx(db);
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    if (!q.exec(QStringLiteral("SELECT id, canonical_yaml FROM recipes")))
        return sqlError(q, QStringLiteral("recipes"));
    std::vector<std::pair<qint64, QByteArray>> rows;
    while (q.next())
        rows.emplace_back(q.value(0).toLongLong(), q.value(1).toByteArray());
    QSqlQuery u(db);
    u.prepare(QStringLiteral("UPDATE recipes SET canonical_yaml = ?, digest = ? WHERE id = ?"));
    for (const auto& [id, bytes] : rows) {
        Result<QByteArray> canonical =
            canonicalizeRecipeYaml(bytes, QStringLiteral("recipes/%1").arg(id), PredicateVersion::V3);
        if (!canonical)
            return canonical.error();
        u.addBindValue(*canonical);
        u.addBindValue(sha256Hex(*canonical));
        u.addBindValue(id);
        if (!u.exec())
            return sqlError(u, QStringLiteral("recipes"));
    }
    q.prepare(QStringLiteral("INSERT INTO store_upgrades (name, done_at) VALUES (?, ?)"));
    q.addBindValue(kName);
    q.addBindValue(QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    if (!q.exec())
        return sqlError(q, QStringLiteral("store_upgrades"));
    if (!tx.commit())
        return makeError(
            QStringLiteral("cannot commit the recipe digest upgrade: %1").arg(db.lastError().text()),
            m_db.path());
    return static_cast<int>(rows.size());
}

bool CatalogStore::isEmpty() const {
    QSqlQuery q(m_db.sql());
    return q.exec(QStringLiteral("SELECT count(*) FROM catalog_versions")) && q.next() &&
           q.value(0).toInt() == 0;
}

Result<Catalog> CatalogStore::loadCatalog(const QString& label) const {
    Result<CatalogVersionInfo> v = version(label);
    if (!v)
        return v.error();
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral(
        "SELECT path, kind, content FROM catalog_files WHERE catalog_version_id = ? ORDER BY path"));
    q.addBindValue(v->id);
    if (!q.exec())
        return sqlError(q, QStringLiteral("catalog_files"));
    std::vector<CatalogFile> files;
    while (q.next())
        files.push_back(CatalogFile{q.value(0).toString(), q.value(1).toString(), q.value(2).toByteArray()});
    return loadCatalogFromFiles(std::move(files), label);
}

RecipeInfo::Change RecipeInfo::change() const {
    if (previousLabel.isEmpty())
        return Change::FirstVersion;
    if (previousDigest.isEmpty())
        return Change::New;
    return previousDigest == digest ? Change::Unchanged : Change::Changed;
}

QString RecipeInfo::changeText() const {
    switch (change()) {
    case Change::FirstVersion:
        return {};
    case Change::New:
        return QStringLiteral("new in %1").arg(catalogLabel);
    case Change::Unchanged:
        return QStringLiteral("unchanged since %1").arg(previousLabel);
    case Change::Changed:
        return QStringLiteral("changed since %1").arg(previousLabel);
    }
    return {};
}

Result<std::vector<RecipeInfo>> CatalogStore::recipes(qint64 catalogVersionId) const {
    // The previous version is the one just before in version order; its recipe of the same name
    // and profile, if any, gives the digest to compare with.
    Result<std::vector<CatalogVersionInfo>> all = versions();
    if (!all)
        return all.error();
    qint64 previousId = 0;
    QStringList signedBy;
    for (std::size_t i = 0; i < all->size(); ++i)
        if ((*all)[i].id == catalogVersionId) {
            signedBy = (*all)[i].signedByReleases;
            if (const std::optional<std::size_t> b = defaultBaselineIndex(*all, i))
                previousId = (*all)[*b].id;
        }
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral(
        "SELECT r.id, r.catalog_version_id, v.label, r.name, r.leaf_overlay, r.profile, r.api_version, "
        "r.digest, "
        "r.service, r.accelerator, r.os, r.intent, r.platform, r.applied_overlays, r.component_count, "
        "pv.label, "
        "p.digest FROM recipes r JOIN catalog_versions v ON v.id = r.catalog_version_id "
        "LEFT JOIN catalog_versions pv ON pv.id = ? "
        "LEFT JOIN recipes p ON p.catalog_version_id = pv.id AND p.name = r.name AND p.profile = r.profile "
        "WHERE r.catalog_version_id = ? ORDER BY r.name, r.profile"));
    q.addBindValue(previousId);
    q.addBindValue(catalogVersionId);
    if (!q.exec())
        return sqlError(q, QStringLiteral("recipes"));
    std::vector<RecipeInfo> out;
    while (q.next()) {
        RecipeInfo r;
        r.id = q.value(0).toLongLong();
        r.catalogVersionId = q.value(1).toLongLong();
        r.catalogLabel = q.value(2).toString();
        r.name = q.value(3).toString();
        r.leafOverlay = q.value(4).toString();
        r.profile = q.value(5).toString();
        r.apiVersion = q.value(6).toString();
        r.digest = q.value(7).toString();
        int col = 8;
        for (const QString& d : Criteria::dimensions())
            r.criteria.set(d, q.value(col++).toString());
        for (const QJsonValue& a : QJsonDocument::fromJson(q.value(13).toString().toUtf8()).array())
            r.appliedOverlays << a.toString();
        r.componentCount = q.value(14).toInt();
        r.previousLabel = q.value(15).toString();
        r.previousDigest = q.value(16).toString();
        r.catalogSignedByReleases = signedBy;
        out.push_back(std::move(r));
    }
    return out;
}

Result<QByteArray> CatalogStore::fileContent(qint64 catalogVersionId, const QString& path) const {
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("SELECT content FROM catalog_files WHERE catalog_version_id = ? AND path = ?"));
    q.addBindValue(catalogVersionId);
    q.addBindValue(path);
    if (!q.exec())
        return sqlError(q, QStringLiteral("catalog_files"));
    if (!q.next())
        return makeError(QStringLiteral("no such file in this catalog version"), path);
    return q.value(0).toByteArray();
}

QStringList embeddedCatalogLabels() {
    QStringList labels =
        QDir(QStringLiteral(":/recipes")).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    // Oldest first, in version order (sample-1 < sample-2 < sample-10).
    std::vector<VersionOrderKey> keys;
    for (const QString& l : std::as_const(labels))
        keys.push_back({l, {}, true});
    QStringList ordered;
    for (int i : versionOrder(keys))
        ordered << labels[i];
    return ordered;
}

// ---- release signatures and bindings ----------------------------------------------------------------

namespace {

constexpr const char* kSignatureColumns = "s.id, s.release_version, s.subject_sha256, s.registry_sha256, "
                                          "s.validators_sha256, s.bundle_sha256, s.verification_json, "
                                          "s.policy_json, s.trusted_root_sha256, s.verified_at";

ReleaseSignature readSignature(const QSqlQuery& q) {
    ReleaseSignature s;
    s.id = q.value(0).toLongLong();
    s.releaseVersion = q.value(1).toString();
    s.subjectSha256 = q.value(2).toString();
    s.registrySha256 = q.value(3).toString();
    s.validatorsSha256 = q.value(4).toString();
    s.bundleSha256 = q.value(5).toString();
    s.verification = QJsonDocument::fromJson(q.value(6).toByteArray()).object();
    s.policy = QJsonDocument::fromJson(q.value(7).toByteArray()).object();
    s.trustedRootSha256 = q.value(8).toString();
    s.verifiedAt = QDateTime::fromString(q.value(9).toString(), Qt::ISODate);
    return s;
}

QString isoNow() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
}

} // namespace

Result<qint64> CatalogStore::recordReleaseSignature(const ReleaseSignature& sig) {
    if (sig.releaseVersion.isEmpty() || sig.subjectSha256.isEmpty() || sig.bundle.isEmpty())
        return makeError(QStringLiteral("a release signature needs its version, subject and bundle"),
                         m_db.path());
    const QString bundleSha = catalog::sha256Hex(sig.bundle);
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral(
        "SELECT id FROM release_signatures WHERE release_version = ? AND subject_name = 'recipe-catalog' "
        "AND bundle_sha256 = ?"));
    q.addBindValue(sig.releaseVersion);
    q.addBindValue(bundleSha);
    if (!q.exec())
        return sqlError(q, QStringLiteral("release_signatures"));
    if (q.next())
        return q.value(0).toLongLong();
    q.prepare(QStringLiteral(
        "INSERT INTO release_signatures (release_version, subject_name, subject_sha256, registry_sha256, "
        "validators_sha256, bundle, bundle_sha256, verification_json, policy_json, trusted_root_sha256, "
        "verified_at) "
        "VALUES (?, 'recipe-catalog', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    q.addBindValue(sig.releaseVersion);
    q.addBindValue(sig.subjectSha256);
    q.addBindValue(sig.registrySha256);
    q.addBindValue(sig.validatorsSha256);
    q.addBindValue(sig.bundle);
    q.addBindValue(bundleSha);
    q.addBindValue(QString::fromUtf8(QJsonDocument(sig.verification).toJson(QJsonDocument::Compact)));
    q.addBindValue(QString::fromUtf8(QJsonDocument(sig.policy).toJson(QJsonDocument::Compact)));
    q.addBindValue(sig.trustedRootSha256);
    q.addBindValue(sig.verifiedAt.isValid() ? sig.verifiedAt.toUTC().toString(Qt::ISODate) : isoNow());
    return execReturningId(q, QStringLiteral("release_signatures"));
}

Result<std::optional<ReleaseSignature>> CatalogStore::releaseSignature(const QString& releaseVersion) const {
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("SELECT %1, s.bundle FROM release_signatures s WHERE s.release_version = ? "
                             "ORDER BY s.id DESC LIMIT 1")
                  .arg(QLatin1String(kSignatureColumns)));
    q.addBindValue(releaseVersion);
    if (!q.exec())
        return sqlError(q, QStringLiteral("release_signatures"));
    if (!q.next())
        return std::optional<ReleaseSignature>();
    ReleaseSignature s = readSignature(q);
    s.bundle = q.value(10).toByteArray();
    return std::optional<ReleaseSignature>(std::move(s));
}

Result<std::vector<ReleaseSignature>> CatalogStore::releaseSignatures() const {
    QSqlQuery q(m_db.sql());
    if (!q.exec(QStringLiteral("SELECT %1 FROM release_signatures s ORDER BY s.id")
                    .arg(QLatin1String(kSignatureColumns))))
        return sqlError(q, QStringLiteral("release_signatures"));
    std::vector<ReleaseSignature> out;
    while (q.next())
        out.push_back(readSignature(q));
    return out;
}

Result<std::vector<ReleaseBinding>> CatalogStore::releaseBindings(qint64 catalogVersionId) const {
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral(
                  "SELECT %1, b.bound_at FROM catalog_release_bindings b JOIN release_signatures s ON s.id = "
                  "b.release_signature_id WHERE b.catalog_version_id = ? ORDER BY b.id")
                  .arg(QLatin1String(kSignatureColumns)));
    q.addBindValue(catalogVersionId);
    if (!q.exec())
        return sqlError(q, QStringLiteral("catalog_release_bindings"));
    std::vector<ReleaseBinding> out;
    while (q.next())
        out.push_back({readSignature(q), QDateTime::fromString(q.value(10).toString(), Qt::ISODate)});
    return out;
}

Result<release::CatalogFiles> CatalogStore::catalogFiles(qint64 catalogVersionId) const {
    release::CatalogFiles files;
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("SELECT label FROM catalog_versions WHERE id = ?"));
    q.addBindValue(catalogVersionId);
    if (!q.exec())
        return sqlError(q, QStringLiteral("catalog_versions"));
    if (!q.next())
        return makeError(QStringLiteral("no catalog version #%1 in the database").arg(catalogVersionId),
                         m_db.path());
    files.source = QStringLiteral("catalog version %1").arg(q.value(0).toString());
    for (auto [path, target] : {std::pair{release::kRegistryPath, &files.registry},
                                std::pair{release::kValidatorsPath, &files.validators}}) {
        Result<QByteArray> bytes = fileContent(catalogVersionId, QLatin1String(path));
        if (!bytes)
            return makeError(QStringLiteral("%1 has no %2, so the recipe-catalog subject cannot be computed")
                                 .arg(files.source, QLatin1String(path)),
                             m_db.path());
        *target = std::move(*bytes);
    }
    return files;
}

namespace {

Status bind(Database& db, qint64 versionId, qint64 signatureId) {
    QSqlQuery q(db.sql());
    q.prepare(QStringLiteral(
        "INSERT INTO catalog_release_bindings (catalog_version_id, release_signature_id, bound_at) "
        "VALUES (?, ?, ?) ON CONFLICT (catalog_version_id, release_signature_id) DO NOTHING"));
    q.addBindValue(versionId);
    q.addBindValue(signatureId);
    q.addBindValue(isoNow());
    if (!q.exec())
        return sqlError(q, QStringLiteral("catalog_release_bindings"));
    return {};
}

} // namespace

Result<QStringList> CatalogStore::bindToReleases(qint64 catalogVersionId) {
    Result<release::CatalogFiles> files = catalogFiles(catalogVersionId);
    if (!files)
        return QStringList(); // no validator catalog (older layouts): nothing a release signs
    const QString subject = release::recipeCatalogSubject(files->registry, files->validators);
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral(
        "SELECT id, release_version FROM release_signatures WHERE subject_sha256 = ? ORDER BY id"));
    q.addBindValue(subject);
    if (!q.exec())
        return sqlError(q, QStringLiteral("release_signatures"));
    QStringList releases;
    std::vector<qint64> ids;
    while (q.next()) {
        ids.push_back(q.value(0).toLongLong());
        if (!releases.contains(q.value(1).toString()))
            releases << q.value(1).toString();
    }
    for (qint64 id : ids)
        if (Status s = bind(m_db, catalogVersionId, id); !s)
            return s.error();
    return releases;
}

Result<QStringList> CatalogStore::bindVersionsTo(qint64 signatureId) {
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("SELECT subject_sha256 FROM release_signatures WHERE id = ?"));
    q.addBindValue(signatureId);
    if (!q.exec())
        return sqlError(q, QStringLiteral("release_signatures"));
    if (!q.next())
        return makeError(QStringLiteral("no release signature #%1").arg(signatureId), m_db.path());
    const QString subject = q.value(0).toString();
    // Only versions that have both files (a registry and a validator catalog) can match.
    if (!q.exec(QStringLiteral(
            "SELECT v.id, v.label FROM catalog_versions v WHERE EXISTS (SELECT 1 FROM catalog_files f WHERE "
            "f.catalog_version_id = v.id AND f.path = 'validators/catalog.yaml') ORDER BY v.id")))
        return sqlError(q, QStringLiteral("catalog_versions"));
    std::vector<std::pair<qint64, QString>> candidates;
    while (q.next())
        candidates.emplace_back(q.value(0).toLongLong(), q.value(1).toString());
    QStringList bound;
    for (const auto& [id, label] : candidates) {
        Result<release::CatalogFiles> files = catalogFiles(id);
        if (!files || release::recipeCatalogSubject(files->registry, files->validators) != subject)
            continue;
        if (Status s = bind(m_db, id, signatureId); !s)
            return s.error();
        bound << label;
    }
    return bound;
}

} // namespace pb::store
