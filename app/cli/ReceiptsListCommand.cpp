// proofbench receipts list: the receipts ledger, oldest first: what was done, on which inputs, with what
// result
#include "cli/ReceiptsSupport.h"

#include <algorithm>

namespace pb::cli {

static int receiptsList(const QCommandLineParser& p) {
    ListFilter f;
    f.kind = p.value(QStringLiteral("kind"));
    if (p.isSet(QStringLiteral("result"))) {
        f.result = parseOutcome(p.value(QStringLiteral("result")));
        if (!f.result)
            return usage(QStringLiteral("--result expects ok, failed or partial"),
                         QStringLiteral("receipts list"));
    }
    for (const char* name : {"since", "until"}) {
        if (!p.isSet(QLatin1String(name)))
            continue;
        QDateTime t = QDateTime::fromString(p.value(QLatin1String(name)), Qt::ISODateWithMs);
        if (!t.isValid())
            return usage(QStringLiteral("--%1 expects an ISO 8601 time").arg(QLatin1String(name)),
                         QStringLiteral("receipts list"));
        (qstrcmp(name, "since") == 0 ? f.from : f.to) = t.toUTC();
    }
    f.limit = p.value(QStringLiteral("limit")).toInt();
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto rows = Ledger(**db).list(f);
    if (!rows)
        return fail(rows.error());
    if (asJson(p)) {
        QJsonArray a;
        for (const Receipt& r : *rows)
            a.append(r.toJson());
        printJson(QJsonObject{{QStringLiteral("receipts"), a}});
        return kOk;
    }
    // A server's receipts name their writers: a column of its own, as wide as the longest name (a
    // SQLite file's receipts have none, and the column is left out).
    qsizetype authorWidth = 0;
    for (const Receipt& r : *rows)
        authorWidth = std::max(authorWidth, r.author.size());
    for (const Receipt& r : *rows)
        out() << QStringLiteral("#%1  %2  %3  %4  %5%6  %7\n")
                     .arg(r.seq, 4)
                     .arg(isoTime(r.time), r.kind.leftJustified(24), outcomeName(r.result).leftJustified(7),
                          authorWidth ? r.author.leftJustified(authorWidth) + QStringLiteral("  ")
                                      : QString(),
                          r.hash.left(12), r.message);
    out().flush();
    return kOk;
}

Command receiptsListCommand() {
    Command p(
        QStringLiteral("receipts list"),
        QStringLiteral("the receipts ledger, oldest first: what was done, on which inputs, with what result"),
        QStringLiteral("List the receipts in the ledger, oldest first."));
    addDb(p);
    p.addOption({QStringLiteral("kind"),
                 QStringLiteral("Only this kind (or a prefix ending in '.', e.g. evidence.)."),
                 QStringLiteral("KIND")});
    p.addOption({QStringLiteral("result"), QStringLiteral("Only this result: ok, failed or partial."),
                 QStringLiteral("RESULT")});
    p.addOption({QStringLiteral("since"),
                 QStringLiteral("Only receipts at or after this UTC time (ISO 8601)."),
                 QStringLiteral("TIME")});
    p.addOption({QStringLiteral("until"),
                 QStringLiteral("Only receipts at or before this UTC time (ISO 8601)."),
                 QStringLiteral("TIME")});
    p.addOption({QStringLiteral("limit"), QStringLiteral("Only the newest N."), QStringLiteral("N")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = receiptsList;
    return p;
}

} // namespace pb::cli
