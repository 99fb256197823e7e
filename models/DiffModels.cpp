#include "DiffModels.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <map>

namespace pb::models {

using catalog::Change;

QColor ChangeColors::addedBackground() {
    return QColor(0xD8, 0xF2, 0xDF);
}
QColor ChangeColors::removedBackground() {
    return QColor(0xFB, 0xDA, 0xDA);
}
QColor ChangeColors::changedBackground() {
    return QColor(0xFF, 0xE8, 0xB0);
}
QColor ChangeColors::added() {
    return QColor(0x2E, 0x9E, 0x4F);
}
QColor ChangeColors::removed() {
    return QColor(0xC6, 0x28, 0x28);
}
QColor ChangeColors::changed() {
    return QColor(0xC7, 0x7C, 0x02);
}
QColor ChangeColors::text() {
    return QColor(0x20, 0x20, 0x20);
}

namespace {

QVariant greyed() {
    return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
}

QVariant bold() {
    QFont f;
    f.setBold(true);
    return f;
}

QString dash() {
    return QStringLiteral("—");
}

QString orNone(const QString& s) {
    return s.isEmpty() ? dash() : s;
}

// The words a table uses for a component field.
QString fieldLabel(const QString& field) {
    static const std::map<QString, QString> labels = {
        {QStringLiteral("dependencyRefs"), QStringLiteral("dependencies")},
        {QStringLiteral("manifestFiles"), QStringLiteral("manifests")},
        {QStringLiteral("preManifestFiles"), QStringLiteral("pre-manifests")},
        {QStringLiteral("valuesFile"), QStringLiteral("values file")},
        {QStringLiteral("expectedResources"), QStringLiteral("expected resources")},
        {QStringLiteral("healthCheckAsserts"), QStringLiteral("health check")},
    };
    const auto it = labels.find(field);
    return it == labels.end() ? field : it->second;
}

bool isVersionField(const QString& field) {
    return field == QLatin1String("version") || field == QLatin1String("tag");
}

// Background of a whole row (added, removed) or of one cell that changed.
QVariant changeBackground(Change rowChange, bool cellChanged) {
    switch (rowChange) {
    case Change::Added:
        return ChangeColors::addedBackground();
    case Change::Removed:
        return ChangeColors::removedBackground();
    case Change::Changed:
        return cellChanged ? QVariant(ChangeColors::changedBackground()) : QVariant();
    case Change::Unchanged:
        return {};
    }
    return {};
}

QVariant changeForeground(Change rowChange, bool cellChanged, int column, int changeColumn) {
    if (rowChange == Change::Unchanged)
        return greyed();
    if (rowChange != Change::Changed || cellChanged)
        return ChangeColors::text(); // dark text on the light backgrounds, whatever the palette
    if (column == changeColumn)
        return ChangeColors::changed();
    return {};
}

QString orderText(int from, int to) {
    auto pos = [](int i) { return i >= 0 ? QString::number(i + 1) : dash(); };
    if (from == to)
        return pos(to);
    return QStringLiteral("%1 → %2").arg(pos(from), pos(to));
}

} // namespace

QString describeComponentChange(const catalog::ComponentDiff& c, const QString& fromLabel,
                                const QString& toLabel) {
    QStringList lines;
    switch (c.change) {
    case Change::Added:
        lines << QObject::tr("%1: added in %2 (%3)").arg(c.name, toLabel, orNone(c.toVersion));
        break;
    case Change::Removed:
        lines << QObject::tr("%1: removed in %2 (was %3 in %4)")
                     .arg(c.name, toLabel, orNone(c.fromVersion), fromLabel);
        break;
    case Change::Unchanged:
        lines << QObject::tr("%1: unchanged (%2)").arg(c.name, orNone(c.toVersion));
        break;
    case Change::Changed:
        lines << (c.versionOnly()
                      ? QObject::tr(
                            "%1: changed from %2 to %3 (version-only: its tag follows the catalog version)")
                      : QObject::tr("%1: changed from %2 to %3"))
                     .arg(c.name, fromLabel, toLabel);
        for (const catalog::FieldChange& f : c.fields) // full values: never shortened
            lines << QStringLiteral("  %1: %2 → %3").arg(f.field, orNone(f.from), orNone(f.to));
        break;
    }
    if (c.orderMoved())
        lines << QObject::tr("  deployment order: %1 → %2").arg(c.fromOrder + 1).arg(c.toOrder + 1);
    return lines.join(QLatin1Char('\n'));
}

// --- ComponentDiffModel -------------------------------------------------------------------------

ComponentDiffModel::ComponentDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComponentDiffModel::setDiff(const catalog::RecipeDiff& diff) {
    beginResetModel();
    m_all = diff.components;
    m_fromLabel = diff.fromLabel;
    m_toLabel = diff.toLabel;
    rebuild();
    endResetModel();
}

void ComponentDiffModel::clear() {
    beginResetModel();
    m_all.clear();
    m_rows.clear();
    m_fromLabel.clear();
    m_toLabel.clear();
    endResetModel();
}

void ComponentDiffModel::setChangesOnly(bool on) {
    if (on == m_changesOnly)
        return;
    beginResetModel();
    m_changesOnly = on;
    rebuild();
    endResetModel();
}

void ComponentDiffModel::setHideVersionOnly(bool on) {
    if (on == m_hideVersionOnly)
        return;
    beginResetModel();
    m_hideVersionOnly = on;
    rebuild();
    endResetModel();
}

int ComponentDiffModel::hiddenVersionOnly() const {
    if (!m_hideVersionOnly)
        return 0;
    return static_cast<int>(std::count_if(m_all.begin(), m_all.end(),
                                          [](const catalog::ComponentDiff& c) { return c.versionOnly(); }));
}

void ComponentDiffModel::rebuild() {
    m_rows.clear();
    for (const catalog::ComponentDiff& c : m_all) {
        if (m_hideVersionOnly && c.versionOnly())
            continue;
        if (!m_changesOnly || c.change != Change::Unchanged || c.orderMoved())
            m_rows.push_back(&c);
    }
}

int ComponentDiffModel::rowOf(const QString& component) const {
    for (size_t r = 0; r < m_rows.size(); ++r)
        if (m_rows[r]->name == component)
            return static_cast<int>(r);
    return -1;
}

int ComponentDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ComponentDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComponentDiffModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const catalog::ComponentDiff& c = *m_rows[static_cast<size_t>(index.row())];
    const int col = index.column();

    bool otherFields = false;
    for (const catalog::FieldChange& f : c.fields)
        otherFields |= !isVersionField(f.field);
    const bool versionChanged = c.change == Change::Changed && c.fromVersion != c.toVersion;
    bool cellChanged = false;
    switch (col) {
    case FromVersionColumn:
    case ToVersionColumn:
        cellChanged = versionChanged;
        break;
    case ChangeColumn:
        cellChanged = c.change == Change::Changed;
        break;
    case OrderColumn:
        cellChanged = c.orderMoved();
        break;
    case DetailsColumn:
        cellChanged = c.change == Change::Changed && otherFields;
        break;
    default:
        break;
    }

    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case NameColumn:
            return c.name;
        case FromVersionColumn:
            return c.change == Change::Added ? dash() : orNone(c.fromVersion);
        // Full values in the version columns; the two columns together never read "X → X".
        case ToVersionColumn:
            return c.change == Change::Removed ? dash() : orNone(c.toVersion);
        case ChangeColumn:
            return catalog::changeName(c.change);
        case OrderColumn:
            return orderText(c.fromOrder, c.toOrder);
        case DetailsColumn: {
            switch (c.change) {
            case Change::Added:
                return tr("only in %1").arg(m_toLabel);
            case Change::Removed:
                return tr("only in %1").arg(m_fromLabel);
            case Change::Unchanged:
                return {};
            case Change::Changed:
                break;
            }
            QStringList parts;
            for (const catalog::FieldChange& f : c.fields) {
                if (isVersionField(f.field))
                    continue;
                if (f.from.size() + f.to.size() <= 32 && !f.from.contains(QLatin1Char('\n')) &&
                    !f.to.contains(QLatin1Char('\n')))
                    parts << QStringLiteral("%1 %2 → %3")
                                 .arg(fieldLabel(f.field), orNone(f.from), orNone(f.to));
                else
                    parts << fieldLabel(f.field);
            }
            return parts.join(QStringLiteral("; "));
        }
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return describeComponentChange(c, m_fromLabel, m_toLabel);
    case Qt::BackgroundRole:
        return changeBackground(c.change, cellChanged);
    case Qt::ForegroundRole:
        return changeForeground(c.change, cellChanged, col, ChangeColumn);
    case Qt::FontRole:
        return col == NameColumn && c.change != Change::Unchanged ? bold() : QVariant();
    case Qt::TextAlignmentRole:
        if (col == OrderColumn)
            return QVariant::fromValue(Qt::AlignCenter);
        return {};
    case ChangeRole:
        return static_cast<int>(c.change);
    case NameRole:
        return c.name;
    case CellChangedRole:
        return cellChanged;
    default:
        return {};
    }
}

QVariant ComponentDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case OrderColumn:
            return tr("Position in the deployment order, %1 → %2")
                .arg(orNone(m_fromLabel), orNone(m_toLabel));
        case DetailsColumn:
            return tr("Fields that changed besides the version: chart, source, namespace, dependencies, "
                      "values file, overrides (path by path), manifests");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Component");
    case FromVersionColumn:
        return m_fromLabel.isEmpty() ? tr("From") : m_fromLabel;
    case ToVersionColumn:
        return m_toLabel.isEmpty() ? tr("To") : m_toLabel;
    case ChangeColumn:
        return tr("Change");
    case OrderColumn:
        return tr("Order");
    case DetailsColumn:
        return tr("Details");
    default:
        return {};
    }
}

// --- ConstraintDiffModel ------------------------------------------------------------------------

ConstraintDiffModel::ConstraintDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void ConstraintDiffModel::setDiff(const catalog::RecipeDiff& diff) {
    beginResetModel();
    m_all = diff.constraints;
    // What changed first; the engine's order (recipe, then phase by phase) within each group.
    std::stable_partition(m_all.begin(), m_all.end(),
                          [](const catalog::ConstraintDiff& c) { return c.change != Change::Unchanged; });
    rebuild();
    endResetModel();
}

void ConstraintDiffModel::clear() {
    beginResetModel();
    m_all.clear();
    m_rows.clear();
    endResetModel();
}

void ConstraintDiffModel::setChangesOnly(bool on) {
    if (on == m_changesOnly)
        return;
    beginResetModel();
    m_changesOnly = on;
    rebuild();
    endResetModel();
}

void ConstraintDiffModel::rebuild() {
    m_rows.clear();
    for (const catalog::ConstraintDiff& c : m_all)
        if (!m_changesOnly || c.change != Change::Unchanged)
            m_rows.push_back(&c);
}

int ConstraintDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ConstraintDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ConstraintDiffModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const catalog::ConstraintDiff& c = *m_rows[static_cast<size_t>(index.row())];
    const int col = index.column();
    const bool cellChanged =
        c.change == Change::Changed && (col == FromColumn || col == ToColumn || col == ChangeColumn);
    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case NameColumn:
            return c.name;
        case PhaseColumn:
            return c.phase.isEmpty() ? tr("recipe") : c.phase;
        case ChangeColumn:
            return catalog::changeName(c.change);
        case FromColumn:
            return c.change == Change::Added ? dash() : c.from;
        case ToColumn:
            return c.change == Change::Removed ? dash() : c.to;
        default:
            return {};
        }
    case Qt::ToolTipRole: {
        const QString where = c.phase.isEmpty() ? tr("constraint of the recipe")
                                                : tr("constraint of the %1 phase").arg(c.phase);
        return QStringLiteral("%1 (%2): %3 → %4")
            .arg(c.name, where, orNone(c.change == Change::Added ? QString() : c.from),
                 orNone(c.change == Change::Removed ? QString() : c.to));
    }
    case Qt::BackgroundRole:
        return changeBackground(c.change, cellChanged);
    case Qt::ForegroundRole:
        return changeForeground(c.change, cellChanged, col, ChangeColumn);
    case ChangeRole:
        return static_cast<int>(c.change);
    case NameRole:
        return c.name;
    case CellChangedRole:
        return cellChanged;
    default:
        return {};
    }
}

QVariant ConstraintDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Constraint");
    case PhaseColumn:
        return tr("Where");
    case ChangeColumn:
        return tr("Change");
    case FromColumn:
        return tr("From");
    case ToColumn:
        return tr("To");
    default:
        return {};
    }
}

// --- ValidationDiffModel ------------------------------------------------------------------------

ValidationDiffModel::ValidationDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void ValidationDiffModel::setDiff(const catalog::RecipeDiff& diff) {
    beginResetModel();
    m_all.clear();
    // Phase settings first (a changed timeout matters more than an unchanged check), then checks.
    for (const catalog::FieldChange& f : diff.phaseSettings) {
        Row r;
        const qsizetype dot = f.field.indexOf(QLatin1Char('.'));
        r.phase = dot > 0 ? f.field.left(dot) : QString();
        r.item = dot > 0 ? f.field.mid(dot + 1) : f.field;
        r.change = f.from.isEmpty() ? Change::Added : f.to.isEmpty() ? Change::Removed : Change::Changed;
        r.details = QStringLiteral("%1 → %2").arg(orNone(f.from), orNone(f.to));
        r.setting = true;
        m_all.push_back(std::move(r));
    }
    for (const catalog::CheckDiff& c : diff.checks) {
        Row r;
        r.phase = c.phase;
        r.item = c.name;
        r.change = c.change;
        if (c.change == Change::Added)
            r.details = tr("only in %1").arg(diff.toLabel);
        else if (c.change == Change::Removed)
            r.details = tr("only in %1").arg(diff.fromLabel);
        m_all.push_back(std::move(r));
    }
    std::stable_partition(m_all.begin(), m_all.end(),
                          [](const Row& r) { return r.change != Change::Unchanged; });
    rebuild();
    endResetModel();
}

void ValidationDiffModel::clear() {
    beginResetModel();
    m_all.clear();
    m_rows.clear();
    endResetModel();
}

void ValidationDiffModel::setChangesOnly(bool on) {
    if (on == m_changesOnly)
        return;
    beginResetModel();
    m_changesOnly = on;
    rebuild();
    endResetModel();
}

void ValidationDiffModel::rebuild() {
    m_rows.clear();
    for (const Row& r : m_all)
        if (!m_changesOnly || r.change != Change::Unchanged)
            m_rows.push_back(&r);
}

int ValidationDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ValidationDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ValidationDiffModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = *m_rows[static_cast<size_t>(index.row())];
    const int col = index.column();
    const bool cellChanged = r.change == Change::Changed && (col == DetailsColumn || col == ChangeColumn);
    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case PhaseColumn:
            return r.phase;
        case ItemColumn:
            return r.item;
        case ChangeColumn:
            return catalog::changeName(r.change);
        case DetailsColumn:
            return r.details;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return r.setting
                   ? tr("%1 setting of the %2 phase: %3").arg(r.item, r.phase, r.details)
                   : tr("%1 check of the %2 phase: %3").arg(r.item, r.phase, catalog::changeName(r.change));
    case Qt::BackgroundRole:
        return changeBackground(r.change, cellChanged);
    case Qt::ForegroundRole:
        return changeForeground(r.change, cellChanged, col, ChangeColumn);
    case Qt::FontRole: {
        if (!r.setting || col != ItemColumn)
            return {};
        QFont f;
        f.setItalic(true);
        return f;
    }
    case ChangeRole:
        return static_cast<int>(r.change);
    case NameRole:
        return r.item;
    case CellChangedRole:
        return cellChanged;
    default:
        return {};
    }
}

QVariant ValidationDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PhaseColumn:
        return tr("Phase");
    case ItemColumn:
        return tr("Check / setting");
    case ChangeColumn:
        return tr("Change");
    case DetailsColumn:
        return tr("Details");
    default:
        return {};
    }
}

} // namespace pb::models
