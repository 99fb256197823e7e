// One verification, two faces: the same Sigstore conformance bundle verified by the CLI binary
// (`proofbench verify --record --db …`) and by the Verify view (inputs typed, Verify clicked, the
// operation run on its worker through ops::Async), each on its own database. The verdict and every
// step, the stored verification and the `verify` receipt (kind, parameters, result, inputs,
// outputs; not time, seq or hash) must be the same: both faces call ops::verify.
#include "GuiTestUtil.h"
#include "SigstoreCases.h"
#include "VerifyPane.h"
#include "db/Database.h"
#include "receipts/Ledger.h"
#include "store/VerificationStore.h"

#include <QCheckBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QLocale>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTest>

using namespace pb;
using pbgui::SigstoreCase;
using widgets::VerifyPane;

namespace {

constexpr int kTimeout = 30000;

struct Face {
    QJsonObject result;            // VerificationResult::toJson()
    store::StoredVerification row; // the stored verification
    receipts::Receipt receipt;     // the newest receipt
    QString error;                 // empty when the face ran
};

// The newest receipt and stored verification of the database at `path`.
QString readBack(const QString& path, Face& face) {
    auto db = db::Database::open(path);
    if (!db)
        return db.error().toString();
    auto receipts = receipts::Ledger(**db).list();
    if (!receipts || receipts->empty())
        return QStringLiteral("no receipt");
    face.receipt = receipts->back();
    auto rows = store::VerificationStore(**db).recent(1);
    if (!rows || rows->empty())
        return QStringLiteral("no stored verification");
    face.row = rows->front();
    return {};
}

QJsonObject receiptFacts(const receipts::Receipt& r) {
    QJsonArray inputs, outputs;
    for (const auto& a : r.inputs)
        inputs.append(a.toJson());
    for (const auto& a : r.outputs)
        outputs.append(a.toJson());
    return QJsonObject{{QStringLiteral("kind"), r.kind},
                       {QStringLiteral("parameters"), r.parameters},
                       {QStringLiteral("result"), receipts::outcomeName(r.result)},
                       {QStringLiteral("message"), r.message},
                       {QStringLiteral("inputs"), inputs},
                       {QStringLiteral("outputs"), outputs}};
}

QJsonObject rowFacts(const store::StoredVerification& v) {
    return QJsonObject{{QStringLiteral("id"), v.id},
                       {QStringLiteral("bundleFile"), v.bundleFile},
                       {QStringLiteral("bundleSha256"), v.bundleSha256},
                       {QStringLiteral("artifactDigest"), v.artifactDigest},
                       {QStringLiteral("mode"), v.mode},
                       {QStringLiteral("summary"), v.summary},
                       {QStringLiteral("signerIdentity"), v.signerIdentity},
                       {QStringLiteral("signerIssuer"), v.signerIssuer},
                       {QStringLiteral("trustedRootSha256"), v.trustedRootSha256},
                       {QStringLiteral("verified"), v.verified},
                       {QStringLiteral("policy"), v.policy},
                       {QStringLiteral("result"), v.result}};
}

// A readable diff of two JSON objects for a failure message.
QByteArray both(const QJsonObject& a, const QJsonObject& b) {
    return "CLI: " + QJsonDocument(a).toJson(QJsonDocument::Compact) +
           "\nGUI: " + QJsonDocument(b).toJson(QJsonDocument::Compact);
}

} // namespace

class TestVerifyFaces : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }
    void sameAnswerFromCliAndWindow_data();
    void sameAnswerFromCliAndWindow();

  private:
    Face viaCli(const SigstoreCase& c, const QString& mode, const QString& identity, const QString& dbPath);
    Face viaWindow(const SigstoreCase& c, const QString& mode, const QString& identity);
};

void TestVerifyFaces::sameAnswerFromCliAndWindow_data() {
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("mode");     // identity | regexp | digest | key
    QTest::addColumn<QString>("identity"); // instead of the manifest's (a mismatch)
    QTest::addColumn<bool>("verified");
    QTest::addRow("identity") << QStringLiteral("happy-path-v0.3") << QStringLiteral("identity") << QString()
                              << true;
    QTest::addRow("identity mismatch") << QStringLiteral("happy-path-v0.3") << QStringLiteral("identity")
                                       << QStringLiteral("someone@example.com") << false;
    QTest::addRow("regexp, digest") << QStringLiteral("rekor2-dsse-happy-path") << QStringLiteral("regexp")
                                    << QStringLiteral("^https://github\\.com/sigstore-conformance/") << true;
    QTest::addRow("key") << QStringLiteral("managed-key-happy-path") << QStringLiteral("key") << QString()
                         << true;
    QTest::addRow("corrupted inclusion proof") << QStringLiteral("inclusion-proof-corrupted-hash_fail")
                                               << QStringLiteral("identity") << QString() << false;
}

Face TestVerifyFaces::viaCli(const SigstoreCase& c, const QString& mode, const QString& identity,
                             const QString& dbPath) {
    Face face;
    QStringList args{QStringLiteral("verify"),
                     QStringLiteral("--db"),
                     dbPath,
                     QStringLiteral("--record"),
                     QStringLiteral("--bundle"),
                     c.bundle(),
                     QStringLiteral("--trusted-root"),
                     c.trustedRoot(),
                     QStringLiteral("--format"),
                     QStringLiteral("json")};
    if (mode == QLatin1String("regexp"))
        args << QStringLiteral("--digest") << c.artifactDigest;
    else
        args << QStringLiteral("--artifact") << c.artifact();
    if (mode == QLatin1String("key"))
        args << QStringLiteral("--key") << c.key();
    else
        args << (mode == QLatin1String("regexp") ? QStringLiteral("--certificate-identity-regexp")
                                                 : QStringLiteral("--certificate-identity"))
             << (identity.isEmpty() ? c.identity : identity) << QStringLiteral("--certificate-oidc-issuer")
             << c.issuer;
    QProcess p;
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    if (!p.waitForFinished(kTimeout)) {
        face.error = QStringLiteral("the CLI timed out");
        return face;
    }
    const QByteArray out = p.readAllStandardOutput();
    face.result = QJsonDocument::fromJson(out).object();
    const bool verified = face.result.value(QStringLiteral("verified")).toBool();
    if (p.exitCode() != (verified ? 0 : 1) || face.result.isEmpty()) {
        face.error =
            QStringLiteral("exit %1: %2").arg(p.exitCode()).arg(QString::fromUtf8(p.readAllStandardError()));
        return face;
    }
    face.error = readBack(dbPath, face);
    return face;
}

Face TestVerifyFaces::viaWindow(const SigstoreCase& c, const QString& mode, const QString& identity) {
    Face face;
    std::unique_ptr<pbgui::SeededDb> db = pbgui::seededDatabase();
    if (!db->error.isEmpty()) {
        face.error = db->error;
        return face;
    }
    {
        models::Workspace workspace(db->path());
        VerifyPane pane(workspace);
        pane.resize(1400, 900);
        pane.show();
        if (!QTest::qWaitForWindowExposed(&pane)) {
            face.error = QStringLiteral("the pane was not exposed");
            return face;
        }
        auto find = [&](const char* name) { return pane.findChild<QWidget*>(QLatin1String(name)); };
        // The root is imported on the workspace's worker.
        QSignalSpy imported(&pane, &VerifyPane::trustedRootImported);
        QSignalSpy refused(&pane, &VerifyPane::trustedRootImportFailed);
        if (!pane.importTrustedRoot(c.trustedRoot()) ||
            !QTest::qWaitFor([&] { return !imported.isEmpty() || !refused.isEmpty(); }, kTimeout) ||
            imported.isEmpty()) {
            face.error = pane.lastError();
            return face;
        }
        static_cast<QLineEdit*>(find("verifyBundlePath"))->setText(c.bundle());
        if (mode == QLatin1String("regexp")) {
            static_cast<QRadioButton*>(find("verifyArtifactDigestMode"))->click();
            QTest::keyClicks(static_cast<QLineEdit*>(find("verifyDigest")), c.artifactDigest);
        } else {
            static_cast<QRadioButton*>(find("verifyArtifactFileMode"))->click();
            QTest::keyClicks(static_cast<QLineEdit*>(find("verifyArtifactPath")), c.artifact());
        }
        if (mode == QLatin1String("key")) {
            static_cast<QRadioButton*>(find("verifyKeyMode"))->click();
            QTest::keyClicks(static_cast<QLineEdit*>(find("verifyKeyPath")), c.key());
        } else {
            static_cast<QRadioButton*>(find("verifyIdentityMode"))->click();
            static_cast<QCheckBox*>(find("verifyIdentityRegexp"))
                ->setChecked(mode == QLatin1String("regexp"));
            QTest::keyClicks(static_cast<QLineEdit*>(find("verifyIdentity")),
                             identity.isEmpty() ? c.identity : identity);
            QTest::keyClicks(static_cast<QLineEdit*>(find("verifyIssuer")), c.issuer);
        }
        QSignalSpy finished(&pane, &VerifyPane::verificationFinished);
        QTest::mouseClick(static_cast<QPushButton*>(find("verifyButton")), Qt::LeftButton);
        if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, kTimeout)) {
            face.error = QStringLiteral("no verdict from the Verify view");
            return face;
        }
        if (!finished.at(0).at(2).toString().isEmpty() || finished.at(0).at(1).toLongLong() == 0) {
            face.error = finished.at(0).at(2).toString();
            return face;
        }
        face.result = pane.result().toJson();
    }
    face.error = readBack(db->path(), face);
    return face;
}

void TestVerifyFaces::sameAnswerFromCliAndWindow() {
    QFETCH(QString, caseName);
    QFETCH(QString, mode);
    QFETCH(QString, identity);
    QFETCH(bool, verified);
    PB_REQUIRE_SHARED(QStringLiteral("sigstore/cases/") + caseName);
    if (!QFileInfo(QStringLiteral(PB_CLI_BINARY)).isExecutable())
        QSKIP("the proofbench binary is not built");
    const std::optional<SigstoreCase> c = pbgui::sigstoreCase(caseName);
    QVERIFY(c);
    QTemporaryDir tmp;
    PB_TEST_DATABASE(cliDb, tmp.path(), QStringLiteral("cli.sqlite"));
    const Face cli = viaCli(*c, mode, identity, cliDb.spec());
    QVERIFY2(cli.error.isEmpty(), qPrintable(cli.error));
    const Face gui = viaWindow(*c, mode, identity);
    QVERIFY2(gui.error.isEmpty(), qPrintable(gui.error));

    // The verdict and every step (name, state, detail, expected, found), the certificate, the log
    // entries, the timestamps: the whole result.
    QCOMPARE(cli.result.value(QStringLiteral("verified")).toBool(), verified);
    QVERIFY2(cli.result == gui.result, both(cli.result, gui.result).constData());
    QVERIFY(!cli.result.value(QStringLiteral("steps")).toArray().isEmpty());
    // The stored verification, field by field (its time aside).
    QVERIFY2(rowFacts(cli.row) == rowFacts(gui.row), both(rowFacts(cli.row), rowFacts(gui.row)).constData());
    // The receipt: kind, parameters, result, inputs and outputs (not time, seq or hash).
    QCOMPARE(cli.receipt.kind, QStringLiteral("verify"));
    QVERIFY2(receiptFacts(cli.receipt) == receiptFacts(gui.receipt),
             both(receiptFacts(cli.receipt), receiptFacts(gui.receipt)).constData());
    QVERIFY(!gui.receipt.parameters.contains(QStringLiteral("via")));
    QCOMPARE(gui.receipt.parameters.value(QStringLiteral("recorded")).toBool(), true);
}

QTEST_MAIN(TestVerifyFaces)
#include "tst_verifyfaces.moc"
