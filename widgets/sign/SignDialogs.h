// The Sign view's dialogs. KeyDialog creates a new ECDSA P-256 signing key, or imports one (cosign.key,
// an encrypted or plain PEM private key): the private key is written only encrypted (NAME, mode
// 0600), the public key beside it (NAME.pub), and the database records the public key and its
// fingerprint — never the private key, never the passphrase. SignDialog signs a file (a Sigstore
// bundle beside it), an evidence bundle (attestation.intoto.jsonl and an evidence pointer) or a
// deployment bundle (checksums.txt and the SLSA attestation, with file counts and Cancel) on a
// worker. Passphrases live in sigstore::Passphrase (wiped when done); the fields are cleared after
// every attempt and nothing logs them.
#pragma once

#include "Workspace.h"
#include "ops/Async.h"

#include <QDialog>

#include <atomic>
#include <memory>

class QCheckBox;
class QDialogButtonBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace pb::widgets {

class KeyDialog : public QDialog {
    Q_OBJECT
  public:
    enum class Mode { Create, Import };
    // Keys are made on a worker of `workspace` (its own connection), never on the GUI thread.
    KeyDialog(Mode mode, models::Workspace& workspace, QWidget* parent = nullptr);

    Mode mode() const { return m_mode; }
    void setOutputPath(const QString& path);
    QString outputPath() const;
    void setSourcePath(const QString& path); // Import
    // After a success: the files written and the key's fingerprint.
    QString privateKeyPath() const { return m_privatePath; }
    QString publicKeyPath() const { return m_publicPath; }
    QString fingerprint() const { return m_fingerprint; }
    QString lastError() const { return m_lastError; }
    // `proofbench keygen …` for the same key (the passphrase from an environment variable).
    QString command() const;

  public slots:
    // Creates (or imports) the key from the fields on a worker; false when the fields are refused
    // at once (the reason shown). When the worker is done runFinished() tells; on success the
    // dialog is accepted, on failure the reason is shown in the dialog and nothing is written.
    bool run();

  public:
    // What the worker made: the key's fingerprint and the files written (none for a public key).
    struct Outcome {
        QString fingerprint, privatePath, publicPath;
    };

  signals:
    void runFinished(bool ok);

  private:
    QGridLayout* buildKeyGrid(bool import);
    QDialogButtonBox* buildButtons(bool import);
    void finishRun(const Result<Outcome>& made);
    void browseOutput();
    void browseSource();
    void showError(const QString& text);

    Mode m_mode;
    models::Workspace& m_workspace;
    models::Task m_task; // the key being made
    QLineEdit* m_source = nullptr;
    QLineEdit* m_output = nullptr;
    QLineEdit* m_passphrase = nullptr;
    QLineEdit* m_repeat = nullptr;
    QCheckBox* m_cosign = nullptr;
    QLabel* m_error = nullptr;
    QPushButton* m_runButton = nullptr;
    QString m_privatePath, m_publicPath, m_fingerprint, m_lastError;
};

class SignDialog : public QDialog {
    Q_OBJECT
  public:
    enum class Kind { Blob, Evidence, Deployment };
    SignDialog(Kind kind, QWidget* parent = nullptr);
    ~SignDialog() override;

    Kind kind() const { return m_kind; }
    // The operations front the signature runs on (the Sign view's); without one nothing can be signed.
    void setWorkspace(models::Workspace* workspace) { m_signWorkspace = workspace; }
    // The file or directory to sign; for a blob, the bundle defaults to FILE.sigstore.json.
    void setInputPath(const QString& path);
    QString inputPath() const;
    // Blob: the bundle to write. Evidence: the recipes/evidence directory for the pointer (empty:
    // the bundle's parent). Deployment: unused.
    void setOutputPath(const QString& path);
    QString outputPath() const;
    void setKeyPath(const QString& path);
    QString keyPath() const;

    bool isRunning() const { return m_task.running(); }
    bool succeeded() const { return m_succeeded; }
    bool wasCancelled() const { return m_cancelled; }
    QString lastError() const { return m_lastError; }
    // After a success: what was written, one path per line (bundle; attestation and pointer;
    // checksums.txt and the attestation), and the summary shown.
    QStringList writtenPaths() const { return m_written; }
    QString resultText() const;
    QProgressBar* progressBar() const { return m_progress; }
    QString command() const; // the `proofbench …` command line for the same signature

  public slots:
    // Starts signing on a worker; false (with the reason shown) when an input is missing.
    bool sign();
    // Cancels a running deployment-bundle signature (nothing is written) or closes the dialog.
    void cancel();

  signals:
    void signingFinished(bool ok, const QString& message);

  protected:
    void reject() override;
    void closeEvent(QCloseEvent* event) override;

  private:
    struct Outcome;
    QGridLayout* buildInputGrid(const QString& inputLabel, const QString& inputHint);
    void buildProgress();
    QDialogButtonBox* buildButtons();
    QString missingInput(const QString& input, const QString& output, const QString& key,
                         bool havePassphrase) const;
    void showStarted();
    void browseInput();
    void browseOutput();
    void browseKey();
    void onProgress(const ops::Progress& p);
    void onFinished(const Outcome& outcome);
    void showResult(const QString& html, bool error);
    void setRunning(bool running);

    Kind m_kind;
    models::Workspace* m_signWorkspace = nullptr;
    QLineEdit* m_input = nullptr;
    QLineEdit* m_output = nullptr;
    QLineEdit* m_key = nullptr;
    QLineEdit* m_passphrase = nullptr;
    QCheckBox* m_signIncomplete = nullptr; // evidence only
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressText = nullptr;
    QLabel* m_result = nullptr;
    QPushButton* m_signButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_copyCommand = nullptr;
    models::Task m_task; // the signature, while it runs
    bool m_succeeded = false;
    bool m_cancelled = false;
    QString m_lastError;
    QStringList m_written;
};

} // namespace pb::widgets
