// What changed between two resolved recipes (same criteria in two catalog versions, or two
// criteria in one) and between two whole catalogs. Every item is reported, unchanged ones too,
// so a reviewer sees the whole picture.
#pragma once

#include "catalog/Resolver.h"
#include "catalog/Types.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace pb::catalog {

enum class Change { Unchanged, Added, Removed, Changed };
QString changeName(Change c); // "unchanged", "added", "removed", "changed"

// Version-only moves. A change of one value from `from` to `to` is a VERSION-ONLY MOVE when
//  - both are the same image or chart reference apart from the tag: split each at the last ':'
//    after the last '/' (an "@sha256:" pin is never a tag), the parts before it are equal and
//    non-empty, or both values are bare tags / version strings (no '/', ':' or '@'); and
//  - the old tag follows the "from" catalog version and the new tag the "to" one: oldTag ≈
//    fromVersion and newTag ≈ toVersion, where a ≈ b means equal ignoring case and one leading
//    'v' on either (so "v0.14.0" ≈ "0.14.0", "sample-1" ≈ "sample-1"); and the tags differ.
// E.g. ghcr.io/nvidia/aicr-validators/deployment:sample-1 → …:sample-2 between catalog versions
// sample-1 and sample-2. `fromVersion`/`toVersion` are the catalog version labels (for a folder,
// the folder's name, or its parent's when it is called "recipes").
// A component, catalog item or recipe is version-only when it changed and every change it has is
// a version-only move; `--ignore version-only` and Compare's "Hide version-only changes" hide those.
bool isVersionOnlyMove(const QString& from, const QString& to, const QString& fromVersion,
                       const QString& toVersion);
// "v0.14.0" from ".../catalogs/v0.14.0/recipes" or "v0.14.0"; a label stays as it is.
QString versionLabelOf(const QString& labelOrDirectory);

struct FieldChange {
    QString field; // "version", "chart", "overrides.driver.enabled", "dependencyRefs", "apiVersion", ...
    QString from;  // full text before ("" when absent); never shortened
    QString to;    // full text after
    bool versionOnly = false; // a version-only move (see isVersionOnlyMove)
};

struct ComponentDiff {
    QString name;
    Change change = Change::Unchanged;
    std::vector<FieldChange> fields; // for Changed
    int fromOrder = -1;              // index in deploymentOrder, -1 when not deployed / absent
    int toOrder = -1;
    QString fromVersion, toVersion; // chart version (or tag) on each side, for tables
    bool orderMoved() const { return fromOrder >= 0 && toOrder >= 0 && fromOrder != toOrder; }
    // Changed, and nothing but version-only moves (no other field, no order move).
    bool versionOnly() const;
};

struct ConstraintDiff {
    QString name;
    QString phase; // empty for top-level constraints; else the validation phase
    Change change = Change::Unchanged;
    QString from, to;
};

struct CheckDiff {
    QString phase, name;
    Change change = Change::Unchanged; // Added / Removed / Unchanged
};

struct NamedChange {
    QString name;
    Change change = Change::Unchanged;
    QString from, to;                // e.g. digests or default versions, when it matters
    std::vector<FieldChange> fields; // for Changed: what changed, with full values
    bool versionOnly = false;        // Changed, and only by version-only moves
};

// How the diffs are rendered.
struct DiffOptions {
    bool ignoreVersionOnly = false; // leave out version-only items (and say how many)
};

struct RecipeDiff {
    QString fromLabel, toLabel;                // catalog versions (or directories)
    QString fromVersion, toVersion;            // the version labels tags are compared with (versionLabelOf)
    bool fromSample = false, toSample = false; // a side is Proofbench's sample catalog
    Criteria fromCriteria, toCriteria;
    QString fromEvidenceDigest, toEvidenceDigest; // bare hex (catalog/Digest.h)
    QString fromParityDigest, toParityDigest;     // bare hex
    std::vector<FieldChange> format;              // the RecipeResult's apiVersion / kind, when they differ
    std::vector<ComponentDiff> components;        // sorted by name
    std::vector<ConstraintDiff> constraints;
    std::vector<CheckDiff> checks;
    std::vector<FieldChange> phaseSettings; // timeouts etc. ("performance.timeout")
    std::vector<NamedChange> appliedOverlays;
    int count(Change c) const;    // components with this change
    int versionOnlyCount() const; // components whose change is version-only
    bool identical() const { return fromEvidenceDigest == toEvidenceDigest; }
    // Differs, and every difference is a version-only move of a component.
    bool onlyVersionMoves() const;
};

RecipeDiff diffRecipes(const RecipeResult& from, const RecipeResult& to, const QString& fromLabel = {},
                       const QString& toLabel = {});

struct CatalogDiff {
    QString fromLabel, toLabel;
    QString fromVersion, toVersion; // as in RecipeDiff
    bool fromSample = false, toSample = false;
    std::vector<NamedChange> formats;  // per document kind: the apiVersions it uses (from/to)
    std::vector<NamedChange> overlays; // changed = apiVersion, kind or spec differ
    std::vector<NamedChange> mixins;
    std::vector<NamedChange> registry;   // from/to = default version (or tag)
    std::vector<NamedChange> validators; // from/to = image
    std::vector<NamedChange> leaves;     // from/to = evidence digest, "sha256:<hex>"; fields = format changes
    // Components whose resolved version changed in the most leaves, most first.
    std::vector<std::pair<QString, int>> componentMoves;
    int leafCount(Change c) const;
};

// `fromLabel`/`toLabel` name the sides; the version-only rule compares tags with
// versionLabelOf(label).
CatalogDiff diffCatalogs(const Catalog& from, const Catalog& to, const QString& fromLabel = {},
                         const QString& toLabel = {});

// Renderings for the CLI and reports. Every value is printed in full, and a change is never
// printed as "X → X": a headline shows both sides only when they differ.
QString toText(const RecipeDiff& d, const DiffOptions& options = {});
QString toMarkdown(const RecipeDiff& d, const DiffOptions& options = {});
QJsonObject toJson(const RecipeDiff& d, const DiffOptions& options = {});
QString toText(const CatalogDiff& d, const DiffOptions& options = {});
QString toMarkdown(const CatalogDiff& d, const DiffOptions& options = {});
QJsonObject toJson(const CatalogDiff& d, const DiffOptions& options = {});

} // namespace pb::catalog
