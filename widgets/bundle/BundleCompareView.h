// The bundle compare view: pick two bundles (folders, or bundles imported earlier) and see what
// changed, as `proofbench bundle diff` reports it (ops::diffBundles, run off the GUI thread with
// progress and Cancel): the headline a release page can paste, every component with its change,
// chart, version, repository, namespace, sync-wave and order, values changed path by path, the
// Applications / HelmReleases field by field, and files added, removed or changed. "Copy Markdown"
// puts the release-page summary on the clipboard.
#pragma once

#include "DeployBundleModels.h"
#include "Workspace.h"
#include "ops/BundleDiff.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableView;

namespace pb::widgets {

class BundleCompareView : public QWidget {
    Q_OBJECT
  public:
    explicit BundleCompareView(models::Workspace& workspace, QWidget* parent = nullptr);
    ~BundleCompareView() override;

    // Each side: a folder path or an imported bundle's name.
    void setSides(const QString& from, const QString& to);
    QString fromSide() const;
    QString toSide() const;

    bool isBusy() const { return m_task.running(); }
    bool hasResult() const { return m_hasResult; }
    const bundle::model::BundleDiff& diff() const { return m_result.diff; }
    QString lastError() const { return m_lastError; }
    QString headline() const;
    QString markdown() const;
    QStringList importedNames() const { return m_imported; }

    models::BundleDiffModel* componentsModel() const { return m_componentsModel; }
    models::BundleValueChangesModel* valuesModel() const { return m_valuesModel; }
    models::BundleValueChangesModel* objectModel() const { return m_objectModel; }
    models::BundleFileChangesModel* filesModel() const { return m_filesModel; }
    QTableView* componentsView() const { return m_components; }
    QTabWidget* tabs() const { return m_tabs; }
    QComboBox* fromPicker() const { return m_from; }
    QComboBox* toPicker() const { return m_to; }
    QPushButton* compareButton() const { return m_compareButton; }

  public slots:
    // Runs the diff on a worker; false when a side is missing or one is running.
    bool compare();
    void cancel();
    // Refills the pickers with the imported bundles (read on a worker).
    void refreshImported();
    void copyMarkdown();
    // Shows one component's value and object changes (empty: every component's).
    void focusComponent(const QString& name);

  signals:
    void compared(bool ok);
    void importedListed();

  private:
    void chooseFolder(QComboBox* side);
    void showResult();

    models::Workspace& m_workspace;
    models::Task m_task;     // the comparison, while it runs
    models::Task m_listTask; // the imported bundles' names, while they are read
    ops::BundleDiffOutcome m_result;
    bool m_hasResult = false;
    QString m_lastError;
    QStringList m_imported;

    QComboBox* m_from = nullptr;
    QComboBox* m_to = nullptr;
    QPushButton* m_compareButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_copyButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_headline = nullptr;
    QLabel* m_error = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTableView* m_components = nullptr;
    QTableView* m_values = nullptr;
    QTableView* m_object = nullptr;
    QTableView* m_files = nullptr;
    models::BundleDiffModel* m_componentsModel = nullptr;
    models::BundleValueChangesModel* m_valuesModel = nullptr;
    models::BundleValueChangesModel* m_objectModel = nullptr;
    models::BundleFileChangesModel* m_filesModel = nullptr;
};

} // namespace pb::widgets
