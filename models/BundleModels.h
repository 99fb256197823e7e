// The evidence bundles of one recipe coordinate as a tree (store::BundleRecord, newest first): a row
// per bundle with its check result, under it the facts (source, OCI digest, predicate type,
// attestedAt, AICR version, recipe digest against the catalog's), the integrity checks step by step
// and each phase with its CTRF tests. No widgets.
#pragma once

#include "store/EvidenceStore.h"

#include <QAbstractItemModel>
#include <QColor>

#include <memory>
#include <vector>

namespace pb::models {

// The evidence records the Health view shows, under the models' names.
using BundleRecord = store::BundleRecord;
using EvidenceImportReport = store::EvidenceImportReport;

// "valid", "valid, failed phases", "invalid", "incomplete" for AICR's check exit codes 0..3.
QString bundleResultName(int checkExit);
QColor bundleResultColor(int checkExit);
// "dev" or a -dev / -next build: not a release of AICR.
bool isDevAicrVersion(const QString& version);

class BundleModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Column { NameColumn, ValueColumn, ColumnCount };
    enum class ItemKind { Bundle, Field, Checks, Step, Phase, Test };
    Q_ENUM(ItemKind)
    enum Role {
        ItemKindRole = Qt::UserRole + 1,
        BundleIndexRole, // row of the bundle this item belongs to
        KeyRole,         // field key, step name, phase name or test name
        StatusRole,      // "passed" / "failed" / "skipped" (steps, tests), the result name (bundles)
    };

    explicit BundleModel(QObject* parent = nullptr);
    ~BundleModel() override;

    // `currentDigest`: the catalog's recipe digest (HealthRow::currentDigest); empty when unknown.
    void setBundles(std::vector<store::BundleRecord> bundles, const QString& currentDigest = {});
    void clear() { setBundles({}); }
    const std::vector<store::BundleRecord>& bundles() const { return m_bundles; }
    const store::BundleRecord& bundleAt(int row) const { return m_bundles[static_cast<size_t>(row)]; }
    // A bundle whose recipe digest differs from the catalog's current one.
    bool isStale(int bundleRow) const;

    // Lookups for views and tests; invalid index when absent.
    QModelIndex bundleIndex(int row) const { return index(row, 0); }
    QModelIndex fieldIndex(int bundleRow, const QString& key) const;
    QModelIndex checksIndex(int bundleRow) const;
    QModelIndex phaseIndex(int bundleRow, const QString& phase) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    struct Node {
        Node* parent = nullptr;
        int row = 0;
        int bundle = -1;
        ItemKind kind = ItemKind::Field;
        QString key, name, value, tooltip, status;
        QColor color; // of the value; invalid: default
        bool bold = false;
        std::vector<std::unique_ptr<Node>> children;
        Node* add(std::unique_ptr<Node> child);
    };
    const Node* nodeOf(const QModelIndex& index) const;
    QModelIndex childWith(const QModelIndex& parent, ItemKind kind, const QString& key) const;
    std::unique_ptr<Node> buildBundle(int row) const;

    std::vector<store::BundleRecord> m_bundles;
    QString m_currentDigest;
    Node m_root;
};

} // namespace pb::models
