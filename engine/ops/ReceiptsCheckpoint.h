// Anchoring the receipts ledger outside its database (CLI `receipts checkpoint` and `receipts verify
// --checkpoint`, the Receipts view's checkpoint line). A ledger whose every receipt and head were
// deleted, or rewritten and rehashed, still recomputes; only something kept elsewhere can say it once
// was longer. A checkpoint is that something: one file holding the head statement
// (receipts::headStatement: database, seq, hash, time) and a Sigstore bundle signed over it with a
// signing key. Checking a ledger against it needs the public key and nothing from the database:
//   - the bundle verifies against the key for exactly the statement's bytes;
//   - the ledger is at least as long as the checkpoint (else receipts were removed);
//   - the ledger's receipt #seq has the checkpoint's hash (else the ledger was rewritten: it does not
//     extend the checkpoint).
// Writing a checkpoint is recorded as a receipts.checkpoint receipt (the window reads the last one
// from the ledger; it is a convenience, not the anchor: the file is).
#pragma once

#include "ops/Operation.h"
#include "sigstore/Verify.h"

#include <openssl/types.h>

#include <optional>
#include <vector>

namespace pb::ops {

inline constexpr QLatin1StringView kCheckpointFormat{"proofbench-receipts-checkpoint/v1"};

struct CheckpointRequest {
    EVP_PKEY* key = nullptr; // borrowed
    QString outPath;         // the checkpoint file
    QString databaseName;    // named in the statement; empty: the database file's name
};

struct CheckpointWritten {
    receipts::ChainHead head;
    QString keyFingerprint;
    QByteArray bytes; // the file as written
};

// Refuses a broken chain (a checkpoint vouches for an intact one) and an empty ledger.
Result<CheckpointWritten> writeCheckpoint(const Context& ctx, const CheckpointRequest& request);

// A checkpoint file as read (not yet trusted).
struct CheckpointFile {
    QString path;
    QByteArray statement; // the signed bytes
    QByteArray bundle;    // the Sigstore bundle JSON
    QString database, hash;
    qint64 seq = 0;
    QDateTime time;
};
Result<CheckpointFile> readCheckpoint(const QString& path);

struct CheckpointCheck {
    CheckpointFile checkpoint;
    sigstore::VerificationResult signature;
    bool signatureOk = false;
    qint64 ledgerSeq = 0;    // the ledger's head now
    bool extends = false;    // the ledger holds the checkpoint's receipt, unchanged
    bool ok = false;         // signature and ledger both
    QString detail;          // the verdict in one sentence
    QString expected, found; // side by side when the ledger does not extend it
    QJsonObject toJson() const;
    QString toText() const;
};

// Checks the ledger of ctx.db() against each checkpoint with the public key at publicKeyPath.
Result<std::vector<CheckpointCheck>> checkCheckpoints(const Context& ctx, const QStringList& checkpointPaths,
                                                      const QString& publicKeyPath);

// The newest receipts.checkpoint receipt in `ledger` (oldest first) and how far the chain has grown.
struct CheckpointNote {
    qint64 seq = 0; // the head it covers
    QString hash, file, keyFingerprint;
    QDateTime time; // when it was written
    qint64 receiptSeq = 0;
    qint64 grownBy = 0; // receipts after the covered head (the checkpoint's own receipt is one)
};
std::optional<CheckpointNote> lastCheckpoint(const std::vector<receipts::Receipt>& ledger);

} // namespace pb::ops
