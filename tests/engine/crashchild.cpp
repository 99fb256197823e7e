// The child process of tst_crashsafety: performs one kind of database write, start to finish, so the
// test can kill -9 it at a random moment. Usage:
//   pb_crashchild catalog DB LABEL CATALOG_DIR      import a catalog version
//   pb_crashchild evidence DB EVIDENCE_DIR          import an evidence tree
//   pb_crashchild run DB KUBECONFIG CATALOG_DIR     a validation run, each check saved as it ends
// DB is what --db takes: a SQLite file, or a PostgreSQL server URI (the password from PGPASSFILE).
// Prints "done" and exits 0 when the write completed.
#include "catalog/Loader.h"
#include "db/Database.h"
#include "evidence/Evidence.h"
#include "ops/ImportCatalog.h"
#include "ops/ImportEvidence.h"
#include "ops/Validate.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"

#include <QCoreApplication>

#include <cstdio>

using namespace pb;

static int die(const Error& e) {
    std::fprintf(stderr, "%s\n", qPrintable(e.toString()));
    return 1;
}

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList a = app.arguments();
    if (a.size() < 4)
        return 2;
    Result<std::unique_ptr<db::Database>> db = db::Database::open(a[2]);
    if (!db)
        return die(db.error());
    if (a[1] == QLatin1String("catalog") && a.size() == 5) {
        // As `catalog import` and the window do it: the version and its receipt in one transaction.
        ops::ImportCatalogRequest request;
        request.label = a[3];
        request.dir = a[4];
        Result<ops::ImportCatalogOutcome> r = ops::importCatalog(ops::Context(**db), request);
        if (!r)
            return die(r.error());
    } else if (a[1] == QLatin1String("evidence")) {
        ops::ImportEvidenceRequest request;
        request.dir = a[3];
        Result<ops::ImportEvidenceOutcome> r = ops::importEvidence(ops::Context(**db), request);
        if (!r)
            return die(r.error());
    } else if (a[1] == QLatin1String("run") && a.size() == 5) {
        // The validation run as `proofbench validate` and the window run it: ops::validate saves each
        // check as it changes and finishes the run with its validation.run receipt in one transaction.
        Result<catalog::Catalog> cat = catalog::loadCatalog(a[4]);
        if (!cat)
            return die(cat.error());
        Result<catalog::RecipeResult> recipe =
            store::resolveStoredRecipe(*cat, QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
        if (!recipe)
            return die(recipe.error());
        ops::ValidateRequest req;
        req.kubeconfigs = {a[3]};
        req.recipe.resolved = *recipe;
        req.recipe.validators = cat->validators;
        Result<ops::ValidateOutcome> run = ops::validate(ops::Context(**db), req);
        if (!run)
            return die(run.error());
    } else {
        return 2;
    }
    std::printf("done\n");
    return 0;
}
