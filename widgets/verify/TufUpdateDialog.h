// "Update from a TUF repository…" (Verify view; issue #19 section 3): takes Sigstore's
// trusted_root.json from a TUF repository copy, verified offline as the TUF client workflow does,
// through the same operation as `proofbench trusted-root update` (ops/TrustedRootUpdate.h) on a
// worker of the workspace (models::Workspace). The user picks the folder, the anchor (default: the root the
// app ships) and optionally the time expiry is checked against, and whether to start again from the anchor
// instead of the state earlier updates left trusted (rollback protection); each step (root chain versions,
// each role verified, expiry, the target) appears as it is decided, then the result; Cancel stops at the next
// file.
#pragma once

#include "Workspace.h"
#include "tuf/Client.h"

#include <QDateTime>
#include <QDialog>

#include <atomic>
#include <memory>
#include <optional>

class QCheckBox;
class QDateTimeEdit;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace pb::widgets {

class TufUpdateDialog : public QDialog {
    Q_OBJECT
  public:
    explicit TufUpdateDialog(models::Workspace& workspace, QWidget* parent = nullptr);
    ~TufUpdateDialog() override;

    void setRepository(const QString& dir);
    QString repository() const;
    // Empty: the shipped anchor.
    void setAnchor(const QString& path);
    QString anchor() const;
    // A time to check expiry against (UTC); std::nullopt: now.
    void setVerificationTime(std::optional<QDateTime> at);
    std::optional<QDateTime> verificationTime() const;
    // Start again from the anchor, ignoring what earlier updates from it trusted (--from-anchor).
    void setFromAnchor(bool on);
    bool fromAnchor() const;

    // For tests and the screenshot tool.
    QStandardItemModel* stepsModel() const { return m_steps; }
    QTableView* stepsView() const { return m_stepsView; }
    QPushButton* updateButton() const { return m_update; }
    QPushButton* cancelButton() const { return m_cancel; }
    bool isRunning() const { return m_task.running(); }
    // The headline of the last run ("Verified and stored …" / "Not verified: …").
    QString resultText() const;
    bool lastOk() const { return m_lastOk; }
    qint64 lastTrustedRootId() const { return m_lastRootId; }

  public slots:
    // Verifies and imports; false when no folder is given or a run is going on.
    bool start();
    void cancelRun();

  signals:
    // A root was verified and stored (`id`), now the default.
    void updated(qint64 id);
    // A run ended, whatever its outcome.
    void finished(bool ok);

  protected:
    void reject() override;

  private:
    QWidget* buildForm();
    void buildStepsTable();
    QHBoxLayout* buildButtons();
    void addStep(const tuf::ClientStep& step);
    void updateButtons();

    models::Workspace& m_workspace; // the run goes to one of its workers
    QLineEdit* m_repo = nullptr;
    QLineEdit* m_anchor = nullptr;
    QCheckBox* m_useTime = nullptr;
    QDateTimeEdit* m_time = nullptr;
    QCheckBox* m_fromAnchor = nullptr;
    QCheckBox* m_defaultAnyway = nullptr; // with a time given: make the root the default anyway
    QStandardItemModel* m_steps = nullptr;
    QTableView* m_stepsView = nullptr;
    QLabel* m_result = nullptr;
    QPushButton* m_update = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_close = nullptr;
    models::Task m_task; // the run, while it goes on
    bool m_lastOk = false;
    qint64 m_lastRootId = 0;
};

} // namespace pb::widgets
