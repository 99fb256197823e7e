#include "ReleaseVerifyDialog.h"

#include "OpRunner.h"
#include "TableSetup.h"
#include "WidgetUtil.h"
#include "ops/ReleaseVerify.h"
#include "release/Release.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace pb::widgets {

namespace {

QColor statusColor(ops::AssetStatus s) {
    switch (s) {
    case ops::AssetStatus::Verified:
        return QColor(0x1b, 0x7a, 0x3a);
    case ops::AssetStatus::Listed:
    case ops::AssetStatus::DigestOnly:
        return QColor(0x7a, 0x6a, 0x40);
    case ops::AssetStatus::Failed:
        break;
    }
    return QColor(0xb0, 0x20, 0x20);
}

} // namespace

ReleaseVerifyDialog::ReleaseVerifyDialog(models::Workspace& workspace, QWidget* parent)
    : QDialog(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("releaseVerifyDialog"));
    setWindowTitle(tr("Verify an AICR Release"));

    auto* intro = new QLabel(
        tr("Verifies a folder of AICR release assets offline: each Sigstore bundle with the signer pinned to "
           "NVIDIA's tag workflow for the version, the checksum list, the assets present (the aicr binary "
           "inside each tarball against its provenance) and the recipe catalog's registry and validator "
           "catalog. Assets not in the folder are \"digest only\": their signed or listed digest is known, "
           "their bytes are not checked."),
        this);
    intro->setObjectName(QStringLiteral("releaseIntro"));
    intro->setWordWrap(true);

    m_folder = new QLineEdit(this);
    m_folder->setObjectName(QStringLiteral("releaseFolder"));
    m_folder->setPlaceholderText(tr("the folder with aicr_checksums.txt and the *.sigstore.json bundles"));
    m_browseFolder = browseButton("releaseBrowseFolder", tr("Choose the release folder"), this);
    m_version = new QLineEdit(this);
    m_version->setObjectName(QStringLiteral("releaseVersion"));
    m_version->setPlaceholderText(tr("vX.Y.Z"));
    m_identity = grayLabel("releaseIdentity", this);
    m_identity->setWordWrap(true);
    m_identity->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_root = new QLineEdit(this);
    m_root->setObjectName(QStringLiteral("releaseTrustedRoot"));
    m_root->setPlaceholderText(tr("the database's default trusted root"));
    m_browseRoot = browseButton("releaseBrowseRoot", tr("Choose a Sigstore trusted_root.json"), this);
    m_catalog = new QComboBox(this);
    m_catalog->setObjectName(QStringLiteral("releaseCatalogVersion"));
    m_catalog->setToolTip(
        tr("Compare the recipe-catalog signature with an imported catalog version (its registry.yaml and "
           "validators/catalog.yaml). Without one, the files in the release folder are used when present."));
    setCatalogVersions({});

    auto* form = inputGrid(nullptr);
    form->addWidget(new QLabel(tr("Release folder:"), this), 0, 0);
    form->addWidget(m_folder, 0, 1);
    form->addWidget(m_browseFolder, 0, 2);
    form->addWidget(new QLabel(tr("Version:"), this), 1, 0);
    form->addWidget(m_version, 1, 1, 1, 2);
    form->addWidget(m_identity, 2, 1, 1, 2);
    form->addWidget(new QLabel(tr("Trusted root:"), this), 3, 0);
    form->addWidget(m_root, 3, 1);
    form->addWidget(m_browseRoot, 3, 2);
    form->addWidget(new QLabel(tr("Catalog version:"), this), 4, 0);
    form->addWidget(m_catalog, 4, 1, 1, 2);

    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setObjectName(QStringLiteral("releaseAssetModel"));
    m_model->setHorizontalHeaderLabels({tr("Asset"), tr("Kind"), tr("Status"), tr("Reason")});
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("releaseAssetTable"));
    m_table->setModel(m_model);
    setupTable(m_table);
    m_table->setWordWrap(true);
    m_table->setColumnWidth(AssetColumn, 250);
    m_table->setColumnWidth(KindColumn, 100);
    m_table->setColumnWidth(StatusColumn, 90);
    m_table->horizontalHeader()->setStretchLastSection(true);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("releaseProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    m_progressText = grayLabel("releaseProgressText", this);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("releaseSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_scope = grayLabel("releaseScope", this);
    m_scope->setWordWrap(true);
    m_scope->setText(ops::releaseScopeNote());

    m_verify = new QPushButton(tr("&Verify"), this);
    m_verify->setObjectName(QStringLiteral("releaseVerify"));
    m_verify->setDefault(true);
    m_cancel = new QPushButton(tr("&Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("releaseCancel"));
    m_cancel->setToolTip(tr("Stop the verification; nothing is recorded"));
    m_close = new QPushButton(tr("Close"), this);
    m_close->setObjectName(QStringLiteral("releaseClose"));

    connect(m_browseFolder, &QPushButton::clicked, this, &ReleaseVerifyDialog::browseFolder);
    connect(m_browseRoot, &QPushButton::clicked, this, &ReleaseVerifyDialog::browseRoot);
    connect(m_folder, &QLineEdit::editingFinished, this, [this] { setFolder(m_folder->text()); });
    connect(m_folder, &QLineEdit::textChanged, this, &ReleaseVerifyDialog::updateButtons);
    connect(m_version, &QLineEdit::textChanged, this, &ReleaseVerifyDialog::updateButtons);
    connect(m_verify, &QPushButton::clicked, this, [this] { startVerify(); });
    connect(m_cancel, &QPushButton::clicked, this, &ReleaseVerifyDialog::cancelVerify);
    connect(m_close, &QPushButton::clicked, this, &ReleaseVerifyDialog::reject);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_verify);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_progressText);
    layout->addWidget(m_summary);
    layout->addWidget(m_scope);
    layout->addLayout(buttons);
    resize(900, 620);
    updateButtons();
}

ReleaseVerifyDialog::~ReleaseVerifyDialog() {
    // A running verification stops at its next check and records nothing.
    m_task.cancel();
}

void ReleaseVerifyDialog::setFolder(const QString& path) {
    const QString clean = QDir::fromNativeSeparators(path.trimmed());
    if (m_folder->text() != QDir::toNativeSeparators(clean))
        m_folder->setText(QDir::toNativeSeparators(clean));
    const QString guessed = release::versionFromFolderName(QFileInfo(clean).fileName());
    if (!guessed.isEmpty() && m_version->text().trimmed().isEmpty())
        setVersion(guessed);
    updateButtons();
}

void ReleaseVerifyDialog::setVersion(const QString& version) {
    m_version->setText(version);
    updateButtons();
}

void ReleaseVerifyDialog::setTrustedRoot(const QString& path) {
    m_root->setText(QDir::toNativeSeparators(path));
}

void ReleaseVerifyDialog::setCatalogVersions(const QStringList& labels) {
    const QString current = m_catalog->currentData().toString();
    m_catalog->clear();
    m_catalog->addItem(tr("(none: the files in the release folder, if any)"), QString());
    for (const QString& l : labels)
        m_catalog->addItem(l, l);
    setCatalogVersion(current);
}

void ReleaseVerifyDialog::setCatalogVersion(const QString& label) {
    const int i = m_catalog->findData(label);
    m_catalog->setCurrentIndex(std::max(i, 0));
}

void ReleaseVerifyDialog::browseFolder() {
    const QString dir = chooseDirectory(this, tr("AICR Release Folder"), "releaseFolderChooser");
    if (!dir.isEmpty())
        setFolder(dir);
}

void ReleaseVerifyDialog::browseRoot() {
    QFileDialog dialog(this, tr("Choose a Sigstore trusted root"));
    dialog.setObjectName(QStringLiteral("releaseRootChooser"));
    dialog.setFileMode(QFileDialog::ExistingFile);
    dialog.setNameFilter(tr("Trusted root (*.json)"));
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
        setTrustedRoot(dialog.selectedFiles().constFirst());
}

QString ReleaseVerifyDialog::statusOf(const QString& asset) const {
    for (int r = 0; r < m_model->rowCount(); ++r)
        if (m_model->item(r, AssetColumn)->text() == asset)
            return m_model->item(r, StatusColumn)->text();
    return {};
}

QString ReleaseVerifyDialog::reasonOf(const QString& asset) const {
    for (int r = 0; r < m_model->rowCount(); ++r)
        if (m_model->item(r, AssetColumn)->text() == asset)
            return m_model->item(r, ReasonColumn)->text();
    return {};
}

bool ReleaseVerifyDialog::startVerify() {
    if (m_task.running())
        return false;
    ops::ReleaseVerifyRequest request;
    request.dir = QDir::fromNativeSeparators(m_folder->text().trimmed());
    request.version = m_version->text().trimmed();
    request.trustedRootPath = QDir::fromNativeSeparators(m_root->text().trimmed());
    request.catalogVersion = m_catalog->currentData().toString();
    if (request.dir.isEmpty() || !release::normalizeVersion(request.version))
        return false;
    m_lastError.clear();
    m_model->removeRows(0, m_model->rowCount());
    m_summary->clear();
    m_progress->setValue(0);
    m_progressText->setText(tr("Starting…"));
    m_task = m_workspace.run<ops::ReleaseVerifyOutcome>(
        this, [request](const ops::Context& ctx) { return ops::verifyRelease(ctx, request); },
        [this](const Result<ops::ReleaseVerifyOutcome>& r) {
            bool ok = false;
            if (!r) {
                m_lastError = r.error().toString();
                m_summary->setText(tr("Could not verify: %1").arg(m_lastError));
                m_summary->setStyleSheet(QStringLiteral("color: #b02020;"));
                m_progressText->setText(tr("Failed"));
            } else if (r->cancelled) {
                m_summary->setText(tr("Cancelled: nothing was recorded."));
                m_summary->setStyleSheet(QString());
                m_progressText->setText(tr("Cancelled"));
            } else {
                for (const ops::ReleaseAsset& a : r->assets) {
                    auto* name = new QStandardItem(a.name);
                    name->setToolTip(a.bundle.isEmpty() ? a.name
                                                        : tr("%1\nsigned by %2").arg(a.name, a.bundle));
                    auto* kind = new QStandardItem(a.kind);
                    auto* status = new QStandardItem(ops::assetStatusName(a.status));
                    status->setForeground(statusColor(a.status));
                    QFont bold = status->font();
                    bold.setBold(true);
                    status->setFont(bold);
                    auto* reason = new QStandardItem(a.reason);
                    QString tip = a.reason;
                    if (!a.expectedSha256.isEmpty())
                        tip += tr("\nexpected sha256:%1").arg(a.expectedSha256);
                    if (!a.foundSha256.isEmpty())
                        tip += tr("\nfound sha256:%1").arg(a.foundSha256);
                    reason->setToolTip(tip);
                    for (QStandardItem* item : {name, kind, status, reason})
                        item->setEditable(false);
                    m_model->appendRow({name, kind, status, reason});
                }
                m_table->resizeRowsToContents();
                QString text = r->summary();
                if (!r->boundVersions.isEmpty())
                    text +=
                        tr(". Catalog versions bound (registry and validator catalog signed by AICR %1): %2")
                            .arg(r->version, r->boundVersions.join(QStringLiteral(", ")));
                m_summary->setText(text);
                m_summary->setStyleSheet(r->ok() ? QStringLiteral("color: #1b7a3a;")
                                                 : QStringLiteral("color: #b02020;"));
                m_progress->setValue(1000);
                m_progressText->setText(tr("Done"));
                ok = r->ok();
                emit verified(r->version, r->boundVersions);
            }
            updateButtons();
            emit verificationFinished(ok);
        },
        [this](const ops::Progress& p) {
            if (p.total > 0)
                m_progress->setValue(static_cast<int>(std::clamp<qint64>(p.done * 1000 / p.total, 0, 1000)));
            m_progressText->setText(p.what);
        });
    updateButtons();
    return true;
}

void ReleaseVerifyDialog::cancelVerify() {
    if (!m_task.running())
        return;
    m_task.cancel();
    m_progressText->setText(tr("Cancelling…"));
    updateButtons();
}

void ReleaseVerifyDialog::reject() {
    if (m_task.running()) {
        cancelVerify();
        return;
    }
    QDialog::reject();
}

void ReleaseVerifyDialog::updateButtons() {
    const bool running = m_task.running();
    const QString version = m_version->text().trimmed();
    auto normalized = release::normalizeVersion(version);
    if (version.isEmpty())
        m_identity->setText(tr("The signer is pinned to NVIDIA's tag workflow for this version."));
    else if (!normalized)
        m_identity->setText(tr("Not a release version: expected vX.Y.Z."));
    else
        m_identity->setText(tr("Signer: %1\nIssuer: %2")
                                .arg(release::tagIdentity(*normalized), QLatin1String(release::kIssuer)));
    m_verify->setEnabled(!running && !m_folder->text().trimmed().isEmpty() && normalized.ok());
    m_cancel->setEnabled(running && !m_task.cancelFlag()->load());
    for (QWidget* w : std::initializer_list<QWidget*>{m_folder, m_browseFolder, m_version, m_root,
                                                      m_browseRoot, m_catalog})
        w->setEnabled(!running);
}

} // namespace pb::widgets
