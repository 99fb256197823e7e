// The look and sizing the read-only tables of the recipe, compare and health views share.
#pragma once

class QAbstractItemView;
class QTableView;

namespace pb::widgets {

// Row selection, no editing, no row header, compact rows, left-aligned headers; text that does not
// fit elides at its end and shows whole in a tooltip (installElidedToolTips).
// `alternatingRows` is off for tables that colour their rows themselves.
void setupTable(QTableView* table, bool alternatingRows = true);

// A cell whose text is cut shows it whole as its tooltip (when the model gives no tooltip of its own).
void installElidedToolTips(QAbstractItemView* view);

// Columns at their natural width; when that is wider than the view, the widest columns give way
// (down to `minWidth`, eliding) so every visible column stays on screen; the last takes the rest.
void fitColumns(QTableView* table, int minWidth);

} // namespace pb::widgets
