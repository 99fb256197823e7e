// The Sign view's models, each under QAbstractItemModelTester: the public keys read back from a
// temp database (label, fingerprint, created; no private material in any role); every file of a
// real deployment bundle verification after a file was changed, one removed and one added (states,
// digests, problems first); the filter proxy (problems only, path words, state names); and the
// trust-level and file-state styles.
#include "GuiTestUtil.h"
#include "SigningFixture.h"
#include "SigningModels.h"
#include "bundle/DeploymentBundle.h"

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using deploy::FileState;
using deploy::TrustLevel;
using models::DeploymentFilesFilterModel;
using models::DeploymentFilesModel;
using models::KeysModel;
using models::TrustStyle;

using pbgui::column;
using pbgui::kTesterMode;

class TestSigningModels : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }
    void keysModelListsStoredPublicKeys();
    void filesModelShowsEveryState();
    void filterProxyProblemsAndWords();
    void styles();
};

void TestSigningModels::keysModelListsStoredPublicKeys() {
    QTemporaryDir tmp;
    PB_TEST_DATABASE(pbDb, tmp.path(), QStringLiteral("pb.sqlite"));
    auto db = db::Database::open(pbDb.spec());
    QVERIFY(db.ok());
    const pbgui::WrittenKey a = pbgui::writeKey(**db, tmp.filePath(QStringLiteral("release.key")), "pw-one");
    const pbgui::WrittenKey b = pbgui::writeKey(**db, tmp.filePath(QStringLiteral("ci.key")), "pw-two");
    QVERIFY(!a.fingerprint.isEmpty() && !b.fingerprint.isEmpty());

    KeysModel model;
    QAbstractItemModelTester tester(&model, kTesterMode);
    auto keys = store::VerificationStore(**db).publicKeys();
    QVERIFY(keys.ok());
    model.setKeys(*keys);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), int(KeysModel::ColumnCount));
    QVERIFY(column(model, KeysModel::LabelColumn).contains(QStringLiteral("release.key")));
    QVERIFY(column(model, KeysModel::LabelColumn).contains(QStringLiteral("ci.key")));
    const int row = model.rowOfFingerprint(a.fingerprint);
    QVERIFY(row >= 0);
    QCOMPARE(model.index(row, KeysModel::FingerprintColumn).data().toString(), a.fingerprint);
    QCOMPARE(model.index(row, 0).data(KeysModel::PublicPemRole).toString().toUtf8(), a.publicPem);
    QVERIFY(!model.index(row, KeysModel::CreatedColumn).data().toString().isEmpty());
    // The fingerprint's one spelling (issue 30): sha256:<64 hex>, as keygen and verify print it.
    QVERIFY2(QRegularExpression(QStringLiteral("^sha256:[0-9a-f]{64}$")).match(a.fingerprint).hasMatch(),
             qPrintable(a.fingerprint));
    // No role holds anything private.
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c)
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(KeysModel::PublicPemRole)})
                QVERIFY(!model.index(r, c).data(role).toString().contains(QStringLiteral("PRIVATE")));
    QCOMPARE(model.headerData(KeysModel::FingerprintColumn, Qt::Horizontal).toString(),
             QStringLiteral("Fingerprint"));
    QCOMPARE(model.rowOfFingerprint(QStringLiteral("nope")), -1);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestSigningModels::filesModelShowsEveryState() {
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("bundle"));
    QCOMPARE(pbgui::writeDeploymentTree(dir, 40).size(), 40);
    sigstore::crypto::Pkey key = sigstore::generateSigningKey();
    QVERIFY(deploy::signDeploymentBundle(dir, key.get()).ok());
    QVERIFY(pbgui::writeText(dir + QStringLiteral("/001-cert-manager/values.yaml"), "replicas: 99\n"));
    QVERIFY(QFile::remove(dir + QStringLiteral("/README.md")));
    QVERIFY(pbgui::writeText(dir + QStringLiteral("/002-gpu-operator/sneaky.yaml"), "kind: Secret\n"));
    const deploy::DeploymentVerification v = deploy::verifyDeploymentBundle(dir, {});
    QCOMPARE(v.level, TrustLevel::Unknown);

    DeploymentFilesModel model;
    QAbstractItemModelTester tester(&model, kTesterMode);
    model.setFiles(v.files);
    QCOMPARE(model.rowCount(), 41); // 40 listed + 1 unexpected
    QCOMPARE(model.countOf(FileState::Changed), 1);
    QCOMPARE(model.countOf(FileState::Missing), 1);
    QCOMPARE(model.countOf(FileState::Unexpected), 1);
    QCOMPARE(model.problemCount(), 3);
    auto state = [&](const QString& path) {
        const int r = model.rowOf(path);
        return r < 0 ? QString() : model.index(r, DeploymentFilesModel::StateColumn).data().toString();
    };
    QCOMPARE(state(QStringLiteral("001-cert-manager/values.yaml")), QStringLiteral("changed"));
    QCOMPARE(state(QStringLiteral("README.md")), QStringLiteral("missing"));
    QCOMPARE(state(QStringLiteral("002-gpu-operator/sneaky.yaml")), QStringLiteral("unexpected"));
    QCOMPARE(state(QStringLiteral("recipe.yaml")), QStringLiteral("ok"));
    // Expected and found digests side by side; what is absent says so.
    const int changed = model.rowOf(QStringLiteral("001-cert-manager/values.yaml"));
    const QString expected = model.index(changed, DeploymentFilesModel::ExpectedColumn).data().toString();
    const QString found = model.index(changed, DeploymentFilesModel::FoundColumn).data().toString();
    QCOMPARE(expected.size(), 64);
    QCOMPARE(found.size(), 64);
    QVERIFY(expected != found);
    QCOMPARE(model.index(model.rowOf(QStringLiteral("README.md")), DeploymentFilesModel::FoundColumn)
                 .data()
                 .toString(),
             QStringLiteral("(no such file)"));
    QCOMPARE(model
                 .index(model.rowOf(QStringLiteral("002-gpu-operator/sneaky.yaml")),
                        DeploymentFilesModel::ExpectedColumn)
                 .data()
                 .toString(),
             QStringLiteral("(not listed)"));
    QVERIFY(model.index(changed, DeploymentFilesModel::PathColumn)
                .data(DeploymentFilesModel::ProblemRole)
                .toBool());
    QVERIFY(!model.index(changed, DeploymentFilesModel::StateColumn)
                 .data(Qt::DecorationRole)
                 .value<QIcon>()
                 .isNull());
    QVERIFY(model.index(changed, 0).data(Qt::ToolTipRole).toString().contains(expected));
}

void TestSigningModels::filterProxyProblemsAndWords() {
    std::vector<deploy::FileCheck> files{
        {QStringLiteral("001-a/values.yaml"), FileState::Ok, QString(64, QLatin1Char('a')),
         QString(64, QLatin1Char('a'))},
        {QStringLiteral("001-a/manifests/x.yaml"), FileState::Changed, QString(64, QLatin1Char('b')),
         QString(64, QLatin1Char('c'))},
        {QStringLiteral("002-b/values.yaml"), FileState::Missing, QString(64, QLatin1Char('d')), {}},
        {QStringLiteral("extra.txt"), FileState::Unexpected, {}, QString(64, QLatin1Char('e'))},
        {QStringLiteral("recipe.yaml"), FileState::Ok, QString(64, QLatin1Char('f')),
         QString(64, QLatin1Char('f'))},
    };
    DeploymentFilesModel model;
    DeploymentFilesFilterModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester t1(&model, kTesterMode);
    QAbstractItemModelTester t2(&proxy, kTesterMode);
    model.setFiles(files);
    QCOMPARE(proxy.rowCount(), 5);
    // Sorted by state: problems first (changed, missing, unexpected), then the rest by path.
    proxy.sort(DeploymentFilesModel::StateColumn, Qt::AscendingOrder);
    QCOMPARE(column(proxy, DeploymentFilesModel::StateColumn),
             (QStringList{"changed", "missing", "unexpected", "ok", "ok"}));
    proxy.setProblemsOnly(true);
    QCOMPARE(proxy.rowCount(), 3);
    QCOMPARE(column(proxy, DeploymentFilesModel::PathColumn),
             (QStringList{"001-a/manifests/x.yaml", "002-b/values.yaml", "extra.txt"}));
    proxy.setFilterText(QStringLiteral("VALUES"));
    QCOMPARE(column(proxy, DeploymentFilesModel::PathColumn), QStringList{"002-b/values.yaml"});
    proxy.setProblemsOnly(false);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setFilterText(QStringLiteral("001 values"));
    QCOMPARE(column(proxy, DeploymentFilesModel::PathColumn), QStringList{"001-a/values.yaml"});
    proxy.setFilterText(QStringLiteral("unexpected"));
    QCOMPARE(column(proxy, DeploymentFilesModel::PathColumn), QStringList{"extra.txt"});
    proxy.setFilterText(QString());
    QCOMPARE(proxy.rowCount(), 5);
    model.clear();
    QCOMPARE(proxy.rowCount(), 0);
}

void TestSigningModels::styles() {
    QSet<QRgb> colors;
    for (TrustLevel l :
         {TrustLevel::Unknown, TrustLevel::Unverified, TrustLevel::Attested, TrustLevel::Verified}) {
        QVERIFY(!TrustStyle::icon(l).isNull());
        QVERIFY(!TrustStyle::explanation(l).isEmpty());
        colors.insert(TrustStyle::color(l).rgb());
        QVERIFY(TrustStyle::background(l).lightness() > TrustStyle::color(l).lightness());
    }
    QCOMPARE(colors.size(), 4);
    QSet<QRgb> fileColors;
    for (FileState s : {FileState::Ok, FileState::Changed, FileState::Missing, FileState::Unexpected}) {
        QVERIFY(!TrustStyle::fileIcon(s).isNull());
        fileColors.insert(TrustStyle::fileColor(s).rgb());
    }
    QCOMPARE(fileColors.size(), 4);
}

QTEST_MAIN(TestSigningModels)
#include "tst_signingmodels.moc"
