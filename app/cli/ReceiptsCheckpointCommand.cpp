// proofbench receipts checkpoint: sign the ledger's head into a file kept outside the database
#include "cli/ReceiptsSupport.h"

#include "ops/ReceiptsCheckpoint.h"

namespace pb::cli {

static int receiptsCheckpoint(const QCommandLineParser& p) {
    const QString outPath = p.value(QStringLiteral("out"));
    if (outPath.isEmpty())
        return usage(QStringLiteral("give --out FILE: a checkpoint is kept outside the database"),
                     QStringLiteral("receipts checkpoint"));
    if (!p.isSet(QStringLiteral("key")))
        return usage(QStringLiteral("give --key KEY: a checkpoint is signed"),
                     QStringLiteral("receipts checkpoint"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto key = privateKeyFrom(p);
    if (!key)
        return fail(key.error());
    ops::CheckpointRequest req;
    req.key = key->get();
    req.outPath = outPath;
    req.databaseName = db::Database::shortName(dbPath(p));
    auto written = ops::writeCheckpoint(ops::Context(**db), req);
    if (!written)
        return fail(written.error());
    if (asJson(p)) {
        printJson(QJsonObject{{QStringLiteral("checkpoint"), outPath},
                              {QStringLiteral("head"), written->head.toJson()},
                              {QStringLiteral("keyFingerprint"), written->keyFingerprint}});
    } else {
        out() << "checkpoint of receipts head #" << written->head.seq << " " << written->head.hash << " -> "
              << outPath << "\n  signed by key " << written->keyFingerprint
              << "\n  keep it outside the database; check the ledger against it with:\n  proofbench receipts "
                 "verify --checkpoint "
              << outPath << " --key PUBLIC_KEY.pub" << Qt::endl;
    }
    return kOk;
}

Command receiptsCheckpointCommand() {
    Command p(QStringLiteral("receipts checkpoint"),
              QStringLiteral("sign the ledger's head into a checkpoint file kept outside the database"),
              QStringLiteral(
                  "Sign the receipts chain head (count and hash) with a signing key into one file (the head "
                  "statement and a Sigstore bundle over it). Kept elsewhere, it proves how long the ledger "
                  "was: `receipts verify --checkpoint FILE --key KEY.pub` fails when the ledger is shorter "
                  "than the checkpoint or does not extend it (every receipt deleted, or the chain rewritten "
                  "and rehashed). Refused when the chain is broken or empty."));
    addDb(p);
    addPassphraseEnv(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addOption({QStringLiteral("key"), QStringLiteral("The encrypted private key to sign with."),
                 QStringLiteral("KEY")});
    p.addOption(
        {QStringLiteral("out"), QStringLiteral("Where to write the checkpoint."), QStringLiteral("FILE")});
    p.handler = receiptsCheckpoint;
    return p;
}

} // namespace pb::cli
