// Writes the PNGs of docs/screenshots: the first-start welcome over the sample catalog, the Health
// view's empty state, the main window with a recipe selected, the filter in use,
// a catalog version's summary, an overlay's YAML, the Graph and Compare tabs, the import
// progress, the Health view with its evidence inspector, the Verify view with a verified
// bundle and with an identity mismatch (Sigstore conformance cases from ../shared/data), and the
// Sign view: keys, a sealed deployment bundle verified "attested", the same bundle tampered, and
// the deployment signing dialog; the Validation view after a run on pb-kube-testserver with its
// NCCL chart, and close-ups of the NCCL and history charts; Import from Git over a repository built
// here from the real catalogs (one commit and tag each), the tree with real versions and their
// sources, and Compare against a chosen baseline. Not a test; run by tools/screenshots.sh
// (offscreen platform, fixed locale, a temp database seeded with the sample catalog, settings in a
// temp directory).
#include "BundleCompareView.h"
#include "BundleVerifyPane.h"
#include "BundleView.h"
#include "CatalogTreeModel.h"
#include "ComparePane.h"
#include "EvidenceFixture.h"
#include "EvidenceInspector.h"
#include "FetchEvidenceDialog.h"
#include "GenerateBundleDialog.h"
#include "GitImportDialog.h"
#include "GraphPane.h"
#include "GraphView.h"
#include "GuiTestUtil.h"
#include "HealthModels.h"
#include "HealthPane.h"
#include "MainWindow.h"
#include "OpenTeamDatabaseDialog.h"
#include "PerfCharts.h"
#include "ReceiptsPane.h"
#include "RecipeModels.h"
#include "RecipeView.h"
#include "RegistryCredentialsDialog.h"
#include "ReleaseVerifyDialog.h"
#include "ReportDialog.h"
#include "SignDialogs.h"
#include "SignPane.h"
#include "SigningFixture.h"
#include "TestUtil.h"
#include "TufUpdateDialog.h"
#include "ValidationFixture.h"
#include "ValidationPane.h"
#include "VerifyPane.h"
#include "WelcomePane.h"
#include "WindowManager.h"
#include "YamlDialog.h"
#include "ops/ReceiptsCheckpoint.h"
#include "receipts/Ledger.h"
#include "sigstore/Keys.h"
#include "store/EvidenceStore.h"

#include <QApplication>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPointer>
#include <QProcess>
#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTreeView>

#include <cstdio>

namespace {

QTextStream& err() {
    static QTextStream s(stderr);
    return s;
}

bool waitFor(const std::function<bool()>& done, int ms = 10000) {
    QDeadlineTimer deadline(ms);
    while (!done() && !deadline.hasExpired())
        QTest::qWait(10);
    return done();
}

bool save(QWidget* w, const QString& dir, const QString& name) {
    QApplication::processEvents();
    const QString path = dir + QLatin1Char('/') + name;
    if (!w->grab().save(path)) {
        err() << "cannot write " << path << Qt::endl;
        return false;
    }
    QTextStream(stdout) << path << Qt::endl;
    return true;
}

// Runs git in `dir` with fixed author and dates; false with a message on error.
bool git(const QString& dir, const QStringList& args, const QString& date = {}) {
    QProcess p;
    p.setWorkingDirectory(dir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GIT_AUTHOR_NAME"), QStringLiteral("Proofbench screenshots"));
    env.insert(QStringLiteral("GIT_AUTHOR_EMAIL"), QStringLiteral("screenshots@proofbench.invalid"));
    env.insert(QStringLiteral("GIT_COMMITTER_NAME"), QStringLiteral("Proofbench screenshots"));
    env.insert(QStringLiteral("GIT_COMMITTER_EMAIL"), QStringLiteral("screenshots@proofbench.invalid"));
    env.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
    env.insert(QStringLiteral("HOME"), dir);
    if (!date.isEmpty()) {
        env.insert(QStringLiteral("GIT_AUTHOR_DATE"), date);
        env.insert(QStringLiteral("GIT_COMMITTER_DATE"), date);
    }
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("git"), args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        err() << "git " << args.join(QLatin1Char(' ')) << ": " << p.readAllStandardError() << Qt::endl;
        return false;
    }
    return true;
}

// A Git repository of the real AICR catalogs: one commit per catalog (its recipes/ tree) in date
// order, each tagged with the catalog's label. Empty when the data or git is missing.
QString buildCatalogRepository(const QString& root) {
    const QString catalogs = QStringLiteral(PB_SHARED_DATA "/aicr/catalogs");
    const std::pair<const char*, const char*> history[] = {{"v0.11.1", "2026-03-02T10:00:00Z"},
                                                           {"v0.14.0", "2026-05-18T10:00:00Z"},
                                                           {"2026-07-09", "2026-07-09T10:00:00Z"},
                                                           {"2026-08-09", "2026-08-09T10:00:00Z"},
                                                           {"2026-08-19", "2026-08-19T10:00:00Z"}};
    for (const auto& [label, date] : history)
        if (!QFileInfo::exists(catalogs + QStringLiteral("/%1/recipes").arg(QLatin1String(label)))) {
            err() << "no catalog " << label << " in " << catalogs << "; git-import.png not written"
                  << Qt::endl;
            return {};
        }
    const QString repo = root + QStringLiteral("/aicr");
    QDir().mkpath(repo);
    if (!git(repo,
             {QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("main")}))
        return {};
    for (const auto& [label, date] : history) {
        QDir(repo + QStringLiteral("/recipes")).removeRecursively();
        if (!pbtest::copyTree(catalogs + QStringLiteral("/%1/recipes").arg(QLatin1String(label)),
                              repo + QStringLiteral("/recipes")))
            return {};
        const QString l = QLatin1String(label), d = QLatin1String(date);
        if (!git(repo, {QStringLiteral("add"), QStringLiteral("-A")}) ||
            !git(repo,
                 {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"),
                  QStringLiteral("Catalog %1").arg(l)},
                 d) ||
            !git(repo,
                 {QStringLiteral("tag"), QStringLiteral("-a"), l, QStringLiteral("-m"),
                  QStringLiteral("Catalog %1").arg(l)},
                 d))
            return {};
    }
    return repo;
}

// Import from Git over that repository, four tags chosen (git-import.png); the tree with the real
// versions and where each came from (catalog-sources.png); a recipe of the newest version compared
// with a baseline chosen in the Compare tab, not the previous version (compare-baseline.png).
bool gitShots(pb::widgets::MainWindow& window, const QString& out) {
    QTemporaryDir tmp;
    const QString repo = buildCatalogRepository(tmp.path());
    if (repo.isEmpty())
        return true; // said why
    window.showCatalog();
    window.importFromGit();
    pb::widgets::GitImportDialog* dialog = window.gitImportDialog();
    if (!dialog) {
        err() << "Import from Git did not open" << Qt::endl;
        return false;
    }
    dialog->resize(1000, 640);
    dialog->setRepository(repo);
    bool ok = waitFor([&] { return dialog->refTable()->model()->rowCount() >= 5; }, 30000);
    // 2026-08-19 is already in the database (a folder import, for the Health view).
    const QStringList tags{QStringLiteral("v0.11.1"), QStringLiteral("v0.14.0"), QStringLiteral("2026-07-09"),
                           QStringLiteral("2026-08-09")};
    dialog->selectRefs(tags);
    ok &= save(dialog, out, QStringLiteral("git-import.png"));
    QSignalSpy done(dialog, &pb::widgets::GitImportDialog::importFinished);
    if (dialog->startImport() && waitFor([&] { return !done.isEmpty(); }, 600000) &&
        done.at(0).at(0).toBool()) {
        ok &= save(dialog, out, QStringLiteral("git-import-done.png"));
    } else {
        err() << "the Git import did not run: " << dialog->lastError() << "; importing the folders instead"
              << Qt::endl;
        for (const QString& label : tags) {
            QSignalSpy finished(&window, &pb::widgets::MainWindow::importFinished);
            window.startImport(QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/%1/recipes").arg(label), label);
            ok &= waitFor([&] { return !finished.isEmpty(); }, 120000) && finished.at(0).at(0).toBool();
        }
    }
    dialog->close();
    window.reloadCatalogs();
    ok &= waitFor([&] { return !window.isReloadingCatalogs(); }, 60000); // the tree is read on a worker

    // The versions, newest first in version order, each with its source.
    auto* tree = window.findChild<QTreeView*>(QStringLiteral("catalogTree"));
    tree->collapseAll();
    ok &= window.selectVersion(QStringLiteral("v0.14.0"));
    tree->collapseAll();
    ok &= save(&window, out, QStringLiteral("catalog-sources.png"));

    // Compare: the newest catalog's recipe against v0.14.0, picked as the baseline.
    const QString recipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
    ok &= window.selectRecipe(QStringLiteral("2026-08-19"), recipe);
    ok &= waitFor(
        [&] {
            return window.recipeView()->hasResult() &&
                   window.recipeView()->recipe().catalogLabel == QLatin1String("2026-08-19");
        },
        60000);
    window.recipeTabs()->setCurrentWidget(window.comparePane());
    if (auto* from = window.comparePane()->findChild<QComboBox*>(QStringLiteral("compareFrom"))) {
        const int baseline = from->findData(QStringLiteral("v0.14.0"));
        if (baseline < 0)
            err() << "v0.14.0 is not among the Compare baselines" << Qt::endl;
        from->setCurrentIndex(std::max(0, baseline));
    }
    ok &= waitFor(
        [&] {
            return window.comparePane()->isUpToDate() && window.comparePane()->recipeDiff() &&
                   window.comparePane()->catalogDiff();
        },
        60000);
    ok &= save(&window, out, QStringLiteral("compare-baseline.png"));
    window.recipeTabs()->setCurrentIndex(0);
    if (!ok)
        err() << "git screenshots incomplete" << Qt::endl;
    return ok;
}

// Update from a TUF repository… on the real Sigstore TUF copy: verified as of 2026-08-22 with each
// step (tuf-update.png), then checked now, when root v15 has expired (tuf-update-expired.png). The
// case root the Verify shots use is made the default again afterwards.
bool tufShots(pb::widgets::MainWindow& window, const QString& out) {
    const QString repo = QStringLiteral(PB_SHARED_DATA "/sigstore/tuf");
    if (!QFileInfo::exists(repo + QStringLiteral("/metadata/root.json"))) {
        err() << "no TUF repository copy at " << repo << "; tuf-update*.png not written" << Qt::endl;
        return true;
    }
    window.showVerify();
    pb::widgets::VerifyPane* verify = window.verifyPane();
    pb::widgets::TufUpdateDialog* dialog = verify->openTufUpdate();
    dialog->resize(1100, 560);
    dialog->setRepository(repo);
    auto run = [&](std::optional<QDateTime> at, const QString& file) {
        dialog->setVerificationTime(at);
        QSignalSpy done(dialog, &pb::widgets::TufUpdateDialog::finished);
        if (!dialog->start() || !waitFor([&] { return !done.isEmpty(); }, 60000)) {
            err() << "the TUF update did not finish: " << dialog->resultText() << Qt::endl;
            return false;
        }
        return save(dialog, out, file);
    };
    bool ok = run(QDateTime(QDate(2026, 8, 22), QTime(0, 0), Qt::UTC), QStringLiteral("tuf-update.png"));
    ok &= save(&window, out, QStringLiteral("tuf-provenance.png"));
    ok &= run(std::nullopt, QStringLiteral("tuf-update-expired.png"));
    dialog->close();
    QSignalSpy imported(verify, &pb::widgets::VerifyPane::trustedRootImported);
    verify->importTrustedRoot(
        QStringLiteral(PB_SHARED_DATA "/sigstore/cases/happy-path-v0.3/trusted_root.json"));
    ok &= waitFor([&] { return !imported.isEmpty(); }, 30000); // imported on the worker
    return ok;
}

// The Verify view: a bundle verified offline, then the same signature checked against an identity
// it was not issued to, expected and found side by side.
bool verifyShots(pb::widgets::MainWindow& window, const QString& out) {
    const QString cases = QStringLiteral(PB_SHARED_DATA "/sigstore/cases");
    if (!QFileInfo::exists(cases)) {
        err() << "no Sigstore cases at " << cases << "; verify-*.png not written" << Qt::endl;
        return true;
    }
    window.showVerify();
    pb::widgets::VerifyPane* verify = window.verifyPane();
    const QString identity =
        QStringLiteral("https://github.com/sigstore-conformance/extremely-dangerous-public-"
                       "oidc-beacon/.github/workflows/extremely-dangerous-oidc-beacon.yml"
                       "@refs/heads/main");
    const QString issuer = QStringLiteral("https://token.actions.githubusercontent.com");
    auto run = [&](const QString& caseName, const QString& who, const QString& file) {
        const QString dir = cases + QLatin1Char('/') + caseName;
        QSignalSpy imported(verify, &pb::widgets::VerifyPane::trustedRootImported);
        if (!verify->importTrustedRoot(dir + QStringLiteral("/trusted_root.json")) ||
            !waitFor([&] { return !imported.isEmpty(); }, 30000)) {
            err() << verify->lastError() << Qt::endl;
            return false;
        }
        verify->setBundlePath(dir + QStringLiteral("/bundle.sigstore.json"));
        verify->setArtifactPath(dir + QStringLiteral("/artifact"));
        verify->setIdentity(who, issuer);
        QSignalSpy done(verify, &pb::widgets::VerifyPane::verificationFinished);
        if (!verify->verify() || !waitFor([&] { return !done.isEmpty(); }, 30000)) {
            err() << "verification of " << caseName << " did not finish: " << verify->lastError() << Qt::endl;
            return false;
        }
        QTest::qWait(100); // the comparison boxes fit their text, then their parents settle
        return save(&window, out, file);
    };
    bool ok = run(QStringLiteral("rekor2-happy-path"), identity, QStringLiteral("verify-passed.png"));
    ok &= run(
        QStringLiteral("happy-path-v0.3"),
        QString(identity).replace(QStringLiteral("refs/heads/main"), QStringLiteral("refs/heads/release")),
        QStringLiteral("verify-failed.png"));
    ok &= tufShots(window, out);
    return ok;
}

// The Sign view: two keys, a deployment bundle sealed with one and verified "attested" (sign.png),
// the signing dialog after sealing it (sign-dialog.png), then the bundle with a changed, a missing
// and an unexpected file (bundle-verify.png).
bool signShots(pb::widgets::MainWindow& window, pb::db::Database& db, const QString& out) {
    QTemporaryDir tmp;
    const QByteArray pass = "screenshot passphrase";
    const pbgui::WrittenKey release =
        pbgui::writeKey(db, tmp.filePath(QStringLiteral("release-signing.key")), pass);
    const pbgui::WrittenKey evidence =
        pbgui::writeKey(db, tmp.filePath(QStringLiteral("ci-evidence.key")), pass);
    if (release.fingerprint.isEmpty() || evidence.fingerprint.isEmpty()) {
        err() << "cannot write the screenshot keys" << Qt::endl;
        return false;
    }
    const QString dir = tmp.filePath(QStringLiteral("h100-eks-inference-bundle"));
    if (pbgui::writeDeploymentTree(dir, 240).size() != 240) {
        err() << "cannot write the deployment tree" << Qt::endl;
        return false;
    }
    window.showSign();
    pb::widgets::SignPane* pane = window.signPane();
    pane->reloadKeys();
    pane->setLastKeyPath(release.privatePath);

    // Seal it through the dialog, as a user does.
    bool ok = true;
    pb::widgets::SignDialog* dialog = pane->signDeployment();
    dialog->setInputPath(dir);
    dialog->findChild<QLineEdit*>(QStringLiteral("signPassphrase"))->setText(QString::fromUtf8(pass));
    QSignalSpy signedSpy(dialog, &pb::widgets::SignDialog::signingFinished);
    dialog->sign();
    ok &= waitFor([&] { return !signedSpy.isEmpty(); }, 60000) && dialog->succeeded();
    ok &= save(dialog, out, QStringLiteral("sign-dialog.png"));
    dialog->close();

    // An evidence bundle whose conformance run was cut short by a cluster fault: signing it is
    // refused as incomplete until the box is ticked (sign-evidence-incomplete.png).
    {
        pbgui::BundleDirFixture cut(pbgui::EvidenceFixture::signedRecipe(), 0);
        cut.files[QStringLiteral("ctrf/conformance.json")] =
            pbtest::ctrfWithOther(cut.files[QStringLiteral("ctrf/conformance.json")], 2);
        cut.seal();
        const QString bundleDir = cut.writeDirectory(tmp.filePath(QStringLiteral("evidence-run")));
        pane->setLastKeyPath(evidence.privatePath);
        pb::widgets::SignDialog* ev = pane->signEvidence();
        ev->setInputPath(bundleDir);
        ev->findChild<QLineEdit*>(QStringLiteral("signPassphrase"))->setText(QString::fromUtf8(pass));
        QSignalSpy evSpy(ev, &pb::widgets::SignDialog::signingFinished);
        ev->sign();
        ok &= waitFor([&] { return !evSpy.isEmpty(); }, 60000) && !ev->succeeded() &&
              ev->lastError().contains(QStringLiteral("incomplete"));
        ok &= save(ev, out, QStringLiteral("sign-evidence-incomplete.png"));
        ev->close();
        pane->setLastKeyPath(release.privatePath);
    }

    pb::widgets::BundleVerifyPane* verify = pane->bundleVerifyPane();
    verify->selectStoredKey(release.fingerprint);
    auto runVerify = [&] {
        QSignalSpy done(verify, &pb::widgets::BundleVerifyPane::verificationFinished);
        return verify->verify() && waitFor([&] { return !done.isEmpty(); }, 60000) && verify->hasResult();
    };
    ok &= runVerify();
    const int row = pane->keysModel()->rowOfFingerprint(release.fingerprint);
    if (row >= 0)
        pane->keysView()->setCurrentIndex(pane->keysModel()->index(row, 0));
    ok &= save(&window, out, QStringLiteral("sign.png"));

    ok &= pbgui::writeText(dir + QStringLiteral("/002-gpu-operator/values.yaml"),
                           "# edited by hand\nreplicas: 7\n");
    ok &= QFile::remove(dir + QStringLiteral("/README.md"));
    ok &= pbgui::writeText(dir + QStringLiteral("/003-network-operator/manifests/zz-debug-pod.yaml"),
                           "kind: Pod\n");
    ok &= runVerify();
    ok &= save(&window, out, QStringLiteral("bundle-verify.png"));
    return ok;
}

// Two earlier runs of the recipe (imported nccl-tests logs, a week apart) give the history and the
// overlay something to show; then a real run on pb-kube-testserver.
bool validationShots(pb::widgets::MainWindow& window, pb::db::Database& db, const QString& out) {
    using namespace pb::validation;
    pb::store::RunStore runs(db);
    const QString coordinate = QLatin1String(pbgui::kNcclRecipe);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    // The third import's report did not say when it ran: it stands apart in the history.
    struct Earlier {
        QString file;
        int daysAgo;
        bool timeKnown;
    };
    const Earlier earlier[] = {{QStringLiteral(PB_FIXTURES "/validation/nccl-low.txt"), 14, true},
                               {QStringLiteral(PB_FIXTURES "/validation/nccl-pass.txt"), 7, true},
                               {QStringLiteral(PB_FIXTURES "/validation/nccl-low.txt"), 0, false}};
    pb::catalog::Constraint floor;
    floor.name = QStringLiteral("nccl-all-reduce-bw");
    floor.value = QStringLiteral(">= 300");
    for (const auto& [file, daysAgo, timeKnown] : earlier) {
        pb::Result<NcclResult> r = parseNcclFile(file);
        if (!r) {
            err() << r.error().toString() << Qt::endl;
            return false;
        }
        CheckRun c;
        c.phase = QStringLiteral("performance");
        c.name = floor.name;
        c.nccl = *r;
        c.score = scoreNccl(c.name, *r, {floor});
        c.state = c.score->verdict == Verdict::Passed ? CheckState::Passed : CheckState::Failed;
        c.message = c.score->message;
        c.started = c.finished = now.addDays(-daysAgo);
        c.image = file; // an import names its file: the legends say where the points came from
        c.log = QByteArray();
        RunResult run;
        run.runId = pb::validation::newRunId(); // as perf import gives it
        run.state = c.state == CheckState::Passed ? RunState::Passed : RunState::Failed;
        run.reason = c.state == CheckState::Passed ? QString() : c.message;
        run.started = run.finished = c.started;
        run.phasesRun = {c.phase};
        run.checks = {c};
        pb::store::RunHeader h;
        h.source = QStringLiteral("import");
        h.coordinate = coordinate;
        h.recipeName = coordinate;
        h.timeSource = timeKnown ? QStringLiteral("given") : QStringLiteral("unknown");
        if (!runs.saveImported(h, run))
            return false;
    }

    pbtest::KubeTestServer server;
    if (!server.start(pbgui::ncclScript(1200))) {
        err() << "pb-kube-testserver did not start" << Qt::endl;
        return false;
    }
    window.showValidation();
    pb::widgets::ValidationPane* pane = window.validationPane();
    QTemporaryDir evidence;
    pane->reload();
    pane->setOutputDir(evidence.path());
    pane->addKubeconfig(server.kubeconfig());
    bool ok = pane->selectContext(server.kubeconfig(), QStringLiteral("pb-cert"));
    ok &= waitFor([&] {
        return pane->selectRecipe(QLatin1String(pbgui::kNcclVersion), coordinate);
    }); // read on the worker
    pane->setPhases({QStringLiteral("performance")});
    QSignalSpy finished(pane->controller(), &pb::models::ValidationController::finished);
    pane->start();
    QSignalSpy shown(pane, &pb::widgets::ValidationPane::runShown);
    ok &= waitFor([&] { return !finished.isEmpty(); }, 90000);
    ok &= waitFor([&] { return !shown.isEmpty(); }, 30000); // the stored run, read again on the worker
    pane->chartTabs()->setCurrentWidget(pane->ncclChart());
    ok &= save(&window, out, QStringLiteral("validation.png"));
    ok &= bool(pane->ncclChart()->exportTo(out + QStringLiteral("/validation-nccl-chart.png"), 1000, 560));
    pane->chartTabs()->setCurrentWidget(pane->historyChart());
    ok &= bool(
        pane->historyChart()->exportTo(out + QStringLiteral("/validation-history-chart.png"), 1000, 460));
    pane->chartTabs()->setCurrentWidget(pane->ncclChart());
    {
        // The inference chart with a TTFT limit close to the measured p99: the limit's and the 1.1x
        // line's labels sit on either side, never over each other.
        InferenceResult inf;
        inf.outputTokensPerSec = 52340;
        inf.ttftMs.p50 = 910;
        inf.ttftMs.p90 = 1520;
        inf.ttftMs.p99 = 1890;
        pb::catalog::Constraint tput, ttft;
        tput.name = QStringLiteral("inference-throughput");
        tput.value = QStringLiteral(">= 50000");
        ttft.name = QStringLiteral("inference-ttft-p99");
        ttft.value = QStringLiteral("<= 2000 ms");
        pb::widgets::InferenceChart chart;
        chart.resize(1000, 300);
        chart.setResult(inf, scoreInference(QStringLiteral("inference-perf"), inf, {tput, ttft}).metrics);
        ok &= bool(chart.exportTo(out + QStringLiteral("/validation-inference-chart.png"), 1000, 300));
    }
    if (!ok)
        err() << "validation screenshots incomplete" << Qt::endl;
    return ok;
}

// The Receipts view (the ledger after everything above, newest receipt selected; the records tab
// with the ConfigHub fixture entry) and the release review report dialog with its preview.
bool receiptShots(pb::widgets::MainWindow& window, pb::db::Database& db, const QString& out) {
    bool ok = true;
    // A checkpoint of the head, so the banner's last line names it (and the one receipt since: its own).
    QTemporaryDir keep;
    {
        const pb::sigstore::crypto::Pkey key = pb::sigstore::generateSigningKey();
        pb::ops::CheckpointRequest req;
        req.key = key.get();
        req.outPath = keep.filePath(QStringLiteral("receipts-checkpoint.json"));
        ok &= pb::ops::writeCheckpoint(pb::ops::Context(db), req).ok();
    }
    window.showReceipts();
    pb::widgets::ReceiptsPane* pane = window.receiptsPane();
    QSignalSpy refreshed(pane, &pb::widgets::ReceiptsPane::refreshed);
    pane->refresh();
    ok &= waitFor([&] { return !refreshed.isEmpty(); }, 30000); // read on the worker
    pb::Result<pb::receipts::ChainHead> head = pb::receipts::Ledger(db).head();
    ok &= head.ok() && head->seq > 0 && pane->selectReceipt(head->seq);
    ok &= save(&window, out, QStringLiteral("receipts.png"));
    ok &= pane->importRecords(QStringLiteral(PB_FIXTURES "/receipts/entry"));
    ok &= waitFor([&] { return !pane->isImporting(); }, 60000);
    if (auto* tabs = pane->findChild<QTabWidget*>())
        tabs->setCurrentIndex(tabs->count() - 1);
    ok &= save(&window, out, QStringLiteral("receipts-records.png"));

    pb::widgets::ReportDialog dialog(window.workspace(), &window);
    dialog.resize(1200, 860);
    dialog.show();
    QSignalSpy ready(&dialog, &pb::widgets::ReportDialog::previewReady);
    dialog.refresh();
    ok &= waitFor([&] { return !ready.isEmpty() && !dialog.isCollecting(); }, 90000);
    ok &= save(&dialog, out, QStringLiteral("report-dialog.png"));
    dialog.close();
    if (!ok)
        err() << "receipts screenshots incomplete" << Qt::endl;
    return ok;
}

// The bundle view on AICR's golden argocd-helm bundle (templated fields in italics) and the bundle
// compare view on two golden argocd bundles (a component gained a pre folder).
// Runs tools/pgtest-server.sh; false with its stderr on failure (exit 77: PostgreSQL is not installed).
bool pgServer(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral("bash"),
            QStringList{QStringLiteral(PB_SOURCE_DIR "/tools/pgtest-server.sh")} + args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        err() << "pgtest-server.sh " << args.join(QLatin1Char(' ')) << ": " << p.readAllStandardError()
              << Qt::endl;
        return false;
    }
    return true;
}

QString fileText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
}

// The team server in the window, for real: a private PostgreSQL primary and hot standby
// (tools/pgtest-server.sh) on 127.0.0.1. Open Team Database… with its connection test, the same
// dialog warning about a remote host without TLS, a window on the server, the banner while the
// server is stopped, and a window on the standby. Skipped (true) when PostgreSQL is not installed.
bool teamShots(const QString& out) {
    QTemporaryDir tmp;
    const QString own = tmp.filePath(QStringLiteral("own")),
                  standby = tmp.filePath(QStringLiteral("standby"));
    if (!pgServer({QStringLiteral("start"), own})) {
        err() << "team screenshots skipped: no PostgreSQL test server" << Qt::endl;
        return true;
    }
    struct Stop {
        QString own, standby;
        ~Stop() {
            pgServer({QStringLiteral("stop"), standby});
            pgServer({QStringLiteral("stop"), own});
        }
    } stop{own, standby};
    const QByteArray passFile = qgetenv("PGPASSFILE");
    qputenv("PGPASSFILE", (own + QStringLiteral("/pgpass")).toUtf8());
    QProcess createdb;
    createdb.start(fileText(own + QStringLiteral("/bin")) + QStringLiteral("/psql"),
                   {QStringLiteral("-X"), QStringLiteral("-q"), QStringLiteral("-c"),
                    QStringLiteral("CREATE DATABASE proofbench"), fileText(own + QStringLiteral("/uri"))});
    if (!createdb.waitForFinished(30000) || createdb.exitCode() != 0) {
        err() << "CREATE DATABASE failed: " << createdb.readAllStandardError() << Qt::endl;
        return false;
    }
    const QUrl uri(fileText(own + QStringLiteral("/uri")));
    bool ok = true;

    using pb::widgets::OpenTeamDatabaseDialog;
    OpenTeamDatabaseDialog dialog;
    dialog.show();
    auto set = [&dialog](const char* name, const QString& text) {
        pbgui::findNamed<QLineEdit>(&dialog, name)->setText(text);
    };
    set("teamHost", uri.host());
    set("teamPort", QString::number(uri.port()));
    set("teamDatabase", QStringLiteral("proofbench"));
    set("teamUser", uri.userName());
    auto* mode = pbgui::findNamed<QComboBox>(&dialog, "teamTlsMode");
    mode->setCurrentIndex(mode->findData(QStringLiteral("verify-full")));
    set("teamCaFile", own + QStringLiteral("/ca.crt"));
    QSignalSpy tested(&dialog, &OpenTeamDatabaseDialog::tested);
    dialog.testConnection();
    waitFor([&] { return tested.count() > 0; }, 30000);
    ok &= dialog.lastTestSucceeded();
    ok &= save(&dialog, out, QStringLiteral("open-team-database.png"));
    const QString spec = dialog.spec();

    OpenTeamDatabaseDialog remote;
    remote.show();
    pbgui::findNamed<QLineEdit>(&remote, "teamHost")->setText(QStringLiteral("db.example.org"));
    pbgui::findNamed<QLineEdit>(&remote, "teamDatabase")->setText(QStringLiteral("proofbench"));
    pbgui::findNamed<QLineEdit>(&remote, "teamUser")->setText(QStringLiteral("carol"));
    auto* remoteMode = pbgui::findNamed<QComboBox>(&remote, "teamTlsMode");
    remoteMode->setCurrentIndex(remoteMode->findData(QStringLiteral("disable")));
    ok &= !remote.warningText().isEmpty();
    ok &= save(&remote, out, QStringLiteral("open-team-database-warning.png"));

    using pb::widgets::MainWindow;
    pb::widgets::WindowManager windows;
    windows.setQuiet(true);
    auto openWindow = [&](const QString& db) -> MainWindow* {
        QSignalSpy opened(&windows, &pb::widgets::WindowManager::windowOpened);
        windows.open(db);
        waitFor([&] { return opened.count() > 0 || !windows.isOpening(); }, 60000);
        if (opened.isEmpty()) {
            err() << "cannot open " << db << ": " << windows.lastError() << Qt::endl;
            return nullptr;
        }
        auto* w = opened.at(0).at(0).value<MainWindow*>();
        w->resize(1400, 900);
        waitFor([w] { return !w->isReloadingCatalogs() && !w->transportText().isEmpty(); }, 30000);
        w->selectVersion(QStringLiteral("sample-2"));
        waitFor([w] { return w->cachedCatalog(QStringLiteral("sample-2")) != nullptr; });
        w->statusBar()->clearMessage();
        return w;
    };
    MainWindow* w = openWindow(spec);
    if (!w)
        return false;
    ok &= save(w, out, QStringLiteral("team-window.png"));
    ok &= pgServer({QStringLiteral("pause"), own});
    ok &= waitFor([w] { return !w->connectionBannerText().isEmpty(); }, 30000);
    ok &= save(w, out, QStringLiteral("connection-lost.png"));
    ok &= pgServer({QStringLiteral("resume"), own});
    w->close();

    if (!pgServer({QStringLiteral("standby"), own, standby}))
        return false;
    qputenv("PGPASSFILE", (standby + QStringLiteral("/pgpass")).toUtf8());
    QUrl standbyUrl(fileText(standby + QStringLiteral("/uri")));
    standbyUrl.setPath(QStringLiteral("/proofbench"));
    MainWindow* replica = openWindow(standbyUrl.toString(QUrl::FullyEncoded));
    if (!replica)
        return false;
    ok &= waitFor([replica] { return !replica->replicaBanner()->isHidden(); }, 30000);
    ok &= save(replica, out, QStringLiteral("replica.png"));
    replica->close();
    qputenv("PGPASSFILE", passFile);
    return ok;
}

bool bundleShots(pb::widgets::MainWindow& window, const QString& out) {
    bool ok = true;
    const QString goldens = QStringLiteral(PB_SHARED_DATA "/aicr/bundler-goldens/");
    window.openDeploymentBundle(goldens + QStringLiteral("argocdhelm/helm_and_manifest_only"));
    pb::widgets::BundleView* view = window.bundleView();
    ok &= view && waitFor([&] { return view->hasBundle() && !view->isBusy(); }, 30000);
    if (ok) {
        view->resize(1300, 760);
        view->selectComponent(QStringLiteral("cert-manager"));
        view->detailTabs()->setCurrentIndex(1);
        ok &= save(view, out, QStringLiteral("bundle-view.png"));
        view->tabs()->setCurrentIndex(1);
        view->selectFile(QStringLiteral("templates/cert-manager.yaml"));
        ok &= save(view, out, QStringLiteral("bundle-view-files.png"));
        view->close();
    }
    window.compareBundles();
    pb::widgets::BundleCompareView* cmp = window.bundleCompareView();
    ok &= cmp != nullptr;
    if (ok) {
        cmp->resize(1300, 700);
        cmp->setSides(goldens + QStringLiteral("argocd/mixed_component"),
                      goldens + QStringLiteral("argocd/mixed_with_pre"));
        ok &= cmp->compare() && waitFor([&] { return cmp->hasResult() && !cmp->isBusy(); }, 30000);
        cmp->componentsView()->selectRow(1);
        ok &= save(cmp, out, QStringLiteral("bundle-compare.png"));
        cmp->close();
    }
    if (!ok)
        err() << "bundle screenshots incomplete" << Qt::endl;
    return ok;
}

} // namespace

// Verify an AICR Release… on the real v0.19.0 bundles against the imported 2026-08-09 catalog
// (release-verify.png), then the binding it records in the recipe header (catalog-release-binding.png)
// and the health header (health-release-binding.png).
bool releaseShots(pb::widgets::MainWindow& window, const QString& out) {
    window.showCatalog();
    window.verifyRelease();
    pb::widgets::ReleaseVerifyDialog* dialog = window.releaseVerifyDialog();
    if (!dialog) {
        err() << "Verify an AICR Release did not open" << Qt::endl;
        return false;
    }
    dialog->resize(1100, 640);
    dialog->setFolder(QStringLiteral(PB_SHARED_DATA "/aicr/releases/v0.19.0"));
    dialog->setTrustedRoot(QStringLiteral(PB_SHARED_DATA "/sigstore/trusted_root.production.json"));
    dialog->setCatalogVersion(QStringLiteral("2026-08-09"));
    QSignalSpy done(dialog, &pb::widgets::ReleaseVerifyDialog::verificationFinished);
    bool ok = dialog->startVerify() && waitFor([&] { return !done.isEmpty(); }, 120000);
    ok &= save(dialog, out, QStringLiteral("release-verify.png"));
    dialog->close();
    window.reloadCatalogs();
    ok &= waitFor([&] { return !window.isReloadingCatalogs(); }, 60000); // the tree is read on a worker
    const QString recipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
    ok &= window.selectRecipe(QStringLiteral("2026-08-09"), recipe);
    ok &= waitFor(
        [&] {
            return window.recipeView()->hasResult() && !window.recipeView()->releaseBindingText().isEmpty();
        },
        60000);
    ok &= save(&window, out, QStringLiteral("catalog-release-binding.png"));
    window.showHealth();
    window.healthPane()->setVersion(QStringLiteral("2026-08-09"));
    ok &= waitFor([&] {
        return !window.healthPane()->isLoading() &&
               window.healthPane()->sourceText().contains(QStringLiteral("signed by AICR"));
    });
    ok &= save(&window, out, QStringLiteral("health-release-binding.png"));
    window.showCatalog();
    if (!ok)
        err() << "release screenshots incomplete" << Qt::endl;
    return ok;
}

int main(int argc, char** argv) {
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication app(argc, argv);
    QLocale::setDefault(QLocale::c());
    const QStringList args = app.arguments();
    if (args.size() != 2) {
        err() << "usage: pb_screenshots OUTPUT_DIR" << Qt::endl;
        return 2;
    }
    const QString out = QDir(args[1]).absolutePath();
    QDir().mkpath(out);

    // Settings of our own: a "don't show again" of the user's must not hide the welcome here.
    QTemporaryDir settingsDir;
    pbgui::isolateSettings(settingsDir.path(), QStringLiteral("pb_screenshots"));

    auto db = pbgui::seededDatabase();
    if (!db->error.isEmpty()) {
        err() << db->error << Qt::endl;
        return 1;
    }

    using pb::widgets::MainWindow;
    MainWindow window(db->workspace());
    window.show();
    (void)QTest::qWaitFor([&] { return !window.isReloadingCatalogs(); },
                          30000); // the tree is read on a worker
    if (!QTest::qWaitForWindowExposed(&window))
        err() << "window not exposed" << Qt::endl;
    bool ok = true;
    // PB_SCREENSHOTS_ONLY=verify: only the Verify view (quick, while working on it).
    if (qEnvironmentVariable("PB_SCREENSHOTS_ONLY") == QLatin1String("verify"))
        return verifyShots(window, out) ? 0 : 1;
    // PB_SCREENSHOTS_ONLY=validation: only the Validation view.
    if (qEnvironmentVariable("PB_SCREENSHOTS_ONLY") == QLatin1String("validation"))
        return validationShots(window, *db->db, out) ? 0 : 1;
    // PB_SCREENSHOTS_ONLY=receipts: only the Receipts view and the report dialog.
    if (qEnvironmentVariable("PB_SCREENSHOTS_ONLY") == QLatin1String("receipts"))
        return receiptShots(window, *db->db, out) ? 0 : 1;
    // PB_SCREENSHOTS_ONLY=bundle: only the bundle view and the bundle compare view.
    if (qEnvironmentVariable("PB_SCREENSHOTS_ONLY") == QLatin1String("bundle"))
        return bundleShots(window, out) ? 0 : 1;
    // PB_SCREENSHOTS_ONLY=team: only the team server's dialog, windows and banners.
    if (qEnvironmentVariable("PB_SCREENSHOTS_ONLY") == QLatin1String("team"))
        return teamShots(out) ? 0 : 1;
    // PB_SCREENSHOTS_ONLY=sign: only the Sign view.
    if (qEnvironmentVariable("PB_SCREENSHOTS_ONLY") == QLatin1String("sign"))
        return signShots(window, *db->db, out) ? 0 : 1;
    // PB_SCREENSHOTS_ONLY=release: only Verify an AICR Release and the binding it records.
    if (qEnvironmentVariable("PB_SCREENSHOTS_ONLY") == QLatin1String("release")) {
        QSignalSpy finished(&window, &MainWindow::importFinished);
        window.startImport(QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/2026-08-09/recipes"),
                           QStringLiteral("2026-08-09"));
        waitFor([&] { return finished.count() > 0; }, 120000);
        return releaseShots(window, out) ? 0 : 1;
    }
    // PB_SCREENSHOTS_ONLY=git: only Import from Git, the sources in the tree and Compare's baseline.
    if (qEnvironmentVariable("PB_SCREENSHOTS_ONLY") == QLatin1String("git")) {
        QSignalSpy finished(&window, &MainWindow::importFinished);
        window.startImport(QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/2026-08-19/recipes"),
                           QStringLiteral("2026-08-19"));
        waitFor([&] { return finished.count() > 0; }, 120000);
        return gitShots(window, out) ? 0 : 1;
    }

    // 0. The first start: the sample catalog with the welcome that offers the real sources, and
    // the Health view's empty state (no evidence imported yet).
    window.selectVersion(QStringLiteral("sample-2"));
    waitFor([&] { return window.cachedCatalog(QStringLiteral("sample-2")) != nullptr; });
    ok &= window.isWelcomeShown();
    ok &= save(&window, out, QStringLiteral("welcome.png"));
    window.showHealth();
    waitFor(
        [&] { return !window.healthPane()->isLoading() && window.healthPane()->model()->rowCount() > 0; });
    ok &= save(&window, out, QStringLiteral("health-empty.png"));
    window.showCatalog();
    // Dismissed for this session: the pictures below show the catalog at full height.
    QTest::mouseClick(window.welcomePane()->dismissButton(), Qt::LeftButton);

    // 1. A catalog version's summary (the start screen), marked as sample data.
    ok &= save(&window, out, QStringLiteral("version-summary.png"));

    // 2. A recipe with inputs and thresholds in its validation.
    QSignalSpy shown(&window, &MainWindow::recipeShown);
    window.selectRecipe(QStringLiteral("sample-2"), QStringLiteral("h100-eks-ubuntu-inference-dynamo"));
    ok &= waitFor([&] { return window.recipeView()->hasResult(); });
    ok &= save(&window, out, QStringLiteral("main-window-recipe.png"));
    // 2b. File > Generate Bundle… on that recipe, after a run (tree digest shown).
    auto* generate = window.findChild<QAction*>(QStringLiteral("actionGenerateBundle"));
    // Enabled once the recipe on screen is resolved, which happens on a worker.
    (void)waitFor([&] { return generate && generate->isEnabled(); });
    if (generate && generate->isEnabled()) {
        generate->trigger();
        auto* dialog = window.findChild<pb::widgets::GenerateBundleDialog*>();
        const QString bundleDir = QDir(out).filePath(QStringLiteral(".generated-bundle"));
        QDir(bundleDir).removeRecursively();
        if (dialog) {
            // argocd-helm: one of the five deployers, the one the seed release page deploys with
            dialog->deployerCombo()->setCurrentIndex(
                dialog->deployerCombo()->findData(QStringLiteral("argocd-helm")));
            dialog->repoUrlEdit()->setText(QStringLiteral("oci://ghcr.io/example/aicr-bundles"));
            dialog->outDirEdit()->setText(bundleDir);
            dialog->nodeSelectorEdit()->setText(QStringLiteral("nodeGroup=gpu"));
            dialog->generate();
            ok &= waitFor([&] { return !dialog->isRunning() && dialog->outcome().has_value(); }, 30000);
            ok &= save(dialog, out, QStringLiteral("generate-bundle.png"));
            dialog->close();
        } else {
            ok = false;
        }
        QDir(bundleDir).removeRecursively();
    } else {
        ok = false;
    }

    // 3. Filter as you type.
    auto* filter = window.findChild<QLineEdit*>(QStringLiteral("recipeFilter"));
    filter->setFocus();
    QTest::keyClicks(filter, QStringLiteral("gb200 training"));
    window.selectRecipe(QStringLiteral("sample-1"), QStringLiteral("gb200-eks-ubuntu-training-kubeflow"));
    ok &= waitFor([&] {
        return window.recipeView()->hasResult() &&
               window.recipeView()->recipe().catalogLabel == QLatin1String("sample-1");
    });
    ok &= save(&window, out, QStringLiteral("main-window-filter.png"));
    filter->clear();

    // 4. An applied overlay's verbatim YAML.
    window.selectRecipe(QStringLiteral("sample-2"), QStringLiteral("h100-eks-ubuntu-inference-dynamo"));
    ok &= waitFor([&] {
        return window.recipeView()->recipe().name == QLatin1String("h100-eks-ubuntu-inference-dynamo");
    });
    if (auto* dlg = window.recipeView()->openOverlay(QStringLiteral("h100-eks-ubuntu-inference-dynamo"))) {
        if (!QTest::qWaitForWindowExposed(dlg))
            err() << "dialog not exposed" << Qt::endl;
        ok &= save(dlg, out, QStringLiteral("overlay-yaml.png"));
        dlg->close();
    } else {
        err() << "overlay dialog did not open" << Qt::endl;
        ok = false;
    }

    // 5. The component graph, one component selected: its dependencies and dependents stand out.
    const QString graphRecipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");
    window.selectRecipe(QStringLiteral("sample-2"), graphRecipe);
    ok &= waitFor([&] {
        return window.recipeView()->hasResult() && window.recipeView()->recipe().name == graphRecipe &&
               window.recipeView()->recipe().catalogLabel == QLatin1String("sample-2");
    });
    window.recipeTabs()->setCurrentWidget(window.graphPane());
    ok &= waitFor([&] { return window.graphPane()->isReady(); });
    window.recipeView()->selectComponent(QStringLiteral("gpu-operator"));
    window.graphPane()->selectComponent(QStringLiteral("gpu-operator"));
    ok &= save(&window, out, QStringLiteral("graph.png"));

    // 6. The same recipe compared with the previous catalog version.
    window.recipeTabs()->setCurrentWidget(window.comparePane());
    ok &= waitFor(
        [&] {
            return window.comparePane()->isUpToDate() && window.comparePane()->recipeDiff() &&
                   window.comparePane()->catalogDiff();
        },
        30000);
    ok &= save(&window, out, QStringLiteral("compare.png"));
    window.recipeTabs()->setCurrentIndex(0);

    // 7. Import progress. The dialog normally appears after 250 ms; show it at once for the picture.
    QSignalSpy finished(&window, &MainWindow::importFinished);
    window.startImport(QStringLiteral(PB_SOURCE_DIR "/recipes/sample-2"), QStringLiteral("sample-2-local"));
    QPointer<QProgressDialog> progress = window.findChild<QProgressDialog*>(QStringLiteral("importProgress"));
    if (progress) {
        progress->show();
        waitFor([&] { return !progress || finished.count() > 0 || progress->value() >= 20; });
        if (progress && finished.count() == 0)
            save(progress, out, QStringLiteral("import-progress.png"));
    }
    waitFor([&] { return finished.count() > 0; }, 60000);
    ok &= save(&window, out, QStringLiteral("main-window-imported.png"));

    // 8. The Health view with evidence imported: the real catalog and its evidence tree when the
    // shared data is there, else the fixture tree of the tests against sample-2.
    const QString realCatalog = QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/2026-08-19/recipes");
    QString healthVersion = QStringLiteral("sample-2"), evidenceDir, inspectRecipe;
    QTemporaryDir fixture;
    if (QFileInfo::exists(realCatalog + QStringLiteral("/evidence"))) {
        finished.clear();
        window.startImport(realCatalog, QStringLiteral("2026-08-19"));
        ok &= waitFor([&] { return finished.count() > 0; }, 120000) && finished.at(0).at(0).toBool();
        healthVersion = QStringLiteral("2026-08-19");
        evidenceDir = realCatalog + QStringLiteral("/evidence");
        inspectRecipe = QStringLiteral("rtx-pro-6000-eks-ubuntu-inference-dynamo");
    } else {
        evidenceDir = fixture.filePath(QStringLiteral("evidence"));
        ok &= pbgui::EvidenceFixture::writeTree(evidenceDir);
        inspectRecipe = pbgui::EvidenceFixture::signedRecipe();
    }
    // A summary bundle (built here, its performance phase with a failing test) for the recipe the
    // inspector shows, so the bundle section has something to show.
    {
        const bool real = healthVersion != QLatin1String("sample-2");
        const pbgui::BundleDirFixture bundle(
            inspectRecipe, 1, real ? realCatalog : QStringLiteral(PB_SOURCE_DIR "/recipes/sample-2"),
            real ? healthVersion : QStringLiteral("sample-2"));
        ok &= !bundle.writeDirectory(fixture.filePath(QStringLiteral("bundles/one"))).isEmpty();
        ok &= bool(
            pb::store::EvidenceStore(*db->db).importBundles(fixture.filePath(QStringLiteral("bundles"))));
    }
    QSignalSpy evidenceDone(&window, &MainWindow::evidenceImportFinished);
    window.startEvidenceImport(evidenceDir);
    ok &= waitFor([&] { return evidenceDone.count() > 0; }, 60000) && evidenceDone.at(0).at(0).toBool();
    window.showHealth();
    pb::widgets::HealthPane* health = window.healthPane();
    health->setVersion(healthVersion);
    ok &= waitFor([&] {
        return !health->isLoading() && health->version() == healthVersion && health->model()->rowCount() > 0;
    });
    // Needs attention first, then the good news.
    health->table()->sortByColumn(pb::models::HealthModel::AttestedColumn, Qt::DescendingOrder);
    // HealthPane does not hand its database to the inspector yet.
    health->inspector()->setWorkspace(&db->workspace());
    QSignalSpy bundlesShown(health->inspector(), &pb::widgets::EvidenceInspector::bundlesShown);
    ok &= health->selectRecipe(inspectRecipe);
    ok &= waitFor([&] { return !bundlesShown.isEmpty() && !health->inspector()->isLoadingBundles(); });
    ok &= save(&window, out, QStringLiteral("health.png"));

    // 8b. Fetch Evidence over every row with a bundle in a registry (queued, not started: no
    // network here), and the registry credentials view over a docker config fixture. Only with
    // the real evidence: the fixture's pointers name no registry (that path shows a message box).
    if (evidenceDir.startsWith(realCatalog)) {
        health->fetchAll(); // the pointers are read on a worker, then the dialog opens
        (void)QTest::qWaitFor([health] { return health->fetchDialog() != nullptr; }, 10000);
        if (pb::widgets::FetchEvidenceDialog* fetch = health->fetchDialog()) {
            fetch->resize(1000, 460);
            ok &= save(fetch, out, QStringLiteral("fetch-evidence.png"));
            fetch->close();
        }
    }
    {
        pb::widgets::RegistrySettings settings;
        settings.dockerConfig = QStringLiteral(PB_SOURCE_DIR "/tests/fixtures/gui-oci/config.json");
        settings.plainHttpRegistries = {QStringLiteral("127.0.0.1:5000")};
        pb::widgets::RegistryCredentialsDialog registries(
            window.workspace(), settings, {QStringLiteral("ghcr.io"), QStringLiteral("127.0.0.1:5000")},
            &window);
        registries.resize(1080, 440);
        registries.show();
        ok &= save(&registries, out, QStringLiteral("registries.png"));
    }

    // 8c. Import from Git, the versions' sources, Compare with a chosen baseline.
    ok &= gitShots(window, out);
    ok &= releaseShots(window, out);

    // 9. The Verify view.
    ok &= verifyShots(window, out);

    // 10. The Sign view.
    ok &= signShots(window, *db->db, out);

    // 11. The Validation view after a run, and its charts.
    ok &= validationShots(window, *db->db, out);

    // 12. The Receipts view and the report dialog.
    ok &= receiptShots(window, *db->db, out);

    // 13. The deployment bundle view and the bundle compare view.
    ok &= bundleShots(window, out);

    // 14. A team server: Open Team Database…, its window, a lost connection, a read-only replica.
    ok &= teamShots(out);

    return ok ? 0 : 1;
}
