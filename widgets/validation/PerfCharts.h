// Performance charts of the Validation view (QCustomPlot). What they show (series, colours by
// verdict, threshold and pass lines with their labels, axis titles and ranges, the scored point)
// is computed by the engine's chart specs (report/render/ChartSpec.h), the same specs the release
// review report draws, so the report's charts are the charts the window shows; these classes add
// the interaction (zoom, drag, export from the context menu):
// - NcclChart: busbw against message size on a log2 axis with byte labels (1K, 1M, 1G), the
//   out-of-place and in-place lines of every run overlaid, the recipe threshold and the 0.9x line
//   AICR passes at, and the scored point (the last row, out-of-place) marked and annotated;
// - InferenceChart: output throughput against its threshold (and 0.9x), TTFT p50/p90/p99 against
//   the limit (and 1.1x);
// - HistoryChart: one metric of a coordinate's runs over time, pass/fail coloured, with the
//   effective threshold.
// Each exports PNG, SVG and PDF (exportTo, or the context menu).
#pragma once

#include "RunModels.h"
#include "core/Result.h"
#include "report/render/ChartSpec.h"
#include "validation/Inference.h"
#include "validation/Nccl.h"
#include "validation/Score.h"

#include <qcustomplot.h>

#include <optional>
#include <vector>

namespace pb::widgets {

// "512", "1K", "64K", "1M", "8G" (powers of 1024; one decimal when not whole).
using report::byteLabel;

// A log2 ticker whose labels are byte sizes.
class ByteLogTicker : public QCPAxisTickerLog {
  public:
    ByteLogTicker();

  protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

class PerfChart : public QCustomPlot {
    Q_OBJECT
  public:
    explicit PerfChart(QWidget* parent = nullptr);
    // Writes the chart by the file's suffix: .png, .svg or .pdf. Width/height 0: the widget's size
    // (or 960x540 when it has none yet).
    Status exportTo(const QString& path, int width = 0, int height = 0);
    // Asks for a file name (PNG/SVG/PDF) and exports; the result goes to the status tip.
    void exportInteractively();
    // Nothing drawn yet (no data).
    bool isEmptyChart() const { return m_empty; }

  signals:
    void exported(const QString& path, const QString& error);

  protected:
    // A horizontal line at `y` with a label at the right end of the axis rect.
    QCPItemStraightLine* horizontalLine(QCPAxisRect* rect, const report::ChartHLine& line,
                                        QCPItemText** labelOut = nullptr);
    // A graph drawn as the spec's series says (pen, markers, line style, name, data, legend).
    QCPGraph* addSeries(QCPAxisRect* rect, const report::ChartSeries& series);
    // Pen, markers, line style, name, data and legend entry of `graph`, from the spec.
    void styleGraph(QCPGraph* graph, const report::ChartSeries& series);
    static void setRanges(QCPAxisRect* rect, const report::ChartPanel& panel);
    void setEmptyText(const QString& text);
    bool m_empty = true;
    QCPItemText* m_emptyText = nullptr;
};

class NcclChart : public PerfChart {
    Q_OBJECT
  public:
    explicit NcclChart(QWidget* parent = nullptr);

    void clearRuns();
    // One run: an out-of-place and an in-place graph, in the run's colour. The scored point marks
    // the last run added.
    void addRun(const QString& label, const validation::NcclResult& result);
    // The recipe threshold (">= 300"): a line at its value and one at effective() (0.9x).
    void setThreshold(const std::optional<validation::Threshold>& threshold);

    int runCount() const { return int(m_runs.size()); }
    QCPGraph* outOfPlaceGraph(int run) const { return m_runs.at(size_t(run)).oop; }
    QCPGraph* inPlaceGraph(int run) const { return m_runs.at(size_t(run)).ip; }
    QCPItemStraightLine* thresholdLine() const { return m_threshold; }
    QCPItemStraightLine* toleranceLine() const { return m_tolerance; }
    // Every run's scored point and its label; without an argument, the last run's.
    int scoredMarkerCount() const { return int(m_scored.size()); }
    QCPItemTracer* scoredMarker(int run = -1) const {
        return m_scored.isEmpty() ? nullptr : m_scored.at(run < 0 ? m_scored.size() - 1 : run);
    }
    QCPItemText* scoredLabel(int run = -1) const {
        return m_scoredLabels.isEmpty() ? nullptr
                                        : m_scoredLabels.at(run < 0 ? m_scoredLabels.size() - 1 : run);
    }

  private:
    struct RunGraphs {
        QCPGraph *oop = nullptr, *ip = nullptr;
    };
    report::ChartSpec spec() const { return report::ncclChartSpec(m_inputs, m_thresholdValue); }
    void rescale();
    std::vector<RunGraphs> m_runs;
    std::vector<report::NcclRunInput> m_inputs;
    std::optional<validation::Threshold> m_thresholdValue;
    QCPItemStraightLine* m_threshold = nullptr;
    QCPItemStraightLine* m_tolerance = nullptr;
    QCPItemText* m_thresholdLabel = nullptr;
    QCPItemText* m_toleranceLabel = nullptr;
    void clearMarks();
    // Every label (the threshold lines', each scored point's) where no curve passes and no other
    // label is: tried at its usual place first, then at the others.
    void placeLabels();
    void resizeEvent(QResizeEvent* event) override;
    QList<QCPItemTracer*> m_scored;
    QList<QCPItemText*> m_scoredLabels;
};

class InferenceChart : public PerfChart {
    Q_OBJECT
  public:
    explicit InferenceChart(QWidget* parent = nullptr);
    // The throughput and TTFT thresholds are the scored metrics' (output-throughput, ttft-p99).
    void setResult(const validation::InferenceResult& result,
                   const std::vector<validation::ScoredMetric>& metrics);
    void clearResult();

    QCPBars* throughputBars() const { return m_throughput; }
    QCPBars* ttftBars() const { return m_ttft; }
    QCPAxisRect* throughputRect() const { return m_left; }
    QCPAxisRect* ttftRect() const { return m_right; }
    // The TTFT limit's and its pass line's labels (null without a TTFT threshold).
    QCPItemText* ttftLimitLabel() const { return m_ttftLimitLabel; }
    QCPItemText* ttftPassLabel() const { return m_ttftPassLabel; }

  private:
    QCPAxisRect *m_left = nullptr, *m_right = nullptr;
    QCPItemText *m_ttftLimitLabel = nullptr, *m_ttftPassLabel = nullptr;
    QCPBars *m_throughput = nullptr, *m_ttft = nullptr;
};

// Dates up to the history's dashed line, then one "time unknown" tick for the column of points whose
// time is unknown (the spec's separatorX and that tick).
class HistoryTicker : public QCPAxisTickerDateTime {
    Q_DECLARE_TR_FUNCTIONS(HistoryTicker)
  public:
    HistoryTicker();
    void setUnknownColumn(std::optional<double> separator, std::optional<double> column) {
        m_separator = separator;
        m_column = column;
    }

  protected:
    double getTickStep(const QCPRange& range) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

  private:
    std::optional<double> m_separator, m_column;
    double m_step = 0; // the step of the ticks made last
};

class HistoryChart : public PerfChart {
    Q_OBJECT
  public:
    explicit HistoryChart(QWidget* parent = nullptr);
    // The points of one metric (`title`, e.g. busbw; points of other metrics are left out), oldest
    // first. The axis unit is that metric's; imports with no known time stand in a column right of a
    // dashed line (ringed, coloured by their verdict), joined to nothing; a point that met its
    // threshold in a check that failed on another metric is a red ring, not a pass; the legend names
    // the sources (files, contexts' runs).
    void setHistory(const QString& title, const std::vector<models::HistoryPoint>& points);

    QString unit() const { return m_unit; }
    QStringList sources() const { return m_sources; }
    QCPGraph* unknownTimeGraph() const { return m_unknownTime; }
    QCPGraph* valueGraph() const { return m_values; }
    QCPGraph* passGraph() const { return m_pass; }
    QCPGraph* failGraph() const { return m_fail; }
    QCPGraph* thresholdGraph() const { return m_thresholdGraph; }
    // Points that met their threshold in a check that failed (on another metric).
    QCPGraph* metButFailedGraph() const { return m_metButFailed; }
    // The dashed line before the column of points of unknown time (hidden when there are none).
    QCPItemStraightLine* unknownSeparator() const { return m_separator; }
    QSharedPointer<HistoryTicker> ticker() const { return m_ticker; }

  private:
    QCPGraph *m_values = nullptr, *m_pass = nullptr, *m_fail = nullptr, *m_thresholdGraph = nullptr;
    QCPGraph *m_unknownTime = nullptr, *m_metButFailed = nullptr;
    QCPItemStraightLine* m_separator = nullptr;
    QSharedPointer<HistoryTicker> m_ticker;
    QString m_unit;
    QStringList m_sources;
};

} // namespace pb::widgets
