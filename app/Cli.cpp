#include "Cli.h"
#include "CliUtil.h"

#include "catalog/Diff.h"
#include "core/Files.h"
#include "catalog/Digest.h"
#include "evidence/Bundle.h"
#include "graph/Layout.h"
#include "catalog/Loader.h"
#include "catalog/Resolver.h"
#include "store/CatalogStore.h"
#include "db/Database.h"
#include "store/EvidenceStore.h"
#include "store/VerificationStore.h"
#include "sigstore/Verify.h"
#include "sigstore/Keys.h"
#include "sigstore/Sign.h"
#include "deploy/DeploymentBundle.h"
#include "evidence/Sign.h"
#include "receipts/Ledger.h"

#include <QCommandLineParser>
#include <QDir>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTextStream>

#include <cstdio>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace pb::cli {

namespace {

using namespace pb::catalog;
using namespace pb::store;

receipts::Outcome outcomeOf(bool ok) { return ok ? receipts::Outcome::Ok : receipts::Outcome::Failed; }


const char* const kGeneralHelp =
    "Proofbench - a workbench for AICR recipes, evidence and signatures.\n"
    "\n"
    "Usage:\n"
    "  proofbench [--db PATH]                 start the desktop app\n"
    "  proofbench <verb> [options]            run a command without a window\n"
    "\n"
    "Verbs:\n"
    "  catalog import   import a catalog directory (AICR recipes/ layout) as a version\n"
    "  catalog list     list the catalog versions in the database\n"
    "  recipe           resolve criteria (or every leaf) into a RecipeResult; --digest for its digest\n"
    "  recipe digest    the evidence recipe digest of a recipe.yaml\n"
    "  graph            a recipe's component graph, laid out by Graphviz (dot, svg, png, json)\n"
    "  diff             what changed between two catalogs, for one recipe or every leaf\n"
    "  evidence import  read evidence pointers (AICR recipes/evidence) into the database\n"
    "  evidence check   check an evidence bundle (directory or OCI layout) offline\n"
    "  health           the health table: each recipe coordinate and its evidence status\n"
    "  verify           verify a Sigstore bundle offline (cosign's flags), or a MANIFEST.tsv with --batch\n"
    "  keygen           create (or import) an encrypted ECDSA P-256 signing key and its .pub\n"
    "  sign-blob        sign a file offline into a Sigstore bundle\n"
    "  attest           sign an in-toto statement (DSSE) offline into a Sigstore bundle\n"
    "  evidence sign    sign an evidence bundle and write its pointer\n"
    "  bundle sign      seal a deployment bundle: checksums.txt and an SLSA provenance attestation\n"
    "  bundle verify    verify a deployment bundle offline and print its trust level\n"
    "  oci pull         pull an artifact (by digest) and its blobs into an OCI image layout\n"
    "  evidence fetch   pull the bundles evidence pointers pin, with their signatures, and check them\n"
    "  evidence push    publish an evidence bundle to a registry and write its pointer\n"
    "  bundle push      publish a deployment bundle to a registry\n"
    "  validate         run a recipe's validation phases on a cluster (kubeconfig) and write the evidence\n"
    "  runs list|show   validation runs and imported performance results in the database\n"
    "  perf import      parse and score an nccl-tests log or an AIPerf / GenAI-Perf / inference-perf report\n"
    "  receipts list|show|export|verify   the receipts ledger: what was done, on which inputs, with what result\n"
    "  records import|check|stages        ConfigHub records: store, check offline, and the stage table\n"
    "  report --format html|pdf|markdown --out FILE [--version LABEL] [--filter TEXT]\n"
    "                                     the release review report (health, evidence, charts, diff, receipts head)\n"
    "\n"
    "Every verb takes --db PATH (default: the per-user application data folder) and --help.\n"
    "Exit status: 0 success, 1 failure (reason on stderr), 2 usage error.\n";


// ---- catalog ------------------------------------------------------------------------------------

int catalogImport(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    p.addOption({QStringLiteral("version"), QStringLiteral("Label of the catalog version, e.g. v1.0.0."),
                 QStringLiteral("LABEL")});
    p.addOption({QStringLiteral("replace"), QStringLiteral("Replace a version of the same label with new content.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("Catalog directory (AICR recipes/ layout)."));
    if (int rc = parse(p, args, QStringLiteral("catalog import"),
                       QStringLiteral("Import a catalog directory as a version. All or nothing: a catalog with "
                                      "one bad file is refused whole and the database is left unchanged."));
        rc >= 0)
        return rc;
    if (!p.isSet(QStringLiteral("version")))
        return usage(QStringLiteral("--version LABEL is required"), QStringLiteral("catalog import"));
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one catalog directory"), QStringLiteral("catalog import"));
    Result<Catalog> cat = loadCatalog(p.positionalArguments().constFirst());
    if (!cat)
        return fail(cat.error());
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    CatalogStore store(**db);
    ImportOptions opt;
    opt.replace = p.isSet(QStringLiteral("replace"));
    const QString label = p.value(QStringLiteral("version"));
    Result<ImportReport> r = store.importCatalog(label, *cat, opt);
    if (!r || r->outcome == ImportReport::Outcome::Unchanged) {
        // The store wrote nothing (and so no receipt); the attempt is still an action on record.
        receipts::ReceiptDraft d;
        d.kind = QStringLiteral("catalog.import");
        d.parameters = QJsonObject{{QStringLiteral("version"), label}, {QStringLiteral("replace"), opt.replace}, {QStringLiteral("embedded"), false}};
        d.inputs.push_back(receipts::Artifact::digest(cat->root, cat->contentDigest()));
        d.result = r ? receipts::Outcome::Ok : receipts::Outcome::Failed;
        d.message = r ? QStringLiteral("catalog version %1 unchanged (%2 recipes)").arg(label).arg(r->recipes) : r.error().toString();
        if (auto receipt = receipts::Ledger(**db).record(d); !receipt)
            err() << "proofbench: receipt not written: " << receipt.error().toString() << Qt::endl;
    }
    if (!r)
        return fail(r.error());
    static const char* const outcomes[] = {"imported", "unchanged", "replaced"};
    const QString outcome = QString::fromLatin1(outcomes[static_cast<int>(r->outcome)]);
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        printJson(QJsonObject{{QStringLiteral("version"), label},
                              {QStringLiteral("outcome"), outcome},
                              {QStringLiteral("files"), r->files},
                              {QStringLiteral("recipes"), r->recipes},
                              {QStringLiteral("contentDigest"), cat->contentDigest()}});
    } else {
        out() << "catalog version " << label << ": " << outcome << " (" << r->files << " files, " << r->recipes
              << " recipes)" << Qt::endl;
    }
    return kOk;
}

int catalogList(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    if (int rc = parse(p, args, QStringLiteral("catalog list"), QStringLiteral("List the catalog versions.")); rc >= 0)
        return rc;
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<std::vector<CatalogVersionInfo>> versions = CatalogStore(**db).versions();
    if (!versions)
        return fail(versions.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray a;
        for (const CatalogVersionInfo& v : *versions)
            a.append(QJsonObject{{QStringLiteral("version"), v.label},
                                 {QStringLiteral("source"), v.source},
                                 {QStringLiteral("importedAt"), v.importedAt.toString(Qt::ISODate)},
                                 {QStringLiteral("overlays"), v.overlayCount},
                                 {QStringLiteral("recipes"), v.recipeCount},
                                 {QStringLiteral("apiVersions"), QJsonArray::fromStringList(v.apiVersions.split(','))},
                                 {QStringLiteral("contentDigest"), v.contentDigest},
                                 {QStringLiteral("embedded"), v.embedded}});
        printJson(a);
        return kOk;
    }
    out() << QStringLiteral("%1  %2  %3  %4  %5").arg(QStringLiteral("VERSION"), -12).arg(QStringLiteral("OVERLAYS"), 8)
                 .arg(QStringLiteral("RECIPES"), 7).arg(QStringLiteral("IMPORTED"), -20).arg(QStringLiteral("SOURCE"))
          << Qt::endl;
    for (const CatalogVersionInfo& v : *versions)
        out() << QStringLiteral("%1  %2  %3  %4  %5")
                     .arg(v.label, -12)
                     .arg(v.overlayCount, 8)
                     .arg(v.recipeCount, 7)
                     .arg(v.importedAt.toString(Qt::ISODate), -20)
                     .arg(v.embedded ? QStringLiteral("(embedded default)") : v.source)
              << Qt::endl;
    return kOk;
}

int catalogVerb(const QStringList& args) {
    const QString sub = args.size() > 2 ? args.at(2) : QString();
    QStringList rest = args;
    if (sub == QLatin1String("import") || sub == QLatin1String("list")) {
        rest.remove(1, 2); // the parser sees "proofbench <options>"
        return sub == QLatin1String("import") ? catalogImport(rest) : catalogList(rest);
    }
    if (sub.isEmpty() || sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        out() << "Usage: proofbench catalog <import|list> [options]\n\n"
                 "  import --version LABEL DIR   import a catalog directory (all or nothing)\n"
                 "  list                         list imported catalog versions\n\n"
                 "Run 'proofbench catalog <sub> --help' for the options of each.\n";
        return sub.isEmpty() ? kUsage : kOk;
    }
    return usage(QStringLiteral("unknown catalog command '%1'").arg(sub), QStringLiteral("catalog"));
}


// ---- graph --------------------------------------------------------------------------------------

int graphVerb(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    p.addOption({QStringLiteral("catalog"), QStringLiteral("Resolve against a catalog directory."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("version"), QStringLiteral("Resolve against an imported catalog version."),
                 QStringLiteral("LABEL")});
    addCriteriaOptions(p);
    addFormat(p, QStringLiteral("dot|svg|png|json"), QStringLiteral("json"));
    p.addOption({QStringList{QStringLiteral("o"), QStringLiteral("output")},
                 QStringLiteral("Write to FILE instead of standard output."), QStringLiteral("FILE")});
    if (int rc = parse(p, args, QStringLiteral("graph"),
                       QStringLiteral("Lay out the component graph of a recipe with Graphviz (dot): nodes are the "
                                      "enabled components, edges their dependencies."));
        rc >= 0)
        return rc;
    const QString format = p.value(QStringLiteral("format"));
    if (!QStringList{QStringLiteral("dot"), QStringLiteral("svg"), QStringLiteral("png"), QStringLiteral("json")}.contains(format))
        return usage(QStringLiteral("unknown --format '%1' (expected dot, svg, png or json)").arg(format),
                     QStringLiteral("graph"));
    Result<ResolveOptions> opt = resolveOptionsFrom(p);
    if (!opt)
        return usage(opt.error().message, QStringLiteral("graph"));
    Result<Catalog> cat = catalogFrom(p);
    if (!cat)
        return fail(cat.error());
    Result<Criteria> query = criteriaFrom(p, *cat);
    if (!query)
        return fail(query.error());
    Result<RecipeResult> r = resolve(*cat, *query, *opt);
    if (!r)
        return fail(r.error());
    QByteArray bytes;
    if (format == QLatin1String("json")) {
        Result<graph::ComponentGraph> g = graph::layoutRecipe(*r);
        if (!g)
            return fail(g.error());
        bytes = QJsonDocument(graph::toJson(*g)).toJson(QJsonDocument::Indented);
    } else {
        Result<QByteArray> rendered = graph::render(*r, format);
        if (!rendered)
            return fail(rendered.error());
        bytes = *rendered;
    }
    return writeOutput(p, bytes) ? kOk : kFailed;
}

// ---- diff ---------------------------------------------------------------------------------------

int diffVerb(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    p.addOption({QStringLiteral("from"), QStringLiteral("Older catalog: a directory or a version label."),
                 QStringLiteral("DIR|LABEL")});
    p.addOption({QStringLiteral("to"), QStringLiteral("Newer catalog: a directory or a version label."),
                 QStringLiteral("DIR|LABEL")});
    addCriteriaOptions(p);
    addCriteriaOptions(p, QStringLiteral("to-"));
    p.addOption({QStringLiteral("all-leaves"),
                 QStringLiteral("Compare the whole catalogs: overlays, mixins, registry, validator checks, and "
                                "every leaf recipe's digest.")});
    addFormat(p, QStringLiteral("text|markdown|json"), QStringLiteral("text"));
    p.addOption({QStringList{QStringLiteral("o"), QStringLiteral("output")},
                 QStringLiteral("Write to FILE instead of standard output."), QStringLiteral("FILE")});
    if (int rc = parse(p, args, QStringLiteral("diff"),
                       QStringLiteral("What changed between two catalogs: one recipe (criteria flags, optionally "
                                      "different --to-* criteria) or every leaf (--all-leaves). Exit 0 whether or "
                                      "not there are differences; the output says."));
        rc >= 0)
        return rc;
    if (!p.isSet(QStringLiteral("from")) || !p.isSet(QStringLiteral("to")))
        return usage(QStringLiteral("--from and --to are required"), QStringLiteral("diff"));
    const bool all = p.isSet(QStringLiteral("all-leaves"));
    if (all == (anyCriteria(p) || anyCriteria(p, QStringLiteral("to-"))))
        return usage(QStringLiteral("give criteria flags or --all-leaves (not both)"), QStringLiteral("diff"));
    const QString format = p.value(QStringLiteral("format"));
    if (!QStringList{QStringLiteral("text"), QStringLiteral("markdown"), QStringLiteral("json")}.contains(format))
        return usage(QStringLiteral("unknown --format '%1' (expected text, markdown or json)").arg(format),
                     QStringLiteral("diff"));
    const QString fromSpec = p.value(QStringLiteral("from")), toSpec = p.value(QStringLiteral("to"));
    Result<Catalog> from = catalogFromSpec(fromSpec, p);
    if (!from)
        return fail(from.error());
    Result<Catalog> to = catalogFromSpec(toSpec, p);
    if (!to)
        return fail(to.error());
    QByteArray bytes;
    if (all) {
        const CatalogDiff d = diffCatalogs(*from, *to, fromSpec, toSpec);
        bytes = format == QLatin1String("json")       ? QJsonDocument(toJson(d)).toJson(QJsonDocument::Indented)
                : format == QLatin1String("markdown") ? toMarkdown(d).toUtf8()
                                                      : toText(d).toUtf8();
    } else {
        Result<ResolveOptions> opt = resolveOptionsFrom(p);
        if (!opt)
            return usage(opt.error().message, QStringLiteral("diff"));
        Result<Criteria> qa = criteriaFrom(p, *from);
        if (!qa)
            return fail(qa.error());
        Result<Criteria> qb = criteriaFrom(p, *to, QStringLiteral("to-"));
        if (!qb)
            return fail(qb.error());
        Result<RecipeResult> ra = resolve(*from, *qa, *opt);
        if (!ra)
            return fail(makeError(QStringLiteral("%1: %2").arg(fromSpec, ra.error().toString())));
        Result<RecipeResult> rb = resolve(*to, *qb, *opt);
        if (!rb)
            return fail(makeError(QStringLiteral("%1: %2").arg(toSpec, rb.error().toString())));
        const RecipeDiff d = diffRecipes(*ra, *rb, fromSpec, toSpec);
        bytes = format == QLatin1String("json")       ? QJsonDocument(toJson(d)).toJson(QJsonDocument::Indented)
                : format == QLatin1String("markdown") ? toMarkdown(d).toUtf8()
                                                      : toText(d).toUtf8();
    }
    return writeOutput(p, bytes) ? kOk : kFailed;
}

// ---- evidence and health -------------------------------------------------------------------------

int evidenceImport(const QStringList& args) {
    QCommandLineParser p;
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
    if (int rc = parse(p, args, QStringLiteral("evidence import"),
                       QStringLiteral("Import every evidence pointer of a tree, checked by AICR's pointer rules and "
                                      "tree contract. Idempotent; pointers that break a rule are kept as invalid "
                                      "with the reason."));
        rc >= 0)
        return rc;
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one evidence directory"), QStringLiteral("evidence import"));
    Result<evidence::EvidenceTree> tree =
        evidence::scanEvidence(p.positionalArguments().constFirst(), p.value(QStringLiteral("allowlist")));
    if (!tree)
        return fail(tree.error());
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<EvidenceImportReport> r = EvidenceStore(**db).importTree(*tree);
    if (!r)
        return fail(r.error());
    int bundles = 0;
    if (p.isSet(QStringLiteral("bundles"))) {
        Result<int> b = EvidenceStore(**db).importBundles(p.value(QStringLiteral("bundles")));
        if (!b)
            return fail(b.error());
        bundles = *b;
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
                              {QStringLiteral("invalidPointers"), problems}});
        return kOk;
    }
    out() << tree->pointers.size() << " pointers from " << tree->root << ": " << r->added << " added, " << r->updated
          << " updated, " << r->unchanged << " unchanged, " << r->invalid << " invalid";
    if (p.isSet(QStringLiteral("bundles")))
        out() << "; " << bundles << " bundles read";
    out() << Qt::endl;
    for (const evidence::Pointer& ptr : tree->pointers)
        if (!ptr.isValid())
            out() << "  invalid " << ptr.file << ": " << ptr.problems.join(QStringLiteral("; ")) << Qt::endl;
    return kOk;
}

int evidenceCheck(const QStringList& args) {
    QCommandLineParser p;
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
    if (int rc = parse(p, args, QStringLiteral("evidence check"),
                       QStringLiteral("Check an evidence bundle offline, as aicr evidence verify does: the attestation's "
                                      "Sigstore signature (for the signer the pointer claims), the manifest, the recipe "
                                      "binding. Exit 0 valid, 1 valid with failed phases, 2 invalid, 3 incomplete."));
        rc >= 0)
        return rc;
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one bundle"), QStringLiteral("evidence check"));
    const QString bundleArg = p.positionalArguments().constFirst();
    receipts::ReceiptDraft receipt;
    receipt.kind = QStringLiteral("evidence.check");
    receipt.parameters = QJsonObject{{QStringLiteral("pointer"), p.value(QStringLiteral("pointer"))},
                                     {QStringLiteral("trustedRoot"), p.value(QStringLiteral("trusted-root"))},
                                     {QStringLiteral("publicKey"), p.value(QStringLiteral("key"))},
                                     {QStringLiteral("insecureIgnoreTlog"), p.isSet(QStringLiteral("insecure-ignore-tlog"))}};
    receipt.inputs.push_back(receipts::Artifact::directory(bundleArg));
    if (p.isSet(QStringLiteral("pointer")))
        receipt.inputs.push_back(receipts::Artifact::file(p.value(QStringLiteral("pointer"))));
    Result<evidence::SummaryBundle> bundle = evidence::loadBundle(bundleArg);
    if (!bundle) {
        fail(bundle.error());
        receipt.result = receipts::Outcome::Failed;
        receipt.message = QStringLiteral("invalid (exit 2): ") + bundle.error().toString();
        leaveReceipt(p, receipt);
        return 2; // an unreadable or hostile bundle is invalid
    }
    std::optional<evidence::Pointer> pointer;
    if (p.isSet(QStringLiteral("pointer"))) {
        const QString file = p.value(QStringLiteral("pointer"));
        Result<QByteArray> bytes = readFileLimited(file, limits::kSmallFile, QStringLiteral("the pointer"));
        if (!bytes)
            return fail(bytes.error());
        pointer = evidence::parsePointer(*bytes, QFileInfo(file).fileName());
        if (!pointer->problems.isEmpty()) {
            fail(makeError(pointer->problems.join(QStringLiteral("; ")), file));
            return 2;
        }
    }
    std::optional<sigstore::TrustedRoot> root;
    Result<evidence::SignatureCheck> signatureOrError = evidenceSignatureCheck(p, root);
    if (!signatureOrError)
        return fail(signatureOrError.error());
    const evidence::SignatureCheck signature = *signatureOrError;
    const evidence::BundleCheck check = evidence::checkBundle(*bundle, pointer ? &*pointer : nullptr, &signature);
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printJson(check.toJson());
    else
        out() << check.toText();
    out().flush();
    static const char* const meanings[] = {"valid", "valid with failed phases", "invalid", "incomplete"};
    receipt.result = check.exitCode == 0 ? receipts::Outcome::Ok : check.exitCode == 1 ? receipts::Outcome::Partial : receipts::Outcome::Failed;
    receipt.message = QStringLiteral("%1 (exit %2)").arg(QLatin1String(meanings[qBound(0, check.exitCode, 3)])).arg(check.exitCode);
    leaveReceipt(p, receipt);
    return check.exitCode;
}

int evidenceSign(const QStringList& args);

int evidenceVerb(const QStringList& args) {
    const QString sub = args.value(2);
    if (sub == QLatin1String("check")) {
        QStringList rest = args;
        rest.remove(1, 2);
        return evidenceCheck(rest);
    }
    if (sub == QLatin1String("import")) {
        QStringList rest = args;
        rest.remove(1, 2);
        return evidenceImport(rest);
    }
    if (sub == QLatin1String("sign")) {
        QStringList rest = args;
        rest.remove(1, 2);
        return evidenceSign(rest);
    }
    if (sub == QLatin1String("fetch") || sub == QLatin1String("push"))
        return ociVerbs(args);
    if (sub.isEmpty() || sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        out() << "Usage: proofbench evidence <import|check> ...\n\n"
                 "  import [--allowlist FILE] DIR        read a recipes/evidence tree into the database\n"
                 "  check [--pointer FILE] BUNDLE        check a summary bundle or OCI layout offline\n"
                 "  sign --key KEY BUNDLE                sign a summary bundle and write its pointer\n"
                 "  fetch POINTER_OR_DIR                 pull pinned bundles and their signatures, then check\n"
                 "  push DIR --to REF [--key KEY]        publish a bundle and write its pointer\n";
        return sub.isEmpty() ? kUsage : kOk;
    }
    return usage(QStringLiteral("unknown evidence command '%1'").arg(sub), QStringLiteral("evidence"));
}

int healthVerb(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    p.addOption({QStringLiteral("version"), QStringLiteral("Catalog version (default: the newest imported)."),
                 QStringLiteral("LABEL")});
    addFormat(p, QStringLiteral("markdown|json|csv"), QStringLiteral("markdown"));
    if (int rc = parse(p, args, QStringLiteral("health"),
                       QStringLiteral("The health table: one row per recipe coordinate of a catalog version, with the "
                                      "status its evidence gives it."));
        rc >= 0)
        return rc;
    const QString format = p.value(QStringLiteral("format"));
    if (!QStringList{QStringLiteral("markdown"), QStringLiteral("json"), QStringLiteral("csv")}.contains(format))
        return usage(QStringLiteral("unknown --format '%1' (expected markdown, json or csv)").arg(format),
                     QStringLiteral("health"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    CatalogStore catalogs(**db);
    qint64 versionId = 0;
    if (p.isSet(QStringLiteral("version"))) {
        Result<CatalogVersionInfo> v = catalogs.version(p.value(QStringLiteral("version")));
        if (!v)
            return fail(v.error());
        versionId = v->id;
    } else {
        Result<std::vector<CatalogVersionInfo>> all = catalogs.versions();
        if (!all)
            return fail(all.error());
        if (all->empty())
            return fail(makeError(QStringLiteral("no catalog versions in the database")));
        versionId = all->back().id;
    }
    Result<std::vector<HealthRow>> rows = EvidenceStore(**db).health(versionId);
    if (!rows)
        return fail(rows.error());
    if (format == QLatin1String("json")) {
        QJsonArray a;
        for (const HealthRow& r : *rows)
            a.append(healthJson(r));
        printJson(a);
    } else {
        out() << (format == QLatin1String("csv") ? healthCsv(*rows) : healthMarkdown(*rows));
    }
    return kOk;
}

int recipeDigestVerb(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({QStringLiteral("predicate-type"),
                 QStringLiteral("Evidence predicate type whose digest rule applies: "
                                "https://aicr.run/recipe-evidence/v1, v2 or v3 (default v3)."),
                 QStringLiteral("URI"), QStringLiteral("https://aicr.run/recipe-evidence/v3")});
    p.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A recipe.yaml (RecipeResult)."));
    if (int rc = parse(p, args, QStringLiteral("recipe digest"),
                       QStringLiteral("Print the evidence recipe digest of a recipe.yaml, as AICR's "
                                      "CanonicalizeRecipeYAML computes it (v3 drops metadata.version)."));
        rc >= 0)
        return rc;
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one recipe file"), QStringLiteral("recipe digest"));
    Result<PredicateVersion> version = parsePredicateType(p.value(QStringLiteral("predicate-type")));
    if (!version)
        return fail(version.error());
    const QString path = p.positionalArguments().constFirst();
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fail(makeError(QStringLiteral("cannot read: %1").arg(f.errorString()), path));
    Result<QString> d = evidenceRecipeDigest(f.readAll(), path, *version);
    if (!d)
        return fail(d.error());
    out() << *d << Qt::endl;
    return kOk;
}

int recipeVerb(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    p.addOption({QStringLiteral("catalog"), QStringLiteral("Resolve against a catalog directory."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("version"), QStringLiteral("Resolve against an imported catalog version."),
                 QStringLiteral("LABEL")});
    for (const QString& d : Criteria::dimensions())
        p.addOption({d, QStringLiteral("Criteria: %1 (omit or 'any' for no preference).").arg(d), d.toUpper()});
    p.addOption({QStringLiteral("profile"), QStringLiteral("Select a profile value (repeatable)."),
                 QStringLiteral("NAME=VALUE")});
    p.addOption({QStringLiteral("all-leaves"), QStringLiteral("Resolve every leaf overlay and report each.")});
    p.addOption({QStringLiteral("stamp-version"),
                 QStringLiteral("metadata.version to stamp into the result (default dev; AICR's parity golden "
                                "uses catalog-parity-golden)."),
                 QStringLiteral("V"), QStringLiteral("dev")});
    p.addOption({QStringLiteral("deterministic"),
                 QStringLiteral("With --format yaml: AICR's deterministic bytes (keys sorted), the input of the "
                                "recipe digest.")});
    p.addOption({QStringLiteral("digest"),
                 QStringLiteral("Print the recipe digest (sha256 of the deterministic bytes); with --all-leaves one "
                                "'leaf: digest' line per leaf, as AICR's catalog-parity golden.")});
    addFormat(p, QStringLiteral("yaml|json (all leaves: text|json)"), QStringLiteral("yaml"));
    if (int rc = parse(p, args, QStringLiteral("recipe"),
                       QStringLiteral("Resolve criteria into a RecipeResult by AICR's rules, or every leaf overlay "
                                      "with --all-leaves."));
        rc >= 0)
        return rc;
    if (!p.positionalArguments().isEmpty())
        return usage(QStringLiteral("unexpected argument '%1'").arg(p.positionalArguments().constFirst()),
                     QStringLiteral("recipe"));
    const QString format = p.value(QStringLiteral("format"));
    ResolveOptions opt;
    opt.builderVersion = p.value(QStringLiteral("stamp-version"));
    const bool digest = p.isSet(QStringLiteral("digest"));
    for (const QString& pv : p.values(QStringLiteral("profile"))) {
        const int eq = pv.indexOf(QLatin1Char('='));
        if (eq <= 0 || eq == pv.size() - 1)
            return usage(QStringLiteral("--profile expects NAME=VALUE, got '%1'").arg(pv), QStringLiteral("recipe"));
        opt.profiles.insert(pv.left(eq), pv.mid(eq + 1));
    }
    const bool hasDir = p.isSet(QStringLiteral("catalog")), hasLabel = p.isSet(QStringLiteral("version"));
    if (hasDir == hasLabel)
        return usage(QStringLiteral("give exactly one of --catalog DIR or --version LABEL"), QStringLiteral("recipe"));
    Result<Catalog> cat = catalogFrom(p);
    if (!cat)
        return fail(cat.error());

    if (p.isSet(QStringLiteral("all-leaves"))) {
        const std::vector<LeafResolution> leaves = resolveAllLeaves(*cat, opt);
        if (digest) { // the golden's format: sorted "leaf: hex" lines, failures as resolve-error
            int failed = 0;
            for (const LeafResolution& lr : leaves) {
                out() << lr.leaf << ": " << (lr.result ? recipeDigest(*lr.result) : QStringLiteral("resolve-error"))
                      << '\n';
                failed += lr.error ? 1 : 0;
            }
            out().flush();
            for (const LeafResolution& lr : leaves)
                if (lr.error)
                    err() << "proofbench: " << lr.leaf << ": " << lr.error->toString() << Qt::endl;
            return failed ? kFailed : kOk;
        }
        int failures = 0;
        QJsonArray a;
        for (const LeafResolution& lr : leaves) {
            failures += lr.error ? 1 : 0;
            a.append(QJsonObject{
                {QStringLiteral("leaf"), lr.leaf},
                {QStringLiteral("appliedOverlays"),
                 lr.result ? QJsonValue(QJsonArray::fromStringList(lr.result->appliedOverlays)) : QJsonValue(QJsonArray())},
                {QStringLiteral("components"), lr.result ? static_cast<int>(lr.result->componentRefs.size()) : 0},
                {QStringLiteral("error"), lr.error ? QJsonValue(lr.error->toString()) : QJsonValue()}});
        }
        if (format == QLatin1String("json")) {
            printJson(a);
        } else {
            for (const LeafResolution& lr : leaves) {
                if (lr.error)
                    out() << lr.leaf << ": ERROR " << lr.error->toString() << Qt::endl;
                else
                    out() << lr.leaf << ": " << lr.result->componentRefs.size() << " components, overlays "
                          << lr.result->appliedOverlays.join(QStringLiteral(", ")) << Qt::endl;
            }
            out() << leaves.size() << " leaves, " << failures << " failed" << Qt::endl;
        }
        return failures ? kFailed : kOk;
    }

    QMap<QString, QString> flags;
    for (const QString& d : Criteria::dimensions())
        flags.insert(d, p.value(d));
    Result<Criteria> query = parseUserCriteria(*cat, flags);
    if (!query)
        return fail(query.error());
    Result<RecipeResult> r = resolve(*cat, *query, opt);
    if (!r)
        return fail(r.error());
    QByteArray exported;
    if (digest)
        exported = recipeDigest(*r).toUtf8() + '\n';
    else if (format == QLatin1String("json"))
        exported = QJsonDocument(toJson(*r).toObject()).toJson(QJsonDocument::Indented);
    else if (format == QLatin1String("yaml") && p.isSet(QStringLiteral("deterministic")))
        exported = deterministicYaml(*r);
    else if (format == QLatin1String("yaml"))
        exported = yaml::serialize(toNode(*r));
    else
        return usage(QStringLiteral("unknown --format '%1'").arg(format), QStringLiteral("recipe"));
    out() << QString::fromUtf8(exported);
    out().flush();
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("recipe.export");
    QJsonObject criteria;
    for (const QString& dim : Criteria::dimensions())
        if (!p.value(dim).isEmpty())
            criteria.insert(dim, p.value(dim));
    d.parameters = QJsonObject{{QStringLiteral("criteria"), criteria},
                               {QStringLiteral("format"), digest ? QStringLiteral("digest") : format},
                               {QStringLiteral("deterministic"), p.isSet(QStringLiteral("deterministic"))},
                               {QStringLiteral("profiles"), QJsonArray::fromStringList(p.values(QStringLiteral("profile")))},
                               {QStringLiteral("version"), p.value(QStringLiteral("version"))}};
    d.inputs.push_back(receipts::Artifact::digest(cat->root, cat->contentDigest()));
    d.outputs.push_back(receipts::Artifact::bytes(QStringLiteral("recipe %1 (stdout)").arg(r->appliedOverlays.value(r->appliedOverlays.size() - 1)), exported));
    d.message = QStringLiteral("%1 components, overlays %2").arg(r->componentRefs.size()).arg(r->appliedOverlays.join(QStringLiteral(", ")));
    leaveReceipt(p, d);
    return kOk;
}


// ---- verify -------------------------------------------------------------------------------------

// The trusted root: --trusted-root FILE, else the database's default (imported in the app or by
// `proofbench verify --import-trusted-root`).
Result<sigstore::TrustedRoot> trustedRootFrom(const QCommandLineParser& p) {
    if (p.isSet(QStringLiteral("trusted-root")))
        return sigstore::loadTrustedRoot(p.value(QStringLiteral("trusted-root")));
    auto db = Database::open(dbPath(p));
    if (!db)
        return db.error();
    auto root = VerificationStore(**db).defaultTrustedRoot();
    if (!root)
        return root.error();
    if (!*root)
        return makeError(QStringLiteral("no trusted root: give --trusted-root FILE (Sigstore's trusted_root.json), or import "
                                        "one with --import-trusted-root"),
                         dbPath(p));
    return std::move(**root);
}

int verifyBatch(const QCommandLineParser& p) {
    const QString manifest = p.value(QStringLiteral("batch"));
    auto text = readFile(manifest);
    if (!text)
        return fail(text.error());
    std::optional<sigstore::TrustedRoot> common;
    if (p.isSet(QStringLiteral("trusted-root"))) {
        auto r = sigstore::loadTrustedRoot(p.value(QStringLiteral("trusted-root")));
        if (!r)
            return fail(r.error());
        common = std::move(*r);
    }
    const QDir base = QFileInfo(manifest).dir();
    const bool useDigest = p.isSet(QStringLiteral("use-digest"));
    const QList<QByteArray> lines = text->split('\n');
    int total = 0, verified = 0, asExpected = 0, errors = 0;
    QJsonArray json;
    const bool asJson = p.value(QStringLiteral("format")) == QLatin1String("json");
    for (int i = 1; i < lines.size(); ++i) {
        if (lines.at(i).trimmed().isEmpty())
            continue;
        const QStringList c = QString::fromUtf8(lines.at(i)).split(QLatin1Char('\t'));
        if (c.size() < 7) {
            err() << manifest << ":" << (i + 1) << ": expected at least 7 tab-separated columns, found " << c.size() << Qt::endl;
            ++errors;
            continue;
        }
        const QString name = c.at(0), expected = c.at(1), mode = c.at(2);
        const QDir dir(base.filePath(QStringLiteral("cases/") + name));
        ++total;
        sigstore::Policy policy;
        if (mode == QLatin1String("key")) {
            auto key = readFile(dir.filePath(QStringLiteral("key.pub")));
            policy.publicKeyPem = key ? *key : QByteArray();
        } else {
            policy.identity = c.at(3);
            policy.issuer = c.at(4);
        }
        std::optional<sigstore::TrustedRoot> own;
        if (!common) {
            auto r = sigstore::loadTrustedRoot(dir.filePath(QStringLiteral("trusted_root.json")));
            if (r)
                own = std::move(*r);
        }
        sigstore::VerificationResult r;
        const QString bundlePath = dir.filePath(QStringLiteral("bundle.sigstore.json"));
        const sigstore::TrustedRoot* root = common ? &*common : own ? &*own : nullptr;
        auto artifactBytes = readFile(dir.filePath(QStringLiteral("artifact")));
        auto bundleBytes = readFile(bundlePath);
        if (!root || !bundleBytes || (!useDigest && !artifactBytes)) {
            r.bundleFile = bundlePath;
            r.steps.push_back({QStringLiteral("inputs"), sigstore::StepState::Failed,
                               !root ? QStringLiteral("no readable trusted root")
                               : !bundleBytes ? bundleBytes.error().toString()
                                              : artifactBytes.error().toString(),
                               {}, {}});
        } else {
            sigstore::Artifact artifact;
            if (useDigest) {
                auto d = sigstore::Artifact::fromDigest(c.at(6));
                if (!d) {
                    err() << manifest << ":" << (i + 1) << ": artifact_digest: " << d.error().message << Qt::endl;
                    ++errors;
                    continue;
                }
                artifact = *d;
            } else {
                artifact = sigstore::Artifact::fromBytes(*artifactBytes);
            }
            r = sigstore::verifyBundle(*bundleBytes, bundlePath, artifact, *root, policy);
        }
        const QString verdict = r.verified ? QStringLiteral("PASS") : QStringLiteral("FAIL");
        verified += r.verified;
        const bool ok = expected.isEmpty() || verdict == expected;
        asExpected += ok;
        if (asJson) {
            QJsonObject o = r.toJson();
            o.insert(QStringLiteral("case"), name);
            o.insert(QStringLiteral("expected"), expected);
            o.insert(QStringLiteral("asExpected"), ok);
            o.remove(QStringLiteral("statement"));
            json.append(o);
        } else {
            out() << verdict << '\t' << name << '\t' << (ok ? "as expected" : "UNEXPECTED") << '\t' << r.summary() << '\n';
        }
    }
    if (asJson)
        printJson(QJsonObject{{QStringLiteral("cases"), json},
                              {QStringLiteral("total"), total},
                              {QStringLiteral("verified"), verified},
                              {QStringLiteral("asExpected"), asExpected}});
    else
        out() << QStringLiteral("%1 case(s): %2 verified, %3 refused; %4 as expected, %5 unexpected%6\n")
                     .arg(total)
                     .arg(verified)
                     .arg(total - verified)
                     .arg(asExpected)
                     .arg(total - asExpected)
                     .arg(errors ? QStringLiteral(", %1 manifest line(s) unreadable").arg(errors) : QString());
    out().flush();
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("verify.batch");
    d.parameters = QJsonObject{{QStringLiteral("useDigest"), useDigest},
                               {QStringLiteral("trustedRootSha256"), common ? QString::fromLatin1(common->sha256.toHex()) : QStringLiteral("per case")},
                               {QStringLiteral("cases"), total},
                               {QStringLiteral("verified"), verified},
                               {QStringLiteral("asExpected"), asExpected},
                               {QStringLiteral("unreadableLines"), errors}};
    d.inputs.push_back(receipts::Artifact::bytes(manifest, *text));
    d.result = outcomeOf(asExpected == total && errors == 0);
    d.message = QStringLiteral("%1 case(s): %2 verified, %3 as expected").arg(total).arg(verified).arg(asExpected);
    leaveReceipt(p, d);
    return asExpected == total && errors == 0 ? kOk : kFailed;
}

int verifyVerb(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    p.addOption({QStringLiteral("bundle"), QStringLiteral("Sigstore bundle (.sigstore.json, attestation.intoto.jsonl)."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("artifact"), QStringLiteral("The signed artifact (or the statement's subject)."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("digest"), QStringLiteral("The artifact's digest instead of the artifact: sha256:HEX."), QStringLiteral("DIGEST")});
    addSignerOptions(p);
    p.addOption({QStringLiteral("import-trusted-root"), QStringLiteral("Store FILE in the database as the default trusted root, then exit."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("batch"), QStringLiteral("Verify every case of a MANIFEST.tsv (cases/<case>/ beside it); one verdict per line."), QStringLiteral("MANIFEST")});
    p.addOption({QStringLiteral("use-digest"), QStringLiteral("With --batch: verify against the manifest's artifact_digest, not the artifact file.")});
    p.addOption({QStringLiteral("record"), QStringLiteral("Store the result in the database (as the app does).")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("ARTIFACT"), QStringLiteral("The artifact, as cosign takes it (same as --artifact)."), QStringLiteral("[ARTIFACT]"));
    if (int rc = parse(p, args, QStringLiteral("verify"),
                       QStringLiteral("Verify a Sigstore bundle offline, every step shown: transparency log, timestamps, "
                                      "certificate chain at the signing time, SCT, signature, artifact, identity. Exit 0 only "
                                      "when verified."));
        rc >= 0)
        return rc;
    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return usage(QStringLiteral("unknown --format '%1' (expected text or json)").arg(format), QStringLiteral("verify"));
    if (p.isSet(QStringLiteral("import-trusted-root"))) {
        auto db = Database::open(dbPath(p));
        if (!db)
            return fail(db.error());
        auto id = VerificationStore(**db).importTrustedRoot(p.value(QStringLiteral("import-trusted-root")));
        if (!id)
            return fail(id.error());
        out() << "trusted root " << p.value(QStringLiteral("import-trusted-root")) << " stored as the default\n";
        return kOk;
    }
    if (p.isSet(QStringLiteral("batch")))
        return verifyBatch(p);

    if (!p.isSet(QStringLiteral("bundle")))
        return usage(QStringLiteral("--bundle FILE is required"), QStringLiteral("verify"));
    QString artifactPath = p.value(QStringLiteral("artifact"));
    if (artifactPath.isEmpty() && !p.positionalArguments().isEmpty())
        artifactPath = p.positionalArguments().constFirst();
    if (artifactPath.isEmpty() == !p.isSet(QStringLiteral("digest")))
        return usage(QStringLiteral("give exactly one of --artifact FILE and --digest sha256:HEX"), QStringLiteral("verify"));
    auto policyOrError = signerPolicy(p, true);
    if (!policyOrError)
        return policyOrError.error().file.isEmpty() ? usage(policyOrError.error().message, QStringLiteral("verify")) : fail(policyOrError.error());
    const sigstore::Policy policy = *policyOrError;
    auto root = trustedRootFrom(p);
    if (!root && policy.keyMode() && !p.isSet(QStringLiteral("trusted-root")))
        root = sigstore::TrustedRoot{}; // a key needs no trust material; log entries then fail as untrusted
    if (!root)
        return fail(root.error());
    sigstore::Artifact artifact;
    if (!artifactPath.isEmpty()) {
        auto bytes = readFile(artifactPath);
        if (!bytes)
            return fail(bytes.error());
        artifact = sigstore::Artifact::fromBytes(std::move(*bytes));
    } else {
        auto d = sigstore::Artifact::fromDigest(p.value(QStringLiteral("digest")));
        if (!d)
            return usage(d.error().toString(), QStringLiteral("verify"));
        artifact = *d;
    }
    const QString bundlePath = p.value(QStringLiteral("bundle"));
    auto bundleBytes = readFile(bundlePath);
    if (!bundleBytes)
        return fail(bundleBytes.error());
    const sigstore::VerificationResult r = sigstore::verifyBundle(*bundleBytes, bundlePath, artifact, *root, policy);
    if (p.isSet(QStringLiteral("record"))) {
        // The verification and its receipt in one transaction.
        auto db = Database::open(dbPath(p));
        if (!db)
            return fail(db.error());
        if (auto id = VerificationStore(**db).record(r, *bundleBytes, policy); !id)
            return fail(id.error());
    } else {
        receipts::ReceiptDraft d;
        d.kind = QStringLiteral("verify");
        d.parameters = QJsonObject{{QStringLiteral("policy"), policy.toJson()}, {QStringLiteral("trustedRootSha256"), r.trustedRootSha256},
                                   {QStringLiteral("recorded"), false}};
        d.inputs.push_back(receipts::Artifact::bytes(bundlePath, *bundleBytes));
        d.inputs.push_back(artifactPath.isEmpty() ? receipts::Artifact::digest(QStringLiteral("artifact"), r.artifactDigest)
                                                  : receipts::Artifact::file(artifactPath));
        d.result = outcomeOf(r.verified);
        d.message = r.summary();
        leaveReceipt(p, d);
    }
    if (format == QLatin1String("json"))
        printJson(r.toJson());
    else
        out() << r.toText();
    out().flush();
    if (!r.verified)
        err() << "proofbench: not verified: " << r.summary() << Qt::endl;
    return r.verified ? kOk : kFailed;
}


int keygenVerb(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("out"), QStringLiteral("Write the encrypted private key to NAME and the public key to NAME.pub."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("from"), QStringLiteral("Import this key instead of generating one: cosign's cosign.key (same passphrase) or "
                                                        "an unencrypted PEM private key."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("cosign"), QStringLiteral("Write the private key in cosign's format (ENCRYPTED SIGSTORE PRIVATE KEY).")});
    if (int rc = parse(p, args, QStringLiteral("keygen"),
                       QStringLiteral("Create (or import) an ECDSA P-256 signing key. The private key is only ever written encrypted "
                                      "(PKCS#8, scrypt + AES-256-CBC; or cosign's scrypt + NaCl secretbox); the database keeps the "
                                      "public key and its fingerprint."));
        rc >= 0)
        return rc;
    const QString outPath = p.value(QStringLiteral("out"));
    if (outPath.isEmpty())
        return usage(QStringLiteral("--out NAME is required"), QStringLiteral("keygen"));
    auto pass = passphraseFrom(p, QStringLiteral("Passphrase for %1: ").arg(outPath), !p.isSet(QStringLiteral("from")));
    if (!pass)
        return fail(pass.error());
    if (pass->isEmpty())
        return fail(makeError(QStringLiteral("an empty passphrase would leave the key unprotected"), outPath));
    sigstore::crypto::Pkey key;
    if (p.isSet(QStringLiteral("from"))) {
        auto pem = readFile(p.value(QStringLiteral("from")));
        if (!pem)
            return fail(pem.error());
        auto k = sigstore::readAnyPrivateKey(*pem, *pass, p.value(QStringLiteral("from")));
        if (!k)
            return fail(k.error());
        key = std::move(*k);
        if (sigstore::crypto::keyKind(key.get()) != sigstore::crypto::KeyKind::EcP256)
            return fail(makeError(QStringLiteral("only ECDSA P-256 keys can sign here"), p.value(QStringLiteral("from"))));
    } else {
        key = sigstore::generateSigningKey();
    }
    auto sealed = p.isSet(QStringLiteral("cosign")) ? sigstore::exportCosignKey(key.get(), *pass) : sigstore::encryptPrivateKey(key.get(), *pass);
    if (!sealed)
        return fail(sealed.error());
    if (Status s = writeFileAtomically(outPath, *sealed, FileAccess::OwnerOnly); !s)
        return fail(s.error());
    const QByteArray pub = sigstore::publicKeyPem(key.get());
    if (Status s = writeFileAtomically(outPath + QStringLiteral(".pub"), pub); !s)
        return fail(s.error());
    if (auto db = Database::open(dbPath(p)); db) {
        if (auto id = VerificationStore(**db).addPublicKey(pub, QFileInfo(outPath).fileName()); !id)
            return fail(id.error());
    } else {
        return fail(db.error());
    }
    // The receipt names the public key only: the private key file's digest would say nothing a
    // reader can check, and its bytes (even encrypted) stay out of every record.
    receipts::ReceiptDraft d;
    d.kind = p.isSet(QStringLiteral("from")) ? QStringLiteral("key.import") : QStringLiteral("key.generate");
    d.parameters = QJsonObject{{QStringLiteral("format"), p.isSet(QStringLiteral("cosign")) ? QStringLiteral("cosign") : QStringLiteral("pkcs8")},
                               {QStringLiteral("fingerprint"), sigstore::keyFingerprint(key.get())},
                               {QStringLiteral("encryptedKeyAt"), QFileInfo(outPath).absoluteFilePath()}};
    d.outputs.push_back(receipts::Artifact::bytes(outPath + QStringLiteral(".pub"), pub));
    d.result = receipts::Outcome::Ok;
    d.message = QStringLiteral("ECDSA P-256 key %1").arg(sigstore::keyFingerprint(key.get()));
    leaveReceipt(p, d);
    out() << "private key: " << outPath << " (encrypted)\npublic key:  " << outPath << ".pub\nfingerprint: "
          << sigstore::keyFingerprint(key.get()) << Qt::endl;
    return kOk;
}

int signBlobVerb(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key (from keygen, or cosign.key)."), QStringLiteral("KEY")});
    p.addOption({QStringLiteral("bundle"), QStringLiteral("Where to write the Sigstore bundle."), QStringLiteral("OUT")});
    p.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The blob to sign."));
    if (int rc = parse(p, args, QStringLiteral("sign-blob"),
                       QStringLiteral("Sign a file offline: a v0.3 Sigstore bundle with a message signature and the key's hint. "
                                      "Verify with proofbench verify --key, or cosign verify-blob --key --insecure-ignore-tlog."));
        rc >= 0)
        return rc;
    if (!p.isSet(QStringLiteral("key")) || !p.isSet(QStringLiteral("bundle")) || p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give --key KEY, --bundle OUT and one FILE"), QStringLiteral("sign-blob"));
    auto blob = readFile(p.positionalArguments().constFirst());
    if (!blob)
        return fail(blob.error());
    auto key = privateKeyFrom(p);
    if (!key)
        return fail(key.error());
    auto bundle = sigstore::signBlob(key->get(), *blob);
    if (!bundle)
        return fail(bundle.error());
    if (Status s = writeFileAtomically(p.value(QStringLiteral("bundle")), *bundle + '\n'); !s)
        return fail(s.error());
    out() << "signed " << p.positionalArguments().constFirst() << " -> " << p.value(QStringLiteral("bundle")) << Qt::endl;
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("sign.blob");
    d.parameters = QJsonObject{{QStringLiteral("keyFingerprint"), sigstore::keyFingerprint(key->get())}};
    d.inputs.push_back(receipts::Artifact::bytes(p.positionalArguments().constFirst(), *blob));
    d.outputs.push_back(receipts::Artifact::file(p.value(QStringLiteral("bundle"))));
    d.message = QStringLiteral("message signature bundle written");
    leaveReceipt(p, d);
    return kOk;
}

int attestVerb(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key."), QStringLiteral("KEY")});
    p.addOption({QStringLiteral("subject"), QStringLiteral("A subject, NAME=sha256:HEX (repeatable)."), QStringLiteral("SUBJECT")});
    p.addOption({QStringLiteral("predicate-type"), QStringLiteral("The predicate type URI."), QStringLiteral("URI")});
    p.addOption({QStringLiteral("predicate"), QStringLiteral("The predicate, a JSON object file."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("bundle"), QStringLiteral("Where to write the Sigstore bundle."), QStringLiteral("OUT")});
    if (int rc = parse(p, args, QStringLiteral("attest"),
                       QStringLiteral("Sign an in-toto Statement v1 in a DSSE envelope, offline. Verify with proofbench verify --key "
                                      "--digest, or cosign verify-blob-attestation --key --insecure-ignore-tlog."));
        rc >= 0)
        return rc;
    if (!p.isSet(QStringLiteral("key")) || !p.isSet(QStringLiteral("bundle")) || !p.isSet(QStringLiteral("predicate-type")) ||
        !p.isSet(QStringLiteral("predicate")) || p.values(QStringLiteral("subject")).isEmpty())
        return usage(QStringLiteral("give --key, --subject, --predicate-type, --predicate and --bundle"), QStringLiteral("attest"));
    QList<sigstore::Subject> subjects;
    static const QRegularExpression re(QStringLiteral("^(.+)=sha256:([0-9a-f]{64})$"));
    for (const QString& s : p.values(QStringLiteral("subject"))) {
        const auto m = re.match(s);
        if (!m.hasMatch())
            return usage(QStringLiteral("--subject expects NAME=sha256:<64 hex>, got '%1'").arg(s), QStringLiteral("attest"));
        subjects << sigstore::Subject{m.captured(1), m.captured(2)};
    }
    auto predicateBytes = readFile(p.value(QStringLiteral("predicate")));
    if (!predicateBytes)
        return fail(predicateBytes.error());
    QJsonParseError perr;
    const QJsonDocument predicate = QJsonDocument::fromJson(*predicateBytes, &perr);
    if (perr.error != QJsonParseError::NoError || !predicate.isObject())
        return fail(makeError(QStringLiteral("not a JSON object: %1").arg(perr.errorString()), p.value(QStringLiteral("predicate"))));
    auto key = privateKeyFrom(p);
    if (!key)
        return fail(key.error());
    auto bundle = sigstore::attest(key->get(), sigstore::inTotoStatement(subjects, p.value(QStringLiteral("predicate-type")), predicate.object()));
    if (!bundle)
        return fail(bundle.error());
    if (Status s = writeFileAtomically(p.value(QStringLiteral("bundle")), *bundle + '\n'); !s)
        return fail(s.error());
    out() << "attested " << subjects.size() << " subject(s) -> " << p.value(QStringLiteral("bundle")) << Qt::endl;
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("sign.attest");
    d.parameters = QJsonObject{{QStringLiteral("keyFingerprint"), sigstore::keyFingerprint(key->get())},
                               {QStringLiteral("predicateType"), p.value(QStringLiteral("predicate-type"))}};
    for (const sigstore::Subject& s : subjects)
        d.inputs.push_back(receipts::Artifact::digest(s.name, s.sha256Hex));
    d.inputs.push_back(receipts::Artifact::bytes(p.value(QStringLiteral("predicate")), *predicateBytes));
    d.outputs.push_back(receipts::Artifact::file(p.value(QStringLiteral("bundle"))));
    d.message = QStringLiteral("DSSE attestation over %1 subject(s)").arg(subjects.size());
    leaveReceipt(p, d);
    return kOk;
}

int evidenceSign(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key."), QStringLiteral("KEY")});
    p.addOption({QStringLiteral("evidence-root"), QStringLiteral("The recipes/evidence directory for the pointer (default: the bundle's "
                                                                 "parent)."), QStringLiteral("DIR")});
    p.addPositionalArgument(QStringLiteral("SUMMARY_BUNDLE_DIR"), QStringLiteral("A summary-bundle directory (or its parent)."));
    if (int rc = parse(p, args, QStringLiteral("evidence sign"),
                       QStringLiteral("Sign an evidence bundle: attestation.intoto.jsonl over its statement, and an evidence pointer "
                                      "in AICR's layout. A bundle that fails its integrity checks is refused."));
        rc >= 0)
        return rc;
    if (!p.isSet(QStringLiteral("key")) || p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give --key KEY and one bundle directory"), QStringLiteral("evidence sign"));
    auto key = privateKeyFrom(p);
    if (!key)
        return fail(key.error());
    auto signedEvidence = evidence::signEvidence(p.positionalArguments().constFirst(), key->get(), p.value(QStringLiteral("evidence-root")));
    if (!signedEvidence)
        return fail(signedEvidence.error());
    out() << "attestation: " << signedEvidence->attestationPath << "\npointer:     " << signedEvidence->pointerPath
          << "\nsigner:      " << signedEvidence->signerIdentity << " (" << signedEvidence->signerIssuer << ")" << Qt::endl;
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("sign.evidence");
    d.parameters = QJsonObject{{QStringLiteral("keyFingerprint"), sigstore::keyFingerprint(key->get())},
                               {QStringLiteral("signer"), signedEvidence->signerIdentity}};
    d.inputs.push_back(receipts::Artifact::directory(p.positionalArguments().constFirst()));
    d.outputs.push_back(receipts::Artifact::file(signedEvidence->attestationPath));
    d.outputs.push_back(receipts::Artifact::file(signedEvidence->pointerPath));
    d.message = QStringLiteral("attestation and pointer written");
    leaveReceipt(p, d);
    return kOk;
}

int bundleSign(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("key"), QStringLiteral("Encrypted private key."), QStringLiteral("KEY")});
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("The deployment bundle (aicr bundle output)."));
    if (int rc = parse(p, args, QStringLiteral("bundle sign"),
                       QStringLiteral("Seal a deployment bundle: checksums.txt (sha256sum format, every file) and "
                                      "attestation/bundle-attestation.sigstore.json (SLSA provenance v1 over checksums.txt)."));
        rc >= 0)
        return rc;
    if (!p.isSet(QStringLiteral("key")) || p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give --key KEY and one bundle directory"), QStringLiteral("bundle sign"));
    auto key = privateKeyFrom(p);
    if (!key)
        return fail(key.error());
    auto report = deploy::signDeploymentBundle(p.positionalArguments().constFirst(), key->get());
    if (!report)
        return fail(report.error());
    out() << "signed " << report->files << " files; checksums.txt sha256:" << report->checksumsSha256 << "; key " << report->keyFingerprint
          << Qt::endl;
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("sign.bundle");
    d.parameters = QJsonObject{{QStringLiteral("keyFingerprint"), report->keyFingerprint}, {QStringLiteral("files"), report->files}};
    d.inputs.push_back(receipts::Artifact::digest(p.positionalArguments().constFirst() + QStringLiteral("/checksums.txt"), report->checksumsSha256));
    d.outputs.push_back(receipts::Artifact::file(p.positionalArguments().constFirst() + QStringLiteral("/attestation/bundle-attestation.sigstore.json")));
    d.message = QStringLiteral("checksums.txt and the bundle attestation written");
    leaveReceipt(p, d);
    return kOk;
}

int bundleVerify(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addSignerOptions(p);
    p.addOption({QStringLiteral("min-trust-level"), QStringLiteral("Fail below this level: max|verified|attested|unverified|unknown "
                                                                   "(default unverified)."), QStringLiteral("LEVEL"), QStringLiteral("unverified")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("The deployment bundle."));
    if (int rc = parse(p, args, QStringLiteral("bundle verify"),
                       QStringLiteral("Verify a deployment bundle offline, as aicr verify does: the closed-world inventory, the "
                                      "bundle attestation, the aicr binary attestation; prints the trust level."));
        rc >= 0)
        return rc;
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give one bundle directory"), QStringLiteral("bundle verify"));
    const auto minLevel = deploy::parseTrustLevel(p.value(QStringLiteral("min-trust-level")));
    if (!minLevel)
        return usage(QStringLiteral("unknown --min-trust-level '%1'").arg(p.value(QStringLiteral("min-trust-level"))), QStringLiteral("bundle verify"));
    deploy::VerifyOptions options;
    auto policy = signerPolicy(p, false);
    if (!policy)
        return policy.error().file.isEmpty() ? usage(policy.error().message, QStringLiteral("bundle verify")) : fail(policy.error());
    options.policy = *policy;
    auto rootOrError = optionalTrustedRoot(p);
    if (!rootOrError)
        return fail(rootOrError.error());
    std::optional<sigstore::TrustedRoot> root = std::move(*rootOrError);
    options.root = root ? &*root : nullptr;
    const deploy::DeploymentVerification v = deploy::verifyDeploymentBundle(p.positionalArguments().constFirst(), options);
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printJson(v.toJson());
    else
        out() << v.toText();
    out().flush();
    {
        receipts::ReceiptDraft d;
        d.kind = QStringLiteral("bundle.verify");
        d.parameters = QJsonObject{{QStringLiteral("policy"), options.policy.toJson()},
                                   {QStringLiteral("minTrustLevel"), p.value(QStringLiteral("min-trust-level"))}};
        d.inputs.push_back(receipts::Artifact::directory(p.positionalArguments().constFirst()));
        d.result = outcomeOf(v.level >= *minLevel);
        d.message = QStringLiteral("trust level %1%2").arg(deploy::trustLevelName(v.level), v.inventoryOk ? QString() : QStringLiteral("; inventory: ") + v.inventoryDetail);
        leaveReceipt(p, d);
    }
    if (v.level < *minLevel) {
        err() << "proofbench: trust level " << deploy::trustLevelName(v.level) << " is below " << deploy::trustLevelName(*minLevel) << Qt::endl;
        return kFailed;
    }
    return kOk;
}

int bundleVerb(const QStringList& args) {
    const QString sub = args.value(2);
    QStringList rest = args;
    rest.remove(1, 2);
    if (sub == QLatin1String("sign"))
        return bundleSign(rest);
    if (sub == QLatin1String("verify"))
        return bundleVerify(rest);
    if (sub == QLatin1String("push"))
        return ociVerbs(args);
    if (sub.isEmpty() || sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        out() << "Usage: proofbench bundle <sign|verify> ...\n\n"
                 "  sign --key KEY DIR                      write checksums.txt and the bundle attestation\n"
                 "  verify [--key PUB | identity flags] DIR check the inventory and attestations; print the trust level\n"
                 "  push DIR --to REF                       publish a deployment bundle to a registry\n";
        return sub.isEmpty() ? kUsage : kOk;
    }
    return usage(QStringLiteral("unknown bundle command '%1'").arg(sub), QStringLiteral("bundle"));
}
} // namespace

bool isCliInvocation(const QStringList& args) {
    if (args.size() < 2)
        return false;
    static const QStringList verbs = {QStringLiteral("catalog"), QStringLiteral("recipe"), QStringLiteral("graph"),
                                      QStringLiteral("diff"), QStringLiteral("evidence"), QStringLiteral("health"),
                                      QStringLiteral("verify"), QStringLiteral("keygen"), QStringLiteral("sign-blob"),
                                      QStringLiteral("attest"), QStringLiteral("bundle"), QStringLiteral("validate"),
                                      QStringLiteral("runs"), QStringLiteral("perf"), QStringLiteral("oci"),
                                      QStringLiteral("receipts"), QStringLiteral("records"),
                                      QStringLiteral("report"), QStringLiteral("help"),
                                      QStringLiteral("--help"), QStringLiteral("-h"), QStringLiteral("--version"),
                                      QStringLiteral("-v")};
    return verbs.contains(args.at(1)) || !args.at(1).startsWith(QLatin1Char('-'));
}

int run(const QStringList& args) {
    const QString verb = args.value(1);
    if (verb == QLatin1String("--version") || verb == QLatin1String("-v")) {
        out() << "proofbench " << QCoreApplication::applicationVersion() << Qt::endl;
        return kOk;
    }
    if (verb == QLatin1String("--help") || verb == QLatin1String("-h") || verb == QLatin1String("help")) {
        out() << kGeneralHelp;
        return kOk;
    }
    if (verb == QLatin1String("catalog"))
        return catalogVerb(args);
    if (verb == QLatin1String("evidence"))
        return evidenceVerb(args);
    if (verb == QLatin1String("health")) {
        QStringList rest = args;
        rest.removeAt(1);
        return healthVerb(rest);
    }
    if (verb == QLatin1String("keygen") || verb == QLatin1String("sign-blob") || verb == QLatin1String("attest")) {
        QStringList rest = args;
        rest.removeAt(1);
        return verb == QLatin1String("keygen") ? keygenVerb(rest) : verb == QLatin1String("attest") ? attestVerb(rest) : signBlobVerb(rest);
    }
    if (verb == QLatin1String("bundle"))
        return bundleVerb(args);
    if (verb == QLatin1String("verify")) {
        QStringList rest = args;
        rest.removeAt(1);
        return verifyVerb(rest);
    }
    if (verb == QLatin1String("graph") || verb == QLatin1String("diff")) {
        QStringList rest = args;
        rest.removeAt(1);
        return verb == QLatin1String("graph") ? graphVerb(rest) : diffVerb(rest);
    }
    if (verb == QLatin1String("oci"))
        return ociVerbs(args);
    if (verb == QLatin1String("receipts") || verb == QLatin1String("records"))
        return receiptsVerbs(args);
    if (verb == QLatin1String("validate") || verb == QLatin1String("runs") || verb == QLatin1String("perf"))
        return validationVerbs(args);
    if (verb == QLatin1String("recipe")) {
        QStringList rest = args;
        if (args.value(2) == QLatin1String("digest")) {
            rest.remove(1, 2);
            return recipeDigestVerb(rest);
        }
        rest.removeAt(1);
        return recipeVerb(rest);
    }
    err() << "proofbench: unknown verb '" << verb << "'\n\n" << kGeneralHelp;
    return kUsage;
}

} // namespace pb::cli
