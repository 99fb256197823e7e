// What a view shows when it has nothing to show: a centred card over an item view's viewport (the
// header stays visible) with a title, a line or two of help and the buttons that get the user
// going ("No evidence imported yet" + Import Evidence…). Installed from outside the view: it
// watches the view's model (reset, rows inserted or removed, layout and data changes) and shows
// itself while the condition holds; the condition may also reword the card (a filter that matches
// nothing reads differently from a view that was never filled).
#pragma once

#include <QFrame>
#include <QPointer>

#include <functional>

class QAbstractItemModel;
class QAbstractItemView;
class QAction;
class QHBoxLayout;
class QLabel;
class QPushButton;

namespace pb::widgets {

class EmptyState : public QFrame {
    Q_OBJECT
  public:
    // Decides whether the view is empty, and may set the card's title and text to match.
    using Condition = std::function<bool(EmptyState&)>;

    // Over `view`'s viewport, named `name`; the default condition is "the view's model has no row".
    EmptyState(QAbstractItemView* view, const char* name);

    void setTitle(const QString& title);
    void setText(const QString& text);
    QString title() const;
    QString text() const;
    void setCondition(Condition condition);
    // Re-evaluates on this model's changes too (the view's own model is always watched).
    void watch(QAbstractItemModel* model);

    // A button that triggers `action` and follows its enabled state and text.
    QPushButton* addAction(QAction* action, const char* name);
    // A button that calls `fn`.
    QPushButton* addButton(const QString& text, const char* name, std::function<void()> fn);
    QPushButton* button(const char* name) const;

    // Whether the condition held at the last evaluation (the card is shown when the view is).
    bool isActive() const { return m_active; }

  public slots:
    void refresh();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void place();

    QPointer<QAbstractItemView> m_view;
    // The viewport as a plain object, compared by address only: its events arrive while it and the
    // view are being destroyed, when neither may be cast to its own type any more.
    QPointer<QObject> m_viewport;
    Condition m_condition;
    QLabel* m_title = nullptr;
    QLabel* m_text = nullptr;
    QHBoxLayout* m_buttons = nullptr;
    bool m_active = false;
};

} // namespace pb::widgets
