// "Verify an AICR release…" (issue #19): a folder of AICR release assets verified offline through
// the same operation as `proofbench release verify` (ops/ReleaseVerify.h), on a worker of the workspace
// (models::Workspace) with progress and Cancel. The version is prefilled from the folder's name when it
// carries one; the signer is pinned to NVIDIA's tag workflow for that version. One row per asset: verified,
// digest only (the asset is absent: only its signed or listed digest is known) or failed, with the reason. A
// verified recipe-catalog signature binds the catalog versions whose registry and validator catalog reproduce
// it; `verified` tells the window which, so it can show the binding.
#pragma once

#include "Workspace.h"

#include <QDialog>
#include <QStringList>

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace pb::widgets {

class ReleaseVerifyDialog : public QDialog {
    Q_OBJECT
  public:
    enum Column { AssetColumn, KindColumn, StatusColumn, ReasonColumn, ColumnCount };

    explicit ReleaseVerifyDialog(models::Workspace& workspace, QWidget* parent = nullptr);
    ~ReleaseVerifyDialog() override;

    // The release folder; fills the version from the folder's name when it names one.
    void setFolder(const QString& path);
    void setVersion(const QString& version);
    void setTrustedRoot(const QString& path);
    // The imported catalog versions offered for the recipe-catalog comparison (first entry: none).
    void setCatalogVersions(const QStringList& labels);
    void setCatalogVersion(const QString& label);

    // For tests and the screenshot tool.
    QLineEdit* folderField() const { return m_folder; }
    QLineEdit* versionField() const { return m_version; }
    QLineEdit* trustedRootField() const { return m_root; }
    QComboBox* catalogVersionBox() const { return m_catalog; }
    QStandardItemModel* assetModel() const { return m_model; }
    QTableView* assetTable() const { return m_table; }
    QPushButton* verifyButton() const { return m_verify; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* summaryLabel() const { return m_summary; }
    QLabel* scopeLabel() const { return m_scope; }
    bool isRunning() const { return m_task.running(); }
    QString lastError() const { return m_lastError; }
    // The status text of the row named `asset` ("verified", "digest only", "failed"); empty if none.
    QString statusOf(const QString& asset) const;
    QString reasonOf(const QString& asset) const;

  public slots:
    // Starts the verification; false when a field is missing or one runs.
    bool startVerify();
    void cancelVerify();

  signals:
    // A verification ran to its end (not cancelled, no error); `boundVersions`: catalog versions
    // now bound to the release.
    void verified(const QString& version, const QStringList& boundVersions);
    // A run ended, whatever its outcome: ok = it ran and no asset failed.
    void verificationFinished(bool ok);

  protected:
    void reject() override;

  private:
    void browseFolder();
    void browseRoot();
    void updateButtons();

    models::Workspace& m_workspace; // the run goes to one of its workers
    QLineEdit* m_folder = nullptr;
    QPushButton* m_browseFolder = nullptr;
    QLineEdit* m_version = nullptr;
    QLabel* m_identity = nullptr;
    QLineEdit* m_root = nullptr;
    QPushButton* m_browseRoot = nullptr;
    QComboBox* m_catalog = nullptr;
    QStandardItemModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressText = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_scope = nullptr;
    QPushButton* m_verify = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_close = nullptr;

    models::Task m_task; // the run, while it goes on
    QString m_lastError;
};

} // namespace pb::widgets
