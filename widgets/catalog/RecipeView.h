// The right-hand pane: one resolved recipe — criteria, its evidence and parity digests (labelled),
// a "sample data" mark for the sample catalog, applied overlays (activate one
// to read its YAML), components in deployment order, constraints and validation phases.
#pragma once

#include "CatalogTreeModel.h"
#include "catalog/Resolver.h"

#include <QWidget>

#include <memory>
#include <optional>

class QGroupBox;
class QHBoxLayout;
class QLabel;
class QListView;
class QSplitter;
class QTableView;
class QTreeView;

namespace pb::models {
class AppliedOverlaysModel;
class ComponentsModel;
class ConstraintsModel;
class ValidationModel;
} // namespace pb::models

namespace pb::widgets {

class YamlDialog;

class RecipeView : public QWidget {
    Q_OBJECT
  public:
    explicit RecipeView(QWidget* parent = nullptr);

    // `catalog` is the version the recipe belongs to (kept for the overlay YAML); `result` is
    // the recipe resolved from it.
    void showRecipe(const models::RecipeInfo& info, std::shared_ptr<const catalog::Catalog> catalog,
                    const catalog::RecipeResult& result);
    // Header filled from the stored recipe, tables empty, and a message (loading, or an error).
    void showMessage(const models::RecipeInfo& info, const QString& message, bool isError);

    const models::RecipeInfo& recipe() const { return m_info; }
    bool hasResult() const { return m_catalog != nullptr; }
    // The recipe shown, as resolved (null while none is).
    const catalog::RecipeResult* result() const { return m_result ? &*m_result : nullptr; }
    const std::shared_ptr<const catalog::Catalog>& catalog() const { return m_catalog; }
    // The shown recipe's digests (bare hex; parity empty until the recipe is resolved) and
    // whether its catalog version is sample data.
    QString evidenceDigest() const { return m_evidenceDigest; }
    QString parityDigest() const { return m_parityDigest; }
    bool isSample() const { return m_sample; }
    // The catalog version's release binding as shown ("" when its version is bound to none).
    QString releaseBindingText() const;
    models::ComponentsModel* componentsModel() const { return m_components; }
    models::ConstraintsModel* constraintsModel() const { return m_constraints; }
    models::ValidationModel* validationModel() const { return m_validation; }
    models::AppliedOverlaysModel* overlaysModel() const { return m_overlays; }
    // The component whose row is current in the components table ("" for none).
    QString selectedComponent() const;

  public slots:
    // Opens the read-only YAML of an applied overlay or mixin; nullptr when it is not in the catalog.
    YamlDialog* openOverlay(const QString& name);
    // Makes `name`'s row current in the components table (none for "" or an unknown name).
    // Emits nothing: componentSelected is for the user's choices, so views can follow each other.
    void selectComponent(const QString& name);

  signals:
    void overlayOpened(const QString& name);
    // The user made a row of the components table current ("" when none is).
    void componentSelected(const QString& name);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    QHBoxLayout* buildHeader();
    void buildComponents();
    void buildOverlays();
    void buildConstraints();
    void buildValidation();
    void buildSplitters();
    void setHeader(const models::RecipeInfo& info);
    void showDigests();
    void clearTables();
    void fitColumns();

    bool m_selecting = false; // selectComponent() is moving the current row

    models::RecipeInfo m_info;
    std::shared_ptr<const catalog::Catalog> m_catalog;
    std::optional<catalog::RecipeResult> m_result;
    QString m_evidenceDigest, m_parityDigest, m_change;
    bool m_sample = false;

    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    QLabel* m_binding = nullptr;
    QList<QLabel*> m_criteria;
    QLabel* m_digest = nullptr;
    QLabel* m_message = nullptr;
    QSplitter* m_splitter = nullptr;
    QSplitter* m_detailSplitter = nullptr;
    QGroupBox* m_componentsGroup = nullptr;
    QGroupBox* m_constraintsGroup = nullptr;
    QGroupBox* m_validationGroup = nullptr;
    QGroupBox* m_overlaysGroup = nullptr;
    QTableView* m_componentsView = nullptr;
    QTableView* m_constraintsView = nullptr;
    QTreeView* m_validationView = nullptr;
    QListView* m_overlaysView = nullptr;

    models::ComponentsModel* m_components = nullptr;
    models::ConstraintsModel* m_constraints = nullptr;
    models::ValidationModel* m_validation = nullptr;
    models::AppliedOverlaysModel* m_overlays = nullptr;
};

} // namespace pb::widgets
