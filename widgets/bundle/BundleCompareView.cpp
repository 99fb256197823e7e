#include "BundleCompareView.h"

#include "common/OpRunner.h"
#include "common/TableSetup.h"
#include "common/WidgetUtil.h"
#include "ops/BundleImport.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace pb::widgets {

namespace bm = bundle::model;

BundleCompareView::BundleCompareView(models::Workspace& workspace, QWidget* parent)
    : QWidget(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("bundleCompareView"));
    setWindowTitle(tr("Compare deployment bundles"));
    auto* layout = new QVBoxLayout(this);
    auto* grid = new QGridLayout;
    auto picker = [this](const char* name) {
        auto* c = new QComboBox(this);
        c->setObjectName(QString::fromLatin1(name));
        c->setEditable(true);
        c->setInsertPolicy(QComboBox::NoInsert);
        c->setMinimumContentsLength(40);
        c->lineEdit()->setPlaceholderText(tr("a bundle folder, or the name of an imported bundle"));
        return c;
    };
    m_from = picker("bundleFrom");
    m_to = picker("bundleTo");
    auto* fromBrowse = browseButton("bundleFromBrowse", tr("Choose the older bundle's folder"), this);
    auto* toBrowse = browseButton("bundleToBrowse", tr("Choose the newer bundle's folder"), this);
    grid->addWidget(new QLabel(tr("From (older):"), this), 0, 0);
    grid->addWidget(m_from, 0, 1);
    grid->addWidget(fromBrowse, 0, 2);
    grid->addWidget(new QLabel(tr("To (newer):"), this), 1, 0);
    grid->addWidget(m_to, 1, 1);
    grid->addWidget(toBrowse, 1, 2);
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid);

    auto* actions = new QHBoxLayout;
    m_compareButton = new QPushButton(tr("Compare"), this);
    m_compareButton->setObjectName(QStringLiteral("compareBundlesButton"));
    m_copyButton = new QPushButton(tr("Copy Markdown"), this);
    m_copyButton->setObjectName(QStringLiteral("copyBundleMarkdown"));
    m_copyButton->setToolTip(
        tr("The summary a release page can paste (proofbench bundle diff --format markdown)."));
    m_copyButton->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("bundleCompareProgress"));
    m_progress->setVisible(false);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setObjectName(QStringLiteral("cancelBundleCompare"));
    m_cancelButton->setVisible(false);
    actions->addWidget(m_compareButton);
    actions->addWidget(m_copyButton);
    actions->addWidget(m_progress, 1);
    actions->addWidget(m_cancelButton);
    actions->addStretch();
    layout->addLayout(actions);

    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("bundleCompareHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont f = m_headline->font();
    f.setBold(true);
    m_headline->setFont(f);
    layout->addWidget(m_headline);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("bundleCompareError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b01e1e;"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setVisible(false);
    layout->addWidget(m_error);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("bundleCompareTabs"));
    auto table = [this](const char* name, QAbstractItemModel* model) {
        auto* t = new QTableView(m_tabs);
        t->setObjectName(QString::fromLatin1(name));
        setupTable(t);
        t->setModel(model);
        t->horizontalHeader()->setStretchLastSection(true);
        return t;
    };
    m_componentsModel = new models::BundleDiffModel(this);
    m_valuesModel = new models::BundleValueChangesModel(models::BundleValueChangesModel::Kind::Values, this);
    m_objectModel = new models::BundleValueChangesModel(models::BundleValueChangesModel::Kind::Object, this);
    m_filesModel = new models::BundleFileChangesModel(this);
    m_components = table("bundleCompareComponents", m_componentsModel);
    m_values = table("bundleCompareValues", m_valuesModel);
    m_object = table("bundleCompareObjects", m_objectModel);
    m_files = table("bundleCompareFiles", m_filesModel);
    m_tabs->addTab(m_components, tr("Components"));
    m_tabs->addTab(m_values, tr("Values"));
    m_tabs->addTab(m_object, tr("Applications / releases"));
    m_tabs->addTab(m_files, tr("Files"));
    layout->addWidget(m_tabs, 1);

    connect(m_compareButton, &QPushButton::clicked, this, &BundleCompareView::compare);
    connect(m_cancelButton, &QPushButton::clicked, this, &BundleCompareView::cancel);
    connect(m_copyButton, &QPushButton::clicked, this, &BundleCompareView::copyMarkdown);
    connect(fromBrowse, &QPushButton::clicked, this, [this] { chooseFolder(m_from); });
    connect(toBrowse, &QPushButton::clicked, this, [this] { chooseFolder(m_to); });
    connect(m_components->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const bm::ComponentChange* c = m_componentsModel->change(current.row());
                focusComponent(c ? c->name : QString());
            });
}

BundleCompareView::~BundleCompareView() {
    m_task.cancel(); // results are not delivered once the view is gone
}

void BundleCompareView::setSides(const QString& from, const QString& to) {
    m_from->setEditText(from);
    m_to->setEditText(to);
}

QString BundleCompareView::fromSide() const {
    return m_from->currentText().trimmed();
}

QString BundleCompareView::toSide() const {
    return m_to->currentText().trimmed();
}

void BundleCompareView::chooseFolder(QComboBox* side) {
    const QString dir = chooseDirectory(this, tr("Choose a deployment bundle folder"), "bundleCompareDialog");
    if (!dir.isEmpty())
        side->setEditText(dir);
}

void BundleCompareView::refreshImported() {
    if (m_listTask.running())
        return;
    m_listTask = m_workspace.read<std::vector<models::StoredBundleInfo>>(
        this, [](const ops::Context& ctx) { return ops::listImportedBundles(ctx); },
        [this](const Result<std::vector<models::StoredBundleInfo>>& r) {
            m_imported.clear();
            if (r)
                for (const models::StoredBundleInfo& i : *r)
                    m_imported << i.name;
            for (QComboBox* c : {m_from, m_to}) {
                const QString keep = c->currentText();
                c->clear();
                c->addItems(m_imported);
                c->setEditText(keep);
            }
            emit importedListed();
        });
}

bool BundleCompareView::compare() {
    if (m_task.running())
        return false;
    const QString a = fromSide(), b = toSide();
    if (a.isEmpty() || b.isEmpty()) {
        m_lastError = tr("Choose two bundles: a folder or an imported bundle on each side.");
        m_error->setText(m_lastError);
        m_error->setVisible(true);
        return false;
    }
    m_error->setVisible(false);
    m_progress->setVisible(true);
    m_progress->setRange(0, 0);
    m_cancelButton->setVisible(true);
    m_compareButton->setEnabled(false);
    m_task = m_workspace.read<ops::BundleDiffOutcome>(
        this,
        [a, b](const ops::Context& ctx) {
            ops::BundleDiffRequest req;
            req.from = a;
            req.to = b;
            return ops::diffBundles(ctx, req);
        },
        [this](const Result<ops::BundleDiffOutcome>& r) {
            m_progress->setVisible(false);
            m_cancelButton->setVisible(false);
            m_compareButton->setEnabled(true);
            if (!r) {
                m_lastError = r.error().toString();
                m_error->setText(m_lastError);
                m_error->setVisible(true);
                emit compared(false);
                return;
            }
            m_lastError.clear();
            m_result = r.value();
            m_hasResult = true;
            showResult();
            emit compared(true);
        },
        [this](const ops::Progress& p) { m_progress->setFormat(p.what); });
    return true;
}

void BundleCompareView::cancel() {
    m_task.cancel();
}

QString BundleCompareView::headline() const {
    return m_hasResult ? m_result.diff.headline() : QString();
}

QString BundleCompareView::markdown() const {
    return m_hasResult ? m_result.diff.toMarkdown() : QString();
}

void BundleCompareView::copyMarkdown() {
    if (m_hasResult)
        QApplication::clipboard()->setText(markdown());
}

void BundleCompareView::showResult() {
    const bm::BundleDiff& d = m_result.diff;
    m_headline->setText(QStringLiteral("%1 → %2: %3").arg(d.fromName, d.toName, d.headline()));
    m_componentsModel->setDiff(&m_result.diff);
    fitColumns(m_components, 60);
    m_valuesModel->setDiff(&m_result.diff);
    m_objectModel->setDiff(&m_result.diff);
    m_filesModel->setDiff(&m_result.diff);
    m_tabs->setTabText(1, tr("Values (%1)").arg(m_valuesModel->rowCount()));
    m_tabs->setTabText(2, tr("Applications / releases (%1)").arg(m_objectModel->rowCount()));
    m_tabs->setTabText(3, tr("Files (%1)").arg(m_filesModel->rowCount()));
    m_copyButton->setEnabled(true);
}

void BundleCompareView::focusComponent(const QString& name) {
    if (!m_hasResult)
        return;
    m_valuesModel->setDiff(&m_result.diff, name);
    m_objectModel->setDiff(&m_result.diff, name);
}

} // namespace pb::widgets
