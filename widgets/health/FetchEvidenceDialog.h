// "Fetch evidence" (issue #11): pulls the bundle each evidence pointer pins, and its Sigstore
// referrer, into the local OCI cache, checks it offline and imports it, so the health table and the
// inspector show it without the network afterwards. One row per pointer (queued, fetching with the
// bytes moved, checking, then valid / invalid / failed with the reason). The work is the fetch
// operation (ops/FetchEvidence.h, the CLI's `evidence fetch`) run on the workspace: at most two
// pulls at a time, the imports and the evidence.fetch receipt in one transaction; Cancel raises the
// operation's cancel flag, and a cancelled pull leaves nothing half-written (the cache only ever
// renames verified blobs into place).
#pragma once

#include "RegistryModels.h"
#include "RegistrySettings.h"
#include "Workspace.h"
#include "core/Result.h"
#include "evidence/Evidence.h"
#include "oci/Registry.h"

#include <QDialog>

#include <atomic>
#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace pb::ops {
struct FetchEvidenceOutcome;
} // namespace pb::ops

namespace pb::models {
class Workspace;
}

namespace pb::widgets {

class FetchEvidenceDialog : public QDialog {
    Q_OBJECT
  public:
    FetchEvidenceDialog(models::Workspace& workspace, std::vector<evidence::Pointer> pointers,
                        RegistrySettings settings, QWidget* parent = nullptr);
    ~FetchEvidenceDialog() override;

    models::FetchQueueModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    const RegistrySettings& settings() const { return m_settings; }
    bool isRunning() const { return m_task.running(); }
    bool wasCancelled() const { return m_cancelled; }
    // What the summary line says (counts, bytes, cancelled).
    QString summaryText() const;

    // Fetches at most this many bundles at once (default 2).
    void setConcurrency(int n);

  public slots:
    // Starts every queued row; false when running already or nothing to fetch.
    bool start();
    // Raises the cancel flag: running pulls stop soon after, queued rows are not started.
    void cancel();
    // The registry credentials view, over this dialog's settings.
    void openRegistries();

  signals:
    // Every row has finished (some may have been cancelled); `imported` bundles were stored.
    void fetchFinished(int valid, int failed, int imported);

  protected:
    void closeEvent(QCloseEvent* event) override;
    void reject() override;

  private:
    struct RowUpdate {
        int row = 0;
        models::FetchState state = models::FetchState::Queued;
        qint64 bytesDone = 0, bytesTotal = -1;
        QString detail, cacheDir;
        bool signaturePulled = false;
        bool done = false;
    };
    void readSettingsFields();
    void onRowUpdate(const RowUpdate& u);
    void onFinished(const Result<ops::FetchEvidenceOutcome>& r);
    void updateSummary();
    void updateButtons();

    models::Workspace& m_workspace;
    RegistrySettings m_settings;
    models::FetchQueueModel* m_model = nullptr;
    int m_concurrency = 2;
    std::vector<int> m_rows; // the model row of each pointer of the running fetch
    QString m_error;         // why the last run failed as a whole
    models::Task m_task;     // the fetch operation, while it runs
    int m_imported = 0;
    bool m_started = false;
    bool m_cancelled = false;

    QLabel* m_intro = nullptr;
    QLineEdit* m_plainHttp = nullptr;
    QLabel* m_cacheLabel = nullptr;
    QTableView* m_table = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_registries = nullptr;
    QPushButton* m_close = nullptr;
};

} // namespace pb::widgets
