// proofbench evidence import: read evidence pointers (AICR recipes/evidence) into the database
#include "cli/CliUtil.h"
#include "cli/Commands.h"

#include "catalog/Loader.h"
#include "core/Files.h"
#include "db/Database.h"
#include "evidence/Bundle.h"
#include "evidence/Health.h"
#include "ops/CheckEvidence.h"
#include "ops/ImportEvidence.h"
#include "receipts/Ledger.h"
#include "report/HealthTable.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace pb::cli {

using namespace pb::catalog;
using namespace pb::store;

// ---- evidence and health -------------------------------------------------------------------------

static int evidenceImport(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one evidence directory"),
                     QStringLiteral("evidence import"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    const ops::Context ctx(**db);
    Result<ops::ImportEvidenceOutcome> imported = ops::importEvidence(
        ctx, {p.positionalArguments().constFirst(), p.value(QStringLiteral("allowlist")), std::nullopt});
    if (!imported)
        return fail(imported.error());
    const evidence::EvidenceTree* tree = &imported->tree;
    const store::EvidenceImportReport* r = &imported->report;
    int bundles = 0, bundlesInvalid = 0, bundlesIncomplete = 0;
    if (p.isSet(QStringLiteral("bundles"))) {
        Result<ops::ImportEvidenceBundlesOutcome> b =
            ops::importEvidenceBundles(ctx, {p.value(QStringLiteral("bundles")), std::nullopt});
        if (!b)
            return fail(b.error());
        bundles = b->bundles();
        bundlesInvalid = b->report.invalid;
        bundlesIncomplete = b->report.incomplete;
    }
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray problems;
        for (const evidence::Pointer& ptr : tree->pointers)
            if (!ptr.isValid())
                problems.append(
                    QJsonObject{{QStringLiteral("file"), ptr.file},
                                {QStringLiteral("problems"), QJsonArray::fromStringList(ptr.problems)}});
        printJson(QJsonObject{{QStringLiteral("root"), tree->root},
                              {QStringLiteral("pointers"), static_cast<int>(tree->pointers.size())},
                              {QStringLiteral("added"), r->added},
                              {QStringLiteral("updated"), r->updated},
                              {QStringLiteral("unchanged"), r->unchanged},
                              {QStringLiteral("invalid"), r->invalid},
                              {QStringLiteral("bundles"), bundles},
                              {QStringLiteral("bundlesInvalid"), bundlesInvalid},
                              {QStringLiteral("bundlesIncomplete"), bundlesIncomplete},
                              {QStringLiteral("invalidPointers"), problems}});
        return kOk;
    }
    out() << tree->pointers.size() << " pointers from " << tree->root << ": " << r->added << " added, "
          << r->updated << " updated, " << r->unchanged << " unchanged, " << r->invalid << " invalid";
    if (p.isSet(QStringLiteral("bundles")))
        out() << "; " << bundles << " bundles read (" << bundlesInvalid << " invalid, " << bundlesIncomplete
              << " incomplete)";
    out() << Qt::endl;
    for (const evidence::Pointer& ptr : tree->pointers)
        if (!ptr.isValid())
            out() << "  invalid " << ptr.file << ": " << ptr.problems.join(QStringLiteral("; ")) << Qt::endl;
    return kOk;
}

Command evidenceImportCommand() {
    Command p(QStringLiteral("evidence import"),
              QStringLiteral("read evidence pointers (AICR recipes/evidence) into the database"),
              QStringLiteral("Import every evidence pointer of a tree, checked by AICR's pointer rules and "
                             "tree contract. Idempotent; pointers that break a rule are kept as invalid "
                             "with the reason."));
    addDb(p);
    p.addOption(
        {QStringLiteral("allowlist"),
         QStringLiteral("Signer allowlist to classify with (default: allowlist.yaml in the evidence tree)."),
         QStringLiteral("FILE")});
    p.addOption({QStringLiteral("bundles"),
                 QStringLiteral(
                     "Also read the evidence bundles below DIR (summary-bundle directories or OCI layouts) "
                     "and check them offline."),
                 QStringLiteral("DIR")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"),
                            QStringLiteral("recipes/evidence, or a directory containing it."));
    p.handler = evidenceImport;
    return p;
}

} // namespace pb::cli
