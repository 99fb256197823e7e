// Generate a deployment bundle from a resolved recipe (CLI `bundle generate`, the catalog view's
// "Generate bundle…"): the layout of one of AICR's deployers (helm, argocd, argocd-helm, flux,
// helmfile) written to a folder, optionally sealed with
// the existing `bundle sign` operation. The receipt records the inputs (catalog content digest,
// recipe digest, options) and the tree digest of what was written.
#pragma once

#include "bundle/Generate.h"
#include "ops/Operation.h"
#include "ops/SigningKey.h"

#include <optional>

namespace pb::ops {

struct BundleGenerateRequest {
    const catalog::Catalog* catalog = nullptr; // the catalog the recipe was resolved from
    catalog::RecipeResult recipe;
    QString recipeLabel;  // how the user named it: "leaf h100-eks-training", "recipe.yaml", criteria
    QString catalogLabel; // --catalog DIR or --version LABEL
    bundle::GenerateOptions options;
    QString outDir;
    // Seal after writing; the key (move-only: it holds the passphrase) is handed on to the seal.
    mutable std::optional<SigningKey> key;
};

struct BundleGenerateOutcome {
    bundle::BundleTree tree;
    QString outDir;
    QString treeDigest;
    qint64 bytes = 0;
    qint64 receiptSeq = 0;
    bool sealed = false;
};

// Progress counts written files; cancel stops before the next file (files already written stay,
// and no receipt is written).
Result<BundleGenerateOutcome> bundleGenerate(const Context& ctx, const BundleGenerateRequest& request);

} // namespace pb::ops
