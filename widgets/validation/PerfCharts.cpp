#include "PerfCharts.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSvgGenerator>

#include <cmath>

namespace pb::widgets {

using validation::NcclResult;
using validation::Threshold;

namespace {

const QColor kThreshold(0xc6, 0x28, 0x28);
const QColor kTolerance(0xe6, 0x7e, 0x22);
const QColor kPass(0x2e, 0x7d, 0x32);
const QColor kFail(0xc6, 0x28, 0x28);

QColor runColor(int i) {
    static const QColor colors[] = {QColor(0x15, 0x65, 0xc0), QColor(0x6a, 0x1b, 0x9a), QColor(0x00, 0x83, 0x8f),
                                    QColor(0x8d, 0x6e, 0x63), QColor(0x55, 0x8b, 0x2f), QColor(0xad, 0x14, 0x57)};
    return colors[i % int(std::size(colors))];
}

// 300 -> "300", 270.5 -> "270.5", 386.56 -> "386.56" (as the logs print them).
QString number(double v) {
    return QString::number(std::round(v * 100) / 100, 'g', 12);
}

} // namespace

QString byteLabel(double bytes) {
    static const char* units[] = {"", "K", "M", "G", "T", "P"};
    int u = 0;
    double v = bytes;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        ++u;
    }
    const bool whole = std::abs(v - std::round(v)) < 1e-9;
    return (whole ? QString::number(qint64(std::round(v))) : QString::number(v, 'f', 1)) + QLatin1String(units[u]);
}

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
        ok = savePdf(path, width, height, QCP::epNoCosmetic, QStringLiteral("Proofbench"), QFileInfo(path).completeBaseName());
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
        return makeError(QStringLiteral("%1: cannot export a chart as '%2' (use .png, .svg or .pdf)").arg(path, suffix));
    }
    if (!ok || QFileInfo(path).size() == 0)
        return makeError(QStringLiteral("%1: the chart could not be written").arg(path));
    return {};
}

void PerfChart::exportInteractively() {
    QString selected;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), objectName() + QStringLiteral(".png"),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &selected);
    if (path.isEmpty())
        return;
    QString file = path;
    if (QFileInfo(file).suffix().isEmpty())
        file += selected.contains(QLatin1String("svg")) ? QStringLiteral(".svg")
                : selected.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                          : QStringLiteral(".png");
    const Status s = exportTo(file);
    emit exported(file, s ? QString() : s.error().toString());
}

QCPItemStraightLine* PerfChart::horizontalLine(QCPAxisRect* rect, double y, const QColor& color, Qt::PenStyle style,
                                               const QString& label, QCPItemText** labelOut) {
    auto* line = new QCPItemStraightLine(this);
    line->setClipAxisRect(rect);
    for (QCPItemPosition* p : {line->point1, line->point2}) {
        p->setAxisRect(rect);
        p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    }
    // Keys 1 and 2 are valid on a log axis too; the line is infinite either way.
    line->point1->setCoords(1, y);
    line->point2->setCoords(2, y);
    line->setPen(QPen(color, 1.6, style));
    auto* text = new QCPItemText(this);
    text->setClipAxisRect(rect);
    text->position->setAxisRect(rect);
    text->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    text->position->setTypeY(QCPItemPosition::ptPlotCoords);
    text->position->setCoords(0.995, y);
    text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    text->setColor(color);
    text->setText(label);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    text->setFont(f);
    if (labelOut)
        *labelOut = text;
    return line;
}

// ---- NCCL ------------------------------------------------------------------------------------

NcclChart::NcclChart(QWidget* parent) : PerfChart(parent) {
    setObjectName(QStringLiteral("ncclChart"));
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new ByteLogTicker));
    xAxis->setLabel(tr("message size (bytes, log₂)"));
    yAxis->setLabel(tr("bus bandwidth (GB/s)"));
    xAxis->grid()->setSubGridVisible(false);
    legend->setVisible(true);
    QFont lf = font();
    lf.setPointSizeF(lf.pointSizeF() * 0.9);
    legend->setFont(lf);
    legend->setBrush(QColor(255, 255, 255, 220));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setEmptyText(tr("No NCCL result yet: run a performance phase or open a run with nccl-tests output"));
    rescale();
}

void NcclChart::clearRuns() {
    clearGraphs();
    m_runs.clear();
    if (m_scored) {
        removeItem(m_scored);
        m_scored = nullptr;
    }
    if (m_scoredLabel) {
        removeItem(m_scoredLabel);
        m_scoredLabel = nullptr;
    }
    m_empty = true;
    setEmptyText(m_emptyText->text());
    rescale();
    replot();
}

void NcclChart::addRun(const QString& label, const NcclResult& result) {
    if (result.rows.empty())
        return;
    const QColor color = runColor(int(m_runs.size()));
    RunGraphs g;
    QVector<double> x, oop, ip;
    for (const validation::NcclRow& r : result.rows) {
        if (r.sizeBytes <= 0)
            continue; // a log axis has no room for 0 bytes
        x << double(r.sizeBytes);
        oop << r.oopBusBw;
        ip << r.ipBusBw;
        g.maxY = std::max({g.maxY, r.oopBusBw, r.ipBusBw});
    }
    g.minX = x.isEmpty() ? 1 : x.front();
    g.maxX = x.isEmpty() ? 2 : x.back();
    g.oop = addGraph();
    g.oop->setName(tr("%1 out-of-place").arg(label));
    g.oop->setPen(QPen(color, 2));
    g.oop->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    g.oop->setData(x, oop, true);
    g.ip = addGraph();
    g.ip->setName(tr("%1 in-place").arg(label));
    g.ip->setPen(QPen(color, 1.4, Qt::DashLine));
    g.ip->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 4));
    g.ip->setData(x, ip, true);
    m_runs.push_back(g);

    // The scored point: AICR reads the out-of-place busbw of the last row.
    if (!m_scored) {
        m_scored = new QCPItemTracer(this);
        m_scored->setStyle(QCPItemTracer::tsCircle);
        m_scored->setSize(14);
        m_scored->setInterpolating(false);
        m_scoredLabel = new QCPItemText(this);
        m_scoredLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        m_scoredLabel->position->setParentAnchor(m_scored->position);
        m_scoredLabel->position->setCoords(-10, 10);
        m_scoredLabel->setPadding(QMargins(4, 2, 4, 2));
        m_scoredLabel->setBrush(QColor(255, 255, 255, 230));
        QFont f = font();
        f.setBold(true);
        m_scoredLabel->setFont(f);
    }
    m_scored->setGraph(g.oop);
    m_scored->setGraphKey(double(result.lastSizeBytes()));
    m_scored->setPen(QPen(color.darker(130), 2));
    m_scored->setBrush(Qt::NoBrush);
    m_scoredLabel->setColor(color.darker(130));
    m_scoredLabel->setPen(QPen(color.darker(130)));
    m_scoredLabel->setText(tr("scored: %1 GB/s at %2B").arg(number(result.lastOopBusBw()), byteLabel(double(result.lastSizeBytes()))));
    m_empty = false;
    m_emptyText->setVisible(false);
    rescale();
    replot();
}

void NcclChart::setThreshold(const std::optional<Threshold>& threshold) {
    m_thresholdValue = threshold;
    for (QCPAbstractItem* item : {static_cast<QCPAbstractItem*>(m_threshold), static_cast<QCPAbstractItem*>(m_tolerance),
                                  static_cast<QCPAbstractItem*>(m_thresholdLabel), static_cast<QCPAbstractItem*>(m_toleranceLabel)})
        if (item)
            removeItem(item);
    m_threshold = m_tolerance = nullptr;
    m_thresholdLabel = m_toleranceLabel = nullptr;
    if (threshold) {
        m_threshold = horizontalLine(axisRect(), threshold->value, kThreshold, Qt::SolidLine,
                                     tr("threshold %1 GB/s (%2)").arg(number(threshold->value), threshold->written), &m_thresholdLabel);
        m_tolerance = horizontalLine(axisRect(), threshold->effective(), kTolerance, Qt::DashLine,
                                     tr("pass line %1× = %2 GB/s").arg(threshold->tolerance).arg(number(threshold->effective())),
                                     &m_toleranceLabel);
        // The pass line's label goes under it, so the two never overlap.
        m_toleranceLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    }
    rescale();
    replot();
}

void NcclChart::rescale() {
    double minX = 0, maxX = 0, maxY = 0;
    for (const RunGraphs& g : m_runs) {
        minX = minX == 0 ? g.minX : std::min(minX, g.minX);
        maxX = std::max(maxX, g.maxX);
        maxY = std::max(maxY, g.maxY);
    }
    if (m_thresholdValue)
        maxY = std::max(maxY, m_thresholdValue->value);
    if (minX <= 0) {
        minX = 1024;
        maxX = 8.0 * 1024 * 1024 * 1024;
    }
    if (maxY <= 0)
        maxY = 100;
    xAxis->setRange(minX / 1.6, maxX * 1.6);
    yAxis->setRange(0, maxY * 1.15);
}

// ---- inference -------------------------------------------------------------------------------

InferenceChart::InferenceChart(QWidget* parent) : PerfChart(parent) {
    setObjectName(QStringLiteral("inferenceChart"));
    m_left = axisRect();
    m_right = new QCPAxisRect(this);
    plotLayout()->addElement(0, 1, m_right);
    legend->setVisible(false);
    auto setup = [](QCPAxisRect* rect, const QString& yLabel, const QStringList& ticks) {
        QSharedPointer<QCPAxisTickerText> t(new QCPAxisTickerText);
        for (int i = 0; i < ticks.size(); ++i)
            t->addTick(i + 1, ticks[i]);
        rect->axis(QCPAxis::atBottom)->setTicker(t);
        rect->axis(QCPAxis::atBottom)->setRange(0.3, ticks.size() + 0.7);
        rect->axis(QCPAxis::atBottom)->grid()->setVisible(false);
        rect->axis(QCPAxis::atLeft)->setLabel(yLabel);
    };
    setup(m_left, tr("output throughput (tokens/s)"), {tr("throughput")});
    setup(m_right, tr("time to first token (ms)"), {QStringLiteral("p50"), QStringLiteral("p90"), QStringLiteral("p99")});
    m_throughput = new QCPBars(m_left->axis(QCPAxis::atBottom), m_left->axis(QCPAxis::atLeft));
    m_throughput->setName(tr("throughput"));
    m_throughput->setWidth(0.5);
    m_ttft = new QCPBars(m_right->axis(QCPAxis::atBottom), m_right->axis(QCPAxis::atLeft));
    m_ttft->setName(tr("TTFT"));
    m_ttft->setWidth(0.6);
    m_emptyText->position->setAxisRect(m_left);
    setEmptyText(tr("No inference result"));
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

void InferenceChart::setResult(const validation::InferenceResult& result, const std::vector<validation::ScoredMetric>& metrics) {
    clearResult();
    std::optional<validation::ScoredMetric> tput, ttft;
    for (const validation::ScoredMetric& m : metrics) {
        if (m.name == QLatin1String("output-throughput"))
            tput = m;
        if (m.name == QLatin1String("ttft-p99"))
            ttft = m;
    }
    double maxL = 0, maxR = 0;
    if (result.outputTokensPerSec) {
        const bool pass = !tput || tput->pass;
        m_throughput->addData(1, *result.outputTokensPerSec);
        m_throughput->setBrush(pass ? kPass.lighter(150) : kFail.lighter(150));
        m_throughput->setPen(QPen(pass ? kPass : kFail));
        maxL = *result.outputTokensPerSec;
    }
    const std::optional<double> ps[] = {result.ttftMs.p50, result.ttftMs.p90, result.ttftMs.p99};
    for (int i = 0; i < 3; ++i)
        if (ps[i]) {
            m_ttft->addData(i + 1, *ps[i]);
            maxR = std::max(maxR, *ps[i]);
        }
    const bool ttftPass = !ttft || ttft->pass;
    m_ttft->setBrush(ttftPass ? QColor(0x15, 0x65, 0xc0).lighter(160) : kFail.lighter(150));
    m_ttft->setPen(QPen(ttftPass ? QColor(0x15, 0x65, 0xc0) : kFail));
    if (tput && tput->threshold) {
        const Threshold& t = *tput->threshold;
        horizontalLine(m_left, t.value, kThreshold, Qt::SolidLine, tr("threshold %1").arg(number(t.value)));
        QCPItemText* label = nullptr;
        horizontalLine(m_left, t.effective(), kTolerance, Qt::DashLine, tr("pass %1×").arg(t.tolerance), &label);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        maxL = std::max(maxL, t.value);
    }
    if (ttft && ttft->threshold) {
        const Threshold& t = *ttft->threshold;
        // The limit and its 1.1x pass line are close: the higher line's label goes above it, the
        // lower's below it, so the two never overlap whatever the scale.
        QCPItemText *limitLabel = nullptr, *passLabel = nullptr;
        horizontalLine(m_right, t.value, kThreshold, Qt::SolidLine, tr("p99 limit %1 ms").arg(number(t.value)), &limitLabel);
        horizontalLine(m_right, t.effective(), kTolerance, Qt::DashLine, tr("pass %1×").arg(t.tolerance), &passLabel);
        const bool passAbove = t.effective() >= t.value;
        (passAbove ? passLabel : limitLabel)->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        (passAbove ? limitLabel : passLabel)->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        m_ttftLimitLabel = limitLabel;
        m_ttftPassLabel = passLabel;
        maxR = std::max(maxR, t.effective());
    }
    m_left->axis(QCPAxis::atLeft)->setRange(0, maxL > 0 ? maxL * 1.2 : 1);
    m_right->axis(QCPAxis::atLeft)->setRange(0, maxR > 0 ? maxR * 1.2 : 1);
    m_empty = maxL <= 0 && maxR <= 0;
    m_emptyText->setVisible(m_empty);
    replot();
}

// ---- history ---------------------------------------------------------------------------------

HistoryChart::HistoryChart(QWidget* parent) : PerfChart(parent) {
    setObjectName(QStringLiteral("historyChart"));
    QSharedPointer<QCPAxisTickerDateTime> t(new QCPAxisTickerDateTime);
    t->setDateTimeFormat(QStringLiteral("yyyy-MM-dd\nHH:mm"));
    t->setDateTimeSpec(Qt::LocalTime);
    t->setTickCount(5);
    xAxis->setTicker(t);
    xAxis->setLabel(tr("run started"));
    m_values = addGraph();
    m_values->setName(tr("measured"));
    m_values->setPen(QPen(QColor(0x75, 0x75, 0x75), 1.2));
    m_pass = addGraph();
    m_pass->setName(tr("pass"));
    m_pass->setLineStyle(QCPGraph::lsNone);
    m_pass->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kPass, 9));
    m_fail = addGraph();
    m_fail->setName(tr("fail"));
    m_fail->setLineStyle(QCPGraph::lsNone);
    m_fail->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kFail, 9));
    m_unknownTime = addGraph();
    m_unknownTime->setName(tr("time unknown (drawn at import)"));
    m_unknownTime->setLineStyle(QCPGraph::lsNone);
    m_unknownTime->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0x75, 0x75, 0x75), 1.6), Qt::white, 9));
    m_unknownTime->removeFromLegend();
    m_thresholdGraph = addGraph();
    m_thresholdGraph->setName(tr("pass line (effective threshold)"));
    m_thresholdGraph->setLineStyle(QCPGraph::lsStepLeft);
    m_thresholdGraph->setPen(QPen(kTolerance, 1.6, Qt::DashLine));
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    legend->setBrush(QColor(255, 255, 255, 220));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setEmptyText(tr("No history: the selected recipe has no stored runs with this metric"));
}

void HistoryChart::setHistory(const QString& title, const std::vector<store::HistoryPoint>& points) {
    QVector<double> x, y, px, py, fx, fy, tx, ty, ux, uy;
    double maxY = 0;
    QString unit;
    m_sources.clear();
    // One metric per chart: its own points, and the unit they were measured in.
    bool anyOfTitle = false;
    for (const store::HistoryPoint& p : points)
        anyOfTitle = anyOfTitle || p.metric == title;
    for (const store::HistoryPoint& p : points) {
        if (anyOfTitle && p.metric != title)
            continue;
        const double key = double(p.at.toMSecsSinceEpoch()) / 1000.0;
        x << key;
        y << p.value;
        if (!p.timeKnown) {
            // An import whose report did not say when it ran: drawn at the import time, hollow.
            ux << key;
            uy << p.value;
        } else {
            (p.pass ? px : fx) << key;
            (p.pass ? py : fy) << p.value;
        }
        maxY = std::max(maxY, p.value);
        if (p.effectiveThreshold) {
            tx << key;
            ty << *p.effectiveThreshold;
            maxY = std::max(maxY, *p.effectiveThreshold);
        }
        if (unit.isEmpty())
            unit = p.unit;
        if (!p.source.isEmpty() && !m_sources.contains(p.source))
            m_sources << p.source;
    }
    m_values->setData(x, y, true);
    m_pass->setData(px, py, true);
    m_fail->setData(fx, fy, true);
    m_unknownTime->setData(ux, uy, true);
    m_unknownTime->removeFromLegend();
    if (!ux.isEmpty())
        m_unknownTime->addToLegend();
    m_thresholdGraph->setData(tx, ty, true);
    // The legend names where the points came from (a file, a context's run), not "run N".
    m_values->setName(m_sources.isEmpty() ? tr("measured")
                      : m_sources.size() <= 3 ? m_sources.join(QStringLiteral(", "))
                                              : tr("%1, %2 and %n more", nullptr, int(m_sources.size() - 2)).arg(m_sources.at(0), m_sources.at(1)));
    m_unit = unit;
    yAxis->setLabel(unit.isEmpty() ? title : QStringLiteral("%1 (%2)").arg(title, unit));
    if (!x.isEmpty()) {
        const double span = std::max(3600.0, x.back() - x.front());
        xAxis->setRange(x.front() - span * 0.08, x.back() + span * 0.08);
    }
    yAxis->setRange(0, maxY > 0 ? maxY * 1.15 : 1);
    m_empty = x.isEmpty();
    m_emptyText->setVisible(m_empty);
    replot();
}

} // namespace pb::widgets
