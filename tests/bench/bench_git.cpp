// Issue 18: importing every tag of a Git repository of the five real AICR catalogs straight from the
// object database (ops::importCatalogGit, --tags '*') against the peer a user would script: for each
// tag, `git archive TAG recipes | tar -x` into a folder and a folder import of it (ops::importCatalog),
// in one run on one machine, each into a fresh database. Prints medians and the ratio (goal ≤ 1.0×);
// docs/PERFORMANCE.md records them.
#include "engine/GitCatalogFixture.h"

#include "db/Database.h"
#include "git/Repository.h"
#include "ops/ImportCatalog.h"
#include "ops/ImportCatalogGit.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

// Medians of each measured function, run INTERLEAVED (one of each per round, after one warm-up
// round), so a machine whose load drifts during the run weighs on every side alike.
std::vector<double> interleavedMedians(int runs, const std::vector<std::function<void()>>& fns) {
    for (const auto& fn : fns)
        fn(); // warm the file cache and allocators
    std::vector<std::vector<double>> t(fns.size());
    for (int i = 0; i < runs; ++i)
        for (size_t f = 0; f < fns.size(); ++f) {
            QElapsedTimer timer;
            timer.start();
            fns[f]();
            t[f].push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
    std::vector<double> out;
    for (std::vector<double>& v : t) {
        std::sort(v.begin(), v.end());
        out.push_back(v[v.size() / 2]);
    }
    return out;
}

[[noreturn]] void die(const QString& what) {
    std::fprintf(stderr, "bench_git: %s\n", qPrintable(what));
    std::exit(1);
}

std::unique_ptr<pb::db::Database> freshDb(const QTemporaryDir& tmp, int& n) {
    pb::Result<std::unique_ptr<pb::db::Database>> db =
        pb::db::Database::open(tmp.filePath(QStringLiteral("bench-%1.db").arg(n++)));
    if (!db)
        die(db.error().toString());
    return std::move(*db);
}

// `git archive TAG recipes | tar -x -C dir`, as a shell pipeline.
void archive(const QString& repo, const QString& tag, const QString& dir) {
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(
        QStringLiteral("sh"),
        {QStringLiteral("-c"), QStringLiteral("git -C \"$0\" archive \"$1\" recipes | tar -x"), repo, tag});
    if (!p.waitForFinished(120000) || p.exitCode() != 0)
        die(QStringLiteral("git archive %1 failed: %2")
                .arg(tag, QString::fromUtf8(p.readAllStandardError())));
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QString catalogs =
        argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral(PB_SHARED_DATA "/aicr/catalogs");
    const int runs = argc > 2 ? std::atoi(argv[2]) : 7;
    if (!QFileInfo::exists(catalogs + QStringLiteral("/v0.11.1/recipes")))
        die(QStringLiteral("the real catalogs are not at %1 (pass the aicr/catalogs folder)").arg(catalogs));
    QTemporaryDir tmp;
    pbtest::GitCatalogRepo repo(tmp.filePath(QStringLiteral("repo")), catalogs);
    if (!repo.error().isEmpty())
        die(repo.error());
    QStringList tags;
    for (const pbtest::GitCatalogCommit& c : pbtest::gitCatalogCommits())
        tags << c.label;
    int dbs = 0;

    // Ours: every tag from the bare repository, one transaction per version.
    int files = 0, recipes = 0;
    const std::function<void()> ours = [&] {
        std::unique_ptr<pb::db::Database> db = freshDb(tmp, dbs);
        pb::ops::ImportCatalogGitRequest req;
        req.repository = repo.bare();
        req.tagGlob = QStringLiteral("*");
        pb::Result<pb::ops::ImportCatalogGitOutcome> r =
            pb::ops::importCatalogGit(pb::ops::Context(*db), req);
        if (!r || r->importedLabels().size() != tags.size())
            die(r ? QStringLiteral("not every tag was imported") : r.error().toString());
        files = recipes = 0;
        for (const pb::ops::GitVersionOutcome& v : r->versions) {
            files += v.files;
            recipes += v.recipes;
        }
    };
    // Its reading part alone: the five trees out of the object database.
    const std::function<void()> oursRead = [&] {
        pb::Result<pb::git::Repository> r = pb::git::Repository::open(repo.bare());
        if (!r)
            die(r.error().toString());
        for (const QString& tag : std::as_const(tags)) {
            pb::Result<pb::git::ResolvedRef> ref = r->resolve(tag);
            if (!ref || !r->readFiles(ref->commit, QStringLiteral("recipes")))
                die(QStringLiteral("cannot read %1").arg(tag));
        }
    };

    // Peer: git archive | tar -x of each tag, then a folder import of each.
    const std::function<void()> peer = [&] {
        std::unique_ptr<pb::db::Database> db = freshDb(tmp, dbs);
        QTemporaryDir out;
        for (const QString& tag : std::as_const(tags)) {
            const QString dir = out.filePath(tag);
            QDir().mkpath(dir);
            archive(repo.bare(), tag, dir);
            pb::ops::ImportCatalogRequest req;
            req.label = tag;
            req.dir = dir + QStringLiteral("/recipes");
            pb::Result<pb::ops::ImportCatalogOutcome> r = pb::ops::importCatalog(pb::ops::Context(*db), req);
            if (!r)
                die(r.error().toString());
        }
    };
    // Its two parts alone: the five extractions, and the five folder imports of extracted trees.
    QTemporaryDir extracted;
    const std::function<void()> peerExtract = [&] {
        QTemporaryDir out;
        for (const QString& tag : std::as_const(tags)) {
            QDir().mkpath(out.filePath(tag));
            archive(repo.bare(), tag, out.filePath(tag));
        }
    };
    for (const QString& tag : std::as_const(tags)) {
        QDir().mkpath(extracted.filePath(tag));
        archive(repo.bare(), tag, extracted.filePath(tag));
    }
    const std::function<void()> peerImport = [&] {
        std::unique_ptr<pb::db::Database> db = freshDb(tmp, dbs);
        for (const QString& tag : std::as_const(tags)) {
            pb::ops::ImportCatalogRequest req;
            req.label = tag;
            req.dir = extracted.filePath(tag) + QStringLiteral("/recipes");
            if (!pb::ops::importCatalog(pb::ops::Context(*db), req))
                die(QStringLiteral("folder import of %1 failed").arg(tag));
        }
    };

    const std::vector<double> ms = interleavedMedians(runs, {ours, oursRead, peer, peerExtract, peerImport});
    std::printf("Git import of every tag (%d tags, %d files, %d recipes; libgit2 %s), median of %d "
                "interleaved runs\n",
                static_cast<int>(tags.size()), files, recipes, qPrintable(pb::git::libgit2Version()), runs);
    std::printf("  proofbench catalog import --git --tags '*'       %9.1f ms (reading the five trees alone: "
                "%.1f ms)\n",
                ms[0], ms[1]);
    std::printf("  git archive | tar -x + folder import, per tag     %9.1f ms\n", ms[2]);
    std::printf("    of which git archive | tar -x alone             %9.1f ms\n", ms[3]);
    std::printf("    of which the five folder imports alone          %9.1f ms\n", ms[4]);
    std::printf("  ratio                                             %9.2fx (goal <= 1.0x)\n", ms[0] / ms[2]);
    std::printf("  ratio to the folder imports alone                 %9.2fx\n", ms[0] / ms[4]);
    return 0;
}
