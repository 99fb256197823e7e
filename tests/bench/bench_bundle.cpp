// Benchmark (issues #21, #27): generating the bundle of every leaf of the 2026-08-19 catalog (resolve,
// effective values and manifests, render, write) for each of AICR's five deployers, against `cp -r`
// of the same output trees in the same run (the I/O floor of writing those files). Prints one JSON
// line per measurement, a summary per deployer and one for all five; exits 1 when a median ratio is
// over the goal (3x).
//
//   pb_bench_bundle [RUNS=5] [CATALOG_DIR]
//
// The catalog is loaded once, outside the timing (every `bundle generate` loads it too, but loading
// is measured by pb_bench). Runs alternate sides; medians are reported. Warm page cache.
#include "bundle/Generate.h"
#include "catalog/Loader.h"
#include "catalog/Resolver.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace pb;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 5;
    const QString root = argc > 2 ? QString::fromLocal8Bit(argv[2])
                                  : QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/2026-08-19/recipes");
    if (!QDir(root).exists()) {
        std::fprintf(stderr, "pb_bench_bundle: %s is not here; nothing measured\n", qPrintable(root));
        return 2;
    }
    Result<catalog::Catalog> cat = catalog::loadCatalog(root);
    if (!cat) {
        std::fprintf(stderr, "pb_bench_bundle: %s\n", qPrintable(cat.error().toString()));
        return 2;
    }
    const QStringList leaves = cat->leafNames();
    QTemporaryDir tmp;
    bool met = true;
    double allGen = 0, allCopy = 0;
    qint64 allFiles = 0, allBytes = 0;
    for (const bundle::Deployer deployer :
         {bundle::Deployer::Helm, bundle::Deployer::ArgoCD, bundle::Deployer::ArgoCDHelm,
          bundle::Deployer::Flux, bundle::Deployer::Helmfile}) {
        const QString name = bundle::deployerName(deployer);
        std::vector<double> gen, copy;
        qint64 files = 0, bytes = 0;
        int bundles = 0;
        for (int run = 0; run < runs; ++run) {
            const QString out = tmp.filePath(QStringLiteral("gen-%1-%2").arg(name).arg(run));
            QDir().mkpath(out);
            QElapsedTimer t;
            t.start();
            files = bytes = 0;
            bundles = 0;
            for (const QString& leaf : leaves) {
                Result<catalog::RecipeResult> recipe =
                    catalog::resolve(*cat, catalog::leafCriteria(*cat, leaf));
                if (!recipe) {
                    std::fprintf(stderr, "pb_bench_bundle: leaf %s: %s\n", qPrintable(leaf),
                                 qPrintable(recipe.error().toString()));
                    return 2;
                }
                bundle::GenerateOptions o;
                o.deployer = deployer;
                Result<bundle::BundleTree> tree =
                    bundle::generate(*cat, *recipe, o, out + QLatin1Char('/') + leaf);
                if (!tree) {
                    std::fprintf(stderr, "pb_bench_bundle: %s, leaf %s: %s\n", qPrintable(name),
                                 qPrintable(leaf), qPrintable(tree.error().toString()));
                    return 2;
                }
                ++bundles;
                files += static_cast<qint64>(tree->files.size());
                for (const bundle::BundleFile& f : tree->files)
                    bytes += f.bytes.size();
            }
            gen.push_back(t.nsecsElapsed() / 1e9);

            const QString dest = tmp.filePath(QStringLiteral("copy-%1-%2").arg(name).arg(run));
            t.restart();
            QProcess cp;
            cp.start(QStringLiteral("cp"), {QStringLiteral("-r"), out, dest});
            cp.waitForFinished(-1);
            copy.push_back(t.nsecsElapsed() / 1e9);
            if (cp.exitCode() != 0) {
                std::fprintf(stderr, "pb_bench_bundle: cp -r failed\n");
                return 2;
            }
            std::printf("{\"deployer\":\"%s\",\"run\":%d,\"generateSeconds\":%.4f,\"cpSeconds\":%.4f}\n",
                        qPrintable(name), run, gen.back(), copy.back());
            QDir(out).removeRecursively();
            QDir(dest).removeRecursively();
        }
        const double g = median(gen), c = median(copy), ratio = g / c;
        met = met && ratio <= 3.0;
        allGen += g;
        allCopy += c;
        allFiles += files;
        allBytes += bytes;
        std::printf("{\"benchmark\":\"bundle-generate-all-leaves\",\"deployer\":\"%s\",\"catalog\":\"%s\","
                    "\"bundles\":%d,\"files\":%lld,\"bytes\":%lld,\"runs\":%d,\"generateMedianSeconds\":%.4f,"
                    "\"cpMedianSeconds\":%.4f,\"ratio\":%.2f,\"goal\":3.0,\"met\":%s}\n",
                    qPrintable(name), qPrintable(root), bundles, static_cast<long long>(files),
                    static_cast<long long>(bytes), runs, g, c, ratio, ratio <= 3.0 ? "true" : "false");
    }
    std::printf("{\"benchmark\":\"bundle-generate-all-leaves-five-deployers\",\"files\":%lld,\"bytes\":%lld,"
                "\"generateSeconds\":%.4f,\"cpSeconds\":%.4f,\"ratio\":%.2f,\"goal\":3.0,\"met\":%s}\n",
                static_cast<long long>(allFiles), static_cast<long long>(allBytes), allGen, allCopy,
                allGen / allCopy, met ? "true" : "false");
    return met ? 0 : 1;
}
