// Criteria -> RecipeResult, by AICR's rules (pkg/recipe/metadata_store.go): candidate matching,
// maximal leaves, specificity order, base chains, mixins, profiles, registry defaults, the merge
// table, the dependency sort into deploymentOrder and the coverage post-condition.
#pragma once

#include "catalog/Types.h"
#include "core/Result.h"

#include <QMap>

#include <atomic>
#include <functional>

namespace pb::catalog {

struct ResolveOptions {
    QMap<QString, QString> profiles;                // --profile name=value
    QString builderVersion = QStringLiteral("dev"); // metadata.version
};

struct SelectedProfile {
    QString name, value, advertiser;
    yaml::Node ownedPaths = yaml::Node::null(); // component -> [paths]
};

struct RecipeResult {
    QString kind = QStringLiteral("RecipeResult");
    QString apiVersion;
    QString version; // metadata.version
    QStringList appliedOverlays;
    std::optional<SelectedProfile> selectedProfile;
    Criteria criteria; // as queried: leaf criteria verbatim, CLI criteria with "any" for unset
    yaml::Node configuration = yaml::Node::null(); // typed desired state (Slurm accounting)
    std::vector<Constraint> constraints;
    std::vector<ComponentRef> componentRefs; // sorted by name
    QStringList deploymentOrder;
    std::optional<Validation> validation;

    const ComponentRef* component(const QString& name) const;
    // AICR's RecipeNameFor: accelerator-service-os-intent-platform[-profile-value], lower case.
    QString recipeName() const;
};

Result<RecipeResult> resolve(const Catalog& catalog, const Criteria& query,
                             const ResolveOptions& options = {});

// Criteria typed by a user (CLI flags, GUI): trimmed, lower-cased, aliases applied
// (self-managed -> any, al2 -> amazonlinux), unset -> "any", and each value checked against AICR's
// built-in values plus those the catalog's overlays use.
Result<Criteria> parseUserCriteria(const Catalog& catalog, const QMap<QString, QString>& values);

// Which generation of AICR's rules a catalog follows: the aicr.nvidia.com era (v0.11-v0.15) or
// the aicr.run era (v0.16 on). Resolution differs in a few documented places.
enum class Era { Legacy, Current };
Era eraOf(const Catalog& catalog);

// Criteria a leaf overlay stands for: its own criteria, as the parity test queries it.
Criteria leafCriteria(const Catalog& catalog, const QString& leaf);

struct LeafResolution {
    QString leaf;
    Criteria criteria;
    std::optional<RecipeResult> result;
    std::optional<Error> error;
};
std::vector<LeafResolution> resolveAllLeaves(const Catalog& catalog, const ResolveOptions& options = {},
                                             const std::function<void(int, int)>& progress = {},
                                             const std::atomic_bool* cancel = nullptr);

// The RecipeResult as a YAML tree, fields in AICR's struct order with omitempty applied.
yaml::Node toNode(const RecipeResult& recipe);
QJsonValue toJson(const RecipeResult& recipe);

} // namespace pb::catalog
