#include "GitImportDialog.h"

#include "ops/Async.h"

#include <QFutureWatcherBase>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace pb::widgets {

// A minimal first version (the API other views call); the full dialog follows.
GitImportDialog::GitImportDialog(ops::Async& async, QWidget* parent) : QDialog(parent), m_async(async) {
    setObjectName(QStringLiteral("gitImportDialog"));
    setWindowTitle(tr("Import from Git"));
    m_repo = new QLineEdit(this);
    m_repo->setObjectName(QStringLiteral("gitRepository"));
    m_model = new QStandardItemModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_filter = new QLineEdit(this);
    m_path = new QLineEdit(QStringLiteral("recipes"), this);
    m_import = new QPushButton(tr("&Import"), this);
    m_cancel = new QPushButton(tr("&Cancel"), this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_repo);
    layout->addWidget(m_filter);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_path);
    layout->addWidget(m_import);
    layout->addWidget(m_cancel);
}

GitImportDialog::~GitImportDialog() {
    if (m_cancelFlag)
        *m_cancelFlag = true;
}

void GitImportDialog::setRepository(const QString& path) {
    m_repo->setText(path);
}

QString GitImportDialog::repository() const {
    return m_repo->text().trimmed();
}

QString GitImportDialog::resultText() const {
    return m_resultLines.join(QLatin1Char('\n'));
}

QStringList GitImportDialog::selectedRefs() const {
    return {};
}

void GitImportDialog::selectRefs(const QStringList&) {}

bool GitImportDialog::startImport() {
    return false;
}

void GitImportDialog::cancelImport() {
    if (m_cancelFlag)
        *m_cancelFlag = true;
}

void GitImportDialog::reject() {
    QDialog::reject();
}

void GitImportDialog::browse() {}
void GitImportDialog::reloadRefs() {}
void GitImportDialog::updateButtons() {}

} // namespace pb::widgets
