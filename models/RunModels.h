// Models of the Validation view: the checks of a run (live, updated by check name, durations that
// tick while a check runs), the stored runs (RunStore::list), and every context of every kubeconfig
// file as a tree (file -> contexts), with files that do not parse kept and showing their error.
#pragma once

#include "ops/Operation.h"
#include "store/CatalogStore.h"
#include "store/RunStore.h"
#include "validation/Runner.h"

#include <QAbstractItemModel>
#include <QAbstractTableModel>
#include <QDateTime>
#include <QStringList>

#include <vector>

namespace pb::models {

using CatalogVersionInfo = store::CatalogVersionInfo;

// Stored runs as the Validation view shows them (plain values; views name these, not store:: types).
using RunSummary = store::RunSummary;
using StoredRun = store::StoredRun;
using HistoryPoint = store::HistoryPoint;

// The checks of a run, in plan order. upsert() replaces a row by check name (or appends).
class CheckTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { PhaseColumn, CheckColumn, StateColumn, DurationColumn, MessageColumn, ColumnCount };
    enum Role { StateRole = Qt::UserRole + 1, NameRole };
    explicit CheckTableModel(QObject* parent = nullptr);

    void setChecks(const std::vector<validation::CheckRun>& checks);
    void upsert(const validation::CheckRun& check);
    void clear();
    // Running checks show their duration up to `now`; call it from a timer (a view's second).
    void tick(const QDateTime& now);

    const validation::CheckRun* check(int row) const;
    int rowOf(const QString& name) const;
    bool hasRunning() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QColor stateColor(validation::CheckState s);
    static QString durationText(qint64 ms);

  private:
    qint64 shownDuration(const validation::CheckRun& c) const;
    std::vector<validation::CheckRun> m_checks; // logs are kept out (the pane holds them)
    QDateTime m_now;
};

// Stored runs, newest first.
class RunListModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        IdColumn,
        StartedColumn,
        StateColumn,
        ChecksColumn,
        RecipeColumn,
        ContextColumn,
        ColumnCount
    };
    enum Role { RunIdRole = Qt::UserRole + 1 };
    explicit RunListModel(QObject* parent = nullptr);

    void setRuns(std::vector<RunSummary> runs);
    const RunSummary* run(int row) const;
    int rowOfRun(qint64 id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<RunSummary> m_runs;
};

// One kubeconfig file as the picker shows it.
struct KubeContextEntry {
    QString name, cluster, user, namespace_, server;
    bool current = false;
    bool insecure = false; // insecure-skip-tls-verify on its cluster
    QString problem;       // the user or cluster cannot be used, and why
};
struct KubeFileEntry {
    QString file;
    QString error; // the file does not parse (its contexts are then unknown)
    std::vector<KubeContextEntry> contexts;
};

// Reads one file on its own (not merged: each file is listed with its own contexts).
KubeFileEntry readKubeconfigFile(const QString& file);
// The files a picker offers: $KUBECONFIG's, ~/.kube/config and ~/.kube/*.yaml|*.yml|config-*
// (existing files, each once, in that order). `home` overrides the home directory (tests).
QStringList kubeconfigCandidates(const QString& home = {});

class KubeContextsModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Column { NameColumn, ServerColumn, NamespaceColumn, ColumnCount };
    enum Role { FileRole = Qt::UserRole + 1, ContextRole, InsecureRole, ErrorRole, CurrentRole };
    explicit KubeContextsModel(QObject* parent = nullptr);

    void setFiles(std::vector<KubeFileEntry> files);
    // Adds (or re-reads) one file; returns its row.
    int addFile(const KubeFileEntry& file);
    const std::vector<KubeFileEntry>& files() const { return m_files; }
    // The index of `context` in `file` (column 0), invalid when absent.
    QModelIndex contextIndex(const QString& file, const QString& context) const;
    QModelIndex fileIndex(const QString& file) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

  private:
    std::vector<KubeFileEntry> m_files;
};

// What the Validation view reads from the database (catalog versions and their recipes, runs,
// a run, a recipe's history), so the view constructs no store itself.
// Worker side: construct it in a job of the window's runner (ops::Async), on the job's context;
// never on the GUI thread.
class RunReader {
  public:
    explicit RunReader(const ops::Context& ctx) : m_db(ctx.db()) {}
    Result<std::vector<store::CatalogVersionInfo>> catalogVersions() const; // in version order, oldest first
    // (recipe name, leaf overlay) of a catalog version.
    Result<std::vector<std::pair<QString, QString>>> recipes(const QString& catalogLabel) const;
    Result<std::vector<RunSummary>> runs() const;
    Result<StoredRun> run(qint64 id) const;
    Result<std::vector<HistoryPoint>> history(const QString& coordinate, const QString& metric = {}) const;
    // What the history chart shows: the busbw points of `coordinate`, else those of any metric.
    Result<std::vector<HistoryPoint>> chartHistory(const QString& coordinate) const;

  private:
    db::Database& m_db;
};

} // namespace pb::models
