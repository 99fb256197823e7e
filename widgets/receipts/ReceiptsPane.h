// The Receipts view (Ctrl+6). Top: the chain status (intact, or broken at receipt N and how).
// Ledger tab: every receipt (seq, time, kind, result, summary) filtered by kind, result, time range
// and text as you type; the selected receipt's parameters, inputs and outputs with their digests
// (copyable); export of the ledger as JSON and of a signed head (an encrypted private key): the
// receipts verify and export operations the CLI's `receipts verify` and `receipts export --key` run. External
// records tab: the imported ConfigHub records and the stage table of each recipe entry; Import records… reads
// a directory on a worker.
#pragma once

#include "core/Result.h"
#include "ops/ReceiptsCheckpoint.h"
#include "receipts/Ledger.h"
#include "receipts/Records.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QFrame;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableView;

namespace pb::sigstore {
class Passphrase;
}
namespace pb::models {
class ArtifactTableModel;
class ExternalRecordModel;
class ReceiptFilterProxy;
class ReceiptTableModel;
class StageTableModel;
struct ReceiptsSnapshot;
class Workspace;
} // namespace pb::models

namespace pb::widgets {

class ReceiptsPane : public QWidget {
    Q_OBJECT
  public:
    enum class TimeRange { Any, LastHour, LastDay, LastWeek, LastMonth };

    // Everything the view reads or writes runs on `workspace`'s workers.
    explicit ReceiptsPane(models::Workspace& workspace, QWidget* parent = nullptr);
    ~ReceiptsPane() override;

    // Reads the ledger, the chain status and the records again, on the worker; refreshed() tells
    // when they are shown.
    void refresh();
    const receipts::ChainCheck& chain() const { return m_chain; }
    QString bannerText() const;

    void setKindFilter(const QString& kind); // "" = all
    void setResultFilter(std::optional<receipts::Outcome> result);
    void setTimeRange(TimeRange range);
    void setTextFilter(const QString& text);
    // Selects receipt `seq` in the table (when it passes the filters).
    bool selectReceipt(qint64 seq);
    QString detailText() const;

    // Both export on the worker; exportFinished() (and statusMessage()) tell when done.
    bool exportLedgerTo(const QString& path);
    // The head statement and a Sigstore bundle over it, signed with the key at `keyPath`.
    bool exportSignedHead(const QString& keyPath, const sigstore::Passphrase& passphrase,
                          const QString& headPath, const QString& bundlePath);
    // A checkpoint file (as `proofbench receipts checkpoint`): the head signed, to keep elsewhere.
    bool writeCheckpoint(const QString& keyPath, const sigstore::Passphrase& passphrase,
                         const QString& outPath);
    QString checkpointText() const;

    // Imports the records below `dir` on a worker; recordsImported() follows. False when busy.
    bool importRecords(const QString& dir);
    bool isImporting() const { return m_importing; }
    bool selectEntry(const QString& entry);

    models::ReceiptTableModel* ledgerModel() const { return m_ledger; }
    models::ReceiptFilterProxy* ledgerProxy() const { return m_proxy; }
    models::ArtifactTableModel* artifactModel() const { return m_artifacts; }
    models::ExternalRecordModel* recordModel() const { return m_records; }
    models::StageTableModel* stageModel() const { return m_stages; }
    QTableView* ledgerView() const { return m_ledgerView; }
    QTabWidget* tabs() const { return m_tabs; }

  public slots:
    void exportLedgerInteractively();
    void exportHeadInteractively();
    void writeCheckpointInteractively();
    void importRecordsInteractively();

  signals:
    void recordsImported(bool ok, const QString& message);
    void refreshed();
    void exportFinished(bool ok, const QString& message);
    void statusMessage(const QString& text, int timeoutMs);

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void buildLedgerTab();
    void buildRecordsTab();
    void showLedger(const models::ReceiptsSnapshot& snapshot);
    void showRecords(const Result<std::vector<receipts::ExternalRecord>>& records);
    void finishImport(bool ok, const QString& message);
    void updateBanner();
    // Asks for a private key file and its passphrase; false when cancelled.
    bool askForKey(const QString& title, QString& keyPath, QByteArray& passphrase);
    // A file to save JSON to (the home folder and `fileName` offered); empty when cancelled.
    QString askSaveJson(const char* objectName, const QString& title, const QString& fileName);
    void updateKinds();
    void onReceiptSelected();
    void onEntryChanged();

    receipts::ChainCheck m_chain;
    std::optional<ops::CheckpointNote> m_checkpoint;
    QLabel* m_checkpointLine = nullptr;
    QString m_loadError;

    QFrame* m_banner = nullptr;
    QLabel* m_bannerHeadline = nullptr;
    QLabel* m_bannerDetail = nullptr;
    QTabWidget* m_tabs = nullptr;

    models::ReceiptTableModel* m_ledger = nullptr;
    models::ReceiptFilterProxy* m_proxy = nullptr;
    models::ArtifactTableModel* m_artifacts = nullptr;
    QComboBox* m_kind = nullptr;
    QComboBox* m_result = nullptr;
    QComboBox* m_time = nullptr;
    QLineEdit* m_text = nullptr;
    QLabel* m_count = nullptr;
    QTableView* m_ledgerView = nullptr;
    QPlainTextEdit* m_detail = nullptr;
    QTableView* m_artifactView = nullptr;

    models::ExternalRecordModel* m_records = nullptr;
    models::StageTableModel* m_stages = nullptr;
    QComboBox* m_entry = nullptr;
    QTableView* m_recordView = nullptr;
    QTableView* m_stageView = nullptr;
    QLabel* m_recordsSummary = nullptr;
    QPushButton* m_importButton = nullptr;
    models::Workspace& m_workspace; // reads, exports and the records import run on its workers
    bool m_importing = false;
    quint64 m_refreshGeneration = 0; // only the newest read is shown
};

} // namespace pb::widgets
