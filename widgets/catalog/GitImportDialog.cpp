#include "GitImportDialog.h"
#include "Plural.h"

#include "OpRunner.h"
#include "TableSetup.h"
#include "WidgetUtil.h"
#include "Workspace.h"
#include "ops/ImportCatalogGit.h"

#include <QDir>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace pb::widgets {

namespace {

enum Column { NameColumn, KindColumn, CommitColumn, DateColumn, ColumnCount };
constexpr int kFullNameRole = Qt::UserRole + 1; // refs/tags/v0.14.0: what the import is asked for

} // namespace

GitImportDialog::GitImportDialog(models::Workspace& workspace, QWidget* parent)
    : QDialog(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("gitImportDialog"));
    setWindowTitle(tr("Import from Git"));

    auto* intro = new QLabel(
        tr("Imports catalog versions from a Git repository's tags and branches, read straight from "
           "the repository (a bare repository or a clone; nothing is checked out). Each version is "
           "labelled by its tag or branch name and keeps its source: repository, ref, commit and "
           "commit date."),
        this);
    intro->setObjectName(QStringLiteral("gitIntro"));
    intro->setWordWrap(true);

    m_repo = new QLineEdit(this);
    m_repo->setObjectName(QStringLiteral("gitRepository"));
    m_repo->setPlaceholderText(tr("a bare repository, or the top folder of a clone"));
    m_browse = browseButton("gitBrowse", tr("Choose the repository folder"), this);
    m_repoStatus = grayLabel("gitRepositoryStatus", this);
    m_path = new QLineEdit(QStringLiteral("recipes"), this);
    m_path->setObjectName(QStringLiteral("gitPath"));
    m_path->setToolTip(
        tr("The catalog folder inside the repository (AICR's recipes/ layout), as the CLI's --path"));
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("gitFilter"));
    m_filter->setPlaceholderText(tr("Filter tags and branches"));
    m_filter->setClearButtonEnabled(true);

    auto* form = inputGrid(nullptr);
    form->addWidget(new QLabel(tr("Repository:"), this), 0, 0);
    form->addWidget(m_repo, 0, 1);
    form->addWidget(m_browse, 0, 2);
    form->addWidget(m_repoStatus, 1, 1, 1, 2);
    form->addWidget(new QLabel(tr("Catalog folder:"), this), 2, 0);
    form->addWidget(m_path, 2, 1, 1, 2);
    form->addWidget(new QLabel(tr("Filter:"), this), 3, 0);
    form->addWidget(m_filter, 3, 1, 1, 2);

    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setObjectName(QStringLiteral("gitRefModel"));
    m_model->setHorizontalHeaderLabels({tr("Name"), tr("Kind"), tr("Commit"), tr("Commit date (UTC)")});
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setObjectName(QStringLiteral("gitRefProxy"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(NameColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("gitRefTable"));
    m_table->setModel(m_proxy);
    setupTable(m_table);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(DateColumn, Qt::DescendingOrder);
    m_table->setColumnWidth(NameColumn, 220);
    m_table->setColumnWidth(KindColumn, 70);
    m_table->setColumnWidth(CommitColumn, 120);
    m_table->horizontalHeader()->setStretchLastSection(true);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("gitProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    m_progressText = grayLabel("gitProgressText", this);
    m_results = new QTextBrowser(this);
    m_results->setObjectName(QStringLiteral("gitResults"));
    m_results->setPlaceholderText(tr("Choose one or more tags or branches, then Import."));
    m_results->setMaximumHeight(130);

    m_import = new QPushButton(tr("&Import"), this);
    m_import->setObjectName(QStringLiteral("gitImport"));
    m_import->setToolTip(
        tr("Import the selected tags and branches, one version (and one transaction) each; versions "
           "whose content is already imported are skipped"));
    m_import->setDefault(true);
    m_cancel = new QPushButton(tr("&Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("gitCancel"));
    m_cancel->setToolTip(tr("Stop after the current version (a version half-read is not imported)"));
    m_close = new QPushButton(tr("Close"), this);
    m_close->setObjectName(QStringLiteral("gitClose"));

    connect(m_browse, &QPushButton::clicked, this, &GitImportDialog::browse);
    connect(m_repo, &QLineEdit::editingFinished, this, [this] {
        if (m_repo->text().trimmed() != m_listed)
            reloadRefs();
    });
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &GitImportDialog::updateButtons);
    connect(m_import, &QPushButton::clicked, this, [this] { startImport(); });
    connect(m_cancel, &QPushButton::clicked, this, &GitImportDialog::cancelImport);
    connect(m_close, &QPushButton::clicked, this, &GitImportDialog::reject);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_import);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_progressText);
    layout->addWidget(m_results);
    layout->addLayout(buttons);
    resize(760, 560);
    updateButtons();
}

GitImportDialog::~GitImportDialog() {
    // A running import stops at its next check; what it finished stays imported (and receipted).
    m_task.cancel();
}

void GitImportDialog::setRepository(const QString& path) {
    m_repo->setText(QDir::toNativeSeparators(path));
    reloadRefs();
}

QString GitImportDialog::repository() const {
    return QDir::fromNativeSeparators(m_repo->text().trimmed());
}

void GitImportDialog::browse() {
    const QString dir = chooseDirectory(this, tr("Git Repository"), "gitRepositoryChooser");
    if (!dir.isEmpty())
        setRepository(dir);
}

void GitImportDialog::reloadRefs() {
    m_model->removeRows(0, m_model->rowCount());
    m_listed = m_repo->text().trimmed();
    m_lastError.clear();
    const QString repo = repository();
    if (repo.isEmpty()) {
        m_repoStatus->setText(QString());
        updateButtons();
        return;
    }
    // Listing reads the repository's references and their commits: on a worker, like every read.
    const quint64 request = ++m_listRequest;
    ++m_listing;
    m_workspace.read<std::vector<git::RefInfo>>(
        this, [repo](const ops::Context&) { return ops::listGitRefs(repo); },
        [this, request](const Result<std::vector<git::RefInfo>>& refs) {
            --m_listing;
            if (request == m_listRequest)
                showRefs(refs);
            emit refsListed();
        });
}

void GitImportDialog::showRefs(const Result<std::vector<git::RefInfo>>& refs) {
    if (!refs) {
        m_lastError = refs.error().toString();
        m_repoStatus->setText(m_lastError);
        updateButtons();
        return;
    }
    int tags = 0, branches = 0;
    for (const git::RefInfo& r : *refs) {
        auto* name = new QStandardItem(r.name);
        name->setData(r.fullName, kFullNameRole);
        name->setToolTip(r.fullName + (r.subject.isEmpty() ? QString() : QStringLiteral("\n") + r.subject));
        auto* kind = new QStandardItem(r.kind);
        auto* commit = new QStandardItem(r.commit.left(12));
        commit->setToolTip(r.commit);
        auto* date = new QStandardItem(r.commitDate.toString(QStringLiteral("yyyy-MM-dd HH:mm")));
        date->setData(r.commitDate, Qt::UserRole);
        for (QStandardItem* item : {name, kind, commit, date})
            item->setEditable(false);
        m_model->appendRow({name, kind, commit, date});
        (r.kind == QLatin1String("tag") ? tags : branches) += 1;
    }
    m_repoStatus->setText(models::counted(tags, tr("tag"), tr("tags")) + tr(" and ") +
                          models::counted(branches, tr("branch"), tr("branches")));
    updateButtons();
}

QStringList GitImportDialog::selectedRefs() const {
    QStringList out;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows(NameColumn);
    QList<QModelIndex> sorted(rows.begin(), rows.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    for (const QModelIndex& i : sorted)
        out << i.data().toString();
    return out;
}

void GitImportDialog::selectRefs(const QStringList& names) {
    QItemSelection selection;
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex i = m_proxy->index(row, NameColumn);
        if (names.contains(i.data().toString()))
            selection.select(i, m_proxy->index(row, ColumnCount - 1));
    }
    m_table->selectionModel()->select(selection,
                                      QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

bool GitImportDialog::startImport() {
    if (m_task.running())
        return false;
    ops::ImportCatalogGitRequest request;
    request.repository = repository();
    request.path = m_path->text().trimmed().isEmpty() ? QStringLiteral("recipes") : m_path->text().trimmed();
    for (const QModelIndex& i : m_table->selectionModel()->selectedRows(NameColumn))
        request.refs << i.data(kFullNameRole).toString();
    if (request.refs.isEmpty() || request.repository.isEmpty())
        return false;
    m_resultLines.clear();
    m_lastError.clear();
    m_results->clear();
    m_progress->setValue(0);
    m_progressText->setText(tr("Starting…"));
    m_task = m_workspace.run<ops::ImportCatalogGitOutcome>(
        this, [request](const ops::Context& ctx) { return ops::importCatalogGit(ctx, request); },
        [this](const Result<ops::ImportCatalogGitOutcome>& r) {
            QStringList labels;
            if (r) {
                for (const ops::GitVersionOutcome& v : r->versions)
                    m_resultLines << v.summary();
                if (r->cancelled)
                    m_resultLines << tr(
                        "Cancelled: the versions above were done; the others were not imported.");
                labels = r->importedLabels();
                m_progress->setValue(r->cancelled ? m_progress->value() : 1000);
                m_progressText->setText(r->cancelled ? tr("Cancelled") : tr("Done"));
            } else {
                m_lastError = r.error().toString();
                m_resultLines << tr("Not imported: %1").arg(m_lastError);
                m_progressText->setText(tr("Failed"));
            }
            m_results->setPlainText(resultText());
            updateButtons();
            if (!labels.isEmpty())
                emit imported(labels);
            emit importFinished(r.ok());
        },
        [this](const ops::Progress& p) {
            if (p.total > 0)
                m_progress->setValue(static_cast<int>(std::clamp<qint64>(p.done * 1000 / p.total, 0, 1000)));
            m_progressText->setText(p.what);
        });
    updateButtons();
    return true;
}

void GitImportDialog::cancelImport() {
    if (!m_task.running())
        return;
    m_task.cancel();
    m_progressText->setText(tr("Cancelling…"));
    updateButtons();
}

QString GitImportDialog::resultText() const {
    return m_resultLines.join(QLatin1Char('\n'));
}

void GitImportDialog::reject() {
    // Closing while an import runs cancels it; the dialog stays until it has stopped.
    if (m_task.running()) {
        cancelImport();
        return;
    }
    QDialog::reject();
}

void GitImportDialog::updateButtons() {
    const bool running = m_task.running();
    m_import->setEnabled(!running && m_table->selectionModel()->hasSelection());
    m_cancel->setEnabled(running && !m_task.cancelled());
    m_repo->setEnabled(!running);
    m_browse->setEnabled(!running);
    m_path->setEnabled(!running);
}

} // namespace pb::widgets
