// Issue 17, "Input safety": hostile files meet the file primitives (core/Files.h) and a clear error
// naming them, never a hang. Every FIFO is a real one (mkfifo) in a QTemporaryDir; each read that
// could block runs under a watchdog that fails the test instead of hanging the suite.
#include "TestUtil.h"

#include "core/Files.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>

#include <sys/stat.h>
#include <sys/types.h>

using namespace pb;

namespace {

QString makeFifo(const QString& path) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    if (::mkfifo(QFile::encodeName(path).constData(), 0600) != 0)
        qFatal("cannot mkfifo %s", qPrintable(path));
    return path;
}

// A hung open() on a FIFO cannot be interrupted from inside; a watchdog thread aborts the process
// after `seconds` so the suite reports a failure instead of hanging.
class Watchdog {
  public:
    explicit Watchdog(const char* what, int seconds = 5) : m_what(what) {
        m_thread = std::thread([this, seconds] {
            for (int i = 0; i < seconds * 100 && !m_done; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            if (!m_done)
                qFatal("hung for %d s: %s", seconds, m_what);
        });
    }
    ~Watchdog() {
        m_done = true;
        m_thread.join();
    }

  private:
    const char* m_what;
    std::atomic<bool> m_done{false};
    std::thread m_thread;
};

void expectNotRegular(const Error& e, const QString& path, const char* kind = "named pipe (FIFO)") {
    QVERIFY2(e.file == path || e.message.contains(path), qPrintable(e.toString()));
    QVERIFY2(e.toString().contains(QLatin1String(kind)), qPrintable(e.toString()));
    QVERIFY2(e.toString().contains(QLatin1String("not a regular file")), qPrintable(e.toString()));
}

} // namespace

class TestInputSafety : public QObject {
    Q_OBJECT
  private slots:
    void primitiveRefusesFifoSocketDeviceDirectory();
};

void TestInputSafety::primitiveRefusesFifoSocketDeviceDirectory() {
    QTemporaryDir dir;
    const QString fifo = makeFifo(dir.filePath(QStringLiteral("pipe")));
    {
        Watchdog w("readFileLimited on a FIFO");
        QElapsedTimer t;
        t.start();
        Result<QByteArray> r = readFileLimited(fifo, limits::kSmallFile, QStringLiteral("the token file"));
        QVERIFY(!r.ok());
        QVERIFY(t.elapsed() < 1000);
        expectNotRegular(r.error(), fifo);
        QVERIFY2(r.error().message.startsWith(QLatin1String("the token file is a named pipe (FIFO)")), qPrintable(r.error().toString()));
    }
    {
        QFile f(fifo);
        Status s = openInputFile(f, QStringLiteral("the allowlist"));
        QVERIFY(!s.ok());
        QVERIFY(!f.isOpen());
        expectNotRegular(s.error(), fifo);
    }
    Result<QByteArray> dev = readFileLimited(QStringLiteral("/dev/zero"), 4096);
    QVERIFY(!dev.ok());
    expectNotRegular(dev.error(), QStringLiteral("/dev/zero"), "character device");
    Result<QByteArray> d = readFileLimited(dir.path(), 4096, QStringLiteral("index.json"));
    QVERIFY(!d.ok());
    expectNotRegular(d.error(), dir.path(), "directory");
    Result<QByteArray> missing = readFileLimited(dir.filePath(QStringLiteral("nope")), 4096, QStringLiteral("the allowlist"));
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().file, dir.filePath(QStringLiteral("nope")));

    // A regular file reads whole; the open QFile keeps its name (errors name the file).
    const QString plain = dir.filePath(QStringLiteral("plain.txt"));
    QVERIFY(writeFileAtomically(plain, "hello\n").ok());
    QFile f(plain);
    QVERIFY(openInputFile(f).ok());
    QCOMPARE(inputFileName(f), plain);
    QVERIFY(!f.isSequential());
    QCOMPARE(f.size(), qint64(6));
    Result<QByteArray> over = readLimited(f, 3, QStringLiteral("plain"));
    QVERIFY(!over.ok());
    QCOMPARE(over.error().file, plain);
    Result<QByteArray> whole = readFileLimited(plain, 100);
    QVERIFY(whole.ok());
    QCOMPARE(*whole, QByteArray("hello\n"));

    QCOMPARE(describeFileType(fifo), QStringLiteral("a named pipe (FIFO)"));
    QCOMPARE(describeFileType(plain), QStringLiteral("a regular file"));
    QVERIFY(QFile::link(plain, dir.filePath(QStringLiteral("link"))));
    QCOMPARE(describeFileType(dir.filePath(QStringLiteral("link"))), QStringLiteral("a symbolic link"));
    QVERIFY(!isRegularFileNoFollow(dir.filePath(QStringLiteral("link"))));
    QVERIFY(isRegularFileNoFollow(plain));
}

QTEST_GUILESS_MAIN(TestInputSafety)
#include "tst_inputsafety.moc"
