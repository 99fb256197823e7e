#include "EmptyState.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace pb::widgets {

EmptyState::EmptyState(QAbstractItemView* view, const char* name) : QFrame(view), m_view(view) {
    setObjectName(QLatin1String(name));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    setFrameShape(QFrame::NoFrame);

    m_title = new QLabel(this);
    m_title->setObjectName(QLatin1String(name) + QStringLiteral("Title"));
    m_title->setAlignment(Qt::AlignCenter);
    m_title->setWordWrap(true);
    QFont f = m_title->font();
    f.setPointSizeF(f.pointSizeF() * 1.25);
    f.setBold(true);
    m_title->setFont(f);
    m_text = new QLabel(this);
    m_text->setObjectName(QLatin1String(name) + QStringLiteral("Text"));
    m_text->setAlignment(Qt::AlignCenter);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setForegroundRole(QPalette::PlaceholderText);
    m_text->setMaximumWidth(520);

    m_buttons = new QHBoxLayout;
    m_buttons->setSpacing(8);
    m_buttons->addStretch(1);
    m_buttons->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 16, 16, 16);
    layout->setSpacing(10);
    layout->addStretch(1);
    layout->addWidget(m_title);
    auto* textRow = new QHBoxLayout; // centred, wrapped at most 520 px wide, as tall as it needs
    textRow->addStretch(1);
    textRow->addWidget(m_text, 100);
    textRow->addStretch(1);
    layout->addLayout(textRow);
    layout->addSpacing(4);
    layout->addLayout(m_buttons);
    layout->addStretch(2);

    m_condition = [](EmptyState& s) {
        return s.m_view && s.m_view->model() && s.m_view->model()->rowCount() == 0;
    };
    m_viewport = view->viewport();
    view->viewport()->installEventFilter(this);
    if (view->model())
        watch(view->model());
    hide();
    refresh();
}

void EmptyState::setTitle(const QString& title) {
    m_title->setText(title);
}

void EmptyState::setText(const QString& text) {
    m_text->setText(text);
    m_text->setVisible(!text.isEmpty());
}

QString EmptyState::title() const {
    return m_title->text();
}

QString EmptyState::text() const {
    return m_text->text();
}

void EmptyState::setCondition(Condition condition) {
    m_condition = std::move(condition);
    refresh();
}

void EmptyState::watch(QAbstractItemModel* model) {
    if (!model)
        return;
    connect(model, &QAbstractItemModel::modelReset, this, &EmptyState::refresh);
    connect(model, &QAbstractItemModel::layoutChanged, this, &EmptyState::refresh);
    connect(model, &QAbstractItemModel::rowsInserted, this, &EmptyState::refresh);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &EmptyState::refresh);
    connect(model, &QAbstractItemModel::dataChanged, this, &EmptyState::refresh);
}

QPushButton* EmptyState::addAction(QAction* action, const char* name) {
    auto* b = new QPushButton(action->text(), this);
    b->setObjectName(QLatin1String(name));
    b->setEnabled(action->isEnabled());
    b->setToolTip(action->statusTip());
    connect(b, &QPushButton::clicked, action, &QAction::trigger);
    connect(action, &QAction::changed, b, [b, action] {
        b->setEnabled(action->isEnabled());
        b->setText(action->text());
    });
    m_buttons->insertWidget(m_buttons->count() - 1, b);
    return b;
}

QPushButton* EmptyState::addButton(const QString& text, const char* name, std::function<void()> fn) {
    auto* b = new QPushButton(text, this);
    b->setObjectName(QLatin1String(name));
    connect(b, &QPushButton::clicked, this, [fn = std::move(fn)] { fn(); });
    m_buttons->insertWidget(m_buttons->count() - 1, b);
    return b;
}

QPushButton* EmptyState::button(const char* name) const {
    return findChild<QPushButton*>(QLatin1String(name));
}

void EmptyState::refresh() {
    if (!m_view)
        return;
    m_active = m_condition && m_condition(*this);
    if (m_active) {
        place();
        raise();
    }
    setVisible(m_active);
}

void EmptyState::place() {
    if (m_view)
        setGeometry(m_view->viewport()->geometry());
}

bool EmptyState::eventFilter(QObject* watched, QEvent* event) {
    if ((event->type() == QEvent::Resize || event->type() == QEvent::Move) && watched == m_viewport.data() &&
        m_view)
        place();
    return QFrame::eventFilter(watched, event);
}

} // namespace pb::widgets
