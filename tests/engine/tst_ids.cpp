// Issue 30, "one identity per thing": each kind of stored thing (run, key, bundle, catalog version,
// receipt) has one id in one spelling. The test takes the id each verb prints when it creates or
// lists the thing and hands it back to the verbs that take one, whole and as a git-style prefix,
// through the CLI as a user would; a prefix that is too short, unknown or ambiguous is refused with
// the candidates named. Both engines (DbFixture.h).
#include "DbTestUtil.h"
#include "TestUtil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

class Cli {
  public:
    explicit Cli(QString db) : m_db(std::move(db)) {}
    Run operator()(const QStringList& args) const {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PB_PASS"), QStringLiteral("ids test passphrase"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(PB_CLI_BINARY), QStringList{QStringLiteral("--db"), m_db} + args);
        if (!p.waitForFinished(120000))
            return {};
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

  private:
    QString m_db;
};

QString captured(const QString& text, const char* pattern) {
    const QRegularExpressionMatch m =
        QRegularExpression(QString::fromLatin1(pattern), QRegularExpression::MultilineOption).match(text);
    return m.hasMatch() ? m.captured(1) : QString();
}

QString goldens() {
    return QStringLiteral(PB_SHARED_DATA "/aicr/bundler-goldens");
}

} // namespace

class TstIds : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    std::unique_ptr<pb::test::TestDatabase> m_testDb;
    std::unique_ptr<Cli> m_cli;

  private slots:
    void initTestCase() {
        PB_TEST_DATABASE_IN(m_testDb, m_tmp.path(), QStringLiteral("ids.sqlite"));
        m_cli = std::make_unique<Cli>(m_testDb->spec());
    }

    // A run: the id perf import prints is the one runs list shows and runs show takes (4+ digits).
    void run() {
        const Cli& cli = *m_cli;
        Run imported =
            cli({QStringLiteral("perf"), QStringLiteral("import"), QStringLiteral("--kind"),
                 QStringLiteral("nccl"), pbtest::fixture(QStringLiteral("perf/nccl-crlf-h200-2node.txt"))});
        QCOMPARE(imported.code, 0);
        const QString uid = captured(imported.out, "stored as run ([0-9a-f]{8})$");
        QVERIFY2(!uid.isEmpty(), qPrintable(imported.out));
        QVERIFY2(cli({QStringLiteral("runs"), QStringLiteral("list")})
                     .out.contains(QRegularExpression(QStringLiteral("^%1 ").arg(uid),
                                                      QRegularExpression::MultilineOption)),
                 qPrintable(uid));
        for (const QString& ref : {uid, uid.left(4), uid.toUpper()}) {
            Run shown = cli({QStringLiteral("runs"), QStringLiteral("show"), ref, QStringLiteral("--format"),
                             QStringLiteral("json")});
            QVERIFY2(shown.code == 0, qPrintable(ref + QStringLiteral(": ") + shown.err));
            QCOMPARE(
                QJsonDocument::fromJson(shown.out.toUtf8()).object().value(QStringLiteral("id")).toString(),
                uid);
        }
        Run tooShort = cli({QStringLiteral("runs"), QStringLiteral("show"), uid.left(3)});
        QVERIFY(tooShort.code != 0 && tooShort.err.contains(QStringLiteral("too short")));
    }

    // A key: keygen, keys list and verify spell its fingerprint one way.
    void key() {
        const Cli& cli = *m_cli;
        const QString key = m_tmp.filePath(QStringLiteral("ids.key"));
        Run made = cli({QStringLiteral("keygen"), QStringLiteral("--out"), key,
                        QStringLiteral("--passphrase-env"), QStringLiteral("PB_PASS")});
        QCOMPARE(made.code, 0);
        const QString fp = captured(made.out, "^fingerprint: (sha256:[0-9a-f]{64})$");
        QVERIFY2(!fp.isEmpty(), qPrintable(made.out));
        QVERIFY(cli({QStringLiteral("keys"), QStringLiteral("list")}).out.contains(fp));
        const QString blob = m_tmp.filePath(QStringLiteral("blob.txt"));
        QVERIFY(pbtest::writeFile(blob, "one id per key\n"));
        const QString sig = m_tmp.filePath(QStringLiteral("blob.sigstore.json"));
        QCOMPARE(cli({QStringLiteral("sign-blob"), blob, QStringLiteral("--key"), key,
                      QStringLiteral("--passphrase-env"), QStringLiteral("PB_PASS"),
                      QStringLiteral("--bundle"), sig})
                     .code,
                 0);
        Run verified =
            cli({QStringLiteral("verify"), blob, QStringLiteral("--bundle"), sig, QStringLiteral("--key"),
                 key + QStringLiteral(".pub"), QStringLiteral("--insecure-ignore-tlog")});
        QVERIFY2(verified.code == 0, qPrintable(verified.err));
        // verify may shorten it, but only as a prefix of the same spelling
        const QString shown = captured(verified.out, "(sha256:[0-9a-f]{16,64})");
        QVERIFY2(!shown.isEmpty() && fp.startsWith(shown), qPrintable(verified.out));
    }

    // A bundle: its tree digest, which bundle list prints, names it to show and diff, as a prefix too.
    void bundle() {
        if (!QDir(goldens()).exists())
            QSKIP("AICR's golden bundles (../shared/data/aicr/bundler-goldens) are not here");
        const Cli& cli = *m_cli;
        QStringList digests;
        for (const char* c : {"helm/upstream_helm_only", "helm/mixed_gpu_operator"}) {
            Run imported = cli({QStringLiteral("bundle"), QStringLiteral("import"), QStringLiteral("--name"),
                                QString::fromLatin1(c), goldens() + QLatin1Char('/') + QLatin1String(c)});
            QVERIFY2(imported.code == 0, qPrintable(imported.err));
        }
        Run listed = cli({QStringLiteral("bundle"), QStringLiteral("list")});
        QCOMPARE(listed.code, 0);
        const QRegularExpression line(QStringLiteral("^(\\S+)  helm  tree digest sha256:([0-9a-f]{12})  "),
                                      QRegularExpression::MultilineOption);
        QMap<QString, QString> byName;
        for (auto it = line.globalMatch(listed.out); it.hasNext();) {
            const auto m = it.next();
            byName[m.captured(1)] = m.captured(2);
        }
        QCOMPARE(byName.size(), 2);
        for (auto it = byName.cbegin(); it != byName.cend(); ++it) {
            for (const QString& ref :
                 {it.value(), QStringLiteral("sha256:") + it.value().left(6), it.value().left(4).toUpper()}) {
                Run shown = cli({QStringLiteral("bundle"), QStringLiteral("show"), ref});
                QVERIFY2(shown.code == 0, qPrintable(ref + QStringLiteral(": ") + shown.err));
                QVERIFY2(shown.out.startsWith(it.key() + QStringLiteral(": ")) &&
                             shown.out.contains(QStringLiteral("tree digest sha256:") + it.value()),
                         qPrintable(shown.out));
            }
        }
        // diff takes the same ids
        Run diffed = cli({QStringLiteral("bundle"), QStringLiteral("diff"), byName.first(), byName.last()});
        QVERIFY2(diffed.code == 0 || diffed.code == 1, qPrintable(diffed.err));
        QVERIFY2(diffed.out.contains(byName.firstKey()) && diffed.out.contains(byName.lastKey()),
                 qPrintable(diffed.out));
        // refusals name why
        Run tooShort = cli({QStringLiteral("bundle"), QStringLiteral("show"), byName.first().left(3)});
        QVERIFY2(tooShort.code != 0 && tooShort.err.contains(QStringLiteral("too short")),
                 qPrintable(tooShort.err));
        QString unknown = QStringLiteral("0000");
        while (byName.first().startsWith(unknown) || byName.last().startsWith(unknown))
            unknown = QString::number(unknown.toInt() + 1).rightJustified(4, QLatin1Char('0'));
        Run none = cli({QStringLiteral("bundle"), QStringLiteral("show"), unknown});
        QVERIFY2(none.code != 0 && none.err.contains(QStringLiteral("no bundle '%1'").arg(unknown)),
                 qPrintable(none.err));
        // two bundles share a prefix: the refusal names both
        QString common;
        while (common.size() < 12 && byName.first().at(common.size()) == byName.last().at(common.size()))
            common += byName.first().at(common.size());
        if (common.size() >= 4) {
            Run ambiguous = cli({QStringLiteral("bundle"), QStringLiteral("show"), common});
            QVERIFY2(ambiguous.code != 0 && ambiguous.err.contains(QStringLiteral("ambiguous")) &&
                         ambiguous.err.contains(byName.first().left(common.size() + 1)) &&
                         ambiguous.err.contains(byName.last().left(common.size() + 1)),
                     qPrintable(ambiguous.err));
        }
    }

    // A catalog version: its label, as catalog list prints it, is what every verb takes.
    void catalogVersion() {
        const Cli& cli = *m_cli;
        Run imported = cli({QStringLiteral("catalog"), QStringLiteral("import"),
                            pbtest::embeddedCatalogDir(QStringLiteral("sample-2")),
                            QStringLiteral("--version"), QStringLiteral("ids-copy")});
        QVERIFY2(imported.code == 0, qPrintable(imported.err));
        Run listed = cli({QStringLiteral("catalog"), QStringLiteral("list")});
        QVERIFY(listed.out.contains(
            QRegularExpression(QStringLiteral("^ids-copy "), QRegularExpression::MultilineOption)));
        Run health = cli({QStringLiteral("health"), QStringLiteral("--version"), QStringLiteral("ids-copy"),
                          QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(health.code == 0, qPrintable(health.err));
        QVERIFY(health.out.contains(QStringLiteral("\"ids-copy\"")));
    }

    // A receipt: "#N" in the ledger list, in show's header, and what show takes ("N" too).
    void receipt() {
        const Cli& cli = *m_cli;
        Run listed = cli({QStringLiteral("receipts"), QStringLiteral("list")});
        QCOMPARE(listed.code, 0);
        const QString last = captured(listed.out, "^#\\s*(\\d+)  (?![\\s\\S]*^#)");
        QVERIFY2(!last.isEmpty(), qPrintable(listed.out));
        for (const QString& ref : {QStringLiteral("#") + last, last}) {
            Run shown = cli({QStringLiteral("receipts"), QStringLiteral("show"), ref});
            QVERIFY2(shown.code == 0, qPrintable(shown.err));
            QVERIFY2(shown.out.startsWith(QStringLiteral("receipt #%1 ").arg(last)), qPrintable(shown.out));
        }
        QCOMPARE(cli({QStringLiteral("receipts"), QStringLiteral("show"), QStringLiteral("#0")}).code, 2);
        QCOMPARE(cli({QStringLiteral("receipts"), QStringLiteral("show"), QStringLiteral("seven")}).code, 2);
    }
};

QTEST_GUILESS_MAIN(TstIds)
#include "tst_ids.moc"
