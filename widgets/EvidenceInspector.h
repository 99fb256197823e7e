// The evidence of one recipe coordinate, pointer by pointer: its status and why, then every pointer
// with its file, layout, signer (identity, issuer, class, Rekor index), bundle (OCI reference,
// digest, predicate type), attestedAt, and each broken rule of an invalid one. Signatures are not
// verified yet, and the inspector says so rather than implying otherwise.
#pragma once

#include "evidence/Evidence.h"
#include "store/EvidenceStore.h"

#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QTreeView;

namespace pb::models {
class PointerModel;
}

namespace pb::widgets {

class YamlDialog;

class EvidenceInspector : public QWidget {
    Q_OBJECT
  public:
    explicit EvidenceInspector(QWidget* parent = nullptr);

    // `error` (when reading the pointers failed) replaces the pointer list with a message.
    void showRow(const store::HealthRow& row, std::vector<evidence::Pointer> pointers,
                 const QString& error = {});
    void showMessage(const QString& message);

    bool hasRow() const { return m_hasRow; }
    const store::HealthRow& row() const { return m_row; }
    models::PointerModel* pointerModel() const { return m_model; }
    QTreeView* pointerTree() const { return m_tree; }
    // Everything the header says, as plain text (title, status, reason, facts).
    QString headerText() const;

  public slots:
    // The verbatim YAML of a pointer (row of pointerModel()); nullptr for a bad row.
    YamlDialog* openPointer(int pointerRow);

  signals:
    // "Show in Catalog": the user wants the recipe's details.
    void openRecipeRequested(const QString& recipe);

  private:
    int currentPointerRow() const;

    bool m_hasRow = false;
    store::HealthRow m_row;
    models::PointerModel* m_model = nullptr;
    QLabel* m_icon = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_reason = nullptr;
    QLabel* m_facts = nullptr;
    QLabel* m_message = nullptr;
    QTreeView* m_tree = nullptr;
    QPushButton* m_openRecipe = nullptr;
    QPushButton* m_openYaml = nullptr;
};

} // namespace pb::widgets
