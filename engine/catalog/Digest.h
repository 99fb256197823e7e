// Recipe identity as AICR computes it.
//  - Recipe digest: sha256 of serializer.MarshalYAMLDeterministic(RecipeResult) — yaml.v3 Marshal
//    of the Go struct, every mapping's keys sorted, indent 2. The catalog-parity golden lists it.
//  - Evidence recipe digest: sha256 of CanonicalizeRecipeYAML(recipe.yaml) — the recipe parsed
//    as a node tree, comments stripped, keys sorted, scalar styles kept, yaml.v3 default indent 4;
//    predicate v3 first removes metadata.version (and metadata when that empties it).
#pragma once

#include "catalog/Resolver.h"
#include "core/Result.h"

#include <QByteArray>
#include <QString>

namespace pb::catalog {

QByteArray deterministicYaml(const RecipeResult& recipe);
QString recipeDigest(const RecipeResult& recipe);

enum class PredicateVersion { V1, V2, V3 };
// Accepts the full type URI (https://aicr.run/recipe-evidence/v3, legacy aicr.nvidia.com) or "v1".."v3".
Result<PredicateVersion> parsePredicateType(const QString& text);

Result<QByteArray> canonicalizeRecipeYaml(const QByteArray& bytes, const QString& file, PredicateVersion version);
Result<QString> evidenceRecipeDigest(const QByteArray& bytes, const QString& file, PredicateVersion version);

QString sha256Hex(const QByteArray& bytes);

} // namespace pb::catalog
