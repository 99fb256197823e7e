// proofbench recipe: resolve criteria (or every leaf) into a RecipeResult; --digest for its digest
#include "cli/CatalogSupport.h"

namespace pb::cli {

static int recipeVerb(const QCommandLineParser& p) {
    if (!p.positionalArguments().isEmpty())
        return usage(QStringLiteral("unexpected argument '%1'").arg(p.positionalArguments().constFirst()),
                     QStringLiteral("recipe"));
    const QString format = p.value(QStringLiteral("format"));
    ResolveOptions opt;
    opt.builderVersion = p.value(QStringLiteral("stamp-version"));
    const bool digest = p.isSet(QStringLiteral("digest"));
    if (digest && p.isSet(QStringLiteral("stamp-version")) &&
        opt.builderVersion != QLatin1String(kParityStamp))
        return usage(QStringLiteral(
                         "--digest prints the evidence digest (no stamp) and the parity digest (stamped %1); "
                         "--stamp-version applies to YAML/JSON output only")
                         .arg(QLatin1String(kParityStamp)),
                     QStringLiteral("recipe"));
    for (const QString& pv : p.values(QStringLiteral("profile"))) {
        const int eq = pv.indexOf(QLatin1Char('='));
        if (eq <= 0 || eq == pv.size() - 1)
            return usage(QStringLiteral("--profile expects NAME=VALUE, got '%1'").arg(pv),
                         QStringLiteral("recipe"));
        opt.profiles.insert(pv.left(eq), pv.mid(eq + 1));
    }
    const bool hasDir = p.isSet(QStringLiteral("catalog")), hasLabel = p.isSet(QStringLiteral("version"));
    if (hasDir == hasLabel)
        return usage(QStringLiteral("give exactly one of --catalog DIR or --version LABEL"),
                     QStringLiteral("recipe"));
    Result<Catalog> cat = catalogFrom(p);
    if (!cat)
        return fail(cat.error());

    const QString catalogSpec = p.isSet(QStringLiteral("catalog")) ? p.value(QStringLiteral("catalog"))
                                                                   : p.value(QStringLiteral("version"));
    const bool sample = isSampleCatalog(*cat, catalogSpec, p);

    if (p.isSet(QStringLiteral("all-leaves"))) {
        const std::vector<LeafResolution> leaves = resolveAllLeaves(*cat, opt);
        if (digest && format == QLatin1String("json")) {
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
        if (digest) { // the golden's format: sorted "leaf: <parity hex>" lines, failures as resolve-error
            err() << "proofbench: parity digests (metadata.version " << kParityStamp
                  << "), one 'leaf: hex' line per leaf as in AICR's catalog-parity golden" << Qt::endl;
            int failed = 0;
            for (const LeafResolution& lr : leaves) {
                out() << lr.leaf << ": "
                      << (lr.result ? parityDigest(*lr.result) : QStringLiteral("resolve-error")) << '\n';
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
            QJsonObject o{
                {QStringLiteral("leaf"), lr.leaf},
                {QStringLiteral("appliedOverlays"),
                 lr.result ? QJsonValue(QJsonArray::fromStringList(lr.result->appliedOverlays))
                           : QJsonValue(QJsonArray())},
                {QStringLiteral("components"),
                 lr.result ? static_cast<int>(lr.result->componentRefs.size()) : 0},
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

    QMap<QString, QString> flags;
    bool criteriaGiven = false;
    for (const QString& d : Criteria::dimensions()) {
        flags.insert(d, p.value(d));
        criteriaGiven = criteriaGiven || p.isSet(d);
    }
    Result<Criteria> query = Criteria{};
    if (p.isSet(QStringLiteral("leaf"))) {
        const QString leaf = p.value(QStringLiteral("leaf"));
        if (criteriaGiven || p.isSet(QStringLiteral("all-leaves")))
            return usage(QStringLiteral("--leaf takes the place of criteria flags; give one or the other"),
                         QStringLiteral("recipe"));
        if (!cat->leafNames().contains(leaf))
            return fail(makeError(QStringLiteral("'%1' is not a leaf overlay of this catalog (%2 leaves; "
                                                 "`recipe --all-leaves` lists them)")
                                      .arg(leaf)
                                      .arg(cat->leafNames().size()),
                                  catalogSpec, 0, QStringLiteral("--leaf")));
        query = leafCriteria(*cat, leaf);
    } else {
        query = parseUserCriteria(*cat, flags);
    }
    if (!query)
        return fail(query.error());
    Result<RecipeResult> r = resolve(*cat, *query, opt);
    if (!r)
        return fail(r.error());
    QByteArray exported;
    if (digest && format == QLatin1String("json")) {
        QJsonObject o{
            {QStringLiteral("recipe"), r->recipeName()},
            {QStringLiteral("leafOverlay"), r->appliedOverlays.value(r->appliedOverlays.size() - 1)},
            {QStringLiteral("catalog"), catalogSpec},
            {QStringLiteral("evidenceDigest"), prefixedDigest(evidenceDigest(*r))},
            {QStringLiteral("parityDigest"), prefixedDigest(parityDigest(*r))},
            {QStringLiteral("parityStamp"), QString::fromLatin1(kParityStamp)}};
        if (sample)
            o.insert(QStringLiteral("sample"), true);
        exported = QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else if (digest) {
        exported = QStringLiteral("evidence digest %1\nparity digest %2\n")
                       .arg(prefixedDigest(evidenceDigest(*r)), prefixedDigest(parityDigest(*r)))
                       .toUtf8();
    } else if (format == QLatin1String("json")) {
        QJsonObject o = toJson(*r).toObject();
        if (sample)
            o.insert(QStringLiteral("sample"), true);
        exported = QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else if (format == QLatin1String("yaml") && p.isSet(QStringLiteral("deterministic")))
        exported = deterministicYaml(*r);
    else if (format == QLatin1String("yaml"))
        exported = yaml::serialize(toNode(*r));
    else
        return usage(QStringLiteral("unknown --format '%1'").arg(format), QStringLiteral("recipe"));
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::RecipeExport;
    QJsonObject criteria;
    for (const QString& dim : Criteria::dimensions())
        if (!p.value(dim).isEmpty())
            criteria.insert(dim, p.value(dim));
    if (p.isSet(QStringLiteral("leaf")))
        criteria.insert(QStringLiteral("leaf"), p.value(QStringLiteral("leaf")));
    d.parameters = QJsonObject{
        {QStringLiteral("criteria"), criteria},
        {QStringLiteral("format"), digest ? QStringLiteral("digest") : format},
        {QStringLiteral("deterministic"), p.isSet(QStringLiteral("deterministic"))},
        {QStringLiteral("profiles"), QJsonArray::fromStringList(p.values(QStringLiteral("profile")))},
        {QStringLiteral("version"), p.value(QStringLiteral("version"))}};
    d.inputs.push_back(receipts::Artifact::digest(cat->root, cat->contentDigest()));
    d.outputs.push_back(receipts::Artifact::bytes(
        QStringLiteral("recipe %1 (stdout)").arg(r->appliedOverlays.value(r->appliedOverlays.size() - 1)),
        exported));
    d.message = QStringLiteral("%1 components, overlays %2")
                    .arg(r->componentRefs.size())
                    .arg(r->appliedOverlays.join(QStringLiteral(", ")));
    // On record first: the recipe is printed only once its receipt is kept.
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    if (auto receipt = ops::record(ops::Context(**db), d); !receipt)
        return fail(receipt.error());
    out() << QString::fromUtf8(exported);
    out().flush();
    return kOk;
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
