#include "CatalogTreeModel.h"

#include <QIcon>
#include <QPainter>
#include <QPixmap>

#include "Plural.h"
#include "Workspace.h"
#include "ops/Recipe.h"

#include <QDir>
#include <QFont>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>
#include <QRegularExpression>

#include <algorithm>

namespace pb::models {

using store::CatalogSource;

namespace {

constexpr quintptr kVersionId = 0;

QString criteriaTooltip(const catalog::Criteria& c) {
    QStringList lines;
    for (const QString& d : catalog::Criteria::dimensions())
        lines << QStringLiteral("%1: %2").arg(d, c.get(d).isEmpty() ? QStringLiteral("any") : c.get(d));
    return lines.join(QLatin1Char('\n'));
}

} // namespace

static bool isWildcard(const QString& v) {
    return v.isEmpty() || v == QLatin1String("any");
}

QString displayName(const store::RecipeInfo& r) {
    // "recipe" (no criteria) or "h100" alone say little: name the leaf overlay too.
    if (r.leafOverlay.isEmpty() || r.name.startsWith(r.leafOverlay))
        return r.name;
    return QStringLiteral("%1 (%2)").arg(r.name, r.leafOverlay);
}

CatalogTreeModel::CatalogTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

Result<catalog::RecipeResult> resolveRecipe(std::shared_ptr<const catalog::Catalog> catalog,
                                            const QString& leafOverlay, const QString& label) {
    ops::CatalogRef ref;
    ref.spec = label;
    ref.kind = ops::CatalogRef::Kind::Version;
    ref.loaded = std::move(catalog);
    Result<ops::ResolvedRecipe> r =
        ops::resolveRecipe(nullptr, {std::move(ref), ops::RecipeQuery::stored(leafOverlay)});
    if (!r)
        return r.error();
    return std::move(r->recipe);
}

Status CatalogTreeModel::reload(const store::CatalogStore& store) {
    Result<std::vector<VersionEntry>> entries = readEntries(store);
    if (!entries)
        return entries.error();
    setEntries(std::move(*entries));
    return {};
}

Result<std::vector<CatalogTreeModel::VersionEntry>> CatalogTreeModel::readEntries(db::Database& db) {
    return readEntries(store::CatalogStore(db));
}

Task CatalogTreeModel::reload(Workspace& workspace, std::function<void(const Status&)> done) {
    return workspace.read<std::vector<VersionEntry>>(
        this, [](const ops::Context& ctx) { return readEntries(ctx.db()); },
        [this, done](const Result<std::vector<VersionEntry>>& entries) {
            if (entries)
                setEntries(*entries);
            if (done)
                done(entries ? Status() : Status(entries.error()));
        });
}

Result<std::vector<CatalogTreeModel::VersionEntry>>
CatalogTreeModel::readEntries(const store::CatalogStore& store) {
    Result<std::vector<CatalogVersionInfo>> versions = store.versions();
    if (!versions)
        return versions.error();
    std::vector<VersionEntry> entries;
    entries.reserve(versions->size());
    for (CatalogVersionInfo& v : *versions) {
        Result<std::vector<RecipeInfo>> recipes = store.recipes(v.id);
        if (!recipes)
            return recipes.error();
        entries.push_back(VersionEntry{std::move(v), std::move(*recipes)});
    }
    // The store lists versions oldest first in version order; the newest is what users look for.
    std::reverse(entries.begin(), entries.end());
    return entries;
}

void CatalogTreeModel::setEntries(std::vector<VersionEntry> entries) {
    beginResetModel();
    m_versions = std::move(entries);
    endResetModel();
}

int CatalogTreeModel::recipeCount() const {
    int n = 0;
    for (const VersionEntry& v : m_versions)
        n += static_cast<int>(v.recipes.size());
    return n;
}

CatalogTreeModel::Kind CatalogTreeModel::kindOf(const QModelIndex& index) {
    return index.isValid() && index.internalId() != kVersionId ? Kind::Recipe : Kind::Version;
}

const CatalogVersionInfo* CatalogTreeModel::versionAt(const QModelIndex& index) const {
    if (!index.isValid() || index.model() != this)
        return nullptr;
    const int row = kindOf(index) == Kind::Version ? index.row() : static_cast<int>(index.internalId() - 1);
    if (row < 0 || row >= versionCount())
        return nullptr;
    return &m_versions[static_cast<size_t>(row)].info;
}

const RecipeInfo* CatalogTreeModel::recipeAt(const QModelIndex& index) const {
    if (!index.isValid() || index.model() != this || kindOf(index) != Kind::Recipe)
        return nullptr;
    const auto& recipes = m_versions[static_cast<size_t>(index.internalId() - 1)].recipes;
    if (index.row() < 0 || index.row() >= static_cast<int>(recipes.size()))
        return nullptr;
    return &recipes[static_cast<size_t>(index.row())];
}

const std::vector<RecipeInfo>* CatalogTreeModel::recipesOf(const QString& label) const {
    for (const VersionEntry& v : m_versions)
        if (v.info.label == label)
            return &v.recipes;
    return nullptr;
}

QModelIndex CatalogTreeModel::versionIndex(const QString& label) const {
    for (size_t i = 0; i < m_versions.size(); ++i)
        if (m_versions[i].info.label == label)
            return createIndex(static_cast<int>(i), 0, kVersionId);
    return {};
}

QModelIndex CatalogTreeModel::recipeIndex(const QString& label, const QString& recipeName) const {
    for (size_t i = 0; i < m_versions.size(); ++i) {
        if (m_versions[i].info.label != label)
            continue;
        const auto& recipes = m_versions[i].recipes;
        for (size_t r = 0; r < recipes.size(); ++r)
            if (recipes[r].name == recipeName)
                return createIndex(static_cast<int>(r), 0, static_cast<quintptr>(i + 1));
    }
    return {};
}

QModelIndex CatalogTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kVersionId);
    return createIndex(row, column, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex CatalogTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kVersionId)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kVersionId);
}

int CatalogTreeModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return versionCount();
    if (parent.column() != 0 || parent.internalId() != kVersionId)
        return 0;
    return static_cast<int>(m_versions[static_cast<size_t>(parent.row())].recipes.size());
}

int CatalogTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant CatalogTreeModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const CatalogVersionInfo* v = versionAt(index);
    if (!v)
        return {};

    if (kindOf(index) == Kind::Version) {
        switch (role) {
        case Qt::DisplayRole:
            if (index.column() == NameColumn)
                return v->label;
            return counted(v->recipeCount, tr("recipe"), tr("recipes"));
        case Qt::ToolTipRole:
            return versionTooltip(*v);
        case Qt::AccessibleTextRole:
            return QStringLiteral("%1, %2").arg(v->label, sourceHint(*v));
        case Qt::FontRole:
            if (index.column() == NameColumn) {
                QFont f;
                f.setBold(true);
                f.setItalic(v->isSample()); // sample data never looks like a release
                return f;
            }
            return {};
        case SampleRole:
            return v->isSample();
        case SourceHintRole:
            return sourceHint(*v);
        case OriginRole:
            return v->originText();
        case ReleaseBindingRole:
            return v->releaseBindingText();
        case Qt::TextAlignmentRole:
            if (index.column() == ComponentsColumn)
                return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        case KindRole:
            return QVariant::fromValue(Kind::Version);
        case VersionLabelRole:
            return v->label;
        case VersionIdRole:
            return v->id;
        case RecipeIdRole:
            return qint64(0);
        case SearchTextRole:
            return v->label.toLower();
        default:
            return {};
        }
    }

    const RecipeInfo* r = recipeAt(index);
    if (!r)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == NameColumn)
            return displayName(*r);
        return r->componentCount;
    case Qt::ToolTipRole: {
        QString tip = tr("%1\nLeaf overlay: %2\n%3\n%4 components")
                          .arg(r->name, r->leafOverlay, criteriaTooltip(r->criteria))
                          .arg(r->componentCount);
        if (const QString change = changeTooltip(*r); !change.isEmpty())
            tip += QLatin1Char('\n') + change;
        tip += QLatin1Char('\n') + tr("Catalog version %1: %2").arg(v->label, v->originText());
        return tip;
    }
    case SampleRole:
        return v->isSample();
    case OriginRole:
        return v->originText();
    case ReleaseBindingRole:
        return v->releaseBindingText();
    case Qt::DecorationRole:
        if (index.column() == NameColumn)
            return changeIcon(r->change());
        return {};
    case ChangeRole:
        return static_cast<int>(r->change());
    case Qt::TextAlignmentRole:
        if (index.column() == ComponentsColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case KindRole:
        return QVariant::fromValue(Kind::Recipe);
    case VersionLabelRole:
        return v->label;
    case VersionIdRole:
        return v->id;
    case RecipeIdRole:
        return r->id;
    case RecipeNameRole:
        return r->name;
    case DigestRole:
        return r->digest;
    case SearchTextRole: {
        QStringList parts{v->label, r->name, r->leafOverlay};
        for (const QString& d : catalog::Criteria::dimensions())
            parts << r->criteria.get(d);
        return parts.join(QLatin1Char(' ')).toLower();
    }
    default:
        return {};
    }
}

QVariant CatalogTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Catalog version / recipe");
    case ComponentsColumn:
        return tr("Components");
    default:
        return {};
    }
}

// --- RecipeFilterProxyModel ---------------------------------------------------------------------

RecipeFilterProxyModel::RecipeFilterProxyModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setRecursiveFilteringEnabled(true);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setFilterRole(CatalogTreeModel::SearchTextRole);
}

void RecipeFilterProxyModel::setFilterText(const QString& text) {
    static const QRegularExpression space(QStringLiteral("\\s+"));
    const QStringList words = text.toLower().split(space, Qt::SkipEmptyParts);
    if (words == m_words)
        return;
    m_words = words;
    invalidateFilter();
}

bool RecipeFilterProxyModel::matchesWords(const QString& haystack) const {
    for (const QString& w : m_words)
        if (!haystack.contains(w))
            return false;
    return true;
}

bool RecipeFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (m_words.isEmpty())
        return true;
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    return matchesWords(idx.data(CatalogTreeModel::SearchTextRole).toString());
}

} // namespace pb::models

namespace pb::models {

// --- VersionRecipesModel ------------------------------------------------------------------------

VersionRecipesModel::VersionRecipesModel(QObject* parent) : QAbstractTableModel(parent) {}

void VersionRecipesModel::setRecipes(std::vector<store::RecipeInfo> recipes) {
    beginResetModel();
    m_rows = std::move(recipes);
    endResetModel();
}

int VersionRecipesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int VersionRecipesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VersionRecipesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RecipeInfo& r = m_rows[static_cast<size_t>(index.row())];
    const int col = index.column();
    switch (role) {
    case Qt::DisplayRole:
        if (col == NameColumn)
            return displayName(r);
        if (col >= ServiceColumn && col <= PlatformColumn) {
            const QString v = r.criteria.get(catalog::Criteria::dimensions().at(col - ServiceColumn));
            return v.isEmpty() ? QStringLiteral("any") : v;
        }
        if (col == ComponentsColumn)
            return r.componentCount;
        if (col == DigestColumn)
            return r.digest.left(12);
        if (col == ChangeColumn) {
            switch (r.change()) {
            case RecipeInfo::Change::FirstVersion:
                return QStringLiteral("—");
            case RecipeInfo::Change::New:
                return tr("new");
            case RecipeInfo::Change::Unchanged:
                return tr("unchanged");
            case RecipeInfo::Change::Changed:
                return tr("changed");
            }
        }
        return {};
    case Qt::DecorationRole:
        if (col == ChangeColumn)
            return changeIcon(r.change());
        return {};
    case CatalogTreeModel::ChangeRole:
        return static_cast<int>(r.change());
    case Qt::ToolTipRole:
        if (col == DigestColumn)
            return tr("Evidence digest (what evidence binds to): sha256:%1").arg(r.digest);
        if (col == ChangeColumn)
            return changeTooltip(r);
        return tr("%1\nLeaf overlay: %2\nOverlays: %3")
            .arg(r.name, r.leafOverlay, r.appliedOverlays.join(QStringLiteral(" → ")));
    case Qt::ForegroundRole:
        if (col >= ServiceColumn && col <= PlatformColumn &&
            isWildcard(r.criteria.get(catalog::Criteria::dimensions().at(col - ServiceColumn))))
            return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole:
        if (col == ComponentsColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case CatalogTreeModel::RecipeNameRole:
        return r.name;
    case CatalogTreeModel::VersionLabelRole:
        return r.catalogLabel;
    default:
        return {};
    }
}

QVariant VersionRecipesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Recipe");
    case ServiceColumn:
        return tr("Service");
    case AcceleratorColumn:
        return tr("Accelerator");
    case OsColumn:
        return tr("OS");
    case IntentColumn:
        return tr("Intent");
    case PlatformColumn:
        return tr("Platform");
    case ComponentsColumn:
        return tr("Components");
    case DigestColumn:
        return tr("Evidence digest");
    case ChangeColumn:
        return tr("vs previous version");
    default:
        return {};
    }
}

QString sourceHint(const CatalogVersionInfo& v) {
    if (v.isSample())
        return QObject::tr("sample data");
    const CatalogSource& o = v.origin;
    const QString date =
        o.commitDate.isValid() ? o.commitDate.toUTC().toString(QStringLiteral("yyyy-MM-dd")) : QString();
    QStringList parts;
    if (o.kind == QLatin1String("git")) {
        parts << (o.tag.isEmpty() ? QObject::tr("git %1").arg(o.ref.isEmpty() ? o.commit.left(9) : o.ref)
                                  : QObject::tr("git tag %1").arg(o.tag));
    } else {
        // The folder's last two parts say which catalog it is (".../v0.14.0/recipes").
        const QStringList dirs =
            QDir::fromNativeSeparators(v.source).split(QLatin1Char('/'), Qt::SkipEmptyParts);
        parts << QObject::tr("folder %1")
                     .arg(dirs.mid(std::max<qsizetype>(0, dirs.size() - 2)).join(QLatin1Char('/')));
        if (!o.commit.isEmpty())
            parts << QObject::tr("commit %1").arg(o.commit.left(9));
    }
    if (!date.isEmpty())
        parts << date;
    if (!v.signedByReleases.isEmpty())
        parts << QObject::tr("signed by AICR %1").arg(v.signedByReleases.join(QStringLiteral(", ")));
    return parts.join(QStringLiteral(" · "));
}

QString versionTooltip(const CatalogVersionInfo& v) {
    QStringList lines;
    lines << (v.isSample() ? QObject::tr("Catalog version %1: sample data").arg(v.label)
                           : QObject::tr("Catalog version %1").arg(v.label));
    if (v.isSample())
        lines << QObject::tr("Proofbench's own sample catalog, compiled into the app: not an AICR release.");
    lines << QObject::tr("%1 recipes, %2 overlays").arg(v.recipeCount).arg(v.overlayCount);
    lines << QObject::tr("Source: %1").arg(v.originText());
    if (!v.signedByReleases.isEmpty())
        lines << QObject::tr("Release signature: %1 (verified offline). %2")
                     .arg(v.releaseBindingText(), store::releaseScopeNote());
    lines << QObject::tr("Version order: %1").arg(v.orderBasis());
    if (v.importedAt.isValid())
        lines << QObject::tr("Imported: %1")
                     .arg(QLocale().toString(v.importedAt.toLocalTime(), QLocale::ShortFormat));
    return lines.join(QLatin1Char('\n'));
}

QString changeTooltip(const RecipeInfo& r) {
    switch (r.change()) {
    case RecipeInfo::Change::FirstVersion:
        return QObject::tr("No earlier catalog version to compare with.");
    case RecipeInfo::Change::New:
        return QObject::tr("New: %1 has no recipe of this name.").arg(r.previousLabel);
    case RecipeInfo::Change::Unchanged:
        return QObject::tr("Same evidence digest as in %1 (the version before it in version order).")
            .arg(r.previousLabel);
    case RecipeInfo::Change::Changed:
        return QObject::tr("Evidence digest changed since %1 (the version before it in version order):\n  "
                           "%1: sha256:%2\n  %3: sha256:%4")
            .arg(r.previousLabel, r.previousDigest, r.catalogLabel, r.digest);
    }
    return {};
}

QIcon changeIcon(RecipeInfo::Change change) {
    QColor color;
    if (change == RecipeInfo::Change::Changed)
        color = QColor(0xE0, 0x8E, 0x0B);
    else if (change == RecipeInfo::Change::New)
        color = QColor(0x2E, 0x9E, 0x4F);
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    if (!color.isValid())
        return QIcon(pm); // blank, so that names line up with those that carry a dot
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawEllipse(QRectF(2, 2, 8, 8));
    return QIcon(pm);
}

} // namespace pb::models
