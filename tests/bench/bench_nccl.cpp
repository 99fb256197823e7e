// Benchmark (issue #8): parsing a ~100 MB nccl-tests log full of NCCL_DEBUG=INFO noise, streamed from
// the file in 1 MiB reads, against `grep -c busbw` over the same file in the same run.
//
//   pb_bench_nccl [FILE] [MB=100] [RUNS=5]
//
// FILE is (re)generated deterministically when absent or of another size; without FILE a temporary
// directory holds it. Runs are warm (page cache), alternating sides; the median is reported. Peak RSS
// (VmHWM) is read before and after parsing: the parser keeps rows, never text, so it must not grow
// with the file. Prints a summary and one JSON line.
#include "validation/Nccl.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace pb::validation;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// kB from /proc/self/status ("VmHWM:    12345 kB").
qint64 procStatusKb(const char* key) {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray k(key);
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith(k))
            return line.mid(k.size()).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

// A small deterministic generator (64-bit LCG), so every run writes the same bytes.
struct Lcg {
    quint64 s = 0x9E3779B97F4A7C15ull;
    quint32 next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<quint32>(s >> 33);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<quint32>(n)); }
};

constexpr int kRows = 32;             // 8 B .. 16 GiB
constexpr double kLastBusBw = 481.37; // out-of-place busbw of the 16 GiB row

void infoLine(QByteArray& out, Lcg& g) {
    const int node = g.below(2), dev = g.below(8), rank = node * 8 + dev;
    const int pid = 4100 + rank, tid = pid + 37 + g.below(3);
    char buf[512];
    int n = 0;
    const char* host = node ? "p5-48xl-node-b" : "p5-48xl-node-a";
    switch (g.below(12)) {
    case 0:
    case 1:
    case 2:
        n = std::snprintf(buf, sizeof buf,
                          "%s:%d:%d [%d] NCCL INFO Channel %02d/%d : %d[%d] -> %d[%d] via P2P/CUMEM/read\n",
                          host, pid, tid, dev, g.below(32), 32, rank, dev, node * 8 + (dev + 1) % 8,
                          (dev + 1) % 8);
        break;
    case 3:
    case 4:
        n = std::snprintf(buf, sizeof buf,
                          "%s:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/AWS "
                          "Libfabric/%d/GDRDMA/Shared\n",
                          host, pid, tid, dev, g.below(32), rank, dev, (rank + 8) % 16, dev, g.below(4));
        break;
    case 5:
        n = std::snprintf(buf, sizeof buf,
                          "%s:%d:%d [%d] NCCL INFO Connected all rings, use ring PXN 0 GDR 1\n", host, pid,
                          tid, dev);
        break;
    case 6:
        n = std::snprintf(buf, sizeof buf,
                          "%s:%d:%d [%d] NCCL INFO %d coll channels, %d collnet channels, 0 nvls channels, "
                          "%d p2p channels, %d p2p "
                          "channels per peer\n",
                          host, pid, tid, dev, 32, 0, 32, 4);
        break;
    case 7:
        n = std::snprintf(buf, sizeof buf,
                          "%s:%d:%d [%d] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct "
                          "(found %d nics)\n",
                          host, pid, tid, dev, 4);
        break;
    case 8:
        n = std::snprintf(buf, sizeof buf,
                          "%s:%d:%d [%d] NCCL INFO comm 0x%08x rank %d nRanks 16 nNodes 2 localRanks 8 "
                          "localRank %d MNNVL 0\n",
                          host, pid, tid, dev, g.next(), rank, dev);
        break;
    case 9:
        n = std::snprintf(buf, sizeof buf,
                          "%s:%d:%d [%d] NCCL INFO Trees [%d] %d/-1/-1->%d->%d [%d] %d/-1/-1->%d->%d\n", host,
                          pid, tid, dev, g.below(32), (rank + 1) % 16, rank, (rank + 15) % 16, g.below(32),
                          (rank + 2) % 16, rank, (rank + 14) % 16);
        break;
    case 10:
        n = std::snprintf(
            buf, sizeof buf,
            "%s:%d:%d [%d] NCCL INFO Allocated %d bytes of shared memory in /dev/shm/nccl-%06X\n", host, pid,
            tid, dev, 4194304 << g.below(3), g.next() & 0xFFFFFF);
        break;
    default:
        n = std::snprintf(buf, sizeof buf,
                          "%s:%d:%d [%d] NCCL INFO threadThresholds 8/8/64 | 128/8/64 | 512 | 512\n", host,
                          pid, tid, dev);
        break;
    }
    out.append(buf, n);
}

// Writes about `bytes` of log: preamble, device list and header, then the 32 rows spread evenly
// through INFO noise, then the footer.
void generate(const QString& path, qint64 bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::fprintf(stderr, "pb_bench_nccl: cannot write %s\n", qPrintable(path));
        std::exit(2);
    }
    Lcg g;
    QByteArray buf;
    buf.reserve(1 << 20);
    auto flush = [&](bool force) {
        if (force || buf.size() >= (1 << 20) - 1024) {
            f.write(buf);
            buf.clear();
        }
    };
    buf += "p5-48xl-node-a:4100:4100 [0] NCCL INFO NCCL version 2.26.2+cuda12.8\n"
           "p5-48xl-node-a:4100:4137 [0] NCCL INFO Using network AWS Libfabric\n"
           "# nccl-tests version 2.19.6 nccl-headers=22602 nccl-library=22602\n"
           "# Collective test starting: all_reduce_perf\n"
           "# nThread 1 nGpus 1 minBytes 8 maxBytes 17179869184 step: 2(factor) warmup iters: 5 iters: 20 "
           "agg iters: 1 validation: 1 "
           "graph: 0\n#\n# Using devices\n";
    for (int r = 0; r < 16; ++r) {
        char line[160];
        const int n = std::snprintf(
            line, sizeof line,
            "#  Rank %2d Group  0 Pid %6d on %s device %2d [0000:%02x:00] NVIDIA H100 80GB HBM3\n", r,
            4100 + r, r < 8 ? "p5-48xl-node-a" : "p5-48xl-node-b", r % 8, 0x53 + r % 8);
        buf.append(line, n);
    }
    buf += "#\n#                                                              out-of-place                   "
           "    in-place          \n"
           "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   "
           "algbw   busbw #wrong\n"
           "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  "
           "(GB/s)  (GB/s)       \n";
    const qint64 perRow = bytes / (kRows + 1);
    for (int i = 0; i < kRows; ++i) {
        const qint64 until = static_cast<qint64>(f.pos()) + buf.size() + perRow;
        while (static_cast<qint64>(f.pos()) + buf.size() < until) {
            infoLine(buf, g);
            flush(false);
        }
        const qint64 size = qint64(8) << i;
        // busbw climbs from latency-bound to the link limit; the last row is kLastBusBw.
        const double frac = double(i + 1) / kRows;
        const double busbw = i == kRows - 1 ? kLastBusBw : kLastBusBw * frac * frac * frac;
        const double algbw = busbw * 16.0 / 30.0;
        const double timeUs = algbw > 0 ? double(size) / (algbw * 1e3) : 70.0;
        char line[256];
        const int n = std::snprintf(
            line, sizeof line,
            "%12lld  %12lld  %8s  %6s  %6d  %7.1f  %6.2f  %6.2f  %6d  %7.1f  %6.2f  %6.2f  %6d\n",
            static_cast<long long>(size), static_cast<long long>(size / 4), "float", "sum", -1,
            std::max(timeUs, 60.0), algbw, busbw, 0, std::max(timeUs * 1.001, 60.0), algbw * 0.999,
            busbw * 0.999, 0);
        buf.append(line, n);
    }
    buf += "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 120.5 \n#\n# Collective test concluded: "
           "all_reduce_perf\n";
    while (static_cast<qint64>(f.pos()) + buf.size() < bytes) {
        infoLine(buf, g);
        flush(false);
    }
    flush(true);
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    QTemporaryDir tmp;
    const QString path = args.size() > 1 ? args.at(1) : tmp.filePath(QStringLiteral("nccl-info.log"));
    const qint64 mb = args.size() > 2 ? args.at(2).toLongLong() : 100;
    const int runs = args.size() > 3 ? std::max(1, args.at(3).toInt()) : 5;
    const qint64 want = mb * 1000 * 1000;

    QFileInfo fi(path);
    if (!fi.exists() || qAbs(fi.size() - want) > want / 50) {
        std::fprintf(stderr, "pb_bench_nccl: writing %lld MB to %s\n", static_cast<long long>(mb),
                     qPrintable(path));
        generate(path, want);
        fi.refresh();
    }
    const qint64 size = fi.size();
    const double mbytes = double(size) / 1e6;

    // Warm the page cache so both sides read from memory.
    {
        QFile f(path);
        if (f.open(QIODevice::ReadOnly)) {
            QByteArray b(1 << 20, Qt::Uninitialized);
            while (f.read(b.data(), b.size()) > 0) {
            }
        }
    }

    const qint64 hwmBefore = procStatusKb("VmHWM:");
    const qint64 rssBefore = procStatusKb("VmRSS:");
    std::vector<double> parseMs, grepMs;
    NcclResult last;
    QByteArray grepOut;
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer t;
        t.start();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return 2;
        NcclParser p;
        QByteArray buf(1 << 20, Qt::Uninitialized);
        qint64 n = 0;
        while ((n = f.read(buf.data(), buf.size())) > 0)
            p.feed(QByteArrayView(buf.constData(), n));
        last = p.finish();
        parseMs.push_back(double(t.nsecsElapsed()) / 1e6);

        QProcess grep;
        t.restart();
        grep.start(QStringLiteral("grep"), {QStringLiteral("-c"), QStringLiteral("busbw"), path});
        grep.waitForFinished(-1);
        grepMs.push_back(double(t.nsecsElapsed()) / 1e6);
        grepOut = grep.readAllStandardOutput().trimmed();
    }
    const qint64 hwmAfter = procStatusKb("VmHWM:");

    const bool correct = int(last.rows.size()) == kRows && qAbs(last.lastOopBusBw() - kLastBusBw) < 0.005 &&
                         last.netPlugin == QLatin1String("AWS Libfabric") && last.ranks == 16;
    const double pm = median(parseMs), gm = median(grepMs);
    const double mbps = mbytes / (pm / 1000.0), grepMbps = mbytes / (gm / 1000.0);
    std::printf("machine: %s, %d cores (%s)\n", qPrintable(QSysInfo::prettyProductName()),
                QThread::idealThreadCount(), qPrintable(QSysInfo::currentCpuArchitecture()));
    std::printf("log: %.1f MB, %lld lines, %zu rows, last-row busbw %.2f GB/s, network '%s' (%s)\n", mbytes,
                static_cast<long long>(last.lines), last.rows.size(), last.lastOopBusBw(),
                qPrintable(last.netPlugin), correct ? "as generated" : "WRONG");
    std::printf("parse (1 MiB reads): median %.1f ms over %d runs = %.0f MB/s (goal >= 200 MB/s)\n", pm, runs,
                mbps);
    std::printf("grep -c busbw:       median %.1f ms = %.0f MB/s (count %s)\n", gm, grepMbps,
                grepOut.constData());
    std::printf("ratio parse/grep time: %.2fx\n", pm / gm);
    std::printf(
        "peak RSS (VmHWM): %lld kB before parsing, %lld kB after %d parses of %.0f MB (RSS before %lld kB)\n",
        static_cast<long long>(hwmBefore), static_cast<long long>(hwmAfter), runs, mbytes,
        static_cast<long long>(rssBefore));
    std::printf("{\"bench\":\"nccl-parse\",\"bytes\":%lld,\"lines\":%lld,\"runs\":%d,\"parseMs\":%.2f,"
                "\"parseMBps\":%.1f,"
                "\"grepMs\":%.2f,\"grepMBps\":%.1f,\"ratio\":%.3f,\"hwmBeforeKb\":%lld,\"hwmAfterKb\":%lld,"
                "\"correct\":%s}\n",
                static_cast<long long>(size), static_cast<long long>(last.lines), runs, pm, mbps, gm,
                grepMbps, pm / gm, static_cast<long long>(hwmBefore), static_cast<long long>(hwmAfter),
                correct ? "true" : "false");
    return correct ? 0 : 1;
}
