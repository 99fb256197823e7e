// Models of the Receipts view: the ledger (one row per receipt) with a filter proxy (kind, result,
// time range, text), a receipt's inputs and outputs with their digests, the external records that
// were imported, and an entry's stage table.
#pragma once

#include "ops/ReceiptsCheckpoint.h"

#include "ops/Operation.h"
#include "receipts/Ledger.h"
#include "receipts/Records.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QSortFilterProxyModel>

#include <optional>
#include <vector>

namespace pb::models {

// What the Receipts view shows, read in one go: the ledger with its chain check (the receipts
// verify operation, as `proofbench receipts verify`) and the imported external records. Each part
// carries its own error.
struct ReceiptsSnapshot {
    Result<receipts::ChainCheck> chain = Result<receipts::ChainCheck>(receipts::ChainCheck{});
    std::vector<receipts::Receipt> receipts;       // oldest first
    std::optional<ops::CheckpointNote> checkpoint; // the last checkpoint on record
    Result<std::vector<receipts::ExternalRecord>> records =
        Result<std::vector<receipts::ExternalRecord>>(std::vector<receipts::ExternalRecord>{});
};
// Worker side: run it through the window's runner (ops::Async), never on the GUI thread.
ReceiptsSnapshot readReceipts(const ops::Context& ctx);

class ReceiptTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { SeqColumn, TimeColumn, KindColumn, ResultColumn, SummaryColumn, ColumnCount };
    enum Role { SeqRole = Qt::UserRole + 1, KindRole, ResultRole, TimeRole, SearchTextRole };

    explicit ReceiptTableModel(QObject* parent = nullptr);
    void setReceipts(std::vector<receipts::Receipt> receipts);
    const receipts::Receipt* receiptAt(int row) const;
    // The row of receipt `seq`, -1 when absent.
    int rowOf(qint64 seq) const;
    // Distinct kinds, sorted.
    QStringList kinds() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<receipts::Receipt> m_receipts;
};

// Kind: an exact kind or a prefix ending in '.'; result; time range (inclusive, invalid = open);
// text: every word must appear in the kind, message, parameters, or an artifact name or digest.
class ReceiptFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit ReceiptFilterProxy(QObject* parent = nullptr);
    void setKind(const QString& kind);
    void setResult(std::optional<receipts::Outcome> result);
    void setTimeRange(const QDateTime& from, const QDateTime& to);
    void setText(const QString& text);

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

  private:
    QString m_kind;
    std::optional<receipts::Outcome> m_result;
    QDateTime m_from, m_to;
    QStringList m_words;
};

// Inputs then outputs of one receipt.
class ArtifactTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { DirectionColumn, NameColumn, DigestColumn, SizeColumn, ColumnCount };
    explicit ArtifactTableModel(QObject* parent = nullptr);
    void setReceipt(const receipts::Receipt* receipt); // nullptr: empty

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    struct Row {
        bool input = true;
        receipts::Artifact artifact;
    };
    std::vector<Row> m_rows;
};

class ExternalRecordModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { EntryColumn, KindColumn, NameColumn, FileColumn, DigestColumn, ColumnCount };
    enum Role { EntryRole = Qt::UserRole + 1 };
    explicit ExternalRecordModel(QObject* parent = nullptr);
    void setRecords(std::vector<receipts::ExternalRecord> records);
    const std::vector<receipts::ExternalRecord>& records() const { return m_records; }
    QStringList entries() const; // distinct, sorted

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<receipts::ExternalRecord> m_records;
};

class StageTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { StageColumn, ResultColumn, RecordColumn, DetailColumn, ColumnCount };
    explicit StageTableModel(QObject* parent = nullptr);
    void setStages(std::vector<receipts::StageRow> stages);
    const std::vector<receipts::StageRow>& stages() const { return m_stages; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<receipts::StageRow> m_stages;
};

} // namespace pb::models
