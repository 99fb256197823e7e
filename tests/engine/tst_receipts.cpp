// The receipts ledger: the canonical form and hash, receipts left by every action (through the real
// `proofbench` binary), tamper detection on a real database edited behind Proofbench's back (a SQLite
// file with the sqlite3 tool, a PostgreSQL database over its own connection), and the exported,
// signed chain head verified by `proofbench verify --key`.
#include "BundleFixture.h"
#include "CatalogFixture.h"
#include "DbTestUtil.h"
#include "SigstoreCases.h"
#include "TestUtil.h"
#include "catalog/Loader.h"
#include "core/Hash.h"
#include "db/Database.h"
#include "ops/ImportCatalog.h"
#include "receipts/Canonical.h"
#include "receipts/Ledger.h"
#include "store/CatalogStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace pb;
using namespace pb::receipts;

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run runProcess(const QString& program, const QStringList& args,
               const QProcessEnvironment& env = pbtest::cliEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(120000))
        return {};
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
               p.readAllStandardError()};
}

Run proofbench(const QStringList& args, const QProcessEnvironment& env = pbtest::cliEnvironment()) {
    return runProcess(QStringLiteral(PB_CLI_BINARY), args, env);
}

QDateTime fixedTime(int n) {
    return QDateTime(QDate(2026, 11, 30), QTime(12, 0, 0, n), QTimeZone::utc());
}

// A ledger of seven receipts written in this process; the database is closed (a SQLite file
// checkpointed) on return.
void writeLedger(const QString& path) {
    auto db = db::Database::open(path);
    QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
    // As the CLI does for a new database: the embedded catalog first (two catalog.import receipts,
    // #1 and #2); the five receipts below are #3..#7.
    QVERIFY(ops::seedEmbeddedCatalog(**db).ok());
    Ledger ledger(**db);
    int tick = 0;
    ledger.setClock([&] { return fixedTime(++tick); });
    // Each with a parameter its kind declares (receipts/Kinds.h).
    const std::pair<const char*, const char*> kinds[] = {{"catalog.import", "version"},
                                                         {"evidence.import", "pointers"},
                                                         {"evidence.check", "pointer"},
                                                         {"verify", "policy"},
                                                         {"sign.blob", "keyFingerprint"}};
    for (const auto& [k, key] : kinds) {
        ReceiptDraft d;
        d.kind = QLatin1String(k);
        d.parameters = QJsonObject{{QLatin1String(key), tick}};
        d.inputs.push_back(Artifact::bytes(QStringLiteral("in-%1").arg(tick), QByteArray::number(tick)));
        auto rec = ledger.record(d);
        QVERIFY2(rec.ok(), rec.ok() ? "" : qPrintable(rec.error().toString()));
    }
}

// The CLI's environment with a key passphrase in PB_TEST_PASS.
QProcessEnvironment withPassphrase(const QString& passphrase) {
    QProcessEnvironment env = pbtest::cliEnvironment();
    env.insert(QStringLiteral("PB_TEST_PASS"), passphrase);
    return env;
}

// `keygen` of an encrypted key at `key` (and key.pub), recorded in `db`; the exit code.
int keygen(const QString& db, const QString& key, const QProcessEnvironment& env) {
    return proofbench({QStringLiteral("keygen"), QStringLiteral("--db"), db, QStringLiteral("--out"), key,
                       QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS")},
                      env)
        .code;
}

// `receipts checkpoint` of `db` signed with `key`, written to `out`.
Run checkpointTo(const QString& db, const QString& key, const QString& out, const QProcessEnvironment& env) {
    return proofbench({QStringLiteral("receipts"), QStringLiteral("checkpoint"), QStringLiteral("--db"), db,
                       QStringLiteral("--key"), key, QStringLiteral("--passphrase-env"),
                       QStringLiteral("PB_TEST_PASS"), QStringLiteral("--out"), out},
                      env);
}

bool haveSqlite3() {
    return !QStandardPaths::findExecutable(QStringLiteral("sqlite3")).isEmpty();
}

// Runs SQL against the ledger outside Proofbench, as an attacker who can write the database would:
// the SQLite file with its append-only triggers dropped first, PostgreSQL as the server's superuser
// with triggers off.
void editOutside(const QString& db, const QString& sql) {
    if (pb::test::onPostgres()) {
        pbtest::RawConnection editor(pb::test::pgSpecAs(db, pb::test::pgSuperuser()));
        QSqlQuery q(editor.sql());
        QVERIFY(q.exec(QStringLiteral("SET search_path TO proofbench")));
        QVERIFY2(q.exec(QStringLiteral("SET session_replication_role = replica")),
                 qPrintable(q.lastError().text()));
        for (const QString& statement : sql.split(QLatin1Char(';'), Qt::SkipEmptyParts))
            if (!statement.trimmed().isEmpty())
                QVERIFY2(q.exec(statement), qPrintable(q.lastError().text()));
        return;
    }
    Run edit =
        runProcess(QStringLiteral("sqlite3"),
                   {db, QStringLiteral("DROP TRIGGER IF EXISTS receipts_no_update; DROP TRIGGER IF EXISTS "
                                       "receipts_no_delete; ") +
                            sql});
    QVERIFY2(edit.code == 0, edit.err.constData());
}

// Appends `n` receipts through the ledger (a chain that recomputes: every hash is right).
void appendReceipts(const QString& path, int n, const QString& message) {
    auto db = db::Database::open(path);
    QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
    Ledger ledger(**db);
    for (int i = 0; i < n; ++i) {
        ReceiptDraft d;
        d.kind = QStringLiteral("verify");
        d.parameters = QJsonObject{{QStringLiteral("policy"), i}};
        d.message = message;
        QVERIFY(ledger.record(d).ok());
    }
}

} // namespace

class TestReceipts : public QObject {
    Q_OBJECT

  private slots:
    void canonicalFormIsSortedCompactUtf8() {
        const QJsonObject o{{QStringLiteral("b"), 1},
                            {QStringLiteral("a"),
                             QJsonObject{{QStringLiteral("z"), QJsonValue()}, {QStringLiteral("y"), true}}},
                            {QStringLiteral("c"), QJsonArray{QStringLiteral("é\"\n\x01"), 2.5, -3}}};
        QCOMPARE(
            canonicalJson(o),
            QByteArray("{\"a\":{\"y\":true,\"z\":null},\"b\":1,\"c\":[\"\xc3\xa9\\\"\\n\\u0001\",2.5,-3]}"));
    }

    void receiptHashIsSha256OfPrevAndCanonical() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("l.sqlite"));
        auto db = db::Database::open(testDb.spec());
        QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
        Ledger ledger(**db);
        ledger.setClock([] { return fixedTime(7); });
        ledger.setVersion(QStringLiteral("9.9.9"));
        ReceiptDraft d;
        // A secret named at the top level is never recorded: the ledger refuses a parameter the
        // kind does not declare (and would drop it by its name if it were declared).
        d.kind = QStringLiteral("report.export");
        d.parameters = QJsonObject{{QStringLiteral("format"), QStringLiteral("abc")},
                                   {QStringLiteral("passphrase"), QStringLiteral("hunter2")}};
        auto refused = ledger.record(d);
        QVERIFY(!refused.ok() || !refused->parameters.contains(QStringLiteral("passphrase")));
        QVERIFY(!refused.ok());
        // Secrets nested in a declared parameter are dropped by their names.
        d.parameters = QJsonObject{{QStringLiteral("format"), QStringLiteral("abc")},
                                   {QStringLiteral("filter"),
                                    QJsonObject{{QStringLiteral("apiToken"), QStringLiteral("t0k")},
                                                {QStringLiteral("privateKey"), QStringLiteral("-----BEGIN")},
                                                {QStringLiteral("ok"), 1}}}};
        d.inputs.push_back(Artifact::bytes(QStringLiteral("blob.txt"), "blob\n"));
        auto first = ledger.record(d);
        QVERIFY2(first.ok(), first.ok() ? "" : qPrintable(first.error().toString()));
        QCOMPARE(first->seq, 1);
        QCOMPARE(first->prevHash, genesisHash());
        const QJsonObject onlyOk{{QStringLiteral("ok"), 1}};
        QCOMPARE(first->parameters.value(QStringLiteral("filter")).toObject(), onlyOk);
        // On a server the receipt names its writer (the session's user, as the server checks it);
        // a SQLite file has none and leaves the member out.
        const QByteArray author =
            pb::test::onPostgres() ? "\"author\":\"" + (*db)->sessionUser().toUtf8() + "\"," : QByteArray();
        QVERIFY(!pb::test::onPostgres() || (*db)->sessionUser() == QLatin1String("pbtest"));
        const QByteArray expected = "{" + author + "\"inputs\":[{\"name\":\"blob.txt\",\"sha256\":\"" +
                                    sha256Hex("blob\n").toLatin1() +
                                    "\",\"size\":5}],\"kind\":\"report.export\",\"outputs\":[],"
                                    "\"parameters\":{\"filter\":{\"ok\":1},\"format\":\"abc\"},"
                                    "\"prev\":\"" +
                                    genesisHash().toLatin1() +
                                    "\",\"result\":{\"message\":\"\",\"status\":\"ok\"},\"seq\":1,"
                                    "\"time\":\"2026-11-30T12:00:00.007Z\",\"version\":\"9.9.9\"}";
        QCOMPARE(first->canonical(), expected);
        QCOMPARE(first->hash, sha256Hex(genesisHash().toLatin1() + expected));
        auto second = ledger.record(d);
        QVERIFY(second.ok());
        QCOMPARE(second->prevHash, first->hash);
        // Read back from the database, the receipt recomputes to its stored hash.
        auto stored = ledger.receipt(2);
        QVERIFY(stored.ok());
        QCOMPARE(stored->computeHash(), second->hash);
        QCOMPARE(stored->time, fixedTime(7));
        auto check = ledger.verify();
        QVERIFY(check.ok());
        QVERIFY2(check->ok, qPrintable(check->toText()));
        QCOMPARE(check->head.seq, 2);
        QCOMPARE(check->head.hash, second->hash);
        // Nothing secret anywhere in the database: every byte of the SQLite file, every row on PostgreSQL.
        QByteArray bytes;
        if (pbtest::isPostgres(**db)) {
            bytes = pbtest::allRowBytes(**db);
            QVERIFY(bytes.contains("report.export"));
        } else {
            db->reset();
            QFile f(testDb.spec());
            QVERIFY(f.open(QIODevice::ReadOnly));
            bytes = f.readAll();
        }
        QVERIFY(!bytes.contains("hunter2"));
        QVERIFY(!bytes.contains("t0k"));
    }

    void storeImportWritesItsReceiptInTheSameTransaction() {
        // The catalog import operation: the data and its receipt in one transaction.
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("s.sqlite"));
        auto db = db::Database::open(testDb.spec());
        QVERIFY2(db.ok(), db.ok() ? "" : qPrintable(db.error().toString()));
        ops::Context ctx(**db);
        pbtest::CatalogFixture f;
        const QString dir = f.write();
        auto cat = catalog::loadCatalog(dir);
        QVERIFY(cat.ok());
        auto importVersion = [&](const QString& label, const QString& from, const catalog::Catalog& c) {
            ops::ImportCatalogRequest r;
            r.label = label;
            r.dir = from;
            r.loaded = c;
            return ops::importCatalog(ctx, r);
        };
        QVERIFY(importVersion(QStringLiteral("v1"), dir, *cat).ok());
        QVERIFY(importVersion(QStringLiteral("v1"), dir, *cat)
                    .ok()); // unchanged: no data written, the attempt receipted
        // Other content under the same label without --replace: refused, and receipted as failed.
        pbtest::CatalogFixture other;
        other.overlay(QStringLiteral("gke"), "spec:\n  criteria: {service: gke}\n  base: base\n");
        const QString otherDir = other.write();
        auto cat2 = catalog::loadCatalog(otherDir);
        QVERIFY(cat2.ok());
        QVERIFY(!importVersion(QStringLiteral("v1"), otherDir, *cat2).ok());
        auto rows = Ledger(**db).list();
        QVERIFY(rows.ok());
        QCOMPARE(rows->size(), size_t(3));
        for (const Receipt& r : *rows)
            QCOMPARE(r.kind, QStringLiteral("catalog.import"));
        QCOMPARE(rows->at(0).result, Outcome::Ok);
        QCOMPARE(rows->at(2).result, Outcome::Failed);
        QString content = cat->contentDigest();
        if (content.startsWith(QLatin1String("sha256:")))
            content = content.mid(7);
        QCOMPARE(rows->at(0).inputs.at(0).sha256, content);
        store::CatalogStore store(**db);
        QCOMPARE(store.version(QStringLiteral("v1"))->contentDigest, cat->contentDigest());
        // A receipt that cannot be written fails the import: no data without its receipt.
        const QString refused = pbtest::refuseInserts(**db, QStringLiteral("no_receipts"),
                                                      QStringLiteral("receipts"), QStringLiteral("refused"));
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
        QVERIFY(!importVersion(QStringLiteral("v3"), otherDir, *cat2).ok());
        QVERIFY(!store.version(QStringLiteral("v3")).ok());
    }

    void cliActionsLeaveReceipts() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.sqlite"));
        const QString db = testDb.spec();
        QProcessEnvironment env = pbtest::cliEnvironment();
        env.insert(QStringLiteral("PB_TEST_PASS"), QStringLiteral("rcpt-s3cret-phrase"));
        const QStringList dbArg{QStringLiteral("--db"), db};
        const QStringList passArg{QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS")};
        auto must = [&](const QStringList& args) {
            Run r = proofbench(args + dbArg, env);
            if (r.code != 0)
                qWarning() << args << r.out << r.err;
            return r.code;
        };
        pbtest::CatalogFixture f;
        QCOMPARE(must({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--version"),
                       QStringLiteral("t1"), f.write()}),
                 0);
        QCOMPARE(must({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--version"),
                       QStringLiteral("t1"), f.write()}),
                 0);
        pbtest::CatalogFixture g;
        g.overlay(QStringLiteral("gke"), "spec:\n  criteria: {service: gke}\n  base: base\n");
        QCOMPARE(proofbench({QStringLiteral("catalog"), QStringLiteral("import"), QStringLiteral("--version"),
                             QStringLiteral("t1"), g.write(), QStringLiteral("--db"), db})
                     .code,
                 1);
        QCOMPARE(must({QStringLiteral("recipe"), QStringLiteral("--version"), QStringLiteral("t1")}), 0);
        const QString key = tmp.filePath(QStringLiteral("k.key"));
        QCOMPARE(must(QStringList{QStringLiteral("keygen"), QStringLiteral("--out"), key} + passArg), 0);
        pbtest::writeBytes(tmp.filePath(QStringLiteral("blob.txt")), "blob\n");
        const QString blobBundle = tmp.filePath(QStringLiteral("blob.sigstore.json"));
        QCOMPARE(must(QStringList{QStringLiteral("sign-blob"), QStringLiteral("--key"), key,
                                  QStringLiteral("--bundle"), blobBundle,
                                  tmp.filePath(QStringLiteral("blob.txt"))} +
                      passArg),
                 0);
        QCOMPARE(must({QStringLiteral("verify"), QStringLiteral("--record"), QStringLiteral("--bundle"),
                       blobBundle, QStringLiteral("--key"), key + QStringLiteral(".pub"),
                       QStringLiteral("--insecure-ignore-tlog"), tmp.filePath(QStringLiteral("blob.txt"))}),
                 0);
        // verify --batch over a one-case manifest: the blob's bundle in key mode with no trusted
        // root for the case, so FAIL is the expected verdict (and the run as a whole is as expected).
        const QString batch = tmp.filePath(QStringLiteral("batch"));
        QVERIFY(QDir().mkpath(batch + QStringLiteral("/cases/c1")));
        QVERIFY(QFile::copy(key + QStringLiteral(".pub"), batch + QStringLiteral("/cases/c1/key.pub")));
        QVERIFY(QFile::copy(blobBundle, batch + QStringLiteral("/cases/c1/bundle.sigstore.json")));
        QVERIFY(QFile::copy(tmp.filePath(QStringLiteral("blob.txt")),
                            batch + QStringLiteral("/cases/c1/artifact")));
        const QByteArray manifest =
            "name\texpected\tmode\tidentity\tissuer\tnote\tartifact_digest\nc1\tFAIL\tkey\t\t\t\t\n";
        pbtest::writeBytes(batch + QStringLiteral("/manifest.tsv"), manifest);
        QCOMPARE(must({QStringLiteral("verify"), QStringLiteral("--batch"),
                       batch + QStringLiteral("/manifest.tsv")}),
                 0);
        pbtest::BundleFixture bf;
        const QString bundleDir = bf.writeDirectory(tmp.filePath(QStringLiteral("ev")));
        const QString tree = tmp.filePath(QStringLiteral("tree"));
        QCOMPARE(must(QStringList{QStringLiteral("evidence"), QStringLiteral("sign"), QStringLiteral("--key"),
                                  key, QStringLiteral("--evidence-root"), tree, bundleDir} +
                      passArg),
                 0);
        QCOMPARE(must({QStringLiteral("evidence"), QStringLiteral("check"), QStringLiteral("--key"),
                       key + QStringLiteral(".pub"), QStringLiteral("--insecure-ignore-tlog"), bundleDir}),
                 0);
        QCOMPARE(must({QStringLiteral("evidence"), QStringLiteral("import"), tree}), 0);
        const QString deployDir = tmp.filePath(QStringLiteral("deploy"));
        pbtest::writeBytes(deployDir + QStringLiteral("/recipe.yaml"), "kind: RecipeResult\n");
        QCOMPARE(must(QStringList{QStringLiteral("bundle"), QStringLiteral("sign"), QStringLiteral("--key"),
                                  key, deployDir} +
                      passArg),
                 0);
        QCOMPARE(must({QStringLiteral("bundle"), QStringLiteral("verify"), QStringLiteral("--key"),
                       key + QStringLiteral(".pub"), QStringLiteral("--insecure-ignore-tlog"), deployDir}),
                 0);
        const QString nccl = pbtest::fixture(QStringLiteral("validation/nccl-pass.txt"));
        Run perf =
            proofbench({QStringLiteral("perf"), QStringLiteral("import"), nccl, QStringLiteral("--kind"),
                        QStringLiteral("nccl"), QStringLiteral("--version"), QStringLiteral("sample-2"),
                        QStringLiteral("--service"), QStringLiteral("eks"), QStringLiteral("--accelerator"),
                        QStringLiteral("h100"), QStringLiteral("--os"), QStringLiteral("ubuntu"),
                        QStringLiteral("--intent"), QStringLiteral("training"), QStringLiteral("--platform"),
                        QStringLiteral("kubeflow"), QStringLiteral("--db"), db});
        QVERIFY2(perf.code == 0 || perf.code == 1,
                 perf.err.constData()); // scored either way; stored and receipted

        Run list = proofbench({QStringLiteral("receipts"), QStringLiteral("list"), QStringLiteral("--format"),
                               QStringLiteral("json"), QStringLiteral("--db"), db});
        QCOMPARE(list.code, 0);
        const QJsonArray receipts =
            QJsonDocument::fromJson(list.out).object().value(QStringLiteral("receipts")).toArray();
        QStringList kinds;
        for (const QJsonValue& v : receipts)
            kinds << v.toObject().value(QStringLiteral("kind")).toString();
        for (const char* k : {"catalog.import", "recipe.export", "key.generate", "sign.blob", "verify",
                              "verify.batch", "sign.evidence", "evidence.check", "evidence.import",
                              "sign.bundle", "bundle.verify", "validation.import"})
            QVERIFY2(
                kinds.contains(QLatin1String(k)),
                qPrintable(QStringLiteral("no %1 receipt in %2").arg(QLatin1String(k), kinds.join(u','))));
        // The sign-blob receipt names the blob by its digest and size.
        const int signSeq = int(kinds.indexOf(QStringLiteral("sign.blob"))) + 1;
        Run show =
            proofbench({QStringLiteral("receipts"), QStringLiteral("show"), QString::number(signSeq),
                        QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--db"), db});
        QCOMPARE(show.code, 0);
        const QJsonObject signReceipt = QJsonDocument::fromJson(show.out).object();
        const QJsonObject input = signReceipt.value(QStringLiteral("inputs")).toArray().first().toObject();
        QCOMPARE(input.value(QStringLiteral("sha256")).toString(), sha256Hex("blob\n"));
        QCOMPARE(input.value(QStringLiteral("size")).toInt(), 5);
        QCOMPARE(signReceipt.value(QStringLiteral("outputs"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("sha256"))
                     .toString(),
                 sha256Hex(pbtest::readAll(blobBundle)));
        // keygen names the public key it wrote and its fingerprint; verify --batch its manifest and counts.
        const QJsonObject keyReceipt = receipts.at(kinds.indexOf(QStringLiteral("key.generate"))).toObject();
        QCOMPARE(keyReceipt.value(QStringLiteral("outputs"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("sha256"))
                     .toString(),
                 sha256Hex(pbtest::readAll(key + QStringLiteral(".pub"))));
        QVERIFY(keyReceipt.value(QStringLiteral("parameters"))
                    .toObject()
                    .value(QStringLiteral("fingerprint"))
                    .toString()
                    .size() > 16);
        const QJsonObject batchReceipt =
            receipts.at(kinds.indexOf(QStringLiteral("verify.batch"))).toObject();
        QCOMPARE(batchReceipt.value(QStringLiteral("inputs"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("sha256"))
                     .toString(),
                 sha256Hex(manifest));
        QCOMPARE(batchReceipt.value(QStringLiteral("parameters"))
                     .toObject()
                     .value(QStringLiteral("cases"))
                     .toInt(),
                 1);
        QCOMPARE(batchReceipt.value(QStringLiteral("parameters"))
                     .toObject()
                     .value(QStringLiteral("asExpected"))
                     .toInt(),
                 1);
        QCOMPARE(batchReceipt.value(QStringLiteral("result"))
                     .toObject()
                     .value(QStringLiteral("status"))
                     .toString(),
                 QStringLiteral("ok"));
        // The perf import names the log it parsed.
        const QJsonObject perfReceipt =
            receipts.at(kinds.indexOf(QStringLiteral("validation.import"))).toObject();
        QCOMPARE(perfReceipt.value(QStringLiteral("inputs"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("sha256"))
                     .toString(),
                 sha256Hex(pbtest::readAll(nccl)));
        Run text = proofbench({QStringLiteral("receipts"), QStringLiteral("show"), QString::number(signSeq),
                               QStringLiteral("--db"), db});
        QVERIFY(text.out.contains("sign.blob"));
        QVERIFY(text.out.contains(sha256Hex("blob\n").toLatin1()));
        // The passphrase is in no receipt, output or database byte (every row on PostgreSQL).
        QVERIFY(!list.out.contains("rcpt-s3cret-phrase"));
        if (pb::test::onPostgres()) {
            auto handle = db::Database::open(db);
            QVERIFY(handle.ok());
            const QByteArray rows = pbtest::allRowBytes(**handle);
            QVERIFY(rows.contains("sign.blob"));
            QVERIFY(!rows.contains("rcpt-s3cret-phrase"));
        } else {
            QVERIFY(!pbtest::readAll(db).contains("rcpt-s3cret-phrase"));
            if (QFileInfo::exists(db + QStringLiteral("-wal")))
                QVERIFY(!pbtest::readAll(db + QStringLiteral("-wal")).contains("rcpt-s3cret-phrase"));
        }
        Run verify =
            proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"), db});
        QVERIFY2(verify.code == 0, verify.out.constData());
        QVERIFY(verify.out.contains("intact"));
        // The unchanged and the refused catalog imports are on record too.
        Run imports =
            proofbench({QStringLiteral("receipts"), QStringLiteral("list"), QStringLiteral("--kind"),
                        QStringLiteral("catalog.import"), QStringLiteral("--format"), QStringLiteral("json"),
                        QStringLiteral("--db"), db});
        const QJsonArray catalogReceipts =
            QJsonDocument::fromJson(imports.out).object().value(QStringLiteral("receipts")).toArray();
        QVERIFY(catalogReceipts.size() >= 3);
        QCOMPARE(catalogReceipts.last()
                     .toObject()
                     .value(QStringLiteral("result"))
                     .toObject()
                     .value(QStringLiteral("status"))
                     .toString(),
                 QStringLiteral("failed"));
        Run failedOnly =
            proofbench({QStringLiteral("receipts"), QStringLiteral("list"), QStringLiteral("--result"),
                        QStringLiteral("failed"), QStringLiteral("--db"), db});
        QVERIFY(failedOnly.out.contains("already exists"));
        // Filters.
        Run evidenceOnly =
            proofbench({QStringLiteral("receipts"), QStringLiteral("list"), QStringLiteral("--kind"),
                        QStringLiteral("evidence."), QStringLiteral("--format"), QStringLiteral("json"),
                        QStringLiteral("--db"), db});
        QCOMPARE(QJsonDocument::fromJson(evidenceOnly.out)
                     .object()
                     .value(QStringLiteral("receipts"))
                     .toArray()
                     .size(),
                 2);
    }

    void tamperingIsDetectedAndNamed_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("firstBad");
        QTest::addRow("edited") << QStringLiteral("UPDATE receipts SET message = 'all fine' WHERE seq = 3;")
                                << QStringLiteral("edited") << 3;
        QTest::addRow("edited parameters")
            << QStringLiteral("UPDATE receipts SET parameters = '{\"n\":99}' WHERE seq = 2;")
            << QStringLiteral("edited") << 2;
        QTest::addRow("deleted") << QStringLiteral("DELETE FROM receipts WHERE seq = 2;")
                                 << QStringLiteral("deleted") << 3;
        QTest::addRow("deleted newest")
            << QStringLiteral("DELETE FROM receipts WHERE seq = 7;") << QStringLiteral("deleted") << 7;
        QTest::addRow("reordered")
            << QStringLiteral("UPDATE receipts SET seq = -seq WHERE seq IN (3, 4); "
                              "UPDATE receipts SET seq = CASE seq WHEN -3 THEN 4 ELSE 3 END WHERE seq < 0;")
            << QStringLiteral("reordered") << 3;
        QTest::addRow("inserted copy")
            << QStringLiteral(
                   "UPDATE receipts SET seq = seq + 100 WHERE seq >= 3; UPDATE receipts SET seq = seq - 99 "
                   "WHERE seq > 100; INSERT INTO receipts SELECT 3, kind, created_at, version, parameters, "
                   "inputs, outputs, result, message, prev_hash, hash, written_by FROM receipts WHERE seq = "
                   "1;")
            << QStringLiteral("inserted") << 3;
        QTest::addRow("inserted forged")
            << QStringLiteral(
                   "INSERT INTO receipts VALUES (8, 'verify', '2026-11-30T13:00:00.000Z', '0.1.0', '{}', "
                   "'[]', '[]', 'ok', '', (SELECT hash FROM receipts WHERE seq = 7), "
                   "'0000000000000000000000000000000000000000000000000000000000000001', '');")
            << QStringLiteral("inserted") << 8;
    }

    void tamperingIsDetectedAndNamed() {
        if (!pb::test::onPostgres() && !haveSqlite3())
            QSKIP("the sqlite3 command-line tool is not installed (apt package sqlite3; tools/bootstrap.sh "
                  "installs it)");
        QFETCH(QString, sql);
        QFETCH(QString, kind);
        QFETCH(int, firstBad);
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("ledger.sqlite"));
        const QString db = testDb.spec();
        writeLedger(db);
        Run intact =
            proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"), db});
        QVERIFY2(intact.code == 0, intact.out.constData());
        if (pb::test::onPostgres()) {
            // Edited over a connection of its own, a statement at a time, outside Proofbench, by the
            // server's superuser with triggers off: the append-only guard stops everybody else.
            const QString superuser = pb::test::pgSuperuser();
            QVERIFY2(!superuser.isEmpty(), "the test server records its superuser");
            pbtest::RawConnection editor(pb::test::pgSpecAs(db, superuser));
            QSqlQuery q(editor.sql());
            QVERIFY(q.exec(QStringLiteral("SET search_path TO proofbench")));
            QVERIFY2(q.exec(QStringLiteral("SET session_replication_role = replica")),
                     qPrintable(q.lastError().text()));
            for (const QString& statement : sql.split(QLatin1Char(';'), Qt::SkipEmptyParts))
                if (!statement.trimmed().isEmpty())
                    QVERIFY2(q.exec(statement), qPrintable(q.lastError().text()));
        } else {
            // Whoever can write the file can drop the append-only triggers first.
            Run edit = runProcess(QStringLiteral("sqlite3"),
                                  {db, QStringLiteral("DROP TRIGGER receipts_no_update; DROP TRIGGER "
                                                      "receipts_no_delete; ") +
                                           sql});
            QVERIFY2(edit.code == 0, edit.err.constData());
        }
        Run broken = proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"),
                                 db, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(broken.code, 1);
        const QJsonObject r = QJsonDocument::fromJson(broken.out).object();
        QCOMPARE(r.value(QStringLiteral("intact")).toBool(), false);
        QCOMPARE(r.value(QStringLiteral("break")).toString(), kind);
        QCOMPARE(r.value(QStringLiteral("firstBadSeq")).toInt(), firstBad);
        QVERIFY(broken.err.contains(QStringLiteral("#%1").arg(firstBad).toUtf8()));
        Run textual =
            proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"), db});
        QVERIFY(textual.out.contains(
            QStringLiteral("BROKEN at receipt #%1 (%2)").arg(firstBad).arg(kind).toUtf8()));
    }

    // Issue 28: the receipts table dropped outside Proofbench is a clear error, not "No query".
    void aDroppedLedgerIsNamed() {
        if (!pb::test::onPostgres() && !haveSqlite3())
            QSKIP("the sqlite3 command-line tool is not installed (apt package sqlite3; tools/bootstrap.sh "
                  "installs it)");
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("dropped.sqlite"));
        const QString db = testDb.spec();
        writeLedger(db);
        if (pb::test::onPostgres()) {
            pbtest::RawConnection editor(pb::test::pgSpecAs(db, pb::test::pgSuperuser()));
            QSqlQuery q(editor.sql());
            QVERIFY2(q.exec(QStringLiteral("DROP TABLE proofbench.receipts CASCADE")),
                     qPrintable(q.lastError().text()));
        } else {
            Run edit = runProcess(QStringLiteral("sqlite3"), {db, QStringLiteral("DROP TABLE receipts")});
            QVERIFY2(edit.code == 0, edit.err.constData());
        }
        for (const QString& verb : {QStringLiteral("verify"), QStringLiteral("list")}) {
            Run r = proofbench({QStringLiteral("receipts"), verb, QStringLiteral("--db"), db});
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.contains("receipts") && r.err.contains("is missing") &&
                         r.err.contains("restore it from a backup"),
                     r.err.constData());
            QVERIFY2(!r.err.contains("No query"), r.err.constData());
        }
    }

    void exportWithSignedHead() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("ledger.sqlite"));
        const QString db = testDb.spec();
        writeLedger(db);
        const QProcessEnvironment env = withPassphrase(QStringLiteral("head-pass"));
        const QString key = tmp.filePath(QStringLiteral("head.key"));
        QCOMPARE(keygen(db, key, env), 0);
        Run plain =
            proofbench({QStringLiteral("receipts"), QStringLiteral("export"), QStringLiteral("--format"),
                        QStringLiteral("json"), QStringLiteral("--db"), db});
        QCOMPARE(plain.code, 0);
        const QJsonObject all = QJsonDocument::fromJson(plain.out).object();
        const QJsonArray receipts = all.value(QStringLiteral("receipts")).toArray();
        QCOMPARE(receipts.size(), 8); // writeLedger's seven, then keygen's key.generate (#8)
        QCOMPARE(all.value(QStringLiteral("head")).toObject().value(QStringLiteral("hash")).toString(),
                 receipts.last().toObject().value(QStringLiteral("hash")).toString());
        QCOMPARE(all.value(QStringLiteral("chain")).toObject().value(QStringLiteral("intact")).toBool(),
                 true);

        const QString out = tmp.filePath(QStringLiteral("receipts.json"));
        Run signedExport =
            proofbench({QStringLiteral("receipts"), QStringLiteral("export"), QStringLiteral("--db"), db,
                        QStringLiteral("--out"), out, QStringLiteral("--key"), key,
                        QStringLiteral("--passphrase-env"), QStringLiteral("PB_TEST_PASS")},
                       env);
        QVERIFY2(signedExport.code == 0, signedExport.err.constData());
        const QString head = out + QStringLiteral(".head.json"),
                      bundle = out + QStringLiteral(".head.sigstore.json");
        const QJsonObject statement = QJsonDocument::fromJson(pbtest::readAll(head)).object();
        QCOMPARE(statement.value(QStringLiteral("hash")).toString(),
                 receipts.last().toObject().value(QStringLiteral("hash")).toString());
        QCOMPARE(statement.value(QStringLiteral("seq")).toInt(), 8);
        Run ok = proofbench({QStringLiteral("verify"), QStringLiteral("--db"), db, QStringLiteral("--key"),
                             key + QStringLiteral(".pub"), QStringLiteral("--insecure-ignore-tlog"),
                             QStringLiteral("--bundle"), bundle, head});
        QVERIFY2(ok.code == 0, ok.out.constData());
        // A head statement naming another hash does not verify.
        QByteArray forged = pbtest::readAll(head);
        forged.replace(statement.value(QStringLiteral("hash")).toString().toLatin1(), QByteArray(64, 'a'));
        pbtest::writeBytes(tmp.filePath(QStringLiteral("forged.json")), forged);
        QCOMPARE(proofbench({QStringLiteral("verify"), QStringLiteral("--db"), db, QStringLiteral("--key"),
                             key + QStringLiteral(".pub"), QStringLiteral("--insecure-ignore-tlog"),
                             QStringLiteral("--bundle"), bundle, tmp.filePath(QStringLiteral("forged.json"))})
                     .code,
                 1);
        // Signing the head is itself a receipt, after the head it signed; the chain stays intact.
        auto dbh = db::Database::open(db);
        QVERIFY(dbh.ok());
        auto rows =
            Ledger(**dbh).list(ListFilter{QStringLiteral("receipts.sign-head"), std::nullopt, {}, {}, 0});
        QVERIFY(rows.ok());
        QCOMPARE(rows->size(), size_t(1));
        QCOMPARE(rows->front().inputs.front().sha256, statement.value(QStringLiteral("hash")).toString());
        auto check = Ledger(**dbh).verify();
        QVERIFY(check.ok() && check->ok);
    }
    // Issue 28: a ledger erased whole, truncated with its head fixed, or rewritten and rehashed
    // recomputes ("intact"); a checkpoint kept outside the database says it once was longer or other.
    void checkpointAnchorsTheLedger_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<int>("appendAfter");
        QTest::addColumn<QString>("expect");
        QTest::addRow("untouched, grown") << QString() << 2 << QStringLiteral("extends the checkpoint by 3");
        QTest::addRow("erased whole") << QStringLiteral("DELETE FROM receipts; DELETE FROM receipts_head;")
                                      << 0 << QStringLiteral("shorter than the checkpoint");
        QTest::addRow("truncated, head fixed")
            << QStringLiteral("DELETE FROM receipts WHERE seq >= 5; UPDATE receipts_head SET seq = 4, hash = "
                              "(SELECT hash FROM receipts WHERE seq = 4);")
            << 0 << QStringLiteral("shorter than the checkpoint");
        QTest::addRow("rewritten and rehashed")
            << QStringLiteral("DELETE FROM receipts; DELETE FROM receipts_head;") << 12
            << QStringLiteral("does not extend the checkpoint");
    }

    void checkpointAnchorsTheLedger() {
        if (!pb::test::onPostgres() && !haveSqlite3())
            QSKIP("the sqlite3 command-line tool is not installed (apt package sqlite3; tools/bootstrap.sh "
                  "installs it)");
        QFETCH(QString, sql);
        QFETCH(int, appendAfter);
        QFETCH(QString, expect);
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("anchored.sqlite"));
        const QString db = testDb.spec();
        writeLedger(db);
        const QProcessEnvironment env = withPassphrase(QStringLiteral("anchor-pass"));
        const QString key = tmp.filePath(QStringLiteral("anchor.key"));
        QCOMPARE(keygen(db, key, env), 0);
        const QString checkpoint = tmp.filePath(QStringLiteral("ledger.checkpoint.json"));
        Run made = checkpointTo(db, key, checkpoint, env);
        QVERIFY2(made.code == 0, made.err.constData());
        QVERIFY2(made.out.contains("checkpoint of receipts head #8 "), made.out.constData());
        const QStringList verify{QStringLiteral("receipts"),     QStringLiteral("verify"),
                                 QStringLiteral("--db"),         db,
                                 QStringLiteral("--checkpoint"), checkpoint,
                                 QStringLiteral("--key"),        key + QStringLiteral(".pub"),
                                 QStringLiteral("--format"),     QStringLiteral("json")};
        Run before = proofbench(verify);
        QVERIFY2(before.code == 0, before.out.constData());
        // Its own receipt follows the head it covers.
        QCOMPARE(QJsonDocument::fromJson(before.out)
                     .object()[QStringLiteral("checkpoints")]
                     .toArray()[0]
                     .toObject()[QStringLiteral("ledgerSeq")]
                     .toInt(),
                 9);
        if (!sql.isEmpty())
            editOutside(db, sql);
        if (appendAfter > 0)
            appendReceipts(db, appendAfter, QStringLiteral("written after the checkpoint"));
        // The chain alone still recomputes...
        Run chainOnly =
            proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"), db});
        QVERIFY2(chainOnly.code == 0, chainOnly.out.constData());
        // ...the checkpoint says whether it is the ledger it signed.
        Run after = proofbench(verify);
        const QJsonObject c = QJsonDocument::fromJson(after.out)
                                  .object()[QStringLiteral("checkpoints")]
                                  .toArray()[0]
                                  .toObject();
        QVERIFY2(c[QStringLiteral("detail")].toString().contains(expect), after.out.constData());
        QCOMPARE(c[QStringLiteral("signatureVerified")].toBool(), true);
        const bool shouldHold = sql.isEmpty();
        QCOMPARE(after.code, shouldHold ? 0 : 1);
        QCOMPARE(c[QStringLiteral("ok")].toBool(), shouldHold);
        if (!shouldHold) {
            QVERIFY2(after.err.contains(checkpoint.toUtf8()), after.err.constData());
            QVERIFY2(c[QStringLiteral("expected")].toString().contains(QLatin1String("#8 ")),
                     after.out.constData());
            QVERIFY(!c[QStringLiteral("found")].toString().isEmpty());
        }
    }

    // A checkpoint whose statement was edited, or checked with another key, does not hold; a file that
    // is not a checkpoint is named with the field that is wrong.
    void checkpointFileMustBeGenuine() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("genuine.sqlite"));
        const QString db = testDb.spec();
        writeLedger(db);
        const QProcessEnvironment env = withPassphrase(QStringLiteral("anchor-pass"));
        const QString key = tmp.filePath(QStringLiteral("a.key")),
                      other = tmp.filePath(QStringLiteral("b.key"));
        for (const QString& k : {key, other})
            QCOMPARE(keygen(db, k, env), 0);
        const QString checkpoint = tmp.filePath(QStringLiteral("c.json"));
        QCOMPARE(checkpointTo(db, key, checkpoint, env).code, 0);
        auto verifyWith = [&](const QString& file, const QString& pub) {
            return proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"),
                               db, QStringLiteral("--checkpoint"), file, QStringLiteral("--key"), pub});
        };
        QCOMPARE(verifyWith(checkpoint, key + QStringLiteral(".pub")).code, 0);
        Run wrongKey = verifyWith(checkpoint, other + QStringLiteral(".pub"));
        QCOMPARE(wrongKey.code, 1);
        QVERIFY2(wrongKey.out.contains("signature does not verify"), wrongKey.out.constData());
        // The statement made to claim a shorter head (so a truncated ledger would pass): re-canonical,
        // but no longer what was signed.
        QJsonObject file = QJsonDocument::fromJson(pbtest::readAll(checkpoint)).object();
        QJsonObject statement =
            QJsonDocument::fromJson(file[QStringLiteral("statement")].toString().toUtf8()).object();
        statement[QStringLiteral("seq")] = 3;
        file[QStringLiteral("statement")] = QString::fromUtf8(canonicalJson(statement));
        const QString edited = tmp.filePath(QStringLiteral("edited.json"));
        pbtest::writeBytes(edited, QJsonDocument(file).toJson());
        Run forged = verifyWith(edited, key + QStringLiteral(".pub"));
        QCOMPARE(forged.code, 1);
        QVERIFY2(forged.out.contains("signature does not verify"), forged.out.constData());
        // Not a checkpoint at all; and the options that need each other.
        const QString junk = tmp.filePath(QStringLiteral("junk.json"));
        pbtest::writeBytes(junk, "{\"format\": \"something-else\"}");
        Run notOne = verifyWith(junk, key + QStringLiteral(".pub"));
        QCOMPARE(notOne.code, 1);
        QVERIFY2(notOne.err.contains("format") && notOne.err.contains("junk.json"), notOne.err.constData());
        QCOMPARE(proofbench({QStringLiteral("receipts"), QStringLiteral("verify"), QStringLiteral("--db"), db,
                             QStringLiteral("--checkpoint"), checkpoint})
                     .code,
                 2);
        QCOMPARE(proofbench({QStringLiteral("receipts"), QStringLiteral("checkpoint"), QStringLiteral("--db"),
                             db, QStringLiteral("--key"), key})
                     .code,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestReceipts)
#include "tst_receipts.moc"
