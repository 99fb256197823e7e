#include "catalog/Digest.h"

#include "yaml/GoYaml.h"

#include "core/Hash.h"

namespace pb::catalog {

QString sha256Hex(const QByteArray& bytes) {
    return pb::sha256Hex(bytes);
}

QByteArray deterministicYaml(const RecipeResult& recipe) {
    return yaml::goEncode(toNode(recipe), yaml::GoEncodeOptions{2, true, yaml::StyleMode::GoValues});
}

QString recipeDigest(const RecipeResult& recipe) {
    return sha256Hex(deterministicYaml(recipe));
}

QByteArray evidenceCanonicalYaml(const RecipeResult& recipe) {
    // The canonical form is what the reference below computes: the deterministic YAML parsed back
    // and written with its styles kept at indent 4. The styles it keeps are the ones the Go-values
    // write chose, so writing the unstamped tree once at indent 4 gives the same bytes without the
    // parse; tst_importperf checks that on every recipe of the real catalogs and the samples.
    RecipeResult unstamped = recipe;
    unstamped.version.clear();
    return yaml::goEncode(toNode(unstamped), yaml::GoEncodeOptions{4, true, yaml::StyleMode::GoValues});
}

QByteArray evidenceCanonicalYamlReference(const RecipeResult& recipe) {
    RecipeResult unstamped = recipe;
    unstamped.version.clear();
    const QByteArray det = deterministicYaml(unstamped);
    // Deterministic YAML always parses back; were it not to, the bytes would still identify it.
    Result<QByteArray> canon =
        canonicalizeRecipeYaml(det, QStringLiteral("recipe.yaml"), PredicateVersion::V3);
    return canon ? *canon : det;
}

QString evidenceDigest(const RecipeResult& recipe) {
    return sha256Hex(evidenceCanonicalYaml(recipe));
}

Result<QString> evidenceDigestOfYaml(const QByteArray& recipeYaml) {
    return evidenceRecipeDigest(recipeYaml, QStringLiteral("recipe.yaml"), PredicateVersion::V3);
}

QString parityDigest(const RecipeResult& recipe) {
    RecipeResult stamped = recipe;
    stamped.version = QString::fromLatin1(kParityStamp);
    return sha256Hex(deterministicYaml(stamped));
}

QString prefixedDigest(const QString& hex) {
    if (hex.isEmpty() || hex.startsWith(QLatin1String("sha256:")))
        return hex;
    return QStringLiteral("sha256:") + hex;
}

Result<PredicateVersion> parsePredicateType(const QString& text) {
    const QString t = text.trimmed();
    const QString tail = t.section(QLatin1Char('/'), -1);
    const bool knownPrefix = !t.contains(QLatin1Char('/')) ||
                             t.startsWith(QLatin1String("https://aicr.run/recipe-evidence/")) ||
                             t.startsWith(QLatin1String("https://aicr.nvidia.com/recipe-evidence/"));
    if (knownPrefix) {
        if (tail == QLatin1String("v1"))
            return PredicateVersion::V1;
        if (tail == QLatin1String("v2"))
            return PredicateVersion::V2;
        if (tail == QLatin1String("v3"))
            return PredicateVersion::V3;
    }
    return makeError(
        QStringLiteral("unknown predicate type '%1' (expected https://aicr.run/recipe-evidence/v1, v2 "
                       "or v3)")
            .arg(t),
        {}, 0, QStringLiteral("--predicate-type"));
}

Result<QByteArray> canonicalizeRecipeYaml(const QByteArray& bytes, const QString& file,
                                          PredicateVersion version) {
    Result<yaml::Node> doc = yaml::parse(bytes, file);
    if (!doc)
        return doc.error();
    if (!doc->isMap())
        return makeError(QStringLiteral("a recipe must be a YAML mapping"), file, doc->line);
    if (version == PredicateVersion::V3) {
        if (yaml::Node* meta = doc->get("metadata"); meta && meta->isMap()) {
            meta->remove("version");
            if (meta->entries.empty())
                doc->remove("metadata");
        }
    }
    return yaml::goEncode(*doc, yaml::GoEncodeOptions{4, true, yaml::StyleMode::PreserveStyles});
}

Result<QString> evidenceRecipeDigest(const QByteArray& bytes, const QString& file, PredicateVersion version) {
    Result<QByteArray> canon = canonicalizeRecipeYaml(bytes, file, version);
    if (!canon)
        return canon.error();
    return sha256Hex(*canon);
}

} // namespace pb::catalog
