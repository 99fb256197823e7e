#include "ops/RecordsCheck.h"
#include "core/Plural.h"

#include "receipts/Kinds.h"

namespace pb::ops {

Result<receipts::RecordsReport> checkRecords(const Context& ctx, const RecordsCheckRequest& request) {
    using namespace pb::receipts;
    ctx.progress(0, 0, QStringLiteral("reading %1").arg(request.dir));
    auto report = readRecords(request.dir);
    if (!report)
        return report.error();
    ReceiptDraft d;
    d.kind = kinds::RecordsCheck;
    d.parameters = QJsonObject{{QStringLiteral("dir"), report->root}};
    for (const ExternalRecord& r : report->records)
        d.inputs.push_back(Artifact{r.relative, r.sha256, r.size});
    d.result = report->ok() ? Outcome::Ok : Outcome::Failed;
    d.message =
        QStringLiteral("%1, %2, %3 failed, %4")
            .arg(counted(qint64(report->records.size()), QStringLiteral("record"), QStringLiteral("records")))
            .arg(counted(qint64(report->checks.size()), QStringLiteral("check"), QStringLiteral("checks")))
            .arg(report->failed())
            .arg(counted(qint64(report->problems.size()), QStringLiteral("problem"),
                         QStringLiteral("problems")));
    if (auto r = record(ctx, d); !r)
        return r.error();
    return report;
}

} // namespace pb::ops
