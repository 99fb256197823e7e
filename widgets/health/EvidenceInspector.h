// The evidence of one recipe coordinate, pointer by pointer: its status and why, then every pointer
// with its file, layout, signer (identity, issuer, class, Rekor index), bundle (OCI reference,
// digest, predicate type), attestedAt, and each broken rule of an invalid one. Below, the evidence
// bundles imported for it (models::BundleModel): check result, facts, integrity steps and each
// phase's CTRF tests, read on a worker. A bundle's signature shows as verified (and by whom), failed
// (and why), not checked (no trusted root) or absent (pending).
#pragma once

#include "BundleModels.h"
#include "HealthModels.h"
#include "Workspace.h"
#include "evidence/Evidence.h"

#include <QWidget>

#include <vector>

class QHBoxLayout;
class QLabel;
class QPushButton;
class QSplitter;
class QTreeView;

namespace pb::models {
class BundleModel;
class PointerModel;
} // namespace pb::models

namespace pb::widgets {

class YamlDialog;

class EvidenceInspector : public QWidget {
    Q_OBJECT
  public:
    explicit EvidenceInspector(QWidget* parent = nullptr);

    // `error` (when reading the pointers failed) replaces the pointer list with a message.
    void showRow(const evidence::HealthRow& row, std::vector<evidence::Pointer> pointers,
                 const QString& error = {});
    void showMessage(const QString& message);
    // Where showRow() reads the row's bundles from (on a worker); without one the bundle
    // section says so.
    void setWorkspace(models::Workspace* workspace) { m_workspace = workspace; }
    // The OCI cache fetched bundles live in (<dir>/evidence/<hex>); the pointer section says, for each
    // pointer, whether its bundle is there and whether its signature referrer was pulled.
    void setCacheDir(const QString& dir) { m_cacheDir = dir; }
    QString cacheDir() const { return m_cacheDir; }
    // The cache line on view, as plain text (empty when no pointer names a bundle).
    QString cacheText() const;
    // The bundles of the row on view, from a caller that read them itself (`error`: reading failed).
    void showBundles(std::vector<models::BundleRecord> bundles, const QString& error = {});
    bool isLoadingBundles() const { return m_bundleLoads > 0; }

    bool hasRow() const { return m_hasRow; }
    const evidence::HealthRow& row() const { return m_row; }
    models::PointerModel* pointerModel() const { return m_model; }
    QTreeView* pointerTree() const { return m_tree; }
    models::BundleModel* bundleModel() const { return m_bundleModel; }
    QTreeView* bundleTree() const { return m_bundleTree; }
    // Everything the header says, as plain text (title, status, reason, facts).
    QString headerText() const;
    // The catalog version the rows on view are of (named when a row's evidence no longer matches it).
    void setCatalogLabel(const QString& label) { m_catalogLabel = label; }
    // A stale or outside row's "which pointers name it and why they no longer match" (empty: none).
    QString mismatchText() const;

  public slots:
    // The verbatim YAML of a pointer (row of pointerModel()); nullptr for a bad row.
    YamlDialog* openPointer(int pointerRow);

  signals:
    // "Show in Catalog": the user wants the recipe's details.
    void openRecipeRequested(const QString& recipe);
    // The bundle section of the row on view is filled (count bundles, or an error message shown).
    void bundlesShown(int count);

  private:
    QHBoxLayout* buildTitleRow();
    void buildDetailLabels();
    void buildPointerTree();
    void buildBundleGroup();
    void buildSplitter();
    int currentPointerRow() const;
    void loadBundles();

    void showCache(const std::vector<evidence::Pointer>& pointers);

    models::Workspace* m_workspace = nullptr; // bundle rows are read on its workers
    QString m_cacheDir;
    QLabel* m_cache = nullptr;
    quint64 m_bundleRequest = 0; // results of older requests are dropped
    int m_bundleLoads = 0;       // workers still running
    models::BundleModel* m_bundleModel = nullptr;
    QLabel* m_bundleTitle = nullptr;
    QLabel* m_bundleMessage = nullptr;
    QTreeView* m_bundleTree = nullptr;
    QWidget* m_bundleSection = nullptr;
    QSplitter* m_split = nullptr;

    bool m_hasRow = false;
    evidence::HealthRow m_row;
    models::PointerModel* m_model = nullptr;
    QLabel* m_icon = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_reason = nullptr;
    QLabel* m_mismatch = nullptr;
    QString m_catalogLabel;
    QLabel* m_facts = nullptr;
    QLabel* m_message = nullptr;
    QTreeView* m_tree = nullptr;
    QPushButton* m_openRecipe = nullptr;
    QPushButton* m_openYaml = nullptr;
};

} // namespace pb::widgets
