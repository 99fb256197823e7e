// Performance result parsers and AICR scoring: the saved real outputs under ../shared/data/perf give
// the figures their READMEs state, and fixtures under tests/fixtures/perf cover each quirk on its own.
#include "TestUtil.h"

#include "validation/Inference.h"
#include "validation/Nccl.h"
#include "validation/Runner.h"
#include "validation/Score.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace pb;
using namespace pb::validation;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

catalog::Constraint constraint(const QString& name, const QString& value) {
    catalog::Constraint c;
    c.name = name;
    c.value = value;
    return c;
}

NcclResult ncclWithLastBusBw(double busbw) {
    NcclResult r;
    NcclRow row;
    row.sizeBytes = 17179869184;
    row.oopBusBw = busbw;
    row.ipBusBw = busbw;
    r.rows.push_back(row);
    return r;
}

bool near(double a, double b, double tol) {
    return qAbs(a - b) <= tol;
}

// Everything a parse yields, as one comparable string.
QString describe(const NcclResult& r) {
    QStringList out;
    for (const NcclRow& row : r.rows)
        out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12 %13")
                   .arg(row.sizeBytes)
                   .arg(row.count)
                   .arg(row.type, row.redop)
                   .arg(row.root)
                   .arg(row.oopTimeUs)
                   .arg(row.oopAlgBw)
                   .arg(row.oopBusBw)
                   .arg(row.ipTimeUs)
                   .arg(row.ipAlgBw)
                   .arg(row.ipBusBw)
                   .arg(row.oopWrong, row.ipWrong);
    out << r.collective << r.ncclVersion << r.testsVersion << QString::number(r.ranks)
        << (r.footerAvgBusBw ? QString::number(*r.footerAvgBusBw) : QStringLiteral("none")) << r.footerCheck
        << QString::number(r.computedAvgBusBw, 'g', 12) << r.netPlugin << QString::number(r.nvlsMulticast)
        << QString::number(r.nvlsComm) << QString::number(r.lines) << QString::number(r.bytes)
        << QString::number(r.longLinesSkipped) << QString::number(r.headerFound);
    return out.join(QLatin1Char('\n'));
}

const char* kNcclFixtures[] = {"nccl-crlf-h200-2node.txt",  "nccl-openmpi-tag-output.txt",
                               "nccl-old-noroot-error.txt", "nccl-per-iteration-cputime-na.txt",
                               "nccl-info-net-nvls.txt",    "nccl-info-socket-slurm.txt",
                               "nccl-no-table.txt",         "nccl-header-no-rows.txt"};

} // namespace

class TestPerf : public QObject {
    Q_OBJECT

  private slots:
    // ---- NCCL: the saved real outputs -------------------------------------------------------------
    void ncclShared_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("rows");
        QTest::addColumn<double>("lastBusBw");
        QTest::addColumn<qint64>("lastSize");
        QTest::addColumn<double>("footer");   // -1: no footer
        QTest::addColumn<double>("computed"); // mean of every busbw, both halves
        QTest::addColumn<double>("peak");
        QTest::addColumn<int>("ranks"); // -1: not evident from the file
        QTest::addColumn<QString>("ncclVersion");
        QTest::addRow("01 GB200 NVL72") << "01-gb200-nvl72-single-rack-72gpu-nvls.txt" << 5 << 834.57
                                        << qint64(8589934592) << 745.53 << 745.53 << 846.82 << 72 << "";
        QTest::addRow("02 H100 MPIJob, elided")
            << "02-h100-64gpu-8node-mpijob-launcher.txt" << 5 << 386.56 << qint64(8589934592) << 373.187
            << 373.187 << 386.56 << -1 << "";
        QTest::addRow("03 H100 A3 Mega, full sweep")
            << "03-h100-16gpu-2node-gcp-a3mega-mpirun.txt" << 31 << 338.82 << qint64(8589934592) << 70.742
            << 70.742 << 338.82 << 16 << "";
        QTest::addRow("04 A100 OKE, ssh noise")
            << "04-a100-16gpu-2node-oke-mpijob-launcher.txt" << 2 << 180.06 << qint64(10737418240) << 175.531
            << 175.531 << 180.08 << 16 << "2.14.3";
        QTest::addRow("05 H100 p5, Slurm labels, no footer")
            << "05-h100-16gpu-2node-aws-p5-slurm-labelled-nofooter.txt" << 32 << 487.09 << qint64(17179869184)
            << -1.0 << 124.54 << 487.26 << -1 << "";
    }
    void ncclShared() {
        QFETCH(QString, file);
        QFETCH(int, rows);
        QFETCH(double, lastBusBw);
        QFETCH(qint64, lastSize);
        QFETCH(double, footer);
        QFETCH(double, computed);
        QFETCH(double, peak);
        QFETCH(int, ranks);
        QFETCH(QString, ncclVersion);
        PB_REQUIRE_SHARED(QStringLiteral("perf/nccl/") + file);
        const auto r = parseNcclFile(pbtest::sharedData(QStringLiteral("perf/nccl/") + file));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QCOMPARE(int(r->rows.size()), rows);
        QCOMPARE(r->lastOopBusBw(), lastBusBw);
        QCOMPARE(r->lastSizeBytes(), lastSize);
        if (footer < 0) {
            QVERIFY(!r->footerAvgBusBw.has_value());
        } else {
            QVERIFY(r->footerAvgBusBw.has_value());
            QCOMPARE(*r->footerAvgBusBw, footer);
        }
        QVERIFY2(near(r->computedAvgBusBw, computed, 0.01),
                 qPrintable(QString::number(r->computedAvgBusBw, 'f', 4)));
        QCOMPARE(r->peakBusBw(), peak);
        if (ranks >= 0)
            QCOMPARE(r->ranks, ranks);
        QCOMPARE(r->ncclVersion, ncclVersion);
        QCOMPARE(r->rows.front().type, QStringLiteral("float"));
        QCOMPARE(r->rows.front().redop, QStringLiteral("sum"));
        QCOMPARE(r->rows.front().root, qint64(-1));
        QCOMPARE(r->longLinesSkipped, qint64(0));
        // No INFO lines in these: no transport markers.
        QVERIFY(r->netPlugin.isEmpty());
        QVERIFY(!r->nvlsMulticast && !r->nvlsComm);
    }

    void ncclSharedRowDetails() {
        PB_REQUIRE_SHARED(QStringLiteral("perf/nccl/01-gb200-nvl72-single-rack-72gpu-nvls.txt"));
        const auto r = parseNcclFile(
            pbtest::sharedData(QStringLiteral("perf/nccl/01-gb200-nvl72-single-rack-72gpu-nvls.txt")));
        QVERIFY(r.ok());
        const NcclRow& first = r->rows.front();
        QCOMPARE(first.sizeBytes, qint64(536870912));
        QCOMPARE(first.count, qint64(134217728));
        QCOMPARE(first.oopTimeUs, 1806.7);
        QCOMPARE(first.oopAlgBw, 297.16);
        QCOMPARE(first.ipTimeUs, 1835.9);
        QCOMPARE(first.ipBusBw, 576.74);
        QCOMPARE(first.oopWrong, QStringLiteral("0"));
        QCOMPARE(r->rows.back().oopTimeUs, 20299.0); // integer spelling of a float column
        QCOMPARE(r->footerCheck, QString());
    }

    // ---- NCCL: one fixture per quirk --------------------------------------------------------------
    void ncclFixtures_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("rows");
        QTest::addColumn<double>("lastBusBw");
        QTest::addColumn<qint64>("lastSize");
        QTest::addColumn<double>("footer");
        QTest::addColumn<QString>("footerCheck");
        QTest::addColumn<double>("computed");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<QString>("netPlugin");
        QTest::addColumn<bool>("nvlsMulticast");
        QTest::addColumn<bool>("nvlsComm");
        QTest::addColumn<QString>("ncclVersion");
        QTest::addColumn<QString>("testsVersion");
        QTest::addColumn<QString>("collective");
        QTest::addRow("CRLF") << "nccl-crlf-h200-2node.txt" << 6 << 342.97 << qint64(1073741824) << 160.886
                              << "" << 160.8858 << 16 << "" << false << false << ""
                              << "2.19.6"
                              << "all_reduce_perf";
        QTest::addRow("OpenMPI [1,0]<stdout>: prefix")
            << "nccl-openmpi-tag-output.txt" << 5 << 294.16 << qint64(2147483648) << 261.829 << "" << 261.829
            << 16 << "" << false << false << ""
            << ""
            << "";
        QTest::addRow("old: no root, error column")
            << "nccl-old-noroot-error.txt" << 9 << 19.57 << qint64(134217728) << 7.70167 << "" << 7.70167 << 8
            << "" << false << false << ""
            << ""
            << "";
        QTest::addRow("-I 1, -C 1, -c 0, -S 1, e notation")
            << "nccl-per-iteration-cputime-na.txt" << 5 << 68.34 << qint64(4294967296) << 138.464 << "FAILED"
            << 138.464 << 0 << "" << false << false << ""
            << "2.19.6"
            << "all_reduce_perf";
        QTest::addRow("INFO: libfabric, NVLS, timestamps")
            << "nccl-info-net-nvls.txt" << 3 << 641.45 << qint64(17179869184) << 607.158 << "" << 607.1583
            << 8 << "AWS Libfabric" << true << true << "2.27.3"
            << "2.19.6"
            << "all_reduce_perf";
        QTest::addRow("INFO: Socket, NVLS without comm, Slurm")
            << "nccl-info-socket-slurm.txt" << 2 << 22.77 << qint64(1073741824) << 22.6575 << "" << 22.6575
            << 0 << "Socket" << true << false << "2.21.5"
            << ""
            << "";
    }
    void ncclFixtures() {
        QFETCH(QString, file);
        QFETCH(int, rows);
        QFETCH(double, lastBusBw);
        QFETCH(qint64, lastSize);
        QFETCH(double, footer);
        QFETCH(QString, footerCheck);
        QFETCH(double, computed);
        QFETCH(int, ranks);
        QFETCH(QString, netPlugin);
        QFETCH(bool, nvlsMulticast);
        QFETCH(bool, nvlsComm);
        QFETCH(QString, ncclVersion);
        QFETCH(QString, testsVersion);
        QFETCH(QString, collective);
        const auto r = parseNcclFile(pbtest::fixture(QStringLiteral("perf/") + file));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QCOMPARE(int(r->rows.size()), rows);
        QCOMPARE(r->lastOopBusBw(), lastBusBw);
        QCOMPARE(r->lastSizeBytes(), lastSize);
        QVERIFY(r->footerAvgBusBw.has_value());
        QCOMPARE(*r->footerAvgBusBw, footer);
        QCOMPARE(r->footerCheck, footerCheck);
        QVERIFY2(near(r->computedAvgBusBw, computed, 0.001),
                 qPrintable(QString::number(r->computedAvgBusBw, 'f', 4)));
        QVERIFY(near(r->computedAvgBusBw, footer, 0.01));
        QCOMPARE(r->ranks, ranks);
        QCOMPARE(r->netPlugin, netPlugin);
        QCOMPARE(r->nvlsMulticast, nvlsMulticast);
        QCOMPARE(r->nvlsComm, nvlsComm);
        QCOMPARE(r->ncclVersion, ncclVersion);
        QCOMPARE(r->testsVersion, testsVersion);
        QCOMPARE(r->collective, collective);
        QVERIFY(r->headerFound);
    }

    void ncclQuirkDetails() {
        // Old layout: no root column (root stays -1), error values kept as printed, e notation in time.
        auto old = parseNcclFile(pbtest::fixture(QStringLiteral("perf/nccl-old-noroot-error.txt")));
        QVERIFY(old.ok());
        QCOMPARE(old->rows.front().oopWrong, QStringLiteral("1e-07"));
        QCOMPARE(old->rows.back().oopTimeUs, 12000.0);
        QCOMPARE(old->rows.back().ipWrong, QStringLiteral("0e+00"));
        QCOMPARE(old->peakBusBw(), 28.79);
        // -I 1 / -c 0: N/A in #wrong, per-iteration columns skipped by name, bfloat16, e notation.
        auto iter = parseNcclFile(pbtest::fixture(QStringLiteral("perf/nccl-per-iteration-cputime-na.txt")));
        QVERIFY(iter.ok());
        const NcclRow& last = iter->rows.back();
        QCOMPARE(last.type, QStringLiteral("bfloat16"));
        QCOMPARE(last.oopWrong, QStringLiteral("N/A"));
        QCOMPARE(last.ipWrong, QStringLiteral("N/A"));
        QCOMPARE(last.oopTimeUs, 1.1e5);
        QCOMPARE(last.oopAlgBw, 39.05);
        QCOMPARE(last.ipAlgBw, 39.10);
        QCOMPARE(last.ipBusBw, 68.43);
        QCOMPARE(iter->rows.front().oopBusBw, 114.62);
        QCOMPARE(iter->peakBusBw(), 176.35);
        // An INFO line between two data rows does not break the table.
        auto info = parseNcclFile(pbtest::fixture(QStringLiteral("perf/nccl-info-net-nvls.txt")));
        QVERIFY(info.ok());
        QCOMPARE(info->rows.at(1).sizeBytes, qint64(4294967296));
    }

    void ncclChunkBoundaries_data() {
        QTest::addColumn<QString>("path");
        for (const char* f : kNcclFixtures)
            QTest::addRow("%s", f) << pbtest::fixture(QStringLiteral("perf/") + QLatin1String(f));
        QTest::addRow("shared 03") << pbtest::sharedData(
            QStringLiteral("perf/nccl/03-h100-16gpu-2node-gcp-a3mega-mpirun.txt"));
        QTest::addRow("shared 05") << pbtest::sharedData(
            QStringLiteral("perf/nccl/05-h100-16gpu-2node-aws-p5-slurm-labelled-nofooter.txt"));
    }
    void ncclChunkBoundaries() {
        QFETCH(QString, path);
        if (!QFileInfo::exists(path))
            QSKIP(qPrintable(QStringLiteral("%1 not found (shared data absent); skipping").arg(path)));
        const QByteArray bytes = readAll(path);
        QVERIFY(!bytes.isEmpty());
        NcclParser whole;
        whole.feed(bytes);
        const QString expected = describe(whole.finish());

        NcclParser bytewise;
        for (qsizetype i = 0; i < bytes.size(); ++i)
            bytewise.feed(QByteArrayView(bytes.constData() + i, 1));
        QCOMPARE(describe(bytewise.finish()), expected);

        // Two chunks, split at every offset (inside lines, CRLF pairs, numbers).
        for (qsizetype cut = 0; cut <= bytes.size(); ++cut) {
            NcclParser p;
            p.feed(QByteArrayView(bytes.constData(), cut));
            p.feed(QByteArrayView(bytes.constData() + cut, bytes.size() - cut));
            const QString got = describe(p.finish());
            if (got != expected)
                QFAIL(qPrintable(QStringLiteral("split at byte %1 differs").arg(cut)));
        }
    }

    void ncclLongLines() {
        const QByteArray table = readAll(pbtest::fixture(QStringLiteral("perf/nccl-openmpi-tag-output.txt")));
        QVERIFY(!table.isEmpty());
        // A 100 KiB line (a stack dump, base64 blob...) before the table, one exactly at the limit, one
        // unterminated at the end.
        QByteArray log = "node1:1:1 [0] NCCL INFO " + QByteArray(100 * 1024, 'x') + "\n";
        log += QByteArray(NcclParser::kMaxLine, 'y') + "\n";
        log += table;
        log += QByteArray(NcclParser::kMaxLine + 1, 'z');
        const auto whole = parseNccl(log, QStringLiteral("long.log"));
        QVERIFY(whole.ok());
        QCOMPARE(whole->longLinesSkipped, qint64(2));
        QCOMPARE(int(whole->rows.size()), 5);
        QCOMPARE(whole->lastOopBusBw(), 294.16);
        for (qsizetype chunk : {qsizetype(1000), qsizetype(4096), qsizetype(65536), qsizetype(70000)}) {
            NcclParser p;
            for (qsizetype i = 0; i < log.size(); i += chunk)
                p.feed(QByteArrayView(log.constData() + i, std::min(chunk, log.size() - i)));
            QCOMPARE(describe(p.finish()), describe(*whole));
        }
    }

    // Issue 26: a log of repeated sweeps keeps one row per message size (the newest figures), and the
    // log's last row last; the count of rows read and of repeats is kept.
    void ncclRepeatedSweepsKeepOneRowPerSize() {
        QByteArray log =
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
            "time   algbw   busbw #wrong\n";
        auto row = [](qint64 size, double busbw) {
            return QByteArray::number(size) + " " + QByteArray::number(size / 4) + " float sum -1 1.0 " +
                   QByteArray::number(busbw / 2, 'f', 2) + " " + QByteArray::number(busbw, 'f', 2) +
                   " 0 1.0 " + QByteArray::number(busbw / 2, 'f', 2) + " " +
                   QByteArray::number(busbw, 'f', 2) + " 0\n";
        };
        for (int sweep = 0; sweep < 3; ++sweep)
            for (int i = 0; i < 20; ++i)
                log += row(qint64(1024) << i, 10.0 * (i + 1) + sweep);
        const auto r = parseNccl(log, QStringLiteral("sweeps.txt"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QCOMPARE(r->rows.size(), size_t(20));
        QCOMPARE(r->rowsRead, qint64(60));
        QCOMPARE(r->repeatedRows, qint64(40));
        QCOMPARE(r->decimation, 1);
        for (int i = 0; i < 20; ++i) {
            QCOMPARE(r->rows[size_t(i)].sizeBytes, qint64(1024) << i); // first-seen order
            QCOMPARE(r->rows[size_t(i)].oopBusBw, 10.0 * (i + 1) + 2); // the newest sweep's figures
        }
        QCOMPARE(r->lastOopBusBw(), 202.0);
        // The mean is over every row read, repeats included.
        double sum = 0;
        for (int sweep = 0; sweep < 3; ++sweep)
            for (int i = 0; i < 20; ++i)
                sum += 2 * (10.0 * (i + 1) + sweep);
        QCOMPARE(r->computedAvgBusBw, sum / 120);

        // A last row that repeats an early size is still the last row (AICR reads the last one).
        const auto tail = parseNccl(log + row(2048, 77.0), QStringLiteral("tail.txt"));
        QVERIFY(tail.ok());
        QCOMPARE(tail->rows.size(), size_t(20));
        QCOMPARE(tail->rows.back().sizeBytes, qint64(2048));
        QCOMPARE(tail->lastOopBusBw(), 77.0);
    }

    // More distinct sizes than NcclResult::kMaxRows: the rows are thinned, the first and the last kept,
    // memory bounded whatever the log's length.
    void ncclDistinctSizesAreThinned() {
        NcclParser p;
        p.feed("#       size         count      type   redop    root     time   algbw   busbw #wrong     "
               "time   algbw   busbw #wrong\n");
        const int n = 100000;
        for (int i = 1; i <= n; ++i) {
            const QByteArray b = QByteArray::number(i % 997 + 1, 'f', 2);
            p.feed(QByteArray::number(qint64(i) * 8) + " " + QByteArray::number(i * 2) +
                   " float sum -1 1.0 " + b + " " + b + " 0 1.0 " + b + " " + b + " 0\n");
        }
        const NcclResult r = p.finish();
        QCOMPARE(r.rowsRead, qint64(n));
        QVERIFY2(r.rows.size() <= size_t(NcclResult::kMaxRows) + 1,
                 qPrintable(QString::number(r.rows.size())));
        QVERIFY(r.rows.size() >= size_t(NcclResult::kMaxRows) / 2);
        QCOMPARE(r.decimation, 8); // 100,000 sizes into at most 16,384 rows
        QCOMPARE(r.rows.front().sizeBytes, qint64(8));
        QCOMPARE(r.rows.back().sizeBytes, qint64(n) * 8);
        for (size_t i = 1; i + 1 < r.rows.size(); ++i)
            QVERIFY(r.rows[i].sizeBytes > r.rows[i - 1].sizeBytes);
    }

    void ncclWithoutHeader() {
        // The header rotated out of the log (AICR re-reads such logs): rows in the standard layout still
        // count.
        const QByteArray log = "   536870912     134217728     float     sum      -1   2984.6  179.88  "
                               "356.01      0   2979.7  180.18  356.60      0\n"
                               "  1073741824     268435456     float     sum      -1   5808.0  184.87  "
                               "365.90      0   5882.2  182.54  361.28      0\n";
        const auto r = parseNccl(log, QStringLiteral("tail.log"));
        QVERIFY(r.ok());
        QCOMPARE(int(r->rows.size()), 2);
        QCOMPARE(r->lastOopBusBw(), 365.90);
        QVERIFY(!r->headerFound);
    }

    void ncclErrors() {
        const QString noTable = pbtest::fixture(QStringLiteral("perf/nccl-no-table.txt"));
        const auto a = parseNcclFile(noTable);
        QVERIFY(!a.ok());
        QCOMPARE(a.error().file, noTable);
        QVERIFY2(a.error().toString().contains(QLatin1String("no nccl-tests result table")),
                 qPrintable(a.error().toString()));
        QVERIFY(a.error().message.contains(QLatin1String("busbw")));

        const auto b = parseNcclFile(pbtest::fixture(QStringLiteral("perf/nccl-header-no-rows.txt")));
        QVERIFY(!b.ok());
        QVERIFY2(b.error().message.contains(QLatin1String("header but no data rows")),
                 qPrintable(b.error().toString()));

        const auto c = parseNcclFile(QStringLiteral("/nonexistent/nccl.log"));
        QVERIFY(!c.ok());
        QCOMPARE(c.error().file, QStringLiteral("/nonexistent/nccl.log"));

        const auto d = parseNccl(QByteArrayView(), QStringLiteral("empty.log"));
        QVERIFY(!d.ok());
        QVERIFY(d.error().toString().startsWith(QLatin1String("empty.log: ")));
    }

    // ---- Inference: the saved real reports --------------------------------------------------------
    void inferenceShared_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("format");
        QTest::addColumn<double>("throughput");
        QTest::addColumn<double>("ttftP99");
        QTest::addColumn<double>("tol");
        QTest::addColumn<QString>("extra"); // "field=value" figures the README states
        QTest::addRow("aiperf 0.8.0 json")
            << "aiperf-0.8.0_profile_export_aiperf.json"
            << "aiperf"
            << "aiperf-json" << 343421.899 << 36193.818 << 0.001
            << "requestLatency.p99=54340.439 itl.p50=46.222 errors=18586 version=0.8.0";
        QTest::addRow("aiperf 0.8.0 csv") << "aiperf-0.8.0_profile_export_aiperf.csv"
                                          << "aiperf"
                                          << "aiperf-csv" << 343421.90 << 36193.82 << 0.001
                                          << "requestLatency.p99=54340.44 itl.p50=46.22 errors=18586";
        QTest::addRow("aiperf records json")
            << "aiperf-legacy-records_profile_export_aiperf.json"
            << "aiperf"
            << "aiperf-records-json" << 2320.72 << 3833.389 << 0.005
            << "itl.avg=27.763 requestLatency.p99=9297.610 errors=11 requests=89";
        QTest::addRow("aiperf records csv") << "aiperf-legacy-records_profile_export_aiperf.csv"
                                            << "aiperf"
                                            << "aiperf-csv" << 2320.72 << 3833.39 << 0.001
                                            << "itl.avg=27.76 requestLatency.p99=9297.61 errors=11";
        QTest::addRow("genai-perf csv")
            << "genai-perf_profile_export_genai_perf.csv"
            << "genai-perf"
            << "genai-perf-csv" << 261.25 << 3457.97 << 0.001 << "itl.avg=30.35 ttft.avg=1146.31 requests=40";
        QTest::addRow("inference-perf stage 0")
            << "inference-perf_stage_0_lifecycle_metrics.json"
            << "inference-perf"
            << "inference-perf-json" << 62.154 << 42.515 << 0.001 << "ttft.p90=38.978 errors=0";
        QTest::addRow("inference-perf summary")
            << "inference-perf_summary_lifecycle_metrics.json"
            << "inference-perf"
            << "inference-perf-json" << 4646.50 << 2740.0 << 0.5
            << "ttft.p50=2106 ttft.p90=2358 requestLatency.p99=4381 requests=47002 errors=0";
    }
    void inferenceShared() {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, format);
        QFETCH(double, throughput);
        QFETCH(double, ttftP99);
        QFETCH(double, tol);
        QFETCH(QString, extra);
        PB_REQUIRE_SHARED(QStringLiteral("perf/inference/") + file);
        const auto k = perfKindFromName(kind);
        QVERIFY(k.has_value());
        const auto r = parseInferenceFile(pbtest::sharedData(QStringLiteral("perf/inference/") + file), *k);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QCOMPARE(r->format, format);
        QCOMPARE(r->kind, *k);
        QVERIFY(r->outputTokensPerSec.has_value());
        QVERIFY2(near(*r->outputTokensPerSec, throughput, tol),
                 qPrintable(QString::number(*r->outputTokensPerSec, 'f', 4)));
        QVERIFY(r->ttftMs.p99.has_value());
        QVERIFY2(near(*r->ttftMs.p99, ttftP99, tol), qPrintable(QString::number(*r->ttftMs.p99, 'f', 4)));
        for (const QString& kv : extra.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString key = kv.section(QLatin1Char('='), 0, 0);
            const QString value = kv.section(QLatin1Char('='), 1);
            std::optional<double> got;
            if (key == QLatin1String("version")) {
                QCOMPARE(r->toolVersion, value);
                continue;
            }
            if (key == QLatin1String("errors"))
                got = r->errors ? std::optional<double>(double(*r->errors)) : std::nullopt;
            else if (key == QLatin1String("requests"))
                got = r->requests ? std::optional<double>(double(*r->requests)) : std::nullopt;
            else {
                const Distribution* d = key.startsWith(QLatin1String("itl."))    ? &r->itlMs
                                        : key.startsWith(QLatin1String("ttft.")) ? &r->ttftMs
                                                                                 : &r->requestLatencyMs;
                const QString stat = key.section(QLatin1Char('.'), 1);
                got = stat == QLatin1String("avg")   ? d->avg
                      : stat == QLatin1String("p50") ? d->p50
                      : stat == QLatin1String("p90") ? d->p90
                                                     : d->p99;
            }
            QVERIFY2(got.has_value(), qPrintable(key));
            QVERIFY2(near(*got, value.toDouble(), tol),
                     qPrintable(QStringLiteral("%1: %2").arg(key).arg(*got, 0, 'f', 4)));
        }
    }

    void inferenceSharedPrometheus() {
        // The server-side report has latencies but no throughput; it still reads (seconds -> ms).
        PB_REQUIRE_SHARED(QStringLiteral("perf/inference/inference-perf_stage_0_prometheus_metrics.json"));
        const auto r =
            parseInferenceFile(pbtest::sharedData(QStringLiteral(
                                   "perf/inference/inference-perf_stage_0_prometheus_metrics.json")),
                               PerfKind::InferencePerf);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QVERIFY(!r->outputTokensPerSec);
        QVERIFY(r->ttftMs.p99 && near(*r->ttftMs.p99, 4860.404, 0.001));
        QVERIFY(r->ttftMs.p50 && near(*r->ttftMs.p50, 1151.869, 0.001));
    }

    // ---- Inference: fixtures ------------------------------------------------------------------------
    void inferenceGenaiCrlfThousands() {
        const auto r = parseInferenceFile(
            pbtest::fixture(QStringLiteral("perf/genai-perf-crlf-thousands.csv")), PerfKind::GenAIPerf);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QCOMPARE(r->format, QStringLiteral("genai-perf-csv"));
        QCOMPARE(*r->outputTokensPerSec, 1332.48);
        QCOMPARE(*r->requestsPerSec, 5.32);
        QCOMPARE(*r->requests, qint64(128));
        QCOMPARE(*r->ttftMs.avg, 2204.10);
        QCOMPARE(*r->ttftMs.max, 4918.40);
        QCOMPARE(*r->ttftMs.p99, 4870.02);
        QCOMPARE(*r->ttftMs.p50, 1876.54);
        QCOMPARE(*r->requestLatencyMs.p90, 15204.99);
        QCOMPARE(*r->itlMs.p95, 48.93);
    }

    void inferenceAllFailed() {
        const auto r = parseInferenceFile(pbtest::fixture(QStringLiteral("perf/aiperf-all-failed.json")),
                                          PerfKind::AIPerf);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QCOMPARE(*r->errors, qint64(512));
        QVERIFY(!r->outputTokensPerSec);
        QVERIFY(r->ttftMs.empty());
        QCOMPARE(*r->durationSec, 30.25);
        // Scoring it fails with the reason rather than crashing.
        const CheckScore s =
            scoreInference(QStringLiteral("inference-perf"), *r,
                           {constraint(QStringLiteral("inference-throughput"), QStringLiteral(">= 50000"))});
        QCOMPARE(s.verdict, Verdict::Failed);
        QVERIFY2(s.message.contains(QLatin1String("512 requests failed")), qPrintable(s.message));

        // inference-perf: no successes, only failures.
        const QByteArray ip =
            R"({"load_summary":{"count":5,"send_duration":5.0},"successes":{"count":0,"latency":{},"throughput":{}},
                                 "failures":{"count":5,"request_latency":null}})";
        const auto q =
            parseInference(ip, PerfKind::InferencePerf, QStringLiteral("summary_lifecycle_metrics.json"));
        QVERIFY2(q.ok(), qPrintable(q.ok() ? QString() : q.error().toString()));
        QCOMPARE(*q->errors, qint64(5));
        QVERIFY(!q->outputTokensPerSec);
    }

    void inferenceErrors() {
        const QString missing = pbtest::fixture(QStringLiteral("perf/aiperf-missing-throughput.json"));
        const auto a = parseInferenceFile(missing, PerfKind::AIPerf);
        QVERIFY(!a.ok());
        QCOMPARE(a.error().toString(), missing + QStringLiteral(": output_token_throughput.avg: missing"));

        const auto b =
            parseInference(R"({"successes":{"count":3,"latency":{},"throughput":{}}})",
                           PerfKind::InferencePerf, QStringLiteral("summary_lifecycle_metrics.json"));
        QVERIFY(!b.ok());
        QCOMPARE(b.error().toString(),
                 QStringLiteral(
                     "summary_lifecycle_metrics.json: successes.throughput.output_tokens_per_sec: missing"));

        const auto c = parseInference(R"({"output_token_throughput": {"unit": "tokens/sec", "avg": "fast"}})",
                                      PerfKind::AIPerf, QStringLiteral("profile_export_aiperf.json"));
        QVERIFY(!c.ok());
        QCOMPARE(c.error().toString(),
                 QStringLiteral("profile_export_aiperf.json: output_token_throughput.avg: must be a number"));

        const auto d = parseInference(
            R"({"output_token_throughput": {"avg": 10}, "time_to_first_token": {"unit": "furlongs", "p99": 1}})",
            PerfKind::AIPerf, QStringLiteral("x.json"));
        QVERIFY(!d.ok());
        QCOMPARE(d.error().field, QStringLiteral("time_to_first_token.unit"));

        const auto e = parseInference("{\"truncated\": ", PerfKind::GenAIPerf, QStringLiteral("g.json"));
        QVERIFY(!e.ok());
        QVERIFY(e.error().message.startsWith(QLatin1String("invalid JSON")));

        const auto f =
            parseInference("Metric,Value\nsomething", PerfKind::InferencePerf, QStringLiteral("i.csv"));
        QVERIFY(!f.ok());

        const auto g = parseInference("Time,To\n1,2\n", PerfKind::AIPerf, QStringLiteral("a.csv"));
        QVERIFY(!g.ok());
        QCOMPARE(g.error().line, 1);

        const auto h = parseInference("{}", PerfKind::Nccl, QStringLiteral("n.log"));
        QVERIFY(!h.ok());
    }

    void inferenceUnitsConverted() {
        // A report that states seconds is converted; GenAI-Perf JSON shares AIPerf's keys.
        const auto r = parseInference(R"({"output_token_throughput": {"unit": "tokens/sec", "avg": 900.5},
                                          "time_to_first_token": {"unit": "s", "avg": 0.25, "p50": 0.2, "p99": 1.5},
                                          "inter_token_latency": {"unit": "ns", "avg": 12000000}})",
                                      PerfKind::GenAIPerf, QStringLiteral("profile_export_genai_perf.json"));
        QVERIFY(r.ok());
        QCOMPARE(r->format, QStringLiteral("genai-perf-json"));
        QCOMPARE(*r->ttftMs.p99, 1500.0);
        QCOMPARE(*r->ttftMs.p50, 200.0);
        QCOMPARE(*r->itlMs.avg, 12.0);
    }

    void extractAiperfBlockFromPodLog() {
        const QByteArray log = readAll(pbtest::fixture(QStringLiteral("perf/aicr-inference-pod.log")));
        QVERIFY(!log.isEmpty());
        const auto block = extractAiperfBlock(log);
        QVERIFY(block.has_value());
        QVERIFY(block->startsWith('{'));
        QVERIFY(block->endsWith('}'));
        const auto r = parseInference(*block, PerfKind::AIPerf, QStringLiteral("pod log"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QCOMPARE(*r->outputTokensPerSec, 118402.25);
        QCOMPARE(*r->ttftMs.p99, 1733.44);
        QCOMPARE(*r->errors, qint64(0));

        // The last block wins; CRLF logs work; one marker alone is no block.
        QByteArray two = "===AIPERF-RESULT===\r\n{\"a\":1}\r\n===AIPERF-RESULT===\r\n" + log;
        QCOMPARE(extractAiperfBlock(two), block);
        QVERIFY(!extractAiperfBlock("no markers here\n"));
        QVERIFY(!extractAiperfBlock("x\n===AIPERF-RESULT===\n{\"cut\": "));
        QCOMPARE(extractAiperfBlock("===AIPERF-RESULT===\r\n{\"a\":1}\r\n===AIPERF-RESULT===\r\n"),
                 QByteArray("{\"a\":1}"));
    }

    void perfKindNames() {
        for (PerfKind k : {PerfKind::Nccl, PerfKind::AIPerf, PerfKind::GenAIPerf, PerfKind::InferencePerf})
            QCOMPARE(perfKindFromName(perfKindName(k)), std::optional<PerfKind>(k));
        QCOMPARE(perfKindName(PerfKind::GenAIPerf), QStringLiteral("genai-perf"));
        QVERIFY(!perfKindFromName(QStringLiteral("iperf")));
    }

    // ---- Scoring -------------------------------------------------------------------------------------
    void thresholds_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("isThreshold");
        QTest::addColumn<QString>("op");
        QTest::addColumn<double>("number");
        QTest::addColumn<double>("tolerance");
        QTest::addRow("floor") << ">= 300" << true << ">=" << 300.0 << 0.9;
        QTest::addRow("floor with unit") << ">= 300 GB/s" << true << ">=" << 300.0 << 0.9;
        QTest::addRow("ceiling glued unit") << "<=2000ms" << true << "<=" << 2000.0 << 1.1;
        QTest::addRow("thousands") << ">= 50,000 tokens/sec" << true << ">=" << 50000.0 << 0.9;
        QTest::addRow("decimal") << "  <= 1.5 s " << true << "<=" << 1.5 << 1.1;
        QTest::addRow("model name is an input") << "Qwen/Qwen3-8B" << false << "" << 0.0 << 0.0;
        QTest::addRow("bare number is an input") << "256" << false << "" << 0.0 << 0.0;
        QTest::addRow("comparator without number") << ">= fast" << false << "" << 0.0 << 0.0;
        QTest::addRow("two numbers") << ">= 300 400" << false << "" << 0.0 << 0.0;
        QTest::addRow("version range") << ">= 1.30.0" << false << "" << 0.0 << 0.0;
    }
    void thresholds() {
        QFETCH(QString, value);
        QFETCH(bool, isThreshold);
        QFETCH(QString, op);
        QFETCH(double, number);
        QFETCH(double, tolerance);
        const auto t = parseThreshold(constraint(QStringLiteral("nccl-all-reduce-bw"), value));
        QCOMPARE(t.has_value(), isThreshold);
        if (!t)
            return;
        QCOMPARE(t->op, op);
        QCOMPARE(t->value, number);
        QCOMPARE(t->tolerance, tolerance);
        QCOMPARE(t->written, value.trimmed());
        QCOMPARE(t->constraint, QStringLiteral("nccl-all-reduce-bw"));
    }

    void scoreNcclRules() {
        const std::vector<catalog::Constraint> cs = {
            constraint(QStringLiteral("nccl-all-reduce-bw"), QStringLiteral(">= 300")),
            constraint(QStringLiteral("inference-model"), QStringLiteral("Qwen/Qwen3-8B"))};
        // Exactly 0.9 x passes, just below fails.
        CheckScore at = scoreNccl(QStringLiteral("nccl-all-reduce-bw"), ncclWithLastBusBw(270.0), cs);
        QCOMPARE(at.verdict, Verdict::Passed);
        QCOMPARE(at.metrics.size(), size_t(1));
        QCOMPARE(at.metrics[0].name, QStringLiteral("busbw"));
        QCOMPARE(at.metrics[0].threshold->effective(), 270.0);
        CheckScore below = scoreNccl(QStringLiteral("nccl-all-reduce-bw"), ncclWithLastBusBw(269.99), cs);
        QCOMPARE(below.verdict, Verdict::Failed);
        QVERIFY2(below.message.contains(QLatin1String("269.99 GB/s does not satisfy constraint >= 300")),
                 qPrintable(below.message));
        QCOMPARE(below.stdoutLines.value(1), QStringLiteral("Constraint: >= 300 \u2192 false"));
        // No constraint named like the check: skipped. No rows: failed.
        CheckScore none = scoreNccl(QStringLiteral("nccl-all-reduce-bw-net"), ncclWithLastBusBw(500), cs);
        QCOMPARE(none.verdict, Verdict::Skipped);
        QVERIFY(none.message.contains(QLatin1String("nccl-all-reduce-bw-net")));
        CheckScore empty = scoreNccl(QStringLiteral("nccl-all-reduce-bw"), NcclResult{}, cs);
        QCOMPARE(empty.verdict, Verdict::Failed);
        QVERIFY(empty.message.contains(QLatin1String("no nccl-tests result rows")));
        // A value that is no number.
        CheckScore bad =
            scoreNccl(QStringLiteral("nccl-all-reduce-bw"), ncclWithLastBusBw(500),
                      {constraint(QStringLiteral("nccl-all-reduce-bw"), QStringLiteral("fast"))});
        QCOMPARE(bad.verdict, Verdict::Failed);
    }

    void scoreNcclSharedLikeAicr() {
        PB_REQUIRE_SHARED(QStringLiteral("perf/nccl/02-h100-64gpu-8node-mpijob-launcher.txt"));
        const auto r = parseNcclFile(
            pbtest::sharedData(QStringLiteral("perf/nccl/02-h100-64gpu-8node-mpijob-launcher.txt")));
        QVERIFY(r.ok());
        const CheckScore s =
            scoreNccl(QStringLiteral("nccl-all-reduce-bw"), *r,
                      {constraint(QStringLiteral("nccl-all-reduce-bw"), QStringLiteral(">= 300"))});
        QCOMPARE(s.verdict, Verdict::Passed);
        QCOMPARE(s.stdoutLines,
                 QStringList({QStringLiteral("NCCL All Reduce bandwidth (nccl-all-reduce-bw): 386.56 GB/s"),
                              QStringLiteral("Constraint: >= 300 \u2192 true")}));
        QCOMPARE(s.metrics[0].measured, 386.56);
        QCOMPARE(verdictName(s.verdict), QStringLiteral("passed"));
    }

    void scoreNcclTransports() {
        const auto net = parseNcclFile(pbtest::fixture(QStringLiteral("perf/nccl-info-net-nvls.txt")));
        const auto sock = parseNcclFile(pbtest::fixture(QStringLiteral("perf/nccl-info-socket-slurm.txt")));
        QVERIFY(net.ok() && sock.ok());
        const std::vector<catalog::Constraint> cs = {
            constraint(QStringLiteral("nccl-all-reduce-bw-net"), QStringLiteral(">= 20")),
            constraint(QStringLiteral("nccl-all-reduce-bw-nvls"), QStringLiteral(">= 20"))};
        // -net: a fabric plugin passes, Socket fails even though the bandwidth is above the floor.
        CheckScore a = scoreNccl(QStringLiteral("nccl-all-reduce-bw-net"), *net, cs);
        QCOMPARE(a.verdict, Verdict::Passed);
        CheckScore b = scoreNccl(QStringLiteral("nccl-all-reduce-bw-net"), *sock, cs);
        QCOMPARE(b.verdict, Verdict::Failed);
        QVERIFY2(b.message.contains(QLatin1String("'Socket'")), qPrintable(b.message));
        QVERIFY(b.metrics[0].pass); // the number itself was fine
        // -net without any INFO line.
        NcclResult quiet = ncclWithLastBusBw(500);
        CheckScore c = scoreNccl(QStringLiteral("nccl-all-reduce-bw-net"), quiet, cs);
        QCOMPARE(c.verdict, Verdict::Failed);
        QVERIFY(c.message.contains(QLatin1String("NCCL_DEBUG=INFO")));
        // -nvls: both markers pass; multicast without the communicator fails and says what is missing.
        CheckScore d = scoreNccl(QStringLiteral("nccl-all-reduce-bw-nvls"), *net, cs);
        QCOMPARE(d.verdict, Verdict::Passed);
        CheckScore e = scoreNccl(QStringLiteral("nccl-all-reduce-bw-nvls"), *sock, cs);
        QCOMPARE(e.verdict, Verdict::Failed);
        QVERIFY2(e.message.contains(QLatin1String("NVLS comm")), qPrintable(e.message));
        QVERIFY(!e.message.contains(QLatin1String("multicast")));
        // The default check asserts no transport.
        CheckScore f = scoreNccl(QStringLiteral("nccl-all-reduce-bw"), *sock,
                                 {constraint(QStringLiteral("nccl-all-reduce-bw"), QStringLiteral(">= 20"))});
        QCOMPARE(f.verdict, Verdict::Passed);
    }

    void scoreInferenceRules() {
        InferenceResult r;
        r.outputTokensPerSec = 45000.0; // exactly 0.9 x 50000
        r.ttftMs.p99 = 2200.0;          // exactly 1.1 x 2000
        const std::vector<catalog::Constraint> cs = {
            constraint(QStringLiteral("inference-throughput"), QStringLiteral(">= 50000")),
            constraint(QStringLiteral("inference-ttft-p99"), QStringLiteral("<= 2000")),
            constraint(QStringLiteral("inference-model"), QStringLiteral("Qwen/Qwen3-8B")),
            constraint(QStringLiteral("inference-concurrency-per-gpu"), QStringLiteral("256"))};
        CheckScore pass = scoreInference(QStringLiteral("inference-perf"), r, cs);
        QCOMPARE(pass.verdict, Verdict::Passed);
        QCOMPARE(pass.metrics.size(), size_t(2)); // inputs are not thresholds
        QCOMPARE(pass.stdoutLines,
                 QStringList({QStringLiteral("RESULT: Inference throughput: 45000.00 tokens/sec"),
                              QStringLiteral("RESULT: Inference TTFT p99: 2200.00 ms"),
                              QStringLiteral("Throughput constraint: >= 50000 \u2192 PASS"),
                              QStringLiteral("TTFT p99 constraint: <= 2000 \u2192 PASS")}));

        InferenceResult low = r;
        low.outputTokensPerSec = 44999.99;
        CheckScore f1 = scoreInference(QStringLiteral("inference-perf"), low, cs);
        QCOMPARE(f1.verdict, Verdict::Failed);
        QVERIFY(f1.stdoutLines.contains(QStringLiteral("Throughput constraint: >= 50000 \u2192 FAIL")));

        InferenceResult slow = r;
        slow.ttftMs.p99 = 2200.01;
        CheckScore f2 = scoreInference(QStringLiteral("inference-perf"), slow, cs);
        QCOMPARE(f2.verdict, Verdict::Failed);
        QVERIFY(f2.stdoutLines.contains(QStringLiteral("TTFT p99 constraint: <= 2000 \u2192 FAIL")));
        QVERIFY(f2.message.contains(QLatin1String("TTFT p99 2200.01 ms")));

        // Only input-style constraints: skipped.
        CheckScore skip =
            scoreInference(QStringLiteral("inference-perf"), r,
                           {constraint(QStringLiteral("inference-model"), QStringLiteral("Qwen/Qwen3-8B"))});
        QCOMPARE(skip.verdict, Verdict::Skipped);

        // Wrong comparators.
        CheckScore w1 =
            scoreInference(QStringLiteral("inference-perf"), r,
                           {constraint(QStringLiteral("inference-throughput"), QStringLiteral("<= 50000"))});
        QCOMPARE(w1.verdict, Verdict::Failed);
        QVERIFY2(w1.message.contains(QLatin1String("must use >=")), qPrintable(w1.message));
        CheckScore w2 =
            scoreInference(QStringLiteral("inference-perf"), r,
                           {constraint(QStringLiteral("inference-ttft-p99"), QStringLiteral(">= 2000"))});
        QCOMPARE(w2.verdict, Verdict::Failed);
        QVERIFY(w2.message.contains(QLatin1String("must use <=")));

        // Half a node benchmarked: the throughput gate halves.
        InferenceResult half;
        half.outputTokensPerSec = 23000.0;
        CheckScore scaled = scoreInference(
            QStringLiteral("inference-perf"), half,
            {constraint(QStringLiteral("inference-throughput"), QStringLiteral(">= 50000"))}, 0.5);
        QCOMPARE(scaled.verdict, Verdict::Passed);
        QCOMPARE(scaled.metrics[0].threshold->effective(), 22500.0);
        CheckScore unscaled =
            scoreInference(QStringLiteral("inference-perf"), half,
                           {constraint(QStringLiteral("inference-throughput"), QStringLiteral(">= 50000"))});
        QCOMPARE(unscaled.verdict, Verdict::Failed);
    }

    void scoreInferenceShared() {
        PB_REQUIRE_SHARED(QStringLiteral("perf/inference/aiperf-legacy-records_profile_export_aiperf.json"));
        const auto r =
            parseInferenceFile(pbtest::sharedData(QStringLiteral(
                                   "perf/inference/aiperf-legacy-records_profile_export_aiperf.json")),
                               PerfKind::AIPerf);
        QVERIFY(r.ok());
        const CheckScore s =
            scoreInference(QStringLiteral("inference-perf"), *r,
                           {constraint(QStringLiteral("inference-throughput"), QStringLiteral(">= 2500")),
                            constraint(QStringLiteral("inference-ttft-p99"), QStringLiteral("<= 3500 ms"))});
        // 2320.72 >= 2250 passes; 3833.39 <= 3850 passes.
        QCOMPARE(s.verdict, Verdict::Passed);
        QCOMPARE(s.stdoutLines.value(0), QStringLiteral("RESULT: Inference throughput: 2320.72 tokens/sec"));
        QCOMPARE(s.stdoutLines.value(1), QStringLiteral("RESULT: Inference TTFT p99: 3833.39 ms"));
    }

    // ---- issue #20: values that cannot be measurements, and inputs without end -----------------
    void ncclNonFiniteAndNegative_data() {
        QTest::addColumn<QByteArray>("row");
        QTest::addColumn<QString>("says");
        QTest::addRow("inf busbw") << QByteArray("  8589934592    2147483648     float     sum      -1  "
                                                 "22222.2  386.56  inf      0  22222.2  386.56  723.0      0")
                                   << QStringLiteral("busbw 'inf' is not a finite number");
        QTest::addRow("nan algbw") << QByteArray("  8589934592    2147483648     float     sum      -1  "
                                                 "22222.2  nan  723.0      0  22222.2  386.56  723.0      0")
                                   << QStringLiteral("algbw 'nan' is not a finite number");
        QTest::addRow("negative size")
            << QByteArray(" -8589934592    2147483648     float     sum      -1  22222.2  386.56  723.0      "
                          "0  22222.2  386.56  723.0      0")
            << QStringLiteral("size '-8589934592' is negative");
        QTest::addRow("negative busbw")
            << QByteArray("  8589934592    2147483648     float     sum      -1  22222.2  386.56  -723.0     "
                          " 0  22222.2  386.56  723.0      0")
            << QStringLiteral("busbw '-723.0' is negative");
    }
    void ncclNonFiniteAndNegative() {
        QFETCH(QByteArray, row);
        QFETCH(QString, says);
        const QByteArray log = "# nccl-tests version 2.13.9\n"
                               "#                                                              out-of-place  "
                               "                     in-place\n"
                               "#       size         count      type   redop    root     time   algbw   "
                               "busbw #wrong     time   algbw   busbw #wrong\n"
                               "#        (B)    (elements)                               (us)  (GB/s)  "
                               "(GB/s)            (us)  (GB/s)  (GB/s)\n"
                               "  1073741824     268435456     float     sum      -1   2900.0  370.26  694.2 "
                               "     0   2900.0  370.26  694.2      0\n" +
                               row + "\n# Avg bus bandwidth    : 700.1\n";
        const auto r = parseNccl(log, QStringLiteral("run.log"));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().file, QStringLiteral("run.log"));
        QCOMPARE(r.error().line, 6); // the file and the line, as the issue asks
        QVERIFY2(r.error().message.contains(says), qPrintable(r.error().toString()));
        // A validator's own log with such a row fails its check's scoring with the line.
        CheckRun c;
        c.name = QStringLiteral("nccl-all-reduce-bw");
        c.log = log;
        scoreCheck(c, catalog::RecipeResult{});
        QVERIFY(c.score && c.score->verdict == Verdict::Failed);
        QVERIFY2(c.score->message.contains(QLatin1String("log line 6")), qPrintable(c.score->message));
    }
    void ncclFooterInf() {
        const QByteArray log = "#       size         count      type   redop    root     time   algbw   "
                               "busbw #wrong     time   algbw   busbw #wrong\n"
                               "  1073741824     268435456     float     sum      -1   2900.0  370.26  694.2 "
                               "     0   2900.0  370.26  694.2      0\n"
                               "# Avg bus bandwidth    : inf\n";
        const auto r = parseNccl(log, QStringLiteral("f.log"));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().line, 3);
    }
    void inferenceNonFinite() {
        const QByteArray csv = "Metric,avg,min,max,p99,p90,p50\n"
                               "Time to First Token (ms),120.0,50.0,300.0,290.0,200.0,110.0\n"
                               "Output Token Throughput (tokens/sec),inf,,,,,\n";
        const auto r = parseInference(csv, PerfKind::AIPerf, QStringLiteral("x.csv"));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().file, QStringLiteral("x.csv"));
        QCOMPARE(r.error().line, 3);
        QVERIFY2(r.error().message.contains(QLatin1String("not a finite number")),
                 qPrintable(r.error().toString()));
        const QByteArray negative = "Metric,avg,min,max,p99,p90,p50\n"
                                    "Time to First Token (ms),120.0,-50.0,300.0,290.0,200.0,110.0\n";
        const auto n = parseInference(negative, PerfKind::AIPerf, QStringLiteral("y.csv"));
        QVERIFY(!n.ok());
        QCOMPARE(n.error().line, 2);
        QVERIFY2(n.error().message.contains(QLatin1String("negative")), qPrintable(n.error().toString()));
    }
    void nonRegularAndOversizedInputsAreRefused() {
        // /dev/zero never ends; a FIFO may never end: both are refused before a byte is read.
        const auto zero = parseNcclFile(QStringLiteral("/dev/zero"));
        QVERIFY(!zero.ok());
        QVERIFY2(zero.error().message.contains(QLatin1String("not a regular file")),
                 qPrintable(zero.error().toString()));
        const auto zeroInf = parseInferenceFile(QStringLiteral("/dev/zero"), PerfKind::AIPerf);
        QVERIFY(!zeroInf.ok());
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("endless"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QElapsedTimer clock;
        clock.start();
        const auto f = parseNcclFile(fifo);
        QVERIFY(!f.ok());
        QVERIFY2(f.error().message.contains(QLatin1String("not a regular file")),
                 qPrintable(f.error().toString()));
        QVERIFY(!parseInferenceFile(fifo, PerfKind::GenAIPerf).ok());
        QVERIFY(clock.elapsed() < 2000); // never waits for a writer
        // Over the size limit (a sparse file: no disk): refused by its size, not read.
        const QString big = dir.filePath(QStringLiteral("big.json"));
        QFile b(big);
        QVERIFY(b.open(QIODevice::WriteOnly));
        QVERIFY(b.resize(kMaxInferenceReportBytes + 1));
        b.close();
        const auto large = parseInferenceFile(big, PerfKind::AIPerf);
        QVERIFY(!large.ok());
        QVERIFY2(large.error().message.contains(QLatin1String("limit")),
                 qPrintable(large.error().toString()));
        const QString bigLog = dir.filePath(QStringLiteral("big.log"));
        QFile bl(bigLog);
        QVERIFY(bl.open(QIODevice::WriteOnly));
        QVERIFY(bl.resize(kMaxNcclLogBytes + 1));
        bl.close();
        const auto largeLog = parseNcclFile(bigLog);
        QVERIFY(!largeLog.ok());
        QVERIFY2(largeLog.error().message.contains(QLatin1String("limit")),
                 qPrintable(largeLog.error().toString()));
    }
    void reportTimeIsRead() {
        PB_REQUIRE_SHARED(QStringLiteral("perf/inference/aiperf-0.8.0_profile_export_aiperf.json"));
        const auto j = parseInferenceFile(
            pbtest::sharedData(QStringLiteral("perf/inference/aiperf-0.8.0_profile_export_aiperf.json")),
            PerfKind::AIPerf);
        QVERIFY(j.ok());
        // Issue 26: AIPerf 0.8.0's end_time has no zone: ambiguous, kept as written, not a time.
        QVERIFY(!j->recordedAt.isValid());
        QCOMPARE(j->naiveTime, QStringLiteral("2026-05-01T05:31:46.005908"));
        const auto c =
            parseInferenceFile(pbtest::sharedData(QStringLiteral(
                                   "perf/inference/aiperf-legacy-records_profile_export_aiperf.csv")),
                               PerfKind::AIPerf);
        QVERIFY(c.ok());
        QVERIFY(c->recordedAt.isValid());
        QCOMPARE(c->recordedAt.date(), QDate(2025, 10, 3));
        // The legacy JSON of the same run: its epoch max_response_timestamp, not its naive end_time
        // (13:13:48 local, 7 h off): the same instant as the CSV's.
        const auto lj =
            parseInferenceFile(pbtest::sharedData(QStringLiteral(
                                   "perf/inference/aiperf-legacy-records_profile_export_aiperf.json")),
                               PerfKind::AIPerf);
        QVERIFY(lj.ok());
        QCOMPARE(lj->recordedAt.toMSecsSinceEpoch(), c->recordedAt.toMSecsSinceEpoch());
        QCOMPARE(lj->recordedAt.toUTC().time().hour(), 20);
        QCOMPARE(lj->naiveTime, QStringLiteral("2025-10-03T13:13:48.474205"));
        // An end_time with a zone is a time.
        QFile f(pbtest::sharedData(QStringLiteral("perf/inference/aiperf-0.8.0_profile_export_aiperf.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        bytes.replace("\"end_time\": \"2026-05-01T05:31:46.005908\"",
                      "\"end_time\": \"2026-05-01T05:31:46.005908-07:00\"");
        const auto z = parseInference(bytes, PerfKind::AIPerf, QStringLiteral("zoned.json"));
        QVERIFY(z.ok());
        QCOMPARE(z->recordedAt.toUTC(),
                 QDateTime(QDate(2026, 5, 1), QTime(12, 31, 46, 6), Qt::UTC)); // .005908 rounds
    }
};

QTEST_GUILESS_MAIN(TestPerf)
#include "tst_perf.moc"
