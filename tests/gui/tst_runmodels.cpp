// The Validation view's models, each under QAbstractItemModelTester: the live checks table (upsert
// by check name, ticking durations), the runs list over a real RunStore, and the kubeconfig tree
// (every context of every file; current, insecure and unparsable files shown).
#include "GuiTestUtil.h"
#include "RunModels.h"
#include "ValidationFixture.h"
#include "store/RunStore.h"
#include "validation/Nccl.h"
#include "validation/Score.h"

#include <QBrush>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace pb::validation;
using pb::models::CheckTableModel;
using pb::models::KubeContextsModel;
using pb::models::RunListModel;

namespace {

CheckRun check(const QString& phase, const QString& name, CheckState s) {
    CheckRun c;
    c.phase = phase;
    c.name = name;
    c.state = s;
    return c;
}

bool write(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

const QByteArray kTwoContexts = R"(apiVersion: v1
kind: Config
current-context: prod
clusters:
- name: prod-cluster
  cluster:
    server: https://prod.example:6443
- name: lab-cluster
  cluster:
    server: https://lab.example:6443
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    token: not-a-real-token
contexts:
- name: prod
  context:
    cluster: prod-cluster
    user: admin
    namespace: gpu
- name: lab
  context:
    cluster: lab-cluster
    user: admin
)";

} // namespace

class TestRunModels : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void checksModel() {
        CheckTableModel model;
        QAbstractItemModelTester tester(&model, pbgui::kTesterMode);
        model.setChecks(
            {check(QStringLiteral("deployment"), QStringLiteral("operator-health"), CheckState::Pending),
             check(QStringLiteral("performance"), QStringLiteral("nccl-all-reduce-bw"),
                   CheckState::Pending)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(pbgui::column(model, CheckTableModel::StateColumn),
                 (QStringList{QStringLiteral("pending"), QStringLiteral("pending")}));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        CheckRun running =
            check(QStringLiteral("performance"), QStringLiteral("nccl-all-reduce-bw"), CheckState::Running);
        running.started = QDateTime(QDate(2025, 5, 1), QTime(12, 0), QTimeZone::utc());
        running.log = "not kept in the model";
        model.upsert(running);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.index(1, CheckTableModel::StateColumn).data().toString(), QStringLiteral("running"));
        QVERIFY(model.check(1)->log.isEmpty());
        QVERIFY(model.hasRunning());
        // The running check's duration follows the clock it is given.
        model.tick(running.started.addMSecs(4200));
        QCOMPARE(model.index(1, CheckTableModel::DurationColumn).data().toString(), QStringLiteral("4.2 s"));
        model.tick(running.started.addSecs(75));
        QCOMPARE(model.index(1, CheckTableModel::DurationColumn).data().toString(), QStringLiteral("1:15"));
        QCOMPARE(model.index(1, CheckTableModel::StateColumn).data(Qt::DecorationRole).value<QColor>(),
                 CheckTableModel::stateColor(CheckState::Running));

        CheckRun done = running;
        done.state = CheckState::Failed;
        done.durationMs = 61000;
        done.exitCode = 1;
        done.message = QStringLiteral("busbw 250.00 GB/s below 270.00\nsecond line");
        model.upsert(done);
        QCOMPARE(model.index(1, CheckTableModel::DurationColumn).data().toString(), QStringLiteral("1:01"));
        QCOMPARE(model.index(1, CheckTableModel::MessageColumn).data().toString(),
                 QStringLiteral("busbw 250.00 GB/s below 270.00"));
        QCOMPARE(model.index(1, CheckTableModel::MessageColumn).data(Qt::ToolTipRole).toString(),
                 done.message);
        QCOMPARE(model.index(1, CheckTableModel::StateColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("exit code 1"));
        QVERIFY(!model.hasRunning());

        // A check the plan did not list is appended.
        model.upsert(
            check(QStringLiteral("conformance"), QStringLiteral("dra-support"), CheckState::Skipped));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowOf(QStringLiteral("dra-support")), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void runsModel() {
        std::unique_ptr<pbgui::SeededDb> db = pbgui::seededDatabase();
        QVERIFY2(db->error.isEmpty(), qPrintable(db->error));
        pb::store::RunStore store(*db->db);
        pb::Result<NcclResult> nccl =
            parseNcclFile(pbgui::validationFixture(QStringLiteral("nccl-all-reduce-16gpu.txt")));
        QVERIFY(nccl);
        for (const QString& coordinate :
             {QStringLiteral("h100-eks-ubuntu-training-kubeflow"), QStringLiteral("lab")}) {
            CheckRun c = check(QStringLiteral("performance"), QStringLiteral("nccl-all-reduce-bw"),
                               CheckState::Passed);
            c.nccl = *nccl;
            pb::catalog::Constraint k;
            k.name = c.name;
            k.value = QStringLiteral(">= 300");
            c.score = scoreNccl(c.name, *nccl, {k});
            c.started = c.finished = QDateTime::currentDateTimeUtc();
            RunResult run;
            run.runId = QStringLiteral("import-") + coordinate;
            run.state = RunState::Passed;
            run.started = run.finished = c.started;
            run.phasesRun = {c.phase};
            run.checks = {c};
            pb::store::RunHeader h;
            h.source = QStringLiteral("import");
            h.coordinate = coordinate;
            QVERIFY(store.saveImported(h, run));
        }
        pb::Result<std::vector<pb::store::RunSummary>> list = store.list();
        QVERIFY(list);
        RunListModel model;
        QAbstractItemModelTester tester(&model, pbgui::kTesterMode);
        model.setRuns(*list);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, RunListModel::StateColumn).data().toString(), QStringLiteral("passed"));
        QCOMPARE(model.index(0, RunListModel::ChecksColumn).data().toString(), QStringLiteral("1/1 passed"));
        QCOMPARE(model.index(0, RunListModel::ContextColumn).data().toString(), QStringLiteral("(imported)"));
        const qint64 id = model.index(1, 0).data(RunListModel::RunIdRole).toLongLong();
        QCOMPARE(model.rowOfRun(id), 1);
        QCOMPARE(model.run(1)->id, id);
        QVERIFY(QStringList({QStringLiteral("h100-eks-ubuntu-training-kubeflow"), QStringLiteral("lab")})
                    .contains(model.index(1, RunListModel::RecipeColumn).data().toString()));
        model.setRuns({});
        QCOMPARE(model.rowCount(), 0);
    }

    // Issue #20: a check that could not run shows its cause first; a run with such checks counts
    // them apart ("other") and is drawn in the `other` colour, not as failed.
    void otherChecksAndIncompleteRuns() {
        CheckRun c =
            check(QStringLiteral("deployment"), QStringLiteral("operator-health"), CheckState::Other);
        c.cause = QStringLiteral("image-pull");
        c.k8sReason = QStringLiteral("ImagePullBackOff");
        c.message = QStringLiteral("pod x could not pull ghcr.io/nvidia/aicr-validators/deployment:v1 for 60 "
                                   "s: Back-off pulling image");
        CheckTableModel checks;
        checks.setChecks({c});
        const QString msg = checks.index(0, CheckTableModel::MessageColumn).data().toString();
        QVERIFY2(msg.startsWith(QLatin1String("[image-pull, ImagePullBackOff] pod x could not pull")),
                 qPrintable(msg));
        QVERIFY(checks.index(0, CheckTableModel::StateColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("not a failure")));

        std::unique_ptr<pbgui::SeededDb> db = pbgui::seededDatabase();
        QVERIFY2(db->error.isEmpty(), qPrintable(db->error));
        pb::store::RunStore store(*db->db);
        RunResult run;
        run.runId = QStringLiteral("faulty01");
        run.state = RunState::Incomplete;
        run.started = run.finished = QDateTime::currentDateTimeUtc();
        run.phasesRun = {c.phase};
        run.checks = {
            c, check(QStringLiteral("deployment"), QStringLiteral("expected-resources"), CheckState::Passed)};
        pb::store::RunHeader h;
        h.coordinate = QStringLiteral("lab");
        pb::Result<qint64> id = store.begin(h, run.runId, run.checks);
        QVERIFY(id);
        QVERIFY(store.finish(*id, run));
        QVERIFY(store.saveLeftovers(
            *id, {{QStringLiteral("/api/v1/namespaces/aicr-validation/configmaps/aicr-snapshot-faulty01"),
                   QStringLiteral("403 Forbidden")}}));
        pb::Result<std::vector<pb::store::RunSummary>> list = store.list();
        QVERIFY(list && list->size() == 1);
        QCOMPARE(list->front().other, 1);
        QCOMPARE(list->front().failed, 0);
        QCOMPARE(list->front().leftovers, 1);
        RunListModel model;
        model.setRuns(*list);
        QCOMPARE(model.index(0, RunListModel::StateColumn).data().toString(), QStringLiteral("incomplete"));
        QCOMPARE(model.index(0, RunListModel::ChecksColumn).data().toString(),
                 QStringLiteral("1/2 passed, 1 other"));
        QCOMPARE(model.index(0, RunListModel::StateColumn).data(Qt::ForegroundRole).value<QBrush>().color(),
                 CheckTableModel::stateColor(CheckState::Other));
    }

    void kubeContexts() {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString kube = home.filePath(QStringLiteral(".kube"));
        QVERIFY(write(kube + QStringLiteral("/config"), kTwoContexts));
        QVERIFY(write(kube + QStringLiteral("/broken.yaml"),
                      "apiVersion: v1\nkind: Config\ncontexts: [\n  - name: x\n"));
        QVERIFY(write(kube + QStringLiteral("/config-staging"),
                      QByteArray(kTwoContexts).replace("current-context: prod", "current-context: lab")));
        QVERIFY(write(kube + QStringLiteral("/notes.txt"), "not a kubeconfig"));

        const QStringList files = pb::models::kubeconfigCandidates(home.path());
        QCOMPARE(files, (QStringList{kube + QStringLiteral("/config"), kube + QStringLiteral("/broken.yaml"),
                                     kube + QStringLiteral("/config-staging")}));

        KubeContextsModel model;
        QAbstractItemModelTester tester(&model, pbgui::kTesterMode);
        std::vector<pb::models::KubeFileEntry> entries;
        for (const QString& f : files)
            entries.push_back(pb::models::readKubeconfigFile(f));
        model.setFiles(entries);
        QCOMPARE(model.rowCount(), 3);
        const QModelIndex config = model.index(0, 0);
        QCOMPARE(model.rowCount(config), 2);
        QCOMPARE(model.index(0, 0, config).data(KubeContextsModel::ContextRole).toString(),
                 QStringLiteral("prod"));
        QVERIFY(model.index(0, 0, config).data(KubeContextsModel::CurrentRole).toBool());
        QVERIFY(model.index(0, 0, config).data().toString().contains(QLatin1String("(current)")));
        QCOMPARE(model.index(0, KubeContextsModel::NamespaceColumn, config).data().toString(),
                 QStringLiteral("gpu"));
        QVERIFY(!model.index(0, 0, config).data(KubeContextsModel::InsecureRole).toBool());
        QVERIFY(model.index(1, 0, config).data(KubeContextsModel::InsecureRole).toBool());
        QVERIFY(model.index(1, KubeContextsModel::ServerColumn, config)
                    .data()
                    .toString()
                    .contains(QLatin1String("insecure-skip-tls-verify")));
        QCOMPARE(model.index(1, 0, config).data(KubeContextsModel::FileRole).toString(),
                 kube + QStringLiteral("/config"));
        QVERIFY(model.flags(model.index(0, 0, config)) & Qt::ItemIsSelectable);
        QVERIFY(!(model.flags(config) & Qt::ItemIsSelectable));

        // The file that does not parse is listed with its error, not hidden.
        const QModelIndex broken = model.index(1, 0);
        QCOMPARE(model.rowCount(broken), 0);
        const QString error = broken.data(KubeContextsModel::ErrorRole).toString();
        QVERIFY(!error.isEmpty());
        QVERIFY2(error.contains(QLatin1String("broken.yaml")), qPrintable(error));
        QVERIFY(model.index(1, KubeContextsModel::ServerColumn)
                    .data()
                    .toString()
                    .startsWith(QLatin1String("does not parse")));

        // The same file again: its contexts re-read in place.
        QCOMPARE(model.contextIndex(kube + QStringLiteral("/config-staging"), QStringLiteral("lab"))
                     .parent()
                     .row(),
                 2);
        QVERIFY(model.contextIndex(kube + QStringLiteral("/config-staging"), QStringLiteral("lab"))
                    .data(KubeContextsModel::CurrentRole)
                    .toBool());
        QVERIFY(write(kube + QStringLiteral("/broken.yaml"), kTwoContexts));
        QCOMPARE(model.addFile(pb::models::readKubeconfigFile(kube + QStringLiteral("/broken.yaml"))), 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowCount(model.index(1, 0)), 2);
        QVERIFY(model.index(1, 0).data(KubeContextsModel::ErrorRole).toString().isEmpty());

        // A file added by the user (the test server's kubeconfig would be one) goes at the end.
        QVERIFY(write(home.filePath(QStringLiteral("elsewhere/k.yaml")), kTwoContexts));
        QCOMPARE(
            model.addFile(pb::models::readKubeconfigFile(home.filePath(QStringLiteral("elsewhere/k.yaml")))),
            3);
        QCOMPARE(model.rowCount(), 4);
        QVERIFY(model.contextIndex(home.filePath(QStringLiteral("elsewhere/k.yaml")), QStringLiteral("lab"))
                    .isValid());
        QVERIFY(!model.contextIndex(home.filePath(QStringLiteral("elsewhere/k.yaml")), QStringLiteral("nope"))
                     .isValid());
    }
};

QTEST_MAIN(TestRunModels)
#include "tst_runmodels.moc"
