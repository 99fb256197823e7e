// Small pieces the Verify, bundle-verify and Sign views build alike: browse buttons, titled groups,
// input grids, a row of exclusive choices, the coloured result banner, and a worker run off the
// GUI thread whose outcome comes back on it.
#pragma once

#include <QMetaObject>
#include <QObject>

#include <initializer_list>
#include <type_traits>
#include <utility>

class QColor;
class QFrame;
class QGridLayout;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QRadioButton;
class QStackedWidget;
class QString;
class QWidget;

namespace pb::widgets {

// "Browse…", named and explained.
QPushButton* browseButton(const char* name, const QString& tip, QWidget* parent);

// Asks for an existing directory in a modal QFileDialog named `name`; empty when cancelled.
QString chooseDirectory(QWidget* parent, const QString& title, const char* name);

// A titled group box with an objectName.
QGroupBox* group(const QString& title, const char* name, QWidget* parent);

// Gray, word-wrapped text (titles, counts, placeholders).
QLabel* grayLabel(const char* name, QWidget* parent);

// The label | field | button grid of an input form; `flush` drops the margins (a page inside it).
QGridLayout* inputGrid(QWidget* parent, bool flush = false);

// Radio buttons in a row, one choice at a time (the first chosen), the rest of the row empty.
QHBoxLayout* choiceRow(QWidget* parent, std::initializer_list<QRadioButton*> choices);

// A stack as tall as the page on view (the others do not count).
void fitToCurrentPage(QStackedWidget* stack);

// The result banner: a tinted panel, an icon at the top left and a large bold headline over
// `lines`, which are created on `banner` beforehand.
QFrame* bannerFrame(const char* name, QWidget* parent);
QLabel* bannerHeadline(const char* name, qreal scale, QFrame* banner);
void layOutBanner(QFrame* banner, QLabel* icon, std::initializer_list<QLabel*> lines);
void tintBanner(QFrame* banner, QLabel* headline, const QColor& tint, const QColor& ink);

// A worker's progress callback: hands (done, total) to `slot` on `owner`'s thread, queued.
template <typename Owner> auto queuedProgress(Owner* owner, void (Owner::*slot)(int, int)) {
    return [owner, slot](int done, int total) {
        QMetaObject::invokeMethod(
            owner, [owner, slot, done, total] { (owner->*slot)(done, total); }, Qt::QueuedConnection);
    };
}

} // namespace pb::widgets
