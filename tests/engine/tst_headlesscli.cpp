// Issue 29: `proofbench-cli` is the CLI without the window. It must link no widget library (no
// QtWidgets, no pb_widgets, no QCustomPlot, no QtPrintSupport, checked on the dynamic loader's own
// list of what the executable loads), run with no display, and answer every verb exactly as
// `proofbench VERB` does, because both call pb::cli::runProcess. The verbs that read the database
// are compared on both engines (TestDb.h); the rest on SQLite's half.
#include "TestDb.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace {

struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

QProcessEnvironment headlessEnvironment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        env.remove(QString::fromLatin1(name));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    pb::test::addPgEnvironment(env);
    return env;
}

Run run(const QString& program, const QStringList& args,
        const QProcessEnvironment& env = headlessEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(180000)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace

class TestHeadlessCli : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void linksNoWidgetLibrary();
    void windowExecutableStillLinksWidgets();
    void withoutAVerbPrintsUsage();
    void answersAsTheWindowExecutableDoes_data();
    void answersAsTheWindowExecutableDoes();

  private:
    // A copy of the seeded database for one run: on SQLite a copy of the file, on PostgreSQL a fresh
    // database filled by `db copy` (the same rows, receipts and ledger head).
    bool copySeeded(pb::test::TestDatabase& to);

    QTemporaryDir m_dir;
    std::unique_ptr<pb::test::TestDatabase> m_seedDb;
    QString m_seeded; // a database the first use seeded (sample catalog, its receipts)
};

bool TestHeadlessCli::copySeeded(pb::test::TestDatabase& to) {
    if (!to.ok())
        return false;
    if (!pb::test::onPostgres())
        return QFile::copy(m_seeded, to.spec());
    const Run copied = run(QStringLiteral(PB_HEADLESS_CLI_BINARY),
                           {QStringLiteral("db"), QStringLiteral("copy"), QStringLiteral("--from"), m_seeded,
                            QStringLiteral("--to"), to.spec()});
    if (copied.code != 0)
        qWarning("db copy: %s", copied.err.constData());
    return copied.code == 0;
}

void TestHeadlessCli::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_seedDb = std::make_unique<pb::test::TestDatabase>(m_dir.path(), QStringLiteral("seeded.db"));
    if (!m_seedDb->ok()) {
        if (m_seedDb->serverMissing())
            QSKIP(qPrintable(m_seedDb->error()));
        QFAIL(qPrintable(m_seedDb->error()));
    }
    m_seeded = m_seedDb->spec();
    const Run seed = run(QStringLiteral(PB_CLI_BINARY), {QStringLiteral("--db"), m_seeded,
                                                         QStringLiteral("catalog"), QStringLiteral("list")});
    QVERIFY2(seed.code == 0, seed.err.constData());
}

// ldd lists every shared object the loader maps for the executable, transitively.
static QStringList loadedLibraries(const QString& executable) {
    QProcess ldd;
    ldd.start(QStringLiteral("ldd"), {executable});
    if (!ldd.waitForFinished(60000) || ldd.exitCode() != 0)
        return {};
    QStringList names;
    const QStringList lines =
        QString::fromLocal8Bit(ldd.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString& line : lines)
        names << line.trimmed().section(QLatin1Char(' '), 0, 0);
    return names;
}

void TestHeadlessCli::linksNoWidgetLibrary() {
    if (pb::test::onPostgres())
        QSKIP("no database involved: the SQLite half covers it");
    const QStringList libs = loadedLibraries(QStringLiteral(PB_HEADLESS_CLI_BINARY));
    QVERIFY2(!libs.isEmpty(), "ldd gave no list for proofbench-cli");
    QVERIFY2(libs.contains(QStringLiteral("libQt6Core.so.6")), qPrintable(libs.join(QLatin1Char(' '))));
    const QRegularExpression widgetish(
        QStringLiteral("^(libQt6Widgets|libQt6PrintSupport|libqcustomplot|libpb_widgets|libpb_models)"),
        QRegularExpression::CaseInsensitiveOption);
    for (const QString& lib : libs)
        QVERIFY2(!widgetish.match(lib).hasMatch(),
                 qPrintable(QStringLiteral("proofbench-cli loads %1").arg(lib)));
}

// The check above can fail: the window's executable, built the same way, does load QtWidgets.
void TestHeadlessCli::windowExecutableStillLinksWidgets() {
    if (pb::test::onPostgres())
        QSKIP("no database involved: the SQLite half covers it");
    const QStringList libs = loadedLibraries(QStringLiteral(PB_CLI_BINARY));
    QVERIFY2(libs.contains(QStringLiteral("libQt6Widgets.so.6")), qPrintable(libs.join(QLatin1Char(' '))));
}

void TestHeadlessCli::withoutAVerbPrintsUsage() {
    if (pb::test::onPostgres())
        QSKIP("no database involved: the SQLite half covers it");
    const Run r = run(QStringLiteral(PB_HEADLESS_CLI_BINARY), {});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.out.contains("Verbs:"), r.out.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());
}

void TestHeadlessCli::answersAsTheWindowExecutableDoes_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<bool>("readsDatabase");
    QTest::addRow("version") << QStringList{QStringLiteral("--version")} << 0 << false;
    QTest::addRow("help") << QStringList{QStringLiteral("--help")} << 0 << false;
    QTest::addRow("catalog list") << QStringList{QStringLiteral("catalog"), QStringLiteral("list")} << 0
                                  << true;
    QTest::addRow("health json") << QStringList{QStringLiteral("health"), QStringLiteral("--format"),
                                                QStringLiteral("json")}
                                 << 0 << true;
    QTest::addRow("receipts verify") << QStringList{QStringLiteral("receipts"), QStringLiteral("verify")} << 0
                                     << true;
    QTest::addRow("unknown verb") << QStringList{QStringLiteral("frobnicate")} << 2 << false;
    QTest::addRow("verify without bundle") << QStringList{QStringLiteral("verify")} << 2 << false;
}

// Each executable on its own copy of one seeded database (a command may leave a receipt), so both
// start from the same rows and neither sees the other's writes.
void TestHeadlessCli::answersAsTheWindowExecutableDoes() {
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(bool, readsDatabase);
    if (!readsDatabase && pb::test::onPostgres())
        QSKIP("no database involved: the SQLite half covers it");
    const QString tag =
        QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'));
    pb::test::TestDatabase headlessCopy(m_dir.path(), tag + QStringLiteral("-headless.db"));
    pb::test::TestDatabase windowCopy(m_dir.path(), tag + QStringLiteral("-window.db"));
    QVERIFY2(copySeeded(headlessCopy) && copySeeded(windowCopy),
             qPrintable(headlessCopy.error() + windowCopy.error()));
    const QString headlessDb = headlessCopy.spec(), windowDb = windowCopy.spec();
    const Run headless =
        run(QStringLiteral(PB_HEADLESS_CLI_BINARY), QStringList{QStringLiteral("--db"), headlessDb} + args);
    const Run window =
        run(QStringLiteral(PB_CLI_BINARY), QStringList{QStringLiteral("--db"), windowDb} + args);
    QCOMPARE(headless.code, code);
    QCOMPARE(window.code, code);
    // The database appears in some answers (help's default, catalog list's source): name it alike
    // (on PostgreSQL by its database name, which every way of showing the server includes).
    auto normal = [](QByteArray text, const pb::test::TestDatabase& db) {
        text.replace(db.spec().toUtf8(), "DB");
        if (!db.pgName().isEmpty())
            text.replace(db.pgName().toUtf8(), "DB");
        return text;
    };
    QCOMPARE(normal(headless.out, headlessCopy), normal(window.out, windowCopy));
    QCOMPARE(normal(headless.err, headlessCopy), normal(window.err, windowCopy));
}

QTEST_GUILESS_MAIN(TestHeadlessCli)
#include "tst_headlesscli.moc"
