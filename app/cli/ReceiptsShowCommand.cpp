// proofbench receipts show: one receipt with its inputs and outputs
#include "cli/ReceiptsSupport.h"

namespace pb::cli {

static int receiptsShow(const QCommandLineParser& p) {
    bool ok = false;
    const qint64 seq = p.positionalArguments().value(0).toLongLong(&ok);
    if (p.positionalArguments().size() != 1 || !ok)
        return usage(QStringLiteral("give one receipt number"), QStringLiteral("receipts show"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto r = Ledger(**db).receipt(seq);
    if (!r)
        return fail(r.error());
    if (asJson(p))
        printJson(r->toJson());
    else
        out() << receiptText(*r);
    out().flush();
    return kOk;
}

Command receiptsShowCommand() {
    Command p(QStringLiteral("receipts show"), QStringLiteral("one receipt with its inputs and outputs"),
              QStringLiteral("Show one receipt: parameters, inputs and outputs with digests."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("N"), QStringLiteral("The receipt's sequence number."));
    p.handler = receiptsShow;
    return p;
}

} // namespace pb::cli
