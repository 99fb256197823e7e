// Real widgets on a database holding the sample and four real AICR catalogs imported out of version
// order (2026-07-09 last), with the evidence of 2026-08-19:
//  - the Health view defaults to the newest version in version order, says where it came from and
//    marks the sample;
//  - the inspector of every row with pointers lists exactly the pointers its header counts; a row
//    whose evidence was recorded under an older name (or outside the version) says which pointers
//    name it and why they no longer match, and "Pointer YAML…" opens them;
//  - the wildcard leaf monitoring-hpa is shown by that name (never "recipe"), elided in the middle
//    with the full name in the tooltip;
//  - the report dialog's baseline picker defaults to the previous version in version order, shows
//    each version's origin, and choosing another baseline changes the changes section.
#include "../TestUtil.h"
#include "EvidenceInspector.h"
#include "GuiTestUtil.h"
#include "HealthModels.h"
#include "HealthPane.h"
#include "Plural.h"
#include "ReportDialog.h"
#include "YamlDialog.h"

#include "ops/ImportCatalog.h"
#include "ops/ImportEvidence.h"

#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>

using namespace pb;
using models::HealthModel;
using widgets::HealthPane;
using widgets::ReportDialog;

namespace {
constexpr int kTimeout = 60000;
}

class TestHealthTruth : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QLocale::setDefault(QLocale::c());
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/2026-08-19/recipes/evidence"));
        m_db = pbgui::seededDatabase();
        QVERIFY2(m_db->error.isEmpty(), qPrintable(m_db->error));
        for (const char* label : {"v0.11.1", "v0.14.0", "2026-08-19", "2026-07-09"}) {
            ops::ImportCatalogRequest r;
            r.label = QString::fromLatin1(label);
            r.dir = pbtest::realCatalog(r.label);
            Result<ops::ImportCatalogOutcome> o = ops::importCatalog(ops::Context(*m_db->db), r);
            QVERIFY2(o, o ? "" : qPrintable(o.error().toString()));
        }
        ops::ImportEvidenceRequest ev;
        ev.dir = pbtest::realCatalog(QStringLiteral("2026-08-19"));
        Result<ops::ImportEvidenceOutcome> imported = ops::importEvidence(ops::Context(*m_db->db), ev);
        QVERIFY2(imported, imported ? "" : qPrintable(imported.error().toString()));
    }

    void healthDefaultsToNewestAndSaysWhereFrom() {
        HealthPane pane(m_db->workspace());
        pane.resize(1400, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTRY_VERIFY_WITH_TIMEOUT(!pane.isLoading() && pane.model()->rowCount() > 0, kTimeout);
        QCOMPARE(pane.version(), QStringLiteral("2026-08-19"));
        auto* combo = pane.findChild<QComboBox*>(QStringLiteral("healthVersion"));
        QVERIFY(combo);
        QCOMPARE(combo->itemData(1).toString(), QStringLiteral("2026-07-09")); // newest first, version order
        QVERIFY(combo->itemData(0, Qt::ToolTipRole)
                    .toString()
                    .contains(pbtest::realCatalog(QStringLiteral("2026-08-19"))));
        QVERIFY(pane.sourceText().contains(QStringLiteral("2026-08-19")));
        QVERIFY(pane.sourceText().contains(pbtest::realCatalog(QStringLiteral("2026-08-19"))));
        QVERIFY(!pane.sourceText().contains(QStringLiteral("SAMPLE DATA")));

        QSignalSpy loaded(&pane, &HealthPane::loaded);
        QVERIFY(pane.setVersion(QStringLiteral("sample-2")));
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && !pane.isLoading(), kTimeout);
        QVERIFY(pane.sourceText().contains(QStringLiteral("SAMPLE DATA")));
        QVERIFY(pane.sourceText().contains(QStringLiteral("sample data")));
        QVERIFY(pane.sourceLabel()->isVisible());
    }

    // The inspector agrees with its header for every row with pointers; a row whose evidence no
    // longer matches names the pointers and says why; "Pointer YAML…" opens them.
    void inspectorNeverContradictsItself() {
        HealthPane pane(m_db->workspace());
        pane.resize(1400, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTRY_VERIFY_WITH_TIMEOUT(!pane.isLoading() && pane.model()->rowCount() > 0, kTimeout);
        widgets::EvidenceInspector* inspector = pane.inspector();
        auto* yaml = inspector->findChild<QPushButton*>(QStringLiteral("inspectorPointerYaml"));
        QVERIFY(yaml);
        int mismatched = 0, renamed = 0;
        const std::vector<evidence::HealthRow> rows = pane.model()->rows();
        for (const evidence::HealthRow& row : rows) {
            if (row.pointers == 0)
                continue;
            QVERIFY(pane.selectRecipe(row.recipe));
            QTRY_VERIFY(!pane.isLoadingRow()); // the row's pointers are read on a worker
            QCOMPARE(inspector->row().recipe, row.recipe);
            // The header's count and the pointers listed are the same pointers.
            QVERIFY2(inspector->headerText().contains(models::counted(row.pointers, QStringLiteral("pointer"),
                                                                      QStringLiteral("pointers"))),
                     qPrintable(inspector->headerText()));
            QCOMPARE(inspector->pointerModel()->rowCount(), row.pointers);
            QVERIFY2(!inspector->findChild<QLabel*>(QStringLiteral("inspectorMessage"))->isVisible(),
                     qPrintable(row.recipe));
            QVERIFY(yaml->isEnabled());
            const bool stale = row.status == evidence::HealthStatus::Stale || !row.inCatalog();
            if (stale) {
                ++mismatched;
                renamed += row.evidenceName.isEmpty() ? 0 : 1;
                const QString why = inspector->mismatchText();
                QVERIFY2(!why.isEmpty(), qPrintable(row.recipe));
                QVERIFY2(why.contains(QStringLiteral("no longer match")), qPrintable(why));
                for (int i = 0; i < inspector->pointerModel()->rowCount(); ++i)
                    QVERIFY2(why.contains(inspector->pointerModel()->pointerAt(i).file), qPrintable(why));
                QVERIFY(inspector->findChild<QLabel*>(QStringLiteral("inspectorMismatch"))->isVisible());
                // "Pointer YAML…" opens the pointer on view.
                QVERIFY(inspector->pointerTree()->currentIndex().isValid());
                yaml->click();
                auto* dlg =
                    inspector->window()->findChild<widgets::YamlDialog*>(QStringLiteral("pointerYamlDialog"));
                QVERIFY(dlg);
                QVERIFY(dlg->isVisible());
                delete dlg;
            } else {
                QVERIFY2(inspector->mismatchText().isEmpty(),
                         qPrintable(row.recipe + QStringLiteral(": ") + inspector->mismatchText()));
            }
        }
        QVERIFY2(mismatched > 0, "the real evidence of 2026-08-19 has rows that no longer match");
        QVERIFY2(renamed > 0,
                 "some of 2026-08-19's evidence names a leaf the catalog now resolves to a profiled recipe");
    }

    // A wildcard leaf is named by its overlay (never "recipe"), elided in the middle, the full name
    // in the tooltip; no two rows show the same name.
    void leafNamesNotRecipe() {
        HealthPane pane(m_db->workspace());
        pane.resize(1400, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTRY_VERIFY_WITH_TIMEOUT(!pane.isLoading() && pane.model()->rowCount() > 0, kTimeout);
        for (const QString& label :
             {QStringLiteral("2026-08-19"), QStringLiteral("v0.11.1"), QStringLiteral("sample-2")}) {
            if (pane.version() != label) {
                QSignalSpy loaded(&pane, &HealthPane::loaded);
                QVERIFY(pane.setVersion(label));
                QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && loaded.last().at(0).toString() == label &&
                                             !pane.isLoading(),
                                         kTimeout);
            }
            QTableView* table = pane.table();
            // A long name elides at its end, its tooltip has it whole; a status or a count is never cut,
            // on every version shown, not only the first (issue 30).
            QCOMPARE(table->textElideMode(), Qt::ElideRight);
            for (int c : {int(HealthModel::StatusColumn), int(HealthModel::SignersColumn)})
                for (int r = 0; r < table->model()->rowCount(); ++r) {
                    const QString text = table->model()->index(r, c).data().toString();
                    QVERIFY2(
                        table->columnWidth(c) >= table->fontMetrics().horizontalAdvance(text) + 8,
                        qPrintable(
                            QStringLiteral("%1: '%2' in %3 px").arg(label, text).arg(table->columnWidth(c))));
                }
            const QStringList shown = pbgui::column(*table->model(), HealthModel::RecipeColumn);
            QVERIFY2(!shown.contains(QStringLiteral("recipe")), qPrintable(label));
            QCOMPARE(QSet<QString>(shown.begin(), shown.end()).size(), shown.size());
            const int hpa = int(shown.indexOf(QStringLiteral("monitoring-hpa")));
            QVERIFY2(hpa >= 0, qPrintable(label));
            const QString tip =
                table->model()->index(hpa, HealthModel::RecipeColumn).data(Qt::ToolTipRole).toString();
            QVERIFY2(tip.startsWith(QStringLiteral("monitoring-hpa\n")), qPrintable(tip));
            QVERIFY(tip.contains(QStringLiteral("recipe name: recipe")));
            for (int r = 0; r < table->model()->rowCount(); ++r)
                QVERIFY(table->model()
                            ->index(r, HealthModel::RecipeColumn)
                            .data(Qt::ToolTipRole)
                            .toString()
                            .startsWith(shown.at(r)));
            QVERIFY(pane.selectRecipe(QStringLiteral("recipe")));
            QTRY_VERIFY(!pane.isLoadingRow());
            QCOMPARE(pane.inspector()->findChild<QLabel*>(QStringLiteral("inspectorTitle"))->text(),
                     QStringLiteral("monitoring-hpa"));
        }
        QCOMPARE(pane.inspector()->pointerTree()->textElideMode(), Qt::ElideMiddle);
    }

    // The baseline picker: previous in version order by default (import order differs), each version
    // with its origin, none allowed, another baseline changes the changes section.
    void reportBaselinePicker() {
        ReportDialog dialog(m_db->workspace());
        QSignalSpy ready(&dialog, &ReportDialog::previewReady);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && !dialog.isCollecting(), kTimeout);
        QComboBox* version = dialog.versionCombo();
        QComboBox* baseline = dialog.baselineCombo();
        QCOMPARE(version->currentData().toString(), QStringLiteral("2026-08-19"));
        QCOMPARE(baseline->currentData().toString(), QStringLiteral("2026-07-09"));
        QCOMPARE(dialog.baseline(), QStringLiteral("2026-07-09"));
        QVERIFY(dialog.data());
        QVERIFY(dialog.data()->diff);
        QCOMPARE(dialog.data()->diff->fromLabel, QStringLiteral("2026-07-09"));
        QVERIFY(dialog.preview()->toPlainText().contains(QStringLiteral("Changes since 2026-07-09")));
        // Every version names where it came from; the sample is marked.
        for (int i = 0; i < baseline->count(); ++i) {
            const QString label = baseline->itemData(i).toString();
            if (label == report::kNoBaseline)
                continue;
            QVERIFY2(baseline->itemData(i, Qt::ToolTipRole).toString().contains(QStringLiteral("Source: ")),
                     qPrintable(label));
            if (label.startsWith(QLatin1String("sample-")))
                QVERIFY(baseline->itemText(i).contains(QStringLiteral("sample data")));
        }
        QVERIFY(dialog.originLabel()->text().contains(pbtest::realCatalog(QStringLiteral("2026-08-19"))));
        QVERIFY(dialog.originLabel()->text().contains(pbtest::realCatalog(QStringLiteral("2026-07-09"))));

        ready.clear();
        QVERIFY(dialog.setBaseline(QStringLiteral("v0.14.0")));
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && !dialog.isCollecting() && dialog.data() &&
                                     dialog.data()->diff &&
                                     dialog.data()->diff->fromLabel == QLatin1String("v0.14.0"),
                                 kTimeout);
        QVERIFY(dialog.preview()->toPlainText().contains(QStringLiteral("Changes since v0.14.0")));

        ready.clear();
        QVERIFY(dialog.setBaseline(report::kNoBaseline));
        QTRY_VERIFY_WITH_TIMEOUT(
            ready.count() >= 1 && !dialog.isCollecting() && dialog.data() && !dialog.data()->diff, kTimeout);
        QVERIFY(dialog.preview()->toPlainText().contains(QStringLiteral("No baseline was chosen")));

        // Another version: its own previous in version order.
        ready.clear();
        version->setCurrentIndex(version->findData(QStringLiteral("2026-07-09")));
        QCOMPARE(dialog.baseline(), QStringLiteral("v0.14.0"));
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && !dialog.isCollecting() && dialog.data() &&
                                     dialog.data()->version.label == QLatin1String("2026-07-09") &&
                                     dialog.data()->diff,
                                 kTimeout);
        QCOMPARE(dialog.data()->diff->fromLabel, QStringLiteral("v0.14.0"));

        // The sample: marked in the preview.
        ready.clear();
        version->setCurrentIndex(version->findData(QStringLiteral("sample-2")));
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && !dialog.isCollecting() && dialog.data() &&
                                     dialog.data()->version.label == QLatin1String("sample-2"),
                                 kTimeout);
        QVERIFY(dialog.preview()->toPlainText().contains(report::sampleNote()));
        QVERIFY(dialog.originLabel()->text().contains(QStringLiteral("SAMPLE DATA")));
    }

  private:
    std::unique_ptr<pbgui::SeededDb> m_db;
};

QTEST_MAIN(TestHealthTruth)
#include "tst_healthtruth.moc"
