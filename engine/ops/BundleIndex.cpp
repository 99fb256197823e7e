#include "ops/BundleIndex.h"

#include "db/Database.h"
#include "db/Dialect.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

#include <set>

namespace pb::ops {

namespace {

// The newest bundle.generate receipt whose output is this tree digest: its recorded inputs.
Result<std::pair<qint64, QJsonObject>> generationInputs(db::Database& db, const QString& treeDigest) {
    QSqlQuery q(db.sql());
    q.prepare(QStringLiteral("SELECT seq, parameters, inputs, outputs FROM receipts WHERE kind = "
                             "'bundle.generate' AND result = 'ok' AND %1 > 0 ORDER BY seq DESC LIMIT 1")
                  .arg(db::Dialect(db.sql()).position(QStringLiteral("outputs"), QStringLiteral("?"))));
    q.addBindValue(treeDigest);
    if (!q.exec())
        return db::sqlError(q, QStringLiteral("receipts"));
    if (!q.next())
        return std::pair<qint64, QJsonObject>{0, QJsonObject()};
    const QJsonObject params = QJsonDocument::fromJson(q.value(1).toByteArray()).object();
    const QJsonArray inputs = QJsonDocument::fromJson(q.value(2).toByteArray()).array();
    QJsonObject source;
    source.insert(QStringLiteral("generateReceipt"), q.value(0).toLongLong());
    QJsonArray in;
    for (const QJsonValue& v : inputs) {
        const QJsonObject a = v.toObject();
        // Names are paths on this machine; the digests identify the inputs.
        in.append(QJsonObject{{QStringLiteral("sha256"), a.value(QStringLiteral("sha256"))},
                              {QStringLiteral("role"),
                               a.value(QStringLiteral("name")).toString().startsWith(QLatin1String("recipe "))
                                   ? QStringLiteral("recipe")
                                   : QStringLiteral("catalog")}});
    }
    source.insert(QStringLiteral("inputs"), in);
    QJsonObject options;
    for (const QString& k :
         {QStringLiteral("deployer"), QStringLiteral("sets"), QStringLiteral("acceleratedNodeSelector"),
          QStringLiteral("acceleratedNodeTolerations"), QStringLiteral("workloadSelector"),
          QStringLiteral("storageClass"), QStringLiteral("estimatedNodeCount"), QStringLiteral("repoUrl")})
        if (params.contains(k))
            options.insert(k, params.value(k));
    source.insert(QStringLiteral("options"), options);
    return std::pair<qint64, QJsonObject>{q.value(0).toLongLong(), source};
}

} // namespace

Result<BundleIndexOutcome> bundleIndex(const Context& ctx, const BundleIndexRequest& request) {
    if (request.dir.isEmpty())
        return makeError(QStringLiteral("no bundle directory given"));
    const QString dir = QFileInfo(request.dir).absoluteFilePath();
    ctx.progress(0, 0, QStringLiteral("Reading the bundle"));
    Result<QString> tree = bundle::treeDigestOnDisk(dir, request.limits);
    if (!tree)
        return tree.error();
    Result<std::pair<qint64, QJsonObject>> gen = generationInputs(ctx.db(), *tree);
    if (!gen)
        return gen.error();
    auto progress = [&ctx](int done, int total, const QString& what) {
        ctx.progress(done, total, QStringLiteral("Indexing %1 (%2 of %3)").arg(what).arg(done).arg(total));
    };
    Result<bundle::DigestIndex> index =
        bundle::buildIndex(dir, gen->second, request.limits, progress, ctx.cancelFlag());
    if (!index)
        return index.error();
    if (ctx.cancelled())
        return makeError(QStringLiteral("cancelled"));

    BundleIndexOutcome out;
    out.dir = dir;
    out.platformDigest = index->platformDigest;
    out.treeDigest = index->treeDigest;
    out.deployer = index->deployer;
    out.members = index->members;
    out.bundleFiles = index->bundleFiles;
    out.generateReceipt = gen->first;

    const QDir root(dir);
    StagedFiles files;
    std::set<QString> keep;
    for (const bundle::IndexFile& f : index->files) {
        const QString path = root.filePath(f.path);
        if (!QDir().mkpath(QFileInfo(path).path()))
            return makeError(QStringLiteral("cannot create the folder"), QFileInfo(path).path());
        if (Status s = files.stage(path, f.bytes); !s)
            return s.error();
        keep.insert(f.path);
        out.written << f.path;
    }
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("bundle.index");
    d.parameters = QJsonObject{{QStringLiteral("deployer"), out.deployer},
                               {QStringLiteral("members"), out.members},
                               {QStringLiteral("files"), out.bundleFiles},
                               {QStringLiteral("generateReceipt"), out.generateReceipt},
                               {QStringLiteral("platformDigest"), out.platformDigest}};
    d.inputs.push_back(receipts::Artifact::digest(dir, out.treeDigest));
    for (const receipts::Artifact& a : files.artifacts())
        if (a.name.endsWith(QLatin1String("platform-index.json")) ||
            QFileInfo(a.name).fileName() == QLatin1String("checksums.txt"))
            d.outputs.push_back(a);
    d.message = QStringLiteral("digest index of %1 objects in %2 files: platform digest %3")
                    .arg(out.members)
                    .arg(out.bundleFiles)
                    .arg(out.platformDigest);
    Result<receipts::Receipt> r = record(ctx, d, &files);
    if (!r)
        return r.error();
    out.receiptSeq = r->seq;
    // Payloads of an earlier index that this one does not have (their names carry their digest).
    QDirIterator it(root.filePath(QLatin1String(bundle::kIndexDir)), QDir::Files | QDir::Hidden,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString p = it.next();
        if (!keep.count(root.relativeFilePath(p)))
            QFile::remove(p);
    }
    return out;
}

} // namespace pb::ops
