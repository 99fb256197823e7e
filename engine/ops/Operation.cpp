#include "ops/Operation.h"

#include "core/Hash.h"
#include "db/Database.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSqlError>

namespace pb::ops {

receipts::Ledger Context::ledger() const {
    receipts::Ledger l(m_db);
    if (m_ledgerSetup)
        m_ledgerSetup(l);
    return l;
}

receipts::Outcome outcomeOf(bool ok) {
    return ok ? receipts::Outcome::Ok : receipts::Outcome::Failed;
}

namespace {

QString tempBeside(const QString& path, const char* tag) {
    const QFileInfo fi(path);
    return fi.dir().filePath(QStringLiteral(".%1.%2-%3")
                                 .arg(fi.fileName(), QLatin1String(tag))
                                 .arg(QCoreApplication::applicationPid()));
}

} // namespace

FileWriter StagedFiles::writer() {
    return [this](const QString& path, const QByteArray& bytes, FileAccess access) {
        return stage(path, bytes, access);
    };
}

Status StagedFiles::stage(const QString& path, const QByteArray& bytes, FileAccess access) {
    File f;
    f.path = path;
    f.temp = tempBeside(path, "staged");
    QFile::remove(f.temp);
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return makeError(QStringLiteral("cannot create the directory"), path);
    QFile out(f.temp);
    const bool opened = access == FileAccess::OwnerOnly
                            ? out.open(QIODevice::WriteOnly | QIODevice::NewOnly,
                                       QFileDevice::ReadOwner | QFileDevice::WriteOwner)
                            : out.open(QIODevice::WriteOnly | QIODevice::Truncate);
    if (!opened)
        return makeError(QStringLiteral("cannot write: %1").arg(out.errorString()), path);
    if (out.write(bytes) != bytes.size() || !out.flush()) {
        const QString why = out.errorString();
        out.close();
        QFile::remove(f.temp);
        return makeError(QStringLiteral("cannot write: %1").arg(why), path);
    }
    out.close();
    f.sha256 = sha256Hex(bytes);
    f.size = bytes.size();
    m_files.push_back(std::move(f));
    return {};
}

Status StagedFiles::publish() {
    for (File& f : m_files) {
        if (f.published)
            continue;
        if (QFileInfo::exists(f.path)) {
            f.backup = tempBeside(f.path, "previous");
            QFile::remove(f.backup);
            if (!QFile::rename(f.path, f.backup))
                return makeError(QStringLiteral("cannot replace the existing file"), f.path);
        }
        if (!QFile::rename(f.temp, f.path)) {
            if (!f.backup.isEmpty())
                QFile::rename(f.backup, f.path);
            f.backup.clear();
            rollback(); // put back what was already moved
            return makeError(QStringLiteral("cannot move the written file into place"), f.path);
        }
        f.published = true;
    }
    return {};
}

void StagedFiles::rollback() {
    for (File& g : m_files) {
        if (!g.published)
            continue;
        QFile::remove(g.path);
        if (!g.backup.isEmpty())
            QFile::rename(g.backup, g.path);
        g.backup.clear();
        g.published = false;
    }
    discard();
}

void StagedFiles::discard() {
    for (File& f : m_files) {
        if (!f.published)
            QFile::remove(f.temp);
        else if (!f.backup.isEmpty())
            QFile::remove(f.backup);
    }
    m_files.clear();
}

std::vector<receipts::Artifact> StagedFiles::artifacts() const {
    std::vector<receipts::Artifact> out;
    for (const File& f : m_files)
        out.push_back(receipts::Artifact::digest(f.path, f.sha256, f.size));
    return out;
}

QStringList StagedFiles::paths() const {
    QStringList out;
    for (const File& f : m_files)
        out << f.path;
    return out;
}

ReceiptTransaction::ReceiptTransaction(const Context& ctx) : m_ctx(ctx) {
    if (db::mayWriteReceipts(ctx.db().access()))
        m_tx.emplace(ctx.db());
}

Status ReceiptTransaction::started() const {
    if (!m_tx || m_tx->started())
        return {};
    return makeError(QStringLiteral("cannot start the transaction its receipt is written in, so nothing was "
                                    "done: %1")
                         .arg(m_tx->errorText()),
                     m_ctx.db().path());
}

Result<receipts::Receipt> ReceiptTransaction::commit(const receipts::ReceiptDraft& draft, StagedFiles* files,
                                                     const QString& what) {
    const QString& path = m_ctx.db().path();
    if (Status s = started(); !s) {
        if (files)
            files->discard();
        return s.error();
    }
    if (!m_tx) {
        // Nothing can be stored here: the local files are the user's own, the receipt only shown.
        if (files)
            if (Status s = files->publish(); !s) {
                files->discard();
                return s.error();
            }
        receipts::Receipt shown;
        shown.kind = draft.kind;
        shown.time = QDateTime::currentDateTimeUtc();
        shown.parameters = receipts::sanitizeParameters(draft.parameters);
        shown.inputs = draft.inputs;
        shown.outputs = draft.outputs;
        shown.result = draft.result;
        shown.message = draft.message;
        shown.author = m_ctx.db().sessionUser();
        if (files)
            files->discard();
        return shown;
    }
    const QString lost = !what.isEmpty() ? QStringLiteral("the %1 was not kept").arg(what)
                         : files         ? QStringLiteral("no file was written")
                                         : QStringLiteral("nothing was kept");
    auto r = m_ctx.ledger().append(draft);
    if (!r) {
        if (files)
            files->discard();
        return makeError(QStringLiteral("receipt not written, so %1: %2").arg(lost, r.error().toString()),
                         path);
    }
    if (files) {
        if (Status s = files->publish(); !s) {
            files->discard();
            return s.error();
        }
    }
    if (!m_tx->commit()) {
        if (files)
            files->rollback(); // nothing on disk that the ledger does not record
        return makeError(QStringLiteral("cannot commit the receipt, so %1: %2")
                             .arg(lost, m_ctx.db().sql().lastError().text()),
                         path);
    }
    if (files && !m_tx->nested())
        files->discard(); // drops the backups of replaced files (an outer transaction may still roll back)
    return r;
}

Status require(const Context& ctx, db::Capability capability) {
    const QString why = db::refusal(ctx.db().access(), capability);
    if (why.isEmpty())
        return {};
    return makeError(why, ctx.db().displayName());
}

Result<receipts::Receipt> record(const Context& ctx, const receipts::ReceiptDraft& draft,
                                 StagedFiles* files) {
    ReceiptTransaction tx(ctx);
    return tx.commit(draft, files);
}

} // namespace pb::ops
