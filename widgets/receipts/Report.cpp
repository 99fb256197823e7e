#include "Report.h"

#include "PerfCharts.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "receipts/Canonical.h"
#include "db/Database.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>
#include <map>

namespace pb::widgets {

using store::HealthRow;
using store::HealthStatus;

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

constexpr HealthStatus kStatuses[] = {HealthStatus::Verified, HealthStatus::VerifiedFailedPhases, HealthStatus::Signed,
                                      HealthStatus::Pending,  HealthStatus::Stale,                HealthStatus::Invalid,
                                      HealthStatus::NoEvidence};

bool matchesFilter(const QString& filter, const QString& recipe, const QString& criteria) {
    return filter.isEmpty() || recipe.contains(filter, Qt::CaseInsensitive) || criteria.contains(filter, Qt::CaseInsensitive);
}

QString signersText(const HealthRow& r) {
    QStringList parts;
    if (r.firstParty)
        parts << QStringLiteral("%1 first-party").arg(r.firstParty);
    if (r.community)
        parts << QStringLiteral("%1 community").arg(r.community);
    if (r.partner)
        parts << QStringLiteral("%1 partner").arg(r.partner);
    if (r.reported)
        parts << QStringLiteral("%1 reported").arg(r.reported);
    return parts.isEmpty() ? QStringLiteral("-") : parts.join(QStringLiteral(", "));
}

QString dateText(const QDateTime& t) {
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC") : QStringLiteral("-");
}

QString slug(const QString& s) {
    QString out;
    for (QChar c : s)
        out += (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('.')) ? c.toLower() : QLatin1Char('-');
    return out;
}

std::optional<validation::Threshold> ncclThreshold(const validation::CheckRun& c) {
    if (c.score)
        for (const validation::ScoredMetric& m : c.score->metrics)
            if (m.threshold)
                return m.threshold;
    return std::nullopt;
}

bool hasPerfData(const store::StoredRun& run) {
    return std::any_of(run.result.checks.begin(), run.result.checks.end(),
                       [](const validation::CheckRun& c) { return c.nccl || c.inference; });
}

} // namespace

std::vector<std::pair<HealthStatus, int>> ReportData::statusCounts() const {
    std::vector<std::pair<HealthStatus, int>> out;
    for (HealthStatus s : kStatuses)
        out.emplace_back(s, int(std::count_if(rows.begin(), rows.end(), [s](const HealthRow& r) { return r.status == s; })));
    return out;
}

Result<ReportData> collectReport(db::Database& db, const ReportOptions& options) {
    ReportData d;
    d.options = options;
    d.toolVersion = QCoreApplication::applicationVersion().isEmpty() ? QStringLiteral("dev") : QCoreApplication::applicationVersion();
    d.generatedAt = QDateTime::currentDateTimeUtc();

    store::CatalogStore catalogs(db);
    Result<std::vector<store::CatalogVersionInfo>> versions = catalogs.versions();
    if (!versions)
        return versions.error();
    if (versions->empty())
        return makeError(QStringLiteral("%1: no catalog version in the database (import one first)").arg(db.path()));
    auto it = versions->end() - 1;
    if (!options.version.isEmpty()) {
        it = std::find_if(versions->begin(), versions->end(),
                          [&](const store::CatalogVersionInfo& v) { return v.label == options.version; });
        if (it == versions->end())
            return makeError(QStringLiteral("%1: --version: no catalog version '%2' in the database").arg(db.path(), options.version));
    }
    d.version = *it;
    if (it != versions->begin())
        d.previousLabel = (it - 1)->label;

    // The health table and each coordinate's evidence.
    store::EvidenceStore evidence(db);
    Result<std::vector<HealthRow>> rows = evidence.health(d.version.id);
    if (!rows)
        return rows.error();
    for (const HealthRow& r : *rows)
        if (matchesFilter(options.filter, r.recipe, r.criteria.summary()))
            d.rows.push_back(r);
    for (const HealthRow& r : d.rows) {
        if (r.pointers == 0 && r.bundles == 0 && r.invalidBundles == 0)
            continue;
        CoordinateEvidence e;
        e.recipe = r.recipe;
        if (Result<std::vector<evidence::Pointer>> p = evidence.pointersFor(r.recipe); p)
            e.pointers = std::move(*p);
        else
            return p.error();
        if (Result<std::vector<store::BundleRecord>> b = evidence.bundlesFor(r.recipe); b)
            e.bundles = std::move(*b);
        else
            return b.error();
        d.evidence.push_back(std::move(e));
    }

    // Runs with performance data, per coordinate.
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
        for (const store::RunSummary& s : *list) { // newest first
            if (cr.runs.size() >= 3)
                break;
            Result<store::StoredRun> run = runs.load(s.id);
            if (!run)
                return run.error();
            if (hasPerfData(*run))
                cr.runs.insert(cr.runs.begin(), std::move(*run));
        }
        Result<std::vector<store::HistoryPoint>> h = runs.history(coordinate, QStringLiteral("busbw"));
        if (h && h->empty())
            h = runs.history(coordinate);
        if (!h)
            return h.error();
        if (!h->empty()) {
            cr.historyMetric = h->front().metric;
            for (const store::HistoryPoint& p : *h)
                if (p.metric == cr.historyMetric)
                    cr.history.push_back(p);
        }
        // The newest run's failure is an open problem.
        if (!list->empty() && list->front().state == QLatin1String("failed"))
            d.problems.push_back({coordinate, QStringLiteral("failed"),
                                  QStringLiteral("validation run %1 failed: %2")
                                      .arg(list->front().runUid, list->front().reason.isEmpty() ? QStringLiteral("(no reason recorded)")
                                                                                               : list->front().reason)});
        if (!cr.runs.empty() || !cr.history.empty())
            d.runs.push_back(std::move(cr));
    }

    // The catalog diff against the version imported before.
    if (d.previousLabel.isEmpty()) {
        d.diffNote = QStringLiteral("%1 is the first catalog version in the database: nothing to compare with.").arg(d.version.label);
    } else {
        Result<catalog::Catalog> from = catalogs.loadCatalog(d.previousLabel);
        Result<catalog::Catalog> to = catalogs.loadCatalog(d.version.label);
        if (!from || !to)
            d.diffNote = QStringLiteral("the catalog diff could not be computed: %1").arg((!from ? from.error() : to.error()).toString());
        else
            d.diff = catalog::diffCatalogs(*from, *to, d.previousLabel, d.version.label);
    }

    // Open problems of the health table.
    std::vector<ReportProblem> fromRows;
    for (const HealthRow& r : d.rows) {
        QString kind;
        if (r.status == HealthStatus::Stale || r.stale)
            kind = QStringLiteral("stale");
        else if (r.status == HealthStatus::Pending)
            kind = QStringLiteral("pending");
        else if (r.status == HealthStatus::VerifiedFailedPhases || r.failedPhases)
            kind = QStringLiteral("failed");
        else if (r.status == HealthStatus::Invalid)
            kind = QStringLiteral("invalid");
        if (!kind.isEmpty())
            fromRows.push_back({r.recipe, kind, r.reason.isEmpty() ? healthStatusName(r.status) : r.reason});
    }
    d.problems.insert(d.problems.begin(), fromRows.begin(), fromRows.end());

    Result<receipts::ChainCheck> chain = receipts::Ledger(db).verify();
    if (!chain)
        return chain.error();
    d.chain = *chain;
    return d;
}

// ---- charts ------------------------------------------------------------------------------------

namespace {

QImage renderChart(PerfChart& chart, QSize size) {
    chart.resize(size);
    chart.replot(QCustomPlot::rpImmediateRefresh);
    return chart.toPixmap(size.width(), size.height()).toImage();
}

} // namespace

std::vector<ReportChart> renderReportCharts(const ReportData& data, QSize size) {
    std::vector<ReportChart> out;
    for (const CoordinateRuns& cr : data.runs) {
        const QString base = slug(cr.coordinate);
        NcclChart nccl;
        std::optional<validation::Threshold> threshold;
        const validation::CheckRun* inference = nullptr;
        for (const store::StoredRun& run : cr.runs)
            for (const validation::CheckRun& c : run.result.checks) {
                if (c.nccl) {
                    nccl.addRun(QStringLiteral("run %1 %2").arg(run.summary.runUid, c.name), *c.nccl);
                    if (std::optional<validation::Threshold> t = ncclThreshold(c))
                        threshold = t;
                }
                if (c.inference)
                    inference = &c; // the newest run's
            }
        if (nccl.runCount() > 0) {
            nccl.setThreshold(threshold);
            out.push_back({cr.coordinate, QStringLiteral("NCCL busbw against message size"),
                           QStringLiteral("nccl-%1.png").arg(base), renderChart(nccl, size)});
        }
        if (inference) {
            InferenceChart chart;
            chart.setResult(*inference->inference,
                            inference->score ? inference->score->metrics : std::vector<validation::ScoredMetric>{});
            out.push_back({cr.coordinate, QStringLiteral("Inference throughput and latency"),
                           QStringLiteral("inference-%1.png").arg(base), renderChart(chart, size)});
        }
        if (!cr.history.empty()) {
            HistoryChart chart;
            chart.setHistory(cr.historyMetric, cr.history);
            out.push_back({cr.coordinate, QStringLiteral("History: %1").arg(cr.historyMetric),
                           QStringLiteral("history-%1.png").arg(base), renderChart(chart, size)});
        }
    }
    return out;
}

// ---- HTML --------------------------------------------------------------------------------------

namespace {

QString esc(const QString& s) { return s.toHtmlEscaped(); }

QString statusColor(HealthStatus s) {
    switch (s) {
    case HealthStatus::Verified:
        return QStringLiteral("#1b7f3b");
    case HealthStatus::Signed:
        return QStringLiteral("#2f6db5");
    case HealthStatus::VerifiedFailedPhases:
    case HealthStatus::Invalid:
        return QStringLiteral("#b3261e");
    case HealthStatus::Pending:
    case HealthStatus::Stale:
        return QStringLiteral("#a15c00");
    case HealthStatus::NoEvidence:
        break;
    }
    return QStringLiteral("#555555");
}

QString dataUri(const QImage& image) {
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
}

const char* const kTable = "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">";

QString th(const QStringList& cells) {
    QString s = QStringLiteral("<thead><tr>");
    for (const QString& c : cells)
        s += QStringLiteral("<th align=\"left\" bgcolor=\"#e8ecf2\">%1</th>").arg(esc(c));
    return s + QStringLiteral("</tr></thead>");
}

QString td(const QString& text) { return QStringLiteral("<td>%1</td>").arg(esc(text)); }

QString chainText(const receipts::ChainCheck& c) {
    if (c.ok)
        return QStringLiteral("intact: %1 receipt(s), head #%2 %3").arg(c.receipts).arg(c.head.seq).arg(c.head.hash);
    return QStringLiteral("BROKEN at receipt #%1 (%2): %3").arg(c.firstBadSeq).arg(receipts::breakName(c.kind), c.detail);
}

QString problemKindColor(const QString& kind) {
    return kind == QLatin1String("failed") || kind == QLatin1String("invalid") ? QStringLiteral("#b3261e") : QStringLiteral("#a15c00");
}

} // namespace

QString reportHtml(const ReportData& d, const std::vector<ReportChart>& charts, ImageRefs refs) {
    QString h;
    h += QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Release review: %1</title>\n")
             .arg(esc(d.version.label));
    h += QStringLiteral("<style>body{font-family:sans-serif;font-size:10pt;max-width:1100px;margin:auto;}"
                        "table{border-collapse:collapse;font-size:9pt;margin-bottom:8px;}th,td{border:1px solid #bbb;vertical-align:top;}"
                        "h1{font-size:18pt;}h2{font-size:14pt;margin-top:18px;}h3{font-size:11pt;}.mono{font-family:monospace;}"
                        "</style></head><body>\n");
    h += QStringLiteral("<h1>Release review: catalog %1</h1>\n").arg(esc(d.version.label));
    h += QStringLiteral("<p>Generated %1 by Proofbench %2 &middot; catalog content digest <span class=\"mono\">%3</span>"
                        " &middot; %4 recipe(s)%5</p>\n")
             .arg(esc(dateText(d.generatedAt)), esc(d.toolVersion), esc(d.version.contentDigest))
             .arg(d.version.recipeCount)
             .arg(d.options.filter.isEmpty() ? QString() : QStringLiteral(" &middot; filter \"%1\"").arg(esc(d.options.filter)));

    // Summary.
    h += QStringLiteral("<h2>Summary</h2>\n") + QLatin1String(kTable) + th({QStringLiteral("Status"), QStringLiteral("Coordinates")});
    for (const auto& [status, count] : d.statusCounts())
        h += QStringLiteral("<tr><td><font color=\"%1\">%2</font></td><td align=\"right\">%3</td></tr>")
                 .arg(statusColor(status), esc(store::healthStatusName(status)))
                 .arg(count);
    h += QStringLiteral("<tr><td><b>total</b></td><td align=\"right\"><b>%1</b></td></tr></table>\n").arg(d.rows.size());
    h += QStringLiteral("<p>Open problems: %1 &middot; receipts chain: %2</p>\n")
             .arg(d.problems.size())
             .arg(esc(d.chain.ok ? QStringLiteral("intact") : QStringLiteral("broken at #%1").arg(d.chain.firstBadSeq)));

    // Health table.
    h += QStringLiteral("<h2>Health</h2>\n") + QLatin1String(kTable) +
         th({QStringLiteral("Recipe"), QStringLiteral("Criteria"), QStringLiteral("Status"), QStringLiteral("Reason"),
             QStringLiteral("Pointers"), QStringLiteral("Signers"), QStringLiteral("Newest"), QStringLiteral("Bundles")});
    for (const HealthRow& r : d.rows)
        h += QStringLiteral("<tr class=\"health-row\">%1%2<td><font color=\"%3\">%4</font></td>%5%6%7%8%9</tr>\n")
                 .arg(td(r.recipe + (r.inCatalog() ? QString() : QStringLiteral(" (not in %1)").arg(d.version.label))),
                      td(r.criteria.summary()), statusColor(r.status), esc(store::healthStatusName(r.status)), td(r.reason),
                      td(QStringLiteral("%1 (%2 invalid, %3 pending)").arg(r.pointers).arg(r.invalid).arg(r.pending)),
                      td(signersText(r)), td(dateText(r.newestAttestedAt)),
                      td(r.bundles || r.invalidBundles ? QStringLiteral("%1 (%2 invalid)").arg(r.bundles).arg(r.invalidBundles)
                                                       : QStringLiteral("-")));
    h += QStringLiteral("</table>\n");

    // Evidence per coordinate.
    h += QStringLiteral("<h2>Evidence and verification</h2>\n");
    if (d.evidence.empty())
        h += QStringLiteral("<p>No coordinate has evidence.</p>\n");
    for (const CoordinateEvidence& e : d.evidence) {
        h += QStringLiteral("<h3>%1</h3>\n").arg(esc(e.recipe));
        if (!e.pointers.empty()) {
            h += QLatin1String(kTable) + th({QStringLiteral("Pointer"), QStringLiteral("Signer"), QStringLiteral("Attested"),
                                             QStringLiteral("Bundle"), QStringLiteral("Problems")});
            for (const evidence::Pointer& p : e.pointers) {
                const evidence::Attestation* a = p.attestation();
                QString signer = QStringLiteral("unsigned (pending)");
                if (a && a->signer)
                    signer = a->signer->identity + QStringLiteral(" (") + a->signer->issuer + QLatin1Char(')') +
                             (p.signerClass ? QStringLiteral(", ") + evidence::signerClassName(*p.signerClass) : QString());
                h += QStringLiteral("<tr>%1%2%3%4%5</tr>\n")
                         .arg(td(p.file), td(signer), td(a ? a->attestedAtText : QStringLiteral("-")),
                              td(a ? a->bundleOci + QStringLiteral(" @ ") + a->bundleDigest : QStringLiteral("-")),
                              td(p.problems.isEmpty() ? QStringLiteral("valid") : p.problems.join(QStringLiteral("; "))));
            }
            h += QStringLiteral("</table>\n");
        }
        for (const store::BundleRecord& b : e.bundles) {
            h += QStringLiteral("<p><b>Bundle</b> %1 &middot; attested %2 &middot; AICR %3 &middot; signature: %4</p>\n")
                     .arg(esc(b.source), esc(b.attestedAt), esc(b.aicrVersion),
                          esc(!b.signedBundle                ? QStringLiteral("none")
                              : !b.signatureVerified         ? QStringLiteral("not checked")
                              : *b.signatureVerified         ? QStringLiteral("verified ") + b.signatureDetail
                                                             : QStringLiteral("FAILED ") + b.signatureDetail));
            h += QLatin1String(kTable) + th({QStringLiteral("Verification step"), QStringLiteral("Result"), QStringLiteral("Detail")});
            for (const evidence::CheckStep& s : b.steps)
                h += QStringLiteral("<tr>%1%2%3</tr>\n").arg(td(s.name), td(evidence::stepStatusName(s.status)), td(s.detail));
            h += QStringLiteral("</table>\n");
        }
    }

    // Performance.
    h += QStringLiteral("<h2>Performance</h2>\n");
    if (d.runs.empty())
        h += QStringLiteral("<p>No validation runs are stored for these coordinates.</p>\n");
    for (const CoordinateRuns& cr : d.runs) {
        h += QStringLiteral("<h3>%1</h3>\n").arg(esc(cr.coordinate));
        h += QLatin1String(kTable) + th({QStringLiteral("Run"), QStringLiteral("Started"), QStringLiteral("State"),
                                         QStringLiteral("Check"), QStringLiteral("Result")});
        for (const store::StoredRun& run : cr.runs)
            for (const validation::CheckRun& c : run.result.checks)
                if (c.nccl || c.inference)
                    h += QStringLiteral("<tr>%1%2%3%4%5</tr>\n")
                             .arg(td(run.summary.runUid), td(dateText(run.summary.startedAt)), td(run.summary.state), td(c.name),
                                  td(c.message));
        h += QStringLiteral("</table>\n");
        for (const ReportChart& c : charts) {
            if (c.coordinate != cr.coordinate)
                continue;
            const QString src = refs == ImageRefs::DataUri ? dataUri(c.image) : c.fileName;
            const int w = 640, hgt = c.image.width() > 0 ? w * c.image.height() / c.image.width() : 300;
            h += QStringLiteral("<p><b>%1</b><br><img src=\"%2\" width=\"%3\" height=\"%4\" alt=\"%1\"></p>\n")
                     .arg(esc(c.title), src)
                     .arg(w)
                     .arg(hgt);
        }
    }

    // Catalog diff.
    h += QStringLiteral("<h2>Changes since the previous catalog version</h2>\n");
    if (!d.diff) {
        h += QStringLiteral("<p>%1</p>\n").arg(esc(d.diffNote));
    } else {
        const catalog::CatalogDiff& x = *d.diff;
        using catalog::Change;
        h += QStringLiteral("<p>%1 &rarr; %2: recipes %3 added, %4 removed, %5 changed, %6 unchanged.</p>\n")
                 .arg(esc(x.fromLabel), esc(x.toLabel))
                 .arg(x.leafCount(Change::Added))
                 .arg(x.leafCount(Change::Removed))
                 .arg(x.leafCount(Change::Changed))
                 .arg(x.leafCount(Change::Unchanged));
        auto changedRows = [&](const QString& title, const std::vector<catalog::NamedChange>& items, const QString& fromTo) {
            QString t;
            int n = 0;
            for (const catalog::NamedChange& c : items) {
                if (c.change == Change::Unchanged)
                    continue;
                t += QStringLiteral("<tr>%1%2%3%4</tr>\n").arg(td(c.name), td(catalog::changeName(c.change)), td(c.from), td(c.to));
                ++n;
            }
            if (n == 0)
                return QStringLiteral("<p>%1: no change.</p>\n").arg(esc(title));
            return QStringLiteral("<h3>%1</h3>\n").arg(esc(title)) + QLatin1String(kTable) +
                   th({QStringLiteral("Name"), QStringLiteral("Change"), fromTo + QStringLiteral(" (before)"),
                       fromTo + QStringLiteral(" (after)")}) +
                   t + QStringLiteral("</table>\n");
        };
        h += changedRows(QStringLiteral("Recipes"), x.leaves, QStringLiteral("Digest"));
        h += changedRows(QStringLiteral("Component versions (registry)"), x.registry, QStringLiteral("Version"));
        if (!x.componentMoves.empty()) {
            h += QStringLiteral("<h3>Components whose resolved version changed</h3>\n") + QLatin1String(kTable) +
                 th({QStringLiteral("Component"), QStringLiteral("Recipes affected")});
            for (const auto& [name, n] : x.componentMoves)
                h += QStringLiteral("<tr>%1<td align=\"right\">%2</td></tr>\n").arg(td(name)).arg(n);
            h += QStringLiteral("</table>\n");
        }
    }

    // Open problems.
    h += QStringLiteral("<h2>Open problems</h2>\n");
    if (d.problems.empty()) {
        h += QStringLiteral("<p>None.</p>\n");
    } else {
        h += QLatin1String(kTable) + th({QStringLiteral("Coordinate"), QStringLiteral("Problem"), QStringLiteral("Reason")});
        for (const ReportProblem& p : d.problems)
            h += QStringLiteral("<tr>%1<td><font color=\"%2\">%3</font></td>%4</tr>\n")
                     .arg(td(p.recipe), problemKindColor(p.kind), esc(p.kind), td(p.reason));
        h += QStringLiteral("</table>\n");
    }

    // Receipts.
    h += QStringLiteral("<h2>Receipts chain</h2>\n");
    h += QStringLiteral("<p>%1</p>\n").arg(esc(chainText(d.chain)));
    h += QStringLiteral("<p class=\"mono\">head #%1 &middot; %2 &middot; %3</p>\n")
             .arg(d.chain.head.seq)
             .arg(esc(d.chain.head.hash), esc(receipts::isoTime(d.chain.head.time)));
    h += QStringLiteral("</body></html>\n");
    return h;
}

// ---- Markdown ----------------------------------------------------------------------------------

namespace {

QString md(QString s) {
    s.replace(QLatin1Char('|'), QStringLiteral("\\|"));
    s.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return s;
}

QString mdRow(const QStringList& cells) {
    QStringList c;
    for (const QString& s : cells)
        c << md(s);
    return QStringLiteral("| ") + c.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
}

QString mdHeader(const QStringList& cells) {
    return mdRow(cells) + QStringLiteral("|") + QStringLiteral(" --- |").repeated(int(cells.size())) + QLatin1Char('\n');
}

} // namespace

QString reportMarkdown(const ReportData& d, const std::vector<ReportChart>& charts, const QString& chartDir) {
    QString m;
    m += QStringLiteral("# Release review: catalog %1\n\n").arg(d.version.label);
    m += QStringLiteral("Generated %1 by Proofbench %2 · catalog content digest `%3` · %4 recipe(s)%5\n\n")
             .arg(dateText(d.generatedAt), d.toolVersion, d.version.contentDigest)
             .arg(d.version.recipeCount)
             .arg(d.options.filter.isEmpty() ? QString() : QStringLiteral(" · filter \"%1\"").arg(d.options.filter));
    m += QStringLiteral("## Summary\n\n") + mdHeader({QStringLiteral("Status"), QStringLiteral("Coordinates")});
    for (const auto& [status, count] : d.statusCounts())
        m += mdRow({store::healthStatusName(status), QString::number(count)});
    m += mdRow({QStringLiteral("**total**"), QString::number(d.rows.size())});
    m += QStringLiteral("\nOpen problems: %1 · receipts chain: %2\n\n")
             .arg(d.problems.size())
             .arg(d.chain.ok ? QStringLiteral("intact") : QStringLiteral("broken at #%1").arg(d.chain.firstBadSeq));

    m += QStringLiteral("## Health\n\n") +
         mdHeader({QStringLiteral("Recipe"), QStringLiteral("Criteria"), QStringLiteral("Status"), QStringLiteral("Reason"),
                   QStringLiteral("Pointers"), QStringLiteral("Signers"), QStringLiteral("Newest"), QStringLiteral("Bundles")});
    for (const HealthRow& r : d.rows)
        m += mdRow({r.recipe, r.criteria.summary(), store::healthStatusName(r.status), r.reason,
                    QStringLiteral("%1 (%2 invalid, %3 pending)").arg(r.pointers).arg(r.invalid).arg(r.pending), signersText(r),
                    dateText(r.newestAttestedAt), QStringLiteral("%1 (%2 invalid)").arg(r.bundles).arg(r.invalidBundles)});

    m += QStringLiteral("\n## Evidence and verification\n\n");
    if (d.evidence.empty())
        m += QStringLiteral("No coordinate has evidence.\n\n");
    for (const CoordinateEvidence& e : d.evidence) {
        m += QStringLiteral("### %1\n\n").arg(e.recipe);
        if (!e.pointers.empty()) {
            m += mdHeader({QStringLiteral("Pointer"), QStringLiteral("Signer"), QStringLiteral("Attested"), QStringLiteral("Bundle"),
                           QStringLiteral("Problems")});
            for (const evidence::Pointer& p : e.pointers) {
                const evidence::Attestation* a = p.attestation();
                m += mdRow({p.file, a && a->signer ? a->signer->identity : QStringLiteral("unsigned (pending)"),
                            a ? a->attestedAtText : QStringLiteral("-"), a ? a->bundleOci + QStringLiteral(" @ ") + a->bundleDigest : QStringLiteral("-"),
                            p.problems.isEmpty() ? QStringLiteral("valid") : p.problems.join(QStringLiteral("; "))});
            }
            m += QLatin1Char('\n');
        }
        for (const store::BundleRecord& b : e.bundles) {
            m += QStringLiteral("Bundle %1 (attested %2, AICR %3)\n\n").arg(b.source, b.attestedAt, b.aicrVersion);
            m += mdHeader({QStringLiteral("Verification step"), QStringLiteral("Result"), QStringLiteral("Detail")});
            for (const evidence::CheckStep& s : b.steps)
                m += mdRow({s.name, evidence::stepStatusName(s.status), s.detail});
            m += QLatin1Char('\n');
        }
    }

    m += QStringLiteral("## Performance\n\n");
    if (d.runs.empty())
        m += QStringLiteral("No validation runs are stored for these coordinates.\n\n");
    for (const CoordinateRuns& cr : d.runs) {
        m += QStringLiteral("### %1\n\n").arg(cr.coordinate);
        m += mdHeader({QStringLiteral("Run"), QStringLiteral("Started"), QStringLiteral("State"), QStringLiteral("Check"), QStringLiteral("Result")});
        for (const store::StoredRun& run : cr.runs)
            for (const validation::CheckRun& c : run.result.checks)
                if (c.nccl || c.inference)
                    m += mdRow({run.summary.runUid, dateText(run.summary.startedAt), run.summary.state, c.name, c.message});
        m += QLatin1Char('\n');
        for (const ReportChart& c : charts)
            if (c.coordinate == cr.coordinate)
                m += QStringLiteral("![%1](%2/%3)\n\n").arg(c.title, chartDir, c.fileName);
    }

    m += QStringLiteral("## Changes since the previous catalog version\n\n");
    if (!d.diff)
        m += d.diffNote + QStringLiteral("\n\n");
    else
        m += catalog::toMarkdown(*d.diff) + QStringLiteral("\n\n");

    m += QStringLiteral("## Open problems\n\n");
    if (d.problems.empty()) {
        m += QStringLiteral("None.\n\n");
    } else {
        m += mdHeader({QStringLiteral("Coordinate"), QStringLiteral("Problem"), QStringLiteral("Reason")});
        for (const ReportProblem& p : d.problems)
            m += mdRow({p.recipe, p.kind, p.reason});
        m += QLatin1Char('\n');
    }
    m += QStringLiteral("## Receipts chain\n\n%1\n\nhead #%2 `%3` %4\n")
             .arg(chainText(d.chain))
             .arg(d.chain.head.seq)
             .arg(d.chain.head.hash, receipts::isoTime(d.chain.head.time));
    return m;
}

// ---- PDF ---------------------------------------------------------------------------------------

std::unique_ptr<QTextDocument> reportDocument(const ReportData& data, const std::vector<ReportChart>& charts) {
    auto doc = std::make_unique<QTextDocument>();
    QFont font = doc->defaultFont();
    font.setPointSizeF(9);
    doc->setDefaultFont(font);
    for (const ReportChart& c : charts)
        doc->addResource(QTextDocument::ImageResource, QUrl(c.fileName), c.image);
    doc->setHtml(reportHtml(data, charts, ImageRefs::FileName));
    return doc;
}

namespace {

constexpr int kDpi = 96;
constexpr qreal kFooter = 28; // px at kDpi: the page number line

void setUpWriter(QPdfWriter& writer) {
    writer.setResolution(kDpi);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 15, 15, 12),
                                     QPageLayout::Millimeter));
}

} // namespace

int layoutForPdf(QTextDocument& doc, QPdfWriter& writer) {
    setUpWriter(writer);
    const QRectF page = writer.pageLayout().paintRectPixels(kDpi);
    doc.documentLayout()->setPaintDevice(&writer);
    doc.setPageSize(QSizeF(page.width(), page.height() - kFooter));
    return doc.pageCount();
}

int predictPdfPages(QTextDocument& doc) {
    QBuffer sink;
    sink.open(QIODevice::WriteOnly);
    QPdfWriter writer(&sink);
    const int pages = layoutForPdf(doc, writer);
    doc.documentLayout()->setPaintDevice(nullptr);
    return pages;
}

Status writePdf(QTextDocument& doc, const QString& path, const QString& title) {
    {
        QPdfWriter writer(path);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("Proofbench"));
        const int pages = layoutForPdf(doc, writer);
        const QSizeF body = doc.pageSize();
        QPainter painter;
        if (!painter.begin(&writer))
            return makeError(QStringLiteral("%1: cannot write the PDF").arg(path));
        QFont footerFont = doc.defaultFont();
        footerFont.setPointSizeF(8);
        for (int i = 0; i < pages; ++i) {
            if (i > 0)
                writer.newPage();
            painter.save();
            painter.translate(0, -i * body.height());
            doc.drawContents(&painter, QRectF(0, i * body.height(), body.width(), body.height()));
            painter.restore();
            painter.setFont(footerFont);
            painter.setPen(QColor(0x55, 0x55, 0x55));
            painter.drawText(QRectF(0, body.height() + 6, body.width(), kFooter - 6), Qt::AlignLeft | Qt::AlignVCenter, title);
            painter.drawText(QRectF(0, body.height() + 6, body.width(), kFooter - 6), Qt::AlignRight | Qt::AlignVCenter,
                             QStringLiteral("Page %1 of %2").arg(i + 1).arg(pages));
        }
        painter.end();
        doc.documentLayout()->setPaintDevice(nullptr);
    }
    if (QFileInfo(path).size() == 0)
        return makeError(QStringLiteral("%1: the PDF is empty").arg(path));
    return {};
}

// ---- output ------------------------------------------------------------------------------------

Result<ReportOutput> writeReport(db::Database& db, const ReportData& data, const std::vector<ReportChart>& charts,
                                 ReportFormat format, const QString& path) {
    ReportOutput out;
    out.path = QFileInfo(path).absoluteFilePath();
    const QString title = QStringLiteral("Release review: catalog %1").arg(data.version.label);
    if (format == ReportFormat::Html) {
        if (Status s = writeFileAtomically(out.path, reportHtml(data, charts, ImageRefs::DataUri).toUtf8()); !s)
            return s.error();
    } else if (format == ReportFormat::Markdown) {
        const QFileInfo fi(out.path);
        const QString chartDir = fi.completeBaseName() + QStringLiteral("-charts");
        if (!charts.empty()) {
            const QString abs = fi.absoluteDir().filePath(chartDir);
            if (!QDir().mkpath(abs))
                return makeError(QStringLiteral("%1: cannot create the chart directory").arg(abs));
            for (const ReportChart& c : charts) {
                const QString file = abs + QLatin1Char('/') + c.fileName;
                if (!c.image.save(file, "PNG"))
                    return makeError(QStringLiteral("%1: cannot write the chart '%2'").arg(file, c.title));
                out.chartFiles << file;
            }
        }
        if (Status s = writeFileAtomically(out.path, reportMarkdown(data, charts, chartDir).toUtf8()); !s)
            return s.error();
    } else {
        std::unique_ptr<QTextDocument> doc = reportDocument(data, charts);
        out.pages = predictPdfPages(*doc);
        if (Status s = writePdf(*doc, out.path, title); !s)
            return s.error();
    }

    receipts::ReceiptDraft draft;
    draft.kind = QStringLiteral("report.export");
    draft.parameters = QJsonObject{{QStringLiteral("format"), reportFormatName(format)},
                                   {QStringLiteral("version"), data.version.label},
                                   {QStringLiteral("filter"), data.options.filter},
                                   {QStringLiteral("rows"), int(data.rows.size())},
                                   {QStringLiteral("charts"), int(charts.size())}};
    QString catalogDigest = data.version.contentDigest;
    if (catalogDigest.startsWith(QLatin1String("sha256:")))
        catalogDigest = catalogDigest.mid(7);
    draft.inputs.push_back(receipts::Artifact::digest(QStringLiteral("catalog version %1").arg(data.version.label), catalogDigest));
    draft.inputs.push_back(receipts::Artifact::digest(QStringLiteral("receipts head #%1").arg(data.chain.head.seq), data.chain.head.hash));
    const receipts::Artifact file = receipts::Artifact::file(out.path);
    out.sha256 = file.sha256;
    draft.outputs.push_back(file);
    for (const QString& c : std::as_const(out.chartFiles))
        draft.outputs.push_back(receipts::Artifact::file(c));
    draft.message = QStringLiteral("%1 report of %2 (%3 row(s), %4 chart(s))")
                        .arg(reportFormatName(format), data.version.label)
                        .arg(data.rows.size())
                        .arg(charts.size());
    Result<receipts::Receipt> r = receipts::Ledger(db).record(draft);
    if (!r)
        return r.error();
    out.receiptSeq = r->seq;
    return out;
}

Result<ReportOutput> exportReport(db::Database& db, const ReportOptions& options, ReportFormat format, const QString& path) {
    Result<ReportData> data = collectReport(db, options);
    if (!data)
        return data.error();
    return writeReport(db, *data, renderReportCharts(*data), format, path);
}

} // namespace pb::widgets
