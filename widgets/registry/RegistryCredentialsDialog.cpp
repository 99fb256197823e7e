#include "RegistryCredentialsDialog.h"

#include "OpRunner.h"
#include "RegistryModels.h"
#include "TableSetup.h"
#include "oci/Auth.h"
#include "oci/Reference.h"
#include "oci/Registry.h"

#include <QDir>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace pb::widgets {

using models::RegistryModel;

RegistryCredentialsDialog::RegistryCredentialsDialog(models::Workspace& workspace, RegistrySettings settings,
                                                     QStringList inUse, QWidget* parent)
    : QDialog(parent), m_workspace(workspace), m_settings(std::move(settings)), m_inUse(std::move(inUse)) {
    setObjectName(QStringLiteral("registryCredentialsDialog"));
    setWindowTitle(tr("Registry Credentials"));
    m_inUse.removeDuplicates();
    m_model = new RegistryModel(this);
    m_model->setObjectName(QStringLiteral("registryModel"));

    auto* intro =
        new QLabel(tr("Where each registry's credentials come from. Secrets are never shown: helpers are not "
                      "run here, and passwords and tokens are not read into this view."),
                   this);
    intro->setObjectName(QStringLiteral("registryIntro"));
    intro->setWordWrap(true);

    m_config = new QLineEdit(m_settings.dockerConfig, this);
    m_config->setObjectName(QStringLiteral("registryConfigPath"));
    m_config->setPlaceholderText(QDir::toNativeSeparators(oci::dockerConfigPath({})));
    m_config->setToolTip(
        tr("The docker config.json to read (empty: $DOCKER_CONFIG/config.json, else ~/.docker/config.json)"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName(QStringLiteral("registryConfigBrowse"));
    connect(browse, &QPushButton::clicked, this, [this] {
        QFileDialog dialog(this, tr("Docker config.json"));
        dialog.setObjectName(QStringLiteral("registryConfigDialog"));
        dialog.setFileMode(QFileDialog::ExistingFile);
        dialog.setNameFilter(tr("JSON (*.json);;All files (*)"));
        if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty()) {
            m_config->setText(dialog.selectedFiles().constFirst());
            reload();
        }
    });
    m_plainHttp = new QLineEdit(m_settings.plainHttpRegistries.join(QStringLiteral(", ")), this);
    m_plainHttp->setObjectName(QStringLiteral("registryPlainHttp"));
    m_plainHttp->setPlaceholderText(tr("none: HTTPS everywhere"));
    m_plainHttp->setToolTip(tr("Registries (host:port) spoken to over plain HTTP; every other one is HTTPS"));
    connect(m_config, &QLineEdit::editingFinished, this, &RegistryCredentialsDialog::reload);
    connect(m_plainHttp, &QLineEdit::editingFinished, this, &RegistryCredentialsDialog::reload);

    auto* form = new QGridLayout;
    form->addWidget(new QLabel(tr("Config file:"), this), 0, 0);
    form->addWidget(m_config, 0, 1);
    form->addWidget(browse, 0, 2);
    form->addWidget(new QLabel(tr("Plain HTTP registries:"), this), 1, 0);
    form->addWidget(m_plainHttp, 1, 1, 1, 2);
    form->setColumnStretch(1, 1);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("registryMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("registryTable"));
    m_table->setModel(m_model);
    setupTable(m_table);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { updateButtons(); });

    m_test = new QPushButton(tr("&Test Access"), this);
    m_test->setObjectName(QStringLiteral("registryTest"));
    m_test->setToolTip(
        tr("Ask the selected registry's API for a blob, with the credentials listed, and show the answer"));
    connect(m_test, &QPushButton::clicked, this, [this] { testAccess(); });
    auto* reloadButton = new QPushButton(tr("Re&load"), this);
    reloadButton->setObjectName(QStringLiteral("registryReload"));
    connect(reloadButton, &QPushButton::clicked, this, &RegistryCredentialsDialog::reload);
    auto* close = new QPushButton(tr("Close"), this);
    close->setObjectName(QStringLiteral("registryClose"));
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_test);
    buttons->addWidget(reloadButton);
    buttons->addStretch(1);
    buttons->addWidget(close);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_message);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    resize(860, 380);
    reload();
}

RegistryCredentialsDialog::~RegistryCredentialsDialog() = default;

RegistrySettings RegistryCredentialsDialog::settings() const {
    RegistrySettings s = m_settings;
    s.dockerConfig = m_config->text().trimmed();
    s.plainHttpRegistries = RegistrySettings::parseList(m_plainHttp->text());
    return s;
}

void RegistryCredentialsDialog::reload() {
    m_settings = settings();
    oci::DockerConfigOptions o;
    o.configFile = m_settings.dockerConfig;
    const QString file = oci::dockerConfigPath(o);
    Result<std::vector<models::RegistryEntry>> entries =
        models::readCredentialSources(o, m_inUse, m_settings.plainHttpRegistries);
    if (!entries) {
        m_error = entries.error().toString();
        m_model->setEntries({});
        m_message->setText(tr("Cannot read the credentials: %1").arg(m_error));
        m_message->setStyleSheet(QStringLiteral("color: #c62828;"));
    } else {
        m_error.clear();
        m_model->setEntries(std::move(*entries));
        m_message->setStyleSheet(QString());
        m_message->setText(
            QFileInfo::exists(file)
                ? tr("Read from %1").arg(QDir::toNativeSeparators(file))
                : tr("%1 does not exist: every registry is anonymous").arg(QDir::toNativeSeparators(file)));
    }
    m_table->resizeColumnsToContents();
    if (m_model->rowCount() > 0)
        m_table->setCurrentIndex(m_model->index(0, 0));
    updateButtons();
}

bool RegistryCredentialsDialog::testAccess(int row) {
    if (row < 0)
        row = m_table->currentIndex().isValid() ? m_table->currentIndex().row() : -1;
    if (row < 0 || row >= m_model->rowCount())
        return false;
    const models::RegistryEntry entry = m_model->entryAt(row);
    if (entry.registry == QLatin1String("*") || entry.testing)
        return false;
    m_model->setTesting(row);
    ++m_tests;
    updateButtons();
    oci::ClientOptions options = settings().clientOptions();
    using Answer = std::pair<bool, QString>;
    auto check = [options, entry](const ops::Context&) -> Result<Answer> {
        // A blob nobody has, under a repository nobody uses: the registry's answer (absent, or
        // refused) tells whether it is reachable and takes the credentials, and nothing is pulled.
        oci::Reference probe;
        probe.registry = entry.registry;
        probe.repository = QStringLiteral("proofbench/access-check");
        oci::Client client(options);
        Result<bool> has = client.hasBlob(probe, QStringLiteral("sha256:") + QString(64, QLatin1Char('0')));
        if (!has)
            return Answer{false, has.error().message};
        const QString how = entry.kind == models::CredentialKind::Anonymous
                                ? QStringLiteral("anonymously")
                                : QStringLiteral("with %1").arg(entry.source);
        return Answer{true,
                      QStringLiteral("reachable over %1, answered %2")
                          .arg(entry.plainHttp ? QStringLiteral("HTTP") : QStringLiteral("HTTPS"), how)};
    };
    runInView<Answer>(this, m_workspace, std::move(check),
                      [this, registry = entry.registry](const Result<Answer>& result) {
                          const Answer a = result ? *result : Answer{false, result.error().message};
                          --m_tests;
                          if (const int r = m_model->rowOf(registry); r >= 0)
                              m_model->setAccess(r, a.first, a.second);
                          updateButtons();
                          emit accessTested(registry, a.first, a.second);
                      });
    return true;
}

void RegistryCredentialsDialog::updateButtons() {
    const QModelIndex idx = m_table->currentIndex();
    const bool testable = idx.isValid() && m_model->entryAt(idx.row()).registry != QLatin1String("*") &&
                          !m_model->entryAt(idx.row()).testing;
    m_test->setEnabled(testable);
}

} // namespace pb::widgets
