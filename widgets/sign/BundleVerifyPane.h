// Verifies a deployment bundle offline, as `proofbench bundle verify` (and `aicr verify`) does: the
// closed-world inventory (checksums.txt against every file on disk), the bundle attestation (a
// stored or PEM public key, or a certificate identity against a stored trusted root) and the aicr
// binary attestation. Runs on a worker with a progress bar (files hashed) and Cancel. Shows the
// trust level large and coloured, every file with its state (ok / changed / missing / unexpected)
// and digests — filterable to problems only — and the attestation's steps.
#pragma once

#include "SigningModels.h"
#include "VerifyModels.h"
#include "Workspace.h"
#include "bundle/DeploymentBundle.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QFrame;
class QGridLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QStackedWidget;
class QTableView;

namespace pb::widgets {

class BundleVerifyPane : public QWidget {
    Q_OBJECT
  public:
    // Verifications and the lists of keys and trusted roots run on workers of `workspace`.
    explicit BundleVerifyPane(models::Workspace& workspace, QWidget* parent = nullptr);
    ~BundleVerifyPane() override;

    void setDirectory(const QString& dir);
    QString directory() const;
    // Key mode with a PEM file.
    void setKeyPath(const QString& path);
    // Key mode with a stored key; false when no stored key has this fingerprint.
    bool selectStoredKey(const QString& fingerprint);
    // Identity mode.
    void setIdentity(const QString& identity, const QString& issuer);
    bool selectTrustedRoot(qint64 id);

    bool isVerifying() const { return m_task.running(); }
    bool hasResult() const { return m_hasResult; }
    // Whether the last result reached the chosen minimum trust level (the CLI's exit 0).
    bool passed() const { return m_passed; }
    bool wasCancelled() const { return m_cancelled; }
    const deploy::DeploymentVerification& result() const { return m_result; }
    QString lastError() const { return m_lastError; }
    QString trustLevelText() const; // the banner's headline
    QString command() const;        // `proofbench bundle verify …` for the same check

    models::DeploymentFilesModel* filesModel() const { return m_files; }
    models::DeploymentFilesFilterModel* filesProxy() const { return m_proxy; }
    models::VerificationStepsModel* stepsModel() const { return m_steps; }
    QTableView* filesView() const { return m_filesView; }
    QProgressBar* progressBar() const { return m_progress; }

  public slots:
    // Starts the verification on a worker; false (with the reason under the button) when an input
    // is missing or one is running.
    bool verify();
    void cancel();
    void reloadKeys();
    void reloadTrustedRoots();
    void setProblemsOnly(bool on);

  signals:
    // Ended: `completed` is false when it was cancelled or could not run.
    void verificationFinished(bool completed, int trustLevel);
    // The stored keys / trusted roots were read again (reloadKeys() and reloadTrustedRoots() read
    // on a worker).
    void keysLoaded();
    void trustedRootsLoaded();

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    struct Outcome;
    QWidget* buildInputs();
    QWidget* buildKeyPage();
    QWidget* buildIdentityPage();
    void addActionRows(QWidget* box, QGridLayout* grid, int& row);
    QWidget* buildResults();
    void buildTrustBanner(QWidget* page);
    QWidget* buildFilesGroup(QWidget* page);
    QWidget* buildStepsGroup(QWidget* page);
    void updateModes();
    void showKeys(const Result<std::vector<models::StoredKey>>& keys);
    void showTrustedRoots(const Result<std::vector<models::StoredTrustedRoot>>& roots);
    void onProgress(int done, int total);
    void onFinished(const Outcome& outcome);
    void showResult(const deploy::DeploymentVerification& v);
    void showBanner(const QString& headline, const QString& text, const QColor& ink, const QColor& tint,
                    const QIcon& icon);
    void showMessage(const QString& text, bool error);
    void updateFileCounts();
    void fitFileColumns();

    models::Workspace& m_workspace;                      // verifications and reads run on its workers
    quint64 m_keysGeneration = 0, m_rootsGeneration = 0; // only the newest read fills a list
    models::DeploymentFilesModel* m_files = nullptr;
    models::DeploymentFilesFilterModel* m_proxy = nullptr;
    models::VerificationStepsModel* m_steps = nullptr;

    QLineEdit* m_dir = nullptr;
    QRadioButton* m_keyMode = nullptr;
    QRadioButton* m_identityMode = nullptr;
    QStackedWidget* m_signerStack = nullptr;
    QComboBox* m_storedKey = nullptr;
    QLineEdit* m_keyPath = nullptr;
    QPushButton* m_keyBrowse = nullptr;
    QCheckBox* m_ignoreTlog = nullptr;
    QLineEdit* m_identity = nullptr;
    QLineEdit* m_issuer = nullptr;
    QComboBox* m_trustedRoot = nullptr;
    QComboBox* m_minLevel = nullptr;
    bool m_passed = false;
    QPushButton* m_verifyButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_copyCommand = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_message = nullptr;

    QStackedWidget* m_resultStack = nullptr;
    QFrame* m_banner = nullptr;
    QLabel* m_levelIcon = nullptr;
    QLabel* m_level = nullptr;
    QLabel* m_levelText = nullptr;
    QLabel* m_details = nullptr;
    QCheckBox* m_problemsOnly = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_fileCounts = nullptr;
    QTableView* m_filesView = nullptr;
    QTableView* m_stepsView = nullptr;
    QLabel* m_stepsTitle = nullptr;
    QLabel* m_stepDetail = nullptr;

    deploy::DeploymentVerification m_result;
    bool m_hasResult = false;
    bool m_cancelled = false;
    QString m_lastError;
    models::Task m_task; // the verification, while it runs
};

} // namespace pb::widgets
