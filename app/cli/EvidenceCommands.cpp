// Evidence verbs: evidence import, evidence check, health.
#include "cli/Commands.h"
#include "cli/CliUtil.h"

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
        return usage(QStringLiteral("expected exactly one evidence directory"), QStringLiteral("evidence import"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    const ops::Context ctx(**db);
    Result<ops::ImportEvidenceOutcome> imported =
        ops::importEvidence(ctx, {p.positionalArguments().constFirst(), p.value(QStringLiteral("allowlist")), std::nullopt});
    if (!imported)
        return fail(imported.error());
    const evidence::EvidenceTree* tree = &imported->tree;
    const store::EvidenceImportReport* r = &imported->report;
    int bundles = 0, bundlesInvalid = 0, bundlesIncomplete = 0;
    if (p.isSet(QStringLiteral("bundles"))) {
        Result<ops::ImportEvidenceBundlesOutcome> b = ops::importEvidenceBundles(ctx, {p.value(QStringLiteral("bundles")), std::nullopt});
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
                problems.append(QJsonObject{{QStringLiteral("file"), ptr.file},
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
    out() << tree->pointers.size() << " pointers from " << tree->root << ": " << r->added << " added, " << r->updated
          << " updated, " << r->unchanged << " unchanged, " << r->invalid << " invalid";
    if (p.isSet(QStringLiteral("bundles")))
        out() << "; " << bundles << " bundles read (" << bundlesInvalid << " invalid, " << bundlesIncomplete << " incomplete)";
    out() << Qt::endl;
    for (const evidence::Pointer& ptr : tree->pointers)
        if (!ptr.isValid())
            out() << "  invalid " << ptr.file << ": " << ptr.problems.join(QStringLiteral("; ")) << Qt::endl;
    return kOk;
}

static int evidenceCheck(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one bundle"), QStringLiteral("evidence check"));
    ops::CheckEvidenceRequest request;
    request.bundle = p.positionalArguments().constFirst();
    request.pointer = p.value(QStringLiteral("pointer"));
    request.trustedRoot = p.value(QStringLiteral("trusted-root"));
    request.publicKey = p.value(QStringLiteral("key"));
    request.insecureIgnoreTlog = p.isSet(QStringLiteral("insecure-ignore-tlog"));
    // The check needs no catalog: the database only holds the default trusted root and the receipt.
    Result<std::unique_ptr<Database>> db = Database::open(dbPath(p));
    if (!db)
        return fail(db.error());
    Result<ops::CheckEvidenceOutcome> checked = ops::checkEvidence(ops::Context(**db), request);
    if (!checked)
        return fail(checked.error());
    if (!checked->check) {
        fail(makeError(checked->problem)); // the bundle or the pointer was refused: invalid
        return checked->exitCode;
    }
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printJson(checked->check->toJson());
    else
        out() << checked->check->toText();
    out().flush();
    return checked->exitCode;
}


static int healthVerb(const QCommandLineParser& p) {
    const QString format = p.value(QStringLiteral("format"));
    if (!QStringList{QStringLiteral("markdown"), QStringLiteral("json"), QStringLiteral("csv")}.contains(format))
        return usage(QStringLiteral("unknown --format '%1' (expected markdown, json or csv)").arg(format),
                     QStringLiteral("health"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    // The version asked for, else the newest in version order (never the last imported).
    Result<CatalogVersionInfo> version = report::chosenVersion(**db, p.value(QStringLiteral("version")));
    if (!version)
        return fail(version.error());
    Result<std::vector<evidence::HealthRow>> rows = report::healthRows(**db, version->id);
    if (!rows)
        return fail(rows.error());
    const evidence::HealthTableInfo info = report::tableInfo(*version);
    if (format == QLatin1String("json")) {
        QJsonArray a;
        for (const evidence::HealthRow& r : *rows)
            a.append(evidence::healthJson(r, info));
        printJson(a);
    } else {
        out() << (format == QLatin1String("csv") ? evidence::healthCsv(*rows, info) : evidence::healthMarkdown(*rows, info));
    }
    return kOk;
}


// ---- declarations ------------------------------------------------------------------------------

Command evidenceImportCommand() {
    Command p(QStringLiteral("evidence import"), QStringLiteral("read evidence pointers (AICR recipes/evidence) into the database"),
              QStringLiteral("Import every evidence pointer of a tree, checked by AICR's pointer rules and "
                                      "tree contract. Idempotent; pointers that break a rule are kept as invalid "
                                      "with the reason."));
    addDb(p);
    p.addOption({QStringLiteral("allowlist"),
                 QStringLiteral("Signer allowlist to classify with (default: allowlist.yaml in the evidence tree)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("bundles"),
                 QStringLiteral("Also read the evidence bundles below DIR (summary-bundle directories or OCI layouts) "
                                "and check them offline."),
                 QStringLiteral("DIR")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("recipes/evidence, or a directory containing it."));
    p.handler = evidenceImport;
    return p;
}

Command evidenceCheckCommand() {
    Command p(QStringLiteral("evidence check"), QStringLiteral("check an evidence bundle (directory or OCI layout) offline"),
              QStringLiteral("Check an evidence bundle offline, as aicr evidence verify does: the attestation's "
                                      "Sigstore signature (for the signer the pointer claims), the manifest, the recipe "
                                      "binding. Exit 0 valid, 1 valid with failed phases, 2 invalid, 3 incomplete."));
    addDb(p);
    p.addOption({QStringLiteral("pointer"), QStringLiteral("Pointer file to check the bundle against."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("trusted-root"),
                 QStringLiteral("Sigstore trusted_root.json for the attestation's signature (default: the database's default "
                                "root; without one the signature is not checked)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("key"), QStringLiteral("Public key (PEM) the attestation must be signed with."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("insecure-ignore-tlog"), QStringLiteral("With --key: accept an attestation without a log entry.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("BUNDLE"),
                            QStringLiteral("A summary-bundle directory (or its parent), or an OCI image layout."));
    p.handler = evidenceCheck;
    return p;
}

Command healthCommand() {
    Command p(QStringLiteral("health"), QStringLiteral("the health table: each recipe coordinate and its evidence status"),
              QStringLiteral("The health table: one row per recipe coordinate of a catalog version, with the "
                                      "status its evidence gives it."));
    addDb(p);
    p.addOption({QStringLiteral("version"), QStringLiteral("Catalog version (default: the newest in version order)."),
                 QStringLiteral("LABEL")});
    addFormat(p, QStringLiteral("markdown|json|csv"), QStringLiteral("markdown"));
    p.handler = healthVerb;
    return p;
}

} // namespace pb::cli
