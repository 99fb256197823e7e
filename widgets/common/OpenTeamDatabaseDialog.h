// File > Open Team Database… (issue 32): host, port, database, user, TLS mode and CA file, made into
// a libpq spec (shown as it will be used, never with a password). Test Connection connects on a
// worker and says who the server knows you as, your team role, whether TLS was verified and the
// schema's state; a password libpq cannot find (~/.pgpass, PGPASSFILE, a service file) is asked for
// then and kept in memory only. A connection to a remote host without verified TLS is warned about
// in the dialog before anything is sent.
#pragma once

#include "OpenDatabase.h"
#include "TeamConnection.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace pb::widgets {

class OpenTeamDatabaseDialog : public QDialog {
    Q_OBJECT
  public:
    // `initial`: a spec to fill the fields from (a recent server), or empty.
    explicit OpenTeamDatabaseDialog(const QString& initial = {}, QWidget* parent = nullptr);

    // The spec the fields make (libpq keyword=value text).
    QString spec() const;
    // Replaces the password prompt (a QInputDialog by default).
    void setPasswordPrompt(models::PasswordPrompt ask) { m_ask = std::move(ask); }
    // Starts the connection test; false while one runs.
    bool testConnection();
    bool isTesting() const { return m_testing; }
    // The last test's outcome as shown ("" before the first).
    QString testResult() const;
    bool lastTestSucceeded() const { return m_lastOk; }
    QString warningText() const;

  signals:
    void tested(bool ok);

  private:
    void update();

    QLineEdit* m_host;
    QLineEdit* m_port;
    QLineEdit* m_dbname;
    QLineEdit* m_user;
    QComboBox* m_sslmode;
    QLineEdit* m_ca;
    QLabel* m_specLabel;
    QLabel* m_warning;
    QLabel* m_result;
    QPushButton* m_test;
    QPushButton* m_open;
    models::PasswordPrompt m_ask;
    bool m_testing = false;
    bool m_lastOk = false;
};

// The window's password prompt: a modal QInputDialog (objectName "passwordPrompt") in password mode.
models::PasswordPrompt passwordPrompt(QWidget* parent);

} // namespace pb::widgets
