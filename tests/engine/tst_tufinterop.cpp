// The same repository and anchor give the same verdict and the same target bytes in tuf-js (the TUF
// client sigstore-js uses) as in engine/tuf: the real Sigstore copy as of a valid time (tuf-js's
// Node clock fixed to it, see tests/interop/tuf-js-update.mjs), now (expired), from root v1, and
// tampered copies. Skips with a message when node or the pinned tuf-js is not installed.
#include "TufFixture.h"

#include "tuf/Client.h"

#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace pb;

namespace {

struct Peer {
    bool ran = false;
    bool verified = false;
    QJsonObject json;
    QByteArray target;
    QString failure; // when it did not run
};

QString shippedAnchorFile(const QTemporaryDir& tmp) {
    const QString path = tmp.filePath(QStringLiteral("anchor-v13.json"));
    pbtest::writeAll(path, pbtest::readAll(QStringLiteral(":/tuf/sigstore-public-good-root-v13.json")));
    return path;
}

Peer tufJs(const QString& repo, const QString& anchor, const QString& target, std::optional<QDateTime> at,
           const QTemporaryDir& tmp) {
    Peer p;
    const QString out = tmp.filePath(QStringLiteral("tuf-js-target.out"));
    QFile::remove(out);
    QStringList args{QStringLiteral(PB_SOURCE_DIR "/tests/interop/tuf-js-update.mjs"),
                     QStringLiteral(PB_TUF_JS_DIR),
                     repo,
                     anchor,
                     target,
                     out};
    if (at)
        args << at->toUTC().toString(Qt::ISODate);
    QProcess node;
    node.start(QStringLiteral("node"), args);
    if (!node.waitForFinished(60000) || node.exitStatus() != QProcess::NormalExit || node.exitCode() > 1) {
        p.failure = QString::fromUtf8(node.readAllStandardError());
        return p;
    }
    p.ran = true;
    p.json = QJsonDocument::fromJson(node.readAllStandardOutput()).object();
    p.verified = node.exitCode() == 0 && p.json.value(QStringLiteral("verified")).toBool();
    p.target = pbtest::readAll(out);
    return p;
}

tuf::ClientResult ours(const QString& repo, const QString& anchor, const QString& target,
                       std::optional<QDateTime> at) {
    tuf::ClientRequest r;
    r.dir = repo;
    r.anchor = pbtest::readAll(anchor);
    r.anchorName = anchor;
    r.at = at;
    r.targetName = target;
    return tuf::runClient(r);
}

} // namespace

class TstTufInterop : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    void compare(const QString& repo, const QString& anchor, std::optional<QDateTime> at,
                 bool expectVerified) {
        const auto a = ours(repo, anchor, QStringLiteral("trusted_root.json"), at);
        const Peer b = tufJs(repo, anchor, QStringLiteral("trusted_root.json"), at, m_tmp);
        QVERIFY2(b.ran, qPrintable(b.failure));
        qInfo("proofbench: %s; tuf-js: %s", a.ok ? "verified" : qPrintable(a.error.toString()),
              b.verified ? "verified" : qPrintable(b.json.value(QStringLiteral("error")).toString()));
        QCOMPARE(a.ok, expectVerified);
        QCOMPARE(b.verified, expectVerified);
        if (expectVerified) {
            QCOMPARE(a.targetBytes, b.target);
            QCOMPARE(a.root.version, b.json.value(QStringLiteral("root")).toInteger());
            QCOMPARE(a.timestamp.version, b.json.value(QStringLiteral("timestamp")).toInteger());
            QCOMPARE(a.snapshot.version, b.json.value(QStringLiteral("snapshot")).toInteger());
            QCOMPARE(a.targets.version, b.json.value(QStringLiteral("targets")).toInteger());
        } else {
            QVERIFY(b.target.isEmpty());
        }
    }

  private slots:
    void initTestCase() {
        if (!QFileInfo::exists(pbtest::tufRepo() + QStringLiteral("/metadata/root.json")))
            QSKIP(qPrintable(QStringLiteral("shared data not found at %1; skipping").arg(pbtest::tufRepo())));
        if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
            QSKIP("node is not installed: the tuf-js interop check cannot run here (install Node.js and run "
                  "tools/bootstrap.sh test)");
        if (!QFileInfo::exists(QStringLiteral(PB_TUF_JS_DIR "/node_modules/tuf-js/package.json")))
            QSKIP(qPrintable(QStringLiteral("tuf-js is not installed in %1 (tools/bootstrap.sh test installs "
                                            "tests/interop/tuf-js there "
                                            "with npm ci): the interop check cannot run here")
                                 .arg(QStringLiteral(PB_TUF_JS_DIR))));
    }

    void sameVerdictAndBytesAtAValidTime() {
        compare(pbtest::tufRepo(), shippedAnchorFile(m_tmp), pbtest::tufValidTime(), true);
    }

    void sameVerdictFromRootV1() {
        compare(pbtest::tufRepo(), pbtest::tufRepo() + QStringLiteral("/metadata/root_history/1.root.json"),
                pbtest::tufValidTime(), true);
    }

    void bothRefuseTheExpiredRepository() {
        if (QDateTime::currentDateTimeUtc() < QDateTime(QDate(2026, 11, 20), QTime(13, 58, 18), Qt::UTC))
            QSKIP("the copy's root has not expired yet on this clock");
        compare(pbtest::tufRepo(), shippedAnchorFile(m_tmp), std::nullopt, false);
        const Peer b = tufJs(pbtest::tufRepo(), shippedAnchorFile(m_tmp), QStringLiteral("trusted_root.json"),
                             std::nullopt, m_tmp);
        QVERIFY(b.json.value(QStringLiteral("error")).toString().contains(QStringLiteral("expired")));
        // Between the timestamp's expiry and the root's: both name the timestamp's.
        compare(pbtest::tufRepo(), shippedAnchorFile(m_tmp),
                QDateTime(QDate(2026, 9, 1), QTime(0, 0), Qt::UTC), false);
    }

    void bothRefuseTamperedCopies() {
        {
            QTemporaryDir tmp;
            const QString repo = pbtest::copyTufRepo(tmp);
            QByteArray b = pbtest::readAll(repo + QStringLiteral("/metadata/snapshot.json"));
            b.replace("2036-05-15T08:09:16Z", "2036-05-15T08:09:17Z");
            QVERIFY(pbtest::writeAll(repo + QStringLiteral("/metadata/snapshot.json"), b));
            compare(repo, shippedAnchorFile(m_tmp), pbtest::tufValidTime(), false);
        }
        {
            QTemporaryDir tmp;
            const QString repo = pbtest::copyTufRepo(tmp);
            QByteArray b = pbtest::readAll(repo + QStringLiteral("/targets/trusted_root.json"));
            b.replace("\"mediaType\"", "\"mediaTypf\"");
            QVERIFY(pbtest::writeAll(repo + QStringLiteral("/targets/trusted_root.json"), b));
            compare(repo, shippedAnchorFile(m_tmp), pbtest::tufValidTime(), false);
        }
        {
            QTemporaryDir tmp;
            const QString repo = pbtest::copyTufRepo(tmp);
            QVERIFY(pbtest::writeAll(repo + QStringLiteral("/metadata/root_history/14.root.json"),
                                     pbtest::readAll(repo + QStringLiteral("/metadata/root.json"))));
            compare(repo, shippedAnchorFile(m_tmp), pbtest::tufValidTime(), false);
        }
    }
};

QTEST_GUILESS_MAIN(TstTufInterop)
#include "tst_tufinterop.moc"
