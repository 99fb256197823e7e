#include "DeployBundleModels.h"

#include <QColor>
#include <QFont>
#include <QLocale>

#include <map>

namespace pb::models {

namespace bm = bundle::model;

namespace {

QString fieldCell(const bm::Field& f) {
    return f.isEmpty() ? QString() : f.display();
}

QString pairCell(const bm::Field& a, const bm::Field& b, bm::Change change) {
    if (change == bm::Change::Added)
        return fieldCell(b);
    if (change == bm::Change::Removed)
        return fieldCell(a);
    if (a.text == b.text)
        return fieldCell(b);
    return QStringLiteral("%1 → %2").arg(a.isEmpty() ? QStringLiteral("(none)") : a.display(),
                                         b.isEmpty() ? QStringLiteral("(none)") : b.display());
}

QString waveCell(const std::optional<int>& w) {
    return w ? QString::number(*w) : QStringLiteral("–");
}

} // namespace

// ---- BundleComponentsModel -------------------------------------------------------------------------

void BundleComponentsModel::setBundle(const bm::DeployBundle* b) {
    beginResetModel();
    m_bundle = b;
    endResetModel();
}

const bm::Component* BundleComponentsModel::component(int row) const {
    if (!m_bundle || row < 0 || row >= static_cast<int>(m_bundle->components.size()))
        return nullptr;
    return &m_bundle->components[static_cast<size_t>(row)];
}

int BundleComponentsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_bundle ? 0 : static_cast<int>(m_bundle->components.size());
}

int BundleComponentsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BundleComponentsModel::data(const QModelIndex& index, int role) const {
    const bm::Component* c = component(index.row());
    if (!c)
        return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Order:
            return c->order + 1;
        case Name:
            return c->name;
        case Wave:
            return c->syncWave                 ? QString::number(*c->syncWave)
                   : c->syncWaveText.isEmpty() ? QStringLiteral("–")
                                               : QStringLiteral("templated");
        case Source:
            return c->source;
        case Chart:
            return fieldCell(c->chart);
        case Version:
            return fieldCell(c->version);
        case Repository:
            return fieldCell(c->repository);
        case Namespace:
            return fieldCell(c->namespace_);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        if (!c->folder.isEmpty())
            lines << QStringLiteral("folder %1").arg(c->folder);
        if (!c->objectFile.isEmpty())
            lines << QStringLiteral("%1 in %2").arg(c->objectKind, c->objectFile);
        if (!c->templatedFields.isEmpty())
            lines << QStringLiteral("templated (not rendered): %1")
                         .arg(c->templatedFields.join(QStringLiteral(", ")));
        lines += c->notes;
        return lines.join(QLatin1Char('\n'));
    }
    if (role == Qt::FontRole && index.column() >= Chart) {
        const bm::Field& f = index.column() == Chart        ? c->chart
                             : index.column() == Version    ? c->version
                             : index.column() == Repository ? c->repository
                                                            : c->namespace_;
        if (f.templated) {
            QFont font;
            font.setItalic(true);
            return font;
        }
    }
    return {};
}

QVariant BundleComponentsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[] = {"#",     "Component", "Sync-wave",  "Source",
                                        "Chart", "Version",   "Repository", "Namespace"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

// ---- BundleValuesModel -----------------------------------------------------------------------------

void BundleValuesModel::setValues(const QJsonObject& values) {
    beginResetModel();
    m_rows = bm::flatten(values);
    endResetModel();
}

int BundleValuesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int BundleValuesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 2;
}

QVariant BundleValuesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size()))
        return {};
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return index.column() == 0 ? m_rows[static_cast<size_t>(index.row())].first
                                   : m_rows[static_cast<size_t>(index.row())].second;
    return {};
}

QVariant BundleValuesModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == 0 ? QStringLiteral("Path") : QStringLiteral("Value");
}

// ---- the file tree ---------------------------------------------------------------------------------

void fillBundleFileTree(QStandardItemModel& model, const bm::DeployBundle& b) {
    model.clear();
    model.setHorizontalHeaderLabels({QStringLiteral("File"), QStringLiteral("Role"),
                                     QStringLiteral("Component"), QStringLiteral("Size")});
    std::map<QString, QStandardItem*> folders;
    auto folderItem = [&](const QString& path) {
        QStandardItem* parent = model.invisibleRootItem();
        QString sofar;
        for (const QString& part : path.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
            sofar = sofar.isEmpty() ? part : sofar + QLatin1Char('/') + part;
            auto it = folders.find(sofar);
            if (it == folders.end()) {
                auto* item = new QStandardItem(part + QLatin1Char('/'));
                item->setEditable(false);
                item->setData(QString(), Qt::UserRole);
                QList<QStandardItem*> row{item};
                for (int i = 0; i < 3; ++i) {
                    row << new QStandardItem();
                    row.last()->setEditable(false);
                }
                parent->appendRow(row);
                it = folders.emplace(sofar, item).first;
            }
            parent = it->second;
        }
        return parent;
    };
    for (const bm::BundleFile& f : b.files) {
        const qsizetype slash = f.path.lastIndexOf(QLatin1Char('/'));
        QStandardItem* parent = slash < 0 ? model.invisibleRootItem() : folderItem(f.path.left(slash));
        auto* name = new QStandardItem(f.path.mid(slash + 1));
        name->setData(f.path, Qt::UserRole);
        name->setToolTip(QStringLiteral("%1\nsha256:%2").arg(f.path, f.sha256));
        auto* role = new QStandardItem(f.role);
        auto* comp = new QStandardItem(f.component);
        auto* size = new QStandardItem(QLocale().formattedDataSize(f.size));
        size->setData(f.size, Qt::UserRole);
        for (QStandardItem* i : {name, role, comp, size})
            i->setEditable(false);
        if (f.role == QLatin1String("unknown")) {
            QFont bold;
            bold.setBold(true);
            name->setFont(bold);
            role->setFont(bold);
            role->setToolTip(QStringLiteral(
                "No deployer layout explains this file; it is kept and listed, never dropped."));
        }
        parent->appendRow({name, role, comp, size});
    }
}

// ---- BundleDiffModel -------------------------------------------------------------------------------

void BundleDiffModel::setDiff(const bm::BundleDiff* d) {
    beginResetModel();
    m_diff = d;
    endResetModel();
}

const bm::ComponentChange* BundleDiffModel::change(int row) const {
    if (!m_diff || row < 0 || row >= static_cast<int>(m_diff->components.size()))
        return nullptr;
    return &m_diff->components[static_cast<size_t>(row)];
}

int BundleDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_diff ? 0 : static_cast<int>(m_diff->components.size());
}

int BundleDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BundleDiffModel::data(const QModelIndex& index, int role) const {
    const bm::ComponentChange* c = change(index.row());
    if (!c)
        return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name:
            return c->name;
        case Change:
            return bm::changeName(c->change);
        case Chart:
            return pairCell(c->fromChart, c->toChart, c->change);
        case Version:
            return pairCell(c->fromVersion, c->toVersion, c->change);
        case Repository:
            return pairCell(c->fromRepository, c->toRepository, c->change);
        case Namespace:
            return pairCell(c->fromNamespace, c->toNamespace, c->change);
        case Wave:
            if (c->change == bm::Change::Added)
                return waveCell(c->toWave);
            if (c->change == bm::Change::Removed || c->fromWave == c->toWave)
                return waveCell(c->fromWave);
            return QStringLiteral("%1 → %2").arg(waveCell(c->fromWave), waveCell(c->toWave));
        case Order: {
            auto o = [](int v) { return v < 0 ? QStringLiteral("–") : QString::number(v + 1); };
            return c->fromOrder == c->toOrder || c->fromOrder < 0 || c->toOrder < 0
                       ? o(c->toOrder < 0 ? c->fromOrder : c->toOrder)
                       : QStringLiteral("%1 → %2").arg(o(c->fromOrder), o(c->toOrder));
        }
        case Values:
            return c->values.empty() ? QString() : QStringLiteral("%1 paths").arg(c->values.size());
        case Object:
            return c->objectFields.empty() ? QString()
                                           : QStringLiteral("%1 fields").arg(c->objectFields.size());
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && index.column() == Change) {
        switch (c->change) {
        case bm::Change::Added:
            return QColor(0x1b, 0x7f, 0x3b);
        case bm::Change::Removed:
            return QColor(0xb0, 0x1e, 0x1e);
        case bm::Change::Changed:
            return QColor(0x9a, 0x6a, 0x00);
        case bm::Change::Unknown:
            return QColor(0x6b, 0x6b, 0x6b);
        case bm::Change::Unchanged:
            break;
        }
    }
    return {};
}

QVariant BundleDiffModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[] = {"Component", "Change",    "Chart", "Version", "Repository",
                                        "Namespace", "Sync-wave", "Order", "Values",  "Object"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

// ---- BundleValueChangesModel -----------------------------------------------------------------------

void BundleValueChangesModel::setDiff(const bm::BundleDiff* d, const QString& component) {
    beginResetModel();
    m_rows.clear();
    if (d)
        for (const bm::ComponentChange& c : d->components) {
            if (!component.isEmpty() && c.name != component)
                continue;
            for (const bm::ValueChange& v : m_kind == Kind::Values ? c.values : c.objectFields)
                m_rows.push_back({c.name, v});
        }
    endResetModel();
}

int BundleValueChangesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int BundleValueChangesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 5;
}

QVariant BundleValueChangesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size()))
        return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case 0:
        return r.component;
    case 1:
        return r.change.path;
    case 2:
        return bm::changeName(r.change.change);
    case 3:
        return r.change.from;
    case 4:
        return r.change.to;
    default:
        return {};
    }
}

QVariant BundleValueChangesModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[] = {"Component", "Path", "Change", "From", "To"};
    return section >= 0 && section < 5 ? QString::fromLatin1(names[section]) : QVariant();
}

// ---- BundleFileChangesModel ------------------------------------------------------------------------

void BundleFileChangesModel::setDiff(const bm::BundleDiff* d) {
    beginResetModel();
    m_rows = d ? d->files : std::vector<bm::FileChange>();
    endResetModel();
}

int BundleFileChangesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int BundleFileChangesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 3;
}

QVariant BundleFileChangesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size()) || role != Qt::DisplayRole)
        return {};
    const bm::FileChange& f = m_rows[static_cast<size_t>(index.row())];
    switch (index.column()) {
    case 0:
        return f.path;
    case 1:
        return bm::changeName(f.change);
    case 2:
        return f.role;
    default:
        return {};
    }
}

QVariant BundleFileChangesModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[] = {"File", "Change", "Role"};
    return section >= 0 && section < 3 ? QString::fromLatin1(names[section]) : QVariant();
}

} // namespace pb::models
