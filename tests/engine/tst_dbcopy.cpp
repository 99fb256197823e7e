// Issue 31, "moving a database": a SQLite database made by the real CLI (catalogs, evidence, a run
// with its metrics, a signing key, a trusted root, a recorded verification, an imported bundle and
// the receipts of all of them) copied by `proofbench db copy` to a fresh PostgreSQL database and back
// into a fresh SQLite file. Every table has the same rows on all three, by the copy's own proof and
// by this test's reading (each row's values in text, sorted, hashed: no ORDER BY, no collation), and
// `receipts verify` passes on each with the same head; the copy on the server keeps working (new
// ids after the copied ones). The refusals leave the target as it was: a target that holds rows,
// a target whose schema differs. `db status` on both engines; and the errors that name the server
// and never a password: a wrong password, a server that is down, a certificate that does not verify.
//
// Registered for the PostgreSQL run only (it needs both engines); the SQLite files live beside it.
#include "DbFixture.h"
#include "TestUtil.h"

#include "db/SchemaInfo.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <map>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace pb;

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
    QByteArray all() const { return out + err; }
};

Run proofbench(const QStringList& args, const QProcessEnvironment& extra = {}) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PB_TEST_PASS"), QStringLiteral("dbcopy-key-passphrase"));
    test::addPgEnvironment(env);
    for (const QString& k : extra.keys())
        env.insert(k, extra.value(k));
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    if (!p.waitForFinished(180000)) {
        p.kill();
        p.waitForFinished();
        return Run{-1, {}, "timed out"};
    }
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
               p.readAllStandardError()};
}

QJsonObject jsonOf(const QByteArray& bytes) {
    return QJsonDocument::fromJson(bytes).object();
}

// One value as text, tagged by what the driver handed back; the same for either engine when the
// value is the same (SQLite's qlonglong and PostgreSQL's qulonglong are both integers).
QByteArray cell(const QVariant& v) {
    if (v.isNull())
        return "N";
    switch (v.metaType().id()) {
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
        return "i" + QByteArray::number(v.toLongLong());
    case QMetaType::Double:
        return "r" + QByteArray::number(v.toDouble(), 'g', 17);
    case QMetaType::QByteArray:
        return "b" + v.toByteArray().toHex();
    default: {
        const QByteArray t = v.toString().toUtf8();
        return "t" + QByteArray::number(t.size()) + ':' + t;
    }
    }
}

struct TableContent {
    qint64 rows = 0;
    QString sha256;
    bool operator==(const TableContent& o) const { return rows == o.rows && sha256 == o.sha256; }
};
using Content = std::map<QString, TableContent>;

// Every table's rows as this test reads them: each row's cells joined, the rows sorted as bytes,
// hashed. Independent of `db copy`'s own proof (its key order, its typing).
Content contentOf(const QString& spec, QString* error) {
    Content out;
    auto db = db::Database::open(spec);
    if (!db) {
        *error = db.error().toString();
        return out;
    }
    Result<db::LogicalSchema> schema = db::readSchema((*db)->sql());
    if (!schema) {
        *error = schema.error().toString();
        return out;
    }
    for (const db::SchemaTable& t : schema->tables) {
        QStringList columns;
        for (const db::SchemaColumn& c : t.columns)
            columns << c.name;
        QSqlQuery q((*db)->sql());
        if (!q.exec(QStringLiteral("SELECT %1 FROM %2").arg(columns.join(QStringLiteral(", ")), t.name))) {
            *error = t.name + QStringLiteral(": ") + q.lastError().text();
            return out;
        }
        QList<QByteArray> rows;
        while (q.next()) {
            QByteArray row;
            for (int i = 0; i < columns.size(); ++i)
                row += cell(q.value(i)) + '\x1f';
            rows << row;
        }
        std::sort(rows.begin(), rows.end());
        QCryptographicHash h(QCryptographicHash::Sha256);
        for (const QByteArray& r : rows)
            h.addData(r + '\n');
        out[t.name] = TableContent{rows.size(), QString::fromLatin1(h.result().toHex())};
    }
    return out;
}

QString describe(const Content& c) {
    QStringList lines;
    for (const auto& [table, t] : c)
        lines << QStringLiteral("%1 %2 %3").arg(table).arg(t.rows).arg(t.sha256.left(12));
    return lines.join(QLatin1Char('\n'));
}

qint64 rowsIn(const Content& c) {
    qint64 n = 0;
    for (const auto& [table, t] : c)
        n += t.rows;
    return n;
}

// `db copy --format json`'s proof: table -> (rows, sha256).
Content proofOf(const QJsonObject& copy) {
    Content out;
    for (const QJsonValue& v : copy.value(QStringLiteral("tables")).toArray()) {
        const QJsonObject o = v.toObject();
        out[o.value(QStringLiteral("table")).toString()] = TableContent{
            o.value(QStringLiteral("rows")).toInteger(), o.value(QStringLiteral("sha256")).toString()};
    }
    return out;
}

// The spec `uri` with its query parameter `key` set to `value` (or its port replaced).
QString withParameter(const QString& uri, const QString& key, const QString& value) {
    QUrl url(uri);
    QUrlQuery query(url);
    query.removeAllQueryItems(key);
    query.addQueryItem(key, value);
    url.setQuery(query);
    return url.toString(QUrl::FullyEncoded);
}

QString withPort(const QString& uri, int port) {
    QUrl url(uri);
    url.setPort(port);
    return url.toString(QUrl::FullyEncoded);
}

// The test role's password, from the pgpass file libpq reads (host:port:db:user:password).
QString testPassword() {
    QFile f(QString::fromLocal8Bit(qgetenv("PGPASSFILE")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray& line : f.readAll().split('\n')) {
        const QList<QByteArray> fields = line.split(':');
        if (fields.size() >= 5 && fields.at(3) == "pbtest")
            return QString::fromUtf8(fields.mid(4).join(':'));
    }
    return {};
}

// A port on 127.0.0.1 nobody listens on (bound for a moment, then released).
int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    int port = -1;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

} // namespace

class TestDbCopy : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    test::Databases m_pg{m_tmp.path()};
    QString m_source; // the SQLite database with real content, made in initTestCase
    Content m_sourceContent;
    QString m_password;

    QString sqliteFile(const QString& name) const { return m_tmp.filePath(name); }

  private slots:
    void initTestCase() {
        if (!test::onPostgres())
            QSKIP("db copy between the engines needs the PostgreSQL test server: this test runs as "
                  "tst_dbcopy.postgresql");
        QVERIFY(m_tmp.isValid());
        PB_TEST_DATABASE(probe, m_tmp.path(), QStringLiteral("probe"));
        m_password = testPassword();
        QVERIFY2(!m_password.isEmpty(), "no password for pbtest in PGPASSFILE");
        m_source = sqliteFile(QStringLiteral("source.sqlite"));
        auto must = [&](const Run& r, const char* what) {
            if (r.code != 0)
                qWarning("%s: exit %d\n%s\n%s", what, r.code, r.out.constData(), r.err.constData());
            return r.code == 0;
        };
        const QString db = m_source;
        // Always: the sample catalogs (seeded on first use), a catalog import, a run with its
        // metrics and series (perf import; its verdict fails the threshold, exit 1, and is stored),
        // a signing key.
        QVERIFY(must(proofbench({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"),
                                 db, QStringLiteral("--version"), QStringLiteral("mine-1.0"),
                                 pbtest::embeddedCatalogDir(QStringLiteral("sample-1"))}),
                     "catalog import"));
        const Run perf =
            proofbench({QStringLiteral("perf"), QStringLiteral("import"),
                        pbtest::fixture(QStringLiteral("validation/nccl-low.txt")), QStringLiteral("--kind"),
                        QStringLiteral("nccl"), QStringLiteral("--version"), QStringLiteral("sample-2"),
                        QStringLiteral("--service"), QStringLiteral("eks"), QStringLiteral("--accelerator"),
                        QStringLiteral("h100"), QStringLiteral("--os"), QStringLiteral("ubuntu"),
                        QStringLiteral("--intent"), QStringLiteral("training"), QStringLiteral("--platform"),
                        QStringLiteral("kubeflow"), QStringLiteral("--db"), db});
        QVERIFY2(perf.code == 0 || perf.code == 1, perf.err.constData());
        QVERIFY(must(proofbench({QStringLiteral("keygen"), QStringLiteral("--db"), db,
                                 QStringLiteral("--out"), m_tmp.filePath(QStringLiteral("signer.key")),
                                 QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS")}),
                     "keygen"));
        // With ../shared/data: a real catalog and its evidence pointers, a trusted root (bytes) and a
        // recorded verification, an imported deployment bundle.
        const QString real = pbtest::realCatalog(QStringLiteral("2026-08-19"));
        if (QFileInfo::exists(real)) {
            QVERIFY(
                must(proofbench({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"),
                                 db, QStringLiteral("--version"), QStringLiteral("2026-08-19"), real}),
                     "catalog import 2026-08-19"));
            QVERIFY(must(proofbench({QStringLiteral("evidence"), QStringLiteral("import"),
                                     QStringLiteral("--db"), db, real}),
                         "evidence import"));
        } else {
            qInfo("shared data not found at %s: the copy carries the sample catalogs, a run and a key only",
                  qPrintable(real));
        }
        const QString sigstoreCase =
            pbtest::sharedData(QStringLiteral("sigstore/cases/managed-key-happy-path"));
        if (QFileInfo::exists(sigstoreCase)) {
            QVERIFY(must(proofbench({QStringLiteral("verify"), QStringLiteral("--db"), db,
                                     QStringLiteral("--import-trusted-root"),
                                     sigstoreCase + QStringLiteral("/trusted_root.json")}),
                         "verify --import-trusted-root"));
            QVERIFY(must(
                proofbench({QStringLiteral("verify"), QStringLiteral("--db"), db, QStringLiteral("--bundle"),
                            sigstoreCase + QStringLiteral("/bundle.sigstore.json"), QStringLiteral("--key"),
                            sigstoreCase + QStringLiteral("/key.pub"), QStringLiteral("--record"),
                            sigstoreCase + QStringLiteral("/artifact")}),
                "verify --record"));
        }
        const QString golden =
            pbtest::sharedData(QStringLiteral("aicr/bundler-goldens/argocd/mixed_with_pre"));
        if (QFileInfo::exists(golden))
            QVERIFY(must(
                proofbench({QStringLiteral("--db"), db, QStringLiteral("bundle"), QStringLiteral("import"),
                            QStringLiteral("--name"), QStringLiteral("mixed"), golden}),
                "bundle import"));
        QString error;
        m_sourceContent = contentOf(m_source, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(m_sourceContent.at(QStringLiteral("receipts")).rows >= 5,
                 qPrintable(describe(m_sourceContent)));
        QVERIFY(m_sourceContent.at(QStringLiteral("signing_keys")).rows == 1);
        QVERIFY(m_sourceContent.at(QStringLiteral("catalog_versions")).rows >= 3);
    }

    // SQLite -> PostgreSQL -> SQLite: the same rows everywhere, the same verified ledger head.
    void copiesToPostgresAndBack() {
        const QString pg = m_pg.spec(QStringLiteral("copy"));
        QVERIFY2(!pg.isEmpty(), qPrintable(m_pg.error()));
        const QString back = sqliteFile(QStringLiteral("back.sqlite"));
        const Run there =
            proofbench({QStringLiteral("db"), QStringLiteral("copy"), QStringLiteral("--from"), m_source,
                        QStringLiteral("--to"), pg, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(there.code == 0, there.err.constData());
        const Run home =
            proofbench({QStringLiteral("db"), QStringLiteral("copy"), QStringLiteral("--from"), pg,
                        QStringLiteral("--to"), back, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(home.code == 0, home.err.constData());
        const QJsonObject a = jsonOf(there.out), b = jsonOf(home.out);

        // The copy's own proof: every table, the same on both legs.
        const Content proofA = proofOf(a), proofB = proofOf(b);
        QCOMPARE(proofA.size(), m_sourceContent.size());
        QVERIFY2(proofA == proofB,
                 qPrintable(describe(proofA) + QStringLiteral("\n--\n") + describe(proofB)));
        QCOMPARE(a.value(QStringLiteral("rows")).toInteger(), rowsIn(m_sourceContent));
        QCOMPARE(b.value(QStringLiteral("rows")).toInteger(), rowsIn(m_sourceContent));
        for (const auto& [table, t] : m_sourceContent)
            QCOMPARE(proofA.at(table).rows, t.rows);

        // This test's own reading of the three databases.
        QString error;
        const Content onServer = contentOf(pg, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const Content onFile = contentOf(back, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(onServer == m_sourceContent,
                 qPrintable(describe(m_sourceContent) + QStringLiteral("\n-- on the server:\n") +
                            describe(onServer)));
        QVERIFY2(onFile == m_sourceContent,
                 qPrintable(describe(m_sourceContent) + QStringLiteral("\n-- back in SQLite:\n") +
                            describe(onFile)));

        // The ledger: intact on all three, one head.
        const QString head = a.value(QStringLiteral("ledgerHead")).toString();
        QCOMPARE(head.size(), 64);
        QCOMPARE(b.value(QStringLiteral("ledgerHead")).toString(), head);
        QCOMPARE(a.value(QStringLiteral("receipts")).toInteger(),
                 m_sourceContent.at(QStringLiteral("receipts")).rows);
        for (const QString& spec : {m_source, pg, back}) {
            const Run verified =
                proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"),
                            spec, QStringLiteral("--format"), QStringLiteral("json")});
            QVERIFY2(verified.code == 0, verified.all().constData());
            const QJsonObject v = jsonOf(verified.out);
            QVERIFY(v.value(QStringLiteral("intact")).toBool());
            QCOMPARE(v.value(QStringLiteral("head")).toObject().value(QStringLiteral("hash")).toString(),
                     head);
            QCOMPARE(v.value(QStringLiteral("receipts")).toInteger(),
                     m_sourceContent.at(QStringLiteral("receipts")).rows);
        }

        // The copy on the server is a working store: new rows take ids after the copied ones, and the
        // ledger goes on from the copied head.
        const Run more =
            proofbench({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--db"), pg,
                        QStringLiteral("--version"), QStringLiteral("after-copy"),
                        pbtest::embeddedCatalogDir(QStringLiteral("sample-2"))});
        QVERIFY2(more.code == 0, more.all().constData());
        const Run key = proofbench({QStringLiteral("keygen"), QStringLiteral("--db"), pg,
                                    QStringLiteral("--out"), m_tmp.filePath(QStringLiteral("second.key")),
                                    QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS")});
        QVERIFY2(key.code == 0, key.all().constData());
        const Run after =
            proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"), pg,
                        QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(after.code == 0, after.all().constData());
        QCOMPARE(jsonOf(after.out).value(QStringLiteral("receipts")).toInteger(),
                 m_sourceContent.at(QStringLiteral("receipts")).rows + 2);
    }

    // A target that holds rows is refused, and nothing is written into it.
    void nonEmptyTargetIsRefused() {
        const QString pg = m_pg.spec(QStringLiteral("busy"));
        QVERIFY2(!pg.isEmpty(), qPrintable(m_pg.error()));
        // First use seeds the sample catalogs and their receipts.
        const Run seeded =
            proofbench({QStringLiteral("catalog"), QStringLiteral("list"), QStringLiteral("--db"), pg});
        QVERIFY2(seeded.code == 0, seeded.err.constData());
        QString error;
        const Content before = contentOf(pg, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(before.at(QStringLiteral("receipts")).rows > 0);
        const Run refused = proofbench({QStringLiteral("db"), QStringLiteral("copy"),
                                        QStringLiteral("--from"), m_source, QStringLiteral("--to"), pg});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains("not empty"), refused.err.constData());
        QVERIFY2(!refused.all().contains(m_password.toUtf8()), refused.all().constData());
        QVERIFY(contentOf(pg, &error) == before);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        // The same into a SQLite file that holds rows (the other direction).
        const QString file = sqliteFile(QStringLiteral("busy.sqlite"));
        QCOMPARE(proofbench({QStringLiteral("catalog"), QStringLiteral("list"), QStringLiteral("--db"), file})
                     .code,
                 0);
        const Content fileBefore = contentOf(file, &error);
        const Run refusedFile = proofbench({QStringLiteral("db"), QStringLiteral("copy"),
                                            QStringLiteral("--from"), pg, QStringLiteral("--to"), file});
        QCOMPARE(refusedFile.code, 1);
        QVERIFY2(refusedFile.err.contains("not empty"), refusedFile.err.constData());
        QVERIFY(contentOf(file, &error) == fileBefore);
    }

    // A target whose schema is not the source's is refused before any row moves, saying what differs.
    void targetWithAnotherSchemaIsRefused() {
        const QString pg = m_pg.spec(QStringLiteral("other-schema"));
        QVERIFY2(!pg.isEmpty(), qPrintable(m_pg.error()));
        {
            auto db = db::Database::open(pg);
            QVERIFY2(db, qPrintable(db ? QString() : db.error().toString()));
            QSqlQuery q((*db)->sql());
            QVERIFY2(q.exec(QStringLiteral("ALTER TABLE catalog_versions ADD COLUMN reviewer text")),
                     qPrintable(q.lastError().text()));
        }
        QString error;
        const Content before = contentOf(pg, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const Run refused = proofbench({QStringLiteral("db"), QStringLiteral("copy"),
                                        QStringLiteral("--from"), m_source, QStringLiteral("--to"), pg});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains("schemas differ") && refused.err.contains("reviewer"),
                 refused.err.constData());
        QVERIFY(contentOf(pg, &error) == before);
        QCOMPARE(before.at(QStringLiteral("receipts")).rows, 0);
    }

    // db status names the engine, the schema version and, on the server, the user and a verified TLS
    // connection; no password anywhere.
    void statusOnBothEngines() {
        const Run file = proofbench({QStringLiteral("db"), QStringLiteral("status"), QStringLiteral("--db"),
                                     m_source, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(file.code == 0, file.err.constData());
        const QJsonObject f = jsonOf(file.out);
        QCOMPARE(f.value(QStringLiteral("engine")).toString(), QStringLiteral("SQLite"));
        QCOMPARE(f.value(QStringLiteral("schemaVersion")).toInt(), db::Database::latestSchemaVersion());
        QCOMPARE(f.value(QStringLiteral("tls")).toObject().value(QStringLiteral("inUse")).toBool(), false);
        QVERIFY(f.value(QStringLiteral("sizeBytes")).toInteger() > 0);

        const QString pg = m_pg.spec(QStringLiteral("status"));
        QVERIFY2(!pg.isEmpty(), qPrintable(m_pg.error()));
        const Run server = proofbench({QStringLiteral("db"), QStringLiteral("status"), QStringLiteral("--db"),
                                       pg, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(server.code == 0, server.err.constData());
        const QJsonObject s = jsonOf(server.out);
        QCOMPARE(s.value(QStringLiteral("engine")).toString(), QStringLiteral("PostgreSQL"));
        QVERIFY2(s.value(QStringLiteral("serverVersion")).toString().startsWith(QStringLiteral("15")),
                 server.out.constData());
        QCOMPARE(s.value(QStringLiteral("schemaVersion")).toInt(),
                 db::Database::latestSchemaVersion(db::Engine::PostgreSQL));
        QCOMPARE(s.value(QStringLiteral("latestSchemaVersion")).toInt(),
                 db::Database::latestSchemaVersion(db::Engine::PostgreSQL));
        QCOMPARE(s.value(QStringLiteral("user")).toString(), QStringLiteral("pbtest"));
        const QJsonObject tls = s.value(QStringLiteral("tls")).toObject();
        QVERIFY(tls.value(QStringLiteral("inUse")).toBool());
        QVERIFY(tls.value(QStringLiteral("certificateVerified")).toBool());
        QVERIFY(tls.value(QStringLiteral("hostVerified")).toBool());
        QVERIFY(tls.value(QStringLiteral("protocol")).toString().startsWith(QStringLiteral("TLS")));
        QVERIFY2(s.value(QStringLiteral("database")).toString().contains(QStringLiteral("pbtest@127.0.0.1")),
                 server.out.constData());

        const Run text =
            proofbench({QStringLiteral("db"), QStringLiteral("status"), QStringLiteral("--db"), pg});
        QVERIFY2(text.code == 0, text.err.constData());
        QVERIFY2(text.out.contains("engine:    PostgreSQL 15"), text.out.constData());
        QVERIFY2(text.out.contains("user:      pbtest\n"), text.out.constData());
        QVERIFY2(text.out.contains("certificate and host name verified"), text.out.constData());
        for (const Run* r : {&file, &server, &text})
            QVERIFY2(!r->all().contains(m_password.toUtf8()), r->all().constData());
    }

    // A wrong password, from a pgpass file or PGPASSWORD: exit 1, the server named, neither the
    // wrong nor the right password in the message.
    void wrongPasswordNamesTheServerNotThePassword() {
        const QString pg = m_pg.spec(QStringLiteral("password"));
        QVERIFY2(!pg.isEmpty(), qPrintable(m_pg.error()));
        const QString wrong = QStringLiteral("not-the-pbtest-password-4711");
        const QString pgpass = m_tmp.filePath(QStringLiteral("wrong.pgpass"));
        {
            QFile f(pgpass);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("*:*:*:pbtest:%1\n").arg(wrong).toUtf8());
            f.close();
            QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)); // libpq skips others
        }
        QProcessEnvironment viaFile;
        viaFile.insert(QStringLiteral("PGPASSFILE"), pgpass);
        QProcessEnvironment viaEnv;
        viaEnv.insert(QStringLiteral("PGPASSWORD"), wrong);
        const QString port = QString::number(QUrl(pg).port());
        for (const QProcessEnvironment* env : {&viaFile, &viaEnv}) {
            const Run r = proofbench(
                {QStringLiteral("db"), QStringLiteral("status"), QStringLiteral("--db"), pg}, *env);
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.contains("127.0.0.1") && r.err.contains(port.toUtf8()), r.err.constData());
            QVERIFY2(r.err.contains("password"), r.err.constData());
            QVERIFY2(!r.all().contains(wrong.toUtf8()), r.all().constData());
            QVERIFY2(!r.all().contains(m_password.toUtf8()), r.all().constData());
        }
    }

    // Nobody listening on the port: exit 1 and a message that names the server and says it could not
    // be reached.
    void serverDownIsAClearError() {
        const QString pg = m_pg.spec(QStringLiteral("down"));
        QVERIFY2(!pg.isEmpty(), qPrintable(m_pg.error()));
        const int port = freePort();
        QVERIFY(port > 0);
        const Run r = proofbench(
            {QStringLiteral("db"), QStringLiteral("status"), QStringLiteral("--db"), withPort(pg, port)});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("127.0.0.1:%1").arg(port).toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("connect") || r.err.contains("refused"), r.err.constData());
        QVERIFY2(!r.all().contains(m_password.toUtf8()), r.all().constData());
    }

    // A server certificate that the given CA did not sign: exit 1, the certificate named as the
    // reason, no connection made.
    void unverifiedCertificateIsAClearError() {
        const QString pg = m_pg.spec(QStringLiteral("cert"));
        QVERIFY2(!pg.isEmpty(), qPrintable(m_pg.error()));
        const QString key = m_tmp.filePath(QStringLiteral("other-ca.key"));
        const QString ca = m_tmp.filePath(QStringLiteral("other-ca.crt"));
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                       QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-keyout"), key,
                       QStringLiteral("-out"), ca, QStringLiteral("-days"), QStringLiteral("1"),
                       QStringLiteral("-subj"), QStringLiteral("/CN=Some other CA")});
        QVERIFY2(openssl.waitForFinished(60000) && openssl.exitCode() == 0,
                 openssl.readAllStandardError().constData());
        const Run r = proofbench({QStringLiteral("db"), QStringLiteral("status"), QStringLiteral("--db"),
                                  withParameter(pg, QStringLiteral("sslrootcert"), ca)});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("127.0.0.1"), r.err.constData());
        QVERIFY2(r.err.contains("certificate"), r.err.constData());
        QVERIFY2(!r.all().contains(m_password.toUtf8()), r.all().constData());
    }
};

QTEST_GUILESS_MAIN(TestDbCopy)
#include "tst_dbcopy.moc"
