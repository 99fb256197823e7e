// proofbench records import: store ConfigHub records in the database (transactional, idempotent)
#include "cli/ReceiptsSupport.h"

namespace pb::cli {

static int recordsImport(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give one directory"), QStringLiteral("records import"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto r = ops::importRecords(ops::Context(**db),
                                ops::RecordsImportRequest{p.positionalArguments().constFirst()});
    if (!r)
        return fail(r.error());
    if (asJson(p)) {
        printJson(QJsonObject{{QStringLiteral("records"), static_cast<int>(r->report.records.size())},
                              {QStringLiteral("added"), r->added},
                              {QStringLiteral("updated"), r->updated},
                              {QStringLiteral("unchanged"), r->unchanged},
                              {QStringLiteral("checksFailed"), r->report.failed()}});
    } else {
        out() << r->report.records.size() << " record(s) from " << r->report.root << ": " << r->added
              << " added, " << r->updated << " updated, " << r->unchanged << " unchanged; "
              << r->report.failed() << " check(s) failed" << Qt::endl;
    }
    return kOk;
}

Command recordsImportCommand() {
    Command p(
        QStringLiteral("records import"),
        QStringLiteral("store ConfigHub records in the database (transactional, idempotent)"),
        QStringLiteral(
            "Store every ConfigHub record below DIR in the database, in one transaction; a file that does "
            "not parse refuses the whole import. Importing the same files again changes nothing."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("A directory of ConfigHub records."));
    p.handler = recordsImport;
    return p;
}

} // namespace pb::cli
