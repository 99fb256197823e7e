#include "report/Report.h"

#include "db/Database.h"
#include "receipts/Canonical.h"
#include "report/HealthTable.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSet>

#include <algorithm>

namespace pb::report {

using evidence::HealthRow;
using evidence::HealthStatus;

QString reportFormatName(ReportFormat f) {
    switch (f) {
    case ReportFormat::Html:
        return QStringLiteral("html");
    case ReportFormat::Pdf:
        return QStringLiteral("pdf");
    case ReportFormat::Markdown:
        return QStringLiteral("markdown");
    }
    return {};
}

std::optional<ReportFormat> parseReportFormat(const QString& s) {
    const QString l = s.trimmed().toLower();
    if (l == QLatin1String("html"))
        return ReportFormat::Html;
    if (l == QLatin1String("pdf"))
        return ReportFormat::Pdf;
    if (l == QLatin1String("markdown") || l == QLatin1String("md"))
        return ReportFormat::Markdown;
    return std::nullopt;
}

QString reportSuffix(ReportFormat f) {
    return f == ReportFormat::Markdown ? QStringLiteral("md") : reportFormatName(f);
}

namespace {

constexpr HealthStatus kStatuses[] = {HealthStatus::Verified,
                                      HealthStatus::VerifiedFailedPhases,
                                      HealthStatus::VerifiedIncomplete,
                                      HealthStatus::Signed,
                                      HealthStatus::Pending,
                                      HealthStatus::Stale,
                                      HealthStatus::Invalid,
                                      HealthStatus::NoEvidence};

bool matchesFilter(const QString& filter, const QString& recipe, const QString& criteria) {
    return filter.isEmpty() || recipe.contains(filter, Qt::CaseInsensitive) ||
           criteria.contains(filter, Qt::CaseInsensitive);
}

bool hasPerfData(const store::StoredRun& run) {
    return std::any_of(run.result.checks.begin(), run.result.checks.end(),
                       [](const validation::CheckRun& c) { return c.nccl || c.inference; });
}

} // namespace

std::vector<std::pair<HealthStatus, int>> ReportData::statusCounts() const {
    std::vector<std::pair<HealthStatus, int>> out;
    for (HealthStatus s : kStatuses)
        out.emplace_back(s, int(std::count_if(rows.begin(), rows.end(),
                                              [s](const HealthRow& r) { return r.status == s; })));
    return out;
}

int CoordinateRuns::historyRuns() const {
    QSet<qint64> ids;
    for (const store::HistoryPoint& p : history)
        ids.insert(p.runId);
    return int(ids.size());
}

QString CoordinateRuns::countsNote() const {
    const int shown = int(runs.size()), plotted = historyRuns();
    QString note = QStringLiteral("The table lists the newest %1 run%2 with performance data (at most 3)")
                       .arg(shown)
                       .arg(shown == 1 ? QString() : QStringLiteral("s"));
    if (!historyMetric.isEmpty())
        note += QStringLiteral("; the History chart plots %1 of every stored run: %2 run%3%4")
                    .arg(historyMetric)
                    .arg(plotted)
                    .arg(plotted == 1 ? QString() : QStringLiteral("s"))
                    .arg(plotted > shown ? QStringLiteral(" (%1 not in the table)").arg(plotted - shown)
                                         : QString());
    return note + QLatin1Char('.');
}

QString defaultBaseline(const std::vector<store::CatalogVersionInfo>& versions, const QString& label) {
    const auto it = std::find_if(versions.begin(), versions.end(),
                                 [&](const store::CatalogVersionInfo& v) { return v.label == label; });
    if (it == versions.end())
        return {};
    const std::optional<std::size_t> b =
        store::defaultBaselineIndex(versions, static_cast<std::size_t>(it - versions.begin()));
    return b ? versions[*b].label : QString();
}

namespace {

// The version: the one asked for, else the newest in version order; "previous" and the default
// baseline follow version order too (CatalogStore::versions()), never the order of import.
// sampleBefore: a real version whose previous is the sample (it has no default baseline).
Status pickVersions(db::Database& db, store::CatalogStore& catalogs, const ReportOptions& options,
                    ReportData& d, bool& sampleBefore) {
    Result<std::vector<store::CatalogVersionInfo>> versions = catalogs.versions();
    if (!versions)
        return versions.error();
    if (versions->empty())
        return makeError(
            QStringLiteral("%1: no catalog version in the database (import one first)").arg(db.path()));
    auto it = versions->end() - 1;
    if (!options.version.isEmpty()) {
        it = std::find_if(versions->begin(), versions->end(),
                          [&](const store::CatalogVersionInfo& v) { return v.label == options.version; });
        if (it == versions->end())
            return makeError(QStringLiteral("%1: --version: no catalog version '%2' in the database")
                                 .arg(db.path(), options.version));
    }
    d.version = *it;
    if (it != versions->begin())
        d.previousLabel = (it - 1)->label;
    const std::size_t self = static_cast<std::size_t>(it - versions->begin());
    sampleBefore = it != versions->begin() && (it - 1)->isSample() && !d.version.isSample();
    if (options.baseline.isEmpty()) {
        if (const std::optional<std::size_t> b = store::defaultBaselineIndex(*versions, self))
            d.baseline = (*versions)[*b];
        else
            d.noBaselineReason = store::noBaselineReason(*versions, self);
    } else if (options.baseline != kNoBaseline) {
        const auto b =
            std::find_if(versions->begin(), versions->end(),
                         [&](const store::CatalogVersionInfo& v) { return v.label == options.baseline; });
        if (b == versions->end())
            return makeError(QStringLiteral("%1: --baseline: no catalog version '%2' in the database")
                                 .arg(db.path(), options.baseline));
        d.baseline = *b;
    }
    return {};
}

// The health table and each coordinate's evidence (read under the name the pointers record).
Status collectEvidence(db::Database& db, const ReportOptions& options, ReportData& d) {
    Result<std::vector<HealthRow>> rows = healthRows(db, d.version.id);
    if (!rows)
        return rows.error();
    for (const HealthRow& r : *rows)
        if (matchesFilter(options.filter, r.recipe, r.criteria.summary()) ||
            (r.displayName() != r.recipe && matchesFilter(options.filter, r.displayName(), QString())))
            d.rows.push_back(r);
    for (const HealthRow& r : d.rows) {
        if (r.pointers == 0 && r.bundles == 0 && r.invalidBundles == 0)
            continue;
        CoordinateEvidence e;
        e.recipe = r.displayName();
        if (Result<std::vector<evidence::Pointer>> p = rowPointers(db, r); p)
            e.pointers = std::move(*p);
        else
            return p.error();
        if (Result<std::vector<store::BundleRecord>> b = rowBundles(db, r); b)
            e.bundles = std::move(*b);
        else
            return b.error();
        e.mismatch = mismatchText(r, e.pointers, d.version.label);
        d.evidence.push_back(std::move(e));
    }
    return {};
}

// One coordinate's newest (up to 3) runs with performance data, oldest first, and its history.
Status coordinateRuns(store::RunStore& runs, const std::vector<store::RunSummary>& list, CoordinateRuns& cr) {
    for (const store::RunSummary& s : list) { // newest first
        if (cr.runs.size() >= 3)
            break;
        Result<store::StoredRun> run = runs.load(s.id);
        if (!run)
            return run.error();
        if (hasPerfData(*run))
            cr.runs.insert(cr.runs.begin(), std::move(*run));
    }
    Result<std::vector<store::HistoryPoint>> h = runs.history(cr.coordinate, QStringLiteral("busbw"));
    if (h && h->empty())
        h = runs.history(cr.coordinate);
    if (!h)
        return h.error();
    if (!h->empty()) {
        cr.historyMetric = h->front().metric;
        for (const store::HistoryPoint& p : *h)
            if (p.metric == cr.historyMetric)
                cr.history.push_back(p);
    }
    return {};
}

// Runs with performance data, per coordinate; the newest run's failure is an open problem.
Status collectRuns(db::Database& db, const ReportOptions& options, ReportData& d) {
    store::RunStore runs(db);
    Result<QStringList> coordinates = runs.coordinates();
    if (!coordinates)
        return coordinates.error();
    for (const QString& coordinate : *coordinates) {
        if (!matchesFilter(options.filter, coordinate, QString()))
            continue;
        Result<std::vector<store::RunSummary>> list = runs.list(coordinate, 50);
        if (!list)
            return list.error();
        CoordinateRuns cr;
        cr.coordinate = coordinate;
        if (Status s = coordinateRuns(runs, *list, cr); !s)
            return s;
        if (!list->empty() && list->front().state == QLatin1String("failed"))
            d.problems.push_back({coordinate, QStringLiteral("failed"),
                                  QStringLiteral("validation run %1 failed: %2")
                                      .arg(list->front().runUid, list->front().reason.isEmpty()
                                                                     ? QStringLiteral("(no reason recorded)")
                                                                     : list->front().reason)});
        if (!cr.runs.empty() || !cr.history.empty())
            d.runs.push_back(std::move(cr));
    }
    return {};
}

// The catalog diff against the baseline, or the note that says why there is none.
void collectDiff(store::CatalogStore& catalogs, const ReportOptions& options, bool sampleBefore,
                 ReportData& d) {
    if (!d.baseline) {
        d.diffNote =
            options.baseline == kNoBaseline ? QStringLiteral("No baseline was chosen: nothing compared.")
            : sampleBefore
                ? QStringLiteral(
                      "%1 is the first real catalog version in version order; the version before it, %2, "
                      "is Proofbench's sample data, so it is not compared by default (choose it as "
                      "the baseline to compare anyway).")
                      .arg(d.version.label, d.previousLabel)
            : !d.version.isSample() && !d.version.placed()
                ? QStringLiteral("%1 is not compared by default: %2; choose a baseline to compare anyway.")
                      .arg(d.version.label, d.noBaselineReason)
                : QStringLiteral("%1 is the first catalog version in version order: nothing to compare with.")
                      .arg(d.version.label);
    } else if (d.baseline->label == d.version.label) {
        d.diffNote = QStringLiteral("The baseline is %1 itself: nothing changed.").arg(d.version.label);
    } else {
        Result<catalog::Catalog> from = catalogs.loadCatalog(d.baseline->label);
        Result<catalog::Catalog> to = catalogs.loadCatalog(d.version.label);
        if (!from || !to)
            d.diffNote = QStringLiteral("the catalog diff could not be computed: %1")
                             .arg((!from ? from.error() : to.error()).toString());
        else
            d.diff = catalog::diffCatalogs(*from, *to, d.baseline->label, d.version.label);
    }
}

// Open problems of the health table.
std::vector<ReportProblem> rowProblems(const std::vector<HealthRow>& rows) {
    std::vector<ReportProblem> fromRows;
    for (const HealthRow& r : rows) {
        QString kind;
        if (r.status == HealthStatus::Stale || r.stale)
            kind = QStringLiteral("stale");
        else if (r.status == HealthStatus::Pending)
            kind = QStringLiteral("pending");
        else if (r.status == HealthStatus::VerifiedFailedPhases || r.failedPhases)
            kind = QStringLiteral("failed");
        else if (r.status == HealthStatus::VerifiedIncomplete || r.incomplete)
            kind = QStringLiteral("incomplete");
        else if (r.status == HealthStatus::Invalid)
            kind = QStringLiteral("invalid");
        if (!kind.isEmpty())
            fromRows.push_back({r.displayName(), kind,
                                r.reason.isEmpty() ? evidence::healthStatusName(r.status) : r.reason});
    }
    return fromRows;
}

} // namespace

Result<ReportData> collectReport(db::Database& db, const ReportOptions& options) {
    ReportData d;
    d.options = options;
    d.toolVersion = QCoreApplication::applicationVersion().isEmpty() ? QStringLiteral("dev")
                                                                     : QCoreApplication::applicationVersion();
    store::CatalogStore catalogs(db);
    bool sampleBefore = false;
    if (Status s = pickVersions(db, catalogs, options, d, sampleBefore); !s)
        return s.error();
    if (Status s = collectEvidence(db, options, d); !s)
        return s.error();
    if (Status s = collectRuns(db, options, d); !s)
        return s.error();
    collectDiff(catalogs, options, sampleBefore, d);
    const std::vector<ReportProblem> fromRows = rowProblems(d.rows);
    d.problems.insert(d.problems.begin(), fromRows.begin(), fromRows.end());

    Result<receipts::ChainCheck> chain = receipts::Ledger(db).verify();
    if (!chain)
        return chain.error();
    d.chain = *chain;
    // The report is "as of" the newest receipt (else the version's import): derived from the
    // database, never from the clock, so the same database gives the same report, byte for byte.
    d.generatedAt = (d.chain.head.time.isValid() ? d.chain.head.time : d.version.importedAt).toUTC();
    return d;
}
} // namespace pb::report
