// Benchmark (issue 26): memory and time of `perf import` of a large valid nccl-tests log (repeated
// sweeps: every row a data row, the 520 MB / 4.4M rows by default), then `runs show` of the
// run and `runs show --source` (the kept file read back), each the CLI as a child process with its own
// peak RSS (wait4). The peer, in the same run, is `gzip -6 -c` of the same file (the import reads,
// parses, hashes and compresses it). Also the database's growth. One JSON line per measurement.
//
//   pb_bench_perflog [MB=520] [DIR]
#include "BenchChild.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cstdio>

using pbbench::ChildRun;
using pbbench::runChild;

namespace {

// Sweeps of 32 sizes (8 B to 16 GiB, factor 2) until `bytes` are written, the busbw moving a little
// from sweep to sweep; returns the rows written.
qint64 writeLog(const QString& path, qint64 bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return -1;
    f.write("# nThread 1 nGpus 8 minBytes 8 maxBytes 17179869184 step: 2(factor) warmup iters: 5 iters: 20\n"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   "
            "algbw"
            "   busbw #wrong\n");
    qint64 rows = 0;
    QByteArray block;
    for (int sweep = 0; f.size() + block.size() < bytes; ++sweep) {
        for (int i = 0; i < 32; ++i) {
            const qint64 size = qint64(8) << i;
            const double bus = 2.0 + 14.0 * i + (sweep % 7) * 0.25;
            const QByteArray b = QByteArray::number(bus, 'f', 2), a = QByteArray::number(bus / 1.75, 'f', 2);
            block += QByteArray::number(size).rightJustified(12) +
                     QByteArray::number(size / 4).rightJustified(14) + "     float     sum      -1   " +
                     QByteArray::number(10.0 + i, 'f', 2).rightJustified(7) + " " + a.rightJustified(7) +
                     " " + b.rightJustified(7) + "      0   " +
                     QByteArray::number(10.0 + i, 'f', 2).rightJustified(7) + " " + a.rightJustified(7) +
                     " " + b.rightJustified(7) + "      0\n";
            ++rows;
        }
        if (block.size() > (8 << 20)) {
            f.write(block);
            block.clear();
        }
    }
    f.write(block);
    f.write("# Out of bounds values : 0 OK\n");
    return rows;
}

void report(const char* what, const ChildRun& r, QJsonObject extra = {}) {
    extra.insert(QStringLiteral("what"), QString::fromLatin1(what));
    extra.insert(QStringLiteral("seconds"), r.seconds);
    extra.insert(QStringLiteral("peakRssMB"), double(r.maxRssKb) / 1024.0);
    extra.insert(QStringLiteral("exit"), r.exitCode);
    std::printf("%-28s %8.2f s  %8.1f MB peak RSS  exit %d\n", what, r.seconds, double(r.maxRssKb) / 1024.0,
                r.exitCode);
    std::printf("%s\n", QJsonDocument(extra).toJson(QJsonDocument::Compact).constData());
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const qint64 mb = args.size() > 1 ? args[1].toLongLong() : 520;
    QTemporaryDir tmp;
    const QString dir = args.size() > 2 ? args[2] : tmp.path();
    QDir().mkpath(dir);
    const QString log = dir + QStringLiteral("/nccl-sweeps.log");
    qint64 rows = -1;
    if (QFileInfo(log).size() < mb * 1000 * 1000) {
        rows = writeLog(log, mb * 1000 * 1000);
        if (rows < 0) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(log));
            return 2;
        }
    }
    const QString db = dir + QStringLiteral("/bench.sqlite");
    QFile::remove(db);
    const QString cli = QStringLiteral(PB_CLI_BINARY);
    std::printf("log %s: %.1f MB%s\n", qPrintable(log), QFileInfo(log).size() / 1e6,
                rows >= 0 ? qPrintable(QStringLiteral(", %1 rows").arg(rows)) : "");

    // An empty database first (its size is the baseline).
    runChild({cli, QStringLiteral("db"), QStringLiteral("status"), QStringLiteral("--db"), db});
    const qint64 dbBefore = QFileInfo(db).size();
    const ChildRun gzip = runChild({QStringLiteral("gzip"), QStringLiteral("-6"), QStringLiteral("-c"), log});
    report("gzip -6 -c (peer)", gzip);
    const QString printed = dir + QStringLiteral("/import.json");
    const ChildRun imported =
        runChild({cli, QStringLiteral("perf"), QStringLiteral("import"), log, QStringLiteral("--kind"),
                  QStringLiteral("nccl"), QStringLiteral("--format"), QStringLiteral("json"),
                  QStringLiteral("--db"), db},
                 printed);
    QFile p(printed);
    p.open(QIODevice::ReadOnly);
    const QJsonObject o = QJsonDocument::fromJson(p.readAll()).object();
    const QString run = o.value(QStringLiteral("run")).toString();
    report("perf import", imported,
           {{QStringLiteral("rowsRead"), o.value(QStringLiteral("rowsRead"))},
            {QStringLiteral("rowsKept"), o.value(QStringLiteral("rowsKept"))},
            {QStringLiteral("dbGrowthMB"), double(QFileInfo(db).size() - dbBefore) / 1e6},
            {QStringLiteral("ratioToGzip"), gzip.seconds > 0 ? imported.seconds / gzip.seconds : 0}});
    std::printf("  rows read %lld, kept %d; database grew %.1f MB; %.2f x gzip's time\n",
                qint64(o.value(QStringLiteral("rowsRead")).toDouble()),
                o.value(QStringLiteral("rowsKept")).toInt(), double(QFileInfo(db).size() - dbBefore) / 1e6,
                gzip.seconds > 0 ? imported.seconds / gzip.seconds : 0);
    report("runs show",
           runChild({cli, QStringLiteral("runs"), QStringLiteral("show"), run, QStringLiteral("--db"), db}));
    const QString back = dir + QStringLiteral("/back.log");
    QFile::remove(back);
    report("runs show --source", runChild({cli, QStringLiteral("runs"), QStringLiteral("show"), run,
                                           QStringLiteral("--source"), back, QStringLiteral("--db"), db}));
    const bool same = QFileInfo(back).size() == QFileInfo(log).size();
    std::printf("  read back %s\n", same ? "whole (same size; its SHA-256 was checked)" : "NOT WHOLE");
    QFile::remove(back);
    return imported.exitCode == 0 && same ? 0 : 1;
}
