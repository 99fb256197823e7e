// Item models over one resolved recipe (catalog::RecipeResult): its components in deployment
// order, its constraints, its validation phases and the overlays that were applied. No widgets.
#pragma once

#include "catalog/Resolver.h"
#include "catalog/Types.h"

#include <QAbstractItemModel>
#include <QAbstractListModel>
#include <QAbstractTableModel>

#include <vector>

namespace pb::models {

// The words every view uses for a recipe's two digests (catalog/Digest.h): "evidence digest
// sha256:<hex>" (what evidence binds to) and "parity digest sha256:<hex>" (AICR's catalog-parity
// golden, stamped catalog-parity-golden). `hex` may carry its "sha256:" already.
QString evidenceDigestText(const QString& hex);
QString parityDigestText(const QString& hex);
// "sha256:0123456789ab…" for narrow places; the full value goes in the tooltip.
QString shortDigestText(const QString& hex);

// Whether a catalog version is Proofbench's sample data (the catalog compiled into the app): its
// content is one of the embedded sample versions, or, when the catalog is not at hand, its label
// is one of theirs.
bool isSampleCatalog(const QString& label, const catalog::Catalog* catalog = nullptr);

// A constraint value with a comparator (">= 1.33", "<= 2000", "== 1", "!= x") is a threshold;
// one without (AICR's benchmark inputs such as inference-model: Qwen/Qwen3-8B) is not.
bool hasComparator(const QString& value);

// Components in deploymentOrder, then the disabled ones (overrides.enabled: false), greyed.
class ComponentsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        OrderColumn,
        NameColumn,
        ChartColumn,
        VersionColumn,
        NamespaceColumn,
        TypeColumn,
        SourceColumn,
        DependenciesColumn,
        ColumnCount
    };
    enum Role { EnabledRole = Qt::UserRole + 1, ComponentNameRole };

    explicit ComponentsModel(QObject* parent = nullptr);

    void setRecipe(const catalog::RecipeResult& recipe);
    void clear();
    int enabledCount() const { return m_enabled; }
    const catalog::ComponentRef& componentAt(int row) const { return m_rows[static_cast<size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<catalog::ComponentRef> m_rows;
    int m_enabled = 0;
};

// Every constraint of the recipe: its own (checked against the cluster: a comparator makes a
// minimum/maximum, a bare value an exact match) and those of its validation phases (a comparator
// makes a threshold, a bare value a benchmark input such as inference-model, never a threshold).
class ConstraintsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { NameColumn, ValueColumn, KindColumn, ColumnCount };
    enum class Kind { Requirement, ExactMatch, Threshold, Input };
    Q_ENUM(Kind)
    enum Role { KindRole = Qt::UserRole + 1, PhaseRole, IsThresholdRole };

    explicit ConstraintsModel(QObject* parent = nullptr);

    void setRecipe(const catalog::RecipeResult& recipe);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    struct Row {
        catalog::Constraint constraint;
        QString phase; // empty for the recipe's own constraints
        Kind kind = Kind::Requirement;
    };
    std::vector<Row> m_rows;
};

// Validation phases (AICR order) -> their checks and constraints. A phase row shows its timeout;
// a constraint row says whether it is a threshold or a benchmark input.
class ValidationModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Column { NameColumn, ValueColumn, KindColumn, ColumnCount };
    enum class ItemKind { Phase, Check, Threshold, Input };
    Q_ENUM(ItemKind)
    enum Role { ItemKindRole = Qt::UserRole + 1, NameRole /* phase, check or constraint name */ };

    explicit ValidationModel(QObject* parent = nullptr);

    // `validators` (optional) supplies check descriptions and default timeouts.
    void setValidation(const std::optional<catalog::Validation>& validation,
                       const catalog::ValidatorCatalog* validators = nullptr);
    void clear() { setValidation(std::nullopt); }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    struct Item {
        ItemKind kind = ItemKind::Check;
        QString name, value, tooltip;
    };
    struct Phase {
        QString name, timeout;
        int checkCount = 0, constraintCount = 0;
        std::vector<Item> items;
    };
    // internalId: 0 for a phase row, phase row + 1 for its children.
    std::vector<Phase> m_phases;
};

// The overlays resolution applied (in order), then the mixins they pulled in.
class AppliedOverlaysModel : public QAbstractListModel {
    Q_OBJECT
  public:
    enum Role { OverlayNameRole = Qt::UserRole + 1, FileRole, IsMixinRole };

    explicit AppliedOverlaysModel(QObject* parent = nullptr);

    // `catalog` (optional) supplies each overlay's file and mixins.
    void setRecipe(const catalog::RecipeResult& recipe, const catalog::Catalog* catalog = nullptr);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  private:
    struct Row {
        QString name, file;
        bool mixin = false;
    };
    std::vector<Row> m_rows;
};

} // namespace pb::models
