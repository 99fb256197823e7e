#include "SignDialogs.h"

#include "OpRunner.h"
#include "SigningModels.h"
#include "VerifyModels.h"
#include "WidgetUtil.h"
#include "bundle/DeploymentBundle.h"
#include "core/Files.h"
#include "evidence/Sign.h"
#include "ops/ImportPublicKey.h"
#include "ops/Keygen.h"
#include "ops/SealBundle.h"
#include "ops/SignBlob.h"
#include "ops/SignEvidence.h"
#include "sigstore/Keys.h"
#include "sigstore/Sign.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace pb::widgets {

namespace {

// The environment variable the copied commands read the passphrase from (never on the command line).
const char* const kPassphraseEnv = "PROOFBENCH_PASSPHRASE";

QColor errorColor() {
    return models::TrustStyle::color(deploy::TrustLevel::Unknown);
}

QPushButton* browse(const char* name, const QString& tip, QWidget* parent) {
    QPushButton* b = browseButton(name, tip, parent);
    b->setAutoDefault(false);
    return b;
}

QLineEdit* pathEdit(const char* name, const QString& placeholder, QWidget* parent) {
    auto* e = new QLineEdit(parent);
    e->setObjectName(QLatin1String(name));
    e->setPlaceholderText(placeholder);
    e->setClearButtonEnabled(true);
    e->setMinimumWidth(380);
    return e;
}

QLineEdit* passphraseEdit(const char* name, QWidget* parent) {
    auto* e = new QLineEdit(parent);
    e->setObjectName(QLatin1String(name));
    e->setEchoMode(QLineEdit::Password);
    e->setInputMethodHints(Qt::ImhHiddenText | Qt::ImhNoPredictiveText | Qt::ImhNoAutoUppercase |
                           Qt::ImhSensitiveData);
    return e;
}

QLabel* messageLabel(const char* name, QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setObjectName(QLatin1String(name));
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->hide();
    return l;
}

// The passphrase out of its field, which is cleared at once.
sigstore::Passphrase takePassphrase(QLineEdit* e) {
    sigstore::Passphrase p(e->text().toUtf8());
    e->clear();
    return p;
}

QString nativePath(const QString& path) {
    return QDir::toNativeSeparators(path);
}

QString pathHtml(const QString& label, const QString& path) {
    return QStringLiteral(
               "<tr><td style='color:gray; padding-right:10px'>%1</td><td><code>%2</code></td></tr>")
        .arg(label.toHtmlEscaped(), nativePath(path).toHtmlEscaped());
}

// An engine error as HTML: the file, then the reason; a refused evidence bundle's failed checks one
// per line.
QString errorHtml(const QString& error) {
    const QString marker = QStringLiteral("integrity checks (");
    const qsizetype at = error.indexOf(marker);
    if (at < 0 || !error.endsWith(QLatin1Char(')')))
        return error.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    const QString head = error.left(at + marker.size() - 2);
    const QStringList checks =
        error.mid(at + marker.size(), error.size() - at - marker.size() - 1).split(QStringLiteral("; "));
    QString html = head.toHtmlEscaped() + QStringLiteral(":<ul style='margin-top:2px; margin-bottom:0px'>");
    for (const QString& c : checks)
        html += QStringLiteral("<li>%1</li>").arg(c.toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}

} // namespace

// --- KeyDialog ----------------------------------------------------------------------------------

KeyDialog::KeyDialog(Mode mode, models::Workspace& workspace, QWidget* parent)
    : QDialog(parent), m_mode(mode), m_workspace(workspace) {
    const bool import = mode == Mode::Import;
    setObjectName(import ? QStringLiteral("importKeyDialog") : QStringLiteral("newKeyDialog"));
    setWindowTitle(import ? tr("Import a signing key") : tr("New signing key"));

    auto* intro = new QLabel(this);
    intro->setWordWrap(true);
    intro->setText(import
                       ? tr("Import cosign's <b>cosign.key</b>, an encrypted PEM private key, or a plain PEM "
                            "one. It is saved again encrypted (PKCS#8, scrypt + AES-256) with the passphrase "
                            "below, its public key beside it. A <b>.pub</b> file is only recorded.")
                       : tr("An ECDSA P-256 key. The private key is written <b>only encrypted</b> (PKCS#8, "
                            "scrypt + AES-256, mode 0600) to the file below, the public key beside it as "
                            "<i>NAME</i>.pub. The database keeps the public key and its fingerprint only."));
    intro->setStyleSheet(QStringLiteral("color: palette(window-text);"));

    QGridLayout* grid = buildKeyGrid(import);

    m_error = messageLabel("keyError", this);
    m_error->setStyleSheet(QStringLiteral("color: %1;").arg(errorColor().name()));

    QDialogButtonBox* buttons = buildButtons(import);

    auto* layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addWidget(intro);
    layout->addLayout(grid);
    layout->addWidget(m_error);
    layout->addStretch(1);
    layout->addWidget(buttons);
    setMinimumWidth(640);

    if (!import) {
        const QString docs = QStandardPaths::writableLocation(QStandardPaths::HomeLocation);
        m_output->setText(nativePath(docs + QStringLiteral("/proofbench-signing.key")));
    }
}

QGridLayout* KeyDialog::buildKeyGrid(bool import) {
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(8);
    grid->setColumnStretch(1, 1);
    int row = 0;
    if (import) {
        m_source = pathEdit("keySourcePath", tr("cosign.key, key.pem or key.pub"), this);
        auto* b = browse("keyBrowseSource", tr("Choose the key to import"), this);
        connect(b, &QPushButton::clicked, this, &KeyDialog::browseSource);
        auto* l = new QLabel(tr("&Import from:"), this);
        l->setBuddy(m_source);
        grid->addWidget(l, row, 0);
        grid->addWidget(m_source, row, 1);
        grid->addWidget(b, row, 2);
        ++row;
    }
    m_output =
        pathEdit("keyOutputPath", tr("where to write the private key (NAME; NAME.pub beside it)"), this);
    auto* outBrowse = browse("keyBrowseOutput", tr("Choose where to save the private key"), this);
    connect(outBrowse, &QPushButton::clicked, this, &KeyDialog::browseOutput);
    auto* outLabel = new QLabel(import ? tr("&Save as:") : tr("&Private key:"), this);
    outLabel->setBuddy(m_output);
    grid->addWidget(outLabel, row, 0);
    grid->addWidget(m_output, row, 1);
    grid->addWidget(outBrowse, row, 2);
    ++row;
    m_passphrase = passphraseEdit("keyPassphrase", this);
    m_passphrase->setPlaceholderText(import ? tr("the key's passphrase (it protects the saved copy too)")
                                            : tr("protects the private key; it cannot be recovered"));
    auto* passLabel = new QLabel(tr("Pass&phrase:"), this);
    passLabel->setBuddy(m_passphrase);
    grid->addWidget(passLabel, row, 0);
    grid->addWidget(m_passphrase, row, 1, 1, 2);
    ++row;
    if (!import) {
        m_repeat = passphraseEdit("keyPassphraseRepeat", this);
        auto* repeatLabel = new QLabel(tr("&Repeat:"), this);
        repeatLabel->setBuddy(m_repeat);
        grid->addWidget(repeatLabel, row, 0);
        grid->addWidget(m_repeat, row, 1, 1, 2);
        ++row;
    }
    m_cosign =
        new QCheckBox(tr("Write the private key in cosign's format (ENCRYPTED SIGSTORE PRIVATE KEY)"), this);
    m_cosign->setObjectName(QStringLiteral("keyCosignFormat"));
    m_cosign->setToolTip(tr("For use with cosign sign-blob --key; Proofbench reads both formats"));
    grid->addWidget(m_cosign, row, 1, 1, 2);
    ++row;
    return grid;
}

QDialogButtonBox* KeyDialog::buildButtons(bool import) {
    auto* buttons = new QDialogButtonBox(this);
    buttons->setObjectName(QStringLiteral("keyButtons"));
    m_runButton =
        buttons->addButton(import ? tr("&Import") : tr("&Create key"), QDialogButtonBox::AcceptRole);
    m_runButton->setObjectName(QStringLiteral("keyRunButton"));
    m_runButton->setDefault(true);
    QPushButton* cancelButton = buttons->addButton(QDialogButtonBox::Cancel);
    cancelButton->setObjectName(QStringLiteral("keyCancelButton"));
    auto* copy = new QPushButton(tr("Copy as command"), this);
    copy->setObjectName(QStringLiteral("keyCopyCommand"));
    copy->setToolTip(tr("The same as a `proofbench keygen` command line (passphrase from $%1)")
                         .arg(QLatin1String(kPassphraseEnv)));
    copy->setAutoDefault(false);
    buttons->addButton(copy, QDialogButtonBox::ResetRole);
    connect(copy, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(command()); });
    connect(m_runButton, &QPushButton::clicked, this, [this] { run(); });
    connect(cancelButton, &QPushButton::clicked, this, &QDialog::reject);
    return buttons;
}

void KeyDialog::setOutputPath(const QString& path) {
    m_output->setText(nativePath(path));
}

QString KeyDialog::outputPath() const {
    return QDir::fromNativeSeparators(m_output->text().trimmed());
}

void KeyDialog::setSourcePath(const QString& path) {
    if (!m_source)
        return;
    m_source->setText(nativePath(path));
    // A sensible place for the encrypted copy: beside it, under a name of its own.
    if (m_output->text().trimmed().isEmpty() && !path.endsWith(QLatin1String(".pub"))) {
        const QFileInfo fi(path);
        m_output->setText(nativePath(fi.absolutePath() + QLatin1Char('/') + fi.completeBaseName() +
                                     QStringLiteral("-proofbench.key")));
    }
}

QString KeyDialog::command() const {
    QStringList args{QStringLiteral("proofbench"), QStringLiteral("keygen"), QStringLiteral("--out"),
                     outputPath()};
    if (m_source)
        args << QStringLiteral("--from") << QDir::fromNativeSeparators(m_source->text().trimmed());
    if (m_cosign->isChecked())
        args << QStringLiteral("--cosign");
    args << QStringLiteral("--passphrase-env") << QLatin1String(kPassphraseEnv) << QStringLiteral("--db")
         << m_workspace.path();
    return models::shellJoin(args);
}

void KeyDialog::browseOutput() {
    QFileDialog dialog(this, tr("Save the private key as"));
    dialog.setObjectName(QStringLiteral("keyOutputDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setFileMode(QFileDialog::AnyFile);
    if (!outputPath().isEmpty())
        dialog.selectFile(outputPath());
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
        setOutputPath(dialog.selectedFiles().constFirst());
}

void KeyDialog::browseSource() {
    QFileDialog dialog(this, tr("Choose the key to import"));
    dialog.setObjectName(QStringLiteral("keySourceDialog"));
    dialog.setFileMode(QFileDialog::ExistingFile);
    dialog.setNameFilters({tr("Keys (*.key *.pem *.pub)"), tr("All files (*)")});
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
        setSourcePath(dialog.selectedFiles().constFirst());
}

void KeyDialog::showError(const QString& text) {
    m_lastError = text;
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
}

namespace {

using KeyOutcome = KeyDialog::Outcome;

struct KeyJob {
    bool import = false;
    bool cosign = false;
    QString source, out;
    std::shared_ptr<sigstore::Passphrase> passphrase;
};

// Worker side of KeyDialog::run(): reads the source key, records a public key alone, or writes the
// private key (encrypted) and its public key as `proofbench keygen` does.
Result<KeyOutcome> makeKey(const ops::Context& ctx, const KeyJob& job) {
    if (job.import) {
        Result<QByteArray> pem = readFileLimited(job.source, limits::kSmallFile, QStringLiteral("key"));
        if (!pem)
            return pem.error();
        // A public key alone is recorded (for verification), nothing is written.
        if (ops::isPublicKeyPem(*pem)) {
            Result<ops::ImportPublicKeyOutcome> r =
                ops::importPublicKey(ctx, ops::ImportPublicKeyRequest{job.source, {}});
            if (!r)
                return r.error();
            return KeyOutcome{r->fingerprint, QString(), job.source};
        }
        if (job.out.isEmpty())
            return makeError(KeyDialog::tr("Choose where to write the private key."));
        if (job.passphrase->isEmpty())
            return makeError(
                KeyDialog::tr("Give a passphrase: a private key is only ever written encrypted."));
    }
    // The same operation as `proofbench keygen`: both files, the stored public key and the receipt.
    ops::KeygenRequest request;
    request.outPath = job.out;
    request.importFrom = job.import ? job.source : QString();
    request.cosignFormat = job.cosign;
    request.passphrase = std::move(*job.passphrase);
    Result<ops::KeygenOutcome> made = ops::keygen(ctx, request);
    if (!made)
        return made.error();
    return KeyOutcome{made->fingerprint, made->privatePath, made->publicPath};
}

} // namespace

bool KeyDialog::run() {
    if (m_task.running())
        return false;
    // The passphrases leave their fields whatever happens next.
    sigstore::Passphrase pass = takePassphrase(m_passphrase);
    sigstore::Passphrase repeat = m_repeat ? takePassphrase(m_repeat) : sigstore::Passphrase();
    KeyJob job;
    job.import = m_mode == Mode::Import;
    job.cosign = m_cosign->isChecked();
    job.source = m_source ? QDir::fromNativeSeparators(m_source->text().trimmed()) : QString();
    job.out = outputPath();
    if (job.import && job.source.isEmpty()) {
        showError(tr("Choose the key to import."));
        return false;
    }
    // An imported public key needs neither: the worker checks these once it has read the source.
    if (!job.import) {
        if (job.out.isEmpty()) {
            showError(tr("Choose where to write the private key."));
            return false;
        }
        if (pass.isEmpty()) {
            showError(tr("Give a passphrase: a private key is only ever written encrypted."));
            return false;
        }
        if (pass.bytes() != repeat.bytes()) {
            showError(tr("The passphrases differ."));
            return false;
        }
    }
    job.passphrase = std::make_shared<sigstore::Passphrase>(std::move(pass));
    m_runButton->setEnabled(false);
    showError(QString());
    m_task = runInView<KeyOutcome>(
        this, m_workspace, [job](const ops::Context& ctx) { return makeKey(ctx, job); },
        [this](const Result<KeyOutcome>& made) { finishRun(made); }, RunView().writing());
    return true;
}

void KeyDialog::finishRun(const Result<Outcome>& made) {
    m_runButton->setEnabled(true);
    if (!made) {
        showError(made.error().toString());
        emit runFinished(false);
        return;
    }
    m_fingerprint = made->fingerprint;
    m_privatePath = made->privatePath;
    m_publicPath = made->publicPath;
    showError(QString());
    emit runFinished(true);
    accept();
}

// --- SignDialog ---------------------------------------------------------------------------------

struct SignDialog::Outcome {
    bool ok = false;
    bool cancelled = false;
    QString error;
    QStringList written;
    QString summary; // HTML
};

SignDialog::SignDialog(Kind kind, QWidget* parent) : QDialog(parent), m_kind(kind) {
    QString title, intro, inputLabel, inputHint;
    switch (kind) {
    case Kind::Blob:
        setObjectName(QStringLiteral("signBlobDialog"));
        title = tr("Sign a file");
        intro = tr("Signs any file offline: a Sigstore bundle (v0.3, message signature, the key's SHA-256 as "
                   "its hint) that <code>cosign verify-blob --key … --insecure-ignore-tlog</code> accepts.");
        inputLabel = tr("&File:");
        inputHint = tr("the file to sign");
        break;
    case Kind::Evidence:
        setObjectName(QStringLiteral("signEvidenceDialog"));
        title = tr("Sign an evidence bundle");
        intro = tr(
            "Signs an AICR summary bundle: <code>attestation.intoto.jsonl</code> over its statement, and an "
            "evidence pointer in AICR's per-source layout. A bundle that fails its integrity checks is "
            "refused, and so is an incomplete one unless you tick the box below.");
        inputLabel = tr("&Bundle:");
        inputHint = tr("a summary-bundle/ directory (or its parent)");
        break;
    case Kind::Deployment:
        setObjectName(QStringLiteral("signDeploymentDialog"));
        title = tr("Sign a deployment bundle");
        intro = tr("Seals a deployment bundle (<code>aicr bundle</code> output): every file hashed into "
                   "<code>checksums.txt</code>, and an SLSA provenance attestation over it in "
                   "<code>attestation/bundle-attestation.sigstore.json</code>.");
        inputLabel = tr("&Directory:");
        inputHint = tr("the bundle's directory");
        break;
    }
    setWindowTitle(title);

    auto* introLabel = new QLabel(intro, this);
    introLabel->setObjectName(QStringLiteral("signIntro"));
    introLabel->setWordWrap(true);

    QGridLayout* grid = buildInputGrid(inputLabel, inputHint);
    buildProgress();
    QDialogButtonBox* buttons = buildButtons();

    auto* layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addWidget(introLabel);
    layout->addLayout(grid);
    layout->addWidget(m_progress);
    layout->addWidget(m_progressText);
    layout->addWidget(m_result);
    layout->addStretch(1);
    layout->addWidget(buttons);
    setMinimumWidth(680);
}

QGridLayout* SignDialog::buildInputGrid(const QString& inputLabel, const QString& inputHint) {
    const Kind kind = m_kind;
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(8);
    grid->setColumnStretch(1, 1);
    int row = 0;
    m_input = pathEdit("signInputPath", inputHint, this);
    auto* inputBrowse = browse("signBrowseInput", tr("Choose what to sign"), this);
    connect(inputBrowse, &QPushButton::clicked, this, &SignDialog::browseInput);
    auto* il = new QLabel(inputLabel, this);
    il->setBuddy(m_input);
    grid->addWidget(il, row, 0);
    grid->addWidget(m_input, row, 1);
    grid->addWidget(inputBrowse, row, 2);
    ++row;
    if (kind != Kind::Deployment) {
        m_output =
            pathEdit("signOutputPath",
                     kind == Kind::Blob ? tr("FILE.sigstore.json")
                                        : tr("recipes/evidence directory (default: the bundle's parent)"),
                     this);
        auto* outBrowse = browse("signBrowseOutput", tr("Choose where to write"), this);
        connect(outBrowse, &QPushButton::clicked, this, &SignDialog::browseOutput);
        auto* ol = new QLabel(kind == Kind::Blob ? tr("B&undle:") : tr("&Evidence root:"), this);
        ol->setBuddy(m_output);
        grid->addWidget(ol, row, 0);
        grid->addWidget(m_output, row, 1);
        grid->addWidget(outBrowse, row, 2);
        ++row;
        if (kind == Kind::Blob)
            connect(m_input, &QLineEdit::textEdited, this, [this](const QString& text) {
                m_output->setText(
                    text.trimmed().isEmpty() ? QString() : text.trimmed() + QStringLiteral(".sigstore.json"));
            });
    }
    m_key = pathEdit("signKeyPath", tr("the encrypted private key (from New key…, or cosign.key)"), this);
    auto* keyBrowse = browse("signBrowseKey", tr("Choose the private key"), this);
    connect(keyBrowse, &QPushButton::clicked, this, &SignDialog::browseKey);
    auto* kl = new QLabel(tr("Private &key:"), this);
    kl->setBuddy(m_key);
    grid->addWidget(kl, row, 0);
    grid->addWidget(m_key, row, 1);
    grid->addWidget(keyBrowse, row, 2);
    ++row;
    m_passphrase = passphraseEdit("signPassphrase", this);
    m_passphrase->setPlaceholderText(tr("the private key's passphrase"));
    auto* pl = new QLabel(tr("Pass&phrase:"), this);
    pl->setBuddy(m_passphrase);
    grid->addWidget(pl, row, 0);
    grid->addWidget(m_passphrase, row, 1, 1, 2);
    ++row;
    if (kind == Kind::Evidence) {
        // A bundle whose checks could not all run (a cluster fault) is refused unless this is ticked
        // (evidence sign --sign-incomplete); it is then signed as it is and stays marked incomplete.
        m_signIncomplete = new QCheckBox(
            tr("Sign it even if it is incomplete (some checks could not run); it stays marked incomplete"),
            this);
        m_signIncomplete->setObjectName(QStringLiteral("signIncompleteCheck"));
        grid->addWidget(m_signIncomplete, row, 1, 1, 2);
        ++row;
    }
    return grid;
}

void SignDialog::buildProgress() {
    const Kind kind = m_kind;
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("signProgress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(kind == Kind::Deployment);
    m_progress->hide();
    m_progressText = new QLabel(this);
    m_progressText->setObjectName(QStringLiteral("signProgressText"));
    m_progressText->setStyleSheet(QStringLiteral("color: gray;"));
    m_progressText->hide();
    m_result = messageLabel("signResult", this);
    m_result->setTextFormat(Qt::RichText);
}

QDialogButtonBox* SignDialog::buildButtons() {
    auto* buttons = new QDialogButtonBox(this);
    buttons->setObjectName(QStringLiteral("signButtons"));
    m_signButton = buttons->addButton(tr("&Sign"), QDialogButtonBox::AcceptRole);
    m_signButton->setObjectName(QStringLiteral("signButton"));
    m_signButton->setDefault(true);
    m_cancelButton = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancelButton->setObjectName(QStringLiteral("signCancelButton"));
    m_copyCommand = new QPushButton(tr("Copy as command"), this);
    m_copyCommand->setObjectName(QStringLiteral("signCopyCommand"));
    m_copyCommand->setAutoDefault(false);
    m_copyCommand->setToolTip(tr("The same signature as a `proofbench` command line (passphrase from $%1)")
                                  .arg(QLatin1String(kPassphraseEnv)));
    buttons->addButton(m_copyCommand, QDialogButtonBox::ResetRole);
    connect(m_copyCommand, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(command()); });
    connect(m_signButton, &QPushButton::clicked, this, [this] { sign(); });
    connect(m_cancelButton, &QPushButton::clicked, this, &SignDialog::cancel);
    connect(m_passphrase, &QLineEdit::returnPressed, this, [this] { sign(); });
    return buttons;
}

SignDialog::~SignDialog() {
    m_task.cancel(); // the job stops at its next check; nothing is delivered once this is gone
}

void SignDialog::setInputPath(const QString& path) {
    m_input->setText(nativePath(path));
    if (m_kind == Kind::Blob && !path.isEmpty())
        m_output->setText(nativePath(path + QStringLiteral(".sigstore.json")));
}

QString SignDialog::inputPath() const {
    return QDir::fromNativeSeparators(m_input->text().trimmed());
}

void SignDialog::setOutputPath(const QString& path) {
    if (m_output)
        m_output->setText(nativePath(path));
}

QString SignDialog::outputPath() const {
    return m_output ? QDir::fromNativeSeparators(m_output->text().trimmed()) : QString();
}

void SignDialog::setKeyPath(const QString& path) {
    m_key->setText(nativePath(path));
}

QString SignDialog::keyPath() const {
    return QDir::fromNativeSeparators(m_key->text().trimmed());
}

QString SignDialog::resultText() const {
    return m_result->isVisible() ? m_result->text() : QString();
}

QString SignDialog::command() const {
    QStringList args{QStringLiteral("proofbench")};
    switch (m_kind) {
    case Kind::Blob:
        args << QStringLiteral("sign-blob") << QStringLiteral("--key") << keyPath()
             << QStringLiteral("--bundle") << outputPath();
        break;
    case Kind::Evidence:
        args << QStringLiteral("evidence") << QStringLiteral("sign") << QStringLiteral("--key") << keyPath();
        if (!outputPath().isEmpty())
            args << QStringLiteral("--evidence-root") << outputPath();
        if (m_signIncomplete && m_signIncomplete->isChecked())
            args << QStringLiteral("--sign-incomplete");
        break;
    case Kind::Deployment:
        args << QStringLiteral("bundle") << QStringLiteral("sign") << QStringLiteral("--key") << keyPath();
        break;
    }
    args << QStringLiteral("--passphrase-env") << QLatin1String(kPassphraseEnv) << inputPath();
    return models::shellJoin(args);
}

void SignDialog::browseInput() {
    QFileDialog dialog(this,
                       m_kind == Kind::Blob ? tr("Choose the file to sign") : tr("Choose the directory"));
    dialog.setObjectName(QStringLiteral("signInputDialog"));
    if (m_kind == Kind::Blob) {
        dialog.setFileMode(QFileDialog::ExistingFile);
    } else {
        dialog.setFileMode(QFileDialog::Directory);
        dialog.setOption(QFileDialog::ShowDirsOnly, true);
    }
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
        setInputPath(dialog.selectedFiles().constFirst());
}

void SignDialog::browseOutput() {
    QFileDialog dialog(this,
                       m_kind == Kind::Blob ? tr("Write the bundle to") : tr("Choose the evidence root"));
    dialog.setObjectName(QStringLiteral("signOutputDialog"));
    if (m_kind == Kind::Blob) {
        dialog.setAcceptMode(QFileDialog::AcceptSave);
        dialog.setNameFilters({tr("Sigstore bundles (*.sigstore.json)"), tr("All files (*)")});
    } else {
        dialog.setFileMode(QFileDialog::Directory);
        dialog.setOption(QFileDialog::ShowDirsOnly, true);
    }
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
        setOutputPath(dialog.selectedFiles().constFirst());
}

void SignDialog::browseKey() {
    QFileDialog dialog(this, tr("Choose the private key"));
    dialog.setObjectName(QStringLiteral("signKeyDialog"));
    dialog.setFileMode(QFileDialog::ExistingFile);
    dialog.setNameFilters({tr("Private keys (*.key *.pem)"), tr("All files (*)")});
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
        setKeyPath(dialog.selectedFiles().constFirst());
}

void SignDialog::showResult(const QString& html, bool error) {
    m_result->setText(html);
    m_result->setStyleSheet(error ? QStringLiteral("color: %1;").arg(errorColor().name()) : QString());
    m_result->setVisible(!html.isEmpty());
    // A long message must not squeeze the form: grow the dialog to fit it (never shrink it).
    if (layout()) {
        layout()->activate();
        const int needed = layout()->totalHeightForWidth(width());
        if (needed > height())
            resize(width(), needed);
    }
}

void SignDialog::setRunning(bool running) {
    for (QLineEdit* e : {m_input, m_output, m_key, m_passphrase})
        if (e)
            e->setEnabled(!running);
    if (m_signIncomplete)
        m_signIncomplete->setEnabled(!running);
    m_signButton->setEnabled(!running);
    m_copyCommand->setEnabled(!running);
}

bool SignDialog::sign() {
    if (m_task.running())
        return false;
    sigstore::Passphrase pass = takePassphrase(m_passphrase);
    const QString input = inputPath();
    const QString output = outputPath();
    const QString key = keyPath();
    const QString missing = missingInput(input, output, key, !pass.isEmpty());
    if (!missing.isEmpty()) {
        m_lastError = missing;
        showResult(missing.toHtmlEscaped(), true);
        return false;
    }
    showStarted();

    if (!m_signWorkspace) {
        onFinished(Outcome{false, false, tr("No database to record the signature in."), {}, {}});
        return true;
    }
    auto secret = std::make_shared<sigstore::Passphrase>(std::move(pass));
    // The same operations the CLI's sign-blob, evidence sign and bundle sign call.
    const bool signIncomplete = m_signIncomplete && m_signIncomplete->isChecked();
    auto work = [kind = m_kind, input, output, key, secret,
                 signIncomplete](const ops::Context& ctx) -> Result<Outcome> {
        Outcome out;
        ops::SigningKey signingKey{key, std::move(*secret)};
        switch (kind) {
        case Kind::Blob: {
            Result<ops::SignBlobOutcome> r =
                ops::signBlob(ctx, ops::SignBlobRequest{input, output, std::move(signingKey)});
            if (!r) {
                out.error = r.error().toString();
                return out;
            }
            out.written << r->bundlePath;
            out.summary = QStringLiteral("<b>%1</b><table>%2%3%4</table>")
                              .arg(tr("Signed."), pathHtml(tr("file"), input), pathHtml(tr("bundle"), output),
                                   pathHtml(tr("key"), r->keyFingerprint));
            break;
        }
        case Kind::Evidence: {
            Result<ops::SignEvidenceOutcome> r = ops::signEvidence(
                ctx, ops::SignEvidenceRequest{input, output, std::move(signingKey), signIncomplete});
            if (!r) {
                out.error = r.error().toString();
                if (r.error().field ==
                    QLatin1String("completeness")) // refused as incomplete: this dialog's way to ask
                    out.error +=
                        QLatin1Char('\n') +
                        tr("To sign it as it is, tick “Sign it even if it is incomplete” and sign again.");
                return out;
            }
            const evidence::EvidenceSignature& s = r->signature;
            out.written << s.attestationPath << s.pointerPath;
            out.summary = QStringLiteral("<b>%1</b><table>%2%3%4%5</table>")
                              .arg(tr("Signed %1.").arg(s.recipe.toHtmlEscaped()),
                                   pathHtml(tr("attestation"), s.attestationPath),
                                   pathHtml(tr("pointer"), s.pointerPath),
                                   pathHtml(tr("signer"),
                                            QStringLiteral("%1 (%2)").arg(s.signerIdentity, s.signerIssuer)),
                                   pathHtml(tr("bundle digest"), s.bundleDigest));
            break;
        }
        case Kind::Deployment: {
            Result<ops::SealBundleOutcome> r =
                ops::sealBundle(ctx, ops::SealBundleRequest{input, std::move(signingKey)});
            if (!r) {
                out.cancelled = ctx.cancelled();
                out.error = r.error().toString();
                return out;
            }
            out.written << r->checksumsPath << r->attestationPath;
            out.summary =
                QStringLiteral("<b>%1</b><table>%2%3%4%5</table>")
                    .arg(tr("Sealed %1 files.").arg(QLocale().toString(r->report.files)),
                         pathHtml(tr("checksums"), r->checksumsPath),
                         pathHtml(tr("attestation"), r->attestationPath),
                         pathHtml(tr("checksums.txt"), QStringLiteral("sha256:") + r->report.checksumsSha256),
                         pathHtml(tr("key"), r->report.keyFingerprint));
            break;
        }
        }
        out.ok = true;
        return out;
    };
    m_task = m_signWorkspace->run<Outcome>(
        this, std::move(work),
        [this](const Result<Outcome>& r) {
            onFinished(r ? *r : Outcome{false, false, r.error().toString(), {}, {}});
        },
        [this](const ops::Progress& p) { onProgress(p); });
    return true;
}

QString SignDialog::missingInput(const QString& input, const QString& output, const QString& key,
                                 bool havePassphrase) const {
    QString missing;
    if (input.isEmpty())
        missing = m_kind == Kind::Blob ? tr("Choose the file to sign.") : tr("Choose the directory to sign.");
    else if (m_kind == Kind::Blob && !QFileInfo(input).isFile())
        missing = tr("%1: no such file").arg(nativePath(input));
    else if (m_kind != Kind::Blob && !QFileInfo(input).isDir())
        missing = tr("%1: not a directory").arg(nativePath(input));
    else if (m_kind == Kind::Blob && output.isEmpty())
        missing = tr("Choose where to write the bundle.");
    else if (key.isEmpty())
        missing = tr("Choose the private key.");
    else if (!havePassphrase)
        missing = tr("Give the private key's passphrase.");
    return missing;
}

void SignDialog::showStarted() {
    m_lastError.clear();
    m_succeeded = m_cancelled = false;
    m_written.clear();
    showResult(QString(), false);
    m_progress->setRange(0, 0); // decrypting the key: no steps to count
    m_progress->show();
    m_progressText->setText(tr("Decrypting the key…"));
    m_progressText->show();
    setRunning(true);
}

void SignDialog::onProgress(const ops::Progress& p) {
    if (!m_task.running() || m_task.cancelFlag()->load())
        return;
    if (p.total > 0) {
        m_progress->setRange(0, int(std::max<qint64>(p.total, 1)));
        m_progress->setValue(int(std::min(p.done, p.total)));
        m_progress->setFormat(
            tr("%1 of %2 files").arg(QLocale().toString(p.done), QLocale().toString(p.total)));
    }
    if (!p.what.isEmpty())
        m_progressText->setText(p.what);
}

void SignDialog::cancel() {
    if (m_task.running()) {
        m_task.cancel();
        m_progressText->setText(tr("Cancelling…"));
        return;
    }
    QDialog::reject();
}

void SignDialog::reject() {
    // Escape while signing cancels; the dialog closes once the worker has stopped.
    if (m_task.running()) {
        cancel();
        return;
    }
    QDialog::reject();
}

void SignDialog::closeEvent(QCloseEvent* event) {
    if (m_task.running()) {
        cancel();
        event->ignore();
        return;
    }
    QDialog::closeEvent(event);
}

void SignDialog::onFinished(const Outcome& outcome) {
    setRunning(false);
    m_cancelled = outcome.cancelled;
    m_succeeded = outcome.ok;
    if (outcome.ok) {
        if (m_progress->maximum() <= 1)
            m_progress->setRange(0, 1);
        m_progress->setValue(m_progress->maximum());
        m_progress->setVisible(m_kind == Kind::Deployment);
        m_progressText->hide();
        m_written = outcome.written;
        showResult(outcome.summary, false);
        m_signButton->setEnabled(false);
        m_cancelButton->setText(tr("Close"));
        m_cancelButton->setFocus();
        emit signingFinished(true, QString());
        return;
    }
    m_progress->hide();
    m_progressText->hide();
    if (outcome.cancelled) {
        m_lastError = tr("Cancelled; nothing was written.");
        showResult(m_lastError.toHtmlEscaped(), false);
    } else {
        m_lastError = outcome.error;
        showResult(QStringLiteral("<b>%1</b><br>%2")
                       .arg(tr("Not signed; nothing was written."), errorHtml(outcome.error)),
                   true);
    }
    emit signingFinished(false, m_lastError);
}

} // namespace pb::widgets
