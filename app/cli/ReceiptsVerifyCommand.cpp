// proofbench receipts verify: recompute the receipts chain; name the first receipt that breaks it
#include "cli/ReceiptsSupport.h"

#include "ops/ReceiptsCheckpoint.h"

namespace pb::cli {

static int receiptsVerify(const QCommandLineParser& p) {
    const QStringList checkpoints = p.values(QStringLiteral("checkpoint"));
    if (!checkpoints.isEmpty() && !p.isSet(QStringLiteral("key")))
        return usage(QStringLiteral("--checkpoint needs --key PUBLIC_KEY (the key it was signed with)"),
                     QStringLiteral("receipts verify"));
    if (checkpoints.isEmpty() && p.isSet(QStringLiteral("key")))
        return usage(QStringLiteral("--key is the public key of a --checkpoint; give the checkpoint"),
                     QStringLiteral("receipts verify"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    const ops::Context ctx(**db);
    auto verified = ops::verifyReceipts(ctx);
    if (!verified)
        return fail(verified.error());
    const ChainCheck* check = &verified->chain;
    std::vector<ops::CheckpointCheck> anchored;
    if (!checkpoints.isEmpty()) {
        auto checked = ops::checkCheckpoints(ctx, checkpoints, p.value(QStringLiteral("key")));
        if (!checked)
            return fail(checked.error());
        anchored = std::move(*checked);
    }
    bool anchorsOk = true;
    for (const ops::CheckpointCheck& c : anchored)
        anchorsOk = anchorsOk && c.ok;
    if (asJson(p)) {
        QJsonObject o = check->toJson();
        if (!checkpoints.isEmpty()) {
            QJsonArray list;
            for (const ops::CheckpointCheck& c : anchored)
                list.append(c.toJson());
            o.insert(QStringLiteral("checkpoints"), list);
        }
        printJson(o);
    } else {
        out() << check->toText();
        for (const ops::CheckpointCheck& c : anchored)
            out() << c.toText();
    }
    out().flush();
    if (!check->ok)
        err() << "proofbench: receipts chain broken at #" << check->firstBadSeq << " ("
              << breakName(check->kind) << ")" << Qt::endl;
    for (const ops::CheckpointCheck& c : anchored)
        if (!c.ok)
            err() << "proofbench: " << c.checkpoint.path << ": " << c.detail << Qt::endl;
    return check->ok && anchorsOk ? kOk : kFailed;
}

Command receiptsVerifyCommand() {
    Command p(
        QStringLiteral("receipts verify"),
        QStringLiteral("recompute the receipts chain; name the first receipt that breaks it"),
        QStringLiteral("Recompute the receipts chain and name the first receipt that breaks it "
                       "(edited, deleted, inserted or "
                       "reordered). With --checkpoint (repeatable) and --key, also check that the "
                       "ledger reaches and extends each checkpoint `receipts checkpoint` wrote, signed "
                       "by that public key: a ledger erased whole, or rewritten and rehashed, recomputes "
                       "but fails here. Exit 0 only when the chain is intact and every checkpoint holds."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addOption({QStringLiteral("checkpoint"),
                 QStringLiteral("A checkpoint file the ledger must reach and extend (repeatable)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("key"),
                 QStringLiteral("The public key the checkpoints were signed with (PEM)."),
                 QStringLiteral("PUB")});
    p.handler = receiptsVerify;
    return p;
}

} // namespace pb::cli
