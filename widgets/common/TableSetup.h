// The look and sizing the read-only tables of the recipe, compare and health views share.
#pragma once

class QTableView;

namespace pb::widgets {

// Row selection, no editing, no row header, compact rows, left-aligned headers, eliding text.
// `alternatingRows` is off for tables that colour their rows themselves.
void setupTable(QTableView* table, bool alternatingRows = true);

// Columns at their natural width; when that is wider than the view, the widest columns give way
// (down to `minWidth`, eliding) so every visible column stays on screen; the last takes the rest.
void fitColumns(QTableView* table, int minWidth);

} // namespace pb::widgets
