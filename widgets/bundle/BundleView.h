// The bundle view: a deployment bundle of any AICR deployer (a folder, or one imported earlier)
// read off the GUI thread (ops::readBundleFolder / ops::loadBundleSide, with progress and Cancel)
// and shown as structured data: the components in deployment order with their sync-waves and chart
// coordinates, the file tree with each file's role (unknown files in bold and listed on their own),
// each file's content, and each component's effective values, object and notes. Templated fields
// of argocd-helm bundles are shown as written, in italics, never rendered. "Import into database"
// runs ops::importBundle (the CLI's `bundle import`) on a worker too.
#pragma once

#include "DeployBundleModels.h"
#include "Workspace.h"
#include "bundle/Read.h"

#include <QWidget>

#include <memory>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QStandardItemModel;
class QTabWidget;
class QTableView;
class QTreeView;

namespace pb::widgets {

class BundleView : public QWidget {
    Q_OBJECT
  public:
    explicit BundleView(models::Workspace& workspace, QWidget* parent = nullptr);
    ~BundleView() override;

    // Start reading on a worker; false when a read or import is already running.
    bool openFolder(const QString& dir);
    bool openImported(const QString& name);

    bool isBusy() const { return m_task.running(); }
    bool hasBundle() const { return m_hasBundle; }
    const bundle::model::DeployBundle& bundle() const { return m_read.bundle; }
    QString source() const { return m_source; }
    QString lastError() const { return m_lastError; }
    QString summaryText() const;
    QString lastImportMessage() const { return m_importMessage; }

    // Selects a component (shows its values, object, notes) or a file (shows its content).
    bool selectComponent(const QString& name);
    bool selectFile(const QString& path);

    models::BundleComponentsModel* componentsModel() const { return m_componentsModel; }
    models::BundleValuesModel* valuesModel() const { return m_valuesModel; }
    QStandardItemModel* filesModel() const { return m_filesModel; }
    QTableView* componentsView() const { return m_components; }
    QTreeView* filesView() const { return m_files; }
    QPlainTextEdit* contentView() const { return m_content; }
    QPlainTextEdit* objectView() const { return m_object; }
    QListWidget* unknownList() const { return m_unknown; }
    QTabWidget* tabs() const { return m_tabs; }
    QTabWidget* detailTabs() const { return m_detail; }
    QPushButton* importButton() const { return m_importButton; }
    QProgressBar* progressBar() const { return m_progress; }

  public slots:
    // Asks for a folder, then openFolder().
    void chooseFolder();
    void cancel();
    // Imports the shown folder into the database on a worker; false when nothing to import or busy.
    bool importIntoDatabase();

  signals:
    void loaded(bool ok);
    void importFinished(bool ok, const QString& message);

  private:
    template <typename Fn> bool startRead(const QString& source, Fn fn);
    void showBundle();
    void showComponent(int row);
    void showFile(const QString& path);
    void setBusy(bool busy, const QString& what = {});

    models::Workspace& m_workspace;
    models::Task m_task; // the read or import, while it runs
    bundle::model::ReadBundle m_read;
    bool m_hasBundle = false;
    bool m_fromFolder = false;
    QString m_source, m_lastError, m_importMessage;

    QLabel* m_summary = nullptr;
    QLabel* m_error = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_openButton = nullptr;
    QPushButton* m_importButton = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTabWidget* m_detail = nullptr;
    QTableView* m_components = nullptr;
    QTreeView* m_files = nullptr;
    QListWidget* m_unknown = nullptr;
    QPlainTextEdit* m_content = nullptr;
    QTableView* m_values = nullptr;
    QPlainTextEdit* m_valuesNote = nullptr;
    QPlainTextEdit* m_object = nullptr;
    models::BundleComponentsModel* m_componentsModel = nullptr;
    models::BundleValuesModel* m_valuesModel = nullptr;
    QStandardItemModel* m_filesModel = nullptr;
};

} // namespace pb::widgets
