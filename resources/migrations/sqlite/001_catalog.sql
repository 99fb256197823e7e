-- Catalog versions and everything they contain. Every later table (evidence, signatures, runs,
-- metrics, receipts) joins to recipes by (catalog_version_id, recipe name) or by recipe digest.

CREATE TABLE catalog_versions (
    id              INTEGER PRIMARY KEY,
    label           TEXT    NOT NULL UNIQUE,
    source          TEXT    NOT NULL,            -- directory or resource path it came from
    content_digest  TEXT    NOT NULL,            -- sha256 over every file's path and bytes
    api_versions    TEXT    NOT NULL,            -- distinct apiVersions of its documents, comma separated
    imported_at     TEXT    NOT NULL,            -- ISO 8601 UTC
    embedded        INTEGER NOT NULL DEFAULT 0   -- 1 for the built-in default catalog
);

CREATE TABLE catalog_files (
    id                  INTEGER PRIMARY KEY,
    catalog_version_id  INTEGER NOT NULL REFERENCES catalog_versions(id) ON DELETE CASCADE,
    path                TEXT    NOT NULL,        -- relative to the catalog root
    kind                TEXT    NOT NULL,        -- overlay, mixin, registry, validators, values, manifest, check, evidence, other
    sha256              TEXT    NOT NULL,
    size                INTEGER NOT NULL,
    content             BLOB    NOT NULL,        -- verbatim bytes
    UNIQUE (catalog_version_id, path)
);

CREATE TABLE overlays (
    id                  INTEGER PRIMARY KEY,
    catalog_version_id  INTEGER NOT NULL REFERENCES catalog_versions(id) ON DELETE CASCADE,
    file_id             INTEGER NOT NULL REFERENCES catalog_files(id) ON DELETE CASCADE,
    kind                TEXT    NOT NULL,        -- RecipeMetadata or RecipeMixin
    name                TEXT    NOT NULL,
    api_version         TEXT    NOT NULL,
    base                TEXT,
    service             TEXT, accelerator TEXT, os TEXT, intent TEXT, platform TEXT,
    nodes               INTEGER NOT NULL DEFAULT 0,
    mixins              TEXT    NOT NULL DEFAULT '[]',   -- JSON array
    is_leaf             INTEGER NOT NULL DEFAULT 0,
    has_profile         INTEGER NOT NULL DEFAULT 0,
    component_count     INTEGER NOT NULL DEFAULT 0,
    spec_json           TEXT    NOT NULL,        -- parsed spec, unknown fields included
    UNIQUE (catalog_version_id, kind, name)
);

CREATE TABLE registry_components (
    id                  INTEGER PRIMARY KEY,
    catalog_version_id  INTEGER NOT NULL REFERENCES catalog_versions(id) ON DELETE CASCADE,
    name                TEXT    NOT NULL,
    display_name        TEXT,
    type                TEXT,                    -- Helm or Kustomize
    default_source      TEXT,                    -- helm repository or kustomize source
    default_chart       TEXT,
    default_version     TEXT,
    default_namespace   TEXT,
    entry_json          TEXT    NOT NULL,
    UNIQUE (catalog_version_id, name)
);

CREATE TABLE validator_checks (
    id                  INTEGER PRIMARY KEY,
    catalog_version_id  INTEGER NOT NULL REFERENCES catalog_versions(id) ON DELETE CASCADE,
    name                TEXT    NOT NULL,
    phase               TEXT    NOT NULL,
    description         TEXT,
    image               TEXT,
    timeout             TEXT,
    entry_json          TEXT    NOT NULL,
    UNIQUE (catalog_version_id, name)
);

-- One row per resolved recipe coordinate (every leaf overlay of the version, and profile values).
CREATE TABLE recipes (
    id                  INTEGER PRIMARY KEY,
    catalog_version_id  INTEGER NOT NULL REFERENCES catalog_versions(id) ON DELETE CASCADE,
    name                TEXT    NOT NULL,        -- AICR recipe name, e.g. h100-eks-ubuntu-training-kubeflow
    leaf_overlay        TEXT    NOT NULL,
    service             TEXT, accelerator TEXT, os TEXT, intent TEXT, platform TEXT,
    profile             TEXT    NOT NULL DEFAULT '',   -- "name=value" or empty
    api_version         TEXT    NOT NULL,
    applied_overlays    TEXT    NOT NULL,        -- JSON array
    component_count     INTEGER NOT NULL,
    canonical_yaml      BLOB    NOT NULL,        -- AICR's deterministic YAML, no metadata.version
    digest              TEXT    NOT NULL,        -- sha256 of canonical_yaml
    UNIQUE (catalog_version_id, name, profile)
);
CREATE INDEX recipes_by_name ON recipes(name);
CREATE INDEX recipes_by_digest ON recipes(digest);

CREATE TABLE recipe_components (
    recipe_id           INTEGER NOT NULL REFERENCES recipes(id) ON DELETE CASCADE,
    position            INTEGER NOT NULL,        -- index in deploymentOrder; disabled components after
    name                TEXT    NOT NULL,
    type                TEXT, chart TEXT, version TEXT, namespace TEXT, source TEXT,
    enabled             INTEGER NOT NULL,
    dependency_refs     TEXT    NOT NULL DEFAULT '[]',
    PRIMARY KEY (recipe_id, name)
);
CREATE INDEX recipe_components_by_name ON recipe_components(name, version);
