// proofbench receipts show: one receipt with its inputs and outputs
#include "cli/ReceiptsSupport.h"

namespace pb::cli {

static int receiptsShow(const QCommandLineParser& p) {
    // A receipt's id is its place in the ledger, printed "#N" everywhere; "N" is taken too.
    QString arg = p.positionalArguments().value(0).trimmed();
    if (arg.startsWith(QLatin1Char('#')))
        arg = arg.mid(1);
    bool ok = false;
    const qint64 seq = arg.toLongLong(&ok);
    if (p.positionalArguments().size() != 1 || !ok || seq < 1)
        return usage(QStringLiteral("give one receipt id, e.g. #12 (as 'receipts list' shows it)"),
                     QStringLiteral("receipts show"));
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
    p.addPositionalArgument(QStringLiteral("RECEIPT"),
                            QStringLiteral("The receipt's id: its number in the ledger, #N or N."));
    p.handler = receiptsShow;
    return p;
}

} // namespace pb::cli
