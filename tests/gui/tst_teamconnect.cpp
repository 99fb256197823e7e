// Issue 32, the window on a team server: File > Open Team Database… (the fields make a libpq spec,
// an unprotected connection is warned about, Test Connection says who and how, a password libpq
// cannot find is asked for and never written), windows opened through WindowManager (title names
// the database, the status bar says whether TLS was verified, Open Recent remembers it without a
// password); a server that goes away while the window is open (a banner, reconnection, a fresh read
// after it) and a hot standby opened read-only with its banner. The last two run against a private
// primary and standby this test starts and stops (tools/pgtest-server.sh), since they restart it.
#include "CatalogTreeModel.h"
#include "GuiTestUtil.h"
#include "MainWindow.h"
#include "OpenTeamDatabaseDialog.h"
#include "TeamConnection.h"
#include "TestDb.h"
#include "TestUtil.h"
#include "WindowManager.h"

#include <QComboBox>
#include <QDirIterator>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUrl>

using namespace pb;
using widgets::MainWindow;
using widgets::OpenTeamDatabaseDialog;
using widgets::WindowManager;

namespace {

constexpr int kTimeout = 30000;
const QString kScript = QStringLiteral(PB_SOURCE_DIR "/tools/pgtest-server.sh");

QString server(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral("bash"), QStringList{kScript} + args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("pgtest-server.sh %1 failed: %2")
            .arg(args.join(QLatin1Char(' ')), QString::fromUtf8(p.readAllStandardError()));
    return {};
}

QString readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
}

QStringList versionLabels(MainWindow* window) {
    auto* tree = pbgui::findNamed<QTreeView>(window, "catalogTree");
    QStringList out;
    for (int row = 0; row < tree->model()->rowCount(); ++row)
        out << tree->model()->index(row, 0).data(models::CatalogTreeModel::VersionLabelRole).toString();
    return out;
}

// The password of `user` in a pgpass file (host:port:db:user:password).
QString passwordOf(const QString& pgpass, const QString& user) {
    for (const QString& line : readFile(pgpass).split(QLatin1Char('\n'))) {
        const QStringList parts = line.split(QLatin1Char(':'));
        if (parts.size() == 5 && parts[3] == user)
            return parts[4];
    }
    return {};
}

// Every file under `dir` whose bytes contain `secret`.
QStringList filesContaining(const QString& dir, const QString& secret) {
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly) && f.readAll().contains(secret.toUtf8()))
            out << f.fileName();
    }
    return out;
}

} // namespace

class TestTeamConnect : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_own;     // the private primary's record (tools/pgtest-server.sh start)
    QString m_standby; // its hot standby's
    QByteArray m_passFile;

    // The private primary's spec (its URI: TLS verified against its own CA), on the database made for
    // this test (the test role owns it).
    QString ownSpec() const { return onTestDatabase(readFile(m_own + QStringLiteral("/uri"))); }
    static QString onTestDatabase(QString uri) {
        return uri.replace(QStringLiteral("/postgres?"), QStringLiteral("/pbteam?"));
    }

    // Another client commits: the CLI imports an embedded catalog into the private primary. Empty
    // on success, else its stderr.
    QString importOnPrimary(const QString& catalog, const QString& label) const {
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PGPASSFILE"), m_own + QStringLiteral("/pgpass"));
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(PB_CLI_BINARY),
                  {QStringLiteral("catalog"), QStringLiteral("import"), pbtest::embeddedCatalogDir(catalog),
                   QStringLiteral("--version"), label, QStringLiteral("--db"), ownSpec()});
        if (!cli.waitForFinished(kTimeout) || cli.exitCode() != 0)
            return QStringLiteral("catalog import %1 failed: %2")
                .arg(label, QString::fromUtf8(cli.readAllStandardError()));
        return {};
    }

    MainWindow* openThrough(WindowManager& windows, const QString& spec) {
        QSignalSpy opened(&windows, &WindowManager::windowOpened);
        windows.setQuiet(true);
        if (!windows.open(spec))
            return nullptr;
        if (!QTest::qWaitFor([&] { return opened.size() == 1 || !windows.isOpening(); }, kTimeout) ||
            opened.isEmpty()) {
            qWarning("open failed: %s", qPrintable(windows.lastError()));
            return nullptr;
        }
        auto* w = opened.at(0).at(0).value<MainWindow*>();
        if (!QTest::qWaitFor([w] { return !w->isReloadingCatalogs() && !w->transportText().isEmpty(); },
                             kTimeout))
            qWarning("the window did not finish reading its database");
        return w;
    }

  private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        pbgui::isolateSettings(m_tmp.filePath(QStringLiteral("settings")), QStringLiteral("tst_teamconnect"));
        m_passFile = qgetenv("PGPASSFILE");
        if (!test::onPostgres())
            return;
        m_own = m_tmp.filePath(QStringLiteral("own"));
        const QString started = server({QStringLiteral("start"), m_own});
        QVERIFY2(started.isEmpty(), qPrintable(started));
        QProcess createdb;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PGPASSFILE"), m_own + QStringLiteral("/pgpass"));
        createdb.setProcessEnvironment(env);
        createdb.start(readFile(m_own + QStringLiteral("/bin")) + QStringLiteral("/psql"),
                       {QStringLiteral("-X"), QStringLiteral("-q"), QStringLiteral("-c"),
                        QStringLiteral("CREATE DATABASE pbteam"), readFile(m_own + QStringLiteral("/uri"))});
        QVERIFY(createdb.waitForFinished(kTimeout));
        QVERIFY2(createdb.exitCode() == 0, createdb.readAllStandardError().constData());
    }
    void cleanupTestCase() {
        if (!m_standby.isEmpty())
            server({QStringLiteral("stop"), m_standby});
        if (!m_own.isEmpty())
            server({QStringLiteral("stop"), m_own});
    }
    void cleanup() { qputenv("PGPASSFILE", m_passFile); }

    // The dialog's fields make the spec; the warning follows the host and the TLS mode.
    void theDialogWarnsOfUnprotectedConnections() {
        OpenTeamDatabaseDialog dialog;
        dialog.show();
        auto* host = pbgui::findNamed<QLineEdit>(&dialog, "teamHost");
        auto* mode = pbgui::findNamed<QComboBox>(&dialog, "teamTlsMode");
        auto* open = pbgui::findNamed<QPushButton>(&dialog, "teamOpen");
        QVERIFY(!open->isEnabled()); // nothing to connect to yet
        QTest::keyClicks(host, QStringLiteral("db.example.org"));
        QTest::keyClicks(pbgui::findNamed<QLineEdit>(&dialog, "teamDatabase"), QStringLiteral("team one"));
        QTest::keyClicks(pbgui::findNamed<QLineEdit>(&dialog, "teamUser"), QStringLiteral("alice"));
        QVERIFY(open->isEnabled());
        QCOMPARE(dialog.spec(), QStringLiteral("host='db.example.org' dbname='team one' user='alice'"));
        QVERIFY(dialog.warningText().isEmpty()); // the default for a remote host is verify-full
        QVERIFY(models::transportWarning(dialog.spec()).isEmpty());
        mode->setCurrentIndex(mode->findData(QStringLiteral("disable")));
        QVERIFY2(dialog.warningText().contains(QLatin1String("no TLS to a remote server")),
                 qPrintable(dialog.warningText()));
        mode->setCurrentIndex(mode->findData(QStringLiteral("require")));
        QVERIFY2(dialog.warningText().contains(QLatin1String("certificate")),
                 qPrintable(dialog.warningText()));
        mode->setCurrentIndex(mode->findData(QStringLiteral("verify-ca")));
        QVERIFY(dialog.warningText().isEmpty());
        // A plain connection on this machine is not warned about.
        host->setText(QStringLiteral("127.0.0.1"));
        mode->setCurrentIndex(mode->findData(QStringLiteral("disable")));
        QVERIFY(dialog.warningText().isEmpty());
        // Filled back from a spec (a recent server).
        OpenTeamDatabaseDialog again(
            QStringLiteral("postgresql://bob@db.example.org:6543/pb?sslmode=require"));
        QCOMPARE(pbgui::findNamed<QLineEdit>(&again, "teamPort")->text(), QStringLiteral("6543"));
        QCOMPARE(pbgui::findNamed<QLineEdit>(&again, "teamUser")->text(), QStringLiteral("bob"));
        QVERIFY(!again.warningText().isEmpty());
    }

    // Test Connection against the real server: the password is asked for through the real prompt,
    // the answer says who, which role and that TLS was verified; a wrong CA is refused; Open makes a
    // window whose title and status bar name the database; the password is found nowhere on disk.
    void testConnectionAndOpenAsksForThePasswordOnce() {
        if (!test::onPostgres())
            QSKIP("a team server (the PostgreSQL half runs this)");
        PB_TEST_DATABASE(tdb, m_tmp.path(), QStringLiteral("connect"));
        const QUrl url(tdb.spec());
        const QString password = passwordOf(test::pgServerDir() + QStringLiteral("/pgpass"), url.userName());
        QVERIFY(!password.isEmpty());
        qputenv("PGPASSFILE", QByteArray("/nonexistent/pgpass")); // only the prompt can give it now
        struct RestorePassFile {
            QByteArray value;
            ~RestorePassFile() { qputenv("PGPASSFILE", value); } // before the test database is dropped
        } restore{m_passFile};

        // A fresh application_name: no password is remembered for this spec yet.
        OpenTeamDatabaseDialog dialog;
        dialog.show();
        pbgui::findNamed<QLineEdit>(&dialog, "teamHost")->setText(url.host());
        pbgui::findNamed<QLineEdit>(&dialog, "teamPort")->setText(QString::number(url.port()));
        pbgui::findNamed<QLineEdit>(&dialog, "teamDatabase")->setText(tdb.pgName());
        pbgui::findNamed<QLineEdit>(&dialog, "teamUser")->setText(url.userName());
        auto* mode = pbgui::findNamed<QComboBox>(&dialog, "teamTlsMode");
        mode->setCurrentIndex(mode->findData(QStringLiteral("verify-full")));
        // First with the private server's CA, which did not sign this server's certificate.
        pbgui::findNamed<QLineEdit>(&dialog, "teamCaFile")->setText(m_own + QStringLiteral("/ca.crt"));
        QSignalSpy tested(&dialog, &OpenTeamDatabaseDialog::tested);
        QVERIFY(dialog.testConnection());
        QVERIFY(tested.wait(kTimeout));
        QVERIFY(!dialog.lastTestSucceeded());
        QVERIFY2(dialog.testResult().contains(QLatin1String("certificate verify failed")),
                 qPrintable(dialog.testResult()));

        pbgui::findNamed<QLineEdit>(&dialog, "teamCaFile")
            ->setText(test::pgServerDir() + QStringLiteral("/ca.crt"));
        int prompts = 0;
        QString promptText;
        std::function<void(QInputDialog*)> answer = [&](QInputDialog* prompt) {
            ++prompts;
            promptText = prompt->labelText();
            QCOMPARE(prompt->objectName(), QStringLiteral("passwordPrompt"));
            QCOMPARE(prompt->textEchoMode(), QLineEdit::Password);
            prompt->setTextValue(password);
            prompt->accept();
        };
        pbgui::ModalWatch watch = pbgui::whenModal<QInputDialog>(answer);
        QVERIFY(dialog.testConnection());
        QVERIFY(tested.wait(kTimeout));
        QVERIFY2(dialog.lastTestSucceeded(), qPrintable(dialog.testResult()));
        QCOMPARE(prompts, 1);
        QVERIFY2(promptText.contains(url.userName() + QLatin1Char('@') + url.host()), qPrintable(promptText));
        const QString result = dialog.testResult();
        QVERIFY2(result.contains(QLatin1String("Connected to PostgreSQL 15")), qPrintable(result));
        QVERIFY2(result.contains(QStringLiteral("as %1").arg(url.userName())), qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("role: owner")), qPrintable(result)); // it owns the database
        QVERIFY2(result.contains(QLatin1String("no Proofbench schema yet")), qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("TLS verified")) &&
                     result.contains(QLatin1String("host name checked")),
                 qPrintable(result));
        QVERIFY(!result.contains(password));

        // Open: a window on it (no second prompt: the password is in memory).
        WindowManager windows;
        MainWindow* w = openThrough(windows, dialog.spec());
        QVERIFY(w);
        QCOMPARE(prompts, 1);
        QVERIFY2(w->windowTitle().contains(tdb.pgName() + QStringLiteral(" on ") + url.host()),
                 qPrintable(w->windowTitle()));
        auto* statusDb = pbgui::findNamed<QLabel>(w, "statusDatabase");
        QVERIFY2(statusDb->text().contains(QLatin1String("TLS verified")), qPrintable(statusDb->text()));
        QVERIFY(w->connectionBannerText().isEmpty());
        QVERIFY(w->replicaBanner()->isHidden());
        // Open Recent has it, without the password; so does the settings file.
        const QStringList recent = models::recentDatabases();
        QVERIFY(!recent.isEmpty());
        QVERIFY2(recent.first().contains(tdb.pgName()), qPrintable(recent.first()));
        QSettings().sync();
        QCOMPARE(filesContaining(m_tmp.filePath(QStringLiteral("settings")), password), QStringList());
        QVERIFY(!recent.first().contains(password));
        QVERIFY(!w->windowTitle().contains(password) && !statusDb->text().contains(password) &&
                !statusDb->toolTip().contains(password));
        // Nor does the database: every text column of every table, and the receipts' bodies.
        QProcess dump;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PGPASSFILE"), test::pgServerDir() + QStringLiteral("/pgpass"));
        dump.setProcessEnvironment(env);
        dump.start(readFile(test::pgServerDir() + QStringLiteral("/bin")) + QStringLiteral("/pg_dump"),
                   {QStringLiteral("--data-only"), tdb.spec()});
        QVERIFY(dump.waitForFinished(kTimeout));
        QVERIFY2(dump.exitCode() == 0, dump.readAllStandardError().constData());
        const QByteArray rows = dump.readAllStandardOutput();
        QVERIFY(rows.contains("catalog.import")); // the sample's receipts are there: the dump is real
        QVERIFY(!rows.contains(password.toUtf8()));
    }

    // The server goes away while the window is open: a banner says so and keeps trying; what is
    // started meanwhile fails with the connection's error and the window answers; once the server is
    // back (Reconnect Now), the banner goes and what another client committed shows up.
    void aLostServerShowsABannerAndComesBack() {
        if (!test::onPostgres())
            QSKIP("a team server (the PostgreSQL half runs this)");
        qputenv("PGPASSFILE", (m_own + QStringLiteral("/pgpass")).toUtf8());
        const QString spec = ownSpec();
        WindowManager windows;
        MainWindow* w = openThrough(windows, spec);
        QVERIFY2(w, qPrintable(windows.lastError()));
        QVERIFY(w->connectionBannerText().isEmpty());

        QString error = server({QStringLiteral("pause"), m_own});
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(!w->connectionBannerText().isEmpty(), kTimeout);
        QVERIFY2(w->connectionBannerText().contains(QLatin1String("lost")),
                 qPrintable(w->connectionBannerText()));
        // A read started now fails cleanly; the window stays responsive.
        w->reloadCatalogs();
        QTRY_VERIFY_WITH_TIMEOUT(!w->isReloadingCatalogs(), kTimeout);
        QVERIFY2(w->statusBar()->currentMessage().contains(QLatin1String("Cannot read the catalog versions")),
                 qPrintable(w->statusBar()->currentMessage()));
        QTRY_VERIFY_WITH_TIMEOUT(w->connectionBannerText().contains(QLatin1String("try 3 in")), kTimeout);

        error = server({QStringLiteral("resume"), m_own});
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // Meanwhile another client commits (the CLI, as a colleague's job).
        const QString imported = importOnPrimary(QStringLiteral("sample-2"), QStringLiteral("while-away"));
        QVERIFY2(imported.isEmpty(), qPrintable(imported));
        QTest::mouseClick(pbgui::findNamed<QPushButton>(w, "reconnectNow"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(w->connectionBannerText().isEmpty(), kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(versionLabels(w).contains(QStringLiteral("while-away")), kTimeout);
    }

    // An auditor opens the hot standby: a banner says it is read-only, writes are off with the reason,
    // and what the primary commits appears within seconds.
    void aStandbyOpensReadOnlyWithABanner() {
        if (!test::onPostgres())
            QSKIP("a team server (the PostgreSQL half runs this)");
        m_standby = m_tmp.filePath(QStringLiteral("standby"));
        const QString made = server({QStringLiteral("standby"), m_own, m_standby});
        QVERIFY2(made.isEmpty(), qPrintable(made));
        qputenv("PGPASSFILE", (m_standby + QStringLiteral("/pgpass")).toUtf8());
        WindowManager windows;
        MainWindow* w = openThrough(windows, onTestDatabase(readFile(m_standby + QStringLiteral("/uri"))));
        QVERIFY2(w, qPrintable(windows.lastError()));
        QTRY_VERIFY_WITH_TIMEOUT(!w->replicaBanner()->isHidden(), kTimeout);
        QVERIFY(w->replicaBanner()->text().contains(QLatin1String("Read-only replica")));
        auto* import = pbgui::findNamed<QAction>(w, "actionImportCatalog");
        QVERIFY(!import->isEnabled());
        QVERIFY2(import->toolTip().contains(QLatin1String("replica")), qPrintable(import->toolTip()));
        QVERIFY(!pbgui::findNamed<QPushButton>(w, "welcomeImportFolder")->isEnabled());
        const QStringList before = versionLabels(w);
        QVERIFY2(before.contains(QStringLiteral("while-away")), qPrintable(before.join(QLatin1Char(','))));

        const QString imported = importOnPrimary(QStringLiteral("sample-1"), QStringLiteral("on-primary"));
        QVERIFY2(imported.isEmpty(), qPrintable(imported));
        QTRY_VERIFY_WITH_TIMEOUT(versionLabels(w).contains(QStringLiteral("on-primary")), kTimeout);
        QVERIFY(w->connectionBannerText().isEmpty());
    }
};

QTEST_MAIN(TestTeamConnect)
#include "tst_teamconnect.moc"
