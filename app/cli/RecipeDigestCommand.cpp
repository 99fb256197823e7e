// proofbench recipe digest: the evidence recipe digest of a recipe.yaml
#include "cli/CatalogSupport.h"

namespace pb::cli {

static int recipeDigestVerb(const QCommandLineParser& p) {
    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return usage(QStringLiteral("unknown --format '%1' (expected text or json)").arg(format),
                     QStringLiteral("recipe digest"));
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one recipe file"), QStringLiteral("recipe digest"));
    Result<PredicateVersion> version = parsePredicateType(p.value(QStringLiteral("predicate-type")));
    if (!version)
        return fail(version.error());
    const QString path = p.positionalArguments().constFirst();
    Result<QByteArray> bytes = readFileLimited(path, limits::kDocumentFile, QStringLiteral("recipe"));
    if (!bytes)
        return fail(bytes.error());
    Result<QString> d = evidenceRecipeDigest(*bytes, path, *version);
    if (!d)
        return fail(d.error());
    const QString rule = *version == PredicateVersion::V3   ? QStringLiteral("v3")
                         : *version == PredicateVersion::V2 ? QStringLiteral("v2")
                                                            : QStringLiteral("v1");
    if (format == QLatin1String("json")) {
        printJson(QJsonObject{{QStringLiteral("file"), path},
                              {QStringLiteral("predicateRule"), rule},
                              {QStringLiteral("evidenceDigest"), prefixedDigest(*d)}});
        return kOk;
    }
    out() << "evidence digest " << prefixedDigest(*d);
    if (*version != PredicateVersion::V3)
        out() << " (recipe-evidence/" << rule << " rule: metadata.version kept)";
    out() << Qt::endl;
    return kOk;
}

Command recipeDigestCommand() {
    Command p(QStringLiteral("recipe digest"), QStringLiteral("the evidence recipe digest of a recipe.yaml"),
              QStringLiteral("Print the evidence digest of a recipe.yaml (\"evidence digest sha256:<hex>\"), "
                             "as AICR's CanonicalizeRecipeYAML computes it: the digest a recipe-evidence "
                             "statement binds to (v3 drops metadata.version; v1/v2 keep it)."));
    p.addOption({QStringLiteral("predicate-type"),
                 QStringLiteral("Evidence predicate type whose digest rule applies: "
                                "https://aicr.run/recipe-evidence/v1, v2 or v3 (default v3)."),
                 QStringLiteral("URI"), QStringLiteral("https://aicr.run/recipe-evidence/v3")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A recipe.yaml (RecipeResult)."));
    p.handler = recipeDigestVerb;
    return p;
}

} // namespace pb::cli
