// A finished run as AICR writes it: one CTRF report per phase, and the evidence summary bundle
// (recipe.yaml, snapshot.yaml, ctrf/, manifest.json, statement.intoto.json) in AICR's layout, which
// `proofbench evidence check` reads and `evidence sign` signs.
#pragma once

#include "core/Result.h"
#include "validation/Runner.h"

#include <QByteArray>
#include <QMap>
#include <QString>

namespace pb::validation {

// CTRF 0.0.1 for one phase: tool, summary (tests, passed, failed, skipped, pending, other, start,
// stop), tests with name, status, duration (ms), suite, stdout, message, extra.
QByteArray ctrfReport(const RunResult& run, const QString& phase, const QString& toolVersion);

// What the statement's predicate (`result`) and a signed pointer (`result:`) say of a run with a
// check that could not run or finish; such a predicate also lists them in `incompleteChecks`
// ({name, phase, cause, reason, message}) and counts them per phase as `other`, never as failed.
constexpr const char* kIncompleteResult = "incomplete (cluster fault)";

struct EmittedBundle {
    QString dir;             // <out>/summary-bundle
    bool incomplete = false; // a check is `other`: the predicate says so
    QString recipeName, recipeDigest, manifestDigest;
    QMap<QString, QByteArray> files;
};

// Writes <outDir>/summary-bundle/. Phases that did not run are left out. Files are written
// atomically; an existing summary-bundle is refused rather than mixed.
Result<EmittedBundle> emitEvidence(const RunResult& run, const catalog::RecipeResult& recipe,
                                   const QString& outDir, const QString& toolVersion,
                                   const QString& validatorCatalogVersion);

} // namespace pb::validation
