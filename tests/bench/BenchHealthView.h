// The health table as the window shows it, for the health benchmarks (bench_health on SQLite,
// bench_postgres on a server): the model, its filter proxy and a real QTableView painted offscreen.
#pragma once

#include "HealthModels.h"
#include "store/EvidenceStore.h"

#include <QTableView>

#include <vector>

namespace pb::bench {

struct HealthView {
    models::HealthModel model;
    models::HealthFilterProxyModel proxy;
    QTableView view;

    // The rows into the model and the view painted once: the first paint after the query.
    void show(std::vector<store::HealthRow> rows) {
        proxy.setSourceModel(&model);
        model.setRows(std::move(rows));
        view.setModel(&proxy);
        view.setSortingEnabled(true);
        view.resize(1400, 900);
        view.show();
        (void)view.grab();
    }
    // A text filter and a repaint; the rows that match.
    int filter(const QString& text) {
        proxy.setFilterText(text);
        const int matching = proxy.rowCount();
        (void)view.grab();
        return matching;
    }
};

} // namespace pb::bench
