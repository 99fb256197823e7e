// The Sign view: signing keys and signatures, offline. On the left, the public keys stored in the
// database (label, fingerprint — the base64 SHA-256 of the key, which signed bundles carry as their
// hint — and when it was added) with New key…, Import key… and Export public key…; below them, the
// three things Proofbench signs: a file, an evidence bundle and a deployment bundle, each in a
// dialog that asks for the private key file and its passphrase. On the right, the verification of
// a deployment bundle (BundleVerifyPane). Dialogs open window-modal and delete themselves; the
// current one is reachable for tests and scripts.
#pragma once

#include "SignDialogs.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace pb::db {
class Database;
}
namespace pb::models {
class KeysModel;
}

namespace pb::widgets {

class BundleVerifyPane;

class SignPane : public QWidget {
    Q_OBJECT
  public:
    explicit SignPane(db::Database& db, QWidget* parent = nullptr);

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

  private:
    KeyDialog* openKeyDialog(KeyDialog::Mode mode);
    SignDialog* openSignDialog(SignDialog::Kind kind);
    void showLastMessage(const QString& text);
    void updateButtons();

    db::Database& m_db;
    ops::Async m_ops; // signing runs here, on connections of its own
    models::KeysModel* m_keys = nullptr;
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
