#include "RunModels.h"
#include "Plural.h"

#include "store/CatalogStore.h"

#include "kube/Kubeconfig.h"

#include <QBrush>
#include <QColor>
#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QSet>

namespace pb::models {

using validation::CheckRun;
using validation::CheckState;

// ---- checks ----------------------------------------------------------------------------------

CheckTableModel::CheckTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CheckTableModel::setChecks(const std::vector<CheckRun>& checks) {
    beginResetModel();
    m_checks = checks;
    for (CheckRun& c : m_checks)
        c.log.clear();
    endResetModel();
}

void CheckTableModel::upsert(const CheckRun& check) {
    CheckRun copy = check;
    copy.log.clear();
    const int row = rowOf(check.name);
    if (row < 0) {
        const int at = int(m_checks.size());
        beginInsertRows({}, at, at);
        m_checks.push_back(std::move(copy));
        endInsertRows();
        return;
    }
    m_checks[size_t(row)] = std::move(copy);
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void CheckTableModel::clear() {
    beginResetModel();
    m_checks.clear();
    endResetModel();
}

void CheckTableModel::tick(const QDateTime& now) {
    m_now = now;
    for (int r = 0; r < rowCount(); ++r)
        if (m_checks[size_t(r)].state == CheckState::Running)
            emit dataChanged(index(r, DurationColumn), index(r, DurationColumn), {Qt::DisplayRole});
}

const CheckRun* CheckTableModel::check(int row) const {
    return row >= 0 && row < rowCount() ? &m_checks[size_t(row)] : nullptr;
}

int CheckTableModel::rowOf(const QString& name) const {
    for (size_t i = 0; i < m_checks.size(); ++i)
        if (m_checks[i].name == name)
            return int(i);
    return -1;
}

bool CheckTableModel::hasRunning() const {
    for (const CheckRun& c : m_checks)
        if (c.state == CheckState::Running)
            return true;
    return false;
}

int CheckTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_checks.size());
}

int CheckTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QColor CheckTableModel::stateColor(CheckState s) {
    switch (s) {
    case CheckState::Passed:
        return QColor(0x2e, 0x7d, 0x32);
    case CheckState::Failed:
        return QColor(0xc6, 0x28, 0x28);
    case CheckState::Running:
        return QColor(0x15, 0x65, 0xc0);
    case CheckState::Skipped:
        return QColor(0x9e, 0x7c, 0x00);
    case CheckState::Pending:
        return QColor(0x75, 0x75, 0x75);
    case CheckState::Other:
        return QColor(0x6a, 0x1b, 0x9a);
    }
    return {};
}

QString CheckTableModel::durationText(qint64 ms) {
    if (ms <= 0)
        return {};
    if (ms < 60000)
        return QString::number(double(ms) / 1000.0, 'f', 1) + QStringLiteral(" s");
    const qint64 s = ms / 1000;
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

qint64 CheckTableModel::shownDuration(const CheckRun& c) const {
    if (c.state == CheckState::Running && c.started.isValid()) {
        const QDateTime now = m_now.isValid() ? m_now : QDateTime::currentDateTimeUtc();
        return std::max<qint64>(0, c.started.msecsTo(now));
    }
    return c.durationMs;
}

QVariant CheckTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const CheckRun& c = m_checks[size_t(index.row())];
    if (role == StateRole)
        return validation::checkStateName(c.state);
    if (role == NameRole)
        return c.name;
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case PhaseColumn:
            return c.phase;
        case CheckColumn:
            return c.name;
        case StateColumn:
            return validation::checkStateName(c.state);
        case DurationColumn:
            return durationText(shownDuration(c));
        case MessageColumn:
            // A check that could not run or finish says why first: the fault's class and reason.
            if (!c.cause.isEmpty())
                return QStringLiteral("[%1%2] %3")
                    .arg(c.cause, c.k8sReason.isEmpty() ? QString() : QStringLiteral(", ") + c.k8sReason,
                         c.message.section(QLatin1Char('\n'), 0, 0));
            return c.message.section(QLatin1Char('\n'), 0, 0);
        case ColumnCount:
            break;
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == StateColumn && c.state == CheckState::Other)
            return tr("could not run or finish for a cause outside the check (%1): not a failure")
                .arg(c.cause.isEmpty() ? tr("unknown") : c.cause);
        if (index.column() == MessageColumn && !c.message.isEmpty())
            return c.message;
        if (index.column() == StateColumn && c.exitCode >= 0)
            return tr("exit code %1").arg(c.exitCode);
        break;
    case Qt::ForegroundRole:
        if (index.column() == StateColumn)
            return QBrush(stateColor(c.state));
        break;
    case Qt::DecorationRole:
        if (index.column() == StateColumn)
            return stateColor(c.state);
        break;
    case Qt::FontRole:
        if (index.column() == StateColumn &&
            (c.state == CheckState::Failed || c.state == CheckState::Running)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == DurationColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    default:
        break;
    }
    return {};
}

QVariant CheckTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case PhaseColumn:
        return tr("Phase");
    case CheckColumn:
        return tr("Check");
    case StateColumn:
        return tr("State");
    case DurationColumn:
        return tr("Duration");
    case MessageColumn:
        return tr("Message");
    case ColumnCount:
        break;
    }
    return {};
}

// ---- runs ------------------------------------------------------------------------------------

RunListModel::RunListModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunListModel::setRuns(std::vector<store::RunSummary> runs) {
    beginResetModel();
    m_runs = std::move(runs);
    endResetModel();
}

const store::RunSummary* RunListModel::run(int row) const {
    return row >= 0 && row < rowCount() ? &m_runs[size_t(row)] : nullptr;
}

int RunListModel::rowOfRun(qint64 id) const {
    for (size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i].id == id)
            return int(i);
    return -1;
}

int RunListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_runs.size());
}

int RunListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const store::RunSummary& r = m_runs[size_t(index.row())];
    if (role == RunIdRole)
        return r.id;
    if (role == Qt::DisplayRole) {
        switch (Column(index.column())) {
        case IdColumn:
            return r.runUid; // the run's one id (runs show takes it)
        case StartedColumn:
            return r.timeKnown ? r.startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                               : tr("unknown");
        case StateColumn:
            return r.state;
        case ChecksColumn:
            return r.other > 0 ? tr("%1/%2 passed, %3 other").arg(r.passed).arg(r.checks).arg(r.other)
                               : tr("%1/%2 passed").arg(r.passed).arg(r.checks);
        case RecipeColumn:
            return r.coordinate.isEmpty() ? r.recipeName : r.coordinate;
        case ContextColumn:
            return r.source == QLatin1String("import") ? tr("(imported)") : r.context;
        case ColumnCount:
            break;
        }
    }
    if (role == Qt::ToolTipRole && index.column() == StartedColumn && !r.timeKnown)
        return tr("The report does not say when it was measured (imported %1)")
            .arg(r.startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    if (role == Qt::ToolTipRole && !r.reason.isEmpty())
        return r.reason;
    if (role == Qt::ForegroundRole && index.column() == StateColumn) {
        if (r.state == QLatin1String("passed"))
            return QBrush(CheckTableModel::stateColor(CheckState::Passed));
        if (r.state == QLatin1String("running"))
            return QBrush(CheckTableModel::stateColor(CheckState::Running));
        if (r.state == QLatin1String("incomplete"))
            return QBrush(CheckTableModel::stateColor(CheckState::Other));
        if (r.state == QLatin1String("skipped"))
            return QBrush(CheckTableModel::stateColor(CheckState::Skipped));
        return QBrush(CheckTableModel::stateColor(CheckState::Failed));
    }
    return {};
}

QVariant RunListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case IdColumn:
        return tr("Run");
    case StartedColumn:
        return tr("Started");
    case StateColumn:
        return tr("State");
    case ChecksColumn:
        return tr("Checks");
    case RecipeColumn:
        return tr("Recipe");
    case ContextColumn:
        return tr("Context");
    case ColumnCount:
        break;
    }
    return {};
}

// ---- kubeconfig contexts ---------------------------------------------------------------------

KubeFileEntry readKubeconfigFile(const QString& file) {
    KubeFileEntry out;
    out.file = QFileInfo(file).absoluteFilePath();
    if (!QFileInfo(file).isFile()) {
        out.error = QStringLiteral("%1: no such file").arg(file);
        return out;
    }
    Result<kube::Kubeconfig> k = kube::Kubeconfig::load({out.file});
    if (!k) {
        out.error = k.error().toString();
        return out;
    }
    for (const kube::Context& c : k->contexts) {
        KubeContextEntry e;
        e.name = c.name;
        e.cluster = c.cluster;
        e.user = c.user;
        e.namespace_ = c.namespace_;
        e.current = c.name == k->currentContext;
        if (const kube::Cluster* cl = k->cluster(c.cluster)) {
            e.server = cl->server;
            e.insecure = cl->insecureSkipTlsVerify;
        } else {
            e.problem = QStringLiteral("cluster '%1' is not defined").arg(c.cluster);
        }
        if (const kube::User* u = k->user(c.user)) {
            if (u->problem)
                e.problem = u->problem->toString();
        } else if (!c.user.isEmpty()) {
            e.problem = QStringLiteral("user '%1' is not defined").arg(c.user);
        }
        out.contexts.push_back(e);
    }
    return out;
}

QStringList kubeconfigCandidates(const QString& home) {
    QStringList out;
    QSet<QString> seen;
    auto add = [&](const QString& f) {
        const QFileInfo fi(f);
        if (!fi.isFile())
            return;
        const QString abs = fi.canonicalFilePath();
        if (seen.contains(abs))
            return;
        seen.insert(abs);
        out << fi.absoluteFilePath();
    };
    if (home.isEmpty())
        for (const QString& f : kube::Kubeconfig::defaultFiles())
            add(f);
    const QDir kube(QDir(home.isEmpty() ? QDir::homePath() : home).filePath(QStringLiteral(".kube")));
    add(kube.filePath(QStringLiteral("config")));
    const QStringList more =
        kube.entryList({QStringLiteral("*.yaml"), QStringLiteral("*.yml"), QStringLiteral("config-*")},
                       QDir::Files, QDir::Name);
    for (const QString& f : more)
        add(kube.filePath(f));
    return out;
}

KubeContextsModel::KubeContextsModel(QObject* parent) : QAbstractItemModel(parent) {}

void KubeContextsModel::setFiles(std::vector<KubeFileEntry> files) {
    beginResetModel();
    m_files = std::move(files);
    endResetModel();
}

int KubeContextsModel::addFile(const KubeFileEntry& file) {
    for (size_t i = 0; i < m_files.size(); ++i) {
        if (m_files[i].file != file.file)
            continue;
        const QModelIndex parent = index(int(i), 0);
        if (!m_files[i].contexts.empty()) {
            beginRemoveRows(parent, 0, int(m_files[i].contexts.size()) - 1);
            m_files[i].contexts.clear();
            endRemoveRows();
        }
        m_files[i].error = file.error;
        emit dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
        if (!file.contexts.empty()) {
            beginInsertRows(parent, 0, int(file.contexts.size()) - 1);
            m_files[i].contexts = file.contexts;
            endInsertRows();
        }
        return int(i);
    }
    const int at = int(m_files.size());
    beginInsertRows({}, at, at);
    m_files.push_back(file);
    endInsertRows();
    return at;
}

QModelIndex KubeContextsModel::fileIndex(const QString& file) const {
    const QString abs = QFileInfo(file).absoluteFilePath();
    for (size_t i = 0; i < m_files.size(); ++i)
        if (m_files[i].file == abs)
            return index(int(i), 0);
    return {};
}

QModelIndex KubeContextsModel::contextIndex(const QString& file, const QString& context) const {
    const QModelIndex f = fileIndex(file);
    if (!f.isValid())
        return {};
    const KubeFileEntry& e = m_files[size_t(f.row())];
    for (size_t i = 0; i < e.contexts.size(); ++i)
        if (e.contexts[i].name == context)
            return index(int(i), 0, f);
    return {};
}

QModelIndex KubeContextsModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < int(m_files.size()) ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.internalId() != 0 || parent.row() >= int(m_files.size()))
        return {};
    if (row >= int(m_files[size_t(parent.row())].contexts.size()))
        return {};
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex KubeContextsModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int KubeContextsModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return int(m_files.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    return int(m_files[size_t(parent.row())].contexts.size());
}

int KubeContextsModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

Qt::ItemFlags KubeContextsModel::flags(const QModelIndex& index) const {
    if (!index.isValid())
        return Qt::NoItemFlags;
    if (index.internalId() == 0)
        return Qt::ItemIsEnabled; // a file is a heading, not a choice
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
}

QVariant KubeContextsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    if (index.internalId() == 0) {
        if (index.row() >= int(m_files.size()))
            return {};
        const KubeFileEntry& f = m_files[size_t(index.row())];
        switch (role) {
        case Qt::DisplayRole:
            if (index.column() == NameColumn)
                return QDir::toNativeSeparators(f.file);
            if (index.column() == ServerColumn && !f.error.isEmpty())
                return tr("does not parse: %1").arg(f.error);
            if (index.column() == ServerColumn)
                return counted(qint64(f.contexts.size()), tr("context"), tr("contexts"));
            return {};
        case Qt::ToolTipRole:
            return f.error.isEmpty() ? QDir::toNativeSeparators(f.file) : f.error;
        case Qt::ForegroundRole:
            if (!f.error.isEmpty())
                return QBrush(CheckTableModel::stateColor(CheckState::Failed));
            if (index.column() != NameColumn)
                return QBrush(QColor(Qt::gray));
            return {};
        case FileRole:
            return f.file;
        case ErrorRole:
            return f.error;
        default:
            return {};
        }
    }
    const size_t fi = size_t(index.internalId() - 1);
    if (fi >= m_files.size() || index.row() >= int(m_files[fi].contexts.size()))
        return {};
    const KubeContextEntry& c = m_files[fi].contexts[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case NameColumn:
            return c.current ? tr("%1  (current)").arg(c.name) : c.name;
        case ServerColumn:
            return c.insecure ? tr("%1  ⚠ insecure-skip-tls-verify").arg(c.server) : c.server;
        case NamespaceColumn:
            return c.namespace_;
        case ColumnCount:
            break;
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = tr("context %1: cluster %2, user %3").arg(c.name, c.cluster, c.user);
        if (c.insecure)
            tip += tr("\nThe server's certificate is NOT verified (insecure-skip-tls-verify).");
        if (!c.problem.isEmpty())
            tip += QLatin1Char('\n') + c.problem;
        return tip;
    }
    case Qt::FontRole:
        if (c.current && index.column() == NameColumn) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == ServerColumn && c.insecure)
            return QBrush(QColor(0xb2, 0x6a, 0x00));
        if (!c.problem.isEmpty())
            return QBrush(CheckTableModel::stateColor(CheckState::Failed));
        return {};
    case FileRole:
        return m_files[fi].file;
    case ContextRole:
        return c.name;
    case InsecureRole:
        return c.insecure;
    case ErrorRole:
        return c.problem;
    case CurrentRole:
        return c.current;
    default:
        return {};
    }
}

QVariant KubeContextsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case NameColumn:
        return tr("Context");
    case ServerColumn:
        return tr("Server");
    case NamespaceColumn:
        return tr("Namespace");
    case ColumnCount:
        break;
    }
    return {};
}

Result<std::vector<store::CatalogVersionInfo>> RunReader::catalogVersions() const {
    return store::CatalogStore(m_db).versions();
}

Result<std::vector<std::pair<QString, QString>>> RunReader::recipes(const QString& catalogLabel) const {
    store::CatalogStore catalogs(m_db);
    Result<store::CatalogVersionInfo> version = catalogs.version(catalogLabel);
    if (!version)
        return version.error();
    Result<std::vector<store::RecipeInfo>> recipes = catalogs.recipes(version->id);
    if (!recipes)
        return recipes.error();
    std::vector<std::pair<QString, QString>> out;
    for (const store::RecipeInfo& r : *recipes)
        out.emplace_back(r.name, r.leafOverlay);
    return out;
}

Result<std::vector<store::RunSummary>> RunReader::runs() const {
    return store::RunStore(m_db).list();
}
Result<store::StoredRun> RunReader::run(qint64 id) const {
    return store::RunStore(m_db).load(id);
}
Result<std::vector<store::HistoryPoint>> RunReader::history(const QString& coordinate,
                                                            const QString& metric) const {
    return store::RunStore(m_db).history(coordinate, metric);
}

Result<std::vector<HistoryPoint>> RunReader::chartHistory(const QString& coordinate) const {
    Result<std::vector<HistoryPoint>> h = history(coordinate, QStringLiteral("busbw"));
    if (h && h->empty())
        h = history(coordinate);
    return h;
}

} // namespace pb::models
