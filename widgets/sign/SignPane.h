// The Sign view: signing keys and signatures, offline. On the left, the public keys stored in the
// database (label, fingerprint — the base64 SHA-256 of the key, which signed bundles carry as their
// hint — and when it was added) with New key…, Import key… and Export public key…; below them, the
// three things Proofbench signs: a file, an evidence bundle and a deployment bundle, each in a
// dialog that asks for the private key file and its passphrase. On the right, the verification of
// a deployment bundle (BundleVerifyPane). Dialogs open window-modal and delete themselves; the
// current one is reachable for tests and scripts.
#pragma once

#include "SignDialogs.h"
#include "SigningModels.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace pb::widgets {

class BundleVerifyPane;

class SignPane : public QWidget {
    Q_OBJECT
  public:
    // Keys are read and made, and files signed, on `workspace`'s workers.
    explicit SignPane(models::Workspace& workspace, QWidget* parent = nullptr);

    models::KeysModel* keysModel() const { return m_keys; }
    QTableView* keysView() const { return m_keysView; }
    BundleVerifyPane* bundleVerifyPane() const { return m_bundleVerify; }
    // The dialog on screen (nullptr when none).
    KeyDialog* keyDialog() const { return m_keyDialog; }
    SignDialog* signDialog() const { return m_signDialog; }
    // The private key used or created last: the sign dialogs start with it.
    QString lastKeyPath() const { return m_lastKeyPath; }
    void setLastKeyPath(const QString& path) { m_lastKeyPath = path; }
    // Writes the public key of the stored key in `row` as PEM; false with lastError().
    bool exportPublicKey(int row, const QString& path);
    QString lastError() const { return m_lastError; }
    // The last result line (what was signed or created).
    QString lastMessage() const;

  public slots:
    void reloadKeys();
    KeyDialog* newKey();
    KeyDialog* importKey();
    void exportSelectedPublicKey();
    SignDialog* signFile();
    SignDialog* signEvidence();
    SignDialog* signDeployment();

  signals:
    // A key was created or imported, or something was signed; for the status bar.
    void message(const QString& text);
    // The keys list was read again (reloadKeys() reads on a worker).
    void keysLoaded();

  private:
    KeyDialog* openKeyDialog(KeyDialog::Mode mode);
    SignDialog* openSignDialog(SignDialog::Kind kind);
    void showLastMessage(const QString& text);
    void updateButtons();
    void showKeys(const Result<std::vector<models::StoredKey>>& keys);

    models::Workspace& m_workspace; // reads, key making and signing run on its workers
    models::KeysModel* m_keys = nullptr;
    quint64 m_keysGeneration = 0; // only the newest read fills the list
    QString m_selectAfterLoad;    // a key just made, selected when the list is back
    QTableView* m_keysView = nullptr;
    QLabel* m_keysTitle = nullptr;
    QPushButton* m_exportButton = nullptr;
    QLabel* m_lastMessage = nullptr;
    BundleVerifyPane* m_bundleVerify = nullptr;
    QPointer<KeyDialog> m_keyDialog;
    QPointer<SignDialog> m_signDialog;
    QString m_lastKeyPath;
    QString m_lastError;
};

} // namespace pb::widgets
