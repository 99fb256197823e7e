#include "report/Report.h"

#include "core/Plural.h"

#include "receipts/Canonical.h"

#include <QFileInfo>

namespace pb::report {

using evidence::HealthRow;
using evidence::HealthStatus;

QString sampleNote() {
    return QStringLiteral(
        "Sample data: this catalog version is Proofbench's own sample content, compiled into the app; "
        "it is not an AICR release and its evidence proves nothing about one.");
}

QString chartsNotDrawnNote() {
    return QStringLiteral(
        "Charts are not drawn in this export (it was written without a display toolkit); the PDF "
        "report (proofbench report --format pdf) and the window's report include them.");
}

QString markdownChartDir(const QString& reportPath) {
    return QFileInfo(reportPath).completeBaseName() + QStringLiteral("-charts");
}

namespace {

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

// The row as the views name it: the leaf overlay for a recipe named "recipe" (a wildcard leaf).
QString rowName(const HealthRow& r) {
    const QString shown = r.displayName();
    return shown == r.recipe ? shown : QStringLiteral("%1 (recipe name: %2)").arg(shown, r.recipe);
}

QString versionName(const store::CatalogVersionInfo& v) {
    return v.isSample() ? QStringLiteral("%1 (sample data)").arg(v.label) : v.label;
}

QString changesTitle(const ReportData& d) {
    return d.baseline ? QStringLiteral("Changes since %1").arg(versionName(*d.baseline))
                      : QStringLiteral("Changes since a baseline");
}

QString dateText(const QDateTime& t) {
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC")
                       : QStringLiteral("-");
}

} // namespace

// ---- HTML --------------------------------------------------------------------------------------

namespace {

QString esc(const QString& s) {
    return s.toHtmlEscaped();
}

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
    case HealthStatus::VerifiedIncomplete:
        return QStringLiteral("#a15c00");
    case HealthStatus::NoEvidence:
        break;
    }
    return QStringLiteral("#555555");
}

QString dataUri(const QByteArray& png) {
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
}

const char* const kTable = "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">";

QString th(const QStringList& cells) {
    QString s = QStringLiteral("<thead><tr>");
    for (const QString& c : cells)
        s += QStringLiteral("<th align=\"left\" bgcolor=\"#e8ecf2\">%1</th>").arg(esc(c));
    return s + QStringLiteral("</tr></thead>");
}

QString td(const QString& text) {
    return QStringLiteral("<td>%1</td>").arg(esc(text));
}

// A cell of one status or state ("passed", "signed (not verified)"): never broken, inside a word
// or between its words ("passe/d"); its column is as wide as it needs.
QString tdWord(const QString& text, const QString& color = {}) {
    return color.isEmpty()
               ? QStringLiteral("<td style=\"white-space:nowrap\">%1</td>").arg(esc(text))
               : QStringLiteral("<td style=\"white-space:nowrap\"><font color=\"%1\">%2</font></td>")
                     .arg(color, esc(text));
}

QString chainText(const receipts::ChainCheck& c) {
    if (c.ok)
        return QStringLiteral("intact: %1, head #%2 %3")
            .arg(counted(c.receipts, QStringLiteral("receipt"), QStringLiteral("receipts")))
            .arg(c.head.seq)
            .arg(c.head.hash);
    return QStringLiteral("BROKEN at receipt #%1 (%2): %3")
        .arg(c.firstBadSeq)
        .arg(receipts::breakName(c.kind), c.detail);
}

QString problemKindColor(const QString& kind) {
    return kind == QLatin1String("failed") || kind == QLatin1String("invalid") ? QStringLiteral("#b3261e")
                                                                               : QStringLiteral("#a15c00");
}

} // namespace

namespace {

// Title, style and the header lines: origin, release binding, as-of.
QString htmlHead(const ReportData& d) {
    QString h;
    h += QStringLiteral(
             "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Release review: %1</title>\n")
             .arg(esc(d.version.label));
    h += QStringLiteral("<style>body{font-family:sans-serif;font-size:10pt;max-width:1100px;margin:auto;}"
                        "table{border-collapse:collapse;font-size:9pt;margin-bottom:8px;}th,td{border:1px "
                        "solid #bbb;vertical-align:top;}"
                        "h1{font-size:18pt;}h2{font-size:14pt;margin-top:18px;}h3{font-size:11pt;}.mono{font-"
                        "family:monospace;}"
                        "</style></head><body>\n");
    h += QStringLiteral("<h1>Release review: catalog %1</h1>\n").arg(esc(d.version.label));
    if (d.version.isSample())
        h += QStringLiteral("<p class=\"sample-mark\"><font color=\"#b3261e\"><b>%1</b></font></p>\n")
                 .arg(esc(sampleNote()));
    h += QStringLiteral("<p class=\"origin\">Source: %1</p>\n").arg(esc(d.version.originText()));
    if (!d.version.signedByReleases.isEmpty())
        h += QStringLiteral("<p class=\"binding\">Release signature: %1, verified offline. %2</p>\n")
                 .arg(esc(d.version.releaseBindingText()), esc(store::releaseScopeNote()));
    h += QStringLiteral("<p>As of %1 (the newest receipt) &middot; Proofbench %2 &middot; catalog content "
                        "digest <span class=\"mono\">%3</span>"
                        " &middot; %4%5</p>\n")
             .arg(esc(dateText(d.generatedAt)), esc(d.toolVersion), esc(d.version.contentDigest))
             .arg(counted(d.version.recipeCount, QStringLiteral("recipe"), QStringLiteral("recipes")))
             .arg(d.options.filter.isEmpty()
                      ? QString()
                      : QStringLiteral(" &middot; filter \"%1\"").arg(esc(d.options.filter)));
    return h;
}

// Summary table: coordinates per status, open problems and the chain.
QString htmlSummary(const ReportData& d) {
    QString h;
    h += QStringLiteral("<h2>Summary</h2>\n") + QLatin1String(kTable) +
         th({QStringLiteral("Status"), QStringLiteral("Coordinates")});
    for (const auto& [status, count] : d.statusCounts())
        h += QStringLiteral("<tr>%1<td align=\"right\">%2</td></tr>")
                 .arg(tdWord(evidence::healthStatusName(status), statusColor(status)))
                 .arg(count);
    h += QStringLiteral("<tr><td><b>total</b></td><td align=\"right\"><b>%1</b></td></tr></table>\n")
             .arg(d.rows.size());
    h += QStringLiteral("<p>Open problems: %1 &middot; receipts chain: %2</p>\n")
             .arg(d.problems.size())
             .arg(esc(d.chain.ok ? QStringLiteral("intact")
                                 : QStringLiteral("broken at #%1").arg(d.chain.firstBadSeq)));
    return h;
}

// Health table: one row per recipe, in four columns so that A4 has room for each word: the recipe
// with its criteria under it, the status (never broken), the reason, and the evidence counted
// (pointers, signers, newest, bundles) one per line. Eight narrow columns broke words ("inferenc/e",
// "communit/y").
QString htmlHealth(const ReportData& d) {
    QString h;
    h += QStringLiteral("<h2>Health</h2>\n") + QLatin1String(kTable) +
         th({QStringLiteral("Recipe (criteria)"), QStringLiteral("Status"), QStringLiteral("Reason"),
             QStringLiteral("Evidence")});
    for (const HealthRow& r : d.rows) {
        const QString name =
            rowName(r) + (r.inCatalog() ? QString() : QStringLiteral(" (not in %1)").arg(d.version.label));
        QStringList evidence{
            QStringLiteral("%1 (%2 invalid, %3 pending)")
                .arg(counted(r.pointers, QStringLiteral("pointer"), QStringLiteral("pointers")))
                .arg(r.invalid)
                .arg(r.pending),
            QStringLiteral("signers: %1").arg(signersText(r))};
        if (r.newestAttestedAt.isValid())
            evidence << QStringLiteral("newest %1").arg(dateText(r.newestAttestedAt));
        if (r.bundles || r.invalidBundles)
            evidence << QStringLiteral("%1 (%2 invalid)")
                            .arg(counted(r.bundles, QStringLiteral("bundle"), QStringLiteral("bundles")))
                            .arg(r.invalidBundles);
        for (QString& line : evidence)
            line = esc(line);
        h += QStringLiteral("<tr class=\"health-row\"><td>%1<br><font color=\"#666666\">%2</font></td>%3%4"
                            "<td>%5</td></tr>\n")
                 .arg(esc(name), esc(r.criteria.summary()),
                      tdWord(evidence::healthStatusName(r.status), statusColor(r.status)), td(r.reason),
                      evidence.join(QStringLiteral("<br>")));
    }
    h += QStringLiteral("</table>\n");
    return h;
}

// Evidence per coordinate: its pointers and bundles with their verification steps.
QString htmlEvidence(const ReportData& d) {
    QString h;
    h += QStringLiteral("<h2>Evidence and verification</h2>\n");
    if (d.evidence.empty())
        h += QStringLiteral("<p>No coordinate has evidence.</p>\n");
    for (const CoordinateEvidence& e : d.evidence) {
        h += QStringLiteral("<h3>%1</h3>\n").arg(esc(e.recipe));
        if (!e.mismatch.isEmpty())
            h += QStringLiteral("<p class=\"mismatch\"><font color=\"#a15c00\">%1</font></p>\n")
                     .arg(esc(e.mismatch));
        if (!e.pointers.empty()) {
            // One full-width cell per pointer, a line per field: a file path, an OCI reference and a
            // digest each get the page's width (in five columns their hex was broken mid-word).
            h += QLatin1String(kTable) + th({QStringLiteral("Pointer: file, signer, attestation, bundle")});
            for (const evidence::Pointer& p : e.pointers) {
                const evidence::Attestation* a = p.attestation();
                QString signer = QStringLiteral("unsigned (pending)");
                if (a && a->signer)
                    signer = QStringLiteral("signed by ") + a->signer->identity + QStringLiteral(" (") +
                             a->signer->issuer + QLatin1Char(')') +
                             (p.signerClass ? QStringLiteral(", ") + evidence::signerClassName(*p.signerClass)
                                            : QString());
                QStringList lines{esc(p.file), esc(signer)};
                if (a) {
                    lines << esc(QStringLiteral("attested %1").arg(a->attestedAtText))
                          << esc(QStringLiteral("bundle %1").arg(a->bundleOci))
                          << QStringLiteral("<span class=\"mono\">%1</span>").arg(esc(a->bundleDigest));
                }
                lines << (p.problems.isEmpty() ? QStringLiteral("valid")
                                               : QStringLiteral("<font color=\"#b3261e\">%1</font>")
                                                     .arg(esc(p.problems.join(QStringLiteral("; ")))));
                h += QStringLiteral("<tr><td>%1</td></tr>\n").arg(lines.join(QStringLiteral("<br>")));
            }
            h += QStringLiteral("</table>\n");
        }
        for (const store::BundleRecord& b : e.bundles) {
            h += QStringLiteral(
                     "<p><b>Bundle</b> %1 &middot; attested %2 &middot; AICR %3 &middot; signature: %4</p>\n")
                     .arg(esc(b.source), esc(b.attestedAt), esc(b.aicrVersion),
                          esc(!b.signedBundle        ? QStringLiteral("none")
                              : !b.signatureVerified ? QStringLiteral("not checked")
                              : *b.signatureVerified ? QStringLiteral("verified ") + b.signatureDetail
                                                     : QStringLiteral("FAILED ") + b.signatureDetail));
            // A step per row, its detail on the full width under it (a digest does not fit a column).
            h += QLatin1String(kTable) + th({QStringLiteral("Verification step: result, detail")});
            for (const evidence::CheckStep& s : b.steps)
                h += QStringLiteral("<tr><td><b>%1</b>: %2%3</td></tr>\n")
                         .arg(esc(s.name), esc(evidence::stepStatusName(s.status)),
                              s.detail.isEmpty() ? QString() : QStringLiteral("<br>") + esc(s.detail));
            h += QStringLiteral("</table>\n");
        }
    }
    return h;
}

// Performance: the NCCL and inference checks of each coordinate's runs, and their charts.
QString htmlPerformance(const ReportData& d, const ReportCharts& charts, ImageRefs refs) {
    QString h;
    h += QStringLiteral("<h2>Performance</h2>\n");
    if (d.runs.empty())
        h += QStringLiteral("<p>No validation runs are stored for these coordinates.</p>\n");
    else if (!charts.drawn)
        h += QStringLiteral("<p><i>%1</i></p>\n").arg(esc(chartsNotDrawnNote()));
    for (const CoordinateRuns& cr : d.runs) {
        h += QStringLiteral("<h3>%1</h3>\n").arg(esc(cr.coordinate));
        h += QLatin1String(kTable) +
             th({QStringLiteral("Run"), QStringLiteral("Started"), QStringLiteral("State"),
                 QStringLiteral("Check"), QStringLiteral("Result")});
        for (const store::StoredRun& run : cr.runs)
            for (const validation::CheckRun& c : run.result.checks)
                if (c.nccl || c.inference)
                    h += QStringLiteral("<tr>%1%2%3%4%5</tr>\n")
                             .arg(td(run.summary.runUid), td(dateText(run.summary.startedAt)),
                                  tdWord(run.summary.state), td(c.name), td(c.message));
        h += QStringLiteral("</table>\n");
        h += QStringLiteral("<p class=\"counts\">%1</p>\n").arg(esc(cr.countsNote()));
        for (const ReportChart& c : charts.list) {
            if (c.coordinate != cr.coordinate)
                continue;
            const QString src = refs == ImageRefs::DataUri ? dataUri(c.png) : c.fileName;
            const int w = 640, hgt = c.size.width() > 0 ? w * c.size.height() / c.size.width() : 300;
            h +=
                QStringLiteral("<p><b>%1</b><br><img src=\"%2\" width=\"%3\" height=\"%4\" alt=\"%1\"></p>\n")
                    .arg(esc(c.title), src)
                    .arg(w)
                    .arg(hgt);
        }
    }
    return h;
}

// Catalog diff against the baseline.
QString htmlChanges(const ReportData& d) {
    QString h;
    h += QStringLiteral("<h2>%1</h2>\n").arg(esc(changesTitle(d)));
    if (d.baseline)
        h += QStringLiteral("<p class=\"baseline\">Baseline %1: %2</p>\n")
                 .arg(esc(versionName(*d.baseline)), esc(d.baseline->originText()));
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
        // `stacked`: values too long for a column (digests) go under the name on the full width.
        auto changedRows = [&](const QString& title, const std::vector<catalog::NamedChange>& items,
                               const QString& fromTo, bool stacked) {
            QString t;
            int n = 0;
            for (const catalog::NamedChange& c : items) {
                if (c.change == Change::Unchanged)
                    continue;
                // A change names what changed (the version, or the fields when the version stayed).
                QString what = catalog::changeName(c.change);
                if (c.change == Change::Changed && !c.fields.empty()) {
                    QStringList names;
                    for (const catalog::FieldChange& f : c.fields)
                        if (!names.contains(f.field))
                            names << f.field;
                    what +=
                        QStringLiteral(": ") + names.mid(0, 4).join(QStringLiteral(", ")) +
                        (names.size() > 4 ? QStringLiteral(" and %1 more").arg(names.size() - 4) : QString());
                }
                const QString to = c.change == Change::Changed && c.from == c.to
                                       ? QStringLiteral("%1 (same)").arg(c.to)
                                       : c.to;
                if (stacked) {
                    QString cell = QStringLiteral("<b>%1</b>: %2").arg(esc(c.name), esc(what));
                    if (!c.from.isEmpty())
                        cell += QStringLiteral("<br>before <span class=\"mono\">%1</span>").arg(esc(c.from));
                    if (!to.isEmpty())
                        cell += QStringLiteral("<br>after <span class=\"mono\">%1</span>").arg(esc(to));
                    t += QStringLiteral("<tr><td>%1</td></tr>\n").arg(cell);
                } else {
                    t += QStringLiteral("<tr>%1%2%3%4</tr>\n").arg(td(c.name), td(what), td(c.from), td(to));
                }
                ++n;
            }
            if (n == 0)
                return QStringLiteral("<p>%1: no change.</p>\n").arg(esc(title));
            if (stacked)
                return QStringLiteral("<h3>%1</h3>\n").arg(esc(title)) + QLatin1String(kTable) +
                       th({QStringLiteral("Name: change, %1 before and after").arg(fromTo.toLower())}) + t +
                       QStringLiteral("</table>\n");
            return QStringLiteral("<h3>%1</h3>\n").arg(esc(title)) + QLatin1String(kTable) +
                   th({QStringLiteral("Name"), QStringLiteral("Change"), fromTo + QStringLiteral(" (before)"),
                       fromTo + QStringLiteral(" (after)")}) +
                   t + QStringLiteral("</table>\n");
        };
        h += changedRows(QStringLiteral("Recipes"), x.leaves, QStringLiteral("Digest"), true);
        h += changedRows(QStringLiteral("Registry components"), x.registry, QStringLiteral("Default version"),
                         false);
        if (!x.componentMoves.empty()) {
            h += QStringLiteral("<h3>Components whose resolved version changed</h3>\n") +
                 QLatin1String(kTable) +
                 th({QStringLiteral("Component"), QStringLiteral("Recipes affected")});
            for (const auto& [name, n] : x.componentMoves)
                h += QStringLiteral("<tr>%1<td align=\"right\">%2</td></tr>\n").arg(td(name)).arg(n);
            h += QStringLiteral("</table>\n");
        }
    }
    return h;
}

// Open problems.
QString htmlProblems(const ReportData& d) {
    QString h;
    h += QStringLiteral("<h2>Open problems</h2>\n");
    if (d.problems.empty()) {
        h += QStringLiteral("<p>None.</p>\n");
    } else {
        h += QLatin1String(kTable) +
             th({QStringLiteral("Coordinate"), QStringLiteral("Problem"), QStringLiteral("Reason")});
        for (const ReportProblem& p : d.problems)
            h += QStringLiteral("<tr>%1%2%3</tr>\n")
                     .arg(td(p.recipe), tdWord(p.kind, problemKindColor(p.kind)), td(p.reason));
        h += QStringLiteral("</table>\n");
    }
    return h;
}

// Receipts chain, and the end of the document.
QString htmlReceipts(const ReportData& d) {
    QString h;
    h += QStringLiteral("<h2>Receipts chain</h2>\n");
    h += QStringLiteral("<p>%1</p>\n").arg(esc(chainText(d.chain)));
    h += QStringLiteral("<p class=\"mono\">head #%1 &middot; %2 &middot; %3</p>\n")
             .arg(d.chain.head.seq)
             .arg(esc(d.chain.head.hash), esc(receipts::isoTime(d.chain.head.time)));
    h += QStringLiteral("</body></html>\n");
    return h;
}

} // namespace

QString reportHtml(const ReportData& d, const ReportCharts& charts, ImageRefs refs) {
    return htmlHead(d) + htmlSummary(d) + htmlHealth(d) + htmlEvidence(d) + htmlPerformance(d, charts, refs) +
           htmlChanges(d) + htmlProblems(d) + htmlReceipts(d);
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
    return mdRow(cells) + QStringLiteral("|") + QStringLiteral(" --- |").repeated(int(cells.size())) +
           QLatin1Char('\n');
}

} // namespace

QString reportMarkdown(const ReportData& d, const ReportCharts& charts, const QString& chartDir) {
    QString m;
    m += QStringLiteral("# Release review: catalog %1%2\n\n")
             .arg(d.version.label, d.version.isSample() ? QStringLiteral(" (sample data)") : QString());
    if (d.version.isSample())
        m += QStringLiteral("**%1**\n\n").arg(sampleNote());
    m += QStringLiteral("Source: %1\n\n").arg(d.version.originText());
    if (!d.version.signedByReleases.isEmpty())
        m += QStringLiteral("Release signature: %1, verified offline. %2\n\n")
                 .arg(d.version.releaseBindingText(), store::releaseScopeNote());
    m += QStringLiteral(
             "As of %1 (the newest receipt) · Proofbench %2 · catalog content digest `%3` · %4%5\n\n")
             .arg(dateText(d.generatedAt), d.toolVersion, d.version.contentDigest,
                  counted(d.version.recipeCount, QStringLiteral("recipe"), QStringLiteral("recipes")))
             .arg(d.options.filter.isEmpty() ? QString()
                                             : QStringLiteral(" · filter \"%1\"").arg(d.options.filter));
    m += QStringLiteral("## Summary\n\n") +
         mdHeader({QStringLiteral("Status"), QStringLiteral("Coordinates")});
    for (const auto& [status, count] : d.statusCounts())
        m += mdRow({evidence::healthStatusName(status), QString::number(count)});
    m += mdRow({QStringLiteral("**total**"), QString::number(d.rows.size())});
    m += QStringLiteral("\nOpen problems: %1 · receipts chain: %2\n\n")
             .arg(d.problems.size())
             .arg(d.chain.ok ? QStringLiteral("intact")
                             : QStringLiteral("broken at #%1").arg(d.chain.firstBadSeq));

    m += QStringLiteral("## Health\n\n") +
         mdHeader({QStringLiteral("Recipe"), QStringLiteral("Criteria"), QStringLiteral("Status"),
                   QStringLiteral("Reason"), QStringLiteral("Pointers"), QStringLiteral("Signers"),
                   QStringLiteral("Newest"), QStringLiteral("Bundles")});
    for (const HealthRow& r : d.rows)
        m += mdRow(
            {rowName(r) + (r.inCatalog() ? QString() : QStringLiteral(" (not in %1)").arg(d.version.label)),
             r.criteria.summary(), evidence::healthStatusName(r.status), r.reason,
             QStringLiteral("%1 (%2 invalid, %3 pending)").arg(r.pointers).arg(r.invalid).arg(r.pending),
             signersText(r), dateText(r.newestAttestedAt),
             QStringLiteral("%1 (%2 invalid)").arg(r.bundles).arg(r.invalidBundles)});

    m += QStringLiteral("\n## Evidence and verification\n\n");
    if (d.evidence.empty())
        m += QStringLiteral("No coordinate has evidence.\n\n");
    for (const CoordinateEvidence& e : d.evidence) {
        m += QStringLiteral("### %1\n\n").arg(e.recipe);
        if (!e.mismatch.isEmpty())
            m += QStringLiteral("_%1_\n\n").arg(e.mismatch);
        if (!e.pointers.empty()) {
            m += mdHeader({QStringLiteral("Pointer"), QStringLiteral("Signer"), QStringLiteral("Attested"),
                           QStringLiteral("Bundle"), QStringLiteral("Problems")});
            for (const evidence::Pointer& p : e.pointers) {
                const evidence::Attestation* a = p.attestation();
                m += mdRow(
                    {p.file, a && a->signer ? a->signer->identity : QStringLiteral("unsigned (pending)"),
                     a ? a->attestedAtText : QStringLiteral("-"),
                     a ? a->bundleOci + QStringLiteral(" @ ") + a->bundleDigest : QStringLiteral("-"),
                     p.problems.isEmpty() ? QStringLiteral("valid") : p.problems.join(QStringLiteral("; "))});
            }
            m += QLatin1Char('\n');
        }
        for (const store::BundleRecord& b : e.bundles) {
            m += QStringLiteral("Bundle %1 (attested %2, AICR %3)\n\n")
                     .arg(b.source, b.attestedAt, b.aicrVersion);
            m += mdHeader(
                {QStringLiteral("Verification step"), QStringLiteral("Result"), QStringLiteral("Detail")});
            for (const evidence::CheckStep& s : b.steps)
                m += mdRow({s.name, evidence::stepStatusName(s.status), s.detail});
            m += QLatin1Char('\n');
        }
    }

    m += QStringLiteral("## Performance\n\n");
    if (d.runs.empty())
        m += QStringLiteral("No validation runs are stored for these coordinates.\n\n");
    else if (!charts.drawn)
        m += QStringLiteral("_%1_\n\n").arg(chartsNotDrawnNote());
    for (const CoordinateRuns& cr : d.runs) {
        m += QStringLiteral("### %1\n\n").arg(cr.coordinate);
        m += mdHeader({QStringLiteral("Run"), QStringLiteral("Started"), QStringLiteral("State"),
                       QStringLiteral("Check"), QStringLiteral("Result")});
        for (const store::StoredRun& run : cr.runs)
            for (const validation::CheckRun& c : run.result.checks)
                if (c.nccl || c.inference)
                    m += mdRow({run.summary.runUid, dateText(run.summary.startedAt), run.summary.state,
                                c.name, c.message});
        m += QLatin1Char('\n') + cr.countsNote() + QStringLiteral("\n\n");
        for (const ReportChart& c : charts.list)
            if (c.coordinate == cr.coordinate)
                m += QStringLiteral("![%1](%2/%3)\n\n").arg(c.title, chartDir, c.fileName);
    }

    m += QStringLiteral("## %1\n\n").arg(changesTitle(d));
    if (d.baseline)
        m += QStringLiteral("Baseline %1: %2\n\n").arg(versionName(*d.baseline), d.baseline->originText());
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

} // namespace pb::report
