#include "VerifyPane.h"
#include "OpRunner.h"
#include "TufUpdateDialog.h"

#include "Plural.h"
#include "TableSetup.h"
#include "WidgetUtil.h"
#include "core/Files.h"
#include "ops/Verify.h"
#include "sigstore/Bundle.h"
#include "sigstore/TrustedRoot.h"

#include <QAbstractItemView>
#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTextEdit>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <vector>

namespace pb::widgets {

using models::StepStyle;
using sigstore::StepState;

namespace {

// Banner states.
constexpr int kBannerNeutral = 0, kBannerPassed = 1, kBannerFailed = 2;
// Trusted-root combo item data besides the id.
constexpr int kRootNameRole = Qt::UserRole + 1, kRootDefaultRole = Qt::UserRole + 2,
              kRootProvenanceRole = Qt::UserRole + 3;

// The part of `a` that differs from `b` (common prefix and suffix trimmed), emphasised; HTML.
QString markDifference(const QString& a, const QString& b, const QString& color) {
    qsizetype prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const QString mid = a.mid(prefix, a.size() - prefix - suffix);
    QString html = a.left(prefix).toHtmlEscaped();
    if (!mid.isEmpty())
        html += QStringLiteral("<span style='background-color:%1; font-weight:bold'>%2</span>")
                    .arg(color, mid.toHtmlEscaped());
    else if (a != b)
        html +=
            QStringLiteral("<span style='background-color:%1'>&#8203;&nbsp;</span>").arg(color); // missing
    html += a.right(suffix).toHtmlEscaped();
    return html;
}

// Expected or found, line by line, each line's difference from the other side's line marked.
QString comparisonHtml(const QString& self, const QString& other, const QString& color) {
    const QStringList mine = self.split(QLatin1Char('\n'));
    const QStringList theirs = other.split(QLatin1Char('\n'));
    QStringList lines;
    for (qsizetype i = 0; i < mine.size(); ++i) {
        const QString& line = mine[i];
        const QString counterpart = i < theirs.size() ? theirs[i] : QString();
        // "identity: X" against "identity: Y": the label is not part of the difference.
        const qsizetype colon = line.indexOf(QLatin1String(": "));
        if (colon > 0 && colon < 40 && counterpart.startsWith(line.left(colon + 2)))
            lines << QStringLiteral("<span style='color:gray'>%1</span>")
                             .arg(line.left(colon + 1).toHtmlEscaped()) +
                         QStringLiteral(" ") +
                         markDifference(line.mid(colon + 2), counterpart.mid(colon + 2), color);
        else
            lines << markDifference(line, counterpart, color);
    }
    return QStringLiteral("<div style='white-space:pre-wrap'>%1</div>")
        .arg(lines.join(QStringLiteral("<br>")));
}

// Read-only rich text as tall as its content (up to eight lines, then it scrolls), wrapping
// anywhere: digests and URLs have no spaces to wrap at.
class FittedText : public QTextEdit {
  public:
    explicit FittedText(QWidget* parent) : QTextEdit(parent) {
        setReadOnly(true);
        setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        document()->setDocumentMargin(4);
        connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
                [this] { fit(); });
        fit();
    }

  protected:
    void resizeEvent(QResizeEvent* event) override {
        QTextEdit::resizeEvent(event);
        fit();
    }

  private:
    void fit() {
        const int line = fontMetrics().lineSpacing();
        const int content = static_cast<int>(std::ceil(document()->size().height()));
        setFixedHeight(std::clamp(content, line + 8, 8 * line + 8) + 2 * frameWidth());
    }
};

// Columns at their natural width; when that is too wide for the view, the listed columns give way
// in turn (each down to its minimum, eliding). The last column takes what is left.
void fitColumnsInOrder(QTableView* t, std::initializer_list<std::pair<int, int>> giveWay) {
    QHeaderView* h = t->horizontalHeader();
    const int n = h->count();
    if (n == 0)
        return;
    std::vector<int> w(static_cast<size_t>(n));
    int total = 0;
    for (int c = 0; c < n; ++c) {
        w[static_cast<size_t>(c)] =
            std::max(static_cast<QAbstractItemView*>(t)->sizeHintForColumn(c), h->sectionSizeHint(c)) + 6;
        total += w[static_cast<size_t>(c)];
    }
    const int avail = t->viewport()->width();
    for (const auto& [column, minWidth] : giveWay) {
        if (avail <= 0 || total <= avail)
            break;
        int& cw = w[static_cast<size_t>(column)];
        const int cut = std::min(cw - std::min(cw, minWidth), total - avail);
        cw -= cut;
        total -= cut;
    }
    for (int c = 0; c < n - 1; ++c)
        h->resizeSection(c, w[static_cast<size_t>(c)]);
    h->resizeSection(
        n - 1, std::max(w[static_cast<size_t>(n - 1)], avail - (total - w[static_cast<size_t>(n - 1)])));
}

QLabel* selectableLabel(const char* name, QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setObjectName(QLatin1String(name));
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    return l;
}

} // namespace

// A verification run on the worker, and the history read after it.
struct VerifyPane::VerifyRun {
    ops::VerifyOutcome outcome;
    Result<std::vector<models::StoredVerification>> history;
};

VerifyPane::VerifyPane(models::Workspace& workspace, QWidget* parent)
    : QWidget(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("verifyPane"));
    m_steps = new models::VerificationStepsModel(this);
    m_steps->setObjectName(QStringLiteral("verificationStepsModel"));
    m_extensions = new models::CertificateExtensionsModel(this);
    m_extensions->setObjectName(QStringLiteral("certificateExtensionsModel"));
    m_logEntries = new models::LogEntriesModel(this);
    m_logEntries->setObjectName(QStringLiteral("logEntriesModel"));
    m_timestamps = new models::TimestampsModel(this);
    m_timestamps->setObjectName(QStringLiteral("timestampsModel"));
    m_history = new models::VerificationHistoryModel(this);
    m_history->setObjectName(QStringLiteral("verificationHistoryModel"));

    auto* left = new QWidget(this);
    left->setObjectName(QStringLiteral("verifyLeft"));
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(8);
    leftLayout->addWidget(buildInputs());
    leftLayout->addWidget(buildHistory(), 1);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("verifySplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(left);
    split->addWidget(buildResults());
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({450, 950});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 6, 4);
    layout->addWidget(split);

    updateModes();
    reloadTrustedRoots();
    reloadHistory();
    showVerdict(QString(), QString(), kBannerNeutral);
}

VerifyPane::~VerifyPane() = default; // a job still running delivers nothing once the pane is gone

// --- Building -----------------------------------------------------------------------------------

QWidget* VerifyPane::buildInputs() {
    QGroupBox* box = group(tr("Verify a Sigstore bundle"), "verifyInputs", this);
    QGridLayout* grid = inputGrid(box);
    int row = 0;
    addBundleRow(box, grid, row);
    addArtifactRows(box, grid, row);
    addSignerRows(box, grid, row);
    addTrustedRootRows(box, grid, row);
    addActionRows(box, grid, row);
    for (QLineEdit* e : {m_bundlePath, m_artifactPath, m_digest, m_identity, m_issuer, m_keyPath})
        connect(e, &QLineEdit::returnPressed, this, [this] { verify(); });
    for (QRadioButton* r : {m_artifactFileMode, m_artifactDigestMode, m_identityMode, m_keyMode})
        connect(r, &QRadioButton::toggled, this, [this] { updateModes(); });
    return box;
}

void VerifyPane::addBundleRow(QGroupBox* box, QGridLayout* grid, int& row) {
    // Bundle.
    m_bundlePath = new QLineEdit(box);
    m_bundlePath->setObjectName(QStringLiteral("verifyBundlePath"));
    m_bundlePath->setPlaceholderText(tr("artifact.sigstore.json — or drop it on the window"));
    m_bundlePath->setClearButtonEnabled(true);
    m_bundlePath->setToolTip(tr("The Sigstore bundle (v0.1, v0.2 or v0.3, message signature or DSSE)"));
    auto* bundleBrowse = browseButton("verifyBrowseBundle", tr("Choose the bundle file"), box);
    connect(bundleBrowse, &QPushButton::clicked, this, &VerifyPane::browseBundle);
    auto* bundleLabel = new QLabel(tr("&Bundle:"), box);
    bundleLabel->setBuddy(m_bundlePath);
    grid->addWidget(bundleLabel, row, 0);
    grid->addWidget(m_bundlePath, row, 1);
    grid->addWidget(bundleBrowse, row, 2);
    ++row;
}

void VerifyPane::addArtifactRows(QGroupBox* box, QGridLayout* grid, int& row) {
    // Artifact: the file, or only its digest.
    m_artifactFileMode = new QRadioButton(tr("File"), box);
    m_artifactFileMode->setObjectName(QStringLiteral("verifyArtifactFileMode"));
    m_artifactFileMode->setToolTip(tr("Hash the artifact file (it is read, never changed)"));
    m_artifactDigestMode = new QRadioButton(tr("Digest only"), box);
    m_artifactDigestMode->setObjectName(QStringLiteral("verifyArtifactDigestMode"));
    m_artifactDigestMode->setToolTip(
        tr("Verify against the artifact's SHA-256 digest when the file is not at hand"));
    grid->addWidget(new QLabel(tr("Artifact:"), box), row, 0);
    grid->addLayout(choiceRow(box, {m_artifactFileMode, m_artifactDigestMode}), row, 1, 1, 2);
    ++row;

    m_artifactStack = new QStackedWidget(box);
    m_artifactStack->setObjectName(QStringLiteral("verifyArtifactStack"));
    auto* filePage = new QWidget(m_artifactStack);
    auto* fileRow = new QHBoxLayout(filePage);
    fileRow->setContentsMargins(0, 0, 0, 0);
    fileRow->setSpacing(6);
    m_artifactPath = new QLineEdit(filePage);
    m_artifactPath->setObjectName(QStringLiteral("verifyArtifactPath"));
    m_artifactPath->setPlaceholderText(tr("the signed file"));
    m_artifactPath->setClearButtonEnabled(true);
    auto* artifactBrowse = browseButton("verifyBrowseArtifact", tr("Choose the signed artifact"), filePage);
    connect(artifactBrowse, &QPushButton::clicked, this, &VerifyPane::browseArtifact);
    fileRow->addWidget(m_artifactPath, 1);
    fileRow->addWidget(artifactBrowse);
    auto* digestPage = new QWidget(m_artifactStack);
    auto* digestRow = new QHBoxLayout(digestPage);
    digestRow->setContentsMargins(0, 0, 0, 0);
    m_digest = new QLineEdit(digestPage);
    m_digest->setObjectName(QStringLiteral("verifyDigest"));
    m_digest->setPlaceholderText(tr("sha256:<64 hex digits>"));
    m_digest->setClearButtonEnabled(true);
    digestRow->addWidget(m_digest, 1);
    m_artifactStack->addWidget(filePage);
    m_artifactStack->addWidget(digestPage);
    m_artifactStack->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    grid->addWidget(m_artifactStack, row, 1, 1, 2);
    ++row;
}

void VerifyPane::addSignerRows(QGroupBox* box, QGridLayout* grid, int& row) {
    // Signer: certificate identity and issuer, or a public key.
    m_identityMode = new QRadioButton(tr("Certificate identity"), box);
    m_identityMode->setObjectName(QStringLiteral("verifyIdentityMode"));
    m_identityMode->setToolTip(tr("Keyless: the Fulcio certificate must name this identity and OIDC issuer"));
    m_keyMode = new QRadioButton(tr("Public key"), box);
    m_keyMode->setObjectName(QStringLiteral("verifyKeyMode"));
    m_keyMode->setToolTip(tr("The bundle must be signed by this key (PEM); its key hint is not trusted"));
    grid->addWidget(new QLabel(tr("Signer:"), box), row, 0);
    grid->addLayout(choiceRow(box, {m_identityMode, m_keyMode}), row, 1, 1, 2);
    ++row;

    m_signerStack = new QStackedWidget(box);
    m_signerStack->setObjectName(QStringLiteral("verifySignerStack"));
    auto* identityPage = new QWidget(m_signerStack);
    QGridLayout* identityGrid = inputGrid(identityPage, true);
    m_identity = new QLineEdit(identityPage);
    m_identity->setObjectName(QStringLiteral("verifyIdentity"));
    m_identity->setPlaceholderText(tr("https://github.com/org/repo/.github/workflows/x.yml@refs/heads/main"));
    m_identity->setClearButtonEnabled(true);
    m_identity->setToolTip(tr("--certificate-identity: the certificate's SAN (URI or email), exactly;\n"
                              "with “regexp”, --certificate-identity-regexp (unanchored, as cosign)"));
    m_identityRegexp = new QCheckBox(tr("regexp"), identityPage);
    m_identityRegexp->setObjectName(QStringLiteral("verifyIdentityRegexp"));
    m_identityRegexp->setToolTip(tr("Match the identity as a regular expression"));
    m_issuer = new QLineEdit(identityPage);
    m_issuer->setObjectName(QStringLiteral("verifyIssuer"));
    m_issuer->setPlaceholderText(tr("https://token.actions.githubusercontent.com"));
    m_issuer->setClearButtonEnabled(true);
    m_issuer->setToolTip(tr("--certificate-oidc-issuer: the OIDC issuer in the certificate, exactly;\n"
                            "with “regexp”, --certificate-oidc-issuer-regexp"));
    m_issuerRegexp = new QCheckBox(tr("regexp"), identityPage);
    m_issuerRegexp->setObjectName(QStringLiteral("verifyIssuerRegexp"));
    m_issuerRegexp->setToolTip(tr("Match the issuer as a regular expression"));
    auto* identityLabel = new QLabel(tr("&Identity:"), identityPage);
    identityLabel->setBuddy(m_identity);
    auto* issuerLabel = new QLabel(tr("Iss&uer:"), identityPage);
    issuerLabel->setBuddy(m_issuer);
    identityGrid->addWidget(identityLabel, 0, 0);
    identityGrid->addWidget(m_identity, 0, 1);
    identityGrid->addWidget(m_identityRegexp, 0, 2);
    identityGrid->addWidget(issuerLabel, 1, 0);
    identityGrid->addWidget(m_issuer, 1, 1);
    identityGrid->addWidget(m_issuerRegexp, 1, 2);
    auto* keyPage = new QWidget(m_signerStack);
    m_keyPath = new QLineEdit(keyPage);
    m_keyPath->setObjectName(QStringLiteral("verifyKeyPath"));
    m_keyPath->setPlaceholderText(tr("cosign.pub (PEM)"));
    m_keyPath->setClearButtonEnabled(true);
    auto* keyBrowse = browseButton("verifyBrowseKey", tr("Choose the public key (PEM)"), keyPage);
    connect(keyBrowse, &QPushButton::clicked, this, &VerifyPane::browseKey);
    m_ignoreTlog = new QCheckBox(tr("No transparency-log entry needed"), keyPage);
    m_ignoreTlog->setObjectName(QStringLiteral("verifyIgnoreTlog"));
    m_ignoreTlog->setToolTip(
        tr("--insecure-ignore-tlog: accept a key-signed bundle without a Rekor entry (signed "
           "offline).\nEntries that are present are still verified."));
    QGridLayout* keyGrid = inputGrid(keyPage, true);
    auto* keyLabel = new QLabel(tr("&Key:"), keyPage);
    keyLabel->setBuddy(m_keyPath);
    keyGrid->addWidget(keyLabel, 0, 0);
    keyGrid->addWidget(m_keyPath, 0, 1);
    keyGrid->addWidget(keyBrowse, 0, 2);
    keyGrid->addWidget(m_ignoreTlog, 1, 1, 1, 2);
    m_signerStack->addWidget(identityPage);
    m_signerStack->addWidget(keyPage);
    grid->addWidget(m_signerStack, row, 1, 1, 2);
    ++row;
}

void VerifyPane::addTrustedRootRows(QGroupBox* box, QGridLayout* grid, int& row) {
    // Trusted root: stored in the database; the last imported is the default.
    m_trustedRoot = new QComboBox(box);
    m_trustedRoot->setObjectName(QStringLiteral("verifyTrustedRoot"));
    m_trustedRoot->view()->setObjectName(QStringLiteral("verifyTrustedRootList"));
    m_trustedRoot->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_trustedRoot->setMinimumContentsLength(12);
    m_trustedRoot->setToolTip(
        tr("Trusted roots stored in the database (trusted_root.json: Fulcio CAs, Rekor logs, "
           "CT logs, timestamp authorities).\nThe one imported last is the default."));
    m_importRoot = new QPushButton(tr("Import…"), box);
    m_importRoot->setObjectName(QStringLiteral("verifyImportRoot"));
    m_importRoot->setToolTip(tr("Import a trusted_root.json into the database and make it the default"));
    connect(m_importRoot, &QPushButton::clicked, this, &VerifyPane::importTrustedRootInteractive);
    auto* rootLabel = new QLabel(tr("&Trusted root:"), box);
    rootLabel->setBuddy(m_trustedRoot);
    grid->addWidget(rootLabel, row, 0);
    grid->addWidget(m_trustedRoot, row, 1);
    grid->addWidget(m_importRoot, row, 2);
    ++row;
    // Where the selected root came from, and the TUF update (issue #19).
    m_rootProvenance = new QLabel(box);
    m_rootProvenance->setObjectName(QStringLiteral("verifyRootProvenance"));
    m_rootProvenance->setWordWrap(true);
    m_rootProvenance->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_rootProvenance->setStyleSheet(QStringLiteral("color: palette(placeholder-text);"));
    m_tufUpdate = new QPushButton(tr("From TUF…"), box);
    m_tufUpdate->setObjectName(QStringLiteral("verifyTufUpdate"));
    m_tufUpdate->setToolTip(
        tr("Update from a TUF repository…: take trusted_root.json from a TUF repository copy, verified "
           "offline from a pinned root, and make it the default"));
    connect(m_tufUpdate, &QPushButton::clicked, this, [this] { openTufUpdate(); });
    connect(m_trustedRoot, &QComboBox::currentIndexChanged, this, &VerifyPane::showRootProvenance);
    grid->addWidget(m_rootProvenance, row, 1);
    grid->addWidget(m_tufUpdate, row, 2, Qt::AlignTop);
    ++row;
}

void VerifyPane::addActionRows(QGroupBox* box, QGridLayout* grid, int& row) {
    // Verify, busy, and the message when an input is missing.
    m_verifyButton = new QPushButton(tr("&Verify"), box);
    m_verifyButton->setObjectName(QStringLiteral("verifyButton"));
    m_verifyButton->setDefault(true);
    m_verifyButton->setToolTip(tr("Verify offline and store the result (Enter)"));
    m_verifyButton->setMinimumWidth(110);
    connect(m_verifyButton, &QPushButton::clicked, this, [this] { verify(); });
    m_busy = new QProgressBar(box);
    m_busy->setObjectName(QStringLiteral("verifyBusy"));
    m_busy->setRange(0, 0);
    m_busy->setTextVisible(false);
    m_busy->setMaximumHeight(m_verifyButton->sizeHint().height() / 2);
    m_busy->hide();
    auto* actionRow = new QHBoxLayout;
    actionRow->setSpacing(8);
    actionRow->addWidget(m_verifyButton);
    actionRow->addWidget(m_busy, 1);
    actionRow->addStretch(0);
    grid->addLayout(actionRow, row, 1, 1, 2);
    ++row;
    m_message = selectableLabel("verifyMessage", box);
    m_message->hide();
    grid->addWidget(m_message, row, 0, 1, 3);
    ++row;

    m_copyCommand = new QPushButton(tr("Copy as proofbench command"), box);
    m_copyCommand->setObjectName(QStringLiteral("verifyCopyCommand"));
    m_copyCommand->setToolTip(tr("The same check as a `proofbench verify` command line, on the clipboard"));
    connect(m_copyCommand, &QPushButton::clicked, this, &VerifyPane::copyProofbenchCommand);
    m_copyCosign = new QPushButton(tr("Copy as cosign command"), box);
    m_copyCosign->setObjectName(QStringLiteral("verifyCopyCosign"));
    m_copyCosign->setToolTip(tr("The same check as a `cosign verify-blob` (or verify-blob-attestation) "
                                "command line, on the clipboard"));
    connect(m_copyCosign, &QPushButton::clicked, this, &VerifyPane::copyCosignCommand);
    auto* copyRow = new QHBoxLayout;
    copyRow->setSpacing(6);
    copyRow->addWidget(m_copyCommand, 1);
    copyRow->addWidget(m_copyCosign, 1);
    grid->addLayout(copyRow, row, 0, 1, 3);
}

QWidget* VerifyPane::buildHistory() {
    QGroupBox* box = group(tr("History"), "verifyHistoryGroup", this);
    auto* l = new QVBoxLayout(box);
    l->setSpacing(4);
    m_historyTitle = new QLabel(box);
    m_historyTitle->setObjectName(QStringLiteral("verifyHistoryTitle"));
    m_historyTitle->setStyleSheet(QStringLiteral("color: gray;"));
    m_historyView = new QTableView(box);
    m_historyView->setObjectName(QStringLiteral("verifyHistory"));
    m_historyView->setModel(m_history);
    setupTable(m_historyView);
    m_historyView->setTextElideMode(Qt::ElideRight);
    m_historyView->setColumnHidden(models::VerificationHistoryModel::SignerColumn, true);
    m_historyView->setToolTip(
        tr("Verifications stored in the database, newest first; select one to see it again"));
    connect(m_historyView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    showStored(current.data(models::VerificationHistoryModel::IdRole).toLongLong());
            });
    l->addWidget(m_historyTitle);
    l->addWidget(m_historyView, 1);
    return box;
}

QWidget* VerifyPane::buildResults() {
    m_resultStack = new QStackedWidget(this);
    m_resultStack->setObjectName(QStringLiteral("verifyResultStack"));
    m_placeholder = new QLabel(m_resultStack);
    m_placeholder->setObjectName(QStringLiteral("verifyPlaceholder"));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setStyleSheet(QStringLiteral("color: gray;"));
    m_placeholder->setText(
        tr("Choose a bundle, the artifact (or its digest), the signer and a trusted root, then Verify.\n\n"
           "Or drop a .sigstore.json anywhere on the window.\n\nNothing is fetched from the network: "
           "every check uses the trusted root stored in the database."));

    auto* page = new QWidget(m_resultStack);
    page->setObjectName(QStringLiteral("verifyResultPage"));

    buildVerdictBanner(page);
    QWidget* stepsBox = buildStepsGroup(page);
    buildCertificateGroup(page);

    m_topSplitter = new QSplitter(Qt::Horizontal, page);
    m_topSplitter->setObjectName(QStringLiteral("verifyTopSplitter"));
    m_topSplitter->setChildrenCollapsible(false);
    m_topSplitter->addWidget(stepsBox);
    m_topSplitter->addWidget(m_certificate);
    m_topSplitter->setStretchFactor(0, 1);
    m_topSplitter->setStretchFactor(1, 1);

    buildStepDetail(page);
    buildLogGroups(page);

    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->setSpacing(6);
    pageLayout->addWidget(m_banner);
    pageLayout->addWidget(m_topSplitter, 1);
    pageLayout->addWidget(m_stepDetail);
    pageLayout->addWidget(m_logGroup);
    pageLayout->addWidget(m_timestampGroup);

    m_resultStack->addWidget(m_placeholder);
    m_resultStack->addWidget(page);
    return m_resultStack;
}

void VerifyPane::buildVerdictBanner(QWidget* page) {
    // Verdict banner.
    m_banner = bannerFrame("verifyVerdictBanner", page);
    m_verdictIcon = new QLabel(m_banner);
    m_verdictIcon->setObjectName(QStringLiteral("verifyVerdictIcon"));
    m_verdict = bannerHeadline("verifyVerdict", 1.35, m_banner);
    m_verdictSummary = selectableLabel("verifyVerdictSummary", m_banner);
    m_verdictFacts = selectableLabel("verifyVerdictFacts", m_banner);
    m_verdictFacts->setTextFormat(Qt::RichText);
    // Long identities and paths wrap instead of widening the window.
    for (QLabel* l : {m_verdict, m_verdictSummary, m_verdictFacts})
        l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layOutBanner(m_banner, m_verdictIcon, {m_verdict, m_verdictSummary, m_verdictFacts});
}

QWidget* VerifyPane::buildStepsGroup(QWidget* page) {
    // Steps.
    auto* stepsBox = group(tr("Steps"), "verifyStepsGroup", page);
    m_stepsView = new QTableView(stepsBox);
    m_stepsView->setObjectName(QStringLiteral("verifySteps"));
    m_stepsView->setModel(m_steps);
    setupTable(m_stepsView);
    m_stepsView->setTextElideMode(Qt::ElideRight);
    m_stepsView->setToolTip(QString());
    connect(m_stepsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { showStepDetail(); });
    m_stepsTitle = new QLabel(stepsBox);
    m_stepsTitle->setObjectName(QStringLiteral("verifyStepsTitle"));
    m_stepsTitle->setStyleSheet(QStringLiteral("color: gray;"));
    auto* stepsLayout = new QVBoxLayout(stepsBox);
    stepsLayout->setSpacing(4);
    stepsLayout->addWidget(m_stepsTitle);
    stepsLayout->addWidget(m_stepsView, 1);
    return stepsBox;
}

void VerifyPane::buildCertificateGroup(QWidget* page) {
    // Certificate.
    m_certificate = group(tr("Certificate"), "verifyCertificate", page);
    m_certMessage = new QLabel(m_certificate);
    m_certMessage->setObjectName(QStringLiteral("verifyCertificateMessage"));
    m_certMessage->setWordWrap(true);
    m_certMessage->setStyleSheet(QStringLiteral("color: gray;"));
    m_certMessage->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_certFields = new QWidget(m_certificate);
    auto* form = new QFormLayout(m_certFields);
    form->setContentsMargins(0, 0, 0, 0);
    form->setHorizontalSpacing(10);
    form->setVerticalSpacing(3);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    const std::pair<const char*, QString> fields[] = {
        {"san", tr("Identity (SAN)")}, {"oidcIssuer", tr("OIDC issuer")}, {"subject", tr("Subject")},
        {"issuer", tr("Issuer")},      {"validity", tr("Valid")},         {"serial", tr("Serial")},
    };
    for (const auto& [key, title] : fields) {
        QLabel* value = selectableLabel(QByteArray("verifyCert") + QByteArray(key).left(1).toUpper() +
                                            QByteArray(key).mid(1),
                                        m_certFields);
        value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        auto* name = new QLabel(title, m_certFields);
        name->setStyleSheet(QStringLiteral("color: gray;"));
        form->addRow(name, value);
        m_certLabels[QLatin1String(key)] = value;
    }
    m_extensionsView = new QTableView(m_certificate);
    m_extensionsView->setObjectName(QStringLiteral("verifyCertExtensions"));
    m_extensionsView->setModel(m_extensions);
    setupTable(m_extensionsView);
    m_extensionsView->setTextElideMode(Qt::ElideRight);
    auto* certLayout = new QVBoxLayout(m_certificate);
    certLayout->setSpacing(6);
    certLayout->addWidget(m_certMessage);
    certLayout->addWidget(m_certFields);
    certLayout->addWidget(m_extensionsView, 1);
}

void VerifyPane::buildStepDetail(QWidget* page) {
    // The selected step in full: what it checked, and what was expected and found side by side.
    m_stepDetail = new QFrame(page);
    m_stepDetail->setObjectName(QStringLiteral("verifyStepDetail"));
    m_stepDetail->setFrameShape(QFrame::StyledPanel);
    m_stepTitle = selectableLabel("verifyStepTitle", m_stepDetail);
    QFont bold = m_stepTitle->font();
    bold.setBold(true);
    m_stepTitle->setFont(bold);
    m_stepText = selectableLabel("verifyStepText", m_stepDetail);
    m_stepText->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_comparison = new QWidget(m_stepDetail);
    m_comparison->setObjectName(QStringLiteral("verifyComparison"));
    auto makeSide = [this](const QString& title, const char* name, QTextEdit** text) {
        auto* side = new QWidget(m_comparison);
        side->setObjectName(QLatin1String(name) + QStringLiteral("Side"));
        auto* heading = new QLabel(title, side);
        heading->setStyleSheet(QStringLiteral("color: gray;"));
        *text = new FittedText(side);
        (*text)->setObjectName(QLatin1String(name));
        auto* sl = new QVBoxLayout(side);
        sl->setContentsMargins(0, 0, 0, 0);
        sl->setSpacing(2);
        sl->addWidget(heading);
        sl->addWidget(*text);
        return side;
    };
    auto* cmp = new QHBoxLayout(m_comparison);
    cmp->setContentsMargins(0, 2, 0, 0);
    cmp->setSpacing(10);
    cmp->addWidget(makeSide(tr("Expected (the policy you gave)"), "verifyExpected", &m_expected), 1);
    cmp->addWidget(makeSide(tr("Found (in the bundle)"), "verifyFound", &m_found), 1);
    auto* dl = new QVBoxLayout(m_stepDetail);
    dl->setContentsMargins(10, 6, 10, 6);
    dl->setSpacing(3);
    dl->addWidget(m_stepTitle);
    dl->addWidget(m_stepText);
    dl->addWidget(m_comparison);
}

void VerifyPane::buildLogGroups(QWidget* page) {
    // Log entries and timestamps: a few rows each, the tables as tall as their rows.
    m_logGroup = group(tr("Transparency log"), "verifyLogGroup", page);
    m_logView = new QTableView(m_logGroup);
    m_logView->setObjectName(QStringLiteral("verifyLogEntries"));
    m_logView->setModel(m_logEntries);
    setupTable(m_logView);
    m_logMessage = new QLabel(m_logGroup);
    m_logMessage->setObjectName(QStringLiteral("verifyLogMessage"));
    m_logMessage->setStyleSheet(QStringLiteral("color: gray;"));
    m_logMessage->setWordWrap(true);
    auto* logLayout = new QVBoxLayout(m_logGroup);
    logLayout->addWidget(m_logMessage);
    logLayout->addWidget(m_logView);
    m_timestampGroup = group(tr("Timestamps"), "verifyTimestampGroup", page);
    m_timestampView = new QTableView(m_timestampGroup);
    m_timestampView->setObjectName(QStringLiteral("verifyTimestamps"));
    m_timestampView->setModel(m_timestamps);
    setupTable(m_timestampView);
    m_timestampView->setTextElideMode(Qt::ElideRight);
    m_timestampMessage = new QLabel(m_timestampGroup);
    m_timestampMessage->setObjectName(QStringLiteral("verifyTimestampMessage"));
    m_timestampMessage->setStyleSheet(QStringLiteral("color: gray;"));
    m_timestampMessage->setWordWrap(true);
    auto* tsLayout = new QVBoxLayout(m_timestampGroup);
    tsLayout->addWidget(m_timestampMessage);
    tsLayout->addWidget(m_timestampView);
}

// --- Inputs -------------------------------------------------------------------------------------

QString VerifyPane::bundlePath() const {
    return m_bundlePath->text().trimmed();
}

void VerifyPane::setBundlePath(const QString& path) {
    m_bundlePath->setText(QDir::toNativeSeparators(path));
}

void VerifyPane::setArtifactPath(const QString& path) {
    m_artifactFileMode->setChecked(true);
    m_artifactPath->setText(QDir::toNativeSeparators(path));
}

void VerifyPane::setArtifactDigest(const QString& digest) {
    m_artifactDigestMode->setChecked(true);
    m_digest->setText(digest);
}

void VerifyPane::setIdentity(const QString& identity, const QString& issuer, bool identityRegexp,
                             bool issuerRegexp) {
    m_identityMode->setChecked(true);
    m_identity->setText(identity);
    m_issuer->setText(issuer);
    m_identityRegexp->setChecked(identityRegexp);
    m_issuerRegexp->setChecked(issuerRegexp);
}

void VerifyPane::setKeyPath(const QString& path) {
    m_keyMode->setChecked(true);
    m_keyPath->setText(QDir::toNativeSeparators(path));
}

bool VerifyPane::selectTrustedRoot(qint64 id) {
    const int i = m_trustedRoot->findData(id);
    if (i < 0)
        return false;
    m_trustedRoot->setCurrentIndex(i);
    return true;
}

qint64 VerifyPane::selectedTrustedRoot() const {
    return m_trustedRoot->currentData().toLongLong();
}

void VerifyPane::updateModes() {
    m_artifactStack->setCurrentIndex(m_artifactDigestMode->isChecked() ? 1 : 0);
    m_signerStack->setCurrentIndex(m_keyMode->isChecked() ? 1 : 0);
    // The stacks are as tall as their page on view.
    for (QStackedWidget* s : {m_artifactStack, m_signerStack})
        fitToCurrentPage(s);
}

models::VerifyRequest VerifyPane::request() const {
    models::VerifyRequest r;
    r.bundlePath = bundlePath();
    r.digestMode = m_artifactDigestMode->isChecked();
    r.artifactPath = m_artifactPath->text().trimmed();
    r.digest = m_digest->text().trimmed();
    r.keyMode = m_keyMode->isChecked();
    r.identity = m_identity->text().trimmed();
    r.identityRegexp = m_identityRegexp->isChecked();
    r.issuer = m_issuer->text().trimmed();
    r.issuerRegexp = m_issuerRegexp->isChecked();
    r.keyPath = m_keyPath->text().trimmed();
    r.ignoreTlog = m_ignoreTlog->isChecked();
    r.trustedRootPath = trustedRootPath(selectedTrustedRoot());
    r.trustedRootName = m_trustedRoot->currentData(kRootNameRole).toString();
    r.trustedRootIsDefault = m_trustedRoot->currentData(kRootDefaultRole).toBool();
    r.databasePath = QDir::toNativeSeparators(m_workspace.path());
    return r;
}

QString VerifyPane::trustedRootPath(qint64 id) const {
    // Imported in an earlier session: the database keeps the bytes and the file's name, not its path.
    auto it = m_rootPaths.find(id);
    return it == m_rootPaths.end() ? QString() : QDir::toNativeSeparators(it->second);
}

bool VerifyPane::bundleIsDsse(const QString& path) const {
    if (m_hasResult && m_result.bundleFile == path && !m_result.mediaType.isEmpty())
        return !m_result.predicateType.isEmpty() || !m_result.statement.isEmpty();
    if (path.isEmpty())
        return false;
    Result<QByteArray> bytes = readFileLimited(path, limits::kDocumentFile, QStringLiteral("bundle"));
    if (!bytes)
        return false;
    Result<sigstore::Bundle> b = sigstore::parseBundle(*bytes, path);
    return b && b->isDsse;
}

QString VerifyPane::proofbenchCommand() const {
    return models::shellJoin(models::proofbenchArguments(request()));
}

QString VerifyPane::cosignCommand() const {
    models::VerifyRequest r = request();
    r.dsse = bundleIsDsse(r.bundlePath); // an attestation: cosign verify-blob-attestation
    return models::shellJoin(models::cosignArguments(r));
}

void VerifyPane::copyProofbenchCommand() {
    const QString command = proofbenchCommand();
    QGuiApplication::clipboard()->setText(command);
    showMessage(tr("Copied: %1").arg(command), false);
}

void VerifyPane::copyCosignCommand() {
    const QString command = cosignCommand();
    QGuiApplication::clipboard()->setText(command);
    showMessage(tr("Copied: %1").arg(command), false);
}

void VerifyPane::showMessage(const QString& text, bool error) {
    m_message->setText(text);
    m_message->setStyleSheet(
        error ? QStringLiteral("color: %1;").arg(StepStyle::color(StepState::Failed).name())
              : QStringLiteral("color: gray;"));
    m_message->setVisible(!text.isEmpty());
}

void VerifyPane::browseBundle() {
    QFileDialog dialog(this, tr("Choose a Sigstore bundle"));
    dialog.setObjectName(QStringLiteral("verifyBundleDialog"));
    dialog.setFileMode(QFileDialog::ExistingFile);
    dialog.setNameFilters(
        {tr("Sigstore bundles (*.sigstore.json *.sigstore *.json *.jsonl)"), tr("All files (*)")});
    if (!bundlePath().isEmpty())
        dialog.selectFile(bundlePath());
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
        setBundlePath(dialog.selectedFiles().constFirst());
}

void VerifyPane::browseArtifact() {
    QFileDialog dialog(this, tr("Choose the signed artifact"));
    dialog.setObjectName(QStringLiteral("verifyArtifactDialog"));
    dialog.setFileMode(QFileDialog::ExistingFile);
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
        setArtifactPath(dialog.selectedFiles().constFirst());
}

void VerifyPane::browseKey() {
    QFileDialog dialog(this, tr("Choose the public key"));
    dialog.setObjectName(QStringLiteral("verifyKeyDialog"));
    dialog.setFileMode(QFileDialog::ExistingFile);
    dialog.setNameFilters({tr("PEM public keys (*.pub *.pem)"), tr("All files (*)")});
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
        setKeyPath(dialog.selectedFiles().constFirst());
}

// --- Trusted roots ------------------------------------------------------------------------------

void VerifyPane::reloadTrustedRoots(qint64 select) {
    // Read on the worker (its own connection); the combo is filled when the list is back.
    runInView<std::vector<models::StoredTrustedRoot>>(
        this, m_workspace, [](const ops::Context& ctx) { return models::storedTrustedRoots(ctx); },
        [this, select](const Result<std::vector<models::StoredTrustedRoot>>& roots) {
            showTrustedRoots(roots, select);
        });
}

void VerifyPane::showTrustedRoots(const Result<std::vector<models::StoredTrustedRoot>>& roots,
                                  qint64 select) {
    fillTrustedRoots(roots);
    if (select != 0)
        selectTrustedRoot(select);
    emit trustedRootsLoaded();
}

void VerifyPane::fillTrustedRoots(const Result<std::vector<models::StoredTrustedRoot>>& roots) {
    const qint64 keep = selectedTrustedRoot();
    const QSignalBlocker block(m_trustedRoot);
    m_trustedRoot->clear();
    if (!roots) {
        m_trustedRoot->addItem(tr("Cannot read the trusted roots"), 0);
        m_trustedRoot->setToolTip(roots.error().toString());
        return;
    }
    int defaultIndex = -1;
    for (const models::StoredTrustedRoot& r : *roots) {
        const QString text = QStringLiteral("%1%2 · %3")
                                 .arg(QFileInfo(r.name).fileName(),
                                      r.isDefault ? tr(" (default)") : QString(), r.sha256.left(8));
        m_trustedRoot->addItem(text, r.id);
        const int i = m_trustedRoot->count() - 1;
        m_trustedRoot->setItemData(i, r.name, kRootNameRole);
        m_trustedRoot->setItemData(i, r.isDefault, kRootDefaultRole);
        const QString provenance = models::trustedRootProvenanceText(r);
        m_trustedRoot->setItemData(i, provenance, kRootProvenanceRole);
        m_trustedRoot->setItemData(i,
                                   tr("%1\nsha256:%2\nimported %3 UTC%4\n%5")
                                       .arg(r.name, r.sha256,
                                            r.importedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                                            r.isDefault ? tr("\nthe default root") : QString(), provenance),
                                   Qt::ToolTipRole);
        if (r.isDefault)
            defaultIndex = i;
    }
    if (roots->empty()) {
        m_trustedRoot->addItem(tr("None — import a trusted_root.json"), 0);
        return;
    }
    const int keepIndex = keep != 0 ? m_trustedRoot->findData(keep) : -1;
    m_trustedRoot->setCurrentIndex(keepIndex >= 0 ? keepIndex : std::max(0, defaultIndex));
    showRootProvenance();
}

QString VerifyPane::trustedRootProvenanceText() const {
    return m_trustedRoot->currentData(kRootProvenanceRole).toString();
}

void VerifyPane::showRootProvenance() {
    if (m_rootProvenance)
        m_rootProvenance->setText(trustedRootProvenanceText());
}

TufUpdateDialog* VerifyPane::openTufUpdate() {
    if (!m_tufDialog) {
        m_tufDialog = new TufUpdateDialog(m_workspace, this);
        m_tufDialog->setAttribute(Qt::WA_DeleteOnClose, false);
        connect(m_tufDialog, &TufUpdateDialog::updated, this, [this](qint64 id) {
            reloadTrustedRoots(id);
            showMessage(tr("Trusted root taken from the TUF repository; it is now the default"), false);
            emit trustedRootImported(id);
        });
    }
    m_tufDialog->show();
    m_tufDialog->raise();
    m_tufDialog->activateWindow();
    return m_tufDialog;
}

namespace {

// A trusted root imported on the worker, and the stored roots read after it.
struct RootImport {
    qint64 id = 0;
    Result<std::vector<models::StoredTrustedRoot>> roots;
};

} // namespace

bool VerifyPane::importTrustedRoot(const QString& path) {
    return importTrustedRoot(path, ImportFeedback::Quiet);
}

bool VerifyPane::importTrustedRoot(const QString& path, ImportFeedback feedback) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    runInView<RootImport>(
        this, m_workspace,
        [abs](const ops::Context& ctx) -> Result<RootImport> {
            Result<qint64> id = models::importTrustedRoot(ctx, abs);
            if (!id)
                return id.error();
            return RootImport{*id, models::storedTrustedRoots(ctx)};
        },
        [this, abs, feedback](const Result<RootImport>& imported) {
            if (!imported) {
                m_lastError = imported.error().toString();
                showImportFailure(feedback);
                emit trustedRootImportFailed(m_lastError);
                return;
            }
            m_rootPaths[imported->id] = abs;
            showTrustedRoots(imported->roots, imported->id);
            showMessage(tr("Trusted root %1 imported; it is now the default").arg(QFileInfo(abs).fileName()),
                        false);
            emit trustedRootImported(imported->id);
        },
        RunView().writing());
    return true;
}

void VerifyPane::showImportFailure(ImportFeedback feedback) {
    if (feedback == ImportFeedback::Message) {
        showMessage(tr("Not imported: %1").arg(m_lastError), true);
        return;
    }
    if (feedback != ImportFeedback::Box)
        return;
    QMessageBox box(QMessageBox::Critical, tr("Import failed"),
                    tr("The trusted root was not imported.\n\n%1").arg(m_lastError), QMessageBox::Ok, this);
    box.setObjectName(QStringLiteral("verifyImportRootErrorBox"));
    box.setTextFormat(Qt::PlainText);
    box.setTextInteractionFlags(Qt::TextSelectableByMouse);
    box.exec();
}

void VerifyPane::importTrustedRootInteractive() {
    QFileDialog dialog(this, tr("Import a trusted root"));
    dialog.setObjectName(QStringLiteral("verifyImportRootDialog"));
    dialog.setFileMode(QFileDialog::ExistingFile);
    dialog.setNameFilters({tr("Trusted roots (*.json)"), tr("All files (*)")});
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    importTrustedRoot(dialog.selectedFiles().constFirst(), ImportFeedback::Box);
}

bool VerifyPane::isBundleFileName(const QString& path) {
    const QString name = QFileInfo(path).fileName().toLower();
    return name.endsWith(QLatin1String(".json")) || name.endsWith(QLatin1String(".jsonl")) ||
           name.endsWith(QLatin1String(".sigstore"));
}

bool VerifyPane::openFiles(const QStringList& paths) {
    bool used = false;
    QStringList others;
    for (const QString& path : paths) {
        const QFileInfo fi(path);
        if (!fi.isFile())
            continue;
        if (!isBundleFileName(path)) {
            others << fi.absoluteFilePath();
            continue;
        }
        // A trusted root is recognised by its media type, whatever its name.
        if (Result<QByteArray> bytes =
                readFileLimited(path, limits::kConfigFile, QStringLiteral("dropped file"));
            bytes) {
            const QJsonObject o = QJsonDocument::fromJson(*bytes).object();
            if (o.value(QLatin1String("mediaType")).toString().contains(QLatin1String("trustedroot"))) {
                used = importTrustedRoot(path, ImportFeedback::Message); // imported on the worker
                continue;
            }
        }
        setBundlePath(fi.absoluteFilePath());
        used = true;
    }
    if (others.size() == 1) { // with the bundle: the artifact it signs
        setArtifactPath(others.constFirst());
        used = true;
    }
    if (used && !bundlePath().isEmpty())
        m_bundlePath->setFocus(Qt::OtherFocusReason);
    return used;
}

// --- Verification -------------------------------------------------------------------------------

bool VerifyPane::verify() {
    if (m_verifyTask.running()) {
        m_lastError = tr("A verification is already running");
        return false;
    }
    const models::VerifyRequest r = request();
    QString missing;
    if (r.bundlePath.isEmpty())
        missing = tr("Choose the bundle to verify.");
    else if (!r.digestMode && r.artifactPath.isEmpty())
        missing = tr("Choose the artifact file, or verify by its digest.");
    else if (r.digestMode && r.normalizedDigest().isEmpty())
        missing = tr("The digest must be sha256:<64 hex digits>.");
    else if (r.keyMode && r.keyPath.isEmpty())
        missing = tr("Choose the public key (PEM).");
    else if (!r.keyMode && (r.identity.isEmpty() || r.issuer.isEmpty()))
        missing = tr("Give both the certificate identity and the OIDC issuer (as cosign requires).");
    else if (selectedTrustedRoot() == 0)
        missing = tr("Import a trusted root first (Import…).");
    if (!missing.isEmpty()) {
        m_lastError = missing;
        showMessage(missing, true);
        return false;
    }
    m_lastError.clear();
    showMessage(QString(), false);

    m_verifyButton->setEnabled(false);
    m_verifyButton->setText(tr("Verifying…"));
    m_busy->show();
    if (!m_hasResult)
        showVerdict(tr("Verifying…"), QDir::toNativeSeparators(r.bundlePath), kBannerNeutral);
    // The operation reads and hashes the files, verifies, and stores the result with its receipt,
    // on a worker with a database connection of its own (QSqlDatabase connections belong to one
    // thread); the history is read again there too.
    m_verifyTask = runInView<VerifyRun>(
        this, m_workspace,
        [request = r.operation(selectedTrustedRoot())](const ops::Context& ctx) -> Result<VerifyRun> {
            Result<ops::VerifyOutcome> outcome = ops::verify(ctx, request);
            if (!outcome)
                return outcome.error();
            return VerifyRun{std::move(*outcome), models::recentVerifications(ctx)};
        },
        [this](const Result<VerifyRun>& run) { onFinished(run); }, RunView().writing());
    return true;
}

void VerifyPane::onFinished(const Result<VerifyRun>& run) {
    m_verifyButton->setEnabled(true);
    m_verifyButton->setText(tr("&Verify"));
    m_busy->hide();
    if (!run) {
        // An input could not be read, or the result and its receipt could not be stored: nothing
        // was kept.
        const QString error = run.error().toString();
        m_lastError = error;
        showMessage(tr("Cannot verify: %1").arg(error), true);
        if (!m_hasResult)
            showVerdict(tr("Cannot verify"), error, kBannerFailed);
        emit verificationFinished(false, 0, tr("Cannot verify: %1").arg(error));
        return;
    }
    const ops::VerifyOutcome& outcome = run->outcome;
    showHistory(run->history);
    showResult(outcome.result, outcome.verificationId);
    if (outcome.verificationId != 0) {
        const int row = m_history->rowOfId(outcome.verificationId);
        const QSignalBlocker block(m_historyView->selectionModel());
        if (row >= 0)
            m_historyView->setCurrentIndex(m_history->index(row, 0));
    }
    emit verificationFinished(outcome.result.verified, outcome.verificationId, QString());
}

// --- History ------------------------------------------------------------------------------------

void VerifyPane::reloadHistory() {
    runInView<std::vector<models::StoredVerification>>(
        this, m_workspace, [](const ops::Context& ctx) { return models::recentVerifications(ctx); },
        [this](const Result<std::vector<models::StoredVerification>>& rows) {
            showHistory(rows);
            emit historyLoaded();
        });
}

void VerifyPane::showHistory(const Result<std::vector<models::StoredVerification>>& rows) {
    const qint64 keep = m_resultId;
    {
        const QSignalBlocker block(m_historyView->selectionModel());
        m_history->setRows(rows ? *rows : std::vector<models::StoredVerification>());
        if (const int row = m_history->rowOfId(keep); row >= 0)
            m_historyView->setCurrentIndex(m_history->index(row, 0));
    }
    if (!rows) {
        m_historyTitle->setText(tr("Cannot read the history: %1").arg(rows.error().toString()));
        return;
    }
    int failed = 0;
    for (const models::StoredVerification& v : m_history->rows())
        failed += v.verified ? 0 : 1;
    m_historyTitle->setText(
        m_history->rowCount() == 0
            ? tr("No verification stored yet")
            : models::counted(m_history->rowCount(), tr("verification"), tr("verifications")) +
                  (failed > 0 ? tr(", %1 not verified").arg(failed) : QString()) + tr(" · newest first"));
    m_historyView->resizeColumnToContents(models::VerificationHistoryModel::TimeColumn);
    m_historyView->resizeColumnToContents(models::VerificationHistoryModel::BundleColumn);
    m_historyView->setColumnWidth(
        models::VerificationHistoryModel::BundleColumn,
        std::min(m_historyView->columnWidth(models::VerificationHistoryModel::BundleColumn), 160));
}

bool VerifyPane::showStored(qint64 id) {
    const int row = m_history->rowOfId(id);
    if (row < 0)
        return false;
    const models::StoredVerification& v = m_history->rowAt(row);
    showResult(sigstore::VerificationResult::fromJson(v.result), id);
    if (m_historyView->currentIndex().row() != row) {
        const QSignalBlocker block(m_historyView->selectionModel());
        m_historyView->setCurrentIndex(m_history->index(row, 0));
    }
    return true;
}

// --- Result -------------------------------------------------------------------------------------

QString VerifyPane::verdictText() const {
    return m_verdict->text();
}

QString VerifyPane::verdictSummary() const {
    return m_verdictSummary->text();
}

void VerifyPane::showVerdict(const QString& headline, const QString& summary, int state) {
    if (headline.isEmpty()) {
        m_resultStack->setCurrentWidget(m_placeholder);
        m_verdict->clear();
        m_verdictSummary->clear();
        return;
    }
    m_resultStack->setCurrentIndex(1);
    m_verdict->setText(headline);
    m_verdictSummary->setText(summary);
    m_verdictSummary->setVisible(!summary.isEmpty());
    QColor tint = palette().color(QPalette::AlternateBase);
    QColor ink = palette().color(QPalette::WindowText);
    if (state == kBannerPassed) {
        tint = QColor(0xE3, 0xF4, 0xE6);
        ink = StepStyle::color(StepState::Passed).darker(120);
    } else if (state == kBannerFailed) {
        tint = QColor(0xFB, 0xE3, 0xE3);
        ink = StepStyle::color(StepState::Failed).darker(115);
    }
    tintBanner(m_banner, m_verdict, tint, ink);
    const int side = m_verdict->fontMetrics().height() + 8;
    if (state == kBannerNeutral)
        m_verdictIcon->clear();
    else
        m_verdictIcon->setPixmap(
            StepStyle::verdictIcon(state == kBannerPassed).pixmap(QSize(side, side), devicePixelRatioF()));
}

namespace {

// A section whose step never ran (verification stopped earlier) says so, not "none".
bool stepNotReached(const sigstore::VerificationResult& result, const QString& step) {
    return std::none_of(result.steps.begin(), result.steps.end(),
                        [&step](const sigstore::Step& st) { return st.name == step; });
}

} // namespace

void VerifyPane::showResult(const sigstore::VerificationResult& result, qint64 id) {
    m_result = result;
    m_hasResult = true;
    m_resultId = id;

    showVerdictBanner(result, id);

    // Steps: the first failure selected, so expected and found are on view at once.
    m_steps->setSteps(result.steps);
    m_stepsTitle->setText(tr("%1 passed · %2 failed · %3 skipped")
                              .arg(m_steps->countOf(StepState::Passed))
                              .arg(m_steps->countOf(StepState::Failed))
                              .arg(m_steps->countOf(StepState::Skipped)));
    // Verified: the identity step says who signed. Not verified: the first failure, so what was
    // expected and what was found are on view at once.
    selectStep(result.verified ? m_steps->rowOf(QStringLiteral("identity")) : m_steps->firstFailedRow());

    const sigstore::Step* failure = result.firstFailure();
    const QString stoppedBefore =
        failure ? tr("Not checked: verification stopped at step “%1”.").arg(failure->name) : QString();

    showCertificate(result, stoppedBefore);
    showLogAndTimestamps(result, stoppedBefore);
    fitTables();
}

void VerifyPane::showVerdictBanner(const sigstore::VerificationResult& result, qint64 id) {
    // Banner: the verdict, the first failure (or who signed), and what was verified.
    const sigstore::Step* failure = result.firstFailure();
    QString summary;
    if (result.verified) {
        const auto passed =
            std::count_if(result.steps.begin(), result.steps.end(),
                          [](const sigstore::Step& st) { return st.state == StepState::Passed; });
        const auto skipped = static_cast<qsizetype>(result.steps.size()) - passed;
        const QString steps = skipped > 0 ? tr("%1 checks passed, %2 not applicable").arg(passed).arg(skipped)
                                          : tr("All %1 checks passed").arg(passed);
        if (result.certificate)
            summary = tr("%1. Signed by %2 %3, issued by %4.")
                          .arg(steps, result.certificate->sanKind, result.certificate->san,
                               result.certificate->oidcIssuer);
        else
            summary = tr("%1. Signed by the given public key.").arg(steps);
    } else {
        summary =
            failure ? tr("Failed at step “%1”: %2").arg(failure->name, failure->detail) : result.summary();
    }
    showVerdict(result.verified ? tr("Verified") : tr("Not verified"), summary,
                result.verified ? kBannerPassed : kBannerFailed);
    auto gray = [](const QString& s) { return QStringLiteral("<span style='color:gray'>%1</span>").arg(s); };
    QStringList facts;
    facts << gray(tr("bundle")) + QLatin1Char(' ') +
                 QDir::toNativeSeparators(result.bundleFile).toHtmlEscaped();
    if (!result.artifactDigest.isEmpty())
        facts << gray(tr("artifact")) + QLatin1Char(' ') + result.artifactDigest.toHtmlEscaped();
    if (!result.predicateType.isEmpty())
        facts << gray(tr("predicate")) + QLatin1Char(' ') + result.predicateType.toHtmlEscaped();
    if (!result.verifiedTimesMs.isEmpty()) {
        QStringList times;
        for (qint64 t : result.verifiedTimesMs)
            times << sigstore::formatMs(t);
        facts << gray(tr("signed at")) + QLatin1Char(' ') + times.join(QStringLiteral(", ")).toHtmlEscaped();
    }
    if (id != 0)
        facts << gray(tr("stored as #%1").arg(id));
    m_verdictFacts->setText(facts.join(QStringLiteral(" &nbsp;·&nbsp; ")));
}

void VerifyPane::showCertificate(const sigstore::VerificationResult& result, const QString& stoppedBefore) {
    // Certificate.
    if (result.certificate) {
        const sigstore::CertificateInfo& c = *result.certificate;
        m_certMessage->hide();
        m_certFields->show();
        m_extensionsView->show();
        m_certLabels[QStringLiteral("san")]->setText(
            c.sanKind.isEmpty() ? c.san : QStringLiteral("%1 (%2)").arg(c.san, c.sanKind));
        m_certLabels[QStringLiteral("oidcIssuer")]->setText(c.oidcIssuer);
        m_certLabels[QStringLiteral("subject")]->setText(c.subject.isEmpty() ? tr("(empty, as Fulcio issues)")
                                                                             : c.subject);
        m_certLabels[QStringLiteral("issuer")]->setText(c.issuer);
        m_certLabels[QStringLiteral("validity")]->setText(
            tr("%1 to %2").arg(sigstore::formatMs(c.notBeforeMs), sigstore::formatMs(c.notAfterMs)));
        m_certLabels[QStringLiteral("serial")]->setText(c.serialHex);
        for (auto& [key, label] : m_certLabels)
            label->setToolTip(label->text());
        m_extensions->setExtensions(c.extensions);
        m_certificate->setTitle(tr("Certificate"));
    } else {
        m_certFields->hide();
        m_extensionsView->hide();
        m_extensions->clear();
        m_certMessage->setText(
            stepNotReached(result, QStringLiteral("verification material"))
                ? stoppedBefore
                : tr("No certificate: the bundle is signed with a public key (key mode)."));
        m_certMessage->show();
    }
}

void VerifyPane::showLogAndTimestamps(const sigstore::VerificationResult& result,
                                      const QString& stoppedBefore) {
    m_logEntries->setEntries(result.logEntries);
    m_logView->setVisible(!result.logEntries.empty());
    m_logMessage->setVisible(result.logEntries.empty());
    m_logMessage->setText(stepNotReached(result, QStringLiteral("transparency log"))
                              ? stoppedBefore
                              : tr("The bundle has no transparency-log entry."));
    m_logGroup->setTitle(result.logEntries.empty()
                             ? tr("Transparency log")
                             : tr("Transparency log — %1")
                                   .arg(models::counted(static_cast<int>(result.logEntries.size()),
                                                        tr("entry"), tr("entries"))));
    m_timestamps->setTimestamps(result.timestamps);
    m_timestampView->setVisible(!result.timestamps.empty());
    m_timestampMessage->setVisible(result.timestamps.empty());
    m_timestampMessage->setText(
        stepNotReached(result, QStringLiteral("timestamps")) ? stoppedBefore
        : std::any_of(result.logEntries.begin(), result.logEntries.end(),
                      [](const sigstore::LogEntryInfo& e) { return e.integratedTime > 0; })
            ? tr("The bundle has no RFC 3161 timestamp; the signing time is the log entry's integrated time.")
            : tr("The bundle has no RFC 3161 timestamp."));
    m_timestampGroup->setTitle(
        result.timestamps.empty()
            ? tr("Timestamps")
            : tr("Timestamps — %1")
                  .arg(models::counted(static_cast<int>(result.timestamps.size()), tr("RFC 3161 timestamp"),
                                       tr("RFC 3161 timestamps"))));
}

void VerifyPane::fitTables() {
    // Steps: name and result at their width, the detail takes the rest (and the panel below).
    m_stepsView->resizeColumnToContents(models::VerificationStepsModel::StepColumn);
    m_stepsView->setColumnWidth(models::VerificationStepsModel::StepColumn,
                                m_stepsView->columnWidth(models::VerificationStepsModel::StepColumn) + 8);
    m_stepsView->resizeColumnToContents(models::VerificationStepsModel::ResultColumn);
    m_extensionsView->resizeColumnToContents(models::CertificateExtensionsModel::NameColumn);
    m_extensionsView->setColumnWidth(
        models::CertificateExtensionsModel::NameColumn,
        std::min(m_extensionsView->columnWidth(models::CertificateExtensionsModel::NameColumn) + 8, 230));
    // Log entries and timestamps: every column on view (the hashes give way first, then the long
    // names), and the table as tall as its rows (up to 4).
    using Log = models::LogEntriesModel;
    fitColumnsInOrder(m_logView,
                      {{Log::RootHashColumn, 120}, {Log::CheckpointColumn, 150}, {Log::LogColumn, 160}});
    using Ts = models::TimestampsModel;
    fitColumnsInOrder(m_timestampView, {{Ts::DetailColumn, 160}, {Ts::AuthorityColumn, 200}});
    for (QTableView* t : {m_logView, m_timestampView}) {
        const int rows = std::clamp(t->model()->rowCount(), 1, 4);
        t->setFixedHeight(t->horizontalHeader()->sizeHint().height() +
                          rows * t->verticalHeader()->defaultSectionSize() + 2 * t->frameWidth());
    }
}

void VerifyPane::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_hasResult)
        fitTables();
}

void VerifyPane::selectStep(int row) {
    if (row < 0 || row >= m_steps->rowCount()) {
        m_stepsView->setCurrentIndex(QModelIndex());
        m_stepsView->clearSelection();
        showStepDetail();
        return;
    }
    m_stepsView->setCurrentIndex(m_steps->index(row, 0));
    m_stepsView->scrollTo(m_steps->index(row, 0));
    showStepDetail();
}

void VerifyPane::showStepDetail() {
    const QModelIndex idx = m_stepsView->currentIndex();
    if (!idx.isValid()) {
        m_stepDetail->setVisible(m_steps->rowCount() > 0);
        m_stepTitle->setText(tr("Select a step to see what it checked"));
        m_stepTitle->setStyleSheet(QStringLiteral("color: gray;"));
        m_stepText->hide();
        m_comparison->hide();
        return;
    }
    m_stepDetail->show();
    const sigstore::Step& s = m_steps->stepAt(idx.row());
    m_stepTitle->setText(tr("Step “%1”: %2").arg(s.name, sigstore::stepStateName(s.state)));
    m_stepTitle->setStyleSheet(QStringLiteral("color: %1;")
                                   .arg(s.state == StepState::Skipped
                                            ? palette().color(QPalette::Disabled, QPalette::Text).name()
                                            : StepStyle::color(s.state).darker(115).name()));
    m_stepText->setText(s.detail);
    m_stepText->setVisible(!s.detail.isEmpty());
    const bool compared = !s.expected.isEmpty() || !s.found.isEmpty();
    m_comparison->setVisible(compared);
    if (compared) {
        const bool same = s.expected == s.found;
        m_expected->setHtml(comparisonHtml(s.expected.isEmpty() ? tr("(nothing required)") : s.expected,
                                           s.found,
                                           same ? QStringLiteral("transparent") : QStringLiteral("#c8ecd0")));
        m_found->setHtml(comparisonHtml(s.found.isEmpty() ? tr("(nothing found)") : s.found, s.expected,
                                        same ? QStringLiteral("transparent") : QStringLiteral("#f8cccc")));
    }
}

} // namespace pb::widgets
