-- Large values (catalog files, canonical recipes, bundles, logs, JSON kept whole) are compressed with
-- lz4 instead of PostgreSQL's default pglz: a catalog's recipes and files are megabytes of YAML, and
-- pglz was most of the time the server spent storing them (issue 31's catalog benchmark). This is
-- storage only: every value reads back the same. A server built without lz4 keeps pglz.
DO $$
BEGIN
    ALTER TABLE catalog_files ALTER COLUMN content SET COMPRESSION lz4;
    ALTER TABLE overlays ALTER COLUMN spec_json SET COMPRESSION lz4;
    ALTER TABLE registry_components ALTER COLUMN entry_json SET COMPRESSION lz4;
    ALTER TABLE validator_checks ALTER COLUMN entry_json SET COMPRESSION lz4;
    ALTER TABLE recipes ALTER COLUMN canonical_yaml SET COMPRESSION lz4;
    ALTER TABLE evidence_pointers ALTER COLUMN content SET COMPRESSION lz4;
    ALTER TABLE evidence_allowlists ALTER COLUMN content SET COMPRESSION lz4;
    ALTER TABLE trusted_roots ALTER COLUMN content SET COMPRESSION lz4;
    ALTER TABLE runs ALTER COLUMN snapshot_yaml SET COMPRESSION lz4;
    ALTER TABLE run_checks ALTER COLUMN log SET COMPRESSION lz4;
    ALTER TABLE external_records ALTER COLUMN content SET COMPRESSION lz4;
    ALTER TABLE release_signatures ALTER COLUMN bundle SET COMPRESSION lz4;
    ALTER TABLE deploy_bundle_files ALTER COLUMN content SET COMPRESSION lz4;
    ALTER TABLE tuf_trusted_state ALTER COLUMN root_json SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'this server has no lz4; large values stay compressed with pglz';
END $$;
