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

struct FieldChange {
    QString field; // "version", "chart", "overrides.driver.enabled", "dependencyRefs", ...
    QString from;  // text before ("" when absent)
    QString to;    // text after
};

struct ComponentDiff {
    QString name;
    Change change = Change::Unchanged;
    std::vector<FieldChange> fields; // for Changed
    int fromOrder = -1;              // index in deploymentOrder, -1 when not deployed / absent
    int toOrder = -1;
    QString fromVersion, toVersion;  // chart version (or tag) on each side, for tables
    bool orderMoved() const { return fromOrder >= 0 && toOrder >= 0 && fromOrder != toOrder; }
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
    QString from, to; // e.g. digests or default versions, when it matters
};

struct RecipeDiff {
    QString fromLabel, toLabel; // catalog versions (or directories)
    Criteria fromCriteria, toCriteria;
    QString fromDigest, toDigest;
    std::vector<ComponentDiff> components; // sorted by name
    std::vector<ConstraintDiff> constraints;
    std::vector<CheckDiff> checks;
    std::vector<FieldChange> phaseSettings; // timeouts etc. ("performance.timeout")
    std::vector<NamedChange> appliedOverlays;
    int count(Change c) const; // components with this change
    bool identical() const { return fromDigest == toDigest; }
};

RecipeDiff diffRecipes(const RecipeResult& from, const RecipeResult& to, const QString& fromLabel = {},
                       const QString& toLabel = {});

struct CatalogDiff {
    QString fromLabel, toLabel;
    std::vector<NamedChange> overlays;   // changed = file bytes differ
    std::vector<NamedChange> mixins;
    std::vector<NamedChange> registry;   // from/to = default version (or tag)
    std::vector<NamedChange> validators; // from/to = phase
    std::vector<NamedChange> leaves;     // from/to = recipe digest
    // Components whose resolved version changed in the most leaves, most first.
    std::vector<std::pair<QString, int>> componentMoves;
    int leafCount(Change c) const;
};

CatalogDiff diffCatalogs(const Catalog& from, const Catalog& to, const QString& fromLabel = {},
                         const QString& toLabel = {});

// Renderings for the CLI and reports.
QString toText(const RecipeDiff& d);
QString toMarkdown(const RecipeDiff& d);
QJsonObject toJson(const RecipeDiff& d);
QString toText(const CatalogDiff& d);
QString toMarkdown(const CatalogDiff& d);
QJsonObject toJson(const CatalogDiff& d);

} // namespace pb::catalog
