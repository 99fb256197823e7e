// The Sign, Verify, Receipts and Validation views touch the database only on the workspace's
// workers: each view is built on a models::Workspace over a seeded SQLite file with
// db::setGuiThreadObserver() installed, then made to do its reads and its writes (a key made, a
// trusted root imported and a bundle verified, the ledger read, exported and records imported,
// the runs and recipes listed); every test fails with the statements that ran on the GUI thread.
#include "GuiTestUtil.h"
#include "OpRunner.h"
#include "ReceiptModels.h"
#include "ReceiptsPane.h"
#include "SignPane.h"
#include "SigstoreCases.h"
#include "TestUtil.h"
#include "ValidationPane.h"
#include "VerifyPane.h"
#include "Workspace.h"
#include "db/GuiThreadGuard.h"

#include <QLineEdit>
#include <QLocale>
#include <QMutex>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <QThread>

#include <optional>

using namespace pb;

namespace {

constexpr int kTimeout = 60000;
// A version and recipe of the seeded sample catalog (as ValidationFixture.h's NCCL recipe).
constexpr const char* kVersion = "sample-2";
constexpr const char* kRecipe = "h100-eks-ubuntu-training-kubeflow";

} // namespace

class TestPaneGuiThread : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void signView();
    void verifyView();
    void receiptsView();
    void validationView();
    void runnerReportsProgress();

  private:
    QStringList calls();
    static QString report(const QStringList& calls);

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<models::Workspace> m_workspace;
    QTemporaryDir m_tmp;
    QMutex m_mutex;
    QStringList m_calls;
};

void TestPaneGuiThread::initTestCase() {
    QLocale::setDefault(QLocale::c());
    m_db = pbgui::seededDatabase(); // the fixture writes on this thread, before the hook
    QVERIFY2(m_db->error.isEmpty(), qPrintable(m_db->error));
    db::setGuiThreadObserver([this](const QString& sql) {
        const QMutexLocker lock(&m_mutex);
        m_calls << sql.simplified().left(160);
    });
    m_workspace = std::make_unique<models::Workspace>(m_db->path());
}

void TestPaneGuiThread::cleanupTestCase() {
    m_workspace.reset();
    db::setGuiThreadObserver({});
    m_db.reset();
}

void TestPaneGuiThread::init() {
    const QMutexLocker lock(&m_mutex);
    m_calls.clear();
}

QStringList TestPaneGuiThread::calls() {
    const QMutexLocker lock(&m_mutex);
    return m_calls;
}

QString TestPaneGuiThread::report(const QStringList& calls) {
    return QStringLiteral("%1 database call(s) on the GUI thread:\n").arg(calls.size()) + calls.join(u'\n');
}

void TestPaneGuiThread::signView() {
    widgets::SignPane pane(*m_workspace);
    pane.resize(1200, 800);
    pane.show();
    QSignalSpy loaded(&pane, &widgets::SignPane::keysLoaded);
    QVERIFY(loaded.wait(kTimeout));
    // A key made through the dialog: the keygen, the stored public key and the lists read again.
    widgets::KeyDialog* dialog = pane.newKey();
    QVERIFY(dialog);
    dialog->setOutputPath(m_tmp.filePath(QStringLiteral("guard.key")));
    QTest::keyClicks(pbgui::findNamed<QLineEdit>(dialog, "keyPassphrase"),
                     QStringLiteral("guard passphrase"));
    QTest::keyClicks(pbgui::findNamed<QLineEdit>(dialog, "keyPassphraseRepeat"),
                     QStringLiteral("guard passphrase"));
    QTest::mouseClick(pbgui::findNamed<QPushButton>(dialog, "keyRunButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(pane.keysModel()->rowCount(), 1, kTimeout);
    m_workspace->waitForDone();
    const QStringList c = calls();
    QVERIFY2(c.isEmpty(), qPrintable(report(c)));
}

void TestPaneGuiThread::verifyView() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
    const std::optional<pbgui::SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("happy-path-v0.3"));
    QVERIFY(c);
    widgets::VerifyPane pane(*m_workspace);
    pane.resize(1400, 900);
    pane.show();
    QSignalSpy imported(&pane, &widgets::VerifyPane::trustedRootImported);
    QVERIFY(pane.importTrustedRoot(c->trustedRoot()));
    QVERIFY(imported.wait(kTimeout));
    pane.setBundlePath(c->bundle());
    pane.setArtifactPath(c->artifact());
    if (c->mode == QLatin1String("key"))
        pane.setKeyPath(c->key());
    else
        pane.setIdentity(c->identity, c->issuer);
    QSignalSpy finished(&pane, &widgets::VerifyPane::verificationFinished);
    QVERIFY2(pane.verify(), qPrintable(pane.lastError()));
    QVERIFY(finished.wait(kTimeout));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(2).toString()));
    QCOMPARE(pane.historyModel()->rowCount(), 1);
    QSignalSpy history(&pane, &widgets::VerifyPane::historyLoaded);
    pane.reloadHistory();
    QVERIFY(history.wait(kTimeout));
    m_workspace->waitForDone();
    const QStringList calls = this->calls();
    QVERIFY2(calls.isEmpty(), qPrintable(report(calls)));
}

void TestPaneGuiThread::receiptsView() {
    widgets::ReceiptsPane pane(*m_workspace);
    pane.resize(1100, 700);
    pane.show();
    QTRY_VERIFY_WITH_TIMEOUT(pane.ledgerModel()->rowCount() > 0, kTimeout);
    QSignalSpy exported(&pane, &widgets::ReceiptsPane::exportFinished);
    QVERIFY(pane.exportLedgerTo(m_tmp.filePath(QStringLiteral("ledger.json"))));
    QVERIFY(exported.wait(kTimeout));
    QVERIFY2(exported.at(0).at(0).toBool(), qPrintable(exported.at(0).at(1).toString()));
    QSignalSpy imported(&pane, &widgets::ReceiptsPane::recordsImported);
    QVERIFY(pane.importRecords(pbtest::fixture(QStringLiteral("receipts/entry"))));
    QVERIFY(imported.wait(kTimeout));
    QVERIFY2(imported.at(0).at(0).toBool(), qPrintable(imported.at(0).at(1).toString()));
    QVERIFY(pane.recordModel()->rowCount() > 0);
    m_workspace->waitForDone();
    const QStringList c = calls();
    QVERIFY2(c.isEmpty(), qPrintable(report(c)));
}

void TestPaneGuiThread::validationView() {
    widgets::ValidationPane pane(*m_workspace);
    pane.resize(1400, 900);
    pane.show();
    QSignalSpy runs(&pane, &widgets::ValidationPane::runsLoaded);
    pane.reload();
    QVERIFY(runs.wait(kTimeout));
    QTRY_VERIFY_WITH_TIMEOUT(pane.selectRecipe(QLatin1String(kVersion), QLatin1String(kRecipe)), kTimeout);
    m_workspace->waitForDone();
    const QStringList c = calls();
    QVERIFY2(c.isEmpty(), qPrintable(report(c)));
}

// runInView's progress callback: every step the job reports reaches the view's thread in order,
// before the result, and the job's read runs on the worker.
void TestPaneGuiThread::runnerReportsProgress() {
    QWidget view;
    QStringList seen;
    bool onGuiThread = true;
    std::optional<Result<qint64>> result;
    widgets::runInView<qint64>(
        &view, *m_workspace,
        [](const ops::Context& ctx) -> Result<qint64> {
            QSqlQuery q(ctx.db().sql());
            if (!q.exec(QStringLiteral("SELECT count(*) FROM catalog_versions")) || !q.next())
                return makeError(q.lastError().text());
            for (int i = 1; i <= 3; ++i)
                ctx.progress(i, 3, QStringLiteral("step %1").arg(i));
            return q.value(0).toLongLong();
        },
        [&](const Result<qint64>& r) { result = r; },
        widgets::RunView().onProgress([&](const ops::Progress& p) {
            onGuiThread = onGuiThread && QThread::currentThread() == view.thread();
            seen << QStringLiteral("%1/%2 %3").arg(p.done).arg(p.total).arg(p.what);
        }));
    QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), kTimeout);
    QVERIFY2(bool(*result), *result ? "" : qPrintable(result->error().toString()));
    QCOMPARE(**result, qint64(2)); // the sample catalog's two versions
    QCOMPARE(seen, (QStringList{QStringLiteral("1/3 step 1"), QStringLiteral("2/3 step 2"),
                                QStringLiteral("3/3 step 3")}));
    QVERIFY(onGuiThread);
    const QStringList c = calls();
    QVERIFY2(c.isEmpty(), qPrintable(report(c)));
}

QTEST_MAIN(TestPaneGuiThread)
#include "tst_paneguithread.moc"
