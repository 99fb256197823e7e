#include "TableSetup.h"

#include <QEvent>
#include <QHeaderView>
#include <QHelpEvent>
#include <QTableView>
#include <QToolTip>

#include <algorithm>
#include <vector>

namespace pb::widgets {

namespace {

// Shows a cut cell's whole text as its tooltip; a model's own tooltip wins.
class ElidedToolTips : public QObject {
  public:
    explicit ElidedToolTips(QAbstractItemView* view) : QObject(view), m_view(view) {}

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::ToolTip || watched != m_view->viewport())
            return false;
        const auto* help = static_cast<QHelpEvent*>(event);
        const QModelIndex index = m_view->indexAt(help->pos());
        if (!index.isValid() || index.data(Qt::ToolTipRole).isValid())
            return false;
        const QString text = index.data(Qt::DisplayRole).toString();
        const QRect cell = m_view->visualRect(index);
        if (text.isEmpty() || m_view->fontMetrics().horizontalAdvance(text) + 8 <= cell.width())
            return false;
        QToolTip::showText(help->globalPos(), text, m_view->viewport(), cell);
        return true;
    }

  private:
    QAbstractItemView* m_view;
};

} // namespace

void installElidedToolTips(QAbstractItemView* view) {
    view->viewport()->installEventFilter(new ElidedToolTips(view));
}

void setupTable(QTableView* t, bool alternatingRows) {
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setAlternatingRowColors(alternatingRows);
    t->setWordWrap(false);
    t->setTextElideMode(Qt::ElideRight); // a name is cut at its end; the tooltip has it whole
    installElidedToolTips(t);
    t->verticalHeader()->setVisible(false);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 8);
    t->horizontalHeader()->setHighlightSections(false);
    t->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
}

void fitColumns(QTableView* t, int minWidth) {
    QHeaderView* h = t->horizontalHeader();
    const int n = h->count();
    if (n == 0)
        return;
    std::vector<int> w(static_cast<size_t>(n));
    int total = 0;
    for (int c = 0; c < n; ++c) {
        if (h->isSectionHidden(c))
            continue;
        w[static_cast<size_t>(c)] =
            std::max(static_cast<QAbstractItemView*>(t)->sizeHintForColumn(c), h->sectionSizeHint(c));
        total += w[static_cast<size_t>(c)];
    }
    const int avail = t->viewport()->width();
    while (avail > 0 && total > avail) {
        auto widest = std::max_element(w.begin(), w.end());
        if (*widest <= minWidth)
            break;
        const int cut = std::min({*widest - minWidth, total - avail, 8});
        *widest -= cut;
        total -= cut;
    }
    for (int c = 0; c < n - 1; ++c)
        if (!h->isSectionHidden(c))
            h->resizeSection(c, w[static_cast<size_t>(c)]);
    h->resizeSection(
        n - 1, std::max(w[static_cast<size_t>(n - 1)], avail - (total - w[static_cast<size_t>(n - 1)])));
}

} // namespace pb::widgets
