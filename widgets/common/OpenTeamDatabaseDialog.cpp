#include "OpenTeamDatabaseDialog.h"

#include "WidgetUtil.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QVBoxLayout>

namespace pb::widgets {

namespace {
struct Mode {
    const char* value;
    const char* text;
};
// The first is Proofbench's default: verify-full for any host that is not local.
constexpr Mode kModes[] = {
    {"", "Default: verify-full (certificate and host name) unless local"},
    {"verify-full", "verify-full: certificate and host name checked"},
    {"verify-ca", "verify-ca: certificate checked, host name not"},
    {"require", "require: encrypted, certificate not checked"},
    {"prefer", "prefer: TLS if the server offers it"},
    {"disable", "disable: no TLS"},
};
} // namespace

models::PasswordPrompt passwordPrompt(QWidget* parent) {
    QPointer<QWidget> guard(parent);
    return [guard](const QString& where, bool refused) -> std::optional<QString> {
        QInputDialog dialog(guard);
        dialog.setObjectName(QStringLiteral("passwordPrompt"));
        dialog.setWindowTitle(QObject::tr("Password"));
        dialog.setLabelText(refused
                                ? QObject::tr("The server refused that password. Password for %1:").arg(where)
                                : QObject::tr("Password for %1:").arg(where));
        dialog.setTextEchoMode(QLineEdit::Password);
        dialog.setInputMode(QInputDialog::TextInput);
        if (dialog.exec() != QDialog::Accepted)
            return std::nullopt;
        return dialog.textValue();
    };
}

OpenTeamDatabaseDialog::OpenTeamDatabaseDialog(const QString& initial, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("openTeamDatabaseDialog"));
    setWindowTitle(tr("Open Team Database"));
    m_ask = passwordPrompt(this);
    auto field = [this](const char* name, const QString& placeholder) {
        auto* e = new QLineEdit(this);
        e->setObjectName(QString::fromLatin1(name));
        e->setPlaceholderText(placeholder);
        connect(e, &QLineEdit::textChanged, this, &OpenTeamDatabaseDialog::update);
        return e;
    };
    m_host = field("teamHost", tr("db.example.org"));
    m_port = field("teamPort", tr("5432"));
    m_port->setValidator(new QIntValidator(1, 65535, m_port));
    m_dbname = field("teamDatabase", tr("proofbench"));
    m_user = field("teamUser", tr("your login (libpq's default)"));
    m_sslmode = new QComboBox(this);
    m_sslmode->setObjectName(QStringLiteral("teamTlsMode"));
    for (const Mode& m : kModes)
        m_sslmode->addItem(tr(m.text), QString::fromLatin1(m.value));
    connect(m_sslmode, &QComboBox::currentIndexChanged, this, &OpenTeamDatabaseDialog::update);
    m_ca = field("teamCaFile",
                 tr("the CA that signed the server's certificate (PEM); else ~/.postgresql/root.crt"));
    auto* browse = browseButton("teamCaBrowse", tr("Choose the CA certificate file"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("CA certificate"), m_ca->text(),
                                                       tr("Certificates (*.crt *.pem);;All files (*)"));
        if (!f.isEmpty())
            m_ca->setText(f);
    });
    auto* caRow = new QHBoxLayout;
    caRow->addWidget(m_ca, 1);
    caRow->addWidget(browse);

    auto* form = new QFormLayout;
    form->addRow(tr("&Host:"), m_host);
    form->addRow(tr("&Port:"), m_port);
    form->addRow(tr("&Database:"), m_dbname);
    form->addRow(tr("&User:"), m_user);
    form->addRow(tr("&TLS:"), m_sslmode);
    auto* caLabel = new QLabel(tr("&CA file:"), this);
    caLabel->setBuddy(m_ca); // the field is in a row with its Browse button
    form->addRow(caLabel, caRow);

    m_specLabel = grayLabel("teamSpec", this);
    m_specLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warning = new QLabel(this);
    m_warning->setObjectName(QStringLiteral("teamTransportWarning"));
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("QLabel { background: #ffecb3; color: #5d4000; padding: 6px; "
                                            "border-radius: 3px; }"));
    m_warning->hide();
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("teamTestResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_test = buttons->addButton(tr("&Test Connection"), QDialogButtonBox::ActionRole);
    m_test->setObjectName(QStringLiteral("teamTestConnection"));
    m_open = buttons->addButton(tr("&Open"), QDialogButtonBox::AcceptRole);
    m_open->setObjectName(QStringLiteral("teamOpen"));
    m_open->setDefault(true);
    connect(m_test, &QPushButton::clicked, this, [this] { testConnection(); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* note = grayLabel("teamPasswordNote", this);
    note->setText(tr("The password comes from ~/.pgpass, PGPASSFILE or a service file; if none has it, "
                     "you are asked for it. It is kept in memory until Proofbench quits, never stored."));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_specLabel);
    layout->addWidget(m_warning);
    layout->addWidget(note);
    layout->addWidget(m_result);
    layout->addStretch();
    layout->addWidget(buttons);

    if (std::optional<models::ServerForm> f = models::formFromSpec(initial)) {
        m_host->setText(f->host);
        m_port->setText(f->port);
        m_dbname->setText(f->dbname);
        m_user->setText(f->user);
        m_ca->setText(f->sslrootcert);
        const int mode = m_sslmode->findData(f->sslmode);
        m_sslmode->setCurrentIndex(mode < 0 ? 0 : mode);
    }
    update();
    resize(620, sizeHint().height());
}

QString OpenTeamDatabaseDialog::spec() const {
    models::ServerForm f;
    f.host = m_host->text();
    f.port = m_port->text();
    f.dbname = m_dbname->text();
    f.user = m_user->text();
    f.sslmode = m_sslmode->currentData().toString();
    f.sslrootcert = m_ca->text();
    return models::specFromForm(f);
}

QString OpenTeamDatabaseDialog::warningText() const {
    return m_warning->isHidden() ? QString() : m_warning->text();
}

QString OpenTeamDatabaseDialog::testResult() const {
    return m_result->text();
}

void OpenTeamDatabaseDialog::update() {
    const QString s = spec();
    const bool complete = !m_host->text().trimmed().isEmpty() && !m_dbname->text().trimmed().isEmpty();
    m_specLabel->setText(complete ? tr("Connects with: %1").arg(s)
                                  : tr("Give at least a host and a database."));
    const QString warning = complete ? models::transportWarning(s) : QString();
    m_warning->setText(warning.isEmpty() ? QString() : tr("Warning: %1.").arg(warning));
    m_warning->setVisible(!warning.isEmpty());
    m_test->setEnabled(complete && !m_testing);
    m_open->setEnabled(complete && !m_testing);
}

bool OpenTeamDatabaseDialog::testConnection() {
    if (m_testing || !m_test->isEnabled())
        return false;
    m_testing = true;
    update();
    const QString s = spec();
    m_result->setStyleSheet(QString());
    m_result->setText(tr("Connecting to %1…").arg(models::describeDatabase(s)));
    models::runWithPassword<models::ConnectionReport>(
        this, s, [s] { return models::testConnection(s); }, m_ask,
        [this](Result<models::ConnectionReport> r) {
            m_testing = false;
            m_lastOk = bool(r);
            if (!r) {
                m_result->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
                m_result->setText(tr("Cannot connect: %1").arg(r.error().toString()));
            } else {
                const QString schema =
                    r->schemaVersion == 0 ? tr("no Proofbench schema yet (Open creates it)")
                    : r->schemaVersion < r->latestSchemaVersion ? tr("schema %1, Open upgrades it to %2")
                                                                      .arg(r->schemaVersion)
                                                                      .arg(r->latestSchemaVersion)
                    : r->schemaVersion > r->latestSchemaVersion
                        ? tr("schema %1 is newer than this Proofbench (%2)")
                              .arg(r->schemaVersion)
                              .arg(r->latestSchemaVersion)
                        : tr("schema %1, current").arg(r->schemaVersion);
                m_result->setStyleSheet(QStringLiteral("QLabel { color: #1b5e20; }"));
                m_result->setText(tr("Connected to PostgreSQL %1 as %2 · role: %3%4 · %5 · %6")
                                      .arg(r->serverVersion, r->user, r->role,
                                           r->replica ? tr(" · read-only replica") : QString(),
                                           models::describeTransport(*r), schema));
            }
            update();
            emit tested(m_lastOk);
        });
    return true;
}

} // namespace pb::widgets
