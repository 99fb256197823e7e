#include "report/render/ChartPainter.h"

#include <QBuffer>
#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace pb::report {

namespace {

constexpr int kDotsPerMeter = 3780; // 96 dpi
const QColor kGrid(0xe0, 0xe0, 0xe0);
const QColor kAxis(0x30, 0x30, 0x30);

QFont chartFont(int pixels, bool bold = false) {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(pixels);
    f.setBold(bold);
    f.setHintingPreference(QFont::PreferNoHinting);
    return f;
}

// Data to pixels inside one panel's plot rectangle.
struct Mapper {
    QRectF rect;
    const ChartPanel& p;
    double tx(double x) const { return p.xScale == ChartScale::Log2 ? std::log2(std::max(x, 1e-300)) : x; }
    double px(double x) const {
        return rect.left() + (tx(x) - tx(p.xMin)) / (tx(p.xMax) - tx(p.xMin)) * rect.width();
    }
    double py(double y) const { return rect.bottom() - (y - p.yMin) / (p.yMax - p.yMin) * rect.height(); }
};

void drawMarker(QPainter& g, ChartMarker m, QPointF at, double size, const QColor& color, double width) {
    const double r = size / 2;
    switch (m) {
    case ChartMarker::None:
        return;
    case ChartMarker::Circle:
        g.setPen(QPen(color, width));
        g.setBrush(Qt::NoBrush);
        g.drawEllipse(at, r, r);
        return;
    case ChartMarker::Square:
        g.setPen(QPen(color, width));
        g.setBrush(Qt::NoBrush);
        g.drawRect(QRectF(at.x() - r, at.y() - r, size, size));
        return;
    case ChartMarker::Disc:
        g.setPen(Qt::NoPen);
        g.setBrush(color);
        g.drawEllipse(at, r, r);
        return;
    case ChartMarker::HollowCircle:
        g.setPen(QPen(color, width));
        g.setBrush(Qt::white);
        g.drawEllipse(at, r, r);
        return;
    }
}

void drawAxes(QPainter& g, const Mapper& m) {
    const ChartPanel& p = m.p;
    g.setFont(chartFont(11));
    for (const ChartTick& t : p.yTicks) {
        const double y = m.py(t.value);
        g.setPen(QPen(kGrid, 1));
        g.drawLine(QPointF(m.rect.left(), y), QPointF(m.rect.right(), y));
        g.setPen(kAxis);
        g.drawText(QRectF(m.rect.left() - 66, y - 8, 60, 16), Qt::AlignRight | Qt::AlignVCenter, t.label);
    }
    for (const ChartTick& t : p.xTicks) {
        const double x = m.px(t.value);
        if (x < m.rect.left() - 0.5 || x > m.rect.right() + 0.5)
            continue;
        if (p.xGrid) {
            g.setPen(QPen(kGrid, 1));
            g.drawLine(QPointF(x, m.rect.top()), QPointF(x, m.rect.bottom()));
        }
        g.setPen(kAxis);
        g.drawLine(QPointF(x, m.rect.bottom()), QPointF(x, m.rect.bottom() + 4));
        g.drawText(QRectF(x - 60, m.rect.bottom() + 5, 120, 30), Qt::AlignHCenter | Qt::AlignTop, t.label);
    }
    g.setPen(QPen(kAxis, 1));
    g.setBrush(Qt::NoBrush);
    g.drawRect(m.rect);
    g.setFont(chartFont(12));
    g.drawText(QRectF(m.rect.left(), m.rect.bottom() + 34, m.rect.width(), 20),
               Qt::AlignHCenter | Qt::AlignTop, p.xLabel);
    g.save();
    g.translate(m.rect.left() - 72, m.rect.center().y());
    g.rotate(-90);
    g.drawText(QRectF(-m.rect.height() / 2, -18, m.rect.height(), 18), Qt::AlignHCenter | Qt::AlignBottom,
               p.yLabel);
    g.restore();
}

void drawSeries(QPainter& g, const Mapper& m, const ChartSeries& s) {
    if (s.line != ChartLineStyle::None && s.x.size() > 1) {
        QPainterPath path;
        for (qsizetype i = 0; i < s.x.size(); ++i) {
            const QPointF pt(m.px(s.x[i]), m.py(s.y[i]));
            if (i == 0)
                path.moveTo(pt);
            else if (s.line == ChartLineStyle::StepLeft) {
                path.lineTo(pt.x(), m.py(s.y[i - 1]));
                path.lineTo(pt);
            } else
                path.lineTo(pt);
        }
        g.setPen(QPen(s.color, s.width, s.style));
        g.setBrush(Qt::NoBrush);
        g.drawPath(path);
    }
    for (qsizetype i = 0; i < s.x.size(); ++i)
        drawMarker(g, s.marker, QPointF(m.px(s.x[i]), m.py(s.y[i])), s.markerSize, s.color,
                   s.width > 1.5 ? s.width : 1);
}

void drawBars(QPainter& g, const Mapper& m, const ChartBars& b) {
    g.setPen(QPen(b.border, 1));
    g.setBrush(b.fill);
    for (const auto& [key, value] : b.data)
        g.drawRect(
            QRectF(QPointF(m.px(key - b.width / 2), m.py(value)), QPointF(m.px(key + b.width / 2), m.py(0))));
}

// The plotted paths in pixels (a polyline per series with a line; the points of the others), where
// no label may stand.
std::vector<QPolygonF> plottedPaths(const Mapper& m) {
    std::vector<QPolygonF> paths;
    for (const ChartSeries& s : m.p.series) {
        QPolygonF path;
        for (qsizetype i = 0; i < s.x.size(); ++i)
            path << QPointF(m.px(s.x[i]), m.py(s.y[i]));
        if (s.line != ChartLineStyle::None)
            paths.push_back(path);
        else
            for (const QPointF& pt : std::as_const(path))
                paths.push_back(QPolygonF{pt});
    }
    return paths;
}

// The threshold lines and their labels: each label at the first of its places (lineLabelPlaces)
// where no curve passes and no label is.
void drawLines(QPainter& g, const Mapper& m, const std::vector<ChartHLine>& lines,
               const std::vector<QPolygonF>& paths, std::vector<QRectF>& taken) {
    g.setFont(chartFont(11));
    const QFontMetricsF fm(g.font());
    for (const ChartHLine& l : lines) {
        const double y = m.py(l.y);
        g.setPen(QPen(l.color, 1.6, l.style));
        g.drawLine(QPointF(m.rect.left(), y), QPointF(m.rect.right(), y));
        const double h = fm.height();
        const double w = fm.horizontalAdvance(l.label) + 6;
        std::vector<QRectF> candidates;
        for (const LineLabelPlace& pl : lineLabelPlaces(l)) {
            const double anchor = m.rect.left() + pl.ratio * m.rect.width();
            const double x = pl.horizontal == Qt::AlignRight  ? anchor - w
                             : pl.horizontal == Qt::AlignLeft ? anchor
                                                              : anchor - w / 2;
            candidates.emplace_back(x, pl.below ? y + 1 : y - h - 1, w, h);
        }
        const int chosen = freePlace(candidates, paths, taken);
        const QRectF box = candidates[size_t(std::max(0, chosen))];
        taken.push_back(box);
        // On a white ground: a bar or a series under the label never hides part of it.
        g.fillRect(box, QColor(255, 255, 255, 225));
        g.setPen(l.color);
        g.drawText(box.adjusted(3, 0, -3, 0), Qt::AlignRight | Qt::AlignVCenter, l.label);
    }
}

// The scored point: a ring, and its label beside it on the side no curve passes.
void drawMark(QPainter& g, const Mapper& m, const ChartMark& mark, const std::vector<QPolygonF>& paths,
              std::vector<QRectF>& taken) {
    const QPointF at(m.px(mark.x), m.py(mark.y));
    g.setPen(QPen(mark.color, 2));
    g.setBrush(Qt::NoBrush);
    g.drawEllipse(at, 7, 7);
    g.setFont(chartFont(12, true));
    const QFontMetricsF fm(g.font());
    const double w = fm.horizontalAdvance(mark.label) + 8, h = fm.height() + 4;
    std::vector<QRectF> candidates;
    for (const MarkLabelPlace& pl : markLabelPlaces(mark))
        candidates.emplace_back(at.x() + pl.dx - w, pl.above ? at.y() - pl.dy - h : at.y() + pl.dy, w, h);
    const int chosen = freePlace(candidates, paths, taken);
    const QRectF box = candidates[size_t(std::max(0, chosen))];
    taken.push_back(box);
    g.setBrush(QColor(255, 255, 255, 230));
    g.setPen(QPen(mark.color, 1));
    g.drawRect(box);
    g.drawText(box, Qt::AlignCenter, mark.label);
}

void drawLegend(QPainter& g, const Mapper& m) {
    std::vector<const ChartSeries*> entries;
    for (const ChartSeries& s : m.p.series)
        if (s.inLegend)
            entries.push_back(&s);
    if (!m.p.legend || entries.empty())
        return;
    g.setFont(chartFont(11));
    const QFontMetricsF fm(g.font());
    double textWidth = 0;
    for (const ChartSeries* s : entries)
        textWidth = std::max(textWidth, fm.horizontalAdvance(s->name));
    const double rowH = fm.height() + 4, w = textWidth + 44, h = rowH * double(entries.size()) + 6;
    const double x = (m.p.legendAlignment & Qt::AlignRight) ? m.rect.right() - w - 8 : m.rect.left() + 8;
    const double y = (m.p.legendAlignment & Qt::AlignBottom) ? m.rect.bottom() - h - 8 : m.rect.top() + 8;
    g.setPen(QPen(kAxis, 1));
    g.setBrush(QColor(255, 255, 255, 220));
    g.drawRect(QRectF(x, y, w, h));
    for (size_t i = 0; i < entries.size(); ++i) {
        const ChartSeries& s = *entries[i];
        const double cy = y + 3 + rowH * double(i) + rowH / 2;
        if (s.line != ChartLineStyle::None) {
            g.setPen(QPen(s.color, s.width, s.style));
            g.drawLine(QPointF(x + 6, cy), QPointF(x + 32, cy));
        }
        drawMarker(g, s.marker, QPointF(x + 19, cy), s.markerSize, s.color, s.width > 1.5 ? s.width : 1);
        g.setPen(kAxis);
        g.drawText(QRectF(x + 38, cy - rowH / 2, textWidth + 4, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                   s.name);
    }
}

void drawPanel(QPainter& g, const QRectF& area, const ChartPanel& p, const ChartSpec& spec, bool first) {
    const Mapper m{QRectF(area.left() + 84, area.top() + 14, area.width() - 100, area.height() - 72), p};
    drawAxes(g, m);
    g.save();
    g.setClipRect(m.rect);
    for (const ChartBars& b : p.bars)
        drawBars(g, m, b);
    for (const ChartSeries& s : p.series)
        drawSeries(g, m, s);
    if (p.separatorX) {
        g.setPen(QPen(QColor(0x9e, 0x9e, 0x9e), 1, Qt::DashLine));
        g.drawLine(QPointF(m.px(*p.separatorX), m.rect.top()), QPointF(m.px(*p.separatorX), m.rect.bottom()));
    }
    const std::vector<QPolygonF> paths = plottedPaths(m);
    std::vector<QRectF> taken;
    drawLines(g, m, p.lines, paths, taken);
    for (const ChartMark& mark : p.marks)
        drawMark(g, m, mark, paths, taken);
    g.restore();
    drawLegend(g, m);
    if (first && spec.empty && !spec.emptyText.isEmpty()) {
        g.setFont(chartFont(12));
        g.setPen(Qt::gray);
        g.drawText(m.rect, Qt::AlignCenter | Qt::TextWordWrap, spec.emptyText);
    }
}

} // namespace

QImage paintChart(const ChartSpec& spec, QSize size) {
    QImage image(size, QImage::Format_ARGB32);
    image.setDotsPerMeterX(kDotsPerMeter);
    image.setDotsPerMeterY(kDotsPerMeter);
    image.fill(Qt::white);
    QPainter g(&image);
    g.setRenderHint(QPainter::Antialiasing);
    g.setRenderHint(QPainter::TextAntialiasing);
    const int n = std::max<int>(1, int(spec.panels.size()));
    const double w = double(size.width()) / n;
    for (int i = 0; i < int(spec.panels.size()); ++i)
        drawPanel(g, QRectF(w * i, 0, w, size.height()), spec.panels[size_t(i)], spec, i == 0);
    g.end();
    return image;
}

QByteArray chartPng(const ChartSpec& spec, QSize size) {
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    paintChart(spec, size).save(&buffer, "PNG");
    return png;
}

} // namespace pb::report
