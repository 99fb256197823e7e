// The Verify view: offline Sigstore verification of one bundle, step by step, for auditors. On the
// left, what to verify — the bundle, the artifact (its file or only its digest), the signer (a
// certificate identity and OIDC issuer, exact or regexp, or a public key) and the trusted root
// (stored in the database; the one imported last is the default, so it is remembered) — and the
// history of stored verifications. On the right, the result: a verdict banner, every step with a
// tick, cross or dash and, for the selected (or first failed) step, what was expected and what was
// found side by side; the certificate (subject, SAN, issuer, validity, extensions), the
// transparency-log entries and the RFC 3161 timestamps. Verification is the operation
// `proofbench verify --record` runs (ops::verify), on a worker of the workspace with its own database
// connection: the same verdict, stored row and receipt; the same check can be copied as a
// `proofbench verify` or cosign command line.
#pragma once

#include "VerifyModels.h"
#include "Workspace.h"
#include "sigstore/Verify.h"

#include <QPointer>
#include <QWidget>

#include <map>
#include <memory>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QFrame;
class QGridLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSplitter;
class QStackedWidget;
class QTableView;
class QTextEdit;
class QToolButton;

namespace pb::widgets {

class TufUpdateDialog;

class VerifyPane : public QWidget {
    Q_OBJECT
  public:
    // Verifications, the reads and the trusted-root import run on `workspace`'s workers.
    explicit VerifyPane(models::Workspace& workspace, QWidget* parent = nullptr);
    ~VerifyPane() override;

    // --- Inputs (what the user would type or pick) ---
    QString bundlePath() const;
    void setBundlePath(const QString& path);
    // File mode with this artifact.
    void setArtifactPath(const QString& path);
    // Digest mode with this digest ("sha256:<hex>" or bare hex).
    void setArtifactDigest(const QString& digest);
    // Certificate-identity mode.
    void setIdentity(const QString& identity, const QString& issuer, bool identityRegexp = false,
                     bool issuerRegexp = false);
    // Public-key mode with this PEM file.
    void setKeyPath(const QString& path);
    // Picks a stored trusted root in the combo; false when there is no such root.
    bool selectTrustedRoot(qint64 id);
    qint64 selectedTrustedRoot() const; // 0 when none
    // The inputs as a request (commands are built from it).
    models::VerifyRequest request() const;
    QString proofbenchCommand() const;
    QString cosignCommand() const;

    // Imports a trusted_root.json into the database as the default root, on the worker; when done
    // it is selected and trustedRootImported() tells, or trustedRootImportFailed() with lastError()
    // when the file is not a valid trusted root. True when the import started.
    bool importTrustedRoot(const QString& path);
    // "Update from a TUF repository…": shows the dialog (not modal; one at a time) and returns it.
    // A root it stores is selected here when it finishes.
    TufUpdateDialog* openTufUpdate();
    // Where the selected trusted root came from: its TUF provenance, or the file it was imported from.
    QString trustedRootProvenanceText() const;
    // Dropped or opened files: a trusted root is imported, a bundle (.sigstore.json, .json, .jsonl)
    // fills the bundle field and one other file the artifact. False when none could be used.
    bool openFiles(const QStringList& paths);
    // A file a drop may bring: a local bundle or trusted root (by its name).
    static bool isBundleFileName(const QString& path);

    // --- State ---
    bool isVerifying() const { return m_verifyTask.running(); }
    bool hasResult() const { return m_hasResult; }
    const sigstore::VerificationResult& result() const { return m_result; }
    // The stored verification on view (0: none, or not stored).
    qint64 resultId() const { return m_resultId; }
    QString lastError() const { return m_lastError; }
    // The banner's headline ("Verified" / "Not verified" / a message) and its summary line.
    QString verdictText() const;
    QString verdictSummary() const;

    models::VerificationStepsModel* stepsModel() const { return m_steps; }
    models::CertificateExtensionsModel* extensionsModel() const { return m_extensions; }
    models::LogEntriesModel* logEntriesModel() const { return m_logEntries; }
    models::TimestampsModel* timestampsModel() const { return m_timestamps; }
    models::VerificationHistoryModel* historyModel() const { return m_history; }
    QTableView* stepsView() const { return m_stepsView; }
    QTableView* historyView() const { return m_historyView; }

  public slots:
    // Starts a verification of the inputs on a worker; false (with lastError() and a message under
    // the button) when an input is missing or one is already running.
    bool verify();
    // Shows a stored verification (from the history) as it was recorded.
    bool showStored(qint64 id);
    // Read on the worker; historyLoaded() / trustedRootsLoaded() tell when the lists are filled.
    void reloadHistory();
    // `select`: the root to select once read (0: keep the selection).
    void reloadTrustedRoots(qint64 select = 0);
    void copyProofbenchCommand();
    void copyCosignCommand();
    // Makes a step current: its detail and its expected/found values are shown below the steps.
    void selectStep(int row);

  signals:
    // A verification ran and was stored (`id`); or `id` is 0 and `error` says why it could not run
    // or was not stored.
    void verificationFinished(bool verified, qint64 id, const QString& error);
    void trustedRootImported(qint64 id);
    void trustedRootImportFailed(const QString& error);
    void trustedRootsLoaded();
    void historyLoaded();

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    struct VerifyRun;
    enum class ImportFeedback { Quiet, Message, Box };
    bool importTrustedRoot(const QString& path, ImportFeedback feedback);
    void showImportFailure(ImportFeedback feedback);
    void showTrustedRoots(const Result<std::vector<models::StoredTrustedRoot>>& roots, qint64 select);
    void fillTrustedRoots(const Result<std::vector<models::StoredTrustedRoot>>& roots);
    void showHistory(const Result<std::vector<models::StoredVerification>>& rows);
    QWidget* buildInputs();
    void addBundleRow(QGroupBox* box, QGridLayout* grid, int& row);
    void addArtifactRows(QGroupBox* box, QGridLayout* grid, int& row);
    void addSignerRows(QGroupBox* box, QGridLayout* grid, int& row);
    void addTrustedRootRows(QGroupBox* box, QGridLayout* grid, int& row);
    void addActionRows(QGroupBox* box, QGridLayout* grid, int& row);
    QWidget* buildHistory();
    QWidget* buildResults();
    void buildVerdictBanner(QWidget* page);
    QWidget* buildStepsGroup(QWidget* page);
    void buildCertificateGroup(QWidget* page);
    void buildStepDetail(QWidget* page);
    void buildLogGroups(QWidget* page);
    void browseBundle();
    void browseArtifact();
    void browseKey();
    void importTrustedRootInteractive();
    void showRootProvenance();
    void updateModes();
    void onFinished(const Result<VerifyRun>& run);
    void showResult(const sigstore::VerificationResult& result, qint64 id);
    void showVerdictBanner(const sigstore::VerificationResult& result, qint64 id);
    void showCertificate(const sigstore::VerificationResult& result, const QString& stoppedBefore);
    void showLogAndTimestamps(const sigstore::VerificationResult& result, const QString& stoppedBefore);
    void showVerdict(const QString& headline, const QString& summary, int state);
    void showStepDetail();
    void showMessage(const QString& text, bool error);
    QString trustedRootPath(qint64 id) const;
    bool bundleIsDsse(const QString& path) const;
    void fitTables();

    models::Workspace& m_workspace; // verifications, reads and the trusted-root import run on its workers
    models::VerificationStepsModel* m_steps = nullptr;
    models::CertificateExtensionsModel* m_extensions = nullptr;
    models::LogEntriesModel* m_logEntries = nullptr;
    models::TimestampsModel* m_timestamps = nullptr;
    models::VerificationHistoryModel* m_history = nullptr;

    // Inputs.
    QLineEdit* m_bundlePath = nullptr;
    QRadioButton* m_artifactFileMode = nullptr;
    QRadioButton* m_artifactDigestMode = nullptr;
    QStackedWidget* m_artifactStack = nullptr;
    QLineEdit* m_artifactPath = nullptr;
    QLineEdit* m_digest = nullptr;
    QRadioButton* m_identityMode = nullptr;
    QRadioButton* m_keyMode = nullptr;
    QStackedWidget* m_signerStack = nullptr;
    QLineEdit* m_identity = nullptr;
    QCheckBox* m_identityRegexp = nullptr;
    QLineEdit* m_issuer = nullptr;
    QCheckBox* m_issuerRegexp = nullptr;
    QLineEdit* m_keyPath = nullptr;
    QCheckBox* m_ignoreTlog = nullptr;
    QComboBox* m_trustedRoot = nullptr;
    QPushButton* m_importRoot = nullptr;
    QPushButton* m_tufUpdate = nullptr;
    QLabel* m_rootProvenance = nullptr;
    QPointer<TufUpdateDialog> m_tufDialog;
    QPushButton* m_verifyButton = nullptr;
    QProgressBar* m_busy = nullptr;
    QLabel* m_message = nullptr;
    QPushButton* m_copyCommand = nullptr;
    QPushButton* m_copyCosign = nullptr;
    QTableView* m_historyView = nullptr;
    QLabel* m_historyTitle = nullptr;

    // Result.
    QStackedWidget* m_resultStack = nullptr;
    QLabel* m_placeholder = nullptr;
    QFrame* m_banner = nullptr;
    QLabel* m_verdictIcon = nullptr;
    QLabel* m_verdict = nullptr;
    QLabel* m_verdictSummary = nullptr;
    QLabel* m_verdictFacts = nullptr;
    QSplitter* m_topSplitter = nullptr;
    QTableView* m_stepsView = nullptr;
    QLabel* m_stepsTitle = nullptr;
    QFrame* m_stepDetail = nullptr;
    QLabel* m_stepTitle = nullptr;
    QLabel* m_stepText = nullptr;
    QWidget* m_comparison = nullptr;
    QTextEdit* m_expected = nullptr;
    QTextEdit* m_found = nullptr;
    QGroupBox* m_certificate = nullptr;
    QLabel* m_certMessage = nullptr;
    QWidget* m_certFields = nullptr;
    std::map<QString, QLabel*> m_certLabels; // by field: subject, san, oidcIssuer, issuer, validity, serial
    QTableView* m_extensionsView = nullptr;
    QGroupBox* m_logGroup = nullptr;
    QTableView* m_logView = nullptr;
    QLabel* m_logMessage = nullptr;
    QGroupBox* m_timestampGroup = nullptr;
    QTableView* m_timestampView = nullptr;
    QLabel* m_timestampMessage = nullptr;

    sigstore::VerificationResult m_result;
    bool m_hasResult = false;
    qint64 m_resultId = 0;
    QString m_lastError;
    models::Task m_verifyTask;
    // Where roots imported in this session came from (the database keeps the bytes and the file name).
    std::map<qint64, QString> m_rootPaths;
};

} // namespace pb::widgets
