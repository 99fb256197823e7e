// Item models over a recipe comparison (catalog::RecipeDiff): its components side by side, its
// constraints, and its validation checks and phase settings. Every row is there, unchanged ones
// too (greyed), unless "changes only" is set. No widgets.
#pragma once

#include "catalog/Diff.h"

#include <QAbstractTableModel>
#include <QColor>

#include <vector>

namespace pb::models {

// The colours a comparison uses, in tables and graphs alike.
struct ChangeColors {
    static QColor addedBackground();   // light green
    static QColor removedBackground(); // light red
    static QColor changedBackground(); // amber
    static QColor added();             // strong green, for borders and text
    static QColor removed();           // strong red
    static QColor changed();           // strong amber
    static QColor text();              // dark text that reads on the light backgrounds
};

// Roles shared by the three comparison models.
enum DiffRole {
    ChangeRole = Qt::UserRole + 1, // catalog::Change as int
    NameRole,                      // component, constraint or check name
    CellChangedRole,               // bool: this cell differs between the two sides
};

class ComponentDiffModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        NameColumn,
        FromVersionColumn,
        ToVersionColumn,
        ChangeColumn,
        OrderColumn, // deployment position, "3 → 5"
        DetailsColumn,
        ColumnCount
    };

    explicit ComponentDiffModel(QObject* parent = nullptr);

    void setDiff(const catalog::RecipeDiff& diff);
    void clear();
    void setChangesOnly(bool on);
    bool changesOnly() const { return m_changesOnly; }
    // Leaves out components whose only change is a version-only move (catalog/Diff.h).
    void setHideVersionOnly(bool on);
    bool hideVersionOnly() const { return m_hideVersionOnly; }
    int hiddenVersionOnly() const; // rows left out for that reason

    const catalog::ComponentDiff& componentAt(int row) const { return *m_rows[static_cast<size_t>(row)]; }
    int rowOf(const QString& component) const; // -1 when not listed

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    void rebuild();

    std::vector<catalog::ComponentDiff> m_all;
    std::vector<const catalog::ComponentDiff*> m_rows;
    QString m_fromLabel, m_toLabel;
    bool m_changesOnly = false;
    bool m_hideVersionOnly = false;
};

// Constraints of the recipe and of its validation phases.
class ConstraintDiffModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { NameColumn, PhaseColumn, ChangeColumn, FromColumn, ToColumn, ColumnCount };

    explicit ConstraintDiffModel(QObject* parent = nullptr);

    void setDiff(const catalog::RecipeDiff& diff);
    void clear();
    void setChangesOnly(bool on);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    void rebuild();

    std::vector<catalog::ConstraintDiff> m_all;
    std::vector<const catalog::ConstraintDiff*> m_rows;
    bool m_changesOnly = false;
};

// Validation: the checks of each phase (added, removed, kept) and the phase settings that changed
// (timeouts and the like).
class ValidationDiffModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { PhaseColumn, ItemColumn, ChangeColumn, DetailsColumn, ColumnCount };

    explicit ValidationDiffModel(QObject* parent = nullptr);

    void setDiff(const catalog::RecipeDiff& diff);
    void clear();
    void setChangesOnly(bool on);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    struct Row {
        QString phase, item, details;
        catalog::Change change = catalog::Change::Unchanged;
        bool setting = false; // a phase setting, not a check
    };
    void rebuild();

    std::vector<Row> m_all;
    std::vector<const Row*> m_rows;
    bool m_changesOnly = false;
};

// "gpu-operator v26.3.3 → v26.7.1" style words for one component's change, for tooltips.
QString describeComponentChange(const catalog::ComponentDiff& c, const QString& fromLabel,
                                const QString& toLabel);

} // namespace pb::models
