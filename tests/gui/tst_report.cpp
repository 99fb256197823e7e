// The release review report on a real database: the embedded catalog (two versions), an evidence
// tree with a checked bundle, and a stored run parsed from an NCCL log. HTML holds every health row
// and the charts as data: URIs; Markdown points at chart files that exist; the PDF has the page
// count its layout predicts and every page renders (pdftoppm) to a page that is not blank; each
// export leaves a report.export receipt with the file's sha256. The CLI (`proofbench report`, the
// real binary) and the window's report dialog write the same bytes for the same database (HTML,
// Markdown with its chart files, PDF), and the CLI draws its charts with no display at all.
#include "EvidenceFixture.h"
#include "GuiTestUtil.h"
#include "TestUtil.h"

#include "HealthModels.h"
#include "ReportDialog.h"
#include "Workspace.h"

#include "core/Hash.h"
#include "db/GuiThreadGuard.h"
#include "evidence/Evidence.h"
#include "ops/DbAdmin.h"
#include "receipts/Ledger.h"
#include "report/HealthTable.h"
#include "report/render/ReportRender.h"
#include "store/EvidenceStore.h"
#include "store/RunStore.h"
#include "validation/Nccl.h"
#include "validation/Score.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QComboBox>
#include <QDirIterator>
#include <QImage>
#include <QLineEdit>
#include <QMutex>
#include <QPdfWriter>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <QTimeZone>

using namespace pb;
using namespace pb::widgets;
using namespace pb::report;

namespace {
// What both faces do: ops::exportReport drawing with pb_report's renderer.
Result<ops::ReportExportOutcome> writeWithRenderer(db::Database& db, ReportFormat format, const QString& path,
                                                   std::optional<ReportData> data = std::nullopt) {
    ops::ReportExportRequest request;
    request.format = format;
    request.path = path;
    request.data = std::move(data);
    request.render = renderReport;
    return ops::exportReport(ops::Context(db), request);
}
} // namespace

class TestReport : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void html();
    void markdown();
    void pdf();
    void filterAndVersion();
    void cli();
    void dialog();
    void dialogMakesNoGuiThreadDatabaseCall();
    void cliAndWindowWriteTheSameBytes_data();
    void cliAndWindowWriteTheSameBytes();
    void cliDrawsChartsWithoutADisplay();
    void changeLinesNameWhatChanged();
    void countsSayWhatIsLeftOut();
    void cleanupTestCase();

  private:
    QString copyOfDatabase(const QString& name);
    QStringList cliReport(const QString& db, const QString& format, const QString& out,
                          const QProcessEnvironment& env,
                          const QString& binary = QStringLiteral(PB_CLI_BINARY));
    QString fileSha(const QString& path);
    std::optional<receipts::Receipt> lastReportReceipt();

    std::unique_ptr<pbgui::SeededDb> m_db;
    QTemporaryDir m_out;
    std::vector<std::unique_ptr<pb::test::TestDatabase>> m_copies; // PostgreSQL: dropped at the end
    std::vector<evidence::HealthRow> m_rows;
};

void TestReport::initTestCase() {
    m_db = pbgui::seededDatabase();
    QVERIFY2(m_db->error.isEmpty(), qPrintable(m_db->error));
    QVERIFY(m_out.isValid());

    // Evidence: the pointer tree and a bundle with a failed performance test.
    const QString evidenceRoot = m_out.filePath(QStringLiteral("evidence"));
    QVERIFY(pbgui::EvidenceFixture::writeTree(evidenceRoot));
    Result<evidence::EvidenceTree> tree = evidence::scanEvidence(evidenceRoot);
    QVERIFY2(tree, tree ? "" : qPrintable(tree.error().toString()));
    store::EvidenceStore evidence(*m_db->db);
    QVERIFY(evidence.importTree(*tree));
    pbgui::BundleDirFixture bundle;
    QVERIFY(!bundle.writeDirectory(m_out.filePath(QStringLiteral("bundles"))).isEmpty());
    Result<int> bundles = evidence.importBundles(m_out.filePath(QStringLiteral("bundles")));
    QVERIFY2(bundles, bundles ? "" : qPrintable(bundles.error().toString()));

    // A run imported from the NCCL log fixture, scored against ">= 300".
    const QString log = pbtest::fixture(QStringLiteral("validation/nccl-pass.txt"));
    Result<validation::NcclResult> nccl = validation::parseNcclFile(log);
    QVERIFY2(nccl, nccl ? "" : qPrintable(nccl.error().toString()));
    catalog::Constraint c;
    c.name = QStringLiteral("nccl-all-reduce-bw");
    c.value = QStringLiteral(">= 300");
    validation::CheckRun check;
    check.phase = QStringLiteral("performance");
    check.name = c.name;
    check.nccl = *nccl;
    check.score = validation::scoreNccl(check.name, *nccl, {c});
    check.state = validation::CheckState::Passed;
    check.message = check.score->message;
    check.started = QDateTime(QDate(2026, 10, 3), QTime(9, 0), QTimeZone::utc());
    check.finished = check.started.addSecs(120);
    validation::RunResult run;
    run.runId = QStringLiteral("import-report-test");
    run.started = check.started;
    run.finished = check.finished;
    run.phasesRun = {check.phase};
    run.checks = {check};
    run.state = validation::RunState::Passed;
    store::RunHeader header;
    header.source = QStringLiteral("import");
    header.recipeName = pbgui::EvidenceFixture::signedRecipe();
    header.coordinate = header.recipeName;
    Result<qint64> saved = store::RunStore(*m_db->db).saveImported(header, run, {log});
    QVERIFY2(saved, saved ? "" : qPrintable(saved.error().toString()));

    Result<store::CatalogVersionInfo> v = store::CatalogStore(*m_db->db).version(QStringLiteral("sample-2"));
    QVERIFY(v);
    Result<std::vector<evidence::HealthRow>> rows =
        report::healthRows(*m_db->db, v->id); // as the report reads them
    QVERIFY(rows);
    m_rows = *rows;
    QVERIFY(m_rows.size() > 5);
}

// Issue 30: a change line names what changed. A registry component whose default version stayed and
// whose validations changed is "changed: validations", its version shown once as the same, never
// "changed v1.9.0 v1.9.0".
void TestReport::changeLinesNameWhatChanged() {
    ReportData d;
    d.version.label = QStringLiteral("2026-08-19");
    store::CatalogVersionInfo baseline;
    baseline.label = QStringLiteral("2026-07-09");
    d.baseline = baseline;
    catalog::CatalogDiff diff;
    diff.fromLabel = baseline.label;
    diff.toLabel = d.version.label;
    catalog::NamedChange same;
    same.name = QStringLiteral("nvsentinel");
    same.change = catalog::Change::Changed;
    same.from = same.to = QStringLiteral("v1.9.0");
    same.fields.push_back(
        {QStringLiteral("validations"), QStringLiteral("[a]"), QStringLiteral("[a, b]"), false});
    catalog::NamedChange moved;
    moved.name = QStringLiteral("gpu-operator");
    moved.change = catalog::Change::Changed;
    moved.from = QStringLiteral("v26.3.2");
    moved.to = QStringLiteral("v26.3.3");
    moved.fields.push_back({QStringLiteral("defaultVersion"), moved.from, moved.to, true});
    diff.registry = {same, moved};
    d.diff = diff;
    const QString html = report::reportHtml(d, {});
    QVERIFY2(html.contains(QStringLiteral(
                 "<td>nvsentinel</td><td>changed: validations</td><td>v1.9.0</td><td>v1.9.0 (same)</td>")),
             qPrintable(html.mid(html.indexOf(QStringLiteral("nvsentinel")) - 20, 200)));
    QVERIFY(html.contains(QStringLiteral(
        "<td>gpu-operator</td><td>changed: defaultVersion</td><td>v26.3.2</td><td>v26.3.3</td>")));
    QVERIFY(html.contains(QStringLiteral("<h3>Registry components</h3>")));
}

// Issue 30: the run table and the History chart each say what they count; a run the chart plots and
// the table leaves out is counted ("4 runs (1 not in the table)").
void TestReport::countsSayWhatIsLeftOut() {
    CoordinateRuns cr;
    cr.coordinate = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
    cr.runs.resize(3);
    cr.historyMetric = QStringLiteral("busbw");
    for (qint64 id : {1, 2, 3, 4, 4}) { // run 4 has two points (two checks): one run
        store::HistoryPoint p;
        p.runId = id;
        p.metric = cr.historyMetric;
        cr.history.push_back(p);
    }
    QCOMPARE(cr.historyRuns(), 4);
    QCOMPARE(cr.countsNote(),
             QStringLiteral("The table lists the newest 3 runs with performance data (at most 3); "
                            "the History chart plots busbw of every stored run: 4 runs (1 not in "
                            "the table)."));
    // In the report itself, under the table.
    const QString path = m_out.filePath(QStringLiteral("counts.html"));
    Result<ReportOutput> out = writeWithRenderer(*m_db->db, ReportFormat::Html, path);
    QVERIFY2(out, out ? "" : qPrintable(out.error().toString()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(f.readAll());
    QVERIFY2(html.contains(QStringLiteral(
                 "<p class=\"counts\">The table lists the newest 1 run with performance data")),
             qPrintable(html.mid(html.indexOf(QStringLiteral("class=\"counts\"")) - 10, 300)));
}

void TestReport::cleanupTestCase() {
    m_db.reset();
}

QString TestReport::fileSha(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return sha256Hex(f.readAll());
}

std::optional<receipts::Receipt> TestReport::lastReportReceipt() {
    receipts::ListFilter f;
    f.kind = QStringLiteral("report.export");
    Result<std::vector<receipts::Receipt>> r = receipts::Ledger(*m_db->db).list(f);
    if (!r || r->empty())
        return std::nullopt;
    return r->back();
}

void TestReport::html() {
    const QString path = m_out.filePath(QStringLiteral("review.html"));
    Result<ReportOutput> out = writeWithRenderer(*m_db->db, ReportFormat::Html, path);
    QVERIFY2(out, out ? "" : qPrintable(out.error().toString()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(f.readAll());

    // Every row of the health table (the newest version, sample-2), with its status.
    QCOMPARE(html.count(QStringLiteral("<tr class=\"health-row\">")), qsizetype(m_rows.size()));
    for (const evidence::HealthRow& r : m_rows) {
        const QRegularExpression row(
            QStringLiteral("<tr class=\"health-row\"><td>%1[^<]*<br>.*?%2</font>")
                .arg(QRegularExpression::escape(r.displayName().toHtmlEscaped()),
                     QRegularExpression::escape(evidence::healthStatusName(r.status))));
        QVERIFY2(row.match(html).hasMatch(), qPrintable(r.recipe));
    }
    // The charts: NCCL and history of the coordinate with a run, embedded.
    QVERIFY(html.count(QStringLiteral("<img src=\"data:image/png;base64,")) >= 2);
    QVERIFY(html.contains(QStringLiteral("NCCL busbw against message size")));
    // The bundle's verification steps, the diff, the problems and the chain head.
    QVERIFY(html.contains(QStringLiteral("Verification step")));
    QVERIFY(html.contains(QStringLiteral("sample-1 &rarr; sample-2")));
    // The sample is marked as such, and the report says where the version and its baseline came from.
    QVERIFY(html.contains(QStringLiteral("<p class=\"sample-mark\">")));
    QVERIFY(html.contains(QStringLiteral("Source: sample data")));
    QVERIFY(html.contains(QStringLiteral("Changes since sample-1 (sample data)")));
    QVERIFY(html.contains(pbgui::EvidenceFixture::pendingRecipe()));
    QVERIFY(html.contains(QStringLiteral(">pending</font>")));
    Result<receipts::ChainHead> head = receipts::Ledger(*m_db->db).head();
    QVERIFY(head);
    QVERIFY(html.contains(QStringLiteral("intact: ")));

    std::optional<receipts::Receipt> r = lastReportReceipt();
    QVERIFY(r);
    QCOMPARE(r->seq, out->receiptSeq);
    QCOMPARE(r->parameters.value(QStringLiteral("format")).toString(), QStringLiteral("html"));
    QCOMPARE(r->outputs.size(), size_t(1));
    QCOMPARE(r->outputs.front().sha256, fileSha(path));
    QCOMPARE(out->sha256, fileSha(path));
}

void TestReport::markdown() {
    const QString path = m_out.filePath(QStringLiteral("md/review.md"));
    QVERIFY(QDir().mkpath(m_out.filePath(QStringLiteral("md"))));
    Result<ReportOutput> out = writeWithRenderer(*m_db->db, ReportFormat::Markdown, path);
    QVERIFY2(out, out ? "" : qPrintable(out.error().toString()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString md = QString::fromUtf8(f.readAll());
    const QRegularExpression image(QStringLiteral("!\\[[^\\]]*\\]\\(([^)]+)\\)"));
    int images = 0;
    for (auto it = image.globalMatch(md); it.hasNext();) {
        const QString rel = it.next().captured(1);
        QVERIFY2(!QDir::isAbsolutePath(rel), qPrintable(rel));
        const QImage png(QFileInfo(path).dir().filePath(rel));
        QVERIFY2(!png.isNull(), qPrintable(rel));
        ++images;
    }
    QVERIFY(images >= 2);
    QCOMPARE(out->chartFiles.size(), images);
    for (const evidence::HealthRow& r : m_rows)
        QVERIFY2(md.contains(QStringLiteral("| %1").arg(r.recipe)), qPrintable(r.recipe));

    // Issue 30: the summary is a recount of the sections it summarises, read back from the file:
    // coordinates per status = the Health table's Status column; the total = its rows; "Open
    // problems: N" = the rows of the Open problems table.
    const auto tableRows = [&md](const QString& heading) {
        const qsizetype from = md.indexOf(QStringLiteral("\n## %1\n").arg(heading));
        const qsizetype to = md.indexOf(QStringLiteral("\n## "), from + 4);
        std::vector<QStringList> rows;
        const QStringList lines = md.mid(from, to < 0 ? -1 : to - from).split(QLatin1Char('\n'));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            static const QRegularExpression rule(QStringLiteral("^\\|\\s*:?-{3}"));
            if (!lines[i].startsWith(QLatin1Char('|')) || rule.match(lines[i]).hasMatch() ||
                (i + 1 < lines.size() && rule.match(lines[i + 1]).hasMatch()))
                continue; // not a row, or the header
            QStringList cells = lines[i].split(QRegularExpression(QStringLiteral("(?<!\\\\)\\|")));
            cells = cells.mid(1, cells.size() - 2);
            for (QString& c : cells)
                c = c.trimmed();
            rows.push_back(cells);
        }
        return rows;
    };
    std::map<QString, int> summary, recount;
    int total = -1;
    for (const QStringList& row : tableRows(QStringLiteral("Summary"))) {
        if (row.value(0) == QLatin1String("**total**"))
            total = row.value(1).toInt();
        else
            summary[row.value(0)] = row.value(1).toInt();
    }
    const std::vector<QStringList> health = tableRows(QStringLiteral("Health"));
    for (const QStringList& row : health)
        ++recount[row.value(2)];
    for (const auto& [status, n] : summary)
        QVERIFY2(
            recount[status] == n,
            qPrintable(
                QStringLiteral("%1: summary %2, Health table %3").arg(status).arg(n).arg(recount[status])));
    for (const auto& [status, n] : recount)
        QVERIFY2(summary.count(status), qPrintable(status + QStringLiteral(" is not in the summary")));
    QCOMPARE(total, int(health.size()));
    QCOMPARE(total, int(m_rows.size()));
    const QRegularExpressionMatch open =
        QRegularExpression(QStringLiteral("Open problems: (\\d+)")).match(md);
    QVERIFY(open.hasMatch());
    QCOMPARE(open.captured(1).toInt(), int(tableRows(QStringLiteral("Open problems")).size()));
    QVERIFY2(open.captured(1).toInt() > 0, "the fixture has open problems (a failed bundle)");

    std::optional<receipts::Receipt> r = lastReportReceipt();
    QVERIFY(r);
    QCOMPARE(r->outputs.front().sha256, fileSha(path));
    QCOMPARE(int(r->outputs.size()), 1 + images);
}

void TestReport::pdf() {
    const QString path = m_out.filePath(QStringLiteral("review.pdf"));
    Result<ReportData> data = collectReport(*m_db->db, {});
    QVERIFY(data);
    const std::vector<ReportChart> charts = renderReportCharts(*data);
    QVERIFY(charts.size() >= 2);
    // The page count the layout predicts, from the content: the document laid out on A4.
    std::unique_ptr<QTextDocument> doc = reportDocument(*data, charts);
    const int predicted = predictPdfPages(*doc);
    QVERIFY(predicted >= 2);
    // Issue 30: a status or state is never broken on the page ("passe/d"): laid out on A4, every
    // cell holding one is one line.
    {
        QBuffer sink;
        sink.open(QIODevice::WriteOnly);
        QPdfWriter writer(&sink);
        layoutForPdf(*doc, writer);
        QStringList words;
        for (evidence::HealthStatus st : models::kHealthStatuses)
            words << evidence::healthStatusName(st);
        for (const char* w : {"passed", "failed", "skipped", "incomplete", "cancelled", "error"})
            words << QLatin1String(w);
        int checked = 0;
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
            if (words.contains(b.text().trimmed())) {
                ++checked;
                QVERIFY2(b.layout() && b.layout()->lineCount() == 1,
                         qPrintable(QStringLiteral("'%1' laid out on %2 lines")
                                        .arg(b.text())
                                        .arg(b.layout()->lineCount())));
            }
        QVERIFY(checked > 0);
        // Issue 30: no table row is split across pages. Each row's cells, read from the layout,
        // lie within one page's slice; a line of text is never cut either.
        const std::vector<QRectF> pages = pdfPages(*doc, writer);
        QCOMPARE(int(pages.size()), predicted);
        const auto pageOf = [&pages](qreal y) {
            for (size_t i = 0; i < pages.size(); ++i)
                if (y >= pages[i].top() - 0.5 && y <= pages[i].bottom() + 0.5)
                    return int(i);
            return -1;
        };
        int rows = 0, crossing = 0;
        QStringList split, broken;
        for (QTextFrame* frame : doc->rootFrame()->childFrames()) {
            const auto* table = qobject_cast<QTextTable*>(frame);
            if (!table)
                continue;
            for (int row = 0; row < table->rows(); ++row) {
                qreal top = 1e12, bottom = -1e12;
                QString text;
                for (int col = 0; col < table->columns(); ++col) {
                    const QTextTableCell cell = table->cellAt(row, col);
                    for (QTextFrame::iterator it = cell.begin(); !it.atEnd(); ++it)
                        if (it.currentBlock().isValid()) {
                            const QRectF r = doc->documentLayout()->blockBoundingRect(it.currentBlock());
                            top = std::min(top, r.top());
                            bottom = std::max(bottom, r.bottom());
                            text += it.currentBlock().text() + QLatin1Char(' ');
                        }
                }
                ++rows;
                // No cell is broken inside a word: a line of a cell starts after a space, a hyphen, a
                // slash or a punctuation mark, never between two letters or digits.
                for (int col = 0; col < table->columns(); ++col) {
                    const QTextTableCell cell = table->cellAt(row, col);
                    for (QTextFrame::iterator it = cell.begin(); !it.atEnd(); ++it) {
                        const QTextBlock b = it.currentBlock();
                        for (int l = 1; b.isValid() && b.layout() && l < b.layout()->lineCount(); ++l) {
                            const int at = b.layout()->lineAt(l).textStart();
                            const QChar before = b.text().at(at - 1), after = b.text().at(at);
                            if (before.isLetterOrNumber() && after.isLetterOrNumber())
                                broken << QStringLiteral("'%1|%2' in [%3]")
                                              .arg(b.text().mid(at - 12, 12), b.text().mid(at, 12),
                                                   b.text().left(300));
                        }
                    }
                }
                if (pageOf(top) != pageOf(bottom))
                    split << QStringLiteral("%1 (y %2..%3)").arg(text.left(60)).arg(top).arg(bottom);
                // a row that would have crossed an A4 page end where Qt paginates by itself
                const qreal a4 = pages.front().height();
                crossing += int(top / a4) != int(bottom / a4);
            }
        }
        doc->documentLayout()->setPaintDevice(nullptr);
        QVERIFY(rows > 20);
        QVERIFY2(split.isEmpty(), qPrintable(split.join(QLatin1Char('\n'))));
        QVERIFY2(broken.isEmpty(), qPrintable(QStringLiteral("words broken in table cells: ") +
                                              broken.join(QStringLiteral(", "))));
        qInfo("%d table rows on %d pages; %d would have crossed a fixed page end", rows, predicted, crossing);
    }
    Result<ReportOutput> out = writeWithRenderer(*m_db->db, ReportFormat::Pdf, path, *data);
    QVERIFY2(out, out ? "" : qPrintable(out.error().toString()));
    QCOMPARE(out->pages, predicted);
    std::optional<receipts::Receipt> r = lastReportReceipt();
    QVERIFY(r);
    QCOMPARE(r->outputs.front().sha256, fileSha(path));

    const QString pdfinfo = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
    const QString pdftoppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
    if (pdfinfo.isEmpty() || pdftoppm.isEmpty())
        QSKIP("poppler-utils (pdfinfo, pdftoppm) not installed: the PDF was written but not inspected");
    QProcess info;
    info.start(pdfinfo, {path});
    QVERIFY(info.waitForFinished(60000));
    QCOMPARE(info.exitCode(), 0);
    const QString infoText = QString::fromUtf8(info.readAllStandardOutput());
    const QRegularExpressionMatch pages =
        QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(infoText);
    QVERIFY2(pages.hasMatch(), qPrintable(infoText));
    QCOMPARE(pages.captured(1).toInt(), predicted);
    QVERIFY2(infoText.contains(QStringLiteral("595")) && infoText.contains(QStringLiteral("842")),
             qPrintable(infoText)); // A4 in pt

    const QString prefix = m_out.filePath(QStringLiteral("page"));
    QProcess render;
    render.start(pdftoppm,
                 {QStringLiteral("-r"), QStringLiteral("40"), QStringLiteral("-png"), path, prefix});
    QVERIFY(render.waitForFinished(120000));
    QCOMPARE(render.exitCode(), 0);
    const QStringList pngs =
        QDir(m_out.path()).entryList({QStringLiteral("page-*.png")}, QDir::Files, QDir::Name);
    QCOMPARE(pngs.size(), predicted);
    for (const QString& name : pngs) {
        const QImage page(m_out.filePath(name));
        QVERIFY(!page.isNull());
        // The body only (above the footer's page number line): a page with nothing but its footer
        // counts as blank.
        const int bodyHeight = page.height() * 88 / 100;
        qint64 ink = 0;
        for (int y = 0; y < bodyHeight; ++y)
            for (int x = 0; x < page.width(); ++x)
                if (qGray(page.pixel(x, y)) < 200)
                    ++ink;
        const double fraction = double(ink) / (double(page.width()) * bodyHeight);
        // A few lines of text already cover more than 0.05 % of the body; a blank body is 0.
        QVERIFY2(fraction > 0.0005, qPrintable(QStringLiteral("%1: %2 non-white").arg(name).arg(fraction)));
    }
}

void TestReport::filterAndVersion() {
    ReportOptions o;
    o.filter = QStringLiteral("kubeflow");
    Result<ReportData> d = collectReport(*m_db->db, o);
    QVERIFY(d);
    QVERIFY(!d->rows.empty());
    QVERIFY(d->rows.size() < m_rows.size());
    for (const evidence::HealthRow& r : d->rows)
        QVERIFY(r.recipe.contains(QStringLiteral("kubeflow")) ||
                r.criteria.summary().contains(QStringLiteral("kubeflow")));
    int total = 0;
    for (const auto& [status, n] : d->statusCounts())
        total += n;
    QCOMPARE(total, int(d->rows.size()));

    o = {};
    o.version = QStringLiteral("sample-1");
    d = collectReport(*m_db->db, o);
    QVERIFY(d);
    QCOMPARE(d->version.label, QStringLiteral("sample-1"));
    QVERIFY(!d->diff);
    QVERIFY(d->diffNote.contains(QStringLiteral("first catalog version")));

    o.version = QStringLiteral("v9.9.9");
    d = collectReport(*m_db->db, o);
    QVERIFY(!d);
    QVERIFY(d.error().toString().contains(QStringLiteral("v9.9.9")));
}

void TestReport::cli() {
    const QString out = m_out.filePath(QStringLiteral("cli.html"));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PB_CLI_BINARY),
            {QStringLiteral("report"), QStringLiteral("--db"), m_db->path(), QStringLiteral("--format"),
             QStringLiteral("html"), QStringLiteral("--out"), out, QStringLiteral("--filter"),
             QStringLiteral("h100")});
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY(QFileInfo(out).size() > 0);
    QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains(fileSha(out)));
    std::optional<receipts::Receipt> r = lastReportReceipt();
    QVERIFY(r);
    QCOMPARE(r->parameters.value(QStringLiteral("filter")).toString(), QStringLiteral("h100"));
    QCOMPARE(r->outputs.front().sha256, fileSha(out));

    QProcess bad;
    bad.setProcessEnvironment(env);
    bad.start(QStringLiteral(PB_CLI_BINARY),
              {QStringLiteral("report"), QStringLiteral("--db"), m_db->path(), QStringLiteral("--format"),
               QStringLiteral("docx"), QStringLiteral("--out"), out});
    QVERIFY(bad.waitForFinished(60000));
    QCOMPARE(bad.exitCode(), 2);
}

void TestReport::dialog() {
    ReportDialog dialog(m_db->workspace());
    QSignalSpy ready(&dialog, &ReportDialog::previewReady);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && !dialog.isCollecting(), 60000);
    QVERIFY(dialog.data());
    QCOMPARE(dialog.data()->rows.size(), m_rows.size());
    QVERIFY(dialog.preview()->toPlainText().contains(pbgui::EvidenceFixture::signedRecipe()));

    ready.clear();
    dialog.filterEdit()->setText(QStringLiteral("gb200"));
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && !dialog.isCollecting() && dialog.data() &&
                                 dialog.data()->options.filter == QLatin1String("gb200"),
                             60000);
    for (const evidence::HealthRow& r : dialog.data()->rows)
        QVERIFY(r.recipe.contains(QStringLiteral("gb200")) ||
                r.criteria.summary().contains(QStringLiteral("gb200")));
    QVERIFY(!dialog.preview()->toPlainText().contains(pbgui::EvidenceFixture::signedRecipe() +
                                                      QStringLiteral(" ")));

    dialog.setFormat(ReportFormat::Pdf);
    const QString path = m_out.filePath(QStringLiteral("dialog.pdf"));
    QSignalSpy saved(&dialog, &ReportDialog::saved);
    QVERIFY(dialog.saveTo(path));
    QVERIFY(dialog.isSaving()); // written on a worker
    QTRY_VERIFY_WITH_TIMEOUT(saved.count() == 1, 120000);
    QCOMPARE(saved.at(0).at(0).toString(), path);
    QVERIFY2(saved.at(0).at(1).toString().isEmpty(), qPrintable(saved.at(0).at(1).toString()));
    QVERIFY(!dialog.isSaving());
    QVERIFY(dialog.lastSaved());
    QCOMPARE(dialog.lastSaved()->sha256, fileSha(path));
    std::optional<receipts::Receipt> r = lastReportReceipt();
    QVERIFY(r);
    QCOMPARE(r->parameters.value(QStringLiteral("format")).toString(), QStringLiteral("pdf"));
    QCOMPARE(r->outputs.front().sha256, fileSha(path));
}

// The dialog reads the versions and the report and writes the file and its receipt on workers of
// the workspace: with the GUI-thread hook on, not one database call happens on this thread.
void TestReport::dialogMakesNoGuiThreadDatabaseCall() {
    const QString copy = copyOfDatabase(QStringLiteral("guithread"));
    QVERIFY(!copy.isEmpty());
    QMutex mutex;
    QStringList calls;
    db::setGuiThreadObserver([&](const QString& sql) {
        const QMutexLocker lock(&mutex);
        calls << sql.simplified().left(160);
    });
    {
        models::Workspace workspace(copy, nullptr, 1);
        ReportDialog dialog(workspace);
        QSignalSpy ready(&dialog, &ReportDialog::previewReady);
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && !dialog.isCollecting(), 120000);
        QVERIFY(dialog.data());
        QVERIFY(dialog.versionCombo()->count() >= 2);
        dialog.setFormat(ReportFormat::Html);
        const QString path = m_out.filePath(QStringLiteral("guithread.html"));
        QSignalSpy saved(&dialog, &ReportDialog::saved);
        QVERIFY(dialog.saveTo(path));
        QTRY_VERIFY_WITH_TIMEOUT(saved.count() == 1, 120000);
        QVERIFY2(saved.at(0).at(1).toString().isEmpty(), qPrintable(saved.at(0).at(1).toString()));
        QVERIFY(dialog.lastSaved());
        QCOMPARE(dialog.lastSaved()->sha256, fileSha(path));
    }
    db::setGuiThreadObserver({});
    QVERIFY2(calls.isEmpty(),
             qPrintable(QStringLiteral("database calls on the GUI thread:\n") + calls.join(u'\n')));
}

// A copy of the database as it is now: on SQLite VACUUM INTO (a consistent snapshot, whatever the
// journal); on PostgreSQL `db copy` into a fresh database on the test server (proved, ledger and all).
QString TestReport::copyOfDatabase(const QString& name) {
    if (pb::test::onPostgres()) {
        auto target = std::make_unique<pb::test::TestDatabase>(m_out.path(), name);
        if (!target->ok())
            return {};
        Result<ops::DatabaseCopyOutcome> copied = ops::copyDatabase({m_db->path(), target->spec()});
        if (!copied) {
            qWarning("db copy: %s", qPrintable(copied.error().toString()));
            return {};
        }
        m_copies.push_back(std::move(target));
        return m_copies.back()->spec();
    }
    const QString path = m_out.filePath(name + QStringLiteral(".sqlite"));
    QFile::remove(path);
    QSqlQuery q(m_db->db->sql());
    if (!q.exec(QStringLiteral("VACUUM INTO '%1'").arg(path)))
        return {};
    return path;
}

// Runs the real `proofbench report`; returns {exit code, stdout, stderr} as text.
QStringList TestReport::cliReport(const QString& db, const QString& format, const QString& out,
                                  const QProcessEnvironment& env, const QString& binary) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(binary, {QStringLiteral("report"), QStringLiteral("--db"), db, QStringLiteral("--format"), format,
                     QStringLiteral("--out"), out});
    if (!p.waitForFinished(300000))
        return {QStringLiteral("-1"), QString(), QStringLiteral("timed out")};
    return {QString::number(p.exitCode()), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

void TestReport::cliAndWindowWriteTheSameBytes_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("file");
    QTest::addRow("html") << QStringLiteral("html") << QStringLiteral("review.html");
    QTest::addRow("markdown") << QStringLiteral("markdown") << QStringLiteral("review.md");
    QTest::addRow("pdf") << QStringLiteral("pdf") << QStringLiteral("review.pdf");
}

// One database copied twice (each export leaves a receipt, which the next report shows): the CLI
// writes from one copy, the window's report dialog from the other; every file is the same bytes.
void TestReport::cliAndWindowWriteTheSameBytes() {
    QFETCH(QString, format);
    QFETCH(QString, file);
    // The window is the same program as the CLI: the same version in the report.
    QProcess version;
    version.start(QStringLiteral(PB_CLI_BINARY), {QStringLiteral("--version")});
    QVERIFY(version.waitForFinished(60000));
    QCoreApplication::setApplicationVersion(
        QString::fromUtf8(version.readAllStandardOutput()).trimmed().section(QLatin1Char(' '), 1));
    QVERIFY(!QCoreApplication::applicationVersion().isEmpty());

    const QString cliDb = copyOfDatabase(QStringLiteral("cli-") + format),
                  windowDb = copyOfDatabase(QStringLiteral("window-") + format);
    QVERIFY(!cliDb.isEmpty() && !windowDb.isEmpty());
    const QString cliDir = m_out.filePath(QStringLiteral("cli-") + format),
                  windowDir = m_out.filePath(QStringLiteral("window-") + format);
    QVERIFY(QDir().mkpath(cliDir) && QDir().mkpath(windowDir));

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    const QStringList cli = cliReport(cliDb, format, QDir(cliDir).filePath(file), env);
    QVERIFY2(cli.at(0) == QLatin1String("0"), qPrintable(cli.at(2)));

    {
        models::Workspace workspace(windowDb, nullptr, 1);
        ReportDialog dialog(workspace);
        QSignalSpy ready(&dialog, &ReportDialog::previewReady);
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && !dialog.isCollecting(), 120000);
        QVERIFY(dialog.data());
        QVERIFY(dialog.charts().size() >= 2);
        dialog.setFormat(*parseReportFormat(format));
        QSignalSpy saved(&dialog, &ReportDialog::saved);
        QVERIFY(dialog.saveTo(QDir(windowDir).filePath(file)));
        QTRY_VERIFY_WITH_TIMEOUT(saved.count() == 1, 300000);
        QVERIFY2(saved.at(0).at(1).toString().isEmpty(), qPrintable(saved.at(0).at(1).toString()));
        QVERIFY(dialog.lastSaved());
    }

    // The same files (the report, and Markdown's chart PNGs beside it), the same bytes.
    QDirIterator it(cliDir, QDir::Files, QDirIterator::Subdirectories);
    int files = 0;
    while (it.hasNext()) {
        const QString cliFile = it.next();
        const QString rel = QDir(cliDir).relativeFilePath(cliFile);
        QFile a(cliFile), b(QDir(windowDir).filePath(rel));
        QVERIFY2(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly), qPrintable(rel));
        const QByteArray bytes = a.readAll(), windowBytes = b.readAll();
        QVERIFY(!bytes.isEmpty());
        if (bytes != windowBytes) { // kept for a look: <tmp>/tst_report-<file>.cli and .window
            const QString keep =
                QDir::temp().filePath(QStringLiteral("tst_report-") + QFileInfo(rel).fileName());
            QFile::remove(keep + QStringLiteral(".cli"));
            QFile::remove(keep + QStringLiteral(".window"));
            QFile::copy(cliFile, keep + QStringLiteral(".cli"));
            QFile::copy(b.fileName(), keep + QStringLiteral(".window"));
        }
        QVERIFY2(bytes == windowBytes,
                 qPrintable(QStringLiteral("%1 differs between the CLI and the window").arg(rel)));
        ++files;
    }
    int windowFiles = 0;
    for (QDirIterator w(windowDir, QDir::Files, QDirIterator::Subdirectories); w.hasNext(); w.next())
        ++windowFiles;
    QCOMPARE(files, windowFiles);
    if (format == QLatin1String("markdown"))
        QVERIFY(files >= 3); // the report and at least the NCCL and history charts
    if (format == QLatin1String("html")) {
        QFile html(QDir(cliDir).filePath(file));
        QVERIFY(html.open(QIODevice::ReadOnly));
        QVERIFY(html.readAll().count("<img src=\"data:image/png;base64,") >= 2);
    }
}

// No display and no platform asked for: the CLI draws its charts off-screen, warning about nothing.
void TestReport::cliDrawsChartsWithoutADisplay() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        env.remove(QString::fromLatin1(name));
    const QString db = copyOfDatabase(QStringLiteral("headless"));
    QVERIFY(!db.isEmpty());
    const QString md = m_out.filePath(QStringLiteral("headless/review.md"));
    QVERIFY(QDir().mkpath(QFileInfo(md).path()));
    // proofbench-cli: the executable that links no widget library (app/CliMain.cpp).
    const QStringList run =
        cliReport(db, QStringLiteral("markdown"), md, env, QStringLiteral(PB_HEADLESS_CLI_BINARY));
    QVERIFY2(run.at(0) == QLatin1String("0"), qPrintable(run.at(2)));
    QVERIFY2(run.at(2).isEmpty(), qPrintable(run.at(2)));
    QVERIFY(run.at(1).contains(QStringLiteral(" chart files")));
    const QStringList charts = QDir(m_out.filePath(QStringLiteral("headless/review-charts")))
                                   .entryList({QStringLiteral("*.png")}, QDir::Files);
    QVERIFY(charts.size() >= 2);
    for (const QString& c : charts) {
        const QImage image(m_out.filePath(QStringLiteral("headless/review-charts/") + c));
        QVERIFY2(!image.isNull() && image.width() == 1000, qPrintable(c));
        // Drawn: more than a white page (axes, lines, labels).
        int ink = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                ink += qGray(image.pixel(x, y)) < 200;
        QVERIFY2(ink > 500, qPrintable(QStringLiteral("%1: %2").arg(c).arg(ink)));
    }
}

QTEST_MAIN(TestReport)
#include "tst_report.moc"
