#include "Cli.h"

#include "catalog/Diff.h"
#include "catalog/Digest.h"
#include "evidence/Bundle.h"
#include "graph/Layout.h"
#include "catalog/Loader.h"
#include "catalog/Resolver.h"
#include "store/CatalogStore.h"
#include "store/Database.h"
#include "store/EvidenceStore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTextStream>

#include <cstdio>

namespace pb::cli {

namespace {

using namespace pb::catalog;
using namespace pb::store;

QTextStream& out() {
    static QTextStream s(stdout);
    return s;
}
QTextStream& err() {
    static QTextStream s(stderr);
    return s;
}

constexpr int kOk = 0;
constexpr int kFailed = 1;
constexpr int kUsage = 2;

int fail(const Error& e) {
    err() << "proofbench: " << e.toString() << Qt::endl;
    return kFailed;
}

int usage(const QString& message, const QString& verb) {
    err() << "proofbench: " << message << Qt::endl
          << "Run 'proofbench " << verb << " --help' for usage." << Qt::endl;
    return kUsage;
}

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
    "\n"
    "Every verb takes --db PATH (default: the per-user application data folder) and --help.\n"
    "Exit status: 0 success, 1 failure (reason on stderr), 2 usage error.\n";

void addDb(QCommandLineParser& p) {
    p.addOption({QStringLiteral("db"), QStringLiteral("Database file (default: %1).").arg(Database::defaultPath()),
                 QStringLiteral("PATH")});
}

void addFormat(QCommandLineParser& p, const QString& values, const QString& def) {
    p.addOption({QStringLiteral("format"), QStringLiteral("Output format: %1 (default %2).").arg(values, def),
                 QStringLiteral("FORMAT"), def});
}

QString dbPath(const QCommandLineParser& p) {
    return p.isSet(QStringLiteral("db")) ? p.value(QStringLiteral("db")) : Database::defaultPath();
}

// Opens the database as the GUI does: a new, empty database starts with the embedded default catalog.
Result<std::unique_ptr<Database>> openDb(const QCommandLineParser& p) {
    Result<std::unique_ptr<Database>> db = Database::open(dbPath(p));
    if (!db)
        return db;
    if (Result<QStringList> seeded = importEmbeddedDefaults(**db); !seeded)
        return seeded.error();
    return db;
}

// Parses args; returns -1 to continue, or an exit code (help shown / usage error).
int parse(QCommandLineParser& p, const QStringList& args, const QString& verb, const QString& summary) {
    p.setApplicationDescription(summary);
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    p.addOption(help);
    if (!p.parse(args))
        return usage(p.errorText(), verb);
    if (p.isSet(help)) {
        QString text = p.helpText();
        text.replace(QRegularExpression(QStringLiteral("^Usage: \\S+")), QStringLiteral("Usage: proofbench ") + verb);
        out() << text;
        out().flush();
        return kOk;
    }
    return -1;
}

void printJson(const QJsonValue& v) {
    const QJsonDocument doc = v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject());
    out() << doc.toJson(QJsonDocument::Indented);
}

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

// ---- recipe -------------------------------------------------------------------------------------

Result<Catalog> catalogFrom(const QCommandLineParser& p) {
    const bool dir = p.isSet(QStringLiteral("catalog"));
    const bool label = p.isSet(QStringLiteral("version"));
    if (dir == label)
        return makeError(QStringLiteral("give exactly one of --catalog DIR or --version LABEL"));
    if (dir)
        return loadCatalog(p.value(QStringLiteral("catalog")));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return db.error();
    return CatalogStore(**db).loadCatalog(p.value(QStringLiteral("version")));
}

// A catalog named on the command line: a directory when one exists at that path, else a label.
Result<Catalog> catalogFromSpec(const QString& spec, const QCommandLineParser& p) {
    if (QFileInfo(spec).isDir())
        return loadCatalog(spec);
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return db.error();
    Result<Catalog> cat = CatalogStore(**db).loadCatalog(spec);
    if (!cat)
        return makeError(QStringLiteral("'%1' is neither a catalog directory nor a catalog version in the database")
                             .arg(spec));
    return cat;
}

void addCriteriaOptions(QCommandLineParser& p, const QString& prefix = {}) {
    for (const QString& d : Criteria::dimensions())
        p.addOption({prefix + d,
                     prefix.isEmpty() ? QStringLiteral("Criteria: %1 (omit or 'any' for no preference).").arg(d)
                                      : QStringLiteral("Criteria of the 'to' side: %1 (default: as --%1).").arg(d),
                     d.toUpper()});
    if (prefix.isEmpty())
        p.addOption({QStringLiteral("profile"), QStringLiteral("Select a profile value (repeatable)."),
                     QStringLiteral("NAME=VALUE")});
}

bool anyCriteria(const QCommandLineParser& p, const QString& prefix = {}) {
    for (const QString& d : Criteria::dimensions())
        if (p.isSet(prefix + d))
            return true;
    return false;
}

// Criteria flags (with an optional prefix whose flags override the plain ones) checked against the catalog.
Result<Criteria> criteriaFrom(const QCommandLineParser& p, const Catalog& cat, const QString& prefix = {}) {
    QMap<QString, QString> flags;
    for (const QString& d : Criteria::dimensions())
        flags.insert(d, !prefix.isEmpty() && p.isSet(prefix + d) ? p.value(prefix + d) : p.value(d));
    return parseUserCriteria(cat, flags);
}

Result<ResolveOptions> resolveOptionsFrom(const QCommandLineParser& p) {
    ResolveOptions opt;
    for (const QString& pv : p.values(QStringLiteral("profile"))) {
        const int eq = pv.indexOf(QLatin1Char('='));
        if (eq <= 0 || eq == pv.size() - 1)
            return makeError(QStringLiteral("--profile expects NAME=VALUE, got '%1'").arg(pv));
        opt.profiles.insert(pv.left(eq), pv.mid(eq + 1));
    }
    return opt;
}

bool writeOutput(const QCommandLineParser& p, const QByteArray& bytes) {
    const QString path = p.value(QStringLiteral("output"));
    if (path.isEmpty() || path == QLatin1String("-")) {
        out().flush();
        std::fwrite(bytes.constData(), 1, static_cast<size_t>(bytes.size()), stdout);
        std::fflush(stdout);
        return true;
    }
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) {
        err() << "proofbench: " << path << ": cannot write: " << f.errorString() << Qt::endl;
        return false;
    }
    return true;
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
    p.addOption({QStringLiteral("pointer"), QStringLiteral("Pointer file to check the bundle against."),
                 QStringLiteral("FILE")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("BUNDLE"),
                            QStringLiteral("A summary-bundle directory (or its parent), or an OCI image layout."));
    if (int rc = parse(p, args, QStringLiteral("evidence check"),
                       QStringLiteral("Check an evidence bundle offline, as aicr evidence verify steps 3-4 do. Exit 0 "
                                      "valid, 1 valid with failed phases, 2 invalid, 3 incomplete. Signatures are not "
                                      "checked yet."));
        rc >= 0)
        return rc;
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one bundle"), QStringLiteral("evidence check"));
    Result<evidence::SummaryBundle> bundle = evidence::loadBundle(p.positionalArguments().constFirst());
    if (!bundle) {
        fail(bundle.error());
        return 2; // an unreadable or hostile bundle is invalid
    }
    std::optional<evidence::Pointer> pointer;
    if (p.isSet(QStringLiteral("pointer"))) {
        QFile f(p.value(QStringLiteral("pointer")));
        if (!f.open(QIODevice::ReadOnly))
            return fail(makeError(QStringLiteral("cannot read: %1").arg(f.errorString()), f.fileName()));
        pointer = evidence::parsePointer(f.readAll(), QFileInfo(f.fileName()).fileName());
        if (!pointer->problems.isEmpty()) {
            fail(makeError(pointer->problems.join(QStringLiteral("; ")), f.fileName()));
            return 2;
        }
    }
    const evidence::BundleCheck check = evidence::checkBundle(*bundle, pointer ? &*pointer : nullptr);
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printJson(check.toJson());
    else
        out() << check.toText();
    out().flush();
    return check.exitCode;
}

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
    if (sub.isEmpty() || sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        out() << "Usage: proofbench evidence <import|check> ...\n\n"
                 "  import [--allowlist FILE] DIR        read a recipes/evidence tree into the database\n"
                 "  check [--pointer FILE] BUNDLE        check a summary bundle or OCI layout offline\n";
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
    if (digest)
        out() << recipeDigest(*r) << Qt::endl;
    else if (format == QLatin1String("json"))
        printJson(toJson(*r));
    else if (format == QLatin1String("yaml") && p.isSet(QStringLiteral("deterministic")))
        out() << deterministicYaml(*r);
    else if (format == QLatin1String("yaml"))
        out() << yaml::serialize(toNode(*r));
    else
        return usage(QStringLiteral("unknown --format '%1'").arg(format), QStringLiteral("recipe"));
    return kOk;
}

} // namespace

bool isCliInvocation(const QStringList& args) {
    if (args.size() < 2)
        return false;
    static const QStringList verbs = {QStringLiteral("catalog"), QStringLiteral("recipe"), QStringLiteral("graph"),
                                      QStringLiteral("diff"), QStringLiteral("evidence"), QStringLiteral("health"),
                                      QStringLiteral("help"),
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
    if (verb == QLatin1String("graph") || verb == QLatin1String("diff")) {
        QStringList rest = args;
        rest.removeAt(1);
        return verb == QLatin1String("graph") ? graphVerb(rest) : diffVerb(rest);
    }
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
