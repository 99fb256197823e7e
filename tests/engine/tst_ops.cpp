// The operations layer's contract, on a real database of either engine (DbFixture.h) and real files:
// an action and its receipt are one step. A receipt that cannot be written (the database locked by another
// writer, a trigger refusing it, an undeclared kind or parameter) fails the action and leaves no output file,
// no staged temporary and no data; a file replaced by an action is put back when its receipt fails;
// transactions nest as savepoints; ops::Async runs an operation on its own connection with
// progress and cancel.
#include "DbFixture.h"
#include "db/Database.h"
#include "ops/Async.h"
#include "ops/Keygen.h"
#include "ops/Operation.h"
#include "ops/SignBlob.h"
#include "receipts/Kinds.h"
#include "receipts/Ledger.h"

#include <QDir>
#include <QFile>
#include <QMutex>
#include <QSet>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace pb;

namespace {

const QByteArray kPass = "ops test passphrase";

int receiptCount(db::Database& db) {
    QSqlQuery q(db.sql());
    return q.exec(QStringLiteral("SELECT count(*) FROM receipts")) && q.next() ? q.value(0).toInt() : -1;
}

QStringList filesIn(const QString& dir) {
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

bool write(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TestOps : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    test::Databases m_dbs{m_tmp.path()};
    std::unique_ptr<db::Database> open(const QString& name) {
        auto db = m_dbs.open(name);
        if (!db)
            qFatal("%s", qPrintable(m_dbs.error()));
        return db;
    }
    // A key made through the operation, in its own folder.
    QString makeKey(db::Database& db, const QString& dir) {
        QDir().mkpath(dir);
        ops::KeygenRequest k;
        k.outPath = dir + QStringLiteral("/k.key");
        k.passphrase = sigstore::Passphrase(kPass);
        auto made = ops::keygen(ops::Context(db), k);
        return made ? made->privatePath : QString();
    }

  private slots:
    void ledgerRefusesUndeclaredKindsAndParameters() {
        auto db = open(QStringLiteral("kinds.sqlite"));
        receipts::ReceiptDraft d;
        d.kind = QStringLiteral("made.up");
        auto r = receipts::Ledger(*db).record(d);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("not a receipt kind")),
                 qPrintable(r.error().toString()));
        d.kind = receipts::kinds::SignBlob;
        d.parameters = QJsonObject{{QStringLiteral("keyFingerprint"), QStringLiteral("x")},
                                   {QStringLiteral("via"), QStringLiteral("gui")}};
        r = receipts::Ledger(*db).record(d);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("'via'")), qPrintable(r.error().toString()));
        d.parameters.remove(QStringLiteral("via"));
        QVERIFY(receipts::Ledger(*db).record(d).ok());
        // Every kind in the table is unique and declares its keys.
        QSet<QString> names;
        for (const receipts::kinds::KindInfo& k : receipts::kinds::all()) {
            QVERIFY(!names.contains(QString(k.name)));
            names.insert(QString(k.name));
        }
        QVERIFY(names.size() >= 24);
    }

    void transactionsNestAsSavepoints() {
        auto db = open(QStringLiteral("nest.sqlite"));
        QSqlQuery q(db->sql());
        QVERIFY(q.exec(QStringLiteral("CREATE TABLE t (v INTEGER)")));
        {
            db::Transaction outer(*db);
            QVERIFY(outer.started() && !outer.nested());
            QVERIFY(q.exec(QStringLiteral("INSERT INTO t VALUES (1)")));
            {
                db::Transaction inner(*db);
                QVERIFY(inner.started() && inner.nested());
                QVERIFY(q.exec(QStringLiteral("INSERT INTO t VALUES (2)")));
                // not committed: only the inner part rolls back
            }
            {
                db::Transaction inner(*db);
                QVERIFY(q.exec(QStringLiteral("INSERT INTO t VALUES (3)")));
                QVERIFY(inner.commit());
            }
            QVERIFY(outer.commit());
        }
        QStringList kept;
        QVERIFY(q.exec(QStringLiteral("SELECT v FROM t ORDER BY v")));
        while (q.next())
            kept << q.value(0).toString();
        QCOMPARE(kept.join(QLatin1Char(',')), QStringLiteral("1,3"));
        {
            db::Transaction outer(*db);
            db::Transaction inner(*db);
            QVERIFY(q.exec(QStringLiteral("INSERT INTO t VALUES (4)")));
            QVERIFY(inner.commit()); // released, but the outer one rolls back
        }
        QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM t")) && q.next());
        QCOMPARE(q.value(0).toInt(), 2);
    }

    void lockedLedgerFailsTheActionAndLeavesNoFile() {
        auto db = open(QStringLiteral("locked.sqlite"));
        const QString dir = m_tmp.filePath(QStringLiteral("locked"));
        const QString key = makeKey(*db, dir);
        QVERIFY(!key.isEmpty());
        QVERIFY(write(dir + QStringLiteral("/blob"), "blob\n"));
        const int before = receiptCount(*db);
        // Another writer holds the database (SQLite: its write lock; PostgreSQL: a lock on the ledger's
        // table that every INSERT waits for): the receipt cannot be written in time.
        auto other = open(QStringLiteral("locked.sqlite"));
        QSqlQuery lock(other->sql());
        QSqlQuery shortWait(db->sql());
        if (db->engine() == db::Engine::PostgreSQL) {
            QVERIFY(lock.exec(QStringLiteral("BEGIN")));
            QVERIFY(lock.exec(QStringLiteral("LOCK TABLE receipts IN EXCLUSIVE MODE")));
            QVERIFY(shortWait.exec(QStringLiteral("SET lock_timeout = '200ms'")));
        } else {
            QVERIFY(lock.exec(QStringLiteral("BEGIN IMMEDIATE")));
            QVERIFY(shortWait.exec(QStringLiteral("PRAGMA busy_timeout = 200")));
        }
        const QStringList filesBefore = filesIn(dir);
        auto r = ops::signBlob(ops::Context(*db),
                               ops::SignBlobRequest{dir + QStringLiteral("/blob"),
                                                    dir + QStringLiteral("/blob.sigstore.json"),
                                                    ops::SigningKey{key, sigstore::Passphrase(kPass)}});
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("receipt")), qPrintable(r.error().toString()));
        // The reason is the lock ("database is locked"; "canceling statement due to lock timeout").
        QVERIFY2(r.error().message.contains(QStringLiteral("lock")), qPrintable(r.error().toString()));
        QCOMPARE(filesIn(dir), filesBefore); // no bundle, no staged temporary
        QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
        QCOMPARE(receiptCount(*db), before);
        // With the lock gone the same action succeeds, file and receipt together.
        r = ops::signBlob(ops::Context(*db),
                          ops::SignBlobRequest{dir + QStringLiteral("/blob"),
                                               dir + QStringLiteral("/blob.sigstore.json"),
                                               ops::SigningKey{key, sigstore::Passphrase(kPass)}});
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QVERIFY(QFile::exists(dir + QStringLiteral("/blob.sigstore.json")));
        QCOMPARE(receiptCount(*db), before + 1);
        QCOMPARE(r->receiptSeq, qint64(before + 1));
    }

    void refusedReceiptPutsAReplacedFileBack() {
        auto db = open(QStringLiteral("refused.sqlite"));
        const QString dir = m_tmp.filePath(QStringLiteral("refused"));
        const QString key = makeKey(*db, dir);
        QVERIFY(write(dir + QStringLiteral("/blob"), "new content\n"));
        QVERIFY(write(dir + QStringLiteral("/blob.sigstore.json"), "the bundle that was there before\n"));
        const QString refused =
            test::refuseInserts(*db, QStringLiteral("receipts"), QStringLiteral("refused"));
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
        const QStringList filesBefore = filesIn(dir);
        auto r = ops::signBlob(ops::Context(*db),
                               ops::SignBlobRequest{dir + QStringLiteral("/blob"),
                                                    dir + QStringLiteral("/blob.sigstore.json"),
                                                    ops::SigningKey{key, sigstore::Passphrase(kPass)}});
        QVERIFY(!r.ok());
        QFile old(dir + QStringLiteral("/blob.sigstore.json"));
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("the bundle that was there before\n"));
        QCOMPARE(filesIn(dir), filesBefore);
        // keygen likewise: neither key file, nor the stored public key.
        QSqlQuery keys(db->sql());
        QVERIFY(keys.exec(QStringLiteral("SELECT count(*) FROM signing_keys")) && keys.next());
        const int storedKeys = keys.value(0).toInt();
        ops::KeygenRequest k;
        k.outPath = dir + QStringLiteral("/second.key");
        k.passphrase = sigstore::Passphrase(kPass);
        QVERIFY(!ops::keygen(ops::Context(*db), k).ok());
        QVERIFY(!QFile::exists(dir + QStringLiteral("/second.key")));
        QVERIFY(!QFile::exists(dir + QStringLiteral("/second.key.pub")));
        QCOMPARE(filesIn(dir), filesBefore);
        QVERIFY(keys.exec(QStringLiteral("SELECT count(*) FROM signing_keys")) && keys.next());
        QCOMPARE(keys.value(0).toInt(), storedKeys);
    }

    void asyncRunsOnItsOwnConnectionWithProgressAndCancel() {
        const QString path = m_dbs.spec(QStringLiteral("async.sqlite"));
        auto db = open(QStringLiteral("async.sqlite"));
        ops::Async async(path);
        QStringList seen;
        QMutex mutex;
        ops::Job<QString> job = async.run<QString>(
            [](const ops::Context& ctx) -> Result<QString> {
                for (int i = 1; i <= 3; ++i)
                    ctx.progress(i, 3, QStringLiteral("step %1").arg(i));
                return ctx.db().path();
            },
            [&](const ops::Progress& p) {
                QMutexLocker l(&mutex);
                seen << p.what;
            });
        job.future.waitForFinished();
        QVERIFY(job.future.result().ok());
        QCOMPARE(*job.future.result(), db->path()); // the worker's own connection to the same database
        QCOMPARE(seen, QStringList({"step 1", "step 2", "step 3"}));
        // Cancel: the operation sees the flag.
        std::atomic_bool started{false};
        ops::Job<int> slow = async.run<int>([&](const ops::Context& ctx) -> Result<int> {
            started = true;
            int spins = 0;
            while (!ctx.cancelled() && spins < 10000) {
                QThread::msleep(1);
                ++spins;
            }
            if (ctx.cancelled())
                return makeError(QStringLiteral("cancelled"));
            return spins;
        });
        QVERIFY(QTest::qWaitFor([&] { return started.load(); }, 5000));
        slow.cancel();
        slow.future.waitForFinished();
        QVERIFY(!slow.future.result().ok());
        QCOMPARE(slow.future.result().error().message, QStringLiteral("cancelled"));
    }

    // The one receipt API returns the receipt it wrote: the same seq, hash and content as the row
    // stored, also while a second connection to the same file appends receipts of its own (the
    // ledger's head is then often someone else's receipt, so reading it afterwards would be wrong).
    void returnedReceiptIsTheStoredOneUnderConcurrentAppends() {
        const QString path = m_dbs.spec(QStringLiteral("concurrent.sqlite"));
        { auto db = open(QStringLiteral("concurrent.sqlite")); }
        struct Got {
            receipts::Receipt receipt;
            QString tag;
        };
        auto worker = [&path](const QString& tag, bool useTransact, std::vector<Got>* got, int* failures) {
            auto db = db::Database::open(path);
            if (!db)
                return;
            const ops::Context ctx(**db);
            for (int i = 0; i < 25; ++i) {
                receipts::ReceiptDraft d;
                d.kind = receipts::kinds::SignBlob;
                const QString t = QStringLiteral("%1-%2").arg(tag).arg(i);
                d.parameters = QJsonObject{{QStringLiteral("keyFingerprint"), t}};
                d.message = t;
                Result<receipts::Receipt> r = makeError(QString());
                // SQLite refuses a write that would upgrade a stale read (the other connection
                // wrote first), PostgreSQL the second INSERT of the same seq (the ledger's key): an
                // honest failure, tried again as a user would; a wrong receipt is not.
                for (int attempt = 0; attempt < 200 && !r; ++attempt) {
                    if (attempt > 0) {
                        ++*failures;
                        QThread::msleep(2);
                    }
                    if (useTransact) {
                        auto done =
                            ops::transact<int>(ctx, [&]() -> Result<std::pair<int, receipts::ReceiptDraft>> {
                                return std::pair{i, d};
                            });
                        if (done)
                            r = done->receipt;
                        else
                            r = done.error();
                    } else {
                        r = ops::record(ctx, d);
                    }
                }
                if (r)
                    got->push_back(Got{*r, t});
            }
        };
        std::vector<Got> a, b;
        int failA = 0, failB = 0;
        QThread* ta = QThread::create(worker, QStringLiteral("a"), true, &a, &failA);
        QThread* tb = QThread::create(worker, QStringLiteral("b"), false, &b, &failB);
        ta->start();
        tb->start();
        QVERIFY(ta->wait(60000) && tb->wait(60000));
        delete ta;
        delete tb;
        QVERIFY2(a.size() == 25 && b.size() == 25, qPrintable(QStringLiteral("%1/%2 kept, %3/%4 retries")
                                                                  .arg(a.size())
                                                                  .arg(b.size())
                                                                  .arg(failA)
                                                                  .arg(failB)));
        auto db = open(QStringLiteral("concurrent.sqlite"));
        receipts::Ledger ledger(*db);
        QSet<qint64> seqs;
        for (const std::vector<Got>* side : {&a, &b}) {
            for (const Got& g : *side) {
                auto stored = ledger.receipt(g.receipt.seq);
                QVERIFY(stored.ok());
                QCOMPARE(stored->hash, g.receipt.hash);
                QCOMPARE(stored->prevHash, g.receipt.prevHash);
                QCOMPARE(stored->message, g.tag);
                QCOMPARE(g.receipt.message, g.tag);
                QVERIFY(!seqs.contains(g.receipt.seq));
                seqs.insert(g.receipt.seq);
            }
        }
        QCOMPARE(receiptCount(*db), static_cast<int>(a.size() + b.size()));
        auto check = ledger.verify();
        QVERIFY(check.ok() && check->ok);
    }
};

QTEST_GUILESS_MAIN(TestOps)
#include "tst_ops.moc"
