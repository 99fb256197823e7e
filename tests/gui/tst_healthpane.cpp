// The Health view of the real MainWindow on a temp database (embedded catalog) and an evidence tree
// written here: File > Import Evidence… end to end (and its error box), the table filtered by text
// and by the status combo, sorted by a header click, a row's pointers and problems in the
// inspector, the summary bar, CSV export, and the way back to the recipe; an imported summary
// bundle in the inspector (checks, phases, CTRF tests) and its model under QAbstractItemModelTester.
#include "BundleModels.h"
#include "EvidenceFixture.h"
#include "EvidenceInspector.h"
#include "GuiTestUtil.h"
#include "HealthModels.h"
#include "HealthPane.h"
#include "MainWindow.h"
#include "RecipeView.h"
#include "YamlDialog.h"
#include "store/EvidenceStore.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTextDocumentFragment>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>

using namespace pb;
using models::BundleModel;
using models::HealthModel;
using models::PointerModel;
using pbgui::EvidenceFixture;
using widgets::HealthPane;
using widgets::MainWindow;

namespace {

constexpr int kTimeout = 30000;

QStringList recipesOnView(const QTableView* table) {
    QStringList out;
    const QAbstractItemModel* m = table->model();
    for (int r = 0; r < m->rowCount(); ++r)
        out << m->index(r, HealthModel::RecipeColumn).data().toString();
    return out;
}

int rowOf(const QTableView* table, const QString& recipe) {
    return static_cast<int>(recipesOnView(table).indexOf(recipe));
}

} // namespace

class TestHealthPane : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void init();
    void cleanup();

    void importEvidenceAction();
    void filterSortInspectExport();
    void versionPickerAndOutsideRows();
    void showInCatalog();
    void importErrorNamesTheFile();
    void bundleInInspector();

  private:
    template <typename T> T* find(const char* name) { return pbgui::findNamed<T>(m_window.get(), name); }
    // Imports the fixture tree through the window and waits for the health table to show it.
    bool importFixture();
    bool waitForRows(int rows);

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_tmp;
    QString m_evidenceDir;
};

void TestHealthPane::initTestCase() {
    QLocale::setDefault(QLocale::c());
    QVERIFY(m_tmp.isValid());
    m_evidenceDir = m_tmp.filePath(QStringLiteral("fork/recipes/evidence"));
    QVERIFY(EvidenceFixture::writeTree(m_evidenceDir));
}

void TestHealthPane::init() {
    const QString error = pbgui::openWindow(m_db, m_window);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestHealthPane::cleanup() {
    pbgui::closeWindow(m_db, m_window);
}

bool TestHealthPane::waitForRows(int rows) {
    HealthPane* pane = m_window->healthPane();
    return QTest::qWaitFor([&] { return !pane->isLoading() && pane->model()->rowCount() == rows; }, kTimeout);
}

bool TestHealthPane::importFixture() {
    QSignalSpy finished(m_window.get(), &MainWindow::evidenceImportFinished);
    if (!m_window->startEvidenceImport(m_tmp.filePath(QStringLiteral("fork"))))
        return false;
    if (!finished.wait(kTimeout) && finished.isEmpty())
        return false;
    if (!finished.at(0).at(0).toBool()) {
        qWarning("%s", qPrintable(finished.at(0).at(1).toString()));
        return false;
    }
    return waitForRows(17);
}

void TestHealthPane::importEvidenceAction() {
    // Discoverable: a tool bar button and View > Health, Ctrl+2.
    auto* showHealth = find<QAction>("actionShowHealth");
    QVERIFY(showHealth);
    QCOMPARE(showHealth->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_2));
    QVERIFY(find<QToolBar>("viewToolBar")->actions().contains(showHealth));
    showHealth->trigger();
    QVERIFY(m_window->isHealthShown());
    HealthPane* pane = m_window->healthPane();
    QCOMPARE(pane->objectName(), QStringLiteral("healthPane"));
    QVERIFY(pane->isVisible());
    QVERIFY(waitForRows(16)); // sample-2, nothing imported yet
    QCOMPARE(find<QComboBox>("healthVersion")->currentText(), QStringLiteral("sample-2")); // the newest
    QVERIFY(find<QLabel>("healthSummary")->text().contains(QStringLiteral("<b>16</b> no evidence")));

    // File > Import Evidence…: the directory dialog, a worker, then the table refreshed.
    QSignalSpy finished(m_window.get(), &MainWindow::evidenceImportFinished);
    QString dialogName;
    pbgui::ModalWatch dirWatch = pbgui::whenModal<QFileDialog>([&](QFileDialog* d) {
        dialogName = d->objectName();
        d->selectFile(m_evidenceDir);
        static_cast<QDialog*>(d)->accept();
    });
    auto* action = find<QAction>("actionImportEvidence");
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    action->trigger();
    QCOMPARE(dialogName, QStringLiteral("importEvidenceDialog"));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
    QVERIFY(finished.at(0).at(1).toString().contains(QStringLiteral("5 added")));
    QVERIFY(finished.at(0).at(1).toString().contains(QStringLiteral("1 invalid")));
    QVERIFY(action->isEnabled());
    QVERIFY(find<QAction>("actionImportCatalog")->isEnabled());
    QVERIFY(m_window->isHealthShown());
    QVERIFY(waitForRows(17));
    QCOMPARE(store::EvidenceStore(*m_db->db).pointerCount(), EvidenceFixture::kPointers);

    const QString summary = find<QLabel>("healthSummary")->text();
    QVERIFY2(summary.contains(QStringLiteral("<b>17 coordinates</b> · 5 evidence pointers")),
             qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("<b>2</b> signed (not verified)")), qPrintable(summary));
    QVERIFY(summary.contains(QStringLiteral("<b>1</b> pending")));
    QVERIFY(summary.contains(QStringLiteral("<b>1</b> invalid")));
    QVERIFY(summary.contains(QStringLiteral("<b>13</b> no evidence")));
    QVERIFY(summary.contains(QStringLiteral("0 verified")));

    // Importing the same tree again changes nothing.
    finished.clear();
    QVERIFY(m_window->startEvidenceImport(m_evidenceDir));
    QVERIFY(!m_window->startEvidenceImport(m_evidenceDir)); // one at a time
    QVERIFY(!m_window->startImport(QStringLiteral(PB_SOURCE_DIR "/recipes/sample-2"), QStringLiteral("x")));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
    QVERIFY(finished.at(0).at(1).toString().contains(QStringLiteral("0 added, 0 updated, 5 unchanged")));
    QCOMPARE(store::EvidenceStore(*m_db->db).pointerCount(), EvidenceFixture::kPointers);
}

void TestHealthPane::filterSortInspectExport() {
    m_window->showHealth();
    QVERIFY(importFixture());
    auto* table = find<QTableView>("healthTable");
    auto* filter = find<QLineEdit>("healthFilter");
    auto* status = find<QComboBox>("healthStatusFilter");
    auto* summary = find<QLabel>("healthSummary");
    QVERIFY(table && filter && status && summary);
    QCOMPARE(table->model()->rowCount(), 17);
    // Issue 30: a status or count is never elided: those columns fit their widest word over every
    // row; a long name elides at its end, never in the middle.
    QCOMPARE(table->textElideMode(), Qt::ElideRight);
    for (int c :
         {int(HealthModel::StatusColumn), int(HealthModel::SignersColumn), int(HealthModel::PointersColumn),
          int(HealthModel::PhasesColumn), int(HealthModel::StaleColumn), int(HealthModel::AttestedColumn)})
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            const QString text = table->model()->index(r, c).data().toString();
            QVERIFY2(
                table->columnWidth(c) >= table->fontMetrics().horizontalAdvance(text) + 8,
                qPrintable(
                    QStringLiteral("column %1, '%2' in %3 px").arg(c).arg(text).arg(table->columnWidth(c))));
        }

    // Issue 30: the summary line is a recount of the table it sits over: every status count is the
    // number of rows showing that status, and the pointers are the sum of the Pointers column.
    {
        const QString summaryText = QTextDocumentFragment::fromHtml(summary->text()).toPlainText();
        for (evidence::HealthStatus st : models::kHealthStatuses) {
            const QString name = evidence::healthStatusName(st);
            int rows = 0;
            for (int r = 0; r < table->model()->rowCount(); ++r)
                rows += table->model()->index(r, HealthModel::StatusColumn).data().toString() == name;
            QVERIFY2(summaryText.contains(QStringLiteral("%1 %2").arg(rows).arg(name)),
                     qPrintable(QStringLiteral("'%1 %2' not in: %3").arg(rows).arg(name, summaryText)));
        }
        int pointers = 0;
        for (int r = 0; r < table->model()->rowCount(); ++r)
            pointers += table
                            ->model() // "4", or "4 (1 pending, 1 invalid)"
                            ->index(r, HealthModel::PointersColumn)
                            .data()
                            .toString()
                            .section(QLatin1Char(' '), 0, 0)
                            .toInt();
        QVERIFY2(
            summaryText.contains(QStringLiteral("%1 evidence pointer").arg(pointers)),
            qPrintable(QStringLiteral("%1 pointers counted; summary: %2").arg(pointers).arg(summaryText)));
        QVERIFY2(summaryText.contains(QStringLiteral("%1 coordinate").arg(table->model()->rowCount())),
                 qPrintable(summaryText));
    }

    // Filter as you type.
    filter->setFocus();
    QTest::keyClicks(filter, QStringLiteral("h100 training"));
    QStringList shown = recipesOnView(table);
    QVERIFY(shown.contains(EvidenceFixture::signedRecipe()));
    QVERIFY(shown.contains(EvidenceFixture::invalidRecipe()));
    QVERIFY(!shown.contains(EvidenceFixture::pendingRecipe()));
    for (const QString& r : shown)
        QVERIFY2(r.contains(QStringLiteral("h100")), qPrintable(r));
    QVERIFY(summary->text().contains(QStringLiteral("showing %1 of 17").arg(shown.size())));
    QTest::keyClick(filter, Qt::Key_Escape);
    QCOMPARE(filter->text(), QString());
    QCOMPARE(table->model()->rowCount(), 17);

    // The status combo: one status at a time.
    status->setCurrentIndex(status->findText(QStringLiteral("invalid")));
    QCOMPARE(recipesOnView(table), QStringList{EvidenceFixture::invalidRecipe()});
    status->setCurrentIndex(status->findText(QStringLiteral("pending")));
    QCOMPARE(recipesOnView(table), QStringList{EvidenceFixture::pendingRecipe()});
    // The summary bar's links set the same filter.
    emit summary->linkActivated(QStringLiteral("status:%1").arg(int(evidence::HealthStatus::Signed)));
    QCOMPARE(status->currentText(), QStringLiteral("signed (not verified)"));
    QCOMPARE(table->model()->rowCount(), 2);
    emit summary->linkActivated(QStringLiteral("clear"));
    QCOMPARE(status->currentIndex(), 0);
    QCOMPARE(table->model()->rowCount(), 17);

    // The other combos.
    auto* service = find<QComboBox>("healthServiceFilter");
    auto* accelerator = find<QComboBox>("healthAcceleratorFilter");
    auto* signer = find<QComboBox>("healthSignerFilter");
    service->setCurrentIndex(service->findText(QStringLiteral("gke")));
    for (int r = 0; r < table->model()->rowCount(); ++r)
        QCOMPARE(table->model()->index(r, HealthModel::ServiceColumn).data().toString(),
                 QStringLiteral("gke"));
    accelerator->setCurrentIndex(accelerator->findText(QStringLiteral("h100")));
    QVERIFY(recipesOnView(table).contains(EvidenceFixture::invalidRecipe()));
    service->setCurrentIndex(0);
    accelerator->setCurrentIndex(0);
    signer->setCurrentIndex(signer->findText(QStringLiteral("partner")));
    QCOMPARE(recipesOnView(table), QStringList{EvidenceFixture::signedRecipe()});
    signer->setCurrentIndex(0);

    // Sort by a header click: newest attestation.
    QHeaderView* header = table->horizontalHeader();
    const int x = header->sectionViewportPosition(HealthModel::AttestedColumn) +
                  header->sectionSize(HealthModel::AttestedColumn) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    QCOMPARE(header->sortIndicatorSection(), int(HealthModel::AttestedColumn));
    if (header->sortIndicatorOrder() == Qt::AscendingOrder)
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
    shown = recipesOnView(table);
    // Only valid signed pointers count as attestations: the pending and invalid rows have none.
    QCOMPARE(shown.mid(0, 2),
             QStringList({EvidenceFixture::signedRecipe(), EvidenceFixture::outsideRecipe()}));
    QCOMPARE(table->model()->index(0, HealthModel::AttestedColumn).data().toString(),
             QStringLiteral("2026-10-05 08:30 UTC"));

    // Select the invalid row: the inspector lists its pointer and each problem.
    auto* inspector = find<widgets::EvidenceInspector>("evidenceInspector");
    QVERIFY(inspector);
    const int invalidRow = rowOf(table, EvidenceFixture::invalidRecipe());
    const QRect cell = table->visualRect(table->model()->index(invalidRow, HealthModel::RecipeColumn));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QTRY_COMPARE_WITH_TIMEOUT(inspector->row().recipe, EvidenceFixture::invalidRecipe(), kTimeout);
    PointerModel* pointers = inspector->pointerModel();
    QCOMPARE(pointers->rowCount(), 1);
    QVERIFY(!pointers->pointerAt(0).isValid());
    QVERIFY(find<QTreeView>("pointerTree")->isVisible());
    QVERIFY(find<QTreeView>("pointerTree")->isExpanded(pointers->index(0, 0)));
    QStringList problems;
    const QModelIndex parent = pointers->index(0, 0);
    for (int r = 0; r < pointers->rowCount(parent); ++r)
        if (pointers->index(r, 0, parent).data(PointerModel::ItemKindRole).value<PointerModel::ItemKind>() ==
            PointerModel::ItemKind::Problem)
            problems << pointers->index(r, PointerModel::ValueColumn, parent).data().toString();
    QCOMPARE(problems, pointers->pointerAt(0).problems);
    QVERIFY(problems.join(QLatin1Char('\n')).contains(QStringLiteral("does not match the signer's slug")));
    QVERIFY(inspector->headerText().contains(QStringLiteral("invalid")));
    // One pointer, in the singular ("1 pointer, not valid"; never "1 pointer(s)").
    QVERIFY2(find<QLabel>("inspectorReason")->text().contains(QStringLiteral("1 pointer, not valid")),
             qPrintable(find<QLabel>("inspectorReason")->text()));

    // Keyboard: the signed row, two pointers from two signer classes, honest about signatures.
    table->setFocus();
    table->setCurrentIndex(table->model()->index(rowOf(table, EvidenceFixture::signedRecipe()), 0));
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->healthPane()->isLoadingRow(),
                             kTimeout); // the row is read on a worker
    QCOMPARE(inspector->row().recipe, EvidenceFixture::signedRecipe());
    QCOMPARE(pointers->rowCount(), 2);
    QStringList classes{pointers->fieldValue(0, QStringLiteral("class")),
                        pointers->fieldValue(1, QStringLiteral("class"))};
    classes.sort();
    QCOMPARE(classes, QStringList({QStringLiteral("community"), QStringLiteral("partner")}));
    QCOMPARE(pointers->fieldValue(0, QStringLiteral("rekorLogIndex")),
             QString::number(EvidenceFixture::rekorIndex()));
    QVERIFY(inspector->headerText().contains(QStringLiteral("signed (not verified)")));
    QVERIFY(inspector->headerText().contains(QStringLiteral("1 community · 1 partner")));
    QVERIFY(find<QLabel>("inspectorReason")->text().contains(QStringLiteral("not checked")));

    // A pointer's YAML, as written.
    widgets::YamlDialog* yaml = inspector->openPointer(0);
    QVERIFY(yaml);
    QVERIFY(yaml->text().contains(QStringLiteral("rekorLogIndex: %1").arg(EvidenceFixture::rekorIndex())));
    yaml->close();

    // Export what is on view: every row, CSV, with the engine's header.
    const QString csvPath = m_tmp.filePath(QStringLiteral("health.csv"));
    QVERIFY(find<QToolButton>("healthExport"));
    HealthPane* pane = m_window->healthPane();
    QVERIFY2(pane->exportTo(csvPath, HealthPane::ExportFormat::Csv), qPrintable(pane->lastError()));
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.value(0),
             QStringLiteral("recipe,service,accelerator,os,intent,platform,status,phases,"
                            "signers (1st/community/partner/reported),newest attestedAt,aicrVersion,stale,"
                            "in catalog version,reason,catalog version"));
    QCOMPARE(lines.size(), 18);
    // Each row says whether its recipe is in the version, why its status is what it is, and the
    // version it is of, marked as the sample it is.
    QVERIFY(lines.value(1).endsWith(QStringLiteral(",sample-2 (sample data)")));
    const QStringList outside = lines.filter(
        QRegularExpression(QStringLiteral("^") + EvidenceFixture::outsideRecipe() + QStringLiteral(",")));
    QCOMPARE(outside.size(), 1);
    QVERIFY2(outside.front().contains(QStringLiteral(",no,")), qPrintable(outside.front()));
    QVERIFY(lines.value(1).startsWith(EvidenceFixture::signedRecipe() + QLatin1Char(','))); // view order
    // Filtered: only the rows on view, Markdown too.
    status->setCurrentIndex(status->findText(QStringLiteral("invalid")));
    const QString mdPath = m_tmp.filePath(QStringLiteral("health.md"));
    QVERIFY(pane->exportTo(mdPath, HealthPane::ExportFormat::Markdown));
    QFile md(mdPath);
    QVERIFY(md.open(QIODevice::ReadOnly));
    const QStringList mdAll = QString::fromUtf8(md.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    // A title naming the version, the sample mark and the source, then the table.
    QCOMPARE(mdAll.value(0), QStringLiteral("# Health: catalog version sample-2"));
    QVERIFY(mdAll.value(1).startsWith(QStringLiteral("**Sample data**")));
    QVERIFY(mdAll.value(2).startsWith(QStringLiteral("Source: sample data")));
    const QStringList mdLines = mdAll.filter(QRegularExpression(QStringLiteral("^\\|")));
    QCOMPARE(mdLines.size(), 3);
    QVERIFY(mdLines.value(2).startsWith(QStringLiteral("| ") + EvidenceFixture::invalidRecipe() +
                                        QStringLiteral(" |")));
    QVERIFY(
        !pane->exportTo(m_tmp.filePath(QStringLiteral("no/such/dir/x.csv")), HealthPane::ExportFormat::Csv));
    QVERIFY(pane->lastError().contains(QStringLiteral("x.csv")));
}

void TestHealthPane::versionPickerAndOutsideRows() {
    m_window->showHealth();
    QVERIFY(importFixture());
    auto* version = find<QComboBox>("healthVersion");
    QCOMPARE(version->count(), 2);
    QCOMPARE(version->itemText(0), QStringLiteral("sample-2"));
    HealthPane* pane = m_window->healthPane();
    auto* table = find<QTableView>("healthTable");

    // The coordinate outside the catalog: greyed and italic, "—" criteria.
    const int o = rowOf(table, EvidenceFixture::outsideRecipe());
    QVERIFY(o >= 0);
    QCOMPARE(table->model()->index(o, HealthModel::ServiceColumn).data().toString(), QStringLiteral("—"));
    QVERIFY(table->model()->index(o, HealthModel::RecipeColumn).data(Qt::FontRole).value<QFont>().italic());

    // Another version: its own recipes; evidence for names it lacks shows as outside rows.
    QSignalSpy loaded(pane, &HealthPane::loaded);
    version->setCurrentIndex(version->findText(QStringLiteral("sample-1")));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeout);
    QCOMPARE(loaded.at(0).at(0).toString(), QStringLiteral("sample-1"));
    QCOMPARE(pane->version(), QStringLiteral("sample-1"));
    int inCatalog = 0;
    for (const evidence::HealthRow& r : pane->model()->rows())
        inCatalog += r.inCatalog() ? 1 : 0;
    QCOMPARE(inCatalog, 15);
    QCOMPARE(pane->model()->rowOf(EvidenceFixture::outsideRecipe()) >= 0, true);
    QVERIFY(!pane->model()->rowAt(pane->model()->rowOf(EvidenceFixture::outsideRecipe())).inCatalog());
    QVERIFY(pane->setVersion(QStringLiteral("sample-2")));
    QVERIFY(!pane->setVersion(QStringLiteral("v9")));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, kTimeout);
    QCOMPARE(pane->model()->rowCount(), 17);

    // A new catalog version: the view of the newest follows it.
    QSignalSpy imported(m_window.get(), &MainWindow::importFinished);
    QVERIFY(m_window->startImport(QStringLiteral(PB_SOURCE_DIR "/recipes/sample-2"),
                                  QStringLiteral("sample-2-copy")));
    QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 1, kTimeout);
    QVERIFY(imported.at(0).at(0).toBool());
    QTRY_COMPARE_WITH_TIMEOUT(version->count(), 3, kTimeout); // the version list is read on a worker
    QCOMPARE(pane->version(), QStringLiteral("sample-2-copy"));
}

void TestHealthPane::showInCatalog() {
    m_window->showHealth();
    QVERIFY(importFixture());
    HealthPane* pane = m_window->healthPane();
    QVERIFY(pane->selectRecipe(EvidenceFixture::signedRecipe()));
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->healthPane()->isLoadingRow(),
                             kTimeout); // the row is read on a worker
    auto* button = find<QPushButton>("inspectorShowRecipe");
    QVERIFY(button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(!m_window->isHealthShown());
    widgets::RecipeView* view = m_window->recipeView();
    QTRY_VERIFY_WITH_TIMEOUT(view->isVisible() && view->hasResult() &&
                                 view->recipe().name == EvidenceFixture::signedRecipe() &&
                                 view->recipe().catalogLabel == QLatin1String("sample-2"),
                             kTimeout);
    // And back: Ctrl+2 keeps the selection.
    find<QAction>("actionShowHealth")->trigger();
    QVERIFY(m_window->isHealthShown());
    QCOMPARE(m_window->healthPane()->inspector()->row().recipe, EvidenceFixture::signedRecipe());
    // The outside coordinate has no recipe to show.
    QVERIFY(pane->selectRecipe(EvidenceFixture::outsideRecipe()));
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->healthPane()->isLoadingRow(),
                             kTimeout); // the row is read on a worker
    QVERIFY(!button->isEnabled());
}

void TestHealthPane::importErrorNamesTheFile() {
    // An allowlist that names a signer's identity (PII) is refused, with its file and line.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString dir = tmp.filePath(QStringLiteral("evidence"));
    QVERIFY(pbtest::copyTree(m_evidenceDir, dir));
    const QString allowlist = dir + QStringLiteral("/allowlist.yaml");
    QVERIFY(EvidenceFixture::write(allowlist, "community:\n  - issuer: https://github.com/login/oauth\n"
                                              "    identity: alice@example.com\n"));
    m_window->showHealth();
    QVERIFY(waitForRows(16));
    QSignalSpy finished(m_window.get(), &MainWindow::evidenceImportFinished);
    QString boxName, boxText;
    pbgui::ModalWatch watch = pbgui::whenModal<QMessageBox>([&](QMessageBox* box) {
        boxName = box->objectName();
        boxText = box->text();
        box->accept();
    });
    QVERIFY(m_window->startEvidenceImport(dir));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
    QVERIFY(!finished.at(0).at(0).toBool());
    QCOMPARE(boxName, QStringLiteral("evidenceImportErrorBox"));
    QVERIFY2(boxText.contains(allowlist + QStringLiteral(":2")), qPrintable(boxText));
    QVERIFY(boxText.contains(QStringLiteral("may not name an identity")));
    QCOMPARE(m_window->lastEvidenceImportError(), finished.at(0).at(1).toString());
    QCOMPARE(store::EvidenceStore(*m_db->db).pointerCount(), 0);
    QVERIFY(find<QAction>("actionImportEvidence")->isEnabled());
    QCOMPARE(m_window->healthPane()->model()->rowCount(), 16);
}

void TestHealthPane::bundleInInspector() {
    // A summary bundle for the signed recipe whose performance phase has a failing test.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const pbgui::BundleDirFixture fixture(EvidenceFixture::signedRecipe(), 1);
    QVERIFY(!fixture.writeDirectory(tmp.filePath(QStringLiteral("bundles/h100"))).isEmpty());
    Result<int> imported =
        store::EvidenceStore(*m_db->db).importBundles(tmp.filePath(QStringLiteral("bundles")));
    QVERIFY2(imported, imported ? "" : qPrintable(imported.error().toString()));
    QCOMPARE(*imported, 1);

    m_window->showHealth();
    QVERIFY(importFixture());
    HealthPane* pane = m_window->healthPane();
    // Issue 30: the phase coverage the bundle gives ("deployment 1/1, performance 0/1, ...") is a
    // count: its column fits it whole, never "deployme…".
    {
        auto* table = find<QTableView>("healthTable");
        int withPhases = 0;
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            const QString text = table->model()->index(r, HealthModel::PhasesColumn).data().toString();
            if (text.isEmpty())
                continue;
            ++withPhases;
            QVERIFY2(table->columnWidth(HealthModel::PhasesColumn) >=
                         table->fontMetrics().horizontalAdvance(text) + 8,
                     qPrintable(QStringLiteral("'%1' in %2 px")
                                    .arg(text)
                                    .arg(table->columnWidth(HealthModel::PhasesColumn))));
        }
        QVERIFY(withPhases > 0);
    }
    widgets::EvidenceInspector* inspector = pane->inspector();
    BundleModel* model = inspector->bundleModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // HealthPane does not hand its database to the inspector yet; the inspector reads on a worker.
    inspector->setWorkspace(&m_db->workspace());
    QSignalSpy shown(inspector, &widgets::EvidenceInspector::bundlesShown);
    QVERIFY(pane->selectRecipe(EvidenceFixture::signedRecipe()));
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && !inspector->isLoadingBundles(), kTimeout);
    QCOMPARE(shown.last().at(0).toInt(), 1);
    QCOMPARE(model->rowCount(), 1);
    QVERIFY(find<QTreeView>("bundleTree")->isVisible());
    QVERIFY(find<QTreeView>("bundleTree")->isExpanded(model->bundleIndex(0)));

    const store::BundleRecord b = model->bundleAt(0); // a copy: the model changes below
    QCOMPARE(b.checkExit, 1);                         // valid, failed phases
    QCOMPARE(model->bundleIndex(0).data(BundleModel::StatusRole).toString(),
             QStringLiteral("valid, failed phases"));
    auto value = [&](const QModelIndex& i) {
        return i.siblingAtColumn(BundleModel::ValueColumn).data().toString();
    };
    QCOMPARE(value(model->fieldIndex(0, QStringLiteral("result"))), QStringLiteral("valid, failed phases"));
    QCOMPARE(value(model->fieldIndex(0, QStringLiteral("predicateType"))), fixture.predicateType);
    QCOMPARE(value(model->fieldIndex(0, QStringLiteral("aicrVersion"))), QStringLiteral("sample-2"));
    QVERIFY(value(model->fieldIndex(0, QStringLiteral("recipeDigest"))).startsWith(fixture.recipeDigest));
    QVERIFY(!model->isStale(0));
    QVERIFY(value(model->fieldIndex(0, QStringLiteral("source"))).contains(QStringLiteral("bundles/h100")));
    // An unsigned bundle says so (a signed one shows verified, failed or not checked).
    QCOMPARE(value(model->fieldIndex(0, QStringLiteral("signed"))),
             QStringLiteral("none (pending signature)"));

    // Every integrity step with its status and detail; none failed.
    const QModelIndex checks = model->checksIndex(0);
    QVERIFY(checks.isValid());
    QCOMPARE(model->rowCount(checks), static_cast<int>(b.steps.size()));
    QVERIFY(!b.steps.empty());
    for (int r = 0; r < model->rowCount(checks); ++r) {
        const QModelIndex step = model->index(r, 0, checks);
        QCOMPARE(step.data().toString(), b.steps[static_cast<size_t>(r)].name);
        QVERIFY(step.data(BundleModel::StatusRole).toString() != QLatin1String("failed"));
        QVERIFY(value(step).startsWith(evidence::stepStatusName(b.steps[static_cast<size_t>(r)].status)));
    }

    // Phases with their CTRF tests: the failing performance test, its message and duration.
    const QModelIndex perf = model->phaseIndex(0, QStringLiteral("performance"));
    QVERIFY(perf.isValid());
    QCOMPARE(value(perf), QStringLiteral("2 passed, 1 failed, 0 skipped"));
    QVERIFY(find<QTreeView>("bundleTree")->isExpanded(perf));
    QCOMPARE(model->rowCount(perf), 3);
    const QModelIndex failing = model->index(2, 0, perf);
    QCOMPARE(failing.data().toString(), QStringLiteral("performance-check-2"));
    QCOMPARE(failing.data(BundleModel::StatusRole).toString(), QStringLiteral("failed"));
    QCOMPARE(failing.data(BundleModel::ItemKindRole).value<BundleModel::ItemKind>(),
             BundleModel::ItemKind::Test);
    QCOMPARE(value(failing),
             QStringLiteral("failed · 1.5 s · %1").arg(pbgui::BundleDirFixture::failedTestMessage()));
    QCOMPARE(model->index(0, 0, perf).data(BundleModel::StatusRole).toString(), QStringLiteral("passed"));
    const QModelIndex deployment = model->phaseIndex(0, QStringLiteral("deployment"));
    QCOMPARE(model->rowCount(deployment), 4);
    QVERIFY(!find<QTreeView>("bundleTree")->isExpanded(deployment));
    QCOMPARE(model->rowCount(model->phaseIndex(0, QStringLiteral("conformance"))), 6);

    // A row without bundles says how to import them; the stale marking follows the catalog digest.
    shown.clear();
    QVERIFY(pane->selectRecipe(EvidenceFixture::pendingRecipe()));
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && !inspector->isLoadingBundles(), kTimeout);
    QCOMPARE(model->rowCount(), 0);
    QVERIFY(find<QLabel>("inspectorBundleMessage")->text().contains(QStringLiteral("--bundles")));
    std::vector<store::BundleRecord> one{b};
    model->setBundles(one, QString(64, QLatin1Char('f')));
    QVERIFY(model->isStale(0));
    QVERIFY(value(model->fieldIndex(0, QStringLiteral("recipeDigest"))).contains(QStringLiteral("STALE")));
    one.front().aicrVersion = QStringLiteral("dev");
    model->setBundles(one);
    QVERIFY(value(model->fieldIndex(0, QStringLiteral("aicrVersion"))).contains(QStringLiteral("dev build")));
}

QTEST_MAIN(TestHealthPane)
#include "tst_healthpane.moc"
