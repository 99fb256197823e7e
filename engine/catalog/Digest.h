// Recipe identity as AICR computes it.
//  - Recipe digest: sha256 of serializer.MarshalYAMLDeterministic(RecipeResult) — yaml.v3 Marshal
//    of the Go struct, every mapping's keys sorted, indent 2. It depends on metadata.version, the
//    builder's stamp.
//  - Evidence recipe digest: sha256 of CanonicalizeRecipeYAML(recipe.yaml) — the recipe parsed
//    as a node tree, comments stripped, keys sorted, scalar styles kept, yaml.v3 default indent 4;
//    predicate v3 first removes metadata.version (and metadata when that empties it).
//
// Proofbench shows two recipe digests, one per purpose, and always under its name:
//  - the EVIDENCE DIGEST: what evidence binds to. Every newly produced AICR statement is
//    recipe-evidence/v3, whose predicate.recipe.digest (and subject) is the v3 evidence recipe
//    digest of the recipe: it drops metadata.version, so it does not depend on which tool or build
//    resolved the recipe. The catalog stores it per recipe (recipes.digest, the catalog view, the
//    "vs previous version" column), Compare and `diff` print it, and `aicr evidence digest -r`
//    prints the same value. (v1/v2 evidence binds to a digest that includes the producer's
//    metadata.version; the health view recomputes that one per bundle.)
//  - the PARITY DIGEST: AICR's catalog-parity golden. The recipe digest above of the recipe
//    stamped with metadata.version "catalog-parity-golden" (kParityStamp), as the golden is.
// Printed as "evidence digest sha256:<hex>" and "parity digest sha256:<hex>"; JSON keys
// evidenceDigest / parityDigest, values "sha256:<hex>".
#pragma once

#include "catalog/Resolver.h"
#include "core/Result.h"

#include <QByteArray>
#include <QString>

namespace pb::catalog {

QByteArray deterministicYaml(const RecipeResult& recipe);
// sha256 of deterministicYaml(recipe), metadata.version as the recipe carries it.
QString recipeDigest(const RecipeResult& recipe);

// metadata.version AICR's catalog-parity golden is stamped with.
inline constexpr char kParityStamp[] = "catalog-parity-golden";

// The recipe's bytes as a v3 evidence statement canonicalizes them (no metadata.version): their
// sha256 is the evidence digest. What the catalog stores per recipe.
QByteArray evidenceCanonicalYaml(const RecipeResult& recipe);
// The same bytes by definition: the deterministic YAML canonicalized as a v3 evidence statement
// is (parsed back, styles kept, indent 4). Slower; tests hold evidenceCanonicalYaml to it.
QByteArray evidenceCanonicalYamlReference(const RecipeResult& recipe);
// Evidence digest (bare hex) of a resolved recipe; the builder stamp does not matter.
QString evidenceDigest(const RecipeResult& recipe);
// Evidence digest of stored recipe bytes: the current form (evidenceCanonicalYaml) or the form
// databases held before (deterministic YAML without metadata.version) give the same value.
Result<QString> evidenceDigestOfYaml(const QByteArray& recipeYaml);
// Parity digest (bare hex): recipeDigest of the recipe stamped with kParityStamp.
QString parityDigest(const RecipeResult& recipe);
// "sha256:<hex>" (empty for an empty digest).
QString prefixedDigest(const QString& hex);

enum class PredicateVersion { V1, V2, V3 };
// Accepts the full type URI (https://aicr.run/recipe-evidence/v3, legacy aicr.nvidia.com) or "v1".."v3".
Result<PredicateVersion> parsePredicateType(const QString& text);

Result<QByteArray> canonicalizeRecipeYaml(const QByteArray& bytes, const QString& file,
                                          PredicateVersion version);
Result<QString> evidenceRecipeDigest(const QByteArray& bytes, const QString& file, PredicateVersion version);

QString sha256Hex(const QByteArray& bytes);

} // namespace pb::catalog
