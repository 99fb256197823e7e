// Catalog versions imported straight from Git (ops/ImportCatalogGit.h, `catalog import --git`):
// a repository built at test time from the five real AICR catalogs (one commit and one tag each,
// committed out of order, commit dates that disagree with the labels), imported with --tags '*'
// through the real CLI (a clone with a work tree) and through the operation (a bare repository).
// Provenance per version, version order, "previous", re-import skipping everything, same content
// under another ref skipped, and clear errors that import nothing: a ref that does not exist, a
// tree without recipes/, a folder that is not a repository, a symbolic link in the tree. A folder
// import inside a clone records the commit that last changed the folder (and says when the folder has
// uncommitted changes).
// The imports run on both engines (DbFixture.h); the Git reading alone on SQLite's half.
#include "DbFixture.h"
#include "GitCatalogFixture.h"
#include "TestUtil.h"

#include "catalog/Loader.h"
#include "catalog/VersionOrder.h"
#include "db/Database.h"
#include "git/CatalogRefs.h"
#include "git/Repository.h"
#include "ops/ImportCatalog.h"
#include "ops/ImportCatalogGit.h"
#include "receipts/Kinds.h"
#include "receipts/Ledger.h"
#include "store/CatalogStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <algorithm>
#include <memory>
#include <tuple>

using namespace pb;

namespace {

struct CliRun {
    int code = -1;
    QByteArray out, err;
};

CliRun cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    p.waitForFinished(180000);
    return CliRun{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

int countRows(db::Database& db, const QString& table) {
    QSqlQuery q(db.sql());
    // Real versions only: a database the CLI creates holds the sample catalog from the start.
    q.exec(table == QLatin1String("catalog_versions")
               ? QStringLiteral("SELECT COUNT(*) FROM catalog_versions WHERE embedded = 0")
               : QStringLiteral("SELECT COUNT(*) FROM ") + table);
    return q.next() ? q.value(0).toInt() : -1;
}

// The real (non-sample) versions in version order. A database the CLI creates starts with the
// sample catalog, which comes before every real version.
QStringList labelsOf(db::Database& db) {
    QStringList out;
    Result<std::vector<store::CatalogVersionInfo>> v = store::CatalogStore(db).versions();
    if (v)
        for (const store::CatalogVersionInfo& i : *v)
            if (!i.isSample())
                out << i.label;
    return out;
}

int receiptsOfKind(db::Database& db, const QString& kind) {
    receipts::ListFilter f;
    f.kind = kind;
    Result<std::vector<receipts::Receipt>> r = receipts::Ledger(db).list(f);
    if (!r)
        return -1;
    // Not the sample catalog's own imports (a database the CLI creates starts with them).
    return static_cast<int>(std::count_if(r->begin(), r->end(), [](const receipts::Receipt& x) {
        return !x.parameters.value(QStringLiteral("embedded")).toBool();
    }));
}

// Git plumbing for trees Git itself would never write: objects written with hash-object --literally
// (no name checks), so the test holds the names an attacker would.
struct RawGit {
    QString dir;
    QString error;
    QByteArray run(const QStringList& args, const QByteArray& input = {}) {
        QProcess p;
        p.setWorkingDirectory(dir);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* k : {"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"})
            env.insert(QString::fromLatin1(k), QStringLiteral("Proofbench test"));
        for (const char* k : {"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"})
            env.insert(QString::fromLatin1(k), QStringLiteral("test@proofbench.invalid"));
        env.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
        env.insert(QStringLiteral("HOME"), dir);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("git"), args);
        p.write(input);
        p.closeWriteChannel();
        if (!p.waitForFinished(60000) || p.exitCode() != 0)
            error += QStringLiteral("git %1: %2\n")
                         .arg(args.join(QLatin1Char(' ')), QString::fromUtf8(p.readAllStandardError()));
        return p.readAllStandardOutput().trimmed();
    }
    QByteArray object(const char* type, const QByteArray& bytes) {
        return run({QStringLiteral("hash-object"), QStringLiteral("-t"), QString::fromLatin1(type),
                    QStringLiteral("-w"), QStringLiteral("--literally"), QStringLiteral("--stdin")},
                   bytes);
    }
    // entries: (mode, name, hex id)
    QByteArray tree(const std::vector<std::tuple<QByteArray, QByteArray, QByteArray>>& entries) {
        QByteArray raw;
        for (const auto& [mode, name, id] : entries)
            raw += mode + ' ' + name + '\0' + QByteArray::fromHex(id);
        return object("tree", raw);
    }
};

} // namespace

class TstGitImport : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    test::Databases m_dbs{m_tmp.path()};
    std::unique_ptr<pbtest::GitCatalogRepo> m_repo;

    std::unique_ptr<db::Database> freshDb(const QString& name) {
        std::unique_ptr<db::Database> db = m_dbs.open(name);
        if (!db)
            qFatal("cannot open %s: %s", qPrintable(name), qPrintable(m_dbs.error()));
        return db;
    }

    // Every version's recorded source matches the repository's tag.
    void checkProvenance(db::Database& db, const QString& repository) {
        store::CatalogStore store(db);
        for (const pbtest::GitCatalogCommit& c : pbtest::gitCatalogCommits()) {
            Result<store::CatalogVersionInfo> v = store.version(c.label);
            QVERIFY2(v, qPrintable(c.label));
            QCOMPARE(v->origin.kind, QStringLiteral("git"));
            QCOMPARE(v->origin.repository, QDir::cleanPath(QFileInfo(repository).absoluteFilePath()));
            QCOMPARE(v->origin.ref, QStringLiteral("refs/tags/") + c.label);
            QCOMPARE(v->origin.tag, c.label);
            QCOMPARE(v->origin.commit, m_repo->commitOf(c.label));
            QCOMPARE(v->origin.commitDate, c.commitDate);
            QCOMPARE(v->origin.path, QStringLiteral("recipes"));
            QVERIFY(!v->isSample());
            QCOMPARE(v->orderBasis(), catalog::parseSemVer(c.label) ? QStringLiteral("semantic version")
                                                                    : QStringLiteral("commit date"));
            QVERIFY2(v->originText().contains(QStringLiteral("tag ") + c.label), qPrintable(v->originText()));
            // The stored files are the tag's files, byte for byte.
            Result<catalog::Catalog> stored = store.loadCatalog(c.label);
            QVERIFY(stored);
            QCOMPARE(static_cast<int>(stored->files.size()), m_repo->fileCount(c.label));
            Result<catalog::Catalog> folder = catalog::loadCatalog(pbtest::realCatalog(c.label));
            QVERIFY(folder);
            QCOMPARE(v->contentDigest, folder->contentDigest());
        }
    }

    void checkOrder(db::Database& db) {
        const QStringList expected = pbtest::gitCatalogVersionOrder();
        QCOMPARE(labelsOf(db), expected);
        // The rules themselves say so (catalog/VersionOrder.h), from the labels and commit dates.
        std::vector<catalog::VersionOrderKey> keys;
        for (const pbtest::GitCatalogCommit& c : pbtest::gitCatalogCommits())
            keys.push_back({c.label, c.commitDate, false});
        QStringList byRules;
        for (int i : catalog::versionOrder(keys))
            byRules << keys[static_cast<size_t>(i)].label;
        QCOMPARE(byRules, expected);
        store::CatalogStore store(db);
        Result<store::CatalogVersionInfo> beforeFirst = store.previousVersion(expected.first());
        QVERIFY(!beforeFirst || beforeFirst->isSample());
        for (int i = 1; i < expected.size(); ++i) {
            Result<store::CatalogVersionInfo> prev = store.previousVersion(expected[i]);
            QVERIFY2(prev, qPrintable(expected[i]));
            QCOMPARE(prev->label, expected[i - 1]);
        }
        Result<store::CatalogVersionInfo> newest = store.newestVersion();
        QVERIFY(newest);
        QCOMPARE(newest->label, expected.last());
    }

  private slots:
    void initTestCase() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/v0.11.1/recipes"));
        QVERIFY(m_tmp.isValid());
        m_repo = std::make_unique<pbtest::GitCatalogRepo>(
            m_tmp.filePath(QStringLiteral("repo")), pbtest::sharedData(QStringLiteral("aicr/catalogs")));
        QVERIFY2(m_repo->error().isEmpty(), qPrintable(m_repo->error()));
    }

    void repositoryListsTagsAndBranches() {

        PB_NO_DATABASE_ON_POSTGRES();
        for (const QString& path : {m_repo->work(), m_repo->bare()}) {
            Result<git::Repository> repo = git::Repository::open(path);
            QVERIFY2(repo, qPrintable(path));
            QCOMPARE(repo->isBare(), path == m_repo->bare());
            Result<std::vector<git::RefInfo>> refs = repo->refs();
            QVERIFY(refs);
            QStringList tags, branches;
            for (const git::RefInfo& r : *refs) {
                (r.kind == QLatin1String("tag") ? tags : branches) << r.name;
                QCOMPARE(r.commit, m_repo->commitOf(r.fullName));
                if (r.kind == QLatin1String("tag")) {
                    const std::vector<pbtest::GitCatalogCommit> commits = pbtest::gitCatalogCommits();
                    const auto c =
                        std::find_if(commits.begin(), commits.end(),
                                     [&](const pbtest::GitCatalogCommit& x) { return x.label == r.name; });
                    QVERIFY(c != commits.end());
                    QCOMPARE(r.commitDate, c->commitDate); // annotated tags peel to their commit
                }
            }
            QCOMPARE(tags, (QStringList{"2026-07-09", "2026-08-09", "2026-08-19", "v0.11.1", "v0.14.0"}));
            QCOMPARE(branches, (QStringList{"main", "no-catalog", "with-link"}));
        }
    }

    // The Git domain alone (git/CatalogRefs.h): every tag planned in version order with its
    // folder, and a planned ref read as the catalog files a folder load would give.
    void domainPlansAndReadsCatalogRefs() {
        PB_NO_DATABASE_ON_POSTGRES();
        Result<git::Repository> repo = git::Repository::open(m_repo->bare());
        QVERIFY(repo);
        git::CatalogRefsRequest req;
        req.tagGlob = QStringLiteral("*");
        Result<std::vector<git::CatalogAtRef>> plan = git::planCatalogRefs(*repo, req);
        QVERIFY2(plan, qPrintable(plan ? QString() : plan.error().toString()));
        QStringList labels;
        for (const git::CatalogAtRef& at : *plan) {
            labels << at.label;
            QCOMPARE(at.ref.commit, m_repo->commitOf(at.ref.fullName));
            QCOMPARE(at.folder, QStringLiteral("recipes"));
        }
        QCOMPARE(labels, pbtest::gitCatalogVersionOrder());
        Result<std::vector<catalog::CatalogFile>> files = git::readCatalogFiles(*repo, plan->front(), {});
        QVERIFY(files);
        QCOMPARE(int(files->size()), m_repo->fileCount(plan->front().label));
        Result<catalog::Catalog> fromGit =
            catalog::loadCatalogFromFiles(std::move(*files), git::catalogRootLabel(*repo, plan->front()));
        Result<catalog::Catalog> fromDisk = catalog::loadCatalog(
            pbtest::sharedData(QStringLiteral("aicr/catalogs/%1/recipes").arg(plan->front().label)));
        QVERIFY(fromGit && fromDisk);
        QCOMPARE(fromGit->contentDigest(), fromDisk->contentDigest());
        req.label = QStringLiteral("one");
        QVERIFY(!git::planCatalogRefs(*repo, req)); // a label names one version, not five
    }

    // The CLI with --tags '*' on the clone: every tag a version, provenance, order, previous.
    void cliImportsEveryTag() {
        const QString dbPath = m_dbs.spec(QStringLiteral("cli.db"));
        const CliRun run = cli({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"),
                                dbPath, QStringLiteral("--git"), m_repo->work(), QStringLiteral("--tags"),
                                QStringLiteral("*"), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(run.code == 0, run.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(run.out).object();
        const QJsonArray versions = doc.value(QStringLiteral("versions")).toArray();
        QCOMPARE(versions.size(), 5);
        QStringList labels;
        for (const QJsonValue& v : versions) {
            const QJsonObject o = v.toObject();
            const QString label = o.value(QStringLiteral("version")).toString();
            labels << label;
            QCOMPARE(o.value(QStringLiteral("outcome")).toString(), QStringLiteral("imported"));
            QCOMPARE(o.value(QStringLiteral("tag")).toString(), label);
            QCOMPARE(o.value(QStringLiteral("commit")).toString(), m_repo->commitOf(label));
            QCOMPARE(o.value(QStringLiteral("files")).toInt(), m_repo->fileCount(label));
            QVERIFY(o.value(QStringLiteral("recipes")).toInt() > 0);
            QCOMPARE(o.value(QStringLiteral("contentDigest")).toString().size(), 64); // sha256, hex
        }
        QCOMPARE(labels, pbtest::gitCatalogVersionOrder()); // imported in version order

        std::unique_ptr<db::Database> db = freshDb(QStringLiteral("cli.db"));
        checkProvenance(*db, m_repo->work());
        checkOrder(*db);
        QCOMPARE(receiptsOfKind(*db, receipts::kinds::CatalogImport), 5);

        // `catalog list` prints them in version order, with their Git source.
        const CliRun list = cli({QStringLiteral("catalog"), QStringLiteral("list"), QStringLiteral("--db"),
                                 dbPath, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(list.code, 0);
        QStringList listed;
        for (const QJsonValue& v : QJsonDocument::fromJson(list.out).array()) {
            if (v.toObject().value(QStringLiteral("sample")).toBool())
                continue; // the sample catalog a new database starts with, listed first
            listed << v.toObject().value(QStringLiteral("version")).toString();
            const QJsonObject origin = v.toObject().value(QStringLiteral("origin")).toObject();
            QCOMPARE(origin.value(QStringLiteral("kind")).toString(), QStringLiteral("git"));
            QCOMPARE(origin.value(QStringLiteral("tag")).toString(), listed.last());
        }
        QCOMPARE(listed, pbtest::gitCatalogVersionOrder());

        // Importing again changes nothing: every version is unchanged (and receipted as such).
        const CliRun again = cli({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"),
                                  dbPath, QStringLiteral("--git"), m_repo->work(), QStringLiteral("--tags"),
                                  QStringLiteral("*"), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(again.code == 0, again.err.constData());
        for (const QJsonValue& v :
             QJsonDocument::fromJson(again.out).object().value(QStringLiteral("versions")).toArray())
            QCOMPARE(v.toObject().value(QStringLiteral("outcome")).toString(), QStringLiteral("unchanged"));
        QCOMPARE(countRows(*db, QStringLiteral("catalog_versions")), 5);
        QCOMPARE(receiptsOfKind(*db, receipts::kinds::CatalogImport), 10);

        // The text output names each version and what happened.
        const CliRun text = cli({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"),
                                 dbPath, QStringLiteral("--git"), m_repo->work(), QStringLiteral("--ref"),
                                 QStringLiteral("v0.14.0")});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("v0.14.0: unchanged (tag v0.14.0, commit " +
                                   m_repo->commitOf(QStringLiteral("v0.14.0")).left(12).toLatin1()),
                 text.out.constData());
    }

    // The operation on the bare repository: the same versions and sources; then a branch whose
    // content is already stored under a tag's label is skipped and said so.
    void opImportsFromBareRepository() {
        std::unique_ptr<db::Database> db = freshDb(QStringLiteral("bare.db"));
        ops::Context ctx(*db);
        ops::ImportCatalogGitRequest req;
        req.repository = m_repo->bare();
        req.tagGlob = QStringLiteral("*");
        Result<ops::ImportCatalogGitOutcome> r = ops::importCatalogGit(ctx, req);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        QCOMPARE(r->versions.size(), size_t(5));
        QVERIFY(!r->cancelled);
        QCOMPARE(r->importedLabels(), pbtest::gitCatalogVersionOrder());
        checkProvenance(*db, m_repo->bare());
        checkOrder(*db);

        // main is the 2026-08-09 commit: same content, another label -> skipped, nothing written.
        ops::ImportCatalogGitRequest branch;
        branch.repository = m_repo->bare();
        branch.refs = {QStringLiteral("main")};
        Result<ops::ImportCatalogGitOutcome> b = ops::importCatalogGit(ctx, branch);
        QVERIFY2(b, qPrintable(b ? QString() : b.error().toString()));
        QCOMPARE(b->versions.size(), size_t(1));
        QCOMPARE(b->versions[0].label, QStringLiteral("main"));
        QCOMPARE(b->versions[0].outcome, QStringLiteral("skipped-same-content"));
        QCOMPARE(b->versions[0].sameContentAs, QStringLiteral("2026-08-09"));
        QVERIFY(b->versions[0].summary().contains(QStringLiteral("same content as version 2026-08-09")));
        QCOMPARE(countRows(*db, QStringLiteral("catalog_versions")), 5);
        QCOMPARE(receiptsOfKind(*db, receipts::kinds::CatalogImport), 6); // the skip is on record

        // --version labels a single ref; a commit id as the ref.
        ops::ImportCatalogGitRequest one;
        one.repository = m_repo->bare();
        one.refs = {m_repo->commitOf(QStringLiteral("v0.11.1"))};
        one.label = QStringLiteral("again-v0.11.1");
        Result<ops::ImportCatalogGitOutcome> o = ops::importCatalogGit(ctx, one);
        QVERIFY(o);
        QCOMPARE(o->versions[0].outcome, QStringLiteral("skipped-same-content"));
        QCOMPARE(o->versions[0].sameContentAs, QStringLiteral("v0.11.1"));
        one.refs << QStringLiteral("v0.14.0");
        Result<ops::ImportCatalogGitOutcome> two = ops::importCatalogGit(ctx, one);
        QVERIFY(!two);
        QVERIFY2(two.error().message.contains(QStringLiteral("--version names one version")),
                 qPrintable(two.error().toString()));
    }

    // Errors name the repository, ref and path, and import nothing.
    void errorsImportNothing() {
        std::unique_ptr<db::Database> db = freshDb(QStringLiteral("errors.db"));
        ops::Context ctx(*db);
        auto attempt = [&](const QString& repository, const QStringList& refs, const QString& glob = {}) {
            ops::ImportCatalogGitRequest req;
            req.repository = repository;
            req.refs = refs;
            req.tagGlob = glob;
            return ops::importCatalogGit(ctx, req);
        };
        // A ref that does not exist, alone and beside one that does.
        for (const QStringList& refs : {QStringList{"v9.9.9"}, QStringList{"v0.11.1", "v9.9.9"}}) {
            Result<ops::ImportCatalogGitOutcome> r = attempt(m_repo->bare(), refs);
            QVERIFY(!r);
            const QString text = r.error().toString();
            QVERIFY2(text.contains(QStringLiteral("v9.9.9")) &&
                         text.contains(QStringLiteral("does not exist")) && text.contains(m_repo->bare()) &&
                         text.contains(QStringLiteral("nothing was imported")),
                     qPrintable(text));
        }
        // A tree with no recipes/.
        Result<ops::ImportCatalogGitOutcome> noCatalog =
            attempt(m_repo->work(), {QStringLiteral("v0.14.0"), QStringLiteral("no-catalog")});
        QVERIFY(!noCatalog);
        QVERIFY2(noCatalog.error().toString().contains(QStringLiteral("no-catalog")) &&
                     noCatalog.error().toString().contains(QStringLiteral("no folder 'recipes'")) &&
                     noCatalog.error().toString().contains(m_repo->work()),
                 qPrintable(noCatalog.error().toString()));
        // A folder that is not a repository.
        Result<ops::ImportCatalogGitOutcome> notRepo =
            attempt(pbtest::realCatalog(QStringLiteral("v0.11.1")), {QStringLiteral("main")});
        QVERIFY(!notRepo);
        QVERIFY2(notRepo.error().toString().contains(QStringLiteral("not a Git repository")),
                 qPrintable(notRepo.error().toString()));
        // A glob that matches no tag.
        Result<ops::ImportCatalogGitOutcome> noTags =
            attempt(m_repo->bare(), {}, QStringLiteral("release-*"));
        QVERIFY(!noTags);
        QVERIFY2(noTags.error().message.contains(QStringLiteral("no tag matches 'release-*'")),
                 qPrintable(noTags.error().toString()));
        // A symbolic link in the catalog is refused by name, as the folder loader does.
        Result<ops::ImportCatalogGitOutcome> link = attempt(m_repo->work(), {QStringLiteral("with-link")});
        QVERIFY(!link);
        QVERIFY2(link.error().toString().contains(QStringLiteral("overlays/linked.yaml is a symbolic link")),
                 qPrintable(link.error().toString()));
        // --path that is not there.
        ops::ImportCatalogGitRequest wrongPath;
        wrongPath.repository = m_repo->bare();
        wrongPath.refs = {QStringLiteral("v0.11.1")};
        wrongPath.path = QStringLiteral("catalog");
        Result<ops::ImportCatalogGitOutcome> wp = ops::importCatalogGit(ctx, wrongPath);
        QVERIFY(!wp);
        QVERIFY2(wp.error().toString().contains(QStringLiteral("no folder 'catalog'")) &&
                     wp.error().toString().contains(QStringLiteral("v0.11.1")),
                 qPrintable(wp.error().toString()));

        QCOMPARE(countRows(*db, QStringLiteral("catalog_versions")), 0);
        QCOMPARE(countRows(*db, QStringLiteral("catalog_files")), 0);

        // The CLI says the same and exits non-zero; usage errors exit 2.
        const QString dbPath = m_dbs.spec(QStringLiteral("errors-cli.db"));
        const CliRun missing =
            cli({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"), dbPath,
                 QStringLiteral("--git"), m_repo->work(), QStringLiteral("--ref"), QStringLiteral("nope")});
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains("ref 'nope' does not exist"), missing.err.constData());
        const CliRun twoLabels =
            cli({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"), dbPath,
                 QStringLiteral("--git"), m_repo->work(), QStringLiteral("--tags"), QStringLiteral("v*"),
                 QStringLiteral("--version"), QStringLiteral("x")});
        QCOMPARE(twoLabels.code, 2);
        const CliRun refWithoutGit =
            cli({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"), dbPath,
                 QStringLiteral("--ref"), QStringLiteral("v0.11.1"), QStringLiteral("--version"),
                 QStringLiteral("x"), pbtest::realCatalog(QStringLiteral("v0.11.1"))});
        QCOMPARE(refWithoutGit.code, 2);
        std::unique_ptr<db::Database> cliDb = freshDb(QStringLiteral("errors-cli.db"));
        QCOMPARE(countRows(*cliDb, QStringLiteral("catalog_versions")), 0);
    }

    // Cancel before the first version imports nothing; cancel after the first version keeps it.
    // Issue 28: trees that lie. Entry names a checked-out tree could never hold (path traversal, an
    // absolute path, '.git', control characters, two entries of one name) are refused by name, and a
    // tag whose name is not UTF-8 is skipped with a warning while the other tags are planned.
    void hostileTreesAreRefusedByName() {
        QTemporaryDir tmp;
        RawGit g{tmp.path(), {}};
        g.run({QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("--bare"), QStringLiteral(".")});
        const QByteArray blob = g.object("blob", "kind: ComponentRegistry\n");
        const QByteArray overlays = g.tree({{"100644", "base.yaml", blob}});
        QVERIFY2(g.error.isEmpty(), qPrintable(g.error));
        auto commitWith = [&](const QByteArray& hostileName, bool duplicate = false) {
            std::vector<std::tuple<QByteArray, QByteArray, QByteArray>> entries{
                {"40000", "overlays", overlays}, {"100644", "registry.yaml", blob}};
            if (duplicate)
                entries.emplace_back("100644", "registry.yaml", blob);
            else
                entries.emplace_back("100644", hostileName, blob);
            const QByteArray recipes = g.tree(entries);
            const QByteArray root = g.tree({{"40000", "recipes", recipes}});
            return QString::fromLatin1(g.run({QStringLiteral("commit-tree"), QString::fromLatin1(root),
                                              QStringLiteral("-m"), QStringLiteral("hostile")}));
        };
        Result<git::Repository> repo = git::Repository::open(tmp.path());
        QVERIFY2(repo, repo ? "" : qPrintable(repo.error().toString()));
        const std::pair<QByteArray, QString> hostile[] = {
            {"..", QStringLiteral("not a plain file or folder name")},
            {"../../../../tmp/pwned.yaml", QStringLiteral("not a plain file or folder name")},
            {"./x.yaml", QStringLiteral("not a plain file or folder name")},
            {"/etc/passwd", QStringLiteral("not a plain file or folder name")},
            {"x\x01y.yaml", QStringLiteral("not a plain file or folder name")},
            {".git", QStringLiteral("only Git's own folder")},
            {".GIT", QStringLiteral("only Git's own folder")},
            {"caf\xe9.yaml", QStringLiteral("not UTF-8")},
        };
        for (const auto& [name, why] : hostile) {
            const QString commit = commitWith(name);
            QVERIFY2(g.error.isEmpty(), qPrintable(g.error));
            Result<std::vector<git::TreeFile>> files = repo->readFiles(commit, QStringLiteral("recipes"));
            QVERIFY2(!files, qPrintable(QString::fromLatin1(name.toPercentEncoding())));
            QVERIFY2(files.error().message.contains(why), qPrintable(files.error().toString()));
        }
        const QString dup = commitWith({}, true);
        Result<std::vector<git::TreeFile>> twice = repo->readFiles(dup, QStringLiteral("recipes"));
        QVERIFY(!twice);
        QVERIFY2(twice.error().message.contains(QLatin1String("two entries named 'registry.yaml'")),
                 qPrintable(twice.error().toString()));

        // Tags: one good, one whose name is not UTF-8 (written into packed-refs as Git would keep it).
        const QString good = commitWith("fine.yaml");
        Result<std::vector<git::TreeFile>> fine = repo->readFiles(good, QStringLiteral("recipes"));
        QVERIFY2(fine && fine->size() == 3, fine ? "" : qPrintable(fine.error().toString()));
        g.run({QStringLiteral("tag"), QStringLiteral("v1.0.0"), good});
        QFile packed(tmp.filePath(QStringLiteral("packed-refs")));
        QVERIFY(packed.open(QIODevice::Append));
        packed.write(good.toLatin1() + " refs/tags/v\xff\xfe\n");
        packed.close();
        Result<git::Repository> again = git::Repository::open(tmp.path());
        QVERIFY(again);
        git::CatalogRefsRequest request;
        request.tagGlob = QStringLiteral("v*");
        Result<std::vector<git::CatalogAtRef>> plan = git::planCatalogRefs(*again, request);
        QVERIFY2(plan, plan ? "" : qPrintable(plan.error().toString()));
        QCOMPARE(plan->size(), size_t(1));
        QCOMPARE(plan->front().label, QStringLiteral("v1.0.0"));
        QCOMPARE(again->skippedRefs(), QStringList{QStringLiteral("refs/tags/v%FF%FE")});
    }

    void cancelBetweenVersions() {
        std::unique_ptr<db::Database> db = freshDb(QStringLiteral("cancel.db"));
        std::atomic_bool cancel{true};
        ops::ImportCatalogGitRequest req;
        req.repository = m_repo->bare();
        req.tagGlob = QStringLiteral("v*");
        {
            ops::Context ctx(*db, {}, &cancel);
            Result<ops::ImportCatalogGitOutcome> r = ops::importCatalogGit(ctx, req);
            QVERIFY(!r || (r->cancelled && r->versions.empty()));
            QCOMPARE(countRows(*db, QStringLiteral("catalog_versions")), 0);
        }
        cancel = false;
        QStringList progress;
        ops::Context ctx(
            *db,
            [&](const ops::Progress& p) {
                progress << p.what;
                if (p.what.startsWith(QStringLiteral("v0.14.0 (2 of 2): reading")))
                    cancel = true;
            },
            &cancel);
        Result<ops::ImportCatalogGitOutcome> r = ops::importCatalogGit(ctx, req);
        QVERIFY(r);
        QVERIFY(r->cancelled);
        QCOMPARE(r->importedLabels(), QStringList{QStringLiteral("v0.11.1")});
        QCOMPARE(labelsOf(*db), QStringList{QStringLiteral("v0.11.1")});
        QVERIFY(progress.contains(QStringLiteral("v0.11.1 (1 of 2): reading recipes at ") +
                                  m_repo->commitOf(QStringLiteral("v0.11.1")).left(12)));
    }

    // A folder import records the clone it is in, the commit that last changed the folder and its
    // date, and uncommitted changes.
    void folderInsideCloneRecordsCommit() {
        std::unique_ptr<db::Database> db = freshDb(QStringLiteral("folder.db"));
        ops::Context ctx(*db);
        ops::ImportCatalogRequest req;
        req.label = QStringLiteral("from-folder");
        req.dir = m_repo->work() + QStringLiteral("/recipes");
        Result<ops::ImportCatalogOutcome> r = ops::importCatalog(ctx, req);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        Result<store::CatalogVersionInfo> v = store::CatalogStore(*db).version(QStringLiteral("from-folder"));
        QVERIFY(v);
        QCOMPARE(v->origin.kind, QStringLiteral("folder"));
        QCOMPARE(v->origin.repository, QFileInfo(m_repo->work()).canonicalFilePath());
        QCOMPARE(v->origin.commit, m_repo->commitOf(QStringLiteral("main")));
        QCOMPARE(v->origin.commitDate, pbtest::gitCatalogCommits().back().commitDate);
        QCOMPARE(v->origin.path, QStringLiteral("recipes"));
        QCOMPARE(v->origin.ref, QStringLiteral("HEAD"));
        QVERIFY2(v->originText().contains(QStringLiteral("in Git clone")), qPrintable(v->originText()));

        // An untracked file under the folder: still HEAD's commit, and the ref says so.
        QFile extra(m_repo->work() + QStringLiteral("/recipes/NOTES.txt"));
        QVERIFY(extra.open(QIODevice::WriteOnly));
        extra.write("local notes\n");
        extra.close();
        req.label = QStringLiteral("from-dirty-folder");
        QVERIFY(ops::importCatalog(ctx, req));
        QVERIFY(extra.remove());
        Result<store::CatalogVersionInfo> dirty =
            store::CatalogStore(*db).version(QStringLiteral("from-dirty-folder"));
        QVERIFY(dirty);
        QCOMPARE(dirty->origin.commit, m_repo->commitOf(QStringLiteral("main")));
        QCOMPARE(dirty->origin.ref, QStringLiteral("HEAD, with uncommitted changes"));

        // Issue 30: a later commit that leaves recipes/ alone does not move the version. Its commit and
        // time are those of the last commit that changed the folder (git log -1 -- recipes), not the
        // clone's HEAD, so every catalog folder of one clone is not dated by whatever came last.
        QTemporaryDir cloneDir;
        const QString clone = cloneDir.filePath(QStringLiteral("clone"));
        m_repo->git({QStringLiteral("clone"), QStringLiteral("-q"), m_repo->work(), clone}, cloneDir.path());
        QFile readme(clone + QStringLiteral("/README.md"));
        QVERIFY(readme.open(QIODevice::WriteOnly));
        readme.write("notes added later\n");
        readme.close();
        m_repo->git({QStringLiteral("add"), QStringLiteral("README.md")}, clone);
        m_repo->git({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"),
                     QStringLiteral("docs only")},
                    clone, QDateTime(QDate(2026, 12, 1), QTime(10, 0), QTimeZone::utc()));
        const QString head =
            m_repo->git({QStringLiteral("rev-parse"), QStringLiteral("HEAD")}, clone).trimmed();
        QVERIFY(head != m_repo->commitOf(QStringLiteral("main")));
        req.label = QStringLiteral("from-clone");
        req.dir = clone + QStringLiteral("/recipes");
        QVERIFY(ops::importCatalog(ctx, req));
        Result<store::CatalogVersionInfo> cloned =
            store::CatalogStore(*db).version(QStringLiteral("from-clone"));
        QVERIFY(cloned);
        QCOMPARE(cloned->origin.commit, m_repo->commitOf(QStringLiteral("main")));
        QCOMPARE(cloned->origin.commitDate, pbtest::gitCatalogCommits().back().commitDate);
        QCOMPARE(cloned->origin.ref, QStringLiteral("HEAD"));

        // A folder outside any clone keeps a plain folder source.
        req.label = QStringLiteral("plain");
        req.dir = pbtest::realCatalog(QStringLiteral("v0.11.1"));
        QVERIFY(ops::importCatalog(ctx, req));
        Result<store::CatalogVersionInfo> plain = store::CatalogStore(*db).version(QStringLiteral("plain"));
        QVERIFY(plain);
        QCOMPARE(plain->origin.kind, QStringLiteral("folder"));
        QVERIFY(plain->origin.commit.isEmpty());
        QVERIFY(plain->origin.repository.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstGitImport)
#include "tst_gitimport.moc"
