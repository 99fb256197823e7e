// db::BulkInsert (issue 31): many rows through each engine's bulk path (prepared inserts on SQLite,
// COPY, binary where the column types allow, into a staging table on PostgreSQL) land exactly as row-by-row
// inserts would: every value and type, NULLs, bytes, text with tabs, newlines and backslashes, the order of
// ids, ON CONFLICT updates, all or nothing with the caller's transaction. And the advice a failed statement
// carries (statement timeout, lock timeout) names the server on PostgreSQL.
#include "TestDb.h"
#include "db/BulkInsert.h"
#include "db/Database.h"
#include "db/Postgres.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

namespace {

std::unique_ptr<db::Database> openDb(const QString& spec) {
    Result<std::unique_ptr<db::Database>> r = db::Database::open(spec);
    if (!r)
        qFatal("cannot open %s: %s", qPrintable(spec), qPrintable(r.error().toString()));
    return std::move(*r);
}

// Every row of a table as text, in id order (what a reader of the table gets back).
QStringList rowsOf(QSqlDatabase& sql, const QString& select) {
    QSqlQuery q(sql);
    if (!q.exec(select))
        qFatal("%s: %s", qPrintable(select), qPrintable(q.lastError().text()));
    QStringList out;
    while (q.next()) {
        QStringList fields;
        for (int i = 0; i < q.record().count(); ++i) {
            const QVariant v = q.value(i);
            fields << (v.isNull() ? QStringLiteral("NULL")
                       : v.metaType().id() == QMetaType::QByteArray
                           ? QString::fromLatin1(v.toByteArray().toHex())
                           : v.toString());
        }
        out << fields.join(QLatin1Char('|'));
    }
    return out;
}

// The 256 byte values, in order.
QByteArray everyByte() {
    QByteArray all;
    for (int b = 0; b < 256; ++b)
        all += char(b);
    return all;
}

// The columns of evidence_allowlists the tests write (its id is the table's).
QStringList allowlistColumns() {
    return {QStringLiteral("path"), QStringLiteral("sha256"), QStringLiteral("content"),
            QStringLiteral("imported_at")};
}

} // namespace

class TestBulkInsert : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qInfo("engine: %s", qPrintable(pb::test::engineLabel()));
    }

    // The awkward text COPY's format must escape and bytes of every length, read back as added and
    // in the order added (ids follow it), over more than one COPY chunk on PostgreSQL; doubles read
    // back exactly.
    void rowsLandAsAdded() {
        PB_TEST_DATABASE(tdb, m_dir.path(), QStringLiteral("rows.db"));
        auto database = openDb(tdb.spec());
        QSqlDatabase& sql = database->sql();
        const QStringList names{QStringLiteral("tab\there"), QStringLiteral("line\nbreak"),
                                QStringLiteral("back\\slash \\N"), QStringLiteral("ünïcödé ✓"),
                                QStringLiteral("cr\rlf")};
        constexpr int kRows = 30000; // about 6 MB of COPY data (binary or text): more than one 4 MiB chunk
        auto bytesOf = [](int i) { return QByteArray(i % 300, char(i % 256)); };
        {
            db::Transaction tx(sql);
            QVERIFY(tx.started());
            db::BulkInsert bulk(sql, QStringLiteral("evidence_allowlists"), allowlistColumns());
            for (int i = 0; i < kRows; ++i) {
                const Status s = bulk.add({names[i % names.size()] + QString::number(i), QString::number(i),
                                           bytesOf(i), QStringLiteral("2026-12-05T00:00:00Z")});
                QVERIFY2(s.ok(), qPrintable(s.error().toString()));
            }
            const Status done = bulk.finish();
            QVERIFY2(done.ok(), qPrintable(done.error().toString()));
            QCOMPARE(bulk.written(), qint64(kRows));
            QVERIFY(tx.commit());
        }
        const QStringList rows =
            rowsOf(sql, QStringLiteral("SELECT path, content FROM evidence_allowlists ORDER BY id"));
        QCOMPARE(rows.size(), kRows);
        for (int i = 0; i < kRows; ++i)
            QCOMPARE(rows[i], names[i % names.size()] + QString::number(i) + QLatin1Char('|') +
                                  QString::fromLatin1(bytesOf(i).toHex()));

        // Doubles (run_series: no id; read back by x).
        QSqlQuery q(sql);
        QVERIFY2(q.exec(QStringLiteral("INSERT INTO runs (run_uid, source, state, started_at) VALUES "
                                       "('r1', 'import', 'passed', '2026-12-05T00:00:00Z')")),
                 qPrintable(q.lastError().text()));
        QVERIFY2(
            q.exec(QStringLiteral("INSERT INTO run_checks (run_id, seq, phase, name, state) SELECT id, 0, "
                                  "'performance', 'nccl', 'passed' FROM runs")),
            qPrintable(q.lastError().text()));
        QVERIFY(q.exec(QStringLiteral("SELECT id FROM run_checks")) && q.next());
        const qint64 check = q.value(0).toLongLong();
        q.finish();
        const std::vector<double> ys{0.1, 1.0 / 3, -2.5e-300, 1.7976931348623157e308, 123456789.123456789,
                                     -0.0};
        {
            db::Transaction tx(sql);
            db::BulkInsert bulk(sql, QStringLiteral("run_series"),
                                {QStringLiteral("check_id"), QStringLiteral("series"), QStringLiteral("x"),
                                 QStringLiteral("y")});
            for (std::size_t i = 0; i < ys.size(); ++i)
                QVERIFY(bulk.add({check, QStringLiteral("nccl.busbw"), double(i) / 8, ys[i]}).ok());
            QVERIFY(bulk.finish().ok());
            QVERIFY(tx.commit());
        }
        QVERIFY(q.exec(QStringLiteral("SELECT y FROM run_series ORDER BY x")));
        for (double y : ys) {
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toDouble(), y);
        }
    }

    // Bytes (every byte value), an ON CONFLICT update and a DO NOTHING skip, as the row-by-row
    // statements would have done them.
    void bytesAndConflicts() {
        PB_TEST_DATABASE(tdb, m_dir.path(), QStringLiteral("bytes.db"));
        auto database = openDb(tdb.spec());
        QSqlDatabase& sql = database->sql();
        const QByteArray all = everyByte();
        const QStringList columns = allowlistColumns();
        const QString upsert = QStringLiteral("ON CONFLICT (sha256) DO UPDATE SET path = excluded.path");
        {
            db::Transaction tx(sql);
            db::BulkInsert bulk(sql, QStringLiteral("evidence_allowlists"), columns, upsert);
            QVERIFY(
                bulk.add({QStringLiteral("a.yaml"), QStringLiteral("d1"), all, QStringLiteral("t")}).ok());
            QVERIFY(bulk.add({QStringLiteral("b.yaml"), QStringLiteral("d2"), QByteArray("", 0),
                              QStringLiteral("t")})
                        .ok());
            QVERIFY(bulk.finish().ok());
            QVERIFY(tx.commit());
        }
        {
            db::Transaction tx(sql);
            db::BulkInsert bulk(sql, QStringLiteral("evidence_allowlists"), columns, upsert);
            QVERIFY(bulk.add({QStringLiteral("renamed.yaml"), QStringLiteral("d1"), all, QStringLiteral("t")})
                        .ok());
            QVERIFY(bulk.finish().ok());
            QVERIFY(tx.commit());
        }
        {
            db::Transaction tx(sql);
            db::BulkInsert bulk(sql, QStringLiteral("evidence_allowlists"), columns,
                                QStringLiteral("ON CONFLICT (sha256) DO NOTHING"));
            QVERIFY(bulk.add({QStringLiteral("ignored.yaml"), QStringLiteral("d2"), all, QStringLiteral("t")})
                        .ok());
            QVERIFY(
                bulk.add({QStringLiteral("c.yaml"), QStringLiteral("d3"), all, QStringLiteral("t")}).ok());
            QVERIFY(bulk.finish().ok());
            QCOMPARE(bulk.written(), qint64(1)); // the skipped row is not counted
            QVERIFY(tx.commit());
        }
        const QStringList rows = rowsOf(
            sql, QStringLiteral("SELECT path, sha256, content FROM evidence_allowlists ORDER BY sha256"));
        QCOMPARE(rows, (QStringList{QStringLiteral("renamed.yaml|d1|") + QString::fromLatin1(all.toHex()),
                                    QStringLiteral("b.yaml|d2|"),
                                    QStringLiteral("c.yaml|d3|") + QString::fromLatin1(all.toHex())}));
    }

    // A row the table refuses fails the bulk insert with the table's reason; the caller's rollback
    // leaves nothing (no row, no staging table); outside a transaction PostgreSQL's path refuses to start.
    void allOrNothing() {
        PB_TEST_DATABASE(tdb, m_dir.path(), QStringLiteral("refuse.db"));
        auto database = openDb(tdb.spec());
        QSqlDatabase& sql = database->sql();
        const QStringList columns = allowlistColumns();
        {
            db::Transaction tx(sql);
            db::BulkInsert bulk(sql, QStringLiteral("evidence_allowlists"), columns);
            Status s =
                bulk.add({QStringLiteral("a"), QStringLiteral("same"), QByteArray("x"), QStringLiteral("t")});
            if (s)
                s = bulk.add(
                    {QStringLiteral("b"), QStringLiteral("same"), QByteArray("y"), QStringLiteral("t")});
            if (s)
                s = bulk.finish();
            QVERIFY(!s.ok());
            QVERIFY2(s.error().message.contains(QStringLiteral("evidence_allowlists")),
                     qPrintable(s.error().toString()));
            QVERIFY2(s.error().message.contains(QStringLiteral("unique"), Qt::CaseInsensitive) ||
                         s.error().message.contains(QStringLiteral("duplicate"), Qt::CaseInsensitive),
                     qPrintable(s.error().toString()));
        } // rolled back
        QCOMPARE(rowsOf(sql, QStringLiteral("SELECT path FROM evidence_allowlists")), QStringList());
        if (pb::test::onPostgres()) {
            QCOMPARE(
                rowsOf(sql, QStringLiteral("SELECT relname FROM pg_class WHERE relname LIKE 'pb_stage_%'")),
                QStringList());
            db::BulkInsert outside(sql, QStringLiteral("evidence_allowlists"), columns);
            const Status s =
                outside.add({QStringLiteral("a"), QStringLiteral("d"), QByteArray("x"), QStringLiteral("t")});
            QVERIFY(!s.ok());
            QVERIFY2(s.error().message.contains(QStringLiteral("transaction")),
                     qPrintable(s.error().toString()));
        }
        // A row of the wrong width is refused before anything is sent, naming what it came from.
        db::Transaction tx(sql);
        db::BulkInsert bulk(sql, QStringLiteral("evidence_allowlists"), columns);
        const Status s = bulk.add({QStringLiteral("a")}, QStringLiteral("pointer.yaml"));
        QVERIFY(!s.ok());
        QCOMPARE(s.error().file, QStringLiteral("pointer.yaml"));
    }

    // PostgreSQL sends the rows in COPY's binary format when every column's type allows it (the
    // schema's bigint, double precision, text and bytea do): a value that does not fit its column is
    // refused before anything is sent, naming the table, the row and the column; a table with a type
    // the binary writer does not know (numeric here) falls back to the text format, value for value.
    void binaryAndTextCopy() {
        if (!pb::test::onPostgres())
            QSKIP("COPY's two formats are PostgreSQL's (SQLite takes any value in any column: its type "
                  "affinity)");
        PB_TEST_DATABASE(tdb, m_dir.path(), QStringLiteral("formats"));
        auto database = openDb(tdb.spec());
        QSqlDatabase& sql = database->sql();
        const QStringList columns{QStringLiteral("check_id"), QStringLiteral("series"), QStringLiteral("x"),
                                  QStringLiteral("y")};
        QCOMPARE(db::pg::columnTypes(sql, QStringLiteral("run_series"), columns),
                 (std::vector<quint32>{20, 25, 701, 701})); // bigint, text, double precision x2
        {
            db::Transaction tx(sql);
            db::BulkInsert bulk(sql, QStringLiteral("run_series"), columns);
            Status s = bulk.add({QStringLiteral("not a number"), QStringLiteral("s"), 0.5, 1.0},
                                QStringLiteral("perf.json"));
            QVERIFY(!s.ok());
            QVERIFY2(s.error().message.contains(QStringLiteral("run_series (perf.json)")) &&
                         s.error().message.contains(QStringLiteral("check_id")) &&
                         s.error().message.contains(QStringLiteral("not a number")),
                     qPrintable(s.error().toString()));
            s = bulk.add({2.5, QStringLiteral("s"), 0.5, 1.0});
            QVERIFY2(!s.ok() && s.error().message.contains(QStringLiteral("check_id")),
                     qPrintable(s.error().toString()));
        }
        QSqlQuery q(sql);
        QVERIFY(q.exec(QStringLiteral("CREATE TEMP TABLE amounts (label text, amount numeric, n bigint)")));
        QVERIFY(db::pg::columnTypes(sql, QStringLiteral("amounts"),
                                    {QStringLiteral("label"), QStringLiteral("amount"), QStringLiteral("n")})
                    .empty());
        {
            db::Transaction tx(sql);
            db::BulkInsert bulk(sql, QStringLiteral("amounts"),
                                {QStringLiteral("label"), QStringLiteral("amount"), QStringLiteral("n")});
            QVERIFY(bulk.add({QStringLiteral("a\tb"), QStringLiteral("12345678901234567890.5"), 7}).ok());
            QVERIFY(bulk.add({QVariant(QMetaType(QMetaType::QString)), 0.25, QVariant()}).ok());
            const Status done = bulk.finish();
            QVERIFY2(done.ok(), qPrintable(done.error().toString()));
            QVERIFY(tx.commit());
        }
        QCOMPARE(
            rowsOf(sql, QStringLiteral("SELECT label, amount::text, n FROM amounts ORDER BY n NULLS LAST")),
            (QStringList{QStringLiteral("a\tb|12345678901234567890.5|7"), QStringLiteral("NULL|0.25|NULL")}));
    }

    // db copy reads PostgreSQL with COPY's binary stream (pg::CopyOut): every value comes back as it
    // was written (NULLs, every byte value, doubles to the bit, text with tabs); a read stopped early
    // leaves the connection usable; a query the server refuses is an error naming the server.
    void copyOutReadsWhatWasWritten() {
        if (!pb::test::onPostgres())
            QSKIP("COPY TO STDOUT is PostgreSQL's (SQLite's rows are read through its own API)");
        PB_TEST_DATABASE(tdb, m_dir.path(), QStringLiteral("copyout"));
        auto database = openDb(tdb.spec());
        QSqlDatabase& sql = database->sql();
        const QByteArray all = everyByte();
        const QStringList columns = allowlistColumns();
        {
            db::Transaction tx(sql);
            db::BulkInsert bulk(sql, QStringLiteral("evidence_allowlists"), columns);
            for (int i = 0; i < 3000; ++i)
                QVERIFY(bulk.add({QStringLiteral("p\t%1").arg(i), QString::number(i), all.left(i % 257),
                                  QStringLiteral("t")})
                            .ok());
            QVERIFY(bulk.finish().ok());
            QVERIFY(tx.commit());
        }
        const QStringList read{QStringLiteral("id"), QStringLiteral("path"), QStringLiteral("content")};
        const std::vector<quint32> types =
            db::pg::columnTypes(sql, QStringLiteral("evidence_allowlists"), read);
        QCOMPARE(types, (std::vector<quint32>{20, 25, 17}));
        {
            db::pg::CopyOut rows(
                sql, QStringLiteral("SELECT id, path, content FROM evidence_allowlists ORDER BY id"), types);
            int n = 0;
            qint64 lastId = 0;
            while (rows.next()) {
                const QVariantList& r = rows.row();
                QVERIFY(r[0].toLongLong() > lastId);
                lastId = r[0].toLongLong();
                QCOMPARE(r[1].toString(), QStringLiteral("p\t%1").arg(n));
                QCOMPARE(r[2].toByteArray(), all.left(n % 257));
                ++n;
            }
            QVERIFY2(!rows.failed(), qPrintable(rows.error(QStringLiteral("evidence_allowlists")).message));
            QCOMPARE(n, 3000);
        }
        {
            db::pg::CopyOut early(sql, QStringLiteral("SELECT id, path, content FROM evidence_allowlists"),
                                  types);
            QVERIFY(early.next());
        } // stopped after one row: the rest is drained
        QSqlQuery q(sql);
        QVERIFY2(q.exec(QStringLiteral("SELECT count(*) FROM evidence_allowlists")) && q.next(),
                 qPrintable(q.lastError().text()));
        QCOMPARE(q.value(0).toInt(), 3000);
        db::pg::CopyOut refused(sql, QStringLiteral("SELECT nothing FROM nowhere"), {25});
        QVERIFY(!refused.next());
        QVERIFY(refused.failed());
        const Error e = refused.error(QStringLiteral("reading nowhere"));
        QVERIFY2(e.message.contains(QStringLiteral("nowhere")) && e.message.contains(tdb.pgName()),
                 qPrintable(e.message));
    }

    // A statement the server cancels (statement_timeout) and a lock that cannot be had (lock_timeout)
    // say what happened and what to do, naming the database and server, never a password.
    void timeoutsSayWhatToDo() {
        if (!pb::test::onPostgres())
            QSKIP("statement and lock timeouts are PostgreSQL settings (SQLite's busy file is tested in "
                  "tst_ops)");
        PB_TEST_DATABASE(tdb, m_dir.path(), QStringLiteral("timeouts"));
        auto database = openDb(tdb.spec());
        QSqlDatabase& sql = database->sql();
        QSqlQuery q(sql);
        QVERIFY(q.exec(QStringLiteral("SET statement_timeout = 50")));
        QVERIFY(!q.exec(QStringLiteral("SELECT pg_sleep(5)")));
        const Error e = db::sqlError(q, QStringLiteral("runs"));
        QVERIFY2(e.message.contains(QStringLiteral("statement_timeout")), qPrintable(e.message));
        QVERIFY2(e.message.contains(tdb.pgName()), qPrintable(e.message));
        QVERIFY2(e.message.contains(QStringLiteral("127.0.0.1:")), qPrintable(e.message));
        QVERIFY2(e.message.contains(QStringLiteral("nothing was written")), qPrintable(e.message));
        QVERIFY(q.exec(QStringLiteral("SET statement_timeout = 0")));

        auto other = openDb(tdb.spec());
        QSqlQuery holder(other->sql());
        QVERIFY(other->sql().transaction());
        QVERIFY(holder.exec(QStringLiteral("LOCK TABLE receipts IN ACCESS EXCLUSIVE MODE")));
        QVERIFY(q.exec(QStringLiteral("SET lock_timeout = 50")));
        QVERIFY(!q.exec(QStringLiteral("SELECT count(*) FROM receipts")));
        const Error locked = db::sqlError(q, QStringLiteral("receipts"));
        QVERIFY2(locked.message.contains(QStringLiteral("lock_timeout")), qPrintable(locked.message));
        QVERIFY(other->sql().rollback());
    }
};

QTEST_GUILESS_MAIN(TestBulkInsert)
#include "tst_bulkinsert.moc"
