#include "store/EvidenceStore.h"

#include "db/BulkInsert.h"

#include "core/Files.h"

#include "catalog/Digest.h"
#include "core/Hash.h"
#include "db/Dialect.h"
#include "db/Postgres.h"
#include "sigstore/Crypto.h"
#include "store/CatalogStore.h"
#include "store/VerificationStore.h"
#include "yaml/GoYaml.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QTimeZone>
#include <QtConcurrent/QtConcurrentMap>

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <map>

namespace pb::store {

using evidence::Pointer;
using evidence::SignerClass;

namespace {

// "2026-07-20T22:33:47Z", the form AICR writes, read without QDateTime's general ISO parser (the
// health table reads one per row); anything else falls back to it.
QDateTime parseUtc(const QString& s) {
    auto num = [&](int from, int len) {
        int v = 0;
        for (int i = from; i < from + len; ++i) {
            const QChar ch = s.at(i);
            if (!ch.isDigit())
                return -1;
            v = v * 10 + ch.digitValue();
        }
        return v;
    };
    if (s.size() == 20 && s.at(4) == QLatin1Char('-') && s.at(7) == QLatin1Char('-') &&
        s.at(10) == QLatin1Char('T') && s.at(13) == QLatin1Char(':') && s.at(16) == QLatin1Char(':') &&
        s.at(19) == QLatin1Char('Z')) {
        const QDate d(num(0, 4), num(5, 2), num(8, 2));
        const QTime t(num(11, 2), num(14, 2), num(17, 2));
        if (d.isValid() && t.isValid())
            return QDateTime(d, t, QTimeZone::utc());
    }
    const QDateTime dt = QDateTime::fromString(s, Qt::ISODate);
    return dt.isValid() ? dt.toUTC() : dt;
}

} // namespace

Result<EvidenceImportReport> EvidenceStore::importTree(const evidence::EvidenceTree& tree) {
    EvidenceImportReport report;
    QSqlDatabase& db = m_db.sql();
    Transaction tx(db);
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    QSqlQuery q(db);
    // An allowlist already stored (the same bytes) is kept as it is. One that could not be read, or
    // is empty (no bytes: NULL content), is not stored, as before (INSERT OR IGNORE skipped its NOT NULL
    // failure).
    if (tree.allowlist) {
        QFile f(tree.allowlist->file);
        const QByteArray bytes = openInputFile(f).ok() ? f.readAll() : QByteArray();
        if (!bytes.isNull()) {
            q.prepare(QStringLiteral("INSERT INTO evidence_allowlists (path, sha256, content, imported_at) "
                                     "VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING"));
            q.addBindValue(tree.allowlist->file);
            q.addBindValue(sha256Hex(bytes));
            q.addBindValue(bytes);
            q.addBindValue(now);
            if (!q.exec())
                return sqlError(q, QStringLiteral("evidence_allowlists"));
            report.allowlistStored = q.numRowsAffected() > 0;
        }
    }
    // What is stored already, read once (a lookup per pointer is a round trip per pointer on a
    // server); then every new or changed pointer goes in through the engine's bulk path.
    QHash<QString, QString> stored;
    if (!tree.pointers.empty()) {
        if (!q.exec(QStringLiteral("SELECT path, sha256 FROM evidence_pointers")))
            return sqlError(q, QStringLiteral("evidence_pointers"));
        while (q.next())
            stored.insert(q.value(0).toString(), q.value(1).toString());
        q.finish();
    }
    static const QStringList kColumns = {
        QStringLiteral("path"),           QStringLiteral("sha256"),        QStringLiteral("content"),
        QStringLiteral("layout"),         QStringLiteral("recipe"),        QStringLiteral("profile"),
        QStringLiteral("source_dir"),     QStringLiteral("signer_issuer"), QStringLiteral("signer_identity"),
        QStringLiteral("signer_slug"),    QStringLiteral("signer_class"),  QStringLiteral("rekor_log_index"),
        QStringLiteral("attested_at"),    QStringLiteral("bundle_digest"), QStringLiteral("bundle_oci"),
        QStringLiteral("predicate_type"), QStringLiteral("valid"),         QStringLiteral("problems"),
        QStringLiteral("imported_at")};
    QStringList updates;
    for (const QString& c : kColumns.mid(1))
        updates << QStringLiteral("%1=excluded.%1").arg(c);
    // New pointers go straight in (COPY on PostgreSQL); changed ones through an upsert.
    db::BulkInsert inserts(db, QStringLiteral("evidence_pointers"), kColumns);
    db::BulkInsert upserts(db, QStringLiteral("evidence_pointers"), kColumns,
                           QStringLiteral("ON CONFLICT(path) DO UPDATE SET ") +
                               updates.join(QLatin1Char(',')));
    QSet<QString> seen;
    for (const Pointer& p : tree.pointers) {
        const QString digest = sha256Hex(p.raw);
        const auto old = stored.constFind(p.file);
        const bool exists = old != stored.cend();
        report.invalid += p.isValid() ? 0 : 1;
        // A path listed twice in one tree is written once (the first), as a lookup per row found it.
        if ((exists && *old == digest) || seen.contains(p.file)) {
            ++report.unchanged;
            continue;
        }
        seen.insert(p.file);
        const evidence::Attestation* a = p.attestation();
        const std::optional<evidence::Signer> signer = a ? a->signer : std::nullopt;
        // A pointer that could not be read (over the limit) has only its path: its layout and the
        // recipe and source its directories name come from the path alone.
        const Pointer shape = !p.isValid() && p.raw.isEmpty() && p.dirRecipe.isEmpty()
                                  ? evidence::parsePointer({}, p.file)
                                  : Pointer{};
        const bool byPath = !shape.file.isEmpty();
        const QVariantList row{
            p.file, digest,
            // An empty or unread file still has content (zero bytes), never SQL NULL.
            p.raw.isNull() ? QByteArray("", 0) : p.raw,
            evidence::layoutName(byPath ? shape.layout : p.layout),
            // A pointer whose content names no recipe (empty, unreadable) is listed under the recipe
            // its directory names, so the health table and the inspector show it with its reason.
            nullable(!p.recipe.isEmpty() || p.isValid() ? p.recipe
                     : byPath                           ? shape.dirRecipe
                                                        : p.dirRecipe),
            nullable(p.profile), nullable(byPath ? shape.dirSource : p.dirSource),
            nullable(signer ? signer->issuer : QString()), nullable(signer ? signer->identity : QString()),
            nullable(p.claimedSlug()),
            nullable(p.signerClass ? evidence::signerClassName(*p.signerClass) : QString()),
            signer && signer->rekorLogIndex ? QVariant(*signer->rekorLogIndex)
                                            : QVariant(QMetaType(QMetaType::LongLong)),
            nullable(a ? a->attestedAtText : QString()), nullable(a ? a->bundleDigest : QString()),
            nullable(a ? a->bundleOci : QString()), nullable(a ? a->predicateType : QString()),
            p.isValid() ? 1 : 0,
            QString::fromUtf8(
                QJsonDocument(QJsonArray::fromStringList(p.problems)).toJson(QJsonDocument::Compact)),
            now};
        if (Status s = (exists ? upserts : inserts).add(row, p.file); !s)
            return s.error();
        exists ? ++report.updated : ++report.added;
    }
    if (Status s = inserts.finish(); !s)
        return s.error();
    if (Status s = upserts.finish(); !s)
        return s.error();
    // Rebuild the per-recipe counts inside the same transaction: one pass for the counts, one
    // window pass for each recipe's newest predicate type (a sub-query per recipe cost 10,000
    // lookups on the 200k-pointer benchmark).
    const QString current = QStringLiteral("valid = 1 AND layout != 'flat pending'");
    if (!q.exec(QStringLiteral("DELETE FROM evidence_summary")) ||
        !q.exec(
            QStringLiteral(
                "INSERT INTO evidence_summary (recipe, pointers, invalid, pending, first_party, community, "
                "partner, reported, newest_attested_at, newest_predicate_type) "
                "SELECT a.recipe, a.pointers, a.invalid, a.pending, a.first_party, a.community, a.partner, "
                "a.reported, a.newest, n.predicate_type FROM ("
                "SELECT recipe, count(*) AS pointers, count(CASE WHEN valid = 0 THEN 1 END) AS invalid, "
                "count(CASE WHEN valid = 1 AND layout = 'flat pending' THEN 1 END) AS pending, "
                "count(CASE WHEN %1 AND signer_class = 'first-party' THEN 1 END) AS first_party, "
                "count(CASE WHEN %1 AND signer_class = 'community' THEN 1 END) AS community, "
                "count(CASE WHEN %1 AND signer_class = 'partner' THEN 1 END) AS partner, "
                "count(CASE WHEN %1 AND (signer_class IS NULL OR signer_class = 'reported-only') THEN 1 "
                "END) AS reported, "
                "max(CASE WHEN %1 THEN attested_at END) AS newest "
                "FROM evidence_pointers WHERE recipe IS NOT NULL GROUP BY recipe) a "
                "LEFT JOIN (SELECT recipe, predicate_type FROM (SELECT recipe, predicate_type, row_number() "
                "OVER (PARTITION BY recipe ORDER BY attested_at DESC NULLS LAST, id) AS rn "
                "FROM evidence_pointers WHERE recipe IS NOT NULL AND %1) ranked WHERE rn = 1) n "
                "ON n.recipe = a.recipe")
                .arg(current)))
        return sqlError(q, QStringLiteral("evidence_summary"));
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the evidence import: %1").arg(db.lastError().text()),
                         m_db.path());
    return report;
}

Result<int> EvidenceStore::importBundles(const QString& dir, const evidence::SignatureCheck* signature) {
    Result<BundleImportReport> r = importBundleDir(dir, signature);
    if (!r)
        return r.error();
    return static_cast<int>(r->sources.size());
}

namespace {

bool isBundleDir(const QString& d) {
    return (QFileInfo::exists(d + QStringLiteral("/index.json")) &&
            QFileInfo(d + QStringLiteral("/blobs")).isDir()) ||
           QFileInfo::exists(d + QStringLiteral("/statement.intoto.json")) ||
           QFileInfo::exists(d + QStringLiteral("/summary-bundle/statement.intoto.json"));
}

// Candidates: the directory itself and every directory below it holding an OCI layout or a
// summary bundle (not descending into one once found).
QStringList bundleSources(const QString& dir) {
    QStringList sources;
    if (isBundleDir(dir))
        sources << dir;
    QDirIterator it(dir, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString d = it.next();
        if (it.fileInfo().isSymLink() || d.endsWith(QLatin1String("/summary-bundle")))
            continue;
        bool inside = false;
        for (const QString& s : std::as_const(sources))
            inside = inside || d.startsWith(s + QLatin1Char('/'));
        if (!inside && isBundleDir(d))
            sources << d;
    }
    sources.sort(); // one order on every file system: the import's rows and report follow it
    return sources;
}

// One bundle of an import, as read and checked.
struct BundleRead {
    QString source;
    evidence::SummaryBundle bundle;
    std::optional<evidence::Pointer> pointer; // the imported pointer that pins its layout
    evidence::BundleCheck check;
    QString error;
};

// Reads a bundle's files (no database: runs on the thread pool).
void loadBundleRead(BundleRead& r) {
    Result<evidence::SummaryBundle> b = evidence::loadBundle(r.source);
    if (!b) {
        r.error = b.error().toString();
        return;
    }
    r.bundle = *b;
    // A fetched bundle (oci::fetchEvidence) keeps its OCI layout beside the unpacked
    // summary-bundle/: the layout's manifest digest is what the pointer pins.
    if (r.bundle.ociManifestDigest.isEmpty() &&
        QFileInfo::exists(r.source + QStringLiteral("/oci/index.json"))) {
        if (Result<QByteArray> index =
                readFileLimited(r.source + QStringLiteral("/oci/index.json"), limits::kConfigFile);
            index) {
            const QJsonArray manifests =
                QJsonDocument::fromJson(*index).object().value(QStringLiteral("manifests")).toArray();
            if (!manifests.isEmpty())
                r.bundle.ociManifestDigest =
                    manifests.first().toObject().value(QStringLiteral("digest")).toString();
        }
    }
}

// The recipe's metadata.version, as recipe.yaml in the bundle gives it.
QString recipeVersionOf(const evidence::SummaryBundle& b) {
    if (Result<yaml::Node> doc =
            yaml::parse(b.files.value(QStringLiteral("recipe.yaml")), QStringLiteral("recipe.yaml"));
        doc)
        if (const yaml::Node* meta = doc->get("metadata"))
            if (const yaml::Node* v = meta->get("version"); v && v->isScalar())
                return v->text();
    return {};
}

QString compactJson(const QJsonObject& o) {
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString compactJson(const QJsonArray& a) {
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

// phase -> {passed, failed, skipped}, from the predicate.
QJsonObject phaseCounts(const std::optional<evidence::Predicate>& p) {
    QJsonObject phases;
    if (p)
        for (auto ph = p->phases.cbegin(); ph != p->phases.cend(); ++ph)
            phases.insert(ph.key(), QJsonObject{{QStringLiteral("passed"), ph->passed},
                                                {QStringLiteral("failed"), ph->failed},
                                                {QStringLiteral("skipped"), ph->skipped}});
    return phases;
}

// The check's steps, or the one failed step of a bundle that could not be read.
QJsonArray checkSteps(const BundleRead& r) {
    if (!r.error.isEmpty())
        return QJsonArray{QJsonObject{{QStringLiteral("step"), QStringLiteral("materialize-bundle")},
                                      {QStringLiteral("status"), QStringLiteral("failed")},
                                      {QStringLiteral("detail"), r.error}}};
    return r.check.toJson().value(QStringLiteral("steps")).toArray();
}

// phase -> the CTRF tests: name, status, duration, message.
QJsonObject ctrfTests(const evidence::BundleCheck& check) {
    QJsonObject tests;
    for (auto ph = check.ctrf.cbegin(); ph != check.ctrf.cend(); ++ph) {
        QJsonArray list;
        for (const evidence::CtrfTest& t : ph->results)
            list.append(QJsonObject{{QStringLiteral("name"), t.name},
                                    {QStringLiteral("status"), t.status},
                                    {QStringLiteral("duration"), t.durationMs},
                                    {QStringLiteral("message"), t.message}});
        tests.insert(ph.key(), list);
    }
    return tests;
}

// Who signed (certificate identity and issuer, or "public key"), or why it did not verify.
QString signatureDetail(const std::optional<sigstore::VerificationResult>& sig) {
    if (!sig)
        return {};
    if (!sig->verified)
        return sig->summary();
    return sig->certificate
               ? QStringLiteral("%1 (%2)").arg(sig->certificate->san, sig->certificate->oidcIssuer)
               : QStringLiteral("public key");
}

QString insertBundleSql() {
    return QStringLiteral(
        "INSERT INTO evidence_bundles (source, oci_digest, recipe, predicate_type, attested_at, "
        "aicr_version, "
        "recipe_digest, recipe_version, phases, signed, check_exit, check_steps, ctrf_tests, imported_at, "
        "signature_verified, "
        "signature_detail) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(source) DO UPDATE SET "
        "oci_digest=excluded.oci_digest, "
        "recipe=excluded.recipe, predicate_type=excluded.predicate_type, attested_at=excluded.attested_at, "
        "aicr_version=excluded.aicr_version, recipe_digest=excluded.recipe_digest, "
        "recipe_version=excluded.recipe_version, phases=excluded.phases, signed=excluded.signed, "
        "check_exit=excluded.check_exit, check_steps=excluded.check_steps, ctrf_tests=excluded.ctrf_tests, "
        "imported_at=excluded.imported_at, signature_verified=excluded.signature_verified, "
        "signature_detail=excluded.signature_detail");
}

// The bundle's evidence_bundles row (`q` prepared with insertBundleSql()), inserted or updated by source.
Status writeBundleRow(QSqlQuery& q, const BundleRead& r, const QString& now) {
    const std::optional<evidence::Predicate>& p = r.check.predicate;
    q.addBindValue(r.source);
    q.addBindValue(nullable(r.bundle.ociManifestDigest));
    q.addBindValue(nullable(p ? p->recipeName : QString()));
    q.addBindValue(nullable(p ? p->type : QString()));
    q.addBindValue(nullable(p ? p->attestedAt : QString()));
    q.addBindValue(nullable(p ? p->aicrVersion : QString()));
    q.addBindValue(nullable(p ? p->recipeDigest : QString()));
    q.addBindValue(nullable(recipeVersionOf(r.bundle)));
    q.addBindValue(compactJson(phaseCounts(p)));
    q.addBindValue(r.check.signaturePresent ? 1 : 0);
    q.addBindValue(r.error.isEmpty() ? r.check.exitCode : 2);
    q.addBindValue(compactJson(checkSteps(r)));
    q.addBindValue(compactJson(ctrfTests(r.check)));
    q.addBindValue(now);
    const auto& sig = r.check.signature;
    q.addBindValue(sig ? QVariant(sig->verified ? 1 : 0) : QVariant(QMetaType(QMetaType::Int)));
    q.addBindValue(nullable(signatureDetail(sig)));
    if (!q.exec())
        return sqlError(q, QStringLiteral("evidence_bundles (%1)").arg(r.source));
    return {};
}

// The signature verification is kept with its every step, attached to the bundle's row.
Status recordBundleSignature(Database& database, const BundleRead& r) {
    QSqlQuery idq(database.sql());
    idq.prepare(QStringLiteral("SELECT id FROM evidence_bundles WHERE source = ?"));
    idq.addBindValue(r.source);
    if (!idq.exec() || !idq.next())
        return sqlError(idq, QStringLiteral("evidence_bundles.id"));
    if (auto id = VerificationStore(database).recordInTransaction(
            *r.check.signature, r.bundle.files.value(QStringLiteral("attestation.intoto.jsonl")),
            r.check.signaturePolicy, idq.value(0).toLongLong());
        !id)
        return id.error();
    return {};
}

} // namespace

Result<BundleImportReport> EvidenceStore::importBundleDir(const QString& dirIn,
                                                          const evidence::SignatureCheck* given,
                                                          qint64 maxExpandedBytes) {
    const QString dir = QFileInfo(dirIn).absoluteFilePath();
    if (!QFileInfo(dir).isDir())
        return makeError(QStringLiteral("bundle directory does not exist"), dirIn);
    const QStringList sources = bundleSources(dir);
    std::optional<sigstore::TrustedRoot> storedRoot;
    evidence::SignatureCheck signature;
    if (given) {
        signature = *given;
    } else {
        auto def = VerificationStore(m_db).defaultTrustedRoot();
        if (!def)
            return def.error();
        storedRoot = std::move(*def);
        signature.root = storedRoot ? &*storedRoot : nullptr;
    }
    signature.policy.prepare(); // a key is decoded once for all the bundles
    // Reading and checking a bundle (files, digests, CTRF, the Sigstore verification) needs no
    // database: both run on Qt's thread pool, every core at once. The pointer lookups between them
    // and every write stay on this thread, in source order, so the result is the same as one by one.
    // Bundles go through in batches of a few per core, each batch written and dropped before the
    // next is read: memory depends on the batch, not on how many bundles the folder holds (a
    // loaded bundle keeps only what its checks read; see evidence::SummaryBundle).
    QThread* const caller = QThread::currentThread();
    QSqlDatabase& db = m_db.sql();
    Transaction tx(db);
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    QSqlQuery q(db);
    q.prepare(insertBundleSql());
    QSqlQuery pq(m_db.sql());
    pq.prepare(
        QStringLiteral("SELECT content, path FROM evidence_pointers WHERE bundle_digest = ? AND valid = 1 "
                       "ORDER BY attested_at DESC NULLS LAST, id LIMIT 1"));
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    const qsizetype batch = std::max(2, QThread::idealThreadCount() * 2);
    BundleImportReport report;
    qint64 expanded = 0;
    for (qsizetype from = 0; from < sources.size(); from += batch) {
        std::vector<BundleRead> reads(static_cast<size_t>(std::min(batch, sources.size() - from)));
        for (size_t i = 0; i < reads.size(); ++i)
            reads[i].source = sources.at(from + static_cast<qsizetype>(i));
        auto onPool = [&](auto&& step) {
            QtConcurrent::blockingMap(reads, [&](BundleRead& r) {
                step(r);
                sigstore::crypto::releasePoolThreadState(caller);
            });
        };
        onPool([](BundleRead& r) { loadBundleRead(r); });
        for (const BundleRead& r : reads) {
            expanded += r.bundle.expandedBytes;
            if (expanded > maxExpandedBytes)
                return makeError(QStringLiteral("the bundles expand to more than %1 together (reached at "
                                                "%2); nothing was imported: import the folder in parts")
                                     .arg(maxExpandedBytes % (1ll << 30) == 0
                                              ? QStringLiteral("%1 GiB").arg(maxExpandedBytes >> 30)
                                              : QStringLiteral("%1 MiB").arg(maxExpandedBytes >> 20))
                                     .arg(r.source),
                                 dir);
        }
        // The pointer that pins a layout (if imported) names the signer to expect.
        for (BundleRead& r : reads) {
            if (!r.error.isEmpty() || r.bundle.ociManifestDigest.isEmpty())
                continue;
            pq.addBindValue(r.bundle.ociManifestDigest);
            if (pq.exec() && pq.next())
                r.pointer = evidence::parsePointer(pq.value(0).toByteArray(), pq.value(1).toString());
            pq.finish();
        }
        onPool([&](BundleRead& r) {
            if (r.error.isEmpty())
                r.check = evidence::checkBundle(r.bundle, r.pointer ? &*r.pointer : nullptr, &signature);
        });
        for (const BundleRead& r : reads) {
            if (Status st = writeBundleRow(q, r, now); !st)
                return st.error();
            if (r.check.signature)
                if (Status st = recordBundleSignature(m_db, r); !st)
                    return st.error();
            report.sources << r.source;
            report.invalid += !r.error.isEmpty() || r.check.exitCode == 2 ? 1 : 0;
            report.incomplete += r.error.isEmpty() && r.check.exitCode == 3 ? 1 : 0;
        }
    }
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the bundle import: %1").arg(db.lastError().text()),
                         m_db.path());
    return report;
}

namespace {

// The catalog's recipe digest under a predicate's rules: v3 drops metadata.version; v1/v2 keep
// it, so the bundle's own version is stamped into the stored (version-less) canonical bytes.
QString currentDigestFor(const QByteArray& canonicalYaml, const QString& predicateType,
                         const QString& version) {
    const evidence::PredicateVersion pv = evidence::predicateVersionOf(predicateType);
    if (pv == evidence::PredicateVersion::V3) {
        Result<QString> d = catalog::evidenceRecipeDigest(canonicalYaml, QStringLiteral("recipe.yaml"),
                                                          catalog::PredicateVersion::V3);
        return d ? *d : QString();
    }
    Result<yaml::Node> doc = yaml::parse(canonicalYaml, QStringLiteral("recipe.yaml"));
    if (!doc)
        return {};
    if (!version.isEmpty()) {
        yaml::Node* meta = doc->get("metadata");
        if (!meta) {
            doc->set("metadata", yaml::Node::map());
            meta = doc->get("metadata");
        }
        meta->set("version", yaml::Node::str(version.toStdString()));
    }
    const QByteArray bytes = yaml::goEncode(*doc, yaml::GoEncodeOptions{2, true, yaml::StyleMode::GoValues});
    Result<QString> d = catalog::evidenceRecipeDigest(
        bytes, QStringLiteral("recipe.yaml"),
        pv == evidence::PredicateVersion::V2 ? catalog::PredicateVersion::V2 : catalog::PredicateVersion::V1);
    return d ? *d : QString();
}

} // namespace

Result<std::vector<BundleRecord>> EvidenceStore::bundlesFor(const QString& recipe,
                                                            const QString& alsoNamed) const {
    QSqlQuery q(m_db.sql());
    // Equal times in the order SQLite reads them (through the recipe index: by name, then by row id).
    q.prepare(QStringLiteral(
        "SELECT source, oci_digest, recipe, predicate_type, attested_at, aicr_version, recipe_digest, "
        "signed, check_exit, check_steps, phases, ctrf_tests, signature_verified, signature_detail FROM "
        "evidence_bundles WHERE recipe = ? "
        "OR recipe = ? ORDER BY attested_at DESC NULLS LAST, recipe, id"));
    q.addBindValue(recipe);
    q.addBindValue(alsoNamed.isEmpty() ? recipe : alsoNamed);
    if (!q.exec())
        return sqlError(q, QStringLiteral("evidence_bundles"));
    std::vector<BundleRecord> out;
    while (q.next()) {
        BundleRecord b;
        b.source = q.value(0).toString();
        b.ociDigest = q.value(1).toString();
        b.recipe = q.value(2).toString();
        b.predicateType = q.value(3).toString();
        b.attestedAt = q.value(4).toString();
        b.aicrVersion = q.value(5).toString();
        b.recipeDigest = q.value(6).toString();
        b.signedBundle = q.value(7).toInt() != 0;
        b.checkExit = q.value(8).toInt();
        if (!q.value(12).isNull())
            b.signatureVerified = q.value(12).toInt() == 1;
        b.signatureDetail = q.value(13).toString();
        for (const QJsonValue& v : QJsonDocument::fromJson(q.value(9).toString().toUtf8()).array()) {
            const QJsonObject s = v.toObject();
            const QString st = s.value(QStringLiteral("status")).toString();
            b.steps.push_back(evidence::CheckStep{s.value(QStringLiteral("step")).toString(),
                                                  st == QLatin1String("passed") ? evidence::StepStatus::Passed
                                                  : st == QLatin1String("failed")
                                                      ? evidence::StepStatus::Failed
                                                      : evidence::StepStatus::Skipped,
                                                  s.value(QStringLiteral("detail")).toString()});
        }
        const QJsonObject phases = QJsonDocument::fromJson(q.value(10).toString().toUtf8()).object();
        for (auto it = phases.begin(); it != phases.end(); ++it) {
            const QJsonObject s = it.value().toObject();
            evidence::PhaseSummary ps;
            ps.passed = s.value(QStringLiteral("passed")).toInt();
            ps.failed = s.value(QStringLiteral("failed")).toInt();
            ps.skipped = s.value(QStringLiteral("skipped")).toInt();
            b.phases.insert(it.key(), ps);
        }
        const QJsonObject tests = QJsonDocument::fromJson(q.value(11).toString().toUtf8()).object();
        for (auto it = tests.begin(); it != tests.end(); ++it)
            for (const QJsonValue& v : it.value().toArray()) {
                const QJsonObject t = v.toObject();
                evidence::CtrfTest ct;
                ct.name = t.value(QStringLiteral("name")).toString();
                ct.status = t.value(QStringLiteral("status")).toString();
                ct.durationMs = t.value(QStringLiteral("duration")).toDouble();
                ct.message = t.value(QStringLiteral("message")).toString();
                b.tests[it.key()].push_back(ct);
            }
        out.push_back(std::move(b));
    }
    return out;
}

int EvidenceStore::pointerCount() const {
    QSqlQuery q(m_db.sql());
    return q.exec(QStringLiteral("SELECT count(*) FROM evidence_pointers")) && q.next() ? q.value(0).toInt()
                                                                                        : 0;
}

Result<std::vector<Pointer>> EvidenceStore::pointersFor(const QString& recipe) const {
    QSqlQuery q(m_db.sql());
    q.prepare(
        QStringLiteral("SELECT path, content, signer_class, valid, problems FROM evidence_pointers WHERE "
                       "recipe = ? ORDER BY path"));
    q.addBindValue(recipe);
    if (!q.exec())
        return sqlError(q, QStringLiteral("evidence_pointers"));
    std::vector<Pointer> out;
    while (q.next()) {
        Pointer p = evidence::parsePointer(q.value(1).toByteArray(), q.value(0).toString());
        p.problems.clear();
        for (const QJsonValue& v : QJsonDocument::fromJson(q.value(4).toString().toUtf8()).array())
            p.problems << v.toString();
        const QString cls = q.value(2).toString();
        for (SignerClass c :
             {SignerClass::FirstParty, SignerClass::Community, SignerClass::Partner, SignerClass::Reported})
            if (!cls.isEmpty() && evidence::signerClassName(c) == cls)
                p.signerClass = c;
        out.push_back(std::move(p));
    }
    return out;
}

namespace {

// The connection's own sqlite3 handle: the health table reads its two large SELECTs through the C
// API, in UTF-8 and straight into the rows, instead of a UTF-16 QVariant per cell (the Qt driver's
// conversion was two thirds of the health query at 10,000 coordinates).
sqlite3* sqliteHandle(const QSqlDatabase& db) {
    const QVariant v = db.driver() ? db.driver()->handle() : QVariant();
    if (!v.isValid() || qstrcmp(v.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3* const*>(v.constData());
}

// A prepared statement, finalized on every way out.
class Statement {
  public:
    Statement(sqlite3* db, const char* sql) : m_db(db) {
        m_rc = sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr);
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool prepared() const { return m_rc == SQLITE_OK; }
    bool bind(int i, qint64 v) { return (m_rc = sqlite3_bind_int64(m_stmt, i, v)) == SQLITE_OK; }
    // True on a row; false at the end or on an error (then failed() says so).
    bool next() {
        m_rc = sqlite3_step(m_stmt);
        return m_rc == SQLITE_ROW;
    }
    bool failed() const { return m_rc != SQLITE_OK && m_rc != SQLITE_ROW && m_rc != SQLITE_DONE; }
    Error error(const QString& what) const {
        return makeError(QStringLiteral("%1: %2").arg(what, QString::fromUtf8(sqlite3_errmsg(m_db))));
    }

    // The UTF-8 bytes of a column; a null view for SQL NULL.
    QByteArrayView bytes(int i) const {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, i));
        return p ? QByteArrayView(p, sqlite3_column_bytes(m_stmt, i)) : QByteArrayView();
    }
    // As QSqlQuery::value(i).toString() gives it: null for SQL NULL, else the text.
    QString text(int i) const { return textOf(bytes(i)); }
    int integer(int i) const { return sqlite3_column_int(m_stmt, i); }
    qint64 integer64(int i) const { return sqlite3_column_int64(m_stmt, i); }

    static QString textOf(QByteArrayView b) {
        if (b.isNull())
            return {};
        return b.isEmpty() ? QString(QLatin1String("")) : QString::fromUtf8(b);
    }

  private:
    sqlite3* m_db;
    sqlite3_stmt* m_stmt = nullptr;
    int m_rc = SQLITE_OK;
};

// Where the health table's two large SELECTs read their rows: the connection's sqlite3 handle, or
// libpq's on PostgreSQL (db::pg::Rows). The same SQL and the same reading code for both.
struct SqliteSource {
    sqlite3* handle;
    Statement open(const char* sql) const { return Statement(handle, sql); }
};
struct PgSource {
    QSqlDatabase& db;
    db::pg::Rows open(const char* sql) const { return db::pg::Rows(db, sql); }
};

// The catalog's rows are read through the (version, name, profile) index, each followed into the
// table: when names do not follow the table's order, SQLite's default 2 MB page cache evicts a table
// page before its next row is read (10,000 coordinates: some 10,600 page reads for 1,000 pages).
// For the length of the read, the connection's page cache is large enough to keep them; it is put
// back as it was afterwards (the pages it held beyond that are freed).
class PageCacheAtLeast {
  public:
    PageCacheAtLeast(sqlite3* db, int kib) : m_db(db) {
        sqlite3_stmt* q = nullptr;
        if (sqlite3_prepare_v2(db, "PRAGMA cache_size", -1, &q, nullptr) == SQLITE_OK &&
            sqlite3_step(q) == SQLITE_ROW)
            m_old = sqlite3_column_int(q, 0);
        sqlite3_finalize(q);
        // Negative: KiB; positive: pages (of the database's page size).
        const qint64 oldKib = m_old < 0 ? -qint64(m_old) : qint64(m_old) * pageSize() / 1024;
        if (m_old != 0 && oldKib < kib)
            m_raised = exec(QByteArray("PRAGMA cache_size = -") + QByteArray::number(kib));
    }
    ~PageCacheAtLeast() {
        if (m_raised)
            exec("PRAGMA cache_size = " + QByteArray::number(m_old));
    }
    PageCacheAtLeast(const PageCacheAtLeast&) = delete;
    PageCacheAtLeast& operator=(const PageCacheAtLeast&) = delete;

  private:
    bool exec(const QByteArray& sql) {
        return sqlite3_exec(m_db, sql.constData(), nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    qint64 pageSize() const {
        sqlite3_stmt* q = nullptr;
        qint64 size = 4096;
        if (sqlite3_prepare_v2(m_db, "PRAGMA page_size", -1, &q, nullptr) == SQLITE_OK &&
            sqlite3_step(q) == SQLITE_ROW)
            size = sqlite3_column_int64(q, 0);
        sqlite3_finalize(q);
        return size;
    }

    sqlite3* m_db;
    int m_old = 0;
    bool m_raised = false;
};

// Criteria values, the catalog label and predicate types repeat on every row: one shared QString
// per distinct value instead of an allocation per cell.
class Interned {
  public:
    QString get(QByteArrayView b) {
        if (b.isNull())
            return {};
        for (const auto& [bytes, str] : m_seen)
            if (bytes.size() == b.size() &&
                std::memcmp(bytes.data(), b.data(), static_cast<size_t>(b.size())) == 0)
                return str;
        QString s = Statement::textOf(b);
        if (m_seen.size() < 64)
            m_seen.emplace_back(QByteArray(b.data(), b.size()), s);
        return s;
    }

  private:
    std::vector<std::pair<QByteArray, QString>> m_seen;
};

// parseUtc() on the UTF-8 bytes: the common "2026-07-20T22:33:47Z" without a QString on the way.
// `utc` is QTimeZone::utc(), made once by the caller.
QDateTime parseUtc(QByteArrayView b, const QTimeZone& utc) {
    if (b.size() == 20) {
        bool ascii = true;
        for (char ch : b)
            ascii &= static_cast<unsigned char>(ch) < 0x80;
        if (ascii) {
            auto num = [&](int from, int len) {
                int v = 0;
                for (int i = from; i < from + len; ++i) {
                    const char ch = b[i];
                    if (ch < '0' || ch > '9')
                        return -1;
                    v = v * 10 + (ch - '0');
                }
                return v;
            };
            if (b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' && b[16] == ':' && b[19] == 'Z') {
                const QDate d(num(0, 4), num(5, 2), num(8, 2));
                const QTime t(num(11, 2), num(14, 2), num(17, 2));
                if (d.isValid() && t.isValid())
                    return QDateTime(d, t, utc);
            }
        }
    }
    return parseUtc(Statement::textOf(b));
}

// One reason text per distinct count, shared by the rows that have it.
class Reasons {
  public:
    // `one` for a count of 1, `many` otherwise; %1 is the count.
    const QString& get(int key, const QString& one, const QString& many) {
        auto it = m_byKey.find(key);
        if (it == m_byKey.end())
            it = m_byKey.emplace(key, (key == 1 ? one : many).arg(key)).first;
        return it->second;
    }

  private:
    std::map<int, QString> m_byKey;
};

// The health table as it is built: rows in the order they are found (the catalog's, then evidence
// for other coordinates), by name; the first row of a name wins, as does the first leaf overlay.
struct HealthTable {
    std::vector<HealthRow> rows;
    QHash<QString, size_t> byName;
    QHash<QString, QString> byLeaf;        // leaf overlay -> recipe name, where they differ
    std::map<size_t, QString> renamedFrom; // row -> the older name its evidence used
    std::map<size_t, QString> outside;     // row -> why its evidence names no recipe of this version
};

// Room for every row up front: growing a vector of 10,000 rows copies them and touches fresh
// memory at each step, and page faults cost more than the count.
template <class Source>
void reserveHealthRows(const Source& source, qint64 catalogVersionId, HealthTable& t) {
    auto c = source.open("SELECT (SELECT count(*) FROM recipes WHERE catalog_version_id = ?), "
                         "(SELECT count(*) FROM evidence_summary)");
    if (c.prepared() && c.bind(1, catalogVersionId) && c.next()) {
        const qint64 most = c.integer64(0) + c.integer64(1);
        t.rows.reserve(static_cast<size_t>(most));
        t.byName.reserve(most);
    }
}

// One row per recipe of the catalog version, with its criteria, before any evidence is looked at.
// By name, then profile (SQLite reads them so through its (version, name, profile) index anyway):
// the first row of a name is the name's row.
template <class Source>
Status readCatalogRecipes(const Source& source, qint64 catalogVersionId, HealthTable& t) {
    auto q =
        source.open("SELECT r.name, r.service, r.accelerator, r.os, r.intent, r.platform, v.label, "
                    "r.leaf_overlay FROM recipes r "
                    "JOIN catalog_versions v ON v.id = r.catalog_version_id WHERE r.catalog_version_id = ? "
                    "ORDER BY r.name, r.profile");
    if (!q.prepared() || !q.bind(1, catalogVersionId))
        return q.error(QStringLiteral("recipes"));
    Interned service, accelerator, os, intent, platform, label;
    while (q.next()) {
        HealthRow row;
        const QByteArrayView name = q.bytes(0);
        row.recipe = Statement::textOf(name);
        row.criteria.service = service.get(q.bytes(1));
        row.criteria.accelerator = accelerator.get(q.bytes(2));
        row.criteria.os = os.get(q.bytes(3));
        row.criteria.intent = intent.get(q.bytes(4));
        row.criteria.platform = platform.get(q.bytes(5));
        row.catalogLabel = label.get(q.bytes(6));
        row.reason = QStringLiteral("no pointer names this recipe");
        // A leaf overlay named otherwise than its recipe, e.g. a profiled recipe named after its
        // leaf plus the profile (same bytes, same name: only a leaf that differs needs a string).
        if (const QByteArrayView leafBytes = q.bytes(7); leafBytes != name) {
            if (const QString leaf = Statement::textOf(leafBytes); leaf != row.recipe) {
                row.leafOverlay = leaf; // shown instead of a generic name such as "recipe"
                if (!t.byLeaf.contains(leaf))
                    t.byLeaf.insert(leaf, row.recipe);
            }
        }
        if (!t.byName.contains(row.recipe)) {
            t.byName.insert(row.recipe, t.rows.size());
            t.rows.push_back(std::move(row));
        }
    }
    if (q.failed())
        return q.error(QStringLiteral("recipes"));
    return {};
}

// The row evidence recorded under `recipe` belongs to: the recipe's own, the recipe of the same
// leaf overlay when the coordinate's name changed since (a profile was added; flagged as recorded
// under the old name), or a new row for a coordinate this catalog version does not have.
// Evidence under the coordinate's own name is placed first (readEvidenceSummary), so a row that has
// its own is never given an older name's as well: the older name's pointers then keep a row of
// their own, and the row's counts, newest time and listed pointers stay one set of pointers.
size_t rowForEvidence(HealthTable& t, const QString& recipe) {
    auto found = t.byName.constFind(recipe);
    if (found != t.byName.cend())
        return *found;
    QString reason = QStringLiteral("not a recipe of this catalog version");
    if (const auto leaf = t.byLeaf.constFind(recipe); leaf != t.byLeaf.cend()) {
        if (const auto target = t.byName.constFind(*leaf); target != t.byName.cend()) {
            if (t.rows[*target].pointers == 0) {
                t.renamedFrom[*target] = recipe;
                t.rows[*target].evidenceName = recipe; // its pointers are read under this name
                return *target;
            }
            reason = QStringLiteral("not a recipe of this catalog version: the leaf '%1' now resolves to "
                                    "'%2', which has evidence of its own")
                         .arg(recipe, *leaf);
        }
    }
    HealthRow orphan; // evidence for a coordinate this catalog version does not have
    orphan.recipe = recipe;
    orphan.reason = reason;
    t.outside[t.rows.size()] = reason;
    t.byName.insert(recipe, t.rows.size());
    t.rows.push_back(std::move(orphan));
    return t.rows.size() - 1;
}

// Pointer counts per recipe, kept by every import (evidence_summary), by recipe name (SQLite's table
// order as well, since the import writes the rows grouped by recipe). A name this catalog version
// has goes to its row at once; the others after, so that an older name's evidence goes to the leaf's
// row only when that row has none of its own (rowForEvidence).
template <class Source> Status readEvidenceSummary(const Source& source, HealthTable& t) {
    auto q = source.open("SELECT recipe, pointers, invalid, pending, first_party, community, partner, "
                         "reported, newest_attested_at, newest_predicate_type FROM evidence_summary "
                         "ORDER BY recipe");
    if (!q.prepared())
        return q.error(QStringLiteral("evidence_summary"));
    Interned predicateTypes;
    const QTimeZone utc = QTimeZone::utc();
    QByteArray lastNewest; // recipes attested in one run share the time: parsed once
    QDateTime lastParsed;
    // Two passes: names of this version's recipes first, then the rest (older names, other
    // coordinates); see rowForEvidence.
    struct Counts {
        QString recipe;
        int pointers, invalid, pending, firstParty, community, partner, reported;
        QDateTime newest;
        QString predicateType;
    };
    std::vector<Counts> later;
    auto apply = [](HealthRow& row, const Counts& c) {
        row.pointers = c.pointers;
        row.invalid = c.invalid;
        row.pending = c.pending;
        row.firstParty = c.firstParty;
        row.community = c.community;
        row.partner = c.partner;
        row.reported = c.reported;
        row.newestAttestedAt = c.newest;
        row.newestPredicateType = c.predicateType;
    };
    while (q.next()) {
        const QString name = q.text(0);
        if (!t.byName.contains(name)) {
            QDateTime newest;
            if (const QByteArrayView n = q.bytes(8); !n.isEmpty())
                newest = parseUtc(n, utc);
            later.push_back(Counts{name, q.integer(1), q.integer(2), q.integer(3), q.integer(4), q.integer(5),
                                   q.integer(6), q.integer(7), newest, predicateTypes.get(q.bytes(9))});
            continue;
        }
        HealthRow& row = t.rows[rowForEvidence(t, name)];
        row.pointers = q.integer(1);
        row.invalid = q.integer(2);
        row.pending = q.integer(3);
        row.firstParty = q.integer(4);
        row.community = q.integer(5);
        row.partner = q.integer(6);
        row.reported = q.integer(7);
        if (const QByteArrayView newest = q.bytes(8); !newest.isEmpty()) {
            if (newest != QByteArrayView(lastNewest)) {
                lastNewest.resize(newest.size());
                std::memcpy(lastNewest.data(), newest.data(), static_cast<size_t>(newest.size()));
                lastParsed = parseUtc(newest, utc);
            }
            row.newestAttestedAt = lastParsed;
        }
        row.newestPredicateType = predicateTypes.get(q.bytes(9));
    }
    if (q.failed())
        return q.error(QStringLiteral("evidence_summary"));
    for (const Counts& c : later)
        apply(t.rows[rowForEvidence(t, c.recipe)], c);
    return {};
}

// The fields of a recipe's newest valid bundle.
struct NewestBundle {
    QString predicateType, aicrVersion, recipeDigest, recipeVersion, phases, signatureDetail;
    int checkExit = 0;
    bool signatureVerified = false;
};

// "deployment 3/4, performance 1/1": passed of run, per phase the bundle records.
QString phaseCoverage(const QString& phasesJson) {
    QStringList coverage;
    const QJsonObject phases = QJsonDocument::fromJson(phasesJson.toUtf8()).object();
    for (const char* ph : {"deployment", "performance", "conformance"}) {
        const QJsonObject s = phases.value(QLatin1String(ph)).toObject();
        if (s.isEmpty())
            continue;
        const int passed = s.value(QStringLiteral("passed")).toInt(),
                  failed = s.value(QStringLiteral("failed")).toInt();
        coverage << QStringLiteral("%1 %2/%3").arg(QLatin1String(ph)).arg(passed).arg(passed + failed);
    }
    return coverage.join(QStringLiteral(", "));
}

// What the newest bundle says of a row: AICR version, phases, digests (stale when the catalog's
// recipe changed since), verdict and signature.
void applyNewestBundle(HealthRow& row, const NewestBundle& b,
                       const std::map<QString, QByteArray>& canonical) {
    row.aicrVersion = b.aicrVersion;
    row.devBuild = row.aicrVersion == QLatin1String("dev") ||
                   row.aicrVersion.contains(QLatin1String("-dev")) ||
                   row.aicrVersion.contains(QLatin1String("-next"));
    row.phaseCoverage = phaseCoverage(b.phases);
    row.bundleDigest = b.recipeDigest;
    if (const auto c = canonical.find(row.recipe); c != canonical.end()) {
        row.currentDigest = currentDigestFor(c->second, b.predicateType, b.recipeVersion);
        row.stale = !row.currentDigest.isEmpty() && row.bundleDigest != row.currentDigest;
    }
    row.failedPhases = b.checkExit == 1;
    row.incomplete = b.checkExit == 3;
    row.signatureVerified = b.signatureVerified;
    row.verifiedSigner = row.signatureVerified ? b.signatureDetail : QString();
}

// Bundles: the newest per recipe gives phases, aicrVersion and the recorded recipe digest. Every
// valid bundle overwrites what the one before it gave (they come oldest first): only the last
// one's fields are kept, and its digest computed (a YAML round trip) once per recipe.
Status readBundles(QSqlDatabase& db, qint64 catalogVersionId, HealthTable& t) {
    std::map<QString, QByteArray> canonical; // only for recipes that have bundles
    {
        QSqlQuery cq(db);
        cq.prepare(QStringLiteral(
            "SELECT name, canonical_yaml FROM recipes WHERE catalog_version_id = ? AND name IN "
            "(SELECT recipe FROM evidence_bundles)"));
        cq.addBindValue(catalogVersionId);
        if (!cq.exec())
            return sqlError(cq, QStringLiteral("recipes"));
        while (cq.next())
            canonical[cq.value(0).toString()] = cq.value(1).toByteArray();
    }
    std::map<size_t, NewestBundle> newest;
    QSqlQuery bq(db);
    // Bundles with no time first, and equal times in the order they were imported.
    if (!bq.exec(QStringLiteral(
            "SELECT recipe, predicate_type, attested_at, aicr_version, recipe_digest, recipe_version, "
            "phases, check_exit, signature_verified, signature_detail FROM evidence_bundles WHERE recipe IS "
            "NOT NULL ORDER BY attested_at NULLS FIRST, id")))
        return sqlError(bq, QStringLiteral("evidence_bundles"));
    while (bq.next()) {
        const auto it = t.byName.constFind(bq.value(0).toString());
        if (it == t.byName.cend())
            continue;
        HealthRow& row = t.rows[*it];
        ++row.bundles;
        if (bq.value(7).toInt() == 2) {
            ++row.invalidBundles;
            continue;
        }
        newest[*it] = NewestBundle{bq.value(1).toString(), bq.value(3).toString(),  bq.value(4).toString(),
                                   bq.value(5).toString(), bq.value(6).toString(),  bq.value(9).toString(),
                                   bq.value(7).toInt(),    bq.value(8).toInt() == 1};
    }
    for (const auto& [at, b] : newest)
        applyNewestBundle(t.rows[at], b, canonical);
    return {};
}

// The reason texts repeat by count: one string per distinct count, shared by the rows.
struct HealthReasons {
    Reasons signedWithBundle, signedWithoutBundle, invalidOnly;
};

// A row's status from its pointers and its newest bundle, before the overrides of judgeRow.
void statusFromEvidence(HealthRow& row, HealthReasons& reasons) {
    const int signedValid = row.firstParty + row.community + row.partner + row.reported;
    if (row.signatureVerified) {
        row.status = row.incomplete     ? HealthStatus::VerifiedIncomplete
                     : row.failedPhases ? HealthStatus::VerifiedFailedPhases
                                        : HealthStatus::Verified;
        row.reason = QStringLiteral("signature verified offline: %1").arg(row.verifiedSigner);
        if (row.incomplete)
            row.reason += QStringLiteral("; the bundle is incomplete: some checks could not run or finish");
        else if (row.failedPhases)
            row.reason += QStringLiteral("; the bundle records failed phases");
    } else if (signedValid > 0) {
        row.status = HealthStatus::Signed;
        row.reason =
            row.bundles > 0
                ? reasons.signedWithBundle.get(
                      signedValid,
                      QStringLiteral("%1 signed pointer; no bundle signature verified (no trusted root, or "
                                     "the bundle is unsigned)"),
                      QStringLiteral("%1 signed pointers; no bundle signature verified (no trusted root, or "
                                     "the bundle is unsigned)"))
                : reasons.signedWithoutBundle.get(
                      signedValid,
                      QStringLiteral("%1 signed pointer; bundle not imported, signature not checked"),
                      QStringLiteral("%1 signed pointers; bundle not imported, signature not checked"));
    } else if (row.pending > 0) {
        row.status = HealthStatus::Pending;
        row.reason = QStringLiteral("only unsigned (pending) pointers");
    } else if (row.invalid > 0) {
        row.status = HealthStatus::Invalid;
        row.reason = reasons.invalidOnly.get(row.invalid, QStringLiteral("%1 pointer, not valid"),
                                             QStringLiteral("%1 pointers, none valid"));
    }
}

// The row's status and reason: from its evidence, then evidence under an older name, bundles that
// all fail, a stale digest and failed phases override it.
void judgeRow(HealthRow& row, const QString* renamedFrom, HealthReasons& reasons) {
    statusFromEvidence(row, reasons);
    if (renamedFrom && row.status != HealthStatus::NoEvidence && row.status != HealthStatus::Invalid) {
        row.status = HealthStatus::Stale;
        row.stale = true;
        row.reason =
            QStringLiteral("evidence names '%1'; the catalog now resolves this leaf to '%2' (its recipe "
                           "changed since)")
                .arg(*renamedFrom, row.recipe);
    } else if (row.bundles > 0 && row.invalidBundles == row.bundles) {
        row.status = HealthStatus::Invalid;
        row.reason = QStringLiteral("every bundle fails its integrity checks");
    } else if (row.stale && row.status != HealthStatus::NoEvidence) {
        row.status = HealthStatus::Stale;
        row.reason =
            QStringLiteral("the evidence was recorded for recipe digest %1…, the catalog's is now %2…")
                .arg(row.bundleDigest.left(12), row.currentDigest.left(12));
    } else if (row.failedPhases && row.status == HealthStatus::Signed) {
        row.reason += QStringLiteral("; the bundle records failed phases");
    }
}

// By name (QString order; names are unique), in place. The catalog's rows come sorted by the
// index they are read through, as a rule; evidence for other coordinates is merged in.
void sortByRecipe(std::vector<HealthRow>& rows, size_t catalogRows) {
    const auto byRecipe = [](const HealthRow& a, const HealthRow& b) { return a.recipe < b.recipe; };
    const auto split = rows.begin() + static_cast<std::ptrdiff_t>(catalogRows);
    if (!std::is_sorted(rows.begin(), split, byRecipe))
        std::sort(rows.begin(), split, byRecipe);
    if (split != rows.end()) {
        std::sort(split, rows.end(), byRecipe);
        std::inplace_merge(rows.begin(), split, rows.end(), byRecipe);
    }
}

// The health table with its rows read from `source` (SqliteSource or PgSource).
template <class Source>
Result<std::vector<HealthRow>> buildHealth(const Source& source, QSqlDatabase& db, qint64 catalogVersionId) {
    HealthTable t;
    reserveHealthRows(source, catalogVersionId, t);
    if (Status st = readCatalogRecipes(source, catalogVersionId, t); !st)
        return st.error();
    const size_t catalogRows = t.rows.size();
    if (Status st = readEvidenceSummary(source, t); !st)
        return st.error();
    if (Status st = readBundles(db, catalogVersionId, t); !st)
        return st.error();
    HealthReasons reasons;
    for (size_t at = 0; at < t.rows.size(); ++at) {
        const auto renamed = t.renamedFrom.find(at);
        judgeRow(t.rows[at], renamed == t.renamedFrom.end() ? nullptr : &renamed->second, reasons);
        // The status says what the evidence is; the reason first says where it stands.
        if (const auto out = t.outside.find(at); out != t.outside.end() && t.rows[at].reason != out->second)
            t.rows[at].reason = out->second + QStringLiteral("; ") + t.rows[at].reason;
    }
    sortByRecipe(t.rows, catalogRows);
    return std::move(t.rows);
}

} // namespace

Result<std::vector<HealthRow>> EvidenceStore::health(qint64 catalogVersionId) const {
    QSqlDatabase& db = m_db.sql();
    if (db::engineOf(db) == db::Engine::PostgreSQL)
        return buildHealth(PgSource{db}, db, catalogVersionId);
    sqlite3* handle = sqliteHandle(db);
    if (!handle)
        return makeError(QStringLiteral("health table: the database connection is not SQLite"), m_db.path());
    const PageCacheAtLeast cache(handle, 64 * 1024);
    return buildHealth(SqliteSource{handle}, db, catalogVersionId);
}

} // namespace pb::store
