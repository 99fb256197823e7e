-- One-time upgrades of stored data that SQL alone cannot compute, run by the application after the
-- migrations (ops::upgradeStoredData). A row says the upgrade is done.
-- recipe-evidence-digest: recipes.canonical_yaml and recipes.digest hold AICR's v3 evidence-canonical
-- recipe and its sha256 (the evidence digest), instead of the indent-2 deterministic YAML earlier
-- Proofbench stored. A database with no recipe yet needs nothing.
CREATE TABLE store_upgrades (
    name    TEXT PRIMARY KEY,
    done_at TEXT NOT NULL
);
INSERT INTO store_upgrades (name, done_at)
    SELECT 'recipe-evidence-digest', strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM recipes);
