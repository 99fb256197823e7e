// Benchmark (issue 28): peak memory of `evidence import --bundles` for 1, 10 and 100 OCI-layout
// bundles, each a gzip'ed layer of MEMBERS members of 100 KB of zeros (compressed to a few hundred
// KiB, expanded to MEMBERS x 100 KB), and of `evidence check` on one layout of the size
// (5,000 members: 500 MB expanded). The peer, in the same run, is the floor of the same work:
// `gzip -dc LAYER | sha256sum` over every layer (one process at a time), against which the import's
// wall time is reported as a ratio. Peak RSS is the child's own (wait4 ru_maxrss). One JSON line
// per measurement.
//
//   pb_bench_evidence [MEMBERS=1000]
#include "BenchChild.h"
#include "OciLayoutFixture.h"

#include <archive.h>
#include <archive_entry.h>

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cstdio>
#include <vector>

namespace {

using pbbench::ChildRun;
using pbbench::runChild;

// An OCI image layout whose one layer holds `members` files of 100 KB of zeros; returns the layer's
// path. The layer is written straight to its file (nothing of its content is held here).
QString writeLayout(const QString& dir, int members) {
    QDir().mkpath(dir + QStringLiteral("/blobs/sha256"));
    const QString layerTmp = dir + QStringLiteral("/layer.tmp");
    archive* a = archive_write_new();
    archive_write_add_filter_gzip(a);
    archive_write_set_format_pax_restricted(a);
    archive_write_open_filename(a, layerTmp.toLocal8Bit().constData());
    const QByteArray zeros(100 * 1000, '\0');
    for (int i = 0; i < members; ++i) {
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(
            e, QStringLiteral("logs/part-%1.bin").arg(i, 5, 10, QLatin1Char('0')).toUtf8().constData());
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_size(e, zeros.size());
        archive_write_header(a, e);
        archive_write_data(a, zeros.constData(), static_cast<size_t>(zeros.size()));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    QFile layer(layerTmp);
    layer.open(QIODevice::ReadOnly);
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&layer);
    const qint64 layerSize = layer.size();
    layer.close();
    const QString layerHex = QString::fromLatin1(h.result().toHex());
    const QString layerPath = dir + QStringLiteral("/blobs/sha256/") + layerHex;
    QFile::rename(layerTmp, layerPath);
    pbtest::writeLayoutAround(dir, QStringLiteral("sha256:") + layerHex, layerSize);
    return layerPath;
}

// n copies of the layout at `source` below `root` (b000, b001, ...); the layers' paths.
QStringList copies(const QString& source, const QString& root, int n) {
    QStringList layers;
    for (int i = 0; i < n; ++i) {
        const QString dir = root + QStringLiteral("/b%1").arg(i, 3, 10, QLatin1Char('0'));
        QDir().mkpath(dir + QStringLiteral("/blobs/sha256"));
        QFile::copy(source + QStringLiteral("/index.json"), dir + QStringLiteral("/index.json"));
        QFile::copy(source + QStringLiteral("/oci-layout"), dir + QStringLiteral("/oci-layout"));
        for (const QString& b : QDir(source + QStringLiteral("/blobs/sha256")).entryList(QDir::Files)) {
            QFile::copy(source + QStringLiteral("/blobs/sha256/") + b,
                        dir + QStringLiteral("/blobs/sha256/") + b);
            if (QFileInfo(dir + QStringLiteral("/blobs/sha256/") + b).size() > 4096)
                layers << dir + QStringLiteral("/blobs/sha256/") + b;
        }
    }
    return layers;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const int members = argc > 1 ? std::atoi(argv[1]) : 1000;
    const QString cli = QStringLiteral(PB_CLI_BINARY);
    QTemporaryDir tmp;
    const QString pointers = tmp.filePath(QStringLiteral("pointers/recipes/evidence"));
    QDir().mkpath(pointers);
    const QString one = tmp.filePath(QStringLiteral("one"));
    writeLayout(one, members);
    auto import = [&](const QString& bundles, const QString& label, int n, const QStringList& layers) {
        const QString db = tmp.filePath(label + QStringLiteral(".sqlite"));
        const ChildRun r =
            runChild({cli, QStringLiteral("evidence"), QStringLiteral("import"), QStringLiteral("--db"), db,
                      QStringLiteral("--bundles"), bundles, tmp.filePath(QStringLiteral("pointers"))});
        QFile::remove(db);
        double floor = 0;
        for (const QString& layer : layers)
            floor += runChild({QStringLiteral("sh"), QStringLiteral("-c"),
                               QStringLiteral("gzip -dc '%1' | sha256sum").arg(layer)})
                         .seconds;
        std::printf("{\"bench\":\"evidence import --bundles\",\"bundles\":%d,\"membersPerBundle\":%d,"
                    "\"expandedMB\":%.0f,\"exit\":%d,\"seconds\":%.2f,\"peakRssMB\":%.1f,"
                    "\"peerGzipSha256sumSeconds\":%.2f,\"ratio\":%.2f}\n",
                    n, members, n * members * 0.1, r.exitCode, r.seconds, r.maxRssKb / 1024.0, floor,
                    floor > 0 ? r.seconds / floor : 0.0);
        std::fflush(stdout);
    };
    // No bundle: what the process needs anyway (Qt, the database, the embedded catalog).
    const QString none = tmp.filePath(QStringLiteral("none"));
    QDir().mkpath(none);
    import(none, QStringLiteral("none"), 0, {});
    for (const int n : {1, 10, 100}) {
        const QString root = tmp.filePath(QStringLiteral("bundles-%1").arg(n));
        const QStringList layers = copies(one, root, n);
        import(root, QStringLiteral("import-%1").arg(n), n, layers);
        QDir(root).removeRecursively();
    }
    // The case: six layouts of 5,000 x 100 KB members, imported; one of them checked.
    const QString big = tmp.filePath(QStringLiteral("big"));
    writeLayout(big, 5000);
    const QString six = tmp.filePath(QStringLiteral("six"));
    const QStringList sixLayers = copies(big, six, 6);
    {
        const QString db = tmp.filePath(QStringLiteral("six.sqlite"));
        const ChildRun r =
            runChild({cli, QStringLiteral("evidence"), QStringLiteral("import"), QStringLiteral("--db"), db,
                      QStringLiteral("--bundles"), six, tmp.filePath(QStringLiteral("pointers"))});
        std::printf("{\"bench\":\"evidence import --bundles (issue 28 "
                    "case)\",\"bundles\":6,\"membersPerBundle\":5000,"
                    "\"expandedMB\":3000,\"exit\":%d,\"seconds\":%.2f,\"peakRssMB\":%.1f}\n",
                    r.exitCode, r.seconds, r.maxRssKb / 1024.0);
        const ChildRun c = runChild({cli, QStringLiteral("evidence"), QStringLiteral("check"),
                                     QStringLiteral("--db"), db, six + QStringLiteral("/b000")});
        std::printf(
            "{\"bench\":\"evidence check (issue 28 case)\",\"membersPerBundle\":5000,\"expandedMB\":500,"
            "\"exit\":%d,\"seconds\":%.2f,\"peakRssMB\":%.1f}\n",
            c.exitCode, c.seconds, c.maxRssKb / 1024.0);
    }
    return 0;
}
