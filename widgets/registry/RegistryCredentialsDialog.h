// The registry credentials view (issue #11): every registry the docker config.json names (the file
// DOCKER_CONFIG points at, ~/.docker/config.json, or one the user picks), plus the registries in use,
// with where its credentials come from — a credHelpers helper, the credsStore, config.json auths
// (basic or identity token), or anonymous — and never the secret itself. "Test access" asks the
// registry's API for a blob that cannot exist, anonymously or with the credentials config.json
// gives, on a worker of the window's workspace (runInView), and shows whether the registry answered and
// accepted them. Plain HTTP is used only for the registries listed, as the CLI's --plain-http-registry.
#pragma once

#include "RegistrySettings.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace pb::models {
class RegistryModel;
class Workspace;
} // namespace pb::models

namespace pb::widgets {

class RegistryCredentialsDialog : public QDialog {
    Q_OBJECT
  public:
    // `inUse`: registries the evidence names (listed even when config.json does not name them).
    RegistryCredentialsDialog(models::Workspace& workspace, RegistrySettings settings, QStringList inUse,
                              QWidget* parent = nullptr);
    ~RegistryCredentialsDialog() override;

    RegistrySettings settings() const;
    models::RegistryModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    // Why the config could not be read (empty when it could).
    QString error() const { return m_error; }
    int testsRunning() const { return m_tests; }

  public slots:
    // Re-reads the config file named in the dialog.
    void reload();
    // Tests access to the registry of `row` (the selected one when -1); false when it cannot be tested.
    bool testAccess(int row = -1);

  signals:
    void accessTested(const QString& registry, bool ok, const QString& text);

  private:
    void updateButtons();

    models::Workspace& m_workspace;
    RegistrySettings m_settings;
    QStringList m_inUse;
    QString m_error;
    int m_tests = 0;
    models::RegistryModel* m_model = nullptr;
    QLineEdit* m_config = nullptr;
    QLineEdit* m_plainHttp = nullptr;
    QLabel* m_message = nullptr;
    QTableView* m_table = nullptr;
    QPushButton* m_test = nullptr;
};

} // namespace pb::widgets
