// `bundle index`: a ConfigHub-style digest index for a bundle generated from the real 2026-08-19
// catalog, checked by the same readRecords that `records check` runs (and by the real CLI):
// accepted as written, deterministic, and a one-byte change anywhere (a bundle file, a payload, the
// index) is caught; a changed bundle re-indexed gives another platform digest. On both engines
// (DbFixture.h): the operations read and write receipts.
#include "DbFixture.h"
#include "bundle/Generate.h"
#include "bundle/Index.h"
#include "catalog/Loader.h"
#include "catalog/Resolver.h"
#include "db/Database.h"
#include "ops/BundleGenerate.h"
#include "ops/BundleIndex.h"
#include "receipts/Records.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace pb;

namespace {

QString catalogRoot() {
    return QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/2026-08-19/recipes");
}

std::unique_ptr<db::Database> openDb(const QString& spec) {
    auto db = db::Database::open(spec);
    if (!db)
        qFatal("%s", qPrintable(db.error().toString()));
    return std::move(*db);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void flipByte(const QString& path, qsizetype at) {
    QByteArray b = readAll(path);
    QVERIFY(at < b.size());
    b[at] = b[at] == 'a' ? 'b' : 'a';
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(b);
}

int failedChecks(const receipts::RecordsReport& r, const QString& check = {}) {
    int n = 0;
    for (const receipts::RecordCheck& c : r.checks)
        if (c.verdict == receipts::Verdict::Fail && (check.isEmpty() || c.check == check))
            ++n;
    return n;
}

} // namespace

class TestBundleIndex : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void indexAcceptedByRecordsCheck();
    void tamperIsCaught();
    void refusals();
    void cli();

  private:
    catalog::Catalog m_cat;
    catalog::RecipeResult m_recipe;
    QString m_leaf;
    bool m_have = false;
};

void TestBundleIndex::initTestCase() {
    if (!QDir(catalogRoot()).exists())
        return;
    Result<catalog::Catalog> cat = catalog::loadCatalog(catalogRoot());
    QVERIFY2(cat.ok(), cat.ok() ? "" : qPrintable(cat.error().toString()));
    m_cat = std::move(*cat);
    const QStringList leaves = m_cat.leafNames();
    m_leaf = leaves.contains(QStringLiteral("h100-eks-ubuntu-training"))
                 ? QStringLiteral("h100-eks-ubuntu-training")
                 : leaves.first();
    Result<catalog::RecipeResult> r = catalog::resolve(m_cat, catalog::leafCriteria(m_cat, m_leaf));
    QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().toString()));
    m_recipe = std::move(*r);
    m_have = true;
}

void TestBundleIndex::indexAcceptedByRecordsCheck() {
    if (!m_have)
        QSKIP("the 2026-08-19 catalog (../shared/data/aicr/catalogs) is not here");
    for (const bundle::Deployer d : {bundle::Deployer::Helm, bundle::Deployer::ArgoCD}) {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.db"));
        auto db = openDb(testDb.spec());
        ops::Context ctx(*db);
        const QString dir = tmp.filePath(QStringLiteral("bundle"));
        ops::BundleGenerateRequest g;
        g.catalog = &m_cat;
        g.recipe = m_recipe;
        g.recipeLabel = QStringLiteral("leaf ") + m_leaf;
        g.catalogLabel = catalogRoot();
        g.options.deployer = d;
        g.outDir = dir;
        Result<ops::BundleGenerateOutcome> gen = ops::bundleGenerate(ctx, g);
        QVERIFY2(gen.ok(), gen.ok() ? "" : qPrintable(gen.error().toString()));

        Result<ops::BundleIndexOutcome> idx = ops::bundleIndex(ctx, ops::BundleIndexRequest{dir, {}});
        QVERIFY2(idx.ok(), idx.ok() ? "" : qPrintable(idx.error().toString()));
        QCOMPARE(idx->treeDigest, gen->treeDigest);      // the tree on disk is the tree generated
        QCOMPARE(idx->generateReceipt, gen->receiptSeq); // inputs taken from the generate receipt
        QCOMPARE(idx->deployer, bundle::deployerName(d));
        QCOMPARE(idx->bundleFiles, static_cast<int>(gen->tree.files.size()));
        QVERIFY(idx->members >= idx->bundleFiles); // every file gives at least one object

        const QJsonObject index =
            QJsonDocument::fromJson(readAll(dir + QStringLiteral("/digest-index/platform-index.json")))
                .object();
        QCOMPARE(index.value(QStringLiteral("kind")).toString(), QStringLiteral("AICRPlatformDigestIndex"));
        const QJsonObject spec = index.value(QStringLiteral("spec")).toObject();
        QCOMPARE(spec.value(QStringLiteral("platformDigest")).toString(), idx->platformDigest);
        QCOMPARE(receipts::platformDigest(index), idx->platformDigest);
        QCOMPARE(static_cast<int>(spec.value(QStringLiteral("members")).toArray().size()), idx->members);
        QVERIFY(!spec.value(QStringLiteral("criteria")).toObject().isEmpty());
        const QJsonObject source = spec.value(QStringLiteral("source")).toObject();
        QCOMPARE(source.value(QStringLiteral("treeDigest")).toString(),
                 QStringLiteral("sha256:") + gen->treeDigest);
        QCOMPARE(source.value(QStringLiteral("inputs")).toArray().size(), 2); // catalog and recipe digests
        // The recipe is a member; argocd Applications carry their sync-wave.
        bool recipe = false, waved = false;
        for (const QJsonValue& m : spec.value(QStringLiteral("members")).toArray()) {
            recipe =
                recipe || m.toObject().value(QStringLiteral("role")).toString() == QLatin1String("recipe");
            waved = waved || m.toObject().value(QStringLiteral("syncWave")).isDouble();
        }
        QVERIFY(recipe);
        QCOMPARE(waved, d == bundle::Deployer::ArgoCD);

        Result<receipts::RecordsReport> rep = receipts::readRecords(dir);
        QVERIFY(rep.ok());
        for (const receipts::RecordCheck& c : rep->checks)
            if (c.verdict == receipts::Verdict::Fail)
                qWarning().noquote() << c.check << c.file << c.detail;
        QVERIFY(rep->problems.empty());
        QVERIFY(rep->ok());
        int platform = 0, payloads = 0, checksums = 0;
        for (const receipts::RecordCheck& c : rep->checks) {
            platform += c.check == QLatin1String("digest-index.platform-digest") &&
                        c.verdict == receipts::Verdict::Pass;
            payloads +=
                c.check == QLatin1String("digest-index.payload") && c.verdict == receipts::Verdict::Pass;
            checksums += c.check == QLatin1String("checksums") && c.verdict == receipts::Verdict::Pass;
        }
        QCOMPARE(platform, 1);
        QCOMPARE(payloads, idx->members);
        QCOMPARE(checksums, 2); // the bundle's and the index's

        // Deterministic: indexing again writes the same bytes and digest.
        const QByteArray before = readAll(dir + QStringLiteral("/checksums.txt"));
        Result<ops::BundleIndexOutcome> again = ops::bundleIndex(ctx, ops::BundleIndexRequest{dir, {}});
        QVERIFY(again.ok());
        QCOMPARE(again->platformDigest, idx->platformDigest);
        QCOMPARE(readAll(dir + QStringLiteral("/checksums.txt")), before);
    }
}

void TestBundleIndex::tamperIsCaught() {
    if (!m_have)
        QSKIP("the 2026-08-19 catalog (../shared/data/aicr/catalogs) is not here");
    QTemporaryDir tmp;
    PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.db"));
    auto db = openDb(testDb.spec());
    ops::Context ctx(*db);
    const QString dir = tmp.filePath(QStringLiteral("bundle"));
    bundle::GenerateOptions o;
    Result<bundle::BundleTree> tree = bundle::generate(m_cat, m_recipe, o, dir);
    QVERIFY(tree.ok());
    Result<ops::BundleIndexOutcome> idx = ops::bundleIndex(ctx, ops::BundleIndexRequest{dir, {}});
    QVERIFY(idx.ok());
    QCOMPARE(idx->generateReceipt, qint64(0)); // generated without the op: no receipt to take inputs from
    if (test::onPostgres())
        return; // what follows changes and reads files only: the SQLite half covers it

    // Every kind of file: one changed byte is a failed check, and re-indexing gives another digest.
    QStringList targets;
    for (const bundle::BundleFile& f : tree->files)
        if (f.path == QLatin1String("recipe.yaml") || f.path == QLatin1String("deploy.sh") ||
            f.path.endsWith(QLatin1String("/values.yaml")) || f.path.endsWith(QLatin1String("/upstream.env")))
            targets << f.path;
    QVERIFY(targets.size() >= 4);
    QSet<QString> digests{idx->platformDigest};
    for (const QString& t : targets.mid(0, 6)) {
        QTemporaryDir copy;
        QVERIFY(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-r"), dir, copy.path()}) == 0);
        const QString cdir = copy.filePath(QStringLiteral("bundle"));
        flipByte(cdir + QLatin1Char('/') + t, readAll(cdir + QLatin1Char('/') + t).size() / 2);
        Result<receipts::RecordsReport> rep = receipts::readRecords(cdir);
        QVERIFY(rep.ok());
        QVERIFY2(!rep->ok(), qPrintable(t));
        QVERIFY2(failedChecks(*rep, QStringLiteral("checksums")) >= 1, qPrintable(t));
        // buildIndex refuses a bundle that disagrees with its checksums.txt; without it, the digest moves.
        QVERIFY(!bundle::buildIndex(cdir).ok());
        QVERIFY(QFile::remove(cdir + QStringLiteral("/checksums.txt")));
        Result<bundle::DigestIndex> re = bundle::buildIndex(cdir);
        QVERIFY2(re.ok(), re.ok() ? "" : qPrintable(re.error().toString()));
        QVERIFY2(!digests.contains(re->platformDigest), qPrintable(t));
        digests.insert(re->platformDigest);
    }
    // A payload: its recorded sha256 no longer matches.
    {
        QTemporaryDir copy;
        QVERIFY(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-r"), dir, copy.path()}) == 0);
        const QString cdir = copy.filePath(QStringLiteral("bundle"));
        QDirIterator it(cdir + QStringLiteral("/digest-index/payloads"), QDir::Files);
        QVERIFY(it.hasNext());
        const QString p = it.next();
        flipByte(p, readAll(p).indexOf("sha256") + 10);
        Result<receipts::RecordsReport> rep = receipts::readRecords(cdir);
        QVERIFY(rep.ok());
        QVERIFY(failedChecks(*rep, QStringLiteral("digest-index.payload")) == 1);
    }
    // The index itself: a member's payloadSha256 changed moves the recomputed platform digest.
    {
        QTemporaryDir copy;
        QVERIFY(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-r"), dir, copy.path()}) == 0);
        const QString cdir = copy.filePath(QStringLiteral("bundle"));
        const QString p = cdir + QStringLiteral("/digest-index/platform-index.json");
        flipByte(p, readAll(p).indexOf("\"payloadSha256\"") + 20);
        Result<receipts::RecordsReport> rep = receipts::readRecords(cdir);
        QVERIFY(rep.ok());
        QVERIFY(failedChecks(*rep, QStringLiteral("digest-index.platform-digest")) == 1);
    }
}

void TestBundleIndex::refusals() {
    QTemporaryDir tmp;
    PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.db"));
    auto db = openDb(testDb.spec());
    ops::Context ctx(*db);
    const QString dir = tmp.filePath(QStringLiteral("b"));
    QVERIFY(QDir().mkpath(dir + QStringLiteral("/attestation")));
    QFile f(dir + QStringLiteral("/values.yaml"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("a: 1\n");
    f.close();
    // A symlink out of the bundle.
    QVERIFY(QFile::link(QStringLiteral("/etc/hostname"), dir + QStringLiteral("/link.yaml")));
    Result<ops::BundleIndexOutcome> r = ops::bundleIndex(ctx, ops::BundleIndexRequest{dir, {}});
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.contains(QLatin1String("symbolic link")), qPrintable(r.error().toString()));
    QVERIFY(QFile::remove(dir + QStringLiteral("/link.yaml")));
    // Limits.
    bundle::IndexLimits small;
    small.maxFileBytes = 2;
    r = ops::bundleIndex(ctx, ops::BundleIndexRequest{dir, small});
    QVERIFY(!r.ok());
    // A sealed bundle.
    QFile a(dir + QStringLiteral("/attestation/bundle-attestation.sigstore.json"));
    QVERIFY(a.open(QIODevice::WriteOnly));
    a.write("{}");
    a.close();
    r = ops::bundleIndex(ctx, ops::BundleIndexRequest{dir, {}});
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.contains(QLatin1String("sealed")));
    QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/digest-index")));
    // Not a directory.
    QVERIFY(!ops::bundleIndex(ctx, ops::BundleIndexRequest{tmp.filePath(QStringLiteral("none")), {}}).ok());
}

void TestBundleIndex::cli() {
    if (!m_have)
        QSKIP("the 2026-08-19 catalog (../shared/data/aicr/catalogs) is not here");
    QTemporaryDir tmp;
    PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.db"));
    const QString db = testDb.spec();
    auto run = [&](const QStringList& args, QByteArray* stdoutBytes = nullptr) {
        QProcess proc;
        proc.start(QStringLiteral(PB_CLI_BINARY), QStringList{QStringLiteral("--db"), db} + args);
        proc.waitForFinished(120000);
        if (stdoutBytes)
            *stdoutBytes = proc.readAllStandardOutput();
        if (proc.exitCode() != 0)
            qInfo().noquote() << proc.readAllStandardError().left(2000);
        return proc.exitCode();
    };
    const QString out = tmp.filePath(QStringLiteral("bundle"));
    QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("generate"), QStringLiteral("--catalog"),
                  catalogRoot(), QStringLiteral("--leaf"), m_leaf, QStringLiteral("--deployer"),
                  QStringLiteral("argocd"), QStringLiteral("--out"), out}),
             0);
    QByteArray json;
    QCOMPARE(run({QStringLiteral("bundle"), QStringLiteral("index"), out, QStringLiteral("--format"),
                  QStringLiteral("json")},
                 &json),
             0);
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    QVERIFY(o.value(QStringLiteral("platformDigest")).toString().startsWith(QLatin1String("sha256:")));
    QVERIFY(o.value(QStringLiteral("generateReceipt")).toInt() > 0);
    QByteArray check;
    QCOMPARE(run({QStringLiteral("records"), QStringLiteral("check"), out, QStringLiteral("--format"),
                  QStringLiteral("json")},
                 &check),
             0);
    const QJsonObject c = QJsonDocument::fromJson(check).object();
    QVERIFY(c.value(QStringLiteral("ok")).toBool());
    QString recorded;
    for (const QJsonValue& v : c.value(QStringLiteral("checks")).toArray())
        if (v.toObject().value(QStringLiteral("check")).toString() ==
            QLatin1String("digest-index.platform-digest"))
            recorded = v.toObject().value(QStringLiteral("actual")).toString();
    QCOMPARE(recorded, o.value(QStringLiteral("platformDigest")).toString());
    // One byte of the app-of-apps changed: records check fails.
    flipByte(out + QStringLiteral("/app-of-apps.yaml"), 5);
    QVERIFY(run({QStringLiteral("records"), QStringLiteral("check"), out}) != 0);
    // The receipt kind is known to the ledger.
    QByteArray receipts;
    QCOMPARE(run({QStringLiteral("receipts"), QStringLiteral("list"), QStringLiteral("--kind"),
                  QStringLiteral("bundle.index")},
                 &receipts),
             0);
    QVERIFY(receipts.contains("bundle.index"));
}

QTEST_GUILESS_MAIN(TestBundleIndex)
#include "tst_bundleindex.moc"
