// proofbench receipts verify: recompute the receipts chain; name the first receipt that breaks it
#include "cli/ReceiptsSupport.h"

namespace pb::cli {

static int receiptsVerify(const QCommandLineParser& p) {
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto verified = ops::verifyReceipts(ops::Context(**db));
    if (!verified)
        return fail(verified.error());
    const ChainCheck* check = &verified->chain;
    if (asJson(p))
        printJson(check->toJson());
    else
        out() << check->toText();
    out().flush();
    if (!check->ok)
        err() << "proofbench: receipts chain broken at #" << check->firstBadSeq << " ("
              << breakName(check->kind) << ")" << Qt::endl;
    return check->ok ? kOk : kFailed;
}

Command receiptsVerifyCommand() {
    Command p(QStringLiteral("receipts verify"),
              QStringLiteral("recompute the receipts chain; name the first receipt that breaks it"),
              QStringLiteral("Recompute the receipts chain and name the first receipt that breaks it "
                             "(edited, deleted, inserted or "
                             "reordered). Exit 0 only when the chain is intact."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = receiptsVerify;
    return p;
}

} // namespace pb::cli
