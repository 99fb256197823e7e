#include "ops/ReceiptsCheckpoint.h"

#include "core/Files.h"
#include "db/Database.h"
#include "receipts/Canonical.h"
#include "receipts/Kinds.h"
#include "sigstore/Keys.h"
#include "sigstore/Sign.h"
#include "sigstore/TrustedRoot.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace pb::ops {

Result<CheckpointWritten> writeCheckpoint(const Context& ctx, const CheckpointRequest& request) {
    using namespace pb::receipts;
    if (!request.key)
        return makeError(QStringLiteral("a checkpoint is signed: give a signing key (--key)"));
    if (request.outPath.isEmpty())
        return makeError(QStringLiteral("a checkpoint is a file kept outside the database: give --out FILE"));
    Ledger ledger = ctx.ledger();
    ChainCheck check;
    {
        db::Transaction tx(ctx.db(), db::Transaction::Mode::Read);
        auto verified = ledger.verify();
        if (!verified)
            return verified.error();
        check = std::move(*verified);
    }
    if (!check.ok)
        return makeError(QStringLiteral("refused: the receipts chain is broken at #%1 (%2): %3; a checkpoint "
                                        "vouches only for an intact chain")
                             .arg(check.firstBadSeq)
                             .arg(breakName(check.kind), check.detail),
                         ctx.db().path());
    if (check.head.seq == 0)
        return makeError(QStringLiteral("refused: the ledger is empty, there is no head to checkpoint"),
                         ctx.db().path());
    CheckpointWritten out;
    out.head = check.head;
    out.keyFingerprint = sigstore::keyFingerprint(request.key);
    const QString name =
        request.databaseName.isEmpty() ? db::Database::shortName(ctx.db().path()) : request.databaseName;
    const QByteArray statement = headStatement(out.head, name);
    auto bundle = sigstore::signBlob(request.key, statement);
    if (!bundle)
        return bundle.error();
    const QJsonObject file{{QStringLiteral("format"), QString(kCheckpointFormat)},
                           {QStringLiteral("statement"), QString::fromUtf8(statement)},
                           {QStringLiteral("bundle"), QJsonDocument::fromJson(*bundle).object()}};
    out.bytes = QJsonDocument(file).toJson(QJsonDocument::Indented);
    StagedFiles files;
    if (Status s = files.stage(request.outPath, out.bytes); !s)
        return s.error();
    ReceiptDraft d;
    d.kind = kinds::ReceiptsCheckpoint;
    d.parameters = QJsonObject{{QStringLiteral("keyFingerprint"), out.keyFingerprint},
                               {QStringLiteral("seq"), out.head.seq},
                               {QStringLiteral("hash"), out.head.hash}};
    d.inputs.push_back(
        Artifact::digest(QStringLiteral("receipts head #%1").arg(out.head.seq), out.head.hash));
    d.outputs.push_back(Artifact::bytes(request.outPath, out.bytes));
    d.message = QStringLiteral("checkpoint of head #%1 %2").arg(out.head.seq).arg(out.head.hash);
    if (auto r = record(ctx, d, &files); !r)
        return r.error();
    return out;
}

Result<CheckpointFile> readCheckpoint(const QString& path) {
    auto bytes = readFileLimited(path, limits::kSmallFile, QStringLiteral("the checkpoint"));
    if (!bytes)
        return bytes.error();
    QJsonParseError perr{};
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(QStringLiteral("not a checkpoint: malformed JSON (%1)").arg(perr.errorString()),
                         path);
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("format")).toString() != kCheckpointFormat)
        return makeError(QStringLiteral("not a checkpoint: format is '%1', expected '%2'")
                             .arg(o.value(QStringLiteral("format")).toString(), QString(kCheckpointFormat)),
                         path, 0, QStringLiteral("format"));
    CheckpointFile c;
    c.path = path;
    c.statement = o.value(QStringLiteral("statement")).toString().toUtf8();
    if (!o.value(QStringLiteral("bundle")).isObject())
        return makeError(QStringLiteral("missing or not an object"), path, 0, QStringLiteral("bundle"));
    c.bundle = QJsonDocument(o.value(QStringLiteral("bundle")).toObject()).toJson(QJsonDocument::Compact);
    const QJsonObject s = QJsonDocument::fromJson(c.statement).object();
    if (s.value(QStringLiteral("type")).toString() != QLatin1String("proofbench-receipts-head/v1"))
        return makeError(QStringLiteral("not a receipts head statement"), path, 0,
                         QStringLiteral("statement.type"));
    // The statement is canonical JSON as written: anything else was not produced by Proofbench.
    if (receipts::canonicalJson(s) != c.statement)
        return makeError(QStringLiteral("the statement is not in canonical form"), path, 0,
                         QStringLiteral("statement"));
    const QJsonValue seq = s.value(QStringLiteral("seq"));
    if (!seq.isDouble() || seq.toInteger(-1) < 1 || double(seq.toInteger()) != seq.toDouble())
        return makeError(QStringLiteral("not a positive integer"), path, 0, QStringLiteral("statement.seq"));
    c.seq = seq.toInteger();
    c.hash = s.value(QStringLiteral("hash")).toString();
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    if (!hex.match(c.hash).hasMatch())
        return makeError(QStringLiteral("not 64 lower-case hex digits"), path, 0,
                         QStringLiteral("statement.hash"));
    c.database = s.value(QStringLiteral("database")).toString();
    c.time = QDateTime::fromString(s.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    return c;
}

QJsonObject CheckpointCheck::toJson() const {
    QJsonObject o{{QStringLiteral("checkpoint"), checkpoint.path},
                  {QStringLiteral("database"), checkpoint.database},
                  {QStringLiteral("seq"), checkpoint.seq},
                  {QStringLiteral("hash"), checkpoint.hash},
                  {QStringLiteral("time"),
                   checkpoint.time.isValid() ? QJsonValue(receipts::isoTime(checkpoint.time)) : QJsonValue()},
                  {QStringLiteral("signatureVerified"), signatureOk},
                  {QStringLiteral("signature"), signature.toJson()},
                  {QStringLiteral("ledgerSeq"), ledgerSeq},
                  {QStringLiteral("extends"), extends},
                  {QStringLiteral("ok"), ok},
                  {QStringLiteral("detail"), detail}};
    if (!expected.isEmpty() || !found.isEmpty()) {
        o.insert(QStringLiteral("expected"), expected);
        o.insert(QStringLiteral("found"), found);
    }
    return o;
}

QString CheckpointCheck::toText() const {
    QString t =
        QStringLiteral("checkpoint %1: head #%2 %3 (%4, database %5)\n")
            .arg(checkpoint.path)
            .arg(checkpoint.seq)
            .arg(checkpoint.hash)
            .arg(checkpoint.time.isValid() ? receipts::isoTime(checkpoint.time) : QStringLiteral("no time"),
                 checkpoint.database);
    t += QStringLiteral("  signature: %1\n")
             .arg(signatureOk ? QStringLiteral("verified with the public key") : signature.summary());
    t += QStringLiteral("  %1: %2\n").arg(ok ? QStringLiteral("ok") : QStringLiteral("FAILED"), detail);
    if (!expected.isEmpty() || !found.isEmpty())
        t += QStringLiteral("    expected: %1\n    found:    %2\n").arg(expected, found);
    return t;
}

namespace {

CheckpointCheck checkOne(receipts::Ledger& ledger, const receipts::ChainHead& head, CheckpointFile file,
                         const sigstore::Policy& policy) {
    CheckpointCheck c;
    c.checkpoint = std::move(file);
    c.ledgerSeq = head.seq;
    static const sigstore::TrustedRoot noRoot; // a key needs no trust material
    c.signature =
        sigstore::verifyBundle(c.checkpoint.bundle, c.checkpoint.path,
                               sigstore::Artifact::fromBytes(c.checkpoint.statement), noRoot, policy);
    c.signatureOk = c.signature.verified;
    const QString covered = QStringLiteral("#%1 %2").arg(c.checkpoint.seq).arg(c.checkpoint.hash);
    if (head.seq < c.checkpoint.seq) {
        c.detail = QStringLiteral("the ledger is shorter than the checkpoint: it ends at #%1, the checkpoint "
                                  "covers #%2; receipts were removed")
                       .arg(head.seq)
                       .arg(c.checkpoint.seq);
        c.expected = QStringLiteral("a ledger reaching %1").arg(covered);
        c.found = head.seq == 0 ? QStringLiteral("an empty ledger")
                                : QStringLiteral("head #%1 %2").arg(head.seq).arg(head.hash);
    } else if (auto r = ledger.receipt(c.checkpoint.seq); !r) {
        c.detail = QStringLiteral("the ledger does not extend the checkpoint: it has no receipt #%1")
                       .arg(c.checkpoint.seq);
        c.expected = QStringLiteral("receipt #%1").arg(covered);
        c.found = r.error().message;
    } else if (r->hash != c.checkpoint.hash) {
        c.detail = QStringLiteral("the ledger does not extend the checkpoint: receipt #%1 is not the one the "
                                  "checkpoint covers (the ledger was rewritten)")
                       .arg(c.checkpoint.seq);
        c.expected = QStringLiteral("receipt #%1").arg(covered);
        c.found = QStringLiteral("receipt #%1 %2").arg(r->seq).arg(r->hash);
    } else {
        c.extends = true;
        c.detail = head.seq == c.checkpoint.seq
                       ? QStringLiteral("the ledger ends at the checkpoint's head")
                       : QStringLiteral("the ledger extends the checkpoint by %1 receipt%2 (now #%3)")
                             .arg(head.seq - c.checkpoint.seq)
                             .arg(head.seq - c.checkpoint.seq == 1 ? QString() : QStringLiteral("s"))
                             .arg(head.seq);
    }
    if (!c.signatureOk)
        c.detail = QStringLiteral("the checkpoint's signature does not verify with this key (%1); %2")
                       .arg(c.signature.summary(), c.detail);
    c.ok = c.signatureOk && c.extends;
    return c;
}

} // namespace

Result<std::vector<CheckpointCheck>> checkCheckpoints(const Context& ctx, const QStringList& checkpointPaths,
                                                      const QString& publicKeyPath) {
    if (publicKeyPath.isEmpty())
        return makeError(
            QStringLiteral("checking a checkpoint needs the public key it was signed with (--key)"));
    auto pem = readFileLimited(publicKeyPath, limits::kSmallFile, QStringLiteral("the public key"));
    if (!pem)
        return pem.error();
    sigstore::Policy policy;
    policy.publicKeyPem = *pem;
    policy.ignoreTlog = true; // signed offline, as receipts export --key signs a head
    policy.prepare();
    std::vector<CheckpointFile> files;
    for (const QString& path : checkpointPaths) {
        auto f = readCheckpoint(path);
        if (!f)
            return f.error();
        files.push_back(std::move(*f));
    }
    receipts::Ledger ledger = ctx.ledger();
    db::Transaction tx(ctx.db(), db::Transaction::Mode::Read);
    auto head = ledger.head();
    if (!head)
        return head.error();
    std::vector<CheckpointCheck> out;
    for (CheckpointFile& f : files)
        out.push_back(checkOne(ledger, *head, std::move(f), policy));
    return out;
}

std::optional<CheckpointNote> lastCheckpoint(const std::vector<receipts::Receipt>& ledger) {
    for (auto it = ledger.rbegin(); it != ledger.rend(); ++it) {
        if (it->kind != receipts::kinds::ReceiptsCheckpoint || it->result != receipts::Outcome::Ok)
            continue;
        CheckpointNote n;
        n.seq = it->parameters.value(QStringLiteral("seq")).toInteger();
        n.hash = it->parameters.value(QStringLiteral("hash")).toString();
        n.keyFingerprint = it->parameters.value(QStringLiteral("keyFingerprint")).toString();
        n.file = it->outputs.empty() ? QString() : it->outputs.front().name;
        n.time = it->time;
        n.receiptSeq = it->seq;
        n.grownBy = ledger.back().seq - n.seq;
        return n;
    }
    return std::nullopt;
}

} // namespace pb::ops
