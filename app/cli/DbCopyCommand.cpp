// proofbench db copy: everything from one database into another, all or nothing, with a proof
#include "cli/CliUtil.h"
#include "ops/DbAdmin.h"

#include <QJsonArray>
#include <QJsonObject>

namespace pb::cli {

static int dbCopy(const QCommandLineParser& p) {
    ops::DatabaseCopyRequest request;
    request.from = p.value(QStringLiteral("from"));
    request.to = p.value(QStringLiteral("to"));
    if (request.from.isEmpty() || request.to.isEmpty())
        return usage(QStringLiteral("db copy needs --from DB and --to DB"), QStringLiteral("db"));
    const bool json = p.value(QStringLiteral("format")) == QLatin1String("json");
    Result<ops::DatabaseCopyOutcome> r = ops::copyDatabase(request, [json](const ops::Progress& pr) {
        if (!json)
            err() << QStringLiteral("%1 (%2 of %3 tables)\n").arg(pr.what).arg(pr.done).arg(pr.total)
                  << Qt::flush;
    });
    if (!r)
        return fail(r.error());
    if (json) {
        QJsonArray tables;
        for (const ops::TableProof& t : r->tables)
            tables.append(QJsonObject{{QStringLiteral("table"), t.table},
                                      {QStringLiteral("rows"), t.rows},
                                      {QStringLiteral("sha256"), t.sha256}});
        printJson(QJsonObject{{QStringLiteral("from"), r->fromWhere},
                              {QStringLiteral("to"), r->toWhere},
                              {QStringLiteral("rows"), r->rows},
                              {QStringLiteral("receipts"), r->receipts},
                              {QStringLiteral("ledgerHead"), r->ledgerHead},
                              {QStringLiteral("tables"), tables}});
        return kOk;
    }
    out() << QStringLiteral("copied %1 rows in %2 tables from %3 to %4\n")
                 .arg(r->rows)
                 .arg(r->tables.size())
                 .arg(r->fromWhere, r->toWhere);
    out() << QStringLiteral("%1  %2  %3\n")
                 .arg(QStringLiteral("TABLE"), -28)
                 .arg(QStringLiteral("ROWS"), 9)
                 .arg(QStringLiteral("SHA-256 (both sides)"));
    for (const ops::TableProof& t : r->tables)
        out() << QStringLiteral("%1  %2  %3\n").arg(t.table, -28).arg(t.rows, 9).arg(t.sha256);
    out() << QStringLiteral(
                 "receipts chain verified on the target: %1 receipts, head sha256:%2 (as on the source)\n")
                 .arg(r->receipts)
                 .arg(r->ledgerHead);
    out().flush();
    return kOk;
}

Command dbCopyCommand() {
    Command c(
        QStringLiteral("db copy"),
        QStringLiteral("copy a whole database to another, all or nothing, and prove it"),
        QStringLiteral("Copy every row of every table from --from into --to (SQLite to PostgreSQL, back, or "
                       "between two of one kind). The target must be empty (a new file, or a new database "
                       "on the server); it is written in one transaction that commits only after the copy "
                       "is proven: row counts and a SHA-256 of every table's content equal on both sides, "
                       "and the receipts chain verifying on the target with the source's head. Writes no "
                       "receipt, so the target's ledger is the source's."));
    c.addOption({QStringLiteral("from"),
                 QStringLiteral("The database to copy (file path or PostgreSQL URI)."),
                 QStringLiteral("DB")});
    c.addOption({QStringLiteral("to"),
                 QStringLiteral("The empty database to fill (file path or PostgreSQL URI)."),
                 QStringLiteral("DB")});
    c.require({QStringLiteral("from"), QStringLiteral("to")});
    addFormat(c, QStringLiteral("text|json"), QStringLiteral("text"));
    c.handler = dbCopy;
    return c;
}

} // namespace pb::cli
