#include "WidgetUtil.h"

#include <QButtonGroup>
#include <QColor>
#include <QFileDialog>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace pb::widgets {

QPushButton* browseButton(const char* name, const QString& tip, QWidget* parent) {
    auto* b = new QPushButton(QObject::tr("Browse…"), parent);
    b->setObjectName(QLatin1String(name));
    b->setToolTip(tip);
    return b;
}

QString chooseDirectory(QWidget* parent, const QString& title, const char* name) {
    QFileDialog dialog(parent, title);
    dialog.setObjectName(QLatin1String(name));
    dialog.setFileMode(QFileDialog::Directory);
    dialog.setOption(QFileDialog::ShowDirsOnly, true);
    dialog.setAcceptMode(QFileDialog::AcceptOpen);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return dialog.selectedFiles().constFirst();
}

QGroupBox* group(const QString& title, const char* name, QWidget* parent) {
    auto* g = new QGroupBox(title, parent);
    g->setObjectName(QLatin1String(name));
    return g;
}

QLabel* grayLabel(const char* name, QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setObjectName(QLatin1String(name));
    l->setStyleSheet(QStringLiteral("color: gray;"));
    l->setWordWrap(true);
    return l;
}

QGridLayout* inputGrid(QWidget* parent, bool flush) {
    auto* grid = new QGridLayout(parent);
    if (flush)
        grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(6);
    grid->setColumnStretch(1, 1);
    return grid;
}

QHBoxLayout* choiceRow(QWidget* parent, std::initializer_list<QRadioButton*> choices) {
    auto* buttons = new QButtonGroup(parent);
    auto* row = new QHBoxLayout;
    row->setSpacing(12);
    for (QRadioButton* r : choices) {
        buttons->addButton(r);
        row->addWidget(r);
    }
    if (choices.size() > 0)
        (*choices.begin())->setChecked(true);
    row->addStretch(1);
    return row;
}

void fitToCurrentPage(QStackedWidget* stack) {
    for (int i = 0; i < stack->count(); ++i)
        stack->widget(i)->setSizePolicy(QSizePolicy::Preferred, i == stack->currentIndex()
                                                                    ? QSizePolicy::Preferred
                                                                    : QSizePolicy::Ignored);
    stack->setMaximumHeight(stack->currentWidget()->sizeHint().height());
}

QFrame* bannerFrame(const char* name, QWidget* parent) {
    auto* banner = new QFrame(parent);
    banner->setObjectName(QLatin1String(name));
    banner->setFrameShape(QFrame::StyledPanel);
    banner->setAutoFillBackground(true);
    return banner;
}

QLabel* bannerHeadline(const char* name, qreal scale, QFrame* banner) {
    auto* l = new QLabel(banner);
    l->setObjectName(QLatin1String(name));
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = l->font();
    big.setPointSizeF(big.pointSizeF() * scale);
    big.setBold(true);
    l->setFont(big);
    return l;
}

void layOutBanner(QFrame* banner, QLabel* icon, std::initializer_list<QLabel*> lines) {
    icon->setAlignment(Qt::AlignTop);
    auto* text = new QVBoxLayout;
    text->setSpacing(2);
    for (QLabel* l : lines)
        text->addWidget(l);
    auto* layout = new QHBoxLayout(banner);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(10);
    layout->addWidget(icon);
    layout->addLayout(text, 1);
}

void tintBanner(QFrame* banner, QLabel* headline, const QColor& tint, const QColor& ink) {
    QPalette pal = banner->palette();
    pal.setColor(QPalette::Window, tint);
    banner->setPalette(pal);
    QPalette hp = headline->palette();
    hp.setColor(QPalette::WindowText, ink);
    headline->setPalette(hp);
}

} // namespace pb::widgets
