// The operations layer: one implementation of each user action, called by the CLI (parse -> call
// -> print) and by the window (through a model or ops::Async). An operation takes a request
// struct and a Context (database, progress, cancel), returns Result<Outcome>, and owns its
// receipt: the action's database writes and its receipt are one transaction, and an action that
// writes files stages them beside their destination and moves them into place inside that
// transaction, so "done" always means "done and on record". A receipt that cannot be written is
// the operation's failure, never a warning after success. docs/ARCHITECTURE.md says how to add one.
#pragma once

#include "core/Files.h"
#include "core/Result.h"
#include "db/Database.h"
#include "receipts/Ledger.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace pb::db {
class Database;
}

namespace pb::ops {

struct Progress {
    qint64 done = 0;
    qint64 total = 0; // 0: unknown
    QString what;     // "resolving 12 of 45 leaves", "hashing checksums.txt"
};
using ProgressFn = std::function<void(const Progress&)>;

// What every operation is handed besides its request.
class Context {
  public:
    explicit Context(db::Database& db, ProgressFn progress = {}, const std::atomic_bool* cancel = nullptr)
        : m_db(db), m_progress(std::move(progress)), m_cancel(cancel) {}

    db::Database& db() const { return m_db; }
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    // For engine functions that take the flag itself; may be null.
    const std::atomic_bool* cancelFlag() const { return m_cancel; }
    void progress(qint64 done, qint64 total, const QString& what) const {
        if (m_progress)
            m_progress(Progress{done, total, what});
    }
    const ProgressFn& progressFn() const { return m_progress; }
    // The ledger receipts are written with (tests fix its clock through ledgerSetup()).
    receipts::Ledger ledger() const;
    // Tests: fix the receipts' clock and version for every ledger this context hands out.
    void setLedgerSetup(std::function<void(receipts::Ledger&)> setup) { m_ledgerSetup = std::move(setup); }

  private:
    db::Database& m_db;
    ProgressFn m_progress;
    const std::atomic_bool* m_cancel;
    std::function<void(receipts::Ledger&)> m_ledgerSetup;
};

// Files an operation writes: each is first written to a hidden temporary beside its destination
// (stage), then renamed into place inside the receipt's transaction (publish); discard() removes
// staged files that were never published. Destructor discards.
class StagedFiles {
  public:
    StagedFiles() = default;
    ~StagedFiles() { discard(); }
    StagedFiles(const StagedFiles&) = delete;
    StagedFiles& operator=(const StagedFiles&) = delete;

    // Writes `bytes` to a temporary next to `path` (OwnerOnly: created mode 0600); the error names `path`.
    Status stage(const QString& path, const QByteArray& bytes, FileAccess access = FileAccess::Normal);
    // A FileWriter (core/Files.h) that stages, for engine functions that write their own outputs.
    FileWriter writer();
    // Renames every staged file into place; on a failure the ones already moved are put back.
    Status publish();
    void discard();
    // Undoes publish(): removes the published files and restores the ones they replaced.
    void rollback();
    // The destination paths, in the order they were staged.
    QStringList paths() const;
    // Each staged file as a receipt artifact (its destination path, sha256 and size).
    std::vector<receipts::Artifact> artifacts() const;

  private:
    struct File {
        QString path, temp, backup;
        QString sha256;
        qint64 size = 0;
        bool published = false;
    };
    std::vector<File> m_files;
};

// THE receipt API: every operation keeps its receipt through a ReceiptTransaction, directly or
// through transact()/record() below. It begins a transaction (a savepoint inside an outer one);
// the operation makes its database writes on ctx.db(); commit() appends the receipt, moves the
// staged files into place and commits, all or nothing (files put back when the commit fails), and
// RETURNS the receipt as stored (seq, hash). Never read ledger().head() afterwards: another
// connection may have appended in between. Destroyed without commit(): rolled back.
//
// Where receipts cannot be written (a read-only replica; an auditor, who writes nothing), it is
// unrecorded: no transaction, and commit() publishes the files and returns the receipt as it would
// have been, with seq 0 and no hash: the result is shown, nothing is stored (the faces say so).
class ReceiptTransaction {
  public:
    explicit ReceiptTransaction(const Context& ctx);
    ReceiptTransaction(const ReceiptTransaction&) = delete;
    ReceiptTransaction& operator=(const ReceiptTransaction&) = delete;

    // The error when the transaction could not begin (commit() then returns it too).
    Status started() const;
    bool nested() const { return m_tx && m_tx->nested(); }
    // False where receipts cannot be written (see above).
    bool recorded() const { return m_tx.has_value(); }
    // Appends `draft`, publishes `files` (may be null), commits. `what` names what is lost when
    // the receipt cannot be written ("the catalog version"; default "nothing").
    Result<receipts::Receipt> commit(const receipts::ReceiptDraft& draft, StagedFiles* files = nullptr,
                                     const QString& what = {});
    // Ends the transaction with no receipt (a nested attempt that wrote nothing).
    void end() {
        if (m_tx)
            m_tx->commit();
    }

  private:
    const Context& m_ctx;
    std::optional<db::Transaction> m_tx;
};

// Refuses, before any work (so nothing is written), an action the connection's team role may not
// take (db/Team.h): "role proofbench_auditor may not import catalogs". The server would refuse its
// writes anyway; this says so first, in the action's words. Allowed on a SQLite file.
Status require(const Context& ctx, db::Capability capability);

// An operation's outcome and the receipt it wrote.
template <typename T> struct Recorded {
    T value;
    receipts::Receipt receipt;
};

// One ReceiptTransaction around `effect` (database writes on ctx.db(); returns
// Result<std::pair<T, ReceiptDraft>>) and, when given, the staged `files`.
template <typename T, typename Effect>
Result<Recorded<T>> transact(const Context& ctx, Effect&& effect, StagedFiles* files = nullptr);

// A ReceiptTransaction whose only database write is the receipt (and `files`, when given).
Result<receipts::Receipt> record(const Context& ctx, const receipts::ReceiptDraft& draft,
                                 StagedFiles* files = nullptr);

receipts::Outcome outcomeOf(bool ok);

} // namespace pb::ops

#include "ops/Operation_impl.h"
