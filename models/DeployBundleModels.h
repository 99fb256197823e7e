// Table and tree models over a deployment bundle read as structured data (engine/bundle/Model.h)
// and over the diff of two (engine/bundle/Diff.h), for the bundle view and the bundle compare view.
#pragma once

#include "bundle/Diff.h"
#include "bundle/Model.h"
#include "store/BundleStore.h"

#include <QAbstractTableModel>
#include <QStandardItemModel>

namespace pb::models {

// Deployment bundles kept in the database, and how an import of one ended, for the bundle views.
using StoredBundleInfo = store::StoredBundleInfo;
using store::outcomeName;

// Components in deployment order: #, name, sync-wave, source, chart, version, repository, namespace.
class BundleComponentsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Order, Name, Wave, Source, Chart, Version, Repository, Namespace, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    void setBundle(const bundle::model::DeployBundle* b); // not owned; null clears
    const bundle::model::Component* component(int row) const;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  private:
    const bundle::model::DeployBundle* m_bundle = nullptr;
};

// A component's effective values, one row per path: path, value.
class BundleValuesModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    using QAbstractTableModel::QAbstractTableModel;
    void setValues(const QJsonObject& values);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  private:
    std::vector<std::pair<QString, QString>> m_rows;
};

// The file tree: folders, then files with role, component and size; unknown files in bold.
// Qt::UserRole on a file item holds its relative path (empty for folders).
void fillBundleFileTree(QStandardItemModel& model, const bundle::model::DeployBundle& b);

// Every component of a diff: name, change, chart, version, repository, namespace, sync-wave, order,
// values, object (each "from → to" when they differ).
class BundleDiffModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Name,
        Change,
        Chart,
        Version,
        Repository,
        Namespace,
        Wave,
        Order,
        Values,
        Object,
        ColumnCount
    };
    using QAbstractTableModel::QAbstractTableModel;
    void setDiff(const bundle::model::BundleDiff* d); // not owned; null clears
    const bundle::model::ComponentChange* change(int row) const;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  private:
    const bundle::model::BundleDiff* m_diff = nullptr;
};

// Path-by-path changes (values or object fields) of one component, or of every component:
// component, path, change, from, to.
class BundleValueChangesModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum class Kind { Values, Object };
    explicit BundleValueChangesModel(Kind kind, QObject* parent = nullptr)
        : QAbstractTableModel(parent), m_kind(kind) {}
    // Every changed component's rows, or only `component`'s when given.
    void setDiff(const bundle::model::BundleDiff* d, const QString& component = {});
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  private:
    struct Row {
        QString component;
        bundle::model::ValueChange change;
    };
    Kind m_kind;
    std::vector<Row> m_rows;
};

// Files added, removed or changed: path, change, role.
class BundleFileChangesModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    using QAbstractTableModel::QAbstractTableModel;
    void setDiff(const bundle::model::BundleDiff* d);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  private:
    std::vector<bundle::model::FileChange> m_rows;
};

} // namespace pb::models
