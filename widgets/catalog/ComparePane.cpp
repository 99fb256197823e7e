#include "ComparePane.h"

#include "Workspace.h"

#include "TableSetup.h"

#include "CatalogTreeModel.h"
#include "DiffModels.h"
#include "GraphView.h"
#include "Plural.h"
#include "RecipeModels.h"

#include "catalog/Digest.h"
#include "catalog/VersionOrder.h"
#include "ops/Recipe.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace pb::widgets {

using catalog::Change;
using models::ChangeColors;
using models::ComponentDiffModel;
using models::ConstraintDiffModel;
using models::ValidationDiffModel;

struct ComparePane::RecipeOutcome {
    int generation = 0;
    QString error;
    std::optional<catalog::RecipeDiff> diff;
    std::optional<graph::ComponentGraph> graph;
    QString graphError;
};

struct ComparePane::CatalogOutcome {
    QString key;
    std::shared_ptr<const catalog::CatalogDiff> diff;
};

namespace {

// A catalog the window already loaded, as the diff operation takes it.
ops::CatalogRef loadedRef(const QString& label, std::shared_ptr<const catalog::Catalog> cat, bool sample) {
    ops::CatalogRef ref;
    ref.spec = label;
    ref.kind = ops::CatalogRef::Kind::Version;
    ref.loaded = std::move(cat);
    ref.sample = sample;
    return ref;
}

QString pairKey(const QString& from, const QString& to) {
    return from + QLatin1Char('\n') + to;
}

QString coloured(const QColor& c, const QString& text) {
    return QStringLiteral("<span style='color:%1'>%2</span>").arg(c.name(), text);
}

QString swatch(const QColor& fill, const QColor& border, const QString& text) {
    return QStringLiteral("<span style='background-color:%1; color:%2'>&nbsp;%3&nbsp;</span>")
        .arg(fill.name(), border.name(), text.toHtmlEscaped());
}

struct Counts {
    int added = 0, removed = 0, changed = 0, unchanged = 0;
};

Counts countOf(const std::vector<catalog::NamedChange>& list) {
    Counts c;
    for (const catalog::NamedChange& n : list) {
        switch (n.change) {
        case Change::Added:
            ++c.added;
            break;
        case Change::Removed:
            ++c.removed;
            break;
        case Change::Changed:
            ++c.changed;
            break;
        case Change::Unchanged:
            ++c.unchanged;
            break;
        }
    }
    return c;
}

// "+2 −1 ~5" with colours, or "unchanged".
QString compactCounts(const Counts& c) {
    QStringList parts;
    if (c.added)
        parts << coloured(ChangeColors::added(), QStringLiteral("+%1").arg(c.added));
    if (c.removed)
        parts << coloured(ChangeColors::removed(), QStringLiteral("−%1").arg(c.removed));
    if (c.changed)
        parts << coloured(ChangeColors::changed(), QStringLiteral("~%1").arg(c.changed));
    if (parts.isEmpty())
        return QObject::tr("unchanged");
    return parts.join(QLatin1Char(' '));
}

QGroupBox* group(const QString& title, const QString& objectName, QWidget* content, QWidget* parent,
                 QLayout* header = nullptr) {
    auto* box = new QGroupBox(title, parent);
    box->setObjectName(objectName);
    auto* l = new QVBoxLayout(box);
    l->setContentsMargins(6, 6, 6, 6);
    l->setSpacing(4);
    if (header)
        l->addLayout(header);
    l->addWidget(content, 1);
    return box;
}

} // namespace

catalog::RecipeResult unionRecipe(const catalog::RecipeResult& from, const catalog::RecipeResult& to,
                                  const catalog::RecipeDiff& diff) {
    catalog::RecipeResult u = to;
    QStringList extra;
    for (qsizetype i = 0; i < from.deploymentOrder.size(); ++i) {
        const QString& name = from.deploymentOrder[i];
        if (to.deploymentOrder.contains(name))
            continue;
        const catalog::ComponentRef* ref = from.component(name);
        if (!ref)
            continue;
        // Replaces the entry `to` has when the component is only disabled there.
        std::erase_if(u.componentRefs, [&](const catalog::ComponentRef& c) { return c.name == name; });
        u.componentRefs.push_back(*ref);
        // Deployed where it was: after its nearest predecessor (in `from`) the union already has.
        qsizetype at = 0;
        for (qsizetype k = i - 1; k >= 0; --k) {
            const qsizetype p = u.deploymentOrder.indexOf(from.deploymentOrder[k]);
            if (p >= 0) {
                at = p + 1;
                break;
            }
        }
        u.deploymentOrder.insert(at, name);
        extra << name;
    }
    for (catalog::ComponentRef& c : u.componentRefs) {
        if (extra.contains(c.name)) {
            QStringList deps;
            for (const QString& d : std::as_const(c.dependencyRefs))
                if (u.deploymentOrder.contains(d))
                    deps << d;
            c.dependencyRefs = deps;
        }
    }
    for (const catalog::ComponentDiff& d : diff.components) {
        if (d.change != Change::Changed || d.fromVersion == d.toVersion)
            continue;
        for (catalog::ComponentRef& c : u.componentRefs) {
            if (c.name != d.name)
                continue;
            const QString label =
                QStringLiteral("%1 → %2").arg(d.fromVersion.isEmpty() ? QStringLiteral("—") : d.fromVersion,
                                              d.toVersion.isEmpty() ? QStringLiteral("—") : d.toVersion);
            if (!c.version.isEmpty() || c.tag.isEmpty())
                c.version = label;
            else
                c.tag = label;
        }
    }
    std::sort(u.componentRefs.begin(), u.componentRefs.end(),
              [](const catalog::ComponentRef& a, const catalog::ComponentRef& b) { return a.name < b.name; });
    return u;
}

std::map<QString, NodeStyle> compareStyles(const catalog::RecipeDiff& diff) {
    std::map<QString, NodeStyle> out;
    for (const catalog::ComponentDiff& d : diff.components) {
        const bool deployedBefore = d.fromOrder >= 0, deployedNow = d.toOrder >= 0;
        if (d.change == Change::Added || (d.change == Change::Changed && !deployedBefore && deployedNow)) {
            out[d.name] =
                NodeStyle{ChangeColors::addedBackground(), ChangeColors::added(), Qt::SolidLine,
                          d.change == Change::Added ? QObject::tr("added in %1").arg(diff.toLabel)
                                                    : QObject::tr("enabled in %1").arg(diff.toLabel)};
        } else if (d.change == Change::Removed ||
                   (d.change == Change::Changed && deployedBefore && !deployedNow)) {
            out[d.name] =
                NodeStyle{ChangeColors::removedBackground(), ChangeColors::removed(), Qt::DashLine,
                          d.change == Change::Removed ? QObject::tr("removed in %1").arg(diff.toLabel)
                                                      : QObject::tr("disabled in %1").arg(diff.toLabel)};
        } else if (d.change == Change::Changed && d.fromVersion != d.toVersion) {
            out[d.name] = NodeStyle{ChangeColors::changedBackground(), ChangeColors::changed(), Qt::SolidLine,
                                    QObject::tr("version %1 → %2").arg(d.fromVersion, d.toVersion)};
        } else if (d.change == Change::Changed) {
            QStringList fields;
            for (const catalog::FieldChange& f : d.fields)
                fields << f.field;
            out[d.name] = NodeStyle{QColor(0xFF, 0xF8, 0xE6), ChangeColors::changed(), Qt::DashLine,
                                    QObject::tr("changed: %1").arg(fields.join(QStringLiteral(", ")))};
        }
    }
    return out;
}

QHBoxLayout* ComparePane::buildPickers() {
    auto combo = [this](const QString& name, const QString& tip) {
        auto* c = new QComboBox(this);
        c->setObjectName(name);
        c->setToolTip(tip);
        c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        c->view()->setObjectName(name + QStringLiteral("List"));
        return c;
    };
    m_from = combo(QStringLiteral("compareFrom"), tr("The catalog version to compare from"));
    m_to = combo(QStringLiteral("compareTo"), tr("The catalog version to compare to"));
    m_toRecipe = combo(QStringLiteral("compareToRecipe"),
                       tr("The recipe of the “to” version to compare with (default: the same recipe)"));
    m_toRecipe->setMinimumContentsLength(24);
    m_toRecipe->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_swap = new QToolButton(this);
    m_swap->setObjectName(QStringLiteral("compareSwap"));
    m_swap->setText(QStringLiteral("⇄"));
    m_swap->setToolTip(tr("Swap the two versions"));
    m_changesOnly = new QCheckBox(tr("Changes only"), this);
    m_changesOnly->setObjectName(QStringLiteral("compareChangesOnly"));
    m_changesOnly->setToolTip(tr("Hide what is the same on both sides"));
    m_hideVersionOnly = new QCheckBox(tr("Hide version-only changes"), this);
    m_hideVersionOnly->setObjectName(QStringLiteral("compareIgnoreVersionOnly"));
    m_hideVersionOnly->setToolTip(
        tr("Hide changes that are only image or chart tags following the catalog version: the old tag is the "
           "“from” version's label and the new tag the “to” version's (a leading v aside), e.g. "
           "validator images :sample-1 → :sample-2. Same as `proofbench diff --ignore version-only`."));

    auto* pickers = new QHBoxLayout;
    pickers->setSpacing(6);
    pickers->addWidget(new QLabel(tr("From"), this));
    pickers->addWidget(m_from);
    pickers->addWidget(m_swap);
    pickers->addWidget(new QLabel(tr("to"), this));
    pickers->addWidget(m_to);
    pickers->addSpacing(12);
    pickers->addWidget(new QLabel(tr("recipe"), this));
    pickers->addWidget(m_toRecipe);
    pickers->addStretch(1);
    pickers->addWidget(m_changesOnly);
    pickers->addWidget(m_hideVersionOnly);

    return pickers;
}

// Tables on top (components beside constraints and checks), the combined graph below.
QSplitter* ComparePane::buildBody() {
    // Components, side by side.
    m_componentsView = new QTableView(this);
    m_componentsView->setObjectName(QStringLiteral("compareComponents"));
    setupTable(m_componentsView, false);
    m_componentsView->setModel(m_componentsModel);

    // Combined graph.
    m_graph = new GraphView(this);
    m_graph->setObjectName(QStringLiteral("compareGraph"));
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("compareLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setText(
        QStringList{swatch(ChangeColors::addedBackground(), ChangeColors::text(), tr("added")),
                    swatch(ChangeColors::removedBackground(), ChangeColors::text(), tr("removed")),
                    swatch(ChangeColors::changedBackground(), ChangeColors::text(), tr("version changed")),
                    swatch(QColor(0xFF, 0xF8, 0xE6), ChangeColors::changed(), tr("settings changed")),
                    swatch(QColor(0xF4, 0xF6, 0xFB), QColor(0x5B, 0x6B, 0x8C), tr("unchanged"))}
            .join(QLatin1Char(' ')));
    m_fit = new QToolButton(this);
    m_fit->setObjectName(QStringLiteral("compareZoomFit"));
    m_fit->setText(tr("Fit"));
    m_fit->setToolTip(tr("Show the whole graph (Ctrl+wheel zooms, drag pans)"));
    auto* graphHeader = new QHBoxLayout;
    graphHeader->addWidget(m_legend, 1);
    graphHeader->addWidget(m_fit);

    m_constraintsView = new QTableView(this);
    m_constraintsView->setObjectName(QStringLiteral("compareConstraints"));
    setupTable(m_constraintsView, false);
    m_constraintsView->setModel(m_constraintsModel);
    m_checksView = new QTableView(this);
    m_checksView->setObjectName(QStringLiteral("compareChecks"));
    setupTable(m_checksView, false);
    m_checksView->setModel(m_checksModel);
    // Narrow tables: colours, "—" and the details say what changed; the words are in the tooltips.
    m_constraintsView->setColumnHidden(ConstraintDiffModel::ChangeColumn, true);
    m_checksView->setColumnHidden(ValidationDiffModel::ChangeColumn, true);

    // Tables on top (components beside constraints and checks), the combined graph below at full
    // width: Graphviz drawings of recipes are wide and shallow.
    auto* lists = new QSplitter(Qt::Vertical, this);
    lists->setObjectName(QStringLiteral("compareListsSplitter"));
    lists->setChildrenCollapsible(false);
    lists->addWidget(
        group(tr("Constraints"), QStringLiteral("compareConstraintsGroup"), m_constraintsView, this));
    lists->addWidget(group(tr("Validation checks and phase settings"), QStringLiteral("compareChecksGroup"),
                           m_checksView, this));

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->setObjectName(QStringLiteral("compareTopSplitter"));
    top->setChildrenCollapsible(false);
    top->addWidget(group(tr("Components"), QStringLiteral("compareComponentsGroup"), m_componentsView, this));
    top->addWidget(lists);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    top->setSizes({570, 440});

    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("compareSplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(top);
    split->addWidget(
        group(tr("Combined graph"), QStringLiteral("compareGraphGroup"), m_graph, this, graphHeader));
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({340, 320});

    return split;
}

void ComparePane::connectSignals() {
    for (QTableView* t : {m_componentsView, m_constraintsView, m_checksView})
        t->viewport()->installEventFilter(this);

    m_updateTimer = new QTimer(this);
    m_updateTimer->setSingleShot(true);
    m_updateTimer->setInterval(0);
    connect(m_updateTimer, &QTimer::timeout, this, &ComparePane::refresh);

    connect(m_from, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing)
            scheduleUpdate();
    });
    connect(m_to, &QComboBox::currentIndexChanged, this, [this] {
        if (m_syncing)
            return;
        fillToRecipes();
        scheduleUpdate();
    });
    connect(m_toRecipe, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing)
            scheduleUpdate();
    });
    connect(m_swap, &QToolButton::clicked, this, [this] {
        const int from = m_from->currentIndex(), to = m_to->currentIndex();
        m_syncing = true;
        m_from->setCurrentIndex(to);
        m_to->setCurrentIndex(from);
        m_syncing = false;
        fillToRecipes();
        scheduleUpdate();
    });
    connect(m_changesOnly, &QCheckBox::toggled, this, [this](bool on) {
        const QString keep = m_graph->selectedNode();
        m_componentsModel->setChangesOnly(on);
        m_constraintsModel->setChangesOnly(on);
        m_checksModel->setChangesOnly(on);
        m_syncing = true;
        const int row = m_componentsModel->rowOf(keep);
        if (row >= 0)
            m_componentsView->selectRow(row);
        m_syncing = false;
    });
    connect(m_hideVersionOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_componentsModel->setHideVersionOnly(on);
        showRecipeSummary();
        showCatalogSummary();
    });
    connect(m_fit, &QToolButton::clicked, m_graph, &GraphView::fitGraph);

    // The table and the graph follow each other.
    connect(m_componentsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (m_syncing)
                    return;
                m_graph->selectNode(current.isValid() ? current.data(models::NameRole).toString()
                                                      : QString());
            });
    connect(m_graph, &GraphView::nodeClicked, this, [this](const QString& name) {
        m_syncing = true;
        const int row = m_componentsModel->rowOf(name);
        if (row >= 0) {
            m_componentsView->selectRow(row);
            m_componentsView->scrollTo(m_componentsModel->index(row, 0));
        } else {
            m_componentsView->clearSelection();
            m_componentsView->setCurrentIndex(QModelIndex());
        }
        m_syncing = false;
    });
}

ComparePane::ComparePane(models::Workspace& workspace, models::CatalogTreeModel* versions,
                         CatalogSource source, QWidget* parent)
    : QWidget(parent), m_versions(versions), m_source(std::move(source)), m_workspace(workspace) {
    setObjectName(QStringLiteral("comparePane"));

    m_componentsModel = new ComponentDiffModel(this);
    m_componentsModel->setObjectName(QStringLiteral("componentDiffModel"));
    m_constraintsModel = new ConstraintDiffModel(this);
    m_constraintsModel->setObjectName(QStringLiteral("constraintDiffModel"));
    m_checksModel = new ValidationDiffModel(this);
    m_checksModel->setObjectName(QStringLiteral("validationDiffModel"));

    QHBoxLayout* pickers = buildPickers();
    m_recipeSummary = new QLabel(this);
    m_recipeSummary->setObjectName(QStringLiteral("compareRecipeSummary"));
    m_recipeSummary->setTextFormat(Qt::RichText);
    m_recipeSummary->setWordWrap(true);
    m_recipeSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setFrameShape(QFrame::StyledPanel);
    m_summary->setMargin(6);

    QSplitter* split = buildBody();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 6, 4);
    layout->setSpacing(6);
    layout->addLayout(pickers);
    layout->addWidget(m_recipeSummary);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connectSignals();

    if (m_versions)
        connect(m_versions, &QAbstractItemModel::modelReset, this, &ComparePane::reloadVersions);
    reloadVersions();
    clear();
}

ComparePane::~ComparePane() = default;

void ComparePane::reloadVersions() {
    const QString from = fromLabel(), to = toLabel();
    m_syncing = true;
    m_from->clear();
    m_to->clear();
    // Version order (catalog/VersionOrder.h), whatever order the tree lists them in; newest first.
    std::vector<const models::CatalogVersionInfo*> infos;
    for (int v = 0; m_versions && v < m_versions->versionCount(); ++v)
        if (const models::CatalogVersionInfo* info = m_versions->versionAt(m_versions->index(v, 0)))
            infos.push_back(info);
    std::vector<catalog::VersionOrderKey> keys;
    for (const models::CatalogVersionInfo* info : infos)
        keys.push_back({info->label, info->origin.commitDate, info->isSample()});
    m_order.clear();
    m_ordered.clear();
    for (int i : catalog::versionOrder(keys)) {
        m_order << infos[static_cast<size_t>(i)]->label;
        m_ordered.push_back(*infos[static_cast<size_t>(i)]);
    }
    for (qsizetype k = m_order.size() - 1; k >= 0; --k) {
        const models::CatalogVersionInfo* info = nullptr;
        for (const models::CatalogVersionInfo* x : infos)
            if (x->label == m_order[k])
                info = x;
        const QString text = info->isSample() ? tr("%1 (sample data)").arg(info->label) : info->label;
        const QString tip =
            tr("%1\nfrom %2\nplaced by %3").arg(info->label, info->originText(), info->orderBasis());
        for (QComboBox* c : {m_from, m_to}) {
            c->addItem(text, info->label);
            c->setItemData(c->count() - 1, tip, Qt::ToolTipRole);
            c->setItemData(c->count() - 1, info->isSample(), SampleRole);
        }
    }
    m_from->setCurrentIndex(std::max(0, m_from->findData(from)));
    m_to->setCurrentIndex(std::max(0, m_to->findData(to)));
    m_syncing = false;
    // Versions may be gone or re-imported: forget what was compared.
    m_catalogDiffs.clear();
    m_catalogErrors.clear();
    fillToRecipes();
    if (m_hasRecipe)
        scheduleUpdate();
}

bool ComparePane::isSampleLabel(const QString& label) const {
    const int at = m_from->findData(label);
    return at >= 0 && m_from->itemData(at, SampleRole).toBool();
}

void ComparePane::fillToRecipes() {
    const QString keep = toRecipeName().isEmpty() ? m_info.name : toRecipeName();
    m_syncing = true;
    m_toRecipe->clear();
    if (const std::vector<models::RecipeInfo>* recipes =
            m_versions ? m_versions->recipesOf(toLabel()) : nullptr)
        for (const models::RecipeInfo& r : *recipes)
            m_toRecipe->addItem(r.name, r.name);
    int at = m_toRecipe->findData(keep);
    if (at < 0)
        at = m_toRecipe->findData(m_info.name);
    m_toRecipe->setCurrentIndex(at);
    m_syncing = false;
}

QString ComparePane::fromLabel() const {
    return m_from->currentData().toString();
}

QString ComparePane::toLabel() const {
    return m_to->currentData().toString();
}

QString ComparePane::toRecipeName() const {
    return m_toRecipe->currentData().toString();
}

const models::RecipeInfo* ComparePane::findRecipe(const QString& label, const QString& name) const {
    const std::vector<models::RecipeInfo>* recipes = m_versions ? m_versions->recipesOf(label) : nullptr;
    if (!recipes)
        return nullptr;
    for (const models::RecipeInfo& r : *recipes)
        if (r.name == name)
            return &r;
    return nullptr;
}

const catalog::CatalogDiff* ComparePane::catalogDiff() const {
    const auto it = m_catalogDiffs.find(pairKey(fromLabel(), toLabel()));
    return it == m_catalogDiffs.end() ? nullptr : it->second.get();
}

void ComparePane::setRecipe(const models::RecipeInfo& info) {
    if (m_hasRecipe && info.catalogLabel == m_info.catalogLabel && info.name == m_info.name)
        return; // shown again (its catalog finished loading): keep the user's pickers
    const bool versionChanged = !m_hasRecipe || info.catalogLabel != m_info.catalogLabel;
    m_info = info;
    m_hasRecipe = true;
    if (versionChanged) {
        // Default: this version's default baseline (models::defaultBaselineIndex: the version before it
        // in version order, never sample data for a real version, none for one whose place is
        // unknown) → this one; without a baseline, this one → the next.
        QString from = info.catalogLabel, to = info.catalogLabel;
        const qsizetype self = m_order.indexOf(info.catalogLabel);
        if (self >= 0) {
            if (const std::optional<std::size_t> b =
                    models::defaultBaselineIndex(m_ordered, std::size_t(self)))
                from = m_order[qsizetype(*b)];
            else if (self + 1 < m_order.size())
                to = m_order[self + 1];
        }
        m_syncing = true;
        m_from->setCurrentIndex(std::max(0, m_from->findData(from)));
        m_to->setCurrentIndex(std::max(0, m_to->findData(to)));
        m_syncing = false;
    }
    m_syncing = true;
    m_toRecipe->setCurrentIndex(-1);
    m_syncing = false;
    fillToRecipes();
    for (QWidget* w : std::initializer_list<QWidget*>{m_from, m_to, m_toRecipe, m_swap, m_changesOnly,
                                                      m_hideVersionOnly, m_fit})
        w->setEnabled(true);
    scheduleUpdate();
}

void ComparePane::clear(const QString& message) {
    m_hasRecipe = false;
    m_info = {};
    ++m_generation;
    m_shownGeneration = m_generation;
    m_dirty = false;
    m_diff.reset();
    m_componentsModel->clear();
    m_constraintsModel->clear();
    m_checksModel->clear();
    m_graph->clearGraph(message.isEmpty() ? tr("Select a recipe to compare it across catalog versions")
                                          : message);
    m_recipeSummary->setText(QStringLiteral("<span style='color:gray'>%1</span>")
                                 .arg(tr("Select a recipe in the tree to compare it.").toHtmlEscaped()));
    m_summary->clear();
    m_summary->setVisible(false);
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_toRecipe, m_swap, m_changesOnly, m_hideVersionOnly, m_fit})
        w->setEnabled(false);
}

void ComparePane::catalogLoaded(const QString& label, const QString& error) {
    if (!error.isEmpty())
        m_catalogErrors[label] = error;
    else
        m_catalogErrors.erase(label);
    if (m_hasRecipe && (label == fromLabel() || label == toLabel()))
        scheduleUpdate();
}

bool ComparePane::isUpToDate() const {
    return !m_dirty && !m_updateTimer->isActive() && m_shownGeneration == m_generation;
}

void ComparePane::scheduleUpdate() {
    m_dirty = true;
    if (isVisible())
        m_updateTimer->start();
}

void ComparePane::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_dirty)
        m_updateTimer->start();
}

void ComparePane::setBusyText(const QString& text) {
    m_recipeSummary->setText(QStringLiteral("<span style='color:gray'>%1</span>").arg(text.toHtmlEscaped()));
}

void ComparePane::refresh() {
    if (!isVisible() || !m_hasRecipe)
        return; // shown later: showEvent() comes back here
    m_dirty = false;
    const int generation = ++m_generation;
    const QString from = fromLabel(), to = toLabel();
    const QString toName = toRecipeName();
    if (from.isEmpty() || to.isEmpty()) {
        m_shownGeneration = generation;
        return;
    }
    for (const QString& label : {from, to}) {
        if (auto e = m_catalogErrors.find(label); e != m_catalogErrors.end()) {
            m_shownGeneration = generation;
            m_recipeSummary->setText(
                coloured(QColor(0xB0, 0x00, 0x20),
                         tr("Cannot load catalog %1: %2").arg(label, e->second).toHtmlEscaped()));
            return;
        }
    }
    std::shared_ptr<const catalog::Catalog> fromCat = m_source(from);
    std::shared_ptr<const catalog::Catalog> toCat = m_source(to);
    if (!fromCat || !toCat) {
        setBusyText(tr("Loading catalog %1…").arg(!fromCat ? from : to));
        return; // catalogLoaded() schedules the next try
    }
    startCatalogDiff(from, to, fromCat, toCat);
    showCatalogSummary();

    const models::RecipeInfo* fromInfo = findRecipe(from, m_info.name);
    const models::RecipeInfo* toInfo = findRecipe(to, toName);
    const QString fromLeaf = fromInfo ? fromInfo->leafOverlay : QString();
    const QString toLeaf = toInfo ? toInfo->leafOverlay : QString();

    const bool fromSample = isSampleLabel(from), toSample = isSampleLabel(to);
    auto compare = [fromCat, toCat, fromLeaf, toLeaf, from, to, generation, fromSample,
                    toSample](const ops::Context&) -> Result<RecipeOutcome> {
        RecipeOutcome out;
        out.generation = generation;
        // A side without the recipe compares as empty: everything added (or removed).
        ops::DiffRequest request;
        request.from = loadedRef(from, fromCat, fromSample);
        request.to = loadedRef(to, toCat, toSample);
        if (!fromLeaf.isEmpty())
            request.fromQuery = ops::RecipeQuery::stored(fromLeaf);
        if (!toLeaf.isEmpty())
            request.toQuery = ops::RecipeQuery::stored(toLeaf);
        Result<ops::DiffResult> d = ops::diff(nullptr, request);
        if (!d) {
            out.error =
                QObject::tr("%1 does not resolve: %2")
                    .arg(fromLeaf.isEmpty() || fromLeaf == toLeaf ? toLeaf : fromLeaf, d.error().toString());
            return out;
        }
        const catalog::RecipeResult& a = d->fromRecipe;
        const catalog::RecipeResult& b = d->toRecipe;
        out.diff = std::move(*d->recipe);
        Result<graph::ComponentGraph> g = graph::layoutRecipe(unionRecipe(a, b, *out.diff));
        if (g)
            out.graph = std::move(*g);
        else
            out.graphError = g.error().toString();
        return out;
    };
    m_workspace.read<RecipeOutcome>(this, std::move(compare),
                                    [this, generation](const Result<RecipeOutcome>& outcome) {
                                        if (outcome) {
                                            onRecipeOutcome(*outcome);
                                            return;
                                        }
                                        RecipeOutcome failed;
                                        failed.generation = generation;
                                        failed.error = outcome.error().toString();
                                        onRecipeOutcome(failed);
                                    });
}

void ComparePane::onRecipeOutcome(const RecipeOutcome& outcome) {
    if (outcome.generation != m_generation)
        return; // the pickers changed meanwhile; a newer comparison is running
    m_shownGeneration = outcome.generation;
    const QString keep = m_graph->selectedNode();
    if (!outcome.diff) {
        m_diff.reset();
        m_componentsModel->clear();
        m_constraintsModel->clear();
        m_checksModel->clear();
        m_graph->clearGraph(outcome.error);
        m_recipeSummary->setText(coloured(QColor(0xB0, 0x00, 0x20), outcome.error.toHtmlEscaped()));
        emit compareUpdated();
        return;
    }
    m_diff = outcome.diff;
    m_componentsModel->setDiff(*m_diff);
    m_constraintsModel->setDiff(*m_diff);
    m_checksModel->setDiff(*m_diff);
    fitAllColumns();
    if (outcome.graph)
        m_graph->setGraph(*outcome.graph, compareStyles(*m_diff));
    else
        m_graph->clearGraph(tr("Graphviz could not lay out the combined graph:\n%1").arg(outcome.graphError));
    m_syncing = true;
    const int row = m_componentsModel->rowOf(keep);
    if (row >= 0) {
        m_componentsView->selectRow(row);
        m_graph->selectNode(keep);
    }
    m_syncing = false;
    showRecipeSummary();
    emit compareUpdated();
}

void ComparePane::fitAllColumns() {
    const int ch = fontMetrics().horizontalAdvance(QLatin1Char('x'));
    fitColumns(m_componentsView, 9 * ch);
    fitColumns(m_constraintsView, 12 * ch);
    fitColumns(m_checksView, 8 * ch);
}

bool ComparePane::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize &&
        (watched == m_componentsView->viewport() || watched == m_constraintsView->viewport() ||
         watched == m_checksView->viewport()))
        fitAllColumns();
    return QWidget::eventFilter(watched, event);
}

void ComparePane::showRecipeSummary() {
    if (!m_diff)
        return;
    const catalog::RecipeDiff& d = *m_diff;
    const QString fromName = findRecipe(d.fromLabel, m_info.name) ? m_info.name : QString();
    const QString toName = findRecipe(d.toLabel, toRecipeName()) ? toRecipeName() : QString();
    auto side = [](const QString& name, const QString& label, bool sample) {
        const QString mark =
            sample ? QStringLiteral(
                         " <span style='background-color:#fff3cd; color:#7a5a00'>&nbsp;%1&nbsp;</span>")
                         .arg(QObject::tr("sample data"))
                   : QString();
        return name.isEmpty()
                   ? QObject::tr("<i>nothing</i> in %1").arg(label.toHtmlEscaped()) + mark
                   : QStringLiteral("<b>%1</b> %2").arg(name.toHtmlEscaped(), label.toHtmlEscaped()) + mark;
    };
    QString text = side(fromName, d.fromLabel, d.fromSample) + QStringLiteral(" → ") +
                   side(toName, d.toLabel, d.toSample) + QStringLiteral(": ");
    // Both digests, labelled, in full (selectable); one value when the two sides agree.
    auto digestLine = [](const QString& what, const QString& a, const QString& b) {
        const QString x = catalog::prefixedDigest(a), y = catalog::prefixedDigest(b);
        return QStringLiteral("<br><span style='color:gray'>%1</span> <code>%2</code>")
            .arg(what, a == b ? x : x + QStringLiteral("</code> → <code>") + y);
    };
    const QString digests = digestLine(tr("evidence digest"), d.fromEvidenceDigest, d.toEvidenceDigest) +
                            digestLine(tr("parity digest"), d.fromParityDigest, d.toParityDigest);
    QString format;
    for (const catalog::FieldChange& f : d.format)
        format += QStringLiteral("<br>") +
                  coloured(ChangeColors::changed(),
                           tr("format: %1 %2 → %3").arg(f.field, f.from, f.to).toHtmlEscaped());
    if (d.identical()) {
        text += coloured(QColor(0x60, 0x60, 0x60), tr("identical"));
        m_recipeSummary->setText(text + digests);
        return;
    }
    const int hidden = m_componentsModel->hiddenVersionOnly();
    QStringList parts;
    parts << coloured(ChangeColors::changed(), tr("%1 changed").arg(d.count(Change::Changed) - hidden))
          << coloured(ChangeColors::added(), tr("%1 added").arg(d.count(Change::Added)))
          << coloured(ChangeColors::removed(), tr("%1 removed").arg(d.count(Change::Removed)))
          << tr("%1 unchanged").arg(d.count(Change::Unchanged));
    if (hidden > 0)
        parts << tr("%1 version-only hidden").arg(hidden);
    else if (d.versionOnlyCount() > 0)
        parts << tr("%1 of the changes version-only").arg(d.versionOnlyCount());
    text += parts.join(QStringLiteral(", ")) + tr(" components");
    int moves = 0;
    for (const catalog::ComponentDiff& c : d.components)
        moves += c.orderMoved() ? 1 : 0;
    if (moves > 0)
        text += tr(" · %1").arg(models::counted(moves, tr("order move"), tr("order moves")));
    Counts constraints;
    for (const catalog::ConstraintDiff& c : d.constraints)
        (c.change == Change::Added     ? constraints.added
         : c.change == Change::Removed ? constraints.removed
         : c.change == Change::Changed ? constraints.changed
                                       : constraints.unchanged)++;
    Counts checks;
    for (const catalog::CheckDiff& c : d.checks)
        (c.change == Change::Added     ? checks.added
         : c.change == Change::Removed ? checks.removed
                                       : checks.unchanged)++;
    checks.changed = int(d.phaseSettings.size());
    text += tr(" · constraints %1 · validation %2 · applied overlays %3")
                .arg(compactCounts(constraints), compactCounts(checks),
                     compactCounts(countOf(d.appliedOverlays)));
    m_recipeSummary->setText(text + format + digests);
}

void ComparePane::startCatalogDiff(const QString& from, const QString& to,
                                   std::shared_ptr<const catalog::Catalog> fromCat,
                                   std::shared_ptr<const catalog::Catalog> toCat) {
    const QString key = pairKey(from, to);
    if (m_catalogDiffs.count(key) || m_catalogDiffRunning[key])
        return;
    m_catalogDiffRunning[key] = true;
    // Resolves every leaf of both versions: a few hundred ms, never on the GUI thread.
    const bool fromSample = isSampleLabel(from), toSample = isSampleLabel(to);
    m_workspace.read<CatalogOutcome>(
        this,
        [fromCat, toCat, from, to, key, fromSample, toSample](const ops::Context&) -> Result<CatalogOutcome> {
            ops::DiffRequest request;
            request.from = loadedRef(from, fromCat, fromSample);
            request.to = loadedRef(to, toCat, toSample);
            request.allLeaves = true;
            Result<ops::DiffResult> d = ops::diff(nullptr, request);
            if (!d)
                return d.error();
            auto diff = std::make_shared<const catalog::CatalogDiff>(std::move(*d->catalog));
            return CatalogOutcome{key, std::shared_ptr<const catalog::CatalogDiff>(std::move(diff))};
        },
        [this, key](const Result<CatalogOutcome>& outcome) {
            m_catalogDiffRunning.erase(key);
            m_catalogDiffs[key] = outcome ? outcome->diff : nullptr;
            if (key == pairKey(fromLabel(), toLabel())) {
                showCatalogSummary();
                emit catalogSummaryUpdated();
            }
        });
}

void ComparePane::showCatalogSummary() {
    m_summary->setVisible(true);
    const QString from = fromLabel(), to = toLabel();
    const catalog::CatalogDiff* d = catalogDiff();
    const QString title =
        tr("<b>Catalog %1 → %2</b>")
            .arg((isSampleLabel(from) ? tr("%1 (sample data)").arg(from) : from).toHtmlEscaped(),
                 (isSampleLabel(to) ? tr("%1 (sample data)").arg(to) : to).toHtmlEscaped());
    if (!d) {
        m_summary->setText(
            title +
            QStringLiteral(": <span style='color:gray'>%1</span>").arg(tr("comparing every leaf recipe…")));
        return;
    }
    const bool hide = m_hideVersionOnly->isChecked();
    int hidden = 0;
    auto visible = [&](const std::vector<catalog::NamedChange>& list) {
        std::vector<catalog::NamedChange> out;
        for (const catalog::NamedChange& n : list) {
            if (hide && n.versionOnly)
                ++hidden;
            else
                out.push_back(n);
        }
        return out;
    };
    const Counts leaves = countOf(visible(d->leaves));
    QString text = title + QStringLiteral(": ");
    text += tr("%1 — ").arg(models::counted(int(d->leaves.size()), tr("leaf recipe"), tr("leaf recipes")));
    text += QStringList{coloured(ChangeColors::changed(), tr("%1 changed").arg(leaves.changed)),
                        coloured(ChangeColors::added(), tr("%1 added").arg(leaves.added)),
                        coloured(ChangeColors::removed(), tr("%1 removed").arg(leaves.removed)),
                        tr("%1 unchanged").arg(leaves.unchanged)}
                .join(QStringLiteral(", "));
    text += tr(" (by evidence digest)");
    text += tr(" · overlays %1 · mixins %2 · registry %3 · validator checks %4")
                .arg(compactCounts(countOf(visible(d->overlays))), compactCounts(countOf(visible(d->mixins))),
                     compactCounts(countOf(visible(d->registry))),
                     compactCounts(countOf(visible(d->validators))));
    if (hidden > 0)
        text += QStringLiteral(" · <span style='color:gray'>%1</span>")
                    .arg(tr("%1 version-only hidden").arg(hidden).toHtmlEscaped());
    QStringList formats;
    for (const catalog::NamedChange& n : d->formats)
        if (n.change == Change::Changed)
            formats << tr("%1 %2 → %3").arg(n.name, n.from, n.to).toHtmlEscaped();
    if (!formats.isEmpty())
        text += QStringLiteral("<br>") +
                coloured(ChangeColors::changed(), tr("Format: %1").arg(formats.join(QStringLiteral("; "))));
    if (!d->componentMoves.empty()) {
        QStringList moved;
        for (size_t i = 0; i < d->componentMoves.size() && i < 6; ++i)
            moved << tr("<b>%1</b> in %2")
                         .arg(d->componentMoves[i].first.toHtmlEscaped())
                         .arg(models::counted(d->componentMoves[i].second, tr("leaf"), tr("leaves")));
        if (d->componentMoves.size() > 6)
            moved << tr("%1 more").arg(d->componentMoves.size() - 6);
        text +=
            QStringLiteral("<br>") + tr("Versions that moved most: %1").arg(moved.join(QStringLiteral(", ")));
    } else {
        text +=
            QStringLiteral("<br><span style='color:gray'>%1</span>").arg(tr("No component version moved."));
    }
    m_summary->setText(text);
}

} // namespace pb::widgets
