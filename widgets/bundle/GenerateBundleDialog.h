// "Generate bundle…" from the recipe on screen: deployer, options and output folder, then
// ops::bundleGenerate (the operation `proofbench bundle generate` runs) on a worker through
// ops::Async, with progress and Cancel. On success it shows the tree digest and offers to open the
// bundle (openBundleRequested) in the bundle view.
#pragma once

#include "Workspace.h"
#include "ops/BundleGenerate.h"

#include <QDialog>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace pb::widgets {

class GenerateBundleDialog : public QDialog {
    Q_OBJECT
  public:
    GenerateBundleDialog(models::Workspace& workspace, std::shared_ptr<const catalog::Catalog> catalog,
                         catalog::RecipeResult recipe, QString recipeLabel, QString catalogLabel,
                         QWidget* parent = nullptr);
    ~GenerateBundleDialog() override;

    QComboBox* deployerCombo() const { return m_deployer; }
    QLineEdit* outDirEdit() const { return m_outDir; }
    QLineEdit* nodeSelectorEdit() const { return m_nodeSelector; }
    QLineEdit* storageClassEdit() const { return m_storageClass; }
    QLineEdit* repoUrlEdit() const { return m_repoUrl; }
    QLineEdit* revisionEdit() const { return m_revision; }
    QPlainTextEdit* dynamicEdit() const { return m_dynamic; }
    QCheckBox* readinessHooksBox() const { return m_readinessHooks; }
    QCheckBox* serialBox() const { return m_serial; }
    QPlainTextEdit* setsEdit() const { return m_sets; }
    QPushButton* generateButton() const { return m_generate; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* openButton() const { return m_open; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }
    bool isRunning() const { return m_task.running(); }
    // The last successful generation (empty before one).
    const std::optional<ops::BundleGenerateOutcome>& outcome() const { return m_outcome; }

  public slots:
    // Starts the generation with the options as filled in (errors are shown in the status line).
    void generate();

  signals:
    void generated(const QString& dir, const QString& treeDigest);
    void openBundleRequested(const QString& dir);

  private:
    void setRunning(bool running);
    void onCancel();

    models::Workspace& m_workspace;
    std::shared_ptr<const catalog::Catalog> m_catalog;
    catalog::RecipeResult m_recipe;
    QString m_recipeLabel, m_catalogLabel;
    models::Task m_task; // the generation, while it runs
    std::optional<ops::BundleGenerateOutcome> m_outcome;

    QComboBox* m_deployer = nullptr;
    QLineEdit* m_outDir = nullptr;
    QLineEdit* m_nodeSelector = nullptr;
    QLineEdit* m_storageClass = nullptr;
    QLineEdit* m_repoUrl = nullptr;
    QLineEdit* m_revision = nullptr;
    QPlainTextEdit* m_dynamic = nullptr;
    QCheckBox* m_readinessHooks = nullptr;
    QCheckBox* m_serial = nullptr;
    QSpinBox* m_nodeCount = nullptr;
    QPlainTextEdit* m_sets = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_generate = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_open = nullptr;
};

} // namespace pb::widgets
