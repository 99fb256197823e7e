// What the Validation commands share (one command per file: ValidateCommand.cpp, RunsListCommand.cpp,
// RunsShowCommand.cpp, RunsLeftoversCommand.cpp, RunsCleanupCommand.cpp, PerfImportCommand.cpp).
#pragma once

#include "cli/CliUtil.h"

#include "ops/PerfImport.h"
#include "ops/Validate.h"
#include "store/CatalogStore.h"
#include "store/RunStore.h"
#include "validation/Emit.h"
#include "validation/Runner.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <csignal>
#include <mutex>

namespace pb::cli {

using namespace pb::catalog;
using namespace pb::store;
using namespace pb::validation;

inline std::atomic_bool g_interrupted{false};

extern "C" inline void onInterrupt(int) {
    g_interrupted = true;
}

inline QString seconds(qint64 ms) {
    return QString::number(double(ms) / 1000.0, 'f', 1) + QStringLiteral(" s");
}

inline QString stateMark(CheckState s) {
    switch (s) {
    case CheckState::Passed:
        return QStringLiteral("passed ");
    case CheckState::Failed:
        return QStringLiteral("FAILED ");
    case CheckState::Skipped:
        return QStringLiteral("skipped");
    case CheckState::Running:
        return QStringLiteral("running");
    case CheckState::Pending:
        return QStringLiteral("pending");
    case CheckState::Other:
        return QStringLiteral("other  ");
    }
    return {};
}

// The validator catalog for a recipe given as a file: --catalog/--version when set, else the newest
// catalog version in the database (the sample catalog on a new database).
inline Result<Catalog> validatorSource(const QCommandLineParser& p) {
    if (p.isSet(QStringLiteral("catalog")) || p.isSet(QStringLiteral("version")))
        return catalogFrom(p);
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return db.error();
    CatalogStore store(**db);
    Result<std::vector<CatalogVersionInfo>> versions = store.versions();
    if (!versions)
        return versions.error();
    if (versions->empty())
        return makeError(QStringLiteral(
            "no catalog in the database to take the validator catalog from; give --catalog DIR"));
    return store.loadCatalog(versions->back().label);
}

struct RecipeChoice {
    RecipeResult recipe;
    ValidatorCatalog validators;
    QString catalogLabel;
};

inline Result<RecipeChoice> recipeFrom(const QCommandLineParser& p) {
    RecipeChoice out;
    if (p.isSet(QStringLiteral("recipe"))) {
        const QString path = p.value(QStringLiteral("recipe"));
        Result<QByteArray> bytes = readFile(path);
        if (!bytes)
            return bytes.error();
        Result<RecipeResult> r = parseRecipeResult(*bytes, path);
        if (!r)
            return r.error();
        out.recipe = *r;
        Result<Catalog> cat = validatorSource(p);
        if (!cat)
            return cat.error();
        out.validators = cat->validators;
        out.catalogLabel = p.value(QStringLiteral("version"));
        return out;
    }
    if (!p.isSet(QStringLiteral("catalog")) && !p.isSet(QStringLiteral("version")))
        return makeError(
            QStringLiteral("give --recipe FILE, or --catalog DIR / --version LABEL with criteria flags"));
    Result<Catalog> cat = catalogFrom(p);
    if (!cat)
        return cat.error();
    Result<Criteria> criteria = criteriaFrom(p, *cat);
    if (!criteria)
        return criteria.error();
    Result<ResolveOptions> opt = resolveOptionsFrom(p);
    if (!opt)
        return opt.error();
    Result<RecipeResult> r = resolve(*cat, *criteria, *opt);
    if (!r)
        return r.error();
    out.recipe = *r;
    out.validators = cat->validators;
    out.catalogLabel = p.isSet(QStringLiteral("version"))
                           ? p.value(QStringLiteral("version"))
                           : QFileInfo(p.value(QStringLiteral("catalog"))).fileName();
    return out;
}

// What `validate` validates: a RecipeResult file (its validators from --catalog/--version, else
// the database's newest catalog version), or the recipe the criteria flags resolve to.
inline Result<ops::ValidateRecipe> validateRecipeFrom(const QCommandLineParser& p) {
    ops::ValidateRecipe r;
    if (p.isSet(QStringLiteral("recipe"))) {
        r.file = p.value(QStringLiteral("recipe"));
        if (p.isSet(QStringLiteral("catalog")) || p.isSet(QStringLiteral("version"))) {
            Result<Catalog> cat = catalogFrom(p);
            if (!cat)
                return cat.error();
            r.validators = cat->validators;
            r.catalogLabel = p.value(QStringLiteral("version"));
        }
        return r;
    }
    Result<RecipeChoice> choice = recipeFrom(p);
    if (!choice)
        return choice.error();
    r.resolved = std::move(choice->recipe);
    r.validators = std::move(choice->validators);
    r.catalogLabel = choice->catalogLabel;
    return r;
}

inline void printRunText(const RunResult& r) {
    out() << "run " << r.runId << ": " << runStateName(r.state);
    if (!r.reason.isEmpty())
        out() << " (" << r.reason << ")";
    out() << '\n';
    for (const ConstraintCheck& c : r.readiness)
        out() << "  readiness " << c.constraint.name << " " << c.constraint.value << ": "
              << (c.outcome == ConstraintOutcome::Passed   ? "passed"
                  : c.outcome == ConstraintOutcome::Failed ? "FAILED"
                                                           : "not measurable")
              << (c.measured.isEmpty() ? QString() : QStringLiteral(" (measured %1)").arg(c.measured))
              << '\n';
    for (const CheckRun& c : r.checks) {
        out() << "  " << stateMark(c.state) << "  " << c.phase << "/" << c.name << "  "
              << seconds(c.durationMs);
        if (!c.cause.isEmpty())
            out() << "  [" << c.cause
                  << (c.k8sReason.isEmpty() ? QString() : QStringLiteral(", ") + c.k8sReason) << "]";
        if (!c.message.isEmpty())
            out() << "  " << c.message;
        out() << '\n';
        if (c.score)
            for (const ScoredMetric& m : c.score->metrics)
                out() << "           " << m.name << " = " << QString::number(m.measured, 'f', 2) << ' '
                      << m.unit
                      << (m.threshold ? QStringLiteral("  (constraint %1, passes at %2 %3)")
                                            .arg(m.threshold->written, m.threshold->op,
                                                 QString::number(m.threshold->effective(), 'f', 2))
                                      : QString())
                      << (m.pass ? "" : "  below threshold") << '\n';
        if (c.nccl && !c.nccl->keptNote().isEmpty())
            out() << "           nccl " << c.nccl->keptNote() << '\n';
    }
    for (const RunResult::Leftover& l : r.leftovers)
        out() << "  left on the cluster: " << l.path
              << (l.error.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(l.error)) << '\n';
    if (r.state == RunState::Incomplete)
        out() << "result: " << kIncompleteResult << " (exit " << kExitIncomplete
              << "): not evidence of failure\n";
    out().flush();
}

} // namespace pb::cli
