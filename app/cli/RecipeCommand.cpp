// proofbench recipe: resolve criteria (or every leaf) into a RecipeResult; --digest for its digest
#include "cli/CatalogSupport.h"

namespace pb::cli {

// --all-leaves --digest --format json: both digests of every leaf.
static int printLeafDigestsJson(const std::vector<LeafResolution>& leaves, bool sample) {
    int failed = 0;
    QJsonArray a;
    for (const LeafResolution& lr : leaves) {
        failed += lr.error ? 1 : 0;
        QJsonObject o{{QStringLiteral("leaf"), lr.leaf}};
        if (lr.result) {
            o.insert(QStringLiteral("recipe"), lr.result->recipeName());
            o.insert(QStringLiteral("evidenceDigest"), prefixedDigest(evidenceDigest(*lr.result)));
            o.insert(QStringLiteral("parityDigest"), prefixedDigest(parityDigest(*lr.result)));
        } else {
            o.insert(QStringLiteral("error"), lr.error->toString());
        }
        if (sample)
            o.insert(QStringLiteral("sample"), true);
        a.append(o);
    }
    printJson(a);
    return failed ? kFailed : kOk;
}

// --all-leaves --digest: the golden's format: sorted "leaf: <parity hex>" lines, failures as resolve-error
static int printLeafParityDigests(const std::vector<LeafResolution>& leaves) {
    err() << "proofbench: parity digests (metadata.version " << kParityStamp
          << "), one 'leaf: hex' line per leaf as in AICR's catalog-parity golden" << Qt::endl;
    int failed = 0;
    for (const LeafResolution& lr : leaves) {
        out() << lr.leaf << ": " << (lr.result ? parityDigest(*lr.result) : QStringLiteral("resolve-error"))
              << '\n';
        failed += lr.error ? 1 : 0;
    }
    out().flush();
    for (const LeafResolution& lr : leaves)
        if (lr.error)
            err() << "proofbench: " << lr.leaf << ": " << lr.error->toString() << Qt::endl;
    return failed ? kFailed : kOk;
}

// --all-leaves: every leaf overlay resolved and reported (text or json).
static int printLeaves(const std::vector<LeafResolution>& leaves, bool sample, const QString& format) {
    int failures = 0;
    QJsonArray a;
    for (const LeafResolution& lr : leaves) {
        failures += lr.error ? 1 : 0;
        QJsonObject o{
            {QStringLiteral("leaf"), lr.leaf},
            {QStringLiteral("appliedOverlays"),
             lr.result ? QJsonValue(QJsonArray::fromStringList(lr.result->appliedOverlays))
                       : QJsonValue(QJsonArray())},
            {QStringLiteral("components"), lr.result ? static_cast<int>(lr.result->componentRefs.size()) : 0},
            {QStringLiteral("error"), lr.error ? QJsonValue(lr.error->toString()) : QJsonValue()}};
        if (sample)
            o.insert(QStringLiteral("sample"), true);
        a.append(o);
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

static int allLeavesVerb(const QCommandLineParser& p, const ops::CatalogRef& ref, const ResolveOptions& opt) {
    // Only a catalog version is read from the database: `--catalog DIR --all-leaves` opens none.
    std::unique_ptr<Database> db;
    if (ref.kind == ops::CatalogRef::Kind::Version) {
        Result<std::unique_ptr<Database>> opened = openDb(p);
        if (!opened)
            return fail(opened.error());
        db = std::move(*opened);
    }
    Result<std::shared_ptr<const Catalog>> cat = ops::loadCatalogRef(db.get(), ref);
    if (!cat)
        return fail(cat.error());
    const bool sample = ops::isSampleCatalog(db.get(), ref, **cat);
    const std::vector<LeafResolution> leaves = resolveAllLeaves(**cat, opt);
    const QString format = p.value(QStringLiteral("format"));
    if (p.isSet(QStringLiteral("digest")))
        return format == QLatin1String("json") ? printLeafDigestsJson(leaves, sample)
                                               : printLeafParityDigests(leaves);
    return printLeaves(leaves, sample, format);
}

// One recipe exported by ops::exportRecipe: printed once its receipt is kept.
static int oneRecipeVerb(const QCommandLineParser& p, const ops::CatalogRef& ref, const ResolveOptions& opt) {
    const QString format = p.value(QStringLiteral("format"));
    const bool digest = p.isSet(QStringLiteral("digest")), leaf = p.isSet(QStringLiteral("leaf"));
    if (leaf && anyCriteria(p))
        return usage(QStringLiteral("--leaf takes the place of criteria flags; give one or the other"),
                     QStringLiteral("recipe"));
    if (!digest && format != QLatin1String("json") && format != QLatin1String("yaml"))
        return usage(QStringLiteral("unknown --format '%1'").arg(format), QStringLiteral("recipe"));
    ops::ExportRecipeRequest request;
    request.resolve.catalog = ref;
    request.resolve.query.leaf = p.value(QStringLiteral("leaf"));
    if (!leaf)
        request.resolve.query.criteria = criteriaFlags(p);
    request.resolve.query.profiles = opt.profiles;
    request.resolve.query.stampVersion = opt.builderVersion;
    request.format = !digest                           ? format
                     : format == QLatin1String("json") ? QStringLiteral("digest-json")
                                                       : QStringLiteral("digest");
    request.deterministic = p.isSet(QStringLiteral("deterministic"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<ops::ExportedRecipe> exported = ops::exportRecipe(ops::Context(**db), request);
    if (!exported)
        return fail(exported.error());
    out() << QString::fromUtf8(exported->bytes);
    out().flush();
    return kOk;
}

static int recipeVerb(const QCommandLineParser& p) {
    if (!p.positionalArguments().isEmpty())
        return usage(QStringLiteral("unexpected argument '%1'").arg(p.positionalArguments().constFirst()),
                     QStringLiteral("recipe"));
    const QString stamp = p.value(QStringLiteral("stamp-version"));
    if (p.isSet(QStringLiteral("digest")) && p.isSet(QStringLiteral("stamp-version")) &&
        stamp != QLatin1String(kParityStamp))
        return usage(QStringLiteral(
                         "--digest prints the evidence digest (no stamp) and the parity digest (stamped %1); "
                         "--stamp-version applies to YAML/JSON output only")
                         .arg(QLatin1String(kParityStamp)),
                     QStringLiteral("recipe"));
    Result<ResolveOptions> opt = resolveOptionsFrom(p);
    if (!opt)
        return usage(opt.error().message, QStringLiteral("recipe"));
    opt->builderVersion = stamp;
    Result<ops::CatalogRef> ref = catalogRefFrom(p);
    if (!ref)
        return usage(ref.error().message, QStringLiteral("recipe"));
    return p.isSet(QStringLiteral("all-leaves")) ? allLeavesVerb(p, *ref, *opt)
                                                 : oneRecipeVerb(p, *ref, *opt);
}

Command recipeCommand() {
    Command p(QStringLiteral("recipe"),
              QStringLiteral("resolve criteria (or every leaf) into a RecipeResult; --digest for its digest"),
              QStringLiteral("Resolve criteria into a RecipeResult by AICR's rules, or every leaf overlay "
                             "with --all-leaves."));
    addDb(p);
    p.addOption({QStringLiteral("catalog"), QStringLiteral("Resolve against a catalog directory."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("version"), QStringLiteral("Resolve against an imported catalog version."),
                 QStringLiteral("LABEL")});
    for (const QString& d : Criteria::dimensions())
        p.addOption(
            {d, QStringLiteral("Criteria: %1 (omit or 'any' for no preference).").arg(d), d.toUpper()});
    p.addOption({QStringLiteral("profile"), QStringLiteral("Select a profile value (repeatable)."),
                 QStringLiteral("NAME=VALUE")});
    p.addOption(
        {QStringLiteral("all-leaves"), QStringLiteral("Resolve every leaf overlay and report each.")});
    p.addOption({QStringLiteral("leaf"),
                 QStringLiteral("Resolve the criteria of this leaf overlay (instead of criteria flags)."),
                 QStringLiteral("NAME")});
    p.addOption(
        {QStringLiteral("stamp-version"),
         QStringLiteral("metadata.version to stamp into YAML/JSON output (default dev). Digests do not "
                        "take it: the evidence digest has no stamp, the parity digest is always stamped "
                        "catalog-parity-golden."),
         QStringLiteral("V"), QStringLiteral("dev")});
    p.addOption(
        {QStringLiteral("deterministic"),
         QStringLiteral("With --format yaml: AICR's deterministic bytes (keys sorted), the input of the "
                        "recipe digest.")});
    p.addOption({QStringLiteral("digest"),
                 QStringLiteral(
                     "Print the recipe's two digests, labelled: the evidence digest (what evidence binds "
                     "to: AICR's v3 canonical recipe, no metadata.version) and the parity digest (sha256 of "
                     "the deterministic YAML stamped catalog-parity-golden, as AICR's catalog-parity "
                     "golden). --format json: {evidenceDigest, parityDigest}. With --all-leaves: one "
                     "'leaf: <parity hex>' line per leaf, the golden's own format (json: both digests).")});
    addFormat(p, QStringLiteral("yaml|json (digests and all leaves: text|json)"), QStringLiteral("yaml"));
    p.handler = recipeVerb;
    return p;
}

} // namespace pb::cli
