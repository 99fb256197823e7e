#include "RegistryModels.h"
#include "core/Files.h"

#include "oci/Reference.h"

#include <QColor>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>

namespace pb::models {

// ---- fetch queue --------------------------------------------------------------------------------

QString fetchStateName(FetchState s) {
    switch (s) {
    case FetchState::Queued:
        return QStringLiteral("queued");
    case FetchState::Fetching:
        return QStringLiteral("fetching");
    case FetchState::Checking:
        return QStringLiteral("checking");
    case FetchState::Valid:
        return QStringLiteral("valid");
    case FetchState::ValidFailedPhases:
        return QStringLiteral("valid, failed phases");
    case FetchState::Invalid:
        return QStringLiteral("invalid");
    case FetchState::Failed:
        return QStringLiteral("failed");
    case FetchState::Cancelled:
        break;
    }
    return QStringLiteral("cancelled");
}

bool isFinished(FetchState s) {
    return s != FetchState::Queued && s != FetchState::Fetching && s != FetchState::Checking;
}

QString byteSize(qint64 bytes) {
    if (bytes < 1024)
        return QStringLiteral("%1 bytes").arg(bytes);
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

FetchQueueModel::FetchQueueModel(QObject* parent) : QAbstractTableModel(parent) {}

void FetchQueueModel::setPointers(std::vector<evidence::Pointer> pointers) {
    beginResetModel();
    m_items.clear();
    m_items.reserve(pointers.size());
    for (evidence::Pointer& p : pointers) {
        FetchItem item;
        if (const evidence::Attestation* a = p.attestation()) {
            item.reference = a->bundleOci;
            // Show the reference the fetch will use: the location pinned to the digest.
            if (Result<oci::Reference> r = oci::parseReference(a->bundleOci);
                r && a->bundleDigest.startsWith(QLatin1String("sha256:")))
                item.reference = r->withDigest(a->bundleDigest).toString();
        }
        item.pointer = std::move(p);
        m_items.push_back(std::move(item));
    }
    endResetModel();
}

void FetchQueueModel::rowChanged(int row) {
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void FetchQueueModel::setState(int row, FetchState state, const QString& detail) {
    if (row < 0 || row >= rowCount())
        return;
    FetchItem& it = m_items[static_cast<size_t>(row)];
    it.state = state;
    if (!detail.isEmpty() || isFinished(state))
        it.detail = detail;
    rowChanged(row);
}

void FetchQueueModel::setProgress(int row, qint64 done, qint64 total) {
    if (row < 0 || row >= rowCount())
        return;
    FetchItem& it = m_items[static_cast<size_t>(row)];
    it.bytesDone = done;
    it.bytesTotal = total;
    rowChanged(row);
}

void FetchQueueModel::setFetched(int row, const QString& cacheDir, bool signaturePulled) {
    if (row < 0 || row >= rowCount())
        return;
    FetchItem& it = m_items[static_cast<size_t>(row)];
    it.cacheDir = cacheDir;
    it.signaturePulled = signaturePulled;
    rowChanged(row);
}

int FetchQueueModel::countIn(FetchState s) const {
    return static_cast<int>(
        std::count_if(m_items.begin(), m_items.end(), [s](const FetchItem& i) { return i.state == s; }));
}

int FetchQueueModel::finishedCount() const {
    return static_cast<int>(std::count_if(m_items.begin(), m_items.end(),
                                          [](const FetchItem& i) { return isFinished(i.state); }));
}

qint64 FetchQueueModel::bytesDone() const {
    qint64 n = 0;
    for (const FetchItem& i : m_items)
        n += i.bytesDone;
    return n;
}

int FetchQueueModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_items.size());
}

int FetchQueueModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

QColor stateColor(FetchState s) {
    switch (s) {
    case FetchState::Valid:
        return QColor(0x2e, 0x7d, 0x32);
    case FetchState::ValidFailedPhases:
        return QColor(0xb2, 0x6a, 0x00);
    case FetchState::Invalid:
    case FetchState::Failed:
        return QColor(0xc6, 0x28, 0x28);
    default:
        break;
    }
    return QColor(0x60, 0x60, 0x60);
}

} // namespace

QVariant FetchQueueModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const FetchItem& it = m_items[static_cast<size_t>(index.row())];
    const int progress =
        it.bytesTotal > 0 ? static_cast<int>(std::min<qint64>(100, it.bytesDone * 100 / it.bytesTotal)) : -1;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case PointerColumn:
            return it.pointer.file;
        case ReferenceColumn:
            return it.reference;
        case StateColumn:
            return fetchStateName(it.state);
        case BytesColumn:
            if (it.bytesDone == 0 && it.bytesTotal <= 0)
                return QString();
            return it.bytesTotal > 0
                       ? QStringLiteral("%1 of %2").arg(byteSize(it.bytesDone), byteSize(it.bytesTotal))
                       : byteSize(it.bytesDone);
        case DetailColumn:
            return it.detail;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        switch (index.column()) {
        case PointerColumn:
            return it.pointer.file;
        case ReferenceColumn:
            return it.reference;
        case DetailColumn:
        case StateColumn:
            return it.cacheDir.isEmpty()
                       ? it.detail
                       : QStringLiteral("%1\ncached in %2 (%3)")
                             .arg(it.detail, it.cacheDir,
                                  it.signaturePulled ? QStringLiteral("signature referrer pulled")
                                                     : QStringLiteral("no signature referrer"));
        default:
            return {};
        }
    case Qt::ForegroundRole:
        return index.column() == StateColumn ? QVariant(stateColor(it.state)) : QVariant();
    case StateRole:
        return static_cast<int>(it.state);
    case StateNameRole:
        return fetchStateName(it.state);
    case BytesDoneRole:
        return it.bytesDone;
    case BytesTotalRole:
        return it.bytesTotal;
    case ProgressRole:
        return progress;
    case CacheDirRole:
        return it.cacheDir;
    case SignaturePulledRole:
        return it.signaturePulled;
    default:
        return {};
    }
}

QVariant FetchQueueModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case PointerColumn:
        return tr("Pointer");
    case ReferenceColumn:
        return tr("Reference");
    case StateColumn:
        return tr("State");
    case BytesColumn:
        return tr("Bytes");
    case DetailColumn:
        return tr("Detail");
    default:
        return {};
    }
}

// ---- registry credentials -----------------------------------------------------------------------

QString credentialKindName(CredentialKind k) {
    switch (k) {
    case CredentialKind::Helper:
        return QStringLiteral("credential helper");
    case CredentialKind::Store:
        return QStringLiteral("credentials store");
    case CredentialKind::Basic:
        return QStringLiteral("basic (config.json auths)");
    case CredentialKind::IdentityToken:
        return QStringLiteral("identity token (config.json auths)");
    case CredentialKind::Anonymous:
        break;
    }
    return QStringLiteral("anonymous");
}

Result<std::vector<RegistryEntry>> readCredentialSources(const oci::DockerConfigOptions& options,
                                                         const QStringList& alsoRegistries,
                                                         const QStringList& plainHttpRegistries) {
    Result<std::vector<oci::CredentialSource>> sources = oci::listCredentialSources(options);
    if (!sources)
        return sources.error();
    // Which auths entries carry an identity token: only the key names are read, the values are
    // dropped with the document at the end of this block.
    QSet<QString> identityToken;
    {
        QFile f(oci::dockerConfigPath(options));
        if (openInputFile(f).ok()) {
            const QJsonObject auths = QJsonDocument::fromJson(f.read(4 * 1024 * 1024))
                                          .object()
                                          .value(QStringLiteral("auths"))
                                          .toObject();
            for (auto it = auths.begin(); it != auths.end(); ++it)
                if (it.value().toObject().contains(QStringLiteral("identitytoken")))
                    identityToken.insert(it.key());
        }
    }
    std::vector<RegistryEntry> out;
    for (const oci::CredentialSource& s : *sources) {
        RegistryEntry e;
        e.registry = s.registry;
        e.source = s.source;
        if (s.source.startsWith(QLatin1String("credHelpers")))
            e.kind = CredentialKind::Helper;
        else if (s.source.startsWith(QLatin1String("credsStore")))
            e.kind = CredentialKind::Store;
        else if (identityToken.contains(s.registry))
            e.kind = CredentialKind::IdentityToken;
        else
            e.kind = CredentialKind::Basic;
        out.push_back(std::move(e));
    }
    // Registries the user works with that config.json does not name: anonymous, unless a
    // credsStore answers for every registry.
    QString store;
    for (const RegistryEntry& e : out)
        if (e.registry == QLatin1String("*"))
            store = e.source;
    QStringList extra = alsoRegistries + plainHttpRegistries;
    extra.removeDuplicates();
    for (const QString& r : std::as_const(extra)) {
        if (r.isEmpty() ||
            std::any_of(out.begin(), out.end(), [&](const RegistryEntry& e) { return e.registry == r; }))
            continue;
        RegistryEntry e;
        e.registry = r;
        e.kind = store.isEmpty() ? CredentialKind::Anonymous : CredentialKind::Store;
        e.source = store.isEmpty() ? QStringLiteral("anonymous") : store;
        out.push_back(std::move(e));
    }
    for (RegistryEntry& e : out)
        e.plainHttp = plainHttpRegistries.contains(e.registry);
    std::sort(out.begin(), out.end(), [](const RegistryEntry& a, const RegistryEntry& b) {
        // The credsStore default ("*") last, the rest by name.
        if ((a.registry == QLatin1String("*")) != (b.registry == QLatin1String("*")))
            return b.registry == QLatin1String("*");
        return a.registry < b.registry;
    });
    return out;
}

RegistryModel::RegistryModel(QObject* parent) : QAbstractTableModel(parent) {}

void RegistryModel::setEntries(std::vector<RegistryEntry> entries) {
    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
}

int RegistryModel::rowOf(const QString& registry) const {
    for (size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].registry == registry)
            return static_cast<int>(i);
    return -1;
}

void RegistryModel::setTesting(int row) {
    if (row < 0 || row >= rowCount())
        return;
    RegistryEntry& e = m_entries[static_cast<size_t>(row)];
    e.testing = true;
    e.access = tr("testing…");
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void RegistryModel::setAccess(int row, bool ok, const QString& text) {
    if (row < 0 || row >= rowCount())
        return;
    RegistryEntry& e = m_entries[static_cast<size_t>(row)];
    e.testing = false;
    e.accessOk = ok;
    e.access = text;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int RegistryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int RegistryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RegistryModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RegistryEntry& e = m_entries[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case RegistryColumn:
            return e.registry == QLatin1String("*") ? tr("* (any other registry)") : e.registry;
        case KindColumn:
            return credentialKindName(e.kind);
        case SourceColumn:
            return e.source;
        case TransportColumn:
            return e.plainHttp ? tr("plain HTTP (listed)") : tr("HTTPS");
        case AccessColumn:
            return e.access.isEmpty() && role == Qt::DisplayRole ? tr("not tested") : e.access;
        default:
            return {};
        }
    case Qt::ForegroundRole:
        if (index.column() == AccessColumn && !e.access.isEmpty() && !e.testing)
            return e.accessOk ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28);
        return {};
    case RegistryRole:
        return e.registry;
    case KindRole:
        return static_cast<int>(e.kind);
    case AccessOkRole:
        return e.accessOk;
    case TestingRole:
        return e.testing;
    default:
        return {};
    }
}

QVariant RegistryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case RegistryColumn:
        return tr("Registry");
    case KindColumn:
        return tr("Credentials");
    case SourceColumn:
        return tr("Source");
    case TransportColumn:
        return tr("Transport");
    case AccessColumn:
        return tr("Access");
    default:
        return {};
    }
}

} // namespace pb::models
