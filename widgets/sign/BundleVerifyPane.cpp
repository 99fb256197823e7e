#include "BundleVerifyPane.h"

#include "OpRunner.h"
#include "Plural.h"
#include "TableSetup.h"
#include "WidgetUtil.h"
#include "core/Files.h"
#include "ops/VerifyBundle.h"
#include "sigstore/TrustedRoot.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace pb::widgets {

using deploy::FileState;
using deploy::TrustLevel;
using models::TrustStyle;

struct BundleVerifyPane::Outcome {
    bool ran = false;
    bool cancelled = false;
    QString error; // why it could not run
    deploy::DeploymentVerification result;
    bool passed = false;
    TrustLevel minLevel = TrustLevel::Unverified;
};

namespace {

// The stored-key combo's first entry: a PEM file chosen below.
constexpr int kPemFileEntry = 0;

} // namespace

BundleVerifyPane::BundleVerifyPane(models::Workspace& workspace, QWidget* parent)
    : QWidget(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("bundleVerifyPane"));
    m_files = new models::DeploymentFilesModel(this);
    m_files->setObjectName(QStringLiteral("deploymentFilesModel"));
    m_proxy = new models::DeploymentFilesFilterModel(this);
    m_proxy->setObjectName(QStringLiteral("deploymentFilesFilterModel"));
    m_proxy->setSourceModel(m_files);
    m_steps = new models::VerificationStepsModel(this);
    m_steps->setObjectName(QStringLiteral("bundleStepsModel"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(8);
    layout->addWidget(buildInputs());
    layout->addWidget(buildResults(), 1);

    updateModes();
    reloadKeys();
    reloadTrustedRoots();
}

BundleVerifyPane::~BundleVerifyPane() {
    m_task.cancel(); // the job stops at its next check; nothing is delivered once this is gone
}

QWidget* BundleVerifyPane::buildInputs() {
    QGroupBox* box = group(tr("Verify a deployment bundle"), "bundleVerifyInputs", this);
    QGridLayout* grid = inputGrid(box);
    int row = 0;

    m_dir = new QLineEdit(box);
    m_dir->setObjectName(QStringLiteral("bundleVerifyDirectory"));
    m_dir->setPlaceholderText(tr("the bundle's directory (with checksums.txt)"));
    m_dir->setClearButtonEnabled(true);
    auto* dirBrowse = browseButton("bundleVerifyBrowseDirectory", tr("Choose the deployment bundle"), box);
    connect(dirBrowse, &QPushButton::clicked, this, [this] {
        if (const QString dir =
                chooseDirectory(this, tr("Choose a deployment bundle"), "bundleVerifyDirectoryDialog");
            !dir.isEmpty())
            setDirectory(dir);
    });
    auto* dirLabel = new QLabel(tr("&Directory:"), box);
    dirLabel->setBuddy(m_dir);
    grid->addWidget(dirLabel, row, 0);
    grid->addWidget(m_dir, row, 1);
    grid->addWidget(dirBrowse, row, 2);
    ++row;

    m_keyMode = new QRadioButton(tr("Public key"), box);
    m_keyMode->setObjectName(QStringLiteral("bundleVerifyKeyMode"));
    m_keyMode->setToolTip(tr("The bundle attestation must be signed by this key"));
    m_identityMode = new QRadioButton(tr("Certificate identity"), box);
    m_identityMode->setObjectName(QStringLiteral("bundleVerifyIdentityMode"));
    m_identityMode->setToolTip(
        tr("Keyless: a Fulcio certificate for this identity, against a stored trusted root"));
    grid->addWidget(new QLabel(tr("Signer:"), box), row, 0);
    grid->addLayout(choiceRow(box, {m_keyMode, m_identityMode}), row, 1, 1, 2);
    ++row;

    m_signerStack = new QStackedWidget(box);
    m_signerStack->setObjectName(QStringLiteral("bundleVerifySignerStack"));
    QWidget* keyPage = buildKeyPage();
    QWidget* idPage = buildIdentityPage();
    m_signerStack->addWidget(keyPage);
    m_signerStack->addWidget(idPage);
    grid->addWidget(m_signerStack, row, 0, 1, 3);
    ++row;

    // The same pass rule as `proofbench bundle verify --min-trust-level` (and its default).
    m_minLevel = new QComboBox(box);
    m_minLevel->setObjectName(QStringLiteral("bundleVerifyMinLevel"));
    for (TrustLevel l : {TrustLevel::Unverified, TrustLevel::Attested, TrustLevel::Verified})
        m_minLevel->addItem(deploy::trustLevelName(l), int(l));
    m_minLevel->setToolTip(tr("The verification passes when the bundle's trust level reaches this level"));
    auto* minLabel = new QLabel(tr("&Pass at:"), box);
    minLabel->setBuddy(m_minLevel);
    grid->addWidget(minLabel, row, 0);
    grid->addWidget(m_minLevel, row, 1, Qt::AlignLeft);
    ++row;

    addActionRows(box, grid, row);

    connect(m_keyMode, &QRadioButton::toggled, this, [this] { updateModes(); });
    connect(m_dir, &QLineEdit::returnPressed, this, [this] { verify(); });
    return box;
}

QWidget* BundleVerifyPane::buildKeyPage() {
    auto* keyPage = new QWidget(m_signerStack);
    QGridLayout* keyGrid = inputGrid(keyPage, true);
    m_storedKey = new QComboBox(keyPage);
    m_storedKey->setObjectName(QStringLiteral("bundleVerifyStoredKey"));
    m_storedKey->view()->setObjectName(QStringLiteral("bundleVerifyStoredKeyList"));
    m_storedKey->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_storedKey->setMinimumContentsLength(16);
    m_storedKey->setToolTip(tr("A public key stored in the database, or a PEM file"));
    m_keyPath = new QLineEdit(keyPage);
    m_keyPath->setObjectName(QStringLiteral("bundleVerifyKeyPath"));
    m_keyPath->setPlaceholderText(tr("key.pub (PEM)"));
    m_keyPath->setClearButtonEnabled(true);
    m_keyBrowse = browseButton("bundleVerifyBrowseKey", tr("Choose the public key (PEM)"), keyPage);
    connect(m_keyBrowse, &QPushButton::clicked, this, [this] {
        QFileDialog dialog(this, tr("Choose the public key"));
        dialog.setObjectName(QStringLiteral("bundleVerifyKeyDialog"));
        dialog.setFileMode(QFileDialog::ExistingFile);
        dialog.setNameFilters({tr("PEM public keys (*.pub *.pem)"), tr("All files (*)")});
        if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
            setKeyPath(dialog.selectedFiles().constFirst());
    });
    m_ignoreTlog = new QCheckBox(tr("No transparency-log entry needed (signed offline)"), keyPage);
    m_ignoreTlog->setObjectName(QStringLiteral("bundleVerifyIgnoreTlog"));
    m_ignoreTlog->setChecked(true);
    m_ignoreTlog->setToolTip(tr("--insecure-ignore-tlog: Proofbench signs offline, without a Rekor entry"));
    auto* keyLabel = new QLabel(tr("&Key:"), keyPage);
    keyLabel->setBuddy(m_storedKey);
    keyGrid->addWidget(keyLabel, 0, 0);
    keyGrid->addWidget(m_storedKey, 0, 1, 1, 2);
    keyGrid->addWidget(m_keyPath, 1, 1);
    keyGrid->addWidget(m_keyBrowse, 1, 2);
    keyGrid->addWidget(m_ignoreTlog, 2, 1, 1, 2);
    connect(m_storedKey, &QComboBox::currentIndexChanged, this, [this] { updateModes(); });
    return keyPage;
}

QWidget* BundleVerifyPane::buildIdentityPage() {
    auto* idPage = new QWidget(m_signerStack);
    QGridLayout* idGrid = inputGrid(idPage, true);
    m_identity = new QLineEdit(idPage);
    m_identity->setObjectName(QStringLiteral("bundleVerifyIdentity"));
    m_identity->setPlaceholderText(tr("https://github.com/org/repo/.github/workflows/x.yml@refs/tags/v1"));
    m_identity->setClearButtonEnabled(true);
    m_issuer = new QLineEdit(idPage);
    m_issuer->setObjectName(QStringLiteral("bundleVerifyIssuer"));
    m_issuer->setPlaceholderText(tr("https://token.actions.githubusercontent.com"));
    m_issuer->setClearButtonEnabled(true);
    m_trustedRoot = new QComboBox(idPage);
    m_trustedRoot->setObjectName(QStringLiteral("bundleVerifyTrustedRoot"));
    m_trustedRoot->view()->setObjectName(QStringLiteral("bundleVerifyTrustedRootList"));
    m_trustedRoot->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_trustedRoot->setMinimumContentsLength(12);
    m_trustedRoot->setToolTip(tr("Trusted roots stored in the database (import them in the Verify view)"));
    const std::pair<QString, QWidget*> idRows[] = {
        {tr("&Identity:"), m_identity}, {tr("Iss&uer:"), m_issuer}, {tr("&Trusted root:"), m_trustedRoot}};
    int idRow = 0;
    for (const auto& [text, w] : idRows) {
        auto* l = new QLabel(text, idPage);
        l->setBuddy(w);
        idGrid->addWidget(l, idRow, 0);
        idGrid->addWidget(w, idRow, 1);
        ++idRow;
    }
    return idPage;
}

void BundleVerifyPane::addActionRows(QWidget* box, QGridLayout* grid, int& row) {
    m_verifyButton = new QPushButton(tr("&Verify bundle"), box);
    m_verifyButton->setObjectName(QStringLiteral("bundleVerifyButton"));
    m_verifyButton->setMinimumWidth(120);
    m_verifyButton->setToolTip(tr("Hash every file, compare with checksums.txt and verify the attestations"));
    connect(m_verifyButton, &QPushButton::clicked, this, [this] { verify(); });
    m_cancelButton = new QPushButton(tr("Cancel"), box);
    m_cancelButton->setObjectName(QStringLiteral("bundleVerifyCancel"));
    m_cancelButton->setEnabled(false);
    connect(m_cancelButton, &QPushButton::clicked, this, &BundleVerifyPane::cancel);
    m_progress = new QProgressBar(box);
    m_progress->setObjectName(QStringLiteral("bundleVerifyProgress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m files"));
    m_progress->setVisible(false);
    m_copyCommand = new QPushButton(tr("Copy as command"), box);
    m_copyCommand->setObjectName(QStringLiteral("bundleVerifyCopyCommand"));
    m_copyCommand->setToolTip(tr("The same check as a `proofbench bundle verify` command line"));
    connect(m_copyCommand, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(command());
        showMessage(tr("Copied: %1").arg(command()), false);
    });
    auto* actions = new QHBoxLayout;
    actions->setSpacing(6);
    actions->addWidget(m_verifyButton);
    actions->addWidget(m_cancelButton);
    actions->addWidget(m_progress, 1);
    actions->addStretch(0);
    actions->addWidget(m_copyCommand);
    grid->addLayout(actions, row, 0, 1, 3);
    ++row;
    m_message = grayLabel("bundleVerifyMessage", box);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    grid->addWidget(m_message, row, 0, 1, 3);
}

QWidget* BundleVerifyPane::buildResults() {
    m_resultStack = new QStackedWidget(this);
    m_resultStack->setObjectName(QStringLiteral("bundleVerifyResultStack"));
    auto* placeholder = grayLabel("bundleVerifyPlaceholder", m_resultStack);
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setText(
        tr("Choose a deployment bundle and its signer, then Verify bundle.\n\nEvery file is hashed "
           "and compared with checksums.txt; the attestation over it is verified offline."));

    auto* page = new QWidget(m_resultStack);
    page->setObjectName(QStringLiteral("bundleVerifyResultPage"));
    buildTrustBanner(page);
    QWidget* filesBox = buildFilesGroup(page);
    QWidget* stepsBox = buildStepsGroup(page);

    auto* split = new QSplitter(Qt::Vertical, page);
    split->setObjectName(QStringLiteral("bundleVerifySplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(filesBox);
    split->addWidget(stepsBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->setSpacing(6);
    pageLayout->addWidget(m_banner);
    pageLayout->addWidget(split, 1);

    m_resultStack->addWidget(placeholder);
    m_resultStack->addWidget(page);
    return m_resultStack;
}

void BundleVerifyPane::buildTrustBanner(QWidget* page) {
    m_banner = bannerFrame("bundleTrustBanner", page);
    m_banner->setSizePolicy(QSizePolicy::Preferred,
                            QSizePolicy::Fixed); // the tables give way, not the verdict
    m_levelIcon = new QLabel(m_banner);
    m_levelIcon->setObjectName(QStringLiteral("bundleTrustIcon"));
    m_level = bannerHeadline("bundleTrustLevel", 1.45, m_banner);
    m_levelText = new QLabel(m_banner);
    m_levelText->setObjectName(QStringLiteral("bundleTrustExplanation"));
    m_levelText->setWordWrap(false);
    m_details = new QLabel(m_banner);
    m_details->setObjectName(QStringLiteral("bundleTrustDetails"));
    // One fact per line, unwrapped: the banner stays as tall as its lines (the tooltip has them whole).
    m_details->setWordWrap(false);
    m_details->setTextFormat(Qt::RichText);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (QLabel* l : {m_levelText, m_details})
        l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layOutBanner(m_banner, m_levelIcon, {m_level, m_levelText, m_details});
}

QWidget* BundleVerifyPane::buildFilesGroup(QWidget* page) {
    // Files.
    auto* filesBox = group(tr("Files"), "bundleFilesGroup", page);
    m_problemsOnly = new QCheckBox(tr("&Problems only"), filesBox);
    m_problemsOnly->setObjectName(QStringLiteral("bundleProblemsOnly"));
    m_problemsOnly->setToolTip(tr("Show only changed, missing and unexpected files"));
    connect(m_problemsOnly, &QCheckBox::toggled, this, &BundleVerifyPane::setProblemsOnly);
    m_filter = new QLineEdit(filesBox);
    m_filter->setObjectName(QStringLiteral("bundleFilesFilter"));
    m_filter->setPlaceholderText(tr("Filter by path or state"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterText(text);
        updateFileCounts();
    });
    m_fileCounts = grayLabel("bundleFileCounts", filesBox);
    m_fileCounts->setWordWrap(false);
    m_filesView = new QTableView(filesBox);
    m_filesView->setObjectName(QStringLiteral("bundleFiles"));
    m_filesView->setModel(m_proxy);
    setupTable(m_filesView);
    m_filesView->setSortingEnabled(true);
    m_filesView->sortByColumn(models::DeploymentFilesModel::StateColumn, Qt::AscendingOrder);
    m_filesView->setTextElideMode(Qt::ElideMiddle);
    auto* filterRow = new QHBoxLayout;
    filterRow->setSpacing(8);
    filterRow->addWidget(m_problemsOnly);
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_fileCounts);
    auto* filesLayout = new QVBoxLayout(filesBox);
    filesLayout->setSpacing(4);
    filesLayout->addLayout(filterRow);
    filesLayout->addWidget(m_filesView, 1);
    return filesBox;
}

QWidget* BundleVerifyPane::buildStepsGroup(QWidget* page) {
    // Attestation steps.
    auto* stepsBox = group(tr("Bundle attestation"), "bundleStepsGroup", page);
    m_stepsTitle = grayLabel("bundleStepsTitle", stepsBox);
    m_stepsView = new QTableView(stepsBox);
    m_stepsView->setObjectName(QStringLiteral("bundleSteps"));
    m_stepsView->setModel(m_steps);
    setupTable(m_stepsView);
    m_stepsView->setTextElideMode(Qt::ElideRight);
    m_stepDetail = new QLabel(stepsBox);
    m_stepDetail->setObjectName(QStringLiteral("bundleStepDetail"));
    m_stepDetail->setWordWrap(true);
    m_stepDetail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stepDetail->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    connect(m_stepsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid()) {
                    m_stepDetail->clear();
                    return;
                }
                const sigstore::Step& s = m_steps->stepAt(current.row());
                QString text =
                    QStringLiteral("<b>%1</b>: %2").arg(s.name.toHtmlEscaped(), s.detail.toHtmlEscaped());
                if (!s.expected.isEmpty() || !s.found.isEmpty())
                    text += QStringLiteral("<br><span style='color:gray'>expected</span> %1<br>"
                                           "<span style='color:gray'>found</span> %2")
                                .arg(s.expected.toHtmlEscaped(), s.found.toHtmlEscaped());
                m_stepDetail->setText(text);
            });
    auto* stepsLayout = new QVBoxLayout(stepsBox);
    stepsLayout->setSpacing(4);
    stepsLayout->addWidget(m_stepsTitle);
    stepsLayout->addWidget(m_stepsView, 1);
    stepsLayout->addWidget(m_stepDetail);
    return stepsBox;
}

// --- Inputs -------------------------------------------------------------------------------------

void BundleVerifyPane::setDirectory(const QString& dir) {
    m_dir->setText(QDir::toNativeSeparators(dir));
}

QString BundleVerifyPane::directory() const {
    return QDir::fromNativeSeparators(m_dir->text().trimmed());
}

void BundleVerifyPane::setKeyPath(const QString& path) {
    m_keyMode->setChecked(true);
    m_storedKey->setCurrentIndex(kPemFileEntry);
    m_keyPath->setText(QDir::toNativeSeparators(path));
    updateModes();
}

bool BundleVerifyPane::selectStoredKey(const QString& fingerprint) {
    const int i = m_storedKey->findData(fingerprint);
    if (i < 0)
        return false;
    m_keyMode->setChecked(true);
    m_storedKey->setCurrentIndex(i);
    updateModes();
    return true;
}

void BundleVerifyPane::setIdentity(const QString& identity, const QString& issuer) {
    m_identityMode->setChecked(true);
    m_identity->setText(identity);
    m_issuer->setText(issuer);
    updateModes();
}

bool BundleVerifyPane::selectTrustedRoot(qint64 id) {
    const int i = m_trustedRoot->findData(id);
    if (i < 0)
        return false;
    m_trustedRoot->setCurrentIndex(i);
    return true;
}

void BundleVerifyPane::updateModes() {
    m_signerStack->setCurrentIndex(m_keyMode->isChecked() ? 0 : 1);
    fitToCurrentPage(m_signerStack);
    const bool pemFile = m_storedKey->currentIndex() == kPemFileEntry;
    m_keyPath->setEnabled(pemFile);
    m_keyBrowse->setEnabled(pemFile);
}

void BundleVerifyPane::reloadKeys() {
    const quint64 generation = ++m_keysGeneration;
    runInView<std::vector<models::StoredKey>>(
        this, m_workspace, [](const ops::Context& ctx) { return models::storedPublicKeys(ctx); },
        [this, generation](const Result<std::vector<models::StoredKey>>& keys) {
            if (generation == m_keysGeneration)
                showKeys(keys);
        });
}

void BundleVerifyPane::reloadTrustedRoots() {
    const quint64 generation = ++m_rootsGeneration;
    runInView<std::vector<models::StoredTrustedRoot>>(
        this, m_workspace, [](const ops::Context& ctx) { return models::storedTrustedRoots(ctx); },
        [this, generation](const Result<std::vector<models::StoredTrustedRoot>>& roots) {
            if (generation == m_rootsGeneration)
                showTrustedRoots(roots);
        });
}

void BundleVerifyPane::showKeys(const Result<std::vector<models::StoredKey>>& keys) {
    const QString keep = m_storedKey->currentData().toString();
    const QSignalBlocker block(m_storedKey);
    m_storedKey->clear();
    m_storedKey->addItem(tr("A PEM file:"), QString());
    if (keys) {
        for (const models::StoredKey& k : *keys) {
            m_storedKey->addItem(QStringLiteral("%1 · %2").arg(
                                     k.label, k.fingerprint.left(23) /* sha256: and 16 hex digits */),
                                 k.fingerprint);
            m_storedKey->setItemData(m_storedKey->count() - 1, k.publicPem, Qt::UserRole + 1);
            m_storedKey->setItemData(m_storedKey->count() - 1,
                                     tr("%1\nfingerprint %2").arg(k.label, k.fingerprint), Qt::ToolTipRole);
        }
    }
    const int i = keep.isEmpty() ? -1 : m_storedKey->findData(keep);
    m_storedKey->setCurrentIndex(i >= 0 ? i
                                        : (m_storedKey->count() > 1 && m_keyPath->text().isEmpty() ? 1 : 0));
    updateModes();
    emit keysLoaded();
}

void BundleVerifyPane::showTrustedRoots(const Result<std::vector<models::StoredTrustedRoot>>& roots) {
    const qint64 keep = m_trustedRoot->currentData().toLongLong();
    const QSignalBlocker block(m_trustedRoot);
    m_trustedRoot->clear();
    int defaultIndex = -1;
    if (roots) {
        for (const models::StoredTrustedRoot& r : *roots) {
            m_trustedRoot->addItem(QStringLiteral("%1%2 · %3")
                                       .arg(QFileInfo(r.name).fileName(),
                                            r.isDefault ? tr(" (default)") : QString(), r.sha256.left(8)),
                                   r.id);
            if (r.isDefault)
                defaultIndex = m_trustedRoot->count() - 1;
        }
    }
    if (m_trustedRoot->count() == 0) {
        m_trustedRoot->addItem(tr("None — import one in the Verify view"), 0);
    } else {
        const int keepIndex = keep != 0 ? m_trustedRoot->findData(keep) : -1;
        m_trustedRoot->setCurrentIndex(keepIndex >= 0 ? keepIndex : std::max(0, defaultIndex));
    }
    emit trustedRootsLoaded();
}

QString BundleVerifyPane::command() const {
    QStringList args{QStringLiteral("proofbench"), QStringLiteral("bundle"), QStringLiteral("verify")};
    if (m_keyMode->isChecked()) {
        args << QStringLiteral("--key")
             << (m_storedKey->currentIndex() == kPemFileEntry
                     ? QDir::fromNativeSeparators(m_keyPath->text().trimmed())
                     : QStringLiteral("KEY.pub"));
        if (m_ignoreTlog->isChecked())
            args << QStringLiteral("--insecure-ignore-tlog");
    } else {
        args << QStringLiteral("--certificate-identity") << m_identity->text().trimmed()
             << QStringLiteral("--certificate-oidc-issuer") << m_issuer->text().trimmed()
             << QStringLiteral("--db") << m_workspace.path();
    }
    if (m_minLevel->currentIndex() > 0)
        args << QStringLiteral("--min-trust-level") << m_minLevel->currentText();
    args << directory();
    return models::shellJoin(args);
}

void BundleVerifyPane::showMessage(const QString& text, bool error) {
    m_message->setText(text);
    m_message->setStyleSheet(
        error ? QStringLiteral("color: %1;").arg(TrustStyle::color(TrustLevel::Unknown).name())
              : QStringLiteral("color: gray;"));
    m_message->setVisible(!text.isEmpty());
}

// --- Verification -------------------------------------------------------------------------------

bool BundleVerifyPane::verify() {
    if (m_task.running()) {
        m_lastError = tr("A verification is already running");
        return false;
    }
    const QString dir = directory();
    QByteArray keyPem;
    QString missing;
    const bool keyMode = m_keyMode->isChecked();
    const qint64 rootId = m_trustedRoot->currentData().toLongLong();
    if (dir.isEmpty() || !QFileInfo(dir).isDir()) {
        missing = dir.isEmpty() ? tr("Choose the bundle's directory.") : tr("%1: not a directory").arg(dir);
    } else if (keyMode) {
        if (m_storedKey->currentIndex() != kPemFileEntry) {
            keyPem = m_storedKey->currentData(Qt::UserRole + 1).toString().toUtf8();
        } else if (m_keyPath->text().trimmed().isEmpty()) {
            missing = tr("Choose the public key (PEM), or a stored key.");
        } else {
            Result<QByteArray> pem = readFileLimited(QDir::fromNativeSeparators(m_keyPath->text().trimmed()),
                                                     limits::kSmallFile, QStringLiteral("public key"));
            if (!pem)
                missing = pem.error().toString();
            else
                keyPem = *pem;
        }
    } else if (m_identity->text().trimmed().isEmpty() || m_issuer->text().trimmed().isEmpty()) {
        missing = tr("Give both the certificate identity and the OIDC issuer.");
    } else if (rootId == 0) {
        missing = tr("Import a trusted root first (in the Verify view).");
    }
    if (!missing.isEmpty()) {
        m_lastError = missing;
        showMessage(missing, true);
        return false;
    }
    m_lastError.clear();
    m_cancelled = false;
    showMessage(QString(), false);
    ops::VerifyBundleRequest request;
    request.dir = dir;
    request.policy.publicKeyPem = keyPem;
    request.policy.ignoreTlog = keyMode && m_ignoreTlog->isChecked();
    if (!keyMode) {
        request.policy.identity = m_identity->text().trimmed();
        request.policy.issuer = m_issuer->text().trimmed();
    }
    request.trustedRootId = rootId;
    request.minLevel = TrustLevel(m_minLevel->currentData().toInt());

    m_verifyButton->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_progress->setRange(0, 0);
    m_progress->show();
    // The same operation as `proofbench bundle verify`: one pass rule, one receipt.
    m_task = m_workspace.run<ops::VerifyBundleOutcome>(
        this, [request](const ops::Context& ctx) { return ops::verifyBundle(ctx, request); },
        [this](const Result<ops::VerifyBundleOutcome>& r) {
            Outcome out;
            if (!r) {
                out.error = r.error().toString();
            } else {
                out.ran = true;
                out.cancelled = r->cancelled;
                out.result = r->verification;
                out.passed = r->passed;
                out.minLevel = r->minLevel;
            }
            onFinished(out);
        },
        [this](const ops::Progress& p) { onProgress(int(p.done), int(p.total)); });
    return true;
}

void BundleVerifyPane::cancel() {
    if (m_task.running()) {
        m_task.cancel();
        showMessage(tr("Cancelling…"), false);
    }
}

void BundleVerifyPane::onProgress(int done, int total) {
    if (!m_task.running() || m_task.cancelFlag()->load())
        return;
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(std::min(done, total));
}

void BundleVerifyPane::onFinished(const Outcome& outcome) {
    m_verifyButton->setEnabled(true);
    m_cancelButton->setEnabled(false);
    m_progress->hide();
    if (!outcome.ran) {
        m_lastError = outcome.error;
        showMessage(tr("Cannot verify: %1").arg(outcome.error), true);
        emit verificationFinished(false, int(TrustLevel::Unknown));
        return;
    }
    if (outcome.cancelled) {
        m_cancelled = true;
        m_lastError = tr("Verification cancelled");
        showMessage(tr("Verification cancelled; nothing was checked to the end."), false);
        emit verificationFinished(false, int(TrustLevel::Unknown));
        return;
    }
    m_passed = outcome.passed;
    showResult(outcome.result);
    m_details->setText(
        QStringLiteral("<b>%1</b><br>")
            .arg(outcome.passed
                     ? tr("Passes: the level reaches %1.").arg(deploy::trustLevelName(outcome.minLevel))
                     : tr("Fails: the level is below %1.").arg(deploy::trustLevelName(outcome.minLevel))) +
        m_details->text());
    emit verificationFinished(true, int(outcome.result.level));
}

void BundleVerifyPane::showBanner(const QString& headline, const QString& text, const QColor& ink,
                                  const QColor& tint, const QIcon& icon) {
    m_resultStack->setCurrentIndex(1);
    tintBanner(m_banner, m_level, tint, ink.darker(110));
    m_level->setText(headline);
    m_levelText->setText(text);
    const int side = m_level->fontMetrics().height() + 10;
    m_levelIcon->setPixmap(icon.pixmap(QSize(side, side), devicePixelRatioF()));
}

void BundleVerifyPane::showResult(const deploy::DeploymentVerification& v) {
    m_result = v;
    m_hasResult = true;
    const QString level = deploy::trustLevelName(v.level);
    showBanner(tr("Trust level: %1").arg(level), TrustStyle::explanation(v.level), TrustStyle::color(v.level),
               TrustStyle::background(v.level), TrustStyle::icon(v.level));
    auto gray = [](const QString& s) { return QStringLiteral("<span style='color:gray'>%1</span>").arg(s); };
    QStringList facts;
    facts << gray(tr("inventory")) + QLatin1Char(' ') + v.inventoryDetail.toHtmlEscaped();
    if (!v.attestationDetail.isEmpty())
        facts << gray(tr("attestation")) + QLatin1Char(' ') + v.attestationDetail.toHtmlEscaped();
    facts << gray(tr("bundle")) + QLatin1Char(' ') + QDir::toNativeSeparators(directory()).toHtmlEscaped();
    m_details->setText(facts.join(QStringLiteral("<br>")));
    m_details->setToolTip(
        QStringLiteral("inventory: %1\nattestation: %2").arg(v.inventoryDetail, v.attestationDetail));

    m_files->setFiles(v.files);
    // Problems are what a reader came for: show only those when there are any.
    m_problemsOnly->setChecked(m_files->problemCount() > 0);
    m_proxy->setProblemsOnly(m_problemsOnly->isChecked());
    m_filesView->sortByColumn(models::DeploymentFilesModel::StateColumn, Qt::AscendingOrder);
    updateFileCounts();
    fitFileColumns();

    if (v.bundleAttestation) {
        m_steps->setSteps(v.bundleAttestation->steps);
        m_stepsTitle->setText(tr("%1 passed · %2 failed · %3 skipped")
                                  .arg(m_steps->countOf(sigstore::StepState::Passed))
                                  .arg(m_steps->countOf(sigstore::StepState::Failed))
                                  .arg(m_steps->countOf(sigstore::StepState::Skipped)));
        const int failed = m_steps->firstFailedRow();
        m_stepsView->setCurrentIndex(m_steps->index(failed >= 0 ? failed : 0, 0));
    } else {
        m_steps->clear();
        m_stepDetail->clear();
        m_stepsTitle->setText(v.inventoryOk
                                  ? tr("The bundle has no attestation to verify.")
                                  : tr("Not checked: the inventory does not match, so nothing signed "
                                       "over it can be trusted."));
    }
    m_stepsView->resizeColumnToContents(models::VerificationStepsModel::StepColumn);
    m_stepsView->resizeColumnToContents(models::VerificationStepsModel::ResultColumn);
}

QString BundleVerifyPane::trustLevelText() const {
    return m_level->text();
}

void BundleVerifyPane::setProblemsOnly(bool on) {
    if (m_problemsOnly->isChecked() != on)
        m_problemsOnly->setChecked(on); // comes back here through toggled
    m_proxy->setProblemsOnly(on);
    updateFileCounts();
}

void BundleVerifyPane::updateFileCounts() {
    QStringList parts;
    parts << models::counted(m_files->rowCount(), tr("file"), tr("files"));
    for (FileState s : {FileState::Changed, FileState::Missing, FileState::Unexpected})
        if (const int n = m_files->countOf(s); n > 0)
            parts << QStringLiteral("<span style='color:%1'>%2 %3</span>")
                         .arg(TrustStyle::fileColor(s).name())
                         .arg(n)
                         .arg(deploy::fileStateName(s));
    if (m_proxy->rowCount() != m_files->rowCount())
        parts << tr("%1 shown").arg(m_proxy->rowCount());
    m_fileCounts->setText(parts.join(QStringLiteral(" · ")));
}

void BundleVerifyPane::fitFileColumns() {
    using F = models::DeploymentFilesModel;
    QHeaderView* h = m_filesView->horizontalHeader();
    m_filesView->resizeColumnToContents(F::StateColumn);
    h->resizeSection(F::StateColumn, h->sectionSize(F::StateColumn) + 8);
    // Digests are long: each gets a share, elided in the middle (the tooltip has them whole).
    const int avail = m_filesView->viewport()->width() - h->sectionSize(F::StateColumn);
    const int digest = std::max(120, avail / 4);
    h->resizeSection(F::ExpectedColumn, digest);
    h->resizeSection(F::PathColumn, std::max(160, avail - 2 * digest));
}

void BundleVerifyPane::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_hasResult)
        fitFileColumns();
}

} // namespace pb::widgets
