// `bench` target: measures Proofbench's catalog import (load + parse + resolve every leaf + write
// to a fresh SQLite file) against the named peer, parsing the same YAML files with yaml-cpp alone,
// in one run on one machine. Prints medians and the ratio; docs/PERFORMANCE.md records them.
#include "catalog/Diff.h"
#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "catalog/Resolver.h"
#include "db/Database.h"
#include "graph/Layout.h"
#include "store/CatalogStore.h"

#include <gvc.h>
#include <yaml-cpp/yaml.h>

#include <QCoreApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

double medianMs(int runs, const std::function<void()>& fn) {
    std::vector<double> t;
    fn(); // warm the file cache and allocators
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        fn();
        t.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QString root = argc > 1 ? QString::fromLocal8Bit(argv[1])
                                  : QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/2026-08-19/recipes");
    const int runs = argc > 2 ? std::atoi(argv[2]) : 15;
    if (!QFileInfo::exists(root)) {
        std::fprintf(stderr, "bench: catalog not found at %s (pass a catalog directory)\n", qPrintable(root));
        return 1;
    }
    QStringList yamlFiles;
    QDirIterator it(root, {QStringLiteral("*.yaml"), QStringLiteral("*.yml")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        yamlFiles << it.next();

    // Peer: yaml-cpp parsing every YAML file of the catalog (read from disk each run, like ours).
    int peerDocs = 0;
    const std::function<void()> peerRun = [&] {
        peerDocs = 0;
        for (const QString& f : std::as_const(yamlFiles)) {
            QFile file(f);
            file.open(QIODevice::ReadOnly);
            const QByteArray bytes = file.readAll();
            try {
                for (const YAML::Node& doc : YAML::LoadAll(bytes.toStdString()))
                    peerDocs += doc.IsDefined() ? 1 : 0;
            } catch (const YAML::Exception&) {
                // templated manifests are not YAML; they cost the peer the same attempt
            }
        }
    };
    const double peer = medianMs(runs, peerRun);

    // Ours, step by step, then the whole import.
    size_t leaves = 0;
    const double load = medianMs(runs, [&] { (void)pb::catalog::loadCatalog(root); });
    pb::Result<pb::catalog::Catalog> cat = pb::catalog::loadCatalog(root);
    if (!cat) {
        std::fprintf(stderr, "bench: %s\n", qPrintable(cat.error().toString()));
        return 1;
    }
    const double resolveAll = medianMs(runs, [&] { leaves = pb::catalog::resolveAllLeaves(*cat).size(); });
    // Issue 3's question: what do AICR-exact digests cost on top of resolution?
    const double digestAll = medianMs(runs, [&] {
        for (const auto& lr : pb::catalog::resolveAllLeaves(*cat))
            if (lr.result)
                (void)pb::catalog::recipeDigest(*lr.result);
    });
    QTemporaryDir tmp;
    int n = 0;
    // The whole import: a new database file (created and migrated), the catalog read and checked,
    // every leaf resolved and stored, the transaction committed and the database closed (its WAL
    // checkpointed), all inside the timed call.
    const std::function<void()> importRun = [&] {
        auto db = pb::db::Database::open(tmp.filePath(QStringLiteral("bench-%1.sqlite").arg(n++)));
        auto c = pb::catalog::loadCatalog(root);
        auto r = pb::store::CatalogStore(**db).importCatalog(QStringLiteral("bench"), *c);
        if (!r)
            std::fprintf(stderr, "bench: %s\n", qPrintable(r.error().toString()));
    };
    const double import = medianMs(runs, importRun);

    // The same two, taking turns run by run, so that a machine whose load changes during the bench
    // weighs on both sides alike; the ratio is the median of the per-turn ratios.
    std::vector<double> turnPeer, turnImport, turnRatio;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        peerRun();
        turnPeer.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        t.restart();
        importRun();
        turnImport.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        turnRatio.push_back(turnImport.back() / turnPeer.back());
    }

    // Where the import's wall time goes, phase by phase (medians of the same number of runs).
    std::vector<double> tOpen, tLoad, tImport, tClose;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        auto db = pb::db::Database::open(tmp.filePath(QStringLiteral("phases-%1.sqlite").arg(i)));
        tOpen.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        t.restart();
        auto c = pb::catalog::loadCatalog(root);
        tLoad.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        t.restart();
        (void)pb::store::CatalogStore(**db).importCatalog(QStringLiteral("bench"), *c);
        tImport.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        t.restart();
        db->reset();
        tClose.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    // What the import wrote, as one checksum over every stored recipe digest (in name order), so
    // that a faster import can be seen to write the same recipes.
    QString storedDigests;
    {
        auto db = pb::db::Database::open(tmp.filePath(QStringLiteral("check.sqlite")));
        auto c = pb::catalog::loadCatalog(root);
        auto r = pb::store::CatalogStore(**db).importCatalog(QStringLiteral("bench"), *c);
        if (r) {
            auto recipes = pb::store::CatalogStore(**db).recipes(r->versionId);
            QByteArray all;
            for (const pb::store::RecipeInfo& info : *recipes)
                all += info.name.toUtf8() + ' ' + info.digest.toLatin1() + '\n';
            storedDigests = pb::catalog::sha256Hex(all);
        }
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };

    std::printf("catalog: %s\n", qPrintable(root));
    std::printf("files: %d YAML (%d documents parsed by yaml-cpp), leaves: %zu, runs: %d (median)\n",
                static_cast<int>(yamlFiles.size()), peerDocs, leaves, runs);
    std::printf("%-52s %10.2f ms\n", "peer: yaml-cpp parse of every YAML file", peer);
    std::printf("%-52s %10.2f ms\n", "proofbench: load + parse + validate catalog", load);
    std::printf("%-52s %10.2f ms\n", "proofbench: resolve every leaf", resolveAll);
    std::printf("%-52s %10.2f ms\n", "proofbench: resolve + deterministic YAML + sha256", digestAll);
    std::printf("%-52s %10.2f ms\n", "proofbench: import (load + resolve all + SQLite)", import);
    std::printf("  of which: new database + migrations %.2f ms, load %.2f ms, resolve + write %.2f ms, close "
                "%.2f ms\n",
                median(tOpen), median(tLoad), median(tImport), median(tClose));
    std::printf("ratio import / peer: %.2fx (goal <= 1.0x)\n", import / peer);
    std::printf("taking turns: peer %.2f ms, import %.2f ms, median ratio %.2fx (min %.2fx, max %.2fx)\n",
                median(turnPeer), median(turnImport), median(turnRatio),
                *std::min_element(turnRatio.begin(), turnRatio.end()),
                *std::max_element(turnRatio.begin(), turnRatio.end()));
    std::printf("stored recipes: sha256 of every (name, digest) line = %s\n", qPrintable(storedDigests));
    std::printf("ratio digests / resolution alone: %.2fx\n", digestAll / resolveAll);

    // Issue 4: layout of the largest recipe, against Graphviz's dot on the same graph.
    const pb::catalog::RecipeResult* largest = nullptr;
    const auto all = pb::catalog::resolveAllLeaves(*cat);
    for (const auto& lr : all)
        if (lr.result && (!largest || lr.result->deploymentOrder.size() > largest->deploymentOrder.size()))
            largest = &*lr.result;
    if (largest) {
        const QByteArray dot = pb::graph::layoutRecipe(*largest)->dotSource;
        const double ours = medianMs(runs, [&] { (void)pb::graph::layoutRecipe(*largest); });
        // Peer 1: the dot layout engine alone, in process (parse the same DOT, gvLayout, free).
        GVC_t* gvc = gvContext();
        const double engine = medianMs(runs, [&] {
            Agraph_t* g = agmemread(dot.constData());
            gvLayout(gvc, g, "dot");
            gvFreeLayout(gvc, g);
            agclose(g);
        });
        gvFreeContext(gvc);
        // Peer 2: the dot program on the same file (includes process start-up).
        QTemporaryDir dotDir;
        const QString dotFile = dotDir.filePath(QStringLiteral("recipe.dot"));
        {
            QFile f(dotFile);
            f.open(QIODevice::WriteOnly);
            f.write(dot);
        }
        const double program = medianMs(std::min(runs, 9), [&] {
            QProcess p;
            p.start(QStringLiteral("dot"), {QStringLiteral("-Tplain"), dotFile});
            p.waitForFinished(30000);
        });
        std::printf("\nlargest recipe: %s (%d components)\n", qPrintable(largest->recipeName()),
                    static_cast<int>(largest->deploymentOrder.size()));
        std::printf("%-52s %10.2f ms\n", "proofbench: layoutRecipe (DOT + gvLayout + read back)", ours);
        std::printf("%-52s %10.2f ms\n", "peer: dot layout engine alone (in process)", engine);
        std::printf("%-52s %10.2f ms\n", "peer: dot -Tplain program on the same graph", program);
        std::printf("ratio layout / dot engine: %.2fx (goal <= 1.2x); / dot program: %.2fx\n", ours / engine,
                    ours / program);
    }
    if (argc > 3) {
        const QString otherRoot = QString::fromLocal8Bit(argv[3]);
        auto other = pb::catalog::loadCatalog(otherRoot);
        if (other) {
            const double diff =
                medianMs(std::min(runs, 7), [&] { (void)pb::catalog::diffCatalogs(*other, *cat); });
            std::printf("%-52s %10.2f ms\n", "proofbench: full catalog diff (other -> this)", diff);
        }
    }
    return 0;
}
