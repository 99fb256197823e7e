// Item models over the health table (evidence::HealthRow: one row per recipe coordinate of a catalog
// version, plus coordinates that have evidence but are not in it) and over the evidence pointers of
// one coordinate. Status colours and icons live here so the table, the summary and the inspector
// agree. No widgets.
#pragma once

#include "evidence/Evidence.h"
#include "evidence/Health.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"

#include <QAbstractItemModel>
#include <QAbstractTableModel>
#include <QColor>
#include <QIcon>
#include <QSortFilterProxyModel>

#include <array>
#include <optional>
#include <vector>

namespace pb::models {

// The catalog versions the Health view picks from, under the models' name (as in CatalogTreeModel.h).
using CatalogVersionInfo = store::CatalogVersionInfo;
using store::releaseScopeNote;

// Every status, in the order a summary lists them: the good news first.
inline constexpr std::array<evidence::HealthStatus, 8> kHealthStatuses = {
    evidence::HealthStatus::Verified,
    evidence::HealthStatus::VerifiedFailedPhases,
    evidence::HealthStatus::VerifiedIncomplete,
    evidence::HealthStatus::Signed,
    evidence::HealthStatus::Pending,
    evidence::HealthStatus::Stale,
    evidence::HealthStatus::Invalid,
    evidence::HealthStatus::NoEvidence};

inline constexpr std::array<evidence::SignerClass, 4> kSignerClasses = {
    evidence::SignerClass::FirstParty, evidence::SignerClass::Community, evidence::SignerClass::Partner,
    evidence::SignerClass::Reported};

struct HealthStyle {
    static QColor color(evidence::HealthStatus s);        // strong: text, icon
    static QColor background(evidence::HealthStatus s);   // light tint behind the status cell
    static QIcon icon(evidence::HealthStatus s);          // a coloured disc with a glyph (✓, !, ✗, …)
    static QIcon pointerIcon(const evidence::Pointer& p); // invalid / pending / signed
    // Ascending = needs attention first: invalid, failed phases, stale, no evidence, pending,
    // signed, verified.
    static int rank(evidence::HealthStatus s);
};

// The Recipe column's tooltip: the full name (the views elide in the middle), the recipe's own
// name and leaf overlay where they differ, the name its evidence records, and status and reason.
QString recipeToolTip(const evidence::HealthRow& row);

// Valid signed pointers of a row by signer class.
int signerCount(const evidence::HealthRow& row, evidence::SignerClass c);
// "2 community · 1 partner", empty when there is none.
QString signersText(const evidence::HealthRow& row);

class HealthModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        RecipeColumn,
        ServiceColumn,
        AcceleratorColumn,
        OsColumn,
        IntentColumn,
        PlatformColumn,
        StatusColumn,
        SignersColumn,
        PointersColumn,
        AttestedColumn,
        PhasesColumn,
        StaleColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // typed value to sort by (string, number or time)
        StatusRole,                  // evidence::HealthStatus as int
        InCatalogRole,               // bool
        RecipeRole,                  // recipe name
        SearchTextRole,              // lower-case recipe, criteria and status, for the text filter
    };

    explicit HealthModel(QObject* parent = nullptr);

    void setRows(std::vector<evidence::HealthRow> rows);
    void clear() { setRows({}); }
    const std::vector<evidence::HealthRow>& rows() const { return m_rows; }
    const evidence::HealthRow& rowAt(int row) const { return m_rows[static_cast<size_t>(row)]; }
    int rowOf(const QString& recipe) const; // -1 when absent
    int countOf(evidence::HealthStatus s) const;
    // Distinct non-empty values of a criteria column (service, accelerator, …), sorted.
    QStringList distinctValues(Column column) const;

    // SortRole without a QVariant, for the proxy's sort (n·log n calls on every sort): the same
    // value as text, or as a number. The text views the row (or a literal): valid while it is.
    struct SortKey {
        QStringView text;
        qint64 number = 0;
        bool isText = false;
    };
    SortKey sortKey(int row, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<evidence::HealthRow> m_rows;
    std::vector<QString> m_search; // SearchTextRole, precomputed
    std::vector<QString> m_names;  // the Recipe column: HealthRow::displayName(), precomputed
    std::array<int, kHealthStatuses.size()>
        m_counts{}; // by HealthStatus value (every value is in kHealthStatuses)
};

// Filters the health table: free text (every word must occur in the recipe, its criteria or its
// status) and exact status, service, accelerator and signer class. Sorts by HealthModel::SortRole,
// ties by recipe name.
class HealthFilterProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    // The signer filter: a class, or "no valid signed pointer".
    enum class SignerFilter { Any, FirstParty, Community, Partner, Reported, Unsigned };
    Q_ENUM(SignerFilter)

    explicit HealthFilterProxyModel(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* model) override;

    void setFilterText(const QString& text);
    void setStatusFilter(std::optional<evidence::HealthStatus> status);
    void setServiceFilter(const QString& service);         // empty: any
    void setAcceleratorFilter(const QString& accelerator); // empty: any
    void setSignerFilter(SignerFilter filter);

    QString filterText() const { return m_words.join(QLatin1Char(' ')); }
    std::optional<evidence::HealthStatus> statusFilter() const { return m_status; }
    bool isFiltering() const;
    // The rows on view, in view order.
    std::vector<evidence::HealthRow> visibleRows() const;

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

  private:
    // The source model when it is a HealthModel; lessThan() reads it only for indexes of that very
    // model, so a source that went away is never read.
    const HealthModel* m_health = nullptr;
    QStringList m_words;
    std::optional<evidence::HealthStatus> m_status;
    QString m_service, m_accelerator;
    SignerFilter m_signer = SignerFilter::Any;
};

// The evidence pointers of one coordinate as a tree: a row per pointer (its file, and a one-line
// verdict), under it every field (layout, signer, class, Rekor index, OCI reference, bundle digest,
// predicate type, attestedAt, …) and then each problem.
class PointerModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Column { NameColumn, ValueColumn, ColumnCount };
    enum class ItemKind { Pointer, Field, Problem };
    Q_ENUM(ItemKind)
    enum Role {
        ItemKindRole = Qt::UserRole + 1,
        PointerIndexRole, // row of the pointer this item belongs to
        FieldRole,        // field key ("layout", "identity", "issuer", "class", "rekorLogIndex", …)
        ValidRole,        // bool, on pointer rows
    };

    explicit PointerModel(QObject* parent = nullptr);

    void setPointers(std::vector<evidence::Pointer> pointers);
    void clear() { setPointers({}); }
    const std::vector<evidence::Pointer>& pointers() const { return m_pointers; }
    const evidence::Pointer& pointerAt(int row) const { return m_pointers[static_cast<size_t>(row)]; }
    // The value a pointer row lists for a field key (see FieldRole); empty when it has none.
    QString fieldValue(int pointerRow, const QString& key) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    struct Item {
        ItemKind kind = ItemKind::Field;
        QString key, label, value, tooltip;
    };
    struct Entry {
        QString summary;
        std::vector<Item> items;
    };
    // internalId: 0 for a pointer row, pointer row + 1 for its children.
    std::vector<evidence::Pointer> m_pointers;
    std::vector<Entry> m_entries;
};

// What the Health view, its inspector and the report dialog read from the database. The views
// call these instead of constructing a store; the *At() forms open a connection of their own, for
// a worker thread (a QSqlDatabase connection belongs to the thread that opened it).
namespace healthdata {
Result<std::vector<store::CatalogVersionInfo>> catalogVersions(db::Database& db);
Result<std::vector<evidence::Pointer>> pointersFor(db::Database& db, const QString& recipe);
// On the connection given: views call these inside an ops::Async job (a connection of its own).
// The rows with their leaf overlays and the names their evidence records (report::healthRows).
Result<std::vector<evidence::HealthRow>> rowsAt(db::Database& db, qint64 catalogVersionId);
Result<std::vector<store::BundleRecord>> bundlesAt(db::Database& db, const QString& recipe);
// A row's pointers and bundles under the name its evidence records (HealthRow::pointerName()): the
// very pointers the row's counts were taken from.
Result<std::vector<evidence::Pointer>> rowPointers(db::Database& db, const evidence::HealthRow& row);
Result<std::vector<store::BundleRecord>> rowBundlesAt(db::Database& db, const evidence::HealthRow& row);
} // namespace healthdata

} // namespace pb::models
