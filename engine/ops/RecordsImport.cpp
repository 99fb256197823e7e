#include "ops/RecordsImport.h"
#include "core/Plural.h"

#include "receipts/Kinds.h"

namespace pb::ops {

Result<receipts::RecordsImport> importRecords(const Context& ctx, const RecordsImportRequest& request) {
    if (Status s = require(ctx, db::Capability::ImportResults); !s)
        return s.error();
    using namespace pb::receipts;
    ctx.progress(0, 0, QStringLiteral("reading %1").arg(request.dir));
    auto report = readRecords(request.dir);
    if (!report)
        return report.error();
    ReceiptDraft d;
    d.kind = kinds::RecordsImport;
    d.parameters = QJsonObject{{QStringLiteral("dir"), report->root}};
    if (!report->problems.empty()) {
        Error e = report->problems.front();
        e.message = QStringLiteral("records not imported (%1; first: %2)")
                        .arg(counted(qint64(report->problems.size()), QStringLiteral("problem"),
                                     QStringLiteral("problems")))
                        .arg(e.message);
        d.result = Outcome::Failed;
        d.message = e.toString();
        if (auto r = record(ctx, d); !r)
            e.message += QStringLiteral("; %1").arg(r.error().toString());
        return e;
    }
    for (const ExternalRecord& r : report->records)
        d.inputs.push_back(Artifact{r.relative, r.sha256, r.size});
    d.outputs.push_back(Artifact{QStringLiteral("external_records"), QString(), -1});
    const int checks = int(report->checks.size());
    auto done = transact<RecordsImport>(ctx, [&]() -> Result<std::pair<RecordsImport, ReceiptDraft>> {
        auto stored = storeRecords(ctx.db(), std::move(*report));
        if (!stored)
            return stored.error();
        const int failed = stored->report.failed();
        d.result = failed > 0 ? Outcome::Partial : Outcome::Ok;
        d.message = QStringLiteral("%1: %2 added, %3 updated, %4 unchanged; %5, %6 failed")
                        .arg(counted(qint64(stored->report.records.size()), QStringLiteral("record"),
                                     QStringLiteral("records")))
                        .arg(stored->added)
                        .arg(stored->updated)
                        .arg(stored->unchanged)
                        .arg(counted(qint64(checks), QStringLiteral("check"), QStringLiteral("checks")))
                        .arg(failed);
        return std::pair<RecordsImport, ReceiptDraft>{std::move(*stored), d};
    });
    if (!done)
        return done.error();
    return std::move(done->value);
}

QString recordsImportSummary(const receipts::RecordsImport& r) {
    return QStringLiteral("%1: %2 added, %3 updated, %4 unchanged; %5 failed")
        .arg(counted(qint64(r.report.records.size()), QStringLiteral("record"), QStringLiteral("records")))
        .arg(r.added)
        .arg(r.updated)
        .arg(r.unchanged)
        .arg(counted(qint64(r.report.failed()), QStringLiteral("check"), QStringLiteral("checks")));
}

} // namespace pb::ops
