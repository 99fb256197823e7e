#include "db/SchemaInfo.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QVariant>

#include <algorithm>
#include <map>
#include <tuple>

namespace pb::db {

namespace {

// ---- A small SQL tokenizer: enough for CHECK bodies, index terms, WHERE clauses, defaults and
// trigger headers as either engine prints them. Not a parser.

struct Token {
    enum Kind { Word, Quoted, String, Number, Punct } kind;
    QString text; // Quoted: the identifier without its quotes; String: with its quotes
};

bool isWordStart(QChar c) {
    return c.isLetter() || c == QLatin1Char('_');
}
bool isWordChar(QChar c) {
    return c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('$');
}

std::vector<Token> tokenize(const QString& s) {
    std::vector<Token> out;
    const qsizetype n = s.size();
    qsizetype i = 0;
    while (i < n) {
        const QChar c = s[i];
        if (c.isSpace()) {
            ++i;
        } else if (c == QLatin1Char('-') && i + 1 < n && s[i + 1] == QLatin1Char('-')) {
            while (i < n && s[i] != QLatin1Char('\n'))
                ++i;
        } else if (c == QLatin1Char('/') && i + 1 < n && s[i + 1] == QLatin1Char('*')) {
            const qsizetype end = s.indexOf(QLatin1String("*/"), i + 2);
            i = end < 0 ? n : end + 2;
        } else if (c == QLatin1Char('\'')) {
            qsizetype j = i + 1;
            while (j < n) {
                if (s[j] == QLatin1Char('\'')) {
                    if (j + 1 < n && s[j + 1] == QLatin1Char('\'')) {
                        j += 2;
                        continue;
                    }
                    break;
                }
                ++j;
            }
            out.push_back({Token::String, s.mid(i, std::min(j, n - 1) - i + 1)});
            i = j + 1;
        } else if (c == QLatin1Char('"') || c == QLatin1Char('`')) {
            const qsizetype end = s.indexOf(c, i + 1);
            const qsizetype stop = end < 0 ? n : end;
            out.push_back({Token::Quoted, s.mid(i + 1, stop - i - 1)});
            i = stop + 1;
        } else if (c.isDigit() || (c == QLatin1Char('.') && i + 1 < n && s[i + 1].isDigit())) {
            qsizetype j = i;
            while (j < n && (s[j].isLetterOrNumber() || s[j] == QLatin1Char('.') ||
                             ((s[j] == QLatin1Char('+') || s[j] == QLatin1Char('-')) &&
                              (s[j - 1] == QLatin1Char('e') || s[j - 1] == QLatin1Char('E')))))
                ++j;
            out.push_back({Token::Number, s.mid(i, j - i)});
            i = j;
        } else if (isWordStart(c)) {
            qsizetype j = i;
            while (j < n && isWordChar(s[j]))
                ++j;
            out.push_back({Token::Word, s.mid(i, j - i)});
            i = j;
        } else {
            static const char* const ops[] = {"->>", "::", "<>", "!=", "<=", ">=", "==", "||", "->"};
            qsizetype len = 1;
            for (const char* op : ops) {
                const QLatin1String o(op);
                if (QStringView(s).mid(i).startsWith(o)) {
                    len = o.size();
                    break;
                }
            }
            out.push_back({Token::Punct, s.mid(i, len)});
            i += len;
        }
    }
    return out;
}

bool isWord(const Token& t, const char* word) {
    return t.kind == Token::Word && t.text.compare(QLatin1String(word), Qt::CaseInsensitive) == 0;
}
bool isPunct(const Token& t, const char* p) {
    return t.kind == Token::Punct && t.text == QLatin1String(p);
}

// Index of the ")" that closes the "(" at `open`, or tokens.size() when unbalanced.
size_t closingParen(const std::vector<Token>& t, size_t open) {
    int depth = 0;
    for (size_t i = open; i < t.size(); ++i) {
        if (isPunct(t[i], "("))
            ++depth;
        else if (isPunct(t[i], ")") && --depth == 0)
            return i;
    }
    return t.size();
}

// The normalisation rules of SchemaInfo.h, on tokens.
std::vector<Token> normaliseTokens(const std::vector<Token>& in) {
    static const QStringList typeWords = {QStringLiteral("precision"), QStringLiteral("varying"),
                                          QStringLiteral("with"),      QStringLiteral("without"),
                                          QStringLiteral("time"),      QStringLiteral("zone")};
    // Casts and parentheses out, words and quoted names in lower case, == and != spelled one way.
    std::vector<Token> t;
    for (size_t i = 0; i < in.size(); ++i) {
        const Token& tok = in[i];
        if (isPunct(tok, "::")) {
            size_t j = i + 1;
            if (j < in.size() && (in[j].kind == Token::Word || in[j].kind == Token::Quoted))
                ++j;
            while (j < in.size() && in[j].kind == Token::Word &&
                   typeWords.contains(in[j].text, Qt::CaseInsensitive))
                ++j;
            if (j < in.size() && isPunct(in[j], "("))
                j = closingParen(in, j) + 1;
            while (j + 1 < in.size() && isPunct(in[j], "[") && isPunct(in[j + 1], "]"))
                j += 2;
            i = j - 1;
            continue;
        }
        if (isPunct(tok, "(") || isPunct(tok, ")") || isPunct(tok, ";"))
            continue;
        Token copy = tok;
        if (copy.kind == Token::Word || copy.kind == Token::Quoted) {
            copy.kind = Token::Word;
            copy.text = copy.text.toLower();
        } else if (isPunct(copy, "==")) {
            copy.text = QStringLiteral("=");
        } else if (isPunct(copy, "!=")) {
            copy.text = QStringLiteral("<>");
        } else if ((isPunct(copy, "-") || isPunct(copy, "+")) && i + 1 < in.size() &&
                   in[i + 1].kind == Token::Number && (t.empty() || t.back().kind == Token::Punct)) {
            // A signed number literal: "-1", not "- 1".
            t.push_back(
                {Token::Number, (copy.text == QLatin1String("-") ? copy.text : QString()) + in[i + 1].text});
            ++i;
            continue;
        }
        t.push_back(copy);
    }
    // x = ANY (ARRAY[a, b]) is PostgreSQL's spelling of x IN (a, b); x <> ALL (ARRAY[…]) of NOT IN.
    std::vector<Token> out;
    int bracketDepth = 0;
    std::vector<int> dropAt;
    for (size_t i = 0; i < t.size(); ++i) {
        const bool anyArray = i + 3 < t.size() && isPunct(t[i], "=") && isWord(t[i + 1], "any") &&
                              isWord(t[i + 2], "array") && isPunct(t[i + 3], "[");
        const bool allArray = i + 3 < t.size() && isPunct(t[i], "<>") && isWord(t[i + 1], "all") &&
                              isWord(t[i + 2], "array") && isPunct(t[i + 3], "[");
        if (anyArray || allArray) {
            if (allArray)
                out.push_back({Token::Word, QStringLiteral("not")});
            out.push_back({Token::Word, QStringLiteral("in")});
            ++bracketDepth;
            dropAt.push_back(bracketDepth);
            i += 3;
            continue;
        }
        if (isPunct(t[i], "[")) {
            ++bracketDepth;
        } else if (isPunct(t[i], "]")) {
            const bool drop = !dropAt.empty() && dropAt.back() == bracketDepth;
            --bracketDepth;
            if (drop) {
                dropAt.pop_back();
                continue;
            }
        }
        out.push_back(t[i]);
    }
    return out;
}

QString joinTokens(const std::vector<Token>& t) {
    QStringList parts;
    for (const Token& tok : t)
        parts << tok.text;
    return parts.join(QLatin1Char(' '));
}

std::vector<Token> slice(const std::vector<Token>& t, size_t from, size_t to) {
    to = std::min(to, t.size());
    return from < to ? std::vector<Token>(t.begin() + qsizetype(from), t.begin() + qsizetype(to))
                     : std::vector<Token>();
}

// A number in one spelling: "1", "-1", "0.5".
QString canonicalNumber(const QString& s, bool* ok) {
    bool isInt = false;
    const qlonglong v = s.toLongLong(&isInt);
    if (isInt) {
        *ok = true;
        return QString::number(v);
    }
    const double d = s.toDouble(ok);
    return *ok ? QString::number(d, 'g', 17) : s;
}

void readDefault(SchemaColumn& col, const QString& raw) {
    const std::vector<Token> t = normaliseTokens(tokenize(raw));
    if (t.empty() || (t.size() == 1 && isWord(t[0], "null")))
        return;
    col.hasDefault = true;
    if (t.size() == 1 && (t[0].kind == Token::String || t[0].kind == Token::Number)) {
        col.defaultIsLiteral = true;
        QString v = t[0].text;
        bool ok = false;
        if (t[0].kind == Token::Number) {
            v = canonicalNumber(v, &ok);
        } else if (col.type == ColumnType::Integer || col.type == ColumnType::Real) {
            const QString number = canonicalNumber(v.mid(1, v.size() - 2), &ok);
            if (ok)
                v = number;
        }
        col.defaultValue = v;
        return;
    }
    col.defaultValue = joinTokens(t);
}

ColumnType sqliteAffinity(const QString& declared) {
    const QString t = declared.toUpper();
    if (t.contains(QLatin1String("INT")))
        return ColumnType::Integer;
    if (t.contains(QLatin1String("CHAR")) || t.contains(QLatin1String("CLOB")) ||
        t.contains(QLatin1String("TEXT")))
        return ColumnType::Text;
    if (t.contains(QLatin1String("BLOB")) || t.trimmed().isEmpty())
        return ColumnType::Blob;
    if (t.contains(QLatin1String("REAL")) || t.contains(QLatin1String("FLOA")) ||
        t.contains(QLatin1String("DOUB")))
        return ColumnType::Real;
    return ColumnType::Other;
}

ColumnType postgresType(const QString& formatted) {
    const QString t = formatted.toLower();
    if (t == QLatin1String("bigint") || t == QLatin1String("integer") || t == QLatin1String("smallint"))
        return ColumnType::Integer;
    if (t == QLatin1String("text") || t.startsWith(QLatin1String("character")))
        return ColumnType::Text;
    if (t == QLatin1String("bytea"))
        return ColumnType::Blob;
    if (t == QLatin1String("double precision") || t == QLatin1String("real"))
        return ColumnType::Real;
    return ColumnType::Other;
}

using Rows = std::vector<QVariantList>;

Result<Rows> select(QSqlDatabase& db, const QString& sql, const QVariantList& binds = {}) {
    QSqlQuery q(db);
    q.setForwardOnly(true);
    bool ok = q.prepare(sql);
    if (ok) {
        for (const QVariant& b : binds)
            q.addBindValue(b);
        ok = q.exec();
    }
    if (!ok)
        return makeError(QStringLiteral("cannot read the schema: %1").arg(q.lastError().text()));
    Rows out;
    const int columns = q.record().count();
    while (q.next()) {
        QVariantList row;
        row.reserve(columns);
        for (int i = 0; i < columns; ++i)
            row << q.value(i);
        out.push_back(std::move(row));
    }
    return out;
}

void sortTable(SchemaTable& t) {
    std::sort(t.indexes.begin(), t.indexes.end(), [](const SchemaIndex& a, const SchemaIndex& b) {
        if (a.constraint != b.constraint)
            return a.constraint;
        if (a.constraint)
            return std::tie(a.keys, a.where) < std::tie(b.keys, b.where);
        return a.name < b.name;
    });
    std::sort(
        t.foreignKeys.begin(), t.foreignKeys.end(), [](const SchemaForeignKey& a, const SchemaForeignKey& b) {
            return std::tie(a.columns, a.table, a.referenced) < std::tie(b.columns, b.table, b.referenced);
        });
    t.checks.sort();
    std::sort(t.triggers.begin(), t.triggers.end(),
              [](const SchemaTrigger& a, const SchemaTrigger& b) { return a.name < b.name; });
}

bool isBookkeeping(const QString& table) {
    return table == QLatin1String("schema_version");
}

// ---- SQLite

// The CHECK bodies of a CREATE TABLE statement, normalised.
QStringList sqliteChecks(const std::vector<Token>& t) {
    QStringList out;
    for (size_t i = 0; i + 1 < t.size(); ++i) {
        if (isWord(t[i], "check") && isPunct(t[i + 1], "(")) {
            const size_t close = closingParen(t, i + 1);
            out << joinTokens(normaliseTokens(slice(t, i + 2, close)));
            i = close;
        }
    }
    return out;
}

struct SqliteIndexSql {
    std::vector<std::vector<Token>> terms; // one per key, ASC/DESC/COLLATE removed
    QString where;
};

SqliteIndexSql parseSqliteIndex(const QString& sql) {
    SqliteIndexSql out;
    const std::vector<Token> t = tokenize(sql);
    size_t i = 0;
    while (i < t.size() && !isWord(t[i], "on"))
        ++i;
    while (i < t.size() && !isPunct(t[i], "("))
        ++i;
    const size_t close = closingParen(t, i);
    std::vector<Token> term;
    int depth = 0;
    auto finish = [&] {
        while (!term.empty() && (isWord(term.back(), "asc") || isWord(term.back(), "desc")))
            term.pop_back();
        for (size_t k = 0; k + 1 < term.size(); ++k)
            if (isWord(term[k], "collate")) {
                term.resize(k);
                break;
            }
        out.terms.push_back(term);
        term.clear();
    };
    for (size_t k = i + 1; k < close; ++k) {
        if (isPunct(t[k], "("))
            ++depth;
        else if (isPunct(t[k], ")"))
            --depth;
        if (depth == 0 && isPunct(t[k], ",")) {
            finish();
            continue;
        }
        term.push_back(t[k]);
    }
    if (close < t.size())
        finish();
    if (close + 1 < t.size() && isWord(t[close + 1], "where"))
        out.where = joinTokens(normaliseTokens(slice(t, close + 2, t.size())));
    return out;
}

// "CREATE [TEMP] TRIGGER [IF NOT EXISTS] name [BEFORE|AFTER|INSTEAD OF] event ON table …"
SchemaTrigger parseSqliteTrigger(const QString& name, const QString& sql) {
    SchemaTrigger tr;
    tr.name = name.toLower();
    tr.timing = QStringLiteral("BEFORE"); // SQLite's default
    const std::vector<Token> t = tokenize(sql);
    size_t i = 0;
    while (i < t.size() && !isWord(t[i], "trigger"))
        ++i;
    for (++i; i < t.size() && !isWord(t[i], "on"); ++i) {
        if (isWord(t[i], "before"))
            tr.timing = QStringLiteral("BEFORE");
        else if (isWord(t[i], "after"))
            tr.timing = QStringLiteral("AFTER");
        else if (isWord(t[i], "instead"))
            tr.timing = QStringLiteral("INSTEAD OF");
        else if (isWord(t[i], "insert"))
            tr.events << QStringLiteral("INSERT");
        else if (isWord(t[i], "delete"))
            tr.events << QStringLiteral("DELETE");
        else if (isWord(t[i], "update")) {
            QStringList cols;
            if (i + 1 < t.size() && isWord(t[i + 1], "of")) {
                for (i += 2; i < t.size() && !isWord(t[i], "on"); ++i)
                    if (t[i].kind == Token::Word || t[i].kind == Token::Quoted)
                        cols << t[i].text.toLower();
                --i;
            }
            cols.sort();
            tr.events << (cols.isEmpty() ? QStringLiteral("UPDATE")
                                         : QStringLiteral("UPDATE OF ") + cols.join(u','));
        }
    }
    tr.events.sort();
    tr.forEachRow = true; // SQLite has row triggers only
    return tr;
}

Result<LogicalSchema> readSqlite(QSqlDatabase& db) {
    LogicalSchema schema;
    schema.engine = Engine::SQLite;
    auto tables = select(db, QStringLiteral("SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                                            "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"));
    if (!tables)
        return tables.error();
    struct PendingKey {
        size_t table, key;
    };
    std::vector<PendingKey> implicitReferences; // REFERENCES t without columns: t's primary key
    for (const QVariantList& row : *tables) {
        const QString name = row[0].toString();
        if (isBookkeeping(name.toLower()))
            continue;
        SchemaTable table;
        table.name = name.toLower();
        const std::vector<Token> ddl = tokenize(row[1].toString());

        auto indexList = select(
            db, QStringLiteral("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)"), {name});
        if (!indexList)
            return indexList.error();
        const bool pkIndex = std::any_of(indexList->begin(), indexList->end(), [](const QVariantList& r) {
            return r[2].toString() == QLatin1String("pk");
        });
        const bool autoIncrement =
            std::any_of(ddl.begin(), ddl.end(), [](const Token& t) { return isWord(t, "autoincrement"); });

        auto cols =
            select(db,
                   QStringLiteral("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) "
                                  "ORDER BY cid"),
                   {name});
        if (!cols)
            return cols.error();
        const auto keyColumns =
            std::count_if(cols->begin(), cols->end(), [](const QVariantList& r) { return r[4].toInt() > 0; });
        for (const QVariantList& c : *cols) {
            SchemaColumn col;
            col.name = c[0].toString().toLower();
            col.declaredType = c[1].toString();
            col.type = sqliteAffinity(col.declaredType);
            col.primaryKeyPosition = c[4].toInt();
            col.notNull = c[2].toInt() != 0 || col.primaryKeyPosition > 0;
            if (!c[3].isNull())
                readDefault(col, c[3].toString());
            if (keyColumns == 1 && col.primaryKeyPosition == 1 && !pkIndex &&
                col.declaredType.trimmed().compare(QLatin1String("INTEGER"), Qt::CaseInsensitive) == 0)
                col.generation = autoIncrement ? KeyGeneration::AutoIncrement : KeyGeneration::RowId;
            table.columns.push_back(col);
        }

        for (const QVariantList& ix : *indexList) {
            const QString origin = ix[2].toString();
            if (origin == QLatin1String("pk"))
                continue;
            const QString ixName = ix[0].toString();
            SchemaIndex index;
            index.name = ixName.toLower();
            index.unique = ix[1].toInt() != 0;
            index.constraint = origin == QLatin1String("u");
            auto keys =
                select(db,
                       QStringLiteral("SELECT cid, name, \"desc\" FROM pragma_index_xinfo(?) WHERE key = 1 "
                                      "ORDER BY seqno"),
                       {ixName});
            if (!keys)
                return keys.error();
            auto sql =
                select(db, QStringLiteral("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?"),
                       {ixName});
            if (!sql)
                return sql.error();
            const SqliteIndexSql parsed = sql->empty() || sql->front()[0].isNull()
                                              ? SqliteIndexSql{}
                                              : parseSqliteIndex(sql->front()[0].toString());
            for (size_t k = 0; k < keys->size(); ++k) {
                const QVariantList& key = (*keys)[k];
                const int cid = key[0].toInt();
                QString term = cid >= 0 ? key[1].toString().toLower() : QStringLiteral("rowid");
                if (cid == -2)
                    term = k < parsed.terms.size() ? joinTokens(normaliseTokens(parsed.terms[k]))
                                                   : QStringLiteral("?");
                if (key[2].toInt() != 0)
                    term += QLatin1String(" desc");
                index.keys << term;
            }
            if (ix[3].toInt() != 0)
                index.where = parsed.where;
            table.indexes.push_back(index);
        }

        auto fks = select(db,
                          QStringLiteral("SELECT id, \"table\", \"from\", \"to\", on_update, on_delete "
                                         "FROM pragma_foreign_key_list(?) ORDER BY id, seq"),
                          {name});
        if (!fks)
            return fks.error();
        int currentId = -1;
        bool implicit = false;
        for (const QVariantList& f : *fks) {
            if (f[0].toInt() != currentId) {
                if (implicit)
                    implicitReferences.push_back({schema.tables.size(), table.foreignKeys.size() - 1});
                currentId = f[0].toInt();
                implicit = false;
                SchemaForeignKey key;
                key.table = f[1].toString().toLower();
                key.onUpdate = f[4].toString().toUpper();
                key.onDelete = f[5].toString().toUpper();
                table.foreignKeys.push_back(key);
            }
            table.foreignKeys.back().columns << f[2].toString().toLower();
            if (f[3].isNull())
                implicit = true;
            else
                table.foreignKeys.back().referenced << f[3].toString().toLower();
        }
        if (implicit)
            implicitReferences.push_back({schema.tables.size(), table.foreignKeys.size() - 1});

        table.checks = sqliteChecks(ddl);

        auto triggers = select(
            db,
            QStringLiteral(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY name"),
            {name});
        if (!triggers)
            return triggers.error();
        for (const QVariantList& tr : *triggers)
            table.triggers.push_back(parseSqliteTrigger(tr[0].toString(), tr[1].toString()));

        schema.tables.push_back(std::move(table));
    }
    for (const PendingKey& p : implicitReferences) {
        SchemaForeignKey& key = schema.tables[p.table].foreignKeys[p.key];
        if (const SchemaTable* target = schema.table(key.table))
            key.referenced = target->primaryKey();
    }
    for (SchemaTable& t : schema.tables)
        sortTable(t);
    return schema;
}

// ---- PostgreSQL

QString actionName(const QString& code) {
    if (code == QLatin1String("r"))
        return QStringLiteral("RESTRICT");
    if (code == QLatin1String("c"))
        return QStringLiteral("CASCADE");
    if (code == QLatin1String("n"))
        return QStringLiteral("SET NULL");
    if (code == QLatin1String("d"))
        return QStringLiteral("SET DEFAULT");
    return QStringLiteral("NO ACTION"); // 'a'
}

Result<LogicalSchema> readPostgres(QSqlDatabase& db) {
    LogicalSchema schema;
    schema.engine = Engine::PostgreSQL;
    // Every query is read to its end before the next runs (QPSQL drops a forward-only query's
    // remaining rows when another statement runs on the connection), and is one statement.
    const QString inSchema = QStringLiteral("n.nspname = '%1'").arg(postgresSchemaName());
    std::map<QString, SchemaTable> tables;

    auto rel = select(
        db, QStringLiteral("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                           "WHERE %1 AND c.relkind IN ('r', 'p')")
                .arg(inSchema));
    if (!rel)
        return rel.error();
    for (const QVariantList& r : *rel) {
        const QString name = r[0].toString();
        if (!isBookkeeping(name))
            tables[name].name = name;
    }
    auto tableOf = [&](const QVariant& v) -> SchemaTable* {
        const auto it = tables.find(v.toString());
        return it == tables.end() ? nullptr : &it->second;
    };

    auto cols = select(
        db, QStringLiteral("SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, "
                           "a.attidentity::text, pg_get_expr(d.adbin, d.adrelid) "
                           "FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
                           "JOIN pg_namespace n ON n.oid = c.relnamespace "
                           "LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
                           "WHERE %1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped "
                           "ORDER BY c.relname, a.attnum")
                .arg(inSchema));
    if (!cols)
        return cols.error();
    for (const QVariantList& c : *cols) {
        SchemaTable* t = tableOf(c[0]);
        if (!t)
            continue;
        SchemaColumn col;
        col.name = c[1].toString();
        col.declaredType = c[2].toString();
        col.type = postgresType(col.declaredType);
        col.notNull = c[3].toBool();
        const QString identity = c[4].toString();
        if (identity == QLatin1String("a"))
            col.generation = KeyGeneration::IdentityAlways;
        else if (identity == QLatin1String("d"))
            col.generation = KeyGeneration::IdentityByDefault;
        const QString dflt = c[5].toString();
        if (dflt.startsWith(QLatin1String("nextval(")))
            col.generation = KeyGeneration::Sequence;
        else if (!c[5].isNull())
            readDefault(col, dflt);
        t->columns.push_back(col);
    }

    auto pk =
        select(db, QStringLiteral("SELECT c.relname, a.attname, k.n FROM pg_constraint con "
                                  "JOIN pg_class c ON c.oid = con.conrelid "
                                  "JOIN pg_namespace n ON n.oid = c.relnamespace "
                                  "CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, n) "
                                  "JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum "
                                  "WHERE %1 AND con.contype = 'p'")
                       .arg(inSchema));
    if (!pk)
        return pk.error();
    for (const QVariantList& p : *pk) {
        if (SchemaTable* t = tableOf(p[0]))
            for (SchemaColumn& col : t->columns)
                if (col.name == p[1].toString())
                    col.primaryKeyPosition = p[2].toInt();
    }

    auto ix = select(
        db, QStringLiteral(
                "SELECT c.relname, ic.relname, i.indisunique, coalesce(con.contype::text, ''), "
                "pg_get_expr(i.indpred, i.indrelid, true), k.attnum, a.attname, "
                "pg_get_indexdef(i.indexrelid, k.n::int, true), (i.indoption[(k.n - 1)::int] & 1) = 1 "
                "FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "JOIN pg_class ic ON ic.oid = i.indexrelid "
                "LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid "
                "AND con.contype IN ('p', 'u', 'x') "
                "CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n) "
                "LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum "
                "WHERE %1 AND k.n <= i.indnkeyatts "
                "ORDER BY c.relname, ic.relname, k.n")
                .arg(inSchema));
    if (!ix)
        return ix.error();
    {
        SchemaIndex current;
        SchemaTable* owner = nullptr;
        bool skip = false;
        auto flush = [&] {
            if (owner && !skip)
                owner->indexes.push_back(current);
        };
        for (const QVariantList& r : *ix) {
            if (!owner || owner->name != r[0].toString() || current.name != r[1].toString()) {
                flush();
                owner = tableOf(r[0]);
                current = SchemaIndex{};
                current.name = r[1].toString();
                current.unique = r[2].toBool();
                const QString contype = r[3].toString();
                skip = contype == QLatin1String("p");
                current.constraint = contype == QLatin1String("u");
                if (!r[4].isNull())
                    current.where = normaliseExpression(r[4].toString());
            }
            QString key = r[5].toInt() != 0 ? r[6].toString() : normaliseExpression(r[7].toString());
            if (r[8].toBool())
                key += QLatin1String(" desc");
            current.keys << key;
        }
        flush();
    }

    auto fk = select(
        db, QStringLiteral("SELECT c.relname, con.conname, rc.relname, a.attname, ra.attname, "
                           "con.confupdtype::text, con.confdeltype::text "
                           "FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid "
                           "JOIN pg_namespace n ON n.oid = c.relnamespace "
                           "JOIN pg_class rc ON rc.oid = con.confrelid "
                           "CROSS JOIN LATERAL unnest(con.conkey, con.confkey) "
                           "WITH ORDINALITY AS k(attnum, refnum, n) "
                           "JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum "
                           "JOIN pg_attribute ra ON ra.attrelid = con.confrelid AND ra.attnum = k.refnum "
                           "WHERE %1 AND con.contype = 'f' ORDER BY c.relname, con.conname, k.n")
                .arg(inSchema));
    if (!fk)
        return fk.error();
    {
        QString currentKey;
        for (const QVariantList& r : *fk) {
            SchemaTable* t = tableOf(r[0]);
            if (!t)
                continue;
            const QString id = r[0].toString() + QLatin1Char('.') + r[1].toString();
            if (id != currentKey) {
                currentKey = id;
                SchemaForeignKey key;
                key.table = r[2].toString();
                key.onUpdate = actionName(r[5].toString());
                key.onDelete = actionName(r[6].toString());
                t->foreignKeys.push_back(key);
            }
            t->foreignKeys.back().columns << r[3].toString();
            t->foreignKeys.back().referenced << r[4].toString();
        }
    }

    auto checks = select(
        db, QStringLiteral("SELECT c.relname, pg_get_constraintdef(con.oid, true) FROM pg_constraint con "
                           "JOIN pg_class c ON c.oid = con.conrelid "
                           "JOIN pg_namespace n ON n.oid = c.relnamespace "
                           "WHERE %1 AND con.contype = 'c'")
                .arg(inSchema));
    if (!checks)
        return checks.error();
    for (const QVariantList& r : *checks) {
        SchemaTable* t = tableOf(r[0]);
        if (!t)
            continue;
        std::vector<Token> tok = tokenize(r[1].toString()); // "CHECK (…)" [NOT VALID]
        if (!tok.empty() && isWord(tok.front(), "check"))
            tok.erase(tok.begin());
        if (tok.size() >= 2 && isWord(tok.back(), "valid") && isWord(tok[tok.size() - 2], "not"))
            tok.resize(tok.size() - 2);
        t->checks << joinTokens(normaliseTokens(tok));
    }

    auto triggers = select(db, QStringLiteral("SELECT c.relname, t.tgname, t.tgtype, "
                                              "(SELECT string_agg(a.attname, ',' ORDER BY a.attname) "
                                              " FROM pg_attribute a WHERE a.attrelid = t.tgrelid "
                                              " AND a.attnum = ANY (t.tgattr::int2[])) "
                                              "FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                                              "JOIN pg_namespace n ON n.oid = c.relnamespace "
                                              "WHERE %1 AND NOT t.tgisinternal")
                                   .arg(inSchema));
    if (!triggers)
        return triggers.error();
    for (const QVariantList& r : *triggers) {
        SchemaTable* t = tableOf(r[0]);
        if (!t)
            continue;
        const int type = r[2].toInt();
        SchemaTrigger tr;
        tr.name = r[1].toString();
        tr.forEachRow = (type & 1) != 0;
        tr.timing = (type & 64)  ? QStringLiteral("INSTEAD OF")
                    : (type & 2) ? QStringLiteral("BEFORE")
                                 : QStringLiteral("AFTER");
        if (type & 4)
            tr.events << QStringLiteral("INSERT");
        if (type & 8)
            tr.events << QStringLiteral("DELETE");
        if (type & 16)
            tr.events << (r[3].toString().isEmpty() ? QStringLiteral("UPDATE")
                                                    : QStringLiteral("UPDATE OF ") + r[3].toString());
        if (type & 32)
            tr.events << QStringLiteral("TRUNCATE");
        tr.events.sort();
        t->triggers.push_back(tr);
    }

    for (auto& [name, table] : tables) {
        sortTable(table);
        schema.tables.push_back(std::move(table));
    }
    return schema;
}

// ---- differences

QString generationName(KeyGeneration g) {
    switch (g) {
    case KeyGeneration::None:
        return QStringLiteral("not generated");
    case KeyGeneration::RowId:
        return QStringLiteral("generated (rowid alias)");
    case KeyGeneration::AutoIncrement:
        return QStringLiteral("generated (AUTOINCREMENT)");
    case KeyGeneration::IdentityByDefault:
        return QStringLiteral("generated (identity BY DEFAULT)");
    case KeyGeneration::IdentityAlways:
        return QStringLiteral("generated (identity ALWAYS: explicit ids refused)");
    case KeyGeneration::Sequence:
        return QStringLiteral("generated (sequence default)");
    }
    return {};
}

QString describeDefault(const SchemaColumn& c) {
    if (!c.hasDefault)
        return QStringLiteral("no default");
    return QStringLiteral("default %1").arg(c.defaultValue);
}

QString describeIndex(const SchemaIndex& i) {
    QString s = i.constraint ? QStringLiteral("UNIQUE (%1)").arg(i.keys.join(QLatin1String(", ")))
                             : QStringLiteral("index %1").arg(i.name);
    if (i.constraint && !i.where.isEmpty())
        s += QStringLiteral(" WHERE ") + i.where;
    return s;
}

QString indexKey(const SchemaIndex& i) {
    return i.constraint ? QStringLiteral("u:") + i.keys.join(u',') + QLatin1Char('|') + i.where
                        : QStringLiteral("i:") + i.name;
}

QString describeKey(const SchemaForeignKey& k) {
    return QStringLiteral("FOREIGN KEY (%1) REFERENCES %2(%3)")
        .arg(k.columns.join(QLatin1String(", ")), k.table, k.referenced.join(QLatin1String(", ")));
}

bool truncateOnly(const SchemaTrigger& t) {
    return !t.forEachRow && t.events == QStringList{QStringLiteral("TRUNCATE")};
}

void diffColumns(const SchemaTable& ta, const SchemaTable& tb, const QString& la, const QString& lb,
                 const QString& prefix, QStringList& out) {
    QStringList na, nb;
    for (const SchemaColumn& c : ta.columns)
        na << c.name;
    for (const SchemaColumn& c : tb.columns)
        nb << c.name;
    for (const QString& n : na)
        if (!nb.contains(n))
            out << QStringLiteral("%1column %2: only on %3").arg(prefix, n, la);
    for (const QString& n : nb)
        if (!na.contains(n))
            out << QStringLiteral("%1column %2: only on %3").arg(prefix, n, lb);
    QStringList commonA, commonB;
    for (const QString& n : na)
        if (nb.contains(n))
            commonA << n;
    for (const QString& n : nb)
        if (na.contains(n))
            commonB << n;
    if (commonA != commonB)
        out << QStringLiteral("%1columns in another order: %2 on %3, %4 on %5")
                   .arg(prefix, commonA.join(QLatin1String(", ")), la, commonB.join(QLatin1String(", ")), lb);
    for (const QString& n : commonA) {
        const SchemaColumn& a = *ta.column(n);
        const SchemaColumn& b = *tb.column(n);
        const QString p = QStringLiteral("%1column %2: ").arg(prefix, n);
        if (a.type != b.type ||
            (a.type == ColumnType::Other && a.declaredType.toLower() != b.declaredType.toLower()))
            out << p + QStringLiteral("type %1 (%2) on %3, %4 (%5) on %6")
                           .arg(columnTypeName(a.type), a.declaredType, la, columnTypeName(b.type),
                                b.declaredType, lb);
        if (a.notNull != b.notNull)
            out << p + QStringLiteral("%1 on %2, %3 on %4")
                           .arg(a.notNull ? QStringLiteral("NOT NULL") : QStringLiteral("nullable"), la,
                                b.notNull ? QStringLiteral("NOT NULL") : QStringLiteral("nullable"), lb);
        // Literals are compared by value; an expression only by its presence (see SchemaInfo.h).
        if (a.hasDefault != b.hasDefault ||
            (a.defaultIsLiteral && b.defaultIsLiteral && a.defaultValue != b.defaultValue))
            out << p + QStringLiteral("%1 on %2, %3 on %4")
                           .arg(describeDefault(a), la, describeDefault(b), lb);
        if (a.primaryKeyPosition != b.primaryKeyPosition) {
            auto pos = [](int k) {
                return k ? QStringLiteral("primary key position %1").arg(k)
                         : QStringLiteral("not in the primary key");
            };
            out << p + QStringLiteral("%1 on %2, %3 on %4")
                           .arg(pos(a.primaryKeyPosition), la, pos(b.primaryKeyPosition), lb);
        }
        const bool ga = a.generation != KeyGeneration::None, gb = b.generation != KeyGeneration::None;
        if (ga != gb || (ga && (a.generation == KeyGeneration::IdentityAlways) !=
                                   (b.generation == KeyGeneration::IdentityAlways)))
            out << p + QStringLiteral("%1 on %2, %3 on %4")
                           .arg(generationName(a.generation), la, generationName(b.generation), lb);
    }
}

void diffTable(const SchemaTable& ta, const SchemaTable& tb, const QString& la, const QString& lb,
               QStringList& out) {
    const QString prefix = QStringLiteral("table %1: ").arg(ta.name);
    diffColumns(ta, tb, la, lb, prefix, out);

    // Indexes: UNIQUE constraints by content, created indexes by name.
    std::map<QString, const SchemaIndex*> ia, ib;
    for (const SchemaIndex& i : ta.indexes)
        ia.emplace(indexKey(i), &i);
    for (const SchemaIndex& i : tb.indexes)
        ib.emplace(indexKey(i), &i);
    for (const auto& [key, i] : ia)
        if (!ib.count(key))
            out << prefix + QStringLiteral("%1: only on %2").arg(describeIndex(*i), la);
    for (const auto& [key, i] : ib)
        if (!ia.count(key))
            out << prefix + QStringLiteral("%1: only on %2").arg(describeIndex(*i), lb);
    for (const auto& [key, a] : ia) {
        const auto it = ib.find(key);
        if (it == ib.end())
            continue;
        const SchemaIndex& b = *it->second;
        const QString p = prefix + describeIndex(*a) + QStringLiteral(": ");
        if (a->unique != b.unique)
            out << p + QStringLiteral("%1 on %2, %3 on %4")
                           .arg(a->unique ? QStringLiteral("unique") : QStringLiteral("not unique"), la,
                                b.unique ? QStringLiteral("unique") : QStringLiteral("not unique"), lb);
        if (a->keys != b.keys)
            out << p + QStringLiteral("keys (%1) on %2, (%3) on %4")
                           .arg(a->keys.join(QLatin1String(", ")), la, b.keys.join(QLatin1String(", ")), lb);
        if (a->where != b.where)
            out << p + QStringLiteral("WHERE %1 on %2, %3 on %4")
                           .arg(a->where.isEmpty() ? QStringLiteral("(none)") : a->where, la,
                                b.where.isEmpty() ? QStringLiteral("(none)") : b.where, lb);
    }

    // Foreign keys by their columns and target.
    std::map<QString, const SchemaForeignKey*> fa, fb;
    for (const SchemaForeignKey& k : ta.foreignKeys)
        fa.emplace(describeKey(k), &k);
    for (const SchemaForeignKey& k : tb.foreignKeys)
        fb.emplace(describeKey(k), &k);
    for (const auto& [key, k] : fa)
        if (!fb.count(key))
            out << prefix + QStringLiteral("%1: only on %2").arg(key, la);
    for (const auto& [key, k] : fb)
        if (!fa.count(key))
            out << prefix + QStringLiteral("%1: only on %2").arg(key, lb);
    for (const auto& [key, a] : fa) {
        const auto it = fb.find(key);
        if (it == fb.end())
            continue;
        if (a->onDelete != it->second->onDelete)
            out << prefix + QStringLiteral("%1: ON DELETE %2 on %3, %4 on %5")
                                .arg(key, a->onDelete, la, it->second->onDelete, lb);
        if (a->onUpdate != it->second->onUpdate)
            out << prefix + QStringLiteral("%1: ON UPDATE %2 on %3, %4 on %5")
                                .arg(key, a->onUpdate, la, it->second->onUpdate, lb);
    }

    // CHECK constraints by normalised text (a multiset: both lists are sorted).
    QStringList ca = ta.checks, cb = tb.checks;
    for (const QString& c : ta.checks)
        if (cb.removeOne(c))
            ca.removeOne(c);
    for (const QString& c : ca)
        out << prefix + QStringLiteral("CHECK (%1): only on %2").arg(c, la);
    for (const QString& c : cb)
        out << prefix + QStringLiteral("CHECK (%1): only on %2").arg(c, lb);

    // Triggers by name; TRUNCATE-only statement triggers have no SQLite counterpart.
    std::map<QString, const SchemaTrigger*> ra, rb;
    for (const SchemaTrigger& t : ta.triggers)
        if (!truncateOnly(t))
            ra.emplace(t.name, &t);
    for (const SchemaTrigger& t : tb.triggers)
        if (!truncateOnly(t))
            rb.emplace(t.name, &t);
    for (const auto& [name, t] : ra)
        if (!rb.count(name))
            out << prefix + QStringLiteral("trigger %1: only on %2").arg(name, la);
    for (const auto& [name, t] : rb)
        if (!ra.count(name))
            out << prefix + QStringLiteral("trigger %1: only on %2").arg(name, lb);
    for (const auto& [name, a] : ra) {
        const auto it = rb.find(name);
        if (it == rb.end())
            continue;
        const SchemaTrigger& b = *it->second;
        auto describe = [](const SchemaTrigger& t) {
            return QStringLiteral("%1 %2 FOR EACH %3")
                .arg(t.timing, t.events.join(QLatin1String(" OR ")),
                     t.forEachRow ? QStringLiteral("ROW") : QStringLiteral("STATEMENT"));
        };
        if (describe(*a) != describe(b))
            out << prefix + QStringLiteral("trigger %1: %2 on %3, %4 on %5")
                                .arg(name, describe(*a), la, describe(b), lb);
    }
}

} // namespace

const SchemaColumn* SchemaTable::column(const QString& n) const {
    for (const SchemaColumn& c : columns)
        if (c.name == n)
            return &c;
    return nullptr;
}

QStringList SchemaTable::primaryKey() const {
    std::vector<std::pair<int, QString>> keys;
    for (const SchemaColumn& c : columns)
        if (c.primaryKeyPosition > 0)
            keys.emplace_back(c.primaryKeyPosition, c.name);
    std::sort(keys.begin(), keys.end());
    QStringList out;
    for (const auto& k : keys)
        out << k.second;
    return out;
}

const SchemaTable* LogicalSchema::table(const QString& n) const {
    for (const SchemaTable& t : tables)
        if (t.name == n)
            return &t;
    return nullptr;
}

QString columnTypeName(ColumnType type) {
    switch (type) {
    case ColumnType::Integer:
        return QStringLiteral("integer");
    case ColumnType::Text:
        return QStringLiteral("text");
    case ColumnType::Blob:
        return QStringLiteral("blob");
    case ColumnType::Real:
        return QStringLiteral("real");
    case ColumnType::Other:
        break;
    }
    return QStringLiteral("other");
}

QString normaliseExpression(const QString& sql) {
    return joinTokens(normaliseTokens(tokenize(sql)));
}

Result<LogicalSchema> readSchema(QSqlDatabase& db) {
    if (!db.isOpen())
        return makeError(QStringLiteral("cannot read the schema: the database is not open"));
    const QString driver = db.driverName();
    if (driver == QLatin1String("QSQLITE"))
        return readSqlite(db);
    if (driver == QLatin1String("QPSQL"))
        return readPostgres(db);
    return makeError(
        QStringLiteral("cannot read the schema of a %1 connection (QSQLITE or QPSQL only)").arg(driver));
}

QStringList differences(const LogicalSchema& a, const LogicalSchema& b) {
    QString la = engineName(a.engine), lb = engineName(b.engine);
    if (a.engine == b.engine) {
        la += QLatin1String(" (first)");
        lb += QLatin1String(" (second)");
    }
    QStringList out;
    QStringList names;
    for (const SchemaTable& t : a.tables)
        names << t.name;
    for (const SchemaTable& t : b.tables)
        if (!names.contains(t.name))
            names << t.name;
    names.sort();
    for (const QString& n : names) {
        const SchemaTable* ta = a.table(n);
        const SchemaTable* tb = b.table(n);
        if (!ta || !tb)
            out << QStringLiteral("table %1: only on %2").arg(n, ta ? la : lb);
        else
            diffTable(*ta, *tb, la, lb, out);
    }
    return out;
}

} // namespace pb::db
