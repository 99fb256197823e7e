// The Verify view's models over real verifications of the Sigstore conformance cases (each under
// QAbstractItemModelTester): the steps with their verdicts and, for a mismatch, expected and found;
// the certificate's extensions; the log entries (Rekor v1 and v2); the timestamps; the stored
// history read back from a temp database; and the command lines that reproduce a check, quoted
// for the shell.
#include "GuiTestUtil.h"
#include "SigstoreCases.h"
#include "VerifyModels.h"
#include "store/VerificationStore.h"

#include <QAbstractItemModelTester>
#include <QIcon>
#include <QLocale>
#include <QTest>

using namespace pb;
using models::CertificateExtensionsModel;
using models::LogEntriesModel;
using models::TimestampsModel;
using models::VerificationHistoryModel;
using models::VerificationStepsModel;
using models::VerifyRequest;
using pbgui::SigstoreCase;
using sigstore::StepState;

using pbgui::column;
using pbgui::kTesterMode;

class TestVerifyModels : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();

    void steps_data();
    void steps();
    void identityMismatchHasExpectedAndFound();
    void certificateExtensions();
    void logEntries_data();
    void logEntries();
    void timestamps();
    void storedResultReadsBack();
    void history();
    void shellQuoting();
    void proofbenchCommand();
    void cosignCommand();
    void requestAsOperation();
    void libraryReadsAndImports();
};

void TestVerifyModels::initTestCase() {
    QLocale::setDefault(QLocale::c());
}

void TestVerifyModels::steps_data() {
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<bool>("verified");
    QTest::addColumn<QString>("failedStep");
    QTest::addRow("happy-path-v0.3") << QStringLiteral("happy-path-v0.3") << true << QString();
    QTest::addRow("rekor2-dsse-happy-path") << QStringLiteral("rekor2-dsse-happy-path") << true << QString();
    QTest::addRow("managed-key-happy-path") << QStringLiteral("managed-key-happy-path") << true << QString();
    QTest::addRow("inclusion-proof-corrupted-hash_fail")
        << QStringLiteral("inclusion-proof-corrupted-hash_fail") << false
        << QStringLiteral("transparency log");
    // Issue 19: the log entry is bound to the artifact's own digest, and that step comes before the
    // signature's, so another artifact is first refused by the transparency log step.
    QTest::addRow("wrong-material_fail")
        << QStringLiteral("wrong-material_fail") << false << QStringLiteral("transparency log");
}

void TestVerifyModels::steps() {
    QFETCH(QString, caseName);
    QFETCH(bool, verified);
    QFETCH(QString, failedStep);
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/") + caseName);
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(caseName);
    QVERIFY(c);
    const sigstore::VerificationResult result = pbgui::verifyCase(*c);
    QCOMPARE(result.verified, verified);

    VerificationStepsModel model;
    QAbstractItemModelTester tester(&model, kTesterMode);
    model.setSteps(result.steps);
    QCOMPARE(model.rowCount(), static_cast<int>(result.steps.size()));
    QCOMPARE(model.columnCount(), int(VerificationStepsModel::ColumnCount));
    QVERIFY(model.rowCount() >= 2);
    QCOMPARE(model.index(0, VerificationStepsModel::StepColumn).data().toString(), QStringLiteral("bundle"));

    // Every step: its name, its verdict in words and as a role, and an icon.
    for (int r = 0; r < model.rowCount(); ++r) {
        const sigstore::Step& s = result.steps[static_cast<size_t>(r)];
        QCOMPARE(model.index(r, VerificationStepsModel::StepColumn).data().toString(), s.name);
        QCOMPARE(model.index(r, VerificationStepsModel::ResultColumn).data().toString(),
                 stepStateName(s.state));
        QCOMPARE(model.index(r, 0).data(VerificationStepsModel::StateRole).toString(),
                 stepStateName(s.state));
        QVERIFY(!model.index(r, VerificationStepsModel::StepColumn)
                     .data(Qt::DecorationRole)
                     .value<QIcon>()
                     .isNull());
        QVERIFY(model.index(r, VerificationStepsModel::DetailColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(s.name));
    }
    if (verified) {
        QCOMPARE(model.countOf(StepState::Failed), 0);
        QCOMPARE(model.firstFailedRow(), -1);
        QVERIFY(model.rowOf(QStringLiteral("signature")) >= 0);
        QCOMPARE(model.index(model.rowOf(QStringLiteral("signature")), VerificationStepsModel::ResultColumn)
                     .data()
                     .toString(),
                 QStringLiteral("passed"));
    } else {
        QVERIFY(model.firstFailedRow() >= 0);
        QCOMPARE(model.index(model.firstFailedRow(), 0).data().toString(), failedStep);
        QCOMPARE(model.stepAt(model.firstFailedRow()).name, result.firstFailure()->name);
    }
    // Key mode: the certificate steps do not apply.
    if (c->mode == QLatin1String("key"))
        QCOMPARE(model.index(model.rowOf(QStringLiteral("identity")), VerificationStepsModel::ResultColumn)
                     .data()
                     .toString(),
                 QStringLiteral("skipped"));

    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestVerifyModels::identityMismatchHasExpectedAndFound() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("happy-path-v0.3"));
    QVERIFY(c);
    const QString wrong =
        QString(c->identity).replace(QStringLiteral("refs/heads/main"), QStringLiteral("refs/heads/x"));
    QVERIFY(wrong != c->identity);
    const sigstore::VerificationResult result = pbgui::verifyCase(*c, wrong);
    QVERIFY(!result.verified);

    VerificationStepsModel model;
    QAbstractItemModelTester tester(&model, kTesterMode);
    model.setSteps(result.steps);
    const int row = model.firstFailedRow();
    QVERIFY(row >= 0);
    const QModelIndex idx = model.index(row, 0);
    QCOMPARE(idx.data().toString(), QStringLiteral("identity"));
    QVERIFY(idx.data(VerificationStepsModel::HasComparisonRole).toBool());
    QVERIFY(idx.data(VerificationStepsModel::ExpectedRole).toString().contains(wrong));
    QVERIFY(idx.data(VerificationStepsModel::FoundRole).toString().contains(c->identity));
    QVERIFY(!idx.data(VerificationStepsModel::FoundRole).toString().contains(wrong));
    // The tooltip carries both, for a reader of the table alone.
    const QString tip =
        model.index(row, VerificationStepsModel::DetailColumn).data(Qt::ToolTipRole).toString();
    QVERIFY(tip.contains(QStringLiteral("expected: ")) && tip.contains(QStringLiteral("found: ")));
    // Steps that compared nothing say so.
    QVERIFY(!model.index(0, 0).data(VerificationStepsModel::HasComparisonRole).toBool());
}

void TestVerifyModels::certificateExtensions() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("happy-path-v0.3"));
    QVERIFY(c);
    const sigstore::VerificationResult result = pbgui::verifyCase(*c);
    QVERIFY(result.certificate);
    QCOMPARE(result.certificate->san, c->identity);

    CertificateExtensionsModel model;
    QAbstractItemModelTester tester(&model, kTesterMode);
    model.setExtensions(result.certificate->extensions);
    QCOMPARE(model.rowCount(), static_cast<int>(result.certificate->extensions.size()));
    QVERIFY(model.rowCount() > 5);
    for (int r = 0; r < model.rowCount(); ++r) {
        QCOMPARE(model.index(r, CertificateExtensionsModel::NameColumn).data().toString(),
                 result.certificate->extensions.at(r).first);
        QVERIFY(model.index(r, CertificateExtensionsModel::ValueColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(result.certificate->extensions.at(r).first));
    }
    // Fulcio's GitHub extensions are there by name.
    QVERIFY(
        column(model, CertificateExtensionsModel::ValueColumn).contains(QStringLiteral("refs/heads/main")));
    QCOMPARE(model.valueOf(QStringLiteral("X509v3 Extended Key Usage")), QStringLiteral("Code Signing"));
    QCOMPARE(model.valueOf(QStringLiteral("no such extension")), QString());
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestVerifyModels::logEntries_data() {
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<bool>("integrated"); // Rekor v1 entries carry an integrated time, v2 do not
    QTest::addRow("rekor v1") << QStringLiteral("happy-path-v0.3") << true;
    QTest::addRow("rekor v2") << QStringLiteral("rekor2-happy-path") << false;
}

void TestVerifyModels::logEntries() {
    QFETCH(QString, caseName);
    QFETCH(bool, integrated);
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/") + caseName);
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(caseName);
    QVERIFY(c);
    const sigstore::VerificationResult result = pbgui::verifyCase(*c);
    QVERIFY(result.verified);
    QCOMPARE(result.logEntries.size(), size_t(1));
    const sigstore::LogEntryInfo& e = result.logEntries.front();

    LogEntriesModel model;
    QAbstractItemModelTester tester(&model, kTesterMode);
    model.setEntries(result.logEntries);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, LogEntriesModel::LogColumn).data().toString(), e.logUrl);
    QCOMPARE(model.index(0, LogEntriesModel::IndexColumn).data().toString(), QString::number(e.logIndex));
    QCOMPARE(model.index(0, LogEntriesModel::IndexColumn).data(LogEntriesModel::SortRole).toLongLong(),
             e.logIndex);
    QVERIFY(model.index(0, LogEntriesModel::KindColumn).data().toString().startsWith(e.kind));
    QCOMPARE(model.index(0, LogEntriesModel::CheckpointColumn).data().toString(), e.checkpointOrigin);
    QVERIFY(!e.checkpointOrigin.isEmpty());
    QCOMPARE(model.index(0, LogEntriesModel::TreeSizeColumn).data().toString(), QString::number(e.treeSize));
    QCOMPARE(model.index(0, LogEntriesModel::RootHashColumn).data().toString(), e.rootHashHex);
    QCOMPARE(e.rootHashHex.size(), 64);
    QVERIFY(model.index(0, 0).data(LogEntriesModel::VerifiedRole).toBool());
    const QString time = model.index(0, LogEntriesModel::IntegratedTimeColumn).data().toString();
    if (integrated) {
        QCOMPARE(time, sigstore::formatMs(e.integratedTime * 1000));
        QVERIFY(time.endsWith(QLatin1Char('Z')));
    } else {
        QCOMPARE(e.integratedTime, 0);
        QVERIFY(time.contains(QStringLiteral("Rekor v2")));
    }
}

void TestVerifyModels::timestamps() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-happy-path"));
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("rekor2-happy-path"));
    QVERIFY(c);
    const sigstore::VerificationResult result = pbgui::verifyCase(*c);
    QVERIFY(result.verified);
    QCOMPARE(result.timestamps.size(), size_t(1));

    TimestampsModel model;
    QAbstractItemModelTester tester(&model, kTesterMode);
    model.setTimestamps(result.timestamps);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, TimestampsModel::AuthorityColumn).data().toString(), result.timestamps[0].tsaUri);
    QCOMPARE(model.index(0, TimestampsModel::TimeColumn).data().toString(),
             sigstore::formatMs(result.timestamps[0].genTimeMs));
    QCOMPARE(model.index(0, TimestampsModel::ResultColumn).data().toString(), QStringLiteral("verified"));
    QVERIFY(model.index(0, 0).data(TimestampsModel::VerifiedRole).toBool());

    // A timestamp that did not verify says so, and why.
    std::vector<sigstore::TimestampInfo> bad = result.timestamps;
    bad[0].verified = false;
    bad[0].detail = QStringLiteral("not signed by a trusted authority");
    model.setTimestamps(bad);
    QCOMPARE(model.index(0, TimestampsModel::ResultColumn).data().toString(), QStringLiteral("not verified"));
    QCOMPARE(model.index(0, TimestampsModel::DetailColumn).data().toString(), bad[0].detail);
}

void TestVerifyModels::storedResultReadsBack() {
    // The history shows a stored result: what the models show of it must match the live result.
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/rekor2-dsse-happy-path"));
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("rekor2-dsse-happy-path"));
    QVERIFY(c);
    const sigstore::VerificationResult live = pbgui::verifyCase(*c);
    QVERIFY(live.verified);
    const sigstore::VerificationResult back = sigstore::VerificationResult::fromJson(live.toJson());

    VerificationStepsModel a, b;
    a.setSteps(live.steps);
    b.setSteps(back.steps);
    for (int col = 0; col < VerificationStepsModel::ColumnCount; ++col)
        QCOMPARE(column(b, col), column(a, col));
    LogEntriesModel la, lb;
    la.setEntries(live.logEntries);
    lb.setEntries(back.logEntries);
    for (int col = 0; col < LogEntriesModel::ColumnCount; ++col)
        QCOMPARE(column(lb, col), column(la, col));
    TimestampsModel ta, tb;
    ta.setTimestamps(live.timestamps);
    tb.setTimestamps(back.timestamps);
    for (int col = 0; col < TimestampsModel::ColumnCount; ++col)
        QCOMPARE(column(tb, col), column(ta, col));
    QVERIFY(back.certificate);
    QCOMPARE(back.certificate->san, live.certificate->san);
    QCOMPARE(back.certificate->extensions, live.certificate->extensions);
    QVERIFY(!back.predicateType.isEmpty()); // DSSE: an in-toto statement
}

void TestVerifyModels::history() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
    auto db = pbgui::seededDatabase();
    QVERIFY2(db->error.isEmpty(), qPrintable(db->error));
    store::VerificationStore verifications(*db->db);
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("happy-path-v0.3"));
    QVERIFY(c);
    sigstore::Policy policy;
    policy.identity = c->identity;
    policy.issuer = c->issuer;
    const sigstore::VerificationResult good = pbgui::verifyCase(*c);
    Result<qint64> first = verifications.record(good, pbgui::readAll(c->bundle()), policy);
    QVERIFY2(first, qPrintable(first ? QString() : first.error().toString()));
    policy.identity = QStringLiteral("someone@example.com");
    const sigstore::VerificationResult bad = pbgui::verifyCase(*c, policy.identity);
    Result<qint64> second = verifications.record(bad, pbgui::readAll(c->bundle()), policy);
    QVERIFY(second);

    Result<std::vector<store::StoredVerification>> rows = verifications.recent();
    QVERIFY(rows);
    VerificationHistoryModel model;
    QAbstractItemModelTester tester(&model, kTesterMode);
    model.setRows(std::move(*rows));
    QCOMPARE(model.rowCount(), 2);
    const int goodRow = model.rowOfId(*first), badRow = model.rowOfId(*second);
    QVERIFY(goodRow >= 0 && badRow >= 0 && goodRow != badRow);
    QCOMPARE(model.rowOfId(-5), -1);
    QCOMPARE(model.index(goodRow, 0).data(VerificationHistoryModel::IdRole).toLongLong(), *first);
    QVERIFY(model.index(goodRow, 0).data(VerificationHistoryModel::VerifiedRole).toBool());
    QVERIFY(!model.index(badRow, 0).data(VerificationHistoryModel::VerifiedRole).toBool());
    QCOMPARE(model.index(goodRow, VerificationHistoryModel::SummaryColumn).data().toString(),
             QStringLiteral("verified"));
    QVERIFY(model.index(badRow, VerificationHistoryModel::SummaryColumn)
                .data()
                .toString()
                .startsWith(QStringLiteral("identity")));
    // The bundle's folder names it: conformance bundles are all "bundle.sigstore.json".
    QCOMPARE(model.index(goodRow, VerificationHistoryModel::BundleColumn).data().toString(),
             QStringLiteral("happy-path-v0.3/bundle.sigstore.json"));
    QCOMPARE(model.index(goodRow, VerificationHistoryModel::SignerColumn).data().toString(), c->identity);
    QVERIFY(model.index(goodRow, VerificationHistoryModel::TimeColumn)
                .data()
                .toString()
                .startsWith(QString::number(QDate::currentDate().year())));
    QVERIFY(model.index(badRow, 0).data(Qt::ToolTipRole).toString().contains(c->bundle()));
    QVERIFY(!model.index(badRow, 0).data(Qt::DecorationRole).value<QIcon>().isNull());
}

void TestVerifyModels::shellQuoting() {
    using models::shellQuote;
    QCOMPARE(shellQuote(QStringLiteral("/tmp/a.sigstore.json")), QStringLiteral("/tmp/a.sigstore.json"));
    QCOMPARE(shellQuote(QStringLiteral("sha256:ab12")), QStringLiteral("sha256:ab12"));
    QCOMPARE(shellQuote(QStringLiteral("https://github.com/o/r/.github/workflows/x.yml@refs/heads/main")),
             QStringLiteral("https://github.com/o/r/.github/workflows/x.yml@refs/heads/main"));
    QCOMPARE(shellQuote(QStringLiteral("my dir/b.json")), QStringLiteral("'my dir/b.json'"));
    QCOMPARE(shellQuote(QStringLiteral("it's")), QStringLiteral("'it'\\''s'"));
    QCOMPARE(shellQuote(QStringLiteral("^https://x$")), QStringLiteral("'^https://x$'"));
    QCOMPARE(shellQuote(QString()), QStringLiteral("''"));
    QCOMPARE(models::shellJoin({QStringLiteral("a"), QStringLiteral("b c")}), QStringLiteral("a 'b c'"));
}

void TestVerifyModels::proofbenchCommand() {
    VerifyRequest r;
    r.bundlePath = QStringLiteral("/data/my bundle.sigstore.json");
    r.artifactPath = QStringLiteral("/data/artifact");
    r.identity = QStringLiteral("https://github.com/o/r/.github/workflows/x.yml@refs/heads/main");
    r.issuer = QStringLiteral("https://token.actions.githubusercontent.com");
    r.trustedRootPath = QStringLiteral("/roots/trusted_root.json");
    QCOMPARE(models::shellJoin(models::proofbenchArguments(r)),
             QStringLiteral(
                 "proofbench verify --bundle '/data/my bundle.sigstore.json' --artifact /data/artifact "
                 "--certificate-identity https://github.com/o/r/.github/workflows/x.yml@refs/heads/main "
                 "--certificate-oidc-issuer https://token.actions.githubusercontent.com "
                 "--trusted-root /roots/trusted_root.json"));

    // Regexps, digest mode.
    r.identityRegexp = true;
    r.identity = QStringLiteral("^https://github.com/o/");
    r.issuerRegexp = true;
    r.issuer = QStringLiteral("githubusercontent");
    r.digestMode = true;
    r.digest = QStringLiteral("A0CFC71271D6E278E57CD332FF957C3F7043FDDA354C4CBB190A30D56EFA01BF");
    QCOMPARE(r.normalizedDigest(),
             QStringLiteral("sha256:a0cfc71271d6e278e57cd332ff957c3f7043fdda354c4cbb190a30d56efa01bf"));
    QStringList args = models::proofbenchArguments(r);
    QVERIFY(args.contains(QStringLiteral("--certificate-identity-regexp")));
    QVERIFY(args.contains(QStringLiteral("--certificate-oidc-issuer-regexp")));
    QVERIFY(!args.contains(QStringLiteral("--artifact")));
    QCOMPARE(args.at(args.indexOf(QStringLiteral("--digest")) + 1), r.normalizedDigest());

    // Key mode; a root known only by name that is the default: the database's default root.
    r.keyMode = true;
    r.keyPath = QStringLiteral("/keys/cosign.pub");
    r.ignoreTlog = true;
    r.trustedRootPath.clear();
    r.trustedRootName = QStringLiteral("trusted_root.json");
    r.trustedRootIsDefault = true;
    r.databasePath = QStringLiteral("/db/proofbench.sqlite");
    args = models::proofbenchArguments(r);
    QVERIFY(!args.contains(QStringLiteral("--certificate-identity-regexp")));
    QCOMPARE(args.at(args.indexOf(QStringLiteral("--key")) + 1), r.keyPath);
    QVERIFY(args.contains(QStringLiteral("--insecure-ignore-tlog")));
    QVERIFY(!args.contains(QStringLiteral("--trusted-root")));
    QCOMPARE(args.at(args.indexOf(QStringLiteral("--db")) + 1), r.databasePath);
    r.trustedRootIsDefault = false; // not the default: named, the user supplies the file
    args = models::proofbenchArguments(r);
    QCOMPARE(args.at(args.indexOf(QStringLiteral("--trusted-root")) + 1),
             QStringLiteral("trusted_root.json"));
}

void TestVerifyModels::cosignCommand() {
    VerifyRequest r;
    r.bundlePath = QStringLiteral("/data/a.sigstore.json");
    r.artifactPath = QStringLiteral("/data/artifact file");
    r.identity = QStringLiteral("someone@example.com");
    r.issuer = QStringLiteral("https://accounts.google.com");
    r.trustedRootPath = QStringLiteral("/roots/trusted_root.json");
    QCOMPARE(models::shellJoin(models::cosignArguments(r)),
             QStringLiteral(
                 "cosign verify-blob --bundle /data/a.sigstore.json --trusted-root /roots/trusted_root.json "
                 "--certificate-identity someone@example.com --certificate-oidc-issuer "
                 "https://accounts.google.com '/data/artifact file'"));

    // A DSSE bundle by digest: verify-blob-attestation, the bare hex and its algorithm.
    r.dsse = true;
    r.digestMode = true;
    r.digest = QStringLiteral("sha256:a0cfc71271d6e278e57cd332ff957c3f7043fdda354c4cbb190a30d56efa01bf");
    r.identityRegexp = true;
    QStringList args = models::cosignArguments(r);
    QCOMPARE(args.at(1), QStringLiteral("verify-blob-attestation"));
    QCOMPARE(args.at(args.indexOf(QStringLiteral("--digest")) + 1),
             QStringLiteral("a0cfc71271d6e278e57cd332ff957c3f7043fdda354c4cbb190a30d56efa01bf"));
    QCOMPARE(args.at(args.indexOf(QStringLiteral("--digestAlg")) + 1), QStringLiteral("sha256"));
    QVERIFY(args.contains(QStringLiteral("--certificate-identity-regexp")));
    QVERIFY(!args.contains(r.artifactPath));

    // Key mode: the key file, not the policy's placeholder.
    r.keyMode = true;
    r.keyPath = QStringLiteral("/keys/cosign.pub");
    args = models::cosignArguments(r);
    QCOMPARE(args.at(args.indexOf(QStringLiteral("--key")) + 1), r.keyPath);
    QVERIFY(!args.contains(QStringLiteral("--certificate-identity-regexp")));
}

// The view's inputs become the operation's request: the artifact's file or its digest, the policy
// (exact or regexp), the key's file (read by the operation, never the placeholder), the stored
// root, recorded.
void TestVerifyModels::requestAsOperation() {
    VerifyRequest r;
    r.bundlePath = QStringLiteral("/b/bundle.sigstore.json");
    r.artifactPath = QStringLiteral("/b/artifact");
    r.digest = QStringLiteral("sha256:") + QString(64, QLatin1Char('a'));
    r.identity = QStringLiteral("^https://example\\.com/");
    r.identityRegexp = true;
    r.issuer = QStringLiteral("https://issuer.example");
    r.keyPath = QStringLiteral("/keys/cosign.pub");
    r.ignoreTlog = true;
    ops::VerifyRequest op = r.operation(7);
    QCOMPARE(op.bundlePath, r.bundlePath);
    QCOMPARE(op.artifactPath, r.artifactPath);
    QVERIFY(op.artifactDigest.isEmpty());
    QCOMPARE(op.policy.identityRegexp, r.identity);
    QVERIFY(op.policy.identity.isEmpty());
    QCOMPARE(op.policy.issuer, r.issuer);
    QVERIFY(!op.policy.keyMode());
    QVERIFY(!op.policy.ignoreTlog); // only with a key
    QVERIFY(op.keyPath.isEmpty());
    QCOMPARE(op.trustedRootId, qint64(7));
    QVERIFY(op.trustedRootPath.isEmpty());
    QVERIFY(op.record);

    r.digestMode = true;
    r.keyMode = true;
    op = r.operation(0);
    QVERIFY(op.artifactPath.isEmpty());
    QCOMPARE(op.artifactDigest, r.digest);
    QCOMPARE(op.keyPath, r.keyPath);
    QVERIFY(op.policy.publicKeyPem.isEmpty()); // the operation reads the file
    QVERIFY(op.policy.ignoreTlog);
    QVERIFY(op.policy.identityRegexp.isEmpty());
}

void TestVerifyModels::libraryReadsAndImports() {
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/happy-path-v0.3"));
    auto db = pbgui::seededDatabase();
    QVERIFY2(db->error.isEmpty(), qPrintable(db->error));
    // The worker-side reads and the import, on a context over the test's connection.
    const ops::Context ctx(*db->db);
    QVERIFY(models::storedTrustedRoots(ctx)->empty());
    QVERIFY(models::recentVerifications(ctx)->empty());
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(QStringLiteral("happy-path-v0.3"));
    QVERIFY(c);
    Result<qint64> id = models::importTrustedRoot(ctx, c->trustedRoot());
    QVERIFY(id);
    QCOMPARE(models::storedTrustedRoots(ctx)->size(), size_t(1));
    QVERIFY(models::storedTrustedRoots(ctx)->front().isDefault);
    QCOMPARE(*models::importTrustedRoot(ctx, c->trustedRoot()), *id); // the same bytes: the same root
    QVERIFY(!models::importTrustedRoot(ctx, c->bundle()));            // not a trusted root
    QCOMPARE(models::storedTrustedRoots(ctx)->size(), size_t(1));
}

QTEST_MAIN(TestVerifyModels)
#include "tst_verifymodels.moc"
