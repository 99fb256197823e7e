// The receipts ledger: every action Proofbench performs (catalog import, recipe export, evidence
// import and check, verification, signing, bundle verification, validation run, report export,
// records import) leaves one receipt in the database, chained by hash so that an edited, deleted,
// inserted or reordered receipt is detected and named (verify()).
//
// A receipt is the JSON object
//   {"seq":N, "kind":K, "time":"2026-11-30T14:49:16.123Z", "version":"<Proofbench version>",
//    "parameters":{...}, "inputs":[{"name","sha256","size"}...], "outputs":[...],
//    "result":{"status":"ok|failed|partial","message":M}, "prev":"<64 hex>"}
// written in canonical form (receipts/Canonical.h: sorted keys, no whitespace, UTF-8). Its hash is
//   hash = lower-hex( sha256( ASCII(prev) || canonical ) )
// where prev is the previous receipt's hash, or 64 zeros for the first receipt (seq 1). The chain
// head is the last receipt's seq and hash; the table receipts_head keeps a copy so that removing the
// newest receipts is noticed too (an exported, signed head proves it against anyone who can write
// the file).
//
// Where a receipt is written: by the operation that does the action (engine/ops/), in the same
// transaction as the action's own writes (append() inside the operation's transaction), or in a
// transaction of its own for an action that writes nothing else (record()). receipts/Kinds.h lists
// every kind and its parameter keys; append() refuses any other. The stores write no receipts.
// Parameters never hold secrets: sanitizeParameters() drops passphrases, passwords, tokens, private
// keys and credentials by key name before anything is hashed or stored.
#pragma once

#include "core/Result.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

namespace pb::db {
class Database;
}

namespace pb::receipts {

enum class Outcome { Ok, Failed, Partial };
QString outcomeName(Outcome o); // "ok", "failed", "partial"
std::optional<Outcome> parseOutcome(const QString& s);

// A file (or a named thing such as a database row) an action read or wrote.
struct Artifact {
    QString name;     // a path as the user gave it, or a name such as "catalog version sample-2"
    QString sha256;   // 64 lower-case hex, empty when there are no bytes to hash (a directory: see below)
    qint64 size = -1; // bytes; -1 when not a single file

    // A file: its path, sha256 and size (sha256 empty and an error-free artifact when unreadable).
    // A file over kMaxHashedInput is recorded by name and size, unread (sha256 empty; in a directory's
    // listing "not-hashed:N-bytes").
    static constexpr qint64 kMaxHashedInput = 1ll << 30;
    static Artifact file(const QString& path);
    static Artifact bytes(const QString& name, const QByteArray& content);
    // A directory: sha256 over the sorted "<sha256>  <relative path>\n" lines of every file below it
    // (sha256sum's format), size = the total bytes.
    static Artifact directory(const QString& path);
    // Something with a digest already known (e.g. a catalog content digest "sha256:...").
    static Artifact digest(const QString& name, const QString& sha256Hex, qint64 size = -1);

    QJsonObject toJson() const;
    static Artifact fromJson(const QJsonObject& o);
    bool operator==(const Artifact&) const = default;
};

// What an action hands the ledger.
struct ReceiptDraft {
    QString kind; // e.g. "catalog.import"; see docs/RECEIPTS.md for the list
    QJsonObject parameters;
    std::vector<Artifact> inputs, outputs;
    Outcome result = Outcome::Ok;
    QString message;
};

struct Receipt {
    qint64 seq = 0;
    QString kind;
    QDateTime time; // UTC, millisecond precision
    QString version;
    QJsonObject parameters;
    std::vector<Artifact> inputs, outputs;
    Outcome result = Outcome::Ok;
    QString message;
    QString prevHash; // 64 hex
    QString hash;     // 64 hex, as stored
    // Who wrote it: on PostgreSQL the session's login user, which the server checks (session_user);
    // empty in a SQLite file, which has no users. Part of the hash when not empty.
    QString author;

    // The canonical object (everything but the hash) and its bytes.
    QJsonObject body() const;
    QByteArray canonical() const;
    // sha256(prev || canonical) over this receipt's fields (as they are now).
    QString computeHash() const;
    // body() plus "hash".
    QJsonObject toJson() const;
};

QString genesisHash();               // 64 zeros
QString isoTime(const QDateTime& t); // "yyyy-MM-ddTHH:mm:ss.zzzZ"

// Drops every member whose key names a secret (passphrase, password, token, secret, private key,
// credential, authorization, cookie), at every depth.
QJsonObject sanitizeParameters(const QJsonObject& parameters);

// Receipts a client of this process (a Database::origin(), not 0) appended to the database `dbPath`
// (a Database's path(); the newest 4096 per database are remembered): a live view tells its own
// client's writes from other clients'.
void noteOwnReceipt(const QString& dbPath, quint64 origin, qint64 seq);
bool isOwnReceipt(const QString& dbPath, quint64 origin, qint64 seq);

struct ChainHead {
    qint64 seq = 0;             // 0: empty ledger
    QString hash;               // genesisHash() for an empty ledger
    QDateTime time;             // time of the newest receipt
    QJsonObject toJson() const; // {"seq","hash","time"}
};

// What verify() found. `ok` only when every receipt recomputes and links to its predecessor.
struct ChainCheck {
    enum class Break { None, Edited, Deleted, Inserted, Reordered };
    bool ok = true;
    int receipts = 0;
    Break kind = Break::None;
    qint64 firstBadSeq = 0; // the first receipt (by position) that breaks; 0 when intact
    QString detail;         // what is wrong with it, naming seqs and hashes
    ChainHead head;
    QJsonObject toJson() const;
    QString toText() const;
};
QString breakName(ChainCheck::Break b); // "edited", "deleted", "inserted", "reordered"

struct ListFilter {
    QString kind; // exact kind, or a prefix ending in '.' ("evidence.")
    std::optional<Outcome> result;
    QDateTime from, to; // inclusive bounds; invalid = open
    int limit = 0;      // 0: all
};

class Ledger {
  public:
    explicit Ledger(db::Database& db);

    // Appends within the transaction the caller has open on this database's connection (the
    // store classes' import transactions). Does not begin or commit.
    Result<Receipt> append(const ReceiptDraft& draft);
    // Appends in a transaction of its own: the entry point for actions with no other write.
    Result<Receipt> record(const ReceiptDraft& draft);

    Result<std::vector<Receipt>> list(const ListFilter& filter = {}) const; // oldest first
    Result<Receipt> receipt(qint64 seq) const;
    Result<ChainHead> head() const;
    // Recomputes the whole chain from the stored rows.
    Result<ChainCheck> verify() const;

    // Tests and tools may fix the clock; the default is QDateTime::currentDateTimeUtc().
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }
    // The version written into receipts; default QCoreApplication::applicationVersion() (or "dev").
    void setVersion(const QString& version) { m_version = version; }

  private:
    db::Database& m_db;
    std::function<QDateTime()> m_clock;
    QString m_version;
};

// Opens the database at `dbPath` and records one receipt (own transaction). For actions that only
// know a path (CLI verbs, GUI dialogs).
Result<Receipt> recordAction(const QString& dbPath, const ReceiptDraft& draft);

// `receipts export`: {"format":"proofbench-receipts/v1","receipts":[...],"head":{...},"chain":{verify()}}.
Result<QJsonObject> exportLedger(db::Database& db);
// The statement a signed head covers: canonical JSON of
// {"type":"proofbench-receipts-head/v1","database":<file name>,"seq":N,"hash":H,"time":T}.
QByteArray headStatement(const ChainHead& head, const QString& databaseName);

} // namespace pb::receipts
