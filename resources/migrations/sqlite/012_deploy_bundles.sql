-- Deployment bundles read into the database (`bundle import`): the bundle, every file verbatim
-- with its role (unknown files included, never dropped), and its components in deployment order.
-- An imported bundle is re-read from its stored files, so a later reader sees exactly what was
-- imported. recipe_*: the recipe.yaml it was made from, by digest; catalog_version_id/recipe_id
-- link it to the catalog version whose stored recipe has that evidence digest, when one does.

CREATE TABLE deploy_bundles (
    id                      INTEGER PRIMARY KEY,
    name                    TEXT    NOT NULL UNIQUE,
    source_dir              TEXT    NOT NULL,
    deployer                TEXT    NOT NULL,     -- helm, argocd, argocd-helm, flux, helmfile
    tree_digest             TEXT    NOT NULL,     -- sha256 of the sha256sum-format listing of every file
    file_count              INTEGER NOT NULL,
    total_bytes             INTEGER NOT NULL,
    component_count         INTEGER NOT NULL,
    distinct_sync_waves     INTEGER NOT NULL,
    unknown_files           TEXT    NOT NULL DEFAULT '[]',   -- JSON array of paths
    warnings                TEXT    NOT NULL DEFAULT '[]',   -- JSON array
    recipe_path             TEXT,
    recipe_sha256           TEXT,
    recipe_evidence_digest  TEXT,
    recipe_name             TEXT,
    catalog_version_id      INTEGER REFERENCES catalog_versions(id) ON DELETE SET NULL,
    recipe_id               INTEGER REFERENCES recipes(id) ON DELETE SET NULL,
    imported_at             TEXT    NOT NULL      -- ISO 8601 UTC
);

CREATE TABLE deploy_bundle_files (
    bundle_id   INTEGER NOT NULL REFERENCES deploy_bundles(id) ON DELETE CASCADE,
    path        TEXT    NOT NULL,
    role        TEXT    NOT NULL,
    component   TEXT,
    size        INTEGER NOT NULL,
    sha256      TEXT    NOT NULL,
    content     BLOB    NOT NULL,
    PRIMARY KEY (bundle_id, path)
);

CREATE TABLE deploy_bundle_components (
    bundle_id       INTEGER NOT NULL REFERENCES deploy_bundles(id) ON DELETE CASCADE,
    position        INTEGER NOT NULL,             -- 0-based deployment order
    name            TEXT    NOT NULL,
    folder          TEXT,
    sync_wave       INTEGER,                      -- NULL when none or templated
    sync_wave_text  TEXT,
    source          TEXT,                         -- upstream-chart, local-chart, path
    chart           TEXT, repository TEXT, version TEXT, namespace TEXT,
    templated       TEXT    NOT NULL DEFAULT '[]', -- JSON array of templated object fields
    detail_json     TEXT    NOT NULL,             -- the component as read (values, object, files, notes)
    PRIMARY KEY (bundle_id, position)
);
CREATE INDEX deploy_bundle_components_by_name ON deploy_bundle_components(name);
