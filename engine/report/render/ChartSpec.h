// What a performance chart shows, computed once and drawn twice: by the report (ChartPainter.h,
// QPainter on a QImage, no widgets) and by the Validation view (widgets/validation/PerfCharts,
// QCustomPlot). A spec holds the series, their colours (by verdict for bars and history points),
// the threshold and pass lines with their labels, the axis titles, ranges and tick labels, and the
// scored-point annotation; the widgets add only interaction (zoom, drag, context menu).
//
//   ncclChartSpec()       busbw against message size (log2 axis, byte labels), every run's
//                         out-of-place and in-place lines, threshold and 0.9x pass line, the scored
//                         point (last row, out-of-place) annotated
//   inferenceChartSpec()  output throughput against its threshold; TTFT p50/p90/p99 against the limit
//   historyChartSpec()    one metric over time, pass/fail coloured, with the effective threshold
#pragma once

#include "store/RunStore.h"
#include "validation/Inference.h"
#include "validation/Nccl.h"
#include "validation/Score.h"

#include <QColor>
#include <QPolygonF>
#include <QRectF>
#include <QString>
#include <QVector>

#include <optional>
#include <vector>

namespace pb::report {

// The palette both faces use.
namespace chartcolors {
inline const QColor kThreshold(0xc6, 0x28, 0x28);
inline const QColor kTolerance(0xe6, 0x7e, 0x22);
inline const QColor kPass(0x2e, 0x7d, 0x32);
inline const QColor kFail(0xc6, 0x28, 0x28);
inline const QColor kTtft(0x15, 0x65, 0xc0);
inline const QColor kMeasured(0x75, 0x75, 0x75);
QColor runColor(int i); // the i-th run's colour (cycles through six)
} // namespace chartcolors

// "512", "1K", "64K", "1M", "8G" (powers of 1024; one decimal when not whole).
QString byteLabel(double bytes);
// 300 -> "300", 270.5 -> "270.5", 386.56 -> "386.56" (as the logs print them).
QString chartNumber(double v);

enum class ChartMarker { None, Circle, Square, Disc, HollowCircle };
enum class ChartLineStyle { Lines, None, StepLeft };
enum class ChartScale { Linear, Log2, DateTime };

struct ChartTick {
    double value = 0;
    QString label;
};

struct ChartSeries {
    QString name;
    QVector<double> x, y;
    QColor color;
    double width = 1;
    Qt::PenStyle style = Qt::SolidLine;
    ChartLineStyle line = ChartLineStyle::Lines;
    ChartMarker marker = ChartMarker::None;
    double markerSize = 0;
    bool inLegend = true;
};

// A horizontal line across the panel (a threshold, a pass line) with its label at the right end,
// above the line or below it.
struct ChartHLine {
    double y = 0;
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
    QString label;
    bool labelBelow = false;
};

struct ChartBars {
    QString name;
    double width = 0.5;
    QColor fill, border;
    std::vector<std::pair<double, double>> data; // key, value
};

// The scored point: a ring on a series' point and a label beside it (below-left of the point, or
// above-left when another mark's label would be in the way).
struct ChartMark {
    double x = 0, y = 0;
    QColor color;
    QString label;
    bool labelAbove = false;
    int series = -1; // the index of the series the point is on (the window rings that graph's point)
};

struct ChartPanel {
    QString xLabel, yLabel;
    QString yUnit; // the unit of the values (history: the metric's), empty when the label says it
    ChartScale xScale = ChartScale::Linear;
    double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
    std::vector<ChartTick> xTicks,
        yTicks; // what the report draws (the window's tickers follow the same labels)
    bool xGrid = true;
    std::vector<ChartSeries> series;
    std::vector<ChartBars> bars;
    std::vector<ChartHLine> lines;
    std::vector<ChartMark> marks; // one per NCCL run overlaid
    // History: points whose time is unknown stand in a column of their own right of this x (a dashed
    // line there); no date is drawn for them.
    std::optional<double> separatorX;
    bool legend = false;
    Qt::Alignment legendAlignment = Qt::AlignTop | Qt::AlignLeft;
};

struct ChartSpec {
    QString name; // "ncclChart", "inferenceChart", "historyChart"
    std::vector<ChartPanel> panels;
    bool empty = true; // nothing to draw: emptyText is shown in the first panel
    QString emptyText;
};

// One NCCL run as the chart overlays it.
struct NcclRunInput {
    QString label;
    validation::NcclResult result;
};

ChartSpec ncclChartSpec(const std::vector<NcclRunInput>& runs,
                        const std::optional<validation::Threshold>& threshold);
// The throughput and TTFT thresholds are the scored metrics' (output-throughput, ttft-p99).
ChartSpec inferenceChartSpec(const validation::InferenceResult* result,
                             const std::vector<validation::ScoredMetric>& metrics);
// The points of one metric (`title`; points of other metrics are left out, unless none is of it).
// `timeSpec`: how the date ticks are labelled (the window: local time; the report: UTC).
ChartSpec historyChartSpec(const QString& title, const std::vector<store::HistoryPoint>& points,
                           Qt::TimeSpec timeSpec = Qt::UTC);
// Whether a label's rectangle (pixels) touches any plotted path (pixels, a polyline per series): a
// label is placed where none does (the window and the report try their candidate places in turn).
bool crossesPaths(const QRectF& rect, const std::vector<QPolygonF>& paths);
// The first of `candidates` that crosses no path and overlaps none of `taken`; -1 when none is free.
int freePlace(const std::vector<QRectF>& candidates, const std::vector<QPolygonF>& paths,
              const std::vector<QRectF>& taken);
// Where a line's label may stand, in the order both faces try them: at `ratio` of the plot's width,
// aligned there (right, left or centred), above or below the line; the spec's side first.
struct LineLabelPlace {
    double ratio;
    Qt::Alignment horizontal;
    bool below;
};
std::vector<LineLabelPlace> lineLabelPlaces(const ChartHLine& line);
// Where a scored point's label may stand, in the order tried: its box's right edge `dx` pixels from
// the point, `dy` pixels above or below it; the spec's side first, then further away.
struct MarkLabelPlace {
    double dx, dy;
    bool above;
};
std::vector<MarkLabelPlace> markLabelPlaces(const ChartMark& mark);
// The corner of `panel` where a legend covers none of its points (bottom-right first).
Qt::Alignment freeCorner(const ChartPanel& panel);
// The sources a history chart's legend names (files, contexts' runs), in first-seen order.
QStringList historySources(const QString& title, const std::vector<store::HistoryPoint>& points);

// About `count` round ticks from min to max (1, 2, 2.5, 5 x 10^n steps), labelled with chartNumber.
std::vector<ChartTick> linearTicks(double min, double max, int count = 6);
// A round step for a time axis spanning `spanSeconds` with at most `maxTicks` ticks: whole minutes
// (1, 2, 5, 10, 15, 30), hours (1, 2, 3, 6, 12), days (1, 2), weeks (1, 2, 4, 8, 16) or 52 weeks;
// never 2.5 minutes (ticks that read 23:07, 23:10, 23:12).
double roundTimeStep(double spanSeconds, int maxTicks);

} // namespace pb::report
