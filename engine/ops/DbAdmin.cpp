#include "ops/DbAdmin.h"
#include "core/Plural.h"

#include "db/BulkInsert.h"
#include "db/Postgres.h"
#include "db/SchemaInfo.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringEncoder>

#include <sqlite3.h>

#include <charconv>
#include <map>

namespace pb::ops {

namespace {

// The tables in an order where every table comes after those its foreign keys point to.
Result<std::vector<const db::SchemaTable*>> dependencyOrder(const db::LogicalSchema& schema) {
    std::vector<const db::SchemaTable*> out;
    QSet<QString> placed;
    while (out.size() < schema.tables.size()) {
        bool progress = false;
        for (const db::SchemaTable& t : schema.tables) {
            if (placed.contains(t.name))
                continue;
            bool ready = true;
            for (const db::SchemaForeignKey& fk : t.foreignKeys)
                if (fk.table != t.name && !placed.contains(fk.table))
                    ready = false;
            if (ready) {
                out.push_back(&t);
                placed.insert(t.name);
                progress = true;
            }
        }
        if (!progress)
            return makeError(QStringLiteral("the tables' foreign keys form a cycle; cannot order the copy"));
    }
    return out;
}

QString columnList(const db::SchemaTable& t) {
    QStringList names;
    for (const db::SchemaColumn& c : t.columns)
        names << c.name;
    return names.join(QStringLiteral(", "));
}

// Every row in key order (the whole row where there is no key): what both sides are read with.
QString selectAll(const db::SchemaTable& t) {
    QStringList order = t.primaryKey();
    if (order.isEmpty())
        for (const db::SchemaColumn& c : t.columns)
            order << c.name;
    return QStringLiteral("SELECT %1 FROM %2 ORDER BY %3")
        .arg(columnList(t), t.name, order.join(QStringLiteral(", ")));
}

// A value as its column's declared type makes it, whatever the engine handed back (SQLite keeps
// what was bound; PostgreSQL returns qulonglong for a positive bigint, QByteArray for bytea).
QVariant typed(const QVariant& v, db::ColumnType type) {
    if (v.isNull())
        return v;
    switch (type) {
    case db::ColumnType::Integer:
        return QVariant(v.toLongLong());
    case db::ColumnType::Real:
        return QVariant(v.toDouble());
    case db::ColumnType::Blob:
        return QVariant(v.toByteArray());
    case db::ColumnType::Text:
    case db::ColumnType::Other:
        return QVariant(v.toString());
    }
    return v;
}

// Feeds one value into a table digest: a type tag, the length and the bytes, so no two rows encode
// alike. Millions of values pass here in a copy (each side once): numbers and lengths are written
// into a stack buffer and text encoded into one reused buffer, not a new QByteArray each.
class ValueDigest {
  public:
    explicit ValueDigest(QCryptographicHash& h) : m_hash(h) {}
    void add(const QVariant& v) {
        if (v.isNull())
            return put('n', {});
        switch (v.metaType().id()) {
        case QMetaType::LongLong: {
            char digits[24];
            const auto end = std::to_chars(digits, digits + sizeof digits, v.toLongLong()).ptr;
            return put('i', QByteArrayView(digits, end - digits));
        }
        case QMetaType::Double:
            return put('r', QByteArray::number(v.toDouble(), 'g', 17));
        case QMetaType::QByteArray: {
            const QByteArray bytes = v.toByteArray(); // shared, not copied
            return put('b', bytes);
        }
        default: {
            const QString text = v.toString();
            m_utf8.resize(m_encoder.requiredSpace(text.size()));
            char* end = m_encoder.appendToBuffer(m_utf8.data(), text);
            return put('t', QByteArrayView(m_utf8.constData(), end - m_utf8.constData()));
        }
        }
    }

  private:
    void put(char tag, QByteArrayView bytes) {
        char head[24];
        head[0] = tag;
        char* end = std::to_chars(head + 1, head + sizeof head - 1, bytes.size()).ptr;
        *end++ = ':';
        m_hash.addData(QByteArrayView(head, end - head));
        m_hash.addData(bytes);
    }

    QCryptographicHash& m_hash;
    QStringEncoder m_encoder{QStringEncoder::Utf8};
    QByteArray m_utf8;
};

// A table's proof made as its rows are read: each row's values, as their columns' types make
// them, fed into one digest in read order. The copy and the check of the copy share it.
class TableDigest {
  public:
    explicit TableDigest(const db::SchemaTable& t)
        : m_table(t), m_hash(QCryptographicHash::Sha256), m_values(m_hash) {
        m_proof.table = t.name;
        m_row.resize(qsizetype(t.columns.size()));
    }
    // One row as the engine handed it back, typed and digested.
    const QVariantList& take(const QVariantList& values) {
        for (qsizetype i = 0; i < m_row.size(); ++i) {
            m_row[i] = typed(values[i], m_table.columns[size_t(i)].type);
            m_values.add(m_row[i]);
        }
        m_hash.addData(QByteArrayView("\n", 1));
        ++m_proof.rows;
        return m_row;
    }
    TableProof finish() {
        m_proof.sha256 = QString::fromLatin1(m_hash.result().toHex());
        return m_proof;
    }

  private:
    const db::SchemaTable& m_table;
    QCryptographicHash m_hash;
    ValueDigest m_values;
    TableProof m_proof;
    QVariantList m_row;
};

QStringList columnNames(const db::SchemaTable& t) {
    QStringList names;
    for (const db::SchemaColumn& c : t.columns)
        names << c.name;
    return names;
}

// Calls `each(values)` for every row of `t` in key order (selectAll), read the way the engine gives
// rows fastest: on PostgreSQL COPY's binary stream (no per-row result, no text conversion), else a
// forward-only query. A Status `each` returns that is not ok stops the read.
template <class Each> Status readTable(QSqlDatabase& db, const db::SchemaTable& t, Each&& each) {
    const QString what = QStringLiteral("reading %1").arg(t.name);
    if (db::engineOf(db) == db::Engine::PostgreSQL) {
        if (std::vector<quint32> types = db::pg::columnTypes(db, t.name, columnNames(t)); !types.empty()) {
            db::pg::CopyOut rows(db, selectAll(t), std::move(types));
            while (rows.next())
                if (Status s = each(rows.row()); !s)
                    return s;
            if (rows.failed())
                return rows.error(what);
            return {};
        }
    }
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(selectAll(t)))
        return db::sqlError(q, what);
    QVariantList values(qsizetype(t.columns.size()));
    while (q.next()) {
        for (qsizetype i = 0; i < values.size(); ++i)
            values[i] = q.value(int(i));
        if (Status s = each(values); !s)
            return s;
    }
    if (q.lastError().isValid())
        return db::sqlError(q, what);
    return {};
}

Result<TableProof> proveTable(QSqlDatabase& db, const db::SchemaTable& t) {
    TableDigest digest(t);
    if (Status s = readTable(db, t,
                             [&](const QVariantList& values) {
                                 digest.take(values);
                                 return Status{};
                             });
        !s)
        return s.error();
    return digest.finish();
}

// Copies one table's rows from `from` into `to` (inside the target's open transaction) through the
// engine's bulk path (explicit ids included); `proof` gets the source side's proof from the same
// read (what proveTable would make of it).
Status copyTable(QSqlDatabase& from, QSqlDatabase& to, const db::SchemaTable& t, TableProof* proof,
                 const std::atomic_bool* cancel) {
    TableDigest digest(t);
    db::BulkInsert rows(to, t.name, columnNames(t));
    Status read = readTable(from, t, [&](const QVariantList& values) -> Status {
        if (cancel && cancel->load())
            return makeError(QStringLiteral("cancelled"));
        return rows.add(digest.take(values));
    });
    if (!read)
        return read;
    *proof = digest.finish();
    return rows.finish();
}

// After explicit ids went into identity columns, their sequences continue after the largest.
Status resetIdentities(QSqlDatabase& to, const db::SchemaTable& t) {
    if (db::engineOf(to) != db::Engine::PostgreSQL)
        return {};
    for (const db::SchemaColumn& c : t.columns) {
        if (c.generation != db::KeyGeneration::IdentityByDefault &&
            c.generation != db::KeyGeneration::IdentityAlways && c.generation != db::KeyGeneration::Sequence)
            continue;
        QSqlQuery q(to);
        if (!q.exec(
                QStringLiteral("SELECT setval(pg_get_serial_sequence('%1.%2', '%3'), COALESCE(max(%3), 1), "
                               "max(%3) IS NOT NULL) FROM %2")
                    .arg(db::postgresSchemaName(), t.name, c.name)))
            return db::sqlError(q, QStringLiteral("resetting the key sequence of %1").arg(t.name));
    }
    return {};
}

} // namespace

namespace {

Result<DatabaseStatus> statusOf(db::Database& db) {
    DatabaseStatus s;
    s.engine = db::engineName(db.engine());
    s.where = db.displayName();
    s.schemaVersion = db.schemaVersion();
    s.latestSchemaVersion = db::Database::latestSchemaVersion(db.engine());
    if (db.engine() == db::Engine::PostgreSQL) {
        s.serverVersion = db::pg::serverVersion(db.sql());
        s.user = db::pg::sessionUser(db.sql());
        s.role = db.access().describe();
        s.replica = db.access().replica;
        const db::pg::TlsState tls = db::pg::tlsState(db.sql());
        s.tlsInUse = tls.inUse;
        s.tlsVerified = tls.verified;
        s.tlsHostChecked = tls.hostChecked;
        s.tlsProtocol = tls.protocol;
        s.tlsCipher = tls.cipher;
        QSqlQuery q(db.sql());
        if (!q.exec(QStringLiteral("SELECT pg_database_size(current_database())")) || !q.next())
            return db::sqlError(q, QStringLiteral("database size"));
        s.sizeBytes = q.value(0).toLongLong();
        return s;
    }
    s.serverVersion = QString::fromLatin1(sqlite3_libversion());
    for (const QString& suffix : {QString(), QStringLiteral("-wal")}) {
        const QFileInfo fi(db.path() + suffix);
        if (fi.exists())
            s.sizeBytes += fi.size();
    }
    return s;
}

} // namespace

Result<DatabaseStatus> databaseStatus(const Context& ctx) {
    return statusOf(ctx.db());
}

Result<DatabaseStatus> testConnection(const QString& spec) {
    Result<std::unique_ptr<db::Database>> db = db::Database::connectOnly(spec);
    if (!db)
        return db.error();
    return statusOf(**db);
}

Result<DatabaseCopyOutcome> copyDatabase(const DatabaseCopyRequest& request, const ProgressFn& progress,
                                         const std::atomic_bool* cancel) {
    Result<std::unique_ptr<db::Database>> from = db::Database::open(request.from);
    if (!from)
        return from.error();
    Result<std::unique_ptr<db::Database>> to = db::Database::open(request.to);
    if (!to)
        return to.error();
    DatabaseCopyOutcome out;
    out.fromWhere = (*from)->displayName();
    out.toWhere = (*to)->displayName();
    if ((*from)->engine() == (*to)->engine() && (*from)->path() == (*to)->path())
        return makeError(QStringLiteral("--from and --to name the same database (%1)").arg(out.fromWhere));
    Result<db::LogicalSchema> fromSchema = db::readSchema((*from)->sql());
    if (!fromSchema)
        return fromSchema.error();
    Result<db::LogicalSchema> toSchema = db::readSchema((*to)->sql());
    if (!toSchema)
        return toSchema.error();
    if (const QStringList diff = db::differences(*fromSchema, *toSchema); !diff.isEmpty())
        return makeError(QStringLiteral("the two databases' schemas differ, so a copy could not be exact: %1")
                             .arg(diff.join(QStringLiteral("; "))));
    Result<std::vector<const db::SchemaTable*>> order = dependencyOrder(*toSchema);
    if (!order)
        return order.error();
    QSqlDatabase& src = (*from)->sql();
    QSqlDatabase& dst = (*to)->sql();
    // The target must be empty: a copy merges nothing. Migrations' own bookkeeping rows (a new
    // database records which store upgrades it needs none of) are replaced by the source's.
    const QSet<QString> bookkeeping{QStringLiteral("store_upgrades")};
    for (const db::SchemaTable* t : *order) {
        if (bookkeeping.contains(t->name))
            continue;
        QSqlQuery q(dst);
        if (!q.exec(QStringLiteral("SELECT count(*) FROM %1").arg(t->name)) || !q.next())
            return db::sqlError(q, QStringLiteral("counting %1 on the target").arg(t->name));
        if (q.value(0).toLongLong() > 0)
            return makeError(
                QStringLiteral("the target %1 is not empty (table %2 has %3 rows); copy into a new, "
                               "empty database")
                    .arg(out.toWhere, t->name)
                    .arg(q.value(0).toLongLong()));
    }
    // The source is read in one transaction too, so that every table is read at one moment.
    db::Transaction reading(src, db::Transaction::Mode::Read);
    db::Transaction writing(dst);
    if (!reading.started() || !writing.started())
        return makeError(QStringLiteral("cannot start the copy's transactions"));
    if (db::engineOf(src) == db::Engine::PostgreSQL) {
        // One snapshot for every table read (READ COMMITTED would take one per statement).
        QSqlQuery q(src);
        if (!q.exec(QStringLiteral("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")))
            return db::sqlError(q, QStringLiteral("the source's snapshot"));
    }
    for (const QString& table : bookkeeping) {
        QSqlQuery q(dst);
        if (!q.exec(QStringLiteral("DELETE FROM %1").arg(table)))
            return db::sqlError(q, QStringLiteral("clearing %1 on the target").arg(table));
    }
    const qint64 total = qint64(order->size());
    qint64 done = 0;
    std::vector<TableProof> sourceProofs; // made while reading for the copy: the source is read once
    for (const db::SchemaTable* t : *order) {
        if (progress)
            progress(Progress{done, total, QStringLiteral("copying %1").arg(t->name)});
        TableProof& proof = sourceProofs.emplace_back();
        if (Status s = copyTable(src, dst, *t, &proof, cancel); !s) {
            Error e = s.error();
            e.message = QStringLiteral("nothing was copied: %1").arg(e.message);
            return e;
        }
        if (Status s = resetIdentities(dst, *t); !s)
            return s.error();
        out.rows += proof.rows;
        ++done;
    }
    // The proof: the target read back before anything is committed, against what was read from the
    // source (inside its one reading transaction, so the same rows a second read would give).
    for (size_t i = 0; i < order->size(); ++i) {
        const db::SchemaTable* t = (*order)[i];
        if (progress)
            progress(Progress{done, total, QStringLiteral("checking %1").arg(t->name)});
        const TableProof* a = &sourceProofs[i];
        Result<TableProof> b = proveTable(dst, *t);
        if (!b)
            return b.error();
        if (a->rows != b->rows || a->sha256 != b->sha256)
            return makeError(
                QStringLiteral("nothing was copied: table %1 differs after the copy (%2 rows, sha256 %3 "
                               "on the source; %4 rows, sha256 %5 on the target)")
                    .arg(t->name)
                    .arg(a->rows)
                    .arg(a->sha256)
                    .arg(b->rows)
                    .arg(b->sha256));
        out.tables.push_back(*a);
    }
    Result<receipts::ChainCheck> sourceChain = receipts::Ledger(**from).verify();
    if (!sourceChain)
        return sourceChain.error();
    Result<receipts::ChainCheck> targetChain = receipts::Ledger(**to).verify();
    if (!targetChain)
        return targetChain.error();
    if (!targetChain->ok || targetChain->head.hash != sourceChain->head.hash)
        return makeError(
            QStringLiteral("nothing was copied: the receipts chain on the target %1 (head %2, source "
                           "head %3)")
                .arg(targetChain->ok ? QStringLiteral("verifies but ends elsewhere")
                                     : QStringLiteral("does not verify: ") + targetChain->detail,
                     targetChain->head.hash, sourceChain->head.hash));
    out.receipts = targetChain->receipts;
    out.ledgerHead = targetChain->head.hash;
    if (!writing.commit())
        return makeError(
            QStringLiteral("cannot commit the copy into %1: %2").arg(out.toWhere, dst.lastError().text()));
    reading.commit();
    return out;
}

} // namespace pb::ops

namespace pb::ops {

Result<receipts::Receipt> initTeam(const Context& ctx, const InitTeamRequest& request) {
    ReceiptTransaction tx(ctx);
    if (Status s = tx.started(); !s)
        return s.error();
    if (Status s = db::initTeam(ctx.db(), request.members); !s)
        return s.error();
    QJsonObject members;
    for (const db::TeamMember& m : request.members)
        members.insert(m.user, db::teamRoleName(m.role));
    receipts::ReceiptDraft draft;
    draft.kind = QStringLiteral("db.init-team");
    draft.parameters = QJsonObject{{QStringLiteral("roles"), QJsonArray::fromStringList(db::teamRoleNames())},
                                   {QStringLiteral("members"), members}};
    draft.message = request.members.empty()
                        ? QStringLiteral("team roles and grants made")
                        : QStringLiteral("team roles and grants made; %1 given a role")
                              .arg(counted(qint64(request.members.size()), QStringLiteral("member"),
                                           QStringLiteral("members")));
    return tx.commit(draft, nullptr, QStringLiteral("team's grants"));
}

} // namespace pb::ops
