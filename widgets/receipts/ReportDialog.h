// File > Release review report…: catalog version, baseline (what "changes since" compares with:
// by default the previous in version order; any version, or none), filter (as you type) and
// format; each version shown with where it came from; a preview of the
// report as it will be written (the HTML in a QTextBrowser); Save… writes it and its receipt. The
// versions, the report's data and the saved file are read and written on a worker of the window's
// models::Workspace (a connection of its own); only the charts and the preview are drawn on the GUI
// thread. The charts, the preview and the saved file are pb_report's (report/render/ReportRender.h),
// the very code `proofbench report` runs, so a saved report is byte for byte the CLI's for the same
// database.
#pragma once

#include "HealthModels.h"
#include "Workspace.h"
#include "ops/ReportExport.h"
#include "report/Report.h"

#include <QDialog>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QTimer;

namespace pb::widgets {

using report::ReportChart;
using report::ReportData;
using report::ReportFormat;
using report::ReportOptions;
using ReportOutput = ops::ReportExportOutcome;

class ReportDialog : public QDialog {
    Q_OBJECT
  public:
    // Reads the catalog versions on a worker, then collects the report for the newest.
    explicit ReportDialog(models::Workspace& workspace, QWidget* parent = nullptr);
    ~ReportDialog() override;

    // Collects the report for the current version and filter (on a worker); previewReady() follows.
    void refresh();
    // True while the versions are read or the report is collected.
    bool isCollecting() const { return m_loadingVersions || m_collect.running(); }
    // The data and charts on preview; nullptr before the first preview.
    const ReportData* data() const { return m_data ? &*m_data : nullptr; }
    const std::vector<ReportChart>& charts() const { return m_charts; }
    QString lastError() const { return m_error; }

    ReportFormat format() const;
    void setFormat(ReportFormat f);
    // Starts writing the previewed report to `path` in the chosen format (with its receipt) on a
    // worker; saved(path, error) follows, and lastSaved() holds what was written. Returns false
    // (saved() with the reason already emitted) when there is nothing to save yet.
    bool saveTo(const QString& path);
    bool isSaving() const { return m_saving.running(); }
    // The last report written by saveTo(); empty before the first, or when the last failed.
    const std::optional<ReportOutput>& lastSaved() const { return m_lastSaved; }

    // The baseline chosen: a version label, or report::kNoBaseline. Changing the version selects
    // its default baseline (report::defaultBaseline: the previous in version order).
    QString baseline() const;
    bool setBaseline(const QString& label); // empty or kNoBaseline: none; false when no such version

    QComboBox* versionCombo() const { return m_version; }
    QComboBox* baselineCombo() const { return m_baseline; }
    QLabel* originLabel() const { return m_origin; }
    QLineEdit* filterEdit() const { return m_filter; }
    QTextBrowser* preview() const { return m_preview; }

  public slots:
    // Asks for a file name, then saveTo().
    void saveInteractively();

  signals:
    void previewReady();
    // saveTo() finished: `error` is empty when the report and its receipt were written.
    void saved(const QString& path, const QString& error);

  private:
    void loadVersions();
    void onVersions(const Result<std::vector<models::CatalogVersionInfo>>& versions);
    void onCollected(const Result<ReportData>& data);
    void onSaved(const QString& path, const Result<ReportOutput>& out);
    void selectDefaultBaseline();
    void updateOrigin();
    ReportOptions currentOptions() const;

    models::Workspace& m_workspace;
    std::vector<models::CatalogVersionInfo> m_versions; // version order, oldest first
    QComboBox* m_version = nullptr;
    QComboBox* m_baseline = nullptr;
    QLabel* m_origin = nullptr;
    QLineEdit* m_filter = nullptr;
    QComboBox* m_format = nullptr;
    QTextBrowser* m_preview = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_save = nullptr;
    QTimer* m_debounce = nullptr;
    bool m_loadingVersions = false;
    models::Task m_collect; // the report being collected
    models::Task m_saving;  // the report being written
    bool m_again = false;   // options changed while collecting
    std::optional<ReportData> m_data;
    std::vector<ReportChart> m_charts;
    std::optional<ReportOutput> m_lastSaved;
    QString m_error;
};

} // namespace pb::widgets
