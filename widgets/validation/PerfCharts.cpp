#include "PerfCharts.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSvgGenerator>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace pb::widgets {

using validation::NcclResult;
using validation::Threshold;

namespace {

QPen penOf(const report::ChartSeries& s) {
    return QPen(s.color, s.width, s.style);
}

QCPScatterStyle scatterOf(const report::ChartSeries& s) {
    switch (s.marker) {
    case report::ChartMarker::None:
        return QCPScatterStyle(QCPScatterStyle::ssNone);
    case report::ChartMarker::Circle:
        return QCPScatterStyle(QCPScatterStyle::ssCircle, s.markerSize);
    case report::ChartMarker::Square:
        return QCPScatterStyle(QCPScatterStyle::ssSquare, s.markerSize);
    case report::ChartMarker::Disc:
        return QCPScatterStyle(QCPScatterStyle::ssDisc, s.color, s.markerSize);
    case report::ChartMarker::HollowCircle:
        return QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(s.color, s.width), Qt::white, s.markerSize);
    }
    return {};
}

} // namespace

ByteLogTicker::ByteLogTicker() {
    setLogBase(2);
    setSubTickCount(0);
    setTickCount(8);
}

QString ByteLogTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return byteLabel(tick);
}

// ---- base ------------------------------------------------------------------------------------

PerfChart::PerfChart(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(360, 240);
    setAntialiasedElements(QCP::aeAll);
    setNoAntialiasingOnDrag(true);
    setContextMenuPolicy(Qt::CustomContextMenu);
    connect(this, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        menu.setObjectName(QStringLiteral("chartMenu"));
        menu.addAction(tr("Export as PNG, SVG or PDF…"), this, &PerfChart::exportInteractively);
        menu.addAction(tr("Reset zoom"), this, [this] {
            rescaleAxes();
            replot();
        });
        menu.exec(mapToGlobal(pos));
    });
    m_emptyText = new QCPItemText(this);
    m_emptyText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_emptyText->position->setCoords(0.5, 0.5);
    m_emptyText->setColor(Qt::gray);
    m_emptyText->setClipToAxisRect(false);
}

void PerfChart::setEmptyText(const QString& text) {
    m_emptyText->setText(text);
    m_emptyText->setVisible(m_empty && !text.isEmpty());
}

Status PerfChart::exportTo(const QString& path, int width, int height) {
    if (width <= 0 || height <= 0) {
        width = this->width() >= 200 ? this->width() : 960;
        height = this->height() >= 150 ? this->height() : 540;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (suffix == QLatin1String("png")) {
        ok = savePng(path, width, height);
    } else if (suffix == QLatin1String("pdf")) {
        ok = savePdf(path, width, height, QCP::epNoCosmetic, QStringLiteral("Proofbench"),
                     QFileInfo(path).completeBaseName());
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(QSize(width, height));
        svg.setViewBox(QRect(0, 0, width, height));
        svg.setTitle(QFileInfo(path).completeBaseName());
        svg.setDescription(QStringLiteral("Proofbench chart"));
        QCPPainter painter;
        if (painter.begin(&svg)) {
            toPainter(&painter, width, height);
            ok = painter.end();
        }
    } else {
        return makeError(
            QStringLiteral("%1: cannot export a chart as '%2' (use .png, .svg or .pdf)").arg(path, suffix));
    }
    if (!ok || QFileInfo(path).size() == 0)
        return makeError(QStringLiteral("%1: the chart could not be written").arg(path));
    return {};
}

void PerfChart::exportInteractively() {
    QString selected;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), objectName() + QStringLiteral(".png"),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &selected);
    if (path.isEmpty())
        return;
    QString file = path;
    if (QFileInfo(file).suffix().isEmpty())
        file += selected.contains(QLatin1String("svg"))   ? QStringLiteral(".svg")
                : selected.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                          : QStringLiteral(".png");
    const Status s = exportTo(file);
    emit exported(file, s ? QString() : s.error().toString());
}

QCPItemStraightLine* PerfChart::horizontalLine(QCPAxisRect* rect, const report::ChartHLine& spec,
                                               QCPItemText** labelOut) {
    auto* line = new QCPItemStraightLine(this);
    line->setClipAxisRect(rect);
    for (QCPItemPosition* p : {line->point1, line->point2}) {
        p->setAxisRect(rect);
        p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    }
    // Keys 1 and 2 are valid on a log axis too; the line is infinite either way.
    line->point1->setCoords(1, spec.y);
    line->point2->setCoords(2, spec.y);
    line->setPen(QPen(spec.color, 1.6, spec.style));
    auto* text = new QCPItemText(this);
    text->setClipAxisRect(rect);
    text->position->setAxisRect(rect);
    text->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    text->position->setTypeY(QCPItemPosition::ptPlotCoords);
    text->position->setCoords(0.995, spec.y);
    text->setPositionAlignment(Qt::AlignRight | (spec.labelBelow ? Qt::AlignTop : Qt::AlignBottom));
    text->setColor(spec.color);
    text->setText(spec.label);
    // Over the bars and graphs, on a white ground: nothing drawn under a label hides part of it.
    text->setLayer(QStringLiteral("overlay"));
    text->setBrush(QColor(255, 255, 255, 225));
    text->setPadding(QMargins(3, 0, 3, 0));
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    text->setFont(f);
    if (labelOut)
        *labelOut = text;
    return line;
}

void PerfChart::styleGraph(QCPGraph* graph, const report::ChartSeries& s) {
    graph->setName(s.name);
    graph->setPen(penOf(s));
    graph->setScatterStyle(scatterOf(s));
    graph->setLineStyle(s.line == report::ChartLineStyle::None       ? QCPGraph::lsNone
                        : s.line == report::ChartLineStyle::StepLeft ? QCPGraph::lsStepLeft
                                                                     : QCPGraph::lsLine);
    graph->setData(s.x, s.y, true);
    graph->removeFromLegend();
    if (s.inLegend)
        graph->addToLegend();
}

QCPGraph* PerfChart::addSeries(QCPAxisRect* rect, const report::ChartSeries& s) {
    QCPGraph* graph = addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    styleGraph(graph, s);
    return graph;
}

void PerfChart::setRanges(QCPAxisRect* rect, const report::ChartPanel& panel) {
    rect->axis(QCPAxis::atBottom)->setRange(panel.xMin, panel.xMax);
    rect->axis(QCPAxis::atLeft)->setRange(panel.yMin, panel.yMax);
}

// ---- NCCL ------------------------------------------------------------------------------------

NcclChart::NcclChart(QWidget* parent) : PerfChart(parent) {
    const report::ChartSpec s = spec();
    const report::ChartPanel& p = s.panels.front();
    setObjectName(s.name);
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new ByteLogTicker));
    xAxis->setLabel(p.xLabel);
    yAxis->setLabel(p.yLabel);
    xAxis->grid()->setSubGridVisible(false);
    legend->setVisible(p.legend);
    QFont lf = font();
    lf.setPointSizeF(lf.pointSizeF() * 0.9);
    legend->setFont(lf);
    legend->setBrush(QColor(255, 255, 255, 220));
    axisRect()->insetLayout()->setInsetAlignment(0, p.legendAlignment);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setEmptyText(s.emptyText);
    rescale();
}

void NcclChart::clearMarks() {
    for (QCPItemTracer* t : std::as_const(m_scored))
        removeItem(t);
    for (QCPItemText* t : std::as_const(m_scoredLabels))
        removeItem(t);
    m_scored.clear();
    m_scoredLabels.clear();
}

void NcclChart::clearRuns() {
    clearGraphs();
    m_runs.clear();
    m_inputs.clear();
    clearMarks();
    m_empty = true;
    setEmptyText(m_emptyText->text());
    rescale();
    replot();
}

void NcclChart::addRun(const QString& label, const NcclResult& result) {
    if (result.rows.empty())
        return;
    m_inputs.push_back(report::NcclRunInput{label, result});
    const report::ChartSpec s = spec();
    const report::ChartPanel& p = s.panels.front();
    // The spec's last two series are this run's: out-of-place, then in-place.
    RunGraphs g;
    g.oop = addSeries(axisRect(), p.series.at(p.series.size() - 2));
    g.ip = addSeries(axisRect(), p.series.back());
    m_runs.push_back(g);

    // Every run's scored point (AICR reads the out-of-place busbw of the last row), as the spec places
    // them and their labels.
    clearMarks();
    for (const report::ChartMark& mark : p.marks) {
        auto* tracer = new QCPItemTracer(this);
        tracer->setStyle(QCPItemTracer::tsCircle);
        tracer->setSize(14);
        tracer->setInterpolating(false);
        tracer->setGraph(m_runs.at(size_t(mark.series / 2)).oop);
        tracer->setGraphKey(mark.x);
        tracer->setPen(QPen(mark.color, 2));
        tracer->setBrush(Qt::NoBrush);
        auto* text = new QCPItemText(this);
        text->setPositionAlignment(Qt::AlignRight | (mark.labelAbove ? Qt::AlignBottom : Qt::AlignTop));
        text->position->setParentAnchor(tracer->position);
        text->position->setCoords(-10, mark.labelAbove ? -10 : 10);
        text->setPadding(QMargins(4, 2, 4, 2));
        text->setBrush(QColor(255, 255, 255, 230));
        QFont f = font();
        f.setBold(true);
        text->setFont(f);
        text->setColor(mark.color);
        text->setPen(QPen(mark.color));
        text->setText(mark.label);
        m_scored.push_back(tracer);
        m_scoredLabels.push_back(text);
    }
    m_empty = s.empty;
    m_emptyText->setVisible(m_empty);
    setRanges(axisRect(), p);
    placeLabels();
}

void NcclChart::setThreshold(const std::optional<Threshold>& threshold) {
    m_thresholdValue = threshold;
    for (QCPAbstractItem* item :
         {static_cast<QCPAbstractItem*>(m_threshold), static_cast<QCPAbstractItem*>(m_tolerance),
          static_cast<QCPAbstractItem*>(m_thresholdLabel), static_cast<QCPAbstractItem*>(m_toleranceLabel)})
        if (item)
            removeItem(item);
    m_threshold = m_tolerance = nullptr;
    m_thresholdLabel = m_toleranceLabel = nullptr;
    const std::vector<report::ChartHLine> lines =
        spec().panels.front().lines; // the threshold, then its pass line
    if (lines.size() == 2) {
        m_threshold = horizontalLine(axisRect(), lines[0], &m_thresholdLabel);
        m_tolerance = horizontalLine(axisRect(), lines[1], &m_toleranceLabel);
    }
    rescale();
    placeLabels();
    replot();
}

void NcclChart::rescale() {
    setRanges(axisRect(), spec().panels.front());
}

void NcclChart::resizeEvent(QResizeEvent* event) {
    PerfChart::resizeEvent(event);
    placeLabels();
}

void NcclChart::placeLabels() {
    if (m_empty)
        return;
    replot(); // the axis rect's geometry, for the pixel positions below
    std::vector<QPolygonF> paths;
    for (int g = 0; g < graphCount(); ++g) {
        QPolygonF path;
        for (auto it = graph(g)->data()->constBegin(); it != graph(g)->data()->constEnd(); ++it)
            path << QPointF(xAxis->coordToPixel(it->key), yAxis->coordToPixel(it->value));
        paths.push_back(path);
    }
    auto rectOf = [](QCPItemText* t) {
        return QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized();
    };
    std::vector<QRectF> taken;
    const report::ChartPanel p = spec().panels.front();
    // The threshold lines' labels, at the first of their places (report::lineLabelPlaces) where no
    // curve passes and no label is, as the report places them.
    QCPItemText* const lineLabels[] = {m_thresholdLabel, m_toleranceLabel};
    for (size_t i = 0; i < std::size(lineLabels) && i < p.lines.size(); ++i) {
        QCPItemText* label = lineLabels[i];
        if (!label)
            continue;
        const std::vector<report::LineLabelPlace> places = report::lineLabelPlaces(p.lines[i]);
        auto put = [&](const report::LineLabelPlace& pl) {
            label->position->setCoords(pl.ratio, p.lines[i].y);
            label->setPositionAlignment(pl.horizontal | (pl.below ? Qt::AlignTop : Qt::AlignBottom));
        };
        std::vector<QRectF> candidates;
        for (const report::LineLabelPlace& pl : places) {
            put(pl);
            candidates.push_back(rectOf(label));
        }
        const int chosen = std::max(0, report::freePlace(candidates, paths, taken));
        put(places[size_t(chosen)]);
        taken.push_back(candidates[size_t(chosen)]);
    }
    // Each scored point's label, beside its point (report::markLabelPlaces).
    for (qsizetype i = 0; i < m_scoredLabels.size() && size_t(i) < p.marks.size(); ++i) {
        QCPItemText* label = m_scoredLabels[i];
        const std::vector<report::MarkLabelPlace> places = report::markLabelPlaces(p.marks[size_t(i)]);
        auto put = [&](const report::MarkLabelPlace& pl) {
            label->position->setCoords(pl.dx, pl.above ? -pl.dy : pl.dy);
            label->setPositionAlignment(Qt::AlignRight | (pl.above ? Qt::AlignBottom : Qt::AlignTop));
        };
        std::vector<QRectF> candidates;
        for (const report::MarkLabelPlace& pl : places) {
            put(pl);
            candidates.push_back(rectOf(label));
        }
        const int chosen = std::max(0, report::freePlace(candidates, paths, taken));
        put(places[size_t(chosen)]);
        taken.push_back(candidates[size_t(chosen)]);
    }
    replot();
}

// ---- inference -------------------------------------------------------------------------------

namespace {

void setupBarAxes(QCPAxisRect* rect, const report::ChartPanel& p) {
    QSharedPointer<QCPAxisTickerText> t(new QCPAxisTickerText);
    for (const report::ChartTick& tick : p.xTicks)
        t->addTick(tick.value, tick.label);
    rect->axis(QCPAxis::atBottom)->setTicker(t);
    rect->axis(QCPAxis::atBottom)->setRange(p.xMin, p.xMax);
    rect->axis(QCPAxis::atBottom)->grid()->setVisible(p.xGrid);
    rect->axis(QCPAxis::atLeft)->setLabel(p.yLabel);
}

QCPBars* barsOf(QCPAxisRect* rect, const report::ChartBars& spec) {
    auto* bars = new QCPBars(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    bars->setName(spec.name);
    bars->setWidth(spec.width);
    return bars;
}

void fillBars(QCPBars* bars, const report::ChartBars& spec) {
    for (const auto& [key, value] : spec.data)
        bars->addData(key, value);
    bars->setBrush(spec.fill);
    bars->setPen(QPen(spec.border));
}

} // namespace

InferenceChart::InferenceChart(QWidget* parent) : PerfChart(parent) {
    const report::ChartSpec s = report::inferenceChartSpec(nullptr, {});
    setObjectName(s.name);
    m_left = axisRect();
    m_right = new QCPAxisRect(this);
    plotLayout()->addElement(0, 1, m_right);
    legend->setVisible(false);
    setupBarAxes(m_left, s.panels.at(0));
    setupBarAxes(m_right, s.panels.at(1));
    m_throughput = barsOf(m_left, s.panels.at(0).bars.front());
    m_ttft = barsOf(m_right, s.panels.at(1).bars.front());
    m_emptyText->position->setAxisRect(m_left);
    setEmptyText(s.emptyText);
}

void InferenceChart::clearResult() {
    m_ttftLimitLabel = m_ttftPassLabel = nullptr;
    m_throughput->data()->clear();
    m_ttft->data()->clear();
    for (int i = itemCount() - 1; i >= 0; --i)
        if (item(i) != m_emptyText)
            removeItem(i);
    m_empty = true;
    setEmptyText(m_emptyText->text());
    replot();
}

void InferenceChart::setResult(const validation::InferenceResult& result,
                               const std::vector<validation::ScoredMetric>& metrics) {
    clearResult();
    const report::ChartSpec s = report::inferenceChartSpec(&result, metrics);
    const report::ChartPanel &left = s.panels.at(0), &right = s.panels.at(1);
    fillBars(m_throughput, left.bars.front());
    fillBars(m_ttft, right.bars.front());
    for (const report::ChartHLine& line : left.lines)
        horizontalLine(m_left, line);
    // The TTFT limit, then its pass line (their labels placed by the spec so they never overlap).
    if (right.lines.size() == 2) {
        horizontalLine(m_right, right.lines[0], &m_ttftLimitLabel);
        horizontalLine(m_right, right.lines[1], &m_ttftPassLabel);
    }
    setRanges(m_left, left);
    setRanges(m_right, right);
    m_left->axis(QCPAxis::atBottom)->setRange(left.xMin, left.xMax);
    m_empty = s.empty;
    m_emptyText->setVisible(m_empty);
    replot();
}

// ---- history ---------------------------------------------------------------------------------

HistoryTicker::HistoryTicker() {
    setDateTimeFormat(QStringLiteral("yyyy-MM-dd\nHH:mm"));
    setDateTimeSpec(Qt::LocalTime);
    setTickCount(8);
}

double HistoryTicker::getTickStep(const QCPRange& range) {
    m_step = report::roundTimeStep(range.size(), tickCount()); // the report's round steps
    return m_step;
}

QVector<double> HistoryTicker::createTickVector(double tickStep, const QCPRange& range) {
    // Aligned to the step in local time, as the report aligns its ticks in its zone.
    QVector<double> ticks;
    const QTimeZone zone = QTimeZone::systemTimeZone();
    const double offset = zone.offsetFromUtc(QDateTime::fromSecsSinceEpoch(qint64(range.lower), zone));
    if (tickStep > 0)
        for (double v = std::ceil((range.lower + offset) / tickStep) * tickStep - offset; v <= range.upper;
             v += tickStep)
            ticks.push_back(v);
    if (m_separator)
        ticks.erase(std::remove_if(ticks.begin(), ticks.end(), [&](double t) { return t >= *m_separator; }),
                    ticks.end());
    if (m_column && range.contains(*m_column))
        ticks.push_back(*m_column);
    return ticks;
}

QString HistoryTicker::getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) {
    if (m_column && tick == *m_column)
        return tr("time\nunknown");
    if (m_step >= 86400) // whole days: the date alone, as the report labels them
        return QDateTime::fromMSecsSinceEpoch(qint64(tick * 1000), QTimeZone::systemTimeZone())
            .toString(QStringLiteral("yyyy-MM-dd"));
    return QCPAxisTickerDateTime::getTickLabel(tick, locale, formatChar, precision);
}

HistoryChart::HistoryChart(QWidget* parent) : PerfChart(parent) {
    const report::ChartSpec s = report::historyChartSpec(QString(), {}, Qt::LocalTime);
    const report::ChartPanel& p = s.panels.front();
    setObjectName(s.name);
    m_ticker = QSharedPointer<HistoryTicker>(new HistoryTicker);
    xAxis->setTicker(m_ticker);
    xAxis->setLabel(p.xLabel);
    // The spec's series, in its order: measured, pass, fail, time unknown, pass line, met-but-failed.
    m_values = addSeries(axisRect(), p.series.at(0));
    m_pass = addSeries(axisRect(), p.series.at(1));
    m_fail = addSeries(axisRect(), p.series.at(2));
    m_unknownTime = addSeries(axisRect(), p.series.at(3));
    m_thresholdGraph = addSeries(axisRect(), p.series.at(4));
    m_metButFailed = addSeries(axisRect(), p.series.at(5));
    m_separator = new QCPItemStraightLine(this);
    m_separator->setPen(QPen(QColor(0x9e, 0x9e, 0x9e), 1, Qt::DashLine));
    m_separator->setVisible(false);
    legend->setVisible(p.legend);
    axisRect()->insetLayout()->setInsetAlignment(0, p.legendAlignment);
    legend->setBrush(QColor(255, 255, 255, 220));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setEmptyText(s.emptyText);
}

void HistoryChart::setHistory(const QString& title, const std::vector<models::HistoryPoint>& points) {
    const report::ChartSpec s = report::historyChartSpec(title, points, Qt::LocalTime);
    const report::ChartPanel& p = s.panels.front();
    QCPGraph* graphs[] = {m_values, m_pass, m_fail, m_unknownTime, m_thresholdGraph, m_metButFailed};
    for (size_t i = 0; i < std::size(graphs); ++i)
        styleGraph(graphs[i], p.series.at(i));
    // Points of unknown time stand right of a dashed line, under a "time unknown" tick, never at a date.
    std::optional<double> column;
    for (const report::ChartTick& t : p.xTicks)
        if (t.label.contains(QLatin1String("unknown")))
            column = t.value;
    m_ticker->setUnknownColumn(p.separatorX, column);
    m_separator->setVisible(p.separatorX.has_value());
    if (p.separatorX) {
        m_separator->point1->setCoords(*p.separatorX, 0);
        m_separator->point2->setCoords(*p.separatorX, 1);
    }
    m_sources = report::historySources(title, points);
    m_unit = p.yUnit;
    axisRect()->insetLayout()->setInsetAlignment(0, p.legendAlignment); // the corner that hides no point
    yAxis->setLabel(p.yLabel);
    if (!s.empty)
        xAxis->setRange(p.xMin, p.xMax);
    yAxis->setRange(p.yMin, p.yMax);
    m_empty = s.empty;
    m_emptyText->setVisible(m_empty);
    replot();
}

} // namespace pb::widgets
