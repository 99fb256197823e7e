// The registry models of issue #11 on real inputs: a docker config.json fixture with auths (basic,
// username/password, identity token, an entry left to the credsStore), credsStore and credHelpers
// lists each registry with where its credentials come from, and no secret reaches any index or role.
// The fetch queue model follows a fetch's states and bytes. Both under QAbstractItemModelTester.
#include "GuiTestUtil.h"
#include "RegistryModels.h"
#include "TestUtil.h"

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using models::CredentialKind;
using models::FetchQueueModel;
using models::FetchState;
using models::RegistryModel;

namespace {

QString fixtureConfig() {
    return pbtest::fixture(QStringLiteral("gui-oci/config.json"));
}

// Every string any role of any index gives, for the secret scan.
QStringList everyText(const QAbstractItemModel& m) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        for (int c = 0; c < m.columnCount(); ++c)
            for (int role = 0; role <= Qt::UserRole + 32; ++role) {
                const QVariant v = m.index(r, c).data(role);
                if (v.isValid())
                    out << v.toString();
            }
    for (int c = 0; c < m.columnCount(); ++c)
        out << m.headerData(c, Qt::Horizontal).toString();
    return out;
}

evidence::Pointer pointer(const QString& file, const QString& oci, const QString& digest) {
    const QByteArray y =
        "attestations:\n  - attestedAt: 2026-10-01T10:00:00Z\n    bundle:\n      digest: " + digest.toUtf8() +
        "\n      oci: " + oci.toUtf8() +
        "\n      predicateType: https://aicr.run/recipe-evidence/v3\nrecipe: r\nschemaVersion: 1.0.0\n";
    evidence::Pointer p = evidence::parsePointer(y, file);
    p.file = file;
    return p;
}

} // namespace

class TestRegistryModels : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }
    void sourcesFromConfig();
    void anonymousWithoutStore();
    void noSecretInAnyRole();
    void brokenConfigNamesTheFile();
    void fetchQueue();
};

void TestRegistryModels::sourcesFromConfig() {
    oci::DockerConfigOptions o;
    o.configFile = fixtureConfig();
    auto entries =
        models::readCredentialSources(o, {QStringLiteral("ghcr.io")}, {QStringLiteral("127.0.0.1:5000")});
    QVERIFY2(entries, entries ? "" : qPrintable(entries.error().toString()));
    RegistryModel model;
    QAbstractItemModelTester tester(&model, pbgui::kTesterMode);
    model.setEntries(std::move(*entries));
    QCOMPARE(model.rowCount(), 9); // 2 helpers, 4 auths (ecr.example.com is the helper's), 2 named, "*"
    auto kindOf = [&](const QString& registry) {
        const int r = model.rowOf(registry);
        return r < 0 ? -1 : model.index(r, 0).data(RegistryModel::KindRole).toInt();
    };
    auto sourceOf = [&](const QString& registry) {
        const int r = model.rowOf(registry);
        return r < 0 ? QString() : model.index(r, RegistryModel::SourceColumn).data().toString();
    };
    QCOMPARE(kindOf(QStringLiteral("registry.basic.example:5000")), int(CredentialKind::Basic));
    QVERIFY(sourceOf(QStringLiteral("registry.basic.example:5000"))
                .startsWith(QStringLiteral("config.json auths (")));
    QVERIFY(sourceOf(QStringLiteral("registry.basic.example:5000")).contains(fixtureConfig()));
    QCOMPARE(kindOf(QStringLiteral("registry.split.example")), int(CredentialKind::Basic));
    QCOMPARE(kindOf(QStringLiteral("registry.token.example")), int(CredentialKind::IdentityToken));
    QCOMPARE(model.index(model.rowOf(QStringLiteral("registry.token.example")), RegistryModel::KindColumn)
                 .data()
                 .toString(),
             QStringLiteral("identity token (config.json auths)"));
    // An auths entry without inline credentials is the credsStore's.
    QCOMPARE(kindOf(QStringLiteral("registry.stored.example")), int(CredentialKind::Store));
    QCOMPARE(sourceOf(QStringLiteral("registry.stored.example")), QStringLiteral("credsStore: desktop"));
    // credHelpers win over auths for the same registry.
    QCOMPARE(kindOf(QStringLiteral("ecr.example.com")), int(CredentialKind::Helper));
    QCOMPARE(sourceOf(QStringLiteral("ecr.example.com")), QStringLiteral("credHelpers: ecr-login"));
    QCOMPARE(sourceOf(QStringLiteral("gcr.example.com")), QStringLiteral("credHelpers: gcloud"));
    // The store answers for registries config.json does not name, and is listed last as "*".
    QCOMPARE(kindOf(QStringLiteral("ghcr.io")), int(CredentialKind::Store));
    QCOMPARE(kindOf(QStringLiteral("127.0.0.1:5000")), int(CredentialKind::Store));
    QCOMPARE(model.entryAt(model.rowCount() - 1).registry, QStringLiteral("*"));
    QCOMPARE(model.index(model.rowCount() - 1, 0).data().toString(),
             QStringLiteral("* (any other registry)"));
    // Plain HTTP only for the registry listed.
    QCOMPARE(model.index(model.rowOf(QStringLiteral("127.0.0.1:5000")), RegistryModel::TransportColumn)
                 .data()
                 .toString(),
             QStringLiteral("plain HTTP (listed)"));
    QCOMPARE(
        model.index(model.rowOf(QStringLiteral("ghcr.io")), RegistryModel::TransportColumn).data().toString(),
        QStringLiteral("HTTPS"));

    // An access test's result, through its states.
    const int row = model.rowOf(QStringLiteral("ghcr.io"));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QCOMPARE(model.index(row, RegistryModel::AccessColumn).data().toString(), QStringLiteral("not tested"));
    model.setTesting(row);
    QVERIFY(model.index(row, 0).data(RegistryModel::TestingRole).toBool());
    model.setAccess(row, false, QStringLiteral("connection refused"));
    QCOMPARE(changed.count(), 2);
    QVERIFY(!model.index(row, 0).data(RegistryModel::TestingRole).toBool());
    QVERIFY(!model.index(row, 0).data(RegistryModel::AccessOkRole).toBool());
    QCOMPARE(model.index(row, RegistryModel::AccessColumn).data().toString(),
             QStringLiteral("connection refused"));
}

void TestRegistryModels::anonymousWithoutStore() {
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("config.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"credHelpers\":{\"a.example\":\"pass\"}}");
    f.close();
    oci::DockerConfigOptions o;
    o.configFile = f.fileName();
    auto entries = models::readCredentialSources(o, {QStringLiteral("ghcr.io"), QStringLiteral("a.example")});
    QVERIFY(entries);
    RegistryModel model;
    QAbstractItemModelTester tester(&model, pbgui::kTesterMode);
    model.setEntries(std::move(*entries));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.entryAt(model.rowOf(QStringLiteral("ghcr.io"))).kind, CredentialKind::Anonymous);
    QCOMPARE(
        model.index(model.rowOf(QStringLiteral("ghcr.io")), RegistryModel::SourceColumn).data().toString(),
        QStringLiteral("anonymous"));
    QCOMPARE(model.entryAt(model.rowOf(QStringLiteral("a.example"))).kind, CredentialKind::Helper);
    // No config file at all: everything named is anonymous.
    o.configFile = dir.filePath(QStringLiteral("absent.json"));
    entries = models::readCredentialSources(o, {QStringLiteral("ghcr.io")});
    QVERIFY(entries);
    QCOMPARE(entries->size(), size_t(1));
    QCOMPARE(entries->front().kind, CredentialKind::Anonymous);
}

void TestRegistryModels::noSecretInAnyRole() {
    oci::DockerConfigOptions o;
    o.configFile = fixtureConfig();
    auto entries = models::readCredentialSources(o, {QStringLiteral("ghcr.io")});
    QVERIFY(entries);
    RegistryModel model;
    QAbstractItemModelTester tester(&model, pbgui::kTesterMode);
    model.setEntries(std::move(*entries));
    QVERIFY(model.rowCount() > 0);
    // The secrets as written (base64 of user:password, passwords, identity token) and decoded.
    const QStringList secrets{QStringLiteral("pb-fixture"), QStringLiteral("YnVpbGRlcjpwYi1maXh0dXJl"),
                              QStringLiteral("QVdTOnBiLWZpeHR1cmU"), QStringLiteral("builder:"),
                              QStringLiteral("AWS:")};
    const QStringList texts = everyText(model);
    QVERIFY(texts.size() > model.rowCount() * model.columnCount());
    for (const QString& t : texts)
        for (const QString& s : secrets)
            QVERIFY2(!t.contains(s, Qt::CaseInsensitive),
                     qPrintable(QStringLiteral("'%1' shows '%2'").arg(t, s)));
    // Nor does the entry struct hold one.
    for (const models::RegistryEntry& e : model.entries())
        for (const QString& s : secrets)
            QVERIFY(!e.source.contains(s) && !e.registry.contains(s) && !e.access.contains(s));
}

void TestRegistryModels::brokenConfigNamesTheFile() {
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("config.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"auths\": [not json");
    f.close();
    oci::DockerConfigOptions o;
    o.configFile = f.fileName();
    auto entries = models::readCredentialSources(o);
    QVERIFY(!entries);
    QVERIFY2(entries.error().toString().contains(f.fileName()), qPrintable(entries.error().toString()));
}

void TestRegistryModels::fetchQueue() {
    FetchQueueModel model;
    QAbstractItemModelTester tester(&model, pbgui::kTesterMode);
    const QString digest = QStringLiteral("sha256:") + QString(64, QLatin1Char('a'));
    model.setPointers(
        {pointer(QStringLiteral("r1.yaml"), QStringLiteral("127.0.0.1:5000/o/ev:r1"), digest),
         pointer(QStringLiteral("r2.yaml"), QStringLiteral("ghcr.io/o/ev:r2"), QStringLiteral("latest"))});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, FetchQueueModel::ReferenceColumn).data().toString(),
             QStringLiteral("127.0.0.1:5000/o/ev@") + digest);
    QCOMPARE(model.index(1, FetchQueueModel::ReferenceColumn).data().toString(),
             QStringLiteral("ghcr.io/o/ev:r2")); // not pinnable
    QCOMPARE(model.index(0, FetchQueueModel::StateColumn).data().toString(), QStringLiteral("queued"));
    QCOMPARE(model.index(0, 0).data(FetchQueueModel::ProgressRole).toInt(), -1);

    model.setState(0, FetchState::Fetching);
    model.setProgress(0, 512 * 1024, 2 * 1024 * 1024);
    QCOMPARE(model.index(0, 0).data(FetchQueueModel::ProgressRole).toInt(), 25);
    QCOMPARE(model.index(0, FetchQueueModel::BytesColumn).data().toString(),
             QStringLiteral("512.0 KiB of 2.0 MiB"));
    QCOMPARE(model.finishedCount(), 0);
    model.setState(0, FetchState::Checking);
    model.setFetched(0, QStringLiteral("/cache/evidence/aaa"), true);
    model.setState(0, FetchState::Valid, QStringLiteral("signature verified"));
    model.setState(1, FetchState::Failed, QStringLiteral("r2.yaml: 'latest' is not a pinned sha256 digest"));
    QCOMPARE(model.finishedCount(), 2);
    QCOMPARE(model.countIn(FetchState::Valid), 1);
    QCOMPARE(model.index(0, 0).data(FetchQueueModel::StateNameRole).toString(), QStringLiteral("valid"));
    QCOMPARE(model.index(0, 0).data(FetchQueueModel::CacheDirRole).toString(),
             QStringLiteral("/cache/evidence/aaa"));
    QVERIFY(model.index(0, FetchQueueModel::DetailColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("signature referrer pulled")));
    QCOMPARE(model.index(1, FetchQueueModel::DetailColumn).data().toString(),
             QStringLiteral("r2.yaml: 'latest' is not a pinned sha256 digest"));
    QCOMPARE(model.bytesDone(), qint64(512 * 1024));
    QVERIFY(models::isFinished(FetchState::Cancelled) && !models::isFinished(FetchState::Checking));
}

QTEST_GUILESS_MAIN(TestRegistryModels)
#include "tst_registrymodels.moc"
