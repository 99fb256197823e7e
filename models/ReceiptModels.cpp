#include "ReceiptModels.h"

#include "ops/ReceiptsVerify.h"
#include "receipts/Canonical.h"

#include <QColor>
#include <QFont>
#include <QLocale>

#include <set>

namespace pb::models {

using receipts::Outcome;
using receipts::Receipt;

ReceiptsSnapshot readReceipts(const ops::Context& ctx) {
    ReceiptsSnapshot snapshot;
    Result<ops::ReceiptsVerifyOutcome> verified = ops::verifyReceipts(ctx, ops::ReceiptsVerifyRequest{true});
    if (verified) {
        snapshot.chain = verified->chain;
        snapshot.receipts = std::move(verified->receipts);
        snapshot.checkpoint = ops::lastCheckpoint(snapshot.receipts);
    } else {
        snapshot.chain = verified.error();
    }
    snapshot.records = receipts::storedRecords(ctx.db());
    return snapshot;
}

namespace {

QColor outcomeColor(Outcome o) {
    switch (o) {
    case Outcome::Ok:
        return QColor(0x2E, 0x7D, 0x32);
    case Outcome::Failed:
        return QColor(0xC6, 0x28, 0x28);
    case Outcome::Partial:
        return QColor(0xC7, 0x7C, 0x02);
    }
    return {};
}

QString searchText(const Receipt& r) {
    QString s = r.kind + QLatin1Char(' ') + r.message + QLatin1Char(' ') +
                QString::fromUtf8(receipts::canonicalJson(r.parameters));
    for (const auto* list : {&r.inputs, &r.outputs})
        for (const receipts::Artifact& a : *list)
            s += QLatin1Char(' ') + a.name + QLatin1Char(' ') + a.sha256;
    return s;
}

QString sizeText(qint64 size) {
    return size < 0 ? QStringLiteral("-")
                    : QLocale::c().formattedDataSize(size, 1, QLocale::DataSizeTraditionalFormat);
}

} // namespace

// ---- ledger --------------------------------------------------------------------------------------

ReceiptTableModel::ReceiptTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ReceiptTableModel::setReceipts(std::vector<Receipt> receipts) {
    beginResetModel();
    m_receipts = std::move(receipts);
    endResetModel();
}

const Receipt* ReceiptTableModel::receiptAt(int row) const {
    return row >= 0 && row < int(m_receipts.size()) ? &m_receipts[size_t(row)] : nullptr;
}

int ReceiptTableModel::rowOf(qint64 seq) const {
    for (size_t i = 0; i < m_receipts.size(); ++i)
        if (m_receipts[i].seq == seq)
            return int(i);
    return -1;
}

QStringList ReceiptTableModel::kinds() const {
    std::set<QString> k;
    for (const Receipt& r : m_receipts)
        k.insert(r.kind);
    return QStringList(k.begin(), k.end());
}

int ReceiptTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_receipts.size());
}
int ReceiptTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReceiptTableModel::data(const QModelIndex& index, int role) const {
    const Receipt* r = index.isValid() ? receiptAt(index.row()) : nullptr;
    if (!r)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeqColumn:
            return r->seq;
        case TimeColumn:
            return r->time.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        case KindColumn:
            return r->kind;
        case ResultColumn:
            return receipts::outcomeName(r->result);
        case SummaryColumn:
            return r->message;
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == SummaryColumn || index.column() == KindColumn)
            return QStringLiteral("#%1 %2\n%3\nhash %4").arg(r->seq).arg(r->kind, r->message, r->hash);
        break;
    case Qt::ForegroundRole:
        if (index.column() == ResultColumn)
            return outcomeColor(r->result);
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == SeqColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case SeqRole:
        return r->seq;
    case KindRole:
        return r->kind;
    case ResultRole:
        return receipts::outcomeName(r->result);
    case TimeRole:
        return r->time;
    case SearchTextRole:
        return searchText(*r);
    default:
        break;
    }
    return {};
}

QVariant ReceiptTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeqColumn:
        return tr("#");
    case TimeColumn:
        return tr("Time (UTC)");
    case KindColumn:
        return tr("Kind");
    case ResultColumn:
        return tr("Result");
    case SummaryColumn:
        return tr("Summary");
    }
    return {};
}

ReceiptFilterProxy::ReceiptFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {}

void ReceiptFilterProxy::setKind(const QString& kind) {
    m_kind = kind;
    invalidateFilter();
}

void ReceiptFilterProxy::setResult(std::optional<Outcome> result) {
    m_result = result;
    invalidateFilter();
}

void ReceiptFilterProxy::setTimeRange(const QDateTime& from, const QDateTime& to) {
    m_from = from;
    m_to = to;
    invalidateFilter();
}

void ReceiptFilterProxy::setText(const QString& text) {
    m_words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateFilter();
}

bool ReceiptFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_kind.isEmpty()) {
        const QString kind = i.data(ReceiptTableModel::KindRole).toString();
        if (m_kind.endsWith(QLatin1Char('.')) ? !kind.startsWith(m_kind) : kind != m_kind)
            return false;
    }
    if (m_result && i.data(ReceiptTableModel::ResultRole).toString() != receipts::outcomeName(*m_result))
        return false;
    const QDateTime t = i.data(ReceiptTableModel::TimeRole).toDateTime();
    if ((m_from.isValid() && t < m_from) || (m_to.isValid() && t > m_to))
        return false;
    if (!m_words.isEmpty()) {
        const QString text = i.data(ReceiptTableModel::SearchTextRole).toString();
        for (const QString& w : m_words)
            if (!text.contains(w, Qt::CaseInsensitive))
                return false;
    }
    return true;
}

// ---- artifacts -----------------------------------------------------------------------------------

ArtifactTableModel::ArtifactTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ArtifactTableModel::setReceipt(const Receipt* receipt) {
    beginResetModel();
    m_rows.clear();
    if (receipt) {
        for (const receipts::Artifact& a : receipt->inputs)
            m_rows.push_back({true, a});
        for (const receipts::Artifact& a : receipt->outputs)
            m_rows.push_back({false, a});
    }
    endResetModel();
}

int ArtifactTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}
int ArtifactTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ArtifactTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row& r = m_rows[size_t(index.row())];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole || role == Qt::EditRole) {
        switch (index.column()) {
        case DirectionColumn:
            return r.input ? tr("input") : tr("output");
        case NameColumn:
            return r.artifact.name;
        case DigestColumn:
            return r.artifact.sha256.isEmpty() ? QString() : QStringLiteral("sha256:") + r.artifact.sha256;
        case SizeColumn:
            return role == Qt::DisplayRole ? sizeText(r.artifact.size) : QVariant(r.artifact.size);
        }
    }
    if (role == Qt::FontRole && index.column() == DigestColumn) {
        QFont f(QStringLiteral("monospace"));
        f.setStyleHint(QFont::Monospace);
        return f;
    }
    return {};
}

QVariant ArtifactTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case DirectionColumn:
        return tr("");
    case NameColumn:
        return tr("Name");
    case DigestColumn:
        return tr("SHA-256");
    case SizeColumn:
        return tr("Size");
    }
    return {};
}

// ---- external records ----------------------------------------------------------------------------

ExternalRecordModel::ExternalRecordModel(QObject* parent) : QAbstractTableModel(parent) {}

void ExternalRecordModel::setRecords(std::vector<receipts::ExternalRecord> records) {
    beginResetModel();
    m_records = std::move(records);
    endResetModel();
}

QStringList ExternalRecordModel::entries() const {
    std::set<QString> e;
    for (const receipts::ExternalRecord& r : m_records)
        e.insert(r.entry);
    return QStringList(e.begin(), e.end());
}

int ExternalRecordModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_records.size());
}
int ExternalRecordModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ExternalRecordModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_records.size()))
        return {};
    const receipts::ExternalRecord& r = m_records[size_t(index.row())];
    if (role == EntryRole)
        return r.entry;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case EntryColumn:
        return r.entry;
    case KindColumn:
        return r.kind;
    case NameColumn:
        return r.name;
    case FileColumn:
        return r.relative;
    case DigestColumn:
        return QStringLiteral("sha256:") + r.sha256;
    }
    return {};
}

QVariant ExternalRecordModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case EntryColumn:
        return tr("Entry");
    case KindColumn:
        return tr("Kind");
    case NameColumn:
        return tr("Name");
    case FileColumn:
        return tr("File");
    case DigestColumn:
        return tr("SHA-256");
    }
    return {};
}

// ---- stage table ---------------------------------------------------------------------------------

StageTableModel::StageTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void StageTableModel::setStages(std::vector<receipts::StageRow> stages) {
    beginResetModel();
    m_stages = std::move(stages);
    endResetModel();
}

int StageTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_stages.size());
}
int StageTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StageTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_stages.size()))
        return {};
    const receipts::StageRow& s = m_stages[size_t(index.row())];
    if (role == Qt::ForegroundRole && index.column() == ResultColumn) {
        switch (s.result) {
        case receipts::StageResult::Complete:
            return QColor(0x2E, 0x7D, 0x32);
        case receipts::StageResult::Partial:
            return QColor(0xC7, 0x7C, 0x02);
        case receipts::StageResult::NotRun:
            return QColor(0x8A, 0x8A, 0x8A);
        }
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case StageColumn:
        return s.stage;
    case ResultColumn:
        return receipts::stageResultName(s.result);
    case RecordColumn:
        return s.record.isEmpty() ? QStringLiteral("-") : s.record;
    case DetailColumn:
        return s.detail;
    }
    return {};
}

QVariant StageTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StageColumn:
        return tr("Stage");
    case ResultColumn:
        return tr("Result");
    case RecordColumn:
        return tr("Record");
    case DetailColumn:
        return tr("Detail");
    }
    return {};
}

} // namespace pb::models
