#include "EvidenceInspector.h"

#include "BundleModels.h"
#include "HealthModels.h"
#include "Plural.h"
#include "YamlDialog.h"
#include "report/HealthTable.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTextDocument>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace pb::widgets {

using evidence::HealthStatus;
using models::BundleModel;
using models::HealthStyle;
using models::PointerModel;

EvidenceInspector::EvidenceInspector(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("evidenceInspector"));
    m_model = new PointerModel(this);
    m_model->setObjectName(QStringLiteral("pointerModel"));

    QHBoxLayout* top = buildTitleRow();
    buildDetailLabels();
    buildPointerTree();
    buildBundleGroup();
    buildSplitter();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_reason);
    layout->addWidget(m_mismatch);
    layout->addWidget(m_facts);
    layout->addWidget(m_cache);
    layout->addWidget(m_split, 1);
    showMessage(tr("Select a row to see its evidence pointers"));
}

QHBoxLayout* EvidenceInspector::buildTitleRow() {
    m_icon = new QLabel(this);
    m_icon->setObjectName(QStringLiteral("inspectorIcon"));
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("inspectorTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("inspectorStatus"));
    QFont statusFont = m_status->font();
    statusFont.setBold(true);
    m_status->setFont(statusFont);

    m_openRecipe = new QPushButton(tr("Show in Catalog"), this);
    m_openRecipe->setObjectName(QStringLiteral("inspectorShowRecipe"));
    m_openRecipe->setToolTip(tr("Open the recipe's details, graph and comparison"));
    connect(m_openRecipe, &QPushButton::clicked, this, [this] {
        if (m_hasRow && m_row.inCatalog())
            emit openRecipeRequested(m_row.recipe);
    });
    m_openYaml = new QPushButton(tr("Pointer YAML…"), this);
    m_openYaml->setObjectName(QStringLiteral("inspectorPointerYaml"));
    m_openYaml->setToolTip(
        tr("The selected pointer file, as written (double-click a pointer does the same)"));
    connect(m_openYaml, &QPushButton::clicked, this, [this] { openPointer(currentPointerRow()); });

    auto* top = new QHBoxLayout;
    top->setSpacing(8);
    top->addWidget(m_icon);
    top->addWidget(m_title);
    top->addSpacing(6);
    top->addWidget(m_status);
    top->addStretch(1);
    top->addWidget(m_openYaml);
    top->addWidget(m_openRecipe);
    return top;
}

void EvidenceInspector::buildDetailLabels() {
    m_reason = new QLabel(this);
    m_reason->setObjectName(QStringLiteral("inspectorReason"));
    m_reason->setWordWrap(true);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_mismatch = new QLabel(this);
    m_mismatch->setObjectName(QStringLiteral("inspectorMismatch"));
    m_mismatch->setWordWrap(true);
    m_mismatch->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_mismatch->setStyleSheet(
        QStringLiteral("color: %1;").arg(HealthStyle::color(HealthStatus::Stale).darker(125).name()));
    m_facts = new QLabel(this);
    m_facts->setObjectName(QStringLiteral("inspectorFacts"));
    m_facts->setTextFormat(Qt::RichText);
    m_facts->setWordWrap(true);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_cache = new QLabel(this);
    m_cache->setObjectName(QStringLiteral("inspectorCache"));
    m_cache->setTextFormat(Qt::RichText);
    m_cache->setWordWrap(true);
    m_cache->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("inspectorMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: gray;"));
}

void EvidenceInspector::buildPointerTree() {
    m_tree = new QTreeView(this);
    m_tree->setObjectName(QStringLiteral("pointerTree"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setToolTip(tr("Double-click a pointer to read its YAML"));
    connect(m_tree, &QTreeView::doubleClicked, this, [this](const QModelIndex& idx) {
        if (idx.data(PointerModel::ItemKindRole).value<PointerModel::ItemKind>() ==
            PointerModel::ItemKind::Pointer)
            openPointer(idx.data(PointerModel::PointerIndexRole).toInt());
    });
}

void EvidenceInspector::buildBundleGroup() {
    // Bundles: the second group, under the pointers.
    m_bundleModel = new BundleModel(this);
    m_bundleModel->setObjectName(QStringLiteral("bundleModel"));
    m_bundleTitle = new QLabel(this);
    m_bundleTitle->setObjectName(QStringLiteral("inspectorBundleTitle"));
    QFont groupFont = m_bundleTitle->font();
    groupFont.setBold(true);
    m_bundleTitle->setFont(groupFont);
    m_bundleMessage = new QLabel(this);
    m_bundleMessage->setObjectName(QStringLiteral("inspectorBundleMessage"));
    m_bundleMessage->setWordWrap(true);
    m_bundleMessage->setStyleSheet(QStringLiteral("color: gray;"));
    m_bundleMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_bundleTree = new QTreeView(this);
    m_bundleTree->setObjectName(QStringLiteral("bundleTree"));
    m_bundleTree->setModel(m_bundleModel);
    m_bundleTree->setUniformRowHeights(true);
    m_bundleTree->setAlternatingRowColors(true);
    m_bundleTree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_bundleTree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_bundleTree->setAllColumnsShowFocus(true);
    m_bundleTree->setTextElideMode(Qt::ElideMiddle);
    m_bundleTree->header()->setStretchLastSection(true);
}

void EvidenceInspector::buildSplitter() {
    auto* pointerSection = new QWidget(this);
    auto* pl = new QVBoxLayout(pointerSection);
    pl->setContentsMargins(0, 0, 0, 0);
    pl->setSpacing(2);
    pl->addWidget(m_message, 1);
    pl->addWidget(m_tree, 1);
    m_bundleSection = new QWidget(this);
    m_bundleSection->setObjectName(QStringLiteral("inspectorBundles"));
    auto* bl = new QVBoxLayout(m_bundleSection);
    bl->setContentsMargins(0, 4, 0, 0);
    bl->setSpacing(2);
    bl->addWidget(m_bundleTitle);
    bl->addWidget(m_bundleMessage);
    bl->addWidget(m_bundleTree, 1);
    m_split = new QSplitter(Qt::Vertical, this);
    m_split->setObjectName(QStringLiteral("inspectorSplitter"));
    m_split->setChildrenCollapsible(false);
    m_split->addWidget(pointerSection);
    m_split->addWidget(m_bundleSection);
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 3);
}

void EvidenceInspector::showMessage(const QString& message) {
    m_hasRow = false;
    m_row = {};
    m_model->clear();
    m_icon->clear();
    m_title->setText(tr("Evidence"));
    m_title->setToolTip(QString());
    m_status->clear();
    m_reason->clear();
    m_reason->hide();
    m_mismatch->clear();
    m_mismatch->hide();
    m_facts->clear();
    m_facts->hide();
    m_cache->clear();
    m_cache->hide();
    m_tree->hide();
    ++m_bundleRequest; // a load still running is for a row no longer on view
    m_bundleModel->clear();
    m_bundleSection->hide();
    m_message->setText(message);
    m_message->show();
    m_openRecipe->setEnabled(false);
    m_openYaml->setEnabled(false);
}

void EvidenceInspector::showRow(const evidence::HealthRow& row, std::vector<evidence::Pointer> pointers,
                                const QString& error) {
    m_hasRow = true;
    m_row = row;
    const int side = m_title->fontMetrics().height();
    m_icon->setPixmap(HealthStyle::icon(row.status).pixmap(QSize(side, side), devicePixelRatioF()));
    m_title->setText(row.displayName());
    m_title->setToolTip(models::recipeToolTip(row));
    m_status->setText(evidence::healthStatusName(row.status));
    const QColor c = row.status == HealthStatus::NoEvidence
                         ? palette().color(QPalette::Disabled, QPalette::Text)
                         : HealthStyle::color(row.status).darker(115);
    m_status->setStyleSheet(QStringLiteral("color: %1;").arg(c.name()));
    m_reason->setText(tr("Why: %1").arg(row.reason));
    m_reason->show();

    // Facts: where the coordinate is, what evidence it has, by whom and when.
    auto gray = [](const QString& s) { return QStringLiteral("<span style='color:gray'>%1</span>").arg(s); };
    QStringList facts;
    facts << (row.inCatalog()
                  ? gray(tr("criteria")) + QLatin1Char(' ') + row.criteria.summary().toHtmlEscaped()
                  : QStringLiteral("<i>%1</i>").arg(tr("not a recipe of this catalog version")));
    if (row.displayName() != row.recipe)
        facts << gray(tr("recipe name")) + QLatin1Char(' ') + row.recipe.toHtmlEscaped();
    if (!row.leafOverlay.isEmpty() && row.leafOverlay != row.displayName())
        facts << gray(tr("leaf overlay")) + QLatin1Char(' ') + row.leafOverlay.toHtmlEscaped();
    QString counts = models::counted(row.pointers, tr("pointer"), tr("pointers"));
    QStringList extra;
    if (row.pending > 0)
        extra << tr("%1 pending").arg(row.pending);
    if (row.invalid > 0)
        extra << tr("%1 invalid").arg(row.invalid);
    if (!extra.isEmpty())
        counts += QStringLiteral(" (%1)").arg(extra.join(QStringLiteral(", ")));
    facts << counts.toHtmlEscaped();
    if (const QString signers = models::signersText(row); !signers.isEmpty())
        facts << gray(tr("signers")) + QLatin1Char(' ') + signers.toHtmlEscaped();
    if (row.newestAttestedAt.isValid())
        facts << gray(tr("newest")) + QLatin1Char(' ') +
                     row.newestAttestedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")) +
                     (row.newestPredicateType.isEmpty()
                          ? QString()
                          : QStringLiteral(" (%1)").arg(
                                row.newestPredicateType.section(QLatin1Char('/'), -2).toHtmlEscaped()));
    if (!row.phaseCoverage.isEmpty())
        facts << gray(tr("phases")) + QLatin1Char(' ') + row.phaseCoverage.toHtmlEscaped();
    if (!row.aicrVersion.isEmpty())
        facts << gray(tr("aicr")) + QLatin1Char(' ') + row.aicrVersion.toHtmlEscaped();
    if (row.stale)
        facts << QStringLiteral("<b>%1</b>").arg(tr("stale"));
    m_facts->setText(facts.join(QStringLiteral(" &nbsp;·&nbsp; ")));
    m_facts->show();
    m_openRecipe->setEnabled(row.inCatalog());
    loadBundles();

    showCache(pointers);
    // A stale or outside row: which pointers name it and why they no longer match.
    const QString mismatch =
        error.isEmpty() ? report::mismatchText(row, pointers, m_catalogLabel) : QString();
    m_mismatch->setText(mismatch);
    m_mismatch->setVisible(!mismatch.isEmpty());
    m_model->setPointers(std::move(pointers));
    if (!error.isEmpty() || m_model->rowCount() == 0) {
        m_tree->hide();
        m_message->setText(
            !error.isEmpty() ? tr("Cannot read the pointers: %1").arg(error)
            : row.pointers > 0
                ? tr("The health table counts %1 for this row, but none could be read under the name "
                     "'%2'.")
                      .arg(models::counted(row.pointers, tr("pointer"), tr("pointers")), row.pointerName())
                : tr("No evidence pointer names this recipe.\nFile › Import Evidence… "
                     "reads an AICR recipes/evidence directory."));
        m_message->show();
        m_openYaml->setEnabled(false);
        return;
    }
    m_message->hide();
    m_tree->show();
    // A few pointers: every field at once. Many: the invalid ones open, the rest one click away.
    const int n = m_model->rowCount();
    for (int i = 0; i < n; ++i) {
        const QModelIndex idx = m_model->index(i, 0);
        m_tree->setExpanded(idx, n <= 3 || !m_model->pointerAt(i).isValid());
    }
    // Files are long (<recipe>/<32-hex source>/sha256-<64-hex>.yaml): the name column elides in
    // the middle and the full path is the "file" field and the tooltip.
    m_tree->setColumnWidth(PointerModel::NameColumn, std::clamp(m_tree->viewport()->width() / 3, 240, 460));
    m_tree->setCurrentIndex(m_model->index(0, 0));
    m_openYaml->setEnabled(true);
}

void EvidenceInspector::loadBundles() {
    const quint64 request = ++m_bundleRequest;
    m_bundleModel->clear();
    m_bundleSection->show();
    m_bundleTitle->setText(tr("Bundles"));
    m_bundleTree->hide();
    if (!m_workspace) {
        m_bundleMessage->setText(tr("Bundles are not read here."));
        m_bundleMessage->show();
        return;
    }
    m_bundleMessage->setText(tr("Reading bundles…"));
    m_bundleMessage->show();
    ++m_bundleLoads;
    // Read on a worker through a connection of its own.
    m_workspace->read<std::vector<models::BundleRecord>>(
        this,
        [row = m_row](const ops::Context& ctx) { return models::healthdata::rowBundlesAt(ctx.db(), row); },
        [this, request](Result<std::vector<models::BundleRecord>> load) {
            --m_bundleLoads;
            if (request != m_bundleRequest) // the row changed meanwhile
                return;
            if (!load)
                showBundles({}, load.error().toString());
            else
                showBundles(std::move(*load));
        });
}

void EvidenceInspector::showBundles(std::vector<models::BundleRecord> bundles, const QString& error) {
    if (!m_hasRow)
        return;
    ++m_bundleRequest; // these replace whatever a running load would bring
    m_bundleSection->show();
    m_bundleModel->setBundles(std::move(bundles), m_row.currentDigest);
    const int n = m_bundleModel->rowCount();
    int invalid = 0;
    for (const models::BundleRecord& b : m_bundleModel->bundles())
        invalid += b.checkExit == 2 ? 1 : 0;
    QString title = models::counted(n, tr("bundle"), tr("bundles"));
    if (invalid > 0)
        title += tr(" (%1 invalid)").arg(invalid);
    m_bundleTitle->setText(n == 0 ? tr("Bundles") : title + tr(", newest first"));
    if (!error.isEmpty() || n == 0) {
        m_bundleTree->hide();
        m_bundleMessage->setText(
            error.isEmpty() ? tr("No bundle imported for this recipe. proofbench evidence import DIR "
                                 "--bundles BUNDLES_DIR reads summary bundles and OCI layouts.")
                            : tr("Cannot read the bundles: %1").arg(error));
        m_bundleMessage->show();
        emit bundlesShown(0);
        return;
    }
    m_bundleMessage->hide();
    m_bundleTree->show();
    // The newest bundle open with its checks and phases; a failing step or test open too.
    for (int i = 0; i < n; ++i) {
        const QModelIndex b = m_bundleModel->bundleIndex(i);
        m_bundleTree->setExpanded(b, i == 0 || m_bundleModel->bundleAt(i).checkExit >= 2);
        for (int r = 0; r < m_bundleModel->rowCount(b); ++r) {
            const QModelIndex c = m_bundleModel->index(r, 0, b);
            const auto kind = c.data(BundleModel::ItemKindRole).value<BundleModel::ItemKind>();
            const bool failing =
                c.data(BundleModel::StatusRole).toString() == QLatin1String("failed") ||
                (kind == BundleModel::ItemKind::Checks && m_bundleModel->bundleAt(i).checkExit >= 2);
            if (kind == BundleModel::ItemKind::Checks || kind == BundleModel::ItemKind::Phase)
                m_bundleTree->setExpanded(c, failing);
        }
    }
    m_bundleTree->setColumnWidth(BundleModel::NameColumn,
                                 std::clamp(m_bundleTree->viewport()->width() / 3, 200, 380));
    emit bundlesShown(n);
}

void EvidenceInspector::showCache(const std::vector<evidence::Pointer>& pointers) {
    // A few stat() calls per pointer: cheap enough for the GUI thread.
    QStringList lines;
    for (const evidence::Pointer& p : pointers) {
        const evidence::Attestation* a = p.attestation();
        if (!a || a->bundleOci.isEmpty() || !a->bundleDigest.startsWith(QLatin1String("sha256:")) ||
            m_cacheDir.isEmpty())
            continue;
        const QString dir = m_cacheDir + QStringLiteral("/evidence/") + a->bundleDigest.mid(7);
        const QString name = a->bundleDigest.left(19).toHtmlEscaped();
        if (!QFileInfo(dir + QStringLiteral("/summary-bundle/statement.intoto.json")).isFile()) {
            lines << tr("<span style='color:gray'>bundle %1</span> not fetched").arg(name);
            continue;
        }
        const bool sig = QFileInfo::exists(dir + QStringLiteral("/summary-bundle/attestation.intoto.jsonl"));
        lines << tr("<span style='color:gray'>bundle %1</span> cached in %2 · %3")
                     .arg(name, QDir::toNativeSeparators(dir).toHtmlEscaped(),
                          sig ? tr("signature referrer pulled") : tr("no signature referrer"));
    }
    m_cache->setText(lines.join(QStringLiteral("<br>")));
    m_cache->setVisible(!lines.isEmpty());
}

QString EvidenceInspector::cacheText() const {
    QTextDocument doc;
    doc.setHtml(m_cache->text());
    return doc.toPlainText();
}

QString EvidenceInspector::headerText() const {
    QStringList parts{m_title->text(), m_status->text(), m_reason->text(), m_mismatch->text()};
    QTextDocument doc;
    doc.setHtml(m_facts->text());
    parts << doc.toPlainText();
    parts.removeAll(QString());
    return parts.join(QLatin1Char('\n'));
}

QString EvidenceInspector::mismatchText() const {
    return m_mismatch->text(); // cleared whenever it is hidden
}

int EvidenceInspector::currentPointerRow() const {
    const QModelIndex idx = m_tree->currentIndex();
    return idx.isValid() ? idx.data(PointerModel::PointerIndexRole).toInt() : -1;
}

YamlDialog* EvidenceInspector::openPointer(int pointerRow) {
    if (pointerRow < 0 || pointerRow >= m_model->rowCount())
        return nullptr;
    const evidence::Pointer& p = m_model->pointerAt(pointerRow);
    auto* dlg = new YamlDialog(tr("Evidence pointer"), p.file, p.raw, window(), tr("the evidence tree"));
    dlg->setObjectName(QStringLiteral("pointerYamlDialog"));
    dlg->show();
    return dlg;
}

} // namespace pb::widgets
