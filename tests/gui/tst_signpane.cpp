// The Sign view of the real MainWindow on a temp database, driven as a user drives it: a key created
// through New key… (passphrase typed), its files on disk (private key encrypted, 0600), its
// fingerprint in the keys table and only its public half in the database (no "PRIVATE", no
// passphrase anywhere in the SQLite files); a file signed into a bundle that verifies with the key;
// an evidence bundle signed into its attestation and pointer, and a damaged one refused with its
// failed checks; a deployment bundle of a few hundred files sealed with the progress bar reaching
// the end, verified "attested", then tampered (changed, missing, unexpected) and verified
// "unknown" with the three files by name; a wrong passphrase refused with nothing written; and a
// large bundle's signing cancelled with nothing written.
#include "BundleVerifyPane.h"
#include "EvidenceFixture.h"
#include "GuiTestUtil.h"
#include "MainWindow.h"
#include "SignDialogs.h"
#include "SignPane.h"
#include "SigningFixture.h"
#include "SigningModels.h"
#include "TestUtil.h"
#include "sigstore/Keys.h"
#include "sigstore/TrustedRoot.h"
#include "sigstore/Verify.h"
#include "store/VerificationStore.h"

#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTableView>
#include <QTest>
#include <QTextEdit>
#include <QToolBar>

using namespace pb;
using deploy::TrustLevel;
using widgets::BundleVerifyPane;
using widgets::KeyDialog;
using widgets::MainWindow;
using widgets::SignDialog;
using widgets::SignPane;

namespace {

constexpr int kTimeout = 60000;
const QByteArray kPassphrase = "correct horse battery staple 7";

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Every value of every row of every table, as text (either engine).
QString databaseText(db::Database& db) {
    QString out;
    QSqlQuery tables(db.sql());
    if (!tables.exec(
            db.engine() == db::Engine::PostgreSQL
                ? QStringLiteral("SELECT table_name FROM information_schema.tables WHERE table_schema = "
                                 "'proofbench' AND table_type = 'BASE TABLE'")
                : QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'")))
        return QStringLiteral("cannot list tables");
    QStringList names;
    while (tables.next())
        names << tables.value(0).toString();
    for (const QString& t : names) {
        QSqlQuery q(db.sql());
        if (!q.exec(QStringLiteral("SELECT * FROM \"%1\"").arg(t)))
            continue;
        while (q.next())
            for (int c = 0; c < q.record().count(); ++c)
                out += q.value(c).toString() + QLatin1Char('\n');
    }
    return out;
}

} // namespace

class TestSignPane : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void init();
    void cleanup();

    void viewIsDiscoverable();
    void newKeyThroughTheDialog();
    void newKeyRefusesMismatchAndExisting();
    void importAndExportKeys();
    void signFileVerifiesWithTheKey();
    void signEvidenceWritesAttestationAndPointer();
    void signEvidenceRefusesDamagedBundle();
    void signEvidenceIncompleteOnlyWhenTicked();
    void deploymentBundleSignedVerifiedAndTampered();
    void wrongPassphraseWritesNothing();
    void cancelLargeBundle();

  private:
    template <typename T> T* find(QObject* in, const char* name) { return pbgui::findNamed<T>(in, name); }
    SignPane* pane() const { return m_window->signPane(); }
    // New key… through the UI; returns the private key's path (empty on failure).
    // Creates a key through the New key dialog; the path once the keys list shows it, else empty.
    QString createKeyThroughUi(const QString& name);
    // Fills a sign dialog's passphrase and clicks Sign; waits for the end.
    bool runSign(SignDialog* dialog, const QByteArray& passphrase);
    bool verifyBundle(BundleVerifyPane* verify);

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<QTemporaryDir> m_tmp;
};

void TestSignPane::initTestCase() {
    QLocale::setDefault(QLocale::c());
}

void TestSignPane::init() {
    m_tmp = std::make_unique<QTemporaryDir>();
    QVERIFY(m_tmp->isValid());
    const QString error = pbgui::openWindow(m_db, m_window);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_window->showSign();
}

void TestSignPane::cleanup() {
    pbgui::closeWindow(m_db, m_window);
    m_tmp.reset();
}

QString TestSignPane::createKeyThroughUi(const QString& name) {
    const int keysBefore = pane()->keysModel()->rowCount();
    QTest::mouseClick(find<QPushButton>(pane(), "signNewKey"), Qt::LeftButton);
    KeyDialog* dialog = pane()->keyDialog();
    if (!dialog || !dialog->isVisible())
        return {};
    const QString path = m_tmp->filePath(name);
    auto* out = find<QLineEdit>(dialog, "keyOutputPath");
    out->clear();
    QTest::keyClicks(out, path);
    QTest::keyClicks(find<QLineEdit>(dialog, "keyPassphrase"), QString::fromUtf8(kPassphrase));
    QTest::keyClicks(find<QLineEdit>(dialog, "keyPassphraseRepeat"), QString::fromUtf8(kPassphrase));
    QTest::mouseClick(find<QPushButton>(dialog, "keyRunButton"), Qt::LeftButton);
    if (!QTest::qWaitFor([&] { return pane()->keyDialog() == nullptr; }, kTimeout))
        return {};
    // The keys are read again on the worker.
    if (!QTest::qWaitFor([&] { return pane()->keysModel()->rowCount() > keysBefore; }, kTimeout))
        return {};
    return path;
}

bool TestSignPane::runSign(SignDialog* dialog, const QByteArray& passphrase) {
    QSignalSpy done(dialog, &SignDialog::signingFinished);
    QTest::keyClicks(find<QLineEdit>(dialog, "signPassphrase"), QString::fromUtf8(passphrase));
    QTest::mouseClick(find<QPushButton>(dialog, "signButton"), Qt::LeftButton);
    if (!dialog->isRunning())
        return false;
    // The passphrase left its field at once; the inputs are locked while the worker runs.
    if (!find<QLineEdit>(dialog, "signPassphrase")->text().isEmpty() ||
        find<QPushButton>(dialog, "signButton")->isEnabled())
        return false;
    return QTest::qWaitFor([&] { return !done.isEmpty(); }, kTimeout);
}

bool TestSignPane::verifyBundle(BundleVerifyPane* verify) {
    QSignalSpy done(verify, &BundleVerifyPane::verificationFinished);
    QTest::mouseClick(find<QPushButton>(verify, "bundleVerifyButton"), Qt::LeftButton);
    if (!verify->isVerifying() || find<QPushButton>(verify, "bundleVerifyButton")->isEnabled())
        return false;
    return QTest::qWaitFor([&] { return !done.isEmpty(); }, kTimeout) && done.at(0).at(0).toBool();
}

void TestSignPane::viewIsDiscoverable() {
    auto* action = m_window->findChild<QAction*>(QStringLiteral("actionShowSign"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_4));
    QVERIFY(m_window->findChild<QToolBar*>(QStringLiteral("viewToolBar"))->actions().contains(action));
    m_window->showCatalog();
    QVERIFY(!m_window->isSignShown());
    action->trigger();
    QVERIFY(m_window->isSignShown());
    QVERIFY(action->isChecked());
    // The Sign menu reaches every dialog from any view.
    for (const char* name : {"actionNewKey", "actionImportKey", "actionSignFile", "actionSignEvidence",
                             "actionSignDeployment", "actionVerifyDeployment"})
        QVERIFY2(m_window->findChild<QAction*>(QLatin1String(name)), name);
    m_window->showCatalog();
    m_window->findChild<QAction*>(QStringLiteral("actionSignDeployment"))->trigger();
    QVERIFY(m_window->isSignShown());
    QVERIFY(pane()->signDialog() && pane()->signDialog()->isVisible());
    QCOMPARE(pane()->signDialog()->kind(), SignDialog::Kind::Deployment);
    pane()->signDialog()->close();
    QTRY_VERIFY(!pane()->signDialog());

    // Every interactive widget has a name to find it by: the pane and each dialog.
    auto unnamed = [](QWidget* root) {
        for (QWidget* w : root->findChildren<QWidget*>()) {
            const bool interactive = qobject_cast<QAbstractButton*>(w) || qobject_cast<QLineEdit*>(w) ||
                                     qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractItemView*>(w);
            const QWidget* parent = w->parentWidget();
            // Parts of another widget (a combo's list, a line edit's clear button, a header).
            const bool internal = w->inherits("QHeaderView") || w->inherits("QTableCornerButton") ||
                                  qobject_cast<const QLineEdit*>(parent) ||
                                  qobject_cast<const QAbstractItemView*>(parent) ||
                                  (parent && parent->inherits("QComboBox")) ||
                                  (parent && parent->inherits("QComboBoxPrivateContainer"));
            if (interactive && !internal && w->objectName().isEmpty())
                return QStringLiteral("a %1 in %2")
                    .arg(QLatin1String(w->metaObject()->className()),
                         parent ? parent->objectName() : QString());
        }
        return QString();
    };
    QVERIFY2(unnamed(pane()).isEmpty(), qPrintable(unnamed(pane())));
    for (auto open : {&SignPane::signFile, &SignPane::signEvidence, &SignPane::signDeployment}) {
        SignDialog* d = (pane()->*open)();
        QVERIFY2(unnamed(d).isEmpty(), qPrintable(unnamed(d)));
        d->close();
    }
    for (auto open : {&SignPane::newKey, &SignPane::importKey}) {
        KeyDialog* d = (pane()->*open)();
        QVERIFY2(unnamed(d).isEmpty(), qPrintable(unnamed(d)));
        d->close();
    }
}

void TestSignPane::newKeyThroughTheDialog() {
    QCOMPARE(pane()->keysModel()->rowCount(), 0);
    const QString path = createKeyThroughUi(QStringLiteral("release.key"));
    QVERIFY(!path.isEmpty());
    // The files: the private key encrypted and readable by its owner only, the public key beside it.
    const QByteArray priv = readAll(path);
    QVERIFY(priv.startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
    QCOMPARE(QFileInfo(path).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther |
                                              QFileDevice::WriteGroup | QFileDevice::WriteOther),
             QFileDevice::Permissions());
    const QByteArray pub = readAll(path + QStringLiteral(".pub"));
    QVERIFY(pub.startsWith("-----BEGIN PUBLIC KEY-----"));
    // It opens with the passphrase typed, and not with another.
    QVERIFY(sigstore::readPrivateKey(priv, sigstore::Passphrase(QByteArray(kPassphrase)), path).ok());
    QVERIFY(!sigstore::readPrivateKey(priv, sigstore::Passphrase(QByteArray("nope")), path).ok());

    // The keys table shows its fingerprint (base64 SHA-256 of the SPKI) and selects it.
    const QString fingerprint = sigstore::keyFingerprint(sigstore::crypto::pkeyFromPem(pub).get());
    QCOMPARE(pane()->keysModel()->rowCount(), 1);
    QTableView* table = find<QTableView>(pane(), "signKeys");
    QCOMPARE(table->model()->index(0, models::KeysModel::FingerprintColumn).data().toString(), fingerprint);
    QCOMPARE(table->model()->index(0, models::KeysModel::LabelColumn).data().toString(),
             QStringLiteral("release.key"));
    QCOMPARE(table->currentIndex().row(), 0);
    QVERIFY(pane()->lastMessage().contains(fingerprint));
    QCOMPARE(pane()->lastKeyPath(), path);
    // The deployment verification offers it at once.
    QTRY_VERIFY(pane()->bundleVerifyPane()->selectStoredKey(fingerprint)); // its list is read on the worker

    // The database holds the public key only: no private key, no passphrase, in any table or byte.
    QSqlQuery q(m_db->db->sql());
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM signing_keys")) && q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    const QString all = databaseText(*m_db->db);
    QVERIFY(all.contains(fingerprint));
    QVERIFY(all.contains(QString::fromLatin1(pub).trimmed().split(QLatin1Char('\n')).at(1)));
    QVERIFY(!all.contains(QStringLiteral("PRIVATE")));
    QVERIFY(!all.contains(QString::fromUtf8(kPassphrase)));
    if (m_db->db->engine() != db::Engine::SQLite)
        return; // on a server the rows above are all there is to search; SQLite also has its file bytes
    QSqlQuery(m_db->db->sql()).exec(QStringLiteral("PRAGMA wal_checkpoint(FULL)"));
    for (const QString& file : {m_db->path(), m_db->path() + QStringLiteral("-wal")}) {
        const QByteArray bytes = readAll(file);
        QVERIFY(!bytes.contains(kPassphrase));
        QVERIFY(!bytes.contains("PRIVATE KEY"));
        QVERIFY(!bytes.contains(priv.mid(40, 40)));
    }
}

void TestSignPane::newKeyRefusesMismatchAndExisting() {
    KeyDialog* dialog = pane()->newKey();
    const QString path = m_tmp->filePath(QStringLiteral("k.key"));
    dialog->setOutputPath(path);
    QTest::keyClicks(find<QLineEdit>(dialog, "keyPassphrase"), QStringLiteral("one passphrase"));
    QTest::keyClicks(find<QLineEdit>(dialog, "keyPassphraseRepeat"), QStringLiteral("another one"));
    QTest::mouseClick(find<QPushButton>(dialog, "keyRunButton"), Qt::LeftButton);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->lastError(), QStringLiteral("The passphrases differ."));
    QVERIFY(find<QLabel>(dialog, "keyError")->isVisible());
    // Passphrases never stay in their fields.
    QVERIFY(find<QLineEdit>(dialog, "keyPassphrase")->text().isEmpty());
    QVERIFY(find<QLineEdit>(dialog, "keyPassphraseRepeat")->text().isEmpty());
    QVERIFY(!QFileInfo::exists(path));
    // An empty passphrase would leave the key unprotected.
    QTest::mouseClick(find<QPushButton>(dialog, "keyRunButton"), Qt::LeftButton);
    QVERIFY(dialog->lastError().contains(QStringLiteral("passphrase")));
    // An existing file is never overwritten.
    QVERIFY(pbgui::writeText(path, "precious"));
    QTest::keyClicks(find<QLineEdit>(dialog, "keyPassphrase"), QStringLiteral("same"));
    QTest::keyClicks(find<QLineEdit>(dialog, "keyPassphraseRepeat"), QStringLiteral("same"));
    QTest::mouseClick(find<QPushButton>(dialog, "keyRunButton"), Qt::LeftButton);
    QTRY_VERIFY(dialog->lastError().contains(QStringLiteral("already exists"))); // refused on the worker
    QCOMPARE(readAll(path), QByteArray("precious"));
    QCOMPARE(pane()->keysModel()->rowCount(), 0);
    dialog->close();
}

void TestSignPane::importAndExportKeys() {
    // cosign.key (cosign's encrypted format) with its passphrase: saved encrypted, recorded.
    sigstore::crypto::Pkey key = sigstore::generateSigningKey();
    auto cosign = sigstore::exportCosignKey(key.get(), sigstore::Passphrase(QByteArray(kPassphrase)));
    QVERIFY(cosign.ok());
    const QString cosignPath = m_tmp->filePath(QStringLiteral("cosign.key"));
    QVERIFY(pbgui::writeText(cosignPath, *cosign));
    KeyDialog* dialog = pane()->importKey();
    dialog->setSourcePath(cosignPath);
    QCOMPARE(dialog->outputPath(), m_tmp->filePath(QStringLiteral("cosign-proofbench.key")));
    // The wrong passphrase: refused, named, nothing written.
    QTest::keyClicks(find<QLineEdit>(dialog, "keyPassphrase"), QStringLiteral("wrong"));
    QTest::mouseClick(find<QPushButton>(dialog, "keyRunButton"), Qt::LeftButton);
    QTRY_VERIFY2(dialog->lastError().contains(QStringLiteral("wrong passphrase")),
                 qPrintable(dialog->lastError()));
    QVERIFY(dialog->lastError().contains(cosignPath));
    QVERIFY(!QFileInfo::exists(dialog->outputPath()));
    QTest::keyClicks(find<QLineEdit>(dialog, "keyPassphrase"), QString::fromUtf8(kPassphrase));
    QTest::mouseClick(find<QPushButton>(dialog, "keyRunButton"), Qt::LeftButton);
    QTRY_VERIFY(!pane()->keyDialog());
    const QString fingerprint = sigstore::keyFingerprint(key.get());
    QTRY_COMPARE(pane()->keysModel()->rowOfFingerprint(fingerprint), 0);
    QVERIFY(readAll(m_tmp->filePath(QStringLiteral("cosign-proofbench.key")))
                .startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"));

    // A public key alone is recorded; nothing is written.
    sigstore::crypto::Pkey other = sigstore::generateSigningKey();
    const QString pubPath = m_tmp->filePath(QStringLiteral("partner.pub"));
    QVERIFY(pbgui::writeText(pubPath, sigstore::publicKeyPem(other.get())));
    dialog = pane()->importKey();
    dialog->setSourcePath(pubPath);
    QTest::mouseClick(find<QPushButton>(dialog, "keyRunButton"), Qt::LeftButton);
    QTRY_VERIFY(!pane()->keyDialog());
    QTRY_COMPARE(pane()->keysModel()->rowCount(), 2);
    QVERIFY(pane()->keysModel()->rowOfFingerprint(sigstore::keyFingerprint(other.get())) >= 0);

    // Export public key: the PEM of the selected key, byte for byte what verifiers need.
    const int row = pane()->keysModel()->rowOfFingerprint(fingerprint);
    const QString exported = m_tmp->filePath(QStringLiteral("exported.pub"));
    QVERIFY(pane()->exportPublicKey(row, exported));
    QCOMPARE(readAll(exported), sigstore::publicKeyPem(key.get()));
    QVERIFY(!pane()->exportPublicKey(-1, exported));
}

void TestSignPane::signFileVerifiesWithTheKey() {
    const QString keyPath = createKeyThroughUi(QStringLiteral("blob.key"));
    QVERIFY(!keyPath.isEmpty());
    const QString blob = m_tmp->filePath(QStringLiteral("release-notes.txt"));
    QVERIFY(pbgui::writeText(blob, "Proofbench 1.0: signed offline.\n"));
    QTest::mouseClick(find<QPushButton>(pane(), "signFileButton"), Qt::LeftButton);
    SignDialog* dialog = pane()->signDialog();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->keyPath(), keyPath); // the key just created
    QTest::keyClicks(find<QLineEdit>(dialog, "signInputPath"), blob);
    QCOMPARE(dialog->outputPath(), blob + QStringLiteral(".sigstore.json"));
    QVERIFY(runSign(dialog, kPassphrase));
    QVERIFY2(dialog->succeeded(), qPrintable(dialog->lastError()));
    QCOMPARE(dialog->writtenPaths(), QStringList{blob + QStringLiteral(".sigstore.json")});
    QVERIFY(dialog->resultText().contains(QStringLiteral("release-notes.txt.sigstore.json")));
    QCOMPARE(find<QPushButton>(dialog, "signCancelButton")->text(), QStringLiteral("Close"));

    sigstore::Policy policy;
    policy.publicKeyPem = readAll(keyPath + QStringLiteral(".pub"));
    policy.ignoreTlog = true;
    const sigstore::VerificationResult r =
        sigstore::verifyBundle(readAll(blob + QStringLiteral(".sigstore.json")), QStringLiteral("bundle"),
                               sigstore::Artifact::fromBytes(readAll(blob)), sigstore::TrustedRoot{}, policy);
    QVERIFY2(r.verified, qPrintable(r.toText()));
    // Another file does not verify against it.
    QVERIFY(!sigstore::verifyBundle(readAll(blob + QStringLiteral(".sigstore.json")),
                                    QStringLiteral("bundle"), sigstore::Artifact::fromBytes("something else"),
                                    sigstore::TrustedRoot{}, policy)
                 .verified);
    QVERIFY(dialog->command().startsWith(QStringLiteral("proofbench sign-blob --key ")));
    QVERIFY(!dialog->command().contains(QString::fromUtf8(kPassphrase)));
    // Signing from the GUI leaves the same receipt as the CLI: the signed file and the bundle, by
    // digest, and the key's fingerprint, never the key or its passphrase.
    {
        QSqlQuery q(m_db->db->sql());
        QVERIFY(q.exec(QStringLiteral(
            "SELECT parameters || outputs || message FROM receipts WHERE kind = 'sign.blob'")));
        QVERIFY2(q.next(), "no sign.blob receipt");
        const QByteArray body = q.value(0).toByteArray();
        QVERIFY(
            body.contains(sigstore::keyFingerprint(
                              sigstore::crypto::pkeyFromPem(readAll(keyPath + QStringLiteral(".pub"))).get())
                              .toUtf8()));
        QVERIFY(body.contains("release-notes.txt.sigstore.json"));
        QVERIFY(!body.contains(kPassphrase));
    }
    dialog->close();
    QTRY_VERIFY(!pane()->signDialog());
    QVERIFY(pane()->lastMessage().contains(QStringLiteral("release-notes.txt.sigstore.json")));
}

void TestSignPane::signEvidenceWritesAttestationAndPointer() {
    const QString keyPath = createKeyThroughUi(QStringLiteral("evidence.key"));
    QVERIFY(!keyPath.isEmpty());
    const pbgui::BundleDirFixture fixture(pbgui::EvidenceFixture::signedRecipe(), 0);
    const QString bundle = fixture.writeDirectory(m_tmp->filePath(QStringLiteral("run")));
    QVERIFY(!bundle.isEmpty());
    const QString evidenceRoot = m_tmp->filePath(QStringLiteral("recipes/evidence"));
    QTest::mouseClick(find<QPushButton>(pane(), "signEvidenceButton"), Qt::LeftButton);
    SignDialog* dialog = pane()->signDialog();
    QVERIFY(dialog);
    dialog->setInputPath(bundle);
    dialog->setOutputPath(evidenceRoot);
    QVERIFY(runSign(dialog, kPassphrase));
    QVERIFY2(dialog->succeeded(), qPrintable(dialog->lastError()));
    const QStringList written = dialog->writtenPaths();
    QCOMPARE(written.size(), 2);
    QCOMPARE(written[0], bundle + QStringLiteral("/attestation.intoto.jsonl"));
    QVERIFY(written[1].startsWith(evidenceRoot + QLatin1Char('/') + fixture.recipeName + QLatin1Char('/')));
    for (const QString& p : written) {
        QVERIFY2(QFileInfo::exists(p), qPrintable(p));
        QVERIFY2(dialog->resultText().contains(QDir::toNativeSeparators(p).toHtmlEscaped()), qPrintable(p));
    }
    QVERIFY(readAll(written[1]).contains("attestation.intoto.jsonl") ||
            readAll(written[1]).contains("sha256"));
}

void TestSignPane::signEvidenceRefusesDamagedBundle() {
    const QString keyPath = createKeyThroughUi(QStringLiteral("evidence.key"));
    QVERIFY(!keyPath.isEmpty());
    pbgui::BundleDirFixture fixture(pbgui::EvidenceFixture::signedRecipe(), 0);
    const QString bundle = fixture.writeDirectory(m_tmp->filePath(QStringLiteral("bad")));
    QVERIFY(pbgui::writeText(bundle + QStringLiteral("/ctrf/deployment.json"), "{\"tampered\": true}\n"));
    SignDialog* dialog = pane()->signEvidence();
    dialog->setInputPath(bundle);
    QVERIFY(runSign(dialog, kPassphrase));
    QVERIFY(!dialog->succeeded());
    // The reason names the bundle and lists every failed check, one per line.
    QVERIFY2(dialog->lastError().contains(bundle), qPrintable(dialog->lastError()));
    QVERIFY(dialog->lastError().contains(QStringLiteral("integrity")));
    QVERIFY2(dialog->resultText().contains(QStringLiteral("<li>")), qPrintable(dialog->resultText()));
    QVERIFY(dialog->resultText().contains(QStringLiteral("nothing was written")));
    QVERIFY(!QFileInfo::exists(bundle + QStringLiteral("/attestation.intoto.jsonl")));
    // Sign stays available for another try.
    QVERIFY(find<QPushButton>(dialog, "signButton")->isEnabled());
}

// A bundle with checks that could not run: refused with that reason (not "integrity"), signed once
// the box is ticked; the copied command carries --sign-incomplete.
void TestSignPane::signEvidenceIncompleteOnlyWhenTicked() {
    const QString keyPath = createKeyThroughUi(QStringLiteral("evidence.key"));
    QVERIFY(!keyPath.isEmpty());
    pbgui::BundleDirFixture fixture(pbgui::EvidenceFixture::signedRecipe(), 0);
    fixture.files[QStringLiteral("ctrf/conformance.json")] =
        pbtest::ctrfWithOther(fixture.files[QStringLiteral("ctrf/conformance.json")], 1);
    fixture.seal();
    const QString bundle = fixture.writeDirectory(m_tmp->filePath(QStringLiteral("incomplete")));
    SignDialog* dialog = pane()->signEvidence();
    QVERIFY(dialog);
    auto* box = find<QCheckBox>(dialog, "signIncompleteCheck");
    QVERIFY(box->isVisibleTo(dialog));
    QVERIFY(!box->isChecked());
    dialog->setInputPath(bundle);
    QVERIFY(runSign(dialog, kPassphrase));
    QVERIFY(!dialog->succeeded());
    QVERIFY2(dialog->lastError().contains(QStringLiteral("incomplete")) &&
                 dialog->lastError().contains(QStringLiteral("--sign-incomplete")),
             qPrintable(dialog->lastError()));
    QVERIFY(!dialog->lastError().contains(QStringLiteral("integrity")));
    QVERIFY2(dialog->lastError().contains(QStringLiteral("tick “Sign it even if it is incomplete”")),
             qPrintable(dialog->lastError()));
    // The long refusal does not squeeze the form: the dialog is as tall as its layout needs.
    QVERIFY(dialog->height() >= dialog->layout()->totalHeightForWidth(dialog->width()));
    QVERIFY(!QFileInfo::exists(bundle + QStringLiteral("/attestation.intoto.jsonl")));
    QVERIFY(!dialog->command().contains(QStringLiteral("--sign-incomplete")));
    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(6, box->height() / 2));
    QVERIFY(box->isChecked());
    QVERIFY(dialog->command().contains(QStringLiteral("--sign-incomplete")));
    QVERIFY(runSign(dialog, kPassphrase));
    QVERIFY2(dialog->succeeded(), qPrintable(dialog->lastError()));
    QVERIFY(QFileInfo::exists(bundle + QStringLiteral("/attestation.intoto.jsonl")));
    // Signed, and still incomplete: the receipt records that it was asked for.
    QSqlQuery q(m_db->db->sql());
    QVERIFY(q.exec(QStringLiteral(
                "SELECT parameters FROM receipts WHERE kind = 'sign.evidence' ORDER BY seq DESC LIMIT 1")) &&
            q.next());
    QVERIFY2(q.value(0).toString().contains(QStringLiteral("\"signIncomplete\":true")),
             qPrintable(q.value(0).toString()));
}

void TestSignPane::deploymentBundleSignedVerifiedAndTampered() {
    const QString keyPath = createKeyThroughUi(QStringLiteral("deploy.key"));
    QVERIFY(!keyPath.isEmpty());
    const QString dir = m_tmp->filePath(QStringLiteral("bundle"));
    QCOMPARE(pbgui::writeDeploymentTree(dir, 300).size(), 300);

    QTest::mouseClick(find<QPushButton>(pane(), "signDeploymentButton"), Qt::LeftButton);
    SignDialog* dialog = pane()->signDialog();
    QVERIFY(dialog);
    QTest::keyClicks(find<QLineEdit>(dialog, "signInputPath"), dir);
    int maxSeen = 0;
    connect(dialog->progressBar(), &QProgressBar::valueChanged, this,
            [&](int v) { maxSeen = std::max(maxSeen, v); });
    QVERIFY(runSign(dialog, kPassphrase));
    QVERIFY2(dialog->succeeded(), qPrintable(dialog->lastError()));
    // The bar counted files and reached the end.
    QCOMPARE(dialog->progressBar()->maximum(), 300);
    QCOMPARE(dialog->progressBar()->value(), 300);
    QCOMPARE(maxSeen, 300);
    QVERIFY(dialog->progressBar()->isVisible());
    QVERIFY(dialog->resultText().contains(QStringLiteral("Sealed 300 files")));
    QVERIFY(QFileInfo::exists(dir + QStringLiteral("/checksums.txt")));
    QVERIFY(QFileInfo::exists(dir + QStringLiteral("/attestation/bundle-attestation.sigstore.json")));
    dialog->close();

    // The view offers the sealed bundle for verification, with the stored key.
    BundleVerifyPane* verify = pane()->bundleVerifyPane();
    QCOMPARE(verify->directory(), dir);
    const QString fingerprint = sigstore::keyFingerprint(
        sigstore::crypto::pkeyFromPem(readAll(keyPath + QStringLiteral(".pub"))).get());
    QVERIFY(verify->selectStoredKey(fingerprint));
    QVERIFY(verifyBundle(verify));
    QCOMPARE(verify->result().level, TrustLevel::Attested);
    QCOMPARE(verify->trustLevelText(), QStringLiteral("Trust level: attested"));
    QVERIFY(find<QLabel>(verify, "bundleTrustLevel")->isVisible());
    QCOMPARE(verify->filesModel()->rowCount(), 300);
    QCOMPARE(verify->filesModel()->problemCount(), 0);
    QVERIFY(!find<QCheckBox>(verify, "bundleProblemsOnly")->isChecked());
    QCOMPARE(verify->filesView()->model()->rowCount(), 300);
    QVERIFY(verify->stepsModel()->rowCount() > 0);
    QCOMPARE(verify->stepsModel()->firstFailedRow(), -1);
    QVERIFY(verify->stepsModel()->rowOf(QStringLiteral("signature")) >= 0 ||
            verify->stepsModel()->countOf(sigstore::StepState::Passed) > 0);
    // The same with the .pub file instead of the stored key.
    verify->setKeyPath(keyPath + QStringLiteral(".pub"));
    QVERIFY(verifyBundle(verify));
    QCOMPARE(verify->result().level, TrustLevel::Attested);

    // Tamper: change one file, remove one, add one.
    QVERIFY(pbgui::writeText(dir + QStringLiteral("/002-gpu-operator/values.yaml"), "replicas: 42\n"));
    QVERIFY(QFile::remove(dir + QStringLiteral("/README.md")));
    QVERIFY(
        pbgui::writeText(dir + QStringLiteral("/003-network-operator/backdoor.yaml"), "kind: DaemonSet\n"));
    QVERIFY(verifyBundle(verify));
    QCOMPARE(verify->result().level, TrustLevel::Unknown);
    QCOMPARE(verify->trustLevelText(), QStringLiteral("Trust level: unknown"));
    // Problems only is on: the three files, by name, with their states.
    QVERIFY(find<QCheckBox>(verify, "bundleProblemsOnly")->isChecked());
    QAbstractItemModel* shown = verify->filesView()->model();
    QCOMPARE(shown->rowCount(), 3);
    QMap<QString, QString> states;
    for (int r = 0; r < shown->rowCount(); ++r)
        states[shown->index(r, models::DeploymentFilesModel::PathColumn).data().toString()] =
            shown->index(r, models::DeploymentFilesModel::StateColumn).data().toString();
    QCOMPARE(states.value(QStringLiteral("002-gpu-operator/values.yaml")), QStringLiteral("changed"));
    QCOMPARE(states.value(QStringLiteral("README.md")), QStringLiteral("missing"));
    QCOMPARE(states.value(QStringLiteral("003-network-operator/backdoor.yaml")),
             QStringLiteral("unexpected"));
    QVERIFY(find<QLabel>(verify, "bundleFileCounts")->text().contains(QStringLiteral("1 changed")));
    // Unticked: every file again, problems first.
    QTest::mouseClick(find<QCheckBox>(verify, "bundleProblemsOnly"), Qt::LeftButton);
    QCOMPARE(shown->rowCount(), 301);
    QCOMPARE(shown->index(0, models::DeploymentFilesModel::StateColumn).data().toString(),
             QStringLiteral("changed"));
    QCOMPARE(shown->index(3, models::DeploymentFilesModel::StateColumn).data().toString(),
             QStringLiteral("ok"));
    // Filter as you type.
    QTest::keyClicks(find<QLineEdit>(verify, "bundleFilesFilter"), QStringLiteral("backdoor"));
    QCOMPARE(shown->rowCount(), 1);
    // Nothing signed over a changed inventory is trusted: the steps say why they did not run.
    QCOMPARE(verify->stepsModel()->rowCount(), 0);
    QVERIFY(find<QLabel>(verify, "bundleStepsTitle")->text().contains(QStringLiteral("inventory")));
}

void TestSignPane::wrongPassphraseWritesNothing() {
    const QString keyPath = createKeyThroughUi(QStringLiteral("deploy.key"));
    QVERIFY(!keyPath.isEmpty());
    const QString dir = m_tmp->filePath(QStringLiteral("bundle"));
    QCOMPARE(pbgui::writeDeploymentTree(dir, 50).size(), 50);
    SignDialog* dialog = pane()->signDeployment();
    dialog->setInputPath(dir);
    QVERIFY(runSign(dialog, "not the passphrase"));
    QVERIFY(!dialog->succeeded());
    QVERIFY(!dialog->wasCancelled());
    // The key's file and the reason.
    QVERIFY2(dialog->lastError().contains(keyPath), qPrintable(dialog->lastError()));
    QVERIFY(dialog->lastError().contains(QStringLiteral("wrong passphrase")));
    QVERIFY(find<QLabel>(dialog, "signResult")->isVisible());
    QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/checksums.txt")));
    QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/attestation")));
    // The right one then works in the same dialog.
    QVERIFY(runSign(dialog, kPassphrase));
    QVERIFY2(dialog->succeeded(), qPrintable(dialog->lastError()));
    QVERIFY(QFileInfo::exists(dir + QStringLiteral("/checksums.txt")));
}

void TestSignPane::cancelLargeBundle() {
    const QString keyPath = createKeyThroughUi(QStringLiteral("deploy.key"));
    QVERIFY(!keyPath.isEmpty());
    const QString dir = m_tmp->filePath(QStringLiteral("large"));
    QCOMPARE(pbgui::writeDeploymentTree(dir, 3000).size(), 3000);
    SignDialog* dialog = pane()->signDeployment();
    dialog->setInputPath(dir);
    QSignalSpy done(dialog, &SignDialog::signingFinished);
    QTest::keyClicks(find<QLineEdit>(dialog, "signPassphrase"), QString::fromUtf8(kPassphrase));
    QTest::mouseClick(find<QPushButton>(dialog, "signButton"), Qt::LeftButton);
    // Cancel while it runs (the key is still being decrypted, or the first files hashed): 3,000 files
    // take far longer than a click.
    QVERIFY(dialog->isRunning());
    QTest::mouseClick(find<QPushButton>(dialog, "signCancelButton"), Qt::LeftButton);
    QVERIFY(dialog->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), kTimeout);
    QVERIFY(dialog->wasCancelled());
    QVERIFY(!dialog->succeeded());
    QVERIFY(dialog->resultText().contains(QStringLiteral("Cancelled; nothing was written.")));
    QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/checksums.txt")));
    QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/attestation")));
    QVERIFY(dialog->isVisible()); // cancelling the work does not close the dialog

    // Verification of a large bundle cancels too.
    sigstore::crypto::Pkey key = sigstore::generateSigningKey();
    QVERIFY(deploy::signDeploymentBundle(dir, key.get()).ok());
    BundleVerifyPane* verify = pane()->bundleVerifyPane();
    verify->setDirectory(dir);
    verify->setKeyPath(keyPath + QStringLiteral(".pub"));
    QSignalSpy verified(verify, &BundleVerifyPane::verificationFinished);
    QVERIFY(verify->verify());
    QVERIFY(find<QPushButton>(verify, "bundleVerifyCancel")->isEnabled());
    QTest::mouseClick(find<QPushButton>(verify, "bundleVerifyCancel"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!verified.isEmpty(), kTimeout);
    QVERIFY(!verified.at(0).at(0).toBool());
    QVERIFY(verify->wasCancelled());
    QVERIFY(!verify->hasResult());
}

QTEST_MAIN(TestSignPane)
#include "tst_signpane.moc"
