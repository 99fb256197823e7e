// db::readSchema on a migrated database of the half's engine (known facts of the final schema) and
// db::differences: equal schemas give nothing, each kind of change gives its line. Issue 31's
// parity test: in the PostgreSQL half, a migrated SQLite file and a migrated PostgreSQL database
// have the same logical schema.
#include "DbTestUtil.h"
#include "db/Database.h"
#include "db/SchemaInfo.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using namespace pb::db;

namespace {

QStringList columnNames(const SchemaTable& t) {
    QStringList out;
    for (const SchemaColumn& c : t.columns)
        out << c.name;
    return out;
}

const SchemaIndex* findIndex(const SchemaTable& t, const QStringList& keys, bool constraint) {
    for (const SchemaIndex& i : t.indexes)
        if (i.keys == keys && i.constraint == constraint)
            return &i;
    return nullptr;
}

} // namespace

class TestSchemaInfo : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    // A migrated database of this half's engine, only read (one per class: a PostgreSQL database
    // costs a CREATE DATABASE).
    std::unique_ptr<pb::test::TestDatabase> m_plainDb;
    std::unique_ptr<Database> m_plain;

    static std::unique_ptr<Database> openDb(const QString& spec) {
        auto db = Database::open(spec);
        if (!db)
            qFatal("%s", qPrintable(db.error().toString()));
        return std::move(*db);
    }
    // A migrated SQLite file, whichever half this is.
    std::unique_ptr<Database> sqliteDb(const QString& name) { return openDb(m_tmp.filePath(name)); }

    LogicalSchema read(Database& db) {
        auto schema = readSchema(db.sql());
        if (!schema)
            qFatal("%s", qPrintable(schema.error().toString()));
        return std::move(*schema);
    }

  private slots:
    void initTestCase() {
        PB_TEST_DATABASE_IN(m_plainDb, m_tmp.path(), QStringLiteral("plain.sqlite"));
        m_plain = openDb(m_plainDb->spec());
    }

    void cleanupTestCase() { m_plain.reset(); }

    void readsTheMigratedSchema() {
        const LogicalSchema s = read(*m_plain);
        const bool pg = pb::test::onPostgres();
        QCOMPARE(s.engine, pg ? Engine::PostgreSQL : Engine::SQLite);
        QVERIFY(s.tables.size() >= 30);
        QVERIFY(!s.table(QStringLiteral("sqlite_sequence")));

        const SchemaTable* receipts = s.table(QStringLiteral("receipts"));
        QVERIFY(receipts);
        QCOMPARE(columnNames(*receipts),
                 QStringList({"seq", "kind", "created_at", "version", "parameters", "inputs", "outputs",
                              "result", "message", "prev_hash", "hash", "written_by"}));
        const SchemaColumn* seq = receipts->column(QStringLiteral("seq"));
        QCOMPARE(seq->type, ColumnType::Integer);
        QCOMPARE(seq->primaryKeyPosition, 1);
        QCOMPARE(seq->generation, pg ? KeyGeneration::IdentityByDefault : KeyGeneration::RowId);
        QVERIFY(seq->notNull); // a primary key counts as NOT NULL although SQLite reports 0
        const SchemaColumn* parameters = receipts->column(QStringLiteral("parameters"));
        QVERIFY(parameters->hasDefault && parameters->defaultIsLiteral);
        QCOMPARE(parameters->defaultValue, QStringLiteral("'{}'"));
        QCOMPARE(receipts->checks, QStringList{QStringLiteral("result in 'ok' , 'failed' , 'partial'")});
        const SchemaIndex* kind = findIndex(*receipts, {"kind", "created_at"}, false);
        QVERIFY(kind);
        QCOMPARE(kind->name, QStringLiteral("receipts_kind"));
        QVERIFY(!kind->unique);
        // The ledger is append-only (migration 016): its triggers refuse UPDATE and DELETE (and, on
        // the server, TRUNCATE) and check the writer's name on INSERT.
        QStringList triggers;
        for (const SchemaTrigger& t : receipts->triggers)
            triggers << QStringLiteral("%1 %2 %3 %4")
                            .arg(t.name, t.timing, t.events.join(u','),
                                 t.forEachRow ? QStringLiteral("row") : QStringLiteral("statement"));
        triggers.sort();
        QStringList expectedTriggers{QStringLiteral("receipts_author BEFORE INSERT row"),
                                     QStringLiteral("receipts_no_delete BEFORE DELETE row"),
                                     QStringLiteral("receipts_no_update BEFORE UPDATE row")};
        if (pg)
            expectedTriggers << QStringLiteral("receipts_no_truncate BEFORE TRUNCATE statement");
        expectedTriggers.sort();
        QCOMPARE(triggers, expectedTriggers);
        QCOMPARE(s.table(QStringLiteral("receipts_head"))->checks, QStringList{QStringLiteral("id = 1")});

        const SchemaTable* files = s.table(QStringLiteral("catalog_files"));
        const SchemaIndex* unique = findIndex(*files, {"catalog_version_id", "path"}, true);
        QVERIFY(unique && unique->unique);
        QCOMPARE(files->foreignKeys.size(), size_t(1));
        QCOMPARE(files->foreignKeys[0].columns, QStringList{QStringLiteral("catalog_version_id")});
        QCOMPARE(files->foreignKeys[0].table, QStringLiteral("catalog_versions"));
        QCOMPARE(files->foreignKeys[0].referenced, QStringList{QStringLiteral("id")});
        QCOMPARE(files->foreignKeys[0].onDelete, QStringLiteral("CASCADE"));
        QCOMPARE(files->foreignKeys[0].onUpdate, QStringLiteral("NO ACTION"));
        QCOMPARE(files->column(QStringLiteral("content"))->type, ColumnType::Blob);

        const SchemaIndex* open = findIndex(*s.table(QStringLiteral("run_leftovers")), {"run_id"}, false);
        QVERIFY(open);
        QCOMPARE(open->name, QStringLiteral("run_leftovers_open"));
        QCOMPARE(open->where, QStringLiteral("removed_at is null"));

        const SchemaTable* components = s.table(QStringLiteral("recipe_components"));
        QCOMPARE(components->primaryKey(), QStringList({"recipe_id", "name"}));
        QCOMPARE(components->column(QStringLiteral("recipe_id"))->generation, KeyGeneration::None);
        const SchemaColumn* anchor =
            s.table(QStringLiteral("tuf_trusted_state"))->column(QStringLiteral("anchor_sha256"));
        QCOMPARE(anchor->generation, KeyGeneration::None);
        QVERIFY(anchor->notNull);
        QCOMPARE(s.table(QStringLiteral("run_metrics"))->column(QStringLiteral("value"))->type,
                 ColumnType::Real);
        QCOMPARE(s.table(QStringLiteral("verifications"))->foreignKeys[0].onDelete,
                 QStringLiteral("SET NULL"));
        // Columns added by ALTER TABLE come last, as the engine reports them.
        QCOMPARE(s.table(QStringLiteral("catalog_versions"))->columns.back().name,
                 QStringLiteral("source_path"));

        QCOMPARE(differences(s, s), QStringList());
    }

    // The same changes in each engine's DDL: a column, two triggers (a guard and an UPDATE OF one),
    // an expression index with a partial WHERE, an index dropped.
    void reportsEachDifference() {
        PB_TEST_DATABASE(changedDb, m_tmp.path(), QStringLiteral("changed.sqlite"));
        auto changed = openDb(changedDb.spec());
        QSqlQuery q(changed->sql());
        const std::initializer_list<const char*> sqlite = {
            "ALTER TABLE receipts ADD COLUMN note TEXT",
            "CREATE TRIGGER receipts_no_rewrite BEFORE UPDATE ON receipts "
            "BEGIN SELECT RAISE(ABORT, 'receipts are append-only'); END",
            "CREATE TRIGGER runs_touch AFTER UPDATE OF state, reason ON runs BEGIN SELECT 1; END",
            "CREATE UNIQUE INDEX runs_uid_lower ON runs (lower(run_uid) DESC) WHERE state != 'x'",
            "DROP INDEX recipes_by_digest",
        };
        const std::initializer_list<const char*> postgresql = {
            "ALTER TABLE receipts ADD COLUMN note text",
            "CREATE FUNCTION refuse_edit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION "
            "'receipts are append-only'; END $$",
            "CREATE TRIGGER receipts_no_rewrite BEFORE UPDATE ON receipts FOR EACH ROW EXECUTE FUNCTION "
            "refuse_edit()",
            "CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$",
            "CREATE TRIGGER runs_touch AFTER UPDATE OF state, reason ON runs FOR EACH ROW EXECUTE FUNCTION "
            "touch()",
            "CREATE UNIQUE INDEX runs_uid_lower ON runs (lower(run_uid) DESC) WHERE state != 'x'",
            "DROP INDEX recipes_by_digest",
        };
        for (const char* sql : pbtest::isPostgres(*changed) ? postgresql : sqlite)
            QVERIFY2(q.exec(QString::fromLatin1(sql)), qPrintable(q.lastError().text()));
        const LogicalSchema a = read(*m_plain);
        const LogicalSchema b = read(*changed);
        const QString engine = engineName(b.engine);

        const SchemaTable* runs = b.table(QStringLiteral("runs"));
        QCOMPARE(runs->triggers.size(), size_t(1));
        QCOMPARE(runs->triggers[0].timing, QStringLiteral("AFTER"));
        QCOMPARE(runs->triggers[0].events, QStringList{QStringLiteral("UPDATE OF reason,state")});
        const SchemaIndex* lower = findIndex(*runs, {"lower run_uid desc"}, false);
        QVERIFY(lower && lower->unique);
        QCOMPARE(lower->where, QStringLiteral("state <> 'x'"));

        const QStringList diff = differences(a, b);
        QVERIFY2(
            diff.contains(QStringLiteral("table receipts: column note: only on %1 (second)").arg(engine)),
            qPrintable(diff.join(u'\n')));
        QVERIFY(diff.contains(
            QStringLiteral("table receipts: trigger receipts_no_rewrite: only on %1 (second)").arg(engine)));
        QVERIFY(
            diff.contains(QStringLiteral("table runs: trigger runs_touch: only on %1 (second)").arg(engine)));
        QVERIFY(diff.contains(
            QStringLiteral("table runs: index runs_uid_lower: only on %1 (second)").arg(engine)));
        QVERIFY(diff.contains(
            QStringLiteral("table recipes: index recipes_by_digest: only on %1 (first)").arg(engine)));
        QCOMPARE(diff.size(), 5);
    }

    // Column attributes, on two copies of a SQLite schema (the same in either half).
    void comparesColumnAttributes() {
        auto db = sqliteDb(QStringLiteral("attrs.sqlite"));
        const LogicalSchema a = read(*db);
        LogicalSchema b = a;
        b.engine = Engine::PostgreSQL;
        QCOMPARE(differences(a, b), QStringList());
        auto col = [&](const char* table, const char* column) {
            for (SchemaTable& t : b.tables)
                if (t.name == QLatin1String(table))
                    for (SchemaColumn& c : t.columns)
                        if (c.name == QLatin1String(column))
                            return &c;
            qFatal("no column %s.%s", table, column);
        };
        col("receipts", "seq")->generation = KeyGeneration::IdentityByDefault; // the same: generated
        col("receipts", "kind")->notNull = false;
        col("receipts", "message")->defaultValue = QStringLiteral("'-'");
        col("runs", "started_at")->hasDefault = true;
        col("runs", "started_at")->defaultValue = QStringLiteral("now");
        col("runs", "reason")->defaultIsLiteral = false; // an expression: only its presence counts
        col("runs", "reason")->defaultValue = QStringLiteral("lower ''");
        col("catalog_versions", "id")->generation = KeyGeneration::IdentityAlways;
        col("run_metrics", "value")->type = ColumnType::Integer;
        col("run_metrics", "value")->declaredType = QStringLiteral("bigint");
        const QStringList diff = differences(a, b);
        QCOMPARE(
            diff,
            QStringList({
                "table catalog_versions: column id: generated (rowid alias) on SQLite, generated (identity "
                "ALWAYS: explicit ids refused) on PostgreSQL",
                "table receipts: column kind: NOT NULL on SQLite, nullable on PostgreSQL",
                "table receipts: column message: default '' on SQLite, default '-' on PostgreSQL",
                "table run_metrics: column value: type real (REAL) on SQLite, integer (bigint) on PostgreSQL",
                "table runs: column started_at: no default on SQLite, default now on PostgreSQL",
            }));
    }

    // Issue 31: the migrations of both engines give one logical schema. Every difference is printed.
    void schemasOfBothEnginesAgree() {
        if (!pb::test::onPostgres())
            QSKIP(
                "needs the PostgreSQL test server: runs in the PostgreSQL half (tst_schemainfo.postgresql)");
        auto sqlite = sqliteDb(QStringLiteral("parity.sqlite"));
        const LogicalSchema a = read(*sqlite);
        const LogicalSchema b = read(*m_plain);
        QCOMPARE(a.engine, Engine::SQLite);
        QCOMPARE(b.engine, Engine::PostgreSQL);
        QVERIFY(a.tables.size() >= 30);
        const QStringList diff = differences(a, b);
        for (const QString& line : diff)
            qWarning("%s", qPrintable(line));
        QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("%1 difference(s) between the SQLite and the "
                                                           "PostgreSQL schema:\n%2")
                                                .arg(diff.size())
                                                .arg(diff.join(u'\n'))));
        QCOMPARE(b.tables.size(), a.tables.size());
    }

    // Storage, not logical schema: PostgreSQL keeps the large values (catalog files, canonical
    // recipes, bundles) compressed with lz4 (migration 015); the installed server has lz4.
    void largeValuesUseLz4() {
        if (!pb::test::onPostgres())
            QSKIP("SQLite does not compress values; this is PostgreSQL's storage (migration 015)");
        QSqlQuery q(m_plain->sql());
        QVERIFY(q.exec(QStringLiteral(
            "SELECT c.relname || '.' || a.attname, a.attcompression, a.attstorage FROM pg_attribute a JOIN "
            "pg_class c ON "
            "c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'proofbench' "
            "AND c.relkind = 'r' AND a.atttypid = 'bytea'::regtype AND a.attnum > 0 ORDER BY 1")));
        int columns = 0;
        while (q.next()) {
            // Values compressed before they are stored (run_source_chunks.data, zlib) are kept out of
            // line and never compressed again (STORAGE EXTERNAL, migration 017).
            if (q.value(2).toString() == QStringLiteral("e"))
                continue;
            ++columns;
            QVERIFY2(q.value(1).toString() == QStringLiteral("l"),
                     qPrintable(q.value(0).toString() + QStringLiteral(" is not lz4-compressed")));
        }
        QVERIFY(columns >= 11);
    }

    void normalisesBothEnginesSpellings() {
        // PostgreSQL's pg_get_constraintdef / pg_get_expr against the text SQLite keeps.
        QCOMPARE(
            normaliseExpression(QStringLiteral("(source = ANY (ARRAY['cluster'::text, 'import'::text]))")),
            normaliseExpression(QStringLiteral("source IN ('cluster', 'import')")));
        QCOMPARE(normaliseExpression(QStringLiteral("(state <> ALL (ARRAY['a'::text]))")),
                 normaliseExpression(QStringLiteral("state NOT IN ('a')")));
        QCOMPARE(normaliseExpression(QStringLiteral("(removed_at IS NULL)")),
                 QStringLiteral("removed_at is null"));
        QCOMPARE(normaliseExpression(QStringLiteral("'[]'::text")), QStringLiteral("'[]'"));
        QCOMPARE(normaliseExpression(QStringLiteral("x::character varying(10) != 'It''s'")),
                 QStringLiteral("x <> 'It''s'"));
        QCOMPARE(normaliseExpression(QStringLiteral("\"Id\" == 1 -- one row\n")), QStringLiteral("id = 1"));
        QCOMPARE(normaliseExpression(QStringLiteral("('-1'::integer)")), QStringLiteral("'-1'"));
        QCOMPARE(normaliseExpression(QStringLiteral("(-1)")), QStringLiteral("-1"));
        QCOMPARE(normaliseExpression(QStringLiteral("a - 1")), QStringLiteral("a - 1"));
    }

    void refusesOtherDrivers() {
        QSqlDatabase closed = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("closed"));
        auto r = readSchema(closed);
        QVERIFY(!r);
        QVERIFY(r.error().message.contains(QStringLiteral("not open")));
        closed = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("closed"));
    }
};

QTEST_GUILESS_MAIN(TestSchemaInfo)
#include "tst_schemainfo.moc"
