// db::readSchema on a migrated SQLite database (known facts of the final schema) and
// db::differences: equal schemas give nothing, each kind of change gives its line. The comparison
// with PostgreSQL needs a server and lives with the engine tests that start one.
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

    std::unique_ptr<Database> freshDb(const QString& name) {
        auto db = Database::open(m_tmp.filePath(name));
        if (!db)
            qFatal("%s", qPrintable(db.error().toString()));
        return std::move(*db);
    }

    LogicalSchema read(Database& db) {
        auto schema = readSchema(db.sql());
        if (!schema)
            qFatal("%s", qPrintable(schema.error().toString()));
        return std::move(*schema);
    }

  private slots:
    void readsTheMigratedSqliteSchema() {
        auto db = freshDb(QStringLiteral("schema.sqlite"));
        const LogicalSchema s = read(*db);
        QCOMPARE(s.engine, Engine::SQLite);
        QVERIFY(s.tables.size() >= 30);
        QVERIFY(!s.table(QStringLiteral("sqlite_sequence")));

        const SchemaTable* receipts = s.table(QStringLiteral("receipts"));
        QVERIFY(receipts);
        QCOMPARE(columnNames(*receipts),
                 QStringList({"seq", "kind", "created_at", "version", "parameters", "inputs", "outputs",
                              "result", "message", "prev_hash", "hash"}));
        const SchemaColumn* seq = receipts->column(QStringLiteral("seq"));
        QCOMPARE(seq->type, ColumnType::Integer);
        QCOMPARE(seq->primaryKeyPosition, 1);
        QCOMPARE(seq->generation, KeyGeneration::RowId);
        QVERIFY(seq->notNull); // a primary key counts as NOT NULL although SQLite reports 0
        const SchemaColumn* parameters = receipts->column(QStringLiteral("parameters"));
        QVERIFY(parameters->hasDefault && parameters->defaultIsLiteral);
        QCOMPARE(parameters->defaultValue, QStringLiteral("'{}'"));
        QCOMPARE(receipts->checks, QStringList{QStringLiteral("result in 'ok' , 'failed' , 'partial'")});
        const SchemaIndex* kind = findIndex(*receipts, {"kind", "created_at"}, false);
        QVERIFY(kind);
        QCOMPARE(kind->name, QStringLiteral("receipts_kind"));
        QVERIFY(!kind->unique);
        QVERIFY(receipts->triggers.empty()); // the chain is verified, not guarded by triggers
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

    void reportsEachDifference() {
        auto plain = freshDb(QStringLiteral("plain.sqlite"));
        auto changed = freshDb(QStringLiteral("changed.sqlite"));
        QSqlQuery q(changed->sql());
        for (const char* sql : {
                 "ALTER TABLE receipts ADD COLUMN note TEXT",
                 "CREATE TRIGGER receipts_no_update BEFORE UPDATE ON receipts "
                 "BEGIN SELECT RAISE(ABORT, 'receipts are append-only'); END",
                 "CREATE TRIGGER runs_touch AFTER UPDATE OF state, reason ON runs BEGIN SELECT 1; END",
                 "CREATE UNIQUE INDEX runs_uid_lower ON runs (lower(run_uid) DESC) WHERE state != 'x'",
                 "DROP INDEX recipes_by_digest",
             })
            QVERIFY2(q.exec(QString::fromLatin1(sql)), qPrintable(q.lastError().text()));
        const LogicalSchema a = read(*plain);
        const LogicalSchema b = read(*changed);

        const SchemaTable* runs = b.table(QStringLiteral("runs"));
        QCOMPARE(runs->triggers.size(), size_t(1));
        QCOMPARE(runs->triggers[0].timing, QStringLiteral("AFTER"));
        QCOMPARE(runs->triggers[0].events, QStringList{QStringLiteral("UPDATE OF reason,state")});
        const SchemaIndex* lower = findIndex(*runs, {"lower run_uid desc"}, false);
        QVERIFY(lower && lower->unique);
        QCOMPARE(lower->where, QStringLiteral("state <> 'x'"));

        const QStringList diff = differences(a, b);
        QVERIFY2(diff.contains(QStringLiteral("table receipts: column note: only on SQLite (second)")),
                 qPrintable(diff.join(u'\n')));
        QVERIFY(diff.contains(
            QStringLiteral("table receipts: trigger receipts_no_update: only on SQLite (second)")));
        QVERIFY(diff.contains(QStringLiteral("table runs: trigger runs_touch: only on SQLite (second)")));
        QVERIFY(diff.contains(QStringLiteral("table runs: index runs_uid_lower: only on SQLite (second)")));
        QVERIFY(
            diff.contains(QStringLiteral("table recipes: index recipes_by_digest: only on SQLite (first)")));
        QCOMPARE(diff.size(), 5);
    }

    void comparesColumnAttributes() {
        auto db = freshDb(QStringLiteral("attrs.sqlite"));
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
