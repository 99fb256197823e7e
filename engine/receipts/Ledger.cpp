#include "receipts/Ledger.h"
#include "core/Plural.h"
#include "receipts/Kinds.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "db/Database.h"
#include "receipts/Canonical.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QMutex>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimeZone>

#include <map>
#include <optional>

namespace pb::receipts {

QString outcomeName(Outcome o) {
    switch (o) {
    case Outcome::Ok:
        return QStringLiteral("ok");
    case Outcome::Failed:
        return QStringLiteral("failed");
    case Outcome::Partial:
        return QStringLiteral("partial");
    }
    return {};
}

std::optional<Outcome> parseOutcome(const QString& s) {
    if (s == QLatin1String("ok"))
        return Outcome::Ok;
    if (s == QLatin1String("failed"))
        return Outcome::Failed;
    if (s == QLatin1String("partial"))
        return Outcome::Partial;
    return std::nullopt;
}

QString genesisHash() {
    return QString(64, QLatin1Char('0'));
}

QString isoTime(const QDateTime& t) {
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz")) + QLatin1Char('Z');
}

namespace {

QDateTime parseIso(const QString& s) {
    QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    if (t.isValid())
        t = t.toUTC();
    return t;
}

QJsonArray artifactsJson(const std::vector<Artifact>& list) {
    QJsonArray a;
    for (const Artifact& x : list)
        a.append(x.toJson());
    return a;
}

std::vector<Artifact> artifactsFrom(const QJsonArray& a) {
    std::vector<Artifact> out;
    for (const QJsonValue& v : a)
        out.push_back(Artifact::fromJson(v.toObject()));
    return out;
}

QString text(const QByteArray& canonical) {
    return QString::fromUtf8(canonical);
}

bool isSecretKey(const QString& key) {
    static const QRegularExpression re(
        QStringLiteral("pass(word|phrase)?$|passphrase|password|token|secret|private.?key|credential|authori["
                       "sz]ation|cookie|bearer"),
        QRegularExpression::CaseInsensitiveOption);
    return re.match(key).hasMatch();
}

QJsonValue sanitizeValue(const QJsonValue& v) {
    if (v.isObject())
        return sanitizeParameters(v.toObject());
    if (v.isArray()) {
        QJsonArray out;
        for (const QJsonValue& item : v.toArray())
            out.append(sanitizeValue(item));
        return out;
    }
    return v;
}

const char* const kColumns = "SELECT seq, kind, created_at, version, parameters, inputs, outputs, result, "
                             "message, prev_hash, hash, written_by FROM receipts ";

Receipt readRow(const QSqlQuery& q) {
    Receipt r;
    r.seq = q.value(0).toLongLong();
    r.kind = q.value(1).toString();
    r.time = parseIso(q.value(2).toString());
    r.version = q.value(3).toString();
    r.parameters = QJsonDocument::fromJson(q.value(4).toByteArray()).object();
    r.inputs = artifactsFrom(QJsonDocument::fromJson(q.value(5).toByteArray()).array());
    r.outputs = artifactsFrom(QJsonDocument::fromJson(q.value(6).toByteArray()).array());
    // An unknown result word is kept visible in the hash check: it cannot recompute as ok.
    const auto o = parseOutcome(q.value(7).toString());
    r.result = o.value_or(Outcome::Failed);
    r.message = q.value(8).toString();
    if (!o)
        r.message += QStringLiteral(" [stored result '%1']").arg(q.value(7).toString());
    r.prevHash = q.value(9).toString();
    r.hash = q.value(10).toString();
    r.author = q.value(11).toString();
    return r;
}

QString shortHash(const QString& h) {
    return h.left(12);
}

} // namespace

QJsonObject sanitizeParameters(const QJsonObject& parameters) {
    QJsonObject out;
    for (auto it = parameters.begin(); it != parameters.end(); ++it) {
        if (isSecretKey(it.key()))
            continue;
        out.insert(it.key(), sanitizeValue(it.value()));
    }
    return out;
}

// ---- Artifact -------------------------------------------------------------------------------------

Artifact Artifact::file(const QString& path) {
    Artifact a;
    a.name = path;
    // Only a regular file is hashed (opened non-blocking): a FIFO or device is named, not read.
    QFile f(path);
    if (!openInputFile(f))
        return a;
    // Larger than any input an operation takes: named with its size, not read (a sparse 16 GB file
    // would take its size in time).
    if (f.size() > kMaxHashedInput) {
        a.size = f.size();
        return a;
    }
    Sha256 h;
    qint64 total = 0;
    while (!f.atEnd()) {
        const QByteArray chunk = f.read(1 << 20);
        if (chunk.isEmpty())
            break;
        total += chunk.size();
        h.add(chunk);
    }
    a.sha256 = QString::fromLatin1(h.result().toHex());
    a.size = total;
    return a;
}

Artifact Artifact::bytes(const QString& name, const QByteArray& content) {
    return Artifact{name, sha256Hex(content), content.size()};
}

Artifact Artifact::directory(const QString& path) {
    if (QFileInfo(path).isFile())
        return file(path);
    Artifact a;
    a.name = path;
    const QDir root(path);
    if (!root.exists())
        return a;
    std::map<QString, QString> rows; // relative path -> sha256
    qint64 total = 0;
    QDirIterator it(path, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const Artifact f = Artifact::file(file);
        rows[root.relativeFilePath(file)] =
            f.sha256.isEmpty() ? QStringLiteral("not-hashed:%1-bytes").arg(f.size) : f.sha256;
        total += qMax<qint64>(0, f.size);
    }
    QByteArray list;
    for (const auto& [rel, sha] : rows)
        list += sha.toLatin1() + "  " + rel.toUtf8() + '\n';
    a.sha256 = sha256Hex(list);
    a.size = total;
    return a;
}

Artifact Artifact::digest(const QString& name, const QString& sha256Hex, qint64 size) {
    QString hex = sha256Hex;
    if (hex.startsWith(QLatin1String("sha256:")))
        hex = hex.mid(7);
    return Artifact{name, hex, size};
}

QJsonObject Artifact::toJson() const {
    return QJsonObject{
        {QStringLiteral("name"), name}, {QStringLiteral("sha256"), sha256}, {QStringLiteral("size"), size}};
}

Artifact Artifact::fromJson(const QJsonObject& o) {
    return Artifact{o.value(QStringLiteral("name")).toString(), o.value(QStringLiteral("sha256")).toString(),
                    static_cast<qint64>(o.value(QStringLiteral("size")).toDouble(-1))};
}

// ---- Receipt --------------------------------------------------------------------------------------

QJsonObject Receipt::body() const {
    QJsonObject o{{QStringLiteral("seq"), seq},
                  {QStringLiteral("kind"), kind},
                  {QStringLiteral("time"), isoTime(time)},
                  {QStringLiteral("version"), version},
                  {QStringLiteral("parameters"), parameters},
                  {QStringLiteral("inputs"), artifactsJson(inputs)},
                  {QStringLiteral("outputs"), artifactsJson(outputs)},
                  {QStringLiteral("result"), QJsonObject{{QStringLiteral("status"), outcomeName(result)},
                                                         {QStringLiteral("message"), message}}},
                  {QStringLiteral("prev"), prevHash}};
    // Only when there is one, so a receipt without an author hashes as before authors existed.
    if (!author.isEmpty())
        o.insert(QStringLiteral("author"), author);
    return o;
}

QByteArray Receipt::canonical() const {
    return canonicalJson(body());
}

QString Receipt::computeHash() const {
    Sha256 h;
    h.add(prevHash.toLatin1());
    h.add(canonical());
    return QString::fromLatin1(h.result().toHex());
}

QJsonObject Receipt::toJson() const {
    QJsonObject o = body();
    o.insert(QStringLiteral("hash"), hash);
    return o;
}

QJsonObject ChainHead::toJson() const {
    return QJsonObject{{QStringLiteral("seq"), seq},
                       {QStringLiteral("hash"), hash},
                       {QStringLiteral("time"), time.isValid() ? QJsonValue(isoTime(time)) : QJsonValue()}};
}

QString breakName(ChainCheck::Break b) {
    switch (b) {
    case ChainCheck::Break::None:
        return QStringLiteral("intact");
    case ChainCheck::Break::Edited:
        return QStringLiteral("edited");
    case ChainCheck::Break::Deleted:
        return QStringLiteral("deleted");
    case ChainCheck::Break::Inserted:
        return QStringLiteral("inserted");
    case ChainCheck::Break::Reordered:
        return QStringLiteral("reordered");
    }
    return {};
}

QJsonObject ChainCheck::toJson() const {
    QJsonObject o{{QStringLiteral("intact"), ok},
                  {QStringLiteral("receipts"), receipts},
                  {QStringLiteral("head"), head.toJson()}};
    if (!ok) {
        o.insert(QStringLiteral("break"), breakName(kind));
        o.insert(QStringLiteral("firstBadSeq"), firstBadSeq);
        o.insert(QStringLiteral("detail"), detail);
    }
    return o;
}

QString ChainCheck::toText() const {
    if (ok)
        return QStringLiteral("receipts chain intact: %1, head #%2 %3\n")
            .arg(counted(receipts, QStringLiteral("receipt"), QStringLiteral("receipts")))
            .arg(head.seq)
            .arg(head.hash);
    return QStringLiteral("receipts chain BROKEN at receipt #%1 (%2): %3\n")
        .arg(firstBadSeq)
        .arg(breakName(kind), detail);
}

// ---- Receipts of this process ---------------------------------------------------------------------

namespace {
QMutex g_ownMutex;
QHash<QString, std::map<qint64, quint64>>& ownReceipts() {
    static QHash<QString, std::map<qint64, quint64>> map;
    return map;
}
} // namespace

void noteOwnReceipt(const QString& dbPath, quint64 origin, qint64 seq) {
    if (origin == 0)
        return;
    const QMutexLocker lock(&g_ownMutex);
    std::map<qint64, quint64>& seqs = ownReceipts()[dbPath];
    seqs[seq] = origin;
    while (seqs.size() > 4096)
        seqs.erase(seqs.begin());
}

bool isOwnReceipt(const QString& dbPath, quint64 origin, qint64 seq) {
    const QMutexLocker lock(&g_ownMutex);
    const auto it = ownReceipts().constFind(dbPath);
    if (it == ownReceipts().constEnd())
        return false;
    const auto found = it->find(seq);
    return found != it->end() && found->second == origin;
}

// ---- Ledger ---------------------------------------------------------------------------------------

Ledger::Ledger(db::Database& db) : m_db(db) {}

Result<Receipt> Ledger::append(const ReceiptDraft& draft) {
    if (draft.kind.isEmpty())
        return makeError(QStringLiteral("a receipt needs a kind"), m_db.path(), 0,
                         QStringLiteral("receipts.kind"));
    if (!kinds::find(draft.kind))
        return makeError(
            QStringLiteral("'%1' is not a receipt kind (receipts/Kinds.h lists them)").arg(draft.kind),
            m_db.path(), 0, QStringLiteral("receipts.kind"));
    {
        const QStringList declared = kinds::parameterKeys(draft.kind);
        for (auto it = draft.parameters.begin(); it != draft.parameters.end(); ++it)
            if (!declared.contains(it.key()))
                return makeError(
                    QStringLiteral("receipt kind '%1' declares no parameter '%2' (receipts/Kinds.h)")
                        .arg(draft.kind, it.key()),
                    m_db.path(), 0, QStringLiteral("receipts.parameters"));
    }
    // One appender at a time (a no-op when the caller's Transaction already holds the lock), so the
    // head read here is still the head when this receipt is inserted.
    if (Status s = db::lockWriters(m_db.sql()); !s)
        return s.error();
    QSqlQuery q(m_db.sql());
    if (!q.exec(QStringLiteral("SELECT seq, hash FROM receipts ORDER BY seq DESC LIMIT 1")))
        return db::sqlError(q, QStringLiteral("receipts"));
    Receipt r;
    r.seq = 1;
    r.prevHash = genesisHash();
    if (q.next()) {
        r.seq = q.value(0).toLongLong() + 1;
        r.prevHash = q.value(1).toString();
    }
    r.kind = draft.kind;
    QDateTime now = m_clock ? m_clock() : QDateTime::currentDateTimeUtc();
    // Millisecond precision, so the stored text reads back to the same instant.
    r.time = QDateTime::fromMSecsSinceEpoch(now.toMSecsSinceEpoch(), QTimeZone::utc());
    r.version = !m_version.isEmpty()                                ? m_version
                : !QCoreApplication::applicationVersion().isEmpty() ? QCoreApplication::applicationVersion()
                                                                    : QStringLiteral("dev");
    r.parameters = sanitizeParameters(draft.parameters);
    r.inputs = draft.inputs;
    r.outputs = draft.outputs;
    r.result = draft.result;
    r.message = draft.message;
    r.author = m_db.sessionUser();
    r.hash = r.computeHash();

    // On PostgreSQL prepare() is a PREPARE on the server, which already takes the table's lock: a
    // lock timeout fails here, and an unchecked failure would be reported as the EXECUTE that follows.
    if (!q.prepare(QStringLiteral("INSERT INTO receipts (seq, kind, created_at, version, parameters, inputs, "
                                  "outputs, result, message, "
                                  "prev_hash, hash, written_by) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")))
        return db::sqlError(q, QStringLiteral("receipts"));
    // A null QString binds as SQL NULL; the columns are NOT NULL text.
    auto textOf = [](const QString& v) { return v.isNull() ? QStringLiteral("") : v; };
    q.addBindValue(r.seq);
    q.addBindValue(textOf(r.kind));
    q.addBindValue(isoTime(r.time));
    q.addBindValue(textOf(r.version));
    q.addBindValue(text(canonicalJson(r.parameters)));
    q.addBindValue(text(canonicalJson(artifactsJson(r.inputs))));
    q.addBindValue(text(canonicalJson(artifactsJson(r.outputs))));
    q.addBindValue(outcomeName(r.result));
    q.addBindValue(textOf(r.message));
    q.addBindValue(r.prevHash);
    q.addBindValue(r.hash);
    q.addBindValue(textOf(r.author));
    if (!q.exec())
        return db::sqlError(q, QStringLiteral("receipts"));
    if (!q.prepare(QStringLiteral("INSERT INTO receipts_head (id, seq, hash) VALUES (1, ?, ?) "
                                  "ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash")))
        return db::sqlError(q, QStringLiteral("receipts_head"));
    q.addBindValue(r.seq);
    q.addBindValue(r.hash);
    if (!q.exec())
        return db::sqlError(q, QStringLiteral("receipts_head"));
    noteOwnReceipt(m_db.path(), m_db.origin(), r.seq);
    return r;
}

Result<Receipt> Ledger::record(const ReceiptDraft& draft) {
    db::Transaction tx(m_db.sql());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    auto r = append(draft);
    if (!r)
        return r;
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the receipt: %1").arg(m_db.sql().lastError().text()),
                         m_db.path());
    return r;
}

Result<std::vector<Receipt>> Ledger::list(const ListFilter& f) const {
    QString sql = QString::fromLatin1(kColumns);
    QStringList where;
    QVariantList binds;
    if (!f.kind.isEmpty()) {
        if (f.kind.endsWith(QLatin1Char('.'))) {
            where << QStringLiteral("substr(kind, 1, ?) = ?");
            binds << f.kind.size() << f.kind;
        } else {
            where << QStringLiteral("kind = ?");
            binds << f.kind;
        }
    }
    if (f.result) {
        where << QStringLiteral("result = ?");
        binds << outcomeName(*f.result);
    }
    if (f.from.isValid()) {
        where << QStringLiteral("created_at >= ?");
        binds << isoTime(f.from);
    }
    if (f.to.isValid()) {
        where << QStringLiteral("created_at <= ?");
        binds << isoTime(f.to);
    }
    if (!where.isEmpty())
        sql += QStringLiteral("WHERE ") + where.join(QStringLiteral(" AND ")) + QLatin1Char(' ');
    sql += QStringLiteral("ORDER BY seq");
    if (f.limit > 0)
        sql = QStringLiteral("SELECT * FROM (%1 DESC LIMIT %2) AS newest ORDER BY seq").arg(sql).arg(f.limit);
    QSqlQuery q(m_db.sql());
    if (!q.prepare(sql))
        return db::sqlError(q, QStringLiteral("receipts"));
    for (const QVariant& b : binds)
        q.addBindValue(b);
    if (!q.exec())
        return db::sqlError(q, QStringLiteral("receipts"));
    std::vector<Receipt> out;
    while (q.next())
        out.push_back(readRow(q));
    return out;
}

Result<Receipt> Ledger::receipt(qint64 seq) const {
    QSqlQuery q(m_db.sql());
    if (!q.prepare(QString::fromLatin1(kColumns) + QStringLiteral("WHERE seq = ?")))
        return db::sqlError(q, QStringLiteral("receipts"));
    q.addBindValue(seq);
    if (!q.exec())
        return db::sqlError(q, QStringLiteral("receipts"));
    if (!q.next())
        return makeError(QStringLiteral("no receipt #%1").arg(seq), m_db.path(), 0,
                         QStringLiteral("receipts.seq"));
    return readRow(q);
}

Result<ChainHead> Ledger::head() const {
    QSqlQuery q(m_db.sql());
    if (!q.exec(QStringLiteral("SELECT seq, hash, created_at FROM receipts ORDER BY seq DESC LIMIT 1")))
        return db::sqlError(q, QStringLiteral("receipts"));
    ChainHead h;
    h.hash = genesisHash();
    if (q.next()) {
        h.seq = q.value(0).toLongLong();
        h.hash = q.value(1).toString();
        h.time = parseIso(q.value(2).toString());
    }
    return h;
}

namespace {

ChainCheck brokenAt(ChainCheck c, const Receipt& r, ChainCheck::Break kind, const QString& detail) {
    c.ok = false;
    c.kind = kind;
    c.firstBadSeq = r.seq;
    c.detail = detail;
    return c;
}

// The seq at which a receipt's stored hash does recompute (it was written there), or 0.
qint64 writtenAt(const std::vector<Receipt>& rows, const Receipt& r) {
    Receipt probe = r;
    const qint64 last = rows.empty() ? 0 : rows.back().seq;
    for (qint64 s = 1; s <= last + 1; ++s) {
        probe.seq = s;
        if (s != r.seq && probe.computeHash() == r.hash)
            return s;
    }
    return 0;
}

// What walking the chain needs besides the rows: stored hash -> position, to tell what a dangling
// prev or a duplicate points at, and the head Proofbench last wrote (-1 when none is recorded).
struct ChainWalk {
    const std::vector<Receipt>& rows;
    std::multimap<QString, size_t> byHash;
    qint64 recordedHeadSeq = -1;
};

// Row i's break when its stored hash does not recompute: reordered, added outside, or edited.
ChainCheck hashBreak(const ChainCheck& c, const ChainWalk& w, const Receipt& r, const QString& computed) {
    if (const qint64 s = writtenAt(w.rows, r); s != 0)
        return brokenAt(
            c, r, ChainCheck::Break::Reordered,
            QStringLiteral("receipt at position #%1 was written as receipt #%2: the receipts were reordered")
                .arg(r.seq)
                .arg(s));
    if (w.recordedHeadSeq >= 0 && r.seq > w.recordedHeadSeq)
        return brokenAt(
            c, r, ChainCheck::Break::Inserted,
            QStringLiteral(
                "receipt #%1 was added outside Proofbench: the recorded head is #%2, and its content "
                "hashes to %3, not its stored %4")
                .arg(r.seq)
                .arg(w.recordedHeadSeq)
                .arg(shortHash(computed), shortHash(r.hash)));
    return brokenAt(c, r, ChainCheck::Break::Edited,
                    QStringLiteral("receipt #%1 was edited: its content hashes to %2, the stored hash is %3")
                        .arg(r.seq)
                        .arg(shortHash(computed), shortHash(r.hash)));
}

// Row i's break when its previous hash is not its predecessor's.
ChainCheck prevBreak(const ChainCheck& c, const ChainWalk& w, size_t i, const QString& expectedPrev) {
    const Receipt& r = w.rows[i];
    auto target = w.byHash.find(r.prevHash);
    if (target == w.byHash.end())
        return brokenAt(
            c, r, ChainCheck::Break::Deleted,
            QStringLiteral("receipt #%1's previous hash %2 points at no receipt: the receipt before it was "
                           "deleted or replaced (its predecessor now hashes to %3)")
                .arg(r.seq)
                .arg(shortHash(r.prevHash), shortHash(expectedPrev)));
    if (target->second > i)
        return brokenAt(
            c, r, ChainCheck::Break::Reordered,
            QStringLiteral(
                "receipt #%1 follows receipt #%2, which comes after it: the receipts were reordered")
                .arg(r.seq)
                .arg(w.rows[target->second].seq));
    // Its prev is an earlier receipt, but not its predecessor: the predecessor was put in between.
    return brokenAt(c, w.rows[i - 1], ChainCheck::Break::Inserted,
                    QStringLiteral("receipt #%1 was inserted: receipt #%2 follows receipt #%3, not #%1")
                        .arg(w.rows[i - 1].seq)
                        .arg(r.seq)
                        .arg(w.rows[target->second].seq));
}

// The first break along the chain, if any; expectedPrev ends as the last receipt's hash.
std::optional<ChainCheck> firstBreak(const ChainCheck& c, const ChainWalk& w, QString& expectedPrev) {
    const std::vector<Receipt>& rows = w.rows;
    qint64 expectedSeq = 1;
    for (size_t i = 0; i < rows.size(); ++i) {
        const Receipt& r = rows[i];
        if (w.byHash.count(r.hash) > 1) {
            const size_t other = w.byHash.find(r.hash)->second;
            if (other != i)
                return brokenAt(
                    c, r, ChainCheck::Break::Inserted,
                    QStringLiteral(
                        "receipt #%1 is a copy of receipt #%2 (same hash %3) inserted into the chain")
                        .arg(r.seq)
                        .arg(rows[other].seq)
                        .arg(shortHash(r.hash)));
        }
        const QString computed = r.computeHash();
        if (computed != r.hash)
            return hashBreak(c, w, r, computed);
        if (r.seq != expectedSeq)
            return brokenAt(
                c, r, ChainCheck::Break::Deleted,
                QStringLiteral("receipt(s) #%1..#%2 are missing: the sequence jumps from #%3 to #%4")
                    .arg(expectedSeq)
                    .arg(r.seq - 1)
                    .arg(expectedSeq - 1)
                    .arg(r.seq));
        if (r.prevHash != expectedPrev)
            return prevBreak(c, w, i, expectedPrev);
        expectedPrev = r.hash;
        expectedSeq = r.seq + 1;
    }
    return std::nullopt;
}

// The chain's end against the head row: the newest receipts removed (the head row remembers
// more than the table holds), rows added past it, or the head row missing.
ChainCheck checkRecordedHead(ChainCheck c, const std::vector<Receipt>& rows, qint64 headSeq,
                             const QString& headHash, const QString& lastHash) {
    if (headSeq >= 0) {
        const qint64 last = rows.empty() ? 0 : rows.back().seq;
        if (headSeq != last || headHash != lastHash) {
            c.ok = false;
            c.kind = headSeq > last ? ChainCheck::Break::Deleted : ChainCheck::Break::Inserted;
            c.firstBadSeq = headSeq > last ? last + 1 : headSeq + 1;
            c.detail = headSeq > last
                           ? QStringLiteral(
                                 "the newest receipt(s) #%1..#%2 are missing: the recorded head is #%2 %3")
                                 .arg(last + 1)
                                 .arg(headSeq)
                                 .arg(shortHash(headHash))
                           : QStringLiteral(
                                 "receipt(s) after the recorded head #%1 %2 were added outside Proofbench")
                                 .arg(headSeq)
                                 .arg(shortHash(headHash));
            return c;
        }
    } else if (!rows.empty()) {
        c.ok = false;
        c.kind = ChainCheck::Break::Edited;
        c.firstBadSeq = rows.back().seq;
        c.detail = QStringLiteral("the recorded chain head is missing");
    }
    return c;
}

} // namespace

Result<ChainCheck> Ledger::verify() const {
    auto all = list();
    if (!all)
        return all.error();
    const std::vector<Receipt>& rows = *all;
    auto headOrError = head();
    if (!headOrError)
        return headOrError.error();
    ChainCheck c;
    c.receipts = static_cast<int>(rows.size());
    c.head = *headOrError;

    ChainWalk walk{rows, {}, -1};
    for (size_t i = 0; i < rows.size(); ++i)
        walk.byHash.emplace(rows[i].hash, i);

    // The head Proofbench last wrote; rows past it were not written by Proofbench.
    QString recordedHeadHash;
    {
        QSqlQuery hq(m_db.sql());
        if (!hq.exec(QStringLiteral("SELECT seq, hash FROM receipts_head WHERE id = 1")))
            return db::sqlError(hq, QStringLiteral("receipts_head"));
        if (hq.next()) {
            walk.recordedHeadSeq = hq.value(0).toLongLong();
            recordedHeadHash = hq.value(1).toString();
        }
    }

    QString expectedPrev = genesisHash();
    if (std::optional<ChainCheck> broken = firstBreak(c, walk, expectedPrev))
        return *broken;
    return checkRecordedHead(c, rows, walk.recordedHeadSeq, recordedHeadHash, expectedPrev);
}

Result<Receipt> recordAction(const QString& dbPath, const ReceiptDraft& draft) {
    auto db = db::Database::open(dbPath);
    if (!db)
        return db.error();
    return Ledger(**db).record(draft);
}

Result<QJsonObject> exportLedger(db::Database& db) {
    Ledger ledger(db);
    auto rows = ledger.list();
    if (!rows)
        return rows.error();
    auto check = ledger.verify();
    if (!check)
        return check.error();
    QJsonArray receipts;
    for (const Receipt& r : *rows)
        receipts.append(r.toJson());
    return QJsonObject{{QStringLiteral("format"), QStringLiteral("proofbench-receipts/v1")},
                       {QStringLiteral("receipts"), receipts},
                       {QStringLiteral("head"), check->head.toJson()},
                       {QStringLiteral("chain"), check->toJson()}};
}

QByteArray headStatement(const ChainHead& head, const QString& databaseName) {
    return canonicalJson(QJsonObject{
        {QStringLiteral("type"), QStringLiteral("proofbench-receipts-head/v1")},
        {QStringLiteral("database"), databaseName},
        {QStringLiteral("seq"), head.seq},
        {QStringLiteral("hash"), head.hash},
        {QStringLiteral("time"), head.time.isValid() ? QJsonValue(isoTime(head.time)) : QJsonValue()}});
}

} // namespace pb::receipts
