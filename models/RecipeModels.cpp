#include "RecipeModels.h"

#include "Plural.h"

#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "store/CatalogStore.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <QSet>

#include <algorithm>

namespace pb::models {

QString evidenceDigestText(const QString& hex) {
    return QStringLiteral("evidence digest ") + catalog::prefixedDigest(hex);
}

QString parityDigestText(const QString& hex) {
    return QStringLiteral("parity digest ") + catalog::prefixedDigest(hex);
}

QString shortDigestText(const QString& hex) {
    const QString full = catalog::prefixedDigest(hex);
    return full.size() > 19 ? full.left(19) + QStringLiteral("…") : full;
}

bool isSampleCatalog(const QString& label, const catalog::Catalog* catalog) {
    static const std::vector<std::pair<QString, QString>> samples = [] { // label, content digest
        std::vector<std::pair<QString, QString>> out;
        for (const QString& l : store::embeddedCatalogLabels())
            if (Result<catalog::Catalog> c = catalog::loadCatalog(QStringLiteral(":/recipes/") + l))
                out.emplace_back(l, c->contentDigest());
        return out;
    }();
    if (catalog) {
        const QString digest = catalog->contentDigest();
        return std::any_of(samples.begin(), samples.end(), [&](const auto& s) { return s.second == digest; });
    }
    return std::any_of(samples.begin(), samples.end(), [&](const auto& s) { return s.first == label; });
}

using catalog::ComponentRef;
using catalog::Constraint;
using catalog::RecipeResult;

bool hasComparator(const QString& value) {
    return catalog::parseConstraintValue(value).hasComparator();
}

namespace {

QVariant greyed() {
    return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
}

QVariant italic() {
    QFont f;
    f.setItalic(true);
    return f;
}

} // namespace

// --- ComponentsModel ----------------------------------------------------------------------------

ComponentsModel::ComponentsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComponentsModel::setRecipe(const RecipeResult& recipe) {
    beginResetModel();
    m_rows.clear();
    QSet<QString> placed;
    for (const QString& name : recipe.deploymentOrder) {
        if (const ComponentRef* c = recipe.component(name); c && !placed.contains(name)) {
            m_rows.push_back(*c);
            placed.insert(name);
        }
    }
    m_enabled = static_cast<int>(m_rows.size());
    for (const ComponentRef& c : recipe.componentRefs)
        if (!placed.contains(c.name))
            m_rows.push_back(c);
    endResetModel();
}

void ComponentsModel::clear() {
    beginResetModel();
    m_rows.clear();
    m_enabled = 0;
    endResetModel();
}

int ComponentsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ComponentsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComponentsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ComponentRef& c = m_rows[static_cast<size_t>(index.row())];
    const bool enabled = index.row() < m_enabled;
    const bool kustomize = c.type == QLatin1String("Kustomize");
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case OrderColumn:
            return enabled ? QVariant(index.row() + 1) : QVariant(tr("off"));
        case NameColumn:
            return c.name;
        case ChartColumn:
            return kustomize && c.chart.isEmpty() ? c.path : c.chart;
        case VersionColumn:
            return c.version.isEmpty() ? c.tag : c.version;
        case NamespaceColumn:
            return c.namespace_;
        case TypeColumn:
            return c.type;
        case SourceColumn:
            return c.source;
        case DependenciesColumn:
            return c.dependencyRefs.join(QStringLiteral(", "));
        default:
            return {};
        }
    case Qt::ToolTipRole: {
        if (!enabled)
            return tr("%1 is disabled by its overrides (enabled: false / install: false) and is not deployed")
                .arg(c.name);
        if (index.column() == NameColumn) {
            QStringList lines{c.name};
            if (!c.valuesFile.isEmpty())
                lines << tr("values: %1").arg(c.valuesFile);
            for (const QString& m : c.preManifestFiles)
                lines << tr("pre-manifest: %1").arg(m);
            for (const QString& m : c.manifestFiles)
                lines << tr("manifest: %1").arg(m);
            return lines.join(QLatin1Char('\n'));
        }
        if (index.column() == DependenciesColumn && !c.dependencyRefs.isEmpty())
            return tr("Deployed after: %1").arg(c.dependencyRefs.join(QStringLiteral(", ")));
        const QVariant text = data(index, Qt::DisplayRole);
        return text.toString().isEmpty() ? QVariant() : text;
    }
    case Qt::ForegroundRole:
        return enabled ? QVariant() : greyed();
    case Qt::FontRole:
        return enabled ? QVariant() : italic();
    case Qt::TextAlignmentRole:
        if (index.column() == OrderColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case EnabledRole:
        return enabled;
    case ComponentNameRole:
        return c.name;
    default:
        return {};
    }
}

QVariant ComponentsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == OrderColumn)
        return tr("Position in the deployment order; disabled components come last");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case OrderColumn:
        return tr("#");
    case NameColumn:
        return tr("Name");
    case ChartColumn:
        return tr("Chart");
    case VersionColumn:
        return tr("Version");
    case NamespaceColumn:
        return tr("Namespace");
    case TypeColumn:
        return tr("Type");
    case SourceColumn:
        return tr("Source");
    case DependenciesColumn:
        return tr("Dependencies");
    default:
        return {};
    }
}

// --- ConstraintsModel ---------------------------------------------------------------------------

ConstraintsModel::ConstraintsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ConstraintsModel::setRecipe(const RecipeResult& recipe) {
    beginResetModel();
    m_rows.clear();
    for (const Constraint& c : recipe.constraints)
        m_rows.push_back(Row{c, {}, hasComparator(c.value) ? Kind::Requirement : Kind::ExactMatch});
    if (recipe.validation) {
        for (const QString& phase : catalog::Validation::phaseNames()) {
            const auto& p = recipe.validation->phase(phase);
            if (!p || !p->constraints)
                continue;
            for (const Constraint& c : *p->constraints)
                m_rows.push_back(Row{c, phase, hasComparator(c.value) ? Kind::Threshold : Kind::Input});
        }
    }
    endResetModel();
}

void ConstraintsModel::clear() {
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int ConstraintsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ConstraintsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ConstraintsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    auto kindText = [&]() -> QString {
        switch (r.kind) {
        case Kind::Requirement:
            return tr("cluster");
        case Kind::ExactMatch:
            return tr("cluster, =");
        case Kind::Threshold:
            return tr("threshold");
        case Kind::Input:
            return tr("input");
        }
        return {};
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return r.constraint.name;
        case ValueColumn:
            return r.constraint.unit.isEmpty() ? r.constraint.value
                                               : r.constraint.value + QLatin1Char(' ') + r.constraint.unit;
        case KindColumn:
            return kindText();
        default:
            return {};
        }
    case Qt::ToolTipRole: {
        QStringList lines{QStringLiteral("%1: %2").arg(r.constraint.name, r.constraint.value)};
        switch (r.kind) {
        case Kind::Requirement:
            lines << tr("Checked against the cluster snapshot.");
            break;
        case Kind::ExactMatch:
            lines << tr("Checked against the cluster snapshot: the value must match exactly.");
            break;
        case Kind::Threshold:
            lines << tr("A threshold of the %1 validation phase.").arg(r.phase);
            break;
        case Kind::Input:
            lines << tr("A benchmark input for %1 validation (no comparator): not a threshold.").arg(r.phase);
            break;
        }
        if (!r.constraint.severity.isEmpty())
            lines << tr("Severity: %1").arg(r.constraint.severity);
        if (!r.constraint.remediation.isEmpty())
            lines << tr("Remediation: %1").arg(r.constraint.remediation);
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::ForegroundRole:
        return r.kind == Kind::Input && index.column() == KindColumn ? greyed() : QVariant();
    case Qt::FontRole:
        return r.kind == Kind::Input ? italic() : QVariant();
    case KindRole:
        return QVariant::fromValue(r.kind);
    case PhaseRole:
        return r.phase;
    case IsThresholdRole:
        return r.kind == Kind::Threshold || r.kind == Kind::Requirement;
    default:
        return {};
    }
}

QVariant ConstraintsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case ValueColumn:
        return tr("Value");
    case KindColumn:
        return tr("Kind");
    default:
        return {};
    }
}

// --- ValidationModel ----------------------------------------------------------------------------

ValidationModel::ValidationModel(QObject* parent) : QAbstractItemModel(parent) {}

void ValidationModel::setValidation(const std::optional<catalog::Validation>& validation,
                                    const catalog::ValidatorCatalog* validators) {
    beginResetModel();
    m_phases.clear();
    if (validation) {
        for (const QString& name : catalog::Validation::phaseNames()) {
            const auto& p = validation->phase(name);
            if (!p)
                continue;
            Phase phase;
            phase.name = name;
            phase.timeout = p->timeout;
            if (p->checks) {
                for (const QString& check : *p->checks) {
                    Item item{ItemKind::Check, check, {}, {}};
                    if (const catalog::ValidatorCheck* vc = validators ? validators->find(check) : nullptr) {
                        if (!vc->timeout.isEmpty())
                            item.value = tr("timeout %1").arg(vc->timeout);
                        QStringList tip{check};
                        if (!vc->description.isEmpty())
                            tip << vc->description;
                        if (!vc->timeout.isEmpty())
                            tip << tr("Timeout: %1").arg(vc->timeout);
                        if (!vc->image.isEmpty())
                            tip << tr("Image: %1").arg(vc->image);
                        item.tooltip = tip.join(QLatin1Char('\n'));
                    }
                    phase.items.push_back(std::move(item));
                    ++phase.checkCount;
                }
            }
            if (p->constraints) {
                for (const Constraint& c : *p->constraints) {
                    const bool threshold = hasComparator(c.value);
                    Item item{threshold ? ItemKind::Threshold : ItemKind::Input, c.name, c.value, {}};
                    item.tooltip =
                        threshold ? tr("%1 %2: a threshold the measurement must meet").arg(c.name, c.value)
                                  : tr("%1 = %2: a benchmark input, not a threshold").arg(c.name, c.value);
                    phase.items.push_back(std::move(item));
                    ++phase.constraintCount;
                }
            }
            m_phases.push_back(std::move(phase));
        }
    }
    endResetModel();
}

QModelIndex ValidationModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    return createIndex(row, column, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex ValidationModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr(0));
}

int ValidationModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return static_cast<int>(m_phases.size());
    if (parent.column() != 0 || parent.internalId() != 0)
        return 0;
    return static_cast<int>(m_phases[static_cast<size_t>(parent.row())].items.size());
}

int ValidationModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant ValidationModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == 0) {
        const Phase& p = m_phases[static_cast<size_t>(index.row())];
        switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
            case NameColumn: {
                // Views span this column over the row: the phase, what it holds, its timeout.
                QStringList parts{counted(p.checkCount, tr("check"), tr("checks"))};
                if (p.constraintCount > 0)
                    parts << counted(p.constraintCount, tr("constraint"), tr("constraints"));
                if (!p.timeout.isEmpty())
                    parts << tr("timeout %1").arg(p.timeout);
                return QStringLiteral("%1 — %2").arg(p.name, parts.join(QStringLiteral(", ")));
            }
            case ValueColumn:
                return p.timeout.isEmpty() ? QVariant() : QVariant(tr("timeout %1").arg(p.timeout));
            case KindColumn:
                return tr("phase");
            default:
                return {};
            }
        case NameRole:
            return p.name;
        case Qt::FontRole:
            if (index.column() == NameColumn) {
                QFont f;
                f.setBold(true);
                return f;
            }
            return {};
        case Qt::ToolTipRole:
            return p.timeout.isEmpty() ? tr("%1 phase").arg(p.name)
                                       : tr("%1 phase, timeout %2").arg(p.name, p.timeout);
        case ItemKindRole:
            return QVariant::fromValue(ItemKind::Phase);
        default:
            return {};
        }
    }

    const Phase& p = m_phases[static_cast<size_t>(index.internalId() - 1)];
    const Item& item = p.items[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return item.name;
        case ValueColumn:
            return item.value;
        case KindColumn:
            switch (item.kind) {
            case ItemKind::Check:
                return tr("check");
            case ItemKind::Threshold:
                return tr("threshold");
            case ItemKind::Input:
                return tr("input");
            case ItemKind::Phase:
                return {};
            }
            return {};
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return item.tooltip.isEmpty() ? QVariant() : QVariant(item.tooltip);
    case NameRole:
        return item.name;
    case Qt::FontRole:
        return item.kind == ItemKind::Input ? italic() : QVariant();
    case Qt::ForegroundRole:
        return item.kind == ItemKind::Input && index.column() == KindColumn ? greyed() : QVariant();
    case ItemKindRole:
        return QVariant::fromValue(item.kind);
    default:
        return {};
    }
}

QVariant ValidationModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Phase / item");
    case ValueColumn:
        return tr("Value");
    case KindColumn:
        return tr("Kind");
    default:
        return {};
    }
}

// --- AppliedOverlaysModel -----------------------------------------------------------------------

AppliedOverlaysModel::AppliedOverlaysModel(QObject* parent) : QAbstractListModel(parent) {}

void AppliedOverlaysModel::setRecipe(const RecipeResult& recipe, const catalog::Catalog* catalog) {
    beginResetModel();
    m_rows.clear();
    QStringList mixins;
    for (const QString& name : recipe.appliedOverlays) {
        const catalog::Overlay* o = catalog ? catalog->overlay(name) : nullptr;
        m_rows.push_back(Row{name, o ? o->file : QString(), false});
        if (o)
            for (const QString& m : o->spec.mixins)
                if (!mixins.contains(m))
                    mixins << m;
    }
    for (const QString& m : std::as_const(mixins)) {
        const catalog::Overlay* o = catalog->mixin(m);
        m_rows.push_back(Row{m, o ? o->file : QString(), true});
    }
    endResetModel();
}

void AppliedOverlaysModel::clear() {
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int AppliedOverlaysModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

QVariant AppliedOverlaysModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return r.mixin ? tr("%1 (mixin)").arg(r.name) : r.name;
    case Qt::ToolTipRole:
        return r.file.isEmpty() ? r.name : tr("%1\n%2\nActivate to view its YAML").arg(r.name, r.file);
    case Qt::FontRole:
        return r.mixin ? italic() : QVariant();
    case OverlayNameRole:
        return r.name;
    case FileRole:
        return r.file;
    case IsMixinRole:
        return r.mixin;
    default:
        return {};
    }
}

} // namespace pb::models
