// The performance charts built from real nccl-tests outputs (../shared/data/perf/nccl when present,
// and the fixture of tests/fixtures/gui-validation): one graph per half per run with a point per
// parsed row, a log2 x axis labelled in bytes, the threshold and 0.9x lines where the recipe puts
// them, the scored point on the last row; inference and history charts; PNG/SVG/PDF export.
#include "PerfCharts.h"
#include "TestUtil.h"
#include "ValidationFixture.h"
#include "catalog/Types.h"
#include "report/render/ChartPainter.h"
#include "validation/Inference.h"
#include "validation/Nccl.h"
#include "validation/Score.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QResizeEvent>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>
#include <QXmlStreamReader>

using namespace pb::validation;
using pb::widgets::byteLabel;
using pb::widgets::HistoryChart;
using pb::widgets::InferenceChart;
using pb::widgets::NcclChart;

namespace {

// A history point of run `run`: `value` of `metric` at `at`, passing when it reaches `threshold`.
pb::store::HistoryPoint historyPoint(int run, const QDateTime& at, const QString& metric, const QString& unit,
                                     double value, double threshold) {
    pb::store::HistoryPoint p;
    p.runId = run;
    p.at = at;
    p.metric = metric;
    p.unit = unit;
    p.value = value;
    p.effectiveThreshold = threshold;
    p.pass = value >= threshold;
    return p;
}

std::vector<pb::catalog::Constraint> ncclConstraint(const QString& value) {
    pb::catalog::Constraint c;
    c.name = QStringLiteral("nccl-all-reduce-bw");
    c.value = value;
    return {c};
}

QByteArray head(const QString& path, int n) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

} // namespace

class TestPerfCharts : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void labelPlacesAvoidPaths() {
        const std::vector<QPolygonF> paths{QPolygonF{QPointF(0, 100), QPointF(200, 100)}};
        QVERIFY(pb::report::crossesPaths(QRectF(50, 90, 40, 20), paths));  // the line runs through it
        QVERIFY(!pb::report::crossesPaths(QRectF(50, 60, 40, 20), paths)); // above it
        QVERIFY(pb::report::crossesPaths(QRectF(190, 95, 40, 20), paths)); // an end point inside
        QCOMPARE(pb::report::freePlace({QRectF(50, 90, 40, 20), QRectF(50, 60, 40, 20)}, paths, {}), 1);
        QCOMPARE(pb::report::freePlace({QRectF(50, 90, 40, 20), QRectF(50, 60, 40, 20)}, paths,
                                       {QRectF(60, 65, 10, 10)}),
                 -1);
    }

    void byteLabels() {
        QCOMPARE(byteLabel(512), QStringLiteral("512"));
        QCOMPARE(byteLabel(1024), QStringLiteral("1K"));
        QCOMPARE(byteLabel(1536), QStringLiteral("1.5K"));
        QCOMPARE(byteLabel(65536), QStringLiteral("64K"));
        QCOMPARE(byteLabel(1048576), QStringLiteral("1M"));
        QCOMPARE(byteLabel(8589934592.0), QStringLiteral("8G"));
        QCOMPARE(byteLabel(17179869184.0), QStringLiteral("16G"));
    }

    void ncclChart_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("scored");
        QTest::addRow("fixture 16 GPUs")
            << pbgui::validationFixture(QStringLiteral("nccl-all-reduce-16gpu.txt")) << 386.56;
        const QString dir = pbtest::sharedData(QStringLiteral("perf/nccl"));
        // The README's figures: the out-of-place busbw of the last row.
        const std::pair<const char*, double> samples[] = {
            {"01-gb200-nvl72-single-rack-72gpu-nvls.txt", 834.57},
            {"02-h100-64gpu-8node-mpijob-launcher.txt", 386.56},
            {"03-h100-16gpu-2node-gcp-a3mega-mpirun.txt", 338.82},
            {"04-a100-16gpu-2node-oke-mpijob-launcher.txt", 180.06},
            {"05-h100-16gpu-2node-aws-p5-slurm-labelled-nofooter.txt", 487.09}};
        for (const auto& [name, scored] : samples)
            QTest::addRow("%s", name) << QDir(dir).filePath(QLatin1String(name)) << scored;
    }

    void ncclChart() {
        QFETCH(QString, file);
        QFETCH(double, scored);
        if (!QFileInfo::exists(file))
            QSKIP(qPrintable(QStringLiteral("%1 not found (clone lacks ../shared); skipping").arg(file)));
        pb::Result<NcclResult> r = parseNcclFile(file);
        QVERIFY2(r, r ? "" : qPrintable(r.error().toString()));
        const CheckScore score =
            scoreNccl(QStringLiteral("nccl-all-reduce-bw"), *r, ncclConstraint(QStringLiteral(">= 300")));
        QVERIFY(!score.metrics.empty());
        QVERIFY(score.metrics.front().threshold);

        NcclChart chart;
        chart.resize(900, 500);
        chart.addRun(QStringLiteral("run 1"), *r);
        chart.setThreshold(score.metrics.front().threshold);
        chart.replot();

        QCOMPARE(chart.runCount(), 1);
        QCOMPARE(chart.graphCount(), 2);
        QCOMPARE(chart.outOfPlaceGraph(0)->dataCount(), int(r->rows.size()));
        QCOMPARE(chart.inPlaceGraph(0)->dataCount(), int(r->rows.size()));
        // The points are the parsed rows.
        const auto oop = chart.outOfPlaceGraph(0)->data();
        for (int i = 0; i < int(r->rows.size()); ++i) {
            QCOMPARE(oop->at(i)->key, double(r->rows[size_t(i)].sizeBytes));
            QCOMPARE(oop->at(i)->value, r->rows[size_t(i)].oopBusBw);
            QCOMPARE(chart.inPlaceGraph(0)->data()->at(i)->value, r->rows[size_t(i)].ipBusBw);
        }

        // log2 x axis with byte labels.
        QCOMPARE(chart.xAxis->scaleType(), QCPAxis::stLogarithmic);
        auto ticker = chart.xAxis->ticker().dynamicCast<QCPAxisTickerLog>();
        QVERIFY(ticker);
        QCOMPARE(ticker->logBase(), 2.0);
        const QVector<QString> labels = chart.xAxis->tickVectorLabels();
        QVERIFY(!labels.isEmpty());
        static const QRegularExpression byteRe(QStringLiteral("^\\d+(\\.\\d)?[KMGTP]?$"));
        bool unit = false;
        for (const QString& l : labels) {
            QVERIFY2(byteRe.match(l).hasMatch(), qPrintable(l));
            unit = unit || l.endsWith(QLatin1Char('M')) || l.endsWith(QLatin1Char('G')) ||
                   l.endsWith(QLatin1Char('K'));
        }
        QVERIFY(unit);
        for (double t : chart.xAxis->tickVector())
            QCOMPARE(std::log2(t), std::round(std::log2(t))); // ticks on powers of two

        // Threshold at 300 and the pass line at 0.9 x 300.
        QVERIFY(chart.thresholdLine());
        QVERIFY(chart.toleranceLine());
        QCOMPARE(chart.thresholdLine()->point1->coords().y(), 300.0);
        QCOMPARE(chart.thresholdLine()->point2->coords().y(), 300.0);
        QCOMPARE(chart.toleranceLine()->point1->coords().y(), 270.0);
        QVERIFY(chart.yAxis->range().contains(300));

        // The scored point: the last row, out-of-place.
        QVERIFY(chart.scoredMarker());
        QCOMPARE(chart.scoredMarker()->graph(), chart.outOfPlaceGraph(0));
        chart.scoredMarker()->updatePosition();
        QCOMPARE(chart.scoredMarker()->position->key(), double(r->lastSizeBytes()));
        QCOMPARE(chart.scoredMarker()->position->value(), scored);
        QVERIFY2(chart.scoredLabel()->text().contains(QString::number(scored, 'g', 12)),
                 qPrintable(chart.scoredLabel()->text()));
    }

    void ncclOverlay() {
        pb::Result<NcclResult> a =
            parseNcclFile(pbgui::validationFixture(QStringLiteral("nccl-all-reduce-16gpu.txt")));
        pb::Result<NcclResult> b = parseNcclFile(QStringLiteral(PB_FIXTURES "/validation/nccl-low.txt"));
        QVERIFY(a && b);
        NcclChart chart;
        chart.addRun(QStringLiteral("run 1"), *a);
        chart.addRun(QStringLiteral("run 2"), *b);
        QCOMPARE(chart.runCount(), 2);
        QCOMPARE(chart.graphCount(), 4);
        QCOMPARE(chart.legend->itemCount(), 4);
        QCOMPARE(chart.outOfPlaceGraph(1)->dataCount(), int(b->rows.size()));
        QVERIFY(chart.outOfPlaceGraph(0)->pen().color() != chart.outOfPlaceGraph(1)->pen().color());
        QCOMPARE(chart.graph(2)->name(), QStringLiteral("run 2 out-of-place"));
        // Issue 26: every run's scored point is marked, on its own graph, its label naming the run,
        // and the two labels do not overlap.
        QCOMPARE(chart.scoredMarkerCount(), 2);
        QCOMPARE(chart.scoredMarker(0)->graph(), chart.outOfPlaceGraph(0));
        QCOMPARE(chart.scoredMarker(1)->graph(), chart.outOfPlaceGraph(1));
        QVERIFY2(chart.scoredLabel(0)->text().startsWith(QLatin1String("run 1 scored")),
                 qPrintable(chart.scoredLabel(0)->text()));
        QVERIFY2(chart.scoredLabel(1)->text().startsWith(QLatin1String("run 2 scored")),
                 qPrintable(chart.scoredLabel(1)->text()));
        chart.resize(900, 500);
        chart.replot();
        auto rect = [](QCPItemText* t) {
            return QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized();
        };
        QVERIFY(!rect(chart.scoredLabel(0)).intersects(rect(chart.scoredLabel(1))));
        // The same log twice: the same point, and still two labels apart.
        NcclChart same;
        same.resize(900, 500);
        same.addRun(QStringLiteral("run a"), *a);
        same.addRun(QStringLiteral("run b"), *a);
        same.replot();
        QCOMPARE(same.scoredMarkerCount(), 2);
        QVERIFY(!rect(same.scoredLabel(0)).intersects(rect(same.scoredLabel(1))));
        // Issue 30: no curve passes through a label (the threshold lines' and the scored points').
        const CheckScore score =
            scoreNccl(QStringLiteral("nccl-all-reduce-bw"), *a, ncclConstraint(QStringLiteral(">= 300")));
        chart.setThreshold(score.metrics.front().threshold);
        for (const QSize size : {QSize(900, 500), QSize(640, 360)}) {
            chart.resize(size);
            QResizeEvent resize(size, QSize());
            QCoreApplication::sendEvent(&chart, &resize);
            chart.replot();
            std::vector<QPolygonF> paths;
            for (int g = 0; g < chart.graphCount(); ++g) {
                QPolygonF path;
                for (int i = 0; i < chart.graph(g)->dataCount(); ++i)
                    path << QPointF(chart.xAxis->coordToPixel(chart.graph(g)->data()->at(i)->key),
                                    chart.yAxis->coordToPixel(chart.graph(g)->data()->at(i)->value));
                paths.push_back(path);
            }
            std::vector<QRectF> labels{rect(chart.scoredLabel(0)), rect(chart.scoredLabel(1))};
            for (int i = 0; i < chart.itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(chart.item(i));
                    t && t != chart.scoredLabel(0) && t != chart.scoredLabel(1) && t->visible() &&
                    !t->text().isEmpty() && t->text().contains(QLatin1String("GB/s")))
                    labels.push_back(rect(t));
            QCOMPARE(labels.size(), size_t(4));
            for (size_t i = 0; i < labels.size(); ++i) {
                QVERIFY2(!pb::report::crossesPaths(labels[i], paths),
                         qPrintable(QStringLiteral("label %1 at %2,%3 is crossed by a curve (%4x%5)")
                                        .arg(i)
                                        .arg(labels[i].x())
                                        .arg(labels[i].y())
                                        .arg(size.width())
                                        .arg(size.height())));
                for (size_t j = i + 1; j < labels.size(); ++j)
                    QVERIFY(!labels[i].intersects(labels[j]));
            }
        }
        chart.clearRuns();
        QCOMPARE(chart.scoredMarkerCount(), 0);
        QCOMPARE(chart.graphCount(), 0);
        QVERIFY(chart.isEmptyChart());
    }

    void inferenceChart() {
        QFile f(QStringLiteral(PB_FIXTURES "/validation/inference-aiperf.log"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::optional<QByteArray> block = extractAiperfBlock(f.readAll());
        QVERIFY(block);
        pb::Result<InferenceResult> r = parseInference(*block, PerfKind::AIPerf, f.fileName());
        QVERIFY2(r, r ? "" : qPrintable(r.error().toString()));
        QVERIFY(r->outputTokensPerSec && r->ttftMs.p99);
        pb::catalog::Constraint tput, ttft;
        tput.name = QStringLiteral("inference-throughput");
        tput.value = QStringLiteral(">= %1").arg(*r->outputTokensPerSec * 2, 0, 'f', 0); // fails
        ttft.name = QStringLiteral("inference-ttft-p99");
        ttft.value = QStringLiteral("<= %1 ms").arg(*r->ttftMs.p99 * 2, 0, 'f', 0); // passes
        const CheckScore score = scoreInference(QStringLiteral("inference-perf"), *r, {tput, ttft});

        InferenceChart chart;
        chart.resize(900, 450);
        chart.setResult(*r, score.metrics);
        QCOMPARE(chart.throughputBars()->dataCount(), 1);
        QCOMPARE(chart.throughputBars()->data()->at(0)->value, *r->outputTokensPerSec);
        QCOMPARE(chart.ttftBars()->dataCount(), 3);
        QCOMPARE(chart.ttftBars()->data()->at(2)->value, *r->ttftMs.p99);
        // Lines: for each scored threshold, its value and its pass line.
        int lines = 0;
        for (int i = 0; i < chart.itemCount(); ++i)
            lines += qobject_cast<QCPItemStraightLine*>(chart.item(i)) != nullptr;
        int thresholds = 0;
        for (const ScoredMetric& m : score.metrics)
            thresholds += m.threshold.has_value();
        QCOMPARE(lines, 2 * thresholds);
        QVERIFY(!chart.isEmptyChart());
    }

    void historyChart() {
        std::vector<pb::store::HistoryPoint> points;
        const QDateTime t0(QDate(2025, 3, 1), QTime(10, 0), QTimeZone::utc());
        const double values[] = {310.5, 262.0, 386.56};
        for (int i = 0; i < 3; ++i)
            points.push_back(historyPoint(i + 1, t0.addDays(i), QStringLiteral("busbw"),
                                          QStringLiteral("GB/s"), values[i], 270));
        HistoryChart chart;
        chart.setHistory(QStringLiteral("busbw"), points);
        QCOMPARE(chart.valueGraph()->dataCount(), 3);
        QCOMPARE(chart.passGraph()->dataCount(), 2);
        QCOMPARE(chart.failGraph()->dataCount(), 1);
        QCOMPARE(chart.failGraph()->data()->at(0)->value, 262.0);
        QCOMPARE(chart.thresholdGraph()->data()->at(0)->value, 270.0);
        QVERIFY(chart.yAxis->label().contains(QLatin1String("GB/s")));
    }

    // Issue 29: the window's charts and the report's are one spec (report/render/ChartSpec.h): the
    // same series, names, colours, threshold labels and axis titles; the report draws that spec.
    void windowChartsAreTheReportSpec() {
        pb::Result<NcclResult> r =
            parseNcclFile(pbgui::validationFixture(QStringLiteral("nccl-all-reduce-16gpu.txt")));
        QVERIFY(r);
        const CheckScore score =
            scoreNccl(QStringLiteral("nccl-all-reduce-bw"), *r, ncclConstraint(QStringLiteral(">= 300")));
        NcclChart chart;
        chart.addRun(QStringLiteral("run a"), *r);
        chart.addRun(QStringLiteral("run b"), *r);
        chart.setThreshold(score.metrics.front().threshold);
        const pb::report::ChartSpec spec = pb::report::ncclChartSpec(
            {{QStringLiteral("run a"), *r}, {QStringLiteral("run b"), *r}}, score.metrics.front().threshold);
        const pb::report::ChartPanel& p = spec.panels.front();
        QCOMPARE(chart.graphCount(), int(p.series.size()));
        for (int i = 0; i < chart.graphCount(); ++i) {
            QCOMPARE(chart.graph(i)->name(), p.series[size_t(i)].name);
            QCOMPARE(chart.graph(i)->pen().color(), p.series[size_t(i)].color);
            QCOMPARE(chart.graph(i)->dataCount(), int(p.series[size_t(i)].x.size()));
        }
        QCOMPARE(p.lines.size(), size_t(2));
        QCOMPARE(chart.thresholdLine()->point1->coords().y(), p.lines[0].y);
        QCOMPARE(chart.toleranceLine()->point1->coords().y(), p.lines[1].y);
        QCOMPARE(chart.scoredMarkerCount(), int(p.marks.size()));
        for (int i = 0; i < chart.scoredMarkerCount(); ++i)
            QCOMPARE(chart.scoredLabel(i)->text(), p.marks[size_t(i)].label);
        QCOMPARE(chart.xAxis->label(), p.xLabel);
        QCOMPARE(chart.yAxis->range().upper, p.yMax);
        // The report's picture of it: drawn, the threshold's colour on it.
        const QImage image = pb::report::paintChart(spec, QSize(800, 400));
        bool red = false;
        for (int y = 0; y < image.height() && !red; ++y)
            for (int x = 0; x < image.width() && !red; ++x)
                red = image.pixelColor(x, y) == pb::report::chartcolors::kThreshold;
        QVERIFY(red);
        QCOMPARE(pb::report::chartPng(spec, QSize(800, 400)), pb::report::chartPng(spec, QSize(800, 400)));
    }

    // Issue #20: one metric per chart, with that metric's unit (output-throughput is not ms).
    void historyUnitFollowsMetric() {
        std::vector<pb::store::HistoryPoint> points;
        const QDateTime t0(QDate(2026, 5, 1), QTime(5, 0), QTimeZone::utc());
        for (int i = 0; i < 3; ++i) {
            pb::store::HistoryPoint tput;
            tput.runId = i + 1;
            tput.at = t0.addDays(i);
            tput.metric = QStringLiteral("output-throughput");
            tput.unit = QStringLiteral("tokens/s");
            tput.value = 50000 + 1000 * i;
            tput.source = QStringLiteral("import profile_export_aiperf.json");
            points.push_back(tput);
            pb::store::HistoryPoint ttft = tput;
            ttft.metric = QStringLiteral("ttft-p99");
            ttft.unit = QStringLiteral("ms");
            ttft.value = 1800;
            points.push_back(ttft); // the last point of each run is in ms
        }
        HistoryChart chart;
        chart.resize(800, 400);
        chart.setHistory(QStringLiteral("output-throughput"), points);
        QCOMPARE(chart.unit(), QStringLiteral("tokens/s"));
        QCOMPARE(chart.yAxis->label(), QStringLiteral("output-throughput (tokens/s)"));
        QVERIFY(!chart.yAxis->label().contains(QLatin1String("ms")));
        QCOMPARE(chart.valueGraph()->dataCount(), 3); // the ttft points are not on this chart
        chart.setHistory(QStringLiteral("ttft-p99"), points);
        QCOMPARE(chart.yAxis->label(), QStringLiteral("ttft-p99 (ms)"));
    }

    // Imports whose report gives no time are drawn apart (hollow, "time unknown"), and the legend
    // names the sources instead of "run N".
    void historyUnknownTimeAndSources() {
        std::vector<pb::store::HistoryPoint> points;
        const QDateTime t0(QDate(2026, 5, 1), QTime(5, 0), QTimeZone::utc());
        const char* files[] = {"import a100-oke.txt", "import h100-p5.txt", "lab-a run 1a2b3c4d"};
        for (int i = 0; i < 3; ++i) {
            pb::store::HistoryPoint p = historyPoint(i + 1, t0.addDays(i), QStringLiteral("busbw"),
                                                     QStringLiteral("GB/s"), 300 + i, 270);
            p.source = QLatin1String(files[i]);
            p.timeKnown = i != 0;
            points.push_back(p);
        }
        points[0].value = 180; // the A100 point: failed, and of unknown time
        points[0].pass = false;
        HistoryChart chart;
        chart.resize(800, 400);
        chart.setHistory(QStringLiteral("busbw"), points);
        QCOMPARE(chart.unknownTimeGraph()->dataCount(), 1);
        // Issue 26: coloured by its verdict (red), in its own column right of a dashed line, under a
        // "time unknown" tick, and joined to nothing: the line runs through dated points only.
        QCOMPARE(chart.passGraph()->dataCount(), 2);
        QCOMPARE(chart.failGraph()->dataCount(), 1);
        QCOMPARE(chart.failGraph()->data()->at(0)->value, 180.0);
        QCOMPARE(chart.valueGraph()->dataCount(), 2);
        QVERIFY(chart.unknownSeparator()->visible());
        const double column = chart.unknownTimeGraph()->data()->at(0)->key;
        QVERIFY(column > chart.unknownSeparator()->point1->coords().x());
        for (int i = 0; i < chart.valueGraph()->dataCount(); ++i)
            QVERIFY(chart.valueGraph()->data()->at(i)->key < chart.unknownSeparator()->point1->coords().x());
        QCOMPARE(chart.thresholdGraph()->dataCount(), 2);
        QVector<QString> labels;
        QVector<double> ticks;
        chart.xAxis->ticker()->generate(chart.xAxis->range(), QLocale::c(), QLatin1Char('g'), 6, ticks,
                                        nullptr, &labels);
        QVERIFY2(labels.contains(QStringLiteral("time\nunknown")), qPrintable(labels.join(QLatin1Char('|'))));
        for (qsizetype i = 0; i < ticks.size(); ++i)
            if (ticks[i] != column)
                QVERIFY(ticks[i] < chart.unknownSeparator()->point1->coords().x());
        QVERIFY(chart.legend->hasItemWithPlottable(chart.unknownTimeGraph()));
        // The ring around it has no fill: the red disc of its verdict shows through.
        QCOMPARE(chart.unknownTimeGraph()->scatterStyle().brush().style(), Qt::NoBrush);
        QCOMPARE(chart.unknownTimeGraph()->data()->at(0)->key, chart.failGraph()->data()->at(0)->key);
        QCOMPARE(chart.sources(),
                 (QStringList{QLatin1String(files[0]), QLatin1String(files[1]), QLatin1String(files[2])}));
        const QString legend = chart.valueGraph()->name();
        QVERIFY2(legend.contains(QLatin1String("a100-oke.txt")) &&
                     legend.contains(QLatin1String("lab-a run")),
                 qPrintable(legend));
        QVERIFY(!legend.startsWith(QLatin1String("run ")));
        // Every point known: no "time unknown" entry.
        for (pb::store::HistoryPoint& p : points)
            p.timeKnown = true;
        chart.setHistory(QStringLiteral("busbw"), points);
        QVERIFY(!chart.legend->hasItemWithPlottable(chart.unknownTimeGraph()));
        QVERIFY(!chart.unknownSeparator()->visible());
        QCOMPARE(chart.valueGraph()->dataCount(), 3);
    }

    // Issue 30: the legend stands where it covers no point, and the time ticks are round.
    void historyLegendAndTicks() {
        std::vector<pb::store::HistoryPoint> points;
        const QDateTime t0(QDate(2026, 11, 20), QTime(23, 5), QTimeZone::utc());
        const double values[] = {380, 385, 390, 20}; // the last one low, at the bottom right
        for (int i = 0; i < 4; ++i) {
            pb::store::HistoryPoint p = historyPoint(i + 1, t0.addSecs(i * 300), QStringLiteral("busbw"),
                                                     QStringLiteral("GB/s"), values[i], 270);
            p.source = QStringLiteral("import n%1.txt").arg(i);
            points.push_back(p);
        }
        HistoryChart chart;
        chart.resize(900, 400);
        chart.setHistory(QStringLiteral("busbw"), points);
        chart.replot();
        const QRectF legend = chart.legend->outerRect();
        for (QCPGraph* g : {chart.passGraph(), chart.failGraph()})
            for (int i = 0; i < g->dataCount(); ++i) {
                const QPointF at(chart.xAxis->coordToPixel(g->data()->at(i)->key),
                                 chart.yAxis->coordToPixel(g->data()->at(i)->value));
                QVERIFY2(!legend.adjusted(-6, -6, 6, 6).contains(at),
                         qPrintable(
                             QStringLiteral(
                                 "the legend %1,%2 %3x%4 covers the point at %5,%6 (axis rect %7,%8 %9x%10)")
                                 .arg(legend.x())
                                 .arg(legend.y())
                                 .arg(legend.width())
                                 .arg(legend.height())
                                 .arg(at.x())
                                 .arg(at.y())
                                 .arg(chart.axisRect()->rect().x())
                                 .arg(chart.axisRect()->rect().y())
                                 .arg(chart.axisRect()->rect().width())
                                 .arg(chart.axisRect()->rect().height())));
            }
        // Round ticks: whole minutes in a round step, in the window and in the report's spec.
        QVector<double> ticks;
        QVector<QString> labels;
        chart.xAxis->ticker()->generate(chart.xAxis->range(), QLocale::c(), QLatin1Char('g'), 6, ticks,
                                        nullptr, &labels);
        QVERIFY(ticks.size() >= 2);
        const double step = ticks[1] - ticks[0];
        QVERIFY2(qint64(step) % 60 == 0 &&
                     QList<qint64>({60, 120, 300, 600, 900, 1800, 3600}).contains(qint64(step)),
                 qPrintable(QString::number(step)));
        const pb::report::ChartSpec spec =
            pb::report::historyChartSpec(QStringLiteral("busbw"), points, Qt::UTC);
        for (const pb::report::ChartTick& t : spec.panels.front().xTicks)
            QVERIFY2(qint64(t.value) % 300 == 0, qPrintable(t.label)); // 23:05, 23:10, 23:15 ...
    }

    // Issue 26: a run that failed on TTFT is not a green point on the throughput history: a point
    // that met its own threshold in a failed check is a red ring, with its own legend entry.
    void historyPointOfAFailedCheck() {
        std::vector<pb::store::HistoryPoint> points;
        const QDateTime t0(QDate(2026, 5, 1), QTime(5, 0), QTimeZone::utc());
        for (int i = 0; i < 3; ++i) {
            pb::store::HistoryPoint p =
                historyPoint(i + 1, t0.addDays(i), QStringLiteral("output-throughput"),
                             QStringLiteral("tokens/s"), 52000 + i, 45000);
            p.checkFailed = i == 1; // its TTFT p99 was over the limit
            points.push_back(p);
        }
        HistoryChart chart;
        chart.setHistory(QStringLiteral("output-throughput"), points);
        QCOMPARE(chart.passGraph()->dataCount(), 2);
        QCOMPARE(chart.metButFailedGraph()->dataCount(), 1);
        QCOMPARE(chart.metButFailedGraph()->data()->at(0)->value, 52001.0);
        QCOMPARE(chart.metButFailedGraph()->scatterStyle().pen().color(), pb::report::chartcolors::kFail);
        QVERIFY(chart.legend->hasItemWithPlottable(chart.metButFailedGraph()));
    }

    // Issue 26: the inference bars never stand under the threshold lines' labels.
    void inferenceBarsLeaveTheLabelsFree() {
        InferenceResult r;
        r.outputTokensPerSec = 60000; // a bar taller than both lines
        r.ttftMs.p50 = 900;
        r.ttftMs.p90 = 2500;
        r.ttftMs.p99 = 3900;
        pb::catalog::Constraint tput, ttft;
        tput.name = QStringLiteral("inference-throughput");
        tput.value = QStringLiteral(">= 50000");
        ttft.name = QStringLiteral("inference-ttft-p99");
        ttft.value = QStringLiteral("<= 2000 ms");
        const CheckScore score = scoreInference(QStringLiteral("inference-perf"), r, {tput, ttft});
        InferenceChart chart;
        chart.resize(700, 300);
        chart.setResult(r, score.metrics);
        chart.replot();
        auto barRect = [](QCPBars* bars, QCPAxisRect* axes) {
            QRectF all;
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
                QCPAxis* x = axes->axis(QCPAxis::atBottom);
                QCPAxis* y = axes->axis(QCPAxis::atLeft);
                const QRectF one(
                    QPointF(x->coordToPixel(it->key - bars->width() / 2), y->coordToPixel(it->value)),
                    QPointF(x->coordToPixel(it->key + bars->width() / 2), y->coordToPixel(0)));
                all = all.isNull() ? one.normalized() : all.united(one.normalized());
            }
            return all;
        };
        const QRectF tputBars = barRect(chart.throughputBars(), chart.throughputRect());
        const QRectF ttftBars = barRect(chart.ttftBars(), chart.ttftRect());
        int labels = 0;
        for (int i = 0; i < chart.itemCount(); ++i) {
            auto* t = qobject_cast<QCPItemText*>(chart.item(i));
            if (!t || !t->visible() || t->text().isEmpty() || t->clipAxisRect() == nullptr)
                continue;
            ++labels;
            const QRectF box =
                QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized();
            const QRectF bars = t->clipAxisRect() == chart.throughputRect() ? tputBars : ttftBars;
            QVERIFY2(!box.intersects(bars), qPrintable(t->text()));
        }
        QCOMPARE(labels, 4); // threshold and pass line on both panels
    }

    // The TTFT limit's label and its 1.1x pass line's label never overlap, even on a short chart
    // where the two lines are a few pixels apart.
    void inferenceLabelsDoNotOverlap_data() {
        QTest::addColumn<int>("height");
        QTest::addRow("short") << 220;
        QTest::addRow("tall") << 600;
    }
    void inferenceLabelsDoNotOverlap() {
        QFETCH(int, height);
        InferenceResult r;
        r.outputTokensPerSec = 52000;
        r.ttftMs.p50 = 900;
        r.ttftMs.p90 = 1500;
        r.ttftMs.p99 = 1900;
        pb::catalog::Constraint tput, ttft;
        tput.name = QStringLiteral("inference-throughput");
        tput.value = QStringLiteral(">= 50000");
        ttft.name = QStringLiteral("inference-ttft-p99");
        ttft.value = QStringLiteral("<= 2000 ms");
        const CheckScore score = scoreInference(QStringLiteral("inference-perf"), r, {tput, ttft});
        InferenceChart chart;
        chart.resize(900, height);
        chart.setResult(r, score.metrics);
        chart.replot();
        QVERIFY(chart.ttftLimitLabel() && chart.ttftPassLabel());
        auto rect = [](QCPItemText* t) {
            return QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized();
        };
        const QRectF limit = rect(chart.ttftLimitLabel()), pass = rect(chart.ttftPassLabel());
        QVERIFY2(!limit.intersects(pass), qPrintable(QStringLiteral("limit %1,%2 %3x%4 / pass %5,%6 %7x%8")
                                                         .arg(limit.x())
                                                         .arg(limit.y())
                                                         .arg(limit.width())
                                                         .arg(limit.height())
                                                         .arg(pass.x())
                                                         .arg(pass.y())
                                                         .arg(pass.width())
                                                         .arg(pass.height())));
        QVERIFY(chart.ttftLimitLabel()->text().startsWith(QLatin1String("p99 limit")));
        QVERIFY(chart.ttftPassLabel()->text().contains(QStringLiteral("1.1×")));
    }

    void exportFormats() {
        pb::Result<NcclResult> r =
            parseNcclFile(pbgui::validationFixture(QStringLiteral("nccl-all-reduce-16gpu.txt")));
        QVERIFY(r);
        NcclChart chart;
        chart.addRun(QStringLiteral("run 1"), *r);
        chart.setThreshold(
            scoreNccl(QStringLiteral("nccl-all-reduce-bw"), *r, ncclConstraint(QStringLiteral(">= 300")))
                .metrics.front()
                .threshold);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());

        const QString png = dir.filePath(QStringLiteral("nccl.png"));
        QVERIFY(chart.exportTo(png, 800, 450));
        QVERIFY(QFileInfo(png).size() > 1000);
        QCOMPARE(head(png, 8), QByteArray("\x89PNG\r\n\x1a\n", 8));

        const QString svg = dir.filePath(QStringLiteral("nccl.svg"));
        QVERIFY(chart.exportTo(svg, 800, 450));
        QFile sf(svg);
        QVERIFY(sf.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&sf);
        bool svgRoot = false;
        int texts = 0;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("svg"))
                svgRoot = true;
            if (xml.isStartElement() && xml.name() == QLatin1String("text"))
                ++texts;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(svgRoot);
        QVERIFY(texts > 5); // tick labels, axis labels, the annotations

        const QString pdf = dir.filePath(QStringLiteral("nccl.pdf"));
        QVERIFY(chart.exportTo(pdf, 800, 450));
        QCOMPARE(head(pdf, 5), QByteArray("%PDF-"));

        QVERIFY(!chart.exportTo(dir.filePath(QStringLiteral("nccl.bmp"))));
    }
};

QTEST_MAIN(TestPerfCharts)
#include "tst_perfcharts.moc"
