#include "SignPane.h"

#include "BundleVerifyPane.h"
#include "OpRunner.h"
#include "Plural.h"
#include "SigningModels.h"
#include "TableSetup.h"
#include "WidgetUtil.h"
#include "core/Files.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace pb::widgets {

namespace {

QPushButton* button(const QString& text, const char* name, const QString& tip, QWidget* parent) {
    auto* b = new QPushButton(text, parent);
    b->setObjectName(QLatin1String(name));
    b->setToolTip(tip);
    return b;
}

} // namespace

SignPane::SignPane(models::Workspace& workspace, QWidget* parent) : QWidget(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("signPane"));
    m_keys = new models::KeysModel(this);
    m_keys->setObjectName(QStringLiteral("keysModel"));

    // Keys.
    QGroupBox* keysBox = group(tr("Signing keys"), "signKeysGroup", this);
    m_keysTitle = new QLabel(keysBox);
    m_keysTitle->setObjectName(QStringLiteral("signKeysTitle"));
    m_keysTitle->setStyleSheet(QStringLiteral("color: gray;"));
    m_keysTitle->setWordWrap(true);
    m_keysView = new QTableView(keysBox);
    m_keysView->setObjectName(QStringLiteral("signKeys"));
    m_keysView->setModel(m_keys);
    setupTable(m_keysView);
    m_keysView->setTextElideMode(Qt::ElideMiddle);
    m_keysView->horizontalHeader()->setStretchLastSection(false);
    m_keysView->horizontalHeader()->setSectionResizeMode(models::KeysModel::FingerprintColumn,
                                                         QHeaderView::Stretch);
    m_keysView->horizontalHeader()->setSectionResizeMode(models::KeysModel::CreatedColumn,
                                                         QHeaderView::ResizeToContents);
    m_keysView->setToolTip(
        tr("Public keys in the database. Their private halves stay in the files you chose, "
           "encrypted."));
    connect(m_keysView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { updateButtons(); });
    auto* newButton =
        button(tr("&New key…"), "signNewKey",
               tr("Create an ECDSA P-256 key: the private key encrypted, the public key beside it"), keysBox);
    connect(newButton, &QPushButton::clicked, this, [this] { newKey(); });
    auto* importButton = button(tr("&Import key…"), "signImportKey",
                                tr("Import cosign.key, a PEM private key, or record a public key"), keysBox);
    connect(importButton, &QPushButton::clicked, this, [this] { importKey(); });
    m_exportButton = button(tr("&Export public key…"), "signExportPublicKey",
                            tr("Save the selected key's public key (PEM) to give to verifiers"), keysBox);
    connect(m_exportButton, &QPushButton::clicked, this, &SignPane::exportSelectedPublicKey);
    auto* keyButtons = new QHBoxLayout;
    keyButtons->setSpacing(6);
    keyButtons->addWidget(newButton);
    keyButtons->addWidget(importButton);
    keyButtons->addWidget(m_exportButton);
    keyButtons->addStretch(1);
    auto* keysLayout = new QVBoxLayout(keysBox);
    keysLayout->setSpacing(6);
    keysLayout->addWidget(m_keysTitle);
    keysLayout->addWidget(m_keysView, 1);
    keysLayout->addLayout(keyButtons);

    // The three signatures.
    QGroupBox* signBox = group(tr("Sign"), "signActionsGroup", this);
    auto* signGrid = new QGridLayout(signBox);
    signGrid->setHorizontalSpacing(12);
    signGrid->setVerticalSpacing(8);
    signGrid->setColumnStretch(1, 1);
    const struct {
        QString text;
        const char* name;
        QString what;
        SignDialog* (SignPane::*slot)();
    } actions[] = {
        {tr("Sign &file…"), "signFileButton",
         tr("Any file → a Sigstore bundle beside it (cosign verify-blob --key accepts it)."),
         &SignPane::signFile},
        {tr("Sign e&vidence bundle…"), "signEvidenceButton",
         tr("A summary bundle → attestation.intoto.jsonl and its evidence pointer."),
         &SignPane::signEvidence},
        {tr("Sign &deployment bundle…"), "signDeploymentButton",
         tr("A bundle directory → checksums.txt and its SLSA provenance attestation."),
         &SignPane::signDeployment},
    };
    int row = 0;
    for (const auto& a : actions) {
        auto* b = button(a.text, a.name, a.what, signBox);
        b->setMinimumWidth(200);
        connect(b, &QPushButton::clicked, this, [this, slot = a.slot] { (this->*slot)(); });
        auto* what = new QLabel(a.what, signBox);
        what->setWordWrap(true);
        what->setStyleSheet(QStringLiteral("color: gray;"));
        signGrid->addWidget(b, row, 0);
        signGrid->addWidget(what, row, 1);
        ++row;
    }
    m_lastMessage = new QLabel(signBox);
    m_lastMessage->setObjectName(QStringLiteral("signLastMessage"));
    m_lastMessage->setWordWrap(true);
    m_lastMessage->setTextFormat(Qt::RichText);
    m_lastMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lastMessage->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_lastMessage->hide();
    signGrid->addWidget(m_lastMessage, row, 0, 1, 2);

    auto* left = new QWidget(this);
    left->setObjectName(QStringLiteral("signLeft"));
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(8);
    leftLayout->addWidget(keysBox, 1);
    leftLayout->addWidget(signBox);

    m_bundleVerify = new BundleVerifyPane(workspace, this);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("signSplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(left);
    split->addWidget(m_bundleVerify);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({600, 800});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 6, 4);
    layout->addWidget(split);

    reloadKeys();
}

void SignPane::reloadKeys() {
    // Read on a worker (the job's own connection); the list is filled when the read is back.
    const quint64 generation = ++m_keysGeneration;
    runInView<std::vector<models::StoredKey>>(
        this, m_workspace, [](const ops::Context& ctx) { return models::storedPublicKeys(ctx); },
        [this, generation](const Result<std::vector<models::StoredKey>>& keys) {
            if (generation == m_keysGeneration)
                showKeys(keys);
        });
    m_bundleVerify->reloadKeys();
}

void SignPane::showKeys(const Result<std::vector<models::StoredKey>>& keys) {
    const QString keep = m_selectAfterLoad.isEmpty()
                             ? m_keysView->currentIndex().data(models::KeysModel::FingerprintRole).toString()
                             : m_selectAfterLoad;
    m_selectAfterLoad.clear();
    m_keys->setKeys(keys ? *keys : std::vector<models::StoredKey>());
    if (!keys)
        m_keysTitle->setText(tr("Cannot read the keys: %1").arg(keys.error().toString()));
    else if (m_keys->rowCount() == 0)
        m_keysTitle->setText(
            tr("No key yet: create one with New key…, or import cosign.key. The database keeps "
               "public keys and fingerprints only."));
    else
        m_keysTitle->setText(models::counted(m_keys->rowCount(), tr("public key"), tr("public keys")) +
                             tr(" · fingerprints are sha256 of the public key, as verify prints them"));
    const int row = m_keys->rowOfFingerprint(keep);
    if (row >= 0)
        m_keysView->setCurrentIndex(m_keys->index(row, 0));
    // Label and date at their width; the fingerprint takes the rest (whole at the usual widths).
    m_keysView->resizeColumnToContents(models::KeysModel::LabelColumn);
    m_keysView->setColumnWidth(models::KeysModel::LabelColumn,
                               std::min(m_keysView->columnWidth(models::KeysModel::LabelColumn) + 8, 180));
    updateButtons();
    emit keysLoaded();
}

void SignPane::updateButtons() {
    m_exportButton->setEnabled(m_keysView->currentIndex().isValid());
}

QString SignPane::lastMessage() const {
    return m_lastMessage->isVisible() ? m_lastMessage->text() : QString();
}

void SignPane::showLastMessage(const QString& text) {
    m_lastMessage->setText(text);
    m_lastMessage->setVisible(!text.isEmpty());
}

KeyDialog* SignPane::newKey() {
    return openKeyDialog(KeyDialog::Mode::Create);
}

KeyDialog* SignPane::importKey() {
    return openKeyDialog(KeyDialog::Mode::Import);
}

KeyDialog* SignPane::openKeyDialog(KeyDialog::Mode mode) {
    if (m_keyDialog)
        m_keyDialog->close();
    auto* dialog = new KeyDialog(mode, m_workspace, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_keyDialog = dialog;
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        m_selectAfterLoad = dialog->fingerprint(); // selected once the list is read again
        reloadKeys();
        QString text;
        if (!dialog->privateKeyPath().isEmpty()) {
            m_lastKeyPath = dialog->privateKeyPath();
            text = tr("Key %1 written: %2 (encrypted) and %3")
                       .arg(dialog->fingerprint(), QDir::toNativeSeparators(dialog->privateKeyPath()),
                            QDir::toNativeSeparators(dialog->publicKeyPath()));
        } else {
            text = tr("Public key %1 recorded from %2")
                       .arg(dialog->fingerprint(), QDir::toNativeSeparators(dialog->publicKeyPath()));
        }
        showLastMessage(text.toHtmlEscaped());
        emit message(text);
    });
    dialog->open();
    return dialog;
}

SignDialog* SignPane::signFile() {
    return openSignDialog(SignDialog::Kind::Blob);
}

SignDialog* SignPane::signEvidence() {
    return openSignDialog(SignDialog::Kind::Evidence);
}

SignDialog* SignPane::signDeployment() {
    return openSignDialog(SignDialog::Kind::Deployment);
}

SignDialog* SignPane::openSignDialog(SignDialog::Kind kind) {
    if (m_signDialog && m_signDialog->isRunning())
        return m_signDialog;
    if (m_signDialog)
        m_signDialog->close();
    auto* dialog = new SignDialog(kind, this);
    dialog->setWorkspace(&m_workspace);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setKeyPath(m_lastKeyPath);
    m_signDialog = dialog;
    connect(dialog, &SignDialog::signingFinished, this, [this, dialog, kind](bool ok, const QString&) {
        if (!ok)
            return;
        m_lastKeyPath = dialog->keyPath();
        // Paths relative to the folder of what was signed: short enough to read at a glance.
        const QDir base = QFileInfo(dialog->inputPath()).absoluteDir();
        QStringList written, full;
        for (const QString& p : dialog->writtenPaths()) {
            const QString rel = base.relativeFilePath(p);
            written << QDir::toNativeSeparators(rel.startsWith(QLatin1String("..")) ? p : rel);
            full << QDir::toNativeSeparators(p);
        }
        const QString what = QFileInfo(dialog->inputPath()).fileName();
        const QString files = written.join(QStringLiteral(", "));
        showLastMessage(
            QStringLiteral("<b>%1</b> %2")
                .arg(tr("Signed %1;").arg(what).toHtmlEscaped(), tr("wrote %1").arg(files).toHtmlEscaped()));
        m_lastMessage->setToolTip(full.join(QLatin1Char('\n')));
        emit message(tr("Signed %1; wrote %2").arg(what, files));
        // A sealed deployment bundle is the next thing to verify.
        if (kind == SignDialog::Kind::Deployment)
            m_bundleVerify->setDirectory(dialog->inputPath());
    });
    dialog->open();
    return dialog;
}

bool SignPane::exportPublicKey(int row, const QString& path) {
    if (row < 0 || row >= m_keys->rowCount()) {
        m_lastError = tr("Select a key to export.");
        return false;
    }
    const QByteArray pem = m_keys->keyAt(row).publicPem.toUtf8();
    if (Status written = writeFileAtomically(path, pem); !written) {
        m_lastError = tr("%1: %2").arg(QDir::toNativeSeparators(path), written.error().message);
        return false;
    }
    const QString text = tr("Public key %1 exported to %2")
                             .arg(m_keys->keyAt(row).fingerprint, QDir::toNativeSeparators(path));
    showLastMessage(text.toHtmlEscaped());
    emit message(text);
    return true;
}

void SignPane::exportSelectedPublicKey() {
    const int row = m_keysView->currentIndex().row();
    if (row < 0)
        return;
    QFileDialog dialog(this, tr("Export the public key"));
    dialog.setObjectName(QStringLiteral("signExportDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setNameFilters({tr("PEM public keys (*.pub *.pem)"), tr("All files (*)")});
    QString name = m_keys->keyAt(row).label;
    if (!name.endsWith(QLatin1String(".pub")))
        name += QStringLiteral(".pub");
    dialog.selectFile(name);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    if (exportPublicKey(row, dialog.selectedFiles().constFirst()))
        return;
    QMessageBox box(QMessageBox::Critical, tr("Export failed"), m_lastError, QMessageBox::Ok, this);
    box.setObjectName(QStringLiteral("signExportErrorBox"));
    box.exec();
}

} // namespace pb::widgets
