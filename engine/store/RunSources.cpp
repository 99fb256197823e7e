// run_sources: the files `perf import` parsed, kept by their SHA-256, zlib-compressed in chunks (see
// resources/migrations/*/017_run_sources.sql). Streaming both ways: a 1 GiB log is kept and read back
// with a few MiB of memory.
#include "store/RunStore.h"

#include "core/Files.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QSqlQuery>
#include <QVariant>

#include <zlib.h>

namespace pb::store {

namespace {

constexpr qsizetype kReadPiece = 1 << 20;  // bytes read from the file at a time
constexpr qsizetype kChunkBytes = 4 << 20; // compressed bytes a chunk row holds at most

QString digestOf(const QCryptographicHash& h) {
    return QStringLiteral("sha256:") + QString::fromLatin1(h.result().toHex());
}

// zlib's stream, ended on every path.
struct Deflater {
    z_stream z{};
    bool ok = false;
    Deflater() { ok = deflateInit(&z, 6) == Z_OK; }
    ~Deflater() {
        if (ok)
            deflateEnd(&z);
    }
};
struct Inflater {
    z_stream z{};
    bool ok = false;
    Inflater() { ok = inflateInit(&z) == Z_OK; }
    ~Inflater() {
        if (ok)
            inflateEnd(&z);
    }
};

} // namespace

Result<RunSource> RunStore::keepSource(const QString& path, const QString& expectedDigest) {
    QFile f(path);
    if (Status s = openInputFile(f, QStringLiteral("the imported file")); !s)
        return s.error();
    RunSource out;
    if (!expectedDigest.isEmpty()) {
        QSqlQuery known(m_db.sql());
        known.prepare(QStringLiteral("SELECT size, stored_size, chunks FROM run_sources WHERE digest = ?"));
        known.addBindValue(expectedDigest);
        if (!known.exec())
            return db::sqlError(known, QStringLiteral("run_sources"));
        if (known.next()) {
            out.digest = expectedDigest;
            out.size = known.value(0).toLongLong();
            out.storedSize = known.value(1).toLongLong();
            out.chunks = known.value(2).toInt();
            return out;
        }
    }
    db::Transaction tx(m_db.sql());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    // The chunks are written under a name of their own until the digest is known; then the source
    // row is written and the chunks are moved to it. A placeholder row first, for the foreign key.
    const QString pending = QStringLiteral("pending:") +
                            QString::number(QDateTime::currentMSecsSinceEpoch()) + QLatin1Char(':') +
                            QString::number(quintptr(this), 16);
    QSqlQuery placeholder(m_db.sql());
    placeholder.prepare(
        QStringLiteral("INSERT INTO run_sources (digest, size, stored_size, encoding, chunks, "
                       "stored_at) VALUES (?, 0, 0, 'zlib', 0, ?)"));
    placeholder.addBindValue(pending);
    placeholder.addBindValue(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    if (!placeholder.exec())
        return db::sqlError(placeholder, QStringLiteral("run_sources"));

    Deflater def;
    if (!def.ok)
        return makeError(QStringLiteral("zlib could not start"), path);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QByteArray piece(kReadPiece, Qt::Uninitialized);
    QByteArray chunk(kChunkBytes, Qt::Uninitialized);
    QSqlQuery insert(m_db.sql());
    insert.prepare(QStringLiteral("INSERT INTO run_source_chunks (digest, seq, data) VALUES (?,?,?)"));
    int seq = 0;
    def.z.next_out = reinterpret_cast<Bytef*>(chunk.data());
    def.z.avail_out = uInt(chunk.size());
    auto flushChunk = [&](qsizetype used) -> Status {
        insert.addBindValue(pending);
        insert.addBindValue(seq++);
        insert.addBindValue(QByteArray(chunk.constData(), used));
        if (!insert.exec())
            return db::sqlError(insert, QStringLiteral("run_source_chunks"));
        out.storedSize += used;
        def.z.next_out = reinterpret_cast<Bytef*>(chunk.data());
        def.z.avail_out = uInt(chunk.size());
        return {};
    };
    for (bool end = false; !end;) {
        const qint64 n = f.read(piece.data(), piece.size());
        if (n < 0)
            return makeError(QStringLiteral("read failed: %1").arg(f.errorString()), path);
        end = n == 0;
        hash.addData(QByteArrayView(piece.constData(), n));
        out.size += n;
        def.z.next_in = reinterpret_cast<Bytef*>(piece.data());
        def.z.avail_in = uInt(n);
        for (;;) {
            const int rc = deflate(&def.z, end ? Z_FINISH : Z_NO_FLUSH);
            if (rc == Z_STREAM_ERROR)
                return makeError(QStringLiteral("zlib failed while compressing"), path);
            if (def.z.avail_out == 0)
                if (Status s = flushChunk(chunk.size()); !s)
                    return s.error();
            if (end ? rc == Z_STREAM_END : def.z.avail_in == 0)
                break;
        }
    }
    if (const qsizetype used = chunk.size() - qsizetype(def.z.avail_out); used > 0)
        if (Status s = flushChunk(used); !s)
            return s.error();
    out.digest = digestOf(hash);
    out.chunks = seq;
    if (!expectedDigest.isEmpty() && out.digest != expectedDigest)
        return makeError(QStringLiteral("the file changed while it was imported (read as %1, then as %2); "
                                        "nothing was kept")
                             .arg(expectedDigest, out.digest),
                         path);

    // Kept before (under the digest now known): the new copy goes.
    QSqlQuery exists(m_db.sql());
    exists.prepare(QStringLiteral("SELECT 1 FROM run_sources WHERE digest = ?"));
    exists.addBindValue(out.digest);
    if (!exists.exec())
        return db::sqlError(exists, QStringLiteral("run_sources"));
    const bool already = exists.next();
    if (!already) {
        QSqlQuery row(m_db.sql());
        row.prepare(
            QStringLiteral("INSERT INTO run_sources (digest, size, stored_size, encoding, chunks, stored_at) "
                           "VALUES (?,?,?,'zlib',?,?)"));
        row.addBindValue(out.digest);
        row.addBindValue(out.size);
        row.addBindValue(out.storedSize);
        row.addBindValue(out.chunks);
        row.addBindValue(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
        if (!row.exec())
            return db::sqlError(row, QStringLiteral("run_sources"));
        QSqlQuery move(m_db.sql());
        move.prepare(QStringLiteral("UPDATE run_source_chunks SET digest = ? WHERE digest = ?"));
        move.addBindValue(out.digest);
        move.addBindValue(pending);
        if (!move.exec())
            return db::sqlError(move, QStringLiteral("run_source_chunks"));
        out.stored = true;
    }
    QSqlQuery drop(m_db.sql());
    drop.prepare(QStringLiteral("DELETE FROM run_sources WHERE digest = ?")); // its chunks cascade
    drop.addBindValue(pending);
    if (!drop.exec())
        return db::sqlError(drop, QStringLiteral("run_sources"));
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the kept file"), m_db.path());
    return out;
}

Status RunStore::readSource(const QString& digest, QIODevice& out) const {
    QSqlQuery head(m_db.sql());
    head.prepare(QStringLiteral("SELECT size, chunks, encoding FROM run_sources WHERE digest = ?"));
    head.addBindValue(digest);
    if (!head.exec())
        return db::sqlError(head, QStringLiteral("run_sources"));
    if (!head.next())
        return makeError(QStringLiteral("no kept file with digest %1").arg(digest));
    const qint64 size = head.value(0).toLongLong();
    const int chunks = head.value(1).toInt();
    if (head.value(2).toString() != QLatin1String("zlib"))
        return makeError(
            QStringLiteral("kept file %1: unknown encoding '%2'").arg(digest, head.value(2).toString()));
    Inflater inf;
    if (!inf.ok)
        return makeError(QStringLiteral("zlib could not start"));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QByteArray buf(kReadPiece, Qt::Uninitialized);
    qint64 written = 0;
    bool ended = false;
    // One chunk at a time: a query per chunk, so a result set never holds the whole file.
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("SELECT data FROM run_source_chunks WHERE digest = ? AND seq = ?"));
    for (int seq = 0; seq < chunks; ++seq) {
        q.addBindValue(digest);
        q.addBindValue(seq);
        if (!q.exec())
            return db::sqlError(q, QStringLiteral("run_source_chunks"));
        if (!q.next())
            return makeError(
                QStringLiteral("kept file %1: chunk %2 of %3 is missing").arg(digest).arg(seq).arg(chunks));
        QByteArray data = q.value(0).toByteArray();
        q.finish();
        inf.z.next_in = reinterpret_cast<Bytef*>(data.data());
        inf.z.avail_in = uInt(data.size());
        while (inf.z.avail_in > 0 && !ended) {
            inf.z.next_out = reinterpret_cast<Bytef*>(buf.data());
            inf.z.avail_out = uInt(buf.size());
            const int rc = inflate(&inf.z, Z_NO_FLUSH);
            if (rc != Z_OK && rc != Z_STREAM_END)
                return makeError(QStringLiteral("kept file %1: its compressed data is damaged (zlib %2)")
                                     .arg(digest)
                                     .arg(rc));
            const qsizetype n = buf.size() - qsizetype(inf.z.avail_out);
            hash.addData(QByteArrayView(buf.constData(), n));
            if (out.write(buf.constData(), n) != n)
                return makeError(QStringLiteral("write failed: %1").arg(out.errorString()));
            written += n;
            ended = rc == Z_STREAM_END;
        }
    }
    // The last bytes zlib still holds.
    while (!ended && chunks > 0) {
        inf.z.next_out = reinterpret_cast<Bytef*>(buf.data());
        inf.z.avail_out = uInt(buf.size());
        const int rc = inflate(&inf.z, Z_FINISH);
        const qsizetype n = buf.size() - qsizetype(inf.z.avail_out);
        hash.addData(QByteArrayView(buf.constData(), n));
        if (out.write(buf.constData(), n) != n)
            return makeError(QStringLiteral("write failed: %1").arg(out.errorString()));
        written += n;
        if (rc == Z_STREAM_END)
            ended = true;
        else if (rc != Z_OK && rc != Z_BUF_ERROR)
            return makeError(
                QStringLiteral("kept file %1: its compressed data is damaged (zlib %2)").arg(digest).arg(rc));
        else if (n == 0)
            return makeError(QStringLiteral("kept file %1: its compressed data ends early").arg(digest));
    }
    if (written != size || digestOf(hash) != digest)
        return makeError(
            QStringLiteral("kept file %1 reads back as %2 bytes with %3: it was changed in the database")
                .arg(digest)
                .arg(written)
                .arg(digestOf(hash)));
    return {};
}

Result<QString> RunStore::sourceDigest(qint64 runId) const {
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("SELECT source_digest FROM runs WHERE id = ?"));
    q.addBindValue(runId);
    if (!q.exec())
        return db::sqlError(q, QStringLiteral("runs"));
    if (!q.next())
        return makeError(QStringLiteral("no run %1").arg(runId));
    return q.value(0).toString();
}

} // namespace pb::store
