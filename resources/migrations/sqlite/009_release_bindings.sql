-- AICR release signatures over catalogs, and the catalog versions they bind (issue #19).
-- release_signatures: a recipe-catalog Sigstore bundle of an AICR release that verified offline
-- (identity pinned to NVIDIA's tag workflow), kept verbatim with its verification, so a binding can
-- be re-checked later. subject_sha256: the signed subject, sha256(u64be(len(registry.yaml)) ||
-- registry.yaml || u64be(len(validators/catalog.yaml)) || validators/catalog.yaml);
-- registry_sha256 / validators_sha256: the predicate's resolvedDependencies digests.
-- The signature covers those two files only, never the overlays, mixins or checks.
CREATE TABLE release_signatures (
    id                  INTEGER PRIMARY KEY,
    release_version     TEXT    NOT NULL,        -- v0.19.0
    subject_name        TEXT    NOT NULL,        -- recipe-catalog
    subject_sha256      TEXT    NOT NULL,
    registry_sha256     TEXT    NOT NULL,
    validators_sha256   TEXT    NOT NULL,
    bundle              BLOB    NOT NULL,        -- the Sigstore bundle, verbatim
    bundle_sha256       TEXT    NOT NULL,
    verification_json   TEXT    NOT NULL,        -- sigstore::VerificationResult::toJson()
    policy_json         TEXT    NOT NULL,        -- identity and issuer the bundle was verified against
    trusted_root_sha256 TEXT    NOT NULL,
    verified_at         TEXT    NOT NULL,        -- ISO 8601 UTC
    UNIQUE (release_version, subject_name, bundle_sha256)
);

CREATE INDEX release_signatures_subject ON release_signatures(subject_sha256);

-- A catalog version whose registry.yaml and validators/catalog.yaml reproduce a verified subject.
CREATE TABLE catalog_release_bindings (
    id                    INTEGER PRIMARY KEY,
    catalog_version_id    INTEGER NOT NULL REFERENCES catalog_versions(id) ON DELETE CASCADE,
    release_signature_id  INTEGER NOT NULL REFERENCES release_signatures(id) ON DELETE CASCADE,
    bound_at              TEXT    NOT NULL,      -- ISO 8601 UTC
    UNIQUE (catalog_version_id, release_signature_id)
);
