// The AICR catalog as Proofbench models it: overlays (RecipeMetadata), mixins (RecipeMixin), the
// component registry, the validator catalog, and the RecipeResult resolution produces. Field
// names follow AICR's (pkg/recipe). Every parsed object keeps the fields it does not know in
// `extra`, so nothing a newer catalog carries is dropped.
#pragma once

#include "yaml/Yaml.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace pb::catalog {

// The apiVersion tracks of ADR-022, plus the validator catalog's own group.
enum class ApiTrack { Legacy, Stable, Authoring, Profile, Validator, Unknown };
struct ApiVersion {
    QString text; // as written, e.g. "aicr.run/v1alpha2"
    ApiTrack track = ApiTrack::Unknown;
    QString maturity; // "v1alpha1", "v1alpha2", "v1beta1", "v1", ...
};
ApiVersion classifyApiVersion(const QString& text);

struct Criteria {
    QString service, accelerator, os, intent, platform;
    int nodes = 0;

    static const QStringList& dimensions(); // service, accelerator, os, intent, platform
    QString get(const QString& dimension) const;
    void set(const QString& dimension, const QString& value);
    // AICR's asymmetric match: `this` is an overlay's criteria, `query` the user's.
    bool matches(const Criteria& query) const;
    int specificity() const;
    bool isEmpty() const;
    // "eks / h100 / ubuntu / training / kubeflow" style summary for display.
    QString summary() const;
};

// A constraint value split as AICR's pkg/constraints reads it: the longest matching operator
// among >=, <=, ==, !=, >, < and the operand. No operator means an exact string (or, in a
// validation phase, an input such as inference-model, not a threshold).
struct ConstraintValue {
    QString op;      // empty when the value has no comparator
    QString operand; // trimmed
    bool hasComparator() const { return !op.isEmpty(); }
};
ConstraintValue parseConstraintValue(const QString& value);

struct Constraint {
    QString name;
    QString value;
    QString severity;
    QString remediation;
    QString unit;
    yaml::Node extra = yaml::Node::map();
};

struct ComponentRef {
    QString name, namespace_, chart, type, source, version, tag, valuesFile, path;
    yaml::Node overrides; // map or null
    yaml::Node patches;   // null unless set
    QStringList dependencyRefs, manifestFiles, preManifestFiles;
    bool cleanup = false;
    yaml::Node expectedResources; // sequence or null
    QString healthCheckAsserts;
    bool healthCheckSkip = false;
    yaml::Node extra = yaml::Node::map();
    int line = 0;

    // AICR's IsEnabled: disabled by overrides.enabled: false or overrides.install: false.
    bool isEnabled() const;
};

struct ValidationPhase {
    QString timeout;
    std::optional<std::vector<Constraint>> constraints; // nullopt = not set (inherit)
    std::optional<QStringList> checks;                  // nullopt = inherit, empty = clear
    yaml::Node nodeSelection;                           // null unless set
    QString infrastructure;
    yaml::Node extra = yaml::Node::map();
};

struct Validation {
    // Phases in AICR's order; a phase present (even empty) is enabled.
    std::optional<ValidationPhase> readiness, deployment, performance, conformance;
    yaml::Node extra = yaml::Node::map();

    static const QStringList& phaseNames();
    std::optional<ValidationPhase>& phase(const QString& name);
    const std::optional<ValidationPhase>& phase(const QString& name) const;
    bool isEmpty() const;
};

struct OverlaySpec {
    QString base;
    Criteria criteria;
    bool hasCriteria = false;
    QStringList mixins;
    std::vector<Constraint> constraints;
    std::vector<ComponentRef> componentRefs;
    std::optional<Validation> validation;
    yaml::Node profile; // ADR-015 declaration, null when absent
    yaml::Node extra = yaml::Node::map();
};

// A catalog document: overlay (RecipeMetadata) or mixin (RecipeMixin).
struct Overlay {
    QString name;
    QString file; // path relative to the catalog root, e.g. "overlays/eks.yaml"
    ApiVersion apiVersion;
    QString kind;
    OverlaySpec spec;
    yaml::Node specNode = yaml::Node::map(); // the spec as written, unknown fields included
    QByteArray raw;                          // verbatim file bytes
};

struct RegistryComponent {
    QString name, displayName;
    QString kind;                                                              // "Helm" or "Kustomize"
    QString defaultRepository, defaultChart, defaultVersion, defaultNamespace; // helm
    QString defaultSource, defaultPath, defaultTag;                            // kustomize
    QString healthCheckAssertFile;
    QStringList manifestFiles;
    yaml::Node node; // the whole entry as written
};

struct ValidatorCheck {
    QString name, phase, description, image, timeout;
    QStringList args;
    yaml::Node node;
};

struct ValidatorCatalog {
    QString name, version;
    ApiVersion apiVersion;
    std::vector<ValidatorCheck> checks;
    const ValidatorCheck* find(const QString& name) const;
};

struct CatalogFile {
    QString path; // relative to the catalog root
    QString kind; // "overlay", "mixin", "registry", "validators", "values", "manifest", "check", "other"
    QByteArray bytes;
};

struct Catalog {
    QString root;                  // directory or resource path it was loaded from
    std::vector<Overlay> overlays; // sorted by name
    std::vector<Overlay> mixins;   // sorted by name
    std::vector<RegistryComponent> registry;
    ApiVersion registryApiVersion;
    ValidatorCatalog validators;
    bool hasValidators = false;
    std::vector<CatalogFile> files; // every file, sorted by path

    const Overlay* overlay(const QString& name) const;
    const Overlay* mixin(const QString& name) const;
    const RegistryComponent* component(const QString& name) const;
    const CatalogFile* file(const QString& path) const;
    // Overlays that no other overlay names as its base (AICR's leaves), sorted by name.
    QStringList leafNames() const;
    // sha256 over every file's path and bytes: identifies the catalog's content.
    QString contentDigest() const;
};

} // namespace pb::catalog
