#include "ops/PerfImport.h"

#include "ops/Validate.h"
#include "receipts/Kinds.h"
#include "store/RunStore.h"
#include "validation/Nccl.h"
#include "validation/Score.h"

#include <QCryptographicHash>
#include <QFileInfo>

namespace pb::ops {

using validation::CheckRun;
using validation::CheckState;
using validation::PerfKind;
using validation::Verdict;

Result<PerfImportOutcome> scorePerfFile(const PerfImportRequest& req) {
    std::vector<catalog::Constraint> constraints;
    if (req.recipe && req.recipe->validation && req.recipe->validation->performance &&
        req.recipe->validation->performance->constraints)
        constraints = *req.recipe->validation->performance->constraints;
    for (const catalog::Constraint& c : req.constraints) {
        std::erase_if(constraints, [&](const catalog::Constraint& x) { return x.name == c.name; });
        constraints.push_back(c);
    }

    CheckRun check;
    check.phase = QStringLiteral("performance");
    check.name = !req.check.isEmpty()         ? req.check
                 : req.kind == PerfKind::Nccl ? QStringLiteral("nccl-all-reduce-bw")
                                              : QStringLiteral("inference-perf");
    const QFileInfo info(req.file);
    check.image = info.absoluteFilePath();
    PerfImportOutcome out;
    if (req.kind == PerfKind::Nccl) {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        Result<validation::NcclResult> r = validation::parseNcclFile(req.file, &hash);
        if (!r)
            return r.error();
        out.fileDigest = QStringLiteral("sha256:") + QString::fromLatin1(hash.result().toHex());
        check.nccl = *r;
        check.score = validation::scoreNccl(check.name, *r, constraints);
    } else {
        Result<validation::InferenceResult> r = validation::parseInferenceFile(req.file, req.kind);
        if (!r)
            return r.error();
        check.inference = *r;
        check.score = validation::scoreInference(check.name, *r, constraints);
    }
    if (req.at.isValid()) {
        check.started = req.at.toUTC();
        out.timeSource = QStringLiteral("given");
    } else if (check.inference && check.inference->recordedAt.isValid()) {
        check.started = check.inference->recordedAt;
        out.timeSource = QStringLiteral("report");
    } else {
        check.started = QDateTime::currentDateTimeUtc();
        out.timeSource = QStringLiteral("unknown");
        if (check.inference)
            out.naiveTime = check.inference->naiveTime;
    }
    check.finished = check.started;
    check.state = check.score->verdict == Verdict::Passed   ? CheckState::Passed
                  : check.score->verdict == Verdict::Failed ? CheckState::Failed
                                                            : CheckState::Skipped;
    check.message = check.score->message;
    check.resultLines = check.score->stdoutLines;

    validation::RunResult& run = out.run;
    run.runId = validation::newRunId(); // one kind of id for runs and imports
    run.started = check.started;
    run.finished = check.finished;
    run.phasesRun = {check.phase};
    run.checks = {check};
    run.state = check.state == CheckState::Failed ? validation::RunState::Failed
                                                  : validation::passedOrSkipped({check});
    run.reason = check.state == CheckState::Passed ? QString() : check.message;
    out.check = std::move(check);
    const QString recipeName =
        req.recipe && !req.recipe->criteria.isEmpty() ? req.recipe->recipeName() : QString();
    out.coordinate = !req.coordinate.isEmpty() ? req.coordinate
                     : !recipeName.isEmpty()   ? recipeName
                                               : info.fileName();
    return out;
}

Result<PerfImportOutcome> perfImport(const Context& ctx, const PerfImportRequest& req) {
    if (Status s = require(ctx, db::Capability::ImportResults); !s)
        return s.error();
    Result<PerfImportOutcome> scored = scorePerfFile(req);
    if (!scored)
        return scored;
    PerfImportOutcome out = std::move(*scored);

    store::RunHeader header;
    header.source = QStringLiteral("import");
    header.recipeName = req.recipe && !req.recipe->criteria.isEmpty() ? req.recipe->recipeName() : QString();
    header.coordinate = out.coordinate;
    header.criteria = req.recipe ? criteriaJson(req.recipe->criteria) : QJsonObject();
    header.toolVersion = req.toolVersion.isEmpty() ? QStringLiteral("dev") : req.toolVersion;
    header.timeSource = out.timeSource;

    QJsonObject parameters{{QStringLiteral("recipe"), header.recipeName},
                           {QStringLiteral("coordinate"), header.coordinate},
                           {QStringLiteral("kind"), validation::perfKindName(req.kind)},
                           {QStringLiteral("time"), out.timeSource}};
    if (out.check.score)
        for (const validation::ScoredMetric& m : out.check.score->metrics)
            if (m.threshold) {
                parameters.insert(QStringLiteral("threshold"), m.threshold->written);
                break;
            }
    auto row = transact<qint64>(ctx, [&]() -> Result<std::pair<qint64, receipts::ReceiptDraft>> {
        // The file itself is kept (compressed, by digest) with the run it became.
        store::RunStore runs(ctx.db());
        Result<store::RunSource> kept = runs.keepSource(req.file, out.fileDigest);
        if (!kept)
            return kept.error();
        header.sourceDigest = out.sourceDigest = kept->digest;
        out.sourceStored = kept->stored;
        Result<qint64> id = runs.saveImported(header, out.run);
        if (!id)
            return id.error();
        receipts::ReceiptDraft d = validationReceipt(receipts::kinds::ValidationImport, out.run, parameters);
        // The digest and size of the bytes kept: the file is not read a third time to name it.
        d.inputs.push_back(receipts::Artifact::digest(req.file, kept->digest.mid(7), kept->size));
        return std::pair{*id, std::move(d)};
    });
    if (!row)
        return row.error();
    out.runRow = row->value;
    return out;
}

} // namespace pb::ops
