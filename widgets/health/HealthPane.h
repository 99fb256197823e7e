// The health table of a catalog version: one row per recipe coordinate (and one per coordinate
// that has evidence but is not in the version) with its status derived from the evidence
// pointers, filters (text, status, service, accelerator, signer class), a summary bar with the
// count of each status (click one to filter by it), export to Markdown or CSV, and the evidence
// inspector for the selected row. Rows are read on a worker with its own database connection.
// "Fetch evidence" / "Fetch all" pull the bundles the pointers pin from their registries
// (FetchEvidenceDialog) and "Registries…" shows where each registry's credentials come from.
#pragma once

#include "FetchEvidenceDialog.h"
#include "HealthModels.h"
#include "Workspace.h"

#include <QPointer>
#include <QWidget>

class QComboBox;
class QPushButton;
class QLabel;
class QLineEdit;
class QSplitter;
class QTableView;
class QToolButton;

namespace pb::models {
class HealthFilterProxyModel;
class HealthModel;
} // namespace pb::models

namespace pb::widgets {

class EvidenceInspector;

class HealthPane : public QWidget {
    Q_OBJECT
  public:
    enum class ExportFormat { Markdown, Csv };
    Q_ENUM(ExportFormat)

    explicit HealthPane(models::Workspace& workspace, QWidget* parent = nullptr);
    ~HealthPane() override;

    // The version on view (its label), and choosing one; false when there is no such version.
    QString version() const;
    bool setVersion(const QString& label);
    // A load is running (or waiting for the pane to be shown).
    bool isLoading() const { return m_loading || m_readingVersions || m_dirty; }
    // The selected row's pointers are being read (the inspector shows them next).
    bool isLoadingRow() const { return m_rowLoads > 0; }
    QString lastError() const { return m_lastError; }

    // Makes `recipe`'s row current (clearing filters that hide it); false when it has no row.
    bool selectRecipe(const QString& recipe);

    // The line above the summary: version, "SAMPLE DATA" mark, origin (plain text).
    QString sourceText() const;
    QLabel* sourceLabel() const { return m_source; }

    models::HealthModel* model() const { return m_model; }
    models::HealthFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    EvidenceInspector* inspector() const { return m_inspector; }

    // How fetches reach registries (plain-HTTP list, docker config, cache directory).
    const RegistrySettings& registrySettings() const { return m_registry; }
    void setRegistrySettings(const RegistrySettings& settings);
    // The fetch dialog last opened (nullptr once closed).
    FetchEvidenceDialog* fetchDialog() const { return m_fetchDialog; }
    // Recipes of the selected rows, in view order.
    QStringList selectedRecipes() const;

  public slots:
    // Re-reads the catalog versions and the rows of the one on view (after an import). Deferred
    // until the pane is visible.
    void reload();
    // Writes the rows on view (filters applied, in view order) to `path`; false with lastError().
    bool exportTo(const QString& path, pb::widgets::HealthPane::ExportFormat format);
    // Asks for a file name, then exportTo(); errors in a message box.
    void exportInteractive(pb::widgets::HealthPane::ExportFormat format);
    void clearFilters();
    // "Fetch evidence": reads the pointers of the selected rows on a worker, then opens a fetch
    // dialog for them (fetchDialog(); a message box when there is nothing to fetch).
    void fetchSelected();
    // "Fetch all": the same for every row on view (filters applied).
    void fetchAll();
    // The registry credentials view.
    void openRegistries();

  signals:
    // A fetch dialog opened (fetchSelected(), fetchAll()).
    void fetchOpened(pb::widgets::FetchEvidenceDialog* dialog);
    // The rows of `label` are on view.
    void loaded(const QString& label, int rows);
    // The user asked for a recipe's details (double-click, or the inspector's button).
    void openRecipe(const QString& label, const QString& recipe);

  protected:
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    struct Load;

    void buildFilters();
    void buildExportButton();
    void buildFetchButtons();
    void buildStatusLabels();
    void fitWholeColumns();
    void buildTable();
    void buildInspector();
    void reloadVersions();
    void updateSource();
    const models::CatalogVersionInfo* loadedVersion() const;
    void startLoad();
    void onLoaded(Load load);
    void refreshCombos();
    void updateSummary();
    void showCurrent();
    void applyCombos();
    void openFetch(const QStringList& recipes);
    void openFetchWith(std::vector<evidence::Pointer> pointers, const QStringList& recipes,
                       const QString& error);
    void applyVersions(const Result<std::vector<models::CatalogVersionInfo>>& versions);

    models::Workspace& m_workspace; // the health table is read on its workers
    models::HealthModel* m_model = nullptr;
    models::HealthFilterProxyModel* m_proxy = nullptr;

    QComboBox* m_version = nullptr;
    QLineEdit* m_filter = nullptr;
    QComboBox* m_status = nullptr;
    QComboBox* m_service = nullptr;
    QComboBox* m_accelerator = nullptr;
    QComboBox* m_signer = nullptr;
    QToolButton* m_export = nullptr;
    QPushButton* m_fetch = nullptr;
    QPushButton* m_fetchAll = nullptr;
    QPushButton* m_registries = nullptr;
    QPointer<FetchEvidenceDialog> m_fetchDialog;
    RegistrySettings m_registry;
    QLabel* m_source = nullptr;
    QLabel* m_summary = nullptr;
    QSplitter* m_splitter = nullptr;
    QTableView* m_table = nullptr;
    EvidenceInspector* m_inspector = nullptr;

    std::vector<models::CatalogVersionInfo> m_versions;
    QString m_loadedLabel;          // whose rows the model holds
    QString m_currentRecipe;        // the selected row, kept across reloads
    QString m_lastError;            // of the last export or load
    QString m_loadError;            // why the rows on view could not be read
    bool m_loading = false;         // the table is being read
    quint64 m_rowRequest = 0;       // the latest selection's read
    int m_rowLoads = 0;             // row reads still running
    bool m_readingVersions = false; // the version list is being read
    bool m_dirty = false;           // a load is due when the pane is shown
    bool m_again = false;           // another load was asked for while one ran
    bool m_fitted = false;          // columns sized to their contents once
};

} // namespace pb::widgets
