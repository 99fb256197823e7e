// File > Release review report…: catalog version, baseline (what "changes since" compares with:
// by default the previous in version order; any version, or none), filter (as you type) and
// format; each version shown with where it came from; a preview of the
// report as it will be written (the HTML in a QTextBrowser); Save… writes it and its receipt. The
// database is read on a worker with its own connection; the charts, the preview and the saved
// file are pb_report's (report/render/ReportRender.h), the very code `proofbench report` runs, so
// a saved report is byte for byte the CLI's for the same database.
#pragma once

#include "ops/Async.h"
#include "ops/ReportExport.h"
#include "report/Report.h"

#include <QDialog>

#include <memory>
#include <optional>

class QComboBox;
class QFutureWatcherBase;
class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QTimer;

namespace pb::db {
class Database;
}

namespace pb::widgets {

using report::ReportChart;
using report::ReportData;
using report::ReportFormat;
using report::ReportOptions;
using ReportOutput = ops::ReportExportOutcome;

class ReportDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ReportDialog(db::Database& db, QWidget* parent = nullptr);
    ~ReportDialog() override;

    // Collects the report for the current version and filter (on a worker); previewReady() follows.
    void refresh();
    bool isCollecting() const { return m_watcher != nullptr; }
    // The data and charts on preview; nullptr before the first preview.
    const ReportData* data() const { return m_data ? &*m_data : nullptr; }
    const std::vector<ReportChart>& charts() const { return m_charts; }
    QString lastError() const { return m_error; }

    ReportFormat format() const;
    void setFormat(ReportFormat f);
    // Writes the previewed report to `path` in the chosen format (with its receipt).
    Result<ReportOutput> saveTo(const QString& path);

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
    void saved(const QString& path, const QString& error);

  private:
    struct Collected;
    void onCollected(const Collected& c);
    void selectDefaultBaseline();
    void updateOrigin();

    db::Database& m_db;
    std::unique_ptr<ops::Async> m_async; // the report is collected here, on a connection of its own
    std::vector<store::CatalogVersionInfo> m_versions; // version order, oldest first
    QComboBox* m_version = nullptr;
    QComboBox* m_baseline = nullptr;
    QLabel* m_origin = nullptr;
    QLineEdit* m_filter = nullptr;
    QComboBox* m_format = nullptr;
    QTextBrowser* m_preview = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_save = nullptr;
    QTimer* m_debounce = nullptr;
    QFutureWatcherBase* m_watcher = nullptr;
    bool m_again = false; // options changed while collecting
    std::optional<ReportData> m_data;
    std::vector<ReportChart> m_charts;
    QString m_error;
};

} // namespace pb::widgets
