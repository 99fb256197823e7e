#include "report/render/ChartSpec.h"

#include <QDateTime>
#include <QLineF>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace pb::report {

using validation::Threshold;

QColor chartcolors::runColor(int i) {
    static const QColor colors[] = {QColor(0x15, 0x65, 0xc0), QColor(0x6a, 0x1b, 0x9a),
                                    QColor(0x00, 0x83, 0x8f), QColor(0x8d, 0x6e, 0x63),
                                    QColor(0x55, 0x8b, 0x2f), QColor(0xad, 0x14, 0x57)};
    return colors[i % int(std::size(colors))];
}

QString byteLabel(double bytes) {
    static const char* units[] = {"", "K", "M", "G", "T", "P"};
    int u = 0;
    double v = bytes;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        ++u;
    }
    const bool whole = std::abs(v - std::round(v)) < 1e-9;
    return (whole ? QString::number(qint64(std::round(v))) : QString::number(v, 'f', 1)) +
           QLatin1String(units[u]);
}

QString chartNumber(double v) {
    return QString::number(std::round(v * 100) / 100, 'g', 12);
}

std::vector<ChartTick> linearTicks(double min, double max, int count) {
    std::vector<ChartTick> out;
    if (!(max > min) || count < 1)
        return out;
    const double raw = (max - min) / count;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= m * magnitude) {
            step = m * magnitude;
            break;
        }
    for (double v = std::ceil(min / step) * step; v <= max + step * 1e-9; v += step)
        out.push_back(
            ChartTick{std::abs(v) < step * 1e-9 ? 0.0 : v, chartNumber(std::abs(v) < step * 1e-9 ? 0.0 : v)});
    return out;
}

bool crossesPaths(const QRectF& rect, const std::vector<QPolygonF>& paths) {
    const QLineF edges[] = {
        QLineF(rect.topLeft(), rect.topRight()), QLineF(rect.topRight(), rect.bottomRight()),
        QLineF(rect.bottomRight(), rect.bottomLeft()), QLineF(rect.bottomLeft(), rect.topLeft())};
    for (const QPolygonF& path : paths)
        for (qsizetype i = 0; i < path.size(); ++i) {
            if (rect.contains(path[i]))
                return true;
            if (i == 0)
                continue;
            const QLineF segment(path[i - 1], path[i]);
            for (const QLineF& e : edges)
                if (segment.intersects(e, nullptr) == QLineF::BoundedIntersection)
                    return true;
        }
    return false;
}

int freePlace(const std::vector<QRectF>& candidates, const std::vector<QPolygonF>& paths,
              const std::vector<QRectF>& taken) {
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (crossesPaths(candidates[i], paths))
            continue;
        if (std::none_of(taken.begin(), taken.end(),
                         [&](const QRectF& t) { return t.intersects(candidates[i]); }))
            return int(i);
    }
    return -1;
}

std::vector<LineLabelPlace> lineLabelPlaces(const ChartHLine& line) {
    return {{0.995, Qt::AlignRight, line.labelBelow},
            {0.005, Qt::AlignLeft, line.labelBelow},
            {0.5, Qt::AlignHCenter, line.labelBelow},
            {0.995, Qt::AlignRight, !line.labelBelow},
            {0.005, Qt::AlignLeft, !line.labelBelow}};
}

std::vector<MarkLabelPlace> markLabelPlaces(const ChartMark& mark) {
    std::vector<MarkLabelPlace> out;
    for (double dy : {10.0, 34.0, 60.0, 90.0})
        for (bool above : {mark.labelAbove, !mark.labelAbove})
            out.push_back({-10, dy, above});
    return out;
}

double roundTimeStep(double spanSeconds, int maxTicks) {
    static const double steps[] = {60,      120,     300,     600,     900,     1800,   3600,
                                   7200,    10800,   21600,   43200,   86400,   172800, 604800,
                                   1209600, 2419200, 4838400, 9676800, 31449600};
    for (double s : steps)
        if (spanSeconds / s <= maxTicks)
            return s;
    return steps[std::size(steps) - 1] * std::ceil(spanSeconds / steps[std::size(steps) - 1] / maxTicks);
}

namespace {

// Powers of two from min to max, every k-th so that there are at most about eight.
std::vector<ChartTick> log2Ticks(double min, double max) {
    std::vector<ChartTick> out;
    const int lo = int(std::ceil(std::log2(min))), hi = int(std::floor(std::log2(max)));
    const int step = std::max(1, int(std::ceil(double(hi - lo + 1) / 8.0)));
    for (int e = lo - (((lo % step) + step) % step); e <= hi; e += step)
        if (e >= lo)
            out.push_back(ChartTick{std::ldexp(1.0, e), byteLabel(std::ldexp(1.0, e))});
    return out;
}

// Of a bar panel's x range, what its right end keeps free for line labels (in bar slots).
constexpr double kLabelRoom = 1.6;

ChartHLine hline(double y, const QColor& color, Qt::PenStyle style, const QString& label, bool below) {
    return ChartHLine{y, color, style, label, below};
}

std::optional<validation::ScoredMetric> metricNamed(const std::vector<validation::ScoredMetric>& metrics,
                                                    const QString& name) {
    std::optional<validation::ScoredMetric> out;
    for (const validation::ScoredMetric& m : metrics)
        if (m.name == name)
            out = m;
    return out;
}

// Bars at 1..n, and room right of the last for the threshold lines' labels (drawn at the right end):
// a bar never stands under a label.
ChartPanel barPanel(const QString& yLabel, const QStringList& ticks) {
    ChartPanel p;
    p.yLabel = yLabel;
    p.xMin = 0.3;
    // The bars take at most the left half (a label is up to half a narrow panel wide).
    p.xMax = std::max(ticks.size() + 0.7 + kLabelRoom, 2.0 * ticks.size() + 0.3);
    p.xGrid = false;
    for (int i = 0; i < ticks.size(); ++i)
        p.xTicks.push_back(ChartTick{double(i + 1), ticks[i]});
    return p;
}

ChartSeries scatter(const QString& name, const QColor& color, ChartMarker marker, double width = 1) {
    ChartSeries s;
    s.name = name;
    s.color = color;
    s.width = width;
    s.line = ChartLineStyle::None;
    s.marker = marker;
    s.markerSize = 9;
    return s;
}

} // namespace

ChartSpec ncclChartSpec(const std::vector<NcclRunInput>& runs, const std::optional<Threshold>& threshold) {
    ChartSpec spec;
    spec.name = QStringLiteral("ncclChart");
    spec.emptyText =
        QStringLiteral("No NCCL result yet: run a performance phase or open a run with nccl-tests output");
    ChartPanel p;
    p.xScale = ChartScale::Log2;
    p.xLabel = QStringLiteral("message size (bytes, log₂)");
    p.yLabel = QStringLiteral("bus bandwidth (GB/s)");
    p.legend = true;
    p.legendAlignment = Qt::AlignTop | Qt::AlignLeft;
    double minX = 0, maxX = 0, maxY = 0;
    std::vector<QString> markRuns; // the run of each mark
    for (const NcclRunInput& run : runs) {
        if (run.result.rows.empty())
            continue; // as if never added
        const QColor color = chartcolors::runColor(int(p.series.size() / 2));
        ChartSeries oop{QStringLiteral("%1 out-of-place").arg(run.label),
                        {},
                        {},
                        color,
                        2,
                        Qt::SolidLine,
                        ChartLineStyle::Lines,
                        ChartMarker::Circle,
                        5,
                        true};
        ChartSeries ip{QStringLiteral("%1 in-place").arg(run.label),
                       {},
                       {},
                       color,
                       1.4,
                       Qt::DashLine,
                       ChartLineStyle::Lines,
                       ChartMarker::Square,
                       4,
                       true};
        for (const validation::NcclRow& r : run.result.rows) {
            if (r.sizeBytes <= 0)
                continue; // a log axis has no room for 0 bytes
            oop.x << double(r.sizeBytes);
            ip.x << double(r.sizeBytes);
            oop.y << r.oopBusBw;
            ip.y << r.ipBusBw;
            maxY = std::max({maxY, r.oopBusBw, r.ipBusBw});
        }
        minX = minX == 0 ? (oop.x.isEmpty() ? 1 : oop.x.front())
                         : std::min(minX, oop.x.isEmpty() ? 1 : oop.x.front());
        maxX = std::max(maxX, oop.x.isEmpty() ? 2 : oop.x.back());
        // The scored point of every run: AICR reads the out-of-place busbw of the last row.
        const double key = double(run.result.lastSizeBytes());
        const auto at = std::find(oop.x.begin(), oop.x.end(), key);
        ChartMark mark{key, at == oop.x.end() ? run.result.lastOopBusBw() : oop.y.at(at - oop.x.begin()),
                       color.darker(130),
                       QStringLiteral("scored: %1 GB/s at %2B")
                           .arg(chartNumber(run.result.lastOopBusBw()), byteLabel(key))};
        mark.series = int(p.series.size());
        p.marks.push_back(mark);
        markRuns.push_back(run.label);
        p.series.push_back(std::move(oop));
        p.series.push_back(std::move(ip));
    }
    if (p.marks.size() > 1) {
        // Several runs: each label names its run; labels of close points go one above, one below.
        std::vector<size_t> order(p.marks.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](size_t a, size_t b) { return p.marks[a].y > p.marks[b].y; });
        for (size_t k = 0; k < order.size(); ++k) {
            ChartMark& mk = p.marks[order[k]];
            mk.label = QStringLiteral("%1 %2").arg(markRuns[order[k]], mk.label);
            mk.labelAbove = k % 2 == 0 && k + 1 < order.size();
        }
    }
    if (threshold) {
        p.lines.push_back(hline(
            threshold->value, chartcolors::kThreshold, Qt::SolidLine,
            QStringLiteral("threshold %1 GB/s (%2)").arg(chartNumber(threshold->value), threshold->written),
            false));
        // The pass line's label goes under it, so the two never overlap.
        p.lines.push_back(hline(threshold->effective(), chartcolors::kTolerance, Qt::DashLine,
                                QStringLiteral("pass line %1× = %2 GB/s")
                                    .arg(threshold->tolerance)
                                    .arg(chartNumber(threshold->effective())),
                                true));
        maxY = std::max(maxY, threshold->value);
    }
    if (minX <= 0) {
        minX = 1024;
        maxX = 8.0 * 1024 * 1024 * 1024;
    }
    if (maxY <= 0)
        maxY = 100;
    p.xMin = minX / 1.6;
    p.xMax = maxX * 1.6;
    p.yMax = maxY * 1.15;
    p.xTicks = log2Ticks(p.xMin, p.xMax);
    p.yTicks = linearTicks(p.yMin, p.yMax);
    spec.empty = p.series.empty();
    spec.panels.push_back(std::move(p));
    return spec;
}

ChartSpec inferenceChartSpec(const validation::InferenceResult* result,
                             const std::vector<validation::ScoredMetric>& metrics) {
    ChartSpec spec;
    spec.name = QStringLiteral("inferenceChart");
    spec.emptyText = QStringLiteral("No inference result");
    ChartPanel left =
        barPanel(QStringLiteral("output throughput (tokens/s)"), {QStringLiteral("throughput")});
    ChartPanel right = barPanel(QStringLiteral("time to first token (ms)"),
                                {QStringLiteral("p50"), QStringLiteral("p90"), QStringLiteral("p99")});
    const std::optional<validation::ScoredMetric> tput =
        metricNamed(metrics, QStringLiteral("output-throughput"));
    const std::optional<validation::ScoredMetric> ttft = metricNamed(metrics, QStringLiteral("ttft-p99"));
    double maxL = 0, maxR = 0;
    const bool tputPass = !tput || tput->pass;
    ChartBars tb{QStringLiteral("throughput"),
                 0.5,
                 (tputPass ? chartcolors::kPass : chartcolors::kFail).lighter(150),
                 tputPass ? chartcolors::kPass : chartcolors::kFail,
                 {}};
    const bool ttftPass = !ttft || ttft->pass;
    ChartBars rb{QStringLiteral("TTFT"),
                 0.6,
                 ttftPass ? chartcolors::kTtft.lighter(160) : chartcolors::kFail.lighter(150),
                 ttftPass ? chartcolors::kTtft : chartcolors::kFail,
                 {}};
    if (result && result->outputTokensPerSec) {
        tb.data.emplace_back(1, *result->outputTokensPerSec);
        maxL = *result->outputTokensPerSec;
    }
    if (result) {
        const std::optional<double> ps[] = {result->ttftMs.p50, result->ttftMs.p90, result->ttftMs.p99};
        for (int i = 0; i < 3; ++i)
            if (ps[i]) {
                rb.data.emplace_back(i + 1, *ps[i]);
                maxR = std::max(maxR, *ps[i]);
            }
    }
    if (tput && tput->threshold) {
        const Threshold& t = *tput->threshold;
        left.lines.push_back(hline(t.value, chartcolors::kThreshold, Qt::SolidLine,
                                   QStringLiteral("threshold %1").arg(chartNumber(t.value)), false));
        left.lines.push_back(hline(t.effective(), chartcolors::kTolerance, Qt::DashLine,
                                   QStringLiteral("pass %1×").arg(t.tolerance), true));
        maxL = std::max(maxL, t.value);
    }
    if (ttft && ttft->threshold) {
        const Threshold& t = *ttft->threshold;
        // The limit and its 1.1x pass line are close: the higher line's label goes above it, the
        // lower's below it, so the two never overlap whatever the scale.
        const bool passAbove = t.effective() >= t.value;
        right.lines.push_back(hline(t.value, chartcolors::kThreshold, Qt::SolidLine,
                                    QStringLiteral("p99 limit %1 ms").arg(chartNumber(t.value)), passAbove));
        right.lines.push_back(hline(t.effective(), chartcolors::kTolerance, Qt::DashLine,
                                    QStringLiteral("pass %1×").arg(t.tolerance), !passAbove));
        maxR = std::max(maxR, t.effective());
    }
    left.bars.push_back(std::move(tb));
    right.bars.push_back(std::move(rb));
    left.yMax = maxL > 0 ? maxL * 1.2 : 1;
    right.yMax = maxR > 0 ? maxR * 1.2 : 1;
    left.yTicks = linearTicks(0, left.yMax);
    right.yTicks = linearTicks(0, right.yMax);
    spec.empty = maxL <= 0 && maxR <= 0;
    spec.panels.push_back(std::move(left));
    spec.panels.push_back(std::move(right));
    return spec;
}

// The corner of a panel where its legend covers no point (tried in the order bottom-right, top-right,
// top-left, bottom-left; the one covering fewest when none is free). The legend's size is estimated
// from its rows and longest name, as a share of a small panel (560 x 360 px of plot); a larger panel
// only leaves more room.
Qt::Alignment freeCorner(const ChartPanel& p) {
    int rows = 0;
    qsizetype longest = 0;
    for (const ChartSeries& s : p.series)
        if (s.inLegend) {
            ++rows;
            longest = std::max(longest, s.name.size());
        }
    const double w = std::min(0.9, (50.0 + 7.0 * double(longest)) / 560.0) + 0.03;
    const double h = std::min(0.9, (10.0 + 20.0 * rows) / 360.0) + 0.04;
    const Qt::Alignment corners[] = {Qt::AlignBottom | Qt::AlignRight, Qt::AlignTop | Qt::AlignRight,
                                     Qt::AlignTop | Qt::AlignLeft, Qt::AlignBottom | Qt::AlignLeft};
    Qt::Alignment best = corners[0];
    int fewest = -1;
    for (Qt::Alignment c : corners) {
        int covered = 0;
        for (const ChartSeries& s : p.series) {
            if (s.marker == ChartMarker::None && s.line != ChartLineStyle::None)
                continue; // lines: only their points count
            for (qsizetype i = 0; i < s.x.size(); ++i) {
                const double fx = (s.x[i] - p.xMin) / (p.xMax - p.xMin);
                const double fy = (s.y[i] - p.yMin) / (p.yMax - p.yMin); // 0 bottom, 1 top
                const bool inX = (c & Qt::AlignRight) ? fx >= 1 - w : fx <= w;
                const bool inY = (c & Qt::AlignBottom) ? fy <= h : fy >= 1 - h;
                covered += inX && inY ? 1 : 0;
            }
        }
        if (covered == 0)
            return c;
        if (fewest < 0 || covered < fewest) {
            fewest = covered;
            best = c;
        }
    }
    return best;
}

QStringList historySources(const QString& title, const std::vector<store::HistoryPoint>& points) {
    const bool anyOfTitle = std::any_of(points.begin(), points.end(),
                                        [&](const store::HistoryPoint& p) { return p.metric == title; });
    QStringList out;
    for (const store::HistoryPoint& p : points)
        if ((!anyOfTitle || p.metric == title) && !p.source.isEmpty() && !out.contains(p.source))
            out << p.source;
    return out;
}

namespace {

QString historyLegend(const QStringList& sources) {
    if (sources.isEmpty())
        return QStringLiteral("measured");
    if (sources.size() <= 3)
        return sources.join(QStringLiteral(", "));
    return QStringLiteral("%1, %2 and %3 more").arg(sources.at(0), sources.at(1)).arg(sources.size() - 2);
}

std::vector<ChartTick> dateTicks(double min, double max, Qt::TimeSpec spec) {
    std::vector<ChartTick> out;
    if (!(max > min))
        return out;
    const double step = roundTimeStep(max - min, 8);
    // Aligned to the step in the zone the labels are in (a day starts at that zone's midnight).
    const QTimeZone zone = spec == Qt::UTC ? QTimeZone::utc() : QTimeZone::systemTimeZone();
    const qint64 offset = zone.offsetFromUtc(QDateTime::fromSecsSinceEpoch(qint64(min), zone));
    const double first = std::ceil((min + double(offset)) / step) * step - double(offset);
    for (double v = first; v <= max + 1e-6; v += step) {
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(qint64(v * 1000), zone);
        out.push_back(ChartTick{v, at.toString(step >= 86400 ? QStringLiteral("yyyy-MM-dd")
                                                             : QStringLiteral("yyyy-MM-dd\nHH:mm"))});
    }
    return out;
}

} // namespace

ChartSpec historyChartSpec(const QString& title, const std::vector<store::HistoryPoint>& points,
                           Qt::TimeSpec timeSpec) {
    ChartSpec spec;
    spec.name = QStringLiteral("historyChart");
    spec.emptyText = QStringLiteral("No history: the selected recipe has no stored runs with this metric");
    ChartPanel p;
    p.xScale = ChartScale::DateTime;
    p.xLabel = QStringLiteral("run started");
    p.legend = true;
    p.legendAlignment = Qt::AlignBottom | Qt::AlignRight;
    // The line joins dated points only: a point of unknown time has no place on a time axis.
    ChartSeries values{historyLegend(historySources(title, points)),
                       {},
                       {},
                       chartcolors::kMeasured,
                       1.2,
                       Qt::SolidLine,
                       ChartLineStyle::Lines,
                       ChartMarker::None,
                       0,
                       true};
    ChartSeries pass = scatter(QStringLiteral("pass"), chartcolors::kPass, ChartMarker::Disc);
    ChartSeries fail = scatter(QStringLiteral("fail"), chartcolors::kFail, ChartMarker::Disc);
    // Met this metric's threshold, but the check failed (on another metric): not a pass.
    ChartSeries metButFailed = scatter(QStringLiteral("met here; the check failed on another metric"),
                                       chartcolors::kFail, ChartMarker::HollowCircle, 2.2);
    // Around each point of unknown time (drawn in its own column, coloured by its verdict).
    ChartSeries unknown =
        scatter(QStringLiteral("time unknown (right of the dashed line)"), chartcolors::kMeasured,
                ChartMarker::Circle, 1.4); // no fill: the verdict's disc shows inside
    unknown.markerSize = 16;
    ChartSeries threshold{QStringLiteral("pass line (effective threshold)"),
                          {},
                          {},
                          chartcolors::kTolerance,
                          1.6,
                          Qt::DashLine,
                          ChartLineStyle::StepLeft,
                          ChartMarker::None,
                          0,
                          true};
    const bool anyOfTitle = std::any_of(points.begin(), points.end(),
                                        [&](const store::HistoryPoint& h) { return h.metric == title; });
    std::vector<const store::HistoryPoint*> shown;
    double datedMin = 0, datedMax = 0;
    bool anyDated = false, anyUnknown = false;
    double maxY = 0;
    QString unit;
    for (const store::HistoryPoint& h : points) {
        if (anyOfTitle && h.metric != title)
            continue;
        shown.push_back(&h);
        if (h.timeKnown) {
            const double key = double(h.at.toMSecsSinceEpoch()) / 1000.0;
            datedMin = anyDated ? std::min(datedMin, key) : key;
            datedMax = anyDated ? std::max(datedMax, key) : key;
            anyDated = true;
        } else {
            anyUnknown = true;
        }
        maxY = std::max(maxY, h.value);
        if (h.effectiveThreshold)
            maxY = std::max(maxY, *h.effectiveThreshold);
        if (unit.isEmpty())
            unit = h.unit;
    }
    // Dated points over [datedMin, datedMax]; the unknown column right of a dashed line after them.
    const double span = anyDated ? std::max(3600.0, datedMax - datedMin) : 3600.0;
    const double datedEnd = anyDated ? datedMax + span * 0.08 : 0;
    const double column = anyDated ? datedEnd + span * 0.14 : 0;
    for (const store::HistoryPoint* h : shown) {
        const double key = h->timeKnown ? double(h->at.toMSecsSinceEpoch()) / 1000.0 : column;
        if (h->timeKnown) {
            values.x << key;
            values.y << h->value;
            if (h->effectiveThreshold) {
                threshold.x << key;
                threshold.y << *h->effectiveThreshold;
            }
        } else {
            unknown.x << key;
            unknown.y << h->value;
        }
        ChartSeries& dot = !h->pass ? fail : h->checkFailed ? metButFailed : pass;
        dot.x << key;
        dot.y << h->value;
    }
    unknown.inLegend = anyUnknown;
    metButFailed.inLegend = !metButFailed.x.isEmpty();
    p.yUnit = unit;
    p.yLabel = unit.isEmpty() ? title : QStringLiteral("%1 (%2)").arg(title, unit);
    if (anyDated) {
        p.xMin = datedMin - span * 0.08;
        p.xMax = anyUnknown ? column + span * 0.12 : datedEnd;
        p.xTicks = dateTicks(p.xMin, datedEnd, timeSpec);
        if (anyUnknown)
            p.separatorX = datedEnd;
    } else if (anyUnknown) {
        p.xMin = -1;
        p.xMax = 1;
    }
    if (anyUnknown)
        p.xTicks.push_back(ChartTick{column, QStringLiteral("time\nunknown")});
    p.yMax = maxY > 0 ? maxY * 1.15 : 1;
    p.yTicks = linearTicks(0, p.yMax);
    spec.empty = shown.empty();
    p.series = {values, pass, fail, unknown, threshold, metButFailed};
    p.legendAlignment = freeCorner(p);
    spec.panels.push_back(std::move(p));
    return spec;
}

} // namespace pb::report
