// Draws a ChartSpec with QPainter onto a QImage (Qt Gui, no widgets): the report's charts. Fonts
// are fixed (family and pixel size) and the image's resolution is set to 96 dpi, so the same spec
// gives the same pixels, and the same PNG bytes, whichever Gui application (the window, the
// offscreen CLI) draws it.
#pragma once

#include "report/render/ChartSpec.h"

#include <QByteArray>
#include <QImage>
#include <QSize>

namespace pb::report {

QImage paintChart(const ChartSpec& spec, QSize size);
// The chart as PNG bytes (no text chunks, no time).
QByteArray chartPng(const ChartSpec& spec, QSize size);

} // namespace pb::report
