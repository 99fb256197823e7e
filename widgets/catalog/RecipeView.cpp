#include "RecipeView.h"

#include "TableSetup.h"

#include "CatalogTreeModel.h"

#include "catalog/Digest.h"

#include "Plural.h"
#include "RecipeModels.h"
#include "YamlDialog.h"

#include <QEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace pb::widgets {

using models::AppliedOverlaysModel;
using models::ComponentsModel;
using models::ConstraintsModel;
using models::ValidationModel;

namespace {

QGroupBox* group(const QString& title, const QString& objectName, QWidget* content, QWidget* parent) {
    auto* box = new QGroupBox(title, parent);
    box->setObjectName(objectName);
    auto* l = new QVBoxLayout(box);
    l->setContentsMargins(6, 6, 6, 6);
    l->addWidget(content);
    return box;
}

} // namespace

RecipeView::RecipeView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("recipeView"));

    m_components = new ComponentsModel(this);
    m_constraints = new ConstraintsModel(this);
    m_validation = new ValidationModel(this);
    m_overlays = new AppliedOverlaysModel(this);

    QHBoxLayout* criteriaRow = buildHeader();
    buildComponents();
    buildOverlays();
    buildConstraints();
    buildValidation();
    buildSplitters();

    for (QAbstractItemView* v : {static_cast<QAbstractItemView*>(m_componentsView),
                                 static_cast<QAbstractItemView*>(m_constraintsView),
                                 static_cast<QAbstractItemView*>(m_validationView)})
        v->viewport()->installEventFilter(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 6, 4);
    layout->setSpacing(6);
    auto* titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title);
    titleRow->addStretch(1);
    titleRow->addWidget(m_subtitle);
    layout->addLayout(titleRow);
    layout->addWidget(m_binding);
    layout->addLayout(criteriaRow);
    layout->addWidget(m_digest);
    layout->addWidget(m_message);
    layout->addWidget(m_splitter, 1);
}

QHBoxLayout* RecipeView::buildHeader() {
    // Header: name, version, criteria, digest.
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("recipeTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.45);
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    m_subtitle = new QLabel(this);
    m_subtitle->setObjectName(QStringLiteral("recipeSubtitle"));
    m_subtitle->setTextFormat(Qt::RichText);

    // The catalog version's release binding (issue #19): what the AICR signature covers, and what not.
    m_binding = new QLabel(this);
    m_binding->setObjectName(QStringLiteral("recipeReleaseBinding"));
    m_binding->setTextFormat(Qt::RichText);
    m_binding->setWordWrap(true);
    m_binding->hide();

    auto* criteriaRow = new QHBoxLayout;
    criteriaRow->setSpacing(8);
    for (const QString& d : catalog::Criteria::dimensions()) {
        auto* chip = new QLabel(this);
        chip->setObjectName(QStringLiteral("criteria_") + d);
        chip->setTextFormat(Qt::RichText);
        chip->setProperty("chip", true);
        chip->setToolTip(tr("Criteria: %1").arg(d));
        m_criteria << chip;
        criteriaRow->addWidget(chip);
    }
    criteriaRow->addStretch(1);
    m_digest = new QLabel(this);
    m_digest->setObjectName(QStringLiteral("recipeDigest"));
    m_digest->setTextFormat(Qt::RichText);
    m_digest->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // On its own line under the criteria, wrapping, so neither digest is ever cut off at the right
    // edge of a narrow window.
    m_digest->setWordWrap(true);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("recipeMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setVisible(false);
    return criteriaRow;
}

void RecipeView::buildComponents() {
    // Components.
    m_componentsView = new QTableView(this);
    m_componentsView->setObjectName(QStringLiteral("componentsTable"));
    setupTable(m_componentsView);
    m_componentsView->setModel(m_components);
    m_componentsGroup = group(tr("Components"), QStringLiteral("componentsGroup"), m_componentsView, this);
    connect(m_componentsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!m_selecting)
                    emit componentSelected(current.isValid()
                                               ? current.data(ComponentsModel::ComponentNameRole).toString()
                                               : QString());
            });
}

void RecipeView::buildOverlays() {
    // Applied overlays.
    m_overlaysView = new QListView(this);
    m_overlaysView->setObjectName(QStringLiteral("appliedOverlays"));
    m_overlaysView->setModel(m_overlays);
    m_overlaysView->setAlternatingRowColors(true);
    m_overlaysView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_overlaysView->setTextElideMode(Qt::ElideMiddle);
    m_overlaysView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_overlaysView->setUniformItemSizes(true);
    m_overlaysView->setToolTip(tr("Overlays in the order they were applied, then the mixins they pulled in.\n"
                                  "Double-click or press Enter to read one's YAML."));
    connect(m_overlaysView, &QListView::activated, this, [this](const QModelIndex& idx) {
        openOverlay(idx.data(AppliedOverlaysModel::OverlayNameRole).toString());
    });
    m_overlaysGroup = group(tr("Applied overlays"), QStringLiteral("overlaysGroup"), m_overlaysView, this);
}

void RecipeView::buildConstraints() {
    // Constraints.
    m_constraintsView = new QTableView(this);
    m_constraintsView->setObjectName(QStringLiteral("constraintsTable"));
    setupTable(m_constraintsView);
    m_constraintsView->setModel(m_constraints);
    m_constraintsGroup =
        group(tr("Constraints"), QStringLiteral("constraintsGroup"), m_constraintsView, this);
}

void RecipeView::buildValidation() {
    // Validation.
    m_validationView = new QTreeView(this);
    m_validationView->setObjectName(QStringLiteral("validationTree"));
    m_validationView->setModel(m_validation);
    m_validationView->setAlternatingRowColors(true);
    m_validationView->setUniformRowHeights(true);
    m_validationView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_validationView->setTextElideMode(Qt::ElideRight);
    m_validationView->header()->setStretchLastSection(false);
    m_validationView->header()->setSectionResizeMode(ValidationModel::NameColumn, QHeaderView::Interactive);
    m_validationView->header()->setSectionResizeMode(ValidationModel::ValueColumn, QHeaderView::Stretch);
    m_validationView->header()->setSectionResizeMode(ValidationModel::KindColumn,
                                                     QHeaderView::ResizeToContents);
    m_validationGroup = group(tr("Validation"), QStringLiteral("validationGroup"), m_validationView, this);
}

void RecipeView::buildSplitters() {
    m_detailSplitter = new QSplitter(Qt::Horizontal, this);
    m_detailSplitter->setObjectName(QStringLiteral("detailSplitter"));
    m_detailSplitter->setChildrenCollapsible(false);
    m_detailSplitter->addWidget(m_overlaysGroup);
    m_detailSplitter->addWidget(m_constraintsGroup);
    m_detailSplitter->addWidget(m_validationGroup);
    m_detailSplitter->setStretchFactor(0, 2);
    m_detailSplitter->setStretchFactor(1, 4);
    m_detailSplitter->setStretchFactor(2, 5);
    m_detailSplitter->setSizes({210, 400, 430});

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("recipeSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_componentsGroup);
    m_splitter->addWidget(m_detailSplitter);
    m_splitter->setStretchFactor(0, 5);
    m_splitter->setStretchFactor(1, 4);
    m_splitter->setSizes({420, 340});
}

QString RecipeView::releaseBindingText() const {
    return m_binding->isHidden() ? QString() : m_binding->text();
}

void RecipeView::setHeader(const models::RecipeInfo& info) {
    m_info = info;
    m_title->setText(info.name);
    QString sub = tr("catalog <b>%1</b>").arg(info.catalogLabel.toHtmlEscaped());
    m_sample = models::isSampleCatalog(info.catalogLabel, m_catalog.get());
    if (m_sample)
        sub += QStringLiteral(" <span style='background-color:#fff3cd; color:#7a5a00'>&nbsp;%1&nbsp;</span>")
                   .arg(tr("sample data"));
    if (info.leafOverlay != info.name)
        sub += tr(" · leaf overlay <b>%1</b>").arg(info.leafOverlay.toHtmlEscaped());
    if (!info.profile.isEmpty())
        sub += tr(" · profile <b>%1</b>").arg(info.profile.toHtmlEscaped());
    m_subtitle->setText(sub);
    if (info.catalogSignedByReleases.isEmpty() || m_sample) {
        m_binding->hide();
        m_binding->clear();
    } else {
        m_binding->setText(
            tr("<span style='color:#1b7a3a'>&#10003; <b>%1</b></span> <span style='color:#6a6a6a'>(verified "
               "offline). This recipe's overlays are not covered by that signature.</span>")
                .arg(tr("registry and validator catalog signed by AICR %1")
                         .arg(info.catalogSignedByReleases.join(QStringLiteral(", ")))
                         .toHtmlEscaped()));
        m_binding->setToolTip(models::releaseScopeNote());
        m_binding->show();
    }
    const QStringList& dims = catalog::Criteria::dimensions();
    for (int i = 0; i < dims.size(); ++i) {
        const QString value = info.criteria.get(dims[i]);
        m_criteria[i]->setText(QStringLiteral("<span style='color:gray'>%1</span>&nbsp;<b>%2</b>")
                                   .arg(dims[i].toHtmlEscaped(),
                                        value.isEmpty() ? QStringLiteral("any") : value.toHtmlEscaped()));
    }
    QString change;
    switch (info.change()) {
    case models::RecipeInfo::Change::FirstVersion:
        break;
    case models::RecipeInfo::Change::New:
        change = tr(" · <span style='color:#2e9e4f'>new in %1</span>").arg(info.catalogLabel.toHtmlEscaped());
        break;
    case models::RecipeInfo::Change::Unchanged:
        change = tr(" · <span style='color:gray'>unchanged since %1</span>")
                     .arg(info.previousLabel.toHtmlEscaped());
        break;
    case models::RecipeInfo::Change::Changed:
        change =
            tr(" · <span style='color:#b86f00'>changed since %1 (evidence digest was <code>%2</code>)</span>")
                .arg(info.previousLabel.toHtmlEscaped(),
                     models::shortDigestText(info.previousDigest).toHtmlEscaped());
        break;
    }
    m_evidenceDigest = info.digest;
    m_parityDigest.clear();
    m_change = change;
    showDigests();
}

void RecipeView::showDigests() {
    QString text = QStringLiteral("<span style='color:gray'>%1</span>&nbsp;<code>%2</code>")
                       .arg(tr("evidence digest"), models::shortDigestText(m_evidenceDigest).toHtmlEscaped());
    if (!m_parityDigest.isEmpty())
        text += QStringLiteral(" · <span style='color:gray'>%1</span>&nbsp;<code>%2</code>")
                    .arg(tr("parity digest"), models::shortDigestText(m_parityDigest).toHtmlEscaped());
    m_digest->setText(text + m_change);
    QStringList tip;
    tip << models::evidenceDigestText(m_evidenceDigest)
        << tr("  the digest evidence binds to: AICR's canonical recipe YAML without metadata.version "
              "(recipe-evidence/v3, `aicr evidence digest`)");
    if (!m_parityDigest.isEmpty())
        tip << models::parityDigestText(m_parityDigest)
            << tr("  AICR's catalog-parity golden: sha256 of the deterministic YAML stamped %1")
                   .arg(QLatin1String(catalog::kParityStamp));
    tip << models::changeTooltip(m_info);
    m_digest->setToolTip(tip.join(QLatin1Char('\n')));
}

void RecipeView::clearTables() {
    m_components->clear();
    m_constraints->clear();
    m_validation->clear();
    m_overlays->clear();
    m_componentsGroup->setTitle(tr("Components"));
    m_constraintsGroup->setTitle(tr("Constraints"));
    m_validationGroup->setTitle(tr("Validation"));
    m_overlaysGroup->setTitle(tr("Applied overlays"));
}

void RecipeView::showMessage(const models::RecipeInfo& info, const QString& message, bool isError) {
    m_catalog.reset();
    m_result.reset();
    setHeader(info);
    clearTables();
    m_message->setProperty("error", isError);
    m_message->setStyleSheet(isError ? QStringLiteral("color: #b00020;") : QString());
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
}

void RecipeView::showRecipe(const models::RecipeInfo& info, std::shared_ptr<const catalog::Catalog> catalog,
                            const catalog::RecipeResult& result) {
    m_catalog = std::move(catalog);
    m_result = result;
    setHeader(info);

    m_components->setRecipe(result);
    m_constraints->setRecipe(result);
    m_validation->setValidation(result.validation,
                                m_catalog && m_catalog->hasValidators ? &m_catalog->validators : nullptr);
    m_overlays->setRecipe(result, m_catalog.get());

    const int total = m_components->rowCount();
    const int disabled = total - m_components->enabledCount();
    m_componentsGroup->setTitle(disabled > 0 ? tr("Components — %1 in deployment order, %2 disabled")
                                                   .arg(m_components->enabledCount())
                                                   .arg(disabled)
                                             : tr("Components — %1 in deployment order").arg(total));
    m_constraintsGroup->setTitle(tr("Constraints (%1)").arg(m_constraints->rowCount()));
    m_validationGroup->setTitle(
        tr("Validation — %1").arg(models::counted(m_validation->rowCount(), tr("phase"), tr("phases"))));
    m_overlaysGroup->setTitle(tr("Applied overlays (%1)").arg(result.appliedOverlays.size()));

    // The stored digest is the evidence digest computed at import; the recipe resolved now must
    // reproduce it. Databases written before the digest was defined so hold the sha256 of the
    // deterministic YAML instead: that is said, not called an error.
    const QString now = catalog::evidenceDigest(result);
    m_evidenceDigest = now;
    m_parityDigest = catalog::parityDigest(result);
    showDigests();
    catalog::RecipeResult unstamped = result;
    unstamped.version.clear();
    if (!info.digest.isEmpty() && now != info.digest && info.digest == catalog::recipeDigest(unstamped)) {
        m_message->setStyleSheet(QString());
        m_message->setText(
            tr("The database stored this recipe under Proofbench's former recipe digest %1 (the "
               "deterministic YAML); its evidence digest is %2.")
                .arg(catalog::prefixedDigest(info.digest), catalog::prefixedDigest(now)));
        m_message->setVisible(true);
    } else if (!info.digest.isEmpty() && now != info.digest) {
        m_message->setStyleSheet(QStringLiteral("color: #b00020;"));
        m_message->setText(tr("This recipe resolves to evidence digest %1 now, but %2 was stored at import.")
                               .arg(catalog::prefixedDigest(now), catalog::prefixedDigest(info.digest)));
        m_message->setVisible(true);
    } else {
        m_message->setVisible(false);
    }

    for (int r = 0; r < m_validation->rowCount(); ++r)
        m_validationView->setFirstColumnSpanned(r, QModelIndex(), true);
    m_validationView->expandAll();
    fitColumns();
}

void RecipeView::fitColumns() {
    const int ch = fontMetrics().horizontalAdvance(QLatin1Char('x'));
    widgets::fitColumns(m_componentsView, 9 * ch);
    widgets::fitColumns(m_constraintsView, 8 * ch);

    // The name column fits the check and constraint names; phase rows span the whole row.
    int nameWidth = m_validationView->header()->sectionSizeHint(ValidationModel::NameColumn);
    const QFontMetrics vfm = m_validationView->fontMetrics();
    for (int p = 0; p < m_validation->rowCount(); ++p) {
        const QModelIndex phase = m_validation->index(p, 0);
        for (int r = 0; r < m_validation->rowCount(phase); ++r)
            nameWidth = std::max(nameWidth,
                                 vfm.horizontalAdvance(m_validation->index(r, 0, phase).data().toString()) +
                                     2 * m_validationView->indentation() + ch);
    }
    m_validationView->setColumnWidth(ValidationModel::NameColumn, nameWidth);
    const int avail = m_validationView->viewport()->width();
    const int kind = m_validationView->header()->sectionSize(ValidationModel::KindColumn);
    const int name = m_validationView->columnWidth(ValidationModel::NameColumn);
    // Leave the value column room for "timeout 10m" / ">= 50000"; long names elide.
    const int maxName = std::max(14 * ch, avail - kind - 13 * ch);
    if (name > maxName)
        m_validationView->setColumnWidth(ValidationModel::NameColumn, maxName);
}

bool RecipeView::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize &&
        (watched == m_componentsView->viewport() || watched == m_constraintsView->viewport() ||
         watched == m_validationView->viewport()))
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

QString RecipeView::selectedComponent() const {
    const QModelIndex current = m_componentsView->currentIndex();
    return current.isValid() ? current.data(ComponentsModel::ComponentNameRole).toString() : QString();
}

void RecipeView::selectComponent(const QString& name) {
    if (name == selectedComponent())
        return;
    m_selecting = true;
    int row = -1;
    for (int r = 0; r < m_components->rowCount() && row < 0; ++r)
        if (m_components->componentAt(r).name == name)
            row = r;
    if (row >= 0) {
        m_componentsView->selectRow(row);
        m_componentsView->scrollTo(m_components->index(row, 0));
    } else {
        m_componentsView->clearSelection();
        m_componentsView->setCurrentIndex(QModelIndex());
    }
    m_selecting = false;
}

YamlDialog* RecipeView::openOverlay(const QString& name) {
    if (!m_catalog)
        return nullptr;
    const catalog::Overlay* o = m_catalog->overlay(name);
    if (!o)
        o = m_catalog->mixin(name);
    if (!o)
        return nullptr;
    auto* dlg = new YamlDialog(name, o->file, o->raw, this);
    dlg->show();
    dlg->raise();
    dlg->activateWindow();
    emit overlayOpened(name);
    return dlg;
}

} // namespace pb::widgets
