#include "ValidationPane.h"
#include "Plural.h"

#include "OpRunner.h"
#include "PerfCharts.h"
#include "WidgetUtil.h"
#include "core/Files.h"
#include "sigstore/Keys.h"
#include "validation/Score.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTextBlock>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace pb::widgets {

using models::CheckTableModel;
using models::KubeContextsModel;
using models::RunListModel;
using models::ValidationController;
using validation::CheckRun;
using validation::CheckState;
using validation::RunResult;
using validation::RunState;

namespace {

// Where a run's figures came from, for legends: the imported file, or the context and run id.
QString sourceLabel(const models::RunSummary& s, const validation::CheckRun& c) {
    if (s.source == QLatin1String("import"))
        return QObject::tr("import %1").arg(QFileInfo(c.image).fileName());
    return s.context.isEmpty() ? QObject::tr("run %1").arg(s.runUid)
                               : QObject::tr("%1 run %2").arg(s.context, s.runUid);
}

const QColor kInfoTint(0xe3, 0xf2, 0xfd), kInfoInk(0x0d, 0x47, 0xa1);
const QColor kPassTint(0xe8, 0xf5, 0xe9), kPassInk(0x1b, 0x5e, 0x20);
const QColor kFailTint(0xff, 0xeb, 0xee), kFailInk(0xb7, 0x1c, 0x1c);
const QColor kWarnTint(0xff, 0xf8, 0xe1), kWarnInk(0x8d, 0x5b, 0x00);

QLineEdit* lineEdit(const char* name, const QString& placeholder, QWidget* parent) {
    auto* e = new QLineEdit(parent);
    e->setObjectName(QLatin1String(name));
    e->setPlaceholderText(placeholder);
    e->setClearButtonEnabled(true);
    return e;
}

std::optional<validation::Threshold> thresholdOf(const CheckRun& c, const catalog::RecipeResult& recipe) {
    if (c.score)
        for (const validation::ScoredMetric& m : c.score->metrics)
            if (m.threshold)
                return m.threshold;
    if (recipe.validation && recipe.validation->performance && recipe.validation->performance->constraints)
        for (const catalog::Constraint& k : *recipe.validation->performance->constraints)
            if (k.name == c.name)
                return validation::parseThreshold(k);
    return std::nullopt;
}

} // namespace

// A stored run read on the worker, with the runs overlaid on its chart and its recipe's history.
struct ValidationPane::RunsRead {
    models::StoredRun main;
    std::vector<models::StoredRun> others;
    Result<std::vector<models::HistoryPoint>> history =
        Result<std::vector<models::HistoryPoint>>(std::vector<models::HistoryPoint>{});
};

ValidationPane::ValidationPane(models::Workspace& workspace, QWidget* parent)
    : QWidget(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("validationPane"));
    m_controller = new ValidationController(workspace, this);
    m_controller->setObjectName(QStringLiteral("validationController"));
    m_contexts = new KubeContextsModel(this);
    m_contexts->setObjectName(QStringLiteral("kubeContextsModel"));
    m_checks = new CheckTableModel(this);
    m_checks->setObjectName(QStringLiteral("checkTableModel"));
    m_runs = new RunListModel(this);
    m_runs->setObjectName(QStringLiteral("runListModel"));
    buildUi();

    connect(m_controller, &ValidationController::stageChanged, this, [this] { updateButtons(); });
    connect(m_controller, &ValidationController::message, this,
            [this](const QString& m) { emit statusMessage(m, 6000); });
    connect(m_controller, &ValidationController::planned, this, &ValidationPane::onPlanned);
    connect(m_controller, &ValidationController::checkChanged, this, &ValidationPane::onCheckChanged);
    connect(m_controller, &ValidationController::logChunk, this, &ValidationPane::onLogChunk);
    connect(m_controller, &ValidationController::finished, this, &ValidationPane::onFinished);
    connect(m_controller, &ValidationController::cleanupFinished, this, &ValidationPane::onCleanupFinished);

    m_ticker = new QTimer(this);
    m_ticker->setInterval(500);
    connect(m_ticker, &QTimer::timeout, this, [this] { m_checks->tick(QDateTime::currentDateTimeUtc()); });

    std::vector<models::KubeFileEntry> files;
    for (const QString& f : models::kubeconfigCandidates())
        files.push_back(models::readKubeconfigFile(f));
    m_contexts->setFiles(std::move(files));
    m_contextView->expandAll();
    for (int r = 0; r < m_contexts->rowCount(); ++r) {
        const QModelIndex file = m_contexts->index(r, 0);
        for (int c = 0; c < m_contexts->rowCount(file); ++c)
            if (m_contexts->index(c, 0, file).data(KubeContextsModel::CurrentRole).toBool()) {
                m_contextView->setCurrentIndex(m_contexts->index(c, 0, file));
                r = m_contexts->rowCount();
                break;
            }
    }
    reload();
    updateButtons();
}

ValidationPane::~ValidationPane() {
    // The controller cancels and joins its worker; nothing it says reaches this half-gone view.
    m_controller->disconnect(this);
    delete m_controller;
}

// The view is built in parts: the form (cluster, recipe, run settings, buttons, runs) on the left,
// the results (banner, checks, log and charts) on the right.
void ValidationPane::buildUi() {
    QWidget* form = buildForm();
    QWidget* right = buildResults();
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("validationFormScroll"));
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(430);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("validationSplitter"));
    split->addWidget(scroll);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({520, 880});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

QWidget* ValidationPane::buildForm() {
    auto* form = new QWidget(this);
    form->setObjectName(QStringLiteral("validationForm"));
    QGroupBox* clusterBox = buildClusterBox(form);
    QGroupBox* recipeBox = buildRecipeBox(form);
    QGroupBox* runBox = buildRunBox(form);
    QHBoxLayout* buttons = buildButtons(form);
    QGroupBox* runsBox = buildRunsBox(form);
    auto* formLayout = new QVBoxLayout(form);
    formLayout->setContentsMargins(6, 8, 4, 4);
    formLayout->addWidget(clusterBox, 3);
    formLayout->addWidget(recipeBox);
    formLayout->addWidget(runBox);
    formLayout->addLayout(buttons);
    formLayout->addWidget(runsBox, 2);

    return form;
}

QGroupBox* ValidationPane::buildClusterBox(QWidget* form) {
    QGroupBox* clusterBox = group(tr("Cluster"), "validationClusterGroup", form);
    m_contextView = new QTreeView(clusterBox);
    m_contextView->setObjectName(QStringLiteral("kubeContextsView"));
    m_contextView->setModel(m_contexts);
    m_contextView->setUniformRowHeights(true);
    m_contextView->setAlternatingRowColors(true);
    m_contextView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_contextView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_contextView->header()->setStretchLastSection(true);
    m_contextView->setColumnWidth(KubeContextsModel::NameColumn, 190);
    m_contextView->setColumnWidth(KubeContextsModel::ServerColumn, 170);
    m_contextView->setMinimumHeight(120);
    m_contextView->setToolTip(tr("Every context of every kubeconfig file: $KUBECONFIG, ~/.kube/config, "
                                 "~/.kube/*.yaml and the files you add"));
    connect(m_contextView->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this] { updateButtons(); });
    auto* addFile = new QPushButton(tr("Add kubeconfig…"), clusterBox);
    addFile->setObjectName(QStringLiteral("addKubeconfigButton"));
    addFile->setToolTip(tr("List the contexts of another kubeconfig file"));
    connect(addFile, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Add a kubeconfig"),
                                                       QDir::homePath() + QStringLiteral("/.kube"));
        if (!f.isEmpty())
            addKubeconfig(f);
    });
    auto* reread = new QPushButton(tr("Re-read"), clusterBox);
    reread->setObjectName(QStringLiteral("rereadKubeconfigButton"));
    connect(reread, &QPushButton::clicked, this, [this] {
        for (const models::KubeFileEntry& f : std::vector<models::KubeFileEntry>(m_contexts->files()))
            m_contexts->addFile(models::readKubeconfigFile(f.file));
        m_contextView->expandAll();
    });
    auto* clusterLayout = new QVBoxLayout(clusterBox);
    clusterLayout->addWidget(m_contextView, 1);
    auto* clusterButtons = new QHBoxLayout;
    clusterButtons->addWidget(addFile);
    clusterButtons->addWidget(reread);
    clusterButtons->addStretch(1);
    clusterLayout->addLayout(clusterButtons);

    return clusterBox;
}

QGroupBox* ValidationPane::buildRecipeBox(QWidget* form) {
    QGroupBox* recipeBox = group(tr("Recipe"), "validationRecipeGroup", form);
    m_fromCatalog = new QRadioButton(tr("From the catalog"), recipeBox);
    m_fromCatalog->setObjectName(QStringLiteral("recipeFromCatalog"));
    m_fromFile = new QRadioButton(tr("RecipeResult file"), recipeBox);
    m_fromFile->setObjectName(QStringLiteral("recipeFromFile"));
    m_fromCatalog->setChecked(true);
    m_versionCombo = new QComboBox(recipeBox);
    m_versionCombo->setObjectName(QStringLiteral("catalogVersionCombo"));
    m_recipeCombo = new QComboBox(recipeBox);
    m_recipeCombo->setObjectName(QStringLiteral("recipeCombo"));
    m_recipeCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_recipeCombo->setMinimumContentsLength(24);
    m_versionCombo->view()->setObjectName(QStringLiteral("catalogVersionList"));
    m_recipeCombo->view()->setObjectName(QStringLiteral("recipeList"));
    connect(m_versionCombo, &QComboBox::currentIndexChanged, this, [this] { loadRecipes(); });
    connect(m_versionCombo, &QComboBox::activated, this, [this] { m_versionChosen = true; });
    m_recipeFile = lineEdit("recipeFileEdit", tr("recipe.yaml (aicr recipe output)"), recipeBox);
    QPushButton* recipeBrowse =
        browseButton("recipeFileBrowse", tr("Choose a RecipeResult YAML file"), recipeBox);
    connect(recipeBrowse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("RecipeResult file"), {},
                                                       tr("YAML (*.yaml *.yml);;All files (*)"));
        if (!f.isEmpty()) {
            m_recipeFile->setText(f);
            m_fromFile->setChecked(true);
        }
    });
    auto* recipeGrid = new QGridLayout(recipeBox);
    recipeGrid->addWidget(m_fromCatalog, 0, 0, 1, 3);
    recipeGrid->addWidget(new QLabel(tr("Version"), recipeBox), 1, 0);
    recipeGrid->addWidget(m_versionCombo, 1, 1, 1, 2);
    recipeGrid->addWidget(new QLabel(tr("Recipe"), recipeBox), 2, 0);
    recipeGrid->addWidget(m_recipeCombo, 2, 1, 1, 2);
    recipeGrid->addWidget(m_fromFile, 3, 0, 1, 3);
    recipeGrid->addWidget(m_recipeFile, 4, 0, 1, 2);
    recipeGrid->addWidget(recipeBrowse, 4, 2);
    recipeGrid->setColumnStretch(1, 1);
    auto syncSource = [this] {
        m_versionCombo->setEnabled(m_fromCatalog->isChecked());
        m_recipeCombo->setEnabled(m_fromCatalog->isChecked());
        m_recipeFile->setEnabled(m_fromFile->isChecked());
        updateButtons();
    };
    connect(m_fromCatalog, &QRadioButton::toggled, this, syncSource);
    connect(m_recipeFile, &QLineEdit::textChanged, this, [this] { updateButtons(); });

    return recipeBox;
}

QGroupBox* ValidationPane::buildRunBox(QWidget* form) {
    QGroupBox* runBox = group(tr("Run"), "validationRunGroup", form);
    m_phaseDeployment = new QCheckBox(tr("deployment"), runBox);
    m_phaseDeployment->setObjectName(QStringLiteral("phaseDeployment"));
    m_phaseConformance = new QCheckBox(tr("conformance"), runBox);
    m_phaseConformance->setObjectName(QStringLiteral("phaseConformance"));
    m_phasePerformance = new QCheckBox(tr("performance"), runBox);
    m_phasePerformance->setObjectName(QStringLiteral("phasePerformance"));
    for (QCheckBox* b : {m_phaseDeployment, m_phaseConformance, m_phasePerformance}) {
        b->setChecked(true);
        connect(b, &QCheckBox::toggled, this, [this] { updateButtons(); });
    }
    m_namespace = lineEdit("namespaceEdit", QStringLiteral("aicr-validation"), runBox);
    m_namespace->setText(QStringLiteral("aicr-validation"));
    m_keyFile = lineEdit("signingKeyEdit", tr("optional: sign the evidence with this key"), runBox);
    QPushButton* keyBrowse =
        browseButton("signingKeyBrowse", tr("Choose a private key (PEM or cosign)"), runBox);
    connect(keyBrowse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Signing key"));
        if (!f.isEmpty())
            m_keyFile->setText(f);
    });
    m_outDir = lineEdit("outputDirEdit", tr("folder for the evidence bundle"), runBox);
    m_outDir->setText(QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                          .filePath(QStringLiteral("proofbench-runs")));
    QPushButton* outBrowse = browseButton("outputDirBrowse", tr("Choose the output folder"), runBox);
    connect(outBrowse, &QPushButton::clicked, this, [this] {
        const QString d = chooseDirectory(this, tr("Output folder"), "outputDirDialog");
        if (!d.isEmpty())
            m_outDir->setText(d);
    });
    connect(m_outDir, &QLineEdit::textChanged, this, [this] { updateButtons(); });
    auto* phases = new QHBoxLayout;
    phases->addWidget(m_phaseDeployment);
    phases->addWidget(m_phaseConformance);
    phases->addWidget(m_phasePerformance);
    phases->addStretch(1);
    auto* runGrid = new QGridLayout(runBox);
    runGrid->addWidget(new QLabel(tr("Phases"), runBox), 0, 0);
    runGrid->addLayout(phases, 0, 1, 1, 2);
    runGrid->addWidget(new QLabel(tr("Namespace"), runBox), 1, 0);
    runGrid->addWidget(m_namespace, 1, 1, 1, 2);
    runGrid->addWidget(new QLabel(tr("Signing key"), runBox), 2, 0);
    runGrid->addWidget(m_keyFile, 2, 1);
    runGrid->addWidget(keyBrowse, 2, 2);
    // A run a cluster fault left incomplete is not signed unless asked (validate --sign-incomplete).
    m_signIncomplete = new QCheckBox(tr("Sign even if a cluster fault leaves the run incomplete"), runBox);
    m_signIncomplete->setObjectName(QStringLiteral("signIncompleteCheck"));
    m_signIncomplete->setToolTip(tr("The statement and pointer then say \"incomplete (cluster fault)\""));
    runGrid->addWidget(m_signIncomplete, 3, 1, 1, 2);
    runGrid->addWidget(new QLabel(tr("Output"), runBox), 4, 0);
    runGrid->addWidget(m_outDir, 4, 1);
    runGrid->addWidget(outBrowse, 4, 2);
    runGrid->setColumnStretch(1, 1);

    return runBox;
}

QHBoxLayout* ValidationPane::buildButtons(QWidget* form) {
    m_start = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Start"), form);
    m_start->setObjectName(QStringLiteral("startButton"));
    m_start->setDefault(true);
    m_start->setToolTip(tr("Run the chosen phases on the cluster (Ctrl+Return)"));
    connect(m_start, &QPushButton::clicked, this, &ValidationPane::start);
    m_cancel = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Cancel"), form);
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_cancel->setToolTip(tr("Stop the run: its Jobs and RBAC are deleted"));
    connect(m_cancel, &QPushButton::clicked, this, &ValidationPane::cancel);
    auto* startShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    connect(startShortcut, &QShortcut::activated, this, &ValidationPane::start);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_start);

    return buttons;
}

QGroupBox* ValidationPane::buildRunsBox(QWidget* form) {
    QGroupBox* runsBox = group(tr("Runs"), "validationRunsGroup", form);
    m_runView = new QTableView(runsBox);
    m_runView->setObjectName(QStringLiteral("runsTable"));
    m_runView->setModel(m_runs);
    m_runView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_runView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_runView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_runView->setAlternatingRowColors(true);
    m_runView->verticalHeader()->setVisible(false);
    m_runView->verticalHeader()->setDefaultSectionSize(m_runView->fontMetrics().height() + 8);
    m_runView->horizontalHeader()->setStretchLastSection(true);
    m_runView->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    // The run's id (8 hex digits) is never elided: it is what every verb takes.
    m_runView->setColumnWidth(RunListModel::IdColumn,
                              m_runView->fontMetrics().horizontalAdvance(QStringLiteral("0000000000")) + 12);
    m_runView->setColumnWidth(RunListModel::StartedColumn, 118);
    m_runView->setColumnWidth(RunListModel::StateColumn, 64);
    m_runView->setColumnWidth(RunListModel::ChecksColumn, 76);
    m_runView->setColumnWidth(RunListModel::RecipeColumn, 230);
    m_runView->setToolTip(tr("Select a run to reopen it; select several to overlay their NCCL results"));
    connect(m_runView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { onRunsSelected(); });
    auto* runsLayout = new QVBoxLayout(runsBox);
    runsLayout->addWidget(m_runView);

    return runsBox;
}

QWidget* ValidationPane::buildResults() {
    auto* right = new QWidget(this);
    right->setObjectName(QStringLiteral("validationResults"));
    m_banner = bannerFrame("validationBanner", right);
    m_bannerIcon = new QLabel(m_banner);
    m_bannerHeadline = bannerHeadline("validationBannerHeadline", 1.2, m_banner);
    m_bannerDetail = new QLabel(m_banner);
    m_bannerDetail->setObjectName(QStringLiteral("validationBannerDetail"));
    m_bannerDetail->setWordWrap(true);
    m_bannerDetail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layOutBanner(m_banner, m_bannerIcon, {m_bannerHeadline, m_bannerDetail});
    m_banner->hide();
    m_runTitle = grayLabel("validationRunTitle", right);
    m_runTitle->setText(tr("No run yet: pick a context and a recipe, then Start."));

    m_checkView = new QTableView(right);
    m_checkView->setObjectName(QStringLiteral("checksTable"));
    m_checkView->setModel(m_checks);
    m_checkView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_checkView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_checkView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_checkView->setAlternatingRowColors(true);
    m_checkView->verticalHeader()->setVisible(false);
    m_checkView->verticalHeader()->setDefaultSectionSize(m_checkView->fontMetrics().height() + 8);
    m_checkView->horizontalHeader()->setStretchLastSection(true);
    m_checkView->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_checkView->setColumnWidth(CheckTableModel::PhaseColumn, 110);
    m_checkView->setColumnWidth(CheckTableModel::CheckColumn, 210);
    m_checkView->setColumnWidth(CheckTableModel::StateColumn, 100);
    m_checkView->setColumnWidth(CheckTableModel::DurationColumn, 80);
    connect(m_checkView->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        if (!m_selecting)
            m_follow = false;
        onCheckSelected();
    });

    m_tabs = new QTabWidget(right);
    m_tabs->setObjectName(QStringLiteral("validationTabs"));
    m_tabs->addTab(buildLogPage(), tr("Log"));
    buildCharts();

    auto* resultsSplit = new QSplitter(Qt::Vertical, right);
    resultsSplit->setObjectName(QStringLiteral("validationResultsSplitter"));
    resultsSplit->addWidget(m_checkView);
    resultsSplit->addWidget(m_tabs);
    resultsSplit->setStretchFactor(0, 1);
    resultsSplit->setStretchFactor(1, 3);
    resultsSplit->setSizes({200, 520});
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(4, 8, 6, 4);
    // What a run could not delete from the cluster, with the button that deletes it later.
    m_leftoversRow = new QWidget(right);
    m_leftoversRow->setObjectName(QStringLiteral("leftoversRow"));
    auto* leftLayout = new QHBoxLayout(m_leftoversRow);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_leftovers = new QLabel(m_leftoversRow);
    m_leftovers->setObjectName(QStringLiteral("leftoversLabel"));
    m_leftovers->setWordWrap(true);
    m_leftovers->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_deleteLeftovers = new QPushButton(tr("Delete leftovers"), m_leftoversRow);
    m_deleteLeftovers->setObjectName(QStringLiteral("deleteLeftoversButton"));
    m_deleteLeftovers->setToolTip(
        tr("Delete what this run left on the cluster (as 'proofbench runs cleanup' does)"));
    connect(m_deleteLeftovers, &QPushButton::clicked, this, &ValidationPane::deleteLeftovers);
    leftLayout->addWidget(m_leftovers, 1);
    leftLayout->addWidget(m_deleteLeftovers, 0, Qt::AlignTop);
    m_leftoversRow->hide();
    rightLayout->addWidget(m_banner);
    rightLayout->addWidget(m_leftoversRow);
    rightLayout->addWidget(m_runTitle);
    rightLayout->addWidget(resultsSplit, 1);

    return right;
}

QWidget* ValidationPane::buildLogPage() {
    auto* logPage = new QWidget(m_tabs);
    logPage->setObjectName(QStringLiteral("logPage"));
    m_search = lineEdit("logSearch", tr("Search the log (Enter: next, Shift+Enter: previous)"), logPage);
    auto* prev = new QToolButton(logPage);
    prev->setObjectName(QStringLiteral("logFindPrevious"));
    prev->setArrowType(Qt::UpArrow);
    prev->setToolTip(tr("Previous match (Shift+Enter)"));
    auto* next = new QToolButton(logPage);
    next->setObjectName(QStringLiteral("logFindNext"));
    next->setArrowType(Qt::DownArrow);
    next->setToolTip(tr("Next match (Enter)"));
    m_searchCount = grayLabel("logSearchCount", logPage);
    m_searchCount->setWordWrap(false);
    connect(prev, &QToolButton::clicked, this, [this] { findInLog(true); });
    connect(next, &QToolButton::clicked, this, [this] { findInLog(false); });
    connect(m_search, &QLineEdit::returnPressed, this,
            [this] { findInLog(QApplication::keyboardModifiers() & Qt::ShiftModifier); });
    connect(m_search, &QLineEdit::textChanged, this, [this] {
        highlightMatches();
        findInLog(false);
    });
    m_log = new QPlainTextEdit(logPage);
    m_log->setObjectName(QStringLiteral("logView"));
    m_log->setReadOnly(true);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setMaximumBlockCount(200000);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(
        tr("The selected check's log (it follows the running check until you pick one)"));
    auto* searchRow = new QHBoxLayout;
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(prev);
    searchRow->addWidget(next);
    searchRow->addWidget(m_searchCount);
    auto* logLayout = new QVBoxLayout(logPage);
    logLayout->setContentsMargins(4, 4, 4, 4);
    logLayout->addLayout(searchRow);
    logLayout->addWidget(m_log, 1);

    return logPage;
}

void ValidationPane::buildCharts() {
    m_nccl = new NcclChart(m_tabs);
    m_inference = new InferenceChart(m_tabs);
    m_history = new HistoryChart(m_tabs);
    m_tabs->addTab(m_nccl, tr("NCCL bandwidth"));
    m_tabs->addTab(m_inference, tr("Inference"));
    m_tabs->addTab(m_history, tr("History"));
    auto* exportButton = new QPushButton(tr("Export chart…"), m_tabs);
    exportButton->setObjectName(QStringLiteral("exportChartButton"));
    exportButton->setToolTip(tr("Save the chart on view as PNG, SVG or PDF"));
    m_tabs->setCornerWidget(exportButton, Qt::TopRightCorner);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        if (auto* chart = qobject_cast<PerfChart*>(m_tabs->currentWidget()))
            chart->exportInteractively();
    });
    auto syncExport = [this, exportButton] {
        exportButton->setEnabled(qobject_cast<PerfChart*>(m_tabs->currentWidget()) != nullptr);
    };
    connect(m_tabs, &QTabWidget::currentChanged, this, syncExport);
    syncExport();
    for (PerfChart* chart : {static_cast<PerfChart*>(m_nccl), static_cast<PerfChart*>(m_inference),
                             static_cast<PerfChart*>(m_history)})
        connect(chart, &PerfChart::exported, this, [this](const QString& path, const QString& error) {
            emit statusMessage(
                error.isEmpty() ? tr("Chart saved to %1").arg(QDir::toNativeSeparators(path)) : error, 8000);
        });
}

// ---- form --------------------------------------------------------------------------------------

void ValidationPane::addKubeconfig(const QString& file) {
    const int row = m_contexts->addFile(models::readKubeconfigFile(file));
    const QModelIndex parent = m_contexts->index(row, 0);
    m_contextView->expand(parent);
    for (int c = 0; c < m_contexts->rowCount(parent); ++c)
        if (m_contexts->index(c, 0, parent).data(KubeContextsModel::CurrentRole).toBool())
            m_contextView->setCurrentIndex(m_contexts->index(c, 0, parent));
    if (const QString error = parent.data(KubeContextsModel::ErrorRole).toString(); !error.isEmpty())
        emit statusMessage(error, 10000);
}

bool ValidationPane::selectContext(const QString& file, const QString& context) {
    const QModelIndex i = m_contexts->contextIndex(file, context);
    if (!i.isValid())
        return false;
    m_contextView->setCurrentIndex(i);
    return true;
}

bool ValidationPane::selectRecipe(const QString& catalogLabel, const QString& recipe) {
    const int v = m_versionCombo->findData(catalogLabel);
    if (v < 0)
        return false;
    m_versionChosen = true;
    m_versionCombo->setCurrentIndex(v);
    for (int i = 0; i < m_recipeCombo->count(); ++i)
        if (m_recipeCombo->itemText(i) == recipe || m_recipeCombo->itemData(i).toString() == recipe) {
            m_recipeCombo->setCurrentIndex(i);
            m_fromCatalog->setChecked(true);
            return true;
        }
    return false;
}

void ValidationPane::setPhases(const QStringList& phases) {
    m_phaseDeployment->setChecked(phases.isEmpty() || phases.contains(QLatin1String("deployment")));
    m_phaseConformance->setChecked(phases.isEmpty() || phases.contains(QLatin1String("conformance")));
    m_phasePerformance->setChecked(phases.isEmpty() || phases.contains(QLatin1String("performance")));
}

void ValidationPane::setOutputDir(const QString& dir) {
    m_outDir->setText(dir);
}

void ValidationPane::reload() {
    loadVersions();
    reloadRuns();
}

void ValidationPane::loadVersions() {
    const quint64 generation = ++m_versionsGeneration;
    using Versions = std::vector<models::CatalogVersionInfo>;
    runInView<Versions>(
        this, m_workspace, [](const ops::Context& ctx) { return models::RunReader(ctx).catalogVersions(); },
        [this, generation](const Result<Versions>& versions) {
            if (generation == m_versionsGeneration)
                showVersions(versions);
        });
}

void ValidationPane::showVersions(const Result<std::vector<models::CatalogVersionInfo>>& versions) {
    const QString was = m_versionCombo->currentData().toString();
    QSignalBlocker block(m_versionCombo);
    m_versionCombo->clear();
    int newestReal = -1;
    if (versions) {
        // Newest first, as the catalog view lists them; sample data says so.
        for (auto it = versions->rbegin(); it != versions->rend(); ++it) {
            m_versionCombo->addItem(it->isSample() ? tr("%1 (sample data)").arg(it->label) : it->label,
                                    it->label);
            m_versionCombo->setItemData(
                m_versionCombo->count() - 1,
                tr("%1\nfrom %2\nplaced by %3").arg(it->label, it->originText(), it->orderBasis()),
                Qt::ToolTipRole);
            if (newestReal < 0 && !it->isSample())
                newestReal = m_versionCombo->count() - 1;
        }
    }
    // The user's choice stays; otherwise the newest real version (sample data is never the default).
    const int keep = m_versionChosen ? m_versionCombo->findData(was) : -1;
    m_versionCombo->setCurrentIndex(keep >= 0 ? keep : std::max(newestReal, 0));
    loadRecipes();
}

void ValidationPane::loadRecipes() {
    const QString was = m_recipeCombo->currentData().toString();
    const QString label = m_versionCombo->currentData().toString();
    const quint64 generation = ++m_recipesGeneration;
    if (label.isEmpty()) {
        m_recipeCombo->clear();
        return;
    }
    using Recipes = std::vector<std::pair<QString, QString>>;
    runInView<Recipes>(
        this, m_workspace, [label](const ops::Context& ctx) { return models::RunReader(ctx).recipes(label); },
        [this, generation, was](const Result<Recipes>& recipes) {
            if (generation != m_recipesGeneration)
                return;
            m_recipeCombo->clear();
            if (!recipes)
                return;
            for (const auto& [name, leaf] : *recipes)
                m_recipeCombo->addItem(name, leaf);
            const int keep = m_recipeCombo->findData(was);
            if (keep >= 0)
                m_recipeCombo->setCurrentIndex(keep);
            updateButtons();
        });
}

void ValidationPane::reloadRuns(qint64 select) {
    const quint64 generation = ++m_runsGeneration;
    runInView<std::vector<models::RunSummary>>(
        this, m_workspace, [](const ops::Context& ctx) { return models::RunReader(ctx).runs(); },
        [this, generation, select](const Result<std::vector<models::RunSummary>>& runs) {
            if (generation != m_runsGeneration)
                return;
            const QModelIndex cur = m_runView->currentIndex();
            const qint64 keep = select          ? select
                                : cur.isValid() ? cur.data(RunListModel::RunIdRole).toLongLong()
                                                : 0;
            QSignalBlocker block(m_runView->selectionModel());
            m_runs->setRuns(runs ? *runs : std::vector<models::RunSummary>{});
            if (const int row = m_runs->rowOfRun(keep); row >= 0)
                m_runView->setCurrentIndex(m_runs->index(row, 0));
            emit runsLoaded();
        });
}

bool ValidationPane::isRunning() const {
    return m_controller->busy();
}

void ValidationPane::updateButtons() {
    const bool busy = m_controller->busy();
    const QModelIndex ctx = m_contextView->currentIndex();
    const bool haveContext = ctx.isValid() && !ctx.data(KubeContextsModel::ContextRole).toString().isEmpty();
    const bool haveRecipe = m_fromCatalog->isChecked() ? m_recipeCombo->currentIndex() >= 0
                                                       : !m_recipeFile->text().trimmed().isEmpty();
    const bool havePhase =
        m_phaseDeployment->isChecked() || m_phaseConformance->isChecked() || m_phasePerformance->isChecked();
    m_start->setEnabled(!busy && haveContext && haveRecipe && havePhase &&
                        !m_outDir->text().trimmed().isEmpty());
    const bool cancelling = m_controller->stage() == ValidationController::Stage::Cancelling;
    m_cancel->setEnabled(busy && !cancelling);
    m_cancel->setText(cancelling ? tr("Cancelling…") : tr("Cancel"));
    if (cancelling)
        showBanner(tr("Cancelling…"),
                   tr("Stopping the run and deleting its Jobs and RBAC; this ends when the worker does."),
                   kWarnTint, kWarnInk);
    QString why;
    if (!haveContext)
        why = tr("Pick a context in the Cluster list");
    else if (!haveRecipe)
        why = tr("Pick a recipe");
    else if (!havePhase)
        why = tr("Tick at least one phase");
    m_start->setToolTip(why.isEmpty() ? tr("Run the chosen phases on the cluster (Ctrl+Return)") : why);
}

void ValidationPane::showBanner(const QString& headline, const QString& detail, const QColor& tint,
                                const QColor& ink) {
    m_bannerHeadline->setText(headline);
    m_bannerDetail->setText(detail);
    m_bannerDetail->setVisible(!detail.isEmpty());
    tintBanner(m_banner, m_bannerHeadline, tint, ink);
    const int px = m_bannerHeadline->fontMetrics().height();
    const QStyle::StandardPixmap icon = ink == kPassInk   ? QStyle::SP_DialogApplyButton
                                        : ink == kFailInk ? QStyle::SP_MessageBoxCritical
                                        : ink == kWarnInk ? QStyle::SP_MessageBoxWarning
                                                          : QStyle::SP_MessageBoxInformation;
    m_bannerIcon->setPixmap(style()->standardIcon(icon).pixmap(px, px));
    m_banner->show();
}

void ValidationPane::hideBanner() {
    m_banner->hide();
}

QString ValidationPane::bannerText() const {
    if (m_banner->isHidden())
        return {};
    return m_bannerHeadline->text() + QLatin1Char('\n') + m_bannerDetail->text();
}

// ---- a run -------------------------------------------------------------------------------------

void ValidationPane::start() {
    if (m_controller->busy() || !m_start->isEnabled())
        return;
    const QModelIndex ctx = m_contextView->currentIndex();
    models::ValidationStart s;
    s.kubeconfig = ctx.data(KubeContextsModel::FileRole).toString();
    s.context = ctx.data(KubeContextsModel::ContextRole).toString();
    if (m_fromCatalog->isChecked()) {
        s.catalogLabel = m_versionCombo->currentData().toString();
        s.leafOverlay = m_recipeCombo->currentData().toString();
    } else {
        s.recipeFile = m_recipeFile->text().trimmed();
    }
    if (!(m_phaseDeployment->isChecked() && m_phaseConformance->isChecked() &&
          m_phasePerformance->isChecked())) {
        if (m_phaseDeployment->isChecked())
            s.phases << QStringLiteral("deployment");
        if (m_phaseConformance->isChecked())
            s.phases << QStringLiteral("conformance");
        if (m_phasePerformance->isChecked())
            s.phases << QStringLiteral("performance");
    }
    s.namespace_ = m_namespace->text().trimmed().isEmpty() ? QStringLiteral("aicr-validation")
                                                           : m_namespace->text().trimmed();
    s.toolVersion = QCoreApplication::applicationVersion().isEmpty() ? QStringLiteral("dev")
                                                                     : QCoreApplication::applicationVersion();
    // Each run writes its own folder: an existing summary-bundle is never mixed into.
    const QString out = m_outDir->text().trimmed();
    s.outDir = QDir(out).filePath(QStringLiteral("run-") + QDateTime::currentDateTimeUtc().toString(
                                                               QStringLiteral("yyyyMMdd-HHmmss-zzz")));

    // The key is read (and its passphrase asked) before the run, not after it.
    if (const QString keyPath = m_keyFile->text().trimmed(); !keyPath.isEmpty()) {
        Result<QByteArray> read = readFileLimited(keyPath, limits::kSmallFile, QStringLiteral("signing key"));
        if (!read) {
            showBanner(tr("Cannot read the signing key"), read.error().toString(), kFailTint, kFailInk);
            return;
        }
        const QByteArray pem = *read;
        Result<sigstore::crypto::Pkey> key =
            sigstore::readAnyPrivateKey(pem, sigstore::Passphrase(), keyPath);
        if (!key) {
            bool ok = false;
            const QString pass = QInputDialog::getText(
                this, tr("Signing key"), tr("Passphrase for %1").arg(QFileInfo(keyPath).fileName()),
                QLineEdit::Password, {}, &ok);
            if (!ok)
                return;
            key = sigstore::readAnyPrivateKey(pem, sigstore::Passphrase(pass.toUtf8()), keyPath);
        }
        if (!key) {
            showBanner(tr("Cannot use the signing key"), key.error().toString(), kFailTint, kFailInk);
            return;
        }
        s.key = std::make_shared<sigstore::crypto::Pkey>(std::move(*key));
        s.signIncomplete = m_signIncomplete->isChecked();
    }

    m_logs.clear();
    m_liveChecks.clear();
    m_checks->clear();
    m_logCheck.clear();
    m_log->clear();
    m_follow = true;
    m_nccl->clearRuns();
    m_inference->clearResult();
    QString error;
    if (!m_controller->start(s, &error)) {
        showBanner(tr("Cannot start"), error, kFailTint, kFailInk);
        return;
    }
    m_runTitle->setText(tr("Connecting to %1 (%2)…").arg(s.context, QDir::toNativeSeparators(s.kubeconfig)));
    showBanner(tr("Preparing"), tr("Reading the kubeconfig, connecting and resolving the recipe…"), kInfoTint,
               kInfoInk);
    m_ticker->start();
    updateButtons();
}

void ValidationPane::cancel() {
    if (!m_controller->busy())
        return;
    m_controller->cancel();
    updateButtons();
}

void ValidationPane::onPlanned(qint64 rowId, const QString& runId, const std::vector<CheckRun>& plan,
                               const catalog::RecipeResult& recipe) {
    m_recipe = recipe;
    m_coordinate = recipe.recipeName();
    m_runLabel = tr("run %1").arg(runId);
    m_liveChecks = plan;
    m_checks->setChecks(plan);
    m_runTitle->setText(
        tr("Run %1 of %2: %3")
            .arg(runId, m_coordinate, models::counted(qint64(plan.size()), tr("check"), tr("checks"))));
    if (m_controller->stage() != ValidationController::Stage::Cancelling)
        showBanner(tr("Running"),
                   tr("%1 planned; the table updates as they run.")
                       .arg(models::counted(qint64(plan.size()), tr("check"), tr("checks"))),
                   kInfoTint, kInfoInk);
    reloadRuns(rowId); // selected once the list is read again
    showCharts(plan);
    loadHistory(m_coordinate);
}

void ValidationPane::onCheckChanged(const CheckRun& check) {
    m_checks->upsert(check);
    bool found = false;
    for (CheckRun& c : m_liveChecks)
        if (c.name == check.name) {
            c = check;
            found = true;
        }
    if (!found)
        m_liveChecks.push_back(check);
    if (check.state != CheckState::Running && check.state != CheckState::Pending && !check.log.isEmpty()) {
        m_logs[check.name] = check.log;
        if (m_logCheck == check.name)
            setLogText(check.log);
    }
    if (check.state == CheckState::Running && m_follow) {
        m_selecting = true;
        m_checkView->setCurrentIndex(m_checks->index(m_checks->rowOf(check.name), 0));
        m_selecting = false;
    }
    if (check.nccl || check.inference) {
        showCharts(m_liveChecks);
        loadHistory(m_coordinate);
    }
}

void ValidationPane::onLogChunk(const QString& check, const QByteArray& chunk) {
    m_logs[check].append(chunk);
    if (check != m_logCheck)
        return;
    QScrollBar* bar = m_log->verticalScrollBar();
    const bool atBottom = bar->value() >= bar->maximum() - 2;
    QTextCursor c(m_log->document());
    c.movePosition(QTextCursor::End);
    c.insertText(QString::fromUtf8(chunk));
    if (atBottom)
        bar->setValue(bar->maximum());
    if (!m_search->text().isEmpty())
        highlightMatches();
}

void ValidationPane::onFinished(qint64 rowId, const RunResult& result, const QString& error) {
    m_ticker->stop();
    m_checks->tick(QDateTime::currentDateTimeUtc());
    const QString state = validation::runStateName(result.state);
    int passed = 0, failed = 0, skipped = 0;
    for (const CheckRun& c : result.checks) {
        passed += c.state == CheckState::Passed;
        failed += c.state == CheckState::Failed;
        skipped += c.state == CheckState::Skipped;
    }
    const QString counts = tr("%1 passed, %2 failed, %3 skipped").arg(passed).arg(failed).arg(skipped);
    const QString evidence =
        m_controller->evidenceDir().isEmpty()
            ? QString()
            : tr("\nEvidence: %1").arg(QDir::toNativeSeparators(m_controller->evidenceDir()));
    const QString extra = error.isEmpty() ? QString() : QStringLiteral("\n") + error;
    switch (result.state) {
    case RunState::Passed:
        showBanner(tr("Passed"), counts + evidence + extra, kPassTint, kPassInk);
        break;
    case RunState::Failed:
        showBanner(tr("Failed"), result.reason + QLatin1Char('\n') + counts + evidence + extra, kFailTint,
                   kFailInk);
        break;
    case RunState::Cancelled:
        showBanner(tr("Cancelled"), result.reason.isEmpty() ? counts : result.reason, kWarnTint, kWarnInk);
        break;
    case RunState::ReadinessFailed:
        showBanner(tr("Cluster not ready for this recipe"), result.reason, kFailTint, kFailInk);
        break;
    case RunState::Skipped:
        showBanner(tr("Nothing judged"),
                   tr("Every check was skipped (none applies to this recipe): not a pass.\n") + counts +
                       evidence + extra,
                   kWarnTint, kWarnInk);
        break;
    case RunState::Incomplete:
        showBanner(
            tr("Incomplete (cluster fault)"),
            tr("Some checks could not run or finish for a reason outside them: not evidence of failure.\n") +
                result.reason + evidence + extra,
            kWarnTint, kWarnInk);
        break;
    case RunState::Error:
    case RunState::Running:
        showBanner(tr("Error"), result.reason.isEmpty() ? error : result.reason, kFailTint, kFailInk);
        break;
    }
    if (rowId) {
        // The stored run is the truth: reopen it so what is shown is what a later reopen shows
        // (both read on the worker; the run is selected in the list once it is read).
        reloadRuns(rowId);
        openRun(rowId);
    }
    updateButtons();
    emit statusMessage(tr("Validation run %1: %2").arg(result.runId, state), 10000);
    emit runFinished(rowId, state);
}

bool ValidationPane::openRun(qint64 id) {
    openRuns(id, {});
    return true;
}

void ValidationPane::openRuns(qint64 id, const std::vector<qint64>& others) {
    const quint64 generation = ++m_openGeneration;
    runInView<RunsRead>(
        this, m_workspace,
        [id, others](const ops::Context& ctx) -> Result<RunsRead> {
            const models::RunReader reader(ctx);
            Result<models::StoredRun> run = reader.run(id);
            if (!run)
                return run.error();
            RunsRead read;
            read.main = std::move(*run);
            for (qint64 other : others)
                if (Result<models::StoredRun> r = reader.run(other); r)
                    read.others.push_back(std::move(*r));
            if (!read.main.summary.coordinate.isEmpty())
                read.history = reader.chartHistory(read.main.summary.coordinate);
            return read;
        },
        [this, generation, id](const Result<RunsRead>& read) {
            if (generation != m_openGeneration)
                return;
            if (!read) {
                showBanner(tr("Cannot open run %1").arg(id), read.error().toString(), kFailTint, kFailInk);
                return;
            }
            showRun(*read);
            emit runShown(id);
        });
}

void ValidationPane::showRun(const RunsRead& read) {
    const models::StoredRun* run = &read.main;
    const models::RunSummary& s = run->summary;
    m_coordinate = s.coordinate;
    m_runLabel =
        run->result.checks.empty() ? tr("run %1").arg(s.runUid) : sourceLabel(s, run->result.checks.front());
    m_logs.clear();
    for (const CheckRun& c : run->result.checks)
        m_logs[c.name] = c.log;
    m_liveChecks = run->result.checks;
    m_checks->setChecks(run->result.checks);
    m_runTitle->setText(
        s.timeKnown ? tr("Run %1 (%2): %3 on %4, started %5")
                          .arg(s.runUid, s.source, s.coordinate.isEmpty() ? s.recipeName : s.coordinate,
                               s.context.isEmpty() ? tr("imported results") : s.context,
                               s.startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")))
                    : tr("Run %1 (%2): %3 on %4, measured at an unknown time (imported %5)")
                          .arg(s.runUid, s.source, s.coordinate.isEmpty() ? s.recipeName : s.coordinate,
                               s.context.isEmpty() ? tr("imported results") : s.context,
                               s.startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))));
    if (!m_controller->busy()) {
        if (s.state == QLatin1String("passed"))
            showBanner(tr("Passed"), tr("%1 of %2 checks passed").arg(s.passed).arg(s.checks), kPassTint,
                       kPassInk);
        else if (s.state == QLatin1String("cancelled"))
            showBanner(tr("Cancelled"), s.reason, kWarnTint, kWarnInk);
        else if (s.state == QLatin1String("skipped"))
            showBanner(tr("Nothing judged"),
                       tr("Every check was skipped (none applies to this recipe): not a pass.\n") + s.reason,
                       kWarnTint, kWarnInk);
        else if (s.state == QLatin1String("running"))
            showBanner(tr("Interrupted"), tr("This run never finished (the app closed while it ran)."),
                       kWarnTint, kWarnInk);
        else if (s.state == QLatin1String("incomplete"))
            showBanner(tr("Incomplete (cluster fault)"),
                       tr("%1 could not run or finish for a reason outside them: not evidence of "
                          "failure.\n")
                               .arg(models::counted(s.other, tr("check"), tr("checks"))) +
                           s.reason,
                       kWarnTint, kWarnInk);
        else
            showBanner(s.state == QLatin1String("readiness-failed") ? tr("Cluster not ready for this recipe")
                                                                    : tr("Failed"),
                       s.reason, kFailTint, kFailInk);
    }
    // Keep the log on the same check when the new run has it, else the first with a log.
    QString show = m_logs.contains(m_logCheck) ? m_logCheck : QString();
    for (const CheckRun& c : run->result.checks)
        if (show.isEmpty() && (c.nccl || c.inference))
            show = c.name;
    if (show.isEmpty() && !run->result.checks.empty())
        show = run->result.checks.front().name;
    m_logCheck.clear();
    if (!show.isEmpty()) {
        m_selecting = true;
        m_checkView->setCurrentIndex(m_checks->index(m_checks->rowOf(show), 0));
        m_selecting = false;
        showLogOf(show);
    } else {
        m_log->clear();
    }
    showCharts(run->result.checks);
    if (!s.coordinate.isEmpty())
        showHistory(read.history);
    showLeftovers(*run);
    if (read.others.empty())
        return;
    // Several runs: their NCCL results overlaid, the opened one's threshold.
    std::vector<std::pair<QString, validation::NcclResult>> overlays;
    for (const models::StoredRun& r : read.others)
        for (const CheckRun& c : r.result.checks)
            if (c.nccl)
                overlays.emplace_back(QStringLiteral("%1 %2").arg(sourceLabel(r.summary, c), c.name),
                                      *c.nccl);
    showCharts(m_liveChecks, overlays);
}

QString ValidationPane::runUidOf(qint64 rowId) const {
    if (rowId == m_openRun && !m_openRunUid.isEmpty())
        return m_openRunUid;
    for (int i = 0; i < m_runs->rowCount(); ++i)
        if (const models::RunSummary* r = m_runs->run(i); r && r->id == rowId)
            return r->runUid;
    return tr("(unknown)");
}

void ValidationPane::showLeftovers(const models::StoredRun& run) {
    m_openRun = run.summary.id;
    m_openRunUid = run.summary.runUid;
    m_openContext = run.summary.context;
    if (run.result.leftovers.empty()) {
        m_leftoversRow->hide();
        return;
    }
    QStringList lines;
    for (const RunResult::Leftover& l : run.result.leftovers)
        lines << QStringLiteral("%1 %2").arg(l.path.section(QLatin1Char('/'), -2, -2),
                                             l.path.section(QLatin1Char('/'), -1));
    m_leftovers->setText(tr("Left on the cluster (%1): %2 the cleanup could not delete: %3")
                             .arg(run.summary.context,
                                  models::counted(lines.size(), tr("object"), tr("objects")),
                                  lines.join(QStringLiteral(", "))));
    m_leftovers->setToolTip(run.result.leftovers.front().error);
    m_deleteLeftovers->setEnabled(!m_controller->busy() && !m_controller->cleaning());
    m_leftoversRow->show();
}

void ValidationPane::deleteLeftovers() {
    if (!m_openRun)
        return;
    // The context chosen in the cluster list (credentials that work now), else the run's own; the
    // operation refuses a context that points at another server than the run's.
    QString file, context;
    const QModelIndex chosen = m_contextView->currentIndex();
    if (chosen.isValid() && !chosen.data(KubeContextsModel::ContextRole).toString().isEmpty()) {
        context = chosen.data(KubeContextsModel::ContextRole).toString();
        file = chosen.data(KubeContextsModel::FileRole).toString();
    }
    for (int r = 0; r < m_contexts->rowCount() && file.isEmpty(); ++r) {
        const QModelIndex top = m_contexts->index(r, 0);
        for (int c = 0; c < m_contexts->rowCount(top) && file.isEmpty(); ++c) {
            const QModelIndex i = m_contexts->index(c, 0, top);
            if (i.data(KubeContextsModel::ContextRole).toString() == m_openContext)
                file = i.data(KubeContextsModel::FileRole).toString();
        }
    }
    if (context.isEmpty())
        context = m_openContext;
    QString error;
    if (!m_controller->cleanupLeftovers(m_openRun, file, context, &error)) {
        emit statusMessage(error, 8000);
        return;
    }
    m_deleteLeftovers->setEnabled(false);
    m_leftovers->setText(tr("Deleting what run %1 left on the cluster…").arg(m_openRunUid));
}

void ValidationPane::onCleanupFinished(qint64 rowId, const QStringList& removed, int still,
                                       const QString& error) {
    if (still < 0)
        emit statusMessage(tr("Cleanup of run %1 failed: %2").arg(runUidOf(rowId), error), 10000);
    else
        emit statusMessage(tr("Run %1: %2 deleted, %3 still on the cluster")
                               .arg(runUidOf(rowId))
                               .arg(removed.size())
                               .arg(still),
                           10000);
    if (rowId == m_openRun) {
        // What is left, read again on the worker.
        runInView<models::StoredRun>(
            this, m_workspace, [rowId](const ops::Context& ctx) { return models::RunReader(ctx).run(rowId); },
            [this, rowId, still, error](const Result<models::StoredRun>& run) {
                if (rowId != m_openRun)
                    return;
                if (run)
                    showLeftovers(*run);
                if (still < 0) {
                    m_leftovers->setText(m_leftovers->text() + QStringLiteral("\n") + error);
                    m_deleteLeftovers->setEnabled(true);
                }
            });
    }
    reloadRuns();
}

void ValidationPane::onRunsSelected() {
    if (m_controller->busy())
        return;
    const QModelIndexList rows = m_runView->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    const QModelIndex current = m_runView->currentIndex();
    const qint64 main = current.isValid() && m_runView->selectionModel()->isRowSelected(current.row(), {})
                            ? current.data(RunListModel::RunIdRole).toLongLong()
                            : rows.front().data(RunListModel::RunIdRole).toLongLong();
    std::vector<qint64> others; // several runs: their NCCL results overlaid on the opened one's chart
    if (rows.size() >= 2)
        for (const QModelIndex& r : rows)
            others.push_back(r.data(RunListModel::RunIdRole).toLongLong());
    openRuns(main, others);
}

void ValidationPane::showCharts(const std::vector<CheckRun>& checks,
                                const std::vector<std::pair<QString, validation::NcclResult>>& overlays) {
    m_nccl->clearRuns();
    std::optional<validation::Threshold> threshold;
    bool haveInference = false;
    for (const CheckRun& c : checks) {
        if (c.name.startsWith(QLatin1String("nccl")) && !threshold)
            threshold = thresholdOf(c, m_recipe);
        if (c.nccl) {
            if (std::optional<validation::Threshold> t = thresholdOf(c, m_recipe))
                threshold = t;
            if (overlays.empty())
                m_nccl->addRun(QStringLiteral("%1 %2").arg(m_runLabel, c.name), *c.nccl);
        }
        if (c.inference && !haveInference) {
            m_inference->setResult(*c.inference,
                                   c.score ? c.score->metrics : std::vector<validation::ScoredMetric>{});
            haveInference = true;
        }
    }
    for (const auto& [label, result] : overlays)
        m_nccl->addRun(label, result);
    m_nccl->setThreshold(threshold);
    if (!haveInference)
        m_inference->clearResult();
}

void ValidationPane::loadHistory(const QString& coordinate) {
    if (coordinate.isEmpty())
        return;
    const quint64 generation = ++m_historyGeneration;
    runInView<std::vector<models::HistoryPoint>>(
        this, m_workspace,
        [coordinate](const ops::Context& ctx) { return models::RunReader(ctx).chartHistory(coordinate); },
        [this, generation](const Result<std::vector<models::HistoryPoint>>& h) {
            if (generation == m_historyGeneration)
                showHistory(h);
        });
}

void ValidationPane::showHistory(const Result<std::vector<models::HistoryPoint>>& h) {
    ++m_historyGeneration; // a read still on its way is older than this
    m_history->setHistory(h && !h->empty() ? h->front().metric : tr("busbw"),
                          h ? *h : std::vector<models::HistoryPoint>{});
}

// ---- the log -----------------------------------------------------------------------------------

void ValidationPane::onCheckSelected() {
    const QModelIndex i = m_checkView->currentIndex();
    if (!i.isValid())
        return;
    showLogOf(i.data(CheckTableModel::NameRole).toString());
}

void ValidationPane::showLogOf(const QString& check) {
    if (check == m_logCheck)
        return;
    m_logCheck = check;
    setLogText(m_logs.value(check));
    m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
}

void ValidationPane::setLogText(const QByteArray& text) {
    QScrollBar* bar = m_log->verticalScrollBar();
    const bool atBottom = bar->value() >= bar->maximum() - 2;
    const int keep = bar->value();
    m_log->setPlainText(QString::fromUtf8(text));
    bar->setValue(atBottom ? bar->maximum() : keep);
    highlightMatches();
}

void ValidationPane::highlightMatches() {
    QList<QTextEdit::ExtraSelection> marks;
    const QString needle = m_search->text();
    int count = 0;
    if (!needle.isEmpty()) {
        QTextCharFormat fmt;
        fmt.setBackground(QColor(0xff, 0xeb, 0x3b));
        QTextCursor c(m_log->document());
        while (true) {
            c = m_log->document()->find(needle, c);
            if (c.isNull())
                break;
            ++count;
            if (marks.size() < 5000)
                marks.append({c, fmt});
        }
    }
    m_log->setExtraSelections(marks);
    m_searchCount->setText(needle.isEmpty() ? QString() : models::counted(count, tr("match"), tr("matches")));
}

void ValidationPane::findInLog(bool backwards) {
    const QString needle = m_search->text();
    if (needle.isEmpty())
        return;
    QTextDocument::FindFlags flags;
    if (backwards)
        flags |= QTextDocument::FindBackward;
    if (!m_log->find(needle, flags)) {
        // Wrap around.
        QTextCursor c = m_log->textCursor();
        c.movePosition(backwards ? QTextCursor::End : QTextCursor::Start);
        m_log->setTextCursor(c);
        m_log->find(needle, flags);
    }
}

} // namespace pb::widgets
