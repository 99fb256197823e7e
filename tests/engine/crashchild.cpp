// The child process of tst_crashsafety: performs one kind of database write, start to finish, so the
// test can kill -9 it at a random moment. Usage:
//   pb_crashchild catalog DB LABEL CATALOG_DIR      import a catalog version
//   pb_crashchild evidence DB EVIDENCE_DIR          import an evidence tree
//   pb_crashchild run DB KUBECONFIG CATALOG_DIR     a validation run, each check saved as it ends
// Prints "done" and exits 0 when the write completed.
#include "catalog/Loader.h"
#include "evidence/Evidence.h"
#include "kube/Client.h"
#include "store/CatalogStore.h"
#include "db/Database.h"
#include "store/EvidenceStore.h"
#include "store/RunStore.h"
#include "validation/Runner.h"

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
        Result<catalog::Catalog> cat = catalog::loadCatalog(a[4]);
        if (!cat)
            return die(cat.error());
        Result<store::ImportReport> r = store::CatalogStore(**db).importCatalog(a[3], *cat);
        if (!r)
            return die(r.error());
    } else if (a[1] == QLatin1String("evidence")) {
        Result<evidence::EvidenceTree> tree = evidence::scanEvidence(a[3]);
        if (!tree)
            return die(tree.error());
        Result<store::EvidenceImportReport> r = store::EvidenceStore(**db).importTree(*tree);
        if (!r)
            return die(r.error());
    } else if (a[1] == QLatin1String("run") && a.size() == 5) {
        Result<kube::Kubeconfig> k = kube::Kubeconfig::load({a[3]});
        if (!k)
            return die(k.error());
        Result<kube::ResolvedContext> ctx = kube::resolveContext(*k);
        if (!ctx)
            return die(ctx.error());
        Result<std::unique_ptr<kube::Client>> client = kube::Client::create(*ctx);
        if (!client)
            return die(client.error());
        Result<catalog::Catalog> cat = catalog::loadCatalog(a[4]);
        if (!cat)
            return die(cat.error());
        validation::RunRequest req;
        Result<catalog::RecipeResult> recipe = store::resolveStoredRecipe(*cat, QStringLiteral("h100-eks-ubuntu-training-kubeflow"));
        if (!recipe)
            return die(recipe.error());
        req.recipe = *recipe;
        req.validators = cat->validators;
        // Runner::run() calls checkChanged on this thread: each check is written as it changes.
        store::RunStore runs(**db);
        qint64 runRow = 0;
        validation::RunObserver obs;
        validation::Runner* self = nullptr;
        obs.checkChanged = [&](const validation::CheckRun& c) {
            int seq = 0;
            for (size_t i = 0; i < self->plan().size(); ++i)
                if (self->plan()[i].name == c.name)
                    seq = int(i);
            if (Status s = runs.saveCheck(runRow, seq, c); !s)
                std::fprintf(stderr, "%s\n", qPrintable(s.error().toString()));
        };
        validation::Runner runner(**client, req, obs);
        self = &runner;
        if (Status s = runner.prepare(); !s)
            return die(s.error());
        store::RunHeader h;
        h.recipeName = req.recipe.recipeName();
        h.context = ctx->context.name;
        Result<qint64> id = runs.begin(h, runner.runId(), runner.plan());
        if (!id)
            return die(id.error());
        runRow = *id;
        const validation::RunResult result = runner.run();
        if (Status s = runs.finish(runRow, result); !s)
            return die(s.error());
    } else {
        return 2;
    }
    std::printf("done\n");
    return 0;
}
