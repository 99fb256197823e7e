// Issue 29: `proofbench-cli` is the CLI without the window. It must link no widget library (no
// QtWidgets, no pb_widgets, no QCustomPlot, no QtPrintSupport, checked on the dynamic loader's own
// list of what the executable loads), run with no display, and answer every verb exactly as
// `proofbench VERB` does, because both call pb::cli::runProcess.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

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
    QTemporaryDir m_dir;
    QString m_seeded; // a database the first use seeded (sample catalog, its receipts)
};

void TestHeadlessCli::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_seeded = m_dir.filePath(QStringLiteral("seeded.db"));
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
    const QStringList libs = loadedLibraries(QStringLiteral(PB_CLI_BINARY));
    QVERIFY2(libs.contains(QStringLiteral("libQt6Widgets.so.6")), qPrintable(libs.join(QLatin1Char(' '))));
}

void TestHeadlessCli::withoutAVerbPrintsUsage() {
    const Run r = run(QStringLiteral(PB_HEADLESS_CLI_BINARY), {});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.out.contains("Verbs:"), r.out.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());
}

void TestHeadlessCli::answersAsTheWindowExecutableDoes_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addRow("version") << QStringList{QStringLiteral("--version")} << 0;
    QTest::addRow("help") << QStringList{QStringLiteral("--help")} << 0;
    QTest::addRow("catalog list") << QStringList{QStringLiteral("catalog"), QStringLiteral("list")} << 0;
    QTest::addRow("health json") << QStringList{QStringLiteral("health"), QStringLiteral("--format"),
                                                QStringLiteral("json")}
                                 << 0;
    QTest::addRow("receipts verify") << QStringList{QStringLiteral("receipts"), QStringLiteral("verify")}
                                     << 0;
    QTest::addRow("unknown verb") << QStringList{QStringLiteral("frobnicate")} << 2;
    QTest::addRow("verify without bundle") << QStringList{QStringLiteral("verify")} << 2;
}

// Each executable on its own copy of one seeded database (a command may leave a receipt), so both
// start from the same rows and neither sees the other's writes.
void TestHeadlessCli::answersAsTheWindowExecutableDoes() {
    QFETCH(QStringList, args);
    QFETCH(int, code);
    const QString tag =
        QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'));
    const QString headlessDb = m_dir.filePath(tag + QStringLiteral("-headless.db"));
    const QString windowDb = m_dir.filePath(tag + QStringLiteral("-window.db"));
    QVERIFY(QFile::copy(m_seeded, headlessDb) && QFile::copy(m_seeded, windowDb));
    const Run headless =
        run(QStringLiteral(PB_HEADLESS_CLI_BINARY), QStringList{QStringLiteral("--db"), headlessDb} + args);
    const Run window =
        run(QStringLiteral(PB_CLI_BINARY), QStringList{QStringLiteral("--db"), windowDb} + args);
    QCOMPARE(headless.code, code);
    QCOMPARE(window.code, code);
    // The database path appears in some answers (help's default, catalog list's source): name it alike.
    auto normal = [](QByteArray text, const QString& db) { return text.replace(db.toUtf8(), "DB"); };
    QCOMPARE(normal(headless.out, headlessDb), normal(window.out, windowDb));
    QCOMPARE(normal(headless.err, headlessDb), normal(window.err, windowDb));
}

QTEST_GUILESS_MAIN(TestHeadlessCli)
#include "tst_headlesscli.moc"
