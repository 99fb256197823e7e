// "Import from Git…" (issue #18): imports catalog versions straight from a Git repository (bare or
// a clone, never checked out). The dialog lists the repository's tags and branches (name, kind,
// commit, date; filter as you type, multi-select), reads the catalog folder (default recipes) at
// each chosen ref and imports one version per ref through the same operation as the CLI's
// `catalog import --git` (ops/ImportCatalogGit.h), run on ops::Async: one transaction per version,
// versions already imported with the same content skipped, progress per version, Cancel between
// and within versions, and the outcome of each version shown when it ends.
#pragma once

#include <QDialog>
#include <QStringList>

#include "Workspace.h"
#include "core/Result.h"
#include "git/Repository.h"

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;
class QTextBrowser;

namespace pb::models {} // namespace pb::models

namespace pb::widgets {

class GitImportDialog : public QDialog {
    Q_OBJECT
  public:
    explicit GitImportDialog(models::Workspace& workspace, QWidget* parent = nullptr);
    ~GitImportDialog() override;

    // Shows `path` in the repository field and lists its tags and branches (an error line when it
    // is not a Git repository).
    void setRepository(const QString& path);
    QString repository() const;

    // For tests and the screenshot tool.
    QTableView* refTable() const { return m_table; }
    QSortFilterProxyModel* refProxy() const { return m_proxy; }
    QLineEdit* filterField() const { return m_filter; }
    QLineEdit* pathField() const { return m_path; }
    QPushButton* importButton() const { return m_import; }
    QPushButton* cancelButton() const { return m_cancel; }
    bool isRunning() const { return m_task.running(); }
    // The repository's tags and branches are being read (refsListed() follows).
    bool isListing() const { return m_listing > 0; }
    // One line per version of the last run ("v0.14.0: imported (commit 1b4724e39, 97 files, …)"),
    // or the error that stopped it.
    QString resultText() const;
    QString lastError() const { return m_lastError; }
    // The names of the selected refs, in table order.
    QStringList selectedRefs() const;
    // Selects the refs with these names (tags or branches); the others are deselected.
    void selectRefs(const QStringList& names);

  public slots:
    // Imports the selected refs; false when nothing is selected or an import runs.
    bool startImport();
    // Raises the running import's cancel flag: it stops between or within versions.
    void cancelImport();

  signals:
    // The references of the repository set were read (or failed: lastError()).
    void refsListed();
    // A run ended; `labels` are the versions it imported (new or replaced), in version order.
    void imported(const QStringList& labels);
    // A run ended, whatever its outcome (for tests and the window).
    void importFinished(bool ok);

  protected:
    void reject() override;

  private:
    void browse();
    void reloadRefs();
    void showRefs(const Result<std::vector<git::RefInfo>>& refs);
    void updateButtons();

    models::Workspace& m_workspace;
    QLineEdit* m_repo = nullptr;
    QPushButton* m_browse = nullptr;
    QLabel* m_repoStatus = nullptr;
    QLineEdit* m_filter = nullptr;
    QStandardItemModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QLineEdit* m_path = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressText = nullptr;
    QTextBrowser* m_results = nullptr;
    QPushButton* m_import = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_close = nullptr;

    models::Task m_task;       // the import, while it runs
    quint64 m_listRequest = 0; // the latest listing; older ones are dropped
    int m_listing = 0;
    QStringList m_resultLines;
    QString m_lastError;
    QString m_listed; // the repository text the table was last listed for
};

} // namespace pb::widgets
