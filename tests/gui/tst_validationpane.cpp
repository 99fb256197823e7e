// The Validation view end to end against pb-kube-testserver (real HTTPS, real Jobs and Pods on the
// test server): pick the server's kubeconfig context and the embedded recipe whose performance phase
// checks nccl-all-reduce-bw ">= 300", run the performance phase, watch the check go running ->
// passed, read the NCCL table in the log, the run in the chart with its threshold and in the runs
// list, and reopen it from the database. Then cancel a check that never finishes: the run ends
// cancelled and no Job of it is left on the server.
#include "GuiTestUtil.h"
#include "PerfCharts.h"
#include "ValidationFixture.h"
#include "ValidationPane.h"

#include "store/RunStore.h"

#include <QJsonArray>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace pb::validation;
using pb::models::CheckTableModel;
using pb::models::ValidationController;
using pb::widgets::ValidationPane;

class TestValidationPane : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void init() {
        m_db = pbgui::seededDatabase();
        QVERIFY2(m_db->error.isEmpty(), qPrintable(m_db->error));
        m_workspace = std::make_unique<pb::models::Workspace>(m_db->path());
        m_pane = std::make_unique<ValidationPane>(*m_workspace);
        m_pane->resize(1400, 900);
        m_pane->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_pane.get()));
        QVERIFY(m_out.isValid());
        m_pane->setOutputDir(m_out.path());
    }

    void cleanup() {
        m_pane.reset();
        m_workspace.reset();
        m_db.reset();
    }

    void runPasses() {
        pbtest::KubeTestServer server;
        QVERIFY(server.start(pbgui::ncclScript(1500)));
        choose(server);

        QSignalSpy changes(m_pane->controller(), &ValidationController::checkChanged);
        QSignalSpy finished(m_pane->controller(), &ValidationController::finished);
        QSignalSpy shown(m_pane.get(), &ValidationPane::runShown);
        auto* start = pbgui::findNamed<QPushButton>(m_pane.get(), "startButton");
        QVERIFY(start && start->isEnabled());
        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY(m_pane->isRunning());
        QVERIFY(!start->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 90000);

        // running, then passed, by the controller and in the table.
        QStringList states;
        for (const QList<QVariant>& args : changes)
            states << checkStateName(args.at(0).value<CheckRun>().state);
        QVERIFY2(states.contains(QLatin1String("running")), qPrintable(states.join(u',')));
        QCOMPARE(states.last(), QStringLiteral("passed"));
        const QString banner = m_pane->bannerText();
        QVERIFY2(banner.startsWith(QLatin1String("Passed")), qPrintable(banner));
        const qint64 id = m_pane->controller()->runRowId();
        QVERIFY(id > 0);
        QVERIFY(QFileInfo::exists(m_pane->controller()->evidenceDir() + QStringLiteral("/manifest.json")));
        // The stored run is read again on the worker and shown.
        QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 1, 30000);
        QCOMPARE(shown.at(0).at(0).toLongLong(), id);
        verifyShowsPassedRun(id);

        // In the runs list, and the same when reopened from the database.
        QTRY_COMPARE(m_pane->runsModel()->rowCount(), 1);
        QCOMPARE(m_pane->runsModel()->run(0)->id, id);
        // The list read when the run was planned says "running"; the one read after it ended, "passed".
        QTRY_COMPARE(m_pane->runsModel()->run(0)->state, QStringLiteral("passed"));
        m_pane->logView()->clear();
        m_pane->ncclChart()->clearRuns();
        m_pane->checksModel()->clear();
        auto* runs = pbgui::findNamed<QTableView>(m_pane.get(), "runsTable");
        QVERIFY(runs);
        runs->clearSelection();
        runs->selectRow(0);
        QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 2, 30000);
        verifyShowsPassedRun(id);
        // Issue 30: one id per run: the list and the title show the run's uid, as validate prints it.
        const QString uid = m_pane->runsModel()->run(0)->runUid;
        QCOMPARE(uid.size(), 8);
        QCOMPARE(m_pane->runsModel()->index(0, pb::models::RunListModel::IdColumn).data().toString(), uid);
        const QString title = pbgui::findNamed<QLabel>(m_pane.get(), "validationRunTitle")->text();
        QVERIFY2(title.startsWith(QStringLiteral("Run %1 ").arg(uid)), qPrintable(title));
        QCOMPARE(m_pane->historyChart()->valueGraph()->dataCount(), 1);
        QCOMPARE(m_pane->historyChart()->valueGraph()->data()->at(0)->value, 386.56);
    }

    void cancelDeletesJobs() {
        pbtest::KubeTestServer server;
        QVERIFY(server.start(pbgui::ncclScript(0, /*neverFinish=*/true)));
        choose(server);
        QSignalSpy finished(m_pane->controller(), &ValidationController::finished);
        QTest::mouseClick(pbgui::findNamed<QPushButton>(m_pane.get(), "startButton"), Qt::LeftButton);
        CheckTableModel* checks = m_pane->checksModel();
        QTRY_VERIFY_WITH_TIMEOUT(checks->rowCount() == 1 &&
                                     checks->index(0, 0).data(CheckTableModel::StateRole).toString() ==
                                         QLatin1String("running"),
                                 60000);
        // The log follows the running check.
        QCOMPARE(m_pane->logCheck(), QStringLiteral("nccl-all-reduce-bw"));
        QTRY_VERIFY_WITH_TIMEOUT(
            m_pane->logView()->toPlainText().contains(QLatin1String("nccl-tests starting")), 30000);

        auto* cancel = pbgui::findNamed<QPushButton>(m_pane.get(), "cancelButton");
        QVERIFY(cancel && cancel->isEnabled());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QCOMPARE(cancel->text(), QStringLiteral("Cancelling…"));
        QVERIFY(m_pane->bannerText().startsWith(QLatin1String("Cancelling")));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QVERIFY(!m_pane->isRunning());
        QCOMPARE(m_pane->controller()->lastResult().state, RunState::Cancelled);
        QVERIFY2(m_pane->bannerText().startsWith(QLatin1String("Cancelled")),
                 qPrintable(m_pane->bannerText()));
        // The runs list is read again on the worker.
        QTRY_VERIFY(m_pane->runsModel()->rowCount() == 1 &&
                    m_pane->runsModel()->run(0)->state == QLatin1String("cancelled"));
        QVERIFY(checks->index(0, 0).data(CheckTableModel::StateRole).toString() != QLatin1String("running"));

        // No Job of this run is left on the cluster.
        std::unique_ptr<pb::kube::Client> client = server.client();
        QVERIFY(client);
        const QString runId = m_pane->controller()->lastResult().runId;
        QVERIFY(!runId.isEmpty());
        const pb::kube::ApiResponse jobs = client->get(pb::kube::resourcePath(
            QStringLiteral("batch/v1"), QStringLiteral("jobs"), QStringLiteral("aicr-validation")));
        QVERIFY2(jobs.ok(), qPrintable(jobs.message));
        for (const QJsonValue& j : jobs.object.value(QLatin1String("items")).toArray()) {
            const QJsonObject meta = j.toObject().value(QLatin1String("metadata")).toObject();
            QVERIFY2(!QJsonDocument(meta).toJson().contains(runId.toUtf8()),
                     qPrintable(meta.value(QLatin1String("name")).toString()));
        }
        QVERIFY(pbgui::findNamed<QPushButton>(m_pane.get(), "startButton")->isEnabled());
    }

    // Issue #20: a check whose pod is deleted is `other`, the run "Incomplete (cluster fault)"; what
    // the cleanup could not delete (the token user may not delete ConfigMaps) is shown with a button
    // that deletes it with the credentials chosen now.
    void incompleteRunAndLeftovers() {
        pbtest::KubeTestServer server;
        QJsonObject script = pbgui::ncclScript(3000);
        QJsonObject checks = script.value(QStringLiteral("checks")).toObject();
        QJsonObject nccl = checks.value(QStringLiteral("nccl-all-reduce-bw")).toObject();
        nccl.insert(QStringLiteral("podFault"), QStringLiteral("Deleted"));
        nccl.insert(QStringLiteral("faultAfterMs"), 100);
        checks.insert(QStringLiteral("nccl-all-reduce-bw"), nccl);
        script.insert(QStringLiteral("checks"), checks);
        script.insert(QStringLiteral("rbac"),
                      QJsonObject{{QStringLiteral("user"), QStringLiteral("jane")},
                                  {QStringLiteral("deny"), QJsonArray{QStringLiteral("delete configmaps")}}});
        QVERIFY(server.start(script));
        m_pane->addKubeconfig(server.kubeconfig());
        QVERIFY(m_pane->selectContext(server.kubeconfig(), QStringLiteral("pb-token")));
        QTRY_VERIFY(m_pane->selectRecipe(QLatin1String(pbgui::kNcclVersion),
                                         QLatin1String(pbgui::kNcclRecipe))); // read on the worker
        m_pane->setPhases({QStringLiteral("performance")});
        QSignalSpy finished(m_pane->controller(), &ValidationController::finished);
        QTest::mouseClick(pbgui::findNamed<QPushButton>(m_pane.get(), "startButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(m_pane->controller()->lastResult().state, RunState::Incomplete);
        QVERIFY2(m_pane->bannerText().startsWith(QLatin1String("Incomplete (cluster fault)")),
                 qPrintable(m_pane->bannerText()));
        QCOMPARE(m_pane->checksModel()->index(0, CheckTableModel::StateColumn).data().toString(),
                 QStringLiteral("other"));
        QTRY_VERIFY(m_pane->runsModel()->rowCount() == 1 &&
                    m_pane->runsModel()->run(0)->state == QLatin1String("incomplete"));

        QLabel* left = m_pane->leftoversLabel();
        QPushButton* del = m_pane->deleteLeftoversButton();
        // Shown once the stored run is read again on the worker.
        QTRY_VERIFY(left->isVisible() && del->isVisible() && del->isEnabled());
        QVERIFY2(left->text().contains(QLatin1String("configmaps")), qPrintable(left->text()));

        // Delete them with the certificate user (allowed), chosen in the cluster list.
        QVERIFY(m_pane->selectContext(server.kubeconfig(), QStringLiteral("pb-cert")));
        QSignalSpy cleaned(m_pane->controller(), &ValidationController::cleanupFinished);
        QTest::mouseClick(del, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(cleaned.size(), 1, 30000);
        QCOMPARE(cleaned.first().at(2).toInt(), 0);
        QTRY_VERIFY(!left->isVisible());
        std::unique_ptr<pb::kube::Client> client = server.client();
        const pb::kube::ApiResponse cms =
            client->get(QStringLiteral("/api/v1/namespaces/aicr-validation/configmaps"));
        QVERIFY(cms.ok());
        const QString runId = m_pane->controller()->lastResult().runId;
        for (const QJsonValue& j : cms.object.value(QLatin1String("items")).toArray())
            QVERIFY(!j.toObject()
                         .value(QLatin1String("metadata"))
                         .toObject()
                         .value(QLatin1String("name"))
                         .toString()
                         .endsWith(runId));
    }

    // Issue 30: a summary is a recount of its details. For stored runs of every mix (all passed, one
    // failed, one that could not run, all skipped), the runs list's Checks column and the banner
    // say what the run's check table shows when the run is opened.
    void summariesAreRecounts() {
        struct Spec {
            const char* id;
            std::vector<CheckState> states;
            RunState state;
        };
        const std::vector<Spec> specs = {
            {"recount-passed",
             {CheckState::Passed, CheckState::Passed, CheckState::Skipped},
             RunState::Passed},
            {"recount-failed",
             {CheckState::Passed, CheckState::Failed, CheckState::Passed},
             RunState::Failed},
            {"recount-other", {CheckState::Passed, CheckState::Other}, RunState::Incomplete},
            {"recount-skipped", {CheckState::Skipped, CheckState::Skipped}, RunState::Skipped},
        };
        int day = 1;
        for (const Spec& spec : specs) {
            RunResult run;
            run.runId = QString::fromLatin1(spec.id);
            run.started = QDateTime(QDate(2026, 11, day++), QTime(10, 0), QTimeZone::utc());
            run.finished = run.started.addSecs(600);
            run.phasesRun = {QStringLiteral("deployment")};
            int i = 0;
            for (CheckState st : spec.states) {
                CheckRun c;
                c.phase = QStringLiteral("deployment");
                c.name = QStringLiteral("check-%1").arg(++i);
                c.state = st;
                c.message = checkStateName(st);
                c.started = run.started;
                c.finished = run.finished;
                run.checks.push_back(c);
            }
            run.state = spec.state;
            pb::store::RunHeader header;
            header.source = QStringLiteral("import");
            header.recipeName = QStringLiteral("recount-recipe");
            header.coordinate = header.recipeName;
            QVERIFY(pb::store::RunStore(*m_db->db).saveImported(header, run, {}));
        }
        ValidationPane pane(*m_workspace);
        pane.resize(1400, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTRY_COMPARE_WITH_TIMEOUT(pane.runsModel()->rowCount(), int(specs.size()), 30000);
        QSignalSpy shown(&pane, &ValidationPane::runShown);
        auto* table = pbgui::findNamed<QTableView>(&pane, "runsTable");
        QVERIFY(table);
        for (int row = 0; row < pane.runsModel()->rowCount(); ++row) {
            const QString listed =
                pane.runsModel()->index(row, pb::models::RunListModel::ChecksColumn).data().toString();
            const qsizetype before = shown.size();
            table->clearSelection();
            table->selectRow(row);
            QTRY_VERIFY_WITH_TIMEOUT(shown.size() > before, 30000);
            std::map<QString, int> recount;
            CheckTableModel* checks = pane.checksModel();
            for (int r = 0; r < checks->rowCount(); ++r)
                ++recount[checks->index(r, CheckTableModel::StateColumn).data().toString()];
            const int total = checks->rowCount(), passed = recount[QStringLiteral("passed")],
                      other = recount[QStringLiteral("other")];
            const QString expected =
                other > 0 ? QStringLiteral("%1/%2 passed, %3 other").arg(passed).arg(total).arg(other)
                          : QStringLiteral("%1/%2 passed").arg(passed).arg(total);
            QCOMPARE(listed, expected);
            const QString banner = pane.bannerText();
            const QString state =
                pane.runsModel()->index(row, pb::models::RunListModel::StateColumn).data().toString();
            if (state == QLatin1String("passed"))
                QVERIFY2(banner.contains(QStringLiteral("%1 of %2 checks passed").arg(passed).arg(total)),
                         qPrintable(banner));
            if (state == QLatin1String("incomplete"))
                QVERIFY2(banner.contains(QStringLiteral("%1 check").arg(other)), qPrintable(banner));
            if (recount[QStringLiteral("failed")] > 0)
                QVERIFY2(banner.startsWith(QLatin1String("Failed")), qPrintable(banner));
            if (recount[QStringLiteral("skipped")] == total)
                QVERIFY2(banner.startsWith(QLatin1String("Nothing judged")), qPrintable(banner));
        }
    }

  private:
    void choose(pbtest::KubeTestServer& server) {
        m_pane->addKubeconfig(server.kubeconfig());
        QVERIFY(m_pane->selectContext(server.kubeconfig(), QStringLiteral("pb-cert")));
        QTRY_VERIFY(m_pane->selectRecipe(QLatin1String(pbgui::kNcclVersion),
                                         QLatin1String(pbgui::kNcclRecipe))); // read on the worker
        m_pane->setPhases({QStringLiteral("performance")});
    }

    void verifyShowsPassedRun(qint64 id) {
        CheckTableModel* checks = m_pane->checksModel();
        QCOMPARE(checks->rowCount(), 1);
        QCOMPARE(checks->index(0, CheckTableModel::CheckColumn).data().toString(),
                 QStringLiteral("nccl-all-reduce-bw"));
        QCOMPARE(checks->index(0, CheckTableModel::StateColumn).data().toString(), QStringLiteral("passed"));
        QCOMPARE(checks->index(0, CheckTableModel::PhaseColumn).data().toString(),
                 QStringLiteral("performance"));
        QTRY_VERIFY(m_pane->logView()->toPlainText().contains(QLatin1String("8589934592")));
        QVERIFY(m_pane->logView()->toPlainText().contains(QLatin1String("out-of-place")));
        QVERIFY(m_pane->logView()->toPlainText().contains(QLatin1String("386.56")));
        pb::widgets::NcclChart* chart = m_pane->ncclChart();
        QCOMPARE(chart->runCount(), 1);
        QCOMPARE(chart->outOfPlaceGraph(0)->dataCount(), 8);
        // The legend names the source: the context and the run's id, not "run N".
        QVERIFY2(chart->outOfPlaceGraph(0)->name().contains(
                     QStringLiteral("pb-cert run %1").arg(m_pane->controller()->lastResult().runId)),
                 qPrintable(chart->outOfPlaceGraph(0)->name()));
        Q_UNUSED(id)
        QVERIFY(chart->thresholdLine());
        QCOMPARE(chart->thresholdLine()->point1->coords().y(), 300.0);
        QCOMPARE(chart->toleranceLine()->point1->coords().y(), 270.0);
        chart->scoredMarker()->updatePosition();
        QCOMPARE(chart->scoredMarker()->position->value(), 386.56);
    }

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<pb::models::Workspace> m_workspace;
    std::unique_ptr<ValidationPane> m_pane;
    QTemporaryDir m_out;
};

QTEST_MAIN(TestValidationPane)
#include "tst_validationpane.moc"
