-- Evidence pointers as imported from recipes/evidence trees. A pointer joins to recipes by
-- recipe name (recipes.name) in every catalog version; its status is derived, never typed in.

CREATE TABLE evidence_pointers (
    id                  INTEGER PRIMARY KEY,
    path                TEXT    NOT NULL UNIQUE,  -- relative to the evidence root: the pointer's identity
    sha256              TEXT    NOT NULL,         -- of the verbatim bytes
    content             BLOB    NOT NULL,
    layout              TEXT    NOT NULL,         -- per-source, flat pending, legacy flat, misplaced
    recipe              TEXT,
    profile             TEXT,
    source_dir          TEXT,                     -- <source> directory of the per-source layout
    signer_issuer       TEXT,
    signer_identity     TEXT,
    signer_slug         TEXT,                     -- recomputed from the claimed signer
    signer_class        TEXT,                     -- first-party, community, partner, reported-only
    rekor_log_index     INTEGER,
    attested_at         TEXT,                     -- RFC 3339 as written
    bundle_digest       TEXT,
    bundle_oci          TEXT,
    predicate_type      TEXT,
    valid               INTEGER NOT NULL,
    problems            TEXT    NOT NULL DEFAULT '[]',  -- JSON array of reasons when invalid
    imported_at         TEXT    NOT NULL
);
CREATE INDEX evidence_pointers_by_recipe ON evidence_pointers(recipe);

CREATE TABLE evidence_allowlists (
    id                  INTEGER PRIMARY KEY,
    path                TEXT    NOT NULL,
    sha256              TEXT    NOT NULL UNIQUE,
    content             BLOB    NOT NULL,
    imported_at         TEXT    NOT NULL
);

-- Evidence bundles read from disk (summary-bundle directories or OCI layouts), with the result of
-- the offline integrity checks. Joined to pointers by OCI manifest digest, or by recipe and
-- attestedAt for a directory bundle.
CREATE TABLE evidence_bundles (
    id                  INTEGER PRIMARY KEY,
    source              TEXT    NOT NULL UNIQUE,  -- directory or layout it was read from
    oci_digest          TEXT,                     -- sha256:<hex> of the OCI manifest, when from a layout
    recipe              TEXT,
    predicate_type      TEXT,
    attested_at         TEXT,
    aicr_version        TEXT,
    recipe_digest       TEXT,                     -- predicate.recipe.digest
    recipe_version      TEXT,                     -- metadata.version of the bundle's recipe.yaml
    phases              TEXT    NOT NULL DEFAULT '{}',  -- JSON {phase: {passed, failed, skipped}}
    signed              INTEGER NOT NULL,         -- attestation.intoto.jsonl present
    check_exit          INTEGER NOT NULL,         -- 0 valid, 1 failed phases, 2 invalid, 3 incomplete
    check_steps         TEXT    NOT NULL,         -- JSON steps with status and detail
    ctrf_tests          TEXT    NOT NULL DEFAULT '{}',  -- JSON {phase: [{name, status, duration, message}]}
    imported_at         TEXT    NOT NULL
);
CREATE INDEX evidence_bundles_by_digest ON evidence_bundles(oci_digest);
CREATE INDEX evidence_bundles_by_recipe ON evidence_bundles(recipe);

-- Per-recipe pointer counts, rebuilt by every evidence import in the same transaction, so the
-- health table reads one row per recipe instead of aggregating every pointer on each paint.
CREATE TABLE evidence_summary (
    recipe                  TEXT    PRIMARY KEY,
    pointers                INTEGER NOT NULL,
    invalid                 INTEGER NOT NULL,
    pending                 INTEGER NOT NULL,
    first_party             INTEGER NOT NULL,
    community               INTEGER NOT NULL,
    partner                 INTEGER NOT NULL,
    reported                INTEGER NOT NULL,
    newest_attested_at      TEXT,
    newest_predicate_type   TEXT
);
