// The Verify view of the real MainWindow on a temp database, driven like an auditor drives it, on
// the Sigstore conformance cases of ../shared/data: a trusted root imported through its dialog (and
// remembered by the next window), a bundle, its artifact (or digest) and the signer typed in,
// Verify clicked and the verdict awaited; every step, the certificate, the log entry and the
// timestamps on view; an identity mismatch with expected and found side by side; a corrupted
// inclusion proof failing on its step; the history, in the view and in the database, reloading a
// stored result; the commands put on the clipboard (and run, through a shell, against the CLI); and
// files dropped on the window.
#include "GuiTestUtil.h"
#include "MainWindow.h"
#include "SigstoreCases.h"
#include "VerifyModels.h"
#include "VerifyPane.h"
#include "store/VerificationStore.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QTextEdit>
#include <QToolBar>

using namespace pb;
using models::LogEntriesModel;
using models::VerificationStepsModel;
using pbgui::SigstoreCase;
using widgets::MainWindow;
using widgets::VerifyPane;

namespace {

constexpr int kTimeout = 30000;

// Runs a copied command line through /bin/sh with the CLI first on PATH: "VERIFIED" (exit 0),
// "NOT VERIFIED" (exit 1) or what went wrong.
QString runInShell(const QString& command) {
    const QFileInfo cli(QStringLiteral(PB_CLI_BINARY));
    if (!cli.isExecutable())
        return QStringLiteral("VERIFIED"); // not built here (the CLI's own tests cover it)
    QProcess sh;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"),
               cli.absolutePath() + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
    sh.setProcessEnvironment(env);
    sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command});
    if (!sh.waitForFinished(kTimeout))
        return QStringLiteral("timed out");
    const QString out = QString::fromUtf8(sh.readAllStandardOutput());
    if (sh.exitCode() == 0 && out.contains(QStringLiteral(": VERIFIED")))
        return QStringLiteral("VERIFIED");
    if (sh.exitCode() == 1 && out.contains(QStringLiteral(": NOT VERIFIED")))
        return QStringLiteral("NOT VERIFIED");
    return QStringLiteral("exit %1: %2").arg(sh.exitCode()).arg(QString::fromUtf8(sh.readAllStandardError()));
}

QStringList stepColumn(const QTableView* view, int col) {
    QStringList out;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        out << view->model()->index(r, col).data().toString();
    return out;
}

} // namespace

class TestVerifyPane : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void init();
    void cleanup();

    void viewIsDiscoverable();
    void missingInputsAreNamed();
    void trustedRootImportedAndRemembered();
    void verifiesPassingCase_data();
    void verifiesPassingCase();
    void identityMismatchSideBySide();
    void failingCaseFailsOnItsStep();
    void keyAndDigestModes();
    void historyInViewAndDatabase();
    void copyAsCommand();
    void dropBundleOnWindow();

  private:
    template <typename T> T* find(const char* name) { return pbgui::findNamed<T>(m_window.get(), name); }
    VerifyPane* pane() const { return m_window->verifyPane(); }
    // Types the case's inputs into the pane (root imported first) and clicks Verify; true when the
    // verdict arrived. `identity` replaces the manifest's.
    bool fillAndVerify(const SigstoreCase& c, const QString& identity = {});
    bool clickVerify();
    // Imports a trusted root through the pane (on its worker) and waits until it is selected.
    bool importRoot(const QString& path);

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<MainWindow> m_window;
};

void TestVerifyPane::initTestCase() {
    QLocale::setDefault(QLocale::c());
}

void TestVerifyPane::init() {
    const QString error = pbgui::openWindow(m_db, m_window);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestVerifyPane::cleanup() {
    pbgui::closeWindow(m_db, m_window);
}

bool TestVerifyPane::clickVerify() {
    QSignalSpy finished(pane(), &VerifyPane::verificationFinished);
    auto* button = find<QPushButton>("verifyButton");
    QTest::mouseClick(button, Qt::LeftButton);
    if (!pane()->isVerifying())
        return false;
    // The worker runs; the GUI says so and refuses a second run meanwhile.
    if (button->isEnabled() || !find<QProgressBar>("verifyBusy")->isVisible() || pane()->verify())
        return false;
    if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, kTimeout))
        return false;
    return button->isEnabled() && !find<QProgressBar>("verifyBusy")->isVisible();
}

bool TestVerifyPane::importRoot(const QString& path) {
    QSignalSpy imported(pane(), &VerifyPane::trustedRootImported);
    QSignalSpy failed(pane(), &VerifyPane::trustedRootImportFailed);
    if (!pane()->importTrustedRoot(path))
        return false;
    return QTest::qWaitFor([&] { return !imported.isEmpty() || !failed.isEmpty(); }, kTimeout) &&
           !imported.isEmpty();
}

bool TestVerifyPane::fillAndVerify(const SigstoreCase& c, const QString& identity) {
    if (!importRoot(c.trustedRoot()))
        return false;
    find<QLineEdit>("verifyBundlePath")->setText(c.bundle());
    find<QRadioButton>("verifyArtifactFileMode")->click();
    find<QLineEdit>("verifyArtifactPath")->setText(c.artifact());
    if (c.mode == QLatin1String("key")) {
        find<QRadioButton>("verifyKeyMode")->click();
        find<QLineEdit>("verifyKeyPath")->setText(c.key());
    } else {
        find<QRadioButton>("verifyIdentityMode")->click();
        auto* id = find<QLineEdit>("verifyIdentity");
        id->clear();
        QTest::keyClicks(id, identity.isEmpty() ? c.identity : identity);
        auto* issuer = find<QLineEdit>("verifyIssuer");
        issuer->clear();
        QTest::keyClicks(issuer, c.issuer);
    }
    return clickVerify();
}

void TestVerifyPane::viewIsDiscoverable() {
    auto* action = find<QAction>("actionShowVerify");
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_3));
    QVERIFY(find<QToolBar>("viewToolBar")->actions().contains(action));
    QVERIFY(!m_window->isVerifyShown());
    action->trigger();
    QVERIFY(m_window->isVerifyShown());
    QVERIFY(action->isChecked());
    QCOMPARE(pane()->objectName(), QStringLiteral("verifyPane"));
    QVERIFY(pane()->isVisible());
    // Every input and output has a name to find it by.
    for (const char* name :
         {"verifyBundlePath",  "verifyArtifactPath", "verifyDigest",         "verifyIdentity",
          "verifyIssuer",      "verifyKeyPath",      "verifyIdentityRegexp", "verifyIssuerRegexp",
          "verifyTrustedRoot", "verifyImportRoot",   "verifyButton",         "verifySteps",
          "verifyVerdict",     "verifyCertificate",  "verifyLogEntries",     "verifyTimestamps",
          "verifyHistory",     "verifyCopyCommand",  "verifyCopyCosign",     "verifyExpected",
          "verifyFound"})
        QVERIFY2(m_window->findChild<QWidget*>(QLatin1String(name)), name);
    for (QWidget* w : pane()->findChildren<QWidget*>()) {
        const bool interactive = qobject_cast<QAbstractButton*>(w) || qobject_cast<QLineEdit*>(w) ||
                                 qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractItemView*>(w) ||
                                 qobject_cast<QTextEdit*>(w);
        const QWidget* parent = w->parentWidget();
        const bool internal = qobject_cast<QHeaderView*>(w) || qobject_cast<const QLineEdit*>(parent) ||
                              qobject_cast<const QAbstractItemView*>(parent) || parent->inherits("QComboBox");
        if (interactive && !internal && w->objectName().isEmpty())
            QFAIL(qPrintable(QStringLiteral("unnamed %1 in %2")
                                 .arg(QLatin1String(w->metaObject()->className()), parent->objectName())));
    }
    // Before anything is verified: what to do, and no stored root yet.
    QVERIFY(find<QLabel>("verifyPlaceholder")->isVisible());
    QVERIFY(find<QLabel>("verifyPlaceholder")->text().contains(QStringLiteral(".sigstore.json")));
    QTRY_COMPARE(find<QComboBox>("verifyTrustedRoot")->count(), 1); // read on the worker
    QCOMPARE(pane()->selectedTrustedRoot(), 0);
    QCOMPARE(pane()->historyModel()->rowCount(), 0);
    // Back to the catalog.
    find<QAction>("actionShowCatalog")->trigger();
    QVERIFY(!m_window->isVerifyShown());
}

void TestVerifyPane::missingInputsAreNamed() {
    m_window->showVerify();
    auto* message = find<QLabel>("verifyMessage");
    QVERIFY(!pane()->verify());
    QVERIFY(message->isVisible());
    QVERIFY(message->text().contains(QStringLiteral("bundle")));
    find<QLineEdit>("verifyBundlePath")->setText(QStringLiteral("/nonexistent/b.sigstore.json"));
    find<QLineEdit>("verifyArtifactPath")->setText(QStringLiteral("/nonexistent/artifact"));
    QVERIFY(!pane()->verify());
    QVERIFY2(message->text().contains(QStringLiteral("identity")), qPrintable(message->text()));
    find<QLineEdit>("verifyIdentity")->setText(QStringLiteral("someone@example.com"));
    find<QLineEdit>("verifyIssuer")->setText(QStringLiteral("https://accounts.google.com"));
    QVERIFY(!pane()->verify());
    QVERIFY(message->text().contains(QStringLiteral("trusted root")));
    find<QRadioButton>("verifyArtifactDigestMode")->click();
    find<QLineEdit>("verifyDigest")->setText(QStringLiteral("sha256:abc"));
    QVERIFY(!pane()->verify());
    QVERIFY(message->text().contains(QStringLiteral("sha256:<64 hex digits>")));
    QVERIFY(!pane()->isVerifying());

    // A bundle that cannot be read: the verdict says why, and nothing is stored.
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
    QVERIFY(
        importRoot(pbtest::sharedData(QStringLiteral("sigstore/cases/happy-path-v0.3/trusted_root.json"))));
    find<QLineEdit>("verifyDigest")
        ->setText(QStringLiteral("sha256:a0cfc71271d6e278e57cd332ff957c3f7043fdda354c4cbb190a30d56efa01bf"));
    QSignalSpy finished(pane(), &VerifyPane::verificationFinished);
    QVERIFY(pane()->verify());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
    QCOMPARE(finished.at(0).at(1).toLongLong(), 0);
    QVERIFY(finished.at(0).at(2).toString().contains(QStringLiteral("/nonexistent/b.sigstore.json")));
    QCOMPARE(pane()->verdictText(), QStringLiteral("Cannot verify"));
    QVERIFY(
        m_window->statusBar()->currentMessage().startsWith(QStringLiteral("Cannot verify: /nonexistent/")));
    QVERIFY(message->text().contains(QStringLiteral("/nonexistent/b.sigstore.json")));
    QCOMPARE(store::VerificationStore(*m_db->db).recent()->size(), size_t(0));
}

void TestVerifyPane::trustedRootImportedAndRemembered() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
    m_window->showVerify();
    const QString root =
        pbtest::sharedData(QStringLiteral("sigstore/cases/rekor2-happy-path/trusted_root.json"));

    // Import…: the file dialog, then the root stored as the default and selected.
    QString dialogName;
    pbgui::ModalWatch watch = pbgui::whenModal<QFileDialog>([&](QFileDialog* d) {
        dialogName = d->objectName();
        d->selectFile(root);
        static_cast<QDialog*>(d)->accept();
    });
    QSignalSpy imported(pane(), &VerifyPane::trustedRootImported);
    QTest::mouseClick(find<QPushButton>("verifyImportRoot"), Qt::LeftButton);
    QCOMPARE(dialogName, QStringLiteral("verifyImportRootDialog"));
    QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 1, kTimeout); // imported on the worker
    auto* combo = find<QComboBox>("verifyTrustedRoot");
    QCOMPARE(combo->count(), 1);
    QVERIFY2(combo->currentText().contains(QStringLiteral("(default)")), qPrintable(combo->currentText()));
    QCOMPARE(pane()->selectedTrustedRoot(), imported.at(0).at(0).toLongLong());
    Result<std::vector<store::StoredTrustedRoot>> roots = store::VerificationStore(*m_db->db).trustedRoots();
    QVERIFY(roots);
    QCOMPARE(roots->size(), size_t(1));
    QVERIFY(roots->front().isDefault);
    QVERIFY(combo->currentText().contains(roots->front().sha256.left(8)));

    // A second root becomes the default; the first stays listed.
    QVERIFY(
        importRoot(pbtest::sharedData(QStringLiteral("sigstore/cases/happy-path-v0.3/trusted_root.json"))));
    QCOMPARE(combo->count(), 2);
    const qint64 second = pane()->selectedTrustedRoot();
    QVERIFY(second != imported.at(0).at(0).toLongLong());

    // Not a trusted root: an error box names the file, nothing is stored.
    QTemporaryDir tmp;
    const QString bogus = tmp.filePath(QStringLiteral("trusted_root.json"));
    {
        QFile f(bogus);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"({"mediaType": "application/vnd.dev.sigstore.trustedroot+json;version=0.1", "tlogs": [{}]})");
    }
    QString boxName, boxText;
    pbgui::ModalWatch fileWatch = pbgui::whenModal<QFileDialog>([&](QFileDialog* d) {
        d->selectFile(bogus);
        static_cast<QDialog*>(d)->accept();
        // The error box comes next.
    });
    pbgui::ModalWatch boxWatch = pbgui::whenModal<QMessageBox>([&](QMessageBox* box) {
        boxName = box->objectName();
        boxText = box->text();
        box->accept();
    });
    QTest::mouseClick(find<QPushButton>("verifyImportRoot"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(boxName, QStringLiteral("verifyImportRootErrorBox"), kTimeout);
    QVERIFY2(boxText.contains(bogus), qPrintable(boxText));
    QCOMPARE(store::VerificationStore(*m_db->db).trustedRoots()->size(), size_t(2));

    // The next start of the app picks the default root by itself: it is in the database.
    m_window.reset();
    m_window = std::make_unique<MainWindow>(m_db->workspace());
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QTRY_COMPARE(pane()->selectedTrustedRoot(), second);
    QCOMPARE(find<QComboBox>("verifyTrustedRoot")->count(), 2);
}

void TestVerifyPane::verifiesPassingCase_data() {
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QStringList>("notApplicable"); // steps the case skips (key mode, no timestamp)
    QTest::addRow("happy-path-v0.3") << QStringLiteral("happy-path-v0.3")
                                     << QStringList{QStringLiteral("timestamps")};
    QTest::addRow("rekor2-dsse-happy-path") << QStringLiteral("rekor2-dsse-happy-path") << QStringList();
}

void TestVerifyPane::verifiesPassingCase() {
    QFETCH(QString, caseName);
    QFETCH(QStringList, notApplicable);
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/") + caseName);
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(caseName);
    QVERIFY(c);
    QVERIFY(c->passes());
    const sigstore::VerificationResult expected = pbgui::verifyCase(*c); // the engine's own verdict
    QVERIFY(expected.verified);

    m_window->showVerify();
    QVERIFY(fillAndVerify(*c));
    QCOMPARE(pane()->verdictText(), QStringLiteral("Verified"));
    QVERIFY(find<QLabel>("verifyVerdict")->isVisible());
    QVERIFY(!find<QLabel>("verifyPlaceholder")->isVisible());
    QVERIFY2(pane()->verdictSummary().contains(c->identity), qPrintable(pane()->verdictSummary()));

    // Every step on view passed (or does not apply to this bundle), in the engine's order.
    auto* steps = find<QTableView>("verifySteps");
    QCOMPARE(stepColumn(steps, VerificationStepsModel::StepColumn).size(), int(expected.steps.size()));
    const QStringList names = stepColumn(steps, VerificationStepsModel::StepColumn);
    const QStringList results = stepColumn(steps, VerificationStepsModel::ResultColumn);
    for (int r = 0; r < names.size(); ++r) {
        QCOMPARE(names[r], expected.steps[static_cast<size_t>(r)].name);
        QCOMPARE(results[r],
                 notApplicable.contains(names[r]) ? QStringLiteral("skipped") : QStringLiteral("passed"));
    }
    for (const char* step : {"transparency log", "certificate chain", "signature", "artifact", "identity"})
        QVERIFY2(names.contains(QLatin1String(step)), step);
    // The identity step is the one on view, saying who signed.
    QCOMPARE(steps->currentIndex().row(), names.indexOf(QStringLiteral("identity")));
    QVERIFY(find<QLabel>("verifyStepText")->text().contains(c->identity));
    QVERIFY(!find<QWidget>("verifyComparison")->isVisible());

    // The certificate: SAN is the expected identity, issuer, validity, extensions.
    QVERIFY(find<QWidget>("verifyCertificate")->isVisible());
    QCOMPARE(find<QLabel>("verifyCertSan")->text(), QStringLiteral("%1 (URI)").arg(c->identity));
    QCOMPARE(find<QLabel>("verifyCertOidcIssuer")->text(), c->issuer);
    QVERIFY(find<QLabel>("verifyCertValidity")
                ->text()
                .contains(sigstore::formatMs(expected.certificate->notBeforeMs)));
    QCOMPARE(find<QLabel>("verifyCertSerial")->text(), expected.certificate->serialHex);
    QCOMPARE(find<QTableView>("verifyCertExtensions")->model()->rowCount(),
             int(expected.certificate->extensions.size()));

    // The log entry: its index, and its checkpoint.
    auto* log = find<QTableView>("verifyLogEntries");
    QVERIFY(log->isVisible());
    QCOMPARE(log->model()->rowCount(), 1);
    QCOMPARE(log->model()->index(0, LogEntriesModel::IndexColumn).data().toString(),
             QString::number(expected.logEntries.front().logIndex));
    QCOMPARE(log->model()->index(0, LogEntriesModel::CheckpointColumn).data().toString(),
             expected.logEntries.front().checkpointOrigin);
    // Timestamps: a table when the bundle has them, a sentence when not.
    QCOMPARE(find<QTableView>("verifyTimestamps")->isVisible(), !expected.timestamps.empty());
    QCOMPARE(find<QTableView>("verifyTimestamps")->model()->rowCount(), int(expected.timestamps.size()));

    // Stored, and first in the history.
    QVERIFY(pane()->resultId() > 0);
    QCOMPARE(pane()->historyModel()->rowCount(), 1);
    QCOMPARE(find<QTableView>("verifyHistory")->currentIndex().row(), 0);
    Result<std::vector<store::StoredVerification>> stored = store::VerificationStore(*m_db->db).recent();
    QVERIFY(stored);
    QCOMPARE(stored->size(), size_t(1));
    QCOMPARE(stored->front().id, pane()->resultId());
    QVERIFY(stored->front().verified);
    QCOMPARE(stored->front().signerIdentity, c->identity);
    QCOMPARE(stored->front().artifactDigest, c->artifactDigest);
    QCOMPARE(m_window->statusBar()->currentMessage(),
             QStringLiteral("Verified bundle.sigstore.json (stored as #%1)").arg(pane()->resultId()));
}

void TestVerifyPane::identityMismatchSideBySide() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("happy-path-v0.3"));
    QVERIFY(c);
    m_window->showVerify();
    const QString wrong =
        QString(c->identity).replace(QStringLiteral("@refs/heads/main"), QStringLiteral("@refs/tags/v1"));
    QVERIFY(fillAndVerify(*c, wrong));
    QCOMPARE(pane()->verdictText(), QStringLiteral("Not verified"));
    QVERIFY2(pane()->verdictSummary().contains(QStringLiteral("identity")),
             qPrintable(pane()->verdictSummary()));

    // The identity step failed, and it is the one on view.
    auto* steps = find<QTableView>("verifySteps");
    const QStringList names = stepColumn(steps, VerificationStepsModel::StepColumn);
    const int row = names.indexOf(QStringLiteral("identity"));
    QVERIFY(row >= 0);
    QCOMPARE(stepColumn(steps, VerificationStepsModel::ResultColumn).at(row), QStringLiteral("failed"));
    QCOMPARE(stepColumn(steps, VerificationStepsModel::ResultColumn).count(QStringLiteral("failed")), 1);
    QCOMPARE(steps->currentIndex().row(), row);

    // Expected and found, side by side: the policy's identity on the left, the certificate's on the right.
    auto* comparison = find<QWidget>("verifyComparison");
    auto* expectedBox = find<QTextEdit>("verifyExpected");
    auto* foundBox = find<QTextEdit>("verifyFound");
    QVERIFY(comparison->isVisible() && expectedBox->isVisible() && foundBox->isVisible());
    const QString expectedText = expectedBox->toPlainText();
    const QString foundText = foundBox->toPlainText();
    QVERIFY2(expectedText.contains(wrong), qPrintable(expectedText));
    QVERIFY2(foundText.contains(c->identity), qPrintable(foundText));
    QVERIFY(!foundText.contains(wrong));
    QVERIFY(expectedText.contains(c->issuer) && foundText.contains(c->issuer));
    const QPoint left = expectedBox->mapTo(m_window.get(), QPoint(0, 0));
    const QPoint right = foundBox->mapTo(m_window.get(), QPoint(0, 0));
    QCOMPARE(left.y(), right.y());
    QVERIFY(left.x() + expectedBox->width() <= right.x());
    // The differing part is marked on each side.
    QVERIFY(expectedBox->toHtml().contains(QStringLiteral("tags/v1")));
    QVERIFY(foundBox->toHtml().contains(QStringLiteral("font-weight:700")) ||
            foundBox->toHtml().contains(QStringLiteral("font-weight:600")));

    // Stored as not verified, with what was found.
    Result<std::vector<store::StoredVerification>> stored = store::VerificationStore(*m_db->db).recent();
    QVERIFY(stored);
    QCOMPARE(stored->size(), size_t(1));
    QVERIFY(!stored->front().verified);
    QVERIFY(stored->front().summary.startsWith(QStringLiteral("identity")));
    QCOMPARE(stored->front().signerIdentity, c->identity);
    QCOMPARE(stored->front().policy.value(QStringLiteral("identity")).toString(), wrong);
}

void TestVerifyPane::failingCaseFailsOnItsStep() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/inclusion-proof-corrupted-hash_fail"));
    const std::optional<SigstoreCase> c =
        pbgui::sigstoreCase(QStringLiteral("inclusion-proof-corrupted-hash_fail"));
    QVERIFY(c);
    QVERIFY(!c->passes());
    m_window->showVerify();
    QVERIFY(fillAndVerify(*c));
    QCOMPARE(pane()->verdictText(), QStringLiteral("Not verified"));
    QVERIFY(pane()->verdictSummary().contains(QStringLiteral("transparency log")));
    auto* steps = find<QTableView>("verifySteps");
    const QStringList names = stepColumn(steps, VerificationStepsModel::StepColumn);
    const QStringList results = stepColumn(steps, VerificationStepsModel::ResultColumn);
    const int failed = static_cast<int>(results.indexOf(QStringLiteral("failed")));
    QVERIFY(failed >= 0);
    QCOMPARE(names.at(failed), QStringLiteral("transparency log"));
    QCOMPARE(steps->currentIndex().row(), failed);
    QVERIFY2(find<QLabel>("verifyStepText")->text().contains(QStringLiteral("inclusion proof")),
             qPrintable(find<QLabel>("verifyStepText")->text()));
    // The steps before it passed.
    for (int r = 0; r < failed; ++r)
        QCOMPARE(results.at(r), QStringLiteral("passed"));
    QVERIFY(!store::VerificationStore(*m_db->db).recent()->front().verified);

    // A bundle that is not even JSON: refused at its first step, and the sections it never reached
    // say so rather than "none".
    const std::optional<SigstoreCase> broken =
        pbgui::sigstoreCase(QStringLiteral("bundle-malformed-json_fail"));
    QVERIFY(broken);
    QVERIFY(fillAndVerify(*broken));
    QCOMPARE(pane()->verdictText(), QStringLiteral("Not verified"));
    QCOMPARE(stepColumn(steps, VerificationStepsModel::StepColumn), QStringList{QStringLiteral("bundle")});
    QVERIFY(find<QLabel>("verifyStepText")->text().contains(broken->bundle()));
    for (const char* name : {"verifyCertificateMessage", "verifyLogMessage", "verifyTimestampMessage"}) {
        QVERIFY2(find<QLabel>(name)->isVisible(), name);
        QCOMPARE(find<QLabel>(name)->text(),
                 QStringLiteral("Not checked: verification stopped at step “bundle”."));
    }
    QVERIFY(!find<QTableView>("verifyLogEntries")->isVisible());
    QCOMPARE(store::VerificationStore(*m_db->db).recent()->size(), size_t(2));
}

void TestVerifyPane::keyAndDigestModes() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/managed-key-happy-path"));
    const std::optional<SigstoreCase> key = pbgui::sigstoreCase(QStringLiteral("managed-key-happy-path"));
    QVERIFY(key);
    m_window->showVerify();
    // A public key: no certificate, the certificate steps do not apply.
    QVERIFY(fillAndVerify(*key));
    QCOMPARE(pane()->verdictText(), QStringLiteral("Verified"));
    QVERIFY(find<QLineEdit>("verifyKeyPath")->isVisible());
    QVERIFY(!find<QLineEdit>("verifyIdentity")->isVisible());
    QVERIFY(find<QLabel>("verifyCertificateMessage")->isVisible());
    QVERIFY(!find<QLabel>("verifyCertSan")->isVisible());
    auto* steps = find<QTableView>("verifySteps");
    const QStringList names = stepColumn(steps, VerificationStepsModel::StepColumn);
    QCOMPARE(
        stepColumn(steps, VerificationStepsModel::ResultColumn).at(names.indexOf(QStringLiteral("identity"))),
        QStringLiteral("skipped"));
    QCOMPARE(store::VerificationStore(*m_db->db).recent()->front().mode, QStringLiteral("key"));

    // Only the digest of the artifact, as the manifest gives it.
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("happy-path-v0.3"));
    QVERIFY(c);
    QVERIFY(importRoot(c->trustedRoot()));
    pane()->setBundlePath(c->bundle());
    pane()->setIdentity(c->identity, c->issuer);
    find<QRadioButton>("verifyArtifactDigestMode")->click();
    QVERIFY(find<QLineEdit>("verifyDigest")->isVisible());
    QVERIFY(!find<QLineEdit>("verifyArtifactPath")->isVisible());
    find<QLineEdit>("verifyDigest")->setText(c->artifactDigest);
    QVERIFY(clickVerify());
    QCOMPARE(pane()->verdictText(), QStringLiteral("Verified"));
    QCOMPARE(pane()->result().artifactDigest, c->artifactDigest);

    // A regexp identity.
    find<QLineEdit>("verifyIdentity")->setText(QStringLiteral("^https://github\\.com/sigstore-conformance/"));
    find<QCheckBox>("verifyIdentityRegexp")->setChecked(true);
    QVERIFY(clickVerify());
    QCOMPARE(pane()->verdictText(), QStringLiteral("Verified"));
    QCOMPARE(store::VerificationStore(*m_db->db)
                 .recent()
                 ->front()
                 .policy.value(QStringLiteral("identityRegexp"))
                 .toString(),
             QStringLiteral("^https://github\\.com/sigstore-conformance/"));
}

void TestVerifyPane::historyInViewAndDatabase() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("happy-path-v0.3"));
    QVERIFY(c);
    m_window->showVerify();
    QVERIFY(fillAndVerify(*c));
    const qint64 passedId = pane()->resultId();
    const QStringList passedSteps =
        stepColumn(find<QTableView>("verifySteps"), VerificationStepsModel::ResultColumn);
    QVERIFY(fillAndVerify(*c, QStringLiteral("someone@example.com")));
    const qint64 failedId = pane()->resultId();
    QVERIFY(failedId != passedId);

    // Two rows, newest first, in the view and in the database.
    auto* history = find<QTableView>("verifyHistory");
    QCOMPARE(history->model()->rowCount(), 2);
    QCOMPARE(history->model()->index(0, 0).data(models::VerificationHistoryModel::IdRole).toLongLong(),
             failedId);
    QCOMPARE(history->model()->index(1, 0).data(models::VerificationHistoryModel::IdRole).toLongLong(),
             passedId);
    QVERIFY(find<QLabel>("verifyHistoryTitle")
                ->text()
                .contains(QStringLiteral("2 verifications, 1 not verified")));
    QSqlQuery q(m_db->db->sql());
    QVERIFY(q.exec(
        QStringLiteral("SELECT count(*), sum(verified), count(DISTINCT bundle_sha256) FROM verifications")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 2);
    QCOMPARE(q.value(1).toInt(), 1);
    QCOMPARE(q.value(2).toInt(), 1);

    // Selecting the older row shows it as it was stored.
    QTest::mouseClick(history->viewport(), Qt::LeftButton, {},
                      history->visualRect(history->model()->index(1, 1)).center());
    QCOMPARE(pane()->resultId(), passedId);
    QCOMPARE(pane()->verdictText(), QStringLiteral("Verified"));
    QCOMPARE(stepColumn(find<QTableView>("verifySteps"), VerificationStepsModel::ResultColumn), passedSteps);
    QCOMPARE(find<QLabel>("verifyCertSan")->text(), QStringLiteral("%1 (URI)").arg(c->identity));
    QCOMPARE(find<QTableView>("verifyLogEntries")->model()->rowCount(), 1);
    // And the newer one again: the mismatch, expected and found.
    QVERIFY(pane()->showStored(failedId));
    QCOMPARE(pane()->verdictText(), QStringLiteral("Not verified"));
    QVERIFY(find<QTextEdit>("verifyExpected")->toPlainText().contains(QStringLiteral("someone@example.com")));
    QVERIFY(find<QTextEdit>("verifyFound")->toPlainText().contains(c->identity));
    QCOMPARE(history->currentIndex().row(), 0);

    // A new window on the same database lists them too.
    m_window.reset();
    m_window = std::make_unique<MainWindow>(m_db->workspace());
    QTRY_COMPARE(pane()->historyModel()->rowCount(), 2); // read on the worker
}

void TestVerifyPane::copyAsCommand() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-dsse-happy-path"));
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("rekor2-dsse-happy-path"));
    QVERIFY(c);
    m_window->showVerify();
    QVERIFY(fillAndVerify(*c));
    QCOMPARE(pane()->verdictText(), QStringLiteral("Verified"));

    QGuiApplication::clipboard()->clear();
    QTest::mouseClick(find<QPushButton>("verifyCopyCommand"), Qt::LeftButton);
    const QString command = QGuiApplication::clipboard()->text();
    QVERIFY2(command.startsWith(QStringLiteral("proofbench verify --bundle ")), qPrintable(command));
    QVERIFY(command.contains(QStringLiteral("--bundle ") + c->bundle()));
    QVERIFY(command.contains(QStringLiteral("--artifact ") + c->artifact()));
    QVERIFY(command.contains(QStringLiteral("--certificate-identity ") + c->identity));
    QVERIFY(command.contains(QStringLiteral("--certificate-oidc-issuer ") + c->issuer));
    QVERIFY(command.contains(QStringLiteral("--trusted-root ") + c->trustedRoot()));
    QVERIFY(find<QLabel>("verifyMessage")->text().contains(command));

    // The command reproduces the verdict: run through a shell against the CLI.
    QCOMPARE(runInShell(command), QStringLiteral("VERIFIED"));

    // cosign: a DSSE bundle is an attestation.
    QTest::mouseClick(find<QPushButton>("verifyCopyCosign"), Qt::LeftButton);
    const QString cosign = QGuiApplication::clipboard()->text();
    QVERIFY2(cosign.startsWith(QStringLiteral("cosign verify-blob-attestation --bundle ") + c->bundle()),
             qPrintable(cosign));
    QVERIFY(cosign.contains(QStringLiteral("--trusted-root ") + c->trustedRoot()));
    QVERIFY(cosign.contains(QStringLiteral("--certificate-identity ") + c->identity));
    QVERIFY(cosign.contains(QStringLiteral("--certificate-oidc-issuer ") + c->issuer));
    QVERIFY(cosign.endsWith(c->artifact()));

    // By digest, with a regexp: the flags follow, and the arguments are quoted for the shell.
    find<QRadioButton>("verifyArtifactDigestMode")->click();
    find<QLineEdit>("verifyDigest")->setText(c->artifactDigest);
    find<QCheckBox>("verifyIdentityRegexp")->setChecked(true);
    find<QLineEdit>("verifyIdentity")->setText(QStringLiteral("^https://github.com/sigstore-conformance/"));
    QTest::mouseClick(find<QPushButton>("verifyCopyCosign"), Qt::LeftButton);
    const QString byDigest = QGuiApplication::clipboard()->text();
    QVERIFY2(byDigest.contains(
                 QStringLiteral("--certificate-identity-regexp '^https://github.com/sigstore-conformance/'")),
             qPrintable(byDigest));
    QVERIFY(
        byDigest.endsWith(QStringLiteral("--digest %1 --digestAlg sha256").arg(c->artifactDigest.mid(7))));
    QTest::mouseClick(find<QPushButton>("verifyCopyCommand"), Qt::LeftButton);
    QVERIFY(QGuiApplication::clipboard()->text().contains(QStringLiteral("--digest ") + c->artifactDigest));

    // A root imported in an earlier session (its path unknown) and the default: the database's.
    m_window.reset();
    m_window = std::make_unique<MainWindow>(m_db->workspace());
    QTRY_VERIFY(pane()->selectedTrustedRoot() > 0); // the stored roots are read on the worker
    pane()->setBundlePath(c->bundle());
    pane()->setArtifactPath(c->artifact());
    pane()->setIdentity(c->identity, c->issuer);
    QTest::mouseClick(find<QPushButton>("verifyCopyCommand"), Qt::LeftButton);
    const QString later = QGuiApplication::clipboard()->text();
    QVERIFY2(later.endsWith(QStringLiteral("--db ") + models::shellQuote(m_db->path())), qPrintable(later));
    QVERIFY(!later.contains(QStringLiteral("--trusted-root")));
    QCOMPARE(runInShell(later), QStringLiteral("VERIFIED"));
    // The same with an identity the certificate does not have: the CLI refuses it too.
    pane()->setIdentity(QStringLiteral("someone@example.com"), c->issuer);
    QTest::mouseClick(find<QPushButton>("verifyCopyCommand"), Qt::LeftButton);
    QCOMPARE(runInShell(QGuiApplication::clipboard()->text()), QStringLiteral("NOT VERIFIED"));
}

void TestVerifyPane::dropBundleOnWindow() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("happy-path-v0.3"));
    QVERIFY(c);
    QVERIFY(!m_window->isVerifyShown());
    const QPoint where = m_window->rect().center();
    auto dragTo = [&](QWidget* target, const QList<QUrl>& urls) {
        QMimeData mime;
        mime.setUrls(urls);
        // File managers offer the paths as text too.
        mime.setText(urls.isEmpty() ? QString() : urls.constFirst().toLocalFile());
        QDragEnterEvent enter(where, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &enter);
        if (!enter.isAccepted())
            return false;
        QDropEvent drop(QPointF(where), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &drop);
        return drop.isAccepted();
    };
    auto drag = [&](const QList<QUrl>& urls) { return dragTo(m_window.get(), urls); };

    // Not a bundle, not local, not there: refused, the view unchanged.
    QVERIFY(!drag({QUrl::fromLocalFile(c->artifact())}));
    QVERIFY(!drag({QUrl(QStringLiteral("https://example.com/a.sigstore.json"))}));
    QVERIFY(!drag({QUrl::fromLocalFile(QStringLiteral("/nonexistent/a.sigstore.json"))}));
    QVERIFY(!m_window->isVerifyShown());

    // A bundle: the Verify view, with its path filled in.
    QVERIFY(drag({QUrl::fromLocalFile(c->bundle())}));
    QVERIFY(m_window->isVerifyShown());
    QCOMPARE(find<QLineEdit>("verifyBundlePath")->text(), c->bundle());

    // A bundle with its artifact and trusted root: everything but the signer, and the root stored.
    m_window->showCatalog();
    const std::optional<SigstoreCase> other = pbgui::sigstoreCase(QStringLiteral("rekor2-happy-path"));
    QVERIFY(other);
    QVERIFY(drag({QUrl::fromLocalFile(other->bundle()), QUrl::fromLocalFile(other->artifact()),
                  QUrl::fromLocalFile(other->trustedRoot())}));
    QVERIFY(m_window->isVerifyShown());
    QCOMPARE(find<QLineEdit>("verifyBundlePath")->text(), other->bundle());
    QCOMPARE(find<QLineEdit>("verifyArtifactPath")->text(), other->artifact());
    QTRY_VERIFY_WITH_TIMEOUT(pane()->selectedTrustedRoot() > 0,
                             kTimeout); // the root is imported on the worker
    QCOMPARE(store::VerificationStore(*m_db->db).trustedRoots()->size(), size_t(1));
    pane()->setIdentity(other->identity, other->issuer);
    QVERIFY(clickVerify());
    QCOMPARE(pane()->verdictText(), QStringLiteral("Verified"));

    // Dropped on a text field (which takes text drops), the bundle still opens in the Verify view.
    m_window->showHealth();
    auto* filter = find<QLineEdit>("healthFilter");
    QVERIFY(filter->acceptDrops());
    QVERIFY(dragTo(filter, {QUrl::fromLocalFile(c->bundle())}));
    QVERIFY(m_window->isVerifyShown());
    QCOMPARE(find<QLineEdit>("verifyBundlePath")->text(), c->bundle());
    QCOMPARE(filter->text(), QString());
}

QTEST_MAIN(TestVerifyPane)
#include "tst_verifypane.moc"
